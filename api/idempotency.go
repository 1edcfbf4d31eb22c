package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/internal/respond"
	"oportuna/opportunity"
)

// MsgKeyReused answers a decision whose Idempotency-Key the caller already
// used for another action or another opportunity (422, as the IETF draft "The
// Idempotency-Key HTTP Header Field" and Stripe answer a key reused with
// another request).
const MsgKeyReused = "Esta chave de idempotência (Idempotency-Key) já foi usada em outra ação ou oportunidade. Envie uma chave nova para cada ação."

// Actions of the decisions recorded under an Idempotency-Key.
const (
	actionApprove        = "approve"
	actionDisapprove     = "disapprove"
	actionEdit           = "edit"
	actionRequestRenewal = "request-renewal"
	actionRenewalApprove = "renewal-approve"
	actionRenewalRefuse  = "renewal-refuse"
)

// idemCall is a decision sent with an Idempotency-Key: what the workflow
// records with the decision (the answer), and what the table already holds
// under the key (docs/api.md, "Idempotency of decisions").
type idemCall struct {
	rec    activities.IdempotencyKey
	found  bool
	stored struct {
		opportunityID, action, message string
		status                         int
	}
}

// decisionKey reads the call's Idempotency-Key: nil without one. The key is
// scoped to the caller and kept hashed, as the decision's update id.
func decisionKey(r *http.Request, action, message string) *idemCall {
	key := strings.TrimSpace(r.Header.Get("Idempotency-Key"))
	if key == "" {
		return nil
	}
	user := auth.FromContext(r.Context()).Subject
	return &idemCall{rec: activities.IdempotencyKey{UserID: user, Key: opportunity.DerivedID(user + "/" + key),
		Action: action, Status: http.StatusOK, Message: message}}
}

// record is what the workflow records under the key (nil without a key).
func (k *idemCall) record() *activities.IdempotencyKey {
	if k == nil {
		return nil
	}
	return &k.rec
}

const idemSQL = `SELECT opportunity_id::text, action, status, message FROM idempotency_keys WHERE user_id = $1 AND key = $2`

// queue queues the key's lookup on a batch (loadVisible's round trip).
func (k *idemCall) queue(b *pgx.Batch) {
	b.Queue(idemSQL, k.rec.UserID, k.rec.Key).QueryRow(k.scan)
}

func (k *idemCall) scan(row pgx.Row) error {
	err := row.Scan(&k.stored.opportunityID, &k.stored.action, &k.stored.status, &k.stored.message)
	k.found = err == nil
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	return err
}

// lookup reads the key again: a decision refused by its workflow may be the
// repetition of one recorded after the first lookup (it then met a later run).
func (s *Server) lookupKey(ctx context.Context, k *idemCall) error {
	return k.scan(s.DB.QueryRow(ctx, idemSQL, k.rec.UserID, k.rec.Key))
}

// answerStored answers a repeated call with its first outcome, and a key
// reused for another action or opportunity with 422; it reports whether it
// answered. rec is the opportunity as it is now.
func answerStored(w http.ResponseWriter, k *idemCall, id string, rec opportunity.Record) bool {
	if k == nil || !k.found {
		return false
	}
	if k.stored.opportunityID != id || k.stored.action != k.rec.Action {
		respond.Error(w, http.StatusUnprocessableEntity, MsgKeyReused)
		return true
	}
	respond.JSON(w, k.stored.status, map[string]any{"message": k.stored.message, "data": rec})
	return true
}
