#!/usr/bin/env python3
"""The table and the chart of scripts/bench/paper.sh (issue #8).

    python3 scripts/bench/paper-report.py OUT_DIR

Reads OUT_DIR/notes.txt, status.txt and logs/<example>.<mode>.log (the
RESULT lines of examples/paper/common.h; mode plain, ptxnvcc or jit) and
writes OUT_DIR/bench-paper.md (the tables), bench-paper.csv (one row per
kernel and size) and bench-paper.png (the chart: matplotlib, else a small
built-in PNG writer).

Columns: original = the naive kernel built with plain nvcc; ptx-nvcc = the
same program built with tools/ptx-nvcc (its <<<>>> launch runs the clone
the runtime picks); JIT = the naive kernel's PTX through libptxopt; hand
(paper) and hand (best) = the hand-written kernels. "optimized" is the
ptx-nvcc time, or the JIT time where ptx-nvcc is missing (marked *).
Speed-up = original / optimized; vs hand = optimized / hand time (below 1:
faster than the hand kernel). GB/s = bytes read + written by the kernel's
task (counted once, as the ideal kernel moves them) / time; % of copy = of
the device-to-device cudaMemcpy (2 x bytes / time).
"""
import csv
import os
import re
import sys
import zlib
import struct

EXAMPLES = ["matadd32", "matadd8", "dct", "sobel", "rotate1", "rotate2", "rowsum", "aos"]
TITLES = {
    "matadd32": "matrix add 32-bit",
    "matadd8": "matrix add 8-bit",
    "dct": "DCT 8x8",
    "sobel": "Sobel",
    "rotate1": "rotation 1",
    "rotate2": "rotation 2",
    "rowsum": "row sum (ours)",
    "aos": "array of structs (ours)",
}
# van den Braak et al., SAMOS 2010, Table II (GeForce 8800 GT):
# original, with tool, tool speed-up, by hand, hand speed-up.
PAPER = {
    "matadd32": ("2.06 ms", "0.067 ms", 31, "0.067 ms", 31),
    "matadd8": ("1.02 ms", "0.024 ms", 43, "0.024 ms", 43),
    "dct": ("3.0 s", "0.75 s", 4, "48 ms", 62),
    "sobel": ("12.1 ms", "2.84 ms", 4, "2.84 ms", 4),
    "rotate1": ("3.29 ms", "1.64 ms", 2, "1.64 ms", 2),
    "rotate2": ("3.40 ms", "1.27 ms", 3, "1.27 ms", 3),
}
BW_BOUND_MIN = 0.70  # a kernel counts as bandwidth-bound when its best hand version reaches this share of the copy

RESULT = re.compile(r"^RESULT (.*)$")


def parse_result(line):
    m = RESULT.match(line.strip())
    if not m:
        return None
    d = {}
    for kv in m.group(1).split():
        if "=" in kv:
            k, v = kv.split("=", 1)
            d[k] = v
    return d


