package api

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/calendar"
	"oportuna/internal/dev/mailbox"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/seed"
)

// halfPastEleven is 23:30 on 30/11/2026 in Brasília: 02:30 on 01/12 in UTC and
// 16:30 on 01/12 in UTC+14 (make test runs the Go tests with
// TZ=Pacific/Kiritimati). Every day the API reads or writes at that instant is
// Brasília's 30/11.
var halfPastEleven = time.Date(2026, 11, 30, 23, 30, 0, 0, calendar.Location)

// brt is an instant on Brasília's clock.
func brt(month time.Month, day, hour, minute int) time.Time {
	return time.Date(2026, month, day, hour, minute, 0, 0, calendar.Location)
}

// newClockStack is the API alone (no workflows) on a seeded database, its
// clock pinned at now.
func newClockStack(t *testing.T, now time.Time) *stack {
	t.Helper()
	ctx := testenv.Context(t)
	db := testenv.DB(t)
	brands, _ := brand.Parse([]byte(`[{"slug":"nordata","name":"Nordata","title":"N"}]`))
	if _, err := seed.Run(ctx, db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	s := &Server{Brands: brands, DB: db,
		Auth: &auth.Service{DB: db, Brands: brands, Signer: &auth.Signer{Secret: []byte("0123456789abcdef0123456789abcdef"), TTL: time.Hour},
			RefreshTTL: time.Hour, ResetTTL: time.Hour, Mailer: mailbox.ResetLog{}},
		Web: fstest.MapFS{"index.html": {Data: []byte(`<html><head><title>x</title></head></html>`)}},
		Now: func() time.Time { return now }}
	h, err := s.Handler()
	if err != nil {
		t.Fatal(err)
	}
	st := &stack{t: t, srv: httptest.NewServer(h), db: db}
	t.Cleanup(st.srv.Close)
	return st
}

// storedOpportunity is a read-model row of vendedor1@nordata.demo.
type storedOpportunity struct {
	status                        opportunity.Status
	created, approved, validUntil time.Time
	updated                       time.Time
}

func (st *stack) store(o storedOpportunity) string {
	st.t.Helper()
	id := opportunity.NewID()
	nullable := func(t time.Time) any {
		if t.IsZero() {
			return nil
		}
		return t
	}
	updated := o.updated
	if updated.IsZero() {
		updated = o.created
	}
	_, err := st.db.Exec(context.Background(), `INSERT INTO opportunities
			(id, brand, status, name, cnpj, user_id, resale_id, created_at, updated_at, approve_date, valid_until)
		SELECT $1, 'nordata', $2, $7, '11222333000181', u.id, u.resale_id, $3, $4, $5, $6
		FROM users u WHERE u.email = 'vendedor1@nordata.demo'`,
		id, string(o.status), o.created, updated, nullable(o.approved), nullable(o.validUntil), "Relógio "+id)
	if err != nil {
		st.t.Fatal(err)
	}
	return id
}

// TestDashboardMonthIsBrasiliasAtHalfPastElevenAtNight: at 23:30 on 30/11 in
// Brasília the chart runs January to November, and '+N este mês' counts
// November in Brasília: what happened late on 31/10 (already November in UTC)
// does not count, what happened early in November does.
func TestDashboardMonthIsBrasiliasAtHalfPastElevenAtNight(t *testing.T) {
	st := newClockStack(t, halfPastEleven)
	for _, o := range []storedOpportunity{
		{status: opportunity.Approved, created: brt(11, 30, 22, 0), approved: brt(11, 30, 23, 0)},  // 02:00 UTC on 01/12
		{status: opportunity.Approved, created: brt(11, 1, 9, 0), approved: brt(11, 2, 12, 0)},     // early November
		{status: opportunity.Approved, created: brt(10, 20, 9, 0), approved: brt(10, 31, 23, 0)},   // 02:00 UTC on 01/11
		{status: opportunity.Disapproved, created: brt(11, 3, 9, 0), updated: brt(11, 30, 23, 10)}, // 02:10 UTC on 01/12
		{status: opportunity.Analysis, created: brt(11, 30, 23, 20)},                               // 02:20 UTC on 01/12
		{status: opportunity.Analysis, created: brt(10, 31, 22, 0)},                                // 01:00 UTC on 01/11
	} {
		st.store(o)
	}
	rep := st.login("representante@nordata.demo", "nordata")
	code, body := rep.call("GET", "/api/dashboard/status?brand=nordata", nil)
	if code != 200 {
		t.Fatalf("dashboard: %d %v", code, body)
	}
	dash := body["data"].(map[string]any)
	months := dash["months"].([]any)
	if len(months) != 11 {
		t.Fatalf("%d months on the chart, want January to November", len(months))
	}
	point := func(i int) map[string]any { return months[i].(map[string]any) }
	if nov, oct := point(10), point(9); nov["approved"] != 2.0 || nov["disapproved"] != 1.0 || oct["approved"] != 1.0 {
		t.Errorf("November %v, October %v; want 2 approved and 1 disapproved in November, 1 approved in October", nov, oct)
	}
	for status, want := range map[string][2]float64{"approved": {3, 2}, "disapproved": {1, 1}, "analysis": {2, 1}} {
		got := dash[status].(map[string]any)
		if got["total"] != want[0] || got["thisMonth"] != want[1] {
			t.Errorf("%s: total %v, this month %v; want %v, %v", status, got["total"], got["thisMonth"], want[0], want[1])
		}
	}
}

// TestExportDatesAreBrasiliasAtHalfPastElevenAtNight: the file is named for
// Brasília's today, and registration, approval and validity are written as
// Brasília's days, though each instant is already the next day in UTC.
func TestExportDatesAreBrasiliasAtHalfPastElevenAtNight(t *testing.T) {
	st := newClockStack(t, halfPastEleven)
	st.store(storedOpportunity{status: opportunity.Approved, created: brt(11, 30, 23, 0), approved: brt(11, 30, 23, 10),
		validUntil: time.Date(2027, 2, 28, 23, 30, 0, 0, calendar.Location)})
	rep := st.login("representante@nordata.demo", "nordata")
	code, hdr, b := rep.download("/api/opportunity/export")
	if code != 200 {
		t.Fatalf("export: %d %s", code, b)
	}
	if got := hdr.Get("Content-Disposition"); !strings.Contains(got, `filename="Oportunidades-2026-11-30.xlsx"`) {
		t.Errorf("file %s, want Oportunidades-2026-11-30.xlsx", got)
	}
	rows := readSheet(t, b)
	if len(rows) != 2 || len(rows[1]) < 19 {
		t.Fatalf("rows %v", rows)
	}
	if r := rows[1]; r[0] != "30/11/2026" || r[17] != "30/11/2026" || r[18] != "28/02/2027" {
		t.Errorf("registered %s, approved %s, valid until %s; want 30/11/2026, 30/11/2026, 28/02/2027", r[0], r[17], r[18])
	}
}

// TestDateRulesReadTheServersClockInBrasilia: at 23:30 on 30/11 in Brasília the
// API refuses a visit on 01/12 (tomorrow) and a conclusion on 30/11 (today).
func TestDateRulesReadTheServersClockInBrasilia(t *testing.T) {
	st := newClockStack(t, halfPastEleven)
	id := st.store(storedOpportunity{status: opportunity.Expired, created: brt(8, 1, 9, 0), approved: brt(8, 2, 9, 0), validUntil: brt(10, 31, 9, 0)})
	seller := st.login("vendedor1@nordata.demo", "nordata")
	renewal := map[string]any{"reason": "Cliente retomou", "probabilityClosing": 50, "projectStillInScope": "Sim", "lastVisitDate": "01/12/2026"}
	code, body := seller.call("PATCH", "/api/opportunity/renovation/"+id+"/request", renewal)
	if code != 400 || body["message"] != opportunity.MsgVisitDate {
		t.Errorf("a visit tomorrow (01/12): %d %v", code, body)
	}
	create := createBody("11222333000181")
	create["projects"].([]any)[0].(map[string]any)["conclusionDate"] = "30/11/2026"
	code, body = seller.call("POST", "/api/opportunity/create", create)
	if code != 400 || !strings.Contains(fmt.Sprint(body["fields"]), opportunity.MsgConclusionDate) {
		t.Errorf("a conclusion today (30/11): %d %v", code, body)
	}
}

// TestListDateFilterIsBrasiliasDay: 'date=30/11/2026' finds what was registered
// at 23:00 on 30/11 in Brasília (02:00 on 01/12 in UTC), and 'date=01/12/2026'
// does not.
func TestListDateFilterIsBrasiliasDay(t *testing.T) {
	st := newClockStack(t, halfPastEleven)
	id := st.store(storedOpportunity{status: opportunity.Analysis, created: brt(11, 30, 23, 0)})
	rep := st.login("representante@nordata.demo", "nordata")
	for date, want := range map[string]float64{"30/11/2026": 1, "01/12/2026": 0, "29/11/2026": 0} {
		code, body := rep.call("GET", "/api/opportunity/all?date="+date, nil)
		if code != 200 || body["total"] != want {
			t.Errorf("date=%s: %d, total %v; want %v (%s)", date, code, body["total"], want, id)
		}
	}
}
