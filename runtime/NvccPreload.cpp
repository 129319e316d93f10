// When a ptx-nvcc program's clone images are loaded under lazy loading
// (docs/NVCC.md, "Delivery").
//
// What: cudart's allocation calls (cudaMalloc, cudaMallocManaged,
// cudaMallocPitch, cudaMalloc3D, cudaMallocHost, cudaHostAlloc, and
// cudaFree, whose cudaFree(0) programs use to make their context) are
// wrapped like the launch APIs (GNU ld --wrap on ptx-nvcc's links,
// NvccWrap.cpp): after the first one that succeeds, the shim loads every
// kernel's clone images (preloadImages, NvccShim.cpp).
// Why: under CUDA_MODULE_LOADING=LAZY (CUDA's default) an image is loaded
// when one of its functions is first launched. A clone image loaded at a
// kernel's first launch is a module load, and a function load per clone it
// reads, inside the program's run that nvcc's build does not have (on an
// H200 the matrix-vector program mv_ax ran 2.2x under LAZY against 6.1x
// under EAGER). Programs allocate before they run their kernels, and the
// context exists after the first allocation: loading the clones then puts
// their cost where EAGER puts all of nvcc's, at start-up.
// When not: CUDA_MODULE_LOADING=EAGER (loaded with nvcc's images),
// PTXOPT_PRELOAD_IMAGES=0, PTXOPT_DISABLE=1, a link without the --wrap
// options (then the rent-or-buy rule of NvccShim.cpp decides at launch).
//
// The __real_ references are weak, as in NvccWrap.cpp.
#include <cuda_runtime_api.h>

#include "NvccWrap.h"

#define PTXOPT_REAL(name, params) extern "C" cudaError_t __real_##name params __attribute__((weak));
PTXOPT_REAL(cudaMalloc, (void **, size_t))
PTXOPT_REAL(cudaMallocManaged, (void **, size_t, unsigned))
PTXOPT_REAL(cudaMallocPitch, (void **, size_t *, size_t, size_t))
PTXOPT_REAL(cudaMalloc3D, (cudaPitchedPtr *, cudaExtent))
PTXOPT_REAL(cudaMallocHost, (void **, size_t))
PTXOPT_REAL(cudaHostAlloc, (void **, size_t, unsigned))
PTXOPT_REAL(cudaFree, (void *))
#undef PTXOPT_REAL

namespace {

/// `e` from the real call; on success the clone images are loaded (once).
cudaError_t allocated(cudaError_t e) {
  if (e == cudaSuccess) ptxopt::rt::nvccwrap::preloadImages();
  return e;
}

}  // namespace

extern "C" {

cudaError_t __wrap_cudaMalloc(void **p, size_t n) {
  return __real_cudaMalloc ? allocated(__real_cudaMalloc(p, n)) : cudaErrorNotSupported;
}

cudaError_t __wrap_cudaMallocManaged(void **p, size_t n, unsigned flags) {
  return __real_cudaMallocManaged ? allocated(__real_cudaMallocManaged(p, n, flags)) : cudaErrorNotSupported;
}

cudaError_t __wrap_cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height) {
  return __real_cudaMallocPitch ? allocated(__real_cudaMallocPitch(p, pitch, width, height)) : cudaErrorNotSupported;
}

cudaError_t __wrap_cudaMalloc3D(cudaPitchedPtr *p, cudaExtent extent) {
  return __real_cudaMalloc3D ? allocated(__real_cudaMalloc3D(p, extent)) : cudaErrorNotSupported;
}

cudaError_t __wrap_cudaMallocHost(void **p, size_t n) {
  return __real_cudaMallocHost ? allocated(__real_cudaMallocHost(p, n)) : cudaErrorNotSupported;
}

cudaError_t __wrap_cudaHostAlloc(void **p, size_t n, unsigned flags) {
  return __real_cudaHostAlloc ? allocated(__real_cudaHostAlloc(p, n, flags)) : cudaErrorNotSupported;
}

cudaError_t __wrap_cudaFree(void *p) {
  return __real_cudaFree ? allocated(__real_cudaFree(p)) : cudaErrorNotSupported;
}

}  // extern "C"
