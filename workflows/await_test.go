package workflows

import (
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"oportuna/opportunity"
	"oportuna/resale"
)

// timerLog records the timers of a test workflow: when each was started and
// how it ended.
type timerLog struct {
	mu               sync.Mutex
	started          map[string]time.Time
	fired, cancelled map[string]bool
}

func watchTimers(env *testsuite.TestWorkflowEnvironment) *timerLog {
	l := &timerLog{started: map[string]time.Time{}, fired: map[string]bool{}, cancelled: map[string]bool{}}
	env.SetOnTimerScheduledListener(func(id string, _ time.Duration) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.started[id] = env.Now()
	})
	env.SetOnTimerFiredListener(func(id string) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.fired[id] = true
	})
	env.SetOnTimerCanceledListener(func(id string) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.cancelled[id] = true
	})
	return l
}

// leftRunning lists the timers started before t that were not cancelled (they
// fired, or would have): after a decision at t, none should be.
func (l *timerLog) leftRunning(t *testing.T, before time.Time) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	n := 0
	for id, at := range l.started {
		if at.Before(before) {
			n++
			if !l.cancelled[id] || l.fired[id] {
				out = append(out, id)
			}
		}
	}
	if n == 0 {
		t.Fatal("no timer was started before the decision: the test proves nothing")
	}
	return out
}

func TestADecisionCancelsTheTimersOfTheWaitItEnds(t *testing.T) {
	h := newHarness(t)
	timers := watchTimers(h.env)
	var decided time.Time
	var approveErr error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto Armazém", Probability: 50}, &approveErr)
	h.env.RegisterDelayedCallback(func() { decided = h.env.Now() }, time.Hour)
	h.statusAt(2*time.Hour, opportunity.Approved)
	_ = h.run()
	if approveErr != nil {
		t.Fatal(approveErr)
	}
	if decided.IsZero() {
		t.Fatal("the callback at the approval did not run")
	}
	// The registration wait and the SLA reminder's timer (48 h) were running at
	// the approval: both cancelled, so neither fires later.
	if left := timers.leftRunning(t, decided); len(left) > 0 {
		t.Errorf("timers started before the approval and not cancelled: %v (fired: %v)", left, timers.fired)
	}
}

func TestAResaleDecisionCancelsTheReminderTimer(t *testing.T) {
	h := newResaleHarness(t)
	timers := watchTimers(h.env)
	var decided time.Time
	var approveErr error
	approval := ResaleApproval{Actor: rep, Brand: "yep", Portal: "http://yep.localhost:8080", InviteTTL: 72 * time.Hour}
	h.at(10*time.Hour, UpdateApprove, approval, &approveErr)
	h.env.RegisterDelayedCallback(func() { decided = h.env.Now() }, 10*time.Hour)
	if err := h.run(); err != nil || approveErr != nil {
		t.Fatalf("register %v, approve %v", err, approveErr)
	}
	if st := h.state(); st.Status != resale.Approved {
		t.Fatalf("status %s", st.Status)
	}
	if left := timers.leftRunning(t, decided); len(left) > 0 {
		t.Errorf("timers started before the approval and not cancelled: %v (fired: %v)", left, timers.fired)
	}
}