def read_lines(path):
    try:
        with open(path, errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


def decisions(path, entry):
    """Kinds chosen for the naive kernel, one per launch shape, in order."""
    kinds = []
    for line in read_lines(path):
        if entry not in line or "->" not in line:
            continue
        # "-> <clone> (<kind>) ..." or "-> original; rejected ..." (a shape
        # whose conditions failed: it must count, or the later shapes'
        # kinds would shift onto the earlier sizes).
        m = re.search(r"->\s*(original\b|(\S+)\s*\(([^)]*)\))", line)
        if m:
            kinds.append("original" if m.group(1).startswith("original") else m.group(3))
    return kinds


def fmt_ms(x):
    if x is None:
        return "-"
    return "%.4f" % x if x < 10 else "%.2f" % x


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    logs = os.path.join(out, "logs")
    notes = read_lines(os.path.join(out, "notes.txt"))
    status = read_lines(os.path.join(out, "status.txt"))

    # ---- collect ----
    rows = {}  # (example, size) -> dict
    order = []
    copy_gbs = None
    copy_kernel_gbs = None
    fails = []
    l2_bytes = None
    for line in read_lines(os.path.join(logs, "copybw.plain.log")):
        m = re.match(r"DEVICE .*l2_bytes=(\d+)", line)
        if m:
            l2_bytes = int(m.group(1))
        r = parse_result(line)
        if r and r.get("variant") == "memcpy":
            copy_gbs = float(r["gbs"])
        if r and r.get("variant") == "kernel16":
            copy_kernel_gbs = float(r["gbs"])
    for ex in EXAMPLES:
        for mode in ("plain", "ptxnvcc", "jit"):
            sizes_seen = []
            for line in read_lines(os.path.join(logs, "%s.%s.log" % (ex, mode))):
                r = parse_result(line)
                if not r:
                    continue
                key = (ex, r["size"])
                if key not in rows:
                    rows[key] = {"bytes": float(r["bytes"])}
                    order.append(key)
                row = rows[key]
                v = r["variant"]
                col = {"plain": {"naive": "orig", "hand_paper": "hp", "hand_best": "hb"},
                       "ptxnvcc": {"naive": "nv"}, "jit": {"jit": "jit"}}[mode].get(v)
                if not col:
                    continue
                row[col] = float(r["ms"])
                row[col + "_ok"] = r.get("ok") == "1"
                row[col + "_ran"] = r.get("ran", "")
                if r.get("ok") != "1":
                    fails.append("%s %s %s (%s)" % (ex, r["size"], v, mode))
                if col in ("nv", "jit"):
                    sizes_seen.append(r["size"])
            if mode == "ptxnvcc":
                kinds = decisions(os.path.join(logs, "%s.ptxnvcc.err" % ex), ex + "_naive")
                for size, kind in zip(sizes_seen, kinds):
                    rows[(ex, size)]["nv_ran"] = kind
    first = {k: i for i, k in enumerate(order)}
    order.sort(key=lambda k: (EXAMPLES.index(k[0]), first[k]))
    built = {}
    for line in status:
        m = re.match(r"BUILD example=(\S+) mode=(\S+) rc=(\d)( fallback=1)?", line)
        if m:
            built[(m.group(1), m.group(2))] = "ok" if m.group(3) == "0" and not m.group(4) else (
                "fallback" if m.group(4) else "failed")

    # ---- compute ----
    table = []
    for key in order:
        ex, size = key
        r = rows[key]
        opt, src = None, ""
        if r.get("nv") is not None:
            opt, src = r["nv"], "ptx-nvcc"
        elif r.get("jit") is not None:
            opt, src = r["jit"], "JIT"
        hands = [r[h] for h in ("hp", "hb") if r.get(h) is not None]
        best = min(hands) if hands else None
        t = dict(example=ex, size=size, bytes=r["bytes"], orig=r.get("orig"), nv=r.get("nv"), jit=r.get("jit"),
                 hp=r.get("hp"), hb=r.get("hb"), opt=opt, src=src, nv_ran=r.get("nv_ran", ""),
                 jit_ran=r.get("jit_ran", ""))
        t["speedup"] = r["orig"] / opt if opt and r.get("orig") else None
        t["vs_hp"] = opt / r["hp"] if opt and r.get("hp") else None
        t["vs_best"] = opt / best if opt and best else None
        t["gbs"] = r["bytes"] / (opt * 1e6) if opt else None
        t["pct"] = 100 * t["gbs"] / copy_gbs if t["gbs"] and copy_gbs else None
        t["best_pct"] = 100 * r["bytes"] / (best * 1e6) / copy_gbs if best and copy_gbs else None
        t["orig_pct"] = 100 * r["bytes"] / (r["orig"] * 1e6) / copy_gbs if r.get("orig") and copy_gbs else None
        t["ok"] = all(r.get(c + "_ok", True) for c in ("orig", "nv", "jit", "hp", "hb"))
        t["hp_speedup"] = r["orig"] / r["hp"] if r.get("orig") and r.get("hp") else None
        t["hb_speedup"] = r["orig"] / r["hb"] if r.get("orig") and r.get("hb") else None
        t["jit_speedup"] = r["orig"] / r["jit"] if r.get("orig") and r.get("jit") else None
        bw = t["best_pct"] is not None and t["best_pct"] >= 100 * BW_BOUND_MIN
        t["l2"] = bool(l2_bytes and r["bytes"] < l2_bytes)
        marks = ["L2-resident"] if t["l2"] else []
        if t["vs_hp"] is not None:
            marks.append(("<=paper hand " + ("yes" if t["vs_hp"] <= 1.0 else "NO")))
        if t["vs_best"] is not None:
            marks.append(("<=1.05 best " + ("yes" if t["vs_best"] <= 1.05 else "NO")))
        if t["pct"] is not None and not t["l2"]:
            marks.append((">=85%% copy " + ("yes" if t["pct"] >= 85 else "NO")) if bw else
                         "85%% n/a (best hand %.0f%%)" % t["best_pct"])
        t["targets"] = "; ".join(m.replace("%%", "%") for m in marks)
        table.append(t)

    # ---- markdown ----
    md = []
    dev = [l.split("] ", 1)[1] for l in notes if "] device:" in l or "] nvcc:" in l or "] clocks:" in l]
    md.append("Device and toolkit: " + "; ".join(dev) if dev else "Device: unknown")
    md.append("")
    if copy_gbs:
        md.append("Copy ceiling: cudaMemcpy device to device of 1 GiB: **%.0f GB/s** (2 x bytes / time; "
                  "a 16-byte copy kernel: %s GB/s)." % (copy_gbs, "%.0f" % copy_kernel_gbs if copy_kernel_gbs else "-"))
    else:
        md.append("Copy ceiling: not measured (no run).")
    if l2_bytes:
        md.append("")
        md.append("L2: %.0f MB. Rows marked L2-resident move less than that: their data stays in L2 across the "
                  "timed launches, so their GB/s can pass the copy ceiling; the 85%% target is judged on the "
                  "large sizes only." % (l2_bytes / 1e6))
    md.append("")
    md.append("| kernel | size | original ms | ptx-nvcc ms (clone) | JIT ms (clone) | hand (paper) ms | hand (best) ms "
              "| speed-up | vs paper hand | vs best hand | GB/s | % of copy | targets |")
    md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for t in table:
        nv = fmt_ms(t["nv"]) + (" (%s)" % t["nv_ran"] if t["nv_ran"] else "")
        jr = t["jit_ran"]
        m = re.search(r"\(([^()]*)\)$", jr)
        jit = fmt_ms(t["jit"]) + (" (%s)" % m.group(1) if m else "")
        star = "*" if t["src"] == "JIT" else ""
        md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            TITLES.get(t["example"], t["example"]) + ("" if t["ok"] else " **FAIL**"), t["size"], fmt_ms(t["orig"]),
            nv, jit, fmt_ms(t["hp"]), fmt_ms(t["hb"]),
            "%.2fx%s" % (t["speedup"], star) if t["speedup"] else "-",
            "%.3f" % t["vs_hp"] if t["vs_hp"] else "-",
            "%.3f" % t["vs_best"] if t["vs_best"] else "-",
            "%.0f" % t["gbs"] if t["gbs"] else "-",
            "%.0f%%" % t["pct"] if t["pct"] else "-", t["targets"] or "-"))
    md.append("")
    missing = []
    for ex in EXAMPLES:
        b = built.get((ex, "ptxnvcc"))
        if b is None:
            missing.append("%s: ptx-nvcc not run (missing)" % ex)
        elif b == "failed":
            missing.append("%s: ptx-nvcc failed to build it" % ex)
        elif b == "fallback":
            missing.append("%s: ptx-nvcc warned and may have fallen back to plain nvcc (see logs/%s.build.log): its "
                           "column may show the original kernel" % (ex, ex))
    if missing:
        md.append("ptx-nvcc column: " + "; ".join(missing) + ". Where it is empty, speed-up uses the JIT "
                  "time (marked *).")
        md.append("")
    if fails:
        md.append("**FAIL** (output differs from the CPU reference): " + ", ".join(fails))
        md.append("")
    # Side by side with the paper.
    md.append("Against the paper's Table II (GeForce 8800 GT; speed-ups over the naive kernel). Ours: the largest "
              "size of each example; tool = ptx-nvcc (or JIT*), hand = paper-style / best hand version:")
    md.append("")
    md.append("| kernel | paper original | paper with tool | paper speed-up (tool) | paper by hand | paper speed-up "
              "(hand) | ours: tool | ours: JIT | ours: hand (paper) | ours: hand (best) |")
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    last = {}
    for t in table:
        last[t["example"]] = t
    for ex in EXAMPLES:
        t = last.get(ex)
        p = PAPER.get(ex)
        f = lambda x, s="": ("%.1fx%s" % (x, s)) if x else "-"
        md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            TITLES[ex], p[0] if p else "-", p[1] if p else "-", ("%dx" % p[2]) if p else "-", p[3] if p else "-",
            ("%dx" % p[4]) if p else "-", f(t["speedup"], "*" if t and t["src"] == "JIT" else "") if t else "-",
            f(t["jit_speedup"]) if t else "-", f(t["hp_speedup"]) if t else "-", f(t["hb_speedup"]) if t else "-"))
    md.append("")
    with open(os.path.join(out, "bench-paper.md"), "w") as f:
        f.write("\n".join(md) + "\n")

    with open(os.path.join(out, "bench-paper.csv"), "w", newline="") as f:
        cols = ["example", "size", "bytes", "orig", "nv", "nv_ran", "jit", "jit_ran", "hp", "hb", "opt", "src",
                "speedup", "vs_hp", "vs_best", "gbs", "pct", "best_pct", "ok"]
        w = csv.writer(f)
        w.writerow(cols + ["copy_gbs"])
        for t in table:
            w.writerow([t[c] for c in cols] + [copy_gbs])

    png = os.path.join(out, "bench-paper.png")
    if table:
        try:
            chart_matplotlib(table, png)
            print("chart: %s (matplotlib)" % png)
        except ImportError:
            chart_builtin(table, png)
            print("chart: %s (built-in writer: matplotlib not installed)" % png)
    else:
        print("chart: none (no results)")
    print("table: %s" % os.path.join(out, "bench-paper.md"))
    return 0


