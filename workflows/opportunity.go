package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/opportunity"
)

// Names of the opportunity workflow's handlers.
const (
	UpdateRegister       = "register"
	UpdateApprove        = "approve"
	UpdateDisapprove     = "disapprove"
	UpdateEdit           = "edit"
	UpdateRequestRenewal = "request-renewal"
	UpdateDecideRenewal  = "decide-renewal"
	QueryState           = "state"
)

// OpportunityWorkflowID is the workflow id of an opportunity.
func OpportunityWorkflowID(id string) string { return "opportunity/" + id }

// OpportunityStart are the start options of an opportunity's workflow, with the
// summary the Temporal UI shows (no personal data); callers add the id policies.
func OpportunityStart(id, brand string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{ID: OpportunityWorkflowID(id), TaskQueue: TaskQueue,
		StaticSummary: "Oportunidade " + id + " · marca " + brand,
		StaticDetails: "Registro de oportunidade (deal registration): análise → aprovada (validade) → renovação → expirada. " +
			"No portal: /Painel/Opportunities/" + id + ". O estado atual está em Current details."}
}

// timerSummaries name, in the Temporal UI, what an opportunity's timer waits for in each status.
var timerSummaries = map[opportunity.Status]string{
	opportunity.Analysis:   "Próximo lembrete ou fim do prazo de análise",
	opportunity.Approved:   "Abertura da renovação ou fim da validade",
	opportunity.Renovation: "Fim da validade",
	opportunity.Expired:    "Fim do prazo para pedir renovação",
	// (the renewal's SLA: changeRenewalSLA)
	opportunity.AwaitingRenovation: "Próximo lembrete do pedido de renovação",
}

// Error types the API maps to HTTP statuses.
const (
	ErrTypeInvalid    = "Invalid"           // 400
	ErrTypeForbidden  = "Forbidden"         // 403
	ErrTypeTransition = "InvalidTransition" // 409
	ErrTypeLate       = "DecisionTooLate"   // 504: the caller stopped waiting before the decision's turn came
	ErrTypeCanceled   = "Canceled"          // 409: an operator cancelled the workflow
)

// Durations of the lifecycle: OPPORTUNITY_VALIDITY (2160h), OPPORTUNITY_RENEWAL_WINDOW
// (360h), APPROVAL_SLA (48h), OPPORTUNITY_EXPIRED_RETENTION (4320h), read by the worker.
type Durations = activities.Durations

// DefaultDurations are the spec's: 90 days of validity, renewal opens 15 days before.
var DefaultDurations = Durations{Validity: 2160 * time.Hour, RenewalWindow: 360 * time.Hour, ApprovalSLA: 48 * time.Hour, ExpiredRetention: 4320 * time.Hour}

// OpportunityInput starts the workflow. Durations are left empty by the starter:
// the workflow asks the worker's configuration once (a local activity) and
// carries them, with its state, when a cycle continues as new.
type OpportunityInput struct {
	ID        string            `json:"id"`
	Brand     string            `json:"brand"`
	Durations Durations         `json:"durations"`
	Carry     *OpportunityState `json:"carry,omitempty"`
	// Adopt starts a run for an opportunity already stored whose workflow is
	// gone (the reconciliation restarts it): the state is read from the database.
	Adopt bool `json:"adopt,omitempty"`
}

// OpportunityState is what the workflow knows; the state query returns it.
type OpportunityState struct {
	ID            string             `json:"id"`
	Brand         string             `json:"brand"`
	Status        opportunity.Status `json:"status"`
	Name          string             `json:"name"`
	Probability   int                `json:"probability"`
	OwnerUserID   string             `json:"ownerUserId"`
	OwnerResaleID string             `json:"ownerResaleId"`
	ResaleCNPJ    string             `json:"resaleCnpj"`
	Register      string             `json:"register"`
	CreatedAt     time.Time          `json:"createdAt"`
	ValidUntil    time.Time          `json:"validUntil"`
	Reminders     int                `json:"reminders"`
	Cycle         int                `json:"cycle"`
	// Seq numbers the run's events (their keys are id/cycle/seq); it is carried
	// across continue-as-new and never starts again, so no key is ever reused.
	Seq       int      `json:"seq"`
	Conflicts []string `json:"conflicts"`
	// RenewalRequestedAt starts the representatives' SLA of a renewal request.
	RenewalRequestedAt time.Time `json:"renewalRequestedAt,omitempty"`
	// Deleted: an operator cancelled the workflow (the read model's isDeleted).
	Deleted bool `json:"deleted,omitempty"`
	// The last renewal request's answers that its history logs old and new.
	ProjectStillInScope string `json:"projectStillInScope,omitempty"`
	LastVisitDate       string `json:"lastVisitDate,omitempty"`
}

// RegisterRequest is the registration sent with Update-with-Start.
type RegisterRequest struct {
	Actor      activities.Actor   `json:"actor"`
	ResaleCNPJ string             `json:"resaleCnpj"`
	Record     opportunity.Record `json:"record"`
}

// ApproveRequest approves an opportunity in analysis.
type ApproveRequest struct {
	Actor       activities.Actor           `json:"actor"`
	Name        string                     `json:"name"`
	Probability int                        `json:"probability"`
	Deadline    time.Time                  `json:"deadline,omitempty"`
	Idem        *activities.IdempotencyKey `json:"idem,omitempty"` // the outcome to record under the call's Idempotency-Key
}

// DisapproveRequest refuses an opportunity in analysis.
type DisapproveRequest struct {
	Actor    activities.Actor           `json:"actor"`
	Reason   string                     `json:"reason"`
	Deadline time.Time                  `json:"deadline,omitempty"`
	Idem     *activities.IdempotencyKey `json:"idem,omitempty"` // the outcome to record under the call's Idempotency-Key
}

// EditRequest changes the name and/or the probability.
type EditRequest struct {
	Actor       activities.Actor           `json:"actor"`
	Name        *string                    `json:"name,omitempty"`
	Probability *int                       `json:"probability,omitempty"`
	Deadline    time.Time                  `json:"deadline,omitempty"`
	Idem        *activities.IdempotencyKey `json:"idem,omitempty"` // the outcome to record under the call's Idempotency-Key
}

// RenewalRequest asks for a new validity period.
type RenewalRequest struct {
	Actor    activities.Actor           `json:"actor"`
	Renewal  opportunity.RenewalRequest `json:"renewal"`
	Deadline time.Time                  `json:"deadline,omitempty"`
	Idem     *activities.IdempotencyKey `json:"idem,omitempty"` // the outcome to record under the call's Idempotency-Key
}

