// Command loadtest measures the portal's calls through its HTTP API and, on
// the same Temporal server in the same run, the bare engine they are built
// on (docs/operations.md, "Load test"). It registers opportunities as the
// demo reseller's sellers, with 1 client and then with each -clients count,
// approves them as the representative (Idempotency-Key), reads lists,
// details and the dashboard, and prints p50/p95/p99, max and throughput per
// call as a Markdown table, with each write's ratio to the engine alone:
// Update-with-Start of a workflow whose update runs one no-op activity (a
// registration's cost to the engine) and an Update with one no-op activity
// (a decision's). Any failed call or unexpected answer is counted and
// printed and makes the exit status 1.
//
// By default it starts its own stack on free ports (internal/stack): a fresh
// database on the server of $OPORTUNA_TEST_DATABASE_URL or $DATABASE_URL
// (dropped at the end), a tuned Temporal dev server or, with -engine cluster,
// a production-shaped Temporal cluster with its databases on the same server
// (internal/stack/cluster), `oportuna migrate` and
// `oportuna seed`, the Salesforce stand-in as its own process (`oportuna
// crm-sim`), an SMTP server that accepts every e-mail, and -replicas pairs of
// `oportuna api` and `oportuna worker` processes; it then checks that no
// opportunity was registered twice, every approved one is approved once in
// the read model, and the CRM holds one record of it. With -api it measures a
// running stack instead (-temporal-address for the engine, -database-url for
// the checks). `make loadtest` runs it; LOADTEST_FLAGS adds flags.
package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/client"

	"oportuna/internal/stack"
	"oportuna/internal/stack/cluster"
)

type options struct {
	n               int
	clients         []int
	readClients     int
	warmup          int
	limit           time.Duration
	replicas        int
	compareReplicas bool
	bin             string
	crmSim          string
	temporalCLI     string
	databaseURL     string
	apis            []string
	temporalAddress string
	namespace       string
	host            string
	brand           string
	sellers         []string
	representative  string
	password        string
	dir             string
	jsonPath        string
	keep            bool
	temporalDB      string
	engine          string
}

