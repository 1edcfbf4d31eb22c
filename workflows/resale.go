package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/auth"
)

// ResaleWorkflowID is the workflow id of a company's onboarding.
func ResaleWorkflowID(id string) string { return "resale/" + id }

// ResaleStart are the start options of a company's onboarding workflow, with the
// summary the Temporal UI shows (no personal data); callers add the id policies.
func ResaleStart(id, brand string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{ID: ResaleWorkflowID(id), TaskQueue: TaskQueue,
		StaticSummary: "Cadastro de revenda " + id + " · marca " + brand,
		StaticDetails: "Onboarding de revenda: análise → aprovada (cria o usuário da revenda) ou reprovada. " +
			"No portal: /Painel/Resales. O estado atual está em Current details."}
}

// The onboarding workflow answers the same handler names as the opportunity's:
// UpdateRegister (with the start), UpdateApprove, UpdateDisapprove, QueryState.

// ResaleInput starts the onboarding. The API starts it with the sign-up
// (Update-with-Start of UpdateRegister). Adopt starts it for a company already
// stored whose workflow is gone (a decision on it restarts one): the state is
// read from the database instead. Carry continues a long analysis as new.
type ResaleInput struct {
	ID    string       `json:"id"`
	Brand string       `json:"brand"`
	Adopt bool         `json:"adopt,omitempty"`
	Carry *ResaleState `json:"carry,omitempty"`
}

// ResaleState is what the workflow knows of a company; the state query returns it.
type ResaleState struct {
	ID        string    `json:"id"`
	Brand     string    `json:"brand"`
	Status    string    `json:"status"`
	CNPJ      string    `json:"cnpj"`
	CreatedAt time.Time `json:"createdAt"`
	Reminders int       `json:"reminders"`
	UserID    string    `json:"userId,omitempty"` // the RESALE user created on approval
}

// ResaleRegisterRequest is the sign-up sent with Update-with-Start.
type ResaleRegisterRequest struct {
	Registration activities.ResaleRegistration `json:"registration"`
}

// ResaleApproval approves a company in analysis. Portal is the base URL of the
// set-password link e-mailed to the company (empty: the mailer's PORTAL_URL);
// InviteTTL how long the link lasts (zero: auth.DefaultInviteTTL).
type ResaleApproval struct {
	Actor     activities.Actor `json:"actor"`
	Brand     string           `json:"brand"`
	Portal    string           `json:"portal,omitempty"`
	InviteTTL time.Duration    `json:"inviteTtl,omitempty"`
}

// ResaleDisapproval refuses a company in analysis, with the reason e-mailed to it.
type ResaleDisapproval struct {
	Actor  activities.Actor `json:"actor"`
	Brand  string           `json:"brand"`
	Reason string           `json:"reason"`
}

// MsgResaleReason is the answer to a refusal without a reason; MsgResaleReasonLong
// to one over MaxResaleReason characters (the dialog's cap).
const (
	MsgResaleReason     = "Informe o motivo da reprovação."
	MsgResaleReasonLong = "O motivo da reprovação deve ter no máximo 2000 caracteres."
	MaxResaleReason     = 2000
)

// changeResaleRegistrationOutcome: a run waits for a sign-up still being
// written, and fails when none was stored (it used to complete), so the row of
// a write that landed late can be adopted by a decision.
const changeResaleRegistrationOutcome = "resale-registration-outcome"

// MaxRemindersPerRun bounds a run's history: a company waiting that long
// continues as new with its state.
const MaxRemindersPerRun = 100

// ResaleTransitionMessage is the answer to a decision on a company that is not in analysis.
func ResaleTransitionMessage(status string) string {
	return "Ação não permitida: a revenda está " + activities.ResaleStatusLabel(status) + "."
}

func resaleTransitionError(status string) error {
	return temporal.NewApplicationErrorWithOptions(ResaleTransitionMessage(status), ErrTypeTransition,
		temporal.ApplicationErrorOptions{NonRetryable: true})
}

type resaleWorkflow struct {
	st       ResaleState
	sla      time.Duration
	loaded   bool // the company is stored (registered or adopted)
	failed   bool // the sign-up was refused: the run ends
	dup      bool // ... as a duplicate (nothing to adopt: the run completes)
	busy     bool
	inFlight int
	reminded int // reminders sent by this run
}

