package api

import (
	"net/http"
	"testing"
	"time"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/internal/calendar"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/workflows"
)

// on is the session's caller on another API server (a replica) of the stack.
func (s *session) on(st *stack) *session { return &session{st: st, token: s.token, company: s.company} }

// status reads the opportunity's status as the session sees it.
func (s *session) status(id string) string {
	s.st.t.Helper()
	_, body := s.call("GET", "/api/opportunity/id/"+id, nil)
	rows, _ := body["data"].([]any)
	if len(rows) != 1 {
		s.st.t.Fatalf("opportunity %s: %v", id, body)
	}
	return rows[0].(map[string]any)["status"].(string)
}

// historyCounts counts an opportunity's history rows written by people (not
// the timers' transitions), and among them the renewal requests and the
// approvals (the first and each renewal).
func historyCounts(t *testing.T, st *stack, id string) (rows, requests, approvals int) {
	t.Helper()
	if err := st.db.QueryRow(t.Context(), `SELECT count(*),
			count(*) FILTER (WHERE modifications @> '[{"attribute":"status","newValue":"awaiting_renovation"}]'),
			count(*) FILTER (WHERE modifications @> '[{"attribute":"status","newValue":"approved"}]')
		FROM history WHERE type_id = $1 AND user_id IS NOT NULL`, id).Scan(&rows, &requests, &approvals); err != nil {
		t.Fatal(err)
	}
	return rows, requests, approvals
}

// TestARepeatedCallAnswersItsFirstOutcomeAfterContinueAsNewOnAnyReplica: a
// registration, an edit, an approval, a renewal request and a renewal approval,
// each sent with its Idempotency-Key (and an edit that changed nothing), are sent again with the same keys after
// the renewal's approval continued the workflow as new and the opportunity's
// new validity reached its renewal window again (a renewal request would be
// accepted). Every repetition, on another API replica and on the first,
// answers its first outcome and records nothing: no history row, no second
// renewal request, no second renewal.
func TestARepeatedCallAnswersItsFirstOutcomeAfterContinueAsNewOnAnyReplica(t *testing.T) {
	// Short validity: approved, the renewal window opens after a second.
	st, _ := newStackWith(t, activities.Durations{Validity: 4 * time.Second, RenewalWindow: 3 * time.Second,
		ApprovalSLA: 48 * time.Hour, ExpiredRetention: time.Hour})
	replica := &stack{t: t, srv: st.replica(), db: st.db}
	seller := st.login("vendedor1@nordata.demo", "nordata")
	rep := st.login("representante@nordata.demo", "nordata")
	tc := testenv.TemporalClient(t)

	type call struct {
		who          *session
		method, path string
		body         map[string]any
		key, message string
	}
	id := seller.create("11222333000181", "reg-1")
	first, err := tc.DescribeWorkflowExecution(t.Context(), workflows.OpportunityWorkflowID(id), "")
	if err != nil {
		t.Fatal(err)
	}
	firstRun := first.GetWorkflowExecutionInfo().GetExecution().GetRunId()
	renewal := map[string]any{"reason": "Cliente retomou", "probabilityClosing": 50, "projectStillInScope": "Sim",
		"lastVisitDate": calendar.Date(time.Now()).AddDate(0, 0, -3).Format(time.DateOnly)}
	calls := []call{
		{rep, "PATCH", "/api/opportunity/" + id, map[string]any{"name": "Nome editado"}, "edit-1", MsgUpdated},
		{rep, "PATCH", "/api/opportunity/" + id, map[string]any{"name": "Nome editado"}, "noop-1", MsgUpdated}, // changes nothing
		{rep, "PATCH", "/api/opportunity/" + id, map[string]any{"status": "approved", "name": "Projeto Armazém", "probabilityClosing": 50}, "approve-1", MsgApproved},
		{seller, "PATCH", "/api/opportunity/renovation/" + id + "/request", renewal, "renewal-1", MsgRenewalRequested},
		{rep, "PATCH", "/api/opportunity/renovation/" + id, map[string]any{"status": "approved"}, "decide-1", MsgRenewalApproved},
	}
	for i, c := range calls {
		if i == 3 {
			testenv.WaitFor(t, 30*time.Second, "the renewal window", func() bool { s := seller.status(id); return s == "renovation" || s == "expired" })
		}
		if code, body := c.who.call(c.method, c.path, c.body, "Idempotency-Key", c.key); code != 200 || body["message"] != c.message {
			t.Fatalf("%s: %d %v", c.key, code, body)
		}
	}
	rows, requests, approvals := historyCounts(t, st, id)
	if requests != 1 || approvals != 2 {
		t.Fatalf("before the repetitions: %d renewal requests, %d approvals; want 1 and 2", requests, approvals)
	}
	// The renewal's approval continued the workflow as new; its new validity
	// reaches its renewal window (a new renewal request would be taken).
	testenv.WaitFor(t, 30*time.Second, "a new run in the renewal window", func() bool {
		d, err := tc.DescribeWorkflowExecution(t.Context(), workflows.OpportunityWorkflowID(id), "")
		if err != nil || d.GetWorkflowExecutionInfo().GetExecution().GetRunId() == firstRun {
			return false
		}
		s := seller.status(id)
		return s == "renovation" || s == "expired"
	})

	for _, st := range []*stack{replica, st} {
		for _, c := range calls {
			code, body := c.who.on(st).call(c.method, c.path, c.body, "Idempotency-Key", c.key)
			if code != 200 || body["message"] != c.message {
				t.Errorf("%s repeated: %d %v, want 200 %q", c.key, code, body, c.message)
			} else if got := body["data"].(map[string]any)["id"]; got != id {
				t.Errorf("%s repeated: answered opportunity %v", c.key, got)
			}
		}
		code, body := seller.on(st).call("POST", "/api/opportunity/create", createBody("11222333000181"), "Idempotency-Key", "reg-1")
		if code != 200 || body["message"] != MsgCreated || body["data"].(map[string]any)["id"] != id {
			t.Errorf("registration repeated: %d %v", code, body)
		}
	}
	if r, q, a := historyCounts(t, st, id); r != rows || q != 1 || a != 2 {
		t.Errorf("after the repetitions: %d history rows (%d renewal requests, %d approvals); want %d (1, 2)", r, q, a, rows)
	}
	if name := seller.status(id); name == "" {
		t.Fatal("no status")
	}
	var n int
	if err := st.db.QueryRow(t.Context(), `SELECT count(*) FROM opportunities WHERE id <> $1`, id).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d other opportunities registered (%v)", n, err)
	}
}

