// Package testenv gives tests the real services they run against: a PostgreSQL
// database (fresh per test, migrated) and a Temporal dev server (one per test
// binary, on free ports). Packages that use it call Main from TestMain.
//
// PostgreSQL: OPORTUNA_TEST_DATABASE_URL or DATABASE_URL names a server whose
// user may create databases; without either, a throw-away cluster is started with
// the machine's initdb/pg_ctl (as the postgres user when running as root).
// Temporal: the CLI from TEMPORAL_CLI, PATH, GOBIN or GOPATH/bin.
package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"oportuna/internal/dev/devenv"
)

var (
	cleanupsMu sync.Mutex
	cleanups   []func()
)

// AtExit runs f when Main has run the tests (the last added first): for what
// a test binary's tests share, a server or a build, that no one test owns.
// Safe from parallel tests.
func AtExit(f func()) {
	cleanupsMu.Lock()
	defer cleanupsMu.Unlock()
	cleanups = append(cleanups, f)
}

// Main runs the tests and then stops every service this package started.
func Main(m *testing.M) {
	code := m.Run()
	cleanupsMu.Lock()
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	cleanupsMu.Unlock()
	os.Exit(code)
}

// MainQuiet is Main with the default slog logger discarding: for packages
// whose tests run the portal's parts, which log every request and activity.
func MainQuiet(m *testing.M) {
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	Main(m)
}

// FreePort asks the kernel for a free TCP port on the loopback interface.
func FreePort() (int, error) { return devenv.FreePort() }

func randomName(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// Context is a test's context, cancelled when the test ends.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return ctx
}

// WaitFor polls ok every 50 ms until it holds, and fails the test when it
// still does not after within; what names the awaited condition.
func WaitFor(t testing.TB, within time.Duration, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after %v", what, within)
		}
	}
}

// NeedsServices skips t under go test -short: make check runs the unit tests
// that need no service (go test -short); make test runs every test. Every
// helper of this package that starts or reaches PostgreSQL, Temporal or
// Postfix calls it; a test that starts such a service itself calls it too.
func NeedsServices(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL, Temporal or Postfix: -short (make check) runs only the tests that need no service")
	}
}

func fatalf(t testing.TB, format string, args ...any) {
	t.Helper()
	t.Fatalf("testenv: "+format, args...)
}
