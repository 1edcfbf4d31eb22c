package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"oportuna/auth"
	"oportuna/crm"
	"oportuna/internal/respond"
	"oportuna/opportunity"
	"oportuna/store"
	"oportuna/workflows"
)

// Messages of spec §8 for the opportunity calls.
const (
	MsgCreated          = "Oportunidade cadastrada com sucesso"
	MsgCRMLocked        = "A oportunidade já existe no CRM, não pode ser alterada. Por favor, agurade a renovação da oportunidade para atualiza-la no CRM."
	MsgCRMCustomer      = "Ops! Algo deu errado ao buscar os dados do cliente Salesforce. Por favor, confira o cadastro no Salesforce e tente novamente."
	MsgCRMCommunication = "Ops! Ocorreu um erro ao tentar se comunicar com o Salesforce. Por favor, tente novamente em instantes."
	MsgNotFound         = "Oportunidade não encontrada."
	MsgCompanyPayload   = "A empresa informada não corresponde à sessão."
	MsgApproved         = "Oportunidade aprovada com sucesso"
	MsgDisapproved      = "Oportunidade reprovada com sucesso"
	MsgUpdated          = "Oportunidade atualizada com sucesso"
	MsgRenewalRequested = "Renovação solicitada com sucesso"
	MsgRenewalApproved  = "Renovação aprovada com sucesso"
	MsgRenewalRefused   = "Renovação reprovada com sucesso"
)

// updateTimeout bounds a decision's wait for the workflow. The workflow gives
// the CRM step of a decision a budget that ends well before (workflows.CRMBudget),
// so a slow CRM is answered with the spec's communication error, not a timeout.
const updateTimeout = workflows.DecisionWait

// errSessionEnded: the token's user was deactivated or removed after the token
// was issued (auth.Service.RequireActive answers that first; this covers the race).
var errSessionEnded = errors.New("api: the session's user is no longer active")

// failRequest answers an error of the request's own data: 401 when the session's
// user is gone, else the logged 500.
func failRequest(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, errSessionEnded) {
		respond.Error(w, http.StatusUnauthorized, auth.MsgSessionRequired)
		return
	}
	respond.Internal(w, r, err)
}

// actorOf reads the caller from the token and the users table (name, company).
func (s *Server) actorOf(ctx context.Context, c *auth.Claims) (opportunity.Actor, error) {
	a, _, err := s.actorWithCNPJ(ctx, c)
	return a, err
}

// actorWithCNPJ is actorOf with the CNPJ of the caller's company (empty
// without one), read in the same statement.
func (s *Server) actorWithCNPJ(ctx context.Context, c *auth.Claims) (opportunity.Actor, string, error) {
	row, err := store.New(s.DB).ActiveUserCompany(ctx, c.Subject)
	return actorFrom(c, row, err)
}

// actorFrom is the caller with its company (store.ActiveUserCompany's row), and
// the company's CNPJ; errSessionEnded when the user is no longer active.
func actorFrom(c *auth.Claims, row store.ActiveUserCompanyRow, err error) (opportunity.Actor, string, error) {
	a := opportunity.Actor{UserID: c.Subject, Name: c.Name, Roles: c.Roles}
	if errors.Is(err, pgx.ErrNoRows) {
		return a, "", errSessionEnded
	}
	if err != nil {
		return a, "", err
	}
	a.ResaleID = store.Deref(row.ResaleID)
	return a, store.Deref(row.Cnpj), nil
}

// opportunityID derives a stable id from a client request id, so a retried
// create lands on the same workflow; without one, a random id.
func opportunityID(brandSlug, userID, requestID string) string {
	if requestID == "" {
		return opportunity.NewID()
	}
	return opportunity.DerivedID(brandSlug + "/" + userID + "/" + requestID)
}

