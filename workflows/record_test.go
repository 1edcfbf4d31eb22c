package workflows_test

// Replay coverage of every path (issue 12, item 10). Each test drives a real
// workflow on the dev server with a seeded database, a worker and durations of
// seconds, checks the path's outcome (read model, notices, how the run ended)
// and, with OPORTUNA_RECORD_HISTORIES=1, writes the run's history where
// TestRecordedHistoriesReplay (replay_test.go) replays it with the current code:
//
//	OPORTUNA_RECORD_HISTORIES=1 go test ./workflows -count=1 -run TestRecord -skip 'TestRecordSendEmailHistory|TestRecordedHistoriesReplay'
//
// The histories are kept small (few events, short durations): a recorded run
// still going ends on a completed workflow task (settle), and every test
// terminates its workflows when it ends, since all tests share the dev
// server's task queue.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/crm"
	"oportuna/internal/calendar"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/seed"
	"oportuna/worker"
	"oportuna/workflows"
)

// Where each path's history is recorded (relative to workflows/).
const (
	recordedApprovalReminders = "testdata/histories/approval-reminders.json"
	recordedDisapproval       = "testdata/histories/disapproved.json"
	recordedExpiryInAnalysis  = "testdata/histories/expired-in-analysis.json"
	recordedCRMRefusedApprove = "testdata/histories/crm-refused-approval.json"
	recordedCRMRefusedRenewal = "testdata/histories/crm-refused-renewal-approval.json"
	recordedSecondRun         = "testdata/histories/second-run-expired.json"
	recordedCancellation      = "testdata/histories/operator-cancelled.json"
	recordedRenewalReminders  = "testdata/histories/renewal-reminders-refused.json"
	recordedAdoption          = "testdata/histories/adopted-approved.json"
	recordedResaleRejected    = "testdata/resale/rejected.json"
	recordedResaleAdopted     = "testdata/resale/adopted-approved.json"
	recordedResaleSecondRun   = "testdata/resale/continued-as-new-second-run-approved.json"
	recordedResaleSuggested   = "testdata/resale/continued-as-new-suggested.json"
	recordedSuggested         = "testdata/histories/continued-as-new-suggested.json"
)

// recordPath writes a run's history with OPORTUNA_RECORD_HISTORIES=1 (recordHistory, lifecycle_test.go).
func recordPath(t *testing.T, s *stack, wfID, runID, path string) {
	t.Helper()
	if os.Getenv("OPORTUNA_RECORD_HISTORIES") != "" {
		recordHistory(t, s.c, wfID, runID, path)
	}
}

// decide sends an update to the workflow's current run and waits for its outcome.
func (s *stack) decide(wfID, name string, arg any) error {
	h, err := s.c.UpdateWorkflow(s.ctx, client.UpdateWorkflowOptions{WorkflowID: wfID, UpdateName: name, Args: []any{arg},
		WaitForStage: client.WorkflowUpdateStageCompleted})
	if err != nil {
		return err
	}
	return h.Get(s.ctx, nil)
}

// runID is the id of the workflow's current run.
func (s *stack) runID(t *testing.T, wfID string) string {
	t.Helper()
	d, err := s.c.DescribeWorkflowExecution(s.ctx, wfID, "")
	if err != nil {
		t.Fatal(err)
	}
	return d.GetWorkflowExecutionInfo().GetExecution().GetRunId()
}

// closed waits for a run to end and checks how it ended.
func (s *stack) closed(t *testing.T, wfID, runID string, want enumspb.WorkflowExecutionStatus, within time.Duration) {
	t.Helper()
	var got enumspb.WorkflowExecutionStatus
	waitFor(t, within, "the run to end as "+want.String(), func() bool {
		d, err := s.c.DescribeWorkflowExecution(s.ctx, wfID, runID)
		got = d.GetWorkflowExecutionInfo().GetStatus()
		return err == nil && got != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
	})
	if got != want {
		t.Fatalf("the run ended %v, want %v", got, want)
	}
}

// settle waits until a run has ended, or has no activity and no workflow task
// pending, so that its recorded history ends on a completed workflow task; it
// answers how the run stands then.
func (s *stack) settle(t *testing.T, wfID, runID string) enumspb.WorkflowExecutionStatus {
	t.Helper()
	var status enumspb.WorkflowExecutionStatus
	waitFor(t, 30*time.Second, "the run to settle", func() bool {
		d, err := s.c.DescribeWorkflowExecution(s.ctx, wfID, runID)
		status = d.GetWorkflowExecutionInfo().GetStatus()
		return err == nil && (status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING ||
			len(d.GetPendingActivities()) == 0 && d.GetPendingWorkflowTask() == nil)
	})
	return status
}

