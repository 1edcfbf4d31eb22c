package deploy_test

import (
	"fmt"
	"net"
	"net/url"
	"path"
	"slices"
	"strings"
	"testing"
)

// The codec server (docs/security-payloads.md): a service of the app's image
// running `oportuna codec-server`, which the Temporal UI's browser side asks
// to decrypt payloads.
const codecService = "codec-server"

// codecServerVars are read by `oportuna codec-server` only: set on the
// codec-server service, never on api and worker.
var codecServerVars = map[string]bool{"CODEC_ADDR": true, "CODEC_CORS_ORIGIN": true}

// tlsFileVars are the Temporal client's files: when set, under a mounted folder.
var tlsFileVars = []string{"TEMPORAL_TLS_CA", "TEMPORAL_TLS_CERT", "TEMPORAL_TLS_KEY"}

// codecProblems checks payload encryption, the codec server and the Temporal
// client's TLS settings.
func (s *stack) codecProblems() []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	codec, ui := s.c.Services[codecService], s.c.Services[uiService]
	if codec == nil || ui == nil {
		return nil // reported as missing services
	}

	for _, svcName := range []string{"api", "worker"} {
		env := s.c.Services[svcName].Environment
		if v, _ := interpolate(env["PAYLOAD_ENCRYPTION"], s.dotenv); v != "on" {
			bad("%s: PAYLOAD_ENCRYPTION=%q: a deployment encrypts Temporal payloads (\"on\")", svcName, v)
		}
		if v, _ := interpolate(env["PAYLOAD_ACCEPT_PLAINTEXT"], s.dotenv); v != "off" {
			bad("%s: PAYLOAD_ACCEPT_PLAINTEXT=%q: plaintext (forgeable) payloads must be refused by default", svcName, v)
		}
		if env["PAYLOAD_KEYS"] != codec.Environment["PAYLOAD_KEYS"] {
			bad("%s: PAYLOAD_KEYS differs from the %s's: the UI could not decrypt", svcName, codecService)
		}
		// The Temporal client's transport: settable from .env, files mounted.
		for _, v := range append([]string{"TEMPORAL_TLS", "TEMPORAL_TLS_SERVER_NAME", "TEMPORAL_API_KEY"}, tlsFileVars...) {
			if raw, ok := env[v]; !ok || !strings.Contains(raw, "${"+v) {
				bad("%s: %s=%q must come from .env (${%s:-})", svcName, v, raw, v)
			}
		}
		for _, v := range tlsFileVars {
			if p, _ := interpolate(env[v], s.dotenv); p != "" && !mountedDir(s.c.Services[svcName], p) {
				bad("%s: %s=%s is not in a folder mounted from the repository", svcName, v, p)
			}
		}
	}

	// The codec server: its own settings, its namespace, loopback only.
	cenv := func(k string) string { v, _ := interpolate(codec.Environment[k], s.dotenv); return v }
	for v := range codec.Environment {
		if _, ok := s.appVars[v]; !ok {
			bad("%s: sets %s, which the app never reads (a typo?)", codecService, v)
		}
	}
	for v := range codecServerVars {
		if _, ok := codec.Environment[v]; !ok {
			bad("%s: %s is not set", codecService, v)
		}
	}
	if ns, _ := s.env("api", "TEMPORAL_NAMESPACE"); cenv("TEMPORAL_NAMESPACE") != ns {
		bad("%s: TEMPORAL_NAMESPACE=%q, the api's is %q: the codec server would refuse the UI's namespace", codecService, cenv("TEMPORAL_NAMESPACE"), ns)
	}
	_, listen, err := net.SplitHostPort(cenv("CODEC_ADDR"))
	if err != nil {
		bad("%s: CODEC_ADDR=%q: %v", codecService, cenv("CODEC_ADDR"), err)
	}
	var hostPort string
	for _, p := range codec.Ports {
		p, err := p.resolve(s.dotenv)
		if err != nil || p.Target != listen {
			continue
		}
		if p.HostIP != "127.0.0.1" {
			bad("%s: publishes %s on %q: whoever reaches it reads every payload, publish it on 127.0.0.1 only", codecService, p.Published, p.HostIP)
		}
		hostPort = p.Published
	}
	if hostPort == "" {
		bad("%s: does not publish its CODEC_ADDR port %s (the operator's browser calls it)", codecService, listen)
	}

	// The UI sends the browser to the published codec server, from an allowed origin.
	endpoint := ""
	if v, ok := ui.Environment["TEMPORAL_CODEC_ENDPOINT"]; ok {
		endpoint, _ = interpolate(v, s.dotenv)
	}
	if u, err := url.Parse(endpoint); endpoint == "" || err != nil || u.Port() != hostPort || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost") {
		bad("%s: TEMPORAL_CODEC_ENDPOINT=%q, want http://127.0.0.1:%s (the codec server's published port)", uiService, endpoint, hostPort)
	}
	var uiHostPort string
	for _, p := range ui.Ports {
		if p, err := p.resolve(s.dotenv); err == nil && p.Published != "" {
			uiHostPort = p.Published
		}
	}
	origins := strings.Split(cenv("CODEC_CORS_ORIGIN"), ",")
	if !slices.Contains(origins, "http://127.0.0.1:"+uiHostPort) {
		bad("%s: CODEC_CORS_ORIGIN=%q does not allow the UI's origin http://127.0.0.1:%s", codecService, cenv("CODEC_CORS_ORIGIN"), uiHostPort)
	}
	if d, ok := ui.DependsOn[codecService]; !ok || d.Condition != "service_started" {
		bad("%s: must depend on %s (service_started)", uiService, codecService)
	}
	return out
}

