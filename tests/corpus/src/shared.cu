// Static and dynamic (extern) shared memory.
#define TILE 32

// Static shared: tiled transpose with bank-conflict padding.
__global__ void transposeTiled(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w)
    out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

// Dynamic shared: block reduction with extern __shared__.
__global__ void blockReduceSum(const float *in, float *out, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float v = 0.f;
  if (i < n) v += in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Dynamic shared partitioned into several typed arrays.
__global__ void dynSharedMixed(const int *keys, const double *vals, double *out,
                               int n) {
  extern __shared__ __align__(16) unsigned char smem[];
  double *svals = reinterpret_cast<double *>(smem);
  int *skeys = reinterpret_cast<int *>(svals + blockDim.x);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  skeys[threadIdx.x] = i < n ? keys[i] : 0;
  svals[threadIdx.x] = i < n ? vals[i] : 0.0;
  __syncthreads();
  int partner = (threadIdx.x + 1) % blockDim.x;
  if (i < n)
    out[i] = skeys[partner] * svals[partner];
}

// Shared-memory tiled SGEMM (static shared, two tiles).
__global__ void sgemmTiled(const float *A, const float *B, float *C, int M,
                           int N, int K) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.f;
  for (int t = 0; t < (K + 15) / 16; ++t) {
    int ka = t * 16 + threadIdx.x, kb = t * 16 + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[row * K + ka] : 0.f;
    Bs[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? B[kb * N + col] : 0.f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// __constant__ memory and __device__ globals alongside shared.
__constant__ float c_coeffs[9];
__device__ int g_counter;

__global__ void stencil1D(const float *in, float *out, int n) {
  __shared__ float s[256 + 8];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + 4;
  s[l] = g < n ? in[g] : 0.f;
  if (threadIdx.x < 4) {
    s[l - 4] = (g >= 4) ? in[g - 4] : 0.f;
    s[l + blockDim.x] = (g + blockDim.x < n) ? in[g + blockDim.x] : 0.f;
  }
  __syncthreads();
  float r = 0.f;
#pragma unroll
  for (int k = -4; k <= 4; ++k)
    r += c_coeffs[k + 4] * s[l + k];
  if (g < n) out[g] = r;
  if (g == 0) g_counter++;
}
