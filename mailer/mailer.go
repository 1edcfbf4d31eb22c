// Package mailer sends the portal's e-mails: pt-BR HTML in the brand's colours
// with a plain-text part (templates.go), recorded in a PostgreSQL outbox once per
// idempotency key and delivered over SMTP when a server is configured (smtp.go);
// the spec's send call at /mailer and the dev mailbox at /mailbox (http.go).
//
// Delivery is at least once towards the SMTP server and never twice after a
// recorded success: a retried Send of a key already sent delivers nothing. Only a
// crash between the server's acceptance and the outbox update can repeat an
// e-mail; its Message-ID, derived from the key, lets mail clients fold the copy.
package mailer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/brand"
	"oportuna/internal/periodic"
	"oportuna/store"
)

// Message is one e-mail. Key makes it idempotent: the outbox keeps the first
// message recorded under a key and delivers it once.
type Message struct {
	Key     string   `json:"key"`
	Brand   string   `json:"brand"`
	To      []string `json:"to,omitempty"`
	ReplyTo string   `json:"replyTo,omitempty"`
	Subject string   `json:"subject,omitempty"`
	HTML    string   `json:"html,omitempty"`
	Text    string   `json:"text,omitempty"`
}

// KeyOnly reports whether the message names a recorded e-mail by its key alone
// (what MailDispatcher hands the SendEmail workflow, so no content or address
// lands in Temporal's history).
func (m Message) KeyOnly() bool {
	return len(m.To) == 0 && m.Subject == "" && m.HTML == "" && m.Text == "" && m.ReplyTo == ""
}

// Limits of a message.
const (
	MaxKey        = 200
	MaxRecipients = 50
	MaxSubject    = 300
	MaxBody       = 1 << 20 // HTML plus text
)

var (
	// ErrInvalid is a message that can never be sent (wrapped with the reason); not worth a retry.
	ErrInvalid = errors.New("mailer: invalid message")
	// ErrNotRecorded is a key-only message whose key the outbox does not hold.
	ErrNotRecorded = errors.New("mailer: no e-mail recorded under this key")
	// ErrInFlight is a key another attempt is delivering right now; retry later.
	ErrInFlight = errors.New("mailer: another attempt is delivering this e-mail")
	// ErrRejected is an e-mail the mail server refused for good: a 5xx answer to
	// MAIL FROM, RCPT TO or DATA (a *ReplyError). It is also ErrInvalid: sending
	// it again would be refused again, so it is not retried.
	ErrRejected = errors.New("mailer: refused by the mail server")
)

// AcceptedLog is the message of the INFO line logged when the mail server has
// accepted an e-mail, before the outbox records it as sent (attributes key and
// attempt; never an address).
const AcceptedLog = "mail: accepted by the mail server"

// Outbox statuses (mail_outbox.status).
const (
	StatusPending = "pending"
	StatusSending = "sending"
	StatusSent    = "sent"
	StatusFailed  = "failed"
	StatusStored  = "stored"
)

// Mailer records e-mails in the outbox and, with an SMTP server configured,
// delivers them. It is safe for concurrent use by any number of processes.
type Mailer struct {
	DB     *pgxpool.Pool
	Brands *brand.Registry
	Config Config
}

// Portal is the base URL of the brand's links (Config.Portal).
func (m *Mailer) Portal(b *brand.Brand) string { return m.Config.Portal(b) }

// Templates renders the brand's e-mails with links to its portal.
func (m *Mailer) Templates(b *brand.Brand) Templates {
	return Templates{Brand: b, Portal: m.Portal(b)}
}

// Send records the message (once per key) and delivers it. A key-only message
// delivers what was recorded under the key (ErrNotRecorded when nothing was).
func (m *Mailer) Send(ctx context.Context, msg Message) error {
	if !msg.KeyOnly() {
		if err := m.Record(ctx, msg); err != nil {
			return err
		}
	}
	return m.Deliver(ctx, msg.Key)
}

// Record validates the message and stores it in the outbox as pending; a key
// already recorded keeps its first message.
func (m *Mailer) Record(ctx context.Context, msg Message) error {
	msg, err := m.normalize(msg)
	if err != nil {
		return err
	}
	err = store.New(m.DB).RecordMail(ctx, store.RecordMailParams{Key: msg.Key, Brand: msg.Brand, Recipients: msg.To,
		ReplyTo: msg.ReplyTo, Subject: msg.Subject, Html: msg.HTML, Text: msg.Text})
	if err != nil {
		return fmt.Errorf("mailer: record %s: %w", msg.Key, err)
	}
	return nil
}

