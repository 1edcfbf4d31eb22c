-- name: LockRateBucket :exec
-- LockRateBucket serialises, until the transaction ends, every count of the
-- bucket (a window's key, or a backoff's 'rate-backoff:' key) across replicas.
SELECT pg_advisory_xact_lock(hashtextextended(@lock_key::text, 0));

-- name: ForgetRateHits :exec
-- ForgetRateHits deletes a window bucket's hits that left the window.
DELETE FROM rate_hits WHERE bucket = @bucket AND at <= @before;

-- name: CountRateHits :one
-- CountRateHits counts a window bucket's hits and finds its oldest (the
-- epoch when it has none).
SELECT count(*)::int AS hits, COALESCE(min(at), 'epoch')::timestamptz AS oldest FROM rate_hits WHERE bucket = @bucket;

-- name: AddRateHit :exec
-- AddRateHit counts an event of a window bucket until it leaves the window.
INSERT INTO rate_hits (bucket, at, expires_at) VALUES (@bucket, @at, @expires_at);

-- name: RateFailures :one
-- RateFailures reads a backoff key's failed attempts and lock.
SELECT failures, last_at, locked_until FROM rate_failures WHERE key = @key;

-- name: SaveRateFailures :exec
-- SaveRateFailures writes a backoff key's count and lock.
INSERT INTO rate_failures (key, failures, last_at, locked_until, forget_at)
VALUES (@key, @failures, @last_at, @locked_until, @forget_at)
ON CONFLICT (key) DO UPDATE SET failures = EXCLUDED.failures, last_at = EXCLUDED.last_at,
    locked_until = EXCLUDED.locked_until, forget_at = EXCLUDED.forget_at;

-- name: RateLockedUntil :one
-- RateLockedUntil reads when a backoff key's lock ends (NULL: none).
SELECT locked_until FROM rate_failures WHERE key = @key;

-- name: ClearRateFailures :exec
-- ClearRateFailures forgets a backoff key's attempts and lock.
DELETE FROM rate_failures WHERE key = @key;

-- name: PruneRateHits :execrows
-- PruneRateHits deletes the hits out of their window.
DELETE FROM rate_hits WHERE expires_at <= @now;

-- name: PruneRateFailures :execrows
-- PruneRateFailures deletes the counts past their forget time whose lock ended.
DELETE FROM rate_failures WHERE forget_at <= @now AND (locked_until IS NULL OR locked_until <= @now);
