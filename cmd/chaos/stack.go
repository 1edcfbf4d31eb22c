package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/mail"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/client"

	"oportuna/internal/health"
	"oportuna/internal/testenv"
)

// freePort asks the kernel for a free loopback port.
func freePort() int {
	p, err := testenv.FreePort()
	if err != nil {
		panic(err)
	}
	return p
}

// --- PostgreSQL ----------------------------------------------------------------

// database is a fresh database on the server of adminURL, dropped by drop.
type database struct {
	adminURL, name, url string
}

func createDatabase(ctx context.Context, adminURL string) (*database, error) {
	c, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return nil, fmt.Errorf("connect %s: %w", redact(adminURL), err)
	}
	defer c.Close(ctx)
	name := fmt.Sprintf("oportuna_chaos_%d_%d", time.Now().Unix(), os.Getpid())
	if _, err := c.Exec(ctx, `CREATE DATABASE `+name); err != nil {
		return nil, fmt.Errorf("create database: %w", err)
	}
	u, err := url.Parse(adminURL)
	if err != nil {
		return nil, err
	}
	u.Path = "/" + name
	return &database{adminURL: adminURL, name: name, url: u.String()}, nil
}

func (d *database) drop() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, d.adminURL)
	if err != nil {
		slog.Warn("drop database", "name", d.name, "err", err)
		return
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, `DROP DATABASE IF EXISTS `+d.name+` WITH (FORCE)`); err != nil {
		slog.Warn("drop database", "name", d.name, "err", err)
	}
}

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// --- Temporal ------------------------------------------------------------------

// temporalServer is `temporal server start-dev` (in memory) on free ports, with
// the tuned flags the tests use.
type temporalServer struct {
	addr string
	cmd  *exec.Cmd
	done chan struct{}
}

func startTemporal(ctx context.Context, cli, logPath string) (*temporalServer, error) {
	port, httpPort, metricsPort := freePort(), freePort(), freePort()
	args := append([]string{"server", "start-dev", "--headless", "--ip", "127.0.0.1",
		"--port", strconv.Itoa(port), "--http-port", strconv.Itoa(httpPort), "--metrics-port", strconv.Itoa(metricsPort),
		"--log-level", "warn"}, testenv.TunedDevServerFlags...)
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(cli, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", cli, err)
	}
	t := &temporalServer{addr: fmt.Sprintf("127.0.0.1:%d", port), cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); logf.Close(); close(t.done) }()
	deadline := time.Now().Add(90 * time.Second)
	for {
		select {
		case <-t.done:
			return nil, fmt.Errorf("temporal dev server exited early (log: %s)", logPath)
		default:
		}
		dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		c, err := client.DialContext(dctx, client.Options{HostPort: t.addr, Namespace: "default", Logger: quietTemporalLogger()})
		cancel()
		if err == nil {
			c.Close()
			return t, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.stop()
			return nil, fmt.Errorf("temporal dev server not ready at %s: %w", t.addr, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (t *temporalServer) stop() {
	_ = t.cmd.Process.Signal(os.Interrupt)
	select {
	case <-t.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
		<-t.done
	}
}

// --- oportuna api / worker ------------------------------------------------------

// proc is one oportuna subcommand that the harness kills and restarts; every
// incarnation logs to its own file, <name>-<n>.log.
type proc struct {
	name, bin, sub string
	env            []string
	port, metrics  int // PORT (api only) and METRICS_PORT, the same for every incarnation
	dir            string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan error
	gen    int
	logs   []string
}

func newProc(name, bin, sub, dir string, env []string, withPort bool) *proc {
	p := &proc{name: name, bin: bin, sub: sub, dir: dir, metrics: freePort()}
	if withPort {
		p.port = freePort()
	}
	p.env = append(append([]string{}, env...), fmt.Sprintf("METRICS_PORT=%d", p.metrics))
	if withPort {
		p.env = append(p.env, fmt.Sprintf("PORT=%d", p.port))
	}
	return p
}

func (p *proc) base() string { return fmt.Sprintf("http://127.0.0.1:%d", p.port) }

// start runs a new incarnation and waits until its /readyz answers 200.
func (p *proc) start(ctx context.Context) error {
	p.mu.Lock()
	p.gen++
	path := filepath.Join(p.dir, fmt.Sprintf("%s-%02d.log", p.name, p.gen))
	logf, err := os.Create(path)
	if err != nil {
		p.mu.Unlock()
		return err
	}
	cmd := exec.Command(p.bin, p.sub)
	cmd.Env = p.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the harness
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		p.mu.Unlock()
		logf.Close()
		return fmt.Errorf("start %s: %w", p.name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); logf.Close() }()
	p.cmd, p.exited = cmd, exited
	p.logs = append(p.logs, path)
	p.mu.Unlock()

	hc := &http.Client{Timeout: 3 * time.Second}
	deadline := time.Now().Add(90 * time.Second)
	ready := fmt.Sprintf("http://127.0.0.1:%d%s", p.metrics, health.ReadyPath)
	for {
		res, err := hc.Get(ready)
		if err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-exited:
			exited <- err
			return fmt.Errorf("%s exited while starting: %v (log: %s)", p.name, err, path)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after 90 s (log: %s)", p.name, path)
		}
	}
}

// kill sends SIGKILL to the running incarnation and waits for it to be gone.
func (p *proc) kill() {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	err := <-exited
	exited <- err
}

// stop sends SIGTERM and waits (SIGKILL after within).
func (p *proc) stop(within time.Duration) {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		exited <- err
	case <-time.After(within):
		p.kill()
	}
}