// Resale is the onboarding of one reseller company (docs/partners.md): analysis,
// then approved (its RESALE user is created and invited) or disapproved (the
// reason is e-mailed), with SLA reminders to the brand's representatives while
// it waits.
func Resale(ctx workflow.Context, in ResaleInput) (ResaleState, error) {
	wf := &resaleWorkflow{}
	if err := wf.setup(ctx, in); err != nil {
		return wf.st, err
	}
	return wf.run(ctx, in)
}

func (wf *resaleWorkflow) setup(ctx workflow.Context, in ResaleInput) error {
	if in.ID == "" || in.Brand == "" {
		return temporal.NewNonRetryableApplicationError("resale: id and brand are required", ErrTypeInvalid, nil)
	}
	wf.st = ResaleState{ID: in.ID, Brand: in.Brand}
	if in.Carry != nil {
		wf.st, wf.loaded = *in.Carry, true
	}
	return setHandlers(ctx, func() ResaleState { return wf.st },
		update{UpdateRegister, wf.register, wf.validateRegister},
		update{UpdateApprove, wf.approve, wf.validateApprove},
		update{UpdateDisapprove, wf.disapprove, wf.validateDisapprove},
	)
}

func (wf *resaleWorkflow) run(ctx workflow.Context, in ResaleInput) (ResaleState, error) {
	var d Durations
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 5 * time.Second})
	if err := workflow.ExecuteLocalActivity(lctx, a.LifecycleDurations).Get(ctx, &d); err != nil {
		return wf.st, err
	}
	wf.sla = d.ApprovalSLA
	if wf.sla <= 0 {
		wf.sla = DefaultDurations.ApprovalSLA
	}
	switch {
	case wf.loaded:
	case in.Adopt:
		var f activities.ResaleFacts
		if err := workflow.ExecuteActivity(dbOptions(ctx), a.ResaleFacts, wf.st.ID).Get(ctx, &f); err != nil {
			wf.failed = true
			wf.drain(ctx)
			return wf.st, err
		}
		wf.st.Status, wf.st.CNPJ, wf.st.CreatedAt, wf.loaded = f.Status, f.CNPJ, f.CreatedAt, true
	default:
		// Started by Update-with-Start: the sign-up arrives with the start.
		done := func() bool { return (wf.loaded || wf.failed) && !wf.busy }
		ok, err := awaitOrTimeout(ctx, RegistrationWait, "Prazo para o cadastro chegar", done)
		if err != nil {
			return wf.st, err
		}
		if !ok && wf.busy && workflow.GetVersion(ctx, changeResaleRegistrationOutcome, workflow.DefaultVersion, 1) >= 1 {
			// The sign-up is still being written: wait for its outcome.
			_ = workflow.Await(ctx, done)
		}
		if !wf.loaded {
			// Nothing is onboarded (a duplicate, a write that failed, or no
			// sign-up came). The run fails, so a decision on a row that landed
			// after all starts a new run that adopts it (ALLOW_DUPLICATE_FAILED_ONLY).
			wf.drain(ctx)
			if !wf.dup && workflow.GetVersion(ctx, changeResaleRegistrationOutcome, workflow.DefaultVersion, 1) >= 1 {
				return wf.st, temporal.NewNonRetryableApplicationError("resale: no sign-up was stored", ErrTypeInvalid, nil)
			}
			return wf.st, nil
		}
	}
	for {
		wf.publish(ctx)
		if wf.st.Status != activities.ResaleAnalysis {
			wf.drain(ctx)
			return wf.st, nil
		}
		next := wf.st.CreatedAt.Add(time.Duration(wf.st.Reminders+1) * wf.sla)
		if !wf.waitUntil(ctx, next) {
			continue
		}
		wf.remind(ctx)
		if wf.reminded >= MaxRemindersPerRun || workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			wf.drain(ctx)
			if wf.st.Status == activities.ResaleAnalysis {
				return wf.st, workflow.NewContinueAsNewError(ctx, Resale, ResaleInput{ID: wf.st.ID, Brand: wf.st.Brand, Carry: &wf.st})
			}
		}
	}
}

