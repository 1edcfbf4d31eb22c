#!/usr/bin/env bash
# make audit (docs/security-authz.md): known vulnerabilities in
#   - the Go modules and standard library the code calls: govulncheck ./...
#   - the web app's production npm packages: npm audit --omit=dev, moderate or higher.
# It needs the network. A database that cannot be reached is reported as
# SKIPPED with the reason, and does not fail the run; a finding does. For Go,
# when vuln.go.dev cannot be reached, the same database is read from the
# golang.org/x/vulndb module (VULNDB_VERSION) through the Go module proxy.
# Findings listed in scripts/audit-accepted.txt are reported but do not fail.
#
# Environment (the Makefile sets them): GO, NPM, GOVULNCHECK (the binary),
# VULNDB_VERSION (the golang.org/x/vulndb snapshot; empty: no fallback).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
GO=${GO:-go}
NPM=${NPM:-npm}
GOVULNCHECK=${GOVULNCHECK:?GOVULNCHECK: the govulncheck binary}
VULNDB_VERSION=${VULNDB_VERSION:-}
ACCEPTED="$ROOT/scripts/audit-accepted.txt"
OUT="$ROOT/.data/audit"
mkdir -p "$OUT"

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }
failures=()
skipped=()

# reachable URL: whether an HTTPS GET of URL answers (curl honours the proxy
# settings; without curl, a TCP connection to the host's port 443).
reachable() {
  if command -v curl >/dev/null; then
    curl -fsS --max-time 15 -o /dev/null "$1" 2>/dev/null
  else
    local host=${1#https://}
    host=${host%%/*}
    timeout 15 bash -c "exec 3<>/dev/tcp/$host/443" 2>/dev/null
  fi
}

# accepted ID: the reason an ID is accepted, empty when it is not.
accepted() {
  [ -f "$ACCEPTED" ] || return 0
  awk -v id="$1" '$1 == id { $1 = ""; sub(/^ +/, ""); print; exit }' "$ACCEPTED"
}

## Go ------------------------------------------------------------------------------

go_audit() {
  local db="" why=""
  if reachable https://vuln.go.dev/index/db.json; then
    db=https://vuln.go.dev
  elif [ -n "$VULNDB_VERSION" ]; then
    # The database's own module: its data/osv holds every report as OSV JSON,
    # and its indexdb command lays them out as the database govulncheck reads.
    local local_db="$ROOT/.data/vulndb-$VULNDB_VERSION"
    if [ ! -f "$local_db/index/db.json" ]; then
      say "govulncheck: vuln.go.dev cannot be reached; building its database from golang.org/x/vulndb@$VULNDB_VERSION (Go module proxy)"
      local dir indexdb
      if dir=$(cd /tmp && "$GO" mod download -json "golang.org/x/vulndb@$VULNDB_VERSION" 2>/dev/null |
        sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p') && [ -d "$dir/data/osv" ] &&
        (cd /tmp && GOFLAGS=-buildvcs=false "$GO" install "golang.org/x/vulndb/cmd/indexdb@$VULNDB_VERSION") &&
        indexdb="$(dirname "$GOVULNCHECK")/indexdb" &&
        rm -rf "$local_db.tmp" && "$indexdb" -vulns "$dir/data/osv" -out "$local_db.tmp" >/dev/null; then
        rm -rf "$local_db" && mv "$local_db.tmp" "$local_db"
      else
        rm -rf "$local_db.tmp"
        why="vuln.go.dev cannot be reached and golang.org/x/vulndb@$VULNDB_VERSION could not be had from the Go module proxy"
      fi
    fi
    if [ -z "$why" ]; then
      db="file://$local_db"
      say "govulncheck: vuln.go.dev cannot be reached; using the snapshot golang.org/x/vulndb@$VULNDB_VERSION (its newest report: $(ls "$local_db/ID" | sed 's/\.json\(\.gz\)\{0,1\}$//' | sort -uV | tail -1))"
    fi
  else
    why="vuln.go.dev cannot be reached (no network, or a proxy refuses it) and no VULNDB_VERSION snapshot is set"
  fi
  if [ -z "$db" ]; then
    echo "govulncheck: SKIPPED: $why"
    skipped+=("govulncheck ($why)")
    return
  fi
  say "govulncheck -db $db ./... ($("$GOVULNCHECK" -version 2>/dev/null | sed -n 's/^Scanner: //p'), $("$GO" env GOVERSION))"
  local rc=0
  "$GOVULNCHECK" -db "$db" ./... >"$OUT/govulncheck.txt" 2>&1 || rc=$?
  cat "$OUT/govulncheck.txt"
  case $rc in
  0) echo "govulncheck: no vulnerability the code calls" ;;
  3)
    local id reason open=0
    while read -r id; do
      reason=$(accepted "$id")
      if [ -n "$reason" ]; then
        echo "govulncheck: $id ACCEPTED: $reason"
      else
        echo "govulncheck: $id is not accepted: fix it (upgrade the module or Go), or list it in scripts/audit-accepted.txt with the reason"
        open=$((open + 1))
      fi
    done < <(sed -n 's/^Vulnerability #[0-9]*: \(GO-[0-9]*-[0-9]*\)$/\1/p' "$OUT/govulncheck.txt" | sort -u)
    [ "$open" = 0 ] || failures+=("govulncheck: $open vulnerabilities the code calls")
    ;;
  *) failures+=("govulncheck failed (exit $rc): see $OUT/govulncheck.txt") ;;
  esac
}

## npm -------------------------------------------------------------------------------

npm_audit() {
  say "npm audit --omit=dev in web/ (moderate or higher fails)"
  local rc=0
  (cd web && "$NPM" audit --omit=dev --json >"$OUT/npm-audit.json" 2>"$OUT/npm-audit.err") || rc=$?
  # The JSON tells a report (metadata.vulnerabilities) from a database that did
  # not answer (an error with the registry's status).
  local out verdict details=""
  out=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8") || "{}");
    const v = r.metadata && r.metadata.vulnerabilities;
    if (!v) {
      console.log("skip " + (r.message || (r.error && r.error.summary) || "no report").split("\n")[0]);
    } else {
      const bad = (v.moderate || 0) + (v.high || 0) + (v.critical || 0);
      console.log(`report ${bad} ${v.low || 0} ${v.info || 0}`);
      for (const [name, x] of Object.entries(r.vulnerabilities || {}))
        console.log(`  ${x.severity}\t${name}\t${x.range || ""}\tfix: ${x.fixAvailable ? JSON.stringify(x.fixAvailable) : "none"}`);
    }' "$OUT/npm-audit.json") || out="skip the answer could not be read (exit $rc): $(head -c 300 "$OUT/npm-audit.err")"
  verdict=${out%%$'\n'*}
  [ "$verdict" = "$out" ] || details=${out#*$'\n'}
  [ -z "$details" ] || printf '%s\n' "$details"
  case $verdict in
  skip\ *)
    echo "npm audit: SKIPPED: the npm registry's advisory database did not answer: ${verdict#skip }"
    skipped+=("npm audit (${verdict#skip })")
    ;;
  report\ 0\ *)
    read -r _ _ low info <<<"$verdict"
    echo "npm audit: no moderate, high or critical vulnerability in the production packages ($low low, $info info)"
    ;;
  report\ *)
    read -r _ bad _ _ <<<"$verdict"
    echo "npm audit: $bad moderate or higher vulnerabilities in the production packages (details: $OUT/npm-audit.json)"
    failures+=("npm audit: $bad moderate or higher")
    ;;
  esac
}

go_audit
npm_audit

echo
for s in "${skipped[@]}"; do echo "make audit: SKIPPED $s"; done
if [ ${#failures[@]} -gt 0 ]; then
  for f in "${failures[@]}"; do echo "make audit: FAILED $f"; done
  exit 1
fi
echo "make audit: no open finding${skipped:+ (but see what was skipped above)}"
