package workflows_test

import (
	"errors"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"

	"oportuna/activities"
	"oportuna/crm"
	"oportuna/internal/dev/localcrm"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/workflows"
)

// Recorded paths of an opportunity up to its approval or refusal (record_test.go).

// TestRecordApprovalAfterTwoSLAReminders: an opportunity left in analysis past
// APPROVAL_SLA reminds the representatives each period, each reminder a notice
// of its own, until a representative approves it.
func TestRecordApprovalAfterTwoSLAReminders(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: time.Second, ExpiredRetention: time.Hour}, nil)
	_, rep := people(t, s)
	id, wfID, run := s.registered(t)
	testenv.WaitFor(t, 30*time.Second, "two reminders", func() bool { return s.state(t, id).Reminders >= 2 })
	s.decided(t, wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Lembrado", Probability: 50})
	s.settleRunning(t, wfID, run)
	st := s.state(t, id)
	if st.Status != opportunity.Approved || st.Reminders < 2 {
		t.Errorf("state %s with %d reminders, want approved after 2 or more", st.Status, st.Reminders)
	}
	s.approvedWithRecord(t, id, "read model")
	if n := s.notices(t, id, "approval-reminder"); n < 2 || n != st.Reminders {
		t.Errorf("%d reminder notices for %d reminders", n, st.Reminders)
	}
	s.sentOnce(t, id, "approved")
	recordPath(t, s, wfID, run, recordedApprovalReminders)
}

// TestRecordDisapprovalEndsTheRun: a representative's refusal is stored with
// its reason, the owner hears of it, and the run completes.
func TestRecordDisapprovalEndsTheRun(t *testing.T) {
	s := newStack(t, hourly, nil)
	_, rep := people(t, s)
	id, wfID, run := s.registered(t)
	s.decided(t, wfID, workflows.UpdateDisapprove, workflows.DisapproveRequest{Actor: rep, Reason: " Cliente já atendido por outra revenda "})
	completed(t, s, wfID, run, 20*time.Second, func(st workflows.OpportunityState) bool { return st.Status == opportunity.Disapproved })
	if status, reason, register, _ := s.row(t, id); status != string(opportunity.Disapproved) || reason != "Cliente já atendido por outra revenda" || register != "" {
		t.Errorf("read model %s %q register %q", status, reason, register)
	}
	s.sentOnce(t, id, "disapproved")
	recordPath(t, s, wfID, run, recordedDisapproval)
}

// TestRecordEditsAsTheAPISendsThem: edits with the API's deadline and
// Idempotency-Key: one in analysis (no CRM record: the read model only), one
// after the approval (the CRM takes the change first), and one that changes
// nothing (only its key's answer is recorded).
func TestRecordEditsAsTheAPISendsThem(t *testing.T) {
	s := newStack(t, hourly, nil)
	_, rep := people(t, s)
	id, wfID, run := s.registered(t)
	deadline := func() time.Time { return time.Now().Add(workflows.DecisionWait - 5*time.Second) }
	key := func(action, n string) *opportunity.IdempotencyKey {
		return &opportunity.IdempotencyKey{UserID: rep.UserID, Key: id + "/" + n, Action: action, Status: 200, Message: "ok"}
	}
	edit := func(name *string, prob *int, n string) error {
		return s.decide(wfID, workflows.UpdateEdit, workflows.EditRequest{Actor: rep, Name: name, Probability: prob, Deadline: deadline(), Idem: key("edit", n)})
	}
	if err := edit(ptr("Projeto Renomeado"), nil, "1"); err != nil {
		t.Fatal(err)
	}
	if err := s.decide(wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Renomeado", Probability: 50,
		Deadline: deadline(), Idem: key("approve", "2")}); err != nil {
		t.Fatal(err)
	}
	if err := edit(nil, ptr(75), "3"); err != nil {
		t.Fatal(err)
	}
	if err := edit(nil, ptr(75), "4"); err != nil { // changes nothing
		t.Fatal(err)
	}
	s.settleRunning(t, wfID, run)
	var name string
	var prob, rows, keys int
	if err := s.db.QueryRow(s.ctx, `SELECT name, probability_closing, (SELECT count(*) FROM history WHERE type_id = $1),
		(SELECT count(*) FROM idempotency_keys WHERE opportunity_id = $1) FROM opportunities WHERE id = $1`, id).Scan(&name, &prob, &rows, &keys); err != nil {
		t.Fatal(err)
	}
	// create, edit, approved, edit; every call's key, the unchanging edit's too.
	if name != "Projeto Renomeado" || prob != 75 || rows != 4 || keys != 4 {
		t.Errorf("read model %q %d, %d history rows (want 4), %d keys (want 4)", name, prob, rows, keys)
	}
	if st := s.state(t, id); st.Status != opportunity.Approved || st.Register == "" || st.Probability != 75 {
		t.Errorf("state %s register %q probability %d", st.Status, st.Register, st.Probability)
	}
	recordPath(t, s, wfID, run, recordedEdits)
}

