// The ptx-nvcc shim's own CPU time per launch, without a GPU (issue #16,
// docs/BENCHMARKS.md "Launch hook cost"): __ptxopt_nvcc_launch called as a
// hook block calls it, with a cudart table whose launch does nothing, against
// calling that launch directly. What is left is the hook's cost on the
// launch path, free of the GPU's and the driver's noise. scripts/bench/hook.sh
// cpu links it with the shim of this tree and, given BASELINE_LIB, another.
//
//   shim_cpu <optimized.ptx> <kernel>     the manifest: the PTX's // @ptxopt-manifest line
//
// Prints "name min median" lines, nanoseconds per launch (repeats of 20000
// launches), and "variant <row> <name>".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "ptxopt/runtime/NvccShim.h"

namespace {

using Clock = std::chrono::steady_clock;

long launched = 0;
std::vector<std::pair<const void *, std::string>> names;  // host address -> name; a handle is &names[i]

void fRegister(void **, const char *host, char *, const char *name, int, uint3 *, uint3 *, dim3 *, dim3 *, int *) {
  names.emplace_back(host, name);
}
cudaError_t fGetKernel(cudaKernel_t *k, const void *host) {
  for (auto &n : names)
    if (n.first == host) {
      *k = reinterpret_cast<cudaKernel_t>(&n);
      return cudaSuccess;
    }
  return cudaErrorInvalidDeviceFunction;
}
__attribute__((noinline)) cudaError_t fLaunch(cudaKernel_t k, dim3, dim3, void **, size_t, cudaStream_t) {
  launched += reinterpret_cast<uintptr_t>(k) != 0;
  return cudaSuccess;
}
cudaError_t fGetDevice(int *d) {
  *d = 0;
  return cudaSuccess;
}
cudaError_t fDeviceAttribute(int *v, cudaDeviceAttr a, int) {
  switch (a) {
    case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: *v = 1024; break;
    case cudaDevAttrMaxBlockDimZ: *v = 64; break;
    case cudaDevAttrMaxGridDimX: *v = 2147483647; break;
    case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ: *v = 65535; break;
    default: *v = 1024;
  }
  return cudaSuccess;
}
cudaError_t fFuncAttributes(cudaFuncAttributes *a, const void *) {
  std::memset(a, 0, sizeof *a);
  a->maxThreadsPerBlock = 1024;
  return cudaSuccess;
}
cudaError_t fPeek() { return cudaSuccess; }
cudaError_t fGetLast() { return cudaSuccess; }
const char *fErrorName(cudaError_t) { return "cudaErrorFake"; }

const ptxopt_nvcc_cudart table = {1,          fRegister,  fGetKernel,      fLaunch, fLaunch, fGetDevice, fDeviceAttribute,
                                  fFuncAttributes, fPeek, fGetLast, fErrorName};

std::vector<char> hosts(100000);  // host addresses of kernels registered here
size_t nextHost = 0;

/// A fresh kernel (new host address and handle) with the manifest's clones.
cudaKernel_t newKernel(const char *manifest, const char *kernel) {
  const char *host = &hosts[nextHost++];
  fRegister(nullptr, host, nullptr, kernel, 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  __ptxopt_nvcc_register(&table, manifest, nullptr, host, kernel);
  cudaKernel_t h = nullptr;
  __ptxopt_nvcc_get_kernel(&table, &h, host);
  return h;
}

cudaKernel_t newPlainKernel() {
  const char *host = &hosts[nextHost++];
  fRegister(nullptr, host, nullptr, "plain", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  cudaKernel_t h = nullptr;
  __ptxopt_nvcc_get_kernel(&table, &h, host);
  return h;
}

template <class F>
void timed(const char *row, F &&launchOne, int reps = 15, int n = 20000) {
  std::vector<double> v;
  for (int r = 0; r < reps; ++r) {
    auto t = Clock::now();
    for (int i = 0; i < n; ++i) launchOne(i);
    v.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t).count() / n);
  }
  std::sort(v.begin(), v.end());
  std::printf("%s %.1f %.1f\n", row, v.front(), v[v.size() / 2]);
}

void variant(const char *row) {
  const char *v = ptxopt_nvcc_last_variant();
  std::printf("variant %s %s\n", row, v ? v : "-");
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: shim_cpu <optimized.ptx> <kernel>\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string line, manifest;
  while (std::getline(in, line))
    if (line.rfind("// @ptxopt-manifest ", 0) == 0) manifest = line.substr(20);
  if (manifest.empty()) {
    std::fprintf(stderr, "shim_cpu: no // @ptxopt-manifest line in %s\n", argv[1]);
    return 2;
  }
  const char *kernel = argv[2];
  alignas(16) static int buf[4];
  int *a = buf, *b = buf, *c = buf;
  void *args[3] = {&a, &b, &c};
  const dim3 g(8), blk(32);

  timed("direct", [&](int) { fLaunch(nullptr, g, blk, args, 0, nullptr); });
  cudaKernel_t plain = newPlainKernel();
  timed("plain", [&](int) { __ptxopt_nvcc_launch(&table, plain, g, blk, args, 0, nullptr, 0); });
  cudaKernel_t k = newKernel(manifest.c_str(), kernel);
  timed("cached_8x32", [&](int) { __ptxopt_nvcc_launch(&table, k, g, blk, args, 0, nullptr, 0); });
  variant("cached_8x32");
  timed("cached_512x256", [&](int) { __ptxopt_nvcc_launch(&table, k, dim3(512), dim3(256), args, 0, nullptr, 0); });
  variant("cached_512x256");
  // A shape every clone of Fig. 6-a refuses (2^32 + 1023 threads: past
  // remap's 32-bit index, swap's block limit, the splits' grid multiples):
  // the original, after every check.
  timed("cached_original",
        [&](int) { __ptxopt_nvcc_launch(&table, k, dim3(4194305), dim3(1024), args, 0, nullptr, 0); });
  variant("cached_original");
  // New shapes: a fresh kernel per repeat, 4096 shapes each new to it.
  {
    std::vector<double> v;
    for (int r = 0; r < 15; ++r) {
      cudaKernel_t fresh = newKernel(manifest.c_str(), kernel);
      __ptxopt_nvcc_launch(&table, fresh, g, blk, args, 0, nullptr, 0);  // its first launch: not timed here
      auto t = Clock::now();
      for (int i = 0; i < 4096; ++i)
        __ptxopt_nvcc_launch(&table, fresh, dim3(1 + i / 2), dim3(i % 2 ? 64 : 32), args, 0, nullptr, 0);
      v.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t).count() / 4096);
    }
    std::sort(v.begin(), v.end());
    std::printf("new_shapes %.1f %.1f\n", v.front(), v[v.size() / 2]);
  }
  // A kernel's first launch (the device limits and the clones it needs read
  // from the fake cudart, which answers at once).
  {
    std::vector<double> v;
    for (int r = 0; r < 200; ++r) {
      cudaKernel_t fresh = newKernel(manifest.c_str(), kernel);
      auto t = Clock::now();
      __ptxopt_nvcc_launch(&table, fresh, g, blk, args, 0, nullptr, 0);
      v.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t).count());
    }
    std::sort(v.begin(), v.end());
    std::printf("first_launch %.1f %.1f\n", v.front(), v[v.size() / 2]);
  }
  // A kernel's first launch with its caches cold: registered, then 256 MB
  // written (what a program does to the caches between start-up and its
  // first launch), then its handle asked for (__ptxopt_nvcc_get_kernel, as
  // the stub does) and the launch, timed together (docs/NVCC.md, "A
  // kernel's first launch, host side").
  {
    std::vector<char> junk(size_t(256) << 20);
    std::vector<double> v;
    for (int r = 0; r < 20; ++r) {
      const char *host = &hosts[nextHost++];
      fRegister(nullptr, host, nullptr, kernel, 0, nullptr, nullptr, nullptr, nullptr, nullptr);
      __ptxopt_nvcc_register(&table, manifest.c_str(), nullptr, host, kernel);
      for (size_t i = 0; i < junk.size(); i += 64) junk[i] = char(i + size_t(r));
      auto t = Clock::now();
      cudaKernel_t h = nullptr;
      __ptxopt_nvcc_get_kernel(&table, &h, host);
      __ptxopt_nvcc_launch(&table, h, g, blk, args, 0, nullptr, 0);
      v.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t).count());
    }
    std::sort(v.begin(), v.end());
    std::printf("cold_first_launch %.1f %.1f\n", v.front(), v[v.size() / 2]);
    variant("cold_first_launch");
  }
  std::fprintf(stderr, "%ld launches\n", launched);
  return 0;
}
