#!/usr/bin/env bash
# The wire-protocol load benchmark (issue 5): GetItem, Query and PutItem requests per second and
# p50 / p99 latency at 1, 16 and 64 keep-alive connections, for
#   partstore  `partstore serve` (Release),
#   dynalite   the npm package, in-memory (what users run today),
#   nginx      one worker returning partstore's GetItem response for every POST /: the ceiling,
# all three started side by side and driven by the same wrk Lua scripts in the same run.
#
#   bench/wire/run.sh                          # everything: ~6 minutes with the defaults
#   SERVERS="partstore nginx" OPS=GetItem CONNS=16 DURATION=5 bench/wire/run.sh
#
# Environment (defaults):
#   SERVERS ("partstore dynalite nginx"), OPS ("GetItem Query PutItem"), CONNS ("1 16 64"),
#   DURATION (10, seconds per point), WARMUP (2, seconds at 16 connections before each op),
#   ROUNDS (1; >1 repeats the matrix and reports each cell's median), PKS (10000) x SKS (10) items
#   of ~200 bytes, PARTSTORE (the binary; default: build build/bench-wire/release, target
#   partstore_cli, incrementally), PARTSTORE_THREADS (unset: the server's default, one per core
#   but one), WRK_THREADS (2: wrk's threads, 1 at one connection; issue 51's target is measured
#   with 1, bench/speed_targets.sh), SCRATCH (build/bench-wire: npm packages, logs, nginx prefix,
#   results), WAIT_IDLE (0; N: wait up to N seconds for both CPUs to be >= 85% idle before
#   starting), CHECK (0; 1: a 1 s pass per server and op that checks every response body first).
#
# The machine has 2 cores shared by wrk and the server (and anything else running): the figures
# are what one client process and one server share of 2 cores, and the CPU columns say how the
# cores were split (server, wrk, the rest of the machine) during each point.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WIRE=$ROOT/bench/wire
SCRATCH=${SCRATCH:-$ROOT/build/bench-wire}
SERVERS=${SERVERS:-partstore dynalite nginx}
OPS=${OPS:-GetItem Query PutItem}
CONNS=${CONNS:-1 16 64}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-1}
export PKS=${PKS:-10000} SKS=${SKS:-10} TABLE=WireBench
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
mkdir -p "$SCRATCH"
RESULTS=$SCRATCH/results.tsv
LOGS=$SCRATCH/logs
mkdir -p "$LOGS"

log() { echo "[wire] $*" >&2; }
has() { [[ " $SERVERS " == *" $1 "* ]]; }

# --- What is missing ---------------------------------------------------------------------------
# shellcheck source=../peers.sh
. "$ROOT/bench/peers.sh"  # install_peers, start_partstore / dynalite / nginx, cleanup on exit
command -v wrk >/dev/null || { log "apt-get install wrk"; apt-get install -y -q wrk >/dev/null; }
# shellcheck disable=SC2086
install_peers $SERVERS
if has partstore && [ -z "${PARTSTORE:-}" ]; then
  PARTSTORE=$SCRATCH/release/partstore
  log "building partstore_cli (Release) in $SCRATCH/release"
  cmake -S "$ROOT" -B "$SCRATCH/release" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$LOGS/cmake.log"
  ninja -C "$SCRATCH/release" -j2 partstore_cli >"$LOGS/ninja.log"
fi

dynamo() {  # dynamo URL OP BODY: one request through curl, the response body on stdout
  curl -sS -X POST "$1" -H "X-Amz-Target: DynamoDB_20120810.$2" \
    -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Date: 20260101T000000Z' \
    -H 'Authorization: AWS4-HMAC-SHA256 Credential=AKIDBENCH/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0' \
    --data-binary "$3"
}

# --- Load conditions ---------------------------------------------------------------------------
idle_pct() {  # percentage of all CPUs idle over $1 seconds
  local a b
  a=$(awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $5+$6}' /proc/stat)
  sleep "$1"
  b=$(awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $5+$6}' /proc/stat)
  echo "$a $b" | awk '{printf "%.0f", 100*($4-$2)/($3-$1)}'
}
if [ "${WAIT_IDLE:-0}" -gt 0 ]; then
  end=$((SECONDS + WAIT_IDLE))
  until [ "$(idle_pct 3)" -ge 85 ] || [ $SECONDS -ge $end ]; do log "waiting for an idle machine"; done
fi
log "before: $(uptime | sed 's/.*load/load/'); CPUs $(idle_pct 2)% idle; $(nproc) CPUs"

