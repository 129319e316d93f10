// rowwalk benchmark: the rowwalk pass's clones against the original kernels
// and hand-written warp-per-row kernels, in one run (docs/BENCHMARKS.md,
// "Row walks").
//
// Kernels: tests/lit/rowwalk/Inputs/rowwalk.cu (nvcc 13 -O3), optimized by
// ptx-opt three ways (scripts/bench/rowwalk.sh): --passes=rowwalk (regacc,
// integer lanes), --passes=rowwalk,pack (the regacc clone packed), and
// --passes=rowwalk --reassociate (float lanes). Each module is loaded with
// the driver (cuModuleLoadData: JIT to the GPU at hand); every kernel is
// taken by name and launched directly with the launch its manifest gives
// (no runtime selection), on a 4096 x 4096 problem in 256-thread blocks.
// Every output is compared with the original's: bit for bit for the exact
// clones, and for the reassociated ones the largest relative difference
// from the original and from a float64 CPU reference is printed.
// Times: CUDA events, 3 warm-ups, the median (and minimum) of --runs.
// One markdown table on stdout; exit 1 when an exact clone differs, 77
// without a CUDA device.
//
// The staged clones (one warp per block: grid (block.x/32, grid.x), block
// 32) are measured from the first two modules, as chosen by default (the
// first variant of -O2's manifest for rowsum_mem, given by the script with
// --default NAME=PTX) and with other tile settings (--extra LABEL=PTX: that
// module's rowsum_mem__ptxopt_staged_pack), and with plain copies instead
// of cp.async (--plain LABEL=PTX: ptx-opt --rowwalk-staged-copy=plain, the
// copies pre-sm_80 targets would get; its rowsum_mem__ptxopt_staged_pack).
// A hand-written kernel stages the same rows with sm_90 bulk copies
// (cp.async.bulk + mbarrier, hand_staged_bulk_f32; measured on sm_90 and
// later): whether bulk copies would pay over the clone's 16-byte cp.async.
//
//   rowwalk <rowwalk.ptx> <rowwalk-pack.ptx> <rowwalk-reassoc.ptx> [--runs N]
//   rowwalk --short-rows G=lanesG.ptx... [--runs N]   (lanes per row length: shortRows)
//           [--default NAME=O2.ptx] [--extra LABEL=PTX]... [--plain LABEL=PTX]...
#include "../common/driver.h"

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

constexpr int NX = 4096, NY = 4096, BLOCK = 256;

// ---- hand-written: one warp per row, 16-byte loads, shuffle reduction -----------------
__global__ void hand_warp_row_f32(const float *A, const float *x, float *y, int nx, int ny) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (row >= nx) return;
  const float4 *a = reinterpret_cast<const float4 *>(A + size_t(row) * ny);
  const float4 *v = reinterpret_cast<const float4 *>(x);
  float s = 0;
  for (int j = lane; j < ny / 4; j += 32) {
    float4 p = a[j], q = v[j];
    s += p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w;
  }
  for (int o = 16; o; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) y[row] = s;
}

__global__ void hand_warp_row_i32(const int *A, int *y, int nx, int ny) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (row >= nx) return;
  const int4 *a = reinterpret_cast<const int4 *>(A + size_t(row) * ny);
  int s = 0;
  for (int j = lane; j < ny / 4; j += 32) {
    int4 p = a[j];
    s += p.x + p.y + p.z + p.w;
  }
  for (int o = 16; o; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) y[row] = s;
}

