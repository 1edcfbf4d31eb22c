package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/opportunity"
)

// a names the activities' methods for the workflows (never called on it: the
// worker runs the registered instance).
var a *activities.Activities

// opportunityImpl is one run of an opportunity's workflow: what it knows (st:
// the state query's answer, carried whole when a cycle continues as new) and
// what the run is doing.
type opportunityImpl struct {
	st         OpportunityState
	d          Durations
	adopt      bool  // read the stored row instead of waiting for a registration
	registered bool  // the opportunity is stored (registered, adopted or carried)
	failed     error // the registration failed: the run fails, and a retry of the sign-up starts a new one
	busy       bool  // a handler or timer is applying a change (lock)
	inFlight   int   // notices and background CRM syncs still running
	renewed    bool  // a renewal was approved: the next cycle continues as new
	crmLater   *backgroundSync
	published  *searchAttrs // the search attributes last upserted
	// retryAt: a timer's transition failed to be recorded; it is tried again
	// then (with a growing back-off), not in a hot loop.
	retryAt  time.Time
	failures int
}

// Opportunity is the lifecycle of one deal registration (docs/opportunity-lifecycle.md).
func Opportunity(ctx workflow.Context, in OpportunityInput) (OpportunityState, error) {
	wf := new(opportunityImpl)
	if err := wf.setup(ctx, in); err != nil {
		return wf.st, err
	}
	return wf.run(ctx)
}

// setup takes the input (a carried state continues a cycle) and registers the
// state query and the updates: a person's decisions (decisions.go) and the
// reconciler's repair (repair.go).
func (wf *opportunityImpl) setup(ctx workflow.Context, in OpportunityInput) error {
	if in.ID == "" || in.Brand == "" {
		return temporal.NewNonRetryableApplicationError("opportunity: id and brand are required", ErrTypeInvalid, nil)
	}
	wf.st, wf.d, wf.adopt = OpportunityState{ID: in.ID, Brand: in.Brand}, in.Durations, in.Adopt
	if in.Carry != nil {
		wf.st, wf.registered = *in.Carry, true
	}
	return setHandlers(ctx, func() OpportunityState { return wf.st },
		update{UpdateRegister, wf.register, wf.validateRegister},
		update{UpdateApprove, wf.approve, wf.validateApprove},
		update{UpdateDisapprove, wf.disapprove, wf.validateDisapprove},
		update{UpdateEdit, wf.edit, wf.validateEdit},
		update{UpdateRequestRenewal, wf.requestRenewal, wf.validateRequestRenewal},
		update{UpdateDecideRenewal, wf.decideRenewal, wf.validateDecideRenewal},
		update{UpdateRepair, wf.repair, wf.validateRepair},
		update{UpdateReassign, wf.reassign, wf.validateReassign},
	)
}

// run is the lifecycle, top to bottom: the worker's durations; the
// registration that came with the start (or the stored row, adopted); then,
// between the decisions the updates bring, the timers of each status
// (timers.go) until the opportunity is disapproved or its retention ends. A
// renewal approval, or a history the server finds long, continues as new with
// the state; an operator's cancellation ends the run as cancelled.
func (wf *opportunityImpl) run(ctx workflow.Context) (OpportunityState, error) {
	if err := wf.loadDurations(ctx); err != nil {
		return wf.st, err
	}
	if err := wf.awaitRegistration(ctx); err != nil {
		return wf.st, err
	}
	for {
		if ctx.Err() != nil {
			return wf.cancelled(ctx)
		}
		wf.publish(ctx)
		if wf.renewed || wf.continueAsNewSuggested(ctx) {
			wf.drain(ctx)
			return wf.st, workflow.NewContinueAsNewError(ctx, Opportunity,
				OpportunityInput{ID: wf.st.ID, Brand: wf.st.Brand, Durations: wf.d, Carry: &wf.st})
		}
		if ended := wf.awaitNextTimer(ctx); ended {
			wf.drain(ctx)
			return wf.st, nil
		}
	}
}

