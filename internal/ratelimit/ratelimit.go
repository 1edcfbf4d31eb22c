// Package ratelimit is the one rate limiter of the portal. Its state lives in
// PostgreSQL, so every API replica on the same database counts the same events.
//
// Two kinds of limit:
//
//   - Window: at most Limit events per key in any window of length Per (the
//     public forms, the CNPJ lookup, the /mailer send call, reset requests).
//     Rows of rate_hits.
//   - Backoff: failed attempts per key (a login name, a client address); after
//     Free attempts the key is locked for Base, doubling with every further
//     attempt up to Max; the lock ends by itself and the count is forgotten
//     Forget after the last attempt (logins, refreshes, reset links). Rows of
//     rate_failures.
//
// Every call takes its time from the limiter's clock (Now), so tests move time
// instead of sleeping. Prune deletes the rows that no longer count. Its
// statements are in store/ratelimits.sql.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/internal/respond"

	"oportuna/store"
)

func clock(now func() time.Time) time.Time {
	if now != nil {
		return now()
	}
	return time.Now()
}

// RetryAfter is the Retry-After value of a wait: whole seconds, rounded up, at least 1.
func RetryAfter(wait time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(wait.Seconds()))))
}

// TooMany answers 429 {"message": msg} with Retry-After.
func TooMany(w http.ResponseWriter, wait time.Duration, msg string) {
	w.Header().Set("Retry-After", RetryAfter(wait))
	respond.Error(w, http.StatusTooManyRequests, msg)
}

// Window allows at most Limit events per key in any window of length Per.
type Window struct {
	DB *pgxpool.Pool
	// Name keeps the keys of one limit apart from another's (e.g. "form:contact").
	Name  string
	Limit int
	Per   time.Duration
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Allow counts an event of key now, unless key already has Limit events within
// Per; then it answers how long until the oldest leaves the window.
func (w *Window) Allow(ctx context.Context, key string) (bool, time.Duration, error) {
	return w.AllowAt(ctx, key, clock(w.Now))
}

// AllowAt is Allow at a given time. A transaction-scoped advisory lock per
// bucket makes count-then-insert atomic across replicas.
func (w *Window) AllowAt(ctx context.Context, key string, now time.Time) (bool, time.Duration, error) {
	if w.Limit <= 0 || w.Per <= 0 {
		return false, 0, errors.New("ratelimit: window " + w.Name + " has no limit")
	}
	bucket := w.Name + "|" + key
	var allowed bool
	var wait time.Duration
	err := store.Tx(ctx, w.DB, func(q *store.Queries) error {
		if err := q.LockRateBucket(ctx, "rate-window:"+bucket); err != nil {
			return err
		}
		if err := q.ForgetRateHits(ctx, store.ForgetRateHitsParams{Bucket: bucket, Before: now.Add(-w.Per)}); err != nil {
			return err
		}
		hits, err := q.CountRateHits(ctx, bucket)
		if err != nil {
			return err
		}
		if hits.Hits >= w.Limit {
			wait = hits.Oldest.Add(w.Per).Sub(now)
			return nil
		}
		allowed = true
		return q.AddRateHit(ctx, store.AddRateHitParams{Bucket: bucket, At: now, ExpiresAt: now.Add(w.Per)})
	})
	if err != nil {
		return false, 0, fmt.Errorf("ratelimit: count %s: %w", bucket, err)
	}
	return allowed, wait, nil
}

// Wrap answers 429 (msg, Retry-After) when the event keyed by key(r) is over
// the limit, else calls next.
func (w *Window) Wrap(key func(*http.Request) string, msg string, next http.HandlerFunc) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		ok, wait, err := w.Allow(r.Context(), key(r))
		if err != nil {
			respond.Internal(rw, r, err)
			return
		}
		if !ok {
			TooMany(rw, wait, msg)
			return
		}
		next(rw, r)
	}
}

