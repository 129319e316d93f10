#!/usr/bin/env bash
# Which clone of the paper's naive Sobel pays at 1920 x 1080 in the program's
# 32 x 8 blocks (issue #18; docs/BENCHMARKS.md, "Sobel at 1920 x 1080"): the
# measurement behind the launch floor of the small-launch clone in
# src/transforms/Group.cpp.
#
#   scripts/bench/sobel-small.sh prepare   # build machine: nvcc -ptx, ptx-opt variants
#   scripts/bench/sobel-small.sh run       # GPU machine: build the runner, run, table
#   scripts/bench/sobel-small.sh           # both
#
# prepare: nvcc -ptx of examples/paper/sobel.cu, then ptx-opt -O2, -O2
#   --group-k=4 and -O2 --group-k=8, into PTXDIR (default build/sobel-small),
#   and the spec (bench/sobel-small/variants.spec, paths rewritten into
#   PTXDIR), plus hand-edited variants of the --group-k=4 clones
#   (bench/sobel-small/edit_variants.py; EDITED=0 none, =all all, default
#   x_cmp and x_cmp_part). EXTRA_SPEC: more spec lines (paths as given).
# run: nvcc builds bench/sobel-small/sobel_small.cpp (-lcuda), runs every
#   variant against the naive kernel at SIZES (default: 1024x1024 ... 8192x8192),
#   writes $OUT/sobel-small.csv and sobel-small.md; and, where cuobjdump is
#   found, the SASS of the modules (sobel-small.sass). Exit 77 without a GPU.
set -euo pipefail
. "$(dirname "$0")/../env.sh"
ARCH=${ARCH:-sm_90}
PTXDIR=${PTXDIR:-$ROOT/build/sobel-small}
OUT=${OUT:-$ROOT/build-gpu/out}
SIZES=${SIZES:-"1024x1024 1440x1080 1920x1080 2048x1024 2048x2048 4096x4096 8192x8192"}
RUNS=${RUNS:-101}
step=${1:-all}

prepare() {
  mkdir -p "$PTXDIR"
  nvcc -arch="$ARCH" -ptx -O3 -std=c++17 -Iinclude examples/paper/sobel.cu -o "$PTXDIR/sobel.ptx"
  "$PTXOPT" -O2 "$PTXDIR/sobel.ptx" -o "$PTXDIR/sobel.o2.ptx"
  "$PTXOPT" -O2 --group-k=4 "$PTXDIR/sobel.ptx" -o "$PTXDIR/sobel.k4.ptx"
  "$PTXOPT" -O2 --group-k=8 "$PTXDIR/sobel.ptx" -o "$PTXDIR/sobel.k8.ptx"
  sed "s|@DIR@|$PTXDIR|g" bench/sobel-small/variants.spec >"$PTXDIR/variants.spec"
  # The hand-edited variants of the --group-k=4 clones (bench/sobel-small/
  # edit_variants.py): x_cmp and x_cmp_part by default, EDITED=all for all, 0 for none.
  if [ "${EDITED:-1}" != 0 ]; then
    if python3 bench/sobel-small/edit_variants.py "$PTXDIR/sobel.k4.ptx" "$PTXDIR/sobel.edited.ptx" \
         "$PTXDIR/edited.spec"; then
      if [ "${EDITED:-1}" = all ]; then cat "$PTXDIR/edited.spec"; else grep -E '^x_cmp(_part)? ' "$PTXDIR/edited.spec"; fi \
        >>"$PTXDIR/variants.spec"
    else
      echo "[sobel-small] note: the edits no longer apply to this ptx-opt's --group-k=4 clones; measuring without them"
    fi
  fi
  if [ -n "${EXTRA_SPEC:-}" ]; then cat "$EXTRA_SPEC" >>"$PTXDIR/variants.spec"; fi
  grep -ho '\.entry sobel_naive[A-Za-z0-9_]*' "$PTXDIR"/sobel.{o2,k4,k8}.ptx | sort | uniq -c | sed 's/^/[sobel-small] /'
}

run() {
  [ -e "$PTXDIR/variants.spec" ] || { echo "[sobel-small] error: run 'prepare' first" >&2; exit 2; }
  mkdir -p "$OUT"
  nvcc -O2 -std=c++17 bench/sobel-small/sobel_small.cpp bench/common/driver.cpp -o "$PTXDIR/sobel_small" -lcuda
  set +e
  # shellcheck disable=SC2086
  "$PTXDIR/sobel_small" --runs "$RUNS" "$PTXDIR/variants.spec" $SIZES >"$OUT/sobel-small.csv" \
    2> >(tee "$OUT/sobel-small.log" >&2)
  rc=$?
  set -e
  if [ $rc = 77 ]; then echo "[sobel-small] SKIPPED: no CUDA device (nothing measured)"; exit 77; fi
  python3 - "$OUT/sobel-small.csv" "$OUT/sobel-small.md" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with open(sys.argv[2], "w") as md:
    md.write("| variant | function | size | naive us | variant us | speed-up | result |\n|---|---|---|---:|---:|---:|---|\n")
    for r in rows:
        up = f"{float(r['speedup']):.2f}x" if r['speedup'] else ""
        md.write(f"| {r['label']} | {r['function']} | {r['size']} | {r['naive_us']} | {r['variant_us']} "
                 f"| {up} | {r['equal']} |\n")
print(open(sys.argv[2]).read())
PY
  if command -v cuobjdump >/dev/null; then
    for f in "$PTXDIR"/sobel.{o2,k4}.ptx; do
      ptxas -arch="$ARCH" -O3 "$f" -o "$f.cubin" && cuobjdump -sass "$f.cubin" >>"$OUT/sobel-small.sass" || true
    done
  fi
  return $rc
}

case "$step" in
  prepare) prepare ;;
  run) run ;;
  all) prepare && run ;;
  *) echo "usage: $0 [prepare|run]" >&2; exit 2 ;;
esac
