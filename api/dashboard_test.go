package api

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"oportuna/opportunity"
)

// dashboardFixture is the answer the web's dashboard test renders
// (web/src/features/dashboard/testdata): recorded from this server with
// OPORTUNA_UPDATE_FIXTURES=1, and checked key by key otherwise, so the web
// test cannot feed a field the server does not send.
const dashboardFixture = "../web/src/features/dashboard/testdata/dashboard-status.json"

// keysOf lists an object's keys, sorted.
func keysOf(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestDashboardSummaryNamesTheMainProduct: each row of the 'Resumo' carries
// `product`, the description of the first line that is neither an accessory
// nor a competitor's (its part number when the description is blank), and ”
// when there is none; accessory and competitor lines listed first are skipped.
func TestDashboardSummaryNamesTheMainProduct(t *testing.T) {
	st := newClockStack(t, halfPastEleven)
	withProducts := func(created int, products string) string {
		id := st.store(storedOpportunity{status: opportunity.Analysis, created: brt(11, created, 9, 0)})
		if _, err := st.db.Exec(context.Background(), `UPDATE opportunities SET products = $2::jsonb WHERE id = $1`, id, products); err != nil {
			t.Fatal(err)
		}
		return id
	}
	described := withProducts(1, `[
		{"partNumber":"BAT-1","description":"Bateria extra","amount":2,"price":"10.00","accessory":true,"competition":false},
		{"partNumber":"RIV-9","description":"Coletor rival","amount":1,"price":"1.00","accessory":false,"competition":true},
		{"partNumber":"CT-40","description":"Coletor de dados CT-40","amount":3,"price":"4890.50","accessory":false,"competition":false},
		{"partNumber":"CT-60","description":"Coletor de dados CT-60","amount":1,"price":"5000.00","accessory":false,"competition":false}]`)
	partOnly := withProducts(2, `[{"partNumber":"ZT-411","description":"  ","amount":1,"price":"1.00","accessory":false,"competition":false}]`)
	none := withProducts(3, `[{"partNumber":"CAB","description":"Cabo","amount":1,"price":"1.00","accessory":true,"competition":false}]`)

	rep := st.login("representante@nordata.demo", "nordata")
	code, body := rep.call("GET", "/api/dashboard/status?brand=nordata", nil)
	if code != 200 {
		t.Fatalf("dashboard: %d %v", code, body)
	}
	want := map[string]string{described: "Coletor de dados CT-40", partOnly: "ZT-411", none: ""}
	seen := 0
	for _, r := range body["data"].(map[string]any)["recent"].([]any) {
		row := r.(map[string]any)
		w, ok := want[row["id"].(string)]
		if !ok {
			continue
		}
		seen++
		if got, has := row["product"]; !has || got != w {
			t.Errorf("row %v: product %#v (present %v), want %q", row["id"], got, has, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d stored rows in the summary", seen, len(want))
	}

	if os.Getenv("OPORTUNA_UPDATE_FIXTURES") == "1" {
		out, _ := json.MarshalIndent(body, "", "  ")
		if err := os.WriteFile(dashboardFixture, append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(dashboardFixture)
	if err != nil {
		t.Fatal(err)
	}
	var fixture map[string]any
	if err := json.Unmarshal(raw, &fixture); err != nil {
		t.Fatal(err)
	}
	got, rec := body["data"].(map[string]any), fixture["data"].(map[string]any)
	if !slices.Equal(keysOf(got), keysOf(rec)) {
		t.Errorf("dashboard keys %v, the web's fixture has %v", keysOf(got), keysOf(rec))
	}
	gotRow := got["recent"].([]any)[0].(map[string]any)
	for _, r := range rec["recent"].([]any) {
		if k, w := keysOf(r.(map[string]any)), keysOf(gotRow); !slices.Equal(k, w) {
			t.Errorf("a summary row of the web's fixture has keys %v, the server sends %v", k, w)
		}
	}
}
