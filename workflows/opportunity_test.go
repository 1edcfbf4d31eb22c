package workflows

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/opportunity"
)

var (
	seller   = activities.Actor{UserID: "u-seller", Name: "Vanessa", Roles: []auth.Role{auth.Seller}, ResaleID: "r-1"}
	other    = activities.Actor{UserID: "u-other", Name: "Victor", Roles: []auth.Role{auth.Seller}, ResaleID: "r-1"}
	reseller = activities.Actor{UserID: "u-resale", Name: "Ricardo", Roles: []auth.Role{auth.Resale}, ResaleID: "r-1"}
	foreign  = activities.Actor{UserID: "u-x", Name: "Xavier", Roles: []auth.Role{auth.Resale}, ResaleID: "r-2"}
	rep      = activities.Actor{UserID: "u-rep", Name: "Renata", Roles: []auth.Role{auth.Representative}}
	support  = activities.Actor{UserID: "u-sup", Name: "Sérgio", Roles: []auth.Role{auth.Support}}
)

type harness struct {
	t       *testing.T
	env     *testsuite.TestWorkflowEnvironment
	mu      sync.Mutex
	events  []activities.Event
	notices []activities.Notice
	crmErr  error
	d       Durations
}

func newHarness(t *testing.T) *harness {
	h := &harness{t: t, d: DefaultDurations}
	var s testsuite.WorkflowTestSuite
	s.SetLogger(tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	h.env = s.NewTestWorkflowEnvironment()
	h.env.RegisterWorkflow(Opportunity)
	h.env.RegisterActivity(a)
	h.env.OnActivity(a.Register, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.RegisterInput) (activities.Registered, error) {
			return activities.Registered{Record: in.Record, Conflicts: []string{"older-1"}}, nil
		})
	h.env.OnActivity(a.Apply, mock.Anything, mock.Anything).Return(func(_ context.Context, ev activities.Event) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.events = append(h.events, ev)
		return nil
	})
	h.env.OnActivity(a.Notify, mock.Anything, mock.Anything).Return(func(_ context.Context, n activities.Notice) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.notices = append(h.notices, n)
		return nil
	})
	h.env.OnActivity(a.SyncCRM, mock.Anything, mock.Anything).Return(func(context.Context, activities.CRMInput) (string, error) {
		if h.crmErr != nil {
			return "", h.crmErr
		}
		return "006CRM0001", nil
	})
	return h
}

// at schedules an update at a moment of the workflow's life; the result lands in *err.
func (h *harness) at(d time.Duration, name string, arg any, err *error) {
	h.env.RegisterDelayedCallback(func() {
		h.env.UpdateWorkflow(name, "", &testsuite.TestUpdateCallback{
			OnReject:   func(e error) { *err = e },
			OnAccept:   func() {},
			OnComplete: func(_ interface{}, e error) { *err = e },
		}, arg)
	}, d)
}

func (h *harness) state() OpportunityState {
	v, err := h.env.QueryWorkflow(QueryState)
	if err != nil {
		h.t.Fatal(err)
	}
	var st OpportunityState
	if err := v.Get(&st); err != nil {
		h.t.Fatal(err)
	}
	return st
}

func (h *harness) statusAt(d time.Duration, want opportunity.Status) {
	h.env.RegisterDelayedCallback(func() {
		if got := h.state().Status; got != want {
			h.t.Errorf("at %v: status %s, want %s", d, got, want)
		}
	}, d)
}

func (h *harness) run() error {
	var regErr error
	h.at(0, UpdateRegister, RegisterRequest{Actor: seller, ResaleCNPJ: "11222300000181",
		Record: opportunity.Record{Name: "Oportunidade Yep", ProbabilityClosing: 25}}, &regErr)
	h.env.ExecuteWorkflow(Opportunity, OpportunityInput{ID: "op-1", Brand: "yep", Durations: h.d})
	if regErr != nil {
		h.t.Fatalf("register: %v", regErr)
	}
	return h.env.GetWorkflowError()
}

func (h *harness) kinds() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[string]int{}
	for _, n := range h.notices {
		out[n.Kind]++
	}
	return out
}

func errType(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Type()
	}
	return ""
}

const day = 24 * time.Hour

