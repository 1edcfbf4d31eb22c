package mailer

import (
	"context"
	"errors"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"
)

var (
	failedTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "oportuna_mail_failed_total",
		Help: "E-mails given up: refused for good by the mail server (class 5xx: a 5xx answer to MAIL FROM, RCPT TO or DATA, " +
			"counted also when only some recipients were refused), or never sendable (class invalid). Not retried.",
	}, []string{"class"})
	attemptFailuresTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "oportuna_mail_attempt_failures_total",
		Help: "Delivery attempts that failed and are retried: class 4xx (a temporary answer), 5xx (a refusal of the session: " +
			"greeting, EHLO, STARTTLS, AUTH), connection (no answer: refused, timed out, cut) or cancelled (the worker stopped).",
	}, []string{"class"})
)

// Collectors are the mailer's metrics, to register in the process's registry:
// oportuna_mail_failed_total{class} and oportuna_mail_attempt_failures_total{class}.
func Collectors() []prometheus.Collector {
	return []prometheus.Collector{failedTotal, attemptFailuresTotal}
}

// failed counts and logs a failed attempt: an ERROR for an e-mail given up, a
// WARN for one retried later. Never an address: the key names the e-mail, and
// the server's text is masked (ReplyError).
func (m *Mailer) failed(ctx context.Context, key string, attempt int, err error) {
	var re *ReplyError
	isReply := errors.As(err, &re)
	if errors.Is(err, ErrInvalid) {
		class := "invalid"
		if isReply {
			class = re.Class()
		}
		failedTotal.WithLabelValues(class).Inc()
		args := []any{"key", key, "attempt", attempt, "class", class, "err", err.Error()}
		if isReply {
			args = append(args, "command", re.Command, "code", re.Code, "reply", re.Text)
		}
		slog.ErrorContext(ctx, "mail: e-mail given up, not retried", args...)
		return
	}
	class := "connection"
	switch {
	case isReply:
		class = re.Class()
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		class = "cancelled"
	}
	attemptFailuresTotal.WithLabelValues(class).Inc()
	slog.WarnContext(ctx, "mail: attempt failed, retried later", "key", key, "attempt", attempt, "class", class, "err", err.Error())
}

// refused counts and logs recipients refused for good while the others got the e-mail.
func (m *Mailer) refused(ctx context.Context, key string, attempt int, re *ReplyError) {
	failedTotal.WithLabelValues(re.Class()).Inc()
	slog.ErrorContext(ctx, "mail: some recipients refused for good, the others got the e-mail", "key", key, "attempt", attempt,
		"class", re.Class(), "command", re.Command, "code", re.Code, "reply", re.Text)
}
