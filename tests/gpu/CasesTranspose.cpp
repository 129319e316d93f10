// gpu-diff cases of the transpose pass (docs/PASSES.md, "transpose"; issue
// 30): transposes, rotations, NCHW <-> NHWC permutes and fused per-element
// work staged through a shared tile, every output compared bit for bit with
// the original's. The kernels: tests/lit/transpose/Inputs/transpose.cu.
//
// Every element size (1, 2, 4, 8, 16 bytes), 16 x 16, 32 x 32, 32 x 8 and
// 8 x 32 blocks (the clones: by default the tiled clone runs, 32 x 8
// threads per 32 x 32 tile; with transpose-elements=1 the one-element
// clone), 16 x 8 (a tiled clone since kTiledShapes has it), sizes that are not multiples of
// the tile (1000 x 3000, 8191 x 8193: grids that do not divide by 32/bx,
// so the tiled clone's last blocks hold logical blocks past the grid), and
// 256 x 256 (under the clones' launch floor of 2^20 threads: the original).
// "transpose sweep": kernels of the coverage sweep
// (tests/lit/transpose/Inputs/sweep.cu, cases/transpose_sweep.cu) at the
// edges: fp16 conversions, a store on the loaded value, (A + B)^T, early returns,
// pitches, batches in grid.z, 64-bit sizes, complex conjugates, NCHW -> NHWC.
#include <array>
#include <tuple>

#include "Cases.h"