func (s *Server) handleCreateOpportunity(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	var p opportunity.CreatePayload
	if !respond.DecodeBody(w, r, &p) {
		return
	}
	if p.Company != "" && !strings.EqualFold(p.Company, c.Brand) {
		respond.Error(w, http.StatusForbidden, MsgCompanyPayload)
		return
	}
	rec, errs := p.Check(c.Brand, s.now())
	if len(errs) > 0 {
		labels := make([]string, len(errs))
		for i, e := range errs {
			labels[i] = e.Label
		}
		respond.JSON(w, http.StatusBadRequest, map[string]any{"message": opportunity.MsgMissingFields, "errors": labels, "fields": errs})
		return
	}
	actor, resaleCNPJ, err := s.actorWithCNPJ(r.Context(), c) // one read: the caller and its company's CNPJ
	if err != nil {
		failRequest(w, r, err)
		return
	}
	requestID := r.Header.Get("Idempotency-Key")
	if requestID == "" {
		requestID = p.RequestID
	}
	id := opportunityID(c.Brand, c.Subject, requestID)
	ctx, cancel := context.WithTimeout(r.Context(), updateTimeout)
	defer cancel()
	out, err := workflows.RegisterOpportunity(ctx, s.Temporal, id, c.Brand,
		workflows.RegisterRequest{Actor: actor, ResaleCNPJ: resaleCNPJ, Record: rec})
	if err != nil {
		// The same request id after its workflow ended (completed), or
		// continued as new (the later run refuses a second registration):
		// answer with what was registered, as the first call was answered.
		if requestID != "" {
			if rec, lerr := opportunity.Load(r.Context(), store.New(s.DB), id); lerr == nil && !rec.IsDeleted && rec.UserID == actor.UserID {
				respond.JSON(w, http.StatusOK, map[string]any{"message": MsgCreated, "data": rec})
				return
			}
		}
		s.updateError(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, map[string]any{"message": MsgCreated, "data": out.Record})
}

// MsgBusy answers a decision the workflow cannot take now (too many in flight).
const MsgBusy = "Muitas ações simultâneas nesta oportunidade. Tente novamente em instantes."

// CodeRegistrationConflict marks the 409 of an approval an earlier
// registration of the same customer holds back (the web app then asks for
// an override reason).
const CodeRegistrationConflict = "REGISTRATION_CONFLICT"

// MsgCancelled answers an action on an opportunity an operator cancelled.
const MsgCancelled = "A oportunidade foi cancelada pela operação."

// updateError answers a failed workflow update with the spec's messages.
func (s *Server) updateError(w http.ResponseWriter, r *http.Request, err error) {
	var app *temporal.ApplicationError
	var notFound *serviceerror.NotFound
	var timeout *temporal.TimeoutError
	var exhausted *serviceerror.ResourceExhausted
	var canceled *temporal.CanceledError
	switch {
	case errors.As(err, &exhausted):
		// More than the workflow's in-flight updates (10), or the server's rate
		// limits: the client may retry shortly with the same Idempotency-Key.
		w.Header().Set("Retry-After", "1")
		respond.Error(w, http.StatusTooManyRequests, MsgBusy)
	case errors.As(err, &canceled):
		respond.Error(w, http.StatusConflict, MsgCancelled)
	case errors.As(err, &notFound):
		respond.Error(w, http.StatusNotFound, MsgNotFound)
	case errors.As(err, &app):
		switch app.Type() {
		case workflows.ErrTypeInvalid:
			respond.Error(w, http.StatusBadRequest, app.Message())
		case workflows.ErrTypeForbidden:
			respond.Error(w, http.StatusForbidden, app.Message())
		case workflows.ErrTypeTransition:
			respond.Error(w, http.StatusConflict, app.Message())
		case workflows.ErrTypeConflict:
			respond.JSON(w, http.StatusConflict, map[string]string{"message": app.Message(), "code": CodeRegistrationConflict})
		case workflows.ErrTypeLate:
			respond.Error(w, http.StatusGatewayTimeout, app.Message())
		case crm.ErrTypeLocked:
			respond.Error(w, http.StatusLocked, MsgCRMLocked)
		case crm.ErrTypeCustomerNotFound:
			respond.JSON(w, http.StatusUnprocessableEntity, map[string]string{"message": MsgCRMCustomer, "code": "CUSTOMER_NOT_FOUND"})
		case crm.ErrTypeUnavailable:
			respond.JSON(w, http.StatusBadGateway, map[string]string{"message": MsgCRMCommunication, "code": "CRM_COMMUNICATION_ERROR"})
		case crm.ErrTypeMultipleMatches:
			respond.JSON(w, http.StatusUnprocessableEntity, map[string]string{"message": crm.MsgMultipleMatches, "code": "CRM_MULTIPLE_MATCHES"})
		default:
			respond.Internal(w, r, err)
		}
	case errors.As(err, &timeout):
		// An activity's timeout with no typed cause: only the CRM step of a
		// decision has a budget that can run out (workflows.CRMBudget).
		respond.JSON(w, http.StatusBadGateway, map[string]string{"message": MsgCRMCommunication, "code": "CRM_COMMUNICATION_ERROR"})
	case errors.Is(err, context.DeadlineExceeded):
		respond.Error(w, http.StatusGatewayTimeout, "O sistema demorou a responder. Tente novamente em instantes.")
	default:
		respond.Internal(w, r, err)
	}
}

// loadVisible reads an opportunity the caller may see: its brand, and for a
// reseller its company's, for a seller its own. Anything else is 404/403.
func (s *Server) loadVisible(w http.ResponseWriter, r *http.Request, id string) (opportunity.Record, opportunity.Actor, bool) {
	return s.loadForDecision(w, r, id, nil)
}

// loadForDecision is loadVisible that also reads, in the same round trip, what
// is recorded under the decision's Idempotency-Key (k; nil without one).
func (s *Server) loadForDecision(w http.ResponseWriter, r *http.Request, id string, k *idemCall) (opportunity.Record, opportunity.Actor, bool) {
	c := auth.FromContext(r.Context())
	if !opportunity.ValidID(id) {
		respond.Error(w, http.StatusNotFound, MsgNotFound)
		return opportunity.Record{}, opportunity.Actor{UserID: c.Subject, Name: c.Name, Roles: c.Roles}, false
	}
	// The caller and the opportunity in one round trip.
	var actor opportunity.Actor
	var rec opportunity.Record
	var actorErr error
	var b store.Batch
	store.Row(&b, func(q *store.Queries) (store.ActiveUserCompanyRow, error) {
		return q.ActiveUserCompany(r.Context(), c.Subject)
	},
		func(row store.ActiveUserCompanyRow, err error) error {
			actor, _, actorErr = actorFrom(c, row, err)
			return nil // answered below, before the record's error
		})
	opportunity.QueueLoad(r.Context(), &b, id, &rec)
	if k != nil {
		k.queue(r.Context(), &b)
	}
	err := b.Send(r.Context(), s.DB)
	if actorErr != nil {
		failRequest(w, r, actorErr)
		return opportunity.Record{}, actor, false
	}
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && (rec.Brand != c.Brand || rec.IsDeleted)) {
		respond.Error(w, http.StatusNotFound, MsgNotFound)
		return rec, actor, false
	}
	if err != nil {
		respond.Internal(w, r, err)
		return rec, actor, false
	}
	allowed := c.Has(auth.Representative, auth.Support) ||
		(c.Has(auth.Resale) && actor.ResaleID != "" && rec.ResaleID == actor.ResaleID) ||
		(c.Has(auth.Seller) && rec.UserID == actor.UserID)
	if !allowed {
		respond.Error(w, http.StatusForbidden, auth.MsgForbidden)
		return rec, actor, false
	}
	return rec, actor, true
}