// loadDurations asks the worker once per workflow (a later cycle carries them);
// a configuration that makes no lifecycle falls back to the spec's.
func (wf *opportunityImpl) loadDurations(ctx workflow.Context) error {
	if wf.d != (Durations{}) {
		return nil
	}
	d, err := lifecycleDurations(ctx)
	if err != nil {
		return err
	}
	if d.Validity <= 0 || d.ApprovalSLA <= 0 || d.RenewalWindow < 0 || d.RenewalWindow >= d.Validity {
		d = DefaultDurations
	}
	wf.d = d
	return nil
}

// awaitRegistration waits for the registration that came with the start (or
// adopts the stored row). A registration that fails (its database write did
// not finish within its budget) fails the run: nothing of it may be stored
// yet, and the client's retry with the same key starts a new run
// (ALLOW_DUPLICATE_FAILED_ONLY) that adopts the row if the write did land after all.
func (wf *opportunityImpl) awaitRegistration(ctx workflow.Context) error {
	switch {
	case wf.registered:
		return nil
	case wf.adopt:
		return wf.adoptStored(ctx)
	}
	done := func() bool { return (wf.registered || wf.failed != nil) && !wf.busy }
	ok, err := awaitOrTimeout(ctx, RegistrationWait, "Prazo para o registro chegar", done)
	if err != nil {
		return temporal.NewCanceledError()
	}
	if !ok && wf.busy {
		// The registration is still being written: wait for its outcome, never
		// end the run under a write that may land.
		_ = workflow.Await(ctx, done)
	}
	switch {
	case wf.failed != nil:
		wf.drain(ctx)
		return temporal.NewNonRetryableApplicationError("opportunity: the registration was not stored", ErrTypeInvalid, wf.failed)
	case !wf.registered:
		return temporal.NewNonRetryableApplicationError("opportunity: no registration arrived", ErrTypeInvalid, nil)
	}
	return nil
}

// continueAsNewSuggested: the history grew large (many updates or reminders).
// Only between changes and with no notice or background CRM sync running (the
// run would wait for them, its timers with it): the state is carried whole.
func (wf *opportunityImpl) continueAsNewSuggested(ctx workflow.Context) bool {
	return wf.quiet() && workflow.GetInfo(ctx).GetContinueAsNewSuggested()
}

// quiet: no change is being applied and nothing runs in the background.
func (wf *opportunityImpl) quiet() bool { return !wf.busy && wf.inFlight == 0 }

// cancelled ends the run an operator cancelled (Request Cancellation in the
// Temporal UI): the opportunity is marked deleted in the read model and its
// history, hidden from the lists, and the run ends as cancelled. The clean-up
// runs in a disconnected context, since ctx is cancelled.
func (wf *opportunityImpl) cancelled(ctx workflow.Context) (OpportunityState, error) {
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	if wf.crmLater != nil {
		wf.crmLater.cancel()
		wf.crmLater = nil
	}
	_ = workflow.Await(dctx, func() bool { return !wf.busy })
	if wf.registered && !wf.st.Deleted {
		deleted := true
		if err := wf.apply(dctx, opportunity.Event{Status: wf.st.Status, Deleted: &deleted, System: activities.OperatorName,
			Changes: []opportunity.Change{{Attribute: "isDeleted", OldValue: "false", NewValue: "true"}}}); err != nil {
			workflow.GetLogger(ctx).Error("cancellation not recorded", "err", err)
			return wf.st, err
		}
		wf.st.Deleted = true
	}
	wf.publish(dctx)
	return wf.st, temporal.NewCanceledError("cancelada pela operação")
}

// drain waits for running handlers, notices and background syncs before the run ends.
func (wf *opportunityImpl) drain(ctx workflow.Context) {
	_ = workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) && wf.inFlight == 0 })
}

// lock serialises changes: handlers and timers apply one at a time.
func (wf *opportunityImpl) lock(ctx workflow.Context) func() {
	_ = workflow.Await(ctx, func() bool { return !wf.busy })
	wf.busy = true
	return func() { wf.busy = false }
}
