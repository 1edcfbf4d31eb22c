package api

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/internal/clientaddr"
	"oportuna/internal/dev/localcrm"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/worker"
	"oportuna/workflows"
)

// partnerStack is the whole portal on real PostgreSQL and Temporal: the API
// with its partner dependencies, a worker with the onboarding and e-mail
// workflows, and the mailer's outbox (no SMTP server: e-mails are stored).
type partnerStack struct {
	*stack
	tc    client.Client
	clock *testenv.Clock // the form limit's
}

const partnerBrands = `[{"slug":"nordata","name":"Nordata","title":"N","admin":{"name":"Ana Admin","email":"admin@nordata.example"}},
	{"slug":"yep","name":"Yep","title":"Y","admin":{"name":"Yuri Admin","email":"admin@yep.example"}}]`

// newPartnerStack builds the stack; opts change the server before its handler is built.
func newPartnerStack(t *testing.T, opts ...func(*Server)) *partnerStack {
	t.Helper()
	ctx := testenv.Context(t)
	tc := testenv.TemporalClient(t)
	db, brands := seeded(t, ctx, partnerBrands)
	cfg := mailer.Config{PortalURL: "http://{brand}.localhost:8080"}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	m := &mailer.Mailer{DB: db, Brands: brands, Config: cfg}
	acts := &activities.Activities{DB: db, Brands: brands, CRM: localcrm.CRM{DB: db}, Mailer: m,
		Durations: activities.Durations{Validity: 2160 * time.Hour, RenewalWindow: 360 * time.Hour, ApprovalSLA: 48 * time.Hour, ExpiredRetention: time.Hour}}
	if _, err := worker.EnsureSearchAttributes(ctx, tc, "default"); err != nil {
		t.Fatal(err)
	}
	// The workflow queue's worker and its CRM and mail queues' (notices, e-mails).
	testenv.StartWorkers(t, worker.New(tc, workflows.TaskQueue, acts, worker.Settings{}, nil)...)
	ps := &partnerStack{tc: tc, clock: testenv.NewClock(time.Now())}
	s := &Server{Brands: brands, DB: db, Temporal: tc, CRM: acts.CRM,
		Auth: testAuth(db, brands), Web: testWeb,
		Partners: PartnerDeps{
			Mail:   &workflows.MailDispatcher{Client: tc, Mailer: m},
			Portal: m.Portal,
			Now:    ps.clock.Now,
		},
	}
	for _, o := range opts {
		o(s)
	}
	ps.stack = &stack{t: t, srv: serve(t, s), db: db}
	return ps
}

// public calls the API without a session.
func (ps *partnerStack) public(method, path string, body any, headers ...string) (int, map[string]any, http.Header) {
	ps.t.Helper()
	return testenv.CallJSON(ps.t, method, ps.srv.URL+path, body, headers...)
}

