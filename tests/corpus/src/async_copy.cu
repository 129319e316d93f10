// cp.async / memcpy_async / pipeline primitives.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;

// cg::memcpy_async with cg::wait (falls back to sync copy pre-sm_80).
__global__ void cgMemcpyAsync(const float *in, float *out, int n) {
  extern __shared__ float tile[];
  auto block = cg::this_thread_block();
  int base = blockIdx.x * blockDim.x;
  int cnt = min((int)blockDim.x, n - base);
  if (cnt <= 0) return;
  cg::memcpy_async(block, tile, in + base, sizeof(float) * cnt);
  cg::wait(block);
  if (threadIdx.x < cnt) out[base + threadIdx.x] = tile[threadIdx.x] * 2.f;
}

// Low-level __pipeline primitives (cp.async on sm_80+).
__global__ void pipelinePrimitives(const int4 *in, int4 *out, int n) {
  __shared__ int4 buf[2][128];
  int stages = (n + blockDim.x - 1) / blockDim.x;
  int t = threadIdx.x;
  if (t < n) __pipeline_memcpy_async(&buf[0][t], &in[t], sizeof(int4));
  __pipeline_commit();
  for (int s = 0; s < stages; ++s) {
    int nx = (s + 1) * blockDim.x + t;
    if (s + 1 < stages && nx < n)
      __pipeline_memcpy_async(&buf[(s + 1) & 1][t], &in[nx], sizeof(int4));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    int idx = s * blockDim.x + t;
    if (idx < n) {
      int4 v = buf[s & 1][t];
      out[idx] = make_int4(v.w, v.z, v.y, v.x);
    }
    __syncthreads();
  }
}

// cuda::pipeline with multi-stage producer/consumer in one block.
__global__ void cudaPipelineStages(const float *in, float *out, int chunks) {
  constexpr int STAGES = 2;
  __shared__ float sm[STAGES][256];
  auto block = cg::this_thread_block();
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> st;
  auto pipe = cuda::make_pipeline(block, &st);
  for (int c = 0; c < STAGES && c < chunks; ++c) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, sm[c], in + c * 256, sizeof(float) * 256, pipe);
    pipe.producer_commit();
  }
  for (int c = 0; c < chunks; ++c) {
    pipe.consumer_wait();
    float v = sm[c % STAGES][threadIdx.x] + 1.f;
    pipe.consumer_release();
    out[c * 256 + threadIdx.x] = v;
    int nc = c + STAGES;
    if (nc < chunks) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, sm[nc % STAGES], in + nc * 256,
                         sizeof(float) * 256, pipe);
      pipe.producer_commit();
    }
  }
}

// Raw cp.async inline PTX (sm_80+) including the bypass (.cg) 16-byte form.
__global__ void cpAsyncInline(const float4 *in, float4 *out) {
  __shared__ __align__(16) float4 s[128];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned saddr = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(saddr),
               "l"(in + blockIdx.x * 128 + threadIdx.x));
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group 0;\n" ::);
#else
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
#endif
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = s[127 - threadIdx.x];
}

// TMA-free bulk async copy with mbarrier (sm_90+).
__global__ void bulkCopyMbarrier(const int4 *in, int4 *out) {
  __shared__ __align__(128) int4 s[64];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ __align__(8) unsigned long long bar;
  unsigned sbar = (unsigned)__cvta_generic_to_shared(&bar);
  unsigned sdst = (unsigned)__cvta_generic_to_shared(s);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sbar));
    asm volatile("fence.proxy.async.shared::cta;");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sbar),
                 "r"(64 * 16));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1], %2, [%3];" ::"r"(sdst),
                 "l"(in + blockIdx.x * 64), "r"(64 * 16), "r"(sbar)
                 : "memory");
  }
  asm volatile("{\n\t.reg .pred P;\n"
               "WAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 P, [%0], 0;\n\t"
               "@!P bra WAIT_%=;\n\t}" ::"r"(sbar) : "memory");
#else
  if (threadIdx.x < 64) s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
#endif
  if (threadIdx.x < 64) out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}
