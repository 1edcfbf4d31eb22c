package auth

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"oportuna/brand"
	"oportuna/internal/clientaddr"
	"oportuna/internal/respond"
	"oportuna/mailer"
	"oportuna/store"
)

// CompanyHeader names the brand a call is made for.
const CompanyHeader = "company"

// Messages of the authenticator's answers.
const (
	MsgInvalidLogin    = "Usuário ou senha inválidos"
	MsgSessionRequired = "Sua sessão encerrou"
	MsgCompanyMismatch = "A empresa informada não corresponde à sessão."
	// MsgCompanyMissing answers an authenticated call without the company header (400).
	MsgCompanyMissing  = "O cabeçalho company é obrigatório: informe a empresa (marca) da sessão."
	MsgForbidden       = "Você não tem permissão para acessar este recurso."
	MsgUserNotFound    = "Falha ao recuperar o usuário"
	MsgUnknownBrand    = "Empresa inválida"
	MsgPasswordUpdated = "Senha atualizada com sucesso"
	MsgRefreshRejected = "Sessão expirada. Faça login novamente."
	MsgEmailRequired   = "Informe o e-mail."
)

type ctxKey struct{}

// FromContext returns the claims of the authenticated caller, or nil.
func FromContext(ctx context.Context) *Claims {
	c, _ := ctx.Value(ctxKey{}).(*Claims)
	return c
}

// WithClaims stores claims in a context (used by the middleware and tests).
func WithClaims(ctx context.Context, c *Claims) context.Context {
	return context.WithValue(ctx, ctxKey{}, c)
}

func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// Authenticate requires a valid access token whose brand equals the company header.
func (s *Signer) Authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := s.claims(w, r); ok {
			next.ServeHTTP(w, r.WithContext(WithClaims(r.Context(), c)))
		}
	})
}

// claims are the request's access token's, when it is valid and its brand is
// the company header's; otherwise it answers 401 MsgSessionRequired (or as
// companyMatches does) and false.
func (s *Signer) claims(w http.ResponseWriter, r *http.Request) (*Claims, bool) {
	c, err := s.Parse(bearer(r))
	if err != nil {
		respond.Error(w, http.StatusUnauthorized, MsgSessionRequired)
		return nil, false
	}
	return c, companyMatches(w, r, c)
}

// companyMatches checks the company header against the token's brand and
// answers otherwise: 400 MsgCompanyMissing without the header, 403
// MsgCompanyMismatch with another brand's.
func companyMatches(w http.ResponseWriter, r *http.Request, c *Claims) bool {
	company := strings.TrimSpace(r.Header.Get(CompanyHeader))
	switch {
	case company == "":
		respond.Error(w, http.StatusBadRequest, MsgCompanyMissing)
		return false
	case !strings.EqualFold(company, c.Brand):
		respond.Error(w, http.StatusForbidden, MsgCompanyMismatch)
		return false
	}
	return true
}

// RequireActive (after Authenticate) answers 401 MsgSessionRequired when the
// token's user was deactivated or removed after the token was issued: the
// access token stays valid until it expires, the account does not. One read of
// users by primary key per call.
func (s *Service) RequireActive(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := FromContext(r.Context())
		if c == nil {
			respond.Error(w, http.StatusUnauthorized, MsgSessionRequired)
			return
		}
		if s.activeUser(w, r, c) {
			next.ServeHTTP(w, r)
		}
	})
}

// activeUser reports whether the token's user is active; otherwise it answers
// 401 MsgSessionRequired (500 when the read fails).
func (s *Service) activeUser(w http.ResponseWriter, r *http.Request, c *Claims) bool {
	active, err := s.Active(r.Context(), c.Subject)
	if err != nil {
		respond.Internal(w, r, err)
		return false
	}
	if !active {
		respond.Error(w, http.StatusUnauthorized, MsgSessionRequired)
		return false
	}
	return true
}

// Require lets through callers holding any of the roles (after Authenticate).
func Require(roles ...Role) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if c := FromContext(r.Context()); c == nil || !c.Has(roles...) {
				respond.Error(w, http.StatusForbidden, MsgForbidden)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// Routes is the authentication service, mounted at /authenticator.
func (s *Service) Routes() http.Handler {
	r := chi.NewRouter()
	r.Get("/login", s.handleLogin)
	r.Get("/{company}/auth/refresh_token", s.handleRefresh)
	r.Post("/auth/logout", s.handleLogout)
	r.Post("/auth/reset_password", s.resetLimiter().WrapForm(s.handleResetRequest))
	r.Post("/auth/update_password", s.handleUpdatePassword)
	r.Post("/auth/reset_password/check", s.handleResetCheck)
	r.Group(func(r chi.Router) {
		r.Use(s.Signer.Authenticate, s.RequireActive)
		r.Get("/auth/payload", s.handlePayload)
		r.Get("/user/{id}", s.handleUser)
		r.Get("/user/{id}/role", s.handleUserRoles)
	})
	return r
}

// handleResetCheck answers POST /auth/reset_password/check {token}: 204 while
// the reset link can set a password, 410 with the message the form would show
// once it is used, expired or unknown (docs/web.md, reset-password page).
func (s *Service) handleResetCheck(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Token string `json:"token"`
	}
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	g := enter(w, r, []gateStep{{b: s.resetTokenAddresses(), key: clientaddr.Key(r), onFailure: true}}, []string{MsgResetTokenLocked})
	if g == nil {
		return
	}
	var err error
	ok := false
	if token := strings.TrimSpace(body.Token); token != "" {
		ok, err = s.ResetUsable(r.Context(), token)
	}
	if err == nil && !ok {
		err = ErrResetInvalid
	}
	g.answer(w, r, err, ErrResetInvalid, http.StatusGone, ErrResetInvalid.Error(), func() { w.WriteHeader(http.StatusNoContent) })
}

