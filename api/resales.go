package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"oportuna/auth"
	"oportuna/internal/calendar"
	"oportuna/internal/respond"
	"oportuna/opportunity"
	"oportuna/resale"
	"oportuna/store"
	"oportuna/workflows"
)

// Messages of the reseller calls (spec §4 "Resale status", §8).
const (
	MsgResaleApproved    = "Revenda aprovada com sucesso"
	MsgResaleDisapproved = "Revenda reprovada com sucesso"
	MsgResaleNotFound    = "Revenda não encontrada."
	MsgResaleDecision    = "Informe a decisão: approved ou disapproved."
	MsgResaleReason      = workflows.MsgResaleReason
	MsgResaleReasonLong  = workflows.MsgResaleReasonLong
)

// MaxResaleReason is the longest refusal reason, in characters (the dialog's cap).
const MaxResaleReason = workflows.MaxResaleReason

// resaleRow is a reseller company as the lists and the details screen read it (spec §3 "Resale").
type resaleRow struct {
	ID            string    `json:"id"`
	Status        string    `json:"status"`
	CorporateName string    `json:"corporateName"`
	FantasyName   string    `json:"fantasyName"`
	CNPJ          string    `json:"cnpj"`
	Phone         string    `json:"phone"`
	ContactName   string    `json:"contactName"`
	Email         string    `json:"email"`
	CEP           string    `json:"cep"`
	City          string    `json:"city"`
	Street        string    `json:"street"`
	State         string    `json:"state"`
	Reason        string    `json:"reason"`
	CreatedAt     time.Time `json:"createdAt"`
}

// resaleRowOf is a company as the API answers it.
func resaleRowOf(r store.GetResaleRow) resaleRow {
	return resaleRow{ID: r.ID, Status: r.Status, CorporateName: r.CorporateName, FantasyName: r.FantasyName, CNPJ: r.Cnpj,
		Phone: r.Phone, ContactName: r.ContactName, Email: r.Email, CEP: r.Cep, City: r.City, Street: r.Street,
		State: r.State, Reason: r.Reason, CreatedAt: r.CreatedAt}
}

// sameBrandParam refuses a query's brand parameter that is not the token's
// (the list is always the token's brand; a forged parameter changes nothing).
func sameBrandParam(w http.ResponseWriter, r *http.Request, c *auth.Claims) bool {
	if v := strings.TrimSpace(r.URL.Query().Get("brand")); v != "" && !strings.EqualFold(v, c.Brand) {
		respond.Error(w, http.StatusForbidden, auth.MsgCompanyMismatch)
		return false
	}
	return true
}

// handleResaleList is GET /resale/all (REPRESENTATIVE, SUPPORT): the token
// brand's companies, filtered by status and sign-up day, newest first by default.
func (s *Server) handleResaleList(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	if !sameBrandParam(w, r, c) {
		return
	}
	amount, page, msg := pageParams(r)
	if msg != "" {
		respond.Error(w, http.StatusBadRequest, msg)
		return
	}
	q := r.URL.Query()
	f := store.ResaleFilter{Brand: c.Brand}
	if v := strings.TrimSpace(q.Get("status")); v != "" {
		for _, st := range strings.Split(v, ",") {
			st = strings.TrimSpace(st)
			if !resale.ValidStatus(st) {
				respond.Error(w, http.StatusBadRequest, "Status inválido: "+st)
				return
			}
			f.Statuses = append(f.Statuses, st)
		}
	}
	if v := strings.TrimSpace(q.Get("date")); v != "" {
		d, ok := opportunity.ParseDate(v)
		if !ok {
			respond.Error(w, http.StatusBadRequest, "Data inválida: use dd/mm/aaaa.")
			return
		}
		f.CreatedFrom, f.CreatedBefore = calendar.Start(d), calendar.Start(d).AddDate(0, 0, 1)
	}
	if v := q.Get("createdAt"); v != "" {
		asc, ok := sortDir(v)
		if !ok {
			respond.Error(w, http.StatusBadRequest, "Ordenação inválida: use -1 ou 1.")
			return
		}
		f.OldestFirst = asc
	}
	db := store.New(s.DB)
	answerPage(w, r, func() (int, error) { return db.CountResales(r.Context(), f) },
		func() ([]store.GetResaleRow, error) { return db.ResalePage(r.Context(), f, amount, (page-1)*amount) }, resaleRowOf)
}

// loadResale reads a company of the token's brand; another brand's, or an
// unknown id, answers 404.
func (s *Server) loadResale(w http.ResponseWriter, r *http.Request, id string) (resaleRow, bool) {
	c := auth.FromContext(r.Context())
	var row resaleRow
	if !opportunity.ValidID(id) {
		respond.Error(w, http.StatusNotFound, MsgResaleNotFound)
		return row, false
	}
	got, err := store.New(s.DB).GetResale(r.Context(), store.GetResaleParams{ID: id, Brand: c.Brand})
	if errors.Is(err, pgx.ErrNoRows) {
		respond.Error(w, http.StatusNotFound, MsgResaleNotFound)
		return row, false
	}
	if err != nil {
		respond.Internal(w, r, err)
		return row, false
	}
	row = resaleRowOf(got)
	return row, true
}

