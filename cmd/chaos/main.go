// Command chaos registers and approves opportunities through the API while it
// kills the worker (SIGKILL, every -kill-min to -kill-max, restarted at once),
// kills the API once, and in a second round takes the Salesforce stand-in down;
// then it waits for the system to settle and checks that nothing was lost,
// duplicated or left stuck (docs/operations.md, Chaos). It exits 1 when any
// count is not 0.
//
// It starts everything on free ports: a fresh database on the server of
// $OPORTUNA_TEST_DATABASE_URL or $DATABASE_URL (dropped at the end), a Temporal
// dev server with the tests' tuned flags, the Salesforce stand-in (in this
// process, so it can go down), an SMTP server that counts deliveries, and
// `oportuna api` and `oportuna worker` as separate processes. `make chaos` runs
// the full program; `make chaos-short` (in `make test`) runs -short.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"

	"oportuna/brand"
	"oportuna/internal/dev/crmsim"
	"oportuna/internal/stack"
	"oportuna/internal/stack/cluster"
	"oportuna/internal/testenv"
	"oportuna/seed"
	"oportuna/workflows"
)

type options struct {
	opportunities int
	clients       int
	killMin       time.Duration
	killMax       time.Duration
	workerKills   int
	crmOutage     time.Duration
	settle        time.Duration
	opTime        time.Duration
	think         time.Duration
	short         bool
	bin           string
	temporalCLI   string
	databaseURL   string
	dir           string
	seed          uint64
	keep          bool
	demo          bool
	inject        bool
	engine        string
	mailOutage    time.Duration
	pgStall       time.Duration
}