func (s *Service) handleLogin(w http.ResponseWriter, r *http.Request) {
	brandSlug := r.URL.Query().Get("brand")
	if _, ok := s.Brands.BySlug(brandSlug); !ok {
		respond.Error(w, http.StatusBadRequest, MsgUnknownBrand)
		return
	}
	user, pass, ok := r.BasicAuth()
	user, pass = strings.TrimSpace(user), strings.TrimSpace(pass)
	if !ok || user == "" || pass == "" {
		respond.Error(w, http.StatusUnauthorized, MsgInvalidLogin)
		return
	}
	// Throttled per account (login name + brand, whether or not it exists)
	// and per client address: a locked account answers 429 even to the right
	// password until its lock ends; a successful login clears the account's
	// failures.
	g := enter(w, r, []gateStep{
		{b: s.loginAccounts(), key: accountKey(brandSlug, user), clearOnSuccess: true},
		{b: s.loginAddresses(), key: clientaddr.Key(r), onFailure: true},
	}, []string{MsgAccountLocked, MsgAddressLocked})
	if g == nil {
		return
	}
	tok, err := s.Login(r.Context(), strings.ToLower(brandSlug), user, pass)
	g.answer(w, r, err, ErrInvalidCredentials, http.StatusUnauthorized, MsgInvalidLogin, func() {
		respond.JSON(w, http.StatusOK, map[string]any{"data": map[string]any{"data": tok}})
	})
}

func (s *Service) handleRefresh(w http.ResponseWriter, r *http.Request) {
	g := enter(w, r, []gateStep{{b: s.refreshAddresses(), key: clientaddr.Key(r), onFailure: true}}, []string{MsgRefreshLocked})
	if g == nil {
		return
	}
	tok, err := s.Refresh(r.Context(), strings.ToLower(chi.URLParam(r, "company")), bearer(r))
	g.answer(w, r, err, ErrInvalidToken, http.StatusUnauthorized, MsgRefreshRejected, func() {
		respond.JSON(w, http.StatusOK, map[string]any{"data": tok})
	})
}

