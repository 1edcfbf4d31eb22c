package tracing_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"oportuna/activities"
	"oportuna/api"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/crm"
	"oportuna/internal/dev/crmsim"
	"oportuna/internal/dev/mailbox"
	"oportuna/internal/stack"
	"oportuna/internal/testenv"
	"oportuna/internal/tracing"
	"oportuna/internal/tracing/tracingtest"
	"oportuna/seed"
	"oportuna/worker"
	"oportuna/workflows"
)

// The customer of the opportunity the test registers: none of it may reach a span.
const (
	customerCNPJ = "11222333000181"
	customerName = "Cliente Bom"
)

// customerData is what of the customer stack.Registration sends.
var customerData = []string{customerCNPJ, "11.222.333", customerName, "Ana Souza", "ana@cliente.com.br", "11987654321"}

// tracedStack is the api and a worker in this process, every part traced by
// one provider whose spans land in memory: the HTTP server, the Temporal
// client (and the worker built on it), the pool, the CRM client talking to
// its stand-in over HTTP.
type tracedStack struct {
	t     *testing.T
	srv   *httptest.Server
	tc    client.Client
	spans *tracetest.InMemoryExporter
	crm   string // the stand-in's URL
}

func newTracedStack(t *testing.T) *tracedStack {
	t.Helper()
	ctx := testenv.Context(t)
	spans := tracetest.NewInMemoryExporter()
	tp := tracing.NewProvider(sdktrace.WithSyncer(tracing.Scrub(spans)))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })

	pcfg, err := pgxpool.ParseConfig(testenv.NewDatabaseURL(t))
	if err != nil {
		t.Fatal(err)
	}
	tp.ConfigurePool(pcfg)
	db, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	brands, _ := brand.Parse([]byte(`[{"slug":"nordata","name":"Nordata","title":"N"}]`))
	if _, err := seed.Run(ctx, db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	sim := crmsim.New(db, crmsim.Options{Brands: brands})
	simURL, err := sim.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sf, err := crm.NewSalesforce(sim.ClientConfig(simURL), tp.HTTPClient())
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	tc, err := client.Dial(client.Options{HostPort: testenv.TemporalAddress(t), Namespace: "default",
		DataConverter: testenv.DataConverter(), Logger: tlog.NewStructuredLogger(quiet), Interceptors: tp.TemporalInterceptors()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tc.Close)
	acts := &activities.Activities{DB: db, Brands: brands, CRM: sf, Mailer: mailbox.Log{},
		Durations: activities.Durations{Validity: 2160 * time.Hour, RenewalWindow: 360 * time.Hour, ApprovalSLA: 48 * time.Hour, ExpiredRetention: time.Hour}}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { _ = worker.Run(wctx, tc, "default", acts); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	s := &api.Server{Brands: brands, DB: db, Temporal: tc, CRM: acts.CRM, Tracing: tp,
		Auth: &auth.Service{DB: db, Brands: brands, Signer: &auth.Signer{Secret: []byte("0123456789abcdef0123456789abcdef"), TTL: time.Hour},
			RefreshTTL: time.Hour, ResetTTL: time.Hour, Mailer: mailbox.ResetLog{}},
		Web: fstest.MapFS{"index.html": {Data: []byte(`<html><head><title>x</title></head></html>`)}}}
	h, err := s.Handler()
	if err != nil {
		t.Fatal(err)
	}
	st := &tracedStack{t: t, srv: httptest.NewServer(h), tc: tc, spans: spans, crm: simURL}
	t.Cleanup(st.srv.Close)
	return st
}

// call sends a JSON request as email (logged in first) and decodes the answer.
func (st *tracedStack) call(email, method, path string, body any, key string) (int, map[string]any) {
	st.t.Helper()
	token, _, err := stack.Login(st.t.Context(), http.DefaultClient, st.srv.URL, "", "nordata", email, "Oportuna@2026")
	if err != nil {
		st.t.Fatal(err)
	}
	code, out, _ := testenv.CallJSON(st.t, method, st.srv.URL+path, body, "Authorization", "Bearer "+token, "company", "nordata", "Idempotency-Key", key)
	return code, out
}

// TestOneApprovalIsOneTraceFromTheHandlerToTheCRM approves an opportunity
// through HTTP and follows its trace: the HTTP server's span (named by its
// route) is the root of the Temporal client's UpdateWorkflow, whose context
// the workflow's update handler reads from the update's headers; the handler
// runs the CRM write and the decision's record as local activities, under
// which the CRM's HTTP request and the SQL statements are. One trace id, one
// parent chain; and nothing of the customer in any span.
func TestOneApprovalIsOneTraceFromTheHandlerToTheCRM(t *testing.T) {
	st := newTracedStack(t)
	code, body := st.call("vendedor1@nordata.demo", "POST", "/api/opportunity/create",
		stack.Registration("nordata", customerCNPJ, customerName), "create-1")
	if code != 200 {
		t.Fatalf("create: %d %v", code, body)
	}
	id := body["data"].(map[string]any)["id"].(string)
	code, body = st.call("representante@nordata.demo", "PATCH", "/api/opportunity/"+id,
		map[string]any{"status": "approved", "name": "Projeto Armazém", "probabilityClosing": 50}, "approve-1")
	if code != 200 {
		t.Fatalf("approve: %d %v", code, body)
	}
	st.srv.Close() // waits for the handlers: the server spans have ended

	spans := tracingtest.FromStubs(st.spans.GetSpans())
	handler := tracingtest.CheckApproval(t, spans, id, st.crm)

	// The CRM write and the record ran as local activities (no activity task
	// was scheduled for them): the interceptor covers local activities.
	if wid := handler.Attrs["temporalWorkflowID"]; wid != "" {
		hist := st.tc.GetWorkflowHistory(t.Context(), wid, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for hist.HasNext() {
			ev, err := hist.Next()
			if err != nil {
				t.Fatal(err)
			}
			if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && (a.GetActivityType().GetName() == "SyncCRM" || a.GetActivityType().GetName() == "Apply") {
				t.Errorf("%s ran as a regular activity: this test meant to check the local ones", a.GetActivityType().GetName())
			}
		}
	}
	tracingtest.CheckNoPersonalData(t, spans, customerData...)

	// The API reads the opportunity once, with the caller, before the
	// decision; it answers from the event the update returned
	// (workflows.Decided), not from a second read. (The CRM write reads it in
	// the worker: the customer's data stays out of the workflow's history.)
	root := spans.Roots("PATCH /api/opportunity/{id}")[0]
	reads := 0
	for _, s := range spans {
		if chain := spans.Chain(root, s); chain != nil && !slices.Contains(chain, "UpdateWorkflow:"+workflows.UpdateApprove) &&
			strings.Contains(s.Attrs["db.query.text"], "FROM opportunities o JOIN users u") {
			reads++
		}
	}
	if reads != 1 {
		t.Errorf("the API read the approved opportunity %d times, want 1; the spans:\n%s", reads, spans.Tree())
	}
}
