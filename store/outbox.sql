-- name: RecordMail :exec
-- RecordMail stores an e-mail as pending, once per key: a key already
-- recorded keeps its first message.
INSERT INTO mail_outbox (key, brand, recipients, reply_to, subject, html, text)
VALUES (@key, @brand, @recipients, @reply_to, @subject, @html, @text)
ON CONFLICT (key) DO NOTHING;

-- name: RenewMailLease :execrows
-- RenewMailLease extends the lease of a running attempt (none when another
-- attempt took the e-mail since).
UPDATE mail_outbox SET lease_until = now() + make_interval(secs => @lease_seconds::float8)
WHERE key = @key AND status = 'sending' AND attempts = @attempt;

-- name: StoreMail :execrows
-- StoreMail marks an undelivered e-mail stored: no SMTP server is configured
-- (the dev mailbox shows it).
UPDATE mail_outbox SET status = 'stored', lease_until = NULL
WHERE key = @key AND status IN ('pending', 'failed');

-- name: ClaimMail :one
-- ClaimMail takes an e-mail for an attempt (pending, failed, or sending under
-- an ended lease), counting the attempt and leasing it.
UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1,
    lease_until = now() + make_interval(secs => @lease_seconds::float8)
WHERE key = @key AND (status IN ('pending', 'failed') OR (status = 'sending' AND lease_until < now()))
RETURNING key, brand, recipients, reply_to, subject, html, text, attempts;

-- name: MarkMailSent :exec
-- MarkMailSent records that the SMTP server took the e-mail (note: the
-- recipients it refused).
UPDATE mail_outbox SET status = 'sent', sent_at = now(), last_error = @note, lease_until = NULL
WHERE key = @key;

-- name: MarkMailFailed :exec
-- MarkMailFailed records a failed attempt; the e-mail's workflow retries it.
UPDATE mail_outbox SET status = 'failed', last_error = @error, lease_until = NULL
WHERE key = @key;

-- name: MarkMailNotStarted :exec
-- MarkMailNotStarted marks failed a recorded e-mail whose delivery could not
-- be started; a delivery started later still sends it.
UPDATE mail_outbox SET status = 'failed', last_error = @error, lease_until = NULL
WHERE key = @key AND status = 'pending';

-- name: MailStatus :one
-- MailStatus is a recorded e-mail's status.
SELECT status FROM mail_outbox WHERE key = @key;

-- name: MailRecorded :one
-- MailRecorded reports whether an e-mail is recorded under the key.
SELECT EXISTS (SELECT 1 FROM mail_outbox WHERE key = @key);

-- name: ListMail :many
-- ListMail reads the outbox, newest first; a recipient (exact address, lower
-- case) keeps its e-mails only.
SELECT * FROM mail_outbox
WHERE (@recipient::text = '' OR recipients @> ARRAY[@recipient::text])
ORDER BY created_at DESC, id DESC
LIMIT @max_rows::int;

-- name: GetMail :one
-- GetMail reads one e-mail of the outbox.
SELECT * FROM mail_outbox WHERE id = @id;
