// Row walks with guards inside the loop (issue 29, item 3; docs/BENCHMARKS.md,
// "Row walks with guards"): the rowwalk pass's staged clones of
// tests/lit/rowwalk/Inputs/guards.cu (skip-zero, a branchy max, a guard on x,
// 32-bit index, pointer and constant-length forms) against the originals;
// the target is 4x at 4096 x 4096, bit-identical.
//
//   guards <guards.ptx> <guards.O2.ptx> [--runs N] [--n ROWS] [--len N] [--zeros K]
//
// The first module is nvcc's (the originals), the second ptx-opt -O2's. Each
// kernel runs on ROWS x N (default 4096 x 4096) in 256-thread blocks; its
// staged clone (`_staged_pack` or `_staged`) is taken by name from the -O2
// module and launched directly with its manifest's launch (grid (256/32,
// grid.x), block 32). The skip-zero kernels read rows with about one element
// in K (default 3) zero; skip-zero is also timed on dense rows. Every
// clone's output is compared bit for bit with the original's. Times: CUDA
// events, 3 warm-ups, min (median) of --runs. One markdown table on stdout;
// exit 1 when a clone differs, 77 without a CUDA device.
#include <cuda.h>
#include <cuda_runtime.h>

#include "../common/driver.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using bench::check;
using bench::readFile;

int runs = 20;

std::pair<float, float> timeIt(CUfunction f, unsigned gx, unsigned gy, unsigned bx, void **args) {
  const bench::Timing t = bench::timeIt(
      [&] { check(cuLaunchKernel(f, gx, gy, 1, bx, 1, 1, 0, nullptr, args, nullptr), "launch"); }, runs);
  return {t.min, t.median};
}

}  // namespace

