// Package config reads the process configuration from the environment, once,
// into one typed struct. Every variable is documented in the README.
package config

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/netip"
	"os"
	"strconv"
	"time"

	"oportuna/internal/clientaddr"
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
}

// Defaults of the settings, also quoted by the README.
const (
	DefaultPort              = 8080
	DefaultDatabaseURL       = "postgres://postgres@127.0.0.1:54329/oportuna?sslmode=disable"
	DefaultTemporalAddress   = "127.0.0.1:7233"
	DefaultTemporalNamespace = "default"
	DefaultDemoPassword      = "Oportuna@2026"
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
