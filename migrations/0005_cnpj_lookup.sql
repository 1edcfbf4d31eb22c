-- CNPJ lookup: the providers' answers cached with an expiry, and the callers'
-- recent lookups for the limit of 3 per minute shared by every API replica.

CREATE TABLE cnpj_cache (
    cnpj       text PRIMARY KEY CHECK (cnpj ~ '^[0-9A-Z]{12}[0-9]{2}$'),
    found      boolean NOT NULL,              -- false: the provider does not know it (kept briefly)
    company    jsonb,                         -- the lookup result when found
    provider   text NOT NULL,
    fetched_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX cnpj_cache_expires_idx ON cnpj_cache (expires_at);

-- One row per counted lookup; rows older than the window are deleted as callers
-- come back and by a periodic sweep. Unlogged: losing it in a crash only resets limits.
CREATE UNLOGGED TABLE cnpj_lookup_hits (
    caller text NOT NULL,                     -- 'user:<id>' or 'ip:<address>|<brand>'
    at     timestamptz NOT NULL
);
CREATE INDEX cnpj_lookup_hits_caller_idx ON cnpj_lookup_hits (caller, at);
CREATE INDEX cnpj_lookup_hits_at_idx ON cnpj_lookup_hits (at);
