#!/usr/bin/env bash
# make cluster: the portal on a production-shaped Temporal (docs/operations.md
# "Production Temporal (cluster)"). This script prepares what make run's does
# (PostgreSQL, payload key, JWT secret) and runs internal/stack/cmd/cluster,
# which sets Temporal up with deploy/temporal/schema.sh and setup.sh, starts its
# four services from deploy/temporal/config.yaml and then the portal.
# Ctrl-C stops every process started here; the state stays in .data/.
# CLUSTER_FLAGS adds flags, e.g. CLUSTER_FLAGS=-free-ports.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

started_pg=
cleanup() {
  trap - INT TERM EXIT
  [ -n "$started_pg" ] && scripts/pg.sh stop
  true
}
trap cleanup INT TERM EXIT

mkdir -p "$DATA/cluster"
ensure_database
admin_url=$DATABASE_URL # Temporal's databases beside the portal's, as in docker-compose.yml
[ -z "$PG_LOCAL" ] || admin_url=$(PGDB=postgres scripts/pg.sh url)

ensure_payload_keys
ensure_jwt_secret

go build -tags dev -o "$DATA/cluster/oportuna-cluster" ./internal/stack/cmd/cluster
# shellcheck disable=SC2086 # CLUSTER_FLAGS are words
"$DATA/cluster/oportuna-cluster" -bin bin/oportuna -dir "$DATA/cluster" -admin-url "$admin_url" -database-url "$DATABASE_URL" ${CLUSTER_FLAGS:-}
