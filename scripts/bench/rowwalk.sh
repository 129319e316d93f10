#!/usr/bin/env bash
# The rowwalk pass's benchmark (docs/BENCHMARKS.md, "Row walks"): 4096 x 4096
# float and int row walks and a column walk in 256-thread blocks; the
# originals, the rowwalk clones and hand-written warp-per-row kernels in one
# run, printed as a markdown table.
#
#   scripts/bench/rowwalk.sh prepare   # ptx-opt the kernels (build machine or GPU machine)
#   scripts/bench/rowwalk.sh run       # GPU machine: build bench/rowwalk/rowwalk.cu, run, table
#   scripts/bench/rowwalk.sh           # both
#
# prepare: nvcc -O3 -ptx of tests/lit/rowwalk/Inputs/rowwalk.cu, then ptx-opt
#   --passes=rowwalk, --passes=rowwalk,pack and --passes=rowwalk --reassociate
#   into PTXDIR (default build/rowwalk-bench; the staged clone in them has
#   the default plain copies, 2 tiles of 256 bytes in flight), the staged
#   clone with cp.async copies (--rowwalk-staged-copy=async: 5 and 4 tiles
#   in flight, 128-byte tiles), with plain copies of 3 tiles of 256 bytes and
#   4 of 128 bytes, and -O2 (the table's
#   "-O2 default" row runs the first variant of its manifest for rowsum_mem).
#   The run also measures a hand-written kernel staging the rows with sm_90
#   bulk copies (cp.async.bulk + mbarrier) on sm_90 and later.
#   PTXOPT: the ptx-opt binary (default build/ptx-opt).
#   Also --rowwalk-lanes=G for each G of LANES (default "32 16 8 4") for the
#   short-rows table (bench/rowwalk/rowwalk.cu --short-rows: lanes per row length, rows
#   of 8 to 1024 elements, 128 MB), appended to the same file.
#   And row walks through 32-bit indices (issue 29): nvcc -O3 -ptx of
#   tests/lit/rowwalk/Inputs/rowwalk32.cu and its -O2 output, measured by
#   bench/rowwalk/index32.cu at 4096 x 4096 (the 32-bit forms' clones against
#   the 64-bit pointer form's: "vs ptr", target <= 1.10), appended too.
#   And triangular row walks (issue 29, item 6): tests/lit/rowwalk/Inputs/tri.cu
#   and its -O2 output, measured by bench/rowwalk/tri.cu (n = 4096; target
#   >= 3x), appended too.
#   And row walks with guards inside the loop (issue 29, item 3): nvcc -O3
#   -ptx of tests/lit/rowwalk/Inputs/guards.cu and its -O2 output, measured
#   by bench/rowwalk/guards.cu at 4096 x 4096 (skip-zero, branchy max, a
#   guard on x; target >= 4x), appended too.
#   And row walks with early exits (issue 29, item 3): nvcc -O3 -ptx of
#   tests/lit/rowwalk/Inputs/exits.cu and its -O2 --rowwalk-exits output, measured by
#   bench/rowwalk/exits.cu at 4096 x 4096 (sums up to a zero, a search, two
#   exits; zeros about one element in K = none, 16384, 2048, 256, 16),
#   appended too. EXITS_ONLY=1: prepare and run only this table.
#   CSR_ONLY=1 (run): only the CSR table, the rounds clone with 8, 4 and 32
#   lanes a row and rowwalk-csr's 8-lane clone (CSR_ARGS: more arguments of
#   bench/rowwalk/csr.cu, e.g. "--runs 5").
#   And rows of 8- and 16-bit elements summed into ints (issue 29, item 4):
#   tests/lit/rowwalk/Inputs/rowwalk-short.cu and its -O2 output (staged and
#   lanes clones), index32.cu --short at 4096 x 4096 (target: >= 5x);
#   index32.cu --half: the __half and bf16 rows of tests/lit/rowwalk/Inputs/scopes.cu.
#   And scalar CSR sparse matrix-vector products (issue 29, item 5):
#   tests/lit/rowwalk/Inputs/csr.cu, ptx-opt --passes=rowwalk --rowwalk-csr
#   --reassociate --rowwalk-csr-lanes=G for G in 32 8 4, and the default
#   rounds clone (--passes=rowwalk --reassociate: RowWalkCsrRounds.cpp, the
#   original's launch), measured by
#   bench/rowwalk/csr.cu: 2^25 non-zeros in rows of 1-256, random and banded columns, beside a hand-written vector CSR kernel (target >= 3x at
#   32-256; rows of 1-8 say which G, if any, is never slower), the last table.
# run: writes $OUT/bench-rowwalk.md (OUT default build-gpu/out); exit 77
#   without a GPU, 1 when an exact clone's output differs.
set -euo pipefail
. "$(dirname "$0")/../env.sh"
ARCH=${ARCH:-sm_90}
PTXDIR=${PTXDIR:-$ROOT/build/rowwalk-bench}
OUT=${OUT:-$ROOT/build-gpu/out}
LANES=${LANES:-"32 16 8 4"}  # the lanes clones of the short-rows table (--rowwalk-lanes)
step=${1:-all}

