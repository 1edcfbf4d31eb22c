// Package temporalclient builds the options of the portal's Temporal clients
// from config.Config: address and namespace, the payload codec (every payload
// and every failure's message encrypted, plaintext refused), TLS or mTLS, and an API key.
package temporalclient

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"

	"go.temporal.io/sdk/client"

	"oportuna/config"
)

// Options are the client options of cfg; the caller adds the logger and the
// metrics handler. It fails, with the setting to fix, when encryption is on
// without a key or a TLS file cannot be read.
func Options(cfg config.Config) (client.Options, error) {
	opts := client.Options{HostPort: cfg.TemporalAddress, Namespace: cfg.TemporalNamespace}
	codec, err := cfg.PayloadCodec()
	if err != nil {
		return opts, err
	}
	if codec != nil {
		opts.DataConverter = codec.DataConverter()
		opts.FailureConverter = codec.FailureConverter() // failures' messages and stack traces too
	}
	if opts.ConnectionOptions.TLS, err = TLSConfig(cfg); err != nil {
		return opts, err
	}
	if cfg.TemporalAPIKey != "" {
		if opts.ConnectionOptions.TLS == nil {
			return opts, errors.New("TEMPORAL_API_KEY needs TLS (TEMPORAL_TLS)")
		}
		opts.Credentials = client.NewAPIKeyStaticCredentials(cfg.TemporalAPIKey)
	}
	return opts, nil
}

// TLSConfig is the client's TLS configuration, nil when TLS is off.
func TLSConfig(cfg config.Config) (*tls.Config, error) {
	if !cfg.TemporalTLS {
		return nil, nil
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: cfg.TemporalTLSServerName}
	if cfg.TemporalTLSCA != "" {
		pem, err := os.ReadFile(cfg.TemporalTLSCA)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CA: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("TEMPORAL_TLS_CA: %s holds no PEM certificate", cfg.TemporalTLSCA)
		}
	}
	if cfg.TemporalTLSCert != "" || cfg.TemporalTLSKey != "" {
		if cfg.TemporalTLSCert == "" || cfg.TemporalTLSKey == "" {
			return nil, errors.New("TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together")
		}
		cert, err := tls.LoadX509KeyPair(cfg.TemporalTLSCert, cfg.TemporalTLSKey)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CERT/TEMPORAL_TLS_KEY: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}
