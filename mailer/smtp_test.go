package mailer_test

import (
	"bufio"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/mailer/mailtest"
)

// scriptedSMTP is a server that says yes to everything and announces only the
// given ESMTP extensions; it records the command lines it receives. It shows
// the exact bytes of the envelope (Postfix logs no command parameters) and a
// server without 8BITMIME and SMTPUTF8 (this machine's Postfix announces both).
type scriptedSMTP struct {
	l    net.Listener
	exts []string
	mu   sync.Mutex
	cmds []string
}

func startScripted(t *testing.T, exts ...string) *scriptedSMTP {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &scriptedSMTP{l: l, exts: exts}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *scriptedSMTP) serve(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(c)
	say := func(line string) { _, _ = c.Write([]byte(line + "\r\n")) }
	say("220 scripted.example ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		s.mu.Lock()
		s.cmds = append(s.cmds, line)
		s.mu.Unlock()
		verb := strings.ToUpper(strings.Fields(line + " x")[0])
		switch verb {
		case "EHLO":
			if len(s.exts) == 0 {
				say("250 scripted.example")
				continue
			}
			say("250-scripted.example")
			for i, e := range s.exts {
				if i == len(s.exts)-1 {
					say("250 " + e)
				} else {
					say("250-" + e)
				}
			}
		case "DATA":
			say("354 go on")
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
			}
			say("250 2.0.0 queued")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("250 ok")
		}
	}
}

func (s *scriptedSMTP) commands() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.cmds...)
}

func (s *scriptedSMTP) config() mailer.Config {
	return mailer.Config{SMTPHost: "127.0.0.1", SMTPPort: s.l.Addr().(*net.TCPAddr).Port, SMTPTLS: mailer.TLSNone, From: from, Timeout: 10 * time.Second}
}

// TestTheEnvelopeIsRFC5321s: the exact command lines (RFC 5321 §4.1.1.1,
// §4.1.1.2, §4.1.1.3 and §4.1.2: "MAIL FROM:<Reverse-path>", "RCPT
// TO:<Forward-path>"), EHLO with the address literal of a host without a
// fully qualified name (or SMTP_HELO), BODY=8BITMIME only when the server
// announced it (RFC 6152), SMTPUTF8 only when announced and an address needs it (RFC 6531).
func TestTheEnvelopeIsRFC5321s(t *testing.T) {
	cases := []struct {
		name string
		exts []string
		helo string
		to   string
		want []string
	}{
		{"no extensions", nil, "", "a@x.com.br",
			[]string{"EHLO [127.0.0.1]", "MAIL FROM:<" + from + ">", "RCPT TO:<a@x.com.br>", "DATA", "QUIT"}},
		{"8BITMIME and SMTPUTF8, ASCII addresses", []string{"8BITMIME", "SMTPUTF8"}, "portal.empresa.com.br", "a@x.com.br",
			[]string{"EHLO portal.empresa.com.br", "MAIL FROM:<" + from + "> BODY=8BITMIME", "RCPT TO:<a@x.com.br>", "DATA", "QUIT"}},
		{"8BITMIME and SMTPUTF8, an address with accents", []string{"8BITMIME", "SMTPUTF8"}, "", "joão@x.com.br",
			[]string{"EHLO [127.0.0.1]", "MAIL FROM:<" + from + "> BODY=8BITMIME SMTPUTF8", "RCPT TO:<joão@x.com.br>", "DATA", "QUIT"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := startScripted(t, c.exts...)
			cfg := s.config()
			cfg.HELO = c.helo
			m := newMailer(t, cfg)
			m.Config.HELO = c.helo // not the machine's name, whatever it is
			if err := m.Send(testenv.Context(t), mailer.Message{Key: "wire/1", Brand: "yep", To: []string{c.to}, Subject: "T", Text: "x"}); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(s.commands(), "\n"); got != strings.Join(c.want, "\n") {
				t.Errorf("commands:\n%s\nwant:\n%s", got, strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestSMTPAuthentication runs against go-smtp (mailer/mailtest): this
// machine's Postfix has no SASL (it needs Cyrus SASL or Dovecot). Wrong
// credentials are a refusal of the session, not of the e-mail: retried, so
// e-mails wait while an operator fixes SMTP_PASSWORD.
func TestSMTPAuthentication(t *testing.T) {
	srv := mailtest.Start(t, func(s *mailtest.Server) { s.Username, s.Password = "portal", "s3nha" })
	ctx := testenv.Context(t)
	cfg := srv.Config(from)
	cfg.SMTPPassword = "errada"
	bad := newMailer(t, cfg)
	before := counter(t, "oportuna_mail_attempt_failures_total", "5xx")
	err := bad.Send(ctx, mailer.Message{Key: "auth/1", Brand: "yep", To: []string{"a@x.com.br"}, Subject: "T", Text: "x"})
	var re *mailer.ReplyError
	if !errors.As(err, &re) || re.Code != 535 || re.Permanent || errors.Is(err, mailer.ErrInvalid) {
		t.Fatalf("wrong credentials: %v, want a retryable 535", err)
	}
	grew(t, "oportuna_mail_attempt_failures_total", "5xx", before, 1)
	good := &mailer.Mailer{DB: bad.DB, Brands: bad.Brands, Config: srv.Config(from)}
	if err := good.Send(ctx, mailer.Message{Key: "auth/1"}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Wait(t, 1, 10*time.Second); len(got) != 1 || got[0].To[0] != "a@x.com.br" {
		t.Errorf("delivered %+v", got)
	}
	if r := outbox(t, good, "auth/1"); r.Status != mailer.StatusSent || r.Attempts != 2 {
		t.Errorf("outbox %+v", r)
	}
}