# The early-exit table alone (EXITS_ONLY=1).
exits_table() {
  nvcc -O3 -arch="$ARCH" -std=c++17 bench/rowwalk/exits.cu bench/common/driver.cpp -o "$PTXDIR/exits-bench" -lcuda
  "$PTXDIR/exits-bench" "$PTXDIR/exits.ptx" "$PTXDIR/exits-O2.opt.ptx" || return $?
  # Many short rows (262144 of 256: the staged clone's row floor), where an
  # early exit in the first tile leaves most of it unread.
  echo
  "$PTXDIR/exits-bench" "$PTXDIR/exits.ptx" "$PTXDIR/exits-O2.opt.ptx" --n 262144 --len 256
}

prepare() {
  mkdir -p "$PTXDIR"
  if [ "${EXITS_ONLY:-0}" = 1 ]; then
    nvcc -arch="$ARCH" -O3 -ptx tests/lit/rowwalk/Inputs/exits.cu -o "$PTXDIR/exits.ptx"
    "$PTXOPT" -O2 --rowwalk-exits "$PTXDIR/exits.ptx" -o "$PTXDIR/exits-O2.opt.ptx"
    return
  fi
  [ "${CSR_ONLY:-0}" = 1 ] || prepare_rest
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/rowwalk/Inputs/csr.cu -o "$PTXDIR/csr.ptx"
  for g in 32 8 4; do
    "$PTXOPT" --passes=rowwalk --rowwalk-csr --reassociate --rowwalk-csr-lanes="$g" "$PTXDIR/csr.ptx" -o "$PTXDIR/csr-lanes$g.opt.ptx"
    "$PTXOPT" --passes=rowwalk --reassociate --rowwalk-csr-lanes="$g" "$PTXDIR/csr.ptx" -o "$PTXDIR/csr-rounds$g.opt.ptx"
  done
}

prepare_rest() {
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/rowwalk/Inputs/rowwalk.cu -o "$PTXDIR/rowwalk.ptx"
  "$PTXOPT" --passes=rowwalk "$PTXDIR/rowwalk.ptx" -o "$PTXDIR/rowwalk.opt.ptx"
  "$PTXOPT" --passes=rowwalk,pack "$PTXDIR/rowwalk.ptx" -o "$PTXDIR/rowwalk-pack.opt.ptx"
  "$PTXOPT" --passes=rowwalk --reassociate "$PTXDIR/rowwalk.ptx" -o "$PTXDIR/rowwalk-reassoc.opt.ptx"
  "$PTXOPT" --passes=rowwalk,pack --rowwalk-staged=1 --rowwalk-staged-copy=async "$PTXDIR/rowwalk.ptx" -o "$PTXDIR/rowwalk-async.opt.ptx"
  "$PTXOPT" --passes=rowwalk,pack --rowwalk-staged=1 --rowwalk-staged-copy=async --rowwalk-stages=4 "$PTXDIR/rowwalk.ptx" -o "$PTXDIR/rowwalk-s4.opt.ptx"
  "$PTXOPT" --passes=rowwalk,pack --rowwalk-staged=1 --rowwalk-staged-copy=async --rowwalk-tile=128 "$PTXDIR/rowwalk.ptx" -o "$PTXDIR/rowwalk-t128.opt.ptx"
  "$PTXOPT" --passes=rowwalk,pack --rowwalk-staged=1 --rowwalk-staged-copy=plain --rowwalk-stages=3 "$PTXDIR/rowwalk.ptx" -o "$PTXDIR/rowwalk-plain.opt.ptx"
  "$PTXOPT" --passes=rowwalk,pack --rowwalk-staged=1 --rowwalk-staged-copy=plain --rowwalk-tile=128 "$PTXDIR/rowwalk.ptx" -o "$PTXDIR/rowwalk-plain-t128.opt.ptx"
  "$PTXOPT" -O2 "$PTXDIR/rowwalk.ptx" -o "$PTXDIR/rowwalk-O2.opt.ptx"
  for g in $LANES; do
    "$PTXOPT" --passes=rowwalk --reassociate --rowwalk-lanes="$g" "$PTXDIR/rowwalk.ptx" -o "$PTXDIR/rowwalk-lanes$g.opt.ptx"
  done
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/rowwalk/Inputs/rowwalk32.cu -o "$PTXDIR/rowwalk32.ptx"
  "$PTXOPT" -O2 "$PTXDIR/rowwalk32.ptx" -o "$PTXDIR/rowwalk32-O2.opt.ptx"
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/rowwalk/Inputs/tri.cu -o "$PTXDIR/tri.ptx"
  "$PTXOPT" -O2 "$PTXDIR/tri.ptx" -o "$PTXDIR/tri-O2.opt.ptx"
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/rowwalk/Inputs/tri_u32.cu -o "$PTXDIR/tri_u32.ptx"
  "$PTXOPT" -O2 "$PTXDIR/tri_u32.ptx" -o "$PTXDIR/tri_u32-O2.opt.ptx"
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/rowwalk/Inputs/guards.cu -o "$PTXDIR/guards.ptx"
  "$PTXOPT" -O2 "$PTXDIR/guards.ptx" -o "$PTXDIR/guards-O2.opt.ptx"
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/rowwalk/Inputs/exits.cu -o "$PTXDIR/exits.ptx"
  "$PTXOPT" -O2 --rowwalk-exits "$PTXDIR/exits.ptx" -o "$PTXDIR/exits-O2.opt.ptx"
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/rowwalk/Inputs/rowwalk-short.cu -o "$PTXDIR/rowwalk-short.ptx"
  "$PTXOPT" -O2 "$PTXDIR/rowwalk-short.ptx" -o "$PTXDIR/rowwalk-short-O2.opt.ptx"
  nvcc -arch="$ARCH" -O3 -ptx tests/lit/rowwalk/Inputs/scopes.cu -o "$PTXDIR/scopes.ptx"
  "$PTXOPT" -O2 "$PTXDIR/scopes.ptx" -o "$PTXDIR/scopes-O2.opt.ptx"
}

