// Short rows: how many lanes per logical thread the rowwalk pass's lanes
// clones should use for a given row length (docs/BENCHMARKS.md, "Row walks:
// lanes per row length"; the defaults in src/transforms/RowWalk.h cite it).
//
// Kernels: tests/lit/rowwalk/Inputs/rowwalk.cu (nvcc 13 -O3), optimized by
// ptx-opt --passes=rowwalk --reassociate --rowwalk-lanes=G once per G
// (scripts/bench-rowwalk.sh). For row lengths n = 8 ... 1024 and M rows
// such that the matrix is 128 MB (larger than L2), each G's grid-route
// clone (`<kernel>__ptxopt_lanes` for G = 32, `..._lanes<G>` else; grid.x*G
// blocks of 256 threads) is launched directly with the driver, beside the
// original (grid M/256 blocks of 256). Kernels: rowsum_int (exact: compared
// bit for bit) and rowsum_restrict (float, reassociated: the largest
// relative difference from the original is printed). Times: CUDA events, 2
// warm-ups, the minimum and median of --runs.
//
//   short_rows G=lanesG.ptx... [--runs N]
//
// One markdown table on stdout (speed-up over the original, by the minimum);
// exit 1 when an integer clone differs, 77 without a CUDA device.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    const char *s = nullptr;
    cuGetErrorString(r, &s);
    throw std::runtime_error(std::string(what) + ": " + (s ? s : "?"));
  }
}

std::string readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

int runs = 10;

