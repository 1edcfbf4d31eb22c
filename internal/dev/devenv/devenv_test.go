package devenv

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestFreePortIsBelowTheEphemeralRangeAndNeverGivenTwice: a port outside
// Linux's ephemeral range (32768–60999) cannot be taken by an outgoing
// connection between the pick and the server's bind; one process never gets
// the same port twice, even when it has not bound the first yet.
func TestFreePortIsBelowTheEphemeralRangeAndNeverGivenTwice(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // its claims are not the machine's
	seen := map[int]bool{}
	for range 200 {
		p, err := FreePort()
		if err != nil {
			t.Fatal(err)
		}
		if p < 20000 || p >= 32768 {
			t.Fatalf("port %d outside [20000, 32768)", p)
		}
		if seen[p] {
			t.Fatalf("port %d given twice", p)
		}
		seen[p] = true
	}
	// A port handed out is one a server can bind.
	p, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
	if err != nil {
		t.Fatalf("the port handed out cannot be bound: %v", err)
	}
	l.Close()
}

// TestAPortClaimedByAnotherProcessIsNotHandedOut: a port the project's other
// processes claimed less than ClaimTTL ago (a test binary through ClaimPort, a
// script through scripts/lib.sh's free_port) is not this one's; an older
// claim is taken over.
func TestAPortClaimedByAnotherProcessIsNotHandedOut(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	const port = 20001
	if !ClaimPort(port) {
		t.Fatal("a port no one claimed was refused")
	}
	if ClaimPort(port) {
		t.Fatal("a port claimed a moment ago was claimed again")
	}
	// The scripts' free_port honours the same claims, and its own are seen here.
	lib, err := filepath.Abs("../../../scripts/lib.sh")
	if err != nil {
		t.Fatal(err)
	}
	script := exec.Command("bash", "-c", `source "$0" && claim_port 20001 && echo taken; claim_port 20002 && echo mine`, lib)
	out, err := script.CombinedOutput()
	if err != nil || string(out) != "mine\n" {
		t.Fatalf("scripts/lib.sh claim_port: %v %q, want only 20002 claimed", err, out)
	}
	if ClaimPort(20002) {
		t.Fatal("a port the script claimed was claimed again")
	}
	old := time.Now().Add(-ClaimTTL - time.Minute)
	if err := os.Chtimes(filepath.Join(os.TempDir(), "oportuna-ports", strconv.Itoa(port)), old, old); err != nil {
		t.Fatal(err)
	}
	if !ClaimPort(port) {
		t.Fatal("a claim older than ClaimTTL was not taken over")
	}
}
