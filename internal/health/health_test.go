package health_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"

	"oportuna/internal/health"
	"oportuna/internal/stack/cluster"
	"oportuna/internal/stack/proc"
	"oportuna/internal/testenv"
)

func get(t *testing.T, h http.Handler, path string) (int, health.Status) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	var st health.Status
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		t.Fatalf("%s: body %q: %v", path, rec.Body.String(), err)
	}
	return rec.Code, st
}

// waitReady polls /readyz until it answers want, failing after within.
func waitReady(t *testing.T, h http.Handler, want int, within time.Duration) health.Status {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		code, st := get(t, h, health.ReadyPath)
		if code == want {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz = %d %+v after %v, want %d", code, st, within, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestLivenessAnswersOKWhateverTheDependencies(t *testing.T) {
	h := health.New(health.Dependency{Name: "postgres", Check: func(context.Context) error { return fmt.Errorf("down") }})
	code, st := get(t, h, health.LivePath)
	if code != http.StatusOK || st.Status != "ok" {
		t.Fatalf("/healthz = %d %+v", code, st)
	}
	if code, _ := get(t, h, health.ReadyPath); code != http.StatusServiceUnavailable {
		t.Fatalf("/readyz = %d with a failing dependency", code)
	}
}

func TestReadinessTimesOutASlowDependency(t *testing.T) {
	h := health.New(
		health.Dependency{Name: "fast", Check: func(context.Context) error { return nil }},
		health.Dependency{Name: "slow", Check: func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }},
		health.Dependency{Name: "panics", Check: func(context.Context) error { panic("boom") }},
	)
	h.Timeout = 300 * time.Millisecond
	start := time.Now()
	code, st := get(t, h, health.ReadyPath)
	if took := time.Since(start); took > 10*time.Second { // the slow check never ends by itself
		t.Errorf("/readyz took %v with a 300ms timeout", took)
	}
	want := map[string]string{"fast": "ok", "slow": "down", "panics": "down"}
	if code != http.StatusServiceUnavailable || st.Status != "unavailable" || fmt.Sprint(st.Checks) != fmt.Sprint(want) {
		t.Fatalf("/readyz = %d %+v, want 503 %v", code, st, want)
	}
}

func TestDrainMakesReadinessFailButNotLiveness(t *testing.T) {
	h := health.New(health.Dependency{Name: "postgres", Check: func(context.Context) error { return nil }})
	if code, _ := get(t, h, health.ReadyPath); code != http.StatusOK {
		t.Fatalf("/readyz = %d before drain", code)
	}
	h.Drain()
	if code, st := get(t, h, health.ReadyPath); code != http.StatusServiceUnavailable || st.Status != "draining" {
		t.Fatalf("/readyz = %d %+v while draining", code, st)
	}
	if code, _ := get(t, h, health.LivePath); code != http.StatusOK {
		t.Fatalf("/healthz = %d while draining", code)
	}
}

func TestProbeFailsUnlessTheEndpointAnswers2xx(t *testing.T) {
	down := false
	h := health.New(health.Dependency{Name: "temporal", Check: func(context.Context) error {
		if down {
			return fmt.Errorf("down")
		}
		return nil
	}})
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := context.Background()
	if err := health.Probe(ctx, srv.URL+health.ReadyPath, time.Second); err != nil {
		t.Fatalf("probe of a ready server: %v", err)
	}
	down = true
	err := health.Probe(ctx, srv.URL+health.ReadyPath, time.Second)
	if err == nil || !strings.Contains(err.Error(), "503") || !strings.Contains(err.Error(), "temporal=down") {
		t.Fatalf("probe of an unready server: %v", err)
	}
	srv.Close()
	if err := health.Probe(ctx, srv.URL+health.LivePath, time.Second); err == nil {
		t.Fatal("probe of a closed server succeeded")
	}
}

// newPostgres is a throw-away PostgreSQL server (internal/stack/cluster's) the
// test stops and starts.
func newPostgres(t *testing.T) *cluster.Postgres {
	testenv.NeedsServices(t)
	dir, err := os.MkdirTemp("", "oportuna-health-pg-")
	if err != nil {
		t.Fatal(err)
	}
	pg, err := cluster.StartPostgres(testenv.Context(t), dir, []string{"fsync=off"})
	if err != nil {
		_ = os.RemoveAll(dir)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = pg.Stop("immediate")
		_ = os.RemoveAll(dir)
	})
	return pg
}

