// Between the ptx-nvcc shim's registry (NvccShim.cpp) and its wrappers of
// cudart's launch APIs (NvccWrap.cpp): cudaLaunchKernel, cudaLaunchKernelExC,
// cudaLaunchCooperativeKernel and kernel nodes of graphs, reached through GNU
// ld's --wrap (docs/NVCC.md,
// "Launch paths"). Private to the shim.
#pragma once

#include <cuda_runtime_api.h>

#include "ptxopt/runtime/Select.h"

namespace ptxopt::rt::nvccwrap {

/// A launch the wrappers make: the clone's (func set) or the original's.
struct WrapLaunch {
  const void *func = nullptr;  // the clone's private host address (registered with cudart); null: the original
  int variant = -1;            // its index in the kernel's manifest
  cudaError_t before = cudaSuccess;  // cudaPeekAtLastError before the launch
  LaunchShape shape;           // the transformed launch
  void **args = nullptr;       // the clone's argument array (in buf)
  VariantArgs buf;
};

/// The kernel with clones that `func` names, by its host function address
/// (what `&kernel` gives) or its cudaKernel_t; null for any other kernel.
/// No lock, no allocation.
void *findKernel(const void *func);

/// cudaGetKernel gave `handle` for host function `hostFun`: a kernel with
/// clones is found by it too (cudaLaunchKernelEx takes a cudaKernel_t).
void noteHandle(const void *hostFun, cudaKernel_t handle);

/// The variant to run for a launch `s` of `kernel` (findKernel's) with
/// arguments `args`: the first whose conditions hold, as for a <<<>>>
/// launch, and whose transformed grid `cluster` divides (1,1,1: no
/// cluster). True and `out` filled for a clone; false for the original.
bool chooseLaunch(void *kernel, const LaunchShape &s, void **args, const Dims &cluster, WrapLaunch &out);

/// After the launch chose by chooseLaunch was made with result `e`:
/// ptxopt_nvcc_last_variant; a refused clone launch (e != cudaSuccess) warns
/// once per kernel (not for cudaErrorCooperativeLaunchTooLarge: a
/// cooperative clone whose blocks cannot all be resident, an expected way
/// to the original) and clears the error it left where none was pending
/// before, so that the caller can run the original.
void launched(void *kernel, const WrapLaunch &l, cudaError_t e);

/// The original ran (or was recorded): ptxopt_nvcc_last_variant says so.
void ranOriginal(void *kernel);

/// After the program's first successful allocation (its context exists):
/// under lazy loading, the clone images loaded now, outside its run
/// (NvccShim.cpp). Once per process; cheap after.
void preloadImages();

/// After a clone launch that succeeded on `stream` for the caller's `func`,
/// `grid`, `block`: while a stream capture is active (cudaStreamBeginCapture
/// and the like, wrapped; or, with none of those in flight, one
/// cudaStreamIsCapturing reports on a stream other than the legacy default
/// one), the graph node the launch made there (the capture's last node) is
/// noted as holding a clone, so that cudaGraphKernelNodeGetParams gives the
/// caller's function, grid and block back, as for nodes a wrapper set. On
/// the legacy default stream outside a wrapped capture: a relaxed atomic
/// load.
void noteCapture(cudaStream_t stream, const void *func, dim3 grid, dim3 block);

}  // namespace ptxopt::rt::nvccwrap
