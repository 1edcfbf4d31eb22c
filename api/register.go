package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"oportuna/auth"
	"oportuna/internal/respond"
	"oportuna/opportunity"
	"oportuna/resale"
	"oportuna/store"
	"oportuna/workflows"
)

// Messages of the reseller sign-up (spec §8 "Reseller registration").
const (
	MsgResaleRegistered = "Revenda cadastrada com sucesso"
	MsgResaleInvalid    = "Dados da revenda inválidos"
)

// text is a JSON string or number (the forms send phone and CEP either way).
type text string

func (t *text) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*t = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = text(s)
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return err
		}
		*t = text(n.String())
	}
	return nil
}

// registerBody is POST /register/resale (spec §3 "Reseller registration payload").
type registerBody struct {
	Email         string   `json:"email"`
	Phone         text     `json:"phone"`
	ContactName   string   `json:"contactName"`
	CNPJ          string   `json:"cnpj"`
	Role          []string `json:"role"` // always empty: a sign-up grants no role before approval
	Brand         string   `json:"brand"`
	FantasyName   string   `json:"fantasyName"`
	CorporateName string   `json:"corporateName"`
	Street        string   `json:"street"`
	State         string   `json:"state"`
	CEP           text     `json:"cep"`
	City          string   `json:"city"`
	Country       string   `json:"country"`
}

// check validates and normalises the sign-up (resale.Check).
func (b registerBody) check() (resale.Registration, []opportunity.FieldError) {
	return resale.Check(resale.Registration{Email: b.Email, Phone: string(b.Phone), ContactName: b.ContactName, CNPJ: b.CNPJ,
		FantasyName: b.FantasyName, CorporateName: b.CorporateName, Street: b.Street, State: b.State, CEP: string(b.CEP),
		City: b.City, Country: b.Country})
}

// handleRegisterResale is POST /register/resale (public): a company signs up at
// a brand and its onboarding workflow starts in analysis.
func (s *Server) handleRegisterResale(w http.ResponseWriter, r *http.Request) {
	var body registerBody
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	b, ok := s.Brands.BySlug(body.Brand)
	if !ok {
		respond.Error(w, http.StatusBadRequest, auth.MsgUnknownBrand)
		return
	}
	reg, errs := body.check()
	if len(errs) > 0 {
		labels := make([]string, len(errs))
		for i, e := range errs {
			labels[i] = e.Label
		}
		respond.JSON(w, http.StatusBadRequest, map[string]any{"message": MsgResaleInvalid, "errors": labels, "fields": errs})
		return
	}
	// With an Idempotency-Key the company's id comes from the key and the
	// form's CNPJ and e-mail: a retry of a sign-up that was stored (its answer
	// lost) is answered as the first call, instead of "CNPJ already taken".
	id := opportunity.NewID()
	key := strings.TrimSpace(r.Header.Get("Idempotency-Key"))
	stored := func() bool { // answered when the key's sign-up is stored
		if key == "" {
			return false
		}
		ok, err := store.New(s.DB).ResaleExists(r.Context(), id)
		if err != nil {
			respond.Internal(w, r, err)
			return true
		}
		if ok {
			respond.JSON(w, http.StatusCreated, map[string]any{"message": MsgResaleRegistered, "id": id})
		}
		return ok
	}
	if key != "" {
		id = opportunity.DerivedID("resale/" + b.Slug + "/" + key + "/" + reg.CNPJ + "/" + strings.ToLower(reg.Email))
	}
	if stored() {
		return
	}
	// The common case answers here; the workflow's activity checks again under a lock.
	taken, err := store.New(s.DB).SignUpTaken(r.Context(), store.SignUpTakenParams{Email: reg.Email, Brand: b.Slug, Cnpj: reg.CNPJ})
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	if (taken.CnpjTaken || taken.EmailTaken) && stored() { // stored meanwhile by the first call
		return
	}
	switch {
	case taken.CnpjTaken:
		duplicateSignUp(w, resale.MsgCNPJTaken)
		return
	case taken.EmailTaken:
		duplicateSignUp(w, resale.MsgEmailTaken)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), updateTimeout)
	defer cancel()
	start := workflows.ResaleStart(id, b.Slug)
	// A retry (same key) while the first call is in flight meets its
	// workflow and its update "register": the first call's outcome.
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
	start.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE
	op := s.Temporal.NewWithStartWorkflowOperation(start, workflows.Resale, workflows.ResaleInput{ID: id, Brand: b.Slug})
	h, err := s.Temporal.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateID: "register", UpdateName: workflows.UpdateRegister,
			Args: []any{workflows.ResaleRegisterRequest{Registration: reg}}, WaitForStage: client.WorkflowUpdateStageCompleted},
	})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	var app *temporal.ApplicationError
	switch {
	case err == nil:
		respond.JSON(w, http.StatusCreated, map[string]any{"message": MsgResaleRegistered, "id": id})
	case errors.As(err, &app) && app.Type() == resale.ErrTypeDuplicate:
		duplicateSignUp(w, app.Message())
	default:
		s.updateError(w, r, err)
	}
}

// Codes of a refused sign-up, beside the message: which step's field to fix.
const (
	CodeResaleCNPJTaken  = "CNPJ_TAKEN"
	CodeResaleEmailTaken = "EMAIL_TAKEN"
)

// duplicateSignUp answers 400 for a sign-up of a CNPJ already registered at the
// brand (the screen stays on step 2) or of an e-mail in use (back to step 1),
// each with its message and code (docs/partners.md).
func duplicateSignUp(w http.ResponseWriter, msg string) {
	body := map[string]string{"message": msg, "code": CodeResaleEmailTaken, "field": "email"}
	if msg == resale.MsgCNPJTaken {
		body["code"], body["field"] = CodeResaleCNPJTaken, "cnpj"
	} else {
		body["message"] = resale.MsgEmailTaken
	}
	respond.JSON(w, http.StatusBadRequest, body)
}
