package mailer_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"oportuna/brand"
	"oportuna/internal/postfix"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/mailer/mailtest"
)

const from = "nao-responda@oportuna.example"

func newMailer(t *testing.T, cfg mailer.Config) *mailer.Mailer {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return &mailer.Mailer{DB: testenv.DB(t), Brands: brand.MustLoad(), Config: cfg}
}

// postfixConfig delivers to the test binary's Postfix (testenv.Postfix): as
// strict as a big provider's server, without TLS (a relay on the same host).
func postfixConfig(pf *postfix.Server) mailer.Config {
	return mailer.Config{SMTPHost: pf.Host, SMTPPort: pf.Port, SMTPTLS: mailer.TLSNone, From: from, Timeout: 10 * time.Second}
}

// withPostfix is a mailer delivering to the test binary's Postfix.
func withPostfix(t *testing.T) (*mailer.Mailer, *postfix.Server) {
	t.Helper()
	pf := testenv.Postfix(t)
	return newMailer(t, postfixConfig(pf)), pf
}

// withMailbox is withPostfix and the test's own mailbox on the server.
func withMailbox(t *testing.T) (*mailer.Mailer, *postfix.Server, *postfix.Mailbox) {
	t.Helper()
	m, pf := withPostfix(t)
	return m, pf, pf.NewMailbox(t.Name())
}

