package mailer_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"oportuna/brand"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/mailer/mailtest"
)

func TestMain(m *testing.M) { testenv.Main(m) }

const from = "nao-responda@oportuna.example"

func newMailer(t *testing.T, cfg mailer.Config) *mailer.Mailer {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return &mailer.Mailer{DB: testenv.DB(t), Brands: brand.MustLoad(), Config: cfg}
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

func TestContactEmailIsDeliveredOverSMTPWithBothPartsAndEscapedInput(t *testing.T) {
	srv := mailtest.Start(t, func(s *mailtest.Server) { s.Username, s.Password = "portal", "s3nha" })
	m := newMailer(t, srv.Config(from))
	b, _ := m.Brands.BySlug("yep")
	c, err := m.Templates(b).ContactRequest(mailer.ContactRequest{FullName: "Ana <b>Souza</b>", Email: "ana@cliente.com.br",
		Title: "Orçamento & \"prazo\"", Description: "Linha 1\n<script>alert('x')</script>"})
	if err != nil {
		t.Fatal(err)
	}
	msg := c.Message("contact/1", b.Slug, b.Admin.Email)
	msg.ReplyTo = "Ana@Cliente.com.br"
	if err := m.Send(testenv.Context(t), msg); err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(t, 1, 10*time.Second)[0]
	if len(got.To) != 1 || got.To[0] != "admin@yep.example" || got.From != from {
		t.Errorf("envelope from %q to %v", got.From, got.To)
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

func TestARetriedSendDeliversOnce(t *testing.T) {
	srv := mailtest.Start(t)
	m := newMailer(t, srv.Config(from))
	ctx := testenv.Context(t)
	msg := mailer.Message{Key: "k/1", Brand: "nordata", To: []string{"a@x.com.br", "B@x.com.br"}, Subject: "Olá", Text: "primeiro"}
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
			errs <- m.Send(ctx, mailer.Message{Key: "k/2", Brand: "nordata", To: []string{"c@x.com.br"}, Subject: "Oi", HTML: "<p>oi</p>"})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil && !errors.Is(err, mailer.ErrInFlight) {
			t.Errorf("concurrent send: %v", err)
		}
	}
	time.Sleep(200 * time.Millisecond)
	mails := srv.Mails()
	if len(mails) != 2 {
		t.Fatalf("%d e-mails delivered, want 2 (one per key)", len(mails))
	}
	if strings.TrimSpace(mails[0].Text) != "primeiro" || len(mails[0].To) != 2 || mails[0].To[1] != "b@x.com.br" {
		t.Errorf("first e-mail: to %v text %q", mails[0].To, mails[0].Text)
	}
	if r := outbox(t, m, "k/1"); r.Attempts != 1 || r.Status != mailer.StatusSent {
		t.Errorf("outbox k/1 %+v", r)
	}
}

func TestSMTPFailureIsAnErrorRecordedInTheOutboxAndARetryDelivers(t *testing.T) {
	srv := mailtest.Start(t, func(s *mailtest.Server) {
		s.OnData = func(_ context.Context, n int) error {
			if n == 1 {
				return errors.New("caixa temporariamente indisponível")
			}
			return nil
		}
	})
	m := newMailer(t, srv.Config(from))
	ctx := testenv.Context(t)
	msg := mailer.Message{Key: "fail/1", Brand: "yep", To: []string{"a@x.com.br"}, Subject: "Teste", Text: "x"}
	err := m.Send(ctx, msg)
	if err == nil {
		t.Fatal("a refused delivery returned no error")
	}
	r := outbox(t, m, "fail/1")
	if r.Status != mailer.StatusFailed || r.Attempts != 1 || !strings.Contains(r.LastError, "indisponível") || r.Sent {
		t.Errorf("after the failure: %+v", r)
	}
	if err := m.Send(ctx, msg); err != nil {
		t.Fatalf("retry: %v", err)
	}
	if r := outbox(t, m, "fail/1"); r.Status != mailer.StatusSent || r.Attempts != 2 || r.LastError != "" {
		t.Errorf("after the retry: %+v", r)
	}
	if n := len(srv.Mails()); n != 1 {
		t.Errorf("%d e-mails accepted, want 1", n)
	}

	// Wrong credentials and an unreachable server are failures too.
	bad := srv.Config(from)
	bad.SMTPUsername, bad.SMTPPassword = "portal", "errada"
	srv.Username, srv.Password = "portal", "certa"
	m2 := &mailer.Mailer{DB: m.DB, Brands: m.Brands, Config: bad}
	if err := m2.Send(ctx, mailer.Message{Key: "fail/auth", Brand: "yep", To: []string{"a@x.com.br"}, Subject: "T", Text: "x"}); err == nil {
		t.Error("wrong SMTP credentials: no error")
	}
	port, _ := testenv.FreePort()
	down := srv.Config(from)
	down.SMTPPort = port
	m3 := &mailer.Mailer{DB: m.DB, Brands: m.Brands, Config: down}
	if err := m3.Send(ctx, mailer.Message{Key: "fail/down", Brand: "yep", To: []string{"a@x.com.br"}, Subject: "T", Text: "x"}); err == nil {
		t.Error("unreachable SMTP server: no error")
	}
	if r := outbox(t, m, "fail/down"); r.Status != mailer.StatusFailed || r.LastError == "" {
		t.Errorf("unreachable server: %+v", r)
	}
}

func TestACancelledDeliveryIsCutAndMarkedFailed(t *testing.T) {
	held := make(chan struct{}, 1)
	srv := mailtest.Start(t, func(s *mailtest.Server) {
		s.OnData = func(ctx context.Context, _ int) error {
			held <- struct{}{}
			<-ctx.Done() // until the server closes
			return errors.New("closed")
		}
	})
	m := newMailer(t, srv.Config(from))
	ctx, cancel := context.WithCancel(testenv.Context(t))
	done := make(chan error, 1)
	go func() {
		done <- m.Send(ctx, mailer.Message{Key: "cut/1", Brand: "yep", To: []string{"a@x.com.br"}, Subject: "T", Text: "x"})
	}()
	<-held
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling the context did not cut the SMTP conversation")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cut after %s", d)
	}
	if r := outbox(t, m, "cut/1"); r.Status != mailer.StatusFailed {
		t.Errorf("outbox %+v", r)
	}
	if len(srv.Mails()) != 0 {
		t.Error("a cut delivery was accepted")
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
	} {
		if _, err := mailer.ConfigFromEnv(env(kv)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestALeaseHeldByAnotherAttemptIsRespectedUntilItExpires(t *testing.T) {
	srv := mailtest.Start(t)
	m := newMailer(t, srv.Config(from))
	ctx := testenv.Context(t)
	if err := m.Record(ctx, mailer.Message{Key: "lease/1", Brand: "yep", To: []string{"a@x.com.br"}, Subject: "T", Text: "x"}); err != nil {
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
	if n := len(srv.Wait(t, 1, 10*time.Second)); n != 1 {
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
	release := make(chan struct{})
	srv := mailtest.Start(t, func(s *mailtest.Server) {
		s.OnData = func(ctx context.Context, n int) error {
			if n == 1 {
				select {
				case <-release:
				case <-ctx.Done():
				}
			}
			return nil
		}
	})
	m := newMailer(t, srv.Config(from))
	ctx := testenv.Context(t)
	if err := m.Record(ctx, mailer.Message{Key: "slow/1", Brand: "yep", To: []string{"a@x.com.br"}, Subject: "T", Text: "x"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- m.Deliver(ctx, "slow/1") }()
	time.Sleep(time.Second)
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
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Mails()); n != 1 {
		t.Fatalf("%d deliveries, want 1", n)
	}

}
