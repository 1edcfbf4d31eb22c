package cluster

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"gopkg.in/yaml.v3"

	"oportuna/deploy"
)

// The cluster of a test: its own PostgreSQL, without fsync (a crash of the
// server process, as in Restart("immediate"), loses nothing without it).
func startTestCluster(t *testing.T, o Options) *Cluster {
	t.Helper()
	if testing.Short() { // as testenv.NeedsServices, which imports this package
		t.Skip("needs PostgreSQL and temporal-server: -short (make check) runs only the tests that need no service")
	}
	// Not t.TempDir(): its folders are closed to the postgres user, who runs
	// the server when the tests run as root.
	dir, err := os.MkdirTemp("", "oportuna-cluster-test-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	o.Dir = dir
	o.Ephemeral = true
	o.PostgresSettings = append(o.PostgresSettings, "fsync=off", "full_page_writes=off")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	logs := func() {
		files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
		files = append(files, filepath.Join(dir, "postgres", "postgres.log"))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil && len(data) > 0 {
				if len(data) > 3000 {
					data = data[len(data)-3000:]
				}
				t.Logf("--- %s\n%s", f, data)
			}
		}
	}
	c, err := Start(ctx, o)
	if err != nil {
		logs()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			logs()
		}
		c.Stop()
	})
	return c
}

// signalThenActivity waits for the signal "go", then runs the activity echo.
func signalThenActivity(ctx workflow.Context, s string) (string, error) {
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond}})
	var out string
	err := workflow.ExecuteActivity(ctx, echo, s).Get(ctx, &out)
	return out, err
}

func echo(_ context.Context, s string) (string, error) { return "eco: " + s, nil }

