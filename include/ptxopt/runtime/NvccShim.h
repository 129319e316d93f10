// The launch hooks of ptx-nvcc builds (docs/NVCC.md), implemented in
// runtime/NvccShim.cpp (libptxopt_nvcc). The host files ptx-nvcc rewrites
// call them through weak references; applications never call them directly,
// except the two query functions at the end.
#pragma once

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Called after cudart's __cudaRegisterFunction for each kernel of a
/// translation unit whose host file carries a manifest: registers the
/// kernel's clones in the same fatbinary handle.
void __ptxopt_nvcc_register(const char *manifestJson, void **fatCubinHandle, const char *hostFun,
                            const char *deviceName);
/// cudart's __cudaGetKernel, remembering which handles have clones.
cudaError_t __ptxopt_nvcc_get_kernel(cudaKernel_t *kernel, const void *hostFun);
/// cudart's __cudaLaunchKernel (perThreadStream = 0) or
/// __cudaLaunchKernel_ptsz (1), running the first variant whose conditions
/// hold (docs/RUNTIME.md, "Selection rules") or the original.
cudaError_t __ptxopt_nvcc_launch(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t sharedMem,
                                 cudaStream_t stream, int perThreadStream);

/// The .entry name the calling thread's last hooked launch ran (a clone's or
/// the original's), or NULL when that launch was of a kernel without clones.
const char *ptxopt_nvcc_last_variant(void);
/// Its kind: "swap", "remap", "group", ... or "original"; NULL as above.
const char *ptxopt_nvcc_last_variant_kind(void);

#ifdef __cplusplus
}
#endif