func main() {
	var o options
	var clients, apis, sellers string
	flag.IntVar(&o.n, "n", 200, "calls in each phase: registrations, approvals, engine calls, and each kind of read")
	flag.StringVar(&clients, "clients", "8,32", "concurrent clients of the phases after the one with 1 client (comma-separated)")
	flag.IntVar(&o.readClients, "read-clients", 8, "concurrent clients of the reads")
	flag.IntVar(&o.warmup, "warmup", 5, "unmeasured registrations, approvals and engine calls before the phases (connections, caches)")
	flag.DurationVar(&o.limit, "duration", 90*time.Second, "longest phase: no new call after this long (the table counts what was answered)")
	flag.IntVar(&o.replicas, "replicas", 1, "pairs of `oportuna api` and `oportuna worker` processes (a started stack); the calls go to every API in turn")
	flag.BoolVar(&o.compareReplicas, "compare-replicas", false, "after the table, register and approve with the largest -clients on 1 pair, start a second pair (or up to -replicas) and do it again; print both")
	flag.StringVar(&o.bin, "bin", "bin/oportuna", "the oportuna binary")
	flag.StringVar(&o.crmSim, "crm-sim", "", "the command that serves the Salesforce stand-in (default: <bin> crm-sim)")
	flag.StringVar(&o.temporalCLI, "temporal", "", "the temporal CLI (default: $TEMPORAL_CLI, PATH, GOPATH/bin)")
	flag.StringVar(&o.databaseURL, "database-url", "", "started stack: a PostgreSQL server where a database may be created (default: $OPORTUNA_TEST_DATABASE_URL, then $DATABASE_URL); with -api: the stack's database, for the checks (none: no checks)")
	flag.StringVar(&apis, "api", "", "base URLs of a running stack's APIs (comma-separated), e.g. http://localhost:8080; nothing is started")
	flag.StringVar(&o.temporalAddress, "temporal-address", "", "with -api: the running stack's Temporal frontend, for the engine-alone calls (required)")
	flag.StringVar(&o.namespace, "namespace", "default", "with -api: the Temporal namespace")
	flag.StringVar(&o.host, "host", "", "Host header of the API calls (default: the URL's)")
	flag.StringVar(&o.brand, "brand", "nordata", "the brand (company header and login)")
	flag.StringVar(&sellers, "sellers", "", "the sellers who register, comma-separated (default: vendedor1@<brand>.demo,vendedor2@<brand>.demo)")
	flag.StringVar(&o.representative, "representative", "", "the representative who approves (default: representante@<brand>.demo)")
	flag.StringVar(&o.password, "password", "Oportuna@2026", "the password of those logins")
	flag.StringVar(&o.dir, "dir", "", "where the logs go (default .data/loadtest/<time>)")
	flag.StringVar(&o.jsonPath, "json", "", "also write the results as JSON to this file (- : standard output)")
	flag.BoolVar(&o.keep, "keep", false, "keep the started stack's database (its URL is printed)")
	flag.StringVar(&o.temporalDB, "temporal-db", "", "keep the started dev server's state in this SQLite file (default: in memory), e.g. to measure what a workflow stores")
	flag.StringVar(&o.engine, "engine", "dev", "the started stack's Temporal: dev (a tuned dev server) or cluster (temporal-server with PostgreSQL, four services, 512 shards; docs/operations.md)")
	flag.Parse()
	var err error
	if o.clients, err = parseCounts(clients); err != nil {
		fail(fmt.Errorf("-clients: %w", err))
	}
	o.apis = splitList(apis)
	o.sellers = splitList(sellers)
	if len(o.sellers) == 0 {
		o.sellers = []string{"vendedor1@" + o.brand + ".demo", "vendedor2@" + o.brand + ".demo"}
	}
	if o.representative == "" {
		o.representative = "representante@" + o.brand + ".demo"
	}
	if o.n < 1 || o.readClients < 1 || o.replicas < 1 || o.warmup < 0 || o.limit <= 0 {
		fail(errors.New("-n, -read-clients and -replicas must be at least 1, -warmup at least 0, -duration positive"))
	}
	if o.engine != "dev" && o.engine != "cluster" {
		fail(fmt.Errorf("-engine %q: want dev or cluster", o.engine))
	}
	if o.engine == "cluster" && o.temporalDB != "" {
		fail(errors.New("-temporal-db is the dev server's file: not with -engine cluster"))
	}
	if len(o.apis) > 0 && o.temporalAddress == "" {
		fail(errors.New("-api needs -temporal-address (the engine-alone calls run on the same server)"))
	}
	if len(o.apis) > 0 && (o.compareReplicas || o.replicas > 1) {
		fail(errors.New("-replicas and -compare-replicas start processes: not with -api (give every API of the running stack in -api)"))
	}
	if len(o.apis) == 0 && o.databaseURL == "" {
		o.databaseURL = stack.AdminURLFromEnv(os.Getenv)
	}
	if o.dir == "" {
		o.dir = stack.RunDir("loadtest")
	}
	ctx, stop := stack.CommandContext()
	defer stop()
	code, err := run(ctx, o)
	if err != nil {
		fail(err)
	}
	os.Exit(code)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "loadtest:", err)
	os.Exit(2)
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, strings.TrimRight(f, "/"))
		}
	}
	return out
}

func parseCounts(s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive number", f)
		}
		if n > 1 && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// target is the stack under test.
type target struct {
	apis            []string
	temporalAddress string
	namespace       string
	databaseURL     string // for the checks; empty: none
	version         string
	// addPair starts one more api/worker pair and answers its API's URL
	// (nil: a running stack, nothing to start).
	addPair func(context.Context) (string, error)
	close   func()
}

// loadtest is one run.
type loadtest struct {
	o       options
	t       *target
	portal  *portal
	eng     *engine
	tokens  map[string]string
	run     int64 // random: keys, customers and workflow ids of this run
	started time.Time

	customers atomic.Int64 // customers registered so far (each its own CNPJ)
	mu        sync.Mutex
	opps      []*opp   // registered (answered as expected)
	pending   []*opp   // registered, not yet given to an approval phase
	engIDs    []string // engine workflows started
	engIdle   []string // engine workflows not yet given an update phase

	warm    []*Result // warm-up, not in the table
	results []*Result
	scale   []*Result // -compare-replicas
	history *historySize
}

