package health_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"oportuna/internal/health"
)

// serve runs h on a loopback port behind a Requests tracker.
func serve(t *testing.T, h http.Handler) (*http.Server, *health.Requests, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rs := &health.Requests{}
	srv := &http.Server{Handler: rs.Track(h)}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return srv, rs, "http://" + ln.Addr().String()
}

// stopWithin5s is StopServer with the drain and grace, which must return
// within 5 s (the handlers under test would hold it for a minute or for ever;
// the margin is for a busy machine).
func stopWithin5s(t *testing.T, srv *http.Server, rs *health.Requests, drain, grace time.Duration) (cut, stuck int64) {
	t.Helper()
	start := time.Now()
	cut, stuck = health.StopServer(srv, rs, drain, grace)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("StopServer took %v with a %v drain and a %v grace", took, drain, grace)
	}
	return cut, stuck
}

// TestStopServerLetsTheRequestsInFlightFinish: a request running at the stop,
// shorter than the drain, completes with its answer.
func TestStopServerLetsTheRequestsInFlightFinish(t *testing.T) {
	started := make(chan struct{})
	srv, rs, url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		_, _ = io.WriteString(w, "feito")
	}))
	got := make(chan string, 1)
	go func() {
		res, err := http.Get(url)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		got <- string(b)
	}()
	<-started
	cut, stuck := health.StopServer(srv, rs, 5*time.Second, time.Second)
	if cut != 0 || stuck != 0 {
		t.Errorf("StopServer cut %d, stuck %d; want a clean drain", cut, stuck)
	}
	if body := <-got; body != "feito" {
		t.Errorf("the request in flight answered %q", body)
	}
}

// TestStopServerCutsARequestLongerThanTheDrain: past the drain, the connection
// is closed, the handler's context ends, and StopServer returns once the
// handler did, reporting the cut instead of waiting for ever.
func TestStopServerCutsARequestLongerThanTheDrain(t *testing.T) {
	started := make(chan struct{})
	handlerErr := make(chan error, 1)
	srv, rs, url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		select { // a workflow update that never answers, bounded by the request's context
		case <-r.Context().Done():
			handlerErr <- r.Context().Err()
		case <-time.After(time.Minute):
			handlerErr <- errors.New("not cancelled")
		}
	}))
	clientErr := make(chan error, 1)
	go func() {
		res, err := http.Get(url)
		if err == nil {
			res.Body.Close()
		}
		clientErr <- err
	}()
	<-started
	cut, stuck := stopWithin5s(t, srv, rs, 300*time.Millisecond, 20*time.Second)
	if cut != 1 || stuck != 0 {
		t.Errorf("StopServer cut %d, stuck %d; want 1 cut, 0 stuck", cut, stuck)
	}
	if err := <-handlerErr; !errors.Is(err, context.Canceled) {
		t.Errorf("the cut handler's context: %v, want canceled", err)
	}
	if err := <-clientErr; err == nil {
		t.Error("the cut request got an answer")
	}
	if rs.Running() != 0 {
		t.Errorf("%d requests still running", rs.Running())
	}
}

// TestStopServerReportsAHandlerThatIgnoresItsContext: the grace is bounded too.
func TestStopServerReportsAHandlerThatIgnoresItsContext(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	srv, rs, url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
	}))
	go func() {
		if res, err := http.Get(url); err == nil {
			res.Body.Close()
		}
	}()
	<-started
	cut, stuck := stopWithin5s(t, srv, rs, 200*time.Millisecond, 200*time.Millisecond)
	if cut != 1 || stuck != 1 {
		t.Errorf("StopServer cut %d, stuck %d; want 1 and 1", cut, stuck)
	}
}
