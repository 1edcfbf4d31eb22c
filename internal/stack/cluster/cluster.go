// Package cluster runs a production-shaped Temporal server on one machine:
// temporal-server 1.29.1 with PostgreSQL persistence and SQL visibility, its
// frontend, history, matching and worker services as four processes started
// from one config (deploy/temporal/config.yaml, the file docker-compose.yml
// mounts), the schema made by deploy/temporal/schema.sh with temporal-sql-tool
// and the namespace by deploy/temporal/setup.sh, as the compose jobs do. Each
// service can be killed and started again on its own, and a PostgreSQL server
// of the cluster's own can be restarted or paused, for chaos tests.
//
// make cluster, the Go tests with TEMPORAL_ENGINE=cluster (internal/testenv)
// and make loadtest with TEMPORAL_ENGINE=cluster use it. docs/operations.md,
// "Production Temporal (cluster)".
package cluster

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"gopkg.in/yaml.v3"

	"oportuna/deploy"
	"oportuna/internal/dev/devenv"
	"oportuna/internal/stack/proc"
)

// ServerVersion is the Temporal server of the cluster: temporal-server and
// temporal-sql-tool, their schema files, and docker-compose.yml's images
// (deploy/compose_test.go checks the Makefile and compose against it).
const ServerVersion = "1.29.1"

// Services are the server's services, in the order they are started.
var Services = []string{"history", "matching", "frontend", "worker"}

// ServicePorts are one service's listeners. Membership is its ringpop port:
// Temporal stores it in a smallint column (cluster_membership.rpc_port), so
// it must be below 32768.
type ServicePorts struct {
	GRPC, Membership int
	HTTP             int // the frontend's HTTP API (frontend only)
	Metrics          int // its Prometheus /metrics (0: none)
}

// StandardPorts are Temporal's usual ports, docker-compose.yml's: the
// frontend on 7233 (HTTP 7243), history 7234, matching 7235, worker 7239,
// membership 6933-6939, and Prometheus metrics on 9091-9094.
func StandardPorts() map[string]ServicePorts {
	return map[string]ServicePorts{
		"frontend": {GRPC: 7233, Membership: 6933, HTTP: 7243, Metrics: 9091},
		"history":  {GRPC: 7234, Membership: 6934, Metrics: 9092},
		"matching": {GRPC: 7235, Membership: 6935, Metrics: 9093},
		"worker":   {GRPC: 7239, Membership: 6939, Metrics: 9094},
	}
}

// Options say where the cluster's parts come from. Zero values are defaults.
type Options struct {
	// Dir holds the rendered config, the scripts, the logs and a PostgreSQL
	// of the cluster's own (created).
	Dir string
	// Server is temporal-server, SQLTool temporal-sql-tool, TemporalCLI the
	// temporal CLI (setup.sh); empty: $TEMPORAL_SERVER, $TEMPORAL_SQL_TOOL,
	// $TEMPORAL_CLI, else "server", "sql" and "temporal" in GOBIN, GOPATH/bin
	// or ~/go/bin (what `go install` names them).
	Server, SQLTool, TemporalCLI string
	// SchemaDir is schema/postgresql/v12 of ServerVersion; empty:
	// $TEMPORAL_SCHEMA_DIR, else the module cache's copy.
	SchemaDir string
	// AdminURL is a PostgreSQL server whose user may create databases; empty:
	// a server of the cluster's own, initialised in Dir/postgres on a free
	// port with PostgresSettings besides the defaults (Cluster.Postgres).
	AdminURL         string
	PostgresSettings []string
	// Database is the name of Temporal's database (default temporal); the
	// visibility database is Database_visibility.
	Database string
	// Ephemeral drops the databases at Stop (and removes the data of a
	// server of its own): a test's cluster. Otherwise they are kept, as a
	// deployment's.
	Ephemeral bool
	// Namespace is registered at start (default "default"), with Retention
	// (default setup.sh's 720h) and SearchAttributes (name → type, e.g.
	// "Keyword"; none by default).
	Namespace        string
	Retention        string
	SearchAttributes map[string]string
	// Ports of each service; nil: free loopback ports, no metrics.
	Ports map[string]ServicePorts
	// DynamicConfig adds or replaces keys of deploy/temporal/dynamicconfig.yaml
	// (each the value of every namespace and task queue).
	DynamicConfig map[string]any
	// LogLevel of the services (default warn).
	LogLevel string
	// MaxConns is each service's pool of the temporal database (the
	// visibility pool is half of it; config.yaml's default 20 when 0).
	MaxConns int
}

