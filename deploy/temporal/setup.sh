#!/bin/sh
# One-shot job of docker-compose.yml (service temporal-setup, image
# temporalio/admin-tools), also run by make cluster and the tests' cluster
# (internal/stack/cluster): waits for the Temporal frontend, creates the portal's
# namespace and registers its custom search attributes. Idempotent: run it again
# after adding an attribute to workflows.SearchAttributes() and SEARCH_ATTRIBUTES.
#
#   TEMPORAL_ADDRESS               frontend, e.g. temporal:7233
#   TEMPORAL_NAMESPACE             namespace of the portal (TEMPORAL_NAMESPACE of the app)
#   TEMPORAL_NAMESPACE_RETENTION   how long closed workflows stay visible, e.g. 720h
#   SEARCH_ATTRIBUTES              "Name=Type ..." (Keyword, Datetime, Bool, Int, Double, Text, KeywordList)
#   TEMPORAL_CLI                   the temporal CLI (default: the one on PATH)
set -eu

: "${TEMPORAL_ADDRESS:?}" "${TEMPORAL_NAMESPACE:?}"
SEARCH_ATTRIBUTES=${SEARCH_ATTRIBUTES:-}
RETENTION=${TEMPORAL_NAMESPACE_RETENTION:-720h}
t() { "${TEMPORAL_CLI:-temporal}" --address "$TEMPORAL_ADDRESS" "$@"; }
attrs=$(mktemp)
trap 'rm -f "$attrs"' EXIT

i=0
until t operator cluster health 2>/dev/null | grep -q SERVING; do
  i=$((i + 1))
  [ "$i" -le 120 ] || { echo "temporal-setup: no Temporal frontend at $TEMPORAL_ADDRESS after 120 s" >&2; exit 1; }
  sleep 1
done

if t operator namespace describe --namespace "$TEMPORAL_NAMESPACE" >/dev/null 2>&1; then
  echo "temporal-setup: namespace $TEMPORAL_NAMESPACE exists"
else
  echo "temporal-setup: creating namespace $TEMPORAL_NAMESPACE (retention $RETENTION)"
  t operator namespace create --namespace "$TEMPORAL_NAMESPACE" --retention "$RETENTION" \
    --description "Oportuna: opportunity workflows" || \
    t operator namespace describe --namespace "$TEMPORAL_NAMESPACE" >/dev/null # created meanwhile by a worker
fi

# The namespace cache of a new namespace takes a few seconds to reach every service.
i=0
until t operator search-attribute list --namespace "$TEMPORAL_NAMESPACE" >"$attrs" 2>/dev/null; do
  i=$((i + 1))
  [ "$i" -le 60 ] || { echo "temporal-setup: namespace $TEMPORAL_NAMESPACE not ready" >&2; exit 1; }
  sleep 1
done

for pair in $SEARCH_ATTRIBUTES; do
  name=${pair%%=*}
  type=${pair#*=}
  if grep -qw "$name" "$attrs"; then
    grep -w "$name" "$attrs" | grep -qiw "$type" || {
      echo "temporal-setup: search attribute $name exists with another type than $type:" >&2
      grep -w "$name" "$attrs" >&2
      exit 1
    }
    echo "temporal-setup: search attribute $name ($type) exists"
    continue
  fi
  echo "temporal-setup: registering search attribute $name ($type)"
  t operator search-attribute create --namespace "$TEMPORAL_NAMESPACE" --name "$name" --type "$type"
done

t operator search-attribute list --namespace "$TEMPORAL_NAMESPACE"
echo "temporal-setup: done"
