package api

import (
	"testing"
)

// unreadOf is a user's unread count and the read state of the notices whose
// link is link (true: read).
func unreadOf(t *testing.T, s *session, link string) (int, []bool) {
	t.Helper()
	code, body := s.call("GET", "/api/notifications?limit=100", nil)
	if code != 200 {
		t.Fatalf("bell: %d %v", code, body)
	}
	var read []bool
	for _, n := range body["result"].([]any) {
		m := n.(map[string]any)
		if m["link"] == link {
			read = append(read, m["readAt"] != nil)
		}
	}
	return int(body["unread"].(float64)), read
}

// TestADecisionReadsTheRecordsNoticesForEveryone: once a representative
// approves an opportunity (or decides a company), 'aguardando análise' asks
// nothing of anyone any more: the record's notices are read for every
// representative who got them, and the bell's count drops; the decision's own
// notice to the seller arrives unread.
func TestADecisionReadsTheRecordsNoticesForEveryone(t *testing.T) {
	ps := newPartnerStack(t)
	seller := ps.login("vendedor1@nordata.demo", "nordata")
	rep := ps.login("representante@nordata.demo", "nordata")
	multi := ps.login("multi@nordata.demo", "nordata")

	// multi@ covers SP too: the registration (a customer in SP) is both representatives' (docs/deal-desk.md, "Routing").
	if _, err := ps.db.Exec(t.Context(), `INSERT INTO coverage (brand, user_id, states) SELECT 'nordata', id, '{SP}' FROM users WHERE email = 'multi@nordata.demo'`); err != nil {
		t.Fatal(err)
	}
	id := seller.create("11222333000181", "")
	link := "/Painel/Opportunities/" + id
	ps.waitFor("the representatives' notices", `SELECT count(*) = 2 FROM notifications WHERE notice_key LIKE $1 || '/%' AND kind = 'registered'`, id)
	repBefore, read := unreadOf(t, rep, link)
	if len(read) != 1 || read[0] {
		t.Fatalf("representative's notice of the registration: %v", read)
	}
	multiBefore, _ := unreadOf(t, multi, link)

	approve := map[string]any{"status": "approved", "name": "Projeto Armazém", "probabilityClosing": 50}
	if code, body := rep.call("PATCH", "/api/opportunity/"+id, approve); code != 200 {
		t.Fatalf("approve: %d %v", code, body)
	}
	for who, s := range map[string]*session{"representative who decided": rep, "other representative": multi} {
		before := map[*session]int{rep: repBefore, multi: multiBefore}[s]
		unread, read := unreadOf(t, s, link)
		if len(read) != 1 || !read[0] || unread != before-1 {
			t.Errorf("%s: notice read %v, unread %d (was %d)", who, read, unread, before)
		}
	}
	ps.waitFor("the seller's notice of the approval", `SELECT EXISTS (SELECT 1 FROM notifications WHERE notice_key LIKE $1 || '/%' AND kind = 'approved')`, id)
	if _, read := unreadOf(t, seller, link); len(read) != 1 || read[0] {
		t.Errorf("the seller's notice of the approval: %v, want one unread", read)
	}

	// A company's sign-up, refused: its notices are read for every representative.
	code, body, _ := ps.public("POST", "/api/register/resale", signupBody("decidida@revenda.com.br", "11444777000161", "nordata"))
	if code != 201 {
		t.Fatalf("sign-up: %d %v", code, body)
	}
	ps.waitFor("the representatives' notices", `SELECT count(*) = 3 FROM notifications WHERE kind = 'resale-registered' AND read_at IS NULL`)
	var resaleID string
	if err := ps.db.QueryRow(t.Context(), `SELECT id::text FROM resales WHERE email = 'decidida@revenda.com.br'`).Scan(&resaleID); err != nil {
		t.Fatal(err)
	}
	if code, body := multi.call("PATCH", "/api/resale/update/"+resaleID, map[string]any{"status": "disapproved", "reason": "Fora da região"}); code != 200 {
		t.Fatalf("refuse: %d %v", code, body)
	}
	var unread int
	if err := ps.db.QueryRow(t.Context(), `SELECT count(*) FROM notifications WHERE notice_key LIKE 'resale/' || $1 || '/%' AND read_at IS NULL`,
		resaleID).Scan(&unread); err != nil || unread != 0 {
		t.Errorf("the refused company's notices left unread: %d (%v)", unread, err)
	}
}
