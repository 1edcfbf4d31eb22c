package crm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/crm"
	"oportuna/internal/calendar"
	"oportuna/internal/dev/crmsim"
	"oportuna/internal/dev/mailbox"
	"oportuna/internal/testenv"
	"oportuna/internal/testenv/cnpjtest"
	"oportuna/opportunity"
	"oportuna/seed"
	"oportuna/worker"
	"oportuna/workflows"
)

// portalEnv is the stand-in plus the portal's read model with the demo users,
// and activities whose CRM is the Salesforce client pointed at the stand-in.
type portalEnv struct {
	*simEnv
	acts   *activities.Activities
	seller opportunity.Actor
	rep    opportunity.Actor
}

func newPortalEnv(t *testing.T) *portalEnv {
	t.Helper()
	e := newSimEnv(t, crmsim.Options{})
	brands := testBrands(t)
	if _, err := seed.Run(e.ctx, e.db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	p := &portalEnv{simEnv: e, acts: &activities.Activities{DB: e.db, Brands: brands, CRM: e.client(), Mailer: mailbox.Log{},
		Durations: activities.Durations{Validity: 2160 * time.Hour, RenewalWindow: 360 * time.Hour, ApprovalSLA: 48 * time.Hour, ExpiredRetention: time.Hour}}}
	p.seller = p.actor("vendedor1@yep.demo", auth.Seller)
	p.rep = p.actor("representante@yep.demo", auth.Representative)
	return p
}

func (p *portalEnv) actor(email string, roles ...auth.Role) opportunity.Actor {
	p.t.Helper()
	a := opportunity.Actor{Roles: roles}
	var resale *string
	if err := p.db.QueryRow(p.ctx, `SELECT id::text, name, resale_id::text FROM users WHERE email = $1`, email).Scan(&a.UserID, &a.Name, &resale); err != nil {
		p.t.Fatal(err)
	}
	if resale != nil {
		a.ResaleID = *resale
	}
	return a
}

func (p *portalEnv) record(doc string) opportunity.Record {
	return opportunity.Record{
		Name: "Oportunidade Armazém", CNPJ: doc, Contact: "Ana Souza", Email: "ana@cliente.com.br", Phone: "11987654321",
		CorporateName: "Cliente Bom Ltda", FantasyName: "Cliente Bom", Street: "Rua A, 1", City: "Campinas", State: "SP", CEP: "13010000",
		Country: "Brasil", ProbabilityClosing: 25, Seller: p.seller.Name, AcceptedTerm: true,
		Projects: []opportunity.Project{{Aplication: "Inventário", Specification: "Coletor 2D", ConclusionDate: "2026-11-15", OpportunityOrigin: "Partner"}},
		Products: []opportunity.Product{
			{PartNumber: "CT-40", Description: "Coletor de dados CT-40", Amount: 3, Price: 489000},
			{PartNumber: "ACME-9", Description: "Coletor concorrente", Amount: 3, Price: 400000, Competition: true},
		},
	}
}

func errType(err error) (string, bool) {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) {
		return "", false
	}
	return app.Type(), app.NonRetryable()
}

