#!/usr/bin/env bash
# The transpose pass's benchmark (docs/PASSES.md, "transpose"): naive
# transposes of 1-, 2-, 4- and 8-byte elements, fused ones (scale, A^T + B,
# bytes to floats), 90-degree rotations (bytes, 32-bit and uchar4 pixels)
# and the reverse (gather) form, at 8192 x 8192, 8191 x 8193, 1920 x 1080,
# 1000 x 3000 and 256 x 256, blocks of 16 x 16, 32 x 32 and 32 x 8 (also
# float4 transposes), and NCHW <-> NHWC permutes (N = 16, C = 64 and 256,
# 56 x 56 and 224 x 224); the originals, the one-element clones, the tiled
# clones (32 x 8 threads per 32 x 32 tile, four elements each) and
# hand-written tiled kernels (32 x 33 tile, 32 x 8 threads, 4 elements each,
# for the plain transposes of every element size and the permutes) in one
# run, printed as a markdown table (size, type, naive ms, clone ms, tiled
# ms, hand-tiled ms, speed-ups, hand ms / tiled ms). Every output is
# compared bit for bit with the original's. A third table: the CUDA samples'
# naive transpose (tests/lit/transpose/Inputs/unrolled.cu: 32 x 8 threads,
# four load-store pairs each) and its variants, -O2's one-element clones
# against the hand kernels (UNROLLED_ONLY=1: that table and the fourth alone).
# A fourth: 1-D blocks whose grid walks the other axis (Inputs/blockaxis.cu:
# a block row per matrix row, NCHW -> NHWC with the channel in blockIdx.y),
# the tiled clone for 256-thread blocks against the naive and hand kernels.
# A fifth: 1-D launches indexing with / and % (Inputs/flat.cu), the flat
# clone against the naive and hand kernels; a sixth: kernels written as
# grid-stride loops (Inputs/gridstride.cu) launched with a thread per
# element, against their clones and the hand kernels; a seventh: flat
# permutes that split the index three times (Inputs/split3.cu: NCHW <-> NHWC
# with H and W apart) against their flat clones and the hand kernels;
# an eighth: the same forms with a 64-bit index (Inputs/wide.cu: size_t and
# int64_t, nvcc's division fast paths) and grid-stride loops with a 64-bit
# counter (Inputs/counted.cu); a ninth: compile-time sizes (tests/gpu/cases/
# transpose_const.cu: #define and template sizes, which nvcc divides by
# with shifts and magic multiplications) (FLAT_ONLY=1: those five tables
# alone).
#
#   scripts/bench/transpose.sh prepare   # ptx-opt the kernels (build machine or GPU machine)
#   scripts/bench/transpose.sh run       # GPU machine: build bench/transpose/transpose.cu, run, table
#   scripts/bench/transpose.sh           # both
#
# prepare: nvcc -O3 -ptx of tests/lit/transpose/Inputs/transpose.cu, then
#   ptx-opt --passes=transpose (and --transpose-elements=1, for the
#   one-element clones; -O2 for its remarks) into PTXDIR (default
#   build/transpose-bench). Under -O2 coalesce's swap takes transpose_add_f32
#   and transpose_u8_f32 instead (docs/PASSES.md); their rows measure the
#   transpose pass's clones, and a second table times -O2's swap clones
#   against the tiled ones (should -O2 prefer the tiled clone?).
#   PTXOPT: the ptx-opt binary (default build/ptx-opt).
# run: writes $OUT/bench-transpose.md (OUT default build-gpu/out); exit 77
#   without a GPU, 1 when a clone's or a hand kernel's output differs.
#   QUICK=1: 8192 x 8192 with 16 x 16 blocks only (no permutes).
#   PERMUTES_ONLY=1: the first table's NCHW <-> NHWC rows alone (16 x 16, 32 x 32, 32 x 8).
#   SHAPES_ONLY=1: the first table and the swap table alone, for the block shapes with tiled
#   clones only (32 x 4, 16 x 8, 8 x 8, 32 x 16). SHAPES=8x32[,...]: those tables for the shapes
#   named (8 x 32: is the tiled clone faster than -O2's swap there?).
set -euo pipefail
. "$(dirname "$0")/../env.sh"
ARCH=${ARCH:-sm_90}
PTXDIR=${PTXDIR:-$ROOT/build/transpose-bench}
OUT=${OUT:-$ROOT/build-gpu/out}
step=${1:-all}

