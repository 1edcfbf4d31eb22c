package reconcile

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"oportuna/activities"
	"oportuna/crm"
	"oportuna/internal/metrics"
	"oportuna/opportunity"
	"oportuna/store"
	"oportuna/workflows"
)

// Activities are the reconciler's: they read the read model, ask the workflows
// (Temporal) and the CRM, repair through the workflows, and record findings.
type Activities struct {
	DB       *pgxpool.Pool
	Temporal client.Client
	// Portal are the portal's activities: its CRM client and durations, and
	// SyncCRM and RestoreReadModel for records whose workflow has ended.
	Portal *activities.Activities
}

// Timeouts of one row's calls.
const (
	queryTimeout  = 10 * time.Second
	repairTimeout = workflows.CRMBudget + 30*time.Second
	// settle: a row changed this recently may have a CRM sync on its way; its
	// CRM is compared at the next run.
	settle = 2 * time.Minute
)

// finding is one divergence, as an operator reads it (no personal data).
type finding struct {
	Kind       string
	RecordType string // opportunity, resale
	RecordID   string
	Brand      string
	Expected   string // what the workflow holds: a status
	Actual     string // what the read model or the CRM holds: a status, a stage, "absent", a workflow's end
	Fields     []string
	Detail     string
	Repaired   bool
}

// report records a finding and counts it (and its repair) in a page's result.
func (a *Activities) report(ctx context.Context, runAt time.Time, f finding, res *PageResult) error {
	if err := a.record(ctx, runAt, f); err != nil {
		return err
	}
	res.Findings++
	if f.Repaired {
		res.Repaired++
	}
	return nil
}

// record writes a finding: a repaired one resolved at once (closing an open
// one of the same record and kind), an open one inserted or, when a previous
// run found it already, marked seen again. It logs one line, and counts the
// finding in the metric when it is new or repaired.
func (a *Activities) record(ctx context.Context, runAt time.Time, f finding) error {
	if f.Fields == nil {
		f.Fields = []string{}
	}
	counted := f.Repaired
	q := store.New(a.DB)
	var n int64
	var err error
	if f.Repaired {
		n, err = q.ResolveRepairedFinding(ctx, store.ResolveRepairedFindingParams{RecordType: f.RecordType, RecordID: f.RecordID,
			Kind: f.Kind, RunAt: runAt, Expected: f.Expected, Actual: f.Actual, Fields: f.Fields, Detail: f.Detail})
	}
	if err == nil && n == 0 {
		counted, err = q.RecordFinding(ctx, store.RecordFindingParams{RunAt: runAt, Kind: f.Kind, RecordType: f.RecordType,
			RecordID: f.RecordID, Brand: f.Brand, Expected: f.Expected, Actual: f.Actual, Fields: f.Fields, Detail: f.Detail,
			Repaired: f.Repaired})
	}
	if err != nil {
		return fmt.Errorf("record finding: %w", err)
	}
	level := slog.LevelWarn
	if f.Repaired {
		level = slog.LevelInfo
	}
	slog.Log(ctx, level, "reconciliation finding", "kind", f.Kind, "record_type", f.RecordType, "record_id", f.RecordID,
		"brand", f.Brand, "expected", f.Expected, "actual", f.Actual, "fields", f.Fields, "repaired", f.Repaired,
		"detail", f.Detail, "new", counted)
	if counted {
		metrics.ReconciliationFindings.WithLabelValues(f.Kind, strconv.FormatBool(f.Repaired)).Inc()
	}
	return nil
}

// Finish ends a run: the findings a complete check did not see again are resolved.
type Finish struct {
	RunAt time.Time `json:"runAt"`
	Skip  []string  `json:"skip,omitempty"` // kinds whose checks did not all run
}

