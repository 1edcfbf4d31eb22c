package activities

import (
	"context"
	"fmt"
	"time"

	"oportuna/opportunity"
	"oportuna/store"
)

// EarlierConflict is an open registration of the same CNPJ root registered
// before the one being approved (ids and status only: no customer data in
// the workflow's history).
type EarlierConflict struct {
	ID     string             `json:"id"`
	Status opportunity.Status `json:"status"`
}

// EarlierConflicts reads the open registrations of the opportunity's CNPJ
// root at its brand registered before it, oldest first: the approval's
// conflict check (workflows/conflicts.go; docs/deal-desk.md, "Conflicts").
func (a *Activities) EarlierConflicts(ctx context.Context, id string) ([]EarlierConflict, error) {
	rows, err := store.New(a.DB).EarlierRootConflicts(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("earlier conflicts of %s: %w", id, err)
	}
	out := make([]EarlierConflict, len(rows))
	for i, r := range rows {
		out[i] = EarlierConflict{ID: r.ID, Status: opportunity.Status(r.Status)}
	}
	return out, nil
}

// ConflictOverride is an approval that overrode earlier registrations of the
// same customer: each of them (Others) logs it in its history, under a key of
// its own derived from the approval's event key (Key), so a retry writes once.
type ConflictOverride struct {
	Key           string            `json:"key"`
	Brand         string            `json:"brand"`
	OpportunityID string            `json:"opportunityId"`
	Others        []string          `json:"others"`
	Actor         opportunity.Actor `json:"actor"`
	Reason        string            `json:"reason"`
	At            time.Time         `json:"at"`
}

// Attributes of the history lines of an override (the details show them).
const (
	AttrOverrideReason = "conflictOverrideReason"
	AttrOverriddenBy   = "conflictOverriddenBy"
)

// LogConflictOverride writes the override in the history of each earlier
// registration it passed over: the approved registration's id and the reason.
func (a *Activities) LogConflictOverride(ctx context.Context, in ConflictOverride) error {
	q := store.New(a.DB)
	for _, other := range in.Others {
		h := opportunity.History{Key: in.Key + "/override/" + other, Type: "opportunity", TypeID: other, Brand: in.Brand,
			Actor: &in.Actor, Action: "update", At: in.At, Changes: []opportunity.Change{
				{Attribute: AttrOverriddenBy, NewValue: in.OpportunityID},
				{Attribute: AttrOverrideReason, NewValue: in.Reason}}}
		if err := h.Record(ctx, q); err != nil {
			return fmt.Errorf("log the override of %s on %s: %w", in.OpportunityID, other, err)
		}
	}
	return nil
}
