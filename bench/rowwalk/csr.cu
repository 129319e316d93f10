// Scalar CSR sparse matrix-vector products (issue 29, item 5; docs/PASSES.md,
// "Rows with loaded bounds"): the rowwalk pass's lanes clones (the "vector CSR" kernel, option
// rowwalk-csr) of tests/lit/rowwalk/Inputs/csr.cu against the originals and
// against a hand-written vector CSR kernel (32 lanes per row, a shuffle
// reduction: the ceiling of the lanes form on the same matrix); targets:
// >= 3x for 32-256 non-zeros per row (integers exact, floats with
// --reassociate), and the rows of 1-8 that say whether any lane count is
// never slower there (the pass emits the clone only with rowwalk-csr).
//
//   csr <csr.ptx> G=<opt.ptx> [G=<opt.ptx> | RG=<opt.ptx> ...] [--runs N] [--nnz N] [--rows N] [--lengths L,...]
//
// RG=<opt.ptx>: a module of ptx-opt --passes=rowwalk [--reassociate]
// --rowwalk-csr-lanes=G, whose rounds clone `<kernel>__ptxopt_csr` (the
// default CSR clone: each warp votes on its rows' lengths; RowWalkCsrRounds.cpp)
// runs with the original's launch.
// The first module is nvcc's (the originals); each other one is ptx-opt
// --passes=rowwalk --rowwalk-csr --reassociate --rowwalk-csr-lanes=G's, whose
// clone `<kernel>__ptxopt_lanes` (G = 32) or `__ptxopt_lanes<G>` is launched
// with its manifest's launch (grid.x*G blocks of 256). Matrices of k
// non-zeros in every row for k in 1, 8, 16, 32, 128, 256, of random
// lengths 0..40 and 0..64, and of 32..256 with one row in 8 empty
// (--lengths 1,8,-40: only these; k is k in every row, -k is 0..k, a-b is
// a..b, a suffix /e makes one row in e empty, 0 is "skewed": 85% of the
// rows 0..15, 15% 100..300, as a held-out program's); --nnz N non-zeros in all (default 2^25: 256 MiB of values and
// column indices, several times any GPU's L2), so N/k rows, at least 65536
// and at most 2^22 (--rows fixes the row count). Two column patterns: random
// below 65536 (x of 256 KiB, every row's gathers scattered) and banded (row
// i's columns in a window of 3k around i: the gathers of a row share cache
// lines, as in the matrices of meshes and stencils). Integer outputs
// compared bit for bit, floats within 1e-5 relative (the sum is
// reassociated). Times: CUDA events, 3 warm-ups, min (median) of --runs
// (default 10). One markdown table on stdout; exit 1 when an output
// differs, 77 without a CUDA device.
#include <cuda.h>
#include <cuda_runtime.h>

#include "../common/driver.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
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

int runs = 10;

std::pair<float, float> timeIt(const std::function<void()> &launch) {
  const bench::Timing t = bench::timeIt(launch, runs);
  return {t.min, t.median};
}

/// The hand-written vector CSR kernel (Bell and Garland's "CSR (vector)"):
/// a warp per row, lane l summing elements l, l + 32, ..., then a shuffle
/// reduction. What the lanes clone with G = 32 does, written by hand.
template <typename T, typename I>
__global__ void handVector(const I *rowptr, const I *col, const T *val, const T *x, T *y, I n) {
  const unsigned row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (row >= unsigned(n)) return;
  T sum = 0;
  for (I j = rowptr[row] + lane; j < rowptr[row + 1]; j += 32) sum += val[j] * x[col[j]];
  for (int o = 16; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (lane == 0) y[row] = sum;
}

/// The row lengths of one matrix: lo..hi, one row in emptyEvery empty (0:
/// none), or "skewed" (85% of the rows 0..15, 15% 100..300).
struct Lengths {
  int lo = 0, hi = 0;
  unsigned emptyEvery = 0;
  bool skewed = false;
  std::string text;
};

/// "k": every row k; "-k": 0..k; "a-b": a..b; a suffix "/e": one row in e
/// empty; "0": skewed.
Lengths parseLengths(const std::string &item) {
  Lengths l;
  std::string range = item;
  if (const size_t slash = item.find('/'); slash != std::string::npos) {
    l.emptyEvery = unsigned(std::max(0, std::atoi(item.c_str() + slash + 1)));
    range = item.substr(0, slash);
  }
  const size_t dash = range.find('-', 1);
  if (dash != std::string::npos) {
    l.lo = std::atoi(range.c_str());
    l.hi = std::atoi(range.c_str() + dash + 1);
  } else if (const int k = std::atoi(range.c_str()); k < 0) {
    l.hi = -k;
  } else {
    l.lo = l.hi = k;
    l.skewed = k == 0;
  }
  if (l.hi < l.lo || l.lo < 0) {
    std::fprintf(stderr, "csr: bad --lengths item '%s'\n", item.c_str());
    std::exit(2);
  }
  l.text = l.skewed ? std::string("skewed")
                    : (l.lo == l.hi ? std::to_string(l.lo) : std::to_string(l.lo) + "-" + std::to_string(l.hi)) +
                          (l.emptyEvery ? ", 1 in " + std::to_string(l.emptyEvery) + " empty" : "");
  return l;
}

/// Elements of `got` that differ from `want` (floats: beyond 1e-5 relative).
size_t differing(const std::vector<uint32_t> &got, const std::vector<uint32_t> &want, bool fl) {
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
  return diff;
}

}  // namespace

