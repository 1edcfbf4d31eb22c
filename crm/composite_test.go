package crm_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"oportuna/cnpj"
	"oportuna/crm"
	"oportuna/internal/dev/crmsim"
	"oportuna/internal/testenv/cnpjtest"
	"oportuna/opportunity"
)

// apiRequests is what the stand-in's admin API counts (GET /__sim/stats),
// without the token requests.
func (e *simEnv) apiRequests() (int, map[string]int) {
	e.t.Helper()
	res, err := http.Get(e.srv.URL + "/__sim/stats")
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	var st crmsim.StatsAnswer
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		e.t.Fatal(err)
	}
	n := 0
	for class, v := range st.Requests {
		if class != "token" {
			n += v
		}
	}
	return n, st.Requests
}

// TestAnApprovalMakesAtMostTwoRequests: the approval's Account lookup,
// Opportunity upsert and line items take at most two HTTP requests to the
// CRM (the token is cached: one token request for all of them), the same
// for an update that replaces the lines, a renewal that reopens the record
// and a disapproval; an expiry synced again takes one.
func TestAnApprovalMakesAtMostTwoRequests(t *testing.T) {
	e, c := newSimClient(t)
	sellers, err := c.Sellers(e.ctx, "yep")
	if err != nil {
		t.Fatal(err)
	}
	o := sampleOpportunity("0f5b7a52-5555-4000-8000-000000000001", cnpjtest.Complete("778889990001"))
	o.SellerCRMID = sellers[0].UserID
	step := func(name string, o crm.Opportunity, most int) string {
		t.Helper()
		before, _ := e.apiRequests()
		id, err := c.UpsertOpportunity(e.ctx, o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		after, classes := e.apiRequests()
		if n := after - before; n > most || n < 1 {
			t.Errorf("%s: %d requests to the CRM, want 1 to %d (%v)", name, n, most, classes)
		}
		return id
	}
	id := step("approval", o, 2)
	list, _ := e.sim.Opportunities(e.ctx, o.ID)
	if len(list) != 1 || list[0].ID != id || len(list[0].Lines) != 2 || list[0].OwnerID != sellers[0].UserID || list[0].AccountCNPJ == "" {
		t.Fatalf("synced %+v", list)
	}
	o.Lines = o.Lines[:1]
	o.Name = "Projeto Armazém (revisto)"
	step("edit replacing the lines", o, 2)
	expired := o
	expired.Status = opportunity.Expired
	step("expiry", expired, 2)
	step("expiry synced again", expired, 1)
	renewed := o
	renewed.Reopen = true
	step("renewal approval", renewed, 2)
	refused := o
	refused.Status = opportunity.Disapproved
	step("renewal refusal", refused, 2)

	_, classes := e.apiRequests()
	if classes["token"] != 1 || classes["query"] != 1 || classes["sobject"] != 0 || classes["collections"] != 0 {
		t.Errorf("requests by kind %v: want one token, one query (the sellers), every write through /composite", classes)
	}
	list, _ = e.sim.Opportunities(e.ctx, o.ID)
	if len(list) != 1 || list[0].Name != "Projeto Armazém (revisto)" || len(list[0].Lines) != 1 || list[0].Stage != "Closed Lost" {
		t.Errorf("after the decisions %+v", list)
	}
}

// TestARetriedApprovalCreatesNoDuplicate: the write's answer is lost (the
// stand-in committed it); the retry makes at most two requests and leaves
// one record with exactly its lines.
func TestARetriedApprovalCreatesNoDuplicate(t *testing.T) {
	e, c := newSimClient(t)
	o := sampleOpportunity("0f5b7a52-5555-4000-8000-000000000002", cnpjtest.Complete("889990000001"))
	e.sim.LoseResponses(1) // the read is a GET-only Composite call: the write's answer is the one lost
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.Is(err, crm.ErrUnavailable) {
		t.Fatalf("lost answer: %v, want ErrUnavailable", err)
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.opportunities WHERE external_id = $1`, o.ID); n != 1 {
		t.Fatalf("records after the lost answer = %d, want 1 (written)", n)
	}
	before, _ := e.apiRequests()
	id, err := c.UpsertOpportunity(e.ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if after, classes := e.apiRequests(); after-before > 2 {
		t.Errorf("retry: %d requests, want at most 2 (%v)", after-before, classes)
	}
	list, _ := e.sim.Opportunities(e.ctx, o.ID)
	if len(list) != 1 || list[0].ID != id || len(list[0].Lines) != 2 {
		t.Errorf("after the retry %+v", list)
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.line_items`); n != 2 {
		t.Errorf("line items = %d, want 2", n)
	}
}

// TestCompositeAllOrNone: the stand-in's Composite resource rolls everything
// back when a subrequest fails under allOrNone (the failing one keeps its
// error, the others answer PROCESSING_HALTED), resolves @{ref.path}
// references, and refuses calls Salesforce refuses (REST API Developer Guide,
// "Composite", https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_composite_composite.htm:
// at most 25 subrequests, 5 of them queries or sObject Collections).
func TestCompositeAllOrNone(t *testing.T) {
	e, c := newSimClient(t)
	ver := "/services/data/" + crm.DefaultAPIVersion
	doc := cnpjtest.Complete("990001110001")
	if _, err := c.FindAccount(e.ctx, doc); err != nil { // creates the stand-in's account
		t.Fatal(err)
	}
	q := func(ref, soql string) crm.Subrequest {
		return crm.Subrequest{Method: "GET", ReferenceID: ref, URL: ver + "/query?q=" + strings.ReplaceAll(soql, " ", "+")}
	}
	upsert := func(ref, id string, body map[string]any) crm.Subrequest {
		return crm.Subrequest{Method: "PATCH", ReferenceID: ref, URL: ver + "/sobjects/Opportunity/Oportuna_Id__c/" + id, Body: body}
	}
	good := map[string]any{"Name": "Ok", "StageName": "Prospecting", "CloseDate": "2026-12-01", "AccountId": "@{acc.records[0].Id}"}
	bad := map[string]any{"Name": "Bad", "StageName": "Ganha", "CloseDate": "2026-12-01"}
	subs := []crm.Subrequest{
		q("acc", fmt.Sprintf("SELECT Id FROM Account WHERE CNPJ__c = '%s'", cnpj.Format(doc))),
		upsert("first", "0f5b7a52-6666-4000-8000-000000000001", good),
		upsert("second", "0f5b7a52-6666-4000-8000-000000000002", bad),
	}
	res, err := c.Composite(e.ctx, true, subs)
	if err != nil {
		t.Fatal(err)
	}
	code := func(r crm.SubResult) string {
		var errs []struct{ ErrorCode string }
		_ = json.Unmarshal(r.Body, &errs)
		if len(errs) == 0 {
			return ""
		}
		return errs[0].ErrorCode
	}
	if r := res["second"]; r.HTTPStatusCode != 400 || code(r) != "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST" {
		t.Errorf("failing subrequest %d %s", r.HTTPStatusCode, r.Body)
	}
	for _, ref := range []string{"acc", "first"} {
		if r := res[ref]; r.HTTPStatusCode != 400 || code(r) != "PROCESSING_HALTED" {
			t.Errorf("%s: %d %s, want 400 PROCESSING_HALTED", ref, r.HTTPStatusCode, r.Body)
		}
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.opportunities`); n != 0 {
		t.Errorf("%d records kept by a rolled-back call", n)
	}

	// Without allOrNone the good write stays, with the account referenced.
	res, err = c.Composite(e.ctx, false, subs)
	if err != nil {
		t.Fatal(err)
	}
	if r := res["first"]; r.HTTPStatusCode != 201 {
		t.Errorf("first: %d %s, want 201", r.HTTPStatusCode, r.Body)
	}
	var account string
	if err := e.db.QueryRow(e.ctx, `SELECT account_id FROM crm_sim.opportunities WHERE external_id = '0f5b7a52-6666-4000-8000-000000000001'`).Scan(&account); err != nil || !strings.HasPrefix(account, "001") {
		t.Errorf("referenced account %q (%v)", account, err)
	}
	// A reference to nothing halts its subrequest.
	res, err = c.Composite(e.ctx, false, []crm.Subrequest{upsert("dangling", "0f5b7a52-6666-4000-8000-000000000003",
		map[string]any{"Name": "X", "StageName": "Prospecting", "CloseDate": "2026-12-01", "AccountId": "@{nothing.id}"})})
	if err != nil || res["dangling"].HTTPStatusCode != 400 || code(res["dangling"]) != "PROCESSING_HALTED" {
		t.Errorf("dangling reference: %+v (%v)", res["dangling"], err)
	}
	// Six queries: refused as a whole.
	var six []crm.Subrequest
	for i := 0; i < 6; i++ {
		six = append(six, q(fmt.Sprintf("q%d", i), "SELECT Id FROM User"))
	}
	_, err = c.Composite(e.ctx, false, six)
	var apiErr *crm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 400 {
		t.Errorf("six queries: %v, want HTTP 400", err)
	}
}

// TestLimitInfoHeaderIsReadOnEveryAnswer: the stand-in reports the org's API
// usage in Sforce-Limit-Info like Salesforce; the client keeps the last one.
func TestLimitInfoHeaderIsReadOnEveryAnswer(t *testing.T) {
	e := newSimEnv(t, crmsim.Options{APILimit: 5000})
	c := e.client()
	if _, _, _, ok := c.APIUsage(); ok {
		t.Fatal("usage known before any call")
	}
	if _, err := c.Sellers(e.ctx, "yep"); err != nil {
		t.Fatal(err)
	}
	used, limit, _, ok := c.APIUsage()
	if !ok || used != 1 || limit != 5000 {
		t.Errorf("after one call: %d/%d (%v), want 1/5000", used, limit, ok)
	}
	e.sim.SetAPIUsage(4321, 0)
	if _, err := c.UpsertOpportunity(e.ctx, sampleOpportunity("0f5b7a52-5555-4000-8000-000000000003", cnpjtest.Complete("112223330001"))); err != nil {
		t.Fatal(err)
	}
	if used, limit, _, _ = c.APIUsage(); used != 4323 || limit != 5000 {
		t.Errorf("after an approval: %d/%d, want 4323/5000 (two requests)", used, limit)
	}
}
