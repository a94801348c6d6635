#!/usr/bin/env bash
# tools/unity_check.sh [TARGET...]   check that each library and test binary compiles as ONE unity
# batch (cmake/build_speed.cmake): configures a clang tree with both batch sizes 0 in
# build/unity-check and runs `clang++ -fsyntax-only` on every Unity/unity_*_cxx.cxx file (no
# object, no link: a few CPU-minutes for everything). With TARGETs (e.g. partstore_protocol
# shard_tests), only theirs. A file-local name two files of a library or test folder share shows
# up as a redefinition; rename one, or make it one helper in a shared header.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tree="$root/build/unity-check"
cmake -S "$root" -B "$tree" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER_LAUNCHER= -DPARTSTORE_UNITY=ON -DPARTSTORE_UNITY_BATCH_SIZE=0 \
  -DPARTSTORE_UNITY_TEST_BATCH_SIZE=0 -DPARTSTORE_PCH=OFF >/dev/null
python3 - "$tree" "${PARTSTORE_JOBS:-2}" "$@" <<'PY'
import concurrent.futures, json, re, subprocess, sys
tree, jobs, targets = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
checks = []
for entry in json.load(open(tree + "/compile_commands.json")):
    source = entry["file"]
    if "/Unity/" not in source:
        continue
    if targets and not any("/%s.dir/" % t in source for t in targets):
        continue
    command = re.sub(r" -o \S+", " ", entry["command"])
    command = re.sub(r" -MD -MT \S+ -MF \S+", " ", command).replace(" -c ", " -fsyntax-only ")
    checks.append((source, command, entry["directory"]))
unknown = [t for t in targets if not any("/%s.dir/" % t in c[0] for c in checks)]
if unknown:
    sys.exit("unity_check: no unity batch of %s (a library or test binary's target name, e.g. "
             "partstore_protocol or shard_tests)" % ", ".join(unknown))
def run(check):
    source, command, directory = check
    done = subprocess.run(command, shell=True, cwd=directory, capture_output=True, text=True)
    return source, done.returncode, [l for l in done.stderr.splitlines() if "error:" in l]
failed = 0
with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
    for source, code, errors in pool.map(run, checks):
        print(("ok     " if code == 0 else "FAILED ") + source.split("/CMakeFiles/")[1])
        for line in errors[:20]:
            print("    " + line)
        failed += code != 0
print("%d of %d batches failed" % (failed, len(checks)))
sys.exit(1 if failed else 0)
PY
