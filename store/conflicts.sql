-- Conflicts (docs/deal-desk.md, "Conflicts"): the other open registrations
-- (analysis, approved, renovation, awaiting_renovation; not deleted) of the
-- same customer at the brand. Each branch of the lookups stays on its partial
-- index of migrations/0018_conflict_keys.sql: the status list is written out
-- as the index's predicate is.

-- name: OpportunityConflicts :many
-- OpportunityConflicts lists the open registrations of the same CNPJ root or
-- the same normalised company name as the opportunity, other than itself,
-- with the strongest reason (same CNPJ, same root, same name), oldest first.
WITH me AS (SELECT brand, cnpj, cnpj_root, name_key FROM opportunities WHERE id = @id::uuid),
found AS (
    SELECT o.id FROM opportunities o, me
    WHERE o.brand = me.brand AND o.cnpj_root = me.cnpj_root AND me.cnpj_root <> ''
        AND o.status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation') AND NOT o.is_deleted
    UNION
    SELECT o.id FROM opportunities o, me
    WHERE o.brand = me.brand AND o.name_key = me.name_key AND me.name_key <> '' AND o.name_key <> ''
        AND o.status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation') AND NOT o.is_deleted)
SELECT o.id, (CASE WHEN o.cnpj = me.cnpj THEN 'cnpj' WHEN o.cnpj_root = me.cnpj_root THEN 'cnpj_root' ELSE 'name' END)::text AS kind,
    o.cnpj, o.corporate_name, s.corporate_name AS resale, o.status, o.created_at, o.approve_date,
    o.estimated::text AS estimated, o.products
FROM found f JOIN opportunities o ON o.id = f.id CROSS JOIN me LEFT JOIN resales s ON s.id = o.resale_id
WHERE o.id <> @id::uuid
ORDER BY o.created_at, o.id
LIMIT 50;

-- name: EarlierRootConflicts :many
-- EarlierRootConflicts lists the open registrations of the same CNPJ root at
-- the brand registered before the opportunity (created_at, then id): the
-- ones whose approval wins over its approval. Oldest first.
SELECT o.id, o.status
FROM opportunities me JOIN opportunities o ON o.brand = me.brand AND o.cnpj_root = me.cnpj_root
WHERE me.id = @id::uuid AND me.cnpj_root <> '' AND o.id <> me.id
    AND o.status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation') AND NOT o.is_deleted
    AND (o.created_at, o.id) < (me.created_at, me.id)
ORDER BY o.created_at, o.id
LIMIT 20;

-- name: ConflictNameKey :one
-- ConflictNameKey is the database's normalised company name (the SQL twin of
-- opportunity.NameKey, which the tests compare it with).
SELECT conflict_name_key(@name::text)::text;
