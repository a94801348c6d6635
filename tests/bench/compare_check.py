#!/usr/bin/env python3
"""ctest bench.compare: bench/compare.sh end to end at a tiny scale.

  compare_check.py PARTSTORE_BINARY SCRATCH_DIR

Starts every peer (redis-server, partstore serve, dynalite, a static-response nginx) through
bench/compare.sh, runs `partstore bench` against them and the in-process targets, and checks the
JSON report: every target loaded, every cell ran without an error or a read that found nothing,
the static server ran YCSB C's point reads only, and every ratio of issue 11 was computed.
"""
import json
import os
import signal
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
binary, scratch = sys.argv[1], sys.argv[2]
os.makedirs(scratch, exist_ok=True)
env = dict(os.environ, PARTSTORE=binary, SCRATCH=scratch)
workloads = "ycsb-a,ycsb-c,ycsb-d,ycsb-e,seed-get-user,seed-user-orders,seed-followers-page"
args = ["bash", os.path.join(ROOT, "bench", "compare.sh"), "--records", "400", "--users", "8",
        "--seconds", "0.1", "--warmup", "0.02", "--threads", "1,2", "--connections", "4",
        "--workloads", workloads]
# Its own process group, so a hang takes the peers compare.sh started down with it.
proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                        start_new_session=True)
try:
    stdout, stderr = proc.communicate(timeout=800)
except subprocess.TimeoutExpired:
    os.killpg(proc.pid, signal.SIGKILL)
    stdout, stderr = proc.communicate()
    sys.stderr.write(stderr[-4000:])
    sys.exit("compare.sh still running after 800 s")
sys.stderr.write(stderr[-4000:])
print(stdout)
if proc.returncode != 0:
    sys.exit("compare.sh exited with %d" % proc.returncode)

report = json.load(open(os.path.join(scratch, "bench.json")))
names = {t["name"]: t for t in report["targets"]}
expected = {"engine": "engine", "bare-map": "ceiling", "redis": "peer",
            "partstore": "wire-subject", "dynalite": "peer", "nginx": "ceiling"}
for name, role in expected.items():
    assert name in names, "target %s missing: %s" % (name, sorted(names))
    assert names[name]["role"] == role, (name, names[name]["role"])
    assert "error" not in names[name], names[name]
    if name != "nginx":
        # 400 records + the seed model of 8 users (8 x 51 + 2 x 11 items).
        assert names[name]["loaded_items"] == 400 + 8 * 51 + 2 * 11, names[name]

cells = report["cells"]
point_reads = {"ycsb-c"}  # the static body is a YCSB record
for c in cells:
    assert c["errors"] == 0 and c["misses"] == 0, c
    assert c["operations"] > 0 and c["ops_per_second"] > 0, c
    if c["target"] == "nginx":
        assert c["workload"] in point_reads, c
for workload in workloads.split(","):
    for keys in ("zipfian", "uniform"):
        ran = {(c["target"], c["threads"]) for c in cells
               if c["workload"] == workload and c["distribution"] == keys}
        want = {("engine", 1), ("engine", 2), ("bare-map", 1), ("bare-map", 2), ("redis", 1),
                ("redis", 2), ("partstore", 4), ("dynalite", 4)}
        if workload in point_reads:
            want.add(("nginx", 4))
        assert ran == want, (workload, keys, sorted(ran))

labels = {r["label"]: r for r in report["ratios"]}
for label in ("engine / bare-map", "engine / redis", "partstore / nginx", "partstore / dynalite"):
    assert label in labels and labels[label]["pairs"], (label, sorted(labels))
assert "| ycsb-e | uniform |" in stdout, "the Markdown table is missing a row"
print("compare_check: ok (%d cells)" % len(cells))
