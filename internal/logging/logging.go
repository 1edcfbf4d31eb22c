// Package logging builds the process logger: JSON lines on stderr (log/slog)
// where every line logged with a request's context carries its request_id, and
// every line of a workflow or an activity its workflow_id and run_id, and
// every line logged under a traced context its trace_id (internal/tracing).
//
//   - HTTP handlers: slog.InfoContext(r.Context(), …) — request_id comes from
//     chi's middleware.RequestID.
//   - Activities: activity.GetLogger(ctx) (the SDK adds the ids), or
//     slog.InfoContext(ctx, …) with the activity's ctx — this handler adds
//     workflow_id, run_id, activity_type and attempt.
//   - Workflows: workflow.GetLogger(ctx) only (replay-safe: silent while
//     replaying); the SDK adds WorkflowID and RunID, renamed here to workflow_id
//     and run_id so one field name finds a workflow's lines everywhere.
//
// Give the Temporal client the same logger: client.Options{Logger: Temporal(l)}.
package logging

import (
	"context"
	"io"
	"log/slog"

	"github.com/go-chi/chi/v5/middleware"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/activity"
	tlog "go.temporal.io/sdk/log"
)

// Field names shared by every line.
const (
	RequestID    = "request_id"
	WorkflowID   = "workflow_id"
	RunID        = "run_id"
	WorkflowType = "workflow_type"
	ActivityType = "activity_type"
	Attempt      = "attempt"
	TraceID      = "trace_id"
)

// sdkKeys renames the Temporal SDK's logging tags to the project's field names.
var sdkKeys = map[string]string{
	"WorkflowID":   WorkflowID,
	"RunID":        RunID,
	"WorkflowType": WorkflowType,
	"ActivityType": ActivityType,
	"ActivityID":   "activity_id",
	"Attempt":      Attempt,
	"Namespace":    "namespace",
	"TaskQueue":    "task_queue",
	"UpdateID":     "update_id",
	"UpdateName":   "update_name",
	"Error":        "err",
	"TraceID":      TraceID, // the tracing interceptor's (internal/tracing)
	"SpanID":       "span_id",
}

// New returns a JSON logger at level writing to w.
func New(w io.Writer, level slog.Leveler) *slog.Logger {
	return slog.New(Wrap(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: RenameSDKKeys})))
}

// RenameSDKKeys is a slog ReplaceAttr that renames the Temporal SDK's tags
// (WorkflowID → workflow_id, …).
func RenameSDKKeys(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 {
		if k, ok := sdkKeys[a.Key]; ok {
			a.Key = k
		}
	}
	return a
}

// Temporal adapts l for client.Options.Logger.
func Temporal(l *slog.Logger) tlog.Logger { return tlog.NewStructuredLogger(l) }

// Wrap returns a handler that adds the ids found in a record's context.
func Wrap(h slog.Handler) slog.Handler { return contextHandler{h} }

type contextHandler struct{ slog.Handler }

func (h contextHandler) Handle(ctx context.Context, r slog.Record) error {
	if ctx == nil {
		return h.Handler.Handle(ctx, r)
	}
	have := map[string]bool{}
	r.Attrs(func(a slog.Attr) bool {
		have[a.Key] = true
		return true
	})
	add := func(k string, v any) {
		if !have[k] {
			r.AddAttrs(slog.Any(k, v))
			have[k] = true
		}
	}
	if id := middleware.GetReqID(ctx); id != "" {
		add(RequestID, id)
	}
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		add(TraceID, sc.TraceID().String())
	}
	if activity.IsActivity(ctx) {
		info := activity.GetInfo(ctx)
		add(WorkflowID, info.WorkflowExecution.ID)
		add(RunID, info.WorkflowExecution.RunID)
		add(ActivityType, info.ActivityType.Name)
		add(Attempt, info.Attempt)
	}
	return h.Handler.Handle(ctx, r)
}

func (h contextHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return contextHandler{h.Handler.WithAttrs(attrs)}
}

func (h contextHandler) WithGroup(name string) slog.Handler {
	return contextHandler{h.Handler.WithGroup(name)}
}
