// Package store holds every SQL statement on the portal's tables: the read
// model of the opportunities and its history, the resellers, the users and
// their roles, sessions and links, the notifications, the mail outbox, the
// rate limits, the idempotency keys, the CNPJ cache and the reconciliation's
// findings (docs/architecture.md, "The store").
//
// The static statements are in the .sql files, one per table group; sqlc
// generates their typed Go (the *.sql.go files, checked against migrations/)
// with `make sqlc`. The lists whose filters and sort a request chooses are
// built here by hand (lists.go), on the same Queries.
//
// A Queries runs on a pool, a connection or a transaction (New, Tx); Batch
// sends several statements in one round trip.
package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Tx runs fn in one transaction on db (a pool, a connection, or a transaction:
// then a savepoint), committed when fn returns nil.
func Tx(ctx context.Context, db interface {
	Begin(context.Context) (pgx.Tx, error)
}, fn func(q *Queries) error) error {
	return pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error { return fn(New(tx)) })
}

// IsUniqueViolation reports a unique constraint's refusal (23505).
func IsUniqueViolation(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "23505"
}

// ConstraintOf names the constraint an error broke (empty: none).
func ConstraintOf(err error) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.ConstraintName
	}
	return ""
}

// IsBadUUID reports a text that is not a UUID where one is expected
// (invalid_text_representation): no such row, not a failure.
func IsBadUUID(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "22P02"
}

// NilIfEmpty is a nullable text parameter: nil for "".
func NilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Deref is a nullable text column's value ("" for NULL).
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
