package api

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/xuri/excelize/v2"

	"oportuna/internal/calendar"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/store"
)

// reportStack is the API alone on a database seeded for nordata and yep, its
// clock pinned at 23:30 on 30/11/2026 in Brasília, with the data set of
// TestReportFiguresAreTheHandComputedOnes.
type reportStack struct {
	*stack
	users map[string]string // e-mail → user id
	ids   map[string]string // name in the data set → opportunity id
	r1    string            // the seeded reseller of nordata ('Modelo Nordata')
	r2    string            // a second one ('Revenda Dois')
}

// reportOpportunity is a read-model row of the data set, with the decision
// history the workflow would have written.
type reportOpportunity struct {
	name          string
	brand         string
	resale        string // reseller id
	status        opportunity.Status
	state         string
	estimated     string
	products      string
	created       time.Time
	approved      time.Time
	validUntil    time.Time
	deleted       bool
	decidedBy     string // e-mail of who decided; empty: no decision row
	decidedAt     time.Time
	decision      opportunity.Status // approved or disapproved
	decidedFrom   opportunity.Status // analysis (a registration's decision) or awaiting_renovation (a renewal's)
	systemExpired time.Time          // a timer moved it from analysis to expired
}

func newReportStack(t *testing.T, sla time.Duration) *reportStack {
	t.Helper()
	ctx := testenv.Context(t)
	db, brands := seeded(t, ctx, twoBrands)
	st := &reportStack{stack: &stack{t: t, db: db, srv: serve(t, &Server{Brands: brands, DB: db, Auth: testAuth(db, brands), Web: testWeb,
		Now: func() time.Time { return halfPastEleven }, ApprovalSLA: sla})}, users: map[string]string{}, ids: map[string]string{}}
	rows, err := db.Query(ctx, `SELECT email, id::text FROM users`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var e, id string
		if err := rows.Scan(&e, &id); err != nil {
			t.Fatal(err)
		}
		st.users[e] = id
	}
	if err := db.QueryRow(ctx, `SELECT resale_id::text FROM users WHERE email = 'revenda@nordata.demo'`).Scan(&st.r1); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(ctx, `INSERT INTO resales (brand, status, corporate_name, fantasy_name, cnpj, email)
		VALUES ('nordata', 'approved', 'Revenda Dois Comércio Ltda', 'Revenda Dois', '22333444000181', 'contato@revendadois.com.br')
		RETURNING id::text`).Scan(&st.r2); err != nil {
		t.Fatal(err)
	}
	return st
}

// add stores an opportunity of the data set and its history rows, written
// the way the activities write them (opportunity.History.Row).
func (st *reportStack) add(o reportOpportunity) string {
	st.t.Helper()
	ctx := context.Background()
	o.brand = cmp.Or(o.brand, "nordata")
	o.estimated = cmp.Or(o.estimated, "0")
	o.products = cmp.Or(o.products, "[]")
	nullable := func(t time.Time) any {
		if t.IsZero() {
			return nil
		}
		return t
	}
	id := opportunity.NewID()
	_, err := st.db.Exec(ctx, `INSERT INTO opportunities (id, brand, status, name, cnpj, corporate_name, state, estimated, products,
			user_id, resale_id, created_at, updated_at, approve_date, valid_until, is_deleted)
		SELECT $1, $2, $3, $4, '11222333000181', 'Cliente ' || $4, $5, $6::numeric, $7::jsonb, u.id, $8::uuid, $9, $9, $10, $11, $12
		FROM users u WHERE u.email = 'vendedor1@' || $2 || '.demo'`,
		id, o.brand, string(o.status), o.name, o.state, o.estimated, o.products, o.resale, o.created,
		nullable(o.approved), nullable(o.validUntil), o.deleted)
	if err != nil {
		st.t.Fatal(err)
	}
	q := store.New(st.db)
	record := func(h opportunity.History) {
		h.Type, h.TypeID, h.Brand, h.Action = "opportunity", id, o.brand, "update"
		if err := h.Record(ctx, q); err != nil {
			st.t.Fatal(err)
		}
	}
	record(opportunity.History{Action: "create", At: o.created, Actor: &opportunity.Actor{UserID: st.users["vendedor1@"+o.brand+".demo"], Name: "Vanessa Lima"},
		Changes: []opportunity.Change{{Attribute: "name", NewValue: o.name}, {Attribute: "status", NewValue: "analysis"}}})
	if o.decidedBy != "" {
		from := o.decidedFrom
		if from == "" {
			from = opportunity.Analysis
		}
		changes := []opportunity.Change{{Attribute: "status", OldValue: string(from), NewValue: string(o.decision)}}
		if o.decision == opportunity.Approved {
			changes = append(changes, opportunity.Change{Attribute: "probabilityClosing", OldValue: "25", NewValue: "50"})
		} else {
			changes = append(changes, opportunity.Change{Attribute: "reason", NewValue: "Cliente já atendido"})
		}
		record(opportunity.History{At: o.decidedAt, Actor: &opportunity.Actor{UserID: st.users[o.decidedBy], Name: o.decidedBy}, Changes: changes})
	}
	if !o.systemExpired.IsZero() {
		record(opportunity.History{At: o.systemExpired, Changes: []opportunity.Change{{Attribute: "status", OldValue: "analysis", NewValue: "expired"}}})
	}
	st.ids[o.name] = id
	return id
}

