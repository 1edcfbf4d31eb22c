package api

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"oportuna/auth"
	"oportuna/internal/calendar"
	"oportuna/opportunity"
	"oportuna/resale"
	"oportuna/store"
	"oportuna/workflows"
)

func TestResaleSignUpValidationAndDuplicates(t *testing.T) {
	ps := newPartnerStack(t)
	// Each case from its own address would be the real world; here the limit is lifted by the clock.
	post := func(body map[string]any) (int, map[string]any) {
		ps.clock.Add(FormWindow)
		code, out, _ := ps.public("POST", "/api/register/resale", body)
		return code, out
	}
	unknown := signupBody("a@revenda.com.br", "11444777000161", "marca-nenhuma")
	if code, body := post(unknown); code != 400 || body["message"] != auth.MsgUnknownBrand {
		t.Errorf("unknown brand: %d %v", code, body)
	}
	bad := signupBody("sem-arroba", "11.444.777/0001-62", "nordata")
	bad["contactName"], bad["phone"] = " ", "1199999"
	code, body := post(bad)
	errs, _ := body["errors"].([]any)
	fields, _ := body["fields"].([]any)
	if code != 400 || body["message"] != MsgResaleInvalid || len(errs) != 4 || errs[0] != "Nome" || errs[1] != "Email" ||
		errs[2] != "Telefone" || errs[3] != "CNPJ" || len(fields) != 4 || fields[3].(map[string]any)["message"] != resale.MsgCheckCNPJ {
		t.Errorf("invalid sign-up: %d %v", code, body)
	}
	if code, body := post(map[string]any{"brand": 7}); code != 400 || !strings.HasPrefix(body["message"].(string), "Dados inválidos") {
		t.Errorf("bad JSON: %d %v", code, body)
	}
	// A user's e-mail, a company's e-mail (any case): "Email já está sendo
	// utilizado" (code EMAIL_TAKEN); the brand's CNPJ, whatever the e-mail:
	// "Já existe uma revenda registrada com este CNPJ." (code CNPJ_TAKEN).
	seeded := ps.resaleID("nordata")
	var seededCNPJ string
	_ = ps.db.QueryRow(context.Background(), `SELECT cnpj FROM resales WHERE id = $1`, seeded).Scan(&seededCNPJ)
	for name, c := range map[string]struct {
		body      map[string]any
		msg, code string
	}{
		"user e-mail":              {signupBody("VENDEDOR1@nordata.demo", "11444777000161", "nordata"), resale.MsgEmailTaken, CodeResaleEmailTaken},
		"brand's cnpj":             {signupBody("outra@revenda.com.br", seededCNPJ, "nordata"), resale.MsgCNPJTaken, CodeResaleCNPJTaken},
		"brand's cnpj, used email": {signupBody("revenda@nordata.demo", seededCNPJ, "nordata"), resale.MsgCNPJTaken, CodeResaleCNPJTaken},
	} {
		if code, body := post(c.body); code != 400 || body["message"] != c.msg || body["code"] != c.code {
			t.Errorf("%s: %d %v, want 400 %q %s", name, code, body, c.msg, c.code)
		}
	}
	code, body = post(signupBody("Nova@Revenda.com.br", "11.444.777/0001-61", "nordata"))
	if code != 201 || body["message"] != MsgResaleRegistered || !opportunity.ValidID(body["id"].(string)) {
		t.Fatalf("sign-up: %d %v", code, body)
	}
	id := body["id"].(string)
	if code, body := post(signupBody("nova@revenda.com.br", "11444777000242", "yep")); code != 400 || body["message"] != resale.MsgEmailTaken {
		t.Errorf("the same company e-mail at another brand: %d %v", code, body)
	}
	// The same CNPJ at another brand, with another e-mail, is another company.
	if code, body := post(signupBody("yep@revenda.com.br", "11444777000161", "yep")); code != 201 {
		t.Errorf("same CNPJ at another brand: %d %v", code, body)
	}
	stored, err := store.New(ps.db).GetResale(context.Background(), store.GetResaleParams{ID: id, Brand: "nordata"})
	if err != nil {
		t.Fatal(err)
	}
	r := resaleRowOf(stored)
	if r.Status != "analysis" || r.CNPJ != "11444777000161" || r.Phone != "11987654321" || r.CEP != "01310100" ||
		r.Email != "nova@revenda.com.br" || r.FantasyName != "N/C" || r.ContactName != "Carla Dias" {
		t.Errorf("stored %+v", r)
	}
	if n := count(t, ps, `SELECT count(*) FROM history WHERE type = 'resale' AND type_id = $1 AND action_type = 'create' AND username = 'Carla Dias'`, id); n != 1 {
		t.Errorf("creation history rows: %d", n)
	}
	if n := count(t, ps, `SELECT count(*) FROM users WHERE lower(email) = 'nova@revenda.com.br'`); n != 0 {
		t.Errorf("a user exists before approval: %d", n)
	}
	// The workflow is running, in analysis, searchable by operators.
	desc, err := ps.tc.DescribeWorkflowExecution(context.Background(), workflows.ResaleWorkflowID(id), "")
	if err != nil || desc.WorkflowExecutionInfo.Status.String() != "Running" {
		t.Fatalf("workflow: %v %v", err, desc)
	}
	ps.mail("representante@nordata.demo", "notice/resale/"+id+"/registered/")
	ps.mail("multi@nordata.demo", "notice/resale/"+id+"/registered/")
	if n := count(t, ps, `SELECT count(*) FROM mail_outbox WHERE 'representante@yep.demo' = ANY(recipients) AND key LIKE 'notice/resale/'||$1||'%'`, id); n != 0 {
		t.Errorf("another brand's representative was e-mailed")
	}
}

