#!/usr/bin/env bash
# ptx-nvcc's tests (docs/NVCC.md, "Tests"), no GPU needed:
#
#   tests/nvcc/nvcc-tests.sh <case>     PTXOPT_BUILD=<build dir> (ptx-opt, runtime/libptxopt_nvcc.a;
#                                       default build-nvcc/ where it exists, else build/)
#
# Each case builds with tools/ptx-nvcc (and, where outputs are compared,
# with plain nvcc) in a fresh temporary directory and checks what went in:
# the kept .ptx, nm of objects and programs, the embedded fatbinary, and the
# launches of programs linked with tests/nvcc/fake_cudart.cpp (a CUDA runtime
# stand-in that prints which kernel each launch ran). Exit 0 pass, 1 fail,
# 77 skipped (no nvcc).
set -uo pipefail
CASE=${1:?usage: nvcc-tests.sh <case>}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# Default: build-nvcc/ where it exists, else build/ (what scripts/setup.sh makes).
if [ -z "${PTXOPT_BUILD:-}" ]; then
  PTXOPT_BUILD=$ROOT/build
  [ -d "$ROOT/build-nvcc" ] && PTXOPT_BUILD=$ROOT/build-nvcc
fi
export PTXOPT_BUILD
PTXOPT_BUILD=$(cd "$PTXOPT_BUILD" && pwd)
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH="$CUDA_HOME/bin:$PATH"
PNVCC="$ROOT/tools/ptx-nvcc"
MATADD="$ROOT/examples/matadd"
ARCH=${PTXOPT_NVCC_TEST_ARCH:-sm_90}
# Every case runs with the flags a user gets by default (the -O2 pipeline,
# the clones in the unit's image); PTXOPT_NVCC_TEST_FLAGS adds a flag set
# to every ptx-nvcc call (the images case tests --ptxopt-clone-images).
# Checks that name what a pass decides pin the
# pipeline for that call alone ($COALESCE), in addition to the defaults.
export PTXOPT_NVCC_FLAGS=${PTXOPT_NVCC_TEST_FLAGS:-}
COALESCE=--ptxopt-passes=coalesce
# Checks of the unit's own PTX, cubin or embedded PTX ask for the clones in
# the unit's image ($UNIT); by default they are in images of their own.
UNIT=--ptxopt-no-clone-images
# The programs run as under CUDA_MODULE_LOADING=EAGER, where every launch
# chooses (a clone image is loaded at start-up); under lazy loading, CUDA's
# default, a clone image waits until its load pays (NvccShim.cpp,
# imageLoadPays): the launch and images cases check that with
# `env -u CUDA_MODULE_LOADING`.
export CUDA_MODULE_LOADING=EAGER
# The ccache cases need a working ccache whatever the caller set.
unset CCACHE_DISABLE

if ! command -v nvcc >/dev/null; then
  echo "skipped: nvcc not found (CUDA_HOME=$CUDA_HOME)"
  exit 77
fi
for f in "$PTXOPT_BUILD/ptx-opt" "$PTXOPT_BUILD/ptx-nvcc-cicc" "$PTXOPT_BUILD/runtime/libptxopt_nvcc.a"; do
  [ -e "$f" ] || { echo "FAIL: $f missing (build the targets ptx-opt, ptx-nvcc-cicc and ptxopt_nvcc)"; exit 1; }
done

W=$(mktemp -d "${TMPDIR:-/tmp}/nvcc-test.$CASE.XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
FAILS=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
check() { # check "what" command...
  local what=$1; shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}
run() { # run <log> command...: runs, logs, returns the command's status
  local log=$1; shift
  echo "+ $*" >>"$log"
  "$@" >>"$log" 2>&1
}
show() { sed 's/^/    | /' "$1" | tail -n "${2:-30}"; }

SWAP='_Z10matadd_intPKiS0_Pi__ptxopt_swap'

# A test program: matadd.cu unmodified, launched at shapes that choose
# different variants (tests/nvcc/launches.cu).
fake_build() { # fake_build <out> [flags...]
  local out=$1; shift
  run build.log "$PNVCC" -arch=$ARCH -cudart none -I"$MATADD" "$@" "$HERE/launches.cu" "$HERE/fake_cudart.cpp" -o "$out"
}

case $CASE in

objects)
  # -c: an object whose stub carries the hook (weak references, the
  # manifest); a translation unit without clones gets no hook at all.
  # threads that communicate through shared memory: no pass clones it
  printf '__global__ void k(int *o) { __shared__ int s[64]; s[threadIdx.x] = threadIdx.x; __syncthreads();\n  o[blockIdx.x * blockDim.x + threadIdx.x] = s[63 - threadIdx.x]; }\n' >plain.cu
  check "ptx-nvcc -c matadd.cu" run build.log "$PNVCC" -arch=$ARCH -c "$MATADD/matadd.cu" -o m.o
  check "object has weak hooks" grep -q ' w __ptxopt_nvcc_launch$' <(nm m.o)
  check "object has the manifest" grep -q '__ptxopt_nvcc_manifest' <(nm m.o)
  check "object still calls cudart" grep -q ' U __cudaLaunchKernel$' <(nm m.o)
  check "ptx-nvcc -c (a kernel without clones)" run build.log "$PNVCC" -arch=$ARCH -c plain.cu -o p.o
  check "no hook without clones" test "$(nm p.o | grep -c ptxopt)" = 0
  check "plain nvcc object has no hook" bash -c "nvcc -arch=$ARCH -c '$MATADD/matadd.cu' -o n.o && ! nm n.o | grep -q ptxopt"
  # a program linked by g++ without the shim still links (weak references)
  check "g++ links a hooked object without the shim" \
    run build.log g++ m.o -x c++ - -o nolib -L"$CUDA_HOME/lib64" -lcudart_static -ldl -lpthread -lrt <<<'int main() { return 0; }'
  check "...and the hook is unresolved there" grep -q ' w __ptxopt_nvcc_launch$' <(nm nolib)
  ;;

keep)
  # --keep: the kept .ptx is the optimized one (clones, the manifest comment;
  # no manifest globals unless asked);
  # the kept stub carries the hook; the fatbinary embeds the same PTX.
  mkdir k
  check "ptx-nvcc --keep" run build.log "$PNVCC" $UNIT -arch=$ARCH --keep --keep-dir k -Xfatbin --compress-mode=none \
    -I"$MATADD" "$HERE/launches.cu" -o prog
  check "kept .ptx has the swap clone" grep -q "^.visible .entry $SWAP(" k/launches.ptx
  check "kept .ptx has the manifest comment" grep -q '^// @ptxopt-manifest ' k/launches.ptx
  check "kept .ptx has no manifest globals (the stub carries the manifest)" \
    bash -c "! grep -q '__ptxopt_manifest_' k/launches.ptx"
  mkdir kg
  check "PTXOPT_NVCC_MANIFEST_GLOBALS=1 keeps them" env PTXOPT_NVCC_MANIFEST_GLOBALS=1 \
    "$PNVCC" $UNIT -arch=$ARCH --keep --keep-dir kg -I"$MATADD" "$HERE/launches.cu" -o prog2
  check "...in the kept .ptx" grep -q '__ptxopt_manifest__Z10matadd_intPKiS0_Pi\[' kg/launches.ptx
  check "kept .ptx keeps the original" grep -q '^.visible .entry _Z10matadd_intPKiS0_Pi(' k/launches.ptx
  check "kept cubin came from that .ptx" grep -qa "$SWAP" k/launches.sm_90.cubin
  check "kept stub has the hook" grep -q 'ptx-opt hook begin' k/launches.cudafe1.stub.c
  objcopy -O binary --only-section=.nv_fatbin prog fatbin.bin 2>>build.log
  check "embedded PTX has the clone" grep -qa ".entry $SWAP" fatbin.bin
  check "program has the shim" grep -q ' __ptxopt_nvcc_launch$' <(nm prog | grep -v ' w ')
  ;;

