// Kernels with launch bounds, for the clone pruning tests (tests/lit/prune).
// nvcc -arch=sm_90 -ptx bounds.cu -o bounds.ptx
// An int elementwise kernel grouped by 4: its plain group clone needs blocks
// of at least 512 threads (128 after grouping), which .maxntid 256 forbids;
// the block-merged clone stays.
__global__ void __launch_bounds__(256) add_bounded(const int *a, const int *b, int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// The same without bounds: both group clones stay.
__global__ void add_free(const int *a, const int *b, int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
