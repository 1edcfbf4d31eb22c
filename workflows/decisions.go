package workflows

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/opportunity"
)

// A person's decisions are updates with validators (docs/opportunity-lifecycle.md,
// "Who may do what"). A validator refuses before anything is written to the
// history; its handler takes the lock and checks again, since the state may
// have moved while the update waited its turn.

// guard is the opening every decision's validator shares: a decision that
// reached the workflow after its caller stopped waiting is refused as late;
// one by someone it is not for, as forbidden; one on an opportunity in
// another status than from, as a transition the lifecycle does not have.
func (wf *opportunityImpl) guard(ctx workflow.Context, deadline time.Time, allowed bool, from ...opportunity.Status) error {
	switch {
	case late(ctx, deadline):
		return tooLate()
	case !allowed:
		return forbidden()
	case !slices.Contains(from, wf.st.Status):
		return transitionError(wf.st.Status)
	}
	return nil
}

// late reports whether a decision's deadline has passed (or leaves too little
// to act): the API no longer waits for it.
func late(ctx workflow.Context, deadline time.Time) bool {
	return !deadline.IsZero() && deadline.Sub(workflow.Now(ctx)) < minDecisionTime
}

// owns: the actor is the opportunity's owner (its seller, or its resale).
func (wf *opportunityImpl) owns(a opportunity.Actor) bool {
	if has(a, auth.Resale) && a.ResaleID != "" && a.ResaleID == wf.st.OwnerResaleID {
		return true
	}
	return has(a, auth.Seller) && a.UserID == wf.st.OwnerUserID
}

func validProbability(p int) bool {
	_, ok := opportunity.Probabilities[p]
	return ok
}

// appendChange logs an attribute's old and new values when they differ.
func appendChange(cs []opportunity.Change, attr, old, new string) []opportunity.Change {
	if old == new {
		return cs
	}
	return append(cs, opportunity.Change{Attribute: attr, OldValue: old, NewValue: new})
}

func statusChange(from, to opportunity.Status) opportunity.Change {
	return opportunity.Change{Attribute: "status", OldValue: string(from), NewValue: string(to)}
}

// --- register: a seller or a resale registers the opportunity (with the start) ---

func (wf *opportunityImpl) validateRegister(ctx workflow.Context, req RegisterRequest) error {
	if wf.registered {
		return invalid(MsgAlreadyRegistered)
	}
	if !has(req.Actor, auth.Resale, auth.Seller) {
		return forbidden()
	}
	return nil
}

// register stores the opportunity inside the workflow task that started the
// run (a local activity): the Update-with-Start is answered by that same task.
func (wf *opportunityImpl) register(ctx workflow.Context, req RegisterRequest) (activities.Registered, error) {
	defer wf.lock(ctx)()
	if wf.registered {
		return activities.Registered{}, invalid(MsgAlreadyRegistered)
	}
	now := workflow.Now(ctx)
	rec := req.Record
	rec.ID, rec.Brand, rec.Status, rec.CreatedAt = wf.st.ID, wf.st.Brand, opportunity.Analysis, now
	rec.UserID, rec.ResaleID = req.Actor.UserID, req.Actor.ResaleID
	var out activities.Registered
	in := activities.RegisterInput{ID: wf.st.ID, Brand: wf.st.Brand, Actor: req.Actor, Record: rec, At: now}
	if err := workflow.ExecuteLocalActivity(localRegisterOptions(ctx), a.Register, in).Get(ctx, &out); err != nil {
		wf.failed = err
		return out, err
	}
	wf.st.ResaleCNPJ = req.ResaleCNPJ
	if out.Facts.ID != "" {
		// A stored row (this registration's earlier run wrote it): take its state.
		wf.fromFacts(out.Facts)
	} else {
		wf.st.Status, wf.st.Name, wf.st.Probability = opportunity.Analysis, out.Record.Name, out.Record.ProbabilityClosing
		wf.st.OwnerUserID, wf.st.OwnerResaleID = req.Actor.UserID, req.Actor.ResaleID
		wf.st.CreatedAt, wf.st.Conflicts = out.Record.CreatedAt, out.Conflicts
		wf.st.Seq = 1 // the registration's history row
		wf.registered = true
	}
	if wf.st.Status == opportunity.Analysis && wf.st.Cycle == 0 && wf.st.Seq == 1 {
		wf.notify(ctx, noticeRegistered, true, false, "") // the same key as an earlier run's: sent once
	}
	return out, nil
}

