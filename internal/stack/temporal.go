package stack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"

	"oportuna/internal/dev/devenv"
	"oportuna/internal/stack/proc"
)

// Temporal is `temporal server start-dev` (in memory) on free ports, with the
// tuned flags the tests use (devenv.TunedDevServerFlags).
type Temporal struct {
	Addr string
	cli  string
	args []string
	log  string
	cmd  *exec.Cmd
	done chan struct{}
}

// StartTemporal starts the dev server, logging to logPath, with its state in
// the SQLite file dbFile (empty: in memory), and waits until a client can connect.
func StartTemporal(ctx context.Context, cli, logPath, dbFile string) (*Temporal, error) {
	port, httpPort, metricsPort := FreePort(), FreePort(), FreePort()
	args := append([]string{"server", "start-dev", "--headless", "--ip", "127.0.0.1",
		"--port", strconv.Itoa(port), "--http-port", strconv.Itoa(httpPort), "--metrics-port", strconv.Itoa(metricsPort),
		"--log-level", "warn"}, devenv.TunedDevServerFlags...)
	if dbFile != "" {
		args = append(args, "--db-filename", dbFile)
	}
	t := &Temporal{Addr: fmt.Sprintf("127.0.0.1:%d", port), cli: cli, args: args, log: logPath}
	if err := t.start(ctx); err != nil {
		return nil, err
	}
	return t, nil
}

// start runs the server with t's arguments (a restart appends to the log)
// and waits until a client can connect. The CLI picks its other services'
// ports itself, free when picked and bound a moment later; on a busy machine
// one may be taken meanwhile and the server exits at once: such a start is
// tried again (new ports for those services, the same frontend), three times in all.
func (t *Temporal) start(ctx context.Context) error {
	for attempt := 1; ; attempt++ {
		err := t.startOnce(ctx)
		var early errExitedEarly
		if err == nil || !errors.As(err, &early) || attempt == 3 {
			return err
		}
	}
}

// errExitedEarly is a dev server that exited before it served.
type errExitedEarly struct{ log string }

func (e errExitedEarly) Error() string {
	return fmt.Sprintf("temporal dev server exited early (log: %s)", e.log)
}

func (t *Temporal) startOnce(ctx context.Context) error {
	logf, err := os.OpenFile(t.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(t.cli, t.args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("start %s: %w", t.cli, err)
	}
	done := make(chan struct{})
	t.cmd, t.done = cmd, done
	go func() { _ = cmd.Wait(); logf.Close(); close(done) }()
	deadline := time.Now().Add(90 * time.Second)
	for {
		select {
		case <-done:
			return errExitedEarly{t.log}
		default:
		}
		dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		c, err := client.DialContext(dctx, client.Options{HostPort: t.Addr, Namespace: "default", Logger: QuietTemporalLogger()})
		cancel()
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Stop()
			return fmt.Errorf("temporal dev server not ready at %s: %w", t.Addr, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Restart kills the dev server (SIGKILL to its group: a crash) and starts it
// again on the same ports and state file, waiting until it serves. A server
// kept in memory comes back empty: give StartTemporal a state file.
func (t *Temporal) Restart(ctx context.Context) error {
	_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
	<-t.done
	return t.start(ctx)
}

// Stop interrupts the dev server (SIGKILL to its group after 10 s).
func (t *Temporal) Stop() {
	proc.StopGroup(t.cmd, t.done, os.Interrupt, 10*time.Second)
}
