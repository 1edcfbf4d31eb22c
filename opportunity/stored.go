package opportunity

import (
	"context"
	"encoding/json"
	"fmt"

	"oportuna/store"
)

// FromStored is the record of a read-model row (store.LoadOpportunity).
func FromStored(r store.LoadOpportunityRow) (Record, error) {
	rec := Record{ID: r.ID, Brand: r.Brand, Status: Status(r.Status), Name: r.Name, CNPJ: r.Cnpj, Contact: r.Contact,
		Phone: r.Phone, Email: r.Email, Network: r.Network, FantasyName: r.FantasyName, CorporateName: r.CorporateName,
		Street: r.Street, State: r.State, City: r.City, CEP: r.Cep, Country: r.Country, ProbabilityClosing: r.ProbabilityClosing,
		Seller: r.Seller, SellerSalesforceID: r.SellerSalesforceID, Register: r.Register, Reason: r.Reason,
		AcceptedTerm: r.AcceptedTerm, ApproveDate: r.ApproveDate, ValidUntil: r.ValidUntil, RenovationDate: r.RenovationDate,
		RequestRenovationAt: r.RequestRenovationAt, LastVisitDate: r.LastVisitDate, ProjectStillInScope: r.ProjectStillInScope,
		ProposalSent: r.ProposalSent, ProductHomologated: r.ProductHomologated, NextStep: r.NextStep,
		UserID: r.UserID, UserName: r.UserName, UserEmail: r.UserEmail, ResaleID: store.Deref(r.ResaleID),
		Resale: store.Deref(r.Resale), RegisteredConflicts: r.Conflicts, IsDeleted: r.IsDeleted, CreatedAt: r.CreatedAt}
	var err error
	if rec.Estimated, err = ParseMoney(r.Estimated); err != nil {
		return rec, err
	}
	if err := json.Unmarshal(r.Projects, &rec.Projects); err != nil {
		return rec, err
	}
	return rec, json.Unmarshal(r.Products, &rec.Products)
}

// Load reads an opportunity with its owner's name and e-mail and its
// reseller's name; pgx.ErrNoRows (wrapped) when there is none.
func Load(ctx context.Context, q *store.Queries, id string) (Record, error) {
	row, err := q.LoadOpportunity(ctx, id)
	if err == nil {
		var rec Record
		if rec, err = FromStored(row); err == nil {
			return rec, nil
		}
	}
	return Record{}, fmt.Errorf("load opportunity %s: %w", id, err)
}

// QueueLoad queues Load's read on a batch (one round trip with the batch's
// other statements): rec is set when the batch is sent, and the batch's error
// is the read's (wrapping pgx.ErrNoRows when there is no such opportunity).
func QueueLoad(ctx context.Context, b *store.Batch, id string, rec *Record) {
	store.Row(b, func(q *store.Queries) (store.LoadOpportunityRow, error) { return q.LoadOpportunity(ctx, id) },
		func(row store.LoadOpportunityRow, err error) error {
			if err == nil {
				*rec, err = FromStored(row)
			}
			if err != nil {
				return fmt.Errorf("load opportunity %s: %w", id, err)
			}
			return nil
		})
}