// waitUntil sleeps until t or until the company leaves analysis; it reports
// whether the time came with the company still in analysis, holding no lock.
func (wf *resaleWorkflow) waitUntil(ctx workflow.Context, t time.Time) bool {
	workflow.SetCurrentDetails(ctx, fmt.Sprintf("Em análise: aguardando a decisão de um representante (lembretes enviados: %d; próximo em %s).",
		wf.st.Reminders, t.Format(time.RFC3339)))
	decided := func() bool { return wf.st.Status != activities.ResaleAnalysis }
	if d := t.Sub(workflow.Now(ctx)); d > 0 {
		if ok, _ := awaitOrTimeout(ctx, d, "Próximo lembrete aos representantes", decided); ok {
			return false
		}
	}
	_ = workflow.Await(ctx, func() bool { return !wf.busy })
	return !decided()
}

func (wf *resaleWorkflow) drain(ctx workflow.Context) {
	_ = workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) && wf.inFlight == 0 })
}

func (wf *resaleWorkflow) lock(ctx workflow.Context) func() {
	_ = workflow.Await(ctx, func() bool { return !wf.busy })
	wf.busy = true
	return func() { wf.busy = false }
}

// publish updates the search attributes operators filter on (no personal data).
func (wf *resaleWorkflow) publish(ctx workflow.Context) {
	updates := []temporal.SearchAttributeUpdate{AttrBrand.ValueSet(wf.st.Brand), AttrResaleStatus.ValueSet(wf.st.Status),
		AttrApprovalOverdue.ValueSet(wf.st.Status == activities.ResaleAnalysis && wf.st.Reminders > 0)}
	if wf.st.CNPJ != "" {
		updates = append(updates, AttrResaleCnpj.ValueSet(wf.st.CNPJ))
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx, updates...); err != nil {
		workflow.GetLogger(ctx).Warn("search attributes not updated", "err", err)
	}
}

// background runs an activity after the caller got its answer; the run waits
// for it before ending. Failures are logged: the decision stands.
func (wf *resaleWorkflow) background(ctx workflow.Context, opts workflow.ActivityOptions, what string, activity any, arg any) {
	wf.inFlight++
	workflow.Go(ctx, func(ctx workflow.Context) {
		defer func() { wf.inFlight-- }()
		opts.TaskQueue = MailQueue(ctx) // every background activity of a resale is a notice or an e-mail
		if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), activity, arg).Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Error(what+" failed", "resale", wf.st.ID, "err", err)
		}
	})
}

var noticeOptions = workflow.ActivityOptions{
	StartToCloseTimeout: time.Minute,
	HeartbeatTimeout:    ActivityHeartbeat,
	RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 10, MaximumInterval: time.Minute},
}

// mailOptions retry an e-mail like SendEmail: SMTP outages of up to
// MailRetryBudget are waited out; an unsendable message is given up at once.
var mailOptions = workflow.ActivityOptions{
	StartToCloseTimeout:    2 * time.Minute,
	HeartbeatTimeout:       MailHeartbeatTimeout,
	ScheduleToCloseTimeout: MailRetryBudget,
	RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2,
		MaximumInterval: MailMaxRetryBackoff, NonRetryableErrorTypes: []string{activities.ErrTypeMailInvalid}},
}

func (wf *resaleWorkflow) notify(ctx workflow.Context, kind, suffix string) {
	n := activities.ResaleNotice{Key: "resale/" + wf.st.ID + "/" + suffix, Brand: wf.st.Brand, ResaleID: wf.st.ID, Kind: kind}
	if kind == activities.NoticeResaleReminder {
		n.Reminder, n.Since = wf.st.Reminders, wf.st.CreatedAt
	}
	wf.background(ctx, noticeOptions, "notice "+kind, a.NotifyResale, n)
}

func (wf *resaleWorkflow) remind(ctx workflow.Context) {
	defer wf.lock(ctx)()
	wf.st.Reminders++
	wf.reminded++
	wf.notify(ctx, activities.NoticeResaleReminder, fmt.Sprintf("reminder/%d", wf.st.Reminders))
}

// --- register --------------------------------------------------------------------

func (wf *resaleWorkflow) validateRegister(ctx workflow.Context, req ResaleRegisterRequest) error {
	if wf.loaded || wf.failed {
		return invalid(activities.MsgDuplicateResale)
	}
	return nil
}

