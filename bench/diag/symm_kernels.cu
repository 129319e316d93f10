// bench/diag/symm_kernels.cu: a diagnostic, not a test or a benchmark
// table: h8_symm_trmv_fold's three kernels (bench/programs/heldout8) timed one
// by one (each alone, synchronized; min of 5) and in the program's schedule
// (symv on one stream, trmv on another, the fold after both), to see which
// kernel a clone speeds or slows (docs/BENCHMARKS.md, "Held-out programs,
// eighth batch"). Build it with nvcc and with tools/ptx-nvcc and compare:
//   nvcc -O3 -arch=sm_90 bench/diag/symm_kernels.cu -o symm_nvcc
//   tools/ptx-nvcc -O3 -arch=sm_90 bench/diag/symm_kernels.cu -o symm_ptx
// The program's own kernels (its main renamed out of the way), so the two
// cannot drift apart.
#define main h8_symm_trmv_fold_main
#include "../programs/heldout8/h8_symm_trmv_fold.cu"
#undef main
#include <algorithm>

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 5800);
  const size_t nn = size_t(n) * n;
  std::vector<float> A(nn), x(n), y(n);
  fillFloats(A, 9201); fillFloats(x, 9202); fillFloats(y, 9203);
  float *d_A = toDevice(A), *d_x = toDevice(x), *d_y = toDevice(y), *d_z;
  CHECK(cudaMalloc(&d_z, size_t(n) * sizeof(float)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1)); CHECK(cudaStreamCreate(&s2));
  cudaEvent_t e0, e1; CHECK(cudaEventCreate(&e0)); CHECK(cudaEventCreate(&e1));
  auto timeIt = [&](auto f) {
    float best = 1e30f;
    for (int r = 0; r < 5; r++) {
      CHECK(cudaMemcpy(d_A, A.data(), nn * 4, cudaMemcpyHostToDevice));
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaEventRecord(e0, 0)); f(); CHECK(cudaEventRecord(e1, 0));
      CHECK(cudaEventSynchronize(e1));
      float ms; CHECK(cudaEventElapsedTime(&ms, e0, e1)); best = std::min(best, ms);
    }
    return best;
  };
  float t1 = timeIt([&] { symv_lower<<<blocksFor(n, 128), 128>>>(d_A, d_x, d_y, size_t(n), 1.25f, 0.5f); });
  float t2 = timeIt([&] { trmv_upper_unit<<<blocksFor(n, 64), 64>>>(d_A, d_x, d_z, unsigned(n), 1.25f); });
  float t3 = timeIt([&] { fold_upper_into_lower<<<blocksFor(n, 256), 256>>>(d_A, n, 0.75f); });
  float t12 = timeIt([&] {
    symv_lower<<<blocksFor(n, 128), 128>>>(d_A, d_x, d_y, size_t(n), 1.25f, 0.5f);
    trmv_upper_unit<<<blocksFor(n, 64), 64>>>(d_A, d_x, d_z, unsigned(n), 1.25f);
  });
  cudaEvent_t done2; CHECK(cudaEventCreateWithFlags(&done2, cudaEventDisableTiming));
  float tc = timeIt([&] {
    symv_lower<<<blocksFor(n, 128), 128, 0, s1>>>(d_A, d_x, d_y, size_t(n), 1.25f, 0.5f);
    trmv_upper_unit<<<blocksFor(n, 64), 64, 0, s2>>>(d_A, d_x, d_z, unsigned(n), 1.25f);
    CHECK(cudaEventRecord(done2, s2));
    CHECK(cudaStreamWaitEvent(s1, done2, 0));
    fold_upper_into_lower<<<blocksFor(n, 256), 256, 0, s1>>>(d_A, n, 0.75f);
  });
  printf("n=%d symv %.3f ms, trmv %.3f ms, fold %.3f ms, symv+trmv serial %.3f ms, concurrent all %.3f ms\n", n, t1, t2, t3, t12, tc);
  return 0;
}
