// The bandwidth ceiling for examples/paper: cudaMemcpy device to device of a
// 1 GiB buffer, median of the timed copies, GB/s counted as 2 x bytes / time
// (every byte read once and written once), as the kernels' GB/s count the
// bytes they read plus the bytes they write. Also a plain 16-byte copy kernel
// for comparison.
#include "common.h"

__global__ void copy16(const uint4 *__restrict__ in, uint4 *__restrict__ out, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) out[i] = in[i];
}

int main(int argc, char **argv) {
  ex::Bench B(argc, argv, "copy", "none");
  const size_t bytes = size_t(1) << 30;
  std::vector<uint8_t> h(bytes), got;
  ex::fillBytes(h, 31);
  ex::DevBuf<uint8_t> src(bytes), dst(bytes);
  src.upload(h);
  auto reset = [&] { dst.zero(); };
  auto verify = [&] {
    dst.download(got);
    return std::memcmp(got.data(), h.data(), bytes) == 0;
  };
  int sms = 0, l2 = 0;
  EX_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  EX_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  std::printf("DEVICE sms=%d l2_bytes=%d\n", sms, l2);
  B.hand("1GiB", "memcpy", 2.0 * bytes, [&] { EX_CHECK(cudaMemcpyAsync(dst.p, src.p, bytes, cudaMemcpyDeviceToDevice)); },
         reset, verify);
  B.hand("1GiB", "kernel16", 2.0 * bytes,
         [&] {
           copy16<<<sms * 8, 256>>>(reinterpret_cast<const uint4 *>(src.p), reinterpret_cast<uint4 *>(dst.p), bytes / 16);
         },
         reset, verify);
  return B.exitCode();
}