func (wf *resaleWorkflow) register(ctx workflow.Context, req ResaleRegisterRequest) (ResaleState, error) {
	defer wf.lock(ctx)()
	if wf.loaded || wf.failed {
		return wf.st, invalid(activities.MsgDuplicateResale)
	}
	var f activities.ResaleFacts
	err := workflow.ExecuteActivity(registerOptions(ctx), a.RegisterResale, activities.RegisterResaleInput{
		ID: wf.st.ID, Brand: wf.st.Brand, Registration: req.Registration, At: workflow.Now(ctx),
	}).Get(ctx, &f)
	if err != nil {
		var app *temporal.ApplicationError
		wf.failed, wf.dup = true, errors.As(err, &app) && app.Type() == activities.ErrTypeDuplicate
		return wf.st, err
	}
	wf.st.Status, wf.st.CNPJ, wf.st.CreatedAt, wf.loaded = f.Status, f.CNPJ, f.CreatedAt, true
	wf.notify(ctx, activities.NoticeResaleRegistered, "registered")
	return wf.st, nil
}

// --- approve / disapprove ------------------------------------------------------------

// validateDecision checks who decides and, once the company is known, its state
// (an adopting run learns the state after the update arrived: the handler checks again).
func (wf *resaleWorkflow) validateDecision(actor activities.Actor, brandSlug string) error {
	if !has(actor, auth.Representative, auth.Support) || brandSlug != wf.st.Brand {
		return forbidden()
	}
	if wf.failed {
		return resaleTransitionError("")
	}
	if wf.loaded && wf.st.Status != activities.ResaleAnalysis {
		return resaleTransitionError(wf.st.Status)
	}
	return nil
}

func (wf *resaleWorkflow) validateApprove(ctx workflow.Context, req ResaleApproval) error {
	return wf.validateDecision(req.Actor, req.Brand)
}

func (wf *resaleWorkflow) validateDisapprove(ctx workflow.Context, req ResaleDisapproval) error {
	if err := wf.validateDecision(req.Actor, req.Brand); err != nil {
		return err
	}
	if strings.TrimSpace(req.Reason) == "" {
		return invalid(MsgResaleReason)
	}
	if utf8.RuneCountInString(req.Reason) > MaxResaleReason {
		return invalid(MsgResaleReasonLong)
	}
	return nil
}

// decide waits for the company to be known and holds the lock; it answers the
// validation error when the state moved while the update waited its turn.
func (wf *resaleWorkflow) decide(ctx workflow.Context, actor activities.Actor, brandSlug string) (func(), error) {
	_ = workflow.Await(ctx, func() bool { return wf.loaded || wf.failed })
	unlock := wf.lock(ctx)
	if err := wf.validateDecision(actor, brandSlug); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

func (wf *resaleWorkflow) approve(ctx workflow.Context, req ResaleApproval) (ResaleState, error) {
	unlock, err := wf.decide(ctx, req.Actor, req.Brand)
	if err != nil {
		return wf.st, err
	}
	defer unlock()
	var out activities.ResaleDecided
	if err := workflow.ExecuteActivity(dbOptions(ctx), a.DecideResale, activities.ResaleDecisionInput{
		ResaleID: wf.st.ID, Brand: wf.st.Brand, Actor: req.Actor, Approve: true, At: workflow.Now(ctx),
	}).Get(ctx, &out); err != nil {
		return wf.st, err
	}
	wf.st.Status, wf.st.UserID = activities.ResaleApproved, out.UserID
	wf.background(ctx, mailOptions, "approval e-mail", a.MailResaleDecision, activities.ResaleMailInput{
		ResaleID: wf.st.ID, Brand: wf.st.Brand, Approved: true, Portal: req.Portal, InviteTTL: req.InviteTTL})
	wf.notify(ctx, activities.NoticeResaleApproved, "approved")
	return wf.st, nil
}

func (wf *resaleWorkflow) disapprove(ctx workflow.Context, req ResaleDisapproval) (ResaleState, error) {
	unlock, err := wf.decide(ctx, req.Actor, req.Brand)
	if err != nil {
		return wf.st, err
	}
	defer unlock()
	if err := workflow.ExecuteActivity(dbOptions(ctx), a.DecideResale, activities.ResaleDecisionInput{
		ResaleID: wf.st.ID, Brand: wf.st.Brand, Actor: req.Actor, Reason: strings.TrimSpace(req.Reason), At: workflow.Now(ctx),
	}).Get(ctx, nil); err != nil {
		return wf.st, err
	}
	wf.st.Status = activities.ResaleDisapproved
	wf.background(ctx, mailOptions, "refusal e-mail", a.MailResaleDecision, activities.ResaleMailInput{
		ResaleID: wf.st.ID, Brand: wf.st.Brand})
	return wf.st, nil
}
