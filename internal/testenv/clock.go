package testenv

import (
	"sync"
	"time"
)

// Clock is a test's clock: the code under test reads it through Now (a func()
// time.Time field), the test moves it with Add. Goroutines may read it while
// the test moves it.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock is a Clock that reads at until moved.
func NewClock(at time.Time) *Clock { return &Clock{t: at} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
