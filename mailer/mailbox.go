package mailer

import (
	"context"
	"errors"
	"html"
	htmltemplate "html/template"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5"

	"oportuna/brand"
	"oportuna/internal/calendar"
	"oportuna/internal/respond"
	"oportuna/store"
)

// Sizes of the mailbox's lists.
const (
	DefaultMailboxLimit = 100
	MaxMailboxLimit     = 1000
)

// Stored is an e-mail of the outbox as the mailbox shows it.
type Stored struct {
	ID        int64      `json:"id"`
	Key       string     `json:"key"`
	Brand     string     `json:"brand"`
	To        []string   `json:"to"`
	ReplyTo   string     `json:"replyTo"`
	Subject   string     `json:"subject"`
	HTML      string     `json:"html"`
	Text      string     `json:"text"`
	Links     []string   `json:"links"`
	Status    string     `json:"status"`
	Attempts  int        `json:"attempts"`
	LastError string     `json:"lastError"`
	CreatedAt time.Time  `json:"createdAt"`
	SentAt    *time.Time `json:"sentAt"`
}

// List reads the outbox, newest first; to keeps the e-mails with that recipient
// (exact address, any case).
func List(ctx context.Context, db store.DBTX, to string, limit int) ([]Stored, error) {
	if limit <= 0 {
		limit = DefaultMailboxLimit
	}
	limit = min(limit, MaxMailboxLimit)
	rows, err := store.New(db).ListMail(ctx, store.ListMailParams{Recipient: strings.ToLower(strings.TrimSpace(to)), MaxRows: limit})
	if err != nil {
		return nil, err
	}
	list := make([]Stored, len(rows))
	for i, r := range rows {
		list[i] = stored(r)
	}
	return list, nil
}

// stored is an outbox row as the mailbox shows it, with its links.
func stored(r store.MailOutbox) Stored {
	return Stored{ID: r.ID, Key: r.Key, Brand: r.Brand, To: r.Recipients, ReplyTo: r.ReplyTo, Subject: r.Subject,
		HTML: r.Html, Text: r.Text, Links: Links(r.Html, r.Text), Status: r.Status, Attempts: r.Attempts,
		LastError: r.LastError, CreatedAt: r.CreatedAt, SentAt: r.SentAt}
}

var (
	hrefRE    = regexp.MustCompile(`(?i)href\s*=\s*"([^"]*)"`)
	textURLRE = regexp.MustCompile(`https?://[^\s<>"]+`)
)

// Links lists the http(s) links of an e-mail, in order, once each: from the
// HTML's href attributes, else from the text.
func Links(htmlBody, text string) []string {
	out := []string{}
	add := func(u string) {
		if (strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")) && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	for _, m := range hrefRE.FindAllStringSubmatch(htmlBody, -1) {
		add(html.UnescapeString(m[1]))
	}
	if htmlBody == "" {
		for _, u := range textURLRE.FindAllString(text, -1) {
			add(strings.TrimRight(u, ".,;)"))
		}
	}
	return out
}

// Mailbox is the dev mailbox, to mount at /mailbox only when Config.Mailbox
// is on: a page listing every e-mail of the outbox (filter ?to=), a page per
// e-mail with its links, and JSON at /api/messages?to=&limit= for tests.
func (h *Handler) Mailbox() http.Handler {
	r := chi.NewRouter()
	r.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-store")
			w.Header().Set("X-Robots-Tag", "noindex")
			next.ServeHTTP(w, r)
		})
	})
	r.Get("/", h.handleMailboxPage)
	r.Get("/api/messages", h.handleMailboxJSON)
	r.Get("/api/messages/{id}", h.handleMailboxOneJSON)
	r.Get("/{id}", h.handleMailboxMessage)
	r.Get("/{id}/body", h.handleMailboxBody)
	return r
}

func limitParam(r *http.Request) int {
	n, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	return n
}

func (h *Handler) handleMailboxJSON(w http.ResponseWriter, r *http.Request) {
	list, err := List(r.Context(), h.DB, r.URL.Query().Get("to"), limitParam(r))
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, map[string]any{"messages": list})
}

