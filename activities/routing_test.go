package activities_test

import (
	"slices"
	"testing"

	"oportuna/activities"
)

// TestNoticesGoToTheResponsibleRepresentativesAndAssignmentIsOnce: the
// assignment of a registration with no UF falls back to every representative
// and, asked again, answers the stored one; a notice naming representative
// ids reaches only those; one naming nobody still active reaches them all.
func TestNoticesGoToTheResponsibleRepresentativesAndAssignmentIsOnce(t *testing.T) {
	a, _, seller, ctx := setup(t)
	id := register(t, a, seller, "55555555-5555-4555-8555-555555555555", "yep", "11222333000181").Record.ID
	var rep2, multi string
	_ = a.DB.QueryRow(ctx, `SELECT id::text FROM users WHERE email = 'representante2@yep.demo'`).Scan(&rep2)
	_ = a.DB.QueryRow(ctx, `SELECT id::text FROM users WHERE email = 'multi@yep.demo'`).Scan(&multi)
	first, err := a.AssignRepresentatives(ctx, activities.AssignInput{ID: id, Brand: "yep"})
	if err != nil || len(first) != 3 {
		t.Fatalf("assignment %v (%v), want the 3 representatives of yep (no UF)", first, err)
	}
	if _, err := a.DB.Exec(ctx, `UPDATE opportunities SET representative_ids = ARRAY[$1::uuid] WHERE id = $2`, rep2, id); err != nil {
		t.Fatal(err)
	}
	if again, err := a.AssignRepresentatives(ctx, activities.AssignInput{ID: id, Brand: "yep"}); err != nil || !slices.Equal(again, []string{rep2}) {
		t.Errorf("a second assignment %v (%v), want the stored one", again, err)
	}
	to := func(key string) []string {
		rows, _ := a.DB.Query(ctx, `SELECT user_id::text FROM notifications WHERE notice_key = $1 ORDER BY 1`, key)
		defer rows.Close()
		var ids []string
		for rows.Next() {
			var s string
			_ = rows.Scan(&s)
			ids = append(ids, s)
		}
		return ids
	}
	n := activities.Notice{Key: id + "/0/1/registered", Brand: "yep", OpportunityID: id, Kind: "registered", ToRepresentatives: true,
		Representatives: []string{rep2}}
	if err := a.Notify(ctx, n); err != nil {
		t.Fatal(err)
	}
	if got := to(n.Key); !slices.Equal(got, []string{rep2}) {
		t.Errorf("notice to %v, want representante2@ only", got)
	}
	if _, err := a.DB.Exec(ctx, `UPDATE users SET active = false WHERE id = $1`, multi); err != nil {
		t.Fatal(err)
	}
	n = activities.Notice{Key: id + "/0/1/approval-reminder/1", Brand: "yep", OpportunityID: id, Kind: "approval-reminder",
		ToRepresentatives: true, Representatives: []string{multi}, Detail: "1"}
	if err := a.Notify(ctx, n); err != nil {
		t.Fatal(err)
	}
	if got := to(n.Key); len(got) != 2 || slices.Contains(got, multi) {
		t.Errorf("a notice whose representative left went to %v, want the 2 active representatives", got)
	}
}
