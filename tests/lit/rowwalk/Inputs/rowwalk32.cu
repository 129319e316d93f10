// Row walks through 32-bit indices for the rowwalk pass's staged clone
// (tests/lit/rowwalk/index32.test; issue 29). Compiled with
//   nvcc -arch=sm_90 -O3 -ptx rowwalk32.cu -o rowwalk32.ptx
// (nvcc 13.0). The same kernels run on the GPU in tests/gpu/cases/rowwalk32.cu.
// With an unsigned row index nvcc cannot widen `r * N + i` into a 64-bit
// pointer (wrap-around is defined): it recomputes the 32-bit index and
// widens it (mul.wide.u32) in every iteration. An `int` index overflowing
// is undefined, so nvcc walks a 64-bit pointer (rowsum_int_f32: the
// textbook shape, for comparison).

// The issue's form: unsigned row, int loop counter, float sum.
extern "C" __global__ void rowsum_u32_f32(const float *a, float *y, unsigned n, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float acc = 0;
    for (int i = 0; i < N; i++) acc += a[r * N + i];
    y[r] = acc;
  }
}

// Integer sum (exact in any order: the lanes clones apply too).
extern "C" __global__ void rowsum_u32_i32(const int *a, int *y, unsigned n, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    int acc = 0;
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r] = acc;
  }
}

// Matrix-vector product: the row through r*N + i (two 32-bit induction
// variables after nvcc's unrolling), x through i.
extern "C" __global__ void matvec_u32(const float *A, const float *x, float *y, unsigned n, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float acc = 0;
    for (unsigned i = 0; i < N; i++) acc += A[r * N + i] * x[i];
    y[r] = acc;
  }
}

// Doubles: 8-byte elements (mul.wide.u32 by 8).
extern "C" __global__ void rowsum_u32_f64(const double *a, double *y, unsigned n, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    double acc = 0;
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r] = acc;
  }
}

// A constant row length.
extern "C" __global__ void rowsum_u32_c1024(const float *a, float *y, unsigned n) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float acc = 0;
    for (unsigned i = 0; i < 1024; i++) acc += a[r * 1024 + i];
    y[r] = acc;
  }
}

// A first row r0 (batched launches): the index may wrap before the loop
// (r * N mod 2^32 is where the thread reads, as in the original) or inside
// it (the warp then runs the original loop).
extern "C" __global__ void rowsum_u32_from(const float *a, float *y, unsigned r0, unsigned n, unsigned N) {
  unsigned r = r0 + blockIdx.x * blockDim.x + threadIdx.x;
  if (r < r0 + n) {
    float acc = 0;
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r - r0] = acc;
  }
}

// An `int` index over an unsigned counter: nvcc widens the signed index
// (mul.wide.s32) of the iteration's first element and reads the next ones
// at +4, +8, +12 from it.
extern "C" __global__ void rowsum_s32_f32(const float *a, float *y, int n, int N) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float acc = 0;
    for (unsigned i = 0; i < N; i++) {
      int idx = r * N + (int)i;
      acc += a[idx];
    }
    y[r] = acc;
  }
}

// A window of a larger array: element `skip` of the whole array is a0[0]
// (the GPU test reaches index 2^32 - 1 with a small buffer).
extern "C" __global__ void rowsum_u32_window(const float *a0, float *y, unsigned skip, unsigned r0, unsigned n,
                                             unsigned N) {
  const float *a = a0 - (size_t)skip;
  unsigned r = r0 + blockIdx.x * blockDim.x + threadIdx.x;
  if (r - r0 < n) {
    float acc = 0;
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r - r0] = acc;
  }
}

// The signed window: index 2^31 - 1 at the end.
extern "C" __global__ void rowsum_s32_window(const float *a0, float *y, int skip, int r0, int n, int N) {
  const float *a = a0 - (long long)skip;
  int r = r0 + blockIdx.x * blockDim.x + threadIdx.x;
  if (r - r0 < n) {
    float acc = 0;
    for (unsigned i = 0; i < N; i++) {
      int idx = r * N + (int)i;
      acc += a[idx];
    }
    y[r - r0] = acc;
  }
}

// The `int` form: a 64-bit pointer walk already (signed overflow is undefined).
extern "C" __global__ void rowsum_int_f32(const float *a, float *y, int n, int N) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float acc = 0;
    for (int i = 0; i < N; i++) acc += a[r * N + i];
    y[r] = acc;
  }
}

// The 64-bit pointer form beside them (the benchmark's reference): a
// 64-bit pointer induction variable.
extern "C" __global__ void rowsum_ptr_f32(const float *a, float *y, unsigned n, unsigned N) {
  size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (r < n) {
    const float *row = a + r * N;
    float acc = 0;
    for (size_t i = 0; i < N; i++) acc += row[i];
    y[r] = acc;
  }
}

// A row from a 64-bit start and a 32-bit counter: (r * N + zext(i)) * 4, the
// 64-bit part an invariant offset of the 32-bit index.
extern "C" __global__ void rowsum_off64_f32(const float *a, float *y, unsigned n, unsigned N) {
  size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (r < n) {
    const float *row = a + r * N;
    float acc = 0;
    for (unsigned i = 0; i < N; i++) acc += row[i];
    y[r] = acc;
  }
}

// Two matrices in one loop (gesummv's loop, accumulators in registers).
extern "C" __global__ void gesummv_u32(const float *__restrict__ A, const float *__restrict__ B,
                                       const float *__restrict__ x, float *__restrict__ y, float alpha, float beta,
                                       unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = 0, u = 0;
    for (unsigned j = 0; j < n; j++) {
      t += A[i * n + j] * x[j];
      u += B[i * n + j] * x[j];
    }
    y[i] = alpha * t + beta * u;
  }
}

// A step of 8 bytes per iteration (not unrolled): refused with a remark.
extern "C" __global__ void rowsum_u32_nounroll(const float *a, float *y, unsigned n, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float acc = 0;
#pragma unroll 2
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r] = acc;
  }
}

// The 64-bit pointer form of the integer row sum (the benchmark's reference
// for rowsum_u32_i32).
extern "C" __global__ void rowsum_ptr_i32(const int *a, int *y, unsigned n, unsigned N) {
  size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (r < n) {
    const int *row = a + r * N;
    int acc = 0;
    for (size_t i = 0; i < N; i++) acc += row[i];
    y[r] = acc;
  }
}

// 8-byte integers through an unsigned index (mul.wide.u32 by 8): integer
// sums, so the staged clone's addressing of 8-byte rows is checked bit for
// bit with no floating-point NaN payloads involved (gpu-diff rowwalk32).
extern "C" __global__ void rowsum_u32_i64(const long long *a, long long *y, unsigned n, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    long long acc = 0;
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r] = acc;
  }
}
