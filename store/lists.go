package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// The lists whose filters and sort a request chooses are built here by hand:
// each filter adds a condition and its argument, so the statement uses the
// indexes a fixed statement with optional arguments would not
// (docs/architecture.md, "The store").

// where builds a WHERE clause, numbering its arguments.
type where struct {
	conds []string
	args  []any
}

// add adds a condition whose ? stands for v.
func (w *where) add(cond string, v any) {
	w.args = append(w.args, v)
	w.conds = append(w.conds, strings.ReplaceAll(cond, "?", "$"+strconv.Itoa(len(w.args))))
}

// period adds from <= column < before, each bound only when it is set.
func (w *where) period(column string, from, before time.Time) {
	if !from.IsZero() {
		w.add(column+" >= ?", from)
	}
	if !before.IsZero() {
		w.add(column+" < ?", before)
	}
}

func (w *where) String() string { return strings.Join(w.conds, " AND ") }

// limit is LIMIT and OFFSET after the clause's arguments.
func (w *where) limit(limit, offset int) (string, []any) {
	args := append(append([]any{}, w.args...), limit, offset)
	return fmt.Sprintf(" LIMIT $%d OFFSET $%d", len(args)-1, len(args)), args
}

// Contains is an ILIKE pattern matching text anywhere (its wildcards escaped).
func Contains(text string) string {
	return "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.TrimSpace(text)) + "%"
}

// --- opportunities --------------------------------------------------------------------

// OpportunitySort orders an opportunity list.
type OpportunitySort int

// Sorts of an opportunity list.
const (
	NewestFirst OpportunitySort = iota
	OldestFirst
	EstimatedAscending
	EstimatedDescending
)

func (s OpportunitySort) orderBy() string {
	switch s {
	case OldestFirst:
		return "o.created_at ASC"
	case EstimatedAscending:
		return "o.estimated ASC, o.created_at DESC"
	case EstimatedDescending:
		return "o.estimated DESC, o.created_at DESC"
	}
	return "o.created_at DESC"
}

// OpportunityFilter selects the opportunities of a list or an export: one
// brand's, never the deleted ones (an operator's cancellation hides them).
type OpportunityFilter struct {
	Brand string
	// OfResale keeps the opportunities of the company ResaleID ("": none);
	// UserID ("": any) those a user registered.
	OfResale bool
	ResaleID string
	UserID   string
	Statuses []string // any of them; none: every status
	// Texts the columns contain, in any case ("": no condition): the name,
	// the trade name (Client and FantasyName alike), the CRM register, the e-mail.
	Name, Client, FantasyName, Register, Email string
	CNPJPrefix                                 string    // the CNPJ's start, normalised
	State, City                                string    // exactly
	CreatedFrom, CreatedBefore                 time.Time // zero: no bound
	Representative                             string    // a responsible representative's id ("": any)
	Sort                                       OpportunitySort
}

func (f OpportunityFilter) where() *where {
	w := &where{}
	w.add("o.brand = ?", f.Brand)
	w.conds = append(w.conds, "NOT o.is_deleted")
	if f.OfResale {
		w.add("o.resale_id = ?::uuid", NilIfEmpty(f.ResaleID))
	}
	if f.UserID != "" {
		w.add("o.user_id = ?::uuid", f.UserID)
	}
	if len(f.Statuses) > 0 {
		w.add("o.status = ANY(?)", f.Statuses)
	}
	for _, c := range []struct{ v, column string }{
		{f.Name, "o.name"}, {f.Client, "o.fantasy_name"}, {f.FantasyName, "o.fantasy_name"},
		{f.Register, "o.register"}, {f.Email, "o.email"},
	} {
		if c.v != "" {
			w.add(c.column+" ILIKE ?", Contains(c.v))
		}
	}
	if f.CNPJPrefix != "" {
		w.add("o.cnpj LIKE ?", f.CNPJPrefix+"%")
	}
	if f.State != "" {
		w.add("o.state = ?", f.State)
	}
	if f.City != "" {
		w.add("o.city = ?", f.City)
	}
	w.period("o.created_at", f.CreatedFrom, f.CreatedBefore)
	if f.Representative != "" {
		w.add("o.representative_ids @> ARRAY[?::uuid]", f.Representative)
	}
	return w
}