// RenewalDecision approves or refuses a renewal request.
type RenewalDecision struct {
	Actor    activities.Actor           `json:"actor"`
	Approve  bool                       `json:"approve"`
	Reason   string                     `json:"reason"`
	Deadline time.Time                  `json:"deadline,omitempty"`
	Idem     *activities.IdempotencyKey `json:"idem,omitempty"` // the outcome to record under the call's Idempotency-Key
}

// Messages of the workflow's validators (pt-BR, shown to users).
const (
	MsgNameRequired      = "Por favor, digite um nome para a oportunidade!!"
	MsgReasonRequired    = "Informe o motivo."
	MsgProbability       = "Probabilidade de fechamento inválida."
	MsgNotAllowed        = "Você não tem permissão para esta ação."
	MsgAlreadyRegistered = "Oportunidade já registrada."
)

func transitionError(st opportunity.Status) error {
	return temporal.NewApplicationErrorWithOptions(
		fmt.Sprintf("Ação não permitida: a oportunidade está %s.", strings.ToLower(st.Label())),
		ErrTypeTransition, temporal.ApplicationErrorOptions{NonRetryable: true})
}

func invalid(msg string) error {
	return temporal.NewApplicationErrorWithOptions(msg, ErrTypeInvalid, temporal.ApplicationErrorOptions{NonRetryable: true})
}

func forbidden() error {
	return temporal.NewApplicationErrorWithOptions(MsgNotAllowed, ErrTypeForbidden, temporal.ApplicationErrorOptions{NonRetryable: true})
}

func has(a activities.Actor, roles ...auth.Role) bool {
	c := auth.Claims{Roles: a.Roles}
	return c.Has(roles...)
}

type opportunityWorkflow struct {
	st         OpportunityState
	d          Durations
	registered bool
	failed     error // the registration failed: the run fails, and a retry of the sign-up starts a new one
	busy       bool  // a handler or timer is applying a change
	inFlight   int   // notifications and background CRM syncs still running
	renewed    bool  // a renewal was approved: continue as new
	crmLater   *backgroundSync
	published  *searchAttrs // the search attributes last upserted
	// retryAt: a timer's transition failed to be recorded; it is tried again
	// then (with a growing back-off), not in a hot loop.
	retryAt  time.Time
	failures int
	quietCAN bool // changeQuietContinueAsNew
	// fast: the run started with changeWritePath, which implies every change
	// id before it (their GetVersion markers are no longer written).
	fast bool
	// localCRM: the run started with version 2 of changeWritePath: the CRM
	// write of a decision someone waits for runs as a local activity, inside
	// the workflow task that then records the decision and answers.
	localCRM bool
}

// backgroundSync is a CRM sync retrying in the background (expiry, renewal
// refusal); a later sync cancels it first, so the CRM ends with the newest state.
type backgroundSync struct {
	cancel workflow.CancelFunc
	done   workflow.Future
}

var a *activities.Activities

// Opportunity is the lifecycle of one deal registration (docs/opportunity-lifecycle.md).
func Opportunity(ctx workflow.Context, in OpportunityInput) (OpportunityState, error) {
	wf := &opportunityWorkflow{d: in.Durations}
	// Evaluated first, once per run: a run started before changeWritePath
	// (replayed, or still in flight at the deploy) keeps its old commands.
	writePath := workflow.GetVersion(ctx, changeWritePath, workflow.DefaultVersion, writePathLocalCRM)
	wf.fast, wf.localCRM = writePath >= 1, writePath >= writePathLocalCRM
	if err := wf.setup(ctx, in); err != nil {
		return wf.st, err
	}
	return wf.run(ctx, in)
}

func (wf *opportunityWorkflow) setup(ctx workflow.Context, in OpportunityInput) error {
	if in.ID == "" || in.Brand == "" {
		return temporal.NewNonRetryableApplicationError("opportunity: id and brand are required", ErrTypeInvalid, nil)
	}
	wf.st = OpportunityState{ID: in.ID, Brand: in.Brand}
	if in.Carry != nil {
		wf.st = *in.Carry
		wf.registered = true
	}
	return setHandlers(ctx, func() OpportunityState { return wf.st },
		update{UpdateRegister, wf.register, wf.validateRegister},
		update{UpdateApprove, wf.approve, wf.validateApprove},
		update{UpdateDisapprove, wf.disapprove, wf.validateDisapprove},
		update{UpdateEdit, wf.edit, wf.validateEdit},
		update{UpdateRequestRenewal, wf.requestRenewal, wf.validateRequestRenewal},
		update{UpdateDecideRenewal, wf.decideRenewal, wf.validateDecideRenewal},
		update{UpdateRepair, wf.repair, wf.validateRepair},
	)
}

