// Scalar CSR sparse matrix-vector products (issue 29, item 5; docs/PASSES.md,
// "Rows with loaded bounds"): the rowwalk pass's lanes clones (the "vector CSR" kernel, option
// rowwalk-csr) of tests/lit/rowwalk/Inputs/csr.cu against the originals;
// targets: >= 3x for 32-256 non-zeros per row (integers exact, floats with
// --reassociate), and the rows of 1-8 that say whether any lane count is
// never slower there (the pass emits the clone only with rowwalk-csr).
//
//   csr <csr.ptx> G=<opt.ptx> [G=<opt.ptx> ...] [--runs N] [--rows N]
//
// The first module is nvcc's (the originals); each other one is ptx-opt
// --passes=rowwalk --rowwalk-csr --reassociate --rowwalk-lanes=G's, whose
// clone `<kernel>__ptxopt_lanes` (G = 32) or `__ptxopt_lanes<G>` is launched
// with its manifest's launch (grid.x*G blocks of 256). Matrices: --rows rows
// (default 65536) of exactly k non-zeros for k in 1, 4, 8, 32, 128, 256, and
// one of random lengths 0..64; columns random below 65536 (x of 65536).
// Integer outputs compared bit for bit, floats within 1e-5 relative (the
// sum is reassociated). Times: CUDA events, 3 warm-ups, min (median) of
// --runs. One markdown table on stdout; exit 1 when an output differs, 77
// without a CUDA device.
#include <cuda.h>
#include <cuda_runtime.h>

#include "../common/driver.h"

#include <algorithm>
#include <cmath>
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
using bench::deviceAlloc;
using bench::readFile;
using bench::toDevice;

int runs = 20;

