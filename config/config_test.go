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

func TestWorkerSettings(t *testing.T) {
	t.Setenv("JWT_SECRET", "0123456789abcdef0123456789abcdef")
	c, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	w := c.Worker
	if len(w.Queues) != 3 || w.DBSlots != 0 || w.CRMPerSecond != DefaultCRMPerSecond || w.CRMSlots != DefaultCRMSlots ||
		w.MailPerSecond != DefaultMailPerSecond || w.MailSlots != DefaultMailSlots || w.MaxPollers != DefaultMaxPollers {
		t.Errorf("defaults: %+v", w)
	}
	for k, v := range map[string]string{"WORKER_QUEUES": " CRM, mail,crm ", "WORKER_DB_SLOTS": "12", "CRM_ACTIVITIES_PER_SECOND": "0.5",
		"CRM_MAX_CONCURRENT": "3", "MAIL_ACTIVITIES_PER_SECOND": "14", "MAIL_MAX_CONCURRENT": "2", "WORKER_MAX_POLLERS": "8"} {
		t.Setenv(k, v)
	}
	if c, err = FromEnv(); err != nil {
		t.Fatal(err)
	}
	w = c.Worker
	if len(w.Queues) != 2 || w.Queues[0] != "crm" || w.Queues[1] != "mail" || w.DBSlots != 12 || w.CRMPerSecond != 0.5 ||
		w.CRMSlots != 3 || w.MailPerSecond != 14 || w.MailSlots != 2 || w.MaxPollers != 8 {
		t.Errorf("overrides: %+v", w)
	}
	for name, value := range map[string]string{"WORKER_QUEUES": "crm,sms", "CRM_ACTIVITIES_PER_SECOND": "0", "MAIL_ACTIVITIES_PER_SECOND": "muito",
		"WORKER_DB_SLOTS": "-1", "CRM_MAX_CONCURRENT": "0"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, value)
			if _, err := FromEnv(); err == nil {
				t.Errorf("%s=%q accepted", name, value)
			}
		})
	}
}
