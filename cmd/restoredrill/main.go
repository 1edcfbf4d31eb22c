// Command restoredrill rehearses a restore from backups (docs/operations.md,
// "Backups and restore"): on a production-shaped cluster (internal/stack/cluster, on a
// PostgreSQL server of the drill's own) with opportunities in flight — some in
// analysis, their expiry timers running, some approved, their renewal window
// timers running — it dumps the portal's database and Temporal's two
// databases with pg_dump, stops the portal and the Temporal services, drops
// the three databases, restores them with pg_restore, starts the cluster and
// the portal again, and proves the portal resumed: every workflow is found and
// running, a pending decision succeeds, the expiry timer of an opportunity in
// analysis fires, and the read model matches each workflow's state. It prints
// the backup and restore times and exits 1 when a check fails.
//
// The durations are short, as the seed's and tests' are: an opportunity in
// analysis expires -validity after its registration; an approved one enters
// its renewal window -validity minus -renewal-window after its approval.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"oportuna/brand"
	"oportuna/cnpj"
	"oportuna/internal/stack"
	"oportuna/internal/stack/cluster"
	"oportuna/internal/testenv"
	"oportuna/seed"
	"oportuna/workflows"
)

const (
	brandSlug = "nordata"
	password  = "Oportuna@2026"
	seller    = "vendedor1@nordata.demo"
	rep       = "representante@nordata.demo"
)

type options struct {
	bin, temporalCLI, dir   string
	validity, renewalWindow time.Duration
	inAnalysis, approved    int
	keep                    bool
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "bin/oportuna", "the oportuna binary")
	flag.StringVar(&o.temporalCLI, "temporal", "", "the temporal CLI (default: $TEMPORAL_CLI, PATH, GOPATH/bin)")
	flag.StringVar(&o.dir, "dir", "", "where the logs, the dumps and the PostgreSQL data go (default .data/restore-drill/<time>)")
	flag.DurationVar(&o.validity, "validity", 3*time.Minute, "OPPORTUNITY_VALIDITY: an opportunity in analysis expires this long after its registration")
	flag.DurationVar(&o.renewalWindow, "renewal-window", 2*time.Minute, "OPPORTUNITY_RENEWAL_WINDOW")
	flag.IntVar(&o.inAnalysis, "analysis", 4, "opportunities left in analysis (one is approved after the restore)")
	flag.IntVar(&o.approved, "approved", 3, "opportunities approved before the backup")
	flag.BoolVar(&o.keep, "keep", false, "keep the PostgreSQL data and the dumps")
	flag.Parse()
	if o.dir == "" {
		o.dir = stack.RunDir("restore-drill")
	}
	ctx, stop := stack.CommandContext()
	defer stop()
	failed, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "restore-drill:", err)
		os.Exit(2)
	}
	if failed > 0 {
		fmt.Printf("restore-drill: FAILED (%d checks)\n", failed)
		os.Exit(1)
	}
	fmt.Println("restore-drill: the portal resumed from the backups")
}

