#!/usr/bin/env bash
# The launch hook's host-side cost (issue #16; docs/BENCHMARKS.md, "Launch
# hook cost"): bench/hook/hook_bench.cu built with nvcc and with ptx-nvcc,
# run as users time launches (host timer around launches + one synchronize).
#
#   scripts/bench/hook.sh prepare   # build the programs (needs nvcc, ptx-opt and the shim; no GPU)
#   scripts/bench/hook.sh run       # GPU: run them, print the table
#   scripts/bench/hook.sh           # both
#   scripts/bench/hook.sh cpu       # no GPU: the shim's own CPU time per launch (fake cudart)
#
# prepare builds into BINDIR (default build/bench-hook), all with
# `-O3 -arch=$ARCH`:
#   nvcc       plain nvcc
#   ptxnvcc    tools/ptx-nvcc (ptx-opt -O2, the shim linked; each clone in an
#              image of its own; a kernel's first launch runs the original;
#              also run with PTXOPT_FIRST_LAUNCH_CLONES=1: it may run a clone)
#   noshim     the same with --ptxopt-no-link-shim: the same device code and
#              hooked stubs, no shim (what the bigger fatbinary alone costs)
#   globals    ptx-nvcc keeping the __ptxopt_manifest_<kernel> globals in the
#              PTX (PTXOPT_NVCC_MANIFEST_GLOBALS=1; what they cost)
#   oneimage   ptx-nvcc --ptxopt-no-clone-images: the clones in the unit's
#              own image (the default before 2026-11-26)
#   baseline   ptx-nvcc linked with BASELINE_LIB, when set (another
#              libptxopt_nvcc.a, e.g. an older shim, for before/after)
# PTXOPT_BUILD: the build tree with ptx-opt, ptx-nvcc-cicc and
# runtime/libptxopt_nvcc.a (default build/; the targets are built when missing).
#
# run starts each program PROCS times (default 5; round robin over the
# programs), the ptx-nvcc ones also with PTXOPT_DISABLE=1, and writes
# $OUT/bench-hook.md (default OUT build-gpu/out) and the raw outputs in
# $OUT/bench-hook/. First launches: min and median over the processes; per
# launch: the smallest min and the median of the medians; the last columns
# are the medians' differences to nvcc's. Exit 77 without a GPU (nothing
# measured).
set -euo pipefail
. "$(dirname "$0")/../env.sh"
ARCH=${ARCH:-sm_90}
BINDIR=${BINDIR:-$ROOT/build/bench-hook}
OUT=${OUT:-$ROOT/build-gpu/out}
PROCS=${PROCS:-5}
export PTXOPT_BUILD=${PTXOPT_BUILD:-$ROOT/build}
PTXOPT_BUILD=$(abspath "$PTXOPT_BUILD")
BINDIR=$(abspath "$BINDIR")
step=${1:-all}
SRC=bench/hook/hook_bench.cu
FLAGS=(-O3 -arch="$ARCH")

