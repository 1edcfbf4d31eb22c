// Package localcrm is a CRM without a server (crm.Client), for tests that need
// no HTTP: upserts are accepted, records are read back from the portal's read
// model and sellers are the portal's users. Never part of the production
// binary (cmd/oportuna's build test keeps it so).
package localcrm

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/crm"
	"oportuna/opportunity"
	"oportuna/store"
)

// CRM is a crm.Client without a server, for tests: it accepts every upsert and
// answers a stable record id derived from ours; its sellers are the portal's
// active sellers of the brand. Development and integration tests use
// crm.Salesforce against internal/dev/crmsim instead.
type CRM struct {
	DB *pgxpool.Pool
}

// Sellers lists the brand's active SELLER users with their company.
func (l CRM) Sellers(ctx context.Context, brand string) ([]crm.Seller, error) {
	if l.DB == nil {
		return nil, crm.ErrUnavailable
	}
	rows, err := store.New(l.DB).BrandSellers(ctx, brand)
	if err != nil {
		return nil, err
	}
	sellers := make([]crm.Seller, len(rows))
	for i, r := range rows {
		sellers[i] = crm.Seller{Name: r.Name, UserID: r.ID, Company: r.Resale}
	}
	return sellers, nil
}

// UpsertOpportunity returns "LOCAL-" and the first 12 hexadecimal digits of the id.
func (CRM) UpsertOpportunity(_ context.Context, o crm.Opportunity) (string, error) {
	return localID(o.ID), nil
}

func localID(id string) string {
	id = strings.ToUpper(strings.ReplaceAll(id, "-", ""))
	if len(id) > 12 {
		id = id[:12]
	}
	return "LOCAL-" + id
}

// GetOpportunity answers from the portal's read model, since CRM keeps
// nothing: an opportunity whose register is its local id is held, with the
// read model's status (the default stage map's stage), name and probability.
func (l CRM) GetOpportunity(ctx context.Context, id string) (crm.Record, error) {
	recs, err := l.GetOpportunities(ctx, []string{id})
	if err != nil {
		return crm.Record{}, err
	}
	r, ok := recs[id]
	if !ok {
		return crm.Record{}, fmt.Errorf("%w: %s", crm.ErrNotFound, id)
	}
	return r, nil
}

// GetOpportunities is GetOpportunity for many ids.
func (l CRM) GetOpportunities(ctx context.Context, ids []string) (map[string]crm.Record, error) {
	if l.DB == nil {
		return nil, crm.ErrUnavailable
	}
	// Only UUIDs can be ids (anything else is simply not held); the lookup
	// then uses the primary key's index.
	asked := map[string]string{} // canonical (lower-case) → as asked
	valid := make([]string, 0, len(ids))
	for _, id := range ids {
		if opportunity.ValidID(id) {
			asked[strings.ToLower(id)] = id
			valid = append(valid, id)
		}
	}
	out := map[string]crm.Record{}
	if len(valid) == 0 {
		return out, nil
	}
	rows, err := store.New(l.DB).HeldInCRM(ctx, valid)
	for _, r := range rows {
		if r.Register != localID(r.ID) {
			continue
		}
		status := opportunity.Status(r.Status)
		stage := crm.DefaultStages()[status]
		key := asked[r.ID]
		out[key] = crm.Record{CRMID: r.Register, ID: key, Name: r.Name, Stage: stage, Probability: r.ProbabilityClosing, Matches: 1,
			Closed:   status == opportunity.Expired || status == opportunity.Disapproved,
			Statuses: crm.StatusesOf(crm.DefaultStages(), stage)}
	}
	return out, err
}
