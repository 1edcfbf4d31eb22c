package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/api/serviceerror"

	"oportuna/auth"
	"oportuna/internal/respond"
	"oportuna/opportunity"
	"oportuna/store"
	"oportuna/workflows"
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
	rec    opportunity.IdempotencyKey
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
	return &idemCall{rec: opportunity.IdempotencyKey{UserID: user, Key: opportunity.DerivedID(user + "/" + key),
		Action: action, Status: http.StatusOK, Message: message}}
}

// record is what the workflow records under the key (nil without a key).
func (k *idemCall) record() *opportunity.IdempotencyKey {
	if k == nil {
		return nil
	}
	return &k.rec
}

// queue queues the key's lookup on a batch (loadForDecision's round trip).
func (k *idemCall) queue(ctx context.Context, b *store.Batch) {
	store.Row(b, func(q *store.Queries) (store.IdempotencyKeyRow, error) { return q.IdempotencyKey(ctx, k.params()) },
		k.read)
}

func (k *idemCall) params() store.IdempotencyKeyParams {
	return store.IdempotencyKeyParams{UserID: k.rec.UserID, Key: k.rec.Key}
}

// read takes the key's row: found, or not (pgx.ErrNoRows).
func (k *idemCall) read(row store.IdempotencyKeyRow, err error) error {
	k.found = err == nil
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	k.stored.opportunityID, k.stored.action, k.stored.status, k.stored.message = row.OpportunityID, row.Action, row.Status, row.Message
	return err
}

// lookup reads the key again: a decision refused by its workflow may be the
// repetition of one recorded after the first lookup (it then met a later run).
func (s *Server) lookupKey(ctx context.Context, k *idemCall) error {
	return k.read(store.New(s.DB).IdempotencyKey(ctx, k.params()))
}

// answerRepeat answers a repeated call with its first outcome (answerStored),
// unless the opportunity's workflow has not recorded the decision the read
// model holds: a decision is written to the read model (with its key) inside
// the workflow task that runs it, and a task lost with the Temporal history
// service that ran it (a crash before the task completed) leaves the workflow
// one decision behind. The repeat is then run again under the same Update ID:
// the workflow takes the decision it missed, and its write is a retry of the
// event recorded (the same key, the same changes).
func (s *Server) answerRepeat(w http.ResponseWriter, r *http.Request, k *idemCall, id string, rec opportunity.Record) bool {
	if !k.sameCall(id) {
		return answerStored(w, k, id, rec)
	}
	behind, err := s.workflowBehind(r.Context(), id)
	switch {
	case err != nil:
		// The workflow does not answer (Temporal restarting): the first
		// outcome is not confirmed; the client tries again with its key.
		slog.WarnContext(r.Context(), "a repeated decision: the workflow's state cannot be read", "opportunity", id, "err", err)
		respond.Error(w, http.StatusServiceUnavailable, MsgBusy)
		return true
	case behind:
		slog.WarnContext(r.Context(), "a repeated decision meets a workflow behind its read model: running it again",
			"opportunity", id, "action", k.rec.Action)
		return false
	}
	return answerStored(w, k, id, rec)
}

// answerRepeatAfterFailure answers a decision whose update failed but whose
// key is recorded: the first outcome when the workflow has it; 503 when the
// workflow is behind its read model (this call's task was lost after its
// write: answering "done" would leave the workflow without the decision
// until the client repeats it) or cannot be read. It reports whether it answered.
func (s *Server) answerRepeatAfterFailure(w http.ResponseWriter, r *http.Request, k *idemCall, id string, rec opportunity.Record) bool {
	if !k.sameCall(id) {
		return answerStored(w, k, id, rec)
	}
	if behind, err := s.workflowBehind(r.Context(), id); err != nil || behind {
		slog.WarnContext(r.Context(), "a decision recorded by a lost workflow task: the client tries again", "opportunity", id,
			"action", k.rec.Action, "err", err)
		respond.Error(w, http.StatusServiceUnavailable, MsgBusy)
		return true
	}
	return answerStored(w, k, id, rec)
}

// sameCall reports whether the key was recorded for this opportunity and
// action (a repeat of the same call, not a key reused for another).
func (k *idemCall) sameCall(id string) bool {
	return k != nil && k.found && k.stored.opportunityID == id && k.stored.action == k.rec.Action
}

// workflowBehind reports whether the read model holds an event (key
// id/cycle/seq) later than the workflow's state; an error when the read model
// or the workflow cannot be read.
func (s *Server) workflowBehind(ctx context.Context, id string) (bool, error) {
	key, err := store.New(s.DB).LatestWorkflowEventKey(ctx, id)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return false, nil // no event recorded by a workflow: nothing it could have missed
	case err != nil:
		return false, err
	}
	qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := s.Temporal.QueryWorkflow(qctx, workflows.OpportunityWorkflowID(id), "", workflows.QueryState)
	var st workflows.OpportunityState
	if err == nil {
		err = v.Get(&st)
	}
	var gone *serviceerror.NotFound
	switch {
	case errors.As(err, &gone):
		return false, nil // no workflow left (past its retention): the table's answer stands
	case err != nil:
		return false, err
	}
	return opportunity.EventAfter(key, st.Cycle, st.Seq), nil
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
