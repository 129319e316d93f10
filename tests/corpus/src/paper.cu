// Kernels from the paper's running examples: matrix add in several
// indexing styles, plus common loop/guard idioms.
#include <cstdint>

// Uncoalesced matrix add: consecutive threads touch addresses gridDim.x apart.
__global__ void matAddInt(int *c, const int *a, const int *b) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  c[i] = a[i] + b[i];
}

__global__ void matAddChar(char *c, const char *a, const char *b) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  c[i] = a[i] + b[i];
}

// Coalesced variant: consecutive threads touch consecutive addresses.
__global__ void matAddIntCoalesced(int *c, const int *a, const int *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}

__global__ void matAddCharCoalesced(char *c, const char *a, const char *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}

// Grid-stride loop (SAXPY).
__global__ void saxpyGridStride(int n, float alpha, const float *__restrict__ x,
                                float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = alpha * x[i] + y[i];
}

// Bounds-guarded kernel.
__global__ void vecAddGuarded(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

// 2-D indexing with row pitch.
__global__ void matAdd2D(float *c, const float *a, const float *b, int width,
                         int height, size_t pitchElems) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    size_t idx = (size_t)y * pitchElems + x;
    c[idx] = a[idx] + b[idx];
  }
}

// 2-D transpose (naive).
__global__ void transposeNaive(float *out, const float *in, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows)
    out[x * rows + y] = in[y * cols + x];
}

// 64-bit indices: grid-stride over a size_t range.
__global__ void scale64(double *data, double s, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t stride = (size_t)blockDim.x * gridDim.x;
  for (; i < n; i += stride)
    data[i] *= s;
}

__global__ void gather64(float *out, const float *in, const int64_t *idx,
                         int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[idx[i]];
}

// 3-D indexing.
__global__ void fill3D(int *v, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz)
    v[(z * ny + y) * nx + x] = x ^ y ^ z;
}
