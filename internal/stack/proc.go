package stack

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"oportuna/internal/health"
	"oportuna/internal/stack/proc"
)

// Proc is one command (an oportuna subcommand) that can be killed and
// restarted; every incarnation logs to its own file, <name>-<n>.log.
type Proc struct {
	*proc.Process
	// Port is its PORT (0: none), MetricsPort its METRICS_PORT, the same for
	// every incarnation.
	Port, MetricsPort int
	// ReadyURL answers 200 once it serves: the metrics listener's /readyz
	// unless set before Start.
	ReadyURL string
}

// NewProc prepares `bin sub` with env plus METRICS_PORT and, withPort, PORT;
// its logs go to dir.
func NewProc(name, bin, sub, dir string, env []string, withPort bool) *Proc {
	p := &Proc{MetricsPort: FreePort()}
	env = append(append([]string{}, env...), fmt.Sprintf("METRICS_PORT=%d", p.MetricsPort))
	if withPort {
		p.Port = FreePort()
		env = append(env, fmt.Sprintf("PORT=%d", p.Port))
	}
	p.Process = proc.New(name, []string{bin, sub}, dir, env)
	p.ReadyURL = fmt.Sprintf("http://127.0.0.1:%d%s", p.MetricsPort, health.ReadyPath)
	return p
}

// NewCommand prepares argv with env; set ReadyURL before Start.
func NewCommand(name string, argv []string, dir string, env []string) *Proc {
	return &Proc{Process: proc.New(name, argv, dir, env)}
}

// Base is the URL of its PORT.
func (p *Proc) Base() string { return fmt.Sprintf("http://127.0.0.1:%d", p.Port) }

// Start runs a new incarnation and waits until ReadyURL answers 200.
func (p *Proc) Start(ctx context.Context) error {
	p.Process.Ready = httpReady(p.ReadyURL)
	return p.Process.Start(ctx)
}

// httpReady answers nil when url answers 200.
func httpReady(url string) func(context.Context) error {
	hc := &http.Client{Timeout: 3 * time.Second}
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		res, err := hc.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("%s: HTTP %d", url, res.StatusCode)
		}
		return nil
	}
}