// FinishReconciliation resolves the open findings the run did not find again
// (repaired by someone, or gone) and returns how many.
func (a *Activities) FinishReconciliation(ctx context.Context, f Finish) (int, error) {
	skip := f.Skip
	if skip == nil {
		skip = []string{}
	}
	n, err := store.New(a.DB).ResolveUnseenFindings(ctx, store.ResolveUnseenFindingsParams{RunAt: f.RunAt, Skip: skip})
	if err != nil {
		return 0, fmt.Errorf("finish reconciliation: %w", err)
	}
	return int(n), nil
}

// --- workflows ---------------------------------------------------------------------

// lookup is what Temporal knows of a record's workflow.
type lookup struct {
	running   bool
	completed bool   // ended normally: its result is the final state
	gone      string // no workflow to ask: not_found, terminated, failed, canceled, timed_out
	transient bool   // between two runs (continued as new): ask again next time
}

func (a *Activities) describe(ctx context.Context, workflowID string) (lookup, string, error) {
	qctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	d, err := a.Temporal.DescribeWorkflowExecution(qctx, workflowID, "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return lookup{gone: "not_found"}, "", nil
	}
	if err != nil {
		return lookup{}, "", err
	}
	info := d.GetWorkflowExecutionInfo()
	runID := info.GetExecution().GetRunId()
	switch s := info.GetStatus(); s {
	case enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING:
		return lookup{running: true}, runID, nil
	case enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		return lookup{completed: true}, runID, nil
	case enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW:
		return lookup{transient: true}, runID, nil
	default:
		return lookup{gone: strings.ToLower(strings.TrimPrefix(s.String(), "WorkflowExecutionStatus"))}, runID, nil
	}
}

// state asks a running workflow its state (the state query), or reads the
// result of one that completed.
func (a *Activities) state(ctx context.Context, workflowID, runID string, l lookup, into any) error {
	qctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	if l.completed {
		return a.Temporal.GetWorkflow(qctx, workflowID, runID).Get(qctx, into)
	}
	v, err := a.Temporal.QueryWorkflow(qctx, workflowID, "", workflows.QueryState)
	if err != nil {
		return err
	}
	return v.Get(into)
}

// repair sends UpdateRepair; the update id makes a retried activity get the
// first answer instead of a second repair.
func (a *Activities) repair(ctx context.Context, runAt time.Time, id string, withCRM bool, kinds []string) (workflows.RepairResult, error) {
	uctx, cancel := context.WithTimeout(ctx, repairTimeout)
	defer cancel()
	var res workflows.RepairResult
	h, err := a.Temporal.UpdateWorkflow(uctx, client.UpdateWorkflowOptions{
		WorkflowID: workflows.OpportunityWorkflowID(id), UpdateName: workflows.UpdateRepair,
		UpdateID: "reconcile/" + runAt.UTC().Format(time.RFC3339Nano) + "/" + strings.Join(kinds, "+"),
		Args:     []any{workflows.RepairRequest{System: true, CRM: withCRM, Kinds: kinds}}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		err = h.Get(uctx, &res)
	}
	return res, err
}

// errType is a short, payload-free description of an error for a finding.
func errType(err error) string {
	var app *temporal.ApplicationError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &app):
		return app.Type()
	case errors.Is(err, context.DeadlineExceeded):
		return "Timeout"
	case errors.Is(err, crm.ErrUnavailable):
		return crm.ErrTypeUnavailable
	case errors.Is(err, crm.ErrLocked):
		return crm.ErrTypeLocked
	case errors.Is(err, crm.ErrMultipleMatches):
		return crm.ErrTypeMultipleMatches
	}
	return fmt.Sprintf("%T", errors.Unwrap(err))
}

// resume continues a page from its last heartbeat (an activity retried after a worker died).
func resume(ctx context.Context, after string) string {
	if activity.HasHeartbeatDetails(ctx) {
		var last string
		if activity.GetHeartbeatDetails(ctx, &last) == nil && last != "" {
			return last
		}
	}
	return after
}

