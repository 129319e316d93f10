#!/usr/bin/env bash
# ptx-nvcc on a GPU (docs/NVCC.md, "GPU test"). Builds examples/nvcc (the
# paper's matrix add, unmodified source) with plain nvcc and with
# tools/ptx-nvcc in several configurations, runs them, and checks:
#
#   1. every build's result lines (a hash of each launch's output) are equal,
#      byte for byte, to plain nvcc's, and no element is wrong;
#   2. the ptx-nvcc builds ran the clones where expected (swap at 512x256,
#      split at 65536x1024, a clone at 2000x1000) and the original where the
#      conditions fail (misaligned Fig. 6-b: its clones need alignment) and
#      with PTXOPT_DISABLE=1 at run time (these runs with
#      PTXOPT_FIRST_LAUNCH_CLONES=1); by default (the images loaded after
#      the first allocation) the first launch runs the clone too, with the
#      same results;
#   3. Fig. 6-a built by ptx-nvcc runs within 5% of the hand-written Fig. 6-b
#      built by nvcc (65536 x 1024 ints, median of 50 launches);
#   4. the CMake example (-DCMAKE_CUDA_COMPILER=ptx-nvcc) builds and agrees.
#
#   PTXOPT_BUILD=build-gpu OUT=/some/dir bash scripts/test/nvcc-gpu.sh
#
# PTXOPT_BUILD: a configured build tree with ptx-opt (default build-gpu/); the
# target ptxopt_nvcc is built there if missing. OUT: logs (default
# $PTXOPT_BUILD/nvcc-gpu). Exit 0 when everything passed, 1 on any failure,
# 77 when there is no GPU (nothing is claimed then).
set -uo pipefail
. "$(dirname "$0")/../env.sh"
export PTXOPT_BUILD=${PTXOPT_BUILD:-$ROOT/build-gpu}
PTXOPT_BUILD=$(abspath "$PTXOPT_BUILD")
OUT=${OUT:-$PTXOPT_BUILD/nvcc-gpu}
OUT=$(abspath "$OUT")
mkdir -p "$OUT"
W="$OUT/work"
rm -rf "$W" && mkdir -p "$W"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"
FAILS=0
say() { printf '[nvcc-gpu] %s\n' "$*" | tee -a "$SUMMARY"; }
pass() { say "PASS: $*"; }
fail() { say "FAIL: $*"; FAILS=$((FAILS + 1)); }
step() { # step <name> command...: runs with its output in $OUT/<name>.log
  local name=$1; shift
  say "run: $name: $*"
  "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  [ $rc = 0 ] || { fail "$name (exit $rc; last lines of $OUT/$name.log:)"; tail -n 15 "$OUT/$name.log" | sed 's/^/    | /' | tee -a "$SUMMARY"; }
  return $rc
}

# ---- what is there -------------------------------------------------------------
say "date: $(date -u '+%Y-%m-%d %H:%M UTC'); host $(uname -n); $(nproc) cores"
command -v nvcc >/dev/null || { say "FAIL: nvcc not found (CUDA_HOME=$CUDA_HOME)"; exit 1; }
command -v python3 >/dev/null || { say "FAIL: python3 not found (tools/ptx-nvcc is a python3 script)"; exit 1; }
say "nvcc: $(nvcc --version | tail -1)"
if ! have_gpu; then
  say "SKIPPED: no GPU (nvidia-smi missing or failing); nothing was tested"
  exit 77
fi
say "GPU: $(gpu_desc)"
CAP=$(gpu_cap)
ARCH=sm_${CAP:-90}
say "arch: $ARCH"

# ---- ptx-opt and the shim --------------------------------------------------------------
# (re)build both targets: a no-op when they are up to date
if ! cmake --build "$PTXOPT_BUILD" --target ptx-opt ptx-nvcc-cicc ptxopt_nvcc -j "$JOBS" >"$OUT/build-shim.log" 2>&1; then
  if [ -x "$PTXOPT_BUILD/ptx-opt" ] && [ -e "$PTXOPT_BUILD/runtime/libptxopt_nvcc.a" ]; then
    say "warning: rebuilding ptx-opt/ptxopt_nvcc failed ($OUT/build-shim.log); using the existing ones"
  else
    say "FAIL: cannot build ptx-opt/ptxopt_nvcc in $PTXOPT_BUILD (configure it first, e.g. scripts/gpu-suite.sh; log $OUT/build-shim.log)"
    tail -n 15 "$OUT/build-shim.log" | sed 's/^/    | /'
    exit 1
  fi
fi
for f in "$PTXOPT_BUILD/ptx-opt" "$PTXOPT_BUILD/ptx-nvcc-cicc" "$PTXOPT_BUILD/runtime/libptxopt_nvcc.a"; do
  [ -e "$f" ] || { say "FAIL: $f missing"; exit 1; }
