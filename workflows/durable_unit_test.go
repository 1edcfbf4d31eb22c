package workflows

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/crm"
	"oportuna/opportunity"
)

// TestAFailedTimerTransitionBacksOffInsteadOfLoopingHot: when the read model
// refuses the expiry, the workflow alerts and tries again after a growing
// back-off (1 min doubling to 1 h), not in a loop that re-fires the past
// deadline at once until the history limit kills the run.
func TestAFailedTimerTransitionBacksOffInsteadOfLoopingHot(t *testing.T) {
	h := newHarness(t)
	h.d = Durations{Validity: 10 * day, RenewalWindow: day, ApprovalSLA: 30 * day, ExpiredRetention: day}
	var failed int
	var start time.Time
	h.applyErr = func(ev opportunity.Event) error {
		if ev.Status != opportunity.Expired {
			return nil
		}
		if start.IsZero() {
			start = h.env.Now()
		}
		if h.env.Now().Sub(start) < day {
			failed++
			return temporal.NewNonRetryableApplicationError("opportunity not found", "NotFound", nil)
		}
		return nil
	}
	if err := h.run(); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	// 1+2+4+8+16+32 min, then hourly: about 30 attempts in the day, not thousands.
	if failed < 10 || failed > 40 {
		t.Errorf("%d failed attempts in one day, want a back-off (about 30)", failed)
	}
	if k := h.kinds(); k["expired-in-analysis"] != 1 {
		t.Errorf("notices %v: the expiry recorded once it could be", k)
	}
}

