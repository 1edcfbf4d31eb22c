//go:build dev

// The in-process stand-in (CRM_SIM=on) exists in a development build only:
// make go-test builds the tests with -tags dev.
package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/brand"
	"oportuna/config"
	"oportuna/internal/stack"
	"oportuna/internal/testenv"
	"oportuna/internal/tracing/tracingtest"
	"oportuna/seed"
)

// TestAPIAndWorkerExportOneTraceOfAnApproval runs `oportuna api` and `oportuna
// worker` as they run in production (runServices, each with its own tracer
// provider, as two processes would) with OTEL_EXPORTER_OTLP_ENDPOINT pointed at
// an OTLP/HTTP receiver, approves an opportunity, stops both (which flushes
// their spans) and reads what reached the receiver: one trace from the api's
// HTTP span (service oportuna-api) through the worker's update handler
// (oportuna-worker) to its SQL statements and CRM requests. It fails when any
// of main.go's hooks (pool, Temporal client, CRM client, router) is left out.
func TestAPIAndWorkerExportOneTraceOfAnApproval(t *testing.T) {
	rec := &tracingtest.Receiver{}
	collector := httptest.NewServer(rec)
	defer collector.Close()
	dbURL := testenv.NewDatabaseURL(t)
	db, err := pgxpool.New(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := seed.Run(t.Context(), db, brand.MustLoad(), "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	port, err := testenv.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"DATABASE_URL": dbURL, "TEMPORAL_ADDRESS": testenv.TemporalAddress(t), "TEMPORAL_NAMESPACE": "default",
		"PAYLOAD_KEYS": testenv.PayloadKeys, "JWT_SECRET": "0123456789abcdef0123456789abcdef", "PORT": strconv.Itoa(port),
		"CRM_SIM": "on", "OTEL_EXPORTER_OTLP_ENDPOINT": collector.URL, "OTEL_SERVICE_NAME": "",
	} {
		t.Setenv(k, v)
	}
	cfg, err := config.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan error, 2)
	go func() { done <- runServices(ctx, cfg, false, true) }()
	go func() { done <- runServices(ctx, cfg, true, false) }()
	stopped := false
	stopBoth := func() {
		if stopped {
			return
		}
		stopped = true
		stop()
		for range 2 {
			if err := <-done; err != nil {
				t.Errorf("runServices: %v", err)
			}
		}
	}
	defer stopBoth()

	base := "http://127.0.0.1:" + strconv.Itoa(port)
	for deadline := time.Now().Add(time.Minute); ; {
		res, err := http.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the api did not answer /healthz: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	call := func(email, method, path string, body any) (int, map[string]any) {
		t.Helper()
		token, _, err := stack.Login(t.Context(), http.DefaultClient, base, "", "nordata", email, "Oportuna@2026")
		if err != nil {
			t.Fatal(err)
		}
		code, out, _ := testenv.CallJSON(t, method, base+path, body, "Authorization", "Bearer "+token, "company", "nordata", "Idempotency-Key", method+path)
		return code, out
	}
	code, body := call("vendedor1@nordata.demo", "POST", "/api/opportunity/create", stack.Registration("nordata", "11222333000181", "Cliente Bom"))
	if code != 200 {
		t.Fatalf("create: %d %v", code, body)
	}
	id := body["data"].(map[string]any)["id"].(string)
	if code, body := call("representante@nordata.demo", "PATCH", "/api/opportunity/"+id,
		map[string]any{"status": "approved", "name": "Projeto Armazém", "probabilityClosing": 50}); code != 200 {
		t.Fatalf("approve: %d %v", code, body)
	}
	stopBoth()

	spans := rec.Spans()
	handler := tracingtest.CheckApproval(t, spans, id, "")
	if root := spans.Roots("PATCH /api/opportunity/{id}")[0]; root.Service != "oportuna-api" || handler.Service != "oportuna-worker" {
		t.Errorf("the HTTP span came from %q, the update handler's from %q; want oportuna-api and oportuna-worker", root.Service, handler.Service)
	}
	tracingtest.CheckNoPersonalData(t, spans, "11222333000181", "11.222.333", "Cliente Bom", "Ana Souza", "ana@cliente.com.br", "11987654321")
}
