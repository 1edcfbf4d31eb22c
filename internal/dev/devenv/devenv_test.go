package devenv

import (
	"net"
	"strconv"
	"testing"
)

// TestFreePortIsBelowTheEphemeralRangeAndNeverGivenTwice: a port outside
// Linux's ephemeral range (32768–60999) cannot be taken by an outgoing
// connection between the pick and the server's bind; one process never gets
// the same port twice, even when it has not bound the first yet.
func TestFreePortIsBelowTheEphemeralRangeAndNeverGivenTwice(t *testing.T) {
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
