#!/usr/bin/env bash
# Regenerate the PTX test corpus in tests/corpus/ptx from tests/corpus/src.
#
#   scripts/gen/corpus.sh               regenerate nvcc/clang/llc PTX
#   scripts/gen/corpus.sh --check       regenerate, then run ptxas on every file
#   scripts/gen/corpus.sh --check-only  only run ptxas on the existing files
#   scripts/gen/corpus.sh -j 4          run up to 4 compiler jobs at once (default 2)
#
# Environment: CUDA_HOME (default /usr/local/cuda), NVCC, PTXAS, CLANG, LLC,
# PTXOPT_CORPUS_BUILD (fixed scratch directory, default /tmp/ptx-opt-corpus-build).
#
# Output goes to tests/corpus/ptx/<producer>/<name>.<variant>.ptx. The
# nvcc/, clang/ and llc/ directories are rebuilt from scratch on every run
# (in a staging directory, swapped in only if every job succeeds), so the
# script is idempotent and never leaves stale files. ptx/triton/ is written by
# scripts/gen/triton-ptx.py on a GPU machine and is left alone here (but is
# included in --check and in the size report).
#
# Sources are copied to the fixed PTXOPT_CORPUS_BUILD directory and compiled
# from there, so .file directives and debug strings do not depend on where the
# repository is checked out, and nvcc gets -frandom-seed=<file> so the
# _INTERNAL_<hash> prefixes of internal-linkage symbols are reproducible.
set -euo pipefail

JOBS=2
GEN=1
CHECK=0
while [ $# -gt 0 ]; do
  case "$1" in
    --check) CHECK=1 ;;
    --check-only) CHECK=1; GEN=0 ;;
    -j) shift; JOBS="$1" ;;
    -j*) JOBS="${1#-j}" ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

. "$(dirname "$0")/../env.sh"
CORPUS="$ROOT/tests/corpus"
SRC="$CORPUS/src"
PTX="$CORPUS/ptx"
export NVCC="${NVCC:-nvcc}"
export PTXAS="${PTXAS:-ptxas}"
export CLANG="${CLANG:-clang-14}"
export LLC="${LLC:-llc-14}"
BUILD="${PTXOPT_CORPUS_BUILD:-/tmp/ptx-opt-corpus-build}"
export BUILD

# Size budget (bytes): whole ptx tree, and any single file.
MAX_TOTAL=$((20 * 1000 * 1000))
MAX_FILE=$((8 * 1000 * 1000))

# ---------------------------------------------------------------------------
# What to build.
# ---------------------------------------------------------------------------
NVCC_ARCHS="75 80 86 89 90 100 120"
# -lineinfo variants: every nvcc source at these archs.
LINEINFO_ARCHS="80 90"
# -G variants: every nvcc source at sm_80, plus this subset at sm_90.
G_ARCH=80
G_SM90_SUBSET="paper calls cluster"
# CCCL: big template-heavy PTX, -lineinfo only, two archs.
CCCL_ARCHS="80 90"
# Header-free clang CUDA (clang_*.cu) and hand-written LLVM IR (*.ll).
CLANG_COMMON="-x cuda --cuda-device-only -nocudainc -nocudalib -Wno-unknown-cuda-version -S"

