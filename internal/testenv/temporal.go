package testenv

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/interceptor"
	tlog "go.temporal.io/sdk/log"

	"oportuna/internal/dev/devenv"
	"oportuna/internal/payloadcodec"
	"oportuna/internal/stack/cluster"
)

// PayloadKeys is the payload key of the tests (PAYLOAD_KEYS syntax): the
// clients of TemporalClient encrypt with it, and tests that start bin/oportuna
// give it to the process. A test key, known to all: never a deployment's.
const PayloadKeys = devenv.PayloadKeys

// PayloadCodec is the codec of the tests' clients (PayloadKeys, plaintext refused).
func PayloadCodec() *payloadcodec.Codec { return mustCodec(payloadcodec.Options{}) }

// DataConverter is the data converter of the tests' clients, as the api's and
// the worker's: every payload encrypted with PayloadKeys.
func DataConverter() converter.DataConverter { return PayloadCodec().DataConverter() }

// FailureConverter is the failure converter of the tests' clients, as the
// api's and the worker's: failures' messages encrypted with PayloadKeys.
func FailureConverter() converter.FailureConverter { return PayloadCodec().FailureConverter() }

// ReplayDataConverter reads both the recorded plaintext histories and histories
// recorded with DataConverter (for a WorkflowReplayer).
func ReplayDataConverter() converter.DataConverter {
	return mustCodec(payloadcodec.Options{AcceptPlaintext: true}).DataConverter()
}

func mustCodec(opts payloadcodec.Options) *payloadcodec.Codec {
	keys, err := payloadcodec.ParseKeys(PayloadKeys)
	if err != nil {
		panic(err)
	}
	c, err := payloadcodec.New(keys, opts)
	if err != nil {
		panic(err)
	}
	return c
}

var (
	tOnce    sync.Once
	tAddress string
	tErr     error
)

// TunedDevServerFlags are the dev-server settings measured to cut update latency
// from ~100 ms to ~15 ms; the Makefile uses the same.
var TunedDevServerFlags = devenv.TunedDevServerFlags

// TemporalCLI finds the temporal binary (devenv.TemporalCLI).
func TemporalCLI() (string, error) { return devenv.TemporalCLI() }

// TemporalAddress starts (once per test binary) the Temporal server of the
// tests on free ports and returns its frontend address: a dev server with an
// in-memory store, or with TEMPORAL_ENGINE=cluster a production-shaped
// cluster (startEngine). Every workflow started on a dev server of its own
// from now on is terminated when the test ends (isolate.go): for tests whose
// workflows are started by another process.
func TemporalAddress(t testing.TB) string {
	t.Helper()
	addr := temporalAddress(t)
	sweepOwnServer(t, addr)
	return addr
}

func temporalAddress(t testing.TB) string {
	t.Helper()
	NeedsServices(t)
	tOnce.Do(func() { tAddress, tErr = startEngine() })
	if tErr != nil {
		fatalf(t, "temporal: %v", tErr)
	}
	return tAddress
}

// ownServer reports whether addr is a dev server this binary started.
func ownServer(addr string) bool {
	tMu.Lock()
	defer tMu.Unlock()
	if addr == tAddress {
		return true
	}
	for _, a := range tOthers {
		if a == addr {
			return true
		}
	}
	return false
}

// TemporalClient is a client of the test server, closed when the test ends.
// It encrypts payloads as the api's and the worker's do (DataConverter).
func TemporalClient(t testing.TB) client.Client {
	t.Helper()
	return dialTemporal(t, temporalAddress(t), "default", PayloadCodec())
}

// OwnNamespaces is how many namespaces a dev server of the tests is started
// with besides "default", each for one test that runs beside others
// (ParallelTemporalClient).
const OwnNamespaces = 48

// nsTaken counts the namespaces ParallelTemporalClient gave out.
var nsTaken atomic.Int32

func ownNamespace(i int) string { return fmt.Sprintf("test-%02d", i) }

