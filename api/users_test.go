package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/auth"
	"oportuna/brand"
	"oportuna/mailer"
	"oportuna/resale"
)

func names(list []any) []string {
	var out []string
	for _, v := range list {
		out = append(out, v.(map[string]any)["name"].(string))
	}
	return out
}

// otherCompany adds a second approved company at the brand with a RESALE user
// signing in with the demo password, and answers the user's e-mail.
func (ps *partnerStack) otherCompany(brandSlug string) string {
	ps.t.Helper()
	ctx := context.Background()
	email := "dono@outra-" + brandSlug + ".com.br"
	var resaleID, userID string
	if err := ps.db.QueryRow(ctx, `INSERT INTO resales (brand, status, corporate_name, cnpj, email) VALUES ($1, 'approved', 'Outra Ltda', '11444777000323', $2)
		RETURNING id::text`, brandSlug, email).Scan(&resaleID); err != nil {
		ps.t.Fatal(err)
	}
	hash, _ := auth.HashPassword("Oportuna@2026")
	if err := ps.db.QueryRow(ctx, `INSERT INTO users (name, email, password_hash, resale_id) VALUES ('Otávio Dono', $1, $2, $3) RETURNING id::text`,
		email, hash, resaleID).Scan(&userID); err != nil {
		ps.t.Fatal(err)
	}
	if _, err := ps.db.Exec(ctx, `INSERT INTO user_roles (user_id, role, brand) VALUES ($1, 'RESALE', $2)`, userID, brandSlug); err != nil {
		ps.t.Fatal(err)
	}
	return email
}

func (ps *partnerStack) userID(email string) string {
	ps.t.Helper()
	var id string
	if err := ps.db.QueryRow(context.Background(), `SELECT id::text FROM users WHERE lower(email) = lower($1)`, email).Scan(&id); err != nil {
		ps.t.Fatal(err)
	}
	return id
}

func TestSellerAndUserListsKeepToTheCompanyAndBrand(t *testing.T) {
	ps := newPartnerStack(t)
	resale := ps.login("revenda@nordata.demo", "nordata")
	other := ps.login(ps.otherCompany("nordata"), "nordata")
	rep := ps.login("representante@nordata.demo", "nordata")
	sup := ps.login("suporte@nordata.demo", "nordata")
	seller := ps.login("vendedor1@nordata.demo", "nordata")
	yepRep := ps.login("representante@yep.demo", "yep")
	yepResale := ps.login("revenda@yep.demo", "yep")

	code, body := resale.call("GET", "/api/seller/all?amount=10&page=1&status=true", nil)
	if code != 200 || body["total"] != 2.0 || strings.Join(names(body["result"].([]any)), ",") != "Vanessa Lima,Victor Souza" {
		t.Fatalf("seller list: %d %v", code, body)
	}
	row := body["result"].([]any)[0].(map[string]any)
	if row["email"] != "vendedor1@nordata.demo" || row["phone"] != "11987650004" || row["active"] != true || row["id"] == "" {
		t.Errorf("seller row %v", row)
	}
	for _, c := range []struct {
		s     *session
		path  string
		code  int
		total float64
	}{
		{resale, "/api/seller/all?amount=1&page=2", 200, 2},
		{other, "/api/seller/all", 200, 0},
		{yepResale, "/api/seller/all", 200, 2},
		{resale, "/api/seller/all?status=maybe", 400, 0},
		{rep, "/api/seller/all", 403, 0},
		{seller, "/api/seller/all", 403, 0},
		// Staff: the brand's partner users (RESALE and SELLER), never another brand's.
		{rep, "/api/representative/all?amount=10&page=1&status=true&brand=nordata", 200, 4},
		{sup, "/api/representative/all", 200, 4},
		{yepRep, "/api/representative/all?brand=yep", 200, 3},
		{rep, "/api/representative/all?brand=yep", 403, 0},
		{yepRep, "/api/representative/all?brand=nordata", 403, 0},
		{resale, "/api/representative/all", 403, 0},
		{seller, "/api/representative/all", 403, 0},
		// By name: contains, any case; the caller's list.
		{resale, "/api/seller/name?name=VANESSA&amount=10&page=1", 200, 1},
		{resale, "/api/seller/name?name=ric", 200, 0}, // Ricardo is the company's RESALE user, not a seller
		{other, "/api/seller/name?name=vanessa", 200, 0},
		{rep, "/api/seller/name?name=I&brand=nordata", 200, 4},
		{rep, "/api/seller/name?name=%25", 200, 0}, // a literal %, not a wildcard
		{yepRep, "/api/seller/name?name=vanessa", 200, 1},
		{rep, "/api/seller/name?name=vanessa&brand=yep", 403, 0},
		{seller, "/api/seller/name?name=vanessa", 403, 0},
	} {
		code, body := c.s.call("GET", c.path, nil)
		if code != c.code {
			t.Errorf("%s: %d, want %d (%v)", c.path, code, c.code, body)
			continue
		}
		if code == 200 && body["total"] != c.total {
			t.Errorf("%s: total %v, want %v (%v)", c.path, body["total"], c.total, body)
		}
	}
	_, body = rep.call("GET", "/api/representative/all", nil)
	for _, v := range body["result"].([]any) {
		u := v.(map[string]any)
		roles := u["roles"].([]any)
		if len(roles) != 1 || (roles[0] != "RESALE" && roles[0] != "SELLER") || u["resale"] == "" {
			t.Errorf("partner user %v", u)
		}
		if u["email"] == "representante@nordata.demo" || u["email"] == "revenda@yep.demo" {
			t.Errorf("listed %v", u["email"])
		}
	}
	_, body = yepRep.call("GET", "/api/seller/name?name=vanessa", nil)
	if d := body["data"].([]any); len(d) != 1 || d[0].(map[string]any)["email"] != "vendedor1@yep.demo" || d[0].(map[string]any)["roles"] == nil {
		t.Errorf("seller by name as staff: %v", body)
	}
}

