// gpu-diff cases of the rowwalk pass's triangular row walks (issue 29, item
// 6; docs/PASSES.md, rowwalk, "Triangular loops"; RowWalkTri.cpp): the
// kernels of tests/lit/rowwalk/Inputs/tri.cu, every clone compared bit for
// bit with the original (random non-zero inputs).
//
// Edges: rows not a multiple of 32 (the last warp runs the original loop),
// n = 1 (one lane: the original), rows not 16-byte aligned (n % 4 != 0:
// the staged clone's row-length condition fails: syrk's unaligned clone),
// blocks of 96 threads, rows whose
// lengths end inside a tile (every lane's own remainder in the original
// loop), the first warp (rows 0..31: rows shorter than a tile, some lanes
// not in the unrolled loop).
#include "Cases.h"

#include <tuple>

namespace gpudiff {

namespace {

/// A case of tests/gpu/cases/tri_u32.cu: n rows (n x n matrix), a thread per row.
Case triU32(const std::string &kernel, std::vector<Arg> args, unsigned n, unsigned block, const std::string &passes,
            const std::string &expect) {
  Case c = makeCase("tri u32: " + kernel + " " + std::to_string(n) + " b" + std::to_string(block), "tri_u32", kernel,
                    std::move(args), {(n + block - 1) / block, 1, 1}, {block, 1, 1});
  c.passes = passes;
  c.expect = expect;
  c.big = size_t(n) * n >= (size_t(1) << 24);
  return c;
}

/// `for (unsigned k = 0; k <= i; k++)` (tests/lit/rowwalk/Inputs/tri_u32.cu):
/// a rolled loop tested with `setp.le.u32`, rows through the 32-bit index
/// i * n + k, staged per lane from the small-step retry. Edges as above:
/// rows not a multiple of 32, rows not 16-byte aligned (n % 4 != 0: the
/// original), blocks of 96, the first warp's short rows. Then the unsigned
/// upper triangle and its unit form.
void addTriU32(std::vector<Case> &cs) {
  const std::string forced = "rowwalk;rowwalk-staged=1";
  // syrk's diagonal in double: (A n x n as float, c n as double, n).
  auto syrkDiag = [&](unsigned n, unsigned block, const std::string &passes, const std::string &expect) {
    cs.push_back(triU32("syrk_diag_u32_f64", {in(Elem::F32, size_t(n) * n), out(Elem::F64, n), i32(int32_t(n))}, n,
                        block, passes, expect));
  };
  syrkDiag(6144, 256, "", "=syrk_diag_u32_f64__ptxopt_staged");
  syrkDiag(1000, 256, forced, "=syrk_diag_u32_f64__ptxopt_staged");
  syrkDiag(1000, 96, forced, "=syrk_diag_u32_f64__ptxopt_staged");
  syrkDiag(1001, 256, forced, "original");
  syrkDiag(40, 32, forced, "=syrk_diag_u32_f64__ptxopt_staged");
  // Integer sums (A n x n, y n, n): no lanes clone for a `<=` latch, the staged clone, exact.
  for (unsigned n : {4096u, 1004u})
    cs.push_back(triU32("tri_le_u32_i32", {in(Elem::I32, size_t(n) * n), out(Elem::I32, n), i32(int32_t(n))}, n, 256,
                        n == 4096 ? "" : forced, "=tri_le_u32_i32__ptxopt_staged"));
  // Float trmv (A n x n, x n, y n, n): lower (`<=`), `int` `<=`, then the
  // unsigned upper triangle (A's row and x through 32-bit indices after
  // nvcc's peeled remainder; n % 4 != 0: rows not 16-byte aligned, every
  // warp runs the original loop).
  auto trmv = [&](const std::string &k, unsigned n, unsigned block, const std::string &passes) {
    cs.push_back(triU32(k, {in(Elem::F32, size_t(n) * n), in(Elem::F32, n), out(Elem::F32, n), i32(int32_t(n))}, n,
                        block, passes, "=" + k + "__ptxopt_staged"));
  };
  for (const char *k : {"tri_le_u32_f32", "tri_le_s32_f32"}) {
    trmv(k, 4096, 256, "rowwalk");
    trmv(k, 1000, 96, forced);
  }
  trmv("tri_upper_u32_f32", 4096, 256, "");
  trmv("tri_upper_u32_f32", 1000, 96, forced);
  trmv("tri_upper_u32_f32", 1001, 256, forced);
  // The unit form (h8_symm_trmv_fold's kernel: `k == i` reads x alone, a
  // guard on indices; the runtime passes A's and x's allocation ends).
  for (auto [n, block, passes] : {std::tuple<unsigned, unsigned, std::string>{4096, 64, ""}, {1000, 96, forced}})
    cs.push_back(triU32("trmv_upper_unit_u32",
                        {in(Elem::F32, size_t(n) * n), in(Elem::F32, n), out(Elem::F32, n), i32(int32_t(n)), f32(1.5f)},
                        n, block, passes, "=trmv_upper_unit_u32__ptxopt_staged"));
}

}  // namespace

void addTri(std::vector<Case> &cs) {
  const std::string forced = "rowwalk;rowwalk-staged=1", stagedOnly = "rowwalk;rowwalk-staged=1;rowwalk-lanes=0";
  // trmv: (A n x n, x n, y n, n).
  auto trmv = [](const std::string &kernel, unsigned n, unsigned block, Elem e, const std::string &passes,
                 const std::string &expect) {
    Case c = makeCase("tri: " + kernel + " " + std::to_string(n) + " b" + std::to_string(block), "tri", kernel,
                      {in(e, size_t(n) * n), in(e, n), out(e, n), i32(int32_t(n))}, {(n + block - 1) / block, 1, 1},
                      {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(n) * n >= (size_t(1) << 24);
    return c;
  };
  // Row sums of rows of n-i elements: (A n x n, y n, n).
  auto trisum = [](const std::string &kernel, unsigned n, unsigned block, Elem e, const std::string &passes,
                   const std::string &expect) {
    Case c = makeCase("tri: " + kernel + " " + std::to_string(n) + " b" + std::to_string(block), "tri", kernel,
                      {in(e, size_t(n) * n), out(e, n), i32(int32_t(n))}, {(n + block - 1) / block, 1, 1},
                      {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(n) * n >= (size_t(1) << 24);
    return c;
  };
  // Lower-triangular float trmv: the per-lane staged clone by default (-O2);
  // pack merges x's loads in its solo form (a warp not all in the loop), so
  // the staged+pack clone comes first (its other paths are the staged one's).
  cs.push_back(trmv("trmv_lower_f32", 4096, 256, Elem::F32, "", "=trmv_lower_f32__ptxopt_staged_pack"));
  cs.push_back(trmv("trmv_lower_f32", 2048, 256, Elem::F32, "rowwalk", "=trmv_lower_f32__ptxopt_staged"));
  // The benchmark's size with the default passes: every warp but the first
  // stages (each lane to its own NT), then its own remainder.
  cs.push_back(trmv("trmv_lower_f32", 4096, 256, Elem::F32, "", "=trmv_lower_f32__ptxopt_staged_pack"));
  cs.push_back(trmv("trmv_lower_f32", 1000, 256, Elem::F32, forced, "=trmv_lower_f32__ptxopt_staged"));
  cs.push_back(trmv("trmv_lower_f32", 1000, 96, Elem::F32, forced, "=trmv_lower_f32__ptxopt_staged"));
  cs.push_back(trmv("trmv_lower_f32", 1003, 256, Elem::F32, forced, "original"));
  cs.push_back(trmv("trmv_lower_f32", 1, 32, Elem::F32, forced, "original"));
  cs.push_back(trmv("trmv_lower_f32", 40, 32, Elem::F32, forced, "=trmv_lower_f32__ptxopt_staged"));
  // The int index form (a 64-bit pointer walk).
  cs.push_back(trmv("trmv_lower_s32idx_f32", 2048, 256, Elem::F32, "", "=trmv_lower_s32idx_f32__ptxopt_staged_pack"));
  cs.push_back(trmv("trmv_lower_s32idx_f32", 1000, 256, Elem::F32, forced, "=trmv_lower_s32idx_f32__ptxopt_staged"));
  // Integers: the lanes clone first (exact); the staged clone with the lanes off.
  cs.push_back(trmv("trmv_lower_i32", 4096, 256, Elem::I32, "", "=trmv_lower_i32__ptxopt_lanes"));
  cs.push_back(trmv("trmv_lower_i32", 1000, 256, Elem::I32, stagedOnly, "=trmv_lower_i32__ptxopt_staged"));
  cs.push_back(trmv("trmv_lower_i32", 4096, 256, Elem::I32, stagedOnly, "=trmv_lower_i32__ptxopt_staged"));
  // Rows of n-i elements.
  cs.push_back(trisum("trisum_f32", 4096, 256, Elem::F32, "", "=trisum_f32__ptxopt_staged"));
  cs.push_back(trisum("trisum_f32", 1000, 256, Elem::F32, forced, "=trisum_f32__ptxopt_staged"));
  cs.push_back(trisum("trisum_f32", 1000, 96, Elem::F32, forced, "=trisum_f32__ptxopt_staged"));
  cs.push_back(trisum("trisum_f32", 1001, 256, Elem::F32, forced, "original"));
  cs.push_back(trisum("trisum_i32", 1000, 256, Elem::I32, stagedOnly, "=trisum_i32__ptxopt_staged"));
  cs.push_back(trisum("trisum_i32", 4096, 256, Elem::I32, "", "=trisum_i32__ptxopt_lanes"));
  // Upper-triangular trmv: floats through the `iv < bound` latch after
  // nvcc's peeled remainder (A's row and x staged); the int form's staged
  // clone (rows unaligned: the original in every warp) and its lanes clone.
  cs.push_back(trmv("trmv_upper_f32", 4096, 256, Elem::F32, "", "=trmv_upper_f32__ptxopt_staged"));
  cs.push_back(trmv("trmv_upper_f32", 1000, 256, Elem::F32, forced, "=trmv_upper_f32__ptxopt_staged"));
  cs.push_back(trmv("trmv_upper_f32", 1000, 96, Elem::F32, forced, "=trmv_upper_f32__ptxopt_staged"));
  cs.push_back(trmv("trmv_upper_f32", 1001, 256, Elem::F32, forced, "=trmv_upper_f32__ptxopt_staged"));
  // Rows under 128 (n = 40): the row-length condition keeps the original.
  cs.push_back(trmv("trmv_upper_f32", 40, 32, Elem::F32, forced, "original"));
  // (no staged clone: rows from the diagonal, 4*(n+1) bytes apart, no launch condition says they align)
  cs.push_back(trmv("trmv_upper_i32", 1000, 256, Elem::I32, stagedOnly, "original"));
  cs.push_back(trmv("trmv_upper_i32", 4096, 256, Elem::I32, "", ""));
  // n = 4100: rows aligned, not a multiple of 32: the launch's last warp
  // (and syrk's warps whose lanes leave the outer loop) take the solo form.
  cs.push_back(trmv("trmv_lower_f32", 4100, 256, Elem::F32, "", "=trmv_lower_f32__ptxopt_staged_pack"));
  cs.push_back(trmv("trmv_upper_f32", 4100, 256, Elem::F32, "", "=trmv_upper_f32__ptxopt_staged"));
  cs.push_back(trisum("trisum_f32", 4100, 256, Elem::F32, "", "=trisum_f32__ptxopt_staged"));
  // syrk-like: the inner row walk (m per row) staged inside the triangular
  // loop over j; warps whose lanes are not all still in it run the original.
  auto syrk = [](unsigned n, unsigned m, unsigned block, const std::string &passes, const std::string &expect) {
    Case c = makeCase("tri: syrk_lower_f32 " + std::to_string(n) + "x" + std::to_string(m) + " b" +
                          std::to_string(block),
                      "tri", "syrk_lower_f32",
                      {in(Elem::F32, size_t(n) * m), out(Elem::F32, size_t(n) * n), i32(int32_t(n)), i32(int32_t(m))},
                      {(n + block - 1) / block, 1, 1}, {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = n >= 2048;
    return c;
  };
  cs.push_back(syrk(2048, 256, 256, "", "=syrk_lower_f32__ptxopt_staged_pack"));
  cs.push_back(syrk(2052, 256, 256, "", "=syrk_lower_f32__ptxopt_staged_pack"));
  cs.push_back(syrk(300, 256, 256, forced, "=syrk_lower_f32__ptxopt_staged"));
  cs.push_back(syrk(300, 260, 96, forced, "=syrk_lower_f32__ptxopt_staged"));
  cs.push_back(syrk(300, 258, 256, forced, "=syrk_lower_f32__ptxopt_staged_unaligned"));  // rows unaligned
  cs.push_back(syrk(300, 0, 256, forced, "original"));                         // m = 0: the zero-fill path
  // The lower triangle of a row solve in double with size_t indices
  // (h6_tri_rows_double; its remainder loop's jump latch folded): (L n x n,
  // b n, x n, y n, n as size_t). n = 4500 in blocks of 64 as the program
  // launches it; 4501 (rows of 36008 bytes, not 16-byte aligned: the
  // original, no unaligned form for per-lane trip counts); 1000 forced.
  auto solve = [](unsigned n, unsigned block, const std::string &passes, const std::string &expect) {
    Case c = makeCase("tri: lower_solve_f64 " + std::to_string(n) + " b" + std::to_string(block), "tri",
                      "lower_solve_f64",
                      {in(Elem::F64, size_t(n) * n), in(Elem::F64, n), in(Elem::F64, n), out(Elem::F64, n),
                       i64(int64_t(n))},
                      {(n + block - 1) / block, 1, 1}, {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(n) * n * 8 >= (size_t(1) << 26);
    return c;
  };
  cs.push_back(solve(4500, 64, "", "=lower_solve_f64__ptxopt_staged"));
  cs.push_back(solve(4501, 64, "", "original"));
  cs.push_back(solve(1000, 96, forced, "=lower_solve_f64__ptxopt_staged"));
  // 64-bit counters (tests/lit/rowwalk/Inputs/tri64.cu: `long k`, setp.lt.s64;
  // `size_t k`): (A, x, y, n as a 64-bit integer); the packed upper triangle
  // holds n (n + 1) / 2 doubles.
  auto tri64 = [](const std::string &kernel, unsigned n, unsigned block, Elem e, size_t aElems,
                  const std::string &passes, const std::string &expect) {
    Case c = makeCase("tri 64: " + kernel + " " + std::to_string(n) + " b" + std::to_string(block), "tri64", kernel,
                      {in(e, aElems), in(e, n), out(e, n), i64(int64_t(n))}, {(n + block - 1) / block, 1, 1},
                      {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = aElems >= (size_t(1) << 24);
    return c;
  };
  for (unsigned n : {8192u, 4100u})
    cs.push_back(tri64("trmv_upper_l", n, 256, Elem::F32, size_t(n) * n, "", "=trmv_upper_l__ptxopt_staged"));
  cs.push_back(tri64("trmv_upper_l", 1000, 96, Elem::F32, 1000 * 1000, forced, "=trmv_upper_l__ptxopt_staged"));
  // n % 4 != 0: rows from the diagonal, no launch condition aligns them; each lane checks its own (as trmv_upper_f32).
  cs.push_back(tri64("trmv_upper_l", 1001, 256, Elem::F32, 1001 * 1001, forced, "=trmv_upper_l__ptxopt_staged"));
  cs.push_back(tri64("tpmv_upper_l", 8192, 64, Elem::F64, size_t(8192) * 8193 / 2, "", "=tpmv_upper_l__ptxopt_staged"));
  cs.push_back(tri64("trmv_lower_z", 8192, 256, Elem::F32, size_t(8192) * 8192, "", "=trmv_lower_z__ptxopt_staged_pack"));
  // h14_packed_triangular's sizes: the packed upper triangle in double at
  // 4096 in blocks of 64; the packed lower one in float (`int` n: no staged
  // clone, its rows' starts misalign lanes of every warp; no pack clone) at
  // 8192 in 128.
  cs.push_back(tri64("tpmv_upper_l", 4096, 64, Elem::F64, size_t(4096) * 4097 / 2, "", "=tpmv_upper_l__ptxopt_staged"));
  {
    const unsigned n = 8192;
    Case c = makeCase("tri 64: tpmv_lower_f32 " + std::to_string(n) + " b128", "tri64", "tpmv_lower_f32",
                      {in(Elem::F32, size_t(n) * (n + 1) / 2), in(Elem::F32, n), out(Elem::F32, n), i32(int32_t(n))},
                      {n / 128, 1, 1}, {128, 1, 1});
    c.expect = "original";  // pack's merge of x beside the row ran 0.87x: refused (Pack.cpp dropUniformBesideLoads)
    c.big = true;
    cs.push_back(c);
  }
  addTriU32(cs);
}

}  // namespace gpudiff
