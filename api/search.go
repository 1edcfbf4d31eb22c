package api

import (
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"oportuna/auth"
	"oportuna/cnpj"
	"oportuna/internal/respond"
	"oportuna/opportunity"
	"oportuna/store"
)

// The global search (POST /api/search {"q": …}, the top bar's 'Buscar' and Ctrl+K).
const (
	SearchMinChars = 2
	SearchMaxChars = 100
	// SearchLimit is how many records of each kind an answer carries.
	SearchLimit = 5

	MsgSearchShort = "Digite ao menos 2 caracteres para buscar."
	MsgSearchLong  = "A busca aceita até 100 caracteres."
)

// searchOpportunity is an opportunity found by the search.
type searchOpportunity struct {
	ID            string             `json:"id"`
	Status        opportunity.Status `json:"status"`
	Name          string             `json:"name"`
	FantasyName   string             `json:"fantasyName"`
	CorporateName string             `json:"corporateName"`
	CNPJ          string             `json:"cnpj"`
	CreatedAt     time.Time          `json:"createdAt"`
}

// searchUser is a user found by the search: a seller of the caller's company,
// or a partner user of the brand (with its roles and company) for staff.
type searchUser struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Email  string   `json:"email"`
	Roles  []string `json:"roles"`
	Resale string   `json:"resale"`
}

// cnpjLike is a text that may be the start of a CNPJ (digits, letters of the
// alphanumeric CNPJ, its punctuation) holding at least one digit.
var cnpjLike = regexp.MustCompile(`^[0-9A-Za-z./\- ]*[0-9][0-9A-Za-z./\- ]*$`)

// searchScope is what the caller may find: the same rules as the lists and
// the details screens (loadVisible, the resale and user lists).
func searchScope(p partner) store.SearchScope {
	sc := store.SearchScope{Brand: p.Brand, Staff: p.Has(auth.Representative, auth.Support)}
	if p.Has(auth.Resale) {
		sc.ResaleID = p.ResaleID
	}
	if p.Has(auth.Seller) {
		sc.SellerID = p.Subject
	}
	return sc
}

// cnpjPrefix is the normalised start of a CNPJ the text may be ("": none).
func cnpjPrefix(text string) string {
	if doc := cnpj.Normalize(text); len(doc) >= SearchMinChars && len(doc) <= 14 && cnpjLike.MatchString(text) {
		return doc
	}
	return ""
}

// handleSearch is POST /api/search {"q": …} (any role): up to SearchLimit
// opportunities, companies and users whose name, CNPJ or e-mail holds q, within
// what the caller may open (searchScope). q has 2 to 100 characters.
func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Q string `json:"q"`
	}
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	text := strings.Join(strings.Fields(body.Q), " ")
	switch n := utf8.RuneCountInString(text); {
	case n < SearchMinChars:
		respond.Error(w, http.StatusBadRequest, MsgSearchShort)
		return
	case n > SearchMaxChars:
		respond.Error(w, http.StatusBadRequest, MsgSearchLong)
		return
	}
	p, ok := s.partnerOf(w, r)
	if !ok {
		return
	}
	found, err := store.Search(r.Context(), s.DB, searchScope(p), text, cnpjPrefix(text), SearchLimit)
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	opps := make([]searchOpportunity, len(found.Opportunities))
	for i, o := range found.Opportunities {
		opps[i] = searchOpportunity{ID: o.ID, Status: opportunity.Status(o.Status), Name: o.Name, FantasyName: o.FantasyName,
			CorporateName: o.CorporateName, CNPJ: o.Cnpj, CreatedAt: o.CreatedAt}
	}
	resales := make([]resaleRow, len(found.Resales))
	for i, c := range found.Resales {
		resales[i] = resaleRowOf(c)
	}
	users := make([]searchUser, len(found.Users))
	for i, u := range found.Users {
		users[i] = searchUser{ID: u.ID, Name: u.Name, Email: u.Email, Roles: u.Roles, Resale: u.Resale}
	}
	respond.JSON(w, http.StatusOK, map[string]any{"opportunities": opps, "resales": resales, "users": users, "more": found.More})
}
