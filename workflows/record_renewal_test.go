package workflows_test

import (
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"oportuna/activities"
	"oportuna/crm"
	"oportuna/internal/dev/localcrm"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/workflows"
)

// Recorded paths of an opportunity after its validity: the renewal window,
// the expiry, a renewal request and its decision (record_test.go).

// approvedIntoRenovation registers and approves an opportunity, then waits for
// its renewal window; it answers what registered answers.
func approvedIntoRenovation(t *testing.T, s *stack) (id, wfID, run string) {
	t.Helper()
	_, rep := people(t, s)
	id, wfID, _ = s.registered(t)
	s.decided(t, wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Renovado", Probability: 50})
	waitStatus(t, s.db, id, opportunity.Renovation, 20*time.Second)
	return id, wfID, s.runID(t, wfID)
}

// renewalRequested is approvedIntoRenovation followed by the seller's renewal
// request: the run waits for a representative's decision on it.
func renewalRequested(t *testing.T, s *stack) (id, wfID, run string) {
	t.Helper()
	seller, _ := people(t, s)
	id, wfID, run = approvedIntoRenovation(t, s)
	s.decided(t, wfID, workflows.UpdateRequestRenewal, renewalBy(seller))
	return id, wfID, run
}

// TestRecordExpiryInAnalysis: an opportunity no representative decided within
// its validity expires, and the representatives and the owner hear of it. Its
// run stays for the retention (counted from the analysis deadline), so the
// owner may still ask for a renewal; its approval creates the CRM record the
// opportunity never had and continues as new for the next validity.
func TestRecordExpiryInAnalysis(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: 3 * time.Second, RenewalWindow: time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
	seller, rep := people(t, s)
	id, wfID, run := s.registered(t)
	waitStatus(t, s.db, id, opportunity.Expired, 20*time.Second)
	testenv.WaitFor(t, 10*time.Second, "the expiry notice", func() bool { return s.notices(t, id, "expired-in-analysis") == 1 })
	if _, _, register, _ := s.row(t, id); register != "" {
		t.Errorf("an opportunity never approved has a CRM record %q", register)
	}
	s.settleRunning(t, wfID, run)
	if err := s.decide(wfID, workflows.UpdateRequestRenewal, renewalBy(seller)); err != nil {
		t.Fatalf("renewal request of an opportunity that expired in analysis: %v", err)
	}
	s.decided(t, wfID, workflows.UpdateDecideRenewal, workflows.RenewalDecision{Actor: rep, Approve: true})
	s.closed(t, wfID, run, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 20*time.Second)
	s.approvedWithRecord(t, id, "after the renewal")
	recordPath(t, s, wfID, run, recordedExpiryInAnalysis)
}

// TestRecordCRMRefusalOnRenewalApproval: the CRM refuses the renewed approval;
// the opportunity keeps awaiting the decision; the next approval, accepted,
// ends the run as continued-as-new for the next validity.
func TestRecordCRMRefusalOnRenewalApproval(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: 8 * time.Second, RenewalWindow: 6 * time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Hour}, nil)
	refusing := &flakyCRM{CRM: localcrm.CRM{DB: s.db}}
	s.acts.CRM = refusing // before the first activity runs
	_, rep := people(t, s)
	id, wfID, run := renewalRequested(t, s)
	refusing.fail = true
	renew := workflows.RenewalDecision{Actor: rep, Approve: true}
	if err := s.decide(wfID, workflows.UpdateDecideRenewal, renew); errType(err) != crm.ErrTypeCustomerNotFound {
		t.Fatalf("renewal approval the CRM refused: %v", err)
	}
	if status, _, _, _ := s.row(t, id); status != string(opportunity.AwaitingRenovation) {
		t.Fatalf("after the refusal: %s", status)
	}
	refusing.fail = false
	s.decided(t, wfID, workflows.UpdateDecideRenewal, renew)
	s.closed(t, wfID, run, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 20*time.Second)
	if st := s.state(t, id); st.Status != opportunity.Approved || st.Cycle != 1 {
		t.Errorf("the next run: %s cycle %d", st.Status, st.Cycle)
	}
	if status, _, _, _ := s.row(t, id); status != string(opportunity.Approved) {
		t.Errorf("read model %s", status)
	}
	s.sentOnce(t, id, "renewal-approved")
	recordPath(t, s, wfID, run, recordedCRMRefusedRenewal)
}

// TestRecordSecondRunExpiresAfterARenewal: after a renewal the next run starts
// from the carried state, opens the renewal window and expires on its own
// timers, then ends after the retention.
func TestRecordSecondRunExpiresAfterARenewal(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: 6 * time.Second, RenewalWindow: 4 * time.Second, ApprovalSLA: time.Hour, ExpiredRetention: time.Second}, nil)
	_, rep := people(t, s)
	id, wfID, first := renewalRequested(t, s)
	s.decided(t, wfID, workflows.UpdateDecideRenewal, workflows.RenewalDecision{Actor: rep, Approve: true})
	s.closed(t, wfID, first, enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, 20*time.Second)
	second := s.runID(t, wfID)
	completed(t, s, wfID, second, 40*time.Second, func(st workflows.OpportunityState) bool { return st.Status == opportunity.Expired && st.Cycle == 1 })
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
	_, rep := people(t, s)
	id, wfID, run := renewalRequested(t, s)
	testenv.WaitFor(t, 30*time.Second, "two renewal reminders", func() bool { return s.state(t, id).Reminders >= 2 })
	s.decided(t, wfID, workflows.UpdateDecideRenewal, workflows.RenewalDecision{Actor: rep, Reason: "Projeto cancelado pelo cliente"})
	st := completed(t, s, wfID, run, 20*time.Second, func(st workflows.OpportunityState) bool {
		return st.Status == opportunity.Disapproved && st.Reminders >= 2
	})
	if status, reason, _, _ := s.row(t, id); status != string(opportunity.Disapproved) || reason != "Projeto cancelado pelo cliente" {
		t.Errorf("read model %s %q", status, reason)
	}
	if n := s.notices(t, id, "renewal-reminder"); n != st.Reminders {
		t.Errorf("%d renewal reminder notices for %d reminders", n, st.Reminders)
	}
	s.sentOnce(t, id, "renewal-refused")
	recordPath(t, s, wfID, run, recordedRenewalReminders)
}
