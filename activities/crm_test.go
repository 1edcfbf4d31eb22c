package activities_test

import (
	"testing"
	"time"

	"oportuna/activities"
	"oportuna/opportunity"
)

// TestTheCRMGetsTheStatusTheWorkflowDecides: SyncCRM sends the status the
// workflow asks for (an edit keeps it, an expiry or a renewal refusal closes
// the record today); without one, as in approvals recorded before the status
// was sent, an opportunity in analysis goes as approved. Only a renewal
// approval may reopen a record.
func TestTheCRMGetsTheStatusTheWorkflowDecides(t *testing.T) {
	now := time.Date(2026, 3, 10, 15, 0, 0, 0, time.UTC)
	rec := opportunity.Record{ID: "op-1", Brand: "yep", Name: "Registrado", Status: opportunity.Analysis, ProbabilityClosing: 25,
		Projects: []opportunity.Project{{ConclusionDate: "2026-11-15"}}}
	in := func(st opportunity.Status, reopen bool) activities.CRMSyncInput {
		return activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: "op-1", Brand: "yep", Name: "Projeto", Probability: 50},
			Status: st, Reopen: reopen}
	}
	for _, c := range []struct {
		name      string
		rec       opportunity.Status
		in        activities.CRMSyncInput
		want      opportunity.Status
		close     string
		reopen    bool
		nameSent  string
		probaSent int
	}{
		{"approval recorded before the status was sent", opportunity.Analysis, in("", false), opportunity.Approved, "2026-11-15", false, "Projeto", 50},
		{"edit of an opportunity in renovation", opportunity.Renovation, in(opportunity.Renovation, false), opportunity.Renovation, "2026-11-15", false, "Projeto", 50},
		{"expiry", opportunity.Expired, in(opportunity.Expired, false), opportunity.Expired, "2026-03-10", false, "Projeto", 50},
		{"renewal refusal", opportunity.Disapproved, in(opportunity.Disapproved, false), opportunity.Disapproved, "2026-03-10", false, "Projeto", 50},
		{"renewal approval", opportunity.AwaitingRenovation, in(opportunity.Approved, true), opportunity.Approved, "2026-11-15", true, "Projeto", 50},
		{"reopen asked with a closing status", opportunity.Expired, in(opportunity.Expired, true), opportunity.Expired, "2026-03-10", false, "Projeto", 50},
		{"no name nor probability: the record's", opportunity.Approved, activities.CRMSyncInput{Status: opportunity.Approved},
			opportunity.Approved, "2026-11-15", false, "Registrado", 25},
	} {
		r := rec
		r.Status = c.rec
		o := activities.CRMOpportunity(r, c.in, now, 90*24*time.Hour)
		if o.Status != c.want || o.CloseDate.Format("2006-01-02") != c.close || o.Reopen != c.reopen || o.Name != c.nameSent || o.Probability != c.probaSent {
			t.Errorf("%s: status %s close %s reopen %v name %q probability %d; want %s %s %v %q %d", c.name, o.Status,
				o.CloseDate.Format("2006-01-02"), o.Reopen, o.Name, o.Probability, c.want, c.close, c.reopen, c.nameSent, c.probaSent)
		}
	}
}
