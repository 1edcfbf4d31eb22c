-- name: IssueRefreshToken :one
-- IssueRefreshToken stores a refresh token's digest in its family (a new
-- family when family_id is NULL).
INSERT INTO refresh_tokens (family_id, user_id, brand, token_hash, expires_at)
VALUES (COALESCE(sqlc.narg(family_id)::uuid, gen_random_uuid()), @user_id, @brand, @token_hash, @expires_at)
RETURNING id;

-- name: LockRefreshToken :one
-- LockRefreshToken reads a refresh token by its digest, locked until the
-- transaction ends (its rotation).
SELECT id, family_id, user_id, brand, expires_at, rotated_at, revoked_at, successor_id
FROM refresh_tokens WHERE token_hash = @token_hash FOR UPDATE;

-- name: RefreshTokenLive :one
-- RefreshTokenLive reports whether a token is neither rotated, revoked nor expired at now.
SELECT (rotated_at IS NULL AND revoked_at IS NULL AND expires_at > @now::timestamptz)::boolean AS live
FROM refresh_tokens WHERE id = @id;

-- name: RotateRefreshToken :exec
-- RotateRefreshToken ends a token's use, naming its successor.
UPDATE refresh_tokens SET rotated_at = @rotated_at::timestamptz, successor_id = @successor_id::uuid WHERE id = @id;

-- name: RevokeTokenFamily :exec
-- RevokeTokenFamily ends every live token of the family of the token with
-- this digest (a logout, or a rotated token used again).
UPDATE refresh_tokens SET revoked_at = COALESCE(sqlc.narg(at)::timestamptz, now())
WHERE family_id = (SELECT f.family_id FROM refresh_tokens f WHERE f.token_hash = @token_hash) AND revoked_at IS NULL;

-- name: RevokeUserTokens :exec
-- RevokeUserTokens ends every live session of the user.
UPDATE refresh_tokens SET revoked_at = COALESCE(sqlc.narg(at)::timestamptz, now())
WHERE user_id = @user_id AND revoked_at IS NULL;

-- name: CreatePasswordLink :exec
-- CreatePasswordLink stores the digest of a single-use set-password link:
-- purpose 'reset' (Esqueci minha senha) or 'invite' (a new user's first password).
INSERT INTO password_resets (token_hash, user_id, brand, expires_at, purpose)
VALUES (@token_hash, @user_id, @brand, @expires_at, @purpose);

-- name: UsePasswordLink :one
-- UsePasswordLink spends a live set-password link, answering its user and brand.
UPDATE password_resets r SET used_at = @now::timestamptz
FROM users u
WHERE u.id = r.user_id AND r.token_hash = @token_hash AND r.used_at IS NULL AND r.expires_at > @now
RETURNING r.user_id, u.email, r.brand;

-- name: PasswordLinkUsable :one
-- PasswordLinkUsable reports whether a set-password link is known, unused and unexpired at now.
SELECT EXISTS (SELECT 1 FROM password_resets
    WHERE token_hash = @token_hash AND used_at IS NULL AND expires_at > @now);

-- name: VoidPasswordLinks :exec
-- VoidPasswordLinks spends the user's pending set-password links.
UPDATE password_resets SET used_at = COALESCE(sqlc.narg(at)::timestamptz, now())
WHERE user_id = @user_id AND used_at IS NULL;

-- name: PruneRefreshTokens :execrows
-- PruneRefreshTokens deletes the tokens expired at now or revoked before revoked_before.
DELETE FROM refresh_tokens WHERE expires_at <= @now OR revoked_at <= @revoked_before::timestamptz;

-- name: PrunePasswordLinks :execrows
-- PrunePasswordLinks deletes the links expired or used at now.
DELETE FROM password_resets WHERE expires_at <= @now OR used_at <= @now;
