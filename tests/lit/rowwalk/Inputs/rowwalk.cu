// Row walks for the rowwalk pass (tests/lit/rowwalk). Compiled with
//   nvcc -arch=sm_90 -O3 -ptx rowwalk.cu -o rowwalk.ptx
// (nvcc 13.0). The same kernels run on the GPU in tests/gpu/cases.

// The accumulator in memory: tmp may alias A or x, so nvcc stores tmp[i]
// in every iteration (PolyBench's atax/bicg/mvt shape).
extern "C" __global__ void rowsum_mem(const float *A, const float *x, float *tmp, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    tmp[i] = 0;
    for (int j = 0; j < ny; j++) tmp[i] += A[i * ny + j] * x[j];
  }
}

// The same with __restrict__: the accumulator lives in a register.
extern "C" __global__ void rowsum_restrict(const float *__restrict__ A, const float *__restrict__ x,
                                           float *__restrict__ y, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    y[i] = 0;
    for (int j = 0; j < ny; j++) y[i] += A[i * ny + j] * x[j];
  }
}

extern "C" __global__ void rowsum_double(const double *A, const double *x, double *y, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nx) return;
  double s = 0;
  for (int j = 0; j < ny; j++) s += A[i * ny + j] * x[j];
  y[i] = s;
}

// Integer reductions: exact in any order.
extern "C" __global__ void rowsum_int(const int *A, int *y, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    int s = 0;
    for (int j = 0; j < ny; j++) s += A[i * ny + j];
    y[i] = s;
  }
}

extern "C" __global__ void rowmax_int(const int *A, int *y, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    int m = -2147483647 - 1;
    for (int j = 0; j < ny; j++) m = max(m, A[i * ny + j]);
    y[i] = m;
  }
}

extern "C" __global__ void rowxor_u32(const unsigned *A, unsigned *y, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    unsigned h = 0;
    for (int j = 0; j < ny; j++) h ^= A[i * ny + j];
    y[i] = h;
  }
}

// 64-bit indices.
extern "C" __global__ void rowsum_i64(const long long *A, long long *y, long nx, long ny) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < nx) {
    long long s = 0;
    for (long j = 0; j < ny; j++) s += A[i * ny + j];
    y[i] = s;
  }
}

// Column walk with the accumulator in memory: coalesced, a store per iteration.
extern "C" __global__ void colwalk_mem(const float *A, const float *t, float *y, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    y[j] = 0;
    for (int i = 0; i < nx; i++) y[j] += A[i * ny + j] * t[i];
  }
}

// Refused for lanes: y is loaded and stored (lanes 1..31 could read what lane 0 stored).
extern "C" __global__ void rowacc_inout(const int *A, int *y, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    int s = y[i];
    for (int j = 0; j < ny; j++) s += A[i * ny + j];
    y[i] = s;
  }
}

// Refused: threads communicate through shared memory.
extern "C" __global__ void rowsum_shared(const int *A, int *y, int nx, int ny) {
  __shared__ int buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  if (i < nx)
    for (int j = 0; j < ny; j++) s += A[i * ny + j];
  buf[threadIdx.x] = s;
  __syncthreads();
  if (i < nx) y[i] = buf[threadIdx.x ^ 1];
}

// Refused: the loop leaves early (several blocks).
extern "C" __global__ void rowfind(const int *A, int *y, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    int k = -1;
    for (int j = 0; j < ny; j++)
      if (A[i * ny + j] == 0) {
        k = j;
        break;
      }
    y[i] = k;
  }
}

// Refused: a loop-carried value that is not a reduction (Horner's rule).
extern "C" __global__ void rowhash(const unsigned *A, unsigned *y, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    unsigned h = 0;
    for (int j = 0; j < ny; j++) h = h * 31 + A[i * ny + j];
    y[i] = h;
  }
}

// Step 1 refused: the loop reads through the accumulator's own pointer.
extern "C" __global__ void rowsum_self(const float *A, float *tmp, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    tmp[i] = 0;
    for (int j = 0; j < ny; j++) tmp[i] += A[i * ny + j] * tmp[nx + j];
  }
}

// No loop-carried value: each thread scales its own row (exact when split);
// B and A must lie apart (the split loop stores and loads).
extern "C" __global__ void rowscale(const int *A, int *B, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx)
    for (int j = 0; j < ny; j++) B[i * ny + j] = 3 * A[i * ny + j];
}

// Refused for lanes: the split loop would load and store through one pointer.
extern "C" __global__ void rowscale_inplace(int *A, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx)
    for (int j = 0; j < ny; j++) A[i * ny + j] *= 3;
}

// PolyBench's gesummv: two accumulators in memory in one loop; nvcc reloads
// each after the other's store (they may alias): the regacc clone loads each
// once before the loop and keeps it in a register.
extern "C" __global__ void gesummv(int n, float alpha, float beta, const float *a, const float *b, const float *x,
                                   float *y, float *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) {
      tmp[i] += a[i * n + j] * x[j];
      y[i] += b[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}
