# Oportuna — see README.md. `make run` starts the whole stack with demo data;
# `make test` runs every test. Both set up what a fresh Debian machine lacks.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

GO      ?= go
# The Go toolchain of every build and test: go1.26.10 carries the standard
# library's security fixes that `make audit` reports for the machine's go1.26.8
# (docs/security-authz.md). The go command fetches it from the module proxy once.
# go.mod names the same (toolchain go1.26.10), so a plain `go test` uses it too.
export GOTOOLCHAIN := go1.26.10
# The default build is the production build (the Dockerfile's); -tags dev adds
# the stand-ins (internal/dev/: Salesforce, CNPJ lookup) that make run, the
# tests, chaos, the load test and make cluster use.
DEV_TAGS := -tags dev
NPM     ?= npm
GOBIN_DIR := $(or $(shell $(GO) env GOBIN),$(firstword $(subst :, ,$(shell $(GO) env GOPATH)))/bin)
TEMPORAL  := $(GOBIN_DIR)/temporal
TEMPORAL_CLI_VERSION := v1.5.1
# The production Temporal server of make cluster, TEMPORAL_ENGINE=cluster and
# docker-compose.yml (deploy/compose_test.go checks they agree): temporal-server
# and temporal-sql-tool, which go install names server and sql, and the schema
# files of the same version in the module cache.
TEMPORAL_SERVER_VERSION := v1.29.1
TEMPORAL_SERVER := $(GOBIN_DIR)/server
TEMPORAL_SQL_TOOL := $(GOBIN_DIR)/sql
TEMPORAL_SCHEMA_DIR = $(shell $(GO) env GOMODCACHE)/go.temporal.io/server@$(TEMPORAL_SERVER_VERSION)/schema/postgresql/v12
# The Temporal UI of make cluster (the same version as compose's temporalio/ui).
TEMPORAL_UI_VERSION := v2.42.1
TEMPORAL_UI := $(GOBIN_DIR)/temporal-ui-$(TEMPORAL_UI_VERSION)/server
# The Temporal server of make go-test and make loadtest: dev (temporal server
# start-dev) or cluster (the production server; docs/operations.md).
TEMPORAL_ENGINE ?= dev
CLUSTER_ENV = TEMPORAL_CLI="$(TEMPORAL)" TEMPORAL_SERVER="$(TEMPORAL_SERVER)" TEMPORAL_SQL_TOOL="$(TEMPORAL_SQL_TOOL)" TEMPORAL_SCHEMA_DIR="$(TEMPORAL_SCHEMA_DIR)"
STATICCHECK := $(GOBIN_DIR)/staticcheck
STATICCHECK_VERSION := v0.8.2
GO_SOURCES := $(shell find . -name '*.go' -not -path './web/node_modules/*') go.mod go.sum VERSION brand/brands.json $(wildcard migrations/*.sql)
WEB_SOURCES := $(shell find web/src web/public web/build web/index.html web/vite.config.ts web/tsconfig*.json -type f 2>/dev/null)

.PHONY: help run test check build web tools deps pg-start pg-stop vet go-test fuzz web-test e2e chaos chaos-short chaos-cluster restore-drill loadtest bench bench-web clean cluster cluster-tools

help:
	@echo "make check  the fast loop (< 3 min, no service): gofmt, go vet, staticcheck, the Go unit tests (go test -short), web typecheck, lint and unit tests"
	@echo "make run    start PostgreSQL, Temporal, the API and the worker with demo data (http://localhost:8080)"
	@echo "make test   every test: go vet, go test, fuzzing (briefly), web unit tests, typecheck, web build, browser tests"
	@echo "make build  bin/oportuna with the web app embedded, a development build (-tags dev: the stand-ins)"
	@echo "make bench  Go benchmarks"
	@echo "make bench-web  the login page's first load, a 10,000-row list, and Lighthouse 12 on every public page, in Chromium"
	@echo "make chaos  a mixed workload while the worker, the API, Temporal and PostgreSQL are killed and the CRM and mail are down; check nothing is lost, duplicated or stuck"
	@echo "make chaos-cluster  the same on the production Temporal: its history, matching and frontend services killed one at a time, PostgreSQL restarted"
	@echo "make restore-drill  back up the portal's and Temporal's databases with work in flight, destroy, restore, prove it resumes; prints the restore time"
	@echo "make audit  govulncheck and npm audit --omit=dev (needs the network; docs/security-authz.md)"
	@echo "make loadtest  register, approve and read through the API on a fresh stack, beside the bare engine; p50/p95/p99 and /s per call (LOADTEST_FLAGS)"
	@echo "make cluster  the portal (2 api + 2 worker processes) on a production Temporal: PostgreSQL, frontend/history/matching/worker processes (Ctrl-C stops it)"
	@echo "TEMPORAL_ENGINE=cluster make go-test|loadtest  the same on that Temporal instead of the dev server"

## Set-up -------------------------------------------------------------------

$(TEMPORAL):
	cd /tmp && GOFLAGS=-buildvcs=false $(GO) install github.com/temporalio/cli/cmd/temporal@$(TEMPORAL_CLI_VERSION)

$(STATICCHECK):
	cd /tmp && GOFLAGS=-buildvcs=false $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

$(TEMPORAL_SERVER):
	cd /tmp && GOFLAGS=-buildvcs=false $(GO) install go.temporal.io/server/cmd/server@$(TEMPORAL_SERVER_VERSION)

$(TEMPORAL_SQL_TOOL):
	cd /tmp && GOFLAGS=-buildvcs=false $(GO) install go.temporal.io/server/cmd/tools/sql@$(TEMPORAL_SERVER_VERSION)

# go install calls it server too: a folder of its own keeps it apart.
$(TEMPORAL_UI):
	cd /tmp && GOFLAGS=-buildvcs=false GOBIN="$(dir $(TEMPORAL_UI))" $(GO) install github.com/temporalio/ui-server/v2/cmd/server@$(TEMPORAL_UI_VERSION)

# What a cluster runs: the binaries of TEMPORAL_SERVER_VERSION (another
# version found under those generic names is replaced) and its schema files.
cluster-tools: $(TEMPORAL) $(TEMPORAL_SERVER) $(TEMPORAL_SQL_TOOL)
	@want="$(TEMPORAL_SERVER_VERSION:v%=%)"; \
	if ! "$(TEMPORAL_SERVER)" --version 2>/dev/null | grep -qF "version $$want"; then rm -f "$(TEMPORAL_SERVER)" && $(MAKE) --no-print-directory "$(TEMPORAL_SERVER)"; fi; \
	if ! "$(TEMPORAL_SQL_TOOL)" --version 2>/dev/null | grep -qF "version $$want"; then rm -f "$(TEMPORAL_SQL_TOOL)" && $(MAKE) --no-print-directory "$(TEMPORAL_SQL_TOOL)"; fi; \
	test -d "$(TEMPORAL_SCHEMA_DIR)/temporal/versioned" || (cd /tmp && $(GO) mod download go.temporal.io/server@$(TEMPORAL_SERVER_VERSION))

web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(NPM) ci --no-audit --no-fund
	touch $@

/usr/bin/chromium:
	source scripts/lib.sh && apt_install chromium

# The mail tests deliver to a Postfix of their own (internal/postfix): Debian's
# package, installed without a configuration of the machine's (no instance on port 25).
/usr/sbin/postfix:
	source scripts/lib.sh && apt_install_postfix

tools: $(TEMPORAL) $(STATICCHECK) web/node_modules/.installed cluster-tools /usr/sbin/postfix

pg-start:
	@if [ -z "$${DATABASE_URL:-}" ]; then scripts/pg.sh start; fi

pg-stop:
	scripts/pg.sh stop

## Build --------------------------------------------------------------------

web/dist/index.html: web/node_modules/.installed $(WEB_SOURCES)
	cd web && $(NPM) run build

web: web/dist/index.html

# A development build (-tags dev): make run, the browser tests, chaos, the load
# test and make cluster run it with the stand-ins. The production binary is the
# default build (the Dockerfile's); cmd/oportuna/build_test.go checks both.
bin/oportuna: web/dist/index.html $(GO_SOURCES)
	CGO_ENABLED=0 $(GO) build -trimpath $(DEV_TAGS) -o $@ ./cmd/oportuna

build: bin/oportuna

## Run ----------------------------------------------------------------------

run: build $(TEMPORAL)
	scripts/run.sh

# The portal on a production-shaped Temporal (docs/operations.md "Production
# Temporal (cluster)"): the schema by deploy/temporal/schema.sh, four
# temporal-server processes from deploy/temporal/config.yaml, the namespace
# oportuna by deploy/temporal/setup.sh, 2 api + 2 worker processes, the codec
# server and the Temporal UI. Its state stays in .data/ (PostgreSQL databases
# temporal and temporal_visibility); Ctrl-C stops it.
cluster: build cluster-tools
	@$(MAKE) --no-print-directory "$(TEMPORAL_UI)" || echo "the Temporal UI did not install: make cluster runs without it (README.md)"
	$(CLUSTER_ENV) TEMPORAL_UI="$(TEMPORAL_UI)" scripts/cluster.sh

## Test ---------------------------------------------------------------------

# The tests use DATABASE_URL when set, else the project cluster in .data/postgres.
TEST_DB_URL = $${DATABASE_URL:-$$(PGDB=postgres scripts/pg.sh url)}

# Both builds: the default (production) one and -tags dev (cmd/oportuna's
# stand-ins). Neither needs web/dist (web/embed.go).
vet: $(STATICCHECK)
	$(GO) vet ./...
	$(GO) vet $(DEV_TAGS) ./cmd/oportuna
	$(STATICCHECK) ./...
	$(STATICCHECK) $(DEV_TAGS) ./cmd/oportuna

# The Go tests run in UTC+14, 17 hours ahead of Brasília: a "today" taken from the
# machine's zone instead of Brasília's calendar (internal/calendar) fails them.
# TEMPORAL_ENGINE=cluster runs them on the production server instead of the dev
# server: a cluster of its own for each test binary (internal/testenv). Four test
# binaries at a time on 2 cores: they wait on their servers and timers more than
# they compute (383 s with -p 2, 297 s with -p 4, one machine, 27/11/2026). The
# longest packages start first (go test runs them in the order named; ./...
# adds the rest once each): started last, workflows alone ran 2-3 minutes after
# the others had ended (297 s → 175 s, warm build cache). In workflows and crm
# the tests on a real server have a namespace each (testenv.ParallelTemporalClient)
# and run six at a time (-parallel 6): they wait on timers and a stalled
# database, not the CPU (workflows alone: 161 s → 61 s; in make test about 105 s).
SLOW_GO_PACKAGES := ./workflows ./crm ./deploy ./api ./reconcile ./auth ./mailer
go-test: web/dist/index.html $(TEMPORAL) cluster-tools /usr/sbin/postfix pg-start
	TZ=Pacific/Kiritimati OPORTUNA_TEST_DATABASE_URL="$(TEST_DB_URL)" TEMPORAL_ENGINE="$(TEMPORAL_ENGINE)" $(CLUSTER_ENV) \
		$(GO) test $(DEV_TAGS) -p 4 -parallel 6 -count=1 -timeout $(if $(filter cluster,$(TEMPORAL_ENGINE)),30m,15m) $(SLOW_GO_PACKAGES) ./...

# Each fuzz target runs briefly (FUZZTIME, default 20000 inputs) from its seed corpus.
FUZZ_TARGETS := ./cnpj:FuzzValid ./cnpj:FuzzNormalize ./cnpj:FuzzCheckDigits \
	./opportunity:FuzzCheckPhone ./opportunity:FuzzCheckCEP ./geo:FuzzParseCEP ./geo:FuzzCityByName
fuzz:
	for t in $(FUZZ_TARGETS); do \
		$(GO) test -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $${FUZZTIME:-20000x} "$${t%%:*}"; \
	done

web-test: web/node_modules/.installed
	cd web && $(NPM) run typecheck && $(NPM) run lint && $(NPM) test

e2e: build $(TEMPORAL) /usr/bin/chromium pg-start
	TEMPORAL_CLI="$(TEMPORAL)" scripts/e2e.sh

# The web app's figures (docs/web.md "First load and big lists"): bytes and first
# paint of the login page (also on a throttled 1.6 Mbps / 150 ms link), and a
# 10,000-row opportunity list ('Todas', sorting, typing) served by a mocked API.
bench-web: build $(TEMPORAL) /usr/bin/chromium pg-start
	CHROME_PATH=/usr/bin/chromium TEMPORAL_CLI="$(TEMPORAL)" scripts/e2e.sh --config playwright.bench.config.ts

# The e-mails' logos: brand/brands.json's SVG logos drawn as PNG by Chromium
# (brand/logos/<slug>.png, committed; brand/assets_test.go fails while one is stale).
.PHONY: brand-logos
brand-logos: web/node_modules/.installed /usr/bin/chromium
	node scripts/brand-logos.mjs

# Chaos (docs/operations.md): `oportuna api` and `oportuna worker` as separate
# processes, on a PostgreSQL server of the run's own (restarted during the run)
# and a fresh Temporal dev server on a state file (killed and restarted); a
# mixed workload (approvals, refusals, edits, renewals, an operator's cancel),
# every answered call sent again with its key; the worker and the API killed,
# the CRM and the SMTP server down for a while.
# CHAOS_FLAGS adds flags, e.g. CHAOS_FLAGS='-opportunities 300 -seed 42'.
chaos: build $(TEMPORAL)
	$(GO) run $(DEV_TAGS) ./cmd/chaos -bin bin/oportuna -temporal "$(TEMPORAL)" $${CHAOS_FLAGS:-}

# The short round of make test: 10 stories a round, 3 worker kills a round, a 12 s CRM outage, an 8 s mail outage.
chaos-short: build $(TEMPORAL)
	$(GO) run $(DEV_TAGS) ./cmd/chaos -short -bin bin/oportuna -temporal "$(TEMPORAL)" $${CHAOS_FLAGS:-}

# The same run on the production-shaped Temporal (internal/stack/cluster): its
# history service killed, its matching service killed, its frontend restarted,
# one at a time, and PostgreSQL (the run's own, Temporal's and the portal's)
# restarted and stalled 20 s.
chaos-cluster: build cluster-tools
	$(CLUSTER_ENV) $(GO) run $(DEV_TAGS) ./cmd/chaos -engine cluster -pg-stall 20s -opportunities 40 -bin bin/oportuna -temporal "$(TEMPORAL)" $${CHAOS_FLAGS:-}

# The restore rehearsal (docs/operations.md, "Backups and restore"): on a cluster with
# opportunities in flight, pg_dump of the portal's and Temporal's databases,
# everything stopped and dropped, pg_restore, the cluster and the portal
# started again; the workflows resume (a decision, an expiry timer, the read
# model). Prints the restore time. RESTORE_FLAGS adds flags.
restore-drill: build cluster-tools
	$(CLUSTER_ENV) $(GO) run $(DEV_TAGS) ./cmd/restoredrill -bin bin/oportuna -temporal "$(TEMPORAL)" $${RESTORE_FLAGS:-}

# The load test (docs/operations.md, "Load test"): registrations, approvals and
# reads through the API of a fresh stack (separate api, worker and Salesforce
# stand-in processes), beside the bare engine on the same Temporal dev server,
# or with TEMPORAL_ENGINE=cluster on the same production-shaped cluster.
# LOADTEST_FLAGS adds flags, e.g. LOADTEST_FLAGS='-n 500 -clients 8,32,64' or
# LOADTEST_FLAGS=-compare-replicas (then 2 api + 2 worker processes as well).
loadtest: build $(TEMPORAL) $(if $(filter cluster,$(TEMPORAL_ENGINE)),cluster-tools) pg-start
	OPORTUNA_TEST_DATABASE_URL="$(TEST_DB_URL)" $(CLUSTER_ENV) $(GO) run $(DEV_TAGS) ./cmd/loadtest -bin bin/oportuna -temporal "$(TEMPORAL)" -engine "$(TEMPORAL_ENGINE)" $${LOADTEST_FLAGS:-}

# make test: the tools and PostgreSQL, then two lanes side by side, each line
# prefixed with its lane and kept in .data/test-<lane>.log:
# [go] sqlc-check and fuzzing, which read neither web/ nor bin/, while the
# browser lane installs the web's packages (npm ci: a minute of disk, little
# CPU); then, once the build is there, go vet, staticcheck, the web's unit
# tests, go test and chaos-short, one after the other;
# [browser] the build (npm ci, the web build, bin/oportuna), then the browser
# tests, Playwright at a lower priority (E2E_NICE; Chromium run as root sets
# its own), the portal's server, Temporal and the seed at the normal one
# (docs/architecture.md "The check loop").
# The build is made once: whichever lane comes to it first makes it, the other
# waits for it (flock). When a lane fails, what failed (Go, vitest, tsc, ESLint
# and Playwright failures, colours stripped) is printed again at the end, where
# a CI log keeps it.
LANES := go browser
test: test-tools
	@mkdir -p .data; rc=0; TEST_T0=$$(date +%s) $(MAKE) --no-print-directory -j2 $(LANES:%=test-lane-%) || rc=$$?; \
	if [ "$$rc" != 0 ]; then \
		for l in $(LANES); do \
			echo "== the $$l lane's failures (.data/test-$$l.log)"; \
			sed 's/\x1b\[[0-9;]*m//g' .data/test-$$l.log > .data/test-$$l.plain; \
			grep -a -E -A15 '^\[[a-z]+\] +(--- FAIL|FAIL |panic:|✘|Error: |.*error TS[0-9]+|[0-9]+:[0-9]+ +error )' .data/test-$$l.plain | head -n 120 || true; \
			grep -a -E '^\[[a-z]+\] .*\*\*\*' .data/test-$$l.plain | tail -n 20 || true; \
		done; \
		sed -n '/the page at the failure/,/the server.s warnings/p' .data/test-browser.plain | head -n 70 || true; \
		echo "== what failed, in short"; \
		cat $(LANES:%=.data/test-%.plain) | grep -a -E '^\[go\] +(--- FAIL|FAIL[[:space:]]|panic:)|^\[[a-z]+\] +✘|^\[[a-z]+\] +FAIL ' | cut -c1-200 | head -n 15 || true; \
		exit "$$rc"; fi
	@echo "make test: all green"

.PHONY: test-tools $(LANES:%=test-lane-%)
test-tools: $(TEMPORAL) $(STATICCHECK) cluster-tools /usr/sbin/postfix /usr/bin/chromium pg-start

BUILD_ONCE = flock .data/build.lock $(MAKE) --no-print-directory build
# A lane's stages, timed from make test's start (TEST_T0): "== stage at 312 s: go-test".
STAGE = echo "== stage at $$(( $$(date +%s) - $${TEST_T0:-0} )) s:"
test-lane-go:
	@{ for t in sqlc-check fuzz; do $(STAGE) $$t; $(MAKE) --no-print-directory $$t || exit 1; done; $(STAGE) build; $(BUILD_ONCE) >/dev/null; \
		for t in vet web-test go-test chaos-short; do $(STAGE) $$t; $(MAKE) --no-print-directory $$t || exit 1; done; $(STAGE) end; } 2>&1 \
		| sed -u 's/^/[go] /' | tee .data/test-go.log

test-lane-browser:
	@{ $(STAGE) build; $(BUILD_ONCE) && $(STAGE) e2e && E2E_NICE=10 $(MAKE) --no-print-directory e2e && $(STAGE) end; } 2>&1 | sed -u 's/^/[browser] /' | tee .data/test-browser.log

# The fast loop (README.md): what needs no service and no web build, on a fresh
# clone too. The Go half (gofmt, vet, staticcheck, go test -short: the tests
# that need PostgreSQL, Temporal, Postfix or web/dist skip themselves under
# -short, internal/testenv.NeedsServices) and the web half (typecheck, lint,
# vitest) run side by side; make test runs everything.
.PHONY: check-go check-web
check:
	@$(MAKE) --no-print-directory -j2 --output-sync=target check-go check-web
	@echo "make check: all green"

check-go: $(STATICCHECK)
	@bad=$$(gofmt -l $$(git ls-files -co --exclude-standard '*.go')); \
	if [ -n "$$bad" ]; then echo "gofmt -l: not formatted:"; echo "$$bad"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet $(DEV_TAGS) ./cmd/oportuna
	$(STATICCHECK) ./...
	$(STATICCHECK) $(DEV_TAGS) ./cmd/oportuna
	$(GO) test $(DEV_TAGS) -short ./...

check-web: web/node_modules/.installed
	cd web && $(NPM) run --silent typecheck && $(NPM) run --silent lint && $(NPM) test --silent

## SQL (store/) ---------------------------------------------------------------

# sqlc (pinned in tools/go.mod; built once by the go command, cgo) generates the
# typed Go of store/*.sql, checked against migrations/ (docs/architecture.md).
SQLC = cd tools && $(GO) tool sqlc -f ../store/sqlc.yaml

.PHONY: sqlc sqlc-check
# Regenerate store/*.sql.go after editing store/*.sql or adding a migration.
sqlc:
	$(SQLC) generate

# Fails when the generated code is out of date with the .sql files or the schema.
sqlc-check:
	$(SQLC) diff


# The API benchmarks build (once, kept in the database oportuna_bench) a data set of
# OPORTUNA_BENCH_ROWS opportunities, 1,000,000 by default.
bench: web/dist/index.html pg-start
	OPORTUNA_TEST_DATABASE_URL="$(TEST_DB_URL)" OPORTUNA_BENCH_ROWS="$${OPORTUNA_BENCH_ROWS:-1000000}" \
		$(GO) test $(DEV_TAGS) -run '^$$' -bench . -benchmem -timeout 60m ./...

# Known vulnerabilities (docs/security-authz.md): govulncheck ./... (vuln.go.dev, else the
# golang.org/x/vulndb snapshot VULNDB_VERSION through the Go module proxy) and npm audit
# --omit=dev in web/ (moderate or higher fails). A database that cannot be reached is reported
# as SKIPPED, not as a failure; scripts/audit-accepted.txt lists the findings accepted, with
# their reason. It needs the network, so it is not part of make test.
GOVULNCHECK := $(GOBIN_DIR)/govulncheck
GOVULNCHECK_VERSION := v1.9.0
VULNDB_VERSION := v0.0.0-20261105234957-e22db6528018

$(GOVULNCHECK):
	cd /tmp && GOFLAGS=-buildvcs=false $(GO) install golang.org/x/vuln/cmd/govulncheck@$(GOVULNCHECK_VERSION)

.PHONY: audit
audit: web/dist/index.html $(GOVULNCHECK)
	GO="$(GO)" NPM="$(NPM)" GOVULNCHECK="$(GOVULNCHECK)" VULNDB_VERSION="$(VULNDB_VERSION)" scripts/audit.sh

clean:
	rm -rf bin web/dist
