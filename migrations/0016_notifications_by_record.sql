-- A decided record's notices are marked read for everyone who got them
-- (activities/notices_read.go): the unread ones are found by their key's
-- prefix, '<opportunity id>/' or 'resale/<id>/', byte-wise (text_pattern_ops),
-- whatever the database's collation.
CREATE INDEX notifications_unread_key_idx ON notifications (notice_key text_pattern_ops) WHERE read_at IS NULL;
