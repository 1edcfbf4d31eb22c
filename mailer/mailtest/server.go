// Package mailtest is an SMTP server for tests (github.com/emersion/go-smtp)
// on a loopback port: it keeps every accepted e-mail, parsed into its subject,
// text and HTML parts, and can be told to refuse or hold deliveries.
package mailtest

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"oportuna/mailer"
)

// Mail is one accepted e-mail.
type Mail struct {
	From    string   // envelope sender
	To      []string // envelope recipients
	Header  mail.Header
	Subject string // decoded
	Text    string // the text/plain part
	HTML    string // the text/html part
	Raw     []byte
}

// Server is a running test SMTP server.
type Server struct {
	Host string
	Port int
	// Username and Password, when set, make AUTH PLAIN mandatory.
	Username, Password string
	// OnData, when set, runs for every DATA command (n counts them from 1) after
	// the message was read; an error refuses the message. ctx ends when the
	// server closes, so a hook may block on it to hold a delivery.
	OnData func(ctx context.Context, n int) error

	srv    *smtp.Server
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	mails  []Mail
	datas  int
	notify chan struct{}
}

// Start runs a server on a free loopback port until the test ends. Set the
// fields (credentials, hooks) in configure, before it accepts connections.
func Start(t testing.TB, configure ...func(*Server)) *Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mailtest: listen: %v", err)
	}
	s := &Server{Host: "127.0.0.1", Port: l.Addr().(*net.TCPAddr).Port, notify: make(chan struct{})}
	for _, f := range configure {
		f(s)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }))
	s.srv.Domain = "localhost"
	s.srv.AllowInsecureAuth = true
	s.srv.ReadTimeout = time.Minute
	s.srv.WriteTimeout = time.Minute
	s.srv.MaxMessageBytes = 4 << 20
	go func() { _ = s.srv.Serve(l) }()
	t.Cleanup(s.Close)
	return s
}

// Close stops the server and releases held deliveries.
func (s *Server) Close() {
	s.cancel()
	_ = s.srv.Close()
}

// Config is a mailer configuration that delivers to this server without TLS.
func (s *Server) Config(from string) mailer.Config {
	c := mailer.Config{SMTPHost: s.Host, SMTPPort: s.Port, SMTPTLS: mailer.TLSNone, From: from,
		SMTPUsername: s.Username, SMTPPassword: s.Password, Timeout: 10 * time.Second}
	if err := c.Validate(); err != nil {
		panic(err)
	}
	return c
}

// Mails returns the accepted e-mails in arrival order.
func (s *Server) Mails() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.mails...)
}

// DataCommands counts the DATA commands received, accepted or not.
func (s *Server) DataCommands() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.datas
}

// Wait waits until n e-mails were accepted and returns them.
func (s *Server) Wait(t testing.TB, n int, timeout time.Duration) []Mail {
	t.Helper()
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		got, ch := len(s.mails), s.notify
		s.mu.Unlock()
		if got >= n {
			return s.Mails()
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("mailtest: %d e-mail(s) accepted after %s, want %d", got, timeout, n)
		}
	}
}

type session struct {
	s      *Server
	authed bool
	from   string
	to     []string
}

func (se *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (se *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != se.s.Username || pass != se.s.Password || se.s.Username == "" {
			// RFC 4954 §6: the answer of a real server to wrong credentials.
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Authentication credentials invalid"}
		}
		se.authed = true
		return nil
	}), nil
}

func (se *session) Mail(from string, _ *smtp.MailOptions) error {
	if se.s.Username != "" && !se.authed {
		return smtp.ErrAuthRequired
	}
	se.from = from
	return nil
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	se.to = append(se.to, to)
	return nil
}

func (se *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	se.s.mu.Lock()
	se.s.datas++
	n := se.s.datas
	se.s.mu.Unlock()
	if hook := se.s.OnData; hook != nil {
		if err := hook(se.s.ctx, n); err != nil {
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: err.Error()}
		}
	}
	m, err := Parse(raw)
	if err != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: err.Error()}
	}
	m.From, m.To = se.from, append([]string(nil), se.to...)
	se.s.mu.Lock()
	se.s.mails = append(se.s.mails, m)
	close(se.s.notify)
	se.s.notify = make(chan struct{})
	se.s.mu.Unlock()
	return nil
}

func (se *session) Reset()        { se.from, se.to = "", nil }
func (se *session) Logout() error { return nil }

// Parse reads an RFC 5322 message into its subject and text and HTML parts.
func Parse(raw []byte) (Mail, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Mail{}, fmt.Errorf("mailtest: parse: %w", err)
	}
	m := Mail{Header: msg.Header, Raw: raw}
	if m.Subject, err = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject")); err != nil {
		return m, err
	}
	return m, addPart(&m, msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
}

func addPart(m *Mail, contentType, encoding string, body io.Reader) error {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = "text/plain"
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if err := addPart(m, p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p); err != nil {
				return err
			}
		}
	}
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, &newlineStripper{r: body})
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	text := strings.ReplaceAll(string(b), "\r\n", "\n")
	switch mt {
	case "text/html":
		m.HTML += text
	case "text/plain":
		m.Text += text
	}
	return nil
}

// newlineStripper drops line breaks from base64 bodies.
type newlineStripper struct{ r io.Reader }

func (n *newlineStripper) Read(p []byte) (int, error) {
	c, err := n.r.Read(p)
	j := 0
	for _, b := range p[:c] {
		if b != '\r' && b != '\n' {
			p[j] = b
			j++
		}
	}
	return j, err
}
