package mailer

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"html"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/brand"
	"oportuna/internal/clientaddr"
	"oportuna/internal/ratelimit"
	"oportuna/internal/respond"
	"oportuna/store"
)

// Answers of the spec's send call (spec §8 "Contact": "Mailer: failure 'Falha ao
// enviar o email', success 'Email enviado com sucesso'").
const (
	MsgSent   = "Email enviado com sucesso"
	MsgFailed = "Falha ao enviar o email"
)

// Reasons of a refused send, in the answer's errors list.
const (
	MsgSubjectRequired = "Informe o assunto."
	MsgSubjectTooLong  = "O assunto pode ter no máximo 200 caracteres."
	MsgContentRequired = "Informe o conteúdo."
	MsgContentTooLong  = "O conteúdo pode ter no máximo 20.000 caracteres."
	MsgToRequired      = "Informe o destinatário."
	MsgToInvalid       = "Destinatário inválido: "
	MsgToNotAllowed    = "Destinatário não permitido (somente os endereços da marca): "
	MsgDomainUnknown   = "Domínio desconhecido: informe o endereço do portal da marca."
	MsgContentType     = "Tipo de conteúdo inválido: use text/html ou text/plain."
	MsgTooMany         = "Muitos envios em pouco tempo. Tente novamente em alguns minutos."
	MsgBadForm         = "Dados inválidos: envie um formulário (multipart/form-data ou application/x-www-form-urlencoded)."
	MsgKeyTooLong      = "A chave de idempotência pode ter no máximo 200 caracteres."
)

// Limits of the send call.
const (
	MaxSendSubject = 200
	MaxSendContent = 20000
	maxSendForm    = 256 << 10
)

// Default rates of the send call.
const (
	DefaultPerClient       = 5 // per client address per minute
	DefaultPerBrandPerHour = 60
)

// Handler serves the spec's send call (/mailer) and the dev mailbox (/mailbox).
//
// The send call is not a relay: it writes only to the addresses of the brand
// named by domain (its administrator and contact addresses), with bounded
// sizes and rates; an HTML content is shown as text inside the brand's own
// layout, never as the caller's markup; see docs/integrations-mail.md.
type Handler struct {
	Brands *brand.Registry
	// DB is the outbox the mailbox lists.
	DB *pgxpool.Pool
	// Enqueue hands an accepted e-mail over for durable delivery (the SendEmail workflow).
	Enqueue func(context.Context, Message) error
	// Portal is the base URL of a brand's portal (Mailer.Portal), where the
	// layout's logo points. Nil: the request's own host when it is the
	// brand's, else the default PORTAL_URL.
	Portal func(*brand.Brand) string
	// PerClient and PerBrandPerHour bound the send call (zero: the defaults);
	// the counts are kept in DB (internal/ratelimit), shared by every replica.
	PerClient       int
	PerBrandPerHour int
	// Now is the clock of the limits (nil: time.Now).
	Now func() time.Time

	once   sync.Once
	client *ratelimit.Window
	brand  *ratelimit.Window
}

func (h *Handler) init() {
	h.once.Do(func() {
		if h.PerClient <= 0 {
			h.PerClient = DefaultPerClient
		}
		if h.PerBrandPerHour <= 0 {
			h.PerBrandPerHour = DefaultPerBrandPerHour
		}
		h.client = &ratelimit.Window{DB: h.DB, Name: "mailer-client", Limit: h.PerClient, Per: time.Minute, Now: h.now}
		h.brand = &ratelimit.Window{DB: h.DB, Name: "mailer-brand", Limit: h.PerBrandPerHour, Per: time.Hour, Now: h.now}
	})
}

func (h *Handler) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}

// Send is the spec's send call, to mount at /mailer: POST form data subject,
// content, to (comma-separated), domain, contentType.
func (h *Handler) Send() http.Handler {
	h.init()
	r := chi.NewRouter()
	r.Post("/", h.handleSend)
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) {
		respond.Error(w, http.StatusNotFound, "Recurso não encontrado.")
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, _ *http.Request) {
		respond.Error(w, http.StatusMethodNotAllowed, "Método não permitido.")
	})
	return r
}

func refuse(w http.ResponseWriter, status int, reasons ...string) {
	respond.JSON(w, status, respond.Message{Message: MsgFailed, Errors: reasons})
}

