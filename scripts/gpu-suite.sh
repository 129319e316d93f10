#!/usr/bin/env bash
# The GPU suite, in one call: builds the runtime, gpu-diff and the JIT example
# (Release, into build-gpu/) and runs them on the machine's GPU
# (docs/RUNTIME.md); then ptx-nvcc's GPU test (scripts/test/nvcc-gpu.sh,
# docs/NVCC.md), the paper's examples with their benchmark table
# (scripts/bench/paper.sh, docs/BENCHMARKS.md), the launch floor of the
# group clones (scripts/bench/launch-floor.sh), the clones of Sobel at
# 1920 x 1080 (scripts/bench/sobel-small.sh), the rowwalk benchmark
# (scripts/bench/rowwalk.sh), the transpose benchmark (scripts/bench/transpose.sh), the launch hook's cost (scripts/bench/hook.sh,
# about 45 s), the Python module's GPU test (tests/python/test_gpu.py) and
# the benchmark family (scripts/bench/family.sh, about 3 minutes) and the
# whole-program suite (scripts/bench/programs.sh, about 8 minutes: nvcc's
# build against ptx-nvcc's, each program its own process, EAGER and LAZY).
#
#   scripts/gpu-suite.sh [gpu-diff args...]      e.g. --quick, --filter matadd_int
#
# Writes into ${OUT:-build-gpu/out}: build.log, gpu-diff.log (one line per
# case), gpu-diff.md (the table), decisions.log (PTXOPT_LOG=1: each launch
# shape's choice and why, autotune decisions), jit.log, summary.txt.
# Exit status: 0 when every case compared equal and met its expectation.
#
# Dependencies: cmake, a C++20 compiler, the CUDA toolkit (nvcc, cuda.h,
# cudart) in CUDA_HOME (default /usr/local/cuda) and a driver. Where the
# antlr4 tool, the ANTLR4 runtime, nlohmann-json or CLI11 are missing (the GPU
# machine), the .dev/ folder made by scripts/pack-gpu-deps.sh is used: carry it.
# PTXOPT_USE_DEV=1 uses .dev/ even where the packages are installed.
set -uo pipefail
. "$(dirname "$0")/env.sh"
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$BUILD/out}
mkdir -p "$OUT"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"
say() { printf '[gpu-suite] %s\n' "$*" | tee -a "$SUMMARY"; }

# ---- what is there -------------------------------------------------------------
say "host: $(uname -n), $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), $(nproc) cores"
if command -v nvidia-smi >/dev/null; then
  say "GPU: $(gpu_desc)"
  CAP=$(gpu_cap)
else
  say "GPU: nvidia-smi not found"
fi
ARCH=sm_${CAP:-90}
say "nvcc: $(nvcc --version 2>/dev/null | tail -1 || echo 'NOT FOUND'); kernels built for $ARCH"

have_system_deps() {
  command -v antlr4 >/dev/null && [ -e /usr/include/antlr4-runtime/antlr4-runtime.h ] &&
    [ -e /usr/include/nlohmann/json.hpp ] && [ -e /usr/include/CLI/CLI.hpp ]
}
# The Python module (docs/PYTHON.md) is built for the interpreter python3 runs.
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null || echo python3)
CONFIG=(-DCMAKE_BUILD_TYPE=Release -DPTXOPT_TESTS=OFF -DPTXOPT_GPU=ON -DPTXOPT_GPU_ARCH="$ARCH"
        -DCUDAToolkit_ROOT="$CUDA_HOME" -DPython3_EXECUTABLE="$PY")
if have_system_deps && [ "${PTXOPT_USE_DEV:-0}" != 1 ]; then
  say "dependencies: system packages"
elif [ -e "$ROOT/.dev/generated/grammar.sha256" ]; then
  say "dependencies: .dev/ ($(head -1 .dev/README 2>/dev/null))"
  CONFIG+=(-DPTXOPT_DEPS_DIR="$ROOT/.dev")
else
  say "error: antlr4/ANTLR4 runtime/nlohmann-json/CLI11 missing and no .dev/: run scripts/pack-gpu-deps.sh on the build machine and carry .dev"
  exit 2
