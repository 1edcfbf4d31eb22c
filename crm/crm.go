// Package crm is the link to the manufacturer's CRM, where approved
// opportunities are upserted. The Salesforce client arrives with the
// integrations issue; Local stands in until then.
package crm

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
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

// Local is the stand-in CRM of development and tests: it accepts every
// upsert and answers a stable record id derived from ours; its sellers are the
// portal's active sellers of the brand.
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
