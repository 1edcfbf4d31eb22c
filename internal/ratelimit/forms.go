package ratelimit

import (
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/internal/clientaddr"
)

// The limit of the public forms (reseller sign-up, contact, password recovery):
// per client address and form.
const (
	DefaultFormLimit = 5
	FormPer          = time.Minute
	// MsgFormTooMany is the 429's message.
	MsgFormTooMany = "Muitas solicitações. Aguarde um minuto e tente novamente."
)

// FormWindow is the limit of one public form: limit submissions per client
// address per FormPer (zero: DefaultFormLimit).
func FormWindow(db *pgxpool.Pool, form string, limit int, now func() time.Time) *Window {
	if limit <= 0 {
		limit = DefaultFormLimit
	}
	return &Window{DB: db, Name: "form:" + form, Limit: limit, Per: FormPer, Now: now}
}

// WrapForm answers 429 (MsgFormTooMany, Retry-After) to a client address
// (clientaddr.Key, so TRUSTED_PROXIES is honoured) over the form's limit;
// every submission counts, invalid ones too.
func (w *Window) WrapForm(next http.HandlerFunc) http.HandlerFunc {
	return w.Wrap(clientaddr.Key, MsgFormTooMany, next)
}