fi
command -v ninja >/dev/null && CONFIG+=(-G Ninja)

# ---- build -------------------------------------------------------------------------
start=$(date +%s)
if ! { cmake -S . -B "$BUILD" "${CONFIG[@]}" && cmake --build "$BUILD" -j "$JOBS" --target gpu-diff jit-matadd ptx-opt ptx-nvcc-cicc; } \
  >"$OUT/build.log" 2>&1; then
  say "error: build failed; the end of $OUT/build.log:"
  tail -40 "$OUT/build.log"
  exit 2
fi
say "built in $(($(date +%s) - start)) s"
GPU_DIFF=$(find "$BUILD" -name gpu-diff -type f -perm -u+x | head -1)
JIT=$(find "$BUILD" -name jit-matadd -type f -perm -u+x | head -1)

# ---- gpu-diff ------------------------------------------------------------------------
start=$(date +%s)
PTXOPT_LOG=1 "$GPU_DIFF" --table "$OUT/gpu-diff.md" "$@" 2>"$OUT/decisions.log" | tee "$OUT/gpu-diff.log"
diff_rc=${PIPESTATUS[0]}
say "gpu-diff exit $diff_rc in $(($(date +%s) - start)) s"
if [ "$diff_rc" = 77 ]; then
  say "SKIPPED: no CUDA device"
  exit 77
fi

# ---- the JIT example, optimized and with PTXOPT_DISABLE=1 -------------------------------
{
  echo "optimized:      $("$JIT" 2>&1)"
  echo "PTXOPT_DISABLE: $(PTXOPT_DISABLE=1 "$JIT" 2>&1)"
  echo "256x256:        $("$JIT" "$ROOT/examples/matadd/matadd.ptx" 256 2>&1)"
  # Already-optimized images: the manifest travels in per-kernel globals.
  PTXOPT_BIN=$(find "$BUILD" -name ptx-opt -type f -perm -u+x | head -1)
  if [ -n "$PTXOPT_BIN" ]; then
    "$PTXOPT_BIN" -O2 "$ROOT/examples/matadd/matadd.ptx" -o "$OUT/matadd.O2.ptx" &&
      ptxas -arch="$ARCH" "$OUT/matadd.O2.ptx" -o "$BUILD/matadd.O2.cubin" &&
      nvcc -fatbin -arch="$ARCH" "$OUT/matadd.O2.ptx" -o "$BUILD/matadd.O2.fatbin" &&
      echo "cubin:          $("$JIT" "$BUILD/matadd.O2.cubin" 2>&1)" &&
      echo "fatbin:         $("$JIT" "$BUILD/matadd.O2.fatbin" 2>&1)"
  fi
} >"$OUT/jit.log"
jit_rc=0
grep -q "WRONG\|jit-matadd:" "$OUT/jit.log" && jit_rc=1
# The images carry their manifest: the swap clone must run from them too.
for img in cubin fatbin; do
  grep -q "^$img: .*__ptxopt_swap[_a-z0-9]* (swap[+a-z]*).*result ok" "$OUT/jit.log" || { echo "$img: the clone did not run" >>"$OUT/jit.log"; jit_rc=1; }
done

# ---- the coalesce benchmark (docs/BENCHMARKS.md) ------------------------------------------
copy_arg=(--measure-copy)
python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null || copy_arg=()
python3 scripts/bench/coalesce.py "$OUT/gpu-diff.md" "${copy_arg[@]}" >"$OUT/bench-coalesce.md" 2>&1

# ---- the final table ---------------------------------------------------------------------
{
  echo
  echo "== coalesce benchmark =="
  cat "$OUT/bench-coalesce.md"
  echo
  echo "== gpu-diff (original vs optimized; times are medians) =="
  cat "$OUT/gpu-diff.md" 2>/dev/null
  echo
  echo "== examples/jit =="
  cat "$OUT/jit.log"
  echo
  echo "== decisions (PTXOPT_LOG=1), first 40 lines of $OUT/decisions.log =="
  head -40 "$OUT/decisions.log"
} | tee -a "$SUMMARY"

