#!/usr/bin/env bash
# ptx-nvcc under build tools (docs/NVCC.md, "Build tools"), no GPU needed:
#
#   tests/buildtools/buildtools-tests.sh <case>     PTXOPT_BUILD=<build dir>
#
#   ccache   CMake project, CMAKE_CUDA_COMPILER=ptx-nvcc, CMAKE_CUDA_COMPILER_LAUNCHER=ccache
#            with CCACHE_COMPILERCHECK='%compiler% --ptxopt-build-key': a second build is all
#            hits with byte-identical objects that keep the hook and the clone
#            images; PTXOPT_NVCC_FLAGS, a --ptxopt- flag and a changed ptx-opt
#            miss; plain nvcc and ptx-nvcc never share an entry
#   sccache  the same with CMAKE_CUDA_COMPILER_LAUNCHER=sccache (its own server
#            on a free port, stopped at the end), with no setting at all
#   ninja    16 translation units built by Ninja -j8: every object hooked, the
#            program links the shim, the objects equal a -j1 build's
#   distcc   distccd on 127.0.0.1 only (stopped at the end): ptx-nvcc -c
#            through distcc runs locally (distcc does not take .cu); the host
#            compile nvcc runs (-ccbin through distcc) is sent to the daemon
#
# Exit 0 pass, 1 fail, 77 skipped (a tool missing: the message names it).
set -uo pipefail
unset CCACHE_DISABLE  # the ccache case needs a working ccache whatever the caller set
CASE=${1:?usage: buildtools-tests.sh <case>}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export PTXOPT_BUILD=${PTXOPT_BUILD:-$ROOT/build}
PTXOPT_BUILD=$(cd "$PTXOPT_BUILD" && pwd)
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH="$CUDA_HOME/bin:$PATH"
PNVCC="$ROOT/tools/ptx-nvcc"
unset PTXOPT_NVCC_FLAGS PTXOPT_DISABLE CCACHE_DISABLE CCACHE_RECACHE
# --ptxopt-passes=coalesce keeps compiles short; the delivery is the
# default (clone images).
FLAGS="--ptxopt-passes=coalesce"

skip() { echo "skipped: $*"; exit 77; }
command -v nvcc >/dev/null || skip "nvcc not found (CUDA_HOME=$CUDA_HOME)"
command -v cmake >/dev/null || skip "cmake not found"
for f in ptx-opt ptx-nvcc-cicc runtime/libptxopt_nvcc.a; do
  [ -e "$PTXOPT_BUILD/$f" ] || { echo "FAIL: $PTXOPT_BUILD/$f missing (build ptx-opt, ptx-nvcc-cicc, ptxopt_nvcc)"; exit 1; }
done

W=$(mktemp -d "${TMPDIR:-/tmp}/buildtools.$CASE.XXXXXX")
CLEANUP=()
cleanup() { for c in "${CLEANUP[@]}"; do eval "$c"; done; rm -rf "$W"; }
trap cleanup EXIT
cd "$W" || exit 1
export XDG_CACHE_HOME=$W/xdg  # ptx-nvcc's digest memo
FAILS=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
run() { local log=$1; shift; echo "+ $*" >>"$log"; "$@" >>"$log" 2>&1; }
T0=$SECONDS
elapsed() { echo "  ($1: $((SECONDS - T0)) s so far)"; }

