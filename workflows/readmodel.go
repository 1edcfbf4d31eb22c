package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/opportunity"
)

// The workflow is the truth; the read model (the opportunities table and its
// history) is what the API lists and shows. Every change is recorded there as
// an event keyed id/cycle/seq, so a retried write changes nothing.

// apply records an event nobody waits for (a timer's, a cancellation's).
func (wf *opportunityImpl) apply(ctx workflow.Context, ev opportunity.Event) error {
	_, err := wf.applyBy(ctx, time.Time{}, ev)
	return err
}

// applyBy records a decision whose caller waits until deadline (zero: no
// deadline, an activity that retries for as long as it takes), and answers
// the event as recorded (its key and time set). A decision someone waits for
// is recorded inside the workflow task (one short, idempotent write), which
// then answers the update.
func (wf *opportunityImpl) applyBy(ctx workflow.Context, deadline time.Time, ev opportunity.Event) (opportunity.Event, error) {
	wf.st.Seq++
	ev.Key = fmt.Sprintf("%s/%d/%d", wf.st.ID, wf.st.Cycle, wf.st.Seq)
	ev.OpportunityID, ev.Brand, ev.At = wf.st.ID, wf.st.Brand, workflow.Now(ctx)
	var f workflow.Future
	if deadline.IsZero() {
		f = workflow.ExecuteActivity(dbOptions(ctx), a.Apply, ev)
	} else {
		f = workflow.ExecuteLocalActivity(localDecisionOptions(ctx, deadline), a.Apply, ev)
	}
	// A retry of an event already recorded answers the validity the read
	// model holds (activities.Applied): the decision keeps its first time.
	var res activities.Applied
	err := f.Get(ctx, &res)
	if err == nil && ev.ValidUntil != nil && res.ValidUntil != nil {
		ev.ValidUntil = res.ValidUntil
		if res.ApprovedAt != nil {
			ev.ApprovedAt = res.ApprovedAt
		}
	}
	return ev, err
}

// decided is a decision's answer: the state, and the event it recorded
// (nil: it changed nothing).
func (wf *opportunityImpl) decided(ev *opportunity.Event) Decided {
	return Decided{OpportunityState: wf.st, Event: ev}
}

// recordKey records the outcome of a decision that changed nothing under its
// Idempotency-Key (a decision that changes something records it with its
// event, in Apply). Only a call with a key runs it.
func (wf *opportunityImpl) recordKey(ctx workflow.Context, deadline time.Time, idem *opportunity.IdempotencyKey) {
	if idem == nil {
		return
	}
	ev := opportunity.Event{OpportunityID: wf.st.ID, Brand: wf.st.Brand, At: workflow.Now(ctx), Idem: idem}
	if err := workflow.ExecuteLocalActivity(localDecisionOptions(ctx, deadline), a.RecordKey, ev).Get(ctx, nil); err != nil {
		// The answer stands (nothing changed); a repetition is evaluated anew.
		workflow.GetLogger(ctx).Warn("idempotency key not recorded", "err", err)
	}
}

// adoptStored reads the state of an opportunity already stored (a run started
// for a row whose workflow is gone).
func (wf *opportunityImpl) adoptStored(ctx workflow.Context) error {
	var f activities.OpportunityFacts
	if err := workflow.ExecuteActivity(dbOptions(ctx), a.OpportunityFacts, wf.st.ID).Get(ctx, &f); err != nil {
		return err
	}
	wf.fromFacts(f)
	wf.assign(ctx) // the stored assignment (or, for a row that predates routing, the rules' one)
	return nil
}

// fromFacts takes the stored state of the opportunity (a registration retried
// onto a stored row, or an adoption).
func (wf *opportunityImpl) fromFacts(f activities.OpportunityFacts) {
	wf.st.Status, wf.st.Name, wf.st.Probability, wf.st.Register = f.Status, f.Name, f.Probability, f.Register
	wf.st.OwnerUserID, wf.st.OwnerResaleID, wf.st.CreatedAt, wf.st.Conflicts = f.UserID, f.ResaleID, f.CreatedAt, f.Conflicts
	if f.ValidUntil != nil {
		wf.st.ValidUntil = *f.ValidUntil
	}
	if f.ResaleCNPJ != "" {
		wf.st.ResaleCNPJ = f.ResaleCNPJ
	}
	if f.RequestRenovationAt != nil {
		wf.st.RenewalRequestedAt = *f.RequestRenovationAt
	}
	wf.st.ProjectStillInScope, wf.st.LastVisitDate = f.ProjectStillInScope, f.LastVisitDate
	// Event keys (id/cycle/seq) already used by an earlier run are never reused.
	wf.st.Cycle, wf.st.Seq = max(wf.st.Cycle, f.Cycle), max(wf.st.Seq, f.Seq, 1)
	wf.registered = true
}
