package deploy_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"oportuna/internal/health"
	"oportuna/internal/testenv"
)

// built is the binary the package's tests share: built once, not linked
// again by every test that runs it.
var built struct {
	once sync.Once
	bin  string
	err  error
}

// buildOportuna builds ./cmd/oportuna static and -trimpath as the Dockerfile
// does, but as a development build (-tags dev: the stand-ins, CRM_SIM=on),
// once per test binary, into a temp dir removed when the tests end; the web
// app must be built (web/dist).
func buildOportuna(t *testing.T) string {
	t.Helper()
	testenv.NeedsServices(t) // the binary runs against PostgreSQL and Temporal
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "oportuna-deploy-")
		if err != nil {
			built.err = err
			return
		}
		testenv.AtExit(func() { _ = os.RemoveAll(dir) })
		built.bin = filepath.Join(dir, "oportuna")
		build := exec.Command("go", "build", "-trimpath", "-tags", "dev", "-o", built.bin, "./cmd/oportuna")
		build.Dir = root
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build ./cmd/oportuna: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// process is a running oportuna subcommand.
type process struct {
	cmd  *exec.Cmd
	done chan error
	out  *strings.Builder
}

func (p *process) stop(t *testing.T, within time.Duration) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("%v after SIGTERM: %v\n%s", p.cmd.Args[1:], err, p.out)
		}
	case <-time.After(within):
		_ = p.cmd.Process.Kill()
		t.Errorf("%v still running %s after SIGTERM (stop_grace_period)", p.cmd.Args[1:], within)
	}
}