// --- approve / disapprove: a representative decides an opportunity in analysis ---

func (wf *opportunityImpl) validateApprove(ctx workflow.Context, req ApproveRequest) error {
	if err := wf.guard(ctx, req.Deadline, has(req.Actor, auth.Representative), opportunity.Analysis); err != nil {
		return err
	}
	if strings.TrimSpace(req.Name) == "" {
		return invalid(MsgNameRequired)
	}
	if req.Probability != 0 && !validProbability(req.Probability) {
		return invalid(MsgProbability)
	}
	return validOverride(req.OverrideReason)
}

// approve writes the approval to the CRM first (its refusal leaves the
// opportunity in analysis), then records it with its validity.
func (wf *opportunityImpl) approve(ctx workflow.Context, req ApproveRequest) (Decided, error) {
	received := workflow.Now(ctx)
	defer wf.lock(ctx)()
	if err := wf.validateApprove(ctx, req); err != nil {
		return wf.decided(nil), err
	}
	earlier, err := wf.checkConflicts(ctx, req) // conflicts.go: the first approved registration wins
	if err != nil {
		return wf.decided(nil), err
	}
	name := strings.TrimSpace(req.Name)
	prob := req.Probability
	if prob == 0 {
		prob = wf.st.Probability
	}
	register, err := wf.syncCRM(ctx, received, req.Deadline, activities.CRMSyncInput{
		CRMInput: activities.CRMInput{Name: name, Probability: prob}, Status: opportunity.Approved})
	if err != nil {
		return wf.decided(nil), err // state unchanged; the API maps the CRM error to the spec's message
	}
	now := workflow.Now(ctx)
	valid := now.Add(wf.d.Validity)
	changes := []opportunity.Change{statusChange(wf.st.Status, opportunity.Approved)}
	changes = appendChange(changes, "name", wf.st.Name, name)
	changes = appendChange(changes, "probabilityClosing", fmt.Sprint(wf.st.Probability), fmt.Sprint(prob))
	changes = append(changes, overrideChanges(earlier, req.OverrideReason)...)
	applied, err := wf.applyBy(ctx, req.Deadline, opportunity.Event{Actor: &req.Actor, Status: opportunity.Approved, Name: &name, Probability: &prob,
		ApprovedAt: &now, ValidUntil: &valid, Register: &register, Changes: changes, Idem: req.Idem})
	if err != nil {
		return wf.decided(nil), err
	}
	valid = *applied.ValidUntil // the recorded one, when this is a retry of the decision
	wf.st.Status, wf.st.Name, wf.st.Probability, wf.st.ValidUntil, wf.st.Register = opportunity.Approved, name, prob, valid, register
	wf.logOverride(ctx, applied, earlier, req)
	wf.notify(ctx, noticeApproved, false, true, "")
	return wf.decided(&applied), nil
}

func (wf *opportunityImpl) validateDisapprove(ctx workflow.Context, req DisapproveRequest) error {
	if err := wf.guard(ctx, req.Deadline, has(req.Actor, auth.Representative), opportunity.Analysis); err != nil {
		return err
	}
	if strings.TrimSpace(req.Reason) == "" {
		return invalid(MsgReasonRequired)
	}
	return nil
}

func (wf *opportunityImpl) disapprove(ctx workflow.Context, req DisapproveRequest) (Decided, error) {
	defer wf.lock(ctx)()
	if err := wf.validateDisapprove(ctx, req); err != nil {
		return wf.decided(nil), err
	}
	return wf.refuse(ctx, req.Actor, req.Reason, noticeDisapproved, req.Deadline, req.Idem)
}

// refuse ends the opportunity as disapproved (a refusal in analysis or of a
// renewal); a refused renewal the CRM holds reaches it in the background.
func (wf *opportunityImpl) refuse(ctx workflow.Context, actor opportunity.Actor, reason, kind string, deadline time.Time,
	idem *opportunity.IdempotencyKey) (Decided, error) {
	reason = strings.TrimSpace(reason)
	applied, err := wf.applyBy(ctx, deadline, opportunity.Event{Actor: &actor, Status: opportunity.Disapproved, Reason: &reason,
		Changes: []opportunity.Change{statusChange(wf.st.Status, opportunity.Disapproved),
			{Attribute: "reason", OldValue: "", NewValue: reason}}, Idem: idem})
	if err != nil {
		return wf.decided(nil), err
	}
	wf.st.Status = opportunity.Disapproved
	wf.notify(ctx, kind, false, true, reason)
	if kind == noticeRenewalRefused && wf.st.Register != "" {
		wf.syncCRMLater(ctx, opportunity.Disapproved)
	}
	return wf.decided(&applied), nil
}

