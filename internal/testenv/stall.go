package testenv

import (
	"context"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// StallProxy is a TCP proxy in front of a server (PostgreSQL) that can stall:
// while stalled, no byte goes either way and the connections stay open, as
// with a database that stopped answering (a lock, a full disk, a network
// partition). Resume lets the held bytes through.
type StallProxy struct {
	ln      net.Listener
	target  string
	mu      sync.Mutex
	stalled bool
	resume  chan struct{}
}

// NewStallProxy proxies to target (host:port) until the test ends.
func NewStallProxy(t testing.TB, target string) *StallProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &StallProxy{ln: ln, target: target, resume: make(chan struct{})}
	close(p.resume)
	t.Cleanup(func() { p.Resume(); _ = ln.Close() })
	go p.serve()
	return p
}

// Addr is the proxy's host:port.
func (p *StallProxy) Addr() string { return p.ln.Addr().String() }

// Stall holds every byte from now on, both ways.
func (p *StallProxy) Stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stalled {
		p.stalled, p.resume = true, make(chan struct{})
	}
}

// Resume lets the held bytes and the next ones through.
func (p *StallProxy) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stalled {
		p.stalled = false
		close(p.resume)
	}
}

func (p *StallProxy) gate() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resume
}

func (p *StallProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go func() {
			<-p.gate() // a stalled server does not even accept
			s, err := net.Dial("tcp", p.target)
			if err != nil {
				_ = c.Close()
				return
			}
			go p.pipe(s, c)
			p.pipe(c, s)
		}()
	}
}

// pipe copies src to dst, holding each chunk while the proxy is stalled.
func (p *StallProxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			<-p.gate()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				return
			}
			return
		}
	}
}

// StallableDB is a pool on the same database as db whose connections go
// through a StallProxy.
func StallableDB(t testing.TB, db *pgxpool.Pool) (*pgxpool.Pool, *StallProxy) {
	t.Helper()
	cfg := db.Config().Copy()
	target := net.JoinHostPort(cfg.ConnConfig.Host, strconv.Itoa(int(cfg.ConnConfig.Port)))
	p := NewStallProxy(t, target)
	host, port, _ := net.SplitHostPort(p.Addr())
	n, _ := strconv.Atoi(port)
	cfg.ConnConfig.Host, cfg.ConnConfig.Port = host, uint16(n)
	cfg.ConnConfig.Fallbacks = nil
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool, p
}
