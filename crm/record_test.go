package crm_test

import (
	"errors"
	"strings"
	"testing"

	"oportuna/crm"
	"oportuna/internal/testenv/cnpjtest"
	"oportuna/opportunity"
)

// TestGetOpportunityReadsTheRecordBackByExternalID: what the portal wrote is
// read back with one SOQL query by our external id, its stage mapped back to
// our statuses; an unknown id is ErrNotFound, a duplicated one
// ErrMultipleMatches, and many ids are read in one query.
func TestGetOpportunityReadsTheRecordBackByExternalID(t *testing.T) {
	e, c := newSimClient(t)
	doc := cnpjtest.Complete("121314150001")
	id := "0f5b7a52-1212-4000-8000-000000000012"
	crmID, err := c.UpsertOpportunity(e.ctx, sampleOpportunity(id, doc))
	if err != nil {
		t.Fatal(err)
	}
	before := e.requests(isQuery("Opportunity"))
	rec, err := c.GetOpportunity(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.CRMID != crmID || rec.ID != id || rec.Name != "Projeto Armazém" || rec.Stage != "Qualification" || rec.Probability != 50 ||
		rec.Closed || rec.Matches != 1 || !rec.Shows(opportunity.Approved) || !rec.Shows(opportunity.Renovation) || rec.Shows(opportunity.Expired) {
		t.Errorf("record %+v", rec)
	}
	if n := e.requests(isQuery("Opportunity")) - before; n != 1 {
		t.Errorf("queries = %d, want 1", n)
	}

	if _, err := c.GetOpportunity(e.ctx, "0f5b7a52-0000-4000-8000-000000000000"); !errors.Is(err, crm.ErrNotFound) {
		t.Errorf("unknown id: %v, want ErrNotFound", err)
	}

	if err := e.sim.CloseOpportunity(e.ctx, id, "Closed Won"); err != nil {
		t.Fatal(err)
	}
	if rec, err := c.GetOpportunity(e.ctx, id); err != nil || !rec.Closed || rec.Stage != "Closed Won" || len(rec.Statuses) != 0 {
		t.Errorf("closed won by a salesperson: %+v (%v), want no status of ours", rec, err)
	}

	other := "0f5b7a52-1313-4000-8000-000000000013"
	o := sampleOpportunity(other, doc)
	o.Status = opportunity.Expired
	if _, err := c.UpsertOpportunity(e.ctx, o); err != nil {
		t.Fatal(err)
	}
	recs, err := c.GetOpportunities(e.ctx, []string{id, other, "0f5b7a52-0000-4000-8000-000000000000"})
	if err != nil || len(recs) != 2 || recs[other].Stage != "Closed Lost" || !recs[other].Shows(opportunity.Expired) ||
		!recs[other].Shows(opportunity.Disapproved) {
		t.Errorf("batch: %+v (%v)", recs, err)
	}

	if err := e.sim.DuplicateOpportunity(e.ctx, other); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetOpportunity(e.ctx, other); !errors.Is(err, crm.ErrMultipleMatches) || !strings.Contains(err.Error(), "2") {
		t.Errorf("duplicated: %v, want ErrMultipleMatches", err)
	}
}
