package workflows

import (
	"slices"
	"sort"
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/coverage"
	"oportuna/opportunity"
)

// Routing (docs/deal-desk.md, "Routing"): at registration the workflow
// computes the responsible representatives from the brand's coverage rules in
// force and carries them in its state (and the Representatives search
// attribute); its notices to representatives go to them, and from the
// coverage.EscalateFrom-th SLA reminder to every representative of the brand.
// A representative or support reassigns them with a reason (UpdateReassign).

// assign stores the registration's responsible representatives (a local
// activity in the task of the registration: its result is in the history, so
// a replay never computes them again). An opportunity that has them (a retry,
// an adopted row) keeps them. A failure leaves none: the notices then go to
// every representative of the brand.
func (wf *opportunityImpl) assign(ctx workflow.Context) {
	var ids []string
	in := activities.AssignInput{ID: wf.st.ID, Brand: wf.st.Brand}
	if err := workflow.ExecuteLocalActivity(localRegisterOptions(ctx), a.AssignRepresentatives, in).Get(ctx, &ids); err != nil {
		workflow.GetLogger(ctx).Error("representatives not assigned; notices go to every representative", "err", err)
		return
	}
	wf.st.Representatives = ids
}

// route narrows a notice to representatives to the responsible ones; an SLA
// reminder from the coverage.EscalateFrom-th on goes to every representative
// of the brand, and says so.
func (wf *opportunityImpl) route(n *activities.Notice) {
	if !n.ToRepresentatives {
		return
	}
	if (n.Kind == noticeApprovalReminder || n.Kind == noticeRenewalReminder) && coverage.Escalated(wf.st.Reminders) {
		n.Escalated = true
		return
	}
	n.Representatives = wf.st.Representatives
}

// noticeReassigned tells the new responsible representatives.
const noticeReassigned = "reassigned"

// ReassignRequest changes an opportunity's responsible representatives. The
// API checks that each is a representative of the brand; the reason is logged
// in the history.
type ReassignRequest struct {
	Actor           opportunity.Actor `json:"actor"`
	Representatives []string          `json:"representatives"`
	Reason          string            `json:"reason"`
	Deadline        time.Time         `json:"deadline,omitempty"`
}

// Messages of a refused reassignment.
const (
	MsgReassignReason = "Informe o motivo da redistribuição."
	MsgReassignNone   = "Escolha ao menos um representante responsável."
	MsgReassignSame   = "Esses já são os representantes responsáveis."
	MaxReassignReason = 2000
	MsgReassignLong   = "O motivo deve ter no máximo 2000 caracteres."
)

// reassignable: a registration still alive (a refused one has nobody to answer for it).
var reassignable = []opportunity.Status{opportunity.Analysis, opportunity.Approved, opportunity.Renovation,
	opportunity.AwaitingRenovation, opportunity.Expired}

// sortedIDs is ids sorted, each once.
func sortedIDs(ids []string) []string {
	out := append([]string{}, ids...)
	sort.Strings(out)
	return slices.Compact(out)
}

func (wf *opportunityImpl) validateReassign(ctx workflow.Context, req ReassignRequest) error {
	if err := wf.guard(ctx, req.Deadline, has(req.Actor, auth.Representative, auth.Support), reassignable...); err != nil {
		return err
	}
	reason := strings.TrimSpace(req.Reason)
	switch {
	case reason == "":
		return invalid(MsgReassignReason)
	case len([]rune(reason)) > MaxReassignReason:
		return invalid(MsgReassignLong)
	case len(req.Representatives) == 0 || slices.Contains(req.Representatives, ""):
		return invalid(MsgReassignNone)
	case slices.Equal(sortedIDs(req.Representatives), sortedIDs(wf.st.Representatives)):
		return invalid(MsgReassignSame)
	}
	return nil
}

// reassign records the new responsible representatives with the reason in the
// history, carries them in the state (and the search attribute, at the next
// publish) and tells them.
func (wf *opportunityImpl) reassign(ctx workflow.Context, req ReassignRequest) (Decided, error) {
	defer wf.lock(ctx)()
	if err := wf.validateReassign(ctx, req); err != nil {
		return wf.decided(nil), err
	}
	ids := sortedIDs(req.Representatives)
	changes := []opportunity.Change{
		{Attribute: "representative", OldValue: strings.Join(wf.st.Representatives, ","), NewValue: strings.Join(ids, ",")},
		{Attribute: "reassignReason", NewValue: strings.TrimSpace(req.Reason)},
	}
	applied, err := wf.applyBy(ctx, req.Deadline, opportunity.Event{Actor: &req.Actor, Status: wf.st.Status,
		Representatives: ids, Changes: changes})
	if err != nil {
		return wf.decided(nil), err
	}
	wf.st.Representatives = ids
	wf.notify(ctx, noticeReassigned, true, false, "")
	return wf.decided(&applied), nil
}
