// Package config reads the process configuration from the environment, once,
// into one typed struct. Every variable is documented in the README.
package config

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"oportuna/internal/clientaddr"
	"oportuna/internal/payloadcodec"
)

// Config is every setting of every subcommand.
type Config struct {
	Port              int            // PORT
	DatabaseURL       string         // DATABASE_URL
	TemporalAddress   string         // TEMPORAL_ADDRESS
	TemporalNamespace string         // TEMPORAL_NAMESPACE
	JWTSecret         []byte         // JWT_SECRET
	AccessTokenTTL    time.Duration  // ACCESS_TOKEN_TTL
	RefreshTokenTTL   time.Duration  // REFRESH_TOKEN_TTL
	ResetTokenTTL     time.Duration  // RESET_TOKEN_TTL
	LogLevel          slog.Level     // LOG_LEVEL
	DemoPassword      string         // SEED_PASSWORD
	MetricsPort       int            // METRICS_PORT; 0 (unset): no metrics listener
	ShutdownDelay     time.Duration  // SHUTDOWN_DELAY; 0 (unset): stop at once
	TrustedProxies    []netip.Prefix // TRUSTED_PROXIES; none (unset): clients connect directly
	HSTSMaxAge        time.Duration  // HSTS_MAX_AGE; 0 (unset): no Strict-Transport-Security (not served over https)

	OpportunityValidity         time.Duration // OPPORTUNITY_VALIDITY
	OpportunityRenewalWindow    time.Duration // OPPORTUNITY_RENEWAL_WINDOW
	ApprovalSLA                 time.Duration // APPROVAL_SLA
	OpportunityExpiredRetention time.Duration // OPPORTUNITY_EXPIRED_RETENTION
	ReconcileInterval           time.Duration // RECONCILE_INTERVAL: the reconciliation schedule's period (worker)

	// Encryption of Temporal payloads (docs/security-payloads.md).
	PayloadKeys            []payloadcodec.Key // PAYLOAD_KEYS or the file PAYLOAD_KEY_FILE; first = newest
	PayloadEncryptionOff   bool               // PAYLOAD_ENCRYPTION=off: payloads in clear (explicit only)
	PayloadAcceptPlaintext bool               // PAYLOAD_ACCEPT_PLAINTEXT=on: read pre-encryption histories (migration)

	// The Temporal client's transport (TemporalTransport).
	TemporalTLS           bool   // TEMPORAL_TLS; unset: on when a TLS file, the server name or an API key is set
	TemporalTLSCA         string // TEMPORAL_TLS_CA: PEM file of the CAs the frontend's certificate chains to (none: the system's)
	TemporalTLSCert       string // TEMPORAL_TLS_CERT: PEM client certificate (mTLS), with TEMPORAL_TLS_KEY
	TemporalTLSKey        string // TEMPORAL_TLS_KEY
	TemporalTLSServerName string // TEMPORAL_TLS_SERVER_NAME: name checked in the frontend's certificate
	TemporalAPIKey        string // TEMPORAL_API_KEY: bearer API key (e.g. Temporal Cloud)

	// oportuna codec-server (docs/security-payloads.md).
	CodecAddr        string   // CODEC_ADDR
	CodecCORSOrigins []string // CODEC_CORS_ORIGIN: the Temporal UI's origins, comma-separated

	Worker WorkerConfig // the worker's task queues (docs/operations.md, Task queues)
}

// WorkerConfig are the worker's queues, rate limits, slots and pollers.
type WorkerConfig struct {
	Queues        []string // WORKER_QUEUES: the queues this process polls (workflows, crm, mail); default all
	DBSlots       int      // WORKER_DB_SLOTS: activities + local activities of the workflow queue at once; 0: the pool's size
	CRMPerSecond  float64  // CRM_ACTIVITIES_PER_SECOND
	CRMSlots      int      // CRM_MAX_CONCURRENT
	MailPerSecond float64  // MAIL_ACTIVITIES_PER_SECOND
	MailSlots     int      // MAIL_MAX_CONCURRENT
	MaxPollers    int      // WORKER_MAX_POLLERS
}

