#!/usr/bin/env bash
# tests/consistency/long_run.sh [SCALE]   the recorded histories at SCALE times their CI size
# (default 20: about 180,000 operations in-process per test, and over the wire 40 SIGKILLs and
# 20 SIGTERMs of `partstore serve --wal fsync=always` while connections are cut; the stream
# consumer across 60 kills and 20 SIGTERMs); each history must check with no anomaly. Builds what
# it needs first (tools/run's set-up, Release tree). Figures: docs/consistency.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
scale="${1:-20}"
"$root/tools/run" --version >/dev/null
cmake --build "$root/build/release" --target consistency_tests -j "${PARTSTORE_JOBS:-2}" >&2
cd "$root/build/release"
start=$SECONDS
PARTSTORE_HISTORY_SCALE="$scale" ./tests/consistency_tests
echo "scale $scale: $((SECONDS - start)) s"
