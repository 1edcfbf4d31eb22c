// Package health answers the liveness and readiness probes of the api and the
// worker: /healthz says the process is up, /readyz that it can do its work
// (PostgreSQL and Temporal answer) and is not shutting down.
//
// Compose, a load balancer or Kubernetes probe them; `oportuna healthcheck URL`
// (Probe) is the probe command inside the distroless image, which has no curl.
package health

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"
)

// Paths of the probes.
const (
	LivePath  = "/healthz"
	ReadyPath = "/readyz"
)

// DefaultTimeout bounds each dependency check of /readyz.
const DefaultTimeout = 2 * time.Second

// Check reports whether one dependency answers; it must respect ctx's deadline.
type Check func(ctx context.Context) error

// Dependency is a named check, e.g. {"postgres", Postgres(db)}.
type Dependency struct {
	Name  string
	Check Check
}

// Postgres checks the pool with a ping (a round trip on one connection; a
// connection found broken is discarded, so the check recovers with the server).
func Postgres(db *pgxpool.Pool) Dependency {
	return Dependency{Name: "postgres", Check: db.Ping}
}

// Temporal checks the frontend with the gRPC health service.
func Temporal(c client.Client) Dependency {
	return Dependency{Name: "temporal", Check: func(ctx context.Context) error {
		_, err := c.CheckHealth(ctx, &client.CheckHealthRequest{})
		return err
	}}
}

// Handler serves /healthz and /readyz.
type Handler struct {
	// Timeout bounds each check (DefaultTimeout when zero).
	Timeout time.Duration

	deps     []Dependency
	draining atomic.Bool
	mu       sync.Mutex
	down     map[string]bool // last known failures, to log changes only
}

// New returns a handler checking deps on /readyz.
func New(deps ...Dependency) *Handler {
	return &Handler{deps: deps, down: map[string]bool{}}
}

// Drain makes /readyz answer 503 from now on: call it first on SIGTERM, so load
// balancers stop sending new requests while in-flight ones finish.
func (h *Handler) Drain() { h.draining.Store(true) }

// Draining reports whether Drain was called.
func (h *Handler) Draining() bool { return h.draining.Load() }

// Status is the body of both probes.
type Status struct {
	Status string            `json:"status"` // ok, unavailable, draining
	Checks map[string]string `json:"checks,omitempty"`
}

// ServeHTTP answers LivePath and ReadyPath (404 otherwise), so the handler can be
// mounted as is on a plain mux; chi routers use Live and Ready.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case LivePath:
		h.Live(w, r)
	case ReadyPath:
		h.Ready(w, r)
	default:
		http.NotFound(w, r)
	}
}

// Live answers 200 {"status":"ok"} while the process serves HTTP.
func (h *Handler) Live(w http.ResponseWriter, r *http.Request) {
	write(w, http.StatusOK, Status{Status: "ok"})
}

// Ready answers 200 when every dependency answered within the timeout, 503 with
// the status of each otherwise, and 503 {"status":"draining"} after Drain.
func (h *Handler) Ready(w http.ResponseWriter, r *http.Request) {
	if h.Draining() {
		write(w, http.StatusServiceUnavailable, Status{Status: "draining"})
		return
	}
	st := h.Check(r.Context())
	code := http.StatusOK
	if st.Status != "ok" {
		code = http.StatusServiceUnavailable
	}
	write(w, code, st)
}

// Check runs every dependency check in parallel, each with the timeout.
func (h *Handler) Check(ctx context.Context) Status {
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	errs := make([]error, len(h.deps))
	var wg sync.WaitGroup
	for i, d := range h.deps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			errs[i] = run(cctx, d.Check)
		}()
	}
	wg.Wait()
	st := Status{Status: "ok", Checks: map[string]string{}}
	for i, d := range h.deps {
		st.Checks[d.Name] = "ok"
		if errs[i] != nil {
			st.Status, st.Checks[d.Name] = "unavailable", "down"
		}
		h.logChange(ctx, d.Name, errs[i])
	}
	return st
}

// run calls the check, turning a panic into an error.
func run(ctx context.Context, c Check) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("check panicked: %v", v)
		}
	}()
	return c(ctx)
}

// logChange logs a dependency going down (with the error, which the probe's
// answer leaves out) and coming back.
func (h *Handler) logChange(ctx context.Context, name string, err error) {
	h.mu.Lock()
	was := h.down[name]
	h.down[name] = err != nil
	h.mu.Unlock()
	switch {
	case err != nil && !was:
		slog.WarnContext(ctx, "readiness: dependency down", "dependency", name, "err", err)
	case err == nil && was:
		slog.InfoContext(ctx, "readiness: dependency back", "dependency", name)
	}
}

func write(w http.ResponseWriter, code int, st Status) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(st)
}

// Probe GETs url and fails unless it answers 2xx within timeout. It is the body
// of `oportuna healthcheck URL`, the compose healthcheck command.
func Probe(ctx context.Context, url string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	var st Status
	_ = json.NewDecoder(res.Body).Decode(&st)
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %d %s%s", url, res.StatusCode, st.Status, describe(st.Checks))
	}
	return nil
}

func describe(checks map[string]string) string {
	if len(checks) == 0 {
		return ""
	}
	names := make([]string, 0, len(checks))
	for n := range checks {
		names = append(names, n)
	}
	sort.Strings(names)
	s := ""
	for _, n := range names {
		s += fmt.Sprintf(" %s=%s", n, checks[n])
	}
	return s
}
