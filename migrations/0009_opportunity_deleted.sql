-- An opportunity whose workflow an operator cancelled in the Temporal UI
-- (docs/operations.md "Cancelling an opportunity"): kept, with its history, but
-- hidden from the lists, the export and the dashboard (spec §3 isDeleted).
ALTER TABLE opportunities ADD COLUMN is_deleted boolean NOT NULL DEFAULT false;

-- The dashboard's counts walk these indexes alone (index-only scans); they
-- carry is_deleted so that leaving the deleted ones out needs no heap visit.
DROP INDEX opportunities_brand_status_created_idx;
CREATE INDEX opportunities_brand_status_created_idx ON opportunities (brand, status, created_at DESC) INCLUDE (is_deleted);
DROP INDEX opportunities_brand_status_approve_idx;
CREATE INDEX opportunities_brand_status_approve_idx ON opportunities (brand, status, approve_date) INCLUDE (is_deleted);
DROP INDEX opportunities_brand_status_updated_idx;
CREATE INDEX opportunities_brand_status_updated_idx ON opportunities (brand, status, updated_at) INCLUDE (is_deleted);
