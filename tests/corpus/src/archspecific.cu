// Architecture-specific features (sm_90a): wgmma, setmaxnreg, elect.sync.
// Guarded by __CUDA_ARCH_FEAT_SM90_ALL so the file compiles for every
// target; only the compute_90a build contains the sm_90a-only instructions.
#include <cstdint>

__device__ __forceinline__ uint64_t makeSmemDesc(const void *p) {
  // Matrix descriptor: start address (>>4) in bits 0-13, LBO/SBO left at
  // simple values, no swizzle.
  uint64_t addr = (uint64_t)(unsigned)__cvta_generic_to_shared(p);
  uint64_t desc = (addr & 0x3FFFF) >> 4;
  desc |= (uint64_t)(128 >> 4) << 16; // leading byte offset
  desc |= (uint64_t)(256 >> 4) << 32; // stride byte offset
  return desc;
}

// One warpgroup (128 threads) computes a 64x8 f32 tile from f16 inputs.
__global__ void __launch_bounds__(128) wgmmaTile(const uint4 *A, const uint4 *B,
                                                 float *C) {
  __shared__ __align__(128) uint4 sA[64 * 16 * 2 / 16];
  __shared__ __align__(128) uint4 sB[8 * 16 * 2 / 16];
  for (int i = threadIdx.x; i < 128; i += blockDim.x) sA[i] = A[i];
  if (threadIdx.x < 16) sB[threadIdx.x] = B[threadIdx.x];
  __syncthreads();
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  uint64_t da = makeSmemDesc(sA), db = makeSmemDesc(sB);
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  asm volatile("{\n\t"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
               "{%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;\n\t"
               "}\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "l"(da), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#else
  d0 = __int_as_float(sA[threadIdx.x].x);
  d1 = __int_as_float(sB[threadIdx.x & 15].y);
#endif
  C[threadIdx.x * 4 + 0] = d0;
  C[threadIdx.x * 4 + 1] = d1;
  C[threadIdx.x * 4 + 2] = d2;
  C[threadIdx.x * 4 + 3] = d3;
}

// Producer/consumer warp specialization with register reallocation.
__global__ void __launch_bounds__(256) warpSpecialized(const float *in, float *out) {
  int wg = threadIdx.x / 128;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    v *= 2.f;
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    v += 1.f;
  }
#else
  v = wg == 0 ? v * 2.f : v + 1.f;
#endif
  unsigned leader = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{\n\t.reg .pred P;\n\t"
               "elect.sync _|P, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, P;\n\t}"
               : "=r"(leader));
#endif
  out[blockIdx.x * blockDim.x + threadIdx.x] = v + leader;
}
