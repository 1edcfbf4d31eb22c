package workflows_test

import (
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"oportuna/activities"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/resale"
	"oportuna/workflows"
)

// Recorded paths of a company's onboarding (record_test.go).

func TestRecordResaleRejection(t *testing.T) {
	s := newStack(t, hourly, nil)
	_, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.ResaleWorkflowID(id)
	run := signUp(t, s, id, "recusada@revenda.com.br", "11222333000181")
	s.decided(t, wfID, workflows.UpdateDisapprove, workflows.ResaleDisapproval{Actor: rep, Brand: "yep", Reason: " CNPJ sem atividade comercial "})
	completed(t, s, wfID, run, 30*time.Second, func(st workflows.ResaleState) bool { return st.Status == resale.Disapproved && st.UserID == "" })
	if status, reason := s.resaleStatus(t, id); status != resale.Disapproved || reason != "CNPJ sem atividade comercial" {
		t.Errorf("read model %s %q", status, reason)
	}
	var users int
	if err := s.db.QueryRow(s.ctx, `SELECT count(*) FROM users WHERE resale_id = $1`, id).Scan(&users); err != nil || users != 0 {
		t.Errorf("a refused company has %d users (%v)", users, err)
	}
	if n := s.notices(t, "resale/"+id, activities.NoticeResaleRegistered); n != 1 {
		t.Errorf("sign-up notices %d", n)
	}
	recordPath(t, s, wfID, run, recordedResaleRejected)
}

// TestRecordResaleAdoptionIsApproved: a company stored without a workflow gets
// one that adopts it when a representative decides (api decideResale:
// Update-with-Start of ResaleInput{Adopt: true}); the approval creates its user.
func TestRecordResaleAdoptionIsApproved(t *testing.T) {
	s := newStack(t, hourly, nil)
	_, rep := people(t, s)
	var id string
	if err := s.db.QueryRow(s.ctx, `INSERT INTO resales (brand, corporate_name, cnpj, email, contact_name, phone)
		VALUES ('yep', 'Antiga Ltda', '11444777000161', 'antiga@revenda.com.br', 'Otto', '11987650000') RETURNING id::text`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	wfID := workflows.ResaleWorkflowID(id)
	start := workflows.ResaleStart(id, "yep")
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
	start.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
	op := s.c.NewWithStartWorkflowOperation(start, workflows.Resale, workflows.ResaleInput{ID: id, Brand: "yep", Adopt: true})
	h, err := s.c.UpdateWithStartWorkflow(s.ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateName: workflows.UpdateApprove, WaitForStage: client.WorkflowUpdateStageCompleted,
			Args: []any{workflows.ResaleApproval{Actor: rep, Brand: "yep"}}}})
	if err == nil {
		err = h.Get(s.ctx, nil)
	}
	if err != nil {
		t.Fatalf("approve: %v", err)
	}
	terminateOnCleanup(t, s, wfID)
	s.explainOnFailure(t, wfID)
	st := completed(t, s, wfID, h.RunID(), 30*time.Second, func(st workflows.ResaleState) bool { return st.Status == resale.Approved && st.UserID != "" })
	if status, _ := s.resaleStatus(t, id); status != resale.Approved {
		t.Errorf("read model %s", status)
	}
	var email string
	if err := s.db.QueryRow(s.ctx, `SELECT email FROM users WHERE id = $1 AND resale_id = $2`, st.UserID, id).Scan(&email); err != nil || email != "antiga@revenda.com.br" {
		t.Errorf("the company's user: %q %v", email, err)
	}
	if n := s.notices(t, "resale/"+id, activities.NoticeResaleApproved); n != 1 {
		t.Errorf("approval notices %d", n)
	}
	recordPath(t, s, wfID, h.RunID(), recordedResaleAdopted)
}

// TestRecordResaleLongAnalysisContinuesAsNew: a company waiting through
// MaxRemindersPerRun reminders continues as new with its state; the next run
// keeps counting and an approval ends it.
func TestRecordResaleLongAnalysisContinuesAsNew(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: 100 * time.Millisecond, ExpiredRetention: time.Hour}, nil)
	_, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.ResaleWorkflowID(id)
	first := signUp(t, s, id, "demorada@revenda.com.br", "11222333000181")
	s.closed(t, wfID, first, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 2*time.Minute)
	second := s.runID(t, wfID)
	s.decided(t, wfID, workflows.UpdateApprove, workflows.ResaleApproval{Actor: rep, Brand: "yep"})
	st := completed(t, s, wfID, second, 30*time.Second, func(st workflows.ResaleState) bool {
		return st.Status == resale.Approved && st.Reminders >= workflows.MaxRemindersPerRun
	})
	if n := s.notices(t, "resale/"+id, activities.NoticeResaleReminder); n != st.Reminders {
		t.Errorf("%d reminder notices for %d reminders", n, st.Reminders)
	}
	// Only the second run is recorded: the first holds MaxRemindersPerRun
	// reminders (~650 events, ~460 KB of JSON), too large to keep in the repository.
	recordPath(t, s, wfID, second, recordedResaleSecondRun)
}

func TestRecordResaleContinuesAsNewWhenTheServerSuggestsIt(t *testing.T) {
	s := newSuggestingStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: 200 * time.Millisecond, ExpiredRetention: time.Hour})
	_, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.ResaleWorkflowID(id)
	first := signUp(t, s, id, "sugerida@revenda.com.br", "11222333000181")
	s.closed(t, wfID, first, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 30*time.Second)
	s.decided(t, wfID, workflows.UpdateApprove, workflows.ResaleApproval{Actor: rep, Brand: "yep"})
	var st workflows.ResaleState
	testenv.WaitFor(t, 30*time.Second, "the approved company's run to end", func() bool {
		var err error
		st, err = result[workflows.ResaleState](t, s, wfID, "", 5*time.Second)
		return err == nil
	})
	if st.Status != resale.Approved || st.Reminders == 0 || st.UserID == "" {
		t.Fatalf("the last run ended with %+v", st)
	}
	if n := s.notices(t, "resale/"+id, activities.NoticeResaleReminder); n != st.Reminders {
		t.Errorf("%d reminder notices for %d reminders", n, st.Reminders)
	}
	recordPath(t, s, wfID, first, recordedResaleSuggested)
}