/// Minimum and median of `runs` timed calls (after 2 warm-ups), in ms.
std::pair<float, float> timeIt(const std::function<void()> &launch) {
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "event");
  check(cudaEventCreate(&e1), "event");
  std::vector<float> t;
  for (int r = 0; r < 2 + runs; ++r) {
    check(cudaEventRecord(e0), "record");
    launch();
    check(cudaEventRecord(e1), "record");
    check(cudaEventSynchronize(e1), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
    if (r >= 2) t.push_back(ms);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  std::sort(t.begin(), t.end());
  return {t[0], t[t.size() / 2]};
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::pair<unsigned, std::string>> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (a.find('=') != std::string::npos) {
      files.push_back({unsigned(std::atoi(a.substr(0, a.find('=')).c_str())), a.substr(a.find('=') + 1)});
    } else {
      std::fprintf(stderr, "usage: short_rows G=lanesG.ptx... [--runs N]\n");
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: short_rows G=lanesG.ptx... [--runs N]\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "short_rows: no CUDA device\n");
    return 77;
  }
  bool failed = false;
  try {
    check(cudaFree(nullptr), "context");
    std::vector<CUmodule> mods(files.size());
    for (size_t i = 0; i < files.size(); ++i)
      check(cuModuleLoadData(&mods[i], readFile(files[i].second).c_str()), files[i].second.c_str());
    auto fn = [&](size_t mod, const std::string &name) {
      CUfunction f;
      check(cuModuleGetFunction(&f, mods[mod], name.c_str()), name.c_str());
      return f;
    };
    constexpr size_t kElems = size_t(1) << 25;  // 128 MB of 4-byte elements
    constexpr unsigned kBlock = 256;
    std::mt19937_64 rng(20261126);
    std::uniform_real_distribution<float> real(0.5f, 100.0f);
    std::vector<float> hA(kElems), hx(1024);
    std::vector<int> hI(kElems);
    for (auto &v : hA) v = real(rng);
    for (auto &v : hx) v = real(rng);
    for (auto &v : hI) v = static_cast<int>(rng());
    float *A, *x, *y;
    int *I, *yi;
    check(cudaMalloc(&A, kElems * 4), "malloc");
    check(cudaMalloc(&x, hx.size() * 4), "malloc");
    check(cudaMalloc(&I, kElems * 4), "malloc");
    check(cudaMalloc(&y, kElems / 8 * 4), "malloc");
    check(cudaMalloc(&yi, kElems / 8 * 4), "malloc");
    check(cudaMemcpy(A, hA.data(), kElems * 4, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(x, hx.data(), hx.size() * 4, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(I, hI.data(), kElems * 4, cudaMemcpyHostToDevice), "copy");
    auto output = [&](void *dev, size_t n) {
      std::vector<uint32_t> h(n);
      check(cudaMemcpy(h.data(), dev, n * 4, cudaMemcpyDeviceToHost), "copy back");
      return h;
    };
    int dev = 0;
    cudaDeviceProp p;
    check(cudaGetDevice(&dev), "device");
    check(cudaGetDeviceProperties(&p, dev), "properties");
    int rt = 0;
    cudaRuntimeGetVersion(&rt);
    std::printf("short rows: %s, CUDA runtime %d.%d, 2^25 elements (128 MB), %u-thread blocks, min (median) of %d "
                "runs; speed-up over the original by the minimum\n\n",
                p.name, rt / 1000, (rt % 1000) / 10, kBlock, runs);
    std::printf("| kernel | row length | rows | original ms |");
    for (const auto &f : files) std::printf(" %u lanes |", f.first);
    std::printf("\n|---|---:|---:|---:|");
    for (size_t i = 0; i < files.size(); ++i) std::printf("---:|");
    std::printf("\n");
    for (int kind = 0; kind < 2; ++kind) {
      const std::string kernel = kind == 0 ? "rowsum_int" : "rowsum_restrict";
      for (int n = 8; n <= 1024; n *= 2) {
        int nx = int(kElems / size_t(n)), ny = n;
        void *out = kind == 0 ? static_cast<void *>(yi) : static_cast<void *>(y);
        std::vector<void *> args = kind == 0 ? std::vector<void *>{&I, &yi, &nx, &ny}
                                             : std::vector<void *>{&A, &x, &y, &nx, &ny};
        const unsigned grid = unsigned((nx + kBlock - 1) / kBlock);
        auto launcher = [&](CUfunction f, unsigned gx) {
          return [=]() mutable { check(cuLaunchKernel(f, gx, 1, 1, kBlock, 1, 1, 0, nullptr, args.data(), nullptr), "launch"); };
        };
        check(cudaMemset(out, 0xA5, size_t(nx) * 4), "memset");
        auto orig = launcher(fn(0, kernel), grid);
        orig();
        check(cudaDeviceSynchronize(), kernel.c_str());
        const std::vector<uint32_t> want = output(out, size_t(nx));
        const auto [omin, omed] = timeIt(orig);
        std::printf("| `%s` | %d | %d | %.4f (%.4f) |", kernel.c_str(), n, nx, omin, omed);
        for (size_t i = 0; i < files.size(); ++i) {
          const unsigned G = files[i].first;
          const std::string name = kernel + "__ptxopt_lanes" + (G == 32 ? "" : std::to_string(G));
          check(cudaMemset(out, 0xA5, size_t(nx) * 4), "memset");
          auto clone = launcher(fn(i, name), grid * G);
          clone();
          check(cudaDeviceSynchronize(), name.c_str());
          const std::vector<uint32_t> got = output(out, size_t(nx));
          std::string note;
          if (kind == 0) {
            size_t diff = 0;
            for (size_t j = 0; j < got.size(); ++j) diff += got[j] != want[j];
            if (diff) note = " **" + std::to_string(diff) + " DIFFERENT**", failed = true;
          } else {
            double rel = 0;
            for (size_t j = 0; j < got.size(); ++j) {
              float g, w;
              std::memcpy(&g, &got[j], 4), std::memcpy(&w, &want[j], 4);
              rel = std::max(rel, std::fabs(double(g) - w) / std::fabs(double(w)));
            }
            if (!(rel < 1e-4)) {
              char b[64];
              std::snprintf(b, sizeof b, " **rel. diff %.1e**", rel);
              note = b, failed = true;
            }
          }
          const auto [cmin, cmed] = timeIt(clone);
          std::printf(" %.2fx (%.4f)%s |", omin / cmin, cmin, note.c_str());
        }
        std::printf("\n");
      }
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "short_rows: %s\n", e.what());
    return 1;
  }
  return failed ? 1 : 0;
}