// TestAKeyIsOneRequest: a key reused by its caller for another action or
// another opportunity is refused with 422 and changes nothing; a refusal
// repeated after its workflow ended answers its first outcome; another
// caller's use of the same key is its own.
func TestAKeyIsOneRequest(t *testing.T) {
	st := newStack(t)
	seller := st.login("vendedor1@nordata.demo", "nordata")
	rep := st.login("representante@nordata.demo", "nordata")
	multi := st.login("multi@nordata.demo", "nordata") // another representative
	one, two := seller.create("11222333000181", "c-1"), seller.create("11444777000161", "c-2")
	refuse := map[string]any{"status": "disapproved", "reason": "Sem orçamento"}
	if code, body := rep.call("PATCH", "/api/opportunity/"+one, refuse, "Idempotency-Key", "k-1"); code != 200 || body["message"] != MsgDisapproved {
		t.Fatalf("disapprove: %d %v", code, body)
	}
	tc := testenv.TemporalClient(t)
	if err := tc.GetWorkflow(t.Context(), workflows.OpportunityWorkflowID(one), "").Get(t.Context(), nil); err != nil {
		t.Fatalf("the refused opportunity's workflow: %v", err)
	}
	if code, body := rep.call("PATCH", "/api/opportunity/"+one, refuse, "Idempotency-Key", "k-1"); code != 200 || body["message"] != MsgDisapproved {
		t.Errorf("the refusal repeated after its workflow ended: %d %v", code, body)
	}
	approve := map[string]any{"status": "approved", "name": "Projeto", "probabilityClosing": 50}
	for what, c := range map[string]struct {
		id   string
		body map[string]any
	}{
		"another opportunity": {two, approve},
		"another action":      {one, map[string]any{"name": "Outro nome"}},
		"another route":       {two, nil},
	} {
		var code int
		var body map[string]any
		if c.body == nil {
			code, body = rep.call("PATCH", "/api/opportunity", map[string]any{"id": c.id, "probabilityClosing": 75}, "Idempotency-Key", "k-1")
		} else {
			code, body = rep.call("PATCH", "/api/opportunity/"+c.id, c.body, "Idempotency-Key", "k-1")
		}
		if code != http.StatusUnprocessableEntity || body["message"] != MsgKeyReused {
			t.Errorf("the key reused for %s: %d %v, want 422 %q", what, code, body, MsgKeyReused)
		}
	}
	if s := rep.status(two); s != "analysis" {
		t.Errorf("the reused key changed the other opportunity: %s", s)
	}
	// Another caller's key of the same text is another key.
	if code, body := multi.call("PATCH", "/api/opportunity/"+two, map[string]any{"name": "Outro representante"}, "Idempotency-Key", "k-1"); code != 200 || body["message"] != MsgUpdated {
		t.Errorf("another caller's key: %d %v, want 200 %q", code, body, MsgUpdated)
	}

}

// TestIdempotencyKeysArePrunedAfterADay: the pruning job deletes the keys
// written more than a day ago and keeps the others.
func TestIdempotencyKeysArePrunedAfterADay(t *testing.T) {
	db := testenv.DB(t)
	ctx := t.Context()
	now := time.Now()
	user := opportunity.NewID()
	for key, age := range map[string]time.Duration{"old": 25 * time.Hour, "young": 23 * time.Hour} {
		if _, err := db.Exec(ctx, `INSERT INTO idempotency_keys (user_id, key, opportunity_id, action, status, message, created_at)
			VALUES ($1, $2, $3, 'approve', 200, 'ok', $4)`, user, key, opportunity.NewID(), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	p, err := auth.Prune(ctx, db, now)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	rows, _ := db.Query(ctx, `SELECT key FROM idempotency_keys`)
	for rows.Next() {
		var k string
		_ = rows.Scan(&k)
		left = append(left, k)
	}
	if p.IdempotencyKeys != 1 || len(left) != 1 || left[0] != "young" {
		t.Errorf("pruned %d, left %v; want 1 and [young]", p.IdempotencyKeys, left)
	}
}