const (
	renata  = "representante@nordata.demo"
	mariana = "multi@nordata.demo"
)

// reportDataSet is the small data set whose figures the tests compute by hand.
// Decisions of registrations taken in November 2026 (Brasília), hours from the
// registration: O1 12 (Renata, approved), O2 48 (Renata, disapproved), O3 96
// (Mariana, approved), O4 36.5 (Renata, approved; registered in October), O6 3
// (Mariana, approved at 23:20 on 30/11, already 01/12 in UTC). Left out: O5
// (decided at 23:30 on 31/10 in Brasília, November in UTC: October's), O7's
// renewal decision, O8's expiry by the timer, the deleted O10, yep's Y1.
func (st *reportStack) reportDataSet() {
	money := func(part string, amount int, price string, competition bool) string {
		return fmt.Sprintf(`{"partNumber":%q,"description":"Produto %s","amount":%d,"price":%s,"accessory":false,"competition":%v}`,
			part, part, amount, price, competition)
	}
	st.add(reportOpportunity{name: "O1", resale: st.r1, status: opportunity.Approved, state: "SP", estimated: "1000.00",
		products: "[" + money("CT-40", 2, "500.00", false) + "]",
		created:  brt(11, 2, 9, 0), approved: brt(11, 2, 21, 0), validUntil: brt(12, 15, 21, 0),
		decidedBy: renata, decidedAt: brt(11, 2, 21, 0), decision: opportunity.Approved})
	st.add(reportOpportunity{name: "O2", resale: st.r1, status: opportunity.Disapproved, state: "SP", estimated: "500.00",
		created: brt(11, 3, 10, 0), decidedBy: renata, decidedAt: brt(11, 5, 10, 0), decision: opportunity.Disapproved})
	st.add(reportOpportunity{name: "O3", resale: st.r2, status: opportunity.Approved, state: "MG", estimated: "2000.00",
		products: "[" + money("ZT-411", 1, `"2000.00"`, false) + "," + money("RIV-9", 5, "100", true) + "]",
		created:  brt(11, 10, 8, 0), approved: brt(11, 14, 8, 0), validUntil: time.Date(2027, 2, 12, 8, 0, 0, 0, calendar.Location),
		decidedBy: mariana, decidedAt: brt(11, 14, 8, 0), decision: opportunity.Approved})
	st.add(reportOpportunity{name: "O4", resale: st.r1, status: opportunity.Approved, state: "RJ", estimated: "400.00",
		created: brt(10, 30, 12, 0), approved: brt(11, 1, 0, 30), validUntil: time.Date(2027, 1, 30, 0, 30, 0, 0, calendar.Location),
		decidedBy: renata, decidedAt: brt(11, 1, 0, 30), decision: opportunity.Approved})
	st.add(reportOpportunity{name: "O5", resale: st.r1, status: opportunity.Disapproved, state: "SP", estimated: "50.00",
		created: brt(10, 29, 23, 30), decidedBy: renata, decidedAt: brt(10, 31, 23, 30), decision: opportunity.Disapproved})
	st.add(reportOpportunity{name: "O6", resale: st.r2, status: opportunity.Approved, state: "SP", estimated: "700.00",
		created: brt(11, 30, 20, 20), approved: brt(11, 30, 23, 20), validUntil: time.Date(2027, 2, 28, 23, 20, 0, 0, calendar.Location),
		decidedBy: mariana, decidedAt: brt(11, 30, 23, 20), decision: opportunity.Approved})
	st.add(reportOpportunity{name: "O7", resale: st.r1, status: opportunity.Renovation, state: "BA", estimated: "900.00",
		created: brt(6, 1, 9, 0), approved: brt(9, 11, 9, 0), validUntil: brt(12, 10, 9, 0),
		decidedBy: renata, decidedAt: brt(11, 20, 9, 0), decision: opportunity.Approved, decidedFrom: opportunity.AwaitingRenovation})
	st.add(reportOpportunity{name: "O8", resale: st.r2, status: opportunity.Expired, state: "PR", estimated: "800.00",
		created: brt(11, 1, 10, 0), systemExpired: brt(11, 15, 10, 0)})
	st.add(reportOpportunity{name: "O9", resale: st.r2, status: opportunity.Analysis, state: "MG", estimated: "300.00",
		products: "[" + money("ZT-411", 3, "100.00", false) + "]", created: brt(11, 20, 10, 0)})
	st.add(reportOpportunity{name: "O10", resale: st.r1, status: opportunity.Approved, state: "SP", estimated: "5000.00", deleted: true,
		created: brt(11, 4, 9, 0), approved: brt(11, 4, 10, 0), validUntil: brt(12, 5, 10, 0),
		decidedBy: renata, decidedAt: brt(11, 4, 10, 0), decision: opportunity.Approved})
	var yepResale string
	if err := st.db.QueryRow(context.Background(), `SELECT resale_id::text FROM users WHERE email = 'revenda@yep.demo'`).Scan(&yepResale); err != nil {
		st.t.Fatal(err)
	}
	st.add(reportOpportunity{name: "Y1", brand: "yep", resale: yepResale, status: opportunity.Approved, state: "SP", estimated: "9999.00",
		created: brt(11, 5, 9, 0), approved: brt(11, 6, 9, 0), validUntil: brt(12, 6, 9, 0),
		decidedBy: "representante@yep.demo", decidedAt: brt(11, 6, 9, 0), decision: opportunity.Approved})
}

