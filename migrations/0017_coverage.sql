-- Routing (docs/deal-desk.md, "Routing"): each representative of a brand
-- covers a set of UFs and, optionally, named reseller accounts that override
-- the UF. A registration's responsible representatives are computed from these
-- rules when it is registered (or reassigned) and stored on the opportunity;
-- the 'Minhas' filter reads them through the GIN index. Every change of a
-- coverage is a history row (type 'user', the representative's id, event key
-- 'coverage/<brand>/...').
CREATE TABLE coverage (
    brand      text NOT NULL,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    states     text[] NOT NULL DEFAULT '{}',
    resale_ids uuid[] NOT NULL DEFAULT '{}',
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (brand, user_id)
);

ALTER TABLE opportunities ADD COLUMN representative_ids uuid[] NOT NULL DEFAULT '{}';
CREATE INDEX opportunities_representatives_idx ON opportunities USING gin (representative_ids);
