-- Mail: every e-mail the system sends is recorded in an outbox, once per key
-- (mailer/), and each in-app notification remembers whether its e-mail went out.

CREATE TABLE mail_outbox (
    id          bigserial PRIMARY KEY,
    key         text NOT NULL UNIQUE,                -- idempotency key: a second send of it delivers nothing
    brand       text NOT NULL,
    recipients  text[] NOT NULL CHECK (cardinality(recipients) > 0),
    reply_to    text NOT NULL DEFAULT '',
    subject     text NOT NULL,
    html        text NOT NULL DEFAULT '',
    text        text NOT NULL DEFAULT '',
    -- pending: recorded, not delivered yet; sending: an attempt holds it until lease_until;
    -- sent: the SMTP server accepted it; failed: the last attempt failed (retried by its workflow);
    -- stored: no SMTP server configured, kept for the dev mailbox only.
    status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'stored')),
    attempts    integer NOT NULL DEFAULT 0,
    last_error  text NOT NULL DEFAULT '',
    lease_until timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    sent_at     timestamptz
);
CREATE INDEX mail_outbox_created_idx ON mail_outbox (created_at DESC, id DESC);
CREATE INDEX mail_outbox_recipients_idx ON mail_outbox USING gin (recipients);

-- Notify e-mails each recipient of a notice once; a retry after a failed delivery
-- e-mails only those still without emailed_at.
ALTER TABLE notifications ADD COLUMN emailed_at timestamptz;
UPDATE notifications SET emailed_at = created_at;
