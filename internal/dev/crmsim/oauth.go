package crmsim

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

var orgID = recordID(prefixOrg, 1)

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

func hashToken(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}

func sameSecret(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// handleToken is POST /services/oauth2/token: the client-credentials and the
// JWT bearer flows of a connected app.
func (s *Sim) handleToken(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, 400, "invalid_request", "malformed request")
		return
	}
	var flow, clientID, username string
	switch grant := r.PostForm.Get("grant_type"); grant {
	case "client_credentials":
		id, secret, basic := r.BasicAuth()
		if !basic {
			id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
		}
		if id != s.opts.ClientID {
			oauthError(w, 400, "invalid_client_id", "client identifier invalid")
			return
		}
		if !sameSecret(secret, s.opts.ClientSecret) {
			oauthError(w, 400, "invalid_client", "invalid client credentials")
			return
		}
		flow, clientID, username = "client_credentials", id, s.opts.Username
	case "urn:ietf:params:oauth:grant-type:jwt-bearer":
		if s.opts.JWTPublicKey == nil {
			oauthError(w, 400, "invalid_grant", "invalid assertion: no certificate uploaded to the connected app")
			return
		}
		claims := jwt.MapClaims{}
		_, err := jwt.ParseWithClaims(r.PostForm.Get("assertion"), claims, func(*jwt.Token) (any, error) { return s.opts.JWTPublicKey, nil },
			jwt.WithValidMethods([]string{"RS256"}), jwt.WithExpirationRequired(), jwt.WithLeeway(30*time.Second))
		if err != nil {
			oauthError(w, 400, "invalid_grant", "invalid assertion")
			return
		}
		iss, _ := claims["iss"].(string)
		sub, _ := claims["sub"].(string)
		aud, _ := claims["aud"].(string)
		switch {
		case iss != s.opts.ClientID:
			oauthError(w, 400, "invalid_client_id", "client identifier invalid")
			return
		case aud != s.opts.JWTAudience:
			oauthError(w, 400, "invalid_grant", "audience is invalid")
			return
		case !strings.EqualFold(sub, s.opts.Username):
			oauthError(w, 400, "invalid_grant", "user hasn't approved this consumer")
			return
		}
		flow, clientID, username = "jwt", iss, sub
	case "":
		oauthError(w, 400, "invalid_request", "grant_type is required")
		return
	default:
		oauthError(w, 400, "unsupported_grant_type", "grant type not supported")
		return
	}
	raw := make([]byte, 24)
	_, _ = rand.Read(raw)
	token := orgID[:15] + "!" + base64.RawURLEncoding.EncodeToString(raw)
	if _, err := s.q(r.Context()).Exec(r.Context(), `INSERT INTO crm_sim.tokens (token_hash, flow, client_id, username) VALUES ($1, $2, $3, $4)`,
		hashToken(token), flow, clientID, username); err != nil {
		s.log.Error("crm-sim: store token", "err", err)
		oauthError(w, 500, "server_error", "an unexpected error occurred")
		return
	}
	instance := s.opts.InstanceURL
	if instance == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		instance = scheme + "://" + r.Host
	}
	issued := strconv.FormatInt(time.Now().UnixMilli(), 10)
	mac := hmac.New(sha256.New, []byte(s.opts.ClientSecret))
	mac.Write([]byte(instance + issued))
	writeJSON(w, http.StatusOK, map[string]string{
		"access_token": token,
		"signature":    base64.StdEncoding.EncodeToString(mac.Sum(nil)),
		"scope":        "api",
		"instance_url": instance,
		"id":           instance + "/id/" + orgID + "/" + stableID(prefixUser, "integration/"+username),
		"token_type":   "Bearer",
		"issued_at":    issued,
	})
}

// validToken reports a token issued, not revoked, and used within the
// session timeout (Salesforce ends a session after that much inactivity); the
// use is noted (at most once a minute, to spare writes).
func (s *Sim) validToken(ctx context.Context, token string) bool {
	if token == "" {
		return false
	}
	var ok bool
	err := s.q(ctx).QueryRow(ctx, `WITH t AS (
			SELECT token_hash, COALESCE(last_used_at, issued_at) AS seen FROM crm_sim.tokens
			WHERE token_hash = $1 AND revoked_at IS NULL AND COALESCE(last_used_at, issued_at) > now() - make_interval(secs => $2)),
		touched AS (
			UPDATE crm_sim.tokens k SET last_used_at = now() FROM t
			WHERE k.token_hash = t.token_hash AND t.seen < now() - interval '1 minute')
		SELECT EXISTS (SELECT 1 FROM t)`, hashToken(token), s.opts.SessionTimeout.Seconds()).Scan(&ok)
	return err == nil && ok
}