// OpportunityListRow is one opportunity of a list, without its products and
// project; Product is the main product's description (OpportunityPage with
// mainProduct).
type OpportunityListRow struct {
	ID                 string
	Status             string
	Name               string
	Cnpj               string
	FantasyName        string
	CorporateName      string
	Contact            string
	Email              string
	State              string
	City               string
	ProbabilityClosing int
	Estimated          string
	Register           string
	Seller             string
	Resale             string
	ApproveDate        *time.Time
	ValidUntil         *time.Time
	CreatedAt          time.Time
	Product            string
	Representatives    string // JSON: [{id, name, email}] of the responsible representatives
}

// mainProductColumn reads an opportunity's main product: the description
// (else the part number) of its first line that is neither an accessory nor a
// competitor's (spec §3).
const mainProductColumn = `COALESCE((
		SELECT COALESCE(NULLIF(btrim(p->>'description'), ''), NULLIF(btrim(p->>'partNumber'), ''))
		FROM jsonb_array_elements(o.products) WITH ORDINALITY AS e(p, i)
		WHERE NOT COALESCE((p->>'accessory')::boolean, false) AND NOT COALESCE((p->>'competition')::boolean, false)
		ORDER BY i LIMIT 1), '')`

// representativesColumn reads an opportunity's responsible representatives as
// a JSON list of {id, name, email}, by name.
const representativesColumn = `(SELECT COALESCE(jsonb_agg(jsonb_build_object('id', ru.id, 'name', ru.name, 'email', ru.email)
		ORDER BY ru.name, ru.id), '[]') FROM users ru WHERE ru.id = ANY(o.representative_ids))::text`

// CountOpportunities counts the opportunities the filter selects.
func (q *Queries) CountOpportunities(ctx context.Context, f OpportunityFilter) (int, error) {
	w := f.where()
	var n int
	err := q.db.QueryRow(ctx, `SELECT count(*) FROM opportunities o WHERE `+w.String(), w.args...).Scan(&n)
	return n, err
}

// OpportunityPage is a page of the opportunities the filter selects, in its
// order; with mainProduct each row names its main product.
func (q *Queries) OpportunityPage(ctx context.Context, f OpportunityFilter, limit, offset int, mainProduct bool) ([]OpportunityListRow, error) {
	product := `''`
	if mainProduct {
		product = mainProductColumn
	}
	w := f.where()
	page, args := w.limit(limit, offset)
	rows, err := q.db.Query(ctx, `SELECT o.id, o.status, o.name, o.cnpj, o.fantasy_name, o.corporate_name, o.contact,
			o.email, o.state, o.city, o.probability_closing, o.estimated::text, o.register, o.seller,
			COALESCE(s.corporate_name, ''), o.approve_date, o.valid_until, o.created_at, `+product+`, `+representativesColumn+`
		FROM opportunities o LEFT JOIN resales s ON s.id = o.resale_id
		WHERE `+w.String()+` ORDER BY `+f.Sort.orderBy()+page, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[OpportunityListRow])
}

// ExportRow is one opportunity of the spreadsheet export.
type ExportRow struct {
	CreatedAt          time.Time
	Name               string
	Status             string
	Cnpj               string
	FantasyName        string
	CorporateName      string
	Contact            string
	Email              string
	Phone              string
	State              string
	City               string
	ProbabilityClosing int
	Estimated          float64
	Register           string
	Seller             string
	Resale             string
	ApproveDate        *time.Time
	ValidUntil         *time.Time
}

// ExportOpportunities calls each for every opportunity the filter selects,
// in its order, reading them as it goes (the export streams them).
func (q *Queries) ExportOpportunities(ctx context.Context, f OpportunityFilter, each func(ExportRow) error) error {
	w := f.where()
	rows, err := q.db.Query(ctx, `SELECT o.created_at, o.name, o.status, o.cnpj, o.fantasy_name, o.corporate_name, o.contact,
			o.email, o.phone, o.state, o.city, o.probability_closing, o.estimated::float8, o.register, o.seller,
			COALESCE(s.corporate_name, ''), o.approve_date, o.valid_until
		FROM opportunities o LEFT JOIN resales s ON s.id = o.resale_id WHERE `+w.String()+` ORDER BY `+f.Sort.orderBy(), w.args...)
	if err != nil {
		return err
	}
	var r ExportRow
	_, err = pgx.ForEachRow(rows, []any{&r.CreatedAt, &r.Name, &r.Status, &r.Cnpj, &r.FantasyName, &r.CorporateName,
		&r.Contact, &r.Email, &r.Phone, &r.State, &r.City, &r.ProbabilityClosing, &r.Estimated, &r.Register, &r.Seller,
		&r.Resale, &r.ApproveDate, &r.ValidUntil}, func() error { return each(r) })
	return err
}