// settleRunning is settle for a run that must still be running.
func (s *stack) settleRunning(t *testing.T, wfID, runID string) {
	t.Helper()
	if st := s.settle(t, wfID, runID); st != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		t.Fatalf("the run ended (%v), want it running", st)
	}
}

// explainOnFailure logs, when the test fails, what the workflow's current run
// was doing: its status, pending activities (attempts, last failure) and last events.
func (s *stack) explainOnFailure(t *testing.T, wfID string) {
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		ctx := context.Background()
		d, err := s.c.DescribeWorkflowExecution(ctx, wfID, "")
		if err != nil {
			t.Logf("%s: %v", wfID, err)
			return
		}
		info := d.GetWorkflowExecutionInfo()
		t.Logf("%s run %s: %v, workflow task pending: %v", wfID, info.GetExecution().GetRunId(), info.GetStatus(), d.GetPendingWorkflowTask() != nil)
		for _, pa := range d.GetPendingActivities() {
			t.Logf("  pending %s: %v, attempt %d, last failure %v", pa.GetActivityType().GetName(), pa.GetState(), pa.GetAttempt(), pa.GetLastFailure().GetMessage())
		}
		var last []string
		it := s.c.GetWorkflowHistory(ctx, wfID, info.GetExecution().GetRunId(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				break
			}
			last = append(last, ev.GetEventType().String())
		}
		t.Logf("  last events: %v", last[max(0, len(last)-8):])
	})
}

// notices counts the distinct notices of a kind about an opportunity or a company
// (their keys start with its id, "resale/<id>" for a company).
func (s *stack) notices(t *testing.T, keyPrefix, kind string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(s.ctx, `SELECT count(DISTINCT notice_key) FROM notifications WHERE kind = $1 AND starts_with(notice_key, $2)`,
		kind, keyPrefix+"/").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// row reads an opportunity's read model.
func (s *stack) row(t *testing.T, id string) (status, reason, register string, deleted bool) {
	t.Helper()
	if err := s.db.QueryRow(s.ctx, `SELECT status, reason, register, is_deleted FROM opportunities WHERE id = $1`, id).
		Scan(&status, &reason, &register, &deleted); err != nil {
		t.Fatal(err)
	}
	return
}

// result waits for a run's result.
func result[T any](t *testing.T, s *stack, wfID, runID string, within time.Duration) (T, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(s.ctx, within)
	defer cancel()
	var out T
	err := s.c.GetWorkflow(ctx, wfID, runID).Get(ctx, &out)
	return out, err
}

func errType(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Type()
	}
	return ""
}

// renewalBy is a renewal request of the seed's seller.
func renewalBy(seller activities.Actor) workflows.RenewalRequest {
	return workflows.RenewalRequest{Actor: seller, Renewal: opportunity.RenewalRequest{Reason: "Cliente retomou o projeto",
		ProbabilityClosing: 75, ProjectStillInScope: "Sim", LastVisitDate: calendar.ISO(time.Now())}}
}

// people are the seed's seller (who registers) and representative (who decides).
func people(t *testing.T, s *stack) (seller, rep activities.Actor) {
	return actor(t, s.db, "vendedor1@yep.demo", auth.Seller), actor(t, s.db, "representante@yep.demo", auth.Representative)
}

// --- Opportunity ------------------------------------------------------------------