// reportOf reads GET /api/reports as a typed report.
func reportOf(t *testing.T, s *session, from, to string) report {
	t.Helper()
	res := s.send("GET", "/api/reports?from="+from+"&to="+to, nil, nil)
	defer res.Body.Close()
	var body struct{ Data report }
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || res.StatusCode != 200 {
		t.Fatalf("report %s..%s: %d %v", from, to, res.StatusCode, err)
	}
	return body.Data
}

func near(got *float64, want float64) bool { return got != nil && math.Abs(*got-want) < 1e-9 }

func fmtp(v *float64) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(*v)
}

// TestReportFiguresAreTheHandComputedOnes: November 2026 in Brasília, with
// APPROVAL_SLA at 24 h. Decisions: hours 3, 12, 36.5, 48, 96 → count 5, 4
// approved (0.8), median 36.5, p90 48 + 0.6 × 48 = 76.8 (interpolated), 2 of
// 5 within 24 h (0.4). Renata decided O1, O2, O4 (12, 48, 36.5: median 36.5,
// 2 of 3 approved); Mariana O3, O6 (96, 3: median 49.5, 2 of 2). Registrations
// of November by reseller: Revenda Dois O3, O6, O8, O9 (4 registered, 2
// approved of 2 decided, open value 2000 + 700 + 300); Modelo Nordata O1, O2
// (2, 1 of 2, 1000). Pipeline (open ones of November): approved 3 / 3700,
// analysis 1 / 300; MG 2 / 2300, SP 2 / 1700; products ZT-411 2 × (2000; 300)
// and CT-40 1000, the competitor's line left out. Expiring in 30 days from
// 30/11: O7 (10/12, in its renewal window) and O1 (15/12); not the deleted
// O10 nor yep's Y1.
func TestReportFiguresAreTheHandComputedOnes(t *testing.T) {
	st := newReportStack(t, 24*time.Hour)
	st.reportDataSet()
	rep := reportOf(t, st.login(renata, "nordata"), "2026-11-01", "2026-11-30")

	d := rep.Decisions
	if d.Count != 5 || d.Approved != 4 || !near(d.ApprovalRate, 0.8) || !near(d.P50Hours, 36.5) || !near(d.P90Hours, 76.8) ||
		!near(d.WithinSla, 0.4) || d.WithinSlaCount != 2 || d.SlaHours != 24 {
		t.Errorf("decisions: count %d approved %d rate %s p50 %s p90 %s withinSla %s (%d) sla %v; want 5, 4, 0.8, 36.5, 76.8, 0.4 (2), 24",
			d.Count, d.Approved, fmtp(d.ApprovalRate), fmtp(d.P50Hours), fmtp(d.P90Hours), fmtp(d.WithinSla), d.WithinSlaCount, d.SlaHours)
	}
	if len(d.ByMonth) != 1 || d.ByMonth[0].Month != "2026-11" || d.ByMonth[0].Label != "Nov/2026" || d.ByMonth[0].Count != 5 ||
		!near(d.ByMonth[0].P50Hours, 36.5) {
		t.Errorf("by month: %+v; want November alone, 5 decisions, median 36.5", d.ByMonth)
	}

	reps := map[string]repFigures{}
	for _, r := range rep.ByRepresentative {
		reps[r.ID] = r
	}
	if r := reps[st.users[renata]]; len(reps) != 2 || r.Name != "Renata Almeida" || r.Decided != 3 || r.Approved != 2 ||
		!near(r.P50Hours, 36.5) || !near(r.ApprovalRate, 0.667) {
		t.Errorf("Renata: %+v (of %d representatives); want 3 decided, 2 approved, median 36.5, rate 0.667", r, len(reps))
	}
	if r := reps[st.users[mariana]]; r.Name != "Mariana Torres" || r.Decided != 2 || r.Approved != 2 || !near(r.P50Hours, 49.5) ||
		!near(r.ApprovalRate, 1) {
		t.Errorf("Mariana: %+v; want 2 decided, 2 approved, median 49.5, rate 1", r)
	}

	if len(rep.ByResale) != 2 {
		t.Fatalf("by reseller: %+v; want Revenda Dois and Modelo Nordata", rep.ByResale)
	}
	if r := rep.ByResale[0]; r.ID != st.r2 || r.Name != "Revenda Dois" || r.CNPJ != "22333444000181" || r.Registered != 4 ||
		r.Approved != 2 || r.Decided != 2 || !near(r.ApprovalRate, 1) || r.Pipeline != "3000.00" {
		t.Errorf("Revenda Dois: %+v; want 4 registered, 2 approved of 2 decided, pipeline 3000.00", r)
	}
	if r := rep.ByResale[1]; r.ID != st.r1 || r.Registered != 2 || r.Approved != 1 || r.Decided != 2 || !near(r.ApprovalRate, 0.5) ||
		r.Pipeline != "1000.00" {
		t.Errorf("Modelo Nordata: %+v; want 2 registered, 1 approved of 2 decided, pipeline 1000.00", r)
	}

	p := rep.Pipeline
	if p.Count != 4 || p.Total != "4000.00" {
		t.Errorf("pipeline: %d open, total %s; want 4, 4000.00", p.Count, p.Total)
	}
	if got := fmt.Sprint(p.ByStatus); got != "[{approved Aprovado 3 3700.00} {analysis Em Análise 1 300.00}]" {
		t.Errorf("pipeline by status: %s", got)
	}
	if got := fmt.Sprint(p.ByState); got != "[{MG MG 2 2300.00} {SP SP 2 1700.00}]" {
		t.Errorf("pipeline by UF: %s", got)
	}
	if got := fmt.Sprint(p.ByProduct); got != "[{ZT-411 Produto ZT-411 2 2300.00} {CT-40 Produto CT-40 1 1000.00}]" {
		t.Errorf("pipeline by product: %s", got)
	}

	if len(rep.ExpiringSoon) != 2 || rep.ExpiringDays != 30 {
		t.Fatalf("expiring soon (%d days): %+v; want O7 and O1", rep.ExpiringDays, rep.ExpiringSoon)
	}
	if e := rep.ExpiringSoon[0]; e.ID != st.ids["O7"] || e.DaysLeft != 10 || e.Status != "renovation" || e.Resale != "Revenda Modelo Nordata Ltda" {
		t.Errorf("first to expire: %+v; want O7 in 10 days", e)
	}
	if e := rep.ExpiringSoon[1]; e.ID != st.ids["O1"] || e.DaysLeft != 15 || e.Estimated != "1000.00" || e.CorporateName != "Cliente O1" {
		t.Errorf("second to expire: %+v; want O1 in 15 days", e)
	}

	// The web's test renders this answer (web/src/features/reports/testdata):
	// recorded with OPORTUNA_UPDATE_FIXTURES=1, checked key by key otherwise.
	_, body := st.login(renata, "nordata").call("GET", "/api/reports?from=2026-11-01&to=2026-11-30", nil)
	if os.Getenv("OPORTUNA_UPDATE_FIXTURES") == "1" {
		out, _ := json.MarshalIndent(body, "", "  ")
		if err := os.WriteFile(reportFixture, append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(reportFixture)
	if err != nil {
		t.Fatal(err)
	}
	var recorded map[string]any
	if err := json.Unmarshal(raw, &recorded); err != nil {
		t.Fatal(err)
	}
	if got, want := keyPaths("", body), keyPaths("", recorded); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the answer's keys %v differ from the web fixture's %v: run with OPORTUNA_UPDATE_FIXTURES=1", got, want)
	}
}

// reportFixture is the report the web's test renders.
const reportFixture = "../web/src/features/reports/testdata/report.json"

// keyPaths lists the paths of every key of a JSON value (an array's by its first element), sorted.
func keyPaths(prefix string, v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for _, k := range keysOf(x) {
			out = append(out, prefix+"."+k)
			out = append(out, keyPaths(prefix+"."+k, x[k])...)
		}
	case []any:
		if len(x) > 0 {
			out = keyPaths(prefix+"[]", x[0])
		}
	}
	slices.Sort(out)
	return out
}

