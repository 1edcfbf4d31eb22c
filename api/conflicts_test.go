package api

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"oportuna/auth"
	"oportuna/internal/testenv/cnpjtest"
)

// addOtherReseller adds a second reseller company to nordata, Aurora, with
// its RESALE user (olga@aurora-dist.com.br).
func addOtherReseller(t *testing.T, st *stack) {
	t.Helper()
	ctx := context.Background()
	var id string
	if err := st.db.QueryRow(ctx, `INSERT INTO resales (brand, status, corporate_name, fantasy_name, cnpj, email)
		VALUES ('nordata', 'approved', 'Aurora Distribuição Ltda', 'Aurora', '22333444000181', 'contato@aurora-dist.com.br') RETURNING id::text`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	hash, _ := auth.HashPassword("Oportuna@2026")
	if _, err := st.db.Exec(ctx, `WITH u AS (INSERT INTO users (name, email, password_hash, resale_id) VALUES ('Olga Aurora', 'olga@aurora-dist.com.br', $1, $2) RETURNING id)
		INSERT INTO user_roles (user_id, role, brand) SELECT id, 'RESALE', 'nordata' FROM u`, hash, id); err != nil {
		t.Fatal(err)
	}
}

// otherReseller adds Aurora (addOtherReseller) and answers Olga's session.
func otherReseller(t *testing.T, st *stack) *session {
	t.Helper()
	addOtherReseller(t, st)
	return st.login("olga@aurora-dist.com.br", "nordata")
}

// register creates an opportunity of the customer doc with the company name corporate.
func (s *session) register(doc, corporate string) string {
	s.st.t.Helper()
	body := createBody(doc)
	body["corporateName"], body["company"] = corporate, s.company
	code, res := s.call("POST", "/api/opportunity/create", body)
	if code != 200 {
		s.st.t.Fatalf("create %s: %d %v", doc, code, res)
	}
	return res["data"].(map[string]any)["id"].(string)
}

// details reads GET /opportunity/id/{id} as the session: the record and the raw body.
func (s *session) details(id string) (map[string]any, string) {
	s.st.t.Helper()
	res := s.send("GET", "/api/opportunity/id/"+id, nil, nil)
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var body struct{ Data []map[string]any }
	if err := json.Unmarshal(raw, &body); err != nil || res.StatusCode != 200 || len(body.Data) != 1 {
		s.st.t.Fatalf("GET %s: %d %s", id, res.StatusCode, raw)
	}
	return body.Data[0], string(raw)
}

// conflictKinds maps each listed conflict's id to its kind.
func conflictKinds(rec map[string]any) map[string]string {
	out := map[string]string{}
	for _, c := range rec["conflicts"].([]any) {
		m := c.(map[string]any)
		out[m["id"].(string)] = m["kind"].(string)
	}
	return out
}

// TestConflictsByCNPJRootAndNameAreListedForStaffOnly: the same CNPJ, the
// same root (head office and branch, numeric and alphanumeric) and the same
// normalised company name are conflicts within the brand, listed with their
// facts for the representative and support; a reseller or a seller learns
// only that one exists, never the other reseller's name or values; another
// brand's registration is no conflict; a refused one drops out.
func TestConflictsByCNPJRootAndNameAreListedForStaffOnly(t *testing.T) {
	st := newStack(t)
	resale := st.login("revenda@nordata.demo", "nordata")
	seller := st.login("vendedor1@nordata.demo", "nordata")
	rep := st.login("representante@nordata.demo", "nordata")
	sup := st.login("suporte@nordata.demo", "nordata")
	olga := otherReseller(t, st)
	yepSeller := st.login("vendedor1@yep.demo", "yep")
	yepRep := st.login("representante@yep.demo", "yep")

	a := resale.register("11.444.777/0001-61", "Comércio Boa Vista Ltda")
	b := olga.register("11.444.777/0002-42", "Distribuidora Norte S.A.")           // same root as a
	c := olga.register("11444777000161", "Outra Razão EIRELI")                     // same CNPJ as a
	d := seller.register("11222333000181", "COMERCIO BOA-VISTA S/A")               // same name as a
	e := resale.register("12.ABC.345/01DE-35", "Alfa Numérica Ltda")               // alphanumeric root
	f := olga.register(cnpjtest.Complete("12ABC3450002"), "Beta Comércio ME")      // same alphanumeric root as e
	g := yepSeller.register("11.444.777/0001-61", "Comércio Boa Vista Ltda")       // another brand
	olga.register(cnpjtest.Complete("99888777"+"0001"), "Sem Relação Alguma Ltda") // no conflict

	recA, _ := rep.details(a)
	if got := conflictKinds(recA); len(got) != 3 || got[b] != "cnpj_root" || got[c] != "cnpj" || got[d] != "name" {
		t.Errorf("conflicts of a: %v, want b by root, c by CNPJ, d by name", got)
	}
	if recA["hasConflicts"] != true {
		t.Errorf("hasConflicts of a: %v", recA["hasConflicts"])
	}
	first := recA["conflicts"].([]any)[0].(map[string]any)
	if first["id"] != b || first["cnpj"] != "11444777000242" || first["corporateName"] != "Distribuidora Norte S.A." ||
		first["resale"] != "Aurora Distribuição Ltda" || first["status"] != "analysis" || first["estimated"] != 2000.0 || first["createdAt"] == nil {
		t.Errorf("first conflict of a (oldest first): %v", first)
	}
	if recSup, _ := sup.details(a); len(conflictKinds(recSup)) != 3 {
		t.Errorf("support sees conflicts %v", recSup["conflicts"])
	}
	if recB, _ := rep.details(b); conflictKinds(recB)[a] != "cnpj_root" {
		t.Errorf("b sees a (registered before it) as %v", conflictKinds(recB))
	}
	if recE, _ := rep.details(e); len(conflictKinds(recE)) != 1 || conflictKinds(recE)[f] != "cnpj_root" {
		t.Errorf("conflicts of the alphanumeric e: %v, want f by root", conflictKinds(recE))
	}
	if recG, _ := yepRep.details(g); len(conflictKinds(recG)) != 0 || recG["hasConflicts"] != false {
		t.Errorf("another brand's registration conflicts: %v", recG["conflicts"])
	}

	// A reseller or a seller: whether there is a conflict, nothing of it.
	for _, v := range []struct {
		who    *session
		id     string
		hidden []string
	}{
		{resale, a, []string{"Aurora", "Distribuidora Norte", "11444777000242", b, c}},
		{seller, d, []string{"Aurora", a, "Comércio Boa Vista"}},
		{olga, b, []string{"Modelo Nordata", "Comércio Boa Vista", a, d}},
	} {
		rec, raw := v.who.details(v.id)
		if rec["hasConflicts"] != true || len(rec["conflicts"].([]any)) != 0 {
			t.Errorf("%s sees hasConflicts %v and conflicts %v", v.id, rec["hasConflicts"], rec["conflicts"])
		}
		for _, s := range v.hidden {
			if strings.Contains(raw, s) {
				t.Errorf("the details of %s shown to a partner hold %q", v.id, s)
			}
		}
	}
	for _, v := range []struct {
		who  *session
		path string
	}{{resale, "/api/opportunity/resale"}, {seller, "/api/opportunity/user"}, {olga, "/api/opportunity/resale"}} {
		res := v.who.send("GET", v.path, nil, nil)
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || strings.Contains(string(raw), `"conflicts"`) {
			t.Errorf("%s: %d, conflicts in the list: %s", v.path, res.StatusCode, raw)
		}
	}

	// A refused registration no longer competes.
	if code, body := rep.call("PATCH", "/api/opportunity/"+d, map[string]any{"status": "disapproved", "reason": "Cliente de outra revenda."}); code != 200 {
		t.Fatalf("disapprove d: %d %v", code, body)
	}
	if recA, _ := rep.details(a); len(conflictKinds(recA)) != 2 || conflictKinds(recA)[d] != "" {
		t.Errorf("conflicts of a after refusing d: %v", conflictKinds(recA))
	}
	if recD, _ := seller.details(d); recD["hasConflicts"] != true {
		t.Error("a refused registration still meets the open ones of its customer")
	}
}

// TestTheFirstRegistrationWinsUnlessTheApprovalIsOverridden: approving a
// registration while an earlier one of the same CNPJ root is open answers 409
// naming it (id and status only); a blank or too long reason is 400; with a
// reason it is approved, and both records' histories log the override.
func TestTheFirstRegistrationWinsUnlessTheApprovalIsOverridden(t *testing.T) {
	st := newStack(t)
	resale := st.login("revenda@nordata.demo", "nordata")
	rep := st.login("representante@nordata.demo", "nordata")
	olga := otherReseller(t, st)
	a := resale.register("11.444.777/0001-61", "Comércio Boa Vista Ltda")
	b := olga.register("11.444.777/0002-42", "Distribuidora Norte S.A.")

	code, body := rep.call("PATCH", "/api/opportunity/"+b, map[string]any{"status": "approved", "name": "Projeto Norte"})
	msg, _ := body["message"].(string)
	if code != 409 || body["code"] != "REGISTRATION_CONFLICT" || !strings.Contains(msg, a) || !strings.Contains(msg, "em análise") ||
		strings.Contains(msg, "Boa Vista") || strings.Contains(msg, "Modelo") {
		t.Fatalf("approval of the later registration: %d %v", code, body)
	}
	for reason, want := range map[string]string{"   ": MsgOverrideReasonRequired, strings.Repeat("x", 501): "O motivo para aprovar apesar do conflito deve ter no máximo 500 caracteres."} {
		if code, body := rep.call("PATCH", "/api/opportunity/"+b, map[string]any{"status": "approved", "name": "Projeto Norte", "overrideReason": reason}); code != 400 || body["message"] != want {
			t.Errorf("override reason of %d characters: %d %v", len(reason), code, body)
		}
	}
	if rec, _ := rep.details(b); rec["status"] != "analysis" {
		t.Fatalf("b after the refusals: %v", rec["status"])
	}
	reason := "Cliente confirmou a compra pela Aurora."
	code, body = rep.call("PATCH", "/api/opportunity/"+b, map[string]any{"status": "approved", "name": "Projeto Norte", "overrideReason": "  " + reason + " "})
	if code != 200 || body["data"].(map[string]any)["status"] != "approved" {
		t.Fatalf("approval with an override reason: %d %v", code, body)
	}
	history := func(id string) string {
		res := rep.send("GET", "/api/history/getByTypeId?typeId="+id, nil, nil)
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return string(raw)
	}
	if h := history(b); !strings.Contains(h, `"conflictOverrideReason"`) || !strings.Contains(h, reason) || !strings.Contains(h, a) {
		t.Errorf("b's history does not log the override: %s", h)
	}
	// The earlier registration's line is written after the approval's answer.
	deadline := time.Now().Add(15 * time.Second)
	for h := history(a); !strings.Contains(h, `"conflictOverriddenBy"`) || !strings.Contains(h, reason) || !strings.Contains(h, b); h = history(a) {
		if time.Now().After(deadline) {
			t.Fatalf("a's history does not log the override by %s: %s", b, h)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The earlier registration is approved without a reason: none before it.
	if code, body := rep.call("PATCH", "/api/opportunity/"+a, map[string]any{"status": "approved", "name": "Projeto Boa Vista"}); code != 200 {
		t.Errorf("approval of the first registration: %d %v", code, body)
	}
}
