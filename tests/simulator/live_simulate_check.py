#!/usr/bin/env python3
"""`partstore simulate WORKLOAD --live --speed Nx`: the live page served while a run goes at N
simulated seconds a second, and after it until Ctrl-C.

Usage:
  live_simulate_check.py PARTSTORE WORKDIR

Writes a 20-second workload (a provisioned table; 5 s of spread writes, then 15 s on one hot key,
throttled) to WORKDIR, runs it with --live --port 0 --speed 10x, and checks that:
  - the page's address is printed on standard error and /ui answers the page;
  - /ui/data read during the run shows the simulated clock moving on, between two reads, by about
    what the pace says (not all at once: the run waits for the wall clock);
  - the run takes at least 20 / 10 s of wall-clock time (unpaced it takes a fraction of that);
  - once "the run is over" is printed, /ui/data shows the end of the run: the clock at 20 s, the
    hot key's partition at or over its limit, the throttle reason, the hot key in the last
    throttled requests;
  - SIGINT then ends the program with status 0 and the usual text report on standard output.
"""

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
import urllib.request

NAME = "simulator.live"
WORKLOAD = """
name = "live-check"
seed = 3
[[tables]]
name = "Shop"
partition_key = "PK"
billing = "provisioned"
read_capacity = 100
write_capacity = 500
[[phases]]
name = "spread"
duration = "5s"
rate = 200
keys = { distribution = "uniform", count = 1000 }
  [[phases.mix]]
  op = "put"
  table = "Shop"
  key = "ITEM#{key}"
  size = 300
[[phases]]
name = "hot"
duration = "15s"
rate = 900
keys = { distribution = "uniform", count = 1 }
  [[phases.mix]]
  op = "put"
  table = "Shop"
  key = "ITEM#hot"
  size = 300
"""


def fail(message):
    print(f"{NAME}: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def read_line(stream, timeout, what):
    ready, _, _ = select.select([stream], [], [], timeout)
    if not ready:
        fail(f"no {what} within {timeout} s")
    return stream.readline()


def data(url):
    with urllib.request.urlopen(url + "/data", timeout=10) as answer:
        return json.load(answer)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, workdir = sys.argv[1], sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    workload = os.path.join(workdir, "live-check.toml")
    with open(workload, "w") as out:
        out.write(WORKLOAD)
    process = subprocess.Popen([binary, "simulate", workload, "--live", "--port", "0", "--speed",
                                "10x", "--quiet"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        line = read_line(process.stderr, 30, "live page line")
        match = re.match(r"^partstore simulate: live page at (http://127\.0\.0\.1:\d+/ui) \(10x\)$",
                         line.strip())
        if not match:
            fail(f"unexpected first line: {line!r}")
        started = time.monotonic()
        url = match.group(1)
        with urllib.request.urlopen(url, timeout=10) as answer:
            if "live partitions" not in answer.read().decode():
                fail("/ui is not the live page")
        first = data(url)
        time.sleep(0.5)
        second = data(url)
        if not first["capacity"] or not (0 <= first["now"] < second["now"] < 20):
            fail(f"the clock does not move on during the run: {first.get('now')} then "
                 f"{second.get('now')}")
        moved = second["now"] - first["now"]
        if not 2 <= moved <= 12:  # 0.5 s at 10x: about 5 simulated seconds
            fail(f"0.5 s of wall clock moved the simulated clock {moved:.2f} s at 10x")
        line = read_line(process.stderr, 60, "end-of-run line")
        wall = time.monotonic() - started
        if "the run is over" not in line:
            fail(f"unexpected line: {line!r}")
        if wall < 1.5:
            fail(f"20 simulated seconds at 10x took {wall:.2f} s of wall clock")
        end = data(url)
        table = end["resources"][0]
        if abs(end["now"] - 20) > 0.01:
            fail(f"the page's clock is at {end['now']}, not at the run's end (20 s)")
        if not any(p["write_share"] >= 1 for p in table["partitions"]):
            fail(f"no partition at its limit: {table['partitions']}")
        if not table["throttles"] or not table["recent_throttles"]:
            fail("no throttles shown at the end of the run")
        if table["recent_throttles"][-1]["key"] != {"PK": {"S": "ITEM#hot"}}:
            fail(f"the last throttled key is {table['recent_throttles'][-1]['key']}")
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
        if process.returncode != 0:
            fail(f"exit status {process.returncode}: {err[-2000:]}")
        if "live-check (seed 3): 20 s simulated" not in out:
            fail(f"no report on standard output: {out[:500]!r}")
        print(f"{NAME}: the page followed the run at 10x ({wall:.1f} s of wall clock for 20 "
              f"simulated s; {moved:.1f} s moved in 0.5 s) and stayed until SIGINT")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


if __name__ == "__main__":
    main()
