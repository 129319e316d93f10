#!/usr/bin/env python3
"""Compares two gpu-diff logs of the same cases (before and after a change,
each a `gpu-diff ... | tee LOG` output): per case present in both with an
`equal` or `in bound` result, the optimized module's time after / before
and the original's time after / before (the machines' spread), and their
geometric means, over every case and over those whose clone takes more
than --min-ms before. --variant TEXT keeps the cases whose variant, in both
logs, contains TEXT (e.g. `tiled`). Prints a markdown table of the cases
sorted by the ratio, then the means.

  scripts/bench/gpu-diff-compare.py BEFORE.log AFTER.log [--variant TEXT] [--min-ms MS]
"""
import argparse
import math
import re
import sys

ROW = re.compile(r"^(?P<name>.+?)\s+(?P<variant>\S+ \([^)]*\))\s+(?:equal|in bound)\s+"
                 r"(?P<orig>[0-9.]+)\s+(?P<opt>[0-9.]+)\s+(?P<x>[0-9.]+)x\s*$")


def read(path):
    rows = {}
    for line in open(path, encoding="utf-8"):
        m = ROW.match(line.rstrip("\n"))
        if m:
            rows[m.group("name").strip()] = (m.group("variant"), float(m.group("orig")), float(m.group("opt")))
    return rows


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--variant", default="")
    ap.add_argument("--min-ms", type=float, default=0.04)
    a = ap.parse_args()
    b, c = read(a.before), read(a.after)
    rows = []
    for name, (vb, ob, pb) in b.items():
        if name not in c:
            continue
        vc, oc, pc = c[name]
        if a.variant not in vb or a.variant not in vc or min(pb, ob, pc, oc) <= 0:
            continue
        rows.append((pc / pb, oc / ob, name, pb, pc))
    if not rows:
        print("gpu-diff-compare: no case in both logs", file=sys.stderr)
        return 1
    rows.sort()
    print("| case | clone ms before | after | after / before | original after / before |")
    print("|---|---:|---:|---:|---:|")
    for r, o, name, pb, pc in rows:
        print(f"| {name} | {pb:.4f} | {pc:.4f} | {r:.2f} | {o:.2f} |")
    big = [r for r in rows if r[3] > a.min_ms]
    print(f"\n{len(rows)} cases: clone time after / before geomean {geomean([r[0] for r in rows]):.3f}, "
          f"original {geomean([r[1] for r in rows]):.3f}; the {len(big)} whose clone took more than "
          f"{a.min_ms} ms before: {geomean([r[0] for r in big]):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