// Defaults of the worker's settings (worker.Default*, which are these, explains each).
const (
	DefaultCRMPerSecond  = 50
	DefaultCRMSlots      = 10
	DefaultMailPerSecond = 10
	DefaultMailSlots     = 4
	DefaultMaxPollers    = 16
)

// Defaults of the settings, also quoted by the README.
const (
	DefaultPort              = 8080
	DefaultDatabaseURL       = "postgres://postgres@127.0.0.1:54329/oportuna?sslmode=disable"
	DefaultTemporalAddress   = "127.0.0.1:7233"
	DefaultTemporalNamespace = "default"
	DefaultDemoPassword      = "Oportuna@2026"
	DefaultCodecAddr         = "127.0.0.1:8089"
)

// Shutdown of the HTTP server (cmd/oportuna runServices). On SIGTERM, after
// SHUTDOWN_DELAY, the server stops accepting and waits HTTPDrainTimeout for the
// requests in flight; requests still running then have their connections closed
// and get HTTPCloseGrace to return. HTTPDrainTimeout exceeds the longest request
// the API lets run: a decision or registration waits up to
// workflows.DecisionWait (90 s) on its workflow update (api's updateTimeout).
// deploy/compose_test.go checks that margin and that the api's
// stop_grace_period covers SHUTDOWN_DELAY + HTTPDrainTimeout + HTTPCloseGrace.
const (
	HTTPDrainTimeout = 100 * time.Second
	HTTPCloseGrace   = 5 * time.Second
)

// FromEnv reads the environment. A missing JWT_SECRET gets a random one (sessions
// then end with the process; production must set it).
func FromEnv() (Config, error) {
	c := Config{
		DatabaseURL:       env("DATABASE_URL", DefaultDatabaseURL),
		TemporalAddress:   env("TEMPORAL_ADDRESS", DefaultTemporalAddress),
		TemporalNamespace: env("TEMPORAL_NAMESPACE", DefaultTemporalNamespace),
		DemoPassword:      env("SEED_PASSWORD", DefaultDemoPassword),
	}
	var err error
	if c.Port, err = intEnv("PORT", DefaultPort); err != nil {
		return c, err
	}
	if c.MetricsPort, err = intEnv("METRICS_PORT", 0); err != nil {
		return c, err
	}
	if c.ShutdownDelay, err = durationEnv("SHUTDOWN_DELAY", 0); err != nil {
		return c, err
	}
	if c.TrustedProxies, err = clientaddr.ParsePrefixes(os.Getenv("TRUSTED_PROXIES")); err != nil {
		return c, fmt.Errorf("TRUSTED_PROXIES: %w", err)
	}
	if c.HSTSMaxAge, err = durationEnv("HSTS_MAX_AGE", 0); err != nil {
		return c, err
	}
	if c.AccessTokenTTL, err = durationEnv("ACCESS_TOKEN_TTL", 8*time.Hour); err != nil {
		return c, err
	}
	if c.RefreshTokenTTL, err = durationEnv("REFRESH_TOKEN_TTL", 7*24*time.Hour); err != nil {
		return c, err
	}
	if c.ResetTokenTTL, err = durationEnv("RESET_TOKEN_TTL", time.Hour); err != nil {
		return c, err
	}
	for _, d := range []struct {
		name string
		dst  *time.Duration
		def  time.Duration
	}{
		{"OPPORTUNITY_VALIDITY", &c.OpportunityValidity, 2160 * time.Hour},
		{"OPPORTUNITY_RENEWAL_WINDOW", &c.OpportunityRenewalWindow, 360 * time.Hour},
		{"APPROVAL_SLA", &c.ApprovalSLA, 48 * time.Hour},
		{"OPPORTUNITY_EXPIRED_RETENTION", &c.OpportunityExpiredRetention, 4320 * time.Hour},
		{"RECONCILE_INTERVAL", &c.ReconcileInterval, 15 * time.Minute},
	} {
		if *d.dst, err = durationEnv(d.name, d.def); err != nil {
			return c, err
		}
	}
	if c.ReconcileInterval < 10*time.Second {
		return c, fmt.Errorf("RECONCILE_INTERVAL (%s) must be at least 10s", c.ReconcileInterval)
	}
	if c.OpportunityRenewalWindow >= c.OpportunityValidity {
		return c, fmt.Errorf("OPPORTUNITY_RENEWAL_WINDOW (%s) must be shorter than OPPORTUNITY_VALIDITY (%s)", c.OpportunityRenewalWindow, c.OpportunityValidity)
	}
	if err := c.readPayloadSettings(); err != nil {
		return c, err
	}
	if err := c.readTemporalTransport(); err != nil {
		return c, err
	}
	c.CodecAddr = env("CODEC_ADDR", DefaultCodecAddr)
	for _, o := range strings.Split(os.Getenv("CODEC_CORS_ORIGIN"), ",") {
		if o = strings.TrimSuffix(strings.TrimSpace(o), "/"); o != "" {
			if err := validateOrigin(o); err != nil {
				return c, err
			}
			c.CodecCORSOrigins = append(c.CodecCORSOrigins, o)
		}
	}
	if c.Worker, err = workerFromEnv(); err != nil {
		return c, err
	}
	if err := c.LogLevel.UnmarshalText([]byte(env("LOG_LEVEL", "INFO"))); err != nil {
		return c, fmt.Errorf("LOG_LEVEL: %w", err)
	}
	if s := os.Getenv("JWT_SECRET"); s != "" {
		if len(s) < 32 {
			return c, fmt.Errorf("JWT_SECRET: at least 32 characters")
		}
		c.JWTSecret = []byte(s)
	} else {
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		c.JWTSecret = []byte(hex.EncodeToString(b))
		slog.Warn("JWT_SECRET is not set: using a random secret, sessions end when the process stops")
	}
	return c, nil
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func intEnv(name string, def int) (int, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s: %q is not a positive whole number", name, v)
	}
	return n, nil
}