// ---- hand-written: rows staged with sm_90 bulk copies (the staged clone's
// shape: one warp per block, thread per row, 256-byte tiles of 32 rows in
// 272-byte padded rows, STAGES tiles in flight) -------------------------------
// Lane l stages its own row: per tile one cp.async.bulk of 256 bytes into
// its row of the stage, completing on the stage's mbarrier (32 arrivals per
// phase, each lane's expect_tx of its 256 bytes before its copy). Each lane
// reads back only what it copied, so no lane waits for another's reads
// before rewriting a stage: the fence.proxy.async orders its own generic
// reads before its async-proxy copy. The sum is the original's: s =
// fma(A[i][j], x[j], s) for j = 0, 1, ... from 0 (nvcc contracts the
// original's `tmp[i] += A*x` into fma.rn.f32), so the result is bit-identical
// to rowsum_mem / rowsum_restrict. x is read as float4 (as the packed
// clones do). Warps with rows past nx, or rows not 16-byte aligned, run the
// plain loop. Measures whether bulk copies would pay over the clone's
// 16-byte cp.async (issue #17 step 3).
template <int STAGES>
__global__ void __launch_bounds__(32) hand_staged_bulk_f32(const float *A, const float *x, float *y, int nx, int ny) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr int TB = 256, PITCH = TB + 16, IPT = TB / 4;
  __shared__ alignas(16) unsigned char stage[STAGES][32 * PITCH];
  __shared__ alignas(8) unsigned long long bar[STAGES];
  const int lane = threadIdx.x, row = blockIdx.x * 32 + lane;
  const float *a = A + size_t(row) * ny;
  float s = 0.f;
  int j = 0;
  if (blockIdx.x * 32 + 32 <= nx && ny % 4 == 0 && (reinterpret_cast<uintptr_t>(A) & 15) == 0 &&
      (reinterpret_cast<uintptr_t>(x) & 15) == 0) {
    const int nt = ny / IPT;
    if (lane == 0)
      for (int st = 0; st < STAGES; ++st)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 32;" ::"r"(unsigned(__cvta_generic_to_shared(&bar[st])))
                     : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n\tfence.proxy.async.shared::cta;" ::: "memory");
    __syncwarp();
    auto issue = [&](int t) {
      const unsigned b = unsigned(__cvta_generic_to_shared(&bar[t % STAGES]));
      const unsigned d = unsigned(__cvta_generic_to_shared(&stage[t % STAGES][lane * PITCH]));
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(TB) : "memory");
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(d),
                   "l"(a + size_t(t) * IPT), "r"(TB), "r"(b)
                   : "memory");
    };
    for (int t = 0; t < STAGES && t < nt; ++t) issue(t);
    for (int t = 0; t < nt; ++t) {
      const unsigned b = unsigned(__cvta_generic_to_shared(&bar[t % STAGES])), parity = (t / STAGES) & 1;
      asm volatile(
          "{\n\t.reg .pred p;\n\tLAB_WAIT:\n\t"
          "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
          "@!p bra LAB_WAIT;\n\t}" ::"r"(b),
          "r"(parity)
          : "memory");
      const float4 *r = reinterpret_cast<const float4 *>(&stage[t % STAGES][lane * PITCH]);
      const float4 *xv = reinterpret_cast<const float4 *>(x + size_t(t) * IPT);
#pragma unroll
      for (int q = 0; q < IPT / 4; ++q) {
        const float4 v = r[q], w = xv[q];
        s = __fmaf_rn(v.x, w.x, s);
        s = __fmaf_rn(v.y, w.y, s);
        s = __fmaf_rn(v.z, w.z, s);
        s = __fmaf_rn(v.w, w.w, s);
      }
      if (t + STAGES < nt) {
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        issue(t + STAGES);
      }
    }
    j = nt * IPT;
  }
  if (row < nx)
    for (; j < ny; ++j) s = __fmaf_rn(a[j], x[j], s);
  if (row < nx) y[row] = s;
#endif
}

using bench::check;
using bench::readFile;

int runs = 20;

struct Row {
  std::string group, version, kernel;
  float ms = 0, minMs = 0;
  std::string result;
};

}  // namespace

