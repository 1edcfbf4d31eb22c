package workflows

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/mock"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/opportunity"
)

// resaleHarness runs the onboarding workflow with time skipping and records
// what its activities were asked to do.
type resaleHarness struct {
	t         *testing.T
	env       *testsuite.TestWorkflowEnvironment
	mu        sync.Mutex
	decisions []activities.ResaleDecisionInput
	mails     []activities.ResaleMailInput
	notices   []activities.ResaleNotice
	statuses  []string // ResaleStatus search attribute values, in order
	regErr    error    // what RegisterResale answers
	facts     activities.ResaleFacts
	sla       time.Duration
}

var signup = activities.ResaleRegistration{Email: "contato@revenda.com.br", Phone: "11987654321", ContactName: "Carla",
	CNPJ: "11222333000181", FantasyName: "Revenda", CorporateName: "Revenda Boa Ltda", Country: "Brasil"}

func newResaleHarness(t *testing.T) *resaleHarness {
	h := &resaleHarness{t: t, sla: 48 * time.Hour}
	var s testsuite.WorkflowTestSuite
	s.SetLogger(tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	h.env = s.NewTestWorkflowEnvironment()
	h.env.RegisterWorkflow(Resale)
	h.env.RegisterActivity(a)
	h.env.OnActivity(a.LifecycleDurations, mock.Anything).Return(func(context.Context) (Durations, error) {
		d := DefaultDurations
		d.ApprovalSLA = h.sla
		return d, nil
	})
	h.env.OnActivity(a.RegisterResale, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.RegisterResaleInput) (activities.ResaleFacts, error) {
			if h.regErr != nil {
				return activities.ResaleFacts{}, h.regErr
			}
			return activities.ResaleFacts{ID: in.ID, Brand: in.Brand, Status: activities.ResaleAnalysis, CNPJ: in.Registration.CNPJ, CreatedAt: in.At}, nil
		})
	h.env.OnActivity(a.ResaleFacts, mock.Anything, mock.Anything).Return(func(context.Context, string) (activities.ResaleFacts, error) {
		return h.facts, nil
	})
	h.env.OnActivity(a.DecideResale, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.ResaleDecisionInput) (activities.ResaleDecided, error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.decisions = append(h.decisions, in)
			if in.Approve {
				return activities.ResaleDecided{Status: activities.ResaleApproved, UserID: "u-new"}, nil
			}
			return activities.ResaleDecided{Status: activities.ResaleDisapproved}, nil
		})
	h.env.OnActivity(a.MailResaleDecision, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.ResaleMailInput) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.mails = append(h.mails, in)
		return nil
	})
	h.env.OnActivity(a.NotifyResale, mock.Anything, mock.Anything).Return(func(_ context.Context, n activities.ResaleNotice) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.notices = append(h.notices, n)
		return nil
	})
	h.env.OnUpsertTypedSearchAttributes(mock.Anything).Return(nil).Run(func(args mock.Arguments) {
		sa := args.Get(0).(temporal.SearchAttributes)
		st, _ := sa.GetKeyword(AttrResaleStatus)
		brandSlug, _ := sa.GetKeyword(AttrBrand)
		doc, _ := sa.GetKeyword(AttrResaleCnpj)
		if brandSlug != "yep" || doc != signup.CNPJ {
			t.Errorf("search attributes brand %q cnpj %q", brandSlug, doc)
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		h.statuses = append(h.statuses, st)
	})
	return h
}

// at schedules an update at a moment of the workflow's life; the outcome lands in *err.
func (h *resaleHarness) at(d time.Duration, name string, arg any, err *error) {
	h.env.RegisterDelayedCallback(func() {
		h.env.UpdateWorkflow(name, "", &testsuite.TestUpdateCallback{
			OnReject:   func(e error) { *err = e },
			OnAccept:   func() {},
			OnComplete: func(_ interface{}, e error) { *err = e },
		}, arg)
	}, d)
}

