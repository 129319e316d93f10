#!/usr/bin/env bash
# The benchmark family (bench/family/README.md; docs/BENCHMARKS.md, "Clone
# choices measured per shape"): real-shaped CUDA programs built once with
# nvcc and once with tools/ptx-nvcc (same flags: -O3 -arch=$ARCH), run
# alternately as
#   nvcc | ptx-nvcc | ptx-nvcc with PTXOPT_DISABLE=1 at run time | nvcc again
# (the A/A control: how far two runs of one binary differ, the noise against
# which "ptx-nvcc below 0.98x" is read)
# for ROUNDS rounds (the order rotates every round), then once more
# (ptx-nvcc, PTXOPT_LOG=2, PTXOPT_FIRST_LAUNCH_CLONES=1, --reps 0) for the
# variant each launch runs once the kernel's first launch is past. Every
# case's output hash must be the same in all runs. Each program times its
# cases the way users do (host timer around the launches + one
# cudaDeviceSynchronize; min and median of REPS) and by cudaEvents.
#
#   scripts/bench/family.sh [--build-only] [--quick] [program...]
#
#   --build-only  build both ways and list the clones ptx-opt -O2 makes for
#                 each program (from nvcc -ptx of the same flags); no GPU needed
#   --quick       footprints up to 64 MB, 1 round, 5 repetitions
#   program       stencil2d stencil3d jacobi2d fdtd2d lu elementwise reduce
#                 matadd2d (default: all)
#
# Environment: PTXOPT_BUILD, a build tree with ptx-opt, ptx-nvcc-cicc and
# runtime/libptxopt_nvcc.a (default build-gpu, else build; the targets are
# (re)built there when the tree is configured, and a missing build-gpu is
# configured as scripts/gpu-suite.sh does); OUT (default
# $PTXOPT_BUILD/out/family); ARCH (default sm_<compute capability>, sm_90
# without a GPU); ROUNDS (2), REPS (20), MAX_MB (no limit); SMALL_ROUNDS (4)
# more rounds of the cases up to SMALL_MB (16) MB: their times depend on the
# process (up to +-15% between runs of one program; docs/BENCHMARKS.md), so
# their min is over ROUNDS + SMALL_ROUNDS processes; FAMILY_CPU: run every
# program on that core (taskset); JOBS (parallel
# builds, default the cores); FAMILY_NVCC_FLAGS (more flags for both builds,
# after -O3 -arch: e.g. -lineinfo, or `-cudart none fake.o` to try the
# script without a GPU).
#
# Writes into $OUT: family.md (the tables: per case, per clone kind, per
# program), family.csv, decisions.txt (each case's PTXOPT_LOG lines,
# one per distinct decision), clones.txt, build.tsv, ptxas.tsv, runs/ (every
# run's output, the remarks of ptx-opt -O2). The programs, their PTX and
# cubins go to WORK (default $PTXOPT_BUILD/family), not to $OUT: they are
# large and are not results. Exit 0 when every build and run succeeded and
# every output matched nvcc's; 1 otherwise; 77 without a GPU (unless
# --build-only: nothing is run then). On an H100 the whole run (builds
# included) takes about 3 minutes (2 before SMALL_ROUNDS; SMALL_ROUNDS=0 for that).
set -uo pipefail
. "$(dirname "$0")/../env.sh"
ALL_PROGS=(stencil2d stencil3d jacobi2d fdtd2d lu elementwise reduce matadd2d)
BUILD_ONLY=0 QUICK=0
PROGS=()
for a in "$@"; do
  case $a in
    --build-only) BUILD_ONLY=1 ;;
    --quick) QUICK=1 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench-family: unknown option $a" >&2; exit 2 ;;
    *) [ -e "bench/family/$a.cu" ] || { echo "bench-family: no program bench/family/$a.cu" >&2; exit 2; }
       PROGS+=("$a") ;;
  esac
