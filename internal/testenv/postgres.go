package testenv

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/internal/stack/cluster"
	"oportuna/migrations"
)

var (
	pgOnce     sync.Once
	pgAdminURL string
	pgTemplate string
	pgErr      error
)

// DB returns a pool on a new, migrated database that is dropped when the test ends.
func DB(t testing.TB) *pgxpool.Pool {
	t.Helper()
	url := DatabaseURL(t)
	ctx := context.Background()
	name := randomName("oportuna_test_")
	admin, err := pgx.Connect(ctx, pgAdminURL)
	if err != nil {
		fatalf(t, "connect: %v", err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, fmt.Sprintf(`CREATE DATABASE %s TEMPLATE %s`, name, pgTemplate)); err != nil {
		fatalf(t, "create database: %v", err)
	}
	pool, err := pgxpool.New(ctx, withDatabase(url, name))
	if err != nil {
		fatalf(t, "pool: %v", err)
	}
	t.Cleanup(func() {
		pool.Close()
		c, err := pgx.Connect(context.Background(), pgAdminURL)
		if err == nil {
			_, _ = c.Exec(context.Background(), fmt.Sprintf(`DROP DATABASE IF EXISTS %s WITH (FORCE)`, name))
			c.Close(context.Background())
		}
	})
	return pool
}

// DBContext is DB then Context: the fresh, migrated database and the context
// that most database tests open with (the context is cancelled, then the
// database dropped, when the test ends).
func DBContext(t testing.TB) (*pgxpool.Pool, context.Context) {
	t.Helper()
	db := DB(t)
	return db, Context(t)
}

// DatabaseURL is the server's administrative URL (starting a cluster if needed);
// the migrated template database exists once it returns.
func DatabaseURL(t testing.TB) string {
	t.Helper()
	NeedsServices(t)
	pgOnce.Do(func() { pgAdminURL, pgErr = setupPostgres() })
	if pgErr != nil {
		fatalf(t, "postgres: %v", pgErr)
	}
	return pgAdminURL
}

// NewDatabaseURL creates an empty migrated database and returns its URL, for
// tests that run the oportuna binary or need a URL rather than a pool.
func NewDatabaseURL(t testing.TB) string {
	pool := DB(t)
	return pool.Config().ConnString()
}

func setupPostgres() (string, error) {
	url := os.Getenv("OPORTUNA_TEST_DATABASE_URL")
	if url == "" {
		url = os.Getenv("DATABASE_URL")
	}
	if url == "" {
		var err error
		if url, err = startCluster(); err != nil {
			return "", err
		}
	}
	ctx := context.Background()
	pgTemplate = randomName("oportuna_tmpl_")
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		return "", fmt.Errorf("connect %s: %w", redact(url), err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, `CREATE DATABASE `+pgTemplate); err != nil {
		return "", err
	}
	AtExit(func() {
		c, err := pgx.Connect(context.Background(), url)
		if err == nil {
			_, _ = c.Exec(context.Background(), `DROP DATABASE IF EXISTS `+pgTemplate+` WITH (FORCE)`)
			c.Close(context.Background())
		}
	})
	pool, err := pgxpool.New(ctx, withDatabase(url, pgTemplate))
	if err != nil {
		return "", err
	}
	defer pool.Close()
	if _, err := migrations.Apply(ctx, pool); err != nil {
		return "", err
	}
	return url, nil
}

func withDatabase(raw, db string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Path = "/" + db
	return u.String()
}

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// startCluster starts a throw-away server (internal/stack/cluster's) in a
// temporary folder, tuned for tests rather than durability; Main removes it.
func startCluster() (string, error) {
	dir, err := os.MkdirTemp("", "oportuna-pg-")
	if err != nil {
		return "", err
	}
	pg, err := cluster.StartPostgres(context.Background(), dir,
		[]string{"fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_parallel_workers_per_gather=0"})
	if err != nil {
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("%w (or name a server: OPORTUNA_TEST_DATABASE_URL or DATABASE_URL)", err)
	}
	AtExit(func() {
		_ = pg.Stop("immediate")
		_ = os.RemoveAll(dir)
	})
	return pg.URL, nil
}
