-- Opportunities (the read model the workflows keep), the change history of every
-- record, and in-app notifications.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE opportunities (
    id                     uuid PRIMARY KEY,
    brand                  text NOT NULL,
    status                 text NOT NULL CHECK (status IN ('analysis', 'approved', 'disapproved', 'renovation', 'awaiting_renovation', 'expired')),
    name                   text NOT NULL DEFAULT '',
    cnpj                   text NOT NULL CHECK (cnpj ~ '^[0-9A-Z]{12}[0-9]{2}$'),
    contact                text NOT NULL DEFAULT '',
    phone                  text NOT NULL DEFAULT '',
    email                  text NOT NULL DEFAULT '',
    network                text NOT NULL DEFAULT '',
    fantasy_name           text NOT NULL DEFAULT '',
    corporate_name         text NOT NULL DEFAULT '',
    street                 text NOT NULL DEFAULT '',
    state                  text NOT NULL DEFAULT '',
    city                   text NOT NULL DEFAULT '',
    cep                    text NOT NULL DEFAULT '',
    country                text NOT NULL DEFAULT 'Brasil',
    probability_closing    integer NOT NULL DEFAULT 25,
    seller                 text NOT NULL DEFAULT '',
    seller_salesforce_id   text NOT NULL DEFAULT '',
    estimated              numeric(16, 2) NOT NULL DEFAULT 0,
    register               text NOT NULL DEFAULT '',
    reason                 text NOT NULL DEFAULT '',
    accepted_term          boolean NOT NULL DEFAULT false,
    approve_date           timestamptz,
    valid_until            timestamptz,
    renovation_date        timestamptz,
    request_renovation_at  timestamptz,
    last_visit_date        text NOT NULL DEFAULT '',
    project_still_in_scope text NOT NULL DEFAULT '',
    user_id                uuid NOT NULL REFERENCES users (id),
    resale_id              uuid REFERENCES resales (id),
    conflicts              uuid[] NOT NULL DEFAULT '{}',
    projects               jsonb NOT NULL DEFAULT '[]',
    products               jsonb NOT NULL DEFAULT '[]',
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX opportunities_brand_created_idx ON opportunities (brand, created_at DESC);
CREATE INDEX opportunities_brand_status_created_idx ON opportunities (brand, status, created_at DESC);
CREATE INDEX opportunities_brand_cnpj_idx ON opportunities (brand, cnpj);
CREATE INDEX opportunities_resale_created_idx ON opportunities (resale_id, created_at DESC);
CREATE INDEX opportunities_user_created_idx ON opportunities (user_id, created_at DESC);
CREATE INDEX opportunities_name_trgm_idx ON opportunities USING gin (name gin_trgm_ops);
CREATE INDEX opportunities_fantasy_trgm_idx ON opportunities USING gin (fantasy_name gin_trgm_ops);

-- One row per change of a record; event_key makes writes from retried activities idempotent.
CREATE TABLE history (
    id            bigserial PRIMARY KEY,
    event_key     text UNIQUE,
    type          text NOT NULL CHECK (type IN ('opportunity', 'resale', 'user')),
    type_id       uuid NOT NULL,
    brand         text NOT NULL,
    user_id       uuid,
    username      text NOT NULL DEFAULT '',
    action_type   text NOT NULL CHECK (action_type IN ('create', 'update')),
    modifications jsonb NOT NULL DEFAULT '[]',
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX history_type_id_idx ON history (type_id, created_at DESC);

CREATE TABLE notifications (
    id            bigserial PRIMARY KEY,
    notice_key    text NOT NULL,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    brand         text NOT NULL,
    kind          text NOT NULL,
    title         text NOT NULL,
    link          text NOT NULL DEFAULT '',
    read_at       timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (notice_key, user_id)
);
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC);
