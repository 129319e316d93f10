#!/usr/bin/env python3
"""The tables of the benchmark family (scripts/bench/family.sh runs this).

Reads the work directory: <prog>.<variant>.r<k>.out (variant nvcc, ptx-nvcc,
disabled, nvcc2: the nvcc build again, the A/A control; one per round), <prog>.log.out (ptx-nvcc with PTXOPT_LOG=2 and
--reps 0), <prog>.*.wall and build.tsv one level up. Writes family.md (per
case, per clone kind, per program), family.csv and decisions.txt into --out,
prints family.md. Exit 1 when an output differs from nvcc's or a case is
missing from a run, else 0.

Times: the host time of a run is the min (and the median) over the
repetitions of one program run; over rounds we take the min of the mins and
the median of the medians. speed-up = nvcc time / ptx-nvcc time (above 1:
the ptx-nvcc build is faster).
"""
import argparse
import collections
import csv
import os
import re
import statistics
import sys

# nvcc2: the nvcc build again, a process of its own in each round (the A/A
# control: how far two runs of one binary differ, the measurement's noise).
VARIANTS = ("nvcc", "ptx-nvcc", "disabled", "nvcc2")


def parse_fields(line):
    out = {}
    for tok in line.split()[1:]:
        k, _, v = tok.partition("=")
        out[k] = v
    return out


def read_runs(path):
    """Result lines of one run: {key: fields}; key = (prog, case, shape, size)."""
    res = {}
    if not os.path.exists(path):
        return res
    for line in open(path, errors="replace"):
        if line.startswith("result "):
            f = parse_fields(line)
            res[(f["prog"], f["case"], f["shape"], f["size"])] = f
    return res


DECISION = re.compile(r"^ptxopt: (\S+) grid=\((\S+)\) block=\((\S+)\) shared=\d+ -> (.*)$")


def read_decisions(path):
    """Per case key: (Counter of kinds that ran, [distinct decision lines])."""
    per = {}
    cur = None
    if not os.path.exists(path):
        return per
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("case ") and line.endswith(" begin"):
            parts = line.split()
            cur = (parts[1], parts[2], parts[3], parts[4])
            per[cur] = (collections.Counter(), [])
            continue
        m = DECISION.match(line)
        if not m or cur is None:
            continue
        what = m.group(4)
        mk = re.match(r"(\S+) \(([^)]*)\)", what)
        kind = mk.group(2) if mk else "original"
        per[cur][0][kind] += 1
        # one line per distinct (kernel, choice); the shape of its first launch
        sig = (m.group(1), kind if mk else what.split(";")[0])
        lines = per[cur][1]
        if not any(s == sig for s, _ in lines):
            lines.append((sig, line))
    return per


def short_name(mangled):
    """stencil5 from _Z8stencil5IfEvPKT_PS0_ii (the name alone; extern "C" names as they are)."""
    m = re.match(r"_ZN?(\d+)", mangled)
    return mangled[m.end():m.end() + int(m.group(1))] if m else mangled


def fmt_ms(x):
    return "-" if x is None else f"{x:.4f}"


