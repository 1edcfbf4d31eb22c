package auth

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/internal/periodic"
	"oportuna/internal/ratelimit"
	"oportuna/store"
)

// PruneEvery is how often the API process deletes expired tokens and
// rate-limit rows (StartPruning).
const PruneEvery = 10 * time.Minute

// Pruned counts the rows Prune deleted.
type Pruned struct {
	RefreshTokens, ResetTokens int64
	RateLimits                 ratelimit.Pruned
	IdempotencyKeys            int64
}

// IdempotencyKeysKept is how long a decision's Idempotency-Key answers its
// first outcome (table idempotency_keys): a client may retry for a day.
const IdempotencyKeysKept = 24 * time.Hour

// Prune deletes, at now, what can no longer be used:
//   - refresh tokens past their expiry (a rotated token stays until then, so
//     that its replay is still recognised and revokes its family), and tokens
//     revoked more than a minute ago (a revoked token is refused either way);
//   - reset tokens expired or used;
//   - rate-limit rows that no longer count (ratelimit.Prune);
//   - decisions' Idempotency-Keys older than IdempotencyKeysKept.
func Prune(ctx context.Context, db *pgxpool.Pool, now time.Time) (Pruned, error) {
	var p Pruned
	q := store.New(db)
	var err error
	p.RefreshTokens, err = q.PruneRefreshTokens(ctx, store.PruneRefreshTokensParams{Now: now, RevokedBefore: now.Add(-time.Minute)})
	if err != nil {
		return p, fmt.Errorf("auth: prune refresh tokens: %w", err)
	}
	if p.ResetTokens, err = q.PrunePasswordLinks(ctx, now); err != nil {
		return p, fmt.Errorf("auth: prune reset tokens: %w", err)
	}
	if p.RateLimits, err = ratelimit.Prune(ctx, db, now); err != nil {
		return p, err
	}
	if p.IdempotencyKeys, err = q.PruneIdempotencyKeys(ctx, now.Add(-IdempotencyKeysKept)); err != nil {
		return p, fmt.Errorf("auth: prune idempotency keys: %w", err)
	}
	return p, nil
}

// StartPruning runs Prune every PruneEvery until ctx ends or stop is called;
// the API process runs it (every replica may: the deletes are idempotent).
func StartPruning(ctx context.Context, db *pgxpool.Pool) (stop func()) {
	return periodic.Every(ctx, PruneEvery, func(ctx context.Context) bool {
		p, err := Prune(ctx, db, time.Now())
		if err != nil {
			slog.ErrorContext(ctx, "prune expired tokens and rate-limit rows", "err", err)
		} else if p.RefreshTokens+p.ResetTokens+p.RateLimits.Hits+p.RateLimits.Failures+p.IdempotencyKeys > 0 {
			slog.InfoContext(ctx, "pruned expired tokens and rate-limit rows", "refresh_tokens", p.RefreshTokens,
				"reset_tokens", p.ResetTokens, "rate_hits", p.RateLimits.Hits, "rate_failures", p.RateLimits.Failures,
				"idempotency_keys", p.IdempotencyKeys)
		}
		return true
	})
}
