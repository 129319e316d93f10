#!/usr/bin/env bash
# The whole-program benchmark (issue #27, bench/programs/README.md): every
# program of bench/programs/*.cu built twice, with `nvcc -O3 -arch=$ARCH`
# and with `tools/ptx-nvcc -O3 -arch=$ARCH` (default ptx-nvcc flags plus
# $PTXNVCC_FLAGS), then, for each CUDA_MODULE_LOADING mode, R rounds in which
# every program runs as its own process in four builds, interleaved:
#
#   A   the nvcc build          A2  the nvcc build again (the A/A control)
#   P   the ptx-nvcc build      D   the ptx-nvcc build with PTXOPT_DISABLE=1
#
# Each run's gpu_ms (the program's own cudaEvent time), wall time, check line
# and hash (FNV-1a over every device-to-host copy) go to runs.tsv; every
# hash must equal the nvcc build's. Per mode and program also: one P run with
# PTXOPT_LOG=1 (logs/<mode>/<program>.decisions.log: what each kernel's
# first launch ran), and, where the CUPTI headers exist, one A and one P run
# under bench/programs/trace/module_trace.cpp (CUDA_INJECTION64_PATH): the
# modules loaded inside the timed region (traces.tsv, logs/<mode>/*.trace).
#
#   PTXOPT_BUILD=build-gpu OUT=$OUT bash scripts/bench/programs.sh
#
# Environment: PTXOPT_BUILD (the tree with ptx-opt, ptx-nvcc-cicc and
# runtime/libptxopt_nvcc.a; default build-gpu), OUT (default
# $PTXOPT_BUILD/out; everything goes to $OUT/programs), PROGRAMS="a b"
# (default: all), R (rounds, default 5), MODES (default "EAGER LAZY"),
# BUILD_ONLY=1 (build, and the remarks, no runs), REMARKS=1 (also list the
# clones: a third build with --ptxopt-remarks into logs/remarks; default
# with BUILD_ONLY only), PROGRAMS_SRC (the programs' folder, default
# bench/programs), PTXNVCC_FLAGS (extra
# ptx-nvcc flags), ARCH (default sm_90), JOBS (parallel builds, default
# nproc), BUILD_PTXOPT=0 (do not run cmake --build for ptx-opt, ptx-nvcc-cicc
# and ptxopt_nvcc in PTXOPT_BUILD first), CUDA_HOME, CUPTI_HOME (default $CUDA_HOME/extras/CUPTI, then
# $CUDA_HOME), TRACE=0 (no timeline runs).
#
# Output in $OUT/programs: programs.md (the tables, also printed), clones.md
# (with REMARKS=1),
# runs.tsv, traces.tsv, builds.tsv, logs/ (build logs, remarks, decision
# logs, traces, the output of failed runs), bin/.
# Exit 0 when every build succeeded and every run passed its check with the
# nvcc build's hash (however slow); 1 otherwise; 2 on a setup error.
set -uo pipefail
. "$(dirname "$0")/../env.sh"
PTXOPT_BUILD=$(abspath "${PTXOPT_BUILD:-build-gpu}")
export PTXOPT_BUILD
OUT=$(abspath "${OUT:-$PTXOPT_BUILD/out}")
DIR=$OUT/programs
R=${R:-5}
MODES=${MODES:-EAGER LAZY}
ARCH=${ARCH:-sm_90}
SRC=$ROOT/bench/programs
# The programs' sources: bench/programs, or PROGRAMS_SRC (another folder of
# programs in the same form, with its own common.h).
PSRC=$(abspath "${PROGRAMS_SRC:-$SRC}")
say() { printf '[bench-programs] %s\n' "$*" >&2; }

