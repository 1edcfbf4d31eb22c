package workflows_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/dev/mailbox"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/opportunity"
	"oportuna/seed"
	"oportuna/workflows"
)

// Routing's recorded paths (docs/deal-desk.md, "Routing"): the assignment at
// registration with the escalation of the third reminder, and a reassignment.

const (
	recordedRoutingEscalation = "testdata/histories/routing-assigned-escalated.json"
	recordedRoutingReassigned = "testdata/histories/routing-reassigned.json"
)

// mails keeps the e-mails the notices send.
type mails struct {
	mu  sync.Mutex
	got []mailer.Message
}

func (m *mails) Send(_ context.Context, msg mailer.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.got = append(m.got, msg)
	return nil
}

func (m *mails) Portal(b *brand.Brand) string { return mailbox.Log{}.Portal(b) }

// to lists, sorted, the users of yep an opportunity's notice key reached.
func (s *stack) noticeUsers(t *testing.T, key string) []string {
	t.Helper()
	rows, err := s.db.Query(s.ctx, `SELECT user_id::text FROM notifications WHERE notice_key = $1 ORDER BY 1`, key)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		_ = rows.Scan(&id)
		ids = append(ids, id)
	}
	return ids
}

// registerIn registers, as the seller of the demo reseller, a customer in uf.
func (s *stack) registerIn(t *testing.T, uf string) (id, wfID, run string) {
	t.Helper()
	id = opportunity.NewID()
	wfID = workflows.OpportunityWorkflowID(id)
	t.Cleanup(func() { _ = s.c.TerminateWorkflow(context.Background(), wfID, "", "test ended") })
	if _, err := workflows.RegisterOpportunity(s.ctx, s.c, id, "yep", workflows.RegisterRequest{Actor: s.seller, ResaleCNPJ: seed.ResaleCNPJ(0),
		Record: opportunity.Record{Name: "Oportunidade Roteada", CNPJ: "11222333000181", Contact: "Ana", Email: "ana@cliente.com.br",
			State: uf, City: "Salvador", ProbabilityClosing: 25,
			Products: []opportunity.Product{{PartNumber: "P-1", Description: "Coletor", Amount: 1, Price: 10000}}}}); err != nil {
		t.Fatal(err)
	}
	s.explainOnFailure(t, wfID)
	return id, wfID, s.runID(t, wfID)
}

// allReps are the ids of yep's representatives, sorted.
func (s *stack) allReps(t *testing.T) []string {
	t.Helper()
	var ids []string
	for _, e := range []string{"representante@yep.demo", "representante2@yep.demo", "multi@yep.demo"} {
		ids = append(ids, actor(t, s.db, e).UserID)
	}
	slices.Sort(ids)
	return ids
}

// TestRecordRoutingAssignsByUFAndEscalatesTheThirdReminder: a customer in BA
// goes to representante2@ (who covers the UFs outside the South and
// Southeast): the workflow carries the assignment, the Representatives search
// attribute lists it for the operator's query, and the registration notice and
// the first two reminders reach only representante2@; the third reaches every
// representative of the brand, and its e-mail says so.
func TestRecordRoutingAssignsByUFAndEscalatesTheThirdReminder(t *testing.T) {
	box := &mails{}
	s := newStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: time.Minute, ApprovalSLA: 2 * time.Second, ExpiredRetention: time.Hour}, box)
	_, rep := people(t, s)
	rep2 := actor(t, s.db, "representante2@yep.demo", auth.Representative)
	id, wfID, run := s.registerIn(t, "BA")
	if st := s.state(t, id); !slices.Equal(st.Representatives, []string{rep2.UserID}) {
		t.Fatalf("assigned %v, want representante2@ %s", st.Representatives, rep2.UserID)
	}
	var stored []string
	if err := s.db.QueryRow(s.ctx, `SELECT representative_ids::text[] FROM opportunities WHERE id = $1`, id).Scan(&stored); err != nil ||
		!slices.Equal(stored, []string{rep2.UserID}) {
		t.Fatalf("read model %v (%v)", stored, err)
	}
	// The operator's query: one representative's overdue approvals.
	testenv.WaitFor(t, 20*time.Second, "the operator's query to list it",
		lists(s.ctx, s.c, `WorkflowType="Opportunity" AND ApprovalOverdue=true AND Representatives="`+rep2.UserID+`"`, wfID))
	d, err := s.c.DescribeWorkflowExecution(s.ctx, wfID, "")
	if err != nil {
		t.Fatal(err)
	}
	var attr []string
	if p := d.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()["Representatives"]; p == nil ||
		converter.GetDefaultDataConverter().FromPayload(p, &attr) != nil || !slices.Equal(attr, []string{rep2.UserID}) {
		t.Errorf("search attribute Representatives %v", attr)
	}
	testenv.WaitFor(t, 30*time.Second, "three reminders", func() bool { return s.state(t, id).Reminders >= 3 })
	s.decided(t, wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Oportunidade Roteada", Probability: 50})
	s.settleRunning(t, wfID, run)

	only2 := []string{rep2.UserID}
	if got := s.noticeUsers(t, id+"/0/1/registered"); !slices.Equal(got, only2) {
		t.Errorf("registration notice to %v, want %v", got, only2)
	}
	for n, want := range map[string][]string{"1": only2, "2": only2, "3": s.allReps(t)} {
		if got := s.noticeUsers(t, id+"/0/1/approval-reminder/"+n); !slices.Equal(got, want) {
			t.Errorf("reminder %s to %v, want %v", n, got, want)
		}
	}
	// On a busy machine a fourth reminder (ApprovalSLA after the third) may go
	// out before the approval lands: from the third on, every one is escalated.
	box.mu.Lock()
	var escalated, plain int
	for _, m := range box.got {
		_, rest, ok := strings.Cut(m.Key, "/approval-reminder/")
		if !ok {
			continue
		}
		number, _, _ := strings.Cut(rest, "/")
		n, err := strconv.Atoi(number)
		says := strings.Contains(m.Text, mailer.MsgEscalated)
		switch {
		case err != nil:
			t.Errorf("%s: no reminder number", m.Key)
		case n <= 2 && says:
			t.Errorf("%s says it was escalated", m.Key)
		case n <= 2:
			plain++
		case !says:
			t.Errorf("%s does not say it was escalated", m.Key)
		case n == 3:
			escalated++
		}
	}
	box.mu.Unlock()
	if escalated != 3 || plain != 2 {
		t.Errorf("escalated reminder e-mails %d (want 3, one per representative), plain %d (want 2)", escalated, plain)
	}
	recordPath(t, s, wfID, run, recordedRoutingEscalation)
}