# ---- ptx-nvcc on the GPU (issue #7) and the paper's examples (issue #8) -----------------
# GPU_SUITE_NVCC=0 / GPU_SUITE_PAPER=0 leave them out.
nvcc_rc=0 paper_rc=0 programs_rc=0
if [ "${GPU_SUITE_NVCC:-1}" = 1 ]; then
  start=$(date +%s)
  PTXOPT_BUILD="$ROOT/$BUILD" OUT="$OUT/nvcc" bash scripts/test/nvcc-gpu.sh >"$OUT/nvcc.log" 2>&1
  nvcc_rc=$?
  say "ptx-nvcc GPU test exit $nvcc_rc in $(($(date +%s) - start)) s ($OUT/nvcc/summary.txt):"
  grep -E "FAIL|SUMMARY|within|ms" "$OUT/nvcc/summary.txt" 2>/dev/null | tee -a "$SUMMARY"
  # the test programs of tests/nvcc/programs, built by nvcc and by ptx-nvcc
  start=$(date +%s)
  PTXOPT_BUILD="$ROOT/$BUILD" OUT="$OUT/programs" bash scripts/test/nvcc-programs.sh >"$OUT/programs.log" 2>&1
  programs_rc=$?
  say "ptx-nvcc test programs exit $programs_rc in $(($(date +%s) - start)) s ($OUT/programs/summary.txt):"
  grep -E "FAIL|SUMMARY|PASS" "$OUT/programs/summary.txt" 2>/dev/null | tee -a "$SUMMARY"
fi
if [ "${GPU_SUITE_PAPER:-1}" = 1 ]; then
  start=$(date +%s)
  PTXOPT_BUILD="$BUILD" OUT="$OUT/paper" bash scripts/bench/paper.sh >"$OUT/paper.log" 2>&1
  paper_rc=$?
  say "paper examples (scripts/bench/paper.sh) exit $paper_rc in $(($(date +%s) - start)) s:"
  cat "$OUT/paper/bench-paper.md" 2>/dev/null | tee -a "$SUMMARY"
fi

# run_bench NAME DIR LOG: scripts/bench/NAME.sh with this suite's ptx-opt, ARCH
# and OUT, its PTX and programs in $BUILD/DIR, its output in $OUT/LOG.out.
run_bench() {
  PTXOPT="$ROOT/$BUILD/ptx-opt" PTXDIR="$ROOT/$BUILD/$2" OUT="$OUT" ARCH="$ARCH" \
    bash "scripts/bench/$1.sh" >"$OUT/$3.out" 2>&1
}

# ---- the launch floor of the group clones (docs/BENCHMARKS.md) ---------------------------
# GPU_SUITE_FLOOR=0 leaves it out. Its output comparison counts like a test.
floor_rc=0
if [ "${GPU_SUITE_FLOOR:-1}" = 1 ]; then
  start=$(date +%s)
  run_bench launch-floor launch-floor launch-floor
  floor_rc=$?
  say "launch floor (scripts/bench/launch-floor.sh) exit $floor_rc in $(($(date +%s) - start)) s: $OUT/launch-floor.md"
  tail -3 "$OUT/launch-floor.log" 2>/dev/null | tee -a "$SUMMARY"
fi

# ---- Sobel at 1920 x 1080: which clone pays (docs/BENCHMARKS.md, issue #18; ~20 s) -------
# GPU_SUITE_SOBEL=0 leaves it out. Its output comparison counts like a test.
sobel_rc=0
if [ "${GPU_SUITE_SOBEL:-1}" = 1 ]; then
  start=$(date +%s)
  run_bench sobel-small sobel-small sobel-small
  sobel_rc=$?
  say "Sobel small launches (scripts/bench/sobel-small.sh) exit $sobel_rc in $(($(date +%s) - start)) s: $OUT/sobel-small.md"
  grep -E '1920x1080' "$OUT/sobel-small.md" 2>/dev/null | tee -a "$SUMMARY"
fi

