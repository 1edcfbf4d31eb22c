package workflows_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/crm"
	"oportuna/internal/calendar"
	"oportuna/internal/dev/localcrm"
	"oportuna/internal/dev/mailbox"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/seed"
	"oportuna/worker"
	"oportuna/workflows"
)

// flakyCRM is the local CRM that can be told to refuse the customer.
type flakyCRM struct {
	localcrm.CRM
	fail bool
}

func (f *flakyCRM) UpsertOpportunity(ctx context.Context, o crm.Opportunity) (string, error) {
	if f.fail {
		return "", crm.ErrCustomerNotFound
	}
	return f.CRM.UpsertOpportunity(ctx, o)
}

func actor(t *testing.T, db *pgxpool.Pool, email string, roles ...auth.Role) opportunity.Actor {
	t.Helper()
	var a opportunity.Actor
	var resale *string
	if err := db.QueryRow(context.Background(), `SELECT id::text, name, resale_id::text FROM users WHERE email = $1`, email).Scan(&a.UserID, &a.Name, &resale); err != nil {
		t.Fatal(err)
	}
	if resale != nil {
		a.ResaleID = *resale
	}
	a.Roles = roles
	return a
}

func waitStatus(t *testing.T, db *pgxpool.Pool, id string, want opportunity.Status, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	var got string
	for time.Now().Before(deadline) {
		if err := db.QueryRow(context.Background(), `SELECT status FROM opportunities WHERE id = $1`, id).Scan(&got); err == nil && got == string(want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("status %q after %v, want %q", got, within, want)
}

// TestOpportunityLifecycleSurvivesAWorkerRestart runs register → approve →
// renewal window → expiry → renewal request → renewal approval on the real dev
// server and PostgreSQL, with durations of seconds, and replaces the worker in
// the middle: the timers still fire and nothing is written twice.
func TestOpportunityLifecycleSurvivesAWorkerRestart(t *testing.T) {
	c, ns := testenv.ParallelTemporalClient(t)
	db, ctx := testenv.DBContext(t)
	brands := seedYep(t, ctx, db)
	if _, err := worker.EnsureSearchAttributes(ctx, c, ns); err != nil {
		t.Fatal(err)
	}
	crmStub := &flakyCRM{CRM: localcrm.CRM{DB: db}, fail: true}
	acts := &activities.Activities{DB: db, Brands: brands, CRM: crmStub, Mailer: mailbox.Log{},
		Durations: activities.Durations{Validity: 6 * time.Second, RenewalWindow: 3 * time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}}
	startWorker := func() (stop func()) {
		wctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- worker.Run(wctx, c, ns, acts) }()
		return func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("worker: %v", err)
			}
		}
	}
	stop := startWorker()

	seller := actor(t, db, "vendedor1@yep.demo", auth.Seller)
	rep := actor(t, db, "representante@yep.demo", auth.Representative)
	id := "7a0c8f1e-0000-4000-8000-000000000001"
	wfID := workflows.OpportunityWorkflowID(id)
	req := workflows.RegisterRequest{Actor: seller, ResaleCNPJ: seed.ResaleCNPJ(0), Record: opportunity.Record{
		Name: "Oportunidade Yep", CNPJ: "11222333000181", Contact: "Ana", Email: "ana@cliente.com.br", ProbabilityClosing: 25,
		Products: []opportunity.Product{{PartNumber: "P-1", Description: "Coletor", Amount: 3, Price: 150050}}}}
	var firstRun string
	register := func() activities.Registered {
		op := c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{ID: wfID, TaskQueue: workflows.TaskQueue,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}, workflows.Opportunity,
			workflows.OpportunityInput{ID: id, Brand: "yep"})
		h, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
			UpdateOptions: client.UpdateWorkflowOptions{UpdateID: "register", UpdateName: workflows.UpdateRegister,
				Args: []any{req}, WaitForStage: client.WorkflowUpdateStageCompleted}})
		if err != nil {
			t.Fatal(err)
		}
		var out activities.Registered
		if err := h.Get(ctx, &out); err != nil {
			t.Fatal(err)
		}
		firstRun = h.RunID()
		return out
	}
	first := register()
	again := register() // a retried create: same update id, same answer, no second row
	if first.Record.ID != id || first.Record.Estimated != 450150 || first.Record.UserEmail != "vendedor1@yep.demo" || again.Record.CreatedAt != first.Record.CreatedAt {
		t.Fatalf("registered %+v / %+v", first.Record, again.Record)
	}
	update := func(name string, arg any) error {
		h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: wfID, UpdateName: name, Args: []any{arg},
			WaitForStage: client.WorkflowUpdateStageCompleted})
		if err != nil {
			return err
		}
		return h.Get(ctx, nil)
	}
	// The CRM refuses: the caller hears why and the opportunity stays in analysis.
	err := update(workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Armazém", Probability: 50})
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != crm.ErrTypeCustomerNotFound {
		t.Fatalf("approve with CRM refusal: %v", err)
	}
	waitStatus(t, db, id, opportunity.Analysis, time.Second)
	crmStub.fail = false
	if err := update(workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Armazém", Probability: 50}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, db, id, opportunity.Approved, 2*time.Second)
	// An edit of an approved opportunity goes through the CRM first.
	if err := update(workflows.UpdateEdit, workflows.EditRequest{Actor: rep, Probability: ptr(100)}); err != nil {
		t.Fatal(err)
	}
	// Let the approval's notice land first: an activity task the server hands to a
	// poller that is shutting down is only retried after its start-to-close
	// timeout (30 s), which would hold the next continue-as-new past this test's
	// short durations. The timers are what this restart is about.
	testenv.WaitFor(t, 5*time.Second, "the approval notice", func() bool {
		var n int
		_ = db.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE kind = 'approved' AND link LIKE '%' || $1`, id).Scan(&n)
		return n > 0
	})

	// Replace the worker while the validity timers run.
	stop()
	time.Sleep(500 * time.Millisecond)
	stop = startWorker()
	defer func() { stop() }()

	waitStatus(t, db, id, opportunity.Renovation, 10*time.Second)
	waitStatus(t, db, id, opportunity.Expired, 10*time.Second)
	renewal := workflows.RenewalRequest{Actor: seller, Renewal: opportunity.RenewalRequest{Reason: "Cliente retomou",
		ProbabilityClosing: 75, ProjectStillInScope: "Sim", LastVisitDate: calendar.ISO(time.Now())}}
	if err := update(workflows.UpdateRequestRenewal, renewal); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, db, id, opportunity.AwaitingRenovation, 2*time.Second)
	if err := update(workflows.UpdateDecideRenewal, workflows.RenewalDecision{Actor: rep, Approve: true}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, db, id, opportunity.Approved, 2*time.Second)
	// The next cycle runs in a new run of the same workflow and expires on its own timer.
	waitStatus(t, db, id, opportunity.Renovation, 10*time.Second)

	rec, err := acts.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Register == "" || rec.Name != "Projeto Armazém" || rec.ProbabilityClosing != 75 || rec.ProjectStillInScope != "Sim" || rec.ApproveDate == nil {
		t.Errorf("record %+v", rec)
	}
	var rows, creates int
	if err := db.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE action_type = 'create') FROM history WHERE type_id = $1`, id).Scan(&rows, &creates); err != nil {
		t.Fatal(err)
	}
	// create, approved, edit, renovation, expired, awaiting_renovation, approved, renovation
	if rows != 8 || creates != 1 {
		t.Errorf("history rows = %d (creates %d), want 8 (1)", rows, creates)
	}
	var notes int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.email = 'vendedor1@yep.demo'`).Scan(&notes); err != nil || notes < 4 {
		t.Errorf("owner notifications = %d (%v)", notes, err)
	}
	workflows.RecordHistory(t, c, wfID, firstRun, recordedCycle)
}

// recordedCycle is where OPORTUNA_RECORD_HISTORIES writes this test's first run.
const recordedCycle = "testdata/histories/opportunity-full-cycle.json"

func ptr[T any](v T) *T { return &v }