# A CMake project of N translation units, each with a column-walk kernel
# (it gets clones) launched with <<<>>>, and a main calling them.
gen_project() { # gen_project <dir> <N>
  local d=$1 n=$2 i
  mkdir -p "$d"
  {
    echo 'cmake_minimum_required(VERSION 3.18)'
    echo 'project(bt LANGUAGES CUDA)'
    printf 'add_executable(app main.cu'
    for ((i = 0; i < n; i++)); do printf ' k%d.cu' "$i"; done
    echo ')'
    echo 'set_target_properties(app PROPERTIES CUDA_ARCHITECTURES 90)'
  } >"$d/CMakeLists.txt"
  for ((i = 0; i < n; i++)); do
    printf '__global__ void k%d(const int *in, int *out) {\n  int i = threadIdx.x * gridDim.x + blockIdx.x;\n  out[i] = in[i] + %d;\n}\nvoid run%d(const int *in, int *out) { k%d<<<1024, 512>>>(in, out); }\n' \
      "$i" "$i" "$i" "$i" >"$d/k$i.cu"
  done
  {
    for ((i = 0; i < n; i++)); do echo "void run$i(const int *, int *);"; done
    echo 'int main() {'
    for ((i = 0; i < n; i++)); do echo "  run$i(nullptr, nullptr);"; done
    echo '  return 0;'
    echo '}'
  } >"$d/main.cu"
}
configure() { # configure <src> <build> [cmake args...]
  local s=$1 b=$2; shift 2
  run build.log cmake -S "$s" -B "$b" -G Ninja -DCMAKE_CUDA_COMPILER="$PNVCC" -DCMAKE_CUDA_FLAGS="$FLAGS" "$@"
}
objects() { find "$1" -name 'k*.cu.o' | sort; }
# every kernel object has the hook (weak) and carries clones (late images or in its image)
hooked() { local o; for o in $(objects "$1"); do nm "$o" | grep -q ' w __ptxopt_nvcc_launch$' || return 1; done; }
cloned() { local o; for o in $(objects "$1"); do grep -qa '__ptxopt_' "$o" || return 1; done; }
same_objects() { # same_objects <build a> <build b>
  local a b
  for a in $(objects "$1"); do b=$2/${a#"$1"/}; cmp -s "$a" "$b" || { echo "  differs: $a $b"; return 1; }; done
}
command -v ninja >/dev/null || skip "ninja not found (Debian package ninja-build)"

case $CASE in

ccache)
  command -v ccache >/dev/null || skip "ccache not found (Debian package ccache)"
  export CCACHE_DIR=$W/ccache CCACHE_BASEDIR=$W CCACHE_NOHASHDIR=1 CCACHE_TEMPDIR=$W/ccache-tmp
  stats() { ccache --print-stats | awk -v k="$1" '$1 == k {print $2}'; }
  hits() { echo $(($(stats direct_cache_hit) + $(stats preprocessed_cache_hit))); }
  misses() { stats cache_miss; }
  gen_project p 3
  # the build key as ccache's compiler check, for the CUDA compiles only
  check "configure (ptx-nvcc behind ccache)" configure p b1 \
    "-DCMAKE_CUDA_COMPILER_LAUNCHER=env;CCACHE_COMPILERCHECK=%compiler% --ptxopt-build-key;ccache"
  ccache -z >/dev/null
  check "first build" run build.log cmake --build b1
  check "...3+1 misses" test "$(misses)" = 4
  check "...objects hooked" hooked b1
  check "...objects carry clones" cloned b1
  cp -a b1 b1.first
  run build.log cmake --build b1 --target clean
  ccache -z >/dev/null
  check "second build (clean, same tree)" run build.log cmake --build b1
  check "...all 4 hits, no miss" test "$(hits):$(misses)" = 4:0
  check "...objects byte-identical" same_objects b1.first b1
  check "...still hooked, with clones" bash -c "$(declare -f objects hooked cloned); hooked b1 && cloned b1"
  check "--version shows the build key" grep -q '^ptx-nvcc: ptx-opt build key [0-9a-f]\{32\}$' <("$PNVCC" --version)
  k1=$("$PNVCC" --version | tail -1)
  k2=$(PTXOPT_NVCC_FLAGS=--ptxopt-passes=-O1 "$PNVCC" --version | tail -1)
  check "...which PTXOPT_NVCC_FLAGS changes" test "$k1" != "$k2"
  check "plain nvcc --version has no key" bash -c "! nvcc --version | grep -q 'build key'"
  elapsed ccache
  run build.log cmake --build b1 --target clean
  ccache -z >/dev/null
  check "PTXOPT_NVCC_FLAGS=--ptxopt-passes=-O1 rebuild" run build.log env PTXOPT_NVCC_FLAGS=--ptxopt-passes=-O1 cmake --build b1
  check "...all 4 miss" test "$(hits):$(misses)" = 0:4
  # a changed ptx-opt: a build tree whose ptx-opt is a copy, then one byte longer
  mkdir pb && ln -s "$PTXOPT_BUILD/ptx-nvcc-cicc" "$PTXOPT_BUILD/runtime" pb/ && cp "$PTXOPT_BUILD/ptx-opt" pb/
  run build.log cmake --build b1 --target clean
  ccache -z >/dev/null
  check "a copied ptx-opt (same bytes) rebuild" run build.log env PTXOPT_BUILD=$W/pb cmake --build b1
  check "...all 4 hit" test "$(hits):$(misses)" = 4:0
  printf '\0' >>pb/ptx-opt
  run build.log cmake --build b1 --target clean
  ccache -z >/dev/null
  check "a changed ptx-opt rebuild" run build.log env PTXOPT_BUILD=$W/pb cmake --build b1
  check "...all 4 miss" test "$(hits):$(misses)" = 0:4
  elapsed ccache
  # plain nvcc and ptx-nvcc: the same command line, one cache, the check
  # that works for every compiler
  export CCACHE_COMPILERCHECK='%compiler% --version'
  ccache -z >/dev/null
  (cd p && ccache nvcc -arch=sm_90 -c k0.cu -o "$W/n1.o" && ccache "$PNVCC" -arch=sm_90 -c k0.cu -o "$W/p1.o") >>build.log 2>&1
  check "nvcc then ptx-nvcc, same arguments: two misses" test "$(hits):$(misses)" = 0:2
  check "...the ptx-nvcc object hooked, nvcc's not" bash -c "nm p1.o | grep -q ptxopt_nvcc && ! nm n1.o | grep -q ptxopt"
  PTXOPT_DISABLE=1 ccache "$PNVCC" -arch=sm_90 -c p/k0.cu -o "$W/d1.o" >>build.log 2>&1
  check "PTXOPT_DISABLE=1 ptx-nvcc: no hook (never a hooked entry)" bash -c "! nm d1.o | grep -q ptxopt"
  ;;

