package store

import (
	"context"
	"errors"
	"reflect"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Batch sends several statements in one round trip; PostgreSQL runs them in
// one implicit transaction (pgx.Conn.SendBatch). Each is queued by calling a
// generated method (Row, Rows, Exec): its statement and arguments are queued
// instead of sent, so a batch runs exactly the statements the methods run.
// Its callbacks run in the order the statements were queued.
type Batch struct{ b pgx.Batch }

// Send sends the queued statements on db (a pool, a connection or a
// transaction) and answers the first error the statements' callbacks
// answered.
func (b *Batch) Send(ctx context.Context, db interface {
	SendBatch(context.Context, *pgx.Batch) pgx.BatchResults
}) error {
	return db.SendBatch(ctx, &b.b).Close()
}

// Row queues a generated :one method's statement. When the batch is sent,
// then receives its row (scanned by position) or its error (pgx.ErrNoRows for
// no row), and answers the batch's error (nil: the batch goes on).
func Row[T any](b *Batch, call func(*Queries) (T, error), then func(T, error) error) {
	sql, args := Statement(func(q *Queries) error { _, err := call(q); return err })
	b.b.Queue(sql, args...).Query(func(rows pgx.Rows) error {
		return then(pgx.CollectExactlyOneRow(rows, rowTo[T]()))
	})
}

// Rows queues a generated :many method's statement; its rows go to dst.
func Rows[T any](b *Batch, dst *[]T, call func(*Queries) ([]T, error)) {
	sql, args := Statement(func(q *Queries) error { _, err := call(q); return err })
	b.b.Queue(sql, args...).Query(func(rows pgx.Rows) error {
		v, err := pgx.CollectRows(rows, rowTo[T]())
		if err == nil {
			*dst = v
		}
		return err
	})
}

// Exec queues a generated :exec method's statement.
func Exec(b *Batch, call func(*Queries) error) {
	sql, args := Statement(call)
	b.b.Queue(sql, args...)
}

// rowTo scans a row into T: a struct by position (a generated row type), or
// a single column.
func rowTo[T any]() pgx.RowToFunc[T] {
	if t := reflect.TypeFor[T](); t.Kind() == reflect.Struct && t != reflect.TypeFor[time.Time]() {
		return pgx.RowToStructByPos[T]
	}
	return pgx.RowTo[T]
}

// Statement is the statement and the arguments call's generated method sends
// (a batch queues them; a test reads its plan with EXPLAIN).
func Statement(call func(*Queries) error) (string, []any) {
	var c capture
	if err := call(New(&c)); !errors.Is(err, errCaptured) || c.sql == "" {
		panic("store: a batch's call must call one generated method of its Queries")
	}
	return c.sql, c.args
}

// capture is a DBTX that records the statement instead of running it.
type capture struct {
	sql  string
	args []any
}

var errCaptured = errors.New("store: statement captured for a batch")

func (c *capture) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	c.sql, c.args = sql, args
	return pgconn.CommandTag{}, errCaptured
}

func (c *capture) Query(_ context.Context, sql string, args ...any) (pgx.Rows, error) {
	c.sql, c.args = sql, args
	return nil, errCaptured
}

func (c *capture) QueryRow(_ context.Context, sql string, args ...any) pgx.Row {
	c.sql, c.args = sql, args
	return capturedRow{}
}

type capturedRow struct{}

func (capturedRow) Scan(...any) error { return errCaptured }
