package api

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"oportuna/activities"
	"oportuna/cnpj"
	"oportuna/crm"
	"oportuna/internal/dev/crmsim"
	"oportuna/internal/dev/mailbox"
	"oportuna/internal/testenv"
	"oportuna/worker"
	"oportuna/workflows"
)

// The spec's texts (§8), written out: the test fails if a constant drifts.
const (
	specCRMCustomer      = "Ops! Algo deu errado ao buscar os dados do cliente Salesforce. Por favor, confira o cadastro no Salesforce e tente novamente."
	specCRMLocked        = "A oportunidade já existe no CRM, não pode ser alterada. Por favor, agurade a renovação da oportunidade para atualiza-la no CRM."
	specCRMCommunication = "Ops! Ocorreu um erro ao tentar se comunicar com o Salesforce. Por favor, tente novamente em instantes."
	specSellersFailed    = "Não foi possivel recuperar os vendedores no Salesforce"
)

// newCRMStack is newStack with a handle on the Salesforce stand-in, whose
// failure controls the tests drive.
func newCRMStack(t *testing.T) (*stack, *crmsim.Sim) {
	t.Helper()
	return newStackWith(t, activities.Durations{Validity: 2160 * time.Hour, RenewalWindow: 360 * time.Hour, ApprovalSLA: 48 * time.Hour, ExpiredRetention: time.Hour})
}

