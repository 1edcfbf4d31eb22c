package crmsim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
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

// Down makes the stand-in drop every API and token call's connection without
// an answer (a network failure, not an HTTP error) until Up; the admin API
// keeps answering.
func (s *Sim) Down() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = true
}

// Up ends Down.
func (s *Sim) Up() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = false
}

// DuplicateValues makes the next n upserts by external id answer 400
// DUPLICATE_VALUE without writing, as Salesforce answers an upsert that
// overlaps another of the same external id (n <= 0 clears it). The overlap
// itself needs no switch: an upsert that meets another one of its external
// id still creating the record answers DUPLICATE_VALUE (see SlowWrites).
func (s *Sim) DuplicateValues(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dupValues = max(n, 0)
}

func (s *Sim) takeDuplicateValue() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dupValues <= 0 {
		return false
	}
	s.dupValues--
	return true
}

// SlowWrites makes the next n upserts by external id (0: every one, until
// cleared with d 0) hold their write for d before their transaction ends and
// the call answers: a write still running inside the org after the client
// gave up waiting for it. Another upsert of the same external id meanwhile
// answers DUPLICATE_VALUE when the held write creates the record, or waits
// for it when it updates one.
func (s *Sim) SlowWrites(d time.Duration, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writeDelay, s.slowWrites = max(d, 0), n
	if n <= 0 {
		s.slowWrites = -1
	}
	if d <= 0 {
		s.slowWrites = 0
	}
}

func (s *Sim) takeWriteDelay() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.writeDelay <= 0 || s.slowWrites == 0 {
		return 0
	}
	if s.slowWrites > 0 {
		s.slowWrites--
	}
	return s.writeDelay
}

// SetPageSize sets the query batch size from now on (Salesforce: 2000 by
// default, 200 at least; any positive size is accepted here for tests).
func (s *Sim) SetPageSize(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n <= 0 {
		n = s.opts.PageSize
	}
	s.pageSize = n
}

func (s *Sim) currentPageSize() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pageSize
}

// writeScope is the upserts of one HTTP call whose transaction has not ended
// (a Composite call's subrequests share their call's).
type writeScope struct{ extIDs []string }

type writeScopeKey struct{}

// startWrite notes that the call of ctx writes the record id of our external
// id (until its transaction ends).
func (s *Sim) startWrite(ctx context.Context, extID, id string) {
	sc, _ := ctx.Value(writeScopeKey{}).(*writeScope)
	if sc == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writing[extID] = id
	sc.extIDs = append(sc.extIDs, extID)
}

// endWrites forgets the writes of a call that ended.
func (s *Sim) endWrites(sc *writeScope) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range sc.extIDs {
		delete(s.writing, id)
	}
}

