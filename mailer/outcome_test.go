package mailer

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A delivered e-mail whose "sent" mark meets a PostgreSQL restart (the chaos
// round's duplicate: the mark failed once, the activity was retried and the
// e-mail went out twice) is marked on a later try, even when the attempt's
// context has ended meanwhile.
func TestTheOutcomeIsRecordedThroughADatabaseRestart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	restart := errors.New("FATAL: terminating connection due to administrator command (SQLSTATE 57P01)")
	err := recordOutcome(ctx, func(ctx context.Context) error {
		calls++
		if ctx.Err() != nil {
			t.Fatalf("try %d ran with an ended context: %v", calls, ctx.Err())
		}
		if calls < 3 {
			return restart
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("recordOutcome = %v after %d tries, want nil after 3", err, calls)
	}
}

// A database that stays away longer than markPatience: the last error is returned.
func TestTheOutcomeGivesUpAfterItsPatience(t *testing.T) {
	defer func(p time.Duration) { markPatience = p }(markPatience)
	markPatience = 300 * time.Millisecond
	down := errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
	calls := 0
	start := time.Now()
	err := recordOutcome(context.Background(), func(context.Context) error { calls++; return down })
	if !errors.Is(err, down) || calls < 2 {
		t.Fatalf("recordOutcome = %v after %d tries, want the last error after several", err, calls)
	}
	if waited := time.Since(start); waited < markPatience {
		t.Fatalf("gave up after %v, before its patience (%v)", waited, markPatience)
	}
}
