package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/calendar"
	"oportuna/internal/dev/mailbox"
	"oportuna/internal/testenv"
	"oportuna/seed"
)

type stack struct {
	t   *testing.T
	srv *httptest.Server
	db  *pgxpool.Pool
	// replica starts another API server (a replica) of the stack; nil when
	// the stack has none.
	replica func() *httptest.Server
}

// twoBrands are the brands most stacks seed: nordata and yep.
const twoBrands = `[{"slug":"nordata","name":"Nordata","title":"N"},{"slug":"yep","name":"Yep","title":"Y"}]`

// seeded is a fresh database seeded for the brands (their JSON).
func seeded(t *testing.T, ctx context.Context, brandsJSON string) (*pgxpool.Pool, *brand.Registry) {
	t.Helper()
	db := testenv.DB(t)
	brands, err := brand.Parse([]byte(brandsJSON))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seed.Run(ctx, db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	return db, brands
}

// testAuth is the sign-in service of the stacks' servers.
func testAuth(db *pgxpool.Pool, brands *brand.Registry) *auth.Service {
	return &auth.Service{DB: db, Brands: brands, Signer: &auth.Signer{Secret: []byte("0123456789abcdef0123456789abcdef"), TTL: time.Hour},
		RefreshTTL: time.Hour, ResetTTL: time.Hour, Mailer: mailbox.ResetLog{}}
}

// testWeb is the web app of the stacks' servers.
var testWeb = fstest.MapFS{"index.html": {Data: []byte(`<html><head><title>x</title></head></html>`)}}

// serve runs the server's handler over HTTP until the test ends.
func serve(t *testing.T, s *Server) *httptest.Server {
	t.Helper()
	h, err := s.Handler()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// newStack is the API on a seeded database (nordata and yep), with a worker
// whose CRM is the Salesforce client talking to its stand-in over HTTP.
func newStack(t *testing.T) *stack {
	t.Helper()
	st, _ := newCRMStack(t)
	return st
}

type session struct {
	st      *stack
	token   string
	company string
}

func (st *stack) login(email, company string) *session {
	st.t.Helper()
	req, _ := http.NewRequest("GET", st.srv.URL+"/authenticator/login?brand="+company, nil)
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(email+":Oportuna@2026")))
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		st.t.Fatalf("login %s: %v %v", email, err, res)
	}
	defer res.Body.Close()
	var body struct{ Data struct{ Data auth.Tokens } }
	_ = json.NewDecoder(res.Body).Decode(&body)
	return &session{st: st, token: body.Data.Data.AccessToken, company: company}
}

func (s *session) call(method, path string, body any, headers ...string) (int, map[string]any) {
	s.st.t.Helper()
	code, out, _ := testenv.CallJSON(s.st.t, method, s.st.srv.URL+path, body,
		append([]string{"Authorization", "Bearer " + s.token, "company", s.company}, headers...)...)
	return code, out
}

func (s *session) callList(method, path string) (int, []map[string]any) {
	s.st.t.Helper()
	return decoded[[]map[string]any](s.send(method, path, nil, nil))
}

// send sends a request with the session's token and company; prepare, when
// set, changes the request first. The caller closes the answer's body.
func (s *session) send(method, path string, body io.Reader, prepare func(*http.Request)) *http.Response {
	s.st.t.Helper()
	req, _ := http.NewRequest(method, s.st.srv.URL+path, body)
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("company", s.company)
	if prepare != nil {
		prepare(req)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.st.t.Fatal(err)
	}
	return res
}