func (wf *opportunityWorkflow) run(ctx workflow.Context, in OpportunityInput) (OpportunityState, error) {
	if wf.d == (Durations{}) {
		lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 5 * time.Second})
		if err := workflow.ExecuteLocalActivity(lctx, a.LifecycleDurations).Get(ctx, &wf.d); err != nil {
			return wf.st, err
		}
		if wf.d.Validity <= 0 || wf.d.ApprovalSLA <= 0 || wf.d.RenewalWindow < 0 || wf.d.RenewalWindow >= wf.d.Validity {
			wf.d = DefaultDurations
		}
	}
	if in.Adopt && !wf.registered {
		if err := wf.adopt(ctx); err != nil {
			return wf.st, err
		}
	}
	if !wf.registered {
		if err := wf.awaitRegistration(ctx); err != nil {
			return wf.st, err
		}
	}
	wf.quietCAN = wf.since(ctx, changeQuietContinueAsNew)
	for {
		if ctx.Err() != nil {
			return wf.cancelled(ctx)
		}
		wf.publish(ctx)
		if wf.renewed || wf.continueAsNewSuggested(ctx) {
			wf.drain(ctx)
			return wf.st, workflow.NewContinueAsNewError(ctx, Opportunity, OpportunityInput{ID: wf.st.ID, Brand: wf.st.Brand, Durations: wf.d, Carry: &wf.st})
		}
		now := workflow.Now(ctx)
		switch cur := wf.st.Status; cur {
		case opportunity.Analysis:
			deadline := wf.st.CreatedAt.Add(wf.d.Validity)
			reminder := wf.st.CreatedAt.Add(time.Duration(wf.st.Reminders+1) * wf.d.ApprovalSLA)
			if !wf.waitUntil(ctx, earliest(deadline, reminder), cur) {
				continue
			}
			if !workflow.Now(ctx).Before(deadline) {
				wf.timerTransition(ctx, opportunity.Expired, "expired-in-analysis", true, true)
			} else {
				wf.remind(ctx, "approval-reminder")
			}
		case opportunity.Approved:
			opens := wf.st.ValidUntil.Add(-wf.d.RenewalWindow)
			if now.Before(opens) {
				if wf.waitUntil(ctx, opens, cur) {
					wf.timerTransition(ctx, opportunity.Renovation, "renewal-open", false, true)
				}
				continue
			}
			if wf.waitUntil(ctx, wf.st.ValidUntil, cur) {
				wf.timerTransition(ctx, opportunity.Expired, "expired", false, true)
			}
		case opportunity.Renovation:
			if wf.waitUntil(ctx, wf.st.ValidUntil, cur) {
				wf.timerTransition(ctx, opportunity.Expired, "expired", false, true)
			}
		case opportunity.AwaitingRenovation:
			if wf.st.RenewalRequestedAt.IsZero() || !wf.since(ctx, changeRenewalSLA) {
				// Before changeRenewalSLA a renewal request waited without reminders.
				wf.details(ctx, time.Time{})
				_ = workflow.Await(ctx, func() bool { return wf.st.Status != cur || wf.renewed })
				continue
			}
			next := wf.st.RenewalRequestedAt.Add(time.Duration(wf.st.Reminders+1) * wf.d.ApprovalSLA)
			if wf.waitUntil(ctx, next, cur) {
				wf.remind(ctx, "renewal-reminder")
			}
		case opportunity.Expired:
			// Renewal may still be requested; after the retention the workflow ends.
			if wf.waitUntil(ctx, wf.expiredSince(ctx).Add(wf.d.ExpiredRetention), cur) {
				wf.drain(ctx)
				return wf.st, nil
			}
		case opportunity.Disapproved:
			wf.drain(ctx)
			return wf.st, nil
		}
	}
}

// RegistrationWait is how long a run started by Update-with-Start waits for its
// registration. The registration's own activity has less (registerBudget), so
// the run always learns its outcome before giving up.
const (
	RegistrationWait = time.Minute
	registerBudget   = 40 * time.Second
)

// awaitRegistration waits for the registration that came with the start. A
// registration that fails (its database write did not finish within its budget)
// fails the run: nothing of it may be stored yet, and the client's retry with
// the same key starts a new run (ALLOW_DUPLICATE_FAILED_ONLY) that adopts the
// row if the write did land after all.
func (wf *opportunityWorkflow) awaitRegistration(ctx workflow.Context) error {
	done := func() bool { return (wf.registered || wf.failed != nil) && !wf.busy }
	ok, err := awaitTimeout(ctx, wf.since(ctx, changeCancelAwaitTimers), RegistrationWait, "Prazo para o registro chegar", done)
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

// adopt reads the state of an opportunity already stored (a run started for a
// row whose workflow is gone).
func (wf *opportunityWorkflow) adopt(ctx workflow.Context) error {
	var f activities.OpportunityFacts
	if err := workflow.ExecuteActivity(dbOptions(ctx), a.OpportunityFacts, wf.st.ID).Get(ctx, &f); err != nil {
		return err
	}
	wf.fromFacts(f)
	return nil
}

// fromFacts takes the stored state of the opportunity (a registration retried
// onto a stored row, or an adoption).
func (wf *opportunityWorkflow) fromFacts(f activities.OpportunityFacts) {
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

// continueAsNewSuggested: the history grew large (many updates or reminders).
// Only between changes and with no notice or background CRM sync running (the
// run would wait for them, its timers with it): the state is carried whole.
func (wf *opportunityWorkflow) continueAsNewSuggested(ctx workflow.Context) bool {
	if wf.busy || !workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
		return false
	}
	return wf.inFlight == 0 || !wf.quietCAN
}

// cancelled ends the run an operator cancelled (Request Cancellation in the
// Temporal UI): the opportunity is marked deleted in the read model and its
// history, hidden from the lists, and the run ends as cancelled. The clean-up
// runs in a disconnected context, since ctx is cancelled.
func (wf *opportunityWorkflow) cancelled(ctx workflow.Context) (OpportunityState, error) {
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	if wf.crmLater != nil {
		wf.crmLater.cancel()
		wf.crmLater = nil
	}
	_ = workflow.Await(dctx, func() bool { return !wf.busy })
	if wf.registered && !wf.st.Deleted {
		deleted := true
		if err := wf.apply(dctx, activities.Event{Status: wf.st.Status, Deleted: &deleted, System: activities.OperatorName,
			Changes: []activities.Change{{Attribute: "isDeleted", OldValue: "false", NewValue: "true"}}}); err != nil {
			workflow.GetLogger(ctx).Error("cancellation not recorded", "err", err)
			return wf.st, err
		}
		wf.st.Deleted = true
	}
	wf.publish(dctx)
	return wf.st, temporal.NewCanceledError("cancelada pela operação")
}

// expiredSince is when the validity ended. An opportunity that expired in
// analysis has no validity: its analysis deadline counts (changeRetentionAfterAnalysis;
// before it, such a run ended at once and its renewal could not be asked for).
func (wf *opportunityWorkflow) expiredSince(ctx workflow.Context) time.Time {
	if wf.st.ValidUntil.IsZero() && wf.since(ctx, changeRetentionAfterAnalysis) {
		return wf.st.CreatedAt.Add(wf.d.Validity)
	}
	return wf.st.ValidUntil
}

func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// waitUntil sleeps until t (or, after a failed timer transition, until its
// retry) or until the status leaves cur; it reports whether the time came with
// the status unchanged (the timer fired). It reports false when ctx is
// cancelled: the loop then ends the run.
func (wf *opportunityWorkflow) waitUntil(ctx workflow.Context, t time.Time, cur opportunity.Status) bool {
	if wf.retryAt.After(t) {
		t = wf.retryAt
	}
	wf.details(ctx, t)
	changed := func() bool {
		// A suggested continue-as-new waits for a quiet moment, which may come during a wait.
		quiet := wf.quietCAN && !wf.busy && wf.inFlight == 0 && workflow.GetInfo(ctx).GetContinueAsNewSuggested()
		return wf.st.Status != cur || wf.renewed || quiet
	}
	if d := t.Sub(workflow.Now(ctx)); d > 0 {
		// The timer's summary names what it waits for in the Temporal UI.
		ok, err := awaitTimeout(ctx, wf.since(ctx, changeCancelAwaitTimers), d, timerSummaries[cur], changed)
		if ok || err != nil {
			return false
		}
	}
	if err := workflow.Await(ctx, func() bool { return !wf.busy }); err != nil {
		return false
	}
	return !changed()
}

// drain waits for running handlers and notifications before the run ends.
func (wf *opportunityWorkflow) drain(ctx workflow.Context) {
	_ = workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) && wf.inFlight == 0 })
}