sccache)
  command -v sccache >/dev/null || skip "sccache not found (Debian package sccache)"
  export SCCACHE_DIR=$W/sccache SCCACHE_SERVER_PORT=$((20000 + RANDOM % 20000)) SCCACHE_IDLE_TIMEOUT=120
  export SCCACHE_ERROR_LOG=$W/sccache.err SCCACHE_LOG=debug
  sccache --start-server >>build.log 2>&1 || skip "sccache --start-server failed ($(tail -1 build.log))"
  CLEANUP+=("sccache --stop-server >/dev/null 2>&1")
  stat() { sccache --show-stats 2>/dev/null | awk -v k="$1" 'index($0, k) == 1 {print $NF; exit}'; }
  counts() { echo "$(stat 'Cache hits'):$(stat 'Cache misses')"; }
  gen_project p 3
  check "configure (ptx-nvcc behind sccache)" configure p b1 -DCMAKE_CUDA_COMPILER_LAUNCHER=sccache
  sccache -z >/dev/null 2>&1
  check "first build" run build.log cmake --build b1
  check "...4 misses" test "$(counts)" = 0:4
  check "...objects hooked, with clones" bash -c "$(declare -f objects hooked cloned); hooked b1 && cloned b1"
  cp -a b1 b1.first
  run build.log cmake --build b1 --target clean
  sccache -z >/dev/null 2>&1
  check "second build" run build.log cmake --build b1
  check "...all 4 hits" test "$(counts)" = 4:0
  check "...objects byte-identical" same_objects b1.first b1
  elapsed sccache
  run build.log cmake --build b1 --target clean
  sccache -z >/dev/null 2>&1
  # sccache hashes ptx-nvcc's -E output, which carries the build key; the
  # server compiles with the client's environment
  check "PTXOPT_NVCC_FLAGS=--ptxopt-passes=-O1 rebuild" run build.log env PTXOPT_NVCC_FLAGS=--ptxopt-passes=-O1 cmake --build b1
  check "...all 4 miss" test "$(counts)" = 0:4
  sccache -z >/dev/null 2>&1
  (cd p && sccache nvcc -arch=sm_90 -c k0.cu -o "$W/n1.o" && sccache "$PNVCC" -arch=sm_90 -c k0.cu -o "$W/p1.o") >>build.log 2>&1
  check "nvcc then ptx-nvcc, same arguments: two misses" test "$(counts)" = 0:2
  check "...the ptx-nvcc object hooked, nvcc's not" bash -c "nm p1.o | grep -q ptxopt_nvcc && ! nm n1.o | grep -q ptxopt"
  ;;