gencode)
  # two -gencode targets, SASS and PTX, compiled in parallel (--threads): each .ptx optimized, the hook in the
  # stub the host file includes, and the program launches the clones.
  mkdir k
  check "ptx-nvcc -gencode sm_80 + compute_90 --threads 2" fake_build prog $UNIT --keep --keep-dir k --threads 2 \
    -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90
  check "compute_80 .ptx has clones" grep -q "^.visible .entry $SWAP(" k/launches.compute_80.ptx
  check "compute_90 .ptx has clones" grep -q "^.visible .entry $SWAP(" k/launches.compute_90.ptx
  inc=$(sed -n 's/^#include "\(.*stub.c\)"$/\1/p' k/launches.compute_*.cudafe1.cpp k/launches.cudafe1.cpp 2>/dev/null | head -1)
  check "included stub ($inc) has the hook" grep -q 'ptx-opt hook begin' "k/$inc"
  ./prog >run.log 2>&1
  check "program launches the swap clone" grep -q "launch $SWAP grid=(256,1,1) block=(512,1,1)" run.log
  # clones for one target only: no hook (a clone must exist in every image)
  mkdir k2
  REAL_PTXOPT="$PTXOPT_BUILD/ptx-opt" fake_build prog2 $UNIT --keep --keep-dir k2 --ptxopt-bin="$HERE/arch-dependent-ptx-opt.sh" \
    -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90
  check "targets with different clones: a warning" grep -q 'ptx-nvcc: warning: the targets of .* got different clones; none is used' build.log
  check "...compute_80 .ptx has clones, compute_90 none" bash -c "grep -q '$SWAP' k2/launches.compute_80.ptx && ! grep -q '$SWAP' k2/launches.compute_90.ptx"
  check "...no stub has the hook" bash -c "! grep -q 'ptx-opt hook begin' k2/*.stub.c"
  ./prog2 >run2.log 2>&1
  check "...the program runs the originals" bash -c "grep -q 'launch _Z10matadd_intPKiS0_Pi grid=(512,1,1)' run2.log && ! grep -q __ptxopt run2.log"
  ;;

lineinfo-debug)
  # -lineinfo: optimized, line info kept. -G: left as nvcc made it (same
  # .ptx bytes as plain nvcc's), no hook.
  mkdir k g n
  check "ptx-nvcc -lineinfo" run build.log "$PNVCC" $UNIT -arch=$ARCH -lineinfo --keep --keep-dir k -c "$MATADD/matadd.cu" -o l.o
  check "-lineinfo .ptx has clones" grep -q "^.visible .entry $SWAP(" k/matadd.ptx
  check "-lineinfo .ptx has .loc" grep -q '^\s*.loc' k/matadd.ptx
  check "ptx-nvcc -G" run build.log "$PNVCC" -arch=$ARCH -G --keep --keep-dir g -c "$MATADD/matadd.cu" -o g.o
  check "nvcc -G" run build.log nvcc -arch=$ARCH -G --keep --keep-dir n -c "$MATADD/matadd.cu" -o n.o
  check "-G .ptx is nvcc's, byte for byte" cmp g/matadd.ptx n/matadd.ptx
  check "-G object has no hook" test "$(nm g.o | grep -c ptxopt)" = 0
  check "ptx-nvcc -G --ptxopt-debug-builds builds" run build.log "$PNVCC" --ptxopt-debug-builds -arch=$ARCH -G -c "$MATADD/matadd.cu" -o gd.o
  ;;

rdc)
  # -rdc=true: separate compilation, device link by nvcc (-dlink) and by the
  # full nvcc link; the hooked kernel runs its clone.
  cat >a.cu <<'EOF'
#include "matadd.cu"
void launch_a(int *p) { matadd_int<<<512, 256>>>(p, p, p); }
EOF
  cat >b.cu <<'EOF'
#include <cstdio>
__device__ int twice(int x);
void launch_a(int *p);
__global__ void uses_extern(int *o) { o[blockIdx.x * blockDim.x + threadIdx.x] = twice(threadIdx.x); }
int main() { launch_a((int *)0x100000); uses_extern<<<2, 32>>>((int *)0x100000); std::printf("done\n"); }
EOF
  printf '__device__ int twice(int x) { return 2 * x; }\n' >c.cu
  for f in a b c; do
    check "ptx-nvcc -rdc=true -c $f.cu" run build.log "$PNVCC" -rdc=true -arch=$ARCH -I"$MATADD" -c $f.cu -o $f.o
  done
  check "a.o is hooked" grep -q ' w __ptxopt_nvcc_launch$' <(nm a.o)
  check "ptx-nvcc -rdc=true link (static cudart)" run build.log "$PNVCC" -rdc=true -arch=$ARCH a.o b.o c.o -o prog
  check "program has the shim" grep -q ' __ptxopt_nvcc_launch$' <(nm prog | grep -v ' w ')
  check "ptx-nvcc -dlink" run build.log "$PNVCC" -dlink -arch=$ARCH a.o b.o c.o -o dl.o
  check "fake cudart" run build.log g++ -c "$HERE/fake_cudart.cpp" -I"$CUDA_HOME/include" -o fake.o
  check "g++ link with libptxopt_nvcc.a" run build.log g++ a.o b.o c.o dl.o fake.o "$PTXOPT_BUILD/runtime/libptxopt_nvcc.a" -o fakeprog
  ./fakeprog >run.log 2>&1
  check "rdc program launches the clone" grep -q "launch $SWAP grid=(256,1,1) block=(512,1,1)" run.log
  check "rdc program launches the other kernel as is" grep -q "launch _Z11uses_externPi grid=(2,1,1) block=(32,1,1)" run.log
  # a template kernel instantiated in two translation units: .weak entries,
  # and their manifest globals, where kept, must not collide at the device link
  printf 'template <class T> __global__ void tadd(const T *a, const T *b, T *c) {\n  int i = threadIdx.x * gridDim.x + blockIdx.x; c[i] = a[i] + b[i]; }\n' >t.h
  printf '#include "t.h"\nvoid f1(int *p) { tadd<int><<<512, 256>>>(p, p, p); }\n' >t1.cu
  printf '#include "t.h"\n#include <cstdio>\nvoid f1(int *p);\nint main() { f1((int *)0x100000); tadd<int><<<512, 256>>>((int *)0x100000, 0, 0); std::printf("done\\n"); }\n' >t2.cu
  for f in t1 t2; do
    check "ptx-nvcc -rdc=true -c $f.cu (template, manifest globals kept)" run build.log \
      env PTXOPT_NVCC_MANIFEST_GLOBALS=1 "$PNVCC" -rdc=true -arch=$ARCH -cudart none -c $f.cu -o $f.o
  done
  check "template in two units: nvcc -dlink" run build.log "$PNVCC" -dlink -arch=$ARCH t1.o t2.o -o tdl.o
  check "...and the full -rdc link" run build.log "$PNVCC" -rdc=true -arch=$ARCH t1.o t2.o -o tprog
  check "...program" run build.log g++ t1.o t2.o tdl.o fake.o "$PTXOPT_BUILD/runtime/libptxopt_nvcc.a" -o tfake
  ./tfake >trun.log 2>&1
  check "...both units launch the clone" test "$(grep -c 'launch _Z4taddIiEvPKT_S2_PS0___ptxopt_swap grid=(256,1,1) block=(512,1,1)' trun.log)" = 2
  ;;

