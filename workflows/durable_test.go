package workflows_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/crm"
	"oportuna/internal/dev/localcrm"
	"oportuna/internal/dev/mailbox"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/mailer/mailtest"
	"oportuna/opportunity"
	"oportuna/resale"
	"oportuna/seed"
	"oportuna/worker"
	"oportuna/workflows"
)

// stack is a real dev server, a seeded database and a running worker.
type stack struct {
	c     client.Client
	ns    string // the client's and the worker's namespace
	db    *pgxpool.Pool
	ctx   context.Context
	acts  *activities.Activities
	brand *brand.Registry
	// seller is the seed's first seller, who registers (read once: the
	// database may be stalled later).
	seller opportunity.Actor
}

// newStack is a stack on a database of its own and a namespace of its own:
// the test runs beside the package's other such tests
// (testenv.ParallelTemporalClient).
func newStack(t *testing.T, d activities.Durations, mail activities.Mailer) *stack {
	t.Helper()
	c, ns := testenv.ParallelTemporalClient(t)
	db := testenv.DB(t)
	return startStack(t, c, ns, db, d, mail, localcrm.CRM{DB: db})
}

func newStackOn(t *testing.T, db *pgxpool.Pool, d activities.Durations, mail activities.Mailer) *stack {
	t.Helper()
	return newStackWith(t, db, d, mail, localcrm.CRM{DB: db})
}

// newStackWith is newStackOn with the worker's CRM.
func newStackWith(t *testing.T, db *pgxpool.Pool, d activities.Durations, mail activities.Mailer, c crm.Client) *stack {
	t.Helper()
	tc, ns := testenv.ParallelTemporalClient(t)
	return startStack(t, tc, ns, db, d, mail, c)
}

// seedYep seeds the database for the one brand "yep" and answers its registry.
func seedYep(t *testing.T, ctx context.Context, db *pgxpool.Pool) *brand.Registry {
	t.Helper()
	brands, _ := brand.Parse([]byte(`[{"slug":"yep","name":"Yep"}]`))
	if _, err := seed.Run(ctx, db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	return brands
}

// startStack seeds the database and runs a worker on the client's namespace
// until the test ends.
func startStack(t *testing.T, tc client.Client, namespace string, db *pgxpool.Pool, d activities.Durations, mail activities.Mailer, c crm.Client) *stack {
	t.Helper()
	s := &stack{c: tc, ns: namespace, db: db, ctx: testenv.Context(t)}
	s.brand = seedYep(t, s.ctx, s.db)
	s.seller = actor(t, s.db, "vendedor1@yep.demo", auth.Seller)
	if mail == nil {
		mail = mailbox.Log{}
	}
	s.acts = &activities.Activities{DB: s.db, Brands: s.brand, CRM: c, Mailer: mail, Durations: d}
	wctx, stop := context.WithCancel(s.ctx)
	done := make(chan error, 1)
	go func() { done <- worker.Run(wctx, s.c, namespace, s.acts) }()
	t.Cleanup(func() { stop(); <-done })
	return s
}

// register registers an opportunity for the seed's first seller, as the API does.
func (s *stack) register(t *testing.T, id string) {
	t.Helper()
	if err := s.tryRegister(t, s.ctx, id); err != nil {
		t.Fatal(err)
	}
}

// tryRegister is register answering the registration's error.
func (s *stack) tryRegister(t *testing.T, ctx context.Context, id string) error {
	t.Helper()
	// A stack on "default" shares the task queues with other tests' workers: leave nothing running.
	t.Cleanup(func() {
		_ = s.c.TerminateWorkflow(context.Background(), workflows.OpportunityWorkflowID(id), "", "test ended")
	})
	_, err := workflows.RegisterOpportunity(ctx, s.c, id, "yep", workflows.RegisterRequest{Actor: s.seller, ResaleCNPJ: seed.ResaleCNPJ(0),
		Record: opportunity.Record{Name: "Oportunidade Yep", CNPJ: "11222333000181", Contact: "Ana", Email: "ana@cliente.com.br", ProbabilityClosing: 25,
			Products: []opportunity.Product{{PartNumber: "P-1", Description: "Coletor", Amount: 1, Price: 10000}}}})
	return err
}

// hourly are durations no test waits out: an hour's validity, SLA and retention.
var hourly = activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}

