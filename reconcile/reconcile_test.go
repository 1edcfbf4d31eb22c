package reconcile_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"oportuna/activities"
	"oportuna/crm"
	"oportuna/internal/testenv"
	"oportuna/internal/testenv/cnpjtest"
	"oportuna/opportunity"
	"oportuna/reconcile"
	"oportuna/resale"
	"oportuna/workflows"
)

// TestReconcileRestoresAReadModelEditedBehindTheWorkflow: an approved
// opportunity's row is edited in PostgreSQL behind its workflow's back (status,
// name, probability, validity). The reconciler finds it, the repair update
// writes the workflow's state back with a history row by 'Sistema', and the
// finding is recorded repaired and counted; a second run finds nothing.
func TestReconcileRestoresAReadModelEditedBehindTheWorkflow(t *testing.T) {
	e := newEnv(t)
	id := e.register("112223330001")
	untouched := e.register("112223340001")
	if _, err := e.approve(id); err != nil {
		t.Fatal(err)
	}
	want := e.row(id)
	if _, err := e.db.Exec(e.ctx, `UPDATE opportunities SET status = 'analysis', name = 'Editado à mão', probability_closing = 100,
		valid_until = valid_until + interval '30 days' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	e.settled()
	before := counter(reconcile.KindReadModel, true)

	totals := e.reconcile()
	if got := e.row(id); got.Status != opportunity.Approved || got.Name != want.Name || got.Probability != want.Probability ||
		!got.ValidUntil.Equal(*want.ValidUntil) || got.Register != want.Register {
		t.Errorf("row after the reconciliation %+v, want %+v", got, want)
	}
	f := e.only(id)
	if f.Kind != reconcile.KindReadModel || !f.Repaired || !f.Resolved || f.Expected != "approved" || f.Actual != "analysis" {
		t.Errorf("finding %+v", f)
	}
	for _, field := range []string{activities.FieldStatus, activities.FieldName, activities.FieldProbability, activities.FieldValidUntil} {
		if !contains(f.Fields, field) {
			t.Errorf("finding fields %v lack %s", f.Fields, field)
		}
	}
	if strings.Contains(f.Expected+f.Actual+f.Detail+strings.Join(f.Fields, ","), "Editado") {
		t.Errorf("the finding holds a value, not only names: %+v", f)
	}
	var username string
	var mods []byte
	if err := e.db.QueryRow(e.ctx, `SELECT username, modifications FROM history WHERE type_id = $1 AND event_key LIKE '%/repair/%'`, id).
		Scan(&username, &mods); err != nil {
		t.Fatalf("history row of the repair: %v", err)
	}
	var changes []opportunity.Change
	_ = json.Unmarshal(mods, &changes)
	if username != "Sistema" || len(changes) != 4 || changes[0].Attribute != "status" || changes[0].OldValue != "analysis" || changes[0].NewValue != "approved" {
		t.Errorf("history of the repair: %s %+v", username, changes)
	}
	e.countedOnce(reconcile.KindReadModel, true, before)
	if totals.Checked < 2 || totals.Findings != 1 || totals.Repaired != 1 {
		t.Errorf("totals %+v", totals)
	}
	if got := e.findings(untouched); len(got) != 0 {
		t.Errorf("an opportunity in agreement has findings %+v", got)
	}
	e.wantOpen(reconcile.KindReadModel, 0)

	// Only the reconciler repairs: an update without the system flag is refused.
	if _, err := e.update(id, workflows.UpdateRepair, workflows.RepairRequest{}); err == nil || !strings.Contains(err.Error(), workflows.MsgNotAllowed) {
		t.Errorf("repair without the system flag: %v", err)
	}

	// Nothing left to repair: the next run finds nothing and writes nothing.
	if totals := e.reconcile(); totals.Findings != 0 {
		t.Errorf("second run %+v", totals)
	}
	if n := len(e.findings(id)); n != 1 {
		t.Errorf("findings after the second run = %d, want 1", n)
	}
}

// TestReconcileBringsTheCRMBackAndReportsARecordClosedInTheCRM: a salesperson
// renames an approved opportunity in the CRM and changes its probability: the
// reconciler writes the workflow's state back there (repaired). Then the record
// is closed won in the CRM: the portal cannot write a closed record, so the
// finding stays open for an operator, counted once however many runs see it.
func TestReconcileBringsTheCRMBackAndReportsARecordClosedInTheCRM(t *testing.T) {
	e := newEnv(t)
	id := e.register("223334440001")
	if _, err := e.approve(id); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Exec(e.ctx, `UPDATE crm_sim.opportunities SET name = 'Renomeada no CRM', probability = 10 WHERE external_id = $1`, id); err != nil {
		t.Fatal(err)
	}
	e.settled()
	e.reconcile()
	if got := e.synced(id); got.Name != "Projeto Armazém" || *got.Probability != 50 || got.Stage != "Qualification" {
		t.Errorf("CRM record after the reconciliation: %+v", got)
	}
	f := e.only(id)
	if f.Kind != reconcile.KindCRMMismatch || !f.Repaired || !f.Resolved || !contains(f.Fields, "name") || !contains(f.Fields, "probability") ||
		contains(f.Fields, "stage") || f.Expected != "approved" || f.Actual != "Qualification" {
		t.Errorf("finding %+v", f)
	}

	if err := e.sim.CloseOpportunity(e.ctx, id, "Closed Won"); err != nil {
		t.Fatal(err)
	}
	before := counter(reconcile.KindCRMMismatch, false)
	e.settled()
	e.reconcile()
	e.reconcile()
	list := e.findings(id)
	if len(list) != 2 {
		t.Fatalf("findings %+v", list)
	}
	open := list[1]
	if open.Kind != reconcile.KindCRMMismatch || open.Repaired || open.Resolved || open.Actual != "Closed Won" ||
		!contains(open.Fields, "stage") || !strings.Contains(open.Detail, crm.ErrTypeLocked) || open.Seen != 2 {
		t.Errorf("finding of the closed record %+v", open)
	}
	e.countedOnce(reconcile.KindCRMMismatch, false, before) // two runs, one finding
	e.wantOpen(reconcile.KindCRMMismatch, 1)
	if got := e.row(id); got.Status != opportunity.Approved {
		t.Errorf("status %s", got.Status)
	}
	if got := e.synced(id); got.Stage != "Closed Won" {
		t.Errorf("the portal overwrote the salesperson's stage: %+v", got)
	}
}

// TestReconcileReportsALostApprovalThenClosesTheCRMAfterTheRefusal: the CRM
// commits an approval but every answer is lost (503 after the write), so the
// approval fails and the opportunity stays in analysis while the CRM shows it
// approved. The reconciler reports it (it cannot approve on its own); when the
// representative then refuses the opportunity, the next run closes the CRM
// record at the refused stage and resolves the finding as repaired.
func TestReconcileReportsALostApprovalThenClosesTheCRMAfterTheRefusal(t *testing.T) {
	e := newEnv(t)
	id := e.register("334445550001")
	e.sim.LoseResponses(0)
	if _, err := e.approve(id); err == nil {
		t.Fatal("the approval succeeded with every answer lost")
	}
	e.sim.ClearOutage()
	if got := e.synced(id); got.Stage != "Qualification" || e.row(id).Status != opportunity.Analysis || e.state(id).Status != opportunity.Analysis {
		t.Fatalf("setup: CRM %q, row %s, workflow %s", got.Stage, e.row(id).Status, e.state(id).Status)
	}
	before := counter(reconcile.KindCRMAhead, false)
	e.settled()
	e.reconcile()
	f := e.only(id)
	if f.Kind != reconcile.KindCRMAhead || f.Repaired || f.Resolved || f.Expected != "analysis" || f.Actual != "Qualification" {
		t.Errorf("finding %+v", f)
	}
	e.countedOnce(reconcile.KindCRMAhead, false, before)
	e.wantOpen(reconcile.KindCRMAhead, 1)
	if got := e.row(id); got.Status != opportunity.Analysis {
		t.Errorf("the reconciler changed the status to %s: only a representative decides", got.Status)
	}

	if _, err := e.update(id, workflows.UpdateDisapprove, workflows.DisapproveRequest{Actor: e.rep, Reason: "Cliente desistiu"}); err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, 10*time.Second, "the refused opportunity's workflow ends", func() bool {
		d, err := e.tc.DescribeWorkflowExecution(e.ctx, workflows.OpportunityWorkflowID(id), "")
		return err == nil && d.GetWorkflowExecutionInfo().GetCloseTime() != nil
	})
	e.reconcile()
	if got := e.synced(id); got.Stage != "Closed Lost" {
		t.Errorf("CRM stage after the refusal and the reconciliation: %q, want Closed Lost", got.Stage)
	}
	f = e.only(id)
	if f.Kind != reconcile.KindCRMAhead || !f.Repaired || !f.Resolved || f.Expected != "disapproved" {
		t.Errorf("finding after the refusal %+v", f)
	}
	e.wantOpen(reconcile.KindCRMAhead, 0)
}

// TestReconcileReportsATerminatedWorkflowAndAdoptsRowsWithoutOne: an
// operator terminated an opportunity's workflow (its row stays open with no
// workflow): reported, not restarted. An opportunity stored without a workflow
// (a registration that lost its run) and a reseller sign-up in analysis with
// no workflow each get a new run adopting the stored row (repaired).
func TestReconcileReportsATerminatedWorkflowAndAdoptsRowsWithoutOne(t *testing.T) {
	e := newEnv(t)
	id := e.register("445556660001")
	if err := e.tc.TerminateWorkflow(e.ctx, workflows.OpportunityWorkflowID(id), "", "operator"); err != nil {
		t.Fatal(err)
	}
	orphan := newID()
	if _, err := e.acts.Register(e.ctx, activities.RegisterInput{ID: orphan, Brand: "yep", Actor: e.seller, Record: e.record("445556670001"), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = e.tc.TerminateWorkflow(context.Background(), workflows.OpportunityWorkflowID(orphan), "", "test over")
	})
	var resaleID string
	if err := e.db.QueryRow(e.ctx, `INSERT INTO resales (brand, corporate_name, cnpj, email) VALUES ('yep', 'Revenda Sem Workflow Ltda', $1, 'sem-workflow@revenda.test')
		RETURNING id::text`, cnpjtest.Complete("556667770001")).Scan(&resaleID); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = e.tc.TerminateWorkflow(context.Background(), workflows.ResaleWorkflowID(resaleID), "", "test over")
	})
	before := counter(reconcile.KindWorkflowMissing, false)

	e.reconcile()
	f := e.only(id)
	if f.Kind != reconcile.KindWorkflowMissing || f.Repaired || f.Resolved || f.Actual != "terminated" || f.RecordType != "opportunity" {
		t.Errorf("finding of the terminated workflow %+v", f)
	}
	e.countedOnce(reconcile.KindWorkflowMissing, false, before)
	o := e.only(orphan)
	if o.Kind != reconcile.KindWorkflowMissing || !o.Repaired || !o.Resolved || o.Actual != "not_found" {
		t.Errorf("finding of the opportunity stored without workflow %+v", o)
	}
	testenv.WaitFor(t, 10*time.Second, "the adopted opportunity's workflow answers", func() bool {
		v, err := e.tc.QueryWorkflow(e.ctx, workflows.OpportunityWorkflowID(orphan), "", workflows.QueryState)
		var st workflows.OpportunityState
		if err == nil {
			err = v.Get(&st)
		}
		return err == nil && st.Status == opportunity.Analysis && st.Name == "Oportunidade Armazém"
	})
	r := e.only(resaleID)
	if r.Kind != reconcile.KindWorkflowMissing || !r.Repaired || r.RecordType != "resale" || r.Actual != "not_found" {
		t.Errorf("finding of the sign-up %+v", r)
	}
	var st workflows.ResaleState
	testenv.WaitFor(t, 10*time.Second, "the adopted sign-up's workflow answers", func() bool {
		v, err := e.tc.QueryWorkflow(e.ctx, workflows.ResaleWorkflowID(resaleID), "", workflows.QueryState)
		return err == nil && v.Get(&st) == nil && st.Status == resale.Analysis
	})
	// The next run finds the sign-up in agreement and the opportunity still without workflow.
	e.reconcile()
	if list := e.findings(resaleID); len(list) != 1 {
		t.Errorf("sign-up findings after the second run %+v", list)
	}
	if f := e.only(id); f.Seen != 2 || f.Resolved {
		t.Errorf("finding of the terminated workflow after two runs %+v", f)
	}
	if list := e.findings(orphan); len(list) != 1 {
		t.Errorf("findings of the adopted opportunity after the second run %+v", list)
	}
}

// TestAFailedBackgroundCRMSyncIsRecordedAndRetriedByTheReconciler: the CRM
// record is locked when the opportunity expires, so the background sync of the
// expiry fails; the failure is recorded in crm_sync_failures. Once the CRM
// takes writes again, the reconciler retries it through the workflow: the CRM
// shows the expiry and the failure is resolved.
func TestAFailedBackgroundCRMSyncIsRecordedAndRetriedByTheReconciler(t *testing.T) {
	e := newEnv(t, activities.Durations{Validity: 5 * time.Second, RenewalWindow: 2 * time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour})
	id := e.register("667778880001")
	if _, err := e.approve(id); err != nil {
		t.Fatal(err)
	}
	if err := e.sim.Lock(e.ctx, id); err != nil {
		t.Fatal(err)
	}
	var status, msg string
	var resolved bool
	testenv.WaitFor(t, 20*time.Second, "the failed expiry sync is recorded", func() bool {
		return e.db.QueryRow(e.ctx, `SELECT status, error, resolved_at IS NOT NULL FROM crm_sync_failures WHERE opportunity_id = $1`, id).
			Scan(&status, &msg, &resolved) == nil
	})
	if status != "expired" || resolved || !strings.Contains(msg, "locked") {
		t.Errorf("failure %s %q resolved=%v", status, msg, resolved)
	}
	if got := e.synced(id); got.Stage != "Qualification" {
		t.Fatalf("CRM stage %q with the record locked", got.Stage)
	}

	// Still locked: the retry fails and the failure stays open.
	e.reconcile()
	var attempts int
	if err := e.db.QueryRow(e.ctx, `SELECT attempts, resolved_at IS NOT NULL FROM crm_sync_failures WHERE opportunity_id = $1`, id).Scan(&attempts, &resolved); err != nil {
		t.Fatal(err)
	}
	if attempts != 2 || resolved {
		t.Errorf("after a failed retry: attempts %d resolved %v", attempts, resolved)
	}
	e.wantOpen(reconcile.KindCRMSyncFailure, 1)

	if err := e.sim.Unlock(e.ctx, id); err != nil {
		t.Fatal(err)
	}
	before := counter(reconcile.KindCRMSyncFailure, true)
	e.reconcile()
	if got := e.synced(id); got.Stage != "Closed Lost" {
		t.Errorf("CRM stage after the retry %q, want Closed Lost", got.Stage)
	}
	if err := e.db.QueryRow(e.ctx, `SELECT resolved_at IS NOT NULL FROM crm_sync_failures WHERE opportunity_id = $1`, id).Scan(&resolved); err != nil || !resolved {
		t.Errorf("failure resolved = %v (%v)", resolved, err)
	}
	var repaired bool
	if err := e.db.QueryRow(e.ctx, `SELECT repaired FROM reconciliation_findings WHERE record_id = $1 AND kind = $2 AND resolved_at IS NOT NULL`,
		id, reconcile.KindCRMSyncFailure).Scan(&repaired); err != nil || !repaired {
		t.Errorf("crm_sync_failure finding repaired = %v (%v)", repaired, err)
	}
	e.countedOnce(reconcile.KindCRMSyncFailure, true, before)
	e.wantOpen(reconcile.KindCRMSyncFailure, 0)
	if os.Getenv("OPORTUNA_RECORD_HISTORIES") != "" {
		// The opportunity's run so far: the failed background sync recorded
		// and the repair updates, replayed by TestRecordedHistoriesReplay
		// (workflows/replay_test.go).
		e.recordHistory(workflows.OpportunityWorkflowID(id), recordedRepair)
	}
}

// recordedRepair is where OPORTUNA_RECORD_HISTORIES writes the opportunity's
// history of TestAFailedBackgroundCRMSyncIsRecordedAndRetriedByTheReconciler.
const recordedRepair = "../workflows/testdata/histories/opportunity-crm-sync-failure-repair.json"

func (e *env) recordHistory(workflowID, path string) { e.recordHistoryOf(workflowID, "", path) }

func (e *env) recordHistoryOf(workflowID, runID, path string) {
	e.t.Helper()
	it := e.tc.GetWorkflowHistory(e.ctx, workflowID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	hist := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			e.t.Fatal(err)
		}
		hist.Events = append(hist.Events, ev)
	}
	b, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(hist)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		e.t.Fatal(err)
	}
	e.t.Logf("recorded %d events in %s", len(hist.Events), path)
}

// TestTheReconciliationScheduleIsCreatedOnceAndKeepsAnOperatorsPause: every
// worker start ensures the schedule; a second call updates its interval
// instead of failing, and keeps it paused when an operator paused it.
func TestTheReconciliationScheduleIsCreatedOnceAndKeepsAnOperatorsPause(t *testing.T) {
	e := newEnv(t)
	sc := e.tc.ScheduleClient()
	h := sc.GetHandle(e.ctx, reconcile.ScheduleID)
	t.Cleanup(func() { _ = h.Delete(context.Background()) })
	if err := reconcile.EnsureSchedule(e.ctx, e.tc, time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := h.Pause(e.ctx, client.SchedulePauseOptions{Note: "maintenance"}); err != nil {
		t.Fatal(err)
	}
	if err := reconcile.EnsureSchedule(e.ctx, e.tc, 2*time.Hour); err != nil {
		t.Fatalf("second start: %v", err)
	}
	d, err := h.Describe(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if iv := d.Schedule.Spec.Intervals; len(iv) != 1 || iv[0].Every != 2*time.Hour {
		t.Errorf("intervals %+v, want every 2h", iv)
	}
	if !d.Schedule.State.Paused {
		t.Error("the operator's pause was lifted by a worker start")
	}
}

// TestAReconciliationOfManyRowsContinuesAsNewWithItsTotals: a run checks its
// rows page by page and continues as new after a number of pages (its history
// stays bounded), carrying its phase, position and totals; a divergence on a
// later page is still repaired.
func TestAReconciliationOfManyRowsContinuesAsNewWithItsTotals(t *testing.T) {
	e := newEnv(t)
	ids := []string{e.register("778889990001"), e.register("778889900001"), e.register("778889910001")}
	for _, id := range ids {
		if _, err := e.db.Exec(e.ctx, `UPDATE opportunities SET probability_closing = 75 WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
	}
	run, err := e.tc.ExecuteWorkflow(e.ctx, client.StartWorkflowOptions{ID: "reconcile-test-" + newID(), TaskQueue: workflows.TaskQueue},
		reconcile.Reconcile, reconcile.Input{PageSize: 1, PagesPerRun: 2})
	if err != nil {
		t.Fatal(err)
	}
	firstRunID := run.GetRunID() // Get follows the chain of runs
	var totals reconcile.Totals
	if err := run.Get(e.ctx, &totals); err != nil {
		t.Fatal(err)
	}
	if totals.Checked != 3 || totals.Findings != 3 || totals.Repaired != 3 || len(totals.Incomplete) != 0 {
		t.Errorf("totals %+v, want 3 checked, found and repaired", totals)
	}
	first, err := e.tc.DescribeWorkflowExecution(e.ctx, run.GetID(), firstRunID)
	if err != nil {
		t.Fatal(err)
	}
	if s := first.GetWorkflowExecutionInfo().GetStatus(); s != enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW {
		t.Errorf("first run %s, want continued as new", s)
	}
	for _, id := range ids {
		if got := e.row(id); got.Probability != 25 {
			t.Errorf("%s: probability %d, want the workflow's 25", id, got.Probability)
		}
	}
	if os.Getenv("OPORTUNA_RECORD_HISTORIES") != "" {
		e.recordHistoryOf(run.GetID(), firstRunID, recordedReconcile)
	}
}

