// A flat CHW -> HWC permute whose store is unit-stride along the flat
// index's top digit (c = i / (H*W)): the flat form tiles R (i % W) with the
// middle digit (the quotient's remainder by H), never the top one, so it is
// refused with a remark in the flat index's own terms (tests/lit/transpose/
// flat-topdigit.test). From the fifth held-out batch
// (bench/programs/heldout5/h5_nchw_nhwc_mixed.cu), 64- and 32-bit.
// nvcc -arch=sm_90 -O3 -ptx flat-topdigit.cu -o flat-topdigit.ptx (nvcc 13.0)
extern "C" __global__ void chw_to_hwc_ll(const float *in, float *out, int C, int H, int W) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long total = (long long)C * H * W;
  if (i < total) {
    int w = int(i % W);
    int h = int((i / W) % H);
    int c = int(i / ((long long)H * W));
    out[((long long)h * W + w) * C + c] = in[i];
  }
}

extern "C" __global__ void chw_to_hwc_int(const float *in, float *out, int C, int H, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < C * H * W) {
    int w = i % W;
    int h = (i / W) % H;
    int c = i / (H * W);
    out[(h * W + w) * C + c] = in[i];
  }
}