ninja)
  gen_project p 16
  check "configure (16 translation units)" configure p b8
  check "ninja -j8" run build.log cmake --build b8 -j 8
  check "...16 objects" test "$(objects b8 | wc -l)" = 16
  check "...all hooked, with clones" bash -c "$(declare -f objects hooked cloned); hooked b8 && cloned b8"
  check "...the program has the shim" grep -Eq ' [tT] __ptxopt_nvcc_launch$' <(nm b8/app)
  check "...no ptx-nvcc warning" bash -c "! grep -q 'ptx-nvcc: warning' build.log"
  elapsed ninja
  ;;

distcc)
  command -v distcc >/dev/null && command -v distccd >/dev/null || skip "distcc/distccd not found (Debian package distcc)"
  PORT=$((20000 + RANDOM % 20000))
  mkdir -p masq
  ln -s "$(command -v distcc)" masq/g++  # what /usr/lib/distcc holds: distcc under the compiler's name
  ln -s "$(command -v distcc)" masq/gcc
  # distccd on the loopback only, for this test: it runs compilers found in
  # DISTCCD_PATH, and exits when the test does (or after 300 s)
  # (run by root, distccd becomes the user distcc: it logs to our stderr)
  DISTCCD_PATH=/usr/bin timeout 300 distccd --no-detach --daemon --listen 127.0.0.1 --allow 127.0.0.1/32 \
    --port $PORT --log-stderr --log-level info --jobs 2 2>"$W/distccd.log" &
  DPID=$!
  CLEANUP+=("kill $DPID 2>/dev/null; wait $DPID 2>/dev/null")
  for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done
  export DISTCC_HOSTS="127.0.0.1:$PORT/2" DISTCC_SKIP_LOCAL_RETRY=1 DISTCC_FALLBACK=1 DISTCC_LOG=$W/distcc.log DISTCC_VERBOSE=1
  printf '__global__ void k(const int *in, int *out) { int i = threadIdx.x * gridDim.x + blockIdx.x; out[i] = in[i] + 1; }\nvoid run(const int *a, int *b) { k<<<1024, 512>>>(a, b); }\n' >k.cu
  check "ptx-nvcc -c without distcc (reference)" run build.log "$PNVCC" $FLAGS -arch=sm_90 -c k.cu -o ref.o
  : >distcc.log
  check "distcc ptx-nvcc -c k.cu" run build.log distcc "$PNVCC" $FLAGS -arch=sm_90 -c k.cu -o d.o
  check "...ran locally: distcc does not send a .cu" grep -q 'no visible input file' distcc.log
  check "...the object hooked, with clones" bash -c "nm d.o | grep -q ' w __ptxopt_nvcc_launch$' && grep -qa __ptxopt_ d.o"
  : >distcc.log
  jobs0=$(grep -c 'COMPILE_OK' distccd.log)
  check "ptx-nvcc -ccbin <distcc as g++> -c k.cu" run build.log "$PNVCC" $FLAGS -arch=sm_90 -ccbin "$W/masq/g++" -c k.cu -o h.o
  jobs1=$(grep -c 'COMPILE_OK' distccd.log)
  check "...nvcc's host compile went to the daemon ($((jobs1 - jobs0)) job(s))" test $((jobs1 - jobs0)) -ge 1
  check "...the object hooked, with clones" bash -c "nm h.o | grep -q ' w __ptxopt_nvcc_launch$' && grep -qa __ptxopt_ h.o"
  ;;

*)
  echo "unknown case '$CASE'"
  exit 2
  ;;
esac

echo "$CASE: $((SECONDS - T0)) s"
if [ "$FAILS" -gt 0 ]; then
  echo "--- build.log (tail) ---"
  tail -n 40 build.log | sed 's/^/    | /'
  echo "$CASE: $FAILS check(s) FAILED"
  exit 1
fi
echo "$CASE: all checks passed"
