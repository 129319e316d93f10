#!/usr/bin/env bash
# ptx-nvcc on the test programs of tests/nvcc/programs (README there): each
# program is built with plain nvcc and with tools/ptx-nvcc, from the same
# unmodified source and flags (its "// FLAGS:" line; "// SOURCES:" names more
# translation units), and
#
#   build only (no GPU, or --build-only): the ptx-nvcc build must succeed
#     without a warning (e.g. clone images not linked), and the program must
#     contain the launch shim (nm); the plain nvcc build, which only the GPU
#     run compares against, is not made (half the test's time in CI);
#   on a GPU: both programs run; every "result" line must be identical, byte
#     for byte, between the two builds and report wrong=0 (a CPU reference);
#     the ptx-nvcc build must have launched at least one clone (PTXOPT_LOG=1,
#     PTXOPT_FIRST_LAUNCH_CLONES=1: a kernel's first launch may run one);
#     with PTXOPT_DISABLE=1 at run time it must launch none and print the
#     same results; so must it as users run it (no variable set: clone
#     images loaded after the first allocation, docs/NVCC.md "Delivery").
#
#   PTXOPT_BUILD=build-nvcc OUT=/tmp/p bash scripts/test/nvcc-programs.sh [--build-only] [program...]
#
# Exit 0 pass, 1 fail; 77 (skipped) when nvcc is missing, or when there is
# no GPU and --build-only was not asked (nothing would run; nothing is built).
set -uo pipefail
. "$(dirname "$0")/../env.sh"
# Default: build-nvcc/ where it exists, else build/ (what scripts/setup.sh makes).
if [ -z "${PTXOPT_BUILD:-}" ]; then
  PTXOPT_BUILD=$ROOT/build
  [ -d "$ROOT/build-nvcc" ] && PTXOPT_BUILD=$ROOT/build-nvcc
fi
export PTXOPT_BUILD
PTXOPT_BUILD=$(abspath "$PTXOPT_BUILD")
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/nvcc-programs.XXXXXX")}
OUT=$(abspath "$OUT")
BUILD_ONLY=0
PROGS=()
for a in "$@"; do
  case $a in
    --build-only) BUILD_ONLY=1 ;;
    *) PROGS+=("$a") ;;
  esac