func (h *Handler) handleSend(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxSendForm)
	var err error
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "multipart/form-data" {
		err = r.ParseMultipartForm(maxSendForm)
	} else if ct == "application/x-www-form-urlencoded" {
		err = r.ParseForm()
	} else {
		err = errors.New("not a form")
	}
	if err != nil {
		refuse(w, http.StatusBadRequest, MsgBadForm)
		return
	}
	b, msg, isHTML, reasons := h.check(r)
	if len(reasons) > 0 {
		refuse(w, http.StatusBadRequest, reasons...)
		return
	}
	if isHTML {
		c, err := h.branded(r, b, msg.Subject, msg.Text)
		if err != nil {
			slog.ErrorContext(r.Context(), "mailer: render the send call's e-mail", "brand", b.Slug, "err", err)
			refuse(w, http.StatusInternalServerError)
			return
		}
		msg.HTML, msg.Text = c.HTML, c.Text
	}
	for _, l := range []struct {
		w   *ratelimit.Window
		key string
	}{{h.client, clientaddr.Key(r)}, {h.brand, b.Slug}} {
		ok, wait, err := l.w.Allow(r.Context(), l.key)
		if err != nil {
			slog.ErrorContext(r.Context(), "mailer: rate limit", "brand", b.Slug, "err", err)
			refuse(w, http.StatusInternalServerError)
			return
		}
		if !ok {
			w.Header().Set("Retry-After", ratelimit.RetryAfter(wait))
			refuse(w, http.StatusTooManyRequests, MsgTooMany)
			return
		}
	}
	if h.Enqueue == nil {
		slog.ErrorContext(r.Context(), "mailer: no Enqueue configured", "brand", b.Slug)
		refuse(w, http.StatusInternalServerError)
		return
	}
	if err := h.Enqueue(r.Context(), msg); err != nil {
		// The e-mail may be recorded while its delivery did not start: mark it
		// failed (the mailbox shows why) rather than pending for ever. The
		// caller hears of the failure; repeating the call with the same
		// idempotency key starts the delivery of the same e-mail.
		slog.ErrorContext(r.Context(), "mailer: delivery not started", "brand", b.Slug, "key", msg.Key, "err", err)
		h.markNotStarted(r.Context(), msg.Key, err)
		refuse(w, http.StatusInternalServerError)
		return
	}
	respond.JSON(w, http.StatusOK, respond.Message{Message: MsgSent})
}

// markNotStarted marks a recorded e-mail whose delivery could not be started
// as failed, with the reason; a delivery started later still sends it.
func (h *Handler) markNotStarted(ctx context.Context, key string, cause error) {
	if h.DB == nil {
		return
	}
	mctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := store.New(h.DB).MarkMailNotStarted(mctx, store.MarkMailNotStartedParams{Key: key,
		Error: truncate("entrega não iniciada: "+cause.Error(), 2000)}); err != nil {
		slog.ErrorContext(ctx, "mailer: e-mail left pending without a delivery", "key", key, "err", err)
	}
}

// MaxClientKey bounds the idempotency key a caller sends.
const MaxClientKey = 200

// clientKey is the caller's idempotency key for the send call: the
// Idempotency-Key header, else X-Request-Id, else the form's requestId.
func clientKey(r *http.Request) string {
	for _, v := range []string{r.Header.Get("Idempotency-Key"), r.Header.Get("X-Request-Id"), r.PostFormValue("requestId")} {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

// sendKey is the outbox key of a send call. With the caller's idempotency key
// it is derived from that key and the whole message, so a retried call lands
// on the recorded e-mail (sent once) and a different message never takes
// another's key; without one, every call is a new e-mail.
func sendKey(client, brandSlug string, to []string, subject, contentType, content string) string {
	if client == "" {
		return "mailer/" + randomID()
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{client, brandSlug, strings.Join(to, ","), subject, contentType, content}, "\x00")))
	return "mailer/" + hex.EncodeToString(sum[:16])
}

// portal is the base URL of the brand's portal for the layout's logo.
func (h *Handler) portal(r *http.Request, b *brand.Brand) string {
	if h.Portal != nil {
		return h.Portal(b)
	}
	if host := r.Host; host != "" && h.brandOf(host) == b {
		scheme := "http"
		if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
			scheme = "https"
		}
		return scheme + "://" + host
	}
	return Config{}.Portal(b)
}

// branded renders the caller's content, as text, inside the brand's layout:
// html/template escapes it, so no markup, link or script of the caller's
// reaches the inbox. The plain-text part is the same text.
func (h *Handler) branded(r *http.Request, b *brand.Brand, subject, text string) (Content, error) {
	return Templates{Brand: b, Portal: h.portal(r, b)}.render(view{
		Subject:   subject,
		Preheader: oneLine(text, 120),
		Heading:   subject,
		Quote:     &Quote{Label: "Mensagem", Text: text},
		Footer:    "Enviado pelo Portal de Oportunidades " + b.Name + ".",
	})
}

