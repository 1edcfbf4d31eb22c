// Package worker runs the Temporal worker: it makes sure the namespace knows the
// project's search attributes, then polls the task queue.
package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"oportuna/activities"
	"oportuna/internal/health"
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
	// A dev server uses them at once; a cluster's history service caches a
	// namespace's attributes for up to a minute, and workflow tasks that set
	// one fail (and are retried) until then: production registers them in
	// its setup job before the workers start (docs/operations.md).
	slog.WarnContext(ctx, "registered search attributes; a Temporal cluster may take a minute to use them", "namespace", namespace, "names", added)
	return added, nil
}

// StopTimeout is how long running activities get to finish once the worker
// stops polling (SIGTERM); compose's stop_grace_period of the worker covers it.
const StopTimeout = 30 * time.Second

// Status is the worker's part of readiness: not ready until the worker polls
// the task queue, and not ready again once it stopped, for a fatal error (e.g.
// the namespace deleted) or a shutdown.
type Status struct {
	polling atomic.Bool
	fatal   atomic.Pointer[error]
}

// ErrNotPolling is the readiness error before the worker started polling and after it stopped.
var ErrNotPolling = errors.New("worker: not polling the task queue")

// Check answers nil while the worker polls.
func (s *Status) Check(context.Context) error {
	if err := s.fatal.Load(); err != nil {
		return *err
	}
	if !s.polling.Load() {
		return ErrNotPolling
	}
	return nil
}

// Dependency is the "worker" readiness check (health.New).
func (s *Status) Dependency() health.Dependency {
	return health.Dependency{Name: "worker", Check: s.Check}
}

// Run registers the workflows and activities and polls the task queues until
// ctx ends (it then returns nil); running activities get StopTimeout to finish.
// A fatal error of the SDK (the namespace gone, a rejected client) stops the
// workers and Run returns it, so the process exits non-zero and is restarted.
func Run(ctx context.Context, c client.Client, namespace string, acts *activities.Activities) error {
	return RunWithStatus(ctx, c, namespace, acts, nil)
}

// RunWithStatus is Run reporting to st (nil: nowhere) whether the worker polls.
func RunWithStatus(ctx context.Context, c client.Client, namespace string, acts *activities.Activities, st *Status) error {
	return RunWithSettings(ctx, c, namespace, acts, st, Settings{})
}

// RunWithSettings is RunWithStatus with the queues, rate limits and slots of s
// (zero fields: the defaults, DefaultSettings).
func RunWithSettings(ctx context.Context, c client.Client, namespace string, acts *activities.Activities, st *Status, s Settings) error {
	if st == nil {
		st = &Status{}
	}
	if _, err := EnsureSearchAttributes(ctx, c, namespace); err != nil {
		if ctx.Err() != nil {
			// Stopped before it polled (e.g. `oportuna seed` with nothing to
			// seed, on a server slow to answer): a stop, not a failure.
			return nil
		}
		return err
	}
	s = s.withDefaults(acts)
	fatal := make(chan error, 1)
	onFatal := func(err error) { // called once per worker, on its own goroutine; the SDK stops that worker
		st.polling.Store(false)
		st.fatal.CompareAndSwap(nil, &err)
		select {
		case fatal <- err:
		default:
		}
	}
	workers := New(c, workflows.TaskQueue, acts, s, onFatal)
	for i, w := range workers {
		if err := w.Start(); err != nil {
			for _, started := range workers[:i] {
				started.Stop()
			}
			return fmt.Errorf("worker: start: %w", err)
		}
	}
	st.polling.Store(true)
	slog.InfoContext(ctx, "worker polling", "task_queues", s.queueNames(workflows.TaskQueue), "namespace", namespace,
		"db_slots", s.DBSlots, "crm_per_second", s.CRMPerSecond, "mail_per_second", s.MailPerSecond)
	stop := func() {
		var wg sync.WaitGroup
		for _, w := range workers {
			wg.Add(1)
			go func() { defer wg.Done(); w.Stop() }()
		}
		wg.Wait()
	}
	select {
	case <-ctx.Done():
		st.polling.Store(false)
		stop()
		return nil
	case err := <-fatal:
		slog.ErrorContext(ctx, "worker stopped: fatal error", "task_queue", workflows.TaskQueue, "namespace", namespace, "err", err)
		stop()
		return fmt.Errorf("worker: fatal: %w", err)
	}
}
