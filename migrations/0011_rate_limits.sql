-- One rate limiter for every replica (internal/ratelimit), replacing the tables
-- of auth/formlimit (form_hits) and the CNPJ lookup limit (cnpj_lookup_hits).

-- Window limits: one row per counted event; expires_at is when it leaves its window.
CREATE UNLOGGED TABLE rate_hits (
    bucket     text NOT NULL,
    at         timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX rate_hits_bucket_idx ON rate_hits (bucket, at);
CREATE INDEX rate_hits_expires_idx ON rate_hits (expires_at);

-- Backoff limits (login, refresh, reset links): attempts per key and its lock.
-- Logged, so a crash or a fail-over does not lift the locks.
CREATE TABLE rate_failures (
    key          text PRIMARY KEY,
    failures     integer NOT NULL,
    last_at      timestamptz NOT NULL,
    locked_until timestamptz,
    forget_at    timestamptz NOT NULL
);
CREATE INDEX rate_failures_forget_idx ON rate_failures (forget_at);

-- form_hits and cnpj_lookup_hits, the old limiters' tables, stay until a later
-- release: during a rolling deploy the replicas still on the old version count
-- in them. Nothing reads them any more; a later migration drops them.

-- Refresh-token rotation remembers the successor, so that the just-rotated
-- token presented again within the grace window answers the same successor
-- (two tabs refreshing at once) instead of revoking the family.
ALTER TABLE refresh_tokens ADD COLUMN successor_id uuid;

-- Lookups by user and the pruning of expired rows use indexes.
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);
CREATE INDEX refresh_tokens_expires_idx ON refresh_tokens (expires_at);
CREATE INDEX password_resets_expires_idx ON password_resets (expires_at);
