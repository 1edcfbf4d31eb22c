package api

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"oportuna/workflows"
)

// idOf reads a user's id by e-mail.
func (st *stack) idOf(email string) string {
	st.t.Helper()
	var id string
	if err := st.db.QueryRow(context.Background(), `SELECT id::text FROM users WHERE lower(email) = lower($1)`, email).Scan(&id); err != nil {
		st.t.Fatal(err)
	}
	return id
}

// repIDs reads the ids of a record's or a list row's representative list.
func repIDs(v any) []string {
	var ids []string
	list, _ := v.([]any)
	for _, r := range list {
		ids = append(ids, fmt.Sprint(r.(map[string]any)["id"]))
	}
	return ids
}

// TestCoverageIsListedEditedAndLoggedForStaffOnly: 'Cobertura' lists the
// brand's representatives with the demo coverage; an edit normalises the UFs,
// names a reseller account, is logged in the coverage history; an unknown UF,
// a user who is not a representative of the brand and another brand's reseller
// are refused with pt-BR 400s; resale and seller get 403.
func TestCoverageIsListedEditedAndLoggedForStaffOnly(t *testing.T) {
	st := newStack(t)
	rep := st.login("representante@nordata.demo", "nordata")
	sup := st.login("suporte@nordata.demo", "nordata")
	rep2ID := st.idOf("representante2@nordata.demo")

	code, body := rep.call("GET", "/api/coverage", nil)
	if code != 200 {
		t.Fatalf("coverage: %d %v", code, body)
	}
	states := map[string][]any{}
	for _, r := range body["representatives"].([]any) {
		e := r.(map[string]any)
		states[e["email"].(string)] = e["states"].([]any)
	}
	if len(states) != 3 || len(states["representante@nordata.demo"]) != 7 || len(states["representante2@nordata.demo"]) != 20 ||
		len(states["multi@nordata.demo"]) != 0 || len(body["states"].([]any)) != 27 {
		t.Fatalf("demo coverage: %v", states)
	}
	resale := body["resales"].([]any)[0].(map[string]any)["id"].(string)

	code, body = sup.call("PUT", "/api/coverage/"+rep2ID, map[string]any{"states": []string{"sp", "AM", "SP"}, "resaleIds": []string{resale}})
	if code != 200 || body["message"] != MsgCoverageSaved {
		t.Fatalf("edit: %d %v", code, body)
	}
	e := body["data"].(map[string]any)
	if fmt.Sprint(e["states"]) != "[AM SP]" || len(e["resales"].([]any)) != 1 {
		t.Errorf("saved %v", e)
	}
	code, body = rep.call("GET", "/api/coverage/history", nil)
	rows, _ := body["result"].([]any)
	if code != 200 || len(rows) != 1 {
		t.Fatalf("history: %d %v", code, body)
	}
	h := rows[0].(map[string]any)
	if h["representativeId"] != rep2ID || h["username"] != "Sérgio Costa" || len(h["modifications"].([]any)) != 2 {
		t.Errorf("history row %v", h)
	}
	// The same coverage again changes nothing and logs nothing.
	if code, _ := sup.call("PUT", "/api/coverage/"+rep2ID, map[string]any{"states": []string{"AM", "SP"}, "resaleIds": []string{resale}}); code != 200 {
		t.Errorf("same coverage: %d", code)
	}
	if _, body := rep.call("GET", "/api/coverage/history", nil); len(body["result"].([]any)) != 1 {
		t.Errorf("an unchanged coverage was logged: %v", body["result"])
	}

	yepResale := ""
	_ = st.db.QueryRow(context.Background(), `SELECT id::text FROM resales WHERE brand = 'yep' LIMIT 1`).Scan(&yepResale)
	for name, tc := range map[string]struct {
		user string
		body map[string]any
		want string
	}{
		"unknown UF":         {rep2ID, map[string]any{"states": []string{"SP", "XX"}}, fmt.Sprintf(MsgCoverageUFUnknown, "XX")},
		"not a rep":          {st.idOf("vendedor1@nordata.demo"), map[string]any{"states": []string{"SP"}}, MsgNotRepresentative},
		"other brand's rep":  {st.idOf("representante@yep.demo"), map[string]any{"states": []string{"SP"}}, MsgNotRepresentative},
		"other brand resale": {rep2ID, map[string]any{"states": []string{"SP"}, "resaleIds": []string{yepResale}}, MsgResaleNotOfBrand},
	} {
		if code, body := rep.call("PUT", "/api/coverage/"+tc.user, tc.body); code != 400 || body["message"] != tc.want {
			t.Errorf("%s: %d %v, want 400 %q", name, code, body, tc.want)
		}
	}
	for _, who := range []string{"revenda@nordata.demo", "vendedor1@nordata.demo"} {
		s := st.login(who, "nordata")
		if code, _ := s.call("GET", "/api/coverage", nil); code != 403 {
			t.Errorf("%s GET: %d, want 403", who, code)
		}
		if code, _ := s.call("PUT", "/api/coverage/"+rep2ID, map[string]any{"states": []string{"SP"}}); code != 403 {
			t.Errorf("%s PUT: %d, want 403", who, code)
		}
	}
}

