package opportunity

import (
	"strconv"
	"strings"
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
	// Representatives replaces the responsible representatives (a reassignment; nil: unchanged).
	Representatives []string `json:"representatives,omitempty"`
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

// EventAfter reports whether key, the key of an event a workflow recorded
// (id/cycle/seq), names an event later than the workflow's (cycle, seq): one
// written by a workflow task that was lost before the workflow took it. A key
// of another shape (a repair's, a seed's) names no workflow event: false.
func EventAfter(key string, cycle, seq int) bool {
	parts := strings.Split(key, "/")
	if len(parts) != 3 {
		return false
	}
	c, err1 := strconv.Atoi(parts[1])
	s, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil {
		return false
	}
	return c > cycle || (c == cycle && s > seq)
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

// Applied is the record after the event, as the read model stores it
// (store.ApplyEvent): the event's status, and each value the event carries (a
// nil one leaves the record's); a renewal request's answers with the time of
// the request; the time the renewal opened. A decision answers with the
// record it read before, applied its event, instead of reading it again.
func (r Record) Applied(ev Event) Record {
	r.Status = ev.Status
	if ev.Name != nil {
		r.Name = *ev.Name
	}
	if ev.Probability != nil {
		r.ProbabilityClosing = *ev.Probability
	}
	if ev.Reason != nil {
		r.Reason = *ev.Reason
	}
	if ev.ApprovedAt != nil {
		r.ApproveDate = stored(*ev.ApprovedAt)
	}
	if ev.ValidUntil != nil {
		r.ValidUntil = stored(*ev.ValidUntil)
	}
	if ev.Register != nil {
		r.Register = *ev.Register
	}
	if q := ev.Renewal; q != nil {
		r.ProjectStillInScope, r.LastVisitDate = q.ProjectStillInScope, q.LastVisitDate
		r.ProposalSent, r.ProductHomologated, r.NextStep = q.ProposalSent, q.ProductHomologated, q.NextStep
		r.RequestRenovationAt = stored(ev.At)
	}
	if ev.Status == Renovation {
		r.RenovationDate = stored(ev.At)
	}
	if ev.Deleted != nil {
		r.IsDeleted = *ev.Deleted
	}
	return r
}

// stored is an instant as the read model gives it back: to the microsecond
// PostgreSQL keeps, in the local zone pgx reads it in.
func stored(t time.Time) *time.Time {
	t = t.Truncate(time.Microsecond).In(time.Local)
	return &t
}
