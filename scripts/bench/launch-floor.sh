#!/usr/bin/env bash
# From which launch size on the group pass's clones pay (docs/BENCHMARKS.md,
# "Launch floor of the group clones"): the measurement behind the manifest's
# minLaunchThreads in src/transforms/Group.cpp.
#
#   scripts/bench/launch-floor.sh prepare   # build machine: ptx-opt -O2 of the inputs
#   scripts/bench/launch-floor.sh run       # GPU machine: build the runner, run, table + plot
#   scripts/bench/launch-floor.sh           # both
#
# prepare: nvcc -ptx of tests/gpu/cases/shapes.cu (scale_char_guarded,
#   clamp_short_guarded, saxpy_guarded) and tests/lit/group/Inputs/stencil.cu (sobel), then
#   ptx-opt -O2 on each, into PTXDIR (default build/launch-floor: the
#   inputs, their -O2 output and the runner). PTXOPT:
#   the ptx-opt binary (default build/ptx-opt). scripts/gpu-suite.sh runs
#   both steps on the GPU machine with its own ptx-opt; to prepare here and
#   run there, carry PTXDIR.
# run: nvcc builds bench/launch-floor/launch_floor.cpp (-lcuda) into PTXDIR, runs it on the
#   GPU, writes $OUT/launch-floor.csv, launch-floor.md (table) and, where
#   python3 has matplotlib, launch-floor.png. Exit 77 (skipped, said) without
#   a GPU.
#
# ARCH (default sm_90) is the PTX target of prepare; the driver JIT-compiles it
# for the GPU at hand. OUT defaults to build-gpu/out.
set -euo pipefail
. "$(dirname "$0")/../env.sh"
ARCH=${ARCH:-sm_90}
PTXDIR=${PTXDIR:-$ROOT/build/launch-floor}
OUT=${OUT:-$ROOT/build-gpu/out}
step=${1:-all}

prepare() {
  mkdir -p "$PTXDIR"
  nvcc -arch="$ARCH" -ptx tests/gpu/cases/shapes.cu -o "$PTXDIR/shapes.ptx"
  nvcc -arch="$ARCH" -ptx tests/lit/group/Inputs/stencil.cu -o "$PTXDIR/stencil.ptx"
  for f in shapes stencil; do
    "$PTXOPT" -O2 "$PTXDIR/$f.ptx" -o "$PTXDIR/$f.opt.ptx"
  done
  grep -ho '\.entry [A-Za-z0-9_]*merged' "$PTXDIR"/*.opt.ptx | sed 's/^/[launch-floor] clone: /'
}

run() {
  [ -e "$PTXDIR/shapes.opt.ptx" ] || { echo "[launch-floor] error: run 'prepare' first" >&2; exit 2; }
  mkdir -p "$OUT"
  nvcc -O2 -std=c++17 bench/launch-floor/launch_floor.cpp bench/common/driver.cpp -o "$PTXDIR/launch_floor" -lcuda
  set +e
  "$PTXDIR/launch_floor" "$PTXDIR/shapes.opt.ptx" "$PTXDIR/stencil.opt.ptx" >"$OUT/launch-floor.csv" \
    2> >(tee "$OUT/launch-floor.log" >&2)
  rc=$?
  set -e
  if [ $rc = 77 ]; then echo "[launch-floor] SKIPPED: no CUDA device (nothing measured)"; exit 77; fi
  python3 - "$OUT/launch-floor.csv" "$OUT/launch-floor.md" "$OUT/launch-floor.png" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with open(sys.argv[2], "w") as md:
    md.write("| kernel | clone | launch | threads | original us | clone us | speed-up | result |\n")
    md.write("|---|---|---|---:|---:|---:|---:|---|\n")
    for r in rows:
        md.write(f"| {r['kernel']} | {r['clone']} | {r['shape']} | {r['threads']} | {r['original_us']} "
                 f"| {r['clone_us']} | {float(r['speedup']):.2f}x | {r['equal']} |\n")
print(open(sys.argv[2]).read())
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("[launch-floor] no matplotlib: no plot")
    sys.exit(0)
fig, axes = plt.subplots(1, 2, figsize=(12, 4), sharey=True)
for ax, clone in zip(axes, ("merged", "group")):
    label = lambda r: r["kernel"] + (" (block " + r["shape"].split(" block ")[1] + ")" if " block " in r["shape"] else "")
    for k in dict.fromkeys(label(r) for r in rows if r["clone"] == clone):
        rs = sorted((r for r in rows if label(r) == k and r["clone"] == clone), key=lambda r: int(r["threads"]))
        ax.plot([int(r["threads"]) for r in rs], [float(r["speedup"]) for r in rs], marker="o", ms=3, label=k)
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("threads in the launch")
    ax.set_title(f"{clone} clone")
    ax.legend(fontsize=7)
axes[0].set_ylabel("original time / clone time")
fig.tight_layout()
fig.savefig(sys.argv[3], dpi=110)
print("[launch-floor] plot:", sys.argv[3])
EOF
  exit $rc
}

case "$step" in
  prepare) prepare ;;
  run) run ;;
  all) prepare; run ;;
  *) echo "usage: $0 [prepare|run]" >&2; exit 2 ;;
esac
