// transpose benchmark: the transpose pass's clones against the naive kernels
// and hand-written tiled kernels, in one run (scripts/bench/transpose.sh).
//
// Kernels: tests/lit/transpose/Inputs/transpose.cu (nvcc 13 -O3), optimized
// by `ptx-opt --passes=transpose` (the script; -O2 makes the same clones but
// for the two fused kernels coalesce's swap takes). The module is loaded with the driver
// (cuModuleLoadData: JIT to the GPU at hand); the original `<k>`, its
// one-element clone `<k>__ptxopt_transpose<shape>` (the same launch) and its
// tiled clone `<k>__ptxopt_tiled<shape>` (32 x 8 threads per 32 x 32 tile,
// the grid divided and the original grid.x/.y appended as the manifest
// says) are taken by name and launched directly: no runtime selection, so
// the clones are measured below their launch floor too (the 256 x 256 rows
// say where the floor should be). Launches: grids covering W x H, blocks of
// 16 x 16, 32 x 32 and 32 x 8; NCHW <-> NHWC permutes (N = 16 in
// blockIdx.z, C = 64 and 256, 56 x 56 and 224 x 224 planes). The
// hand-written kernel per element type (and per image for the permutes) is
// the classic one: a 32 x 33 shared tile, 32 x 8 threads, 4 elements each
// (compiled into this program), shown on every row it applies to. Every
// clone's and hand kernel's output is compared with the original's bit for
// bit (the output buffers are cleared to the same bytes before each).
// Times: CUDA events, 3 warm-ups, the minimum (and median) of --runs.
// One markdown table on stdout; exit 1 when an output differs, 77 without a
// CUDA device.
//
//   transpose <transpose.opt.ptx> [--one <transpose.opt1.ptx>] [--swap <transpose.O2.ptx>]
//             [--unrolled <unrolled.O2.ptx> [--unrolled-only]] [--blockaxis <blockaxis.O2.ptx>]
//             [--runs N] [--quick] [--shapes-only | --shapes BXxBY,...] [--permutes-only]
// --permutes-only: the first table's NCHW <-> NHWC rows alone.
// --shapes-only: the first table and the swap table alone, for the block
// shapes with tiled clones only (32 x 4, 16 x 8, 8 x 8, 32 x 16);
// --shapes 8x32[,...]: the same tables for the shapes named.
// --blockaxis: the -O2 module of tests/lit/transpose/Inputs/blockaxis.cu (1-D
// blocks, the other axis a block index): a fourth table (measureBlockAxis).
// --flat: the -O2 module of tests/lit/transpose/Inputs/flat.cu (1-D launches
// indexing with / and %): a fifth table (measureFlat); --flat-only: that
// (and the sixth) alone. --gridstride: the -O2 module of
// tests/lit/transpose/Inputs/gridstride.cu (grid-stride loops): a sixth
// table (measureGridStride).
// --unrolled: the -O2 module of tests/lit/transpose/Inputs/unrolled.cu (the
// CUDA samples' naive transpose, four load-store pairs per thread): a third
// table of its one-element clones against the hand kernels (measureUnrolled;
// --unrolled-only: that table alone).
// --swap: the -O2 module, whose coalesce swap clones of A^T + B and bytes
// to floats a second table times against the tiled clones (measureSwap).
// --one: the module whose one-element clones are measured (ptx-opt
// --transpose-elements=1: the default leaves out the 32 x 32 one, which its
// tiled clone always precedes); the tiled clones come from the first.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

template <typename T> __global__ void handTiled(const T *in, T *out, int W, int H) {
  __shared__ T tile[32][33];
  in += size_t(blockIdx.z) * W * H;  // a batch of transposes (NCHW <-> NHWC: one per image)
  out += size_t(blockIdx.z) * W * H;
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < W && y + j < H) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < H && y + j < W) out[(y + j) * H + x] = tile[threadIdx.x][threadIdx.y + j];
}

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

int runs = 20;

