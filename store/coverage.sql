-- name: BrandRepresentatives :many
-- BrandRepresentatives lists the brand's active REPRESENTATIVE users (a role
-- at the brand or at 'all') with the UFs and reseller accounts they cover, by
-- name (docs/deal-desk.md, "Routing").
SELECT u.id, u.name, u.email, COALESCE(c.states, '{}')::text[] AS states,
    COALESCE(c.resale_ids, '{}')::uuid[] AS resale_ids
FROM users u LEFT JOIN coverage c ON c.user_id = u.id AND c.brand = @brand::text
WHERE u.active AND EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'REPRESENTATIVE'
    AND r.brand IN (@brand::text, 'all'))
ORDER BY u.name, u.id;

-- name: IsBrandRepresentative :one
-- IsBrandRepresentative reports whether a user is an active representative of the brand.
SELECT EXISTS (SELECT 1 FROM users u JOIN user_roles r ON r.user_id = u.id
    WHERE u.id = @user_id::uuid AND u.active AND r.role = 'REPRESENTATIVE' AND r.brand IN (@brand::text, 'all'));

-- name: CountBrandRepresentatives :one
-- CountBrandRepresentatives counts how many of the users are active representatives of the brand.
SELECT count(DISTINCT u.id)::int FROM users u JOIN user_roles r ON r.user_id = u.id
WHERE u.id = ANY(@user_ids::uuid[]) AND u.active AND r.role = 'REPRESENTATIVE' AND r.brand IN (@brand::text, 'all');

-- name: CountBrandResales :one
-- CountBrandResales counts how many of the reseller companies are the brand's.
SELECT count(*)::int FROM resales WHERE id = ANY(@resale_ids::uuid[]) AND brand = @brand::text;

-- name: CoverageResales :many
-- CoverageResales lists the brand's approved reseller companies a coverage may
-- name, by name (the screen's picker).
SELECT id, corporate_name, cnpj FROM resales WHERE brand = @brand::text AND status = 'approved'
ORDER BY corporate_name, id LIMIT 2000;

-- name: LockCoverage :one
-- LockCoverage reads a representative's coverage at the brand (empty when none), locked until the transaction ends.
SELECT COALESCE((SELECT c.states FROM coverage c WHERE c.brand = @brand::text AND c.user_id = @user_id::uuid FOR UPDATE), '{}')::text[] AS states,
    COALESCE((SELECT c.resale_ids FROM coverage c WHERE c.brand = @brand::text AND c.user_id = @user_id::uuid), '{}')::uuid[] AS resale_ids;

-- name: SetCoverage :exec
-- SetCoverage writes a representative's coverage at the brand.
INSERT INTO coverage (brand, user_id, states, resale_ids, updated_at)
VALUES (@brand::text, @user_id::uuid, @states::text[], @resale_ids::uuid[], now())
ON CONFLICT (brand, user_id) DO UPDATE SET states = EXCLUDED.states, resale_ids = EXCLUDED.resale_ids, updated_at = now();

-- name: CoverageHistory :many
-- CoverageHistory is the newest changes of the coverage of the brand's
-- representatives (history rows keyed 'coverage/<brand>/...').
SELECT h.id, h.type_id, h.user_id, h.username, h.modifications, h.created_at
FROM history h
WHERE h.type = 'user' AND h.brand = @brand::text AND h.event_key LIKE 'coverage/%'
    AND h.type_id IN (SELECT r.user_id FROM user_roles r WHERE r.role = 'REPRESENTATIVE' AND r.brand IN (@brand::text, 'all'))
ORDER BY h.created_at DESC, h.id DESC LIMIT @max_rows::int;

-- name: AssignRepresentatives :one
-- AssignRepresentatives stores a registration's responsible representatives,
-- once: an opportunity that has them already keeps them (a retried
-- assignment). It answers the stored ones; no row when there is no such opportunity.
WITH upd AS (
    UPDATE opportunities SET representative_ids = @representative_ids::uuid[]
    WHERE id = @id::uuid AND cardinality(representative_ids) = 0
    RETURNING representative_ids)
SELECT COALESCE((SELECT u.representative_ids FROM upd u), o.representative_ids)::uuid[] AS representative_ids
FROM opportunities o WHERE o.id = @id::uuid;

-- name: OpportunityRouting :one
-- OpportunityRouting reads what routes an opportunity (its customer's UF, its
-- reseller account) and its responsible representatives' ids.
SELECT state, resale_id, representative_ids FROM opportunities WHERE id = @id::uuid;

-- name: RepresentativeRefs :many
-- RepresentativeRefs reads the id, name and e-mail of the users, by name.
SELECT id, name, email FROM users WHERE id = ANY(@ids::uuid[]) ORDER BY name, id;

-- name: SeedCoverage :exec
-- SeedCoverage gives a representative the demo coverage unless it has one.
INSERT INTO coverage (brand, user_id, states, resale_ids)
VALUES (@brand::text, @user_id::uuid, @states::text[], '{}')
ON CONFLICT (brand, user_id) DO NOTHING;
