package workflows

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/opportunity"
)

// The CRM follows the opportunity two ways (docs/integrations-crm.md):
//
//   - in the foreground (syncCRM), for a decision a person waits for: an
//     approval, an edit of an opportunity the CRM holds, a renewal approval.
//     The CRM takes the change first; its refusal or silence leaves the
//     opportunity as it was and is answered to the person;
//   - in the background (syncCRMLater), for what must not wait: an expiry, a
//     renewal refusal, a repair during an outage. It retries for a day; a
//     later sync supersedes it; one that finally fails is recorded for the
//     reconciler (crm_sync_failures).

// syncCRM writes the opportunity to the CRM for a decision received at
// received, within what is left of the caller's wait (at most CRMBudget). It
// returns the CRM's record id, or an error the API maps to the spec's messages:
// the CRM's typed refusals as they are, a timeout as CRMUnavailable.
func (wf *opportunityImpl) syncCRM(ctx workflow.Context, received, deadline time.Time, in activities.CRMSyncInput) (string, error) {
	in.OpportunityID, in.Brand = wf.st.ID, wf.st.Brand
	if !deadline.IsZero() {
		// The caller's own deadline: the CRM step ends early enough for the
		// decision to be recorded before it.
		received = deadline.Add(-DecisionWait)
	}
	budget := min(CRMBudget, DecisionWait-decisionMargin-workflow.Now(ctx).Sub(received))
	switch {
	case budget < minCRMBudget && !deadline.IsZero():
		return "", tooLate()
	case budget < minCRMBudget:
		return "", crmUnavailable("crm: the decision waited too long for its turn", nil)
	}
	var id string
	var err error
	if !deadline.IsZero() {
		// Someone waits: the CRM write runs inside this workflow task, which
		// then records the decision and answers, in one task (no activity
		// dispatch, no second task). Background syncs keep the rate-limited
		// CRM queue (docs/operations.md, Task queues).
		err = workflow.ExecuteLocalActivity(localCRMOptions(ctx, budget), a.SyncCRM, in).Get(ctx, &id)
	} else {
		err = workflow.ExecuteActivity(crmOptions(ctx, budget), a.SyncCRM, in).Get(ctx, &id)
	}
	var app *temporal.ApplicationError
	var timeout *temporal.TimeoutError
	if err != nil && !errors.As(err, &app) && errors.As(err, &timeout) {
		// Every attempt hit its cap, or the budget ran out: the CRM is too slow.
		return "", crmUnavailable("crm: no answer within "+budget.String(), err)
	}
	return id, err
}

// backgroundSync is a CRM sync retrying in the background (expiry, renewal
// refusal); a later sync cancels it first, so the CRM ends with the newest state.
type backgroundSync struct {
	cancel workflow.CancelFunc
	done   workflow.Future
}

// syncCRMLater writes a status the CRM must show without holding anything up
// (timers, refusals): it retries in the background for a day, like the
// notices, and records a failure. A later sync supersedes it. It pauses while
// the org's API usage is near its limit (activities.CRMSyncInput.Background).
func (wf *opportunityImpl) syncCRMLater(ctx workflow.Context, status opportunity.Status) {
	wf.stopCRMLater(ctx)
	in := activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: wf.st.ID, Brand: wf.st.Brand,
		Name: wf.st.Name, Probability: wf.st.Probability}, Status: status, Background: true}
	cctx, cancel := workflow.WithCancel(ctx)
	bg := &backgroundSync{cancel: cancel, done: workflow.ExecuteActivity(backgroundCRMOptions(cctx), a.SyncCRM, in)}
	wf.crmLater = bg
	wf.inFlight++
	workflow.Go(ctx, func(ctx workflow.Context) {
		defer func() { wf.inFlight-- }()
		err := bg.done.Get(ctx, nil)
		if wf.crmLater == bg {
			wf.crmLater = nil
		}
		var canceled *temporal.CanceledError
		if err != nil && !errors.As(err, &canceled) {
			workflow.GetLogger(ctx).Error("CRM not updated", "status", status, "err", err)
			wf.recordCRMSyncFailure(ctx, status, err)
		}
	})
}

// stopCRMLater cancels a background CRM sync and waits for its attempt to end.
func (wf *opportunityImpl) stopCRMLater(ctx workflow.Context) {
	if bg := wf.crmLater; bg != nil {
		bg.cancel()
		_ = bg.done.Get(ctx, nil)
		wf.crmLater = nil
	}
}

// recordCRMSyncFailure records a background sync that finally failed in
// crm_sync_failures, where the reconciler retries it.
func (wf *opportunityImpl) recordCRMSyncFailure(ctx workflow.Context, status opportunity.Status, cause error) {
	f := activities.CRMSyncFailure{OpportunityID: wf.st.ID, Brand: wf.st.Brand, Status: status, Error: cause.Error(), At: workflow.Now(ctx)}
	if err := workflow.ExecuteActivity(dbOptions(ctx), a.RecordCRMSyncFailure, f).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Error("CRM sync failure not recorded", "status", status, "err", err)
	}
}