// lock serialises changes: handlers and timers apply one at a time.
func (wf *opportunityWorkflow) lock(ctx workflow.Context) func() {
	_ = workflow.Await(ctx, func() bool { return !wf.busy })
	wf.busy = true
	return func() { wf.busy = false }
}

// ActivityHeartbeat: the CRM and notice activities heartbeat while they run, so
// an attempt lost with a killed worker is retried within seconds, not after its
// whole start-to-close timeout.
const ActivityHeartbeat = 3 * time.Second

// dbAttemptTimeout caps one attempt of a database activity: a write takes
// milliseconds, and an attempt lost with a killed worker is retried this soon.
const dbAttemptTimeout = 5 * time.Second

func dbOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: dbAttemptTimeout,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})
}

// decisionOptions are dbOptions ending at a decision's deadline (the caller's
// wait): a decision is recorded while its caller can still hear of it, or not at all.
func decisionOptions(ctx workflow.Context, deadline time.Time) workflow.Context {
	if deadline.IsZero() {
		return dbOptions(ctx)
	}
	left := max(deadline.Sub(workflow.Now(ctx)), time.Second)
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    min(dbAttemptTimeout, left),
		ScheduleToCloseTimeout: left,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: 5 * time.Second},
	})
}

// localDecisionOptions are decisionOptions for the local activity that records
// a decision (changeWritePath): the same attempt cap, retries and deadline.
// A local activity retries inside the worker; an attempt lost with a crashed
// worker is run again when the workflow task is retried elsewhere, which the
// event key makes harmless.
func localDecisionOptions(ctx workflow.Context, deadline time.Time) workflow.Context {
	left := max(deadline.Sub(workflow.Now(ctx)), time.Second)
	return workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout:    min(dbAttemptTimeout, left),
		ScheduleToCloseTimeout: left,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: 5 * time.Second},
	})
}

// The CRM step of a decision a person waits for (approval, edit of an
// opportunity in the CRM, renewal approval) has CRMBudget in all, attempts
// included, each attempt at most CRMAttemptTimeout, so that the API, which
// waits DecisionWait, always hears the outcome: the spec's communication error
// when the CRM is down or slow, and never an approval landing after it.
const (
	CRMRetryAttempts  = 5
	CRMAttemptTimeout = 15 * time.Second
	CRMBudget         = 45 * time.Second
	// DecisionWait is how long the API waits for a decision's answer.
	DecisionWait = 90 * time.Second
	// decisionMargin is kept, after the CRM step, for recording the decision.
	decisionMargin = 15 * time.Second
	// minCRMBudget: with less time than this left, a decision that waited for
	// its turn fails without calling the CRM.
	minCRMBudget = 5 * time.Second
)

// Change ids of workflow.GetVersion (docs/opportunity-lifecycle.md).
const (
	changeDecisionDeadline = "decision-deadline"        // a decision too late for its caller does not call the CRM
	changeCRMOnEdit        = "crm-sync-edit"            // an edit of an opportunity in the CRM is written there first
	changeCRMOnRenewal     = "crm-sync-renewal"         // a renewal approval is written to the CRM first
	changeCRMOnExpiry      = "crm-sync-expiry"          // an expiry is written to the CRM in the background
	changeCRMOnRefusal     = "crm-sync-renewal-refusal" // a renewal refusal is written to the CRM in the background
	changeRenewalSLA       = "renewal-sla"              // a renewal request reminds the representatives like an analysis
	changePublishOnChange  = "publish-on-change"        // search attributes are upserted only when they change
	// an opportunity that expired in analysis accepts renewal requests for the retention, like any expired one
	changeRetentionAfterAnalysis = "retention-after-analysis"
	// a suggested continue-as-new waits until no notice or background CRM sync runs
	changeQuietContinueAsNew = "quiet-continue-as-new"
	// The write path (docs/operations.md, "Where an approval's time goes"): the
	// registration and a decision's record are local activities, run inside the
	// workflow task. Evaluated once at the start of a run, it implies every
	// change id above, whose markers a run started with it no longer writes.
	changeWritePath = "write-path"
	// an edit that changes nothing records its Idempotency-Key's outcome (a
	// marker written only by such an edit, not implied by changeWritePath)
	changeRecordKey = "record-idempotency-key"
)

// writePathLocalCRM is version 2 of changeWritePath: also the CRM write of a
// decision someone waits for is a local activity (a run at version 1 keeps
// the CRM queue's activity for it).
const writePathLocalCRM workflow.Version = 2

// since reports whether the run takes the change: always in a run started
// with changeWritePath, else as its history recorded it.
func (wf *opportunityWorkflow) since(ctx workflow.Context, change string) bool {
	return wf.fast || workflow.GetVersion(ctx, change, workflow.DefaultVersion, 1) >= 1
}

func crmOptions(ctx workflow.Context, budget time.Duration) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:              CRMQueue(ctx),
		StartToCloseTimeout:    min(CRMAttemptTimeout, budget),
		ScheduleToCloseTimeout: budget,
		HeartbeatTimeout:       ActivityHeartbeat,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 500 * time.Millisecond, BackoffCoefficient: 2,
			MaximumInterval: 5 * time.Second, MaximumAttempts: CRMRetryAttempts},
	})
}

// localCRMOptions are crmOptions for the CRM write of a decision someone waits
// for, run as a local activity (writePathLocalCRM): the same attempts, cap and
// budget. A worker lost mid-attempt has the workflow task, and so the write,
// run again elsewhere: the upsert by external id makes that harmless.
func localCRMOptions(ctx workflow.Context, budget time.Duration) workflow.Context {
	return workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout:    min(CRMAttemptTimeout, budget),
		ScheduleToCloseTimeout: budget,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 500 * time.Millisecond, BackoffCoefficient: 2,
			MaximumInterval: 5 * time.Second, MaximumAttempts: CRMRetryAttempts},
	})
}

// crmUnavailable is the CRM communication error the API answers with 502.
func crmUnavailable(msg string, cause error) error {
	return temporal.NewNonRetryableApplicationError(msg, activities.ErrTypeCRMUnavailable, cause)
}

