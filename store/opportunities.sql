-- name: RegisterOpportunity :one
-- RegisterOpportunity stores a new registration in analysis, once per id,
-- with the other open registrations of the same customer at the brand (its
-- conflicts) and the history row of its creation: one statement, one
-- transaction. It answers 1 when it stored the row, 0 when the id was stored
-- already (a retry).
WITH ins AS (
    INSERT INTO opportunities (id, brand, status, name, cnpj, contact, phone, email, network,
        fantasy_name, corporate_name, street, state, city, cep, country, probability_closing, seller,
        seller_salesforce_id, estimated, accepted_term, user_id, resale_id, projects, products, created_at, updated_at, conflicts,
        cnpj_root, name_key)
    VALUES (@id::uuid, @brand::text, 'analysis', @name, @cnpj::text, @contact, @phone, @email, @network,
        @fantasy_name, @corporate_name, @street, @state, @city, @cep, @country, @probability_closing, @seller,
        @seller_salesforce_id, @estimated::numeric, @accepted_term, @user_id::uuid, sqlc.narg(resale_id)::uuid, @projects, @products,
        @created_at::timestamptz, @created_at::timestamptz,
        ARRAY(SELECT o.id FROM opportunities o WHERE o.brand = @brand::text AND o.cnpj = @cnpj::text AND o.id <> @id::uuid
            AND o.status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation') ORDER BY o.created_at),
        @cnpj_root::text, @name_key::text)
    ON CONFLICT (id) DO NOTHING
    RETURNING id),
hist AS (
    INSERT INTO history (event_key, type, type_id, brand, user_id, username, action_type, modifications, created_at)
    SELECT @event_key::text, 'opportunity', ins.id, @brand::text, @user_id::uuid, @username::text, 'create', @modifications::jsonb,
        @created_at::timestamptz
    FROM ins
    ON CONFLICT (event_key) DO NOTHING)
SELECT count(*)::int FROM ins;

-- name: LoadOpportunity :one
-- LoadOpportunity reads an opportunity with its owner's name and e-mail and its reseller's name.
SELECT o.id, o.brand, o.status, o.name, o.cnpj, o.contact, o.phone, o.email, o.network,
    o.fantasy_name, o.corporate_name, o.street, o.state, o.city, o.cep, o.country, o.probability_closing, o.seller,
    o.seller_salesforce_id, o.estimated::text AS estimated, o.register, o.reason, o.accepted_term, o.approve_date, o.valid_until,
    o.renovation_date, o.request_renovation_at, o.last_visit_date, o.project_still_in_scope,
    o.proposal_sent, o.product_homologated, o.next_step, o.user_id,
    u.name AS user_name, u.email AS user_email, o.resale_id, s.corporate_name AS resale, o.conflicts, o.is_deleted,
    o.created_at, o.projects, o.products
FROM opportunities o JOIN users u ON u.id = o.user_id LEFT JOIN resales s ON s.id = o.resale_id
WHERE o.id = @id;

-- name: OpportunityFacts :one
-- OpportunityFacts reads the stored state of an opportunity a workflow
-- adopts (ids, status and dates, no personal data), with the highest event
-- key (id/cycle/seq) its history holds.
SELECT o.id, o.status, o.name, o.probability_closing, o.register, o.user_id,
    o.resale_id, s.cnpj AS resale_cnpj, o.created_at, o.valid_until, o.request_renovation_at,
    o.project_still_in_scope, o.last_visit_date, o.conflicts,
    COALESCE(k.cycle, 0)::int AS cycle, COALESCE(k.seq, 1)::int AS seq
FROM opportunities o LEFT JOIN resales s ON s.id = o.resale_id
LEFT JOIN LATERAL (
    SELECT split_part(h.event_key, '/', 2)::int AS cycle, split_part(h.event_key, '/', 3)::int AS seq
    FROM history h WHERE h.type = 'opportunity' AND h.type_id = o.id AND h.event_key ~ ('^' || o.id::text || '/[0-9]+/[0-9]+$')
    ORDER BY 1 DESC, 2 DESC LIMIT 1) k ON true
WHERE o.id = @id;

-- name: ApplyEvent :one
-- ApplyEvent applies an event to the read model and writes its history row,
-- once per key, in one statement: unless the key is recorded (prior: its
-- changes) or the decision's Idempotency-Key is (used), it updates the row
-- (the NULL values leave their column as it is), records the history row and
-- the key's outcome. updated is 0 when nothing was applied.
WITH prior AS (SELECT h.modifications FROM history h WHERE h.event_key = @event_key::text),
used AS (SELECT 1 FROM idempotency_keys k WHERE k.user_id = sqlc.narg(idem_user)::uuid AND k.key = sqlc.narg(idem_key)::text),
upd AS (
    UPDATE opportunities SET status = @status::text,
        name = COALESCE(sqlc.narg(name)::text, name),
        probability_closing = COALESCE(sqlc.narg(probability)::int, probability_closing),
        reason = COALESCE(sqlc.narg(reason)::text, reason),
        approve_date = COALESCE(sqlc.narg(approved_at)::timestamptz, approve_date),
        valid_until = COALESCE(sqlc.narg(valid_until)::timestamptz, valid_until),
        register = COALESCE(sqlc.narg(register)::text, register),
        project_still_in_scope = COALESCE(sqlc.narg(project_still_in_scope)::text, project_still_in_scope),
        last_visit_date = COALESCE(sqlc.narg(last_visit_date)::text, last_visit_date),
        request_renovation_at = COALESCE(sqlc.narg(requested_at)::timestamptz, request_renovation_at),
        renovation_date = CASE WHEN @status::text = 'renovation' THEN @at::timestamptz ELSE renovation_date END,
        is_deleted = COALESCE(sqlc.narg(deleted)::boolean, is_deleted),
        proposal_sent = COALESCE(sqlc.narg(proposal_sent)::text, proposal_sent),
        product_homologated = COALESCE(sqlc.narg(product_homologated)::text, product_homologated),
        next_step = COALESCE(sqlc.narg(next_step)::text, next_step),
        updated_at = @at::timestamptz
    WHERE id = @id::uuid AND NOT EXISTS (SELECT 1 FROM prior) AND NOT EXISTS (SELECT 1 FROM used)
    RETURNING id),
hist AS (
    INSERT INTO history (event_key, type, type_id, brand, user_id, username, action_type, modifications, created_at)
    SELECT @event_key::text, 'opportunity', upd.id, @brand::text, sqlc.narg(user_id)::uuid, @username::text, 'update',
        @modifications::jsonb, @at::timestamptz
    FROM upd
    ON CONFLICT (event_key) DO NOTHING),
idem AS (
    -- No ON CONFLICT: a key taken meanwhile by a concurrent statement
    -- fails this one whole (retried, it then finds the key used).
    INSERT INTO idempotency_keys (user_id, key, opportunity_id, action, status, message, created_at)
    SELECT sqlc.narg(idem_user)::uuid, sqlc.narg(idem_key)::text, upd.id, sqlc.narg(idem_action)::text,
        sqlc.narg(idem_status)::int, sqlc.narg(idem_message)::text, @at::timestamptz
    FROM upd WHERE sqlc.narg(idem_key)::text IS NOT NULL)
SELECT (SELECT p.modifications FROM prior p)::jsonb AS recorded, (SELECT count(*) FROM upd)::int AS updated,
    EXISTS (SELECT 1 FROM used) AS key_used;

-- name: LockOpportunityState :one
-- LockOpportunityState reads the fields a repair compares, locked until the transaction ends.
SELECT status, name, probability_closing, register, valid_until, approve_date
FROM opportunities WHERE id = @id FOR UPDATE;

-- name: RestoreOpportunity :exec
-- RestoreOpportunity writes the workflow's state back to a row that diverged
-- from it (valid_until and approve_date: NULL leaves them).
UPDATE opportunities SET status = @status, name = @name, probability_closing = @probability, register = @register,
    valid_until = COALESCE(sqlc.narg(valid_until)::timestamptz, valid_until),
    approve_date = COALESCE(sqlc.narg(approved_at)::timestamptz, approve_date), updated_at = @at
WHERE id = @id;

-- name: OpenOpportunities :many
-- OpenOpportunities keeps, of the given ids, the opportunities whose status
-- is one of the given and that are not deleted, oldest first.
SELECT id FROM opportunities WHERE id = ANY(@ids::uuid[]) AND status = ANY(@statuses::text[]) AND NOT is_deleted
ORDER BY created_at;

-- name: OpportunityBrand :one
-- OpportunityBrand reads an opportunity's brand and whether it is deleted.
SELECT brand, is_deleted FROM opportunities WHERE id = @id;

-- name: OpportunityExists :one
-- OpportunityExists reports whether an opportunity is stored under the id.
SELECT EXISTS (SELECT 1 FROM opportunities WHERE id = @id);

-- name: OpportunityNames :many
-- OpportunityNames finds the brand's opportunities, not deleted, whose name
-- contains the pattern (ILIKE), that the caller may see: staff all, a
-- reseller its company's, a seller its own; newest first.
SELECT id, name, status FROM opportunities
WHERE brand = @brand AND NOT is_deleted AND name ILIKE @pattern
    AND (@staff::boolean OR (@reseller::boolean AND resale_id = sqlc.narg(resale_id)::uuid)
        OR (@seller::boolean AND user_id = @user_id::uuid))
ORDER BY created_at DESC LIMIT 20;

-- name: HeldInCRM :many
-- HeldInCRM reads, of the given ids, the opportunities a CRM record holds
-- (register set): the local CRM stand-in's lookup.
SELECT id, status, name, probability_closing, register
FROM opportunities WHERE id = ANY(@ids::uuid[]) AND register <> '';

-- name: OpportunitiesByStatus :many
-- OpportunitiesByStatus counts the opportunities per brand and status.
SELECT brand, status, count(*)::int AS n FROM opportunities GROUP BY brand, status;

-- name: OverdueInAnalysis :many
-- OverdueInAnalysis counts, per brand, the opportunities and the sign-ups in
-- analysis for longer than the SLA.
SELECT brand, @opportunity_kind::text AS kind, count(*)::int AS n FROM opportunities
WHERE status = 'analysis' AND created_at <= now() - make_interval(secs => @sla_seconds::float8) GROUP BY brand
UNION ALL
SELECT brand, @resale_kind::text AS kind, count(*)::int AS n FROM resales
WHERE status = 'analysis' AND created_at <= now() - make_interval(secs => @sla_seconds::float8) GROUP BY brand;

-- name: ReconcilePage :many
-- ReconcilePage is a page of the opportunities the reconciler checks, by id
-- after the given one: open ones, and expired ones changed since expired_since,
-- not deleted.
SELECT id, brand, status, name, probability_closing, register, valid_until, updated_at
FROM opportunities
WHERE status = ANY(@statuses::text[]) AND id > @after::uuid AND (status <> 'expired' OR updated_at > @expired_since)
    AND NOT is_deleted
ORDER BY id LIMIT @max_rows::int;

-- name: RecordedValidity :one
-- RecordedValidity reads an opportunity's recorded approval time and validity.
SELECT approve_date, valid_until FROM opportunities WHERE id = @id;