# Job format (tab separated): producer  outname  srcfile  flags...
jobs_list() {
  local f name a
  for f in "$SRC"/*.cu; do
    name="$(basename "$f" .cu)"
    case "$name" in clang_*|cccl) continue ;; esac
    for a in $NVCC_ARCHS; do
      printf 'nvcc\t%s.sm_%s\t%s.cu\t-arch=compute_%s\n' "$name" "$a" "$name" "$a"
    done
    for a in $LINEINFO_ARCHS; do
      printf 'nvcc\t%s.sm_%s-lineinfo\t%s.cu\t-arch=compute_%s -lineinfo\n' "$name" "$a" "$name" "$a"
    done
    printf 'nvcc\t%s.sm_%s-G\t%s.cu\t-arch=compute_%s -G\n' "$name" "$G_ARCH" "$name" "$G_ARCH"
    case " $G_SM90_SUBSET " in *" $name "*)
      printf 'nvcc\t%s.sm_90-G\t%s.cu\t-arch=compute_90 -G\n' "$name" "$name" ;;
    esac
  done
  # Extra nvcc variants.
  printf 'nvcc\tarchspecific.sm_90a\tarchspecific.cu\t-arch=compute_90a\n'
  printf 'nvcc\tcalls.sm_80-rdc\tcalls.cu\t-arch=compute_80 -rdc=true\n'
  printf 'nvcc\tattributes.sm_90-rdc\tattributes.cu\t-arch=compute_90 -rdc=true\n'
  printf 'nvcc\tlowprec.sm_80-fastmath\tlowprec.cu\t-arch=compute_80 -use_fast_math\n'
  printf 'nvcc\ttexsurf.sm_80-fastmath\ttexsurf.cu\t-arch=compute_80 -use_fast_math\n'
  for a in $CCCL_ARCHS; do
    printf 'nvcc\tcccl.sm_%s-lineinfo\tcccl.cu\t-arch=compute_%s -lineinfo\n' "$a" "$a"
  done
  # clang-14 knows PTX up to 7.5 / sm_86; pick the PTX ISA explicitly.
  for f in "$SRC"/clang_*.cu; do
    name="$(basename "$f" .cu)"
    printf 'clang\t%s.sm_80\t%s.cu\t--cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx70 -O2\n' "$name" "$name"
    printf 'clang\t%s.sm_80-O0\t%s.cu\t--cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx70 -O0\n' "$name" "$name"
    printf 'clang\t%s.sm_80-g\t%s.cu\t--cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx70 -O2 -g\n' "$name" "$name"
    printf 'clang\t%s.sm_86\t%s.cu\t--cuda-gpu-arch=sm_86 -Xclang -target-feature -Xclang +ptx71 -O2\n' "$name" "$name"
  done
  for f in "$SRC"/*.ll; do
    name="$(basename "$f" .ll)"
    printf 'llc\t%s.sm_80\t%s.ll\t-march=nvptx64 -mcpu=sm_80\n' "$name" "$name"
    printf 'llc\t%s.sm_80-O0\t%s.ll\t-march=nvptx64 -mcpu=sm_80 -O0\n' "$name" "$name"
    printf 'llc\t%s.sm_75\t%s.ll\t-march=nvptx64 -mcpu=sm_75\n' "$name" "$name"
  done
}

# Command line (relative to $BUILD) that produces one job's output.
job_cmd() { # producer src flags out
  case "$1" in
    nvcc)  echo "$NVCC $3 -frandom-seed=$2 -ptx src/$2 -o $4" ;;
    clang) echo "$CLANG $CLANG_COMMON $3 src/$2 -o $4" ;;
    llc)   echo "$LLC $3 src/$2 -o $4" ;;
  esac
}

# Runs one job; called through xargs. Args: index total jobline
run_job() {
  local idx="$1" total="$2" line="$3" producer out src flags cmd log
  IFS=$'\t' read -r producer out src flags <<<"$line"
  cmd="$(job_cmd "$producer" "$src" "$flags" "$STAGE/$producer/$out.ptx")"
  log="$STAGE/logs/$producer.$out.log"
  if (cd "$BUILD" && eval "$cmd") >"$log" 2>&1; then
    printf '[%3d/%d] %-6s %s.ptx (%s bytes)\n' "$idx" "$total" "$producer" "$out" \
      "$(wc -c <"$STAGE/$producer/$out.ptx")"
  else
    printf '[%3d/%d] FAILED %s/%s.ptx\n  %s\n' "$idx" "$total" "$producer" "$out" "$cmd" >&2
    sed 's/^/    /' "$log" >&2
    return 255 # makes xargs stop starting new jobs
  fi
}

# ptxas on one file; target taken from its .target line. Files that call
# extern functions (e.g. -rdc output) are assembled with -c.
check_one() {
  local f="$1" tgt out
  tgt="$(grep -m1 -E '^[[:space:]]*\.target' "$f" | sed -E 's/^[[:space:]]*\.target[[:space:]]+//; s/[,[:space:]].*$//')"
  if [ -z "$tgt" ]; then echo "FAIL (no .target) $f"; return 1; fi
  if out="$("$PTXAS" -arch="$tgt" "$f" -o /dev/null 2>&1)"; then
    echo "ok      $tgt ${f#$PTX/}"
  elif echo "$out" | grep -q 'Unresolved extern function' &&
       out="$("$PTXAS" -c -arch="$tgt" "$f" -o /dev/null 2>&1)"; then
    echo "ok(-c)  $tgt ${f#$PTX/}"
  else
    echo "FAIL    $tgt ${f#$PTX/} :: $(echo "$out" | head -5 | tr '\n' ' ')"
    return 1
  fi
}
export -f run_job job_cmd check_one
export CLANG_COMMON PTX

# ---------------------------------------------------------------------------
if [ "$GEN" = 1 ]; then
  for tool in "$NVCC" "$CLANG" "$LLC"; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool" >&2; exit 1; }
  done
  echo "== tools"
  "$NVCC" --version | tail -1
  "$CLANG" --version | head -1
  "$LLC" --version | grep -m1 -i 'llvm version'

  rm -rf "$BUILD"
  mkdir -p "$BUILD"
  cp -r "$SRC" "$BUILD/src"
  STAGE="$PTX/.staging"
  export STAGE
  rm -rf "$STAGE"
  mkdir -p "$STAGE/nvcc" "$STAGE/clang" "$STAGE/llc" "$STAGE/logs"

  JOBFILE="$STAGE/jobs.tsv"
  jobs_list >"$JOBFILE"
  TOTAL="$(wc -l <"$JOBFILE")"
  echo "== generating $TOTAL PTX files with $JOBS parallel jobs"
  # Put the slow CCCL jobs first so they overlap with the rest.
  { grep -P '\tcccl\.cu\t' "$JOBFILE" || true; grep -vP '\tcccl\.cu\t' "$JOBFILE"; } |
    awk -v t="$TOTAL" '{printf "%d\t%d\t%s\n", NR, t, $0}' |
    tr '\n' '\0' |
    xargs -0 -P "$JOBS" -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r i t rest <<<"$1"; run_job "$i" "$t" "$rest"' _ {} ||
    { echo "generation failed; existing corpus left untouched (staging in $STAGE)" >&2; exit 1; }

  # Manifest: file, size, command that produced it (relative to the build dir).
  {
    printf '# file\tbytes\tcommand (run in a directory containing src/ = tests/corpus/src)\n'
    sort -t $'\t' -k1,1 -k2,2 "$JOBFILE" | while IFS=$'\t' read -r producer out src flags; do
      printf '%s/%s.ptx\t%s\t%s\n' "$producer" "$out" "$(wc -c <"$STAGE/$producer/$out.ptx")" \
        "$(job_cmd "$producer" "$src" "$flags" "$producer/$out.ptx" | sed -E 's#^[^ ]*/##')"
    done
  } >"$STAGE/MANIFEST.tsv"
  {
    echo "nvcc:  $("$NVCC" --version | tail -1)"
    echo "clang: $("$CLANG" --version | head -1)"
    echo "llc:   $("$LLC" --version | grep -m1 -i 'llvm version' | sed 's/^ *//')"
  } >"$STAGE/VERSIONS.txt"

  # Swap in.
  mkdir -p "$PTX"
  for p in nvcc clang llc; do
    rm -rf "$PTX/$p"
    mv "$STAGE/$p" "$PTX/$p"
  done
  mv "$STAGE/MANIFEST.tsv" "$STAGE/VERSIONS.txt" "$PTX/"
  rm -rf "$STAGE" "$BUILD"