// pageOf starts the result of a page of rows read in key order: done when the
// page is short, the next page after the last row's key.
func pageOf[R any](list []R, limit int, key func(R) string) PageResult {
	res := PageResult{Done: len(list) < limit}
	if len(list) > 0 {
		res.Next = key(list[len(list)-1])
	}
	return res
}

// reached records a row's key as the activity's progress (a retry resumes
// after it) and answers the context's error when the worker is stopping.
func reached(ctx context.Context, key string) error {
	activity.RecordHeartbeat(ctx, key)
	return ctx.Err()
}

// --- opportunities -------------------------------------------------------------------

type oppRow struct {
	ID          string
	Brand       string
	Status      opportunity.Status
	Name        string
	Probability int
	Register    string
	ValidUntil  *time.Time
	UpdatedAt   time.Time
}

// openStatuses are the statuses whose opportunity still has a running workflow.
var openStatuses = []string{string(opportunity.Analysis), string(opportunity.Approved), string(opportunity.Renovation),
	string(opportunity.AwaitingRenovation), string(opportunity.Expired)}

const zeroUUID = "00000000-0000-0000-0000-000000000000"

// ReconcileOpportunities checks a page of open opportunities (expired ones
// while their workflow may still run: OPPORTUNITY_EXPIRED_RETENTION) against
// their workflow's state and the CRM, and repairs through UpdateRepair.
func (a *Activities) ReconcileOpportunities(ctx context.Context, p Page) (PageResult, error) {
	after := resume(ctx, p.After)
	if after == "" {
		after = zeroUUID
	}
	retention := a.Portal.Durations.ExpiredRetention
	if retention <= 0 {
		retention = workflows.DefaultDurations.ExpiredRetention
	}
	page, err := store.New(a.DB).ReconcilePage(ctx, store.ReconcilePageParams{Statuses: openStatuses, After: after,
		ExpiredSince: p.RunAt.Add(-retention - 24*time.Hour), MaxRows: p.Limit})
	if err != nil {
		return PageResult{}, fmt.Errorf("reconcile: opportunities: %w", err)
	}
	list := make([]oppRow, len(page))
	for i, r := range page {
		list[i] = oppRow{ID: r.ID, Brand: r.Brand, Status: opportunity.Status(r.Status), Name: r.Name,
			Probability: r.ProbabilityClosing, Register: r.Register, ValidUntil: r.ValidUntil, UpdatedAt: r.UpdatedAt}
	}
	res := pageOf(list, p.Limit, func(r oppRow) string { return r.ID })

	type checked struct {
		row oppRow
		l   lookup
		st  workflows.OpportunityState
	}
	var checks []checked
	var ids []string
	for _, row := range list {
		activity.RecordHeartbeat(ctx, after) // a retry starts the page again
		l, runID, err := a.describe(ctx, workflows.OpportunityWorkflowID(row.ID))
		var st workflows.OpportunityState
		if err == nil && (l.running || l.completed) {
			err = a.state(ctx, workflows.OpportunityWorkflowID(row.ID), runID, l, &st)
		}
		if err != nil {
			// Temporal or the worker is not answering: no finding from a guess.
			slog.WarnContext(ctx, "reconcile: workflow not answering", "opportunity", row.ID, "err", err)
			res.Incomplete = appendKinds(res.Incomplete, KindReadModel, KindWorkflowMissing)
			continue
		}
		if l.transient || ((l.running || l.completed) && st.Status == "") {
			continue // between runs, or not registered yet
		}
		checks = append(checks, checked{row, l, st})
		if l.gone == "" && p.RunAt.Sub(row.UpdatedAt) > settle {
			ids = append(ids, row.ID)
		}
	}
	var recs map[string]crm.Record
	crmOK := len(ids) > 0
	if crmOK {
		if recs, err = a.Portal.CRM.GetOpportunities(ctx, ids); err != nil {
			slog.WarnContext(ctx, "reconcile: the CRM did not answer; its comparison waits for the next run", "err", err)
			res.Incomplete = appendKinds(res.Incomplete, KindCRMMissing, KindCRMMismatch, KindCRMAhead)
			crmOK = false
		}
	}
	compared := map[string]bool{}
	for _, id := range ids {
		compared[id] = crmOK
	}

	for _, c := range checks {
		res.Checked++
		activity.RecordHeartbeat(ctx, c.row.ID)
		if err := ctx.Err(); err != nil {
			return res, err // the worker is stopping: the retry resumes from the heartbeat
		}
		row, st := c.row, c.st
		if c.l.gone != "" {
			f := a.adoptOpportunity(ctx, row, c.l.gone)
			if err := a.report(ctx, p.RunAt, f, &res); err != nil {
				return res, err
			}
			continue
		}
		fields := rowDiff(row, st)
		lost, err := a.lostEvent(ctx, row.ID, st)
		if err != nil {
			return res, err
		}
		var crmFind *finding
		push := false
		if compared[row.ID] {
			rec, has := recs[row.ID]
			crmFind, push = crmDiff(st, rec, has)
			if crmFind != nil {
				crmFind.RecordType, crmFind.RecordID, crmFind.Brand = "opportunity", row.ID, row.Brand
			}
		}
		var found []finding
		if len(fields) > 0 || push || lost != "" {
			kinds := []string{}
			if len(fields) > 0 || lost != "" {
				kinds = append(kinds, KindReadModel)
			}
			if crmFind != nil {
				kinds = append(kinds, crmFind.Kind)
			}
			fixed, crmOutcome, crmErr, err := a.repairOpportunity(ctx, p.RunAt, c.l, row, st, push, kinds)
			undone := false
			if err == nil && lost != "" {
				if undone, err = a.setApart(ctx, lost); err != nil {
					return res, err
				}
			}
			switch {
			case err != nil && (len(fields) > 0 || lost != ""):
				found = append(found, finding{Kind: KindReadModel, Expected: string(st.Status), Actual: string(row.Status), Fields: fields,
					Detail: "repair failed: " + errType(err)})
			case undone:
				found = append(found, finding{Kind: KindReadModel, Expected: string(st.Status), Actual: string(row.Status),
					Fields: append(fixed, FieldLostEvent), Repaired: true, Detail: DetailLostEvent})
			case len(fixed) > 0:
				found = append(found, finding{Kind: KindReadModel, Expected: string(st.Status), Actual: string(row.Status), Fields: fixed,
					Repaired: true, Detail: "restored from the workflow"})
			}
			if crmFind != nil && push {
				switch {
				case err != nil:
					crmFind.Detail = "repair failed: " + errType(err)
				case crmOutcome == workflows.RepairCRMSynced:
					crmFind.Repaired, crmFind.Detail = true, "written to the CRM from the workflow"
				case crmOutcome == workflows.RepairCRMPending:
					crmFind.Detail = "CRM unavailable: retrying in the background"
				default:
					crmFind.Detail = "the CRM refused: " + crmErr
				}
			}
		}
		if crmFind != nil {
			found = append(found, *crmFind)
		}
		for _, f := range found {
			f.RecordType, f.RecordID, f.Brand = "opportunity", row.ID, row.Brand
			if err := a.report(ctx, p.RunAt, f, &res); err != nil {
				return res, err
			}
		}
	}
	return res, nil
}