// delivered waits until the server's queue is empty (everything it accepted
// is delivered) and returns the mailbox's messages.
func delivered(t *testing.T, pf *postfix.Server, mb *postfix.Mailbox) []postfix.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(testenv.Context(t), 30*time.Second)
	defer cancel()
	if err := pf.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := mb.Messages()
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func parse(t *testing.T, m postfix.Message) mailtest.Mail {
	t.Helper()
	got, err := mailtest.Parse(m.Raw)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

type outboxRow struct {
	Status    string
	Attempts  int
	LastError string
	Sent      bool
}

func outbox(t *testing.T, m *mailer.Mailer, key string) outboxRow {
	t.Helper()
	var r outboxRow
	if err := m.DB.QueryRow(context.Background(), `SELECT status, attempts, last_error, sent_at IS NOT NULL FROM mail_outbox WHERE key = $1`, key).
		Scan(&r.Status, &r.Attempts, &r.LastError, &r.Sent); err != nil {
		t.Fatalf("outbox row %s: %v", key, err)
	}
	return r
}

// grew: the counter name{class} grew by want since it was before.
func grew(t *testing.T, name, class string, before, want float64) {
	t.Helper()
	if n := counter(t, name, class) - before; n != want {
		t.Errorf("%s{class=%s} grew by %v, want %v", name, class, n, want)
	}
}

// counter reads one of the mailer's counters (mailer.Collectors) by class.
func counter(t *testing.T, name, class string) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(mailer.Collectors()...)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "class" && l.GetValue() == class {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

// TestTheEnvelopeHasAngleBracketsAndAStrictServerTakesIt: MAIL FROM and RCPT
// TO carry RFC 5321's angle brackets, EHLO names a host Postfix accepts, and
// the e-mail arrives with its Message-ID. Before the fix Postfix answered
// "501 5.1.7 Bad sender address syntax" to every e-mail.
func TestTheEnvelopeHasAngleBracketsAndAStrictServerTakesIt(t *testing.T) {
	m, pf, mb := withMailbox(t)
	if err := m.Send(testenv.Context(t), mailer.Message{Key: "envelope/1", Brand: "nordata", To: []string{mb.Address},
		Subject: "Olá", Text: "Conteúdo com acentuação."}); err != nil {
		t.Fatalf("send: %v\n%s", err, pf.Log())
	}
	got := delivered(t, pf, mb)
	if len(got) != 1 {
		t.Fatalf("%d e-mails delivered, want 1", len(got))
	}
	if got[0].ReturnPath != from || got[0].MessageID != mailer.MessageID("envelope/1", from) {
		t.Errorf("envelope sender %q, Message-ID %q", got[0].ReturnPath, got[0].MessageID)
	}
	if p := parse(t, got[0]); p.Subject != "Olá" || strings.TrimSpace(p.Text) != "Conteúdo com acentuação." {
		t.Errorf("subject %q text %q", p.Subject, p.Text)
	}
	if r := outbox(t, m, "envelope/1"); r.Status != mailer.StatusSent || r.Attempts != 1 || !r.Sent || r.LastError != "" {
		t.Errorf("outbox %+v", r)
	}
}

func TestContactEmailIsDeliveredWithBothPartsAndEscapedInput(t *testing.T) {
	m, pf, mb := withMailbox(t)
	b, _ := m.Brands.BySlug("yep")
	c, err := m.Templates(b).ContactRequest(mailer.ContactRequest{FullName: "Ana <b>Souza</b>", Email: "ana@cliente.com.br",
		Title: "Orçamento & \"prazo\"", Description: "Linha 1\n<script>alert('x')</script>"})
	if err != nil {
		t.Fatal(err)
	}
	msg := c.Message("contact/1", b.Slug, mb.Address)
	msg.ReplyTo = "Ana@Cliente.com.br"
	if err := m.Send(testenv.Context(t), msg); err != nil {
		t.Fatal(err)
	}
	all := delivered(t, pf, mb)
	if len(all) != 1 {
		t.Fatalf("%d e-mails delivered, want 1", len(all))
	}
	got := parse(t, all[0])
	if all[0].DeliveredTo != mb.Address || all[0].ReturnPath != from {
		t.Errorf("envelope from %q to %q", all[0].ReturnPath, all[0].DeliveredTo)
	}
	if got.Subject != `Contato pelo portal: Orçamento & "prazo"` {
		t.Errorf("subject %q", got.Subject)
	}
	if f := got.Header.Get("From"); !strings.Contains(f, "Yep") || !strings.Contains(f, from) {
		t.Errorf("From header %q: want the brand's name and the configured address", f)
	}
	if rt := got.Header.Get("Reply-To"); !strings.Contains(rt, "ana@cliente.com.br") {
		t.Errorf("Reply-To %q", rt)
	}
	if id := got.Header.Get("Message-Id"); id != "<"+mailer.MessageID("contact/1", from)+">" {
		t.Errorf("Message-ID %q", id)
	}
	if strings.Contains(got.HTML, "<script>") || strings.Contains(got.HTML, "<b>Souza") ||
		!strings.Contains(got.HTML, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") || !strings.Contains(got.HTML, "Ana &lt;b&gt;Souza&lt;/b&gt;") {
		t.Errorf("user input not escaped in the HTML part:\n%s", got.HTML)
	}
	if !strings.Contains(got.HTML, b.Colors.Primary) || !strings.Contains(got.HTML, "Linha 1<br>") {
		t.Errorf("HTML part lacks the brand colour or the message's line break")
	}
	if !strings.Contains(got.Text, "Mensagem:\nLinha 1\n<script>alert('x')</script>") || strings.Contains(got.Text, "<table") {
		t.Errorf("text part:\n%s", got.Text)
	}
	if r := outbox(t, m, "contact/1"); r.Status != mailer.StatusSent || r.Attempts != 1 || !r.Sent {
		t.Errorf("outbox %+v", r)
	}
}

// TestAnAddressWithAccentsIsSentWithSMTPUTF8: a recipient whose address is
// not ASCII needs SMTPUTF8 in MAIL FROM (Postfix refuses it otherwise).
func TestAnAddressWithAccentsIsSentWithSMTPUTF8(t *testing.T) {
	m, pf := withPostfix(t)
	mb := pf.Mailbox("joão.ção-" + strings.TrimSuffix(postfix.Address(t.Name()), "@"+postfix.Domain) + "@" + postfix.Domain)
	if err := m.Send(testenv.Context(t), mailer.Message{Key: "utf8/1", Brand: "yep", To: []string{mb.Address}, Subject: "Oi", Text: "x"}); err != nil {
		t.Fatalf("send: %v\n%s", err, pf.Log())
	}
	if got := delivered(t, pf, mb); len(got) != 1 {
		t.Fatalf("%d e-mails delivered to %s, want 1", len(got), mb.Address)
	}
}

func TestARetriedSendDeliversOnce(t *testing.T) {
	m, pf := withPostfix(t)
	a, b, c := pf.NewMailbox(t.Name()+"-a"), pf.NewMailbox(t.Name()+"-b"), pf.NewMailbox(t.Name()+"-c")
	ctx := testenv.Context(t)
	msg := mailer.Message{Key: "k/1", Brand: "nordata", To: []string{a.Address, strings.ToUpper(b.Address)}, Subject: "Olá", Text: "primeiro"}
	for i := 0; i < 3; i++ {
		if err := m.Send(ctx, msg); err != nil {
			t.Fatal(err)
		}
		msg.Text = "outro conteúdo" // the outbox keeps the first message of a key
	}
	if err := m.Send(ctx, mailer.Message{Key: "k/1"}); err != nil {
		t.Fatalf("key-only send: %v", err)
	}
	// Concurrent attempts of another key: one delivery.
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- m.Send(ctx, mailer.Message{Key: "k/2", Brand: "nordata", To: []string{c.Address}, Subject: "Oi", HTML: "<p>oi</p>"})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil && !errors.Is(err, mailer.ErrInFlight) {
			t.Errorf("concurrent send: %v", err)
		}
	}
	for _, mb := range []*postfix.Mailbox{a, b} {
		got := delivered(t, pf, mb)
		if len(got) != 1 || got[0].MessageID != mailer.MessageID("k/1", from) || strings.TrimSpace(parse(t, got[0]).Text) != "primeiro" {
			t.Errorf("%s: %d e-mails, want the first message once", mb.Address, len(got))
		}
	}
	if got := delivered(t, pf, c); len(got) != 1 {
		t.Errorf("k/2: %d deliveries, want 1", len(got))
	}
	if r := outbox(t, m, "k/1"); r.Attempts != 1 || r.Status != mailer.StatusSent {
		t.Errorf("outbox k/1 %+v", r)
	}
}

// TestATemporaryRefusalIsRetriedAndDeliveredOnce: a 4xx answer (here 451 to
// RCPT TO, as in greylisting) is an error worth a retry, recorded in the
// outbox, counted and logged without the address; the retry delivers the
// e-mail once, with the same Message-ID.
func TestATemporaryRefusalIsRetriedAndDeliveredOnce(t *testing.T) {
	m, pf, mb := withMailbox(t)
	logged := testenv.CaptureLogs(t)
	before := counter(t, "oportuna_mail_attempt_failures_total", "4xx")
	mb.DeferNext(2)
	ctx := testenv.Context(t)
	msg := mailer.Message{Key: "temp/1", Brand: "yep", To: []string{mb.Address}, Subject: "Teste", Text: "x"}
	for i := 1; i <= 2; i++ {
		err := m.Send(ctx, msg)
		var re *mailer.ReplyError
		if !errors.As(err, &re) || re.Code != 451 || re.Command != "RCPT TO" || re.Permanent ||
			errors.Is(err, mailer.ErrInvalid) || errors.Is(err, mailer.ErrRejected) {
			t.Fatalf("attempt %d: %v, want a temporary 451 to RCPT TO", i, err)
		}
		if strings.Contains(err.Error(), mb.Address) {
			t.Errorf("the error names the recipient: %v", err)
		}
		r := outbox(t, m, "temp/1")
		if r.Status != mailer.StatusFailed || r.Attempts != i || r.Sent ||
			!strings.HasPrefix(r.LastError, "temporary: ") || !strings.Contains(r.LastError, "451 4.3.0 <…>: Recipient address rejected") {
			t.Errorf("after attempt %d: %+v", i, r)
		}
	}
	if err := m.Send(ctx, msg); err != nil {
		t.Fatalf("third attempt: %v", err)
	}
	if r := outbox(t, m, "temp/1"); r.Status != mailer.StatusSent || r.Attempts != 3 || r.LastError != "" {
		t.Errorf("after the retry: %+v", r)
	}
	got := delivered(t, pf, mb)
	if len(got) != 1 || got[0].MessageID != mailer.MessageID("temp/1", from) {
		t.Fatalf("%d e-mails delivered, want 1 with the key's Message-ID", len(got))
	}
	grew(t, "oportuna_mail_attempt_failures_total", "4xx", before, 2)
	l := logged.String()
	if strings.Count(l, `"level":"WARN","msg":"mail: attempt failed, retried later"`) != 2 || !strings.Contains(l, `"key":"temp/1"`) {
		t.Errorf("want two WARN lines with the key, logged:\n%s", l)
	}
	if strings.Contains(l, mb.Address) {
		t.Errorf("the log names the recipient:\n%s", l)
	}
}

// TestAPermanentRefusalIsRecordedAndNotRetried: a 5xx answer to RCPT TO (a
// mailbox that does not exist) gives the e-mail up: ErrRejected (so
// ErrInvalid: the activities do not retry it), the outbox row failed with the
// server's code and text, a metric and an ERROR line, never the address. An
// e-mail to a refused and an existing address reaches the existing one.
func TestAPermanentRefusalIsRecordedAndNotRetried(t *testing.T) {
	m, pf := withPostfix(t)
	logged := testenv.CaptureLogs(t)
	before := counter(t, "oportuna_mail_failed_total", "5xx")
	unknown := postfix.Unknown(t.Name())
	ctx := testenv.Context(t)
	err := m.Send(ctx, mailer.Message{Key: "perm/1", Brand: "yep", To: []string{unknown}, Subject: "Teste", Text: "x"})
	var re *mailer.ReplyError
	if !errors.As(err, &re) || re.Code != 550 || !strings.HasPrefix(re.Text, "5.1.1 <…>: Recipient address rejected: User unknown") ||
		re.Command != "RCPT TO" || !re.Permanent || !errors.Is(err, mailer.ErrRejected) || !errors.Is(err, mailer.ErrInvalid) {
		t.Fatalf("err = %v, want a permanent 550 5.1.1 to RCPT TO", err)
	}
	if strings.Contains(err.Error(), unknown) {
		t.Errorf("the error names the recipient: %v", err)
	}
	r := outbox(t, m, "perm/1")
	if r.Status != mailer.StatusFailed || r.Attempts != 1 || r.Sent ||
		r.LastError != "permanent: smtp send: RCPT TO: 550 5.1.1 <…>: Recipient address rejected: User unknown in virtual mailbox table" {
		t.Errorf("outbox %+v", r)
	}

	// One of two recipients refused: the other gets it, the refusal is recorded.
	mb := pf.NewMailbox(t.Name())
	if err := m.Send(ctx, mailer.Message{Key: "perm/2", Brand: "yep", To: []string{unknown, mb.Address}, Subject: "Teste", Text: "x"}); err != nil {
		t.Fatalf("one recipient refused: %v", err)
	}
	if got := delivered(t, pf, mb); len(got) != 1 {
		t.Errorf("%d e-mails delivered to the existing recipient, want 1", len(got))
	}
	if r := outbox(t, m, "perm/2"); r.Status != mailer.StatusSent || !r.Sent ||
		!strings.HasPrefix(r.LastError, "permanent: 1 of 2 recipients refused: RCPT TO: 550 5.1.1 <…>") {
		t.Errorf("outbox %+v", r)
	}

	grew(t, "oportuna_mail_failed_total", "5xx", before, 2)
	l := logged.String()
	if strings.Count(l, `"level":"ERROR"`) != 2 || !strings.Contains(l, `"key":"perm/1"`) || !strings.Contains(l, `"code":550`) {
		t.Errorf("want two ERROR lines with the key and the code, logged:\n%s", l)
	}
	if strings.Contains(l, unknown) || strings.Contains(l, mb.Address) {
		t.Errorf("the log names a recipient:\n%s", l)
	}
}

// TestAnUnreachableServerIsATemporaryFailure: no answer at all (nothing
// listens) is retried, like a 4xx.
func TestAnUnreachableServerIsATemporaryFailure(t *testing.T) {
	port, err := testenv.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	m := newMailer(t, mailer.Config{SMTPHost: "127.0.0.1", SMTPPort: port, SMTPTLS: mailer.TLSNone, From: from, Timeout: 5 * time.Second})
	before := counter(t, "oportuna_mail_attempt_failures_total", "connection")
	err = m.Send(testenv.Context(t), mailer.Message{Key: "down/1", Brand: "yep", To: []string{"a@x.com.br"}, Subject: "T", Text: "x"})
	if err == nil || errors.Is(err, mailer.ErrInvalid) {
		t.Fatalf("unreachable server: %v, want a retryable error", err)
	}
	if r := outbox(t, m, "down/1"); r.Status != mailer.StatusFailed || !strings.HasPrefix(r.LastError, "temporary: smtp connect") {
		t.Errorf("outbox %+v", r)
	}
	grew(t, "oportuna_mail_attempt_failures_total", "connection", before, 1)
}

// TestACancelledDeliveryIsCutAndMarkedFailed: the server holds its answer to
// RCPT TO; cancelling the context cuts the conversation at once.
func TestACancelledDeliveryIsCutAndMarkedFailed(t *testing.T) {
	m, pf, mb := withMailbox(t)
	reached, release := mb.Hold()
	defer release()
	ctx, cancel := context.WithCancel(testenv.Context(t))
	done := make(chan error, 1)
	go func() {
		done <- m.Send(ctx, mailer.Message{Key: "cut/1", Brand: "yep", To: []string{mb.Address}, Subject: "T", Text: "x"})
	}()
	select {
	case <-reached:
	case <-time.After(30 * time.Second):
		t.Fatal("RCPT TO never reached the server")
	}
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("cancelling the context did not cut the SMTP conversation")
	}
	if d := time.Since(start); d > 10*time.Second { // the server would hold it for ever: room for a busy machine
		t.Errorf("cut after %s", d)
	}
	if r := outbox(t, m, "cut/1"); r.Status != mailer.StatusFailed || !strings.HasPrefix(r.LastError, "temporary: ") {
		t.Errorf("outbox %+v", r)
	}
	release()
	if got := delivered(t, pf, mb); len(got) != 0 {
		t.Errorf("a cut delivery was delivered %d time(s)", len(got))
	}
}

