#!/usr/bin/env python3
"""Corpus round trip for ptx-opt.

For every PTX file given (or found under the given folders):
  1. lossless:  `ptx-opt --verify f` must reproduce f byte for byte;
  2. canonical: `ptx-opt --canonicalize f` must be a fixed point (canonicalizing
     it again gives the same bytes), and ptxas must build an equivalent cubin
     from f and from its canonical form (tools/cubin-diff.py: byte-identical
     except the sections in which ptxas embeds the PTX text and PTX line
     numbers). Files whose .target this ptxas does not support skip step 2
     with a visible note.

With --sample N only every Nth file (of the sorted list) is checked at all
(the sanitizer run's quick set; the closing line says how many).

With --cubin-every N only every Nth file (of the sorted list) gets step 2's
cubin comparison (CI's quick run; the -O2 output is still assembled for every
file); the others count as passed, and the closing line says how many were
compared.

With --no-cubin (the sanitizer run, scripts/test/sanitize.sh) only ptx-opt's
own checks run: lossless, fixed point and the -O2 output keeping every
original line; the ptxas steps, which exercise ptxas and not ptx-opt, are the
unsanitized run's (scripts/test.sh), and the closing line says so.

Prints one line per failure and a closing 'N passed, N failed, N skipped' line;
exits 1 if anything failed.
"""
import argparse
import concurrent.futures as cf
import difflib
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CUBIN_DIFF = os.path.join(HERE, "..", "..", "tools", "cubin-diff.py")


def target_of(path):
    with open(path, "rb") as f:
        for raw in f:
            m = re.match(rb"\s*\.target\s+([A-Za-z0-9_]+)", raw)
            if m:
                return m.group(1).decode()
    return None


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def check_optimized(ptxopt, ptxas, path, original, tgt, supported):
    r = run([ptxopt, "-O2", path])
    if r.returncode != 0:
        return f"{path}: -O2 failed:\n{r.stderr.decode(errors='replace')}"
    out = r.stdout
    a, b = original.decode(errors="replace").splitlines(), out.decode(errors="replace").splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("delete", "replace"):
            return f"{path}: -O2 changed original line {i1 + 1}: {a[i1][:100]!r}"
    if ptxas and tgt in supported and out != original:
        extra = ["-c"] if re.search(rb"^\s*\.extern\s+\.func", out, re.M) else []
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "o.ptx"), "wb") as f:
                f.write(out)
            r = run([ptxas, f"-arch={tgt}", *extra, "o.ptx", "-o", "o.cubin"], cwd=d)
            if r.returncode != 0:
                return f"{path}: ptxas rejected the -O2 output:\n{r.stderr.decode(errors='replace')[:2000]}"
    return None


def check(ptxopt, ptxas, path, supported, optimize=False, cubin=True):
    """Returns (status, message) with status in pass/fail/skip."""
    with open(path, "rb") as f:
        original = f.read()
    r = run([ptxopt, "--verify", path])
    if r.returncode != 0:
        return "fail", f"{path}: ptx-opt failed:\n{r.stderr.decode(errors='replace')}"
    if r.stdout != original:
        return "fail", f"{path}: lossless print differs from the input"
    r = run([ptxopt, "--canonicalize", path])
    if r.returncode != 0:
        return "fail", f"{path}: --canonicalize failed:\n{r.stderr.decode(errors='replace')}"
    canon = r.stdout
    r2 = run([ptxopt, "--canonicalize", "-"], input=canon)
    if r2.returncode != 0 or r2.stdout != canon:
        return "fail", f"{path}: canonical form is not a fixed point"
    tgt = target_of(path)
    if optimize:
        msg = check_optimized(ptxopt, ptxas, path, original, tgt, supported)
        if msg:
            return "fail", msg
    if not cubin:
        return "pass", ""
    if not ptxas or tgt not in supported:
        return "skip", f"{path}: cubin check skipped (ptxas does not support .target {tgt})"
    # Modules that call extern functions assemble only as relocatable code.
    extra = ["-c"] if re.search(rb"^\s*\.extern\s+\.func", original, re.M) else []
    with tempfile.TemporaryDirectory() as d:
        # Same base name in two folders: ptxas records the file name.
        a, b = os.path.join(d, "a"), os.path.join(d, "b")
        os.mkdir(a)
        os.mkdir(b)
        with open(os.path.join(a, "k.ptx"), "wb") as f:
            f.write(original)
        with open(os.path.join(b, "k.ptx"), "wb") as f:
            f.write(canon)
        for sub in (a, b):
            r = run([ptxas, f"-arch={tgt}", *extra, "k.ptx", "-o", "k.cubin"], cwd=sub)
            if r.returncode != 0:
                which = "input" if sub == a else "canonical output"
                return "fail", f"{path}: ptxas rejected the {which}:\n{r.stderr.decode(errors='replace')[:2000]}"
        r = run([sys.executable, CUBIN_DIFF, os.path.join(a, "k.cubin"), os.path.join(b, "k.cubin")])
        if r.returncode != 0:
            return "fail", f"{path}: {r.stdout.decode().strip()}"
    return "pass", ""


def supported_targets(ptxas):
    if not ptxas:
        return set()
    r = run([ptxas, "--help"])
    return set(re.findall(r"'(sm_[0-9]+[af]?)'", r.stdout.decode()))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptx-opt", required=True)
    ap.add_argument("--ptxas", default="")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--optimize", action="store_true", help="also check the -O2 output")
    ap.add_argument("--no-cubin", action="store_true",
                    help="ptx-opt's checks only, no ptxas (the sanitizer run; the unsanitized run has them)")
    ap.add_argument("--cubin-every", type=int, default=1, metavar="N",
                    help="the cubin comparison for every Nth file only (default 1: all)")
    ap.add_argument("--sample", type=int, default=1, metavar="N",
                    help="check every Nth file only (default 1: all)")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    files = []
    for p in args.paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names if n.endswith(".ptx")]
        else:
            files.append(p)
    files.sort()
    found = len(files)
    files = files[::max(1, args.sample)]
    if not files:
        print("no PTX files found")
        return 1
    ptxas = None if args.no_cubin else (args.ptxas or None)
    supported = supported_targets(ptxas)
    counts = {"pass": 0, "fail": 0, "skip": 0}
    every = max(1, args.cubin_every)
    compared = [not args.no_cubin and i % every == 0 for i in range(len(files))]
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for status, msg in ex.map(lambda f, c: check(args.ptx_opt, ptxas, f, supported, args.optimize, c), files, compared):
            counts[status] += 1
            if msg:
                print(("FAIL: " if status == "fail" else "note: ") + msg, flush=True)
    print(f"{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped"
          + (" (ptx-opt's checks only: --no-cubin; ptxas's are the unsanitized run's)" if args.no_cubin else "")
          + (f" (cubin comparison for {sum(compared)} of {len(files)} files: --cubin-every {every})"
             if every > 1 and not args.no_cubin else "")
          + (f" ({len(files)} of {found} files, one in {args.sample}: --sample {args.sample})" if args.sample > 1 else ""))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
