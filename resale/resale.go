// Package resale is a reseller company: its statuses, its sign-up's
// validation, and the users of a company (its RESALE user, its sellers).
package resale

import (
	"errors"
	"regexp"
	"strings"
	"unicode/utf8"

	"oportuna/auth"
	"oportuna/cnpj"
	"oportuna/opportunity"
)

// Statuses of a reseller company (spec §4 "Resale status").
const (
	Analysis    = "analysis"
	Approved    = "approved"
	Disapproved = "disapproved"
)

// ValidStatus reports whether s is a reseller status.
func ValidStatus(s string) bool {
	return s == Analysis || s == Approved || s == Disapproved
}

// StatusLabel is the status as a sentence says it ("a revenda está aprovada").
func StatusLabel(s string) string {
	switch s {
	case Analysis:
		return "em análise"
	case Approved:
		return "aprovada"
	case Disapproved:
		return "reprovada"
	}
	return "fora de análise"
}

// Error types of the partner activities (Temporal application errors).
const (
	// ErrTypeDuplicate is an e-mail or CNPJ already registered (the API answers 400 or 409).
	ErrTypeDuplicate = "Duplicate"
	// ErrTypeState is a decision on a company that is no longer in analysis
	// (409): the same type as workflows.ErrTypeTransition.
	ErrTypeState = "InvalidTransition"
)

// Messages of a sign-up refused and of a company's decision (pt-BR, shown to users).
const (
	MsgDuplicate = "Email ou Doc já existente"
	MsgEmailUsed = "O email da revenda já pertence a outro usuário."
	// MsgEmailTaken refuses a sign-up whose e-mail a user or a company
	// has (the spec's server message; the screen goes back to the e-mail's step).
	MsgEmailTaken = "Email já está sendo utilizado"
	// MsgCNPJTaken refuses a sign-up whose CNPJ is already registered at
	// the brand (the screen stays on the CNPJ's step).
	MsgCNPJTaken = "Já existe uma revenda registrada com este CNPJ."
)

// ErrEmailTaken is an e-mail some user or company already has.
var ErrEmailTaken = errors.New("e-mail already in use")

// Registration is a company's sign-up (spec §3 "Reseller registration
// payload"), validated and normalised by Check: CNPJ, phone and CEP as
// characters without a mask, e-mail in lower case.
type Registration struct {
	Email         string `json:"email"`
	Phone         string `json:"phone"`
	ContactName   string `json:"contactName"`
	CNPJ          string `json:"cnpj"`
	FantasyName   string `json:"fantasyName"`
	CorporateName string `json:"corporateName"`
	Street        string `json:"street"`
	State         string `json:"state"`
	CEP           string `json:"cep"`
	City          string `json:"city"`
	Country       string `json:"country"`
}

// Messages of the sign-up's and the seller form's checks (spec §5).
const (
	MsgCheckName      = "Verifique o nome digitado"
	MsgCheckEmail     = "Verifique o email digitado"
	MsgCheckPhone     = "Verifique o telefone digitado"
	MsgCheckCNPJ      = "Verifique o cnpj digitado"
	MsgCheckCorporate = "Verifique a razão social"
	MsgCheckCEP       = "Verifique o CEP"
	MsgCheckState     = "Verifique o estado"
	MsgCheckField     = "Verifique o campo"
)

var (
	// emailRE is the forms' e-mail rule: something@domain.tld with a 2–4 letter top-level domain.
	emailRE  = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[A-Za-z]{2,4}$`)
	nonDigit = regexp.MustCompile(`\D`)
	stateRE  = regexp.MustCompile(`^[A-Za-z]{2}$`)
)

// Digits keeps the digits of s (a phone, a CEP typed with its mask).
func Digits(s string) string { return nonDigit.ReplaceAllString(s, "") }

// ValidMobile is the forms' phone: a 2-digit area code plus 9 digits ((XX) X XXXX-XXXX).
func ValidMobile(digits string) bool {
	return len(digits) == 11 && digits[0] != '0' && strings.Trim(digits, "0") != ""
}

// ValidEmail is the forms' e-mail rule (emailRE) with a length bound.
func ValidEmail(e string) bool { return len(e) <= 254 && emailRE.MatchString(e) }

// Check validates and normalises a sign-up as typed: it answers the
// registration to store, or the failed fields.
func Check(in Registration) (Registration, []opportunity.FieldError) {
	var errs []opportunity.FieldError
	fail := func(field, label, msg string) {
		errs = append(errs, opportunity.FieldError{Field: field, Label: label, Message: msg})
	}
	clean := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	r := Registration{
		Email: auth.NormalizeEmail(in.Email), Phone: Digits(in.Phone), ContactName: clean(in.ContactName),
		CNPJ: cnpj.Normalize(in.CNPJ), FantasyName: clean(in.FantasyName), CorporateName: clean(in.CorporateName),
		Street: clean(in.Street), State: strings.ToUpper(clean(in.State)), CEP: Digits(in.CEP),
		City: clean(in.City), Country: clean(in.Country),
	}
	if r.ContactName == "" || utf8.RuneCountInString(r.ContactName) > 120 {
		fail("contactName", "Nome", MsgCheckName)
	}
	if !ValidEmail(r.Email) {
		fail("email", "Email", MsgCheckEmail)
	}
	if !ValidMobile(r.Phone) {
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
