package config

import (
	"testing"
	"time"
)

func TestDefaultsAndOverrides(t *testing.T) {
	t.Setenv("JWT_SECRET", "0123456789abcdef0123456789abcdef")
	c, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if c.Port != 8080 || c.TemporalAddress != "127.0.0.1:7233" || c.TemporalNamespace != "default" ||
		c.AccessTokenTTL != 8*time.Hour || c.RefreshTokenTTL != 7*24*time.Hour || c.DemoPassword != "Oportuna@2026" {
		t.Errorf("defaults: %+v", c)
	}
	t.Setenv("PORT", "9090")
	t.Setenv("ACCESS_TOKEN_TTL", "15m")
	if c, err = FromEnv(); err != nil || c.Port != 9090 || c.AccessTokenTTL != 15*time.Minute {
		t.Errorf("overrides: %+v %v", c, err)
	}
}

func TestBadValuesAreRefusedWithTheirName(t *testing.T) {
	for name, value := range map[string]string{
		"PORT": "oito", "ACCESS_TOKEN_TTL": "-1h", "REFRESH_TOKEN_TTL": "sempre", "LOG_LEVEL": "LOUD", "JWT_SECRET": "curto",
		"TRUSTED_PROXIES": "10.0.0.0/33",
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, value)
			if _, err := FromEnv(); err == nil {
				t.Errorf("%s=%q accepted", name, value)
			}
		})
	}
}

func TestMissingSecretGetsARandomOne(t *testing.T) {
	t.Setenv("JWT_SECRET", "")
	a, _ := FromEnv()
	b, _ := FromEnv()
	if len(a.JWTSecret) < 32 || string(a.JWTSecret) == string(b.JWTSecret) {
		t.Error("random secrets are short or equal")
	}
}
