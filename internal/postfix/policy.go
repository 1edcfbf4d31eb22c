package postfix

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"
)

// DeferReply is the server's answer to RCPT TO while it defers (Postfix puts
// "<recipient>: Recipient address rejected:" before the text).
const DeferReply = "451 4.3.0 Mail server temporarily unavailable, try again later"

// policyServer is a Postfix policy service (Postfix SMTP Access Policy
// Delegation, "Policy protocol description",
// https://www.postfix.org/SMTPD_POLICY_README.html): smtpd asks it about every
// RCPT TO with name=value lines ending in an empty line, and it answers
// "action=…" (an access(5) action: DUNNO, or a reply code and text) and an
// empty line.
// It answers DUNNO (go on with the other checks) unless told to defer or hold.
type policyServer struct {
	l net.Listener

	mu       sync.Mutex
	until    time.Time      // every recipient deferred until then
	next     map[string]int // recipient → how many more RCPT TO to defer
	holds    map[string]*held
	deferred int
	closed   chan struct{}
	conns    map[net.Conn]bool
}

func startPolicy() (*policyServer, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("postfix: policy service: %w", err)
	}
	p := &policyServer{l: l, next: map[string]int{}, holds: map[string]*held{},
		closed: make(chan struct{}), conns: map[net.Conn]bool{}}
	go p.serve()
	return p, nil
}

func (p *policyServer) addr() string { return p.l.Addr().String() }

func (p *policyServer) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.conns[c] = true
		p.mu.Unlock()
		go p.conversation(c)
	}
}

func (p *policyServer) close() {
	p.mu.Lock()
	select {
	case <-p.closed:
	default:
		close(p.closed)
	}
	for c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	_ = p.l.Close()
}

// conversation answers the requests of one smtpd process (it keeps the
// connection for many).
func (p *policyServer) conversation(c net.Conn) {
	defer func() {
		p.mu.Lock()
		delete(p.conns, c)
		p.mu.Unlock()
		_ = c.Close()
	}()
	r := bufio.NewReader(c)
	attrs := map[string]string{}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		if line != "" {
			if k, v, ok := strings.Cut(line, "="); ok {
				attrs[k] = v
			}
			continue
		}
		action := p.decide(strings.ToLower(attrs["recipient"]))
		if _, err := fmt.Fprintf(c, "action=%s\n\n", action); err != nil {
			return
		}
		attrs = map[string]string{}
	}
}

func (p *policyServer) decide(rcpt string) string {
	p.mu.Lock()
	if time.Now().Before(p.until) {
		p.deferred++
		p.mu.Unlock()
		return DeferReply
	}
	if n := p.next[rcpt]; n > 0 {
		p.next[rcpt] = n - 1
		p.deferred++
		p.mu.Unlock()
		return DeferReply
	}
	h := p.holds[rcpt]
	p.mu.Unlock()
	if h != nil {
		h.reachedOnce.Do(func() { close(h.reached) })
		select {
		case <-h.release:
		case <-p.closed:
		}
	}
	return "DUNNO"
}

// held is a recipient whose RCPT TO waits for release.
type held struct {
	reached     chan struct{} // closed when the first RCPT TO arrived
	reachedOnce sync.Once
	release     chan struct{}
}

func (p *policyServer) deferUntil(t time.Time) {
	p.mu.Lock()
	p.until = t
	p.mu.Unlock()
}

func (p *policyServer) deferNext(rcpt string, n int) {
	p.mu.Lock()
	p.next[rcpt] = n
	p.mu.Unlock()
}

func (p *policyServer) hold(rcpt string) (reached <-chan struct{}, release func()) {
	h := &held{reached: make(chan struct{}), release: make(chan struct{})}
	p.mu.Lock()
	p.holds[rcpt] = h
	p.mu.Unlock()
	var once sync.Once
	return h.reached, func() {
		once.Do(func() {
			p.mu.Lock()
			if p.holds[rcpt] == h {
				delete(p.holds, rcpt)
			}
			p.mu.Unlock()
			close(h.release)
		})
	}
}

func (p *policyServer) deferredCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.deferred
}
