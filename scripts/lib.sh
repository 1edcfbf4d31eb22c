# Shared helpers of the scripts (sourced, not run).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA="$ROOT/.data"
TEMPORAL_CLI_VERSION=v1.5.1
GOBIN_DIR=$(go env GOBIN); [ -n "$GOBIN_DIR" ] || GOBIN_DIR="$(go env GOPATH | cut -d: -f1)/bin"
TEMPORAL="${TEMPORAL_CLI:-$GOBIN_DIR/temporal}"
# The dev-server settings measured in shared/notes/measured.md (same as internal/testenv).
TEMPORAL_TUNING=(--sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal
  --dynamic-config-value history.transferProcessorMaxPollRPS=1000
  --dynamic-config-value matching.numTaskqueueReadPartitions=1
  --dynamic-config-value matching.numTaskqueueWritePartitions=1)

log() { printf '\033[1;34m==>\033[0m %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root to run: $*" >&2; return 1; fi
}

apt_updated=
apt_install() {
  if [ -z "$apt_updated" ]; then as_root apt-get update -qq; apt_updated=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# apt_install_postfix installs Debian's Postfix for the tests' own instances
# (internal/postfix) and leaves the machine's mail alone: "No configuration"
# writes no /etc/postfix/main.cf, so no system instance starts on port 25.
apt_install_postfix() {
  echo 'postfix postfix/main_mailer_type select No configuration' | as_root debconf-set-selections
  apt_install postfix
}

# claim_port PORT: claims PORT against the project's other processes (test
# binaries, other scripts) as internal/dev/devenv.ClaimPort does: a file
# ${TMPDIR:-/tmp}/oportuna-ports/PORT created only if absent (noclobber) or
# older than 2 minutes. Fails when someone else's claim is fresher.
claim_port() {
  local dir="${TMPDIR:-/tmp}/oportuna-ports"
  mkdir -p "$dir" 2>/dev/null || return 0
  if [ -e "$dir/$1" ]; then
    [ -n "$(find "$dir/$1" -mmin -2 2>/dev/null)" ] && return 1
    rm -f "$dir/$1"
  fi
  (set -o noclobber; : >"$dir/$1") 2>/dev/null
}

# free_port: a free loopback port in [20000, 32768), below Linux's ephemeral
# range, where no outgoing connection or bind to port 0 takes it before its
# server binds it, and never one claimed in the last 2 minutes, by this script
# (two picked before either is bound) or another process (claim_port), as
# internal/dev/devenv.FreePort.
free_port() {
  local i p
  for ((i = 0; i < 200; i++)); do
    p=$((20000 + RANDOM % 12768))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && continue # something listens there
    if node -e 'const s=require("net").createServer();s.once("error",()=>process.exit(1));s.listen(+process.argv[1],"127.0.0.1",()=>s.close())' "$p" &&
      claim_port "$p"; then
      echo "$p"
      return 0
    fi
  done
  echo "no free loopback port in [20000, 32768)" >&2; return 1
}

wait_tcp() { # host port seconds
  local i
  for ((i = 0; i < $3 * 10; i++)); do
    (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on $1:$2 after $3 s" >&2; return 1
}

wait_http() { # url seconds
  local i
  for ((i = 0; i < $2 * 5; i++)); do
    node -e 'fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "$1" && return 0
    sleep 0.2
  done
  echo "$1 did not answer after $2 s" >&2; return 1
}

ensure_temporal() {
  if [ ! -x "$TEMPORAL" ]; then
    log "installing the Temporal CLI $TEMPORAL_CLI_VERSION into $GOBIN_DIR (10-15 minutes the first time)"
    (cd /tmp && GOFLAGS=-buildvcs=false go install "github.com/temporalio/cli/cmd/temporal@$TEMPORAL_CLI_VERSION")
  fi
}

# start_temporal PORT UI_PORT (0 = headless) DB_FILE ("" = in memory) LOGFILE
# [CODEC_ENDPOINT: the codec server the UI decrypts payloads with]; sets TEMPORAL_PID.
start_temporal() {
  local args=(server start-dev --ip 127.0.0.1 --port "$1" --log-level warn "${TEMPORAL_TUNING[@]}")
  if [ -n "$3" ]; then args+=(--db-filename "$3"); fi
  if [ "$2" != 0 ]; then args+=(--ui-port "$2"); else args+=(--headless); fi
  if [ -n "${5:-}" ]; then args+=(--ui-codec-endpoint "$5"); fi
  # The CLI picks its other services' ports itself (free when picked, bound a
  # moment later); one taken meanwhile makes it exit at once: started again,
  # three times in all (internal/testenv does the same).
  local try i
  : >"$4"
  for try in 1 2 3; do
    "$TEMPORAL" "${args[@]}" >>"$4" 2>&1 &
    TEMPORAL_PID=$!
    for ((i = 0; i < 900; i++)); do
      (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
      kill -0 "$TEMPORAL_PID" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$TEMPORAL_PID" 2>/dev/null; then
      echo "the Temporal dev server does not listen on 127.0.0.1:$1 after 90 s (log: $4)" >&2; return 1
    fi
    echo "the Temporal dev server exited at start (log: $4); starting it again" >&2
  done
  return 1
}

# ensure_payload_keys: PAYLOAD_KEYS or PAYLOAD_KEY_FILE, else a key kept in
# .data/payload_keys (made once, like .data/jwt_secret): Temporal's history of
# the local stack is encrypted as a deployment's (docs/security-payloads.md).
ensure_payload_keys() {
  if [ -z "${PAYLOAD_KEYS:-}" ] && [ -z "${PAYLOAD_KEY_FILE:-}" ] && [ "${PAYLOAD_ENCRYPTION:-on}" != off ]; then
    mkdir -p "$DATA"
    [ -s "$DATA/payload_keys" ] || (umask 077; printf 'local-%s:%s\n' "$(date +%Y%m%d)" "$(head -c 32 /dev/urandom | base64 | tr -d '\n')" >"$DATA/payload_keys")
    export PAYLOAD_KEY_FILE="$DATA/payload_keys"
  fi
}

# start_codec_server ADDR ORIGINS LOGFILE: `oportuna codec-server` for the
# Temporal UI; sets CODEC_PID.
start_codec_server() {
  CODEC_ADDR="$1" CODEC_CORS_ORIGIN="$2" bin/oportuna codec-server >"$3" 2>&1 &
  CODEC_PID=$!
  wait_tcp "${1%:*}" "${1##*:}" 30
}

# ensure_database: DATABASE_URL, else the local cluster of scripts/pg.sh
# (PG_LOCAL=1), started; started_pg=1 when this call started it (the caller
# stops it on exit only then).
ensure_database() {
  PG_LOCAL=
  if [ -z "${DATABASE_URL:-}" ]; then
    PG_LOCAL=1
    scripts/pg.sh status || started_pg=1
    scripts/pg.sh start
    export DATABASE_URL=$(scripts/pg.sh url)
  fi
}

# ensure_jwt_secret: JWT_SECRET, else a secret kept in .data/jwt_secret (made once).
ensure_jwt_secret() {
  if [ -z "${JWT_SECRET:-}" ]; then
    [ -s "$DATA/jwt_secret" ] || (umask 077; head -c 48 /dev/urandom | base64 | tr -d '\n=+/' >"$DATA/jwt_secret")
    export JWT_SECRET=$(cat "$DATA/jwt_secret")
  fi
}