// TestRecordApprovalAfterTwoSLAReminders: an opportunity left in analysis past
// APPROVAL_SLA reminds the representatives each period, each reminder a notice
// of its own, until a representative approves it.
func TestRecordApprovalAfterTwoSLAReminders(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: time.Second, ExpiredRetention: time.Hour}, nil)
	_, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	s.register(t, id)
	s.explainOnFailure(t, workflows.OpportunityWorkflowID(id))
	waitFor(t, 30*time.Second, "two reminders", func() bool { return s.state(t, id).Reminders >= 2 })
	if err := s.decide(wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Lembrado", Probability: 50}); err != nil {
		t.Fatal(err)
	}
	run := s.runID(t, wfID)
	s.settleRunning(t, wfID, run)
	st := s.state(t, id)
	if st.Status != opportunity.Approved || st.Reminders < 2 {
		t.Errorf("state %s with %d reminders, want approved after 2 or more", st.Status, st.Reminders)
	}
	if status, _, register, _ := s.row(t, id); status != string(opportunity.Approved) || register == "" {
		t.Errorf("read model %s register %q", status, register)
	}
	if n := s.notices(t, id, "approval-reminder"); n < 2 || n != st.Reminders {
		t.Errorf("%d reminder notices for %d reminders", n, st.Reminders)
	}
	if n := s.notices(t, id, "approved"); n != 1 {
		t.Errorf("approval notices %d", n)
	}
	recordPath(t, s, wfID, run, recordedApprovalReminders)
}

// TestRecordDisapprovalEndsTheRun: a representative's refusal is stored with
// its reason, the owner hears of it, and the run completes.
func TestRecordDisapprovalEndsTheRun(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
	_, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	s.register(t, id)
	s.explainOnFailure(t, workflows.OpportunityWorkflowID(id))
	run := s.runID(t, wfID)
	if err := s.decide(wfID, workflows.UpdateDisapprove, workflows.DisapproveRequest{Actor: rep, Reason: " Cliente já atendido por outra revenda "}); err != nil {
		t.Fatal(err)
	}
	st, err := result[workflows.OpportunityState](t, s, wfID, run, 20*time.Second)
	if err != nil || st.Status != opportunity.Disapproved {
		t.Fatalf("the run ended with %s, %v", st.Status, err)
	}
	s.closed(t, wfID, run, enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, time.Second)
	if status, reason, register, _ := s.row(t, id); status != string(opportunity.Disapproved) || reason != "Cliente já atendido por outra revenda" || register != "" {
		t.Errorf("read model %s %q register %q", status, reason, register)
	}
	if n := s.notices(t, id, "disapproved"); n != 1 {
		t.Errorf("refusal notices %d", n)
	}
	recordPath(t, s, wfID, run, recordedDisapproval)
}

// TestRecordExpiryInAnalysis: an opportunity no representative decided within
// its validity expires, and the representatives and the owner hear of it.
func TestRecordExpiryInAnalysis(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: 3 * time.Second, RenewalWindow: time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	s.register(t, id)
	s.explainOnFailure(t, workflows.OpportunityWorkflowID(id))
	run := s.runID(t, wfID)
	waitStatus(t, s.db, id, opportunity.Expired, 20*time.Second)
	waitFor(t, 10*time.Second, "the expiry notice", func() bool { return s.notices(t, id, "expired-in-analysis") == 1 })
	if _, _, register, _ := s.row(t, id); register != "" {
		t.Errorf("an opportunity never approved has a CRM record %q", register)
	}
	// The run ends at once today: an opportunity never approved has no
	// ValidUntil, so its OPPORTUNITY_EXPIRED_RETENTION counts from the zero time,
	// and a renewal request (which docs/opportunity-lifecycle.md allows for an
	// expired opportunity until the retention ends) finds no workflow (404).
	// Reported with issue 12 (item 10); this test records whichever way the run goes.
	if st := s.settle(t, wfID, run); st != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		seller, _ := people(t, s)
		err := s.decide(wfID, workflows.UpdateRequestRenewal, renewalBy(seller))
		var notFound *serviceerror.NotFound
		t.Logf("the run ended (%v) at the expiry in analysis, not after the retention; a renewal request: %v (not found: %v)",
			st, err, errors.As(err, &notFound))
	}
	recordPath(t, s, wfID, run, recordedExpiryInAnalysis)
}

