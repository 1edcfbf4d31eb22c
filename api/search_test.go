package api

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"oportuna/auth"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/store"
)

// newSearchStack is the API alone (no workflows) on a database seeded for two
// brands, nordata and yep, each with its company, its representative, support,
// reseller and two sellers.
func newSearchStack(t *testing.T) *stack {
	t.Helper()
	db, brands := seeded(t, testenv.Context(t), twoBrands)
	return &stack{t: t, db: db, srv: serve(t, &Server{Brands: brands, DB: db, Auth: testAuth(db, brands), Web: testWeb})}
}

// searchFixture is one opportunity of the read model, registered by the user
// with the e-mail `by` (in that user's company).
type searchFixture struct {
	by, brand, name, fantasy, corporate, cnpj, email string
	deleted                                          bool
}

func (st *stack) storeFound(f searchFixture) string {
	st.t.Helper()
	id := opportunity.NewID()
	if f.cnpj == "" {
		f.cnpj = "11444777000161"
	}
	_, err := st.db.Exec(context.Background(), `INSERT INTO opportunities
			(id, brand, status, name, fantasy_name, corporate_name, cnpj, email, is_deleted, user_id, resale_id, created_at)
		SELECT $1, $2, 'analysis', $3, $4, $5, $6, $7, $8, u.id, u.resale_id, now() FROM users u WHERE u.email = $9`,
		id, f.brand, f.name, f.fantasy, f.corporate, f.cnpj, f.email, f.deleted, f.by)
	if err != nil {
		st.t.Fatal(err)
	}
	return id
}

// found is a search answer: the ids (or e-mails, for users) of each kind.
type found struct {
	opportunities, resales, users []string
	more                          map[string]any
}

func (s *session) search(q string) (int, found, map[string]any) {
	s.st.t.Helper()
	code, body := s.call("POST", "/api/search", map[string]string{"q": q})
	var f found
	pick := func(kind, key string) []string {
		list, _ := body[kind].([]any)
		out := []string{}
		for _, v := range list {
			out = append(out, v.(map[string]any)[key].(string))
		}
		slices.Sort(out)
		return out
	}
	f.opportunities, f.resales, f.users = pick("opportunities", "id"), pick("resales", "corporateName"), pick("users", "email")
	f.more, _ = body["more"].(map[string]any)
	return code, f, body
}

