-- name: ReportDecisions :many
-- ReportDecisions measures the registrations' decisions taken in the period:
-- the history rows, written by a person, that move a registration from
-- analysis to approved or disapproved (a renewal's decision, from
-- awaiting_renovation, is not one), read from their facts (report_decisions,
-- kept with the history by migrations/0019_report_indexes.sql). Time to
-- decision is the hours from the registration (opportunities.created_at) to
-- that row. One row for all (by_representative and by_month false), one per
-- person who decided, one per month of the decision in Brasília (yyyy-mm);
-- percentiles are interpolated (percentile_cont), 0 when nothing was decided.
-- Deleted opportunities are left out. The reports' queries read one brand's
-- period [@since, @until) through the indexes of 0019.
WITH t AS (
    SELECT f.decided_by AS user_id, f.decided_month AS month, f.approved, f.hours
    FROM report_decisions f
    WHERE f.brand = @brand::text AND f.decided_at >= @since::timestamptz AND f.decided_at < @until::timestamptz
        AND f.opportunity_id NOT IN (SELECT o.id FROM opportunities o WHERE o.brand = @brand::text AND o.is_deleted)
)
SELECT (GROUPING(t.user_id) = 0)::bool AS by_representative, (GROUPING(t.month) = 0)::bool AS by_month,
    coalesce(t.user_id::text, '')::text AS user_id, coalesce((SELECT u.name FROM users u WHERE u.id = t.user_id), '')::text AS name,
    coalesce(to_char(t.month::timestamp, 'YYYY-MM'), '')::text AS month,
    count(*)::int AS decided, (count(*) FILTER (WHERE t.approved))::int AS approved,
    (count(*) FILTER (WHERE t.hours <= @sla_hours::float8))::int AS within_sla,
    coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY t.hours), 0)::float8 AS p50_hours,
    coalesce(percentile_cont(0.9) WITHIN GROUP (ORDER BY t.hours), 0)::float8 AS p90_hours
FROM t
GROUP BY GROUPING SETS ((), (t.user_id), (t.month))
ORDER BY 1, 2, 5, 4;

-- name: ReportByResale :many
-- ReportByResale counts, per reseller company, the registrations made in the
-- period and their outcome so far: approved (it was approved at some point:
-- approve_date set), decided (approved, or disapproved in analysis) and the
-- estimated value of those still open (analysis, approved, renovation,
-- awaiting_renovation). Deleted opportunities are left out.
SELECT r.id AS resale_id, r.cnpj, r.corporate_name, r.fantasy_name,
    count(*)::int AS registered,
    (count(*) FILTER (WHERE o.approve_date IS NOT NULL))::int AS approved,
    (count(*) FILTER (WHERE o.approve_date IS NOT NULL OR o.status = 'disapproved'))::int AS decided,
    (coalesce(sum(o.estimated) FILTER (WHERE o.status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation')), 0))::numeric AS pipeline
FROM opportunities o JOIN resales r ON r.id = o.resale_id
WHERE o.brand = @brand::text AND o.created_at >= @since::timestamptz AND o.created_at < @until::timestamptz AND NOT o.is_deleted
GROUP BY r.id
ORDER BY registered DESC, r.corporate_name, r.id;

-- name: ReportPipeline :many
-- ReportPipeline is the estimated value and count of the registrations made
-- in the period that are still open (analysis, approved, renovation,
-- awaiting_renovation), by status (kind 'status') and by the customer's UF
-- (kind 'state'). Deleted opportunities are left out.
SELECT CASE WHEN GROUPING(o.status) = 0 THEN 'status' ELSE 'state' END::text AS kind,
    coalesce(CASE WHEN GROUPING(o.status) = 0 THEN o.status ELSE o.state END, '')::text AS key,
    count(*)::int AS n, (coalesce(sum(o.estimated), 0))::numeric AS value
FROM opportunities o
WHERE o.brand = @brand::text AND o.created_at >= @since::timestamptz AND o.created_at < @until::timestamptz AND NOT o.is_deleted
    AND o.status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation')
GROUP BY GROUPING SETS ((o.status), (o.state))
ORDER BY 1, 4 DESC, 2;

-- name: ReportPipelineByProduct :many
-- ReportPipelineByProduct is the value (amount × price of the lines that are
-- not a competitor's) of the open registrations made in the period, by
-- product (its part number; the description of its first line), the largest
-- first, at most @max_rows; read from the lines' facts (report_product_lines:
-- the open registrations' lines, one per registration and part number).
SELECT l.part_number::text AS part_number, min(l.description)::text AS description,
    count(*)::int AS n, round(sum(l.value), 2)::numeric AS value
FROM report_product_lines l
WHERE l.brand = @brand::text AND l.registered_at >= @since::timestamptz AND l.registered_at < @until::timestamptz
GROUP BY 1
ORDER BY 4 DESC, 1
LIMIT @max_rows::int;

-- name: ReportExpiring :many
-- ReportExpiring lists the brand's approved registrations (approved or in
-- their renewal window) whose validity ends in [@since, @until), the soonest
-- first, at most @max_rows, with their reseller.
SELECT o.id, o.name, o.corporate_name, o.state, o.status, o.estimated, o.valid_until::timestamptz AS valid_until,
    coalesce(r.corporate_name, '')::text AS resale
FROM opportunities o LEFT JOIN resales r ON r.id = o.resale_id
WHERE o.brand = @brand::text AND o.status IN ('approved', 'renovation') AND NOT o.is_deleted
    AND o.valid_until >= @since::timestamptz AND o.valid_until < @until::timestamptz
ORDER BY o.valid_until, o.id
LIMIT @max_rows::int;
