// Kernels for the reuse pass (tests/lit/reuse, tests/gpu/cases/reuse.cu):
// inlined sinf/cosf/sincosf/cos (each with its slow path through a local
// array) repeated with the same argument.

// The paper's naive DCT, with the tile edge and the loops' bounds at run
// time: cos(x) does not depend on the outer loop, cos(y) is the same for
// every x.
extern "C" __global__ void dct_runtime(const unsigned char *in, float *out, int width, int n) {
  int u = threadIdx.x, v = threadIdx.y;
  int x0 = blockIdx.x * n, y0 = blockIdx.y * n;
  float sum = 0.0f;
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++)
      sum += in[(y0 + y) * width + x0 + x] * cosf((2 * x + 1) * u * 3.14159265f / (2 * n)) *
             cosf((2 * y + 1) * v * 3.14159265f / (2 * n));
  out[(y0 + v) * width + x0 + u] = sum;
}

// A weight cos(scale * a[i]) inside a loop over j: the same argument in
// every iteration. A large `scale` sends the argument through the slow path.
extern "C" __global__ void cos_invariant(const float *a, const float *b, float *out, float scale, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  float ai = a[i], s = 0.0f;
  for (int j = 0; j < n; j++) s += b[(size_t)j * len + i] * cosf(scale * ai);
  out[i] = s;
}

// sinf and cosf of one argument per outer iteration, used twice in the
// unrolled inner loop (as the DCT's cos(y)); the angle per iteration.
extern "C" __global__ void rotate_sum(const float *a, float *out, float step, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  float x = a[i], y = a[(i + 1) % len], s = 0.0f;
  for (int k = 0; k < 16; k++) {
    float t = step * (k + i % 7);
#pragma unroll
    for (int q = 0; q < 4; q++) s += (x + q) * cosf(t) - (y - q) * sinf(t);
  }
  out[i] = s;
}

// Double precision: cos() with its own slow path, in a loop.
extern "C" __global__ void cos_double(const double *a, double *out, float scale, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  double s = 0.0;
  for (int j = 0; j < n; j++) s += cos((double)scale * a[i]) * (j + 1);
  out[i] = s;
}

// No repetition: every cosf has its own argument (no clone).
extern "C" __global__ void cos_once(const float *a, float *out, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < len) out[i] = cosf(a[i]) + sinf(2.0f * a[i]);
}

// Call sequences outside the cosine (a __noinline__ function before the
// loop, and one after it that reads the cosine's last value): the clone
// keeps both calls; the value passed to `finish` is the one the memo
// restores.
__device__ __noinline__ float weight_of(int i) { return 1.0f + (i & 7); }
__device__ __noinline__ float finish(float s, float c) { return s + 0.5f * c; }
extern "C" __global__ void cos_call(const float *a, const float *b, float *out, float step, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  float w = weight_of(i), x = a[i] * step, s = 0.0f, c = 0.0f;
  for (int j = 0; j < n; j++) {
    c = cosf(x);
    s += w * c * b[(size_t)j * len + i];
  }
  out[i] = finish(s, c);
}

// Cosines of a thread index times constants, invariant in the loop: the
// value ranges prove every argument takes the fast path (|x| < 105615 for
// any thread a block can have), so both move before the loop.
extern "C" __global__ void cos_tid(const float *b, float *out, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  float s = 0.0f;
  for (int j = 0; j < n; j++) s += b[(size_t)j * len + i] * cosf(threadIdx.x * 0.1f) + sinf(threadIdx.x * 0.37f + 1.0f);
  out[i] = s;
}

// The same with a scale that sends threads 352 and up through the slow
// path: nothing proven, the memo instead.
extern "C" __global__ void cos_tid_far(const float *b, float *out, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  float s = 0.0f;
  for (int j = 0; j < n; j++) s += b[(size_t)j * len + i] * cosf(threadIdx.x * 300.0f);
  out[i] = s;
}
