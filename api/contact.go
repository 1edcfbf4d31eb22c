package api

import (
	"log/slog"
	"net/http"
	"strings"
	"unicode/utf8"

	"oportuna/auth"
	"oportuna/internal/respond"
	"oportuna/mailer"
	"oportuna/resale"
)

// Messages of the contact form (spec §8 "Contact").
const (
	MsgContactSent    = "Email enviado com sucesso!"
	MsgContactMissing = "Campos obrigatórios ausentes!"
	MsgContactInvalid = "Verifique os campos do contato."
)

// Bounds of the contact form's fields, in characters.
const (
	maxContactLine = 200
	maxContactText = 5000
)

// contactBody is POST /contact (spec §3 "Contact request").
type contactBody struct {
	FullName    string `json:"fullName"`
	Email       string `json:"email"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// handleContact is POST /contact (public): the brand of the company header
// e-mails the request to its administrator, answerable to the requester.
func (s *Server) handleContact(w http.ResponseWriter, r *http.Request) {
	company := strings.TrimSpace(r.Header.Get(auth.CompanyHeader))
	if company == "" {
		respond.Error(w, http.StatusBadRequest, auth.MsgCompanyMissing)
		return
	}
	b, ok := s.Brands.BySlug(company)
	if !ok {
		respond.Error(w, http.StatusBadRequest, auth.MsgUnknownBrand)
		return
	}
	var body contactBody
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	req := mailer.ContactRequest{FullName: strings.TrimSpace(body.FullName), Email: auth.NormalizeEmail(body.Email),
		Title: strings.TrimSpace(body.Title), Description: strings.TrimSpace(body.Description)}
	var missing, invalid []string
	for _, f := range []struct {
		name, v string
		max     int
	}{{"fullName", req.FullName, maxContactLine}, {"email", req.Email, 254}, {"title", req.Title, maxContactLine},
		{"description", req.Description, maxContactText}} {
		switch {
		case f.v == "":
			missing = append(missing, f.name)
		case utf8.RuneCountInString(f.v) > f.max:
			invalid = append(invalid, f.name)
		}
	}
	if req.Email != "" && !resale.ValidEmail(req.Email) {
		invalid = append(invalid, "email")
	}
	if len(missing) > 0 {
		respond.JSON(w, http.StatusBadRequest, map[string]any{"message": MsgContactMissing, "fields": append(missing, invalid...)})
		return
	}
	if len(invalid) > 0 {
		respond.JSON(w, http.StatusBadRequest, map[string]any{"message": MsgContactInvalid, "fields": invalid})
		return
	}
	if s.Partners.Mail == nil {
		slog.ErrorContext(r.Context(), "contact: partner mail not configured")
		respond.Error(w, http.StatusInternalServerError, MsgMailNotConfigured)
		return
	}
	if err := s.Partners.Mail.SendContact(r.Context(), b, "", req); err != nil {
		respond.Internal(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, respond.Message{Message: MsgContactSent})
}
