package temporalclient_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/converter"

	"oportuna/config"
	"oportuna/internal/payloadcodec"
	"oportuna/internal/temporalclient"
)

// setEnv clears every setting this package reads, then sets kv.
func setEnv(t *testing.T, kv map[string]string) {
	t.Helper()
	for _, k := range []string{"PAYLOAD_KEYS", "PAYLOAD_KEY_FILE", "PAYLOAD_ENCRYPTION", "PAYLOAD_ACCEPT_PLAINTEXT",
		"TEMPORAL_TLS", "TEMPORAL_TLS_CA", "TEMPORAL_TLS_CERT", "TEMPORAL_TLS_KEY", "TEMPORAL_TLS_SERVER_NAME", "TEMPORAL_API_KEY"} {
		t.Setenv(k, "")
	}
	t.Setenv("JWT_SECRET", "0123456789abcdef0123456789abcdef0123")
	for k, v := range kv {
		t.Setenv(k, v)
	}
}

func key() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

// writeCert writes a self-signed certificate and its key as PEM files.
func writeCert(t *testing.T, dir, name string) (certFile, keyFile string, cert *x509.Certificate) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), DNSNames: []string{name},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, IsCA: true, BasicConstraintsValid: true,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ = x509.ParseCertificate(der)
	kder, _ := x509.MarshalECPrivateKey(priv)
	certFile, keyFile = filepath.Join(dir, name+".pem"), filepath.Join(dir, name+"-key.pem")
	_ = os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	_ = os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	return certFile, keyFile, cert
}

func options(t *testing.T, kv map[string]string) (config.Config, error) {
	t.Helper()
	setEnv(t, kv)
	return config.FromEnv()
}

func TestPlainDefaultsNeedAKeyOrAnExplicitOff(t *testing.T) {
	cfg, err := options(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := temporalclient.Options(cfg); err == nil || !strings.Contains(err.Error(), "PAYLOAD_KEYS") {
		t.Fatalf("no key, encryption on: %v, want an error naming PAYLOAD_KEYS", err)
	}
	cfg, _ = options(t, map[string]string{"PAYLOAD_ENCRYPTION": "off"})
	o, err := temporalclient.Options(cfg)
	if err != nil || o.DataConverter != nil || o.ConnectionOptions.TLS != nil || o.Credentials != nil {
		t.Fatalf("PAYLOAD_ENCRYPTION=off: %+v, %v", o, err)
	}
	cfg, _ = options(t, map[string]string{"PAYLOAD_KEYS": "k2:" + key() + ",k1:" + key()})
	o, err = temporalclient.Options(cfg)
	if err != nil || o.DataConverter == nil || o.ConnectionOptions.TLS != nil {
		t.Fatalf("with keys: %+v, %v", o, err)
	}
	p, err := o.DataConverter.ToPayload("ana@cliente.com.br")
	if err != nil || string(p.Metadata[converter.MetadataEncoding]) != payloadcodec.Encoding || string(p.Metadata[payloadcodec.MetadataKeyID]) != "k2" {
		t.Fatalf("the client's converter: %v %v", p, err)
	}
	// Failures' messages are encrypted too (a CRM refusal quotes the customer's CNPJ).
	if o.FailureConverter == nil {
		t.Fatal("with keys: no failure converter: failure messages would be stored in clear")
	}
	f := o.FailureConverter.ErrorToFailure(errors.New("no Account with CNPJ__c 44.555.666/9999-52"))
	if f.GetMessage() != "Encoded failure" || string(f.GetEncodedAttributes().GetMetadata()[converter.MetadataEncoding]) != payloadcodec.Encoding {
		t.Fatalf("the client's failure converter leaves %q in clear", f.GetMessage())
	}
}

func TestTLSAndAPIKeySettings(t *testing.T) {
	dir := t.TempDir()
	caFile, _, _ := writeCert(t, dir, "temporal-ca")
	certFile, keyFile, clientCert := writeCert(t, dir, "oportuna-worker")
	cfg, err := options(t, map[string]string{"PAYLOAD_ENCRYPTION": "off", "TEMPORAL_TLS_CA": caFile,
		"TEMPORAL_TLS_CERT": certFile, "TEMPORAL_TLS_KEY": keyFile, "TEMPORAL_TLS_SERVER_NAME": "temporal.internal",
		"TEMPORAL_API_KEY": "chave-api"})
	if err != nil {
		t.Fatal(err)
	}
	o, err := temporalclient.Options(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tc := o.ConnectionOptions.TLS
	if tc == nil || tc.ServerName != "temporal.internal" || tc.RootCAs == nil || len(tc.Certificates) != 1 || o.Credentials == nil {
		t.Fatalf("options %+v", o)
	}
	if got, _ := x509.ParseCertificate(tc.Certificates[0].Certificate[0]); !got.Equal(clientCert) {
		t.Fatal("the client certificate is not TEMPORAL_TLS_CERT's")
	}

	// An API key alone turns TLS on, with the system's CAs.
	cfg, _ = options(t, map[string]string{"PAYLOAD_ENCRYPTION": "off", "TEMPORAL_API_KEY": "chave-api"})
	if o, err := temporalclient.Options(cfg); err != nil || o.ConnectionOptions.TLS == nil || o.ConnectionOptions.TLS.RootCAs != nil || o.Credentials == nil {
		t.Fatalf("API key alone: %+v, %v", o, err)
	}
}

func TestTLSConfigTrustsTheConfiguredCAAndPresentsTheClientCertificate(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.TLS.PeerCertificates) == 0 {
			http.Error(w, "no client certificate", http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(r.TLS.PeerCertificates[0].Subject.CommonName))
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAnyClientCert}
	srv.StartTLS()
	defer srv.Close()
	caFile := filepath.Join(dir, "ca.pem")
	_ = os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600)
	certFile, keyFile, _ := writeCert(t, dir, "oportuna-worker")

	get := func(kv map[string]string) (string, error) {
		cfg, err := options(t, kv)
		if err != nil {
			return "", err
		}
		tc, err := temporalclient.TLSConfig(cfg)
		if err != nil {
			return "", err
		}
		c := &http.Client{Transport: &http.Transport{TLSClientConfig: tc}}
		resp, err := c.Get(srv.URL)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b := make([]byte, 100)
		n, _ := resp.Body.Read(b)
		return string(b[:n]), nil
	}
	if got, err := get(map[string]string{"TEMPORAL_TLS_CA": caFile, "TEMPORAL_TLS_CERT": certFile, "TEMPORAL_TLS_KEY": keyFile,
		"TEMPORAL_TLS_SERVER_NAME": "example.com"}); err != nil || got != "oportuna-worker" {
		t.Fatalf("mTLS with the CA: %q, %v", got, err)
	}
	if _, err := get(map[string]string{"TEMPORAL_TLS": "on", "TEMPORAL_TLS_CERT": certFile, "TEMPORAL_TLS_KEY": keyFile}); err == nil {
		t.Fatal("without TEMPORAL_TLS_CA the test server's certificate was trusted")
	}
}

