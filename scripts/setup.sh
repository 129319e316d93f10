#!/usr/bin/env bash
# Makes a fresh Debian 12 machine ready to build and test ptx-opt, then builds.
#
#   scripts/setup.sh [build-dir]      (default: build)
#
# 1. installs the Debian packages the build and the tests use (apt-get update
#    first; skipped when every package is already installed);
# 2. checks the CUDA toolkit (nvcc, ptxas, cuda.h, the libcuda stub) and says
#    what to do when something is missing;
# 3. configures and builds with CMake.
# Environment: CUDA_HOME (default /usr/local/cuda), JOBS (default: nproc).
set -euo pipefail
. "$(dirname "$0")/env.sh"
BUILD=${1:-build}

say() { printf '[setup] %s\n' "$*"; }

# ---- 1. Debian packages ------------------------------------------------------
PKGS=(cmake make g++ python3
      antlr4 libantlr4-runtime-dev   # parser generator (tool 4.7.2) and C++ runtime (4.9)
      catch2                          # unit tests (v2, <catch2/catch.hpp>)
      libcli11-dev                    # command line options
      nlohmann-json3-dev              # the manifest and the JSON report
      llvm-14-tools                   # FileCheck and lit
      ninja-build ccache sccache distcc  # ptx-nvcc's CMake test and tests/buildtools: generators, launchers
      pybind11-dev python3-dev python3-numpy)  # the ptxopt Python module (python/, docs/PYTHON.md)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  say "installing: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { say "error: need root (or sudo) to install ${missing[*]}"; exit 1; }
    SUDO=sudo
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  say "Debian packages: all present"
fi

# ---- 2. CUDA toolkit ---------------------------------------------------------
cuda_ok=1
need() {  # need <what> <path>
  if [ -e "$2" ]; then say "CUDA: $1: $2"; else say "CUDA: $1 NOT FOUND at $2"; cuda_ok=0; fi
}
need nvcc "$CUDA_HOME/bin/nvcc"
need ptxas "$CUDA_HOME/bin/ptxas"
need cuda.h "$CUDA_HOME/include/cuda.h"
need "libcuda stub" "$CUDA_HOME/lib64/stubs/libcuda.so"
if [ "$cuda_ok" = 1 ]; then
  say "CUDA: $("$CUDA_HOME/bin/ptxas" --version | tail -1)"
else
  cat >&2 <<MSG
[setup] The CUDA toolkit is incomplete or not at CUDA_HOME=$CUDA_HOME.
[setup] ptx-opt itself builds without it, but the tests assemble every output
[setup] with ptxas, the corpus scripts run nvcc, and the runtime needs cuda.h.
[setup] Install CUDA Toolkit 13 (https://developer.nvidia.com/cuda-downloads,
[setup] Debian 12 network repo: apt-get install cuda-toolkit-13-0) or point
[setup] CUDA_HOME at an existing install, then run this script again.
MSG
  if [ "${PTXOPT_ALLOW_NO_CUDA:-0}" != 1 ]; then
    say "stopping (set PTXOPT_ALLOW_NO_CUDA=1 to build anyway)"
    exit 1
  fi
fi
export PATH="$CUDA_HOME/bin:$PATH"

# ---- 3. configure and build ----------------------------------------------------
say "configuring $BUILD"
# Ninja (installed above) for a new tree: env.sh's generator_args.
# shellcheck disable=SC2046
cmake $(generator_args "$BUILD") -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
say "building with $JOBS jobs"
start=$(date +%s)
cmake --build "$BUILD" -j "$JOBS" 2>&1 | grep -E "error|warning: |Error" || true
[ -x "$BUILD/ptx-opt" ] || { say "error: build failed (run: cmake --build $BUILD)"; exit 1; }
say "built $BUILD/ptx-opt in $(( $(date +%s) - start )) s"