/// --short-rows G=lanesG.ptx...: how many lanes per logical thread the
/// lanes clones should use for a given row length (docs/BENCHMARKS.md,
/// "Lanes per row length"; the defaults in src/transforms/RowWalk.h cite
/// it). The modules: ptx-opt --passes=rowwalk --reassociate
/// --rowwalk-lanes=G of the same kernels, one per G. For row lengths n = 8
/// ... 1024 and M rows such that the matrix is 128 MB (larger than L2),
/// each G's grid-route clone (`<kernel>__ptxopt_lanes` for G = 32,
/// `..._lanes<G>` else; grid.x*G blocks of 256 threads) is launched
/// directly, beside the original (grid M/256 blocks of 256): rowsum_int
/// (exact: compared bit for bit) and rowsum_restrict (float, reassociated:
/// the largest relative difference from the original must stay under
/// 1e-4). One markdown table: speed-up over the original by the minimum of
/// --runs; exit 1 when a clone's output is off, 77 without a CUDA device.
int shortRows(int argc, char **argv) {
  std::vector<std::pair<unsigned, std::string>> files;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (a.find('=') != std::string::npos) {
      files.push_back({unsigned(std::atoi(a.substr(0, a.find('=')).c_str())), a.substr(a.find('=') + 1)});
    } else {
      std::fprintf(stderr, "usage: rowwalk --short-rows G=lanesG.ptx... [--runs N]\n");
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: rowwalk --short-rows G=lanesG.ptx... [--runs N]\n");
    return 2;
  }
  if (!bench::haveDevice("rowwalk --short-rows")) return 77;
  bool failed = false;
  try {
    bench::initContext();
    std::vector<CUmodule> mods(files.size());
    for (size_t i = 0; i < files.size(); ++i) mods[i] = bench::loadModule(files[i].second);
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
                "runs (after 3 warm-ups); speed-up over the original by the minimum\n\n",
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
        const auto [omin, omed] = bench::timeIt(orig, runs);
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
          const auto [cmin, cmed] = bench::timeIt(clone, runs);
          std::printf(" %.2fx (%.4f)%s |", omin / cmin, cmin, note.c_str());
        }
        std::printf("\n");
      }
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rowwalk --short-rows: %s\n", e.what());
    return 1;
  }
  return failed ? 1 : 0;
}