# ---- the DCT rewritten exactly by hand: the ceiling of the reuse pass (issue #18; ~5 s) ----
# GPU_SUITE_DCTX=0 leaves it out. An output that differs fails the suite.
dctx_rc=0
if [ "${GPU_SUITE_DCTX:-1}" = 1 ]; then
  nvcc -O3 -arch="$ARCH" bench/dct-exact/dct_exact.cu -o "$ROOT/$BUILD/dct_exact" >"$OUT/dct-exact.out" 2>&1 &&
    "$ROOT/$BUILD/dct_exact" >"$OUT/dct-exact.md" 2>>"$OUT/dct-exact.out"
  dctx_rc=$?
  say "exact DCT rewrites (bench/dct-exact) exit $dctx_rc: $OUT/dct-exact.md"
  tee -a "$SUMMARY" <"$OUT/dct-exact.md" 2>/dev/null
fi

# ---- the rowwalk benchmark (docs/BENCHMARKS.md, "Row walks") ------------------------------
# GPU_SUITE_ROWWALK=0 leaves it out. An exact clone that differs fails the suite.
rowwalk_rc=0
if [ "${GPU_SUITE_ROWWALK:-1}" = 1 ]; then
  start=$(date +%s)
  run_bench rowwalk rowwalk-bench bench-rowwalk
  rowwalk_rc=$?
  say "rowwalk benchmark (scripts/bench/rowwalk.sh) exit $rowwalk_rc in $(($(date +%s) - start)) s:"
  cat "$OUT/bench-rowwalk.md" 2>/dev/null | tee -a "$SUMMARY"
fi

# ---- the transpose benchmark (docs/PASSES.md, "transpose") ----------------------------------
# GPU_SUITE_TRANSPOSE=0 leaves it out. A clone whose output differs fails the suite.
transpose_rc=0
if [ "${GPU_SUITE_TRANSPOSE:-1}" = 1 ]; then
  start=$(date +%s)
  run_bench transpose transpose-bench bench-transpose
  transpose_rc=$?
  say "transpose benchmark (scripts/bench/transpose.sh) exit $transpose_rc in $(($(date +%s) - start)) s:"
  cat "$OUT/bench-transpose.md" 2>/dev/null | tee -a "$SUMMARY"
fi

# ---- the launch hook's host-side cost (docs/BENCHMARKS.md, "Launch hook cost") ----------
# GPU_SUITE_HOOK=0 leaves it out. Its exit status says whether it built and ran.
hook_rc=0
if [ "${GPU_SUITE_HOOK:-1}" = 1 ]; then
  start=$(date +%s)
  PTXOPT_BUILD="$ROOT/$BUILD" BINDIR="$ROOT/$BUILD/bench-hook" OUT="$OUT" ARCH="$ARCH" \
    bash scripts/bench/hook.sh >"$OUT/bench-hook.out" 2>&1
  hook_rc=$?
  say "launch hook cost (scripts/bench/hook.sh) exit $hook_rc in $(($(date +%s) - start)) s: $OUT/bench-hook.md"
  if [ -e "$OUT/bench-hook.md" ]; then tee -a "$SUMMARY" <"$OUT/bench-hook.md"; else tail -5 "$OUT/bench-hook.out"; fi
fi

# ---- the ptxopt Python module: RawKernel against the same source without ptx-opt (docs/PYTHON.md) ----
# GPU_SUITE_PYTHON=0 leaves it out. A module that does not build here (no
# Python.h for this python3, no pybind11 in .dev/) is skipped with the reason,
# never failing the suite; a wrong result or no clone run fails it.
python_rc=0
if [ "${GPU_SUITE_PYTHON:-1}" = 1 ]; then
  start=$(date +%s)
  if ! { cmake -S . -B "$BUILD" && cmake --build "$BUILD" -j "$JOBS" --target ptxopt_python; } >"$OUT/python-build.log" 2>&1; then
    why=$(grep -m1 -o 'Python module: skipped: .*' "$OUT/python-build.log" | sed 's/^Python module: skipped: //')
    say "python module: skipped: not built for $PY: ${why:-the build failed, see $OUT/python-build.log}"
  else
    PYTHONPATH="$ROOT/$BUILD/python" "$PY" tests/python/test_gpu.py >"$OUT/python.log" 2>&1
    python_rc=$?
    say "python module (tests/python/test_gpu.py, $PY) exit $python_rc in $(($(date +%s) - start)) s:"
    tee -a "$SUMMARY" <"$OUT/python.log"
    [ "$python_rc" = 77 ] && python_rc=0  # "skipped: ..." is in the log above
  fi
