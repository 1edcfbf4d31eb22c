package main

import (
	"context"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"oportuna/worker"
)

// The bare engine: a workflow whose update runs one no-op activity, on a task
// queue of its own, with its worker in this process. Update-with-Start of it
// is what a registration costs the engine, an Update of a running one what a
// decision costs it.
const (
	engineWorkflowName = "LoadtestEngine"
	engineActivityName = "LoadtestNoOp"
	engineUpdate       = "step"
	engineStop         = "stop"
	// engineLife ends an engine workflow nobody stopped (a load test against
	// a running stack that was interrupted).
	engineLife = 30 * time.Minute
)

func engineWorkflow(ctx workflow.Context) error {
	if err := workflow.SetUpdateHandler(ctx, engineUpdate, func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 30 * time.Second})
		return workflow.ExecuteActivity(ctx, engineActivityName).Get(ctx, nil)
	}); err != nil {
		return err
	}
	stop := false
	workflow.Go(ctx, func(ctx workflow.Context) {
		workflow.GetSignalChannel(ctx, engineStop).Receive(ctx, nil)
		stop = true
	})
	if _, err := workflow.AwaitWithTimeout(ctx, engineLife, func() bool { return stop }); err != nil {
		return err
	}
	return workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) })
}

func engineNoOp(context.Context) error { return nil }

// engine runs the bare-engine calls on tc.
type engine struct {
	tc    client.Client
	queue string
	w     sdkworker.Worker
}

// startEngine runs the engine's worker with the pollers of the portal's
// worker (autoscaling up to worker.DefaultMaxPollers), so that the two differ
// only in what the portal adds: with the SDK's 2 fixed pollers on a server
// whose task queues have 4 partitions (the cluster's default; the tuned dev
// server has 1), tasks wait in partitions without a poller until forwarded.
func startEngine(tc client.Client, queue string) (*engine, error) {
	w := sdkworker.New(tc, queue, worker.Settings{MaxPollers: worker.DefaultMaxPollers}.Options(worker.QueueWorkflows, nil))
	w.RegisterWorkflowWithOptions(engineWorkflow, workflow.RegisterOptions{Name: engineWorkflowName})
	w.RegisterActivityWithOptions(engineNoOp, activity.RegisterOptions{Name: engineActivityName})
	if err := w.Start(); err != nil {
		return nil, fmt.Errorf("engine worker: %w", err)
	}
	return &engine{tc: tc, queue: queue, w: w}, nil
}

func (e *engine) stop() { e.w.Stop() }

// updateWithStart starts workflow id with its first update, as a registration does.
func (e *engine) updateWithStart(ctx context.Context, id string) error {
	op := e.tc.NewWithStartWorkflowOperation(client.StartWorkflowOptions{
		ID: id, TaskQueue: e.queue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, engineWorkflowName)
	h, err := e.tc.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateID: "register", UpdateName: engineUpdate,
			WaitForStage: client.WorkflowUpdateStageCompleted},
	})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err != nil {
		return fmt.Errorf("update-with-start %s: %w", id, err)
	}
	return nil
}

// update sends a second update to the running workflow id, as a decision does.
func (e *engine) update(ctx context.Context, id string) error {
	h, err := e.tc.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, UpdateID: "decide", UpdateName: engineUpdate,
		WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err != nil {
		return fmt.Errorf("update %s: %w", id, err)
	}
	return nil
}

// finish signals the workflows ids to end (on a shared server).
func (e *engine) finish(ctx context.Context, ids []string) {
	for _, id := range ids {
		_ = e.tc.SignalWorkflow(ctx, id, "", engineStop, nil)
	}
}
