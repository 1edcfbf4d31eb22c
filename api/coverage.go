package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"go.temporal.io/sdk/client"

	"oportuna/auth"
	"oportuna/coverage"
	"oportuna/internal/respond"
	"oportuna/opportunity"
	"oportuna/store"
	"oportuna/workflows"
)

// Routing's endpoints (docs/deal-desk.md, "Routing"; docs/api.md): the
// brand's coverage rules ('Cobertura') and an opportunity's reassignment.

// Messages of the coverage and reassignment endpoints.
const (
	MsgCoverageSaved      = "Cobertura atualizada com sucesso"
	MsgNotRepresentative  = "O usuário informado não é representante desta marca."
	MsgResaleNotOfBrand   = "A revenda informada não pertence a esta marca."
	MsgReassigned         = "Representantes responsáveis atualizados com sucesso"
	MsgCoverageUFUnknown  = "UF desconhecida: %s. Use uma das 27 siglas (ex.: SP, MG)."
	MsgReassignNotOfBrand = "Um dos representantes escolhidos não é representante desta marca."
)

// coverageResale is a reseller account a coverage names.
type coverageResale struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	CNPJ string `json:"cnpj"`
}

// coverageEntry is one representative's coverage.
type coverageEntry struct {
	ID      string           `json:"id"`
	Name    string           `json:"name"`
	Email   string           `json:"email"`
	States  []string         `json:"states"`
	Resales []coverageResale `json:"resales"`
}

// coverageView reads the brand's representatives with their coverage and the
// reseller accounts a coverage may name.
func (s *Server) coverageView(r *http.Request, brand string) (reps []coverageEntry, resales []coverageResale, err error) {
	q := store.New(s.DB)
	rows, err := q.BrandRepresentatives(r.Context(), brand)
	if err != nil {
		return nil, nil, err
	}
	all, err := q.CoverageResales(r.Context(), brand)
	if err != nil {
		return nil, nil, err
	}
	byID := map[string]coverageResale{}
	resales = make([]coverageResale, len(all))
	for i, rs := range all {
		resales[i] = coverageResale{ID: rs.ID, Name: rs.CorporateName, CNPJ: rs.Cnpj}
		byID[rs.ID] = resales[i]
	}
	reps = make([]coverageEntry, len(rows))
	for i, row := range rows {
		e := coverageEntry{ID: row.ID, Name: row.Name, Email: row.Email, States: row.States, Resales: []coverageResale{}}
		for _, id := range row.ResaleIds {
			rs, ok := byID[id]
			if !ok {
				rs = coverageResale{ID: id} // no longer approved: still named
			}
			e.Resales = append(e.Resales, rs)
		}
		reps[i] = e
	}
	return reps, resales, nil
}

// handleCoverage is GET /coverage (REPRESENTATIVE, SUPPORT): the brand's
// representatives with their UFs and reseller accounts, the 27 UFs, and the
// brand's approved reseller accounts.
func (s *Server) handleCoverage(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	reps, resales, err := s.coverageView(r, c.Brand)
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, map[string]any{"representatives": reps, "states": coverage.UFs, "resales": resales})
}

// coverageBody is PUT /coverage/{userId}.
type coverageBody struct {
	States    []string `json:"states"`
	ResaleIDs []string `json:"resaleIds"`
}

// handlePutCoverage is PUT /coverage/{userId} (REPRESENTATIVE, SUPPORT):
// replaces a representative's coverage at the brand and logs the change in
// the history (type user, the representative's id), in one transaction.
func (s *Server) handlePutCoverage(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	userID := chi.URLParam(r, "userId")
	var body coverageBody
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	states, bad := coverage.Normalize(body.States)
	if bad != "" {
		respond.Error(w, http.StatusBadRequest, fmt.Sprintf(MsgCoverageUFUnknown, strings.TrimSpace(bad)))
		return
	}
	resaleIDs := append([]string{}, body.ResaleIDs...)
	sort.Strings(resaleIDs)
	resaleIDs = slices.Compact(resaleIDs)
	for _, id := range resaleIDs {
		if !opportunity.ValidID(id) {
			respond.Error(w, http.StatusBadRequest, MsgResaleNotOfBrand)
			return
		}
	}
	if !opportunity.ValidID(userID) {
		respond.Error(w, http.StatusBadRequest, MsgNotRepresentative)
		return
	}
	actor, err := s.actorOf(r.Context(), c)
	if err != nil {
		failRequest(w, r, err)
		return
	}
	var msg string
	err = store.Tx(r.Context(), s.DB, func(q *store.Queries) error {
		ok, err := q.IsBrandRepresentative(r.Context(), store.IsBrandRepresentativeParams{UserID: userID, Brand: c.Brand})
		if err != nil || !ok {
			msg = MsgNotRepresentative
			return err
		}
		n, err := q.CountBrandResales(r.Context(), store.CountBrandResalesParams{ResaleIds: resaleIDs, Brand: c.Brand})
		if err != nil || n != len(resaleIDs) {
			msg = MsgResaleNotOfBrand
			return err
		}
		old, err := q.LockCoverage(r.Context(), store.LockCoverageParams{Brand: c.Brand, UserID: userID})
		if err != nil {
			return err
		}
		var changes []opportunity.Change
		changes = appendCoverageChange(changes, "coverageStates", old.States, states)
		changes = appendCoverageChange(changes, "coverageResales", sortedCopy(old.ResaleIds), resaleIDs)
		if len(changes) == 0 {
			return nil // nothing changed: nothing to log
		}
		if err := q.SetCoverage(r.Context(), store.SetCoverageParams{Brand: c.Brand, UserID: userID, States: states, ResaleIds: resaleIDs}); err != nil {
			return err
		}
		return opportunity.History{Key: "coverage/" + c.Brand + "/" + userID + "/" + opportunity.NewID(), Type: "user",
			TypeID: userID, Brand: c.Brand, Actor: &actor, Action: "update", Changes: changes}.Record(r.Context(), q)
	})
	switch {
	case err != nil:
		respond.Internal(w, r, err)
		return
	case msg != "":
		respond.Error(w, http.StatusBadRequest, msg)
		return
	}
	reps, _, err := s.coverageView(r, c.Brand)
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	for _, e := range reps {
		if e.ID == userID {
			respond.JSON(w, http.StatusOK, map[string]any{"message": MsgCoverageSaved, "data": e})
			return
		}
	}
	respond.Error(w, http.StatusBadRequest, MsgNotRepresentative) // deactivated meanwhile
}

