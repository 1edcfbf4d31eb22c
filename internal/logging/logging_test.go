package logging_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"oportuna/internal/logging"
	"oportuna/internal/testenv"
)

// jsonLines decodes every JSON line of buf; a line that is not JSON fails the test.
func jsonLines(t *testing.T, buf *testenv.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not a JSON line: %q", l)
		}
		out = append(out, m)
	}
	return out
}

func find(lines []map[string]any, msg string) map[string]any {
	for _, l := range lines {
		if l["msg"] == msg {
			return l
		}
	}
	return nil
}

func TestRequestLinesCarryTheRequestID(t *testing.T) {
	buf := &testenv.Buffer{}
	log := logging.New(buf, slog.LevelInfo)
	r := chi.NewRouter()
	r.Use(middleware.RequestID)
	r.Get("/x", func(w http.ResponseWriter, r *http.Request) {
		log.InfoContext(r.Context(), "handling")
		log.InfoContext(r.Context(), "explicit", logging.RequestID, middleware.GetReqID(r.Context()))
		log.Info("no context")
	})
	req := httptest.NewRequest(http.MethodGet, "/x", nil)
	req.Header.Set("X-Request-Id", "req-123")
	r.ServeHTTP(httptest.NewRecorder(), req)

	lines := jsonLines(t, buf)
	if l := find(lines, "handling"); l == nil || l[logging.RequestID] != "req-123" {
		t.Errorf("handling: %v", l)
	}
	if l := find(lines, "no context"); l == nil || l[logging.RequestID] != nil {
		t.Errorf("no context: %v", l)
	}
	raw := buf.String()
	for _, l := range strings.Split(raw, "\n") {
		if strings.Contains(l, `"explicit"`) && strings.Count(l, `"request_id"`) != 1 {
			t.Errorf("request_id twice: %s", l)
		}
	}
}

// TestTracedLinesCarryTheTraceID: a line logged under a traced context (a
// request, an activity) names its trace, to go from a slow request's line to
// its trace.
func TestTracedLinesCarryTheTraceID(t *testing.T) {
	buf := &testenv.Buffer{}
	log := logging.New(buf, slog.LevelInfo)
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid}))
	log.InfoContext(ctx, "traced")
	log.InfoContext(context.Background(), "untraced")
	lines := jsonLines(t, buf)
	if l := find(lines, "traced"); l == nil || l[logging.TraceID] != tid.String() {
		t.Errorf("traced: %v", l)
	}
	if l := find(lines, "untraced"); l == nil || l[logging.TraceID] != nil {
		t.Errorf("untraced: %v", l)
	}
}

var testLog *slog.Logger

func logActivity(ctx context.Context) error {
	testLog.InfoContext(ctx, "activity via slog")
	activity.GetLogger(ctx).Info("activity via sdk")
	return nil
}

func logWorkflow(ctx workflow.Context) error {
	workflow.GetLogger(ctx).Info("workflow via sdk")
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	return workflow.ExecuteActivity(ctx, logActivity).Get(ctx, nil)
}

// TestWorkflowAndActivityLinesCarryTheWorkflowID runs a workflow on the dev
// server with the logger given to the client, as cmd/oportuna does.
func TestWorkflowAndActivityLinesCarryTheWorkflowID(t *testing.T) {
	buf := &testenv.Buffer{}
	testLog = logging.New(buf, slog.LevelInfo)
	c, err := client.Dial(client.Options{HostPort: testenv.TemporalAddress(t), Namespace: "default", Logger: logging.Temporal(testLog)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, "logging-test", worker.Options{})
	w.RegisterWorkflow(logWorkflow)
	w.RegisterActivity(logActivity)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "opportunity/log-test", TaskQueue: "logging-test"}, logWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}

	lines := jsonLines(t, buf)
	for _, msg := range []string{"workflow via sdk", "activity via sdk", "activity via slog"} {
		l := find(lines, msg)
		if l == nil {
			t.Errorf("no line %q", msg)
			continue
		}
		if l[logging.WorkflowID] != "opportunity/log-test" || l[logging.RunID] != run.GetRunID() {
			t.Errorf("%q: workflow_id %v run_id %v, want opportunity/log-test %s", msg, l[logging.WorkflowID], l[logging.RunID], run.GetRunID())
		}
		if _, camel := l["WorkflowID"]; camel {
			t.Errorf("%q kept the SDK's WorkflowID key: %v", msg, l)
		}
	}
	if l := find(lines, "activity via slog"); l != nil && (l[logging.ActivityType] != "logActivity" || l[logging.Attempt] != float64(1)) {
		t.Errorf("activity via slog: %v", l)
	}
}
