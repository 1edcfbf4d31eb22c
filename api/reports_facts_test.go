package api

import (
	"context"
	"os"
	"strings"
	"testing"

	"oportuna/internal/calendar"
	"oportuna/opportunity"
	"oportuna/store"
)

// A decision applied twice under the same event key (a retried activity)
// writes one history row, hence one decision fact: the report counts it once.
func TestReportDecisionRetriedWritesOneFact(t *testing.T) {
	st := newReportStack(t, 0)
	ctx := context.Background()
	id := st.add(reportOpportunity{name: "R1", resale: st.r1, status: opportunity.Analysis, created: brt(11, 3, 10, 0)})
	q := store.New(st.db)
	user := st.users[renata]
	apply := func() {
		t.Helper()
		if _, err := q.ApplyEvent(ctx, store.ApplyEventParams{EventKey: "decision/" + id, Status: "approved", At: brt(11, 4, 10, 0),
			ID: id, Brand: "nordata", UserID: &user, Username: "Renata",
			Modifications: []byte(`[{"attribute":"status","oldValue":"analysis","newValue":"approved"}]`)}); err != nil {
			t.Fatal(err)
		}
	}
	apply()
	apply()
	var facts int
	if err := st.db.QueryRow(ctx, `SELECT count(*) FROM report_decisions WHERE opportunity_id = $1`, id).Scan(&facts); err != nil {
		t.Fatal(err)
	}
	if facts != 1 {
		t.Fatalf("decision facts = %d, want 1", facts)
	}
	rows, err := q.ReportDecisions(ctx, store.ReportDecisionsParams{Brand: "nordata", Since: brt(11, 1, 0, 0), Until: brt(12, 1, 0, 0),
		SlaHours: 48})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 || rows[0].ByRepresentative || rows[0].ByMonth || rows[0].Decided != 1 || rows[0].Approved != 1 || rows[0].P50Hours != 24 {
		t.Fatalf("overall decisions = %+v, want 1 decided, 1 approved, 24 h", rows)
	}
}

// The products' lines follow the registration's products: an edit of them
// moves the pipeline by product, a deletion takes it out; a competitor's line
// never counts.
func TestReportProductLinesFollowAnEditOfProducts(t *testing.T) {
	st := newReportStack(t, 0)
	ctx := context.Background()
	id := st.add(reportOpportunity{name: "P1", resale: st.r1, status: opportunity.Approved, created: brt(11, 3, 10, 0),
		products: `[{"partNumber":"CT-40","description":"Coletor","amount":2,"price":500,"competition":false},` +
			`{"partNumber":"CT-40","description":"Coletor B","amount":1,"price":"10.50"},` +
			`{"partNumber":"RIV-9","description":"Rival","amount":5,"price":100,"competition":true}]`})
	q := store.New(st.db)
	byProduct := func() map[string]store.ReportPipelineByProductRow {
		t.Helper()
		rows, err := q.ReportPipelineByProduct(ctx, store.ReportPipelineByProductParams{Brand: "nordata", Since: brt(11, 1, 0, 0), Until: brt(12, 1, 0, 0), MaxRows: 20})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]store.ReportPipelineByProductRow{}
		for _, r := range rows {
			m[r.PartNumber] = r
		}
		return m
	}
	got := byProduct()
	if len(got) != 1 || got["CT-40"].N != 1 || got["CT-40"].Value != "1010.50" || got["CT-40"].Description != "Coletor" {
		t.Fatalf("by product = %+v, want CT-40 once, 1010.50, Coletor", got)
	}
	if _, err := st.db.Exec(ctx, `UPDATE opportunities SET products = $2::jsonb WHERE id = $1`, id,
		`[{"partNumber":"ZT-411","description":"Impressora","amount":3,"price":100}]`); err != nil {
		t.Fatal(err)
	}
	got = byProduct()
	if len(got) != 1 || got["ZT-411"].N != 1 || got["ZT-411"].Value != "300.00" {
		t.Fatalf("by product after the edit = %+v, want ZT-411 once, 300.00", got)
	}
	// Closed (here: deleted), it leaves the pipeline.
	deleted := true
	if _, err := q.ApplyEvent(ctx, store.ApplyEventParams{EventKey: "delete/" + id, Status: "approved", At: brt(11, 5, 10, 0),
		ID: id, Brand: "nordata", Username: "Sistema", Deleted: &deleted, Modifications: []byte(`[]`)}); err != nil {
		t.Fatal(err)
	}
	if got = byProduct(); len(got) != 0 {
		t.Fatalf("by product after the deletion = %+v, want none", got)
	}
}

// The decisions' facts carry the decision's month in Brasília, fixed when
// written (migrations/0019_report_indexes.sql): the zone there is the calendar's.
func TestReportDecisionMonthIsTheCalendarsZone(t *testing.T) {
	sql, err := os.ReadFile("../migrations/0019_report_indexes.sql")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(sql), "AT TIME ZONE '"+calendar.Name+"'"); n != 2 {
		t.Fatalf("0019 converts to %s %d times, want 2 (the trigger and the backfill)", calendar.Name, n)
	}
	if strings.Count(string(sql), "AT TIME ZONE") != 2 {
		t.Fatal("0019 converts to another zone")
	}
}
