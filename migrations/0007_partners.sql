-- Partners: reseller onboarding (who decided and when), one company per e-mail,
-- the lists' indexes, the unread notifications, and the per-address limit of the
-- public forms (reseller sign-up, contact).

ALTER TABLE resales ADD COLUMN decided_at timestamptz;
ALTER TABLE resales ADD COLUMN decided_by uuid REFERENCES users (id) ON DELETE SET NULL;

-- A company's e-mail becomes its RESALE user's login on approval, and logins are
-- unique: one company per e-mail, whatever the brand.
CREATE UNIQUE INDEX resales_email_key ON resales (lower(email));
CREATE INDEX resales_brand_status_created_idx ON resales (brand, status, created_at DESC);

-- The bell: the caller's newest notices of a brand and the unread count.
CREATE INDEX notifications_user_brand_idx ON notifications (user_id, brand, created_at DESC, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id, brand) WHERE read_at IS NULL;

-- Set-password links: 'reset' (Esqueci minha senha) or 'invite' (a new user's first password).
ALTER TABLE password_resets ADD COLUMN purpose text NOT NULL DEFAULT 'reset' CHECK (purpose IN ('reset', 'invite'));

-- One row per accepted submission of a public form; rows older than the window
-- are deleted as callers come back. Unlogged: losing it in a crash only resets limits.
CREATE UNLOGGED TABLE form_hits (
    bucket text NOT NULL,                     -- '<form>|<client address>'
    at     timestamptz NOT NULL
);
CREATE INDEX form_hits_bucket_idx ON form_hits (bucket, at);
CREATE INDEX form_hits_at_idx ON form_hits (at);