int main(int argc, char **argv) {
  // Line-buffered: a run stopped by a time limit keeps the rows it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc > 1 && std::string(argv[1]) == "--short-rows") return shortRows(argc, argv);
  std::vector<std::string> files;
  std::vector<std::pair<std::string, std::string>> extras, defaults, plains;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if ((a == "--extra" || a == "--default" || a == "--plain") && i + 1 < argc) {
      std::string v = argv[++i];
      size_t eq = v.find('=');
      if (eq == std::string::npos) {
        std::fprintf(stderr, "rowwalk: %s wants LABEL=PTX\n", a.c_str());
        return 2;
      }
      (a == "--extra" ? extras : a == "--plain" ? plains : defaults).push_back({v.substr(0, eq), v.substr(eq + 1)});
    } else files.push_back(a);
  }
  if (files.size() != 3) {
    std::fprintf(stderr, "usage: rowwalk <rowwalk.ptx> <rowwalk-pack.ptx> <rowwalk-reassoc.ptx> [--runs N]\n");
    return 2;
  }
  if (!bench::haveDevice("rowwalk")) return 77;
  bool failed = false;
  try {
    bench::initContext();
    CUmodule mods[3];
    for (int i = 0; i < 3; ++i) mods[i] = bench::loadModule(files[i]);
    auto fn = [&](int mod, const std::string &name) {
      CUfunction f;
      check(cuModuleGetFunction(&f, mods[mod], name.c_str()), name.c_str());
      return f;
    };
    // Data: A and x in [0.5, 100) (floats), random ints; one allocation each.
    std::mt19937_64 rng(20261125);
    std::uniform_real_distribution<float> real(0.5f, 100.0f);
    std::vector<float> hA(size_t(NX) * NY), hx(NY);
    std::vector<int> hI(size_t(NX) * NY);
    for (auto &v : hA) v = real(rng);
    for (auto &v : hx) v = real(rng);
    for (auto &v : hI) v = static_cast<int>(rng());
    float *A, *x, *y, *t;
    int *I, *yi;
    check(cudaMalloc(&A, hA.size() * 4), "malloc");
    check(cudaMalloc(&x, hx.size() * 4), "malloc");
    check(cudaMalloc(&y, size_t(std::max(NX, NY)) * 4), "malloc");
    check(cudaMalloc(&t, size_t(NX) * 4), "malloc");
    check(cudaMalloc(&I, hI.size() * 4), "malloc");
    check(cudaMalloc(&yi, size_t(NX) * 4), "malloc");
    check(cudaMemcpy(A, hA.data(), hA.size() * 4, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(x, hx.data(), hx.size() * 4, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(t, hx.data(), size_t(NX) * 4, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(I, hI.data(), hI.size() * 4, cudaMemcpyHostToDevice), "copy");
    int nx = NX, ny = NY;
    // float64 reference of the row walk y = A x.
    std::vector<double> ref(NX);
    for (int i = 0; i < NX; ++i) {
      double s = 0;
      for (int j = 0; j < NY; ++j) s += double(hA[size_t(i) * NY + j]) * hx[j];
      ref[i] = s;
    }
    std::vector<Row> rows;
    auto output = [&](void *dev, size_t n) {
      std::vector<uint32_t> h(n);
      check(cudaMemcpy(h.data(), dev, n * 4, cudaMemcpyDeviceToHost), "copy back");
      return h;
    };
    // One kernel: launch (grid multiplier gx), time, compare with `want`.
    auto measure = [&](const std::string &group, const std::string &version, const std::string &name,
                       const std::function<void()> &launch, void *out, size_t n, const std::vector<uint32_t> *want,
                       bool exact) {
      Row r{group, version, name};
      check(cudaMemset(out, 0xA5, n * 4), "memset");
      launch();
      check(cudaDeviceSynchronize(), name.c_str());
      std::vector<uint32_t> got = output(out, n);
      const bench::Timing t = bench::timeIt(launch, runs);
      r.ms = t.median, r.minMs = t.min;
      if (!want) {
        r.result = "reference";
      } else if (exact) {
        size_t diff = 0;
        for (size_t i = 0; i < n; ++i) diff += got[i] != (*want)[i];
        r.result = diff ? std::to_string(diff) + " DIFFERENT" : "bit-identical";
        failed |= diff != 0;
      } else {
        double relOrig = 0, relRef = 0;
        for (size_t i = 0; i < n; ++i) {
          float g, w;
          std::memcpy(&g, &got[i], 4), std::memcpy(&w, &(*want)[i], 4);
          relOrig = std::max(relOrig, std::fabs(double(g) - w) / std::fabs(double(w)));
          relRef = std::max(relRef, std::fabs(double(g) - ref[i]) / std::fabs(ref[i]));
        }
        char buf[96];
        std::snprintf(buf, sizeof buf, "reassociated: rel. diff %.1e vs original, %.1e vs float64", relOrig, relRef);
        r.result = buf;
      }
      rows.push_back(r);
      return got;
    };
    auto driver = [&](CUfunction f, unsigned gx, unsigned bx, std::vector<void *> args, unsigned gy = 1) {
      return [=]() mutable { check(cuLaunchKernel(f, gx, gy, 1, bx, 1, 1, 0, nullptr, args.data(), nullptr), "launch"); };
    };
    const unsigned g = NX / BLOCK;
    // The staged clone's launch: one warp per block, grid (block.x/32, grid.x).
    auto staged = [&](CUfunction f, std::vector<void *> args) { return driver(f, BLOCK / 32, 32, args, g); };
    // A clone launched as its manifest kind says (the default's first variant).
    auto byKind = [&](CUfunction f, const std::string &name, std::vector<void *> args) {
      if (name.find("__ptxopt_staged") != std::string::npos) return staged(f, args);
      if (name.find("__ptxopt_lanes") != std::string::npos) return driver(f, g * 32, BLOCK, args);
      return driver(f, g, BLOCK, args);
    };
    std::vector<CUmodule> more;
    for (const auto &x : extras) {
      more.emplace_back();
      check(cuModuleLoadData(&more.back(), readFile(x.second).c_str()), x.second.c_str());
    }
    std::vector<CUmodule> pmods;
    for (const auto &x : plains) {
      pmods.emplace_back();
      check(cuModuleLoadData(&pmods.back(), readFile(x.second).c_str()), x.second.c_str());
    }
    // The bulk-copy kernel: sm_90 and later (an empty body elsewhere).
    int cc = 0;
    check(cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, 0), "compute capability");
    const bool bulk = cc >= 9;
    std::vector<CUmodule> dmods;
    for (const auto &x : defaults) {
      dmods.emplace_back();
      check(cuModuleLoadData(&dmods.back(), readFile(x.second).c_str()), x.second.c_str());
    }
    // Original float64-referenced error too.
    auto origErr = [&](const std::vector<uint32_t> &o) {
      double e = 0;
      for (int i = 0; i < NX; ++i) {
        float v;
        std::memcpy(&v, &o[i], 4);
        e = std::max(e, std::fabs(double(v) - ref[i]) / std::fabs(ref[i]));
      }
      char buf[64];
      std::snprintf(buf, sizeof buf, "reference (rel. diff %.1e vs float64)", e);
      return std::string(buf);
    };
    // 1. tmp in memory.
    {
      std::vector<void *> a{&A, &x, &t, &nx, &ny};
      auto o = measure("tmp[i] += A[i*n+j]*x[j] (float)", "original", "rowsum_mem", driver(fn(0, "rowsum_mem"), g, BLOCK, a), t, NX, nullptr, true);
      rows.back().result = origErr(o);
      measure("", "regacc (default)", "rowsum_mem__ptxopt_regacc", driver(fn(0, "rowsum_mem__ptxopt_regacc"), g, BLOCK, a), t, NX, &o, true);
      measure("", "regacc + pack", "rowsum_mem__ptxopt_regacc_pack", driver(fn(1, "rowsum_mem__ptxopt_regacc_pack"), g, BLOCK, a), t, NX, &o, true);
      measure("", "staged (forced; plain copies, 2 tiles in flight)", "rowsum_mem__ptxopt_staged", staged(fn(0, "rowsum_mem__ptxopt_staged"), a), t, NX, &o, true);
      measure("", "staged + pack (plain copies, 2 tiles in flight)", "rowsum_mem__ptxopt_staged_pack", staged(fn(1, "rowsum_mem__ptxopt_staged_pack"), a), t, NX, &o, true);
      for (size_t i = 0; i < extras.size(); ++i) {
        CUfunction f;
        check(cuModuleGetFunction(&f, more[i], "rowsum_mem__ptxopt_staged_pack"), extras[i].first.c_str());
        measure("", "staged + pack, " + extras[i].first, "rowsum_mem__ptxopt_staged_pack", staged(f, a), t, NX, &o, true);
      }
      for (size_t i = 0; i < plains.size(); ++i) {
        CUfunction f;
        check(cuModuleGetFunction(&f, pmods[i], "rowsum_mem__ptxopt_staged_pack"), plains[i].first.c_str());
        measure("", "staged + pack, plain copies, " + plains[i].first, "rowsum_mem__ptxopt_staged_pack", staged(f, a), t, NX, &o, true);
      }
      if (bulk)
        measure("", "hand: staged with bulk copies (sm_90), 5 tiles in flight", "hand_staged_bulk_f32<5>",
                [&] { hand_staged_bulk_f32<5><<<NX / 32, 32>>>(A, x, t, nx, ny); }, t, NX, &o, true);
      for (size_t i = 0; i < defaults.size(); ++i) {
        CUfunction f;
        const std::string &name = defaults[i].first;
        check(cuModuleGetFunction(&f, dmods[i], name.c_str()), name.c_str());
        measure("", "-O2 default (first variant)", name, byKind(f, name, a), t, NX, &o, true);
      }
      measure("", "lanes (--reassociate)", "rowsum_mem__ptxopt_lanes", driver(fn(2, "rowsum_mem__ptxopt_lanes"), g * 32, BLOCK, a), t, NX, &o, false);
      std::vector<void *> h{&A, &x, &t, &nx, &ny};
      measure("", "hand: warp per row", "hand_warp_row_f32", [&] { hand_warp_row_f32<<<NX * 32 / BLOCK, BLOCK>>>(A, x, t, nx, ny); }, t, NX, &o, false);
    }
    // 2. accumulator in a register (__restrict__).
    {
      std::vector<void *> a{&A, &x, &y, &nx, &ny};
      auto o = measure("y[i] = sum A[i*n+j]*x[j] (float, __restrict__)", "original", "rowsum_restrict", driver(fn(0, "rowsum_restrict"), g, BLOCK, a), y, NX, nullptr, true);
      rows.back().result = origErr(o);
      measure("", "pack", "rowsum_restrict__ptxopt_pack", driver(fn(1, "rowsum_restrict__ptxopt_pack"), g, BLOCK, a), y, NX, &o, true);
      measure("", "staged + pack", "rowsum_restrict__ptxopt_staged_pack", staged(fn(1, "rowsum_restrict__ptxopt_staged_pack"), a), y, NX, &o, true);
      measure("", "lanes (--reassociate)", "rowsum_restrict__ptxopt_lanes", driver(fn(2, "rowsum_restrict__ptxopt_lanes"), g * 32, BLOCK, a), y, NX, &o, false);
    }
    // 3. integer row sums.
    {
      std::vector<void *> a{&I, &yi, &nx, &ny};
      auto o = measure("y[i] = sum A[i*n+j] (int)", "original", "rowsum_int", driver(fn(0, "rowsum_int"), g, BLOCK, a), yi, NX, nullptr, true);
      measure("", "lanes (default)", "rowsum_int__ptxopt_lanes", driver(fn(0, "rowsum_int__ptxopt_lanes"), g * 32, BLOCK, a), yi, NX, &o, true);
      measure("", "hand: warp per row", "hand_warp_row_i32", [&] { hand_warp_row_i32<<<NX * 32 / BLOCK, BLOCK>>>(I, yi, nx, ny); }, yi, NX, &o, true);
    }
    // 4. column walk with the accumulator in memory.
    {
      std::vector<void *> a{&A, &t, &y, &nx, &ny};
      auto o = measure("y[j] += A[i*n+j]*t[i] (float, column walk)", "original", "colwalk_mem", driver(fn(0, "colwalk_mem"), NY / BLOCK, BLOCK, a), y, NY, nullptr, true);
      measure("", "regacc (default)", "colwalk_mem__ptxopt_regacc", driver(fn(0, "colwalk_mem__ptxopt_regacc"), NY / BLOCK, BLOCK, a), y, NY, &o, true);
      // pack merges the column walk's loads only with --pack-across-blocks
      // (they lie in different blocks): measured when the clone is there.
      CUfunction cp;
      if (cuModuleGetFunction(&cp, mods[1], "colwalk_mem__ptxopt_regacc_pack") == CUDA_SUCCESS)
        measure("", "regacc + pack", "colwalk_mem__ptxopt_regacc_pack", driver(cp, NY / BLOCK, BLOCK, a), y, NY, &o, true);
    }
    int dev = 0;
    cudaDeviceProp p;
    check(cudaGetDevice(&dev), "device");
    check(cudaGetDeviceProperties(&p, dev), "properties");
    int rt = 0;
    cudaRuntimeGetVersion(&rt);
    std::printf("rowwalk benchmark: %s, CUDA runtime %d.%d, %dx%d, %d-thread blocks, median (min) of %d runs\n\n",
                p.name, rt / 1000, (rt % 1000) / 10, NX, NY, BLOCK, runs);
    std::printf("| kernel | version | ms | min ms | vs original | result |\n|---|---|---:|---:|---:|---|\n");
    float orig = 0;
    for (const Row &r : rows) {
      if (r.version == "original") orig = r.ms;
      std::printf("| %s | %s (`%s`) | %.4f | %.4f | %.2fx | %s |\n", r.group.c_str(), r.version.c_str(),
                  r.kernel.c_str(), r.ms, r.minMs, r.ms > 0 ? orig / r.ms : 0.0, r.result.c_str());
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rowwalk: %s\n", e.what());
    return 1;
  }
  return failed ? 1 : 0;
}