// FieldLostEvent names, in a read_model finding's fields, an event a lost
// workflow task recorded and the repair set apart (DetailLostEvent).
const FieldLostEvent = "event"

// DetailLostEvent is the finding of a read model ahead of its workflow: a
// decision was recorded by a workflow task that was lost (the caller was
// answered an error), so the workflow never took it. The workflow is the
// truth: the row goes back to its state, the decision's history row stays
// set apart, and its author decides again (a repetition with the same
// Idempotency-Key is decided anew).
const DetailLostEvent = "a decision its workflow never took (a lost workflow task) was undone: its author decides again"

// lostEvent is the key of the newest event the read model holds of the
// opportunity when it is later than the workflow's state (a lost workflow
// task wrote it); "" when there is none.
func (a *Activities) lostEvent(ctx context.Context, id string, st workflows.OpportunityState) (string, error) {
	key, err := store.New(a.DB).LatestWorkflowEventKey(ctx, id)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("reconcile: newest event of %s: %w", id, err)
	case opportunity.EventAfter(key, st.Cycle, st.Seq):
		return key, nil
	}
	return "", nil
}

// setApart reports whether the repair set the lost event apart (its key no
// longer names a history row). A decision that completed between the
// reconciler's reading and its repair took the key itself: not undone.
func (a *Activities) setApart(ctx context.Context, key string) (bool, error) {
	_, err := store.New(a.DB).HistoryChanges(ctx, key)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reconcile: event %s: %w", key, err)
	}
	return false, nil
}

