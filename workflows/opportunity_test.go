package workflows

import (
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/crm"
	"oportuna/opportunity"
)

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
	noErrors(t, map[string]error{"approve": approveErr, "renewal": renewErr, "decision": decideErr})
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
	if len(h.crmCalls) != 0 {
		t.Errorf("an opportunity that never reached the CRM was synced at its expiry: %+v", h.crmCalls)
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
	if msg := (*errs["approve without name"]).Error(); msg == "" || !strings.Contains(msg, MsgNameRequired) {
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
	if c[0] != (opportunity.Change{Attribute: "name", OldValue: "Oportunidade Yep", NewValue: "Novo nome"}) ||
		c[1] != (opportunity.Change{Attribute: "probabilityClosing", OldValue: "25", NewValue: "75"}) {
		t.Errorf("changes %+v", c)
	}
	if h.events[0].Actor == nil || h.events[0].Actor.UserID != rep.UserID {
		t.Error("the editor is not recorded")
	}
}

func TestEditOfAnOpportunityInTheCRMIsWrittenThereFirst(t *testing.T) {
	h := newHarness(t)
	var inAnalysis, approve, edit, locked error
	h.at(30*time.Minute, UpdateEdit, EditRequest{Actor: rep, Probability: ptr(50)}, &inAnalysis)
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto"}, &approve)
	h.at(2*time.Hour, UpdateEdit, EditRequest{Actor: rep, Name: ptr("Projeto Novo"), Probability: ptr(75)}, &edit)
	h.env.RegisterDelayedCallback(func() {
		h.crmErr = temporal.NewNonRetryableApplicationError("crm: opportunity locked", crm.ErrTypeLocked, nil)
	}, 3*time.Hour)
	h.at(4*time.Hour, UpdateEdit, EditRequest{Actor: rep, Probability: ptr(100)}, &locked)
	h.env.RegisterDelayedCallback(func() {
		if st := h.state(); st.Probability != 75 || st.Name != "Projeto Novo" || st.Status != opportunity.Approved {
			t.Errorf("after the locked edit: %+v", st)
		}
	}, 4*time.Hour+time.Minute)
	h.env.RegisterDelayedCallback(func() { h.env.CancelWorkflow() }, 5*time.Hour)
	_ = h.run()
	if inAnalysis != nil || approve != nil || edit != nil {
		t.Fatalf("edit in analysis %v, approve %v, edit %v", inAnalysis, approve, edit)
	}
	if errType(locked) != crm.ErrTypeLocked {
		t.Errorf("edit of a locked CRM record: %v, want %s", locked, crm.ErrTypeLocked)
	}
	// The edit in analysis does not reach the CRM (no record there yet); the
	// approval and the edit of the approved opportunity do, with the new values.
	if len(h.crmCalls) != 3 {
		t.Fatalf("CRM calls %+v, want approval, edit, locked edit", h.crmCalls)
	}
	if c := h.crmCalls[1]; c.Name != "Projeto Novo" || c.Probability != 75 || c.Status != opportunity.Approved || c.OpportunityID != "op-1" {
		t.Errorf("edit sent %+v", c)
	}
	if c := h.crmCalls[2]; c.Probability != 100 {
		t.Errorf("locked edit sent %+v", c)
	}
	// edit in analysis, approval, edit: the refused edit records nothing.
	if len(h.events) != 3 || h.events[2].Name == nil || *h.events[2].Name != "Projeto Novo" {
		t.Errorf("events %+v", h.events)
	}
}

func TestRenewalApprovalReopensTheCRMRecordAndSupersedesTheExpirySync(t *testing.T) {
	h := newHarness(t)
	var expiredCalls, afterDecision int
	decided := false
	h.crm = func(in activities.CRMSyncInput) (string, error) {
		if decided && in.Status == opportunity.Expired {
			afterDecision++
		}
		if in.Status == opportunity.Expired {
			expiredCalls++
			return "", temporal.NewApplicationError("crm: unavailable", crm.ErrTypeUnavailable)
		}
		if decided {
			return "006CRM0002", nil // the record was recreated in the CRM meanwhile
		}
		return "006CRM0001", nil
	}
	var approveErr, renewErr, decideErr error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto", Probability: 50}, &approveErr)
	// The expiry does not wait for the CRM, which keeps failing.
	h.statusAt(time.Hour+90*day+time.Minute, opportunity.Expired)
	// The renewal is decided while the expiry's sync waits for its next try
	// (minutes apart by then): the decision cancels it, so the CRM ends approved.
	expiry := time.Hour + 90*day
	h.at(expiry+2*time.Minute, UpdateRequestRenewal, RenewalRequest{Actor: seller, Renewal: opportunity.RenewalRequest{
		Reason: "Cliente retomou", ProbabilityClosing: 75, ProjectStillInScope: "Sim", LastVisitDate: "2026-01-01"}}, &renewErr)
	h.env.RegisterDelayedCallback(func() { decided = true }, expiry+4*time.Minute-time.Second)
	h.at(expiry+4*time.Minute, UpdateDecideRenewal, RenewalDecision{Actor: rep, Approve: true}, &decideErr)
	err := h.run()
	if approveErr != nil || renewErr != nil || decideErr != nil {
		t.Fatalf("approve %v, renewal %v, decision %v", approveErr, renewErr, decideErr)
	}
	var can *workflow.ContinueAsNewError
	if !errors.As(err, &can) {
		t.Fatalf("workflow ended with %v, want continue-as-new", err)
	}
	if expiredCalls < 5 {
		t.Errorf("the expiry was synced %d times in 4 minutes: not retried in the background", expiredCalls)
	}
	if afterDecision > 0 {
		t.Errorf("the expiry sync kept retrying after the renewal decision (%d calls)", afterDecision)
	}
	last := h.crmCalls[len(h.crmCalls)-1]
	if last.Status != opportunity.Approved || !last.Reopen || last.Name != "Projeto" || last.Probability != 75 {
		t.Errorf("last CRM call %+v, want the renewal's approval reopening the record", last)
	}
	ev := h.events[len(h.events)-1]
	if ev.Status != opportunity.Approved || ev.Register == nil || *ev.Register != "006CRM0002" {
		t.Errorf("renewal event %+v, want the CRM id recorded", ev)
	}
}

func TestExpiryAndRenewalRefusalReachTheCRMInTheBackground(t *testing.T) {
	h := newHarness(t)
	failures := 3
	h.crm = func(in activities.CRMSyncInput) (string, error) {
		if in.Status == opportunity.Expired && failures > 0 {
			failures--
			return "", temporal.NewApplicationError("crm: unavailable", crm.ErrTypeUnavailable)
		}
		return "006CRM0001", nil
	}
	var errs [4]error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto"}, &errs[0])
	h.statusAt(time.Hour+90*day+time.Second, opportunity.Expired)
	h.env.RegisterDelayedCallback(func() {
		if got := h.crmStatuses(); len(got) != 5 || got[4] != opportunity.Expired || failures != 0 {
			t.Errorf("CRM calls a day after the expiry: %v (failures left %d)", got, failures)
		}
	}, time.Hour+91*day)
	h.at(time.Hour+92*day, UpdateRequestRenewal, RenewalRequest{Actor: seller, Renewal: opportunity.RenewalRequest{
		Reason: "Cliente retomou", ProbabilityClosing: 75, ProjectStillInScope: "Sim", LastVisitDate: "2026-01-01"}}, &errs[1])
	h.env.RegisterDelayedCallback(func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.crmErr = temporal.NewNonRetryableApplicationError("crm: opportunity locked", crm.ErrTypeLocked, nil)
		h.crm = nil
	}, time.Hour+93*day-time.Minute)
	h.at(time.Hour+93*day, UpdateDecideRenewal, RenewalDecision{Actor: rep, Approve: true}, &errs[2])
	h.statusAt(time.Hour+93*day+time.Minute, opportunity.AwaitingRenovation)
	h.at(time.Hour+94*day, UpdateDecideRenewal, RenewalDecision{Actor: rep, Reason: "Sem orçamento"}, &errs[3])
	if err := h.run(); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	if errs[0] != nil || errs[1] != nil || errType(errs[2]) != crm.ErrTypeLocked || errs[3] != nil {
		t.Fatalf("approve %v, renewal %v, locked renewal approval %v, refusal %v", errs[0], errs[1], errs[2], errs[3])
	}
	want := []opportunity.Status{opportunity.Approved, opportunity.Expired, opportunity.Expired, opportunity.Expired, opportunity.Expired,
		opportunity.Approved, opportunity.Disapproved}
	got := h.crmStatuses()
	if len(got) != len(want) {
		t.Fatalf("CRM calls %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("CRM calls %v, want %v", got, want)
		}
	}
	var st OpportunityState
	if err := h.env.GetWorkflowResult(&st); err != nil || st.Status != opportunity.Disapproved {
		t.Errorf("result %+v %v", st, err)
	}
}

