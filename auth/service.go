// Package auth is the authentication service of spec §7: login with roles per
// brand, JWT access tokens, rotating refresh tokens, password reset and change.
package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/brand"
	"oportuna/store"
)

var (
	// ErrInvalidCredentials hides which part of a login was wrong.
	ErrInvalidCredentials error = Message("Usuário ou senha inválidos")
	// ErrUnknownBrand is a login or reset for a brand that does not exist.
	ErrUnknownBrand error = Message("Empresa inválida")
	// ErrUserNotFound is a user id or e-mail that does not exist (the spec's
	// client matches this text).
	ErrUserNotFound error = Message("Not Found Exception")
	// ErrResetInvalid is a reset link that is unknown, used or expired.
	ErrResetInvalid error = Message("Link de redefinição inválido ou expirado.")
)

// ResetMailer delivers the password-reset link.
type ResetMailer interface {
	SendPasswordReset(ctx context.Context, b *brand.Brand, to, name, link string) error
}

// Service authenticates users against PostgreSQL.
type Service struct {
	DB         *pgxpool.Pool
	Brands     *brand.Registry
	Signer     *Signer
	RefreshTTL time.Duration
	ResetTTL   time.Duration
	Mailer     ResetMailer
	// Portal is the base URL of a reset link when the request names no host of
	// the brand (mailer.Mailer.Portal: PORTAL_URL); nil: mailer.DefaultPortalURL.
	Portal func(*brand.Brand) string
	// ResetLimit is how many recovery requests a client address may make per
	// ratelimit.FormPer (zero: ratelimit.DefaultFormLimit).
	ResetLimit int
	// RefreshGrace is how long a rotated refresh token still answers its
	// successor (zero: DefaultRefreshGrace).
	RefreshGrace time.Duration
	Now          func() time.Time
}

// Active reports whether the user exists and is active (one read by primary
// key); an id that is not a UUID is no user.
func (s *Service) Active(ctx context.Context, userID string) (bool, error) {
	active, err := store.New(s.DB).UserActive(ctx, userID)
	switch {
	case errors.Is(err, pgx.ErrNoRows), store.IsBadUUID(err):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("auth: read whether user %s is active: %w", userID, err)
	}
	return active, nil
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Tokens is what a login or refresh hands out.
type Tokens struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	ExpiresIn    int64  `json:"expires_in"`
}

// RoleGrant is one role of a user, for one brand or all.
type RoleGrant struct {
	Name  Role   `json:"name"`
	Brand string `json:"brand"`
}

// User is a user as the authenticator shows it.
type User struct {
	ID     string      `json:"id"`
	Name   string      `json:"name"`
	Email  string      `json:"email"`
	Phone  string      `json:"phone"`
	Doc    string      `json:"doc"`
	Active bool        `json:"-"`
	Roles  []RoleGrant `json:"-"`
}

// RolesFor keeps the roles valid at the brand: its own, 'all' or empty (spec §4 "Session").
func RolesFor(grants []RoleGrant, brandSlug string) []Role {
	var out []Role
	seen := map[Role]bool{}
	for _, g := range grants {
		if (g.Brand == brandSlug || g.Brand == AllBrands || g.Brand == "") && !seen[g.Name] {
			seen[g.Name] = true
			out = append(out, g.Name)
		}
	}
	return out
}

// NormalizeEmail is how e-mails are compared and stored.
func NormalizeEmail(e string) string { return strings.ToLower(strings.TrimSpace(e)) }

func (s *Service) userByEmail(ctx context.Context, email string) (*store.UserByEmailRow, error) {
	u, err := store.New(s.DB).UserByEmail(ctx, NormalizeEmail(email))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrUserNotFound
	}
	return &u, err
}

// grants reads the user's role grants.
func grants(ctx context.Context, q *store.Queries, userID string) ([]RoleGrant, error) {
	rows, err := q.RoleGrants(ctx, userID)
	out := make([]RoleGrant, len(rows))
	for i, r := range rows {
		out[i] = RoleGrant{Name: Role(r.Role), Brand: r.Brand}
	}
	return out, err
}

// Login checks the e-mail and password for the brand and opens a session.
func (s *Service) Login(ctx context.Context, brandSlug, email, password string) (Tokens, error) {
	b, ok := s.Brands.BySlug(brandSlug)
	if !ok {
		return Tokens{}, ErrUnknownBrand
	}
	u, err := s.userByEmail(ctx, email)
	if errors.Is(err, ErrUserNotFound) {
		VerifyPassword(dummyHash, password)
		return Tokens{}, ErrInvalidCredentials
	}
	if err != nil {
		return Tokens{}, err
	}
	if !VerifyPassword(u.PasswordHash, password) || !u.Active {
		return Tokens{}, ErrInvalidCredentials
	}
	gs, err := grants(ctx, store.New(s.DB), u.ID)
	if err != nil {
		return Tokens{}, err
	}
	roles := RolesFor(gs, b.Slug)
	if len(roles) == 0 {
		return Tokens{}, ErrInvalidCredentials
	}
	tok, _, err := s.issue(ctx, store.New(s.DB), u.ID, u.Name, b.Slug, roles, "", "")
	return tok, err
}

