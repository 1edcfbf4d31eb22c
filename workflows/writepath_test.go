package workflows_test

import (
	"context"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"oportuna/internal/testenv"
	"oportuna/workflows"
)

// TestRecordWritePathRegistrationAndApproval: the write path (docs/operations.md,
// "Task queues"): a run stores the registration and a
// decision its caller waits for with local activities inside
// its workflow tasks (no activity task for Register or Apply), writes the
// approval to the CRM the same way (no activity task for SyncCRM: background
// syncs keep the CRM queue) and sends notices on the mail queue; a
// registration takes one workflow task, and so does an approval.
func TestRecordWritePathRegistrationAndApproval(t *testing.T) {
	s := newStack(t, hourly, nil)
	_, rep := people(t, s)
	id, wfID, run := s.registered(t)
	testenv.WaitFor(t, 10*time.Second, "the registration notice", func() bool { return s.notices(t, id, "registered") == 1 })
	approve := workflows.ApproveRequest{Actor: rep, Name: "Projeto Rápido", Probability: 50, Deadline: time.Now().Add(workflows.DecisionWait - 5*time.Second)}
	s.decided(t, wfID, workflows.UpdateApprove, approve)
	// The update answered: the decision is in the read model already.
	s.approvedWithRecord(t, id, "read model after the approval")
	testenv.WaitFor(t, 10*time.Second, "the approval notice", func() bool { return s.notices(t, id, "approved") == 1 })
	s.settleRunning(t, wfID, run)

	evs := s.history(t, wfID, run)
	queues := map[string]string{} // activity type → task queue
	var markers []string
	var updates []int // event indexes of updates accepted and completed
	for i, ev := range evs {
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			a := ev.GetActivityTaskScheduledEventAttributes()
			queues[a.GetActivityType().GetName()] = a.GetTaskQueue().GetName()
		case enumspb.EVENT_TYPE_MARKER_RECORDED:
			markers = append(markers, ev.GetMarkerRecordedEventAttributes().GetMarkerName())
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED:
			updates = append(updates, i)
		}
	}
	for _, local := range []string{"Register", "Apply", "SyncCRM"} {
		if q, ok := queues[local]; ok {
			t.Errorf("%s ran as an activity task on %s, want a local activity", local, q)
		}
	}
	if q := queues["Notify"]; q != workflows.MailTaskQueue {
		t.Errorf("Notify scheduled on %q, want %s", q, workflows.MailTaskQueue)
	}
	if len(updates) != 4 {
		t.Fatalf("updates accepted/completed at events %v, want the registration's and the approval's", updates)
	}
	// Workflow tasks between each update's acceptance and its completion.
	tasks := func(from, to int) int {
		n := 0
		for _, ev := range evs[from:to] {
			if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
				n++
			}
		}
		return n
	}
	if n := tasks(updates[0], updates[1]); n != 0 {
		t.Errorf("the registration completed %d workflow tasks after its acceptance, want 0 (one task for all)", n)
	}
	if n := tasks(updates[2], updates[3]); n != 0 {
		t.Errorf("the approval completed %d workflow tasks after its acceptance, want 0 (CRM write, record and answer in one task)", n)
	}
	t.Logf("markers %v, activity queues %v", markers, queues)
	recordPath(t, s, wfID, run, recordedWritePath)
}

// history reads a run's events.
func (s *stack) history(t *testing.T, wfID, runID string) []*historypb.HistoryEvent {
	t.Helper()
	var evs []*historypb.HistoryEvent
	it := s.c.GetWorkflowHistory(context.Background(), wfID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	return evs
}