func main() {
	var o options
	flag.IntVar(&o.opportunities, "opportunities", 100, "opportunities registered and approved in each round")
	flag.IntVar(&o.clients, "clients", 10, "concurrent clients")
	flag.DurationVar(&o.killMin, "kill-min", 1500*time.Millisecond, "shortest time between worker kills")
	flag.DurationVar(&o.killMax, "kill-max", 3*time.Second, "longest time between worker kills")
	flag.IntVar(&o.workerKills, "worker-kills", 0, "worker kills per round (0: keep killing while the clients run)")
	flag.DurationVar(&o.crmOutage, "crm-outage", 30*time.Second, "how long the Salesforce stand-in is down in round 2")
	flag.DurationVar(&o.settle, "settle-timeout", 3*time.Minute, "how long to wait for the system to settle")
	flag.DurationVar(&o.opTime, "op-timeout", 4*time.Minute, "how long a client keeps retrying one request")
	flag.DurationVar(&o.think, "think", 300*time.Millisecond, "a client's mean pause before each registration (uniform 0 to twice this)")
	flag.BoolVar(&o.short, "short", false, "the short round of make test: 10 opportunities a round (20 approvals), 5 clients, 3 worker kills a round 0.7–1.5 s apart, a 12 s CRM outage")
	flag.StringVar(&o.bin, "bin", "bin/oportuna", "the oportuna binary")
	flag.StringVar(&o.temporalCLI, "temporal", "", "the temporal CLI (default: $TEMPORAL_CLI, PATH, GOPATH/bin)")
	flag.StringVar(&o.databaseURL, "database-url", "", "a PostgreSQL server where a database may be created (default: $OPORTUNA_TEST_DATABASE_URL, then $DATABASE_URL)")
	flag.StringVar(&o.dir, "dir", "", "where the logs and report.json go (default .data/chaos/<time>)")
	flag.Uint64Var(&o.seed, "seed", 0, "random seed of the kill schedule (0: from the clock; printed)")
	flag.BoolVar(&o.keep, "keep", false, "keep the database (its URL is printed)")
	flag.BoolVar(&o.demo, "demo", false, "seed with `oportuna seed` (demo opportunities of every brand) instead of the accounts only")
	flag.StringVar(&o.engine, "engine", "dev", "the Temporal server: dev (temporal server start-dev on a state file, killed and restarted in round 1) or cluster (temporal-server's services on PostgreSQL, internal/stack/cluster: history killed, matching killed, frontend restarted in round 1)")
	flag.DurationVar(&o.mailOutage, "mail-outage", 20*time.Second, "how long the SMTP server is down in round 2")
	flag.DurationVar(&o.pgStall, "pg-stall", 0, "after the PostgreSQL restart, stop its processes (SIGSTOP) this long: a database that hangs")
	flag.BoolVar(&o.inject, "inject", false, "after the settle, plant one fault of each kind the checks look for and exit 0 only if every one is reported (tests the checks)")
	flag.Parse()
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if o.short {
		if !set["opportunities"] {
			o.opportunities = 10
		}
		if !set["clients"] {
			o.clients = 5
		}
		if !set["worker-kills"] {
			o.workerKills = 3
		}
		if !set["kill-min"] {
			o.killMin = 700 * time.Millisecond
		}
		if !set["kill-max"] {
			o.killMax = 1500 * time.Millisecond
		}
		if !set["crm-outage"] {
			o.crmOutage = 12 * time.Second // longer than a decision's 5 CRM attempts (~8 s), so some are refused
		}
		if !set["settle-timeout"] {
			o.settle = time.Minute
		}
		if !set["mail-outage"] {
			o.mailOutage = 8 * time.Second
		}
		if !set["op-timeout"] {
			o.opTime = 75 * time.Second
		}
	}
	if o.seed == 0 {
		o.seed = uint64(time.Now().UnixNano())
	}
	if o.dir == "" {
		o.dir = stack.RunDir("chaos")
	}
	ctx, stop := stack.CommandContext()
	defer stop()
	code, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

// harness is the running stack.
type harness struct {
	o        options
	rng      *mrand.Rand
	db       *pgxpool.Pool
	tc       client.Client
	sim      *crmsim.Sim
	crm      *switchable
	smtp     *stack.SMTPSink
	api      *stack.Proc
	worker   *stack.Proc
	portal   *portal
	stats    clientStats
	repToken string
	started  time.Time

	evMu   sync.Mutex
	events []event

	workerKills, apiKills atomic.Int64
	killedLogs            sync.Map // the log file of each worker incarnation SIGKILLed → true
	crmDown, mailDown     time.Duration
	pg                    *cluster.Postgres // the run's own (nil with -database-url)
	st                    *stack.Stack
	infra                 []string // the Temporal and PostgreSQL faults done
}

// event is a moment of the run: At is the time since the start, Time the clock.
type event struct {
	At   string    `json:"at"`
	Time time.Time `json:"time"`
	What string    `json:"what"`
}

func (h *harness) event(format string, args ...any) {
	now := time.Now()
	e := event{At: now.Sub(h.started).Round(time.Millisecond).String(), Time: now.UTC(), What: fmt.Sprintf(format, args...)}
	h.evMu.Lock()
	h.events = append(h.events, e)
	h.evMu.Unlock()
	slog.Info(e.What, "t", e.At)
}

func run(ctx context.Context, o options) (int, error) {
	if o.killMin <= 0 || o.killMax < o.killMin {
		return 0, fmt.Errorf("-kill-min %s and -kill-max %s: want 0 < min ≤ max", o.killMin, o.killMax)
	}
	h := &harness{o: o, rng: mrand.New(mrand.NewPCG(o.seed, o.seed>>1)), started: time.Now()}
	h.portal = &portal{stats: &h.stats, hc: &http.Client{Timeout: 100 * time.Second}}
	slog.Info("chaos", "opportunities_per_round", o.opportunities, "clients", o.clients, "kill", fmt.Sprintf("%s–%s", o.killMin, o.killMax),
		"worker_kills_per_round", o.workerKills, "crm_outage", o.crmOutage, "seed", o.seed, "dir", o.dir)

	// A PostgreSQL server of the run's own (restarted in round 1), unless
	// -database-url names one; a fresh database, migrated by the binary; a
	// Temporal dev server on a state file, or a cluster on that PostgreSQL.
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return 0, err
	}
	admin := o.databaseURL
	if admin == "" {
		pgDir, err := filepath.Abs(filepath.Join(o.dir, "postgres"))
		if err != nil {
			return 0, err
		}
		// fsync=off: a restart -m immediate kills the processes, not the
		// machine; the WAL written at each commit survives in the page cache.
		if h.pg, err = cluster.StartPostgres(ctx, pgDir, []string{"fsync=off", "full_page_writes=off"}); err != nil {
			return 0, err
		}
		defer func() {
			_ = h.pg.Resume()
			_ = h.pg.Stop("fast")
			if !o.keep {
				_ = os.RemoveAll(filepath.Join(pgDir, "data"))
			}
		}()
		admin = h.pg.URL
		h.event("postgres of the run's own at port %d", h.pg.Port)
	}
	st, err := stack.Start(ctx, stack.Options{Bin: o.bin, TemporalCLI: o.temporalCLI, AdminURL: admin, Dir: o.dir, Prefix: "oportuna_chaos",
		Engine: o.engine, TemporalDB: temporalDB(o)})
	if err != nil {
		return 0, err
	}
	defer st.Close(o.keep)
	h.st = st
	d, base := st.DB, st.Env
	h.event("temporal (%s) at %s", o.engine, st.TemporalAddr)
	if h.db, err = pgxpool.New(ctx, d.URL); err != nil {
		return 0, err
	}
	defer h.db.Close()
	if o.demo {
		if out, err := stack.RunBin(ctx, o.bin, "seed", append(base, "CRM_SIM=on", "CRM_URL=")); err != nil {
			return 0, fmt.Errorf("oportuna seed: %w\n%s", err, out)
		}
	} else {
		one, err := brand.Parse([]byte(`[{"slug":"` + brandSlug + `","name":"Nordata"}]`))
		if err != nil {
			return 0, err
		}
		if _, err := seed.Run(ctx, h.db, one, password); err != nil {
			return 0, fmt.Errorf("seed accounts: %w", err)
		}
	}
	h.event("database %s migrated and seeded", d.Name)

	// The Salesforce stand-in, in this process so that it can go down.
	opts, err := crmsim.OptionsFromEnv(func(string) string { return "" }, brand.MustLoad())
	if err != nil {
		return 0, err
	}
	opts.Logger = slog.New(slog.NewTextHandler(discard{}, nil))
	h.sim = crmsim.New(h.db, opts)
	if err := h.sim.Seed(ctx); err != nil {
		return 0, fmt.Errorf("crm stand-in seed: %w", err)
	}
	if h.crm, err = newSwitchable(h.sim); err != nil {
		return 0, err
	}
	defer h.crm.down()
	if h.smtp, err = stack.StartSMTP(); err != nil {
		return 0, err
	}
	defer h.smtp.Close()
	cfg := h.sim.ClientConfig(h.crm.url())
	secret := make([]byte, 24)
	_, _ = rand.Read(secret)
	env := append(base, "JWT_SECRET="+hex.EncodeToString(secret), "LOG_LEVEL=INFO",
		"CRM_URL="+h.crm.url(), "CRM_SIM=off", "SALESFORCE_CLIENT_ID="+cfg.ClientID, "SALESFORCE_CLIENT_SECRET="+cfg.ClientSecret,
		"SMTP_HOST="+h.smtp.Host, fmt.Sprintf("SMTP_PORT=%d", h.smtp.Port), "SMTP_TLS=none", "SMTP_FROM="+mailFrom, "MAILBOX=off",
		// An approval's renewal window opens renewalOpens after it (the
		// renewal stories wait for it); nothing expires during a run.
		"OPPORTUNITY_VALIDITY="+validity.String(), "OPPORTUNITY_RENEWAL_WINDOW="+(validity-renewalOpens).String())
	env = env[:len(env):len(env)]
	h.worker = stack.NewProc("worker", o.bin, "worker", o.dir, env, false)
	h.api = stack.NewProc("api", o.bin, "api", o.dir, env, true)
	h.portal.base = h.api.Base
	if err := h.worker.Start(ctx); err != nil {
		return 0, err
	}
	defer h.worker.Stop(30 * time.Second)
	if err := h.api.Start(ctx); err != nil {
		return 0, err
	}
	defer h.api.Stop(30 * time.Second)
	h.event("api at %s and worker running", h.api.Base())
	if h.tc, err = client.Dial(client.Options{HostPort: st.TemporalAddr, Namespace: st.Namespace, Logger: stack.QuietTemporalLogger(),
		DataConverter: testenv.DataConverter(), FailureConverter: testenv.FailureConverter()}); err != nil {
		return 0, err
	}
	defer h.tc.Close()

	users, err := h.users(ctx)
	if err != nil {
		return 0, err
	}
	drv := &driver{p: h.portal, tokens: map[string]string{}, rep: "representante@nordata.demo", opTime: o.opTime,
		crmPause: 2 * time.Second, think: o.think, seed: o.seed, run: time.Now().Unix() % 100000, cancel: h.cancel, deleted: h.deleted}
	for _, u := range []string{drv.rep, "vendedor1@nordata.demo", "vendedor2@nordata.demo"} {
		if drv.tokens[u], err = h.portal.login(ctx, u); err != nil {
			return 0, err
		}
	}

	h.repToken = drv.tokens[drv.rep]

	// Round 1: worker killed every kill-min..kill-max, the API killed once,
	// Temporal (the dev server, or the cluster's services one at a time) and
	// PostgreSQL restarted.
	r1 := h.round(ctx, drv, users, 1, true, 0, 0)
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	// Round 2: the worker killed, the Salesforce stand-in down for
	// crm-outage, the SMTP server for mail-outage; calls of round 1 are sent
	// again with their keys meanwhile.
	r2 := h.round(ctx, drv, users, 2, false, o.crmOutage, o.mailOutage)
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	chaosEnd := time.Now()
	h.event("chaos over: waiting for the system to settle")
	ops := append(append([]*op{}, r1...), r2...)
	settled, settleTime := h.settle(ctx, ops, chaosEnd)
	if settled {
		h.event("settled %s after the chaos ended", settleTime.Round(100*time.Millisecond))
	} else {
		h.event("not settled after %s", o.settle)
	}
	// Every answered call once more with its key, well after its answer;
	// then the checks count what changed.
	calls := drv.answered()
	h.repeatAll(ctx, drv, calls)
	h.event("%d answered calls sent again with their keys", len(calls))
	if again, _ := h.settle(ctx, ops, time.Now()); !again {
		settled = false
		h.event("not settled again after the repeated calls")
	}
	var faults []planted
	if o.inject {
		if faults, err = h.inject(ctx, ops); err != nil {
			return 0, err
		}
		h.event("injected %d faults", len(faults))
	}
	rep := h.check(ctx, ops, users, calls)
	rep.Settled, rep.SettleTime = settled, settleTime
	rep.Seed = o.seed
	code := h.report(rep, ops)
	if o.inject {
		missed := verifyInjected(rep, faults)
		fmt.Printf("\ninject: %d faults planted, %d reported\n", len(faults), len(faults)-len(missed))
		for _, p := range missed {
			fmt.Printf("  NOT REPORTED: %s · %s (%s)\n", p.check.Name, p.id, p.what)
		}
		if len(missed) > 0 {
			return 1, nil
		}
		return 0, nil
	}
	return code, nil
}

