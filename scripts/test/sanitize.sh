#!/usr/bin/env bash
# The test suite again under AddressSanitizer and UndefinedBehaviorSanitizer
# (gcc, -DPTXOPT_SANITIZE=ON, into build-asan/): unit tests, lit tests,
# corpus round trips, lexer equivalence, fuzz regressions, and the runtime's
# unit tests (GPU tests skip as usual). Any sanitizer report fails the run.
# CI runs it after scripts/test.sh. The labels `nvcc`, `examples`, `buildtools`, `docs` and `python` are left
# out by default: their time is nvcc's and the programs', not ptx-opt's (the
# ptx-opt paths they reach are the lit and corpus inputs'), and they run
# unsanitized in scripts/test.sh. With ctest arguments, those are used
# instead (`scripts/test/sanitize.sh -L nvcc` runs them sanitized: nightly).
#
#   scripts/test/sanitize.sh [ctest args...]
set -euo pipefail
. "$(dirname "$0")/../env.sh"
scripts/setup.sh build >/dev/null  # packages and the CUDA check
start=$(date +%s)
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTXOPT_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$JOBS" 2>&1 | grep -E "error|Error" || true
echo "[sanitize] built in $(( $(date +%s) - start )) s"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
set +e
if (($#)); then args=("$@"); else args=(-LE 'nvcc|examples|buildtools|docs|python'); fi
ctest --test-dir build-asan --output-on-failure -j "$JOBS" "${args[@]}"
rc=$?
set -e
echo "[sanitize] ctest finished in $(( $(date +%s) - start )) s with exit code $rc"
exit $rc
