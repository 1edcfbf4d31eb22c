package auth_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/ratelimit"
	"oportuna/internal/testenv"
	"oportuna/seed"
)

const demoPassword = "Oportuna@2026"

var testBrands = func() *brand.Registry {
	r, err := brand.Parse([]byte(`[
		{"slug":"nordata","name":"Nordata","hosts":["parceiros.nordata.example"]},
		{"slug":"yep","name":"Yep","hosts":["parceiros.yep.example"]}]`))
	if err != nil {
		panic(err)
	}
	return r
}()

type mailbox struct {
	mu    sync.Mutex
	links []string
}

func (m *mailbox) SendPasswordReset(_ context.Context, _ *brand.Brand, _, _, link string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.links = append(m.links, link)
	return nil
}

func (m *mailbox) last(t *testing.T) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.links) == 0 {
		t.Fatal("no reset e-mail sent")
	}
	return m.links[len(m.links)-1]
}

type env struct {
	t    *testing.T
	svc  *auth.Service
	srv  *httptest.Server
	mail *mailbox
	now  time.Time
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db, ctx := testenv.DBContext(t)
	if _, err := seed.Run(ctx, db, testBrands, demoPassword); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, mail: &mailbox{}, now: time.Now()}
	clock := func() time.Time { return e.now }
	e.svc = &auth.Service{
		DB: db, Brands: testBrands,
		Signer:     &auth.Signer{Secret: []byte("test-secret-test-secret-test-secret!"), TTL: time.Hour, Now: clock},
		RefreshTTL: 7 * 24 * time.Hour, ResetTTL: time.Hour, Mailer: e.mail, Now: clock,
	}
	e.srv = httptest.NewServer(e.svc.Routes())
	t.Cleanup(e.srv.Close)
	return e
}

type reply struct {
	Status int
	Body   map[string]any
	Header http.Header
}

func (e *env) do(method, path string, headers map[string]string, body any) reply {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, rd)
	for k, v := range headers {
		if k == "Host" {
			req.Host = v // the Go client ignores a Host entry of Header
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	out := reply{Status: res.StatusCode, Body: map[string]any{}, Header: res.Header}
	raw, _ := io.ReadAll(res.Body)
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out.Body); err != nil {
			e.t.Fatalf("%s %s: body is not JSON: %s", method, path, raw)
		}
	}
	return out
}

