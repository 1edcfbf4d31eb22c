package stack

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"oportuna/internal/health"
)

// Proc is one command (an oportuna subcommand) that can be killed and
// restarted; every incarnation logs to its own file, <name>-<n>.log.
type Proc struct {
	Name string
	// Port is its PORT (0: none), MetricsPort its METRICS_PORT, the same for
	// every incarnation.
	Port, MetricsPort int
	// ReadyURL answers 200 once it serves: the metrics listener's /readyz
	// unless set before Start.
	ReadyURL string

	argv []string
	env  []string
	dir  string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan error
	gen    int
	logs   []string
}

// NewProc prepares `bin sub` with env plus METRICS_PORT and, withPort, PORT;
// its logs go to dir.
func NewProc(name, bin, sub, dir string, env []string, withPort bool) *Proc {
	p := NewCommand(name, []string{bin, sub}, dir, env)
	p.MetricsPort = FreePort()
	p.env = append(p.env, fmt.Sprintf("METRICS_PORT=%d", p.MetricsPort))
	if withPort {
		p.Port = FreePort()
		p.env = append(p.env, fmt.Sprintf("PORT=%d", p.Port))
	}
	p.ReadyURL = fmt.Sprintf("http://127.0.0.1:%d%s", p.MetricsPort, health.ReadyPath)
	return p
}

// NewCommand prepares argv with env; set ReadyURL before Start.
func NewCommand(name string, argv []string, dir string, env []string) *Proc {
	return &Proc{Name: name, argv: argv, dir: dir, env: append([]string{}, env...)}
}

// Base is the URL of its PORT.
func (p *Proc) Base() string { return fmt.Sprintf("http://127.0.0.1:%d", p.Port) }

// Start runs a new incarnation and waits until ReadyURL answers 200.
func (p *Proc) Start(ctx context.Context) error {
	p.mu.Lock()
	p.gen++
	path := filepath.Join(p.dir, fmt.Sprintf("%s-%02d.log", p.Name, p.gen))
	logf, err := os.Create(path)
	if err != nil {
		p.mu.Unlock()
		return err
	}
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Env = p.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the harness
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		p.mu.Unlock()
		logf.Close()
		return fmt.Errorf("start %s: %w", p.Name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); logf.Close() }()
	p.cmd, p.exited = cmd, exited
	p.logs = append(p.logs, path)
	p.mu.Unlock()

	hc := &http.Client{Timeout: 3 * time.Second}
	deadline := time.Now().Add(90 * time.Second)
	for {
		res, err := hc.Get(p.ReadyURL)
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
			return fmt.Errorf("%s exited while starting: %v (log: %s)", p.Name, err, path)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after 90 s (log: %s)", p.Name, path)
		}
	}
}

// Kill sends SIGKILL to the running incarnation and waits for it to be gone.
func (p *Proc) Kill() {
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

// Stop sends SIGTERM and waits (SIGKILL after within).
func (p *Proc) Stop(within time.Duration) {
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
		p.Kill()
	}
}

// LogFiles are the log files of every incarnation so far.
func (p *Proc) LogFiles() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.logs...)
}
