#!/usr/bin/env python3
"""Front-end benchmark: parse and print speed of ptx-opt against ptxas.

For the largest PTX files of the corpus (or the files given), reports the
median of several runs of `ptx-opt --time-passes` (parse, lossless print,
canonical print), the throughput in MB/s, the peak resident memory relative
to the input size, and the time ptxas takes to assemble the same file, the time of a whole
`ptx-opt --analyze` run against a plain parse+print run, and the time of a
whole `ptx-opt -O2` run against ptxas's.
Prints a Markdown table (for docs/BENCHMARKS.md).

  scripts/bench/frontend.py [--ptx-opt build/ptx-opt] [--runs 5] [-n 6] [files...]

With --analyze-ratio it prints only the cost of the analysis report against a
plain parse+print run, per file: median time of `ptx-opt FILE`, `ptx-opt
--analyze FILE` and `ptx-opt --analyze=json FILE` (--time-passes total, in
rounds that run the three back to back; a ratio is the median of the
rounds' ratios, which a shared machine's drifting load disturbs less); with
--baseline another build's rows from the same rounds; with --callgrind also
the instruction counts of one run each under valgrind (the stable measure on
a shared machine). Files are passed relative to the repository root (an
absolute path changes the plain run's count by a few million). Issue #15's
target: --analyze within 2x of the plain run on the largest corpus files.

  scripts/bench/frontend.py --analyze-ratio [--callgrind] [--baseline OTHER] [--runs 41] [-n 2] [files...]

With --o2-ratio it prints issue #16's figure alone: `ptx-opt -O2 FILE -o OUT`
against `ptxas` on the same file, both timed as whole processes (wall clock
from start to exit, as a build pays them), in rounds that run ptxas, then
ptx-opt (and --baseline's, when given) back to back; the medians, the
minima and the median of the rounds' ratios. The main table's "-O2 total"
column is ptx-opt's own --time-passes total, without --stats (whose
coverage counts run the analyses again).

  scripts/bench/frontend.py --o2-ratio [--baseline OTHER] [--runs 11] [-n 2] [files...]
"""
import argparse
import glob
import os
import re
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def ptxopt_times(exe, path, extra):
    r = subprocess.run([exe, "--time-passes", "--stats", *extra, path, "-o", os.devnull],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    err = r.stderr.decode()
    t = {k: float(v) for k, v in re.findall(r"(read|parse|verify|print|write|total) ([0-9.]+) ms", err)}
    t["rss_kib"] = int(re.search(r"peak RSS (\d+) KiB", err).group(1))
    return t


def ptxas_time(ptxas, path):
    m = re.search(rb"^\s*\.target\s+([A-Za-z0-9_]+)", open(path, "rb").read(), re.M)
    arch = m.group(1).decode() if m else "sm_75"
    extra = ["-c"] if re.search(rb"^\s*\.extern\s+\.func", open(path, "rb").read(), re.M) else []
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        subprocess.run([ptxas, f"-arch={arch}", *extra, path, "-o", os.path.join(d, "k.cubin")], check=True)
        return (time.perf_counter() - t0) * 1000


def total_ms(exe, path, extra):
    """Total time of one run (--time-passes, without --stats: its coverage counts run the analyses)."""
    r = subprocess.run([exe, "--time-passes", *extra, path, "-o", os.devnull],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True, cwd=ROOT)
    return float(re.search(r"total ([0-9.]+) ms", r.stderr.decode()).group(1))


def instructions(exe, path, extra):
    """Instructions of one run (valgrind --tool=callgrind), or None without valgrind."""
    with tempfile.TemporaryDirectory() as d:
        try:
            r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.path.join(d, "cg"),
                                exe, *extra, path, "-o", os.devnull], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=ROOT)
        except FileNotFoundError:
            return None
        m = re.search(rb"refs:\s+([0-9,]+)", r.stderr)
        return int(m.group(1).replace(b",", b"")) if m else None


def analyze_ratio(a, files):
    modes = [("plain", []), ("--analyze", ["--analyze"]), ("--analyze=json", ["--analyze=json"])]
    head = "| file | MB | plain ms | --analyze ms | ratio | --analyze=json ms | ratio |"
    sep = "|---|---:|---:|---:|---:|---:|---:|"
    if a.callgrind:
        head += " plain instr | --analyze instr | ratio | json instr | ratio |"
        sep += "---:|---:|---:|---:|---:|"
    print(head)
    print(sep)
    exes = [("", a.ptx_opt)] + ([("baseline: ", a.baseline)] if a.baseline else [])
    for f in files:
        rel = os.path.relpath(f, ROOT)
        ms = {exe: [[] for _ in modes] for _, exe in exes}
        for _ in range(a.runs):  # rounds: every build and mode once, back to back
            for _, exe in exes:
                for k, (_, extra) in enumerate(modes):
                    ms[exe][k].append(total_ms(exe, rel, extra))
        for label, exe in exes:
            t = ms[exe]
            med = [statistics.median(x) for x in t]
            ratio = [statistics.median(t[k][i] / t[0][i] for i in range(a.runs)) for k in (1, 2)]
            row = (f"| {label}{rel} | {os.path.getsize(f) / 1e6:.2f} | {med[0]:.1f} | {med[1]:.1f} "
                   f"| {ratio[0]:.2f}x | {med[2]:.1f} | {ratio[1]:.2f}x |")
            if a.callgrind:
                n = [instructions(exe, rel, extra) for _, extra in modes]
                if None in n:
                    row += " - | - | - | - | - |"
                else:
                    row += (f" {n[0] / 1e6:.1f} M | {n[1] / 1e6:.1f} M | {n[1] / n[0]:.2f}x | {n[2] / 1e6:.1f} M "
                            f"| {n[2] / n[0]:.2f}x |")
            print(row, flush=True)


