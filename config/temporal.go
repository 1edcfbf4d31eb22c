package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"oportuna/internal/payloadcodec"
)

// readPayloadSettings reads PAYLOAD_KEYS / PAYLOAD_KEY_FILE, PAYLOAD_ENCRYPTION
// and PAYLOAD_ACCEPT_PLAINTEXT. Keys are required only by the subcommands that
// talk to Temporal (PayloadCodec).
func (c *Config) readPayloadSettings() error {
	switch v := strings.ToLower(strings.TrimSpace(os.Getenv("PAYLOAD_ENCRYPTION"))); v {
	case "", "on":
	case "off":
		c.PayloadEncryptionOff = true
	default:
		return fmt.Errorf("PAYLOAD_ENCRYPTION: %q is not on or off", v)
	}
	var err error
	if c.PayloadAcceptPlaintext, err = onOffEnv("PAYLOAD_ACCEPT_PLAINTEXT"); err != nil {
		return err
	}
	keys, file := os.Getenv("PAYLOAD_KEYS"), os.Getenv("PAYLOAD_KEY_FILE")
	switch {
	case keys != "" && file != "":
		return errors.New("PAYLOAD_KEYS and PAYLOAD_KEY_FILE are both set: set one")
	case keys != "":
		if c.PayloadKeys, err = payloadcodec.ParseKeys(keys); err != nil {
			return fmt.Errorf("PAYLOAD_KEYS: %w", err)
		}
	case file != "":
		if c.PayloadKeys, err = payloadcodec.ReadKeyFile(file); err != nil {
			return fmt.Errorf("PAYLOAD_KEY_FILE: %w", err)
		}
	}
	if c.PayloadEncryptionOff && len(c.PayloadKeys) > 0 {
		return errors.New("PAYLOAD_ENCRYPTION=off but payload keys are set: unset the keys, or PAYLOAD_ENCRYPTION")
	}
	return nil
}

// PayloadCodec is the codec of the Temporal clients: nil with
// PAYLOAD_ENCRYPTION=off, an error when encryption is on without a key (a
// process must not silently write customer data in clear into Temporal).
func (c Config) PayloadCodec() (*payloadcodec.Codec, error) {
	if c.PayloadEncryptionOff {
		return nil, nil
	}
	if len(c.PayloadKeys) == 0 {
		return nil, errors.New("no payload key: set PAYLOAD_KEYS (id:base64 of 32 random bytes, e.g. " +
			"`echo k1:$(openssl rand -base64 32)`) or PAYLOAD_KEY_FILE, or PAYLOAD_ENCRYPTION=off to keep " +
			"customer data in clear in Temporal (docs/security-payloads.md)")
	}
	return payloadcodec.New(c.PayloadKeys, payloadcodec.Options{AcceptPlaintext: c.PayloadAcceptPlaintext})
}

// readTemporalTransport reads the TLS and API-key settings of the Temporal
// client and refuses the combinations that cannot work or would leak.
func (c *Config) readTemporalTransport() error {
	c.TemporalTLSCA = os.Getenv("TEMPORAL_TLS_CA")
	c.TemporalTLSCert = os.Getenv("TEMPORAL_TLS_CERT")
	c.TemporalTLSKey = os.Getenv("TEMPORAL_TLS_KEY")
	c.TemporalTLSServerName = os.Getenv("TEMPORAL_TLS_SERVER_NAME")
	c.TemporalAPIKey = os.Getenv("TEMPORAL_API_KEY")
	tlsSetting := strings.ToLower(strings.TrimSpace(os.Getenv("TEMPORAL_TLS")))
	anyTLS := c.TemporalTLSCA != "" || c.TemporalTLSCert != "" || c.TemporalTLSKey != "" || c.TemporalTLSServerName != ""
	switch tlsSetting {
	case "":
		c.TemporalTLS = anyTLS || c.TemporalAPIKey != ""
	case "on":
		c.TemporalTLS = true
	case "off":
		if anyTLS {
			return errors.New("TEMPORAL_TLS=off but TEMPORAL_TLS_CA, _CERT, _KEY or _SERVER_NAME is set: remove them or TEMPORAL_TLS=off")
		}
		if c.TemporalAPIKey != "" {
			return errors.New("TEMPORAL_API_KEY is set with TEMPORAL_TLS=off: the key would cross the network in clear")
		}
	default:
		return fmt.Errorf("TEMPORAL_TLS: %q is not on or off", tlsSetting)
	}
	if (c.TemporalTLSCert == "") != (c.TemporalTLSKey == "") {
		return errors.New("TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together (the client certificate of mTLS and its key)")
	}
	return nil
}

// validateOrigin checks CODEC_CORS_ORIGIN is an origin (scheme://host[:port]).
func validateOrigin(o string) error {
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return fmt.Errorf("CODEC_CORS_ORIGIN: %q is not an origin like https://temporal-ui.example.com", o)
	}
	return nil
}

func onOffEnv(name string) (bool, error) {
	switch v := strings.ToLower(strings.TrimSpace(os.Getenv(name))); v {
	case "", "off":
		return false, nil
	case "on":
		return true, nil
	default:
		return false, fmt.Errorf("%s: %q is not on or off", name, v)
	}
}