namespace gpudiff {

namespace {

std::string shapeSuffix(unsigned bx, unsigned by) {
  return bx == by ? std::to_string(bx) : std::to_string(bx) + "x" + std::to_string(by);
}

bool cloneShape(unsigned bx, unsigned by) {
  return (bx == by && (bx == 16 || bx == 32)) || (bx == 32 && by == 8) || (bx == 8 && by == 32);
}

/// The shapes with a tiled clone only (kTiledShapes in src/transforms/Transpose.h).
bool tiledOnlyShape(unsigned bx, unsigned by) {
  return (bx == 32 && by == 4) || (bx == 16 && by == 8) || (bx == 8 && by == 8) || (bx == 32 && by == 16) ||
         (bx == 16 && by == 4) || (bx == 64 && by == 4) || (bx == 64 && by == 8) || (bx == 128 && by == 2) ||
         (bx == 128 && by == 4);
}

/// What runs: the tiled clone (or with `elements1`, the one-element one) for
/// the clones' shapes at 2^20 threads or more, else the original.
std::string expected(const std::string &kernel, unsigned bx, unsigned by, uint64_t threads, bool elements1) {
  const bool shape = cloneShape(bx, by) || (!elements1 && tiledOnlyShape(bx, by));
  if (!shape || threads < (uint64_t(1) << 20)) return "original";
  return "=" + kernel + (elements1 ? "__ptxopt_transpose" : "__ptxopt_tiled") + shapeSuffix(bx, by);
}

Case tr(const std::string &kernel, Elem in, Elem out, unsigned W, unsigned H, unsigned bx, unsigned by, int extra,
        bool elements1 = false) {
  std::vector<Arg> args{gpudiff::in(in, size_t(W) * H)};
  if (extra == 2) args.push_back(gpudiff::in(out, size_t(W) * H));  // B of A^T + B
  args.push_back(gpudiff::out(out, size_t(W) * H));
  args.push_back(i32(int32_t(W)));
  args.push_back(i32(int32_t(H)));
  if (extra == 1) args.push_back(f32(1.7f));  // the scale
  Case c = makeCase("transpose: " + kernel + " " + std::to_string(W) + "x" + std::to_string(H) + " b" +
                        std::to_string(bx) + "x" + std::to_string(by) + (elements1 ? " elements=1" : ""),
                    "transpose", kernel, args, {(W + bx - 1) / bx, (H + by - 1) / by, 1}, {bx, by, 1});
  const uint64_t threads = uint64_t(c.grid[0]) * c.grid[1] * bx * by;
  c.expect = expected(kernel, bx, by, threads, elements1);
  if (elements1) c.passes = "-O2;transpose-elements=1";
  c.big = uint64_t(W) * H * elemSize(out) > (uint64_t(1) << 26);
  return c;
}

/// NCHW -> NHWC (x along the plane, y along the channels) or back (x along
/// the channels), N images in grid.z.
Case permute(const std::string &kernel, unsigned N, unsigned C, unsigned P, unsigned b) {
  const unsigned HW = P * P;
  const bool toNhwc = kernel == "nchw_to_nhwc";
  const unsigned W = toNhwc ? HW : C, H = toNhwc ? C : HW;
  Case c = makeCase("transpose: " + kernel + " N" + std::to_string(N) + " C" + std::to_string(C) + " " +
                        std::to_string(P) + "x" + std::to_string(P) + " b" + std::to_string(b) + "x" + std::to_string(b),
                    "transpose", kernel,
                    {in(Elem::F32, size_t(N) * C * HW), out(Elem::F32, size_t(N) * C * HW), i32(int32_t(C)),
                     i32(int32_t(HW))},
                    {(W + b - 1) / b, (H + b - 1) / b, N}, {b, b, 1});
  c.expect = expected(kernel, b, b, uint64_t(c.grid[0]) * c.grid[1] * c.grid[2] * b * b, false);
  c.big = uint64_t(N) * C * HW * 4 > (uint64_t(1) << 26);
  return c;
}

/// A kernel of the sweep (tests/lit/transpose/Inputs/sweep.cu) over a
/// W x H matrix (x along W) with bx x by blocks and `z` matrices in grid.z:
/// the tiled clone runs (`passes`: "" for -O2).
Case sweep(const std::string &kernel, std::vector<Arg> args, unsigned W, unsigned H, unsigned z, unsigned bx,
           unsigned by, const std::string &passes = "") {
  Case c = makeCase("transpose sweep: " + kernel + " " + std::to_string(W) + "x" + std::to_string(H) +
                        (z > 1 ? "x" + std::to_string(z) : "") + " b" + std::to_string(bx) + "x" + std::to_string(by) +
                        (passes.empty() ? "" : " " + passes),
                    "transpose_sweep", kernel, std::move(args), {(W + bx - 1) / bx, (H + by - 1) / by, z}, {bx, by, 1});
  c.expect = expected(kernel, bx, by, uint64_t(c.grid[0]) * c.grid[1] * z * bx * by, false);
  c.passes = passes;
  return c;
}

/// The sweep's shapes the pass handles since it (fp16 conversions' inline
/// asm scopes, a branch on the loaded value after the load: every clone
/// shape; two arrays a tile each) and others the sweep found handled, at the edges (1000 x 3000).
/// Few cases: each loads the sweep's 49 kernels (0.7 s of -O2 in
/// --expect-only, which CI runs).
void addSweep(std::vector<Case> &cs) {
  const unsigned W = 1000, H = 3000;
  const size_t n = size_t(W) * H;
  for (auto [bx, by] : {std::pair{16u, 16u}, std::pair{32u, 32u}, std::pair{32u, 8u}, std::pair{8u, 32u}}) {
    cs.push_back(sweep("sw_f32_to_f16", {in(Elem::F32, n), out(Elem::I16, n), i32(W), i32(H)}, W, H, 1, bx, by));
    cs.push_back(sweep("sw_store_nonzero", {inZeros(Elem::F32, n, 3), out(Elem::F32, n), i32(W), i32(H)}, W, H, 1,
                       bx, by));
  }
  // Kernels coalesce's swap improves too: -O2 puts the tiled clones first
  // (8 x 32 blocks too since the eighteenth session, timed 1.10-2.35x
  // faster than the swap; the --passes=transpose cases check the pass alone).
  for (auto [bx, by] : {std::pair{16u, 16u}, std::pair{8u, 32u}})
    for (const std::string passes : {"", "transpose"}) {
      if (bx == 16 && !passes.empty()) continue;
    cs.push_back(sweep("sw_f16_to_f32", {in(Elem::I16, n), out(Elem::F32, n), i32(W), i32(H)}, W, H, 1, bx, by, passes));
    cs.push_back(sweep("sw_u8_norm", {in(Elem::I8, n), out(Elem::F32, n), i32(W), i32(H), f32(0.5f), f32(0.0125f)}, W,
                       H, 1, bx, by, passes));
    }
  for (auto [bx, by] : {std::pair{16u, 16u}, std::pair{32u, 8u}})
    cs.push_back(sweep("sw_geam", {in(Elem::F32, n), in(Elem::F32, n), out(Elem::F32, n), i32(W), i32(H), f32(1.5f),
                                   f32(-0.25f)},
                       W, H, 1, bx, by));
  cs.push_back(sweep("sw_symmetric", {in(Elem::F32, size_t(1500) * 1500), out(Elem::F32, size_t(1500) * 1500),
                                      i32(1500)},
                     1500, 1500, 1, 16, 16));
  // Two arrays, a tile each: (A + B)^T and planar to interleaved complex.
  for (const char *k : {"sw_sum_t", "sw_planar_c64"})
    for (auto [bx, by] : {std::pair{16u, 16u}, std::pair{32u, 8u}})
      cs.push_back(sweep(k, {in(Elem::F32, n), in(Elem::F32, n), out(Elem::F32, k[3] == 'p' ? 2 * n : n), i32(W), i32(H)},
                         W, H, 1, bx, by));
  for (const char *k : {"sw_early_return", "sw_rot270", "sw_relu_exp", "sw_ldg"})
    cs.push_back(sweep(k, {in(Elem::F32, n), out(Elem::F32, n), i32(W), i32(H)}, W, H, 1, 16, 16));
  cs.push_back(sweep("sw_guard_x_only", {in(Elem::F32, size_t(W) * 2048), out(Elem::F32, size_t(W) * 2048), i32(W),
                                         i32(2048)},
                     W, 2048, 1, 32, 8));  // H a multiple of the block
  cs.push_back(sweep("sw_longlong", {in(Elem::F32, n), out(Elem::F32, n), i64(W), i64(H)}, W, H, 1, 16, 16));
  cs.push_back(sweep("sw_pitch", {in(Elem::F32, size_t(1024) * H), out(Elem::F32, size_t(W) * 3008), i32(W), i32(H),
                                  i32(1024), i32(3008)},
                     W, H, 1, 32, 8));
  cs.push_back(sweep("sw_batch_z", {in(Elem::F32, n), out(Elem::F32, n), i32(500), i32(1500)}, 500, 1500, 4, 16, 16));
  cs.push_back(sweep("sw_half", {in(Elem::I16, n), out(Elem::I16, n), i32(W), i32(H)}, W, H, 1, 32, 8));
  cs.push_back(sweep("sw_conj_c64", {in(Elem::F32, 2 * n), out(Elem::F32, 2 * n), i32(W), i32(H)}, W, H, 1, 16, 16));
  cs.push_back(sweep("sw_conj_c128", {in(Elem::F64, 2 * n), out(Elem::F64, 2 * n), i32(W), i32(H)}, W, H, 1, 32, 8));
  // NCHW -> NHWC: N = 8 (grid.z), C = 64, 56 x 56.
  cs.push_back(sweep("sw_nchw_nhwc", {in(Elem::F32, size_t(8) * 64 * 3136), out(Elem::F32, size_t(8) * 64 * 3136),
                                      i32(64), i32(56), i32(56)},
                     3136, 64, 8, 16, 16));
}

/// A kernel of tests/lit/transpose/Inputs/unrolled.cu (the CUDA samples'
/// naive transpose: 32 x 32 tiles of 32 x 8 threads, four load-store pairs
/// each) over a W x H matrix, blocks of bx x by (grid: 32 x 32 tiles).
Case unrolled(const std::string &kernel, std::vector<Arg> args, unsigned W, unsigned H, unsigned bx = 32,
              unsigned by = 8) {
  Case c = makeCase("transpose unrolled: " + kernel + " " + std::to_string(W) + "x" + std::to_string(H) + " b" +
                        std::to_string(bx) + "x" + std::to_string(by),
                    "transpose_unrolled", kernel, std::move(args), {(W + 31) / 32, (H + 31) / 32, 1}, {bx, by, 1});
  const uint64_t threads = uint64_t(c.grid[0]) * c.grid[1] * bx * by;
  c.expect = threads < (uint64_t(1) << 16) ? "original" : expected(kernel, bx, by, uint64_t(1) << 20, true);
  return c;
}

/// The samples' and blog's naive transposes, every element size, the
/// guarded forms at sizes that are not multiples of the tile, per-element
/// work, the gather form, (A + B)^T; 1024 x 1024 (2^18 threads: over the
/// clones' floor of 2^16), 256 x 256 (2^14: under it, the original), 16 x 4
/// blocks (no clone shape); the lookalikes run the original.
void addUnrolled(std::vector<Case> &cs) {
  auto mat = [](Elem e, unsigned W, unsigned H) { return std::pair{in(e, size_t(W) * H), out(e, size_t(W) * H)}; };
  for (auto [W, H] : {std::pair{4096u, 4096u}, std::pair{2048u, 6144u}, std::pair{1024u, 1024u}, std::pair{256u, 256u}}) {
    auto [i, o] = mat(Elem::F32, W, H);
    cs.push_back(unrolled("un_samples_f32", {o, i, i32(W), i32(H)}, W, H));
    cs.push_back(unrolled("un_loop_f32", {i, o, i32(W), i32(H)}, W, H));
  }
  {
    auto [i, o] = mat(Elem::F32, 4096, 4096);
    cs.push_back(unrolled("un_blog_f32", {o, i}, 4096, 4096));
  }
  for (auto [kernel, e] : {std::pair{"un_loop_f64", Elem::F64}, std::pair{"un_loop_u16", Elem::I16},
                           std::pair{"un_loop_u8", Elem::I8}}) {
    auto [i, o] = mat(e, 4096, 2048);
    cs.push_back(unrolled(kernel, {i, o, i32(4096), i32(2048)}, 4096, 2048));
  }
  for (auto [W, H] : {std::pair{4000u, 3001u}, std::pair{8191u, 1025u}, std::pair{1000u, 1000u}}) {
    auto [i, o] = mat(Elem::F32, W, H);
    cs.push_back(unrolled("un_guard_f32", {i, o, i32(W), i32(H)}, W, H));
    cs.push_back(unrolled("un_scale_f32", {i, o, i32(W), i32(H), f32(1.7f)}, W, H));
    cs.push_back(unrolled("un_f32_to_f16", {i, out(Elem::I16, size_t(W) * H), i32(W), i32(H)}, W, H));
    cs.push_back(unrolled("un_sum_t", {i, in(Elem::F32, size_t(W) * H), o, i32(W), i32(H)}, W, H));
    auto [d, od] = mat(Elem::F64, W, H);
    cs.push_back(unrolled("un_guard_x_f64", {d, od, i32(W), i32(H)}, W, H));
    // The gather form: x along H.
    Case g = unrolled("un_gather_f32", {i, o, i32(W), i32(H)}, H, W);
    cs.push_back(g);
  }
  // The guarded kernel in the other clone shapes (threads overlap, writing equal values).
  for (auto [bx, by] : {std::pair{16u, 16u}, std::pair{8u, 32u}, std::pair{32u, 32u}}) {
    auto [i, o] = mat(Elem::F32, 4000, 3001);
    cs.push_back(unrolled("un_guard_f32", {i, o, i32(4000), i32(3001)}, 4000, 3001, bx, by));
  }
  {
    auto [i, o] = mat(Elem::F32, 4000, 3001);
    Case t = makeCase("transpose unrolled: un_tile16_f32 4000x3001 b16x4", "transpose_unrolled", "un_tile16_f32",
                      {i, o, i32(4000), i32(3001)}, {250, 188, 1}, {16, 4, 1});
    t.expect = "original";
    cs.push_back(t);
    for (const char *k : {"un_neighbours", "un_mixed"}) {
      Case l = unrolled(k, {i, out(Elem::F32, size_t(2) * 4000 * 3001), i32(4000), i32(3001)}, 4000, 3001);
      l.expect = "original";
      cs.push_back(l);
    }
  }
}

/// A kernel of tests/lit/transpose/Inputs/blockaxis.cu (1-D blocks of b
/// threads, the other axis a block index): x over `X` (grid.x), the block
/// index over `Y` (grid.y, or grid.z with `z`), `N` in the remaining grid
/// dimension. What runs: the tiled clone for 128-, 256- and 512-thread
/// blocks, at least 32 blocks along the index and 2^20 threads, else the original.
Case blockAxis(const std::string &kernel, std::vector<Arg> args, unsigned X, unsigned Y, unsigned N, unsigned b,
               bool z = false) {
  const unsigned gx = (X + b - 1) / b;
  Case c = makeCase("transpose blockaxis: " + kernel + " " + std::to_string(X) + "x" + std::to_string(Y) +
                        (N > 1 ? "x" + std::to_string(N) : "") + " b" + std::to_string(b),
                    "transpose_blockaxis", kernel, std::move(args), {gx, z ? N : Y, z ? Y : N}, {b, 1, 1});
  const uint64_t threads = uint64_t(gx) * b * Y * N;
  const bool fits = (b == 128 || b == 256 || b == 512) && Y >= 32 && threads >= (uint64_t(1) << 20);
  c.expect = fits ? "=" + kernel + "__ptxopt_tiled" + std::to_string(b) + "x1" : "original";
  return c;
}

/// A transpose with one block row per matrix row, NCHW -> NHWC with the
/// channel in blockIdx.y and (bytes) in blockIdx.z, the gather form back,
/// a scale of doubles; sizes that are not multiples of the tile or the
/// block; C = 3 and 16 (under 32 blocks along the index: the original),
/// 64-thread blocks (no clone), a small launch (under 2^20 threads).
void addBlockAxis(std::vector<Case> &cs) {
  auto mat = [](size_t n) { return std::pair{in(Elem::F32, n), out(Elem::F32, n)}; };
  for (auto [W, H] : {std::pair{4096u, 4096u}, std::pair{1000u, 3001u}, std::pair{8191u, 33u}})
    for (unsigned b : {128u, 256u, 512u}) {
      auto [i, o] = mat(size_t(W) * H);
      cs.push_back(blockAxis("ba_rows_f32", {i, o, i32(W), i32(H)}, W, H, 1, b));
    }
  {
    auto [i, o] = mat(size_t(4096) * 4096);
    cs.push_back(blockAxis("ba_rows_f32", {i, o, i32(4096), i32(4096)}, 4096, 4096, 1, 64));  // no 64-thread clone
    cs.push_back(blockAxis("ba_rows_f32", {i, o, i32(256), i32(256)}, 256, 256, 1, 256));     // 2^16 threads
    cs.push_back(blockAxis("ba_rows_scale_f64", {in(Elem::F64, size_t(3000) * 1001), out(Elem::F64, size_t(3000) * 1001),
                                                  i32(3000), i32(1001), f32(1.5f)},
                           3000, 1001, 1, 256));
  }
  for (unsigned C : {64u, 3u, 16u, 256u})
    for (unsigned P : {56u, 100u}) {
      const unsigned HW = P * P, N = 16;
      auto [i, o] = mat(size_t(N) * C * HW);
      cs.push_back(blockAxis("ba_nchw_nhwc_f32", {i, o, i32(C), i32(HW)}, HW, C, N, 256));
      cs.push_back(blockAxis("ba_nhwc_nchw_gather_f32", {i, o, i32(C), i32(HW)}, HW, C, N, 128));
      cs.push_back(blockAxis("ba_nchw_nhwc_z_u8", {in(Elem::I8, size_t(N) * C * HW), out(Elem::I8, size_t(N) * C * HW),
                                                   i32(C), i32(HW)},
                             HW, C, N, 512, true));
    }
}

/// A kernel of tests/lit/transpose/Inputs/flat.cu (a 1-D launch of b-thread
/// blocks over the W x H elements, the index split by W): the flat clone
/// for 64-1024-thread blocks (powers of two) and 2^20 threads, else the
/// original; `clone` false: the original (a lookalike).
Case flat(const std::string &kernel, std::vector<Arg> args, unsigned W, unsigned H, unsigned b, bool clone = true) {
  const uint64_t n = uint64_t(W) * H;
  const unsigned g = unsigned((n + b - 1) / b);
  Case c = makeCase("transpose flat: " + kernel + " " + std::to_string(W) + "x" + std::to_string(H) + " b" +
                        std::to_string(b),
                    "transpose_flat", kernel, std::move(args), {g, 1, 1}, {b, 1, 1});
  const bool fits = clone && W >= 32 && uint64_t(g) * b >= uint64_t(32) * W && b >= 64 && b <= 1024 && (b & (b - 1)) == 0 &&
                    uint64_t(g) * b >= (uint64_t(1) << 20);
  c.expect = fits ? "=" + kernel + "__ptxopt_tiledflat" : "original";
  c.big = n >= (uint64_t(1) << 24);
  return c;
}

/// The flat form at square, odd and unaligned sizes, every element size
/// and block size, the gather form, fused work, a bound of its own; no
/// variant for 96-thread blocks, the original under 2^20 threads and for
/// the lookalikes (two splits, in place).
void addFlat(std::vector<Case> &cs) {
  auto mat = [](Elem e, unsigned W, unsigned H) {
    const size_t n = size_t(W) * H;
    return std::vector<Arg>{in(e, n), out(e, n), i32(int32_t(W)), i32(int32_t(H))};
  };
  for (auto [W, H, b] : {std::tuple{8192u, 8192u, 256u}, {8191u, 8193u, 128u}, {1920u, 1080u, 1024u},
                         {1000u, 3000u, 64u}, {4000u, 3001u, 512u}, {4096u, 4096u, 96u}, {256u, 256u, 256u}})
    cs.push_back(flat("flat_f32", mat(Elem::F32, W, H), W, H, b));
  for (auto [W, H, b] : {std::tuple{8192u, 8192u, 256u}, {1000u, 3000u, 512u}, {8191u, 8193u, 256u}}) {
    cs.push_back(flat("flat_u8", mat(Elem::I8, W, H), W, H, b));
    cs.push_back(flat("flat_u16", mat(Elem::I16, W, H), W, H, b));
  }
  for (auto [W, H, b] : {std::tuple{4096u, 4096u, 256u}, {1000u, 3000u, 128u}})
    cs.push_back(flat("flat_f64", mat(Elem::F64, W, H), W, H, b));
  for (auto [W, H, b] : {std::tuple{8192u, 8192u, 256u}, {1000u, 3000u, 256u}, {8191u, 8193u, 1024u}})
    cs.push_back(flat("flat_gather", mat(Elem::F32, W, H), W, H, b));
  {
    const unsigned W = 4000, H = 3001;
    auto a = mat(Elem::F32, W, H);
    a.push_back(i32(int32_t(W * H - 5)));  // the last five elements stay unwritten
    cs.push_back(flat("flat_total", a, W, H, 256));
    auto s = mat(Elem::F32, 8191, 8193);
    s.push_back(f32(1.5f));
    cs.push_back(flat("flat_scale", s, 8191, 8193, 256));
    const size_t n = size_t(1920) * 1080;
    cs.push_back(flat("flat_rot90_u8_f32", {in(Elem::I8, n), out(Elem::F32, n), i32(1920), i32(1080)}, 1920, 1080, 256));
    cs.push_back(flat("flat_inplace", {in(Elem::F32, size_t(2048) * 2048), i32(2048), i32(2048)}, 2048, 2048, 256, false));
    // Thin: 3 rows (fewer than 32: the clone runs the original's code on
    // its flat indices), and 8 columns (under the clone's 32: the original).
    cs.push_back(flat("flat_f32", mat(Elem::F32, 1000000, 3), 1000000, 3, 256));
    cs.push_back(flat("flat_f32", mat(Elem::F32, 8, 400000), 8, 400000, 256));
  }
  // Flat permutes (two splits): NCHW -> NHWC and back, N = 16, C = 64 and
  // 256 (and 3: thin), 56 x 56 and 224 x 224 planes; bytes.
  auto permute = [&](const std::string &kernel, Elem e, unsigned N, unsigned C, unsigned HW, unsigned b) {
    const size_t n = size_t(N) * C * HW;
    const bool nhwc = kernel == "flat_nhwc_nchw";  // (C, HW) in the other order of the split
    Case c = flat(kernel, {in(e, n), out(e, n), i32(int32_t(C)), i32(int32_t(HW)), i32(int32_t(n))}, nhwc ? C : HW,
                  unsigned(n / (nhwc ? C : HW)), b, C >= 32 && HW >= 32);  // C = 3: under 32 channels, the original
    c.name = "transpose flat: " + kernel + " N" + std::to_string(N) + " C" + std::to_string(C) + " HW" +
             std::to_string(HW) + " b" + std::to_string(b);
    return c;
  };
  cs.push_back(permute("flat_nchw_nhwc", Elem::F32, 16, 64, 56 * 56, 256));
  cs.push_back(permute("flat_nchw_nhwc", Elem::F32, 16, 256, 56 * 56, 256));
  cs.push_back(permute("flat_nchw_nhwc", Elem::F32, 16, 64, 224 * 224, 512));
  cs.push_back(permute("flat_nchw_nhwc", Elem::F32, 16, 3, 224 * 224, 256));
  cs.push_back(permute("flat_nchw_nhwc", Elem::F32, 16, 37, 50 * 50, 128));
  cs.push_back(permute("flat_nhwc_nchw", Elem::F32, 16, 64, 56 * 56, 256));
  cs.push_back(permute("flat_nhwc_nchw", Elem::F32, 16, 64, 224 * 224, 256));
  cs.push_back(permute("flat_nchw_nhwc_u8", Elem::I8, 16, 64, 224 * 224, 256));
  cs.push_back(permute("flat_nchw_nhwc_u8", Elem::I8, 16, 256, 56 * 56, 1024));
  // The forms users write (Inputs/flat.cu's last kernels).
  for (auto [W, H, b] : {std::tuple{8192u, 8192u, 256u}, {1000u, 3000u, 128u}}) {
    cs.push_back(flat("flat_early", mat(Elem::F32, W, H), W, H, b));
    cs.push_back(flat("flat_sizet", mat(Elem::F32, W, H), W, H, b));
    cs.push_back(flat("flat_half", mat(Elem::F16, W, H), W, H, b));
    const size_t n = size_t(W) * H;
    cs.push_back(flat("flat_scalecol", {in(Elem::F32, n), in(Elem::F32, W), out(Elem::F32, n), i32(int32_t(W)), i32(int32_t(H))}, W, H, b));
    cs.push_back(flat("flat_rowbias", {in(Elem::F32, n), in(Elem::F32, H), out(Elem::F32, n), i32(int32_t(W)), i32(int32_t(H))}, W, H, b));
  }
  {
    const unsigned W = 1000, H = 300, B = 11;  // the batch: an image of W x H, B of them
    const size_t n = size_t(W) * H * B;
    Case c = flat("flat_batch3", {in(Elem::F32, n), out(Elem::F32, n), i32(W), i32(H), i32(B)}, W, H * B, 256, true);
    c.name = "transpose flat: flat_batch3 1000x300x11 b256";
    cs.push_back(c);
  }
}

/// A flat grid-stride kernel of tests/lit/transpose/Inputs/gridstride.cu
/// launched with `g` blocks of b threads over n elements: the flat clone
/// where each thread's loop runs once (g * b >= n, the manifest's
/// gridStrideOnce) and the flat form's own conditions hold; where the
/// threads loop several times (fewer of them), the loop clone
/// (`__ptxopt_tiledloop`: n from 2^20 to under 2^30 and 32 rows of W or
/// more, whatever the grid); else the original.
Case gridStride(const std::string &kernel, std::vector<Arg> args, unsigned W, uint64_t n, unsigned g, unsigned b) {
  Case c = makeCase("transpose gridstride: " + kernel + " n" + std::to_string(n) + " w" + std::to_string(W) + " " +
                        std::to_string(g) + "x" + std::to_string(b),
                    "transpose_gridstride", kernel, std::move(args), {g, 1, 1}, {b, 1, 1});
  const uint64_t t = uint64_t(g) * b;
  const bool block = W >= 32 && b >= 64 && b <= 1024 && (b & (b - 1)) == 0 && t < (uint64_t(1) << 30);
  const bool fits = block && t >= n && t >= uint64_t(32) * W && t >= (uint64_t(1) << 20);
  const bool loops = block && n >= (uint64_t(1) << 20) && n < (uint64_t(1) << 30) && n >= uint64_t(32) * W;
  c.expect = fits ? "=" + kernel + "__ptxopt_tiledflat" : loops ? "=" + kernel + "__ptxopt_tiledloop" : "original";
  c.big = n >= (uint64_t(1) << 24);
  return c;
}

/// Grid-stride kernels (Caffe's CUDA_KERNEL_LOOP form and nested loops over
/// a matrix) launched with a thread per element (the clones), with a grid
/// of a few blocks per SM (each thread loops: the original), and the
/// lookalikes (the original).
void addGridStride(std::vector<Case> &cs) {
  auto mat = [](Elem e, unsigned W, unsigned H, bool withN) {
    const size_t n = size_t(W) * H;
    std::vector<Arg> a{in(e, n), out(e, n), i32(int32_t(W)), i32(int32_t(H))};
    if (withN) a.push_back(i32(int32_t(n)));
    return a;
  };
  auto cover = [](uint64_t n, unsigned b) { return unsigned((n + b - 1) / b); };
  for (auto [W, H, b] : {std::tuple{8192u, 8192u, 256u}, {8191u, 8193u, 512u}, {1920u, 1080u, 1024u}, {1000u, 3000u, 128u}}) {
    const uint64_t n = uint64_t(W) * H;
    cs.push_back(gridStride("gs_f32", mat(Elem::F32, W, H, true), W, n, cover(n, b), b));
    cs.push_back(gridStride("gs_wh", mat(Elem::F32, W, H, false), W, n, cover(n, b), b));
  }
  // A grid of 4 blocks per SM (132 SMs) and one of half the elements: the loops run several times
  // (the loop clone); grids of 1 and 2 blocks per SM, and of 4 blocks.
  cs.push_back(gridStride("gs_f32", mat(Elem::F32, 4096, 4096, true), 4096, 4096u * 4096, 528, 256));
  cs.push_back(gridStride("gs_f32", mat(Elem::F32, 4096, 4096, true), 4096, 4096u * 4096, cover(4096u * 4096, 512) / 2, 256));
  cs.push_back(gridStride("gs_wh", mat(Elem::F32, 4096, 4096, false), 4096, 4096u * 4096, 8192, 256));
  for (unsigned g : {132u, 264u, 4u})
    cs.push_back(gridStride("gs_f32", mat(Elem::F32, 8192, 8192, true), 8192, 8192u * 8192, g, 1024));
  cs.push_back(gridStride("gs_f32", mat(Elem::F32, 8191, 8193, true), 8191, 8191u * 8193, 1056, 128));
  cs.push_back(gridStride("gs_u8", mat(Elem::I8, 8192, 8192, true), 8192, 8192u * 8192, 528, 512));
  cs.push_back(gridStride("gs_u16", mat(Elem::I16, 8191, 8193, true), 8191, 8191u * 8193, 264, 256));
  cs.push_back(gridStride("gs_f64", mat(Elem::F64, 4096, 4096, true), 4096, 4096u * 4096, 528, 64));
  // Thin: 20 columns, 7 rows (the loop clone's thin path ran 0.94x there: its
  // condition asks 32 rows, the original runs; the emulator runs the path).
  cs.push_back(gridStride("gs_f32", mat(Elem::F32, 20, 200000, true), 20, 20u * 200000, 64, 256));
  cs.push_back(gridStride("gs_f32", mat(Elem::F32, 400000, 7, true), 400000, 400000u * 7, 64, 256));
  // A bound under the loop clone's floor (2^20): the original.
  cs.push_back(gridStride("gs_f32", mat(Elem::F32, 1000, 1000, true), 1000, 1000u * 1000, 64, 256));
  // More threads than elements (a rounded-up grid), a count below W * H, a small matrix (under 2^20 threads).
  cs.push_back(gridStride("gs_f32", mat(Elem::F32, 3000, 1000, true), 3000, 3000u * 1000, 4096, 1024));
  {
    auto a = mat(Elem::F32, 4000, 3001, false);
    const uint64_t n = 4000u * 3001 - 5;  // the last five elements stay unwritten
    a.insert(a.begin(), i32(int32_t(n)));
    a.push_back(f32(1.7f));
    cs.push_back(gridStride("gs_scale", a, 4000, n, cover(n, 256), 256));
  }
  cs.push_back(gridStride("gs_f32", mat(Elem::F32, 256, 256, true), 256, 65536, 256, 256));
  for (auto [W, H, b] : {std::tuple{8192u, 8192u, 256u}, {8191u, 8193u, 1024u}}) {
    const uint64_t n = uint64_t(W) * H;
    cs.push_back(gridStride("gs_u8", mat(Elem::I8, W, H, true), W, n, cover(n, b), b));
    cs.push_back(gridStride("gs_u16", mat(Elem::I16, W, H, true), W, n, cover(n, b), b));
  }
  cs.push_back(gridStride("gs_f64", mat(Elem::F64, 4096, 4096, true), 4096, 4096u * 4096, cover(4096u * 4096, 256), 256));
  // NCHW -> NHWC, N = 16 (W is HW; C >= 32 is the second split's floor).
  for (auto [C, P, b] : {std::tuple{64u, 56u, 256u}, {256u, 56u, 512u}, {64u, 224u, 256u}, {3u, 224u, 256u}}) {
    const uint64_t n = uint64_t(16) * C * P * P;
    Case c = gridStride("gs_nchw_nhwc",
                        {in(Elem::F32, n), out(Elem::F32, n), i32(int32_t(C)), i32(int32_t(P * P)), i32(int32_t(n))},
                        P * P, n, cover(n, b), b);
    if (C < 32) c.expect = "original";
    c.name += " C" + std::to_string(C);
    cs.push_back(c);
  }
  {  // the same with a grid of 2 blocks per SM: the loop clone
    const uint64_t n = uint64_t(16) * 64 * 224 * 224;
    Case c = gridStride("gs_nchw_nhwc",
                        {in(Elem::F32, n), out(Elem::F32, n), i32(64), i32(224 * 224), i32(int32_t(n))}, 224 * 224, n,
                        264, 256);
    c.name += " C64";
    cs.push_back(c);
  }
  // Nested loops over the matrix, 2-D blocks: a thread per element (the
  // tiled clones), and a grid of 16 x 256 blocks (2^20 threads or more,
  // each thread looping along x: the original).
  for (auto [W, H, bx, by] : {std::tuple{8192u, 8192u, 16u, 16u}, {8191u, 8193u, 32u, 8u}, {1920u, 1080u, 32u, 32u}}) {
    for (auto [kernel, e] : {std::pair{"gs_2d", Elem::F32}, std::pair{"gs_2d_u8", Elem::I8}}) {
      Case c = makeCase("transpose gridstride: " + std::string(kernel) + " " + std::to_string(W) + "x" + std::to_string(H) +
                            " b" + std::to_string(bx) + "x" + std::to_string(by),
                        "transpose_gridstride", kernel, mat(e, W, H, false), {(W + bx - 1) / bx, (H + by - 1) / by, 1},
                        {bx, by, 1});
      c.expect = expected(kernel, bx, by, uint64_t(c.grid[0]) * c.grid[1] * bx * by, false);
      c.big = uint64_t(W) * H >= (uint64_t(1) << 24);
      cs.push_back(c);
      Case few = makeCase("transpose gridstride: " + std::string(kernel) + " " + std::to_string(W) + "x" +
                              std::to_string(H) + " grid 16x256 b" + std::to_string(bx) + "x" + std::to_string(by),
                          "transpose_gridstride", kernel, mat(e, W, H, false), {16, 256, 1}, {bx, by, 1});
      few.expect = "original";
      cs.push_back(few);
    }
  }
  // Loops that can leave early (tests/lit/transpose/Inputs/gridstride-exit.cu):
  // a thread per element, the one-element clone; a grid of 4 blocks per SM
  // (each thread loops), the original: no loop clone (a break or return ends
  // a thread's later iterations); the same loop without an exit, the loop clone.
  {
    const unsigned W = 4096, H = 4096;
    const uint64_t n = uint64_t(W) * H;
    for (unsigned g : {cover(n, 256), 528u}) {
      Case br = gridStride("gx_break", {inZeros(Elem::F32, n, 5000), out(Elem::F32, n), i32(int32_t(W)), i32(int32_t(H)),
                                        i32(int32_t(n))},
                           W, n, g, 256);
      if (g == 528) br.expect = "original";
      br.name = "transpose gridstride exit: break " + std::to_string(g) + "x256";
      cs.push_back(br);
      Case rt = gridStride("gx_return", {in(Elem::F32, n), out(Elem::F32, n), i32(int32_t(W)), i32(int32_t(H)),
                                         i32(int32_t(n)), i32(3000)},
                           W, n, g, 256);
      if (g == 528) rt.expect = "original";
      rt.name = "transpose gridstride exit: return " + std::to_string(g) + "x256";
      cs.push_back(rt);
    }
    Case plain = gridStride("gx_plain", mat(Elem::F32, W, H, true), W, n, 528, 256);
    plain.name = "transpose gridstride exit: none 528x256";
    cs.push_back(plain);
  }
  // Lookalikes: a carried sum, a step of two grids, a computed bound.
  {
    const unsigned W = 2048;
    const uint64_t n = uint64_t(W) * W;
    Case sum = gridStride("gs_sum", {in(Elem::F32, n), out(Elem::F32, n), i32(int32_t(W)), i32(int32_t(n))}, W, n,
                          cover(n, 256), 256);
    sum.expect = "original";
    cs.push_back(sum);
    for (const char *k : {"gs_step2", "gs_nm1"}) {
      Case c = gridStride(k, mat(Elem::F32, W, W, true), W, n, cover(n, 256), 256);
      c.expect = "original";
      cs.push_back(c);
    }
  }
}

/// Flat permutes split three times (tests/lit/transpose/Inputs/split3.cu):
/// NCHW -> NHWC read in order and as a chain of quotients, NHWC written in
/// order, NHWC -> NCHW; N = 16, C = 64 and 256, 56 x 56 and 224 x 224
/// planes, bytes, one parameter for H and W; the flat clone where digit 0's
/// radix and the tile's second axis are 32 or more (the middle radix at
/// least 1), 64-1024-thread blocks and 2^20 threads (2^22 for the gather
/// form; a product radix: each factor at least 6 of two, 4 of three); else
/// the original (3 channels, 28 x 28 planes, 4 x 4 planes, four splits).
void addSplit3(std::vector<Case> &cs) {
  auto split3 = [&](const std::string &kernel, Elem e, unsigned N, unsigned C, unsigned H, unsigned W, unsigned b) {
    const uint64_t n = uint64_t(N) * C * H * W;
    const unsigned g = unsigned((n + b - 1) / b);
    std::vector<Arg> a{in(e, n), out(e, n)};
    unsigned r0 = W, axis = C;  // digit 0's radix and the tile's second axis'
    if (kernel == "s3_nhwc_gather" || kernel == "s3_nhwc_nchw") r0 = C, axis = W;
    if (kernel == "s2_nhwc_gather") r0 = C, axis = H * W;
    // A product radix: each factor at least 6 (H*W) or 4 (D*H*W).
    bool factors = true;
    if (kernel == "s3_hw" || kernel == "s3_hw_back") {
      factors = H >= 6 && W >= 6;
      (kernel == "s3_hw" ? r0 : axis) = H * W;
      (kernel == "s3_hw" ? axis : r0) = C;
    }
    if (kernel == "s3_dhw") factors = H >= 4 && W >= 4, r0 = 4 * H * W, axis = C;
    if (kernel == "s3_u8") {
      for (unsigned v : {C, H, W, unsigned(n - 3)}) a.push_back(i32(int32_t(v)));  // the last three stay unwritten
    } else if (kernel == "s3_square") {
      for (unsigned v : {C, W, unsigned(n)}) a.push_back(i32(int32_t(v)));
      a.push_back(f32(1.25f));
    } else if (kernel == "s3_hw" || kernel == "s3_hw_back") {
      for (unsigned v : {C, H, W, unsigned(n)}) a.push_back(i32(int32_t(v)));
    } else if (kernel == "s3_dhw") {
      for (unsigned v : {C, 4u, H, W, unsigned(n)}) a.push_back(i32(int32_t(v)));  // D = 4: N / 4 volumes of 4 x H x W
    } else if (kernel == "s2_nhwc_gather") {
      for (unsigned v : {C, H * W, unsigned(n)}) a.push_back(i32(int32_t(v)));
    } else if (kernel == "s3_four") {
      for (unsigned v : {C, 4u, H, W, unsigned(n)}) a.push_back(i32(int32_t(v)));  // D = 4 of the N
    } else {
      for (unsigned v : {N, C, H, W}) a.push_back(i32(int32_t(v)));
    }
    Case c = makeCase("transpose split3: " + kernel + " N" + std::to_string(N) + " C" + std::to_string(C) + " " +
                          std::to_string(H) + "x" + std::to_string(W) + " b" + std::to_string(b),
                      "transpose_split3", kernel, std::move(a), {g, 1, 1}, {b, 1, 1});
    const uint64_t t = uint64_t(g) * b;
    const bool gather = kernel == "s3_nhwc_gather" || kernel == "s2_nhwc_gather";  // the load along M: from 2^22 threads
    const bool fits = kernel != "s3_four" && factors && r0 >= 32 && axis >= 32 && b >= 64 && b <= 1024 && (b & (b - 1)) == 0 &&
                      t >= (uint64_t(1) << (gather ? 22 : 20)) && t < (uint64_t(1) << 31);
    c.expect = fits ? "=" + kernel + "__ptxopt_tiledflat" : "original";
    c.big = n >= (uint64_t(1) << 24);
    return c;
  };
  for (const char *k : {"s3_nchw_nhwc", "s3_nhwc_gather", "s3_nhwc_nchw", "s3_chain"}) {
    cs.push_back(split3(k, Elem::F32, 16, 64, 56, 56, 256));
    cs.push_back(split3(k, Elem::F32, 16, 64, 224, 224, 512));
    cs.push_back(split3(k, Elem::F32, 16, 37, 50, 50, 128));  // edges: 37 channels, 50-wide rows
    cs.push_back(split3(k, Elem::F32, 16, 64, 32, 32, 1024));  // 2^20 threads: the smallest launch the clone takes
  }
  cs.push_back(split3("s3_nchw_nhwc", Elem::F32, 16, 256, 56, 56, 256));
  cs.push_back(split3("s3_nhwc_gather", Elem::F32, 16, 256, 56, 56, 256));
  cs.push_back(split3("s3_nchw_nhwc", Elem::F32, 16, 3, 224, 224, 256));  // 3 channels: the original
  cs.push_back(split3("s3_nchw_nhwc", Elem::F32, 8, 512, 28, 28, 256));   // 28-wide rows: the original
  cs.push_back(split3("s3_u8", Elem::I8, 16, 64, 224, 224, 256));
  cs.push_back(split3("s3_u8", Elem::I8, 16, 256, 56, 56, 1024));
  cs.push_back(split3("s3_square", Elem::F32, 16, 64, 56, 56, 256));
  cs.push_back(split3("s3_four", Elem::F32, 4, 64, 28, 28, 256));
  // A product of parameters as a radix (H*W, D*H*W; N counts the volumes).
  cs.push_back(split3("s3_hw", Elem::F32, 16, 64, 56, 56, 256));
  cs.push_back(split3("s3_hw", Elem::F32, 16, 256, 224, 224, 512));
  cs.push_back(split3("s3_hw", Elem::F32, 16, 37, 50, 50, 128));
  cs.push_back(split3("s3_hw", Elem::F32, 64, 64, 4, 4, 256));  // 4 x 4 planes: the original
  cs.push_back(split3("s3_hw_back", Elem::F32, 16, 64, 56, 56, 256));
  cs.push_back(split3("s3_hw_back", Elem::F32, 16, 64, 224, 224, 256));
  cs.push_back(split3("s3_dhw", Elem::F32, 64, 64, 28, 28, 256));  // 16 volumes of 4 x 28 x 28
  // Two splits gathered (HW one parameter): the batched gather's floor.
  cs.push_back(split3("s2_nhwc_gather", Elem::F32, 16, 64, 56, 56, 256));
  cs.push_back(split3("s2_nhwc_gather", Elem::F32, 16, 256, 56, 56, 256));
  cs.push_back(split3("s2_nhwc_gather", Elem::F32, 16, 64, 224, 224, 512));
}

}  // namespace

std::string transposeExpected(const std::string &kernel, unsigned bx, unsigned by, uint64_t threads, bool elements1) {
  return expected(kernel, bx, by, threads, elements1);
}

void addTranspose(std::vector<Case> &cs) {
  addSweep(cs);
  addUnrolled(cs);
  addBlockAxis(cs);
  addFlat(cs);
  addGridStride(cs);
  addSplit3(cs);
  addTransposeForms(cs);
  const std::pair<const char *, Elem> naive[] = {{"transpose_f32", Elem::F32}, {"transpose_f64", Elem::I64},
                                                 {"transpose_i32", Elem::I32}, {"transpose_i16", Elem::I16},
                                                 {"transpose_i8", Elem::I8}};
  const std::array<unsigned, 2> sizes[] = {{1000, 3000}, {8191, 8193}, {256, 256}, {2048, 2048}};
  for (auto [kernel, e] : naive)
    for (auto [W, H] : sizes)
      for (unsigned b : {16u, 32u}) cs.push_back(tr(kernel, e, e, W, H, b, b, 0));
  // 32 x 8 and 8 x 32 blocks (their own clones), and the tiled-only
  // shapes 32 x 4, 16 x 8, 8 x 8 and 32 x 16 (tiled clones since the
  // seventeenth session; 256 x 256 under the floor: the original); 16 x 4
  // (eighteenth) and 64 x 4 (nineteenth: a block two tiles wide) below.
  for (auto [kernel, e] : naive)
    for (auto [bx, by] : {std::pair{32u, 8u}, std::pair{8u, 32u}, std::pair{16u, 8u}, std::pair{32u, 4u},
                          std::pair{8u, 8u}, std::pair{32u, 16u}}) {
      cs.push_back(tr(kernel, e, e, 1000, 3000, bx, by, 0));
      cs.push_back(tr(kernel, e, e, 8191, 8193, bx, by, 0));
    }
  for (auto [kernel, e] : naive) cs.push_back(tr(kernel, e, e, 8191, 8193, 64, 4, 0));
  // 64 x 8, 128 x 2 and 128 x 4 (twenty-sixth session: blocks bx/32 tiles
  // wide, as 64 x 4): every element size at the edges, the rotation, the
  // fused scale and the gather form at 1920 x 1080, 256 x 256 under the floor.
  for (auto [bx, by] : {std::pair{64u, 8u}, std::pair{128u, 2u}, std::pair{128u, 4u}}) {
    for (auto [kernel, e] : naive) cs.push_back(tr(kernel, e, e, 8191, 8193, bx, by, 0));
    cs.push_back(tr("transpose_f32", Elem::F32, Elem::F32, 1000, 3000, bx, by, 0));
    cs.push_back(tr("transpose_f32", Elem::F32, Elem::F32, 256, 256, bx, by, 0));
    cs.push_back(tr("rotate90_u8", Elem::I8, Elem::I8, 1920, 1080, bx, by, 0));
    cs.push_back(tr("transpose_scale_f32", Elem::F32, Elem::F32, 1920, 1080, bx, by, 1));
    cs.push_back(tr("transpose_gather_f32", Elem::F32, Elem::F32, 1000, 3000, bx, by, 0));
  }
  for (auto [bx, by] : {std::pair{32u, 4u}, std::pair{8u, 8u}, std::pair{16u, 4u}, std::pair{64u, 4u}}) {
    cs.push_back(tr("transpose_f32", Elem::F32, Elem::F32, 256, 256, bx, by, 0));
    cs.push_back(tr("transpose_f32", Elem::F32, Elem::F32, 1000, 3000, bx, by, 0, true));  // elements=1: none
    cs.push_back(tr("rotate90_u8", Elem::I8, Elem::I8, 1920, 1080, bx, by, 0));
    cs.push_back(tr("transpose_scale_f32", Elem::F32, Elem::F32, 1920, 1080, bx, by, 1));
  }
  // -O2: coalesce's swap takes the fused kernels; the tiled clones of the
  // tiled-only shapes come first (timed faster than the swap: 1.13-4.82x).
  cs.push_back(tr("transpose_add_f32", Elem::F32, Elem::F32, 1920, 1080, 32, 4, 2));
  cs.push_back(tr("transpose_u8_f32", Elem::I8, Elem::F32, 1920, 1080, 8, 8, 1));
  // 1- and 2-byte elements at 1920 x 1080 (the benchmark's size; the tiled
  // clones' index split along %tid.y + 8j for 16 x 16 and 32 x 8 blocks).
  for (auto [kernel, e] : {std::pair{"transpose_i8", Elem::I8}, std::pair{"transpose_i16", Elem::I16}})
    for (auto [bx, by] : {std::pair{16u, 16u}, std::pair{32u, 8u}, std::pair{8u, 32u}})
      cs.push_back(tr(kernel, e, e, 1920, 1080, bx, by, 0));
  // The one-element clones (transpose-elements=1): every element size and shape at the edges.
  for (auto [kernel, e] : naive)
    for (auto [bx, by] : {std::pair{16u, 16u}, std::pair{32u, 32u}, std::pair{32u, 8u}, std::pair{8u, 32u}})
      cs.push_back(tr(kernel, e, e, 1000, 3000, bx, by, 0, true));
  cs.push_back(tr("rotate90_u8", Elem::I8, Elem::I8, 1920, 1080, 32, 8, 0));
  cs.push_back(tr("transpose_gather_f32", Elem::F32, Elem::F32, 1000, 3000, 32, 8, 0));
  cs.push_back(tr("transpose_gather_f32", Elem::F32, Elem::F32, 1000, 3000, 8, 32, 0));
  cs.push_back(tr("transpose_gather_f32", Elem::F32, Elem::F32, 8191, 8193, 8, 32, 0, true));
  for (auto [W, H] : sizes)
    for (unsigned b : {16u, 32u}) {
      cs.push_back(tr("transpose_gather_f32", Elem::F32, Elem::F32, W, H, b, b, 0));
      cs.push_back(tr("transpose_scale_f32", Elem::F32, Elem::F32, W, H, b, b, 1));
      // coalesce's swap improves these two, so -O2 keeps its clones: the
      // transpose pass alone.
      const std::tuple<const char *, Elem, int> fused[] = {{"transpose_add_f32", Elem::F32, 2},
                                                            {"transpose_u8_f32", Elem::I8, 1}};
      for (auto [kernel, in, extra] : fused) {
        cs.push_back(tr(kernel, in, Elem::F32, W, H, b, b, extra));
        cs.back().passes = "transpose";
      }
      cs.push_back(tr("rotate90_u8", Elem::I8, Elem::I8, W, H, b, b, 0));
      cs.push_back(tr("rotate90_u32", Elem::I32, Elem::I32, W, H, b, b, 0));
    }
  // uchar4 (one u32), float4 (16-byte elements: 4 floats each), 64-bit indices.
  for (unsigned b : {16u, 32u}) {
    cs.push_back(tr("rotate90_rgba", Elem::I32, Elem::I32, 1920, 1080, b, b, 0));
    for (bool e1 : {false, true}) {
      Case f4 = tr("transpose_f4", Elem::F32, Elem::F32, 1000, 3000, b, b, 0, e1);
      f4.args[0].count *= 4;
      f4.args[1].count *= 4;
      cs.push_back(f4);
    }
    Case wide = tr("transpose_f32_size_t", Elem::F32, Elem::F32, 1000, 3000, b, b, 0);
    wide.args[2] = i64(1000);
    wide.args[3] = i64(3000);
    cs.push_back(wide);
  }
  // NCHW <-> NHWC, N = 16 images (%ctaid.z): C = 64, 256 and 3 (under the
  // floor), 56 x 56 planes; C = 64 at 224 x 224 (big).
  for (const char *kernel : {"nchw_to_nhwc", "nhwc_to_nchw"})
    for (unsigned b : {16u, 32u}) {
      for (unsigned C : {64u, 256u, 3u}) cs.push_back(permute(kernel, 16, C, 56, b));
      cs.push_back(permute(kernel, 16, 64, 224, b));
    }
  // A lookalike (threads read their neighbours): no clone, the original runs.
  // (The in-place lookalike races in the original itself: lit only.)
  Case neighbours = tr("transpose_neighbours", Elem::F32, Elem::F32, 1000, 3000, 16, 16, 0);
  neighbours.expect = "original";
  cs.push_back(neighbours);
}

}  // namespace gpudiff
