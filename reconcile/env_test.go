package reconcile_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/crm"
	"oportuna/internal/dev/crmsim"
	"oportuna/internal/dev/mailbox"
	"oportuna/internal/metrics"
	"oportuna/internal/testenv"
	"oportuna/internal/testenv/cnpjtest"
	"oportuna/opportunity"
	"oportuna/reconcile"
	"oportuna/seed"
	"oportuna/worker"
	"oportuna/workflows"
)

// env is the portal's read model with the demo users, the Salesforce stand-in
// served over HTTP, and a worker (the portal's workflows and the reconciler)
// on the test's Temporal server.
type env struct {
	t      *testing.T
	ctx    context.Context
	db     *pgxpool.Pool
	sim    *crmsim.Sim
	acts   *activities.Activities
	tc     client.Client
	seller opportunity.Actor
	rep    opportunity.Actor
}

func newEnv(t *testing.T, durations ...activities.Durations) *env {
	t.Helper()
	ctx := testenv.Context(t)
	db := testenv.DB(t)
	brands, err := brand.Parse([]byte(`[{"slug":"yep","name":"Yep"},{"slug":"nordata","name":"Nordata"}]`))
	if err != nil {
		t.Fatal(err)
	}
	sim := crmsim.New(db, crmsim.Options{Brands: brands})
	if err := sim.Seed(ctx); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	sf, err := crm.NewSalesforce(sim.ClientConfig(srv.URL), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seed.Run(ctx, db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	d := activities.Durations{Validity: 2160 * time.Hour, RenewalWindow: 360 * time.Hour, ApprovalSLA: 48 * time.Hour, ExpiredRetention: time.Hour}
	if len(durations) > 0 {
		d = durations[0]
	}
	e := &env{t: t, ctx: ctx, db: db, sim: sim, tc: testenv.TemporalClient(t),
		acts: &activities.Activities{DB: db, Brands: brands, CRM: sf, Mailer: mailbox.Log{}, Durations: d}}
	e.seller = e.actor("vendedor1@yep.demo", auth.Seller)
	e.rep = e.actor("representante@yep.demo", auth.Representative)
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- worker.Run(wctx, e.tc, "default", e.acts) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("worker: %v", err)
		}
	})
	return e
}

func (e *env) actor(email string, roles ...auth.Role) opportunity.Actor {
	e.t.Helper()
	a := opportunity.Actor{Roles: roles}
	var resale *string
	if err := e.db.QueryRow(e.ctx, `SELECT id::text, name, resale_id::text FROM users WHERE email = $1`, email).Scan(&a.UserID, &a.Name, &resale); err != nil {
		e.t.Fatal(err)
	}
	if resale != nil {
		a.ResaleID = *resale
	}
	return a
}

