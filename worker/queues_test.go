package worker

import (
	"context"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"

	"oportuna/activities"
	"oportuna/internal/testenv"
	"oportuna/workflows"
)

// TestSettingsReachTheWorkerOptions: the CRM and mail queues carry their rate
// limits and slots, the workflow queue's activity and local-activity slots
// are the database slots, and every queue's pollers autoscale.
func TestSettingsReachTheWorkerOptions(t *testing.T) {
	s := Settings{DBSlots: 7, CRMPerSecond: 3.5, CRMSlots: 5, MailPerSecond: 2, MailSlots: 3, MaxPollers: 9}.withDefaults(nil)
	wf, crm, mail := s.Options(QueueWorkflows, nil), s.Options(QueueCRM, nil), s.Options(QueueMail, nil)
	if wf.MaxConcurrentActivityExecutionSize != 7 || wf.MaxConcurrentLocalActivityExecutionSize != 7 || wf.TaskQueueActivitiesPerSecond != 0 {
		t.Errorf("workflow queue: %d activity and %d local slots, %v/s; want 7, 7, unlimited",
			wf.MaxConcurrentActivityExecutionSize, wf.MaxConcurrentLocalActivityExecutionSize, wf.TaskQueueActivitiesPerSecond)
	}
	if crm.TaskQueueActivitiesPerSecond != 3.5 || crm.MaxConcurrentActivityExecutionSize != 5 {
		t.Errorf("CRM queue: %v/s, %d slots; want 3.5/s, 5", crm.TaskQueueActivitiesPerSecond, crm.MaxConcurrentActivityExecutionSize)
	}
	if mail.TaskQueueActivitiesPerSecond != 2 || mail.MaxConcurrentActivityExecutionSize != 3 {
		t.Errorf("mail queue: %v/s, %d slots; want 2/s, 3", mail.TaskQueueActivitiesPerSecond, mail.MaxConcurrentActivityExecutionSize)
	}
	if wf.WorkflowTaskPollerBehavior == nil || wf.ActivityTaskPollerBehavior == nil || crm.ActivityTaskPollerBehavior == nil || mail.ActivityTaskPollerBehavior == nil {
		t.Error("a queue without autoscaling pollers")
	}
	if d := (Settings{}).withDefaults(nil); d.CRMPerSecond != DefaultCRMPerSecond || d.MailPerSecond != DefaultMailPerSecond || d.DBSlots != 4 ||
		len(d.Queues) != 3 {
		t.Errorf("defaults %+v", d)
	}
}

// TestWorkerPollsEachQueueWithItsRateLimit runs the worker on the dev server
// and asks the server about each queue: all three are polled, and the CRM and
// mail queues' dispatch rate is the one the settings gave (set by the worker).
// A process polling only the CRM queue (WORKER_QUEUES=crm) leaves the others alone.
func TestWorkerPollsEachQueueWithItsRateLimit(t *testing.T) {
	// A dev server of its own: TestWorkerRegistersMissingSearchAttributesOnce
	// needs the shared one without the search attributes a worker registers.
	c := testenv.TemporalClientWith(t, "--dynamic-config-value", "limit.historyCount.suggestContinueAsNew=10240")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	describe := func(queue string, kind enumspb.TaskQueueType) *workflowservice.DescribeTaskQueueResponse {
		r, err := c.WorkflowService().DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{Namespace: "default",
			TaskQueue: &taskqueuepb.TaskQueue{Name: queue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL}, TaskQueueType: kind, ReportConfig: true})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	rate := func(queue string) float32 {
		return describe(queue, enumspb.TASK_QUEUE_TYPE_ACTIVITY).GetEffectiveRateLimit().GetRequestsPerSecond()
	}
	polled := func(queue string, kind enumspb.TaskQueueType) bool {
		return len(describe(queue, kind).GetPollers()) > 0
	}

	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- RunWithSettings(wctx, c, "default", &activities.Activities{}, nil, Settings{CRMPerSecond: 3, MailPerSecond: 2})
	}()
	testenv.WaitFor(t, 30*time.Second, "the three queues to be polled", func() bool {
		return polled(workflows.TaskQueue, enumspb.TASK_QUEUE_TYPE_WORKFLOW) && polled(workflows.TaskQueue, enumspb.TASK_QUEUE_TYPE_ACTIVITY) &&
			polled(workflows.CRMTaskQueue, enumspb.TASK_QUEUE_TYPE_ACTIVITY) && polled(workflows.MailTaskQueue, enumspb.TASK_QUEUE_TYPE_ACTIVITY)
	})
	testenv.WaitFor(t, 30*time.Second, "the CRM and mail queues' rate limits", func() bool {
		return rate(workflows.CRMTaskQueue) == 3 && rate(workflows.MailTaskQueue) == 2
	})
	if src := describe(workflows.CRMTaskQueue, enumspb.TASK_QUEUE_TYPE_ACTIVITY).GetEffectiveRateLimit().GetRateLimitSource(); src != enumspb.RATE_LIMIT_SOURCE_WORKER {
		t.Errorf("the CRM queue's rate limit comes from %v, want the worker", src)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// A CRM-only process: its queue's rate changes, nobody polls the others' queues on its behalf.
	wctx, stop = context.WithCancel(ctx)
	go func() {
		done <- RunWithSettings(wctx, c, "default", &activities.Activities{}, nil, Settings{Queues: []string{QueueCRM}, CRMPerSecond: 5})
	}()
	testenv.WaitFor(t, 30*time.Second, "the CRM-only worker's rate limit", func() bool { return rate(workflows.CRMTaskQueue) == 5 })
	if names := (Settings{Queues: []string{QueueCRM}}).queueNames(workflows.TaskQueue); len(names) != 1 || names[0] != workflows.CRMTaskQueue {
		t.Errorf("a CRM-only worker polls %v", names)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