// adoptOpportunity starts a new run adopting a stored opportunity whose
// workflow never started, failed or timed out: the new run takes its state from
// the read model (the only record left). A workflow an operator terminated is
// reported, not restarted: terminating abandons an opportunity on purpose.
func (a *Activities) adoptOpportunity(ctx context.Context, row oppRow, gone string) finding {
	f := finding{Kind: KindWorkflowMissing, RecordType: "opportunity", RecordID: row.ID, Brand: row.Brand,
		Expected: "running", Actual: gone, Detail: "status " + string(row.Status)}
	switch gone {
	case "not_found", "failed", "timed_out":
	default:
		f.Detail += ": ended by an operator, not restarted"
		return f
	}
	start := workflows.OpportunityStart(row.ID, row.Brand)
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
	start.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
	if _, err := a.Temporal.ExecuteWorkflow(ctx, start, workflows.Opportunity, workflows.OpportunityInput{ID: row.ID, Brand: row.Brand, Adopt: true}); err != nil {
		f.Detail += "; adoption failed: " + errType(err)
		return f
	}
	f.Repaired, f.Detail = true, "a new run adopted the stored opportunity"
	return f
}

func appendKinds(list []string, kinds ...string) []string {
	for _, k := range kinds {
		found := false
		for _, x := range list {
			found = found || x == k
		}
		if !found {
			list = append(list, k)
		}
	}
	return list
}

// rowDiff names the read model's fields that differ from the workflow's state.
func rowDiff(row oppRow, st workflows.OpportunityState) []string {
	var out []string
	if row.Status != st.Status {
		out = append(out, activities.FieldStatus)
	}
	if row.Name != st.Name {
		out = append(out, activities.FieldName)
	}
	if row.Probability != st.Probability {
		out = append(out, activities.FieldProbability)
	}
	if row.Register != st.Register {
		out = append(out, activities.FieldRegister)
	}
	if !st.ValidUntil.IsZero() && (row.ValidUntil == nil || !row.ValidUntil.Truncate(time.Microsecond).Equal(st.ValidUntil.Truncate(time.Microsecond))) {
		out = append(out, activities.FieldValidUntil)
	}
	return out
}

