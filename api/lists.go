package api

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"oportuna/auth"
	"oportuna/cnpj"
	"oportuna/internal/calendar"
	"oportuna/internal/respond"
	"oportuna/opportunity"
)

// MaxPageSize is the spec's 'Todas' (99999).
const MaxPageSize = 99999

type listScope int

const (
	listAll listScope = iota
	listByResale
	listByUser
)

// listRow is one opportunity of a list (without its products and project).
type listRow struct {
	ID                 string             `json:"id"`
	Status             opportunity.Status `json:"status"`
	Name               string             `json:"name"`
	CNPJ               string             `json:"cnpj"`
	FantasyName        string             `json:"fantasyName"`
	CorporateName      string             `json:"corporateName"`
	Contact            string             `json:"contact"`
	Email              string             `json:"email"`
	State              string             `json:"state"`
	City               string             `json:"city"`
	ProbabilityClosing int                `json:"probabilityClosing"`
	Estimated          json.Number        `json:"estimated"`
	Register           string             `json:"register"`
	Seller             string             `json:"seller"`
	Resale             string             `json:"resale"`
	ApproveDate        *time.Time         `json:"approveDate"`
	ValidUntil         *time.Time         `json:"validUntil"`
	CreatedAt          time.Time          `json:"createdAt"`
}

// listRowSelect reads listRow's columns, in order; callers add WHERE and ORDER BY.
const listRowSelect = `SELECT o.id::text, o.status, o.name, o.cnpj, o.fantasy_name, o.corporate_name, o.contact,
		o.email, o.state, o.city, o.probability_closing, o.estimated::text, o.register, o.seller,
		COALESCE(s.corporate_name, ''), o.approve_date, o.valid_until, o.created_at
	FROM opportunities o LEFT JOIN resales s ON s.id = o.resale_id`

// pageParams reads amount (1..MaxPageSize, default 10) and page (from 1,
// default 1); msg is a pt-BR message for a 400. A page whose offset
// ((page-1)*amount) would pass math.MaxInt32 is refused: no list is that long,
// and the product could overflow into a negative OFFSET.
func pageParams(r *http.Request) (amount, page int, msg string) {
	q := r.URL.Query()
	amount, page = 10, 1
	if v := q.Get("amount"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPageSize {
			return 0, 0, fmt.Sprintf("Parâmetro amount inválido: use de 1 a %d.", MaxPageSize)
		}
		amount = n
	}
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, 0, "Parâmetro page inválido: a primeira página é 1."
		}
		page = n
	}
	if page-1 > math.MaxInt32/amount {
		return 0, 0, "Parâmetro page inválido: a página pedida é grande demais."
	}
	return amount, page, ""
}

// sortDir reads asc/desc/1/-1.
func sortDir(v string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "asc", "1":
		return "ASC", true
	case "desc", "-1":
		return "DESC", true
	}
	return "", false
}

// opportunityQuery is a list's WHERE clause, its arguments and its ORDER BY,
// read from the list's query parameters (shared by the lists and the export).
type opportunityQuery struct {
	cond  string
	args  []any
	order string
}

