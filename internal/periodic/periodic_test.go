package periodic

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestGateOpensOncePerPeriod(t *testing.T) {
	var g Gate
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	steps := []struct {
		at   time.Duration
		want bool
	}{{0, true}, {time.Second, false}, {59 * time.Minute, false}, {time.Hour, true}, {90 * time.Minute, false}, {2 * time.Hour, true}}
	for _, s := range steps {
		if got := g.Due(t0.Add(s.at), time.Hour); got != s.want {
			t.Errorf("Due at +%v = %v, want %v", s.at, got, s.want)
		}
	}
}

func TestGateOpensForOneOfManyCallers(t *testing.T) {
	var g Gate
	now := time.Now()
	var opened atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if g.Due(now, time.Minute) {
				opened.Add(1)
			}
		}()
	}
	wg.Wait()
	if opened.Load() != 1 {
		t.Errorf("opened %d times for one instant, want 1", opened.Load())
	}
}

// waitFor polls cond until it holds; the deadline is far beyond the few
// periods it needs, for a machine busy enough to starve the ticker's goroutine.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 10 s", what)
		}
	}
}

func TestEveryTicksUntilStoppedOrTold(t *testing.T) {
	var n atomic.Int32
	stop := Every(context.Background(), 5*time.Millisecond, func(context.Context) bool { n.Add(1); return true })
	waitFor(t, "3 ticks of a 5 ms period", func() bool { return n.Load() >= 3 })
	stop()
	after := n.Load()
	time.Sleep(30 * time.Millisecond)
	if n.Load() != after {
		t.Error("ticked after stop returned")
	}
	stop() // a second stop is harmless

	var m atomic.Int32
	stop = Every(context.Background(), 5*time.Millisecond, func(context.Context) bool { return m.Add(1) < 2 })
	waitFor(t, "2 ticks", func() bool { return m.Load() >= 2 })
	time.Sleep(60 * time.Millisecond)
	if got := m.Load(); got != 2 {
		t.Errorf("%d ticks, want 2: a tick answering false ends it", got)
	}
	stop()
}
