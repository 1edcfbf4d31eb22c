package testenv

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/internal/dev/devenv"
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
	cleanups = append(cleanups, func() {
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

// pgBin finds a PostgreSQL server program (devenv.PGBin).
func pgBin(name string) (string, error) {
	p, err := devenv.PGBin(name)
	if err != nil {
		return "", fmt.Errorf("%w: install Debian's postgresql package or set DATABASE_URL", err)
	}
	return p, nil
}

// startCluster initialises a throw-away cluster in a temporary folder.
func startCluster() (string, error) {
	initdb, err := pgBin("initdb")
	if err != nil {
		return "", err
	}
	pgctl, err := pgBin("pg_ctl")
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "oportuna-pg-")
	if err != nil {
		return "", err
	}
	port, err := FreePort()
	if err != nil {
		return "", err
	}
	var asUser []string
	if os.Geteuid() == 0 {
		// initdb and pg_ctl refuse to run as root.
		pg, err := user.Lookup("postgres")
		if err != nil {
			return "", fmt.Errorf("running as root needs the postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(pg.Uid)
		gid, _ := strconv.Atoi(pg.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return "", err
		}
		asUser = []string{"runuser", "-u", "postgres", "--"}
	}
	run := func(args ...string) error {
		full := append(append([]string{}, asUser...), args...)
		c := exec.Command(full[0], full[1:]...)
		out, err := c.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %w\n%s", args, err, out)
		}
		return nil
	}
	data := filepath.Join(dir, "data")
	if err := run(initdb, "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C.UTF-8"); err != nil {
		return "", err
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_parallel_workers_per_gather=0", port, dir)
	if err := run(pgctl, "-D", data, "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "start"); err != nil {
		return "", err
	}
	cleanups = append(cleanups, func() {
		_ = run(pgctl, "-D", data, "-m", "immediate", "stop")
		_ = os.RemoveAll(dir)
	})
	url := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := pgx.Connect(context.Background(), url)
		if err == nil {
			c.Close(context.Background())
			return url, nil
		}
		if time.Now().After(deadline) {
			return "", err
		}
		time.Sleep(100 * time.Millisecond)
	}
}