// syncCRM writes the opportunity to the CRM for a decision received at
// received, within what is left of the caller's wait (at most CRMBudget). It
// returns the CRM's record id, or an error the API maps to the spec's messages:
// the CRM's typed refusals as they are, a timeout as CRMUnavailable.
func (wf *opportunityWorkflow) syncCRM(ctx workflow.Context, received, deadline time.Time, in activities.CRMSyncInput) (string, error) {
	in.OpportunityID, in.Brand = wf.st.ID, wf.st.Brand
	if !deadline.IsZero() {
		// The caller's own deadline: the CRM step ends early enough for the
		// decision to be recorded before it.
		received = deadline.Add(-DecisionWait)
	}
	budget := min(CRMBudget, DecisionWait-decisionMargin-workflow.Now(ctx).Sub(received))
	if budget < minCRMBudget && !deadline.IsZero() {
		return "", tooLate()
	}
	if budget < minCRMBudget {
		if wf.since(ctx, changeDecisionDeadline) {
			return "", crmUnavailable("crm: the decision waited too long for its turn", nil)
		}
		budget = minCRMBudget // replaying a history from before the deadline: options are not replayed
	}
	var id string
	var err error
	if wf.localCRM && !deadline.IsZero() {
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

// syncCRMLater writes a status the CRM must show without holding anything up
// (timers, refusals): it retries in the background for a day, like the
// notifications, and logs a failure. A later sync supersedes it. It is a
// background sync: it pauses while the org's API usage is near its limit
// (activities.CRMSyncInput.Background).
func (wf *opportunityWorkflow) syncCRMLater(ctx workflow.Context, status opportunity.Status) {
	wf.stopCRMLater(ctx)
	in := activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: wf.st.ID, Brand: wf.st.Brand,
		Name: wf.st.Name, Probability: wf.st.Probability}, Status: status, Background: true}
	cctx, cancel := workflow.WithCancel(ctx)
	actx := workflow.WithActivityOptions(cctx, workflow.ActivityOptions{
		TaskQueue:              CRMQueue(ctx),
		StartToCloseTimeout:    CRMAttemptTimeout,
		ScheduleToCloseTimeout: 24 * time.Hour,
		HeartbeatTimeout:       ActivityHeartbeat,
		WaitForCancellation:    true, // a superseding sync starts after this one's last attempt ended
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 10 * time.Minute},
	})
	bg := &backgroundSync{cancel: cancel, done: workflow.ExecuteActivity(actx, a.SyncCRM, in)}
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
			if wf.since(ctx, changeRecordCRMSyncFailure) {
				wf.recordCRMSyncFailure(ctx, status, err)
			}
		}
	})
}

// stopCRMLater cancels a background CRM sync and waits for its attempt to end.
func (wf *opportunityWorkflow) stopCRMLater(ctx workflow.Context) {
	if bg := wf.crmLater; bg != nil {
		bg.cancel()
		_ = bg.done.Get(ctx, nil)
		wf.crmLater = nil
	}
}

// apply records an event in the read model and history (idempotent by key).
func (wf *opportunityWorkflow) apply(ctx workflow.Context, ev activities.Event) error {
	return wf.applyBy(ctx, time.Time{}, ev)
}

// applyBy is apply for a decision whose caller waits until deadline (zero: no deadline).
func (wf *opportunityWorkflow) applyBy(ctx workflow.Context, deadline time.Time, ev activities.Event) error {
	wf.st.Seq++
	ev.Key = fmt.Sprintf("%s/%d/%d", wf.st.ID, wf.st.Cycle, wf.st.Seq)
	ev.OpportunityID, ev.Brand, ev.At = wf.st.ID, wf.st.Brand, workflow.Now(ctx)
	if wf.fast && !deadline.IsZero() {
		// A decision someone waits for: recorded inside the workflow task
		// (one short, idempotent write), which then answers the update.
		return workflow.ExecuteLocalActivity(localDecisionOptions(ctx, deadline), a.Apply, ev).Get(ctx, nil)
	}
	return workflow.ExecuteActivity(decisionOptions(ctx, deadline), a.Apply, ev).Get(ctx, nil)
}

// recordKey records the outcome of a decision that changed nothing under its
// Idempotency-Key (a decision that changes something records it with its
// event, in Apply). Only a call with a key runs it, and only in runs that take
// changeRecordKey: no history recorded before it has such a command.
func (wf *opportunityWorkflow) recordKey(ctx workflow.Context, deadline time.Time, idem *activities.IdempotencyKey) {
	if idem == nil || workflow.GetVersion(ctx, changeRecordKey, workflow.DefaultVersion, 1) < 1 {
		return
	}
	ev := activities.Event{OpportunityID: wf.st.ID, Brand: wf.st.Brand, At: workflow.Now(ctx), Idem: idem}
	if err := workflow.ExecuteLocalActivity(localDecisionOptions(ctx, deadline), a.RecordKey, ev).Get(ctx, nil); err != nil {
		// The answer stands (nothing changed); a repetition is evaluated anew.
		workflow.GetLogger(ctx).Warn("idempotency key not recorded", "err", err)
	}
}

// MsgTooLate answers a decision that reached the workflow after its caller
// stopped waiting (the API answered 504): it is not carried out.
const MsgTooLate = "O sistema demorou a responder e a ação não foi realizada. Tente novamente."

func tooLate() error {
	return temporal.NewApplicationErrorWithOptions(MsgTooLate, ErrTypeLate, temporal.ApplicationErrorOptions{NonRetryable: true})
}

// late reports whether a decision's deadline has passed (or leaves too little
// to act): the API no longer waits for it.
func late(ctx workflow.Context, deadline time.Time) bool {
	return !deadline.IsZero() && deadline.Sub(workflow.Now(ctx)) < minDecisionTime
}

// minDecisionTime: a decision with less than this left before its deadline is refused.
const minDecisionTime = 2 * time.Second

