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
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/mailer/mailtest"
	"oportuna/opportunity"
	"oportuna/seed"
	"oportuna/worker"
	"oportuna/workflows"
)

// stack is a real dev server, a seeded database and a running worker.
type stack struct {
	c     client.Client
	db    *pgxpool.Pool
	ctx   context.Context
	acts  *activities.Activities
	brand *brand.Registry
}

func newStack(t *testing.T, d activities.Durations, mail activities.Mailer) *stack {
	t.Helper()
	return newStackOn(t, testenv.DB(t), d, mail)
}

func newStackOn(t *testing.T, db *pgxpool.Pool, d activities.Durations, mail activities.Mailer) *stack {
	t.Helper()
	s := &stack{c: testenv.TemporalClient(t), db: db, ctx: testenv.Context(t)}
	s.brand, _ = brand.Parse([]byte(`[{"slug":"yep","name":"Yep"}]`))
	if _, err := seed.Run(s.ctx, s.db, s.brand, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	if mail == nil {
		mail = activities.LogMailer{}
	}
	s.acts = &activities.Activities{DB: s.db, Brands: s.brand, CRM: crm.Local{DB: s.db}, Mailer: mail, Durations: d}
	wctx, stop := context.WithCancel(s.ctx)
	done := make(chan error, 1)
	go func() { done <- worker.Run(wctx, s.c, "default", s.acts) }()
	t.Cleanup(func() { stop(); <-done })
	return s
}

// register registers an opportunity for the seed's first seller, as the API does.
func (s *stack) register(t *testing.T, id string) {
	t.Helper()
	seller := actor(t, s.db, "vendedor1@yep.demo", auth.Seller)
	start := workflows.OpportunityStart(id, "yep")
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
	start.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
	op := s.c.NewWithStartWorkflowOperation(start, workflows.Opportunity, workflows.OpportunityInput{ID: id, Brand: "yep"})
	h, err := s.c.UpdateWithStartWorkflow(s.ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateID: "register", UpdateName: workflows.UpdateRegister, WaitForStage: client.WorkflowUpdateStageCompleted,
			Args: []any{workflows.RegisterRequest{Actor: seller, ResaleCNPJ: seed.ResaleCNPJ(0), Record: opportunity.Record{
				Name: "Oportunidade Yep", CNPJ: "11222333000181", Contact: "Ana", Email: "ana@cliente.com.br", ProbabilityClosing: 25,
				Products: []opportunity.Product{{PartNumber: "P-1", Description: "Coletor", Amount: 1, Price: 10000}}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Get(s.ctx, nil); err != nil {
		t.Fatal(err)
	}
	// Other tests' workers share the dev server's task queue: leave nothing running.
	t.Cleanup(func() {
		_ = s.c.TerminateWorkflow(context.Background(), workflows.OpportunityWorkflowID(id), "", "test ended")
	})
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
	waitFor(t, 20*time.Second, "three reminders", func() bool { return s.state(t, id).Reminders >= 3 })

	var reps int
	if err := db.QueryRow(s.ctx, `SELECT count(DISTINCT u.id) FROM users u JOIN user_roles r ON r.user_id = u.id
		WHERE u.active AND r.role = 'REPRESENTATIVE' AND r.brand IN ('yep', 'all')`).Scan(&reps); err != nil || reps == 0 {
		t.Fatalf("representatives: %d %v", reps, err)
	}
	counted := s.state(t, id).Reminders
	// Every reminder the workflow counted is stored for every representative and e-mailed to each.
	waitFor(t, 15*time.Second, "the reminders' notifications and e-mails", func() bool {
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
	s := newStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
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
