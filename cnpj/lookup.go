package cnpj

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/singleflight"

	"oportuna/internal/periodic"

	"oportuna/store"
)

// maxFetch bounds one provider call whatever the provider's own client does.
const maxFetch = 30 * time.Second

// SweepEvery is how often a process that writes the cache also deletes its
// expired entries, so the table holds only what can still answer.
const SweepEvery = time.Hour

// Lookup finds companies through a provider and keeps the answers in
// PostgreSQL (table cnpj_cache): a company for TTL, a "not found" for NotFoundTTL.
// Outages and rate limits are never cached.
type Lookup struct {
	DB          *pgxpool.Pool // nil: no cache
	Provider    Provider
	TTL         time.Duration
	NotFoundTTL time.Duration
	Now         func() time.Time // clock of the cache expiry (tests move it)

	calls singleflight.Group // one provider call per CNPJ at a time in this process

	sweep periodic.Gate
}

// New builds the lookup of the configuration.
func New(db *pgxpool.Pool, cfg Config) (*Lookup, error) {
	p, err := cfg.NewProvider()
	if err != nil {
		return nil, err
	}
	ttl := cfg.CacheTTL
	if ttl <= 0 {
		ttl = DefaultCacheTTL
	}
	return &Lookup{DB: db, Provider: p, TTL: ttl, NotFoundTTL: cfg.NotFoundTTL}, nil
}

func (l *Lookup) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

// Find looks a CNPJ up (masked or not). Errors: ErrInvalid, ErrNotFound,
// ErrRateLimited, ErrUnavailable (each wrapped with detail).
func (l *Lookup) Find(ctx context.Context, s string) (Company, error) {
	n := Normalize(s)
	if !Valid(n) {
		return Company{}, ErrInvalid
	}
	if c, found, ok := l.cached(ctx, n); ok {
		if !found {
			return Company{}, fmt.Errorf("%w: %s (cached)", ErrNotFound, n)
		}
		return c, nil
	}
	v, err, _ := l.calls.Do(n, func() (any, error) {
		// The call outlives a caller that gives up, so the others sharing it get the answer.
		fetchCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), maxFetch)
		defer cancel()
		c, err := l.Provider.Fetch(fetchCtx, n)
		switch {
		case err == nil:
			l.store(ctx, n, &c, l.TTL)
		case errors.Is(err, ErrNotFound) && l.NotFoundTTL > 0:
			l.store(ctx, n, nil, l.NotFoundTTL)
		}
		return c, err
	})
	if err != nil {
		return Company{}, err
	}
	return v.(Company), nil
}

// cached answers a fresh cache entry (ok), found or not. A cache that cannot be
// read is logged and skipped: the lookup still works without it.
func (l *Lookup) cached(ctx context.Context, n string) (c Company, found, ok bool) {
	if l.DB == nil {
		return c, false, false
	}
	row, err := store.New(l.DB).CachedCNPJ(ctx, n)
	found, raw, expires := row.Found, row.Company, row.ExpiresAt
	if errors.Is(err, pgx.ErrNoRows) {
		return c, false, false
	}
	if err != nil {
		slog.WarnContext(ctx, "cnpj cache read failed", "err", err)
		return c, false, false
	}
	if !l.now().Before(expires) {
		return c, false, false
	}
	if found {
		if err := json.Unmarshal(raw, &c); err != nil {
			slog.WarnContext(ctx, "cnpj cache entry unreadable", "cnpj", n, "err", err)
			return c, false, false
		}
	}
	return c, found, true
}

func (l *Lookup) store(ctx context.Context, n string, c *Company, ttl time.Duration) {
	if l.DB == nil {
		return
	}
	var raw []byte
	if c != nil {
		raw, _ = json.Marshal(c)
	}
	now := l.now()
	err := store.New(l.DB).CacheCNPJ(context.WithoutCancel(ctx), store.CacheCNPJParams{Cnpj: n, Found: c != nil,
		Company: raw, Provider: l.Provider.Name(), FetchedAt: now, ExpiresAt: now.Add(ttl)})
	if err != nil {
		slog.WarnContext(ctx, "cnpj cache write failed", "cnpj", n, "err", err)
		return
	}
	if l.sweep.Due(now, SweepEvery) {
		if _, err := l.Sweep(context.WithoutCancel(ctx)); err != nil {
			slog.WarnContext(ctx, "cnpj cache sweep failed", "err", err)
		}
	}
}

// Sweep deletes the expired cache entries, answering how many. Find runs it
// after a write at most once per SweepEvery in each process.
func (l *Lookup) Sweep(ctx context.Context) (int64, error) {
	if l.DB == nil {
		return 0, nil
	}
	n, err := store.New(l.DB).SweepCNPJCache(ctx, l.now())
	if err != nil {
		return 0, fmt.Errorf("cnpj: sweep the cache: %w", err)
	}
	return n, nil
}
