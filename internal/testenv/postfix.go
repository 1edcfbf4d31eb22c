package testenv

import (
	"sync"
	"testing"

	"oportuna/internal/postfix"
)

var (
	pfOnce sync.Once
	pf     *postfix.Server
	pfErr  error
)

// Postfix is the test binary's own Postfix (internal/postfix: Debian's, as
// strict as the big providers, on a free loopback port), started at the first
// call and stopped by Main. Each test reads its own mailbox
// (Postfix(t).NewMailbox(t.Name())). Without Postfix the test fails, saying how
// to install it.
func Postfix(t testing.TB) *postfix.Server {
	t.Helper()
	NeedsServices(t)
	pfOnce.Do(func() {
		pf, pfErr = postfix.Start()
		if pfErr == nil {
			AtExit(pf.Close)
		}
	})
	if pfErr != nil {
		fatalf(t, "%v", pfErr)
	}
	return pf
}
