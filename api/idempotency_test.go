package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

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

// TestADecisionItsWorkflowLostIsTakenWhenRepeated: an approval is written to
// the read model, with its Idempotency-Key, by the workflow task that runs it
// (a local activity); when that task is lost with the Temporal history
// service that ran it (killed before the task completed), the read model says
// approved and the workflow is still in analysis. The client's repeat, same
// key, must not be answered from the key alone: the workflow takes the
// approval it missed, recording it once (its write is a retry of the event).
// loseADecision registers an opportunity and writes what a lost workflow task
// of an approval under the representative's key "approve-lost" leaves: the
// read model approved under the key, the workflow still in analysis. It
// returns the opportunity's id, its name and probability as approved, and a
// reader of the workflow's state.
func loseADecision(t *testing.T, st *stack) (id, name string, prob int, state func() workflows.OpportunityState) {
	t.Helper()
	ctx := t.Context()
	seller := st.login("vendedor1@nordata.demo", "nordata")
	tc := testenv.TemporalClient(t)
	code, body := seller.call("POST", "/api/opportunity/create", createBody("11222333000181"), "Idempotency-Key", "reg-lost")
	if code != 200 {
		t.Fatalf("create: %d %v", code, body)
	}
	id = body["data"].(map[string]any)["id"].(string)
	state = func() workflows.OpportunityState {
		t.Helper()
		v, err := tc.QueryWorkflow(ctx, workflows.OpportunityWorkflowID(id), "", workflows.QueryState)
		var s workflows.OpportunityState
		if err == nil {
			err = v.Get(&s)
		}
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := state()
	// What the lost workflow task wrote: the workflow's next event, the approval, with the call's key.
	var actor opportunity.Actor
	if err := st.db.QueryRow(ctx, `SELECT id::text, name FROM users WHERE email = 'representante@nordata.demo'`).Scan(&actor.UserID, &actor.Name); err != nil {
		t.Fatal(err)
	}
	actor.Roles = []auth.Role{auth.Representative}
	name, prob = "Projeto Armazém", 50
	now := time.Now()
	valid := now.Add(2160 * time.Hour)
	ev := opportunity.Event{Key: fmt.Sprintf("%s/%d/%d", id, before.Cycle, before.Seq+1), OpportunityID: id, Brand: "nordata",
		Actor: &actor, Status: opportunity.Approved, Name: &name, Probability: &prob, ApprovedAt: &now, ValidUntil: &valid, At: now,
		Changes: []opportunity.Change{{Attribute: "status", OldValue: "analysis", NewValue: "approved"},
			{Attribute: "name", OldValue: before.Name, NewValue: name},
			{Attribute: "probabilityClosing", OldValue: fmt.Sprint(before.Probability), NewValue: fmt.Sprint(prob)}},
		Idem: &opportunity.IdempotencyKey{UserID: actor.UserID, Key: opportunity.DerivedID(actor.UserID + "/approve-lost"),
			Action: actionApprove, Status: http.StatusOK, Message: MsgApproved}}
	if _, err := (&activities.Activities{DB: st.db}).Apply(ctx, ev); err != nil {
		t.Fatal(err)
	}
	if s := state(); s.Status != opportunity.Analysis {
		t.Fatalf("the workflow is %s before the repeat, want analysis", s.Status)
	}
	return id, name, prob, state
}

func TestADecisionItsWorkflowLostIsTakenWhenRepeated(t *testing.T) {
	st := newStack(t)
	rep := st.login("representante@nordata.demo", "nordata")
	id, name, prob, state := loseADecision(t, st)

	code, body := rep.call("PATCH", "/api/opportunity/"+id, map[string]any{"status": "approved", "name": name, "probabilityClosing": prob},
		"Idempotency-Key", "approve-lost")
	if code != 200 || body["message"] != MsgApproved {
		t.Fatalf("repeated approval: %d %v", code, body)
	}
	if s := state(); s.Status != opportunity.Approved || s.Name != name || s.Register == "" {
		t.Errorf("after the repeat the workflow is %s (name %q, CRM %q), want approved as the read model", s.Status, s.Name, s.Register)
	}
	if _, _, approvals := historyCounts(t, st, id); approvals != 1 {
		t.Errorf("%d approval rows, want 1", approvals)
	}
}

// A decision whose update failed but whose key is recorded (answerRepeatAfterFailure):
// while the workflow is behind the read model, or the read model cannot be read,
// the client is asked to try again (503) rather than told the decision was taken;
// once the workflow has it, the first outcome; a key of another call, 422.
func TestARepeatAfterAFailedUpdateAnswersOnlyWhatTheWorkflowHas(t *testing.T) {
	st := newStack(t)
	rep := st.login("representante@nordata.demo", "nordata")
	id, name, prob, state := loseADecision(t, st)
	var actorID string
	if err := st.db.QueryRow(t.Context(), `SELECT id::text FROM users WHERE email = 'representante@nordata.demo'`).Scan(&actorID); err != nil {
		t.Fatal(err)
	}
	srv := &Server{DB: st.db, Temporal: testenv.TemporalClient(t)}
	call := func(s *Server, key, oppID string) (int, map[string]any) {
		t.Helper()
		k := &idemCall{rec: opportunity.IdempotencyKey{UserID: actorID, Key: opportunity.DerivedID(actorID + "/" + key), Action: actionApprove}}
		if err := s.lookupKey(t.Context(), k); err != nil || !k.found {
			t.Fatalf("the key %q is not recorded: %v", key, err)
		}
		w := httptest.NewRecorder()
		if !s.answerRepeatAfterFailure(w, httptest.NewRequest("PATCH", "/api/opportunity/"+oppID, nil), k, oppID, opportunity.Record{ID: oppID}) {
			t.Fatal("answerRepeatAfterFailure did not answer")
		}
		var body map[string]any
		_ = json.Unmarshal(w.Body.Bytes(), &body)
		return w.Code, body
	}

	if code, body := call(srv, "approve-lost", id); code != http.StatusServiceUnavailable {
		t.Errorf("workflow behind its read model: %d %v, want 503", code, body)
	}
	if code, body := call(srv, "approve-lost", "00000000-0000-0000-0000-000000000000"); code != http.StatusUnprocessableEntity {
		t.Errorf("the key of another opportunity: %d %v, want 422", code, body)
	}

	// The repeat through the API runs the decision again: the workflow has it now.
	if code, body := rep.call("PATCH", "/api/opportunity/"+id, map[string]any{"status": "approved", "name": name, "probabilityClosing": prob},
		"Idempotency-Key", "approve-lost"); code != 200 {
		t.Fatalf("repeated approval: %d %v", code, body)
	}
	if s := state(); s.Status != opportunity.Approved {
		t.Fatalf("the workflow is %s after the repeat, want approved", s.Status)
	}
	if code, body := call(srv, "approve-lost", id); code != http.StatusOK || body["message"] != MsgApproved {
		t.Errorf("workflow up to date: %d %v, want 200 %q", code, body, MsgApproved)
	}

	// The read model cannot be read (a closed pool stands for PostgreSQL down):
	// not "nothing missed", but try again.
	k := &idemCall{rec: opportunity.IdempotencyKey{UserID: actorID, Key: opportunity.DerivedID(actorID + "/approve-lost"), Action: actionApprove}}
	if err := srv.lookupKey(t.Context(), k); err != nil {
		t.Fatal(err)
	}
	closed, err := pgxpool.New(t.Context(), st.db.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	w := httptest.NewRecorder()
	down := &Server{DB: closed, Temporal: srv.Temporal}
	if !down.answerRepeatAfterFailure(w, httptest.NewRequest("PATCH", "/api/opportunity/"+id, nil), k, id, opportunity.Record{ID: id}) || w.Code != http.StatusServiceUnavailable {
		t.Errorf("read model unreadable: %d %s, want 503", w.Code, w.Body)
	}
}
