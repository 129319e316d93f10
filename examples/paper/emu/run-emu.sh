#!/usr/bin/env bash
# Runs every program of examples/paper on the CPU (emu.h): each .cu is
# compiled by g++ after its `k<<<g, b>>>(args)` launches are rewritten into
# `emu::launch(g, b, "k", k, args)`, then run with --small: every variant
# (naive and hand) must match the example's own CPU reference. No GPU needed;
# this checks the kernels' index arithmetic and the checks themselves.
#
#   examples/paper/emu/run-emu.sh [BUILD_DIR] [example...]   (default build-examples/emu, all)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PAPER=$(dirname "$HERE")
ROOT=$(cd "$PAPER/../.." && pwd)
BUILD=${1:-$ROOT/build-examples/emu}
shift || true
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
CXX=${CXX:-g++}
EXAMPLES=${*:-matadd32 matadd8 dct sobel rotate1 rotate2 rowsum aos}
# Kernels that synchronise threads: they run as coroutines.
SYNC=dct_hand_paper,dct_hand_best,rowsum_hand_paper,rowsum_hand_best
mkdir -p "$BUILD"
fail=0
for ex in $EXAMPLES; do
  python3 - "$PAPER/$ex.cu" "$BUILD/$ex.cpp" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
out = re.sub(r"(\w+)<<<(.*?)>>>\(", lambda m: 'emu::launch(%s, "%s", %s, ' % (m.group(2), m.group(1), m.group(1)), src, flags=re.S)
open(sys.argv[2], "w").write('#line 1 "%s"\n' % sys.argv[1] + out)
PY
  "$CXX" -std=c++20 -O2 -DEX_EMU -DEMU_SYNC="\"$SYNC\"" -I"$PAPER" -I"$ROOT/include" -isystem "$CUDA_HOME/include" \
    -w "$BUILD/$ex.cpp" -o "$BUILD/$ex"
  if out=$("$BUILD/$ex" --small --reps 1 --warmup 0 2>&1); then
    printf '%s\n' "$out" | grep '^RESULT' | sed 's/ ms=.*ok=/ ok=/'
  else
    printf '%s\n' "$out"
    echo "FAIL: $ex"
    fail=1
  fi
done
exit $fail