// issue signs an access token and stores refresh (a new random token when
// empty) in the family (a new family when family is empty); it answers the
// stored row's id.
func (s *Service) issue(ctx context.Context, q *store.Queries, userID, name, brandSlug string, roles []Role, family, refresh string) (Tokens, string, error) {
	access, exp, err := s.Signer.Issue(userID, name, brandSlug, roles)
	if err != nil {
		return Tokens{}, "", err
	}
	if refresh == "" {
		refresh, _ = newOpaqueToken()
	}
	id, err := q.IssueRefreshToken(ctx, store.IssueRefreshTokenParams{FamilyID: store.NilIfEmpty(family), UserID: userID,
		Brand: brandSlug, TokenHash: hashToken(refresh), ExpiresAt: s.now().Add(s.RefreshTTL)})
	if err != nil {
		return Tokens{}, "", fmt.Errorf("auth: store refresh token: %w", err)
	}
	return Tokens{AccessToken: access, RefreshToken: refresh, ExpiresIn: int64(time.Until(exp).Seconds())}, id, nil
}

// successorToken is the refresh token that replaces token at its rotation:
// derived from it with the signing secret, so the rotated token presented again
// within the grace window answers the same successor while only digests of
// tokens are stored.
func (s *Service) successorToken(token string) string {
	m := hmac.New(sha256.New, s.Signer.Secret)
	m.Write([]byte("oportuna refresh successor\x00"))
	m.Write([]byte(token))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Refresh rotates a refresh token: the old one stops working and a new pair is
// issued. Presenting the rotated token again within the grace window
// (RefreshGrace, while its successor is unused and live) answers the same
// successor with a fresh access token: two tabs refreshing at once share one
// session. Presenting it later revokes its whole family.
func (s *Service) Refresh(ctx context.Context, brandSlug, refreshToken string) (Tokens, error) {
	if refreshToken == "" {
		return Tokens{}, ErrInvalidToken
	}
	var out Tokens
	reused := false
	now := s.now()
	err := store.Tx(ctx, s.DB, func(q *store.Queries) error {
		tok, err := q.LockRefreshToken(ctx, hashToken(refreshToken))
		id, family, userID, tokBrand := tok.ID, tok.FamilyID, tok.UserID, tok.Brand
		expires, rotated, revoked, successor := tok.ExpiresAt, tok.RotatedAt, tok.RevokedAt, tok.SuccessorID
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrInvalidToken
		}
		if err != nil {
			return err
		}
		if revoked != nil || tokBrand != brandSlug {
			return ErrInvalidToken
		}
		grace := false
		if rotated != nil {
			if successor != nil && now.Sub(*rotated) < s.refreshGrace() {
				live, err := q.RefreshTokenLive(ctx, store.RefreshTokenLiveParams{ID: *successor, Now: now})
				if err != nil && !errors.Is(err, pgx.ErrNoRows) {
					return err
				}
				grace = live
			}
			if !grace {
				reused = true
				return ErrInvalidToken
			}
		} else if !now.Before(expires) {
			return ErrInvalidToken
		}
		user, err := q.UserNameActive(ctx, userID)
		if err != nil {
			return err
		}
		name := user.Name
		gs, err := grants(ctx, q, userID)
		if err != nil {
			return err
		}
		roles := RolesFor(gs, brandSlug)
		if !user.Active || len(roles) == 0 {
			return ErrInvalidToken
		}
		next := s.successorToken(refreshToken)
		if grace {
			access, exp, err := s.Signer.Issue(userID, name, brandSlug, roles)
			out = Tokens{AccessToken: access, RefreshToken: next, ExpiresIn: int64(time.Until(exp).Seconds())}
			return err
		}
		var nextID string
		out, nextID, err = s.issue(ctx, q, userID, name, brandSlug, roles, family, next)
		if err != nil {
			return err
		}
		return q.RotateRefreshToken(ctx, store.RotateRefreshTokenParams{ID: id, RotatedAt: now, SuccessorID: nextID})
	})
	if reused {
		// Outside the failed transaction: someone replayed an old token, so end the whole session.
		if err := store.New(s.DB).RevokeTokenFamily(ctx, store.RevokeTokenFamilyParams{TokenHash: hashToken(refreshToken),
			At: &now}); err != nil {
			return Tokens{}, err
		}
		slog.WarnContext(ctx, "refresh token reused: session family revoked", "brand", brandSlug)
	}
	if err != nil {
		return Tokens{}, err
	}
	return out, nil
}