// TestReportPeriodIsBrasiliasCalendarDays: October and November together put
// O5 (decided at 23:30 on 31/10 in Brasília, 02:30 on 01/11 in UTC) in
// October and O6 (23:20 on 30/11, 01/12 in UTC) in November; with the default
// APPROVAL_SLA (48 h), O2's 48 h exactly is within it.
func TestReportPeriodIsBrasiliasCalendarDays(t *testing.T) {
	st := newReportStack(t, 0)
	st.reportDataSet()
	rep := reportOf(t, st.login("suporte@nordata.demo", "nordata"), "2026-10-01", "2026-11-30")
	d := rep.Decisions
	if len(d.ByMonth) != 2 || d.ByMonth[0].Month != "2026-10" || d.ByMonth[0].Count != 1 || !near(d.ByMonth[0].P50Hours, 48) ||
		d.ByMonth[1].Month != "2026-11" || d.ByMonth[1].Count != 5 {
		t.Errorf("by month: %+v; want October 1 (48 h), November 5", d.ByMonth)
	}
	// 3, 12, 36.5, 48, 48, 96: 5 of 6 within 48 h.
	if d.Count != 6 || d.SlaHours != 48 || d.WithinSlaCount != 5 || !near(d.WithinSla, 0.833) {
		t.Errorf("decisions: %d, within %v h: %d (%s); want 6, 48, 5 (0.833)", d.Count, d.SlaHours, d.WithinSlaCount, fmtp(d.WithinSla))
	}
	// One day: the 30th alone holds O6's decision; the 31st of October alone, O5's.
	if got := reportOf(t, st.login(renata, "nordata"), "2026-11-30", "2026-11-30").Decisions; got.Count != 1 || !near(got.P50Hours, 3) {
		t.Errorf("30/11 alone: %d decisions, median %s; want O6's (3 h)", got.Count, fmtp(got.P50Hours))
	}
	if got := reportOf(t, st.login(renata, "nordata"), "2026-10-31", "2026-10-31").Decisions; got.Count != 1 || !near(got.P50Hours, 48) {
		t.Errorf("31/10 alone: %d decisions, median %s; want O5's (48 h)", got.Count, fmtp(got.P50Hours))
	}
	// A period with nothing decided: zeros and nulls, every month listed.
	empty := reportOf(t, st.login(renata, "nordata"), "2025-01-15", "2025-03-02")
	if empty.Decisions.Count != 0 || empty.Decisions.P50Hours != nil || empty.Decisions.WithinSla != nil || len(empty.Decisions.ByMonth) != 3 ||
		len(empty.ByResale) != 0 || len(empty.ByRepresentative) != 0 || empty.Pipeline.Total != "0.00" {
		t.Errorf("empty period: %+v", empty)
	}
}

