#!/usr/bin/env python3
"""Coverage of the analysis over many PTX files (issue #15): the global
accesses by verdict and the unknown ones by cause, per file and in all, as a
Markdown table, from `ptx-opt --analyze=json` (its "coverage" objects,
docs/ANALYSIS.md).

    scripts/bench/coverage-report.py [--ptx-opt build/ptx-opt] FILE_OR_FOLDER...

Folders are searched for *.ptx. A file ptx-opt cannot read is listed with
its error and left out of the totals; the exit status is then 1.
"""
import argparse
import json
import os
import subprocess
import sys

VERDICTS = ("coalesced", "uniform", "uncoalesced", "unknown")


def ptx_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for f in sorted(files):
                    if f.endswith(".ptx"):
                        yield os.path.join(root, f)
        else:
            yield p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--ptx-opt", default=os.path.join(here, "..", "..", "build", "ptx-opt"))
    args = ap.parse_args()
    total = {"kernels": 0, "accesses": 0, "verdicts": {v: 0 for v in VERDICTS}, "causes": {}}
    rows, failed = [], 0
    for f in ptx_files(args.paths):
        r = subprocess.run([args.ptx_opt, "--analyze=json", f], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode != 0:
            failed += 1
            err = r.stderr.decode(errors="replace").strip().splitlines()
            rows.append("| %s | error: %s |" % (f, (err[0] if err else "exit %d" % r.returncode).replace("|", "\\|")))
            continue
        cov = json.loads(r.stdout)["coverage"]
        kernels = len(json.loads(r.stdout)["kernels"])
        total["kernels"] += kernels
        total["accesses"] += cov["accesses"]
        for v in VERDICTS:
            total["verdicts"][v] += cov["verdicts"][v]
        for c, n in cov["unknown_causes"].items():
            total["causes"][c] = total["causes"].get(c, 0) + n
        causes = ", ".join("%d %s" % (n, c) for c, n in sorted(cov["unknown_causes"].items()))
        rows.append("| %s | %d | %d | %s | %s |" % (f, kernels, cov["accesses"],
                                                   " | ".join(str(cov["verdicts"][v]) for v in VERDICTS), causes))
    print("| file | kernels | global accesses | %s | unknown by cause |" % " | ".join(VERDICTS))
    print("|---|---:|---:|%s---|" % ("---:|" * len(VERDICTS)))
    for r in rows:
        print(r)
    causes = ", ".join("%d %s" % (n, c) for c, n in sorted(total["causes"].items(), key=lambda x: (-x[1], x[0])))
    print("| **all** | %d | %d | %s | %s |" % (total["kernels"], total["accesses"],
                                              " | ".join(str(total["verdicts"][v]) for v in VERDICTS), causes))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
