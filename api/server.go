// Package api is the HTTP server: the main API under /api, the authenticator
// under /authenticator, the brand assets and the web app.
package api

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"path"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"

	"oportuna"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/crm"
	"oportuna/geo"
	"oportuna/internal/clientaddr"
	"oportuna/internal/health"
	"oportuna/internal/metrics"
	"oportuna/internal/respond"
	"oportuna/internal/tracing"
	"oportuna/mailer"
)

// Server holds what the handlers need.
type Server struct {
	Brands *brand.Registry
	Auth   *auth.Service
	DB     *pgxpool.Pool
	// Temporal starts and updates the workflows.
	Temporal client.Client
	// CRM lists the brand's sellers in the CRM (GET /opportunity/getSellersOnSalesforce).
	CRM crm.Client
	// Web is the built web app (index.html at its root).
	Web fs.FS
	// Health answers /healthz and /readyz; Metrics records every request. Both optional.
	Health  *health.Handler
	Metrics *metrics.Registry
	// Partners carries what the partner and account calls need (api/partners.go).
	Partners PartnerDeps
	// CNPJ answers the company lookup (GET /api/cnpj/{digits}, public).
	CNPJ http.Handler
	// Mail is the spec's mail service (/mailer); Mailbox also serves the dev
	// mailbox (/mailbox), never in production.
	Mail    *mailer.Handler
	Mailbox bool
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names the
	// client (rate limits and logs); none: the connection's peer is the client.
	TrustedProxies []netip.Prefix
	// Now is the clock of the date rules and of the days the API writes (the
	// dashboard's month, the export's dates), read in Brasília's calendar
	// (internal/calendar); nil: time.Now. Tests pin it.
	Now func() time.Time
	// HSTSMaxAge is the Strict-Transport-Security max-age (HSTS_MAX_AGE);
	// 0: no such header (the portal is not served over https).
	HSTSMaxAge time.Duration
	// Tracing starts a span per request (internal/tracing); nil: untraced.
	Tracing *tracing.Provider
	// ApprovalSLA is APPROVAL_SLA, the worker's (the reports' withinSla); 0: 48h.
	ApprovalSLA time.Duration

	index      map[page][]byte // index.html per brand and route, brand injected
	lgpd       []byte
	guidelines map[string][]byte
}