def wall_ms(cmd):
    """Wall time of one whole process, start to exit."""
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    return (time.perf_counter() - t0) * 1000


def o2_ratio(a, files):
    exes = [("", a.ptx_opt)] + ([("baseline: ", a.baseline)] if a.baseline else [])
    print("| file | MB | ptxas ms, median (min) | ptx-opt -O2 ms, median (min) | -O2 / ptxas, median of rounds (of medians) |")
    print("|---|---:|---:|---:|---:|")
    for f in files:
        rel = os.path.relpath(f, ROOT)
        m = re.search(rb"^\s*\.target\s+([A-Za-z0-9_]+)", open(f, "rb").read(), re.M)
        arch = m.group(1).decode() if m else "sm_75"
        extra = ["-c"] if re.search(rb"^\s*\.extern\s+\.func", open(f, "rb").read(), re.M) else []
        px, ms = [], {exe: [] for _, exe in exes}
        with tempfile.TemporaryDirectory() as d:
            for _ in range(a.runs):  # rounds: ptxas, then each ptx-opt
                px.append(wall_ms([a.ptxas, f"-arch={arch}", *extra, rel, "-o", os.path.join(d, "k.cubin")]))
                for _, exe in exes:
                    ms[exe].append(wall_ms([exe, "-O2", rel, "-o", os.path.join(d, "o.ptx")]))
        for label, exe in exes:
            t = ms[exe]
            ratio = statistics.median(t[i] / px[i] for i in range(a.runs))
            print(f"| {label}{rel} | {os.path.getsize(f) / 1e6:.2f} | {statistics.median(px):.0f} ({min(px):.0f}) "
                  f"| {statistics.median(t):.1f} ({min(t):.1f}) | {100 * ratio:.1f}% "
                  f"({100 * statistics.median(t) / statistics.median(px):.1f}%) |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptx-opt", default=os.path.join(ROOT, "build", "ptx-opt"))
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("-n", type=int, default=6, help="number of largest corpus files")
    ap.add_argument("--analyze-ratio", action="store_true", help="only the --analyze / plain run table")
    ap.add_argument("--callgrind", action="store_true", help="with --analyze-ratio: instruction counts too")
    ap.add_argument("--o2-ratio", action="store_true", help="only ptx-opt -O2 against ptxas, whole processes")
    ap.add_argument("--baseline", help="with --analyze-ratio or --o2-ratio: another ptx-opt timed in the same rounds")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    a.ptx_opt = os.path.abspath(a.ptx_opt)  # the runs are made from the repository root
    if a.baseline:
        a.baseline = os.path.abspath(a.baseline)
    files = a.files or sorted(glob.glob(os.path.join(ROOT, "tests/corpus/ptx/**/*.ptx"), recursive=True),
                              key=os.path.getsize, reverse=True)[:a.n]
    if a.analyze_ratio:
        analyze_ratio(a, files)
        return
    if a.o2_ratio:
        o2_ratio(a, files)
        return
    # Memory of the program itself (code, ANTLR's ATN): peak RSS on a 3 KB module.
    base = ptxopt_times(a.ptx_opt, os.path.join(ROOT, "examples/matadd/matadd.ptx"), [])["rss_kib"] / 1024
    print(f"Baseline peak RSS (3 KB module): {base:.1f} MB\n")
    print("| file | MB | parse ms | print ms | parse+print MB/s | canonical print ms | peak RSS MB | (RSS - baseline) / input | ptxas ms | parse+print / ptxas | --analyze total ms | --analyze / plain run | -O2 total ms | -O2 / ptxas |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for f in files:
        size = os.path.getsize(f)
        runs = [ptxopt_times(a.ptx_opt, f, []) for _ in range(a.runs)]
        canon = [ptxopt_times(a.ptx_opt, f, ["--canonicalize"]) for _ in range(a.runs)]
        parse = statistics.median(r["parse"] for r in runs)
        prt = statistics.median(r["print"] for r in runs)
        cprt = statistics.median(r["print"] for r in canon)
        rss = max(r["rss_kib"] for r in runs) / 1024
        px = statistics.median(ptxas_time(a.ptxas, f) for _ in range(3)) if os.path.exists(a.ptxas) else float("nan")
        plain = statistics.median(r["total"] for r in runs)
        analyze = statistics.median(ptxopt_times(a.ptx_opt, f, ["--analyze"])["total"] for _ in range(a.runs))
        o2 = statistics.median(total_ms(a.ptx_opt, f, ["-O2"]) for _ in range(a.runs))
        mb = size / 1e6
        print(f"| {os.path.relpath(f, ROOT)} | {mb:.2f} | {parse:.1f} | {prt:.1f} | {mb / ((parse + prt) / 1000):.1f} "
              f"| {cprt:.1f} | {rss:.1f} | {(rss - base) * 1e6 / size:.1f}x | {px:.0f} | {100 * (parse + prt) / px:.1f}% "
              f"| {analyze:.1f} | {analyze / plain:.2f}x | {o2:.1f} | {100 * o2 / px:.1f}% |")


if __name__ == "__main__":
    main()
