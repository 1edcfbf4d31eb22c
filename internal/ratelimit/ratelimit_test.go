package ratelimit_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"oportuna/internal/ratelimit"
	"oportuna/internal/testenv"
)

// Many simultaneous events of one key on several limiters (replicas) on one
// database: count-then-insert is atomic, so exactly Limit get through in each
// window.
func TestWindowIsAtomicAcrossReplicas(t *testing.T) {
	db, ctx := testenv.DBContext(t)
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	replicas := []*ratelimit.Window{
		{DB: db, Name: "race", Limit: 3, Per: time.Minute, Now: clock},
		{DB: db, Name: "race", Limit: 3, Per: time.Minute, Now: clock},
		{DB: db, Name: "race", Limit: 3, Per: time.Minute, Now: clock},
	}
	for round := 0; round < 3; round++ {
		var wg sync.WaitGroup
		var mu sync.Mutex
		allowed := 0
		start := make(chan struct{})
		for i := 0; i < 24; i++ {
			wg.Add(1)
			go func(w *ratelimit.Window) {
				defer wg.Done()
				<-start
				ok, _, err := w.Allow(ctx, "user:race")
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}(replicas[i%len(replicas)])
		}
		close(start)
		wg.Wait()
		if allowed != 3 {
			t.Fatalf("round %d: %d allowed, want 3", round, allowed)
		}
		now = now.Add(time.Minute)
	}
	// Another key and another limit's name are counted apart.
	if ok, _, _ := replicas[0].Allow(ctx, "user:other"); !ok {
		t.Error("another key refused")
	}
	other := &ratelimit.Window{DB: db, Name: "other", Limit: 1, Per: time.Minute, Now: clock}
	if ok, _, _ := other.Allow(ctx, "user:race"); !ok {
		t.Error("another limit's key refused")
	}
}

// The window slides: the wait answered is until the oldest event leaves it.
func TestWindowSlidesAndAnswersTheWait(t *testing.T) {
	db, ctx := testenv.DBContext(t)
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	w := &ratelimit.Window{DB: db, Name: "slide", Limit: 2, Per: time.Minute, Now: func() time.Time { return now }}
	for _, step := range []struct {
		advance time.Duration
		ok      bool
		wait    time.Duration
	}{{0, true, 0}, {20 * time.Second, true, 0}, {10 * time.Second, false, 30 * time.Second}, {30 * time.Second, true, 0}, {0, false, 20 * time.Second}} {
		now = now.Add(step.advance)
		ok, wait, err := w.Allow(ctx, "k")
		if err != nil || ok != step.ok || wait != step.wait {
			t.Fatalf("at +%v: %v %v %v, want %v %v", step.advance, ok, wait, err, step.ok, step.wait)
		}
	}
}

// The public forms' wrapper answers 429 with the message and Retry-After.
func TestFormWindowAnswers429WithRetryAfter(t *testing.T) {
	db := testenv.DB(t)
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	h := ratelimit.FormWindow(db, "contact", 1, func() time.Time { return now }).WrapForm(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	do := func() *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h(rec, httptest.NewRequest("POST", "/contact", nil))
		return rec
	}
	if rec := do(); rec.Code != 204 {
		t.Fatal(rec.Code)
	}
	now = now.Add(15500 * time.Millisecond)
	rec := do()
	if rec.Code != 429 || rec.Header().Get("Retry-After") != "45" || !strings.Contains(rec.Body.String(), ratelimit.MsgFormTooMany) {
		t.Errorf("%d %q %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
}

// Backoff: Free attempts, then locks doubling from Base up to Max; a locked
// key is refused without counting; Refund takes back one attempt; Clear
// forgets the key; the count is forgotten Forget after the last attempt.
func TestBackoffLocksGrowAndEnd(t *testing.T) {
	db, ctx := testenv.DBContext(t)
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	b := &ratelimit.Backoff{DB: db, Name: "b", Free: 3, Base: 10 * time.Second, Max: 35 * time.Second, Forget: time.Hour,
		Now: func() time.Time { return now }}
	attempt := func() (bool, time.Duration) {
		t.Helper()
		ok, wait, err := b.Attempt(ctx, "k")
		if err != nil {
			t.Fatal(err)
		}
		return ok, wait
	}
	for i := 0; i < 3; i++ {
		if ok, _ := attempt(); !ok {
			t.Fatalf("attempt %d refused", i+1)
		}
	}
	var locks []time.Duration
	for i := 0; i < 4; i++ {
		ok, wait := attempt()
		if ok {
			t.Fatalf("lock %d: allowed", i+1)
		}
		if ok2, wait2 := attempt(); ok2 || wait2 != wait {
			t.Fatalf("a refused attempt counted: %v %v", ok2, wait2)
		}
		locks = append(locks, wait)
		now = now.Add(wait)
		if ok, _ := attempt(); !ok {
			t.Fatalf("after lock %d: refused", i+1)
		}
	}
	want := []time.Duration{10 * time.Second, 20 * time.Second, 35 * time.Second, 35 * time.Second}
	for i := range want {
		if locks[i] != want[i] {
			t.Fatalf("locks %v, want %v", locks, want)
		}
	}
	if d, _ := b.Locked(ctx, "k"); d != 35*time.Second {
		t.Errorf("Locked: %v", d)
	}
	if err := b.Clear(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if d, _ := b.Locked(ctx, "k"); d != 0 {
		t.Errorf("locked after Clear: %v", d)
	}
	// Refund: two attempts and a refunded one stay below Free.
	for i := 0; i < 3; i++ {
		if ok, _ := attempt(); !ok {
			t.Fatal("refused")
		}
		if i == 2 {
			if err := b.Refund(ctx, "k"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if d, _ := b.Locked(ctx, "k"); d != 0 {
		t.Errorf("locked after a refunded attempt: %v", d)
	}
	// Forgotten an hour after the last attempt: Free attempts again.
	now = now.Add(time.Hour)
	for i := 0; i < 3; i++ {
		if ok, _ := attempt(); !ok {
			t.Fatalf("after Forget, attempt %d refused", i+1)
		}
	}
}
