// Row walks whose loop also stores (issue 29, issue 30's "permutes whose
// channels loop inside a thread"): the staged clone reads the rows tiles
// ahead of the loop, so each store must reach another allocation than the
// rows (a launch condition on the two pointer parameters) and be coalesced
// along %tid.x (the only stores measured).
// Compiled with: nvcc -arch=sm_90 -ptx stores.cu -o stores.ptx

// Rodinia kmeans' invert_mapping: each thread transposes its point's features.
extern "C" __global__ void invert_mapping(float *input, float *output, int npoints, int nfeatures) {
  int point_id = threadIdx.x + blockDim.x * blockIdx.x;
  int i;
  if (point_id < npoints) {
    for (i = 0; i < nfeatures; i++) output[point_id + npoints * i] = input[point_id * nfeatures + i];
  }
}

// NHWC -> NCHW with the channels looped inside the thread (one thread a pixel).
extern "C" __global__ void nhwc_to_nchw_loop(const float *in, float *out, int HW, int C) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < HW) {
    for (int c = 0; c < C; c++) out[(size_t)c * HW + p] = in[(size_t)p * C + c];
  }
}

// Prefix sums of each row, written column-major (a loop-carried sum and a store).
extern "C" __global__ void prefix_rows(const float *A, float *P, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int j = 0; j < m; j++) {
      s += A[(size_t)i * m + j];
      P[(size_t)j * n + i] = s;
    }
  }
}

// Refused: the store goes along the row (in place).
extern "C" __global__ void rows_scale_inplace(float *A, int n, int m, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < m; j++) A[(size_t)i * m + j] *= s;
  }
}

// Refused: a coalesced store through the rows' own pointer (past the
// matrix, but the analysis cannot tell).
extern "C" __global__ void store_same_array(float *A, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < m; j++) A[(size_t)n * m + (size_t)j * n + i] = A[(size_t)i * m + j];
  }
}

// Refused: the store's pointer is a sum of two 64-bit parameters (`(char *)out
// + delta`): either could be the pointer, so no launch condition can keep it
// apart from the rows (a probe found the integer paired with the rows).
extern "C" __global__ void store_out_plus_delta(const float *A, float *out, long long delta, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *o = (float *)((char *)out + delta);
  if (i < n)
    for (int j = 0; j < m; j++) o[(size_t)j * n + i] = A[(size_t)i * m + j];
}

// Refused for now: a store under a guard (a loop of several blocks, or a
// predicated store) and a store beside per-lane trip counts (a triangular
// loop): only unpredicated stores in single-block loops with one trip count
// a warp were run on the GPU.
extern "C" __global__ void store_under_guard(const float *A, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < m; j++) {
      float a = A[(size_t)i * m + j];
      if (a > 0.f) out[(size_t)j * n + i] = a;
    }
  }
}

extern "C" __global__ void tri_store(const float *A, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.f;
    for (int j = 0; j <= i; j++) {
      s += A[(size_t)i * n + j];
      out[(size_t)j * n + i] = s;
    }
  }
}