cudart-libs)
  # -cudart shared, a static library (-lib) and a shared library (-shared).
  printf '#include "matadd.cu"\nint main() { matadd_int<<<4, 256>>>(0, 0, 0); return 0; }\n' >main.cu
  check "ptx-nvcc -cudart shared" run build.log "$PNVCC" -arch=$ARCH -cudart shared -I"$MATADD" main.cu -o shared
  check "...links libcudart.so" grep -q 'libcudart.so' <(ldd shared)
  check "...has the shim" grep -q ' __ptxopt_nvcc_launch$' <(nm shared | grep -v ' w ')
  check "ptx-nvcc -cudart static (default)" run build.log "$PNVCC" -arch=$ARCH -I"$MATADD" main.cu -o static
  check "...no libcudart.so" bash -c "! ldd static | grep -q libcudart"
  check "...has the shim" grep -q ' __ptxopt_nvcc_launch$' <(nm static | grep -v ' w ')
  # The shim asks cudaStreamIsCapturing and cudaStreamGetCaptureInfo through
  # weak references (captures begun past its --wrap wrappers); CUDA 13's
  # static cudart is one archive member (cudart_static.o), which the
  # program's launches pull in, so both resolve and are called: a program
  # that never names them still gets them.
  check "...the capture queries are linked (not weak, not undefined)" \
    bash -c "nm static | grep -Eq ' [Tt] cudaStreamIsCapturing$' && nm static | grep -Eq ' [Tt] cudaStreamGetCaptureInfo$'"
  check "...and the shim calls them" \
    bash -c "objdump -d --no-show-raw-insn static | grep -q 'call.*<cudaStreamIsCapturing>'"
  printf '#include "matadd.cu"\nvoid run(int *p) { matadd_int<<<4, 256>>>(p, p, p); }\n' >lib.cu
  printf 'void run(int *);\nint main() { run(0); return 0; }\n' >use.cpp
  check "ptx-nvcc -lib" run build.log "$PNVCC" -lib -arch=$ARCH -I"$MATADD" lib.cu -o libm.a
  check "...archive member is hooked" grep -q ' w __ptxopt_nvcc_launch$' <(nm libm.a)
  check "ptx-nvcc links the archive" run build.log "$PNVCC" -arch=$ARCH use.cpp libm.a -o uselib
  check "...program has the shim" grep -q ' __ptxopt_nvcc_launch$' <(nm uselib | grep -v ' w ')
  check "ptx-nvcc -shared" run build.log "$PNVCC" -arch=$ARCH -shared -Xcompiler -fPIC -I"$MATADD" lib.cu -o libm.so
  check "...shared library has the shim" grep -q ' __ptxopt_nvcc_launch$' <(nm libm.so | grep -v ' w ')
  ;;

launch)
  # What runs: the fake cudart prints every launch. The default build
  # (-O2, the clones in the unit's image): every launch chooses, the first
  # included; the coalesce pipeline alone ($COALESCE) for the exact choices
  # of the swap, split and remap clones and the shim's paths.
  check "default build" fake_build progdef
  PTXOPT_LOG=1 ./progdef >def.log 2>deferr.log
  check "default: the program's first launch (matadd_int 512x256) runs the swap clone" \
    bash -c "grep 'fake-cudart: launch' def.log | head -1 | grep -q 'launch $SWAP grid=(256,1,1) block=(512,1,1)'"
  check "default: 65536x1024 -> split1024_group4" \
    grep -q 'launch _Z10matadd_intPKiS0_Pi__ptxopt_split1024_group4 grid=(64,1024,1) block=(256,1,1)' def.log
  check "default: 2000x1000 (under the group clones' 2^21 floor; swap's block of 2000 too large) -> remap" \
    grep -q 'launch _Z10matadd_intPKiS0_Pi__ptxopt_remap grid=(2000,1,1) block=(1000,1,1)' def.log
  check "default: a coalesced kernel's launch under the group clones' floor runs the original" \
    grep -q 'launch _Z20matadd_int_coalescedPKiS0_Pi grid=(512,1,1) block=(256,1,1)' def.log
  ./progdef >defq.log 2>/dev/null
  check "default: the same launches without PTXOPT_LOG" cmp def.log defq.log
  env -u CUDA_MODULE_LOADING PTXOPT_LOG=1 ./progdef >defl.log 2>deflerr.log
  check "default, lazy loading: the first launch waits for the clone image's load to pay (the original)" \
    bash -c "grep 'fake-cudart: launch' defl.log | head -1 | grep -q 'launch _Z10matadd_intPKiS0_Pi grid=(512,1,1)' &&
             grep -q 'waits until the estimated savings pay' deflerr.log"
  check "build ($COALESCE)" fake_build prog $COALESCE
  PTXOPT_LOG=1 ./prog >run.log 2>err.log
  check "512x256 -> swap" grep -q "launch $SWAP grid=(256,1,1) block=(512,1,1) shared=0$" run.log
  check "65536x1024 -> split" grep -q 'launch _Z10matadd_intPKiS0_Pi__ptxopt_split256 grid=(256,1024,1) block=(256,1,1)' run.log
  check "2000x1000 -> remap" grep -q 'launch _Z10matadd_intPKiS0_Pi__ptxopt_remap grid=(2000,1,1) block=(1000,1,1)' run.log
  check "char kernel -> swap" grep -q 'launch _Z11matadd_charPKcS0_Pc__ptxopt_swap grid=(256,1,1)' run.log
  check "Fig. 6-b (no clones) as is" grep -q 'launch _Z20matadd_int_coalescedPKiS0_Pi grid=(512,1,1) block=(256,1,1)' run.log
  check "kernel without clones as is" grep -q 'launch _Z9no_clonesPi grid=(1,1,1) block=(32,1,1)' run.log
  check "PTXOPT_LOG=1 decision lines" grep -q "^ptxopt: _Z10matadd_intPKiS0_Pi grid=(65536,1,1) block=(1024,1,1) shared=0 -> .*split.*rejected .*swap: transformed block.x=65536 exceeds the device limit 1024" err.log
  check "exactly 6 launches" test "$(grep -c 'fake-cudart: launch' run.log)" = 6
  # Without PTXOPT_LOG the shim takes its text-free path (shapeMask, lazily
  # read clones): the same launches, also where clones are missing or limited.
  ./prog >quiet.log 2>/dev/null
  check "without PTXOPT_LOG: the same launches" cmp run.log quiet.log
  FAKE_CUDART_MISSING=__ptxopt PTXOPT_LOG=1 ./prog >miss1.log 2>/dev/null
  FAKE_CUDART_MAX_THREADS=256 PTXOPT_LOG=1 ./prog >mt1.log 2>/dev/null
  PTXOPT_DISABLE=1 ./prog >dis.log 2>&1
  check "PTXOPT_DISABLE=1 at run time: originals only" test "$(grep -c '__ptxopt' dis.log)" = 0
  check "...all 6 launches" test "$(grep -c 'fake-cudart: launch' dis.log)" = 6
  FAKE_CUDART_MISSING=__ptxopt ./prog >miss.log 2>miss.err
  check "clones missing in the image: originals" test "$(grep -c 'launch .*__ptxopt' miss.log)" = 0
  check "...with a warning" grep -q 'ptxopt: warning: _Z10matadd_intPKiS0_Pi: clone .* is not usable' miss.err
  FAKE_CUDART_FAIL_LAUNCH=swap ./prog >ref.log 2>ref.err
  check "clone launch refused: the original runs" grep -q 'launch _Z10matadd_intPKiS0_Pi grid=(512,1,1) block=(256,1,1)' ref.log
  check "...warned once per kernel" test "$(grep -c 'warning: launching _Z10matadd_intPKiS0_Pi__ptxopt_swap' ref.err)" = 1
  FAKE_CUDART_MAX_THREADS=256 ./prog >mt.log 2>&1
  check "clone limited to 256 threads: no swap to 512" bash -c "! grep -q 'launch $SWAP grid=(256,1,1) block=(512' mt.log"
  check "...missing and limited clones: the same launches with and without PTXOPT_LOG" \
    bash -c "cmp mt.log mt1.log && cmp <(grep launch miss.log) <(grep launch miss1.log)"
  check "per-thread default stream build" fake_build ptsz $COALESCE -default-stream per-thread
  ./ptsz >ptsz.log 2>&1
  check "...launches the clone on the ptsz entry point" grep -q "launch $SWAP grid=(256,1,1) block=(512,1,1) shared=0 ptsz" ptsz.log
  ;;