SERIES = [("orig", "original (nvcc)", "#9e9e9e"), ("nv", "ptx-nvcc", "#1f77b4"), ("jit", "JIT (libptxopt)", "#17becf"),
          ("hp", "hand (paper)", "#ff7f0e"), ("hb", "hand (best)", "#2ca02c")]


def chart_matplotlib(table, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = ["%s\n%s" % (TITLES.get(t["example"], t["example"]).replace(" (ours)", "*"), t["size"]) for t in table]
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(max(10, 1.3 * len(table)), 9))
    n = len(SERIES) - 1
    wdt = 0.8 / n
    for i, (col, name, colour) in enumerate(SERIES[1:]):
        xs, ys = [], []
        for j, t in enumerate(table):
            if t.get(col) and t.get("orig"):
                xs.append(j - 0.4 + wdt * (i + 0.5))
                ys.append(t["orig"] / t[col])
        a1.bar(xs, ys, wdt, label=name, color=colour)
    px, py = [], []
    for j, t in enumerate(table):
        if t["example"] in PAPER:
            px.append(j)
            py.append(PAPER[t["example"]][2])
    a1.scatter(px, py, marker="_", s=400, color="black", label="paper Table II (tool)", zorder=3)
    a1.set_yscale("log")
    a1.set_ylabel("speed-up over the naive kernel")
    a1.axhline(1, color="black", lw=0.5)
    a1.set_xticks(range(len(table)))
    a1.set_xticklabels(labels, fontsize=7)
    a1.legend(fontsize=7, ncol=3)
    n = len(SERIES)
    wdt = 0.8 / n
    for i, (col, name, colour) in enumerate(SERIES):
        xs, ys = [], []
        for j, t in enumerate(table):
            if t.get(col) and t.get("pct") is not None:
                copy = t["gbs"] / t["pct"] * 100
                xs.append(j - 0.4 + wdt * (i + 0.5))
                ys.append(100 * t["bytes"] / (t[col] * 1e6) / copy)
        a2.bar(xs, ys, wdt, label=name, color=colour)
    a2.axhline(85, color="red", lw=0.8, ls="--", label="85% of copy")
    a2.axhline(100, color="black", lw=0.5)
    a2.set_ylabel("% of device-to-device copy bandwidth")
    a2.set_xticks(range(len(table)))
    a2.set_xticklabels(labels, fontsize=7)
    a2.legend(fontsize=7, ncol=3)
    fig.suptitle("examples/paper: naive vs ptx-opt vs hand-written (scripts/bench/paper.sh)")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


