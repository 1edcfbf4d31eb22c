package deploy_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/brand"
	"oportuna/internal/health"
	"oportuna/internal/testenv"
	"oportuna/seed"
)

// outcome is one request of the burst.
type outcome struct {
	kind       string
	start, end time.Time
	status     int
	err        error
}

// TestSIGTERMDuringABurstLosesNoRequest runs `oportuna dev` (API and worker in
// one process, the hardest case: in-flight requests wait on workflow updates
// that the same process's worker runs), fires a burst of registrations,
// listings and logins, and sends SIGTERM in the middle. Clients behave like a
// load balancer: they start no new request once /readyz answers 503. Every
// request started must complete with its normal answer, every registration
// must be in the database with its workflow having run, and the process must
// exit 0 within the compose grace period.
func TestSIGTERMDuringABurstLosesNoRequest(t *testing.T) { sigtermDuringABurst(t, "dev") }

// TestSIGTERMToTheAPIDuringABurstLosesNoRequest is the same burst against
// `oportuna api` alone, as compose runs it: the updates its requests wait on
// are run by a separate `oportuna worker` process, which keeps running.
func TestSIGTERMToTheAPIDuringABurstLosesNoRequest(t *testing.T) { sigtermDuringABurst(t, "api") }

func sigtermDuringABurst(t *testing.T, mode string) {
	s := loadStack(t, readFile(t, "docker-compose.yml"))
	bin := buildOportuna(t)
	dbURL, db, _ := seededDatabase(t)
	ctx := testenv.Context(t)

	// A new connection per request: an idle keep-alive connection closed by the
	// server would be the client's concern, not a lost request.
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 60 * time.Second}
	common := append(os.Environ(), "DATABASE_URL="+dbURL, "TEMPORAL_ADDRESS="+testenv.TemporalAddress(t),
		"TEMPORAL_NAMESPACE=default", "PAYLOAD_KEYS="+testenv.PayloadKeys, "SHUTDOWN_DELAY=1s", "JWT_SECRET=0123456789abcdef0123456789abcdef0123", "LOG_LEVEL=WARN",
		"CRM_URL=", "CRM_SIM=on")
	common = common[:len(common):len(common)] // each process appends its own ports
	if mode == "api" {
		// The worker the API's updates wait on, in a process of its own.
		workerMetrics, _ := testenv.FreePort()
		w := exec.Command(bin, "worker")
		w.Env = append(common, fmt.Sprintf("METRICS_PORT=%d", workerMetrics))
		var wlogs bytes.Buffer
		w.Stdout, w.Stderr = &wlogs, &wlogs
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		wexited := make(chan error, 1)
		go func() { wexited <- w.Wait() }()
		t.Cleanup(func() {
			_ = w.Process.Signal(syscall.SIGTERM)
			select {
			case <-wexited:
			case <-time.After(time.Minute):
				_ = w.Process.Kill()
			}
		})
		waitReady(t, hc, fmt.Sprintf("http://127.0.0.1:%d", workerMetrics), wexited, &wlogs)
	}

	port, _ := testenv.FreePort()
	metricsPort, _ := testenv.FreePort()
	cmd := exec.Command(bin, mode)
	cmd.Env = append(common, fmt.Sprintf("PORT=%d", port), fmt.Sprintf("METRICS_PORT=%d", metricsPort))
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	waitReady(t, hc, base, exited, &logs)

	// Logins go round the demo users: one account's logins in flight at once
	// count against its throttle (auth.LoginFreePerAccount), as guesses would.
	users := []string{"vendedor1", "vendedor2", "revenda", "representante", "suporte", "multi"}
	var logins atomic.Int64
	login := func() (*http.Response, error) {
		user := users[int(logins.Add(1))%len(users)]
		req, _ := http.NewRequest(http.MethodGet, base+"/authenticator/login?brand=nordata", nil)
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user+"@nordata.demo:Oportuna@2026")))
		return hc.Do(req)
	}
	token := loginToken(t, hc, base, "vendedor1@nordata.demo")
	var seq atomic.Int64
	create := func() (*http.Response, error) {
		n := seq.Add(1)
		body, _ := json.Marshal(registration(fmt.Sprintf("burst-%d", n)))
		req, _ := http.NewRequest(http.MethodPost, base+"/api/opportunity/create", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("company", "nordata")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", fmt.Sprintf("burst-%d", n))
		return hc.Do(req)
	}
	list := func() (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodGet, base+"/api/opportunity/user?page=1&limit=10", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("company", "nordata")
		return hc.Do(req)
	}
	kinds := []struct {
		name string
		do   func() (*http.Response, error)
	}{{"create", create}, {"list", list}, {"login", login}, {"create", create}}

	// The "load balancer": stops new requests once readiness answers 503.
	var draining atomic.Bool
	var drainSeen time.Time
	probeDone := make(chan struct{})
	go func() {
		defer close(probeDone)
		for !draining.Load() {
			res, err := hc.Get(base + health.ReadyPath)
			if err == nil {
				res.Body.Close()
				if res.StatusCode == http.StatusServiceUnavailable {
					drainSeen = time.Now()
					draining.Store(true)
					return
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()

	var mu sync.Mutex
	var outcomes []outcome
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; !draining.Load(); i++ {
				k := kinds[i%len(kinds)]
				o := outcome{kind: k.name, start: time.Now()}
				res, err := k.do()
				if err == nil {
					_, err = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					o.status = res.StatusCode
				}
				o.end, o.err = time.Now(), err
				mu.Lock()
				outcomes = append(outcomes, o)
				mu.Unlock()
			}
		}(w)
	}
	time.Sleep(3 * time.Second)
	sigterm := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	<-probeDone

	grace, _ := time.ParseDuration(s.c.Services["api"].StopGracePeriod)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("oportuna %s exited with %v after SIGTERM\n%s", mode, err, logs.String())
		}
	case <-time.After(grace):
		t.Fatalf("oportuna %s still running %s after SIGTERM\n%s", mode, grace, logs.String())
	}
	stopped := time.Now()

	created, inFlight := 0, 0
	took := map[string]time.Duration{}
	count := map[string]int{}
	for _, o := range outcomes {
		took[o.kind] += o.end.Sub(o.start)
		count[o.kind]++
		if o.err != nil || o.status != http.StatusOK {
			when := fmt.Sprintf("%v after", o.start.Sub(sigterm).Round(time.Millisecond))
			if o.start.Before(sigterm) {
				when = fmt.Sprintf("%v before", sigterm.Sub(o.start).Round(time.Millisecond))
			}
			t.Errorf("%s started %s SIGTERM: status %d, err %v", o.kind, when, o.status, o.err)
		}
		if o.kind == "create" && o.status == http.StatusOK {
			created++
		}
		if o.start.Before(sigterm) && o.end.After(sigterm) {
			inFlight++
		}
	}
	for k := range count {
		t.Logf("%s: %d requests, mean %v", k, count[k], took[k]/time.Duration(count[k]))
	}
	t.Logf("%d requests (%d registrations), %d in flight at SIGTERM; readiness 503 after %v; exit after %v",
		len(outcomes), created, inFlight, drainSeen.Sub(sigterm), stopped.Sub(sigterm))
	if len(outcomes) < 8 || created < 2 {
		t.Fatalf("burst too small to mean anything: %d requests, %d registrations", len(outcomes), created)
	}
	if inFlight == 0 {
		t.Error("no request was in flight at SIGTERM: the test proves nothing")
	}
	if drainSeen.IsZero() {
		t.Error("readiness never answered 503 during the shutdown")
	}

	// Every registration answered 200 is in the read model, its workflow past the registration.
	var rows, analysis int
	if err := db.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE status = 'analysis') FROM opportunities`).Scan(&rows, &analysis); err != nil {
		t.Fatal(err)
	}
	if rows != created || analysis != created {
		t.Errorf("%d registrations answered 200, %d opportunities in the database (%d in analysis)", created, rows, analysis)
	}
	if _, err := hc.Get(base + health.LivePath); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("the port still answers after exit: %v", err)
	}
	if strings.Contains(logs.String(), "were cut") {
		t.Errorf("requests were cut at the drain deadline:\n%s", logs.String())
	}
}

// waitReady polls base's /readyz until it answers 200, failing if the process
// exits or after 90 s.
func waitReady(t *testing.T, hc *http.Client, base string, exited <-chan error, logs *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		res, err := hc.Get(base + health.ReadyPath)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case err := <-exited:
			t.Fatalf("%s: the process exited: %v\n%s", base, err, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready after 90 s\n%s", base, logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// seededDatabase is a new migrated database holding the demo accounts of one
// brand, nordata (password Oportuna@2026), with a pool closed at the end of the test.
func seededDatabase(t *testing.T) (string, *pgxpool.Pool, *brand.Registry) {
	t.Helper()
	url := testenv.NewDatabaseURL(t)
	ctx := testenv.Context(t)
	db, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	one, err := brand.Parse([]byte(`[{"slug":"nordata","name":"Nordata"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seed.Run(ctx, db, one, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	return url, db, one
}