func TestADecisionTooLateForItsCallerDoesNotCallTheCRM(t *testing.T) {
	h := newHarness(t)
	h.crmErr = temporal.NewNonRetryableApplicationError("crm: unavailable", crm.ErrTypeUnavailable, nil)
	h.crmDelay = 72 * time.Second // the first approval holds the opportunity while the CRM is slow
	var first, second error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto"}, &first)
	h.at(time.Hour+time.Second, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto"}, &second)
	h.statusAt(time.Hour+5*time.Minute, opportunity.Analysis)
	h.env.RegisterDelayedCallback(func() { h.env.CancelWorkflow() }, 2*time.Hour)
	_ = h.run()
	if errType(first) != crm.ErrTypeUnavailable || errType(second) != crm.ErrTypeUnavailable {
		t.Fatalf("first %v, second %v: want both CRM communication errors", first, second)
	}
	if len(h.crmCalls) != 1 {
		t.Errorf("CRM calls %d: the second approval, past its caller's wait, must not reach the CRM", len(h.crmCalls))
	}
	if len(h.events) != 0 {
		t.Errorf("events %+v", h.events)
	}
}

// TestARetriedApprovalKeepsTheValidityItRecorded: an approval whose workflow
// task was lost after its write (a worker killed, the history service
// restarted) runs again later; its write is a retry of the recorded event,
// and the workflow takes the validity the read model holds (Apply answers
// it) instead of one counted from the retry's clock, so the read model and
// the workflow keep the first decision's validity and the renewal window
// opens from it.
func TestARetriedApprovalKeepsTheValidityItRecorded(t *testing.T) {
	h := newHarness(t)
	var recorded time.Time
	h.applied = func(ev opportunity.Event) activities.Applied {
		if ev.ValidUntil == nil {
			return activities.Applied{}
		}
		// The first attempt, 40 s earlier on the clock.
		approved := ev.ApprovedAt.Add(-40 * time.Second)
		recorded = ev.ValidUntil.Add(-40 * time.Second)
		return activities.Applied{ApprovedAt: &approved, ValidUntil: &recorded}
	}
	var approveErr error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto Armazém", Probability: 50}, &approveErr)
	h.env.RegisterDelayedCallback(func() {
		if st := h.state(); !st.ValidUntil.Equal(recorded) {
			t.Errorf("workflow valid until %v, want the recorded %v", st.ValidUntil, recorded)
		}
	}, 2*time.Hour)
	// The renewal window opens RenewalWindow before the recorded end.
	opens := time.Hour + h.d.Validity - h.d.RenewalWindow
	h.statusAt(opens-30*time.Second, opportunity.Renovation)
	_ = h.run()
	if approveErr != nil {
		t.Fatalf("approve: %v", approveErr)
	}
}

// TestARenewalRequestedAsTheWindowOpensIsTaken: the timer's transition to
// renovation writes the read model before the workflow's state moves, so the
// owner may ask for the renewal while the workflow still says approved (here
// the transition's write fails, keeping the workflow approved past the
// opening). The clock opened the window: the request is taken, not refused
// as "Ação não permitida: a oportunidade está aprovado".
func TestARenewalRequestedAsTheWindowOpensIsTaken(t *testing.T) {
	h := newHarness(t)
	h.applyErr = func(ev opportunity.Event) error {
		if ev.Status == opportunity.Renovation {
			return temporal.NewNonRetryableApplicationError("the read model refused", "Test", nil)
		}
		return nil
	}
	var approveErr, renewErr error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto Armazém", Probability: 50}, &approveErr)
	opens := time.Hour + h.d.Validity - h.d.RenewalWindow
	h.statusAt(opens+10*time.Second, opportunity.Approved)
	h.at(opens+20*time.Second, UpdateRequestRenewal, RenewalRequest{Actor: reseller, Renewal: opportunity.RenewalRequest{
		Reason: "Cliente retomou o projeto", ProbabilityClosing: 75, ProjectStillInScope: "Sim", LastVisitDate: "2026-01-01"}}, &renewErr)
	h.statusAt(opens+time.Minute, opportunity.AwaitingRenovation)
	_ = h.run()
	if approveErr != nil || renewErr != nil {
		t.Fatalf("approve: %v; renewal request: %v", approveErr, renewErr)
	}
}

// TestAnApprovalWhoseWindowAlreadyOpenedEntersRenovation: an approval that
// keeps the validity it recorded earlier (a retry after its task was lost)
// may find its renewal window already open; the opportunity enters
// renovation at once instead of waiting, approved, for its expiry.
func TestAnApprovalWhoseWindowAlreadyOpenedEntersRenovation(t *testing.T) {
	h := newHarness(t)
	h.applied = func(ev opportunity.Event) activities.Applied {
		if ev.ValidUntil == nil {
			return activities.Applied{}
		}
		// Recorded long enough ago that the window opened already.
		valid := ev.ValidUntil.Add(-(h.d.Validity - h.d.RenewalWindow) - time.Hour)
		approved := valid.Add(-h.d.Validity)
		return activities.Applied{ApprovedAt: &approved, ValidUntil: &valid}
	}
	var approveErr error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto Armazém", Probability: 50}, &approveErr)
	h.statusAt(time.Hour+time.Minute, opportunity.Renovation)
	_ = h.run()
	if approveErr != nil {
		t.Fatalf("approve: %v", approveErr)
	}
}