prepare() {
  mkdir -p "$PTXDIR"
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/transpose/Inputs/transpose.cu -o "$PTXDIR/transpose.ptx"
  # -O2's remarks (which kernels coalesce takes instead: A^T + B, bytes to floats).
  "$PTXOPT" -O2 --remarks "$PTXDIR/transpose.ptx" -o "$PTXDIR/transpose.O2.ptx" 2>"$PTXDIR/remarks.txt"
  # The pass alone, so that the fused kernels coalesce's swap takes under -O2
  # are measured too (the other clones are the same as -O2's).
  "$PTXOPT" --passes=transpose "$PTXDIR/transpose.ptx" -o "$PTXDIR/transpose.opt.ptx"
  # The one-element clones (the default leaves out the 32 x 32 one: its tiled clone always runs first).
  "$PTXOPT" --passes=transpose --transpose-elements=1 "$PTXDIR/transpose.ptx" -o "$PTXDIR/transpose.opt1.ptx"
  # The CUDA samples' naive transpose (four load-store pairs per thread), -O2.
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/transpose/Inputs/unrolled.cu -o "$PTXDIR/unrolled.ptx"
  "$PTXOPT" -O2 "$PTXDIR/unrolled.ptx" -o "$PTXDIR/unrolled.O2.ptx"
  # 1-D blocks whose grid walks the other axis (a block index), -O2.
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/transpose/Inputs/blockaxis.cu -o "$PTXDIR/blockaxis.ptx"
  "$PTXOPT" -O2 "$PTXDIR/blockaxis.ptx" -o "$PTXDIR/blockaxis.O2.ptx"
  # 1-D launches indexing with / and % (the flat form), -O2.
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/transpose/Inputs/flat.cu -o "$PTXDIR/flat.ptx"
  "$PTXOPT" -O2 "$PTXDIR/flat.ptx" -o "$PTXDIR/flat.O2.ptx"
  # Grid-stride loops, -O2.
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/transpose/Inputs/gridstride.cu -o "$PTXDIR/gridstride.ptx"
  "$PTXOPT" -O2 "$PTXDIR/gridstride.ptx" -o "$PTXDIR/gridstride.O2.ptx"
  # Flat permutes split three times, -O2.
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/transpose/Inputs/split3.cu -o "$PTXDIR/split3.ptx"
  "$PTXOPT" -O2 "$PTXDIR/split3.ptx" -o "$PTXDIR/split3.O2.ptx"
  # A 64-bit flat index (size_t / int64_t, nvcc's division fast paths), -O2.
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/transpose/Inputs/wide.cu -o "$PTXDIR/wide.ptx"
  "$PTXOPT" -O2 "$PTXDIR/wide.ptx" -o "$PTXDIR/wide.O2.ptx"
  # Grid-stride loops with a 64-bit counter (PyTorch's CUDA_KERNEL_LOOP), -O2.
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/transpose/Inputs/counted.cu -o "$PTXDIR/counted.ptx"
  "$PTXOPT" -O2 "$PTXDIR/counted.ptx" -o "$PTXDIR/counted.O2.ptx"
  # Compile-time sizes (nvcc's divisions by constants), -O2.
  nvcc -arch="$ARCH" -O3 -ptx tests/gpu/cases/transpose_const.cu -o "$PTXDIR/const.ptx"
  "$PTXOPT" -O2 "$PTXDIR/const.ptx" -o "$PTXDIR/const.O2.ptx"
}

run() {
  [ -e "$PTXDIR/transpose.opt.ptx" ] && [ -e "$PTXDIR/transpose.opt1.ptx" ] || { echo "[transpose] error: run 'prepare' first" >&2; exit 2; }
  mkdir -p "$OUT"
  nvcc -O3 -arch="$ARCH" -std=c++17 bench/transpose/transpose.cu bench/common/driver.cpp -o "$PTXDIR/transpose-bench" -lcuda
  args=()
  [ "${QUICK:-0}" = 1 ] && args+=(--quick)
  [ "${UNROLLED_ONLY:-0}" = 1 ] && args+=(--unrolled-only)
  [ "${FLAT_ONLY:-0}" = 1 ] && args+=(--flat-only)
  [ "${SHAPES_ONLY:-0}" = 1 ] && args+=(--shapes-only)
  [ "${PERMUTES_ONLY:-0}" = 1 ] && args+=(--permutes-only)
  [ -n "${SHAPES:-}" ] && args+=(--shapes "$SHAPES")
  set +e
  "$PTXDIR/transpose-bench" "$PTXDIR/transpose.opt.ptx" --one "$PTXDIR/transpose.opt1.ptx" \
    --swap "$PTXDIR/transpose.O2.ptx" --unrolled "$PTXDIR/unrolled.O2.ptx" --blockaxis "$PTXDIR/blockaxis.O2.ptx" --flat "$PTXDIR/flat.O2.ptx" --gridstride "$PTXDIR/gridstride.O2.ptx" --split3 "$PTXDIR/split3.O2.ptx" --wide "$PTXDIR/wide.O2.ptx" --counted "$PTXDIR/counted.O2.ptx" --const "$PTXDIR/const.O2.ptx" "${args[@]}" >"$OUT/bench-transpose.md"
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
