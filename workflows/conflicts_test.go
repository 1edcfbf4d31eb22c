package workflows

import (
	"strings"
	"testing"
	"time"

	"oportuna/activities"
	"oportuna/opportunity"
)

// TestAnApprovalHeldBackByAnEarlierRegistrationNeedsAnOverrideReason: with an
// earlier open registration of the same CNPJ root, an approval without a
// reason is refused (typed conflict, nothing sent to the CRM nor recorded);
// one with a reason over the cap is invalid; one with a reason approves, logs
// the reason and the registration it passed over in its own history and in
// the earlier registration's.
func TestAnApprovalHeldBackByAnEarlierRegistrationNeedsAnOverrideReason(t *testing.T) {
	h := newHarness(t)
	h.earlier = []activities.EarlierConflict{{ID: "older-1", Status: opportunity.Approved}}
	var plain, long, overridden error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto"}, &plain)
	h.statusAt(time.Hour+time.Minute, opportunity.Analysis)
	h.at(2*time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto", OverrideReason: strings.Repeat("x", MaxOverrideReason+1)}, &long)
	h.at(3*time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto", OverrideReason: "  Cliente pediu esta revenda.  "}, &overridden)
	h.statusAt(3*time.Hour+time.Minute, opportunity.Approved)
	h.env.RegisterDelayedCallback(func() { h.env.CancelWorkflow() }, 4*time.Hour)
	_ = h.run()
	if errType(plain) != ErrTypeConflict || !strings.Contains(plain.Error(), "older-1") || !strings.Contains(plain.Error(), "aprovado") {
		t.Errorf("approval without a reason: %v, want a %s naming older-1 and its status", plain, ErrTypeConflict)
	}
	if errType(long) != ErrTypeInvalid || overridden != nil {
		t.Errorf("too long a reason: %v; with a reason: %v", long, overridden)
	}
	if len(h.crmCalls) != 1 || len(h.events) != 1 {
		t.Fatalf("CRM calls %d, events %+v: only the overriding approval may reach them", len(h.crmCalls), h.events)
	}
	ev := h.events[0]
	got := map[string]string{}
	for _, c := range ev.Changes {
		got[c.Attribute] = c.NewValue
	}
	if got[AttrOverridden] != "older-1" || got[AttrOverrideReason] != "Cliente pediu esta revenda." {
		t.Errorf("approval's history lines %+v, want the overridden registration and the trimmed reason", ev.Changes)
	}
	if len(h.overrides) != 1 {
		t.Fatalf("override logged %d times on the earlier registrations, want once", len(h.overrides))
	}
	if o := h.overrides[0]; o.Key != ev.Key || o.OpportunityID != ev.OpportunityID || len(o.Others) != 1 || o.Others[0] != "older-1" ||
		o.Reason != "Cliente pediu esta revenda." || o.Actor.UserID != rep.UserID {
		t.Errorf("override logged %+v for the approval %s", o, ev.Key)
	}
}

// TestAnApprovalWithoutEarlierRegistrationsLogsNoOverride: no conflict, no
// override lines, even when the request carries a reason.
func TestAnApprovalWithoutEarlierRegistrationsLogsNoOverride(t *testing.T) {
	h := newHarness(t)
	var err error
	h.at(time.Hour, UpdateApprove, ApproveRequest{Actor: rep, Name: "Projeto", OverrideReason: "por via das dúvidas"}, &err)
	h.statusAt(time.Hour+time.Minute, opportunity.Approved)
	h.env.RegisterDelayedCallback(func() { h.env.CancelWorkflow() }, 2*time.Hour)
	_ = h.run()
	if err != nil || len(h.events) != 1 {
		t.Fatalf("approval: %v, events %+v", err, h.events)
	}
	for _, c := range h.events[0].Changes {
		if c.Attribute == AttrOverridden || c.Attribute == AttrOverrideReason {
			t.Errorf("an approval with no conflict logged %+v", c)
		}
	}
	if len(h.overrides) != 0 {
		t.Errorf("override logged with no conflict: %+v", h.overrides)
	}
}

func TestConflictMessageNamesTheOldestAndCountsTheOthers(t *testing.T) {
	msg := ConflictMessage([]activities.EarlierConflict{{ID: "a-1", Status: opportunity.Analysis}, {ID: "b-2", Status: opportunity.Approved},
		{ID: "c-3", Status: opportunity.AwaitingRenovation}})
	if !strings.Contains(msg, "a-1") || !strings.Contains(msg, "em análise") || !strings.Contains(msg, "e mais 2 registros") || strings.Contains(msg, "b-2") {
		t.Errorf("message %q", msg)
	}
}
