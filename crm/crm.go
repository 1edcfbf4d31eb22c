// Package crm is the link to the manufacturer's CRM, Salesforce: approved
// opportunities are upserted there (customer account found by CNPJ, the
// opportunity by an external id holding ours, its products as line items), and
// the seller picker lists the CRM's users of the brand.
//
// Salesforce is the client of the real service (docs/integrations-crm.md);
// crm/crmsim is the local stand-in that speaks the same protocol. Local is a
// CRM without a server (sellers from the portal's users) for tests that need no HTTP.
package crm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

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

// Client upserts opportunities in the CRM and lists the sellers it holds.
type Client interface {
	UpsertOpportunity(ctx context.Context, o Opportunity) (string, error)
	Sellers(ctx context.Context, brand string) ([]Seller, error)
}

// Local is a CRM without a server, for unit tests: it accepts every upsert and
// answers a stable record id derived from ours; its sellers are the portal's
// active sellers of the brand. Development and integration tests use
// Salesforce against crm/crmsim instead.
type Local struct {
	DB *pgxpool.Pool
}

// Sellers lists the brand's active SELLER users with their company.
func (l Local) Sellers(ctx context.Context, brand string) ([]Seller, error) {
	if l.DB == nil {
		return nil, ErrUnavailable
	}
	rows, _ := l.DB.Query(ctx, `SELECT u.name, u.id::text, COALESCE(s.corporate_name, '')
		FROM users u JOIN user_roles r ON r.user_id = u.id AND r.role = 'SELLER' AND r.brand IN ($1, 'all')
		LEFT JOIN resales s ON s.id = u.resale_id
		WHERE u.active ORDER BY u.name`, brand)
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Seller])
}

// UpsertOpportunity returns "LOCAL-" and the first 12 hexadecimal digits of the id.
func (Local) UpsertOpportunity(_ context.Context, o Opportunity) (string, error) {
	id := strings.ToUpper(strings.ReplaceAll(o.ID, "-", ""))
	if len(id) > 12 {
		id = id[:12]
	}
	return "LOCAL-" + id, nil
}
