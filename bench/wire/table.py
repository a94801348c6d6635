#!/usr/bin/env python3
"""Turns run.sh's results.tsv into the Markdown tables of bench/README.md ("Wire protocol").

  table.py results.tsv

Each cell is the median over the rounds. Latencies in ms. The targets of issue 5 are checked on
GetItem at 16 connections when partstore, dynalite and nginx were all measured.
"""
import collections
import csv
import statistics
import sys

rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
cells = collections.defaultdict(list)
ops, conns, servers = [], [], []
for r in rows:
    for lst, v in ((ops, r["op"]), (conns, int(r["conns"])), (servers, r["server"])):
        if v not in lst:
            lst.append(v)
    cells[(r["op"], int(r["conns"]), r["server"])].append(r)
rounds = len({r["round"] for r in rows})


def med(op, c, s, key):
    vals = [float(r[key]) for r in cells.get((op, c, s), [])]
    return statistics.median(vals) if vals else None


def ms(us):
    return "–" if us is None else "%.2f" % (us / 1000)


def rps(v):
    return "–" if v is None else "{:,.0f}".format(v)


head = ["op", "conns"]
for s in servers:
    head += ["%s req/s" % s, "p50", "p99"]
ratios = [(a, b) for a, b in (("partstore", "nginx"), ("partstore", "dynalite"))
          if a in servers and b in servers]
head += ["%s / %s" % ab for ab in ratios]
print("| " + " | ".join(head) + " |")
print("|" + "---|" * len(head))
for op in ops:
    for c in conns:
        line = [op, str(c)]
        for s in servers:
            line += [rps(med(op, c, s, "rps")), ms(med(op, c, s, "p50_us")),
                     ms(med(op, c, s, "p99_us"))]
        for a, b in ratios:
            x, y = med(op, c, a, "rps"), med(op, c, b, "rps")
            line.append("–" if not x or not y else
                        ("%.0f%%" % (100 * x / y) if b == "nginx" else "%.1fx" % (x / y)))
        print("| " + " | ".join(line) + " |")

print()
print("CPU during each point, in cores (of 2): server / wrk / softirq (loopback TCP) / everything "
      "else on the machine; the server's CPU time per request (µs); errors = wrk's "
      "connect, read, write, timeout and non-2xx counts%s." %
      ("" if rounds == 1 else " (medians of %d rounds)" % rounds))
print()
head = (["op", "conns"] + ["%s cores" % s for s in servers] +
        ["%s CPU µs/req" % s for s in servers] + ["errors"])
print("| " + " | ".join(head) + " |")
print("|" + "---|" * len(head))
for op in ops:
    for c in conns:
        line = [op, str(c)]
        errs = []
        for s in servers:
            sc, wc, qc, oc = (med(op, c, s, k)
                              for k in ("server_cores", "wrk_cores", "softirq_cores", "other_cores"))
            line.append("–" if sc is None else "%.2f / %.2f / %.2f / %.2f" % (sc, wc, qc, oc))
            e = sum(int(r["errors"]) for r in cells.get((op, c, s), []))
            if e:
                errs.append("%s %d" % (s, e))
        for s in servers:
            sc, r = med(op, c, s, "server_cores"), med(op, c, s, "rps")
            line.append("–" if not sc or not r else "%.1f" % (sc / r * 1e6))
        line.append(", ".join(errs) or "0")
        print("| " + " | ".join(line) + " |")

if all(s in servers for s in ("partstore", "dynalite", "nginx")) and "GetItem" in ops and 16 in conns:
    p, d, n = (med("GetItem", 16, s, "rps") for s in ("partstore", "dynalite", "nginx"))
    p99 = med("GetItem", 16, "partstore", "p99_us")
    print()
    print("Targets (GetItem, 16 connections):")
    print("- >= 60%% of the nginx ceiling: %s (%.0f%%)" % ("met" if p >= 0.6 * n else "MISSED", 100 * p / n))
    print("- >= 4x dynalite: %s (%.1fx)" % ("met" if p >= 4 * d else "MISSED", p / d))
    print("- p99 < 2 ms: %s (%.2f ms)" % ("met" if p99 < 2000 else "MISSED", p99 / 1000))
