#!/usr/bin/env bash
# The main job on the bundled example (examples/matadd: the paper's matrix
# add): set up and build, optimize the PTX (remarks), show the analysis
# report, check the output with ptxas, and run it through libptxopt on a GPU
# when one is present.
#
#   scripts/demo.sh [file.ptx]     (default: examples/matadd/matadd.ptx)
set -euo pipefail
. "$(dirname "$0")/env.sh"
scripts/setup.sh build >/dev/null
IN=${1:-examples/matadd/matadd.ptx}
OUT=build/demo
mkdir -p "$OUT"
name=$(basename "$IN" .ptx)

echo "== ptx-opt on $IN, no passes: parse, verify, print"
build/ptx-opt --verify --stats --time-passes "$IN" -o "$OUT/$name.out.ptx"
if cmp -s "$IN" "$OUT/$name.out.ptx"; then
  echo "output: $OUT/$name.out.ptx (identical to the input, byte for byte)"
else
  echo "output: $OUT/$name.out.ptx (differs from the input: diff $IN $OUT/$name.out.ptx)"
fi

echo
echo "== the passes: coalesce, group, pack (ptx-opt -O2 --remarks)"
build/ptx-opt -O2 --remarks "$IN" -o "$OUT/$name.O2.ptx" 2>&1 | sed 's/^/  /'
echo "optimized module: $OUT/$name.O2.ptx ($(grep -c '__ptxopt_.*($' "$OUT/$name.O2.ptx" || true) clone kernels added)"

echo
echo "== what the analysis sees (ptx-opt --analyze)"
build/ptx-opt --analyze "$IN" -o "$OUT/$name.analysis.txt"
cat "$OUT/$name.analysis.txt"
build/ptx-opt --analyze=json "$IN" -o "$OUT/$name.analysis.json"
echo "(JSON: $OUT/$name.analysis.json)"

build/ptx-opt --canonicalize "$IN" -o "$OUT/$name.canon.ptx"

echo
echo "== ptxas on the input, its canonical form, and the optimized module"
if command -v ptxas >/dev/null; then
  arch=$(sed -n 's/^[[:space:]]*\.target[[:space:]]*\([a-z0-9_]*\).*/\1/p' "$IN" | head -1)
  mkdir -p "$OUT/a" "$OUT/b"
  cp "$IN" "$OUT/a/k.ptx"
  cp "$OUT/$name.canon.ptx" "$OUT/b/k.ptx"
  (cd "$OUT/a" && ptxas -arch="$arch" k.ptx -o k.cubin)
  (cd "$OUT/b" && ptxas -arch="$arch" k.ptx -o k.cubin)
  python3 tools/cubin-diff.py "$OUT/a/k.cubin" "$OUT/b/k.cubin" && echo "ptxas -arch=$arch: equivalent cubins"
  ptxas -arch="$arch" "$OUT/$name.O2.ptx" -o "$OUT/$name.O2.cubin" && echo "ptxas -arch=$arch accepts the optimized module"
else
  echo "skipped: no ptxas on PATH"
fi

echo
echo "== on the GPU (examples/jit: the matrix add through libptxopt)"
if have_gpu; then
  nvidia-smi -L
  if cmake --build build --target jit-matadd >/dev/null 2>&1 && [ -x build/examples/jit/jit-matadd ]; then
    echo "optimized:        $(build/examples/jit/jit-matadd 2>&1)"
    echo "PTXOPT_DISABLE=1: $(PTXOPT_DISABLE=1 build/examples/jit/jit-matadd 2>&1)"
  else
    echo "examples/jit was not built (needs the CUDA toolkit's headers and cudart)"
  fi
  echo "the whole GPU suite: scripts/gpu-suite.sh (docs/RUNTIME.md)"
else
  echo "no GPU on this machine: skipped (the same example runs with scripts/gpu-suite.sh on a GPU machine)"
fi
