package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/xuri/excelize/v2"

	"oportuna/auth"
	"oportuna/cnpj"
	"oportuna/internal/health"
	"oportuna/mailer"
	"oportuna/workflows"
)

// The authorization matrix (docs/security-authz.md): every route the real
// router serves (found by chi.Walk, so a route added without its row fails the
// test) is called as each actor below, and the status each must get is the
// row's. The callers:
//
//	anon         no session (the company header only, as the web app sends it)
//	rep, sup     REPRESENTATIVE and SUPPORT of brand A (nordata)
//	resale       RESALE of the company that owns the target records
//	seller       SELLER of that company, who registered the target opportunity
//	brandB       a user holding all four roles at brand B (yep), with its own
//	             token and company header, calling brand A's host with brand A's ids
//	otherResale  RESALE and SELLER of another company of brand A
//	otherSeller  another SELLER of the owner's company
//
// A caller that is allowed gets the status that proves it passed the
// authorization: a 2xx where the call is harmless to repeat, else a 400 or 409
// answered by a check that runs after the authorization (an invalid body, a
// transition the record's state forbids). A caller that is refused gets
// 401/403/404, and the body of any answer to the last three callers must not
// carry the target records' ids or personal data.
type actor int

const (
	anon actor = iota
	rep
	sup
	resaleUser
	seller
	brandB
	otherResale
	otherSeller
	nActors
)

var actorNames = [nActors]string{"anonymous", "REPRESENTATIVE", "SUPPORT", "RESALE (owner's company)", "SELLER (owner)",
	"another brand's token", "another reseller", "another seller of the company"}

// want is the status of each caller, in the order of the actor constants.
type want [nActors]int

func everyone(code int) want {
	var w want
	for i := range w {
		w[i] = code
	}
	return w
}

// authzRow is one call of a route. Placeholders in path and body:
// {opp} the target opportunity, {resale} its company, {v1} its seller (the owner),
// {v3} a seller of the company the reseller may deactivate, {notification} a
// notice of the owner, {mail} an e-mail of the outbox, {n} a number unique to the
// call, {cnpj} a valid CNPJ unique to the call, {client} the target's customer e-mail.
type authzRow struct {
	route   string // "METHOD pattern", as chi.Walk names it
	variant string // tells apart rows of one route
	path    string
	body    string
	form    bool // body is a form (application/x-www-form-urlencoded), else JSON
	want    want
	// public: no session needed; the same answer for every caller.
	public bool
	// basic: the owner seller's e-mail and password as Basic credentials (login).
	basic bool
	// refresh: the caller's refresh token is the bearer (the refresh call).
	refresh bool
	// shows is a placeholder the answer must carry for the callers in showsTo,
	// so the leak check of the same call for the others is not vacuous.
	shows   string
	showsTo []actor
	// brandWide: callers for whom the leak check does not apply (a list that is
	// the brand's by design).
	brandWide []actor
}

