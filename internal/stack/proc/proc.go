// Package proc runs a command that can be killed and started again, each
// incarnation logging to a file of its own: the Temporal services of a cluster
// (internal/stack/cluster) and the oportuna processes of a stack
// (internal/stack) are such commands.
package proc

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Process is one command. Its incarnations log to <dir>/<name>-<n>.log.
type Process struct {
	Name string
	// Ready answers nil once a started incarnation serves; nil: started is
	// ready. Start calls it until it does, the incarnation exits or Timeout.
	Ready func(context.Context) error
	// Timeout is how long Start waits for Ready (default 90 s).
	Timeout time.Duration

	argv []string
	env  []string
	dir  string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan error
	gen    int
	logs   []string
}

// New prepares argv with env (the whole environment); its logs go to dir.
func New(name string, argv []string, dir string, env []string) *Process {
	return &Process{Name: name, argv: argv, dir: dir, env: append([]string{}, env...)}
}

// Start runs a new incarnation and waits until Ready answers nil. An
// incarnation still running is an error: Kill or Stop it first.
func (p *Process) Start(ctx context.Context) error {
	p.mu.Lock()
	if p.cmd != nil && !p.exitedLocked() {
		p.mu.Unlock()
		return fmt.Errorf("%s is running (pid %d)", p.Name, p.cmd.Process.Pid)
	}
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

	if p.Ready == nil {
		return nil
	}
	timeout := p.Timeout
	if timeout == 0 {
		timeout = 90 * time.Second
	}
	deadline := time.Now().Add(timeout)
	for {
		rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		rerr := p.Ready(rctx)
		cancel()
		if rerr == nil {
			return nil
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
			return fmt.Errorf("%s not ready after %s: %v (log: %s)", p.Name, timeout, rerr, path)
		}
	}
}

// exitedLocked reports whether the current incarnation has ended (p.mu held).
func (p *Process) exitedLocked() bool {
	select {
	case err := <-p.exited:
		p.exited <- err
		return true
	default:
		return false
	}
}

// Running reports whether an incarnation is running.
func (p *Process) Running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd != nil && !p.exitedLocked()
}

// Pid is the running incarnation's process id (0: none).
func (p *Process) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.exitedLocked() {
		return 0
	}
	return p.cmd.Process.Pid
}

// Kill sends SIGKILL to the running incarnation and waits for it to be gone.
func (p *Process) Kill() {
	cmd, exited := p.current()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	err := <-exited
	exited <- err
}

// current is the latest incarnation's command and its exit channel (nil: none started).
func (p *Process) current() (*exec.Cmd, chan error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd, p.exited
}

// Stop sends SIGTERM and waits (SIGKILL after within).
func (p *Process) Stop(within time.Duration) {
	cmd, exited := p.current()
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

// StopGroup sends sig to cmd and waits until done is closed (its Wait
// returned); after grace it kills cmd's process group (cmd leads it) and
// waits again. For a command started outside a Process.
func StopGroup(cmd *exec.Cmd, done <-chan struct{}, sig os.Signal, grace time.Duration) {
	_ = cmd.Process.Signal(sig)
	select {
	case <-done:
	case <-time.After(grace):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}

// LogFiles are the log files of every incarnation so far.
func (p *Process) LogFiles() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.logs...)
}

// Listens is a Ready that answers nil once addr accepts a connection.
func Listens(addr string) func(context.Context) error {
	return func(ctx context.Context) error {
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return err
		}
		return conn.Close()
	}
}
