package crm_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"oportuna/crm"
	"oportuna/internal/dev/crmsim"
	"oportuna/internal/testenv/cnpjtest"
	"oportuna/opportunity"
)

func TestClientCredentialsSessionIsReusedThenRenewedAfterRevocation(t *testing.T) {
	e, c := newSimClient(t)
	yep, err := c.Sellers(e.ctx, "yep")
	if err != nil {
		t.Fatal(err)
	}
	if len(yep) != 3 {
		t.Fatalf("yep sellers = %+v, want the 3 active ones", yep)
	}
	if !sort.SliceIsSorted(yep, func(i, j int) bool { return yep[i].Name < yep[j].Name }) {
		t.Errorf("sellers not sorted by name: %+v", yep)
	}
	for _, s := range yep {
		if len(s.UserID) != 18 || !strings.HasPrefix(s.UserID, "005") || s.Company != "Yep" || s.Name == "" {
			t.Errorf("seller %+v", s)
		}
	}
	nordata, err := c.Sellers(e.ctx, "nordata")
	if err != nil || len(nordata) != 3 || nordata[0].Company != "Nordata" || nordata[0].UserID == yep[0].UserID {
		t.Fatalf("nordata sellers = %+v (%v)", nordata, err)
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.tokens WHERE flow = 'client_credentials'`); n != 1 {
		t.Errorf("tokens issued = %d, want 1 (the session is reused)", n)
	}

	revoked, err := e.sim.RevokeTokens(e.ctx)
	if err != nil || revoked != 1 {
		t.Fatalf("revoked %d (%v)", revoked, err)
	}
	again, err := c.Sellers(e.ctx, "yep")
	if err != nil || len(again) != 3 {
		t.Fatalf("after revocation: %+v (%v)", again, err)
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.tokens`); n != 2 {
		t.Errorf("tokens issued = %d, want 2 (a new session after INVALID_SESSION_ID)", n)
	}
	if n := e.requests(func(r crmsim.Request) bool { return r.Status == http.StatusUnauthorized }); n != 1 {
		t.Errorf("401 answers = %d, want 1", n)
	}
}