// authzRows is the table. Columns: anon, rep, sup, resale, seller, brandB, otherResale, otherSeller.
var authzRows = []authzRow{
	// --- public: probes, brand, assets, geography, sign-up, contact, mail, login ---
	{route: "GET /healthz", path: "/healthz", public: true, want: everyone(200)},
	{route: "GET /readyz", path: "/readyz", public: true, want: everyone(200)},
	{route: "GET /api/brand", path: "/api/brand", public: true, want: everyone(200)},
	{route: "GET /api/version", path: "/api/version", public: true, want: everyone(200)},
	{route: "GET /api/image", path: "/api/image?brand=nordata", public: true, want: everyone(200)},
	{route: "GET /api/geo/states", path: "/api/geo/states", public: true, want: everyone(200)},
	{route: "GET /api/geo/states/{uf}/cities", path: "/api/geo/states/MG/cities", public: true, want: everyone(200)},
	{route: "GET /api/cnpj/{digits}", path: "/api/cnpj/{cnpj}", public: true, want: everyone(200)},
	{route: "POST /api/register/resale", path: "/api/register/resale", public: true, want: everyone(201),
		body: `{"email":"cadastro{n}@revenda-nova.com.br","phone":"11987654321","contactName":"Carla Dias","cnpj":"{cnpj}","role":[],
			"brand":"nordata","fantasyName":"","corporateName":"Revenda Nova Ltda","street":"Rua B, 2","state":"SP","cep":"01310-100",
			"city":"São Paulo","country":"Brasil"}`},
	{route: "POST /api/contact", path: "/api/contact", public: true, want: everyone(200),
		body: `{"fullName":"Paula Reis","email":"paula{n}@exemplo.com.br","title":"Dúvida","description":"Como me cadastro?"}`},
	{route: "GET /brand-assets/lgpd.pdf", path: "/brand-assets/lgpd.pdf", public: true, want: everyone(200)},
	{route: "GET /brand-assets/{slug}/guidelines.pdf", path: "/brand-assets/nordata/guidelines.pdf", public: true, want: everyone(200)},
	{route: "GET /brand-assets/{slug}/{file}", path: "/brand-assets/nordata/logo.svg", public: true, want: everyone(200)},
	// Any other depth under /brand-assets/ names nothing: a JSON 404, not the web app's index.
	{route: "GET /brand-assets/*", path: "/brand-assets/nordata/a/b.svg", public: true, want: everyone(404)},
	{route: "POST /mailer/", path: "/mailer/", public: true, want: everyone(200), form: true,
		body: "subject=Contato+{n}&content=Ol%C3%A1&to=admin%40nordata.example&domain=nordata.localhost&contentType=text%2Fplain"},
	// The dev mailbox: mounted only with MAILBOX=on (make run); off in every deployment (deploy/compose_test.go).
	{route: "GET /mailbox/", path: "/mailbox/", public: true, want: everyone(200)},
	{route: "GET /mailbox/api/messages", path: "/mailbox/api/messages", public: true, want: everyone(200)},
	{route: "GET /mailbox/api/messages/{id}", path: "/mailbox/api/messages/{mail}", public: true, want: everyone(200)},
	{route: "GET /mailbox/{id}", path: "/mailbox/{mail}", public: true, want: everyone(200)},
	{route: "GET /mailbox/{id}/body", path: "/mailbox/{mail}/body", public: true, want: everyone(200)},
	{route: "GET /authenticator/login", path: "/authenticator/login?brand=nordata", public: true, basic: true, want: everyone(200)},
	{route: "POST /authenticator/auth/logout", path: "/authenticator/auth/logout", body: `{}`, public: true, want: everyone(204)},
	{route: "POST /authenticator/auth/reset_password", path: "/authenticator/auth/reset_password", public: true, want: everyone(204),
		body: `{"company":"nordata","email":"vendedor2@nordata.demo"}`},
	{route: "POST /authenticator/auth/reset_password/check", path: "/authenticator/auth/reset_password/check", public: true,
		body: `{"token":"nao-existe"}`, want: everyone(410)},

	// --- the authenticator, with a session ---
	// Brand B's refresh token presented at brand A's refresh: refused.
	{route: "GET /authenticator/{company}/auth/refresh_token", path: "/authenticator/nordata/auth/refresh_token", refresh: true,
		want: want{401, 200, 200, 200, 200, 401, 200, 200}},
	// A signed-in password change of the caller's own account: the weak password is refused after the session checks.
	{route: "POST /authenticator/auth/update_password", path: "/authenticator/auth/update_password",
		body: `{"password":"fraca","confirmation":"fraca"}`, want: want{401, 400, 400, 400, 400, 400, 400, 400}},
	{route: "GET /authenticator/auth/payload", path: "/authenticator/auth/payload", want: want{401, 200, 200, 200, 200, 200, 200, 200}},
	{route: "GET /authenticator/user/{id}", path: "/authenticator/user/{v1}", want: want{401, 200, 200, 200, 200, 403, 403, 403}},
	{route: "GET /authenticator/user/{id}/role", path: "/authenticator/user/{v1}/role", want: want{401, 200, 200, 200, 200, 403, 403, 403}},

	// --- opportunities ---
	{route: "POST /api/opportunity/create", path: "/api/opportunity/create", body: "{create}",
		want: want{401, 403, 403, 200, 200, 403, 200, 200}},
	{route: "GET /api/opportunity/id/{id}", path: "/api/opportunity/id/{opp}", want: want{401, 200, 200, 200, 200, 404, 403, 403}},
	{route: "GET /api/opportunity/all", path: "/api/opportunity/all", want: want{401, 200, 200, 403, 403, 200, 403, 403},
		shows: "{opp}", showsTo: []actor{rep, sup}},
	{route: "GET /api/opportunity/resale", path: "/api/opportunity/resale", want: want{401, 403, 403, 200, 403, 200, 200, 403},
		shows: "{opp}", showsTo: []actor{resaleUser}},
	{route: "GET /api/opportunity/user", path: "/api/opportunity/user", want: want{401, 403, 403, 403, 200, 200, 200, 200},
		shows: "{opp}", showsTo: []actor{seller}},
	{route: "GET /api/opportunity/export", path: "/api/opportunity/export", want: want{401, 200, 200, 200, 200, 200, 200, 200},
		shows: "{client}", showsTo: []actor{rep, sup, resaleUser, seller}},
	{route: "GET /api/opportunity/name", path: "/api/opportunity/name?company=nordata&name=Sigiloso",
		want: want{401, 200, 200, 200, 200, 403, 200, 200}, shows: "{opp}", showsTo: []actor{rep, sup, resaleUser, seller}},
	// An edit of the probability (the workflow runs it: 200 for the representative).
	{route: "PATCH /api/opportunity/{id}", path: "/api/opportunity/{opp}", body: `{"probabilityClosing":50}`,
		want: want{401, 200, 403, 403, 403, 404, 403, 403}},
	{route: "PATCH /api/opportunity", path: "/api/opportunity", body: `{"id":"{opp}","probabilityClosing":75}`,
		want: want{401, 200, 403, 403, 403, 404, 403, 403}},
	// A renewal request without its fields: 400 once the caller may act on the record.
	{route: "PATCH /api/opportunity/renovation/{id}/request", path: "/api/opportunity/renovation/{opp}/request", body: `{}`,
		want: want{401, 403, 403, 400, 400, 404, 403, 403}},
	// A renewal decision on an opportunity in analysis: the workflow refuses the transition (409).
	{route: "PATCH /api/opportunity/renovation/{id}", path: "/api/opportunity/renovation/{opp}",
		body: `{"status":"approved","reason":"ok"}`, want: want{401, 409, 403, 403, 403, 404, 403, 403}},
	{route: "GET /api/opportunity/getSellersOnSalesforce", path: "/api/opportunity/getSellersOnSalesforce",
		want: want{401, 200, 403, 200, 200, 200, 200, 200}, brandWide: []actor{otherResale, otherSeller}},
	{route: "GET /api/dashboard/status", path: "/api/dashboard/status?brand=nordata", want: want{401, 200, 200, 403, 403, 403, 403, 403}},
	// The reports are the caller's brand's (the company header): another brand's token reads its own.
	{route: "GET /api/reports", path: "/api/reports?from=2026-01-01&to=2026-12-31", want: want{401, 200, 200, 403, 403, 200, 403, 403}},
	{route: "GET /api/reports/export", path: "/api/reports/export?from=2026-01-01&to=2026-12-31", want: want{401, 200, 200, 403, 403, 200, 403, 403}},
	// Routing: the coverage of the caller's brand (brand B reads its own); an edit naming brand A's
	// representative is harmless to repeat (200) and, from brand B, names nobody of its brand (400).
	{route: "GET /api/coverage", path: "/api/coverage", want: want{401, 200, 200, 403, 403, 200, 403, 403},
		shows: "{resale}", showsTo: []actor{rep, sup}},
	{route: "GET /api/coverage/history", path: "/api/coverage/history", want: want{401, 200, 200, 403, 403, 200, 403, 403}},
	{route: "PUT /api/coverage/{userId}", path: "/api/coverage/{repA}", body: `{"states":["SP"],"resaleIds":[]}`,
		want: want{401, 200, 200, 403, 403, 400, 403, 403}},
	// A reassignment with no representative: 400 once the caller may reassign.
	{route: "POST /api/opportunity/{id}/reassign", path: "/api/opportunity/{opp}/reassign", body: `{"representativeIds":[],"reason":"x"}`,
		want: want{401, 400, 400, 403, 403, 404, 403, 403}},

	// --- history: of an opportunity, a company, a user ---
	{route: "GET /api/history/getByTypeId", variant: "opportunity", path: "/api/history/getByTypeId?typeId={opp}",
		want: want{401, 200, 200, 200, 200, 404, 403, 403}},
	{route: "GET /api/history/getByTypeId", variant: "resale", path: "/api/history/getByTypeId?typeId={resale}",
		want: want{401, 200, 200, 200, 403, 404, 403, 403}},
	{route: "GET /api/history/getByTypeId", variant: "user", path: "/api/history/getByTypeId?typeId={v1}",
		want: want{401, 200, 200, 200, 200, 404, 403, 403}},
	// SUPPORT reads the history but changes nothing (spec §6: no action buttons), so it writes no history rows.
	{route: "POST /api/history/create", path: "/api/history/create",
		body: `{"typeId":"{opp}","type":"Opportunities","actionType":"update","modifications":[]}`,
		want: want{401, 201, 403, 201, 201, 404, 403, 403}},

	// --- reseller companies ---
	{route: "GET /api/resale/all", path: "/api/resale/all?brand=nordata", want: want{401, 200, 200, 403, 403, 403, 403, 403},
		shows: "{resale}", showsTo: []actor{rep, sup}},
	{route: "GET /api/resale/{id}", path: "/api/resale/{resale}", want: want{401, 200, 200, 200, 403, 404, 403, 403}},
	// A decision on an approved company: 409 (not in analysis) once the caller may decide.
	{route: "PATCH /api/resale/update/{id}", path: "/api/resale/update/{resale}", body: `{"status":"approved"}`,
		want: want{401, 409, 409, 403, 403, 404, 403, 403}},

	// --- sellers and partner users ---
	{route: "GET /api/seller/all", path: "/api/seller/all", want: want{401, 403, 403, 200, 403, 200, 200, 403},
		shows: "{v1}", showsTo: []actor{resaleUser}},
	{route: "GET /api/representative/all", path: "/api/representative/all?brand=nordata", want: want{401, 200, 200, 403, 403, 403, 403, 403},
		shows: "{v1}", showsTo: []actor{rep, sup}},
	{route: "GET /api/seller/name", path: "/api/seller/name?brand=nordata&name=Lima", want: want{401, 200, 200, 200, 403, 403, 200, 403},
		shows: "{v1}", showsTo: []actor{rep, sup, resaleUser}},
	// An invalid seller: 400 once the caller may add sellers (to its own company).
	{route: "POST /api/seller", path: "/api/seller", body: `{"name":"","email":"x","phone":"1"}`,
		want: want{401, 403, 403, 400, 403, 400, 400, 403}},
	{route: "PATCH /api/seller/inative/{id}", path: "/api/seller/inative/{v3}", want: want{401, 403, 403, 200, 403, 404, 403, 403}},
	// 'Desfazer' of the deletion just above, within its window: the company's reseller only.
	{route: "PATCH /api/seller/restore/{id}", path: "/api/seller/restore/{v3}", want: want{401, 403, 403, 200, 403, 404, 403, 403}},

	// --- global search: every role, each within what it may open ---
	{route: "POST /api/search", variant: "opportunity", path: "/api/search", body: `{"q":"Sigiloso"}`, want: want{401, 200, 200, 200, 200, 200, 200, 200},
		shows: "{opp}", showsTo: []actor{rep, sup, resaleUser, seller}},
	{route: "POST /api/search", variant: "user", path: "/api/search", body: `{"q":"Lima"}`, want: want{401, 200, 200, 200, 200, 200, 200, 200},
		shows: "{v1}", showsTo: []actor{rep, sup, resaleUser}},
	{route: "POST /api/search", variant: "resale", path: "/api/search", body: `{"q":"Modelo"}`, want: want{401, 200, 200, 200, 200, 200, 200, 200},
		shows: "{resale}", showsTo: []actor{rep, sup}},

	// --- notifications: always the caller's own ---
	{route: "GET /api/notifications", path: "/api/notifications", want: want{401, 200, 200, 200, 200, 200, 200, 200},
		shows: "{notificationTitle}", showsTo: []actor{seller}},
	{route: "PATCH /api/notifications/read-all", path: "/api/notifications/read-all", want: want{401, 200, 200, 200, 200, 200, 200, 200}},
	{route: "PATCH /api/notifications/{id}/read", path: "/api/notifications/{notification}/read",
		want: want{401, 404, 404, 404, 200, 404, 404, 404}},
}