// notify sends a notice without holding up the caller.
func (wf *opportunityWorkflow) notify(ctx workflow.Context, kind string, reps, owner bool, detail string) {
	key := fmt.Sprintf("%s/%d/%d/%s", wf.st.ID, wf.st.Cycle, wf.st.Seq, kind)
	if kind == "approval-reminder" || kind == "renewal-reminder" {
		key += "/" + detail // the reminder's number: reminders of one wait share the seq
	}
	n := activities.Notice{Key: key, Brand: wf.st.Brand,
		OpportunityID: wf.st.ID, Kind: kind, ToRepresentatives: reps, ToOwner: owner, Detail: detail}
	wf.inFlight++
	workflow.Go(ctx, func(ctx workflow.Context) {
		defer func() { wf.inFlight-- }()
		// A mail server may be down for hours: keep trying for a day (each
		// recipient's e-mail is sent once; the in-app notice is stored first).
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			TaskQueue:              MailQueue(ctx),
			StartToCloseTimeout:    30 * time.Second,
			ScheduleToCloseTimeout: 24 * time.Hour,
			HeartbeatTimeout:       ActivityHeartbeat,
			RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 10 * time.Minute},
		})
		if err := workflow.ExecuteActivity(actx, a.Notify, n).Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Error("notification not delivered", "kind", kind, "err", err)
		}
	})
}

// Back-off of a timer transition that could not be recorded (the read model
// row refused the event): tried again after timerRetryFirst, doubling up to
// timerRetryMax, with an alert each time (log, metric, current details).
const (
	timerRetryFirst = time.Minute
	timerRetryMax   = time.Hour
)

func (wf *opportunityWorkflow) timerTransition(ctx workflow.Context, to opportunity.Status, kind string, reps, owner bool) {
	defer wf.lock(ctx)()
	from := wf.st.Status
	if err := wf.apply(ctx, activities.Event{Status: to, Changes: []activities.Change{{Attribute: "status", OldValue: string(from), NewValue: string(to)}}}); err != nil {
		wf.failures++
		backoff := min(timerRetryFirst<<min(wf.failures-1, 10), timerRetryMax)
		wf.retryAt = workflow.Now(ctx).Add(backoff)
		workflow.GetLogger(ctx).Error("ALERT timer transition not recorded; retrying later", "to", to,
			"failures", wf.failures, "retryIn", backoff, "err", err)
		workflow.GetMetricsHandler(ctx).WithTags(map[string]string{"to": string(to)}).Counter(MetricTimerTransitionFailures).Inc(1)
		return
	}
	wf.failures, wf.retryAt = 0, time.Time{}
	wf.st.Status = to
	wf.notify(ctx, kind, reps, owner, "")
	if to == opportunity.Expired && wf.st.Register != "" && wf.since(ctx, changeCRMOnExpiry) {
		wf.syncCRMLater(ctx, opportunity.Expired)
	}
}

// MetricTimerTransitionFailures counts timer transitions (expiry, renewal
// opening) the read model refused; each is retried with back-off.
const MetricTimerTransitionFailures = "oportuna_timer_transition_failures"

// remind sends the representatives the next reminder of a wait past its SLA
// (an opportunity in analysis, a renewal request). Each reminder has its own
// notice key, so every one is delivered.
func (wf *opportunityWorkflow) remind(ctx workflow.Context, kind string) {
	defer wf.lock(ctx)()
	wf.st.Reminders++
	wf.notify(ctx, kind, true, false, fmt.Sprintf("%d", wf.st.Reminders))
}

// searchAttrs are the values of an opportunity's search attributes.
type searchAttrs struct {
	status     opportunity.Status
	overdue    bool
	cnpj       string
	validUntil time.Time
}

// publish updates the search attributes operators filter on in the Temporal UI,
// only when they changed (changePublishOnChange).
func (wf *opportunityWorkflow) publish(ctx workflow.Context) {
	cur := searchAttrs{status: wf.st.Status, cnpj: wf.st.ResaleCNPJ, validUntil: wf.st.ValidUntil,
		overdue: (wf.st.Status == opportunity.Analysis || wf.st.Status == opportunity.AwaitingRenovation) && wf.st.Reminders > 0}
	if wf.published != nil && *wf.published == cur && wf.since(ctx, changePublishOnChange) {
		return
	}
	updates := []temporal.SearchAttributeUpdate{
		AttrBrand.ValueSet(wf.st.Brand),
		AttrOpportunityStatus.ValueSet(string(cur.status)),
		AttrApprovalOverdue.ValueSet(cur.overdue),
	}
	if cur.cnpj != "" {
		updates = append(updates, AttrResaleCnpj.ValueSet(cur.cnpj))
	}
	if !cur.validUntil.IsZero() {
		updates = append(updates, AttrValidUntil.ValueSet(cur.validUntil))
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx, updates...); err != nil {
		workflow.GetLogger(ctx).Warn("search attributes not updated", "err", err)
		return
	}
	wf.published = &cur
}

func (wf *opportunityWorkflow) details(ctx workflow.Context, until time.Time) {
	var line string
	switch wf.st.Status {
	case opportunity.Analysis:
		line = fmt.Sprintf("Em análise: aguardando a decisão de um representante (lembretes enviados: %d; expira em %s).", wf.st.Reminders, wf.st.CreatedAt.Add(wf.d.Validity).Format(time.RFC3339))
	case opportunity.Approved:
		line = fmt.Sprintf("Aprovada: válida até %s; renovação abre em %s.", wf.st.ValidUntil.Format(time.RFC3339), until.Format(time.RFC3339))
	case opportunity.Renovation:
		line = fmt.Sprintf("Em renovação: aguardando o pedido da revenda até %s.", wf.st.ValidUntil.Format(time.RFC3339))
	case opportunity.AwaitingRenovation:
		line = fmt.Sprintf("Aguardando renovação: aguardando a decisão de um representante (lembretes enviados: %d).", wf.st.Reminders)
	case opportunity.Expired:
		line = fmt.Sprintf("Expirada: a revenda ainda pode pedir renovação até %s.", until.Format(time.RFC3339))
	}
	workflow.SetCurrentDetails(ctx, line)
}

// --- register ---------------------------------------------------------------

func (wf *opportunityWorkflow) validateRegister(ctx workflow.Context, req RegisterRequest) error {
	if wf.registered {
		return invalid(MsgAlreadyRegistered)
	}
	if !has(req.Actor, auth.Resale, auth.Seller) {
		return forbidden()
	}
	return nil
}

func (wf *opportunityWorkflow) register(ctx workflow.Context, req RegisterRequest) (activities.Registered, error) {
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
	var err error
	if wf.fast {
		// Written inside the workflow task that started the run: the
		// Update-with-Start is answered by that same task.
		err = workflow.ExecuteLocalActivity(localRegisterOptions(ctx), a.Register, in).Get(ctx, &out)
	} else {
		err = workflow.ExecuteActivity(registerOptions(ctx), a.Register, in).Get(ctx, &out)
	}
	if err != nil {
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
		wf.notify(ctx, "registered", true, false, "") // the same key as an earlier run's: sent once
	}
	return out, nil
}

