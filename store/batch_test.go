package store_test

import (
	"context"
	"strings"
	"testing"

	"oportuna/store"
)

// A batch queues exactly the statement and arguments a generated method sends.
func TestStatementIsTheGeneratedMethods(t *testing.T) {
	sql, args := store.Statement(func(q *store.Queries) error {
		_, err := q.IdempotencyKey(context.Background(), store.IdempotencyKeyParams{UserID: "u", Key: "k"})
		return err
	})
	if !strings.Contains(sql, "FROM idempotency_keys WHERE user_id = $1 AND key = $2") || len(args) != 2 || args[0] != "u" || args[1] != "k" {
		t.Errorf("statement %q %v", sql, args)
	}
	defer func() {
		if recover() == nil {
			t.Error("a call that runs no generated method was queued")
		}
	}()
	store.Statement(func(*store.Queries) error { return nil })
}