launch-apis)
  # cudart's launch APIs and graph kernel nodes (tests/nvcc/launch_apis.cu):
  # the shim's --wrap wrappers give them the clone a <<<>>> launch of the
  # same shape would run, with the attributes' conditions. Each clone is
  # allowed from the kernel's first launch (PTXOPT_FIRST_LAUNCH_CLONES=1),
  # so the same lines are expected with the clones in the unit's image and
  # in clone images. The coalesce pipeline ($COALESCE): the lines name its
  # clones.
  export PTXOPT_FIRST_LAUNCH_CLONES=1
  api_build() { # api_build <out> [flags...]
    local out=$1; shift
    run build.log "$PNVCC" $COALESCE -arch=$ARCH -cudart none -I"$MATADD" "$@" "$HERE/launch_apis.cu" "$HERE/fake_cudart.cpp" -o "$out"
  }
  # one line per case: "<case> => <the call's line>"
  cases() { awk '/^case /{c=substr($0,6); next} /^fake-cudart: [a-zA-Z_]+ /{$1=""; print c " =>" $0}' "$1"; }
  O=_Z10matadd_intPKiS0_Pi
  EMPTY=5  # cudaGraphNodeTypeEmpty (driver_types.h)
  cat >want.txt <<WANT
C cudaLaunchKernel 512x256 => cudaLaunchKernel $SWAP grid=(256,1,1) block=(512,1,1) shared=0
template cudaLaunchKernel 65536x1024 => cudaLaunchKernel ${O}__ptxopt_split256 grid=(256,1024,1) block=(256,1,1) shared=0
cudaLaunchKernel without clones => cudaLaunchKernel _Z9no_clonesPi grid=(1,1,1) block=(32,1,1) shared=0
cudaLaunchKernelEx 512x256 => cudaLaunchKernelExC $SWAP grid=(256,1,1) block=(512,1,1) shared=0
cudaLaunchKernelExC 2000x1000 => cudaLaunchKernelExC ${O}__ptxopt_remap grid=(2000,1,1) block=(1000,1,1) shared=0
priority + programmatic serialization pass through => cudaLaunchKernelExC $SWAP grid=(256,1,1) block=(512,1,1) shared=0 attrs=8:3,6:1
cluster 4 divides the swapped grid 256 => cudaLaunchKernelExC $SWAP grid=(256,1,1) block=(512,1,1) shared=0 attrs=4:4.1.1
cluster 3 does not divide the swapped grid 256 of 768x256: a later clone => cudaLaunchKernelExC ${O}__ptxopt_split256 grid=(3,256,1) block=(256,1,1) shared=0 attrs=4:3.1.1
cooperative attribute: the clone, cooperative => cudaLaunchKernelExC $SWAP grid=(256,1,1) block=(512,1,1) shared=0 attrs=2:1
cooperative attribute, the clone too large: original => too large for a cooperative launch ${O}__ptxopt_split256 grid=(256,1024,1)
cooperative attribute, the clone too large: original => cudaLaunchKernelExC $O grid=(65536,1,1) block=(1024,1,1) shared=0 attrs=2:1
unknown attribute: original => cudaLaunchKernelExC $O grid=(512,1,1) block=(256,1,1) shared=0 attrs=99:1
cudaLaunchCooperativeKernel: the clone => cudaLaunchCooperativeKernel $SWAP grid=(256,1,1) block=(512,1,1) shared=0
cudaLaunchCooperativeKernel, the clone too large: original => too large for a cooperative launch ${O}__ptxopt_split256 grid=(256,1024,1)
cudaLaunchCooperativeKernel, the clone too large: original => cudaLaunchCooperativeKernel $O grid=(65536,1,1) block=(1024,1,1) shared=0
cudaLaunchKernelEx with a cudaKernel_t => cudaLaunchKernelExC $SWAP grid=(256,1,1) block=(512,1,1) shared=0
cudaGraphAddKernelNode 512x256 => cudaGraphAddKernelNode $SWAP grid=(256,1,1) block=(512,1,1) shared=0
cudaGraphKernelNodeSetParams 2000x1000 => cudaGraphKernelNodeSetParams ${O}__ptxopt_remap grid=(2000,1,1) block=(1000,1,1) shared=0
cudaGraphExecKernelNodeSetParams 65536x1024 => cudaGraphExecKernelNodeSetParams ${O}__ptxopt_split256 grid=(256,1024,1) block=(256,1,1) shared=0
cudaGraphKernelNodeGetParams: the caller's => cudaGraphKernelNodeGetParams returned matadd_int grid=(2000,1,1) block=(1000,1,1)
GetParams, then SetParams at 512x256 => cudaGraphKernelNodeSetParams $SWAP grid=(256,1,1) block=(512,1,1) shared=0
cudaGraphKernelNodeSetAttribute priority: the clone stays => cudaGraphKernelNodeSetAttribute id=8
cudaGraphKernelNodeSetAttribute cooperative: the caller's launch first => cudaGraphKernelNodeSetParams $O grid=(512,1,1) block=(256,1,1) shared=0
cudaGraphKernelNodeSetAttribute cooperative: the caller's launch first => cudaGraphKernelNodeSetAttribute id=2
cudaGraphKernelNodeGetParams after it: the node's own => cudaGraphKernelNodeGetParams returned matadd_int grid=(512,1,1) block=(256,1,1)
cudaGraphKernelNodeSetParams on the cooperative node: original => cudaGraphKernelNodeSetParams $O grid=(512,1,1) block=(256,1,1) shared=0
cudaGraphAddNode (a kernel) 512x256 => cudaGraphAddNode $SWAP grid=(256,1,1) block=(512,1,1) shared=0
cudaGraphNodeSetParams 2000x1000 => cudaGraphNodeSetParams ${O}__ptxopt_remap grid=(2000,1,1) block=(1000,1,1) shared=0
cudaGraphKernelNodeGetParams of that node: the caller's => cudaGraphKernelNodeGetParams returned matadd_int grid=(2000,1,1) block=(1000,1,1)
cudaGraphExecNodeSetParams 65536x1024 => cudaGraphExecNodeSetParams ${O}__ptxopt_split256 grid=(256,1024,1) block=(256,1,1) shared=0
cudaGraphAddNode of another type: passed through => cudaGraphAddNode type=$EMPTY
capture: cudaLaunchKernel 512x256 => cudaLaunchKernel $SWAP grid=(256,1,1) block=(512,1,1) shared=0
capture: <<<>>> 2000x1000 => launch ${O}__ptxopt_remap grid=(2000,1,1) block=(1000,1,1) shared=0
capture: cudaLaunchCooperativeKernel: original => cudaLaunchCooperativeKernel $O grid=(512,1,1) block=(256,1,1) shared=0
captured nodes read back as the caller's => cudaGraphKernelNodeGetParams returned matadd_int grid=(512,1,1) block=(256,1,1)
captured nodes read back as the caller's => cudaGraphKernelNodeGetParams returned matadd_int grid=(2000,1,1) block=(1000,1,1)
unwrapped capture: <<<>>> 2000x1000 => launch ${O}__ptxopt_remap grid=(2000,1,1) block=(1000,1,1) shared=0
unwrapped capture: cudaLaunchCooperativeKernel: original => cudaLaunchCooperativeKernel $O grid=(512,1,1) block=(256,1,1) shared=0
unwrapped capture: read back as the caller's => cudaGraphKernelNodeGetParams returned matadd_int grid=(2000,1,1) block=(1000,1,1)
graph node with extra: original => cudaGraphAddKernelNode $O grid=(512,1,1) block=(256,1,1) shared=0 extra
cudaGraphDestroyNode, cudaGraphDestroy: passed through => cudaGraphDestroyNode node
cudaGraphDestroyNode, cudaGraphDestroy: passed through => cudaGraphDestroy graph
WANT
  for layout in --ptxopt-no-clone-images --ptxopt-clone-images; do
    check "build ($layout)" api_build "prog$layout" "$layout"
    ./"prog$layout" >"run$layout.log" 2>&1
    check "...each call ran the expected variant ($layout)" cmp want.txt <(cases "run$layout.log")
    cmp -s want.txt <(cases "run$layout.log") || diff want.txt <(cases "run$layout.log") | head -20
  done
  P=./prog--ptxopt-no-clone-images
  PTXOPT_LOG=1 $P >log.log 2>&1
  check "the same with PTXOPT_LOG=1 (the logged path)" cmp want.txt <(cases log.log)
  check "...a decision line names the cluster" grep -q "^ptxopt: $O grid=(768,1,1) .* cluster=(3,1,1)" log.log
  check "the link wraps the launch APIs" grep -Eq ' [tT] __wrap_cudaLaunchKernelExC$' <(nm $P)
  # ptx-nvcc's --wrap list and the CMake package's (runtime/cmake) name the
  # same functions, and the shim defines a wrapper for each.
  wrapped_py() { python3 -c "import sys; sys.path.insert(0, '$ROOT/tools'); import ptx_nvcc; print('\n'.join(sorted(ptx_nvcc.WRAPPED)))"; }
  wrapped_cmake() { sed -n '/foreach(f cudaLaunchKernel/,/list(APPEND _ptxopt_wrap/p' "$ROOT/runtime/cmake/PtxOptNvccConfig.cmake" | sed 's/#.*//' | grep -o 'cuda[A-Za-z0-9_]*' | sort; }
  check "ptx-nvcc and the CMake package wrap the same functions" cmp <(wrapped_py) <(wrapped_cmake)
  check "...each has its wrapper in the program" test "$(wrapped_py | while read -r f; do nm $P | grep -c " [tT] __wrap_$f\$"; done | grep -c '^1$')" = "$(wrapped_py | wc -l)"
  PTXOPT_DISABLE=1 $P >dis.log 2>&1
  check "PTXOPT_DISABLE=1: every call the original" test "$(grep -c '__ptxopt' dis.log)" = 0
  check "...all 39 calls made" test "$(cases dis.log | wc -l)" = 39
  FAKE_CUDART_FAIL_LAUNCH=swap $P >ref.log 2>&1
  check "a refused clone call: the original follows" \
    grep -q "^C cudaLaunchKernel 512x256 => cudaLaunchKernel $O grid=(512,1,1)" <(cases ref.log)
  check "...for a graph node too" grep -q "^cudaGraphAddKernelNode 512x256 => cudaGraphAddKernelNode $O grid=(512,1,1)" <(cases ref.log)
  check "...warned once per kernel" test "$(grep -c "warning: launching ${SWAP}" ref.log)" = 1
  check "build with --ptxopt-no-link-shim" api_build noshim --ptxopt-no-link-shim
  ./noshim >noshim.log 2>&1
  check "...no wrappers: every call the original" test "$(grep -c '__ptxopt' noshim.log)" = 0
  check "per-thread default stream build" api_build ptsz -default-stream per-thread
  ./ptsz >ptsz.log 2>&1
  check "...cudaLaunchKernel_ptsz runs the clone" \
    grep -q "^C cudaLaunchKernel 512x256 => cudaLaunchKernel_ptsz $SWAP grid=(256,1,1)" <(cases ptsz.log)
  check "...cudaLaunchKernelExC_ptsz runs the clone" \
    grep -q "^cudaLaunchKernelEx 512x256 => cudaLaunchKernelExC_ptsz $SWAP grid=(256,1,1)" <(cases ptsz.log)
  # the real cudart, static and shared: the wrappers link (no GPU to run them)
  for rt in static shared; do
    check "-cudart $rt links with the wrappers" run build.log "$PNVCC" -arch=$ARCH -cudart $rt -I"$MATADD" \
      "$HERE/launch_apis.cu" -o real-$rt
    check "...main calls the wrapper" bash -c "objdump -d --no-show-raw-insn real-$rt | awk '/<main>:/,/ret/' | grep -q 'call.*<__wrap_cudaLaunchKernelExC>'"
    check "...and the allocation wrapper" bash -c "objdump -d --no-show-raw-insn real-$rt | grep -q 'call.*<__wrap_cudaMalloc>'"
    check "...which reaches cudart's cudaLaunchKernelExC" bash -c "nm real-$rt | grep -Eq ' (T|U|w) cudaLaunchKernelExC(@|$)'"
  done
  ;;

