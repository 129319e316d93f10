// Row walks a program vectorized itself: each thread reads its row as
// float4 (float2, double2) pieces, `reinterpret_cast<const float4 *>(A +
// i*m)[j]`. A warp's load still touches 32 rows (16 of each 32-byte sector
// used), so the staged clone copies the rows through shared memory and each
// lane reads the same vectors from its row of the tile (issue 29).
// Compiled with: nvcc -arch=sm_90 -ptx vec.cu -o vec.ptx
extern "C" __global__ void rowsum_f4(const float4 *A, float *y, int n, int m4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int j = 0; j < m4; j++) {
      float4 v = A[(size_t)i * m4 + j];
      s += v.x;
      s += v.y;
      s += v.z;
      s += v.w;
    }
    y[i] = s;
  }
}

// A matrix-vector product on float4 pieces of the row and of x.
extern "C" __global__ void gemv_f4(const float *A, const float *x, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float4 *row = reinterpret_cast<const float4 *>(A + (size_t)i * m);
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float s = 0.f;
    for (int j = 0; j < m / 4; j++) {
      float4 a = row[j], b = x4[j];
      s += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
    y[i] = s;
  }
}

// 8-byte pieces: float2.
extern "C" __global__ void rowsum_f2(const float2 *A, float *y, int n, int m2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int j = 0; j < m2; j++) {
      float2 v = A[(size_t)i * m2 + j];
      s += v.x;
      s += v.y;
    }
    y[i] = s;
  }
}

// 16-byte pieces of 8-byte elements: double2.
extern "C" __global__ void rowsum_d2(const double2 *A, double *y, int n, int m2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double s = 0.0;
    for (int j = 0; j < m2; j++) {
      double2 v = A[(size_t)i * m2 + j];
      s += v.x;
      s += v.y;
    }
    y[i] = s;
  }
}

// float4 pieces by an `unsigned` index: nvcc recomputes and widens the
// index each iteration (`mul.wide.u32 t, x, 16`), the staged clone checks
// per warp that no index of the loop wraps (RowWalkIndex.cpp).
extern "C" __global__ void rowsum_f4_u32(const float4 *A, float *y, unsigned n, unsigned m4) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (unsigned j = 0; j < m4; j++) {
      float4 v = A[i * m4 + j];
      s += v.x;
      s += v.y;
      s += v.z;
      s += v.w;
    }
    y[i] = s;
  }
}

// float4 pieces at `(size_t)i * m4 + j` with an `int` j: nvcc forms the
// address as base + ((i*m4 + ext(j)) << 4) each iteration (the 64-bit
// offset form of a 32-bit index); a max written as a compare and select.
extern "C" __global__ void rowmax_f4(const float4 *A, float *y, int n, int m4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = -1e30f;
    for (int j = 0; j < m4; j++) {
      float4 v = A[(size_t)i * m4 + j];
      if (v.x > s) s = v.x;
      if (v.w > s) s = v.w;
    }
    y[i] = s;
  }
}

// Refused for now: float4 rows of a triangular loop (per-lane trip counts):
// vector rows were run on the GPU with one trip count a warp only.
extern "C" __global__ void tri_f4(const float4 *A, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int j = 0; j <= i; j++) {
      float4 v = A[(size_t)i * n + j];
      s += v.x;
      s += v.w;
    }
    y[i] = s;
  }
}

// Pixels of 4 bytes and 4 shorts (uchar4, short4: ld.global.v4.u8 and
// .v4.u16, 4- and 8-byte pieces; refused until 2026-11-29, "a vector of 8
// or 16" only): a row's weighted mean of uchar4 pixels into a float (no
// lanes clone: that would reassociate the float sum), and integer sums of
// uchar4 and short4 rows (lanes clones too).
extern "C" __global__ void rowgray_c4(const uchar4 *A, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int j = 0; j < m; j++) {
      uchar4 p = A[(size_t)i * m + j];
      s += 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
    }
    y[i] = s;
  }
}

extern "C" __global__ void rowsum_c4(const uchar4 *A, int *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int j = 0; j < m; j++) {
      uchar4 p = A[(size_t)i * m + j];
      s += p.x + p.y + p.z + p.w;
    }
    y[i] = s;
  }
}

extern "C" __global__ void rowsum_s4(const short4 *A, int *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int j = 0; j < m; j++) {
      short4 p = A[(size_t)i * m + j];
      s += p.x - p.y + p.z - p.w;
    }
    y[i] = s;
  }
}
