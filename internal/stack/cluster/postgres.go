package cluster

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"oportuna/internal/dev/devenv"
)

// Postgres is the PostgreSQL server Temporal keeps its state in. One the
// cluster started itself (Own) can be restarted, stopped and paused, as a
// chaos test does to the database of a production cluster; on a server given
// by URL those calls fail.
type Postgres struct {
	// URL is an administrative URL (database postgres, or the one given).
	URL string
	// DataDir and Port of a server of its own (empty, 0: a given server).
	DataDir string
	Port    int
	// Log is the server's log file (pg_ctl -l).
	Log string

	pgctl  string
	asUser []string // runuser -u postgres -- when running as root
}

var errNotOwn = errors.New("the cluster's PostgreSQL was given by URL: only a server of its own (Options.AdminURL empty) can be controlled")

// Own reports whether the cluster started this server.
func (p *Postgres) Own() bool { return p.DataDir != "" }

// StartPostgres initialises a server in dir/data with the machine's initdb
// (Debian's layout or PATH; as the postgres user when running as root) and
// starts it with pg_ctl on a free loopback port, with extra settings
// ("name=value", e.g. "fsync=off") besides what the Temporal services need.
func StartPostgres(ctx context.Context, dir string, settings []string) (*Postgres, error) {
	initdb, err := pgBin("initdb")
	if err != nil {
		return nil, err
	}
	pgctl, err := pgBin("pg_ctl")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	p := &Postgres{DataDir: filepath.Join(dir, "data"), Log: filepath.Join(dir, "postgres.log"), pgctl: pgctl}
	if os.Geteuid() == 0 {
		// initdb and pg_ctl refuse to run as root.
		pg, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root needs the postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(pg.Uid)
		gid, _ := strconv.Atoi(pg.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
		p.asUser = []string{"runuser", "-u", "postgres", "--"}
	}
	if _, err := os.Stat(filepath.Join(p.DataDir, "PG_VERSION")); err != nil {
		if err := p.run(ctx, initdb, "-D", p.DataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C.UTF-8"); err != nil {
			if p.asUser != nil {
				err = fmt.Errorf("%w(the postgres user must be able to enter every folder above %s)", err, dir)
			}
			return nil, err
		}
	}
	if p.Port, err = devenv.FreePort(); err != nil {
		return nil, err
	}
	// Four services with pools of their own, besides whoever else uses it.
	opts := []string{"-p", strconv.Itoa(p.Port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=''",
		"-c", "max_connections=300"}
	for _, s := range settings {
		opts = append(opts, "-c", s)
	}
	if err := p.run(ctx, pgctl, "-D", p.DataDir, "-o", strings.Join(opts, " "), "-l", p.Log, "-w", "-t", "60", "start"); err != nil {
		return nil, err
	}
	p.URL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", p.Port)
	if err := p.waitConnect(ctx, 30*time.Second); err != nil {
		_ = p.Stop("immediate")
		return nil, err
	}
	return p, nil
}

// Restart runs pg_ctl restart -m mode (smart, fast or immediate: a crash,
// recovered from the WAL at start) with the same settings and waits until it
// accepts connections.
func (p *Postgres) Restart(ctx context.Context, mode string) error {
	if !p.Own() {
		return errNotOwn
	}
	if err := p.run(ctx, p.pgctl, "-D", p.DataDir, "-m", mode, "-l", p.Log, "-w", "-t", "120", "restart"); err != nil {
		return err
	}
	return p.waitConnect(ctx, 60*time.Second)
}

// Stop runs pg_ctl stop -m mode.
func (p *Postgres) Stop(mode string) error {
	if !p.Own() {
		return errNotOwn
	}
	return p.run(context.Background(), p.pgctl, "-D", p.DataDir, "-m", mode, "-w", "-t", "60", "stop")
}

// Start starts a stopped server again with the settings of its first start
// (postmaster.opts) and waits until it accepts connections.
func (p *Postgres) Start(ctx context.Context) error {
	if !p.Own() {
		return errNotOwn
	}
	opts, err := os.ReadFile(filepath.Join(p.DataDir, "postmaster.opts"))
	if err != nil {
		return err
	}
	// postmaster.opts is the command line: the program, then its options.
	line := strings.TrimSpace(string(opts))
	if i := strings.Index(line, " "); i >= 0 {
		line = line[i+1:]
	}
	if err := p.run(ctx, p.pgctl, "-D", p.DataDir, "-o", line, "-l", p.Log, "-w", "-t", "60", "start"); err != nil {
		return err
	}
	return p.waitConnect(ctx, 60*time.Second)
}

// Pause stops every process of the server (SIGSTOP): connections stay open
// and nothing answers, as with a database that hangs. Resume lets it go on.
func (p *Postgres) Pause() error { return p.signalAll(syscall.SIGSTOP) }

// Resume continues a paused server (SIGCONT).
func (p *Postgres) Resume() error { return p.signalAll(syscall.SIGCONT) }

// PID is the postmaster's process id (from postmaster.pid; 0: not running).
func (p *Postgres) PID() int {
	if !p.Own() {
		return 0
	}
	data, err := os.ReadFile(filepath.Join(p.DataDir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	first, _, _ := strings.Cut(string(data), "\n")
	pid, _ := strconv.Atoi(strings.TrimSpace(first))
	return pid
}

// signalAll signals the postmaster and its children (the backends and the
// background processes).
func (p *Postgres) signalAll(sig syscall.Signal) error {
	if !p.Own() {
		return errNotOwn
	}
	pm := p.PID()
	if pm == 0 {
		return errors.New("postgres is not running")
	}
	pids := []int{pm}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces: read after the last ')'.
		rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
		fields := strings.Fields(rest)
		if len(fields) > 1 && fields[1] == strconv.Itoa(pm) {
			pids = append(pids, pid)
		}
	}
	if sig == syscall.SIGCONT {
		// Children first, so none is still stopped when the postmaster looks at them.
		for i, j := 0, len(pids)-1; i < j; i, j = i+1, j-1 {
			pids[i], pids[j] = pids[j], pids[i]
		}
	}
	var errs []error
	for _, pid := range pids {
		if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (p *Postgres) waitConnect(ctx context.Context, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		c, err := pgx.Connect(cctx, p.URL)
		cancel()
		if err == nil {
			c.Close(ctx)
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("postgres at port %d: %w (log: %s)", p.Port, err, p.Log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (p *Postgres) run(ctx context.Context, args ...string) error {
	full := append(append([]string{}, p.asUser...), args...)
	out, err := exec.CommandContext(ctx, full[0], full[1:]...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w\n%s", filepath.Base(args[0]), strings.Join(args[1:], " "), err, out)
	}
	return nil
}

// pgBin finds a PostgreSQL server program (devenv.PGBin).
func pgBin(name string) (string, error) {
	p, err := devenv.PGBin(name)
	if err != nil {
		return "", fmt.Errorf("%w: install Debian's postgresql package, or give the cluster a server (AdminURL)", err)
	}
	return p, nil
}

// dbParams are the TEMPORAL_DB_* variables of config.yaml and schema.sh for
// the server of adminURL.
func dbParams(adminURL string) ([]string, error) {
	u, err := url.Parse(adminURL)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL URL: %w", err)
	}
	port := u.Port()
	if port == "" {
		port = "5432"
	}
	pass, _ := u.User.Password()
	userName := u.User.Username()
	if userName == "" {
		userName = "postgres"
	}
	return []string{"TEMPORAL_DB_HOST=" + u.Hostname(), "TEMPORAL_DB_PORT=" + port, "TEMPORAL_DB_USER=" + userName, "TEMPORAL_DB_PASSWORD=" + pass}, nil
}