// TestClusterKeepsAWorkflowAcrossAKilledHistoryAndACrashedPostgres is the
// cluster a chaos test drives: four services from config.yaml with 512
// shards in PostgreSQL, the namespace and a search attribute registered; a
// workflow started before history is SIGKILLed and PostgreSQL crashes
// (pg_ctl restart -m immediate) finishes after both came back, and matching
// and frontend restart gracefully.
func TestClusterKeepsAWorkflowAcrossAKilledHistoryAndACrashedPostgres(t *testing.T) {
	c := startTestCluster(t, Options{Namespace: "oportuna-test", SearchAttributes: map[string]string{"Brand": "Keyword"}})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	db, err := pgx.Connect(ctx, strings.Replace(c.Postgres.URL, "/postgres?", "/"+c.Databases[0]+"?", 1))
	if err != nil {
		t.Fatal(err)
	}
	var shards int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM shards`).Scan(&shards); err != nil || shards != 512 {
		t.Errorf("shards in %s: %d, %v; config.yaml says 512", c.Databases[0], shards, err)
	}
	db.Close(ctx)

	tc, err := c.Dial(ctx, client.Options{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	attrs, err := tc.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: c.Namespace})
	if err != nil || attrs.GetCustomAttributes()["Brand"] != enumspb.INDEXED_VALUE_TYPE_KEYWORD {
		t.Errorf("search attributes of %s: %v, %v", c.Namespace, attrs.GetCustomAttributes(), err)
	}
	w := worker.New(tc, "cluster-test", worker.Options{})
	w.RegisterWorkflow(signalThenActivity)
	w.RegisterActivity(echo)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "cluster-test", TaskQueue: "cluster-test"}, signalThenActivity, "Ana")
	if err != nil {
		t.Fatal(err)
	}

	if err := c.Kill("history"); err != nil {
		t.Fatal(err)
	}
	if c.Service("history").Running() {
		t.Fatal("history runs after Kill")
	}
	if err := c.StartService(ctx, "history"); err != nil {
		t.Fatal(err)
	}
	if err := c.Postgres.Restart(ctx, "immediate"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"matching", "frontend"} {
		if err := c.Restart(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(c.Service("history").LogFiles()); n != 2 {
		t.Errorf("history has %d log files, want one per incarnation (2)", n)
	}
	if err := tc.SignalWorkflow(ctx, run.GetID(), run.GetRunID(), "go", nil); err != nil {
		t.Fatal(err)
	}
	var out string
	if err := run.Get(ctx, &out); err != nil || out != "eco: Ana" {
		t.Fatalf("workflow: %q, %v", out, err)
	}

	// A test's cluster leaves no process and no data behind.
	w.Stop()
	tc.Close()
	pid := c.Postgres.PID()
	c.Stop()
	if _, err := os.Stat(c.Postgres.DataDir); !os.IsNotExist(err) {
		t.Errorf("data dir after Stop: %v", err)
	}
	if pid == 0 || alive(pid) {
		t.Errorf("postmaster %d still runs after Stop", pid)
	}
	for _, name := range Services {
		if c.Service(name).Running() {
			t.Errorf("%s runs after Stop", name)
		}
	}
}

// alive reports whether pid runs (a zombie, not yet reaped by init, does not).
func alive(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

func TestDynamicConfigFromFlagsReadsTheCLIsValues(t *testing.T) {
	got, err := DynamicConfigFromFlags([]string{"--dynamic-config-value", "limit.historyCount.suggestContinueAsNew=40",
		"--dynamic-config-value=frontend.enableUpdateWorkflowExecution=true", "--dynamic-config-value", `x.name="a b"`})
	if err != nil {
		t.Fatal(err)
	}
	if got["limit.historyCount.suggestContinueAsNew"] != float64(40) || got["frontend.enableUpdateWorkflowExecution"] != true || got["x.name"] != "a b" {
		t.Errorf("DynamicConfigFromFlags = %#v", got)
	}
	for _, bad := range [][]string{{"--db-filename", "x.db"}, {"--dynamic-config-value", "novalue"}, {"--dynamic-config-value"}} {
		if _, err := DynamicConfigFromFlags(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestWriteFilesAddsDynamicConfigToTheDeployedFile: the extra keys join the
// deployed ones, which stay.
func TestWriteFilesAddsDynamicConfigToTheDeployedFile(t *testing.T) {
	c := &Cluster{Dir: t.TempDir(), opts: Options{DynamicConfig: map[string]any{"limit.historyCount.suggestContinueAsNew": 40}}}
	if err := os.MkdirAll(filepath.Join(c.Dir, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.writeFiles(); err != nil {
		t.Fatal(err)
	}
	var deployed, got map[string][]map[string]any
	if err := yaml.Unmarshal(deploy.TemporalDynamicConfig, &deployed); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(c.Dir, "config", "dynamicconfig.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if v := got["limit.historyCount.suggestContinueAsNew"]; len(v) != 1 || v[0]["value"] != 40 {
		t.Errorf("the added key: %v", v)
	}
	for k, v := range deployed {
		if len(got[k]) != len(v) || got[k][0]["value"] != v[0]["value"] {
			t.Errorf("%s: %v, deployed %v", k, got[k], v)
		}
	}
	for _, f := range []string{"config.yaml", "schema.sh", "setup.sh"} {
		if _, err := os.Stat(filepath.Join(c.Dir, "config", f)); err != nil {
			t.Error(err)
		}
	}
}

// TestDefaultsMakeDirAbsolute: the server is started with --root /, so a
// relative Dir (make loadtest's .data/loadtest/…) would name a folder under /.
func TestDefaultsMakeDirAbsolute(t *testing.T) {
	o := Options{Dir: filepath.Join(".data", "x")}
	if err := o.defaults(); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if o.Dir != filepath.Join(wd, ".data", "x") || o.Database != "temporal" || o.Namespace != "default" {
		t.Errorf("defaults: %+v", o)
	}
	if err := (&Options{}).defaults(); err == nil {
		t.Error("no Dir: no error")
	}
}

func TestFreePortsKeepMembershipBelow32768(t *testing.T) {
	ports, err := freePorts()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, name := range Services {
		p := ports[name]
		if p.Membership < 1024 || p.Membership >= 32768 || p.GRPC == 0 {
			t.Errorf("%s: %+v", name, p)
		}
		if seen[p.Membership] {
			t.Errorf("%s: membership port %d given twice", name, p.Membership)
		}
		seen[p.Membership] = true
	}
	if ports["frontend"].HTTP == 0 {
		t.Error("the frontend has no HTTP port")
	}
}