// ParallelTemporalClient is TemporalClient on a namespace of the test's own,
// one the shared dev server was started with and no other test gets, and the
// namespace's name; the test then runs beside the package's other such tests
// (t.Parallel). Its workers, task queues and workflows are its own: a
// workflow it leaves running reaches no other test's worker. With
// TEMPORAL_ENGINE=cluster, or once the OwnNamespaces are given out, it is
// TemporalClient on "default" and the test runs alone, as those do.
func ParallelTemporalClient(t *testing.T) (client.Client, string) {
	t.Helper()
	addr := temporalAddress(t)
	if engine, _ := TemporalEngine(); engine != "dev" {
		return TemporalClient(t), "default"
	}
	n := int(nsTaken.Add(1))
	if n > OwnNamespaces {
		return TemporalClient(t), "default"
	}
	t.Parallel()
	ns := ownNamespace(n)
	return dialTemporal(t, addr, ns, PayloadCodec()), ns
}

// PlainTemporalClient is a client of the test server without the payload
// codec: what someone reaching the Temporal frontend without the keys sees and sends.
func PlainTemporalClient(t testing.TB) client.Client {
	t.Helper()
	return dialTemporal(t, temporalAddress(t), "default", nil)
}

var (
	tMu     sync.Mutex
	tOthers = map[string]string{} // extra flags → address of the dev server started with them
)

// TemporalClientWith is TemporalClient on a dev server of its own, started
// (once per test binary and set of flags) with extra start-dev flags, for a
// setting the shared server must not have, e.g. "--dynamic-config-value",
// "limit.historyCount.suggestContinueAsNew=40". Each such server costs a few
// seconds to start: use it only for what the shared one cannot do. With
// TEMPORAL_ENGINE=cluster it is a cluster of its own whose dynamic config has
// those values (only --dynamic-config-value flags have an equivalent there).
func TemporalClientWith(t testing.TB, flags ...string) client.Client {
	t.Helper()
	NeedsServices(t)
	key := strings.Join(flags, "\x00")
	tMu.Lock()
	addr, ok := tOthers[key]
	if !ok {
		var err error
		if addr, err = startEngine(flags...); err != nil {
			tMu.Unlock()
			fatalf(t, "temporal %v: %v", flags, err)
		}
		tOthers[key] = addr
	}
	tMu.Unlock()
	return dialTemporal(t, addr, "default", PayloadCodec())
}

// dialTemporal dials namespace on addr with the codec's data and failure
// converters, as temporalclient.Options does; codec nil: the SDK's defaults
// (plaintext). The workflows the client starts end with the test (isolate.go).
func dialTemporal(t testing.TB, addr, namespace string, codec *payloadcodec.Codec) client.Client {
	t.Helper()
	rec := newStartRecorder()
	opts := client.Options{HostPort: addr, Namespace: namespace, Logger: quietLogger(),
		Interceptors: []interceptor.ClientInterceptor{rec}}
	if codec != nil {
		opts.DataConverter, opts.FailureConverter = codec.DataConverter(), codec.FailureConverter()
	}
	c, err := client.Dial(opts)
	if err != nil {
		fatalf(t, "dial temporal: %v", err)
	}
	t.Cleanup(c.Close)
	if namespace == "default" { // a namespace of the test's own is never used again
		sweepOwnServer(t, addr)
	}
	t.Cleanup(func() { rec.endAll(t, c) }) // before the client closes
	return c
}

func quietLogger() tlog.Logger {
	return tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
}

// TemporalEngine is the Temporal server the tests run on, from TEMPORAL_ENGINE:
// "dev" (the default) is `temporal server start-dev` with an in-memory store;
// "cluster" is temporal-server with PostgreSQL, its four services as separate
// processes and 512 history shards, as deployed (internal/stack/cluster,
// docs/operations.md "Production Temporal (cluster)").
func TemporalEngine() (string, error) {
	switch e := os.Getenv("TEMPORAL_ENGINE"); e {
	case "", "dev":
		return "dev", nil
	case "cluster":
		return e, nil
	default:
		return "", fmt.Errorf("TEMPORAL_ENGINE=%q: want dev or cluster", e)
	}
}

// startEngine starts the TemporalEngine with the dev-server flags extra.
func startEngine(extra ...string) (string, error) {
	engine, err := TemporalEngine()
	if err != nil {
		return "", err
	}
	if engine == "cluster" {
		return startTemporalCluster(extra)
	}
	return startTemporal(extra...)
}

