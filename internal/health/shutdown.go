package health

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"
)

// Requests counts the requests a server's handler is running (wrap the handler
// with Track), so a shutdown that had to cut connections can wait for the
// handlers themselves to return before the process closes what they use.
type Requests struct{ n atomic.Int64 }

// Track counts the requests next runs.
func (rs *Requests) Track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rs.n.Add(1)
		defer rs.n.Add(-1)
		next.ServeHTTP(w, r)
	})
}

// Running is the number of requests whose handler has not returned.
func (rs *Requests) Running() int64 { return rs.n.Load() }

// StopServer stops srv, whose handler rs tracks: it stops accepting and waits
// up to drain for the requests in flight (http.Server.Shutdown). Requests still
// running after drain are cut: their connections are closed, which ends their
// contexts, and their handlers get up to grace to return. It returns how many
// requests were still running at the drain deadline (0: a clean drain) and how
// many handlers had not returned after the grace.
func StopServer(srv *http.Server, rs *Requests, drain, grace time.Duration) (cut, stuck int64) {
	ctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	if srv.Shutdown(ctx) == nil {
		return 0, 0
	}
	cut = rs.Running()
	_ = srv.Close()
	deadline := time.Now().Add(grace)
	for rs.Running() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	return cut, rs.Running()
}
