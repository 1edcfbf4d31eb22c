package crm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/sync/singleflight"

	"oportuna/opportunity"
)

// Salesforce is the client of the Salesforce REST API: an OAuth 2.0 token
// (client credentials or JWT bearer, renewed after INVALID_SESSION_ID), SOQL
// queries followed through nextRecordsUrl, the opportunity upserted by our
// external id, its products as OpportunityLineItem records.
type Salesforce struct {
	cfg  SalesforceConfig
	http *http.Client

	mu        sync.Mutex // guards the session's fields, never held during a call
	login     singleflight.Group
	token     string
	instance  string // instance_url of the token response
	pricebook string // the standard price book's id, once read

	usage apiUsage // the org's API usage, from the last Sforce-Limit-Info header
}

// NewSalesforce validates cfg and returns a client; hc may be nil.
func NewSalesforce(cfg SalesforceConfig, hc *http.Client) (*Salesforce, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if hc == nil {
		hc = &http.Client{}
	}
	return &Salesforce{cfg: cfg, http: hc, pricebook: cfg.PricebookID}, nil
}

// Config is the client's configuration (after defaults).
func (s *Salesforce) Config() SalesforceConfig { return s.cfg }

// maxBody bounds what is read of one response.
const maxBody = 16 << 20

// --- session --------------------------------------------------------------------

type tokenResponse struct {
	AccessToken string `json:"access_token"`
	InstanceURL string `json:"instance_url"`
	TokenType   string `json:"token_type"`
	IssuedAt    string `json:"issued_at"`
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// session returns the cached access token, asking for one when there is none.
// Callers that need a token at the same time share one token request, made
// under the context of the caller that started it; each waits only as long as
// its own context allows. When the caller that started the request gives up
// (its attempt timed out), the request is cancelled with it, and those still
// waiting ask again under their own context: a token request never outlives
// every caller that wants it, so a CRM that recovers is used at once.
func (s *Salesforce) session(ctx context.Context) (token, instance string, err error) {
	for {
		s.mu.Lock()
		token, instance = s.token, s.instance
		s.mu.Unlock()
		if token != "" {
			return token, instance, nil
		}
		answer := s.login.DoChan("token", func() (any, error) {
			t, i, err := s.requestToken(ctx)
			if err != nil && ctx.Err() != nil {
				return nil, errStarterGone{err}
			}
			if err == nil {
				s.mu.Lock()
				s.token, s.instance = t, i
				s.mu.Unlock()
			}
			return [2]string{t, i}, err
		})
		select {
		case r := <-answer:
			var gone errStarterGone
			switch {
			case r.Err == nil:
				ti := r.Val.([2]string)
				return ti[0], ti[1], nil
			case errors.As(r.Err, &gone) && ctx.Err() == nil:
				continue // another caller's request, cut short by its context: ask again
			case errors.As(r.Err, &gone):
				return "", "", gone.err
			default:
				return "", "", r.Err
			}
		case <-ctx.Done():
			return "", "", fmt.Errorf("%w: waiting for a token: %w", ErrUnavailable, ctx.Err())
		}
	}
}

// errStarterGone: the shared token request failed because the context of the
// caller that started it ended.
type errStarterGone struct{ err error }

func (e errStarterGone) Error() string { return e.err.Error() }
func (e errStarterGone) Unwrap() error { return e.err }

// requestToken asks the token endpoint for an access token (send bounds it by
// the configured timeout).
func (s *Salesforce) requestToken(ctx context.Context) (token, instance string, err error) {
	form := url.Values{"client_id": {s.cfg.ClientID}}
	switch s.cfg.Flow {
	case FlowJWT:
		assertion, err := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{
			"iss": s.cfg.ClientID, "sub": s.cfg.Username, "aud": s.cfg.JWTAudience,
			"exp": time.Now().Add(3 * time.Minute).Unix(),
		}).SignedString(s.cfg.PrivateKey)
		if err != nil {
			return "", "", fmt.Errorf("crm: sign JWT assertion: %w", err)
		}
		form = url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"}, "assertion": {assertion}}
	default:
		form.Set("grant_type", "client_credentials")
		form.Set("client_secret", s.cfg.ClientSecret)
	}
	status, data, err := s.send(ctx, http.MethodPost, s.cfg.URL+"/services/oauth2/token", "",
		"application/x-www-form-urlencoded", []byte(form.Encode()))
	if err != nil {
		return "", "", err
	}
	var tr tokenResponse
	_ = json.Unmarshal(data, &tr)
	if status != http.StatusOK || tr.AccessToken == "" {
		if tr.Error == "" { // not an OAuth answer: an error array or a proxy's page
			if status == http.StatusOK {
				return "", "", newAPIError(status, "TOKEN_REQUEST_FAILED", "no access_token in the answer")
			}
			return "", "", apiError(status, data)
		}
		e := &APIError{Status: status, Code: tr.Error, Message: tr.Description}
		if status >= 500 || status == http.StatusTooManyRequests {
			e.kind = ErrUnavailable
		}
		return "", "", e
	}
	instance = strings.TrimRight(tr.InstanceURL, "/")
	if instance == "" {
		instance = s.cfg.URL
	}
	return tr.AccessToken, instance, nil
}

