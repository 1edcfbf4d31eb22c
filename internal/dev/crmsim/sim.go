// Package crmsim is the local stand-in for Salesforce: an HTTP server that
// implements exactly the endpoints crm.Salesforce calls (OAuth 2.0 token, SOQL
// query with nextRecordsUrl paging, Opportunity by external id, sObject
// Collections for line items, the Composite resource that carries them), with
// the same JSON shapes, error arrays and Sforce-Limit-Info header, counts the
// requests it answers (Stats), and keeps its records in PostgreSQL, in its own
// schema crm_sim that it creates itself (Seed), so a person can see what was
// synced. It is built only into development binaries (-tags dev; the default
// build of cmd/oportuna, the production one, leaves it out). An admin API under /__sim/ (and the Sim's methods) makes it fail on
// demand: outage, rate limit, lost responses, slowness, missing or duplicated
// customer, locked or closed opportunity, revoked sessions.
//
// Customers: the first lookup of a CNPJ with valid check digits creates its
// Account (a fictitious company), unless the CNPJ was marked missing or its
// order number (the four digits after the slash) is 9999. Sellers: a few
// fictitious active users per brand, plus an inactive one.
package crmsim

import (
	"bytes"
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/brand"
	"oportuna/crm"
	"oportuna/opportunity"
)

// Credentials the stand-in accepts by default (ClientConfig uses them).
const (
	DevClientID     = "oportuna-dev"
	DevClientSecret = "oportuna-dev-secret"
	DevUsername     = "integracao@oportuna.dev"
)

// DefaultPageSize is Salesforce's default query batch.
const DefaultPageSize = 2000

// Options configure the stand-in.
type Options struct {
	Brands          *brand.Registry // a few CRM users (sellers) are made for each brand
	SellersPerBrand int             // active sellers per brand (default 3)
	Fields          crm.Fields      // API names, as the client is configured (zero: crm.DefaultFields())
	ClientID        string          // connected app consumer key (default DevClientID)
	ClientSecret    string          // client-credentials secret (default DevClientSecret)
	Username        string          // the JWT bearer flow's user (default DevUsername)
	JWTPublicKey    *rsa.PublicKey  // verifies JWT bearer assertions; nil refuses that flow
	JWTAudience     string          // expected aud of assertions (default crm.DefaultJWTAudience)
	PageSize        int             // records per query page (default 2000)
	InstanceURL     string          // instance_url of token answers (default: the request's own base URL)
	// Stages is the client's mapping of our statuses to stages (default
	// crm.DefaultStages()); its stage names are accepted besides Salesforce's standard ones.
	Stages         map[opportunity.Status]string
	GenericProduct string // product code of the generic catalogue item (default crm.DefaultGenericProductCode)
	// APILimit is the org's daily API request limit reported in
	// Sforce-Limit-Info (default DefaultAPILimit). Past it every API call
	// answers 403 REQUEST_LIMIT_EXCEEDED, unless LimitInfoForm is
	// LimitInfoBursts (the org runs on its burst allowance).
	APILimit int64
	// LimitInfoForm is the form of the Sforce-Limit-Info header (default
	// LimitInfoPlain); AppName and AppLimit are the connected app's quota of
	// the LimitInfoPerApp form (defaults "oportuna" and DefaultAppLimit).
	LimitInfoForm string
	AppName       string
	AppLimit      int64
	// SessionTimeout: an access token unused this long answers
	// INVALID_SESSION_ID (default DefaultSessionTimeout, Salesforce's default).
	SessionTimeout time.Duration
	Logger         *slog.Logger
}

// Forms of the Sforce-Limit-Info header (REST API Developer Guide, "Limit Info Header").
const (
	LimitInfoPlain  = "plain"   // api-usage=18/100000
	LimitInfoPerApp = "per_app" // api-usage=25/100000; per-app-api-usage=17/250(appName=oportuna)
	LimitInfoBursts = "bursts"  // api-usage=110018/100000; api-bursts=1/750
)

// Defaults of the limit header and the sessions.
const (
	DefaultAppLimit       = 25000
	DefaultBurstsLimit    = 750
	DefaultSessionTimeout = 2 * time.Hour
)

