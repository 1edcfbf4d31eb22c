package cnpj

import (
	"sync"
	"testing"
	"time"

	"oportuna/internal/testenv"
)

// Many simultaneous lookups of one caller, as from several replicas: the
// count-then-insert is atomic, so exactly Limit get through.
func TestLimiterIsAtomicUnderConcurrency(t *testing.T) {
	db := testenv.DB(t)
	ctx := testenv.Context(t)
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	limiters := []*limiter{{db: db}, {db: db}, {db: db}}
	for round := 0; round < 3; round++ {
		var wg sync.WaitGroup
		var mu sync.Mutex
		allowed := 0
		start := make(chan struct{})
		for i := 0; i < 24; i++ {
			wg.Add(1)
			go func(l *limiter) {
				defer wg.Done()
				<-start
				ok, _, err := l.allow(ctx, "user:race", now)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}(limiters[i%len(limiters)])
		}
		close(start)
		wg.Wait()
		if allowed != Limit {
			t.Fatalf("round %d: %d allowed, want %d", round, allowed, Limit)
		}
		now = now.Add(Window)
	}
}
