package activities_test

import (
	"testing"
	"time"

	"oportuna/activities"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
)

// TestCRMCloseDatesAreBrasiliasDayAtHalfPastElevenAtNight: at 23:30 in
// Brasília (already tomorrow in UTC and UTC+14) an expiry closes the CRM record
// today and an approval without a conclusion date closes it at the end of its
// validity, both as days of Brasília's calendar.
func TestCRMCloseDatesAreBrasiliasDayAtHalfPastElevenAtNight(t *testing.T) {
	rec := opportunity.Record{ID: "op-1", Brand: "yep", Name: "Registrado", Status: opportunity.Approved, ProbabilityClosing: 25}
	for zone, now := range testenv.LateEvenings() {
		closed := activities.CRMOpportunity(rec, activities.CRMSyncInput{Status: opportunity.Expired}, now, 90*24*time.Hour)
		if got := closed.CloseDate.Format("2006-01-02"); got != "2026-11-30" {
			t.Errorf("%s: expiry closes on %s, want 2026-11-30", zone, got)
		}
		open := activities.CRMOpportunity(rec, activities.CRMSyncInput{Status: opportunity.Approved}, now, 24*time.Hour)
		if got := open.CloseDate.Format("2006-01-02"); got != "2026-12-01" {
			t.Errorf("%s: a one-day validity closes on %s, want 2026-12-01", zone, got)
		}
	}
}
