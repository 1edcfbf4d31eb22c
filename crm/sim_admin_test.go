package crm_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"oportuna/cnpj"
	"oportuna/crm"
	"oportuna/internal/dev/crmsim"
	"oportuna/internal/testenv/cnpjtest"
)

// admin calls the stand-in's admin API and decodes the answer.
func (e *simEnv) admin(method, path, body string, out any) int {
	e.t.Helper()
	req, _ := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s %s: %s", method, path, b)
		}
	}
	return res.StatusCode
}

func TestSimAdminAPIDrivesTheFailures(t *testing.T) {
	e, c := newSimClient(t)
	doc := cnpjtest.Complete("778889990001")
	o := sampleOpportunity("0f5b7a52-5555-4000-8000-000000000005", cnpj.Format(doc))

	var st crmsim.State
	if code := e.admin("POST", "/__sim/outage", `{"calls": 2}`, &st); code != 200 || st.Outage != crmsim.KindUnavailable || st.OutageRemaining != 2 {
		t.Fatalf("outage: %d %+v", code, st)
	}
	for i := 0; i < 2; i++ {
		if _, err := c.Sellers(e.ctx, "yep"); !errors.Is(err, crm.ErrUnavailable) {
			t.Fatalf("call %d during the outage: %v", i, err)
		}
	}
	if _, err := c.Sellers(e.ctx, "yep"); err != nil {
		t.Fatalf("after the outage's 2 calls: %v", err)
	}
	e.admin("POST", "/__sim/outage", `{"kind": "rate_limit"}`, &st)
	if _, err := c.Sellers(e.ctx, "yep"); !errors.Is(err, crm.ErrUnavailable) {
		t.Fatalf("rate limit: %v", err)
	}
	if code := e.admin("DELETE", "/__sim/outage", "", &st); code != 200 || st.Outage != "" {
		t.Fatalf("clear outage: %d %+v", code, st)
	}

	if code := e.admin("POST", "/__sim/missing-customers", `{"cnpj": "`+cnpj.Format(doc)+`"}`, &st); code != 200 || len(st.MissingCNPJs) != 1 || st.MissingCNPJs[0] != doc {
		t.Fatalf("missing customer: %d %+v", code, st)
	}
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.Is(err, crm.ErrCustomerNotFound) {
		t.Fatalf("missing customer: %v", err)
	}
	e.admin("DELETE", "/__sim/missing-customers/"+doc, "", &st)
	if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
		t.Fatalf("customer back: %v", err)
	}

	e.admin("POST", "/__sim/locked-opportunities", `{"id": "`+o.ID+`"}`, &st)
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.Is(err, crm.ErrLocked) {
		t.Fatalf("locked: %v", err)
	}
	e.admin("DELETE", "/__sim/locked-opportunities/"+o.ID, "", &st)
	if len(st.Locked) != 0 {
		t.Fatalf("unlock: %+v", st)
	}

	var revoked map[string]int
	if e.admin("POST", "/__sim/revoke-tokens", "", &revoked); revoked["revoked"] != 1 {
		t.Errorf("revoke: %v", revoked)
	}

	var synced []crmsim.Synced
	if code := e.admin("GET", "/__sim/opportunities?id="+o.ID, "", &synced); code != 200 || len(synced) != 1 ||
		synced[0].ExternalID != o.ID || len(synced[0].Lines) != 2 || !strings.Contains(string(synced[0].Fields), `"StageName":"Qualification"`) {
		t.Fatalf("synced: %d %+v", code, synced)
	}
	var reqs []crmsim.Request
	if e.admin("GET", "/__sim/requests", "", &reqs); len(reqs) == 0 {
		t.Error("no requests listed")
	}

	var msg map[string]string
	for _, bad := range []struct{ method, path, body string }{
		{"POST", "/__sim/outage", `{"kind": "meteor"}`},
		{"POST", "/__sim/slowness", `{"delay": "slow"}`},
		{"POST", "/__sim/missing-customers", `{"cnpj": "123"}`},
		{"POST", "/__sim/duplicate-customers", `{"cnpj": "11222333000100"}`},
		{"POST", "/__sim/closed-opportunities", `{"id": "` + o.ID + `", "stage": "Qualification"}`},
		{"POST", "/__sim/locked-opportunities", `{}`},
		{"POST", "/__sim/outage", `{not json`},
	} {
		if code := e.admin(bad.method, bad.path, bad.body, &msg); code != 400 || msg["message"] == "" {
			t.Errorf("%s %s %s: %d %v", bad.method, bad.path, bad.body, code, msg)
		}
	}
	if code := e.admin("POST", "/__sim/duplicate-opportunities", `{"id": "nunca-sincronizada"}`, &msg); code != 404 {
		t.Errorf("duplicate of an unknown opportunity: %d %v", code, msg)
	}

	if code := e.admin("POST", "/__sim/reset", "", &st); code != 200 {
		t.Fatalf("reset: %d", code)
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.opportunities`) + e.count(`SELECT count(*) FROM crm_sim.tokens`); n != 0 {
		t.Errorf("after reset %d rows remain", n)
	}
	if n := e.count(`SELECT count(*) FROM crm_sim.users`); n == 0 {
		t.Error("reset removed the sellers")
	}
}

func TestSimAnswersSalesforceErrorShapes(t *testing.T) {
	e := newSimEnv(t, crmsim.Options{})
	call := func(method, path, token string) (int, []map[string]any) {
		req, _ := http.NewRequest(method, e.srv.URL+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out []map[string]any
		_ = json.NewDecoder(res.Body).Decode(&out)
		return res.StatusCode, out
	}
	code, body := call("GET", "/services/data/v61.0/query?q=SELECT+Id+FROM+User", "")
	if code != 401 || len(body) != 1 || body[0]["errorCode"] != "INVALID_SESSION_ID" || body[0]["message"] == "" {
		t.Errorf("no token: %d %v", code, body)
	}
	res, err := http.PostForm(e.srv.URL+"/services/oauth2/token", map[string][]string{
		"grant_type": {"client_credentials"}, "client_id": {crmsim.DevClientID}, "client_secret": {crmsim.DevClientSecret}})
	if err != nil {
		t.Fatal(err)
	}
	var tok map[string]string
	_ = json.NewDecoder(res.Body).Decode(&tok)
	res.Body.Close()
	if tok["token_type"] != "Bearer" || tok["instance_url"] != e.srv.URL || tok["access_token"] == "" || tok["issued_at"] == "" {
		t.Fatalf("token answer %v", tok)
	}
	for path, want := range map[string]string{
		"/services/data/v61.0/query?q=SELECT+Nope+FROM+User":                     "INVALID_FIELD",
		"/services/data/v61.0/query?q=SELEKT":                                    "MALFORMED_QUERY",
		"/services/data/v61.0/query/01gBOGUS-2":                                  "INVALID_QUERY_LOCATOR",
		"/services/data/v61.0/sobjects/Opportunity/Oportuna_Id__c/none":          "NOT_FOUND",
		"/services/data/v61.0/sobjects/Opportunity/Outro__c/none":                "NOT_FOUND",
		"/services/data/v61.0/sobjects/Opportunity/Oportuna_Id__c/x?fields=Nope": "NOT_FOUND",
		"/services/data/latest/query?q=SELECT+Id+FROM+User":                      "NOT_FOUND",
	} {
		code, body := call("GET", path, tok["access_token"])
		if code < 400 || len(body) != 1 || body[0]["errorCode"] != want {
			t.Errorf("%s: %d %v, want %s", path, code, body, want)
		}
	}
}

func TestSimAndClientShareTheFieldNamesFromTheEnvironment(t *testing.T) {
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "oportuna"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, _ := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	pkcs1 := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	vars := map[string]string{
		"SALESFORCE_AUTH_FLOW": "jwt", "SALESFORCE_CLIENT_ID": "3MVG9-app", "SALESFORCE_USERNAME": "integracao@acme.com.br",
		"SALESFORCE_PRIVATE_KEY": string(pkcs1), "CRM_SIM_JWT_PUBLIC_KEY": string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		"SALESFORCE_ACCOUNT_CNPJ_FIELD": "Documento__c", "SALESFORCE_OPPORTUNITY_EXTERNAL_ID_FIELD": "Portal_Id__c",
		"SALESFORCE_OPPORTUNITY_RESELLER_FIELD": "-", "SALESFORCE_OPPORTUNITY_SELLER_FIELD": "Vendedor__c",
		"SALESFORCE_USER_BRAND_FIELD": "Marca__c", "SALESFORCE_USER_COMPANY_FIELD": "Department",
		"SALESFORCE_STAGE_MAP": "approved=Registro aprovado", "SALESFORCE_GENERIC_PRODUCT_CODE": "ITEM-GENERICO", "CRM_SIM_PAGE_SIZE": "1",
	}
	opts, err := crmsim.OptionsFromEnv(envOf(vars), nil)
	if err != nil {
		t.Fatal(err)
	}
	e := newSimEnv(t, opts)
	vars["CRM_URL"] = e.srv.URL
	cfg, err := crm.ConfigFromEnv(envOf(vars))
	if err != nil {
		t.Fatal(err)
	}
	c, err := crm.NewSalesforce(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	sellers, err := c.Sellers(e.ctx, "nordata")
	if err != nil || len(sellers) != 3 || sellers[0].Company != "Nordata" {
		t.Fatalf("sellers by Marca__c: %+v (%v)", sellers, err)
	}
	o := sampleOpportunity("0f5b7a52-9999-4000-8000-000000000009", cnpjtest.Complete("123123120001"))
	o.SellerCRMID = sellers[2].UserID
	if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
		t.Fatal(err)
	}
	list, _ := e.sim.Opportunities(e.ctx, o.ID)
	if len(list) != 1 || list[0].Stage != "Registro aprovado" || list[0].OwnerID != sellers[2].UserID || list[0].Reseller != "" ||
		list[0].Lines[1].ProductCode != "ITEM-GENERICO" || !strings.Contains(string(list[0].Fields), `"Vendedor__c"`) {
		t.Errorf("synced with custom names: %+v", list)
	}
	var flow string
	_ = e.db.QueryRow(e.ctx, `SELECT flow FROM crm_sim.tokens`).Scan(&flow)
	if flow != "jwt" {
		t.Errorf("token flow %q", flow)
	}
}

// TestSimAdminSwitchesForChaos drives, over the admin API, the switches a
// chaos run uses: down/up (no answer at all), duplicate-value, slow-writes,
// commit_then_503, expire-tokens, page-size and the Sforce-Limit-Info form.
func TestSimAdminSwitchesForChaos(t *testing.T) {
	e, c := newSimClient(t)
	o := sampleOpportunity("0f5b7a52-5555-4000-8000-0000000000c5", cnpjtest.Complete("121110090001"))
	var st crmsim.State

	if code := e.admin("POST", "/__sim/down", "", &st); code != 200 || !st.Down {
		t.Fatalf("down: %d %+v", code, st)
	}
	_, err := c.Sellers(e.ctx, "yep")
	var apiErr *crm.APIError
	if !errors.Is(err, crm.ErrUnavailable) || errors.As(err, &apiErr) {
		t.Fatalf("down: %v, want a network failure (ErrUnavailable, no HTTP answer)", err)
	}
	if code := e.admin("POST", "/__sim/up", "", &st); code != 200 || st.Down {
		t.Fatalf("up: %d %+v", code, st)
	}
	if _, err := c.Sellers(e.ctx, "yep"); err != nil {
		t.Fatalf("up: %v", err)
	}

	if code := e.admin("POST", "/__sim/duplicate-value", `{"upserts": 1}`, &st); code != 200 || st.DuplicateValues != 1 {
		t.Fatalf("duplicate-value: %d %+v", code, st)
	}
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.As(err, &apiErr) || apiErr.Code != crm.CodeDuplicateValue {
		t.Fatalf("duplicate-value: %v", err)
	}
	if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
		t.Fatalf("after duplicate-value: %v", err)
	}

	if code := e.admin("POST", "/__sim/outage", `{"kind": "commit_then_503", "calls": 1}`, &st); code != 200 || st.Outage != crmsim.KindLostResponse {
		t.Fatalf("commit_then_503: %d %+v", code, st)
	}
	o.Name = "Gravado, resposta perdida"
	if _, err := c.UpsertOpportunity(e.ctx, o); !errors.As(err, &apiErr) || apiErr.Status != 503 {
		t.Fatalf("commit_then_503: %v, want HTTP 503", err)
	}
	if list, _ := e.sim.Opportunities(e.ctx, o.ID); len(list) != 1 || list[0].Name != o.Name {
		t.Fatalf("commit_then_503 did not commit: %+v", list)
	}

	if code := e.admin("POST", "/__sim/slow-writes", `{"delay": "1s", "upserts": 1}`, &st); code != 200 || st.SlowWrites != "1s" || st.SlowWritesLeft != 1 {
		t.Fatalf("slow-writes: %d %+v", code, st)
	}
	if code := e.admin("DELETE", "/__sim/slow-writes", "", &st); code != 200 || st.SlowWritesLeft != 0 {
		t.Fatalf("slow-writes cleared: %d %+v", code, st)
	}

	var expired map[string]int
	if e.admin("POST", "/__sim/expire-tokens", "", &expired); expired["expired"] != 1 {
		t.Errorf("expire-tokens: %v", expired)
	}
	if _, err := c.Sellers(e.ctx, "yep"); err != nil {
		t.Errorf("after expire-tokens: %v", err)
	}

	if code := e.admin("POST", "/__sim/page-size", `{"size": 1}`, &st); code != 200 || st.PageSize != 1 {
		t.Fatalf("page-size: %d %+v", code, st)
	}
	before := e.requests(func(r crmsim.Request) bool { return strings.Contains(r.Path, "/query/") })
	if list, err := c.Sellers(e.ctx, "yep"); err != nil || len(list) != 3 {
		t.Fatalf("sellers in pages of 1: %v (%v)", list, err)
	}
	if n := e.requests(func(r crmsim.Request) bool { return strings.Contains(r.Path, "/query/") }) - before; n != 2 {
		t.Errorf("pages of 1: %d nextRecordsUrl calls, want 2", n)
	}

	var stats crmsim.StatsAnswer
	if code := e.admin("POST", "/__sim/api-usage", `{"used": 100, "limit": 1000, "form": "per_app", "appUsed": 5, "appLimit": 50}`, &stats); code != 200 ||
		stats.LimitInfo != "api-usage=100/1000; per-app-api-usage=5/50(appName=oportuna)" {
		t.Fatalf("api-usage per_app: %d %+v", code, stats)
	}

	var msg map[string]string
	for _, bad := range []struct{ method, path, body string }{
		{"POST", "/__sim/duplicate-value", `{"upserts": 0}`},
		{"POST", "/__sim/slow-writes", `{"delay": "0s"}`},
		{"POST", "/__sim/page-size", `{"size": 0}`},
		{"POST", "/__sim/api-usage", `{"used": 1, "form": "other"}`},
	} {
		if code := e.admin(bad.method, bad.path, bad.body, &msg); code != 400 || msg["message"] == "" {
			t.Errorf("%s %s %s: %d %v", bad.method, bad.path, bad.body, code, msg)
		}
	}
	if code := e.admin("POST", "/__sim/reset", "", &st); code != 200 || st.Down || st.DuplicateValues != 0 || st.PageSize != crmsim.DefaultPageSize {
		t.Errorf("reset: %d %+v", code, st)
	}
}