// TestARegistrationIsRoutedListedAsMineAndReassigned: a customer in SP goes to
// representante@ (the seed's Southeast and South): GET by id and the list show
// it as representative; 'Minhas' (mine=true) lists it for representante@ and
// not for representante2@; support reassigns it to representante2@ with a
// reason, and then the filters follow. A reassignment to a user who is not a
// representative of the brand, or without a reason, is a 400; a seller's is a 403.
func TestARegistrationIsRoutedListedAsMineAndReassigned(t *testing.T) {
	st := newStack(t)
	seller := st.login("vendedor1@nordata.demo", "nordata")
	rep := st.login("representante@nordata.demo", "nordata")
	rep2 := st.login("representante2@nordata.demo", "nordata")
	sup := st.login("suporte@nordata.demo", "nordata")
	repID, rep2ID := st.idOf("representante@nordata.demo"), st.idOf("representante2@nordata.demo")
	id := seller.create("11222333000181", "")

	code, body := rep.call("GET", "/api/opportunity/id/"+id, nil)
	if code != 200 {
		t.Fatalf("get: %d %v", code, body)
	}
	got := body["data"].([]any)[0].(map[string]any)["representative"]
	if !slices.Equal(repIDs(got), []string{repID}) || got.([]any)[0].(map[string]any)["email"] != "representante@nordata.demo" {
		t.Fatalf("representative %v, want representante@", got)
	}
	mine := func(s *session) []string {
		t.Helper()
		code, body := s.call("GET", "/api/opportunity/all?mine=true", nil)
		if code != 200 {
			t.Fatalf("mine: %d %v", code, body)
		}
		var ids []string
		for _, r := range body["result"].([]any) {
			row := r.(map[string]any)
			ids = append(ids, row["id"].(string))
			if row["id"] == id && len(repIDs(row["representative"])) != 1 {
				t.Errorf("list row representative %v", row["representative"])
			}
		}
		return ids
	}
	if !slices.Contains(mine(rep), id) || slices.Contains(mine(rep2), id) {
		t.Errorf("'Minhas' before the reassignment: rep %v rep2 %v", mine(rep), mine(rep2))
	}
	if code, body := rep.call("GET", "/api/opportunity/all?mine=talvez", nil); code != 400 {
		t.Errorf("mine=talvez: %d %v", code, body)
	}

	reassign := func(s *session, ids []string, reason string) (int, map[string]any) {
		return s.call("POST", "/api/opportunity/"+id+"/reassign", map[string]any{"representativeIds": ids, "reason": reason})
	}
	if code, body := reassign(sup, []string{st.idOf("vendedor2@nordata.demo")}, "x"); code != 400 || body["message"] != MsgReassignNotOfBrand {
		t.Errorf("to a seller: %d %v", code, body)
	}
	if code, body := reassign(sup, []string{st.idOf("representante@yep.demo")}, "x"); code != 400 || body["message"] != MsgReassignNotOfBrand {
		t.Errorf("to another brand's representative: %d %v", code, body)
	}
	if code, body := reassign(sup, []string{rep2ID}, " "); code != 400 || body["message"] != workflows.MsgReassignReason {
		t.Errorf("without a reason: %d %v", code, body)
	}
	if code, _ := reassign(seller, []string{rep2ID}, "x"); code != 403 {
		t.Errorf("seller: %d, want 403", code)
	}
	code, body = reassign(sup, []string{rep2ID}, "Cliente da regional Norte")
	if code != 200 || body["message"] != MsgReassigned || !slices.Equal(repIDs(body["data"].(map[string]any)["representative"]), []string{rep2ID}) {
		t.Fatalf("reassign: %d %v", code, body)
	}
	if slices.Contains(mine(rep), id) || !slices.Contains(mine(rep2), id) {
		t.Errorf("'Minhas' after the reassignment: rep %v rep2 %v", mine(rep), mine(rep2))
	}
	if code, body := reassign(rep2, []string{rep2ID}, "de novo"); code != 400 || body["message"] != workflows.MsgReassignSame {
		t.Errorf("the same again: %d %v", code, body)
	}
	var reason string
	if err := st.db.QueryRow(context.Background(), `SELECT m->>'newValue' FROM history h, jsonb_array_elements(h.modifications) m
		WHERE h.type_id = $1 AND m->>'attribute' = 'reassignReason'`, id).Scan(&reason); err != nil || reason != "Cliente da regional Norte" {
		t.Errorf("history reason %q (%v)", reason, err)
	}
	// The history screen names the representatives the workflow recorded by id.
	var rep2Name string
	if err := st.db.QueryRow(context.Background(), `SELECT name FROM users WHERE id = $1`, rep2ID).Scan(&rep2Name); err != nil {
		t.Fatal(err)
	}
	code, body = sup.call("GET", "/api/history/getByTypeId?typeId="+id, nil)
	if code != 200 {
		t.Fatalf("history: %d %v", code, body)
	}
	var shown []string
	for _, row := range body["result"].([]any) {
		mods, _ := row.(map[string]any)["modifications"].([]any)
		for _, m := range mods {
			if m := m.(map[string]any); m["attribute"] == "representative" {
				shown = append(shown, fmt.Sprint(m["newValue"]))
			}
		}
	}
	if !slices.Contains(shown, rep2Name) {
		t.Errorf("the reassignment's representatives in the history: %q, want %q", shown, rep2Name)
	}
}