func (h *resaleHarness) state() ResaleState {
	v, err := h.env.QueryWorkflow(QueryState)
	if err != nil {
		h.t.Fatal(err)
	}
	var st ResaleState
	if err := v.Get(&st); err != nil {
		h.t.Fatal(err)
	}
	return st
}

// run registers the sign-up with the start and runs the workflow to its end.
func (h *resaleHarness) run() (regErr error) {
	h.at(0, UpdateRegister, ResaleRegisterRequest{Registration: signup}, &regErr)
	h.env.ExecuteWorkflow(Resale, ResaleInput{ID: "r-1", Brand: "yep"})
	return regErr
}

func (h *resaleHarness) kinds() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[string]int{}
	for _, n := range h.notices {
		out[n.Kind]++
	}
	return out
}

func appType(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Type()
	}
	return ""
}

func TestResaleApprovalAfterTwoSLARemindersCreatesAndInvitesTheUser(t *testing.T) {
	h := newResaleHarness(t)
	var approveErr, lateErr error
	approval := ResaleApproval{Actor: rep, Brand: "yep", Portal: "http://yep.localhost:8080", InviteTTL: 72 * time.Hour}
	h.env.RegisterDelayedCallback(func() {
		if st := h.state(); st.Status != activities.ResaleAnalysis || st.Reminders != 2 {
			t.Errorf("after 100h: %+v, want analysis with 2 reminders", st)
		}
	}, 100*time.Hour)
	h.at(100*time.Hour, UpdateApprove, approval, &approveErr)
	h.at(100*time.Hour, UpdateDisapprove, ResaleDisapproval{Actor: rep, Brand: "yep", Reason: "tarde"}, &lateErr)
	if err := h.run(); err != nil {
		t.Fatalf("register: %v", err)
	}
	if !h.env.IsWorkflowCompleted() || h.env.GetWorkflowError() != nil {
		t.Fatalf("workflow: completed %v err %v", h.env.IsWorkflowCompleted(), h.env.GetWorkflowError())
	}
	if approveErr != nil {
		t.Fatalf("approve: %v", approveErr)
	}
	if appType(lateErr) != ErrTypeTransition {
		t.Errorf("a refusal after the approval: %v, want a transition error", lateErr)
	}
	var st ResaleState
	if err := h.env.GetWorkflowResult(&st); err != nil {
		t.Fatal(err)
	}
	if st.Status != activities.ResaleApproved || st.UserID != "u-new" || st.Reminders != 2 {
		t.Errorf("final state %+v", st)
	}
	if k := h.kinds(); k[activities.NoticeResaleRegistered] != 1 || k[activities.NoticeResaleReminder] != 2 || k[activities.NoticeResaleApproved] != 1 {
		t.Errorf("notices %v", k)
	}
	for _, n := range h.notices {
		if n.Kind == activities.NoticeResaleReminder && (n.Since.IsZero() || n.Reminder < 1 || n.Key == "") {
			t.Errorf("reminder notice %+v", n)
		}
	}
	if len(h.decisions) != 1 || !h.decisions[0].Approve || h.decisions[0].Actor.UserID != rep.UserID || h.decisions[0].ResaleID != "r-1" {
		t.Errorf("decisions %+v", h.decisions)
	}
	if len(h.mails) != 1 || !h.mails[0].Approved || h.mails[0].Portal != approval.Portal || h.mails[0].InviteTTL != 72*time.Hour {
		t.Errorf("mails %+v", h.mails)
	}
	if n := len(h.statuses); n < 2 || h.statuses[0] != activities.ResaleAnalysis || h.statuses[n-1] != activities.ResaleApproved {
		t.Errorf("ResaleStatus search attribute went %v", h.statuses)
	}
}

func TestResaleActivitiesShareTheTransitionErrorType(t *testing.T) {
	if activities.ErrTypeResaleState != ErrTypeTransition {
		t.Fatalf("activities.ErrTypeResaleState %q, workflows.ErrTypeTransition %q: the API would not answer 409", activities.ErrTypeResaleState, ErrTypeTransition)
	}
}

