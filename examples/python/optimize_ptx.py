#!/usr/bin/env python3
"""Optimize a PTX file with ptx-opt from Python (no GPU needed).

    PYTHONPATH=build/python python3 examples/python/optimize_ptx.py examples/matadd/matadd.ptx [-O2] [-o out.ptx]
"""
import argparse
import re
import sys

import ptxopt

ap = argparse.ArgumentParser()
ap.add_argument("ptx")
ap.add_argument("passes", nargs="?", default="-O2", help='"-O2", "-O0" or pass names ("coalesce,pack")')
ap.add_argument("-o", "--output", help="write the optimized PTX here")
ap.add_argument("--reassociate", action="store_true", help="let the rowwalk pass reassociate float sums")
args = ap.parse_args()

with open(args.ptx) as f:
    text = f.read()
try:
    out, remarks = ptxopt.optimize(text, args.passes, {"reassociate": args.reassociate}, name=args.ptx)
except ptxopt.Error as e:  # "file:line:col: error: ..."
    sys.exit(f"{e}")
for r in remarks:
    print(r)
originals = re.findall(r"\.entry\s+([\w$]+)", text)
clones = [e for e in re.findall(r"\.entry\s+([\w$]+)", out) if e not in originals]
print(f"{len(originals)} kernels, {len(clones)} clones: {', '.join(clones) or 'none'}")
if args.output:
    with open(args.output, "w") as f:
        f.write(out)