func (s *Server) handleGetOpportunity(w http.ResponseWriter, r *http.Request) {
	rec, _, ok := s.loadVisible(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	c := auth.FromContext(r.Context())
	if !c.Has(auth.Representative) {
		rec.UserEmail = "" // the registering user's e-mail is for representatives (spec §2)
	}
	if err := s.withConflicts(r.Context(), c, &rec); err != nil {
		respond.Internal(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, map[string]any{"data": []opportunity.Record{rec}})
}

// withConflicts fills the other open registrations of the record's customer
// at the brand, read now (a refused or expired one no longer competes):
// the list for the representative and support, only whether there are any
// for a reseller or a seller, who never see another reseller's registration
// (docs/deal-desk.md, "Conflicts").
func (s *Server) withConflicts(ctx context.Context, c *auth.Claims, rec *opportunity.Record) error {
	conflicts, err := opportunity.LoadConflicts(ctx, store.New(s.DB), rec.ID)
	if err != nil {
		return err
	}
	rec.HasConflicts = len(conflicts) > 0
	rec.Conflicts = []opportunity.Conflict{}
	if c.Has(auth.Representative, auth.Support) {
		rec.Conflicts = conflicts
	}
	return nil
}

// decisionDeadline is the absolute deadline a decision carries into the
// workflow: its validator refuses it after that, and its CRM and database steps
// end by then, so nothing lands after the API stopped waiting (updateTimeout).
// The margin covers the answer's way back.
func decisionDeadline(start time.Time) time.Time {
	return start.Add(updateTimeout - 5*time.Second)
}

// decisionUpdateID names a decision in the workflow: from the request's
// Idempotency-Key (scoped to the caller), so a retried call returns the first
// call's outcome instead of acting again; empty without a key (a new id).
func decisionUpdateID(r *http.Request) string {
	key := strings.TrimSpace(r.Header.Get("Idempotency-Key"))
	if key == "" {
		return ""
	}
	return "decision/" + opportunity.DerivedID(auth.FromContext(r.Context()).Subject+"/"+key)
}

// update runs a workflow update as the caller and answers with the record:
// rec, as the caller read it before the decision, with the event the decision
// recorded applied (workflows.Decided), so a decision reads its row once.
// With an Idempotency-Key (k), the workflow records the answer with the
// decision; a refusal is checked against the key once more (the call may
// repeat one recorded meanwhile, which then met a later run).
func (s *Server) update(w http.ResponseWriter, r *http.Request, id string, rec opportunity.Record, name string, arg any, success string, k *idemCall) {
	ctx, cancel := context.WithTimeout(r.Context(), updateTimeout)
	defer cancel()
	h, err := s.Temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: workflows.OpportunityWorkflowID(id),
		UpdateID: decisionUpdateID(r), UpdateName: name, Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted})
	var decided workflows.Decided
	if err == nil {
		err = h.Get(ctx, &decided)
	}
	if err != nil && k != nil {
		if lerr := s.lookupKey(r.Context(), k); lerr == nil && k.found {
			// Recorded under the key: by an earlier call (answered as it was),
			// or by this call's workflow task, lost with the update (the
			// workflow is then behind: the client is asked to try again).
			if now, lerr := opportunity.Load(r.Context(), store.New(s.DB), id); lerr == nil && s.answerRepeatAfterFailure(w, r, k, id, now) {
				return
			}
		}
	}
	if err != nil {
		s.updateError(w, r, err)
		return
	}
	if decided.Event != nil {
		rec = rec.Applied(*decided.Event)
	}
	respond.JSON(w, http.StatusOK, map[string]any{"message": success, "data": rec})
}

