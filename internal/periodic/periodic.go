// Package periodic lets a process do a chore (deleting expired rows, say) at
// most once a period, from whichever request happens to come by.
package periodic

import (
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