func TestWithoutSMTPTheEmailIsOnlyStored(t *testing.T) {
	m := newMailer(t, mailer.Config{})
	ctx := testenv.Context(t)
	msg := mailer.Message{Key: "dev/1", Brand: "yep", To: []string{"a@x.com.br"}, Subject: "T", Text: "x"}
	for i := 0; i < 2; i++ {
		if err := m.Send(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	if r := outbox(t, m, "dev/1"); r.Status != mailer.StatusStored || r.Attempts != 0 || r.Sent {
		t.Errorf("outbox %+v", r)
	}
	// Recorded by one process (the API), delivered by another (the worker).
	if err := m.Record(ctx, mailer.Message{Key: "dev/2", Brand: "yep", To: []string{"a@x.com.br"}, Subject: "T", Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if r := outbox(t, m, "dev/2"); r.Status != mailer.StatusPending {
		t.Errorf("recorded: %+v", r)
	}
	if err := m.Send(ctx, mailer.Message{Key: "dev/2"}); err != nil {
		t.Fatal(err)
	}
	if r := outbox(t, m, "dev/2"); r.Status != mailer.StatusStored {
		t.Errorf("delivered without SMTP: %+v", r)
	}
}

func TestInvalidMessagesAreRefused(t *testing.T) {
	m := newMailer(t, mailer.Config{})
	ctx := testenv.Context(t)
	ok := mailer.Message{Key: "inv/1", Brand: "yep", To: []string{"a@x.com.br"}, Subject: "T", Text: "x"}
	for name, mod := range map[string]func(*mailer.Message){
		"no key":        func(m *mailer.Message) { m.Key = "" },
		"unknown brand": func(m *mailer.Message) { m.Brand = "acme" },
		"bad address":   func(m *mailer.Message) { m.To = []string{"não é e-mail"} },
		"named address": func(m *mailer.Message) { m.To = []string{"Ana <a@x.com.br>"} },
		"no domain":     func(m *mailer.Message) { m.To = []string{"a@localhost"} },
		"header inject": func(m *mailer.Message) { m.Subject = "Oi\r\nBcc: vitima@x.com" },
		"no content":    func(m *mailer.Message) { m.Text = " " },
		"bad reply-to":  func(m *mailer.Message) { m.ReplyTo = "x" },
	} {
		msg := ok
		mod(&msg)
		if err := m.Send(ctx, msg); !errors.Is(err, mailer.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	if err := m.Send(ctx, mailer.Message{Key: "never/recorded"}); !errors.Is(err, mailer.ErrNotRecorded) {
		t.Errorf("unknown key: %v", err)
	}
	var n int
	_ = m.DB.QueryRow(ctx, `SELECT count(*) FROM mail_outbox`).Scan(&n)
	if n != 0 {
		t.Errorf("%d invalid e-mails recorded", n)
	}
}

func TestConfigFromEnvironment(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	c, err := mailer.ConfigFromEnv(env(nil))
	if err != nil || c.Delivers() || c.Mailbox || c.PortalURL != mailer.DefaultPortalURL || c.Timeout != mailer.DefaultTimeout {
		t.Errorf("defaults: %+v %v", c, err)
	}
	yep, _ := brand.MustLoad().BySlug("yep")
	if got := c.Portal(yep); got != "http://yep.localhost:8080" {
		t.Errorf("default portal %q", got)
	}
	c, err = mailer.ConfigFromEnv(env(map[string]string{"PORT": "9191", "MAILBOX": "on"}))
	if err != nil || c.Portal(yep) != "http://yep.localhost:9191" || !c.Mailbox {
		t.Errorf("PORT and MAILBOX: %+v %v", c, err)
	}
	c, err = mailer.ConfigFromEnv(env(map[string]string{"SMTP_HOST": "smtp.example.com", "SMTP_FROM": "Portal <no-reply@example.com>",
		"SMTP_TLS": "TLS", "SMTP_USERNAME": "u", "PORTAL_URL": "https://parceiros.{brand}.example/", "SMTP_TIMEOUT": "5s"}))
	if err != nil || !c.Delivers() || c.SMTPPort != 465 || c.From != "no-reply@example.com" || c.SMTPAuth != "plain" ||
		c.Timeout != 5*time.Second || c.Portal(yep) != "https://parceiros.yep.example" {
		t.Errorf("SMTP settings: %+v %v", c, err)
	}
	for _, helo := range []string{"portal.empresa.com.br", "[10.0.0.5]", "[IPv6:2001:db8::1]"} {
		c, err := mailer.ConfigFromEnv(env(map[string]string{"SMTP_HOST": "h", "SMTP_FROM": "a@b.com", "SMTP_HELO": helo}))
		if err != nil || c.HELO != helo {
			t.Errorf("SMTP_HELO %q: %q %v", helo, c.HELO, err)
		}
	}
	for name, kv := range map[string]map[string]string{
		"no from":    {"SMTP_HOST": "h"},
		"bad tls":    {"SMTP_HOST": "h", "SMTP_FROM": "a@b.com", "SMTP_TLS": "ssl3"},
		"bad port":   {"SMTP_HOST": "h", "SMTP_FROM": "a@b.com", "SMTP_PORT": "99999"},
		"bad auth":   {"SMTP_HOST": "h", "SMTP_FROM": "a@b.com", "SMTP_AUTH": "magic"},
		"bad portal": {"PORTAL_URL": "ftp://x"},
		// scripts/run.sh's old default: the shell closed ${PORTAL_URL:-…{brand} at the first brace.
		"unclosed placeholder": {"PORTAL_URL": "http://{brand.localhost:8080}"},
		"other placeholder":    {"PORTAL_URL": "http://{slug}.localhost:8080"},
		"no host":              {"PORTAL_URL": "http://"},
		"bad portal port":      {"PORTAL_URL": "http://{brand}.localhost:99999"},
		"query":                {"PORTAL_URL": "http://{brand}.localhost:8080/?x=1"},
		"bad box":              {"MAILBOX": "talvez"},
		// EHLO must name a fully qualified host or be an address literal (RFC 5321 §4.1.1.1).
		"bare helo":       {"SMTP_HOST": "h", "SMTP_FROM": "a@b.com", "SMTP_HELO": "vm"},
		"helo with space": {"SMTP_HOST": "h", "SMTP_FROM": "a@b.com", "SMTP_HELO": "portal empresa.com.br"},
		"bad literal":     {"SMTP_HOST": "h", "SMTP_FROM": "a@b.com", "SMTP_HELO": "[2001:db8::1]"},
	} {
		if _, err := mailer.ConfigFromEnv(env(kv)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestALeaseHeldByAnotherAttemptIsRespectedUntilItExpires(t *testing.T) {
	m, pf, mb := withMailbox(t)
	ctx := testenv.Context(t)
	if err := m.Record(ctx, mailer.Message{Key: "lease/1", Brand: "yep", To: []string{mb.Address}, Subject: "T", Text: "x"}); err != nil {
		t.Fatal(err)
	}
	// An attempt on a worker that died mid-delivery left the e-mail "sending".
	if _, err := m.DB.Exec(ctx, `UPDATE mail_outbox SET status = 'sending', attempts = 1, lease_until = now() + interval '1 hour' WHERE key = 'lease/1'`); err != nil {
		t.Fatal(err)
	}
	if err := m.Deliver(ctx, "lease/1"); !errors.Is(err, mailer.ErrInFlight) {
		t.Fatalf("err = %v, want ErrInFlight while the lease lasts", err)
	}
	if _, err := m.DB.Exec(ctx, `UPDATE mail_outbox SET lease_until = now() - interval '1 second' WHERE key = 'lease/1'`); err != nil {
		t.Fatal(err)
	}
	if err := m.Deliver(ctx, "lease/1"); err != nil {
		t.Fatalf("after the lease: %v", err)
	}
	if n := len(delivered(t, pf, mb)); n != 1 {
		t.Errorf("%d deliveries", n)
	}
	if r := outbox(t, m, "lease/1"); r.Status != mailer.StatusSent || r.Attempts != 2 {
		t.Errorf("outbox %+v", r)
	}
}

// TestASlowDeliveryRenewsItsShortLease: an attempt holds a lease of a few
// seconds (so one that died frees the message within seconds, not after the
// whole SMTP timeout) and renews it while the SMTP server takes its time, so a
// second attempt waits instead of sending again.
func TestASlowDeliveryRenewsItsShortLease(t *testing.T) {
	m, pf, mb := withMailbox(t)
	reached, release := mb.Hold()
	defer release()
	ctx := testenv.Context(t)
	if err := m.Record(ctx, mailer.Message{Key: "slow/1", Brand: "yep", To: []string{mb.Address}, Subject: "T", Text: "x"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- m.Deliver(ctx, "slow/1") }()
	select {
	case <-reached:
	case <-time.After(30 * time.Second):
		t.Fatal("RCPT TO never reached the server")
	}
	// The lease is short: an attempt that died would free the message within seconds.
	var left float64
	if err := m.DB.QueryRow(ctx, `SELECT extract(epoch FROM lease_until - now()) FROM mail_outbox WHERE key = 'slow/1'`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left <= 0 || left > 8 {
		t.Errorf("the lease runs %.1f s ahead, want a few seconds", left)
	}
	time.Sleep(8 * time.Second) // past a lease that is not renewed
	if err := m.Deliver(ctx, "slow/1"); !errors.Is(err, mailer.ErrInFlight) {
		t.Fatalf("a second attempt during a slow delivery: %v, want ErrInFlight", err)
	}
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := len(delivered(t, pf, mb)); n != 1 {
		t.Fatalf("%d deliveries, want 1", n)
	}
}

// acceptedLogs is a slog handler that keeps the mailer's AcceptedLog lines
// and, for each, the outbox status its key had at that moment.
type acceptedLogs struct {
	m    *mailer.Mailer
	t    *testing.T
	mu   sync.Mutex
	seen []string // "key attempt status"
}

func (h *acceptedLogs) Enabled(context.Context, slog.Level) bool { return true }
func (h *acceptedLogs) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *acceptedLogs) WithGroup(string) slog.Handler            { return h }
func (h *acceptedLogs) Handle(_ context.Context, r slog.Record) error {
	if r.Message != mailer.AcceptedLog {
		return nil
	}
	var key string
	var attempt int64
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "key":
			key = a.Value.String()
		case "attempt":
			attempt = a.Value.Int64()
		}
		return true
	})
	st := outbox(h.t, h.m, key).Status
	h.mu.Lock()
	h.seen = append(h.seen, fmt.Sprintf("%s %d %s", key, attempt, st))
	h.mu.Unlock()
	return nil
}

// TestTheServersAcceptanceIsLoggedBeforeTheOutboxRecordsIt: once Postfix
// took an e-mail the mailer logs AcceptedLog (key and attempt, no address)
// while the outbox still says sending. A worker killed between the two
// leaves that line as the proof that its copy was delivered (make chaos
// tells such a repeat from a bug by it).
func TestTheServersAcceptanceIsLoggedBeforeTheOutboxRecordsIt(t *testing.T) {
	m, _, mb := withMailbox(t)
	h := &acceptedLogs{m: m, t: t}
	prev := slog.Default()
	slog.SetDefault(slog.New(h))
	t.Cleanup(func() { slog.SetDefault(prev) })
	ctx := testenv.Context(t)
	if err := m.Send(ctx, mailer.Message{Key: "aceito/1", Brand: "nordata", To: []string{mb.Address}, Subject: "Oi", Text: "oi"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Send(ctx, mailer.Message{Key: "aceito/1"}); err != nil { // already sent: nothing delivered, nothing logged
		t.Fatal(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if want := []string{"aceito/1 1 " + mailer.StatusSending}; !slices.Equal(h.seen, want) {
		t.Errorf("accepted lines %q, want %q", h.seen, want)
	}
	if r := outbox(t, m, "aceito/1"); r.Status != mailer.StatusSent {
		t.Errorf("outbox %+v, want sent", r)
	}
}