// Logout revokes the refresh token's family. Unknown tokens are ignored.
func (s *Service) Logout(ctx context.Context, refreshToken string) error {
	return store.New(s.DB).RevokeTokenFamily(ctx, store.RevokeTokenFamilyParams{TokenHash: hashToken(refreshToken)})
}

// User reads a user with its role grants.
func (s *Service) User(ctx context.Context, id string) (*User, error) {
	q := store.New(s.DB)
	r, err := q.UserByID(ctx, id)
	if errors.Is(err, pgx.ErrNoRows) || store.IsBadUUID(err) {
		return nil, ErrUserNotFound
	}
	if err != nil {
		return nil, err
	}
	gs, err := grants(ctx, q, r.ID)
	if err != nil {
		return nil, err
	}
	return &User{ID: r.ID, Name: r.Name, Email: r.Email, Phone: r.Phone, Doc: r.Doc, Active: r.Active, Roles: gs}, nil
}

// RequestReset creates a single-use reset token for the e-mail and sends the link
// (link = base + "?token=…"). Unknown e-mails answer ErrUserNotFound, as the spec's
// client expects ('Não foi encontrado um usuário com o email solicitado!').
func (s *Service) RequestReset(ctx context.Context, brandSlug, email, base string) error {
	b, ok := s.Brands.BySlug(brandSlug)
	if !ok {
		return ErrUnknownBrand
	}
	u, err := s.userByEmail(ctx, email)
	if err != nil {
		return err
	}
	if !u.Active {
		return ErrUserNotFound
	}
	token, hash := newOpaqueToken()
	if err := store.New(s.DB).CreatePasswordLink(ctx, store.CreatePasswordLinkParams{TokenHash: hash, UserID: u.ID,
		Brand: b.Slug, ExpiresAt: s.now().Add(s.ResetTTL), Purpose: "reset"}); err != nil {
		return err
	}
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return s.Mailer.SendPasswordReset(ctx, b, u.Email, u.Name, base+sep+"token="+token)
}

// ResetPassword sets a new password with a reset token, once; it ends the
// user's sessions and clears the login throttling of the account (e-mail and
// the link's brand).
func (s *Service) ResetPassword(ctx context.Context, token, password, confirmation string) error {
	if err := checkNewPassword(password, confirmation); err != nil {
		return err
	}
	hash, err := HashPassword(password)
	if err != nil {
		return err
	}
	var email, brandSlug string
	err = store.Tx(ctx, s.DB, func(q *store.Queries) error {
		link, err := q.UsePasswordLink(ctx, store.UsePasswordLinkParams{TokenHash: hashToken(token), Now: s.now()})
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrResetInvalid
		}
		if err != nil {
			return err
		}
		email, brandSlug = link.Email, link.Brand
		if err := setPassword(ctx, q, link.UserID, hash); err != nil {
			return err
		}
		// Whoever knew the old password may hold a session: end them all.
		return q.RevokeUserTokens(ctx, store.RevokeUserTokensParams{UserID: link.UserID})
	})
	if err != nil {
		return err
	}
	return s.loginAccounts().Clear(ctx, accountKey(brandSlug, email))
}

// ResetUsable reports whether a reset link's token can still set a password
// (known, unused, unexpired), so the page can say so before the form.
func (s *Service) ResetUsable(ctx context.Context, token string) (bool, error) {
	return store.New(s.DB).PasswordLinkUsable(ctx, store.PasswordLinkUsableParams{TokenHash: hashToken(token), Now: s.now()})
}

// UpdatePassword changes the signed-in user's password.
func (s *Service) UpdatePassword(ctx context.Context, userID, password, confirmation string) error {
	if err := checkNewPassword(password, confirmation); err != nil {
		return err
	}
	hash, err := HashPassword(password)
	if err != nil {
		return err
	}
	return store.Tx(ctx, s.DB, func(q *store.Queries) error { return setPassword(ctx, q, userID, hash) })
}

func checkNewPassword(password, confirmation string) error {
	if err := CheckPassword(password); err != nil {
		return err
	}
	if confirmation != "" && confirmation != password {
		return ErrPasswordMismatch
	}
	return nil
}

// setPassword stores the hash and voids the user's pending reset links.
func setPassword(ctx context.Context, q *store.Queries, userID, hash string) error {
	n, err := q.SetPasswordHash(ctx, store.SetPasswordHashParams{ID: userID, PasswordHash: hash})
	if store.IsBadUUID(err) {
		return ErrUserNotFound
	}
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrUserNotFound
	}
	return q.VoidPasswordLinks(ctx, store.VoidPasswordLinksParams{UserID: userID})
}