func run(ctx context.Context, o options) (int, error) {
	if o.inAnalysis < 2 || o.approved < 1 {
		return 0, errors.New("-analysis must be 2 or more and -approved 1 or more")
	}
	dir, err := filepath.Abs(o.dir)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "backup"), 0o755); err != nil {
		return 0, err
	}
	pg, err := cluster.StartPostgres(ctx, filepath.Join(dir, "postgres"), nil)
	if err != nil {
		return 0, err
	}
	defer func() {
		_ = pg.Stop("fast")
		if !o.keep {
			_ = os.RemoveAll(filepath.Join(dir, "postgres", "data"))
			_ = os.RemoveAll(filepath.Join(dir, "backup"))
		}
	}()
	st, err := stack.Start(ctx, stack.Options{Bin: o.bin, TemporalCLI: o.temporalCLI, AdminURL: pg.URL, Dir: dir,
		Prefix: "oportuna_drill", Engine: "cluster"})
	if err != nil {
		return 0, err
	}
	defer st.Close(o.keep)
	slog.Info("cluster up", "temporal", st.TemporalAddr, "postgres port", pg.Port)

	db, err := pgxpool.New(ctx, st.DB.URL)
	if err != nil {
		return 0, err
	}
	one, err := brand.Parse([]byte(`[{"slug":"` + brandSlug + `","name":"Nordata"}]`))
	if err != nil {
		return 0, err
	}
	if _, err := seed.Run(ctx, db, one, password); err != nil {
		db.Close()
		return 0, fmt.Errorf("seed: %w", err)
	}
	db.Close()

	smtp, err := stack.StartSMTP()
	if err != nil {
		return 0, err
	}
	defer smtp.Close()
	secret := make([]byte, 24)
	_, _ = rand.Read(secret)
	env := append(append([]string{}, st.Env...), "JWT_SECRET="+hex.EncodeToString(secret), "LOG_LEVEL=INFO", "CRM_SIM=on", "CRM_URL=",
		"SMTP_HOST="+smtp.Host, fmt.Sprintf("SMTP_PORT=%d", smtp.Port), "SMTP_TLS=none", "SMTP_FROM=nao-responda@oportuna.localhost", "MAILBOX=off",
		"OPPORTUNITY_VALIDITY="+o.validity.String(), "OPPORTUNITY_RENEWAL_WINDOW="+o.renewalWindow.String())
	worker := stack.NewProc("worker", o.bin, "worker", dir, env, false)
	api := stack.NewProc("api", o.bin, "api", dir, env, true)
	if err := worker.Start(ctx); err != nil {
		return 0, err
	}
	defer worker.Stop(30 * time.Second)
	if err := api.Start(ctx); err != nil {
		return 0, err
	}
	defer api.Stop(30 * time.Second)

	hc := &http.Client{Timeout: 90 * time.Second}
	p := &portal{hc: hc, base: api.Base, tokens: map[string]string{}}
	for _, u := range []string{seller, rep} {
		if p.tokens[u], _, err = stack.Login(ctx, hc, api.Base(), "", brandSlug, u, password); err != nil {
			return 0, err
		}
	}
	// In flight: -analysis registered and waiting (their expiry timers run),
	// -approved approved (their renewal window timers run).
	run := time.Now().Unix() % 100000
	var ids []string
	for i := range o.inAnalysis + o.approved {
		base := fmt.Sprintf("%08d%04d", (run*100+int64(i))%100000000, 1+i)
		d, _ := cnpj.CheckDigits(base)
		status, body := p.call(ctx, http.MethodPost, "/api/opportunity/create", seller, fmt.Sprintf("drill-%d-%d", run, i),
			stack.Registration(brandSlug, base+d, fmt.Sprintf("Cliente Ensaio %d", i)))
		if status != http.StatusOK {
			return 0, fmt.Errorf("registration %d: %d %v", i, status, body)
		}
		ids = append(ids, body["data"].(map[string]any)["id"].(string))
	}
	registered := time.Now()
	for _, id := range ids[o.inAnalysis:] {
		if status, body := p.call(ctx, http.MethodPatch, "/api/opportunity/"+id, rep, "approve-"+id,
			map[string]any{"status": "approved", "name": "Projeto Ensaio", "probabilityClosing": 50}); status != http.StatusOK {
			return 0, fmt.Errorf("approval of %s: %d %v", id, status, body)
		}
	}
	fmt.Printf("in flight: %d in analysis (expiring at %s), %d approved\n", o.inAnalysis,
		registered.Add(o.validity).UTC().Format("15:04:05"), o.approved)

	// Backup: pg_dump of the three databases, with the portal running.
	dbs := []string{st.DB.Name, st.Cluster.Databases[0], st.Cluster.Databases[1]}
	t0 := time.Now()
	for _, name := range dbs {
		if err := pgTool(ctx, "pg_dump", "-Fc", "-f", filepath.Join(dir, "backup", name+".dump"), "-d", dbURL(pg.URL, name)); err != nil {
			return 0, err
		}
	}
	backup := time.Since(t0)
	fmt.Printf("backup: pg_dump -Fc of %v in %s\n", dbs, backup.Round(10*time.Millisecond))

	// Disaster: everything stops, the databases are gone.
	api.Stop(30 * time.Second)
	worker.Stop(30 * time.Second)
	var wg sync.WaitGroup
	for _, name := range cluster.Services {
		wg.Add(1)
		go func() { defer wg.Done(); st.Cluster.Service(name).Stop(20 * time.Second) }()
	}
	wg.Wait()
	admin, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		return 0, err
	}
	defer admin.Close(context.Background())
	for _, name := range dbs {
		if _, err := admin.Exec(ctx, `DROP DATABASE `+pgx.Identifier{name}.Sanitize()+` WITH (FORCE)`); err != nil {
			return 0, err
		}
	}
	fmt.Printf("destroyed: the portal and the Temporal services stopped, %v dropped\n", dbs)

	// Restore: the databases from the dumps, then Temporal, then the portal.
	t1 := time.Now()
	for _, name := range dbs {
		if _, err := admin.Exec(ctx, `CREATE DATABASE `+pgx.Identifier{name}.Sanitize()); err != nil {
			return 0, err
		}
		if err := pgTool(ctx, "pg_restore", "--no-owner", "-d", dbURL(pg.URL, name), filepath.Join(dir, "backup", name+".dump")); err != nil {
			return 0, err
		}
	}
	dbRestored := time.Since(t1)
	errs := make(chan error, len(cluster.Services))
	for _, name := range cluster.Services {
		go func() { errs <- st.Cluster.StartService(ctx, name) }()
	}
	for range cluster.Services {
		if err := <-errs; err != nil {
			return 0, err
		}
	}
	if err := st.Cluster.WaitReady(ctx); err != nil {
		return 0, err
	}
	if err := worker.Start(ctx); err != nil {
		return 0, err
	}
	if err := api.Start(ctx); err != nil {
		return 0, err
	}
	restore := time.Since(t1)
	fmt.Printf("restore: databases in %s; Temporal serving and the portal ready %s after the first pg_restore\n",
		dbRestored.Round(10*time.Millisecond), restore.Round(10*time.Millisecond))

	// Proof.
	failed := 0
	check := func(ok bool, format string, args ...any) {
		mark := "ok  "
		if !ok {
			mark = "FAIL"
			failed++
		}
		fmt.Printf("  %s %s\n", mark, fmt.Sprintf(format, args...))
	}
	tc, err := client.Dial(client.Options{HostPort: st.TemporalAddr, Namespace: st.Namespace, Logger: stack.QuietTemporalLogger(),
		DataConverter: testenv.DataConverter(), FailureConverter: testenv.FailureConverter()})
	if err != nil {
		return 0, err
	}
	defer tc.Close()
	for i, id := range ids {
		d, err := tc.DescribeWorkflowExecution(ctx, workflows.OpportunityWorkflowID(id), "")
		check(err == nil && d.WorkflowExecutionInfo.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING,
			"workflow %d of %d found and running (%v)", i+1, len(ids), errOr(err, d.GetWorkflowExecutionInfo().GetStatus()))
	}
	// A pending decision: the last one in analysis is approved now.
	pending := ids[o.inAnalysis-1]
	status, body := p.call(ctx, http.MethodPatch, "/api/opportunity/"+pending, rep, "approve-after-"+pending,
		map[string]any{"status": "approved", "name": "Projeto Restaurado", "probabilityClosing": 75})
	check(status == http.StatusOK, "a pending decision after the restore: approval answered %d %v", status, body["message"])
	// The expiry timers of the others fire (they were set before the backup).
	expiring := ids[:o.inAnalysis-1]
	deadline := registered.Add(o.validity + 2*time.Minute)
	var expired int
	for time.Now().Before(deadline) && ctx.Err() == nil {
		expired = 0
		for _, id := range expiring {
			if p.status(ctx, id) == "expired" {
				expired++
			}
		}
		if expired == len(expiring) {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	check(expired == len(expiring), "expiry timers set before the backup fired: %d of %d in analysis expired (due %s)", expired,
		len(expiring), registered.Add(o.validity).UTC().Format("15:04:05"))
	// The read model is the workflows' state.
	db, err = pgxpool.New(ctx, st.DB.URL)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var agree int
	for _, id := range ids {
		var rm string
		_ = db.QueryRow(ctx, `SELECT status FROM opportunities WHERE id = $1`, id).Scan(&rm)
		var ws workflows.OpportunityState
		v, err := tc.QueryWorkflow(ctx, workflows.OpportunityWorkflowID(id), "", workflows.QueryState)
		if err == nil {
			err = v.Get(&ws)
		}
		if err == nil && string(ws.Status) == rm {
			agree++
		} else {
			fmt.Printf("    %s: read model %q, workflow %q (%v)\n", id, rm, ws.Status, err)
		}
	}
	check(agree == len(ids), "read model = workflow state for %d of %d opportunities", agree, len(ids))
	fmt.Printf("\nRESTORE TIME %s (pg_restore of 3 databases %s; backup %s) · logs in %s\n", restore.Round(10*time.Millisecond),
		dbRestored.Round(10*time.Millisecond), backup.Round(10*time.Millisecond), dir)
	return failed, nil
}

func errOr(err error, v any) any {
	if err != nil {
		return err
	}
	return v
}

// dbURL is the admin URL with another database.
func dbURL(admin, name string) string {
	cfg, err := pgx.ParseConfig(admin)
	if err != nil {
		return admin
	}
	return fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, name)
}