func TestResaleRefusalNeedsAReasonAndADecider(t *testing.T) {
	h := newResaleHarness(t)
	var noReason, tooLong, bySeller, otherBrand, refuseErr, approveAfter error
	h.at(time.Hour, UpdateDisapprove, ResaleDisapproval{Actor: rep, Brand: "yep", Reason: "  "}, &noReason)
	h.at(90*time.Minute, UpdateDisapprove, ResaleDisapproval{Actor: rep, Brand: "yep", Reason: strings.Repeat("ç", MaxResaleReason+1)}, &tooLong)
	h.at(2*time.Hour, UpdateApprove, ResaleApproval{Actor: seller, Brand: "yep"}, &bySeller)
	h.at(3*time.Hour, UpdateApprove, ResaleApproval{Actor: rep, Brand: "codexa"}, &otherBrand)
	h.at(4*time.Hour, UpdateDisapprove, ResaleDisapproval{Actor: support, Brand: "yep", Reason: " Documentação incompleta "}, &refuseErr)
	h.at(4*time.Hour, UpdateApprove, ResaleApproval{Actor: rep, Brand: "yep"}, &approveAfter)
	if err := h.run(); err != nil {
		t.Fatal(err)
	}
	if appType(noReason) != ErrTypeInvalid || appType(tooLong) != ErrTypeInvalid || appType(bySeller) != ErrTypeForbidden || appType(otherBrand) != ErrTypeForbidden {
		t.Errorf("rejections: no reason %v, too long %v, seller %v, other brand %v", noReason, tooLong, bySeller, otherBrand)
	}
	if refuseErr != nil {
		t.Fatalf("support refuses: %v", refuseErr)
	}
	if appType(approveAfter) != ErrTypeTransition {
		t.Errorf("approve after refusal: %v", approveAfter)
	}
	if len(h.decisions) != 1 || h.decisions[0].Approve || h.decisions[0].Reason != "Documentação incompleta" {
		t.Errorf("decisions %+v", h.decisions)
	}
	if len(h.mails) != 1 || h.mails[0].Approved {
		t.Errorf("mails %+v", h.mails)
	}
	if k := h.kinds(); k[activities.NoticeResaleApproved] != 0 || k[activities.NoticeResaleReminder] != 0 {
		t.Errorf("notices %v", k)
	}
}

func TestResaleDuplicateSignUpEndsTheRunQuietly(t *testing.T) {
	h := newResaleHarness(t)
	h.regErr = temporal.NewNonRetryableApplicationError(activities.MsgDuplicateResale, activities.ErrTypeDuplicate, nil)
	err := h.run()
	if appType(err) != activities.ErrTypeDuplicate {
		t.Fatalf("register: %v, want the duplicate error", err)
	}
	if !h.env.IsWorkflowCompleted() || h.env.GetWorkflowError() != nil {
		t.Fatalf("workflow: %v", h.env.GetWorkflowError())
	}
	if len(h.notices) != 0 || len(h.decisions) != 0 {
		t.Errorf("a refused sign-up notified %v / decided %v", h.notices, h.decisions)
	}
}

func TestResaleAdoptedRunDecidesAStoredCompany(t *testing.T) {
	h := newResaleHarness(t)
	h.facts = activities.ResaleFacts{ID: "r-1", Brand: "yep", Status: activities.ResaleAnalysis, CNPJ: signup.CNPJ,
		CreatedAt: h.env.Now().Add(-30 * time.Hour)}
	var approveErr error
	h.at(0, UpdateApprove, ResaleApproval{Actor: rep, Brand: "yep"}, &approveErr)
	h.env.ExecuteWorkflow(Resale, ResaleInput{ID: "r-1", Brand: "yep", Adopt: true})
	if approveErr != nil || h.env.GetWorkflowError() != nil {
		t.Fatalf("approve %v, workflow %v", approveErr, h.env.GetWorkflowError())
	}
	if len(h.decisions) != 1 || !h.decisions[0].Approve {
		t.Errorf("decisions %+v", h.decisions)
	}
}