func (h *Handler) stored(w http.ResponseWriter, r *http.Request) *Stored {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil {
		respond.Error(w, http.StatusNotFound, "E-mail não encontrado.")
		return nil
	}
	row, err := store.New(h.DB).GetMail(r.Context(), id)
	if errors.Is(err, pgx.ErrNoRows) {
		respond.Error(w, http.StatusNotFound, "E-mail não encontrado.")
		return nil
	}
	if err != nil {
		respond.Internal(w, r, err)
		return nil
	}
	s := stored(row)
	return &s
}

func (h *Handler) handleMailboxOneJSON(w http.ResponseWriter, r *http.Request) {
	if s := h.stored(w, r); s != nil {
		respond.JSON(w, http.StatusOK, s)
	}
}

// handleMailboxBody serves an e-mail's HTML alone, sandboxed, for the message page's frame.
func (h *Handler) handleMailboxBody(w http.ResponseWriter, r *http.Request) {
	s := h.stored(w, r)
	if s == nil {
		return
	}
	body := s.HTML
	if body == "" {
		body = `<pre style="white-space:pre-wrap;font:14px/1.5 monospace;margin:16px">` + html.EscapeString(s.Text) + `</pre>`
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'")
	_, _ = w.Write([]byte(`<base target="_blank">` + body))
}

func statusLabel(s string) string {
	switch s {
	case StatusPending:
		return "Pendente"
	case StatusSending:
		return "Enviando"
	case StatusSent:
		return "Enviado"
	case StatusFailed:
		return "Falhou"
	case StatusStored:
		return "Guardado (sem SMTP)"
	}
	return s
}

type mailboxPage struct {
	Brand    *brand.Brand
	To       string
	Messages []Stored
	Message  *Stored
}

var mailboxFuncs = htmltemplate.FuncMap{
	"when":   func(t time.Time) string { return calendar.In(t).Format("02/01/2006 15:04:05") },
	"status": statusLabel,
	"join":   strings.Join,
}

var mailboxTmpl = htmltemplate.Must(htmltemplate.New("mailbox").Funcs(mailboxFuncs).Parse(`<!DOCTYPE html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{if .Message}}{{.Message.Subject}} | {{end}}Caixa de e-mails (desenvolvimento)</title>
<link rel="icon" type="image/svg+xml" href="/brand-assets/{{.Brand.Slug}}/favicon.svg">
<style>
:root { --brand-primary: {{.Brand.Colors.Primary}}; --brand-secondary: {{.Brand.Colors.Secondary}}; --brand-primary-text: {{.Brand.Colors.PrimaryText}}; }
* { box-sizing: border-box; }
body { margin: 0; background: #f6f7f9; color: #1c2127; font: 14px/1.45 -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; }
.navbar { display: flex; align-items: center; gap: 16px; height: 56px; padding: 0 20px; background: #fff; border-bottom: 3px solid var(--brand-primary); box-shadow: 0 1px 1px rgba(17,20,24,.1); }
.navbar img { height: 32px; }
.navbar h1 { margin: 0; font-size: 16px; font-weight: 600; }
.tag { display: inline-block; padding: 2px 8px; border-radius: 2px; font-size: 12px; background: var(--brand-secondary); color: #111418; }
main { max-width: 1200px; margin: 20px auto; padding: 0 20px; }
.card { background: #fff; border-radius: 4px; box-shadow: 0 0 0 1px rgba(17,20,24,.15), 0 1px 1px rgba(17,20,24,.1); padding: 20px; margin-bottom: 16px; }
form.filter { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
input[type=text] { height: 30px; padding: 0 10px; min-width: 280px; border: 0; border-radius: 2px; box-shadow: inset 0 0 0 1px rgba(17,20,24,.2); font: inherit; }
.button { display: inline-flex; align-items: center; height: 30px; padding: 0 12px; border: 0; border-radius: 2px; cursor: pointer; font: inherit; text-decoration: none; background: #f6f7f9; color: #1c2127; box-shadow: inset 0 0 0 1px rgba(17,20,24,.2); }
.button.primary { background: var(--brand-primary); color: var(--brand-primary-text); box-shadow: none; }
table.list { width: 100%; border-collapse: collapse; }
table.list th, table.list td { text-align: left; padding: 8px 10px; border-bottom: 1px solid #e5e8eb; vertical-align: top; }
table.list th { font-weight: 600; color: #404854; }
table.list tr:hover td { background: #f6f7f9; }
a { color: var(--brand-primary); }
.muted { color: #5f6b7c; }
.status-sent { color: #1c6e42; } .status-failed { color: #ac2f33; } .status-stored { color: #5f6b7c; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 0; }
dt { color: #5f6b7c; } dd { margin: 0; word-break: break-all; }
ul.links { margin: 0; padding-left: 20px; } ul.links li { word-break: break-all; margin: 4px 0; }
iframe { width: 100%; height: 720px; border: 1px solid #dce0e5; border-radius: 4px; background: #fff; }
pre { white-space: pre-wrap; margin: 0; font: 13px/1.5 ui-monospace, monospace; }
h2 { font-size: 15px; margin: 0 0 12px; }
</style>
</head>
<body>
<nav class="navbar"><img src="/brand-assets/{{.Brand.Slug}}/logo.svg" alt="{{.Brand.Name}}"><h1>Caixa de e-mails</h1><span class="tag">desenvolvimento</span></nav>
<main>
{{- if .Message}}{{with .Message}}
<p><a class="button" href="/mailbox/">&larr; Voltar à caixa de e-mails</a></p>
<div class="card">
<h2>{{.Subject}}</h2>
<dl>
<dt>Marca</dt><dd>{{.Brand}}</dd>
<dt>Para</dt><dd>{{join .To ", "}}</dd>
{{- if .ReplyTo}}<dt>Responder para</dt><dd>{{.ReplyTo}}</dd>{{end}}
<dt>Data</dt><dd>{{when .CreatedAt}}</dd>
<dt>Situação</dt><dd class="status-{{.Status}}">{{status .Status}}{{if .SentAt}} em {{when .SentAt}}{{end}} ({{.Attempts}} tentativa(s))</dd>
{{- if .LastError}}<dt>Último erro</dt><dd>{{.LastError}}</dd>{{end}}
<dt>Chave</dt><dd class="muted">{{.Key}}</dd>
</dl>
</div>
<div class="card">
<h2>Links</h2>
{{- if .Links}}
<ul class="links">{{range .Links}}<li><a href="{{.}}" data-testid="mail-link">{{.}}</a></li>{{end}}</ul>
{{- else}}<p class="muted">Nenhum link.</p>{{end}}
</div>
<div class="card"><h2>Mensagem</h2><iframe title="Mensagem em HTML" sandbox="allow-popups allow-popups-to-escape-sandbox" src="/mailbox/{{.ID}}/body"></iframe></div>
{{- if .Text}}<div class="card"><h2>Texto simples</h2><pre>{{.Text}}</pre></div>{{end}}
{{- end}}
{{- else}}
<div class="card">
<form class="filter" method="get" action="/mailbox/">
<label for="to">Destinatário</label>
<input id="to" type="text" name="to" value="{{.To}}" placeholder="nome@empresa.com.br">
<button class="button primary" type="submit">Filtrar</button>
{{- if .To}} <a class="button" href="/mailbox/">Limpar</a>{{end}}
</form>
</div>
<div class="card">
{{- if .Messages}}
<table class="list">
<thead><tr><th>Data</th><th>Marca</th><th>Para</th><th>Assunto</th><th>Situação</th></tr></thead>
<tbody>
{{- range .Messages}}
<tr><td class="muted">{{when .CreatedAt}}</td><td>{{.Brand}}</td><td>{{join .To ", "}}</td><td><a href="/mailbox/{{.ID}}">{{.Subject}}</a></td><td class="status-{{.Status}}">{{status .Status}}</td></tr>
{{- end}}
</tbody>
</table>
{{- else}}<p class="muted">Nenhum e-mail{{if .To}} para {{.To}}{{end}}.</p>{{end}}
</div>
{{- end}}
</main>
</body>
</html>
`))

func (h *Handler) page(w http.ResponseWriter, r *http.Request, p mailboxPage) {
	p.Brand = h.Brands.ForHost(r.Host)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; frame-src 'self'")
	if err := mailboxTmpl.Execute(w, p); err != nil {
		respond.Internal(w, r, err)
	}
}

func (h *Handler) handleMailboxPage(w http.ResponseWriter, r *http.Request) {
	to := strings.TrimSpace(r.URL.Query().Get("to"))
	list, err := List(r.Context(), h.DB, to, limitParam(r))
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	h.page(w, r, mailboxPage{To: to, Messages: list})
}

func (h *Handler) handleMailboxMessage(w http.ResponseWriter, r *http.Request) {
	if s := h.stored(w, r); s != nil {
		h.page(w, r, mailboxPage{Message: s})
	}
}
