#!/usr/bin/env bash
# The one command behind bench/README.md's "partstore bench" table: YCSB A-F and the seed access
# patterns on the engine in-process (1 and 2 threads), a bare concurrent hash map, Redis
# (redis-server from Debian, through hiredis), and over the wire partstore serve, dynalite (npm)
# and a static-response nginx, all driven by `partstore bench`'s own load client in one run.
#
#   bench/compare.sh                                  # everything: about 25 minutes
#   bench/compare.sh --workloads ycsb-c --seconds 1   # any `partstore bench` option is passed on
#   PEERS="redis" bench/compare.sh --workloads ycsb   # in-process + Redis only
#
# Environment (defaults): PEERS ("redis partstore dynalite nginx": which servers to start),
# SCRATCH (build/bench-compare: npm packages, logs, results), PARTSTORE (the binary; default:
# tools/run builds build/release/partstore), PARTSTORE_THREADS (unset: one server thread per core).
# Results: $SCRATCH/bench.md (the tables) and $SCRATCH/bench.json.
#
# Everything shares the machine's cores: the load client's threads, the server under test, and
# anything else running. Read the ratios, which are measured back to back in one run.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRATCH=${SCRATCH:-$ROOT/build/bench-compare}
PEERS=${PEERS:-redis partstore dynalite nginx}
LOGS=$SCRATCH/logs
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
mkdir -p "$LOGS"

log() { echo "[compare] $*" >&2; }
has() { [[ " $PEERS " == *" $1 "* ]]; }

# shellcheck source=peers.sh
. "$ROOT/bench/peers.sh"
# shellcheck disable=SC2086
install_peers $PEERS
if [ -z "${PARTSTORE:-}" ]; then
  log "building partstore (tools/run: Release, build/release)"
  "$ROOT/tools/run" --version >"$LOGS/build.log" 2>&1 || { cat "$LOGS/build.log" >&2; exit 1; }
  PARTSTORE=$ROOT/build/release/partstore
fi

args=()
if has redis; then
  start_redis
  log "redis at ${URL[redis]} (pid ${PID[redis]})"
  args+=(--redis "${URL[redis]}")
fi
if has partstore; then
  start_partstore
  log "partstore serve at ${URL[partstore]} (pid ${PID[partstore]})"
  args+=(--endpoint "partstore=${URL[partstore]}")
fi
if has dynalite; then
  start_dynalite
  log "dynalite at ${URL[dynalite]} (pid ${PID[dynalite]})"
  args+=(--endpoint "dynalite=${URL[dynalite]}")
fi
if has nginx; then
  body=$SCRATCH/static-body.json
  "$PARTSTORE" bench --static-body "$body" "$@"
  start_nginx "$body"
  log "nginx at ${URL[nginx]} (pid ${PID[nginx]}), static body of $(wc -c <"$body") bytes"
  args+=(--static-endpoint "nginx=${URL[nginx]}")
fi

log "before: $(uptime | sed 's/.*load/load/'); $(nproc) CPUs"
status=0
"$PARTSTORE" bench "${args[@]}" --json "$SCRATCH/bench.json" "$@" | tee "$SCRATCH/bench.md" ||
  status=$?
log "after: $(uptime | sed 's/.*load/load/')"
for s in "${!PID[@]}"; do
  kill -0 "${PID[$s]}" 2>/dev/null || log "WARNING: $s (pid ${PID[$s]}) died during the run"
done
log "tables: $SCRATCH/bench.md, JSON: $SCRATCH/bench.json"
exit "$status"