func run(ctx context.Context, o options) (int, error) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	lt := &loadtest{o: o, run: int64(binary.BigEndian.Uint64(b[:]) % 100_000_000), tokens: map[string]string{}}
	var err error
	if len(o.apis) > 0 {
		lt.t = &target{apis: o.apis, temporalAddress: o.temporalAddress, namespace: o.namespace, databaseURL: o.databaseURL, close: func() {}}
	} else {
		pairs := o.replicas
		if o.compareReplicas {
			pairs = 1
		}
		if lt.t, err = startTarget(ctx, o, pairs); err != nil {
			return 0, err
		}
	}
	defer lt.t.close()
	maxClients := slices.Max(append([]int{1, o.readClients}, o.clients...))
	lt.portal = newPortal(lt.t.apis, o.host, o.brand, maxClients)
	for _, u := range append([]string{o.representative}, o.sellers...) {
		if lt.tokens[u], err = lt.portal.login(ctx, u, o.password); err != nil {
			return 0, err
		}
	}
	tc, err := client.Dial(client.Options{HostPort: lt.t.temporalAddress, Namespace: lt.t.namespace, Logger: stack.QuietTemporalLogger()})
	if err != nil {
		return 0, fmt.Errorf("temporal at %s: %w", lt.t.temporalAddress, err)
	}
	defer tc.Close()
	if lt.eng, err = startEngine(tc, fmt.Sprintf("loadtest-engine-%d", lt.run)); err != nil {
		return 0, err
	}
	defer lt.eng.stop()

	lt.started = time.Now() // after the seed: the checks look at what was registered since
	if err := lt.phases(ctx); err != nil {
		return 0, err
	}
	var findings []string
	if lt.t.databaseURL != "" {
		if findings, err = lt.check(ctx); err != nil {
			return 0, err
		}
	}
	lt.history = lt.historySizes(ctx, tc, 20)
	if len(o.apis) > 0 {
		lt.eng.finish(ctx, lt.engIDs)
	}
	failed := lt.report(os.Stdout, findings)
	if o.jsonPath != "" {
		if err := lt.writeJSON(findings); err != nil {
			return 0, err
		}
	}
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	if failed {
		return 1, nil
	}
	return 0, nil
}

// phases runs the warm-up, the writes with 1 client and with each -clients,
// the reads, and the scale-out comparison.
func (lt *loadtest) phases(ctx context.Context) error {
	o := lt.o
	levels := append([]int{1}, o.clients...)
	if o.warmup > 0 {
		slog.Info("warm-up", "calls", o.warmup)
		lt.warm = append(lt.warm, lt.engineUwS(ctx, "warm", 1, o.warmup), lt.registration(ctx, "warm", 1, o.warmup),
			lt.engineUpdate(ctx, 1, o.warmup), lt.approval(ctx, 1, o.warmup))
	}
	for _, c := range levels {
		e := lt.engineUwS(ctx, fmt.Sprintf("c%d", c), c, o.n)
		r := lt.registration(ctx, fmt.Sprintf("c%d", c), c, o.n)
		compare(r, e)
		lt.results = append(lt.results, r, e)
	}
	for _, c := range levels {
		e := lt.engineUpdate(ctx, c, o.n)
		r := lt.approval(ctx, c, o.n)
		compare(r, e)
		lt.results = append(lt.results, r, e)
	}
	lt.results = append(lt.results, lt.reads(ctx)...)
	if !o.compareReplicas || ctx.Err() != nil {
		return ctx.Err()
	}
	// Scale-out: the same writes at the largest concurrency, on 1 pair and
	// then on more, one after the other on the same Temporal and database.
	c := slices.Max(levels)
	lt.scale = append(lt.scale, lt.registration(ctx, "s1", c, o.n), lt.approval(ctx, c, o.n))
	for len(lt.t.apis) < max(2, o.replicas) {
		base, err := lt.t.addPair(ctx)
		if err != nil {
			return err
		}
		lt.t.apis = append(lt.t.apis, base)
	}
	lt.portal.bases = lt.t.apis
	lt.scale = append(lt.scale, lt.registration(ctx, "s2", c, o.n), lt.approval(ctx, c, o.n))
	return ctx.Err()
}