# --- Servers, data -----------------------------------------------------------------------------
BODY=$SCRATCH/getitem-body.json
GET_ONE="{\"TableName\":\"$TABLE\",\"Key\":{\"PK\":{\"S\":\"USER#000000\"},\"SK\":{\"S\":\"ORDER#00\"}}}"
for s in partstore dynalite; do
  has $s || continue
  "start_$s"
  log "$s at ${URL[$s]} (pid ${PID[$s]}); loading $((PKS * SKS)) items"
  "$PY" "$WIRE/load.py" "${URL[$s]}" --pks "$PKS" --sks "$SKS" --table "$TABLE" 2>&1 |
    sed "s/^/[wire] $s: /" >&2
  [ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
done
if has nginx; then
  # The ceiling returns exactly the bytes partstore returns for a GetItem of a loaded item.
  if has partstore; then dynamo "${URL[partstore]}" GetItem "$GET_ONE" >"$BODY"
  elif has dynalite; then dynamo "${URL[dynalite]}" GetItem "$GET_ONE" >"$BODY"
  elif ! [ -s "$BODY" ]; then log "no GetItem body for nginx: run with partstore once"; exit 1
  fi
  start_nginx "$BODY"
  log "nginx at ${URL[nginx]} (pid ${PID[nginx]}), static body of $(wc -c <"$BODY") bytes"
fi

wrk_script() { echo "$WIRE/$(echo "$1" | tr 'A-Z' 'a-z').lua"; }
if [ "${CHECK:-0}" = 1 ]; then
  for s in $SERVERS; do
    for op in $OPS; do
      [ $s = nginx ] && [ $op != GetItem ] && continue
      r=$(CHECK=1 wrk -t2 -c16 -d1s -s "$(wrk_script $op)" "${URL[$s]}" | grep '^CHECK checked')
      log "check $s $op: $r"
      [[ "$r" == *" bad=0" ]] || { log "bad responses from $s for $op"; exit 1; }
    done
  done
fi

# --- The matrix --------------------------------------------------------------------------------
# Cells are interleaved (for each op and connection count, the servers one after the other) so
# drift in the machine's load hits all three alike.
printf 'round\top\tconns\tserver\trps\tp50_us\tp90_us\tp99_us\tmax_us\terrors\tserver_cores\twrk_cores\tsoftirq_cores\tother_cores\n' >"$RESULTS"
for round in $(seq "$ROUNDS"); do
  for op in $OPS; do
    script=$(wrk_script "$op")
    for s in $SERVERS; do
      [ "$WARMUP" -gt 0 ] && wrk -t2 -c16 -d"${WARMUP}s" -s "$script" "${URL[$s]}" >/dev/null
    done
    for c in $CONNS; do
      # wrk needs connections >= threads
      threads=${WRK_THREADS:-2}; [ "$c" -lt "$threads" ] && threads=1
      for s in $SERVERS; do
        sleep 1
        mapfile -t pids < <(server_pids $s)
        s0=$(proc_ticks "${pids[@]}"); read -r b0 q0 < <(busy_ticks)
        # `times` in the inner shell reports wrk's own user + system CPU.
        out=$(bash -c '"$@"; times' _ wrk -t$threads -c"$c" -d"${DURATION}s" --timeout 5s \
          --latency -s "$script" "${URL[$s]}" 2>&1)
        s1=$(proc_ticks "${pids[@]}"); read -r b1 q1 < <(busy_ticks)
        echo "$out" >"$LOGS/wrk-$s-$op-c$c-r$round.txt"
        res=$(echo "$out" | grep '^RESULT') || { log "wrk failed: $out"; exit 1; }
        wrk_cpu=$(echo "$out" | tail -1 | awk '{
          n = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); n += a[1] * 60 + a[2] } print n }')
        declare -A R=()
        for kv in $res; do [[ $kv == *=* ]] && R[${kv%%=*}]=${kv#*=}; done
        errs=$((R[connect_errors] + R[read_errors] + R[write_errors] + R[status_errors] + R[timeouts]))
        dur=$(awk -v d="${R[duration_us]}" 'BEGIN{print d/1e6}')
        read -r sc wc qc oc < <(awk -v s=$((s1 - s0)) -v b=$((b1 - b0)) -v q=$((q1 - q0)) \
          -v w="$wrk_cpu" -v hz="$HZ" -v d="$dur" 'BEGIN{sc=s/hz/d; wc=w/d; qc=q/hz/d;
            oc=b/hz/d-sc-wc-qc; if (oc<0) oc=0; printf "%.2f %.2f %.2f %.2f\n", sc, wc, qc, oc}')
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$op" "$c" \
          "$s" "${R[rps]}" "${R[p50_us]}" "${R[p90_us]}" "${R[p99_us]}" "${R[max_us]}" "$errs" \
          "$sc" "$wc" "$qc" "$oc" >>"$RESULTS"
        log "$(printf '%-8s c=%-3s %-9s %8s req/s  p50 %6s us  p99 %7s us  errors %s  cores: server %s wrk %s softirq %s other %s' \
          "$op" "$c" "$s" "${R[rps]}" "${R[p50_us]}" "${R[p99_us]}" "$errs" "$sc" "$wc" "$qc" "$oc")"
        unset R
      done
    done
  done
done
for s in "${!PID[@]}"; do
  kill -0 "${PID[$s]}" 2>/dev/null || log "WARNING: $s (pid ${PID[$s]}) died during the run"
done
log "after: $(uptime | sed 's/.*load/load/')"

"$PY" "$WIRE/table.py" "$RESULTS"
