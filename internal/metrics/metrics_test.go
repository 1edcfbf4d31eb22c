package metrics_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"oportuna/brand"
	"oportuna/internal/metrics"
	"oportuna/internal/testenv"
	"oportuna/seed"
)

// scrape GETs /metrics through the registry's handler.
func scrape(t *testing.T, reg *metrics.Registry) string {
	t.Helper()
	rec := httptest.NewRecorder()
	reg.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, metrics.Path, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("/metrics = %d: %s", rec.Code, rec.Body.String())
	}
	return rec.Body.String()
}

// value finds the sample of name whose labels include every pair of labels
// (label order free) and returns its value; ok is false when there is none.
func value(body, name string, labels map[string]string) (float64, bool) {
	line := regexp.MustCompile(`^` + regexp.QuoteMeta(name) + `(\{.*\})? (\S+)$`)
	for _, l := range strings.Split(body, "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		all := true
		for k, v := range labels {
			if !strings.Contains(m[1], fmt.Sprintf("%s=%q", k, v)) {
				all = false
				break
			}
		}
		if all {
			f, err := strconv.ParseFloat(m[2], 64)
			return f, err == nil
		}
	}
	return 0, false
}

func mustValue(t *testing.T, body, name string, labels map[string]string, want float64) {
	t.Helper()
	got, ok := value(body, name, labels)
	if !ok {
		t.Errorf("no %s%v in /metrics", name, labels)
		return
	}
	if got != want {
		t.Errorf("%s%v = %v, want %v", name, labels, got, want)
	}
}

// TestMiddlewareExposesRequestsByRoutePattern serves requests through a chi
// router shaped like the API's (a mounted sub-router, a path parameter, a
// fallback for unknown paths, a recovered panic) and reads /metrics.
func TestMiddlewareExposesRequestsByRoutePattern(t *testing.T) {
	reg := metrics.New()
	r := chi.NewRouter()
	r.Use(middleware.RequestID, reg.Middleware, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					w.WriteHeader(http.StatusInternalServerError)
				}
			}()
			next.ServeHTTP(w, r)
		})
	})
	sub := chi.NewRouter()
	sub.Post("/login", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusUnauthorized) })
	r.Mount("/authenticator", sub)
	r.Route("/api", func(r chi.Router) {
		r.Get("/opportunity/id/{id}", func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(10 * time.Millisecond)
			_, _ = io.WriteString(w, `{}`)
		})
		r.Get("/boom", func(http.ResponseWriter, *http.Request) { panic("boom") })
	})
	r.NotFound(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "<html>") })
	srv := httptest.NewServer(r)
	defer srv.Close()

	for _, c := range []struct{ method, path string }{
		{"GET", "/api/opportunity/id/11111111-1111-1111-1111-111111111111"},
		{"GET", "/api/opportunity/id/22222222-2222-2222-2222-222222222222"},
		{"POST", "/authenticator/login"},
		{"GET", "/api/boom"},
		{"GET", "/oportunidades/lista"},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}

	body := scrape(t, reg)
	mustValue(t, body, "http_requests_total", map[string]string{"route": "/api/opportunity/id/{id}", "method": "GET", "status": "200"}, 2)
	mustValue(t, body, "http_requests_total", map[string]string{"route": "/authenticator/login", "method": "POST", "status": "401"}, 1)
	mustValue(t, body, "http_requests_total", map[string]string{"route": "/api/boom", "method": "GET", "status": "500"}, 1)
	mustValue(t, body, "http_requests_total", map[string]string{"route": metrics.OtherRoute, "method": "GET", "status": "200"}, 1)
	mustValue(t, body, "http_request_duration_seconds_count", map[string]string{"route": "/api/opportunity/id/{id}", "method": "GET", "status": "2xx"}, 2)
	mustValue(t, body, "http_request_duration_seconds_count", map[string]string{"route": "/authenticator/login", "method": "POST", "status": "4xx"}, 1)
	mustValue(t, body, "http_request_duration_seconds_count", map[string]string{"route": "/api/boom", "method": "GET", "status": "5xx"}, 1)
	mustValue(t, body, "http_request_duration_seconds_count", map[string]string{"route": metrics.OtherRoute, "method": "GET", "status": "2xx"}, 1)
	if _, ok := value(body, "http_request_duration_seconds_count", map[string]string{"status": "200"}); ok {
		t.Error("the latency histogram is labelled by status code; want the class (2xx), to keep its series few")
	}
	// Both took at least 10 ms: none fits the 5 ms bucket, both the 25 ms one... or a later one on a slow machine.
	mustValue(t, body, "http_request_duration_seconds_bucket", map[string]string{"route": "/api/opportunity/id/{id}", "le": "0.005"}, 0)
	mustValue(t, body, "http_request_duration_seconds_bucket", map[string]string{"route": "/api/opportunity/id/{id}", "le": "+Inf"}, 2)
	if strings.Contains(body, "11111111-1111") || strings.Contains(body, "/oportunidades/lista") {
		t.Error("a raw path leaked into the labels")
	}
	if _, ok := value(body, "oportuna_build_info", nil); !ok {
		t.Error("no oportuna_build_info")
	}
	if _, ok := value(body, "go_goroutines", nil); !ok {
		t.Error("no Go runtime metrics")
	}
}

