#!/usr/bin/env bash
# tests/clients/run_js.sh PARTSTORE: the AWS SDK for JavaScript v3 suite (tests/clients/js)
# against `PARTSTORE serve`, with node's built-in test runner. Each test file starts and stops its
# own server. The SDK comes from `npm ci` in tests/clients/js (tools/run test does it); without it
# the suite fails, it never skips.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -eq 1 ] || { echo "usage: $0 PARTSTORE" >&2; exit 2; }
js="$here/js"
[ -x "$1" ] || { echo "clients.js: not an executable: $1" >&2; exit 1; }
if ! command -v node >/dev/null; then
  echo "clients.js: node is missing; install nodejs (tools/run test does)" >&2
  exit 1
fi
for package in @aws-sdk/client-dynamodb @aws-sdk/client-dynamodb-streams @aws-sdk/lib-dynamodb; do
  if [ ! -f "$js/node_modules/$package/package.json" ]; then
    echo "clients.js: $package is not installed; run" \
         "'npm ci --no-audit --no-fund --prefix $js' (tools/run test does)" >&2
    exit 1
  fi
done
for name in $(env | sed -n 's/^\(AWS_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$name"; done
export AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
export AWS_EC2_METADATA_DISABLED=true
export PARTSTORE_BIN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
cd "$js"
exec node --test --test-reporter=spec "$js"/*.test.mjs
