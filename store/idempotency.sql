-- name: IdempotencyKey :one
-- IdempotencyKey reads the outcome recorded under a caller's Idempotency-Key
-- (docs/api.md, "Idempotency of decisions").
SELECT opportunity_id, action, status, message FROM idempotency_keys WHERE user_id = @user_id AND key = @key;

-- name: RecordIdempotencyKey :exec
-- RecordIdempotencyKey records the outcome of a decision that changed nothing
-- under its key (a decision that changes something records it with its
-- event: ApplyEvent), once.
INSERT INTO idempotency_keys (user_id, key, opportunity_id, action, status, message, created_at)
VALUES (@user_id, @key, @opportunity_id, @action, @status, @message, @created_at)
ON CONFLICT (user_id, key) DO NOTHING;

-- name: PruneIdempotencyKeys :execrows
-- PruneIdempotencyKeys deletes the keys recorded before the given time.
DELETE FROM idempotency_keys WHERE created_at <= @before;