// parseOpportunityQuery reads the filters and the sort of a list request; msg
// is a pt-BR message for a 400 when a parameter is invalid.
func (s *Server) parseOpportunityQuery(r *http.Request, c *auth.Claims, scope listScope) (oq opportunityQuery, msg string, err error) {
	q := r.URL.Query()
	where := []string{"o.brand = $1", "NOT o.is_deleted"} // an operator's cancellation hides a record
	args := []any{c.Brand}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, strings.ReplaceAll(cond, "?", "$"+strconv.Itoa(len(args))))
	}
	switch scope {
	case listByResale:
		actor, err := s.actorOf(r.Context(), c)
		if err != nil {
			return oq, "", err
		}
		add("o.resale_id = ?::uuid", nilIfEmpty(actor.ResaleID))
	case listByUser:
		add("o.user_id = ?::uuid", c.Subject)
	}
	if v := q.Get("status"); v != "" {
		var sts []string
		for _, st := range strings.Split(v, ",") {
			st = strings.TrimSpace(st)
			if !opportunity.Status(st).Valid() {
				return oq, "Status inválido: " + st, nil
			}
			sts = append(sts, st)
		}
		add("o.status = ANY(?)", sts)
	}
	like := func(v string) string {
		return "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.TrimSpace(v)) + "%"
	}
	for _, f := range []struct{ param, column string }{
		{"name", "o.name"}, {"client", "o.fantasy_name"}, {"fantasyName", "o.fantasy_name"},
		{"register", "o.register"}, {"email", "o.email"},
	} {
		if v := q.Get(f.param); v != "" {
			add(f.column+" ILIKE ?", like(v))
		}
	}
	if v := q.Get("cnpj"); v != "" {
		add("o.cnpj LIKE ?", cnpj.Normalize(v)+"%")
	}
	if v := q.Get("state"); v != "" {
		add("o.state = ?", strings.TrimSpace(v))
	}
	if v := q.Get("city"); v != "" {
		add("o.city = ?", strings.TrimSpace(v))
	}
	if v := q.Get("date"); v != "" {
		d, ok := opportunity.ParseDate(v)
		if !ok {
			return oq, "Data inválida: use dd/mm/aaaa.", nil
		}
		// The day in Brasília's calendar.
		add("o.created_at >= ?", calendar.Start(d))
		add("o.created_at < ?", calendar.Start(d).AddDate(0, 0, 1))
	}
	oq.order = "o.created_at DESC"
	if v := q.Get("estimated"); v != "" {
		dir, ok := sortDir(v)
		if !ok {
			return oq, "Ordenação inválida: use asc ou desc.", nil
		}
		oq.order = "o.estimated " + dir + ", o.created_at DESC"
	} else if v := q.Get("createdAt"); v != "" {
		dir, ok := sortDir(v)
		if !ok {
			return oq, "Ordenação inválida: use asc ou desc.", nil
		}
		oq.order = "o.created_at " + dir
	}
	oq.cond, oq.args = strings.Join(where, " AND "), args
	return oq, "", nil
}

func (s *Server) handleListOpportunities(scope listScope) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c := auth.FromContext(r.Context())
		amount, page, msg := pageParams(r)
		if msg != "" {
			respond.Error(w, http.StatusBadRequest, msg)
			return
		}
		oq, msg, err := s.parseOpportunityQuery(r, c, scope)
		if err != nil {
			failRequest(w, r, err)
			return
		}
		if msg != "" {
			respond.Error(w, http.StatusBadRequest, msg)
			return
		}
		var total int
		if err := s.DB.QueryRow(r.Context(), `SELECT count(*) FROM opportunities o WHERE `+oq.cond, oq.args...).Scan(&total); err != nil {
			respond.Internal(w, r, err)
			return
		}
		args := append(oq.args, amount, (page-1)*amount)
		rows, _ := s.DB.Query(r.Context(), listRowSelect+` WHERE `+oq.cond+` ORDER BY `+oq.order+fmt.Sprintf(` LIMIT $%d OFFSET $%d`, len(args)-1, len(args)), args...)
		list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[listRow])
		if err != nil {
			respond.Internal(w, r, err)
			return
		}
		if list == nil {
			list = []listRow{}
		}
		respond.JSON(w, http.StatusOK, map[string]any{"result": list, "total": total})
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

type historyRow struct {
	ID            int64           `json:"id"`
	TypeID        string          `json:"typeId"`
	Type          string          `json:"type"`
	UserID        *string         `json:"userId"`
	Username      string          `json:"username"`
	ActionType    string          `json:"actionType"`
	Modifications json.RawMessage `json:"modifications"`
	Date          time.Time       `json:"date"`
}