const mailFrom = "nao-responda@oportuna.localhost"

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// users maps the demo logins the clients use to their ids.
func (h *harness) users(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	for _, email := range []string{"representante@nordata.demo", "vendedor1@nordata.demo", "vendedor2@nordata.demo"} {
		var id string
		if err := h.db.QueryRow(ctx, `SELECT id::text FROM users WHERE email = $1`, email).Scan(&id); err != nil {
			return nil, fmt.Errorf("user %s: %w", email, err)
		}
		out[email] = id
	}
	return out, nil
}

// round registers and approves o.opportunities opportunities with o.clients
// clients while the worker is killed and restarted; killAPI kills the API once
// a third of the approvals have answered; outage takes the CRM down for that
// long from the start of the round.
func (h *harness) round(ctx context.Context, drv *driver, users map[string]string, r int, killAPI bool, outage, mailOutage time.Duration) []*op {
	n := h.o.opportunities
	ops := make([]*op, n)
	for i := range ops {
		seller := "vendedor1@nordata.demo"
		if i%2 == 1 {
			seller = "vendedor2@nordata.demo"
		}
		key := fmt.Sprintf("chaos-%d-r%d-%03d", drv.run, r, i)
		ops[i] = &op{round: r, n: i, story: stories[i%len(stories)], key: key, seller: seller, id: opportunityID(users[seller], key),
			name: fmt.Sprintf("Caos %d-%03d", r, i)}
	}
	h.event("round %d: %d opportunities, %d clients", r, n, h.o.clients)
	drv.progress.Store(0)
	loadDone := make(chan struct{})
	var faults sync.WaitGroup

	// The worker: SIGKILL after a random kill-min..kill-max of running, then
	// restarted at once; until the clients are done (and, with -worker-kills,
	// until that many kills).
	faults.Add(1)
	go func() {
		defer faults.Done()
		kills := 0
		for {
			if h.o.workerKills > 0 && kills >= h.o.workerKills {
				return // exactly that many, even after the clients are done
			}
			stopAtEnd := loadDone
			if h.o.workerKills > 0 {
				stopAtEnd = nil
			}
			wait := h.o.killMin + time.Duration(h.rng.Int64N(int64(h.o.killMax-h.o.killMin)+1))
			select {
			case <-ctx.Done():
				return
			case <-stopAtEnd:
				return
			case <-time.After(wait):
			}
			if logs := h.worker.LogFiles(); len(logs) > 0 {
				h.killedLogs.Store(logs[len(logs)-1], true)
			}
			h.worker.Kill()
			kills++
			h.workerKills.Add(1)
			h.event("round %d: worker killed (SIGKILL #%d)", r, h.workerKills.Load())
			for {
				if err := h.worker.Start(ctx); err == nil || ctx.Err() != nil {
					break
				} else {
					h.event("worker restart failed: %v", err)
				}
			}
			h.event("round %d: worker restarted", r)
		}
	}()
	if killAPI {
		faults.Add(1)
		go func() {
			defer faults.Done()
			for drv.progress.Load() < int64(max(n/3, 1)) {
				select {
				case <-loadDone:
					return
				case <-ctx.Done():
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
			h.api.Kill()
			h.apiKills.Add(1)
			down := time.Now()
			h.event("round %d: api killed (SIGKILL) after %d approvals answered", r, drv.progress.Load())
			for {
				if err := h.api.Start(ctx); err == nil || ctx.Err() != nil {
					break
				} else {
					h.event("api restart failed: %v", err)
				}
			}
			h.event("round %d: api restarted (down %s)", r, time.Since(down).Round(time.Millisecond))
		}()
	}
	if outage > 0 {
		faults.Add(1)
		go func() {
			defer faults.Done()
			h.crm.down()
			h.event("round %d: Salesforce stand-in down", r)
			sleep(ctx, outage)
			if err := h.crm.up(); err != nil {
				h.event("Salesforce stand-in not back: %v", err)
				return
			}
			h.crmDown += outage
			h.event("round %d: Salesforce stand-in up again", r)
		}()
	}
	if mailOutage > 0 {
		faults.Add(1)
		go func() {
			defer faults.Done()
			h.smtp.Close()
			h.event("round %d: SMTP server down", r)
			sleep(ctx, mailOutage)
			if err := h.smtp.Up(); err != nil {
				h.event("SMTP server not back: %v", err)
				return
			}
			h.mailDown += mailOutage
			h.event("round %d: SMTP server up again", r)
		}()
	}
	if r == 1 {
		// Temporal and PostgreSQL faults, one at a time, spread over the
		// round by the stories answered.
		infra := h.infraFaults()
		faults.Add(1)
		go func() {
			defer faults.Done()
			for i, f := range infra {
				at := int64(max(n*(i+1)/(len(infra)+1), 1))
				for drv.progress.Load() < at {
					select {
					case <-loadDone:
					case <-ctx.Done():
						return
					case <-time.After(20 * time.Millisecond):
						continue
					}
					break
				}
				began := time.Now()
				if err := f.do(ctx); err != nil {
					h.event("round %d: %s failed: %v", r, f.name, err)
					continue
				}
				h.infra = append(h.infra, f.name)
				h.event("round %d: %s (back after %s)", r, f.name, time.Since(began).Round(time.Millisecond))
			}
		}()
	} else {
		// Calls answered in round 1 sent again with their keys while the
		// faults of this round go on.
		faults.Add(1)
		go func() {
			defer faults.Done()
			calls := drv.answered()
			rng := mrand.New(mrand.NewPCG(h.o.seed, 2))
			for len(calls) > 0 {
				select {
				case <-loadDone:
					return
				case <-ctx.Done():
					return
				case <-time.After(300 * time.Millisecond):
				}
				drv.repeat(ctx, calls[rng.IntN(len(calls))])
			}
		}()
	}
	drv.runClients(ctx, ops, h.o.clients)
	close(loadDone)
	h.event("round %d: clients done", r)
	faults.Wait()
	return ops
}

// Validity of an approval in a run, and when its renewal window opens after it.
const (
	validity     = time.Hour
	renewalOpens = 5 * time.Second
)

// temporalDB is the dev server's state file (it survives the restart).
func temporalDB(o options) string {
	if o.engine == "cluster" {
		return ""
	}
	return filepath.Join(o.dir, "temporal.db")
}

// infraFault is a fault of round 1 in Temporal or PostgreSQL: done, and
// recovered from, by do.
type infraFault struct {
	name string
	do   func(context.Context) error
}

// infraFaults are round 1's: on a dev server, the server killed and started
// again on its state file; on a cluster, the history service killed
// (SIGKILL) and started, the matching service killed and started, the
// frontend restarted (SIGTERM); then PostgreSQL restarted -m immediate (a
// crash) when the run owns it, and paused -pg-stall after.
func (h *harness) infraFaults() []infraFault {
	var out []infraFault
	if c := h.st.Cluster; c != nil {
		for _, name := range []string{"history", "matching"} {
			out = append(out, infraFault{"temporal " + name + " service killed (SIGKILL) and started", func(ctx context.Context) error {
				if err := c.Kill(name); err != nil {
					return err
				}
				return c.StartService(ctx, name)
			}})
		}
		out = append(out, infraFault{"temporal frontend service restarted (SIGTERM)", func(ctx context.Context) error { return c.Restart(ctx, "frontend") }})
	} else {
		out = append(out, infraFault{"temporal dev server killed (SIGKILL) and started on its state file", h.st.Temporal.Restart})
	}
	if h.pg != nil {
		out = append(out, infraFault{"postgres restarted (pg_ctl restart -m immediate)", func(ctx context.Context) error {
			if err := h.pg.Restart(ctx, "immediate"); err != nil {
				return err
			}
			if h.o.pgStall > 0 {
				if err := h.pg.Pause(); err != nil {
					return err
				}
				h.event("postgres stalled (SIGSTOP) for %s", h.o.pgStall)
				time.Sleep(h.o.pgStall)
				return h.pg.Resume()
			}
			return nil
		}})
	}
	return out
}

// cancel is an operator's temporal workflow cancel of the opportunity's
// workflow, asked until Temporal accepts it.
func (h *harness) cancel(ctx context.Context, id string) error {
	deadline := time.Now().Add(h.o.opTime)
	for {
		cctx, stop := context.WithTimeout(ctx, 10*time.Second)
		err := h.tc.CancelWorkflow(cctx, workflows.OpportunityWorkflowID(id), "")
		stop()
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		sleep(ctx, time.Second)
	}
}

// deleted waits until the read model shows the opportunity deleted.
func (h *harness) deleted(ctx context.Context, id string) error {
	deadline := time.Now().Add(h.o.opTime)
	for {
		var del bool
		err := h.db.QueryRow(ctx, `SELECT is_deleted FROM opportunities WHERE id = $1`, id).Scan(&del)
		if err == nil && del {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("not deleted after %s (%v)", h.o.opTime, err)
		}
		sleep(ctx, 200*time.Millisecond)
	}
}

// repeatAll sends every call again with its key, o.clients at a time.
func (h *harness) repeatAll(ctx context.Context, drv *driver, calls []*call) {
	queue := make(chan *call)
	var wg sync.WaitGroup
	for range h.o.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range queue {
				drv.repeat(ctx, c)
			}
		}()
	}
	for _, c := range calls {
		queue <- c
	}
	close(queue)
	wg.Wait()
}
