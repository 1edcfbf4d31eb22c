-- The Salesforce stand-in's own schema (internal/dev/crmsim), created by the stand-in
-- itself when it starts (Sim.Seed, under an advisory lock so concurrent starts
-- are safe), never by the product's migrations: a production database never
-- gets it. Every statement is idempotent; a database that applied the old
-- migration 0004 (the same tables) keeps them and their data.
--
-- What the portal synced to "Salesforce" stays visible to a person, e.g.
-- SELECT * FROM crm_sim.opportunities.

CREATE SCHEMA IF NOT EXISTS crm_sim;

-- Record ids are Salesforce-like (prefix + "Sm" + counter + case checksum).
CREATE SEQUENCE IF NOT EXISTS crm_sim.record_seq;

-- Customer accounts. The stand-in creates one on the first lookup of a CNPJ with
-- valid check digits; several rows with one CNPJ are a duplicate (HTTP 300 test).
CREATE TABLE IF NOT EXISTS crm_sim.accounts (
    id          text PRIMARY KEY,
    name        text NOT NULL,
    cnpj        text NOT NULL,                 -- as the CRM holds it: 00.000.000/0000-00
    cnpj_digits text GENERATED ALWAYS AS (regexp_replace(upper(cnpj), '[^0-9A-Z]', '', 'g')) STORED,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS accounts_cnpj_digits_idx ON crm_sim.accounts (cnpj_digits);

-- CNPJs told to be missing: their accounts are hidden and none is created.
CREATE TABLE IF NOT EXISTS crm_sim.missing_customers (
    cnpj       text PRIMARY KEY,               -- unmasked
    created_at timestamptz NOT NULL DEFAULT now()
);

-- CRM users: the sellers of the seller picker, a few per brand.
CREATE TABLE IF NOT EXISTS crm_sim.users (
    id      text PRIMARY KEY,
    brand   text NOT NULL,
    name    text NOT NULL,
    email   text NOT NULL,
    company text NOT NULL DEFAULT '',
    active  boolean NOT NULL DEFAULT true
);
CREATE INDEX IF NOT EXISTS users_brand_idx ON crm_sim.users (brand, name);

-- The catalogue: Product2 records and their entry in the standard price book.
CREATE TABLE IF NOT EXISTS crm_sim.products (
    id         text PRIMARY KEY,               -- Product2 Id
    entry_id   text NOT NULL UNIQUE,           -- PricebookEntry Id
    code       text NOT NULL UNIQUE,           -- ProductCode (our part number)
    name       text NOT NULL,
    unit_price numeric(15, 2) NOT NULL DEFAULT 0,
    active     boolean NOT NULL DEFAULT true
);

-- Opportunities as upserted; fields holds every field the client sent, merged.
CREATE TABLE IF NOT EXISTS crm_sim.opportunities (
    id           text PRIMARY KEY,
    external_id  text NOT NULL,                -- our opportunity id (not unique: HTTP 300 test)
    account_id   text,
    name         text NOT NULL,
    stage_name   text NOT NULL,
    close_date   date NOT NULL,
    amount       numeric(15, 2),
    probability  integer,
    owner_id     text,
    brand        text,
    reseller     text,
    description  text NOT NULL DEFAULT '',
    pricebook_id text,
    fields       jsonb NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS opportunities_external_id_idx ON crm_sim.opportunities (external_id);

CREATE TABLE IF NOT EXISTS crm_sim.line_items (
    id             text PRIMARY KEY,
    opportunity_id text NOT NULL REFERENCES crm_sim.opportunities (id) ON DELETE CASCADE,
    entry_id       text NOT NULL REFERENCES crm_sim.products (entry_id),
    quantity       numeric(12, 2) NOT NULL CHECK (quantity > 0),
    unit_price     numeric(15, 2) NOT NULL,
    description    text NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS line_items_opportunity_idx ON crm_sim.line_items (opportunity_id);

-- Opportunities told to be locked (ENTITY_IS_LOCKED on every write), by our id.
CREATE TABLE IF NOT EXISTS crm_sim.locked_opportunities (
    external_id text PRIMARY KEY,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Access tokens issued by the stand-in's OAuth endpoint (stored hashed).
CREATE TABLE IF NOT EXISTS crm_sim.tokens (
    token_hash text PRIMARY KEY,
    flow       text NOT NULL,
    client_id  text NOT NULL,
    username   text NOT NULL DEFAULT '',
    issued_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);
-- Last use of a token (at most a minute old): a session unused for the
-- stand-in's session timeout expires. Added after the table existed.
ALTER TABLE crm_sim.tokens ADD COLUMN IF NOT EXISTS last_used_at timestamptz;