// resaleID is the seeded company of a brand.
func (ps *partnerStack) resaleID(brandSlug string) string {
	ps.t.Helper()
	var id string
	if err := ps.db.QueryRow(context.Background(), `SELECT resale_id::text FROM users WHERE email = $1`, "revenda@"+brandSlug+".demo").Scan(&id); err != nil {
		ps.t.Fatal(err)
	}
	return id
}

// signUp registers a company and answers its id.
func (ps *partnerStack) signUp(email, doc, brandSlug string) string {
	ps.t.Helper()
	ps.clock.Add(FormWindow)
	code, body, _ := ps.public("POST", "/api/register/resale", signupBody(email, doc, brandSlug))
	if code != 201 {
		ps.t.Fatalf("sign-up %s: %d %v", email, code, body)
	}
	return body["id"].(string)
}

func TestResaleListsAndDetailsKeepToTheBrandAndRole(t *testing.T) {
	ps := newPartnerStack(t)
	id := ps.signUp("lista@revenda.com.br", "11444777000161", "nordata")
	rep := ps.login("representante@nordata.demo", "nordata")
	sup := ps.login("suporte@nordata.demo", "nordata")
	resale := ps.login("revenda@nordata.demo", "nordata")
	seller := ps.login("vendedor1@nordata.demo", "nordata")
	yepRep := ps.login("representante@yep.demo", "yep")
	today := calendar.Format(time.Now())
	for _, c := range []struct {
		s     *session
		path  string
		code  int
		total float64
		first string
	}{
		{rep, "/api/resale/all", 200, 2, id}, // newest first
		{sup, "/api/resale/all?createdAt=1", 200, 2, ps.resaleID("nordata")},
		{rep, "/api/resale/all?status=analysis", 200, 1, id},
		{rep, "/api/resale/all?status=approved,disapproved", 200, 1, ps.resaleID("nordata")},
		{rep, "/api/resale/all?status=analysis&date=" + today + "&brand=nordata", 200, 1, id},
		{rep, "/api/resale/all?date=01/01/2001", 200, 0, ""},
		{rep, "/api/resale/all?amount=1&page=2", 200, 2, ps.resaleID("nordata")},
		{yepRep, "/api/resale/all", 200, 1, ps.resaleID("yep")},
		{rep, "/api/resale/all?brand=yep", 403, 0, ""},
		{yepRep, "/api/resale/all?brand=nordata", 403, 0, ""},
		{rep, "/api/resale/all?status=bogus", 400, 0, ""},
		{rep, "/api/resale/all?date=31/02/2026", 400, 0, ""},
		{rep, "/api/resale/all?createdAt=up", 400, 0, ""},
		{rep, "/api/resale/all?amount=0", 400, 0, ""},
		{resale, "/api/resale/all", 403, 0, ""},
		{seller, "/api/resale/all", 403, 0, ""},
	} {
		code, body := c.s.call("GET", c.path, nil)
		if code != c.code {
			t.Errorf("%s: %d, want %d (%v)", c.path, code, c.code, body)
			continue
		}
		if code != 200 {
			continue
		}
		list := body["result"].([]any)
		if body["total"] != c.total || (c.first != "" && list[0].(map[string]any)["id"] != c.first) || (c.first == "" && len(list) != 0) {
			t.Errorf("%s: total %v first %v", c.path, body["total"], list)
		}
	}
	_, body := rep.call("GET", "/api/resale/all?status=analysis", nil)
	row := body["result"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "status", "corporateName", "fantasyName", "cnpj", "phone", "contactName", "email", "cep", "city", "street", "state", "reason", "createdAt"} {
		if _, ok := row[k]; !ok {
			t.Errorf("row lacks %s: %v", k, row)
		}
	}
	// Details: staff of the brand, or the company's own RESALE user.
	seeded := ps.resaleID("nordata")
	for _, c := range []struct {
		s    *session
		id   string
		code int
	}{
		{rep, id, 200}, {sup, id, 200}, {yepRep, id, 404}, {resale, id, 403}, {seller, id, 403},
		{resale, seeded, 200}, {seller, seeded, 403}, {rep, "nao-e-id", 404}, {rep, "00000000-0000-4000-8000-000000000000", 404},
	} {
		code, body := c.s.call("GET", "/api/resale/"+c.id, nil)
		if code != c.code {
			t.Errorf("GET /resale/%s as %s: %d, want %d", c.id, c.s.token[:10], code, c.code)
		}
		if code == 200 && body["data"].(map[string]any)["id"] != c.id {
			t.Errorf("GET /resale/%s: %v", c.id, body)
		}
	}
}

