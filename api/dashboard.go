package api

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5"

	"oportuna/auth"
	"oportuna/crm"
	"oportuna/internal/calendar"
	"oportuna/internal/respond"
)

// monthLabels are the chart's month names.
var monthLabels = []string{"Jan", "Fev", "Mar", "Abr", "Mai", "Jun", "Jul", "Ago", "Set", "Out", "Nov", "Dez"}

type monthPoint struct {
	Month       int    `json:"month"`
	Label       string `json:"label"`
	Approved    int    `json:"approved"`
	Disapproved int    `json:"disapproved"`
}

type statusTotal struct {
	Total     int `json:"total"`
	ThisMonth int `json:"thisMonth"`
}

// summaryRow is a row of the dashboard's 'Resumo' (spec §2: contact,
// corporateName, product, status): a list row and its main product.
type summaryRow struct {
	listRow
	// Product is the main product line's description (its part number when
	// the description is blank); '' when the opportunity has none.
	Product string `json:"product"`
}

// mainProductSQL reads an opportunity's main product: the first line that is
// neither an accessory nor a competitor's (spec §3).
const mainProductSQL = `COALESCE((
		SELECT COALESCE(NULLIF(btrim(p->>'description'), ''), NULLIF(btrim(p->>'partNumber'), ''))
		FROM jsonb_array_elements(o.products) WITH ORDINALITY AS e(p, i)
		WHERE NOT COALESCE((p->>'accessory')::boolean, false) AND NOT COALESCE((p->>'competition')::boolean, false)
		ORDER BY i LIMIT 1), '')`

// summaryRowSelect is listRowSelect with the main product as a last column.
var summaryRowSelect = func() string {
	const from = "\n\tFROM opportunities o "
	i := strings.Index(listRowSelect, from)
	if i < 0 {
		panic("api: listRowSelect no longer reads FROM opportunities o")
	}
	return listRowSelect[:i] + ",\n\t\t" + mainProductSQL + listRowSelect[i:]
}()

// handleDashboard answers GET /dashboard/status?brand=: approved and disapproved
// per month from January to the current month (Brazil's calendar), the totals
// by status with the current month's count, and the last 11 opportunities.
func (s *Server) handleDashboard(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	if b := r.URL.Query().Get("brand"); b != "" && !strings.EqualFold(b, c.Brand) {
		respond.Error(w, http.StatusForbidden, auth.MsgCompanyMismatch)
		return
	}
	now := s.now()
	yearStart, monthStart := calendar.YearStart(now), calendar.MonthStart(now)
	months := make([]monthPoint, int(calendar.In(now).Month()))
	for i := range months {
		months[i] = monthPoint{Month: i + 1, Label: monthLabels[i]}
	}
	// Approvals by approval date; refusals (terminal) by their last change. Each
	// part and each count below walks one index (see migrations/0003).
	rows, _ := s.DB.Query(r.Context(), `
		SELECT 'approved', extract(month FROM approve_date AT TIME ZONE $3)::int, count(*)
		FROM opportunities WHERE brand = $1 AND NOT is_deleted AND status = 'approved' AND approve_date >= $2 GROUP BY 2
		UNION ALL
		SELECT 'disapproved', extract(month FROM updated_at AT TIME ZONE $3)::int, count(*)
		FROM opportunities WHERE brand = $1 AND NOT is_deleted AND status = 'disapproved' AND updated_at >= $2 GROUP BY 2`, c.Brand, yearStart, calendar.Name)
	type bucket struct {
		Status string
		Month  int
		N      int
	}
	buckets, err := pgx.CollectRows(rows, pgx.RowToStructByPos[bucket])
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	for _, b := range buckets {
		if b.Month < 1 || b.Month > len(months) {
			continue
		}
		if b.Status == "approved" {
			months[b.Month-1].Approved = b.N
		} else {
			months[b.Month-1].Disapproved = b.N
		}
	}
	totals := map[string]*statusTotal{"approved": {}, "disapproved": {}, "analysis": {}}
	err = s.DB.QueryRow(r.Context(), `SELECT
			(SELECT count(*) FROM opportunities WHERE brand = $1 AND NOT is_deleted AND status = 'approved'),
			(SELECT count(*) FROM opportunities WHERE brand = $1 AND NOT is_deleted AND status = 'approved' AND approve_date >= $2),
			(SELECT count(*) FROM opportunities WHERE brand = $1 AND NOT is_deleted AND status = 'disapproved'),
			(SELECT count(*) FROM opportunities WHERE brand = $1 AND NOT is_deleted AND status = 'disapproved' AND updated_at >= $2),
			(SELECT count(*) FROM opportunities WHERE brand = $1 AND NOT is_deleted AND status = 'analysis'),
			(SELECT count(*) FROM opportunities WHERE brand = $1 AND NOT is_deleted AND status = 'analysis' AND created_at >= $2)`,
		c.Brand, monthStart).Scan(
		&totals["approved"].Total, &totals["approved"].ThisMonth, &totals["disapproved"].Total,
		&totals["disapproved"].ThisMonth, &totals["analysis"].Total, &totals["analysis"].ThisMonth)
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	rows, _ = s.DB.Query(r.Context(), summaryRowSelect+` WHERE o.brand = $1 AND NOT o.is_deleted ORDER BY o.created_at DESC LIMIT 11`, c.Brand)
	recent, err := pgx.CollectRows(rows, pgx.RowToStructByPos[summaryRow])
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	if recent == nil {
		recent = []summaryRow{}
	}
	respond.JSON(w, http.StatusOK, map[string]any{"data": map[string]any{
		"months": months, "approved": totals["approved"], "disapproved": totals["disapproved"], "analysis": totals["analysis"],
		"recent": recent,
	}})
}