// pgTool runs pg_dump or pg_restore of the machine's PostgreSQL (PATH, then
// Debian's layout).
func pgTool(ctx context.Context, name string, args ...string) error {
	path, err := exec.LookPath(name)
	if err != nil {
		matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
		if len(matches) == 0 {
			return fmt.Errorf("%s not found: install Debian's postgresql-client", name)
		}
		path = matches[len(matches)-1]
	}
	if out, err := exec.CommandContext(ctx, path, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %w\n%s", name, err, out)
	}
	return nil
}

// portal calls the API as the web app does.
type portal struct {
	hc     *http.Client
	base   func() string
	tokens map[string]string // e-mail → access token
}

// call sends one request as user, with key as its Idempotency-Key, retrying
// while the API does not answer or answers 5xx (a cluster starting).
func (p *portal) call(ctx context.Context, method, path, user, key string, body any) (int, map[string]any) {
	var last int
	out := map[string]any{}
	for try := 0; try < 30 && ctx.Err() == nil; try++ {
		req, err := stack.APIRequest(ctx, method, p.base()+path, p.tokens[user], brandSlug, key, body)
		if err != nil {
			return 0, map[string]any{"error": err.Error()}
		}
		res, err := p.hc.Do(req)
		if err == nil {
			out = map[string]any{}
			_ = json.NewDecoder(res.Body).Decode(&out)
			res.Body.Close()
			last = res.StatusCode
			if last < 500 {
				return last, out
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	return last, out
}

// status is the opportunity's status as the seller reads it.
func (p *portal) status(ctx context.Context, id string) string {
	code, body := p.call(ctx, http.MethodGet, "/api/opportunity/id/"+id, seller, "", nil)
	rows, _ := body["data"].([]any)
	if code != http.StatusOK || len(rows) != 1 {
		return ""
	}
	s, _ := rows[0].(map[string]any)["status"].(string)
	return s
}