images)
  # Clone images (--ptxopt-clone-images): the program's own image is nvcc's,
  # each kernel's clones are in an image of their own, registered with
  # cudart at start-up as nvcc's own (the fake cudart prints registrations).
  # Under EAGER loading, and with PTXOPT_FIRST_LAUNCH_CLONES=1, every launch
  # chooses as in the default build; under lazy loading (CUDA's default) a
  # clone whose image is not loaded yet runs once the estimated savings pay
  # for the load (NvccShim.cpp, imageLoadPays).
  check "build" fake_build prog --ptxopt-clone-images
  check "reference build (clones in the unit's image)" fake_build ref $UNIT
  ./ref >ref.log 2>&1
  FAKE_CUDART_VERBOSE=1 CUDA_MODULE_LOADING=EAGER ./prog >run.log 2>&1
  check "EAGER: the same launches as the reference" cmp <(grep 'fake-cudart: launch' ref.log) <(grep 'fake-cudart: launch' run.log)
  FAKE_CUDART_VERBOSE=1 PTXOPT_FIRST_LAUNCH_CLONES=1 env -u CUDA_MODULE_LOADING ./prog >fl.log 2>&1
  check "PTXOPT_FIRST_LAUNCH_CLONES=1: the same launches" cmp <(grep 'fake-cudart: launch' ref.log) <(grep 'fake-cudart: launch' fl.log)
  check "every clone registered at start-up, before the first launch, each kernel's together" \
    awk '/fake-cudart: launch/ { launched = 1 }
         /register .*__ptxopt/ { if (launched) bad = 1; split($3, a, "__ptxopt")
                                 if (a[1] != k) { if (a[1] in done) bad = 1; done[a[1]] = 1; k = a[1]; blocks++ } }
         END { exit bad || blocks != 4 }' run.log
  FAKE_CUDART_VERBOSE=1 PTXOPT_DISABLE=1 ./prog >dis.log 2>&1
  check "PTXOPT_DISABLE=1: no clone registered, originals only" test "$(grep -c '__ptxopt' dis.log)" = 0
  # Lazy loading: the 512x256 swap clones wait (0.7 of 60 us), the
  # 65536x1024 launch pays at once, and its kernel's next launch, the image
  # loaded, chooses as without images.
  FAKE_CUDART_VERBOSE=1 env -u CUDA_MODULE_LOADING ./prog >def.log 2>&1
  check "lazy loading: small uncoalesced launches run the original until an image's load pays" bash -c "
    grep -q 'launch _Z10matadd_intPKiS0_Pi grid=(512,1,1) block=(256,1,1)' def.log &&
    grep -q 'launch _Z11matadd_charPKcS0_Pc grid=(512,1,1) block=(256,1,1)' def.log"
  check "...a launch whose savings pay runs its clone" \
    grep -q 'launch _Z10matadd_intPKiS0_Pi__ptxopt_split1024_group4 grid=(64,1024,1)' def.log
  check "...and the kernel's later launches choose as without images" \
    grep -q 'launch _Z10matadd_intPKiS0_Pi__ptxopt_remap grid=(2000,1,1) block=(1000,1,1)' def.log
  env -u CUDA_MODULE_LOADING PTXOPT_LOG=1 ./prog >deflog.log 2>&1
  check "...the same launches with PTXOPT_LOG=1, which says why" bash -c "
    cmp <(grep 'fake-cudart: launch' def.log) <(grep 'fake-cudart: launch' deflog.log) &&
    grep -q 'waits until the estimated savings pay for loading its image' deflog.log &&
    grep -q 'loading the clone image (_Z10matadd_intPKiS0_Pi__ptxopt_split1024_group4)' deflog.log"
  # Lazy loading after an allocation (NvccPreload.cpp): every clone read
  # (loaded) at the allocation, before the first launch; the launches are
  # then EAGER's. Without the preload (PTXOPT_PRELOAD_IMAGES=0) the
  # rent-or-buy rule again.
  FAKE_CUDART_VERBOSE=1 LAUNCHES_ALLOCATE=1 env -u CUDA_MODULE_LOADING ./prog >pre.log 2>&1
  check "lazy loading after an allocation: the same launches as EAGER" \
    cmp <(grep 'fake-cudart: launch' ref.log) <(grep 'fake-cudart: launch' pre.log)
  check "...every clone's attributes read (loaded) after the allocation, none at a launch" \
    awk '/fake-cudart: malloc/ { m = 1 } /fake-cudart: launch/ { l = 1 }
         /attributes .*__ptxopt/ { if (!m || l) bad = 1; n++ } END { exit bad || n < 4 }' pre.log
  FAKE_CUDART_VERBOSE=1 LAUNCHES_ALLOCATE=1 PTXOPT_PRELOAD_IMAGES=0 env -u CUDA_MODULE_LOADING ./prog >nopre.log 2>&1
  check "...PTXOPT_PRELOAD_IMAGES=0: the rent-or-buy rule's launches" \
    cmp <(grep 'fake-cudart: launch' def.log) <(grep 'fake-cudart: launch' nopre.log)
  FAKE_CUDART_VERBOSE=1 LAUNCHES_ALLOCATE=1 ./prog >eager.log 2>&1
  check "...EAGER: nothing read at the allocation (the same calls as without it)" \
    cmp <(grep -v 'fake-cudart: malloc' eager.log) run.log
  mkdir k
  check "--keep -c" run build.log "$PNVCC" --ptxopt-clone-images -arch=$ARCH --keep --keep-dir k -c "$MATADD/matadd.cu" -o m.o
  run build.log nvcc -arch=$ARCH -ptx "$MATADD/matadd.cu" -o nvcc.ptx
  check "...the unit's PTX is nvcc's, byte for byte" cmp k/matadd.ptx nvcc.ptx
  check "...its cubin has no clone" bash -c "! grep -q __ptxopt k/matadd.sm_90.cubin"
  # -c of one .cu: late images, linked into the object after nvcc (ld -r):
  # one block under one symbol, one image per kernel with clones
  check "...the object carries the clone images (late: one block, linked in)" \
    bash -c "'$HERE/clone-images.py' m.o >m.images && grep -q ' R __ptxopt_nvcc_imgs_' <(nm m.o) &&
             test \$(cut -d' ' -f1 m.images | sort -u | wc -l) = \$(sed 's/__ptxopt.*//' m.images | sort -u | wc -l) &&
             grep -q '^0 ${SWAP}\$' m.images"
  check "...the hook names it weakly, nothing else of the images" bash -c "! nm m.o | grep -q __ptxopt_nvcc_img_"
  check "a PTX-only build (compute_90)" run build.log "$PNVCC" --ptxopt-clone-images -gencode arch=compute_90,code=compute_90 \
    -c "$MATADD/matadd.cu" -o ptxonly.o
  check "...carries clone images too (the clones' PTX, for the driver's JIT)" \
    bash -c "'$HERE/clone-images.py' ptxonly.o | cmp - m.images"
  check "sm_80 SASS + compute_90 PTX" run build.log "$PNVCC" --ptxopt-clone-images -gencode arch=compute_80,code=sm_80 \
    -gencode arch=compute_90,code=compute_90 -c "$MATADD/matadd.cu" -o two.o
  check "...as many clone images as for one target (each holds both: an sm_90 GPU JITs its PTX)" \
    bash -c "'$HERE/clone-images.py' two.o | cmp - m.images"
  # late images of -c objects run as the included ones (-cudart none links
  # have no device link step: there the host code includes the images)
  check "fake cudart program from a -c object (late images) and a link" bash -c "
    '$PNVCC' --ptxopt-clone-images -arch=$ARCH -cudart none -I'$MATADD' -c '$HERE/launches.cu' -o late.o 2>>build.log &&
    '$HERE/clone-images.py' late.o >/dev/null &&
    '$PNVCC' --ptxopt-clone-images -arch=$ARCH -cudart none late.o '$HERE/fake_cudart.cpp' -o prog_late 2>>build.log"
  FAKE_CUDART_VERBOSE=1 PTXOPT_FIRST_LAUNCH_CLONES=1 ./prog_late >late.log 2>&1
  check "...registers and launches as the program whose host code includes the images" \
    cmp <(grep 'fake-cudart: \(launch\|register\)' run.log) <(grep 'fake-cudart: \(launch\|register\)' late.log)
  check "...which had them included (-cudart none: no device link step)" bash -c "nm prog | grep -q __ptxopt_nvcc_img_0"
  check "-ccbin: the host code includes the images" run build.log "$PNVCC" --ptxopt-clone-images -ccbin g++ -arch=$ARCH -c "$MATADD/matadd.cu" -o cc.o
  check "...(arrays, no block)" bash -c "nm cc.o | grep -q __ptxopt_nvcc_img_0 && ! nm cc.o | grep -q __ptxopt_nvcc_imgs_"
  # late images run ptx-opt in a job beside nvcc's ptxas: its page and
  # remarks are written all the same, and -G code stays nvcc's
  check "late images: --ptxopt-report and --ptxopt-remarks=FILE" bash -c "
    '$PNVCC' --ptxopt-clone-images --ptxopt-report=\$PWD/rep --ptxopt-remarks=\$PWD/rem.txt -arch=$ARCH \
      -c '$MATADD/matadd.cu' -o rep.o 2>>build.log && ls rep/matadd.cu-*.compute_90.html >/dev/null &&
    grep -q '\"function\": \"_Z10matadd_intPKiS0_Pi\", \"kind\": \"applied\"' rem.txt && '$HERE/clone-images.py' rep.o | cmp - m.images"
  # -lineinfo with an inlined function: a .debug_str section (the names the
  # .loc of inlined code refer to), copied into each clone module
  printf '__device__ int load(const int *a, int i) { return __ldg(a + i); }\n__global__ void k(const int *a, int *o) { int i = threadIdx.x * gridDim.x + blockIdx.x; o[i] = load(a, i) + 1; }\n' >inl.cu
  check "-lineinfo, an inlined function (a .debug_str section): the clones still go to images" bash -c "
    nvcc -arch=$ARCH -lineinfo -ptx inl.cu -o inl.ptx && grep -q '.section.*.debug_str' inl.ptx &&
    '$PNVCC' --ptxopt-clone-images -lineinfo -arch=$ARCH -c inl.cu -o li.o 2>>build.log &&
    '$HERE/clone-images.py' li.o | grep -q '^0 _Z1kPKiPi__ptxopt_swap\$' && ! grep -q 'ptx-nvcc: warning' build.log"
  check "late images: -G code without hook or images" bash -c "
    '$PNVCC' --ptxopt-clone-images -G -arch=$ARCH -c '$MATADD/matadd.cu' -o dbg.o 2>>build.log && ! nm dbg.o | grep -q ptxopt"
  # a program nvcc links with cudart: the images through the link
  check "a program compiled and linked by one nvcc call" run build.log "$PNVCC" --ptxopt-clone-images -arch=$ARCH \
    -I"$MATADD" "$HERE/launches.cu" -o prog_link --ptxopt-verbose
  check "...includes the images in its host code (arrays, no block)" \
    bash -c "nm prog_link | grep -q __ptxopt_nvcc_img_0 && ! nm prog_link | grep -q __ptxopt_nvcc_imgs_"
  check "...and names no file of ptx-nvcc's temporary folder on the link line (CMake records it: issue #32)" \
    bash -c "! grep -q 'clone_images.a' build.log"
  # module-scope data would be two copies in two images: no split
  printf '__device__ int g;\n__global__ void k(const int *a, int *o) { int i = threadIdx.x * gridDim.x + blockIdx.x; o[i] = a[i] + g; }\n' >global.cu
  mkdir k2
  check "a unit with a __device__ variable" run build.log "$PNVCC" --ptxopt-clone-images -arch=$ARCH --keep --keep-dir k2 -c global.cu -o g.o
  check "...keeps its clones in its own image" grep -q '__ptxopt_swap' k2/global.ptx
  check "...and no clone images" bash -c "! nm g.o | grep -Eq ' [rRdD] .*__ptxopt_nvcc_img'"
  ;;