// TestRecordCRMRefusalOnApproval: the CRM refuses the customer; the
// representative hears why and the opportunity stays in analysis; the next
// approval, with the CRM accepting, goes through.
func TestRecordCRMRefusalOnApproval(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
	refusing := &flakyCRM{Local: crm.Local{DB: s.db}, fail: true}
	s.acts.CRM = refusing // before the first activity runs
	_, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	s.register(t, id)
	s.explainOnFailure(t, workflows.OpportunityWorkflowID(id))
	approve := workflows.ApproveRequest{Actor: rep, Name: "Projeto Armazém", Probability: 50}
	if err := s.decide(wfID, workflows.UpdateApprove, approve); errType(err) != activities.ErrTypeCRMNotFound {
		t.Fatalf("approval the CRM refused: %v", err)
	}
	if status, _, register, _ := s.row(t, id); status != string(opportunity.Analysis) || register != "" {
		t.Fatalf("after the refusal: %s register %q", status, register)
	}
	refusing.fail = false
	if err := s.decide(wfID, workflows.UpdateApprove, approve); err != nil {
		t.Fatal(err)
	}
	run := s.runID(t, wfID)
	s.settleRunning(t, wfID, run)
	if status, _, register, _ := s.row(t, id); status != string(opportunity.Approved) || register == "" {
		t.Errorf("after the approval: %s register %q", status, register)
	}
	if n := s.notices(t, id, "approved"); n != 1 {
		t.Errorf("approval notices %d", n)
	}
	recordPath(t, s, wfID, run, recordedCRMRefusedApprove)
}

// approveIntoRenovation registers and approves an opportunity, then waits for its renewal window.
func approveIntoRenovation(t *testing.T, s *stack, id string) {
	t.Helper()
	_, rep := people(t, s)
	s.register(t, id)
	s.explainOnFailure(t, workflows.OpportunityWorkflowID(id))
	if err := s.decide(workflows.OpportunityWorkflowID(id), workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Renovado", Probability: 50}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, s.db, id, opportunity.Renovation, 20*time.Second)
}

// TestRecordCRMRefusalOnRenewalApproval: the CRM refuses the renewed approval;
// the opportunity keeps awaiting the decision; the next approval, accepted,
// ends the run as continued-as-new for the next validity.
func TestRecordCRMRefusalOnRenewalApproval(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: 8 * time.Second, RenewalWindow: 6 * time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
	refusing := &flakyCRM{Local: crm.Local{DB: s.db}}
	s.acts.CRM = refusing // before the first activity runs
	seller, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	approveIntoRenovation(t, s, id)
	run := s.runID(t, wfID)
	if err := s.decide(wfID, workflows.UpdateRequestRenewal, renewalBy(seller)); err != nil {
		t.Fatal(err)
	}
	refusing.fail = true
	renew := workflows.RenewalDecision{Actor: rep, Approve: true}
	if err := s.decide(wfID, workflows.UpdateDecideRenewal, renew); errType(err) != activities.ErrTypeCRMNotFound {
		t.Fatalf("renewal approval the CRM refused: %v", err)
	}
	if status, _, _, _ := s.row(t, id); status != string(opportunity.AwaitingRenovation) {
		t.Fatalf("after the refusal: %s", status)
	}
	refusing.fail = false
	if err := s.decide(wfID, workflows.UpdateDecideRenewal, renew); err != nil {
		t.Fatal(err)
	}
	s.closed(t, wfID, run, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 20*time.Second)
	if st := s.state(t, id); st.Status != opportunity.Approved || st.Cycle != 1 {
		t.Errorf("the next run: %s cycle %d", st.Status, st.Cycle)
	}
	if status, _, _, _ := s.row(t, id); status != string(opportunity.Approved) {
		t.Errorf("read model %s", status)
	}
	if n := s.notices(t, id, "renewal-approved"); n != 1 {
		t.Errorf("renewal approval notices %d", n)
	}
	recordPath(t, s, wfID, run, recordedCRMRefusedRenewal)
}

// TestRecordSecondRunExpiresAfterARenewal: after a renewal the next run starts
// from the carried state, opens the renewal window and expires on its own
// timers, then ends after the retention.
func TestRecordSecondRunExpiresAfterARenewal(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: 6 * time.Second, RenewalWindow: 4 * time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Second}, nil)
	seller, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	approveIntoRenovation(t, s, id)
	first := s.runID(t, wfID)
	if err := s.decide(wfID, workflows.UpdateRequestRenewal, renewalBy(seller)); err != nil {
		t.Fatal(err)
	}
	if err := s.decide(wfID, workflows.UpdateDecideRenewal, workflows.RenewalDecision{Actor: rep, Approve: true}); err != nil {
		t.Fatal(err)
	}
	s.closed(t, wfID, first, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 20*time.Second)
	second := s.runID(t, wfID)
	st, err := result[workflows.OpportunityState](t, s, wfID, second, 40*time.Second)
	if err != nil || st.Status != opportunity.Expired || st.Cycle != 1 {
		t.Fatalf("the second run ended with %s cycle %d, %v", st.Status, st.Cycle, err)
	}
	s.closed(t, wfID, second, enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, time.Second)
	if status, _, _, _ := s.row(t, id); status != string(opportunity.Expired) {
		t.Errorf("read model %s", status)
	}
	// Both cycles opened the renewal window; the second one expired.
	if open, expired := s.notices(t, id, "renewal-open"), s.notices(t, id, "expired"); open != 2 || expired != 1 {
		t.Errorf("renewal-open notices %d (want 2), expired %d (want 1)", open, expired)
	}
	recordPath(t, s, wfID, second, recordedSecondRun)
}

