// Interactions of the thirty-fourth session's row forms with the others
// (rowwalk: rows of 12-byte elements, one row through several registers,
// rows whose start the kernel loads) inside triangles, grid-stride loops,
// outer loops, rows walked down, constant lengths and two rows a loop:
// kernels (A, B, out, n, m) of the session's interpreter sweeps, kept as
// tests/lit/rowwalk/forms34-emu.test. nvcc -arch=sm_90 -O3 -ptx (nvcc 13.0).

extern "C" __global__ void t_two(const float3 *A, const float3 *B, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
  for (int j = 0; j < m; j++) { float3 p = A[i * m + j], q = B[i * m + j]; s += p.x * q.x + p.y * q.y + p.z * q.z; }
  out[i] = s;
}

extern "C" __global__ void g_two(const float *A, const int *B, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int r = B[i], q = B[n - 1 - i];
    float s = 0.f;
    for (int j = 0; j < m; j++) s += A[(size_t)r * m + j] * A[(size_t)q * m + j];
    out[i] = s;
  }
}

extern "C" __global__ void l_two(const float *__restrict__ A, const float *__restrict__ B, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int j = 0; j < m; j++) s += __ldg(&A[i * m + j]) * __ldg(&B[i * m + j]);
    out[i] = s;
  }
}

extern "C" __global__ void l_tri(const float *__restrict__ A, const float *B, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int k = 0; k <= i + 200; k++) s += __ldg(&A[i * m + k]);
    out[i] = s;
  }
}

extern "C" __global__ void l_gs(const float *__restrict__ A, const float *B, float *out, int n, int m) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float s = 0.f;
    for (int j = 0; j < m; j++) s += __ldg(&A[i * m + j]) * B[j];
    out[i] = s;
  }
}

extern "C" __global__ void l_nest(const float *__restrict__ A, const float *B, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = 0.f;
    for (int r = 0; r < 2; r++) {
      float s = 0.f;
      for (int j = 0; j < m; j++) s += __ldg(&A[i * m + j]) * B[r * m + j];
      t += s * (r + 1);
    }
    out[i] = t;
  }
}

extern "C" __global__ void l_down(const float *__restrict__ A, const float *B, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int j = 255; j >= 0; j--) s = s * 0.5f + __ldg(&A[i * m + j]);
    out[i] = s;
  }
}

extern "C" __global__ void t_gs(const float3 *A, const float *B, float *out, int n, int m) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float s = 0.f;
    for (int j = 0; j < m; j++) { float3 p = A[(size_t)i * m + j]; s += p.x * p.y + p.z; }
    out[i] = s;
  }
}

extern "C" __global__ void t_c(const float3 *A, const float *B, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int j = 0; j < 300; j++) { float3 p = A[i * 300 + j]; s += p.x - p.y + p.z; }
    out[i] = s;
  }
}

extern "C" __global__ void g_nest(const float *A, const int *B, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = 0.f;
    for (int q = 0; q < 2; q++) {
      const int r = B[(i + q) % n];
      float s = 0.f;
      for (int j = 0; j < m; j++) s += A[(size_t)r * m + j];
      t += s * (q + 1);
    }
    out[i] = t;
  }
}
