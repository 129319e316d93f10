// The launch hooks of ptx-nvcc builds (docs/NVCC.md), implemented in
// runtime/NvccShim.cpp (libptxopt_nvcc). The host stubs ptx-nvcc rewrites
// call them through weak references; applications never call them directly,
// except the two query functions at the end.
//
// The shim itself refers to no CUDA runtime symbol: each hooked object passes
// a table of the cudart functions it was linked with (static or shared
// cudart), so the shim can come anywhere on a link line. The one exception
// is the wrappers of the launch APIs (runtime/NvccWrap.cpp, reached through
// the linker's --wrap), whose __real_ references are weak.
#pragma once

#include <cuda_runtime_api.h>

// The hooked objects refer to the three hooks weakly (an object linked
// without the shim behaves as nvcc's); the shim defines them.
#ifndef PTXOPT_NVCC_WEAK
#define PTXOPT_NVCC_WEAK
#endif

#ifdef __cplusplus
extern "C" {
#endif

// The lines from here to @hook-block-end are also the declarations of every
// hook block: src/driver/nvcc_cicc.cpp includes them as text, generated at
// build time (cmake/HookDecls.cmake), after defining PTXOPT_NVCC_WEAK as
// __attribute__((weak)). They are C and C++ alike, and name no include.
// @hook-block-begin
/// The layout version of ptxopt_nvcc_cudart a hook block passes.
#define PTXOPT_NVCC_CUDART_VERSION 3

/// A clone's device image (ptx-nvcc's clone images, the default): a
/// fatbinary, registered with cudart when a launch first can use one of its
/// clones; the clones of a translation unit name the same one.
typedef struct ptxopt_nvcc_image {
  const char *name;                   // the clone's .entry name
  const unsigned long long *fatbin;  // the fatbinary (8-byte aligned)
} ptxopt_nvcc_image;

/// Version 3 (version 1 ended at getErrorName, version 2 at imageCount).
typedef struct ptxopt_nvcc_cudart {
  int version;
  void (*registerFunction)(void **, const char *, char *, const char *, int, uint3 *, uint3 *, dim3 *, dim3 *,
                           int *);
  cudaError_t (*getKernel)(cudaKernel_t *, const void *);
  cudaError_t (*launchKernel)(cudaKernel_t, dim3, dim3, void **, size_t, cudaStream_t);
  cudaError_t (*launchKernelPtsz)(cudaKernel_t, dim3, dim3, void **, size_t, cudaStream_t);
  cudaError_t (*getDevice)(int *);
  cudaError_t (*deviceGetAttribute)(int *, enum cudaDeviceAttr, int);
  cudaError_t (*funcGetAttributes)(struct cudaFuncAttributes *, const void *);
  cudaError_t (*peekAtLastError)(void);
  cudaError_t (*getLastError)(void);
  const char *(*getErrorName)(cudaError_t);
  // version 2
  void **(*registerFatBinary)(void *);
  void (*registerFatBinaryEnd)(void **);
  const ptxopt_nvcc_image *images;  // the unit's clone images (none: the clones are in its own image)
  int imageCount;
  // version 3: late clone images (docs/NVCC.md, "Clone images"): the same
  // table as one block of bytes that the build links in after the unit was
  // compiled (a weak symbol: null when it was not). Layout (little-endian,
  // offsets from its start): "PTXONVI1", uint32 n, uint32 0, then n entries
  // {uint32 name offset, uint32 0, uint64 fatbinary offset}; names end in
  // NUL, fatbinaries are 16-byte aligned.
  const unsigned char *imageBlob;
} ptxopt_nvcc_cudart;

/// Called after cudart's __cudaRegisterFunction for each kernel of a
/// translation unit whose stub carries a manifest: registers the kernel's
/// clones in the same fatbinary handle.
void __ptxopt_nvcc_register(const ptxopt_nvcc_cudart *rt, const char *manifestJson, void **fatCubinHandle,
                            const char *hostFun, const char *deviceName) PTXOPT_NVCC_WEAK;
/// cudart's __cudaGetKernel, remembering which handles have clones.
cudaError_t __ptxopt_nvcc_get_kernel(const ptxopt_nvcc_cudart *rt, cudaKernel_t *kernel,
                                     const void *hostFun) PTXOPT_NVCC_WEAK;
/// cudart's __cudaLaunchKernel (perThreadStream = 0) or
/// __cudaLaunchKernel_ptsz (1), running the first variant whose conditions
/// hold (docs/RUNTIME.md, "Selection rules") or the original.
cudaError_t __ptxopt_nvcc_launch(const ptxopt_nvcc_cudart *rt, cudaKernel_t kernel, dim3 grid, dim3 block,
                                 void **args, size_t sharedMem, cudaStream_t stream,
                                 int perThreadStream) PTXOPT_NVCC_WEAK;
// @hook-block-end

/// The .entry name the calling thread's last hooked launch ran (a clone's or
/// the original's), or NULL when that launch was of a kernel without clones.
const char *ptxopt_nvcc_last_variant(void);
/// Its kind: "swap", "remap", "group", ... or "original"; NULL as above.
const char *ptxopt_nvcc_last_variant_kind(void);

#ifdef __cplusplus
}
#endif