func (r authzRow) name() string {
	if r.variant != "" {
		return r.route + " (" + r.variant + ")"
	}
	return r.route
}

// sessionRequired: anonymous is refused with 401 by the session check, so a
// token of another brand's company and a forged token must be refused too.
func (r authzRow) sessionRequired() bool { return !r.public && !r.refresh && r.want[anon] == 401 }

// authzCaller is one caller's credentials.
type authzCaller struct {
	access, refresh, company string
}

// authzEnv is the server, the callers and the target records.
type authzEnv struct {
	t       *testing.T
	ps      *partnerStack
	callers [nActors]authzCaller
	vals    map[string]string
	secrets [nActors][]string // what each intruder must never read
	calls   int
}

// fixedCompany is the CNPJ provider: every valid number is a company.
type fixedCompany struct{}

func (fixedCompany) Find(_ context.Context, n string) (cnpj.Company, error) {
	return cnpj.Company{CNPJ: n, RazaoSocial: "Empresa Consultada Ltda", Rua: "Rua A, 1", CEP: "01310100", Cidade: "São Paulo", Estado: "SP"}, nil
}

func TestAuthorizationMatrix(t *testing.T) {
	start := time.Now()
	ps := newPartnerStack(t, func(s *Server) {
		// Everything the production server mounts (cmd/oportuna), and the dev
		// mailbox, so the walk sees every route. Calls come "through" a trusted
		// proxy with a client address of their own, so no rate limit of a public
		// form answers 429 in place of the route's own answer.
		s.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}
		s.Health = health.New()
		d := s.Partners.Mail.(*workflows.MailDispatcher)
		s.Mail = &mailer.Handler{Brands: s.Brands, DB: s.DB, Enqueue: d.Enqueue, Portal: d.Mailer.Portal}
		s.Mailbox = true
		lookup := cnpj.NewHandler(s.DB, fixedCompany{})
		lookup.Signer = s.Auth.Signer
		lookup.BrandOf = func(r *http.Request) string { return s.Brands.ForHost(r.Host).Slug }
		s.CNPJ = lookup
	})
	env := &authzEnv{t: t, ps: ps}

	// 1. The route table against the rows.
	routes := walkRoutes(t, ps.srv.Config.Handler)
	rowRoutes := map[string]bool{}
	for _, r := range authzRows {
		rowRoutes[r.route] = true
		if !slices.Contains(routes, r.route) {
			t.Errorf("row %q names a route the router does not serve: remove or rename the row", r.name())
		}
	}
	for _, rt := range routes {
		if !rowRoutes[rt] {
			t.Errorf("route %q has no row in authzRows (api/authz_test.go): add one with the status of every caller", rt)
		}
	}

	// 2. The callers and the target records.
	env.setUp()
	t.Logf("set-up: %v", time.Since(start).Round(time.Millisecond))

	// 3. Every row as every caller.
	for _, row := range authzRows {
		for a := anon; a < nActors; a++ {
			code, body := env.call(row, a, env.callers[a].access, env.callers[a].company)
			if code != row.want[a] {
				t.Errorf("%s as %s: %d, want %d: %.300s", row.name(), actorNames[a], code, row.want[a], body)
				continue
			}
			if row.shows != "" && slices.Contains(row.showsTo, a) && !strings.Contains(body, env.expand(row.shows)) {
				t.Errorf("%s as %s: the answer does not show %s (the leak check of the others would prove nothing): %.300s",
					row.name(), actorNames[a], row.shows, body)
			}
			if !row.public && !slices.Contains(row.brandWide, a) {
				for _, secret := range env.secrets[a] {
					if strings.Contains(body, secret) {
						t.Errorf("%s as %s: the answer (%d) carries %q of another owner's record: %.300s",
							row.name(), actorNames[a], code, secret, body)
					}
				}
			}
		}
		if row.sessionRequired() {
			// Brand B's token with brand A's company header: the company check refuses it.
			if code, body := env.call(row, brandB, env.callers[brandB].access, "nordata"); code != http.StatusForbidden {
				t.Errorf("%s with brand B's token and brand A's company: %d, want 403: %.300s", row.name(), code, body)
			}
			// A token signed with another secret, naming a representative of brand A with every role.
			if code, body := env.call(row, rep, env.vals["{forged}"], "nordata"); code != http.StatusUnauthorized {
				t.Errorf("%s with a forged token: %d, want 401: %.300s", row.name(), code, body)
			}
		}
	}
	t.Logf("%d routes, %d rows, %d calls in %v", len(routes), len(authzRows), env.calls, time.Since(start).Round(time.Millisecond))
}

