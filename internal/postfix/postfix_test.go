package postfix_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"oportuna/internal/postfix"
	"oportuna/internal/testenv"
)

type conversation struct {
	t  *testing.T
	cv *postfix.Conversation
}

func dial(t *testing.T, pf *postfix.Server) *conversation {
	t.Helper()
	cv, err := pf.Dial(testenv.Context(t))
	if err != nil {
		t.Fatalf("dial: %v\n%s", err, pf.Log())
	}
	t.Cleanup(func() { _ = cv.Close() })
	return &conversation{t: t, cv: cv}
}

// expect sends line and checks that the reply starts with want.
func (c *conversation) expect(line, want string) string {
	c.t.Helper()
	reply, err := c.cv.Cmd(line)
	if err != nil {
		c.t.Fatalf("%s: %v", line, err)
	}
	if !strings.HasPrefix(reply, want) {
		c.t.Fatalf("%s: answered %q, want %q", line, reply, want)
	}
	return reply
}

// TestTheServerIsAsStrictAsAProvider: RFC 5321's syntax is enforced (the
// angle brackets of MAIL FROM and RCPT TO, a fully qualified HELO, fully
// qualified addresses); an unknown mailbox is refused for good.
func TestTheServerIsAsStrictAsAProvider(t *testing.T) {
	pf := testenv.Postfix(t)
	mb := pf.NewMailbox(t.Name())

	c := dial(t, pf)
	c.expect("EHLO portal.oportuna.example", "250-"+postfix.Hostname)
	// What mailer/smtp.go sent before the angle brackets: go-mail's smtp.Client
	// writes "MAIL FROM:%s" with the address as given.
	c.expect("MAIL FROM:nao-responda@oportuna.example BODY=8BITMIME", "501 5.1.7 Bad sender address syntax")
	c.expect("MAIL FROM:<nao-responda@oportuna.example> BODY=8BITMIME", "250 2.1.0")
	c.expect("RCPT TO:"+mb.Address, "501 5.1.3 Bad recipient address syntax")
	c.expect("RCPT TO:<"+postfix.Unknown(t.Name())+">", "550 5.1.1")
	c.expect("RCPT TO:<ana@localhost>", "504 5.5.2")
	c.expect("RCPT TO:<"+mb.Address+">", "250 2.1.5")
	c.expect("DATA", "354")
	c.expect("Message-ID: <m1@oportuna.example>\r\nSubject: Oi\r\n\r\nOla.\r\n.", "250 2.0.0")

	// A HELO that names no fully qualified host is refused (at RCPT TO, as
	// Postfix delays its refusals); an address literal is fine.
	c2 := dial(t, pf)
	c2.expect("EHLO vm", "250")
	c2.expect("MAIL FROM:<nao-responda@oportuna.example>", "250")
	c2.expect("RCPT TO:<"+mb.Address+">", "504 5.5.2 <vm>: Helo command rejected")
	c3 := dial(t, pf)
	c3.expect("EHLO [127.0.0.1]", "250")
	c3.expect("MAIL FROM:<nao-responda@oportuna>", "250")
	c3.expect("RCPT TO:<"+mb.Address+">", "504 5.5.2 <nao-responda@oportuna>: Sender address rejected: need fully-qualified address")

	ctx, cancel := context.WithTimeout(testenv.Context(t), 30*time.Second)
	defer cancel()
	got, err := mb.Wait(ctx, 1)
	if err != nil {
		t.Fatalf("%v\n%s", err, pf.Log())
	}
	if got[0].MessageID != "m1@oportuna.example" || got[0].ReturnPath != "nao-responda@oportuna.example" ||
		got[0].Header.Get("Subject") != "Oi" {
		t.Errorf("delivered: %+v", got[0])
	}
}

// TestDeferAndHoldAnswerRCPT: the policy service makes the server answer 451
// (for a window, for good until turned off, or for one address's next
// attempts) and can hold its answer.
func TestDeferAndHoldAnswerRCPT(t *testing.T) {
	pf := testenv.Postfix(t)
	mb := pf.NewMailbox(t.Name())
	rcpt := func(c *conversation, want string) {
		t.Helper()
		c.expect("RSET", "250")
		c.expect("MAIL FROM:<nao-responda@oportuna.example>", "250")
		c.expect("RCPT TO:<"+mb.Address+">", want)
	}
	c := dial(t, pf)
	c.expect("EHLO portal.oportuna.example", "250")
	before := pf.Deferred()

	mb.DeferNext(2)
	rcpt(c, "451 4.3.0 <"+mb.Address+">: Recipient address rejected: Mail server temporarily unavailable")
	rcpt(c, "451 4.3.0")
	rcpt(c, "250")

	pf.Defer(true)
	rcpt(c, "451 4.3.0")
	pf.Defer(false)
	rcpt(c, "250")

	window := 300 * time.Millisecond
	pf.DeferFor(window)
	end := time.Now().Add(window) // not before the window's end
	rcpt(c, "451 4.3.0")
	time.Sleep(time.Until(end)) // past the window: not a race, the window is over
	rcpt(c, "250")
	if n := pf.Deferred() - before; n != 4 {
		t.Errorf("%d RCPT TO deferred, want 4", n)
	}

	reached, release := mb.Hold()
	c.expect("RSET", "250")
	c.expect("MAIL FROM:<nao-responda@oportuna.example>", "250")
	answered := make(chan string, 1)
	go func() {
		reply, _ := c.cv.Cmd("RCPT TO:<" + mb.Address + ">")
		answered <- reply
	}()
	select {
	case <-reached:
	case <-time.After(30 * time.Second):
		t.Fatal("the RCPT TO did not reach the policy service")
	}
	select {
	case reply := <-answered:
		t.Fatalf("a held RCPT TO was answered: %q", reply)
	case <-time.After(300 * time.Millisecond):
	}
	release()
	select {
	case reply := <-answered:
		if !strings.HasPrefix(reply, "250") {
			t.Errorf("after release: %q", reply)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the released RCPT TO was not answered")
	}
}

// TestTheProductionBinaryLeavesThePackageOut: internal/postfix is for tests
// and the chaos program only.
func TestTheProductionBinaryLeavesThePackageOut(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	cmd := exec.Command("go", "list", "-deps", "./cmd/oportuna")
	cmd.Dir = filepath.Join(filepath.Dir(file), "..", "..")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range []string{"oportuna/internal/postfix", "oportuna/internal/testenv"} {
		if strings.Contains(string(out), pkg+"\n") {
			t.Errorf("./cmd/oportuna depends on %s", pkg)
		}
	}
	if !strings.Contains(string(out), "oportuna/mailer\n") {
		t.Errorf("go list printed no mailer: %s", out)
	}
}
