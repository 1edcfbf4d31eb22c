package store

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// SearchScope is what a global search may find: the same rules as the lists
// and the details screens.
type SearchScope struct {
	Brand string
	// Staff (REPRESENTATIVE, SUPPORT): the brand's opportunities, companies and partner users.
	Staff bool
	// ResaleID: a RESALE caller's company (its opportunities and its sellers).
	ResaleID string
	// SellerID: a SELLER caller (the opportunities it registered).
	SellerID string
}

// SearchArms are what each kind of record a search matches: the text inside
// these columns (ILIKE; each has a trigram index) and a CNPJ column by prefix
// (LIKE; a pattern index led by the brand).
var SearchArms = map[string]struct {
	Table, Alias string
	Text         []string
	CNPJ         string
}{
	"opportunities": {Table: "opportunities", Alias: "o.", Text: []string{"name", "fantasy_name", "corporate_name", "email"}, CNPJ: "cnpj"},
	"resales":       {Table: "resales", Alias: "", Text: []string{"corporate_name", "fantasy_name", "email"}, CNPJ: "cnpj"},
	"users":         {Table: "users", Alias: "u.", Text: []string{"name", "email"}},
}

// SearchOpportunityRow is an opportunity a search found.
type SearchOpportunityRow struct {
	ID            string
	Status        string
	Name          string
	FantasyName   string
	CorporateName string
	Cnpj          string
	CreatedAt     time.Time
}

// SearchUserRow is a user a search found, with its roles at the brand and its company.
type SearchUserRow struct {
	ID     string
	Name   string
	Email  string
	Roles  []string
	Resale string
}

// Found is what a search found of each kind (up to its limit), and whether
// each kind had more ("opportunities", "resales", "users").
type Found struct {
	Opportunities []SearchOpportunityRow
	Resales       []GetResaleRow
	Users         []SearchUserRow
	More          map[string]bool
}

// Search finds, within the scope, the opportunities, companies and users
// whose names or e-mails hold text (SearchArms) or, with cnpjPrefix set (the
// normalised start of a CNPJ), whose CNPJ starts with it: up to limit of each
// kind, newest opportunities first, companies and users by name, in one round
// trip. A kind the scope may not see is not searched.
func Search(ctx context.Context, db interface {
	SendBatch(context.Context, *pgx.Batch) pgx.BatchResults
}, sc SearchScope, text, cnpjPrefix string, limit int) (Found, error) {
	found := Found{Opportunities: []SearchOpportunityRow{}, Resales: []GetResaleRow{}, Users: []SearchUserRow{},
		More: map[string]bool{"opportunities": false, "resales": false, "users": false}}
	var b pgx.Batch
	for _, s := range searchStatements(sc, text, cnpjPrefix, limit) {
		b.Queue(s.sql, s.args...).Query(func(rows pgx.Rows) error {
			var err error
			var n int
			switch s.kind {
			case "opportunities":
				found.Opportunities, err = pgx.CollectRows(rows, pgx.RowToStructByPos[SearchOpportunityRow])
				n = len(found.Opportunities)
				found.Opportunities = found.Opportunities[:min(n, limit)]
			case "resales":
				found.Resales, err = pgx.CollectRows(rows, pgx.RowToStructByPos[GetResaleRow])
				n = len(found.Resales)
				found.Resales = found.Resales[:min(n, limit)]
			case "users":
				found.Users, err = pgx.CollectRows(rows, pgx.RowToStructByPos[SearchUserRow])
				n = len(found.Users)
				found.Users = found.Users[:min(n, limit)]
			}
			found.More[s.kind] = n > limit
			return err
		})
	}
	return found, db.SendBatch(ctx, &b).Close()
}

// searchStatement is one kind's statement.
type searchStatement struct {
	kind string // "opportunities", "resales", "users"
	sql  string
	args []any
}

// searchStatements builds a search's statements; each asks for limit+1 rows,
// so the answer can say there are more.
func searchStatements(sc SearchScope, text, cnpjPrefix string, limit int) []searchStatement {
	like := Contains(text)
	match := func(w *where, kind string) {
		arms := SearchArms[kind]
		w.args = append(w.args, like)
		n := "$" + strconv.Itoa(len(w.args))
		parts := make([]string, 0, len(arms.Text)+1)
		for _, c := range arms.Text {
			parts = append(parts, arms.Alias+c+" ILIKE "+n)
		}
		if cnpjPrefix != "" && arms.CNPJ != "" {
			w.args = append(w.args, cnpjPrefix+"%")
			parts = append(parts, arms.Alias+arms.CNPJ+" LIKE $"+strconv.Itoa(len(w.args)))
		}
		w.conds = append(w.conds, "("+strings.Join(parts, " OR ")+")")
	}
	lim := " LIMIT " + strconv.Itoa(limit+1)
	var out []searchStatement

	// Opportunities: the brand's for staff; else the company's and the caller's own.
	w := &where{}
	w.add("o.brand = ?", sc.Brand)
	w.conds = append(w.conds, "NOT o.is_deleted")
	var who []string
	if !sc.Staff {
		if sc.ResaleID != "" {
			w.args = append(w.args, sc.ResaleID)
			who = append(who, "o.resale_id = $"+strconv.Itoa(len(w.args))+"::uuid")
		}
		if sc.SellerID != "" {
			w.args = append(w.args, sc.SellerID)
			who = append(who, "o.user_id = $"+strconv.Itoa(len(w.args))+"::uuid")
		}
	}
	if sc.Staff || len(who) > 0 {
		if len(who) > 0 {
			w.conds = append(w.conds, "("+strings.Join(who, " OR ")+")")
		}
		match(w, "opportunities")
		out = append(out, searchStatement{kind: "opportunities", args: w.args,
			sql: `SELECT o.id, o.status, o.name, o.fantasy_name, o.corporate_name, o.cnpj, o.created_at
				FROM opportunities o WHERE ` + w.String() + ` ORDER BY o.created_at DESC, o.id` + lim})
	}

	// Companies: staff only (a reseller's own company is its session).
	if sc.Staff {
		w := &where{}
		w.add("brand = ?", sc.Brand)
		match(w, "resales")
		out = append(out, searchStatement{kind: "resales", args: w.args,
			sql: `SELECT id, status, corporate_name, fantasy_name, cnpj, phone, contact_name, email,
					cep, city, street, state, reason, created_at
				FROM resales WHERE ` + w.String() + ` ORDER BY lower(corporate_name), id` + lim})
	}

	// Users: the brand's partner users for staff; a reseller's sellers; active
	// ones only (a deactivated user is deleted for the screens).
	active := true
	var uf *UserFilter
	switch {
	case sc.Staff:
		uf = &UserFilter{Brand: sc.Brand, Active: &active}
	case sc.ResaleID != "":
		uf = &UserFilter{Brand: sc.Brand, ResaleID: sc.ResaleID, Active: &active}
	}
	if uf != nil {
		w := uf.where()
		match(w, "users")
		w.args = append(w.args, sc.Brand)
		out = append(out, searchStatement{kind: "users", args: w.args,
			sql: `SELECT u.id, u.name, u.email,
					ARRAY(SELECT DISTINCT ur.role FROM user_roles ur WHERE ur.user_id = u.id AND ur.brand IN ($` + strconv.Itoa(len(w.args)) + `, 'all') ORDER BY ur.role),
					COALESCE(s.corporate_name, '')
				FROM users u LEFT JOIN resales s ON s.id = u.resale_id WHERE ` + w.String() + ` ORDER BY lower(u.name), u.id` + lim})
	}
	return out
}