// --- edit: a representative changes the name or the probability of a live opportunity ---

func (wf *opportunityImpl) validateEdit(ctx workflow.Context, req EditRequest) error {
	if err := wf.guard(ctx, req.Deadline, has(req.Actor, auth.Representative),
		opportunity.Analysis, opportunity.Approved, opportunity.Renovation, opportunity.AwaitingRenovation); err != nil {
		return err
	}
	if req.Name == nil && req.Probability == nil {
		return invalid(MsgNothingToChange)
	}
	if req.Name != nil && strings.TrimSpace(*req.Name) == "" {
		return invalid(MsgNameRequired)
	}
	if req.Probability != nil && !validProbability(*req.Probability) {
		return invalid(MsgProbability)
	}
	return nil
}

// edit writes an opportunity the CRM holds there first (a refusal, such as a
// locked record, leaves it as it was); an edit that changes nothing only
// records its Idempotency-Key's answer.
func (wf *opportunityImpl) edit(ctx workflow.Context, req EditRequest) (Decided, error) {
	received := workflow.Now(ctx)
	defer wf.lock(ctx)()
	if err := wf.validateEdit(ctx, req); err != nil {
		return wf.decided(nil), err
	}
	name, prob := wf.st.Name, wf.st.Probability
	if req.Name != nil {
		name = strings.TrimSpace(*req.Name)
	}
	if req.Probability != nil {
		prob = *req.Probability
	}
	changes := appendChange(nil, "name", wf.st.Name, name)
	changes = appendChange(changes, "probabilityClosing", fmt.Sprint(wf.st.Probability), fmt.Sprint(prob))
	if len(changes) == 0 {
		wf.recordKey(ctx, req.Deadline, req.Idem)
		return wf.decided(nil), nil
	}
	register := wf.st.Register
	if register != "" {
		wf.stopCRMLater(ctx)
		id, err := wf.syncCRM(ctx, received, req.Deadline, activities.CRMSyncInput{
			CRMInput: activities.CRMInput{Name: name, Probability: prob}, Status: wf.st.Status})
		if err != nil {
			return wf.decided(nil), err
		}
		register = id
	}
	ev := opportunity.Event{Actor: &req.Actor, Status: wf.st.Status, Name: &name, Probability: &prob, Changes: changes, Idem: req.Idem}
	if register != wf.st.Register {
		ev.Register = &register
	}
	applied, err := wf.applyBy(ctx, req.Deadline, ev)
	if err != nil {
		return wf.decided(nil), err
	}
	wf.st.Name, wf.st.Probability, wf.st.Register = name, prob, register
	return wf.decided(&applied), nil
}

// --- request-renewal: the owner asks for a new validity (renewal window open, or expired) ---

func (wf *opportunityImpl) validateRequestRenewal(ctx workflow.Context, req RenewalRequest) error {
	from := []opportunity.Status{opportunity.Renovation, opportunity.Expired}
	if wf.renewalWindowOpen(ctx) {
		// The clock opened the window and the timer's transition is on its
		// way (it writes the read model, which the owner already sees, before
		// the workflow's state moves): the request is taken.
		from = append(from, opportunity.Approved)
	}
	if err := wf.guard(ctx, req.Deadline, wf.owns(req.Actor), from...); err != nil {
		return err
	}
	if errs := opportunity.CheckRenewal(req.Renewal, workflow.Now(ctx)); len(errs) > 0 {
		return invalid(errs[0].Message)
	}
	return nil
}

// renewalWindowOpen: approved, and the clock reached the renewal window's opening.
func (wf *opportunityImpl) renewalWindowOpen(ctx workflow.Context) bool {
	return wf.st.Status == opportunity.Approved && !wf.st.ValidUntil.IsZero() &&
		!workflow.Now(ctx).Before(wf.st.ValidUntil.Add(-wf.d.RenewalWindow))
}

