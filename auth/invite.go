package auth

import (
	"context"
	"fmt"
	"strings"
	"time"

	"oportuna/brand"
	"oportuna/store"
)

// DefaultInviteTTL is how long the set-password link of an invited user (an
// approved reseller, a seller added by its reseller) lasts: longer than a reset
// link, since the invitation may wait in an inbox for days.
const DefaultInviteTTL = 7 * 24 * time.Hour

// SetPasswordPath is the portal page that sets a password from an e-mailed
// link (the password-recovery page, reused for invitations).
const SetPasswordPath = "/reset-password"

// CreateInvite stores a single-use set-password token for a new user at the
// brand, valid for ttl from now, and returns the token; only its hash is kept.
// q runs on a pool or in a transaction, so the token can be created with the user.
// The token works with ResetPassword (POST /auth/update_password with token),
// like a reset link: setting the password voids it and the user's other links.
func CreateInvite(ctx context.Context, q *store.Queries, userID, brandSlug string, ttl time.Duration, now time.Time) (string, error) {
	if ttl <= 0 {
		ttl = DefaultInviteTTL
	}
	token, hash := newOpaqueToken()
	if err := q.CreatePasswordLink(ctx, store.CreatePasswordLinkParams{TokenHash: hash, UserID: userID,
		Brand: brandSlug, ExpiresAt: now.Add(ttl), Purpose: "invite"}); err != nil {
		return "", fmt.Errorf("auth: store invitation: %w", err)
	}
	return token, nil
}

// BrandHost reports whether an e-mailed link may point at the host name: one
// of the brand's configured hosts, or <slug>.localhost (development). The
// Host header of a request is the client's to choose, and an unknown one is
// given the fallback brand (brand.Registry.ForHost), so it is never trusted alone.
func BrandHost(b *brand.Brand, hostname string) bool {
	hostname = strings.TrimSuffix(hostname, ".")
	if hostname == "" {
		return false
	}
	if strings.EqualFold(hostname, b.Slug+".localhost") {
		return true
	}
	for _, h := range b.Hosts {
		if strings.EqualFold(hostname, h) {
			return true
		}
	}
	return false
}

// SetPasswordLink is the e-mailed link of a token: the portal's base URL
// ("https://parceiros.marca.com.br") plus SetPasswordPath and the token.
func SetPasswordLink(portal, token string) string {
	return strings.TrimRight(portal, "/") + SetPasswordPath + "?token=" + token
}
