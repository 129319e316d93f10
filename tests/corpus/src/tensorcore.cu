// Tensor cores: WMMA API and inline mma.sync PTX.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

// One warp computes a 16x16 tile of C = A*B (half in, float accumulate).
__global__ void wmmaGemm16(const __half *A, const __half *B, float *C, int M,
                           int N, int K) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    int ar = warpM * 16, bc = warpN * 16;
    if (ar < M && bc < N) {
      wmma::load_matrix_sync(a, A + ar * K + k, K);
      wmma::load_matrix_sync(b, B + bc * K + k, K);
      wmma::mma_sync(acc, a, b, acc);
    }
  }
  int cr = warpM * 16, cc = warpN * 16;
  if (cr < M && cc < N)
    wmma::store_matrix_sync(C + cr * N + cc, acc, N, wmma::mem_row_major);
}

// Integer WMMA (s8, sm_72+) and half accumulate.
__global__ void wmmaInt8(const signed char *A, const signed char *B, int *C) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
  wmma::fill_fragment(c, 0);
  wmma::load_matrix_sync(a, A, 16);
  wmma::load_matrix_sync(b, B, 16);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(C, c, 16, wmma::mem_col_major);
}

__global__ void wmmaHalfAcc(const __half *A, const __half *B, __half *C) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::col_major> a;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 32, 8, 16, __half> c;
  wmma::fill_fragment(c, __float2half(0.f));
  wmma::load_matrix_sync(a, A, 32);
  wmma::load_matrix_sync(b, B, 8);
  wmma::mma_sync(c, a, b, c);
  for (int i = 0; i < c.num_elements; ++i) c.x[i] = __hmul(c.x[i], c.x[i]);
  wmma::store_matrix_sync(C, c, 8, wmma::mem_row_major);
}

// TF32 / bf16 WMMA (sm_80+).
__global__ void wmmaTf32Bf16(const float *A, const float *B, float *C,
                             const __nv_bfloat16 *X, const __nv_bfloat16 *Y,
                             float *Z) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
  wmma::fill_fragment(c, 0.f);
  wmma::load_matrix_sync(a, A, 8);
  wmma::load_matrix_sync(b, B, 16);
  for (int i = 0; i < a.num_elements; ++i) a.x[i] = wmma::__float_to_tf32(a.x[i]);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(C, c, 16, wmma::mem_row_major);

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> x;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> y;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> z;
  wmma::fill_fragment(z, 0.f);
  wmma::load_matrix_sync(x, X, 16);
  wmma::load_matrix_sync(y, Y, 16);
  wmma::mma_sync(z, x, y, z);
  wmma::store_matrix_sync(Z, z, 16, wmma::mem_row_major);
#endif
}

// Inline PTX mma.sync m16n8k16 (sm_80+) and m16n8k8 (sm_75+), plus ldmatrix.
__global__ void mmaSyncInline(const unsigned *A, const unsigned *B, float *C) {
  int lane = threadIdx.x & 31;
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned a0 = A[lane * 4 + 0], a1 = A[lane * 4 + 1], a2 = A[lane * 4 + 2],
           a3 = A[lane * 4 + 3];
  unsigned b0 = B[lane * 2 + 0], b1 = B[lane * 2 + 1];
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  unsigned a0 = A[lane * 2 + 0], a1 = A[lane * 2 + 1];
  unsigned b0 = B[lane];
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
      "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "r"(a0), "r"(a1), "r"(b0));
#endif
  C[lane * 4 + 0] = d0;
  C[lane * 4 + 1] = d1;
  C[lane * 4 + 2] = d2;
  C[lane * 4 + 3] = d3;
}

__global__ void ldmatrixInline(const __half *g, unsigned *out) {
  __shared__ __align__(16) __half tile[16 * 16];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) tile[i] = g[i];
  __syncthreads();
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(threadIdx.x & 15) * 16 + (threadIdx.x >> 4) * 8]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(addr));
#endif
  out[threadIdx.x * 4 + 0] = r0;
  out[threadIdx.x * 4 + 1] = r1;
  out[threadIdx.x * 4 + 2] = r2;
  out[threadIdx.x * 4 + 3] = r3;
}
