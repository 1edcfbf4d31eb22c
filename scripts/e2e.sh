#!/usr/bin/env bash
# Browser tests: a fresh database and an in-memory Temporal dev server on free
# ports, migrate + seed, `oportuna dev` on a free port, then Playwright in Chromium.
# Needs bin/oportuna (make build) and the project cluster or DATABASE_URL.
# Arguments go to Playwright (e.g. `scripts/e2e.sh e2e/partners.spec.ts`).
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

pids=()
db=
admin_url=
cleanup() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$db" ]; then psql "$admin_url" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true; fi
}
trap cleanup INT TERM EXIT

admin_url=${OPORTUNA_TEST_DATABASE_URL:-${DATABASE_URL:-}}
if [ -z "$admin_url" ]; then
  scripts/pg.sh start
  admin_url=$(PGDB=postgres scripts/pg.sh url)
fi
db="oportuna_e2e_$$"
psql "$admin_url" -qc "CREATE DATABASE $db" >/dev/null
export DATABASE_URL=$(node -e 'const u=new URL(process.argv[1]);u.pathname="/"+process.argv[2];console.log(u.toString())' "$admin_url" "$db")

# Payloads encrypted with a key of this run; the dev server's UI decrypts them
# through the codec server (e2e/temporal-ui.spec.ts).
export PAYLOAD_KEYS="e2e:$(head -c 32 /dev/urandom | base64 | tr -d '\n')"
mkdir -p "$DATA"
uiport=$(free_port)
codecport=$(free_port)
start_codec_server "127.0.0.1:$codecport" "http://127.0.0.1:$uiport,http://localhost:$uiport" "$DATA/e2e-codec-server.log"
pids+=("$CODEC_PID")

ensure_temporal
tport=$(free_port)
start_temporal "$tport" "$uiport" "" "$DATA/e2e-temporal.log" "http://127.0.0.1:$codecport"
pids+=("$TEMPORAL_PID")
export TEMPORAL_ADDRESS=127.0.0.1:$tport

bin/oportuna migrate 2>/dev/null
# The seed dates its demo in Brasília's calendar (internal/calendar) on any host:
# seeding from UTC+14 (17 h ahead: a day ahead from 07:00 in Brasília) proves it.
TZ=Pacific/Kiritimati bin/oportuna seed 2>/dev/null

export PORT=$(free_port)
export JWT_SECRET=e2e-secret-e2e-secret-e2e-secret-e2e
export MAILBOX=on PORTAL_URL="http://{brand}.localhost:$PORT"
LOG_LEVEL=WARN bin/oportuna dev 2>"$DATA/e2e-server.log" &
pids+=("$!")
wait_http "http://127.0.0.1:$PORT/api/version" 60

log "browser tests against http://localhost:$PORT"
out="$DATA/e2e-playwright.log"
rc=0
# Playwright and Chromium run in UTC+14, 17 h ahead of Brasília (E2E_TZ to
# change it): every date a test types or reads is Brasília's
# (e2e/support.ts brasiliaToday), and the portal keeps Brasília's calendar in a
# browser of any zone.
# E2E_NICE lowers Playwright's priority (make test: the Go tests run beside it);
# the portal's server and Temporal keep theirs. Chromium run as root sets its
# own processes' priorities whatever it inherits.
TZ=${E2E_TZ:-Pacific/Kiritimati} E2E_PORT=$PORT E2E_TEMPORAL_UI="http://127.0.0.1:$uiport" E2E_TEMPORAL_ADDRESS=$TEMPORAL_ADDRESS \
  nice -n "${E2E_NICE:-0}" npm --prefix web run e2e -- "$@" 2>&1 | tee "$out" || rc=$?
if [ "$rc" != 0 ]; then
  # A CI log keeps only its tail, where Playwright lists attachments: say again,
  # last, what failed and why, and what the server said meanwhile.
  log "browser tests failed; their errors again:"
  grep -a -E -A14 '^\s+Error: ' "$out" | grep -a -v -E '^\s+at ' | head -n 120 >&2 || true
  # What the page showed when a test failed: Playwright's error-context.md
  # (its accessibility tree at that moment), which CI keeps no file of.
  { sed 's/\x1b\[[0-9;]*m//g' "$out" | grep -a -o -E 'test-results/[^ ]+/error-context\.md' | sort -u | head -n 4 |
    while read -r ctx; do
      [ -f "web/$ctx" ] || continue
      log "the page at the failure ($ctx):"
      sed -n '/^```yaml/,$p' "web/$ctx" | head -n 60 >&2 || true
    done; } || true
  log "the server's warnings and errors (last 40, $DATA/e2e-server.log):"
  grep -a -E '"level":"(WARN|ERROR)"' "$DATA/e2e-server.log" | tail -n 40 >&2 || true
  grep -a -E '^\s+[0-9]+ failed|^\s+e2e/.*\.spec\.ts:[0-9]+' "$out" | tail -n 20 >&2 || true
  exit "$rc"
fi