// TestTheBinaryAnswersTheComposeProbes builds the binary the image holds, runs
// the compose file's migrate, api and worker commands with the compose
// environment (databases and Temporal pointed at the test's), and runs each
// service's healthcheck command against it, then stops them as compose does.
func TestTheBinaryAnswersTheComposeProbes(t *testing.T) {
	s := loadStack(t, readFile(t, "docker-compose.yml"))
	bin := buildOportuna(t)
	dbURL := testenv.NewDatabaseURL(t)
	temporal := testenv.TemporalAddress(t)

	run := func(svcName string, ports map[string]int) (*process, []string) {
		t.Helper()
		svc := s.c.Services[svcName]
		env := os.Environ()
		for k, raw := range svc.Environment {
			v, err := interpolate(raw, s.dotenv)
			if err != nil {
				t.Fatal(err)
			}
			env = append(env, k+"="+v)
		}
		// The CRM as a demo deployment sets it (deploy/env.example): no Salesforce here.
		env = append(env, "DATABASE_URL="+dbURL, "TEMPORAL_ADDRESS="+temporal, "TEMPORAL_NAMESPACE=default", "SHUTDOWN_DELAY=1s",
			"CRM_URL=", "CRM_SIM=on")
		probe := []string(nil)
		if svc.Healthcheck != nil {
			probe = append([]string{bin}, svc.Healthcheck.Test[2:]...)
		}
		for name, p := range ports {
			composePort, _ := s.env(svcName, name)
			env = append(env, fmt.Sprintf("%s=%d", name, p))
			for i := range probe {
				probe[i] = strings.Replace(probe[i], "127.0.0.1:"+composePort+"/", fmt.Sprintf("127.0.0.1:%d/", p), 1)
			}
		}
		args := append([]string{}, svc.Command...)
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		p := &process{cmd: cmd, done: make(chan error, 1), out: out}
		go func() { p.done <- cmd.Wait() }()
		t.Cleanup(func() { _ = cmd.Process.Kill() })
		return p, probe
	}
	waitProbe := func(name string, p *process, probe []string) {
		t.Helper()
		deadline := time.Now().Add(90 * time.Second)
		for {
			out, err := exec.Command(probe[0], probe[1:]...).CombinedOutput()
			if err == nil {
				return
			}
			select {
			case err := <-p.done:
				t.Fatalf("%s exited before its healthcheck passed: %v\n%s", name, err, p.out)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: healthcheck %v still failing after 90 s: %v %s\n%s", name, probe[1:], err, out, p.out)
			}
			time.Sleep(300 * time.Millisecond)
		}
	}
	get := func(url string) (int, string) {
		t.Helper()
		res, err := http.Get(url)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}

	migrate, _ := run("migrate", nil)
	select {
	case err := <-migrate.done:
		if err != nil {
			t.Fatalf("migrate: %v\n%s", err, migrate.out)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("migrate still running after 60 s\n%s", migrate.out)
	}

	free := func() int {
		p, err := testenv.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	apiPort, apiMetrics := free(), free()
	api, apiProbe := run("api", map[string]int{"PORT": apiPort, "METRICS_PORT": apiMetrics})
	waitProbe("api", api, apiProbe)
	if code, body := get(fmt.Sprintf("http://127.0.0.1:%d%s", apiPort, health.LivePath)); code != http.StatusOK {
		t.Errorf("api %s = %d %s", health.LivePath, code, body)
	}
	if code, _ := get(fmt.Sprintf("http://127.0.0.1:%d/api/version", apiPort)); code != http.StatusOK {
		t.Errorf("api /api/version = %d", code)
	}
	_, metrics := get(fmt.Sprintf("http://127.0.0.1:%d/metrics", apiMetrics))
	for _, series := range []string{`http_requests_total{method="GET",route="/api/version",status="200"}`, "oportuna_opportunities", "temporal_request_total"} {
		if !strings.Contains(metrics, series) {
			t.Errorf("api METRICS_PORT /metrics has no %s", series)
		}
	}
	if _, body := get(fmt.Sprintf("http://127.0.0.1:%d/metrics", apiPort)); strings.Contains(body, "http_requests_total") {
		t.Error("/metrics is served on the public PORT; it belongs on METRICS_PORT")
	}

	// The compose probe never reaches the public port (it would count in the metrics).
	_, metrics = get(fmt.Sprintf("http://127.0.0.1:%d/metrics", apiMetrics))
	if strings.Contains(metrics, `route="`+health.ReadyPath+`"`) {
		t.Errorf("api: the health checks show in the request metrics:\n%s", grepLines(metrics, health.ReadyPath))
	}

	workerMetrics := free()
	worker, workerProbe := run("worker", map[string]int{"METRICS_PORT": workerMetrics})
	waitProbe("worker", worker, workerProbe)
	// Ready means polling; the SDK reports its pollers' series shortly after.
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, metrics = get(fmt.Sprintf("http://127.0.0.1:%d/metrics", workerMetrics))
		if strings.Contains(metrics, "temporal_worker_task_slots_available") || strings.Contains(metrics, "temporal_num_pollers") {
			break
		}
		if time.Now().After(deadline) {
			t.Error("worker /metrics has no Temporal worker series 30 s after it answered ready")
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if _, body := get(fmt.Sprintf("http://127.0.0.1:%d%s", workerMetrics, health.ReadyPath)); !strings.Contains(body, `"worker":"ok"`) {
		t.Errorf("worker /readyz does not report the worker's polling: %s", body)
	}

	grace := func(svc string) time.Duration {
		d, err := time.ParseDuration(s.c.Services[svc].StopGracePeriod)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	api.stop(t, grace("api"))
	worker.stop(t, grace("worker"))

	// The API's port is bound before the probes answer: a request sent as soon
	// as /readyz says 200 is never refused.
	logs := api.out.String()
	if at, probes := strings.Index(logs, "http listening"), strings.Index(logs, "metrics listening"); at < 0 || probes < 0 || at > probes {
		t.Errorf("api: the public port must be bound before the probes' (METRICS_PORT) answer:\n%s", grepLines(logs, "listening"))
	}
}

func grepLines(text, substr string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, substr) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestAPIAndWorkerRefuseToStartWithoutACRM runs `oportuna api` and `oportuna
// worker` with the compose environment, CRM_URL left empty: they must exit
// non-zero naming CRM_URL instead of syncing to the Salesforce stand-in; with
// CRM_SIM=on and a CRM_URL both set, they refuse too.
func TestAPIAndWorkerRefuseToStartWithoutACRM(t *testing.T) {
	s := loadStack(t, readFile(t, "docker-compose.yml"))
	bin := buildOportuna(t)
	dbURL := testenv.NewDatabaseURL(t)
	temporal := testenv.TemporalAddress(t)
	for _, c := range []struct {
		svc, crmURL, crmSim, want string
	}{
		{"api", "", "", "CRM_URL is not set"},
		{"worker", "", "", "CRM_URL is not set"},
		{"worker", "https://example.my.salesforce.com", "on", "CRM_SIM=on and CRM_URL are both set"},
	} {
		t.Run(c.svc+" CRM_URL="+c.crmURL+" CRM_SIM="+c.crmSim, func(t *testing.T) {
			env := os.Environ()
			for k, raw := range s.c.Services[c.svc].Environment {
				v, err := interpolate(raw, s.dotenv)
				if err != nil {
					t.Fatal(err)
				}
				env = append(env, k+"="+v)
			}
			port, _ := testenv.FreePort()
			metricsPort, _ := testenv.FreePort()
			env = append(env, "DATABASE_URL="+dbURL, "TEMPORAL_ADDRESS="+temporal, "TEMPORAL_NAMESPACE=default",
				fmt.Sprintf("PORT=%d", port), fmt.Sprintf("METRICS_PORT=%d", metricsPort), "CRM_URL="+c.crmURL)
			if c.crmSim != "" {
				env = append(env, "CRM_SIM="+c.crmSim)
			}
			cmd := exec.Command(bin, s.c.Services[c.svc].Command...)
			cmd.Env = env
			out := &strings.Builder{}
			cmd.Stdout, cmd.Stderr = out, out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err == nil {
					t.Fatalf("%s exited 0\n%s", c.svc, out)
				}
			case <-time.After(60 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("%s still running 60 s after its start without a CRM\n%s", c.svc, out)
			}
			if !strings.Contains(out.String(), c.want) {
				t.Errorf("%s's error does not say %q:\n%s", c.svc, c.want, out)
			}
			if strings.Contains(out.String(), "using the Salesforce stand-in") {
				t.Errorf("%s started the Salesforce stand-in:\n%s", c.svc, out)
			}
		})
	}
}
