package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/cnpj"
	"oportuna/internal/respond"
	"oportuna/opportunity"
	"oportuna/workflows"
)

// Messages of the reseller sign-up (spec §8 "Reseller registration").
const (
	MsgResaleRegistered = "Revenda cadastrada com sucesso"
	MsgResaleInvalid    = "Dados da revenda inválidos"
	MsgCheckName        = "Verifique o nome digitado"
	MsgCheckEmail       = "Verifique o email digitado"
	MsgCheckPhone       = "Verifique o telefone digitado"
	MsgCheckCNPJ        = "Verifique o cnpj digitado"
	MsgCheckCorporate   = "Verifique a razão social"
	MsgCheckCEP         = "Verifique o CEP"
	MsgCheckState       = "Verifique o estado"
	MsgCheckField       = "Verifique o campo"
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

var (
	// emailRE is the forms' e-mail rule: something@domain.tld with a 2–4 letter top-level domain.
	emailRE  = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[A-Za-z]{2,4}$`)
	nonDigit = regexp.MustCompile(`\D`)
	stateRE  = regexp.MustCompile(`^[A-Za-z]{2}$`)
)

func onlyDigits(s string) string { return nonDigit.ReplaceAllString(s, "") }

// validMobile is the forms' phone: a 2-digit area code plus 9 digits ((XX) X XXXX-XXXX).
func validMobile(digits string) bool {
	return len(digits) == 11 && digits[0] != '0' && strings.Trim(digits, "0") != ""
}

// validEmail applies emailRE with a length bound.
func validEmail(e string) bool { return len(e) <= 254 && emailRE.MatchString(e) }

// check validates and normalises the sign-up: the brand's slug, the registration, or the failed fields.
func (b registerBody) check() (activities.ResaleRegistration, []opportunity.FieldError) {
	var errs []opportunity.FieldError
	fail := func(field, label, msg string) {
		errs = append(errs, opportunity.FieldError{Field: field, Label: label, Message: msg})
	}
	clean := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	r := activities.ResaleRegistration{
		Email: auth.NormalizeEmail(b.Email), Phone: onlyDigits(string(b.Phone)), ContactName: clean(b.ContactName),
		CNPJ: cnpj.Normalize(b.CNPJ), FantasyName: clean(b.FantasyName), CorporateName: clean(b.CorporateName),
		Street: clean(b.Street), State: strings.ToUpper(clean(b.State)), CEP: onlyDigits(string(b.CEP)),
		City: clean(b.City), Country: clean(b.Country),
	}
	if r.ContactName == "" || utf8.RuneCountInString(r.ContactName) > 120 {
		fail("contactName", "Nome", MsgCheckName)
	}
	if !validEmail(r.Email) {
		fail("email", "Email", MsgCheckEmail)
	}
	if !validMobile(r.Phone) {
		fail("phone", "Telefone", MsgCheckPhone)
	}
	if !cnpj.Valid(r.CNPJ) {
		fail("cnpj", "CNPJ", MsgCheckCNPJ)
	}
	if r.CorporateName == "" {
		fail("corporateName", "Razão social", MsgCheckCorporate)
	}
	if r.CEP != "" && len(r.CEP) != 8 {
		fail("cep", "CEP", MsgCheckCEP)
	}
	if r.State != "" && !stateRE.MatchString(r.State) {
		fail("state", "Estado", MsgCheckState)
	}
	for _, f := range []struct{ field, label, v string }{
		{"corporateName", "Razão social", r.CorporateName}, {"fantasyName", "Nome fantasia", r.FantasyName},
		{"street", "Endereço", r.Street}, {"city", "Cidade", r.City}, {"country", "País", r.Country},
	} {
		if utf8.RuneCountInString(f.v) > 200 {
			fail(f.field, f.label, MsgCheckField)
		}
	}
	if r.FantasyName == "" {
		r.FantasyName = "N/C" // spec §5 "Registration step 2": a blank trade name
	}
	if r.Country == "" {
		r.Country = "Brasil"
	}
	return r, errs
}

// handleRegisterResale is POST /register/resale (public): a company signs up at
// a brand and its onboarding workflow starts in analysis.
func (s *Server) handleRegisterResale(w http.ResponseWriter, r *http.Request) {
	var body registerBody
	if err := respond.Decode(r, &body); err != nil {
		respond.BadBody(w)
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
	// The common case answers here; the workflow's activity checks again under a lock.
	var cnpjTaken, emailTaken bool
	if err := s.DB.QueryRow(r.Context(), `SELECT EXISTS (SELECT 1 FROM resales WHERE brand = $2 AND cnpj = $3),
		EXISTS (SELECT 1 FROM users WHERE lower(email) = $1) OR EXISTS (SELECT 1 FROM resales WHERE lower(email) = $1)`,
		reg.Email, b.Slug, reg.CNPJ).Scan(&cnpjTaken, &emailTaken); err != nil {
		respond.Internal(w, r, err)
		return
	}
	switch {
	case cnpjTaken:
		duplicateSignUp(w, activities.MsgResaleCNPJTaken)
		return
	case emailTaken:
		duplicateSignUp(w, activities.MsgResaleEmailTaken)
		return
	}
	id := opportunity.NewID()
	ctx, cancel := context.WithTimeout(r.Context(), updateTimeout)
	defer cancel()
	start := workflows.ResaleStart(id, b.Slug)
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL
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
	case errors.As(err, &app) && app.Type() == activities.ErrTypeDuplicate:
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
	if msg == activities.MsgResaleCNPJTaken {
		body["code"], body["field"] = CodeResaleCNPJTaken, "cnpj"
	} else {
		body["message"] = activities.MsgResaleEmailTaken
	}
	respond.JSON(w, http.StatusBadRequest, body)
}