func basic(user, pass string) map[string]string {
	return map[string]string{"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))}
}

func bearer(tok, company string) map[string]string {
	h := map[string]string{"Authorization": "Bearer " + tok}
	if company != "" {
		h["company"] = company
	}
	return h
}

func dig(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	return v
}

// login returns the access and refresh tokens of a demo user.
// refreshRefused checks that the company's refresh answers 401 to the token;
// what names the case.
func (e *env) refreshRefused(company, token, what string) {
	e.t.Helper()
	if r := e.do("GET", "/"+company+"/auth/refresh_token", bearer(token, ""), nil); r.Status != 401 {
		e.t.Errorf("%s: %d, want 401", what, r.Status)
	}
}

func (e *env) login(email, brandSlug string) (string, string) {
	e.t.Helper()
	r := e.do("GET", "/login?brand="+brandSlug, basic(email, demoPassword), nil)
	if r.Status != 200 {
		e.t.Fatalf("login %s: %d %v", email, r.Status, r.Body)
	}
	a, _ := dig(r.Body, "data", "data", "access_token").(string)
	rt, _ := dig(r.Body, "data", "data", "refresh_token").(string)
	if a == "" || rt == "" {
		e.t.Fatalf("login body lacks data.data tokens: %v", r.Body)
	}
	return a, rt
}

func TestLoginIssuesTokensWithTheBrandsRoles(t *testing.T) {
	e := newEnv(t)
	access, _ := e.login("  MULTI@yep.demo ", "yep")
	r := e.do("GET", "/auth/payload", bearer(access, "yep"), nil)
	if r.Status != 200 {
		t.Fatalf("payload: %d %v", r.Status, r.Body)
	}
	if dig(r.Body, "payload", "name") != "Mariana Torres" || dig(r.Body, "payload", "id") == "" || dig(r.Body, "payload", "exp") == nil {
		t.Errorf("payload = %v", r.Body)
	}
	roles, _ := dig(r.Body, "payload", "roles").([]any)
	if len(roles) != 2 {
		t.Errorf("roles = %v, want REPRESENTATIVE and SUPPORT", roles)
	}
	id := dig(r.Body, "payload", "id").(string)
	r = e.do("GET", "/user/"+id+"/role", bearer(access, "yep"), nil)
	list, _ := r.Body["roles"].([]any)
	if r.Status != 200 || len(list) != 2 || dig(list[0].(map[string]any), "data", "brand") != "yep" {
		t.Errorf("roles call = %d %v", r.Status, r.Body)
	}
	r = e.do("GET", "/user/"+id, bearer(access, "yep"), nil)
	if r.Status != 200 || dig(r.Body, "data", "email") != "multi@yep.demo" || dig(r.Body, "data", "phone") != "11987650006" {
		t.Errorf("user call = %d %v", r.Status, r.Body)
	}
}

func TestLoginFailuresDoNotSayWhichPartWasWrong(t *testing.T) {
	e := newEnv(t)
	for name, h := range map[string]map[string]string{
		"wrong password":       basic("revenda@yep.demo", "Oportuna@2025"),
		"unknown e-mail":       basic("ninguem@yep.demo", demoPassword),
		"no role for brand":    basic("revenda@nordata.demo", demoPassword),
		"no credentials":       nil,
		"blank after trimming": basic("   ", "   "),
	} {
		r := e.do("GET", "/login?brand=yep", h, nil)
		if r.Status != 401 || r.Body["message"] != "Usuário ou senha inválidos" {
			t.Errorf("%s: %d %v", name, r.Status, r.Body)
		}
	}
	r := e.do("GET", "/login?brand=acme", basic("revenda@yep.demo", demoPassword), nil)
	if r.Status != 400 || r.Body["message"] != "Empresa inválida" {
		t.Errorf("unknown brand: %d %v", r.Status, r.Body)
	}
	// An inactive (deleted) user can no longer log in.
	if _, err := e.svc.DB.Exec(context.Background(), `UPDATE users SET active = false WHERE email = 'vendedor1@yep.demo'`); err != nil {
		t.Fatal(err)
	}
	if r := e.do("GET", "/login?brand=yep", basic("vendedor1@yep.demo", demoPassword), nil); r.Status != 401 {
		t.Errorf("inactive user: %d", r.Status)
	}
}

func TestRefreshRotatesAndReuseRevokesTheFamily(t *testing.T) {
	e := newEnv(t)
	_, r1 := e.login("revenda@yep.demo", "yep")

	res := e.do("GET", "/yep/auth/refresh_token", bearer(r1, ""), nil)
	a2, _ := dig(res.Body, "data", "access_token").(string)
	r2, _ := dig(res.Body, "data", "refresh_token").(string)
	if res.Status != 200 || a2 == "" || r2 == "" || r2 == r1 {
		t.Fatalf("first refresh: %d %v", res.Status, res.Body)
	}
	if p := e.do("GET", "/auth/payload", bearer(a2, "yep"), nil); p.Status != 200 {
		t.Fatalf("new access token refused: %d", p.Status)
	}
	// The refresh token of another brand's URL is refused.
	e.refreshRefused("nordata", r2, "refresh for another brand")
	// Replaying the rotated token after the grace window fails and ends the
	// whole session...
	e.now = e.now.Add(auth.DefaultRefreshGrace + time.Second)
	if res := e.do("GET", "/yep/auth/refresh_token", bearer(r1, ""), nil); res.Status != 401 {
		t.Fatalf("reused token accepted: %d", res.Status)
	}
	// ...so the legitimate newest token no longer works either.
	if res := e.do("GET", "/yep/auth/refresh_token", bearer(r2, ""), nil); res.Status != 401 {
		t.Errorf("family not revoked after reuse: %d %v", res.Status, res.Body)
	}
	// A new login opens a new family that works.
	_, r3 := e.login("revenda@yep.demo", "yep")
	if res := e.do("GET", "/yep/auth/refresh_token", bearer(r3, ""), nil); res.Status != 200 {
		t.Errorf("fresh family refused: %d", res.Status)
	}
}

func TestExpiredTokensAreRefused(t *testing.T) {
	e := newEnv(t)
	access, refresh := e.login("suporte@nordata.demo", "nordata")
	e.now = e.now.Add(2 * time.Hour) // access TTL is 1 h
	if r := e.do("GET", "/auth/payload", bearer(access, "nordata"), nil); r.Status != 401 {
		t.Errorf("expired access token: %d", r.Status)
	}
	if r := e.do("GET", "/nordata/auth/refresh_token", bearer(refresh, ""), nil); r.Status != 200 {
		t.Errorf("refresh within its 7 days: %d", r.Status)
	}
	_, refresh = e.login("suporte@nordata.demo", "nordata")
	e.now = e.now.Add(8 * 24 * time.Hour)
	e.refreshRefused("nordata", refresh, "expired refresh token")
	if r := e.do("GET", "/auth/payload", bearer("not-a-jwt", "nordata"), nil); r.Status != 401 {
		t.Errorf("garbage token: %d", r.Status)
	}
}

func TestCompanyHeaderMustMatchTheTokensBrand(t *testing.T) {
	e := newEnv(t)
	access, _ := e.login("representante@yep.demo", "yep")
	r := e.do("GET", "/auth/payload", bearer(access, "nordata"), nil)
	if r.Status != 403 || r.Body["message"] != auth.MsgCompanyMismatch {
		t.Errorf("another brand's company: %d %v", r.Status, r.Body)
	}
	// Without the header the answer says so, naming it (it was "does not match").
	for _, h := range []map[string]string{bearer(access, ""), {"Authorization": "Bearer " + access, "company": "  "}} {
		r := e.do("GET", "/auth/payload", h, nil)
		if r.Status != 400 || r.Body["message"] != auth.MsgCompanyMissing || !strings.Contains(auth.MsgCompanyMissing, "company") {
			t.Errorf("no company header: %d %v", r.Status, r.Body)
		}
	}
	// The password change (its own check) answers the same.
	r = e.do("POST", "/auth/update_password", bearer(access, ""), map[string]any{"password": "Nova@Senha1"})
	if r.Status != 400 || r.Body["message"] != auth.MsgCompanyMissing {
		t.Errorf("password change without company: %d %v", r.Status, r.Body)
	}
}

func TestUserReadsAreLimitedToSelfStaffAndOwnReseller(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	idOf := func(email string) string {
		var id string
		if err := e.svc.DB.QueryRow(ctx, `SELECT id::text FROM users WHERE email = $1`, email).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	seller := idOf("vendedor1@yep.demo")
	for _, c := range []struct {
		who  string
		want int
	}{
		{"vendedor1@yep.demo", 200}, {"representante@yep.demo", 200}, {"suporte@yep.demo", 200},
		{"revenda@yep.demo", 200}, {"vendedor2@yep.demo", 403},
	} {
		access, _ := e.login(c.who, "yep")
		if r := e.do("GET", "/user/"+seller, bearer(access, "yep"), nil); r.Status != c.want {
			t.Errorf("%s reading a seller: %d, want %d", c.who, r.Status, c.want)
		}
	}
	// Staff of another brand may not read yep's users.
	access, _ := e.login("representante@nordata.demo", "nordata")
	if r := e.do("GET", "/user/"+seller, bearer(access, "nordata"), nil); r.Status != 403 {
		t.Errorf("other brand's representative: %d", r.Status)
	}
	if r := e.do("GET", "/user/00000000-0000-0000-0000-000000000000", bearer(access, "nordata"), nil); r.Status != 404 || r.Body["message"] != "Falha ao recuperar o usuário" {
		t.Errorf("unknown user: %d %v", r.Status, r.Body)
	}
	if r := e.do("GET", "/user/not-a-uuid", bearer(access, "nordata"), nil); r.Status != 404 {
		t.Errorf("malformed id: %d", r.Status)
	}
}

func TestUpdatePasswordAppliesTheSpecRules(t *testing.T) {
	e := newEnv(t)
	access, _ := e.login("vendedor2@nordata.demo", "nordata")
	h := bearer(access, "nordata")
	for _, pw := range []string{"Curta@1", "semmaiuscula@1", "SEMMINUSCULA@1", "SemNumero@@", "SemEspecial11", "Com Espaco@1", "Acentuação@1"} {
		r := e.do("POST", "/auth/update_password", h, map[string]string{"password": pw})
		if r.Status != 400 || r.Body["message"] != auth.MsgWeakPassword {
			t.Errorf("%q: %d %v", pw, r.Status, r.Body)
		}
	}
	r := e.do("POST", "/auth/update_password", h, map[string]string{"password": "NovaSenha@1", "confirmation": "NovaSenha@2"})
	if r.Status != 400 || r.Body["message"] != "As senhas não conferem!" {
		t.Errorf("mismatch: %d %v", r.Status, r.Body)
	}
	r = e.do("POST", "/auth/update_password", h, map[string]string{"password": "NovaSenha@1", "confirmation": "NovaSenha@1"})
	if r.Status != 200 || r.Body["message"] != "Senha atualizada com sucesso" {
		t.Fatalf("update: %d %v", r.Status, r.Body)
	}
	if r := e.do("GET", "/login?brand=nordata", basic("vendedor2@nordata.demo", demoPassword), nil); r.Status != 401 {
		t.Error("old password still works")
	}
	if r := e.do("GET", "/login?brand=nordata", basic("vendedor2@nordata.demo", "NovaSenha@1"), nil); r.Status != 200 {
		t.Error("new password refused")
	}
	if r := e.do("POST", "/auth/update_password", nil, map[string]string{"password": "NovaSenha@1"}); r.Status != 401 {
		t.Errorf("no session and no token: %d", r.Status)
	}
	if r := e.do("POST", "/auth/update_password", h, nil); r.Status != 400 {
		t.Errorf("empty body: %d", r.Status)
	}
}

func TestResetTokenWorksOnceAndExpires(t *testing.T) {
	e := newEnv(t)
	req := map[string]string{"company": "yep", "redirect_url": "http://yep.localhost:5173/reset-password", "email": "Revenda@Yep.demo"}
	if r := e.do("POST", "/auth/reset_password", nil, req); r.Status != 204 {
		t.Fatalf("reset request: %d %v", r.Status, r.Body)
	}
	link, err := url.Parse(e.mail.last(t))
	if err != nil || !strings.HasPrefix(link.String(), "http://yep.localhost:5173/reset-password?token=") {
		t.Fatalf("link = %v", link)
	}
	token := link.Query().Get("token")
	_, oldRefresh := e.login("revenda@yep.demo", "yep")
	// The page asks first whether the link still works (before the password is typed twice).
	check := func(tok string) int {
		return e.do("POST", "/auth/reset_password/check", nil, map[string]string{"token": tok}).Status
	}
	if got := check(token); got != 204 {
		t.Errorf("check of a fresh link: %d, want 204", got)
	}
	for _, bad := range []string{"", "desconhecido"} {
		if r := e.do("POST", "/auth/reset_password/check", nil, map[string]string{"token": bad}); r.Status != 410 || r.Body["message"] != auth.ErrResetInvalid.Error() {
			t.Errorf("check of %q: %d %v", bad, r.Status, r.Body)
		}
	}

	if r := e.do("POST", "/auth/update_password", nil, map[string]string{"token": token, "password": "fraca"}); r.Status != 400 || r.Body["message"] != auth.MsgWeakPassword {
		t.Errorf("weak password with token: %d %v", r.Status, r.Body)
	}
	if r := e.do("POST", "/auth/update_password", nil, map[string]string{"token": token, "password": "Redefinida@9"}); r.Status != 200 {
		t.Fatalf("reset: %d %v", r.Status, r.Body)
	}
	if r := e.do("POST", "/auth/update_password", nil, map[string]string{"token": token, "password": "Outra@Senha9"}); r.Status != 400 || r.Body["message"] != "Link de redefinição inválido ou expirado." {
		t.Errorf("second use: %d %v", r.Status, r.Body)
	}
	if got := check(token); got != 410 {
		t.Errorf("check of a used link: %d, want 410", got)
	}
	if r := e.do("GET", "/login?brand=yep", basic("revenda@yep.demo", "Redefinida@9"), nil); r.Status != 200 {
		t.Error("reset password refused at login")
	}
	if r := e.do("GET", "/yep/auth/refresh_token", bearer(oldRefresh, ""), nil); r.Status != 401 {
		t.Error("sessions opened before the reset survive it")
	}

	// Expiry.
	if r := e.do("POST", "/auth/reset_password", nil, req); r.Status != 204 {
		t.Fatal(r.Status)
	}
	expired, _ := url.Parse(e.mail.last(t))
	e.now = e.now.Add(61 * time.Minute)
	if got := check(expired.Query().Get("token")); got != 410 {
		t.Errorf("check of an expired link: %d, want 410", got)
	}
	if r := e.do("POST", "/auth/update_password", nil, map[string]string{"token": expired.Query().Get("token"), "password": "Expirada@9"}); r.Status != 400 {
		t.Errorf("expired token: %d", r.Status)
	}

	// Unknown e-mail: the spec's client expects 'Not Found Exception'.
	req["email"] = "ninguem@yep.demo"
	if r := e.do("POST", "/auth/reset_password", nil, req); r.Status != 404 || r.Body["message"] != "Not Found Exception" {
		t.Errorf("unknown e-mail: %d %v", r.Status, r.Body)
	}
	// A redirect to a foreign host is not followed: the link goes to the brand's portal.
	req["email"], req["redirect_url"] = "revenda@yep.demo", "https://evil.example/steal"
	if r := e.do("POST", "/auth/reset_password", nil, req); r.Status != 204 {
		t.Fatal(r.Status)
	}
	if l := e.mail.last(t); !strings.HasPrefix(l, "http://yep.localhost:8080/reset-password?token=") {
		t.Errorf("open redirect: %s", l)
	}
	req["redirect_url"] = "https://parceiros.yep.example/reset-password"
	if r := e.do("POST", "/auth/reset_password", nil, req); r.Status != 204 {
		t.Fatal(r.Status)
	}
	if l := e.mail.last(t); !strings.HasPrefix(l, "https://parceiros.yep.example/reset-password?token=") {
		t.Errorf("brand host not used: %s", l)
	}
}

func TestLogoutRevokesTheRefreshToken(t *testing.T) {
	e := newEnv(t)
	_, refresh := e.login("vendedor1@yep.demo", "yep")
	if r := e.do("POST", "/auth/logout", nil, map[string]string{"refresh_token": refresh}); r.Status != 204 {
		t.Fatalf("logout: %d", r.Status)
	}
	e.refreshRefused("yep", refresh, "refresh after logout")
}

func TestResetLinksStayOnTheBrandsHosts(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ host, redirect, want string }{
		// A forged Host header is neither followed nor echoed back.
		{"evil.example", "", "http://yep.localhost:8080/reset-password?token="},
		{"evil.example", "http://evil.example/reset-password", "http://yep.localhost:8080/reset-password?token="},
		{"parceiros.nordata.example", "", "http://yep.localhost:8080/reset-password?token="}, // another brand's host
		{"user@parceiros.yep.example", "https://user@parceiros.yep.example/x", "http://yep.localhost:8080/reset-password?token="},
		// The brand's hosts: the request's, or the redirect's.
		{"parceiros.yep.example", "", "http://parceiros.yep.example/reset-password?token="},
		{"yep.localhost:5173", "", "http://yep.localhost:5173/reset-password?token="},
		{"evil.example", "https://parceiros.yep.example/reset-password", "https://parceiros.yep.example/reset-password?token="},
	} {
		e.now = e.now.Add(time.Minute) // past the address's limit window
		r := e.do("POST", "/auth/reset_password", map[string]string{"Host": c.host},
			map[string]string{"company": "yep", "email": "revenda@yep.demo", "redirect_url": c.redirect})
		if r.Status != 204 {
			t.Fatalf("host %q: %d %v", c.host, r.Status, r.Body)
		}
		if l := e.mail.last(t); !strings.HasPrefix(l, c.want) {
			t.Errorf("host %q, redirect %q: link %s, want %s…", c.host, c.redirect, l, c.want)
		}
	}
	// The configured portal, when there is one.
	e.svc.Portal = func(b *brand.Brand) string { return "https://portal.example/" + b.Slug + "/" }
	srv := httptest.NewServer(e.svc.Routes())
	defer srv.Close()
	e.srv = srv
	e.now = e.now.Add(time.Minute)
	e.do("POST", "/auth/reset_password", map[string]string{"Host": "evil.example"}, map[string]string{"company": "yep", "email": "revenda@yep.demo"})
	if l := e.mail.last(t); !strings.HasPrefix(l, "https://portal.example/yep/reset-password?token=") {
		t.Errorf("configured portal: %s", l)
	}
}

func TestResetRequestsAreLimitedPerAddress(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < ratelimit.DefaultFormLimit; i++ {
		// Every request counts: found, unknown or invalid.
		body := map[string]string{"company": "yep", "email": "ninguem@yep.demo"}
		if i == 0 {
			body["email"] = "revenda@yep.demo"
		}
		if r := e.do("POST", "/auth/reset_password", nil, body); r.Status != 204 && r.Status != 404 {
			t.Fatalf("request %d: %d %v", i+1, r.Status, r.Body)
		}
	}
	req, _ := http.NewRequest("POST", e.srv.URL+"/auth/reset_password", strings.NewReader(`{"company":"yep","email":"revenda@yep.demo"}`))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	_ = json.NewDecoder(res.Body).Decode(&body)
	res.Body.Close()
	if res.StatusCode != 429 || body["message"] != "Muitas solicitações. Aguarde um minuto e tente novamente." || res.Header.Get("Retry-After") == "" {
		t.Fatalf("request over the limit: %d %v retry-after %q", res.StatusCode, body, res.Header.Get("Retry-After"))
	}
	e.now = e.now.Add(ratelimit.FormPer + time.Second)
	if r := e.do("POST", "/auth/reset_password", nil, map[string]string{"company": "yep", "email": "revenda@yep.demo"}); r.Status != 204 {
		t.Errorf("after the window: %d %v", r.Status, r.Body)
	}
}

func TestADeactivatedUsersTokenEndsAndItsRecordSaysInactive(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	var sellerID string
	if err := e.svc.DB.QueryRow(ctx, `SELECT id::text FROM users WHERE email = 'vendedor1@yep.demo'`).Scan(&sellerID); err != nil {
		t.Fatal(err)
	}
	seller, _ := e.login("vendedor1@yep.demo", "yep")
	rep, _ := e.login("representante@yep.demo", "yep")
	if r := e.do("GET", "/user/"+sellerID, bearer(rep, "yep"), nil); r.Status != 200 || dig(r.Body, "data", "active") != true {
		t.Fatalf("active seller: %d %v", r.Status, r.Body)
	}
	if _, err := e.svc.DB.Exec(ctx, `UPDATE users SET active = false WHERE id = $1`, sellerID); err != nil {
		t.Fatal(err)
	}
	if r := e.do("GET", "/user/"+sellerID, bearer(rep, "yep"), nil); r.Status != 200 || dig(r.Body, "data", "active") != false {
		t.Errorf("deactivated seller: %d %v", r.Status, r.Body)
	}
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/auth/payload", nil},
		{"GET", "/user/" + sellerID, nil},
		{"GET", "/user/" + sellerID + "/role", nil},
		{"POST", "/auth/update_password", map[string]string{"password": "Outra@Senha9", "confirmation": "Outra@Senha9"}},
	} {
		if r := e.do(c.method, c.path, bearer(seller, "yep"), c.body); r.Status != 401 || r.Body["message"] != auth.MsgSessionRequired {
			t.Errorf("%s %s with a deactivated user's token: %d %v", c.method, c.path, r.Status, r.Body)
		}
	}
	if r := e.do("GET", "/auth/payload", bearer(rep, "yep"), nil); r.Status != 200 {
		t.Errorf("an active user's token: %d %v", r.Status, r.Body)
	}
}
