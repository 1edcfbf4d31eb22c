#!/bin/sh
# Creates and migrates the Temporal server's two PostgreSQL databases with
# temporal-sql-tool, the way Temporal documents for a production cluster
# (create-database, setup-schema -v 0.0, update-schema -d <versioned>). The one
# script of both deployments: docker-compose.yml's temporal-schema job runs it
# in temporalio/admin-tools, make cluster and the tests' cluster
# (internal/stack/cluster.go) run it here. Idempotent: run it again after
# upgrading the server (the same version as the tool and the schema files).
#
#   TEMPORAL_DB_HOST, TEMPORAL_DB_PORT        PostgreSQL (as in config.yaml)
#   TEMPORAL_DB_USER, TEMPORAL_DB_PASSWORD    a user that may create databases
#   TEMPORAL_DB, TEMPORAL_VISIBILITY_DB       databases (default temporal, temporal_visibility)
#   SQL_TOOL      temporal-sql-tool (default: the one on PATH)
#   SCHEMA_DIR    schema/postgresql/v12 of the server's version (default: admin-tools' /etc/temporal/schema/postgresql/v12)
set -eu

SQL_TOOL=${SQL_TOOL:-temporal-sql-tool}
SCHEMA_DIR=${SCHEMA_DIR:-/etc/temporal/schema/postgresql/v12}
SQL_PLUGIN=postgres12
SQL_HOST=${TEMPORAL_DB_HOST:-127.0.0.1}
SQL_PORT=${TEMPORAL_DB_PORT:-5432}
SQL_USER=${TEMPORAL_DB_USER:-postgres}
SQL_PASSWORD=${TEMPORAL_DB_PASSWORD:-}
export SQL_PLUGIN SQL_HOST SQL_PORT SQL_USER SQL_PASSWORD

for pair in "${TEMPORAL_DB:-temporal}=temporal" "${TEMPORAL_VISIBILITY_DB:-temporal_visibility}=visibility"; do
  db=${pair%%=*}
  versioned="$SCHEMA_DIR/${pair#*=}/versioned"
  [ -d "$versioned" ] || { echo "temporal-schema: no schema in $versioned" >&2; exit 1; }
  echo "temporal-schema: $db ($versioned)"
  "$SQL_TOOL" --database "$db" create-database
  "$SQL_TOOL" --database "$db" setup-schema -v 0.0
  "$SQL_TOOL" --database "$db" update-schema -d "$versioned"
done
echo "temporal-schema: done"