func (lt *loadtest) pairs() int { return len(lt.portal.bases) }

func clientsLabel(c int) string {
	if c == 1 {
		return "1 client"
	}
	return fmt.Sprintf("%d clients", c)
}

// registration registers n opportunities with clients clients.
func (lt *loadtest) registration(ctx context.Context, tag string, clients, n int) *Result {
	slog.Info("registration", "clients", clients, "n", n, "api_replicas", lt.pairs())
	r := runPhase(ctx, "registration (Update-with-Start), "+clientsLabel(clients), "registration", clients, n, lt.o.limit, func(ctx context.Context, i int) error {
		seller := lt.o.sellers[i%len(lt.o.sellers)]
		key := fmt.Sprintf("loadtest-%d-%s-%d", lt.run, tag, i)
		o, err := lt.portal.register(ctx, lt.tokens[seller], seller, key, lt.run, int(lt.customers.Add(1)))
		if err != nil {
			return err
		}
		enqueue(&lt.mu, &lt.opps, &lt.pending, o)
		return nil
	})
	r.Replicas = lt.pairs()
	return r
}

// enqueue appends v, under mu, to all the items (*all) and to the queue of
// those the next phase takes (*queue, see takeFirst).
func enqueue[T any](mu *sync.Mutex, all, queue *[]T, v T) {
	mu.Lock()
	defer mu.Unlock()
	*all = append(*all, v)
	*queue = append(*queue, v)
}

// takeFirst removes up to n items from the front of *queue (under mu) and
// answers them.
func takeFirst[T any](mu *sync.Mutex, queue *[]T, n int) []T {
	mu.Lock()
	defer mu.Unlock()
	batch := (*queue)[:min(n, len(*queue))]
	*queue = (*queue)[len(batch):]
	return batch
}

// approval approves up to n of the registered opportunities not yet approved.
func (lt *loadtest) approval(ctx context.Context, clients, n int) *Result {
	batch := takeFirst(&lt.mu, &lt.pending, n)
	slog.Info("approval", "clients", clients, "n", len(batch), "api_replicas", lt.pairs())
	r := runPhase(ctx, "approval (Update + CRM + read model), "+clientsLabel(clients), "approval", clients, len(batch), lt.o.limit, func(ctx context.Context, i int) error {
		if err := lt.portal.approve(ctx, lt.tokens[lt.o.representative], batch[i]); err != nil {
			return err
		}
		lt.mu.Lock()
		batch[i].approved = true
		lt.mu.Unlock()
		return nil
	})
	r.Replicas = lt.pairs() // fewer than n when a registration phase failed or hit -duration: its calls column says so
	return r
}

// engineUwS starts n engine workflows with their first update.
func (lt *loadtest) engineUwS(ctx context.Context, tag string, clients, n int) *Result {
	slog.Info("engine: update-with-start", "clients", clients, "n", n)
	return runPhase(ctx, "engine: Update-with-Start + 1 activity, "+clientsLabel(clients), "engine-uws", clients, n, lt.o.limit, func(ctx context.Context, i int) error {
		id := fmt.Sprintf("loadtest-engine-%d-%s-%d", lt.run, tag, i)
		if err := lt.eng.updateWithStart(ctx, id); err != nil {
			return err
		}
		enqueue(&lt.mu, &lt.engIDs, &lt.engIdle, id)
		return nil
	})
}

// engineUpdate sends one more update to n of the engine workflows.
func (lt *loadtest) engineUpdate(ctx context.Context, clients, n int) *Result {
	batch := takeFirst(&lt.mu, &lt.engIdle, n)
	slog.Info("engine: update", "clients", clients, "n", len(batch))
	return runPhase(ctx, "engine: Update + 1 activity, "+clientsLabel(clients), "engine-update", clients, len(batch), lt.o.limit, func(ctx context.Context, i int) error {
		return lt.eng.update(ctx, batch[i])
	})
}

