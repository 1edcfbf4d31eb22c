-- The reports (GET /api/reports, api/reports.go; store/reports.sql), measured
-- with `make bench` on 1,000,000 opportunities and their history.
--
-- Decisions: a registration's decision is the history row that moves its
-- status out of analysis to approved or disapproved, by a person. Only those
-- rows enter these two partial indexes (one per outcome), by brand and time,
-- carrying the record and who decided: the period's decisions are two range
-- scans, not a walk over the whole history.
CREATE INDEX history_approvals_idx ON history (brand, created_at) INCLUDE (type_id, user_id)
WHERE type = 'opportunity' AND user_id IS NOT NULL
    AND modifications @> '[{"attribute": "status", "oldValue": "analysis", "newValue": "approved"}]';
CREATE INDEX history_disapprovals_idx ON history (brand, created_at) INCLUDE (type_id, user_id)
WHERE type = 'opportunity' AND user_id IS NOT NULL
    AND modifications @> '[{"attribute": "status", "oldValue": "analysis", "newValue": "disapproved"}]';
-- Registrations of the period (by reseller, the pipeline): one range scan of
-- the brand's registrations by date that reads every figure from the index.
CREATE INDEX opportunities_brand_created_report_idx ON opportunities (brand, created_at)
INCLUDE (resale_id, status, approve_date, estimated, state, is_deleted);
-- Approved registrations by the end of their validity (expiring soon).
CREATE INDEX opportunities_brand_valid_until_idx ON opportunities (brand, valid_until)
WHERE status IN ('approved', 'renovation') AND NOT is_deleted;