func sortedCopy(v []string) []string {
	out := append([]string{}, v...)
	sort.Strings(out)
	return out
}

func appendCoverageChange(cs []opportunity.Change, attr string, old, new []string) []opportunity.Change {
	o, n := strings.Join(old, ","), strings.Join(new, ",")
	if o == n {
		return cs
	}
	return append(cs, opportunity.Change{Attribute: attr, OldValue: o, NewValue: n})
}

// coverageHistoryRow is one change of a coverage.
type coverageHistoryRow struct {
	ID             int64           `json:"id"`
	Representative string          `json:"representativeId"`
	UserID         *string         `json:"userId"`
	Username       string          `json:"username"`
	Modifications  json.RawMessage `json:"modifications"`
	Date           time.Time       `json:"date"`
}

// handleCoverageHistory is GET /coverage/history (REPRESENTATIVE, SUPPORT):
// the newest 100 changes of the brand's coverage, newest first.
func (s *Server) handleCoverageHistory(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	rows, err := store.New(s.DB).CoverageHistory(r.Context(), store.CoverageHistoryParams{Brand: c.Brand, MaxRows: 100})
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	out := make([]coverageHistoryRow, len(rows))
	for i, h := range rows {
		out[i] = coverageHistoryRow{ID: h.ID, Representative: h.TypeID, UserID: h.UserID, Username: h.Username,
			Modifications: h.Modifications, Date: h.CreatedAt}
	}
	respond.JSON(w, http.StatusOK, map[string]any{"result": out})
}

// reassignBody is POST /opportunity/{id}/reassign.
type reassignBody struct {
	RepresentativeIDs []string `json:"representativeIds"`
	Reason            string   `json:"reason"`
}

// handleReassign is POST /opportunity/{id}/reassign (REPRESENTATIVE,
// SUPPORT): replaces the responsible representatives, with a reason, through
// the workflow (workflows.UpdateReassign); answers the record as stored after.
func (s *Server) handleReassign(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	id := chi.URLParam(r, "id")
	var body reassignBody
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	_, actor, ok := s.loadVisible(w, r, id)
	if !ok {
		return
	}
	ids := sortedCopy(body.RepresentativeIDs)
	ids = slices.Compact(ids)
	if len(ids) == 0 {
		respond.Error(w, http.StatusBadRequest, workflows.MsgReassignNone)
		return
	}
	if strings.TrimSpace(body.Reason) == "" {
		respond.Error(w, http.StatusBadRequest, workflows.MsgReassignReason)
		return
	}
	for _, rid := range ids {
		if !opportunity.ValidID(rid) {
			respond.Error(w, http.StatusBadRequest, MsgReassignNotOfBrand)
			return
		}
	}
	n, err := store.New(s.DB).CountBrandRepresentatives(r.Context(), store.CountBrandRepresentativesParams{UserIds: ids, Brand: c.Brand})
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	if n != len(ids) {
		respond.Error(w, http.StatusBadRequest, MsgReassignNotOfBrand)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), updateTimeout)
	defer cancel()
	h, err := s.Temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: workflows.OpportunityWorkflowID(id),
		UpdateID: decisionUpdateID(r), UpdateName: workflows.UpdateReassign, WaitForStage: client.WorkflowUpdateStageCompleted,
		Args: []any{workflows.ReassignRequest{Actor: actor, Representatives: ids, Reason: body.Reason, Deadline: decisionDeadline(time.Now())}}})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err != nil {
		s.updateError(w, r, err)
		return
	}
	rec, err := opportunity.Load(r.Context(), store.New(s.DB), id)
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, map[string]any{"message": MsgReassigned, "data": rec})
}
