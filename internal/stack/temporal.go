package stack

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"

	"oportuna/internal/dev/devenv"
)

// Temporal is `temporal server start-dev` (in memory) on free ports, with the
// tuned flags the tests use (devenv.TunedDevServerFlags).
type Temporal struct {
	Addr string
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
	t := &Temporal{Addr: fmt.Sprintf("127.0.0.1:%d", port), cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); logf.Close(); close(t.done) }()
	deadline := time.Now().Add(90 * time.Second)
	for {
		select {
		case <-t.done:
			return nil, fmt.Errorf("temporal dev server exited early (log: %s)", logPath)
		default:
		}
		dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		c, err := client.DialContext(dctx, client.Options{HostPort: t.Addr, Namespace: "default", Logger: QuietTemporalLogger()})
		cancel()
		if err == nil {
			c.Close()
			return t, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Stop()
			return nil, fmt.Errorf("temporal dev server not ready at %s: %w", t.Addr, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Stop interrupts the dev server (SIGKILL to its group after 10 s).
func (t *Temporal) Stop() {
	_ = t.cmd.Process.Signal(os.Interrupt)
	select {
	case <-t.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
		<-t.done
	}
}
