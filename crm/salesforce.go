package crm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
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

	"oportuna/cnpj"
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
			return status, apiError(status, data)
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

// transientCodes are refusals that a later try may not meet.
var transientCodes = map[string]bool{
	"REQUEST_LIMIT_EXCEEDED": true, "SERVER_UNAVAILABLE": true, "UNABLE_TO_LOCK_ROW": true,
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

// FindAccount returns the Id of the one Account holding the CNPJ, masked or not.
func (s *Salesforce) FindAccount(ctx context.Context, doc string) (string, error) {
	doc = cnpj.Normalize(doc)
	if doc == "" {
		return "", fmt.Errorf("%w: empty CNPJ", ErrCustomerNotFound)
	}
	f := s.cfg.Fields.AccountCNPJ
	soql := fmt.Sprintf("SELECT Id, Name FROM Account WHERE %s IN (%s, %s) LIMIT 2", f, Quote(doc), Quote(cnpj.Format(doc)))
	recs, err := queryAs[struct{ Id, Name string }](ctx, s, soql)
	switch {
	case err != nil:
		return "", err
	case len(recs) == 0:
		return "", fmt.Errorf("%w: no Account with %s %s", ErrCustomerNotFound, f, cnpj.Format(doc))
	case len(recs) > 1:
		return "", fmt.Errorf("%w: several Accounts with %s %s (%s, %s)", ErrMultipleMatches, f, cnpj.Format(doc), recs[0].Id, recs[1].Id)
	}
	return recs[0].Id, nil
}

type existingOpportunity struct {
	ID        string `json:"Id"`
	IsClosed  bool   `json:"IsClosed"`
	StageName string `json:"StageName"`
}

// existing reads the opportunity holding our id, nil when there is none.
func (s *Salesforce) existing(ctx context.Context, id string) (*existingOpportunity, error) {
	var rec existingOpportunity
	_, err := s.call(ctx, http.MethodGet, s.oppPath(id)+"?fields=Id,IsClosed,StageName", nil, &rec)
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &rec, nil
}

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

// activeUser reports whether id is an active user (a seller picked earlier may
// have left the company since).
func (s *Salesforce) activeUser(ctx context.Context, id string) (bool, error) {
	if !recordID.MatchString(id) {
		return false, nil
	}
	recs, err := s.Query(ctx, "SELECT Id FROM User WHERE Id = "+Quote(id)+" AND IsActive = true LIMIT 1")
	return len(recs) == 1, err
}

// UpsertOpportunity finds the customer's Account, upserts the opportunity by
// our external id and replaces its line items when they changed. It returns the
// CRM's record id. Repeating it after any failure converges to one record with
// the lines given.
func (s *Salesforce) UpsertOpportunity(ctx context.Context, o Opportunity) (string, error) {
	accountID, err := s.FindAccount(ctx, o.CustomerDoc)
	if err != nil {
		return "", err
	}
	prev, err := s.existing(ctx, o.ID)
	if err != nil {
		return "", err
	}
	stage := s.stage(o.Status)
	if prev != nil && prev.IsClosed {
		switch {
		case strings.EqualFold(prev.StageName, stage):
			// Already closed at the stage we write (an expiry synced again after
			// a lost answer): nothing to change.
			return prev.ID, nil
		case o.Reopen && strings.EqualFold(prev.StageName, s.stage(opportunity.Expired)):
			// A renewal approved after the portal closed the record at its expiry.
			slog.InfoContext(ctx, "crm: reopening the opportunity closed at its expiry", "opportunity", o.ID, "crm_id", prev.ID, "stage", stage)
		default:
			return "", fmt.Errorf("%w: opportunity %s is %q in the CRM", ErrLocked, prev.ID, prev.StageName)
		}
	}
	f := s.cfg.Fields
	body := map[string]any{
		"Name":        truncate(o.Name, 120),
		"AccountId":   accountID,
		"StageName":   stage,
		"CloseDate":   o.CloseDate.Format("2006-01-02"),
		"Probability": o.Probability,
		"Description": truncate(o.Description, 32000),
	}
	var lines []lineRecord
	if len(o.Lines) > 0 {
		pb, err := s.pricebookID(ctx)
		if err != nil {
			return "", err
		}
		if lines, err = s.lineRecords(ctx, pb, o.Lines); err != nil {
			return "", err
		}
		body["Pricebook2Id"] = pb
	} else {
		body["Amount"] = json.Number(o.Amount.String())
	}
	if f.OpportunityBrand != "" {
		body[f.OpportunityBrand] = o.Brand
	}
	if f.OpportunityReseller != "" && o.Reseller != "" {
		body[f.OpportunityReseller] = truncate(o.Reseller, 255)
	}
	if f.OpportunitySeller != "" && o.SellerCRMID != "" {
		ok, err := s.activeUser(ctx, o.SellerCRMID)
		if err != nil {
			return "", err
		}
		if ok {
			body[f.OpportunitySeller] = o.SellerCRMID
		} else {
			slog.WarnContext(ctx, "crm: the seller is not an active CRM user; the opportunity keeps its owner", "opportunity", o.ID, "seller", o.SellerCRMID)
		}
	}
	var res struct {
		ID      string    `json:"id"`
		Success bool      `json:"success"`
		Created bool      `json:"created"`
		Errors  []sfError `json:"errors"`
	}
	status, err := s.call(ctx, http.MethodPatch, s.oppPath(o.ID), body, &res)
	if err != nil {
		return "", err
	}
	id := res.ID
	if id == "" && prev != nil {
		id = prev.ID // 204 No Content: an update before API 46.0
	}
	if id == "" {
		again, err := s.existing(ctx, o.ID)
		if err != nil {
			return "", err
		}
		if again == nil {
			return "", fmt.Errorf("crm: upsert of %s answered %d without a record id", o.ID, status)
		}
		id = again.ID
	}
	if len(lines) > 0 || prev != nil {
		if err := s.replaceLines(ctx, id, lines); err != nil {
			return "", err
		}
	}
	slog.InfoContext(ctx, "crm: opportunity upserted", "opportunity", o.ID, "crm_id", id, "created", status == http.StatusCreated, "lines", len(lines))
	return id, nil
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

// pricebookID is the configured price book, else the standard one.
func (s *Salesforce) pricebookID(ctx context.Context) (string, error) {
	s.mu.Lock()
	pb := s.pricebook
	s.mu.Unlock()
	if pb != "" {
		return pb, nil
	}
	recs, err := queryAs[struct{ Id string }](ctx, s, "SELECT Id FROM Pricebook2 WHERE IsStandard = true LIMIT 1")
	if err != nil {
		return "", err
	}
	if len(recs) == 0 {
		return "", errors.New("crm: the CRM has no standard price book; set SALESFORCE_PRICEBOOK_ID")
	}
	s.mu.Lock()
	s.pricebook = recs[0].Id
	s.mu.Unlock()
	return recs[0].Id, nil
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

// lineRecords finds the price-book entry of each line: its part number's
// product, else the generic product (which then carries the part number in the
// line's description).
func (s *Salesforce) lineRecords(ctx context.Context, pricebook string, items []LineItem) ([]lineRecord, error) {
	codes := map[string]bool{}
	var list []string
	add := func(c string) {
		if k := strings.ToUpper(strings.TrimSpace(c)); k != "" && !codes[k] {
			codes[k] = true
			list = append(list, Quote(strings.TrimSpace(c)))
		}
	}
	for _, it := range items {
		add(it.PartNumber)
	}
	add(s.cfg.GenericProductCode)
	entries := map[string]string{} // upper-cased product code → entry id
	if len(list) > 0 {
		recs, err := queryAs[struct{ Id, ProductCode string }](ctx, s, fmt.Sprintf(
			"SELECT Id, ProductCode FROM PricebookEntry WHERE Pricebook2Id = %s AND IsActive = true AND ProductCode IN (%s)",
			Quote(pricebook), strings.Join(list, ", ")))
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			k := strings.ToUpper(r.ProductCode)
			if _, dup := entries[k]; !dup {
				entries[k] = r.Id
			}
		}
	}
	generic := entries[strings.ToUpper(s.cfg.GenericProductCode)]
	var out []lineRecord
	for _, it := range items {
		if it.Quantity <= 0 {
			continue
		}
		desc := strings.TrimSpace(it.Description)
		entry := entries[strings.ToUpper(strings.TrimSpace(it.PartNumber))]
		if entry == "" {
			if generic == "" {
				return nil, fmt.Errorf("crm: part number %q is not in the price book and the generic product %q is missing", it.PartNumber, s.cfg.GenericProductCode)
			}
			entry = generic
			if pn := strings.TrimSpace(it.PartNumber); pn != "" {
				desc = strings.TrimSpace(pn + " — " + desc)
			}
		}
		if it.Accessory {
			desc = "[Acessório] " + desc
		}
		price, _ := json.Number(it.UnitPrice.String()).Float64()
		out = append(out, lineRecord{PricebookEntryID: entry, Quantity: float64(it.Quantity), UnitPrice: price, Description: truncate(desc, 255)})
	}
	return out, nil
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

// replaceLines makes the opportunity's line items the given ones: nothing is
// written when they already are; otherwise the old lines are deleted and the
// new ones inserted (sObject Collections, all or none), so a retry after any
// failure ends with exactly these lines.
func (s *Salesforce) replaceLines(ctx context.Context, oppID string, want []lineRecord) error {
	have, err := queryAs[lineRecord](ctx, s, "SELECT Id, PricebookEntryId, Quantity, UnitPrice, Description FROM OpportunityLineItem WHERE OpportunityId = "+Quote(oppID)+" ORDER BY Id")
	if err != nil {
		return err
	}
	if sameLines(have, want) {
		return nil
	}
	for i := 0; i < len(have); i += 200 {
		chunk := have[i:min(i+200, len(have))]
		ids := make([]string, len(chunk))
		for j, l := range chunk {
			ids[j] = l.ID
		}
		var res []collectionResult
		if _, err := s.call(ctx, http.MethodDelete, s.dataPath("/composite/sobjects?allOrNone=true&ids="+strings.Join(ids, ",")), nil, &res); err != nil {
			return err
		}
		if err := collectionError(res); err != nil {
			return err
		}
	}
	type record struct {
		Attributes map[string]string `json:"attributes"`
		OppID      string            `json:"OpportunityId"`
		lineRecord
	}
	for i := 0; i < len(want); i += 200 {
		chunk := want[i:min(i+200, len(want))]
		recs := make([]record, len(chunk))
		for j, l := range chunk {
			recs[j] = record{Attributes: map[string]string{"type": "OpportunityLineItem"}, OppID: oppID, lineRecord: l}
		}
		var res []collectionResult
		if _, err := s.call(ctx, http.MethodPost, s.dataPath("/composite/sobjects"), map[string]any{"allOrNone": true, "records": recs}, &res); err != nil {
			return err
		}
		if err := collectionError(res); err != nil {
			return err
		}
	}
	return nil
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
