package testenv

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
)

// Isolation of the tests' workflows. The tests of a package share one Temporal
// server and the task queues the product names (workflows.TaskQueue), while
// each test has a database of its own: a workflow a test leaves running would
// have its next tasks taken by the next test's worker and write into that
// test's database. So no workflow outlives its test:
//
//   - every client of TemporalClient, PlainTemporalClient and TemporalClientWith
//     records the workflows it starts (ExecuteWorkflow, SignalWithStart,
//     UpdateWithStart) and the schedules it creates, and when the test ends
//     terminates those still running (the current run: one that continued as
//     new is ended too; child workflows end with their parent) and deletes the
//     schedules with the workflows they started. This asks nothing of the
//     server but Terminate and schedule calls, so it holds on any Temporal
//     server (the dev server, a cluster), needs no namespace or task queue per
//     test, and leaves alone the workflows of other test binaries that share
//     the server;
//   - on a dev server this binary started (no other binary's tests run on it),
//     every workflow started since the test first asked for the server or a
//     client is also terminated when the test ends (a visibility query): this
//     covers the workflows started by another process (tests that run the
//     portal's binary with TemporalAddress) and a start whose call failed
//     before the server answered. Tests of one binary run one at a time.
//
// Tests on "default" do not call t.Parallel: two tests at once would share
// the task queues while both run. A test with a namespace of its own
// (ParallelTemporalClient) shares nothing and runs beside the others.

// startRecorder is the client interceptor that records what a client starts.
type startRecorder struct {
	interceptor.ClientInterceptorBase
	mu        sync.Mutex
	workflows map[string]bool
	schedules map[string]bool
}

func newStartRecorder() *startRecorder {
	return &startRecorder{workflows: map[string]bool{}, schedules: map[string]bool{}}
}

func (r *startRecorder) InterceptClient(next interceptor.ClientOutboundInterceptor) interceptor.ClientOutboundInterceptor {
	return &recordStarts{ClientOutboundInterceptorBase: interceptor.ClientOutboundInterceptorBase{Next: next}, r: r}
}

func (r *startRecorder) add(set map[string]bool, id string) {
	if id == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	set[id] = true
}

type recordStarts struct {
	interceptor.ClientOutboundInterceptorBase
	r *startRecorder
}

func (o *recordStarts) ExecuteWorkflow(ctx context.Context, in *interceptor.ClientExecuteWorkflowInput) (client.WorkflowRun, error) {
	run, err := o.Next.ExecuteWorkflow(ctx, in)
	if run != nil {
		o.r.add(o.r.workflows, run.GetID())
	}
	return run, err
}

func (o *recordStarts) SignalWithStartWorkflow(ctx context.Context, in *interceptor.ClientSignalWithStartWorkflowInput) (client.WorkflowRun, error) {
	run, err := o.Next.SignalWithStartWorkflow(ctx, in)
	if run != nil {
		o.r.add(o.r.workflows, run.GetID())
	}
	return run, err
}

func (o *recordStarts) UpdateWithStartWorkflow(ctx context.Context, in *interceptor.ClientUpdateWithStartWorkflowInput) (client.WorkflowUpdateHandle, error) {
	h, err := o.Next.UpdateWithStartWorkflow(ctx, in)
	if h != nil {
		o.r.add(o.r.workflows, h.WorkflowID())
		return h, err
	}
	// The start may have happened though the call failed: the operation's
	// run is set by then (or never, when the call was refused before it was
	// sent).
	sctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if run, serr := in.StartWorkflowOperation.Get(sctx); serr == nil && run != nil {
		o.r.add(o.r.workflows, run.GetID())
	}
	return h, err
}

func (o *recordStarts) CreateSchedule(ctx context.Context, in *interceptor.ScheduleClientCreateInput) (client.ScheduleHandle, error) {
	h, err := o.Next.CreateSchedule(ctx, in)
	if in.Options != nil {
		o.r.add(o.r.schedules, in.Options.ID)
	}
	return h, err
}

// endAll deletes the recorded schedules and terminates the recorded workflows
// (and those the schedules started) still running.
func (r *startRecorder) endAll(t testing.TB, c client.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r.mu.Lock()
	defer r.mu.Unlock()
	for id := range r.schedules {
		h := c.ScheduleClient().GetHandle(ctx, id)
		if d, err := h.Describe(ctx); err == nil {
			for _, w := range d.Info.RunningWorkflows {
				r.workflows[w.WorkflowID] = true
			}
		}
		if err := h.Delete(ctx); err != nil && !isGone(err) {
			t.Errorf("testenv: delete schedule %s: %v", id, err)
		}
	}
	for id := range r.workflows {
		if err := c.TerminateWorkflow(ctx, id, "", "testenv: the test ended"); err != nil && !isGone(err) {
			t.Errorf("testenv: terminate %s: %v", id, err)
		}
	}
}

// isGone: the workflow already closed, or the schedule is gone.
func isGone(err error) bool {
	var notFound *serviceerror.NotFound
	return errors.As(err, &notFound)
}

var swept sync.Map // test and address → a sweep is registered

// sweepOwnServer terminates, when the test ends, every workflow started on
// addr since now, if addr is a dev server this binary started (no other
// binary's tests run on it).
func sweepOwnServer(t testing.TB, addr string) {
	if !ownServer(addr) {
		return
	}
	type key struct {
		t    testing.TB
		addr string
	}
	if _, done := swept.LoadOrStore(key{t, addr}, true); done {
		return
	}
	since := time.Now().Add(-time.Second) // the server's clock is this machine's
	t.Cleanup(func() {
		swept.Delete(key{t, addr})
		c, err := client.Dial(client.Options{HostPort: addr, Namespace: "default", Logger: quietLogger()})
		if err != nil {
			t.Errorf("testenv: sweep: %v", err)
			return
		}
		defer c.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		query := fmt.Sprintf("ExecutionStatus = 'Running' AND StartTime >= '%s'", since.UTC().Format(time.RFC3339Nano))
		var token []byte
		for {
			res, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Namespace: "default", Query: query, NextPageToken: token})
			if err != nil {
				t.Errorf("testenv: sweep: %v", err)
				return
			}
			for _, e := range res.GetExecutions() {
				id := e.GetExecution().GetWorkflowId()
				if err := c.TerminateWorkflow(ctx, id, "", "testenv: the test ended"); err != nil && !isGone(err) {
					t.Errorf("testenv: terminate %s: %v", id, err)
				}
			}
			if token = res.GetNextPageToken(); len(token) == 0 {
				return
			}
		}
	})
}
