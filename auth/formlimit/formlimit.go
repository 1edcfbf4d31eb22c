// Package formlimit limits how often one client address may submit a public
// form (reseller sign-up, contact, password recovery). The window is kept in
// PostgreSQL (table form_hits), so every API replica counts the same submissions.
package formlimit

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/internal/clientaddr"
	"oportuna/internal/periodic"
	"oportuna/internal/respond"
)

// Defaults of a limiter.
const (
	DefaultLimit = 5
	Window       = time.Minute
	// MsgTooMany is the 429's message.
	MsgTooMany = "Muitas solicitações. Aguarde um minuto e tente novamente."
)

// Limiter counts the submissions of each form per client address.
type Limiter struct {
	DB *pgxpool.Pool
	// Limit is how many submissions a client address may make per Window (zero: DefaultLimit).
	Limit int
	// Now is the clock (nil: time.Now); tests move it.
	Now func() time.Time
}

func (l *Limiter) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func (l *Limiter) limit() int {
	if l.Limit > 0 {
		return l.Limit
	}
	return DefaultLimit
}

// Wrap answers 429 (with Retry-After and MsgTooMany) to a client address that
// already made Limit submissions of the form within Window; every submission
// counts, invalid ones too.
func (l *Limiter) Wrap(form string, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ok, wait, err := l.Allow(r.Context(), form+"|"+clientaddr.Key(r))
		if err != nil {
			respond.Internal(w, r, err)
			return
		}
		if !ok {
			w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(wait.Seconds())))))
			respond.Error(w, http.StatusTooManyRequests, MsgTooMany)
			return
		}
		next(w, r)
	}
}

// sweep opens about once a window per process, to delete the hits of clients
// that did not come back.
var sweep periodic.Gate

// Allow counts a submission in bucket now, unless the bucket already has Limit
// within Window; then it answers how long until one leaves the window. An
// advisory lock per bucket makes count-then-insert atomic.
func (l *Limiter) Allow(ctx context.Context, bucket string) (bool, time.Duration, error) {
	now, limit := l.now(), l.limit()
	var allowed bool
	var wait time.Duration
	err := pgx.BeginFunc(ctx, l.DB, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('form-limit:' || $1, 0))`, bucket); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM form_hits WHERE bucket = $1 AND at <= $2`, bucket, now.Add(-Window)); err != nil {
			return err
		}
		var n int
		var oldest *time.Time
		if err := tx.QueryRow(ctx, `SELECT count(*), min(at) FROM form_hits WHERE bucket = $1`, bucket).Scan(&n, &oldest); err != nil {
			return err
		}
		if n >= limit {
			wait = oldest.Add(Window).Sub(now)
			return nil
		}
		allowed = true
		_, err := tx.Exec(ctx, `INSERT INTO form_hits (bucket, at) VALUES ($1, $2)`, bucket, now)
		return err
	})
	if err != nil {
		return false, 0, fmt.Errorf("formlimit: count %s: %w", bucket, err)
	}
	if sweep.Due(now, Window) {
		_, _ = l.DB.Exec(ctx, `DELETE FROM form_hits WHERE at <= $1`, now.Add(-Window))
	}
	return allowed, wait, nil
}