// writingID is the record id an upsert still running writes for our external id.
func (s *Sim) writingID(extID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writing[extID]
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

// ExpireTokens makes every access token issued expired, as after the org's
// session timeout (the next call meets INVALID_SESSION_ID), and returns how many.
func (s *Sim) ExpireTokens(ctx context.Context) (int64, error) {
	// -infinity: unused since forever, whatever the session timeout.
	tag, err := s.db.Exec(ctx, `UPDATE crm_sim.tokens SET last_used_at = '-infinity' WHERE revoked_at IS NULL`)
	return tag.RowsAffected(), err
}

// RevokeTokens revokes every access token issued (the next call meets
// INVALID_SESSION_ID) and returns how many.
func (s *Sim) RevokeTokens(ctx context.Context) (int64, error) {
	tag, err := s.db.Exec(ctx, `UPDATE crm_sim.tokens SET revoked_at = now() WHERE revoked_at IS NULL`)
	return tag.RowsAffected(), err
}

// Reset clears the failure controls (the Sforce-Limit-Info form included; the
// usage stays) and every synced record, account and token (the sellers and
// the catalogue stay).
func (s *Sim) Reset(ctx context.Context) error {
	s.mu.Lock()
	s.out, s.delay, s.cursors, s.requests, s.stats = outage{}, 0, map[string]*cursor{}, nil, map[string]int{}
	s.down, s.dupValues, s.writeDelay, s.slowWrites, s.pageSize = false, 0, 0, 0, s.opts.PageSize
	s.limit.form = s.opts.LimitInfoForm
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
	Down            bool     `json:"down"`            // connections dropped without an answer
	DuplicateValues int      `json:"duplicateValues"` // upserts left to answer DUPLICATE_VALUE
	SlowWrites      string   `json:"slowWrites"`      // how long an upsert holds its write
	SlowWritesLeft  int      `json:"slowWritesLeft"`  // -1: until cleared
	Writing         []string `json:"writing"`         // external ids of upserts still running
	LimitInfo       string   `json:"limitInfo"`       // the Sforce-Limit-Info of the next answer
	PageSize        int      `json:"pageSize"`
	MissingCNPJs    []string `json:"missingCustomers"`
	Locked          []string `json:"lockedOpportunities"`
	Requests        int      `json:"requests"`
}

// State reports the failure controls.
func (s *Sim) State(ctx context.Context) (State, error) {
	s.mu.Lock()
	st := State{Outage: s.out.kind, OutageAfter: s.out.skip, OutageRemaining: s.out.remaining, Delay: s.delay.String(), Requests: len(s.requests),
		Down: s.down, DuplicateValues: s.dupValues, SlowWrites: s.writeDelay.String(), SlowWritesLeft: s.slowWrites,
		Writing: []string{}, LimitInfo: s.limitInfoLocked(), PageSize: s.pageSize}
	for id := range s.writing {
		st.Writing = append(st.Writing, id)
	}
	sort.Strings(st.Writing)
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
	// LimitInfo is the Sforce-Limit-Info header the next answer carries.
	LimitInfo string `json:"limitInfo"`
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

// adminControl is the handler of a control set from a JSON body: the body
// decoded into T, then set, which answers what is wrong with it (400) or ""
// once applied (the state).
func adminControl[T any](s *Sim, set func(in T) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in T
		if !decodeAdmin(w, r, &in) {
			return
		}
		if msg := set(in); msg != "" {
			adminError(w, http.StatusBadRequest, msg)
			return
		}
		s.adminResult(w, nil)
	}
}

// adminDo is the handler of a control without a body: do, then the state.
func (s *Sim) adminDo(do func()) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		do()
		s.adminResult(w, nil)
	}
}