// crmDiff compares the CRM's record with the workflow's state: the finding,
// if any, and whether writing the workflow's state to the CRM repairs it.
func crmDiff(st workflows.OpportunityState, rec crm.Record, has bool) (*finding, bool) {
	switch {
	case st.Status == opportunity.Analysis:
		if has {
			// An approval the CRM committed but whose answer was lost: the
			// portal cannot approve on its own; a representative decides.
			return &finding{Kind: KindCRMAhead, Expected: string(st.Status), Actual: rec.Stage, Fields: []string{"stage"},
				Detail: "the CRM holds a record of an opportunity in analysis: a representative must approve or refuse it"}, false
		}
		return nil, false
	case !has:
		if st.Register == "" {
			return nil, false // never written to the CRM (expired in analysis)
		}
		return &finding{Kind: KindCRMMissing, Expected: string(st.Status), Actual: "absent", Fields: []string{"record"}}, true
	case rec.Matches > 1:
		return &finding{Kind: KindCRMMismatch, Expected: string(st.Status), Actual: rec.Stage, Fields: []string{"record"},
			Detail: "several CRM records hold this opportunity: merge them in the CRM"}, false
	}
	var fields []string
	shows := rec.Shows(st.Status) ||
		// A renewal requested after the expiry: the record stays closed until the renewal is approved.
		(st.Status == opportunity.AwaitingRenovation && rec.Shows(opportunity.Expired))
	if !shows {
		fields = append(fields, "stage")
	}
	if !rec.Closed { // a closed record keeps the name and probability it closed with
		if rec.Name != crmName(st.Name) {
			fields = append(fields, "name")
		}
		if rec.Probability != st.Probability {
			fields = append(fields, "probability")
		}
	}
	if len(fields) == 0 {
		return nil, false
	}
	return &finding{Kind: KindCRMMismatch, Expected: string(st.Status), Actual: rec.Stage, Fields: fields}, true
}

// crmName is the name as the CRM keeps it (120 characters at most).
func crmName(name string) string {
	if utf8.RuneCountInString(name) <= 120 {
		return name
	}
	return string([]rune(name)[:119]) + "…"
}

// repairOpportunity brings the read model (and, with push, the CRM) to the
// workflow's state: through UpdateRepair while the workflow runs, directly
// from its final state once it completed.
func (a *Activities) repairOpportunity(ctx context.Context, runAt time.Time, l lookup, row oppRow, st workflows.OpportunityState,
	push bool, kinds []string) (fields []string, crmOutcome, crmErr string, err error) {
	if l.running {
		res, err := a.repair(ctx, runAt, row.ID, push, kinds)
		return res.Fields, res.CRM, res.CRMError, err
	}
	if push && st.Status != opportunity.Analysis {
		crmOutcome = workflows.RepairCRMSynced
		id, err := a.Portal.SyncCRM(ctx, activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: st.ID, Brand: st.Brand,
			Name: st.Name, Probability: st.Probability}, Status: st.Status})
		var app *temporal.ApplicationError
		switch {
		case err == nil:
			if id != "" {
				st.Register = id
			}
		case errors.As(err, &app) && app.NonRetryable():
			crmOutcome, crmErr = workflows.RepairCRMRefused, app.Type()
		default:
			crmOutcome, crmErr = workflows.RepairCRMPending, crm.ErrTypeUnavailable
		}
	}
	in := activities.RestoreInput{Key: row.ID + "/reconcile/" + runAt.UTC().Format(time.RFC3339Nano), OpportunityID: row.ID,
		Brand: row.Brand, Status: st.Status, Name: st.Name, Probability: st.Probability, Register: st.Register, At: time.Now(),
		Cycle: st.Cycle, Seq: st.Seq}
	if !st.ValidUntil.IsZero() {
		valid, approved := st.ValidUntil, st.ValidUntil.Add(-a.Portal.Durations.Validity)
		in.ValidUntil, in.ApprovedAt = &valid, &approved
	}
	fields, err = a.Portal.RestoreReadModel(ctx, in)
	return fields, crmOutcome, crmErr, err
}

// --- reseller sign-ups -----------------------------------------------------------------

