#!/usr/bin/env bash
# Project-local PostgreSQL cluster in .data/postgres, made with the machine's
# initdb/pg_ctl (Debian's postgresql package, installed when missing).
#   scripts/pg.sh start   start it (initialising it the first time) and create the database
#   scripts/pg.sh stop    stop it
#   scripts/pg.sh status  exit 0 when it runs
#   scripts/pg.sh url     print its URL
source "$(dirname "$0")/lib.sh"

PGDATA_DIR="$DATA/postgres"
PORT_FILE="$DATA/postgres.port"
# The port is 54329 unless PGPORT_LOCAL says otherwise or another server holds it
# (e.g. a second checkout's cluster); the choice is kept in .data/postgres.port.
if [ -n "${PGPORT_LOCAL:-}" ]; then :
elif [ -s "$PORT_FILE" ]; then PGPORT_LOCAL=$(cat "$PORT_FILE")
else PGPORT_LOCAL=54329; fi

port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
PGDB=${PGDB:-oportuna}

pg_bin() {
  local p
  p=$(command -v "$1" 2>/dev/null || ls -1d /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1 || true)
  echo "$p"
}

as_pg() { # initdb and pg_ctl refuse to run as root
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
url)
  echo "postgres://postgres@127.0.0.1:$PGPORT_LOCAL/$PGDB?sslmode=disable" ;;
start)
  if [ -z "$(pg_bin initdb)" ] || ! command -v psql >/dev/null; then
    log "installing Debian's postgresql package"
    apt_install postgresql
  fi
  INITDB=$(pg_bin initdb); PGCTL=$(pg_bin pg_ctl)
  mkdir -p "$DATA"
  if [ ! -s "$PGDATA_DIR/PG_VERSION" ]; then
    log "initialising PostgreSQL in $PGDATA_DIR"
    mkdir -p "$PGDATA_DIR"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$PGDATA_DIR" && chmod 700 "$PGDATA_DIR"
    as_pg "$INITDB" -D "$PGDATA_DIR" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
  fi
  if ! as_pg "$PGCTL" -D "$PGDATA_DIR" status >/dev/null 2>&1; then
    if port_taken "$PGPORT_LOCAL"; then
      PGPORT_LOCAL=$(free_port)
      log "port taken by another server: using $PGPORT_LOCAL"
    fi
    echo "$PGPORT_LOCAL" >"$PORT_FILE"
    log "starting PostgreSQL on 127.0.0.1:$PGPORT_LOCAL"
    as_pg "$PGCTL" -D "$PGDATA_DIR" -l "$PGDATA_DIR/server.log" -w -t 60 \
      -o "-p $PGPORT_LOCAL -k /tmp -c listen_addresses=127.0.0.1 -c max_parallel_workers_per_gather=0 -c max_connections=200" start >/dev/null
  fi
  if ! psql -h 127.0.0.1 -p "$PGPORT_LOCAL" -U postgres -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = '$PGDB'" | grep -q 1; then
    psql -h 127.0.0.1 -p "$PGPORT_LOCAL" -U postgres -d postgres -qc "CREATE DATABASE $PGDB" >/dev/null
  fi ;;
status)
  PGCTL=$(pg_bin pg_ctl)
  [ -n "$PGCTL" ] && [ -s "$PGDATA_DIR/PG_VERSION" ] && as_pg "$PGCTL" -D "$PGDATA_DIR" status >/dev/null 2>&1 ;;
stop)
  PGCTL=$(pg_bin pg_ctl)
  if [ -n "$PGCTL" ] && [ -s "$PGDATA_DIR/PG_VERSION" ]; then
    as_pg "$PGCTL" -D "$PGDATA_DIR" -m fast stop >/dev/null 2>&1 || true
  fi ;;
*)
  echo "usage: $0 start|stop|status|url" >&2; exit 2 ;;
esac