// loginWith signs in with a password, answering the status.
func (ps *partnerStack) loginWith(email, password, company string) int {
	ps.t.Helper()
	req, _ := http.NewRequest("GET", ps.srv.URL+"/authenticator/login?brand="+company, nil)
	req.SetBasicAuth(email, password)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		ps.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// mail waits for the e-mail to the address whose key starts with prefix.
func (ps *partnerStack) mail(to, keyPrefix string) mailer.Stored {
	ps.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		list, err := mailer.List(context.Background(), ps.db, to, 50)
		if err != nil {
			ps.t.Fatal(err)
		}
		for _, m := range list {
			if strings.HasPrefix(m.Key, keyPrefix) && m.Status == mailer.StatusStored {
				return m
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	ps.t.Fatalf("no e-mail %s… to %s", keyPrefix, to)
	return mailer.Stored{}
}

// tokenOf reads the set-password token of an e-mail's link.
func (ps *partnerStack) tokenOf(m mailer.Stored) string {
	ps.t.Helper()
	for _, l := range m.Links {
		u, err := url.Parse(l)
		if err == nil && u.Path == auth.SetPasswordPath && u.Query().Get("token") != "" {
			return u.Query().Get("token")
		}
	}
	ps.t.Fatalf("no set-password link in %v", m.Links)
	return ""
}

// setPassword uses a set-password token as the reset page does.
func (ps *partnerStack) setPassword(token, password string) (int, map[string]any) {
	code, body, _ := ps.public("POST", "/authenticator/auth/update_password", map[string]any{"token": token, "password": password, "confirmation": password})
	return code, body
}

// waitFor polls the database until the query answers true.
func (ps *partnerStack) waitFor(what, query string, args ...any) {
	ps.t.Helper()
	testenv.WaitFor(ps.t, 30*time.Second, what, func() bool {
		var ok bool
		return ps.db.QueryRow(context.Background(), query, args...).Scan(&ok) == nil && ok
	})
}

func signupBody(email, doc, brandSlug string) map[string]any {
	return map[string]any{"email": email, "phone": "(11) 9 8765-4321", "contactName": "Carla Dias", "cnpj": doc, "role": []any{},
		"brand": brandSlug, "fantasyName": "", "corporateName": "Revenda Nova Ltda", "street": "Rua B, 2", "state": "SP",
		"cep": "01310-100", "city": "São Paulo", "country": "Brasil"}
}

func count(t *testing.T, ps *partnerStack, query string, args ...any) int {
	t.Helper()
	var n int
	if err := ps.db.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPublicFormsAreLimitedPerAddress(t *testing.T) {
	ps := newPartnerStack(t)
	bad := map[string]any{"brand": "nordata"} // invalid: still counted
	for i := 0; i < DefaultFormLimit; i++ {
		if code, _, _ := ps.public("POST", "/api/register/resale", bad); code != 400 {
			t.Fatalf("attempt %d: %d", i+1, code)
		}
	}
	code, body, h := ps.public("POST", "/api/register/resale", signupBody("novo@revenda.com.br", "11444777000161", "nordata"))
	if code != 429 || body["message"] != MsgTooManyForms || h.Get("Retry-After") == "" {
		t.Fatalf("sixth sign-up: %d %v retry-after %q", code, body, h.Get("Retry-After"))
	}
	// Without trusted proxies a client cannot pass for another by naming it.
	if code, _, _ := ps.public("POST", "/api/register/resale", bad, "X-Forwarded-For", "198.51.100.7"); code != 429 {
		t.Errorf("forged X-Forwarded-For: %d, want 429", code)
	}
	// The contact form counts apart.
	if code, _, _ := ps.public("POST", "/api/contact", map[string]any{}, "company", "nordata"); code != 400 {
		t.Errorf("contact after the sign-ups: %d", code)
	}
	ps.clock.Add(FormWindow + time.Second)
	code, body, _ = ps.public("POST", "/api/register/resale", signupBody("novo@revenda.com.br", "11444777000161", "nordata"))
	if code != 201 {
		t.Fatalf("after the window: %d %v", code, body)
	}
}

// Behind a trusted reverse proxy (TRUSTED_PROXIES) each client the proxy names
// has its own count; the proxy's own address is not limited for all of them.
func TestBehindATrustedProxyFormsCountEachClient(t *testing.T) {
	trusted, err := clientaddr.ParsePrefixes("127.0.0.0/8, ::1")
	if err != nil {
		t.Fatal(err)
	}
	ps := newPartnerStack(t, func(s *Server) { s.TrustedProxies = trusted })
	bad := map[string]any{"brand": "nordata"}
	for i := 0; i < DefaultFormLimit; i++ {
		if code, _, _ := ps.public("POST", "/api/register/resale", bad, "X-Forwarded-For", "203.0.113.5, 198.51.100.7"); code != 400 {
			t.Fatalf("attempt %d: %d", i+1, code)
		}
	}
	// The same client, whatever it writes on the left of the proxy's entry.
	if code, body, _ := ps.public("POST", "/api/register/resale", bad, "X-Forwarded-For", "203.0.113.99, 198.51.100.7"); code != 429 || body["message"] != MsgTooManyForms {
		t.Fatalf("sixth attempt of 198.51.100.7: %d %v", code, body)
	}
	if code, _, _ := ps.public("POST", "/api/register/resale", bad, "X-Forwarded-For", "198.51.100.8"); code != 400 {
		t.Errorf("another client behind the proxy: %d, want 400", code)
	}
	if code, _, _ := ps.public("POST", "/api/register/resale", bad); code != 400 {
		t.Errorf("the proxy's own request: %d, want 400", code)
	}
}

func TestContactSendsTheBrandAdministratorAnEmail(t *testing.T) {
	ps := newPartnerStack(t)
	form := map[string]any{"fullName": "João Cliente", "email": "Joao@Cliente.com.br", "title": "Parceria", "description": "Quero revender."}
	if code, body, _ := ps.public("POST", "/api/contact", form, "company", "marca-nenhuma"); code != 400 || body["message"] != auth.MsgUnknownBrand {
		t.Errorf("unknown company: %d %v", code, body)
	}
	code, body, _ := ps.public("POST", "/api/contact", map[string]any{"fullName": "João", "email": " ", "title": "", "description": "x"}, "company", "yep")
	fields, _ := body["fields"].([]any)
	if code != 400 || body["message"] != MsgContactMissing || len(fields) != 2 || fields[0] != "email" || fields[1] != "title" {
		t.Errorf("empty fields: %d %v", code, body)
	}
	bad := map[string]any{"fullName": "João", "email": "joao@", "title": "t", "description": "d"}
	if code, body, _ := ps.public("POST", "/api/contact", bad, "company", "yep"); code != 400 || body["fields"].([]any)[0] != "email" {
		t.Errorf("invalid e-mail: %d %v", code, body)
	}
	code, body, _ = ps.public("POST", "/api/contact", form, "company", "yep")
	if code != 200 || body["message"] != MsgContactSent {
		t.Fatalf("contact: %d %v", code, body)
	}
	m := ps.mail("admin@yep.example", "contact/")
	if m.Brand != "yep" || m.ReplyTo != "joao@cliente.com.br" || !strings.Contains(m.Subject, "Parceria") || !strings.Contains(m.Text, "Quero revender.") {
		t.Errorf("contact e-mail %+v", m)
	}
	if n := count(t, ps, `SELECT count(*) FROM mail_outbox WHERE 'admin@nordata.example' = ANY(recipients)`); n != 0 {
		t.Errorf("another brand's administrator got %d e-mails", n)
	}
}

func TestNotificationsAreTheCallersOwn(t *testing.T) {
	ps := newPartnerStack(t)
	rep := ps.login("representante@nordata.demo", "nordata")
	multi := ps.login("multi@nordata.demo", "nordata")
	yepRep := ps.login("representante@yep.demo", "yep")
	code, body, _ := ps.public("POST", "/api/register/resale", signupBody("avisos@revenda.com.br", "11444777000161", "nordata"))
	if code != 201 {
		t.Fatalf("sign-up: %d %v", code, body)
	}
	ps.waitFor("the representatives' notices", `SELECT count(*) = 3 FROM notifications WHERE kind = 'resale-registered'`)
	code, body = rep.call("GET", "/api/notifications", nil)
	list, _ := body["result"].([]any)
	if code != 200 || body["unread"] != 1.0 || len(list) != 1 {
		t.Fatalf("bell: %d %v", code, body)
	}
	n := list[0].(map[string]any)
	link, _ := n["link"].(string)
	if n["kind"] != activities.NoticeResaleRegistered || !strings.Contains(n["title"].(string), "Revenda Nova Ltda") ||
		!strings.HasPrefix(link, "/Painel/Resales/details?id=") || strings.ContainsAny(strings.TrimPrefix(link, "/Painel/Resales/details?id="), "&=@") ||
		strings.Contains(link, "11444777000161") || strings.Contains(link, "avisos") || n["readAt"] != nil {
		t.Errorf("notice %v", n)
	}
	if _, body := yepRep.call("GET", "/api/notifications", nil); body["unread"] != 0.0 {
		t.Errorf("another brand's representative: %v", body)
	}
	id := int64(n["id"].(float64))
	// Someone else's notice is not found; the owner's is marked read once.
	if code, _ := multi.call("PATCH", "/api/notifications/"+strconv.FormatInt(id, 10)+"/read", nil); code != 404 {
		t.Errorf("another user's notice: %d", code)
	}
	if code, _ := rep.call("PATCH", "/api/notifications/"+strconv.FormatInt(id, 10)+"/read", nil); code != 200 {
		t.Errorf("read: %d", code)
	}
	if _, body := rep.call("GET", "/api/notifications?limit=5", nil); body["unread"] != 0.0 || body["result"].([]any)[0].(map[string]any)["readAt"] == nil {
		t.Errorf("after read: %v", body)
	}
	if _, body := multi.call("GET", "/api/notifications", nil); body["unread"] != 1.0 {
		t.Errorf("the other representative's count changed: %v", body)
	}
	if code, body := multi.call("PATCH", "/api/notifications/read-all", nil); code != 200 || body["updated"] != 1.0 {
		t.Errorf("read-all: %d %v", code, body)
	}
	for _, bad := range []string{"/api/notifications?limit=0", "/api/notifications?limit=101", "/api/notifications?limit=x"} {
		if code, _ := rep.call("GET", bad, nil); code != 400 {
			t.Errorf("%s: %d", bad, code)
		}
	}
	if code, _ := rep.call("PATCH", "/api/notifications/abc/read", nil); code != 404 {
		t.Errorf("bad id: %d", code)
	}
	// Another brand's token on this brand's company header changes nothing.
	yepRep.company = "nordata"
	if code, _ := yepRep.call("GET", "/api/notifications", nil); code != 403 {
		t.Errorf("company header of another brand: %d", code)
	}
}

// TestASignUpRepeatedWithItsKeyIsAnsweredAsTheFirst: a company's sign-up sent
// again with the same Idempotency-Key (its answer lost on the way) is
// answered as the first call, with the same id, and stores one company;
// another key for the same form is a second sign-up, refused as a duplicate (CNPJ_TAKEN).
func TestASignUpRepeatedWithItsKeyIsAnsweredAsTheFirst(t *testing.T) {
	ps := newPartnerStack(t)
	body := signupBody("repetida@revenda.com.br", "11444777000161", "nordata")
	code, first, _ := ps.public("POST", "/api/register/resale", body, "Idempotency-Key", "signup-1")
	if code != 201 || first["id"] == nil {
		t.Fatalf("sign-up: %d %v", code, first)
	}
	code, again, _ := ps.public("POST", "/api/register/resale", body, "Idempotency-Key", "signup-1")
	if code != 201 || again["message"] != MsgResaleRegistered || again["id"] != first["id"] {
		t.Errorf("repeated sign-up: %d %v, want 201 %q with id %v", code, again, MsgResaleRegistered, first["id"])
	}
	if n := count(t, ps, `SELECT count(*) FROM resales WHERE cnpj = '11444777000161'`); n != 1 {
		t.Errorf("%d companies stored, want 1", n)
	}
	if code, other, _ := ps.public("POST", "/api/register/resale", body, "Idempotency-Key", "signup-2"); code != http.StatusBadRequest || other["code"] != "CNPJ_TAKEN" {
		t.Errorf("the same form under another key: %d %v, want 400 CNPJ_TAKEN", code, other)
	}
}