command -v nvcc >/dev/null || { say "error: nvcc not found (CUDA_HOME=$CUDA_HOME)"; exit 2; }
# ptx-nvcc's tools, built if the tree is configured (as scripts/test/nvcc-gpu.sh does; a tree
# that scripts/gpu-suite.sh made has no ptxopt_nvcc yet). BUILD_PTXOPT=0 uses the tree as it is.
if [ "${BUILD_PTXOPT:-1}" != 0 ] && [ -e "$PTXOPT_BUILD/CMakeCache.txt" ]; then
  mkdir -p "$DIR"
  cmake --build "$PTXOPT_BUILD" --target ptx-opt ptx-nvcc-cicc ptxopt_nvcc -j "$JOBS" >"$OUT/programs-build-ptxopt.log" 2>&1 ||
    say "warning: building ptx-opt ptx-nvcc-cicc ptxopt_nvcc in $PTXOPT_BUILD failed ($OUT/programs-build-ptxopt.log)"
fi
for f in ptx-opt ptx-nvcc-cicc runtime/libptxopt_nvcc.a; do
  [ -e "$PTXOPT_BUILD/$f" ] || { say "error: $PTXOPT_BUILD/$f missing (build the targets ptx-opt ptx-nvcc-cicc ptxopt_nvcc there)"; exit 2; }
done
# The .a is a linker script written at configure time; the shim object it names exists only
# once ptxopt_nvcc is built (without it ptx-nvcc links no shim: the originals would run).
for f in $(sed -n 's/^INPUT(\(.*\))$/\1/p' "$PTXOPT_BUILD/runtime/libptxopt_nvcc.a"); do
  [ -e "$f" ] || { say "error: $f missing (build the target ptxopt_nvcc in $PTXOPT_BUILD)"; exit 2; }
done
if [ -n "${PROGRAMS:-}" ]; then
  read -r -a PROGS <<<"$PROGRAMS"
else
  PROGS=()
  for f in "$PSRC"/*.cu; do PROGS+=("$(basename "$f" .cu)"); done
fi
for p in "${PROGS[@]}"; do [ -e "$PSRC/$p.cu" ] || { say "error: no $PSRC/$p.cu"; exit 2; }; done
rm -rf "$DIR/bin" "$DIR/logs" "$DIR"/*.tsv "$DIR"/*.md
mkdir -p "$DIR/bin" "$DIR/logs/build"
start=$(date +%s)

# ---- build: every program with nvcc and with ptx-nvcc, JOBS at a time -----------------
build_one() {  # <program> <tool>
  local p=$1 tool=$2 t0 t1 rc cc=(nvcc) extra=()
  if [ "$tool" = ptx ]; then
    cc=("$ROOT/tools/ptx-nvcc")
    read -r -a extra <<<"${PTXNVCC_FLAGS:-}"
  fi
  t0=$(date +%s%N)
  "${cc[@]}" -O3 -arch="$ARCH" "${extra[@]}" -o "$DIR/bin/$p.$tool" "$PSRC/$p.cu" >"$DIR/logs/build/$p.$tool.log" 2>&1
  rc=$?
  t1=$(date +%s%N)
  printf '%s\t%s\t%s\t%.3f\n' "$p" "$tool" "$rc" "$(((t1 - t0) / 1000000))e-3" >"$DIR/logs/build/$p.$tool.tsv"
}
export -f build_one
export DIR ROOT ARCH SRC PSRC PTXNVCC_FLAGS
say "building ${#PROGS[@]} programs twice, $JOBS at a time (nvcc and ptx-nvcc -O3 -arch=$ARCH${PTXNVCC_FLAGS:+ $PTXNVCC_FLAGS})"
for p in "${PROGS[@]}"; do printf '%s ptx\n%s nvcc\n' "$p" "$p"; done | xargs -P "$JOBS" -n 2 bash -c 'build_one "$0" "$1"'
printf 'program\ttool\trc\tseconds\n' >"$DIR/builds.tsv"
cat "$DIR"/logs/build/*.tsv >>"$DIR/builds.tsv"
FAILS=0
OK=()
for p in "${PROGS[@]}"; do
  good=1
  for tool in nvcc ptx; do
    if [ ! -x "$DIR/bin/$p.$tool" ]; then
      say "FAIL: $p: the $tool build failed ($DIR/logs/build/$p.$tool.log):"
      tail -n 8 "$DIR/logs/build/$p.$tool.log" | sed 's/^/    | /' >&2
      good=0
    fi
  done
  if grep -q 'ptx-nvcc: warning' "$DIR/logs/build/$p.ptx.log" 2>/dev/null; then
    say "note: $p: ptx-nvcc warned: $(grep -m1 'ptx-nvcc: warning' "$DIR/logs/build/$p.ptx.log")"
  fi
  if [ $good = 1 ]; then OK+=("$p"); else FAILS=$((FAILS + 1)); fi
done
say "built in $(($(date +%s) - start)) s ($FAILS failed)"

# ---- the timeline library (CUPTI), if the headers are there ------------------------------
TRACE_LIB=
if [ "${TRACE:-1}" != 0 ]; then
  cupti_inc= cupti_lib=
  for d in "${CUPTI_HOME:-}" "$CUDA_HOME/extras/CUPTI" "$CUDA_HOME"; do
    [ -n "$d" ] && [ -e "$d/include/cupti.h" ] && { cupti_inc=$d/include; break; }
  done
  for d in "${CUPTI_HOME:-/nonexistent}/lib64" "$CUDA_HOME/extras/CUPTI/lib64" "$CUDA_HOME/lib64" "$CUDA_HOME/lib" \
           "$CUDA_HOME"/targets/*/lib; do
    ls "$d"/libcupti.so* >/dev/null 2>&1 && { cupti_lib=$d; break; }
  done
  if [ -n "$cupti_inc" ] && [ -n "$cupti_lib" ]; then
    if g++ -std=c++17 -O2 -shared -fPIC -I"$cupti_inc" -I"$CUDA_HOME/include" "$SRC/trace/module_trace.cpp" \
         -L"$cupti_lib" -lcupti -Wl,-rpath,"$cupti_lib" -o "$DIR/bin/libmodule_trace.so" >"$DIR/logs/build/module_trace.log" 2>&1; then
      TRACE_LIB=$DIR/bin/libmodule_trace.so
      say "timeline: module_trace built against $cupti_inc"
    else
      say "timeline: SKIPPED: module_trace did not build ($DIR/logs/build/module_trace.log)"
    fi
  else
    say "timeline: SKIPPED: no CUPTI headers/library (looked in \$CUPTI_HOME, $CUDA_HOME/extras/CUPTI, $CUDA_HOME)"
  fi