// now is the instant the date rules read (Server.Now).
func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Handler builds the router.
func (s *Server) Handler() (http.Handler, error) {
	if err := s.prepare(); err != nil {
		return nil, err
	}
	r := chi.NewRouter()
	r.Use(s.Tracing.Middleware(health.LivePath, health.ReadyPath)) // first: the span covers the whole request
	r.Use(clientaddr.Trust(s.TrustedProxies), middleware.RequestID)
	if s.Metrics != nil {
		r.Use(s.Metrics.Middleware)
	}
	r.Use(securityHeaders(s.HSTSMaxAge), logRequests, recoverJSON)
	if s.Health != nil {
		r.Get(health.LivePath, s.Health.Live)
		r.Get(health.ReadyPath, s.Health.Ready)
	}

	r.With(respond.LimitBody).Mount("/authenticator", s.Auth.Routes())
	r.Route("/api", func(r chi.Router) {
		r.Use(respond.LimitBody) // a body over 1 MB: 413
		r.Get("/brand", s.handleBrand)
		r.Get("/version", s.handleVersion)
		r.Get("/image", s.handleImages)
		r.Mount("/geo", geo.Routes())
		if s.CNPJ != nil {
			r.Get("/cnpj/{digits}", s.CNPJ.ServeHTTP)
		}
		s.publicPartnerRoutes(r)
		r.Group(func(r chi.Router) {
			r.Use(s.Auth.Signer.Authenticate)
			r.Use(s.Auth.RequireActive) // a user deactivated since its token was issued: 401
			s.partnerRoutes(r)
			r.With(auth.Require(auth.Resale, auth.Seller)).Post("/opportunity/create", s.handleCreateOpportunity)
			r.Get("/opportunity/id/{id}", s.handleGetOpportunity)
			r.Get("/opportunity/export", s.handleExportOpportunities)
			r.With(auth.Require(auth.Resale)).Get("/opportunity/resale", s.handleListOpportunities(listByResale))
			r.With(auth.Require(auth.Seller)).Get("/opportunity/user", s.handleListOpportunities(listByUser))
			r.With(auth.Require(auth.Representative, auth.Support)).Get("/opportunity/all", s.handleListOpportunities(listAll))
			r.With(auth.Require(auth.Representative)).Patch("/opportunity/{id}", s.handlePatchOpportunity)
			r.With(auth.Require(auth.Representative)).Patch("/opportunity", s.handlePatchProbability)
			r.With(auth.Require(auth.Resale, auth.Seller)).Patch("/opportunity/renovation/{id}/request", s.handleRenewalRequest)
			r.With(auth.Require(auth.Representative)).Patch("/opportunity/renovation/{id}", s.handleRenewalDecision)
			r.Get("/history/getByTypeId", s.handleHistory)
			// SUPPORT only reads (spec §6): it writes no history rows.
			r.With(auth.Require(auth.Representative, auth.Resale, auth.Seller)).Post("/history/create", s.handleCreateHistory)
			r.Get("/opportunity/name", s.handleOpportunityNames)
			r.With(auth.Require(auth.Resale, auth.Seller, auth.Representative)).Get("/opportunity/getSellersOnSalesforce", s.handleCRMSellers)
			r.With(auth.Require(auth.Representative, auth.Support)).Get("/dashboard/status", s.handleDashboard)
			// The reports (api/reports.go; docs/deal-desk.md "Reports").
			r.With(auth.Require(auth.Representative, auth.Support)).Get("/reports", s.handleReports)
			r.With(auth.Require(auth.Representative, auth.Support)).Get("/reports/export", s.handleReportsExport)
			// Routing (api/coverage.go): the brand's coverage and an opportunity's reassignment.
			r.With(auth.Require(auth.Representative, auth.Support)).Get("/coverage", s.handleCoverage)
			r.With(auth.Require(auth.Representative, auth.Support)).Get("/coverage/history", s.handleCoverageHistory)
			r.With(auth.Require(auth.Representative, auth.Support)).Put("/coverage/{userId}", s.handlePutCoverage)
			r.With(auth.Require(auth.Representative, auth.Support)).Post("/opportunity/{id}/reassign", s.handleReassign)
			r.Post("/search", s.handleSearch) // within the caller's role and brand (api/search.go); the text in the body, never the URL
		})
		r.NotFound(notFound)
		r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
			respond.Error(w, http.StatusMethodNotAllowed, "Método não permitido.")
		})
	})
	if s.Mail != nil {
		r.Mount("/mailer", s.Mail.Send())
		if s.Mailbox {
			r.With(framableBySelf(mailboxPolicy)).Mount("/mailbox", s.Mail.Mailbox())
		}
	}
	r.With(framableBySelf(pdfPolicy)).Get("/brand-assets/lgpd.pdf", s.servePDF(func(string) []byte { return s.lgpd }))
	r.With(framableBySelf(pdfPolicy)).Get("/brand-assets/{slug}/guidelines.pdf", s.servePDF(func(slug string) []byte { return s.guidelines[slug] }))
	r.Get("/brand-assets/{slug}/{file}", s.handleBrandAsset)
	r.Get("/brand-assets/*", notFound) // any other depth: not the web app's index
	r.NotFound(s.handleWeb)
	return r, nil
}

// notFound answers 404 with the API's JSON message: unknown API paths, brand
// assets and the web app's missing files alike.
func notFound(w http.ResponseWriter, _ *http.Request) {
	respond.Error(w, http.StatusNotFound, MsgResourceNotFound)
}

// MsgResourceNotFound answers a path that names nothing.
const MsgResourceNotFound = "Recurso não encontrado."

var (
	titleRE = regexp.MustCompile(`(?s)<title>.*?</title>`)
	iconRE  = regexp.MustCompile(`<link[^>]+rel="icon"[^>]*>`)
)

// page is a rendering of index.html: a brand's, for one of publicPages
// (route: its key) or for any other path (route "").
type page struct{ slug, route string }

// prepare renders index.html once per brand (and per page of publicPages)
// and the PDF documents.
func (s *Server) prepare() error {
	raw, err := fs.ReadFile(s.Web, "index.html")
	if err != nil {
		return fmt.Errorf("api: the web app is not built (web/dist/index.html): %w", err)
	}
	if !bytes.Contains(raw, []byte("</head>")) {
		return fmt.Errorf("api: web/dist/index.html has no </head>")
	}
	preloads, err := routePreloads(s.Web)
	if err != nil {
		return err
	}
	s.index = map[page][]byte{}
	s.guidelines = map[string][]byte{}
	for _, b := range s.Brands.All() {
		pub, err := brandDataBlock(b.Public())
		if err != nil {
			return err
		}
		html := titleRE.ReplaceAll(raw, nil)
		html = iconRE.ReplaceAll(html, nil)
		head := fmt.Sprintf("<title>%s</title>\n<meta name=\"description\" content=\"%s\">\n<link rel=\"icon\" type=\"image/svg+xml\" href=\"%s\">\n<meta name=\"theme-color\" content=\"%s\">\n%s\n</head>",
			template.HTMLEscapeString(b.Title), template.HTMLEscapeString(pageDescription(b)), template.HTMLEscapeString(b.Public().Favicon),
			template.HTMLEscapeString(b.Colors.Primary), pub)
		s.index[page{b.Slug, ""}] = bytes.Replace(html, []byte("</head>"), []byte(head), 1)
		for route, p := range publicPages {
			links := ""
			if preloads[route] != "" {
				links = preloads[route] + "\n"
			}
			rendered := bytes.Replace(html, []byte("</head>"), []byte(links+head), 1)
			rendered = lowPriorityScripts(rendered)
			root := `<div id="root">` + firstPaint(p, b.Public().Logo, b.Name) + `</div>`
			s.index[page{b.Slug, route}] = bytes.Replace(rendered, []byte(`<div id="root"></div>`), []byte(root), 1)
		}
		s.guidelines[b.Slug] = guidelines(b)
	}
	s.lgpd = privacyPolicy()
	return nil
}

