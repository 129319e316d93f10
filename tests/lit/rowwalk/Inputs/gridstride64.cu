// Row walks inside grid-stride loops over rows with 64-bit indices (`size_t
// r`, PyTorch's int64_t CUDA_KERNEL_LOOP): the loop's index starts at
// `mul.wide.u32 %ctaid, %ntid` + `cvt.u64.u32 %tid`, steps by `mul.lo.s64`
// of the widened %ntid and %nctaid and is tested with setp.lt.u64 / .s64
// (clone::unloopGridStride, GridStrideLoops::Outer), and rows addressed as
// base + ((c + r * cols) << 2) with a 64-bit counter c
// (Planner::offsetAddress). tests/lit/rowwalk/gridstride64.test,
// gridstride64-emu.test; the GPU: gpu-diff "gridstride 64".
// Compiled with nvcc -arch=sm_90 -O3 -ptx gridstride64.cu -o gridstride64.ptx.
#include <cstdint>

// The once clone (staged) and the kernel's own staged clone.
extern "C" __global__ void rowsum_gs64(const float *X, float *out, size_t rows, size_t cols) {
  for (size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; r < rows; r += (size_t)blockDim.x * gridDim.x) {
    float s = 0.0f;
    for (size_t c = 0; c < cols; c++) s += X[r * cols + c];
    out[r] = s;
  }
}

// A NaN-skipping mean (`continue` inside the loop), two outputs.
extern "C" __global__ void nanmean_gs64(const float *X, float *mean, int *count, size_t rows, size_t cols) {
  for (size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; r < rows; r += (size_t)blockDim.x * gridDim.x) {
    float s = 0.0f;
    int n = 0;
    for (size_t c = 0; c < cols; c++) {
      float v = X[r * cols + c];
      if (isnan(v)) continue;
      s += v;
      n++;
    }
    count[r] = n;
    mean[r] = n > 0 ? s / n : 0.0f;
  }
}

// PyTorch's form: an int64_t index, a signed bound, integer rows (lanes).
extern "C" __global__ void rowsum_i64_loop(const int *X, int *out, int64_t rows, int64_t cols) {
  for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < rows; r += (int64_t)blockDim.x * gridDim.x) {
    int s = 0;
    for (int64_t c = 0; c < cols; c++) s += X[r * cols + c];
    out[r] = s;
  }
}