// registerOptions bound the registration's write below the run's wait for it
// (RegistrationWait): a stalled database fails the registration, which the
// client retries, instead of a write landing after the run gave up.
func registerOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    dbAttemptTimeout,
		ScheduleToCloseTimeout: registerBudget,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: 5 * time.Second},
	})
}

// localRegisterOptions are registerOptions for the local activity of a run
// started with changeWritePath.
func localRegisterOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout:    dbAttemptTimeout,
		ScheduleToCloseTimeout: registerBudget,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: 5 * time.Second},
	})
}

// --- approve / disapprove ------------------------------------------------------

func (wf *opportunityWorkflow) validateApprove(ctx workflow.Context, req ApproveRequest) error {
	if late(ctx, req.Deadline) {
		return tooLate()
	}
	if !has(req.Actor, auth.Representative) {
		return forbidden()
	}
	if wf.st.Status != opportunity.Analysis {
		return transitionError(wf.st.Status)
	}
	if strings.TrimSpace(req.Name) == "" {
		return invalid(MsgNameRequired)
	}
	if _, ok := opportunity.Probabilities[req.Probability]; !ok && req.Probability != 0 {
		return invalid(MsgProbability)
	}
	return nil
}

func (wf *opportunityWorkflow) approve(ctx workflow.Context, req ApproveRequest) (OpportunityState, error) {
	received := workflow.Now(ctx)
	defer wf.lock(ctx)()
	if err := wf.validateApprove(ctx, req); err != nil {
		return wf.st, err // the state moved while this update waited its turn
	}
	name := strings.TrimSpace(req.Name)
	prob := req.Probability
	if prob == 0 {
		prob = wf.st.Probability
	}
	register, err := wf.syncCRM(ctx, received, req.Deadline, activities.CRMSyncInput{
		CRMInput: activities.CRMInput{Name: name, Probability: prob}, Status: opportunity.Approved})
	if err != nil {
		return wf.st, err // state unchanged; the API maps the CRM error to the spec's message
	}
	now := workflow.Now(ctx)
	valid := now.Add(wf.d.Validity)
	changes := []activities.Change{{Attribute: "status", OldValue: string(wf.st.Status), NewValue: string(opportunity.Approved)}}
	changes = appendChange(changes, "name", wf.st.Name, name)
	changes = appendChange(changes, "probabilityClosing", fmt.Sprint(wf.st.Probability), fmt.Sprint(prob))
	if err := wf.applyBy(ctx, req.Deadline, activities.Event{Actor: &req.Actor, Status: opportunity.Approved, Name: &name, Probability: &prob,
		ApprovedAt: &now, ValidUntil: &valid, Register: &register, Changes: changes, Idem: req.Idem}); err != nil {
		return wf.st, err
	}
	wf.st.Status, wf.st.Name, wf.st.Probability, wf.st.ValidUntil, wf.st.Register = opportunity.Approved, name, prob, valid, register
	wf.notify(ctx, "approved", false, true, "")
	return wf.st, nil
}

func appendChange(cs []activities.Change, attr, old, new string) []activities.Change {
	if old == new {
		return cs
	}
	return append(cs, activities.Change{Attribute: attr, OldValue: old, NewValue: new})
}

func (wf *opportunityWorkflow) validateDisapprove(ctx workflow.Context, req DisapproveRequest) error {
	if late(ctx, req.Deadline) {
		return tooLate()
	}
	if !has(req.Actor, auth.Representative) {
		return forbidden()
	}
	if wf.st.Status != opportunity.Analysis {
		return transitionError(wf.st.Status)
	}
	if strings.TrimSpace(req.Reason) == "" {
		return invalid(MsgReasonRequired)
	}
	return nil
}

func (wf *opportunityWorkflow) disapprove(ctx workflow.Context, req DisapproveRequest) (OpportunityState, error) {
	defer wf.lock(ctx)()
	if err := wf.validateDisapprove(ctx, req); err != nil {
		return wf.st, err
	}
	return wf.refuse(ctx, req.Actor, req.Reason, "disapproved", req.Deadline, req.Idem)
}

// refuse ends the opportunity as disapproved (a refusal in analysis or of a renewal).
func (wf *opportunityWorkflow) refuse(ctx workflow.Context, actor activities.Actor, reason, kind string, deadline time.Time,
	idem *activities.IdempotencyKey) (OpportunityState, error) {
	reason = strings.TrimSpace(reason)
	if err := wf.applyBy(ctx, deadline, activities.Event{Actor: &actor, Status: opportunity.Disapproved, Reason: &reason,
		Changes: []activities.Change{{Attribute: "status", OldValue: string(wf.st.Status), NewValue: string(opportunity.Disapproved)},
			{Attribute: "reason", OldValue: "", NewValue: reason}}, Idem: idem}); err != nil {
		return wf.st, err
	}
	wf.st.Status = opportunity.Disapproved
	wf.notify(ctx, kind, false, true, reason)
	if kind == "renewal-refused" && wf.st.Register != "" && wf.since(ctx, changeCRMOnRefusal) {
		wf.syncCRMLater(ctx, opportunity.Disapproved)
	}
	return wf.st, nil
}

// --- edit -----------------------------------------------------------------------

func (wf *opportunityWorkflow) validateEdit(ctx workflow.Context, req EditRequest) error {
	if late(ctx, req.Deadline) {
		return tooLate()
	}
	if !has(req.Actor, auth.Representative) {
		return forbidden()
	}
	switch wf.st.Status {
	case opportunity.Analysis, opportunity.Approved, opportunity.Renovation, opportunity.AwaitingRenovation:
	default:
		return transitionError(wf.st.Status)
	}
	if req.Name == nil && req.Probability == nil {
		return invalid("Nada a alterar.")
	}
	if req.Name != nil && strings.TrimSpace(*req.Name) == "" {
		return invalid(MsgNameRequired)
	}
	if req.Probability != nil {
		if _, ok := opportunity.Probabilities[*req.Probability]; !ok {
			return invalid(MsgProbability)
		}
	}
	return nil
}

