-- The reports (GET /api/reports, api/reports.go; store/reports.sql), measured
-- with `make bench` on 1,000,000 opportunities and their history: two fact
-- tables kept by triggers, in the transaction of the row they come from (any
-- writer: ApplyEvent, InsertHistory, the seed), and covering indexes, so that
-- no report reads a history row or an opportunity's heap row.
--
-- Decisions: a registration's decision is the history row, by a person, that
-- moves its status from analysis to approved or disapproved. Its fact carries
-- the registration's time and the hours to the decision (no lookup of the
-- opportunity) and the decision's month in Brasília (calendar.Name; converting
-- every row's time at report time cost half the query), one per history row:
-- a retried event writes no second history row (event_key), hence no second
-- fact.
CREATE TABLE report_decisions (
    history_id     bigint PRIMARY KEY REFERENCES history (id) ON DELETE CASCADE,
    opportunity_id uuid NOT NULL,
    brand          text NOT NULL,
    registered_at  timestamptz NOT NULL,
    decided_at     timestamptz NOT NULL,
    decided_by     uuid NOT NULL,
    approved       boolean NOT NULL,
    decided_month  date NOT NULL, -- first day of the decision's month in Brasília
    hours          float8 NOT NULL -- from the registration to the decision
);
CREATE INDEX report_decisions_brand_decided_idx ON report_decisions (brand, decided_at)
INCLUDE (opportunity_id, decided_by, approved, decided_month, hours);

CREATE FUNCTION report_decision_fact() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO report_decisions (history_id, opportunity_id, brand, registered_at, decided_at, decided_by, approved,
        decided_month, hours)
    SELECT NEW.id, o.id, o.brand, o.created_at, NEW.created_at, NEW.user_id,
        NEW.modifications @> '[{"attribute": "status", "oldValue": "analysis", "newValue": "approved"}]',
        date_trunc('month', NEW.created_at AT TIME ZONE 'America/Sao_Paulo')::date,
        extract(epoch FROM NEW.created_at - o.created_at)::float8 / 3600
    FROM opportunities o WHERE o.id = NEW.type_id AND o.brand = NEW.brand
    ON CONFLICT (history_id) DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER history_report_decision AFTER INSERT ON history FOR EACH ROW
WHEN (NEW.type = 'opportunity' AND NEW.user_id IS NOT NULL AND (
    NEW.modifications @> '[{"attribute": "status", "oldValue": "analysis", "newValue": "approved"}]'
    OR NEW.modifications @> '[{"attribute": "status", "oldValue": "analysis", "newValue": "disapproved"}]'))
EXECUTE FUNCTION report_decision_fact();

INSERT INTO report_decisions (history_id, opportunity_id, brand, registered_at, decided_at, decided_by, approved,
    decided_month, hours)
SELECT h.id, o.id, o.brand, o.created_at, h.created_at, h.user_id,
    h.modifications @> '[{"attribute": "status", "oldValue": "analysis", "newValue": "approved"}]',
    date_trunc('month', h.created_at AT TIME ZONE 'America/Sao_Paulo')::date,
    extract(epoch FROM h.created_at - o.created_at)::float8 / 3600
FROM history h JOIN opportunities o ON o.id = h.type_id AND o.brand = h.brand
WHERE h.type = 'opportunity' AND h.user_id IS NOT NULL AND (
    h.modifications @> '[{"attribute": "status", "oldValue": "analysis", "newValue": "approved"}]'
    OR h.modifications @> '[{"attribute": "status", "oldValue": "analysis", "newValue": "disapproved"}]');

-- Products: the lines that are not a competitor's of the registrations that
-- the pipeline counts (open: analysis, approved, renovation,
-- awaiting_renovation; not deleted), one row per registration and part number
-- (value = Σ amount × price, the least description), with the registration's
-- brand and time. Rewritten when the registration's products, status or
-- deletion change: the pipeline by product is one range scan of this index.
CREATE TABLE report_product_lines (
    opportunity_id uuid NOT NULL REFERENCES opportunities (id) ON DELETE CASCADE,
    brand          text NOT NULL,
    registered_at  timestamptz NOT NULL,
    part_number    text,
    description    text,
    value          numeric NOT NULL
);
CREATE INDEX report_product_lines_opportunity_idx ON report_product_lines (opportunity_id);
CREATE INDEX report_product_lines_brand_registered_idx ON report_product_lines (brand, registered_at)
INCLUDE (part_number, description, value);

CREATE FUNCTION report_product_lines_of() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM report_product_lines WHERE opportunity_id = NEW.id;
    END IF;
    IF NEW.status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation') AND NOT NEW.is_deleted THEN
        INSERT INTO report_product_lines (opportunity_id, brand, registered_at, part_number, description, value)
        SELECT NEW.id, NEW.brand, NEW.created_at, p->>'partNumber', min(p->>'description'),
            sum((p->>'amount')::numeric * (p->>'price')::numeric)
        FROM jsonb_array_elements(NEW.products) AS p
        WHERE NOT coalesce((p->>'competition')::boolean, false)
        GROUP BY p->>'partNumber';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER opportunities_report_lines_insert AFTER INSERT ON opportunities FOR EACH ROW
WHEN (jsonb_array_length(NEW.products) > 0)
EXECUTE FUNCTION report_product_lines_of();
CREATE TRIGGER opportunities_report_lines_update AFTER UPDATE OF products, brand, created_at, status, is_deleted
ON opportunities FOR EACH ROW
WHEN (OLD.products IS DISTINCT FROM NEW.products OR OLD.brand IS DISTINCT FROM NEW.brand
    OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.is_deleted IS DISTINCT FROM NEW.is_deleted
    OR (OLD.status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation'))
        IS DISTINCT FROM (NEW.status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation')))
EXECUTE FUNCTION report_product_lines_of();

INSERT INTO report_product_lines (opportunity_id, brand, registered_at, part_number, description, value)
SELECT o.id, o.brand, o.created_at, p->>'partNumber', min(p->>'description'),
    sum((p->>'amount')::numeric * (p->>'price')::numeric)
FROM opportunities o CROSS JOIN LATERAL jsonb_array_elements(o.products) AS p
WHERE jsonb_array_length(o.products) > 0 AND NOT coalesce((p->>'competition')::boolean, false)
    AND o.status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation') AND NOT o.is_deleted
GROUP BY o.id, p->>'partNumber';

-- Registrations of the period (by reseller, the pipeline): one range scan of
-- the brand's registrations by date that reads every figure from the index.
CREATE INDEX opportunities_brand_created_report_idx ON opportunities (brand, created_at)
INCLUDE (resale_id, status, approve_date, estimated, state, is_deleted);
-- The deleted registrations, which count nowhere (few: the decisions' facts
-- leave them out by an anti-join on this index).
CREATE INDEX opportunities_deleted_idx ON opportunities (brand) INCLUDE (id) WHERE is_deleted;
-- Approved registrations by the end of their validity (expiring soon).
CREATE INDEX opportunities_brand_valid_until_idx ON opportunities (brand, valid_until)
WHERE status IN ('approved', 'renovation') AND NOT is_deleted;
