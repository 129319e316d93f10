#!/usr/bin/env python3
"""Replays the fuzzer's regression inputs through the ptx-opt CLI.

    replay.py --ptx-opt build/ptx-opt [--timeout 10] tests/fuzz/regressions [FILE...]

For every input, `ptx-opt FILE` and `ptx-opt --canonicalize FILE` must exit
with 0 (parsed) or 1 (input error) -- not die from a signal or a sanitizer
report -- within the time limit, and both must agree on whether the input
parses. When it parses, the lossless output must be the input byte for byte,
and canonicalizing the canonical output again must give the same bytes (the
properties tests/fuzz/fuzz_parser.cpp checks). Prints 'N passed, M failed'.
"""
import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

SANITIZER_MARKERS = (b"ERROR: AddressSanitizer", b"ERROR: LeakSanitizer", b"runtime error:")
SANITIZER_EXIT = 86  # sanitizers exit 1 by default, which would look like an input error


def sanitizer_env():
    env = dict(os.environ)
    for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
        opts = env.get(var, "")
        env[var] = (opts + ":" if opts else "") + f"exitcode={SANITIZER_EXIT}"
    return env


def run(cmd, timeout, env, stdin=None):
    """(returncode or None on timeout, stdout, stderr, seconds)"""
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout, p.stderr, time.monotonic() - start
    except subprocess.TimeoutExpired:
        return None, b"", b"", time.monotonic() - start


def check(ptx_opt, path, timeout, env):
    """Returns a list of problems (empty: passed)."""
    problems = []
    data = path.read_bytes()
    results = {}
    for mode, args in (("lossless", []), ("canonical", ["--canonicalize"])):
        rc, out, err, secs = run([ptx_opt, *args, str(path)], timeout, env)
        results[mode] = (rc, out)
        if rc is None:
            problems.append(f"{mode}: timed out after {timeout} s")
        elif rc not in (0, 1) or any(m in err for m in SANITIZER_MARKERS):
            why = f"killed by signal {-rc}" if rc < 0 else f"exit status {rc}"
            tail = err.decode("utf-8", "replace").strip().splitlines()[-3:]
            problems.append(f"{mode}: {why}" + ("".join("\n      " + l for l in tail)))
    if problems:
        return problems
    (lrc, lout), (crc, cout) = results["lossless"], results["canonical"]
    if lrc != crc:
        problems.append(f"lossless exits {lrc} but canonical exits {crc}")
    if lrc == 0 and lout != data:
        problems.append("lossless output differs from the input")
    if crc == 0:
        rc, again, err, _ = run([ptx_opt, "--canonicalize", "-"], timeout, env, stdin=cout)
        if rc != 0:
            first = (err.decode("utf-8", "replace").strip().splitlines() or [""])[0]
            problems.append(f"canonical output does not parse again (exit status {rc}): {first}")
        elif again != cout:
            problems.append("canonicalizing the canonical output changes it")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ptx-opt", required=True)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("paths", nargs="+", type=Path)
    a = ap.parse_args()

    files = []
    for p in a.paths:
        files += sorted(f for f in p.iterdir() if f.is_file() and f.suffix == ".ptx") if p.is_dir() else [p]
    if not files:
        print("replay.py: no regression inputs found", file=sys.stderr)
        return 1
    env = sanitizer_env()
    failed = 0
    for f in files:
        problems = check(a.ptx_opt, f, a.timeout, env)
        if problems:
            failed += 1
            print(f"FAIL {f.name}")
            for p in problems:
                print(f"    {p}")
        else:
            print(f"ok   {f.name}")
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