func durationEnv(name string, def time.Duration) (time.Duration, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s: %q is not a positive duration (e.g. 90m, 8h)", name, v)
	}
	return d, nil
}

func workerFromEnv() (WorkerConfig, error) {
	w := WorkerConfig{Queues: []string{"workflows", "crm", "mail"}}
	if v := os.Getenv("WORKER_QUEUES"); v != "" {
		w.Queues = nil
		for _, q := range strings.Split(v, ",") {
			q = strings.ToLower(strings.TrimSpace(q))
			switch q {
			case "":
			case "workflows", "crm", "mail":
				if !slices.Contains(w.Queues, q) {
					w.Queues = append(w.Queues, q)
				}
			default:
				return w, fmt.Errorf("WORKER_QUEUES: unknown queue %q (want a list of workflows, crm, mail)", q)
			}
		}
		if len(w.Queues) == 0 {
			return w, fmt.Errorf("WORKER_QUEUES: %q names no queue", v)
		}
	}
	var err error
	for _, i := range []struct {
		name string
		dst  *int
		def  int
	}{{"WORKER_DB_SLOTS", &w.DBSlots, 0}, {"CRM_MAX_CONCURRENT", &w.CRMSlots, DefaultCRMSlots},
		{"MAIL_MAX_CONCURRENT", &w.MailSlots, DefaultMailSlots}, {"WORKER_MAX_POLLERS", &w.MaxPollers, DefaultMaxPollers}} {
		if *i.dst, err = intEnv(i.name, i.def); err != nil {
			return w, err
		}
	}
	if w.CRMPerSecond, err = rateEnv("CRM_ACTIVITIES_PER_SECOND", DefaultCRMPerSecond); err != nil {
		return w, err
	}
	if w.MailPerSecond, err = rateEnv("MAIL_ACTIVITIES_PER_SECOND", DefaultMailPerSecond); err != nil {
		return w, err
	}
	return w, nil
}

func rateEnv(name string, def float64) (float64, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f <= 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("%s: %q is not a positive rate per second (e.g. 10, 0.5)", name, v)
	}
	return f, nil
}
