#!/usr/bin/env bash
# GetItem at 16 connections while 10,000 other keep-alive connections are held open (issue 24):
# does the load keep its throughput (within 20%) and its p99 (under 2 ms)?
#
#   bench/wire/held_connections.sh        # ~1 minute
#
# One `partstore serve`, loaded as bench/wire/run.sh loads it; wrk (bench/wire/getitem.lua, 2
# threads, 16 connections) for DURATION seconds three times: before, while hold.py holds HOLD
# idle keep-alive connections (each has made one request), and after they are closed. Prints one
# line per phase and the ratio of the held phase to the mean of the two others.
#
# Environment (defaults): HOLD (10000), DURATION (10), PKS (10000) x SKS (10), PARTSTORE (the
# binary; default: build build/bench-wire/release as run.sh does), PARTSTORE_THREADS (unset: the
# server's default), SCRATCH (build/bench-wire).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WIRE=$ROOT/bench/wire
SCRATCH=${SCRATCH:-$ROOT/build/bench-wire}
HOLD=${HOLD:-10000}
DURATION=${DURATION:-10}
export PKS=${PKS:-10000} SKS=${SKS:-10} TABLE=WireBench
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
LOGS=$SCRATCH/logs
mkdir -p "$LOGS"
log() { echo "[held] $*" >&2; }

# shellcheck source=../peers.sh
. "$ROOT/bench/peers.sh"  # start_partstore, cleanup on exit
command -v wrk >/dev/null || { log "apt-get install wrk"; apt-get install -y -q wrk >/dev/null; }
if [ -z "${PARTSTORE:-}" ]; then
  PARTSTORE=$SCRATCH/release/partstore
  log "building partstore_cli (Release) in $SCRATCH/release"
  cmake -S "$ROOT" -B "$SCRATCH/release" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$LOGS/cmake.log"
  ninja -C "$SCRATCH/release" -j2 partstore_cli >"$LOGS/ninja.log"
fi
# hold.py's descriptors: HOLD sockets and a few more.
if ! ulimit -n $((HOLD + 100)) 2>/dev/null; then
  log "cannot raise the file limit to $((HOLD + 100)) (hard limit $(ulimit -Hn)); lower HOLD"
  exit 1
fi

start_partstore
log "partstore at ${URL[partstore]} (pid ${PID[partstore]}); loading $((PKS * SKS)) items"
"$PY" "$WIRE/load.py" "${URL[partstore]}" --pks "$PKS" --sks "$SKS" --table "$TABLE" >&2
wrk -t2 -c16 -d2s -s "$WIRE/getitem.lua" "${URL[partstore]}" >/dev/null  # warm-up

declare -A RPS P99
measure() {  # measure PHASE
  local out res
  sleep 1
  out=$(wrk -t2 -c16 -d"${DURATION}s" --timeout 5s -s "$WIRE/getitem.lua" "${URL[partstore]}")
  res=$(echo "$out" | grep '^RESULT') || { log "wrk failed: $out"; exit 1; }
  declare -A R=()
  for kv in $res; do [[ $kv == *=* ]] && R[${kv%%=*}]=${kv#*=}; done
  local errs=$((R[connect_errors] + R[read_errors] + R[write_errors] + R[status_errors] + R[timeouts]))
  RPS[$1]=${R[rps]}
  P99[$1]=${R[p99_us]}
  log "$(printf '%-7s %8s req/s  p50 %5s us  p99 %6s us  max %7s us  errors %s' "$1" "${R[rps]}" \
    "${R[p50_us]}" "${R[p99_us]}" "${R[max_us]}" "$errs")"
}

measure before
"$PY" "$WIRE/hold.py" "${URL[partstore]}" "$HOLD" >"$LOGS/hold.out" 2>&1 &
HOLDER=$!
for _ in $(seq 600); do
  grep -q . "$LOGS/hold.out" && break
  sleep 0.1
done
if ! grep -q "^holding" "$LOGS/hold.out"; then
  log "hold.py: $(cat "$LOGS/hold.out")"; kill $HOLDER 2>/dev/null; exit 1
fi
open=$(ls /proc/"${PID[partstore]}"/fd | wc -l)
log "$(cat "$LOGS/hold.out") connections; the server has $open descriptors open"
measure held
kill $HOLDER; wait $HOLDER 2>/dev/null || true
measure after
awk -v h="${RPS[held]}" -v b="${RPS[before]}" -v a="${RPS[after]}" -v p="${P99[held]}" 'BEGIN {
  printf "[held] held / unheld throughput: %.2f (target >= 0.80); p99 while held %.2f ms (target < 2)\n",
    h / ((b + a) / 2), p / 1000 }' >&2
