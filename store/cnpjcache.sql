-- name: CachedCNPJ :one
-- CachedCNPJ reads a provider's cached answer for a CNPJ.
SELECT found, company, expires_at FROM cnpj_cache WHERE cnpj = @cnpj;

-- name: CacheCNPJ :exec
-- CacheCNPJ stores a provider's answer (company: NULL when not found) until expires_at.
INSERT INTO cnpj_cache (cnpj, found, company, provider, fetched_at, expires_at)
VALUES (@cnpj, @found, @company, @provider, @fetched_at, @expires_at)
ON CONFLICT (cnpj) DO UPDATE SET found = EXCLUDED.found, company = EXCLUDED.company,
    provider = EXCLUDED.provider, fetched_at = EXCLUDED.fetched_at, expires_at = EXCLUDED.expires_at;

-- name: SweepCNPJCache :execrows
-- SweepCNPJCache deletes the expired answers.
DELETE FROM cnpj_cache WHERE expires_at <= @now;
