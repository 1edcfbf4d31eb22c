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
if [ -z "${DATABASE_URL:-}" ]; then
  scripts/pg.sh status || started_pg=1 # stop it on exit only if this script started it
  scripts/pg.sh start
  export DATABASE_URL=$(scripts/pg.sh url)
  admin_url=$(PGDB=postgres scripts/pg.sh url)
else
  admin_url=$DATABASE_URL # Temporal's databases beside the portal's, as in docker-compose.yml
fi

ensure_payload_keys
if [ -z "${JWT_SECRET:-}" ]; then
  [ -s "$DATA/jwt_secret" ] || (umask 077; head -c 48 /dev/urandom | base64 | tr -d '\n=+/' >"$DATA/jwt_secret")
  export JWT_SECRET=$(cat "$DATA/jwt_secret")
fi

go build -tags dev -o "$DATA/cluster/oportuna-cluster" ./internal/stack/cmd/cluster
# shellcheck disable=SC2086 # CLUSTER_FLAGS are words
"$DATA/cluster/oportuna-cluster" -bin bin/oportuna -dir "$DATA/cluster" -admin-url "$admin_url" -database-url "$DATABASE_URL" ${CLUSTER_FLAGS:-}
