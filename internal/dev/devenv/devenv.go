// Package devenv is what the tests (internal/testenv) and the programs that
// start a stack of their own (internal/stack: chaos, the load test, make
// cluster) share about a development machine: where the temporal CLI is, the
// dev server's tuned flags, the test payload key, and free ports. It imports
// no test package; the production binary never imports it.
package devenv

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// PayloadKeys is the payload key of the tests and of the stacks they start
// (PAYLOAD_KEYS syntax): their Temporal clients encrypt with it, and the
// bin/oportuna processes they start are given it. A test key, known to all:
// never a deployment's.
const PayloadKeys = "test-1:b3BvcnR1bmEtdGVzdC1rZXktbm90LWEtc2VjcmV0ISE="

// TunedDevServerFlags are the dev-server settings measured to cut update
// latency from ~100 ms to ~15 ms; the Makefile uses the same.
var TunedDevServerFlags = []string{
	"--sqlite-pragma", "journal_mode=wal",
	"--sqlite-pragma", "synchronous=normal",
	"--dynamic-config-value", "history.transferProcessorMaxPollRPS=1000",
	"--dynamic-config-value", "matching.numTaskqueueReadPartitions=1",
	"--dynamic-config-value", "matching.numTaskqueueWritePartitions=1",
}

// TemporalCLI finds the temporal binary: TEMPORAL_CLI, else PATH, else GOBIN,
// GOPATH/bin or ~/go/bin.
func TemporalCLI() (string, error) {
	if p := os.Getenv("TEMPORAL_CLI"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath("temporal"); err == nil {
		return p, nil
	}
	var dirs []string
	if gobin := os.Getenv("GOBIN"); gobin != "" {
		dirs = append(dirs, gobin)
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		for _, p := range filepath.SplitList(strings.TrimRight(string(out), "\r\n")) {
			dirs = append(dirs, filepath.Join(p, "bin"))
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, "go", "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "temporal")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("temporal CLI not found: run 'make tools' (go install github.com/temporalio/cli/cmd/temporal@v1.5.1) or set TEMPORAL_CLI")
}

// FreePort finds a free TCP port on the loopback interface in [20000, 32768),
// below Linux's ephemeral range (32768–60999): a port from that range, free
// when asked, can be taken before its server binds it by any outgoing
// connection's local port or by another process's bind to port 0, which on a
// machine running several test binaries at once happens. It starts at a
// random port (several processes may be picking at once), never hands out
// the same port twice in one process, nor one another of the project's
// processes (test binaries, scripts/lib.sh's free_port) claimed in the last
// ClaimTTL (ClaimPort).
func FreePort() (int, error) {
	const lo, n = 20000, 32768 - 20000
	var b [2]byte
	_, _ = rand.Read(b[:])
	start := int(b[0])<<8 | int(b[1])
	portsMu.Lock()
	defer portsMu.Unlock()
	for i := range n {
		port := lo + (start+i)%n
		if handedOut[port] {
			continue
		}
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			continue
		}
		l.Close()
		handedOut[port] = true
		if !ClaimPort(port) {
			continue
		}
		return port, nil
	}
	return 0, errors.New("no free loopback port in [20000, 32768)")
}

// ClaimTTL is how long a port handed out stays the claimer's: time enough for
// its server to bind it (from then on the bind test passes it over), short
// enough that claims of processes gone do not pile up.
const ClaimTTL = 2 * time.Minute

// ClaimPort claims port for this process against the project's others: a
// file $TMPDIR/oportuna-ports/<port>, created only if absent (O_EXCL) or older
// than ClaimTTL. Two test binaries, or a test binary and a script, picking at
// the same moment would otherwise both find the port free and the second
// server to start would fail to bind. Where the folder cannot be written,
// it claims nothing and says yes.
func ClaimPort(port int) bool {
	dir := filepath.Join(os.TempDir(), "oportuna-ports")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return true
	}
	name := filepath.Join(dir, strconv.Itoa(port))
	for range 2 {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return true
		}
		if !errors.Is(err, fs.ErrExist) {
			return true
		}
		if st, err := os.Stat(name); err == nil && time.Since(st.ModTime()) < ClaimTTL {
			return false
		}
		_ = os.Remove(name) // a claim of long ago: its server bound the port or never will
	}
	return false
}

var (
	portsMu   sync.Mutex
	handedOut = map[int]bool{}
)

// PGBin finds a PostgreSQL server program (initdb, pg_ctl): PATH first, then
// Debian's layout (the newest version); the error says which was not found.
func PGBin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
	if len(matches) > 0 {
		return matches[len(matches)-1], nil
	}
	return "", fmt.Errorf("%s not found", name)
}
