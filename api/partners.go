package api

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5"

	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/ratelimit"
	"oportuna/internal/respond"
	"oportuna/mailer"
	"oportuna/store"
)

// PartnerMail sends the e-mails the partner calls originate, durably (recorded
// in the outbox, delivered by a SendEmail workflow): *workflows.MailDispatcher.
type PartnerMail interface {
	SendContact(ctx context.Context, b *brand.Brand, key string, req mailer.ContactRequest) error
	SendSellerInvitation(ctx context.Context, b *brand.Brand, inv mailer.SellerInvitation) error
}

// PartnerDeps are the dependencies of the partner and account calls (reseller
// sign-up and onboarding, sellers, contact, notifications).
type PartnerDeps struct {
	// Mail sends the seller invitations and the contact requests.
	Mail PartnerMail
	// Portal is the base URL of e-mailed links when the request names no host of
	// the brand (mailer.Mailer.Portal: PORTAL_URL); nil: mailer.DefaultPortalURL.
	Portal func(*brand.Brand) string
	// InviteTTL is how long an invitation's set-password link lasts (zero: auth.DefaultInviteTTL).
	InviteTTL time.Duration
	// FormLimit is how many submissions of each public form (sign-up, contact) a
	// client address may make per FormWindow (zero: DefaultFormLimit).
	FormLimit int
	// Now is the clock of the form limit (tests move it).
	Now func() time.Time
}

// Limits of the public forms.
const (
	DefaultFormLimit = ratelimit.DefaultFormLimit
	FormWindow       = ratelimit.FormPer
	MsgTooManyForms  = ratelimit.MsgFormTooMany
)

// publicPartnerRoutes mounts the partner calls that need no session.
func (s *Server) publicPartnerRoutes(r chi.Router) {
	r.Post("/register/resale", s.limitForm("register", s.handleRegisterResale))
	r.Post("/contact", s.limitForm("contact", s.handleContact))
}

// partnerRoutes mounts the partner calls of a session.
func (s *Server) partnerRoutes(r chi.Router) {
	staff := auth.Require(auth.Representative, auth.Support)
	r.With(staff).Get("/resale/all", s.handleResaleList)
	r.Get("/resale/{id}", s.handleGetResale)
	r.With(staff).Patch("/resale/update/{id}", s.handleDecideResale)

	r.With(auth.Require(auth.Resale)).Get("/seller/all", s.handleSellerList)
	r.With(staff).Get("/representative/all", s.handlePartnerUserList)
	r.With(auth.Require(auth.Resale, auth.Representative, auth.Support)).Get("/seller/name", s.handleSellerByName)
	r.With(auth.Require(auth.Resale)).Post("/seller", s.handleCreateSeller)
	r.With(auth.Require(auth.Resale)).Patch("/seller/inative/{id}", s.handleDeactivateSeller)
	r.With(auth.Require(auth.Resale)).Patch("/seller/restore/{id}", s.handleRestoreSeller)

	r.Get("/notifications", s.handleNotifications)
	r.Patch("/notifications/read-all", s.handleReadAllNotifications)
	r.Patch("/notifications/{id}/read", s.handleReadNotification)
}

// partner is the caller of a partner call: the token's claims and its company.
type partner struct {
	*auth.Claims
	ResaleID string
}

// partnerOf reads the caller's company; a user deactivated since the token was
// issued (or removed) answers 401, like an ended session.
func (s *Server) partnerOf(w http.ResponseWriter, r *http.Request) (partner, bool) {
	c := auth.FromContext(r.Context())
	p := partner{Claims: c}
	resale, err := store.New(s.DB).UserCompany(r.Context(), c.Subject)
	if errors.Is(err, pgx.ErrNoRows) {
		respond.Error(w, http.StatusUnauthorized, auth.MsgSessionRequired)
		return p, false
	}
	if err != nil {
		respond.Internal(w, r, err)
		return p, false
	}
	if resale != nil {
		p.ResaleID = *resale
	}
	return p, true
}

// portalFor is the base URL of the links e-mailed about a call: the host the
// client names (the spec's "host" field: a host or an origin) or else the
// request's own host, when it is one of the brand's configured hosts or
// <slug>.localhost (auth.BrandHost); else the brand's configured portal. Never a host of
// someone else's choosing: an unknown Host header (which Brands.ForHost maps to
// the fallback brand) is not the brand's.
func (s *Server) portalFor(r *http.Request, brandSlug, host string) string {
	b, ok := s.Brands.BySlug(brandSlug)
	if !ok {
		return ""
	}
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	for _, cand := range []string{strings.TrimSpace(host), r.Host} {
		if cand == "" {
			continue
		}
		if !strings.Contains(cand, "://") {
			cand = scheme + "://" + cand
		}
		u, err := url.Parse(cand)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
			continue
		}
		if auth.BrandHost(b, u.Hostname()) {
			return u.Scheme + "://" + u.Host
		}
	}
	if s.Partners.Portal != nil {
		return s.Partners.Portal(b)
	}
	return mailer.Config{}.Portal(b)
}

func (s *Server) inviteTTL() time.Duration {
	if s.Partners.InviteTTL > 0 {
		return s.Partners.InviteTTL
	}
	return auth.DefaultInviteTTL
}

// --- limit of the public forms ---------------------------------------------------------

// limitForm answers 429 (with Retry-After) to a client address that already
// made FormLimit submissions of the form within FormWindow (internal/ratelimit,
// shared by every replica).
func (s *Server) limitForm(form string, next http.HandlerFunc) http.HandlerFunc {
	return ratelimit.FormWindow(s.DB, form, s.Partners.FormLimit, s.Partners.Now).WrapForm(next)
}
