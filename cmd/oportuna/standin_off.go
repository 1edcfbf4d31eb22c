//go:build !dev

package main

// A production build (the default, without -tags dev; the Dockerfile's): no
// Salesforce stand-in and no CNPJ lookup stand-in. Asking for one (`oportuna crm-sim`,
// CRM_SIM=on, `dev` or `seed` without CRM_URL, `dev` without CNPJ_URL) is
// refused with errNoStandIn.

import (
	"context"
	"errors"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/brand"
	"oportuna/config"
	"oportuna/crm"
)

var errNoStandIn = errors.New("this oportuna is a production build, without the Salesforce stand-in: " +
	"set CRM_URL and SALESFORCE_* to the Salesforce org (docs/integrations-crm.md), " +
	"or use a development build (go build -tags dev; make build, make run) for the stand-in")

func startStandIn(context.Context, *pgxpool.Pool, *brand.Registry, *http.Client) (crm.Client, error) {
	return nil, errNoStandIn
}

func runCRMSim(context.Context, config.Config) error { return errNoStandIn }

func startCNPJStandIn() (string, func(context.Context) error, error) {
	return "", nil, errors.New("this oportuna is a production build, without the CNPJ lookup stand-in: " +
		"set CNPJ_URL (docs/integrations-cnpj.md), or run `oportuna api` and `oportuna worker` instead of `dev`")
}