// dropSession forgets a token the server refused (unless already replaced).
func (s *Salesforce) dropSession(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.token == token {
		s.token = ""
	}
}

// --- HTTP -----------------------------------------------------------------------

// send makes one HTTP call within the configured timeout and reads the answer.
// Network failures and timeouts are ErrUnavailable.
func (s *Salesforce) send(ctx context.Context, method, target, token, contentType string, body []byte) (int, []byte, error) {
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(cctx, method, target, rd)
	if err != nil {
		return 0, nil, fmt.Errorf("crm: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := s.http.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %s %s: %w", ErrUnavailable, method, redactQuery(target), err)
	}
	defer res.Body.Close()
	s.usage.note(res.Header.Get(LimitInfoHeader))
	data, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %s %s: reading the answer: %w", ErrUnavailable, method, redactQuery(target), err)
	}
	return res.StatusCode, data, nil
}

func redactQuery(u string) string {
	if i := strings.IndexByte(u, '?'); i >= 0 {
		return u[:i]
	}
	return u
}

// call sends an API request (path from /services/data/...) with the session's
// token; a 401 gets a new token and one more try. A 2xx answer is decoded into
// out (when given); anything else is an *APIError.
func (s *Salesforce) call(ctx context.Context, method, path string, body, out any) (int, error) {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return 0, fmt.Errorf("crm: encode %s %s: %w", method, path, err)
		}
	}
	for attempt := 0; ; attempt++ {
		token, instance, err := s.session(ctx)
		if err != nil {
			return 0, err
		}
		ct := ""
		if payload != nil {
			ct = "application/json"
		}
		status, data, err := s.send(ctx, method, instance+path, token, ct, payload)
		if err != nil {
			return 0, err
		}
		if status == http.StatusUnauthorized && attempt == 0 {
			// INVALID_SESSION_ID: the session expired or was revoked.
			s.dropSession(token)
			continue
		}
		if status < 200 || status > 299 {
			err := apiError(status, data)
			var e *APIError
			if errors.As(err, &e) && e.Code == codeRequestLimitExceeded {
				s.usage.refused() // the org is past its limit, whatever the header said
			}
			return status, err
		}
		if out != nil && len(bytes.TrimSpace(data)) > 0 {
			if err := json.Unmarshal(data, out); err != nil {
				return status, fmt.Errorf("crm: decode %s %s: %w", method, redactQuery(path), err)
			}
		}
		return status, nil
	}
}

// sfError is an entry of Salesforce's error array; collections say statusCode.
type sfError struct {
	Message    string   `json:"message"`
	ErrorCode  string   `json:"errorCode"`
	StatusCode string   `json:"statusCode"`
	Fields     []string `json:"fields"`
}

func (e sfError) code() string {
	if e.ErrorCode != "" {
		return e.ErrorCode
	}
	return e.StatusCode
}

// codeRequestLimitExceeded: the org's API requests of the last 24 hours are
// past its limit (HTTP 403).
const codeRequestLimitExceeded = "REQUEST_LIMIT_EXCEEDED"

// transientCodes are refusals that a later try may not meet.
var transientCodes = map[string]bool{
	codeRequestLimitExceeded: true, "SERVER_UNAVAILABLE": true, "UNABLE_TO_LOCK_ROW": true,
	"QUERY_TIMEOUT": true, "CONCURRENT_REQUESTS_LIMIT_EXCEEDED": true,
}