func TestResaleAdoptingADecidedCompanyRefusesTheDecision(t *testing.T) {
	h := newResaleHarness(t)
	h.facts = activities.ResaleFacts{ID: "r-1", Brand: "yep", Status: activities.ResaleApproved, CNPJ: signup.CNPJ, CreatedAt: h.env.Now()}
	var approveErr error
	h.at(0, UpdateApprove, ResaleApproval{Actor: rep, Brand: "yep"}, &approveErr)
	h.env.ExecuteWorkflow(Resale, ResaleInput{ID: "r-1", Brand: "yep", Adopt: true})
	if appType(approveErr) != ErrTypeTransition {
		t.Errorf("approve: %v", approveErr)
	}
	if len(h.decisions) != 0 {
		t.Errorf("decided %+v", h.decisions)
	}
}

func TestResaleLongAnalysisContinuesAsNew(t *testing.T) {
	h := newResaleHarness(t)
	h.sla = time.Hour
	_ = h.run()
	err := h.env.GetWorkflowError()
	var can *workflow.ContinueAsNewError
	if !errors.As(err, &can) {
		t.Fatalf("workflow error %v, want continue-as-new", err)
	}
	if k := h.kinds(); k[activities.NoticeResaleReminder] != MaxRemindersPerRun {
		t.Errorf("reminders %d, want %d", k[activities.NoticeResaleReminder], MaxRemindersPerRun)
	}
	if can.WorkflowType == nil || can.WorkflowType.Name != "Resale" {
		t.Errorf("continued as %+v", can.WorkflowType)
	}
}

// --- on the real server ------------------------------------------------------------

// ensureSearchAttributes registers the project's search attributes on the test
// server (worker.EnsureSearchAttributes, which this package cannot import).
func ensureSearchAttributes(t *testing.T, c client.Client) {
	t.Helper()
	ops := c.OperatorService()
	have, err := ops.ListSearchAttributes(context.Background(), &operatorservice.ListSearchAttributesRequest{Namespace: "default"})
	if err != nil {
		t.Fatal(err)
	}
	add := &operatorservice.AddSearchAttributesRequest{Namespace: "default", SearchAttributes: map[string]enumspb.IndexedValueType{}}
	for name, typ := range SearchAttributes() {
		if _, ok := have.GetCustomAttributes()[name]; !ok {
			add.SearchAttributes[name] = typ
		}
	}
	if len(add.SearchAttributes) == 0 {
		return
	}
	var exists *serviceerror.AlreadyExists
	if _, err := ops.AddSearchAttributes(context.Background(), add); err != nil && !errors.As(err, &exists) {
		t.Fatal(err)
	}
}

func waitTrue(t *testing.T, db *pgxpool.Pool, what, query string, args ...any) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var ok bool
		if err := db.QueryRow(context.Background(), query, args...).Scan(&ok); err == nil && ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestResaleOnboardingOnTheRealServer runs sign-up → two SLA reminders →
