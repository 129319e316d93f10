#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds and runs the whole test suite:
#   unit (Catch2), lit (CLI and error messages, FileCheck, ptxas),
#   corpus round trips (byte-exact, ptxas-equivalent), lexer equivalence,
#   fuzz regressions. GPU tests (label gpu) skip with a message without a GPU.
#
#   scripts/test.sh [ctest args...]      e.g. scripts/test.sh -L unit; none: all but label slow
set -euo pipefail
. "$(dirname "$0")/env.sh"
scripts/setup.sh build
start=$(date +%s)
set +e
# Without arguments everything but the label `slow` (the nightly set:
# scripts/test.sh -L slow); with arguments, what they say.
if (($#)); then args=("$@"); else args=(-LE slow); fi
ctest --test-dir build --output-on-failure -j "$JOBS" "${args[@]}"
rc=$?
set -e
echo "[test] ctest finished in $(( $(date +%s) - start )) s with exit code $rc"
exit $rc
