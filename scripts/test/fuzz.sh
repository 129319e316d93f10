#!/usr/bin/env bash
# Fuzzes the PTX front end (parser, lossless and canonical printer, verifier)
# with libFuzzer; see tests/fuzz/fuzz_parser.cpp for the checked properties.
#
#   scripts/test/fuzz.sh [SECONDS]        (default 600)
#
# Environment: FUZZ_JOBS (parallel fuzzing processes, 1 or 2; default 2),
# FUZZ_MINIMIZE_S (seconds to minimize each new finding; default 60, 0: off),
# FUZZ_MAX_LEN (largest input libFuzzer builds; default 204800: the largest
# seed; smaller values run many more, smaller inputs).
#
# Builds build-fuzz/fuzz-parser with clang-14, seeds build-fuzz/corpus from
# tests/corpus/ptx, tests/lit and tests/fuzz/regressions (files up to 200 KB),
# regenerates the dictionary tests/fuzz/ptx.dict, and fuzzes. Each new
# crash, leak, timeout or out-of-memory input is minimized and saved once per
# distinct failure as tests/fuzz/regressions/<what>-<sha1 prefix>.ptx, ready
# to commit (tests/fuzz/replay.py replays them in ctest).
set -euo pipefail

. "$(dirname "$0")/../env.sh"
SECONDS_TOTAL=${1:-600}
JOBS=${FUZZ_JOBS:-2}
(( JOBS >= 1 && JOBS <= 2 )) || { echo "fuzz.sh: FUZZ_JOBS must be 1 or 2" >&2; exit 2; }
MINIMIZE_S=${FUZZ_MINIMIZE_S:-60}
MAX_SEED_BYTES=$((200 * 1024))
MAX_LEN=${FUZZ_MAX_LEN:-$MAX_SEED_BYTES}
BUILD=$ROOT/build-fuzz
CORPUS=$BUILD/corpus
ARTIFACTS=$BUILD/artifacts
REGRESSIONS=$ROOT/tests/fuzz/regressions
DICT=$ROOT/tests/fuzz/ptx.dict
LOG=$BUILD/fuzz.log
FUZZER=$BUILD/fuzz-parser

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

# ---- build ------------------------------------------------------------------
echo "== building fuzz-parser (clang-14, -fsanitize=fuzzer,address,undefined)"
mkdir -p "$BUILD"
CC=clang-14 CXX=clang++-14 cmake -S "$ROOT" -B "$BUILD" -DPTXOPT_FUZZ=ON -DPTXOPT_TESTS=OFF -DPTXOPT_GPU=OFF \
  -DCMAKE_BUILD_TYPE=Release >"$BUILD/configure.log" 2>&1 ||
  { cat "$BUILD/configure.log"; exit 1; }
cmake --build "$BUILD" --target fuzz-parser -j "$JOBS" >"$BUILD/build.log" 2>&1 ||
  { tail -50 "$BUILD/build.log"; exit 1; }

# ---- seed corpus ---------------------------------------------------------------
mkdir -p "$CORPUS" "$ARTIFACTS" "$REGRESSIONS"
seeds=0
while IFS= read -r -d '' f; do
  (( $(stat -c %s "$f") <= MAX_SEED_BYTES )) || continue
  cp -f "$f" "$CORPUS/$(sha1sum "$f" | cut -c1-40)"  # content-named, like libFuzzer's own
  seeds=$((seeds + 1))
done < <(find "$ROOT/tests/corpus/ptx" "$ROOT/tests/lit" "$REGRESSIONS" -type f -name '*.ptx' -print0)
echo "== corpus: $seeds seed files (<= $MAX_SEED_BYTES bytes), $(find "$CORPUS" -type f | wc -l) inputs in $CORPUS"