func TestJWTBearerFlowSignsWithTheConnectedAppKey(t *testing.T) {
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	e := newSimEnv(t, crmsim.Options{JWTPublicKey: &key.PublicKey})
	jwtFlow := func(k *rsa.PrivateKey, user string) func(*crm.SalesforceConfig) {
		return func(c *crm.SalesforceConfig) {
			c.Flow, c.ClientSecret, c.PrivateKey, c.Username = crm.FlowJWT, "", k, user
		}
	}
	sellers, err := e.client(jwtFlow(key, crmsim.DevUsername)).Sellers(e.ctx, "yep")
	if err != nil || len(sellers) != 3 {
		t.Fatalf("jwt flow: %+v (%v)", sellers, err)
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.tokens WHERE flow = 'jwt' AND username = $1`, crmsim.DevUsername); n != 1 {
		t.Errorf("jwt tokens = %d, want 1", n)
	}

	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	for name, cfg := range map[string]func(*crm.SalesforceConfig){
		"a key the app does not know": jwtFlow(other, crmsim.DevUsername),
		"a user who did not approve":  jwtFlow(key, "outra@pessoa.dev"),
		"a sandbox audience": func(c *crm.SalesforceConfig) {
			jwtFlow(key, crmsim.DevUsername)(c)
			c.JWTAudience = crm.SandboxJWTAudience
		},
	} {
		_, err := e.client(cfg).Sellers(e.ctx, "yep")
		var apiErr *crm.APIError
		if !errors.As(err, &apiErr) || apiErr.Code != "invalid_grant" || errors.Is(err, crm.ErrUnavailable) {
			t.Errorf("%s: %v, want a permanent invalid_grant", name, err)
		}
	}
}

func TestWrongClientCredentialsArePermanentErrors(t *testing.T) {
	e := newSimEnv(t, crmsim.Options{})
	for name, edit := range map[string]func(*crm.SalesforceConfig){
		"secret": func(c *crm.SalesforceConfig) { c.ClientSecret = "errado" },
		"id":     func(c *crm.SalesforceConfig) { c.ClientID = "outro-app" },
	} {
		_, err := e.client(edit).Sellers(e.ctx, "yep")
		var apiErr *crm.APIError
		if !errors.As(err, &apiErr) || !strings.HasPrefix(apiErr.Code, "invalid_client") || errors.Is(err, crm.ErrUnavailable) {
			t.Errorf("wrong %s: %v", name, err)
		}
	}
}

func TestQueriesFollowNextRecordsURL(t *testing.T) {
	e := newSimEnv(t, crmsim.Options{PageSize: 2, SellersPerBrand: 5})
	c := e.client()
	sellers, err := c.Sellers(e.ctx, "yep")
	if err != nil || len(sellers) != 5 {
		t.Fatalf("sellers over pages of 2: %+v (%v)", sellers, err)
	}
	seen := map[string]bool{}
	for _, s := range sellers {
		seen[s.UserID] = true
	}
	if len(seen) != 5 {
		t.Errorf("a page was repeated: %+v", sellers)
	}
	if n := e.requests(func(r crmsim.Request) bool { return strings.Contains(r.Path, "/query/") }); n != 2 {
		t.Errorf("nextRecordsUrl calls = %d, want 2 (pages 2, 2, 1)", n)
	}
	all, err := c.Query(e.ctx, "SELECT Id, Name FROM User")
	if err != nil || len(all) != 12 { // 2 brands × (5 active + 1 inactive)
		t.Errorf("all users = %d (%v)", len(all), err)
	}
}

func TestUpsertCreatesThenUpdatesOneRecordAndReplacesItsLines(t *testing.T) {
	e, c := newSimClient(t)
	sellers, err := c.Sellers(e.ctx, "yep")
	if err != nil {
		t.Fatal(err)
	}
	doc := cnpjtest.Complete("112223330001")
	o := sampleOpportunity("0f5b7a52-1111-4000-8000-000000000001", doc)
	o.SellerCRMID = sellers[1].UserID
	id, err := c.UpsertOpportunity(e.ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	list, err := e.sim.Opportunities(e.ctx, o.ID)
	if err != nil || len(list) != 1 {
		t.Fatalf("synced %+v (%v)", list, err)
	}
	got := list[0]
	if got.ID != id || len(id) != 18 || !strings.HasPrefix(id, "006") || got.Name != "Projeto Armazém" || got.Stage != "Qualification" ||
		got.CloseDate != "2026-09-30" || *got.Probability != 50 || got.Brand != "yep" || got.Reseller != "Revenda Demo Ltda" ||
		got.OwnerID != sellers[1].UserID || got.AccountCNPJ != "11.222.333/0001-81" || got.AccountName == "" {
		t.Errorf("record %+v", got)
	}
	if got.Amount == nil || *got.Amount != 10141.50 {
		t.Errorf("amount %v, want the lines' sum 10141.50", got.Amount)
	}
	if len(got.Lines) != 2 || got.Lines[0].ProductCode != "CT-40" || got.Lines[0].Quantity != 2 || got.Lines[0].UnitPrice != 4890 ||
		got.Lines[1].ProductCode != crm.DefaultGenericProductCode || got.Lines[1].Description != "[Acessório] XYZ-1 — Suporte veicular" ||
		got.Lines[1].UnitPrice != 120.50 {
		t.Errorf("lines %+v", got.Lines)
	}

	// An update: same record, new name and lines, the old lines gone.
	o.Name = "Projeto Armazém Fase 2"
	o.Lines = []crm.LineItem{{PartNumber: "ZL-420", Description: "Impressora", Quantity: 4, UnitPrice: 315050},
		{PartNumber: "CT-40", Description: "Coletor de dados", Quantity: 1, UnitPrice: 480000},
		{PartNumber: "", Description: "Instalação", Quantity: 1, UnitPrice: 50000}}
	again, err := c.UpsertOpportunity(e.ctx, o)
	if err != nil || again != id {
		t.Fatalf("update = %q (%v), want %q", again, err, id)
	}
	list, _ = e.sim.Opportunities(e.ctx, o.ID)
	if len(list) != 1 || list[0].Name != "Projeto Armazém Fase 2" || len(list[0].Lines) != 3 || *list[0].Amount != 12602+4800+500 {
		t.Fatalf("after update %+v", list)
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.opportunities`); n != 1 {
		t.Errorf("opportunities = %d, want 1", n)
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.line_items`); n != 3 {
		t.Errorf("line items = %d, want 3", n)
	}

	// The same upsert again writes no line: they already are what was sent.
	before := list[0].Lines
	writes := e.requests(func(r crmsim.Request) bool { return strings.Contains(r.Path, "/composite/") })
	if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
		t.Fatal(err)
	}
	list, _ = e.sim.Opportunities(e.ctx, o.ID)
	if e.requests(func(r crmsim.Request) bool { return strings.Contains(r.Path, "/composite/") }) != writes || list[0].Lines[0].ID != before[0].ID {
		t.Error("identical lines were rewritten")
	}

	// No products: the amount is sent and the old lines are removed.
	o.Lines, o.Amount = nil, 777700
	if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
		t.Fatal(err)
	}
	list, _ = e.sim.Opportunities(e.ctx, o.ID)
	if len(list[0].Lines) != 0 || *list[0].Amount != 7777 {
		t.Errorf("without products: %+v", list[0])
	}
}

func TestRetriesAfterLostResponsesLeaveOneRecordWithExactlyItsLines(t *testing.T) {
	e, c := newSimClient(t)
	o := sampleOpportunity("0f5b7a52-2222-4000-8000-000000000002", cnpjtest.Complete("223334440001"))
	// The create is done but its answer is lost; the retry updates that record.
	e.sim.LoseResponses(1)
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.Is(err, crm.ErrUnavailable) {
		t.Fatalf("lost response: %v, want ErrUnavailable", err)
	}
	id, err := c.UpsertOpportunity(e.ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	// New lines; the answer of the write (upsert, delete, insert in one
	// all-or-none Composite call) is lost.
	o.Lines = append(o.Lines, crm.LineItem{PartNumber: "MP-2", Description: "Impressora móvel", Quantity: 5, UnitPrice: 189990})
	e.sim.LoseResponses(1)
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.Is(err, crm.ErrUnavailable) {
		t.Fatalf("lost write answer: %v", err)
	}
	if again, err := c.UpsertOpportunity(e.ctx, o); err != nil || again != id {
		t.Fatalf("retry = %q (%v), want %q", again, err, id)
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.line_items`); n != 3 {
		t.Errorf("line items = %d, want 3", n)
	}
	// Fewer lines, the answer lost again: the retry finds them written.
	o.Lines = o.Lines[:1]
	e.sim.LoseResponses(1)
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.Is(err, crm.ErrUnavailable) {
		t.Fatalf("lost write answer: %v", err)
	}
	if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
		t.Fatal(err)
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.opportunities WHERE external_id = $1`, o.ID); n != 1 {
		t.Errorf("records = %d, want 1", n)
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.line_items`); n != 1 {
		t.Errorf("line items = %d, want 1", n)
	}
}

