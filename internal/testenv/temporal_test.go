package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
)

// TestADevServerThatExitsAtOnceIsStartedAgain: the CLI picks its other
// services' ports itself, and a port taken before it binds it makes the
// server exit at once (CI saw matching's listener missing). A CLI that
// exits on its first start is started again, and the server then serves.
func TestADevServerThatExitsAtOnceIsStartedAgain(t *testing.T) {
	NeedsServices(t)
	real, err := TemporalCLI()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	count := filepath.Join(dir, "starts")
	script := filepath.Join(dir, "temporal")
	// The first start exits as the crashed one did; the next ones are the real CLI.
	body := "#!/bin/sh\necho start >> " + count + "\n" +
		"[ \"$(wc -l < " + count + ")\" -eq 1 ] && { echo 'panic: matching listener' >&2; exit 2; }\n" +
		"exec " + real + " \"$@\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TEMPORAL_CLI", script)
	addr, err := startTemporal()
	if err != nil {
		t.Fatalf("not started again: %v", err)
	}
	b, err := os.ReadFile(count)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "start"); n != 2 {
		t.Fatalf("%d starts, want 2", n)
	}
	c, err := client.DialContext(Context(t), client.Options{HostPort: addr, Namespace: "default"})
	if err != nil {
		t.Fatalf("the second start does not serve: %v", err)
	}
	c.Close()
}

// TestADevServerThatKeepsExitingIsAnError: three early exits are the error
// the tests report, not a loop.
func TestADevServerThatKeepsExitingIsAnError(t *testing.T) {
	dir := t.TempDir()
	count := filepath.Join(dir, "starts")
	script := filepath.Join(dir, "temporal")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho start >> "+count+"\nexit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TEMPORAL_CLI", script)
	if _, err := startTemporal(); err == nil || !strings.Contains(err.Error(), "exited early") {
		t.Fatalf("err = %v, want an early exit", err)
	}
	b, _ := os.ReadFile(count)
	if n := strings.Count(string(b), "start"); n != 3 {
		t.Fatalf("%d starts, want 3", n)
	}
}

// TestParallelClientsHaveNamespacesOfTheirOwn: tests that ask for a parallel
// client run at the same time, each on a namespace the server knows and no
// other test gets: both start a workflow with the same id, which one
// namespace would refuse the second time.
func TestParallelClientsHaveNamespacesOfTheirOwn(t *testing.T) {
	NeedsServices(t)
	if engine, _ := TemporalEngine(); engine != "dev" {
		// A cluster has only the namespace default: its tests run one at a time.
		if _, ns := ParallelTemporalClient(t); ns != "default" {
			t.Errorf("namespace %q on a cluster, want default", ns)
		}
		return
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	running := make(chan struct{}, 2)
	t.Run("pair", func(t *testing.T) {
		for i := range 2 {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				c, ns := ParallelTemporalClient(t)
				running <- struct{}{}
				// Both are running: this one waits for the other's start.
				deadline := time.After(30 * time.Second)
				for len(running) < 2 {
					select {
					case <-deadline:
						t.Fatal("the other test did not run meanwhile: not parallel")
					case <-time.After(10 * time.Millisecond):
					}
				}
				ctx := Context(t)
				if _, err := c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: ns}); err != nil {
					t.Fatalf("namespace %s: %v", ns, err)
				}
				if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "same-id", TaskQueue: "no-worker"}, "Probe"); err != nil {
					t.Fatalf("start in %s: %v", ns, err)
				}
				mu.Lock()
				defer mu.Unlock()
				if ns == "default" || seen[ns] {
					t.Errorf("namespace %q given twice or shared", ns)
				}
				seen[ns] = true
			})
		}
	})
	if len(seen) != 2 {
		t.Errorf("namespaces %v, want two", seen)
	}
}