// Request is one call the stand-in answered (the admin API's excluded), or
// one subrequest of a Composite call (Composite names it).
type Request struct {
	Method string    `json:"method"`
	Path   string    `json:"path"`
	SOQL   string    `json:"soql,omitempty"`
	Status int       `json:"status"`
	At     time.Time `json:"at"`
	// Composite is the referenceId of a subrequest of a Composite call; empty
	// for an HTTP request.
	Composite string `json:"composite,omitempty"`
}

// Failure kinds of an outage.
const (
	KindUnavailable  = "unavailable"   // 503 SERVER_UNAVAILABLE before anything happens
	KindRateLimit    = "rate_limit"    // 403 REQUEST_LIMIT_EXCEEDED
	KindLostResponse = "lost_response" // writes are done, then answered 503 (a timeout after commit)
	// KindCommitThen503 is KindLostResponse by the name the chaos runs use.
	KindCommitThen503 = "commit_then_503"
)

type outage struct {
	kind      string
	skip      int // calls that pass before the failures start
	remaining int // failing calls left; -1 until cleared
}

// Sim is the stand-in; it is an http.Handler.
type Sim struct {
	db      *pgxpool.Pool
	opts    Options
	schemas map[string]*schema
	stages  map[string]bool
	api     *http.ServeMux
	admin   *http.ServeMux
	log     *slog.Logger

	seedMu sync.Mutex
	seeded bool

	mu       sync.Mutex
	out      outage
	delay    time.Duration
	cursors  map[string]*cursor
	requests []Request
	stats    map[string]int // HTTP requests by path class (PathClass)
	apiUsed  int64          // API requests of the "last 24 hours" (Sforce-Limit-Info)
	apiLimit int64
	limit    limitState // the rest of Sforce-Limit-Info
	pageSize int

	down       bool              // connections are dropped without an answer
	dupValues  int               // upserts left to answer DUPLICATE_VALUE
	writeDelay time.Duration     // an upsert holds its write this long before its transaction ends
	slowWrites int               // upserts left to hold (-1: until cleared)
	writing    map[string]string // external id → record id, of upserts whose transaction has not ended
}

// limitState is what Sforce-Limit-Info reports besides api-usage.
type limitState struct {
	form                    string
	app                     string
	appUsed, appLimit       int64
	burstsUsed, burstsLimit int64
}

// DefaultAPILimit is the daily API request limit the stand-in reports in
// Sforce-Limit-Info (an Enterprise org's base allocation).
const DefaultAPILimit = 100000

// dbtx is the pool, or the transaction of an all-or-none Composite call.
type dbtx interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Begin(ctx context.Context) (pgx.Tx, error)
}

type txKey struct{}

// subrequestKey holds, in a subrequest's context, the token of the Composite
// call it belongs to (checked once for the call).
type subrequestKey struct{}

// q is what an API handler writes through: the Composite call's transaction
// when it runs inside one, else the pool.
func (s *Sim) q(ctx context.Context) dbtx {
	if tx, ok := ctx.Value(txKey{}).(pgx.Tx); ok {
		return tx
	}
	return s.db
}

// standardStages are the Opportunity stages of a new Salesforce org.
var standardStages = []string{"Prospecting", "Qualification", "Needs Analysis", "Value Proposition", "Id. Decision Makers",
	"Perception Analysis", "Proposal/Price Quote", "Negotiation/Review", "Closed Won", "Closed Lost"}