std::pair<float, float> timeIt(CUfunction f, unsigned gx, unsigned bx, void **args) {
  const bench::Timing t = bench::timeIt(
      [&] { check(cuLaunchKernel(f, gx, 1, 1, bx, 1, 1, 0, nullptr, args, nullptr), "launch"); }, runs);
  return {t.min, t.median};
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> files;
  unsigned n = 65536;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--rows" && i + 1 < argc) n = unsigned(std::atoi(argv[++i]));
    else files.push_back(a);
  }
  if (files.size() < 2) {
    std::fprintf(stderr, "usage: csr <csr.ptx> G=<opt.ptx> [G=<opt.ptx> ...] [--runs N] [--rows N]\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "csr: no CUDA device\n");
    return 77;
  }
  bool failed = false;
  try {
    check(cudaFree(nullptr), "context");
    CUmodule orig;
    check(cuModuleLoadData(&orig, readFile(files[0]).c_str()), files[0].c_str());
    std::vector<std::pair<unsigned, CUmodule>> opts;
    for (size_t i = 1; i < files.size(); ++i) {
      const size_t eq = files[i].find('=');
      if (eq == std::string::npos) throw std::runtime_error("expected G=<opt.ptx>: " + files[i]);
      CUmodule m;
      check(cuModuleLoadData(&m, readFile(files[i].substr(eq + 1)).c_str()), files[i].c_str());
      opts.push_back({unsigned(std::atoi(files[i].c_str())), m});
    }
    const unsigned cols = 65536, maxNnz = 256;
    std::mt19937_64 rng(20261129);
    std::uniform_real_distribution<float> real(0.5f, 100.0f);
    const size_t cap = size_t(n) * maxNnz;
    std::vector<int> hcol(cap), hvi(cap), hxi(cols);
    std::vector<float> hvf(cap), hxf(cols);
    for (auto &v : hcol) v = int(rng() % cols);
    for (auto &v : hvi) v = int(rng() | 1);
    for (auto &v : hxi) v = int(rng() | 1);
    for (auto &v : hvf) v = real(rng);
    for (auto &v : hxf) v = real(rng);
    auto *rowptr = static_cast<int *>(deviceAlloc((size_t(n) + 1) * 4));
    auto *col = static_cast<int *>(toDevice(hcol.data(), cap * 4));
    auto *vi = static_cast<int *>(toDevice(hvi.data(), cap * 4));
    auto *vf = static_cast<float *>(toDevice(hvf.data(), cap * 4));
    auto *xi = static_cast<int *>(toDevice(hxi.data(), cols * 4));
    auto *xf = static_cast<float *>(toDevice(hxf.data(), cols * 4));
    auto *yi = static_cast<int *>(deviceAlloc(size_t(n) * 4));
    auto *yf = static_cast<float *>(deviceAlloc(size_t(n) * 4));
    cudaDeviceProp p;
    check(cudaGetDeviceProperties(&p, 0), "properties");
    std::printf("CSR SpMV (scalar, one thread per row): %s, %u rows, columns random below %u, 256-thread blocks, "
                "min (median) of %d runs after 3 warm-ups; speed-up of the lanes clone (G lanes per row, "
                "--rowwalk-csr) over the original (target >= 3x at 32-256 non-zeros per row; floats "
                "--reassociate)\n\n",
                p.name, n, cols, runs);
    std::printf("| kernel | nnz/row | original ms | G | clone ms | speed-up |\n|---|---|---:|---:|---:|---:|\n");
    const char *kernels[] = {"csr_i32", "csr_u32", "csr_f32"};
    for (int len : {1, 4, 8, 32, 128, 256, -64}) {
      std::vector<int> hrp(size_t(n) + 1, 0);
      for (unsigned i = 0; i < n; ++i) hrp[i + 1] = hrp[i] + (len > 0 ? len : int(rng() % unsigned(1 - len)));
      check(cudaMemcpy(rowptr, hrp.data(), hrp.size() * 4, cudaMemcpyHostToDevice), "copy");
      const std::string lenText = len > 0 ? std::to_string(len) : "0-" + std::to_string(-len);
      for (const char *kname : kernels) {
        const bool fl = std::strcmp(kname, "csr_f32") == 0;
        void *val = fl ? static_cast<void *>(vf) : vi, *x = fl ? static_cast<void *>(xf) : xi,
             *y = fl ? static_cast<void *>(yf) : yi;
        std::vector<void *> args = {&rowptr, &col, &val, &x, &y, &n};
        const unsigned grid = (n + 255) / 256;
        auto output = [&]() {
          std::vector<uint32_t> h(n);
          check(cudaMemcpy(h.data(), y, size_t(n) * 4, cudaMemcpyDeviceToHost), "copy back");
          return h;
        };
        CUfunction fo;
        check(cuModuleGetFunction(&fo, orig, kname), kname);
        check(cudaMemset(y, 0xA5, size_t(n) * 4), "memset");
        check(cuLaunchKernel(fo, grid, 1, 1, 256, 1, 1, 0, nullptr, args.data(), nullptr), "launch");
        check(cudaDeviceSynchronize(), kname);
        const auto want = output();
        const auto [omin, omed] = timeIt(fo, grid, 256, args.data());
        for (const auto &[G, m] : opts) {
          const std::string name = std::string(kname) + "__ptxopt_lanes" + (G == 32 ? "" : std::to_string(G));
          CUfunction fc;
          if (cuModuleGetFunction(&fc, m, name.c_str()) != CUDA_SUCCESS) {
            std::printf("| `%s` | %s | %.4f (%.4f) | %u | (no clone) | - |\n", kname, lenText.c_str(), omin, omed, G);
            continue;
          }
          check(cudaMemset(y, 0xA5, size_t(n) * 4), "memset");
          check(cuLaunchKernel(fc, grid * G, 1, 1, 256, 1, 1, 0, nullptr, args.data(), nullptr), "launch");
          check(cudaDeviceSynchronize(), name.c_str());
          const auto got = output();
          size_t diff = 0;
          for (size_t j = 0; j < got.size(); ++j) {
            if (!fl) {
              diff += got[j] != want[j];
              continue;
            }
            float a, b;
            std::memcpy(&a, &got[j], 4);
            std::memcpy(&b, &want[j], 4);
            diff += !(std::fabs(a - b) <= 1e-5f * std::fabs(b));
          }
          const auto [cmin, cmed] = timeIt(fc, grid * G, 256, args.data());
          std::printf("| `%s` | %s | %.4f (%.4f) | %u | %.4f (%.4f) | %.2fx%s |\n", kname, lenText.c_str(), omin, omed,
                      G, cmin, cmed, omin / cmin, diff ? " **DIFFERENT**" : "");
          failed |= diff != 0;
        }
      }
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "csr: %s\n", e.what());
    return 1;
  }
  return failed ? 1 : 0;
}
