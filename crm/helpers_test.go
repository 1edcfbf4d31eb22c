package crm_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/brand"
	"oportuna/crm"
	"oportuna/internal/dev/crmsim"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
)

func testBrands(t testing.TB) *brand.Registry {
	b, err := brand.Parse([]byte(`[{"slug":"yep","name":"Yep"},{"slug":"nordata","name":"Nordata"}]`))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// simEnv is a stand-in served over loopback HTTP on a fresh database.
type simEnv struct {
	t   *testing.T
	ctx context.Context
	db  *pgxpool.Pool
	sim *crmsim.Sim
	srv *httptest.Server
}

func newSimEnv(t *testing.T, opts crmsim.Options) *simEnv {
	t.Helper()
	db := testenv.DB(t)
	if opts.Brands == nil {
		opts.Brands = testBrands(t)
	}
	sim := crmsim.New(db, opts)
	if err := sim.Seed(testenv.Context(t)); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	return &simEnv{t: t, ctx: testenv.Context(t), db: db, sim: sim, srv: srv}
}

// newSimClient is the stand-in with its default options and a client of it:
// the opening of most tests here.
func newSimClient(t *testing.T) (*simEnv, *crm.Salesforce) {
	t.Helper()
	e := newSimEnv(t, crmsim.Options{})
	return e, e.client()
}

// client is a Salesforce client pointed at the stand-in; edit adjusts its configuration.
func (e *simEnv) client(edit ...func(*crm.SalesforceConfig)) *crm.Salesforce {
	e.t.Helper()
	cfg := e.sim.ClientConfig(e.srv.URL)
	for _, f := range edit {
		f(&cfg)
	}
	c, err := crm.NewSalesforce(cfg, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

func (e *simEnv) count(sql string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.db.QueryRow(e.ctx, sql, args...).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// requests counts the calls the stand-in answered that match.
func (e *simEnv) requests(match func(crmsim.Request) bool) int {
	n := 0
	for _, r := range e.sim.Requests() {
		if match(r) {
			n++
		}
	}
	return n
}

func sampleOpportunity(id, doc string) crm.Opportunity {
	return crm.Opportunity{
		ID: id, Brand: "yep", Name: "Projeto Armazém", Status: opportunity.Approved, Probability: 50,
		CustomerDoc: doc, CustomerName: "Cliente Bom Ltda", Amount: 2*489000 + 3*12050,
		CloseDate: time.Date(2026, 9, 30, 0, 0, 0, 0, time.UTC), SellerName: "Vanessa Lima", Reseller: "Revenda Demo Ltda",
		Description: "Registro de oportunidade do portal.",
		Lines: []crm.LineItem{
			{PartNumber: "CT-40", Description: "Coletor de dados", Quantity: 2, UnitPrice: 489000},
			{PartNumber: "XYZ-1", Description: "Suporte veicular", Quantity: 3, UnitPrice: 12050, Accessory: true},
		},
	}
}

func isQuery(object string) func(crmsim.Request) bool {
	return func(r crmsim.Request) bool { return strings.Contains(r.SOQL, "FROM "+object) }
}