flags)
  # -ccbin, response files, NVCC_PREPEND_FLAGS / NVCC_APPEND_FLAGS, own flags.
  unset PTXOPT_NVCC_FLAGS  # the default pipeline (-O2)
  mkdir k1 k2
  check "-ccbin g++" run build.log "$PNVCC" -ccbin g++ -arch=$ARCH -c "$MATADD/matadd.cu" -o c1.o
  check "...hooked" grep -q ' w __ptxopt_nvcc_launch$' <(nm c1.o)
  printf -- '-arch=%s -c\n' "$ARCH" >opts.txt
  check "--options-file with -c (no link)" run build.log "$PNVCC" --options-file opts.txt "$MATADD/matadd.cu" -o c2.o
  check "...an object" grep -q 'relocatable' <(file c2.o)
  check "NVCC_APPEND_FLAGS=-lineinfo" env NVCC_APPEND_FLAGS="-lineinfo" "$PNVCC" --ptxopt-no-clone-images -arch=$ARCH --keep --keep-dir k1 -c "$MATADD/matadd.cu" -o c3.o
  check "...reached cicc and the PTX is optimized" bash -c "grep -q '^\s*.loc' k1/matadd.ptx && grep -q '$SWAP' k1/matadd.ptx"
  check "NVCC_PREPEND_FLAGS=-c (no link)" env NVCC_PREPEND_FLAGS="-c -arch=$ARCH" "$PNVCC" "$MATADD/matadd.cu" -o c4.o
  check "...an object" grep -q 'relocatable' <(file c4.o)
  check "--ptxopt-passes=coalesce --ptxopt-remarks=FILE" run build.log "$PNVCC" --ptxopt-passes=coalesce \
    --ptxopt-remarks="$W/remarks.txt" -arch=$ARCH -c "$MATADD/matadd.cu" -o c5.o
  check "...remarks written" grep -q 'coalesce' remarks.txt
  check "PTXOPT_NVCC_FLAGS=--ptxopt-passes=coalesce" env PTXOPT_NVCC_FLAGS=--ptxopt-passes=coalesce "$PNVCC" -arch=$ARCH -c "$MATADD/matadd.cu" -o c6.o
  # --ptxopt-reassociate: rowwalk may split the float row sum over 32 lanes.
  mkdir k3 k4 k5
  check "--ptxopt-reassociate" run build.log "$PNVCC" --ptxopt-reassociate --ptxopt-no-clone-images -arch=$ARCH --keep --keep-dir k3 \
    -c "$ROOT/tests/lit/rowwalk/Inputs/rowwalk.cu" -o c9.o
  check "...the float lanes clone is made" grep -q '\.entry rowsum_restrict__ptxopt_lanes(' k3/rowwalk.ptx
  check "without it: no float lanes clone" run build.log "$PNVCC" --ptxopt-no-clone-images -arch=$ARCH --keep --keep-dir k4 \
    -c "$ROOT/tests/lit/rowwalk/Inputs/rowwalk.cu" -o c10.o
  check "...only the exact ones" bash -c "! grep -q 'rowsum_restrict__ptxopt_lanes(' k4/rowwalk.ptx && grep -q 'rowsum_int__ptxopt_lanes(' k4/rowwalk.ptx"
  check "the default: clone images, the kept .ptx is nvcc's" bash -c "'$PNVCC' -arch=$ARCH --keep --keep-dir k5 -c '$MATADD/matadd.cu' -o c11.o 2>>build.log &&
    nvcc -arch=$ARCH -ptx '$MATADD/matadd.cu' -o nvcc.ptx && cmp k5/matadd.ptx nvcc.ptx && '$HERE/clone-images.py' c11.o >/dev/null"
  check "unknown --ptxopt- flag is an error" bash -c "! '$PNVCC' --ptxopt-frobnicate -c '$MATADD/matadd.cu' -o c7.o 2>err.txt && grep -q 'unknown option' err.txt && ! test -e c7.o"
  # Pass options in the generic form --ptxopt-<option>[=V], checked by ptx-opt's registry before nvcc runs.
  check "...it lists the pass options" grep -q "unknown option '--ptxopt-frobnicate' (pass options: --ptxopt-group-k," err.txt
  check "an ill-typed pass option is an error, no output" bash -c "! '$PNVCC' --ptxopt-group-k=3 -c '$MATADD/matadd.cu' -o c7.o 2>err2.txt && grep -q \"ptx-nvcc: error: --ptxopt-group-k: '3' is not one of 2, 4, 8, 16\" err2.txt && ! test -e c7.o"
  mkdir k6
  check "--ptxopt-group-k=2: the k=2 clone" run build.log "$PNVCC" --ptxopt-group-k=2 --ptxopt-no-clone-images -arch=$ARCH --keep --keep-dir k6 -c "$MATADD/matadd.cu" -o c12.o
  check "...in the kept .ptx" grep -q '__ptxopt_swap_group2(' k6/matadd.ptx
  # ptxas compiles on several threads (same code), unless the user says how.
  "$PNVCC" --ptxopt-ptxas-threads=3 -arch=$ARCH -c "$MATADD/matadd.cu" -o c8.o --dryrun >dry1.txt 2>&1
  check "--ptxopt-ptxas-threads=3: ptxas --split-compile=3" grep -q '^#\$ ptxas .*--split-compile=3 ' dry1.txt
  "$PNVCC" --ptxopt-ptxas-threads=0 -arch=$ARCH -c "$MATADD/matadd.cu" -o c8.o --dryrun >dry2.txt 2>&1
  check "--ptxopt-ptxas-threads=0: none" bash -c "grep -q '^#\$ ptxas' dry2.txt && ! grep -q 'split-compile' dry2.txt"
  env NVCC_APPEND_FLAGS="-Xptxas -split-compile=1" "$PNVCC" --ptxopt-ptxas-threads=3 -arch=$ARCH -c "$MATADD/matadd.cu" \
    -o c8.o --dryrun >dry3.txt 2>&1
  check "...the user's own split-compile only" bash -c "grep -q '^#\$ ptxas.*-split-compile=1' dry3.txt && ! grep -q 'split-compile=3' dry3.txt"
  check "PTXOPT_DISABLE=1: plain nvcc" env PTXOPT_DISABLE=1 "$PNVCC" -arch=$ARCH --keep --keep-dir k2 -I"$MATADD" "$HERE/launches.cu" -o dis
  check "...no clones, no shim" bash -c "! grep -q __ptxopt k2/launches.ptx && ! nm dis | grep -q ptxopt"
  ;;