func TestApprovedOpportunityOpensRenewalThenExpiresThenRenews(t *testing.T) {
	h := newHarness(t)
	var approveErr, renewErr, decideErr error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto Armazém", Probability: 50}, &approveErr)
	h.statusAt(2*time.Hour, opportunity.Approved)
	h.statusAt(time.Hour+75*day-time.Minute, opportunity.Approved)
	h.statusAt(time.Hour+75*day+time.Minute, opportunity.Renovation) // 90 − 15 days after approval
	h.statusAt(time.Hour+90*day+time.Minute, opportunity.Expired)
	h.at(time.Hour+95*day, UpdateRequestRenewal, RenewalRequest{Actor: reseller, Renewal: opportunity.RenewalRequest{
		Reason: "Cliente retomou o projeto", ProbabilityClosing: 75, ProjectStillInScope: "Sim", LastVisitDate: "2026-01-01"}}, &renewErr)
	h.statusAt(time.Hour+95*day+time.Minute, opportunity.AwaitingRenovation)
	h.at(time.Hour+96*day, UpdateDecideRenewal, RenewalDecision{Actor: rep, Approve: true}, &decideErr)
	err := h.run()
	for name, e := range map[string]error{"approve": approveErr, "renewal": renewErr, "decision": decideErr} {
		if e != nil {
			t.Errorf("%s: %v", name, e)
		}
	}
	var can *workflow.ContinueAsNewError
	if !errors.As(err, &can) {
		t.Fatalf("workflow ended with %v, want continue-as-new into the next cycle", err)
	}
	k := h.kinds()
	for _, kind := range []string{"registered", "approved", "renewal-open", "expired", "renewal-requested", "renewal-approved"} {
		if k[kind] != 1 {
			t.Errorf("notices %q = %d, want 1 (all: %v)", kind, k[kind], k)
		}
	}
	var statuses []opportunity.Status
	for _, ev := range h.events {
		statuses = append(statuses, ev.Status)
	}
	want := []opportunity.Status{opportunity.Approved, opportunity.Renovation, opportunity.Expired, opportunity.AwaitingRenovation, opportunity.Approved}
	if len(statuses) != len(want) {
		t.Fatalf("events %v, want %v", statuses, want)
	}
	for i := range want {
		if statuses[i] != want[i] {
			t.Fatalf("events %v, want %v", statuses, want)
		}
	}
	if ev := h.events[0]; ev.Register == nil || *ev.Register != "006CRM0001" || ev.ValidUntil == nil || ev.Name == nil || *ev.Name != "Projeto Armazém" {
		t.Errorf("approval event = %+v", ev)
	}
	seen := map[string]bool{}
	for _, ev := range h.events {
		if seen[ev.Key] {
			t.Errorf("duplicate event key %s", ev.Key)
		}
		seen[ev.Key] = true
	}
}

func TestAnalysisSendsRemindersEverySLAThenExpires(t *testing.T) {
	h := newHarness(t)
	h.env.RegisterDelayedCallback(func() {
		if st := h.state(); st.Reminders != 1 {
			t.Errorf("reminders after 49h = %d, want 1", st.Reminders)
		}
	}, 49*time.Hour)
	if err := h.run(); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	k := h.kinds()
	// Every 48 h within 90 days: 44 reminders, then the 90-day deadline expires it.
	if k["approval-reminder"] != 44 || k["expired-in-analysis"] != 1 {
		t.Errorf("notices = %v", k)
	}
	if last := h.events[len(h.events)-1]; last.Status != opportunity.Expired || last.Actor != nil {
		t.Errorf("last event = %+v", last)
	}
}

func TestDisapprovalEndsTheWorkflow(t *testing.T) {
	h := newHarness(t)
	var noReason, ok error
	h.at(time.Hour, UpdateDisapprove, DisapproveRequest{Actor: rep, Reason: "   "}, &noReason)
	h.at(2*time.Hour, UpdateDisapprove, DisapproveRequest{Actor: rep, Reason: "Cliente já atendido"}, &ok)
	if err := h.run(); err != nil {
		t.Fatal(err)
	}
	if errType(noReason) != ErrTypeInvalid || ok != nil {
		t.Errorf("blank reason: %v; with reason: %v", noReason, ok)
	}
	var st OpportunityState
	if err := h.env.GetWorkflowResult(&st); err != nil || st.Status != opportunity.Disapproved {
		t.Errorf("result %+v %v", st, err)
	}
	if h.kinds()["disapproved"] != 1 {
		t.Error("owner not notified")
	}
}

