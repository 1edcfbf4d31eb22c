package crmsim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"oportuna/cnpj"
)

// Errors of the controls.
var (
	ErrInvalidCNPJ = errors.New("CNPJ inválido")
	ErrNotSynced   = errors.New("oportunidade não sincronizada com o CRM")
)

// Outage answers 503 SERVER_UNAVAILABLE to the next calls (0: until ClearOutage).
func (s *Sim) Outage(calls int) { s.setOutage(KindUnavailable, calls) }

// RateLimit answers 403 REQUEST_LIMIT_EXCEEDED to the next calls (0: until ClearOutage).
func (s *Sim) RateLimit(calls int) { s.setOutage(KindRateLimit, calls) }

// LoseResponses performs the next write calls but answers them 503, as if the
// connection dropped after the commit (0: until ClearOutage).
func (s *Sim) LoseResponses(calls int) { s.LoseResponsesAfter(0, calls) }

// LoseResponsesAfter lets skip write calls pass, then loses the responses of
// the next calls. A write call is any API call but a GET; a Composite call of
// GET subrequests only is not one (an upsert reads with one, then writes the
// record and its lines with one all-or-none Composite call: skip 0 loses the
// write's answer).
func (s *Sim) LoseResponsesAfter(skip, calls int) {
	s.setOutage(KindLostResponse, calls)
	s.mu.Lock()
	s.out.skip = max(skip, 0)
	s.mu.Unlock()
}

// ClearOutage ends any outage.
func (s *Sim) ClearOutage() { s.setOutage("", 0) }

func (s *Sim) setOutage(kind string, calls int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if calls <= 0 {
		calls = -1
	}
	if kind == "" {
		s.out = outage{}
		return
	}
	s.out = outage{kind: kind, remaining: calls}
}

// SetDelay makes every API call wait d before it is handled (0: no delay).
func (s *Sim) SetDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = max(d, 0)
}

func normalizedCNPJ(doc string) (string, error) {
	d := cnpj.Normalize(doc)
	if len(d) != 14 {
		return "", ErrInvalidCNPJ
	}
	return d, nil
}

// MarkMissing makes the customer with this CNPJ absent from the CRM: its
// accounts are hidden and none is created.
func (s *Sim) MarkMissing(ctx context.Context, doc string) error {
	d, err := normalizedCNPJ(doc)
	if err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `INSERT INTO crm_sim.missing_customers (cnpj) VALUES ($1) ON CONFLICT DO NOTHING`, d)
	return err
}

// UnmarkMissing brings the customer back (its account is created on the next lookup).
func (s *Sim) UnmarkMissing(ctx context.Context, doc string) error {
	d, err := normalizedCNPJ(doc)
	if err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `DELETE FROM crm_sim.missing_customers WHERE cnpj = $1`, d)
	return err
}

// DuplicateCustomer gives the CNPJ a second account (a lookup then finds two).
func (s *Sim) DuplicateCustomer(ctx context.Context, doc string) error {
	d := cnpj.Normalize(doc)
	if !cnpj.Valid(d) {
		return ErrInvalidCNPJ
	}
	if err := s.ensureAccounts(ctx, []any{d}); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `INSERT INTO crm_sim.accounts (id, name, cnpj)
		SELECT $1, 'Cadastro duplicado de ' || $2, $2`, s.nextID(ctx, s.db, prefixAccount), cnpj.Format(d))
	return err
}

// Lock makes every write to the opportunity with our id fail with ENTITY_IS_LOCKED
// (an approval process holds it). It may be set before the first sync.
func (s *Sim) Lock(ctx context.Context, id string) error {
	if strings.TrimSpace(id) == "" {
		return ErrNotSynced
	}
	_, err := s.db.Exec(ctx, `INSERT INTO crm_sim.locked_opportunities (external_id) VALUES ($1) ON CONFLICT DO NOTHING`, id)
	return err
}

