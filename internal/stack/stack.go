// Package stack starts Oportuna on one machine for the programs that drive it
// from outside (cmd/chaos, cmd/loadtest, make cluster): a fresh database on an
// existing PostgreSQL server, a Temporal dev server with the tests' tuned
// flags or a production-shaped Temporal cluster (internal/stack/cluster), the
// binary's migrations, `oportuna` subcommands as separate processes that can
// be killed and restarted, and an SMTP server that counts deliveries. Every
// port is a free loopback port.
package stack

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5"
	tlog "go.temporal.io/sdk/log"

	"oportuna/internal/dev/devenv"
	"oportuna/internal/stack/cluster"
	"oportuna/workflows"
)

// Options say where the stack's parts come from.
type Options struct {
	Bin         string // the oportuna binary (make build)
	TemporalCLI string // the temporal CLI; empty: devenv.TemporalCLI
	AdminURL    string // a PostgreSQL server where a database may be created
	Dir         string // where the logs go (created)
	Prefix      string // of the database's name, e.g. oportuna_chaos
	// TemporalDB keeps the dev server's state in this SQLite file (empty: in
	// memory), e.g. to measure what a workflow stores.
	TemporalDB string
	// Engine is the Temporal server: "dev" (default) or "cluster": temporal-server
	// with its databases on the server of AdminURL (dropped at Close),
	// namespace ClusterNamespace with the portal's search attributes, its
	// files and logs in Dir/temporal.
	Engine string
}

// ClusterNamespace is the namespace of a stack on a cluster, a deployment's
// (docker-compose.yml's TEMPORAL_NAMESPACE).
const ClusterNamespace = "oportuna"

// Stack is a fresh database, migrated, and a Temporal server.
type Stack struct {
	DB *Database
	// Temporal is the dev server (nil on a cluster), Cluster the cluster (nil
	// on a dev server); TemporalAddr and Namespace are the one in use.
	Temporal     *Temporal
	Cluster      *cluster.Cluster
	TemporalAddr string
	Namespace    string
	// Env is the environment of every oportuna process: this process's, plus
	// DATABASE_URL, TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE.
	Env []string
}

// Start creates the database, starts Temporal and runs `oportuna migrate`.
// On error what was started is stopped again.
func Start(ctx context.Context, o Options) (_ *Stack, err error) {
	if o.AdminURL == "" {
		return nil, fmt.Errorf("no PostgreSQL: set OPORTUNA_TEST_DATABASE_URL or DATABASE_URL (the make targets use the project cluster)")
	}
	if _, err := os.Stat(o.Bin); err != nil {
		return nil, fmt.Errorf("%s: %w (make build)", o.Bin, err)
	}
	cli := o.TemporalCLI
	if cli == "" {
		if cli, err = devenv.TemporalCLI(); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	s := &Stack{}
	defer func() {
		if err != nil {
			s.Close(false)
		}
	}()
	if s.DB, err = CreateDatabase(ctx, o.AdminURL, o.Prefix); err != nil {
		return nil, err
	}
	switch o.Engine {
	case "", "dev":
		if s.Temporal, err = StartTemporal(ctx, cli, filepath.Join(o.Dir, "temporal.log"), o.TemporalDB); err != nil {
			return nil, err
		}
		s.TemporalAddr, s.Namespace = s.Temporal.Addr, "default"
	case "cluster":
		if s.Cluster, err = cluster.Start(ctx, cluster.Options{Dir: filepath.Join(o.Dir, "temporal"), TemporalCLI: cli,
			AdminURL: o.AdminURL, Database: s.DB.Name + "_temporal", Ephemeral: true,
			Namespace: ClusterNamespace, SearchAttributes: SearchAttributes()}); err != nil {
			return nil, err
		}
		s.TemporalAddr, s.Namespace = s.Cluster.Addr, s.Cluster.Namespace
	default:
		return nil, fmt.Errorf("engine %q: want dev or cluster", o.Engine)
	}
	s.Env = append(os.Environ(), "DATABASE_URL="+s.DB.URL, "TEMPORAL_ADDRESS="+s.TemporalAddr, "TEMPORAL_NAMESPACE="+s.Namespace,
		"PAYLOAD_KEYS="+devenv.PayloadKeys)
	s.Env = s.Env[:len(s.Env):len(s.Env)] // appending to it copies
	if out, err := RunBin(ctx, o.Bin, "migrate", s.Env); err != nil {
		return nil, fmt.Errorf("oportuna migrate: %w\n%s", err, out)
	}
	return s, nil
}

// Close stops Temporal and drops the database unless keep (then its URL is printed).
func (s *Stack) Close(keep bool) {
	if s.Temporal != nil {
		s.Temporal.Stop()
	}
	if s.Cluster != nil {
		s.Cluster.Stop()
	}
	if s.DB == nil {
		return
	}
	if keep {
		fmt.Printf("database kept: %s\n", Redact(s.DB.URL))
		return
	}
	s.DB.Drop()
}

// SearchAttributes are the portal's search attributes (workflows.SearchAttributes)
// as setup.sh names their types.
func SearchAttributes() map[string]string {
	out := map[string]string{}
	for name, t := range workflows.SearchAttributes() {
		out[name] = t.String()
	}
	return out
}

// FreePort asks the kernel for a free loopback port.
func FreePort() int {
	p, err := devenv.FreePort()
	if err != nil {
		panic(err)
	}
	return p
}

// RunBin runs `bin sub` with env to its end and answers its output.
func RunBin(ctx context.Context, bin, sub string, env []string) ([]byte, error) {
	c := exec.CommandContext(ctx, bin, sub)
	c.Env = env
	return c.CombinedOutput()
}

// QuietTemporalLogger logs the Temporal SDK's errors only.
func QuietTemporalLogger() tlog.Logger {
	return tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
}

// --- PostgreSQL ----------------------------------------------------------------

// Database is a fresh database on the server of AdminURL, dropped by Drop.
type Database struct {
	AdminURL, Name, URL string
}

// CreateDatabase creates <prefix>_<time>_<pid> on the server of adminURL.
func CreateDatabase(ctx context.Context, adminURL, prefix string) (*Database, error) {
	c, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return nil, fmt.Errorf("connect %s: %w", Redact(adminURL), err)
	}
	defer c.Close(ctx)
	name := fmt.Sprintf("%s_%d_%d", prefix, time.Now().Unix(), os.Getpid())
	if _, err := c.Exec(ctx, `CREATE DATABASE `+name); err != nil {
		return nil, fmt.Errorf("create database: %w", err)
	}
	u, err := url.Parse(adminURL)
	if err != nil {
		return nil, err
	}
	u.Path = "/" + name
	return &Database{AdminURL: adminURL, Name: name, URL: u.String()}, nil
}

// Drop drops the database, closing its connections.
func (d *Database) Drop() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, d.AdminURL)
	if err != nil {
		slog.Warn("drop database", "name", d.Name, "err", err)
		return
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, `DROP DATABASE IF EXISTS `+d.Name+` WITH (FORCE)`); err != nil {
		slog.Warn("drop database", "name", d.Name, "err", err)
	}
}

// Redact hides the password of a URL.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