done
[ ${#PROGS[@]} = 0 ] && PROGS=("${ALL_PROGS[@]}")
ROUNDS=${ROUNDS:-2} REPS=${REPS:-20} MAX_MB=${MAX_MB:-} SMALL_ROUNDS=${SMALL_ROUNDS:-4} SMALL_MB=${SMALL_MB:-16}
if [ $QUICK = 1 ]; then ROUNDS=1 REPS=5 MAX_MB=${MAX_MB:-64} SMALL_ROUNDS=0; fi
PIN=()
if [ -n "${FAMILY_CPU:-}" ] && command -v taskset >/dev/null; then PIN=(taskset -c "$FAMILY_CPU"); fi
if [ -z "${PTXOPT_BUILD:-}" ]; then
  PTXOPT_BUILD=$ROOT/build-gpu
  [ ! -e "$PTXOPT_BUILD/ptx-opt" ] && [ -e "$ROOT/build/ptx-opt" ] && PTXOPT_BUILD=$ROOT/build
fi
PTXOPT_BUILD=$(abspath "$PTXOPT_BUILD")
export PTXOPT_BUILD
OUT=${OUT:-$PTXOPT_BUILD/out/family}
OUT=$(abspath "$OUT")
W=${WORK:-$PTXOPT_BUILD/family}
W=$(abspath "$W")
mkdir -p "$W" "$OUT"
rm -f "$W"/*.out "$W"/*.wall "$W"/*.rc "$W"/*.build.tsv
T0=$(date +%s.%N)
say() { printf '[family %5.1fs] %s\n' "$(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" "$*"; }

command -v nvcc >/dev/null || { say "FAIL: nvcc not found (CUDA_HOME=$CUDA_HOME)"; exit 1; }
command -v python3 >/dev/null || { say "FAIL: python3 not found"; exit 1; }
GPU=0
if [ $BUILD_ONLY = 0 ]; then
  if have_gpu; then
    GPU=1
    CAP=$(gpu_cap)
  else
    say "SKIPPED: no GPU (nvidia-smi missing or failing); nothing was built or measured (--build-only builds)"
    exit 77
  fi
fi
ARCH=${ARCH:-sm_${CAP:-90}}
say "nvcc: $(nvcc --version | tail -1); -O3 -arch=$ARCH; $([ $GPU = 1 ] && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 || echo 'build only')"
say "programs: ${PROGS[*]}; rounds $ROUNDS, repetitions $REPS${MAX_MB:+, footprints up to $MAX_MB MB}; out: $OUT"

# ---- ptx-opt, ptx-nvcc-cicc and the shim ---------------------------------------------
if [ ! -e "$PTXOPT_BUILD/CMakeCache.txt" ] && [ "$PTXOPT_BUILD" = "$ROOT/build-gpu" ]; then
  # a fresh GPU machine: configure as scripts/gpu-suite.sh does
  CONFIG=(-DCMAKE_BUILD_TYPE=Release -DPTXOPT_TESTS=OFF -DPTXOPT_GPU=ON -DPTXOPT_GPU_ARCH="$ARCH" -DCUDAToolkit_ROOT="$CUDA_HOME")
  if ! { command -v antlr4 >/dev/null && [ -e /usr/include/antlr4-runtime/antlr4-runtime.h ]; } && [ -e "$ROOT/.dev/generated/grammar.sha256" ]; then
    CONFIG+=(-DPTXOPT_DEPS_DIR="$ROOT/.dev")
  fi
  command -v ninja >/dev/null && CONFIG+=(-G Ninja)
  say "configuring $PTXOPT_BUILD"
  cmake -S . -B "$PTXOPT_BUILD" "${CONFIG[@]}" >"$OUT/configure.log" 2>&1 || { say "FAIL: configure ($OUT/configure.log)"; tail -20 "$OUT/configure.log"; exit 1; }
fi
if [ -e "$PTXOPT_BUILD/CMakeCache.txt" ]; then
  cmake --build "$PTXOPT_BUILD" -j "$JOBS" --target ptx-opt ptx-nvcc-cicc ptxopt_nvcc >"$OUT/build-tools.log" 2>&1 ||
    say "warning: building ptx-opt/ptx-nvcc-cicc/ptxopt_nvcc failed ($OUT/build-tools.log); using what is there"
fi
for f in ptx-opt ptx-nvcc-cicc runtime/libptxopt_nvcc.a; do
  [ -e "$PTXOPT_BUILD/$f" ] || { say "FAIL: $PTXOPT_BUILD/$f missing (run scripts/gpu-suite.sh, or build the targets ptx-opt ptx-nvcc-cicc ptxopt_nvcc)"; exit 1; }
done

# ---- builds: every program with nvcc and with ptx-nvcc, concurrently ---------------------
# plus nvcc -ptx | ptx-opt -O2 --remarks: the clones each kernel gets (clones.txt)
FAILS=0
build_one() { # build_one <program> <nvcc|ptx-nvcc>
  local p=$1 tool=$2 cc=nvcc t0 rc
  [ "$tool" = ptx-nvcc ] && cc=$ROOT/tools/ptx-nvcc
  rm -f "$W/$p.$tool"  # never run a stale program
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086  # FAMILY_NVCC_FLAGS: words
  "$cc" -O3 -arch="$ARCH" ${FAMILY_NVCC_FLAGS:-} "bench/family/$p.cu" -o "$W/$p.$tool" >"$W/$p.$tool.build.log" 2>&1
  rc=$?
  printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$tool" "$rc" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')" \
    "$(stat -c %s "$W/$p.$tool" 2>/dev/null || echo 0)" >"$W/$p.$tool.build.tsv"
}
clones_one() { # clones_one <program>
  local p=$1
  rm -f "$W/$p.ptx" "$W/$p.O2.ptx"
  { nvcc -O3 -arch="$ARCH" -ptx "bench/family/$p.cu" -o "$W/$p.ptx" &&
    "$PTXOPT_BUILD/ptx-opt" -O2 --remarks "$W/$p.ptx" -o "$W/$p.O2.ptx"; } >"$W/$p.remarks" 2>&1
}
say "building ${#PROGS[@]} programs with nvcc and ptx-nvcc ($JOBS at a time)"
for p in "${PROGS[@]}"; do
  for job in "build_one $p nvcc" "build_one $p ptx-nvcc" "clones_one $p"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    $job &
  done
done
wait
cat "$W"/*.build.tsv >"$OUT/build.tsv" 2>/dev/null
while IFS=$'\t' read -r p tool rc secs bytes; do
  if [ "$rc" != 0 ]; then
    say "FAIL: $p: $tool build exit $rc ($W/$p.$tool.build.log):"
    tail -n 8 "$W/$p.$tool.build.log" | sed 's/^/    | /'
    FAILS=$((FAILS + 1))
  fi
done <"$OUT/build.tsv"
# clones.txt: per program, each kernel's clones in the -O2 PTX (the
# harness's own kernels, fillRandom, hashWords, make_mask, add_diagonal, must
# get none: they are listed only if they do)
{
  for p in "${PROGS[@]}"; do
    if [ ! -s "$W/$p.O2.ptx" ]; then echo "$p: ptx-opt failed ($W/$p.remarks)"; continue; fi
    python3 - "$p" "$W/$p.O2.ptx" <<'EOF'
import re, sys
prog, path = sys.argv[1], sys.argv[2]
entries = re.findall(r"^\.(?:visible |weak )?\s*\.entry\s+([A-Za-z0-9_$]+)", open(path).read(), re.M)
clones = {}
for e in entries:
    base, sep, suffix = e.partition("__ptxopt_")
    clones.setdefault(base, [])
    if sep:
        clones[base].append(suffix)
harness = ("fillRandom", "hashWords", "make_mask", "add_diagonal")
for base, cs in clones.items():
    if any(h in base for h in harness):
        if cs:
            print(f"{prog}: {base}: {', '.join(cs)} (WARNING: a harness kernel got clones)")
        continue
    print(f"{prog}: {base}: {', '.join(cs) if cs else '(none)'}")
EOF
  done
} | { command -v c++filt >/dev/null && c++filt || cat; } >"$OUT/clones.txt"
say "clones ptx-opt -O2 emits (kernel: clones), $OUT/clones.txt:"
sed 's/^/    /' "$OUT/clones.txt"
for p in "${PROGS[@]}"; do
  [ -e "$W/$p.ptx-nvcc" ] || continue
  nm "$W/$p.ptx-nvcc" >"$W/$p.ptx-nvcc.nm" 2>&1
  cloned=$(grep "^$p: " "$OUT/clones.txt" | grep -v '(none)')
  if [ -n "$cloned" ] && ! grep -Eq ' [tT] __ptxopt_nvcc_launch$' "$W/$p.ptx-nvcc.nm"; then
    say "FAIL: $p: kernels have clones but the ptx-nvcc program has no launch shim (nm)"
    FAILS=$((FAILS + 1))
  fi
done
for p in "${PROGS[@]}"; do
  if grep -q 'ptx-nvcc: warning' "$W/$p.ptx-nvcc.build.log" 2>/dev/null; then
    say "warning: $p: ptx-nvcc warned ($W/$p.ptx-nvcc.build.log):"
    grep 'ptx-nvcc: warning' "$W/$p.ptx-nvcc.build.log" | head -3 | sed 's/^/    | /'
  fi
done
# ptxas alone on the original PTX and on the -O2 PTX, one after the other
# (the clones' cost in ptxas time and cubin size): ptxas.tsv
: >"$OUT/ptxas.tsv"
for p in "${PROGS[@]}"; do
  for f in ptx O2.ptx; do
    [ -s "$W/$p.$f" ] || continue
    t0=$(date +%s.%N)
    ptxas -arch="$ARCH" "$W/$p.$f" -o "$W/$p.$f.cubin" >/dev/null 2>&1 || continue
    printf '%s\t%s\t%s\t%s\n' "$p" "$f" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')" \
      "$(stat -c %s "$W/$p.$f.cubin")" >>"$OUT/ptxas.tsv"
  done
done
say "builds done ($FAILS failure(s)); times and sizes in $OUT/build.tsv, ptxas on the original and -O2 PTX in $OUT/ptxas.tsv"
if [ $BUILD_ONLY = 1 ]; then
  mkdir -p "$OUT/runs"
  cp "$W"/*.remarks "$W"/*.build.log "$OUT/runs/" 2>/dev/null
  [ $FAILS = 0 ] && say "PASS (build only)" || say "FAIL (build only)"
  [ $FAILS = 0 ]
  exit $?
fi

# ---- runs ------------------------------------------------------------------------------
ARGS=(--reps "$REPS")
[ -n "$MAX_MB" ] && ARGS+=(--max-mb "$MAX_MB")
run_one() { # run_one <program> <variant> <tag> [program args...]
  local p=$1 variant=$2 tag=$3 bin t0 rc
  shift 3
  bin=$W/$p.nvcc
  [ "$variant" != nvcc ] && [ "$variant" != nvcc2 ] && bin=$W/$p.ptx-nvcc
  [ -x "$bin" ] || return 0
  t0=$(date +%s.%N)
  case $variant in
    disabled) PTXOPT_DISABLE=1 "${PIN[@]}" "$bin" "$@" >"$W/$p.$tag.out" 2>&1 ;;
    # the variant the timed repetitions run: a kernel's first launch runs the
    # original by default (docs/NVCC.md, "Clone images"), the later ones the
    # variant this run reports
    log) PTXOPT_LOG=2 PTXOPT_FIRST_LAUNCH_CLONES=1 "$bin" "$@" >"$W/$p.$tag.out" 2>&1 ;;
    *) "${PIN[@]}" "$bin" "$@" >"$W/$p.$tag.out" 2>&1 ;;
  esac
  rc=$?
  awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f\n", b - a }' >"$W/$p.$tag.wall"
  echo $rc >"$W/$p.$tag.rc"
  if [ $rc != 0 ]; then
    say "FAIL: $p $variant exited $rc ($W/$p.$tag.out):"
    tail -n 5 "$W/$p.$tag.out" | sed 's/^/    | /'
    FAILS=$((FAILS + 1))
  fi
}
VARIANTS=(nvcc ptx-nvcc disabled nvcc2)
for ((r = 1; r <= ROUNDS; r++)); do
  for p in "${PROGS[@]}"; do
    line=""
    for ((v = 0; v < ${#VARIANTS[@]}; v++)); do
      variant=${VARIANTS[$(((v + r - 1) % ${#VARIANTS[@]}))]}
      run_one "$p" "$variant" "$variant.r$r" "${ARGS[@]}"
      line+=" $variant $(cat "$W/$p.$variant.r$r.wall" 2>/dev/null)s"
    done
    say "round $r/$ROUNDS: $p:$line"
  done
done
# the small cases again: a min over more processes (they are quick)
SARGS=(--reps "$REPS" --max-mb "$SMALL_MB")
for ((r = 1; r <= SMALL_ROUNDS; r++)); do
  for p in "${PROGS[@]}"; do
    for ((v = 0; v < ${#VARIANTS[@]}; v++)); do
      variant=${VARIANTS[$(((v + r - 1) % ${#VARIANTS[@]}))]}
      run_one "$p" "$variant" "$variant.s$r" "${SARGS[@]}"
    done
  done
  say "small-case round $r/$SMALL_ROUNDS (up to $SMALL_MB MB) done"
done
for p in "${PROGS[@]}"; do
  LARGS=(--reps 0)
  [ -n "$MAX_MB" ] && LARGS+=(--max-mb "$MAX_MB")
  run_one "$p" log log "${LARGS[@]}"
done
say "decision run (PTXOPT_LOG=2, --reps 0) done"

# ---- tables -------------------------------------------------------------------------------
python3 bench/family/report.py --work "$W" --out "$OUT" --rounds "$ROUNDS" --small-rounds "$SMALL_ROUNDS" \
  --device "$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | head -1); $(nvcc --version | tail -1); -O3 -arch=$ARCH; rounds $ROUNDS (+$SMALL_ROUNDS up to $SMALL_MB MB), reps $REPS${MAX_MB:+, up to $MAX_MB MB}${PIN:+, on core $FAMILY_CPU}" \
  "${PROGS[@]}"
report_rc=$?
mkdir -p "$OUT/runs"
cp "$W"/*.out "$W"/*.remarks "$W"/*.build.log "$OUT/runs/" 2>/dev/null
say "tables: $OUT/family.md, $OUT/family.csv, $OUT/decisions.txt; every run's output in $OUT/runs"
if [ $FAILS = 0 ] && [ $report_rc = 0 ]; then
  say "PASS: every output equal to nvcc's"
  exit 0
fi
say "FAIL: $FAILS build/run failure(s); report exit $report_rc (an output differing from nvcc's, or a missing case)"
exit 1