// pageDescription is the brand's meta description (search results, link previews).
func pageDescription(b *brand.Brand) string {
	return "Portal de Oportunidades " + b.Name + ": revendas e vendedores registram oportunidades, " +
		"acompanham a análise do representante e renovam o registro antes que expire."
}

func (s *Server) handleBrand(w http.ResponseWriter, r *http.Request) {
	respond.JSON(w, http.StatusOK, s.Brands.ForHost(r.Host).Public())
}

func (s *Server) handleVersion(w http.ResponseWriter, r *http.Request) {
	respond.JSON(w, http.StatusOK, map[string]string{"version": oportuna.Version()})
}

func (s *Server) handleImages(w http.ResponseWriter, r *http.Request) {
	slug := r.URL.Query().Get("brand")
	b, ok := s.Brands.BySlug(slug)
	if slug == "" {
		b, ok = s.Brands.ForHost(r.Host), true
	}
	if !ok {
		respond.Error(w, http.StatusNotFound, "Marca não encontrada")
		return
	}
	respond.JSON(w, http.StatusOK, map[string]any{"data": slides(b)})
}

func (s *Server) handleBrandAsset(w http.ResponseWriter, r *http.Request) {
	b, ok := s.Brands.BySlug(chi.URLParam(r, "slug"))
	if !ok {
		notFound(w, r)
		return
	}
	name, fingerprint := brand.SplitAssetName(chi.URLParam(r, "file"))
	body, ctype, ok := brandAsset(b, name)
	if !ok {
		notFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ctype)
	if fingerprint != "" && fingerprint == brand.Fingerprint(body) {
		w.Header().Set("Cache-Control", cacheImmutable)
	} else {
		w.Header().Set("Cache-Control", cacheHour)
	}
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	_, _ = w.Write(body)
}

func (s *Server) servePDF(doc func(slug string) []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body := doc(chi.URLParam(r, "slug"))
		if body == nil {
			notFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Header().Set("Content-Disposition", "inline")
		_, _ = w.Write(body)
	}
}

// handleWeb serves the web app's files; any other path gets index.html (client routing).
func (s *Server) handleWeb(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		respond.Error(w, http.StatusMethodNotAllowed, "Método não permitido.")
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	// Dot files (Vite's .vite/manifest.json) are the server's, not the browser's.
	if name != "" && name != "index.html" && !strings.HasPrefix(name, ".") && !strings.Contains(name, "/.") {
		if f, err := s.Web.Open(name); err == nil {
			st, err := f.Stat()
			f.Close()
			if err == nil && !st.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				}
				serveStatic(w, r, s.Web, name)
				return
			}
		}
		if strings.HasPrefix(name, "assets/") {
			notFound(w, r)
			return
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Security-Policy", appPolicy) // the other headers: securityHeaders
	slug := s.Brands.ForHost(r.Host).Slug
	body, ok := s.index[page{slug, routeKey(name)}]
	if !ok {
		body = s.index[page{slug, ""}]
	}
	_, _ = w.Write(body)
}

// logRequests writes one structured line per request, with its id.
func logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		level := slog.LevelDebug
		if strings.HasPrefix(r.URL.Path, "/api") || strings.HasPrefix(r.URL.Path, "/authenticator") {
			level = slog.LevelInfo
		}
		if ww.Status() >= 500 {
			level = slog.LevelError
		}
		slog.Log(r.Context(), level, "http", "request_id", middleware.GetReqID(r.Context()), "method", r.Method,
			"path", r.URL.Path, "client", clientaddr.Host(r), "status", ww.Status(), "bytes", ww.BytesWritten(), "ms", time.Since(start).Milliseconds())
	})
}

// recoverJSON turns a panic into a logged 500 with the generic pt-BR message.
func recoverJSON(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				slog.ErrorContext(r.Context(), "panic", "request_id", middleware.GetReqID(r.Context()), "value", v, "stack", string(debug.Stack()))
				respond.Error(w, http.StatusInternalServerError, respond.Generic)
			}
		}()
		next.ServeHTTP(w, r)
	})
}
