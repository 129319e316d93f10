#!/usr/bin/env bash
# The paper's Table II on today's GPU (issue #8): builds every program of
# examples/paper four ways and times them on the machine's GPU.
#
#   scripts/bench/paper.sh [--build-only] [--quick] [--reps N] [--only a,b] [--run-args 'ARGS']
#
# (--run-args: more arguments for every program, e.g. '--sizes paper'.)
#
# For each example X (examples/paper/X.cu):
#   original   X built with plain nvcc, its naive kernel           (variant=naive)
#   ptx-nvcc   X built with tools/ptx-nvcc: the same <<<>>> launch runs
#              the clone the runtime picks                           (variant=naive)
#   JIT        the plain binary with --jit X.ptx: the naive kernel's PTX
#              (nvcc -ptx of the same .cu) loaded through libptxopt  (variant=jit)
#   hand       the hand-written kernels of X (plain binary)  (hand_paper, hand_best)
# plus examples/paper/copybw.cu, the device-to-device copy ceiling. Every
# variant checks its output against a CPU reference first (ok=0: FAIL).
#
# Environment:
#   PTXOPT_BUILD  build folder holding ptx-opt and runtime/libptxopt_runtime.so
#                 (default build-gpu, as scripts/gpu-suite.sh builds it; if they
#                 are missing, the folder is configured as gpu-suite.sh does
#                 (carry .dev/ where the packages are missing); ptx-opt, the
#                 runtime and ptx-nvcc's shim (target ptxopt_nvcc) are always
#                 brought up to date there; PTXOPT_NO_BUILD=1 never builds)
#   OUT           logs, the table (bench-paper.md, .csv) and the chart
#                 (bench-paper.png) (default $PTXOPT_BUILD/out)
#   ARCH          e.g. sm_90 (default: the GPU's compute capability, else sm_90)
#   EXBUILD       where the example binaries go (default build-examples)
#   JOBS          parallel compilations (default: nproc)
#   CUDA_HOME     default /usr/local/cuda
#
# --build-only compiles everything (no GPU needed) and skips the runs, saying
# so. A missing or failing tools/ptx-nvcc, ptx-opt or runtime only removes
# its column (noted in the table). Exit status: 0 when everything that ran
# matched its CPU reference, 1 otherwise, 2 when the plain build fails.
set -uo pipefail
. "$(dirname "$0")/../env.sh"
PTXOPT_BUILD=${PTXOPT_BUILD:-build-gpu}
OUT=${OUT:-$PTXOPT_BUILD/out}
EXBUILD=${EXBUILD:-build-examples}
EXAMPLES="matadd32 matadd8 dct sobel rotate1 rotate2 rowsum aos"
BUILD_ONLY=0
RUN_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) BUILD_ONLY=1 ;;
    --quick) RUN_ARGS+=(--reps 5 --warmup 1) ;;
    --reps) RUN_ARGS+=(--reps "$2"); shift ;;
    --only) EXAMPLES=$(echo "$2" | tr ',' ' '); shift ;;
    --run-args) read -r -a extra <<<"$2"; RUN_ARGS+=("${extra[@]}"); shift ;;
    *) echo "usage: $0 [--build-only] [--quick] [--reps N] [--only a,b] [--run-args 'ARGS']" >&2; exit 2 ;;
  esac
  shift
