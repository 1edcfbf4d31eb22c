package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"time"

	"oportuna/internal/clientaddr"
	"oportuna/internal/ratelimit"
	"oportuna/internal/respond"
)

// Throttling of the authenticator (docs/security-throttling.md). Every limit is
// kept in PostgreSQL by internal/ratelimit, so all API replicas share it.
const (
	// LoginFreePerAccount is how many login attempts an account (login name +
	// brand, known or not) makes before its first lock.
	LoginFreePerAccount = 5
	// LoginFreePerAddress is how many failed logins a client address makes
	// (over every account) before its first lock.
	LoginFreePerAddress = 20
	// RefreshFreePerAddress is how many refused refresh calls a client address
	// makes before its first lock.
	RefreshFreePerAddress = 20
	// ResetTokenFreePerAddress is how many unusable reset links (check or
	// confirmation) a client address presents before its first lock.
	ResetTokenFreePerAddress = 10
	// LockBase is the first lock; every further failed attempt doubles it, up
	// to LockMax. A key's failures are forgotten LockForget after its last one.
	LockBase   = 30 * time.Second
	LockMax    = 15 * time.Minute
	LockForget = time.Hour
	// ResetRequestsPerAccount reset links may be asked for one e-mail and
	// brand per ResetRequestWindow (besides the limit per client address).
	ResetRequestsPerAccount = 10
	ResetRequestWindow      = time.Hour
	// DefaultRefreshGrace is how long after a rotation the rotated refresh
	// token, presented again, answers the same successor (two tabs refreshing
	// at once) instead of being taken for a stolen token.
	DefaultRefreshGrace = 30 * time.Second
)

// Messages of the throttled answers (429, with Retry-After). The account
// message is the same whether or not the account exists.
const (
	MsgAccountLocked    = "Muitas tentativas de acesso sem sucesso para este usuário. Por segurança, o acesso está bloqueado temporariamente; tente novamente em %s."
	MsgAddressLocked    = "Muitas tentativas de acesso sem sucesso a partir deste endereço. Tente novamente em %s."
	MsgRefreshLocked    = "Muitas tentativas de renovar a sessão a partir deste endereço. Tente novamente em %s."
	MsgResetTokenLocked = "Muitas tentativas com links de redefinição inválidos. Tente novamente em %s."
	MsgResetAccountMany = "Muitas solicitações de redefinição de senha para este e-mail. Tente novamente em %s."
)

// waitText says a wait in pt-BR, rounded up: "30 segundos", "1 minuto", "15 minutos".
func waitText(d time.Duration) string {
	secs := max(1, int(math.Ceil(d.Seconds())))
	if secs < 60 {
		if secs == 1 {
			return "1 segundo"
		}
		return fmt.Sprintf("%d segundos", secs)
	}
	mins := (secs + 59) / 60
	if mins == 1 {
		return "1 minuto"
	}
	return fmt.Sprintf("%d minutos", mins)
}

func tooMany(w http.ResponseWriter, wait time.Duration, msg string) {
	ratelimit.TooMany(w, wait, fmt.Sprintf(msg, waitText(wait)))
}

func (s *Service) backoff(name string, free int) *ratelimit.Backoff {
	return &ratelimit.Backoff{DB: s.DB, Name: name, Free: free, Base: LockBase, Max: LockMax, Forget: LockForget, Now: s.Now}
}

func (s *Service) loginAccounts() *ratelimit.Backoff {
	return s.backoff("login-account", LoginFreePerAccount)
}
func (s *Service) loginAddresses() *ratelimit.Backoff {
	return s.backoff("login-address", LoginFreePerAddress)
}
func (s *Service) refreshAddresses() *ratelimit.Backoff {
	return s.backoff("refresh-address", RefreshFreePerAddress)
}
func (s *Service) resetTokenAddresses() *ratelimit.Backoff {
	return s.backoff("reset-token-address", ResetTokenFreePerAddress)
}

// resetLimiter limits POST /auth/reset_password per client address, like the
// public forms of the API.
func (s *Service) resetLimiter() *ratelimit.Window {
	return ratelimit.FormWindow(s.DB, "reset-password", s.ResetLimit, s.Now)
}

func (s *Service) resetAccounts() *ratelimit.Window {
	return &ratelimit.Window{DB: s.DB, Name: "reset-account", Limit: ResetRequestsPerAccount, Per: ResetRequestWindow, Now: s.Now}
}