// TestTemporalHandlerRecordsCountersGaugesAndTimers drives the adapter as the SDK
// does, with tag sets that differ under one name.
func TestTemporalHandlerRecordsCountersGaugesAndTimers(t *testing.T) {
	reg := metrics.New()
	h := reg.TemporalHandler().WithTags(map[string]string{"namespace": "default", "client_name": "temporal_go"})
	h.Counter("temporal_request").Inc(1)
	h.WithTags(map[string]string{"operation": "StartWorkflowExecution"}).Counter("temporal_request").Inc(2)
	h.WithTags(map[string]string{"operation": "StartWorkflowExecution"}).Counter("temporal_request").Inc(1)
	h.Counter("temporal_request").Inc(-5) // ignored: counters never go down
	h.WithTags(map[string]string{"task_queue": "oportuna"}).Gauge("temporal_worker_task_slots_available").Update(42)
	timer := h.WithTags(map[string]string{"activity_type": "SyncCRM", "le": "x", "weird-tag": "v"}).Timer("temporal_activity_execution_latency")
	timer.Record(3 * time.Millisecond)
	timer.Record(2 * time.Second)
	h.Counter("9 odd.name").Inc(1)

	body := scrape(t, reg)
	mustValue(t, body, "temporal_request_total", map[string]string{"namespace": "default", "operation": ""}, 1)
	mustValue(t, body, "temporal_request_total", map[string]string{"namespace": "default", "operation": "StartWorkflowExecution"}, 3)
	mustValue(t, body, "temporal_worker_task_slots_available", map[string]string{"task_queue": "oportuna"}, 42)
	lat := map[string]string{"activity_type": "SyncCRM", "tag_le": "x", "weird_tag": "v"}
	mustValue(t, body, "temporal_activity_execution_latency_seconds_count", lat, 2)
	mustValue(t, body, "temporal_activity_execution_latency_seconds_sum", lat, 2.003)
	mustValue(t, body, "temporal_activity_execution_latency_seconds_bucket", merge(lat, "le", "0.005"), 1)
	mustValue(t, body, "temporal_activity_execution_latency_seconds_bucket", merge(lat, "le", "2.5"), 2)
	mustValue(t, body, "_9_odd_name_total", nil, 1)
	if _, err := reg.Gather(); err != nil {
		t.Fatalf("gather: %v", err)
	}
}

func TestStatusClassBoundsTheLatencyLabel(t *testing.T) {
	for code, want := range map[int]string{200: "2xx", 204: "2xx", 301: "3xx", 404: "4xx", 499: "4xx", 500: "5xx", 503: "5xx", 101: "1xx", 0: "other", 600: "other", 999: "other"} {
		if got := metrics.StatusClass(code); got != want {
			t.Errorf("StatusClass(%d) = %q, want %q", code, got, want)
		}
	}
}

func merge(m map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for a, b := range m {
		out[a] = b
	}
	return out
}

func greet(ctx context.Context, name string) (string, error) { return "olá, " + name, nil }

func greeting(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var out string
	err := workflow.ExecuteActivity(ctx, greet, name).Get(ctx, &out)
	return out, err
}