// New returns the stand-in on db; Seed (or Start) creates its schema crm_sim.
func New(db *pgxpool.Pool, opts Options) *Sim {
	if opts.Fields == (crm.Fields{}) {
		opts.Fields = crm.DefaultFields()
	}
	if opts.ClientID == "" {
		opts.ClientID = DevClientID
	}
	if opts.ClientSecret == "" {
		opts.ClientSecret = DevClientSecret
	}
	if opts.Username == "" {
		opts.Username = DevUsername
	}
	if opts.JWTAudience == "" {
		opts.JWTAudience = crm.DefaultJWTAudience
	}
	if opts.PageSize <= 0 {
		opts.PageSize = DefaultPageSize
	}
	if opts.SellersPerBrand <= 0 {
		opts.SellersPerBrand = 3
	}
	if opts.GenericProduct == "" {
		opts.GenericProduct = crm.DefaultGenericProductCode
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.APILimit <= 0 {
		opts.APILimit = DefaultAPILimit
	}
	if opts.LimitInfoForm == "" {
		opts.LimitInfoForm = LimitInfoPlain
	}
	if opts.AppName == "" {
		opts.AppName = "oportuna"
	}
	if opts.AppLimit <= 0 {
		opts.AppLimit = DefaultAppLimit
	}
	if opts.SessionTimeout <= 0 {
		opts.SessionTimeout = DefaultSessionTimeout
	}
	s := &Sim{db: db, log: opts.Logger.With("component", "crm-sim"), cursors: map[string]*cursor{}, stages: map[string]bool{},
		stats: map[string]int{}, apiLimit: opts.APILimit, pageSize: opts.PageSize, writing: map[string]string{},
		limit: limitState{form: opts.LimitInfoForm, app: opts.AppName, appLimit: opts.AppLimit, burstsLimit: DefaultBurstsLimit}}
	if opts.Stages == nil {
		opts.Stages = crm.DefaultStages()
	}
	for _, st := range standardStages {
		s.stages[strings.ToLower(st)] = true
	}
	for _, st := range opts.Stages {
		s.stages[strings.ToLower(st)] = true
	}
	s.opts = opts
	s.schemas = buildSchemas(opts.Fields)
	s.api = http.NewServeMux()
	s.api.HandleFunc("POST /services/oauth2/token", s.handleToken)
	s.api.HandleFunc("GET /services/data/{version}/query", s.authed(s.handleQuery))
	s.api.HandleFunc("GET /services/data/{version}/query/{locator}", s.authed(s.handleQueryMore))
	s.api.HandleFunc("GET /services/data/{version}/sobjects/{object}/{field}/{value}", s.authed(s.handleGetByExternalID))
	s.api.HandleFunc("PATCH /services/data/{version}/sobjects/{object}/{field}/{value}", s.authed(s.handleUpsert))
	s.api.HandleFunc("POST /services/data/{version}/composite/sobjects", s.authed(s.handleCollectionCreate))
	s.api.HandleFunc("DELETE /services/data/{version}/composite/sobjects", s.authed(s.handleCollectionDelete))
	s.api.HandleFunc("POST /services/data/{version}/composite", s.authed(s.handleComposite))
	s.api.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeErrors(w, &sfError{404, "NOT_FOUND", "The requested resource does not exist"})
	})
	s.admin = s.adminRoutes()
	return s
}

// ClientConfig is the configuration of a crm.Salesforce client that talks to
// this stand-in served at baseURL (client-credentials flow).
func (s *Sim) ClientConfig(baseURL string) crm.SalesforceConfig {
	return crm.SalesforceConfig{
		URL: strings.TrimRight(baseURL, "/"), Flow: crm.FlowClientCredentials,
		ClientID: s.opts.ClientID, ClientSecret: s.opts.ClientSecret, Username: s.opts.Username,
		APIVersion: crm.DefaultAPIVersion, Timeout: crm.DefaultTimeout, Fields: s.opts.Fields,
		GenericProductCode: s.opts.GenericProduct, Stages: s.opts.Stages,
	}
}

// OptionsFromEnv reads the stand-in's settings from the same variables as the
// client (SALESFORCE_CLIENT_ID, SALESFORCE_CLIENT_SECRET, SALESFORCE_USERNAME,
// the field names, SALESFORCE_STAGE_MAP's stages, SALESFORCE_GENERIC_PRODUCT_CODE)
// plus CRM_SIM_JWT_PUBLIC_KEY / CRM_SIM_JWT_PUBLIC_KEY_FILE (PEM public key or
// certificate of the JWT flow) and CRM_SIM_PAGE_SIZE.
func OptionsFromEnv(getenv func(string) string, brands *brand.Registry) (Options, error) {
	o := Options{Brands: brands, ClientID: getenv("SALESFORCE_CLIENT_ID"), ClientSecret: getenv("SALESFORCE_CLIENT_SECRET"),
		Username: getenv("SALESFORCE_USERNAME"), JWTAudience: getenv("SALESFORCE_JWT_AUDIENCE")}
	o.Fields, o.GenericProduct = crm.FieldsFromEnv(getenv), crm.GenericProductFromEnv(getenv)
	var err error
	if o.Stages, err = crm.StagesFromEnv(getenv); err != nil {
		return o, err
	}
	if v := getenv("CRM_SIM_PAGE_SIZE"); v != "" {
		if o.PageSize, err = strconv.Atoi(v); err != nil || o.PageSize <= 0 {
			return o, fmt.Errorf("CRM_SIM_PAGE_SIZE: %q is not a positive integer", v)
		}
	}
	pemText := strings.ReplaceAll(getenv("CRM_SIM_JWT_PUBLIC_KEY"), `\n`, "\n")
	if f := getenv("CRM_SIM_JWT_PUBLIC_KEY_FILE"); pemText == "" && f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return o, fmt.Errorf("CRM_SIM_JWT_PUBLIC_KEY_FILE: %w", err)
		}
		pemText = string(b)
	}
	if pemText != "" {
		if o.JWTPublicKey, err = ParsePublicKey([]byte(pemText)); err != nil {
			return o, fmt.Errorf("CRM_SIM_JWT_PUBLIC_KEY: %w", err)
		}
	}
	return o, nil
}

