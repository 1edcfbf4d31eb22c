package mailer

import (
	"fmt"
	"net/mail"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"oportuna/brand"
)

// TLS modes of SMTP_TLS.
const (
	TLSStartTLS = "starttls" // plain connection upgraded with STARTTLS (mandatory), port 587 by default
	TLSImplicit = "tls"      // TLS from the first byte (SMTPS), port 465 by default
	TLSNone     = "none"     // no encryption (a relay on the same host or network), port 25 by default
)

// Defaults of the settings, also quoted by docs/integrations-mail.md.
const (
	DefaultTimeout = 30 * time.Second
	// DefaultPortalURL is where e-mailed links point when PORTAL_URL is not set:
	// each brand's local host on the HTTP port (the brand registry always knows
	// "<slug>.localhost").
	DefaultPortalURL = "http://{brand}.localhost:8080"
)

// Config is the mail configuration, read once at start by ConfigFromEnv.
type Config struct {
	SMTPHost     string        // SMTP_HOST; empty: e-mails are only recorded in the outbox (make run)
	SMTPPort     int           // SMTP_PORT; default 587, 465 or 25 by SMTP_TLS
	SMTPUsername string        // SMTP_USERNAME; empty: no authentication
	SMTPPassword string        // SMTP_PASSWORD
	SMTPAuth     string        // SMTP_AUTH: plain (default), login or cram-md5
	SMTPTLS      string        // SMTP_TLS: starttls (default), tls or none
	From         string        // SMTP_FROM: the sender address; the display name is the brand's name
	Timeout      time.Duration // SMTP_TIMEOUT: bound of one delivery (connect to QUIT), default 30s
	// HELO is the name the portal gives in EHLO: SMTP_HELO, else the machine's
	// host name when it is fully qualified (has a dot), else (empty) the address
	// literal of the connection's local address, "[10.0.0.5]" (RFC 5321 §4.1.3).
	// Strict servers refuse a bare name ("504 5.5.2 <vm>: Helo command rejected").
	HELO string
	// PortalURL is the base of every link in an e-mail, "{brand}" standing for the
	// brand's slug: PORTAL_URL, e.g. "https://parceiros.{brand}.example".
	PortalURL string
	// Mailbox serves the dev mailbox (/mailbox): MAILBOX=on. Never in production.
	Mailbox bool
}

// ConfigFromEnv reads the mail settings through getenv (os.Getenv in main).
// Without SMTP_HOST nothing is delivered: e-mails are recorded in the outbox
// and shown by the dev mailbox.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		SMTPHost:     strings.TrimSpace(getenv("SMTP_HOST")),
		SMTPUsername: getenv("SMTP_USERNAME"),
		SMTPPassword: getenv("SMTP_PASSWORD"),
		SMTPAuth:     strings.ToLower(strings.TrimSpace(getenv("SMTP_AUTH"))),
		SMTPTLS:      strings.ToLower(strings.TrimSpace(getenv("SMTP_TLS"))),
		From:         strings.TrimSpace(getenv("SMTP_FROM")),
		Timeout:      DefaultTimeout,
		PortalURL:    strings.TrimSpace(getenv("PORTAL_URL")),
		HELO:         strings.TrimSpace(getenv("SMTP_HELO")),
	}
	if c.PortalURL == "" {
		c.PortalURL = DefaultPortalURL
		if p := strings.TrimSpace(getenv("PORT")); p != "" {
			c.PortalURL = "http://{brand}.localhost:" + p
		}
	}
	switch v := strings.ToLower(strings.TrimSpace(getenv("MAILBOX"))); v {
	case "", "off", "false", "0":
	case "on", "true", "1":
		c.Mailbox = true
	default:
		return c, fmt.Errorf("MAILBOX: %q is not on or off", v)
	}
	if p := strings.TrimSpace(getenv("SMTP_PORT")); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return c, fmt.Errorf("SMTP_PORT: %q is not a port number", p)
		}
		c.SMTPPort = n
	}
	if t := strings.TrimSpace(getenv("SMTP_TIMEOUT")); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			return c, fmt.Errorf("SMTP_TIMEOUT: %q is not a positive duration (e.g. 30s)", t)
		}
		c.Timeout = d
	}
	return c, c.Validate()
}