# ---- dictionary ----------------------------------------------------------------
# Fixed PTX vocabulary, plus the directives and opcodes that occur at least
# twice in the seed corpus (sorted, so the file only changes with the corpus).
{
  echo "# PTX dictionary for libFuzzer; written by scripts/test/fuzz.sh (do not edit by hand)."
  for w in .version .target .address_size .file .section .loc .entry .func .param .reg \
           .pragma .alias .callprototype .branchtargets .calltargets .visible .extern .weak \
           .common .global .const .shared .local .tex .attribute .managed .align .ptr \
           .maxntid .reqntid .minnctapersm .maxnreg .noreturn .explicitcluster .reqnctapercluster \
           .shared::cta .shared::cluster .param::entry .debug_info .debug_abbrev .debug_str \
           .debug_loc .debug_line .b8 .b16 .b32 .b64 .b128 .u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64 \
           .f16 .f16x2 .bf16 .f32 .f64 .pred .v2 .v4 .texref .samplerref .surfref \
           sm_90 sm_52 sm_80 debug texmode_independent map_f64_to_f32 \
           ld st mov add sub mul mad fma setp selp bra ret exit call cvt cvta shl shr and or xor \
           not atom red bar.sync membar.gl ld.param.u64 st.global.f32 ld.global.nc.v4.u32 \
           setp.lt.s32 @%p1 @!%p1 bra.uni %r1 %rd1 %f1 %fd1 %p1 '%r<5>' '%rd<100>' %tid.x %ntid.y \
           %ctaid.z %laneid %clock64 %envreg3 _ func_retval0 param0 \$L__BB0_1 \$L__func_begin0 \
           __cudart_builtin \$str 0f3F800000 0d3FF0000000000000 0x7fffffff 0b101 1U 1.5e3 \
           -1 4294967296 18446744073709551615 99999999999999999999 \
           :: '{' '}' '[' ']' '(' ')' '<' '>' , ';' : @ ! '|' + - = '*' '/*' '*/' // '"' \
           '.loc 1 2 3' '.b8 1,2,3' '.b32 $L__func_begin0+4' 'L: .b8 0'; do
    printf '"%s"\n' "$(printf '%s' "$w" | sed 's/\\/\\\\/g; s/"/\\"/g')"
  done
  printf '"\\x0a"\n"\\x09"\n"\\x0d\\x0a"\n"\\x00"\n"\\xff"\n'
  find "$ROOT/tests/corpus/ptx" "$ROOT/tests/lit" -type f -name '*.ptx' -size -200k -print0 |
    xargs -0 cat |
    awk '{
      for (i = 1; i <= NF; ++i)
        if ($i ~ /^\.[a-z_][a-z0-9_]*(::[a-z0-9_]+)*$/) n[$i]++
      if (match($0, /^[ \t]*(@!?%?[A-Za-z0-9_]+[ \t]+)?[a-z][a-z0-9_]*\.[a-z0-9_.:]+[ \t]/)) {
        w = substr($0, RSTART, RLENGTH); sub(/^[ \t]*(@!?%?[A-Za-z0-9_]+[ \t]+)?/, "", w)
        sub(/[ \t]+$/, "", w); n[w]++
      }
    } END { for (w in n) if (n[w] >= 2) print w }' |
    LC_ALL=C sort -u | sed 's/.*/"&"/'
} | awk '!seen[$0]++' >"$DICT.tmp"
mv "$DICT.tmp" "$DICT"
echo "== dictionary: $(grep -c '^"' "$DICT") entries in ${DICT#"$ROOT"/}"

# ---- fuzz ----------------------------------------------------------------------
# Fork mode runs JOBS fuzzing processes and keeps going after a crash, so one
# run can collect several distinct failures.
before=$(find "$ARTIFACTS" -type f | wc -l)
echo "== fuzzing for $SECONDS_TOTAL s with $JOBS job(s), inputs up to $MAX_LEN bytes; log: ${LOG#"$ROOT"/}"
start=$(date +%s)
set +e
"$FUZZER" "$CORPUS" -dict="$DICT" -max_total_time="$SECONDS_TOTAL" -timeout=10 \
  -rss_limit_mb=2048 -max_len="$MAX_LEN" -fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 \
  -ignore_ooms=1 -artifact_prefix="$ARTIFACTS/" -print_final_stats=1 >"$LOG" 2>&1
