package cnpj

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/internal/periodic"
)

// The spec's limit: 3 lookups per minute per user.
const (
	Limit  = 3
	Window = time.Minute
)

// limiter is a sliding window kept in PostgreSQL (table cnpj_lookup_hits), so
// every API replica counts the same lookups. A transaction-scoped advisory lock
// per caller makes count-then-insert atomic across replicas.
type limiter struct {
	db    *pgxpool.Pool
	sweep periodic.Gate
}

// allow counts a lookup of the caller at now, unless the caller already has
// Limit lookups within the window; then it answers how long until one leaves it.
func (l *limiter) allow(ctx context.Context, caller string, now time.Time) (bool, time.Duration, error) {
	var allowed bool
	var wait time.Duration
	err := pgx.BeginFunc(ctx, l.db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('cnpj-limit:' || $1, 0))`, caller); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM cnpj_lookup_hits WHERE caller = $1 AND at <= $2`, caller, now.Add(-Window)); err != nil {
			return err
		}
		var n int
		var oldest *time.Time
		if err := tx.QueryRow(ctx, `SELECT count(*), min(at) FROM cnpj_lookup_hits WHERE caller = $1`, caller).Scan(&n, &oldest); err != nil {
			return err
		}
		if n >= Limit {
			wait = oldest.Add(Window).Sub(now)
			return nil
		}
		allowed = true
		_, err := tx.Exec(ctx, `INSERT INTO cnpj_lookup_hits (caller, at) VALUES ($1, $2)`, caller, now)
		return err
	})
	if err != nil {
		return false, 0, err
	}
	// About once a window per process, delete the hits of callers that did not come back.
	if l.sweep.Due(now, Window) {
		_, _ = l.db.Exec(ctx, `DELETE FROM cnpj_lookup_hits WHERE at <= $1`, now.Add(-Window))
	}
	return allowed, wait, nil
}
