-- name: ResaleExists :one
-- ResaleExists reports whether a company is stored under the id.
SELECT EXISTS (SELECT 1 FROM resales WHERE id = @id);

-- name: ResaleCNPJTaken :one
-- ResaleCNPJTaken reports whether a company with the CNPJ is registered at the brand.
SELECT EXISTS (SELECT 1 FROM resales WHERE brand = @brand AND cnpj = @cnpj);

-- name: SignUpTaken :one
-- SignUpTaken reports whether a sign-up's CNPJ is registered at the brand,
-- and whether a user or a company has its e-mail (given in lower case).
SELECT EXISTS (SELECT 1 FROM resales r WHERE r.brand = @brand AND r.cnpj = @cnpj) AS cnpj_taken,
    (EXISTS (SELECT 1 FROM users u WHERE lower(u.email) = @email::text)
        OR EXISTS (SELECT 1 FROM resales e WHERE lower(e.email) = @email::text))::boolean AS email_taken;

-- name: CreateResale :exec
-- CreateResale stores a company's sign-up in analysis.
INSERT INTO resales (id, brand, status, corporate_name, fantasy_name, cnpj, phone, contact_name,
    email, cep, street, city, state, country, created_at, updated_at)
VALUES (@id, @brand, 'analysis', @corporate_name, @fantasy_name, @cnpj, @phone, @contact_name,
    @email, @cep, @street, @city, @state, @country, @created_at, @created_at);

-- name: ResaleFacts :one
-- ResaleFacts reads a company's ids and state (no personal data).
SELECT id, brand, status, cnpj, created_at FROM resales WHERE id = @id;

-- name: LockResaleContact :one
-- LockResaleContact reads a company of the brand, locked until the
-- transaction ends (its decision): its status and its contact.
SELECT status, contact_name, email, phone FROM resales WHERE id = @id AND brand = @brand FOR UPDATE;

-- name: DecideResale :exec
-- DecideResale records the decision on a company (decided_by NULL: nobody known).
UPDATE resales SET status = @status, reason = @reason, decided_at = @decided_at::timestamptz, decided_by = sqlc.narg(decided_by),
    updated_at = @decided_at::timestamptz
WHERE id = @id;

-- name: ResaleDecidedBy :one
-- ResaleDecidedBy reads a company's status and who decided it ('' while in
-- analysis, or when nobody known decided).
SELECT status, coalesce(decided_by::text, '')::text AS decided_by FROM resales WHERE id = @id AND brand = @brand;

-- name: ResaleMail :one
-- ResaleMail reads what a company's decision e-mail says.
SELECT corporate_name, contact_name, email, reason FROM resales WHERE id = @id;

-- name: GetResale :one
-- GetResale reads a company of the brand (its details screen, its notices).
SELECT id, status, corporate_name, fantasy_name, cnpj, phone, contact_name, email, cep, city, street, state, reason, created_at
FROM resales WHERE id = @id AND brand = @brand;

-- name: ResaleName :one
-- ResaleName reads a company's corporate name.
SELECT corporate_name FROM resales WHERE id = @id;

-- name: SeedResale :execrows
-- SeedResale stores an approved demo company, once per brand and CNPJ.
INSERT INTO resales (brand, status, corporate_name, fantasy_name, cnpj, phone, contact_name, email, cep, street, city, state)
VALUES (@brand, 'approved', @corporate_name, @fantasy_name, @cnpj, @phone, @contact_name, @email, @cep, @street, @city, @state)
ON CONFLICT (brand, cnpj) DO NOTHING;

-- name: ResaleByCNPJ :one
-- ResaleByCNPJ reads the id of the brand's company with the CNPJ.
SELECT id FROM resales WHERE brand = @brand AND cnpj = @cnpj;

-- name: ResalesInAnalysis :many
-- ResalesInAnalysis is a page of the sign-ups in analysis, by id after the given one.
SELECT id, brand, status FROM resales WHERE status = 'analysis' AND id > @after::uuid ORDER BY id LIMIT @max_rows::int;

-- name: MayReadResale :one
-- MayReadResale reports whether a caller may read the brand's company: staff,
-- or a RESALE user of the company itself.
SELECT EXISTS (SELECT 1 FROM resales r WHERE r.id = @id AND r.brand = @brand
    AND (@staff::boolean OR (@reseller::boolean AND r.id = (SELECT u.resale_id FROM users u WHERE u.id = @user_id::uuid))));