// decisionBody is PATCH /opportunity/{id} and /opportunity/renovation/{id}.
type decisionBody struct {
	Status             opportunity.Status `json:"status"`
	Name               *string            `json:"name"`
	ProbabilityClosing *int               `json:"probabilityClosing"`
	Reason             string             `json:"reason"`
	// OverrideReason approves despite an earlier registration of the same
	// customer (an approval only; docs/deal-desk.md, "Conflicts").
	OverrideReason *string `json:"overrideReason"`
}

// MsgOverrideReasonRequired answers an approval whose override reason is blank.
const MsgOverrideReasonRequired = "Informe o motivo para aprovar apesar do conflito."

// overrideReason checks an approval's override reason: absent is none; blank
// or too long is refused with its message.
func overrideReason(p *string) (string, string) {
	if p == nil {
		return "", ""
	}
	reason := strings.TrimSpace(*p)
	switch {
	case reason == "":
		return "", MsgOverrideReasonRequired
	case utf8.RuneCountInString(reason) > workflows.MaxOverrideReason:
		return "", workflows.MsgOverrideReasonLong
	}
	return reason, ""
}

func (s *Server) handlePatchOpportunity(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	var body decisionBody
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	// The call's action is its body's: the Idempotency-Key's outcome is read
	// with the opportunity, and a repetition answers it without acting.
	var k *idemCall
	switch body.Status {
	case opportunity.Approved:
		k = decisionKey(r, actionApprove, MsgApproved)
	case opportunity.Disapproved:
		k = decisionKey(r, actionDisapprove, MsgDisapproved)
	default:
		k = decisionKey(r, actionEdit, MsgUpdated)
	}
	rec, actor, ok := s.loadForDecision(w, r, id, k)
	if !ok || s.answerRepeat(w, r, k, id, rec) {
		return
	}
	start := time.Now()
	switch {
	// With an Idempotency-Key, an approval stays an approval even when the list
	// already shows it approved: a retry of one that landed gets its outcome.
	case body.Status == opportunity.Approved && (rec.Status == opportunity.Analysis || k != nil):
		reason, msg := overrideReason(body.OverrideReason)
		if msg != "" {
			respond.Error(w, http.StatusBadRequest, msg)
			return
		}
		req := workflows.ApproveRequest{Actor: actor, Deadline: decisionDeadline(start), Idem: k.record(), OverrideReason: reason}
		if body.Name != nil {
			req.Name = *body.Name
		}
		if body.ProbabilityClosing != nil {
			req.Probability = *body.ProbabilityClosing
		}
		s.update(w, r, id, rec, workflows.UpdateApprove, req, MsgApproved, k)
	case body.Status == opportunity.Disapproved:
		s.update(w, r, id, rec, workflows.UpdateDisapprove, workflows.DisapproveRequest{Actor: actor, Reason: body.Reason,
			Deadline: decisionDeadline(start), Idem: k.record()}, MsgDisapproved, k)
	case body.Status == "" || body.Status == rec.Status:
		s.update(w, r, id, rec, workflows.UpdateEdit, workflows.EditRequest{Actor: actor, Name: body.Name, Probability: body.ProbabilityClosing,
			Deadline: decisionDeadline(start), Idem: k.record()}, MsgUpdated, k)
	default:
		respond.Error(w, http.StatusConflict, fmt.Sprintf("Ação não permitida: a oportunidade está %s.", strings.ToLower(rec.Status.Label())))
	}
}

