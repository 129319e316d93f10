// h9_im2col_gemm: Caffe's convolution forward as written in its CUDA code:
// (1) `im2col_gpu_kernel` as in Caffe (CUDA_KERNEL_LOOP grid-stride loop,
// launched with GET_BLOCKS(n) blocks of CAFFE_CUDA_NUM_THREADS = 512, a
// thread per (channel, output row, output column) writing its 3 x 3 patch
// down the column matrix, `data_col_ptr += height_col*width_col`, zero
// where the patch falls in the padding), `int` indices; (2) a naive GEMM
// `out[m*P + p] = bias[m] + sum_k weight[m*Kd + k] * col[k*P + p]`, a
// thread per (p, m), 64 x 4 blocks, register accumulator, `int` indices.
// C x H x W = 96 x 130 x 130 float images (not multiples of anything), 3 x
// 3 kernel, pad 1, stride 1: the column matrix is 864 x 16900 (58 MB), M =
// 32 output channels. A batch of 4 images: im2col then GEMM per image, the
// column buffer reused. Sizes: C H W M (argv). Timed: the 8 launches.
// Checked: the last image's column matrix exactly; both outputs on every
// 8th column p, rtol 1e-5 (floor 1; fmaf in order on the host).
#include "../common.h"

#define CUDA_KERNEL_LOOP(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)
#define CAFFE_CUDA_NUM_THREADS 512
inline int GET_BLOCKS(const int N) { return (N + CAFFE_CUDA_NUM_THREADS - 1) / CAFFE_CUDA_NUM_THREADS; }

template <typename Dtype>
__global__ void im2col_gpu_kernel(const int n, const Dtype *data_im, const int height, const int width,
                                  const int kernel_h, const int kernel_w, const int pad_h, const int pad_w,
                                  const int stride_h, const int stride_w, const int dilation_h, const int dilation_w,
                                  const int height_col, const int width_col, Dtype *data_col) {
  CUDA_KERNEL_LOOP(index, n) {
    const int h_index = index / width_col;
    const int h_col = h_index % height_col;
    const int w_col = index % width_col;
    const int c_im = h_index / height_col;
    const int c_col = c_im * kernel_h * kernel_w;
    const int h_offset = h_col * stride_h - pad_h;
    const int w_offset = w_col * stride_w - pad_w;
    Dtype *data_col_ptr = data_col;
    data_col_ptr += (c_col * height_col + h_col) * width_col + w_col;
    const Dtype *data_im_ptr = data_im;
    data_im_ptr += (c_im * height + h_offset) * width + w_offset;
    for (int i = 0; i < kernel_h; ++i) {
      for (int j = 0; j < kernel_w; ++j) {
        int h_im = h_offset + i * dilation_h;
        int w_im = w_offset + j * dilation_w;
        *data_col_ptr = (h_im >= 0 && w_im >= 0 && h_im < height && w_im < width)
                            ? data_im_ptr[i * dilation_h * width + j * dilation_w]
                            : 0;
        data_col_ptr += height_col * width_col;
      }
    }
  }
}

__global__ void gemm_naive(const float *weight, const float *col, const float *bias, float *out, int M, int Kd, int P) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int m = blockIdx.y * blockDim.y + threadIdx.y;
  if (p < P && m < M) {
    float sum = 0.0f;
    for (int k = 0; k < Kd; k++) sum += weight[m * Kd + k] * col[k * P + p];
    out[m * P + p] = sum + bias[m];
  }
}

int main(int argc, char **argv) {
  const int C = argInt(argc, argv, 1, 96), H = argInt(argc, argv, 2, 130), W = argInt(argc, argv, 3, 130);
  const int M = argInt(argc, argv, 4, 32), batch = 4, KH = 3, KW = 3, pad = 1, stride = 1;
  const int Ho = (H + 2 * pad - KH) / stride + 1, Wo = (W + 2 * pad - KW) / stride + 1;
  const int P = Ho * Wo, Kd = C * KH * KW;
  const size_t imSize = size_t(C) * H * W, colSize = size_t(Kd) * P, outSize = size_t(M) * P;
  std::vector<float> im(batch * imSize), wt(size_t(M) * Kd), bias(M);
  fillFloats(im, 9601);
  fillFloats(wt, 9602, -0.5f, 0.5f);
  for (auto &v : wt)
    if (v == 0.0f) v = 0.125f;
  fillFloats(bias, 9603);
  float *d_im = toDevice(im), *d_wt = toDevice(wt), *d_bias = toDevice(bias), *d_col, *d_out;
  CHECK(cudaMalloc(&d_col, colSize * sizeof(float)));
  CHECK(cudaMalloc(&d_out, batch * outSize * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  const int nk = C * Ho * Wo;
  dim3 gb(64, 4), gg((P + 63) / 64, (M + 3) / 4);
  GpuTimer t;
  t.start();
  for (int b = 0; b < batch; b++) {
    im2col_gpu_kernel<float><<<GET_BLOCKS(nk), CAFFE_CUDA_NUM_THREADS>>>(
        nk, d_im + b * imSize, H, W, KH, KW, pad, pad, stride, stride, 1, 1, Ho, Wo, d_col);
    CHECK_LAUNCH();
    gemm_naive<<<gg, gb>>>(d_wt, d_col, d_bias, d_out + b * outSize, M, Kd, P);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> gcol = fromDevice(d_col, colSize), gout = fromDevice(d_out, batch * outSize);

  std::vector<float> col(colSize);
  bool ok = true;
  for (int b = 0; b < batch; b++) {
    const float *img = im.data() + b * imSize;
    for (int c = 0; c < C; c++)
      for (int i = 0; i < KH; i++)
        for (int j = 0; j < KW; j++)
          for (int y = 0; y < Ho; y++)
            for (int x = 0; x < Wo; x++) {
              int hi = y * stride - pad + i, wi = x * stride - pad + j;
              col[(size_t((c * KH + i) * KW + j) * Ho + y) * Wo + x] =
                  (hi >= 0 && wi >= 0 && hi < H && wi < W) ? img[(size_t(c) * H + hi) * W + wi] : 0.0f;
            }
    size_t bad = 0;
    for (int m = 0; m < M; m++)
      for (int p = 0; p < P; p += 8) {
        float sum = 0.0f;
        for (int k = 0; k < Kd; k++) sum = std::fmaf(wt[size_t(m) * Kd + k], col[size_t(k) * P + p], sum);
        float want = sum + bias[m], got = gout[b * outSize + size_t(m) * P + p];
        if (!closeEnough(got, want, 1e-5, 1.0)) bad++;
      }
    if (bad) std::fprintf(stderr, "gemm image %d: %zu sampled outputs differ\n", b, bad);
    ok = ok && bad == 0;
  }
  ok = checkExact("im2col columns", gcol.data(), col.data(), colSize) && ok;
  CHECK(cudaFree(d_im));
  CHECK(cudaFree(d_wt));
  CHECK(cudaFree(d_bias));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_out));
  return finish(ms, ok);
}
