package workflows_test

// Replay coverage of every path. Each TestRecord… test (record_*_test.go)
// drives a real workflow on the dev server with a seeded database, a worker
// and durations of seconds, checks the path's outcome (read model, notices,
// how the run ended) and, with OPORTUNA_RECORD_HISTORIES=1, writes the run's
// history where TestRecordedHistoriesReplay (replay_test.go) replays it with
// the current code (docs/opportunity-lifecycle.md, "Changing the workflow
// safely", lists every recording and its test).
//
// The histories are kept small (few events, short durations): a recorded run
// still going ends on a completed workflow task (settle), and every test
// terminates its workflows when it ends, since all tests share the dev
// server's task queue.

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/internal/calendar"
	"oportuna/internal/dev/localcrm"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/resale"
	"oportuna/workflows"
)

// Where each path's history is recorded (relative to workflows/).
const (
	recordedApprovalReminders = "testdata/histories/approval-reminders.json"
	recordedDisapproval       = "testdata/histories/disapproved.json"
	recordedEdits             = "testdata/histories/edits.json"
	recordedWritePath         = "testdata/histories/approved-in-one-task.json"
	recordedCRMRefusedApprove = "testdata/histories/crm-refused-approval.json"
	recordedCancellation      = "testdata/histories/operator-cancelled.json"
	recordedAdoption          = "testdata/histories/adopted-approved.json"
	recordedSuggested         = "testdata/histories/continued-as-new-suggested.json"
	recordedExpiryInAnalysis  = "testdata/histories/expired-in-analysis-renewed.json"
	recordedCRMRefusedRenewal = "testdata/histories/crm-refused-renewal-approval.json"
	recordedSecondRun         = "testdata/histories/second-run-expired.json"
	recordedRenewalReminders  = "testdata/histories/renewal-reminders-refused.json"
	recordedResaleRejected    = "testdata/resale/rejected.json"
	recordedResaleAdopted     = "testdata/resale/adopted-approved.json"
	recordedResaleSecondRun   = "testdata/resale/continued-as-new-second-run-approved.json"
	recordedResaleSuggested   = "testdata/resale/continued-as-new-suggested.json"
)

// recordPath writes a run's history with OPORTUNA_RECORD_HISTORIES=1.
func recordPath(t *testing.T, s *stack, wfID, runID, path string) {
	t.Helper()
	workflows.RecordHistory(t, s.c, wfID, runID, path)
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

// decided is decide failing the test when the update fails.
func (s *stack) decided(t *testing.T, wfID, name string, arg any) {
	t.Helper()
	if err := s.decide(wfID, name, arg); err != nil {
		t.Fatal(err)
	}
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
	testenv.WaitFor(t, within, "the run to end as "+want.String(), func() bool {
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
	testenv.WaitFor(t, 30*time.Second, "the run to settle", func() bool {
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

// sentOnce checks that exactly one notice of a kind went out about an opportunity.
func (s *stack) sentOnce(t *testing.T, id, kind string) {
	t.Helper()
	if n := s.notices(t, id, kind); n != 1 {
		t.Errorf("%s notices: %d, want 1", kind, n)
	}
}

// approvedWithRecord checks that the read model has the opportunity approved,
// with its CRM record; when says at which point of the test.
func (s *stack) approvedWithRecord(t *testing.T, id, when string) {
	t.Helper()
	if status, _, register, _ := s.row(t, id); status != string(opportunity.Approved) || register == "" {
		t.Errorf("%s: %s register %q, want approved with a CRM record", when, status, register)
	}
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

// completed waits for a run's result, checks it with ok and that the run
// completed, and answers the result.
func completed[T any](t *testing.T, s *stack, wfID, runID string, within time.Duration, ok func(T) bool) T {
	t.Helper()
	st, err := result[T](t, s, wfID, runID, within)
	if err != nil || !ok(st) {
		t.Fatalf("the run ended with %+v, %v", st, err)
	}
	s.closed(t, wfID, runID, enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, time.Second)
	return st
}

func errType(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Type()
	}
	return ""
}

// renewalBy is a renewal request of the seed's seller.
func renewalBy(seller opportunity.Actor) workflows.RenewalRequest {
	return workflows.RenewalRequest{Actor: seller, Renewal: opportunity.RenewalRequest{Reason: "Cliente retomou o projeto",
		ProbabilityClosing: 75, ProjectStillInScope: "Sim", LastVisitDate: calendar.ISO(time.Now())}}
}

// people are the seed's seller (who registers) and representative (who decides).
func people(t *testing.T, s *stack) (seller, rep opportunity.Actor) {
	return actor(t, s.db, "vendedor1@yep.demo", auth.Seller), actor(t, s.db, "representante@yep.demo", auth.Representative)
}

// signUp starts a company's onboarding with its sign-up, as the API does, and
// terminates it when the test ends.
func signUp(t *testing.T, s *stack, id, email, doc string) string {
	t.Helper()
	start := workflows.ResaleStart(id, "yep")
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL
	op := s.c.NewWithStartWorkflowOperation(start, workflows.Resale, workflows.ResaleInput{ID: id, Brand: "yep"})
	h, err := s.c.UpdateWithStartWorkflow(s.ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateName: workflows.UpdateRegister, WaitForStage: client.WorkflowUpdateStageCompleted,
			Args: []any{workflows.ResaleRegisterRequest{Registration: resale.Registration{Email: email, Phone: "11987654321",
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
	db := testenv.DB(t)
	return startStack(t, c, "default", db, d, nil, localcrm.CRM{DB: db})
}

// TestRecordOpportunityContinuesAsNewWhenTheServerSuggestsIt: an opportunity
// whose history grows long in analysis (reminders) continues as new when the
// server suggests it, carrying its state; the next run keeps reminding and
// takes the approval.