func TestSyncCRMSendsTheRecordAndTypesTheRefusals(t *testing.T) {
	p := newPortalEnv(t)
	ctx := p.ctx
	sellers, err := p.acts.CRM.Sellers(ctx, "yep")
	if err != nil {
		t.Fatal(err)
	}
	doc := cnpjtest.Complete("998887770001")
	rec := p.record(doc)
	rec.SellerSalesforceID = sellers[0].UserID
	id := "0f5b7a52-6666-4000-8000-000000000006"
	if _, err := p.acts.Register(ctx, activities.RegisterInput{ID: id, Brand: "yep", Actor: p.seller, Record: rec, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	in := activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: id, Brand: "yep", Name: "Projeto aprovado", Probability: 75}}
	crmID, err := p.acts.SyncCRM(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	list, _ := p.sim.Opportunities(ctx, id)
	if len(list) != 1 {
		t.Fatalf("synced %+v", list)
	}
	got := list[0]
	var resale string
	_ = p.db.QueryRow(ctx, `SELECT corporate_name FROM resales WHERE id = $1`, p.seller.ResaleID).Scan(&resale)
	if got.ID != crmID || got.Name != "Projeto aprovado" || *got.Probability != 75 || got.Stage != "Qualification" ||
		got.CloseDate != "2026-11-15" || got.OwnerID != sellers[0].UserID || got.Reseller != resale || resale == "" || got.Brand != "yep" ||
		*got.Amount != 14670 || len(got.Lines) != 1 || got.Lines[0].ProductCode != "CT-40" || got.Lines[0].Quantity != 3 {
		t.Errorf("synced %+v", got)
	}
	for _, want := range []string{"Concorrentes: ACME-9 Coletor concorrente (3 × R$ 4.000,00)", "Cliente: Cliente Bom Ltda (Cliente Bom) — CNPJ 99.888.777/0001-",
		"Vendedor: " + p.seller.Name, "Aplicação: Inventário", "Contato: Ana Souza — ana@cliente.com.br — 11987654321"} {
		if !strings.Contains(got.Description, want) {
			t.Errorf("description lacks %q:\n%s", want, got.Description)
		}
	}

	refusals := []struct {
		name      string
		arrange   func()
		crm       crm.Client
		wantType  string
		retryable bool
	}{
		{"locked", func() { _ = p.sim.Lock(ctx, id) }, nil, crm.ErrTypeLocked, false},
		{"outage", func() { _ = p.sim.Unlock(ctx, id); p.sim.Outage(1) }, nil, crm.ErrTypeUnavailable, true},
		{"two accounts", func() { _ = p.sim.DuplicateCustomer(ctx, doc) }, nil, crm.ErrTypeMultipleMatches, false},
		{"missing customer", func() { _ = p.sim.MarkMissing(ctx, doc) }, nil, crm.ErrTypeCustomerNotFound, false},
		{"misconfigured field", func() { _ = p.sim.UnmarkMissing(ctx, doc); _ = p.sim.Reset(ctx) },
			p.client(func(c *crm.SalesforceConfig) { c.Fields.OpportunityReseller = "Revenda__c" }), crm.ErrTypeUnavailable, false},
	}
	for _, r := range refusals {
		r.arrange()
		acts := *p.acts
		if r.crm != nil {
			acts.CRM = r.crm
		}
		_, err := acts.SyncCRM(ctx, in)
		typ, nonRetryable := errType(err)
		if typ != r.wantType || nonRetryable == r.retryable {
			t.Errorf("%s: %v (type %q, non-retryable %v), want %s retryable=%v", r.name, err, typ, nonRetryable, r.wantType, r.retryable)
		}
	}
	if _, err := p.acts.SyncCRM(ctx, activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: "0f5b7a52-0000-4000-8000-000000000000", Brand: "yep"}}); err == nil {
		t.Error("an unknown opportunity was synced")
	} else if typ, nonRetryable := errType(err); typ != "NotFound" || !nonRetryable {
		t.Errorf("unknown opportunity: %v", err)
	}
}

// --- workflow integration -----------------------------------------------------------

type workflowEnv struct {
	*portalEnv
	tc client.Client
}

// newWorkflowEnv starts a worker on the portal env, on a namespace of the
// test's own (it runs beside the package's other such tests); edit adjusts
// the activities (CRM client, durations) before it starts.
func newWorkflowEnv(t *testing.T, edit ...func(*portalEnv)) *workflowEnv {
	t.Helper()
	tc, ns := testenv.ParallelTemporalClient(t) // first: the test waits here for its turn
	p := newPortalEnv(t)
	for _, f := range edit {
		f(p)
	}
	wctx, cancel := context.WithCancel(p.ctx)
	done := make(chan error, 1)
	go func() { done <- worker.Run(wctx, tc, ns, p.acts) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("worker: %v", err)
		}
	})
	return &workflowEnv{portalEnv: p, tc: tc}
}

