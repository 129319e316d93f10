// The paper's matrix add, built from the unmodified source
// (examples/matadd/matadd.cu, Fig. 6-a and Fig. 6-b) with plain nvcc or with
// ptx-nvcc (docs/NVCC.md). Nothing here knows about ptx-opt: with ptx-nvcc,
// the <<<>>> launches of the Fig. 6-a kernels run the optimized clones.
//
//   matadd_nvcc                 results only (one line per launch: a hash of the output)
//   matadd_nvcc --time [reps]   also "time" lines: Fig. 6-a vs Fig. 6-b, median of reps
//
// Result lines are identical for every correct build; scripts/test/nvcc-gpu.sh
// compares the plain nvcc and the ptx-nvcc builds' lines byte for byte.
//
// The one mention of ptx-opt: an optional, weak query of the launch shim, so
// that the test can say which kernel each launch ran ("variant" lines on
// stderr). In a plain nvcc build the function is absent and nothing is printed.
#include "matadd.cu"

extern "C" const char *ptxopt_nvcc_last_variant(void) __attribute__((weak));
extern "C" const char *ptxopt_nvcc_last_variant_kind(void) __attribute__((weak));

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = static_cast<const unsigned char *>(p);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

template <class T, class K>
static void run(const char *name, K kernel, unsigned grid, unsigned block, size_t offset) {
  size_t n = size_t(grid) * block;
  std::vector<T> h1(n), h2(n), out(n);
  for (size_t i = 0; i < n; ++i) {
    h1[i] = T(i * 7 + 3);
    h2[i] = T(i * 13 + 1);
  }
  T *d1, *d2, *dout;
  // offset elements past an aligned allocation: misaligned pointers for clones with alignment conditions
  CHECK(cudaMalloc(&d1, (n + offset) * sizeof(T)));
  CHECK(cudaMalloc(&d2, (n + offset) * sizeof(T)));
  CHECK(cudaMalloc(&dout, (n + offset) * sizeof(T)));
  CHECK(cudaMemcpy(d1 + offset, h1.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d2 + offset, h2.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0xA5, (n + offset) * sizeof(T)));
  kernel<<<grid, block>>>(d1 + offset, d2 + offset, dout + offset);
  if (ptxopt_nvcc_last_variant && ptxopt_nvcc_last_variant())
    std::fprintf(stderr, "variant %s grid=%u block=%u offset=%zu ran=%s kind=%s\n", name, grid, block, offset,
                 ptxopt_nvcc_last_variant(), ptxopt_nvcc_last_variant_kind());
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(out.data(), dout + offset, n * sizeof(T), cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += out[i] != T(h1[i] + h2[i]);
  std::printf("result %s grid=%u block=%u offset=%zu hash=%016llx wrong=%zu\n", name, grid, block, offset,
              (unsigned long long)fnv(out.data(), n * sizeof(T)), wrong);
  CHECK(cudaFree(d1));
  CHECK(cudaFree(d2));
  CHECK(cudaFree(dout));
}

template <class K>
static float timeKernel(K kernel, unsigned grid, unsigned block, const int *a, const int *b, int *c, int reps) {
  cudaEvent_t s, e;
  CHECK(cudaEventCreate(&s));
  CHECK(cudaEventCreate(&e));
  for (int i = 0; i < 3; ++i) kernel<<<grid, block>>>(a, b, c);
  std::vector<float> ms;
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(s));
    kernel<<<grid, block>>>(a, b, c);
    CHECK(cudaEventRecord(e));
    CHECK(cudaEventSynchronize(e));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, s, e));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  CHECK(cudaEventDestroy(s));
  CHECK(cudaEventDestroy(e));
  return ms[ms.size() / 2];
}

int main(int argc, char **argv) {
  bool time = argc > 1 && std::strcmp(argv[1], "--time") == 0;
  int reps = argc > 2 ? std::atoi(argv[2]) : 50;
  // Fig. 6-a at shapes that pick different clones under ptx-nvcc:
  run<int>("matadd_int", matadd_int, 512, 256, 0);      // swap
  run<int>("matadd_int", matadd_int, 4096, 1024, 0);    // swap
  run<int>("matadd_int", matadd_int, 65536, 1024, 0);   // split (a swap would need 65536 threads per block)
  run<int>("matadd_int", matadd_int, 2000, 1000, 0);    // remap (no swap, no split fits)
  run<char>("matadd_char", matadd_char, 4096, 1024, 0);
  run<char>("matadd_char", matadd_char, 4096, 1024, 1);  // misaligned by one byte
  run<int>("matadd_int_coalesced", matadd_int_coalesced, 65536, 1024, 0);  // Fig. 6-b: coalesced already
  run<int>("matadd_int_coalesced", matadd_int_coalesced, 4096, 1024, 1);   // misaligned: clones that need alignment refused
  if (time) {
    const unsigned grid = 65536, block = 1024;  // the paper's large case, as in docs/BENCHMARKS.md
    size_t n = size_t(grid) * block;
    int *a, *b, *c;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&b, n * sizeof(int)));
    CHECK(cudaMalloc(&c, n * sizeof(int)));
    CHECK(cudaMemset(a, 1, n * sizeof(int)));
    CHECK(cudaMemset(b, 2, n * sizeof(int)));
    float ta = timeKernel(matadd_int, grid, block, a, b, c, reps);
    float tb = timeKernel(matadd_int_coalesced, grid, block, a, b, c, reps);
    std::printf("time fig6a_ms=%.4f fig6b_ms=%.4f ratio=%.4f grid=%u block=%u reps=%d\n", ta, tb, ta / tb, grid,
                block, reps);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
  }
  return 0;
}