done
case "$OUT" in /*) ;; *) OUT=$ROOT/$OUT ;; esac
case "$EXBUILD" in /*) ;; *) EXBUILD=$ROOT/$EXBUILD ;; esac
case "$PTXOPT_BUILD" in /*) ;; *) PTXOPT_BUILD=$ROOT/$PTXOPT_BUILD ;; esac
mkdir -p "$OUT/logs" "$EXBUILD"/{plain,ptxnvcc,ptx}
# Nothing of an earlier run may be read as this run's.
rm -f "$OUT"/logs/*.log "$OUT"/logs/*.err "$OUT"/logs/*.build.status "$OUT"/bench-paper.{md,csv,png}
rm -rf "$OUT/analysis"
NOTES=$OUT/notes.txt
STATUS=$OUT/status.txt
: >"$NOTES"
: >"$STATUS"
say() { printf '[bench-gpu] %s\n' "$*" | tee -a "$NOTES"; }
T0=$(date +%s)

# ---- the machine ------------------------------------------------------------------
HAVE_GPU=0
if have_gpu; then
  HAVE_GPU=1
  CAP=$(gpu_cap)
  say "device: $(nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv,noheader | head -1)"
  say "clocks: $(nvidia-smi --query-gpu=clocks.max.sm,clocks.max.mem --format=csv,noheader | head -1) (max SM, max memory)"
else
  say "device: none (nvidia-smi missing or no GPU): builds only"
fi
ARCH=${ARCH:-sm_${CAP:-90}}
say "nvcc: $(nvcc --version 2>/dev/null | tail -1 || echo 'NOT FOUND'); ARCH=$ARCH; date $(date -u +%Y-%m-%dT%H:%MZ)"
say "host: $(uname -n), $(nproc) cores"

# ---- ptx-opt and the runtime ------------------------------------------------------------
PTXOPT_BIN=$PTXOPT_BUILD/ptx-opt
RTLIB=$PTXOPT_BUILD/runtime/libptxopt_runtime.so
if [ ! -e "$PTXOPT_BUILD/CMakeCache.txt" ] && [ "${PTXOPT_NO_BUILD:-0}" != 1 ] &&
   { [ ! -x "$PTXOPT_BIN" ] || [ ! -e "$RTLIB" ]; }; then
  # Configure as scripts/gpu-suite.sh does (system packages, else .dev/ from scripts/pack-gpu-deps.sh).
  CONFIG=(-DCMAKE_BUILD_TYPE=Release -DPTXOPT_TESTS=OFF -DPTXOPT_GPU=ON -DPTXOPT_GPU_ARCH="$ARCH"
          -DCUDAToolkit_ROOT="$CUDA_HOME")
  if command -v antlr4 >/dev/null && [ -e /usr/include/antlr4-runtime/antlr4-runtime.h ] &&
     [ -e /usr/include/nlohmann/json.hpp ] && [ -e /usr/include/CLI/CLI.hpp ]; then :
  elif [ -e "$ROOT/.dev/generated/grammar.sha256" ]; then CONFIG+=(-DPTXOPT_DEPS_DIR="$ROOT/.dev")
  else CONFIG=(); say "NOTE: no $PTXOPT_BUILD, and neither the packages nor .dev/ to configure one"; fi
  command -v ninja >/dev/null && [ ${#CONFIG[@]} -gt 0 ] && CONFIG+=(-G Ninja)
  if [ ${#CONFIG[@]} -gt 0 ]; then
    say "configuring $PTXOPT_BUILD"
    cmake -S . -B "$PTXOPT_BUILD" "${CONFIG[@]}" >"$OUT/logs/ptxopt-build.log" 2>&1 ||
      say "note: configuring failed (see logs/ptxopt-build.log)"
  fi
fi
if [ -e "$PTXOPT_BUILD/CMakeCache.txt" ] && [ "${PTXOPT_NO_BUILD:-0}" != 1 ]; then
  # Always brought up to date (cheap when they are), so the numbers are of this
  # tree's ptx-opt; ptxopt_nvcc is tools/ptx-nvcc's launch shim.
  start=$(date +%s)
  if ! cmake --build "$PTXOPT_BUILD" -j "$JOBS" --target ptx-opt ptx-nvcc-cicc ptxopt_runtime ptxopt_nvcc \
       >>"$OUT/logs/ptxopt-build.log" 2>&1; then
    for t in ptx-opt ptx-nvcc-cicc ptxopt_runtime ptxopt_nvcc; do
      cmake --build "$PTXOPT_BUILD" -j "$JOBS" --target "$t" >>"$OUT/logs/ptxopt-build.log" 2>&1 ||
        say "note: building $t in $PTXOPT_BUILD failed (see logs/ptxopt-build.log)"
    done
  fi
  say "ptx-opt, runtime and ptx-nvcc shim up to date in $PTXOPT_BUILD ($(($(date +%s) - start)) s)"
fi
[ -x "$PTXOPT_BIN" ] || { say "NOTE: no ptx-opt at $PTXOPT_BIN: no analysis"; PTXOPT_BIN=; }
[ -e "$RTLIB" ] || { say "NOTE: no runtime at $RTLIB: the JIT column is skipped"; RTLIB=; }
PTXNVCC=$ROOT/tools/ptx-nvcc
[ -x "$PTXNVCC" ] || { say "NOTE: tools/ptx-nvcc missing: the ptx-nvcc column is skipped"; PTXNVCC=; }
export PTXOPT_BUILD
[ -n "$PTXOPT_BIN" ] && export PTXOPT="$PTXOPT_BIN"
export LD_LIBRARY_PATH="$PTXOPT_BUILD/runtime${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# ---- build -----------------------------------------------------------------------------
FLAGS=(-O3 -arch="$ARCH" -std=c++17 -I"$ROOT/include" -lineinfo)
build_one() {  # $1: example; writes $EXBUILD/{plain,ptx,ptxnvcc}/$1 and logs/$1.build.log
  local ex=$1 src=$ROOT/examples/paper/$1.cu log=$OUT/logs/$1.build.log
  : >"$log"
  rm -f "$EXBUILD/plain/$ex" "$EXBUILD/ptx/$ex.ptx"
  if nvcc "${FLAGS[@]}" "$src" -o "$EXBUILD/plain/$ex" -ldl >>"$log" 2>&1; then echo "BUILD example=$ex mode=plain rc=0"
  else echo "BUILD example=$ex mode=plain rc=1"; fi
  [ "$ex" = copybw ] && return
  if nvcc "${FLAGS[@]}" -ptx "$src" -o "$EXBUILD/ptx/$ex.ptx" >>"$log" 2>&1; then echo "BUILD example=$ex mode=ptx rc=0"
  else echo "BUILD example=$ex mode=ptx rc=1"; fi
  if [ -n "$PTXNVCC" ]; then
    rm -f "$EXBUILD/ptxnvcc/$ex"
    echo "== ptx-nvcc" >>"$log"
    if "$PTXNVCC" "${FLAGS[@]}" "$src" -o "$EXBUILD/ptxnvcc/$ex" -ldl >>"$log" 2>&1 && [ -x "$EXBUILD/ptxnvcc/$ex" ]; then
      if grep -q 'ptx-nvcc: warning' "$log"; then echo "BUILD example=$ex mode=ptxnvcc rc=0 fallback=1"
      else echo "BUILD example=$ex mode=ptxnvcc rc=0"; fi
    else echo "BUILD example=$ex mode=ptxnvcc rc=1"; fi
  fi
}
start=$(date +%s)
running=0
for ex in copybw $EXAMPLES; do
  build_one "$ex" >"$OUT/logs/$ex.build.status" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait
cat "$OUT"/logs/*.build.status >>"$STATUS"
say "built in $(($(date +%s) - start)) s: $(grep -c 'rc=0' "$STATUS") ok, $(grep -c 'rc=1' "$STATUS") failed$(grep 'rc=1' "$STATUS" | sed 's/BUILD example=/ /; s/ mode=/:/; s/ rc=1//' | tr -d '\n')"
plain_failed=$(grep -c 'mode=plain rc=1' "$STATUS")
grep 'mode=ptxnvcc rc=0 fallback=1' "$STATUS" | while read -r _ e _; do say "NOTE: ptx-nvcc fell back to plain nvcc on ${e#example=}: $(grep -m1 'ptx-nvcc: warning' "$OUT/logs/${e#example=}.build.log" | cut -c1-200)"; done
grep 'mode=ptxnvcc rc=1' "$STATUS" | while read -r _ e _; do say "NOTE: ptx-nvcc failed on ${e#example=} (see logs/${e#example=}.build.log): its column is empty"; done

# ---- what ptx-opt sees (regenerable docs/examples, written here into OUT) -------------------
if [ -n "$PTXOPT_BIN" ]; then
  PTXOPT=$PTXOPT_BIN ARCH=$ARCH BUILD=$EXBUILD DEST=$OUT/analysis EXAMPLES="$EXAMPLES" \
    bash scripts/gen/example-analysis.sh >"$OUT/logs/analysis.log" 2>&1 || say "note: example-analysis.sh failed"
fi

# ---- runs --------------------------------------------------------------------------------
run_one() {  # $1 example, $2 mode, then the command; log in logs/<ex>.<mode>.log
  local ex=$1 mode=$2
  shift 2
  local t=$(date +%s)
  timeout 300 "$@" >"$OUT/logs/$ex.$mode.log" 2>"$OUT/logs/$ex.$mode.err"
  local rc=$?
  echo "RUN example=$ex mode=$mode rc=$rc s=$(($(date +%s) - t))" >>"$STATUS"
  [ "$rc" = 0 ] || say "FAIL: $ex ($mode) exit $rc: $(grep -m2 -v '^ptxopt:' "$OUT/logs/$ex.$mode.err" | tr '\n' ' ' | cut -c1-200)"
}
rc_all=0
if [ "$plain_failed" != 0 ]; then
  say "error: plain nvcc failed on $plain_failed example(s); see $OUT/logs/*.build.log"
  rc_all=2
fi
if [ "$BUILD_ONLY" = 1 ] || [ "$HAVE_GPU" = 0 ]; then
  say "SKIPPED the runs ($([ "$BUILD_ONLY" = 1 ] && echo --build-only || echo 'no GPU')): no timings"
else
  start=$(date +%s)
  [ -x "$EXBUILD/plain/copybw" ] && run_one copybw plain "$EXBUILD/plain/copybw" "${RUN_ARGS[@]}"
  for ex in $EXAMPLES; do
    [ -x "$EXBUILD/plain/$ex" ] && run_one "$ex" plain "$EXBUILD/plain/$ex" "${RUN_ARGS[@]}"
    [ -x "$EXBUILD/ptxnvcc/$ex" ] &&
      PTXOPT_LOG=1 run_one "$ex" ptxnvcc "$EXBUILD/ptxnvcc/$ex" --variants naive "${RUN_ARGS[@]}"
    [ -n "$RTLIB" ] && [ -x "$EXBUILD/plain/$ex" ] && [ -s "$EXBUILD/ptx/$ex.ptx" ] &&
      PTXOPT_LOG=1 run_one "$ex" jit "$EXBUILD/plain/$ex" --jit "$EXBUILD/ptx/$ex.ptx" --rt "$RTLIB" "${RUN_ARGS[@]}"
  done
  say "ran in $(($(date +%s) - start)) s"
  grep -q '^RUN .* rc=[^0]' "$STATUS" && rc_all=1
  cat "$OUT"/logs/*.log 2>/dev/null | grep '^RESULT' | grep -q 'ok=0' && rc_all=1
fi

# ---- the table and the chart ---------------------------------------------------------------
python3 scripts/bench/paper-report.py "$OUT" >"$OUT/report.log" 2>&1 || say "note: paper-report.py failed (see report.log)"
cat "$OUT/bench-paper.md" 2>/dev/null
tail -3 "$OUT/report.log"
say "total $(($(date +%s) - T0)) s; results in $OUT (bench-paper.md, bench-paper.csv, bench-paper.png, logs/, analysis/)"
if [ "$rc_all" = 0 ]; then say "PASS$([ "$BUILD_ONLY" = 1 ] || [ "$HAVE_GPU" = 0 ] && echo " (builds only: nothing ran)")"; else say "FAIL"; fi
exit "$rc_all"