// Unlock lifts Lock.
func (s *Sim) Unlock(ctx context.Context, id string) error {
	_, err := s.db.Exec(ctx, `DELETE FROM crm_sim.locked_opportunities WHERE external_id = $1`, id)
	return err
}

// CloseOpportunity moves the synced opportunity with our id to a closed stage
// ("Closed Won" when stage is empty), as a salesperson would in the CRM.
func (s *Sim) CloseOpportunity(ctx context.Context, id, stage string) error {
	if stage == "" {
		stage = "Closed Won"
	}
	if closed, _ := closedStage(stage); !closed {
		return fmt.Errorf("estágio %q não é de encerramento (Closed Won ou Closed Lost)", stage)
	}
	tag, err := s.db.Exec(ctx, `UPDATE crm_sim.opportunities SET stage_name = $2, updated_at = now() WHERE external_id = $1`, id, stage)
	if err == nil && tag.RowsAffected() == 0 {
		err = ErrNotSynced
	}
	return err
}

// DuplicateOpportunity copies the synced opportunity with our id, so our
// external id matches two records (HTTP 300).
func (s *Sim) DuplicateOpportunity(ctx context.Context, id string) error {
	tag, err := s.db.Exec(ctx, `INSERT INTO crm_sim.opportunities (id, external_id, account_id, name, stage_name, close_date, amount,
			probability, owner_id, brand, reseller, description, pricebook_id, fields)
		SELECT $2, external_id, account_id, name, stage_name, close_date, amount, probability, owner_id, brand, reseller,
			description, pricebook_id, fields
		FROM crm_sim.opportunities WHERE external_id = $1 ORDER BY created_at LIMIT 1`, id, s.nextID(ctx, s.db, prefixOpportunity))
	if err == nil && tag.RowsAffected() == 0 {
		err = ErrNotSynced
	}
	return err
}

// RevokeTokens revokes every access token issued (the next call meets
// INVALID_SESSION_ID) and returns how many.
func (s *Sim) RevokeTokens(ctx context.Context) (int64, error) {
	tag, err := s.db.Exec(ctx, `UPDATE crm_sim.tokens SET revoked_at = now() WHERE revoked_at IS NULL`)
	return tag.RowsAffected(), err
}

// Reset clears the failure controls and every synced record, account and token
// (the sellers and the catalogue stay).
func (s *Sim) Reset(ctx context.Context) error {
	s.mu.Lock()
	s.out, s.delay, s.cursors, s.requests, s.stats = outage{}, 0, map[string]*cursor{}, nil, map[string]int{}
	s.mu.Unlock()
	_, err := s.db.Exec(ctx, `TRUNCATE crm_sim.line_items, crm_sim.opportunities, crm_sim.accounts, crm_sim.missing_customers,
		crm_sim.locked_opportunities, crm_sim.tokens`)
	return err
}

// State is what the controls are set to.
type State struct {
	Outage          string   `json:"outage"`          // failure kind, empty when none
	OutageAfter     int      `json:"outageAfter"`     // calls that pass first
	OutageRemaining int      `json:"outageRemaining"` // -1: until cleared
	Delay           string   `json:"delay"`
	MissingCNPJs    []string `json:"missingCustomers"`
	Locked          []string `json:"lockedOpportunities"`
	Requests        int      `json:"requests"`
}

// State reports the failure controls.
func (s *Sim) State(ctx context.Context) (State, error) {
	s.mu.Lock()
	st := State{Outage: s.out.kind, OutageAfter: s.out.skip, OutageRemaining: s.out.remaining, Delay: s.delay.String(), Requests: len(s.requests)}
	s.mu.Unlock()
	rows, _ := s.db.Query(ctx, `SELECT cnpj FROM crm_sim.missing_customers ORDER BY cnpj`)
	var err error
	if st.MissingCNPJs, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return st, err
	}
	rows, _ = s.db.Query(ctx, `SELECT external_id FROM crm_sim.locked_opportunities ORDER BY external_id`)
	st.Locked, err = pgx.CollectRows(rows, pgx.RowTo[string])
	return st, err
}

