package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/temporal"

	"oportuna/opportunity"
	"oportuna/store"
)

// CRMSyncFailure is a background CRM sync (expiry, refusal, a repair) that
// finally failed: the CRM does not show Status. It is recorded in
// crm_sync_failures, where the reconciler retries it (docs/operations.md).
type CRMSyncFailure struct {
	OpportunityID string             `json:"opportunityId"`
	Brand         string             `json:"brand"`
	Status        opportunity.Status `json:"status"`
	Error         string             `json:"error"`
	At            time.Time          `json:"at"`
}

// maxFailureText bounds the error text kept of a failure.
const maxFailureText = 500

// RecordCRMSyncFailure records a failed background CRM sync durably, once per
// opportunity and status while it is open (a second failure of the same write
// updates its error), and logs it.
func (a *Activities) RecordCRMSyncFailure(ctx context.Context, f CRMSyncFailure) error {
	msg := f.Error
	if utf8.RuneCountInString(msg) > maxFailureText {
		msg = string([]rune(msg)[:maxFailureText]) + "…"
	}
	if f.At.IsZero() {
		f.At = time.Now()
	}
	err := store.New(a.DB).RecordCRMSyncFailure(ctx, store.RecordCRMSyncFailureParams{OpportunityID: f.OpportunityID,
		Brand: f.Brand, Status: string(f.Status), Error: msg, FailedAt: f.At})
	if err != nil {
		return fmt.Errorf("record crm sync failure: %w", err)
	}
	slog.ErrorContext(ctx, "crm sync failure recorded", "opportunity", f.OpportunityID, "brand", f.Brand, "status", f.Status)
	return nil
}

// RestoreInput is the workflow's state of an opportunity, written back to a
// read model that diverged from it (the repair update, workflows/repair.go).
// Key is the history row's event key; ValidUntil and ApprovedAt are left as
// they are when nil. Cycle and Seq are the workflow's newest event (its key
// id/cycle/seq): an event the read model holds after it was written by a
// workflow task that was lost, and the restore sets it apart
// (store.VoidLostEvents). Seq 0: no such check.
type RestoreInput struct {
	Key           string             `json:"key"`
	OpportunityID string             `json:"opportunityId"`
	Brand         string             `json:"brand"`
	Status        opportunity.Status `json:"status"`
	Name          string             `json:"name"`
	Probability   int                `json:"probability"`
	Register      string             `json:"register"`
	ValidUntil    *time.Time         `json:"validUntil,omitempty"`
	ApprovedAt    *time.Time         `json:"approvedAt,omitempty"`
	At            time.Time          `json:"at"`
	Cycle         int                `json:"cycle,omitempty"`
	Seq           int                `json:"seq,omitempty"`
}

// Names of the read model's fields RestoreReadModel corrects, as the history
// names them.
const (
	FieldStatus      = "status"
	FieldName        = "name"
	FieldProbability = "probabilityClosing"
	FieldRegister    = "register"
	FieldValidUntil  = "validUntil"
	FieldApproveDate = "approveDate"
)

// RestoreReadModel brings the opportunity's row to the workflow's state and
// returns the names of the fields it corrected (none when the row already
// agreed). A correction is logged in the history as an 'update' by 'Sistema'
// under in.Key; a retry after the commit answers the fields recorded then.
func (a *Activities) RestoreReadModel(ctx context.Context, in RestoreInput) ([]string, error) {
	var fields []string
	err := store.Tx(ctx, a.DB, func(q *store.Queries) error {
		mods, err := q.HistoryChanges(ctx, in.Key)
		if err == nil {
			var done []opportunity.Change
			if err := json.Unmarshal(mods, &done); err != nil {
				return err
			}
			for _, c := range done {
				fields = append(fields, c.Attribute)
			}
			return nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		row, err := q.LockOpportunityState(ctx, in.OpportunityID)
		if errors.Is(err, pgx.ErrNoRows) {
			return temporal.NewNonRetryableApplicationError("opportunity not found: "+in.OpportunityID, "NotFound", nil)
		}
		if err != nil {
			return err
		}
		if in.Seq > 0 {
			lost, err := q.VoidLostEvents(ctx, store.VoidLostEventsParams{OpportunityID: in.OpportunityID, Cycle: in.Cycle,
				Seq: in.Seq, Suffix: " (lost; " + in.Key + ")"})
			if err != nil {
				return err
			}
			if len(lost) > 0 {
				slog.WarnContext(ctx, "events a lost workflow task recorded set apart", "opportunity", in.OpportunityID,
					"history_ids", lost, "cycle", in.Cycle, "seq", in.Seq)
			}
		}
		var changes []opportunity.Change
		add := func(attr, old, new string) {
			if old != new {
				changes = append(changes, opportunity.Change{Attribute: attr, OldValue: old, NewValue: new})
			}
		}
		add(FieldStatus, row.Status, string(in.Status))
		add(FieldName, row.Name, in.Name)
		add(FieldProbability, fmt.Sprint(row.ProbabilityClosing), fmt.Sprint(in.Probability))
		add(FieldRegister, row.Register, in.Register)
		if in.ValidUntil != nil {
			add(FieldValidUntil, timeText(row.ValidUntil), timeText(in.ValidUntil))
		}
		if in.ApprovedAt != nil {
			add(FieldApproveDate, timeText(row.ApproveDate), timeText(in.ApprovedAt))
		}
		if len(changes) == 0 {
			return nil
		}
		if err := q.RestoreOpportunity(ctx, store.RestoreOpportunityParams{ID: in.OpportunityID, Status: string(in.Status),
			Name: in.Name, Probability: in.Probability, Register: in.Register, ValidUntil: in.ValidUntil,
			ApprovedAt: in.ApprovedAt, At: in.At}); err != nil {
			return err
		}
		for _, c := range changes {
			fields = append(fields, c.Attribute)
		}
		return opportunity.History{Key: in.Key, Type: "opportunity", TypeID: in.OpportunityID, Brand: in.Brand,
			Action: "update", Changes: changes, At: in.At}.Record(ctx, q)
	})
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return nil, err // not found: not retried
	}
	if err != nil {
		return nil, fmt.Errorf("restore read model of %s: %w", in.OpportunityID, err)
	}
	if len(fields) > 0 {
		slog.WarnContext(ctx, "read model restored from the workflow", "opportunity", in.OpportunityID, "brand", in.Brand, "fields", fields)
	}
	return fields, nil
}

// timeText is a timestamp as the history shows it, to the microsecond
// PostgreSQL keeps; empty for none.
func timeText(t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.UTC().Truncate(time.Microsecond).Format(time.RFC3339Nano)
}