rc=$?
set -e
elapsed=$(( $(date +%s) - start ))

# ---- triage: one minimized regression file per distinct failure ----------------
# The kind of failure, from a replay of the input (the fuzzer's own message).
classify() {
  local out
  out=$(timeout 60 "$FUZZER" -timeout=10 -rss_limit_mb=2048 "$1" 2>&1) && { echo fixed; return; }
  local msg
  msg=$(grep -m1 -oE 'fuzz-parser: [a-z ]+|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [a-z-]+|runtime error: [a-z -]+|ERROR: libFuzzer: [a-z-]+' <<<"$out" || true)
  [[ -n $msg ]] || msg="unknown"
  echo "$msg" | sed -E 's/^(fuzz-parser|ERROR): //; s/(AddressSanitizer|LeakSanitizer|libFuzzer): //;
    s/runtime error: /ubsan /; s/lossless print differs from the input/lossless-mismatch/;
    s/canonical output does not parse/canonical-does-not-parse/;
    s/canonical form is not a fixed point/canonical-not-fixed-point/;
    s/detected memory leaks/leak/; s/out-of-memory.*/oom/; s/[^a-z0-9]+/-/g; s/-+$//' | cut -c1-48
}

new=0 dup=0 fixedn=0
declare -A known=()
# Failures that a saved regression still shows are not new.
for f in "$REGRESSIONS"/*.ptx; do
  [[ -e $f ]] || continue
  k=$(classify "$f")
  [[ $k == fixed ]] || { known[$k]=1; echo "   still failing: ${f#"$ROOT"/} ($k)"; }
done
while IFS= read -r -d '' a; do
  kind=$(classify "$a")
  if [[ $kind == fixed ]]; then fixedn=$((fixedn + 1)); continue; fi
  if [[ ${known[$kind]+x} ]]; then dup=$((dup + 1)); continue; fi
  min=$a
  case $(basename "$a") in
    crash-*|leak-*)
      if (( MINIMIZE_S > 0 )); then
        "$FUZZER" -minimize_crash=1 -max_total_time="$MINIMIZE_S" -timeout=10 -rss_limit_mb=2048 \
          -exact_artifact_path="$a.min" "$a" >"$a.min.log" 2>&1 || true
        [[ -s $a.min ]] && [[ $(classify "$a.min") == "$kind" ]] && min=$a.min
      fi ;;
  esac
  dest="$REGRESSIONS/$kind-$(sha1sum "$min" | cut -c1-8).ptx"
  cp "$min" "$dest"
  known[$kind]=1
  new=$((new + 1))
  echo "   new: ${dest#"$ROOT"/} ($(stat -c %s "$dest") bytes, from $(basename "$a"))"
done < <(find "$ARTIFACTS" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
           -o -name 'oom-*' -o -name 'slow-unit-*' \) ! -name '*.min*' -newer "$BUILD/build.log" -print0)

# ---- summary ---------------------------------------------------------------------
last=$(grep -E '^#[0-9]+' "$LOG" | tail -1 || true)
execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
echo "== summary"
echo "   fuzzed:      ${elapsed} s, ${execs:-?} executions ($(( ${execs:-0} / (elapsed > 0 ? elapsed : 1) )) exec/s), fuzzer exit status $rc"
echo "   last status: ${last:-none}"
echo "   corpus:      $(find "$CORPUS" -type f | wc -l) inputs"
echo "   findings:    $(( $(find "$ARTIFACTS" -type f ! -name '*.min*' | wc -l) - before )) new artifact(s) in ${ARTIFACTS#"$ROOT"/}:" \
     "$new new distinct, $dup duplicate(s) of known failures, $fixedn no longer failing"
echo "   regressions: $(find "$REGRESSIONS" -name '*.ptx' | wc -l) file(s) in ${REGRESSIONS#"$ROOT"/}"
(( new == 0 ))