/// Minimum and median of `runs` timed calls of `launch` (after 3 warm-ups), in ms.
std::pair<float, float> timeIt(const std::function<void()> &launch) {
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "event");
  check(cudaEventCreate(&e1), "event");
  std::vector<float> t;
  for (int r = 0; r < 3 + runs; ++r) {
    check(cudaEventRecord(e0), "record");
    launch();
    check(cudaEventRecord(e1), "record");
    check(cudaEventSynchronize(e1), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
    if (r >= 3) t.push_back(ms);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  std::sort(t.begin(), t.end());
  return {t[0], t[t.size() / 2]};
}

struct Kernel {
  const char *name;
  unsigned inBytes, outBytes;
  int extra;                   // 0: (in, out, W, H); 1: + float scale; 2: (A, B, out, W, H)
  void (*hand)(const void *, void *, int, int, dim3, dim3);  // null: none
};

template <typename T> void launchHand(const void *in, void *out, int W, int H, dim3 g, dim3 b) {
  handTiled<T><<<g, b>>>(static_cast<const T *>(in), static_cast<T *>(out), W, H);
}

const Kernel kKernels[] = {
    {"transpose_f32", 4, 4, 0, launchHand<float>},  {"transpose_f64", 8, 8, 0, launchHand<double>},
    {"transpose_i32", 4, 4, 0, launchHand<int>},    {"transpose_i16", 2, 2, 0, launchHand<short>},
    {"transpose_i8", 1, 1, 0, launchHand<char>},    {"transpose_scale_f32", 4, 4, 1, nullptr},
    {"transpose_add_f32", 4, 4, 2, nullptr},        {"transpose_u8_f32", 1, 4, 1, nullptr},
    {"rotate90_u8", 1, 1, 0, nullptr},              {"rotate90_u32", 4, 4, 0, nullptr},
    {"transpose_gather_f32", 4, 4, 0, nullptr},     {"rotate90_rgba", 4, 4, 0, nullptr},
    {"transpose_f4", 16, 16, 0, nullptr},
};

bool sameBytes(const void *a, const void *b, size_t n) {
  std::vector<unsigned char> x(n), y(n);
  check(cudaMemcpy(x.data(), a, n, cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpy(y.data(), b, n, cudaMemcpyDeviceToHost), "copy");
  return x == y;
}

/// One row of the table: a kernel, its launch (grid covering the data,
/// blocks of BX x BY), its arguments, and the hand-written kernel for it.
struct Row {
  std::string kernel, size;  // "8192 x 8192", "N16 C64 56x56"
  unsigned gx, gy, gz, BX, BY;
  std::vector<void *> args;
  size_t outBytes;
  std::function<void()> hand;  // empty: none
};

std::string ratio(float a, float b) { return a > 0 && b > 0 ? std::to_string(a / b).substr(0, 5) + "x" : std::string(); }

/// A launch of `f` on gx x gy x gz blocks of bx x by threads with `args`
/// (which must outlive it), checked.
std::function<void()> launcher(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               void **args) {
  return [=]() { check(cuLaunchKernel(f, gx, gy, gz, bx, by, 1, 0, nullptr, args, nullptr), "launch"); };
}

/// The tiled clone's launch for an original grid of gx x gy blocks of BX x
/// BY (TransposeTiled.cpp's manifest entry): blocks of 32 x 8;
/// ceil(gx / (32/BX)) tiles along x, or gx * BX/32 where a block is wider
/// than a tile (64 x 4); ceil(gy / (32/BY)) along y; the original grid.x
/// (grid.y) appended where divided.
struct TiledLaunch {
  unsigned gx, gy;
  bool passX, passY;
};
TiledLaunch tiledLaunch(unsigned BX, unsigned BY, unsigned gx, unsigned gy) {
  const unsigned sx = BX > 32 ? 1 : 32 / BX, sy = 32 / BY;
  return {BX > 32 ? gx * (BX / 32) : (gx + sx - 1) / sx, (gy + sy - 1) / sy, sx > 1, sy > 1};
}

/// Times the original, the one-element clone `<k>__ptxopt_transpose<shape>`,
/// the tiled clone `<k>__ptxopt_tiled<shape>` (launched as its manifest
/// says: ceil(grid.x / (32/BX)) x ceil(grid.y / (32/BY)) x grid.z blocks of
/// 32 x 8, the original grid.x and grid.y appended where divided) and the
/// hand kernel; prints the row; returns how many outputs differ from the
/// original's.
int measureRow(CUmodule mod, CUmodule one, Row &r, void *out, void *ref) {
  CUfunction orig;
  check(cuModuleGetFunction(&orig, mod, r.kernel.c_str()), r.kernel.c_str());
  const std::string suffix = r.BX == r.BY ? std::to_string(r.BX) : std::to_string(r.BX) + "x" + std::to_string(r.BY);
  int failed = 0;
  auto timeChecked = [&](const std::function<void()> &launch, float &best) {
    check(cudaMemset(out, 0x5a, r.outBytes), "memset");
    auto [a, b] = timeIt(launch);
    best = a;
    bool same = sameBytes(out, ref, r.outBytes);
    failed += !same;
    std::printf(" %.4f (%.4f)%s |", a, b, same ? "" : " DIFFERS");
  };
  check(cudaMemset(out, 0x5a, r.outBytes), "memset");
  auto [nMin, nMed] = timeIt(launcher(orig, r.gx, r.gy, r.gz, r.BX, r.BY, r.args.data()));
  check(cudaMemcpy(ref, out, r.outBytes, cudaMemcpyDeviceToDevice), "copy");  // the reference
  std::printf("| `%s` | %s | %ux%u | %.4f (%.4f) |", r.kernel.c_str(), r.size.c_str(), r.BX, r.BY, nMin, nMed);
  float cMin = 0, tMin = 0, hMin = 0;
  CUfunction f;
  if (cuModuleGetFunction(&f, one, (r.kernel + "__ptxopt_transpose" + suffix).c_str()) == CUDA_SUCCESS)
    timeChecked(launcher(f, r.gx, r.gy, r.gz, r.BX, r.BY, r.args.data()), cMin);
  else
    std::printf(" no clone |");
  unsigned gridX = r.gx, gridY = r.gy;
  std::vector<void *> targs = r.args;
  const TiledLaunch tl = tiledLaunch(r.BX, r.BY, r.gx, r.gy);
  if (tl.passX) targs.push_back(&gridX);
  if (tl.passY) targs.push_back(&gridY);
  if ((32 % r.BX == 0 || r.BX % 32 == 0) && 32 % r.BY == 0 &&
      cuModuleGetFunction(&f, mod, (r.kernel + "__ptxopt_tiled" + suffix).c_str()) == CUDA_SUCCESS)
    timeChecked(launcher(f, tl.gx, tl.gy, r.gz, 32, 8, targs.data()), tMin);
  else
    std::printf(" no clone |");
  if (r.hand) timeChecked(r.hand, hMin);
  else std::printf(" |");
  std::printf(" %s | %s | %s | %s |\n", ratio(nMin, cMin).c_str(), ratio(nMin, tMin).c_str(), ratio(nMin, hMin).c_str(),
              ratio(hMin, tMin).c_str());
  return failed;
}

/// The fused kernels coalesce's swap takes under -O2 (A^T + B, bytes to
/// floats): the original, the swap clone `<k>__ptxopt_swap` of the -O2
/// module (launched as its manifest says: the same grid, blocks of BY x BX)
/// and the transpose pass's tiled clone, one row per size and block. Says
/// whether -O2 should prefer the tiled clone (docs/PASSES.md: not measured
/// before). Returns how many outputs differ from the original's.
int measureSwap(CUmodule mod, CUmodule o2, void *in, void *in2, void *out, void *ref, bool quick,
                const std::vector<std::pair<unsigned, unsigned>> &shapes) {
  std::printf("\n| kernel | size | block | naive | -O2 swap | tiled clone | swap x | tiled x | swap ms / tiled ms |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  int failed = 0;
  const std::pair<int, int> sizes[] = {{8192, 8192}, {8191, 8193}, {1920, 1080}, {1000, 3000}};
  for (const char *kernel : {"transpose_add_f32", "transpose_u8_f32"})
    for (auto [W, H] : sizes)
      for (auto [BX, BY] : shapes) {
        if (quick && (W != 8192 || BX != 16)) continue;
        int w = W, h = H;
        float scale = 1.7f;
        std::vector<void *> args = kernel[10] == 'a' ? std::vector<void *>{&in, &in2, &out, &w, &h}
                                                     : std::vector<void *>{&in, &out, &w, &h, &scale};
        const size_t outBytes = size_t(W) * H * 4;
        const unsigned gx = (W + BX - 1) / BX, gy = (H + BY - 1) / BY;
        const TiledLaunch tl = tiledLaunch(BX, BY, gx, gy);
        CUfunction orig, swap, tiled;
        check(cuModuleGetFunction(&orig, mod, kernel), kernel);
        check(cuModuleGetFunction(&swap, o2, (std::string(kernel) + "__ptxopt_swap").c_str()), "the swap clone");
        const std::string suffix = BX == BY ? std::to_string(BX) : std::to_string(BX) + "x" + std::to_string(BY);
        check(cuModuleGetFunction(&tiled, mod, (std::string(kernel) + "__ptxopt_tiled" + suffix).c_str()), "tiled");
        unsigned gridX = gx, gridY = gy;
        std::vector<void *> targs = args;
        if (tl.passX) targs.push_back(&gridX);
        if (tl.passY) targs.push_back(&gridY);
        check(cudaMemset(out, 0x5a, outBytes), "memset");
        auto [nMin, nMed] = timeIt(launcher(orig, gx, gy, 1, BX, BY, args.data()));
        check(cudaMemcpy(ref, out, outBytes, cudaMemcpyDeviceToDevice), "copy");
        std::printf("| `%s` | %d x %d | %ux%u | %.4f (%.4f) |", kernel, W, H, BX, BY, nMin, nMed);
        float best[2];
        int i = 0;
        const std::vector<std::function<void()>> clones = {
            launcher(swap, gx, gy, 1, BY, BX, args.data()),
            launcher(tiled, tl.gx, tl.gy, 1, 32, 8, targs.data())};
        for (const auto &f : clones) {
          check(cudaMemset(out, 0x5a, outBytes), "memset");
          auto [a, b] = timeIt(f);
          best[i++] = a;
          bool same = sameBytes(out, ref, outBytes);
          failed += !same;
          std::printf(" %.4f (%.4f)%s |", a, b, same ? "" : " DIFFERS");
        }
        std::printf(" %s | %s | %s |\n", ratio(nMin, best[0]).c_str(), ratio(nMin, best[1]).c_str(),
                    ratio(best[0], best[1]).c_str());
      }
  return failed;
}

/// The CUDA samples' naive transpose and its variants
/// (tests/lit/transpose/Inputs/unrolled.cu: 32 x 8 threads per 32 x 32
/// tile, four load-store pairs each): the original, its one-element clone
/// `<k>__ptxopt_transpose32x8` (the same launch) and the hand kernel of
/// the element type, one row per kernel and size. 1024 x 1024 and
/// 2048 x 2048 (2^18 and 2^20 threads) say where the clones' launch floor
/// should be. Returns how many outputs differ from the original's.
int measureUnrolled(CUmodule mod, void *in, void *in2, void *out, void *ref, bool quick) {
  std::printf("\n| kernel | size | block | naive | clone | tiled clone | hand-tiled | clone x | tiled x | hand x | "
              "hand ms / tiled ms |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  struct U {
    const char *name;
    unsigned bytes;
    int form;  // 0: (out, in, W, H) samples; 1: (out, in) blog; 2: (in, out, W, H); 3: + scale; 4: (a, b, out, W, H)
    void (*hand)(const void *, void *, int, int, dim3, dim3);
  };
  const U kernels[] = {{"un_samples_f32", 4, 0, launchHand<float>}, {"un_blog_f32", 4, 1, launchHand<float>},
                       {"un_loop_f64", 8, 2, launchHand<double>},   {"un_loop_u16", 2, 2, launchHand<short>},
                       {"un_loop_u8", 1, 2, launchHand<char>},      {"un_guard_f32", 4, 2, launchHand<float>},
                       {"un_scale_f32", 4, 3, nullptr},             {"un_sum_t", 4, 4, nullptr}};
  const std::pair<int, int> sizes[] = {{8192, 8192}, {8191, 8193}, {2048, 2048}, {1024, 1024}, {512, 512}};
  int failed = 0;
  for (const U &k : kernels)
    for (auto [W, H] : sizes) {
      const bool guarded = k.form >= 3 || std::string(k.name) == "un_guard_f32";
      if ((W % 32 || H % 32) && !guarded) continue;  // the unguarded kernels need multiples of the tile
      if (k.form == 1 && W != H) continue;
      if (quick && W != 8192) continue;
      int w = W, h = H;
      float scale = 1.7f;
      Row r{k.name, std::to_string(W) + " x " + std::to_string(H), unsigned(W + 31) / 32, unsigned(H + 31) / 32, 1, 32, 8,
            {}, size_t(W) * H * k.bytes, {}};
      switch (k.form) {
        case 0: r.args = {&out, &in, &w, &h}; break;
        case 1: r.args = {&out, &in}; break;
        case 4: r.args = {&in, &in2, &out, &w, &h}; break;
        default: r.args = {&in, &out, &w, &h};
      }
      if (k.form == 3) r.args.push_back(&scale);
      if (k.hand) r.hand = [&k, in, out, w, h]() { k.hand(in, out, w, h, dim3((w + 31) / 32, (h + 31) / 32), dim3(32, 8)); };
      failed += measureRow(mod, mod, r, out, ref);
    }
  return failed;
}

/// Times each of `runs` (min and median), compares the `bytes` of `out`
/// with `ref` after it, prints " min (median)[ DIFFERS] |" for it and keeps
/// its min in best[i]; returns how many outputs differ.
int timeAll(const std::vector<std::function<void()>> &runs, void *out, void *ref, size_t bytes, float *best) {
  int failed = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    check(cudaMemset(out, 0x5a, bytes), "memset");
    auto [a, m] = timeIt(runs[i]);
    best[i] = a;
    bool same = sameBytes(out, ref, bytes);
    failed += !same;
    std::printf(" %.4f (%.4f)%s |", a, m, same ? "" : " DIFFERS");
  }
  return failed;
}

/// 1-D blocks whose grid walks the other axis
/// (tests/lit/transpose/Inputs/blockaxis.cu): a transpose with one block
/// row per matrix row, NCHW -> NHWC with the channel in blockIdx.y (and in
/// blockIdx.z, bytes), the gather form back; the original (256-thread
/// blocks), its tiled clone `<k>__ptxopt_tiled256x1` launched as its
/// manifest says (grid.x * 8, ceil(grid.<d> / 32), the original extent
/// appended) and the hand kernel (per image for the permutes). Returns how
/// many outputs differ from the original's.
int measureBlockAxis(CUmodule mod, void *in, void *out, void *ref, bool quick) {
  std::printf("\n| kernel | size | naive | tiled clone | hand-tiled | tiled x | hand x | hand ms / tiled ms |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  struct B {
    const char *name;
    unsigned bytes;
    bool z;  // the block index is blockIdx.z (the image in blockIdx.y)
    int W, H, N;  // rows: W x H; permutes: W = HW (the plane), H = C, N images
  };
  const B rows[] = {{"ba_rows_f32", 4, false, 8192, 8192, 1},          {"ba_rows_f32", 4, false, 8191, 8193, 1},
                    {"ba_rows_scale_f64", 8, false, 8192, 4096, 1},    {"ba_nchw_nhwc_f32", 4, false, 3136, 64, 16},
                    {"ba_nchw_nhwc_f32", 4, false, 3136, 256, 16},     {"ba_nchw_nhwc_f32", 4, false, 50176, 64, 16},
                    {"ba_nchw_nhwc_f32", 4, false, 50176, 32, 16},     {"ba_nhwc_nchw_gather_f32", 4, false, 3136, 64, 16},
                    {"ba_nhwc_nchw_gather_f32", 4, false, 50176, 64, 16}, {"ba_nchw_nhwc_z_u8", 1, true, 50176, 64, 16}};
  int failed = 0;
  for (const B &b : rows) {
    if (quick && b.W != 8192) continue;
    const bool perm = b.name[3] == 'n';
    const unsigned BX = 256, gx = (b.W + BX - 1) / BX, gy = b.z ? b.N : b.H, gz = b.z ? b.H : b.N;
    int w = b.W, h = b.H;
    float scale = 1.5f;
    std::vector<void *> args{&in, &out};
    if (perm) args.insert(args.end(), {&h, &w});  // (C, HW)
    else args.insert(args.end(), {&w, &h});
    if (b.bytes == 8) args.push_back(&scale);
    unsigned extent = b.H;  // the block index's original extent
    std::vector<void *> targs = args;
    targs.push_back(&extent);
    const size_t bytes = size_t(b.W) * b.H * b.N * b.bytes;
    CUfunction orig, tiled;
    check(cuModuleGetFunction(&orig, mod, b.name), b.name);
    check(cuModuleGetFunction(&tiled, mod, (std::string(b.name) + "__ptxopt_tiled256x1").c_str()), "tiled");
    check(cudaMemset(out, 0x5a, bytes), "memset");
    auto [nMin, nMed] = timeIt(launcher(orig, gx, gy, gz, BX, 1, args.data()));
    check(cudaMemcpy(ref, out, bytes, cudaMemcpyDeviceToDevice), "copy");
    std::string size = perm ? "N" + std::to_string(b.N) + " C" + std::to_string(b.H) + " HW " + std::to_string(b.W)
                            : std::to_string(b.W) + " x " + std::to_string(b.H);
    std::printf("| `%s` | %s | %.4f (%.4f) |", b.name, size.c_str(), nMin, nMed);
    float best[2] = {0, 0};
    std::vector<std::function<void()>> runs{
        launcher(tiled, gx * 8, b.z ? gy : (gy + 31) / 32, b.z ? (gz + 31) / 32 : gz, 32, 8, targs.data())};
    // The hand kernel: the same transpose of a W x H (per image) matrix,
    // where the layouts agree (float; the gather form transposes H x W).
    const bool gather = b.name[3] == 'n' && b.name[4] == 'h';
    if (b.bytes == 4 && !gather)
      runs.push_back([=]() { launchHand<float>(in, out, b.W, b.H, dim3((b.W + 31) / 32, (b.H + 31) / 32, b.N), dim3(32, 8)); });
    if (b.bytes == 4 && gather)
      runs.push_back([=]() { launchHand<float>(in, out, b.H, b.W, dim3((b.H + 31) / 32, (b.W + 31) / 32, b.N), dim3(32, 8)); });
    failed += timeAll(runs, out, ref, bytes, best);
    if (runs.size() == 1) std::printf(" |");
    std::printf(" %s | %s | %s |\n", ratio(nMin, best[0]).c_str(), ratio(nMin, best[1]).c_str(), ratio(best[1], best[0]).c_str());
  }
  return failed;
}

/// 1-D launches that index with `/` and `%` (tests/lit/transpose/Inputs/flat.cu,
/// the flat form): the original (256-thread blocks over the W x H elements),
/// its clone `<k>__ptxopt_tiledflat` launched as its manifest says
/// (ceil(grid.x / 4) blocks of 32 x 8, the original grid.x and block.x
/// appended) and the hand kernel of the same element type (the 2-D tiled
/// transpose, where the layouts agree). Returns how many outputs differ
/// from the original's.
int measureFlat(CUmodule mod, void *in, void *out, void *ref, bool quick) {
  std::printf("\n| kernel (1-D, / and %%) | size | naive | flat clone | hand-tiled | clone x | hand x | hand ms / clone ms |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  struct F {
    const char *name;
    unsigned inBytes, outBytes;
    int W, H;
    void (*hand)(const void *, void *, int, int, dim3, dim3);
    bool scale;
  };
  const F rows[] = {{"flat_f32", 4, 4, 8192, 8192, launchHand<float>, false},
                    {"flat_f32", 4, 4, 8191, 8193, launchHand<float>, false},
                    {"flat_f32", 4, 4, 1920, 1080, launchHand<float>, false},
                    {"flat_u8", 1, 1, 8192, 8192, launchHand<char>, false},
                    {"flat_u16", 2, 2, 8192, 8192, launchHand<short>, false},
                    {"flat_f64", 8, 8, 8192, 4096, launchHand<double>, false},
                    {"flat_gather", 4, 4, 8192, 8192, nullptr, false},
                    {"flat_scale", 4, 4, 8192, 8192, nullptr, true},
                    {"flat_rot90_u8_f32", 1, 4, 8192, 8192, nullptr, false},
                    {"flat_f32", 4, 4, 1000000, 3, nullptr, false}};  // 3 rows: the clone's plain path
  int failed = 0;
  // Flat permutes (two splits of the index): (in, out, C, HW, total), N
  // images; the hand kernel transposes each image (blockIdx.z).
  struct P {
    const char *name;
    int N, C, HW;
    bool back;  // NHWC -> NCHW over the NHWC order
  };
  const P perms[] = {{"flat_nchw_nhwc", 16, 64, 56 * 56, false},   {"flat_nchw_nhwc", 16, 256, 56 * 56, false},
                     {"flat_nchw_nhwc", 16, 64, 224 * 224, false}, {"flat_nchw_nhwc", 16, 256, 224 * 224, false},
                     {"flat_nchw_nhwc", 16, 3, 224 * 224, false},  {"flat_nhwc_nchw", 16, 64, 56 * 56, true},
                     {"flat_nhwc_nchw", 16, 64, 224 * 224, true}};
  for (const P &q : perms) {
    if (quick) continue;
    unsigned B = 256;
    int c = q.C, hw = q.HW, total = q.N * q.C * q.HW;
    unsigned g = unsigned((size_t(total) + B - 1) / B);
    std::vector<void *> args{&in, &out, &c, &hw, &total};
    std::vector<void *> targs = args;
    targs.push_back(&g);
    targs.push_back(&B);
    const size_t bytes = size_t(total) * 4;
    CUfunction orig, clone;
    check(cuModuleGetFunction(&orig, mod, q.name), q.name);
    check(cuModuleGetFunction(&clone, mod, (std::string(q.name) + "__ptxopt_tiledflat").c_str()), "flat clone");
    check(cudaMemset(out, 0x5a, bytes), "memset");
    auto [nMin, nMed] = timeIt(launcher(orig, g, 1, 1, B, 1, args.data()));
    check(cudaMemcpy(ref, out, bytes, cudaMemcpyDeviceToDevice), "copy");
    std::printf("| `%s` | N%d C%d HW %d | %.4f (%.4f) |", q.name, q.N, q.C, q.HW, nMin, nMed);
    const int W = q.back ? q.C : q.HW, H = q.back ? q.HW : q.C, N = q.N;
    std::vector<std::function<void()>> runs{
        launcher(clone, (g + 3) / 4, 1, 1, 32, 8, targs.data()),
        [=]() { launchHand<float>(in, out, W, H, dim3((W + 31) / 32, (H + 31) / 32, N), dim3(32, 8)); }};
    float best[2] = {0, 0};
    failed += timeAll(runs, out, ref, bytes, best);
    std::printf(" %s | %s | %s |\n", ratio(nMin, best[0]).c_str(), ratio(nMin, best[1]).c_str(), ratio(best[1], best[0]).c_str());
  }
  for (const F &f : rows) {
    if (quick && (f.W != 8192 || std::string(f.name) != "flat_f32")) continue;
    unsigned B = 256;
    unsigned g = unsigned((size_t(f.W) * f.H + B - 1) / B);
    int w = f.W, h = f.H;
    float scale = 1.5f;
    std::vector<void *> args{&in, &out, &w, &h};
    if (f.scale) args.push_back(&scale);
    std::vector<void *> targs = args;
    targs.push_back(&g);
    targs.push_back(&B);
    const size_t bytes = size_t(f.W) * f.H * f.outBytes;
    CUfunction orig, clone;
    check(cuModuleGetFunction(&orig, mod, f.name), f.name);
    check(cuModuleGetFunction(&clone, mod, (std::string(f.name) + "__ptxopt_tiledflat").c_str()), "flat clone");
    check(cudaMemset(out, 0x5a, bytes), "memset");
    auto [nMin, nMed] = timeIt(launcher(orig, g, 1, 1, B, 1, args.data()));
    check(cudaMemcpy(ref, out, bytes, cudaMemcpyDeviceToDevice), "copy");
    std::printf("| `%s` | %d x %d | %.4f (%.4f) |", f.name, f.W, f.H, nMin, nMed);
    std::vector<std::function<void()>> runs{launcher(clone, (g + 3) / 4, 1, 1, 32, 8, targs.data())};
    if (f.hand)
      runs.push_back([=]() { f.hand(in, out, f.W, f.H, dim3((f.W + 31) / 32, (f.H + 31) / 32), dim3(32, 8)); });
    float best[2] = {0, 0};
    failed += timeAll(runs, out, ref, bytes, best);
    if (runs.size() == 1) std::printf(" |");
    std::printf(" %s | %s | %s |\n", ratio(nMin, best[0]).c_str(), ratio(nMin, best[1]).c_str(), ratio(best[1], best[0]).c_str());
  }
  return failed;
}

/// Flat permutes that split the index three times (tests/lit/transpose/
/// Inputs/split3.cu: NCHW <-> NHWC with H and W split apart; and the plane
/// H*W as one radix, a product of parameters), -O2: the
/// original (256-thread blocks), its flat clone launched as its manifest
/// says, and the hand kernel transposing each image (HW x C, or C x HW for
/// NHWC -> NCHW). Returns how many outputs differ from the original's.
int measureSplit3(CUmodule mod, void *in, void *out, void *ref, bool quick) {
  std::printf("\n| kernel (three splits) | size | naive | flat clone | hand-tiled | clone x | hand x | hand ms / clone ms |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  struct S {
    const char *name;
    int N, C, H, W;
  };
  const S rows[] = {{"s3_nchw_nhwc", 16, 64, 56, 56},    {"s3_nchw_nhwc", 16, 256, 56, 56},
                    {"s3_nchw_nhwc", 16, 64, 224, 224},  {"s3_nchw_nhwc", 16, 256, 224, 224},
                    {"s3_nchw_nhwc", 16, 37, 50, 50},    {"s3_nhwc_gather", 16, 64, 56, 56},
                    {"s3_nhwc_gather", 16, 64, 224, 224}, {"s3_nhwc_nchw", 16, 64, 56, 56},
                    {"s3_nhwc_nchw", 16, 64, 224, 224},  {"s3_chain", 16, 64, 56, 56},
                    {"s3_chain", 16, 256, 224, 224},     {"s3_u8", 16, 64, 224, 224},
                    {"s3_u8", 16, 256, 56, 56},          {"s3_hw", 16, 64, 56, 56},
                    {"s3_hw", 16, 256, 224, 224},        {"s3_hw_back", 16, 64, 56, 56}};
  int failed = 0;
  for (const S &r : rows) {
    if (quick && (r.C != 64 || r.H != 56)) continue;
    const std::string name = r.name;
    const bool u8 = name == "s3_u8", back = name == "s3_nhwc_nchw" || name == "s3_hw_back";
    const bool product = name == "s3_hw" || name == "s3_hw_back";  // (in, out, C, H, W, total): H*W one radix
    unsigned B = 256;
    int n = r.N, c = r.C, h = r.H, w = r.W, total = r.N * r.C * r.H * r.W;
    unsigned g = unsigned((size_t(total) + B - 1) / B);
    std::vector<void *> args{&in, &out};
    if (u8 || product) args.insert(args.end(), {&c, &h, &w, &total});
    else args.insert(args.end(), {&n, &c, &h, &w});
    std::vector<void *> targs = args;
    targs.push_back(&g);
    targs.push_back(&B);
    const size_t bytes = size_t(total) * (u8 ? 1 : 4);
    CUfunction orig, clone;
    check(cuModuleGetFunction(&orig, mod, r.name), r.name);
    check(cuModuleGetFunction(&clone, mod, (name + "__ptxopt_tiledflat").c_str()), "flat clone");
    check(cudaMemset(out, 0x5a, bytes), "memset");
    auto [nMin, nMed] = timeIt(launcher(orig, g, 1, 1, B, 1, args.data()));
    check(cudaMemcpy(ref, out, bytes, cudaMemcpyDeviceToDevice), "copy");
    std::printf("| `%s` | N%d C%d %d x %d | %.4f (%.4f) |", r.name, r.N, r.C, r.H, r.W, nMin, nMed);
    const int HW = r.H * r.W, TW = back ? r.C : HW, TH = back ? HW : r.C, N = r.N;
    std::vector<std::function<void()>> runs{launcher(clone, (g + 3) / 4, 1, 1, 32, 8, targs.data())};
    if (u8)
      runs.push_back([=]() { launchHand<char>(in, out, TW, TH, dim3((TW + 31) / 32, (TH + 31) / 32, N), dim3(32, 8)); });
    else
      runs.push_back([=]() { launchHand<float>(in, out, TW, TH, dim3((TW + 31) / 32, (TH + 31) / 32, N), dim3(32, 8)); });
    float best[2] = {0, 0};
    failed += timeAll(runs, out, ref, bytes, best);
    std::printf(" %s | %s | %s |\n", ratio(nMin, best[0]).c_str(), ratio(nMin, best[1]).c_str(), ratio(best[1], best[0]).c_str());
  }
  return failed;
}

/// One row of the flat clones' tables: kernel `name` of `mod` (launched
/// with `args`, g blocks of B threads) and its flat clone (launched as its
/// manifest says: the original grid.x and block.x appended), beside the hand
/// kernel of `elem`-byte elements on N images of TH rows of TW (none when
/// `hand` is false: a rotation); `label` the row's first cells. Returns
/// how many outputs differ from the original's.
int flatRow(CUmodule mod, const char *name, const std::string &label, std::vector<void *> args, unsigned g, unsigned B,
            size_t bytes, unsigned elem, bool hand, int TW, int TH, int N, void *in, void *out, void *ref) {
  std::vector<void *> targs = args;
  targs.push_back(&g);
  targs.push_back(&B);
  CUfunction orig, clone;
  check(cuModuleGetFunction(&orig, mod, name), name);
  check(cuModuleGetFunction(&clone, mod, (std::string(name) + "__ptxopt_tiledflat").c_str()), "flat clone");
  check(cudaMemset(out, 0x5a, bytes), "memset");
  auto [nMin, nMed] = timeIt(launcher(orig, g, 1, 1, B, 1, args.data()));
  check(cudaMemcpy(ref, out, bytes, cudaMemcpyDeviceToDevice), "copy");
  std::printf("| `%s` | %s | %.4f (%.4f) |", name, label.c_str(), nMin, nMed);
  std::vector<std::function<void()>> runs{launcher(clone, (g + 3) / 4, 1, 1, 32, 8, targs.data())};
  const dim3 hg((TW + 31) / 32, (TH + 31) / 32, N), hb(32, 8);
  if (hand) {
    if (elem == 1) runs.push_back([=]() { launchHand<char>(in, out, TW, TH, hg, hb); });
    else if (elem == 8) runs.push_back([=]() { launchHand<double>(in, out, TW, TH, hg, hb); });
    else runs.push_back([=]() { launchHand<float>(in, out, TW, TH, hg, hb); });
  }
  float best[2] = {0, 0};
  const int failed = timeAll(runs, out, ref, bytes, best);
  if (!hand) std::printf(" - | %s | - | - |\n", ratio(nMin, best[0]).c_str());
  else std::printf(" %s | %s | %s |\n", ratio(nMin, best[0]).c_str(), ratio(nMin, best[1]).c_str(), ratio(best[1], best[0]).c_str());
  return failed;
}

/// A 64-bit flat index (tests/lit/transpose/Inputs/wide.cu: size_t and
/// int64_t indices divided through nvcc's 64-bit division fast paths), and
/// with `counted`, grid-stride loops with a 64-bit counter (Inputs/counted.cu:
/// PyTorch's CUDA_KERNEL_LOOP, a size_t loop; launched with a thread per
/// element, the traced clone), -O2:
/// the original (256-thread blocks), its flat clone launched as its
/// manifest says, and the hand kernel (per image for the permutes; none for
/// the rotation). Returns how many outputs differ from the original's.
int measureWide(CUmodule mod, CUmodule counted, void *in, void *out, void *ref, bool quick) {
  std::printf("\n| kernel (64-bit index) | size | naive | flat clone | hand-tiled | clone x | hand x | hand ms / clone ms |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  enum Form { HW64, HW32, NCHW64, NCHW32, CHW, BACK, GATHER, ROT, LOOPU8 };
  struct R {
    const char *name;
    unsigned bytes;
    Form form;
    int N, C, H, W;  // one split: H x W (N = C = 1); two: N, C, H*W; three: N, C, H, W
    bool traced = false;  // Inputs/counted.cu's (a grid-stride loop with a 64-bit counter)
  };
  const R rows[] = {{"wide_sizet", 4, HW64, 1, 1, 8192, 8192},          {"wide_sizet", 4, HW64, 1, 1, 8193, 8191},
                    {"wide_int_params", 4, HW32, 1, 1, 8192, 8192},     {"wide_u8", 1, HW64, 1, 1, 8192, 8192},
                    {"wide_gather_f64", 8, GATHER, 1, 1, 4096, 8192},   {"wide_rot90", 4, ROT, 1, 1, 8192, 8192},
                    {"wide_nchw_nhwc", 4, NCHW64, 16, 64, 56, 56},      {"wide_nchw_nhwc", 4, NCHW64, 16, 256, 224, 224},
                    {"wide_nchw_int", 4, NCHW32, 16, 64, 56, 56},       {"wide_nchw_int", 4, NCHW32, 16, 256, 224, 224},
                    {"wide_nchw_hw", 4, CHW, 16, 64, 1, 56 * 56},       {"wide_nchw_hw", 4, CHW, 16, 256, 1, 224 * 224},
                    {"wide_nhwc_nchw", 4, BACK, 16, 64, 1, 56 * 56},    {"wide_nhwc_nchw", 4, BACK, 16, 256, 1, 224 * 224},
                    {"ct_transpose", 4, HW32, 1, 1, 8192, 8192, true},  {"ct_transpose64", 4, HW64, 1, 1, 8192, 8192, true},
                    {"ct_nchw_nhwc", 4, NCHW32, 16, 64, 56, 56, true},  {"ct_nchw_nhwc", 4, NCHW32, 16, 256, 224, 224, true},
                    {"ct_loop_u8", 1, LOOPU8, 1, 1, 8192, 8192, true}};
  int failed = 0;
  for (const R &r : rows) {
    if (quick && r.W != 8192 && r.C != 64) continue;
    if (r.traced && !counted) continue;
    CUmodule from = r.traced ? counted : mod;
    const int64_t total = int64_t(r.N) * r.C * r.H * r.W;
    unsigned B = 256;
    unsigned g = unsigned((total + B - 1) / B);
    int64_t v64[4];
    int v32[4];
    std::vector<void *> args{&in, &out};
    const bool ints = r.form == HW32 || r.form == NCHW32;  // ct_transpose64: int64_t (HW64)
    auto push = [&](std::initializer_list<int64_t> vs) {
      size_t k = 0;
      for (int64_t v : vs) {
        v64[k] = v, v32[k] = int(v);
        args.push_back(ints ? static_cast<void *>(&v32[k]) : static_cast<void *>(&v64[k]));
        ++k;
      }
    };
    int TW = r.W, TH = r.H, N = 1;  // the hand kernel's matrix (per image)
    switch (r.form) {
    case HW64: case HW32: case ROT: push({r.H, r.W}); break;
    case LOOPU8: push({r.H, r.W, total}); break;
    case GATHER: push({r.H, r.W}), TW = r.H, TH = r.W; break;
    case NCHW64: case NCHW32: push({r.N, r.C, r.H, r.W}), TW = r.H * r.W, TH = r.C, N = r.N; break;
    case CHW: push({r.C, int64_t(r.H) * r.W, total}), TW = r.H * r.W, TH = r.C, N = r.N; break;
    case BACK: push({r.C, int64_t(r.H) * r.W, total}), TW = r.C, TH = r.H * r.W, N = r.N; break;
    }
    char label[96];
    if (r.form == NCHW64 || r.form == NCHW32) std::snprintf(label, sizeof label, "N%d C%d %d x %d", r.N, r.C, r.H, r.W);
    else if (r.form == LOOPU8) std::snprintf(label, sizeof label, "%d x %d, size_t loop", r.W, r.H);
    else if (r.form == CHW || r.form == BACK) std::snprintf(label, sizeof label, "N%d C%d HW %d", r.N, r.C, r.W);
    else std::snprintf(label, sizeof label, "%d x %d", r.W, r.H);
    failed += flatRow(from, r.name, label, args, g, B, size_t(total) * r.bytes, r.bytes, r.form != ROT, TW, TH, N, in, out, ref);
  }
  return failed;
}

/// Compile-time sizes (tests/gpu/cases/transpose_const.cu: the sizes
/// `#define`s and template arguments, divided by nvcc with shifts, masks
/// and magic multiplications; the kernels take no size argument), -O2: the
/// original (256-thread blocks), its flat clone launched as its manifest
/// says, and the hand kernel (per image for the permutes; none for the
/// rotation). Returns how many outputs differ from the original's.
int measureConst(CUmodule mod, void *in, void *out, void *ref, bool quick) {
  std::printf("\n| kernel (compile-time sizes) | size | naive | flat clone | hand-tiled | clone x | hand x | hand ms / clone ms |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  struct R {
    const char *name;
    unsigned bytes;
    int N, C, TW, TH;  // the hand kernel's matrix per image (rows of TW), N images of C planes... N*C*TW*TH elements
    bool rot = false;
    const char *shape;
  };
  const R rows[] = {{"gc_int_8192", 4, 1, 1, 8192, 8192, false, "8192 x 8192, int, #define"},
                    {"gc_uint_8192", 4, 1, 1, 8192, 8192, false, "8192 x 8192, unsigned"},
                    {"gc_sizet_8192", 4, 1, 1, 8192, 8192, false, "8192 x 8192, size_t"},
                    {"gc_int_odd", 4, 1, 1, 8191, 8193, false, "8191 x 8193, int"},
                    {"gc_uint_odd", 4, 1, 1, 8191, 8193, false, "8191 x 8193, unsigned (33-bit multiplier)"},
                    {"gc_sizet_odd", 4, 1, 1, 8191, 8193, false, "8191 x 8193, size_t (narrowed)"},
                    {"gc_tmpl_f32", 4, 1, 1, 6000, 4096, false, "6000 x 4096, template"},
                    {"gc_gridstride", 4, 1, 1, 6000, 4096, false, "6000 x 4096, grid-stride loop"},
                    {"gc_int_1080", 4, 1, 1, 1920, 1080, false, "1920 x 1080"},
                    {"gc_u8_8192", 1, 1, 1, 8192, 8192, false, "8192 x 8192 bytes"},
                    {"gc_f64_4096", 8, 1, 1, 4096, 4096, false, "4096 x 4096 doubles"},
                    {"gc_rot90_1920", 4, 1, 1, 1920, 1080, true, "1920 x 1080 RGBA, rotated"},
                    {"gc_nchw_c64", 4, 16, 1, 56 * 56, 64, false, "N16 C64 56 x 56 (HW one constant)"},
                    {"gc_nchw_c256", 4, 16, 1, 56 * 56, 256, false, "N16 C256 56 x 56"},
                    {"gc_nchw_sizet", 4, 16, 1, 56 * 56, 64, false, "N16 C64 56 x 56, size_t (narrowed)"},
                    {"gc_nchw3_c64", 4, 16, 1, 56 * 56, 64, false, "N16 C64 56 x 56 (H, W apart)"},
                    {"gc_nhwc_c64", 4, 16, 1, 64, 56 * 56, false, "N16 C64 56 x 56, back"}};
  int failed = 0;
  for (const R &r : rows) {
    if (quick && r.TW != 8192) continue;
    const int64_t total = int64_t(r.N) * r.TW * r.TH;
    unsigned B = 256;
    unsigned g = unsigned((total + B - 1) / B);
    failed += flatRow(mod, r.name, r.shape, {&in, &out}, g, B, size_t(total) * r.bytes, r.bytes, !r.rot, r.TW, r.TH, r.N,
                      in, out, ref);
  }
  return failed;
}

/// Kernels written as grid-stride loops (tests/lit/transpose/Inputs/gridstride.cu),
/// launched with a thread per element: the flat ones (blocks of 256) against
/// their flat clone (as measureFlat), the nested 2-D ones (16 x 16 and 32 x 8
/// blocks) against their tiled clones, each beside the hand kernel of its
/// element type. Returns how many outputs differ from the original's.
int measureGridStride(CUmodule mod, void *in, void *out, void *ref, bool quick) {
  std::printf("\n| kernel (grid-stride loop) | size | naive | clone | hand-tiled | clone x | hand x | hand ms / clone ms |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  struct G {
    const char *name;
    unsigned bytes;
    int W, H;
    void (*hand)(const void *, void *, int, int, dim3, dim3);
    int n;            // the count argument: -1 none (gs_wh), 0 W * H
    unsigned bx, by;  // 2-D blocks (the nested loops); bx = 0: 1-D blocks of 256
  };
  const G rows[] = {{"gs_f32", 4, 8192, 8192, launchHand<float>, 0, 0, 0},
                    {"gs_f32", 4, 8191, 8193, launchHand<float>, 0, 0, 0},
                    {"gs_wh", 4, 8192, 8192, launchHand<float>, -1, 0, 0},
                    {"gs_u8", 1, 8192, 8192, launchHand<char>, 0, 0, 0},
                    {"gs_u16", 2, 8192, 8192, launchHand<short>, 0, 0, 0},
                    {"gs_f64", 8, 8192, 4096, launchHand<double>, 0, 0, 0},
                    {"gs_2d", 4, 8192, 8192, launchHand<float>, -1, 16, 16},
                    {"gs_2d", 4, 8192, 8192, launchHand<float>, -1, 32, 8},
                    {"gs_2d_u8", 1, 8192, 8192, launchHand<char>, -1, 16, 16}};
  int failed = 0;
  for (const G &r : rows) {
    if (quick && (r.W != 8192 || std::string(r.name) != "gs_f32")) continue;
    int w = r.W, h = r.H, n = r.W * r.H;
    std::vector<void *> args{&in, &out, &w, &h};
    if (r.n == 0) args.push_back(&n);
    const size_t bytes = size_t(r.W) * r.H * r.bytes;
    CUfunction orig, clone;
    check(cuModuleGetFunction(&orig, mod, r.name), r.name);
    unsigned B = 256, g = unsigned((size_t(n) + B - 1) / B), gx = 0, gy = 0;
    std::vector<void *> targs = args;
    std::function<void()> naive, tiled;
    if (r.bx == 0) {
      targs.push_back(&g);
      targs.push_back(&B);
      check(cuModuleGetFunction(&clone, mod, (std::string(r.name) + "__ptxopt_tiledflat").c_str()), "flat clone");
      naive = launcher(orig, g, 1, 1, B, 1, args.data());
      tiled = launcher(clone, (g + 3) / 4, 1, 1, 32, 8, targs.data());
    } else {
      gx = (r.W + r.bx - 1) / r.bx;
      gy = (r.H + r.by - 1) / r.by;
      const TiledLaunch tl = tiledLaunch(r.bx, r.by, gx, gy);
      if (tl.passX) targs.push_back(&gx);
      if (tl.passY) targs.push_back(&gy);
      const std::string suffix = r.bx == r.by ? std::to_string(r.bx) : std::to_string(r.bx) + "x" + std::to_string(r.by);
      check(cuModuleGetFunction(&clone, mod, (std::string(r.name) + "__ptxopt_tiled" + suffix).c_str()), "tiled clone");
      naive = launcher(orig, gx, gy, 1, r.bx, r.by, args.data());
      tiled = launcher(clone, tl.gx, tl.gy, 1, 32, 8, targs.data());
    }
    check(cudaMemset(out, 0x5a, bytes), "memset");
    auto [nMin, nMed] = timeIt(naive);
    check(cudaMemcpy(ref, out, bytes, cudaMemcpyDeviceToDevice), "copy");
    std::printf("| `%s`%s | %d x %d | %.4f (%.4f) |", r.name,
                r.bx ? (" " + std::to_string(r.bx) + " x " + std::to_string(r.by)).c_str() : "", r.W, r.H, nMin, nMed);
    std::vector<std::function<void()>> runs{tiled,
                                            [=]() { r.hand(in, out, r.W, r.H, dim3((r.W + 31) / 32, (r.H + 31) / 32), dim3(32, 8)); }};
    float best[2] = {0, 0};
    failed += timeAll(runs, out, ref, bytes, best);
    std::printf(" %s | %s | %s |\n", ratio(nMin, best[0]).c_str(), ratio(nMin, best[1]).c_str(), ratio(best[1], best[0]).c_str());
  }
  return failed;
}

}  // namespace

int main(int argc, char **argv) {
  // Line-buffered: a run stopped by a time limit keeps the rows it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string ptx, onePtx, o2Ptx, unPtx, baPtx, flatPtx, gsPtx, s3Ptx, widePtx, countedPtx, constPtx;  // the pass's clones; with --transpose-elements=1 (the one-element ones); -O2's; unrolled.cu's
  bool quick = false, unrolledOnly = false, flatOnly = false, shapesOnly = false, permutesOnly = false;
  std::vector<std::pair<unsigned, unsigned>> shapesAsked;  // --shapes 8x32,32x4: the shapes-only tables' shapes
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (a == "--one" && i + 1 < argc) onePtx = argv[++i];
    else if (a == "--swap" && i + 1 < argc) o2Ptx = argv[++i];
    else if (a == "--unrolled" && i + 1 < argc) unPtx = argv[++i];
    else if (a == "--unrolled-only") unrolledOnly = true;
    else if (a == "--blockaxis" && i + 1 < argc) baPtx = argv[++i];
    else if (a == "--flat" && i + 1 < argc) flatPtx = argv[++i];
    else if (a == "--gridstride" && i + 1 < argc) gsPtx = argv[++i];
    else if (a == "--split3" && i + 1 < argc) s3Ptx = argv[++i];
    else if (a == "--wide" && i + 1 < argc) widePtx = argv[++i];
    else if (a == "--counted" && i + 1 < argc) countedPtx = argv[++i];
    else if (a == "--const" && i + 1 < argc) constPtx = argv[++i];
    else if (a == "--flat-only") flatOnly = unrolledOnly = true;
    else if (a == "--quick") quick = true;
    else if (a == "--permutes-only") permutesOnly = true;
    else if (a == "--shapes-only") shapesOnly = true;
    else if (a == "--shapes" && i + 1 < argc) {
      shapesOnly = true;
      for (std::string list = argv[++i]; !list.empty();) {
        size_t comma = list.find(',');
        std::string one = list.substr(0, comma);
        unsigned bx = 0, by = 0;
        char rest = 0;
        // The block shapes with tiled clones (kShapes and kTiledShapes in src/transforms/Transpose.h).
        static const std::set<std::pair<unsigned, unsigned>> known{{32, 32}, {16, 16}, {32, 8}, {8, 32}, {32, 4},
                                                                   {16, 8},  {8, 8},   {32, 16}, {16, 4}, {64, 4},
                                                                   {64, 8},  {128, 2}, {128, 4}};
        if (std::sscanf(one.c_str(), "%ux%u%c", &bx, &by, &rest) != 2 || !known.count({bx, by})) {
          std::fprintf(stderr, "transpose: --shapes wants BXxBY[,BXxBY...], each a shape with a tiled clone (32x32, "
                               "16x16, 32x8, 8x32, 32x4, 16x8, 8x8, 32x16, 16x4, 64x4, 64x8, 128x2, 128x4), not '%s'\n",
                       one.c_str());
          return 2;
        }
        shapesAsked.emplace_back(bx, by);
        list = comma == std::string::npos ? "" : list.substr(comma + 1);
      }
    }
    else ptx = a;
  }
  if (ptx.empty()) {
    std::fprintf(stderr, "usage: transpose <transpose.opt.ptx> [--one <transpose.opt1.ptx>] [--swap <transpose.O2.ptx>] "
                         "[--unrolled <unrolled.O2.ptx> [--unrolled-only]] [--blockaxis <blockaxis.O2.ptx>] [--flat <flat.O2.ptx> [--flat-only]] [--gridstride <gridstride.O2.ptx>] [--split3 <split3.O2.ptx>] [--wide <wide.O2.ptx> [--counted <counted.O2.ptx>]] [--const <const.O2.ptx>] [--runs N] [--quick] [--shapes-only | --shapes BXxBY,...] [--permutes-only]\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "transpose: no CUDA device\n");
    return 77;
  }
  try {
    check(cudaFree(nullptr), "init");
    CUmodule mod;
    check(cuModuleLoadData(&mod, readFile(ptx).c_str()), ptx.c_str());
    CUmodule one = mod;
    if (!onePtx.empty()) check(cuModuleLoadData(&one, readFile(onePtx).c_str()), onePtx.c_str());
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "props");
    std::printf("transpose: %s, min (median) of %d runs after 3 warm-ups, ms; the clone launched directly (no "
                "launch floor); hand = 32x33 tile, 32x8 threads, 4 elements each\n\n",
                prop.name, runs);
    std::printf("| kernel | size | block | naive | clone | tiled clone | hand-tiled | clone x | tiled x | hand x | "
                "hand ms / tiled ms |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    const std::pair<int, int> sizes[] = {{8192, 8192}, {8191, 8193}, {1920, 1080}, {1000, 3000}, {256, 256}};
    const size_t maxElems = size_t(8192) * 8193;
    void *in = nullptr, *in2 = nullptr, *outA = nullptr, *outB = nullptr;
    check(cudaMalloc(&in, maxElems * 16), "malloc");  // float4 elements at most
    check(cudaMalloc(&in2, maxElems * 16), "malloc");
    check(cudaMalloc(&outA, maxElems * 16), "malloc");
    check(cudaMalloc(&outB, maxElems * 16), "malloc");
    {
      std::vector<unsigned char> bytes(maxElems * 16);
      std::mt19937_64 rng(7);
      for (auto &b : bytes) b = static_cast<unsigned char>(rng() | 1);
      // Floats in [1, 2) where the kernels compute in float: no NaN payloads to compare.
      for (size_t i = 0; i < maxElems * 2; ++i) {
        float f = 1.0f + float(rng() % 1000000) / 1e6f;
        std::memcpy(&bytes[i * 4], &f, 4);
      }
      check(cudaMemcpy(in, bytes.data(), bytes.size(), cudaMemcpyHostToDevice), "copy");
      check(cudaMemcpy(in2, bytes.data(), bytes.size(), cudaMemcpyHostToDevice), "copy");
    }
    int failed = 0;
    // --shapes-only: the tiled-only block shapes of the seventeenth session
    // (kTiledShapes in src/transforms/Transpose.h: 32 x 4, 16 x 8, 8 x 8,
    // 32 x 16; 16 x 4, 64 x 4, 64 x 8, 128 x 2 and 128 x 4 came later:
    // --shapes 16x4,64x4,...), this table alone.
    // --shapes: the shapes named (the tables of --shapes-only).
    const std::vector<std::pair<unsigned, unsigned>> shapes =
        !shapesAsked.empty() ? shapesAsked
        : shapesOnly         ? std::vector<std::pair<unsigned, unsigned>>{{32, 4}, {16, 8}, {8, 8}, {32, 16}}
                             : std::vector<std::pair<unsigned, unsigned>>{{16, 16}, {32, 32}, {32, 8}};
    if (shapesOnly || permutesOnly) unrolledOnly = flatOnly = false, unPtx.clear(), baPtx.clear(), flatPtx.clear(),
                    gsPtx.clear(), s3Ptx.clear(), widePtx.clear(), countedPtx.clear(), constPtx.clear();
    // --permutes-only: the first table's NCHW <-> NHWC rows alone.
    if (permutesOnly) o2Ptx.clear();
    for (const Kernel &k : unrolledOnly || permutesOnly ? std::vector<Kernel>{}
                                                       : std::vector<Kernel>(std::begin(kKernels), std::end(kKernels)))
      for (auto size : sizes)
        for (auto shape : shapes) {
          const int W = size.first, H = size.second;
          const unsigned BX = shape.first, BY = shape.second;
          if (quick && (W != 8192 || BX != 16)) continue;
          int w = W, h = H;
          float scale = 1.7f;
          Row r{k.name, std::to_string(W) + " x " + std::to_string(H), (W + BX - 1) / BX, (H + BY - 1) / BY, 1, BX, BY,
                {}, size_t(W) * H * k.outBytes, {}};
          if (k.extra == 2) r.args = {&in, &in2, &outA, &w, &h};
          else r.args = {&in, &outA, &w, &h};
          if (k.extra == 1) r.args.push_back(&scale);
          if (k.hand)
            r.hand = [&]() { k.hand(in, outA, W, H, dim3((W + 31) / 32, (H + 31) / 32), dim3(32, 8)); };
          failed += measureRow(mod, one, r, outA, outB);
        }
    // NCHW <-> NHWC, N = 16 images (blockIdx.z), C = 64 and 256 channels,
    // 56 x 56 and 224 x 224 planes; the hand kernel: one tiled transpose
    // per image (C x HW rows into HW x C, or the reverse).
    for (const char *kernel : {"nchw_to_nhwc", "nhwc_to_nchw"})
      for (int C : {64, 256})
        for (int P : {56, 224})
          for (auto shape : {std::pair{16u, 16u}, std::pair{32u, 32u}, std::pair{32u, 8u}}) {
            if (quick || unrolledOnly || shapesOnly) continue;
            const unsigned BX = shape.first, BY = shape.second, N = 16;
            int c = C, hw = P * P;
            const bool toNhwc = kernel[1] == 'c';  // x along the plane, y along the channels
            const int W = toNhwc ? hw : C, H = toNhwc ? C : hw;
            Row r{kernel, "N16 C" + std::to_string(C) + " " + std::to_string(P) + "x" + std::to_string(P),
                  (W + BX - 1) / BX, (H + BY - 1) / BY, N, BX, BY, {&in, &outA, &c, &hw},
                  size_t(N) * C * hw * 4, {}};
            r.hand = [&]() { launchHand<float>(in, outA, W, H, dim3((W + 31) / 32, (H + 31) / 32, N), dim3(32, 8)); };
            failed += measureRow(mod, one, r, outA, outB);
          }
    if (!o2Ptx.empty() && !unrolledOnly) {
      CUmodule o2;
      check(cuModuleLoadData(&o2, readFile(o2Ptx).c_str()), o2Ptx.c_str());
      failed += measureSwap(mod, o2, in, in2, outA, outB, quick, shapes);
    }
    if (!unPtx.empty() && !flatOnly) {
      CUmodule un;
      check(cuModuleLoadData(&un, readFile(unPtx).c_str()), unPtx.c_str());
      failed += measureUnrolled(un, in, in2, outA, outB, quick);
    }
    if (!baPtx.empty() && !flatOnly) {
      CUmodule ba;
      check(cuModuleLoadData(&ba, readFile(baPtx).c_str()), baPtx.c_str());
      failed += measureBlockAxis(ba, in, outA, outB, quick);
    }
    if (!flatPtx.empty()) {
      CUmodule fl;
      check(cuModuleLoadData(&fl, readFile(flatPtx).c_str()), flatPtx.c_str());
      failed += measureFlat(fl, in, outA, outB, quick);
    }
    if (!gsPtx.empty()) {
      CUmodule gs;
      check(cuModuleLoadData(&gs, readFile(gsPtx).c_str()), gsPtx.c_str());
      failed += measureGridStride(gs, in, outA, outB, quick);
    }
    if (!s3Ptx.empty()) {
      CUmodule s3;
      check(cuModuleLoadData(&s3, readFile(s3Ptx).c_str()), s3Ptx.c_str());
      failed += measureSplit3(s3, in, outA, outB, quick);
    }
    if (!widePtx.empty()) {
      CUmodule wd, ct = nullptr;
      check(cuModuleLoadData(&wd, readFile(widePtx).c_str()), widePtx.c_str());
      if (!countedPtx.empty()) check(cuModuleLoadData(&ct, readFile(countedPtx).c_str()), countedPtx.c_str());
      failed += measureWide(wd, ct, in, outA, outB, quick);
    }
    if (!constPtx.empty()) {
      CUmodule cm;
      check(cuModuleLoadData(&cm, readFile(constPtx).c_str()), constPtx.c_str());
      failed += measureConst(cm, in, outA, outB, quick);
    }
    std::printf("\n%d outputs differ\n", failed);
    return failed ? 1 : 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "transpose: %s\n", e.what());
    return 1;
  }
}