func (w *workflowEnv) register(id, doc string) {
	w.t.Helper()
	op := w.tc.NewWithStartWorkflowOperation(client.StartWorkflowOptions{ID: workflows.OpportunityWorkflowID(id), TaskQueue: workflows.TaskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING}, workflows.Opportunity, workflows.OpportunityInput{ID: id, Brand: "yep"})
	h, err := w.tc.UpdateWithStartWorkflow(w.ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateID: "register", UpdateName: workflows.UpdateRegister,
			Args: []any{workflows.RegisterRequest{Actor: w.seller, ResaleCNPJ: seed.ResaleCNPJ(0), Record: w.record(doc)}}, WaitForStage: client.WorkflowUpdateStageCompleted}})
	if err == nil {
		err = h.Get(w.ctx, nil)
	}
	if err != nil {
		w.t.Fatal(err)
	}
}

func (w *workflowEnv) approve(id string) (workflows.OpportunityState, error) {
	var st workflows.OpportunityState
	h, err := w.tc.UpdateWorkflow(w.ctx, client.UpdateWorkflowOptions{WorkflowID: workflows.OpportunityWorkflowID(id), UpdateName: workflows.UpdateApprove,
		Args: []any{workflows.ApproveRequest{Actor: w.rep, Name: "Projeto Armazém", Probability: 50}}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(w.ctx, &st)
	}
	return st, err
}

func (w *workflowEnv) status(id string) opportunity.Status {
	w.t.Helper()
	var s opportunity.Status
	if err := w.db.QueryRow(w.ctx, `SELECT status FROM opportunities WHERE id = $1`, id).Scan(&s); err != nil {
		w.t.Fatal(err)
	}
	return s
}

// TestApprovalCompletesAfterACRMOutageWithOneRecord: the CRM is down when a
// representative approves; the workflow retries SyncCRM, the stand-in comes
// back but loses the answer to its first write, and the approval still ends
// with exactly one CRM record, whose id the opportunity keeps.
func TestApprovalCompletesAfterACRMOutageWithOneRecord(t *testing.T) {
	w := newWorkflowEnv(t)
	id := "0f5b7a52-7777-4000-8000-000000000007"
	w.register(id, cnpjtest.Complete("887776660001"))

	w.sim.Outage(0)
	type result struct {
		st  workflows.OpportunityState
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := w.approve(id)
		done <- result{st, err}
	}()
	failures := func() int { return w.requests(func(r crmsim.Request) bool { return r.Status == 503 }) }
	deadline := time.Now().Add(20 * time.Second)
	for failures() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the CRM saw %d failing calls", failures())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s := w.status(id); s != opportunity.Analysis {
		t.Fatalf("status during the outage = %s", s)
	}
	w.sim.LoseResponses(1) // back, but the answer to the next write is lost

	var res result
	select {
	case res = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the approval did not complete after the CRM recovered")
	}
	if res.err != nil {
		t.Fatalf("approve: %v", res.err)
	}
	if res.st.Status != opportunity.Approved || w.status(id) != opportunity.Approved {
		t.Fatalf("state %+v, read model %s", res.st, w.status(id))
	}
	if n := failures(); n < 3 {
		t.Errorf("failing calls = %d, want the outage's and the lost write's", n)
	}
	list, err := w.sim.Opportunities(w.ctx, "")
	if err != nil || len(list) != 1 {
		t.Fatalf("CRM records = %+v (%v), want exactly one", list, err)
	}
	rec, err := w.acts.Load(w.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := list[0]; got.ExternalID != id || got.ID != rec.Register || got.ID != res.st.Register || got.Name != "Projeto Armazém" ||
		*got.Probability != 50 || got.Stage != "Qualification" || len(got.Lines) != 1 {
		t.Errorf("CRM record %+v, opportunity register %q", got, rec.Register)
	}
}

// TestApprovalOfACustomerMissingFromTheCRMFailsAndStaysInAnalysis: the CRM has
// no account for the customer's CNPJ; the approval fails at once (no retry)
// with the customer-not-found type the API answers with the spec's message,
// and the opportunity stays in analysis until the customer exists.
func TestApprovalOfACustomerMissingFromTheCRMFailsAndStaysInAnalysis(t *testing.T) {
	w := newWorkflowEnv(t)
	id := "0f5b7a52-8888-4000-8000-000000000008"
	doc := cnpjtest.Complete("776665550001")
	w.register(id, doc)
	if err := w.sim.MarkMissing(w.ctx, doc); err != nil {
		t.Fatal(err)
	}
	_, err := w.approve(id)
	if typ, nonRetryable := errType(err); typ != crm.ErrTypeCustomerNotFound || !nonRetryable {
		t.Fatalf("approve: %v (type %q), want %s", err, typ, crm.ErrTypeCustomerNotFound)
	}
	if n := w.requests(isQuery("Account")); n != 1 {
		t.Errorf("account lookups = %d, want 1 (not retried)", n)
	}
	if s := w.status(id); s != opportunity.Analysis {
		t.Errorf("status = %s, want analysis", s)
	}
	var st workflows.OpportunityState
	v, err := w.tc.QueryWorkflow(w.ctx, workflows.OpportunityWorkflowID(id), "", workflows.QueryState)
	if err != nil || v.Get(&st) != nil || st.Status != opportunity.Analysis || st.Register != "" {
		t.Errorf("workflow state %+v (%v)", st, err)
	}
	if n := w.count(`SELECT count(*) FROM crm_sim.opportunities`); n != 0 {
		t.Errorf("CRM records = %d, want 0", n)
	}
	// The customer is registered in the CRM: the same approval now goes through.
	if err := w.sim.UnmarkMissing(w.ctx, doc); err != nil {
		t.Fatal(err)
	}
	if st, err := w.approve(id); err != nil || st.Status != opportunity.Approved {
		t.Fatalf("approve after the customer exists: %+v (%v)", st, err)
	}
}

func (w *workflowEnv) update(id, name string, arg any) (workflows.OpportunityState, error) {
	var st workflows.OpportunityState
	h, err := w.tc.UpdateWorkflow(w.ctx, client.UpdateWorkflowOptions{WorkflowID: workflows.OpportunityWorkflowID(id), UpdateName: name,
		Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(w.ctx, &st)
	}
	return st, err
}

// synced is the one CRM record of our opportunity.
func (w *workflowEnv) synced(id string) crmsim.Synced {
	w.t.Helper()
	list, err := w.sim.Opportunities(w.ctx, id)
	if err != nil || len(list) != 1 {
		w.t.Fatalf("CRM records of %s: %+v (%v), want exactly one", id, list, err)
	}
	return list[0]
}

// stopAtEnd terminates the workflow when the test ends, so its timers do not
// fire on the workers of later tests.
func (w *workflowEnv) stopAtEnd(id string) {
	w.t.Cleanup(func() {
		_ = w.tc.TerminateWorkflow(context.Background(), workflows.OpportunityWorkflowID(id), "", "test over")
	})
}

// TestASlowCRMFailsTheApprovalWithinTheCallersWait: every call to the CRM
// hangs longer than an attempt may last, so each attempt ends in Temporal's
// start-to-close timeout. The approval still answers within the CRM budget,
// well before the API stops waiting, with the communication error the API
// turns into the spec's message (not an untyped timeout); and it does not land
// later: the opportunity stays in analysis and the CRM holds nothing.
func TestASlowCRMFailsTheApprovalWithinTheCallersWait(t *testing.T) {
	w := newWorkflowEnv(t, func(p *portalEnv) {
		p.acts.CRM = p.client(func(c *crm.SalesforceConfig) { c.Timeout = 2 * time.Minute })
	})
	id := "0f5b7a52-9999-4000-8000-000000000009"
	w.register(id, cnpjtest.Complete("665554440001"))
	w.sim.SetDelay(2 * time.Minute)
	start := time.Now()
	_, err := w.approve(id)
	took := time.Since(start)
	w.sim.SetDelay(0)
	if typ, _ := errType(err); typ != crm.ErrTypeUnavailable {
		t.Fatalf("approve with a hanging CRM: %v (type %q), want %s", err, typ, crm.ErrTypeUnavailable)
	}
	if took < workflows.CRMBudget-5*time.Second || took > workflows.CRMBudget+10*time.Second {
		t.Errorf("the approval answered after %v, want about the CRM budget (%v; the API waits %v)", took, workflows.CRMBudget, workflows.DecisionWait)
	}
	if n := w.requests(func(r crmsim.Request) bool { return r.Path == "/services/oauth2/token" }); n < 2 || n > workflows.CRMRetryAttempts {
		t.Errorf("token requests = %d: want the attempts that fit in the budget", n)
	}
	time.Sleep(3 * time.Second) // nothing may happen after the caller heard of the failure
	if s := w.status(id); s != opportunity.Analysis {
		t.Errorf("status = %s, want analysis", s)
	}
	if n := w.count(`SELECT count(*) FROM crm_sim.opportunities`); n != 0 {
		t.Errorf("CRM records = %d, want 0", n)
	}
	// The CRM is fast again: the same approval goes through.
	if st, err := w.approve(id); err != nil || st.Status != opportunity.Approved {
		t.Fatalf("approve after the CRM recovered: %+v (%v)", st, err)
	}
}

// TestTheCRMFollowsExpiryRenewalAndEdits runs an approved opportunity through
// its expiry, a renewal and an edit with durations of seconds: the CRM record
// closes (the expired stage) when the validity ends, reopens when the renewal
// is approved, and takes the representative's edit; a locked record refuses
// the edit, which then changes nothing.
func TestTheCRMFollowsExpiryRenewalAndEdits(t *testing.T) {
	w := newWorkflowEnv(t, func(p *portalEnv) {
		p.acts.Durations = activities.Durations{Validity: 8 * time.Second, RenewalWindow: 4 * time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}
	})
	id := "0f5b7a52-aaaa-4000-8000-00000000000a"
	w.stopAtEnd(id)
	w.register(id, cnpjtest.Complete("554443330001"))
	if _, err := w.approve(id); err != nil {
		t.Fatal(err)
	}
	first := w.synced(id)
	if first.Stage != "Qualification" {
		t.Fatalf("after the approval: stage %q", first.Stage)
	}
	deadline := time.Now().Add(20 * time.Second)
	for w.synced(id).Stage != "Closed Lost" {
		if time.Now().After(deadline) {
			t.Fatalf("the CRM record is %q 20 s after the approval (status %s), want Closed Lost after the expiry", w.synced(id).Stage, w.status(id))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if s := w.status(id); s != opportunity.Expired {
		t.Fatalf("status %s with the CRM record closed", s)
	}
	if _, err := w.update(id, workflows.UpdateRequestRenewal, workflows.RenewalRequest{Actor: w.seller, Renewal: opportunity.RenewalRequest{
		Reason: "Cliente retomou", ProbabilityClosing: 75, ProjectStillInScope: "Sim", LastVisitDate: calendar.ISO(time.Now())}}); err != nil {
		t.Fatal(err)
	}
	st, err := w.update(id, workflows.UpdateDecideRenewal, workflows.RenewalDecision{Actor: w.rep, Approve: true})
	if err != nil || st.Status != opportunity.Approved {
		t.Fatalf("renewal approval: %+v (%v)", st, err)
	}
	renewed := w.synced(id)
	if renewed.ID != first.ID || renewed.Stage != "Qualification" || *renewed.Probability != 75 {
		t.Errorf("after the renewal: %+v, want the same record %s reopened at Qualification with 75%%", renewed, first.ID)
	}
	if _, err := w.update(id, workflows.UpdateEdit, workflows.EditRequest{Actor: w.rep, Name: ptr("Projeto Renovado")}); err != nil {
		t.Fatal(err)
	}
	if got := w.synced(id); got.Name != "Projeto Renovado" || got.ID != first.ID {
		t.Errorf("after the edit: %+v", got)
	}
	if err := w.sim.Lock(w.ctx, id); err != nil {
		t.Fatal(err)
	}
	_, err = w.update(id, workflows.UpdateEdit, workflows.EditRequest{Actor: w.rep, Name: ptr("Outro nome")})
	if typ, _ := errType(err); typ != crm.ErrTypeLocked {
		t.Fatalf("edit of a locked record: %v, want %s", err, crm.ErrTypeLocked)
	}
	rec, err := w.acts.Load(w.ctx, id)
	if err != nil || rec.Name != "Projeto Renovado" || rec.Register != first.ID {
		t.Errorf("record after the refused edit: name %q register %q (%v)", rec.Name, rec.Register, err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestAnApprovalWhoseFirstUpsertMeetsDuplicateValueSucceeds: Salesforce
// refuses the approval's first upsert with DUPLICATE_VALUE (it overlapped
// another write of the same external id). The retry reads the record again
// and writes it: the approval succeeds, with one CRM record, after the
// DUPLICATE_VALUE back-off.
func TestAnApprovalWhoseFirstUpsertMeetsDuplicateValueSucceeds(t *testing.T) {
	w := newWorkflowEnv(t)
	id := opportunity.NewID() // a fresh workflow id: the test may run again on the same Temporal server
	w.stopAtEnd(id)
	w.register(id, cnpjtest.Complete("443332220001"))
	w.sim.DuplicateValues(1)
	st, err := w.approve(id)
	if err != nil || st.Status != opportunity.Approved {
		t.Fatalf("approve: %+v (%v), want approved", st, err)
	}
	if n := w.requests(func(r crmsim.Request) bool { return r.Composite == "opp" && r.Status == 400 }); n != 1 {
		t.Errorf("upserts refused = %d, want the one DUPLICATE_VALUE", n)
	}
	got := w.synced(id)
	if got.ID != st.Register || got.Stage != "Qualification" || len(got.Lines) != 1 {
		t.Errorf("CRM record %+v, opportunity register %q", got, st.Register)
	}

	// The activity's error: retryable, after DuplicateValueBackoff.
	w.sim.DuplicateValues(1)
	_, err = w.acts.SyncCRM(w.ctx, activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: id, Brand: "yep"}, Status: opportunity.Approved})
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.NonRetryable() || app.Type() != crm.ErrTypeUnavailable || app.NextRetryDelay() != activities.DuplicateValueBackoff {
		t.Errorf("SyncCRM meeting DUPLICATE_VALUE: %v, want a retryable %s after %v", err, crm.ErrTypeUnavailable, activities.DuplicateValueBackoff)
	}
}

// TestBackgroundSyncsPauseNearTheOrgsLimit: a background sync (nobody waits
// for it) leaves the CRM alone while the org's API usage last seen is at or
// above 90 % of its limit, or the org refused a call with
// REQUEST_LIMIT_EXCEEDED: a retryable CRMPaused error whose next attempt
// comes when that reading is BackgroundPause old; an older reading lets one
// call through, whose answer reads the usage anew. Syncs people wait for are
// never paused.
func TestBackgroundSyncsPauseNearTheOrgsLimit(t *testing.T) {
	p := newPortalEnv(t)
	const pause = 2 * time.Second
	c := p.client(func(cfg *crm.SalesforceConfig) { cfg.BackgroundPause = pause })
	p.acts.CRM = c
	id := "0f5b7a52-eeee-4000-8000-00000000000e"
	if _, err := p.acts.Register(p.ctx, activities.RegisterInput{ID: id, Brand: "yep", Actor: p.seller, Record: p.record(cnpjtest.Complete("332221110001")), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	in := activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: id, Brand: "yep"}, Status: opportunity.Approved}
	bg := in
	bg.Background = true
	writes := func() int { return p.requests(func(r crmsim.Request) bool { return r.Composite == "opp" }) }
	seen := func(used int64) {
		t.Helper()
		p.sim.SetAPIUsage(used, 100000)
		if _, err := c.Sellers(p.ctx, "yep"); err != nil {
			t.Fatal(err)
		}
	}
	paused := func(name string) {
		t.Helper()
		before := writes()
		_, err := p.acts.SyncCRM(p.ctx, bg)
		var app *temporal.ApplicationError
		if !errors.As(err, &app) || app.NonRetryable() || app.Type() != crm.ErrTypePaused ||
			app.NextRetryDelay() <= 0 || app.NextRetryDelay() > pause {
			t.Errorf("%s: %v, want a retryable %s within %v", name, err, crm.ErrTypePaused, pause)
		}
		if writes() != before {
			t.Errorf("%s: the paused sync wrote to the CRM", name)
		}
	}
	synced := func(name string, in activities.CRMSyncInput) {
		t.Helper()
		before := writes()
		if _, err := p.acts.SyncCRM(p.ctx, in); err != nil || writes() != before+1 {
			t.Errorf("%s: %v, %d writes; want it written", name, err, writes()-before)
		}
	}

	seen(89000)
	synced("background sync at 89 %", bg)
	seen(90000)
	paused("background sync at 90 %")
	synced("approval at 90 %", in)
	paused("background sync after the approval's answer at 90 %")
	seen(10)
	synced("background sync after usage fell", bg)

	// An old reading lets one background call through (its answer reads the usage).
	seen(95000)
	paused("background sync at 95 %")
	waitFor(t, "the reading to age", func() bool { wait, _ := c.BackgroundWait(); return wait == 0 })
	synced("background sync after the pause", bg)
	paused("background sync after the probe read 95 % again")

	// REQUEST_LIMIT_EXCEEDED on a background sync's own call: paused.
	waitFor(t, "the reading to age", func() bool { wait, _ := c.BackgroundWait(); return wait == 0 })
	p.sim.SetAPIUsage(100000, 100000)
	_, err := p.acts.SyncCRM(p.ctx, bg)
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.NonRetryable() || app.Type() != crm.ErrTypePaused || app.NextRetryDelay() <= 0 ||
		!strings.Contains(err.Error(), "REQUEST_LIMIT_EXCEEDED") {
		t.Errorf("background sync refused REQUEST_LIMIT_EXCEEDED: %v, want %s with a pause", err, crm.ErrTypePaused)
	}
	_, err = p.acts.SyncCRM(p.ctx, in)
	if !errors.As(err, &app) || app.NonRetryable() || app.Type() != crm.ErrTypeUnavailable || app.NextRetryDelay() != 0 {
		t.Errorf("approval refused REQUEST_LIMIT_EXCEEDED: %v, want a plain retryable %s", err, crm.ErrTypeUnavailable)
	}
}

// TestAnExpiryWaitsWhileTheOrgIsNearItsLimit: the workflow's background sync
// of an expiry is paced: with the org at 95 % of its limit the expiry's write
// pauses (CRMPaused) instead of calling, and lands once the reading is old
// enough for one call to go through.
func TestAnExpiryWaitsWhileTheOrgIsNearItsLimit(t *testing.T) {
	var c *crm.Salesforce
	w := newWorkflowEnv(t, func(p *portalEnv) {
		p.acts.Durations = activities.Durations{Validity: 3 * time.Second, RenewalWindow: time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}
		c = p.client(func(cfg *crm.SalesforceConfig) { cfg.BackgroundPause = 8 * time.Second })
		p.acts.CRM = c
	})
	id := opportunity.NewID() // a fresh workflow id: the test may run again on the same Temporal server
	w.stopAtEnd(id)
	w.register(id, cnpjtest.Complete("221110000001"))
	if _, err := w.approve(id); err != nil {
		t.Fatal(err)
	}
	w.sim.SetAPIUsage(95000, 100000)
	if _, err := c.Sellers(w.ctx, "yep"); err != nil {
		t.Fatal(err)
	}
	pausedSync := func() bool {
		d, err := w.tc.DescribeWorkflowExecution(w.ctx, workflows.OpportunityWorkflowID(id), "")
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range d.GetPendingActivities() {
			if f := a.GetLastFailure(); a.GetActivityType().GetName() == "SyncCRM" && f.GetApplicationFailureInfo().GetType() == crm.ErrTypePaused {
				return true
			}
		}
		return false
	}
	waitFor(t, "the expiry's sync to pause", pausedSync)
	if s := w.synced(id).Stage; s != "Qualification" {
		t.Fatalf("the CRM record is %q while the expiry's sync pauses, want it untouched", s)
	}
	if s := w.status(id); s != opportunity.Expired {
		t.Errorf("status %s: the expiry waited for the CRM", s)
	}
	waitFor(t, "the expiry to reach the CRM after the pause", func() bool { return w.synced(id).Stage == "Closed Lost" })
}