// Validate checks the settings and fills the defaults that depend on others.
func (c *Config) Validate() error {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.PortalURL == "" {
		c.PortalURL = DefaultPortalURL
	}
	if err := checkPortalURL(c.PortalURL); err != nil {
		return err
	}
	if c.SMTPTLS == "" {
		c.SMTPTLS = TLSStartTLS
	}
	if c.SMTPAuth == "" {
		c.SMTPAuth = "plain"
	}
	if c.SMTPHost == "" {
		return nil
	}
	switch c.SMTPTLS {
	case TLSStartTLS, TLSImplicit, TLSNone:
	default:
		return fmt.Errorf("SMTP_TLS: %q is not starttls, tls or none", c.SMTPTLS)
	}
	if _, ok := authTypes[c.SMTPAuth]; !ok {
		return fmt.Errorf("SMTP_AUTH: %q is not plain, login or cram-md5", c.SMTPAuth)
	}
	if c.SMTPPort == 0 {
		c.SMTPPort = map[string]int{TLSStartTLS: 587, TLSImplicit: 465, TLSNone: 25}[c.SMTPTLS]
	}
	if c.From == "" {
		return fmt.Errorf("SMTP_FROM: required with SMTP_HOST (the sender address, e.g. nao-responda@empresa.com.br)")
	}
	a, err := mail.ParseAddress(c.From)
	if err != nil {
		return fmt.Errorf("SMTP_FROM: %q is not an e-mail address", c.From)
	}
	c.From = a.Address
	if c.HELO != "" {
		if !validHELO(c.HELO) {
			return fmt.Errorf("SMTP_HELO: %q is neither a fully qualified host name (portal.empresa.com.br) nor an address literal ([10.0.0.5])", c.HELO)
		}
	} else if h, err := os.Hostname(); err == nil && validHELO(h) && !strings.HasPrefix(h, "[") {
		c.HELO = h
	}
	return nil
}

// validHELO accepts a fully qualified host name (at least two labels of
// letters, digits and hyphens) or an address literal ("[192.0.2.1]",
// "[IPv6:2001:db8::1]"): what RFC 5321 §4.1.1.1 allows in EHLO.
func validHELO(h string) bool {
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		ip := strings.TrimPrefix(h[1:len(h)-1], "IPv6:")
		addr, err := netip.ParseAddr(ip)
		return err == nil && addr.Is6() == strings.HasPrefix(h, "[IPv6:")
	}
	labels := strings.Split(strings.TrimSuffix(h, "."), ".")
	if len(h) > 253 || len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

// checkPortalURL refuses a PORTAL_URL that would not give every brand a working
// link: not http(s), no host, or braces other than "{brand}" (e.g. a shell
// default that closed at the first brace: "http://{brand.localhost:8080}").
func checkPortalURL(p string) error {
	if !strings.HasPrefix(p, "http://") && !strings.HasPrefix(p, "https://") {
		return fmt.Errorf("PORTAL_URL: %q must start with http:// or https://", p)
	}
	filled := strings.ReplaceAll(p, "{brand}", "marca")
	if strings.ContainsAny(filled, "{}") {
		return fmt.Errorf("PORTAL_URL: %q has braces other than {brand} (the only placeholder)", p)
	}
	u, err := url.Parse(filled)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("PORTAL_URL: %q is not a base URL such as https://parceiros.{brand}.example", p)
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("PORTAL_URL: %q has an invalid port", p)
		}
	}
	return nil
}

var authTypes = map[string]gomail.SMTPAuthType{
	"plain":    gomail.SMTPAuthPlain,
	"login":    gomail.SMTPAuthLogin,
	"cram-md5": gomail.SMTPAuthCramMD5,
}

// Delivers reports whether an SMTP server is configured.
func (c Config) Delivers() bool { return c.SMTPHost != "" }

// Portal is the base URL of a brand's portal, without a trailing slash.
func (c Config) Portal(b *brand.Brand) string {
	p := c.PortalURL
	if p == "" {
		p = DefaultPortalURL
	}
	return strings.TrimRight(strings.ReplaceAll(p, "{brand}", b.Slug), "/")
}