// TestRecordOperatorCancellationOfAnApproval: 'Request Cancellation' on an
// approved opportunity ends its run as cancelled and hides it (isDeleted),
// keeping its status.
func TestRecordOperatorCancellationOfAnApproval(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
	_, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	s.register(t, id)
	s.explainOnFailure(t, workflows.OpportunityWorkflowID(id))
	if err := s.decide(wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Cancelado", Probability: 50}); err != nil {
		t.Fatal(err)
	}
	run := s.runID(t, wfID)
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

// TestRecordRenewalRequestRemindsThenIsRefused: a renewal request waiting past
// APPROVAL_SLA reminds the representatives like an analysis; the refusal ends
// the run (and closes the CRM record in the background).
func TestRecordRenewalRequestRemindsThenIsRefused(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: 6 * time.Second, RenewalWindow: 4 * time.Second, ApprovalSLA: time.Second, ExpiredRetention: time.Hour}, nil)
	seller, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	approveIntoRenovation(t, s, id)
	run := s.runID(t, wfID)
	if err := s.decide(wfID, workflows.UpdateRequestRenewal, renewalBy(seller)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "two renewal reminders", func() bool { return s.state(t, id).Reminders >= 2 })
	if err := s.decide(wfID, workflows.UpdateDecideRenewal, workflows.RenewalDecision{Actor: rep, Reason: "Projeto cancelado pelo cliente"}); err != nil {
		t.Fatal(err)
	}
	st, err := result[workflows.OpportunityState](t, s, wfID, run, 20*time.Second)
	if err != nil || st.Status != opportunity.Disapproved || st.Reminders < 2 {
		t.Fatalf("the run ended with %s after %d reminders, %v", st.Status, st.Reminders, err)
	}
	s.closed(t, wfID, run, enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, time.Second)
	if status, reason, _, _ := s.row(t, id); status != string(opportunity.Disapproved) || reason != "Projeto cancelado pelo cliente" {
		t.Errorf("read model %s %q", status, reason)
	}
	if n := s.notices(t, id, "renewal-reminder"); n != st.Reminders {
		t.Errorf("%d renewal reminder notices for %d reminders", n, st.Reminders)
	}
	if n := s.notices(t, id, "renewal-refused"); n != 1 {
		t.Errorf("renewal refusal notices %d", n)
	}
	recordPath(t, s, wfID, run, recordedRenewalReminders)
}

// TestRecordAdoptedOpportunityIsApproved: a stored opportunity whose workflow
// is gone (terminated) gets a run that adopts the row, and a representative
// decides it there.
func TestRecordAdoptedOpportunityIsApproved(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
	_, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	s.register(t, id) // its clean-up terminates whichever run is current
	s.explainOnFailure(t, wfID)
	gone := s.runID(t, wfID)
	if err := s.c.TerminateWorkflow(s.ctx, wfID, gone, "the workflow is lost"); err != nil {
		t.Fatal(err)
	}
	start := workflows.OpportunityStart(id, "yep")
	start.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
	adopted, err := s.c.ExecuteWorkflow(s.ctx, start, workflows.Opportunity, workflows.OpportunityInput{ID: id, Brand: "yep", Adopt: true})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "the row adopted", func() bool { return s.state(t, id).Status != "" })
	if st := s.state(t, id); st.Status != opportunity.Analysis || st.OwnerUserID == "" || st.CreatedAt.IsZero() || st.Seq < 1 {
		t.Fatalf("adopted state %+v", st)
	}
	if err := s.decide(wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Adotado", Probability: 75}); err != nil {
		t.Fatal(err)
	}
	s.settleRunning(t, wfID, adopted.GetRunID())
	if status, _, register, _ := s.row(t, id); status != string(opportunity.Approved) || register == "" {
		t.Errorf("read model %s register %q", status, register)
	}
	if n := s.notices(t, id, "approved"); n != 1 {
		t.Errorf("approval notices %d", n)
	}
	recordPath(t, s, wfID, adopted.GetRunID(), recordedAdoption)
}