// An attempt holds a message for leaseTTL and renews its lease every
// leaseRenew while it is alive; a crashed attempt's lease ends within seconds,
// so the next attempt goes on at once instead of after the whole SMTP timeout.
// An attempt that cannot renew its lease stops sending.
const (
	leaseTTL   = 6 * time.Second
	leaseRenew = 2 * time.Second
)

// holdLease renews an attempt's lease until the returned function is called;
// ctx is cancelled when a renewal fails (the attempt must not outlive its lease).
func (m *Mailer) holdLease(ctx context.Context, key string, attempt int) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	stop := periodic.Every(ctx, leaseRenew, func(ctx context.Context) bool {
		rctx, rcancel := context.WithTimeout(ctx, leaseRenew)
		defer rcancel()
		n, err := store.New(m.DB).RenewMailLease(rctx, store.RenewMailLeaseParams{Key: key, Attempt: attempt,
			LeaseSeconds: leaseTTL.Seconds()})
		if err != nil || n == 0 {
			cancel()
			return false
		}
		return true
	})
	return ctx, func() { stop(); cancel() }
}

// Deliver sends the e-mail recorded under key, unless it was sent already.
// Without an SMTP server the e-mail is marked stored (dev mailbox only).
func (m *Mailer) Deliver(ctx context.Context, key string) error {
	if key == "" {
		return fmt.Errorf("%w: empty key", ErrInvalid)
	}
	if !m.Config.Delivers() {
		n, err := store.New(m.DB).StoreMail(ctx, key)
		if err != nil {
			return fmt.Errorf("mailer: store %s: %w", key, err)
		}
		if n == 0 {
			_, err := m.status(ctx, key)
			return err
		}
		return nil
	}
	c, err := store.New(m.DB).ClaimMail(ctx, store.ClaimMailParams{Key: key, LeaseSeconds: leaseTTL.Seconds()})
	r := Message{Key: c.Key, Brand: c.Brand, To: c.Recipients, ReplyTo: c.ReplyTo, Subject: c.Subject, HTML: c.Html, Text: c.Text}
	attempt := c.Attempts
	if errors.Is(err, pgx.ErrNoRows) {
		switch st, err := m.status(ctx, key); {
		case err != nil:
			return err
		case st == StatusSending:
			return fmt.Errorf("%w: %s", ErrInFlight, key)
		default: // sent, or stored while no server was configured
			return nil
		}
	}
	if err != nil {
		return fmt.Errorf("mailer: claim %s: %w", key, err)
	}
	var markErr error
	marked := false
	markSent := func(refused []*ReplyError) {
		marked = true
		// The delivery log line, written before the outbox knows: should the
		// worker die before the update below, it is what tells a repeated
		// e-mail's first copy from a bug (make chaos reads it).
		slog.InfoContext(ctx, AcceptedLog, "key", key, "attempt", attempt, "refused", len(refused))
		note := ""
		if len(refused) > 0 {
			// Delivered to the others; those refused are not tried again.
			note = fmt.Sprintf("%s%d of %d recipients refused: %s", permanentPrefix, len(refused), len(r.To), refused[0].Error())
			m.refused(ctx, key, attempt, refused[0])
		}
		// A delivered e-mail must be marked sent, or a retry would deliver it again:
		// through a PostgreSQL restart or stall too (retried, markPatience).
		markErr = recordOutcome(ctx, func(ctx context.Context) error {
			return store.New(m.DB).MarkMailSent(ctx, store.MarkMailSentParams{Key: key, Note: truncate(note, 2000)})
		})
	}
	var sendErr error
	if b, ok := m.Brands.BySlug(r.Brand); ok {
		sctx, release := m.holdLease(ctx, key, attempt)
		sendErr = m.smtpSend(sctx, b, r, markSent)
		release()
	} else {
		sendErr = fmt.Errorf("%w: unknown brand %q", ErrInvalid, r.Brand)
	}
	if sendErr != nil {
		sendErr = maskedError{sendErr}
	}
	if marked {
		// The server took it: whatever QUIT said, it is sent.
		if markErr != nil {
			return fmt.Errorf("mailer: mark %s sent: %w", key, markErr)
		}
		return nil
	}
	if sendErr != nil {
		prefix := temporaryPrefix
		if errors.Is(sendErr, ErrInvalid) {
			prefix = permanentPrefix
		}
		m.failed(ctx, key, attempt, sendErr)
		if err := recordOutcome(ctx, func(ctx context.Context) error {
			return store.New(m.DB).MarkMailFailed(ctx, store.MarkMailFailedParams{Key: key,
				Error: truncate(prefix+sendErr.Error(), 2000)})
		}); err != nil {
			return errors.Join(sendErr, err)
		}
		return fmt.Errorf("mailer: deliver %s: %w", key, sendErr)
	}
	markSent(nil)
	if markErr != nil {
		return fmt.Errorf("mailer: mark %s sent: %w", key, markErr)
	}
	return nil
}

