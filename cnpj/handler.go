package cnpj

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/auth"
	"oportuna/internal/clientaddr"
	"oportuna/internal/ratelimit"
	"oportuna/internal/respond"
)

// Answers of GET /cnpj/{digits} (spec §8 "Company lookup").
const (
	MsgInvalid     = "CNPJ inválido! Por favor digite um CNPJ válido!"
	MsgTooMany     = "É permitido somente 3 consultas por minuto"
	MsgUnavailable = "Não foi possível consultar o CNPJ agora. Tente novamente em instantes."
	// MsgProviderBusy is the answer when the registry provider itself refused
	// for too many requests (not the caller's limit): the wait it asked for.
	MsgProviderBusy = "O serviço de consulta de CNPJ está recebendo muitas consultas. Tente novamente em %s."
)

// ProviderBusyMessage is MsgProviderBusy for a wait of Retry-After seconds
// (whole, rounded up, at least 1, as the header says).
func ProviderBusyMessage(wait time.Duration) string {
	n := ratelimit.RetryAfter(wait)
	if n == "1" {
		return fmt.Sprintf(MsgProviderBusy, "1 segundo")
	}
	return fmt.Sprintf(MsgProviderBusy, n+" segundos")
}

// Finder is what the handler needs of a Lookup.
type Finder interface {
	Find(ctx context.Context, cnpj string) (Company, error)
}

// Handler answers GET /cnpj/{digits}: public (the reseller sign-up uses it before
// any login), limited to Limit lookups per Window per caller across replicas.
//
//	200 the Company; 400 invalid number and 404 unknown company, both MsgInvalid;
//	429 MsgTooMany (with Retry-After) for the caller's limit, or
//	ProviderBusyMessage with the provider's Retry-After when the provider
//	refused for too many requests; 502 MsgUnavailable when the provider fails.
//
// The caller is the signed-in user when the request carries a valid session
// (claims already in the context, or a bearer token Signer accepts), else the
// client address plus the brand. Every lookup of a valid number counts, cache
// hits included; a number with wrong check digits is refused without counting.
type Handler struct {
	lookup  Finder
	limiter *ratelimit.Window

	// Signer, when set, reads the session token of a signed-in caller (the route
	// is outside the authenticated group). An invalid token counts as anonymous.
	Signer *auth.Signer
	// BrandOf names the brand of an anonymous request (e.g. from the host); it
	// should answer one of a fixed set so a client cannot multiply its keys.
	BrandOf func(*http.Request) string
	// Now is the limiter's clock (tests move it).
	Now func() time.Time
}

// NewHandler builds the handler; db holds the limiter's table.
func NewHandler(db *pgxpool.Pool, lookup Finder) *Handler {
	return &Handler{lookup: lookup, limiter: newLimiter(db)}
}

func (h *Handler) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}

// ServeHTTP reads the number from the chi URL parameter "digits".
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw := chi.URLParam(r, "digits")
	if un, err := url.PathUnescape(raw); err == nil {
		raw = un
	}
	n := Normalize(raw)
	if !Valid(n) {
		respond.Error(w, http.StatusBadRequest, MsgInvalid)
		return
	}
	ok, wait, err := h.limiter.AllowAt(r.Context(), h.caller(r), h.now())
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	if !ok {
		tooMany(w, wait)
		return
	}
	c, err := h.lookup.Find(r.Context(), n)
	switch {
	case err == nil:
		respond.JSON(w, http.StatusOK, c)
	case errors.Is(err, ErrInvalid):
		respond.Error(w, http.StatusBadRequest, MsgInvalid)
	case errors.Is(err, ErrNotFound):
		respond.Error(w, http.StatusNotFound, MsgInvalid)
	case errors.Is(err, ErrRateLimited):
		// The provider's Retry-After (else a minute) reaches the user, in the
		// header and in the message.
		wait := Window
		var rl *RateLimitError
		if errors.As(err, &rl) && rl.RetryAfter > 0 {
			wait = rl.RetryAfter
		}
		slog.WarnContext(r.Context(), "cnpj provider rate limit", "err", err, "retry_after", wait)
		ratelimit.TooMany(w, wait, ProviderBusyMessage(wait))
	default:
		slog.ErrorContext(r.Context(), "cnpj lookup failed", "cnpj", n, "err", err)
		respond.Error(w, http.StatusBadGateway, MsgUnavailable)
	}
}

func tooMany(w http.ResponseWriter, wait time.Duration) {
	ratelimit.TooMany(w, wait, MsgTooMany)
}

// caller is the key the limit counts under.
func (h *Handler) caller(r *http.Request) string {
	if c := auth.FromContext(r.Context()); c != nil && c.Subject != "" {
		return "user:" + c.Subject
	}
	if h.Signer != nil {
		if tok := bearerToken(r); tok != "" {
			if c, err := h.Signer.Parse(tok); err == nil {
				return "user:" + c.Subject
			}
		}
	}
	brand := ""
	if h.BrandOf != nil {
		brand = h.BrandOf(r)
	}
	return "ip:" + clientaddr.Key(r) + "|" + brand
}

func bearerToken(r *http.Request) string {
	v := r.Header.Get("Authorization")
	if len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
		return strings.TrimSpace(v[7:])
	}
	return ""
}