// TestRecordCRMRefusalOnApproval: the CRM refuses the customer; the
// representative hears why and the opportunity stays in analysis; the next
// approval, with the CRM accepting, goes through.
func TestRecordCRMRefusalOnApproval(t *testing.T) {
	s := newStack(t, hourly, nil)
	refusing := &flakyCRM{CRM: localcrm.CRM{DB: s.db}, fail: true}
	s.acts.CRM = refusing // before the first activity runs
	_, rep := people(t, s)
	id, wfID, run := s.registered(t)
	approve := workflows.ApproveRequest{Actor: rep, Name: "Projeto Armazém", Probability: 50}
	if err := s.decide(wfID, workflows.UpdateApprove, approve); errType(err) != crm.ErrTypeCustomerNotFound {
		t.Fatalf("approval the CRM refused: %v", err)
	}
	if status, _, register, _ := s.row(t, id); status != string(opportunity.Analysis) || register != "" {
		t.Fatalf("after the refusal: %s register %q", status, register)
	}
	refusing.fail = false
	s.decided(t, wfID, workflows.UpdateApprove, approve)
	s.settleRunning(t, wfID, run)
	s.approvedWithRecord(t, id, "after the approval")
	s.sentOnce(t, id, "approved")
	recordPath(t, s, wfID, run, recordedCRMRefusedApprove)
}

// TestRecordOperatorCancellationOfAnApproval: 'Request Cancellation' on an
// approved opportunity ends its run as cancelled and hides it (isDeleted),
// keeping its status.
func TestRecordOperatorCancellationOfAnApproval(t *testing.T) {
	s := newStack(t, hourly, nil)
	_, rep := people(t, s)
	id, wfID, run := s.registered(t)
	s.decided(t, wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Cancelado", Probability: 50})
	s.settleRunning(t, wfID, run)
	if err := s.c.CancelWorkflow(s.ctx, wfID, run); err != nil {
		t.Fatal(err)
	}
	_, err := result[workflows.OpportunityState](t, s, wfID, run, 20*time.Second)
	var canceled *temporal.CanceledError
	if !errors.As(err, &canceled) {
		t.Fatalf("the run ended with %v, want cancelled", err)
	}
	s.closed(t, wfID, run, enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED, time.Second)
	if status, _, _, deleted := s.row(t, id); !deleted || status != string(opportunity.Approved) {
		t.Errorf("read model: deleted %v status %s", deleted, status)
	}
	recordPath(t, s, wfID, run, recordedCancellation)
}

// TestRecordAdoptedOpportunityIsApproved: a stored opportunity whose workflow
// is gone (terminated) gets a run that adopts the row, and a representative
// decides it there.
func TestRecordAdoptedOpportunityIsApproved(t *testing.T) {
	s := newStack(t, hourly, nil)
	_, rep := people(t, s)
	id, wfID, gone := s.registered(t) // its clean-up terminates whichever run is current
	if err := s.c.TerminateWorkflow(s.ctx, wfID, gone, "the workflow is lost"); err != nil {
		t.Fatal(err)
	}
	start := workflows.OpportunityStart(id, "yep")
	start.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
	adopted, err := s.c.ExecuteWorkflow(s.ctx, start, workflows.Opportunity, workflows.OpportunityInput{ID: id, Brand: "yep", Adopt: true})
	if err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, 20*time.Second, "the row adopted", func() bool { return s.state(t, id).Status != "" })
	if st := s.state(t, id); st.Status != opportunity.Analysis || st.OwnerUserID == "" || st.CreatedAt.IsZero() || st.Seq < 1 {
		t.Fatalf("adopted state %+v", st)
	}
	s.decided(t, wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Adotado", Probability: 75})
	s.settleRunning(t, wfID, adopted.GetRunID())
	s.approvedWithRecord(t, id, "read model")
	s.sentOnce(t, id, "approved")
	recordPath(t, s, wfID, adopted.GetRunID(), recordedAdoption)
}

func TestRecordOpportunityContinuesAsNewWhenTheServerSuggestsIt(t *testing.T) {
	s := newSuggestingStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: 200 * time.Millisecond, ExpiredRetention: time.Hour})
	_, rep := people(t, s)
	id, wfID, first := s.registered(t)
	s.closed(t, wfID, first, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 30*time.Second)
	carried := s.state(t, id)
	if carried.Status != opportunity.Analysis || carried.Reminders == 0 || carried.Seq < 1 || carried.CreatedAt.IsZero() {
		t.Fatalf("the next run's state %+v", carried)
	}
	s.decided(t, wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Longo", Probability: 50})
	waitStatus(t, s.db, id, opportunity.Approved, 10*time.Second)
	if n, st := s.notices(t, id, "approval-reminder"), s.state(t, id); n != st.Reminders || n < carried.Reminders {
		t.Errorf("%d reminder notices for %d reminders (%d carried)", n, st.Reminders, carried.Reminders)
	}
	recordPath(t, s, wfID, first, recordedSuggested)
}

// TestRecordResaleContinuesAsNewWhenTheServerSuggestsIt: the same for a
// company's onboarding (its other trigger, MaxRemindersPerRun, takes 100
// reminders: TestRecordResaleLongAnalysisContinuesAsNew).