// TestADecisionPastItsDeadlineIsNotCarriedOut: the API stops waiting at the
// decision's deadline; a decision that reaches the workflow (or its turn) after
// that is refused and never calls the CRM.
func TestADecisionPastItsDeadlineIsNotCarriedOut(t *testing.T) {
	h := newHarness(t)
	h.crmErr = temporal.NewNonRetryableApplicationError("down", crm.ErrTypeUnavailable, nil)
	var stale, first, queued error
	// Reached the workflow after its caller gave up.
	h.env.RegisterDelayedCallback(func() {
		h.at(0, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto", Deadline: h.env.Now().Add(-time.Second)}, &stale)
	}, time.Hour)
	// A slow CRM call holds the lock for 40 s; the decision queued behind it has
	// a deadline 20 s away, past by the time its turn comes.
	h.env.RegisterDelayedCallback(func() {
		h.crmDelay = 40 * time.Second
		h.at(0, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto", Deadline: h.env.Now().Add(85 * time.Second)}, &first)
	}, 2*time.Hour)
	h.env.RegisterDelayedCallback(func() {
		h.at(0, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto", Deadline: h.env.Now().Add(20 * time.Second)}, &queued)
	}, 2*time.Hour+time.Second)
	h.env.RegisterDelayedCallback(func() { h.env.CancelWorkflow() }, 3*time.Hour)
	_ = h.run()
	if errType(stale) != ErrTypeLate {
		t.Errorf("a decision past its deadline: %v, want %s", stale, ErrTypeLate)
	}
	if errType(first) != crm.ErrTypeUnavailable {
		t.Errorf("first decision: %v", first)
	}
	if errType(queued) != ErrTypeLate {
		t.Errorf("the queued decision: %v, want %s", queued, ErrTypeLate)
	}
	if n := len(h.crmStatuses()); n != 1 {
		t.Errorf("the CRM was called %d times, want once (only the decision in time)", n)
	}
}

// TestARenewalRequestRemindsTheRepresentatives: a renewal request waits for a
// representative under the same SLA as an analysis, each reminder a notice of
// its own.
func TestARenewalRequestRemindsTheRepresentatives(t *testing.T) {
	h := newHarness(t)
	var approveErr, renewErr, decideErr error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto Armazém", Probability: 50}, &approveErr)
	h.at(76*day, UpdateRequestRenewal, RenewalRequest{Actor: reseller, Renewal: opportunity.RenewalRequest{
		Reason: "Cliente retomou o projeto", ProbabilityClosing: 75, ProjectStillInScope: "Sim", LastVisitDate: "2026-01-01"}}, &renewErr)
	h.env.RegisterDelayedCallback(func() {
		if st := h.state(); st.Status != opportunity.AwaitingRenovation || st.Reminders != 3 {
			t.Errorf("after 3 SLAs awaiting: %s with %d reminders, want 3", st.Status, st.Reminders)
		}
	}, 76*day+3*48*time.Hour+time.Hour)
	h.at(76*day+3*48*time.Hour+2*time.Hour, UpdateDecideRenewal, RenewalDecision{Actor: rep, Approve: true}, &decideErr)
	err := h.run()
	noErrors(t, map[string]error{"approve": approveErr, "renewal": renewErr, "decision": decideErr})
	var can *workflow.ContinueAsNewError
	if !errors.As(err, &can) {
		t.Errorf("run ended with %v, want continue-as-new after the renewal", err)
	}
	keys := map[string]bool{}
	h.mu.Lock()
	for _, n := range h.notices {
		if n.Kind == "renewal-reminder" {
			keys[n.Key] = true
		}
	}
	h.mu.Unlock()
	if len(keys) != 3 {
		t.Errorf("%d distinct renewal reminders, want 3", len(keys))
	}
}

// TestARetriedRegistrationAdoptsTheStoredRow: a new run of a registration
// whose row an earlier (failed) run stored takes the row's state and numbers
// its events after the ones already recorded.
func TestARetriedRegistrationAdoptsTheStoredRow(t *testing.T) {
	h := newHarness(t)
	// Valid for two more months: its renewal window (15 days before the end) is not open yet.
	valid := time.Now().UTC().AddDate(0, 2, 0).Truncate(time.Second)
	h.registered = func(in activities.RegisterInput) (activities.Registered, error) {
		return activities.Registered{Record: in.Record, Facts: activities.OpportunityFacts{ID: in.ID, Status: opportunity.Approved,
			Name: "Projeto", Probability: 75, Register: "006CRM0009", UserID: seller.UserID, ResaleID: seller.ResaleID,
			CreatedAt: in.At.Add(-time.Hour), ValidUntil: &valid, Cycle: 0, Seq: 2}}, nil
	}
	h.env.RegisterDelayedCallback(func() {
		st := h.state()
		if st.Status != opportunity.Approved || st.Register != "006CRM0009" || !st.ValidUntil.Equal(valid) || st.Seq != 2 {
			t.Errorf("adopted state %+v", st)
		}
	}, 30*time.Second)
	var editErr error
	name := "Projeto novo"
	h.at(time.Minute, UpdateEdit, EditRequest{Actor: rep, Name: &name}, &editErr)
	h.env.RegisterDelayedCallback(func() { h.env.CancelWorkflow() }, time.Hour)
	_ = h.run()
	if editErr != nil {
		t.Fatalf("edit: %v", editErr)
	}
	if k := h.kinds(); k["registered"] != 0 {
		t.Errorf("an adopted registration notified again: %v", k)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var keys []string
	for _, ev := range h.events {
		keys = append(keys, ev.Key)
	}
	if len(keys) == 0 || keys[0] != "op-1/0/3" {
		t.Errorf("event keys %v, want the edit after the stored ones (op-1/0/3)", keys)
	}
}

// TestAnOpportunityThatExpiredInAnalysisCanStillBeRenewed: expired without a
// decision, it accepts a renewal request for the retention like any expired
// opportunity (its run used to end at once, and the request answered 404).
func TestAnOpportunityThatExpiredInAnalysisCanStillBeRenewed(t *testing.T) {
	h := newHarness(t)
	h.d = Durations{Validity: 10 * day, RenewalWindow: day, ApprovalSLA: 30 * day, ExpiredRetention: 30 * day}
	var renewErr, decideErr error
	h.statusAt(10*day+time.Hour, opportunity.Expired)
	h.at(15*day, UpdateRequestRenewal, RenewalRequest{Actor: seller, Renewal: opportunity.RenewalRequest{
		Reason: "Cliente retomou", ProbabilityClosing: 50, ProjectStillInScope: "Sim", LastVisitDate: "2026-01-01"}}, &renewErr)
	h.at(16*day, UpdateDecideRenewal, RenewalDecision{Actor: rep, Approve: true}, &decideErr)
	err := h.run()
	if renewErr != nil || decideErr != nil {
		t.Fatalf("renewal request %v, decision %v", renewErr, decideErr)
	}
	var can *workflow.ContinueAsNewError
	if !errors.As(err, &can) {
		t.Errorf("run ended with %v, want continue-as-new into the renewed cycle", err)
	}
}

// TestSearchAttributesAreUpsertedOnlyWhenTheyChange: 44 reminders in analysis
// change the search attributes once (ApprovalOverdue turns true), not at every
// turn of the loop.
func TestSearchAttributesAreUpsertedOnlyWhenTheyChange(t *testing.T) {
	h := newHarness(t)
	upserts := 0
	h.env.OnUpsertTypedSearchAttributes(mock.Anything).Run(func(mock.Arguments) { upserts++ }).Return(nil)
	if err := h.run(); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	if k := h.kinds(); k["approval-reminder"] != 44 {
		t.Fatalf("notices %v", k)
	}
	// Registered (analysis), overdue after the first reminder, expired.
	if upserts != 3 {
		t.Errorf("%d upserts of the search attributes, want 3", upserts)
	}
}
