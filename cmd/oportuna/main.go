// Command oportuna is the whole portal in one binary:
//
//	oportuna api       HTTP server (main API, authenticator, web app)
//	oportuna worker    Temporal worker
//	oportuna dev       api and worker in one process (make run)
//	oportuna migrate   apply database migrations
//	oportuna seed      create the demo data (idempotent)
//	oportuna adopt ID  start a run adopting a stored opportunity (the runbook's way back)
//	oportuna crm-sim   the Salesforce stand-in on its own (development builds only: -tags dev)
//	oportuna codec-server   decrypts payloads for the Temporal UI (CODEC_ADDR)
//	oportuna brands    list the brand slugs
//	oportuna version   print the version
//	oportuna healthcheck URL   exit 0 when URL answers 2xx (the image's probe)
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
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"
	"golang.org/x/sync/errgroup"

	"oportuna"
	"oportuna/activities"
	"oportuna/api"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/cnpj"
	"oportuna/config"
	"oportuna/crm"
	"oportuna/internal/health"
	"oportuna/internal/logging"
	"oportuna/internal/metrics"
	"oportuna/internal/temporalclient"
	"oportuna/internal/tracing"
	"oportuna/mailer"
	"oportuna/migrations"
	"oportuna/reconcile"
	"oportuna/seed"
	"oportuna/web"
	"oportuna/worker"
	"oportuna/workflows"
)

