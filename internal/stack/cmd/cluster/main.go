// Command cluster is make cluster (scripts/cluster.sh prepares PostgreSQL and
// the secrets): the portal as 2 api + 2 worker processes on a
// production-shaped Temporal (internal/stack/cluster: temporal-server with
// PostgreSQL, its four services as separate processes, the namespace
// "oportuna" with the portal's search attributes), with the Salesforce
// stand-in as its own process, the dev mailbox, the codec server and the
// Temporal UI. Ctrl-C or SIGTERM stops everything it started; Temporal's
// state stays in its databases. docs/operations.md, "Production Temporal
// (cluster)".
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"oportuna/internal/health"
	"oportuna/internal/stack"
	"oportuna/internal/stack/cluster"
	"oportuna/internal/stack/proc"
)

type options struct {
	bin, dir, adminURL, databaseURL, ui string
	freePorts                           bool
	apiPorts                            []int
	uiPort, codecPort                   int
}

func main() {
	var o options
	var apiPorts string
	flag.StringVar(&o.bin, "bin", "bin/oportuna", "the oportuna binary")
	flag.StringVar(&o.dir, "dir", ".data/cluster", "state and logs")
	flag.StringVar(&o.adminURL, "admin-url", "", "the PostgreSQL server of Temporal's databases temporal and temporal_visibility (a user that may create databases)")
	flag.StringVar(&o.databaseURL, "database-url", os.Getenv("DATABASE_URL"), "the portal's database")
	flag.StringVar(&o.ui, "ui", os.Getenv("TEMPORAL_UI"), "the Temporal UI server (ui-server v2); empty or missing: no UI")
	flag.StringVar(&apiPorts, "api-ports", "8080,8081", "the ports of the api processes, one per process")
	flag.IntVar(&o.uiPort, "ui-port", 8233, "the Temporal UI's port")
	flag.IntVar(&o.codecPort, "codec-port", 8089, "the codec server's port")
	flag.BoolVar(&o.freePorts, "free-ports", false, "every listener on a free port (Temporal, api, UI, codec server) instead of the usual ones")
	flag.Parse()
	for _, f := range strings.Split(apiPorts, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fail(fmt.Errorf("-api-ports: %q", f))
		}
		o.apiPorts = append(o.apiPorts, n)
	}
	if o.adminURL == "" || o.databaseURL == "" {
		fail(errors.New("-admin-url and -database-url are required (scripts/cluster.sh sets them)"))
	}
	if o.freePorts {
		for i := range o.apiPorts {
			o.apiPorts[i] = stack.FreePort()
		}
		o.uiPort, o.codecPort = stack.FreePort(), stack.FreePort()
	}
	ctx, stop := stack.CommandContext()
	defer stop()
	if err := run(ctx, o); err != nil && !errors.Is(err, context.Canceled) {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "cluster:", err)
	os.Exit(1)
}

