// examples/jit: an application that loads PTX through libptxopt's C++ API.
//
// It loads examples/matadd/matadd.ptx (the paper's matrix add, Fig. 6-a);
// libptxopt optimizes it in-process and picks a clone at launch when its
// conditions hold. The application names the ORIGINAL kernel and makes the
// ORIGINAL launch (n blocks of n threads); it checks the result against the
// CPU and prints which variant ran and the time.
//
//   jit-matadd [matadd.ptx] [n]        (default n = 1024: a 1024x1024 matrix)
//
// A file ending in .cubin or .fatbin is loaded as is (ptxopt_module_load_image):
// the clones and their manifest must already be in it, as when the optimized
// PTX from `ptx-opt -O2` went through ptxas or nvcc -fatbin.
//
// Memory and events come from the CUDA runtime; the kernels go through
// libptxopt. Exit status 77 when there is no CUDA device.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptxopt/runtime/ptxopt_runtime.hpp"

namespace {

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

/// Mean time of `reps` launches in milliseconds.
float timeLaunches(const ptxopt::rt::Kernel &k, unsigned n, int *a, int *b, int *c, int reps) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  check(cudaEventRecord(start, nullptr), "cudaEventRecord");
  for (int i = 0; i < reps; ++i) k.launch({n}, {n}, 0, nullptr, a, b, c);
  check(cudaEventRecord(stop, nullptr), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / reps;
}

}  // namespace

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : MATADD_PTX;
  unsigned n = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 1024;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("skipped: no CUDA device");
    return 77;
  }
  try {
    check(cudaSetDevice(0), "cudaSetDevice");
    std::string p(path);
    auto endsWith = [&](const char *suffix) {
      std::string x(suffix);
      return p.size() >= x.size() && p.compare(p.size() - x.size(), x.size(), x) == 0;
    };
    std::vector<char> image;
    if (endsWith(".cubin") || endsWith(".fatbin")) {
      std::ifstream in(p, std::ios::binary);
      if (!in) throw std::runtime_error("cannot read " + p);
      image.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    auto module = image.empty() ? ptxopt::rt::Module::fromFile(path) : ptxopt::rt::Module::fromImage(image.data());
    auto kernel = module.kernel("_Z10matadd_intPKiS0_Pi");  // matadd_int's .entry name
    size_t count = size_t(n) * n, bytes = count * sizeof(int);
    std::vector<int> a(count), b(count), c(count);
    std::mt19937 rng(1);
    for (size_t i = 0; i < count; ++i) a[i] = static_cast<int>(rng() % 1000), b[i] = static_cast<int>(rng() % 1000);
    int *da, *db, *dc;
    check(cudaMalloc(&da, bytes), "cudaMalloc");
    check(cudaMalloc(&db, bytes), "cudaMalloc");
    check(cudaMalloc(&dc, bytes), "cudaMalloc");
    check(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemset(dc, 0, bytes), "cudaMemset");
    kernel.launch({n}, {n}, 0, nullptr, da, db, dc);
    check(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    size_t wrong = 0;
    for (size_t i = 0; i < count; ++i) wrong += c[i] != a[i] + b[i];
    float ms = timeLaunches(kernel, n, da, db, dc, 20);
    std::printf("matadd_int %ux%u: ran %s (%s), %.4f ms per launch, %s\n", n, n, kernel.lastVariant(),
                kernel.lastVariantKind(), ms, wrong ? "WRONG RESULT" : "result ok");
    cudaFree(da), cudaFree(db), cudaFree(dc);
    return wrong ? 1 : 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "jit-matadd: %s\n", e.what());
    return 1;
  }
}
