// Package crm is the link to the manufacturer's CRM, Salesforce: approved
// opportunities are upserted there (customer account found by CNPJ, the
// opportunity by an external id holding ours, its products as line items), and
// the seller picker lists the CRM's users of the brand.
//
// Salesforce is the client of the real service (docs/integrations-crm.md);
// internal/dev/crmsim is the local stand-in that speaks the same protocol;
// internal/dev/localcrm a CRM without a server for tests that need no HTTP.
package crm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"oportuna/opportunity"
)

// Errors the workflow and the API act on. The client's errors wrap one of
// them (errors.Is), or none for a refusal that retrying cannot fix (a
// configuration or data error, see *APIError).
var (
	// ErrCustomerNotFound: no Account holds the customer's CNPJ (not retried).
	ErrCustomerNotFound = errors.New("crm: customer not found")
	// ErrLocked: the opportunity is closed or locked in the CRM and cannot change (HTTP 423).
	ErrLocked = errors.New("crm: opportunity locked")
	// ErrUnavailable: outage (5xx), timeout, network failure or rate limit (retried with backoff).
	ErrUnavailable = errors.New("crm: unavailable")
	// ErrMultipleMatches: several Accounts hold the customer's CNPJ, or several
	// opportunities our external id (HTTP 300); a person must merge them (not retried).
	ErrMultipleMatches = errors.New("crm: multiple matches")
	// ErrNotFound: the CRM holds no opportunity with our id (GetOpportunity).
	ErrNotFound = errors.New("crm: opportunity not found")
)

// MsgMultipleMatches is the pt-BR text for ErrMultipleMatches.
const MsgMultipleMatches = "Ops! Há mais de um cadastro no Salesforce para este cliente (mesmo CNPJ) ou para esta oportunidade. Por favor, mantenha um único cadastro no Salesforce e tente novamente."

// APIError is a refusal of the CRM: the HTTP status and the first entry of
// Salesforce's error array. It unwraps to the sentinel it maps to, if any.
type APIError struct {
	Status  int
	Code    string // Salesforce errorCode, e.g. ENTITY_IS_LOCKED, or the OAuth error
	Message string
	kind    error
}

func (e *APIError) Error() string {
	return fmt.Sprintf("crm: HTTP %d %s: %s", e.Status, e.Code, e.Message)
}

// Unwrap returns the sentinel the refusal maps to (nil for a permanent refusal).
func (e *APIError) Unwrap() error { return e.kind }

// Opportunity is what the CRM holds of a registration.
type Opportunity struct {
	ID           string             // our id, the CRM's external id
	Brand        string             // brand slug
	Name         string             // opportunity name
	Status       opportunity.Status // our status; the CRM stage is mapped from it
	Probability  int                // percent
	CustomerDoc  string             // the customer's CNPJ (14 characters, unmasked)
	CustomerName string             // the customer's corporate name
	Amount       opportunity.Money  // estimated total (sum of Lines)
	CloseDate    time.Time          // expected close (project conclusion date, else end of validity)
	SellerCRMID  string             // the seller's CRM user id (from the seller picker), may be empty
	SellerName   string
	Reseller     string // the reseller's corporate name
	Description  string // free text: contact, project, competitors
	Lines        []LineItem
	// Reopen lets the upsert write to a record the portal itself closed when
	// the opportunity expired (its stage is the expired one of the stage map):
	// a renewal approved after the expiry. Any other closed record is locked.
	Reopen bool
}

// LineItem is a product line of our own catalogue (competitors' lines are not sent).
type LineItem struct {
	PartNumber  string
	Description string
	Quantity    int64
	UnitPrice   opportunity.Money
	Accessory   bool
}

// Seller is an entry of the seller picker (spec §3 "Seller-picker entry").
type Seller struct {
	Name    string `json:"name"`
	UserID  string `json:"user_id"`
	Company string `json:"company"`
}

// Record is what the CRM holds of one of our opportunities, as the reconciler
// compares it with the workflow (no personal data).
type Record struct {
	CRMID       string // the CRM's record id (the opportunity's register)
	ID          string // our id, the external id
	Name        string
	Stage       string // the CRM's stage
	Probability int
	Closed      bool
	// Statuses are our statuses the stage stands for (the stage map read
	// backwards: one stage may stand for several); empty for a stage the
	// portal never writes, e.g. a record closed won by a salesperson.
	Statuses []opportunity.Status
	// Matches is how many CRM records hold our id (more than one: a person must merge them).
	Matches int
}

// Shows reports whether the record's stage is the one of status st.
func (r Record) Shows(st opportunity.Status) bool {
	for _, s := range r.Statuses {
		if s == st {
			return true
		}
	}
	return false
}

// StatusesOf reads a stage map backwards: the statuses written as stage, in
// the order of opportunity.Statuses.
func StatusesOf(stages map[opportunity.Status]string, stage string) []opportunity.Status {
	var out []opportunity.Status
	for _, st := range opportunity.Statuses {
		if v := stages[st]; v != "" && strings.EqualFold(v, stage) {
			out = append(out, st)
		}
	}
	return out
}

// Client upserts opportunities in the CRM, reads them back and lists the
// sellers it holds.
type Client interface {
	UpsertOpportunity(ctx context.Context, o Opportunity) (string, error)
	// GetOpportunity reads the record holding our id; ErrNotFound when there
	// is none, ErrMultipleMatches when there are several.
	GetOpportunity(ctx context.Context, id string) (Record, error)
	// GetOpportunities reads the records of many of our ids at once (absent
	// ids are missing from the map; Matches counts duplicates).
	GetOpportunities(ctx context.Context, ids []string) (map[string]Record, error)
	Sellers(ctx context.Context, brand string) ([]Seller, error)
}

// Pacer is a Client that knows the org's API usage (Salesforce): a sync no
// person waits for asks it first and, when BackgroundWait answers a wait,
// leaves the org alone that long (docs/integrations-crm.md, "API usage").
type Pacer interface {
	BackgroundWait() (wait time.Duration, why string)
}

// CodeDuplicateValue is the errorCode Salesforce answers when two writes of
// one unique value overlap; on the upsert by our external id it is retried
// (the other write is still running inside the org, see UpsertOpportunity).
const CodeDuplicateValue = "DUPLICATE_VALUE"
