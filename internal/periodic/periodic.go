// Package periodic lets a process do a chore (deleting expired rows, say) at
// most once a period, from whichever request happens to come by.
package periodic

import (
	"context"
	"sync"
	"time"
)

// Gate opens at most once per period. The zero value is ready: its first
// Due opens it.
type Gate struct {
	mu   sync.Mutex
	last time.Time
}

// Due answers true, and starts a new period, when period has passed since it
// last answered true (or it never did); safe for concurrent use.
func (g *Gate) Due(now time.Time, period time.Duration) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.last.IsZero() && now.Sub(g.last) < period {
		return false
	}
	g.last = now
	return true
}

// Every runs tick every period on its own goroutine until the returned stop
// is called, ctx ends, or tick answers false. Stop waits for a running tick.
func Every(ctx context.Context, period time.Duration, tick func(context.Context) bool) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if !tick(ctx) {
					return
				}
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done); <-finished }) }
}
