// gpu-diff cases of the transpose pass's later forms (docs/PASSES.md,
// "transpose"; issue 30), split from CasesTranspose.cpp: 64-bit flat
// indices (Inputs/wide.cu), compile-time sizes (Inputs/constdiv.cu),
// grid-stride loops with a 64-bit counter (Inputs/counted.cu),
// zero-padding transposes (Inputs/pad.cu) and flat permutes that split the
// outer index first (Inputs/flatrem.cu), every output compared bit for bit
// with the original's.
#include <tuple>

#include "Cases.h"

namespace gpudiff {

namespace {

/// A 64-bit flat index (tests/lit/transpose/Inputs/wide.cu; nvcc's 64-bit
/// division fast paths folded, TransposeWide.cpp): size_t and int64_t
/// transposes, int sizes widened, bytes, doubles gathered, a rotation,
/// NCHW <-> NHWC split two and three times; the flat clone's conditions as
/// addFlat's and addSplit3's; a radix of 2^32 + 40 (the clone chosen, its
/// code the kernel's own: the low half would tile it wrong).
void addWide(std::vector<Case> &cs) {
  auto wide = [&](const std::string &kernel, std::vector<Arg> a, uint64_t n, unsigned r0, unsigned axis, bool oneSplit,
                  unsigned b, const std::string &shape) {
    const unsigned g = unsigned((n + b - 1) / b);
    const uint64_t t = uint64_t(g) * b;
    Case c = makeCase("transpose wide: " + kernel + " " + shape + " b" + std::to_string(b), "transpose_wide", kernel,
                      std::move(a), {g, 1, 1}, {b, 1, 1});
    const bool fits = r0 >= 32 && axis >= (oneSplit ? 1u : 32u) && (!oneSplit || t >= uint64_t(32) * r0) && b >= 64 &&
                      b <= 1024 && (b & (b - 1)) == 0 && t >= (uint64_t(1) << 20) && t < (uint64_t(1) << 31);
    c.expect = fits ? "=" + kernel + "__ptxopt_tiledflat" : "original";
    c.big = n >= (uint64_t(1) << 24);
    return c;
  };
  auto mat = [&](const std::string &kernel, Elem e, unsigned W, unsigned H, unsigned b, bool ints = false) {
    const uint64_t n = uint64_t(W) * H;
    std::vector<Arg> a{in(e, n), out(e, n)};
    if (ints) a.push_back(i32(int32_t(H))), a.push_back(i32(int32_t(W)));
    else a.push_back(i64(H)), a.push_back(i64(W));
    return wide(kernel, std::move(a), n, W, H, true, b, std::to_string(W) + "x" + std::to_string(H));
  };
  for (auto [W, H, b] : {std::tuple{8192u, 8192u, 256u}, {8191u, 8193u, 1024u}, {1000u, 3000u, 128u}, {256u, 256u, 256u}})
    cs.push_back(mat("wide_sizet", Elem::F32, W, H, b));
  for (auto [W, H, b] : {std::tuple{4096u, 4096u, 512u}, {1000u, 3000u, 64u}})
    cs.push_back(mat("wide_int_params", Elem::F32, W, H, b, true));
  for (auto [W, H, b] : {std::tuple{8192u, 8192u, 256u}, {1920u, 1080u, 256u}})
    cs.push_back(mat("wide_u8", Elem::I8, W, H, b));
  for (auto [W, H, b] : {std::tuple{4096u, 4096u, 256u}, {1000u, 3000u, 128u}})
    cs.push_back(mat("wide_gather_f64", Elem::F64, W, H, b));
  for (auto [W, H, b] : {std::tuple{8192u, 8192u, 256u}, {1920u, 1080u, 512u}})
    cs.push_back(mat("wide_rot90", Elem::I32, W, H, b));
  cs.push_back(mat("wide_sizet", Elem::F32, 8, 400000, 256));  // 8 columns: the original
  for (const char *k : {"wide_u32_index", "wide_int_index"}) {  // a 32-bit index over size_t sizes
    cs.push_back(mat(k, Elem::F32, 8192, 8192, 256));
    cs.push_back(mat(k, Elem::F32, 1000, 3000, 128));
  }
  // NCHW -> NHWC split three times (int64_t sizes, and int sizes).
  auto split3 = [&](const std::string &kernel, unsigned N, unsigned C, unsigned P, unsigned b) {
    const uint64_t n = uint64_t(N) * C * P * P;
    std::vector<Arg> a{in(Elem::F32, n), out(Elem::F32, n)};
    for (unsigned v : {N, C, P, P}) a.push_back(kernel == "wide_nchw_int" ? i32(int32_t(v)) : i64(v));
    return wide(kernel, std::move(a), n, P, C, false, b,
                "N" + std::to_string(N) + " C" + std::to_string(C) + " " + std::to_string(P) + "x" + std::to_string(P));
  };
  for (const char *k : {"wide_nchw_nhwc", "wide_nchw_int"}) {
    cs.push_back(split3(k, 16, 64, 56, 256));
    cs.push_back(split3(k, 16, 256, 56, 512));
    cs.push_back(split3(k, 16, 37, 50, 128));
    cs.push_back(split3(k, 16, 3, 224, 256));  // 3 channels: the original
  }
  cs.push_back(split3("wide_nchw_nhwc", 16, 64, 224, 256));
  // Two splits (the plane one parameter), both ways, a bound of its own.
  auto split2 = [&](const std::string &kernel, unsigned N, unsigned C, unsigned HW, unsigned b) {
    const uint64_t n = uint64_t(N) * C * HW;
    const bool back = kernel == "wide_nhwc_nchw";
    std::vector<Arg> a{in(Elem::F32, n), out(Elem::F32, n), i64(C), i64(HW), i64(int64_t(n) - (back ? 0 : 3))};
    return wide(kernel, std::move(a), n, back ? C : HW, back ? HW : C, false, b,
                "N" + std::to_string(N) + " C" + std::to_string(C) + " HW" + std::to_string(HW));
  };
  cs.push_back(split2("wide_nchw_hw", 16, 64, 56 * 56, 256));
  cs.push_back(split2("wide_nchw_hw", 16, 256, 224 * 224, 512));
  cs.push_back(split2("wide_nhwc_nchw", 16, 64, 56 * 56, 256));
  cs.push_back(split2("wide_nhwc_nchw", 16, 37, 50 * 50, 128));
  {
    // HW = 2^32 + 40 and C = 40: the conditions hold (both >= 32), the clone
    // runs, finds the radix past 2^31 - 1 and runs the kernel's code: each
    // of the 2^20 threads writes out[i * 40].
    const uint64_t n = uint64_t(1) << 20;
    std::vector<Arg> a{in(Elem::F32, n), out(Elem::F32, n * 40), i64(40), i64((int64_t(1) << 32) + 40), i64(int64_t(n))};
    Case c = makeCase("transpose wide: wide_nchw_hw C40 HW2^32+40 b256", "transpose_wide", "wide_nchw_hw", std::move(a),
                      {unsigned(n / 256), 1, 1}, {256, 1, 1});
    c.expect = "=wide_nchw_hw__ptxopt_tiledflat";
    cs.push_back(c);
  }
}

/// Compile-time sizes (tests/gpu/cases/transpose_const.cu, the lit inputs of
/// Inputs/constdiv.cu beside the same shapes at full size; nvcc's divisions
/// by constants folded, TransposeConstDiv.cpp): int, unsigned and size_t
/// indices by powers of two and by other constants (the 33-bit multiplier's
/// form at 8191; a size_t index nvcc narrows under its bound), bytes, doubles, a rotation, a template's sizes, NCHW ->
/// NHWC split two and three times and back; the clone where the launch has
/// 2^20 threads or more (32 rows of a constant width: every shape here), 1-D
/// blocks of 64 to 1024 threads; 256 x 256 (65536 threads), 3 channels and
/// blocks of 32 the original; the lit kernels at their own small sizes the
/// original (under 2^20 threads).
void addConst(std::vector<Case> &cs) {
  auto one = [&](const std::string &kernel, Elem e, uint64_t n, unsigned b, bool clone, const std::string &shape,
                 unsigned extraBlocks = 0) {
    const unsigned g = unsigned((n + b - 1) / b) + extraBlocks;
    const uint64_t t = uint64_t(g) * b;
    Case c = makeCase("transpose const: " + kernel + " " + shape + " b" + std::to_string(b) +
                          (extraBlocks ? " +" + std::to_string(extraBlocks) + " blocks" : ""),
                      "transpose_const", kernel, {in(e, n), out(e, n)}, {g, 1, 1}, {b, 1, 1});
    const bool fits = clone && b >= 64 && b <= 1024 && (b & (b - 1)) == 0 && t >= (uint64_t(1) << 20) &&
                      t < (uint64_t(1) << 31);
    c.expect = fits ? "=" + kernel + "__ptxopt_tiledflat" : "original";
    c.big = n >= (uint64_t(1) << 24);
    return c;
  };
  auto mat = [&](const char *k, Elem e, unsigned W, unsigned H, unsigned b, bool clone = true) {
    return one(k, e, uint64_t(W) * H, b, clone, std::to_string(W) + "x" + std::to_string(H));
  };
  cs.push_back(mat("gc_int_8192", Elem::F32, 8192, 8192, 256));
  cs.push_back(mat("gc_uint_8192", Elem::F32, 8192, 8192, 512));
  cs.push_back(mat("gc_sizet_8192", Elem::F32, 8192, 8192, 1024));
  cs.push_back(mat("gc_int_odd", Elem::F32, 8191, 8193, 128));
  cs.push_back(mat("gc_uint_odd", Elem::F32, 8191, 8193, 256));
  cs.push_back(mat("gc_sizet_odd", Elem::F32, 8191, 8193, 512));
  cs.push_back(mat("gc_int_3000", Elem::F32, 1000, 3000, 64));
  cs.push_back(mat("gc_int_1080", Elem::F32, 1920, 1080, 256));
  cs.push_back(mat("gc_int_256", Elem::F32, 256, 256, 256));  // 65536 threads: the original
  cs.push_back(mat("gc_int_1080", Elem::F32, 1920, 1080, 32));  // blocks of 32: the original
  cs.push_back(mat("gc_u8_8192", Elem::I8, 8192, 8192, 256));
  cs.push_back(mat("gc_f64_4096", Elem::F64, 4096, 4096, 256));
  cs.push_back(mat("gc_rot90_1920", Elem::I32, 1920, 1080, 512));
  cs.push_back(mat("gc_tmpl_f32", Elem::F32, 6000, 4096, 256));
  // A grid-stride loop over a constant range: the clone with a thread per
  // element; with a grid of 528 blocks (each thread loops) the loop clone
  // of the 32-bit counter, the original of the 64-bit one (its traced
  // iteration may carry values: no loop clone).
  for (const char *k : {"gc_gridstride", "gc_gridstride64"}) {  // a 32- and a 64-bit counter
    cs.push_back(mat(k, Elem::F32, 6000, 4096, 256));
    Case c = makeCase(std::string("transpose const: ") + k + " 6000x4096 grid 528 b256", "transpose_const", k,
                      {in(Elem::F32, 6000u * 4096u), out(Elem::F32, 6000u * 4096u)}, {528, 1, 1}, {256, 1, 1});
    c.expect = std::string(k) == "gc_gridstride" ? "=gc_gridstride__ptxopt_tiledloop" : "original";
    c.big = true;
    cs.push_back(c);
  }
  cs.push_back(one("gc_int_1080", Elem::F32, uint64_t(1920) * 1080, 256, true, "1920x1080", 3));  // a grid past the matrix
  const uint64_t plane = 56 * 56;
  cs.push_back(one("gc_nchw_c64", Elem::F32, 16 * 64 * plane, 256, true, "N16 C64 56x56"));
  cs.push_back(one("gc_nchw_c256", Elem::F32, 16 * 256 * plane, 512, true, "N16 C256 56x56"));
  cs.push_back(one("gc_nchw_c3", Elem::F32, 16 * 3 * 224 * 224, 256, false, "N16 C3 224x224"));  // 3 channels: refused
  cs.push_back(one("gc_nchw_sizet", Elem::F32, 16 * 64 * plane, 256, true, "N16 C64 56x56 (size_t)"));
  cs.push_back(one("gc_nchw3_c64", Elem::F32, 16 * 64 * plane, 256, true, "N16 C64 56x56 (H, W apart)"));
  cs.push_back(one("gc_nhwc_c64", Elem::F32, 16 * 64 * plane, 128, true, "N16 C64 56x56 (back)"));
  // The lit kernels at their own sizes (37 x 40 and the like): under 2^20
  // threads, the original (the emulator tests run their clones).
  cs.push_back(mat("cd_int_magic", Elem::F32, 40, 37, 64, false));
  cs.push_back(mat("cd_int_pow2", Elem::F32, 64, 37, 128, false));
}


/// Grid-stride loops with a 64-bit counter (tests/lit/transpose/Inputs/counted.cu;
/// traced, TransposeGridStrideCounted.cpp): PyTorch's CUDA_KERNEL_LOOP over
/// a transpose and NCHW -> NHWC, an int64_t index, a size_t loop over bytes
/// with a bound of its own, a carried sum; the flat clone launched with a
/// thread per element (gridStrideOnce), the original for grids of a few
/// blocks per SM (each thread loops) and for a stride of two grids.
void addCounted(std::vector<Case> &cs) {
  auto counted = [&](const std::string &kernel, std::vector<Arg> a, uint64_t n, unsigned r0, unsigned axis,
                     bool oneSplit, unsigned g, unsigned b, const std::string &shape) {
    const uint64_t t = uint64_t(g) * b;
    Case c = makeCase("transpose counted: " + kernel + " " + shape + " grid " + std::to_string(g) + " b" + std::to_string(b),
                      "transpose_counted", kernel, std::move(a), {g, 1, 1}, {b, 1, 1});
    const bool fits = kernel != "ct_step2" && t >= n && t < (uint64_t(1) << 30) && r0 >= 32 &&
                      axis >= (oneSplit ? 1u : 32u) && (!oneSplit || t >= uint64_t(32) * r0) && b >= 64 && b <= 1024 &&
                      (b & (b - 1)) == 0 && t >= (uint64_t(1) << 20);
    c.expect = fits ? "=" + kernel + "__ptxopt_tiledflat" : "original";
    c.big = n >= (uint64_t(1) << 24);
    return c;
  };
  auto cover = [](uint64_t n, unsigned b) { return unsigned((n + b - 1) / b); };
  auto mat = [&](const std::string &kernel, Elem e, unsigned W, unsigned H, unsigned b, unsigned g = 0) {
    const uint64_t n = uint64_t(W) * H;
    std::vector<Arg> a{in(e, n), out(e, n)};
    if (kernel == "ct_transpose64" || kernel == "ct_step2") a.push_back(i64(H)), a.push_back(i64(W));
    else a.push_back(i32(int32_t(H))), a.push_back(i32(int32_t(W)));
    return counted(kernel, std::move(a), n, W, H, true, g ? g : cover(n, b), b, std::to_string(W) + "x" + std::to_string(H));
  };
  for (auto [W, H, b] : {std::tuple{8192u, 8192u, 256u}, {8191u, 8193u, 1024u}, {1000u, 3000u, 128u}, {256u, 256u, 256u}})
    cs.push_back(mat("ct_transpose", Elem::F32, W, H, b));
  cs.push_back(mat("ct_transpose", Elem::F32, 4096, 4096, 256, 528));  // 4 blocks an SM: each thread loops, the original
  cs.push_back(mat("ct_transpose64", Elem::F32, 4096, 4096, 512));
  cs.push_back(mat("ct_transpose64", Elem::F32, 1000, 3000, 64));
  cs.push_back(mat("ct_sum", Elem::F32, 2048, 2048, 256));
  cs.push_back(mat("ct_step2", Elem::F32, 2048, 2048, 256));
  for (auto [C, P, b] : {std::tuple{64u, 56u, 256u}, {256u, 56u, 512u}, {37u, 50u, 128u}, {3u, 224u, 256u}}) {
    const uint64_t n = uint64_t(16) * C * P * P;
    std::vector<Arg> a{in(Elem::F32, n), out(Elem::F32, n)};
    for (unsigned v : {16u, C, P, P}) a.push_back(i32(int32_t(v)));
    cs.push_back(counted("ct_nchw_nhwc", std::move(a), n, P, C, false, cover(n, b), b,
                         "N16 C" + std::to_string(C) + " " + std::to_string(P) + "x" + std::to_string(P)));
  }
  for (auto [W, H, b] : {std::tuple{8192u, 8192u, 256u}, {1920u, 1080u, 512u}}) {
    const uint64_t n = uint64_t(W) * H;
    cs.push_back(counted("ct_loop_u8", {in(Elem::I8, n), out(Elem::I8, n), i64(H), i64(W), i64(int64_t(n) - 5)}, n - 5, W,
                         H, true, cover(n, b), b, std::to_string(W) + "x" + std::to_string(H)));
  }
}


/// A zero-padding transpose of tests/lit/transpose/Inputs/pad.cu: an H x W
/// matrix into a Wp x Hp one, zeros (or `fill`) past its edges, bx x by
/// blocks over the padded output; the tiled clone where transposeExpected
/// says (`clone` false: a lookalike, the original).
Case pad(const std::string &kernel, Elem e, Elem o, unsigned W, unsigned H, unsigned Wp, unsigned Hp, unsigned bx,
         unsigned by, std::vector<Arg> extra = {}, bool clone = true, bool zeros = false) {
  std::vector<Arg> a{zeros ? inZeros(e, size_t(W) * H, 3) : in(e, size_t(W) * H), out(o, size_t(Wp) * Hp),
                     i32(int32_t(W)), i32(int32_t(H)), i32(int32_t(Wp)), i32(int32_t(Hp))};
  a.insert(a.end(), extra.begin(), extra.end());
  Case c = makeCase("transpose pad: " + kernel + " " + std::to_string(W) + "x" + std::to_string(H) + " to " +
                        std::to_string(Wp) + "x" + std::to_string(Hp) + " b" + std::to_string(bx) + "x" + std::to_string(by),
                    "transpose_pad", kernel, std::move(a), {(Wp + bx - 1) / bx, (Hp + by - 1) / by, 1}, {bx, by, 1});
  const uint64_t threads = uint64_t(c.grid[0]) * c.grid[1] * bx * by;
  c.expect = clone ? transposeExpected(kernel, bx, by, threads, false) : "original";
  c.big = uint64_t(Wp) * Hp * elemSize(o) > (uint64_t(1) << 26);
  return c;
}

/// Zero-padding transposes (the load's guard narrower than the store's):
/// every element size, the if and the early-return forms, a store that
/// tests the value, per-element work, the flat form; padded by a few
/// elements and to the next multiple of 32 and of 256; 8192 x 8192 into
/// 8192 x 8256 (the benchmark's size); a small one under the floor and a
/// mask read from memory (the original).
void addPad(std::vector<Case> &cs) {
  for (auto [bx, by] : {std::pair{16u, 16u}, std::pair{32u, 8u}, std::pair{8u, 32u}, std::pair{32u, 32u},
                        std::pair{64u, 4u}, std::pair{32u, 4u}})
    cs.push_back(pad("pad_f32", Elem::F32, Elem::F32, 1000, 3000, 1024, 3008, bx, by));
  cs.push_back(pad("pad_f32", Elem::F32, Elem::F32, 8191, 8193, 8200, 8224, 16, 16));
  cs.push_back(pad("pad_f32", Elem::F32, Elem::F32, 8192, 8192, 8192, 8256, 16, 16));
  cs.push_back(pad("pad_f32", Elem::F32, Elem::F32, 200, 200, 256, 256, 16, 16));  // 2^16 threads: the original
  cs.push_back(pad("pad_if_f32", Elem::F32, Elem::F32, 1920, 1080, 1920, 1088, 32, 8));
  cs.push_back(pad("pad_if_f32", Elem::F32, Elem::F32, 1000, 3000, 1280, 3072, 16, 16));
  cs.push_back(pad("pad_u8", Elem::I8, Elem::I8, 1920, 1080, 2048, 1088, 32, 8, {i32(7)}));
  cs.push_back(pad("pad_u8", Elem::I8, Elem::I8, 8191, 8193, 8192, 8224, 16, 16, {i32(200)}));
  cs.push_back(pad("pad_f16", Elem::F16, Elem::F16, 1000, 3000, 1024, 3008, 16, 16));
  cs.push_back(pad("pad_f64", Elem::F64, Elem::F64, 1000, 3000, 1024, 3008, 32, 8));
  cs.push_back(pad("pad_f64", Elem::F64, Elem::F64, 4095, 4097, 4096, 4128, 8, 32));
  cs.push_back(pad("pad_u8_f32", Elem::I8, Elem::F32, 1920, 1080, 1920, 1088, 16, 16, {f32(1.7f)}));
  cs.push_back(pad("pad_nz_f32", Elem::F32, Elem::F32, 1000, 3000, 1024, 3008, 16, 16, {}, true, true));
  cs.push_back(pad("pad_nz_f32", Elem::F32, Elem::F32, 4000, 3001, 4096, 3072, 32, 8, {}, true, true));
  {
    const unsigned W = 1000, H = 3000, Wp = 1024, Hp = 3008, b = 256;
    const unsigned g = (Wp * Hp + b - 1) / b;
    Case c = makeCase("transpose pad: pad_flat_f32 1000x3000 to 1024x3008 b256", "transpose_pad", "pad_flat_f32",
                      {in(Elem::F32, size_t(W) * H), out(Elem::F32, size_t(Wp) * Hp), i32(W), i32(H), i32(Wp), i32(Hp)},
                      {g, 1, 1}, {b, 1, 1});
    c.expect = "=pad_flat_f32__ptxopt_tiledflat";
    cs.push_back(c);
  }
  {
    const unsigned W = 1000, H = 3000;
    const size_t n = size_t(W) * H;
    Case c = makeCase("transpose pad: pad_mask_f32 1000x3000 b16x16", "transpose_pad", "pad_mask_f32",
                      {in(Elem::F32, n), in(Elem::F32, n), out(Elem::F32, n), i32(W), i32(H)}, {63, 188, 1}, {16, 16, 1});
    c.expect = "original";
    cs.push_back(c);
  }
}

/// Flat permutes that split the outer index first (tests/lit/transpose/
/// Inputs/flatrem.cu): N x C x HW, blocks of b; the flat clone where C and
/// HW are 32 or more and the launch 2^20 threads or more, else the original.
void addFlatRem(std::vector<Case> &cs) {
  auto perm = [&](const std::string &kernel, Elem e, unsigned N, unsigned C, unsigned HW, unsigned b) {
    const size_t n = size_t(N) * C * HW;
    const unsigned g = unsigned((n + b - 1) / b);
    Case c = makeCase("transpose flatrem: " + kernel + " N" + std::to_string(N) + " C" + std::to_string(C) + " HW" +
                          std::to_string(HW) + " b" + std::to_string(b),
                      "transpose_flatrem", kernel, {in(e, n), out(e, n), i32(int32_t(C)), i32(int32_t(HW)), i32(int32_t(n))},
                      {g, 1, 1}, {b, 1, 1});
    const bool fits = C >= 32 && HW >= 32 && uint64_t(g) * b >= (uint64_t(1) << 20);
    c.expect = fits ? "=" + kernel + "__ptxopt_tiledflat" : "original";
    c.big = n >= (size_t(1) << 24);
    return c;
  };
  for (const char *k : {"outer_nchw_nhwc_f32", "outer_nhwc_nchw_f32"}) {
    cs.push_back(perm(k, Elem::F32, 16, 64, 56 * 56, 256));
    cs.push_back(perm(k, Elem::F32, 16, 256, 56 * 56, 512));
    cs.push_back(perm(k, Elem::F32, 16, 64, 224 * 224, 256));
    cs.push_back(perm(k, Elem::F32, 16, 37, 50 * 50, 128));
    cs.push_back(perm(k, Elem::F32, 16, 3, 224 * 224, 256));  // 3 channels: the original
  }
  cs.push_back(perm("outer_nchw_nhwc_u8", Elem::I8, 16, 64, 224 * 224, 256));
  cs.push_back(perm("outer_nchw_nhwc_u8", Elem::I8, 16, 256, 56 * 56, 1024));
  Case r = perm("outer_notdigits_f32", Elem::F32, 16, 64, 56 * 56, 256);
  r.expect = "original";
  cs.push_back(r);
}

}  // namespace

void addTransposeForms(std::vector<Case> &cs) {
  addWide(cs);
  addConst(cs);
  addCounted(cs);
  addPad(cs);
  addFlatRem(cs);
}

}  // namespace gpudiff