// ParsePublicKey reads an RSA public key from PEM: PUBLIC KEY, RSA PUBLIC KEY or
// CERTIFICATE (the certificate uploaded to the connected app).
func ParsePublicKey(pemBytes []byte) (*rsa.PublicKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	var key any
	var err error
	switch block.Type {
	case "CERTIFICATE":
		var cert *x509.Certificate
		if cert, err = x509.ParseCertificate(block.Bytes); err == nil {
			key = cert.PublicKey
		}
	case "RSA PUBLIC KEY":
		key, err = x509.ParsePKCS1PublicKey(block.Bytes)
	default:
		key, err = x509.ParsePKIXPublicKey(block.Bytes)
	}
	if err != nil {
		return nil, err
	}
	rk, ok := key.(*rsa.PublicKey)
	if !ok {
		return nil, errors.New("not an RSA public key")
	}
	return rk, nil
}

// Start serves the stand-in on addr ("127.0.0.1:0" picks a free port) until ctx
// ends and returns its base URL, e.g. http://127.0.0.1:41234.
func (s *Sim) Start(ctx context.Context, addr string) (string, error) {
	if err := s.Seed(ctx); err != nil {
		return "", err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("crm-sim: listen %s: %w", addr, err)
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("crm-sim stopped", "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	url := "http://" + l.Addr().String()
	s.log.Info("crm-sim listening", "url", url, "admin", url+"/__sim/")
	return url, nil
}

// ListenAndServe runs a stand-in on addr until ctx ends (`oportuna crm-sim`).
func ListenAndServe(ctx context.Context, addr string, db *pgxpool.Pool, opts Options) error {
	s := New(db, opts)
	if err := s.Seed(ctx); err != nil {
		return err
	}
	srv := &http.Server{Addr: addr, Handler: s, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	s.log.Info("crm-sim listening", "addr", addr, "admin", "/__sim/")
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	}
}

// --- request pipeline -------------------------------------------------------------

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// maxDelayedBody bounds what a delayed call reads ahead (the API reads at most 1 MiB).
const maxDelayedBody = 2 << 20

// discardWriter swallows an answer (a lost response).
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}

func (s *Sim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/__sim" || strings.HasPrefix(r.URL.Path, "/__sim/") {
		if err := s.Seed(r.Context()); err != nil {
			adminError(w, http.StatusInternalServerError, err.Error())
			return
		}
		s.admin.ServeHTTP(w, r)
		return
	}
	sw := &statusWriter{ResponseWriter: w}
	defer func() { s.record(r, sw.status, "") }()
	s.mu.Lock()
	delay, down := s.delay, s.down
	s.mu.Unlock()
	if down {
		// Down: the connection drops without an answer (net/http closes it
		// quietly for this panic); the client meets a network error.
		panic(http.ErrAbortHandler)
	}
	if !s.count(w, r) {
		writeErrors(sw, &sfError{403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded."})
		return
	}
	if delay > 0 {
		// Read the body first: until it is read, net/http cannot notice that
		// the client gave up, and the call would hold its connection (and
		// the server's shutdown) for the whole delay.
		if body, err := io.ReadAll(io.LimitReader(r.Body, maxDelayedBody)); err == nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	// Once handled, a call runs to its end like in Salesforce, even when the
	// client gives up waiting (a timed-out write may still commit). The
	// scope lets the upserts say which writes are still running.
	scope := &writeScope{}
	r = r.WithContext(context.WithValue(context.WithoutCancel(r.Context()), writeScopeKey{}, scope))
	defer s.endWrites(scope)
	switch s.takeOutage(isWrite(r)) {
	case KindUnavailable:
		writeErrors(sw, &sfError{503, "SERVER_UNAVAILABLE", "The server is temporarily unable to service your request. Please try again later."})
		return
	case KindRateLimit:
		writeErrors(sw, &sfError{403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded."})
		return
	case KindLostResponse:
		if err := s.Seed(r.Context()); err == nil {
			s.api.ServeHTTP(&discardWriter{h: http.Header{}}, r)
		}
		writeErrors(sw, &sfError{503, "SERVER_UNAVAILABLE", "The server is temporarily unable to service your request. Please try again later."})
		return
	}
	if err := s.Seed(r.Context()); err != nil {
		s.log.Error("crm-sim: seed", "err", err)
		writeErrors(sw, &sfError{500, "UNKNOWN_EXCEPTION", "An unexpected error occurred."})
		return
	}
	s.api.ServeHTTP(sw, r)
}

// takeOutage consumes one failing call of the current outage, if it applies.
func (s *Sim) takeOutage(write bool) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out.kind == "" || (s.out.kind == KindLostResponse && !write) {
		return ""
	}
	if s.out.skip > 0 {
		s.out.skip--
		return ""
	}
	kind := s.out.kind
	if s.out.remaining > 0 {
		s.out.remaining--
		if s.out.remaining == 0 {
			s.out = outage{}
		}
	}
	return kind
}

// isWrite tells the calls a lost response applies to: API calls other than
// GET, except a Composite call made only of GET subrequests.
func isWrite(r *http.Request) bool {
	if r.Method == http.MethodGet || !strings.HasPrefix(r.URL.Path, "/services/data/") {
		return false
	}
	if !strings.HasSuffix(r.URL.Path, "/composite") || r.Body == nil {
		return true
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxCompositeBody+1))
	r.Body = io.NopCloser(bytes.NewReader(body))
	var in struct {
		CompositeRequest []struct {
			Method string `json:"method"`
		} `json:"compositeRequest"`
	}
	if err != nil || json.Unmarshal(body, &in) != nil {
		return true
	}
	for _, sub := range in.CompositeRequest {
		if sub.Method != http.MethodGet {
			return true
		}
	}
	return false
}

// PathClass is the kind of API call a path is, as counted by Stats: token,
// query, composite (a Composite call), collections (sObject Collections),
// sobject (a record by id or external id), other.
func PathClass(path string) string {
	switch {
	case path == "/services/oauth2/token":
		return "token"
	case !strings.HasPrefix(path, "/services/data/"):
		return "other"
	case strings.HasSuffix(path, "/composite"):
		return "composite"
	case strings.Contains(path, "/composite/sobjects"):
		return "collections"
	case strings.Contains(path, "/query"):
		return "query"
	case strings.Contains(path, "/sobjects/"):
		return "sobject"
	}
	return "other"
}

// count adds the call to the statistics and, for an API call, to the org's
// usage (and the connected app's), reported in Sforce-Limit-Info as
// Salesforce does on every answer. It answers false for an API call past the
// org's limit (not counted; the caller answers REQUEST_LIMIT_EXCEEDED), unless
// the org runs on its burst allowance (LimitInfoBursts).
func (s *Sim) count(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats[PathClass(r.URL.Path)]++
	if !strings.HasPrefix(r.URL.Path, "/services/data/") {
		return true
	}
	allowed := s.apiUsed < s.apiLimit || s.limit.form == LimitInfoBursts
	if allowed {
		s.apiUsed++
		s.limit.appUsed++
		if s.apiUsed > s.apiLimit && s.limit.burstsUsed == 0 {
			s.limit.burstsUsed = 1 // the first day past the limit draws on the allowance
		}
	}
	w.Header().Set(crm.LimitInfoHeader, s.limitInfoLocked())
	return allowed
}

// limitInfoLocked is the Sforce-Limit-Info value in the configured form.
func (s *Sim) limitInfoLocked() string {
	v := fmt.Sprintf("api-usage=%d/%d", s.apiUsed, s.apiLimit)
	switch s.limit.form {
	case LimitInfoPerApp:
		v += fmt.Sprintf("; per-app-api-usage=%d/%d(appName=%s)", s.limit.appUsed, s.limit.appLimit, s.limit.app)
	case LimitInfoBursts:
		v += fmt.Sprintf("; api-bursts=%d/%d", s.limit.burstsUsed, s.limit.burstsLimit)
	}
	return v
}

// Stats counts the HTTP requests answered since the start (or Reset) by
// PathClass; subrequests of a Composite call are not requests. The token
// requests are under "token".
func (s *Sim) Stats() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.stats))
	for k, v := range s.stats {
		out[k] = v
	}
	return out
}