// handleHistory lists a record's changes, newest first; the user name is for
// representatives only (spec §2 "History").
func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	amount, page, msg := pageParams(r)
	if msg != "" {
		respond.Error(w, http.StatusBadRequest, msg)
		return
	}
	typeID := r.URL.Query().Get("typeId")
	if !opportunity.ValidID(typeID) {
		respond.Error(w, http.StatusBadRequest, "Informe o registro (typeId).")
		return
	}
	// Who may read it: the same rules as reading the record itself.
	var kind string
	_ = s.DB.QueryRow(r.Context(), `SELECT type FROM history WHERE type_id = $1 AND brand = $2 LIMIT 1`, typeID, c.Brand).Scan(&kind)
	if kind == "" {
		respond.Error(w, http.StatusNotFound, "Sem Histórico")
		return
	}
	if !s.mayAccessRecord(w, r, kind, typeID) {
		return
	}
	var total int
	if err := s.DB.QueryRow(r.Context(), `SELECT count(*) FROM history WHERE type_id = $1 AND brand = $2`, typeID, c.Brand).Scan(&total); err != nil {
		respond.Internal(w, r, err)
		return
	}
	rows, _ := s.DB.Query(r.Context(), `SELECT id, type_id::text, type, user_id::text, username, action_type, modifications, created_at
		FROM history WHERE type_id = $1 AND brand = $2 ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
		typeID, c.Brand, amount, (page-1)*amount)
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[historyRow])
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	if !c.Has(auth.Representative) {
		for i := range list {
			list[i].Username = ""
		}
	}
	respond.JSON(w, http.StatusOK, map[string]any{"result": list, "total": total})
}

// handleCreateHistory records a change the client made (POST /history/create).
// Who and when come from the token and the clock, never from the body; the
// caller must be allowed to see the record.
func (s *Server) handleCreateHistory(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	var body struct {
		TypeID        string          `json:"typeId"`
		Type          string          `json:"type"`
		ActionType    string          `json:"actionType"`
		Modifications json.RawMessage `json:"modifications"`
	}
	if err := respond.Decode(r, &body); err != nil {
		respond.BadBody(w)
		return
	}
	// The history screen names types by route ('Opportunities', 'Resales', 'Users').
	body.Type = map[string]string{"opportunity": "opportunity", "opportunities": "opportunity", "resale": "resale",
		"resales": "resale", "user": "user", "users": "user"}[strings.ToLower(strings.TrimSpace(body.Type))]
	if !opportunity.ValidID(body.TypeID) || (body.Type != "opportunity" && body.Type != "resale" && body.Type != "user") ||
		(body.ActionType != "create" && body.ActionType != "update") {
		respond.Error(w, http.StatusBadRequest, "Histórico inválido: informe typeId, type (opportunity, resale ou user) e actionType (create ou update).")
		return
	}
	var mods []struct {
		Attribute string `json:"attribute"`
		OldValue  any    `json:"oldValue"`
		NewValue  any    `json:"newValue"`
	}
	if len(body.Modifications) > 0 {
		if err := json.Unmarshal(body.Modifications, &mods); err != nil {
			respond.Error(w, http.StatusBadRequest, "Histórico inválido: modifications deve ser uma lista de {attribute, oldValue, newValue}.")
			return
		}
	}
	if !s.mayAccessRecord(w, r, body.Type, body.TypeID) {
		return
	}
	changes := make([]map[string]string, 0, len(mods))
	for _, m := range mods {
		if m.Attribute == "" {
			respond.Error(w, http.StatusBadRequest, "Histórico inválido: cada modificação precisa de attribute.")
			return
		}
		changes = append(changes, map[string]string{"attribute": m.Attribute, "oldValue": fmt.Sprint(orEmpty(m.OldValue)), "newValue": fmt.Sprint(orEmpty(m.NewValue))})
	}
	mj, _ := json.Marshal(changes)
	var id int64
	err := s.DB.QueryRow(r.Context(), `INSERT INTO history (type, type_id, brand, user_id, username, action_type, modifications)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, body.Type, body.TypeID, c.Brand, c.Subject, c.Name, body.ActionType, mj).Scan(&id)
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	respond.JSON(w, http.StatusCreated, map[string]any{"id": id})
}

func orEmpty(v any) any {
	if v == nil {
		return ""
	}
	return v
}

// mayAccessRecord applies the read rules of a history's record and answers 403
// (or the opportunity's 404) when they fail: an opportunity as its detail; a
// reseller company for staff or its own RESALE users; a user for staff of the brand,
// the user, or the reseller the user belongs to.
func (s *Server) mayAccessRecord(w http.ResponseWriter, r *http.Request, kind, id string) bool {
	c := auth.FromContext(r.Context())
	if kind == "opportunity" {
		_, _, ok := s.loadVisible(w, r, id)
		return ok
	}
	staff := c.Has(auth.Representative, auth.Support)
	var ok bool
	var err error
	switch kind {
	case "resale":
		err = s.DB.QueryRow(r.Context(), `SELECT EXISTS (SELECT 1 FROM resales WHERE id = $1 AND brand = $2
			AND ($3 OR ($5 AND id = (SELECT resale_id FROM users WHERE id = $4::uuid))))`, id, c.Brand, staff, c.Subject, c.Has(auth.Resale)).Scan(&ok)
	case "user":
		err = s.DB.QueryRow(r.Context(), `SELECT EXISTS (SELECT 1 FROM users u JOIN user_roles ur ON ur.user_id = u.id
			WHERE u.id = $1 AND ur.brand IN ($2, 'all')
				AND ($3 OR u.id = $4::uuid OR ($5 AND u.resale_id = (SELECT resale_id FROM users WHERE id = $4::uuid))))`,
			id, c.Brand, staff, c.Subject, c.Has(auth.Resale)).Scan(&ok)
	}
	if err != nil {
		respond.Internal(w, r, err)
		return false
	}
	if !ok {
		respond.Error(w, http.StatusForbidden, auth.MsgForbidden)
	}
	return ok
}
