#!/usr/bin/env python3
"""Benchmark table of the coalesce and group passes from a gpu-diff run.

Reads the table gpu-diff writes (--table FILE.md) and prints, for the paper's
matrix add (Fig. 6-a) per element type and size: the original kernel, the
optimized module (and which clone it ran), the hand-written coalesced kernel
(Fig. 6-b) and the hand-written 16-byte grouping of Fig. 6-b (`hand16`
rows: uint4 loads and stores), the speed-up, the ratios to both, the achieved
bandwidth (two arrays read and one written) and its share of a measured
device-to-device copy.

  scripts/bench/coalesce.py build-gpu/out/gpu-diff.md [--copy-gbs N | --measure-copy]

--measure-copy times a 1 GiB device-to-device copy with PyTorch (median of
20 after warm-up; bytes read plus bytes written).
"""
import argparse
import re
import statistics

SIZES = {"int": 4, "float": 4, "char": 1, "short": 2}


def measure_copy():
    import torch
    n = 1 << 30
    a = torch.empty(n, dtype=torch.uint8, device="cuda")
    b = torch.empty_like(a)
    a.random_(0, 255)
    for _ in range(3):
        b.copy_(a)
    times = []
    for _ in range(20):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        b.copy_(a)
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    ms = statistics.median(times)
    return 2 * n / (ms / 1e3) / 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("table")
    ap.add_argument("--copy-gbs", type=float, default=0)
    ap.add_argument("--measure-copy", action="store_true")
    a = ap.parse_args()
    copy = measure_copy() if a.measure_copy else a.copy_gbs
    rows = {}
    for line in open(a.table):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 8 or not cells[4].replace(".", "").isdigit():
            continue
        rows[cells[0]] = cells
    if copy:
        print(f"device-to-device copy: {copy:.0f} GB/s (read + write)\n")
    print("| kernel | size (blocks x threads) | original ms | optimized ms | clone | hand Fig. 6-b ms | hand 16-byte ms "
          "| speed-up | optimized / Fig. 6-b | optimized / 16-byte | GB/s | % of copy |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, cells in rows.items():
        m = re.match(r"matadd_(int|float|char|short) (\d+)x(\d+)$", name)
        if not m:
            continue
        t, g, b = m.group(1), int(m.group(2)), int(m.group(3))
        hand = rows.get(f"fig6b matadd_{t}_coalesced {g}x{b}")
        if not hand:
            continue
        orig, opt = float(cells[4]), float(cells[5])
        hand_ms = float(hand[4]) if hand else float("nan")
        h16 = rows.get(f"hand16 matadd_{t} {g}x{b}")
        h16_ms = float(h16[4]) if h16 else float("nan")
        gbs = 3 * g * b * SIZES[t] / (opt / 1e3) / 1e9
        pct = f"{100 * gbs / copy:.0f}%" if copy else "-"
        kind = cells[2]
        print(f"| matadd_{t} | {g} x {b} | {orig:.4f} | {opt:.4f} | {kind} | {hand_ms:.4f} | {h16_ms:.4f} "
              f"| {orig / opt:.2f}x | {opt / hand_ms:.3f} | {opt / h16_ms:.3f} | {gbs:.0f} | {pct} |")


if __name__ == "__main__":
    main()