// TestReadinessFailsWhilePostgresIsDownAndRecoversAfter stops and restarts a real
// PostgreSQL server under a pool: /readyz turns 503 with postgres=down, then 200
// again without restarting anything on our side.
func TestReadinessFailsWhilePostgresIsDownAndRecoversAfter(t *testing.T) {
	pg := newPostgres(t)
	pool, err := pgxpool.New(context.Background(), pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	h := health.New(health.Postgres(pool))
	h.Timeout = time.Second

	st := waitReady(t, h, http.StatusOK, 10*time.Second)
	if st.Checks["postgres"] != "ok" {
		t.Fatalf("ready with %+v", st)
	}

	if err := pg.Stop("fast"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code, st := get(t, h, health.ReadyPath)
	if code != http.StatusServiceUnavailable || st.Status != "unavailable" || st.Checks["postgres"] != "down" {
		t.Fatalf("/readyz with PostgreSQL stopped = %d %+v", code, st)
	}
	if took := time.Since(start); took > 8*time.Second { // a dead server could hold it for minutes: room for a busy machine
		t.Errorf("/readyz took %v with PostgreSQL stopped (timeout 1s)", took)
	}
	// Again: the first failure dropped the broken connection; a new one is refused.
	if code, st := get(t, h, health.ReadyPath); code != http.StatusServiceUnavailable || st.Checks["postgres"] != "down" {
		t.Fatalf("/readyz again with PostgreSQL stopped = %d %+v", code, st)
	}
	if code, _ := get(t, h, health.LivePath); code != http.StatusOK {
		t.Errorf("/healthz = %d with PostgreSQL stopped", code)
	}

	if err := pg.Start(testenv.Context(t)); err != nil {
		t.Fatal(err)
	}
	st = waitReady(t, h, http.StatusOK, 15*time.Second)
	if st.Checks["postgres"] != "ok" {
		t.Fatalf("recovered with %+v", st)
	}
}

// devServer is a Temporal dev server on a fixed port (internal/stack/proc's
// process) that the test can stop and start again.
func devServer(t *testing.T, port int) *proc.Process {
	testenv.NeedsServices(t)
	bin, err := testenv.TemporalCLI()
	if err != nil {
		t.Fatal(err)
	}
	httpPort, _ := testenv.FreePort()
	metricsPort, _ := testenv.FreePort()
	argv := append([]string{bin, "server", "start-dev", "--headless", "--ip", "127.0.0.1", "--port", strconv.Itoa(port),
		"--http-port", strconv.Itoa(httpPort), "--metrics-port", strconv.Itoa(metricsPort), "--log-level", "error"},
		testenv.TunedDevServerFlags...)
	return proc.New("temporal", argv, t.TempDir(), os.Environ())
}

// TestReadinessFailsWhileTemporalIsDownAndRecoversAfter does the same with a real
// Temporal dev server, stopped and started again on the same port under a client.
func TestReadinessFailsWhileTemporalIsDownAndRecoversAfter(t *testing.T) {
	port, err := testenv.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	srv := devServer(t, port)
	if err := srv.Start(testenv.Context(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(15 * time.Second) })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	var c client.Client
	deadline := time.Now().Add(90 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		c, err = client.DialContext(ctx, client.Options{HostPort: addr, Namespace: "default"})
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("dev server not ready: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	defer c.Close()
	h := health.New(health.Temporal(c))
	h.Timeout = time.Second

	waitReady(t, h, http.StatusOK, 10*time.Second)

	srv.Stop(15 * time.Second)
	start := time.Now()
	code, st := get(t, h, health.ReadyPath)
	if code != http.StatusServiceUnavailable || st.Checks["temporal"] != "down" {
		t.Fatalf("/readyz with Temporal stopped = %d %+v", code, st)
	}
	if took := time.Since(start); took > 8*time.Second { // a dead server could hold it for minutes: room for a busy machine
		t.Errorf("/readyz took %v with Temporal stopped (timeout 1s)", took)
	}

	if err := srv.Start(testenv.Context(t)); err != nil {
		t.Fatal(err)
	}
	st = waitReady(t, h, http.StatusOK, 60*time.Second)
	if st.Checks["temporal"] != "ok" {
		t.Fatalf("recovered with %+v", st)
	}
}