// register registers a new opportunity of a customer the CRM knows and
// terminates its workflow when the test ends (its timers must not fire on a
// later test's worker).
func (e *env) register(base string) string {
	e.t.Helper()
	id := newID()
	e.t.Cleanup(func() {
		_ = e.tc.TerminateWorkflow(context.Background(), workflows.OpportunityWorkflowID(id), "", "test over")
	})
	rec := e.record(base)
	op := e.tc.NewWithStartWorkflowOperation(client.StartWorkflowOptions{ID: workflows.OpportunityWorkflowID(id), TaskQueue: workflows.TaskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}, workflows.Opportunity, workflows.OpportunityInput{ID: id, Brand: "yep"})
	h, err := e.tc.UpdateWithStartWorkflow(e.ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateID: "register", UpdateName: workflows.UpdateRegister,
			Args: []any{workflows.RegisterRequest{Actor: e.seller, ResaleCNPJ: seed.ResaleCNPJ(0), Record: rec}}, WaitForStage: client.WorkflowUpdateStageCompleted}})
	if err == nil {
		err = h.Get(e.ctx, nil)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

// record is a registration of a customer the CRM knows (CNPJ base + check digits).
func (e *env) record(base string) opportunity.Record {
	return opportunity.Record{
		Name: "Oportunidade Armazém", CNPJ: cnpjtest.Complete(base), Contact: "Ana Souza", Email: "ana@cliente.com.br", Phone: "11987654321",
		CorporateName: "Cliente Bom Ltda", FantasyName: "Cliente Bom", Street: "Rua A, 1", City: "Campinas", State: "SP", CEP: "13010000",
		Country: "Brasil", ProbabilityClosing: 25, Seller: e.seller.Name, AcceptedTerm: true,
		Projects: []opportunity.Project{{Aplication: "Inventário", Specification: "Coletor 2D", ConclusionDate: "2026-11-15", OpportunityOrigin: "Partner"}},
		Products: []opportunity.Product{{PartNumber: "CT-40", Description: "Coletor de dados CT-40", Amount: 3, Price: 489000}},
	}
}

func (e *env) update(id, name string, arg any) (workflows.OpportunityState, error) {
	var st workflows.OpportunityState
	h, err := e.tc.UpdateWorkflow(e.ctx, client.UpdateWorkflowOptions{WorkflowID: workflows.OpportunityWorkflowID(id), UpdateName: name,
		Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(e.ctx, &st)
	}
	return st, err
}

func (e *env) approve(id string) (workflows.OpportunityState, error) {
	return e.update(id, workflows.UpdateApprove, workflows.ApproveRequest{Actor: e.rep, Name: "Projeto Armazém", Probability: 50})
}

func (e *env) state(id string) workflows.OpportunityState {
	e.t.Helper()
	var st workflows.OpportunityState
	v, err := e.tc.QueryWorkflow(e.ctx, workflows.OpportunityWorkflowID(id), "", workflows.QueryState)
	if err == nil {
		err = v.Get(&st)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}

// row is the read model's view of an opportunity.
type row struct {
	Status      opportunity.Status
	Name        string
	Probability int
	Register    string
	ValidUntil  *time.Time
}

func (e *env) row(id string) row {
	e.t.Helper()
	var r row
	if err := e.db.QueryRow(e.ctx, `SELECT status, name, probability_closing, register, valid_until FROM opportunities WHERE id = $1`, id).
		Scan(&r.Status, &r.Name, &r.Probability, &r.Register, &r.ValidUntil); err != nil {
		e.t.Fatal(err)
	}
	return r
}

// settled backdates the rows' last change, so the reconciler compares their
// CRM records (it leaves alone the rows changed within the last minutes,
// whose CRM sync may still be on its way).
func (e *env) settled() {
	e.t.Helper()
	if _, err := e.db.Exec(e.ctx, `UPDATE opportunities SET updated_at = updated_at - interval '1 hour'`); err != nil {
		e.t.Fatal(err)
	}
}

// synced is the one CRM record holding our id.
func (e *env) synced(id string) crmsim.Synced {
	e.t.Helper()
	list, err := e.sim.Opportunities(e.ctx, id)
	if err != nil || len(list) != 1 {
		e.t.Fatalf("CRM records of %s: %+v (%v), want exactly one", id, list, err)
	}
	return list[0]
}

// reconcile runs the reconciliation once, as the schedule would, and returns its totals.
func (e *env) reconcile() reconcile.Totals {
	e.t.Helper()
	run, err := e.tc.ExecuteWorkflow(e.ctx, client.StartWorkflowOptions{ID: "reconcile-test-" + newID(), TaskQueue: workflows.TaskQueue},
		reconcile.Reconcile, reconcile.Input{})
	if err != nil {
		e.t.Fatal(err)
	}
	var totals reconcile.Totals
	if err := run.Get(e.ctx, &totals); err != nil {
		e.t.Fatalf("reconcile: %v", err)
	}
	return totals
}

// finding is a row of reconciliation_findings.
type finding struct {
	Kind       string
	RecordType string
	RecordID   string
	Expected   string
	Actual     string
	Fields     []string
	Detail     string
	Repaired   bool
	Resolved   bool
	Seen       int
}

func (e *env) findings(recordID string) []finding {
	e.t.Helper()
	rows, _ := e.db.Query(e.ctx, `SELECT kind, record_type, record_id::text, expected, actual, fields, detail, repaired,
			resolved_at IS NOT NULL, seen
		FROM reconciliation_findings WHERE record_id = $1::uuid ORDER BY id`, recordID)
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[finding])
	if err != nil {
		e.t.Fatal(err)
	}
	return list
}

// only is the one finding of the record, failing the test otherwise.
func (e *env) only(recordID string) finding {
	e.t.Helper()
	list := e.findings(recordID)
	if len(list) != 1 {
		e.t.Fatalf("findings of %s: %+v, want exactly one", recordID, list)
	}
	return list[0]
}

// counter is the metric oportuna_reconciliation_findings_total{kind,repaired}.
func counter(kind string, repaired bool) float64 {
	var m dto.Metric
	if err := metrics.ReconciliationFindings.WithLabelValues(kind, fmt.Sprint(repaired)).Write(&m); err != nil {
		panic(err)
	}
	return m.GetCounter().GetValue()
}

// openGauge is oportuna_reconciliation_findings_open{kind} as a scrape reads it.
func (e *env) openGauge(kind string) float64 {
	e.t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(metrics.NewReconciliation(e.db))
	families, err := reg.Gather()
	if err != nil {
		e.t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "oportuna_reconciliation_findings_open" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "kind" && l.GetValue() == kind {
					return m.GetGauge().GetValue()
				}
			}
		}
	}
	e.t.Fatalf("no oportuna_reconciliation_findings_open{kind=%q}", kind)
	return 0
}

// countedOnce: oportuna_reconciliation_findings_total{kind,repaired} grew by
// one since it was before.
func (e *env) countedOnce(kind string, repaired bool, before float64) {
	e.t.Helper()
	if n := counter(kind, repaired) - before; n != 1 {
		e.t.Errorf("oportuna_reconciliation_findings_total{kind=%s,repaired=%t} grew by %v, want 1", kind, repaired, n)
	}
}

// wantOpen: oportuna_reconciliation_findings_open{kind} is want.
func (e *env) wantOpen(kind string, want float64) {
	e.t.Helper()
	if g := e.openGauge(kind); g != want {
		e.t.Errorf("open %s findings = %v, want %v", kind, g, want)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// newID is a random UUID (version 4).
func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
