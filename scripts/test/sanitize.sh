#!/usr/bin/env bash
# The test suite again under AddressSanitizer and UndefinedBehaviorSanitizer
# (gcc, -DPTXOPT_SANITIZE=ON, into build-asan/): unit tests, lit tests,
# corpus round trips, lexer equivalence, fuzz regressions, and the runtime's
# unit tests (GPU tests skip as usual). Any sanitizer report fails the run.
# CI runs it after scripts/test.sh. The labels `nvcc`, `examples`, `buildtools`, `docs`, `python` and `gpu`
# (which skip without a GPU, and ran unsanitized) are left out by default: their time is nvcc's and the programs', not ptx-opt's (the
# ptx-opt paths they reach are the lit and corpus inputs'), and they run
# unsanitized in scripts/test.sh. With ctest arguments, those are used
# instead (`scripts/test/sanitize.sh -L nvcc` runs them sanitized: nightly).
# In this build tree the corpus round trips and lit leave out their ptxas
# steps, lit its two emulator tests, parser-equivalence 7 of its 10 mutated
# copies, corpus-nvcc two files in three (corpus-nvcc-full, label slow, has
# them: `scripts/test/sanitize.sh -L slow`) (tests/CMakeLists.txt:
# PTXOPT_SANITIZE), which check ptxas and Python, not ptx-opt, or ran
# unsanitized; the label slow is left out as in scripts/test.sh; UBSan runs without its null and
# alignment checks (CMakeLists.txt says why). docs/TESTING.md.
#
#   scripts/test/sanitize.sh [ctest args...]
set -euo pipefail
. "$(dirname "$0")/../env.sh"
scripts/setup.sh build >/dev/null  # packages and the CUDA check
start=$(date +%s)
# By default only what the default set runs: the CLI, the unit tests (the
# runtime's included, against the fake driver) and the corpus tools; not
# gpu-diff (its 639 expectations through the fake driver took over 600 s
# under the sanitizers; they run unsanitized in scripts/test.sh, and the
# selection code they reach is in the sanitized unit tests), the Python
# module, the shim library, ptx-nvcc's cicc step or the JIT example, whose
# tests are left out below. With ctest arguments, everything.
# -O0 -g1 (line tables): what the sanitizers' reports need. -O1 was half
# the compile time of RelWithDebInfo's -O2 -g on CI's two cores; -O0 is
# less again, and the slower sanitized ptx-opt costs the tests part of it
# (2026-12-02, this machine: these targets 365 s -> 275-294 s, the tests
# 150 s -> 174-200 s: the whole script 21-66 s shorter in two runs). The
# test drivers stay at -O1 (PTXOPT_TEST_OPTIMIZE, CMakeLists.txt).
# -no-pie: the sanitized ptx-opt starts in 0.18 s instead of 0.21 (690,000
# relative relocations of a position-independent executable), and the run
# starts it about 1,100 times; detect_odr_violation=0 below saves another
# 0.03 s a start (its globals are checked across shared libraries, and
# ptx-opt links its own code statically).
# shellcheck disable=SC2046  # Ninja for a new tree, as setup.sh (env.sh's generator_args)
cmake $(generator_args build-asan) -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTXOPT_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1" -DCMAKE_EXE_LINKER_FLAGS=-no-pie >/dev/null
targets=()
if ! (($#)); then
  targets=(--target ptx-opt unit-tests lexer-equivalence parser-equivalence)
  known=$(cmake --build build-asan --target help)
  for t in nvcc-shim-tests; do  # where the CUDA headers are found
    grep -Eq "^(\.\.\. )?$t(:| |\$)" <<<"$known" && targets+=("$t")
  done
fi
cmake --build build-asan -j "$JOBS" "${targets[@]}" 2>&1 | grep -E "error|Error" || true
echo "[sanitize] built in $(( $(date +%s) - start )) s"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_odr_violation=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
set +e
if (($#)); then args=("$@"); else args=(-LE 'nvcc|examples|buildtools|docs|python|gpu|slow' -E '^gpu-diff'); fi
ctest --test-dir build-asan --output-on-failure -j "$JOBS" "${args[@]}"
rc=$?
set -e
echo "[sanitize] ctest finished in $(( $(date +%s) - start )) s with exit code $rc"
exit $rc
