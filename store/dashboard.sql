-- name: DecisionsByMonth :many
-- DecisionsByMonth counts the brand's opportunities approved (by approval
-- date) and disapproved (by last change) per month of the zone's calendar
-- since the given instant, deleted ones left out.
SELECT 'approved'::text AS status, extract(month FROM a.approve_date AT TIME ZONE @zone::text)::int AS month, count(*)::int AS n
FROM opportunities a
WHERE a.brand = @brand::text AND NOT a.is_deleted AND a.status = 'approved' AND a.approve_date >= @since::timestamptz GROUP BY 2
UNION ALL
SELECT 'disapproved'::text, extract(month FROM d.updated_at AT TIME ZONE @zone::text)::int, count(*)::int
FROM opportunities d
WHERE d.brand = @brand::text AND NOT d.is_deleted AND d.status = 'disapproved' AND d.updated_at >= @since::timestamptz GROUP BY 2;

-- name: StatusTotals :one
-- StatusTotals counts the brand's opportunities approved, disapproved and in
-- analysis, in all and since the given instant (the month's start), deleted
-- ones left out.
SELECT
    (SELECT count(*) FROM opportunities o1 WHERE o1.brand = @brand::text AND NOT o1.is_deleted AND o1.status = 'approved')::int AS approved,
    (SELECT count(*) FROM opportunities o2 WHERE o2.brand = @brand::text AND NOT o2.is_deleted AND o2.status = 'approved'
        AND o2.approve_date >= @since::timestamptz)::int AS approved_since,
    (SELECT count(*) FROM opportunities o3 WHERE o3.brand = @brand::text AND NOT o3.is_deleted AND o3.status = 'disapproved')::int AS disapproved,
    (SELECT count(*) FROM opportunities o4 WHERE o4.brand = @brand::text AND NOT o4.is_deleted AND o4.status = 'disapproved'
        AND o4.updated_at >= @since::timestamptz)::int AS disapproved_since,
    (SELECT count(*) FROM opportunities o5 WHERE o5.brand = @brand::text AND NOT o5.is_deleted AND o5.status = 'analysis')::int AS analysis,
    (SELECT count(*) FROM opportunities o6 WHERE o6.brand = @brand::text AND NOT o6.is_deleted AND o6.status = 'analysis'
        AND o6.created_at >= @since::timestamptz)::int AS analysis_since;
