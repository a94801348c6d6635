#!/usr/bin/env bash
# RemoteStore against wrk on one `partstore serve` (issue 45's client targets): GetItem at 1 and 16
# concurrent callers, each point measured twice, wrk first, then RemoteStore (remote_getitem.cc):
# requests/s, the server's CPU per request, and the client's. The client is not the bottleneck
# when its requests/s are >= 0.9x wrk's and its CPU per request <= the server's.
#
#   bench/wire/client.sh        # ~1 minute; BUILD=build/release (remote_getitem, partstore)
#
# Environment (defaults): CONNS (1 16), DURATION (10), PKS (10000) x SKS (10), BUILD.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WIRE=$ROOT/bench/wire
BUILD=${BUILD:-$ROOT/build/release}
SCRATCH=${SCRATCH:-$ROOT/build/bench-wire}
CONNS=${CONNS:-1 16}
DURATION=${DURATION:-10}
export PKS=${PKS:-10000} SKS=${SKS:-10} TABLE=WireBench
LOGS=$SCRATCH/logs
mkdir -p "$LOGS"
PY=/usr/bin/python3
log() { echo "[client] $*" >&2; }
PARTSTORE=$BUILD/partstore
CLIENT=$BUILD/bench/remote_getitem
[ -x "$PARTSTORE" ] && [ -x "$CLIENT" ] ||
  { log "build partstore_cli and remote_getitem in $BUILD first"; exit 1; }
. "$ROOT/bench/peers.sh"  # start_partstore, proc_ticks, HZ, cleanup on exit
command -v wrk >/dev/null || { log "apt-get install wrk"; apt-get install -y -q wrk >/dev/null; }
export AWS_ACCESS_KEY_ID=AKIDBENCH AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
export AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null

start_partstore
url=${URL[partstore]%/}
log "partstore at $url (pid ${PID[partstore]}); loading $((PKS * SKS)) items"
"$PY" "$WIRE/load.py" "${URL[partstore]}" --pks "$PKS" --sks "$SKS" --table "$TABLE" >&2
wrk -t2 -c16 -d2s -s "$WIRE/getitem.lua" "${URL[partstore]}" >/dev/null  # warm-up
printf '%-5s %-12s %10s %16s %16s\n' conns client 'req/s' 'server us/req' 'client us/req'
for c in $CONNS; do
  threads=2; [ "$c" -lt 2 ] && threads=1
  s0=$(proc_ticks "${PID[partstore]}")
  out=$(bash -c '"$@"; times' _ wrk -t$threads -c"$c" -d"${DURATION}s" -s "$WIRE/getitem.lua" \
    "${URL[partstore]}" 2>&1)
  s1=$(proc_ticks "${PID[partstore]}")
  rps=$(echo "$out" | grep -o 'rps=[0-9.]*' | cut -d= -f2)
  wrk_cpu=$(echo "$out" | tail -1 | awk '{n = 0; for (i = 1; i <= 2; i++) {
    split($i, a, /[ms]/); n += a[1] * 60 + a[2] } print n }')
  awk -v c="$c" -v r="$rps" -v s=$((s1 - s0)) -v w="$wrk_cpu" -v hz="$HZ" -v d="$DURATION" \
    'BEGIN { n = r * d; printf "%-5s %-12s %10.0f %16.1f %16.1f\n", c, "wrk", r,
             s / hz * 1e6 / n, w * 1e6 / n }'
  sleep 1
  s0=$(proc_ticks "${PID[partstore]}")
  out=$("$CLIENT" "$url" "$c" "$DURATION")
  s1=$(proc_ticks "${PID[partstore]}")
  echo "$out" >"$LOGS/remote-c$c.txt"
  rps=$(echo "$out" | grep -o 'rps=[0-9.]*' | cut -d= -f2)
  n=$(echo "$out" | grep -o 'requests=[0-9]*' | cut -d= -f2)
  client_us=$(echo "$out" | grep -o 'cpu_us_per_request=[0-9.]*' | cut -d= -f2)
  awk -v c="$c" -v r="$rps" -v n="$n" -v s=$((s1 - s0)) -v hz="$HZ" -v cu="$client_us" \
    'BEGIN { printf "%-5s %-12s %10.0f %16.1f %16.1f\n", c, "RemoteStore", r,
             s / hz * 1e6 / n, cu }'
  sleep 1
done
