#!/usr/bin/env bash
# make run: PostgreSQL, Temporal dev server, migrations, demo data, then `oportuna dev`.
# Ctrl-C stops every process this script started; .data/ is kept for the next run.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

PORT=${PORT:-8080}
pids=()
started_pg=
cleanup() {
  trap - INT TERM EXIT
  log "stopping"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -n "$started_pg" ] && scripts/pg.sh stop
  log "stopped"
}
trap cleanup INT TERM EXIT

mkdir -p "$DATA"
ensure_database

# Payloads in Temporal are encrypted (key made once in .data/payload_keys); the
# codec server lets the Temporal UI show them decrypted.
# A .data/temporal.db from before encryption holds plaintext histories: keep
# reading them (PAYLOAD_ACCEPT_PLAINTEXT, docs/security-payloads.md) for as long as it exists.
if [ -s "$DATA/temporal.db" ] && [ ! -s "$DATA/payload_keys" ] && [ -z "${PAYLOAD_KEYS:-}${PAYLOAD_KEY_FILE:-}" ]; then
  touch "$DATA/temporal-db-has-plaintext"
fi
ensure_payload_keys
if [ -e "$DATA/temporal-db-has-plaintext" ] && [ -s "$DATA/temporal.db" ]; then
  log "the Temporal state in .data/ predates payload encryption: PAYLOAD_ACCEPT_PLAINTEXT=on (remove .data/temporal.db for a fresh start)"
  export PAYLOAD_ACCEPT_PLAINTEXT=${PAYLOAD_ACCEPT_PLAINTEXT:-on}
fi
codec_endpoint=
if [ "${PAYLOAD_ENCRYPTION:-on}" != off ]; then
  start_codec_server 127.0.0.1:8089 "http://localhost:8233,http://127.0.0.1:8233" "$DATA/codec-server.log"
  pids+=("$CODEC_PID")
  codec_endpoint=http://127.0.0.1:8089
fi

if [ -z "${TEMPORAL_ADDRESS:-}" ]; then
  ensure_temporal
  log "starting the Temporal dev server (state in .data/temporal.db, UI on :8233)"
  start_temporal 7233 8233 "$DATA/temporal.db" "$DATA/temporal.log" "$codec_endpoint"
  pids+=("$TEMPORAL_PID")
  export TEMPORAL_ADDRESS=127.0.0.1:7233
fi

ensure_jwt_secret

bin/oportuna migrate
bin/oportuna seed

export PORT
# E-mails stay in the outbox and show in the dev mailbox; links point here.
# (The default sits in a variable: inside ${PORTAL_URL:-…} the shell would end the
# default at the first '}' and leave links like http://{brand.localhost:8080}.)
default_portal="http://{brand}.localhost:$PORT"
export MAILBOX=${MAILBOX:-on} PORTAL_URL=${PORTAL_URL:-$default_portal}
bin/oportuna dev &
pids+=("$!")
wait_http "http://127.0.0.1:$PORT/api/version" 60

cat <<BANNER

  Oportuna is running.

  Portal       http://localhost:$PORT   (every brand: http://<marca>.localhost:$PORT)
  Temporal UI  http://localhost:8233   (payloads decrypted by the codec server on :8089)
  Mailbox      http://localhost:$PORT/mailbox   (every e-mail the portal sent)
  Brands       $(bin/oportuna brands | tr '\n' ' ')

  Demo logins (password Oportuna@2026), for every brand <marca>:
    representante@<marca>.demo   Representante
    suporte@<marca>.demo         Suporte
    revenda@<marca>.demo         Revenda
    vendedor1@<marca>.demo       Vendedor
    vendedor2@<marca>.demo       Vendedor
    multi@<marca>.demo           Representante e Suporte
  e.g. http://yep.localhost:$PORT with representante@yep.demo

  Ctrl-C stops everything.

BANNER
wait "${pids[-1]}"
