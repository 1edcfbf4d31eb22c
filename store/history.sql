-- name: InsertHistory :one
-- InsertHistory writes one change of a record (type opportunity, resale or
-- user), once per event key (NULL: no key); no row when the key was recorded
-- already. The user is NULL when the system acted.
INSERT INTO history (event_key, type, type_id, brand, user_id, username, action_type, modifications, created_at)
VALUES (sqlc.narg(event_key), @type, @type_id, @brand, sqlc.narg(user_id), @username, @action_type, @modifications,
    COALESCE(sqlc.narg(created_at)::timestamptz, now()))
ON CONFLICT (event_key) DO NOTHING
RETURNING id;

-- name: HistoryRecorded :one
-- HistoryRecorded reports whether an event key is recorded.
SELECT EXISTS (SELECT 1 FROM history WHERE event_key = @event_key::text);

-- name: HistoryChanges :one
-- HistoryChanges reads the changes recorded under an event key.
SELECT modifications FROM history WHERE event_key = @event_key::text;

-- name: HistoryKind :one
-- HistoryKind reads the type of the record with the id at the brand, from its history.
SELECT type FROM history WHERE type_id = @type_id AND brand = @brand LIMIT 1;

-- name: CountHistory :one
-- CountHistory counts a record's history rows at the brand.
SELECT count(*)::int FROM history WHERE type_id = @type_id AND brand = @brand;

-- name: HistoryPage :many
-- HistoryPage is a page of a record's history at the brand, newest first.
SELECT id, type_id, type, user_id, username, action_type, modifications, created_at
FROM history WHERE type_id = @type_id AND brand = @brand
ORDER BY created_at DESC, id DESC LIMIT @max_rows::int OFFSET @skip::int;

-- name: VoidLostEvents :many
-- VoidLostEvents sets apart the events of an opportunity recorded after its
-- workflow's newest, (@cycle, @seq): a workflow task wrote them (a decision is
-- recorded inside the task that answers it, workflows/readmodel.go) and was
-- lost before the workflow took them. Their history rows stay, under their key
-- followed by @suffix (no workflow key ends so), so that the workflow's next
-- events can take their keys; their report facts and the Idempotency-Keys
-- recorded with them (same opportunity, same time) go, so the decision counts
-- nowhere and its repetition is decided anew. It returns the rows' ids.
WITH lost AS (
    UPDATE history h SET event_key = h.event_key || @suffix::text
    WHERE h.type = 'opportunity' AND h.type_id = @opportunity_id::uuid
        AND h.event_key ~ ('^' || h.type_id::text || '/[0-9]+/[0-9]+$')
        AND (split_part(h.event_key, '/', 2)::int, split_part(h.event_key, '/', 3)::int) > (@cycle::int, @seq::int)
    RETURNING h.id, h.created_at),
facts AS (DELETE FROM report_decisions f USING lost WHERE f.history_id = lost.id),
keys AS (DELETE FROM idempotency_keys k USING lost WHERE k.opportunity_id = @opportunity_id::uuid AND k.created_at = lost.created_at)
SELECT id FROM lost ORDER BY id;

-- name: LatestWorkflowEventKey :one
-- LatestWorkflowEventKey reads the highest key (id/cycle/seq) of the events a
-- workflow recorded for an opportunity (the keys OpportunityFacts and
-- VoidLostEvents read as a workflow's too).
SELECT event_key::text FROM history
WHERE type = 'opportunity' AND type_id = @type_id AND event_key ~ ('^' || type_id::text || '/[0-9]+/[0-9]+$')
ORDER BY split_part(event_key, '/', 2)::int DESC, split_part(event_key, '/', 3)::int DESC LIMIT 1;