// accountKey is the throttling key of a login name at a brand: a digest, so
// rate_failures holds no e-mail address.
func accountKey(brandSlug, login string) string {
	h := sha256.Sum256([]byte(NormalizeBrand(brandSlug) + "\x00" + NormalizeEmail(login)))
	return hex.EncodeToString(h[:])
}

// NormalizeBrand is how a brand slug is compared.
func NormalizeBrand(slug string) string { return NormalizeEmail(slug) }

func (s *Service) refreshGrace() time.Duration {
	if s.RefreshGrace > 0 {
		return s.RefreshGrace
	}
	return DefaultRefreshGrace
}

// gate is one throttled attempt: its keys were counted; done settles them
// with the outcome.
type gate struct {
	ctx   context.Context
	steps []gateStep
	// later are the steps counted only when the attempt fails (fail).
	later []gateStep
}

type gateStep struct {
	b   *ratelimit.Backoff
	key string
	// clearOnSuccess forgets every failure of the key on success (the
	// account of a login); otherwise success takes back only this attempt.
	clearOnSuccess bool
	// onFailure: the key is only checked for a lock when the attempt starts,
	// and counted when it fails (fail). For a client address: many people
	// behind one address (an office's NAT, a proxy not in TRUSTED_PROXIES)
	// log in or refresh at the same moment, and attempts still in flight
	// must not lock them out. An account's key counts at the start, so
	// simultaneous guesses cannot outrun it.
	onFailure bool
}

// enter counts the attempt under every step's key in order (a step marked
// onFailure is only checked for a lock, and counted later by fail); the first
// locked key answers 429 with its message (and the keys already counted are
// taken back). nil: the answer was written.
func enter(w http.ResponseWriter, r *http.Request, steps []gateStep, msgs []string) *gate {
	g := &gate{ctx: r.Context()}
	for i, st := range steps {
		if st.onFailure {
			wait, err := st.b.Locked(r.Context(), st.key)
			if err != nil {
				g.refund()
				respond.Internal(w, r, err)
				return nil
			}
			if wait > 0 {
				g.refund()
				slog.WarnContext(r.Context(), "throttled", "limit", st.b.Name, "client", clientaddr.Host(r), "retry_after", wait.String())
				tooMany(w, wait, msgs[i])
				return nil
			}
			g.later = append(g.later, st)
			continue
		}
		ok, wait, err := st.b.Attempt(r.Context(), st.key)
		if err != nil {
			g.refund()
			respond.Internal(w, r, err)
			return nil
		}
		if !ok {
			g.refund()
			slog.WarnContext(r.Context(), "throttled", "limit", st.b.Name, "client", clientaddr.Host(r), "retry_after", wait.String())
			tooMany(w, wait, msgs[i])
			return nil
		}
		g.steps = append(g.steps, st)
	}
	return g
}

// settle takes back the attempts counted at the start when the attempt
// succeeded, and clears the keys marked clearOnSuccess.
func (g *gate) settle(succeeded bool) {
	if !succeeded {
		return
	}
	for _, st := range g.steps {
		var err error
		if st.clearOnSuccess {
			err = st.b.Clear(g.ctx, st.key)
		} else {
			err = st.b.Refund(g.ctx, st.key)
		}
		if err != nil {
			slog.ErrorContext(g.ctx, "throttle: settle a successful attempt", "limit", st.b.Name, "err", err)
		}
	}
}

// refund takes back the attempts counted at the start (the attempt did not
// happen: the server failed).
func (g *gate) refund() {
	for _, st := range g.steps {
		if err := st.b.Refund(g.ctx, st.key); err != nil {
			slog.ErrorContext(g.ctx, "throttle: take back an attempt", "limit", st.b.Name, "err", err)
		}
	}
}

// answer ends a gated attempt by its outcome: an error that is refused counts
// as a failed attempt and answers status with msg; any other error takes the
// attempt back and answers 500; no error settles the attempt and ok answers.
func (g *gate) answer(w http.ResponseWriter, r *http.Request, err, refused error, status int, msg string, ok func()) {
	switch {
	case errors.Is(err, refused):
		g.fail()
		respond.Error(w, status, msg)
	case err != nil:
		g.refund()
		respond.Internal(w, r, err)
	default:
		g.settle(true)
		ok()
	}
}

// fail counts the failed attempt under the keys counted on failure (the
// others were counted when it started).
func (g *gate) fail() {
	for _, st := range g.later {
		if _, _, err := st.b.Attempt(g.ctx, st.key); err != nil {
			slog.ErrorContext(g.ctx, "throttle: count a failed attempt", "limit", st.b.Name, "err", err)
		}
	}
}