def fmt_ratio(a, b):
    return "-" if not a or not b else f"{a / b:.2f}x"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--rounds", type=int, required=True)
    ap.add_argument("--small-rounds", type=int, default=0,
                    help="more rounds of the small cases (<prog>.<variant>.s<r>.out): their runs join the min")
    ap.add_argument("--device", default="")
    ap.add_argument("progs", nargs="+")
    a = ap.parse_args()

    os.makedirs(a.out, exist_ok=True)
    problems = []
    rows = []
    prog_rows = []
    for prog in a.progs:
        runs = {v: [read_runs(os.path.join(a.work, f"{prog}.{v}.r{r}.out")) for r in range(1, a.rounds + 1)]
                for v in VARIANTS}
        small = {v: [read_runs(os.path.join(a.work, f"{prog}.{v}.s{r}.out")) for r in range(1, a.small_rounds + 1)]
                 for v in VARIANTS}
        log = read_runs(os.path.join(a.work, f"{prog}.log.out"))
        decisions = read_decisions(os.path.join(a.work, f"{prog}.log.out"))
        keys = []
        for r in runs["nvcc"] + [log]:
            for k in r:
                if k not in keys:
                    keys.append(k)
        if not keys:
            problems.append(f"{prog}: no result lines")
        for key in keys:
            ref = None
            equal = "yes"
            stats = {}
            for v in VARIANTS:
                got = [r[key] for r in runs[v] if key in r]
                if v == "nvcc2" and not got:
                    continue  # a work directory from before the A/A control
                if len(got) != a.rounds:
                    equal = "MISSING"
                    problems.append(f"{prog} {' '.join(key[1:])}: {v}: in {len(got)} of {a.rounds} runs")
                got = got + [r[key] for r in small[v] if key in r]  # the small cases' extra rounds
                for f in got:
                    if ref is None:
                        ref = f["hash"]
                    elif f["hash"] != ref and equal == "yes":
                        equal = "NO (nvcc differs between rounds)" if v in ("nvcc", "nvcc2") else f"NO ({v})"
                        problems.append(f"{prog} {' '.join(key[1:])}: {v} hash {f['hash']} != nvcc {ref}")
                if got:
                    stats[v] = {
                        "host_min": min(float(f["host_min_ms"]) for f in got),
                        "host_med": statistics.median(float(f["host_med_ms"]) for f in got),
                        "kern_min": min(float(f["kern_min_ms"]) for f in got),
                        "kern_med": statistics.median(float(f["kern_med_ms"]) for f in got),
                        "first": statistics.median(float(f["first_ms"]) for f in got),
                    }
            if key not in log:
                problems.append(f"{prog} {' '.join(key[1:])}: missing from the PTXOPT_LOG=2 run")
            elif ref is not None and log[key]["hash"] != ref and equal == "yes":
                equal = "NO (ptx-nvcc, PTXOPT_LOG=2)"
                problems.append(f"{prog} {' '.join(key[1:])}: PTXOPT_LOG=2 run hash differs")
            f0 = (runs["nvcc"][0].get(key) if runs["nvcc"] else None) or log.get(key) or {}
            launches = int(f0.get("launches", 0) or 0)
            kinds, lines = decisions.get(key, (collections.Counter(), []))
            logged = sum(kinds.values())
            if key in log and launches > logged:
                kinds["none"] += launches - logged  # kernels without clones: not hooked, not logged
            ran = sorted(k for k in kinds if k not in ("original", "none"))
            variant = ", ".join(f"{k} x{kinds[k]}" for k in sorted(kinds, key=lambda k: (-kinds[k], k))) or "?"
            s = lambda v, m: stats.get(v, {}).get(m)
            rows.append({
                "program": prog, "case": key[1], "shape": key[2], "size": key[3],
                "MB": f"{int(f0.get('bytes', 0) or 0) / 1048576:.1f}", "launches": launches,
                "nvcc_ms": s("nvcc", "host_min"), "ptxnvcc_ms": s("ptx-nvcc", "host_min"),
                "disabled_ms": s("disabled", "host_min"), "nvcc2_ms": s("nvcc2", "host_min"),
                "nvcc_med_ms": s("nvcc", "host_med"), "ptxnvcc_med_ms": s("ptx-nvcc", "host_med"),
                "nvcc_kern_ms": s("nvcc", "kern_min"), "ptxnvcc_kern_ms": s("ptx-nvcc", "kern_min"),
                "nvcc_first_ms": s("nvcc", "first"), "ptxnvcc_first_ms": s("ptx-nvcc", "first"),
                "variant": variant, "kinds": " & ".join(ran) if ran else ("?" if key not in log else "original" if kinds.get("original") else "no clones"),
                "equal": equal, "decisions": [l for _, l in lines],
            })
        walls = {}
        for v in VARIANTS:
            ws = []
            for r in range(1, a.rounds + 1):
                p = os.path.join(a.work, f"{prog}.{v}.r{r}.wall")
                if os.path.exists(p):
                    ws.append(float(open(p).read().strip()))
            walls[v] = min(ws) if ws else None
        # clones in the -O2 PTX, and those some launch of the family ran
        emitted = []
        o2 = os.path.join(a.work, f"{prog}.O2.ptx")
        if os.path.exists(o2):
            emitted = [e for e in re.findall(r"^\.(?:visible |weak )?\s*\.entry\s+([A-Za-z0-9_$]+)", open(o2).read(), re.M)
                       if "__ptxopt_" in e]
        chosen = set()
        lp = os.path.join(a.work, f"{prog}.log.out")
        if os.path.exists(lp):
            chosen = set(re.findall(r"^ptxopt: \S+ grid=\S+ block=\S+ shared=\d+ -> (\S+) \(", open(lp, errors="replace").read(), re.M))
        never = collections.OrderedDict()
        for e in emitted:
            if e not in chosen:
                base, _, suffix = e.partition("__ptxopt_")
                never.setdefault(short_name(base), []).append(suffix)
        never = "; ".join(f"{k}: {', '.join(v)}" for k, v in never.items())
        prog_rows.append((prog, walls, len(emitted), len(chosen), never))

    def ratio(r, a_, b_):
        return r[a_] / r[b_] if r[a_] and r[b_] else None

    for r in rows:
        r["speedup"] = ratio(r, "nvcc_ms", "ptxnvcc_ms")
        r["speedup_med"] = ratio(r, "nvcc_med_ms", "ptxnvcc_med_ms")
        r["speedup_kern"] = ratio(r, "nvcc_kern_ms", "ptxnvcc_kern_ms")
        r["speedup_disabled"] = ratio(r, "nvcc_ms", "disabled_ms")
        r["speedup_aa"] = ratio(r, "nvcc_ms", "nvcc2_ms")

    md = []
    md.append(f"Device and toolkit: {a.device}\n")
    md.append("Times in ms: host timer around the run's launches + one cudaDeviceSynchronize, the min over "
              "repetitions and rounds (median: the median of the runs' medians); kernel: cudaEvents around the "
              "same launches, min. speed-up = nvcc / ptx-nvcc (above 1: faster). DISABLE: the ptx-nvcc program "
              "with PTXOPT_DISABLE=1. A/A: nvcc / the same nvcc build run again in processes of its own (the noise of "
              "the measurement: the ratio two runs of one binary give). variant: what each launch ran (PTXOPT_LOG=2; `none`: a kernel without clones, "
              "`original`: a kernel with clones whose conditions failed).\n")
    md.append("| program | kernels | shape | size | MB | launches | nvcc ms | ptx-nvcc ms | speed-up | median speed-up "
              "| kernel speed-up | DISABLE speed-up | A/A | first run nvcc / ptx-nvcc ms | variant | equal |")
    md.append("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|")
    for r in rows:
        md.append(f"| {r['program']} | {r['case']} | {r['shape']} | {r['size']} | {r['MB']} | {r['launches']} "
                  f"| {fmt_ms(r['nvcc_ms'])} | {fmt_ms(r['ptxnvcc_ms'])} | {fmt_ratio(r['nvcc_ms'], r['ptxnvcc_ms'])} "
                  f"| {fmt_ratio(r['nvcc_med_ms'], r['ptxnvcc_med_ms'])} | {fmt_ratio(r['nvcc_kern_ms'], r['ptxnvcc_kern_ms'])} "
                  f"| {fmt_ratio(r['nvcc_ms'], r['disabled_ms'])} | {fmt_ratio(r['nvcc_ms'], r['nvcc2_ms'])} "
                  f"| {fmt_ms(r['nvcc_first_ms'])} / {fmt_ms(r['ptxnvcc_first_ms'])} "
                  f"| {r['variant']} | {r['equal']} |")

    # per clone kind: the cases where it ran (a case running two kinds counts for both)
    by_kind = collections.defaultdict(list)
    for r in rows:
        for k in r["kinds"].split(" & "):
            by_kind[k].append(r)
    md.append("\nPer clone kind: the cases where the kind ran at least once (a case whose launches ran several "
              "kinds counts for each); `original`: cases where only originals of cloned kernels ran (the hook's "
              "cost alone); `no clones`: no kernel of the case has clones.\n")
    md.append("| kind | cases | speed-up min | median | max | kernel speed-up min | median | below 0.98x | 1.03x or more |")
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for k in sorted(by_kind, key=lambda k: (k in ("original", "no clones"), k)):
        rs = by_kind[k]
        sp = [r["speedup"] for r in rs if r["speedup"]]
        kp = [r["speedup_kern"] for r in rs if r["speedup_kern"]]
        f = lambda xs, fn: f"{fn(xs):.2f}x" if xs else "-"
        md.append(f"| {k} | {len(rs)} | {f(sp, min)} | {f(sp, statistics.median)} | {f(sp, max)} | {f(kp, min)} "
                  f"| {f(kp, statistics.median)} | {sum(1 for x in sp if x < 0.98)} | {sum(1 for x in sp if x >= 1.03)} |")

    # per program: whole-run wall times and builds
    ptxas = {}
    ppath = os.path.join(a.out, "ptxas.tsv")
    if os.path.exists(ppath):
        for line in open(ppath):
            p = line.rstrip("\n").split("\t")
            if len(p) == 4:
                ptxas[(p[0], p[1])] = (float(p[2]), int(p[3]))
    builds = {}
    bpath = os.path.join(a.out, "build.tsv")
    if os.path.exists(bpath):
        for line in open(bpath):
            p = line.rstrip("\n").split("\t")
            if len(p) == 5:
                builds[(p[0], p[1])] = (p[2], float(p[3]), int(p[4]))
    md.append("\nPer program: the wall time of a whole program run (all its cases, context creation included; min "
              "over rounds); the build (wall time of the compile and link; the builds ran concurrently) and the "
              "executable's size; ptxas alone (one run, `ptxas -arch`) on nvcc's PTX and on its `ptx-opt -O2` output, "
              "and the cubin's size; the clones in the -O2 PTX, how many some launch of the family ran, and those "
              "none ran.\n")
    md.append("| program | run nvcc s | run ptx-nvcc s | run DISABLE s | build nvcc s | build ptx-nvcc s | size nvcc KB "
              "| size ptx-nvcc KB | ptxas ms original / -O2 | cubin KB original / -O2 | clones | ran | never ran "
              "| cases | cases below 0.98x |")
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---|---:|---:|")
    for prog, walls, nemitted, nchosen, never in prog_rows:
        bn, bp = builds.get((prog, "nvcc")), builds.get((prog, "ptx-nvcc"))
        po, p2 = ptxas.get((prog, "ptx")), ptxas.get((prog, "O2.ptx"))
        w = lambda v: f"{walls[v]:.2f}" if walls[v] is not None else "-"
        cs = [r for r in rows if r["program"] == prog]
        md.append(f"| {prog} | {w('nvcc')} | {w('ptx-nvcc')} | {w('disabled')} | {bn[1] if bn else '-'} | "
                  f"{bp[1] if bp else '-'} | {bn[2] // 1024 if bn else '-'} | {bp[2] // 1024 if bp else '-'} "
                  f"| {f'{po[0] * 1000:.0f}' if po else '-'} / {f'{p2[0] * 1000:.0f}' if p2 else '-'} "
                  f"| {f'{po[1] / 1024:.0f}' if po else '-'} / {f'{p2[1] / 1024:.0f}' if p2 else '-'} "
                  f"| {nemitted} | {nchosen} | {never or '-'} | {len(cs)} "
                  f"| {sum(1 for r in cs if r['speedup'] and r['speedup'] < 0.98)} |")

    slower = [r for r in rows if r["speedup"] and r["speedup"] < 0.98]
    weak = [r for r in rows if r["kinds"] not in ("original", "no clones") and r["speedup"] and r["speedup"] < 1.03]
    aa = [r["speedup_aa"] for r in rows if r["speedup_aa"]]
    if aa:
        md.append(f"\nA/A control (nvcc / the nvcc build run again, {len(aa)} cases): min {min(aa):.2f}x, median "
                  f"{statistics.median(aa):.2f}x, max {max(aa):.2f}x; below 0.98x: {sum(1 for x in aa if x < 0.98)}, "
                  f"above 1.02x: {sum(1 for x in aa if x > 1.02)}. ptx-nvcc against nvcc in the cases where no clone "
                  f"ran (`original`, `no clones`): below 0.98x: "
                  f"{sum(1 for r in rows if r['kinds'] in ('original', 'no clones') and r['speedup'] and r['speedup'] < 0.98)}"
                  f" of {sum(1 for r in rows if r['kinds'] in ('original', 'no clones') and r['speedup'])}.")
    md.append(f"\nSummary: {len(rows)} cases; outputs equal to nvcc's: {sum(1 for r in rows if r['equal'] == 'yes')}; "
              f"ptx-nvcc below 0.98x of nvcc: {len(slower)}; cases running a clone measured below 1.03x: {len(weak)}"
              + (f"; the nvcc build against itself (A/A) below 0.98x: {sum(1 for x in aa if x < 0.98)}" if aa else "")
              + ".")
    text = "\n".join(md) + "\n"
    open(os.path.join(a.out, "family.md"), "w").write(text)
    print(text)

    cols = ["program", "case", "shape", "size", "MB", "launches", "nvcc_ms", "ptxnvcc_ms", "disabled_ms", "speedup",
            "nvcc_med_ms", "ptxnvcc_med_ms", "speedup_med", "nvcc_kern_ms", "ptxnvcc_kern_ms", "speedup_kern",
            "speedup_disabled", "nvcc2_ms", "speedup_aa", "nvcc_first_ms", "ptxnvcc_first_ms", "kinds", "variant", "equal"]
    with open(os.path.join(a.out, "family.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([f"{r[c]:.4f}" if isinstance(r[c], float) else r[c] for c in cols])
    with open(os.path.join(a.out, "decisions.txt"), "w") as f:
        for r in rows:
            f.write(f"== {r['program']} {r['case']} {r['shape']} {r['size']}: {r['variant']}\n")
            for l in r["decisions"]:
                f.write(f"  {l}\n")
    for p in problems:
        print("problem:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