fi

# ---- remarks: which clones each program's kernels get (a third build, REMARKS=1) ----------
REMARKS=${REMARKS:-${BUILD_ONLY:-0}}
[ "$REMARKS" = 1 ] && mkdir -p "$DIR/logs/remarks" && printf '%s\n' "${OK[@]}" | xargs -P "$JOBS" -I{} sh -c \
  '"$0/tools/ptx-nvcc" -O3 -arch="$1" $2 --ptxopt-remarks="$3/logs/remarks/{}.txt" -o "$3/bin/{}.remarks" "$4/{}.cu" >/dev/null 2>&1; rm -f "$3/bin/{}.remarks"' \
  "$ROOT" "$ARCH" "${PTXNVCC_FLAGS:-}" "$DIR" "$PSRC"

if [ "$REMARKS" = 1 ]; then
  python3 "$SRC/report.py" --clones "$DIR/logs/remarks" >"$DIR/clones.md"
  cat "$DIR/clones.md"
fi
if [ "${BUILD_ONLY:-0}" = 1 ]; then
  say "BUILD_ONLY: $((${#PROGS[@]} - FAILS)) of ${#PROGS[@]} programs built (bin/, logs/build, logs/remarks in $DIR)"
  [ $FAILS = 0 ]
  exit $?
fi
if ! have_gpu; then
  say "SKIPPED: no GPU (BUILD_ONLY=1 builds alone)"
  exit 77
fi
say "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"

