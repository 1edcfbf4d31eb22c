package activities

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/temporal"

	"oportuna/coverage"
	"oportuna/store"
)

// AssignInput names a registration whose responsible representatives are
// computed (docs/deal-desk.md, "Routing").
type AssignInput struct {
	ID    string `json:"id"`
	Brand string `json:"brand"`
}

// Rules reads the coverage of the brand's active representatives.
func Rules(ctx context.Context, q *store.Queries, brand string) ([]coverage.Rule, error) {
	reps, err := q.BrandRepresentatives(ctx, brand)
	if err != nil {
		return nil, err
	}
	rules := make([]coverage.Rule, len(reps))
	for i, r := range reps {
		rules[i] = coverage.Rule{UserID: r.ID, States: r.States, ResaleIDs: r.ResaleIds}
	}
	return rules, nil
}

// AssignRepresentatives computes a registration's responsible representatives
// from the rules in force and stores them on the opportunity, once: a retry,
// or a new run of the same registration, answers those stored first. It
// answers the stored ids (none when the brand has no representative).
func (a *Activities) AssignRepresentatives(ctx context.Context, in AssignInput) ([]string, error) {
	q := store.New(a.DB)
	row, err := q.OpportunityRouting(ctx, in.ID)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, temporal.NewNonRetryableApplicationError("opportunity not found: "+in.ID, "NotFound", nil)
	}
	if err != nil {
		return nil, fmt.Errorf("opportunity routing %s: %w", in.ID, err)
	}
	if len(row.RepresentativeIds) > 0 {
		return row.RepresentativeIds, nil // assigned already (a retry, a new run, a reassignment)
	}
	rules, err := Rules(ctx, q, in.Brand)
	if err != nil {
		return nil, fmt.Errorf("coverage rules %s: %w", in.Brand, err)
	}
	ids := coverage.Responsible(rules, row.State, store.Deref(row.ResaleID))
	if ids == nil {
		ids = []string{}
	}
	stored, err := q.AssignRepresentatives(ctx, store.AssignRepresentativesParams{ID: in.ID, RepresentativeIds: ids})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, temporal.NewNonRetryableApplicationError("opportunity not found: "+in.ID, "NotFound", nil)
	}
	if err != nil {
		return nil, fmt.Errorf("assign representatives %s: %w", in.ID, err)
	}
	return stored, nil
}
