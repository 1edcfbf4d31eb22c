package workflows

import (
	"strings"
	"testing"
	"time"

	"oportuna/internal/calendar"
	"oportuna/opportunity"
)

// TestRenewalVisitDateIsBrasiliasTodayAtHalfPastElevenAtNight: the workflow's
// validator reads its own clock (workflow.Now) in Brasília's calendar. At
// 23:30 on 30/11 in Brasília (02:30 on 01/12 in UTC) a last visit on 01/12 is
// refused and one on 30/11 is accepted.
func TestRenewalVisitDateIsBrasiliasTodayAtHalfPastElevenAtNight(t *testing.T) {
	h := newHarness(t)
	h.d.Validity = 90 * day
	lateEvening := time.Date(2026, 11, 30, 23, 30, 0, 0, calendar.Location)
	h.env.SetStartTime(lateEvening.Add(-80 * day)) // in renovation 80 days on
	renewal := opportunity.RenewalRequest{Reason: "Cliente retomou", ProbabilityClosing: 50, ProjectStillInScope: "Sim"}
	tomorrow, today := renewal, renewal
	tomorrow.LastVisitDate, today.LastVisitDate = "01/12/2026", "30/11/2026"
	var approveErr, tomorrowErr, todayErr, refuseErr error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Ok", Probability: 25}, &approveErr)
	h.at(80*day, UpdateRequestRenewal, RenewalRequest{Actor: seller, Renewal: tomorrow}, &tomorrowErr)
	h.at(80*day+time.Minute, UpdateRequestRenewal, RenewalRequest{Actor: seller, Renewal: today}, &todayErr)
	h.at(80*day+5*time.Minute, UpdateDecideRenewal, RenewalDecision{Actor: rep, Reason: "Sem orçamento"}, &refuseErr)
	if err := h.run(); err != nil {
		t.Fatal(err)
	}
	if approveErr != nil || refuseErr != nil {
		t.Fatalf("approve %v, refuse %v", approveErr, refuseErr)
	}
	if errType(tomorrowErr) != ErrTypeInvalid || !strings.Contains(tomorrowErr.Error(), opportunity.MsgVisitDate) {
		t.Errorf("a visit tomorrow (01/12): %v", tomorrowErr)
	}
	if todayErr != nil {
		t.Errorf("a visit today (30/11): %v", todayErr)
	}
}