// newStackWith is newCRMStack with the lifecycle's durations d.
func newStackWith(t *testing.T, d activities.Durations) (*stack, *crmsim.Sim) {
	t.Helper()
	ctx := testenv.Context(t)
	tc := testenv.TemporalClient(t)
	db, brands := seeded(t, ctx, twoBrands)
	sim := crmsim.New(db, crmsim.Options{Brands: brands})
	simURL, err := sim.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sf, err := crm.NewSalesforce(sim.ClientConfig(simURL), nil)
	if err != nil {
		t.Fatal(err)
	}
	acts := &activities.Activities{DB: db, Brands: brands, CRM: sf, Mailer: mailbox.Log{}, Durations: d}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { _ = worker.Run(wctx, tc, "default", acts); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	st := &stack{t: t, db: db, replica: func() *httptest.Server {
		// An API process of its own on the same database, Temporal and worker.
		return serve(t, &Server{Brands: brands, DB: db, Temporal: tc, CRM: acts.CRM, Auth: testAuth(db, brands), Web: testWeb})
	}}
	st.srv = st.replica()
	return st, sim
}

func TestTheCRMBudgetEndsBeforeTheAPIStopsWaiting(t *testing.T) {
	if workflows.CRMBudget+15*time.Second > updateTimeout {
		t.Errorf("CRM budget %v leaves too little of the API's wait %v", workflows.CRMBudget, updateTimeout)
	}
}

// TestCRMErrorsReachTheUserWithTheSpecsMessages drives the stand-in's failure
// controls under the real API, workflow and Salesforce client: every CRM
// failure of an approval answers the spec's status and text and leaves the
// opportunity in analysis; a locked record refuses the edit of an approved
// opportunity with 423; a failing seller lookup answers 502 and is logged.
func TestCRMErrorsReachTheUserWithTheSpecsMessages(t *testing.T) {
	st, sim := newCRMStack(t)
	ctx := testenv.Context(t)
	seller := st.login("vendedor1@nordata.demo", "nordata")
	rep := st.login("representante@nordata.demo", "nordata")
	digits, _ := cnpj.CheckDigits("223334440001")
	doc := "223334440001" + digits
	id := seller.create(cnpj.Format(doc), "")
	approve := map[string]any{"status": "approved", "name": "Projeto Armazém", "probabilityClosing": 50}
	stillInAnalysis := func(when string) {
		t.Helper()
		_, got := rep.call("GET", "/api/opportunity/id/"+id, nil)
		rec := got["data"].([]any)[0].(map[string]any)
		if rec["status"] != "analysis" || rec["register"] != "" {
			t.Errorf("%s: status %v register %v, want analysis and no CRM id", when, rec["status"], rec["register"])
		}
	}

	// The customer is not in the CRM.
	if err := sim.MarkMissing(ctx, doc); err != nil {
		t.Fatal(err)
	}
	code, body := rep.call("PATCH", "/api/opportunity/"+id, approve)
	if code != 422 || body["message"] != specCRMCustomer || body["code"] != "CUSTOMER_NOT_FOUND" {
		t.Errorf("customer missing: %d %v", code, body)
	}
	stillInAnalysis("after the customer-not-found refusal")
	if err := sim.UnmarkMissing(ctx, doc); err != nil {
		t.Fatal(err)
	}

	// The CRM record is locked (an approval process holds it).
	if err := sim.Lock(ctx, id); err != nil {
		t.Fatal(err)
	}
	code, body = rep.call("PATCH", "/api/opportunity/"+id, approve)
	if code != 423 || body["message"] != specCRMLocked {
		t.Errorf("locked: %d %v", code, body)
	}
	stillInAnalysis("after the locked refusal")
	if err := sim.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}

	// The CRM is down past the retry budget.
	sim.Outage(0)
	start := time.Now()
	code, body = rep.call("PATCH", "/api/opportunity/"+id, approve)
	if code != 502 || body["message"] != specCRMCommunication || body["code"] != "CRM_COMMUNICATION_ERROR" {
		t.Errorf("outage: %d %v", code, body)
	}
	if took := time.Since(start); took > workflows.CRMBudget+5*time.Second {
		t.Errorf("the outage was answered after %v", took)
	}
	stillInAnalysis("after the outage")

	// The seller list fails while the CRM is down, and says why in the log.
	var logs testenv.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	code, body = seller.call("GET", "/api/opportunity/getSellersOnSalesforce", nil)
	slog.SetDefault(prev)
	if code != 502 || body["message"] != specSellersFailed {
		t.Errorf("seller list during the outage: %d %v", code, body)
	}
	if out := logs.String(); !strings.Contains(out, "level=ERROR") || !strings.Contains(out, "SERVER_UNAVAILABLE") {
		t.Errorf("the seller lookup failure was not logged with its error:\n%s", out)
	}
	sim.ClearOutage()

	// Back to normal: the approval goes through; then a locked record refuses
	// the representative's edits, which change nothing.
	code, body = rep.call("PATCH", "/api/opportunity/"+id, approve)
	if code != 200 || body["message"] != "Oportunidade aprovada com sucesso" {
		t.Fatalf("approve: %d %v", code, body)
	}
	if err := sim.Lock(ctx, id); err != nil {
		t.Fatal(err)
	}
	code, body = rep.call("PATCH", "/api/opportunity/"+id, map[string]any{"name": "Outro nome"})
	if code != 423 || body["message"] != specCRMLocked {
		t.Errorf("edit of a locked CRM record: %d %v", code, body)
	}
	code, body = rep.call("PATCH", "/api/opportunity", map[string]any{"id": id, "probabilityClosing": 100})
	if code != 423 || body["message"] != specCRMLocked {
		t.Errorf("probability update of a locked CRM record: %d %v", code, body)
	}
	_, got := rep.call("GET", "/api/opportunity/id/"+id, nil)
	rec := got["data"].([]any)[0].(map[string]any)
	if rec["status"] != "approved" || rec["name"] != "Projeto Armazém" || rec["probabilityClosing"] != 50.0 {
		t.Errorf("after the refused edits: %v", rec)
	}
	if err := sim.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
	code, body = rep.call("PATCH", "/api/opportunity", map[string]any{"id": id, "probabilityClosing": 75})
	if code != 200 {
		t.Fatalf("probability update: %d %v", code, body)
	}
	synced, err := sim.Opportunities(ctx, id)
	if err != nil || len(synced) != 1 || *synced[0].Probability != 75 {
		t.Errorf("the CRM after the probability update: %+v (%v)", synced, err)
	}
}
