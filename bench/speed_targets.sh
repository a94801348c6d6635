#!/usr/bin/env bash
# Issue 51's speed targets, measured side by side in one run, each against its target
# (bench/README.md, "Issue 51's targets side by side"):
#   - resident memory of the seed items with a KEYS_ONLY GSI1, over their DynamoDB size
#     (BM_SeedMemory/keys_only, a process of its own: RSS is exact only for a process's first load);
#   - `partstore bench`, the engine over a bare hash map, 1 thread, Zipfian: YCSB A, B, C, and the
#     seed queries (seed-product-reviews, seed-order-items) at 1 and 2 threads, both key
#     distributions (each cell the median of ROUNDS interleaved rounds);
#   - GetItem over the wire at 16 connections (one wrk thread), `partstore serve` against a
#     static-response nginx (bench/wire/run.sh): throughput and p99;
#   - the simulated hour (bench/workloads/hour_20k_orders.toml): wall-clock seconds and peak RSS.
#
#   bench/speed_targets.sh                  # about 10 minutes: the whole hour is 5 of them
#   HOUR=5m bench/speed_targets.sh          # the hour's first 5 minutes (about 20 s), not judged
#   SKIP="wire" bench/speed_targets.sh      # leave parts out: memory, bench, wire, hour
#
# Environment (defaults): ROUNDS (5: `partstore bench`'s rounds), SECONDS_PER_CELL (1), WIRE_ROUNDS
# (3), WIRE_DURATION (10 seconds), HOUR (1h), SKIP (""), SCRATCH (build/speed-targets: logs and
# results). The Release tree is built first (tools/run).
# CI's time is not measured here: it is a fresh clone's `tools/run test` (bench/README.md, "Build
# time"); this prints where to read it.
#
# The machine is shared: every ratio is measured back to back in this run; read them, not the
# absolute figures, and run it on a quiet machine (`uptime`).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRATCH=${SCRATCH:-$ROOT/build/speed-targets}
ROUNDS=${ROUNDS:-5}
WIRE_ROUNDS=${WIRE_ROUNDS:-3}
SECONDS_PER_CELL=${SECONDS_PER_CELL:-1}
HOUR=${HOUR:-1h}
SKIP=${SKIP:-}
WIRE_DURATION=${WIRE_DURATION:-10}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
mkdir -p "$SCRATCH"
RESULTS=$SCRATCH/results.tsv
: >"$RESULTS"

log() { echo "[speed-targets] $*" >&2; }
wanted() { [[ " $SKIP " != *" $1 "* ]]; }
# result FIGURE MEASURED TARGET VERDICT
result() { printf '%s\t%s\t%s\t%s\n' "$@" >>"$RESULTS"; }

case "$HOUR" in
  [0-9]*[smh]) ;;
  *) echo "HOUR must be a duration such as 1h or 5m, not '$HOUR'" >&2; exit 2 ;;
esac

log "building the Release tree (tools/run)"
"$ROOT/tools/run" --version >/dev/null
cmake --build "$ROOT/build/release" -j"${PARTSTORE_JOBS:-2}" --target partstore_benchmarks >/dev/null
PARTSTORE=$ROOT/build/release/partstore
BENCHMARKS=$ROOT/build/release/bench/partstore_benchmarks
log "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- memory -------------------------------------------------------------------------------------
if wanted memory; then
  log "memory: BM_SeedMemory/keys_only"
  "$BENCHMARKS" --benchmark_filter='BM_SeedMemory/keys_only/' --benchmark_format=json \
    >"$SCRATCH/memory.json" 2>"$SCRATCH/memory.log"
  "$PY" - "$SCRATCH/memory.json" >>"$RESULTS" <<'EOF'
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
r = b["rss_ratio"]
print("memory: RSS over DynamoDB size, seed items + KEYS_ONLY GSI1\t%.2fx (%.0f B an item of %.0f)\t<= 1.5x\t%s"
      % (r, b["rss_per_item"], b["dynamodb_per_item"], "met" if r <= 1.5 else "missed"))
EOF
fi

# --- the engine against the bare map --------------------------------------------------------------
if wanted bench; then
  # Two runs: only the cells the targets name, so that more rounds fit.
  log "partstore bench: YCSB A/B/C (1 thread, Zipfian), $ROUNDS rounds of ${SECONDS_PER_CELL}s"
  "$PARTSTORE" bench --workloads ycsb-a,ycsb-b,ycsb-c --keys zipfian --threads 1 \
    --seconds "$SECONDS_PER_CELL" --rounds "$ROUNDS" --json "$SCRATCH/bench-ycsb.json" \
    >"$SCRATCH/bench-ycsb.md" 2>"$SCRATCH/bench-ycsb.log"
  log "partstore bench: the seed queries (1 and 2 threads, both key distributions)"
  "$PARTSTORE" bench --workloads seed-product-reviews,seed-order-items --keys zipfian,uniform \
    --threads 1,2 --seconds "$SECONDS_PER_CELL" --rounds "$ROUNDS" \
    --json "$SCRATCH/bench-seed.json" >"$SCRATCH/bench-seed.md" 2>"$SCRATCH/bench-seed.log"
  # A cell's ratio is the median of its rounds' ratios: each round runs the engine and the bare
  # map back to back, so a round's ratio sees one state of the (shared) machine. The ratio of the
  # two medians, which `partstore bench` reports, mixes rounds; it is printed beside.
  "$PY" - "$SCRATCH/bench-ycsb.log" "$SCRATCH/bench-seed.log" >>"$RESULTS" <<'EOF'
