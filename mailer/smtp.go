package mailer

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/textproto"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	gomail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"

	"oportuna/brand"
)

// smtpSend delivers one message over SMTP with go-mail. The whole conversation
// is bounded by Config.Timeout and by ctx: when either ends, the connection is
// closed, so an attempt of a stopped worker cannot deliver later.
// accepted runs as soon as the server has taken the message (before QUIT), so
// the outbox records it sent with the least delay a crash could fall into; it
// gets the server's permanent refusals of some recipients, if any.
func (m *Mailer) smtpSend(ctx context.Context, b *brand.Brand, msg Message, accepted func(refused []*ReplyError)) error {
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
		mu     sync.Mutex
		conn   net.Conn
		client *gomail.Client
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
			if c.HELO == "" {
				// No host name of our own: the address literal of our end of
				// the connection (RFC 5321 §4.1.3), known only now. go-mail
				// sends EHLO after dialing.
				_ = gomail.WithHELO(addressLiteral(cn.LocalAddr()))(client)
			}
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
	if c.HELO != "" {
		opts = append(opts, gomail.WithHELO(c.HELO))
	}
	if c.SMTPUsername != "" {
		opts = append(opts, gomail.WithSMTPAuth(authTypes[c.SMTPAuth]),
			gomail.WithUsername(c.SMTPUsername), gomail.WithPassword(c.SMTPPassword))
	}
	var err error
	client, err = gomail.NewClient(c.SMTPHost, opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	sc, err := client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		// A refusal before the transaction (greeting, EHLO, STARTTLS, AUTH)
		// says nothing of this e-mail: the server or our account has a problem
		// someone can fix, so it is retried whatever its code.
		return fmt.Errorf("smtp connect %s:%d: %w", c.SMTPHost, c.SMTPPort, orCtx(ctx, replyError("session", err, false)))
	}
	// The envelope and DATA by hand: go-mail's SendWithSMTPClient sends RSET
	// after the server's 250 and only then returns (an error of RSET would even
	// read as a failed delivery), which widens the moment a crash leaves a
	// delivered message unrecorded.
	refused, err := transact(sc, c.From, msg.To, em)
	if err != nil {
		_ = sc.Close()
		return fmt.Errorf("smtp send: %w", orCtx(ctx, err))
	}
	accepted(refused)
	// The server accepted the message: a failing QUIT changes nothing.
	_ = client.CloseWithSMTPClient(sc)
	return nil
}

// transact sends one message: MAIL FROM, RCPT TO each recipient, DATA; it
// returns once the server accepted the data (its 250). The paths carry RFC
// 5321's angle brackets (§4.1.2: "MAIL FROM:<ana@x>"): go-mail's smtp.Client
// writes the argument as given, and a strict server (Postfix with
// strict_rfc821_envelopes) answers a bare address "501 5.1.7 Bad sender
// address syntax". go-mail adds BODY=8BITMIME and SMTPUTF8 only when the
// server announced them; SMTPUTF8 is asked only for an address that needs it.
//
// A recipient refused for good (5xx) is skipped and returned in refused; the
// message goes to the others. A temporary refusal of any recipient (4xx)
// abandons the whole attempt, so the retry delivers to everyone once. When
// every recipient is refused, the error is the first refusal.
func transact(sc *smtp.Client, from string, to []string, em *gomail.Msg) (refused []*ReplyError, err error) {
	sc.SkipSMTPUTF8(!needsUTF8(append([]string{from}, to...)))
	if err := sc.Mail(path(from)); err != nil {
		return nil, replyError("MAIL FROM", err, true)
	}
	for _, rcpt := range to {
		if err := sc.Rcpt(path(rcpt)); err != nil {
			re := replyError("RCPT TO", err, true)
			var r *ReplyError
			if !errors.As(re, &r) || !r.Permanent {
				return nil, re
			}
			refused = append(refused, r)
		}
	}
	if len(refused) == len(to) {
		return nil, refused[0]
	}
	w, err := sc.Data()
	if err != nil {
		return nil, replyError("DATA", err, true)
	}
	if _, err := em.WriteTo(w); err != nil {
		_ = w.Close()
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, replyError("end of data", err, true)
	}
	return refused, nil
}

// path is an address as RFC 5321's Reverse-path / Forward-path: in angle
// brackets, the local part quoted when it must be.
func path(addr string) string { return (&mail.Address{Address: addr}).String() }

func needsUTF8(addrs []string) bool {
	for _, a := range addrs {
		for i := 0; i < len(a); i++ {
			if a[i] >= utf8.RuneSelf {
				return true
			}
		}
	}
	return false
}

// addressLiteral is RFC 5321's address literal of a host with no name:
// "[192.0.2.1]" or "[IPv6:2001:db8::1]".
func addressLiteral(a net.Addr) string {
	ip := net.IPv4(127, 0, 0, 1)
	if t, ok := a.(*net.TCPAddr); ok && t.IP != nil {
		ip = t.IP
	}
	if ip4 := ip.To4(); ip4 != nil {
		return "[" + ip4.String() + "]"
	}
	return "[IPv6:" + ip.String() + "]"
}

// ReplyError is a mail server's refusal: the command it answered, its reply
// code and text. The text is the server's with every e-mail address replaced
// by "<…>" (servers quote the recipient; addresses stay out of logs and of
// Temporal's history).
type ReplyError struct {
	Command string // MAIL FROM, RCPT TO, DATA, end of data, or session (greeting, EHLO, STARTTLS, AUTH)
	Code    int    // 421, 451, 550, …
	Text    string // "5.1.1 <…>: Recipient address rejected: User unknown in virtual mailbox table"
	// Permanent: a 5xx answer to this e-mail's transaction (MAIL FROM, RCPT TO,
	// DATA): sending it again would be refused again, so it is not retried.
	Permanent bool
}

func (e *ReplyError) Error() string {
	return fmt.Sprintf("%s: %d %s", e.Command, e.Code, e.Text)
}

// Is makes a permanent refusal ErrRejected, and so ErrInvalid: the activities
// give it up at once.
func (e *ReplyError) Is(target error) bool {
	return e.Permanent && (target == ErrRejected || target == ErrInvalid)
}

// Class is the reply's class: "4xx" or "5xx".
func (e *ReplyError) Class() string { return strconv.Itoa(e.Code/100) + "xx" }

// replyError turns the server's answer in err into a *ReplyError (permanent
// when a 5xx came to a command of the transaction); other errors (no answer:
// a broken connection, a timeout) are returned as they are, masked.
func replyError(command string, err error, transaction bool) error {
	var te *textproto.Error
	if errors.As(err, &te) {
		return &ReplyError{Command: command, Code: te.Code, Text: maskAddresses(te.Msg),
			Permanent: transaction && te.Code >= 500 && te.Code < 600}
	}
	return maskedError{err}
}

// maskedError is an error whose text has its e-mail addresses masked.
type maskedError struct{ err error }

func (e maskedError) Error() string { return maskAddresses(e.err.Error()) }
func (e maskedError) Unwrap() error { return e.err }

var (
	bracketedRE = regexp.MustCompile(`<[^<>\s]*@[^<>\s]*>`)
	bareRE      = regexp.MustCompile(`[^\s<>"'(),;:]+@[^\s<>"'(),;:]+`)
)

// maskAddresses replaces the e-mail addresses in a server's text with "<…>".
func maskAddresses(s string) string {
	s = bracketedRE.ReplaceAllString(s, "<…>")
	return bareRE.ReplaceAllString(s, "…")
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