done
say "ptx-opt: $PTXOPT_BUILD/ptx-opt; shim: $PTXOPT_BUILD/runtime/libptxopt_nvcc.a"
PNVCC="$ROOT/tools/ptx-nvcc"
SRC="$ROOT/examples/nvcc/matadd_main.cu"
INC=-I"$ROOT/examples/matadd"

# ---- builds ----------------------------------------------------------------------------
# name | compiler | flags. Each build's time is recorded (build overhead, docs/BENCHMARKS.md).
declare -A BUILT
build() { # build <name> <compiler> flags...
  local name=$1 cc=$2; shift 2
  local t0 t1
  t0=$(date +%s.%N)
  if step "build-$name" "$cc" "$@" "$INC" "$SRC" -o "$W/$name"; then
    t1=$(date +%s.%N)
    BUILT[$name]=1
    say "built $name in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"
  fi
}
build nvcc nvcc -arch=$ARCH -O3
build ptxnvcc "$PNVCC" -arch=$ARCH -O3
build ptxnvcc-shared "$PNVCC" -arch=$ARCH -O3 -cudart shared
build ptxnvcc-gencode "$PNVCC" -O3 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_${CAP},code=compute_${CAP}
build ptxnvcc-rdc "$PNVCC" -arch=$ARCH -O3 -rdc=true
build ptxnvcc-lineinfo "$PNVCC" -arch=$ARCH -O3 -lineinfo
if [ -n "${BUILT[ptxnvcc]:-}" ]; then
  nm "$W/ptxnvcc" >"$OUT/ptxnvcc.nm" 2>&1
  if grep -Eq ' [tT] __ptxopt_nvcc_launch$' "$OUT/ptxnvcc.nm"; then
    pass "the ptx-nvcc build has the launch shim (nm)"
  else
    fail "the ptx-nvcc build has no launch shim (nm)"
  fi
fi
# CMake: the example project with ptx-nvcc as its CUDA compiler
if command -v cmake >/dev/null; then
  if step cmake-configure cmake -S "$ROOT/examples/nvcc" -B "$W/cmake" -DCMAKE_BUILD_TYPE=Release \
       -DCMAKE_CUDA_COMPILER="$PNVCC" -DCMAKE_CUDA_ARCHITECTURES="$CAP" &&
     step cmake-build cmake --build "$W/cmake"; then
    cp "$W/cmake/matadd_nvcc" "$W/cmake-ptxnvcc" && BUILT[cmake-ptxnvcc]=1
  fi
else
  say "note: cmake not found, CMake example not built"
fi

# ---- runs and comparisons ----------------------------------------------------------------
runit() { # runit <label> <binary> [env...]: results in $OUT/<label>.out, variants in .err
  local label=$1 bin=$2; shift 2
  say "run: $label"
  env PTXOPT_LOG=1 PTXOPT_FIRST_LAUNCH_CLONES=1 "$@" "$W/$bin" >"$OUT/$label.out" 2>"$OUT/$label.err"
  local rc=$?
  [ $rc = 0 ] || { fail "$label exited $rc"; tail -n 10 "$OUT/$label.err" | sed 's/^/    | /' | tee -a "$SUMMARY"; }
  return $rc
}
[ -n "${BUILT[nvcc]:-}" ] || { say "FAIL: the plain nvcc build failed; nothing to compare"; exit 1; }
runit nvcc nvcc
grep '^result' "$OUT/nvcc.out" >"$OUT/nvcc.results"
if grep -q 'wrong=[1-9]' "$OUT/nvcc.results"; then fail "plain nvcc build computes wrong sums (the test itself is broken)"; fi
[ "$(wc -l <"$OUT/nvcc.results")" = 8 ] || fail "plain nvcc build printed $(wc -l <"$OUT/nvcc.results") result lines, expected 8"
grep -q '^variant' "$OUT/nvcc.err" && fail "plain nvcc build reports variants (it must not have the shim)"