fi

# ---- the benchmark family: clone choices measured per shape (docs/BENCHMARKS.md) -----------
# GPU_SUITE_FAMILY=0 leaves it out (about 3 minutes on an H100, the small cases run 4 more rounds). Its output comparison counts like a test.
family_rc=0
if [ "${GPU_SUITE_FAMILY:-1}" = 1 ]; then
  start=$(date +%s)
  PTXOPT_BUILD="$ROOT/$BUILD" OUT="$OUT/family" ARCH="$ARCH" bash scripts/bench/family.sh >"$OUT/family.log" 2>&1
  family_rc=$?
  say "benchmark family (scripts/bench/family.sh) exit $family_rc in $(($(date +%s) - start)) s: $OUT/family/family.md"
  grep -A 20 '^| kind |' "$OUT/family/family.md" 2>/dev/null | sed '/^$/q' | tee -a "$SUMMARY"
  grep '^Summary:' "$OUT/family/family.md" 2>/dev/null | tee -a "$SUMMARY"
fi

# ---- whole programs: nvcc's build against ptx-nvcc's, as processes (issue #27) --------------
# GPU_SUITE_WHOLE=0 leaves it out (about 4 minutes per loading mode at R=5 on
# an H200; WHOLE_R and WHOLE_MODES change the rounds and the modes). A
# program whose output differs from the nvcc build's, or that fails, fails
# the suite; the speed-ups are in the table (docs/BENCHMARKS.md, "Whole programs").
whole_rc=0
if [ "${GPU_SUITE_WHOLE:-1}" = 1 ]; then
  start=$(date +%s)
  PTXOPT_BUILD="$ROOT/$BUILD" OUT="$OUT/whole" ARCH="$ARCH" R="${WHOLE_R:-5}" MODES="${WHOLE_MODES:-EAGER LAZY}" \
    bash scripts/bench/programs.sh >"$OUT/bench-programs.log" 2>&1
  whole_rc=$?
  say "whole programs (scripts/bench/programs.sh) exit $whole_rc in $(($(date +%s) - start)) s: $OUT/whole/programs/programs.md"
  grep -E "^(geomean|targets|- )" "$OUT/whole/programs/programs.md" 2>/dev/null | tee -a "$SUMMARY"
fi

if [ "$diff_rc" = 0 ] && [ "$jit_rc" = 0 ] && [ "$nvcc_rc" = 0 ] && [ "$programs_rc" = 0 ] && [ "$paper_rc" = 0 ] &&
  [ "$floor_rc" = 0 ] && [ "$sobel_rc" = 0 ] && [ "$dctx_rc" = 0 ] && [ "$rowwalk_rc" = 0 ] && [ "$hook_rc" = 0 ] &&
  [ "$family_rc" = 0 ] && [ "$python_rc" = 0 ] && [ "$transpose_rc" = 0 ] && [ "$whole_rc" = 0 ]; then
  say "PASS"
  exit 0
fi
say "FAIL (gpu-diff exit $diff_rc, jit example $([ $jit_rc = 0 ] && echo ok || echo failed), ptx-nvcc test exit $nvcc_rc, test programs exit $programs_rc, paper examples exit $paper_rc, launch floor exit $floor_rc, Sobel small launches exit $sobel_rc, exact DCT rewrites exit $dctx_rc, rowwalk benchmark exit $rowwalk_rc, transpose benchmark exit $transpose_rc, hook benchmark exit $hook_rc, benchmark family exit $family_rc, python module exit $python_rc, whole programs exit $whole_rc)"
exit 1
