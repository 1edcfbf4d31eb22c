-- Reconciliation (docs/operations.md "Reconciliation"): the divergences the
-- scheduled reconciler found between the read model, the workflows and the CRM,
-- and the background CRM syncs that finally failed. Neither holds personal
-- data: statuses, CRM stages, ids and names of fields only.

CREATE TABLE reconciliation_findings (
    id            bigserial PRIMARY KEY,
    run_at        timestamptz NOT NULL,                  -- the run that first found it
    last_seen_at  timestamptz NOT NULL,                  -- the last run that still found it
    seen          integer NOT NULL DEFAULT 1,            -- runs that found it
    kind          text NOT NULL,                         -- read_model, workflow_missing, crm_missing, crm_mismatch, crm_ahead, crm_sync_failure, resale_status
    record_type   text NOT NULL CHECK (record_type IN ('opportunity', 'resale')),
    record_id     uuid NOT NULL,
    brand         text NOT NULL,
    expected      text NOT NULL DEFAULT '',              -- what the truth (the workflow) holds: a status, a stage
    actual        text NOT NULL DEFAULT '',              -- what the read model or the CRM holds
    fields        text[] NOT NULL DEFAULT '{}',          -- names of the fields that differ
    detail        text NOT NULL DEFAULT '',              -- what was done or why not (an error type, no payload)
    repaired      boolean NOT NULL DEFAULT false,        -- the reconciler brought it back to the workflow's state
    resolved_at   timestamptz                            -- repaired, or no longer found; NULL: open, for an operator
);
-- One open finding per record and kind: a later run updates it.
CREATE UNIQUE INDEX reconciliation_findings_open_key ON reconciliation_findings (record_type, record_id, kind) WHERE resolved_at IS NULL;
CREATE INDEX reconciliation_findings_run_idx ON reconciliation_findings (run_at DESC, id DESC);

CREATE TABLE crm_sync_failures (
    id              bigserial PRIMARY KEY,
    opportunity_id  uuid NOT NULL,
    brand           text NOT NULL,
    status          text NOT NULL,                       -- the status the CRM was to show
    error           text NOT NULL DEFAULT '',
    attempts        integer NOT NULL DEFAULT 1,          -- the background sync, then each retry of the reconciler
    failed_at       timestamptz NOT NULL,
    last_attempt_at timestamptz NOT NULL,
    resolved_at     timestamptz
);
-- One open failure per opportunity and status: a second failure of the same write updates it.
CREATE UNIQUE INDEX crm_sync_failures_open_key ON crm_sync_failures (opportunity_id, status) WHERE resolved_at IS NULL;
CREATE INDEX crm_sync_failures_failed_idx ON crm_sync_failures (failed_at DESC);
