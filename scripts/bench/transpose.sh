#!/usr/bin/env bash
# The transpose pass's benchmark (docs/PASSES.md, "transpose"): naive
# transposes of 1-, 2-, 4- and 8-byte elements, fused ones (scale, A^T + B,
# bytes to floats), 90-degree rotations and the reverse (gather) form, at
# 8192 x 8192, 8191 x 8193, 1920 x 1080, 1000 x 3000 and 256 x 256, blocks of
# 16 x 16, 32 x 32 and 32 x 8 (also uchar4 rotations and float4 transposes); the originals, the transpose clones and hand-written
# tiled kernels (32 x 33 tile, 32 x 8 threads, 4 elements each) in one run,
# printed as a markdown table (size, type, naive ms, clone ms, hand-tiled ms,
# speed-ups). Every output is compared bit for bit with the original's.
#
#   scripts/bench/transpose.sh prepare   # ptx-opt the kernels (build machine or GPU machine)
#   scripts/bench/transpose.sh run       # GPU machine: build bench/transpose/transpose.cu, run, table
#   scripts/bench/transpose.sh           # both
#
# prepare: nvcc -O3 -ptx of tests/lit/transpose/Inputs/transpose.cu, then
#   ptx-opt -O2 into PTXDIR (default build/transpose-bench).
#   PTXOPT: the ptx-opt binary (default build/ptx-opt).
# run: writes $OUT/bench-transpose.md (OUT default build-gpu/out); exit 77
#   without a GPU, 1 when a clone's or a hand kernel's output differs.
#   QUICK=1: 8192 x 8192 with 16 x 16 blocks only.
set -euo pipefail
. "$(dirname "$0")/../env.sh"
ARCH=${ARCH:-sm_90}
PTXDIR=${PTXDIR:-$ROOT/build/transpose-bench}
OUT=${OUT:-$ROOT/build-gpu/out}
step=${1:-all}

prepare() {
  mkdir -p "$PTXDIR"
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/transpose/Inputs/transpose.cu -o "$PTXDIR/transpose.ptx"
  "$PTXOPT" -O2 --remarks "$PTXDIR/transpose.ptx" -o "$PTXDIR/transpose.opt.ptx" 2>"$PTXDIR/remarks.txt"
}

run() {
  [ -e "$PTXDIR/transpose.opt.ptx" ] || { echo "[transpose] error: run 'prepare' first" >&2; exit 2; }
  mkdir -p "$OUT"
  nvcc -O3 -arch="$ARCH" -std=c++17 bench/transpose/transpose.cu bench/common/driver.cpp -o "$PTXDIR/transpose-bench" -lcuda
  args=()
  [ "${QUICK:-0}" = 1 ] && args+=(--quick)
  set +e
  "$PTXDIR/transpose-bench" "$PTXDIR/transpose.opt.ptx" "${args[@]}" >"$OUT/bench-transpose.md"
  rc=$?
  set -e
  cat "$OUT/bench-transpose.md"
  return $rc
}

case "$step" in
  prepare) prepare ;;
  run) run ;;
  all) prepare; run ;;
  *) echo "usage: $0 [prepare|run]" >&2; exit 2 ;;
esac