// handleGetResale is GET /resale/{id}: staff of the brand, or a RESALE user of
// that company.
func (s *Server) handleGetResale(w http.ResponseWriter, r *http.Request) {
	p, ok := s.partnerOf(w, r)
	if !ok {
		return
	}
	row, ok := s.loadResale(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if !p.Has(auth.Representative, auth.Support) && !(p.Has(auth.Resale) && p.ResaleID == row.ID) {
		respond.Error(w, http.StatusForbidden, auth.MsgForbidden)
		return
	}
	respond.JSON(w, http.StatusOK, map[string]any{"data": row})
}

// resaleDecisionBody is PATCH /resale/update/{id}.
type resaleDecisionBody struct {
	Status string `json:"status"`
	Reason string `json:"reason"`
	Host   string `json:"host"`
}

// handleDecideResale approves (201) or refuses (200) a company in analysis
// through its onboarding workflow (REPRESENTATIVE and SUPPORT of the brand).
func (s *Server) handleDecideResale(w http.ResponseWriter, r *http.Request) {
	p, ok := s.partnerOf(w, r)
	if !ok {
		return
	}
	var body resaleDecisionBody
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	if body.Status != resale.Approved && body.Status != resale.Disapproved {
		respond.Error(w, http.StatusBadRequest, MsgResaleDecision)
		return
	}
	if body.Status == resale.Disapproved {
		if strings.TrimSpace(body.Reason) == "" {
			respond.Error(w, http.StatusBadRequest, MsgResaleReason)
			return
		}
		if utf8.RuneCountInString(body.Reason) > MaxResaleReason {
			respond.Error(w, http.StatusBadRequest, MsgResaleReasonLong)
			return
		}
	}
	row, ok := s.loadResale(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if row.Status != resale.Analysis {
		if !s.answerDecided(w, r, row.ID, body.Status) {
			respond.Error(w, http.StatusConflict, workflows.ResaleTransitionMessage(row.Status))
		}
		return
	}
	actor := opportunity.Actor{UserID: p.Subject, Name: p.Name, Roles: p.Roles}
	if body.Status == resale.Disapproved {
		s.decideResale(w, r, row, body.Status, workflows.UpdateDisapprove, workflows.ResaleDisapproval{Actor: actor, Brand: p.Brand, Reason: body.Reason})
		return
	}
	portal := s.portalFor(r, p.Brand, body.Host)
	s.decideResale(w, r, row, body.Status, workflows.UpdateApprove, workflows.ResaleApproval{Actor: actor, Brand: p.Brand, Portal: portal, InviteTTL: s.inviteTTL()})
}

// answerResaleDecided answers a decision taken: 201 an approval, 200 a refusal.
func answerResaleDecided(w http.ResponseWriter, status string) {
	if status == resale.Approved {
		respond.JSON(w, http.StatusCreated, respond.Message{Message: MsgResaleApproved})
		return
	}
	respond.JSON(w, http.StatusOK, respond.Message{Message: MsgResaleDisapproved})
}

// answerDecided answers the decision of a company that the caller already
// took (the company in the status asked for, decided by the caller: a repeat
// after a lost answer, a double submit) with its first outcome, changing
// nothing, and reports whether it answered. Another person's repeat is a
// conflict.
func (s *Server) answerDecided(w http.ResponseWriter, r *http.Request, id, status string) bool {
	c := auth.FromContext(r.Context())
	got, err := store.New(s.DB).ResaleDecidedBy(r.Context(), store.ResaleDecidedByParams{ID: id, Brand: c.Brand})
	if err != nil || got.Status != status || got.DecidedBy != c.Subject {
		return false
	}
	answerResaleDecided(w, status)
	return true
}

// decideResale runs a decision on the company's workflow and answers it. A
// company whose workflow is gone (terminated by an operator, or a row created
// without one) gets a new run that adopts the row, so a decision is never
// stuck. A call that fails while the same caller's decision lands (two submits
// at once, an answer that came too late) answers that decision.
func (s *Server) decideResale(w http.ResponseWriter, r *http.Request, row resaleRow, status, update string, arg any) {
	ctx, cancel := context.WithTimeout(r.Context(), updateTimeout)
	defer cancel()
	brandSlug := auth.FromContext(r.Context()).Brand
	start := workflows.ResaleStart(row.ID, brandSlug)
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
	start.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
	op := s.Temporal.NewWithStartWorkflowOperation(start, workflows.Resale, workflows.ResaleInput{ID: row.ID, Brand: brandSlug, Adopt: true})
	h, err := s.Temporal.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateName: update, Args: []any{arg},
			WaitForStage: client.WorkflowUpdateStageCompleted},
	})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err != nil {
		if !s.answerDecided(w, r, row.ID, status) {
			s.resaleUpdateError(w, r, err)
		}
		return
	}
	answerResaleDecided(w, status)
}

// resaleUpdateError answers a failed onboarding update.
func (s *Server) resaleUpdateError(w http.ResponseWriter, r *http.Request, err error) {
	var app *temporal.ApplicationError
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	var notFound *serviceerror.NotFound
	switch {
	case errors.As(err, &notFound):
		respond.Error(w, http.StatusNotFound, MsgResaleNotFound)
	case errors.As(err, &started):
		// The company's run ended (decided) after our status check: it is no longer in analysis.
		respond.Error(w, http.StatusConflict, workflows.ResaleTransitionMessage(""))
	case errors.As(err, &app) && app.Type() == resale.ErrTypeDuplicate:
		respond.Error(w, http.StatusConflict, app.Message())
	default:
		s.updateError(w, r, err)
	}
}