func (s *Server) handlePatchProbability(w http.ResponseWriter, r *http.Request) {
	var body struct {
		ID                 string `json:"id"`
		ProbabilityClosing *int   `json:"probabilityClosing"`
	}
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	if body.ProbabilityClosing == nil {
		respond.Error(w, http.StatusBadRequest, workflows.MsgProbability)
		return
	}
	k := decisionKey(r, actionEdit, MsgUpdated)
	rec, actor, ok := s.loadForDecision(w, r, body.ID, k)
	if !ok || s.answerRepeat(w, r, k, body.ID, rec) {
		return
	}
	s.update(w, r, body.ID, rec, workflows.UpdateEdit, workflows.EditRequest{Actor: actor, Probability: body.ProbabilityClosing,
		Deadline: decisionDeadline(time.Now()), Idem: k.record()}, MsgUpdated, k)
}

func (s *Server) handleRenewalRequest(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	var body opportunity.RenewalRequest
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	k := decisionKey(r, actionRequestRenewal, MsgRenewalRequested)
	rec, actor, ok := s.loadForDecision(w, r, id, k)
	if !ok || s.answerRepeat(w, r, k, id, rec) {
		return
	}
	if errs := opportunity.CheckRenewal(body, s.now()); len(errs) > 0 {
		labels := make([]string, len(errs))
		for i, e := range errs {
			labels[i] = e.Label
		}
		respond.JSON(w, http.StatusBadRequest, map[string]any{"message": errs[0].Message, "errors": labels, "fields": errs})
		return
	}
	s.update(w, r, id, rec, workflows.UpdateRequestRenewal, workflows.RenewalRequest{Actor: actor, Renewal: body,
		Deadline: decisionDeadline(time.Now()), Idem: k.record()}, MsgRenewalRequested, k)
}

func (s *Server) handleRenewalDecision(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	var body decisionBody
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	if body.Status != opportunity.Approved && body.Status != opportunity.Disapproved {
		respond.Error(w, http.StatusBadRequest, "Informe a decisão: approved ou disapproved.")
		return
	}
	approve := body.Status == opportunity.Approved
	msg, action := MsgRenewalRefused, actionRenewalRefuse
	if approve {
		msg, action = MsgRenewalApproved, actionRenewalApprove
	}
	k := decisionKey(r, action, msg)
	rec, actor, ok := s.loadForDecision(w, r, id, k)
	if !ok || s.answerRepeat(w, r, k, id, rec) {
		return
	}
	s.update(w, r, id, rec, workflows.UpdateDecideRenewal, workflows.RenewalDecision{Actor: actor, Approve: approve, Reason: body.Reason,
		Deadline: decisionDeadline(time.Now()), Idem: k.record()}, msg, k)
}
