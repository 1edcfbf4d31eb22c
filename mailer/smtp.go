package mailer

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"

	gomail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"

	"oportuna/brand"
)

// smtpSend delivers one message over SMTP with go-mail. The whole conversation
// is bounded by Config.Timeout and by ctx: when either ends, the connection is
// closed, so an attempt of a stopped worker cannot deliver later.
// accepted runs as soon as the server has taken the message (before QUIT), so
// the outbox records it sent with the least delay a crash could fall into.
func (m *Mailer) smtpSend(ctx context.Context, b *brand.Brand, msg Message, accepted func()) error {
	c := m.Config
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()

	em := gomail.NewMsg()
	if err := em.FromFormat(b.Name, c.From); err != nil {
		return fmt.Errorf("%w: from: %w", ErrInvalid, err)
	}
	if err := em.To(msg.To...); err != nil {
		return fmt.Errorf("%w: to: %w", ErrInvalid, err)
	}
	if msg.ReplyTo != "" {
		if err := em.ReplyTo(msg.ReplyTo); err != nil {
			return fmt.Errorf("%w: reply-to: %w", ErrInvalid, err)
		}
	}
	em.Subject(msg.Subject)
	em.SetMessageIDWithValue(MessageID(msg.Key, c.From))
	em.SetDate()
	em.SetUserAgent("Oportuna")
	switch {
	case msg.HTML != "" && msg.Text != "":
		em.SetBodyString(gomail.TypeTextPlain, msg.Text)
		em.AddAlternativeString(gomail.TypeTextHTML, msg.HTML)
	case msg.HTML != "":
		em.SetBodyString(gomail.TypeTextHTML, msg.HTML)
	default:
		em.SetBodyString(gomail.TypeTextPlain, msg.Text)
	}

	tlsConf := &tls.Config{ServerName: c.SMTPHost, MinVersion: tls.VersionTLS12}
	var (
		mu   sync.Mutex
		conn net.Conn
	)
	dial := func(dctx context.Context, network, addr string) (net.Conn, error) {
		d := &net.Dialer{}
		var cn net.Conn
		var err error
		if c.SMTPTLS == TLSImplicit {
			cn, err = (&tls.Dialer{NetDialer: d, Config: tlsConf}).DialContext(dctx, network, addr)
		} else {
			cn, err = d.DialContext(dctx, network, addr)
		}
		if err == nil {
			mu.Lock()
			conn = cn
			mu.Unlock()
		}
		return cn, err
	}
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if conn != nil {
			_ = conn.Close()
		}
	})
	defer stop()

	policy := gomail.TLSMandatory
	if c.SMTPTLS != TLSStartTLS {
		policy = gomail.NoTLS // implicit TLS is done by dial; none is none
	}
	opts := []gomail.Option{
		gomail.WithPort(c.SMTPPort), gomail.WithTimeout(c.Timeout), gomail.WithDialContextFunc(dial),
		gomail.WithTLSConfig(tlsConf), gomail.WithTLSPolicy(policy),
	}
	if c.SMTPUsername != "" {
		opts = append(opts, gomail.WithSMTPAuth(authTypes[c.SMTPAuth]),
			gomail.WithUsername(c.SMTPUsername), gomail.WithPassword(c.SMTPPassword))
	}
	client, err := gomail.NewClient(c.SMTPHost, opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	sc, err := client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return fmt.Errorf("smtp connect %s:%d: %w", c.SMTPHost, c.SMTPPort, orCtx(ctx, err))
	}
	// The envelope and DATA by hand: go-mail's SendWithSMTPClient sends RSET
	// after the server's 250 and only then returns (an error of RSET would even
	// read as a failed delivery), which widens the moment a crash leaves a
	// delivered message unrecorded.
	if err := transact(sc, c.From, msg.To, em); err != nil {
		_ = sc.Close()
		return fmt.Errorf("smtp send: %w", orCtx(ctx, err))
	}
	accepted()
	// The server accepted the message: a failing QUIT changes nothing.
	_ = client.CloseWithSMTPClient(sc)
	return nil
}

// transact sends one message: MAIL FROM, RCPT TO each recipient, DATA; it
// returns once the server accepted the data (its 250).
func transact(sc *smtp.Client, from string, to []string, em *gomail.Msg) error {
	if err := sc.Mail(from); err != nil {
		return err
	}
	for _, rcpt := range to {
		if err := sc.Rcpt(rcpt); err != nil {
			return err
		}
	}
	w, err := sc.Data()
	if err != nil {
		return err
	}
	if _, err := em.WriteTo(w); err != nil {
		_ = w.Close()
		return err
	}
	return w.Close()
}

// orCtx names the context's end as the cause when it cut the conversation.
func orCtx(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		return fmt.Errorf("%w (%w)", ctxErr, err)
	}
	return err
}

// MessageID is the Message-ID of the e-mail recorded under key (without the
// angle brackets): the same for every attempt, so a repeated delivery is
// recognisable as the same message.
func MessageID(key, from string) string {
	sum := sha256.Sum256([]byte(key))
	domain := "oportuna.localhost"
	if at := strings.LastIndexByte(from, '@'); at >= 0 && at < len(from)-1 {
		domain = from[at+1:]
	}
	return hex.EncodeToString(sum[:16]) + "@" + domain
}
