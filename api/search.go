package api

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"oportuna/auth"
	"oportuna/cnpj"
	"oportuna/internal/respond"
	"oportuna/opportunity"
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

// searchScope is what the caller may find: the same rules as the lists and
// the details screens (loadVisible, the resale and user lists).
type searchScope struct {
	Brand string
	// Staff (REPRESENTATIVE, SUPPORT): the brand's opportunities, companies and partner users.
	Staff bool
	// ResaleID: a RESALE caller's company (its opportunities and its sellers).
	ResaleID string
	// SellerID: a SELLER caller (the opportunities it registered).
	SellerID string
}

func scopeOf(p partner) searchScope {
	sc := searchScope{Brand: p.Brand, Staff: p.Has(auth.Representative, auth.Support)}
	if p.Has(auth.Resale) {
		sc.ResaleID = p.ResaleID
	}
	if p.Has(auth.Seller) {
		sc.SellerID = p.Subject
	}
	return sc
}

// searchSQL is one kind's statement.
type searchSQL struct {
	kind string // "opportunities", "resales", "users"
	sql  string
	args []any
}

// searchArms are what each kind matches: the text inside these columns
// (ILIKE; each has a trigram index) and a CNPJ column by prefix (LIKE; a
// pattern index led by the brand).
var searchArms = map[string]struct {
	table, alias string
	text         []string
	cnpj         string
}{
	"opportunities": {table: "opportunities", alias: "o.", text: []string{"name", "fantasy_name", "corporate_name", "email"}, cnpj: "cnpj"},
	"resales":       {table: "resales", alias: "", text: []string{"corporate_name", "fantasy_name", "email"}, cnpj: "cnpj"},
	"users":         {table: "users", alias: "u.", text: []string{"name", "email"}},
}

// cnpjLike is a text that may be the start of a CNPJ (digits, letters of the
// alphanumeric CNPJ, its punctuation) holding at least one digit.
var cnpjLike = regexp.MustCompile(`^[0-9A-Za-z./\- ]*[0-9][0-9A-Za-z./\- ]*$`)

// searchQueries builds the statements of a search of text (already trimmed and
// checked) within the scope: each matches the text inside names and e-mails
// and, for a text that may start a CNPJ, the CNPJ by prefix (searchArms); each asks
// for limit+1 rows, so the answer can say there are more. A kind the scope may
// not see has no statement.
func searchQueries(sc searchScope, text string, limit int) []searchSQL {
	like := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(text) + "%"
	prefix := ""
	if doc := cnpj.Normalize(text); len(doc) >= SearchMinChars && len(doc) <= 14 && cnpjLike.MatchString(text) {
		prefix = doc + "%"
	}
	match := func(args *[]any, kind string) string {
		arms := searchArms[kind]
		*args = append(*args, like)
		n := "$" + strconv.Itoa(len(*args))
		parts := make([]string, 0, len(arms.text)+1)
		for _, c := range arms.text {
			parts = append(parts, arms.alias+c+" ILIKE "+n)
		}
		if prefix != "" && arms.cnpj != "" {
			*args = append(*args, prefix)
			parts = append(parts, arms.alias+arms.cnpj+" LIKE $"+strconv.Itoa(len(*args)))
		}
		return "(" + strings.Join(parts, " OR ") + ")"
	}
	lim := " LIMIT " + strconv.Itoa(limit+1)
	var out []searchSQL

	// Opportunities: the brand's for staff; else the company's and the caller's own.
	var who []string
	args := []any{sc.Brand}
	if !sc.Staff {
		if sc.ResaleID != "" {
			args = append(args, sc.ResaleID)
			who = append(who, "o.resale_id = $"+strconv.Itoa(len(args))+"::uuid")
		}
		if sc.SellerID != "" {
			args = append(args, sc.SellerID)
			who = append(who, "o.user_id = $"+strconv.Itoa(len(args))+"::uuid")
		}
	}
	if sc.Staff || len(who) > 0 {
		cond := "o.brand = $1 AND NOT o.is_deleted"
		if len(who) > 0 {
			cond += " AND (" + strings.Join(who, " OR ") + ")"
		}
		cond += " AND " + match(&args, "opportunities")
		out = append(out, searchSQL{kind: "opportunities", args: args,
			sql: `SELECT o.id::text, o.status, o.name, o.fantasy_name, o.corporate_name, o.cnpj, o.created_at
				FROM opportunities o WHERE ` + cond + ` ORDER BY o.created_at DESC, o.id` + lim})
	}

	// Companies: staff only (a reseller's own company is its session).
	if sc.Staff {
		args := []any{sc.Brand}
		cond := "brand = $1 AND " + match(&args, "resales")
		out = append(out, searchSQL{kind: "resales", args: args,
			sql: resaleSelect + ` WHERE ` + cond + ` ORDER BY lower(corporate_name), id` + lim})
	}

	// Users: the brand's partner users for staff; a reseller's sellers; active ones only
	// (a deactivated user is deleted for the screens).
	var uq *userQuery
	switch {
	case sc.Staff:
		uq = partnersOf(sc.Brand)
	case sc.ResaleID != "":
		uq = sellersOf(sc.ResaleID, sc.Brand)
	}
	if uq != nil {
		args := append([]any{}, uq.args...)
		cond := uq.cond + " AND u.active AND " + match(&args, "users")
		args = append(args, sc.Brand)
		out = append(out, searchSQL{kind: "users", args: args,
			sql: `SELECT u.id::text, u.name, u.email,
					ARRAY(SELECT DISTINCT ur.role FROM user_roles ur WHERE ur.user_id = u.id AND ur.brand IN ($` + strconv.Itoa(len(args)) + `, 'all') ORDER BY ur.role),
					COALESCE(s.corporate_name, '')
				FROM users u LEFT JOIN resales s ON s.id = u.resale_id WHERE ` + cond + ` ORDER BY lower(u.name), u.id` + lim})
	}
	return out
}

// handleSearch is POST /api/search {"q": …} (any role): up to SearchLimit
// opportunities, companies and users whose name, CNPJ or e-mail holds q, within
// what the caller may open (searchScope). q has 2 to 100 characters.
func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Q string `json:"q"`
	}
	if err := respond.Decode(r, &body); err != nil {
		respond.BadBody(w)
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
	opps, resales, users := []searchOpportunity{}, []resaleRow{}, []searchUser{}
	more := map[string]bool{"opportunities": false, "resales": false, "users": false}
	b := &pgx.Batch{}
	for _, q := range searchQueries(scopeOf(p), text, SearchLimit) {
		b.Queue(q.sql, q.args...).Query(func(rows pgx.Rows) error {
			var err error
			var n int
			switch q.kind {
			case "opportunities":
				opps, err = pgx.CollectRows(rows, pgx.RowToStructByPos[searchOpportunity])
				n = len(opps)
				opps = opps[:min(n, SearchLimit)]
			case "resales":
				resales, err = pgx.CollectRows(rows, pgx.RowToStructByPos[resaleRow])
				n = len(resales)
				resales = resales[:min(n, SearchLimit)]
			case "users":
				users, err = pgx.CollectRows(rows, pgx.RowToStructByPos[searchUser])
				n = len(users)
				users = users[:min(n, SearchLimit)]
			}
			more[q.kind] = n > SearchLimit
			return err
		})
	}
	if err := s.DB.SendBatch(r.Context(), b).Close(); err != nil {
		respond.Internal(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, map[string]any{"opportunities": nonNil(opps), "resales": nonNil(resales),
		"users": nonNil(users), "more": more})
}

// nonNil answers an empty list for nil, so the JSON reads [] rather than null.
func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}