// requestRenewal records the request with the dialog's answers and starts the
// representatives' SLA (timers.go reminds them).
func (wf *opportunityImpl) requestRenewal(ctx workflow.Context, req RenewalRequest) (Decided, error) {
	defer wf.lock(ctx)()
	if err := wf.validateRequestRenewal(ctx, req); err != nil {
		return wf.decided(nil), err
	}
	r := req.Renewal
	r.Reason = strings.TrimSpace(r.Reason)
	changes := []opportunity.Change{statusChange(wf.st.Status, opportunity.AwaitingRenovation),
		{Attribute: "reason", OldValue: "", NewValue: r.Reason}}
	changes = appendChange(changes, "probabilityClosing", fmt.Sprint(wf.st.Probability), fmt.Sprint(r.ProbabilityClosing))
	// Spec §4: the request carries the old and new values of these two, logged even when unchanged.
	changes = append(changes, opportunity.Change{Attribute: "projectStillInScope", OldValue: wf.st.ProjectStillInScope, NewValue: r.ProjectStillInScope},
		opportunity.Change{Attribute: "lastVisitDate", OldValue: wf.st.LastVisitDate, NewValue: r.LastVisitDate})
	changes = appendChange(changes, "proposalSent", "", r.ProposalSent)
	changes = appendChange(changes, "productHomologated", "", r.ProductHomologated)
	changes = appendChange(changes, "nextStep", "", r.NextStep)
	prob := r.ProbabilityClosing
	applied, err := wf.applyBy(ctx, req.Deadline, opportunity.Event{Actor: &req.Actor, Status: opportunity.AwaitingRenovation, Reason: &r.Reason,
		Probability: &prob, Renewal: &r, Changes: changes, Idem: req.Idem})
	if err != nil {
		return wf.decided(nil), err
	}
	wf.st.Status, wf.st.Probability = opportunity.AwaitingRenovation, prob
	wf.st.RenewalRequestedAt, wf.st.Reminders = workflow.Now(ctx), 0 // the representatives' SLA starts
	wf.st.ProjectStillInScope, wf.st.LastVisitDate = r.ProjectStillInScope, r.LastVisitDate
	wf.notify(ctx, noticeRenewalRequested, true, false, r.Reason)
	return wf.decided(&applied), nil
}

// --- decide-renewal: a representative approves or refuses the request ---

func (wf *opportunityImpl) validateDecideRenewal(ctx workflow.Context, req RenewalDecision) error {
	if err := wf.guard(ctx, req.Deadline, has(req.Actor, auth.Representative), opportunity.AwaitingRenovation); err != nil {
		return err
	}
	if !req.Approve && strings.TrimSpace(req.Reason) == "" {
		return invalid(MsgReasonRequired)
	}
	return nil
}

// decideRenewal refuses (the opportunity ends disapproved) or approves: the
// CRM takes the renewed approval first (reopening the record closed at the
// expiry; creating it for an opportunity that expired in analysis; a refusal
// leaves the request awaiting its decision), then the new validity is
// recorded and the next cycle continues as new.
func (wf *opportunityImpl) decideRenewal(ctx workflow.Context, req RenewalDecision) (Decided, error) {
	received := workflow.Now(ctx)
	defer wf.lock(ctx)()
	if err := wf.validateDecideRenewal(ctx, req); err != nil {
		return wf.decided(nil), err
	}
	if !req.Approve {
		return wf.refuse(ctx, req.Actor, req.Reason, noticeRenewalRefused, req.Deadline, req.Idem)
	}
	wf.stopCRMLater(ctx)
	register, err := wf.syncCRM(ctx, received, req.Deadline, activities.CRMSyncInput{CRMInput: activities.CRMInput{Name: wf.st.Name,
		Probability: wf.st.Probability}, Status: opportunity.Approved, Reopen: true})
	if err != nil {
		return wf.decided(nil), err
	}
	now := workflow.Now(ctx)
	valid := now.Add(wf.d.Validity)
	ev := opportunity.Event{Actor: &req.Actor, Status: opportunity.Approved, ApprovedAt: &now, ValidUntil: &valid,
		Changes: []opportunity.Change{statusChange(wf.st.Status, opportunity.Approved)}, Idem: req.Idem}
	if register != wf.st.Register {
		ev.Register = &register
	}
	applied, err := wf.applyBy(ctx, req.Deadline, ev)
	if err != nil {
		return wf.decided(nil), err
	}
	valid = *applied.ValidUntil // the recorded one, when this is a retry of the decision
	wf.st.Status, wf.st.ValidUntil, wf.st.Reminders, wf.st.Register = opportunity.Approved, valid, 0, register
	wf.st.RenewalRequestedAt = time.Time{}
	wf.st.Cycle++
	wf.renewed = true
	wf.notify(ctx, noticeRenewalApproved, false, true, "")
	return wf.decided(&applied), nil
}