# The first variant of -O2's manifest for rowsum_mem (what a default build runs).
default_variant() {
  python3 -c 'import json,sys
line=[l for l in open(sys.argv[1]) if l.startswith("// @ptxopt-manifest ")][0]
m=json.loads(line[len("// @ptxopt-manifest "):])
print([k for k in m["kernels"] if k["kernel"]=="rowsum_mem"][0]["variants"][0]["name"])' "$PTXDIR/rowwalk-O2.opt.ptx"
}

run() {
  mkdir -p "$OUT"
  if [ "${EXITS_ONLY:-0}" = 1 ]; then
    set +e
    exits_table >"$OUT/bench-rowwalk-exits.md"
    rc=$?
    set -e
    if [ $rc = 77 ]; then echo "[rowwalk] SKIPPED: no CUDA device (nothing measured)"; exit 77; fi
    cat "$OUT/bench-rowwalk-exits.md"
    exit $rc
  fi
  if [ "${CSR_ONLY:-0}" = 1 ]; then
    nvcc -O3 -arch="$ARCH" -std=c++17 bench/rowwalk/csr.cu bench/common/driver.cpp -o "$PTXDIR/csr-bench" -lcuda
    set +e
    "$PTXDIR/csr-bench" "$PTXDIR/csr.ptx" R8="$PTXDIR/csr-rounds8.opt.ptx" R4="$PTXDIR/csr-rounds4.opt.ptx" \
      R32="$PTXDIR/csr-rounds32.opt.ptx" 8="$PTXDIR/csr-lanes8.opt.ptx" ${CSR_ARGS:-} >"$OUT/bench-rowwalk-csr.md"
    rc=$?
    set -e
    if [ $rc = 77 ]; then echo "[rowwalk] SKIPPED: no CUDA device (nothing measured)"; exit 77; fi
    cat "$OUT/bench-rowwalk-csr.md"
    exit $rc
  fi
  [ -e "$PTXDIR/rowwalk.opt.ptx" ] || { echo "[rowwalk] error: run 'prepare' first" >&2; exit 2; }
  nvcc -O3 -arch="$ARCH" -std=c++17 bench/rowwalk/rowwalk.cu bench/common/driver.cpp -o "$PTXDIR/rowwalk-bench" -lcuda
  set +e
  "$PTXDIR/rowwalk-bench" "$PTXDIR/rowwalk.opt.ptx" "$PTXDIR/rowwalk-pack.opt.ptx" \
    "$PTXDIR/rowwalk-reassoc.opt.ptx" --extra "cp.async copies, 5 tiles in flight=$PTXDIR/rowwalk-async.opt.ptx" \
    --extra "cp.async copies, 4 tiles in flight=$PTXDIR/rowwalk-s4.opt.ptx" \
    --extra "cp.async copies, 128-byte tiles=$PTXDIR/rowwalk-t128.opt.ptx" \
    --plain "3 tiles of 256 bytes in flight=$PTXDIR/rowwalk-plain.opt.ptx" \
    --plain "4 tiles of 128 bytes in flight=$PTXDIR/rowwalk-plain-t128.opt.ptx" \
    --default "$(default_variant)=$PTXDIR/rowwalk-O2.opt.ptx" "$@" >"$OUT/bench-rowwalk.md"
  rc=$?
  if [ $rc != 77 ]; then
    # Lanes per row length (rowwalk.cu --short-rows), appended to the table's file.
    args=()
    for g in $LANES; do args+=("$g=$PTXDIR/rowwalk-lanes$g.opt.ptx"); done
    { echo; "$PTXDIR/rowwalk-bench" --short-rows "${args[@]}" --runs 10; } >>"$OUT/bench-rowwalk.md"
    src=$?
    [ $rc != 0 ] || rc=$src
    # Row walks through 32-bit indices (bench/rowwalk/index32.cu), appended.
    nvcc -O3 -arch="$ARCH" -std=c++17 bench/rowwalk/index32.cu bench/common/driver.cpp -o "$PTXDIR/index32-bench" -lcuda
    { echo; "$PTXDIR/index32-bench" "$PTXDIR/rowwalk32.ptx" "$PTXDIR/rowwalk32-O2.opt.ptx"; } >>"$OUT/bench-rowwalk.md"
    src=$?
    [ $rc != 0 ] || rc=$src
    # Triangular row walks (bench/rowwalk/tri.cu), appended.
    nvcc -O3 -arch="$ARCH" -std=c++17 bench/rowwalk/tri.cu bench/common/driver.cpp -o "$PTXDIR/tri-bench" -lcuda
    { echo; "$PTXDIR/tri-bench" "$PTXDIR/tri.ptx" "$PTXDIR/tri-O2.opt.ptx" "$PTXDIR/tri_u32.ptx" \
        "$PTXDIR/tri_u32-O2.opt.ptx"; } >>"$OUT/bench-rowwalk.md"
    # Row walks with guards inside the loop (bench/rowwalk/guards.cu), appended.
    nvcc -O3 -arch="$ARCH" -std=c++17 bench/rowwalk/guards.cu bench/common/driver.cpp -o "$PTXDIR/guards-bench" -lcuda
    { echo; "$PTXDIR/guards-bench" "$PTXDIR/guards.ptx" "$PTXDIR/guards-O2.opt.ptx"; } >>"$OUT/bench-rowwalk.md"
    src=$?
    [ $rc != 0 ] || rc=$src
    # Row walks with early exits (bench/rowwalk/exits.cu), appended.
    { echo; exits_table; } >>"$OUT/bench-rowwalk.md"
    src=$?
    [ $rc != 0 ] || rc=$src
    # Rows of 8- and 16-bit elements (index32.cu --short), appended.
    { echo; "$PTXDIR/index32-bench" --short "$PTXDIR/rowwalk-short.ptx" "$PTXDIR/rowwalk-short-O2.opt.ptx"; } >>"$OUT/bench-rowwalk.md"
    src=$?
    [ $rc != 0 ] || rc=$src
    # Rows of __half and bf16 (index32.cu --half: cuda_fp16.h's scopes flattened), appended.
    { echo; "$PTXDIR/index32-bench" --half "$PTXDIR/scopes.ptx" "$PTXDIR/scopes-O2.opt.ptx"; } >>"$OUT/bench-rowwalk.md"
    src=$?
    [ $rc != 0 ] || rc=$src
    # Scalar CSR SpMV (bench/rowwalk/csr.cu), appended last.
    nvcc -O3 -arch="$ARCH" -std=c++17 bench/rowwalk/csr.cu bench/common/driver.cpp -o "$PTXDIR/csr-bench" -lcuda
    { echo; "$PTXDIR/csr-bench" "$PTXDIR/csr.ptx" R8="$PTXDIR/csr-rounds8.opt.ptx" 32="$PTXDIR/csr-lanes32.opt.ptx" \
        8="$PTXDIR/csr-lanes8.opt.ptx" 4="$PTXDIR/csr-lanes4.opt.ptx"; } >>"$OUT/bench-rowwalk.md"
    src=$?
    [ $rc != 0 ] || rc=$src
  fi
  set -e
  if [ $rc = 77 ]; then echo "[rowwalk] SKIPPED: no CUDA device (nothing measured)"; exit 77; fi
  cat "$OUT/bench-rowwalk.md"
  exit $rc
}

case "$step" in
  prepare) prepare ;;
  run) shift; run "$@" ;;
  all) prepare; run ;;
  *) echo "usage: $0 [prepare|run|all]" >&2; exit 2 ;;
esac
