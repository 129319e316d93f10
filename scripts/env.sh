# shellcheck shell=bash
# scripts/env.sh: the set-up every developer script shares. Sourced, never
# run: from scripts/ `. "$(dirname "$0")/env.sh"`, from a folder below it
# (bench/, test/, gen/) `. "$(dirname "$0")/../env.sh"`. Afterwards:
#   the current folder is the repository root, and ROOT names it;
#   CUDA_HOME is the toolkit (default /usr/local/cuda), its bin/ first on PATH;
#   JOBS is the number of parallel jobs (default: nproc);
#   PTXOPT is the ptx-opt to run (default build/ptx-opt).
# and these functions:
#   abspath P   P, made absolute against ROOT
#   have_gpu    true where nvidia-smi runs and lists a GPU
#   gpu_cap     the first GPU's compute capability as digits (90 for 9.0);
#               empty without nvidia-smi. Scripts pick ARCH=sm_${CAP:-90}
#   gpu_desc    the first GPU's name, driver and compute capability
#   generator_args DIR  "-G Ninja" where ninja is installed and DIR is a new
#               tree or already Ninja's (8% less wall time than Makefiles on
#               two cores, 217 s vs 235 s for the Release build); nothing for
#               a tree configured with Makefiles before (CMake refuses a switch)
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH="$CUDA_HOME/bin:$PATH"
JOBS=${JOBS:-$(nproc)}
PTXOPT=${PTXOPT:-$ROOT/build/ptx-opt}

abspath() { case $1 in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }
have_gpu() { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }
gpu_cap() { nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .'; }
gpu_desc() { nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | head -1; }
generator_args() {
  command -v ninja >/dev/null || return 0
  [ ! -f "$1/CMakeCache.txt" ] || grep -q "^CMAKE_GENERATOR:INTERNAL=Ninja$" "$1/CMakeCache.txt" || return 0
  echo "-G Ninja"
}