func TestSellerCreationInvitesAndDeactivationEndsAccess(t *testing.T) {
	ps := newPartnerStack(t)
	checkName, checkEmail, checkPhone := resale.MsgCheckName, resale.MsgCheckEmail, resale.MsgCheckPhone
	resale := ps.login("revenda@nordata.demo", "nordata")
	rep := ps.login("representante@nordata.demo", "nordata")
	seller := ps.login("vendedor1@nordata.demo", "nordata")
	yepResale := ps.login("revenda@yep.demo", "yep")
	other := ps.login(ps.otherCompany("nordata"), "nordata")
	pending := ps.signUp("pendente@revenda.com.br", "11444777000161", "nordata")
	_ = pending

	code, body := resale.call("POST", "/api/seller", map[string]any{"email": "x@", "name": " ", "phone": "1199", "host": ""})
	errs, _ := body["errors"].([]any)
	if code != 400 || body["message"] != MsgSellerInvalid || len(errs) != 3 || errs[0] != checkName || errs[1] != checkEmail || errs[2] != checkPhone {
		t.Errorf("invalid seller: %d %v", code, body)
	}
	for _, email := range []string{"VENDEDOR2@nordata.demo", "representante@yep.demo", "pendente@revenda.com.br"} {
		code, body := resale.call("POST", "/api/seller", map[string]any{"email": email, "name": "Alguém", "phone": "11987654321"})
		if code != 409 || body["message"] != MsgSellerEmailUsed {
			t.Errorf("e-mail %s in use: %d %v", email, code, body)
		}
	}
	newSeller := map[string]any{"email": "Nina@Revenda.com.br", "name": " Nina  Prado ", "phone": 11987654321, "host": "nordata.localhost:5173"}
	for _, s := range []*session{rep, seller} {
		if code, _ := s.call("POST", "/api/seller", newSeller); code != 403 {
			t.Errorf("POST /seller by another role: %d", code)
		}
	}
	code, body = resale.call("POST", "/api/seller", newSeller)
	if code != 201 || body["message"] != MsgSellerCreated {
		t.Fatalf("create seller: %d %v", code, body)
	}
	id := body["id"].(string)
	var name, email, phone, hash, resaleID string
	if err := ps.db.QueryRow(context.Background(), `SELECT name, email, phone, password_hash, resale_id::text FROM users WHERE id = $1`, id).
		Scan(&name, &email, &phone, &hash, &resaleID); err != nil {
		t.Fatal(err)
	}
	if name != "Nina Prado" || email != "nina@revenda.com.br" || phone != "11987654321" || hash != "" || resaleID != ps.resaleID("nordata") {
		t.Errorf("seller stored %q %q %q %q %q", name, email, phone, hash, resaleID)
	}
	if n := count(t, ps, `SELECT count(*) FROM user_roles WHERE user_id = $1 AND role = 'SELLER' AND brand = 'nordata'`, id); n != 1 {
		t.Errorf("seller role rows: %d", n)
	}
	if code, body := resale.call("GET", "/api/history/getByTypeId?typeId="+id, nil); code != 200 || body["total"] != 1.0 {
		t.Errorf("seller history as its company: %d %v", code, body)
	}
	if code, _ := other.call("GET", "/api/history/getByTypeId?typeId="+id, nil); code != 403 {
		t.Errorf("seller history as another company: %d", code)
	}
	// The invitation: a link to this brand's page that sets the password once.
	m := ps.mail("nina@revenda.com.br", "seller-invitation/")
	if !strings.Contains(strings.Join(m.Links, " "), "http://nordata.localhost:5173/reset-password?token=") || !strings.Contains(m.Text, "Revenda Modelo Nordata Ltda") {
		t.Errorf("invitation links %v text %s", m.Links, m.Text)
	}
	if code, body := ps.setPassword(ps.tokenOf(m), "Oportuna@2026"); code != 200 {
		t.Fatalf("accept the invitation: %d %v", code, body)
	}
	nina := ps.login("nina@revenda.com.br", "nordata")
	if _, body := resale.call("GET", "/api/seller/all", nil); body["total"] != 3.0 {
		t.Errorf("sellers after the invitation: %v", body)
	}

	// Deactivation: only the company's own sellers.
	victor := ps.userID("vendedor2@nordata.demo")
	victorSession := ps.login("vendedor2@nordata.demo", "nordata")
	for _, c := range []struct {
		s    *session
		id   string
		code int
	}{
		{yepResale, victor, 404}, {other, victor, 403}, {rep, victor, 403}, {seller, victor, 403}, {nina, victor, 403},
		{resale, ps.userID("revenda@nordata.demo"), 403}, {resale, ps.userID("representante@nordata.demo"), 403},
		{resale, "00000000-0000-4000-8000-000000000000", 404}, {resale, "abc", 404},
	} {
		if code, body := c.s.call("PATCH", "/api/seller/inative/"+c.id, nil); code != c.code {
			t.Errorf("deactivate %s as %s: %d %v, want %d", c.id, c.s.token[:10], code, body, c.code)
		}
	}
	code, body = resale.call("PATCH", "/api/seller/inative/"+victor, nil)
	if code != 200 || body["message"] != MsgUserDeleted {
		t.Fatalf("deactivate: %d %v", code, body)
	}
	if code := ps.loginWith("vendedor2@nordata.demo", "Oportuna@2026", "nordata"); code != 401 {
		t.Errorf("a deactivated seller signs in: %d", code)
	}
	if code, _ := victorSession.call("GET", "/api/notifications", nil); code != 401 {
		t.Errorf("a deactivated seller's open session: %d", code)
	}
	if n := count(t, ps, `SELECT count(*) FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL`, victor); n != 0 {
		t.Errorf("live refresh tokens: %d", n)
	}
	if code, body := resale.call("PATCH", "/api/seller/inative/"+victor, nil); code != 200 || body["message"] != MsgUserDeleted {
		t.Errorf("deactivate again: %d %v", code, body)
	}
	if n := count(t, ps, `SELECT count(*) FROM history WHERE type = 'user' AND type_id = $1 AND action_type = 'update'`, victor); n != 1 {
		t.Errorf("deactivation history rows: %d", n)
	}
	if _, body := resale.call("GET", "/api/seller/all?status=true", nil); body["total"] != 2.0 || strings.Contains(strings.Join(names(body["result"].([]any)), ","), "Victor") {
		t.Errorf("active sellers: %v", body)
	}
	if _, body := resale.call("GET", "/api/seller/all?status=false", nil); body["total"] != 1.0 || body["result"].([]any)[0].(map[string]any)["active"] != false {
		t.Errorf("inactive sellers: %v", body)
	}
	if _, body := rep.call("GET", "/api/representative/all?status=all", nil); body["total"] != 5.0 {
		t.Errorf("all partner users: %v", body)
	}
	// Recovery is refused to a deactivated user.
	code, body, _ = ps.public("POST", "/authenticator/auth/reset_password", map[string]any{"company": "nordata", "email": "vendedor2@nordata.demo"})
	if code != 404 {
		t.Errorf("recovery of a deactivated user: %d %v", code, body)
	}
}