// Cluster is a running cluster.
type Cluster struct {
	// Addr is the frontend's gRPC address, Namespace the registered one.
	Addr      string
	Namespace string
	// Postgres is the server of its databases: controllable when Own.
	Postgres *Postgres
	// Databases are the temporal and visibility databases' names.
	Databases [2]string
	// Dir is Options.Dir: config/, logs, postgres/.
	Dir string

	opts     Options
	services map[string]*Service
	env      []string
	stopOnce sync.Once
}

// Service is one of the server's services, a process of its own.
type Service struct {
	*proc.Process
	Ports ServicePorts
}

// Restart stops the service (SIGTERM, SIGKILL after 30 s) and starts it again.
func (s *Service) Restart(ctx context.Context) error {
	s.Stop(30 * time.Second)
	return s.Start(ctx)
}

// Start sets the cluster up and starts it: the databases and their schema
// (schema.sh), history, then the other services (each until it reports
// SERVING; the worker until it listens), the namespace and its search
// attributes (setup.sh) once the frontend serves. On error what was started
// is stopped again; the logs stay in Dir.
func Start(ctx context.Context, o Options) (_ *Cluster, err error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(o.Dir, "config"), 0o755); err != nil {
		return nil, err
	}
	if err := o.findTools(); err != nil {
		return nil, err
	}
	c := &Cluster{Namespace: o.Namespace, Dir: o.Dir, opts: o, Databases: [2]string{o.Database, o.Database + "_visibility"},
		services: map[string]*Service{}}
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()
	if err := c.writeFiles(); err != nil {
		return nil, err
	}

	if o.AdminURL == "" {
		if c.Postgres, err = StartPostgres(ctx, filepath.Join(o.Dir, "postgres"), o.PostgresSettings); err != nil {
			return nil, err
		}
	} else {
		c.Postgres = &Postgres{URL: o.AdminURL}
	}
	dbEnv, err := dbParams(c.Postgres.URL)
	if err != nil {
		return nil, err
	}
	c.env = append(cleanEnviron(), dbEnv...)
	c.env = append(c.env, "TEMPORAL_DB="+c.Databases[0], "TEMPORAL_VISIBILITY_DB="+c.Databases[1])
	if err := c.runScript(ctx, "schema", "SQL_TOOL="+o.SQLTool, "SCHEMA_DIR="+o.SchemaDir); err != nil {
		return nil, err
	}

	ports := o.Ports
	if ports == nil {
		if ports, err = freePorts(); err != nil {
			return nil, err
		}
	}
	fe := ports["frontend"]
	c.Addr = fmt.Sprintf("127.0.0.1:%d", fe.GRPC)
	c.env = append(c.env, "TEMPORAL_BIND_IP=127.0.0.1", "TEMPORAL_FRONTEND_ADDRESS="+c.Addr,
		"TEMPORAL_DYNAMIC_CONFIG="+filepath.Join(o.Dir, "config", "dynamicconfig.yaml"),
		"TEMPORAL_LOG_LEVEL="+o.LogLevel)
	if o.MaxConns > 0 {
		c.env = append(c.env, fmt.Sprintf("TEMPORAL_DB_MAX_CONNS=%d", o.MaxConns))
	}
	for _, name := range Services {
		p := ports[name]
		up := strings.ToUpper(name)
		c.env = append(c.env, fmt.Sprintf("TEMPORAL_%s_PORT=%d", up, p.GRPC), fmt.Sprintf("TEMPORAL_%s_MEMBERSHIP_PORT=%d", up, p.Membership))
		if p.HTTP != 0 {
			c.env = append(c.env, fmt.Sprintf("TEMPORAL_%s_HTTP_PORT=%d", up, p.HTTP))
		}
	}
	for _, name := range Services {
		p := ports[name]
		env := slices.Clone(c.env)
		if p.Metrics != 0 {
			env = append(env, fmt.Sprintf("TEMPORAL_METRICS_ADDR=127.0.0.1:%d", p.Metrics))
		}
		argv := append([]string{o.Server}, ServerArgs(filepath.Join(o.Dir, "config"), name)...)
		s := &Service{Process: proc.New(name, argv, o.Dir, env), Ports: p}
		s.Ready = serviceReady(name, p)
		s.Timeout = 2 * time.Minute
		c.services[name] = s
	}
	// History first, until it answers (built, metadata written): the first
	// process on fresh databases writes the cluster's metadata, and two at
	// once collide on it (the loser exits). Then the others at once (each
	// finds the others through the membership table), and the namespace as
	// soon as the frontend serves, while history takes its shards.
	history := c.services["history"]
	healthy := history.Ready
	history.Ready = answers(fmt.Sprintf("127.0.0.1:%d", history.Ports.GRPC))
	err = history.Start(ctx)
	history.Ready = healthy
	if err != nil {
		return nil, err
	}
	errs := make(map[string]chan error, len(Services))
	for _, name := range Services {
		ch := make(chan error, 1)
		errs[name] = ch
		if name == "history" {
			go func() { ch <- waitReady(ctx, history) }()
			continue
		}
		s := c.services[name]
		go func() { ch <- s.Start(ctx) }()
	}
	startErrs := []error{<-errs["frontend"]}
	if startErrs[0] == nil {
		setupEnv := []string{"TEMPORAL_ADDRESS=" + c.Addr, "TEMPORAL_NAMESPACE=" + o.Namespace, "TEMPORAL_CLI=" + o.TemporalCLI,
			"SEARCH_ATTRIBUTES=" + searchAttributes(o.SearchAttributes)}
		if o.Retention != "" {
			setupEnv = append(setupEnv, "TEMPORAL_NAMESPACE_RETENTION="+o.Retention)
		}
		startErrs = append(startErrs, c.runScript(ctx, "setup", setupEnv...))
	}
	for _, name := range Services {
		if name != "frontend" {
			startErrs = append(startErrs, <-errs[name])
		}
	}
	if err := errors.Join(startErrs...); err != nil {
		return nil, err
	}
	if err := c.WaitReady(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// defaults fills the zero values; Dir becomes absolute (temporal-server
// finds its config from the root "/").
func (o *Options) defaults() error {
	if o.Dir == "" {
		return errors.New("cluster: Options.Dir is empty")
	}
	abs, err := filepath.Abs(o.Dir)
	if err != nil {
		return err
	}
	o.Dir = abs
	if o.Database == "" {
		o.Database = "temporal"
	}
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	if o.LogLevel == "" {
		o.LogLevel = "warn"
	}
	return nil
}

// ServerArgs are the arguments of temporal-server that start service from
// the config in configDir (config.yaml): docker-compose.yml runs the same.
func ServerArgs(configDir, service string) []string {
	return []string{"--root", "/", "--config", configDir, "--env", "config", "--allow-no-auth", "start", "--service", service}
}

// Service is the named service (Services).
func (c *Cluster) Service(name string) *Service { return c.services[name] }

// Kill sends SIGKILL to the service and waits for it to be gone.
func (c *Cluster) Kill(name string) error {
	s := c.services[name]
	if s == nil {
		return fmt.Errorf("no service %q", name)
	}
	s.Kill()
	return nil
}

// StartService starts a killed or stopped service again and waits until it serves.
func (c *Cluster) StartService(ctx context.Context, name string) error {
	s := c.services[name]
	if s == nil {
		return fmt.Errorf("no service %q", name)
	}
	return s.Start(ctx)
}

// Restart stops the service gracefully and starts it again.
func (c *Cluster) Restart(ctx context.Context, name string) error {
	s := c.services[name]
	if s == nil {
		return fmt.Errorf("no service %q", name)
	}
	return s.Restart(ctx)
}

// Env are TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE of the portal's processes.
func (c *Cluster) Env() []string {
	return []string{"TEMPORAL_ADDRESS=" + c.Addr, "TEMPORAL_NAMESPACE=" + c.Namespace}
}

// Dial is a client of the cluster's namespace (HostPort and Namespace set).
func (c *Cluster) Dial(ctx context.Context, o client.Options) (client.Client, error) {
	o.HostPort, o.Namespace = c.Addr, c.Namespace
	return client.DialContext(ctx, o)
}

// WaitReady waits until every service runs and serves and the namespace is
// known to the frontend.
func (c *Cluster) WaitReady(ctx context.Context) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		err := c.ready(ctx)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("temporal cluster not ready: %w", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (c *Cluster) ready(ctx context.Context) error {
	for _, name := range Services {
		s := c.services[name]
		if !s.Running() {
			return fmt.Errorf("%s is not running", name)
		}
		rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := s.Ready(rctx)
		cancel()
		if err != nil {
			return err
		}
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	tc, err := client.DialContext(rctx, client.Options{HostPort: c.Addr, Namespace: c.Namespace, Logger: quietLogger()})
	if err != nil {
		return err
	}
	defer tc.Close()
	_, err = tc.WorkflowService().DescribeNamespace(rctx, &workflowservice.DescribeNamespaceRequest{Namespace: c.Namespace})
	return err
}

// Stop stops the services (SIGTERM, SIGKILL after 20 s), then a server of its
// own; an Ephemeral cluster's databases (or data) are removed. Safe to call twice.
func (c *Cluster) Stop() {
	c.stopOnce.Do(func() {
		var wg sync.WaitGroup
		for _, s := range c.services {
			wg.Add(1)
			go func() { defer wg.Done(); s.Stop(20 * time.Second) }()
		}
		wg.Wait()
		if c.Postgres == nil {
			return
		}
		switch {
		case c.Postgres.Own():
			_ = c.Postgres.Resume() // a paused server ignores the stop
			_ = c.Postgres.Stop("fast")
			if c.opts.Ephemeral {
				_ = os.RemoveAll(filepath.Dir(c.Postgres.DataDir))
			}
		case c.opts.Ephemeral:
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if conn, err := pgx.Connect(ctx, c.Postgres.URL); err == nil {
				for _, db := range c.Databases {
					_, _ = conn.Exec(ctx, `DROP DATABASE IF EXISTS `+pgx.Identifier{db}.Sanitize()+` WITH (FORCE)`)
				}
				conn.Close(ctx)
			}
		}
	})
}

// LogFiles are the log files of every service's incarnations, the scripts'
// and the PostgreSQL server's.
func (c *Cluster) LogFiles() []string {
	var out []string
	for _, name := range Services {
		if s := c.services[name]; s != nil {
			out = append(out, s.LogFiles()...)
		}
	}
	for _, f := range []string{"schema.log", "setup.log"} {
		out = append(out, filepath.Join(c.Dir, f))
	}
	if c.Postgres != nil && c.Postgres.Own() {
		out = append(out, c.Postgres.Log)
	}
	return out
}

// writeFiles puts config.yaml, dynamicconfig.yaml (plus Options.DynamicConfig)
// and the scripts into Dir/config.
func (c *Cluster) writeFiles() error {
	dir := filepath.Join(c.Dir, "config")
	dyn := deploy.TemporalDynamicConfig
	if len(c.opts.DynamicConfig) > 0 {
		var m map[string]any
		if err := yaml.Unmarshal(dyn, &m); err != nil {
			return fmt.Errorf("dynamicconfig.yaml: %w", err)
		}
		if m == nil {
			m = map[string]any{}
		}
		for _, k := range slices.Sorted(maps.Keys(c.opts.DynamicConfig)) {
			m[k] = []map[string]any{{"value": c.opts.DynamicConfig[k]}}
		}
		var err error
		if dyn, err = yaml.Marshal(m); err != nil {
			return err
		}
	}
	for name, data := range map[string][]byte{"config.yaml": deploy.TemporalConfig, "dynamicconfig.yaml": dyn,
		"schema.sh": deploy.TemporalSchemaScript, "setup.sh": deploy.TemporalSetupScript} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// runScript runs config/<name>.sh with the cluster's environment plus env,
// logging to <name>.log.
func (c *Cluster) runScript(ctx context.Context, name string, env ...string) error {
	logPath := filepath.Join(c.Dir, name+".log")
	logf, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.CommandContext(ctx, "/bin/sh", filepath.Join(c.Dir, "config", name+".sh"))
	cmd.Env = append(slices.Clone(c.env), env...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Run(); err != nil {
		tail, _ := os.ReadFile(logPath)
		if len(tail) > 2000 {
			tail = tail[len(tail)-2000:]
		}
		return fmt.Errorf("%s.sh: %w (log: %s)\n%s", name, err, logPath, tail)
	}
	return nil
}

// waitReady waits until the running service s is ready (its Timeout).
func waitReady(ctx context.Context, s *Service) error {
	deadline := time.Now().Add(s.Timeout)
	for {
		rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := s.Ready(rctx)
		cancel()
		switch {
		case err == nil:
			return nil
		case !s.Running():
			return fmt.Errorf("%s exited while starting (log: %s)", s.Name, s.LogFiles()[len(s.LogFiles())-1])
		case time.Now().After(deadline) || ctx.Err() != nil:
			return fmt.Errorf("%s not ready after %s: %v", s.Name, s.Timeout, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// answers answers nil once the gRPC health service at addr answers, SERVING or not.
func answers(addr string) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := health(ctx, addr, "")
		return err
	}
}

func health(ctx context.Context, addr, service string) (healthpb.HealthCheckResponse_ServingStatus, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	res, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: service})
	return res.GetStatus(), err
}

// serviceReady is the readiness of a service: the gRPC health of its API
// (history reports SERVING once it owns its first shards), and for the
// worker, which serves no API, that its membership port listens.
func serviceReady(name string, ports ServicePorts) func(context.Context) error {
	addr := fmt.Sprintf("127.0.0.1:%d", ports.GRPC)
	healthName := map[string]string{
		"frontend": "temporal.api.workflowservice.v1.WorkflowService",
		"history":  "temporal.api.workflowservice.v1.HistoryService",
		"matching": "temporal.api.workflowservice.v1.MatchingService",
	}[name]
	if healthName == "" {
		return proc.Listens(fmt.Sprintf("127.0.0.1:%d", ports.Membership))
	}
	return func(ctx context.Context) error {
		status, err := health(ctx, addr, healthName)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if status != healthpb.HealthCheckResponse_SERVING {
			return fmt.Errorf("%s: %s", name, status)
		}
		return nil
	}
}

// quietLogger logs the Temporal SDK's errors only.
func quietLogger() tlog.Logger {
	return tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
}

// searchAttributes is setup.sh's SEARCH_ATTRIBUTES: "Name=Type ...", sorted.
func searchAttributes(m map[string]string) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, k+"="+m[k])
	}
	return strings.Join(out, " ")
}

// cleanEnviron is this process's environment without TEMPORAL_* variables:
// the server reads some (TEMPORAL_ENVIRONMENT, TEMPORAL_CONFIG_DIR, …) and the
// config the rest, which only the cluster sets.
func cleanEnviron() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TEMPORAL_") {
			out = append(out, kv)
		}
	}
	return out
}