compare() { # compare <label>
  local label=$1
  grep '^result' "$OUT/$label.out" >"$OUT/$label.results"
  if cmp -s "$OUT/nvcc.results" "$OUT/$label.results"; then
    pass "$label: results identical to plain nvcc ($(wc -l <"$OUT/$label.results") launches)"
  else
    fail "$label: results differ from plain nvcc:"
    diff "$OUT/nvcc.results" "$OUT/$label.results" | head -20 | sed 's/^/    | /' | tee -a "$SUMMARY"
  fi
}
expect_variant() { # expect_variant <label> <kernel> <grid> <block> <offset> <regex on "ran=... kind=...">
  local label=$1 k=$2 g=$3 b=$4 o=$5 re=$6 line
  line=$(grep "^variant $k grid=$g block=$b offset=$o " "$OUT/$label.err" | head -1)
  if [ -z "$line" ]; then
    if [ "$re" = "kind=original" ]; then
      pass "$label: $k ${g}x$b offset=$o ran the original (the kernel has no clones)"
    else
      fail "$label: no variant line for $k ${g}x$b offset=$o (shim not active?)"
    fi
  elif [[ "${line#* ran=}" =~ $re ]]; then
    pass "$label: $k ${g}x$b offset=$o -> ${line#* ran=}"
  else
    fail "$label: $k ${g}x$b offset=$o -> ${line#* ran=}; expected /$re/"
  fi
}
for label in ptxnvcc ptxnvcc-shared ptxnvcc-gencode ptxnvcc-rdc ptxnvcc-lineinfo cmake-ptxnvcc; do
  [ -n "${BUILT[$label]:-}" ] || continue
  runit "$label" "$label" || continue
  compare "$label"
  expect_variant "$label" matadd_int 512 256 0 'kind=.*swap'
  expect_variant "$label" matadd_int 65536 1024 0 'kind=.*split'
  expect_variant "$label" matadd_int 2000 1000 0 'kind=(.*swap|.*remap|.*group|.*split)'
  expect_variant "$label" matadd_int_coalesced 4096 1024 1 'kind=original'
done
# PTXOPT_DISABLE=1 at run time: the shim launches the originals only
if [ -n "${BUILT[ptxnvcc]:-}" ] && runit ptxnvcc-disabled ptxnvcc PTXOPT_DISABLE=1; then
  compare ptxnvcc-disabled
  if grep '^variant' "$OUT/ptxnvcc-disabled.err" | grep -vq 'kind=original'; then
    fail "PTXOPT_DISABLE=1: a clone ran: $(grep '^variant' "$OUT/ptxnvcc-disabled.err" | grep -v 'kind=original' | head -1)"
  else
    pass "PTXOPT_DISABLE=1 at run time: originals only"
  fi
fi
# The runs above let a kernel's first launch run a clone
# (PTXOPT_FIRST_LAUNCH_CLONES=1), so that each shape shows its choice. As
# users run it (the default, issue #27), the clone images are loaded after
# the program's first allocation (docs/NVCC.md, "Delivery"), so a kernel's
# first launch (512x256) runs its clone too, like the later ones; the
# results are the same.
if [ -n "${BUILT[ptxnvcc]:-}" ] && runit ptxnvcc-default ptxnvcc PTXOPT_FIRST_LAUNCH_CLONES=0; then
  compare ptxnvcc-default
  expect_variant ptxnvcc-default matadd_int 512 256 0 'kind=.*swap'
  expect_variant ptxnvcc-default matadd_int 4096 1024 0 'kind=.*(swap|group|split)'
fi
say "decisions (PTXOPT_LOG=1) of the ptx-nvcc build: $OUT/ptxnvcc.err"

# ---- performance: Fig. 6-a by ptx-nvcc vs the hand-written Fig. 6-b by nvcc ---------------
if [ -n "${BUILT[ptxnvcc]:-}" ]; then
  "$W/nvcc" --time 50 >"$OUT/time-nvcc.out" 2>&1
  "$W/ptxnvcc" --time 50 >"$OUT/time-ptxnvcc.out" 2>&1
  a=$(sed -n 's/^time fig6a_ms=\([0-9.]*\).*/\1/p' "$OUT/time-ptxnvcc.out")
  b=$(sed -n 's/^time .*fig6b_ms=\([0-9.]*\).*/\1/p' "$OUT/time-nvcc.out")
  a0=$(sed -n 's/^time fig6a_ms=\([0-9.]*\).*/\1/p' "$OUT/time-nvcc.out")
  if [ -z "$a" ] || [ -z "$b" ]; then
    fail "timing runs printed no time line (see $OUT/time-*.out)"
  else
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", a / b }')
    say "time: Fig. 6-a via ptx-nvcc ${a} ms, hand-written Fig. 6-b via nvcc ${b} ms (ratio $ratio); Fig. 6-a via nvcc ${a0} ms"
    if awk -v a="$a" -v b="$b" 'BEGIN { exit !(a <= b * 1.05) }'; then
      pass "Fig. 6-a via ptx-nvcc within 5% of Fig. 6-b (ratio $ratio)"
    else
      fail "Fig. 6-a via ptx-nvcc is $ratio x the hand-written Fig. 6-b (limit 1.05)"
    fi
  fi
fi

# ---- summary -------------------------------------------------------------------------------
if [ "$FAILS" = 0 ]; then
  say "SUMMARY: PASS (logs in $OUT)"
  exit 0
fi
say "SUMMARY: FAIL ($FAILS failure(s); logs in $OUT)"
exit 1