// approval on the dev server and PostgreSQL with an SLA of seconds: the
// reminders reach the representative, the RESALE user exists without a
// password, and the e-mailed invitation sets it once.
func TestResaleOnboardingOnTheRealServer(t *testing.T) {
	c := testenv.TemporalClient(t)
	db := testenv.DB(t)
	ctx := testenv.Context(t)
	ensureSearchAttributes(t, c)
	brands, _ := brand.Parse([]byte(`[{"slug":"yep","name":"Yep"}]`))
	actor := activities.Actor{Name: "Renata", Roles: []auth.Role{auth.Representative}}
	if err := db.QueryRow(ctx, `INSERT INTO users (name, email) VALUES ('Renata', 'rep@yep.example') RETURNING id::text`).Scan(&actor.UserID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `INSERT INTO user_roles (user_id, role, brand) VALUES ($1, 'REPRESENTATIVE', 'yep')`, actor.UserID); err != nil {
		t.Fatal(err)
	}
	cfg := mailer.Config{PortalURL: "http://{brand}.localhost:8080"}
	_ = cfg.Validate()
	acts := &activities.Activities{DB: db, Brands: brands, Mailer: &mailer.Mailer{DB: db, Brands: brands, Config: cfg},
		Durations: activities.Durations{ApprovalSLA: 2 * time.Second}}
	queue := "resale-" + opportunity.NewID()
	w := sdkworker.New(c, queue, sdkworker.Options{})
	w.RegisterWorkflow(Resale)
	w.RegisterActivity(acts)
	mw := sdkworker.New(c, queue+MailQueueSuffix, sdkworker.Options{}) // the notices and e-mails
	mw.RegisterActivity(acts)
	for _, w := range []sdkworker.Worker{w, mw} {
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
	}

	id := opportunity.NewID()
	op := c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{ID: ResaleWorkflowID(id), TaskQueue: queue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL}, Resale, ResaleInput{ID: id, Brand: "yep"})
	h, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateName: UpdateRegister, Args: []any{ResaleRegisterRequest{Registration: signup}},
			WaitForStage: client.WorkflowUpdateStageCompleted}})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err != nil {
		t.Fatalf("register: %v", err)
	}
	waitTrue(t, db, "two reminders", `SELECT count(*) >= 2 FROM notifications WHERE kind = 'resale-reminder' AND user_id = $1 AND emailed_at IS NOT NULL`, actor.UserID)
	uh, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: ResaleWorkflowID(id), UpdateName: UpdateApprove,
		Args: []any{ResaleApproval{Actor: actor, Brand: "yep"}}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = uh.Get(ctx, nil)
	}
	if err != nil {
		t.Fatalf("approve: %v", err)
	}
	var st ResaleState
	run := c.GetWorkflow(ctx, ResaleWorkflowID(id), "")
	if err := run.Get(ctx, &st); err != nil || st.Status != activities.ResaleApproved || st.Reminders < 2 || st.UserID == "" {
		t.Fatalf("result %+v %v", st, err)
	}
	var hash string
	if err := db.QueryRow(ctx, `SELECT password_hash FROM users WHERE id = $1 AND resale_id = $2`, st.UserID, id).Scan(&hash); err != nil || hash != "" {
		t.Fatalf("resale user: %v, hash %q", err, hash)
	}
	list, err := mailer.List(ctx, db, signup.Email, 10)
	if err != nil || len(list) != 1 {
		t.Fatalf("welcome e-mails %v %v", list, err)
	}
	var token string
	for _, l := range list[0].Links {
		if u, err := url.Parse(l); err == nil && u.Path == auth.SetPasswordPath {
			token = u.Query().Get("token")
		}
	}
	svc := &auth.Service{DB: db, Brands: brands}
	if err := svc.ResetPassword(ctx, token, "Oportuna@2026", ""); err != nil {
		t.Fatalf("set the password: %v", err)
	}
	if err := svc.ResetPassword(ctx, token, "Oportuna@2027", ""); !errors.Is(err, auth.ErrResetInvalid) {
		t.Errorf("token reused: %v", err)
	}
	if os.Getenv("OPORTUNA_RECORD_HISTORIES") != "" {
		recordResaleHistory(t, c, ResaleWorkflowID(id), run.GetRunID(), recordedOnboarding)
	}
}

// recordedOnboarding is where OPORTUNA_RECORD_HISTORIES writes the onboarding
// test's run; earlier recordings keep guarding their paths (onboarding-approved.json:
// before a decision cancelled the reminder's timer).
const recordedOnboarding = "testdata/resale/onboarding-approved-await-timers.json"

// recordResaleHistory writes a run's history for the replay test (run with
// OPORTUNA_RECORD_HISTORIES=1 after a deliberate change of the workflow).
func recordResaleHistory(t *testing.T, c client.Client, wfID, runID, path string) {
	it := c.GetWorkflowHistory(context.Background(), wfID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	hist := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		hist.Events = append(hist.Events, ev)
	}
	b, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(hist)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %d events in %s", len(hist.Events), path)
}
