package api

import (
	"log/slog"
	"net/http"
	"strings"

	"oportuna/auth"
	"oportuna/crm"
	"oportuna/internal/calendar"
	"oportuna/internal/respond"
	"oportuna/store"
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
	q := store.New(s.DB)
	buckets, err := q.DecisionsByMonth(r.Context(), store.DecisionsByMonthParams{Brand: c.Brand, Since: yearStart, Zone: calendar.Name})
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
	t, err := q.StatusTotals(r.Context(), store.StatusTotalsParams{Brand: c.Brand, Since: monthStart})
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	totals := map[string]*statusTotal{"approved": {t.Approved, t.ApprovedSince},
		"disapproved": {t.Disapproved, t.DisapprovedSince}, "analysis": {t.Analysis, t.AnalysisSince}}
	rows, err := q.OpportunityPage(r.Context(), store.OpportunityFilter{Brand: c.Brand}, 11, 0, true)
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	recent := make([]summaryRow, len(rows))
	for i, row := range rows {
		recent[i] = summaryRow{listRow: listRowOf(row), Product: row.Product}
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
	rows, err := store.New(s.DB).OpportunityNames(r.Context(), store.OpportunityNamesParams{Brand: c.Brand,
		Pattern: store.Contains(name), Staff: c.Has(auth.Representative, auth.Support), Reseller: c.Has(auth.Resale),
		ResaleID: store.NilIfEmpty(actor.ResaleID), Seller: c.Has(auth.Seller), UserID: c.Subject})
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	hits := make([]hit, len(rows))
	for i, h := range rows {
		hits[i] = hit{ID: h.ID, Name: h.Name, Status: h.Status}
	}
	respond.JSON(w, http.StatusOK, map[string]any{"data": hits})
}

// MsgSellersUnavailable is spec §8's CRM seller lookup failure.
const MsgSellersUnavailable = "Não foi possivel recuperar os vendedores no Salesforce"

// handleCRMSellers answers GET /opportunity/getSellersOnSalesforce with the CRM's sellers of the brand.
func (s *Server) handleCRMSellers(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	list, err := s.CRM.Sellers(r.Context(), c.Brand)
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
