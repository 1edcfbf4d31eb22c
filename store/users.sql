-- name: UserActive :one
-- UserActive reads whether a user is active.
SELECT active FROM users WHERE id = @id;

-- name: UserByEmail :one
-- UserByEmail reads a user by e-mail (given in lower case).
SELECT id, name, email, phone, doc, password_hash, active FROM users WHERE lower(email) = @email::text;

-- name: UserByID :one
-- UserByID reads a user.
SELECT id, name, email, phone, doc, password_hash, active FROM users WHERE id = @id;

-- name: UserNameActive :one
-- UserNameActive reads a user's name and whether it is active.
SELECT name, active FROM users WHERE id = @id;

-- name: RoleGrants :many
-- RoleGrants lists a user's roles with their brands ('all': every brand).
SELECT role, brand FROM user_roles WHERE user_id = @user_id ORDER BY role, brand;

-- name: SetPasswordHash :execrows
-- SetPasswordHash stores a user's new password hash.
UPDATE users SET password_hash = @password_hash, updated_at = now() WHERE id = @id;

-- name: SameCompany :one
-- SameCompany reports whether two users belong to the same reseller company.
SELECT EXISTS (SELECT 1 FROM users a JOIN users b ON a.resale_id = b.resale_id WHERE a.id = @user_a AND b.id = @user_b);

-- name: ActiveUserCompany :one
-- ActiveUserCompany reads an active user's company and its CNPJ (NULL
-- without one); no row for an inactive or unknown user.
SELECT u.resale_id, s.cnpj FROM users u LEFT JOIN resales s ON s.id = u.resale_id
WHERE u.id = @id AND u.active;

-- name: LockEmail :exec
-- LockEmail serialises, until the transaction ends, every transaction that
-- checks and then claims the e-mail (given in lower case).
SELECT pg_advisory_xact_lock(hashtextextended('email:' || @email::text, 0));

-- name: EmailTaken :one
-- EmailTaken reports whether a user, or a company other than except_resale
-- (empty: none), has the e-mail (given in lower case).
SELECT (EXISTS (SELECT 1 FROM users WHERE lower(email) = @email::text)
    OR EXISTS (SELECT 1 FROM resales WHERE lower(email) = @email::text AND id::text <> @except_resale::text))::boolean AS taken;

-- name: EmailExists :one
-- EmailExists reports whether a user has the e-mail (given in lower case).
SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = @email::text);

-- name: CreateUser :one
-- CreateUser adds a user (password_hash empty: an invitation sets it).
INSERT INTO users (name, email, phone, password_hash, resale_id, created_at, updated_at)
VALUES (@name, @email, @phone, @password_hash, sqlc.narg(resale_id), @created_at, @created_at)
RETURNING id;

-- name: GrantRole :exec
-- GrantRole gives a user a role at a brand (once).
INSERT INTO user_roles (user_id, role, brand) VALUES (@user_id, @role, @brand) ON CONFLICT DO NOTHING;

-- name: UserCompany :one
-- UserCompany reads an active user's company (NULL: none).
SELECT resale_id FROM users WHERE id = @id AND active;

-- name: LockBrandUser :one
-- LockBrandUser reads, locked until the transaction ends, a user holding a
-- role at the brand: its company, whether it is active (and since when it is
-- not) and whether it is a SELLER there.
SELECT u.resale_id, u.active, u.deactivated_at,
    EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role = 'SELLER' AND ur.brand = @brand) AS seller
FROM users u
WHERE u.id = @id AND EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.brand = @brand)
FOR UPDATE OF u;

-- name: DeactivateUser :exec
-- DeactivateUser keeps the user and its records but no longer lets it sign
-- in; its company may undo it for a while (RestoreUser).
UPDATE users SET active = false, deactivated_at = @at::timestamptz, updated_at = @at::timestamptz WHERE id = @id;

-- name: RestoreUser :exec
-- RestoreUser undoes a deactivation: the user signs in again.
UPDATE users SET active = true, deactivated_at = NULL, updated_at = @at WHERE id = @id;

-- name: ActorByEmail :one
-- ActorByEmail reads a user's id, name and company by e-mail (lower case).
SELECT id, name, resale_id FROM users WHERE lower(email) = @email::text;

-- name: CompanyResaleUser :one
-- CompanyResaleUser is the first RESALE user of a company at the brand.
SELECT u.id FROM users u JOIN user_roles r ON r.user_id = u.id
WHERE u.resale_id = @resale_id::uuid AND r.role = 'RESALE' AND r.brand = @brand
ORDER BY u.created_at LIMIT 1;

-- name: CompanyUserByEmail :one
-- CompanyUserByEmail is the RESALE user of a company at the brand with the e-mail.
SELECT u.id FROM users u JOIN user_roles r ON r.user_id = u.id
WHERE u.resale_id = @resale_id::uuid AND r.role = 'RESALE' AND r.brand = @brand AND lower(u.email) = lower(@email);

-- name: BrandSellers :many
-- BrandSellers lists the brand's active SELLER users with their company, by name.
SELECT u.name, u.id, COALESCE(s.corporate_name, '')::text AS resale
FROM users u JOIN user_roles r ON r.user_id = u.id AND r.role = 'SELLER' AND r.brand IN (@brand, 'all')
LEFT JOIN resales s ON s.id = u.resale_id
WHERE u.active ORDER BY u.name;

-- name: MayReadUser :one
-- MayReadUser reports whether a caller may read a user holding a role at the
-- brand: staff, the user itself, or a RESALE user of the user's company.
SELECT EXISTS (SELECT 1 FROM users u JOIN user_roles ur ON ur.user_id = u.id
    WHERE u.id = @id AND ur.brand IN (@brand::text, 'all')
        AND (@staff::boolean OR u.id = @user_id::uuid
            OR (@reseller::boolean AND u.resale_id = (SELECT c.resale_id FROM users c WHERE c.id = @user_id::uuid))));
