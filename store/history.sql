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