// callWithHost is s.call with the request's Host header set (the Go client
// ignores a "Host" entry of Header).
func callWithHost(s *session, host, method, path string, body any) (int, map[string]any) {
	s.st.t.Helper()
	b, _ := json.Marshal(body)
	return decoded[map[string]any](s.send(method, path, bytes.NewReader(b), func(req *http.Request) { req.Host = host }))
}

func TestSellerInvitationLinksIgnoreAForgedHost(t *testing.T) {
	ps := newPartnerStack(t)
	resale := ps.login("revenda@nordata.demo", "nordata")
	// nordata is the first brand: the one an unknown Host falls back to.
	for _, c := range []struct{ email, reqHost, host, want string }{
		{"eva@revenda.com.br", "evil.com", "evil.com", "http://nordata.localhost:8080/reset-password?token="},
		{"eli@revenda.com.br", "evil.com:8443", "", "http://nordata.localhost:8080/reset-password?token="},
		{"ema@revenda.com.br", "evil.com", "https://yep.localhost", "http://nordata.localhost:8080/reset-password?token="},
		// The brand's own development host, named by the client or the request.
		{"edu@revenda.com.br", "evil.com", "nordata.localhost:5173", "http://nordata.localhost:5173/reset-password?token="},
		{"enzo@revenda.com.br", "nordata.localhost:5174", "", "http://nordata.localhost:5174/reset-password?token="},
	} {
		code, body := callWithHost(resale, c.reqHost, "POST", "/api/seller", map[string]any{"email": c.email, "name": "Alguém Novo", "phone": "11987654321", "host": c.host})
		if code != 201 {
			t.Fatalf("create seller %s: %d %v", c.email, code, body)
		}
		m := ps.mail(c.email, "seller-invitation/")
		if len(m.Links) == 0 || !strings.Contains(strings.Join(m.Links, " "), c.want) || strings.Contains(strings.Join(m.Links, " "), "evil.com") {
			t.Errorf("request host %q, host %q: links %v, want %s…", c.reqHost, c.host, m.Links, c.want)
		}
	}
}