// mountedDir reports whether a file path inside the container lies under a
// folder svc bind-mounts from the repository.
func mountedDir(svc *service, file string) bool {
	for _, v := range svc.Volumes {
		parts := strings.Split(v, ":")
		if len(parts) >= 2 && strings.HasPrefix(parts[0], ".") && strings.HasPrefix(path.Clean(file), strings.TrimSuffix(parts[1], "/")+"/") {
			return true
		}
	}
	return false
}

// TestComposeCheckerCatchesCodecInconsistencies breaks the payload-encryption,
// codec-server and TLS settings of a copy of the compose file one way at a time.
func TestComposeCheckerCatchesCodecInconsistencies(t *testing.T) {
	original := readFile(t, "docker-compose.yml")
	cases := []breakage{
		{"no codec server", func(s *stack) { delete(s.c.Services, codecService) }, "service codec-server is missing"},
		{"encryption off", func(s *stack) { s.c.Services["api"].Environment["PAYLOAD_ENCRYPTION"] = "off" }, "api: PAYLOAD_ENCRYPTION"},
		{"plaintext accepted", func(s *stack) { s.c.Services["worker"].Environment["PAYLOAD_ACCEPT_PLAINTEXT"] = "on" }, "worker: PAYLOAD_ACCEPT_PLAINTEXT"},
		{"the keys with a default", func(s *stack) { s.c.Services["worker"].Environment["PAYLOAD_KEYS"] = "${PAYLOAD_KEYS:-k1:abc}" }, "worker: PAYLOAD_KEYS must take PAYLOAD_KEYS from .env"},
		{"the keys missing from .env", func(s *stack) { delete(s.dotenv, "PAYLOAD_KEYS") }, "required variable PAYLOAD_KEYS is missing"},
		{"the codec server without the keys", func(s *stack) { delete(s.c.Services[codecService].Environment, "PAYLOAD_KEYS") }, "codec-server: PAYLOAD_KEYS"},
		{"no TLS setting on the worker", func(s *stack) { delete(s.c.Services["worker"].Environment, "TEMPORAL_TLS_CA") }, "worker: the app reads TEMPORAL_TLS_CA"},
		{"a fixed API key", func(s *stack) { s.c.Services["api"].Environment["TEMPORAL_API_KEY"] = "chave" }, "api: TEMPORAL_API_KEY"},
		{"a CA outside the mounted folder", func(s *stack) { s.c.Services["api"].Environment["TEMPORAL_TLS_CA"] = "/tmp/ca.pem" }, "api: TEMPORAL_TLS_CA=/tmp/ca.pem is not in a folder mounted"},
		{"codec settings on the api", func(s *stack) { s.c.Services["api"].Environment["CODEC_ADDR"] = "0.0.0.0:8089" }, "api: sets CODEC_ADDR"},
		{"the codec server on every interface", func(s *stack) { s.c.Services[codecService].Ports = []port{{Raw: "8089:8089"}} }, "publish it on 127.0.0.1 only"},
		{"the codec server on another namespace", func(s *stack) { s.c.Services[codecService].Environment["TEMPORAL_NAMESPACE"] = "default" }, "codec-server: TEMPORAL_NAMESPACE"},
		{"the UI without the codec", func(s *stack) { delete(s.c.Services[uiService].Environment, "TEMPORAL_CODEC_ENDPOINT") }, "temporal-ui: TEMPORAL_CODEC_ENDPOINT"},
		{"the UI on another codec port", func(s *stack) {
			s.c.Services[uiService].Environment["TEMPORAL_CODEC_ENDPOINT"] = "http://127.0.0.1:9999"
		}, "temporal-ui: TEMPORAL_CODEC_ENDPOINT"},
		{"the UI's origin not allowed", func(s *stack) { s.c.Services[codecService].Environment["CODEC_CORS_ORIGIN"] = "https://ui.example" }, "does not allow the UI's origin"},
		{"the codec server's command", func(s *stack) { s.c.Services[codecService].Command = strList{"api"} }, "codec-server: command"},
	}
	checkBreakages(t, original, cases, nil)
}