func TestCRMRefusalsAreTyped(t *testing.T) {
	e, c := newSimClient(t)
	n := 0
	fresh := func(doc string) crm.Opportunity {
		n++
		return sampleOpportunity(fmt.Sprintf("0f5b7a52-3333-4000-8000-%012d", n), doc)
	}
	upsertOK := func(o crm.Opportunity) {
		t.Helper()
		if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	expect := func(name string, o crm.Opportunity, want error, code string) {
		t.Helper()
		_, err := c.UpsertOpportunity(e.ctx, o)
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
		for _, other := range []error{crm.ErrCustomerNotFound, crm.ErrLocked, crm.ErrUnavailable, crm.ErrMultipleMatches} {
			if other != want && errors.Is(err, other) {
				t.Errorf("%s: %v is also %v", name, err, other)
			}
		}
		var apiErr *crm.APIError
		if code != "" && (!errors.As(err, &apiErr) || apiErr.Code != code) {
			t.Errorf("%s: %v, want code %s", name, err, code)
		}
	}

	missing := cnpjtest.Complete("334445550001")
	if err := e.sim.MarkMissing(e.ctx, missing); err != nil {
		t.Fatal(err)
	}
	expect("customer marked missing", fresh(missing), crm.ErrCustomerNotFound, "")
	expect("customer in the reserved range", fresh(cnpjtest.Complete("334445559999")), crm.ErrCustomerNotFound, "")
	expect("CNPJ with wrong check digits", fresh("33444555000100"), crm.ErrCustomerNotFound, "")
	if n := e.count(`SELECT count(*) FROM crm_sim.opportunities`); n != 0 {
		t.Errorf("%d records written for missing customers", n)
	}

	dup := cnpjtest.Complete("445556660001")
	if err := e.sim.DuplicateCustomer(e.ctx, dup); err != nil {
		t.Fatal(err)
	}
	expect("two accounts with one CNPJ", fresh(dup), crm.ErrMultipleMatches, "")

	doc := cnpjtest.Complete("556667770001")
	twice := fresh(doc)
	upsertOK(twice)
	if err := e.sim.DuplicateOpportunity(e.ctx, twice.ID); err != nil {
		t.Fatal(err)
	}
	expect("two records with our external id", twice, crm.ErrMultipleMatches, "MULTIPLE_CHOICES")

	locked := fresh(doc)
	upsertOK(locked)
	if err := e.sim.Lock(e.ctx, locked.ID); err != nil {
		t.Fatal(err)
	}
	expect("locked by an approval process", locked, crm.ErrLocked, "ENTITY_IS_LOCKED")

	closed := fresh(doc)
	upsertOK(closed)
	if err := e.sim.CloseOpportunity(e.ctx, closed.ID, "Closed Won"); err != nil {
		t.Fatal(err)
	}
	expect("closed in the CRM", closed, crm.ErrLocked, "")

	e.sim.Outage(1)
	expect("outage", fresh(doc), crm.ErrUnavailable, "SERVER_UNAVAILABLE")
	e.sim.RateLimit(1)
	expect("rate limit", fresh(doc), crm.ErrUnavailable, "REQUEST_LIMIT_EXCEEDED")

	e.sim.SetDelay(time.Second)
	slow := e.client(func(c *crm.SalesforceConfig) { c.Timeout = 200 * time.Millisecond })
	if _, err := slow.Sellers(e.ctx, "yep"); !errors.Is(err, crm.ErrUnavailable) {
		t.Errorf("timeout: %v, want ErrUnavailable", err)
	}
	e.sim.SetDelay(0)
	if _, err := slow.Sellers(e.ctx, "yep"); err != nil {
		t.Errorf("after slowness: %v", err)
	}

	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	unreachable, _ := crm.NewSalesforce(e.sim.ClientConfig(down.URL), nil)
	if _, err := unreachable.Sellers(e.ctx, "yep"); !errors.Is(err, crm.ErrUnavailable) {
		t.Errorf("connection refused: %v, want ErrUnavailable", err)
	}

	// A field the CRM does not have is a configuration error, not an outage.
	misnamed := e.client(func(c *crm.SalesforceConfig) { c.Fields.OpportunityBrand = "Marca__c" })
	_, err := misnamed.UpsertOpportunity(e.ctx, fresh(doc))
	var apiErr *crm.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != "INVALID_FIELD" || errors.Is(err, crm.ErrUnavailable) {
		t.Errorf("unknown field: %v", err)
	}
	// A stage the org does not have, likewise.
	badStage := e.client(func(c *crm.SalesforceConfig) { c.Stages = map[opportunity.Status]string{opportunity.Approved: "Ganha"} })
	_, err = badStage.UpsertOpportunity(e.ctx, fresh(doc))
	if !errors.As(err, &apiErr) || apiErr.Code != "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST" || errors.Is(err, crm.ErrUnavailable) {
		t.Errorf("unknown stage: %v", err)
	}
}

// TestExpiryClosesTheRecordAndOnlyARenewalReopensIt: the portal writes the
// expired stage (a closed one) when an opportunity expires; writing it again
// changes nothing; a renewal (Reopen) reopens a record closed at that stage,
// while any other write to it, or a reopening of a deal the CRM closed
// otherwise (won), stays locked.
func TestExpiryClosesTheRecordAndOnlyARenewalReopensIt(t *testing.T) {
	e, c := newSimClient(t)
	o := sampleOpportunity("0f5b7a52-4444-4000-8000-000000000010", cnpjtest.Complete("667778880001"))
	id, err := c.UpsertOpportunity(e.ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	expired := o
	expired.Status = opportunity.Expired
	if got, err := c.UpsertOpportunity(e.ctx, expired); err != nil || got != id {
		t.Fatalf("expiry: %q %v", got, err)
	}
	stage := func() string {
		list, err := e.sim.Opportunities(e.ctx, o.ID)
		if err != nil || len(list) != 1 {
			t.Fatalf("records %+v (%v)", list, err)
		}
		return list[0].Stage
	}
	if s := stage(); s != "Closed Lost" {
		t.Fatalf("stage after the expiry %q, want Closed Lost", s)
	}
	writes := func() int {
		return e.requests(func(r crmsim.Request) bool { return r.Method == "PATCH" })
	}
	before := writes()
	if got, err := c.UpsertOpportunity(e.ctx, expired); err != nil || got != id || writes() != before {
		t.Errorf("expiry synced again: %q %v, %d more writes; want the id and no write", got, err, writes()-before)
	}
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.Is(err, crm.ErrLocked) {
		t.Errorf("an edit of the expired record: %v, want ErrLocked", err)
	}
	renewed := o
	renewed.Reopen, renewed.Probability = true, 75
	if got, err := c.UpsertOpportunity(e.ctx, renewed); err != nil || got != id {
		t.Fatalf("renewal: %q %v", got, err)
	}
	if s := stage(); s != "Qualification" {
		t.Errorf("stage after the renewal %q, want Qualification", s)
	}
	if err := e.sim.CloseOpportunity(e.ctx, o.ID, "Closed Won"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpsertOpportunity(e.ctx, renewed); !errors.Is(err, crm.ErrLocked) {
		t.Errorf("reopening a won deal: %v, want ErrLocked", err)
	}
	if s := stage(); s != "Closed Won" {
		t.Errorf("stage %q, want Closed Won untouched", s)
	}
}

func TestAnInactiveSellerDoesNotBecomeTheOwner(t *testing.T) {
	e, c := newSimClient(t)
	var inactive string
	if err := e.db.QueryRow(e.ctx, `SELECT id FROM crm_sim.users WHERE brand = 'yep' AND NOT active`).Scan(&inactive); err != nil {
		t.Fatal(err)
	}
	o := sampleOpportunity("0f5b7a52-4444-4000-8000-000000000004", cnpjtest.Complete("667778880001"))
	for _, seller := range []string{inactive, "not-an-id", "005000000000000AAA"} {
		o.SellerCRMID = seller
		if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
			t.Fatalf("seller %q: %v", seller, err)
		}
		list, _ := e.sim.Opportunities(e.ctx, o.ID)
		if list[0].OwnerID != "" {
			t.Errorf("seller %q became the owner", seller)
		}
	}
}

// Callers needing a token at once share one token request; one whose context
// ends while the token endpoint is slow gives up at its own deadline. When the
// caller that started the request gives up, the request goes with it and those
// still waiting ask again: a token request never outlives every caller.
func TestConcurrentCallersShareOneSlowTokenRequest(t *testing.T) {
	e := newSimEnv(t, crmsim.Options{})
	target, _ := url.Parse(e.srv.URL)
	forward := httputil.NewSingleHostReverseProxy(target)
	release := make(chan struct{})
	var tokenCalls, tokenCancelled atomic.Int32
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/services/oauth2/token" {
			tokenCalls.Add(1)
			// Read the form first: the server notices a client gone only then.
			form, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(form))
			select {
			case <-release:
			case <-r.Context().Done():
				tokenCancelled.Add(1)
				return
			}
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(slow.Close)
	c := e.client(func(cfg *crm.SalesforceConfig) { cfg.URL = slow.URL })
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				close(release)
				t.Fatalf("timed out waiting for %s (token requests %d, cancelled %d)", what, tokenCalls.Load(), tokenCancelled.Load())
			}
		}
	}
	sellers := func(ctx context.Context, out chan<- error) {
		list, err := c.Sellers(ctx, "yep")
		if err == nil && len(list) != 3 {
			err = fmt.Errorf("%d sellers", len(list))
		}
		out <- err
	}

	// An impatient caller starts the token request.
	impatient, cancel := context.WithTimeout(e.ctx, 300*time.Millisecond)
	defer cancel()
	first := make(chan error, 1)
	go sellers(impatient, first)
	waitFor("the first token request", func() bool { return tokenCalls.Load() == 1 })

	// Five patient callers join it.
	const callers = 5
	errs := make(chan error, callers)
	for i := 0; i < callers; i++ {
		go sellers(e.ctx, errs)
	}
	select {
	case err := <-first:
		if !errors.Is(err, crm.ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("impatient caller: %v, want ErrUnavailable after its deadline", err)
		}
	case <-time.After(30 * time.Second):
		close(release)
		t.Fatal("the impatient caller is still waiting for the token 30 s after its deadline")
	}
	// Its request was cancelled with it; the others asked again, once, together.
	waitFor("the request of the patient callers", func() bool { return tokenCalls.Load() == 2 && tokenCancelled.Load() == 1 })
	close(release)
	for i := 0; i < callers; i++ {
		if err := <-errs; err != nil {
			t.Errorf("caller %d: %v", i, err)
		}
	}
	if n := tokenCalls.Load(); n != 2 {
		t.Errorf("token requests = %d, want 2 (the impatient caller's, then one shared by the other five)", n)
	}
}