// --- Resale -------------------------------------------------------------------------

// signUp starts a company's onboarding with its sign-up, as the API does, and
// terminates it when the test ends.
func signUp(t *testing.T, s *stack, id, email, doc string) string {
	t.Helper()
	start := workflows.ResaleStart(id, "yep")
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL
	op := s.c.NewWithStartWorkflowOperation(start, workflows.Resale, workflows.ResaleInput{ID: id, Brand: "yep"})
	h, err := s.c.UpdateWithStartWorkflow(s.ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateName: workflows.UpdateRegister, WaitForStage: client.WorkflowUpdateStageCompleted,
			Args: []any{workflows.ResaleRegisterRequest{Registration: activities.ResaleRegistration{Email: email, Phone: "11987654321",
				ContactName: "Carla", CNPJ: doc, FantasyName: "Revenda", CorporateName: "Revenda Boa Ltda", Country: "Brasil"}}}}})
	if err == nil {
		err = h.Get(s.ctx, nil)
	}
	if err != nil {
		t.Fatalf("sign-up: %v", err)
	}
	terminateOnCleanup(t, s, workflows.ResaleWorkflowID(id))
	s.explainOnFailure(t, workflows.ResaleWorkflowID(id))
	return h.RunID()
}

func terminateOnCleanup(t *testing.T, s *stack, wfID string) {
	t.Cleanup(func() { _ = s.c.TerminateWorkflow(context.Background(), wfID, "", "test ended") })
}

func (s *stack) resaleStatus(t *testing.T, id string) (status, reason string) {
	t.Helper()
	if err := s.db.QueryRow(s.ctx, `SELECT status, reason FROM resales WHERE id = $1`, id).Scan(&status, &reason); err != nil {
		t.Fatal(err)
	}
	return
}

