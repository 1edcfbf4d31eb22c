package workflows

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/opportunity"
	"oportuna/resale"
)

func TestResaleApprovalAfterTwoSLARemindersCreatesAndInvitesTheUser(t *testing.T) {
	h := newResaleHarness(t)
	var approveErr, lateErr error
	approval := ResaleApproval{Actor: rep, Brand: "yep", Portal: "http://yep.localhost:8080", InviteTTL: 72 * time.Hour}
	h.env.RegisterDelayedCallback(func() {
		if st := h.state(); st.Status != resale.Analysis || st.Reminders != 2 {
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
	if errType(lateErr) != ErrTypeTransition {
		t.Errorf("a refusal after the approval: %v, want a transition error", lateErr)
	}
	var st ResaleState
	if err := h.env.GetWorkflowResult(&st); err != nil {
		t.Fatal(err)
	}
	if st.Status != resale.Approved || st.UserID != "u-new" || st.Reminders != 2 {
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
	if n := len(h.statuses); n < 2 || h.statuses[0] != resale.Analysis || h.statuses[n-1] != resale.Approved {
		t.Errorf("ResaleStatus search attribute went %v", h.statuses)
	}
}

func TestResaleActivitiesShareTheTransitionErrorType(t *testing.T) {
	if resale.ErrTypeState != ErrTypeTransition {
		t.Fatalf("resale.ErrTypeState %q, workflows.ErrTypeTransition %q: the API would not answer 409", resale.ErrTypeState, ErrTypeTransition)
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
	if errType(noReason) != ErrTypeInvalid || errType(tooLong) != ErrTypeInvalid || errType(bySeller) != ErrTypeForbidden || errType(otherBrand) != ErrTypeForbidden {
		t.Errorf("rejections: no reason %v, too long %v, seller %v, other brand %v", noReason, tooLong, bySeller, otherBrand)
	}
	if refuseErr != nil {
		t.Fatalf("support refuses: %v", refuseErr)
	}
	if errType(approveAfter) != ErrTypeTransition {
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
	h.regErr = temporal.NewNonRetryableApplicationError(resale.MsgDuplicate, resale.ErrTypeDuplicate, nil)
	err := h.run()
	if errType(err) != resale.ErrTypeDuplicate {
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
	h.facts = activities.ResaleFacts{ID: "r-1", Brand: "yep", Status: resale.Analysis, CNPJ: signup.CNPJ,
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
	h.facts = activities.ResaleFacts{ID: "r-1", Brand: "yep", Status: resale.Approved, CNPJ: signup.CNPJ, CreatedAt: h.env.Now()}
	var approveErr error
	h.at(0, UpdateApprove, ResaleApproval{Actor: rep, Brand: "yep"}, &approveErr)
	h.env.ExecuteWorkflow(Resale, ResaleInput{ID: "r-1", Brand: "yep", Adopt: true})
	if errType(approveErr) != ErrTypeTransition {
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

// ensureSearchAttributes registers the project's search attributes in the
// namespace of the test server (worker.EnsureSearchAttributes, which this package cannot import).
func ensureSearchAttributes(t *testing.T, c client.Client, namespace string) {
	t.Helper()
	ops := c.OperatorService()
	have, err := ops.ListSearchAttributes(context.Background(), &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		t.Fatal(err)
	}
	add := &operatorservice.AddSearchAttributesRequest{Namespace: namespace, SearchAttributes: map[string]enumspb.IndexedValueType{}}
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
	c, ns := testenv.ParallelTemporalClient(t)
	db, ctx := testenv.DBContext(t)
	ensureSearchAttributes(t, c, ns)
	brands, _ := brand.Parse([]byte(`[{"slug":"yep","name":"Yep"}]`))
	actor := opportunity.Actor{Name: "Renata", Roles: []auth.Role{auth.Representative}}
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
	testenv.StartWorkers(t, w, mw)

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
	if err := run.Get(ctx, &st); err != nil || st.Status != resale.Approved || st.Reminders < 2 || st.UserID == "" {
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
	RecordHistory(t, c, ResaleWorkflowID(id), run.GetRunID(), recordedOnboarding)
}

// recordedOnboarding is where OPORTUNA_RECORD_HISTORIES writes the onboarding test's run.
const recordedOnboarding = "testdata/resale/onboarding-approved.json"
