package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/opportunity"
	"oportuna/resale"
)

// MaxRemindersPerRun bounds a run's history: a company waiting that long
// continues as new with its state.
const MaxRemindersPerRun = 100

// resaleImpl is one run of a company's onboarding.
type resaleImpl struct {
	st       ResaleState
	sla      time.Duration
	adopt    bool // read the stored company instead of waiting for a sign-up
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
	wf := new(resaleImpl)
	if err := wf.setup(ctx, in); err != nil {
		return wf.st, err
	}
	return wf.run(ctx)
}

func (wf *resaleImpl) setup(ctx workflow.Context, in ResaleInput) error {
	if in.ID == "" || in.Brand == "" {
		return temporal.NewNonRetryableApplicationError("resale: id and brand are required", ErrTypeInvalid, nil)
	}
	wf.st, wf.adopt = ResaleState{ID: in.ID, Brand: in.Brand}, in.Adopt
	if in.Carry != nil {
		wf.st, wf.loaded = *in.Carry, true
	}
	return setHandlers(ctx, func() ResaleState { return wf.st },
		update{UpdateRegister, wf.register, wf.validateRegister},
		update{UpdateApprove, wf.approve, wf.validateApprove},
		update{UpdateDisapprove, wf.disapprove, wf.validateDisapprove},
	)
}

// run: the worker's SLA; the sign-up that came with the start (or the stored
// company, adopted); then a reminder every SLA until a representative
// decides. A long wait continues as new with the state.
func (wf *resaleImpl) run(ctx workflow.Context) (ResaleState, error) {
	d, err := lifecycleDurations(ctx)
	if err != nil {
		return wf.st, err
	}
	wf.sla = d.ApprovalSLA
	if wf.sla <= 0 {
		wf.sla = DefaultDurations.ApprovalSLA
	}
	if err := wf.awaitSignUp(ctx); err != nil || !wf.loaded {
		return wf.st, err
	}
	for {
		wf.publish(ctx)
		if wf.st.Status != resale.Analysis {
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
			if wf.st.Status == resale.Analysis {
				return wf.st, workflow.NewContinueAsNewError(ctx, Resale, ResaleInput{ID: wf.st.ID, Brand: wf.st.Brand, Carry: &wf.st})
			}
		}
	}
}

// awaitSignUp waits for the sign-up that came with the start, or adopts the
// stored company. When nothing is onboarded (a duplicate, a write that
// failed, or no sign-up came) the run ends: it fails, so that a decision on a
// row that landed after all starts a new run that adopts it
// (ALLOW_DUPLICATE_FAILED_ONLY); a duplicate completes (nothing to adopt).
func (wf *resaleImpl) awaitSignUp(ctx workflow.Context) error {
	switch {
	case wf.loaded:
		return nil
	case wf.adopt:
		var f activities.ResaleFacts
		if err := workflow.ExecuteActivity(dbOptions(ctx), a.ResaleFacts, wf.st.ID).Get(ctx, &f); err != nil {
			wf.failed = true
			wf.drain(ctx)
			return err
		}
		wf.st.Status, wf.st.CNPJ, wf.st.CreatedAt, wf.loaded = f.Status, f.CNPJ, f.CreatedAt, true
		return nil
	}
	done := func() bool { return (wf.loaded || wf.failed) && !wf.busy }
	ok, err := awaitOrTimeout(ctx, RegistrationWait, "Prazo para o cadastro chegar", done)
	if err != nil {
		return err
	}
	if !ok && wf.busy {
		// The sign-up is still being written: wait for its outcome.
		_ = workflow.Await(ctx, done)
	}
	if wf.loaded {
		return nil
	}
	wf.drain(ctx)
	if wf.dup {
		return nil
	}
	return temporal.NewNonRetryableApplicationError("resale: no sign-up was stored", ErrTypeInvalid, nil)
}

// waitUntil sleeps until t or until the company leaves analysis; it reports
// whether the time came with the company still in analysis, holding no lock.
func (wf *resaleImpl) waitUntil(ctx workflow.Context, t time.Time) bool {
	workflow.SetCurrentDetails(ctx, fmt.Sprintf("Em análise: aguardando a decisão de um representante (lembretes enviados: %d; próximo em %s).",
		wf.st.Reminders, t.Format(time.RFC3339)))
	decided := func() bool { return wf.st.Status != resale.Analysis }
	if d := t.Sub(workflow.Now(ctx)); d > 0 {
		if ok, _ := awaitOrTimeout(ctx, d, "Próximo lembrete aos representantes", decided); ok {
			return false
		}
	}
	_ = workflow.Await(ctx, func() bool { return !wf.busy })
	return !decided()
}

