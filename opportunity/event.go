package opportunity

import (
	"time"

	"oportuna/auth"
)

// Actor is who triggered an event (from the token, never from a payload).
type Actor struct {
	UserID   string      `json:"userId"`
	Name     string      `json:"name"`
	Roles    []auth.Role `json:"roles"`
	ResaleID string      `json:"resaleId,omitempty"`
}

// Change is one attribute's old and new value in the history.
type Change struct {
	Attribute string `json:"attribute"`
	OldValue  string `json:"oldValue"`
	NewValue  string `json:"newValue"`
}

// Event is a state change or edit to apply to the read model and log in history.
// Key makes it idempotent: applying the same key twice changes nothing.
type Event struct {
	Key           string          `json:"key"`
	OpportunityID string          `json:"opportunityId"`
	Brand         string          `json:"brand"`
	Actor         *Actor          `json:"actor,omitempty"` // nil for timers
	Status        Status          `json:"status"`
	Name          *string         `json:"name,omitempty"`
	Probability   *int            `json:"probability,omitempty"`
	Reason        *string         `json:"reason,omitempty"`
	ApprovedAt    *time.Time      `json:"approvedAt,omitempty"`
	ValidUntil    *time.Time      `json:"validUntil,omitempty"`
	Register      *string         `json:"register,omitempty"`
	Renewal       *RenewalRequest `json:"renewal,omitempty"`
	// Deleted marks the opportunity deleted (an operator cancelled its workflow).
	Deleted *bool `json:"deleted,omitempty"`
	// System names who acted when there is no Actor (empty: "Sistema").
	System  string    `json:"system,omitempty"`
	Changes []Change  `json:"changes"`
	At      time.Time `json:"at"`
	// Idem is the outcome of the decision's Idempotency-Key, recorded in the
	// same statement as the event (nil: the call had no key, or a timer).
	Idem *IdempotencyKey `json:"idem,omitempty"`
}

// IdempotencyKey is the answer the API gave a decision sent with an
// Idempotency-Key: a repeated call with the key answers it and changes nothing
// (table idempotency_keys; docs/api.md, "Idempotency of decisions").
type IdempotencyKey struct {
	UserID  string `json:"userId"`
	Key     string `json:"key"`    // a hash of the caller and the client's key
	Action  string `json:"action"` // approve, disapprove, edit, request-renewal, renewal-approve, renewal-refuse
	Status  int    `json:"status"`
	Message string `json:"message"`
}
