package deploy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"oportuna/internal/calendar"
	"oportuna/internal/dev/crmsim"
	teststack "oportuna/internal/stack"
	"oportuna/internal/testenv"
	"oportuna/worker"
)

// TestSIGTERMToTheWorkerLetsTheRunningActivityFinish runs `oportuna api` and
// `oportuna worker` as compose does, against a slow Salesforce stand-in. A
// representative approves an opportunity; while the worker's CRM sync is half
// way through its calls, the worker gets SIGTERM. It must stop polling but let
// the CRM write finish (the CRM record complete, written once) and exit 0 within
// worker.StopTimeout. The CRM write of a decision someone waits for is a local
// activity inside the workflow task (write-path version 2), so the stopping
// worker also records the decision and answers: the approval, waiting in the
// API, completes with no other worker, and a worker started later does not
// sync again.
func TestSIGTERMToTheWorkerLetsTheRunningActivityFinish(t *testing.T) {
	bin := buildOportuna(t)
	dbURL, db, brands := seededDatabase(t)
	ctx := testenv.Context(t)
	opts, err := crmsim.OptionsFromEnv(func(string) string { return "" }, brands)
	if err != nil {
		t.Fatal(err)
	}
	sim := crmsim.New(db, opts)
	if err := sim.Seed(ctx); err != nil {
		t.Fatal(err)
	}
	crmSrv := httptest.NewServer(sim)
	t.Cleanup(crmSrv.Close)
	cfg := sim.ClientConfig(crmSrv.URL)

	common := append(os.Environ(), "DATABASE_URL="+dbURL, "TEMPORAL_ADDRESS="+testenv.TemporalAddress(t),
		"TEMPORAL_NAMESPACE=default", "PAYLOAD_KEYS="+testenv.PayloadKeys, "JWT_SECRET=0123456789abcdef0123456789abcdef0123", "LOG_LEVEL=INFO",
		"CRM_URL="+crmSrv.URL, "CRM_SIM=off", "SALESFORCE_CLIENT_ID="+cfg.ClientID, "SALESFORCE_CLIENT_SECRET="+cfg.ClientSecret)
	common = common[:len(common):len(common)]
	hc := &http.Client{Timeout: 2 * time.Minute}

	type proc struct {
		cmd    *exec.Cmd
		logs   *bytes.Buffer
		exited chan error
		base   string
	}
	start := func(sub string) *proc {
		t.Helper()
		port, _ := testenv.FreePort()
		metrics, _ := testenv.FreePort()
		p := &proc{cmd: exec.Command(bin, sub), logs: &bytes.Buffer{}, exited: make(chan error, 1)}
		p.cmd.Env = append(common, fmt.Sprintf("PORT=%d", port), fmt.Sprintf("METRICS_PORT=%d", metrics))
		p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { p.exited <- p.cmd.Wait() }()
		t.Cleanup(func() { _ = p.cmd.Process.Kill() })
		waitReady(t, hc, fmt.Sprintf("http://127.0.0.1:%d", metrics), p.exited, p.logs)
		p.base = fmt.Sprintf("http://127.0.0.1:%d", port)
		return p
	}
	first := start("worker")
	api := start("api")

	// do sends one API call as the holder of token; safe on any goroutine.
	do := func(method, path, token string, body any) (int, map[string]any, error) {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, api.base+path, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("company", "nordata")
		req.Header.Set("Content-Type", "application/json")
		res, err := hc.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer res.Body.Close()
		out := map[string]any{}
		_ = json.NewDecoder(res.Body).Decode(&out)
		return res.StatusCode, out, nil
	}
	seller := loginToken(t, hc, api.base, "vendedor1@nordata.demo")
	representative := loginToken(t, hc, api.base, "representante@nordata.demo")
	code, created, err := do(http.MethodPost, "/api/opportunity/create", seller, registration("worker-sigterm"))
	data, _ := created["data"].(map[string]any)
	id, _ := data["id"].(string)
	if err != nil || code != http.StatusOK || id == "" {
		t.Fatalf("create: %d %v %v\n%s", code, created, err, api.logs)
	}

	// Each call of the CRM sync (token, account, opportunity, its line items)
	// now takes 700 ms: SIGTERM comes after the first, while the rest are due.
	sim.SetDelay(700 * time.Millisecond)
	before := len(sim.Requests())
	type answer struct {
		code int
		body map[string]any
		err  error
	}
	approved := make(chan answer, 1)
	go func() {
		code, body, err := do(http.MethodPatch, "/api/opportunity/"+id, representative,
			map[string]any{"status": "approved", "name": "Coletores Cliente Bom"})
		approved <- answer{code, body, err}
	}()
	deadline := time.Now().Add(30 * time.Second)
	for len(sim.Requests()) == before {
		if time.Now().After(deadline) {
			t.Fatalf("the CRM sync never started\n%s", first.logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	sigterm := time.Now()
	if err := first.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-first.exited:
		if err != nil {
			t.Fatalf("worker exited with %v after SIGTERM\n%s", err, first.logs)
		}
	case <-time.After(worker.StopTimeout + 15*time.Second):
		t.Fatalf("worker still running %s after SIGTERM\n%s", worker.StopTimeout+15*time.Second, first.logs)
	}
	stoppedAfter := time.Since(sigterm)

	// The activity ran to its end before the worker left: the opportunity and
	// its line item are in the CRM, and the sync made its later calls after SIGTERM.
	var records, lines int
	if err := db.QueryRow(ctx, `SELECT count(*), (SELECT count(*) FROM crm_sim.line_items l JOIN crm_sim.opportunities o ON o.id = l.opportunity_id WHERE o.external_id = $1)
		FROM crm_sim.opportunities WHERE external_id = $1`, id).Scan(&records, &lines); err != nil {
		t.Fatal(err)
	}
	if records != 1 || lines != 1 {
		t.Fatalf("in the CRM when the worker exited: %d opportunities, %d line items; want 1 and 1 (the activity was cut)\n%s", records, lines, first.logs)
	}
	var afterSigterm int
	for _, r := range sim.Requests()[before:] {
		if r.At.After(sigterm) {
			afterSigterm++
		}
	}
	if afterSigterm == 0 {
		t.Fatalf("no CRM call after SIGTERM: the sync was over before the signal, the test proves nothing")
	}
	t.Logf("worker exited %v after SIGTERM; %d CRM calls answered after it", stoppedAfter.Round(time.Millisecond), afterSigterm)
	// The stopping worker finished the workflow task the CRM write ran in:
	// the approval answers without another worker.
	select {
	case a := <-approved:
		if a.err != nil || a.code != http.StatusOK || a.body["message"] != "Oportunidade aprovada com sucesso" {
			t.Fatalf("approval: %d %v %v\n%s", a.code, a.body, a.err, api.logs)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("the approval did not answer after the worker finished its task and exited\n%s\n%s", api.logs, first.logs)
	}
	writes := func() int {
		n := 0
		for _, r := range sim.Requests() {
			if r.Method == http.MethodPatch && strings.Contains(r.Path, "/sobjects/Opportunity/") {
				n++
			}
		}
		return n
	}
	// A worker started now has nothing to redo: the CRM is not written again.
	sim.SetDelay(0)
	upserts := writes()
	start("worker")
	time.Sleep(2 * time.Second)
	if n := writes(); n != upserts || n != 1 {
		t.Errorf("opportunity writes to the CRM: %d (then %d with a new worker), want exactly 1", upserts, n)
	}
	var status string
	if err := db.QueryRow(ctx, `SELECT status FROM opportunities WHERE id = $1`, id).Scan(&status); err != nil || status != "approved" {
		t.Errorf("read model: %q %v", status, err)
	}
}

// loginToken signs user in at the nordata brand and answers the access token.
func loginToken(t *testing.T, hc *http.Client, base, user string) string {
	t.Helper()
	token, _, err := teststack.Login(context.Background(), hc, base, "", "nordata", user, "Oportuna@2026")
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// registration is a complete registration body (one product) with an idempotency key.
func registration(key string) map[string]any {
	return map[string]any{
		"cnpj": "11222333000181", "contact": "Ana Souza", "network": "Não", "email": "ana@cliente.com.br", "fantasyName": "Cliente Bom",
		"corporateName": "Cliente Bom Ltda", "street": "Rua A, 1", "cep": "01310100", "city": "São Paulo", "state": "SP",
		"probabilityClosing": 25, "acceptedTerm": "true", "country": "Brasil", "phone": "11987654321", "seller": "Vanessa",
		"company": "nordata", "opportunityOrigin": "Partner", "requestId": key,
		"projects": []any{map[string]any{"aplication": "Inventário", "specification": "Coletor", "homologated": true, "haveCollector": false,
			"partner": false, "opportunityType": "private", "conclusionDate": calendar.Date(time.Now()).AddDate(0, 2, 0).Format(time.DateOnly)}},
		"products": []any{map[string]any{"partNumber": "CT-40", "description": "Coletor", "amount": 2, "price": "1.000,00"}},
	}
}