func (s *Service) handleLogout(w http.ResponseWriter, r *http.Request) {
	var body struct {
		RefreshToken string `json:"refresh_token"`
	}
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	if body.RefreshToken != "" {
		if err := s.Logout(r.Context(), body.RefreshToken); err != nil {
			respond.Internal(w, r, err)
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Service) handlePayload(w http.ResponseWriter, r *http.Request) {
	c := FromContext(r.Context())
	respond.JSON(w, http.StatusOK, map[string]any{"payload": map[string]any{
		"id": c.Subject, "name": c.Name, "exp": c.ExpiresAt.Unix(), "brand": c.Brand, "roles": c.Roles,
	}})
}

// mayRead reports whether the caller may read the user: itself, staff of the brand,
// or the reseller the seller belongs to.
func (s *Service) mayRead(ctx context.Context, c *Claims, target *User) (bool, error) {
	if c.Subject == target.ID {
		return true, nil
	}
	if len(RolesFor(target.Roles, c.Brand)) == 0 {
		return false, nil
	}
	if c.Has(Representative, Support) {
		return true, nil
	}
	if c.Has(Resale) {
		same, err := store.New(s.DB).SameCompany(ctx, store.SameCompanyParams{UserA: c.Subject, UserB: target.ID})
		if store.IsBadUUID(err) {
			return false, nil
		}
		return same, err
	}
	return false, nil
}

func (s *Service) readableUser(w http.ResponseWriter, r *http.Request) *User {
	c := FromContext(r.Context())
	u, err := s.User(r.Context(), chi.URLParam(r, "id"))
	if errors.Is(err, ErrUserNotFound) {
		respond.Error(w, http.StatusNotFound, MsgUserNotFound)
		return nil
	}
	if err != nil {
		respond.Internal(w, r, err)
		return nil
	}
	ok, err := s.mayRead(r.Context(), c, u)
	if err != nil {
		respond.Internal(w, r, err)
		return nil
	}
	if !ok {
		respond.Error(w, http.StatusForbidden, MsgForbidden)
		return nil
	}
	return u
}

type roleView struct {
	Name Role `json:"name"`
	Data struct {
		Brand string `json:"brand"`
	} `json:"data"`
}

func rolesView(grants []RoleGrant) []roleView {
	out := make([]roleView, 0, len(grants))
	for _, g := range grants {
		v := roleView{Name: g.Name}
		v.Data.Brand = g.Brand
		out = append(out, v)
	}
	return out
}

func (s *Service) handleUser(w http.ResponseWriter, r *http.Request) {
	if u := s.readableUser(w, r); u != nil {
		respond.JSON(w, http.StatusOK, map[string]any{"data": map[string]any{
			"id": u.ID, "name": u.Name, "email": u.Email, "phone": u.Phone, "doc": u.Doc, "active": u.Active, "roles": rolesView(u.Roles),
		}})
	}
}

func (s *Service) handleUserRoles(w http.ResponseWriter, r *http.Request) {
	if u := s.readableUser(w, r); u != nil {
		respond.JSON(w, http.StatusOK, map[string]any{"roles": rolesView(u.Roles)})
	}
}

func (s *Service) handleResetRequest(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Company     string `json:"company"`
		RedirectURL string `json:"redirect_url"`
		Email       string `json:"email"`
	}
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	if strings.TrimSpace(body.Email) == "" {
		respond.Error(w, http.StatusBadRequest, MsgEmailRequired)
		return
	}
	b, ok := s.Brands.BySlug(body.Company)
	if !ok {
		respond.Error(w, http.StatusBadRequest, MsgUnknownBrand)
		return
	}
	// Besides the limit per client address (Routes), a limit per e-mail and
	// brand, so nobody floods one mailbox from many addresses.
	if ok, wait, err := s.resetAccounts().Allow(r.Context(), accountKey(b.Slug, body.Email)); err != nil {
		respond.Internal(w, r, err)
		return
	} else if !ok {
		tooMany(w, wait, MsgResetAccountMany)
		return
	}
	err := s.RequestReset(r.Context(), b.Slug, body.Email, s.resetBase(r, body.RedirectURL, b))
	switch {
	case errors.Is(err, ErrUserNotFound):
		respond.Error(w, http.StatusNotFound, ErrUserNotFound.Error())
	case err != nil:
		respond.Internal(w, r, err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// resetBase is where the e-mailed link points: the client's redirect_url when
// its host is one of the brand's (BrandHost); else the request's own host when
// it is the brand's; else the brand's configured portal. Never a host of the
// client's choosing (no open redirect, no link built from a forged Host header).
func (s *Service) resetBase(r *http.Request, redirect string, b *brand.Brand) string {
	if u, err := url.Parse(redirect); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.User == nil && BrandHost(b, u.Hostname()) {
		return redirect
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if BrandHost(b, host) {
		scheme := "http"
		if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
			scheme = "https"
		}
		return scheme + "://" + r.Host + SetPasswordPath
	}
	portal := mailer.Config{}.Portal(b)
	if s.Portal != nil {
		portal = s.Portal(b)
	}
	return strings.TrimRight(portal, "/") + SetPasswordPath
}

func (s *Service) handleUpdatePassword(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Password     string `json:"password"`
		Confirmation string `json:"confirmation"`
		Token        string `json:"token"`
	}
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	var err error
	if bearer(r) != "" {
		// Signed-in change (Settings): the same checks as every authenticated call.
		c, ok := s.Signer.claims(w, r)
		if !ok || !s.activeUser(w, r, c) {
			return
		}
		err = s.UpdatePassword(r.Context(), c.Subject, body.Password, body.Confirmation)
	} else if body.Token != "" {
		g := enter(w, r, []gateStep{{b: s.resetTokenAddresses(), key: clientaddr.Key(r), onFailure: true}}, []string{MsgResetTokenLocked})
		if g == nil {
			return
		}
		err = s.ResetPassword(r.Context(), body.Token, body.Password, body.Confirmation)
		if errors.Is(err, ErrResetInvalid) {
			g.fail() // only unusable links count
		}
	} else {
		respond.Error(w, http.StatusUnauthorized, MsgSessionRequired)
		return
	}
	switch {
	case errors.Is(err, ErrWeakPassword), errors.Is(err, ErrPasswordMismatch), errors.Is(err, ErrResetInvalid):
		respond.Error(w, http.StatusBadRequest, err.Error())
	case errors.Is(err, ErrUserNotFound):
		respond.Error(w, http.StatusNotFound, MsgUserNotFound)
	case err != nil:
		respond.Internal(w, r, err)
	default:
		respond.JSON(w, http.StatusOK, respond.Message{Message: MsgPasswordUpdated})
	}
}
