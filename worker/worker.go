// Package worker runs the Temporal worker: it makes sure the namespace knows the
// project's search attributes, then polls the task queue.
package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"oportuna/activities"
	"oportuna/workflows"
)

// EnsureSearchAttributes registers, through the operator service, every custom
// search attribute the namespace does not have yet, so any Temporal server works.
// It returns the names it added.
func EnsureSearchAttributes(ctx context.Context, c client.Client, namespace string) ([]string, error) {
	ops := c.OperatorService()
	have, err := ops.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return nil, fmt.Errorf("worker: list search attributes: %w", err)
	}
	missing := &operatorservice.AddSearchAttributesRequest{Namespace: namespace, SearchAttributes: map[string]enums.IndexedValueType{}}
	var added []string
	for name, typ := range workflows.SearchAttributes() {
		if cur, ok := have.GetCustomAttributes()[name]; ok {
			if cur != typ {
				return nil, fmt.Errorf("worker: search attribute %s is %s, want %s", name, cur, typ)
			}
			continue
		}
		missing.SearchAttributes[name] = typ
		added = append(added, name)
	}
	if len(added) == 0 {
		return nil, nil
	}
	sort.Strings(added)
	if _, err := ops.AddSearchAttributes(ctx, missing); err != nil {
		// Another worker starting at the same time may have added them first.
		var exists *serviceerror.AlreadyExists
		if !errors.As(err, &exists) {
			return nil, fmt.Errorf("worker: add search attributes %v: %w", added, err)
		}
	}
	slog.InfoContext(ctx, "registered search attributes", "namespace", namespace, "names", added)
	return added, nil
}

// Run registers the workflows and activities and polls the task queue until ctx
// ends; running activities get the stop timeout to finish.
func Run(ctx context.Context, c client.Client, namespace string, acts *activities.Activities) error {
	if _, err := EnsureSearchAttributes(ctx, c, namespace); err != nil {
		return err
	}
	w := sdkworker.New(c, workflows.TaskQueue, sdkworker.Options{WorkerStopTimeout: 30 * time.Second})
	workflows.Register(w)
	w.RegisterActivity(acts)
	if err := w.Start(); err != nil {
		return fmt.Errorf("worker: start: %w", err)
	}
	slog.InfoContext(ctx, "worker polling", "task_queue", workflows.TaskQueue, "namespace", namespace)
	<-ctx.Done()
	w.Stop()
	return nil
}
