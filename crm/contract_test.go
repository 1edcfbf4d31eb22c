package crm_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"oportuna/crm"
	"oportuna/internal/dev/crmsim"
	"oportuna/internal/testenv/cnpjtest"
)

// Contract tests: each behaviour of Salesforce's REST API the client relies
// on, as the REST API Developer Guide documents it, answered by the stand-in
// and met by the real client (crm.Salesforce) over loopback HTTP. Each names
// the guide's page.

const apiBase = "/services/data/" + crm.DefaultAPIVersion

func upsertSub(ref, id string, body map[string]any) crm.Subrequest {
	return crm.Subrequest{Method: http.MethodPatch, ReferenceID: ref, URL: apiBase + "/sobjects/Opportunity/Oportuna_Id__c/" + id, Body: body}
}

func errorCode(r crm.SubResult) string {
	var errs []struct{ ErrorCode string }
	_ = json.Unmarshal(r.Body, &errs)
	if len(errs) == 0 {
		return ""
	}
	return errs[0].ErrorCode
}

// waitFor polls cond until it holds (10 s at most).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// writing reports whether an upsert of our id is still running inside the stand-in.
func (e *simEnv) writing(id string) bool {
	e.t.Helper()
	st, err := e.sim.State(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	return slices.Contains(st.Writing, id)
}

// REST API Developer Guide, "Insert or Update (Upsert) a Record Using an
// External ID" (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/dome_upsert.htm)
// and "Upsert Records Using sObject Rows by External ID"
// (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_sobject_upsert_patch.htm):
// with a unique external id, the Unique attribute prevents duplicates; two
// upserts of one external id that overlap (the second arrives while the first
// is still creating the record) cannot both create it, and the second is
// refused with DUPLICATE_VALUE ("duplicate value found: <field> duplicates
// value on record with id: <id>"). Once the first is done, the same upsert
// updates its record. An upsert overlapping one that updates the record waits
// for it (a row lock) and both succeed.
func TestContractOverlappingUpsertsOfOneExternalIDAnswerDuplicateValue(t *testing.T) {
	e, c := newSimClient(t)
	id := "0f5b7a52-c0c0-4000-8000-000000000001"
	body := map[string]any{"Name": "Primeiro", "StageName": "Prospecting", "CloseDate": "2026-12-01"}

	e.sim.SlowWrites(3*time.Second, 1) // the first upsert holds its write inside the org
	first := make(chan crm.SubResult, 1)
	go func() {
		res, err := c.Composite(e.ctx, true, []crm.Subrequest{upsertSub("opp", id, body)})
		if err != nil {
			t.Errorf("first upsert: %v", err)
		}
		first <- res["opp"]
	}()
	waitFor(t, "the first upsert to be writing", func() bool { return e.writing(id) })

	body["Name"] = "Segundo"
	res, err := c.Composite(e.ctx, true, []crm.Subrequest{upsertSub("opp", id, body)})
	if err != nil {
		t.Fatal(err)
	}
	second := res["opp"]
	var errs []struct{ Message, ErrorCode string }
	_ = json.Unmarshal(second.Body, &errs)
	if second.HTTPStatusCode != http.StatusBadRequest || len(errs) != 1 || errs[0].ErrorCode != crm.CodeDuplicateValue ||
		!strings.HasPrefix(errs[0].Message, "duplicate value found: Oportuna_Id__c duplicates value on record with id: 006") {
		t.Fatalf("overlapping upsert: %d %s, want 400 DUPLICATE_VALUE naming the external id", second.HTTPStatusCode, second.Body)
	}
	if r := <-first; r.HTTPStatusCode != http.StatusCreated {
		t.Fatalf("first upsert: %d %s, want 201", r.HTTPStatusCode, r.Body)
	}
	created, _ := e.sim.Opportunities(e.ctx, id)
	if len(created) != 1 || created[0].Name != "Primeiro" || !strings.Contains(errs[0].Message, created[0].ID) {
		t.Fatalf("records %+v; DUPLICATE_VALUE named %q", created, errs[0].Message)
	}

	// Done: the same upsert now updates the record.
	res, err = c.Composite(e.ctx, true, []crm.Subrequest{upsertSub("opp", id, body)})
	if err != nil || res["opp"].HTTPStatusCode != http.StatusOK {
		t.Fatalf("upsert after the first ended: %+v (%v), want 200", res["opp"], err)
	}

	// Overlapping updates of an existing record: the second waits, both succeed.
	e.sim.SlowWrites(2*time.Second, 1)
	done := make(chan int, 1)
	go func() {
		res, err := c.Composite(e.ctx, true, []crm.Subrequest{upsertSub("opp", id, map[string]any{"Name": "Terceiro"})})
		if err != nil {
			t.Errorf("slow update: %v", err)
		}
		done <- res["opp"].HTTPStatusCode
	}()
	waitFor(t, "the slow update to be writing", func() bool { return e.writing(id) })
	res, err = c.Composite(e.ctx, true, []crm.Subrequest{upsertSub("opp", id, map[string]any{"Name": "Quarto"})})
	if err != nil || res["opp"].HTTPStatusCode != http.StatusOK {
		t.Errorf("update overlapping an update: %+v (%v), want 200 after waiting", res["opp"], err)
	}
	if code := <-done; code != http.StatusOK {
		t.Errorf("slow update: %d", code)
	}
	if list, _ := e.sim.Opportunities(e.ctx, id); len(list) != 1 || list[0].Name != "Quarto" {
		t.Errorf("after overlapping updates %+v, want one record, the later name", list)
	}
}

// TestAnUpsertOverlappingATimedOutOneIsRetriedToOneRecord: the client gives
// up on an upsert whose write still runs inside the org; its retry meets the
// running write and is refused DUPLICATE_VALUE (same page as above). That
// refusal is retryable (ErrUnavailable: the remedy is to try again), and the
// next attempt, after the first write ended, updates the one record.
func TestAnUpsertOverlappingATimedOutOneIsRetriedToOneRecord(t *testing.T) {
	e := newSimEnv(t, crmsim.Options{})
	c := e.client(func(cfg *crm.SalesforceConfig) { cfg.Timeout = time.Second })
	o := sampleOpportunity("0f5b7a52-c0c0-4000-8000-000000000002", cnpjtest.Complete("101112130001"))
	// The token and the customer's account first: only the write is slow.
	if _, err := c.FindAccount(e.ctx, o.CustomerDoc); err != nil {
		t.Fatal(err)
	}
	e.sim.SlowWrites(5*time.Second, 1)
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.Is(err, crm.ErrUnavailable) {
		t.Fatalf("timed-out upsert: %v, want ErrUnavailable", err)
	}
	if !e.writing(o.ID) {
		t.Fatal("the timed-out write is not running inside the stand-in")
	}
	_, err := c.UpsertOpportunity(e.ctx, o)
	var apiErr *crm.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != crm.CodeDuplicateValue || !errors.Is(err, crm.ErrUnavailable) {
		t.Fatalf("retry overlapping the running write: %v, want a retryable DUPLICATE_VALUE", err)
	}
	waitFor(t, "the timed-out write to end", func() bool { return !e.writing(o.ID) })
	id, err := c.UpsertOpportunity(e.ctx, o)
	if err != nil {
		t.Fatalf("retry after the write ended: %v", err)
	}
	list, _ := e.sim.Opportunities(e.ctx, o.ID)
	if len(list) != 1 || list[0].ID != id || len(list[0].Lines) != 2 {
		t.Errorf("records %+v, want one with its 2 lines", list)
	}

	// The chaos switch: the next 2 upserts answer DUPLICATE_VALUE.
	e.sim.DuplicateValues(2)
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.As(err, &apiErr) || apiErr.Code != crm.CodeDuplicateValue || !errors.Is(err, crm.ErrUnavailable) {
		t.Errorf("switched DUPLICATE_VALUE: %v, want retryable", err)
	}
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.Is(err, crm.ErrUnavailable) {
		t.Errorf("second switched DUPLICATE_VALUE: %v, want retryable", err)
	}
	if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
		t.Errorf("after the switch's 2 upserts: %v", err)
	}
	if list, _ := e.sim.Opportunities(e.ctx, o.ID); len(list) != 1 {
		t.Errorf("records %+v, want one", list)
	}

	// A DUPLICATE_VALUE naming another unique field is no overlap: permanent.
	other := &crm.APIError{Status: 400, Code: crm.CodeDuplicateValue, Message: "duplicate value found: Numero_Pedido__c duplicates value on record with id: 006000000000001AAA"}
	if err := crm.Overlapping(other, "Oportuna_Id__c"); errors.Is(err, crm.ErrUnavailable) {
		t.Errorf("DUPLICATE_VALUE on another field made retryable: %v", err)
	}
}