failsoft)
  # ptx-opt failing, and a "pass" that breaks the PTX: the build goes on with
  # nvcc's own result and one warning; real errors keep nvcc's exit code.
  mkdir k n
  "$PNVCC" --ptxopt-passes=nosuchpass -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
    --keep --keep-dir k -c "$MATADD/matadd.cu" -o f1.o >out1.txt 2>&1
  check "unknown pass: the build succeeds" test -s f1.o
  check "...with exactly one warning naming the reason" test "$(grep -c 'ptx-nvcc: warning: ptx-opt failed.*nosuchpass\|ptx-nvcc: warning: ptx-opt failed' out1.txt)" = 1
  nvcc -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 --keep --keep-dir n -c "$MATADD/matadd.cu" -o n1.o >>build.log 2>&1
  check "...the PTX is nvcc's, byte for byte" bash -c "cmp k/matadd.compute_80.ptx n/matadd.compute_80.ptx && cmp k/matadd.compute_90.ptx n/matadd.compute_90.ptx"
  check "...no hook" test "$(nm f1.o | grep -c ptxopt)" = 0
  "$PNVCC" --ptxopt-bin="$HERE/broken-ptx-opt.sh" -arch=$ARCH -I"$MATADD" "$HERE/launches.cu" -o f2 >out2.txt 2>&1
  rc=$?
  check "broken PTX from the optimizer: exit 0" test $rc = 0
  check "...a program" test -x f2
  check "...a warning that it fell back" grep -q 'ptx-nvcc: warning: the build with ptx-opt failed .*built with plain nvcc instead' out2.txt
  check "...the program is nvcc's (no clones, no shim)" bash -c "! nm f2 | grep -q ptxopt"
  # A shim script (as CMake writes at configure time) whose object was never
  # built: one compile, no shim, a warning naming the missing object (before,
  # the link failed and the whole build ran again with plain nvcc).
  printf '/* ptx-nvcc launch shim */\nINPUT(%s/no_such_shim.o)\n' "$W" >libptxopt_nvcc.a
  "$PNVCC" --ptxopt-lib="$W/libptxopt_nvcc.a" -arch=$ARCH -I"$MATADD" "$HERE/launches.cu" -o f3 >out3.txt 2>&1
  rc=$?
  check "shim object missing: exit 0, a program" test $rc = 0 -a -x f3
  check "...a warning naming it" grep -q "ptx-nvcc: warning: .*libptxopt_nvcc.a names $W/no_such_shim.o, which does not exist" out3.txt
  check "...and no second build" bash -c "! grep -q 'built with plain nvcc instead' out3.txt"
  printf '__global__ void k(int *o) { o[0] = undefined_thing; }\n' >bad.cu
  nvcc -arch=$ARCH -c bad.cu -o bad_n.o >nv.txt 2>&1; nrc=$?
  "$PNVCC" -arch=$ARCH -c bad.cu -o bad_p.o >pn.txt 2>&1; prc=$?
  check "a source error: nvcc's exit code ($nrc)" test "$prc" = "$nrc" -a "$prc" != 0
  check "...no output file" test ! -e bad_p.o
  check "...the error reported once, as nvcc does" test "$(grep -c 'undefined_thing' pn.txt)" = "$(grep -c 'undefined_thing' nv.txt)"
  check "...and no ptx-nvcc warning" bash -c "! grep -q 'ptx-nvcc:' pn.txt"
  ;;

