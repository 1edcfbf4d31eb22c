// Command oportuna is the whole portal in one binary:
//
//	oportuna api       HTTP server (main API, authenticator, web app)
//	oportuna worker    Temporal worker
//	oportuna dev       api and worker in one process (make run)
//	oportuna migrate   apply database migrations
//	oportuna seed      create the demo data (idempotent)
//	oportuna brands    list the brand slugs
//	oportuna version   print the version
package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"golang.org/x/sync/errgroup"

	"oportuna"
	"oportuna/activities"
	"oportuna/api"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/config"
	"oportuna/crm"
	"oportuna/migrations"
	"oportuna/seed"
	"oportuna/web"
	"oportuna/worker"
)

const usage = `usage: oportuna <command>

commands:
  api       run the HTTP server (main API, authenticator, web app)
  worker    run the Temporal worker
  dev       run api and worker in one process
  migrate   apply the database migrations
  seed      create the demo data (idempotent)
  brands    list the brand slugs
  version   print the version

Configuration comes from environment variables; see README.md.`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	cmd := os.Args[1]
	switch cmd {
	case "version":
		fmt.Println(oportuna.Version())
		return
	case "brands":
		for _, b := range brand.MustLoad().All() {
			fmt.Println(b.Slug)
		}
		return
	}
	cfg, err := config.FromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "oportuna: configuration:", err)
		os.Exit(2)
	}
	slog.SetDefault(slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel})))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	switch cmd {
	case "api":
		err = runServices(ctx, cfg, true, false)
	case "worker":
		err = runServices(ctx, cfg, false, true)
	case "dev":
		err = runServices(ctx, cfg, true, true)
	case "migrate":
		err = migrate(ctx, cfg)
	case "seed":
		err = seedDemo(ctx, cfg)
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		slog.Error("oportuna "+cmd+" failed", "err", err)
		os.Exit(1)
	}
}

func openDB(ctx context.Context, cfg config.Config) (*pgxpool.Pool, error) {
	pool, err := pgxpool.New(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		if err = pool.Ping(pingCtx); err == nil {
			return pool, nil
		}
		select {
		case <-pingCtx.Done():
			pool.Close()
			return nil, fmt.Errorf("database not reachable: %w", err)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func migrate(ctx context.Context, cfg config.Config) error {
	db, err := openDB(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	ran, err := migrations.Apply(ctx, db)
	slog.Info("migrations applied", "count", len(ran), "names", ran)
	return err
}

func seedDemo(ctx context.Context, cfg config.Config) error {
	db, err := openDB(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	brands := brand.MustLoad()
	res, err := seed.Run(ctx, db, brands, cfg.DemoPassword)
	slog.Info("demo accounts", "resales_created", res.Resales, "users_created", res.Users)
	if err != nil {
		return err
	}
	// Opportunities go through their workflows: run a worker while seeding.
	tc, err := dialTemporal(ctx, cfg)
	if err != nil {
		return err
	}
	defer tc.Close()
	wctx, stopWorker := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- worker.Run(wctx, tc, cfg.TemporalNamespace, newActivities(db, brands, cfg)) }()
	n, err := seed.Opportunities(ctx, db, tc, brands)
	stopWorker()
	if werr := <-done; err == nil {
		err = werr
	}
	slog.Info("demo opportunities", "created", n)
	return err
}

func newActivities(db *pgxpool.Pool, brands *brand.Registry, cfg config.Config) *activities.Activities {
	return &activities.Activities{DB: db, Brands: brands, CRM: crm.Local{DB: db}, Mailer: activities.LogMailer{},
		Durations: activities.Durations{Validity: cfg.OpportunityValidity, RenewalWindow: cfg.OpportunityRenewalWindow,
			ApprovalSLA: cfg.ApprovalSLA, ExpiredRetention: cfg.OpportunityExpiredRetention}}
}

// dialTemporal waits up to a minute for the Temporal frontend.
func dialTemporal(ctx context.Context, cfg config.Config) (client.Client, error) {
	deadline := time.Now().Add(time.Minute)
	for {
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		c, err := client.DialContext(dctx, client.Options{
			HostPort: cfg.TemporalAddress, Namespace: cfg.TemporalNamespace,
			Logger: tlog.NewStructuredLogger(slog.Default()),
		})
		cancel()
		if err == nil {
			return c, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("temporal not reachable at %s: %w", cfg.TemporalAddress, err)
		}
		slog.Warn("waiting for temporal", "address", cfg.TemporalAddress, "err", err)
		time.Sleep(time.Second)
	}
}

func runServices(ctx context.Context, cfg config.Config, withAPI, withWorker bool) error {
	db, err := openDB(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	brands := brand.MustLoad()
	g, ctx := errgroup.WithContext(ctx)
	tc, err := dialTemporal(ctx, cfg)
	if err != nil {
		return err
	}
	defer tc.Close()
	acts := newActivities(db, brands, cfg)
	if withWorker {
		g.Go(func() error { return worker.Run(ctx, tc, cfg.TemporalNamespace, acts) })
	}
	if withAPI {
		dist, err := fs.Sub(web.Dist, "dist")
		if err != nil {
			return err
		}
		srv := &api.Server{
			Brands: brands, DB: db, Web: dist, Temporal: tc, Acts: acts,
			Auth: &auth.Service{
				DB: db, Brands: brands,
				Signer:     &auth.Signer{Secret: cfg.JWTSecret, TTL: cfg.AccessTokenTTL},
				RefreshTTL: cfg.RefreshTokenTTL, ResetTTL: cfg.ResetTokenTTL,
				Mailer: auth.LogMailer{},
			},
		}
		h, err := srv.Handler()
		if err != nil {
			return err
		}
		hs := &http.Server{Addr: net.JoinHostPort("", strconv.Itoa(cfg.Port)), Handler: h,
			ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
		g.Go(func() error {
			slog.Info("http listening", "addr", hs.Addr)
			if err := hs.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		})
		g.Go(func() error {
			<-ctx.Done()
			sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			return hs.Shutdown(sctx)
		})
	}
	return g.Wait()
}