// Synced is an opportunity as the CRM holds it.
type Synced struct {
	ID          string          `json:"id"`
	ExternalID  string          `json:"externalId"`
	Name        string          `json:"name"`
	Stage       string          `json:"stage"`
	CloseDate   string          `json:"closeDate"`
	Amount      *float64        `json:"amount"`
	Probability *int            `json:"probability"`
	OwnerID     string          `json:"ownerId"`
	OwnerName   string          `json:"ownerName"`
	Brand       string          `json:"brand"`
	Reseller    string          `json:"reseller"`
	Description string          `json:"description"`
	PricebookID string          `json:"pricebookId"`
	AccountID   string          `json:"accountId"`
	AccountName string          `json:"accountName"`
	AccountCNPJ string          `json:"accountCnpj"`
	Lines       []SyncedLine    `json:"lines"`
	Fields      json.RawMessage `json:"fields"` // every field the client sent, merged
	CreatedAt   time.Time       `json:"createdAt"`
	UpdatedAt   time.Time       `json:"updatedAt"`
}

// SyncedLine is an opportunity line item.
type SyncedLine struct {
	ID          string  `json:"id"`
	ProductCode string  `json:"productCode"`
	Quantity    float64 `json:"quantity"`
	UnitPrice   float64 `json:"unitPrice"`
	Description string  `json:"description"`
}

// Opportunities lists the synced opportunities, newest first; id (ours) filters.
func (s *Sim) Opportunities(ctx context.Context, id string) ([]Synced, error) {
	rows, _ := s.db.Query(ctx, `SELECT o.id, o.external_id, o.name, o.stage_name, o.close_date::text,
			COALESCE((SELECT sum(l.quantity * l.unit_price) FROM crm_sim.line_items l WHERE l.opportunity_id = o.id), o.amount)::float8,
			o.probability, COALESCE(o.owner_id, ''), COALESCE(u.name, ''), COALESCE(o.brand, ''), COALESCE(o.reseller, ''), o.description,
			COALESCE(o.pricebook_id, ''), COALESCE(o.account_id, ''), COALESCE(a.name, ''), COALESCE(a.cnpj, ''), o.fields, o.created_at, o.updated_at
		FROM crm_sim.opportunities o LEFT JOIN crm_sim.accounts a ON a.id = o.account_id LEFT JOIN crm_sim.users u ON u.id = o.owner_id
		WHERE $1 = '' OR o.external_id = $1 ORDER BY o.created_at DESC, o.id`, id)
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Synced, error) {
		var o Synced
		err := row.Scan(&o.ID, &o.ExternalID, &o.Name, &o.Stage, &o.CloseDate, &o.Amount, &o.Probability, &o.OwnerID, &o.OwnerName,
			&o.Brand, &o.Reseller, &o.Description, &o.PricebookID, &o.AccountID, &o.AccountName, &o.AccountCNPJ, &o.Fields, &o.CreatedAt, &o.UpdatedAt)
		return o, err
	})
	if err != nil {
		return nil, err
	}
	for i := range list {
		rows, _ := s.db.Query(ctx, `SELECT l.id, p.code, l.quantity::float8, l.unit_price::float8, l.description
			FROM crm_sim.line_items l JOIN crm_sim.products p ON p.entry_id = l.entry_id WHERE l.opportunity_id = $1 ORDER BY l.created_at, l.id`, list[i].ID)
		if list[i].Lines, err = pgx.CollectRows(rows, pgx.RowToStructByPos[SyncedLine]); err != nil {
			return nil, err
		}
		if list[i].Lines == nil {
			list[i].Lines = []SyncedLine{}
		}
	}
	if list == nil {
		list = []Synced{}
	}
	return list, nil
}