// committedCheckMail reports, when an invitation is sent, whether its user is
// already committed (seen from another connection); fail makes every send fail.
type committedCheckMail struct {
	PartnerMail
	db        *pgxpool.Pool
	fail      bool
	mu        sync.Mutex
	calls     int
	committed []bool
}

func (m *committedCheckMail) SendSellerInvitation(ctx context.Context, b *brand.Brand, inv mailer.SellerInvitation) error {
	var n int
	_ = m.db.QueryRow(ctx, `SELECT count(*) FROM users WHERE email = $1`, inv.Email).Scan(&n)
	m.mu.Lock()
	m.calls++
	m.committed = append(m.committed, n == 1)
	m.mu.Unlock()
	if m.fail {
		return errors.New("smtp down")
	}
	return m.PartnerMail.SendSellerInvitation(ctx, b, inv)
}

func TestSellerInvitationIsSentOnlyAfterTheSellerCommits(t *testing.T) {
	var mail *committedCheckMail
	ps := newPartnerStack(t, func(s *Server) {
		mail = &committedCheckMail{PartnerMail: s.Partners.Mail, db: s.DB}
		s.Partners.Mail = mail
	})
	resale := ps.login("revenda@nordata.demo", "nordata")
	code, body := resale.call("POST", "/api/seller", map[string]any{"email": "nina@revenda.com.br", "name": "Nina Prado", "phone": "11987654321"})
	if code != 201 || body["message"] != MsgSellerCreated {
		t.Fatalf("create seller: %d %v", code, body)
	}
	if len(mail.committed) != 1 || !mail.committed[0] {
		t.Fatalf("invitation sent before the seller was committed: %v", mail.committed)
	}
	if code, body := ps.setPassword(ps.tokenOf(ps.mail("nina@revenda.com.br", "seller-invitation/")), "Oportuna@2026"); code != 200 {
		t.Fatalf("accept the invitation: %d %v", code, body)
	}

	// A failed dispatch is tried once more and leaves the seller, who can recover the password.
	mail.fail, mail.calls = true, 0
	code, body = resale.call("POST", "/api/seller", map[string]any{"email": "otto@revenda.com.br", "name": "Otto Reis", "phone": "11987654322"})
	if code != 201 || body["id"] == nil {
		t.Fatalf("create seller with the mail down: %d %v", code, body)
	}
	if mail.calls != 2 {
		t.Errorf("dispatch attempts: %d, want 2", mail.calls)
	}
	if n := count(t, ps, `SELECT count(*) FROM users u JOIN password_resets p ON p.user_id = u.id WHERE u.email = 'otto@revenda.com.br' AND u.active`); n != 1 {
		t.Errorf("seller with its invitation token after a failed dispatch: %d", n)
	}
	if code, body, _ := ps.public("POST", "/authenticator/auth/reset_password", map[string]any{"company": "nordata", "email": "otto@revenda.com.br"}); code != 204 {
		t.Errorf("recovery of a seller whose invitation failed: %d %v", code, body)
	}
}