// reads runs each read the web app makes, n times with -read-clients clients.
func (lt *loadtest) reads(ctx context.Context) []*Result {
	rep := lt.tokens[lt.o.representative]
	seller := lt.o.sellers[0]
	lt.mu.Lock()
	opps := append([]*opp(nil), lt.opps...)
	lt.mu.Unlock()
	const page = "?amount=10&page=1&createdAt=desc"
	type read struct {
		name string
		fn   callFunc
	}
	list := func(path, token string) callFunc {
		return func(ctx context.Context, i int) error {
			var out struct {
				Result []json.RawMessage `json:"result"`
				Total  int               `json:"total"`
			}
			if err := lt.portal.call(ctx, "GET", path+page, token, "", nil, 200, &out); err != nil {
				return err
			}
			if len(out.Result) == 0 || out.Total == 0 {
				return fmt.Errorf("GET %s: an empty page", path)
			}
			return nil
		}
	}
	reads := []read{
		{"list: representative, 10 newest (/opportunity/all)", list("/api/opportunity/all", rep)},
		{"list: seller, 10 newest (/opportunity/user)", list("/api/opportunity/user", lt.tokens[seller])},
		{"detail (/opportunity/id/{id})", func(ctx context.Context, i int) error {
			if len(opps) == 0 {
				return errors.New("no opportunity registered to read")
			}
			id := opps[i%len(opps)].id
			var out struct {
				Data []struct {
					ID string `json:"id"`
				} `json:"data"`
			}
			if err := lt.portal.call(ctx, "GET", "/api/opportunity/id/"+id, rep, "", nil, 200, &out); err != nil {
				return err
			}
			if len(out.Data) != 1 || out.Data[0].ID != id {
				return fmt.Errorf("GET /api/opportunity/id/%s: not that opportunity", id)
			}
			return nil
		}},
		{"dashboard (/dashboard/status)", func(ctx context.Context, i int) error {
			return lt.portal.call(ctx, "GET", "/api/dashboard/status?brand="+lt.o.brand, rep, "", nil, 200, nil)
		}},
	}
	var out []*Result
	for _, rd := range reads {
		slog.Info("read", "call", rd.name, "clients", lt.o.readClients, "n", lt.o.n)
		r := runPhase(ctx, rd.name+", "+clientsLabel(lt.o.readClients), "read", lt.o.readClients, lt.o.n, lt.o.limit, rd.fn)
		r.Replicas = lt.pairs()
		out = append(out, r)
	}
	return out
}

func (lt *loadtest) header() []string {
	temporal := "one Temporal dev server (tuned)"
	if lt.o.engine == "cluster" {
		temporal = "a Temporal cluster (temporal-server " + cluster.ServerVersion + ": frontend, history, matching and worker processes, 512 history shards, its state on the same PostgreSQL)"
	}
	mode := fmt.Sprintf("started stack: %d api + %d worker process(es), the Salesforce stand-in as its own process, %s and one PostgreSQL", lt.pairs(), lt.pairs(), temporal)
	if len(lt.o.apis) > 0 {
		mode = "running stack at " + strings.Join(lt.o.apis, ", ")
	}
	if lt.o.compareReplicas {
		mode = fmt.Sprintf("started stack: 1 api + 1 worker process for the table, %d of each for the scale-out, the Salesforce stand-in as its own process, %s and one PostgreSQL", lt.pairs(), temporal)
	}
	out := []string{
		fmt.Sprintf("loadtest %s · %s · %d CPU · Go %s", time.Now().UTC().Format("2006-01-02 15:04 UTC"), strings.TrimSpace(lt.t.version), runtime.NumCPU(), runtime.Version()),
		mode,
		fmt.Sprintf("-n %d per phase, clients 1 then %v, reads with %d clients, brand %s", lt.o.n, lt.o.clients, lt.o.readClients, lt.o.brand),
	}
	return out
}
