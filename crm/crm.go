// Package crm is the link to the manufacturer's CRM, where approved
// opportunities are upserted. The Salesforce client arrives with the
// integrations issue; Local stands in until then.
package crm

import (
	"context"
	"errors"
	"strings"
)

// Errors the workflow and the API act on.
var (
	// ErrCustomerNotFound: the customer account is missing in the CRM (not retried).
	ErrCustomerNotFound = errors.New("crm: customer not found")
	// ErrLocked: the opportunity is closed in the CRM and cannot change (HTTP 423).
	ErrLocked = errors.New("crm: opportunity locked")
	// ErrUnavailable: outage, timeout or rate limit (retried with backoff).
	ErrUnavailable = errors.New("crm: unavailable")
)

// Opportunity is what the CRM holds of a registration.
type Opportunity struct {
	ID          string // our id, the CRM's external id
	Brand       string
	Name        string
	Probability int
	CustomerDoc string // the customer's CNPJ
}

// Client upserts opportunities in the CRM and returns the CRM's record id.
type Client interface {
	UpsertOpportunity(ctx context.Context, o Opportunity) (string, error)
}

// Local is the stand-in CRM of development and tests: it accepts every
// upsert and answers a stable record id derived from ours.
type Local struct{}

// UpsertOpportunity returns "LOCAL-" and the first 12 hexadecimal digits of the id.
func (Local) UpsertOpportunity(_ context.Context, o Opportunity) (string, error) {
	id := strings.ToUpper(strings.ReplaceAll(o.ID, "-", ""))
	if len(id) > 12 {
		id = id[:12]
	}
	return "LOCAL-" + id, nil
}
