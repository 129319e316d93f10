// Rows whose distance apart the kernel divides out of a parameter
// (`A4[i*(cols/4) + k]`, the thirteenth held-out batch's rowdot_f4): the
// analysis names cols / 4 (a signed division: shifts and an add) only as a
// thread-uniform value u. Where u appears only in the terms with %tid or
// %ctaid (the rows' stride), the row walks take the address (a row read as
// float4, float2 or scalars; the staged and lanes clones); where it also
// sets where the row starts (`+ cols/8`) the address stays unknown and the
// remark names it (tests/lit/rowwalk/rowdiv.test, rowdiv-emu.test; the GPU:
// gpu-diff "rowwalk rowdiv"). Compiled with
//   nvcc -arch=sm_90 -O3 -ptx rowdiv.cu -o rowdiv.ptx
// (nvcc 13.0).

// Staged: float4 pieces, cols / 4 of them a row.
extern "C" __global__ void rowdot_f4(const float *A, const float *w, float *out, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float4 *A4 = reinterpret_cast<const float4 *>(A);
    float s = 0.0f;
    for (int k = 0; k < cols / 4; k++) {
      float4 v = A4[(size_t)i * (cols / 4) + k];
      s += v.x * w[4 * k] + v.y * w[4 * k + 1] + v.z * w[4 * k + 2] + v.w * w[4 * k + 3];
    }
    out[i] = s;
  }
}

// Staged: float2 pieces (complex numbers stored as floats), cols / 2 a row.
extern "C" __global__ void cabs2_f2(const float *A, float *out, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float2 *A2 = reinterpret_cast<const float2 *>(A);
    const int n = cols / 2;
    float s = 0.0f;
    for (int k = 0; k < n; k++) {
      float2 v = A2[(size_t)i * n + k];
      s += v.x * v.x + v.y * v.y;
    }
    out[i] = s;
  }
}

// The unaligned staged clone: rows of cols / 3 floats (4 * cols/3 bytes
// apart, no launch condition aligns them).
extern "C" __global__ void third_f32(const float *A, float *out, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const int n = cols / 3;
    float s = 0.0f;
    for (int k = 0; k < n; k++) s += A[(size_t)i * n + k];
    out[i] = s;
  }
}

// Lanes (integers): int rows of cols / 2, `unsigned` indices.
extern "C" __global__ void half_u32(const unsigned *A, unsigned *out, unsigned rows, unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const unsigned n = cols / 2;
    unsigned s = 0;
    for (unsigned k = 0; k < n; k++) s += A[(size_t)i * n + k];
    out[i] = s;
  }
}

// Refused with the remark: the row starts at cols / 8 too (u outside the
// rows' stride).
extern "C" __global__ void tail_f4(const float *A, float *out, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float4 *A4 = reinterpret_cast<const float4 *>(A);
    float s = 0.0f;
    for (int k = 0; k < cols / 8; k++) {
      float4 v = A4[(size_t)i * (cols / 4) + cols / 8 + k];
      s += v.x + v.y + v.z + v.w;
    }
    out[i] = s;
  }
}
