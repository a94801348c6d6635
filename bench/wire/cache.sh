#!/usr/bin/env bash
# `partstore serve --upstream` (issue 46) against the server it caches: GetItem over the wire at
# 16 connections (wrk -t1 -c16), straight to the upstream `partstore serve` and through a proxy in
# front of it whose cache holds every item (warmed first), each measured twice, alternating;
# then the proxy's hit ratio from its /metrics. Target: a hit >= 0.9x serve's own GetItem.
#
#   bench/wire/cache.sh        # ~1 minute; BUILD=build/release (partstore)
#
# Environment (defaults): CONNS (16), DURATION (10), PKS (1000) x SKS (10), BUILD.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WIRE=$ROOT/bench/wire
BUILD=${BUILD:-$ROOT/build/release}
SCRATCH=${SCRATCH:-$ROOT/build/bench-wire}
CONNS=${CONNS:-16}
DURATION=${DURATION:-10}
export PKS=${PKS:-1000} SKS=${SKS:-10} TABLE=WireBench
LOGS=$SCRATCH/logs
mkdir -p "$LOGS"
PY=/usr/bin/python3
log() { echo "[cache] $*" >&2; }
PARTSTORE=$BUILD/partstore
[ -x "$PARTSTORE" ] || { log "build partstore_cli in $BUILD first"; exit 1; }
. "$ROOT/bench/peers.sh"  # start_partstore, cleanup on exit
command -v wrk >/dev/null || { log "apt-get install wrk"; apt-get install -y -q wrk >/dev/null; }
export AWS_ACCESS_KEY_ID=AKIDBENCH AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
export AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null

start_partstore upstream
"$PY" "$WIRE/load.py" "${URL[upstream]}" --pks "$PKS" --sks "$SKS" --table "$TABLE" >&2
start_partstore proxy --upstream "${URL[upstream]%/}" --upstream-region us-east-1
log "upstream ${URL[upstream]}, proxy ${URL[proxy]}; warming the proxy's cache"
"$PY" - "${URL[proxy]}" "$PKS" "$SKS" "$TABLE" <<'PY'
import json, sys, urllib.request
url, pks, sks, table = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
for p in range(pks):
    keys = [{"PK": {"S": "USER#%06d" % p}, "SK": {"S": "ORDER#%02d" % s}} for s in range(sks)]
    body = json.dumps({"RequestItems": {table: {"Keys": keys}}}).encode()
    req = urllib.request.Request(url, body, {"X-Amz-Target": "DynamoDB_20120810.BatchGetItem",
                                             "Content-Type": "application/x-amz-json-1.0"})
    urllib.request.urlopen(req).read()
PY
printf '%-6s %-10s %10s %10s %10s\n' round target 'req/s' 'p50 ms' 'p99 ms'
declare -A RPS
for round in 1 2; do
  for target in upstream proxy; do
    out=$(wrk -t1 -c"$CONNS" -d"${DURATION}s" --latency -s "$WIRE/getitem.lua" "${URL[$target]}")
    rps=$(echo "$out" | grep -o 'rps=[0-9.]*' | cut -d= -f2)
    p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    printf '%-6s %-10s %10.0f %10s %10s\n' "$round" "$target" "$rps" "$p50" "$p99"
    RPS[$round$target]=$rps
    sleep 1
  done
done
metrics=$(curl -s "${URL[proxy]}metrics")
hits=$(echo "$metrics" | awk '$1 == "partstore_cache_item_hits_total" {print $2}')
misses=$(echo "$metrics" | awk '$1 == "partstore_cache_item_misses_total" {print $2}')
awk -v a="${RPS[1proxy]}" -v b="${RPS[1upstream]}" -v c="${RPS[2proxy]}" -v d="${RPS[2upstream]}" \
    -v h="$hits" -v m="$misses" \
  'BEGIN { printf "proxy / upstream: %.2fx, %.2fx; hits %d, misses %d (%.4f%% hits)\n",
           a / b, c / d, h, m, 100 * h / (h + m) }'