prepare() {
  mkdir -p "$BINDIR"
  local need=()
  for f in ptx-opt ptx-nvcc-cicc runtime/libptxopt_nvcc.a; do [ -e "$PTXOPT_BUILD/$f" ] || need+=("$f"); done
  if [ ${#need[@]} -gt 0 ]; then
    echo "[bench-hook] building ptx-opt ptx-nvcc-cicc ptxopt_nvcc in $PTXOPT_BUILD (missing: ${need[*]})"
    cmake --build "$PTXOPT_BUILD" --target ptx-opt ptx-nvcc-cicc ptxopt_nvcc -j "$JOBS" >"$BINDIR/build.log" 2>&1
  fi
  local P=tools/ptx-nvcc pids=()
  nvcc "${FLAGS[@]}" "$SRC" -o "$BINDIR/nvcc" & pids+=($!)
  $P "${FLAGS[@]}" "$SRC" -o "$BINDIR/ptxnvcc" & pids+=($!)
  $P --ptxopt-no-link-shim "${FLAGS[@]}" "$SRC" -o "$BINDIR/noshim" & pids+=($!)
  PTXOPT_NVCC_MANIFEST_GLOBALS=1 $P "${FLAGS[@]}" "$SRC" -o "$BINDIR/globals" & pids+=($!)
  $P --ptxopt-no-clone-images "${FLAGS[@]}" "$SRC" -o "$BINDIR/oneimage" & pids+=($!)
  rm -f "$BINDIR/baseline"
  if [ -n "${BASELINE_LIB:-}" ]; then
    $P --ptxopt-lib="$BASELINE_LIB" "${FLAGS[@]}" "$SRC" -o "$BINDIR/baseline" & pids+=($!)
  fi
  local rc=0
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  [ $rc = 0 ] || { echo "[bench-hook] error: a build failed"; exit 2; }
  # the shim's launch hook defined (not the stub's weak reference)
  has_shim() { nm "$BINDIR/$1" >"$BINDIR/$1.nm" && grep -v ' w ' "$BINDIR/$1.nm" | grep -c ' __ptxopt_nvcc_launch$' >/dev/null; }
  local p
  for p in ptxnvcc globals oneimage $([ -e "$BINDIR/baseline" ] && echo baseline); do
    has_shim $p || { echo "[bench-hook] error: $p has no shim"; exit 2; }
  done
  if has_shim noshim; then echo "[bench-hook] error: noshim has the shim"; exit 2; fi
  rm -f "$BINDIR"/*.nm
  # the driver's cost of loading an image, by its content (load_cost.cpp):
  # the nvcc and the ptx-nvcc device image of hook_bench.cu (the clones in it:
  # with clone images the unit's image would be nvcc's)
  nvcc -O2 bench/hook/load_cost.cpp -o "$BINDIR/load_cost" -L"$CUDA_HOME/lib64/stubs" -lcuda
  nvcc "${FLAGS[@]}" -cubin "$SRC" -o "$BINDIR/nvcc.cubin"
  $P --ptxopt-no-clone-images "${FLAGS[@]}" -cubin "$SRC" -o "$BINDIR/ptxnvcc.cubin"
  echo "[bench-hook] built nvcc ptxnvcc noshim globals oneimage$([ -e "$BINDIR/baseline" ] && echo ' baseline') in $BINDIR"
}

run() {
  [ -x "$BINDIR/ptxnvcc" ] || { echo "[bench-hook] error: run 'prepare' first" >&2; exit 2; }
  local raw="$OUT/bench-hook"
  rm -rf "$raw" && mkdir -p "$raw"
  # config = program[:ENV=value]
  # HOOK_CPU=N: every process on core N (taskset), to take core-to-core
  # differences out; off by default (cudart's own threads share that core)
  PIN=()
  if [ -n "${HOOK_CPU:-}" ] && command -v taskset >/dev/null; then PIN=(taskset -c "$HOOK_CPU"); fi
  local configs=(nvcc ptxnvcc ptxnvcc:PTXOPT_DISABLE=1 ptxnvcc:PTXOPT_FIRST_LAUNCH_CLONES=1 noshim globals oneimage
                 oneimage:PTXOPT_DISABLE=1)
  [ -x "$BINDIR/baseline" ] && configs+=(baseline baseline:PTXOPT_DISABLE=1)
  for ((i = 0; i < PROCS; ++i)); do
    for c in "${configs[@]}"; do
      local prog=${c%%:*} env=() name=${c/:PTXOPT_DISABLE=1/-disable}
      name=${name/:PTXOPT_FIRST_LAUNCH_CLONES=1/-firstclone}
      [ "$prog" != "$c" ] && env=("${c#*:}")
      set +e
      env "${env[@]}" "${PIN[@]}" "$BINDIR/$prog" >"$raw/$name.$i.txt" 2>&1
      local rc=$?
      set -e
      if [ $rc = 77 ]; then echo "[bench-hook] SKIPPED: no CUDA device (nothing measured)"; exit 77; fi
      [ $rc = 0 ] || { echo "[bench-hook] error: $name exit $rc:"; tail -5 "$raw/$name.$i.txt"; exit 1; }
    done
  done
  for m in LAZY EAGER; do
    for ((i = 0; i < PROCS; ++i)); do
      CUDA_MODULE_LOADING=$m "$BINDIR/load_cost" 20 _Z12count_blocksPi "$BINDIR/$([ $((i % 2)) = 0 ] && echo nvcc || echo ptxnvcc).cubin" \
        "$BINDIR/$([ $((i % 2)) = 0 ] && echo ptxnvcc || echo nvcc).cubin" >"$raw/load_$m.$i.txt" 2>&1 || true
    done
  done
  {
    echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1);" \
      "$(nvcc --version | tail -1); $(date -u '+%Y-%m-%d %H:%M UTC'); $PROCS processes per program"
  } >"$raw/about.txt"
  python3 - "$raw" "$OUT/bench-hook.md" "${configs[@]}" <<'EOF'
import glob, os, statistics, sys
raw, md_path, configs = sys.argv[1], sys.argv[2], sys.argv[3:]
names = [c.replace(":PTXOPT_DISABLE=1", "-disable").replace(":PTXOPT_FIRST_LAUNCH_CLONES=1", "-firstclone") for c in configs]
label = {"nvcc": "nvcc", "ptxnvcc": "ptx-nvcc", "ptxnvcc-disable": "ptx-nvcc, PTXOPT_DISABLE=1",
         "ptxnvcc-firstclone": "ptx-nvcc, PTXOPT_FIRST_LAUNCH_CLONES=1",
         "oneimage": "ptx-nvcc --ptxopt-no-clone-images", "oneimage-disable": "one image, PTXOPT_DISABLE=1",
         "noshim": "ptx-nvcc, no shim", "globals": "ptx-nvcc, manifest globals kept",
         "baseline": "ptx-nvcc, baseline shim", "baseline-disable": "baseline, PTXOPT_DISABLE=1"}
data, variants = {}, {}
for n in names:
    runs = []
    for f in sorted(glob.glob(os.path.join(raw, n + ".*.txt"))):
        d = {}
        for line in open(f):
            p = line.split()
            if not p:
                continue
            if p[0] == "variant":
                variants.setdefault(p[1], {})[n] = p[2]
                continue
            try:
                d[p[0]] = [float(x) for x in p[1:]]
            except ValueError:
                pass
        runs.append(d)
    data[n] = runs
rows = [  # (key, description, kind): kind "first" = one value per process, "per" = (count,) min, median
    ("init", "`cudaFree(0)`: cudart's start and the context (us)", "first"),
    ("first_clones", "first launch + sync, kernel with clones, `<<<8,32>>>` (us)", "first"),
    ("first_plain", "then first launch + sync, kernel without clones (us)", "first"),
    ("same_clones", "same shape `<<<8,32>>>`, kernel with clones, per launch (us)", "per"),
    ("same_clones_big", "same shape `<<<512,256>>>`, kernel with clones, per launch (us)", "per"),
    ("same_plain", "same shape `<<<8,32>>>`, kernel without clones, per launch (us)", "per"),
    ("same_clones_stream", "same shape `<<<8,32,0,stream>>>` (a created stream), with clones, per launch (us)", "per"),
    ("same_plain_stream", "same shape `<<<8,32,0,stream>>>`, without clones, per launch (us)", "per"),
    ("submit_same_clones", "...host submit only, `<<<8,32>>>` with clones, per launch (us)", "per"),
    ("submit_same_clones_big", "...host submit only, `<<<512,256>>>` with clones, per launch (us)", "per"),
    ("submit_same_plain", "...host submit only, without clones, per launch (us)", "per"),
    ("host_same_clones", "...host only (batches of 100, queue never full), `<<<8,32>>>` with clones (us)", "per"),
    ("host_same_clones_big", "...host only, `<<<512,256>>>` with clones (us)", "per"),
    ("host_same_plain", "...host only, without clones (us)", "per"),
    ("host_same_clones_stream", "...host only, `<<<8,32,0,stream>>>` with clones (us)", "per"),
    ("host_same_plain_stream", "...host only, `<<<8,32,0,stream>>>` without clones (us)", "per"),
    ("shapes_first", "4096 distinct shapes, first time, per launch (us)", "once"),
    ("shapes_again", "the same 4096 shapes again, per launch (us)", "per"),
    ("peek", "one `cudaPeekAtLastError` (us)", "per"),
    ("capturing", "one `cudaStreamIsCapturing` on a created stream (us)", "per"),
]
def cell(n, key, kind):
    vals = [r[key] for r in data[n] if key in r]
    if not vals:
        return None, "-"
    if kind == "first":
        xs = [v[0] for v in vals]
        return statistics.median(xs), "%.1f / %.1f" % (min(xs), statistics.median(xs))
    if kind == "once":
        xs = [v[1] for v in vals]
        return statistics.median(xs), "%.2f / %.2f" % (min(xs), statistics.median(xs))
    mins = [v[-2] for v in vals]
    meds = [v[-1] for v in vals]
    fmt = "%.3f / %.3f" if key not in ("peek", "capturing") else "%.4f / %.4f"
    return statistics.median(meds), fmt % (min(mins), statistics.median(meds))
out = []
out.append(open(os.path.join(raw, "about.txt")).read().strip() + "; cells: min / median")
out.append("")
deltas = [d for d in ("ptxnvcc", "ptxnvcc-disable", "ptxnvcc-firstclone", "oneimage", "oneimage-disable", "baseline",
                     "baseline-disable")
          if d in names]
out.append("| | " + " | ".join(label.get(n, n) for n in names) + " | " +
           " | ".join("%s - nvcc" % label.get(d, d) for d in deltas) + " |")
out.append("|---|" + "---:|" * (len(names) + len(deltas)))
for key, desc, kind in rows:
    cells, meds = [], {}
    for n in names:
        m, text = cell(n, key, kind)
        meds[n] = m
        cells.append(text)
    ds = []
    for d in deltas:
        ok = meds.get("nvcc") is not None and meds.get(d) is not None and key not in ("peek", "capturing")
        ds.append("%+.2f" % (meds[d] - meds["nvcc"]) if ok else "-")
    out.append("| %s | %s | %s |" % (desc, " | ".join(cells), " | ".join(ds)))
out.append("")
for row, vs in variants.items():
    out.append("- `%s` ran: %s" % (row, ", ".join("%s: `%s`" % (label.get(n, n), v) for n, v in vs.items() if v != "-")
                                  or "the original (no shim)"))
loads = {}  # (mode, image, "cold"/"warm", step) -> values
for f in glob.glob(os.path.join(raw, "load_*.txt")):
    mode = os.path.basename(f).split(".")[0][5:]
    for line in open(f):
        p = line.split()
        if not p or p[0] not in ("cold", "image"):
            continue
        img = os.path.basename(p[1]).replace(".cubin", "")
        kv, key = {}, None
        for t in p[2:]:  # "key value" (cold) or "key min median" (warm): the last value
            try:
                kv[key] = float(t)
            except ValueError:
                key = t
        for step in ("load", "first"):
            if step in kv:
                loads.setdefault((mode, img, "warm" if p[0] == "image" else "cold", step), []).append(kv[step])
if loads:
    out.append("")
    out.append("Loading the device image with the driver (`load_cost`, `cuLibraryLoadData`, then the first launch + "
               "synchronize of a kernel of it), us, median over the processes (cold: the process's first load; "
               "warm: median of 20 loads):")
    out.append("")
    out.append("| CUDA_MODULE_LOADING | image | cold load | cold first launch | warm load | warm first launch |")
    out.append("|---|---|---:|---:|---:|---:|")
    for mode in ("LAZY", "EAGER"):
        for img in ("nvcc", "ptxnvcc"):
            cells = []
            for kind in ("cold", "warm"):
                for step in ("load", "first"):
                    v = loads.get((mode, img, kind, step))
                    cells.append("%.1f" % statistics.median(v) if v else "-")
            out.append("| %s | %s | %s |" % (mode, label.get(img, img), " | ".join(cells)))
text = "\n".join(out) + "\n"
open(md_path, "w").write(text)
print(text)
EOF
}

# The shim's own CPU time per launch, no GPU (bench/hook/shim_cpu.cpp): this
# tree's shim and, with BASELINE_LIB, the other one, on the manifest ptx-opt
# gives hook_bench.cu's Fig. 6-a kernel. Table in $OUT/bench-hook-cpu.md.
cpu() {
  mkdir -p "$BINDIR" "$OUT"
  [ -e "$PTXOPT_BUILD/runtime/libptxopt_nvcc.a" ] ||
    cmake --build "$PTXOPT_BUILD" --target ptx-opt ptx-nvcc-cicc ptxopt_nvcc -j "$JOBS" >"$BINDIR/build.log" 2>&1
  # The PTX with the clones and the manifest line: the unit's own image's
  # (with clone images, the default, the kept .ptx is nvcc's).
  tools/ptx-nvcc -arch="$ARCH" --ptxopt-no-clone-images -ptx "$SRC" -o "$BINDIR/hook_bench.ptx"
  local libs=("this:$PTXOPT_BUILD/runtime/libptxopt_nvcc.a") l
  [ -n "${BASELINE_LIB:-}" ] && libs+=("baseline:$BASELINE_LIB")
  for l in "${libs[@]}"; do
    g++ -O2 -std=c++20 -Iinclude -isystem "$CUDA_HOME/include" bench/hook/shim_cpu.cpp "${l#*:}" \
      -o "$BINDIR/shim_cpu_${l%%:*}" -lpthread
    "$BINDIR/shim_cpu_${l%%:*}" "$BINDIR/hook_bench.ptx" _Z10matadd_intPKiS0_Pi >"$BINDIR/shim_cpu_${l%%:*}.txt" 2>/dev/null
  done
  python3 - "$BINDIR" "$OUT/bench-hook-cpu.md" "${libs[@]%%:*}" <<'EOF'
import sys
d, md, names = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = [("direct", "the fake launch called directly"), ("plain", "hooked launch, kernel without clones"),
        ("cached_8x32", "kernel with clones, cached shape `<<<8,32>>>`"),
        ("cached_512x256", "kernel with clones, cached shape `<<<512,256>>>`"),
        ("cached_original", "kernel with clones, cached shape every clone refuses"),
        ("new_shapes", "kernel with clones, 4096 new shapes, per launch"),
        ("first_launch", "a kernel's first launch (fake cudart answers at once)"),
        ("cold_first_launch", "a kernel's handle and first launch `<<<8,32>>>`, 256 MB written since its registration (cold caches)")]
vals, var = {}, {}
for n in names:
    for line in open("%s/shim_cpu_%s.txt" % (d, n)):
        p = line.split()
        if p[0] == "variant":
            var[p[1]] = p[2]
        else:
            vals[(n, p[0])] = "%s / %s" % (p[1], p[2])
out = ["| ns per launch (min / median) | " + " | ".join(names) + " | runs |", "|---|" + "---:|" * len(names) + "---|"]
for k, desc in rows:
    out.append("| %s | %s | %s |" % (desc, " | ".join(vals.get((n, k), "-") for n in names), "`%s`" % var[k] if k in var else ""))
text = "\n".join(out) + "\n"
open(md, "w").write(text)
print(text)
EOF
}

case $step in
  cpu) cpu ;;
  prepare) prepare ;;
  run) run ;;
  all) prepare && run ;;
  *) echo "usage: $0 [prepare|run|cpu]"; exit 2 ;;
esac