func (wf *opportunityWorkflow) edit(ctx workflow.Context, req EditRequest) (OpportunityState, error) {
	received := workflow.Now(ctx)
	defer wf.lock(ctx)()
	if err := wf.validateEdit(ctx, req); err != nil {
		return wf.st, err
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
		return wf.st, nil
	}
	register := wf.st.Register
	if register != "" && wf.since(ctx, changeCRMOnEdit) {
		// The CRM holds the opportunity: it takes the change first; a refusal
		// (a locked record: 423) leaves the opportunity as it was.
		wf.stopCRMLater(ctx)
		id, err := wf.syncCRM(ctx, received, req.Deadline, activities.CRMSyncInput{
			CRMInput: activities.CRMInput{Name: name, Probability: prob}, Status: wf.st.Status})
		if err != nil {
			return wf.st, err
		}
		register = id
	}
	ev := activities.Event{Actor: &req.Actor, Status: wf.st.Status, Name: &name, Probability: &prob, Changes: changes, Idem: req.Idem}
	if register != wf.st.Register {
		ev.Register = &register
	}
	if err := wf.applyBy(ctx, req.Deadline, ev); err != nil {
		return wf.st, err
	}
	wf.st.Name, wf.st.Probability, wf.st.Register = name, prob, register
	return wf.st, nil
}

// --- renewal --------------------------------------------------------------------

func (wf *opportunityWorkflow) owns(a activities.Actor) bool {
	if has(a, auth.Resale) && a.ResaleID != "" && a.ResaleID == wf.st.OwnerResaleID {
		return true
	}
	return has(a, auth.Seller) && a.UserID == wf.st.OwnerUserID
}

func (wf *opportunityWorkflow) validateRequestRenewal(ctx workflow.Context, req RenewalRequest) error {
	if late(ctx, req.Deadline) {
		return tooLate()
	}
	if !wf.owns(req.Actor) {
		return forbidden()
	}
	if wf.st.Status != opportunity.Renovation && wf.st.Status != opportunity.Expired {
		return transitionError(wf.st.Status)
	}
	if errs := opportunity.CheckRenewal(req.Renewal, workflow.Now(ctx)); len(errs) > 0 {
		return invalid(errs[0].Message)
	}
	return nil
}

func (wf *opportunityWorkflow) requestRenewal(ctx workflow.Context, req RenewalRequest) (OpportunityState, error) {
	defer wf.lock(ctx)()
	if err := wf.validateRequestRenewal(ctx, req); err != nil {
		return wf.st, err
	}
	r := req.Renewal
	r.Reason = strings.TrimSpace(r.Reason)
	changes := []activities.Change{{Attribute: "status", OldValue: string(wf.st.Status), NewValue: string(opportunity.AwaitingRenovation)},
		{Attribute: "reason", OldValue: "", NewValue: r.Reason}}
	changes = appendChange(changes, "probabilityClosing", fmt.Sprint(wf.st.Probability), fmt.Sprint(r.ProbabilityClosing))
	// Spec §4: the request carries the old and new values of these two, logged even when unchanged.
	changes = append(changes, activities.Change{Attribute: "projectStillInScope", OldValue: wf.st.ProjectStillInScope, NewValue: r.ProjectStillInScope},
		activities.Change{Attribute: "lastVisitDate", OldValue: wf.st.LastVisitDate, NewValue: r.LastVisitDate})
	changes = appendChange(changes, "proposalSent", "", r.ProposalSent)
	changes = appendChange(changes, "productHomologated", "", r.ProductHomologated)
	changes = appendChange(changes, "nextStep", "", r.NextStep)
	prob := r.ProbabilityClosing
	if err := wf.applyBy(ctx, req.Deadline, activities.Event{Actor: &req.Actor, Status: opportunity.AwaitingRenovation, Reason: &r.Reason,
		Probability: &prob, Renewal: &r, Changes: changes, Idem: req.Idem}); err != nil {
		return wf.st, err
	}
	wf.st.Status, wf.st.Probability = opportunity.AwaitingRenovation, prob
	wf.st.RenewalRequestedAt, wf.st.Reminders = workflow.Now(ctx), 0 // the representatives' SLA starts
	wf.st.ProjectStillInScope, wf.st.LastVisitDate = r.ProjectStillInScope, r.LastVisitDate
	wf.notify(ctx, "renewal-requested", true, false, r.Reason)
	return wf.st, nil
}

func (wf *opportunityWorkflow) validateDecideRenewal(ctx workflow.Context, req RenewalDecision) error {
	if late(ctx, req.Deadline) {
		return tooLate()
	}
	if !has(req.Actor, auth.Representative) {
		return forbidden()
	}
	if wf.st.Status != opportunity.AwaitingRenovation {
		return transitionError(wf.st.Status)
	}
	if !req.Approve && strings.TrimSpace(req.Reason) == "" {
		return invalid(MsgReasonRequired)
	}
	return nil
}

func (wf *opportunityWorkflow) decideRenewal(ctx workflow.Context, req RenewalDecision) (OpportunityState, error) {
	received := workflow.Now(ctx)
	defer wf.lock(ctx)()
	if err := wf.validateDecideRenewal(ctx, req); err != nil {
		return wf.st, err
	}
	if !req.Approve {
		return wf.refuse(ctx, req.Actor, req.Reason, "renewal-refused", req.Deadline, req.Idem)
	}
	register := wf.st.Register
	if wf.since(ctx, changeCRMOnRenewal) {
		// The CRM takes the renewed approval first (reopening the record closed
		// at the expiry; creating it for an opportunity that expired in
		// analysis); a refusal leaves the opportunity awaiting the decision.
		wf.stopCRMLater(ctx)
		id, err := wf.syncCRM(ctx, received, req.Deadline, activities.CRMSyncInput{CRMInput: activities.CRMInput{Name: wf.st.Name,
			Probability: wf.st.Probability}, Status: opportunity.Approved, Reopen: true})
		if err != nil {
			return wf.st, err
		}
		register = id
	}
	now := workflow.Now(ctx)
	valid := now.Add(wf.d.Validity)
	ev := activities.Event{Actor: &req.Actor, Status: opportunity.Approved, ApprovedAt: &now, ValidUntil: &valid,
		Changes: []activities.Change{{Attribute: "status", OldValue: string(wf.st.Status), NewValue: string(opportunity.Approved)}}, Idem: req.Idem}
	if register != wf.st.Register {
		ev.Register = &register
	}
	if err := wf.applyBy(ctx, req.Deadline, ev); err != nil {
		return wf.st, err
	}
	wf.st.Status, wf.st.ValidUntil, wf.st.Reminders, wf.st.Register = opportunity.Approved, valid, 0, register
	wf.st.RenewalRequestedAt = time.Time{}
	wf.st.Cycle++
	wf.renewed = true
	wf.notify(ctx, "renewal-approved", false, true, "")
	return wf.st, nil
}
