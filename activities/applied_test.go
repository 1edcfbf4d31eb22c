package activities_test

import (
	"encoding/json"
	"testing"
	"time"

	"oportuna/activities"
	"oportuna/opportunity"
)

// A decision answers with the record it read before, applied the event it
// recorded (opportunity.Record.Applied), instead of reading it again: the
// answer must be the record the read model now holds, for every kind of event.
func TestAppliedIsTheStoredRecord(t *testing.T) {
	a, _, seller, ctx := setup(t)
	rep := opportunity.Actor{UserID: seller.UserID, Name: "Renata"}
	id := "33333333-3333-4333-8333-333333333333"
	register(t, a, seller, id, "yep", "11222333000181")
	at := func(d time.Duration) time.Time { return time.Now().Add(d).UTC() } // the workflow's clock is UTC, to the nanosecond
	name, prob, reason, register, yes := "Projeto aprovado", 75, "Cliente desistiu", "CRM-1", true
	approved, valid := at(time.Second), at(2160*time.Hour)
	renewal := opportunity.RenewalRequest{Reason: "Retomado", ProbabilityClosing: 50, ProjectStillInScope: "Sim",
		LastVisitDate: "2026-01-02", ProposalSent: "Sim", ProductHomologated: "Não", NextStep: "Visitar"}
	for i, ev := range []opportunity.Event{
		{Actor: &rep, Status: opportunity.Approved, Name: &name, Probability: &prob, ApprovedAt: &approved, ValidUntil: &valid, Register: &register},
		{Actor: &rep, Status: opportunity.Approved, Probability: &prob},
		{Status: opportunity.Renovation},
		{Status: opportunity.Expired},
		{Actor: &seller, Status: opportunity.AwaitingRenovation, Reason: &renewal.Reason, Probability: &renewal.ProbabilityClosing, Renewal: &renewal},
		{Actor: &rep, Status: opportunity.Disapproved, Reason: &reason},
		{Status: opportunity.Disapproved, Deleted: &yes, System: activities.OperatorName},
	} {
		before, err := a.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		ev.Key, ev.OpportunityID, ev.Brand, ev.At = id+"/0/"+string(rune('2'+i)), id, "yep", at(time.Duration(i+2)*time.Second)
		ev.Changes = []opportunity.Change{{Attribute: "status", NewValue: string(ev.Status)}}
		if _, err := a.Apply(ctx, ev); err != nil {
			t.Fatal(err)
		}
		after, err := a.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(before.Applied(ev))
		want, _ := json.Marshal(after)
		if string(got) != string(want) {
			t.Errorf("event %d (%s): the answer\n%s\nis not the stored record\n%s", i, ev.Status, got, want)
		}
	}
}
