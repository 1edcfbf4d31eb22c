-- name: RecordCRMSyncFailure :exec
-- RecordCRMSyncFailure records a background CRM sync that finally failed,
-- once per opportunity and status while it is open (a second failure of the
-- same write updates its error).
INSERT INTO crm_sync_failures (opportunity_id, brand, status, error, failed_at, last_attempt_at)
VALUES (@opportunity_id, @brand, @status, @error, @failed_at, @failed_at)
ON CONFLICT (opportunity_id, status) WHERE resolved_at IS NULL
DO UPDATE SET error = EXCLUDED.error,
    last_attempt_at = GREATEST(crm_sync_failures.last_attempt_at, EXCLUDED.last_attempt_at);

-- name: ResolveRepairedFinding :execrows
-- ResolveRepairedFinding closes, as repaired, the open finding of the record and kind.
UPDATE reconciliation_findings SET last_seen_at = @run_at, seen = seen + 1, expected = @expected, actual = @actual,
    fields = @fields, detail = @detail, repaired = true, resolved_at = now()
WHERE record_type = @record_type AND record_id = @record_id::uuid AND kind = @kind AND resolved_at IS NULL;

-- name: RecordFinding :one
-- RecordFinding records a finding: a repaired one resolved at once; an open
-- one inserted, or the record's open finding of the kind marked seen again.
-- It answers whether the finding is new (a repaired one always is: a resolved
-- row is outside the open findings' unique key).
INSERT INTO reconciliation_findings (run_at, last_seen_at, kind, record_type, record_id, brand,
    expected, actual, fields, detail, repaired, resolved_at)
VALUES (@run_at, @run_at, @kind, @record_type, @record_id::uuid, @brand, @expected, @actual, @fields, @detail,
    @repaired::boolean, CASE WHEN @repaired::boolean THEN now() END)
ON CONFLICT (record_type, record_id, kind) WHERE resolved_at IS NULL DO UPDATE SET
    last_seen_at = GREATEST(reconciliation_findings.last_seen_at, EXCLUDED.last_seen_at),
    seen = reconciliation_findings.seen + 1, expected = EXCLUDED.expected, actual = EXCLUDED.actual,
    fields = EXCLUDED.fields, detail = EXCLUDED.detail
RETURNING (xmax = 0)::boolean AS new;

-- name: ResolveUnseenFindings :execrows
-- ResolveUnseenFindings resolves the open findings a run did not find again
-- (last seen before it), except those of the kinds whose checks did not all run.
UPDATE reconciliation_findings SET resolved_at = now()
WHERE resolved_at IS NULL AND last_seen_at < @run_at AND NOT (kind = ANY(@skip::text[]));

-- name: OpenCRMSyncFailures :many
-- OpenCRMSyncFailures is a page of the unresolved CRM sync failures, by id
-- after the given one, with their opportunity's status (NULL: not in the read model).
SELECT f.id, f.opportunity_id, f.brand, f.status, o.status AS row_status
FROM crm_sync_failures f LEFT JOIN opportunities o ON o.id = f.opportunity_id
WHERE f.resolved_at IS NULL AND f.id > @after ORDER BY f.id LIMIT @max_rows::int;

-- name: ResolveCRMSyncFailure :exec
-- ResolveCRMSyncFailure closes a failure written on retry.
UPDATE crm_sync_failures SET resolved_at = now(), attempts = attempts + 1, last_attempt_at = now() WHERE id = @id;

-- name: RetriedCRMSyncFailure :exec
-- RetriedCRMSyncFailure counts a failed retry of a failure, with its error.
UPDATE crm_sync_failures SET attempts = attempts + 1, last_attempt_at = now(), error = @error WHERE id = @id;

-- name: CRMAheadOfRefusals :many
-- CRMAheadOfRefusals is a page of the open findings of the kind whose
-- opportunity now has the given status, by id after the given one.
SELECT f.id, f.record_id, f.brand, o.status
FROM reconciliation_findings f JOIN opportunities o ON o.id = f.record_id
WHERE f.resolved_at IS NULL AND f.kind = @kind AND f.record_type = 'opportunity' AND o.status = @status::text AND f.id > @after
ORDER BY f.id LIMIT @max_rows::int;

-- name: OpenFindingsByKind :many
-- OpenFindingsByKind counts the open findings per kind.
SELECT kind, count(*)::int AS n FROM reconciliation_findings WHERE resolved_at IS NULL GROUP BY kind;

-- name: OpenCRMSyncFailureCount :one
-- OpenCRMSyncFailureCount counts the unresolved CRM sync failures.
SELECT count(*)::int FROM crm_sync_failures WHERE resolved_at IS NULL;