// walkRoutes lists "METHOD pattern" of every route the handler serves.
func walkRoutes(t *testing.T, h http.Handler) []string {
	t.Helper()
	r, ok := h.(chi.Routes)
	if !ok {
		t.Fatalf("the server's handler is a %T, not a chi router: the walk cannot list its routes", h)
	}
	var out []string
	if err := chi.Walk(r, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		out = append(out, method+" "+route)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	if len(out) < 40 {
		t.Fatalf("the walk found only %d routes: %v", len(out), out)
	}
	return out
}

func (env *authzEnv) setUp() {
	t, ps := env.t, env.ps
	ctx := context.Background()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := ps.db.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	hash, err := auth.HashPassword("Oportuna@2026")
	if err != nil {
		t.Fatal(err)
	}
	newUser := func(email, name, resaleID, brandSlug string, roles ...auth.Role) string {
		t.Helper()
		var id string
		if err := ps.db.QueryRow(ctx, `INSERT INTO users (name, email, password_hash, resale_id) VALUES ($1, $2, $3, $4::uuid) RETURNING id::text`,
			name, email, hash, resaleID).Scan(&id); err != nil {
			t.Fatal(err)
		}
		for _, r := range roles {
			exec(`INSERT INTO user_roles (user_id, role, brand) VALUES ($1, $2, $3)`, id, r, brandSlug)
		}
		return id
	}
	// Brand B's strongest caller: every role, in brand B's company.
	newUser("todos@yep.demo", "Tânia Todos", ps.resaleID("yep"), "yep", auth.Representative, auth.Support, auth.Resale, auth.Seller)
	// Another company of brand A, whose owner also sells.
	other := ps.otherCompany("nordata")
	exec(`INSERT INTO user_roles (user_id, role, brand) VALUES ($1, 'SELLER', 'nordata')`, ps.userID(other))
	// A seller the reseller may deactivate (not one of the callers).
	resaleA := ps.resaleID("nordata")
	v3 := newUser("vendedor3@nordata.demo", "Valter Reis", resaleA, "nordata", auth.Seller)

	for a, who := range map[actor][2]string{
		rep: {"representante@nordata.demo", "nordata"}, sup: {"suporte@nordata.demo", "nordata"},
		resaleUser: {"revenda@nordata.demo", "nordata"}, seller: {"vendedor1@nordata.demo", "nordata"},
		brandB: {"todos@yep.demo", "yep"}, otherResale: {other, "nordata"}, otherSeller: {"vendedor2@nordata.demo", "nordata"},
	} {
		env.callers[a] = env.login(who[0], who[1])
	}
	env.callers[anon] = authzCaller{company: "nordata"}
	forged, _, err := (&auth.Signer{Secret: []byte("not-the-server-secret-0123456789"), TTL: time.Hour}).Issue(
		ps.userID("representante@nordata.demo"), "Renata", "nordata", []auth.Role{auth.Representative, auth.Support, auth.Resale, auth.Seller})
	if err != nil {
		t.Fatal(err)
	}

	// The target opportunity: registered by the owner seller, named by the representative.
	client := "sigilo@cliente-alvo.com.br"
	body := createBody("11222333000181")
	body["email"] = client
	owner := &session{st: ps.stack, token: env.callers[seller].access, company: "nordata"}
	code, out := owner.call("POST", "/api/opportunity/create", body)
	if code != 200 {
		t.Fatalf("create the target opportunity: %d %v", code, out)
	}
	opp := out["data"].(map[string]any)["id"].(string)
	representative := &session{st: ps.stack, token: env.callers[rep].access, company: "nordata"}
	if code, out := representative.call("PATCH", "/api/opportunity/"+opp, map[string]any{"name": "Projeto Sigiloso"}); code != 200 {
		t.Fatalf("name the target opportunity: %d %v", code, out)
	}
	v1 := ps.userID("vendedor1@nordata.demo")
	// History of the company and of the owner, and a notice of the owner.
	exec(`INSERT INTO history (type, type_id, brand, username, action_type) VALUES ('resale', $1, 'nordata', 'Operação', 'create'),
		('user', $2, 'nordata', 'Operação', 'create')`, resaleA, v1)
	title := "Aviso só da Vanessa"
	var notification int64
	if err := ps.db.QueryRow(ctx, `INSERT INTO notifications (notice_key, user_id, brand, kind, title) VALUES ('authz', $1, 'nordata', 'approved', $2)
		RETURNING id`, v1, title).Scan(&notification); err != nil {
		t.Fatal(err)
	}
	// An e-mail in the outbox for the mailbox's pages.
	if code, out, _ := ps.public("POST", "/api/contact", map[string]any{"fullName": "Paula Reis", "email": "paula@exemplo.com.br",
		"title": "Olá", "description": "Primeiro contato"}, "company", "nordata"); code != 200 {
		t.Fatalf("contact: %d %v", code, out)
	}
	mail := ps.mail("admin@nordata.example", "")
	var resaleCNPJ string
	if err := ps.db.QueryRow(ctx, `SELECT cnpj FROM resales WHERE id = $1`, resaleA).Scan(&resaleCNPJ); err != nil {
		t.Fatal(err)
	}

	env.vals = map[string]string{"{opp}": opp, "{resale}": resaleA, "{v1}": v1, "{v3}": v3, "{client}": client,
		"{notification}": strconv.FormatInt(notification, 10), "{notificationTitle}": title, "{mail}": strconv.FormatInt(mail.ID, 10),
		"{forged}": forged, "{repA}": ps.userID("representante@nordata.demo")}
	// The other brand sees nothing of brand A; another company nothing of the
	// owner's; another seller nothing of the owner seller's records.
	env.secrets[brandB] = []string{opp, client, v1, resaleA, resaleCNPJ}
	env.secrets[otherResale] = []string{opp, client, v1, resaleA, resaleCNPJ}
	env.secrets[otherSeller] = []string{opp, client}
}

// login signs in and keeps both tokens.
func (env *authzEnv) login(email, brandSlug string) authzCaller {
	env.t.Helper()
	req, _ := http.NewRequest("GET", env.ps.srv.URL+"/authenticator/login?brand="+brandSlug, nil)
	req.SetBasicAuth(email, "Oportuna@2026")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		env.t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct{ Data struct{ Data auth.Tokens } }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 200 {
		env.t.Fatalf("login %s: %d %v", email, res.StatusCode, err)
	}
	return authzCaller{access: out.Data.Data.AccessToken, refresh: out.Data.Data.RefreshToken, company: brandSlug}
}

// expand fills the placeholders; {n} and {cnpj} change with every call.
func (env *authzEnv) expand(s string) string {
	for k, v := range env.vals {
		s = strings.ReplaceAll(s, k, v)
	}
	if strings.Contains(s, "{cnpj}") {
		base := fmt.Sprintf("%08d0001", 55500000+env.calls)
		d, _ := cnpj.CheckDigits(base)
		s = strings.ReplaceAll(s, "{cnpj}", base+d)
	}
	return strings.ReplaceAll(s, "{n}", strconv.Itoa(env.calls))
}

// call makes the row's request as the caller a (its refresh token for the
// refresh call) with the given access token and company header, from a client
// address of its own, on brand A's host. It answers the status and the body
// (an .xlsx as the text of its cells).
func (env *authzEnv) call(row authzRow, a actor, access, company string) (int, string) {
	env.t.Helper()
	env.calls++
	method, _, _ := strings.Cut(row.route, " ")
	var rd io.Reader
	body := row.body
	if body == "{create}" {
		b, _ := json.Marshal(createBody("11444777000161"))
		body = string(b)
	}
	if body != "" {
		rd = strings.NewReader(env.expand(body))
	}
	req, err := http.NewRequest(method, env.ps.srv.URL+env.expand(row.path), rd)
	if err != nil {
		env.t.Fatal(err)
	}
	req.Host = "nordata.localhost:8080"
	req.Header.Set("X-Forwarded-For", fmt.Sprintf("2001:db8:%x::1", env.calls))
	req.Header.Set("Content-Type", "application/json")
	if row.form {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if company != "" {
		req.Header.Set(auth.CompanyHeader, company)
	}
	switch {
	case row.basic:
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("vendedor1@nordata.demo:Oportuna@2026")))
	case row.refresh && env.callers[a].refresh != "":
		req.Header.Set("Authorization", "Bearer "+env.callers[a].refresh)
	case !row.refresh && access != "":
		req.Header.Set("Authorization", "Bearer "+access)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		env.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if strings.Contains(res.Header.Get("Content-Type"), "spreadsheetml") {
		return res.StatusCode, xlsxText(env.t, raw)
	}
	return res.StatusCode, string(raw)
}

// xlsxText is every cell of a workbook, tab-separated.
func xlsxText(t *testing.T, raw []byte) string {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("export: not a workbook: %v", err)
	}
	defer f.Close()
	var b strings.Builder
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			b.WriteString(strings.Join(r, "\t") + "\n")
		}
	}
	return b.String()
}