cmake)
  # The example project with -DCMAKE_CUDA_COMPILER=ptx-nvcc and nothing else
  # (ptx-nvcc's defaults), with each generator there is, with and without a
  # compiler launcher (ccache, where installed): it configures, builds, links
  # the shim, and nothing ptx-nvcc told CMake names a file that is gone
  # after the call (issue #32: a linker script in its temporary folder).
  command -v cmake >/dev/null || { echo "skipped: no cmake"; exit 77; }
  recorded_libs_exist() { # <build dir>: CMake's record of the CUDA compiler's implicit link libraries
    local f l
    f=$(ls "$1"/CMakeFiles/*/CMakeCUDACompiler.cmake) || return 1
    if grep -q 'ptx-nvcc\.[0-9]' "$f"; then echo "$f names a temporary folder of ptx-nvcc"; return 1; fi
    for l in $(sed -n 's/^set(CMAKE_CUDA_IMPLICIT_LINK_LIBRARIES "\(.*\)")$/\1/p' "$f" | tr ';' ' '); do
      case $l in /*) [ -e "$l" ] || { echo "missing: $l"; return 1; } ;; esac
    done
  }
  # Unix Makefiles without a launcher; Ninja (else Makefiles again) with
  # ccache where installed: both generators and a launcher in two configures
  combos=("Unix Makefiles|")
  gen2="Unix Makefiles"; command -v ninja >/dev/null && gen2=Ninja
  command -v ccache >/dev/null && combos+=("$gen2|ccache") || { [ "$gen2" = Ninja ] && combos+=("Ninja|"); }
  n=0
  for combo in "${combos[@]}"; do
    gen=${combo%|*} launcher=${combo#*|}
    {
      n=$((n + 1)); d=ex$n; what="$gen${launcher:+, launcher $launcher}"
      extra=(); [ -n "$launcher" ] && extra=(-DCMAKE_CUDA_COMPILER_LAUNCHER="$launcher")
      check "configure examples/nvcc with ptx-nvcc ($what)" run build.log env CCACHE_DIR="$W/ccache" \
        cmake -S "$ROOT/examples/nvcc" -B $d -G "$gen" -DCMAKE_CUDA_COMPILER="$PNVCC" -DCMAKE_CUDA_ARCHITECTURES=90 "${extra[@]}"
      check "...every link library CMake recorded exists" recorded_libs_exist $d
      check "...builds ($what)" run build.log env CCACHE_DIR="$W/ccache" cmake --build $d
      check "...the program has the shim" grep -q ' __ptxopt_nvcc_launch$' <(nm $d/matadd_nvcc | grep -v ' w ')
      check "...the object is hooked" bash -c "nm $d/CMakeFiles/matadd_nvcc.dir/matadd_main.cu.o | grep -q ' w __ptxopt_nvcc_launch$'"
    }
  done
  if [ -d ex2 ] && command -v ccache >/dev/null; then
    # the same build again from scratch: all hits, the same object
    cp ex2/CMakeFiles/matadd_nvcc.dir/matadd_main.cu.o first.o
    rm -rf ex2/CMakeFiles/matadd_nvcc.dir/*.o ex2/matadd_nvcc
    check "a second build under ccache" run build.log env CCACHE_DIR="$W/ccache" cmake --build ex2
    check "...hits the cache and gives the same object" bash -c "
      cmp first.o ex2/CMakeFiles/matadd_nvcc.dir/matadd_main.cu.o &&
      CCACHE_DIR='$W/ccache' ccache --print-stats | grep -Eq '^(direct|preprocessed)_cache_hit\s+[1-9]'"
  fi
  ;;

report)
  # --ptxopt-report=DIR: the --analyze=html page of each PTX (one per
  # target), an index over every page in DIR (a second compile adds to it),
  # all valid and self-contained; the build's outputs are unchanged by it;
  # a page ptx-opt cannot make costs a warning, never the build.
  CHECKHTML="$ROOT/tests/tools/check_html.py"
  check "ptx-nvcc --ptxopt-report, two targets" run build.log "$PNVCC" -gencode arch=compute_80,code=sm_80 \
    -gencode arch=compute_90,code=compute_90 -lineinfo --ptxopt-report=rep -c "$MATADD/matadd.cu" -o m.o
  check "a page per target" test "$(ls rep/matadd.cu-*.compute_80.html rep/matadd.cu-*.compute_90.html | wc -l)" = 2
  page=$(ls rep/matadd.cu-*.compute_90.html | head -1)
  check "the page is valid and self-contained" run build.log python3 "$CHECKHTML" "$page"
  check "...shows the source line with its uncoalesced accesses" \
    grep -q '<tr class="l-uncoalesced" id="k0-f1-13"><td class="n">13</td><td class="c">  out\[i\] = in1\[i\] + in2\[i\];' "$page"
  check "...with the remarks of the pipeline" grep -q '<span class="pass">\[coalesce\]</span> applied' "$page"
  check "...titled by the source" grep -q '<title>ptx-opt report: matadd.cu</title>' "$page"
  printf '__global__ void gather(const int *x, const float *a, float *b) {\n  int i = threadIdx.x;\n  b[i] = a[x[i]];\n}\n' >g.cu
  check "a second compile into the same folder" run build.log "$PNVCC" -arch=$ARCH --ptxopt-report=rep -ptx g.cu -o g.ptx
  check "the index is valid" run build.log python3 "$CHECKHTML" --index rep/index.html
  check "...lists the three pages" test "$(grep -c '<tr><td><a href="[^"]*\.html">' rep/index.html)" = 3
  check "...with the totals" grep -q '<tr class="total"><td>all</td><td></td><td class="num">7</td><td class="num">21</td>.*<td class="num">[0-9]* / [0-9]*</td></tr>' rep/index.html
  check "...and the kernels to look at" grep -q 'href="g.cu-[0-9a-f]*.compute_90.html#k0"><code>gather(int const\*, float const\*, float\*)</code>' rep/index.html
  check "-ptx without the report" run build.log "$PNVCC" -arch=$ARCH -ptx g.cu -o g2.ptx
  check "...the same PTX" cmp g.ptx g2.ptx
  check "a page ptx-opt cannot make: the build goes on" run build.log "$PNVCC" -arch=$ARCH \
    --ptxopt-passes=nosuchpass --ptxopt-report=rep2 -ptx g.cu -o g3.ptx
  check "...with a warning" grep -q 'no report for .*g.cu (compute_90): ' build.log
  check "...and an index of no page" grep -q '0 PTX files of 0 kernels' rep2/index.html
  check "...nvcc's PTX" cmp g.ptx g3.ptx
  ;;

*)
  echo "unknown case '$CASE'"
  exit 2
  ;;
esac

if [ "$FAILS" -gt 0 ]; then
  echo "--- build.log (tail) ---"
  [ -e build.log ] && show build.log 40
  echo "$CASE: $FAILS check(s) FAILED"
  exit 1
fi
echo "$CASE: all checks passed"
