#!/usr/bin/env bash
# What the live page (GET /ui, tools/live/live_page.h) costs the server (issue 49): GetItem
# throughput and latency at 16 connections (wrk -t2 -c16, bench/wire/getitem.lua) against
# `partstore serve --capacity on`, without a viewer and with one (a loop reading /ui/data once a
# second, as the page does), alternating, ROUNDS times each; the medians and their ratio.
#
#   bench/wire/live_page.sh                      # ~2 minutes with the defaults
#   ROUNDS=5 DURATION=10 bench/wire/live_page.sh
#
# Environment (defaults): ROUNDS (3), DURATION (10 s a point), PKS (10000) x SKS (10) items,
# PARTSTORE (build/release/partstore), SCRATCH (build/bench-live).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WIRE=$ROOT/bench/wire
SCRATCH=${SCRATCH:-$ROOT/build/bench-live}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
PARTSTORE=${PARTSTORE:-$ROOT/build/release/partstore}
export PKS=${PKS:-10000} SKS=${SKS:-10} TABLE=WireBench
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
mkdir -p "$SCRATCH"
log() { echo "[live] $*" >&2; }
command -v wrk >/dev/null || { log "apt-get install wrk"; apt-get install -y -q wrk >/dev/null; }
[ -x "$PARTSTORE" ] || { log "no $PARTSTORE: build partstore_cli (Release) first"; exit 1; }

"$PARTSTORE" serve --host 127.0.0.1 --port 0 --capacity on >"$SCRATCH/serve.out" \
  2>"$SCRATCH/serve.err" &
SERVER=$!
VIEWER=
cleanup() {
  [ -n "$VIEWER" ] && kill "$VIEWER" 2>/dev/null || true
  kill "$SERVER" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT
URL=
for _ in $(seq 100); do
  URL=$(sed -n 's|^partstore serve: listening on \(http://.*\)$|\1/|p' "$SCRATCH/serve.out")
  [ -n "$URL" ] && break
  sleep 0.1
done
[ -n "$URL" ] || { log "partstore serve did not start"; cat "$SCRATCH/serve.err" >&2; exit 1; }
# A provisioned table large enough that nothing is throttled (107 simulated partitions): the
# figures are the server's work, with the simulation's bookkeeping on every request; load.py
# takes the table as it is.
curl -sS -o /dev/null -X POST "$URL" -H "X-Amz-Target: DynamoDB_20120810.CreateTable" \
  -H 'Content-Type: application/x-amz-json-1.0' --data-binary "{\"TableName\":\"$TABLE\",
  \"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},
  {\"AttributeName\":\"SK\",\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":
  \"PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],
  \"ProvisionedThroughput\":{\"ReadCapacityUnits\":200000,\"WriteCapacityUnits\":40000}}"
log "partstore at $URL; loading $((PKS * SKS)) items"
"$PY" "$WIRE/load.py" "$URL" --pks "$PKS" --sks "$SKS" --table "$TABLE" >&2
wrk -t2 -c16 -d3s -s "$WIRE/getitem.lua" "$URL" >/dev/null  # warm-up

point() {  # point LABEL: one wrk run; prints "LABEL requests/s p99(us)"
  local out
  out=$(wrk -t2 -c16 -d"${DURATION}s" --timeout 5s --latency -s "$WIRE/getitem.lua" "$URL" 2>&1)
  local res
  res=$(echo "$out" | grep '^RESULT') || { log "wrk failed: $out"; exit 1; }
  declare -A R=()
  for kv in $res; do [[ $kv == *=* ]] && R[${kv%%=*}]=${kv#*=}; done
  echo "$1 ${R[rps]} ${R[p99_us]}"
}

viewer() {  # what an open page does: /ui/data once a second, on one kept-alive connection
  exec "$PY" -c '
import http.client, sys, time, urllib.parse
url = urllib.parse.urlparse(sys.argv[1])
connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
while True:
    connection.request("GET", "/ui/data")
    connection.getresponse().read()
    time.sleep(1)
' "$URL"
}

RESULTS=$SCRATCH/results.txt
: >"$RESULTS"
for round in $(seq "$ROUNDS"); do
  sleep 1
  point none | tee -a "$RESULTS" >&2
  viewer &
  VIEWER=$!
  sleep 1
  point viewer | tee -a "$RESULTS" >&2
  kill "$VIEWER" 2>/dev/null || true
  wait "$VIEWER" 2>/dev/null || true
  VIEWER=
  log "round $round done"
done
# One /ui/data answer: its size and how long it takes (the server's cost per viewer per second).
bytes=$(curl -s "${URL}ui/data" | wc -c)
seconds=$(curl -s -o /dev/null -w '%{time_total}' "${URL}ui/data")
"$PY" - "$RESULTS" "$bytes" "$seconds" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
def med(label, col):
    return statistics.median(float(r[col]) for r in rows if r[0] == label)
none_rps, viewer_rps = med("none", 1), med("viewer", 1)
print(f"GetItem, 16 connections, medians of {len(rows) // 2} rounds:")
print(f"  no viewer:  {none_rps:,.0f} requests/s, p99 {med('none', 2) / 1000:.2f} ms")
print(f"  one viewer: {viewer_rps:,.0f} requests/s, p99 {med('viewer', 2) / 1000:.2f} ms")
print(f"  ratio: {viewer_rps / none_rps:.3f} (target >= 0.97)")
print(f"  /ui/data: {int(sys.argv[2]):,} bytes, answered in {float(sys.argv[3]) * 1000:.1f} ms")
EOF