// registered registers a new opportunity, explains its run if the test fails,
// and answers the opportunity's id, its workflow's id and the current run.
func (s *stack) registered(t *testing.T) (id, wfID, run string) {
	t.Helper()
	id = opportunity.NewID()
	wfID = workflows.OpportunityWorkflowID(id)
	s.register(t, id)
	s.explainOnFailure(t, wfID)
	return id, wfID, s.runID(t, wfID)
}

func (s *stack) state(t *testing.T, id string) workflows.OpportunityState {
	t.Helper()
	v, err := s.c.QueryWorkflow(s.ctx, workflows.OpportunityWorkflowID(id), "", workflows.QueryState)
	if err != nil {
		t.Fatal(err)
	}
	var st workflows.OpportunityState
	if err := v.Get(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestEveryApprovalReminderReachesTheRepresentatives: with an SLA of one
// second, each reminder the workflow counts is a notification and an e-mail of
// its own to each representative (they once shared one notice key, and only the
// first got through), on the real database and a real SMTP server.
func TestEveryApprovalReminderReachesTheRepresentatives(t *testing.T) {
	smtp := mailtest.Start(t)
	cfg := smtp.Config("portal@oportuna.example")
	db := testenv.DB(t)
	m := &mailer.Mailer{DB: db, Brands: brand.MustLoad(), Config: cfg}
	s := newStackOn(t, db, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: time.Second, ExpiredRetention: time.Hour}, m)
	id := "7a0c8f1e-0000-4000-8000-0000000000c1"
	s.register(t, id)
	testenv.WaitFor(t, 20*time.Second, "three reminders", func() bool { return s.state(t, id).Reminders >= 3 })

	var reps int
	if err := db.QueryRow(s.ctx, `SELECT count(DISTINCT u.id) FROM users u JOIN user_roles r ON r.user_id = u.id
		WHERE u.active AND r.role = 'REPRESENTATIVE' AND r.brand IN ('yep', 'all')`).Scan(&reps); err != nil || reps == 0 {
		t.Fatalf("representatives: %d %v", reps, err)
	}
	counted := s.state(t, id).Reminders
	// Every reminder the workflow counted is stored for every representative and e-mailed to each.
	testenv.WaitFor(t, 15*time.Second, "the reminders' notifications and e-mails", func() bool {
		var stored, emailed int
		_ = db.QueryRow(s.ctx, `SELECT count(*), count(emailed_at) FROM notifications WHERE kind = 'approval-reminder'`).Scan(&stored, &emailed)
		return stored >= counted*reps && emailed >= counted*reps
	})
	var keys int
	if err := db.QueryRow(s.ctx, `SELECT count(DISTINCT notice_key) FROM notifications WHERE kind = 'approval-reminder'`).Scan(&keys); err != nil {
		t.Fatal(err)
	}
	if keys < counted {
		t.Errorf("%d reminders counted, %d distinct notices stored", counted, keys)
	}
	var reminderMails int
	for _, m := range smtp.Mails() {
		if strings.HasPrefix(m.Subject, "Lembrete: ") {
			reminderMails++
		}
	}
	var outbox int
	if err := db.QueryRow(s.ctx, `SELECT count(*) FROM mail_outbox WHERE key LIKE 'notice/%approval-reminder%' AND status = 'sent'`).Scan(&outbox); err != nil {
		t.Fatal(err)
	}
	if outbox < counted*reps {
		t.Errorf("%d reminder e-mails sent, want %d (%d reminders × %d representatives)", outbox, counted*reps, counted, reps)
	}
	if reminderMails < counted*reps {
		t.Errorf("the SMTP server got %d reminder e-mails, want %d", reminderMails, counted*reps)
	}
}

// TestAnOperatorsCancellationEndsTheRunAndHidesTheOpportunity: 'Request
// Cancellation' in the Temporal UI ends the run as cancelled within seconds;
// the read model marks the opportunity deleted (hidden from lists) and its
// history names the operator's action.
func TestAnOperatorsCancellationEndsTheRunAndHidesTheOpportunity(t *testing.T) {
	s := newStack(t, hourly, nil)
	id := "7a0c8f1e-0000-4000-8000-0000000000c2"
	s.register(t, id)
	wfID := workflows.OpportunityWorkflowID(id)
	if err := s.c.CancelWorkflow(s.ctx, wfID, ""); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	err := s.c.GetWorkflow(ctx, wfID, "").Get(ctx, nil)
	var canceled *temporal.CanceledError
	if !errors.As(err, &canceled) {
		t.Fatalf("the run ended with %v, want cancelled", err)
	}
	desc, err := s.c.DescribeWorkflowExecution(s.ctx, wfID, "")
	if err != nil {
		t.Fatal(err)
	}
	if st := desc.GetWorkflowExecutionInfo().GetStatus(); st != enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED {
		t.Errorf("execution status %v", st)
	}
	var deleted bool
	var status string
	if err := s.db.QueryRow(s.ctx, `SELECT is_deleted, status FROM opportunities WHERE id = $1`, id).Scan(&deleted, &status); err != nil {
		t.Fatal(err)
	}
	if !deleted || status != string(opportunity.Analysis) {
		t.Errorf("read model: deleted %v status %s", deleted, status)
	}
	var who, mods string
	if err := s.db.QueryRow(s.ctx, `SELECT username, modifications::text FROM history WHERE type_id = $1 AND action_type = 'update'
		ORDER BY created_at DESC LIMIT 1`, id).Scan(&who, &mods); err != nil {
		t.Fatal(err)
	}
	if who != activities.OperatorName || !strings.Contains(mods, `"isDeleted"`) {
		t.Errorf("history: %s %s", who, mods)
	}
}

// TestARegistrationOnAStalledDatabaseFailsItsRunAndItsRetryAdoptsTheRow: the
// database stops answering during a registration. The registration's write is
// bounded below the run's wait, so the run hears its failure and fails (it
// does not end under a write that may still land); when the write did land,
// the client's retry with the same key starts a new run that adopts the row,
// and the opportunity can be decided (it once answered 404 forever).
func TestARegistrationOnAStalledDatabaseFailsItsRunAndItsRetryAdoptsTheRow(t *testing.T) {
	db := testenv.DB(t)
	slow, proxy := testenv.StallableDB(t, db)
	s := newStackOn(t, slow, hourly, nil)
	id := "7a0c8f1e-0000-4000-8000-0000000000c3"
	wfID := workflows.OpportunityWorkflowID(id)
	seller := actor(t, db, "vendedor1@yep.demo", auth.Seller)
	rep := actor(t, db, "representante@yep.demo", auth.Representative)

	proxy.Stall()
	ctx, cancel := context.WithTimeout(s.ctx, workflows.RegistrationWait+30*time.Second)
	defer cancel()
	began := time.Now()
	if err := s.tryRegister(t, ctx, id); err == nil {
		t.Fatal("a registration on a stalled database succeeded")
	}
	if took := time.Since(began); took > workflows.RegistrationWait+10*time.Second {
		t.Errorf("the registration failed after %v", took)
	}
	if err := s.c.GetWorkflow(s.ctx, wfID, "").Get(s.ctx, nil); err == nil {
		t.Fatal("the run completed; want failed, so a retry can start a new one")
	}
	desc, err := s.c.DescribeWorkflowExecution(s.ctx, wfID, "")
	if err != nil {
		t.Fatal(err)
	}
	if st := desc.GetWorkflowExecutionInfo().GetStatus(); st != enumspb.WORKFLOW_EXECUTION_STATUS_FAILED {
		t.Fatalf("run status %v, want failed", st)
	}
	proxy.Resume()

	// The write landed after all (a commit whose answer was lost).
	direct := &activities.Activities{DB: db, Brands: s.brand}
	if _, err := direct.Register(s.ctx, activities.RegisterInput{ID: id, Brand: "yep", Actor: seller, At: time.Now(),
		Record: opportunity.Record{ID: id, Brand: "yep", Name: "Oportunidade Yep", CNPJ: "11222333000181", ProbabilityClosing: 25,
			Products: []opportunity.Product{{PartNumber: "P-1", Description: "Coletor", Amount: 1, Price: 10000}}}}); err != nil {
		t.Fatal(err)
	}
	// The client retries with the same key: a new run adopts the row.
	if err := s.tryRegister(t, s.ctx, id); err != nil {
		t.Fatalf("the retry: %v", err)
	}
	h, err := s.c.UpdateWorkflow(s.ctx, client.UpdateWorkflowOptions{WorkflowID: wfID, UpdateName: workflows.UpdateApprove,
		Args: []any{workflows.ApproveRequest{Actor: rep, Name: "Projeto"}}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(s.ctx, nil)
	}
	if err != nil {
		t.Fatalf("approving the adopted opportunity: %v", err)
	}
	var status string
	var creates int
	if err := db.QueryRow(s.ctx, `SELECT o.status, (SELECT count(*) FROM history h WHERE h.type_id = $1 AND h.action_type = 'create')
		FROM opportunities o WHERE o.id = $1`, id).Scan(&status, &creates); err != nil {
		t.Fatal(err)
	}
	if status != string(opportunity.Approved) || creates != 1 {
		t.Errorf("read model %s with %d creation rows, want approved and 1", status, creates)
	}
}

// TestASignUpOnAStalledDatabaseStaysDecidable: the onboarding's sign-up write
// is bounded below its wait; when the database stalls the run fails (it used to
// complete while the write could still land), so a representative's decision on
// a company row that landed after all starts a run that adopts it.
func TestASignUpOnAStalledDatabaseStaysDecidable(t *testing.T) {
	db := testenv.DB(t)
	slow, proxy := testenv.StallableDB(t, db)
	s := newStackOn(t, slow, hourly, nil)
	rep := actor(t, db, "representante@yep.demo", auth.Representative)
	id := opportunity.NewID()
	wfID := workflows.ResaleWorkflowID(id)
	t.Cleanup(func() { _ = s.c.TerminateWorkflow(context.Background(), wfID, "", "test ended") })
	signup := resale.Registration{Email: "contato@revenda-lenta.com.br", Phone: "11987654321", ContactName: "Carla",
		CNPJ: "11444777000161", FantasyName: "Revenda", CorporateName: "Revenda Lenta Ltda", Country: "Brasil"}

	proxy.Stall()
	ctx, cancel := context.WithTimeout(s.ctx, workflows.RegistrationWait+30*time.Second)
	defer cancel()
	start := workflows.ResaleStart(id, "yep")
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL
	start.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE
	h, err := s.c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: s.c.NewWithStartWorkflowOperation(start, workflows.Resale, workflows.ResaleInput{ID: id, Brand: "yep"}),
		UpdateOptions: client.UpdateWorkflowOptions{UpdateID: "register", UpdateName: workflows.UpdateRegister,
			Args: []any{workflows.ResaleRegisterRequest{Registration: signup}}, WaitForStage: client.WorkflowUpdateStageCompleted}})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err == nil {
		t.Fatal("a sign-up on a stalled database succeeded")
	}
	if err := s.c.GetWorkflow(s.ctx, wfID, "").Get(s.ctx, nil); err == nil {
		t.Fatal("the onboarding run completed; want failed, so a decision can adopt the company")
	}
	proxy.Resume()

	// The write landed after all.
	direct := &activities.Activities{DB: db, Brands: s.brand}
	if _, err := direct.RegisterResale(s.ctx, activities.RegisterResaleInput{ID: id, Brand: "yep", Registration: signup, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	// A representative approves it, as the API does (a run that adopts the row).
	decide := workflows.ResaleStart(id, "yep")
	decide.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
	decide.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
	h, err = s.c.UpdateWithStartWorkflow(s.ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: s.c.NewWithStartWorkflowOperation(decide, workflows.Resale, workflows.ResaleInput{ID: id, Brand: "yep", Adopt: true}),
		UpdateOptions: client.UpdateWorkflowOptions{UpdateName: workflows.UpdateApprove, WaitForStage: client.WorkflowUpdateStageCompleted,
			Args: []any{workflows.ResaleApproval{Actor: rep, Brand: "yep"}}}})
	if err == nil {
		err = h.Get(s.ctx, nil)
	}
	if err != nil {
		t.Fatalf("deciding the company: %v", err)
	}
	var status string
	if err := db.QueryRow(s.ctx, `SELECT status FROM resales WHERE id = $1`, id).Scan(&status); err != nil || status != resale.Approved {
		t.Errorf("company %s (%v), want approved", status, err)
	}
}

// TestARenewalRequestKeepsTheDialogsAnswersAndLogsOldAndNewValues: the answers
// of the renewal dialog (proposal sent, product homologated, next step) are
// stored for the representative, and the request's history row carries the old
// and new values of 'Projeto continua em pauta' and 'Data da última visita'
// (spec §4), on the real database.
func TestARenewalRequestKeepsTheDialogsAnswersAndLogsOldAndNewValues(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: 3 * time.Second, RenewalWindow: 2 * time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
	id := "7a0c8f1e-0000-4000-8000-0000000000c4"
	wfID := workflows.OpportunityWorkflowID(id)
	s.register(t, id)
	rep := actor(t, s.db, "representante@yep.demo", auth.Representative)
	update := func(name string, arg any) error {
		h, err := s.c.UpdateWorkflow(s.ctx, client.UpdateWorkflowOptions{WorkflowID: wfID, UpdateName: name, Args: []any{arg},
			WaitForStage: client.WorkflowUpdateStageCompleted})
		if err == nil {
			err = h.Get(s.ctx, nil)
		}
		return err
	}
	if err := update(workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto"}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, s.db, id, opportunity.Renovation, 10*time.Second)
	// The read model shows the renewal window a workflow task before the run
	// does (the timer's activity, then its completion): wait for the run too.
	testenv.WaitFor(t, 10*time.Second, "the run in renovation", func() bool { return s.state(t, id).Status == opportunity.Renovation })
	renewal := opportunity.RenewalRequest{Reason: "Cliente retomou", ProbabilityClosing: 75, ProjectStillInScope: "Sim",
		LastVisitDate: "2026-01-02", ProposalSent: "Sim", ProductHomologated: "Não", NextStep: "Visita técnica"}
	if err := update(workflows.UpdateRequestRenewal, workflows.RenewalRequest{Actor: s.seller, Renewal: renewal}); err != nil {
		t.Fatal(err)
	}
	rec, err := s.acts.Load(s.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.ProposalSent != "Sim" || rec.ProductHomologated != "Não" || rec.NextStep != "Visita técnica" ||
		rec.ProjectStillInScope != "Sim" || rec.LastVisitDate != "2026-01-02" {
		t.Errorf("stored answers %q %q %q %q %q", rec.ProposalSent, rec.ProductHomologated, rec.NextStep, rec.ProjectStillInScope, rec.LastVisitDate)
	}
	var mods []opportunity.Change
	if err := s.db.QueryRow(s.ctx, `SELECT modifications FROM history WHERE type_id = $1
		AND modifications @> '[{"attribute":"status","newValue":"awaiting_renovation"}]'`, id).Scan(&mods); err != nil {
		t.Fatal(err)
	}
	want := map[string]opportunity.Change{
		"projectStillInScope": {Attribute: "projectStillInScope", OldValue: "", NewValue: "Sim"},
		"lastVisitDate":       {Attribute: "lastVisitDate", OldValue: "", NewValue: "2026-01-02"},
		"proposalSent":        {Attribute: "proposalSent", NewValue: "Sim"},
		"productHomologated":  {Attribute: "productHomologated", NewValue: "Não"},
		"nextStep":            {Attribute: "nextStep", NewValue: "Visita técnica"},
	}
	for _, m := range mods {
		if w, ok := want[m.Attribute]; ok {
			if m != w {
				t.Errorf("history %+v, want %+v", m, w)
			}
			delete(want, m.Attribute)
		}
	}
	if len(want) > 0 {
		t.Errorf("history lacks %v (has %+v)", want, mods)
	}
}