// TestReportIsTheCallersBrandOnly: yep's representative sees yep's decision
// and registration, none of nordata's; nordata's sees none of yep's.
func TestReportIsTheCallersBrandOnly(t *testing.T) {
	st := newReportStack(t, 0)
	st.reportDataSet()
	yep := reportOf(t, st.login("representante@yep.demo", "yep"), "2026-11-01", "2026-11-30")
	if yep.Decisions.Count != 1 || len(yep.ByResale) != 1 || yep.ByResale[0].Pipeline != "9999.00" || len(yep.ExpiringSoon) != 1 ||
		yep.ExpiringSoon[0].ID != st.ids["Y1"] || len(yep.ByRepresentative) != 1 || yep.ByRepresentative[0].ID != st.users["representante@yep.demo"] {
		t.Errorf("yep: %+v; want its one decision, reseller and expiring registration", yep)
	}
	nordata := reportOf(t, st.login(renata, "nordata"), "2026-11-01", "2026-11-30")
	for _, r := range nordata.ByResale {
		if r.Pipeline == "9999.00" {
			t.Errorf("nordata's report shows yep's reseller: %+v", r)
		}
	}
	for _, e := range nordata.ExpiringSoon {
		if e.ID == st.ids["Y1"] {
			t.Errorf("nordata's report shows yep's registration %+v", e)
		}
	}
}

