// Kernels with gathers beside coalesced accesses of 4-byte elements, for
// group's clone merged along y (the only gather form on by default):
// Rodinia srad's second kernel (the held-out h4_srad: neighbour rows and
// columns through index arrays iS[i], jE[j]; the image written to another
// array, so a test can compare it: the same bytes move) and rotation 2 of the paper on
// floats (the bytes' rotation 2 ran 3.16x merged along y).
// Compiled with: nvcc -arch=sm_90 -ptx gathers.cu -o gathers.ptx
extern "C" __global__ void srad2(const float *J, float *Jout, const float *dN, const float *dS, const float *dW, const float *dE,
                                 const float *C, const int *iS, const int *jE, int rows, int cols, float lambda) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < rows && j < cols) {
    int k = i * cols + j;
    float cN = C[k];
    float cS = C[iS[i] * cols + j];
    float cW = C[k];
    float cE = C[i * cols + jE[j]];
    float D = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];
    Jout[k] = J[k] + 0.25f * lambda * D;
  }
}

extern "C" __global__ void rotate2_f32(const float *in, float *out, int w, int h, float c, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float xc = x - 0.5f * w, yc = y - 0.5f * h;
  int xi = __float2int_rn(c * xc + s * yc + 0.5f * w), yi = __float2int_rn(-s * xc + c * yc + 0.5f * h);
  bool inside = xi >= 0 && xi < w && yi >= 0 && yi < h;
  float v = in[min(max(yi, 0), h - 1) * w + min(max(xi, 0), w - 1)];
  out[y * w + x] = inside ? v : 0.f;
}