func TestBadCombinationsAreConfigurationErrors(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, _ := writeCert(t, dir, "c")
	notPEM := filepath.Join(dir, "ca.txt")
	_ = os.WriteFile(notPEM, []byte("not a certificate"), 0o600)
	for name, c := range map[string]struct {
		env  map[string]string
		want string // in the error
	}{
		"cert without key":        {map[string]string{"TEMPORAL_TLS_CERT": certFile}, "TEMPORAL_TLS_KEY"},
		"key without cert":        {map[string]string{"TEMPORAL_TLS_KEY": keyFile}, "TEMPORAL_TLS_CERT"},
		"TLS off with a CA":       {map[string]string{"TEMPORAL_TLS": "off", "TEMPORAL_TLS_CA": certFile}, "TEMPORAL_TLS=off"},
		"API key over plaintext":  {map[string]string{"TEMPORAL_TLS": "off", "TEMPORAL_API_KEY": "k"}, "TEMPORAL_API_KEY"},
		"TLS neither on nor off":  {map[string]string{"TEMPORAL_TLS": "talvez"}, "TEMPORAL_TLS"},
		"keys and key file":       {map[string]string{"PAYLOAD_KEYS": "k:" + key(), "PAYLOAD_KEY_FILE": certFile}, "PAYLOAD_KEY_FILE"},
		"encryption off, keys":    {map[string]string{"PAYLOAD_KEYS": "k:" + key(), "PAYLOAD_ENCRYPTION": "off"}, "PAYLOAD_ENCRYPTION"},
		"a short key":             {map[string]string{"PAYLOAD_KEYS": "k:" + base64.StdEncoding.EncodeToString([]byte("curta"))}, "PAYLOAD_KEYS"},
		"encryption neither":      {map[string]string{"PAYLOAD_ENCRYPTION": "talvez"}, "PAYLOAD_ENCRYPTION"},
		"codec origin with path":  {map[string]string{"CODEC_CORS_ORIGIN": "http://ui.example/app"}, "CODEC_CORS_ORIGIN"},
		"a CA file without PEM":   {map[string]string{"PAYLOAD_ENCRYPTION": "off", "TEMPORAL_TLS_CA": notPEM}, "TEMPORAL_TLS_CA"},
		"a missing cert file":     {map[string]string{"PAYLOAD_ENCRYPTION": "off", "TEMPORAL_TLS_CERT": certFile + ".x", "TEMPORAL_TLS_KEY": keyFile}, "TEMPORAL_TLS_CERT"},
		"a missing key file path": {map[string]string{"PAYLOAD_KEY_FILE": filepath.Join(dir, "none")}, "PAYLOAD_KEY_FILE"},
	} {
		t.Run(name, func(t *testing.T) {
			cfg, err := options(t, c.env)
			if err == nil {
				_, err = temporalclient.Options(cfg)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v, want an error naming %s", err, c.want)
			}
		})
	}
}