// TestRecordReassignmentWithAReason: a customer in SP goes to representante@;
// support reassigns it to representante2@ with a reason: the workflow and the
// read model carry the new assignment, the history logs it with the reason,
// and representante2@ is told. A reassignment without a reason, to the same
// representatives, or by a seller is refused before anything is recorded.
func TestRecordReassignmentWithAReason(t *testing.T) {
	s := newStack(t, hourly, nil)
	_, rep := people(t, s)
	rep2 := actor(t, s.db, "representante2@yep.demo", auth.Representative)
	support := actor(t, s.db, "suporte@yep.demo", auth.Support)
	id, wfID, run := s.registerIn(t, "SP")
	if st := s.state(t, id); !slices.Equal(st.Representatives, []string{rep.UserID}) {
		t.Fatalf("assigned %v, want representante@", st.Representatives)
	}
	for _, bad := range []struct {
		req  workflows.ReassignRequest
		want string
	}{
		{workflows.ReassignRequest{Actor: support, Representatives: []string{rep2.UserID}, Reason: "  "}, workflows.MsgReassignReason},
		{workflows.ReassignRequest{Actor: support, Representatives: []string{rep.UserID}, Reason: "x"}, workflows.MsgReassignSame},
		{workflows.ReassignRequest{Actor: support, Reason: "x"}, workflows.MsgReassignNone},
		{workflows.ReassignRequest{Actor: s.seller, Representatives: []string{rep2.UserID}, Reason: "x"}, workflows.MsgNotAllowed},
	} {
		err := s.decide(wfID, workflows.UpdateReassign, bad.req)
		var app *temporal.ApplicationError
		if !errors.As(err, &app) || app.Message() != bad.want {
			t.Errorf("reassign %+v: %v, want %q", bad.req, err, bad.want)
		}
	}
	s.decided(t, wfID, workflows.UpdateReassign, workflows.ReassignRequest{Actor: support, Representatives: []string{rep2.UserID},
		Reason: " Cliente atendido pela regional Nordeste "})
	s.settleRunning(t, wfID, run)
	if st := s.state(t, id); !slices.Equal(st.Representatives, []string{rep2.UserID}) || st.Status != opportunity.Analysis {
		t.Errorf("state %s %v, want in analysis with representante2@", st.Status, st.Representatives)
	}
	var stored []string
	var mods string
	if err := s.db.QueryRow(s.ctx, `SELECT o.representative_ids::text[], h.modifications::text FROM opportunities o
		JOIN history h ON h.type_id = o.id AND h.modifications::text LIKE '%reassignReason%' WHERE o.id = $1`, id).Scan(&stored, &mods); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(stored, []string{rep2.UserID}) || !strings.Contains(mods, "Cliente atendido pela regional Nordeste") ||
		!strings.Contains(mods, rep.UserID) {
		t.Errorf("read model %v, history %s", stored, mods)
	}
	testenv.WaitFor(t, 15*time.Second, "the reassignment notice", func() bool { return s.notices(t, id, "reassigned") == 1 })
	var to string
	if err := s.db.QueryRow(s.ctx, `SELECT string_agg(user_id::text, ',') FROM notifications WHERE kind = 'reassigned' AND starts_with(notice_key, $1)`,
		id+"/").Scan(&to); err != nil || to != rep2.UserID {
		t.Errorf("reassignment notice to %q (%v), want representante2@", to, err)
	}
	s.settleRunning(t, wfID, run)
	recordPath(t, s, wfID, run, recordedRoutingReassigned)
}
