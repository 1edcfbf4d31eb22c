-- name: NotifyOpportunity :exec
-- NotifyOpportunity stores a notice about an opportunity for its recipients
-- (the brand's active representatives: the given ones, or all of them when
-- none is given or none of those is still an active representative; the
-- active owner), once per notice key and user, titled with the opportunity's
-- current name; nothing when the opportunity does not exist or an operator
-- cancelled it (is_deleted).
WITH reps AS (
    SELECT DISTINCT u.id FROM users u JOIN user_roles r ON r.user_id = u.id
    WHERE @to_representatives::boolean AND u.active AND r.role = 'REPRESENTATIVE' AND r.brand IN (@brand::text, 'all')),
assigned AS (SELECT id FROM reps WHERE id = ANY(@representative_ids::uuid[])),
recipients AS (
    SELECT id FROM assigned
    UNION
    SELECT id FROM reps WHERE NOT EXISTS (SELECT 1 FROM assigned)
    UNION
    SELECT u.id FROM users u JOIN opportunities o ON o.user_id = u.id
    WHERE @to_owner::boolean AND u.active AND o.id = @opportunity_id::uuid
)
INSERT INTO notifications (notice_key, user_id, brand, kind, title, link)
SELECT @notice_key::text, id, @brand::text, @kind::text,
    @title::text || COALESCE(NULLIF(': ' || (SELECT name FROM opportunities WHERE id = @opportunity_id::uuid), ': '), ''),
    @link::text
FROM recipients WHERE EXISTS (SELECT 1 FROM opportunities WHERE id = @opportunity_id::uuid AND NOT is_deleted)
ON CONFLICT (notice_key, user_id) DO NOTHING;

-- name: NotifyRepresentatives :exec
-- NotifyRepresentatives stores a notice for the brand's active
-- representatives, once per notice key and user.
INSERT INTO notifications (notice_key, user_id, brand, kind, title, link)
SELECT DISTINCT @notice_key::text, u.id, @brand::text, @kind::text, @title::text, @link::text
FROM users u JOIN user_roles ur ON ur.user_id = u.id
WHERE u.active AND ur.role = 'REPRESENTATIVE' AND ur.brand IN (@brand::text, 'all')
ON CONFLICT (notice_key, user_id) DO NOTHING;

-- name: NotifyCompanyUsers :exec
-- NotifyCompanyUsers stores, marked e-mailed (in-app only), a notice for a
-- company's active RESALE users at the brand, linked to their opportunities.
INSERT INTO notifications (notice_key, user_id, brand, kind, title, link, emailed_at)
SELECT @notice_key::text, u.id, @brand::text, @kind::text, @title::text, '/Painel/Opportunities', now()
FROM users u JOIN user_roles ur ON ur.user_id = u.id
WHERE u.resale_id = @resale_id::uuid AND u.active AND ur.role = 'RESALE' AND ur.brand = @brand::text
ON CONFLICT (notice_key, user_id) DO NOTHING;

-- name: NoticeRecipientsToEmail :many
-- NoticeRecipientsToEmail lists the active users a notice was stored for and
-- not e-mailed yet, by e-mail.
SELECT n.user_id, u.email, u.name FROM notifications n JOIN users u ON u.id = n.user_id
WHERE n.notice_key = @notice_key AND n.emailed_at IS NULL AND u.active ORDER BY u.email;

-- name: NoticeEmailed :exec
-- NoticeEmailed marks a user's notice e-mailed.
UPDATE notifications SET emailed_at = now() WHERE notice_key = @notice_key AND user_id = @user_id;

-- name: UnreadNotifications :one
-- UnreadNotifications counts the user's unread notices of the brand.
SELECT count(*)::int FROM notifications WHERE user_id = @user_id AND brand = @brand AND read_at IS NULL;

-- name: Notifications :many
-- Notifications lists the user's newest notices of the brand.
SELECT id, kind, title, link, created_at, read_at FROM notifications
WHERE user_id = @user_id AND brand = @brand ORDER BY created_at DESC, id DESC LIMIT @max_rows::int;

-- name: ReadNotification :execrows
-- ReadNotification marks one of the user's notices of the brand read (once: the first reading stays).
UPDATE notifications SET read_at = COALESCE(read_at, now()) WHERE id = @id AND user_id = @user_id AND brand = @brand;

-- name: ReadAllNotifications :execrows
-- ReadAllNotifications marks every unread notice of the user at the brand read.
UPDATE notifications SET read_at = now() WHERE user_id = @user_id AND brand = @brand AND read_at IS NULL;

-- name: ReadNoticesByKeyRange :exec
-- ReadNoticesByKeyRange marks read, at the given time, the unread notices
-- whose key is from the given one up to (not including) before: a record's
-- notices, by their key's prefix. The range on the byte-wise operators
-- (~>=~, ~<~) is what the text_pattern_ops index answers, with a parameter as
-- well as with a constant.
UPDATE notifications SET read_at = @at::timestamptz
WHERE read_at IS NULL AND notice_key ~>=~ @key_from::text AND notice_key ~<~ @key_before::text;