// TestReportRolesAndBadInput: resellers and sellers are refused (403); a
// missing, malformed or impossible date, a start after the end and a period
// over 366 days are 400 with a pt-BR message; 366 days is taken.
func TestReportRolesAndBadInput(t *testing.T) {
	st := newReportStack(t, 0)
	for _, who := range []string{"revenda@nordata.demo", "vendedor1@nordata.demo"} {
		s := st.login(who, "nordata")
		for _, path := range []string{"/api/reports?from=2026-11-01&to=2026-11-30", "/api/reports/export?from=2026-11-01&to=2026-11-30"} {
			if code, body := s.call("GET", path, nil); code != 403 || body["message"] == nil {
				t.Errorf("%s %s: %d %v; want 403", who, path, code, body)
			}
		}
	}
	rep := st.login(renata, "nordata")
	for query, want := range map[string]string{
		"":                                 MsgReportPeriodRequired,
		"from=2026-11-01":                  MsgReportPeriodRequired,
		"to=2026-11-01":                    MsgReportPeriodRequired,
		"from=01/11/2026&to=30/11/2026":    MsgReportDateInvalid,
		"from=2026-02-30&to=2026-03-01":    MsgReportDateInvalid,
		"from=2026-11-01&to=amanhã":        MsgReportDateInvalid,
		"from=2026-11-30&to=2026-11-01":    MsgReportPeriodOrder,
		"from=2025-11-29&to=2026-11-30":    MsgReportPeriodTooLong, // 367 days
		"from=2020-01-01&to=2026-11-30":    MsgReportPeriodTooLong,
		"from=2025-11-30&to=2026-11-30&x=": "", // 366 days: taken
	} {
		for _, path := range []string{"/api/reports?", "/api/reports/export?"} {
			code, body := rep.call("GET", path+query, nil)
			if want == "" {
				if code != 200 {
					t.Errorf("%s%s: %d %v; want 200", path, query, code, body)
				}
				continue
			}
			if code != 400 || body["message"] != want {
				t.Errorf("%s%s: %d %v; want 400 %q", path, query, code, body, want)
			}
		}
	}
}

