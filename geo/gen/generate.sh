#!/bin/sh
# Regenerates geo/municipios.tsv from the npm package @brazilian-utils/brazilian-utils
# (MIT; its table carries the IBGE codes). Needs node and the npm registry.
# Run from geo/: `go generate` (or `sh gen/generate.sh`).
set -eu
VERSION="${BRAZILIAN_UTILS_VERSION:-2.4.0}"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "@brazilian-utils/brazilian-utils@$VERSION" >/dev/null && tar xzf ./*.tgz)
node "$here/extract.mjs" "$tmp/package" > "$here/../municipios.tsv.new"
mv "$here/../municipios.tsv.new" "$here/../municipios.tsv"
