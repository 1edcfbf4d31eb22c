package testenv

import (
	"context"
	"errors"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
)

// TestNoWorkflowOutlivesItsTest: workflows a test starts, with no worker to
// end them, are terminated when it ends, whether started by its client
// (ExecuteWorkflow, an Update-with-Start whose update never ran, a schedule's)
// or by another process on the test's server; the schedule is deleted. So the
// next test's worker, on the same task queue with another database, never runs
// them.
func TestNoWorkflowOutlivesItsTest(t *testing.T) {
	const queue = "testenv-isolation" // no worker polls it
	ids := map[string]string{}
	var schedule string
	t.Run("leaves workflows running", func(t *testing.T) {
		ctx := Context(t)
		c := TemporalClient(t)
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: randomName("execute-"), TaskQueue: queue}, "Nothing")
		if err != nil {
			t.Fatal(err)
		}
		ids["ExecuteWorkflow"] = run.GetID()

		uws := randomName("update-with-start-")
		op := c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{ID: uws, TaskQueue: queue,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}, "Nothing")
		uctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, _ = c.UpdateWithStartWorkflow(uctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
			UpdateOptions: client.UpdateWorkflowOptions{UpdateName: "never", WaitForStage: client.WorkflowUpdateStageCompleted}})
		cancel()
		ids["UpdateWithStart"] = uws

		schedule = randomName("schedule-")
		if _, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{ID: schedule, Spec: client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour}}},
			Action: &client.ScheduleWorkflowAction{ID: schedule + "-run", Workflow: "Nothing", TaskQueue: queue}, TriggerImmediately: true}); err != nil {
			t.Fatal(err)
		}
		h := c.ScheduleClient().GetHandle(ctx, schedule)
		for deadline := time.Now().Add(10 * time.Second); ids["schedule"] == ""; time.Sleep(50 * time.Millisecond) {
			if d, err := h.Describe(ctx); err == nil && len(d.Info.RunningWorkflows) > 0 {
				ids["schedule"] = d.Info.RunningWorkflows[0].WorkflowID
			} else if time.Now().After(deadline) {
				t.Fatalf("the schedule started nothing: %v", err)
			}
		}

		// Another process's client (the portal's binary) on the test's server.
		other, err := client.Dial(client.Options{HostPort: TemporalAddress(t), Namespace: "default", Logger: quietLogger()})
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		run, err = other.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: randomName("other-process-"), TaskQueue: queue}, "Nothing")
		if err != nil {
			t.Fatal(err)
		}
		ids["another process"] = run.GetID()
		for how, id := range ids {
			waitStatus(t, c, how, id, enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING)
		}
	})
	c := TemporalClient(t)
	for how, id := range ids {
		d, err := c.DescribeWorkflowExecution(t.Context(), id, "")
		if err != nil {
			t.Errorf("%s: %v", how, err)
		} else if st := d.GetWorkflowExecutionInfo().GetStatus(); st != enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED {
			t.Errorf("%s: the workflow is %v after its test ended, want terminated", how, st)
		}
	}
	var notFound *serviceerror.NotFound
	if _, err := c.ScheduleClient().GetHandle(t.Context(), schedule).Describe(t.Context()); !errors.As(err, &notFound) {
		t.Errorf("the schedule outlived its test: %v", err)
	}
}

// waitStatus waits (up to 10 s) until the workflow has status st.
func waitStatus(t *testing.T, c client.Client, how, id string, st enumspb.WorkflowExecutionStatus) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		d, err := c.DescribeWorkflowExecution(t.Context(), id, "")
		if err == nil && d.GetWorkflowExecutionInfo().GetStatus() == st {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: workflow %s not %v (%v)", how, id, st, err)
		}
	}
}
