//go:build dev

package main

// The stand-ins of the Salesforce org (internal/dev/crmsim) and of the CNPJ
// lookup (internal/dev/cnpjsim) in development builds, -tags dev: `make build`,
// `make run`, the tests, chaos, the load test and the demo mode. The default
// build is the production build (standin_off.go, the Dockerfile's): both are
// left out.

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/brand"
	"oportuna/config"
	"oportuna/crm"
	"oportuna/internal/dev/cnpjsim"
	"oportuna/internal/dev/crmsim"
)

// startStandIn starts the stand-in in-process for the life of ctx (it creates
// its schema crm_sim first) and returns a client pointed at it, sending its
// requests with hc (nil: the default client).
func startStandIn(ctx context.Context, db *pgxpool.Pool, brands *brand.Registry, hc *http.Client) (crm.Client, error) {
	opts, err := crmsim.OptionsFromEnv(os.Getenv, brands)
	if err != nil {
		return nil, fmt.Errorf("crm-sim: %w", err)
	}
	stand := crmsim.New(db, opts)
	addr := os.Getenv("CRM_SIM_ADDR")
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	url, err := stand.Start(ctx, addr)
	if err != nil {
		return nil, err
	}
	slog.Warn("CRM_URL not set: using the Salesforce stand-in", "url", url, "admin", url+"/__sim/")
	return crm.NewSalesforce(stand.ClientConfig(url), hc)
}

// runCRMSim serves the Salesforce stand-in on its own (oportuna crm-sim).
func runCRMSim(ctx context.Context, cfg config.Config) error {
	db, err := openDB(ctx, cfg, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	opts, err := crmsim.OptionsFromEnv(os.Getenv, brand.MustLoad())
	if err != nil {
		return err
	}
	addr := os.Getenv("CRM_SIM_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8091"
	}
	slog.Info("Salesforce stand-in listening", "addr", addr)
	return crmsim.ListenAndServe(ctx, addr, db, opts)
}

// startCNPJStandIn serves the CNPJ lookup's stand-in on a loopback port (`dev`
// without CNPJ_URL); stop ends it.
func startCNPJStandIn() (url string, stop func(context.Context) error, err error) {
	_, url, stop, err = cnpjsim.Serve("127.0.0.1:0")
	return url, stop, err
}