func run(ctx context.Context, o options) error {
	logs := filepath.Join(o.dir, "portal")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return err
	}
	pidFile := filepath.Join(o.dir, "cluster.pid")
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
		return err
	}
	defer os.Remove(pidFile)
	var stops []func()
	defer func() {
		slog.Info("stopping")
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
		slog.Info("stopped")
	}()

	var ports map[string]cluster.ServicePorts
	if !o.freePorts {
		ports = cluster.StandardPorts()
	}
	slog.Info("starting Temporal: schema, frontend, history, matching, worker, namespace", "logs", filepath.Join(o.dir, "temporal"))
	c, err := cluster.Start(ctx, cluster.Options{Dir: filepath.Join(o.dir, "temporal"), AdminURL: o.adminURL, Ports: ports,
		Namespace: stack.ClusterNamespace, SearchAttributes: stack.SearchAttributes(), LogLevel: "info"})
	if err != nil {
		return err
	}
	stops = append(stops, c.Stop)

	env := append(os.Environ(), "DATABASE_URL="+o.databaseURL)
	env = append(env, c.Env()...)
	slog.Info("oportuna migrate")
	if out, err := stack.RunBin(ctx, o.bin, "migrate", env); err != nil {
		return fmt.Errorf("oportuna migrate: %w\n%s", err, out)
	}
	// The demo data (idempotent: a second `make cluster` adds what is missing).
	slog.Info("oportuna seed")
	// The seed's worker calls the CRM: the stand-in in its process.
	if out, err := stack.RunBin(ctx, o.bin, "seed", append(env, "CRM_SIM=on", "CRM_URL=")); err != nil {
		return fmt.Errorf("oportuna seed: %w\n%s", err, out)
	}

	uiOrigins := fmt.Sprintf("http://localhost:%d,http://127.0.0.1:%d", o.uiPort, o.uiPort)
	codecAddr := fmt.Sprintf("127.0.0.1:%d", o.codecPort)
	codec := proc.New("codec-server", []string{o.bin, "codec-server"}, logs, append(env, "CODEC_ADDR="+codecAddr, "CODEC_CORS_ORIGIN="+uiOrigins))
	codec.Ready = proc.Listens(codecAddr)
	if err := codec.Start(ctx); err != nil {
		return err
	}
	stops = append(stops, func() { codec.Stop(10 * time.Second) })

	// The Salesforce stand-in on its own, shared by every worker as a CRM is.
	secret := make([]byte, 24)
	_, _ = rand.Read(secret)
	crmAddr := fmt.Sprintf("127.0.0.1:%d", stack.FreePort())
	env = append(env, "CRM_URL=http://"+crmAddr, "CRM_SIM=off", "SALESFORCE_CLIENT_ID=oportuna-cluster", "SALESFORCE_CLIENT_SECRET="+hex.EncodeToString(secret),
		"MAILBOX=on", fmt.Sprintf("PORTAL_URL=http://{brand}.localhost:%d", o.apiPorts[0]))
	env = env[:len(env):len(env)]
	sim := stack.NewCommand("crm-sim", []string{o.bin, "crm-sim"}, logs, append(env, "CRM_SIM_ADDR="+crmAddr))
	sim.ReadyURL = "http://" + crmAddr + "/__sim/"
	if err := sim.Start(ctx); err != nil {
		return err
	}
	stops = append(stops, func() { sim.Stop(10 * time.Second) })

	for i := range len(o.apiPorts) {
		w := stack.NewProc(fmt.Sprintf("worker%d", i+1), o.bin, "worker", logs, env, false)
		if err := w.Start(ctx); err != nil {
			return err
		}
		stops = append(stops, func() { w.Stop(45 * time.Second) })
	}
	var apis []string
	for i, port := range o.apiPorts {
		metrics := stack.FreePort()
		a := stack.NewCommand(fmt.Sprintf("api%d", i+1), []string{o.bin, "api"}, logs,
			append(env, fmt.Sprintf("PORT=%d", port), fmt.Sprintf("METRICS_PORT=%d", metrics)))
		a.ReadyURL = fmt.Sprintf("http://127.0.0.1:%d%s", metrics, health.ReadyPath)
		if err := a.Start(ctx); err != nil {
			return err
		}
		stops = append(stops, func() { a.Stop(30 * time.Second) })
		apis = append(apis, fmt.Sprintf("http://localhost:%d", port))
	}

	ui := "not installed (README.md, make cluster)"
	if st, err := os.Stat(o.ui); o.ui != "" && err == nil && !st.IsDir() {
		p, err := startUI(ctx, o, c, logs, "http://"+codecAddr)
		if err != nil {
			return err
		}
		stops = append(stops, func() { p.Stop(10 * time.Second) })
		ui = fmt.Sprintf("http://localhost:%d   (payloads decrypted by the codec server on :%d)", o.uiPort, o.codecPort)
	}

	fmt.Printf(`
  Oportuna is running on a production-shaped Temporal.

  Portal       %s   (2 api processes; every brand: http://<marca>.localhost:%d)
  Workers      2 worker processes, the Salesforce stand-in on %s
  Temporal     %s, namespace %s: frontend, history, matching and worker processes
               (temporal-server %s, PostgreSQL databases %s and %s, 512 history shards)
  Temporal UI  %s
  Mailbox      %s/mailbox
  Logs         %s (Temporal: %s)

  Demo logins as in make run (password Oportuna@2026), e.g. representante@nordata.demo.
  Ctrl-C stops everything (or: kill $(cat %s)).

`, strings.Join(apis, " and "), o.apiPorts[0], crmAddr, c.Addr, c.Namespace, cluster.ServerVersion, c.Databases[0], c.Databases[1],
		ui, apis[0], logs, c.Dir, pidFile)
	<-ctx.Done()
	return nil
}

// startUI runs ui-server v2 with a config of its own in logs/ui.
func startUI(ctx context.Context, o options, c *cluster.Cluster, logs, codec string) (*proc.Process, error) {
	dir := filepath.Join(o.dir, "ui")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	cfg := fmt.Sprintf(`temporalGrpcAddress: %s
host: 127.0.0.1
port: %d
enableUi: true
defaultNamespace: %s
refreshInterval: 1m
notifyOnNewVersion: false
codec:
  endpoint: %s
cors:
  cookieInsecure: true
  allowOrigins:
    - http://localhost:%d
    - http://127.0.0.1:%d
`, c.Addr, o.uiPort, c.Namespace, codec, o.uiPort, o.uiPort)
	if err := os.WriteFile(filepath.Join(dir, "oportuna.yaml"), []byte(cfg), 0o644); err != nil {
		return nil, err
	}
	if out, err := exec.Command(o.ui, "--version").CombinedOutput(); err == nil {
		slog.Info("temporal UI", "version", strings.TrimSpace(string(out)))
	}
	p := proc.New("temporal-ui", []string{o.ui, "--root", "/", "--config", abs, "--env", "oportuna", "start"}, logs, os.Environ())
	p.Ready = proc.Listens(fmt.Sprintf("127.0.0.1:%d", o.uiPort))
	return p, p.Start(ctx)
}