// freePorts are free loopback ports for every service (devenv.FreePort:
// below 32768, as the membership ports must be: ServicePorts).
func freePorts() (map[string]ServicePorts, error) {
	out := map[string]ServicePorts{}
	for _, name := range Services {
		var p ServicePorts
		var err error
		if p.GRPC, err = devenv.FreePort(); err != nil {
			return nil, err
		}
		if p.Membership, err = devenv.FreePort(); err != nil {
			return nil, err
		}
		if name == "frontend" {
			if p.HTTP, err = devenv.FreePort(); err != nil {
				return nil, err
			}
		}
		out[name] = p
	}
	return out, nil
}

// RandomName is prefix plus 12 random hex digits: a database name of its own.
func RandomName(prefix string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// findTools fills the binaries and the schema folder and checks their versions.
func (o *Options) findTools() error {
	var err error
	if o.Server, err = findTool(o.Server, "TEMPORAL_SERVER", "server", "temporal version "+ServerVersion,
		"go install go.temporal.io/server/cmd/server@v"+ServerVersion); err != nil {
		return err
	}
	if o.SQLTool, err = findTool(o.SQLTool, "TEMPORAL_SQL_TOOL", "sql", "temporal-sql-tool version "+ServerVersion,
		"go install go.temporal.io/server/cmd/tools/sql@v"+ServerVersion); err != nil {
		return err
	}
	if o.TemporalCLI, err = findTool(o.TemporalCLI, "TEMPORAL_CLI", "temporal", "", "make tools"); err != nil {
		return err
	}
	if o.SchemaDir == "" {
		o.SchemaDir = os.Getenv("TEMPORAL_SCHEMA_DIR")
	}
	if o.SchemaDir == "" {
		out, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if err != nil {
			return fmt.Errorf("go env GOMODCACHE: %w (or set TEMPORAL_SCHEMA_DIR)", err)
		}
		o.SchemaDir = filepath.Join(strings.TrimSpace(string(out)), "go.temporal.io", "server@v"+ServerVersion, "schema", "postgresql", "v12")
	}
	if _, err := os.Stat(filepath.Join(o.SchemaDir, "temporal", "versioned")); err != nil {
		return fmt.Errorf("the schema of Temporal %s is not in %s: %w (go mod download go.temporal.io/server@v%s, or set TEMPORAL_SCHEMA_DIR)",
			ServerVersion, o.SchemaDir, err, ServerVersion)
	}
	return nil
}

// findTool is path, else $env, else name in GOBIN, GOPATH/bin or ~/go/bin;
// when version is set, `<tool> --version` must print it.
func findTool(path, env, name, version, install string) (string, error) {
	if path == "" {
		path = os.Getenv(env)
	}
	if path == "" {
		var dirs []string
		if gobin := os.Getenv("GOBIN"); gobin != "" {
			dirs = append(dirs, gobin)
		}
		if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
			for _, p := range filepath.SplitList(strings.TrimSpace(string(out))) {
				dirs = append(dirs, filepath.Join(p, "bin"))
			}
		}
		if home, err := os.UserHomeDir(); err == nil {
			dirs = append(dirs, filepath.Join(home, "go", "bin"))
		}
		for _, d := range dirs {
			if st, err := os.Stat(filepath.Join(d, name)); err == nil && !st.IsDir() {
				path = filepath.Join(d, name)
				break
			}
		}
	}
	if path == "" {
		return "", fmt.Errorf("%s not found: %s, or set %s", name, install, env)
	}
	if version != "" {
		out, err := exec.Command(path, "--version").CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte(version)) {
			return "", fmt.Errorf("%s is not %s (%s): %s, or set %s", path, version, strings.TrimSpace(string(out)), install, env)
		}
	}
	return path, nil
}

// jsonValue reads a --dynamic-config-value value as the temporal CLI does
// (JSON), a bare word as a string.
func jsonValue(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return s
	}
	return v
}

// DynamicConfigFromFlags turns temporal CLI flags "--dynamic-config-value",
// "KEY=VALUE" (what a dev server is given) into Options.DynamicConfig; any
// other flag is an error.
func DynamicConfigFromFlags(flags []string) (map[string]any, error) {
	out := map[string]any{}
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		var kv string
		switch {
		case f == "--dynamic-config-value" && i+1 < len(flags):
			i++
			kv = flags[i]
		case strings.HasPrefix(f, "--dynamic-config-value="):
			kv = strings.TrimPrefix(f, "--dynamic-config-value=")
		default:
			return nil, fmt.Errorf("flag %q has no equivalent on a cluster (only --dynamic-config-value KEY=VALUE)", f)
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--dynamic-config-value %q is not KEY=VALUE", kv)
		}
		out[k] = jsonValue(v)
	}
	return out, nil
}