// ReconcileResales checks a page of sign-ups in analysis against their
// workflow: one that is gone gets a new run adopting the stored company (the
// same start a representative's decision makes); a status the workflow does
// not share is reported.
func (a *Activities) ReconcileResales(ctx context.Context, p Page) (PageResult, error) {
	after := resume(ctx, p.After)
	if after == "" {
		after = zeroUUID
	}
	list, err := store.New(a.DB).ResalesInAnalysis(ctx, store.ResalesInAnalysisParams{After: after, MaxRows: p.Limit})
	if err != nil {
		return PageResult{}, fmt.Errorf("reconcile: resales: %w", err)
	}
	res := pageOf(list, p.Limit, func(r store.ResalesInAnalysisRow) string { return r.ID })
	for _, row := range list {
		if err := reached(ctx, row.ID); err != nil {
			return res, err
		}
		wid := workflows.ResaleWorkflowID(row.ID)
		l, runID, err := a.describe(ctx, wid)
		var st workflows.ResaleState
		if err == nil && (l.running || l.completed) {
			err = a.state(ctx, wid, runID, l, &st)
		}
		if err != nil {
			slog.WarnContext(ctx, "reconcile: workflow not answering", "resale", row.ID, "err", err)
			res.Incomplete = appendKinds(res.Incomplete, KindResaleStatus, KindWorkflowMissing)
			continue
		}
		res.Checked++
		var f *finding
		switch {
		case l.transient || (l.running && st.Status == ""):
			continue
		case l.gone != "":
			f = &finding{Kind: KindWorkflowMissing, Expected: "running", Actual: l.gone, Detail: "status " + row.Status}
			start := workflows.ResaleStart(row.ID, row.Brand)
			start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
			start.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
			if _, err := a.Temporal.ExecuteWorkflow(ctx, start, workflows.Resale, workflows.ResaleInput{ID: row.ID, Brand: row.Brand, Adopt: true}); err != nil {
				f.Detail += "; adoption failed: " + errType(err)
			} else {
				f.Repaired, f.Detail = true, "a new run adopted the stored company"
			}
		case st.Status != row.Status:
			actual := st.Status
			if actual == "" {
				actual = "not loaded"
			}
			f = &finding{Kind: KindResaleStatus, Expected: actual, Actual: row.Status, Fields: []string{"status"},
				Detail: "the sign-up's row and its workflow disagree: check the workflow's history"}
		}
		if f == nil {
			continue
		}
		f.RecordType, f.RecordID, f.Brand = "resale", row.ID, row.Brand
		if err := a.report(ctx, p.RunAt, *f, &res); err != nil {
			return res, err
		}
	}
	return res, nil
}

// --- CRM sync failures -------------------------------------------------------------------

// RetryCRMSyncFailures retries a page of unresolved crm_sync_failures: through
// UpdateRepair while the opportunity's workflow runs (its current state is
// written), directly with the read model's status once it has ended.
func (a *Activities) RetryCRMSyncFailures(ctx context.Context, p Page) (PageResult, error) {
	after, _ := strconv.ParseInt(resume(ctx, p.After), 10, 64)
	q := store.New(a.DB)
	list, err := q.OpenCRMSyncFailures(ctx, store.OpenCRMSyncFailuresParams{After: after, MaxRows: p.Limit})
	if err != nil {
		return PageResult{}, fmt.Errorf("reconcile: crm sync failures: %w", err)
	}
	res := pageOf(list, p.Limit, func(r store.OpenCRMSyncFailuresRow) string { return strconv.FormatInt(r.ID, 10) })
	for _, fr := range list {
		if err := reached(ctx, strconv.FormatInt(fr.ID, 10)); err != nil {
			return res, err
		}
		res.Checked++
		f := finding{Kind: KindCRMSyncFailure, RecordType: "opportunity", RecordID: fr.OpportunityID, Brand: fr.Brand,
			Expected: fr.Status, Actual: "not written", Fields: []string{"stage"}}
		var failure error
		l, _, err := a.describe(ctx, workflows.OpportunityWorkflowID(fr.OpportunityID))
		switch {
		case err != nil:
			failure = err
		case l.running:
			r, err := a.repair(ctx, p.RunAt, fr.OpportunityID, true, []string{KindCRMSyncFailure})
			switch {
			case err != nil:
				failure = err
			case r.CRM == workflows.RepairCRMSynced, r.CRM == workflows.RepairCRMNone:
				// Written, or nothing left to write (the workflow moved on).
			default:
				failure = fmt.Errorf("%s: %s", r.CRM, r.CRMError)
				f.Detail = r.CRM + ": " + r.CRMError
			}
		case fr.RowStatus == nil:
			failure = errors.New("the opportunity is not in the read model")
		default:
			status := opportunity.Status(*fr.RowStatus)
			if status == opportunity.Analysis {
				break // never written to the CRM from analysis
			}
			_, err := a.Portal.SyncCRM(ctx, activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: fr.OpportunityID, Brand: fr.Brand},
				Status: status})
			failure = err
		}
		if failure == nil {
			f.Repaired, f.Detail = true, "written to the CRM on retry"
			if err := q.ResolveCRMSyncFailure(ctx, fr.ID); err != nil {
				return res, err
			}
			res.Repaired++
		} else {
			if f.Detail == "" {
				f.Detail = "retry failed: " + errType(failure)
			}
			msg := failure.Error()
			if utf8.RuneCountInString(msg) > 500 {
				msg = string([]rune(msg)[:500]) + "…"
			}
			if err := q.RetriedCRMSyncFailure(ctx, store.RetriedCRMSyncFailureParams{ID: fr.ID, Error: msg}); err != nil {
				return res, err
			}
		}
		if err := a.record(ctx, p.RunAt, f); err != nil {
			return res, err
		}
		res.Findings++
	}
	return res, nil
}