func TestTransitionsOutsideTheTableAreRejected(t *testing.T) {
	h := newHarness(t)
	errs := map[string]*error{}
	call := func(label string, d time.Duration, name string, arg any) {
		var e error
		errs[label] = &e
		h.at(d, name, arg, &e)
	}
	renewal := opportunity.RenewalRequest{Reason: "x", ProbabilityClosing: 50, ProjectStillInScope: "Não", LastVisitDate: "2026-01-01"}
	call("renewal in analysis", time.Minute, UpdateRequestRenewal, RenewalRequest{Actor: seller, Renewal: renewal})
	call("decision in analysis", 2*time.Minute, UpdateDecideRenewal, RenewalDecision{Actor: rep, Approve: true})
	call("seller approves", 3*time.Minute, UpdateApprove, ApproveRequest{Actor: seller, Name: "x"})
	call("support approves", 4*time.Minute, UpdateApprove, ApproveRequest{Actor: support, Name: "x"})
	call("approve without name", 5*time.Minute, UpdateApprove, ApproveRequest{Actor: rep, Name: "  "})
	call("second registration", 6*time.Minute, UpdateRegister, RegisterRequest{Actor: seller})
	call("approve", time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Ok", Probability: 25})
	call("approve twice", 2*time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Ok"})
	call("disapprove approved", 3*time.Hour, UpdateDisapprove, DisapproveRequest{Actor: rep, Reason: "x"})
	call("bad probability", 4*time.Hour, UpdateEdit, EditRequest{Actor: rep, Probability: ptr(30)})
	call("other seller renews", 80*day, UpdateRequestRenewal, RenewalRequest{Actor: other, Renewal: renewal})
	call("foreign reseller renews", 80*day+time.Minute, UpdateRequestRenewal, RenewalRequest{Actor: foreign, Renewal: renewal})
	future := renewal
	future.LastVisitDate = "2099-01-01"
	call("renewal with future visit", 80*day+2*time.Minute, UpdateRequestRenewal, RenewalRequest{Actor: seller, Renewal: future})
	call("owner renews", 80*day+3*time.Minute, UpdateRequestRenewal, RenewalRequest{Actor: seller, Renewal: renewal})
	call("refuse without reason", 80*day+4*time.Minute, UpdateDecideRenewal, RenewalDecision{Actor: rep})
	call("refuse", 80*day+5*time.Minute, UpdateDecideRenewal, RenewalDecision{Actor: rep, Reason: "Sem orçamento"})
	h.d.Validity = 90 * day
	if err := h.run(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"renewal in analysis": ErrTypeTransition, "decision in analysis": ErrTypeTransition,
		"seller approves": ErrTypeForbidden, "support approves": ErrTypeForbidden, "approve without name": ErrTypeInvalid,
		"second registration": ErrTypeInvalid, "approve": "", "approve twice": ErrTypeTransition,
		"disapprove approved": ErrTypeTransition, "bad probability": ErrTypeInvalid,
		"other seller renews": ErrTypeForbidden, "foreign reseller renews": ErrTypeForbidden,
		"renewal with future visit": ErrTypeInvalid, "owner renews": "", "refuse without reason": ErrTypeInvalid, "refuse": "",
	}
	for label, typ := range want {
		got := *errs[label]
		if typ == "" && got != nil || typ != "" && errType(got) != typ {
			t.Errorf("%s: %v (type %q), want type %q", label, got, errType(got), typ)
		}
	}
	if msg := (*errs["approve without name"]).Error(); msg == "" || !contains(msg, MsgNameRequired) {
		t.Errorf("approve without name says %q", msg)
	}
	var st OpportunityState
	if err := h.env.GetWorkflowResult(&st); err != nil || st.Status != opportunity.Disapproved {
		t.Errorf("final %+v %v", st, err)
	}
}

func TestCRMFailureLeavesTheOpportunityInAnalysis(t *testing.T) {
	h := newHarness(t)
	h.crmErr = temporal.NewNonRetryableApplicationError("cliente não encontrado", "CRMCustomerNotFound", nil)
	var first, second error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto"}, &first)
	h.statusAt(time.Hour+time.Minute, opportunity.Analysis)
	h.env.RegisterDelayedCallback(func() { h.crmErr = nil }, 2*time.Hour)
	h.at(3*time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto"}, &second)
	h.statusAt(3*time.Hour+time.Minute, opportunity.Approved)
	h.at(4*time.Hour, UpdateDisapprove, DisapproveRequest{Actor: rep, Reason: "x"}, new(error)) // blocked: approved
	h.env.RegisterDelayedCallback(func() { h.env.CancelWorkflow() }, 5*time.Hour)
	_ = h.run()
	if errType(first) != "CRMCustomerNotFound" || second != nil {
		t.Errorf("first %v, second %v", first, second)
	}
	if len(h.events) != 1 || h.events[0].Status != opportunity.Approved {
		t.Errorf("events %+v: the failed approval must record nothing", h.events)
	}
}

func TestEditRecordsOldAndNewValues(t *testing.T) {
	h := newHarness(t)
	var e1, e2 error
	h.at(time.Hour, UpdateEdit, EditRequest{Actor: rep, Name: ptr("Novo nome"), Probability: ptr(75)}, &e1)
	h.at(2*time.Hour, UpdateEdit, EditRequest{Actor: support, Probability: ptr(100)}, &e2)
	h.env.RegisterDelayedCallback(func() { h.env.CancelWorkflow() }, 3*time.Hour)
	_ = h.run()
	if e1 != nil || errType(e2) != ErrTypeForbidden {
		t.Fatalf("edit %v, support edit %v", e1, e2)
	}
	if len(h.events) != 1 || len(h.events[0].Changes) != 2 {
		t.Fatalf("events %+v", h.events)
	}
	c := h.events[0].Changes
	if c[0] != (activities.Change{Attribute: "name", OldValue: "Oportunidade Yep", NewValue: "Novo nome"}) ||
		c[1] != (activities.Change{Attribute: "probabilityClosing", OldValue: "25", NewValue: "75"}) {
		t.Errorf("changes %+v", c)
	}
	if h.events[0].Actor == nil || h.events[0].Actor.UserID != rep.UserID {
		t.Error("the editor is not recorded")
	}
}

func ptr[T any](v T) *T { return &v }

func contains(s, sub string) bool {
	return len(s) >= len(sub) && (s == sub || len(sub) == 0 || indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