// recordedReconcile is where OPORTUNA_RECORD_HISTORIES writes the first run of
// TestAReconciliationOfManyRowsContinuesAsNewWithItsTotals (pages, repairs,
// continue-as-new), replayed by TestReconcileRecordedHistoriesReplay.
const recordedReconcile = "testdata/reconcile-continued-as-new.json"

// TestReconcileRecordedHistoriesReplay guards deploys of the reconciler like
// TestRecordedHistoriesReplay guards the portal's workflows: every recorded
// history of Reconcile replays with the current code.
func TestReconcileRecordedHistoriesReplay(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded Reconcile history under testdata/ (%v)", err)
	}
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflow(reconcile.Reconcile)
	for _, f := range files {
		if err := r.ReplayWorkflowHistoryFromJSONFile(nil, f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestReconcileClosesTheCRMOfALostApprovalThatExpired: the CRM committed an
// approval whose answers were lost, and nobody decided before the analysis
// deadline, so the opportunity expired in analysis (its run then ends: an
// opportunity that expired in analysis has no validity to keep it) with the
// CRM still showing it approved. The reconciler writes the workflow's final
// state, expired, to the CRM, and the CRM record's id to the read model.
func TestReconcileClosesTheCRMOfALostApprovalThatExpired(t *testing.T) {
	e := newEnv(t, activities.Durations{Validity: 15 * time.Second, RenewalWindow: 5 * time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour})
	id := e.register("889990000001")
	e.sim.LoseResponses(0)
	if _, err := e.approve(id); err == nil {
		t.Fatal("the approval succeeded with every answer lost")
	}
	e.sim.ClearOutage()
	testenv.WaitFor(t, 30*time.Second, "the opportunity expires in analysis", func() bool { return e.row(id).Status == opportunity.Expired })
	crmRecord := e.synced(id)
	if crmRecord.Stage != "Qualification" || e.state(id).Register != "" {
		t.Fatalf("setup: CRM %q, workflow register %q", crmRecord.Stage, e.state(id).Register)
	}
	e.settled()
	e.reconcile()
	if got := e.synced(id); got.Stage != "Closed Lost" || got.ID != crmRecord.ID {
		t.Errorf("CRM record after the reconciliation %+v, want the same record closed lost", got)
	}
	if got := e.row(id); got.Register != crmRecord.ID {
		t.Errorf("read model register %q, want %s", got.Register, crmRecord.ID)
	}
	kinds := map[string]finding{}
	for _, f := range e.findings(id) {
		kinds[f.Kind] = f
	}
	if f := kinds[reconcile.KindCRMMismatch]; !f.Repaired || f.Expected != "expired" || f.Actual != "Qualification" || !contains(f.Fields, "stage") {
		t.Errorf("crm finding %+v (all: %+v)", f, kinds)
	}
	if f := kinds[reconcile.KindReadModel]; !f.Repaired || !contains(f.Fields, activities.FieldRegister) {
		t.Errorf("read model finding %+v", f)
	}
}

// TestReconcileUndoesADecisionItsWorkflowNeverTook: a representative's
// approval is recorded by the workflow task that answers it (a local
// activity); when that task is lost (the caller is answered an error), the
// read model says approved under the workflow's next event key and the call's
// Idempotency-Key, while the workflow is still in analysis. The workflow is the
// truth: the reconciler restores the row, keeps the approval's history row set
// apart and drops its key and report fact, and reports it. The representative
// then approves again, with other values: the workflow's next event takes the
// freed key (before, its write failed as a key reused with other changes), and
// the key's repetition is decided anew.
func TestReconcileUndoesADecisionItsWorkflowNeverTook(t *testing.T) {
	e := newEnv(t)
	id := e.register("556667770001")
	before := e.state(id)
	now := time.Now()
	name, prob, valid := "Projeto perdido", 100, now.Add(2160*time.Hour)
	lostKey := fmt.Sprintf("%s/%d/%d", id, before.Cycle, before.Seq+1)
	idem := opportunity.IdempotencyKey{UserID: e.rep.UserID, Key: "hash-of-approve-lost", Action: "approve", Status: 200, Message: "Aprovada"}
	if _, err := e.acts.Apply(e.ctx, opportunity.Event{Key: lostKey, OpportunityID: id, Brand: "yep", Actor: &e.rep,
		Status: opportunity.Approved, Name: &name, Probability: &prob, ApprovedAt: &now, ValidUntil: &valid, At: now, Idem: &idem,
		Changes: []opportunity.Change{{Attribute: "status", OldValue: "analysis", NewValue: "approved"}}}); err != nil {
		t.Fatal(err)
	}
	count := func(query string) int {
		t.Helper()
		var n int
		if err := e.db.QueryRow(e.ctx, query, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	const keys = `SELECT count(*) FROM idempotency_keys WHERE opportunity_id = $1`
	const facts = `SELECT count(*) FROM report_decisions WHERE opportunity_id = $1`
	if e.row(id).Status != opportunity.Approved || e.state(id).Status != opportunity.Analysis || count(keys) != 1 || count(facts) != 1 {
		t.Fatalf("setup: row %s, workflow %s, %d keys, %d facts", e.row(id).Status, e.state(id).Status, count(keys), count(facts))
	}
	e.settled()

	e.reconcile()
	if got := e.row(id); got.Status != opportunity.Analysis || got.Name == name {
		t.Errorf("row after the reconciliation %+v, want the workflow's: analysis", got)
	}
	f := e.only(id)
	if f.Kind != reconcile.KindReadModel || !f.Repaired || f.Detail != reconcile.DetailLostEvent || !contains(f.Fields, reconcile.FieldLostEvent) ||
		!contains(f.Fields, activities.FieldStatus) || f.Expected != "analysis" || f.Actual != "approved" {
		t.Errorf("finding %+v", f)
	}
	if n := count(keys); n != 0 {
		t.Errorf("%d Idempotency-Keys left of the lost approval: its repetition would answer 'approved'", n)
	}
	if n := count(facts); n != 0 {
		t.Errorf("the lost approval still counts in the decisions report (%d facts)", n)
	}
	if n := count(`SELECT count(*) FROM history WHERE type_id = $1 AND event_key LIKE '%(lost;%'`); n != 1 {
		t.Errorf("%d history rows set apart, want the lost approval's", n)
	}

	st, err := e.update(id, workflows.UpdateApprove, workflows.ApproveRequest{Actor: e.rep, Name: "Projeto Armazém", Probability: 75})
	if err != nil {
		t.Fatalf("the approval after the undo: %v", err)
	}
	if got := e.row(id); st.Status != opportunity.Approved || got.Status != opportunity.Approved || got.Name != "Projeto Armazém" || got.Probability != 75 {
		t.Errorf("after the new approval: workflow %s, row %+v", st.Status, got)
	}
	if n := count(facts); n != 1 {
		t.Errorf("%d decision facts after the new approval, want 1", n)
	}
	e.settled()
	e.reconcile()
	if list := e.findings(id); len(list) != 1 {
		t.Errorf("findings after a second run: %+v, want only the first", list)
	}
}