// logFiles are the log files of every incarnation so far.
func (p *proc) logFiles() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.logs...)
}

// --- Salesforce stand-in that can go down -------------------------------------------

// switchable serves a handler on a fixed loopback address and can stop
// listening (connections refused, open connections cut) and listen again.
type switchable struct {
	addr    string
	handler http.Handler
	mu      sync.Mutex
	srv     *http.Server
}

func newSwitchable(h http.Handler) (*switchable, error) {
	s := &switchable{addr: fmt.Sprintf("127.0.0.1:%d", freePort()), handler: h}
	return s, s.up()
}

func (s *switchable) url() string { return "http://" + s.addr }

func (s *switchable) up() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		return nil
	}
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ { // the port may linger for a moment after the close
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("listen %s: %w", s.addr, err)
	}
	srv := &http.Server{Handler: s.handler, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	s.srv = srv
	return nil
}

func (s *switchable) down() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		_ = s.srv.Close()
		s.srv = nil
	}
}

// --- SMTP sink ---------------------------------------------------------------------

// smtpSink accepts every e-mail and counts deliveries per Message-ID.
type smtpSink struct {
	host string
	port int
	srv  *smtp.Server
	mu   sync.Mutex
	byID map[string]int
	at   map[string][]time.Time
	all  int
}

func startSMTP() (*smtpSink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &smtpSink{host: "127.0.0.1", port: ln.Addr().(*net.TCPAddr).Port, byID: map[string]int{}, at: map[string][]time.Time{}}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &sinkSession{s: s}, nil }))
	s.srv.Domain = "localhost"
	s.srv.AllowInsecureAuth = true
	s.srv.ReadTimeout, s.srv.WriteTimeout = time.Minute, time.Minute
	s.srv.MaxMessageBytes = 4 << 20
	// A worker killed mid-conversation resets its connection: expected here.
	s.srv.ErrorLog = log.New(io.Discard, "", 0)
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

func (s *smtpSink) close() { _ = s.srv.Close() }

// deliveries counts the e-mails received with the Message-ID id (no brackets).
func (s *smtpSink) deliveries(id string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[id]
}

// times are when the e-mails with the Message-ID id were accepted.
func (s *smtpSink) times(id string) []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.at[id]...)
}

func (s *smtpSink) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all
}

type sinkSession struct{ s *smtpSink }

func (se *sinkSession) AuthMechanisms() []string             { return nil }
func (se *sinkSession) Mail(string, *smtp.MailOptions) error { return nil }
func (se *sinkSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (se *sinkSession) Reset()                               {}
func (se *sinkSession) Logout() error                        { return nil }
func (se *sinkSession) Data(r io.Reader) error {
	m, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, m.Body)
	id := m.Header.Get("Message-Id")
	if len(id) > 1 && id[0] == '<' && id[len(id)-1] == '>' {
		id = id[1 : len(id)-1]
	}
	if id == "" {
		return errors.New("no Message-ID")
	}
	se.s.mu.Lock()
	se.s.byID[id]++
	se.s.at[id] = append(se.s.at[id], time.Now())
	se.s.all++
	se.s.mu.Unlock()
	return nil
}