func (wf *resaleImpl) drain(ctx workflow.Context) {
	_ = workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) && wf.inFlight == 0 })
}

func (wf *resaleImpl) lock(ctx workflow.Context) func() {
	_ = workflow.Await(ctx, func() bool { return !wf.busy })
	wf.busy = true
	return func() { wf.busy = false }
}

func (wf *resaleImpl) remind(ctx workflow.Context) {
	defer wf.lock(ctx)()
	wf.st.Reminders++
	wf.reminded++
	wf.notify(ctx, activities.NoticeResaleReminder, fmt.Sprintf("reminder/%d", wf.st.Reminders))
}

// --- register --------------------------------------------------------------------

func (wf *resaleImpl) validateRegister(ctx workflow.Context, req ResaleRegisterRequest) error {
	if wf.loaded || wf.failed {
		return invalid(resale.MsgDuplicate)
	}
	return nil
}

func (wf *resaleImpl) register(ctx workflow.Context, req ResaleRegisterRequest) (ResaleState, error) {
	defer wf.lock(ctx)()
	if wf.loaded || wf.failed {
		return wf.st, invalid(resale.MsgDuplicate)
	}
	var f activities.ResaleFacts
	err := workflow.ExecuteActivity(registerOptions(ctx), a.RegisterResale, activities.RegisterResaleInput{
		ID: wf.st.ID, Brand: wf.st.Brand, Registration: req.Registration, At: workflow.Now(ctx),
	}).Get(ctx, &f)
	if err != nil {
		var app *temporal.ApplicationError
		wf.failed, wf.dup = true, errors.As(err, &app) && app.Type() == resale.ErrTypeDuplicate
		return wf.st, err
	}
	wf.st.Status, wf.st.CNPJ, wf.st.CreatedAt, wf.loaded = f.Status, f.CNPJ, f.CreatedAt, true
	wf.notify(ctx, activities.NoticeResaleRegistered, "registered")
	return wf.st, nil
}

// --- approve / disapprove ------------------------------------------------------------

// validateDecision checks who decides and, once the company is known, its state
// (an adopting run learns the state after the update arrived: the handler checks again).
func (wf *resaleImpl) validateDecision(actor opportunity.Actor, brandSlug string) error {
	if !has(actor, auth.Representative, auth.Support) || brandSlug != wf.st.Brand {
		return forbidden()
	}
	if wf.failed {
		return resaleTransitionError("")
	}
	if wf.loaded && wf.st.Status != resale.Analysis {
		return resaleTransitionError(wf.st.Status)
	}
	return nil
}

func (wf *resaleImpl) validateApprove(ctx workflow.Context, req ResaleApproval) error {
	return wf.validateDecision(req.Actor, req.Brand)
}

func (wf *resaleImpl) validateDisapprove(ctx workflow.Context, req ResaleDisapproval) error {
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
func (wf *resaleImpl) decide(ctx workflow.Context, actor opportunity.Actor, brandSlug string) (func(), error) {
	_ = workflow.Await(ctx, func() bool { return wf.loaded || wf.failed })
	unlock := wf.lock(ctx)
	if err := wf.validateDecision(actor, brandSlug); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

func (wf *resaleImpl) approve(ctx workflow.Context, req ResaleApproval) (ResaleState, error) {
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
	wf.st.Status, wf.st.UserID = resale.Approved, out.UserID
	wf.background(ctx, mailOptions(ctx), "approval e-mail", a.MailResaleDecision, activities.ResaleMailInput{
		ResaleID: wf.st.ID, Brand: wf.st.Brand, Approved: true, Portal: req.Portal, InviteTTL: req.InviteTTL})
	wf.notify(ctx, activities.NoticeResaleApproved, "approved")
	return wf.st, nil
}

func (wf *resaleImpl) disapprove(ctx workflow.Context, req ResaleDisapproval) (ResaleState, error) {
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
	wf.st.Status = resale.Disapproved
	wf.background(ctx, mailOptions(ctx), "refusal e-mail", a.MailResaleDecision, activities.ResaleMailInput{
		ResaleID: wf.st.ID, Brand: wf.st.Brand})
	return wf.st, nil
}