// startTemporalCluster starts a cluster of the test binary's own (a fresh state, as a
// dev server's: the packages' tests share task queue and namespace names):
// its own PostgreSQL without fsync, namespace "default" (the tests' clients
// dial it) without the portal's search attributes (the worker registers them,
// as on a dev server), search attributes read without a cache, and the
// dev-server flags as dynamic config. Its logs
// go to $TEMPORAL_CLUSTER_LOGS/<binary>-* when set (kept), else to a
// temporary folder removed when the tests end. Main stops it.
func startTemporalCluster(flags []string) (string, error) {
	dyn, err := cluster.DynamicConfigFromFlags(flags)
	if err != nil {
		return "", err
	}
	cli, err := TemporalCLI()
	if err != nil {
		return "", err
	}
	keep := os.Getenv("TEMPORAL_CLUSTER_LOGS")
	if keep != "" {
		if err := os.MkdirAll(keep, 0o755); err != nil {
			return "", err
		}
	}
	dir, err := os.MkdirTemp(keep, strings.TrimSuffix(filepath.Base(os.Args[0]), ".test")+"-temporal-")
	if err != nil {
		return "", err
	}
	// The postgres user runs the server when the tests run as root.
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	// The tests register search attributes while running (the worker at start,
	// some tests themselves) and use them at once, as a dev server allows: its
	// services share one cache. A cluster's history reads them from a cache
	// refreshed every 60 s and fails the workflow tasks that set an attribute
	// it does not know yet (an update then fails: "unexpected workflow task
	// failure"). Temporal's setting for tests reads them afresh every time; a
	// deployment registers them before its workers start (setup.sh).
	dyn["system.forceSearchAttributesCacheRefreshOnRead"] = true
	c, err := cluster.Start(ctx, cluster.Options{Dir: dir, TemporalCLI: cli, Namespace: "default", Ephemeral: true, DynamicConfig: dyn,
		PostgresSettings: []string{"fsync=off", "synchronous_commit=off", "full_page_writes=off"}})
	if err != nil {
		return "", fmt.Errorf("%w (logs: %s)", err, dir)
	}
	AtExit(func() {
		c.Stop()
		if keep == "" {
			_ = os.RemoveAll(dir)
		}
	})
	return c.Addr, nil
}

// startTemporal starts a dev server with TunedDevServerFlags and extra; Main
// stops it. The CLI picks its history, matching and worker services' ports
// itself (a port free when picked, bound a moment later): on a busy machine
// another process may take one meanwhile, and the server then exits at once
// (matching's gRPC listener missing). Such a start is tried again on new
// ports, up to three times in all.
func startTemporal(extra ...string) (string, error) {
	bin, err := TemporalCLI()
	if err != nil {
		return "", err
	}
	for attempt := 1; ; attempt++ {
		addr, early, err := startTemporalOnce(bin, extra)
		if err == nil || !early || attempt == 3 {
			return addr, err
		}
		fmt.Fprintf(os.Stderr, "testenv: %v; starting it again on new ports\n", err)
	}
}

// startTemporalOnce starts one dev server on free ports and waits until a
// client connects; early reports a server that exited before that.
func startTemporalOnce(bin string, extra []string) (addr string, early bool, err error) {
	var ports [3]int
	for i := range ports {
		if ports[i], err = FreePort(); err != nil {
			return "", false, err
		}
	}
	args := append([]string{"server", "start-dev", "--headless", "--ip", "127.0.0.1",
		"--port", strconv.Itoa(ports[0]), "--http-port", strconv.Itoa(ports[1]), "--metrics-port", strconv.Itoa(ports[2]),
		"--log-level", "error"}, TunedDevServerFlags...)
	for i := 1; i <= OwnNamespaces; i++ {
		args = append(args, "--namespace", ownNamespace(i))
	}
	args = append(args, extra...)
	cmd := exec.Command(bin, args...)
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", false, err
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	AtExit(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	addr = fmt.Sprintf("127.0.0.1:%d", ports[0])
	deadline := time.Now().Add(90 * time.Second)
	for {
		select {
		case <-done:
			return "", true, fmt.Errorf("temporal dev server exited early")
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		c, err := client.DialContext(ctx, client.Options{HostPort: addr, Namespace: "default"})
		cancel()
		if err == nil {
			c.Close()
			return addr, false, nil
		}
		if time.Now().After(deadline) {
			return "", false, fmt.Errorf("temporal dev server not ready at %s: %w", addr, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