# ---- runs -----------------------------------------------------------------------------
RUNS=$DIR/runs.tsv
TRACES=$DIR/traces.tsv
printf 'mode\tprogram\tvariant\tround\trc\tgpu_ms\twall_ms\tcheck\thash\n' >"$RUNS"
printf 'mode\tprogram\tbuild\tloads_in_timed_region\tapi_loads_in_timed_region\tmodules_loaded\n' >"$TRACES"
now_ns() { if [ -n "${EPOCHREALTIME:-}" ]; then local t=${EPOCHREALTIME//[.,]/}; echo "${t}000"; else date +%s%N; fi; }
# run <mode> <program> <variant> <round> [VAR=value...]: one process, one line of runs.tsv.
run() {
  local mode=$1 p=$2 v=$3 round=$4 bin t0 t1 rc o=$DIR/logs/run.out e=$DIR/logs/run.err
  shift 4
  case $v in A | A2 | Atrace) bin=$DIR/bin/$p.nvcc ;; *) bin=$DIR/bin/$p.ptx ;; esac
  t0=$(now_ns)
  env -u PTXOPT_LOG -u PTXOPT_DISABLE -u CUDA_INJECTION64_PATH CUDA_MODULE_LOADING="$mode" "$@" "$bin" >"$o" 2>"$e"
  rc=$?
  t1=$(now_ns)
  local ms= check= hash= line
  while IFS= read -r line; do  # the last of each line wins
    case $line in gpu_ms=*) ms=${line#gpu_ms=} ;; check=*) check=${line#check=} ;; hash=*) hash=${line#hash=} ;; esac
  done <"$o"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%.3f\t%s\t%s\n' "$mode" "$p" "$v" "$round" "$rc" "$ms" "$(((t1 - t0) / 1000))e-3" \
    "${check:-none}" "$hash" >>"$RUNS"
  if [ "$rc" != 0 ] || [ "$check" != PASS ]; then
    cat "$o" "$e" >"$DIR/logs/fail.$mode.$p.$v.$round.txt"
    say "FAIL: $mode $p $v round $round: exit $rc, check=${check:-none} (logs/fail.$mode.$p.$v.$round.txt)"
  fi
}
VARIANTS=(A A2 P D)
n=$((${#OK[@]} * (4 * R + 1 + ${TRACE_LIB:+2}+0)))
say "$n processes in each of the modes $MODES (about 0.3 s each)"
for mode in $MODES; do
  mkdir -p "$DIR/logs/$mode"
  say "$mode: $R rounds x ${#OK[@]} programs x 4 builds, then the log and timeline runs"
  for ((round = 1; round <= R; round++)); do
    for p in "${OK[@]}"; do
      for ((k = 0; k < 4; k++)); do  # the order turns each round
        v=${VARIANTS[$(((k + round) % 4))]}
        if [ "$v" = D ]; then run "$mode" "$p" D "$round" PTXOPT_DISABLE=1; else run "$mode" "$p" "$v" "$round"; fi
      done
    done
  done
  for p in "${OK[@]}"; do
    run "$mode" "$p" Plog 0 PTXOPT_LOG=1
    cp "$DIR/logs/run.err" "$DIR/logs/$mode/$p.decisions.log"
    [ -n "$TRACE_LIB" ] || continue
    for b in A P; do
      run "$mode" "$p" "${b}trace" 0 CUDA_INJECTION64_PATH="$TRACE_LIB" MODULE_TRACE_OUT="$DIR/logs/$mode/$p.$b.trace"
      line=$(grep 'module_trace: summary' "$DIR/logs/$mode/$p.$b.trace" 2>/dev/null | tail -1)
      get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$line"; }
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$p" "$b" "$(get loads_in_timed_region)" \
        "$(get api_loads_in_timed_region)" "$(get modules_loaded)" >>"$TRACES"
    done
  done
  say "$mode done at $(($(date +%s) - start)) s"
done
rm -f "$DIR/logs/run.out" "$DIR/logs/run.err"
[ -n "$TRACE_LIB" ] || rm -f "$TRACES"

python3 "$SRC/report.py" "$DIR" >"$DIR/programs.md"
report_rc=$?
cat "$DIR/programs.md"
say "$(($(wc -l <"$RUNS") - 1)) runs in $(($(date +%s) - start)) s; tables in $DIR/programs.md"
[ $FAILS = 0 ] && [ $report_rc = 0 ]