func newAPIError(status int, code, msg string) *APIError {
	e := &APIError{Status: status, Code: code, Message: msg}
	switch {
	case status == http.StatusMultipleChoices:
		e.kind = ErrMultipleMatches
	case code == "ENTITY_IS_LOCKED":
		e.kind = ErrLocked
	case status >= 500 || status == http.StatusTooManyRequests || transientCodes[code]:
		e.kind = ErrUnavailable
	}
	return e
}

func apiError(status int, data []byte) error {
	if status == http.StatusMultipleChoices {
		var urls []string
		_ = json.Unmarshal(data, &urls)
		return newAPIError(status, "MULTIPLE_CHOICES", fmt.Sprintf("%d records match: %s", len(urls), strings.Join(urls, ", ")))
	}
	var errs []sfError
	if json.Unmarshal(data, &errs) == nil && len(errs) > 0 {
		return newAPIError(status, errs[0].code(), errs[0].Message)
	}
	return newAPIError(status, "", snippet(data))
}

func snippet(data []byte) string {
	s := strings.TrimSpace(string(data))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

func (s *Salesforce) dataPath(rest string) string {
	return "/services/data/" + s.cfg.APIVersion + rest
}

// --- SOQL -------------------------------------------------------------------------

type queryPage struct {
	TotalSize      int               `json:"totalSize"`
	Done           bool              `json:"done"`
	NextRecordsURL string            `json:"nextRecordsUrl"`
	Records        []json.RawMessage `json:"records"`
}

// Query runs a SOQL query and returns every record, following nextRecordsUrl.
func (s *Salesforce) Query(ctx context.Context, soql string) ([]json.RawMessage, error) {
	path := s.dataPath("/query?q=" + url.QueryEscape(soql))
	var all []json.RawMessage
	for {
		var page queryPage
		if _, err := s.call(ctx, http.MethodGet, path, nil, &page); err != nil {
			return nil, err
		}
		all = append(all, page.Records...)
		if page.Done || page.NextRecordsURL == "" {
			return all, nil
		}
		if !strings.HasPrefix(page.NextRecordsURL, "/services/data/") {
			return nil, fmt.Errorf("crm: unexpected nextRecordsUrl %q", page.NextRecordsURL)
		}
		path = page.NextRecordsURL
	}
}

func queryAs[T any](ctx context.Context, s *Salesforce, soql string) ([]T, error) {
	raw, err := s.Query(ctx, soql)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			return nil, fmt.Errorf("crm: decode record: %w", err)
		}
	}
	return out, nil
}

var soqlEscaper = strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`, "\t", `\t`, "\"", `\"`)

// Quote writes s as a SOQL string literal.
func Quote(s string) string { return "'" + soqlEscaper.Replace(s) + "'" }

// --- sellers ----------------------------------------------------------------------

// Sellers lists the active standard users of the brand, by name.
func (s *Salesforce) Sellers(ctx context.Context, brand string) ([]Seller, error) {
	f := s.cfg.Fields
	cols := "Id, Name"
	if f.UserCompany != "" {
		cols += ", " + f.UserCompany
	}
	soql := "SELECT " + cols + " FROM User WHERE IsActive = true AND UserType = 'Standard'"
	if f.UserBrand != "" {
		soql += " AND " + f.UserBrand + " = " + Quote(brand)
	}
	soql += " ORDER BY Name"
	recs, err := queryAs[map[string]any](ctx, s, soql)
	if err != nil {
		return nil, err
	}
	out := make([]Seller, 0, len(recs))
	for _, r := range recs {
		out = append(out, Seller{Name: field(r, "Name"), UserID: field(r, "Id"), Company: field(r, f.UserCompany)})
	}
	return out, nil
}

// field reads a text field of a record, matching the name without regard to case.
func field(rec map[string]any, name string) string {
	if name == "" {
		return ""
	}
	for k, v := range rec {
		if strings.EqualFold(k, name) {
			if s, ok := v.(string); ok {
				return s
			}
			return ""
		}
	}
	return ""
}

// --- opportunity --------------------------------------------------------------------