// TestTemporalSDKMetricsReachTheEndpoint runs a real worker and client, built
// with the handler, against the Temporal dev server.
func TestTemporalSDKMetricsReachTheEndpoint(t *testing.T) {
	reg := metrics.New()
	c, err := client.Dial(client.Options{HostPort: testenv.TemporalAddress(t), Namespace: "default", MetricsHandler: reg.TemporalHandler()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, "metrics-test", worker.Options{})
	w.RegisterWorkflow(greeting)
	w.RegisterActivityWithOptions(greet, activity.RegisterOptions{Name: "greet"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: "metrics-test"}, greeting, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	var out string
	if err := run.Get(ctx, &out); err != nil || out != "olá, Ana" {
		t.Fatalf("workflow: %q %v", out, err)
	}

	// The worker counts a completion after it reported it: wait for the series.
	checks := []struct {
		name   string
		labels map[string]string
		min    float64
	}{
		{"temporal_request_total", map[string]string{"operation": "StartWorkflowExecution", "namespace": "default"}, 1},
		{"temporal_workflow_completed_total", map[string]string{"workflow_type": "greeting", "task_queue": "metrics-test"}, 1},
		{"temporal_activity_execution_latency_seconds_count", map[string]string{"activity_type": "greet"}, 1},
		{"temporal_workflow_task_execution_latency_seconds_bucket", map[string]string{"workflow_type": "greeting", "le": "+Inf"}, 1},
		{"temporal_worker_task_slots_available", map[string]string{"task_queue": "metrics-test", "worker_type": "ActivityWorker"}, 1},
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		body := scrape(t, reg)
		var missing []string
		for _, c := range checks {
			if v, ok := value(body, c.name, c.labels); !ok || v < c.min {
				missing = append(missing, fmt.Sprintf("%s%v = %v (found %v)", c.name, c.labels, v, ok))
			}
		}
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s: %s", strings.Join(missing, "; "))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestBusinessGaugesCountTheReadModel inserts opportunities in a real database
// and reads the gauges, then checks the cache and a failing database.
func TestBusinessGaugesCountTheReadModel(t *testing.T) {
	db, ctx := testenv.DBContext(t)
	brands, err := brand.Parse([]byte(`[{"slug":"yep","name":"Yep"},{"slug":"nordata","name":"Nordata"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seed.Run(ctx, db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	var userID string
	if err := db.QueryRow(ctx, `SELECT id::text FROM users WHERE email = 'vendedor1@yep.demo'`).Scan(&userID); err != nil {
		t.Fatal(err)
	}
	n := 0
	insert := func(brand, status string, age time.Duration) {
		t.Helper()
		n++
		_, err := db.Exec(ctx, `INSERT INTO opportunities (id, brand, status, cnpj, user_id, created_at)
			VALUES (gen_random_uuid(), $1, $2, $3, $4, now() - make_interval(secs => $5))`,
			brand, status, fmt.Sprintf("%012d00", n), userID, age.Seconds())
		if err != nil {
			t.Fatal(err)
		}
	}
	signUp := func(brand, status string, age time.Duration) {
		t.Helper()
		n++
		_, err := db.Exec(ctx, `INSERT INTO resales (brand, status, corporate_name, cnpj, email, created_at)
			VALUES ($1, $2, 'Revenda Teste Ltda', $3, $4, now() - make_interval(secs => $5))`,
			brand, status, fmt.Sprintf("%012d00", n), fmt.Sprintf("revenda%d@teste.com.br", n), age.Seconds())
		if err != nil {
			t.Fatal(err)
		}
	}
	sla := 48 * time.Hour
	signUp("yep", "analysis", 100*time.Hour)            // overdue
	signUp("yep", "analysis", 48*time.Hour+time.Minute) // overdue
	signUp("yep", "analysis", 47*time.Hour)             // within the SLA
	signUp("yep", "disapproved", 200*time.Hour)
	insert("yep", "analysis", 72*time.Hour) // overdue
	insert("yep", "analysis", 49*time.Hour) // overdue
	insert("yep", "analysis", time.Hour)    // within the SLA
	insert("yep", "approved", 100*time.Hour)
	insert("yep", "expired", 3000*time.Hour)

	reg := metrics.New()
	b := metrics.NewBusiness(db, []string{"yep", "nordata"}, sla)
	reg.MustRegister(b)
	body := scrape(t, reg)
	mustValue(t, body, "oportuna_opportunities", map[string]string{"brand": "yep", "status": "analysis"}, 3)
	mustValue(t, body, "oportuna_opportunities", map[string]string{"brand": "yep", "status": "approved"}, 1)
	mustValue(t, body, "oportuna_opportunities", map[string]string{"brand": "yep", "status": "expired"}, 1)
	mustValue(t, body, "oportuna_opportunities", map[string]string{"brand": "yep", "status": "disapproved"}, 0)
	mustValue(t, body, "oportuna_opportunities", map[string]string{"brand": "nordata", "status": "analysis"}, 0)
	opp := func(brand string) map[string]string {
		return map[string]string{"brand": brand, "kind": metrics.OverdueOpportunity}
	}
	res := func(brand string) map[string]string {
		return map[string]string{"brand": brand, "kind": metrics.OverdueResale}
	}
	mustValue(t, body, "oportuna_approvals_overdue", opp("yep"), 2)
	mustValue(t, body, "oportuna_approvals_overdue", opp("nordata"), 0)
	// Reseller sign-ups: two in analysis past the SLA, one within it, the
	// seeded (approved) companies and a refused one old enough do not count.
	mustValue(t, body, "oportuna_approvals_overdue", res("yep"), 2)
	mustValue(t, body, "oportuna_approvals_overdue", res("nordata"), 0)

	// Within the TTL the answer is reused; after it, the new rows show.
	insert("nordata", "analysis", 50*time.Hour)
	signUp("nordata", "analysis", 49*time.Hour)
	body = scrape(t, reg)
	mustValue(t, body, "oportuna_approvals_overdue", opp("nordata"), 0)
	mustValue(t, body, "oportuna_approvals_overdue", res("nordata"), 0)
	b.TTL = time.Millisecond
	time.Sleep(5 * time.Millisecond)
	body = scrape(t, reg)
	mustValue(t, body, "oportuna_approvals_overdue", opp("nordata"), 1)
	mustValue(t, body, "oportuna_approvals_overdue", res("nordata"), 1)
	mustValue(t, body, "oportuna_opportunities", map[string]string{"brand": "nordata", "status": "analysis"}, 1)

	// The database gone: the other series are still served.
	db.Close()
	time.Sleep(5 * time.Millisecond)
	body = scrape(t, reg)
	if _, ok := value(body, "oportuna_opportunities", nil); ok {
		t.Error("business gauges served with the database closed")
	}
	if _, ok := value(body, "oportuna_build_info", nil); !ok {
		t.Error("the other series vanished with the database")
	}
}