// SetAPIUsage sets the org's API usage reported from now on (used requests of
// the limit; limit 0 keeps the limit). A usage at the limit makes the next
// calls answer REQUEST_LIMIT_EXCEEDED (except in the bursts form).
func (s *Sim) SetAPIUsage(used, limit int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.apiUsed = max(used, 0)
	if limit > 0 {
		s.apiLimit = limit
	}
}

// LimitInfo sets the form of Sforce-Limit-Info (LimitInfoPlain,
// LimitInfoPerApp, LimitInfoBursts) and, for the per-app form, the app's
// usage and quota (0 keeps them).
func (s *Sim) LimitInfo(form string, appUsed, appLimit int64) error {
	switch form {
	case LimitInfoPlain, LimitInfoPerApp, LimitInfoBursts:
	default:
		return fmt.Errorf("form deve ser %s, %s ou %s", LimitInfoPlain, LimitInfoPerApp, LimitInfoBursts)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limit.form = form
	if appUsed > 0 {
		s.limit.appUsed = appUsed
	}
	if appLimit > 0 {
		s.limit.appLimit = appLimit
	}
	return nil
}

// LimitInfoValue is the Sforce-Limit-Info the next answer would carry, before
// counting itself.
func (s *Sim) LimitInfoValue() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limitInfoLocked()
}