done
DIR=$ROOT/tests/nvcc/programs
if [ ${#PROGS[@]} = 0 ]; then
  for f in "$DIR"/*.cu; do grep -q '^// FLAGS:' "$f" && PROGS+=("$(basename "$f" .cu)"); done
fi
mkdir -p "$OUT"
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
FAILS=0
say() { printf '[nvcc-programs] %s\n' "$*" | tee -a "$SUMMARY"; }
pass() { say "PASS: $*"; }
fail() { say "FAIL: $*"; FAILS=$((FAILS + 1)); }

command -v nvcc >/dev/null || { say "SKIPPED: nvcc not found (CUDA_HOME=$CUDA_HOME)"; exit 77; }
for f in ptx-opt ptx-nvcc-cicc runtime/libptxopt_nvcc.a; do
  [ -e "$PTXOPT_BUILD/$f" ] || { say "FAIL: $PTXOPT_BUILD/$f missing (build ptx-opt, ptx-nvcc-cicc, ptxopt_nvcc)"; exit 1; }
done
GPU=0
if [ $BUILD_ONLY = 0 ] && have_gpu; then
  GPU=1
  CAP=$(gpu_cap)
fi
ARCH=sm_${CAP:-90}
if [ $GPU = 0 ] && [ $BUILD_ONLY = 0 ]; then
  say "SKIPPED: no GPU, nothing to run (the builds alone: --build-only, ctest nvcc-programs)"
  exit 77
fi
say "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nvcc --version | tail -1); arch $ARCH; $([ $GPU = 1 ] && nvidia-smi --query-gpu=name --format=csv,noheader | head -1 || echo 'no GPU: builds only')"

for p in "${PROGS[@]}"; do
  src=$DIR/$p.cu
  [ -e "$src" ] || { fail "$p: no $src"; continue; }
  read -r -a flags <<<"$(sed -n 's|^// FLAGS:||p' "$src" | head -1)"
  srcs=("$src")
  for s in $(sed -n 's|^// SOURCES:||p' "$src" | head -1); do srcs+=("$DIR/$s"); done
  ok=1
  tools=(nvcc ptx-nvcc)
  [ $GPU = 1 ] || tools=(ptx-nvcc)
  for tool in "${tools[@]}"; do
    cc=nvcc
    [ $tool = ptx-nvcc ] && cc=$ROOT/tools/ptx-nvcc
    if ! "$cc" -arch=$ARCH "${flags[@]}" "${srcs[@]}" -o "$OUT/$p.$tool" >"$OUT/$p.$tool.build.log" 2>&1; then
      fail "$p: $tool build failed ($OUT/$p.$tool.build.log):"
      tail -n 8 "$OUT/$p.$tool.build.log" | sed 's/^/    | /' | tee -a "$SUMMARY"
      ok=0
    fi
  done
  [ $ok = 1 ] || continue
  if grep -q 'ptx-nvcc: warning' "$OUT/$p.ptx-nvcc.build.log"; then
    fail "$p: ptx-nvcc warned ($OUT/$p.ptx-nvcc.build.log): $(grep -m1 'ptx-nvcc: warning' "$OUT/$p.ptx-nvcc.build.log")"
  fi
  nm "$OUT/$p.ptx-nvcc" >"$OUT/$p.ptx-nvcc.nm" 2>&1  # (not piped into grep -q: pipefail and SIGPIPE)
  if grep -Eq ' [tT] __ptxopt_nvcc_launch$' "$OUT/$p.ptx-nvcc.nm"; then
    pass "$p: built by ${tools[*]} (${flags[*]}); the ptx-nvcc program has the launch shim"
  else
    fail "$p: the ptx-nvcc program has no launch shim (nm): no kernel got a clone?"
  fi
  [ $GPU = 1 ] || continue
  # ptx-nvcc: every launch may run a clone (PTXOPT_FIRST_LAUNCH_CLONES=1: the
  # decisions below count them); ptx-nvcc-default: as users get it
  for run in nvcc ptx-nvcc ptx-nvcc-disabled ptx-nvcc-default; do
    bin=$OUT/$p.ptx-nvcc
    [ $run = nvcc ] && bin=$OUT/$p.nvcc
    case $run in
      ptx-nvcc) envs=(PTXOPT_FIRST_LAUNCH_CLONES=1) ;;
      ptx-nvcc-disabled) envs=(PTXOPT_DISABLE=1) ;;
      *) envs=() ;;
    esac
    env "${envs[@]}" PTXOPT_LOG=1 "$bin" >"$OUT/$p.$run.out" 2>"$OUT/$p.$run.err"
    rc=$?
    [ $rc = 0 ] || { fail "$p: $run exited $rc"; tail -n 5 "$OUT/$p.$run.err" | sed 's/^/    | /' | tee -a "$SUMMARY"; continue; }
    grep '^result' "$OUT/$p.$run.out" >"$OUT/$p.$run.results"
  done
  [ -s "$OUT/$p.nvcc.results" ] || { fail "$p: the nvcc build printed no result lines"; continue; }
  if grep -Eq 'wrong=[1-9]|ok=0' "$OUT/$p.nvcc.results"; then fail "$p: the nvcc build itself computes wrong results (the test is broken)"; fi
  for run in ptx-nvcc ptx-nvcc-disabled ptx-nvcc-default; do
    if cmp -s "$OUT/$p.nvcc.results" "$OUT/$p.$run.results"; then
      pass "$p: $run: $(wc -l <"$OUT/$p.$run.results") results identical to nvcc's"
    else
      fail "$p: $run: results differ from nvcc's:"
      diff "$OUT/$p.nvcc.results" "$OUT/$p.$run.results" | head -10 | sed 's/^/    | /' | tee -a "$SUMMARY"
    fi
  done
  clones=$(grep -c '^ptxopt: .* -> .*__ptxopt' "$OUT/$p.ptx-nvcc.err")
  orig=$(grep -c '^ptxopt: .* -> original' "$OUT/$p.ptx-nvcc.err")
  if [ "$clones" -gt 0 ]; then
    pass "$p: launch shapes that ran a clone: $clones; the original: $orig"
    grep '^ptxopt: .* -> ' "$OUT/$p.ptx-nvcc.err" | sed 's/^/    | /' >>"$SUMMARY"
  else
    fail "$p: no launch ran a clone ($OUT/$p.ptx-nvcc.err)"
  fi
  # `// VARIANT: <path> <regex>`: the ptx-nvcc run's `variant <path> <name>` line must match
  while read -r path re; do
    got=$(awk -v p="$path" '$1 == "variant" && $2 == p {print $3; exit}' "$OUT/$p.ptx-nvcc.out")
    if [[ -n $got && $got =~ $re ]]; then pass "$p: $path ran $got"; else fail "$p: $path ran '${got}', expected /$re/"; fi
  done < <(sed -n 's|^// VARIANT: *||p' "$src")
  grep -E '^(variant|graph) ' "$OUT/$p.ptx-nvcc.out" | sed 's/^/    | /' >>"$SUMMARY"
  if grep -q '^ptxopt: .* -> .*__ptxopt' "$OUT/$p.ptx-nvcc-disabled.err"; then
    fail "$p: PTXOPT_DISABLE=1: a clone ran"
  fi
done
if [ "$FAILS" != 0 ]; then
  say "SUMMARY: FAIL ($FAILS failure(s); logs in $OUT)"
  exit 1
fi
say "SUMMARY: PASS ($([ $GPU = 1 ] && echo 'built and ran' || echo 'built'); logs in $OUT)"
exit 0
