package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"oportuna/auth"
	"oportuna/cnpj"
	"oportuna/internal/calendar"
	"oportuna/internal/respond"
	"oportuna/opportunity"
	"oportuna/store"
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
	// Representative: the responsible representatives, [{id, name, email}].
	Representative json.RawMessage `json:"representative"`
}

// listRowOf is a list's row as the API answers it.
func listRowOf(r store.OpportunityListRow) listRow {
	return listRow{ID: r.ID, Status: opportunity.Status(r.Status), Name: r.Name, CNPJ: r.Cnpj, FantasyName: r.FantasyName,
		CorporateName: r.CorporateName, Contact: r.Contact, Email: r.Email, State: r.State, City: r.City,
		ProbabilityClosing: r.ProbabilityClosing, Estimated: json.Number(r.Estimated), Register: r.Register,
		Seller: r.Seller, Resale: r.Resale, ApproveDate: r.ApproveDate, ValidUntil: r.ValidUntil, CreatedAt: r.CreatedAt,
		Representative: json.RawMessage(r.Representatives)}
}

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

// sortDir reads asc/desc/1/-1: whether it asks for ascending order.
func sortDir(v string) (asc, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "asc", "1":
		return true, true
	case "desc", "-1":
		return false, true
	}
	return false, false
}

// opportunityQuery is parseOpportunityQuery answering its errors: false when
// the answer was written (400 for an invalid parameter).
func (s *Server) opportunityQuery(w http.ResponseWriter, r *http.Request, c *auth.Claims, scope listScope) (store.OpportunityFilter, bool) {
	f, msg, err := s.parseOpportunityQuery(r, c, scope)
	if err != nil {
		failRequest(w, r, err)
		return f, false
	}
	if msg != "" {
		respond.Error(w, http.StatusBadRequest, msg)
		return f, false
	}
	return f, true
}

// parseOpportunityQuery reads the filters and the sort of a list request
// (the lists and the export); msg is a pt-BR message for a 400 when a
// parameter is invalid.
func (s *Server) parseOpportunityQuery(r *http.Request, c *auth.Claims, scope listScope) (f store.OpportunityFilter, msg string, err error) {
	q := r.URL.Query()
	f.Brand = c.Brand
	switch scope {
	case listByResale:
		actor, err := s.actorOf(r.Context(), c)
		if err != nil {
			return f, "", err
		}
		f.OfResale, f.ResaleID = true, actor.ResaleID
	case listByUser:
		f.UserID = c.Subject
	}
	if v := q.Get("status"); v != "" {
		for _, st := range strings.Split(v, ",") {
			st = strings.TrimSpace(st)
			if !opportunity.Status(st).Valid() {
				return f, "Status inválido: " + st, nil
			}
			f.Statuses = append(f.Statuses, st)
		}
	}
	f.Name, f.Client, f.FantasyName = q.Get("name"), q.Get("client"), q.Get("fantasyName")
	f.Register, f.Email = q.Get("register"), q.Get("email")
	if v := q.Get("cnpj"); v != "" {
		f.CNPJPrefix = cnpj.Normalize(v)
	}
	f.State, f.City = strings.TrimSpace(q.Get("state")), strings.TrimSpace(q.Get("city"))
	switch q.Get("mine") { // 'Minhas': those the caller answers for (docs/deal-desk.md, "Routing")
	case "", "false":
	case "true":
		f.Representative = c.Subject
	default:
		return f, "Parâmetro mine inválido: use true ou false.", nil
	}
	if v := q.Get("date"); v != "" {
		d, ok := opportunity.ParseDate(v)
		if !ok {
			return f, "Data inválida: use dd/mm/aaaa.", nil
		}
		// The day in Brasília's calendar.
		f.CreatedFrom, f.CreatedBefore = calendar.Start(d), calendar.Start(d).AddDate(0, 0, 1)
	}
	if v := q.Get("estimated"); v != "" {
		asc, ok := sortDir(v)
		if !ok {
			return f, "Ordenação inválida: use asc ou desc.", nil
		}
		f.Sort = store.EstimatedDescending
		if asc {
			f.Sort = store.EstimatedAscending
		}
	} else if v := q.Get("createdAt"); v != "" {
		asc, ok := sortDir(v)
		if !ok {
			return f, "Ordenação inválida: use asc ou desc.", nil
		}
		if asc {
			f.Sort = store.OldestFirst
		}
	}
	return f, "", nil
}

