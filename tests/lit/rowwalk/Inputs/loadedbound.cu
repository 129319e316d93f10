// Row walks whose length is loaded from memory (tests/lit/rowwalk/
// loadedbound.test): `len = lens[i]`, a row each thread, and the same with
// an int offset parameter in the length's address. The staged clone takes
// them with per-lane trip counts; no launch condition can see such a
// length, so none is asked (before the nineteenth session the parameters
// of the length's address were taken for the trip count's: `param 1 >=
// 256` on the `lens` pointer, a floor every launch passed).
//   nvcc -arch=sm_90 -O3 -ptx loadedbound.cu -o loadedbound.ptx   (nvcc 13.0)
extern "C" __global__ void rowsum_lens(const float *A, const int *lens, float *y, int rows, int ld) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int len = lens[i];
    float s = 0.0f;
    for (int j = 0; j < len; j++) s += A[i * ld + j];
    y[i] = s;
  }
}

extern "C" __global__ void rowsum_lens_off(const float *A, const int *lens, float *y, int rows, int ld, int first) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int len = lens[first + i];
    float s = 0.0f;
    for (int j = 0; j < len; j++) s += A[i * ld + j];
    y[i] = s;
  }
}
