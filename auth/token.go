package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Role is a user's role for a brand.
type Role string

// The four roles of spec §6.
const (
	Representative Role = "REPRESENTATIVE"
	Resale         Role = "RESALE"
	Seller         Role = "SELLER"
	Support        Role = "SUPPORT"
)

// AllBrands is the brand value of a role held for every brand.
const AllBrands = "all"

// Claims are what an access token carries.
type Claims struct {
	jwt.RegisteredClaims
	Name  string `json:"name"`
	Brand string `json:"brand"`
	Roles []Role `json:"roles"`
}

// UserID is the token's subject.
func (c *Claims) UserID() string { return c.Subject }

// Has reports whether the token holds any of the roles.
func (c *Claims) Has(roles ...Role) bool {
	for _, have := range c.Roles {
		for _, want := range roles {
			if have == want {
				return true
			}
		}
	}
	return false
}

// ErrInvalidToken is any access or refresh token that cannot be accepted.
var ErrInvalidToken = errors.New("auth: invalid token")

// Signer issues and checks access tokens.
type Signer struct {
	Secret []byte
	TTL    time.Duration
	Now    func() time.Time
}

func (s *Signer) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Issue signs an access token for the user at the brand.
func (s *Signer) Issue(userID, name, brandSlug string, roles []Role) (string, time.Time, error) {
	now := s.now()
	exp := now.Add(s.TTL)
	c := Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   userID,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(exp),
			Issuer:    "oportuna",
		},
		Name: name, Brand: brandSlug, Roles: roles,
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.Secret)
	return tok, exp, err
}

// Parse verifies an access token and returns its claims.
func (s *Signer) Parse(token string) (*Claims, error) {
	c := new(Claims)
	_, err := jwt.ParseWithClaims(token, c, func(*jwt.Token) (any, error) { return s.Secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer("oportuna"),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.now),
	)
	if err != nil || c.Subject == "" || c.Brand == "" {
		return nil, fmt.Errorf("%w: %v", ErrInvalidToken, err)
	}
	return c, nil
}

// newOpaqueToken returns a random token for the client and its SHA-256 for storage.
func newOpaqueToken() (token string, hash []byte) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
