#!/usr/bin/env python3
"""Build cost of ptx-opt's clones: ptxas time and cubin size per example program.

For each program (examples/matadd/matadd.cu and examples/paper/*.cu by
default), compiles it once to PTX with nvcc, then for each pipeline runs
ptx-opt on it and ptxas on the result (-arch=sm_90 -O3), and prints one
Markdown table: clones emitted, ptx-opt and ptxas CPU time (user + system, median of --runs)
and cubin size, with the original PTX (no ptx-opt) as the baseline. The
pipelines: -O2 (the default of ptx-nvcc), -O2 without the clone pruning
(`--skip-pass=prune`), -O1 (coalesce only, the lighter pipeline of
docs/NVCC.md) and `group` alone.

  scripts/bench/build-cost.py [--ptx-opt build/ptx-opt] [--runs 5] [files.cu...]
"""
import argparse
import glob
import os
import resource
import statistics
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PIPELINES = [("original", None), ("-O2", ["-O2"]), ("-O2 no prune", ["-O2", "--skip-pass=prune"]),
             ("-O1", ["-O1"]), ("group", ["--passes=group"])]


def timed(cmd):
    """CPU milliseconds (user + system) of `cmd`: steadier than wall time on a shared machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptx-opt", default=os.path.join(ROOT, "build", "ptx-opt"))
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or [os.path.join(ROOT, "examples/matadd/matadd.cu")] + sorted(
        glob.glob(os.path.join(ROOT, "examples/paper/*.cu")))
    print("| program | pipeline | clones | ptx-opt CPU ms | ptxas CPU ms | ptxas vs original | cubin KB |")
    print("|---|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as d:
        for f in files:
            name = os.path.relpath(f, ROOT)
            ptx = os.path.join(d, "in.ptx")
            subprocess.run([a.nvcc, f"-arch={a.arch}", "-O3", "-ptx", "-I", os.path.join(ROOT, "include"), f, "-o", ptx],
                           check=True)
            base = None
            for label, args in PIPELINES:
                src, optms = ptx, 0.0
                if args:
                    src = os.path.join(d, "out.ptx")
                    optms = statistics.median(timed([a.ptx_opt, *args, ptx, "-o", src]) for _ in range(a.runs))
                cubin = os.path.join(d, "k.cubin")
                pt = statistics.median(
                    timed([a.ptxas, f"-arch={a.arch}", "-O3", src, "-o", cubin]) for _ in range(a.runs))
                text = open(src).read()
                clones = sum(1 for line in text.splitlines()
                             if line.startswith(".visible .entry") and "__ptxopt_" in line)
                base = base or pt
                print(f"| {name} | {label} | {clones} | {optms:.1f} | {pt:.0f} | {pt / base:.2f}x "
                      f"| {os.path.getsize(cubin) / 1024:.1f} |", flush=True)


if __name__ == "__main__":
    main()