const usage = `usage: oportuna <command>

commands:
  api       run the HTTP server (main API, authenticator, web app)
  worker    run the Temporal worker
  dev       run api and worker in one process
  migrate   apply the database migrations
  seed      create the demo data (idempotent)
  adopt ID  start a workflow run that adopts the stored opportunity ID (docs/operations.md)
  crm-sim   run the Salesforce stand-in (CRM_SIM_ADDR, default 127.0.0.1:8091; development builds only)
  codec-server   decrypt payloads for the Temporal UI (CODEC_ADDR, default 127.0.0.1:8089)
  brands    list the brand slugs
  version   print the version
  healthcheck URL   exit 0 when URL answers 2xx (the compose health checks)

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
	case "healthcheck":
		if len(os.Args) != 3 {
			fmt.Fprintln(os.Stderr, "usage: oportuna healthcheck URL")
			os.Exit(2)
		}
		if err := health.Probe(context.Background(), os.Args[2], 4*time.Second); err != nil {
			fmt.Fprintln(os.Stderr, "oportuna healthcheck:", err)
			os.Exit(1)
		}
		return
	}
	cfg, err := config.FromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "oportuna: configuration:", err)
		os.Exit(2)
	}
	slog.SetDefault(logging.New(os.Stderr, cfg.LogLevel))
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
	case "adopt":
		err = adopt(ctx, cfg, os.Args[2:])
	case "crm-sim":
		err = runCRMSim(ctx, cfg)
	case "codec-server":
		err = runCodecServer(ctx, cfg)
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		slog.Error("oportuna "+cmd+" failed", "err", err)
		os.Exit(1)
	}
}

// openDB opens the pool, its statements traced by tp (nil: untraced).
func openDB(ctx context.Context, cfg config.Config, tp *tracing.Provider) (*pgxpool.Pool, error) {
	pcfg, err := pgxpool.ParseConfig(cfg.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	tp.ConfigurePool(pcfg)
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
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
	db, err := openDB(ctx, cfg, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	ran, err := migrations.Apply(ctx, db)
	slog.Info("migrations applied", "count", len(ran), "names", ran)
	return err
}

func seedDemo(ctx context.Context, cfg config.Config) error {
	db, err := openDB(ctx, cfg, nil)
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
	tc, err := dialTemporal(ctx, cfg, nil, nil)
	if err != nil {
		return err
	}
	defer tc.Close()
	wctx, stopWorker := context.WithCancel(ctx)
	done := make(chan error, 1)
	crmClient, err := newCRM(wctx, db, brands, true, nil)
	if err != nil {
		stopWorker()
		return err
	}
	// Seeding never e-mails the demo addresses: its notices are only logged.
	acts := newActivities(db, brands, cfg, crmClient, seedMailer{})
	go func() { done <- worker.Run(wctx, tc, cfg.TemporalNamespace, acts) }()
	n, err := seed.Opportunities(ctx, acts, tc, brands)
	var signUps int
	if err == nil {
		signUps, err = seed.Resales(ctx, db, tc, brands)
	}
	stopWorker()
	if werr := <-done; err == nil {
		err = werr
	}
	slog.Info("demo opportunities and sign-ups", "opportunities_created", n, "sign_ups_created", signUps)
	return err
}

// seedMailer is the mailer of `oportuna seed`: it notes each e-mail of the
// demo data in the log (its key and brand: no address, no subject, which can
// name a customer) instead of sending it.
type seedMailer struct{}

func (seedMailer) Send(ctx context.Context, m mailer.Message) error {
	slog.InfoContext(ctx, "demo e-mail not sent", "key", m.Key, "brand", m.Brand)
	return nil
}

func (seedMailer) Portal(b *brand.Brand) string { return mailer.Config{}.Portal(b) }

func newActivities(db *pgxpool.Pool, brands *brand.Registry, cfg config.Config, crmClient crm.Client, mail activities.Mailer) *activities.Activities {
	return &activities.Activities{DB: db, Brands: brands, CRM: crmClient, Mailer: mail,
		Durations: activities.Durations{Validity: cfg.OpportunityValidity, RenewalWindow: cfg.OpportunityRenewalWindow,
			ApprovalSLA: cfg.ApprovalSLA, ExpiredRetention: cfg.OpportunityExpiredRetention}}
}

// newCRM builds the Salesforce client from CRM_URL and SALESFORCE_*. Without
// CRM_URL it starts the local stand-in (crmsim, records in its own crm_sim
// schema; only in a development build, -tags dev: not in the production one)
// for the life of ctx when CRM_SIM=on or, CRM_SIM unset, when standIn (`dev`
// and `seed`). Otherwise it refuses: an api or worker whose CRM_URL was
// forgotten must not start syncing opportunities to a fake CRM. Its requests
// are traced by tp (nil: untraced).
func newCRM(ctx context.Context, db *pgxpool.Pool, brands *brand.Registry, standIn bool, tp *tracing.Provider) (crm.Client, error) {
	sim := strings.ToLower(strings.TrimSpace(os.Getenv("CRM_SIM")))
	switch sim {
	case "":
	case "on", "true", "1":
		sim, standIn = "on", true
	case "off", "false", "0":
		standIn = false
	default:
		return nil, fmt.Errorf("CRM_SIM: %q is not on or off", sim)
	}
	cfg, err := crm.ConfigFromEnv(os.Getenv)
	switch {
	case err == nil && sim == "on":
		return nil, errors.New("CRM_SIM=on and CRM_URL are both set: unset CRM_URL to use the Salesforce stand-in, or CRM_SIM to use the Salesforce org")
	case err == nil:
		return crm.NewSalesforce(cfg, tp.HTTPClient())
	case !errors.Is(err, crm.ErrNotConfigured):
		return nil, fmt.Errorf("crm: %w", err)
	case !standIn:
		return nil, errors.New("CRM_URL is not set: set CRM_URL and SALESFORCE_* to the Salesforce org " +
			"(docs/integrations-crm.md), or CRM_SIM=on to run the Salesforce stand-in (a demo: nothing reaches a real CRM)")
	}
	return startStandIn(ctx, db, brands, tp.HTTPClient()) // standin.go; an error in a build without it (standin_off.go)
}

// newCNPJLookup builds the company lookup. In `dev` without CNPJ_URL it
// starts the local stand-in (cnpjsim) on a loopback port, for the life of ctx.
func newCNPJLookup(ctx context.Context, g *errgroup.Group, db *pgxpool.Pool, dev bool) (*cnpj.Lookup, error) {
	ccfg, err := cnpj.ConfigFromEnv(os.Getenv)
	if err != nil {
		return nil, err
	}
	if ccfg.URL == "" && dev {
		simURL, stop, err := startCNPJStandIn()
		if err != nil {
			return nil, err
		}
		g.Go(func() error { <-ctx.Done(); return stop(context.Background()) })
		ccfg.URL = simURL
		slog.Info("CNPJ lookup: local stand-in", "url", simURL)
	}
	return cnpj.New(db, ccfg)
}

// dialTemporal waits up to a minute for the Temporal frontend; the SDK's metrics
// go to mh (nil: nowhere). The client encrypts payloads (PAYLOAD_KEYS) and
// uses TLS and an API key when configured (internal/temporalclient). With tp
// (nil: untraced) its calls, and the workers built on it, carry the trace.
func dialTemporal(ctx context.Context, cfg config.Config, mh client.MetricsHandler, tp *tracing.Provider) (client.Client, error) {
	opts, err := temporalclient.Options(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.PayloadEncryptionOff {
		slog.Warn("PAYLOAD_ENCRYPTION=off: customer data is written in clear into Temporal's history")
	} else if cfg.PayloadAcceptPlaintext {
		slog.Warn("PAYLOAD_ACCEPT_PLAINTEXT=on: unencrypted payloads are accepted (a migration setting: forged plaintext updates get through)")
	}
	opts.Logger, opts.MetricsHandler = logging.Temporal(slog.Default()), mh
	opts.Interceptors = append(opts.Interceptors, tp.TemporalInterceptors()...)
	deadline := time.Now().Add(time.Minute)
	for {
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		c, err := client.DialContext(dctx, opts)
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

// runServices runs the API and/or the worker until ctx ends (SIGTERM) or a part
// fails (e.g. the worker's fatal error), then shuts down in order: /readyz
// answers 503 for SHUTDOWN_DELAY (load balancers stop sending), the HTTP server
// finishes in-flight requests (config.HTTPDrainTimeout, longer than any request
// may wait on a workflow; requests still running then are cut, with a warning),
// the worker stops polling and lets running activities finish
// (worker.StopTimeout), then the stand-ins and the metrics listener stop.
func runServices(ctx context.Context, cfg config.Config, withAPI, withWorker bool) error {
	var dist fs.FS // the web app the API serves: refused at once when the binary lacks it
	if withAPI {
		var err error
		if dist, err = web.App(); err != nil {
			return err
		}
	}
	tp, err := startTracing(ctx, withAPI, withWorker)
	if err != nil {
		return err
	}
	defer func() {
		// The spans still buffered, last; 2 s at most (a collector that is
		// down) within the margin of compose's stop_grace_period.
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = tp.Shutdown(sctx)
	}()
	db, err := openDB(ctx, cfg, tp)
	if err != nil {
		return err
	}
	defer db.Close()
	brands := brand.MustLoad()

	// Stand-ins (CRM, CNPJ) live until everything else stopped: in-flight
	// requests and activities may still call them while draining.
	bgCtx, stopBackground := context.WithCancel(context.WithoutCancel(ctx))
	bg, bgCtx := errgroup.WithContext(bgCtx)
	defer func() { stopBackground(); _ = bg.Wait() }()

	// The integrations' settings first: a missing CRM stops the start before
	// the wait for Temporal.
	mailCfg, err := mailer.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	if mailCfg.SMTPHost == "" && !mailCfg.Mailbox {
		slog.Warn("SMTP_HOST is not set and the dev mailbox is off: e-mails are recorded in the outbox but never delivered")
	}
	mail := &mailer.Mailer{DB: db, Brands: brands, Config: mailCfg}
	crmClient, err := newCRM(bgCtx, db, brands, withAPI && withWorker, tp)
	if err != nil {
		return err
	}

	reg := metrics.New()
	reg.MustRegister(mailer.Collectors()...) // e-mails given up, attempts retried (docs/operations.md, "Metrics")
	if sf, ok := crmClient.(*crm.Salesforce); ok {
		reg.MustRegister(metrics.NewSalesforce(sf)) // the org's API usage, from Sforce-Limit-Info
	}
	tc, err := dialTemporal(ctx, cfg, reg.TemporalHandler(), tp)
	if err != nil {
		return err
	}
	defer tc.Close()
	// The worker's readiness: not ready until it polls, nor after a fatal error.
	polling := &worker.Status{}
	deps := []health.Dependency{health.Postgres(db), health.Temporal(tc)}
	if withWorker {
		deps = append(deps, polling.Dependency())
	}
	checks := health.New(deps...)
	acts := newActivities(db, brands, cfg, crmClient, mail)
	if withWorker {
		// The reconciliation runs on a Temporal Schedule, created or updated by every worker.
		reg.MustRegister(metrics.NewReconciliation(db))
		if err := reconcile.EnsureSchedule(ctx, tc, cfg.ReconcileInterval); err != nil {
			return err
		}
	}

	// The API's port is bound before the probes' (the metrics listener): once
	// /readyz answers 200 a request to the API is taken, held in the listen
	// queue until the handler serves it, never refused (deploy's tests once
	// were, on a loaded machine).
	var apiLn net.Listener
	if withAPI {
		if apiLn, err = net.Listen("tcp", net.JoinHostPort("", strconv.Itoa(cfg.Port))); err != nil {
			return fmt.Errorf("http listener: %w", err)
		}
		defer apiLn.Close() // when the start fails before Serve; Serve closes it otherwise
		slog.Info("http listening", "addr", apiLn.Addr().String())
	}

	var ops *http.Server
	if cfg.MetricsPort > 0 {
		ln, err := net.Listen("tcp", net.JoinHostPort("", strconv.Itoa(cfg.MetricsPort)))
		if err != nil {
			return fmt.Errorf("metrics listener: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle(metrics.Path, reg.Handler())
		mux.Handle(health.LivePath, checks)
		mux.Handle(health.ReadyPath, checks)
		ops = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := ops.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				slog.Error("metrics listener", "err", err)
			}
		}()
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = ops.Shutdown(sctx)
		}()
		slog.Info("metrics listening", "addr", ln.Addr().String())
	}

	g, gctx := errgroup.WithContext(ctx) // gctx ends on SIGTERM or when a part fails
	// The worker outlives the HTTP server: in-flight requests may wait on updates it runs.
	workerCtx, stopWorker := context.WithCancel(context.Background())
	defer stopWorker()
	if withWorker {
		g.Go(func() error {
			return worker.RunWithSettings(workerCtx, tc, cfg.TemporalNamespace, acts, polling, workerSettings(cfg.Worker))
		})
	}
	if !withAPI {
		g.Go(func() error {
			<-gctx.Done()
			checks.Drain()
			stopWorker()
			return nil
		})
	}
	if withAPI {
		slugs := make([]string, 0, len(brands.All()))
		for _, b := range brands.All() {
			slugs = append(slugs, b.Slug)
		}
		reg.MustRegister(metrics.NewBusiness(db, slugs, cfg.ApprovalSLA))
		dispatcher := &workflows.MailDispatcher{Client: tc, Mailer: mail, ResetTTL: cfg.ResetTokenTTL}
		signer := &auth.Signer{Secret: cfg.JWTSecret, TTL: cfg.AccessTokenTTL}
		lookup, err := newCNPJLookup(bgCtx, bg, db, withWorker)
		if err != nil {
			return err
		}
		// Expired tokens and rate-limit rows are deleted by the API processes.
		stopPruning := auth.StartPruning(bgCtx, db)
		defer stopPruning()
		cnpjHandler := cnpj.NewHandler(db, lookup)
		cnpjHandler.Signer = signer
		cnpjHandler.BrandOf = func(r *http.Request) string { return brands.ForHost(r.Host).Slug }
		srv := &api.Server{
			Brands: brands, DB: db, Web: dist, Temporal: tc, CRM: acts.CRM, Health: checks, Metrics: reg,
			Auth: &auth.Service{
				DB: db, Brands: brands, Signer: signer,
				RefreshTTL: cfg.RefreshTokenTTL, ResetTTL: cfg.ResetTokenTTL,
				Mailer: dispatcher, Portal: mail.Portal,
			},
			Partners:       api.PartnerDeps{Mail: dispatcher, Portal: mail.Portal},
			CNPJ:           cnpjHandler,
			Mail:           &mailer.Handler{Brands: brands, DB: db, Enqueue: dispatcher.Enqueue, Portal: mail.Portal},
			Mailbox:        mailCfg.Mailbox,
			TrustedProxies: cfg.TrustedProxies,
			HSTSMaxAge:     cfg.HSTSMaxAge,
			ApprovalSLA:    cfg.ApprovalSLA,
			Tracing:        tp,
		}
		h, err := srv.Handler()
		if err != nil {
			return err
		}
		inFlight := &health.Requests{}
		hs := &http.Server{Handler: inFlight.Track(h), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
		g.Go(func() error {
			if err := hs.Serve(apiLn); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		})
		g.Go(func() error {
			<-gctx.Done()
			checks.Drain()
			slog.Info("shutting down: readiness answers 503", "delay", cfg.ShutdownDelay)
			time.Sleep(cfg.ShutdownDelay)
			slog.Info("shutting down: finishing the requests in flight", "running", inFlight.Running(), "timeout", config.HTTPDrainTimeout)
			// Stops accepting and waits for the requests in flight; past the drain,
			// cuts them: the process still exits cleanly, their callers retry.
			if cut, stuck := health.StopServer(hs, inFlight, config.HTTPDrainTimeout, config.HTTPCloseGrace); cut > 0 {
				slog.Warn("shutting down: requests still running after the drain were cut",
					"cut", cut, "still_running", stuck, "drain", config.HTTPDrainTimeout)
			}
			stopWorker()
			return nil
		})
	}
	return g.Wait()
}

// startTracing starts the OpenTelemetry tracing (internal/tracing): off unless
// OTEL_EXPORTER_OTLP_ENDPOINT is set. The service is oportuna-api,
// oportuna-worker or, both in one process (dev), oportuna; OTEL_SERVICE_NAME
// overrides it.
func startTracing(ctx context.Context, withAPI, withWorker bool) (*tracing.Provider, error) {
	tcfg, err := tracing.ConfigFromEnv(os.Getenv)
	if err != nil {
		return nil, err
	}
	service := "oportuna"
	switch {
	case withAPI && !withWorker:
		service = "oportuna-api"
	case withWorker && !withAPI:
		service = "oportuna-worker"
	}
	tp, err := tracing.Start(ctx, tcfg, service, oportuna.Version())
	if err != nil {
		return nil, err
	}
	if tp.Enabled() {
		slog.Info("tracing: exporting spans over OTLP", "endpoint", tcfg.Endpoint, "protocol", tcfg.Protocol, "service", service)
	}
	return tp, nil
}