func TestResaleApprovalCreatesTheUserAndInvitesIt(t *testing.T) {
	ps := newPartnerStack(t)
	id := ps.signUp("aprovada@revenda.com.br", "11444777000161", "nordata")
	rep := ps.login("representante@nordata.demo", "nordata")
	seller := ps.login("vendedor1@nordata.demo", "nordata")
	resale := ps.login("revenda@nordata.demo", "nordata")
	yepRep := ps.login("representante@yep.demo", "yep")
	approve := map[string]any{"status": "approved", "reason": "", "host": "nordata.localhost:5173"}
	for _, c := range []struct {
		s    *session
		body map[string]any
		code int
	}{
		{seller, approve, 403}, {resale, approve, 403}, {yepRep, approve, 404},
		{rep, map[string]any{"status": "analysis"}, 400},
		{rep, map[string]any{"status": "disapproved", "reason": "  "}, 400},
	} {
		if code, body := c.s.call("PATCH", "/api/resale/update/"+id, c.body); code != c.code {
			t.Errorf("PATCH %v as %s: %d %v, want %d", c.body, c.s.token[:10], code, body, c.code)
		}
	}
	code, body := rep.call("PATCH", "/api/resale/update/"+id, approve)
	if code != 201 || body["message"] != MsgResaleApproved {
		t.Fatalf("approve: %d %v", code, body)
	}
	// The same person's repeat (an answer lost, a double submit) answers the
	// first outcome and does nothing (the history and user counts below);
	// another person's, or another decision, is a conflict.
	if code, body := rep.call("PATCH", "/api/resale/update/"+id, approve); code != 201 || body["message"] != MsgResaleApproved {
		t.Errorf("approve twice: %d %v", code, body)
	}
	sup := ps.login("suporte@nordata.demo", "nordata")
	if code, body := sup.call("PATCH", "/api/resale/update/"+id, approve); code != 409 || !strings.Contains(body["message"].(string), "aprovada") {
		t.Errorf("approve again by another person: %d %v", code, body)
	}
	if code, body := rep.call("PATCH", "/api/resale/update/"+id, map[string]any{"status": "disapproved", "reason": " "}); code != 400 {
		t.Errorf("a refusal without a reason after the approval: %d %v, want 400", code, body)
	}
	if code, _ := rep.call("PATCH", "/api/resale/update/"+id, map[string]any{"status": "disapproved", "reason": "tarde"}); code != 409 {
		t.Errorf("refuse after approval: %d", code)
	}
	// The RESALE user: the contact's data, tied to the company, no password yet.
	var userID, name, phone, hash string
	var active bool
	err := ps.db.QueryRow(context.Background(), `SELECT u.id::text, u.name, u.phone, u.password_hash, u.active FROM users u
		JOIN user_roles r ON r.user_id = u.id AND r.role = 'RESALE' AND r.brand = 'nordata'
		WHERE u.email = 'aprovada@revenda.com.br' AND u.resale_id = $1`, id).Scan(&userID, &name, &phone, &hash, &active)
	if err != nil || name != "Carla Dias" || phone != "11987654321" || hash != "" || !active {
		t.Fatalf("resale user: %v %q %q %q %v", err, name, phone, hash, active)
	}
	if n := count(t, ps, `SELECT count(*) FROM history WHERE type = 'resale' AND type_id = $1`, id); n != 2 {
		t.Errorf("resale history rows: %d", n)
	}
	if n := count(t, ps, `SELECT count(*) FROM history WHERE type = 'user' AND type_id = $1 AND action_type = 'create'`, userID); n != 1 {
		t.Errorf("user history rows: %d", n)
	}
	// The welcome e-mail's link sets the password once; then the company signs in.
	m := ps.mail("aprovada@revenda.com.br", "resale/"+id+"/approved-mail")
	if !strings.Contains(strings.Join(m.Links, " "), "http://nordata.localhost:5173/reset-password?token=") {
		t.Errorf("link host: %v", m.Links)
	}
	token := ps.tokenOf(m)
	if code := ps.loginWith("aprovada@revenda.com.br", "Oportuna@2026", "nordata"); code != 401 {
		t.Errorf("login before the password: %d", code)
	}
	if code, body := ps.setPassword(token, "Oportuna@2026"); code != 200 {
		t.Fatalf("set password: %d %v", code, body)
	}
	if code, body := ps.setPassword(token, "Outra@2026x"); code != 400 || body["message"] != auth.ErrResetInvalid.Error() {
		t.Errorf("token reused: %d %v", code, body)
	}
	if n := count(t, ps, `SELECT count(*) FROM password_resets WHERE user_id = $1 AND purpose = 'invite' AND expires_at > now() + interval '6 days'`, userID); n != 1 {
		t.Errorf("invitation tokens lasting a week: %d", n)
	}
	if code := ps.loginWith("aprovada@revenda.com.br", "Oportuna@2026", "yep"); code != 401 {
		t.Errorf("login at another brand: %d", code)
	}
	owner := ps.login("aprovada@revenda.com.br", "nordata")
	if code, body := owner.call("GET", "/api/resale/"+id, nil); code != 200 || body["data"].(map[string]any)["status"] != "approved" {
		t.Errorf("the company reads itself: %d %v", code, body)
	}
	ps.waitFor("the welcome notice", `SELECT EXISTS (SELECT 1 FROM notifications WHERE user_id = $1 AND kind = 'resale-approved')`, userID)
	if _, body := owner.call("GET", "/api/notifications", nil); body["unread"] != 1.0 {
		t.Errorf("new user's bell: %v", body)
	}
	// History: the company's for staff and itself; not another company's user.
	if code, body := rep.call("GET", "/api/history/getByTypeId?typeId="+id, nil); code != 200 || body["total"] != 2.0 {
		t.Errorf("history as representative: %d %v", code, body)
	}
	if code, _ := owner.call("GET", "/api/history/getByTypeId?typeId="+id, nil); code != 200 {
		t.Errorf("history as the company: %d", code)
	}
	if code, _ := resale.call("GET", "/api/history/getByTypeId?typeId="+id, nil); code != 403 {
		t.Errorf("history as another company: %d", code)
	}
	if code, _ := yepRep.call("GET", "/api/history/getByTypeId?typeId="+id, nil); code != 404 {
		t.Errorf("history as another brand: %d", code)
	}
	// The run ended with the decision.
	run := ps.tc.GetWorkflow(context.Background(), workflows.ResaleWorkflowID(id), "")
	var st workflows.ResaleState
	if err := run.Get(context.Background(), &st); err != nil || st.Status != "approved" || st.UserID != userID {
		t.Errorf("workflow result %+v %v", st, err)
	}
}

