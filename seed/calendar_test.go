package seed

import (
	"testing"
	"time"

	"oportuna/internal/calendar"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
)

// TestDemoDatesPassTheServersRulesAtHalfPastElevenAtNight: seeding at 23:30 in
// Brasília (already tomorrow in UTC and UTC+14) sends a last visit the server
// accepts (today, not tomorrow) and a conclusion after today.
func TestDemoDatesPassTheServersRulesAtHalfPastElevenAtNight(t *testing.T) {
	late := testenv.LateEvening
	for zone, now := range testenv.LateEvenings() {
		if got := visitDate(now); got != "2026-11-30" {
			t.Errorf("%s: last visit %s, want 2026-11-30", zone, got)
		}
		if errs := opportunity.CheckRenewal(opportunity.RenewalRequest{Reason: "x", ProbabilityClosing: 75, ProjectStillInScope: "Sim",
			LastVisitDate: visitDate(now)}, late); len(errs) != 0 {
			t.Errorf("%s: the server refuses the demo renewal: %v", zone, errs)
		}
		if got, ok := opportunity.ParseDate(conclusionDate(now)); !ok || !got.After(calendar.Date(late)) || got.Format(time.DateOnly) != "2027-03-02" {
			t.Errorf("%s: conclusion %s, want three months after 30/11/2026", zone, conclusionDate(now))
		}
	}
}