// TestRecordResaleRejection: a representative refuses a company's sign-up with
// a reason; the company is disapproved, gets no user, and the run completes.
func TestRecordResaleRejection(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
	_, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.ResaleWorkflowID(id)
	run := signUp(t, s, id, "recusada@revenda.com.br", "11222333000181")
	if err := s.decide(wfID, workflows.UpdateDisapprove, workflows.ResaleDisapproval{Actor: rep, Brand: "yep", Reason: " CNPJ sem atividade comercial "}); err != nil {
		t.Fatal(err)
	}
	st, err := result[workflows.ResaleState](t, s, wfID, run, 30*time.Second)
	if err != nil || st.Status != activities.ResaleDisapproved || st.UserID != "" {
		t.Fatalf("the run ended with %+v, %v", st, err)
	}
	s.closed(t, wfID, run, enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, time.Second)
	if status, reason := s.resaleStatus(t, id); status != activities.ResaleDisapproved || reason != "CNPJ sem atividade comercial" {
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
	s := newStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
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
	st, err := result[workflows.ResaleState](t, s, wfID, h.RunID(), 30*time.Second)
	if err != nil || st.Status != activities.ResaleApproved || st.UserID == "" {
		t.Fatalf("the run ended with %+v, %v", st, err)
	}
	s.closed(t, wfID, h.RunID(), enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, time.Second)
	if status, _ := s.resaleStatus(t, id); status != activities.ResaleApproved {
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
	if err := s.decide(wfID, workflows.UpdateApprove, workflows.ResaleApproval{Actor: rep, Brand: "yep"}); err != nil {
		t.Fatal(err)
	}
	st, err := result[workflows.ResaleState](t, s, wfID, second, 30*time.Second)
	if err != nil || st.Status != activities.ResaleApproved || st.Reminders < workflows.MaxRemindersPerRun {
		t.Fatalf("the second run ended with %+v, %v", st, err)
	}
	s.closed(t, wfID, second, enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, time.Second)
	if n := s.notices(t, "resale/"+id, activities.NoticeResaleReminder); n != st.Reminders {
		t.Errorf("%d reminder notices for %d reminders", n, st.Reminders)
	}
	// Only the second run is recorded: the first holds MaxRemindersPerRun
	// reminders (~650 events, ~460 KB of JSON), too large to keep in the repository.
	recordPath(t, s, wfID, second, recordedResaleSecondRun)
}

// --- Continue-as-new suggested by the server ------------------------------------------

// suggestContinueAsNewAt is the history length at which the dev server of
// newSuggestingStack suggests continuing as new (4096 events in production):
// a run of a few reminders reaches it, so its history stays small.
const suggestContinueAsNewAt = 40

// newSuggestingStack is newStack on a dev server of its own that suggests
// continue-as-new at suggestContinueAsNewAt events (the shared server must not:
// every other test's run would continue as new).
func newSuggestingStack(t *testing.T, d activities.Durations) *stack {
	t.Helper()
	c := testenv.TemporalClientWith(t, "--dynamic-config-value",
		fmt.Sprintf("limit.historyCount.suggestContinueAsNew=%d", suggestContinueAsNewAt))
	s := &stack{c: c, db: testenv.DB(t), ctx: testenv.Context(t)}
	s.brand, _ = brand.Parse([]byte(`[{"slug":"yep","name":"Yep"}]`))
	if _, err := seed.Run(s.ctx, s.db, s.brand, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	s.seller = actor(t, s.db, "vendedor1@yep.demo", auth.Seller)
	s.acts = &activities.Activities{DB: s.db, Brands: s.brand, CRM: crm.Local{DB: s.db}, Mailer: activities.LogMailer{}, Durations: d}
	wctx, stop := context.WithCancel(s.ctx)
	done := make(chan error, 1)
	go func() { done <- worker.Run(wctx, s.c, "default", s.acts) }()
	t.Cleanup(func() { stop(); <-done })
	return s
}

// TestRecordOpportunityContinuesAsNewWhenTheServerSuggestsIt: an opportunity
// whose history grows long in analysis (reminders) continues as new when the
// server suggests it, carrying its state; the next run keeps reminding and
// takes the approval.
func TestRecordOpportunityContinuesAsNewWhenTheServerSuggestsIt(t *testing.T) {
	s := newSuggestingStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: 200 * time.Millisecond, ExpiredRetention: time.Hour})
	_, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	s.register(t, id)
	s.explainOnFailure(t, wfID)
	first := s.runID(t, wfID)
	s.closed(t, wfID, first, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 30*time.Second)
	carried := s.state(t, id)
	if carried.Status != opportunity.Analysis || carried.Reminders == 0 || carried.Seq < 1 || carried.CreatedAt.IsZero() {
		t.Fatalf("the next run's state %+v", carried)
	}
	if err := s.decide(wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Longo", Probability: 50}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, s.db, id, opportunity.Approved, 10*time.Second)
	if n, st := s.notices(t, id, "approval-reminder"), s.state(t, id); n != st.Reminders || n < carried.Reminders {
		t.Errorf("%d reminder notices for %d reminders (%d carried)", n, st.Reminders, carried.Reminders)
	}
	recordPath(t, s, wfID, first, recordedSuggested)
}

// TestRecordResaleContinuesAsNewWhenTheServerSuggestsIt: the same for a
// company's onboarding (its other trigger, MaxRemindersPerRun, takes 100
// reminders: TestRecordResaleLongAnalysisContinuesAsNew).
func TestRecordResaleContinuesAsNewWhenTheServerSuggestsIt(t *testing.T) {
	s := newSuggestingStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: 200 * time.Millisecond, ExpiredRetention: time.Hour})
	_, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.ResaleWorkflowID(id)
	first := signUp(t, s, id, "sugerida@revenda.com.br", "11222333000181")
	s.closed(t, wfID, first, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 30*time.Second)
	if err := s.decide(wfID, workflows.UpdateApprove, workflows.ResaleApproval{Actor: rep, Brand: "yep"}); err != nil {
		t.Fatal(err)
	}
	var st workflows.ResaleState
	waitFor(t, 30*time.Second, "the approved company's run to end", func() bool {
		var err error
		st, err = result[workflows.ResaleState](t, s, wfID, "", 5*time.Second)
		return err == nil
	})
	if st.Status != activities.ResaleApproved || st.Reminders == 0 || st.UserID == "" {
		t.Fatalf("the last run ended with %+v", st)
	}
	if n := s.notices(t, "resale/"+id, activities.NoticeResaleReminder); n != st.Reminders {
		t.Errorf("%d reminder notices for %d reminders", n, st.Reminders)
	}
	recordPath(t, s, wfID, first, recordedResaleSuggested)
}