// APIUsage is the usage the next answer reports before counting itself.
func (s *Sim) APIUsage() (used, limit int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.apiUsed, s.apiLimit
}

func (s *Sim) record(r *http.Request, status int, composite string) {
	req := Request{Method: r.Method, Path: r.URL.Path, Status: status, At: time.Now(), Composite: composite}
	if strings.HasSuffix(r.URL.Path, "/query") {
		req.SOQL = r.URL.Query().Get("q")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	if len(s.requests) > 1000 {
		s.requests = append([]Request(nil), s.requests[len(s.requests)-500:]...)
	}
}

// Requests lists the last calls answered (up to 1000), oldest first.
func (s *Sim) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

var versionRE = regexp.MustCompile(`^v[0-9]{2,3}\.[0-9]$`)

// authed checks the API version in the path and the bearer token.
func (s *Sim) authed(h func(w http.ResponseWriter, r *http.Request, version string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		version := r.PathValue("version")
		if !versionRE.MatchString(version) {
			writeErrors(w, &sfError{404, "NOT_FOUND", "The requested resource does not exist"})
			return
		}
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		// A subrequest of a Composite call carries the session checked for the call.
		checked := token != "" && r.Context().Value(subrequestKey{}) == token
		if !checked && (!ok || !s.validToken(r.Context(), token)) {
			writeErrors(w, &sfError{401, "INVALID_SESSION_ID", "Session expired or invalid"})
			return
		}
		h(w, r, version)
	}
}

// apiVersion is the number of a "v61.0" path segment.
func apiVersion(v string) float64 {
	f, _ := strconv.ParseFloat(strings.TrimPrefix(v, "v"), 64)
	return f
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeErrors answers Salesforce's error array.
func writeErrors(w http.ResponseWriter, e *sfError) {
	type entry struct {
		Message   string   `json:"message"`
		ErrorCode string   `json:"errorCode"`
		Fields    []string `json:"fields,omitempty"`
	}
	writeJSON(w, e.status, []entry{{Message: e.msg, ErrorCode: e.code}})
}

func asSFError(err error) *sfError {
	var e *sfError
	if errors.As(err, &e) {
		return e
	}
	return &sfError{500, "UNKNOWN_EXCEPTION", "An unexpected error occurred. Please include this ErrorId if you contact support: " + err.Error()}
}