func (s *Server) handleListOpportunities(scope listScope) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c := auth.FromContext(r.Context())
		amount, page, msg := pageParams(r)
		if msg != "" {
			respond.Error(w, http.StatusBadRequest, msg)
			return
		}
		f, ok := s.opportunityQuery(w, r, c, scope)
		if !ok {
			return
		}
		q := store.New(s.DB)
		answerPage(w, r, func() (int, error) { return q.CountOpportunities(r.Context(), f) },
			func() ([]store.OpportunityListRow, error) {
				return q.OpportunityPage(r.Context(), f, amount, (page-1)*amount, false)
			}, listRowOf)
	}
}

// answerPage answers a page of a list: {"result": the page's rows as view
// writes them, "total": the whole list's count}.
func answerPage[R, V any](w http.ResponseWriter, r *http.Request, count func() (int, error), rows func() ([]R, error), view func(R) V) {
	total, err := count()
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	page, err := rows()
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	list := make([]V, len(page))
	for i, row := range page {
		list[i] = view(row)
	}
	respond.JSON(w, http.StatusOK, map[string]any{"result": list, "total": total})
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
	q := store.New(s.DB)
	kind, _ := q.HistoryKind(r.Context(), store.HistoryKindParams{TypeID: typeID, Brand: c.Brand})
	if kind == "" {
		respond.Error(w, http.StatusNotFound, "Sem Histórico")
		return
	}
	if !s.mayAccessRecord(w, r, kind, typeID) {
		return
	}
	rep := c.Has(auth.Representative)
	answerPage(w, r, func() (int, error) {
		return q.CountHistory(r.Context(), store.CountHistoryParams{TypeID: typeID, Brand: c.Brand})
	}, func() ([]store.HistoryPageRow, error) {
		return q.HistoryPage(r.Context(), store.HistoryPageParams{TypeID: typeID, Brand: c.Brand, MaxRows: amount, Skip: (page - 1) * amount})
	}, func(h store.HistoryPageRow) historyRow {
		v := historyRow{ID: h.ID, TypeID: h.TypeID, Type: h.Type, UserID: h.UserID, Username: h.Username,
			ActionType: h.ActionType, Modifications: namedRepresentatives(r.Context(), q, h.Modifications), Date: h.CreatedAt}
		if !rep {
			v.Username = ""
		}
		return v
	})
}

// namedRepresentatives shows a reassignment's representatives by name: the
// workflow records their ids (no names in Temporal's history), the screen
// shows people. Modifications without one come back as they are.
func namedRepresentatives(ctx context.Context, q *store.Queries, mods []byte) json.RawMessage {
	if !bytes.Contains(mods, []byte(`"representative"`)) {
		return mods
	}
	var changes []map[string]any
	if json.Unmarshal(mods, &changes) != nil {
		return mods
	}
	var ids []string
	for _, c := range changes {
		if c["attribute"] != "representative" {
			continue
		}
		for _, k := range []string{"oldValue", "newValue"} {
			if v, ok := c[k].(string); ok && v != "" {
				ids = append(ids, strings.Split(v, ",")...)
			}
		}
	}
	valid := ids[:0]
	for _, id := range ids {
		if opportunity.ValidID(id) {
			valid = append(valid, id)
		}
	}
	refs, err := q.RepresentativeRefs(ctx, valid)
	if err != nil || len(refs) == 0 {
		return mods
	}
	names := make(map[string]string, len(refs))
	for _, ref := range refs {
		names[ref.ID] = ref.Name
	}
	for _, c := range changes {
		if c["attribute"] != "representative" {
			continue
		}
		for _, k := range []string{"oldValue", "newValue"} {
			v, _ := c[k].(string)
			if v == "" {
				continue
			}
			parts := strings.Split(v, ",")
			for i, id := range parts {
				if n, ok := names[id]; ok {
					parts[i] = n
				}
			}
			c[k] = strings.Join(parts, ", ")
		}
	}
	out, err := json.Marshal(changes)
	if err != nil {
		return mods
	}
	return out
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
	if !respond.DecodeBody(w, r, &body) {
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
	id, err := store.New(s.DB).InsertHistory(r.Context(), store.InsertHistoryParams{Type: body.Type, TypeID: body.TypeID,
		Brand: c.Brand, UserID: &c.Subject, Username: c.Name, ActionType: body.ActionType, Modifications: mj})
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
		ok, err = store.New(s.DB).MayReadResale(r.Context(), store.MayReadResaleParams{ID: id, Brand: c.Brand, Staff: staff,
			Reseller: c.Has(auth.Resale), UserID: c.Subject})
	case "user":
		ok, err = store.New(s.DB).MayReadUser(r.Context(), store.MayReadUserParams{ID: id, Brand: c.Brand, Staff: staff,
			Reseller: c.Has(auth.Resale), UserID: c.Subject})
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
