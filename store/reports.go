package store

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// ReportSettings are the session settings of the reports' queries (SET LOCAL):
// no JIT — compiling costs more than these short queries (measured with make
// bench when the by-product query read the products' JSON: ~50 ms of ~190 ms)
// — and enough memory for their sorts not to spill to disk.
var ReportSettings = []string{`SET LOCAL jit = off`, `SET LOCAL work_mem = '32MB'`}

// ReportTx runs the reports' queries in one read-only transaction (one
// snapshot: the figures of a report agree with each other) with ReportSettings.
func ReportTx(ctx context.Context, db interface {
	BeginTx(context.Context, pgx.TxOptions) (pgx.Tx, error)
}, fn func(q *Queries) error) error {
	return pgx.BeginTxFunc(ctx, db, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		for _, s := range ReportSettings {
			if _, err := tx.Exec(ctx, s); err != nil {
				return err
			}
		}
		return fn(New(tx))
	})
}