func TestResaleRefusalIsMailedWithTheReason(t *testing.T) {
	ps := newPartnerStack(t)
	id := ps.signUp("reprovada@revenda.com.br", "11444777000161", "nordata")
	sup := ps.login("suporte@nordata.demo", "nordata")
	// The reason is at most MaxResaleReason characters (not bytes: 'ç' is two).
	prefix := "CNPJ sem atividade comercial. "
	reason := prefix + strings.Repeat("ç", MaxResaleReason-utf8.RuneCountInString(prefix))
	code, body := sup.call("PATCH", "/api/resale/update/"+id, map[string]any{"status": "disapproved", "reason": reason + "ç"})
	if code != 400 || body["message"] != MsgResaleReasonLong {
		t.Fatalf("reason over %d characters: %d %v", MaxResaleReason, code, body)
	}
	if _, body := sup.call("GET", "/api/resale/"+id, nil); body["data"].(map[string]any)["status"] != "analysis" {
		t.Fatalf("a refused refusal changed the company: %v", body)
	}
	// Submitted twice at once (a double click, a retry racing the first): both
	// answer the refusal, which is taken once (one history row).
	type answer struct {
		code int
		body map[string]any
	}
	answers := make(chan answer, 2)
	for range 2 {
		go func() {
			a := answer{code: -1}
			defer func() { answers <- a }() // also when call fails the test (Goexit)
			a.code, a.body = sup.call("PATCH", "/api/resale/update/"+id, map[string]any{"status": "disapproved", "reason": reason})
		}()
	}
	for range 2 {
		if a := <-answers; a.code != 200 || a.body["message"] != MsgResaleDisapproved {
			t.Errorf("refuse: %d %v", a.code, a.body)
		}
	}
	if n := count(t, ps, `SELECT count(*) FROM history WHERE type = 'resale' AND type_id = $1 AND action_type = 'update'`, id); n != 1 {
		t.Errorf("%d decision rows in the history, want 1", n)
	}
	_, body = sup.call("GET", "/api/resale/"+id, nil)
	if d := body["data"].(map[string]any); d["status"] != "disapproved" || d["reason"] != reason {
		t.Errorf("refused company %v", d)
	}
	m := ps.mail("reprovada@revenda.com.br", "resale/"+id+"/disapproved-mail")
	if !strings.Contains(m.Text, "CNPJ sem atividade comercial") {
		t.Errorf("refusal e-mail text: %s", m.Text)
	}
	if n := count(t, ps, `SELECT count(*) FROM users WHERE lower(email) = 'reprovada@revenda.com.br'`); n != 0 {
		t.Errorf("a refused company got a user")
	}
	if code, _ := sup.call("PATCH", "/api/resale/update/"+id, map[string]any{"status": "approved"}); code != 409 {
		t.Errorf("approve after refusal: %d", code)
	}
	var decidedBy string
	_ = ps.db.QueryRow(context.Background(), `SELECT decided_by::text FROM resales WHERE id = $1`, id).Scan(&decidedBy)
	if decidedBy == "" {
		t.Error("who decided is not recorded")
	}
}