// Backoff locks a key for a growing time after repeated failed attempts.
//
// Every attempt counts when it is made (so a burst of simultaneous attempts
// cannot outrun the count); a successful one is then taken back with Refund,
// or the whole count with Clear. The attempt that makes the count reach Free
// locks the key for Base; each further attempt (made once the lock ended)
// locks it for twice the previous time, up to Max. While locked, Attempt
// refuses without counting. The count is forgotten Forget after the last
// attempt.
type Backoff struct {
	DB   *pgxpool.Pool
	Name string
	// Free is how many attempts the key makes before the first lock.
	Free int
	// Base is the first lock; Max the longest.
	Base, Max time.Duration
	// Forget is how long after its last attempt a key's count is forgotten
	// (at least Max).
	Forget time.Duration
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Delay is the lock after the n-th counted attempt (0 below Free).
func (b *Backoff) Delay(n int) time.Duration {
	if n < b.Free {
		return 0
	}
	d := b.Base
	for i := b.Free; i < n && d < b.Max; i++ {
		d *= 2
	}
	return min(d, b.Max)
}

func (b *Backoff) forget() time.Duration { return max(b.Forget, b.Max) }

type failureRow struct {
	failures int
	lastAt   time.Time
	locked   *time.Time
}

// lockRow reads key's row under a transaction-scoped advisory lock, with a
// count past Forget (and its lock over) read as zero.
func (b *Backoff) lockRow(ctx context.Context, q *store.Queries, key string, now time.Time) (failureRow, bool, error) {
	if err := q.LockRateBucket(ctx, "rate-backoff:"+key); err != nil {
		return failureRow{}, false, err
	}
	r, err := q.RateFailures(ctx, key)
	if errors.Is(err, pgx.ErrNoRows) {
		return failureRow{}, false, nil
	}
	if err != nil {
		return failureRow{}, false, err
	}
	row := failureRow{failures: r.Failures, lastAt: r.LastAt, locked: r.LockedUntil}
	if row.locked != nil && !now.Before(*row.locked) {
		row.locked = nil
	}
	if row.locked == nil && now.Sub(row.lastAt) >= b.forget() {
		row.failures = 0
	}
	return row, true, nil
}

func (b *Backoff) store(ctx context.Context, q *store.Queries, key string, row failureRow) error {
	return q.SaveRateFailures(ctx, store.SaveRateFailuresParams{Key: key, Failures: row.failures, LastAt: row.lastAt,
		LockedUntil: row.locked, ForgetAt: row.lastAt.Add(b.forget())})
}

// Attempt counts an attempt of key now, unless key is locked; then it answers
// how long until the lock ends.
func (b *Backoff) Attempt(ctx context.Context, key string) (bool, time.Duration, error) {
	now := clock(b.Now)
	key = b.Name + "|" + key
	var allowed bool
	var wait time.Duration
	err := store.Tx(ctx, b.DB, func(q *store.Queries) error {
		row, _, err := b.lockRow(ctx, q, key, now)
		if err != nil {
			return err
		}
		if row.locked != nil {
			wait = row.locked.Sub(now)
			return nil
		}
		allowed = true
		row.failures++
		row.lastAt = now
		if d := b.Delay(row.failures); d > 0 {
			until := now.Add(d)
			row.locked = &until
		}
		return b.store(ctx, q, key, row)
	})
	if err != nil {
		return false, 0, fmt.Errorf("ratelimit: attempt %s: %w", key, err)
	}
	return allowed, wait, nil
}

// Locked answers how long key stays locked (0: not locked), without counting.
func (b *Backoff) Locked(ctx context.Context, key string) (time.Duration, error) {
	now := clock(b.Now)
	until, err := store.New(b.DB).RateLockedUntil(ctx, b.Name+"|"+key)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && (until == nil || !now.Before(*until))) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("ratelimit: read %s: %w", key, err)
	}
	return until.Sub(now), nil
}

// Refund takes back one counted attempt of key that succeeded: the count
// drops by one, and a lock ends when the count drops below Free (a key with
// Free or more failures stays locked between attempts, successful or not).
func (b *Backoff) Refund(ctx context.Context, key string) error {
	now := clock(b.Now)
	key = b.Name + "|" + key
	err := store.Tx(ctx, b.DB, func(q *store.Queries) error {
		row, found, err := b.lockRow(ctx, q, key, now)
		if err != nil || !found || row.failures == 0 {
			return err
		}
		row.failures--
		if row.failures < b.Free {
			row.locked = nil
		}
		return b.store(ctx, q, key, row)
	})
	if err != nil {
		return fmt.Errorf("ratelimit: refund %s: %w", key, err)
	}
	return nil
}

// Clear forgets key's attempts and lock.
func (b *Backoff) Clear(ctx context.Context, key string) error {
	if err := store.New(b.DB).ClearRateFailures(ctx, b.Name+"|"+key); err != nil {
		return fmt.Errorf("ratelimit: clear %s: %w", key, err)
	}
	return nil
}

// Pruned counts the rows Prune deleted.
type Pruned struct{ Hits, Failures int64 }

// Prune deletes the rows that no longer count at now: hits out of their window,
// and failure counts past Forget whose lock (if any) ended.
func Prune(ctx context.Context, db *pgxpool.Pool, now time.Time) (Pruned, error) {
	var p Pruned
	q := store.New(db)
	var err error
	if p.Hits, err = q.PruneRateHits(ctx, now); err != nil {
		return p, fmt.Errorf("ratelimit: prune hits: %w", err)
	}
	if p.Failures, err = q.PruneRateFailures(ctx, now); err != nil {
		return p, fmt.Errorf("ratelimit: prune failures: %w", err)
	}
	return p, nil
}