// StatsAnswer is GET /__sim/stats.
type StatsAnswer struct {
	Requests map[string]int `json:"requests"` // HTTP requests by PathClass
	APIUsage int64          `json:"apiUsage"` // as reported in Sforce-Limit-Info
	APILimit int64          `json:"apiLimit"`
}

// --- admin HTTP API -----------------------------------------------------------------

func adminError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"message": msg})
}

func decodeAdmin(w http.ResponseWriter, r *http.Request, v any) bool {
	if r.ContentLength == 0 {
		return true
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(v); err != nil {
		adminError(w, http.StatusBadRequest, "Corpo JSON inválido.")
		return false
	}
	return true
}

func (s *Sim) adminResult(w http.ResponseWriter, err error) {
	switch {
	case err == nil:
		st, err := s.State(context.Background())
		if err != nil {
			adminError(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, st)
	case errors.Is(err, ErrNotSynced):
		adminError(w, http.StatusNotFound, err.Error())
	default:
		adminError(w, http.StatusBadRequest, err.Error())
	}
}

const adminHelp = `Salesforce stand-in: admin API (JSON)
GET    /__sim/                              state of the failure controls
POST   /__sim/outage                        {"calls": N, "kind": "unavailable"|"rate_limit"|"lost_response", "after": M}
                                            calls 0 = until cleared; lost_response: writes done, answered 503, after M writes pass
DELETE /__sim/outage                        end the outage
POST   /__sim/slowness                      {"delay": "2s"}
DELETE /__sim/slowness
POST   /__sim/missing-customers             {"cnpj": "..."}  the customer is not in the CRM
DELETE /__sim/missing-customers/{cnpj}
POST   /__sim/duplicate-customers           {"cnpj": "..."}  a second account with this CNPJ
POST   /__sim/locked-opportunities          {"id": "<our opportunity id>"}  writes fail with ENTITY_IS_LOCKED
DELETE /__sim/locked-opportunities/{id}
POST   /__sim/closed-opportunities          {"id": "...", "stage": "Closed Won"}
POST   /__sim/duplicate-opportunities       {"id": "..."}  two records hold the external id
POST   /__sim/revoke-tokens                 every session becomes INVALID_SESSION_ID
POST   /__sim/reset                         clear the controls and the synced data
GET    /__sim/opportunities[?id=...]        what was synced, with line items
GET    /__sim/requests                      the last calls answered (subrequests of Composite calls named by "composite")
GET    /__sim/stats                         HTTP requests by kind (token, query, composite, collections, sobject, other), API usage
POST   /__sim/api-usage                     {"used": N, "limit": M}  the usage reported in Sforce-Limit-Info
`

func (s *Sim) adminRoutes() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("GET /__sim/{$}", func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Accept"), "application/json") {
			s.adminResult(w, nil)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		st, _ := s.State(r.Context())
		b, _ := json.MarshalIndent(st, "", "  ")
		fmt.Fprintf(w, "%s\nstate: %s\n", adminHelp, b)
	})
	m.HandleFunc("POST /__sim/outage", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Calls int    `json:"calls"`
			Kind  string `json:"kind"`
			After int    `json:"after"`
		}
		if !decodeAdmin(w, r, &in) {
			return
		}
		switch in.Kind {
		case "", KindUnavailable:
			s.Outage(in.Calls)
		case KindRateLimit:
			s.RateLimit(in.Calls)
		case KindLostResponse:
			s.LoseResponsesAfter(in.After, in.Calls)
		default:
			adminError(w, http.StatusBadRequest, "kind deve ser unavailable, rate_limit ou lost_response.")
			return
		}
		s.adminResult(w, nil)
	})
	m.HandleFunc("DELETE /__sim/outage", func(w http.ResponseWriter, r *http.Request) {
		s.ClearOutage()
		s.adminResult(w, nil)
	})
	m.HandleFunc("POST /__sim/slowness", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Delay string `json:"delay"`
		}
		if !decodeAdmin(w, r, &in) {
			return
		}
		d, err := time.ParseDuration(in.Delay)
		if err != nil || d < 0 {
			adminError(w, http.StatusBadRequest, "delay deve ser uma duração, por exemplo \"2s\".")
			return
		}
		s.SetDelay(d)
		s.adminResult(w, nil)
	})
	m.HandleFunc("DELETE /__sim/slowness", func(w http.ResponseWriter, r *http.Request) {
		s.SetDelay(0)
		s.adminResult(w, nil)
	})
	withBody := func(field string, fn func(ctx context.Context, v string) error) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			var in map[string]string
			if !decodeAdmin(w, r, &in) {
				return
			}
			if strings.TrimSpace(in[field]) == "" {
				adminError(w, http.StatusBadRequest, fmt.Sprintf("Informe %q.", field))
				return
			}
			s.adminResult(w, fn(r.Context(), in[field]))
		}
	}
	m.HandleFunc("POST /__sim/missing-customers", withBody("cnpj", s.MarkMissing))
	m.HandleFunc("DELETE /__sim/missing-customers/{cnpj...}", func(w http.ResponseWriter, r *http.Request) {
		s.adminResult(w, s.UnmarkMissing(r.Context(), r.PathValue("cnpj")))
	})
	m.HandleFunc("POST /__sim/duplicate-customers", withBody("cnpj", s.DuplicateCustomer))
	m.HandleFunc("POST /__sim/locked-opportunities", withBody("id", s.Lock))
	m.HandleFunc("DELETE /__sim/locked-opportunities/{id}", func(w http.ResponseWriter, r *http.Request) {
		s.adminResult(w, s.Unlock(r.Context(), r.PathValue("id")))
	})
	m.HandleFunc("POST /__sim/closed-opportunities", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ ID, Stage string }
		if !decodeAdmin(w, r, &in) {
			return
		}
		s.adminResult(w, s.CloseOpportunity(r.Context(), in.ID, in.Stage))
	})
	m.HandleFunc("POST /__sim/duplicate-opportunities", withBody("id", s.DuplicateOpportunity))
	m.HandleFunc("POST /__sim/revoke-tokens", func(w http.ResponseWriter, r *http.Request) {
		n, err := s.RevokeTokens(r.Context())
		if err != nil {
			adminError(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, map[string]int64{"revoked": n})
	})
	m.HandleFunc("POST /__sim/reset", func(w http.ResponseWriter, r *http.Request) {
		s.adminResult(w, s.Reset(r.Context()))
	})
	m.HandleFunc("GET /__sim/opportunities", func(w http.ResponseWriter, r *http.Request) {
		list, err := s.Opportunities(r.Context(), r.URL.Query().Get("id"))
		if err != nil {
			adminError(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, list)
	})
	m.HandleFunc("GET /__sim/requests", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.Requests())
	})
	m.HandleFunc("GET /__sim/stats", func(w http.ResponseWriter, r *http.Request) {
		used, limit := s.APIUsage()
		writeJSON(w, http.StatusOK, StatsAnswer{Requests: s.Stats(), APIUsage: used, APILimit: limit})
	})
	m.HandleFunc("POST /__sim/api-usage", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Used  *int64 `json:"used"`
			Limit int64  `json:"limit"`
		}
		if !decodeAdmin(w, r, &in) {
			return
		}
		if in.Used == nil || *in.Used < 0 || in.Limit < 0 {
			adminError(w, http.StatusBadRequest, "Informe \"used\" (e \"limit\", opcional) como inteiros não negativos.")
			return
		}
		s.SetAPIUsage(*in.Used, in.Limit)
		used, limit := s.APIUsage()
		writeJSON(w, http.StatusOK, StatsAnswer{Requests: s.Stats(), APIUsage: used, APILimit: limit})
	})
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		adminError(w, http.StatusNotFound, "Rota desconhecida do simulador; veja GET /__sim/.")
	})
	return m
}
