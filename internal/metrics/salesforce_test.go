package metrics_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"oportuna/crm"
	"oportuna/internal/metrics"
)

// TestSalesforceUsageFollowsTheLimitInfoHeader: the gauges show the
// api-usage of the last Sforce-Limit-Info header the client read, and nothing
// before the first one.
func TestSalesforceUsageFollowsTheLimitInfoHeader(t *testing.T) {
	var header atomic.Value
	header.Store("api-usage=17/15000")
	org := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/services/oauth2/token" {
			_, _ = w.Write([]byte(`{"access_token":"t","instance_url":"` + "http://" + r.Host + `","token_type":"Bearer"}`))
			return
		}
		w.Header().Set(crm.LimitInfoHeader, header.Load().(string))
		_, _ = w.Write([]byte(`{"totalSize":0,"done":true,"records":[]}`))
	}))
	defer org.Close()
	c, err := crm.NewSalesforce(crm.SalesforceConfig{URL: org.URL, Flow: crm.FlowClientCredentials, ClientID: "id", ClientSecret: "s",
		Fields: crm.DefaultFields()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	reg := metrics.New()
	reg.MustRegister(metrics.NewSalesforce(c))
	if _, ok := value(scrape(t, reg), "oportuna_salesforce_api_usage", nil); ok {
		t.Error("usage exposed before any answer")
	}
	ctx := context.Background()
	if _, err := c.Sellers(ctx, "yep"); err != nil {
		t.Fatal(err)
	}
	body := scrape(t, reg)
	mustValue(t, body, "oportuna_salesforce_api_usage", nil, 17)
	mustValue(t, body, "oportuna_salesforce_api_limit", nil, 15000)
	header.Store("api-usage=14999/15000")
	if _, err := c.Sellers(ctx, "yep"); err != nil {
		t.Fatal(err)
	}
	body = scrape(t, reg)
	mustValue(t, body, "oportuna_salesforce_api_usage", nil, 14999)
	mustValue(t, body, "oportuna_salesforce_api_limit", nil, 15000)
	if ts, ok := value(body, "oportuna_salesforce_api_usage_read_timestamp_seconds", nil); !ok || ts <= 0 {
		t.Errorf("read timestamp %v %v", ts, ok)
	}
	if _, ok := value(body, "oportuna_salesforce_app_api_usage", map[string]string{"app": "sample-connected-app"}); ok {
		t.Error("per-app usage exposed before an answer carried it")
	}
	// The guide's other two forms (REST API Developer Guide, "Limit Info
	// Header", https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/headers_api_usage.htm):
	// the gauges follow them too, so an alert on usage/limit fires.
	header.Store("api-usage=25/5000; per-app-api-usage=17/250(appName=sample-connected-app)")
	if _, err := c.Sellers(ctx, "yep"); err != nil {
		t.Fatal(err)
	}
	body = scrape(t, reg)
	mustValue(t, body, "oportuna_salesforce_api_usage", nil, 25)
	mustValue(t, body, "oportuna_salesforce_api_limit", nil, 5000)
	mustValue(t, body, "oportuna_salesforce_app_api_usage", map[string]string{"app": "sample-connected-app"}, 17)
	mustValue(t, body, "oportuna_salesforce_app_api_limit", map[string]string{"app": "sample-connected-app"}, 250)
	header.Store("api-usage=110018/100000; api-bursts=1/750")
	if _, err := c.Sellers(ctx, "yep"); err != nil {
		t.Fatal(err)
	}
	body = scrape(t, reg)
	mustValue(t, body, "oportuna_salesforce_api_usage", nil, 110018)
	mustValue(t, body, "oportuna_salesforce_api_limit", nil, 100000)
	if _, ok := value(body, "oportuna_salesforce_app_api_usage", map[string]string{"app": "sample-connected-app"}); ok {
		t.Error("per-app usage still exposed after an answer without it")
	}
	header.Store("garbage") // an unreadable header leaves the last usage
	if _, err := c.Sellers(ctx, "yep"); err != nil {
		t.Fatal(err)
	}
	mustValue(t, scrape(t, reg), "oportuna_salesforce_api_usage", nil, 110018)
}
