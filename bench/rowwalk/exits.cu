// Row walks that leave the loop early (issue 29, item 3: early exits;
// docs/BENCHMARKS.md, "Row walks with early exits"): the rowwalk pass's
// staged clones of tests/lit/rowwalk/Inputs/exits.cu (a sum up to a zero,
// float and int, a search, two exits) against the originals, for rows where
// the exits come late, in the middle, early, or never.
//
//   exits <exits.ptx> <exits.O2.ptx> [--runs N] [--n ROWS] [--len N]
//
// The first module is nvcc's (the originals), the second ptx-opt -O2's. Each
// kernel runs on ROWS x N (default 4096 x 4096) in 256-thread blocks; its
// staged clone is taken by name from the -O2 module and launched as its
// manifest says (grid (256/32, grid.x), block 32, and after the original's
// arguments the end of the rows' allocation, cuMemGetAddressRange, as the
// runtime passes it). The rows hold random values in [0.5, 100) with a zero
// (the sentinel the loops stop at; the search's key) about one element in
// K: K = 0 (none: every row walked to its end), 16384, 2048, 256, 64, 16, 4, 2, 1 (every row ends at its first
// element). Every
// clone's output is compared bit for bit with the original's. Times: CUDA
// events, 3 warm-ups, min (median) of --runs. One markdown table on stdout;
// exit 1 when a clone differs, 77 without a CUDA device.
#include <cuda.h>
#include <cuda_runtime.h>

#include "../common/driver.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using bench::check;

int runs = 20;

/// Min and median of `runs` launches of `f` (grid gx x gy, block bx).
bench::Timing timeIt(CUfunction f, unsigned gx, unsigned gy, unsigned bx, const std::vector<void *> &args) {
  bench::Launch l;
  l.f = f;
  l.grid[0] = gx, l.grid[1] = gy, l.block[0] = bx;
  l.params = args;
  return bench::timeIt([&] { l.run(); }, runs);
}

}  // namespace

int main(int argc, char **argv) {
  // Line-buffered: a run stopped by a time limit keeps the rows it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<std::string> files;
  unsigned n = 4096, len = 4096;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--n" && i + 1 < argc) n = unsigned(std::atoi(argv[++i]));
    else if (a == "--len" && i + 1 < argc) len = unsigned(std::atoi(argv[++i]));
    else files.push_back(a);
  }
  if (files.size() != 2) {
    std::fprintf(stderr, "usage: exits <exits.ptx> <exits.O2.ptx> [--runs N] [--n ROWS] [--len N]\n");
    return 2;
  }
  if (!bench::haveDevice("exits")) return 77;
  bool failed = false;
  try {
    bench::initContext();
    CUmodule orig = bench::loadModule(files[0]), opt = bench::loadModule(files[1]);
    const size_t elems = size_t(n) * len;
    void *A = bench::deviceAlloc(elems * 4), *I = bench::deviceAlloc(elems * 4), *y = bench::deviceAlloc(size_t(n) * 4);
    // The end of the rows' allocations (what the runtime passes the clone).
    auto endOf = [](void *p) {
      CUdeviceptr base = 0;
      size_t size = 0;
      check(cuMemGetAddressRange(&base, &size, CUdeviceptr(p)), "cuMemGetAddressRange");
      return uint64_t(base) + size;
    };
    uint64_t endA = endOf(A), endI = endOf(I);
    cudaDeviceProp p;
    check(cudaGetDeviceProperties(&p, 0), "properties");
    std::printf("row walks with early exits (issue 29, item 3; bit-identical): %s, %u x %u, 256-thread blocks, a zero "
                "about one element in K (the loops stop at it: about K elements a row; K = none: every row walked to "
                "its end), min (median) of %d runs after 3 warm-ups; speed-up over the kernel's original\n\n",
                p.name, n, len, runs);
    std::printf("| kernel | K | original ms | staged ms | speed-up |\n|---|---:|---:|---:|---:|\n");
    float limit = 99.9f;
    int key = 0;
    std::mt19937_64 rng(20261130);
    std::uniform_real_distribution<float> real(0.5f, 100.0f);
    std::vector<float> hA(elems);
    std::vector<int> hI(elems);
    const unsigned grid = (n + 255) / 256;
    for (unsigned K : {0u, 16384u, 2048u, 256u, 64u, 16u, 4u, 2u, 1u}) {
      for (size_t j = 0; j < elems; ++j) {
        const bool zero = K && rng() % K == 0;
        hA[j] = zero ? 0.0f : real(rng);
        hI[j] = zero ? 0 : int(rng() | 1);
      }
      check(cudaMemcpy(A, hA.data(), elems * 4, cudaMemcpyHostToDevice), "copy");
      check(cudaMemcpy(I, hI.data(), elems * 4, cudaMemcpyHostToDevice), "copy");
      struct Kern {
        const char *name;
        std::vector<void *> args;  // the original's; the clone's add the end
        uint64_t *end;
      };
      std::vector<Kern> ks = {
          {"exit_zero_f32", {&A, &y, &n, &len}, &endA},
          {"exit_zero_i32", {&I, &y, &n, &len}, &endI},
          {"find_first_i32", {&I, &y, &n, &len, &key}, &endI},
          {"exit_two_f32", {&A, &y, &n, &len, &limit}, &endA},
      };
      // One launch on a poisoned output, its output read back.
      auto outputOf = [&](CUfunction f, unsigned gx, unsigned gy, unsigned bx, std::vector<void *> &args) {
        check(cudaMemset(y, 0xA5, size_t(n) * 4), "memset");
        check(cuLaunchKernel(f, gx, gy, 1, bx, 1, 1, 0, nullptr, args.data(), nullptr), "launch");
        check(cudaDeviceSynchronize(), "launch");
        std::vector<uint32_t> h(n);
        check(cudaMemcpy(h.data(), y, size_t(n) * 4, cudaMemcpyDeviceToHost), "copy back");
        return h;
      };
      for (auto &k : ks) {
        CUfunction fo, fc;
        check(cuModuleGetFunction(&fo, orig, k.name), k.name);
        const auto want = outputOf(fo, grid, 1, 256, k.args);
        const auto [omin, omed] = timeIt(fo, grid, 1, 256, k.args);
        const std::string name = std::string(k.name) + "__ptxopt_staged";
        const std::string kText = K ? std::to_string(K) : std::string("none");
        if (cuModuleGetFunction(&fc, opt, name.c_str()) != CUDA_SUCCESS) {
          std::printf("| `%s` | %s | %.4f (%.4f) | (no clone) | - |\n", k.name, kText.c_str(), omin, omed);
          continue;
        }
        std::vector<void *> cargs = k.args;
        cargs.push_back(k.end);
        const unsigned gx = 256 / 32, gy = grid, bx = 32;
        const auto got = outputOf(fc, gx, gy, bx, cargs);
        size_t diff = 0;
        for (size_t j = 0; j < got.size(); ++j) diff += got[j] != want[j];
        const auto [cmin, cmed] = timeIt(fc, gx, gy, bx, cargs);
        std::printf("| `%s` | %s | %.4f (%.4f) | %.4f (%.4f) | %.2fx%s |\n", k.name, kText.c_str(), omin, omed, cmin,
                    cmed, omin / cmin, diff ? " **DIFFERENT**" : "");
        failed |= diff != 0;
      }
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "exits: %s\n", e.what());
    return 1;
  }
  return failed ? 1 : 0;
}