int main(int argc, char **argv) {
  // Line-buffered: a run stopped by a time limit keeps the rows it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<std::string> files;
  unsigned n = 4096, len = 4096, zeros = 3;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--n" && i + 1 < argc) n = unsigned(std::atoi(argv[++i]));
    else if (a == "--len" && i + 1 < argc) len = unsigned(std::atoi(argv[++i]));
    else if (a == "--zeros" && i + 1 < argc) zeros = std::max(1, std::atoi(argv[++i]));
    else files.push_back(a);
  }
  if (files.size() != 2) {
    std::fprintf(stderr, "usage: guards <guards.ptx> <guards.O2.ptx> [--runs N] [--n ROWS] [--len N] [--zeros K]\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "guards: no CUDA device\n");
    return 77;
  }
  bool failed = false;
  try {
    check(cudaFree(nullptr), "context");
    CUmodule orig, opt;
    check(cuModuleLoadData(&orig, readFile(files[0]).c_str()), files[0].c_str());
    check(cuModuleLoadData(&opt, readFile(files[1]).c_str()), files[1].c_str());
    const size_t elems = size_t(n) * len;
    std::mt19937_64 rng(20261129);
    std::uniform_real_distribution<float> real(0.5f, 100.0f);
    // Dense rows (no zero) and rows with about one element in `zeros` zero.
    std::vector<float> hA(elems), hAz(elems), hx(len), hw(len);
    std::vector<int> hI(elems), hIz(elems), hxi(len);
    for (size_t j = 0; j < elems; ++j) {
      hA[j] = real(rng);
      hI[j] = int(rng() | 1);
      const bool zero = rng() % zeros == 0;
      hAz[j] = zero ? 0.0f : hA[j];
      hIz[j] = zero ? 0 : hI[j];
    }
    for (auto &v : hx) v = real(rng);
    for (auto &v : hw) v = real(rng);
    for (auto &v : hxi) v = int(rng() | 1);
    auto upload = [](const void *h, size_t bytes) {
      void *d = nullptr;
      check(cudaMalloc(&d, bytes), "malloc");
      check(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice), "copy");
      return d;
    };
    void *A = upload(hA.data(), elems * 4), *Az = upload(hAz.data(), elems * 4), *I = upload(hI.data(), elems * 4),
         *Iz = upload(hIz.data(), elems * 4), *x = upload(hx.data(), size_t(len) * 4),
         *w = upload(hw.data(), size_t(len) * 4), *xi = upload(hxi.data(), size_t(len) * 4), *y = nullptr;
    check(cudaMalloc(&y, size_t(n) * 4), "malloc");
    cudaDeviceProp p;
    check(cudaGetDeviceProperties(&p, 0), "properties");
    std::printf("row walks with guards inside the loop (issue 29, item 3; target >= 4x, bit-identical): %s, %u x %u, "
                "256-thread blocks, one element in %u zero in the skip-zero rows, min (median) of %d runs after 3 "
                "warm-ups; speed-up over the kernel's original\n\n",
                p.name, n, len, zeros, runs);
    std::printf("| kernel | rows | original ms | clone | clone ms | speed-up |\n|---|---|---:|---|---:|---:|\n");
    struct K {
      const char *name;
      const char *rows;
      std::vector<void *> args;
      void *end;  // the clones' extra argument where they take one (Variant::allocEnds): the end of the
                  // allocation of the vector read under the guard (x; w for guardx), as the runtime passes it
    };
    // (cuLaunchKernel reads as many arguments as the kernel has: the
    // originals and clones without the extra parameter ignore it.)
    uint64_t xEnd = uint64_t(uintptr_t(x)) + uint64_t(len) * 4, xiEnd = uint64_t(uintptr_t(xi)) + uint64_t(len) * 4,
             wEnd = uint64_t(uintptr_t(w)) + uint64_t(len) * 4;
    std::vector<K> ks = {
        {"skipzero_f32", "with zeros", {&Az, &x, &y, &n, &len}, &xEnd},
        {"skipzero_f32", "dense", {&A, &x, &y, &n, &len}, &xEnd},
        {"skipzero_i32", "with zeros", {&Iz, &xi, &y, &n, &len}, &xiEnd},
        {"branchmax_f32", "dense", {&A, &x, &y, &n, &len}, &xEnd},
        {"branchmax_i32", "dense", {&I, &xi, &y, &n, &len}, &xiEnd},
        {"guardx_f32", "dense", {&A, &x, &w, &y, &n, &len}, &wEnd},
        {"skipzero_u32", "with zeros", {&Az, &x, &y, &n, &len}, &xEnd},
        {"skipzero_ptr", "with zeros", {&Iz, &xi, &y, &n, &len}, &xiEnd},
        {"skipzero_c4096", "with zeros", {&Az, &x, &y, &n}, &xEnd},
    };
    for (auto &k : ks) k.args.push_back(k.end);
    const unsigned grid = (n + 255) / 256;
    for (auto &k : ks) {
      if (std::string(k.name) == "skipzero_c4096" && len != 4096) continue;  // its row length is 4096
      auto output = [&]() {
        std::vector<uint32_t> h(n);
        check(cudaMemcpy(h.data(), y, size_t(n) * 4, cudaMemcpyDeviceToHost), "copy back");
        return h;
      };
      CUfunction fo;
      check(cuModuleGetFunction(&fo, orig, k.name), k.name);
      check(cudaMemset(y, 0xA5, size_t(n) * 4), "memset");
      check(cuLaunchKernel(fo, grid, 1, 1, 256, 1, 1, 0, nullptr, k.args.data(), nullptr), "launch");
      check(cudaDeviceSynchronize(), k.name);
      const auto want = output();
      const auto [omin, omed] = timeIt(fo, grid, 1, 256, k.args.data());
      bool any = false;
      for (const char *suffix : {"__ptxopt_staged_pack", "__ptxopt_staged"}) {
        const std::string name = std::string(k.name) + suffix;
        CUfunction fc;
        if (cuModuleGetFunction(&fc, opt, name.c_str()) != CUDA_SUCCESS) continue;
        // The staged clone's launch: one warp per block, grid (256/32, grid.x).
        const unsigned gx = 256 / 32, gy = grid, bx = 32;
        check(cudaMemset(y, 0xA5, size_t(n) * 4), "memset");
        check(cuLaunchKernel(fc, gx, gy, 1, bx, 1, 1, 0, nullptr, k.args.data(), nullptr), "launch");
        check(cudaDeviceSynchronize(), name.c_str());
        const auto got = output();
        size_t diff = 0;
        for (size_t j = 0; j < got.size(); ++j) diff += got[j] != want[j];
        const auto [cmin, cmed] = timeIt(fc, gx, gy, bx, k.args.data());
        std::printf("| `%s` | %s | %.4f (%.4f) | `%s` | %.4f (%.4f) | %.2fx%s |\n", k.name, k.rows, omin, omed,
                    suffix + 8, cmin, cmed, omin / cmin, diff ? " **DIFFERENT**" : "");
        failed |= diff != 0;
        any = true;
      }
      if (!any) std::printf("| `%s` | %s | %.4f (%.4f) | (none) | - | - |\n", k.name, k.rows, omin, omed);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "guards: %s\n", e.what());
    return 1;
  }
  return failed ? 1 : 0;
}