// GetOpportunity reads the opportunity holding our id (one SOQL query by the
// external id); ErrNotFound when there is none, ErrMultipleMatches when several.
func (s *Salesforce) GetOpportunity(ctx context.Context, id string) (Record, error) {
	recs, err := s.GetOpportunities(ctx, []string{id})
	if err != nil {
		return Record{}, err
	}
	r, ok := recs[id]
	switch {
	case !ok:
		return Record{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	case r.Matches > 1:
		return r, fmt.Errorf("%w: %d opportunities hold %s", ErrMultipleMatches, r.Matches, id)
	}
	return r, nil
}

// lookupChunk bounds the ids of one query (its URL stays far below Salesforce's 16 KB).
const lookupChunk = 100

// GetOpportunities reads the opportunities holding our ids, one SOQL query per
// lookupChunk ids; the stage is read back to our statuses through the stage map.
func (s *Salesforce) GetOpportunities(ctx context.Context, ids []string) (map[string]Record, error) {
	ext := s.cfg.Fields.OpportunityExternalID
	stages := DefaultStages()
	for st, v := range s.cfg.Stages {
		stages[st] = v
	}
	out := map[string]Record{}
	for i := 0; i < len(ids); i += lookupChunk {
		chunk := ids[i:min(i+lookupChunk, len(ids))]
		quoted := make([]string, len(chunk))
		for j, id := range chunk {
			quoted[j] = Quote(id)
		}
		recs, err := queryAs[map[string]any](ctx, s, fmt.Sprintf("SELECT Id, Name, StageName, Probability, IsClosed, %s FROM Opportunity WHERE %s IN (%s)",
			ext, ext, strings.Join(quoted, ", ")))
		if err != nil {
			return nil, err
		}
		for _, rec := range recs {
			id := field(rec, ext)
			if r, dup := out[id]; dup {
				r.Matches++
				out[id] = r
				continue
			}
			stage := field(rec, "StageName")
			prob, _ := rec["Probability"].(float64)
			closed, _ := rec["IsClosed"].(bool)
			out[id] = Record{CRMID: field(rec, "Id"), ID: id, Name: field(rec, "Name"), Stage: stage,
				Probability: int(math.Round(prob)), Closed: closed, Statuses: StatusesOf(stages, stage), Matches: 1}
		}
	}
	return out, nil
}

func (s *Salesforce) oppPath(id string) string {
	return s.dataPath("/sobjects/Opportunity/" + s.cfg.Fields.OpportunityExternalID + "/" + url.PathEscape(id))
}

// stage is the CRM stage of a status: the configured map, else the default one.
func (s *Salesforce) stage(st opportunity.Status) string {
	if v := s.cfg.Stages[st]; v != "" {
		return v
	}
	if v := DefaultStages()[st]; v != "" {
		return v
	}
	return DefaultStages()[opportunity.Analysis]
}

func truncate(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// lineRecord is an OpportunityLineItem as written and as compared.
type lineRecord struct {
	ID               string  `json:"Id,omitempty"`
	PricebookEntryID string  `json:"PricebookEntryId"`
	Quantity         float64 `json:"Quantity"`
	UnitPrice        float64 `json:"UnitPrice"`
	Description      string  `json:"Description"`
}

func (l lineRecord) key() string {
	return fmt.Sprintf("%s|%d|%d|%s", strings.ToUpper(l.PricebookEntryID), int64(math.Round(l.Quantity*1000)),
		int64(math.Round(l.UnitPrice*100)), l.Description)
}

// collectionResult is one entry of an sObject Collections answer.
type collectionResult struct {
	ID      string    `json:"id"`
	Success bool      `json:"success"`
	Errors  []sfError `json:"errors"`
}

func collectionError(results []collectionResult) error {
	var first *sfError
	for _, r := range results {
		for i := range r.Errors {
			e := r.Errors[i]
			if e.code() == "ENTITY_IS_DELETED" {
				continue // already gone: what a delete wanted
			}
			if first == nil || first.code() == "ALL_OR_NONE_OPERATION_ROLLED_BACK" {
				first = &e
			}
		}
	}
	if first == nil {
		return nil
	}
	return newAPIError(http.StatusBadRequest, first.code(), first.Message)
}

func sameLines(a, b []lineRecord) bool {
	if len(a) != len(b) {
		return false
	}
	ka, kb := make([]string, len(a)), make([]string, len(b))
	for i := range a {
		ka[i], kb[i] = a[i].key(), b[i].key()
	}
	sort.Strings(ka)
	sort.Strings(kb)
	for i := range ka {
		if ka[i] != kb[i] {
			return false
		}
	}
	return true
}