# ---- a minimal PNG chart, for machines without matplotlib --------------------------------------
# 3x5 glyphs, rows top to bottom, 3 bits each (4 = left column).
FONT = {
    "0": "75557", "1": "26227", "2": "71747", "3": "71717", "4": "55711", "5": "74717", "6": "74757", "7": "71111",
    "8": "75757", "9": "75717", "a": "25755", "b": "65656", "c": "34443", "d": "65556", "e": "74647", "f": "74644",
    "g": "34553", "h": "55755", "i": "72227", "j": "11156", "k": "55655", "l": "44447", "m": "57755", "n": "65555",
    "o": "25552", "p": "65644", "q": "25563", "r": "65655", "s": "34716", "t": "72222", "u": "55557", "v": "55552",
    "w": "55775", "x": "55255", "y": "55222", "z": "71247", ".": "00002", "%": "41247", "-": "00700", "(": "24442",
    ")": "42224", "/": "11244", "*": "05250", ":": "02020", " ": "00000", "_": "00007", ",": "00024",
}


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = bytearray(b"\xff" * (w * h * 3))

    def rect(self, x0, y0, x1, y1, rgb):
        x0, x1 = max(0, min(x0, x1)), min(self.w, max(x0, x1))
        y0, y1 = max(0, min(y0, y1)), min(self.h, max(y0, y1))
        for y in range(int(y0), int(y1)):
            row = y * self.w * 3
            for x in range(int(x0), int(x1)):
                self.px[row + 3 * x:row + 3 * x + 3] = bytes(rgb)

    def text(self, x, y, s, rgb=(0, 0, 0), scale=2):
        for ch in s.lower():
            g = FONT.get(ch, "00000")
            for r, bits in enumerate(g):
                b = int(bits, 16)
                for c in range(3):
                    if b & (4 >> c):
                        self.rect(x + c * scale, y + r * scale, x + (c + 1) * scale, y + (r + 1) * scale, rgb)
            x += 4 * scale

    def save(self, path):
        raw = b"".join(b"\x00" + bytes(self.px[y * self.w * 3:(y + 1) * self.w * 3]) for y in range(self.h))

        def chunk(tag, data):
            return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff)

        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)) +
                    chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def chart_builtin(table, png):
    """Speed-up over the naive kernel, log scale, one group of bars per kernel and size."""
    import math
    series = SERIES[1:]
    group = 16 * len(series) + 24
    w, h, left, top, plot_h = 80 + group * len(table), 420, 60, 50, 260
    cv = Canvas(w, h)
    cv.text(10, 10, "speed-up over the naive kernel (log scale); scripts/bench/paper.sh", scale=2)
    lx = 10
    for col, name, colour in series:
        rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        cv.rect(lx, 30, lx + 10, 40, rgb)
        cv.text(lx + 14, 31, name, scale=2)
        lx += 14 + 8 * len(name) + 20
    vmax = max([t["orig"] / t[c] for t in table for c, _, _ in series if t.get(c) and t.get("orig")] +
               [PAPER[t["example"]][2] for t in table if t["example"] in PAPER] + [10])
    top_v = 10 ** math.ceil(math.log10(vmax))
    base = top + plot_h

    def y_of(v):
        return base - plot_h * (math.log10(max(v, 0.1)) + 1) / (math.log10(top_v) + 1)

    for p in range(-1, int(math.log10(top_v)) + 1):
        y = y_of(10 ** p)
        cv.rect(left - 4, y, w - 10, y + 1, (200, 200, 200))
        cv.text(4, y - 5, ("%g" % 10 ** p) + "x", scale=2)
    for j, t in enumerate(table):
        x = left + 10 + j * group
        for i, (col, name, colour) in enumerate(series):
            if t.get(col) and t.get("orig"):
                rgb = tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))
                cv.rect(x + 16 * i, y_of(t["orig"] / t[col]), x + 16 * i + 14, y_of(1), rgb)
        if t["example"] in PAPER:
            y = y_of(PAPER[t["example"]][2])
            cv.rect(x - 2, y, x + 16 * len(series), y + 2, (0, 0, 0))
        cv.text(x, base + 8, t["example"], scale=2)
        cv.text(x, base + 22, t["size"], scale=1)
    cv.text(10, h - 20, "black line: the paper's table ii speed-up with its tool", scale=2)
    cv.save(png)


if __name__ == "__main__":
    sys.exit(main())