// check validates the form: the brand from domain, recipients among the brand's
// own addresses, sizes and content type. An HTML content comes back as its
// text, with isHTML set (handleSend lays it out in the brand's template).
func (h *Handler) check(r *http.Request) (b *brand.Brand, msg Message, isHTML bool, reasons []string) {
	subject := strings.TrimSpace(r.PostFormValue("subject"))
	content := r.PostFormValue("content")
	switch {
	case subject == "":
		reasons = append(reasons, MsgSubjectRequired)
	case utf8.RuneCountInString(subject) > MaxSendSubject || strings.ContainsAny(subject, "\r\n"):
		reasons = append(reasons, MsgSubjectTooLong)
	}
	switch {
	case strings.TrimSpace(content) == "":
		reasons = append(reasons, MsgContentRequired)
	case utf8.RuneCountInString(content) > MaxSendContent || !utf8.ValidString(content):
		reasons = append(reasons, MsgContentTooLong)
	}
	contentType := "text/html"
	if ct := strings.TrimSpace(r.PostFormValue("contentType")); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "text/html" && mt != "text/plain") {
			reasons = append(reasons, MsgContentType)
		} else {
			contentType = mt
		}
	}
	b = h.brandOf(r.PostFormValue("domain"))
	if b == nil {
		return nil, Message{}, false, append(reasons, MsgDomainUnknown)
	}
	allowed := []string{}
	for _, a := range []string{b.Admin.Email, b.Contact.Email} {
		if a = strings.ToLower(strings.TrimSpace(a)); a != "" {
			allowed = append(allowed, a)
		}
	}
	var to []string
	for _, raw := range strings.Split(r.PostFormValue("to"), ",") {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		a, err := ParseAddress(raw)
		switch {
		case err != nil:
			reasons = append(reasons, MsgToInvalid+strings.TrimSpace(raw))
		case !slices.Contains(allowed, a):
			reasons = append(reasons, MsgToNotAllowed+a)
		case !slices.Contains(to, a):
			to = append(to, a)
		}
	}
	if len(to) == 0 && len(reasons) == 0 {
		reasons = append(reasons, MsgToRequired)
	}
	key := clientKey(r)
	if utf8.RuneCountInString(key) > MaxClientKey {
		reasons = append(reasons, MsgKeyTooLong)
	}
	if len(reasons) > 0 {
		return b, Message{}, false, reasons
	}
	msg = Message{Key: sendKey(key, b.Slug, to, subject, contentType, content), Brand: b.Slug, To: to, Subject: subject}
	if contentType == "text/plain" {
		msg.Text = content
		return b, msg, false, nil
	}
	if msg.Text = TextFromHTML(content); msg.Text == "" {
		return b, Message{}, false, []string{MsgContentRequired} // markup without any text
	}
	return b, msg, true, nil
}

// brandOf finds the brand whose slug or host is exactly domain (port ignored).
func (h *Handler) brandOf(domain string) *brand.Brand {
	d := strings.ToLower(strings.TrimSpace(domain))
	if u, _, err := net.SplitHostPort(d); err == nil {
		d = u
	}
	d = strings.TrimSuffix(d, ".")
	if d == "" {
		return nil
	}
	for _, b := range h.Brands.All() {
		if d == b.Slug || d == b.Slug+".localhost" {
			return b
		}
		for _, host := range b.Hosts {
			if strings.EqualFold(host, d) {
				return b
			}
		}
	}
	return nil
}

func randomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

var (
	blockRE = regexp.MustCompile(`(?is)<(script|style|head)\b.*?</(script|style|head)>`)
	breakRE = regexp.MustCompile(`(?i)<br\s*/?>|</(p|div|h[1-6]|li|tr|table)>`)
	tagRE   = regexp.MustCompile(`(?s)<[^>]*>`)
	blankRE = regexp.MustCompile(`\n[ \t]*\n(\s*\n)+`)
)

// TextFromHTML is a plain-text rendering of an HTML body (for the text part of
// e-mails whose HTML comes from elsewhere).
func TextFromHTML(s string) string {
	s = blockRE.ReplaceAllString(s, "")
	s = breakRE.ReplaceAllString(s, "\n")
	s = html.UnescapeString(tagRE.ReplaceAllString(s, ""))
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.TrimSpace(blankRE.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}
