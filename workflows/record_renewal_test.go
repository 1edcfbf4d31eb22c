package workflows_test

import (
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"oportuna/activities"
	"oportuna/crm"
	"oportuna/internal/dev/localcrm"
	"oportuna/opportunity"
	"oportuna/workflows"
)

// Recorded paths of an opportunity after its validity: the renewal window,
// the expiry, a renewal request and its decision (record_test.go).

// approveIntoRenovation registers and approves an opportunity, then waits for its renewal window.
func approveIntoRenovation(t *testing.T, s *stack, id string) {
	t.Helper()
	_, rep := people(t, s)
	s.register(t, id)
	s.explainOnFailure(t, workflows.OpportunityWorkflowID(id))
	if err := s.decide(workflows.OpportunityWorkflowID(id), workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Renovado", Probability: 50}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, s.db, id, opportunity.Renovation, 20*time.Second)
}

// TestRecordExpiryInAnalysis: an opportunity no representative decided within
// its validity expires, and the representatives and the owner hear of it. Its
// run stays for the retention (counted from the analysis deadline), so the
// owner may still ask for a renewal; its approval creates the CRM record the
// opportunity never had and continues as new for the next validity.
func TestRecordExpiryInAnalysis(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: 3 * time.Second, RenewalWindow: time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
	seller, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	s.register(t, id)
	s.explainOnFailure(t, workflows.OpportunityWorkflowID(id))
	run := s.runID(t, wfID)
	waitStatus(t, s.db, id, opportunity.Expired, 20*time.Second)
	waitFor(t, 10*time.Second, "the expiry notice", func() bool { return s.notices(t, id, "expired-in-analysis") == 1 })
	if _, _, register, _ := s.row(t, id); register != "" {
		t.Errorf("an opportunity never approved has a CRM record %q", register)
	}
	s.settleRunning(t, wfID, run)
	if err := s.decide(wfID, workflows.UpdateRequestRenewal, renewalBy(seller)); err != nil {
		t.Fatalf("renewal request of an opportunity that expired in analysis: %v", err)
	}
	if err := s.decide(wfID, workflows.UpdateDecideRenewal, workflows.RenewalDecision{Actor: rep, Approve: true}); err != nil {
		t.Fatal(err)
	}
	s.closed(t, wfID, run, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 20*time.Second)
	if status, _, register, _ := s.row(t, id); status != string(opportunity.Approved) || register == "" {
		t.Errorf("after the renewal: %s register %q", status, register)
	}
	recordPath(t, s, wfID, run, recordedExpiryInAnalysis)
}

// TestRecordCRMRefusalOnRenewalApproval: the CRM refuses the renewed approval;
// the opportunity keeps awaiting the decision; the next approval, accepted,
// ends the run as continued-as-new for the next validity.
func TestRecordCRMRefusalOnRenewalApproval(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: 8 * time.Second, RenewalWindow: 6 * time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
	refusing := &flakyCRM{CRM: localcrm.CRM{DB: s.db}}
	s.acts.CRM = refusing // before the first activity runs
	seller, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	approveIntoRenovation(t, s, id)
	run := s.runID(t, wfID)
	if err := s.decide(wfID, workflows.UpdateRequestRenewal, renewalBy(seller)); err != nil {
		t.Fatal(err)
	}
	refusing.fail = true
	renew := workflows.RenewalDecision{Actor: rep, Approve: true}
	if err := s.decide(wfID, workflows.UpdateDecideRenewal, renew); errType(err) != crm.ErrTypeCustomerNotFound {
		t.Fatalf("renewal approval the CRM refused: %v", err)
	}
	if status, _, _, _ := s.row(t, id); status != string(opportunity.AwaitingRenovation) {
		t.Fatalf("after the refusal: %s", status)
	}
	refusing.fail = false
	if err := s.decide(wfID, workflows.UpdateDecideRenewal, renew); err != nil {
		t.Fatal(err)
	}
	s.closed(t, wfID, run, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 20*time.Second)
	if st := s.state(t, id); st.Status != opportunity.Approved || st.Cycle != 1 {
		t.Errorf("the next run: %s cycle %d", st.Status, st.Cycle)
	}
	if status, _, _, _ := s.row(t, id); status != string(opportunity.Approved) {
		t.Errorf("read model %s", status)
	}
	if n := s.notices(t, id, "renewal-approved"); n != 1 {
		t.Errorf("renewal approval notices %d", n)
	}
	recordPath(t, s, wfID, run, recordedCRMRefusedRenewal)
}

// TestRecordSecondRunExpiresAfterARenewal: after a renewal the next run starts
// from the carried state, opens the renewal window and expires on its own
// timers, then ends after the retention.
func TestRecordSecondRunExpiresAfterARenewal(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: 6 * time.Second, RenewalWindow: 4 * time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Second}, nil)
	seller, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	approveIntoRenovation(t, s, id)
	first := s.runID(t, wfID)
	if err := s.decide(wfID, workflows.UpdateRequestRenewal, renewalBy(seller)); err != nil {
		t.Fatal(err)
	}
	if err := s.decide(wfID, workflows.UpdateDecideRenewal, workflows.RenewalDecision{Actor: rep, Approve: true}); err != nil {
		t.Fatal(err)
	}
	s.closed(t, wfID, first, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 20*time.Second)
	second := s.runID(t, wfID)
	st, err := result[workflows.OpportunityState](t, s, wfID, second, 40*time.Second)
	if err != nil || st.Status != opportunity.Expired || st.Cycle != 1 {
		t.Fatalf("the second run ended with %s cycle %d, %v", st.Status, st.Cycle, err)
	}
	s.closed(t, wfID, second, enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, time.Second)
	if status, _, _, _ := s.row(t, id); status != string(opportunity.Expired) {
		t.Errorf("read model %s", status)
	}
	// Both cycles opened the renewal window; the second one expired.
	if open, expired := s.notices(t, id, "renewal-open"), s.notices(t, id, "expired"); open != 2 || expired != 1 {
		t.Errorf("renewal-open notices %d (want 2), expired %d (want 1)", open, expired)
	}
	recordPath(t, s, wfID, second, recordedSecondRun)
}