int main(int argc, char **argv) {
  // Line-buffered: a run stopped by a time limit keeps the rows it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<std::string> files;
  unsigned fixedRows = 0;
  size_t totalNnz = size_t(1) << 25;
  std::vector<Lengths> lengths;
  for (const char *l : {"1", "8", "16", "32", "128", "256", "-40", "-64", "32-256/8"}) lengths.push_back(parseLengths(l));
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--rows" && i + 1 < argc) fixedRows = unsigned(std::atoi(argv[++i]));
    else if (a == "--nnz" && i + 1 < argc) totalNnz = size_t(std::atoll(argv[++i]));
    else if (a == "--lengths" && i + 1 < argc) {  // e.g. "1,8,-40": only these row lengths
      lengths.clear();
      std::stringstream list(argv[++i]);
      for (std::string item; std::getline(list, item, ',');) lengths.push_back(parseLengths(item));
    }
    else files.push_back(a);
  }
  if (files.size() < 2) {
    std::fprintf(stderr, "usage: csr <csr.ptx> G=<opt.ptx> [G=<opt.ptx> | RG=<opt.ptx> ...] [--runs N] [--nnz N] [--rows N] [--lengths 1,8,-40]\n");
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
    struct Opt {
      unsigned G;
      bool rounds;  // "R<G>=": the rounds clone `__ptxopt_csr`, the original's launch
      CUmodule m;
    };
    std::vector<Opt> opts;
    for (size_t i = 1; i < files.size(); ++i) {
      const size_t eq = files[i].find('=');
      if (eq == std::string::npos) throw std::runtime_error("expected G=<opt.ptx> or RG=<opt.ptx>: " + files[i]);
      CUmodule m;
      check(cuModuleLoadData(&m, readFile(files[i].substr(eq + 1)).c_str()), files[i].c_str());
      const bool rounds = files[i][0] == 'R';
      opts.push_back({unsigned(std::atoi(files[i].c_str() + (rounds ? 1 : 0))), rounds, m});
    }
    const unsigned randomCols = 65536, maxRows = 1u << 22;
    auto rowsFor = [&](const Lengths &len) -> unsigned {
      if (fixedRows) return fixedRows;
      const size_t perRow = size_t(len.skewed ? 37 : (len.lo + len.hi) / 2);
      return unsigned(std::min<size_t>(maxRows, std::max<size_t>(65536, totalNnz / std::max<size_t>(1, perRow))));
    };
    size_t cap = 0, maxN = 0;
    for (const Lengths &len : lengths) {
      const size_t n = rowsFor(len);
      cap = std::max(cap, n * size_t(len.skewed ? 60 : len.hi));
      maxN = std::max(maxN, n);
    }
    std::mt19937_64 rng(20261129);
    std::uniform_real_distribution<float> real(0.5f, 100.0f);
    std::vector<int> hvi(cap), hxi(maxN);
    std::vector<float> hvf(cap), hxf(maxN);
    for (auto &v : hvi) v = int(rng() | 1);
    for (auto &v : hxi) v = int(rng() | 1);
    for (auto &v : hvf) v = real(rng);
    for (auto &v : hxf) v = real(rng);
    auto *rowptr = static_cast<int *>(deviceAlloc((maxN + 1) * 4));
    auto *col = static_cast<int *>(deviceAlloc(cap * 4));
    auto *vi = static_cast<int *>(toDevice(hvi.data(), cap * 4));
    auto *vf = static_cast<float *>(toDevice(hvf.data(), cap * 4));
    auto *xi = static_cast<int *>(toDevice(hxi.data(), maxN * 4));
    auto *xf = static_cast<float *>(toDevice(hxf.data(), maxN * 4));
    auto *yi = static_cast<int *>(deviceAlloc(maxN * 4));
    auto *yf = static_cast<float *>(deviceAlloc(maxN * 4));
    cudaDeviceProp p;
    check(cudaGetDeviceProperties(&p, 0), "properties");
    std::printf("CSR SpMV (scalar, one thread per row): %s, %zu non-zeros per matrix (rows: that over the row "
                "length, 65536 to %u), 256-thread blocks, min (median) of %d runs after 3 warm-ups; speed-up of the "
                "rounds clone (\"rounds G\", the default: the original's launch, each warp choosing), of the lanes "
                "clone (G lanes per row, --rowwalk-csr) and of a hand-written vector CSR kernel (32 lanes "
                "per row) over the original (target >= 3x at 32-256 non-zeros per row; floats --reassociate)\n\n",
                p.name, totalNnz, maxRows, runs);
    std::printf("| kernel | columns | rows | nnz/row | original ms | G | clone ms | speed-up | hand-written vector ms | "
                "its speed-up |\n|---|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
    const char *kernels[] = {"csr_i32", "csr_u32", "csr_f32"};
    std::vector<int> hcol(cap);
    for (const char *pattern : {"random", "banded"}) {
      const bool banded = std::strcmp(pattern, "banded") == 0;
      for (const Lengths &len : lengths) {
        unsigned n = rowsFor(len);  // a kernel parameter (its address goes to cuLaunchKernel)
        std::vector<int> hrp(size_t(n) + 1, 0);
        for (unsigned i = 0; i < n; ++i)
          hrp[i + 1] = hrp[i] + (len.skewed                               ? (rng() % 100 < 85 ? int(rng() % 16) : 100 + int(rng() % 201))
                                 : len.emptyEvery && rng() % len.emptyEvery == 0 ? 0
                                                                          : len.lo + int(rng() % unsigned(len.hi - len.lo + 1)));
        for (unsigned i = 0; i < n; ++i) {
          const int k = hrp[i + 1] - hrp[i];
          for (int j = 0; j < k; ++j) {
            const long c = banded ? long(i) - k + 3 * j / 2 + long(rng() % 2) : long(rng() % randomCols);
            hcol[size_t(hrp[i]) + size_t(j)] = int((c % long(n) + long(n)) % long(n));
          }
        }
        check(cudaMemcpy(rowptr, hrp.data(), hrp.size() * 4, cudaMemcpyHostToDevice), "copy");
        check(cudaMemcpy(col, hcol.data(), size_t(hrp[n]) * 4, cudaMemcpyHostToDevice), "copy");
        const std::string lenText = len.text;
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
          auto launchOrig = [&] { check(cuLaunchKernel(fo, grid, 1, 1, 256, 1, 1, 0, nullptr, args.data(), nullptr), "launch"); };
          check(cudaMemset(y, 0xA5, size_t(n) * 4), "memset");
          launchOrig();
          check(cudaDeviceSynchronize(), kname);
          const auto want = output();
          const auto [omin, omed] = timeIt(launchOrig);
          // the hand-written kernel: same matrix, same check
          auto launchHand = [&] {
            const unsigned g = unsigned((size_t(n) * 32 + 255) / 256);
            if (fl) handVector<float, int><<<g, 256>>>(rowptr, col, vf, xf, yf, int(n));
            else handVector<int, int><<<g, 256>>>(rowptr, col, vi, xi, yi, int(n));
            check(cudaGetLastError(), "hand-written launch");
          };
          check(cudaMemset(y, 0xA5, size_t(n) * 4), "memset");
          launchHand();
          check(cudaDeviceSynchronize(), "hand-written vector CSR");
          const size_t handDiff = differing(output(), want, fl);
          const auto [hmin, hmed] = timeIt(launchHand);
          char hand[96];
          std::snprintf(hand, sizeof hand, "%.4f (%.4f) | %.2fx%s", hmin, hmed, omin / hmin,
                        handDiff ? " **DIFFERENT**" : "");
          failed |= handDiff != 0;
          for (const auto &opt : opts) {
            const unsigned G = opt.G;
            const CUmodule m = opt.m;
            const std::string name = std::string(kname) + (opt.rounds ? std::string("__ptxopt_csr")
                                                                      : "__ptxopt_lanes" + (G == 32 ? "" : std::to_string(G)));
            const std::string gText = (opt.rounds ? "rounds " : "") + std::to_string(G);
            CUfunction fc;
            if (cuModuleGetFunction(&fc, m, name.c_str()) != CUDA_SUCCESS) {
              std::printf("| `%s` | %s | %u | %s | %.4f (%.4f) | %s | (no clone) | - | %s |\n", kname, pattern, n,
                          lenText.c_str(), omin, omed, gText.c_str(), hand);
              continue;
            }
            auto launchClone = [&] {
              check(cuLaunchKernel(fc, opt.rounds ? grid : grid * G, 1, 1, 256, 1, 1, 0, nullptr, args.data(), nullptr),
                    "launch");
            };
            check(cudaMemset(y, 0xA5, size_t(n) * 4), "memset");
            launchClone();
            check(cudaDeviceSynchronize(), name.c_str());
            const size_t diff = differing(output(), want, fl);
            const auto [cmin, cmed] = timeIt(launchClone);
            std::printf("| `%s` | %s | %u | %s | %.4f (%.4f) | %s | %.4f (%.4f) | %.2fx%s | %s |\n", kname, pattern, n,
                        lenText.c_str(), omin, omed, gText.c_str(), cmin, cmed, omin / cmin,
                        diff ? " **DIFFERENT**" : "", hand);
            failed |= diff != 0;
          }
        }
      }
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "csr: %s\n", e.what());
    return 1;
  }
  return failed ? 1 : 0;
}
