-- Accounts: reseller companies, users with roles per brand, sessions and password resets.

CREATE TABLE resales (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    brand          text NOT NULL,
    status         text NOT NULL DEFAULT 'analysis' CHECK (status IN ('analysis', 'approved', 'disapproved')),
    corporate_name text NOT NULL,
    fantasy_name   text NOT NULL DEFAULT '',
    cnpj           text NOT NULL CHECK (cnpj ~ '^[0-9A-Z]{12}[0-9]{2}$'),
    phone          text NOT NULL DEFAULT '',
    contact_name   text NOT NULL DEFAULT '',
    email          text NOT NULL,
    cep            text NOT NULL DEFAULT '',
    street         text NOT NULL DEFAULT '',
    city           text NOT NULL DEFAULT '',
    state          text NOT NULL DEFAULT '',
    country        text NOT NULL DEFAULT 'Brasil',
    reason         text NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX resales_brand_cnpj_key ON resales (brand, cnpj);
CREATE INDEX resales_brand_created_idx ON resales (brand, created_at DESC);

CREATE TABLE users (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name          text NOT NULL,
    email         text NOT NULL,
    phone         text NOT NULL DEFAULT '',
    doc           text NOT NULL DEFAULT '',
    password_hash text NOT NULL DEFAULT '',          -- empty until the user sets one
    active        boolean NOT NULL DEFAULT true,
    resale_id     uuid REFERENCES resales (id),       -- the company of a RESALE or SELLER user
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_resale_idx ON users (resale_id) WHERE resale_id IS NOT NULL;

CREATE TABLE user_roles (
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role    text NOT NULL CHECK (role IN ('REPRESENTATIVE', 'RESALE', 'SELLER', 'SUPPORT')),
    brand   text NOT NULL,                          -- a brand slug or 'all'
    PRIMARY KEY (user_id, role, brand)
);
CREATE INDEX user_roles_brand_role_idx ON user_roles (brand, role);

-- Refresh tokens are stored hashed; every use rotates the token inside its family,
-- and reuse of a rotated token revokes the family.
CREATE TABLE refresh_tokens (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    family_id  uuid NOT NULL,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    brand      text NOT NULL,
    token_hash bytea NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    rotated_at timestamptz,
    revoked_at timestamptz
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);

CREATE TABLE password_resets (
    token_hash bytea PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    brand      text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX password_resets_user_idx ON password_resets (user_id);