// handleOpportunityNames answers GET /opportunity/name?company=&name=: the
// brand's opportunities whose name contains the text (at most 20).
func (s *Server) handleOpportunityNames(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	q := r.URL.Query()
	if b := q.Get("company"); b != "" && !strings.EqualFold(b, c.Brand) {
		respond.Error(w, http.StatusForbidden, auth.MsgCompanyMismatch)
		return
	}
	name := strings.TrimSpace(q.Get("name"))
	if name == "" {
		respond.JSON(w, http.StatusOK, map[string]any{"data": []any{}})
		return
	}
	type hit struct {
		ID     string `json:"id"`
		Name   string `json:"name"`
		Status string `json:"status"`
	}
	actor, err := s.actorOf(r.Context(), c)
	if err != nil {
		failRequest(w, r, err)
		return
	}
	// Resellers and sellers see only their own, as in the lists.
	rows, _ := s.DB.Query(r.Context(), `SELECT id::text, name, status FROM opportunities
		WHERE brand = $1 AND NOT is_deleted AND name ILIKE $2
			AND ($3 OR ($4 AND resale_id = $5::uuid) OR ($6 AND user_id = $7::uuid))
		ORDER BY created_at DESC LIMIT 20`,
		c.Brand, "%"+strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(name)+"%",
		c.Has(auth.Representative, auth.Support), c.Has(auth.Resale), nilIfEmpty(actor.ResaleID), c.Has(auth.Seller), c.Subject)
	hits, err := pgx.CollectRows(rows, pgx.RowToStructByPos[hit])
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	if hits == nil {
		hits = []hit{}
	}
	respond.JSON(w, http.StatusOK, map[string]any{"data": hits})
}

// MsgSellersUnavailable is spec §8's CRM seller lookup failure.
const MsgSellersUnavailable = "Não foi possivel recuperar os vendedores no Salesforce"

// handleCRMSellers answers GET /opportunity/getSellersOnSalesforce with the CRM's sellers of the brand.
func (s *Server) handleCRMSellers(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	list, err := s.Acts.CRM.Sellers(r.Context(), c.Brand)
	if err != nil {
		slog.ErrorContext(r.Context(), "crm: seller lookup failed", "brand", c.Brand, "err", err)
		respond.Error(w, http.StatusBadGateway, MsgSellersUnavailable)
		return
	}
	if list == nil {
		list = []crm.Seller{}
	}
	respond.JSON(w, http.StatusOK, list)
}