func sorted(v ...string) []string {
	out := append([]string{}, v...)
	slices.Sort(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// TestSearchKeepsToTheCallersRoleAndBrand: a seller finds only the
// opportunities it registered; a reseller its company's opportunities and its
// sellers; representative and support the brand's opportunities, companies and
// partner users. Nobody finds another brand's records, another company's, a
// cancelled opportunity or a deleted user.
func TestSearchKeepsToTheCallersRoleAndBrand(t *testing.T) {
	st := newSearchStack(t)
	ctx := context.Background()
	// Another company of nordata, with its own reseller, whose name matches.
	addOtherReseller(t, st)
	hash, _ := auth.HashPassword("Oportuna@2026")
	mine := st.storeFound(searchFixture{by: "vendedor1@nordata.demo", brand: "nordata", name: "Projeto Aurora", fantasy: "Padaria Sol",
		corporate: "Sol Pães Ltda", cnpj: "11222333000181", email: "compras@padariasol.com.br"})
	colleague := st.storeFound(searchFixture{by: "vendedor2@nordata.demo", brand: "nordata", name: "Expansão", fantasy: "Aurora Filial", corporate: "Filial Ltda"})
	other := st.storeFound(searchFixture{by: "olga@aurora-dist.com.br", brand: "nordata", name: "Outra", fantasy: "Loja", corporate: "Aurora Varejo Ltda"})
	st.storeFound(searchFixture{by: "vendedor1@nordata.demo", brand: "nordata", name: "Aurora cancelada", deleted: true})
	yep := st.storeFound(searchFixture{by: "vendedor1@yep.demo", brand: "yep", name: "Aurora Yep", fantasy: "Aurora", corporate: "Aurora Yep Ltda"})
	// A deleted seller of nordata's company.
	if _, err := st.db.Exec(ctx, `WITH u AS (INSERT INTO users (name, email, password_hash, resale_id, active)
			SELECT 'Aurélio Aurora', 'aurelio@nordata.demo', $1, resale_id, false FROM users WHERE email = 'vendedor1@nordata.demo' RETURNING id)
		INSERT INTO user_roles (user_id, role, brand) SELECT id, 'SELLER', 'nordata' FROM u`, hash); err != nil {
		t.Fatal(err)
	}

	seller := st.login("vendedor1@nordata.demo", "nordata")
	resale := st.login("revenda@nordata.demo", "nordata")
	otherReseller := st.login("olga@aurora-dist.com.br", "nordata")
	rep := st.login("representante@nordata.demo", "nordata")
	sup := st.login("suporte@nordata.demo", "nordata")
	yepRep := st.login("representante@yep.demo", "yep")
	yepResale := st.login("revenda@yep.demo", "yep")

	none := []string{}
	for _, c := range []struct {
		who                           string
		s                             *session
		q                             string
		opportunities, resales, users []string
	}{
		{"seller", seller, "aurora", sorted(mine), none, none},
		{"reseller", resale, "AURORA", sorted(mine, colleague), none, none},
		{"another reseller", otherReseller, "aurora", sorted(other), none, none},
		{"representative", rep, "aurora", sorted(mine, colleague, other), sorted("Aurora Distribuição Ltda"), sorted("olga@aurora-dist.com.br")},
		{"support", sup, "aurora", sorted(mine, colleague, other), sorted("Aurora Distribuição Ltda"), sorted("olga@aurora-dist.com.br")},
		{"brand B's representative", yepRep, "aurora", sorted(yep), none, none},
		{"brand B's reseller", yepResale, "aurora", sorted(yep), none, none},
		// Users: a reseller's sellers (not itself, not another company's); staff the brand's partner users.
		{"reseller, users", resale, "vendedor", none, none, sorted("vendedor1@nordata.demo", "vendedor2@nordata.demo")},
		{"another reseller, users", otherReseller, "vendedor", none, none, none},
		{"seller, users", seller, "vendedor", none, none, none},
		{"representative, users", rep, "Lima", none, none, sorted("vendedor1@nordata.demo")},
		{"brand B's representative, users", yepRep, "Lima", none, none, sorted("vendedor1@yep.demo")},
		{"representative, a deleted user", rep, "Aurélio", none, none, none},
		// By CNPJ, masked or not, from its start; by e-mail.
		{"seller, CNPJ", seller, "11.222.333/0001", sorted(mine), none, none},
		{"representative, company CNPJ", rep, "22333444", none, sorted("Aurora Distribuição Ltda"), none},
		{"reseller, e-mail", resale, "compras@padariasol", sorted(mine), none, none},
		{"representative, company e-mail", rep, "contato@aurora-dist", none, sorted("Aurora Distribuição Ltda"), none},
		// A percent sign is a character, not a wildcard.
		{"representative, %", rep, "%%", none, none, none},
	} {
		code, got, body := c.s.search(c.q)
		if code != http.StatusOK {
			t.Errorf("%s searching %q: %d %v", c.who, c.q, code, body)
			continue
		}
		if !slices.Equal(got.opportunities, c.opportunities) || !slices.Equal(got.resales, c.resales) || !slices.Equal(got.users, c.users) {
			t.Errorf("%s searching %q: opportunities %v resales %v users %v; want %v %v %v",
				c.who, c.q, got.opportunities, got.resales, got.users, c.opportunities, c.resales, c.users)
		}
	}

	// Nothing of brand A reaches brand B's callers, whatever they type.
	for _, q := range []string{"nordata", "Vanessa", "11222333", "Padaria", "Revenda Modelo Nordata"} {
		for _, s := range []*session{yepRep, yepResale} {
			_, _, body := s.search(q)
			raw := strings.ToLower(strings.Join(flatten(body), " "))
			if strings.Contains(raw, "nordata") || strings.Contains(raw, mine) {
				t.Errorf("brand B searching %q reads brand A: %v", q, body)
			}
		}
	}
}

func flatten(v any) []string {
	switch x := v.(type) {
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, flatten(e)...)
		}
		return out
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, flatten(e)...)
		}
		return out
	case string:
		return []string{x}
	}
	return nil
}

// TestSearchRefusesShortQueriesAndSaysWhenThereIsMore: fewer than 2 or more
// than 100 characters is a 400 in pt-BR; no session a 401; a kind with more
// than SearchLimit matches answers SearchLimit and more=true.
func TestSearchRefusesShortQueriesAndSaysWhenThereIsMore(t *testing.T) {
	st := newSearchStack(t)
	seller := st.login("vendedor1@nordata.demo", "nordata")
	for _, c := range []struct {
		q    string
		code int
		msg  string
	}{
		{"", 400, MsgSearchShort}, {"a", 400, MsgSearchShort}, {"   a   ", 400, MsgSearchShort},
		{strings.Repeat("é", 101), 400, MsgSearchLong}, {strings.Repeat("é", 100), 200, ""}, {"ab", 200, ""},
	} {
		code, body := seller.call("POST", "/api/search", map[string]string{"q": c.q})
		if code != c.code || (c.msg != "" && body["message"] != c.msg) {
			t.Errorf("q=%q: %d %v, want %d %q", c.q, code, body, c.code, c.msg)
		}
	}
	anon := &session{st: st, company: "nordata"}
	if code, _ := anon.call("POST", "/api/search", map[string]string{"q": "aurora"}); code != 401 {
		t.Errorf("without a session: %d", code)
	}

	for i := 0; i < SearchLimit+1; i++ {
		st.storeFound(searchFixture{by: "vendedor1@nordata.demo", brand: "nordata", name: "Lote de teste"})
	}
	code, got, body := seller.search("lote")
	if code != 200 || len(got.opportunities) != SearchLimit || got.more["opportunities"] != true || got.more["users"] != false {
		t.Errorf("six matches: %d %d found, more %v (%v)", code, len(got.opportunities), got.more, body)
	}
	st.storeFound(searchFixture{by: "vendedor1@nordata.demo", brand: "nordata", name: "Único"})
	if _, got, _ := seller.search("único"); len(got.opportunities) != 1 || got.more["opportunities"] != false {
		t.Errorf("one match: %v", got)
	}
}