const adminHelp = `Salesforce stand-in: admin API (JSON)
GET    /__sim/                              state of the failure controls
POST   /__sim/outage                        {"calls": N, "kind": "unavailable"|"rate_limit"|"lost_response"|"commit_then_503", "after": M}
                                            calls 0 = until cleared; lost_response (= commit_then_503): writes committed,
                                            then answered 503, after M writes pass
DELETE /__sim/outage                        end the outage
POST   /__sim/down                          connections dropped without an answer (network failure) until /__sim/up
POST   /__sim/up                            answer again
POST   /__sim/slowness                      {"delay": "2s"}  every call waits before it is handled
DELETE /__sim/slowness
POST   /__sim/duplicate-value               {"upserts": N}  the next N upserts answer 400 DUPLICATE_VALUE (default 1)
DELETE /__sim/duplicate-value
POST   /__sim/slow-writes                   {"delay": "12s", "upserts": N}  the next N upserts (0: all) hold their write
                                            that long inside the org; an overlapping upsert of the id gets DUPLICATE_VALUE
DELETE /__sim/slow-writes
POST   /__sim/expire-tokens                 every session expires (INVALID_SESSION_ID, as after the session timeout)
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
POST   /__sim/api-usage                     {"used": N, "limit": M, "form": "plain"|"per_app"|"bursts", "appUsed": A, "appLimit": B}
                                            the usage reported in Sforce-Limit-Info (at the limit: REQUEST_LIMIT_EXCEEDED,
                                            except in the bursts form)
POST   /__sim/page-size                     {"size": N}  query batch size (Salesforce: 2000)
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
	m.HandleFunc("POST /__sim/outage", adminControl(s, func(in struct {
		Calls int    `json:"calls"`
		Kind  string `json:"kind"`
		After int    `json:"after"`
	}) string {
		switch in.Kind {
		case "", KindUnavailable:
			s.Outage(in.Calls)
		case KindRateLimit:
			s.RateLimit(in.Calls)
		case KindLostResponse, KindCommitThen503:
			s.LoseResponsesAfter(in.After, in.Calls)
		default:
			return "kind deve ser unavailable, rate_limit, lost_response ou commit_then_503."
		}
		return ""
	}))
	m.HandleFunc("DELETE /__sim/outage", s.adminDo(s.ClearOutage))
	m.HandleFunc("POST /__sim/down", s.adminDo(s.Down))
	m.HandleFunc("POST /__sim/up", s.adminDo(s.Up))
	m.HandleFunc("POST /__sim/duplicate-value", adminControl(s, func(in struct {
		Upserts *int `json:"upserts"`
	}) string {
		n := 1
		if in.Upserts != nil {
			n = *in.Upserts
		}
		if n < 1 {
			return "upserts deve ser um inteiro positivo."
		}
		s.DuplicateValues(n)
		return ""
	}))
	m.HandleFunc("DELETE /__sim/duplicate-value", s.adminDo(func() { s.DuplicateValues(0) }))
	m.HandleFunc("POST /__sim/slow-writes", adminControl(s, func(in struct {
		Delay   string `json:"delay"`
		Upserts int    `json:"upserts"`
	}) string {
		d, err := time.ParseDuration(in.Delay)
		if err != nil || d <= 0 || in.Upserts < 0 {
			return "delay deve ser uma duração positiva, por exemplo \"12s\"; upserts, um inteiro não negativo."
		}
		s.SlowWrites(d, in.Upserts)
		return ""
	}))
	m.HandleFunc("DELETE /__sim/slow-writes", s.adminDo(func() { s.SlowWrites(0, 0) }))
	m.HandleFunc("POST /__sim/expire-tokens", func(w http.ResponseWriter, r *http.Request) {
		n, err := s.ExpireTokens(r.Context())
		if err != nil {
			adminError(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, map[string]int64{"expired": n})
	})
	m.HandleFunc("POST /__sim/page-size", adminControl(s, func(in struct {
		Size int `json:"size"`
	}) string {
		if in.Size <= 0 {
			return "size deve ser um inteiro positivo."
		}
		s.SetPageSize(in.Size)
		return ""
	}))
	m.HandleFunc("POST /__sim/slowness", adminControl(s, func(in struct {
		Delay string `json:"delay"`
	}) string {
		d, err := time.ParseDuration(in.Delay)
		if err != nil || d < 0 {
			return "delay deve ser uma duração, por exemplo \"2s\"."
		}
		s.SetDelay(d)
		return ""
	}))
	m.HandleFunc("DELETE /__sim/slowness", s.adminDo(func() { s.SetDelay(0) }))
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
		writeJSON(w, http.StatusOK, StatsAnswer{Requests: s.Stats(), APIUsage: used, APILimit: limit, LimitInfo: s.LimitInfoValue()})
	})
	m.HandleFunc("POST /__sim/api-usage", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Used     *int64 `json:"used"`
			Limit    int64  `json:"limit"`
			Form     string `json:"form"`
			AppUsed  int64  `json:"appUsed"`
			AppLimit int64  `json:"appLimit"`
		}
		if !decodeAdmin(w, r, &in) {
			return
		}
		if in.Used == nil || *in.Used < 0 || in.Limit < 0 || in.AppUsed < 0 || in.AppLimit < 0 {
			adminError(w, http.StatusBadRequest, "Informe \"used\" (e \"limit\", \"appUsed\", \"appLimit\", opcionais) como inteiros não negativos.")
			return
		}
		if in.Form != "" {
			if err := s.LimitInfo(in.Form, in.AppUsed, in.AppLimit); err != nil {
				adminError(w, http.StatusBadRequest, err.Error())
				return
			}
		}
		s.SetAPIUsage(*in.Used, in.Limit)
		used, limit := s.APIUsage()
		writeJSON(w, http.StatusOK, StatsAnswer{Requests: s.Stats(), APIUsage: used, APILimit: limit, LimitInfo: s.LimitInfoValue()})
	})
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		adminError(w, http.StatusNotFound, "Rota desconhecida do simulador; veja GET /__sim/.")
	})
	return m
}
