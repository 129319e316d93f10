// Column walks with a vector every thread reads alike (Rodinia backprop's
// bpnn_layerforward written naively: one thread per output unit, the
// weights input-major so consecutive threads read consecutive columns,
// `sum += conn[k*(n2+1) + j] * l1[k]`). nvcc unrolls the k loop by 4, so
// l1[k..k+3] are four scalar loads from one pointer that pack could merge
// into one 16-byte load; the conn loads are coalesced already.
// Compiled with: nvcc -arch=sm_90 -ptx column.cu -o column.ptx
extern "C" __global__ void colwalk_uniform(const float *l1, float *l2, float *net, const float *conn, int n1, int n2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (j <= n2) {
    float sum = 0.0f;
    for (int k = 0; k <= n1; k++) sum += conn[k * (n2 + 1) + j] * l1[k];
    net[j] = sum;
    l2[j] = 1.0f / (1.0f + expf(-sum));
  }
}

// The same with no bias column: conn[k*n2 + j], k < n1, and no activation.
extern "C" __global__ void colwalk_plain(const float *x, float *y, const float *a, int n1, int n2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n2) {
    float sum = 0.0f;
    for (int k = 0; k < n1; k++) sum += a[k * n2 + j] * x[k];
    y[j] = sum;
  }
}
