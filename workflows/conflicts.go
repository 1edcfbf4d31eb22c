package workflows

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/opportunity"
)

// The first approved registration for a customer wins (docs/deal-desk.md,
// "Conflicts"): an approval is refused while an open registration of the same
// CNPJ root at the brand was registered before this one, unless the
// representative gives a reason to override, which both records' histories
// keep. The check reads the store inside the approval's workflow task (a local
// activity), after the validator and before the CRM, so no other decision of
// this opportunity runs in between.

// ErrTypeConflict is an approval refused by an earlier registration of the
// same customer (the API answers 409 with its message).
const ErrTypeConflict = "ConflictingRegistration"

// MaxOverrideReason caps an override's reason (characters, trimmed).
const MaxOverrideReason = 500

// MsgOverrideReasonLong answers an override reason over MaxOverrideReason.
var MsgOverrideReasonLong = fmt.Sprintf("O motivo para aprovar apesar do conflito deve ter no máximo %d caracteres.", MaxOverrideReason)

// Attributes of the approval's history lines when it overrode a conflict.
const (
	AttrOverrideReason = activities.AttrOverrideReason
	AttrOverridden     = "conflictOverridden"
)

// ConflictMessage is the refusal of an approval that earlier registrations of
// the same customer hold back: the oldest one's id and status (no customer
// data), and how many more there are.
func ConflictMessage(earlier []activities.EarlierConflict) string {
	c := earlier[0]
	more := ""
	if n := len(earlier) - 1; n == 1 {
		more = " (e mais 1 registro)"
	} else if n > 1 {
		more = fmt.Sprintf(" (e mais %d registros)", n)
	}
	return fmt.Sprintf("Conflito: o registro %s, anterior a este e do mesmo cliente (mesma raiz de CNPJ), está %s%s. "+
		"Vale o primeiro registro aprovado; para aprovar este mesmo assim, informe o motivo.", c.ID, strings.ToLower(c.Status.Label()), more)
}

// validOverride checks an approval's override reason (empty: none).
func validOverride(reason string) error {
	if utf8.RuneCountInString(strings.TrimSpace(reason)) > MaxOverrideReason {
		return invalid(MsgOverrideReasonLong)
	}
	return nil
}

// earlierConflicts reads the open registrations of the same CNPJ root made
// before this one (a local activity, within the decision's deadline).
func (wf *opportunityImpl) earlierConflicts(ctx workflow.Context, deadline time.Time) ([]activities.EarlierConflict, error) {
	lctx := localDecisionOptions(ctx, deadline)
	if deadline.IsZero() {
		lctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
			StartToCloseTimeout: dbAttemptTimeout, ScheduleToCloseTimeout: registerBudget, RetryPolicy: quickRetry()})
	}
	var out []activities.EarlierConflict
	err := workflow.ExecuteLocalActivity(lctx, a.EarlierConflicts, wf.st.ID).Get(ctx, &out)
	return out, err
}

// checkConflicts refuses an approval that earlier registrations of the same
// customer hold back, unless it carries an override reason; it answers the
// registrations the approval passes over (none when there is no conflict).
func (wf *opportunityImpl) checkConflicts(ctx workflow.Context, req ApproveRequest) ([]activities.EarlierConflict, error) {
	earlier, err := wf.earlierConflicts(ctx, req.Deadline)
	if err != nil || len(earlier) == 0 {
		return nil, err
	}
	if strings.TrimSpace(req.OverrideReason) == "" {
		return nil, refusal(ConflictMessage(earlier), ErrTypeConflict)
	}
	return earlier, nil
}

// overrideChanges are the approval's history lines of an override: the
// registrations it passed over and the reason.
func overrideChanges(earlier []activities.EarlierConflict, reason string) []opportunity.Change {
	if len(earlier) == 0 {
		return nil
	}
	ids := make([]string, len(earlier))
	for i, c := range earlier {
		ids[i] = c.ID
	}
	return []opportunity.Change{{Attribute: AttrOverridden, NewValue: strings.Join(ids, ", ")},
		{Attribute: AttrOverrideReason, NewValue: strings.TrimSpace(reason)}}
}

// logOverride writes the override in the history of each registration the
// approval passed over, after the approval's answer (in the background, as a
// notice: retried until it lands; the run waits for it before ending).
func (wf *opportunityImpl) logOverride(ctx workflow.Context, ev opportunity.Event, earlier []activities.EarlierConflict, req ApproveRequest) {
	if len(earlier) == 0 {
		return
	}
	in := activities.ConflictOverride{Key: ev.Key, Brand: wf.st.Brand, OpportunityID: wf.st.ID, Actor: req.Actor,
		Reason: strings.TrimSpace(req.OverrideReason), At: ev.At}
	for _, c := range earlier {
		in.Others = append(in.Others, c.ID)
	}
	wf.inFlight++
	workflow.Go(ctx, func(ctx workflow.Context) {
		defer func() { wf.inFlight-- }()
		if err := workflow.ExecuteActivity(dbOptions(ctx), a.LogConflictOverride, in).Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Error("conflict override not logged on the earlier registrations", "err", err)
		}
	})
}