import collections, re, statistics, sys
rounds = collections.defaultdict(list)  # (target, workload, keys, threads) -> ops/s, in order
line = re.compile(r"^\[bench\] (\S+)\s+(\S+)\s+(\S+)\s+(\d+)T\s+(\d+) ops/s")
for path in sys.argv[1:]:
    for text in open(path):
        m = line.match(text)
        if m:
            rounds[(m[1], m[2], m[3], int(m[4]))].append(float(m[5]))
def cell(w, d, t):
    e, b = rounds.get(("engine", w, d, t)), rounds.get(("bare-map", w, d, t))
    if not e or not b or len(e) != len(b):
        return None
    paired = sorted(x / y for x, y in zip(e, b))
    return statistics.median(paired), statistics.median(e) / statistics.median(b), paired
for w, goal in (("ycsb-c", 0.85), ("ycsb-b", 0.8), ("ycsb-a", 0.7)):
    c = cell(w, "zipfian", 1)
    if c is None:  # a log this script cannot read: say so, rather than leave the row out
        print("bench: engine / bare map, %s\tno paired rounds in the log\t>= %.2fx\terror"
              % (w.upper().replace("-", " "), goal))
        continue
    r, of_medians, paired = c
    print("bench: engine / bare map, %s, 1 thread, zipfian\t%.3fx (rounds %.2f-%.2fx; ratio of "
          "medians %.2fx)\t>= %.2fx\t%s" % (w.upper().replace("-", " "), r, paired[0], paired[-1],
                                          of_medians, goal, "met" if r >= goal else "missed"))
seeds = [cell(w, d, t) for w in ("seed-product-reviews", "seed-order-items")
         for d in ("zipfian", "uniform") for t in (1, 2)]
if any(c is None for c in seeds):
    print("bench: engine / bare map, the seed queries\tno paired rounds in the log for %d of 8 "
          "cells\tmedian >= 0.6x, none < 0.5x\terror" % sum(c is None for c in seeds))
seeds = [c[0] for c in seeds if c is not None]
if seeds:
    med, low = statistics.median(seeds), min(seeds)
    print("bench: engine / bare map, the seed queries (%d cells)\tmedian %.2fx, lowest %.2fx\t"
          "median >= 0.6x, none < 0.5x\t%s" % (len(seeds), med, low,
                                             "met" if med >= 0.6 and low >= 0.5 else "missed"))
EOF
fi

# --- GetItem over the wire against nginx ----------------------------------------------------------
if wanted wire; then
  log "wire: GetItem at 16 connections, partstore serve and nginx (bench/wire/run.sh)"
  # One wrk thread, as the issue's figure is measured (`wrk -t1 -c16`); until 2026-12-02 this ran
  # wrk's two, which pre-empted nginx's one worker too and lifted its p99 from ~0.4 to ~3 ms.
  WRK_THREADS=1 SERVERS="partstore nginx" OPS=GetItem CONNS=16 DURATION="$WIRE_DURATION" \
    ROUNDS="$WIRE_ROUNDS" SCRATCH="$SCRATCH/wire" "$ROOT/bench/wire/run.sh" \
    >"$SCRATCH/wire.log" 2>&1
  "$PY" - "$SCRATCH/wire/results.tsv" >>"$RESULTS" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
def med(server, field):
    return statistics.median(float(r[field]) for r in rows
                             if r["server"] == server and r["op"] == "GetItem" and r["conns"] == "16")
rps = med("partstore", "rps") / med("nginx", "rps")
p99 = med("partstore", "p99_us") / med("nginx", "p99_us")
print("wire: GetItem, 16 connections, over nginx: throughput\t%.2fx\t>= 0.8x\t%s"
      % (rps, "met" if rps >= 0.8 else "missed"))
print("wire: GetItem, 16 connections: p99 over nginx's p99\t%.2fx (%.2f ms)\t<= 1.5x\t%s"
      % (p99, med("partstore", "p99_us") / 1000, "met" if p99 <= 1.5 else "missed"))
EOF
fi

# --- the simulated hour -------------------------------------------------------------------------
if wanted hour; then
  log "the simulated hour: hour_20k_orders.toml, duration $HOUR"
  workload=$SCRATCH/hour.toml
  sed "s/^duration = \"1h\"/duration = \"$HOUR\"/" "$ROOT/bench/workloads/hour_20k_orders.toml" \
    >"$workload"
  /usr/bin/time -f '%e %M' -o "$SCRATCH/hour.time" "$PARTSTORE" simulate "$workload" --quiet \
    >"$SCRATCH/hour.txt"
  read -r wall rss_kb <"$SCRATCH/hour.time"
  if [ "$HOUR" = 1h ]; then
    verdict=$(awk -v w="$wall" 'BEGIN { print (w <= 60 ? "met" : "missed") }')
  else
    verdict="not judged ($HOUR of the hour)"
  fi
  result "simulated hour at 20,000 requests/s ($HOUR)" \
    "$(awk -v w="$wall" -v k="$rss_kb" 'BEGIN { printf "%.0f s, peak RSS %.1f GB", w, k / 1048576 }')" \
    "<= 60 s, memory stated" "$verdict"
fi

log "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
result "CI: a fresh clone's tools/run test" "see tools/run's stage times" \
  "<= 60 CPU-minutes, <= 35 min wall" "not measured here"
{
  echo
  echo "| figure | measured | target | verdict |"
  echo "|---|---|---|---|"
  while IFS=$'\t' read -r figure measured target verdict; do
    echo "| $figure | $measured | $target | $verdict |"
  done <"$RESULTS"
} | tee "$SCRATCH/targets.md"
log "logs and results: $SCRATCH"