func TestResaleDecisionAdoptsACompanyWithoutWorkflow(t *testing.T) {
	ps := newPartnerStack(t)
	var id string
	if err := ps.db.QueryRow(context.Background(), `INSERT INTO resales (brand, corporate_name, cnpj, email, contact_name, phone)
		VALUES ('nordata', 'Antiga Ltda', '11444777000161', 'antiga@revenda.com.br', 'Otto', '11987650000') RETURNING id::text`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	rep := ps.login("representante@nordata.demo", "nordata")
	if code, body := rep.call("PATCH", "/api/resale/update/"+id, map[string]any{"status": "approved"}); code != 201 {
		t.Fatalf("approve: %d %v", code, body)
	}
	ps.mail("antiga@revenda.com.br", "resale/"+id+"/approved-mail")
}

func TestHugePageNumbersAreRefusedNotOverflowed(t *testing.T) {
	ps := newPartnerStack(t)
	rep := ps.login("representante@nordata.demo", "nordata")
	resale := ps.login("revenda@nordata.demo", "nordata")
	const tooLarge = "Parâmetro page inválido: a página pedida é grande demais."
	for _, c := range []struct {
		s    *session
		path string
	}{{rep, "/api/resale/all"}, {resale, "/api/seller/all"}} {
		for _, q := range []struct {
			query string
			code  int
		}{
			// (page-1)*amount wraps around to a negative OFFSET.
			{"amount=10&page=9223372036854775807", 400},
			{"amount=99999&page=92233720368548", 400},
			// The last page whose offset fits in math.MaxInt32 (21475*99999), and the next.
			{"amount=99999&page=21476", 200},
			{"amount=99999&page=21477", 400},
			{"page=214748365", 200},
			{"page=214748366", 400},
		} {
			code, body := c.s.call("GET", c.path+"?"+q.query, nil)
			if code != q.code {
				t.Errorf("%s?%s: %d %v, want %d", c.path, q.query, code, body, q.code)
				continue
			}
			if code == 400 && body["message"] != tooLarge {
				t.Errorf("%s?%s: message %v", c.path, q.query, body["message"])
			}
			if code == 200 && (len(body["result"].([]any)) != 0 || body["total"] == 0.0) {
				t.Errorf("%s?%s: a page past the end: %v", c.path, q.query, body)
			}
		}
	}
}
