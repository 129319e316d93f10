// Rows of 12- and 24-byte elements (float3, a struct of three floats,
// double3, int3), a thread per row: the staged clone in 192-byte tiles of
// 12 pieces (rowwalk tripleStep; thirty-fourth session).
// tests/lit/rowwalk/triple.test, triple-emu.test; gpu-diff "rowwalk triple". nvcc -arch=sm_90 -O3 -ptx (nvcc 13.0).
struct Pt {
  float x, y, z;
};

// Squared norms of a row of points: `int` index, early return.
extern "C" __global__ void f3_norm(const float3 *P, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
  for (int j = 0; j < m; j++) {
    float3 p = P[i * m + j];
    s += p.x * p.x + p.y * p.y + p.z * p.z;
  }
  out[i] = s;
}

// A trajectory's centroid: a struct of three floats, `size_t` index,
// three accumulators.
extern "C" __global__ void pt_centroid(const Pt *P, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sx = 0.f, sy = 0.f, sz = 0.f;
    for (int j = 0; j < m; j++) {
      Pt p = P[(size_t)i * m + j];
      sx += p.x;
      sy += p.y;
      sz += p.z;
    }
    out[3 * i] = sx / m;
    out[3 * i + 1] = sy / m;
    out[3 * i + 2] = sz / m;
  }
}

// Double3 rows dotted with a vector every thread reads alike.
extern "C" __global__ void d3_dot(const double3 *P, const double3 *v, double *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double s = 0.0;
    for (int j = 0; j < m; j++) {
      double3 p = P[(long)i * m + j];
      double3 q = v[j];
      s += p.x * q.x + p.y * q.y + p.z * q.z;
    }
    out[i] = s;
  }
}

// int3 rows: an integer checksum.
extern "C" __global__ void i3_sum(const int3 *P, int *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int j = 0; j < m; j++) {
      int3 p = P[i * m + j];
      s += p.x ^ (p.y * 3) ^ (p.z << 1);
    }
    out[i] = s;
  }
}

// Refused: float3 rows through an `unsigned` index (a 32-bit index scaled
// by 12), and rows stored into (normalized in place).
extern "C" __global__ void f3_u32(const float3 *P, float *out, unsigned n, unsigned m) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (unsigned j = 0; j < m; j++) s += P[i * m + j].x + P[i * m + j].z;
    out[i] = s;
  }
}

extern "C" __global__ void f3_scale(float3 *P, const float *w, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float a = w[i];
    for (int j = 0; j < m; j++) {
      float3 p = P[i * m + j];
      P[i * m + j] = make_float3(p.x * a, p.y * a, p.z * a);
    }
  }
}

// Refused: a trip count that differs between lanes (the per-lane form's
// copies take tiles of 16 pieces).
extern "C" __global__ void f3_tri(const float3 *P, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int j = 0; j < i + 260; j++) {
      float3 p = P[i * m + j];
      s += p.x - p.y + p.z;
    }
    out[i] = s;
  }
}

// Two of each point's three floats (x and y: rows read with gaps, the
// allocation's end checked per warp over 192-byte tiles).
extern "C" __global__ void f3_xy(const float3 *P, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int j = 0; j < m; j++) s += P[i * m + j].x * P[i * m + j].y;
    out[i] = s;
  }
}
