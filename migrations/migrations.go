// Package migrations holds the database schema as plain SQL files, applied in
// name order by Apply.
package migrations

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed *.sql
var files embed.FS

// lockKey serialises concurrent migrators (several API replicas starting at once).
const lockKey = 0x6f706f7274756e61 // "oportuna"

// Apply runs every migration not yet recorded in schema_migrations, each in its
// own transaction, and returns the names it applied.
func Apply(ctx context.Context, pool *pgxpool.Pool) ([]string, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrations: acquire: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(lockKey)); err != nil {
		return nil, fmt.Errorf("migrations: lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(lockKey)) //nolint:errcheck
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return nil, fmt.Errorf("migrations: create table: %w", err)
	}
	rows, _ := conn.Query(ctx, `SELECT name FROM schema_migrations`)
	done, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("migrations: read applied: %w", err)
	}
	applied := map[string]bool{}
	for _, n := range done {
		applied[n] = true
	}
	names, err := Names()
	if err != nil {
		return nil, err
	}
	var ran []string
	for _, name := range names {
		if applied[name] {
			continue
		}
		sql, err := files.ReadFile(name)
		if err != nil {
			return ran, err
		}
		err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, string(sql)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (name) VALUES ($1)`, name)
			return err
		})
		if err != nil {
			return ran, fmt.Errorf("migrations: %s: %w", name, err)
		}
		ran = append(ran, name)
	}
	return ran, nil
}

// Names lists the embedded migration files in the order they apply.
func Names() ([]string, error) {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}