// --- CRM ahead of a refused opportunity -------------------------------------------------

// CloseCRMAhead follows the open crm_ahead findings whose opportunity was
// refused since (its workflow ended): the CRM record the lost approval left
// is closed at the refused status, and the finding resolved as repaired.
func (a *Activities) CloseCRMAhead(ctx context.Context, p Page) (PageResult, error) {
	after, _ := strconv.ParseInt(resume(ctx, p.After), 10, 64)
	list, err := store.New(a.DB).CRMAheadOfRefusals(ctx, store.CRMAheadOfRefusalsParams{Kind: KindCRMAhead,
		Status: string(opportunity.Disapproved), After: after, MaxRows: p.Limit})
	if err != nil {
		return PageResult{}, fmt.Errorf("reconcile: crm ahead: %w", err)
	}
	res := pageOf(list, p.Limit, func(r store.CRMAheadOfRefusalsRow) string { return strconv.FormatInt(r.ID, 10) })
	for _, r := range list {
		if err := reached(ctx, strconv.FormatInt(r.ID, 10)); err != nil {
			return res, err
		}
		res.Checked++
		f := finding{Kind: KindCRMAhead, RecordType: "opportunity", RecordID: r.RecordID, Brand: r.Brand,
			Expected: r.Status, Fields: []string{"stage"}}
		rec, err := a.Portal.CRM.GetOpportunity(ctx, r.RecordID)
		switch {
		case errors.Is(err, crm.ErrNotFound):
			f.Actual, f.Repaired, f.Detail = "absent", true, "the CRM no longer holds it"
		case err != nil:
			f.Actual, f.Detail = "unknown", "CRM lookup failed: "+errType(err)
		case rec.Shows(opportunity.Disapproved):
			f.Actual, f.Repaired, f.Detail = rec.Stage, true, "the CRM already shows it closed"
		default:
			f.Actual = rec.Stage
			if _, err := a.Portal.SyncCRM(ctx, activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: r.RecordID, Brand: r.Brand},
				Status: opportunity.Disapproved}); err != nil {
				f.Detail = "closing it in the CRM failed: " + errType(err)
			} else {
				f.Repaired, f.Detail = true, "closed in the CRM after the refusal"
			}
		}
		if err := a.report(ctx, p.RunAt, f, &res); err != nil {
			return res, err
		}
	}
	return res, nil
}