fi

# ---------------------------------------------------------------------------
echo "== size report"
[ -d "$PTX" ] || { echo "no $PTX" >&2; exit 1; }
NOSTAGE=(-not -path '*/.staging/*')
COUNT="$(find "$PTX" -name '*.ptx' -type f "${NOSTAGE[@]}" | wc -l)"
TOTAL_BYTES="$(find "$PTX" -type f "${NOSTAGE[@]}" -printf '%s\n' | awk '{s+=$1} END {print s+0}')"
echo "files: $COUNT ptx, total bytes (all files): $TOTAL_BYTES ($(du -sh --exclude=.staging "$PTX" | cut -f1) on disk)"
for p in nvcc clang llc triton; do
  [ -d "$PTX/$p" ] && printf '  %-7s %4d files %10d bytes\n' "$p" \
    "$(find "$PTX/$p" -name '*.ptx' | wc -l)" \
    "$(find "$PTX/$p" -name '*.ptx' -printf '%s\n' | awk '{s+=$1} END {print s+0}')"
done
echo "largest:"
find "$PTX" -name '*.ptx' -type f "${NOSTAGE[@]}" -printf '%s\t%P\n' | sort -rn | head -5 |
  awk -F'\t' '{printf "  %10d  %s\n", $1, $2}'
BUDGET_OK=1
if [ "$TOTAL_BYTES" -gt "$MAX_TOTAL" ]; then
  echo "BUDGET EXCEEDED: total $TOTAL_BYTES > $MAX_TOTAL bytes" >&2; BUDGET_OK=0
fi
BIG="$(find "$PTX" -type f "${NOSTAGE[@]}" -size +"$MAX_FILE"c -printf '%P\n')"
if [ -n "$BIG" ]; then
  echo "BUDGET EXCEEDED: files over $MAX_FILE bytes: $BIG" >&2; BUDGET_OK=0
fi

CHECK_OK=1
if [ "$CHECK" = 1 ]; then
  command -v "$PTXAS" >/dev/null || { echo "missing tool: $PTXAS" >&2; exit 1; }
  echo "== ptxas check ($("$PTXAS" --version | tail -1))"
  RES="$(find "$PTX" -name '*.ptx' -type f "${NOSTAGE[@]}" | sort |
    tr '\n' '\0' | xargs -0 -P "$JOBS" -I{} bash -c 'check_one "$1"' _ {} || true)"
  echo "$RES" | sort -k3
  NFAIL="$(echo "$RES" | grep -c '^FAIL' || true)"
  echo "ptxas: $((COUNT - NFAIL))/$COUNT accepted, $NFAIL failed"
  [ "$NFAIL" = 0 ] || CHECK_OK=0
fi

[ "$BUDGET_OK" = 1 ] && [ "$CHECK_OK" = 1 ] || exit 1
echo "== done"