// REST API Developer Guide, "Composite"
// (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_composite_composite.htm)
// and "Composite Response Body", section "Composite Subrequest Result"
// (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/responses_composite.htm):
// the call answers HTTP 200 whatever its subrequests answered, each with its
// own httpStatusCode; with allOrNone true, a failing subrequest rolls back
// those before it and halts those after it, all answering 400
// PROCESSING_HALTED, while it keeps its own error.
func TestContractCompositeAnswers200WithEachSubrequestsStatus(t *testing.T) {
	e, c := newSimClient(t)
	ok := map[string]any{"Name": "Ok", "StageName": "Prospecting", "CloseDate": "2026-12-01"}
	bad := map[string]any{"Name": "Bad", "StageName": "Ganha", "CloseDate": "2026-12-01"}
	ids := []string{"0f5b7a52-c1c1-4000-8000-000000000001", "0f5b7a52-c1c1-4000-8000-000000000002", "0f5b7a52-c1c1-4000-8000-000000000003"}
	subs := []crm.Subrequest{upsertSub("before", ids[0], ok), upsertSub("failing", ids[1], bad), upsertSub("after", ids[2], ok)}

	res, err := c.Composite(e.ctx, true, subs)
	if err != nil {
		t.Fatal(err)
	}
	if r := res["failing"]; r.HTTPStatusCode != 400 || errorCode(r) != "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST" {
		t.Errorf("failing subrequest: %d %s", r.HTTPStatusCode, r.Body)
	}
	for _, ref := range []string{"before", "after"} {
		if r := res[ref]; r.HTTPStatusCode != 400 || errorCode(r) != "PROCESSING_HALTED" {
			t.Errorf("%s: %d %s, want 400 PROCESSING_HALTED", ref, r.HTTPStatusCode, r.Body)
		}
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.opportunities`); n != 0 {
		t.Errorf("%d records kept: the subrequest before the failure was not rolled back", n)
	}

	res, err = c.Composite(e.ctx, false, subs)
	if err != nil {
		t.Fatal(err)
	}
	if res["before"].HTTPStatusCode != 201 || res["failing"].HTTPStatusCode != 400 || res["after"].HTTPStatusCode != 201 {
		t.Errorf("without allOrNone: %d %d %d, want 201 400 201", res["before"].HTTPStatusCode, res["failing"].HTTPStatusCode, res["after"].HTTPStatusCode)
	}
	calls := 0
	for _, r := range e.sim.Requests() {
		if r.Composite == "" && strings.HasSuffix(r.Path, "/composite") {
			calls++
			if r.Status != http.StatusOK {
				t.Errorf("composite call answered HTTP %d, want 200", r.Status)
			}
		}
	}
	if calls != 2 {
		t.Errorf("composite calls = %d, want 2", calls)
	}
}

// REST API Developer Guide, "Insert or Update (Upsert) a Record Using an
// External ID" (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/dome_upsert.htm):
// when the external id matches several records, the upsert answers 300
// Multiple Choices (a JSON array of the records' URLs) and writes nothing;
// so does a GET of the record by that external id ("Get a Record Using an
// External ID"). The client types it ErrMultipleMatches.
func TestContract300ForSeveralRecordsOfOneExternalID(t *testing.T) {
	e, c := newSimClient(t)
	o := sampleOpportunity("0f5b7a52-c2c2-4000-8000-000000000001", cnpjtest.Complete("141516170001"))
	if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
		t.Fatal(err)
	}
	if err := e.sim.DuplicateOpportunity(e.ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	res, err := c.Composite(e.ctx, false, []crm.Subrequest{
		upsertSub("upsert", o.ID, map[string]any{"Name": "Não deve gravar"}),
		{Method: http.MethodGet, ReferenceID: "get", URL: apiBase + "/sobjects/Opportunity/Oportuna_Id__c/" + o.ID},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"upsert", "get"} {
		r := res[ref]
		var urls []string
		if r.HTTPStatusCode != http.StatusMultipleChoices || json.Unmarshal(r.Body, &urls) != nil || len(urls) != 2 ||
			!strings.HasPrefix(urls[0], apiBase+"/sobjects/Opportunity/006") {
			t.Errorf("%s: %d %s, want 300 with the 2 records' URLs", ref, r.HTTPStatusCode, r.Body)
		}
		if err := r.Err(); !errors.Is(err, crm.ErrMultipleMatches) {
			t.Errorf("%s: %v, want ErrMultipleMatches", ref, err)
		}
	}
	for _, s := range mustSynced(t, e, o.ID) {
		if s.Name != o.Name {
			t.Errorf("a record was written by the refused upsert: %q", s.Name)
		}
	}
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.Is(err, crm.ErrMultipleMatches) {
		t.Errorf("UpsertOpportunity: %v, want ErrMultipleMatches", err)
	}
}

func mustSynced(t *testing.T, e *simEnv, id string) []crmsim.Synced {
	t.Helper()
	list, err := e.sim.Opportunities(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// REST API Developer Guide, "Status Codes and Error Responses"
// (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm):
// 401 INVALID_SESSION_ID when the session ID or OAuth token has expired or is
// invalid (the stand-in: revoked, or unused for its session timeout). The
// client asks for a new token once and repeats the call; a token refused
// again is an error, not a loop.
func TestContractExpiredOrRevokedSessionGetsOneNewToken(t *testing.T) {
	e, c := newSimClient(t)
	if _, err := c.Sellers(e.ctx, "yep"); err != nil {
		t.Fatal(err)
	}
	for _, end := range []struct {
		name string
		do   func() (int64, error)
	}{{"expired", func() (int64, error) { return e.sim.ExpireTokens(e.ctx) }}, {"revoked", func() (int64, error) { return e.sim.RevokeTokens(e.ctx) }}} {
		tokens := e.count(`SELECT count(*) FROM crm_sim.tokens`)
		refused := e.requests(func(r crmsim.Request) bool { return r.Status == http.StatusUnauthorized })
		if n, err := end.do(); err != nil || n < 1 {
			t.Fatalf("%s: %d sessions (%v)", end.name, n, err)
		}
		if _, err := c.Sellers(e.ctx, "yep"); err != nil {
			t.Fatalf("after the session %s: %v", end.name, err)
		}
		if n := e.count(`SELECT count(*) FROM crm_sim.tokens`) - tokens; n != 1 {
			t.Errorf("%s: %d new tokens, want 1", end.name, n)
		}
		if n := e.requests(func(r crmsim.Request) bool { return r.Status == http.StatusUnauthorized }) - refused; n != 1 {
			t.Errorf("%s: %d answers 401, want 1", end.name, n)
		}
	}

	// Sessions that expire at once: one new token, then the refusal.
	instant := newSimEnv(t, crmsim.Options{SessionTimeout: time.Nanosecond})
	_, err := instant.client().Sellers(instant.ctx, "yep")
	var apiErr *crm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusUnauthorized || apiErr.Code != "INVALID_SESSION_ID" {
		t.Errorf("token refused twice: %v, want 401 INVALID_SESSION_ID", err)
	}
	if n := instant.count(`SELECT count(*) FROM crm_sim.tokens`); n != 2 {
		t.Errorf("tokens asked for = %d, want 2 (one renewal)", n)
	}
}

// REST API Developer Guide, "Status Codes and Error Responses"
// (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm):
// 403 REQUEST_LIMIT_EXCEEDED when the org's API requests exceed its limit.
// The client types it retryable (ErrUnavailable) and counts it as the org at
// its limit: background syncs pause. An org on its burst allowance ("Limit
// Info Header": api-usage=110018/100000; api-bursts=1/750) keeps answering.
func TestContractOrgPastItsLimitAnswersRequestLimitExceeded(t *testing.T) {
	e := newSimEnv(t, crmsim.Options{APILimit: 1000})
	c := e.client()
	e.sim.SetAPIUsage(999, 0)
	if _, err := c.Sellers(e.ctx, "yep"); err != nil {
		t.Fatalf("the last request under the limit: %v", err)
	}
	if wait, _ := c.BackgroundWait(); wait <= 0 {
		t.Errorf("at 1000/1000 background syncs do not pause")
	}
	_, err := c.Sellers(e.ctx, "yep")
	var apiErr *crm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusForbidden || apiErr.Code != "REQUEST_LIMIT_EXCEEDED" || !errors.Is(err, crm.ErrUnavailable) {
		t.Fatalf("past the limit: %v, want a retryable 403 REQUEST_LIMIT_EXCEEDED", err)
	}
	if used, limit := e.sim.APIUsage(); used != 1000 || limit != 1000 {
		t.Errorf("the refused call was counted: %d/%d", used, limit)
	}
	if ratio, _, ok := c.APIPressure(); !ok || ratio < 1 {
		t.Errorf("pressure after REQUEST_LIMIT_EXCEEDED: %v %v, want at least 1", ratio, ok)
	}

	// A refusal whose header says little (a switched rate limit) still counts.
	other := newSimEnv(t, crmsim.Options{})
	oc := other.client()
	if _, err := oc.Sellers(other.ctx, "yep"); err != nil {
		t.Fatal(err)
	}
	if wait, _ := oc.BackgroundWait(); wait != 0 {
		t.Fatalf("background paused at a usage of 1")
	}
	other.sim.RateLimit(1)
	if _, err := oc.Sellers(other.ctx, "yep"); !errors.Is(err, crm.ErrUnavailable) {
		t.Fatalf("rate limit: %v", err)
	}
	if wait, why := oc.BackgroundWait(); wait <= 0 || !strings.Contains(why, "100%") {
		t.Errorf("after REQUEST_LIMIT_EXCEEDED: wait %v %q, want a pause", wait, why)
	}
	if _, err := oc.Sellers(other.ctx, "yep"); err != nil {
		t.Fatal(err)
	}
	if wait, _ := oc.BackgroundWait(); wait != 0 {
		t.Errorf("a later answer at low usage still pauses the background")
	}

	// Bursts: past the limit, answered, reported.
	if err := e.sim.LimitInfo(crmsim.LimitInfoBursts, 0, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Sellers(e.ctx, "yep"); err != nil {
		t.Fatalf("on burst allowance: %v", err)
	}
	if used, limit, _, _ := c.APIUsage(); used != 1001 || limit != 1000 {
		t.Errorf("usage on burst allowance %d/%d, want 1001/1000", used, limit)
	}
}

// REST API Developer Guide, "Limit Info Header"
// (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/headers_api_usage.htm):
// every REST answer carries Sforce-Limit-Info, in one of three forms; the
// client reads each.
func TestContractEveryAnswerCarriesSforceLimitInfoInEachForm(t *testing.T) {
	for _, c := range []struct {
		value string
		want  crm.LimitInfo
	}{
		{"api-usage=18/5000", crm.LimitInfo{Used: 18, Limit: 5000}},
		{"api-usage=25/5000; per-app-api-usage=17/250(appName=sample-connected-app)",
			crm.LimitInfo{Used: 25, Limit: 5000, App: "sample-connected-app", AppUsed: 17, AppLimit: 250}},
		{"api-usage=110018/100000; api-bursts=1/750", crm.LimitInfo{Used: 110018, Limit: 100000, BurstsUsed: 1, BurstsLimit: 750}},
		{"api-usage=10018/100000", crm.LimitInfo{Used: 10018, Limit: 100000}},
		{"api-usage=25/15000, per-app-api-usage=17/250(appName=sample)", crm.LimitInfo{Used: 25, Limit: 15000, App: "sample", AppUsed: 17, AppLimit: 250}},
	} {
		if got, ok := crm.ParseLimitInfo(c.value); !ok || got != c.want {
			t.Errorf("ParseLimitInfo(%q) = %+v %v, want %+v", c.value, got, ok, c.want)
		}
	}
	for _, v := range []string{"", "api-usage=", "api-usage=3", "api-usage=x/5", "per-app-api-usage=1/2(appName=a)", "api-usage=1/0"} {
		if got, ok := crm.ParseLimitInfo(v); ok {
			t.Errorf("ParseLimitInfo(%q) accepted: %+v", v, got)
		}
	}

	e := newSimEnv(t, crmsim.Options{APILimit: 5000, AppLimit: 250})
	c := e.client()
	raw := func(path string) string { // an answer the client does not read: an unknown resource, no token
		res, err := http.Get(e.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.Header.Get(crm.LimitInfoHeader)
	}
	check := func(form string, want func(used int64) string) {
		t.Helper()
		if err := e.sim.LimitInfo(form, 0, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Sellers(e.ctx, "yep"); err != nil {
			t.Fatal(err)
		}
		used, limit, _, ok := c.APIUsage()
		if !ok || limit != 5000 || used < 1 {
			t.Errorf("%s: client read %d/%d %v", form, used, limit, ok)
		}
		if got := raw(apiBase + "/nothing"); got != want(used+1) {
			t.Errorf("%s: header %q, want %q", form, got, want(used+1))
		}
		if _, _, _, ok := c.AppAPIUsage(); ok != (form == crmsim.LimitInfoPerApp) {
			t.Errorf("%s: per-app usage read %v", form, ok)
		}
	}
	check(crmsim.LimitInfoPlain, func(u int64) string { return fmt.Sprintf("api-usage=%d/5000", u) })
	check(crmsim.LimitInfoPerApp, func(u int64) string {
		return fmt.Sprintf("api-usage=%d/5000; per-app-api-usage=%d/250(appName=oportuna)", u, u)
	})
	if app, used, limit, ok := c.AppAPIUsage(); !ok || app != "oportuna" || used < 1 || limit != 250 {
		t.Errorf("per-app usage %q %d/%d %v", app, used, limit, ok)
	}
	check(crmsim.LimitInfoBursts, func(u int64) string { return fmt.Sprintf("api-usage=%d/5000; api-bursts=0/750", u) })
	if err := e.sim.LimitInfo("other", 0, 0); err == nil {
		t.Error("an unknown form was accepted")
	}
}

// REST API Developer Guide, "Execute a SOQL Query"
// (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/dome_query.htm)
// and "Query Options Header"
// (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/headers_queryoptions.htm):
// a query answers at most a batch of records (2000 by default) with done
// false and nextRecordsUrl for the rest, also inside a Composite call. The
// client follows it wherever a query may hold more than one page: the
// reconciliation's read of many ids, and the approval's read of the lines
// (a second approval with unchanged lines then writes none).
func TestContractQueryResultsArePagedThroughNextRecordsURL(t *testing.T) {
	e := newSimEnv(t, crmsim.Options{PageSize: 2})
	c := e.client()
	doc := cnpjtest.Complete("161718190001")
	var ids []string
	for i := 1; i <= 5; i++ {
		id := fmt.Sprintf("0f5b7a52-c3c3-4000-8000-%012d", i)
		o := sampleOpportunity(id, doc)
		o.Lines = append(o.Lines, o.Lines[0], o.Lines[1]) // 4 lines: two pages of 2
		o.Lines[2].Quantity, o.Lines[3].Quantity = 7, 9
		if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	more := func() int {
		return e.requests(func(r crmsim.Request) bool { return strings.Contains(r.Path, "/query/") })
	}

	before := more()
	recs, err := c.GetOpportunities(e.ctx, ids)
	if err != nil || len(recs) != 5 {
		t.Fatalf("reconciliation read: %d records (%v), want 5", len(recs), err)
	}
	if n := more() - before; n != 2 {
		t.Errorf("nextRecordsUrl calls = %d, want 2 (pages of 2, 2, 1)", n)
	}

	o := sampleOpportunity(ids[0], doc)
	o.Lines = append(o.Lines, o.Lines[0], o.Lines[1])
	o.Lines[2].Quantity, o.Lines[3].Quantity = 7, 9
	before = more()
	writes := func() int {
		return e.requests(func(r crmsim.Request) bool {
			return strings.HasPrefix(r.Composite, "insert") || strings.HasPrefix(r.Composite, "delete")
		})
	}
	w := writes()
	if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
		t.Fatal(err)
	}
	if more() == before {
		t.Error("the lines' second page was not asked for")
	}
	if n := writes() - w; n != 0 {
		t.Errorf("unchanged lines were rewritten (%d collection writes): the second page was not read", n)
	}
	if list := mustSynced(t, e, ids[0]); len(list) != 1 || len(list[0].Lines) != 4 {
		t.Errorf("record %+v, want its 4 lines", list)
	}
}