// --- resellers --------------------------------------------------------------------------

// ResaleFilter selects the companies of a brand's list.
type ResaleFilter struct {
	Brand                      string
	Statuses                   []string  // any of them; none: every status
	CreatedFrom, CreatedBefore time.Time // zero: no bound
	OldestFirst                bool      // else newest first
}

func (f ResaleFilter) where() *where {
	w := &where{}
	w.add("brand = ?", f.Brand)
	if len(f.Statuses) > 0 {
		w.add("status = ANY(?)", f.Statuses)
	}
	w.period("created_at", f.CreatedFrom, f.CreatedBefore)
	return w
}

// CountResales counts the companies the filter selects.
func (q *Queries) CountResales(ctx context.Context, f ResaleFilter) (int, error) {
	w := f.where()
	var n int
	err := q.db.QueryRow(ctx, `SELECT count(*) FROM resales WHERE `+w.String(), w.args...).Scan(&n)
	return n, err
}

// ResalePage is a page of the companies the filter selects, by sign-up date.
func (q *Queries) ResalePage(ctx context.Context, f ResaleFilter, limit, offset int) ([]GetResaleRow, error) {
	dir := "DESC"
	if f.OldestFirst {
		dir = "ASC"
	}
	w := f.where()
	page, args := w.limit(limit, offset)
	rows, err := q.db.Query(ctx, `SELECT id, status, corporate_name, fantasy_name, cnpj, phone, contact_name, email,
			cep, city, street, state, reason, created_at
		FROM resales WHERE `+w.String()+` ORDER BY created_at `+dir+`, id `+dir+page, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[GetResaleRow])
}

// --- users ------------------------------------------------------------------------------

// UserFilter selects the users of a list: a company's sellers at a brand
// (ResaleID set) or the brand's partner users (RESALE and SELLER).
type UserFilter struct {
	Brand    string
	ResaleID string // "": the brand's partner users
	Active   *bool  // nil: active or not
	Name     string // text the name contains, in any case ("": any)
}

func (f UserFilter) where() *where {
	w := &where{}
	if f.ResaleID != "" {
		w.add("u.resale_id = ?::uuid", f.ResaleID)
		w.add("EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role = 'SELLER' AND ur.brand = ?)", f.Brand)
	} else {
		w.add("EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role IN ('RESALE', 'SELLER') AND ur.brand = ?)", f.Brand)
	}
	if f.Active != nil {
		w.add("u.active = ?", *f.Active)
	}
	if f.Name != "" {
		w.add("u.name ILIKE ?", Contains(f.Name))
	}
	return w
}

// CountUsers counts the users the filter selects.
func (q *Queries) CountUsers(ctx context.Context, f UserFilter) (int, error) {
	w := f.where()
	var n int
	err := q.db.QueryRow(ctx, `SELECT count(*) FROM users u WHERE `+w.String(), w.args...).Scan(&n)
	return n, err
}

// UserListRow is a user of a list: with its roles at the brand and its
// company's name for staff (UserPage with staffView).
type UserListRow struct {
	ID     string
	Name   string
	Email  string
	Phone  *string // NULL for none
	Active bool
	Roles  []string
	Resale string
}

// UserPage is a page of the users the filter selects, by name; staffView
// adds their roles at the brand and their company.
func (q *Queries) UserPage(ctx context.Context, f UserFilter, limit, offset int, staffView bool) ([]UserListRow, error) {
	w := f.where()
	page, args := w.limit(limit, offset)
	extra, from := `'{}'::text[], ''`, `users u`
	if staffView {
		args = append(args, f.Brand)
		extra = fmt.Sprintf(`ARRAY(SELECT DISTINCT ur.role FROM user_roles ur WHERE ur.user_id = u.id AND ur.brand IN ($%d, 'all') ORDER BY ur.role),
			COALESCE(s.corporate_name, '')`, len(args))
		from = `users u LEFT JOIN resales s ON s.id = u.resale_id`
	}
	rows, err := q.db.Query(ctx, `SELECT u.id, u.name, u.email, NULLIF(u.phone, ''), u.active, `+extra+`
		FROM `+from+` WHERE `+w.String()+` ORDER BY lower(u.name), u.id`+page, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[UserListRow])
}