// TestReportExportHasEveryTableTyped: the .xlsx holds one sheet per table with
// an autofilter; the figures are numbers, the days dates (30/11's validity
// and the period), the rates percentages.
func TestReportExportHasEveryTableTyped(t *testing.T) {
	st := newReportStack(t, 0)
	st.reportDataSet()
	code, hdr, b := st.login(mariana, "nordata").download("/api/reports/export?from=2026-11-01&to=2026-11-30")
	if code != 200 {
		t.Fatalf("export: %d %s", code, b)
	}
	if got := hdr.Get("Content-Disposition"); !strings.Contains(got, `filename="Relatorios-2026-11-01-a-2026-11-30.xlsx"`) {
		t.Errorf("file %s", got)
	}
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := []string{sheetSummary, sheetMonths, sheetReps, sheetResales, sheetByStatus, sheetByState, sheetByProduct, sheetExpiring}
	if got := f.GetSheetList(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("sheets %v, want %v", got, want)
	}
	// An autofilter is the sheet's hidden name _xlnm._FilterDatabase over its table.
	filtered := map[string]string{}
	for _, n := range f.GetDefinedName() {
		if n.Name == "_xlnm._FilterDatabase" {
			filtered[n.Scope] = n.RefersTo
		}
	}
	for _, sh := range want {
		if filtered[sh] == "" {
			t.Errorf("%s: no autofilter (%v)", sh, filtered)
		}
	}
	if got := filtered[sheetResales]; !strings.HasSuffix(got, "$A$1:$G$3") {
		t.Errorf("Revendas' autofilter %q, want A1:G3", got)
	}
	typeOf := func(sheet, cell string) excelize.CellType {
		ct, err := f.GetCellType(sheet, cell)
		if err != nil {
			t.Fatal(err)
		}
		return ct
	}
	raw := func(sheet, cell string) string {
		v, err := f.GetCellValue(sheet, cell, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	shown := func(sheet, cell string) string {
		v, _ := f.GetCellValue(sheet, cell)
		return v
	}
	// Revendas: Revenda Dois first, 4 registered, rate 100 %, pipeline 3000.
	if shown(sheetResales, "A2") != "Revenda Dois" || raw(sheetResales, "C2") != "4" || raw(sheetResales, "F2") != "1" ||
		raw(sheetResales, "G2") != "3000" || typeOf(sheetResales, "G2") == excelize.CellTypeSharedString {
		t.Errorf("Revendas row 2: %s %s %s %s", shown(sheetResales, "A2"), raw(sheetResales, "C2"), raw(sheetResales, "F2"), raw(sheetResales, "G2"))
	}
	if shown(sheetResales, "F2") != "100.0%" || shown(sheetResales, "B2") != "22.333.444/0001-81" {
		t.Errorf("Revendas: rate shown %q, CNPJ %q", shown(sheetResales, "F2"), shown(sheetResales, "B2"))
	}
	// Vencendo: O7's validity 10/12/2026 is a date (a serial number shown dd/mm/yyyy).
	if shown(sheetExpiring, "F2") != "10/12/2026" || raw(sheetExpiring, "F2") == "10/12/2026" || raw(sheetExpiring, "G2") != "10" {
		t.Errorf("Vencendo row 2: valid until %q (raw %q), days %q", shown(sheetExpiring, "F2"), raw(sheetExpiring, "F2"), raw(sheetExpiring, "G2"))
	}
	if shown(sheetSummary, "B2") != "01/11/2026" || raw(sheetSummary, "B4") != "5" || shown(sheetSummary, "A1") != "Indicador" {
		t.Errorf("Resumo: from %q, decisions %q", shown(sheetSummary, "B2"), raw(sheetSummary, "B4"))
	}
	if shown(sheetMonths, "A2") != "11/2026" || raw(sheetMonths, "C2") != "36.5" {
		t.Errorf("Tempo por mês: %q %q", shown(sheetMonths, "A2"), raw(sheetMonths, "C2"))
	}
}

// TestReportDecisionsReadTheDecisionIndexes: the decision-time query reads the
// two partial indexes of migrations/0019 (the history's decisions only, by
// brand and time), not the whole history, and the period's registrations come
// from the covering index: the predicates in store/reports.sql match the
// indexes' (make bench measures them on 1,000,000 opportunities).
func TestReportDecisionsReadTheDecisionIndexes(t *testing.T) {
	st := newReportStack(t, 0)
	st.reportDataSet()
	ctx := context.Background()
	p := reportPeriod{Since: brt(11, 1, 0, 0), Until: brt(12, 1, 0, 0)}
	plan := func(call func(*store.Queries) error) string {
		t.Helper()
		sql, args := store.Statement(call)
		var lines []string
		err := pgx.BeginFunc(ctx, st.db, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SET LOCAL enable_seqscan = off`); err != nil {
				return err
			}
			rows, _ := tx.Query(ctx, "EXPLAIN "+sql, args...)
			var err error
			lines, err = pgx.CollectRows(rows, pgx.RowTo[string])
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(lines, "\n")
	}
	got := plan(func(q *store.Queries) error {
		_, err := q.ReportDecisions(ctx, store.ReportDecisionsParams{Brand: "nordata", Since: p.Since, Until: p.Until, SlaHours: 48})
		return err
	})
	if !strings.Contains(got, "report_decisions_brand_decided_idx") {
		t.Errorf("the decisions' plan does not read the decisions' facts by date:\n%s", got)
	}
	if strings.Contains(got, " on history") || strings.Contains(got, "opportunities_pkey") {
		t.Errorf("the decisions' plan reads the history or looks the registrations up:\n%s", got)
	}
	got = plan(func(q *store.Queries) error {
		_, err := q.ReportPipelineByProduct(ctx, store.ReportPipelineByProductParams{Brand: "nordata", Since: p.Since, Until: p.Until, MaxRows: 20})
		return err
	})
	if !strings.Contains(got, "report_product_lines_brand_registered_idx") || strings.Contains(got, " on opportunities") {
		t.Errorf("the by-product plan does not read the lines' facts alone:\n%s", got)
	}
	got = plan(func(q *store.Queries) error {
		_, err := q.ReportByResale(ctx, store.ReportByResaleParams{Brand: "nordata", Since: p.Since, Until: p.Until})
		return err
	})
	if !strings.Contains(got, "opportunities_brand_created_report_idx") {
		t.Errorf("the by-reseller plan does not read the covering index:\n%s", got)
	}
	got = plan(func(q *store.Queries) error {
		_, err := q.ReportExpiring(ctx, store.ReportExpiringParams{Brand: "nordata", Since: halfPastEleven, Until: halfPastEleven.AddDate(0, 0, 30), MaxRows: 100})
		return err
	})
	if !strings.Contains(got, "opportunities_brand_valid_until_idx") {
		t.Errorf("the expiring plan does not read its index:\n%s", got)
	}
}