// TestSearchArmsHaveIndexes: every arm of each kind's OR (a column matched
// with ILIKE '%text%', a CNPJ with LIKE 'prefix%' within the brand) can be
// read from an index, so the planner may answer a search with a bitmap OR of
// index scans rather than reading the table. The choice between that and the
// brand's newest-first index is the planner's, by the figures: on 300,000
// opportunities a rare text takes the bitmap OR, a common one walks
// opportunities_brand_created_idx and stops at the sixth row (docs/api.md
// "Search"). The test's few rows would make a sequential scan cheapest, so the
// plans are read with enable_seqscan off.
func TestSearchArmsHaveIndexes(t *testing.T) {
	st := newSearchStack(t)
	ctx := context.Background()
	want := map[string]string{
		"opportunities.name": "opportunities_name_trgm_idx", "opportunities.fantasy_name": "opportunities_fantasy_trgm_idx",
		"opportunities.corporate_name": "opportunities_corporate_trgm_idx", "opportunities.email": "opportunities_email_trgm_idx",
		"opportunities.cnpj":     "opportunities_brand_cnpj_idx",
		"resales.corporate_name": "resales_corporate_trgm_idx", "resales.fantasy_name": "resales_fantasy_trgm_idx",
		"resales.email": "resales_email_trgm_idx", "resales.cnpj": "resales_brand_cnpj_pattern_idx",
		"users.name": "users_name_trgm_idx", "users.email": "users_email_trgm_idx",
	}
	// Enough rows, in two brands, that a CNPJ prefix is more selective than the brand.
	for _, q := range []string{
		`INSERT INTO resales (brand, status, corporate_name, cnpj, email)
			SELECT CASE WHEN i % 2 = 0 THEN 'nordata' ELSE 'yep' END, 'approved', 'Empresa ' || i, lpad(i::text, 12, '0') || '00', 'c' || i || '@e.com.br'
			FROM generate_series(1, 3000) i`,
		`INSERT INTO opportunities (id, brand, status, cnpj, user_id, created_at)
			SELECT gen_random_uuid(), CASE WHEN i % 2 = 0 THEN 'nordata' ELSE 'yep' END, 'analysis', lpad(i::text, 12, '0') || '00', u.id, now()
			FROM generate_series(1, 3000) i, (SELECT id FROM users LIMIT 1) u`,
		`ANALYZE resales`, `ANALYZE opportunities`,
	} {
		if _, err := st.db.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	explain := func(sql string, args ...any) string {
		t.Helper()
		var plan []string
		err := pgx.BeginFunc(ctx, st.db, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SET LOCAL enable_seqscan = off`); err != nil {
				return err
			}
			rows, _ := tx.Query(ctx, "EXPLAIN "+sql, args...)
			var err error
			plan, err = pgx.CollectRows(rows, pgx.RowTo[string])
			return err
		})
		if err != nil {
			t.Fatalf("explain %s: %v", sql, err)
		}
		return strings.Join(plan, "\n")
	}
	seen := 0
	for kind, arms := range store.SearchArms {
		for _, col := range arms.Text {
			key := arms.Table + "." + col
			if got := explain(`SELECT 1 FROM `+arms.Table+` WHERE `+col+` ILIKE $1`, "%zqxw%"); !strings.Contains(got, " "+want[key]+" ") {
				t.Errorf("%s (%s): the plan does not read %q:\n%s", key, kind, want[key], got)
			}
			seen++
		}
		if arms.CNPJ != "" {
			key := arms.Table + "." + arms.CNPJ
			if got := explain(`SELECT 1 FROM `+arms.Table+` WHERE brand = $1 AND `+arms.CNPJ+` LIKE $2`, "nordata", "1122%"); !strings.Contains(got, " "+want[key]+" ") {
				t.Errorf("%s (%s): the plan does not read %q:\n%s", key, kind, want[key], got)
			}
			seen++
		}
	}
	if seen != len(want) {
		t.Errorf("%d arms, %d expected indexes: a new arm needs its index here and in a migration", seen, len(want))
	}
}