// TestRecordRenewalRequestRemindsThenIsRefused: a renewal request waiting past
// APPROVAL_SLA reminds the representatives like an analysis; the refusal ends
// the run (and closes the CRM record in the background).
func TestRecordRenewalRequestRemindsThenIsRefused(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: 6 * time.Second, RenewalWindow: 4 * time.Second, ApprovalSLA: time.Second, ExpiredRetention: time.Hour}, nil)
	seller, rep := people(t, s)
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	approveIntoRenovation(t, s, id)
	run := s.runID(t, wfID)
	if err := s.decide(wfID, workflows.UpdateRequestRenewal, renewalBy(seller)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "two renewal reminders", func() bool { return s.state(t, id).Reminders >= 2 })
	if err := s.decide(wfID, workflows.UpdateDecideRenewal, workflows.RenewalDecision{Actor: rep, Reason: "Projeto cancelado pelo cliente"}); err != nil {
		t.Fatal(err)
	}
	st, err := result[workflows.OpportunityState](t, s, wfID, run, 20*time.Second)
	if err != nil || st.Status != opportunity.Disapproved || st.Reminders < 2 {
		t.Fatalf("the run ended with %s after %d reminders, %v", st.Status, st.Reminders, err)
	}
	s.closed(t, wfID, run, enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, time.Second)
	if status, reason, _, _ := s.row(t, id); status != string(opportunity.Disapproved) || reason != "Projeto cancelado pelo cliente" {
		t.Errorf("read model %s %q", status, reason)
	}
	if n := s.notices(t, id, "renewal-reminder"); n != st.Reminders {
		t.Errorf("%d renewal reminder notices for %d reminders", n, st.Reminders)
	}
	if n := s.notices(t, id, "renewal-refused"); n != 1 {
		t.Errorf("renewal refusal notices %d", n)
	}
	recordPath(t, s, wfID, run, recordedRenewalReminders)
}
