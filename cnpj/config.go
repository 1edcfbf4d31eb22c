package cnpj

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Provider names (CNPJ_PROVIDER).
const (
	ProviderBrasilAPI = "brasilapi"
	ProviderReceitaWS = "receitaws"
)

// The providers' public addresses, used when CNPJ_URL is empty.
const (
	BrasilAPIURL = "https://brasilapi.com.br"
	ReceitaWSURL = "https://receitaws.com.br"
)

// Defaults of the settings.
const (
	DefaultCacheTTL    = 30 * 24 * time.Hour
	DefaultNotFoundTTL = time.Hour
	DefaultTimeout     = 10 * time.Second
)

// Config is the lookup's configuration (see docs/integrations-cnpj.md).
type Config struct {
	Provider    string        // CNPJ_PROVIDER: brasilapi (default) or receitaws
	URL         string        // CNPJ_URL: the provider's base URL; empty = its public address (dev starts the stand-in instead)
	Token       string        // CNPJ_TOKEN: bearer token (ReceitaWS paid plans)
	CacheTTL    time.Duration // CNPJ_CACHE_TTL: how long a found company is reused (default 720h)
	NotFoundTTL time.Duration // CNPJ_NOT_FOUND_TTL: how long "unknown" is reused (default 1h; 0 = never cached)
	Timeout     time.Duration // CNPJ_TIMEOUT: deadline of one provider call (default 10s)
}

// ConfigFromEnv reads the CNPJ_* variables through getenv (os.Getenv in production).
// Durations are Go durations ("720h", "90m") or whole days ("30d").
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		Provider: strings.ToLower(strings.TrimSpace(getenv("CNPJ_PROVIDER"))),
		URL:      strings.TrimSpace(getenv("CNPJ_URL")),
		Token:    strings.TrimSpace(getenv("CNPJ_TOKEN")),
	}
	if c.Provider == "" {
		c.Provider = ProviderBrasilAPI
	}
	if c.Provider != ProviderBrasilAPI && c.Provider != ProviderReceitaWS {
		return c, fmt.Errorf("CNPJ_PROVIDER %q: use %s or %s", c.Provider, ProviderBrasilAPI, ProviderReceitaWS)
	}
	for _, d := range []struct {
		name string
		dst  *time.Duration
		def  time.Duration
		zero bool // 0 allowed
	}{
		{"CNPJ_CACHE_TTL", &c.CacheTTL, DefaultCacheTTL, false},
		{"CNPJ_NOT_FOUND_TTL", &c.NotFoundTTL, DefaultNotFoundTTL, true},
		{"CNPJ_TIMEOUT", &c.Timeout, DefaultTimeout, false},
	} {
		v := strings.TrimSpace(getenv(d.name))
		if v == "" {
			*d.dst = d.def
			continue
		}
		dur, err := parseDuration(v)
		if err != nil || dur < 0 || (dur == 0 && !d.zero) {
			return c, fmt.Errorf("%s %q: want a positive duration such as 720h or 30d", d.name, v)
		}
		*d.dst = dur
	}
	return c, nil
}

func parseDuration(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil {
			return 0, err
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}

// BaseURL is the configured URL or the provider's public address.
func (c Config) BaseURL() string {
	if c.URL != "" {
		return strings.TrimRight(c.URL, "/")
	}
	if c.Provider == ProviderReceitaWS {
		return ReceitaWSURL
	}
	return BrasilAPIURL
}

// NewProvider builds the configured provider's client.
func (c Config) NewProvider() (Provider, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	hc := &http.Client{Timeout: timeout}
	switch c.Provider {
	case ProviderBrasilAPI, "":
		return &BrasilAPI{BaseURL: c.BaseURL(), HTTP: hc}, nil
	case ProviderReceitaWS:
		return &ReceitaWS{BaseURL: c.BaseURL(), Token: c.Token, HTTP: hc}, nil
	}
	return nil, fmt.Errorf("cnpj: unknown provider %q", c.Provider)
}