// markPatience is how long an attempt keeps trying to record its outcome in the
// outbox: longer than a PostgreSQL restart or failover and the stalls of
// make chaos-cluster (20 s), shorter than the send activity's heartbeat-backed
// life. Only a worker that dies in this window can deliver an e-mail twice.
var markPatience = 45 * time.Second

// recordOutcome runs write until it succeeds or markPatience has passed, even
// when ctx has ended (the e-mail's fate is known and must be kept): 100 ms
// between tries, doubling up to 2 s. It returns the last error.
func recordOutcome(ctx context.Context, write func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), markPatience)
	defer cancel()
	wait := 100 * time.Millisecond
	for {
		err := write(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// The start of mail_outbox.last_error: "permanent: " for an e-mail (or some of
// its recipients) given up, "temporary: " for an attempt that is retried.
const (
	permanentPrefix = "permanent: "
	temporaryPrefix = "temporary: "
)

// status reads a recorded e-mail's status; ErrNotRecorded when there is none.
func (m *Mailer) status(ctx context.Context, key string) (string, error) {
	st, err := store.New(m.DB).MailStatus(ctx, key)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("%w: %s", ErrNotRecorded, key)
	}
	return st, err
}

// normalize checks a message and returns it with trimmed, lower-case addresses.
func (m *Mailer) normalize(msg Message) (Message, error) {
	bad := func(format string, args ...any) (Message, error) {
		return msg, fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
	}
	switch {
	case msg.Key == "" || len(msg.Key) > MaxKey || strings.IndexFunc(msg.Key, unicode.IsControl) >= 0:
		return bad("key must have 1 to %d printable characters", MaxKey)
	case len(msg.To) == 0 || len(msg.To) > MaxRecipients:
		return bad("1 to %d recipients", MaxRecipients)
	}
	b, ok := m.Brands.BySlug(msg.Brand)
	if !ok {
		return bad("unknown brand %q", msg.Brand)
	}
	msg.Brand = b.Slug
	to := make([]string, 0, len(msg.To))
	seen := map[string]bool{}
	for _, addr := range msg.To {
		a, err := ParseAddress(addr)
		if err != nil {
			return bad("recipient %q is not an e-mail address", addr)
		}
		if !seen[a] {
			seen[a] = true
			to = append(to, a)
		}
	}
	msg.To = to
	if strings.TrimSpace(msg.ReplyTo) != "" {
		a, err := ParseAddress(msg.ReplyTo)
		if err != nil {
			return bad("reply-to %q is not an e-mail address", msg.ReplyTo)
		}
		msg.ReplyTo = a
	} else {
		msg.ReplyTo = ""
	}
	msg.Subject = strings.TrimSpace(msg.Subject)
	switch {
	case msg.Subject == "" || utf8.RuneCountInString(msg.Subject) > MaxSubject:
		return bad("subject must have 1 to %d characters", MaxSubject)
	case strings.ContainsAny(msg.Subject, "\r\n"):
		return bad("subject has a line break")
	case strings.TrimSpace(msg.HTML) == "" && strings.TrimSpace(msg.Text) == "":
		return bad("no content")
	case len(msg.HTML)+len(msg.Text) > MaxBody:
		return bad("content larger than %d bytes", MaxBody)
	case !utf8.ValidString(msg.Subject + msg.HTML + msg.Text):
		return bad("content is not UTF-8")
	}
	return msg, nil
}

// ParseAddress accepts one bare e-mail address ("ana@empresa.com.br", no display
// name) and returns it trimmed and in lower case.
func ParseAddress(s string) (string, error) {
	s = strings.TrimSpace(s)
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return "", fmt.Errorf("not a bare e-mail address: %q", s)
	}
	if at := strings.LastIndexByte(s, '@'); at < 1 || !strings.Contains(s[at+1:], ".") {
		return "", fmt.Errorf("e-mail address without a domain: %q", s)
	}
	return strings.ToLower(s), nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
