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

func TestEveryTicksUntilStoppedOrTold(t *testing.T) {
	var n atomic.Int32
	stop := Every(context.Background(), 5*time.Millisecond, func(context.Context) bool { n.Add(1); return true })
	time.Sleep(60 * time.Millisecond)
	stop()
	after := n.Load()
	if after < 3 {
		t.Fatalf("%d ticks in 60 ms of a 5 ms period", after)
	}
	time.Sleep(30 * time.Millisecond)
	if n.Load() != after {
		t.Error("ticked after stop returned")
	}
	stop() // a second stop is harmless

	var m atomic.Int32
	stop = Every(context.Background(), 5*time.Millisecond, func(context.Context) bool { return m.Add(1) < 2 })
	time.Sleep(60 * time.Millisecond)
	if got := m.Load(); got != 2 {
		t.Errorf("%d ticks, want 2: a tick answering false ends it", got)
	}
	stop()
}