// decoded reads an answer's JSON body (a zero T when it is not JSON) and closes it.
func decoded[T any](res *http.Response) (int, T) {
	defer res.Body.Close()
	var out T
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// create registers an opportunity of the customer doc (createBody), with the
// Idempotency-Key key when not empty, and answers its id.
func (s *session) create(doc, key string) string {
	s.st.t.Helper()
	var headers []string
	if key != "" {
		headers = []string{"Idempotency-Key", key}
	}
	code, body := s.call("POST", "/api/opportunity/create", createBody(doc), headers...)
	if code != 200 {
		s.st.t.Fatalf("create: %d %v", code, body)
	}
	return body["data"].(map[string]any)["id"].(string)
}

func createBody(doc string) map[string]any {
	return map[string]any{
		"cnpj": doc, "contact": "Ana Souza", "network": "Não", "email": "ana@cliente.com.br", "fantasyName": "Cliente Bom",
		"corporateName": "Cliente Bom Ltda", "street": "Rua A, 1", "cep": "01310100", "city": "São Paulo", "state": "SP",
		"probabilityClosing": 25, "acceptedTerm": "true", "country": "Brasil", "phone": "11987654321", "seller": "Vanessa",
		"company": "nordata", "opportunityOrigin": "Partner",
		"projects": []any{map[string]any{"aplication": "Inventário", "specification": "Coletor", "homologated": true, "haveCollector": false,
			"partner": false, "opportunityType": "private", "conclusionDate": calendar.Date(time.Now()).AddDate(0, 2, 0).Format(time.DateOnly)}},
		"products": []any{map[string]any{"partNumber": "CT-40", "description": "Coletor", "amount": 2, "price": "1.000,00"}},
	}
}

func TestOpportunityAPIEnforcesRolesOwnershipAndTransitions(t *testing.T) {
	st := newStack(t)
	seller := st.login("vendedor1@nordata.demo", "nordata")
	seller2 := st.login("vendedor2@nordata.demo", "nordata")
	resale := st.login("revenda@nordata.demo", "nordata")
	rep := st.login("representante@nordata.demo", "nordata")
	sup := st.login("suporte@nordata.demo", "nordata")
	yepRep := st.login("representante@yep.demo", "yep")

	// Create: validation, roles, company, idempotency.
	bad := createBody("11.222.333/0001-82")
	bad["contact"] = ""
	code, body := seller.call("POST", "/api/opportunity/create", bad)
	if code != 400 || body["message"] != "Campos obrigatórios ausentes!" || len(body["errors"].([]any)) != 2 {
		t.Fatalf("invalid create: %d %v", code, body)
	}
	if code, _ := rep.call("POST", "/api/opportunity/create", createBody("11222333000181")); code != 403 {
		t.Errorf("representative created: %d", code)
	}
	other := createBody("11222333000181")
	other["company"] = "yep"
	if code, _ := seller.call("POST", "/api/opportunity/create", other); code != 403 {
		t.Errorf("another company in the payload: %d", code)
	}
	code, body = seller.call("POST", "/api/opportunity/create", createBody("11222333000181"), "Idempotency-Key", "req-1")
	if code != 200 || body["message"] != "Oportunidade cadastrada com sucesso" {
		t.Fatalf("create: %d %v", code, body)
	}
	rec := body["data"].(map[string]any)
	id := rec["id"].(string)
	if rec["status"] != "analysis" || rec["estimated"] != 2000.0 || rec["userEmail"] != "vendedor1@nordata.demo" {
		t.Errorf("record %v", rec)
	}
	_, again := seller.call("POST", "/api/opportunity/create", createBody("11222333000181"), "Idempotency-Key", "req-1")
	if again["data"].(map[string]any)["id"] != id {
		t.Error("a retried create made a second opportunity")
	}
	code, body = seller2.call("POST", "/api/opportunity/create", createBody("11222333000181"))
	if code != 200 {
		t.Fatalf("second seller create: %d %v", code, body)
	}
	id2 := body["data"].(map[string]any)["id"].(string)

	// Reading: owner, company, staff; not another seller nor another brand.
	for who, want := range map[*session]int{seller: 200, resale: 200, rep: 200, sup: 200, seller2: 403, yepRep: 404} {
		if code, _ := who.call("GET", "/api/opportunity/id/"+id, nil); code != want {
			t.Errorf("GET as %s/%s: %d, want %d", who.company, who.token[:8], code, want)
		}
	}
	_, body = rep.call("GET", "/api/opportunity/id/"+id2, nil)
	first := body["data"].([]any)[0].(map[string]any)
	if c := first["conflicts"].([]any); len(c) != 1 || c[0].(map[string]any)["id"] != id {
		t.Errorf("conflicts seen by the representative: %v", first["conflicts"])
	}

	// Lists by role.
	for _, c := range []struct {
		s    *session
		path string
		code int
		n    float64
	}{
		{seller, "/api/opportunity/user", 200, 1}, {resale, "/api/opportunity/resale", 200, 2},
		{rep, "/api/opportunity/all", 200, 2}, {sup, "/api/opportunity/all?status=analysis,approved", 200, 2},
		{seller, "/api/opportunity/all", 403, 0}, {rep, "/api/opportunity/resale", 403, 0},
		{rep, "/api/opportunity/all?cnpj=11.222.333", 200, 2}, {rep, "/api/opportunity/all?status=approved", 200, 0},
		{rep, "/api/opportunity/all?amount=0", 400, 0}, {rep, "/api/opportunity/all?status=bogus", 400, 0},
		{yepRep, "/api/opportunity/all", 200, 0},
	} {
		code, body := c.s.call("GET", c.path, nil)
		if code != c.code || (code == 200 && body["total"] != c.n) {
			t.Errorf("%s: %d %v, want %d with %v", c.path, code, body["total"], c.code, c.n)
		}
	}

	// Decisions.
	if code, _ := sup.call("PATCH", "/api/opportunity/"+id, map[string]any{"status": "approved", "name": "X"}); code != 403 {
		t.Errorf("support approved: %d", code)
	}
	code, body = rep.call("PATCH", "/api/opportunity/"+id, map[string]any{"status": "approved", "name": " ", "probabilityClosing": 50})
	if code != 400 || body["message"] != "Por favor, digite um nome para a oportunidade!!" {
		t.Errorf("approve without name: %d %v", code, body)
	}
	code, body = rep.call("PATCH", "/api/opportunity/"+id, map[string]any{"status": "approved", "name": "Projeto Armazém", "probabilityClosing": 50})
	if code != 200 || body["message"] != "Oportunidade aprovada com sucesso" || body["data"].(map[string]any)["register"] == "" {
		t.Fatalf("approve: %d %v", code, body)
	}
	if code, _ := rep.call("PATCH", "/api/opportunity/"+id, map[string]any{"status": "disapproved", "reason": "x"}); code != 409 {
		t.Errorf("disapprove an approved one: %d", code)
	}
	if code, body := rep.call("PATCH", "/api/opportunity/"+id2, map[string]any{"status": "disapproved", "reason": ""}); code != 400 {
		t.Errorf("disapprove without reason: %d %v", code, body)
	}
	if code, _ := rep.call("PATCH", "/api/opportunity", map[string]any{"id": id, "probabilityClosing": 75}); code != 200 {
		t.Errorf("probability update: %d", code)
	}
	renewal := map[string]any{"reason": "x", "probabilityClosing": 50, "projectStillInScope": "Sim", "lastVisitDate": "2026-01-01"}
	if code, _ := seller.call("PATCH", "/api/opportunity/renovation/"+id+"/request", renewal); code != 409 {
		t.Errorf("renewal while approved: %d", code)
	}
	if code, _ := seller2.call("PATCH", "/api/opportunity/renovation/"+id+"/request", renewal); code != 403 {
		t.Errorf("renewal by another seller: %d", code)
	}

	// Dashboard (staff only) and name search (own records for sellers).
	code, body = rep.call("GET", "/api/dashboard/status?brand=nordata", nil)
	if code != 200 {
		t.Fatalf("dashboard: %d %v", code, body)
	}
	dash := body["data"].(map[string]any)
	approved, analysis := dash["approved"].(map[string]any), dash["analysis"].(map[string]any)
	if approved["total"] != 1.0 || approved["thisMonth"] != 1.0 || analysis["total"] != 1.0 ||
		len(dash["months"].([]any)) != int(calendar.In(time.Now()).Month()) || len(dash["recent"].([]any)) != 2 {
		t.Errorf("dashboard %v", dash)
	}
	last := dash["months"].([]any)[len(dash["months"].([]any))-1].(map[string]any)
	if last["approved"] != 1.0 {
		t.Errorf("this month's point %v", last)
	}
	if code, _ := seller.call("GET", "/api/dashboard/status?brand=nordata", nil); code != 403 {
		t.Errorf("seller read the dashboard: %d", code)
	}
	if code, _ := rep.call("GET", "/api/dashboard/status?brand=yep", nil); code != 403 {
		t.Errorf("dashboard of another brand: %d", code)
	}
	if _, body := seller2.call("GET", "/api/opportunity/name?company=nordata&name=oportunidade", nil); len(body["data"].([]any)) != 1 {
		t.Errorf("seller2 name search: %v", body)
	}
	if _, body := rep.call("GET", "/api/opportunity/name?company=nordata&name=armaz", nil); len(body["data"].([]any)) != 1 {
		t.Errorf("representative name search: %v", body)
	}

	// History: the user name is for representatives.
	code, body = rep.call("GET", "/api/history/getByTypeId?typeId="+id, nil)
	if code != 200 || body["total"] != 3.0 {
		t.Fatalf("history: %d %v", code, body)
	}
	if row := body["result"].([]any)[0].(map[string]any); row["username"] != "Renata Almeida" || row["actionType"] != "update" {
		t.Errorf("newest history row %v", row)
	}
	_, body = seller.call("GET", "/api/history/getByTypeId?typeId="+id, nil)
	if row := body["result"].([]any)[0].(map[string]any); row["username"] != "" {
		t.Errorf("seller sees the user name: %v", row)
	}
	// The seller picker: the CRM's sellers of the brand (the stand-in holds 3 per brand).
	code, list := seller.callList("GET", "/api/opportunity/getSellersOnSalesforce")
	if code != 200 || len(list) != 3 || list[0]["company"] == "" || list[0]["user_id"] == "" {
		t.Errorf("CRM sellers: %d %v", code, list)
	}
	if code, _ := sup.call("GET", "/api/opportunity/getSellersOnSalesforce", nil); code != 403 {
		t.Errorf("support read the seller picker: %d", code)
	}

	// Client-side history rows: the author comes from the token.
	code, body = rep.call("POST", "/api/history/create", map[string]any{"typeId": id, "type": "Opportunities", "actionType": "update",
		"userId": "forged", "username": "Forjado", "modifications": []any{map[string]any{"attribute": "name", "oldValue": "a", "newValue": "b"}}})
	if code != 201 {
		t.Errorf("history create: %d %v", code, body)
	}
	_, body = rep.call("GET", "/api/history/getByTypeId?typeId="+id, nil)
	if row := body["result"].([]any)[0].(map[string]any); row["username"] != "Renata Almeida" || body["total"] != 4.0 {
		t.Errorf("client history row %v", row)
	}
	if code, _ := seller2.call("POST", "/api/history/create", map[string]any{"typeId": id, "type": "opportunity", "actionType": "update"}); code != 403 {
		t.Errorf("history create on an invisible record: %d", code)
	}
	var seller2ID, resaleID string
	_ = st.db.QueryRow(context.Background(), `SELECT id::text, resale_id::text FROM users WHERE email = 'vendedor2@nordata.demo'`).Scan(&seller2ID, &resaleID)
	for _, c := range []struct {
		who      *session
		kind, id string
		want     int
	}{
		{seller, "Users", seller2ID, 403}, {resale, "Users", seller2ID, 201}, {seller2, "Users", seller2ID, 201},
		{rep, "Users", seller2ID, 201}, {yepRep, "Users", seller2ID, 403},
		{rep, "Resales", resaleID, 201}, {seller, "Resales", resaleID, 403}, {resale, "Resales", resaleID, 201},
	} {
		if code, _ := c.who.call("POST", "/api/history/create", map[string]any{"typeId": c.id, "type": c.kind, "actionType": "update"}); code != c.want {
			t.Errorf("history create on %s by %s: %d, want %d", c.kind, c.who.token[:12], code, c.want)
		}
	}
	if code, _ := seller.call("GET", "/api/history/getByTypeId?typeId="+seller2ID, nil); code != 403 {
		t.Errorf("a seller read another seller's history: %d", code)
	}
	if code, _ := rep.call("POST", "/api/history/create", map[string]any{"typeId": id, "type": "x", "actionType": "update"}); code != 400 {
		t.Errorf("bad history type: %d", code)
	}
	if code, _ := seller2.call("GET", "/api/history/getByTypeId?typeId="+id, nil); code != 403 {
		t.Errorf("another seller read the history: %d", code)
	}
}

// TestConflictNoticeListsOnlyOpenRegistrations: the details' "outro registro
// aberto para o mesmo CNPJ" lists the customer's other registrations that are
// still open; one refused since is no longer there.
func TestConflictNoticeListsOnlyOpenRegistrations(t *testing.T) {
	st := newStack(t)
	seller := st.login("vendedor1@nordata.demo", "nordata")
	rep := st.login("representante@nordata.demo", "nordata")
	var ids []string
	for i := 0; i < 3; i++ {
		code, body := seller.call("POST", "/api/opportunity/create", createBody("11222333000181"))
		if code != 200 {
			t.Fatalf("create %d: %d %v", i, code, body)
		}
		ids = append(ids, body["data"].(map[string]any)["id"].(string))
	}
	conflicts := func() []any {
		t.Helper()
		_, body := rep.call("GET", "/api/opportunity/id/"+ids[2], nil)
		var ids []any
		for _, c := range body["data"].([]any)[0].(map[string]any)["conflicts"].([]any) {
			ids = append(ids, c.(map[string]any)["id"])
		}
		return ids
	}
	if c := conflicts(); len(c) != 2 || c[0] != ids[0] || c[1] != ids[1] {
		t.Fatalf("conflicts before the refusal: %v, want %v", c, ids[:2])
	}
	if code, body := rep.call("PATCH", "/api/opportunity/"+ids[0], map[string]any{"status": "disapproved", "reason": "Cliente de outra revenda."}); code != 200 {
		t.Fatalf("disapprove: %d %v", code, body)
	}
	if c := conflicts(); len(c) != 1 || c[0] != ids[1] {
		t.Errorf("conflicts after refusing %s: %v, want only %s", ids[0], c, ids[1])
	}
}
