package api

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/temporal"

	"oportuna/internal/testenv"
	"oportuna/workflows"
)

// TestARetriedDecisionAnswersItsFirstOutcome: a decision sent again with the
// same Idempotency-Key (a client retrying after a lost answer) returns what the
// first call did — 'aprovada', not a 409 or an edit — and changes nothing more.
func TestARetriedDecisionAnswersItsFirstOutcome(t *testing.T) {
	st := newStack(t)
	seller := st.login("vendedor1@nordata.demo", "nordata")
	rep := st.login("representante@nordata.demo", "nordata")
	id := seller.create("11222333000181", "retry-1")
	approve := map[string]any{"status": "approved", "name": "Projeto Armazém", "probabilityClosing": 50}
	code, body := rep.call("PATCH", "/api/opportunity/"+id, approve, "Idempotency-Key", "decision-1")
	if code != 200 || body["message"] != MsgApproved {
		t.Fatalf("approve: %d %v", code, body)
	}
	// The retry, even with another name, gets the first outcome and is not applied again.
	approve["name"] = "Outro nome"
	for i := 0; i < 3; i++ {
		code, body = rep.call("PATCH", "/api/opportunity/"+id, approve, "Idempotency-Key", "decision-1")
		if code != 200 || body["message"] != MsgApproved {
			t.Fatalf("retry %d: %d %v", i, code, body)
		}
		if name := body["data"].(map[string]any)["name"]; name != "Projeto Armazém" {
			t.Errorf("retry %d renamed the opportunity to %v", i, name)
		}
	}
	var approvals, updates int
	if err := st.db.QueryRow(t.Context(), `SELECT count(*) FILTER (WHERE modifications @> '[{"attribute":"status","newValue":"approved"}]'), count(*)
		FROM history WHERE type_id = $1 AND action_type = 'update'`, id).Scan(&approvals, &updates); err != nil {
		t.Fatal(err)
	}
	if approvals != 1 || updates != 1 {
		t.Errorf("%d approval rows, %d updates in history; want 1 and 1", approvals, updates)
	}
	// A new approval (a new key) of an approved opportunity is refused as before.
	if code, _ := rep.call("PATCH", "/api/opportunity/"+id, approve, "Idempotency-Key", "decision-2"); code != http.StatusConflict {
		t.Errorf("a second approval: %d, want 409", code)
	}
}

// TestBusyAndLateDecisionsAnswerWhatTheClientCanDo: more updates in flight than
// the workflow takes answers 429 with Retry-After (not 500); a decision that
// came too late answers 504 with its message; one on an opportunity an
// operator cancelled, 409.
func TestBusyAndLateDecisionsAnswerWhatTheClientCanDo(t *testing.T) {
	s := &Server{}
	for name, tc := range map[string]struct {
		err        error
		code       int
		retryAfter bool
	}{
		"in-flight limit": {serviceerror.NewResourceExhausted(0, "limit on number of concurrent in-flight updates has been reached"), 429, true},
		"too late":        {temporal.NewNonRetryableApplicationError(workflows.MsgTooLate, workflows.ErrTypeLate, nil), 504, false},
		"cancelled":       {temporal.NewCanceledError("cancelada pela operação"), 409, false},
		"wrapped busy":    {errors.Join(errors.New("update"), serviceerror.NewResourceExhausted(0, "busy")), 429, true},
	} {
		w := httptest.NewRecorder()
		s.updateError(w, httptest.NewRequest("PATCH", "/api/opportunity/x", nil), tc.err)
		if w.Code != tc.code || (w.Header().Get("Retry-After") != "") != tc.retryAfter {
			t.Errorf("%s: %d Retry-After=%q, want %d", name, w.Code, w.Header().Get("Retry-After"), tc.code)
		}
	}
}

// TestAnOpportunityAnOperatorCancelledLeavesTheScreens: after 'Request
// Cancellation' in the Temporal UI the opportunity is kept (isDeleted) but
// gone from the list, the dashboard, its detail and every action.
func TestAnOpportunityAnOperatorCancelledLeavesTheScreens(t *testing.T) {
	st := newStack(t)
	seller := st.login("vendedor1@nordata.demo", "nordata")
	rep := st.login("representante@nordata.demo", "nordata")
	id := seller.create("11222333000181", "cancel-1")
	analysis := func() float64 {
		_, d := rep.call("GET", "/api/dashboard/status?brand=nordata", nil)
		return d["data"].(map[string]any)["analysis"].(map[string]any)["total"].(float64)
	}
	before := analysis()
	if !listed(rep, id) {
		t.Fatal("the new opportunity is not listed")
	}
	c := testenv.TemporalClient(t)
	if err := c.CancelWorkflow(t.Context(), workflows.OpportunityWorkflowID(id), ""); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var deleted bool
		_ = st.db.QueryRow(t.Context(), `SELECT is_deleted FROM opportunities WHERE id = $1`, id).Scan(&deleted)
		if deleted {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cancellation was not recorded")
		}
	}
	if listed(rep, id) {
		t.Error("the cancelled opportunity is still listed")
	}
	if got := analysis(); got != before-1 {
		t.Errorf("dashboard analysis total %v, want %v", got, before-1)
	}
	if code, _ := rep.call("GET", "/api/opportunity/id/"+id, nil); code != http.StatusNotFound {
		t.Errorf("detail: %d, want 404", code)
	}
	if code, _ := rep.call("PATCH", "/api/opportunity/"+id, map[string]any{"status": "approved", "name": "X"}); code != http.StatusNotFound {
		t.Errorf("approve: %d, want 404", code)
	}
}

// listed reports whether the representative's list shows the opportunity.
func listed(rep *session, id string) bool {
	_, list := rep.call("GET", "/api/opportunity/all?amount=100&page=1", nil)
	rows, _ := list["result"].([]any)
	for _, row := range rows {
		if row.(map[string]any)["id"] == id {
			return true
		}
	}
	return false
}
