// gpu-diff cases of the rowwalk pass's row walks with guards inside the loop
// (issue 29, item 3; docs/PASSES.md, rowwalk, "Guards inside the loop"): the
// kernels of tests/lit/rowwalk/Inputs/guards.cu, every clone compared bit
// for bit with the original.
//
// Inputs: random non-zero elements, and for the skip-zero loops about one
// element in 3 (or 2, 16) zero, so lanes of a warp take different paths in
// every copy of the body. Edges: rows not a multiple of 32 (the last warp
// runs the original loop), row lengths not a multiple of the tile (the
// remaining iterations in the original loop), 96-thread blocks, a row length
// of 0 and of 1 (the original runs: the row-length condition), an early
// exit never taken, and the refused kernels (a store, a row read under a
// guard: the original runs).
#include <tuple>

#include "Cases.h"

namespace gpudiff {

void addRowWalkGuards(std::vector<Case> &cs) {
  // A kernel (a, x, y, n, m): y[i] from row i of a (n x m) and x (m).
  auto rows = [](const std::string &name, const std::string &kernel, unsigned n, unsigned m, unsigned block, Elem e,
                 unsigned zeros, const std::string &passes, const std::string &expect) {
    const size_t na = std::max<size_t>(1, size_t(n) * m);
    Case c = makeCase("rowwalk guards: " + name + " " + std::to_string(n) + "x" + std::to_string(m) + " b" +
                          std::to_string(block),
                      "rowwalkguards", kernel,
                      {zeros ? inZeros(e, na, zeros) : in(e, na), in(e, std::max(1u, m)), out(e, n), i32(int32_t(n)),
                       i32(int32_t(m))},
                      {(n + block - 1) / block, 1, 1}, {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(n) * m >= (size_t(1) << 24);
    return c;
  };
  const std::string forced = "rowwalk;rowwalk-staged=1";
  // Skip-zero, float: -O2 at 4096 x 4096 (the staged clone by default), then the edges.
  cs.push_back(rows("skip-zero float", "skipzero_f32", 4096, 4096, 256, Elem::F32, 3, "", "=skipzero_f32__ptxopt_staged_pack"));
  cs.push_back(rows("skip-zero float", "skipzero_f32", 2048, 2048, 256, Elem::F32, 3, "rowwalk",
                    "=skipzero_f32__ptxopt_staged"));
  cs.push_back(rows("skip-zero float, half zeros", "skipzero_f32", 2048, 1024, 256, Elem::F32, 2, "",
                    "=skipzero_f32__ptxopt_staged_pack"));
  cs.push_back(rows("skip-zero float, rows not x32, remainder", "skipzero_f32", 1000, 1004, 256, Elem::F32, 3, forced,
                    "=skipzero_f32__ptxopt_staged"));
  cs.push_back(rows("skip-zero float, 96-thread blocks", "skipzero_f32", 1000, 1004, 96, Elem::F32, 3, forced,
                    "=skipzero_f32__ptxopt_staged"));
  // (rows not 16-byte aligned: the aligned clone's row-length condition fails, the unaligned clone runs)
  cs.push_back(rows("skip-zero float, rows not 16-byte aligned", "skipzero_f32", 1000, 1003, 256, Elem::F32, 3, forced,
                    "=skipzero_f32__ptxopt_staged_unaligned"));
  cs.push_back(rows("skip-zero float, row length 0", "skipzero_f32", 256, 0, 256, Elem::F32, 3, forced, "original"));
  cs.push_back(rows("skip-zero float, row length 1", "skipzero_f32", 256, 1, 256, Elem::F32, 3, forced, "original"));
  // Integers (the staged clone: the lanes clone does not take guarded loops).
  cs.push_back(rows("skip-zero int", "skipzero_i32", 4096, 4096, 256, Elem::I32, 3, "", "=skipzero_i32__ptxopt_staged_pack"));
  cs.push_back(rows("skip-zero int, rows not x32, remainder", "skipzero_i32", 1000, 1004, 256, Elem::I32, 16, forced,
                    "=skipzero_i32__ptxopt_staged"));
  // The branchy max (a load under the branch).
  cs.push_back(rows("branchy max float", "branchmax_f32", 4096, 4096, 256, Elem::F32, 0, "", "=branchmax_f32__ptxopt_staged_pack"));
  cs.push_back(rows("branchy max float, rows not x32, remainder", "branchmax_f32", 1000, 1004, 256, Elem::F32, 0, forced,
                    "=branchmax_f32__ptxopt_staged"));
  cs.push_back(rows("branchy max int", "branchmax_i32", 4096, 4096, 256, Elem::I32, 0, "", "=branchmax_i32__ptxopt_staged_pack"));
  cs.push_back(rows("branchy max int, rows not x32, remainder", "branchmax_i32", 1000, 1004, 256, Elem::I32, 0, forced,
                    "=branchmax_i32__ptxopt_staged"));
  // 32-bit unsigned index, and the pointer form.
  cs.push_back(rows("skip-zero float u32 index", "skipzero_u32", 4096, 4096, 256, Elem::F32, 3, "",
                    "=skipzero_u32__ptxopt_staged_pack"));
  cs.push_back(rows("skip-zero float u32 index, rows not x32, remainder", "skipzero_u32", 1000, 1004, 256, Elem::F32, 3,
                    forced, "=skipzero_u32__ptxopt_staged"));
  cs.push_back(rows("skip-zero int pointer walk", "skipzero_ptr", 4096, 4096, 256, Elem::I32, 3, "",
                    "=skipzero_ptr__ptxopt_staged_pack"));
  cs.push_back(rows("skip-zero int pointer walk, rows not x32, remainder", "skipzero_ptr", 1000, 1004, 256, Elem::I32, 3,
                    forced, "=skipzero_ptr__ptxopt_staged"));
  cs.push_back(rows("skip-zero int pointer walk, row length 0", "skipzero_ptr", 256, 0, 256, Elem::I32, 3, forced,
                    "original"));
  // A guard on x (a, x, w, y, n, m): x in [0.5, 100), the guard x > 50 about half the time.
  for (unsigned n : {4096u, 1000u}) {
    const unsigned m = n == 4096 ? 4096 : 1004;
    Case c = makeCase("rowwalk guards: guard on x " + std::to_string(n) + "x" + std::to_string(m), "rowwalkguards",
                      "guardx_f32",
                      {in(Elem::F32, size_t(n) * m), in(Elem::F32, m), in(Elem::F32, m), out(Elem::F32, n),
                       i32(int32_t(n)), i32(int32_t(m))},
                      {(n + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = n == 4096 ? "" : forced;
    c.expect = n == 4096 ? "=guardx_f32__ptxopt_staged_pack" : "=guardx_f32__ptxopt_staged";
    c.big = n == 4096;
    cs.push_back(c);
  }
  // A constant row length of 4096 (a, x, y, n); the same with `a[i * 4096
  // + j]` (`int` i: a base register per element, `a` and `a + 4`, plus a
  // 64-bit offset, one row: Planner::siblingRow).
  for (auto [k, what] : {std::pair<std::string, std::string>{"skipzero_c4096", "constant row length"},
                         {"skipzero_i4096", "int i * 4096 + j"}})
    for (unsigned n : {4096u, 1000u}) {
      Case c = makeCase("rowwalk guards: skip-zero float, " + what + " " + std::to_string(n) + "x4096",
                        "rowwalkguards", k,
                        {inZeros(Elem::F32, size_t(n) * 4096, 3), in(Elem::F32, 4096), out(Elem::F32, n),
                         i32(int32_t(n))},
                        {(n + 255) / 256, 1, 1}, {256, 1, 1});
      c.passes = n == 4096 ? "" : forced;
      c.expect = "=" + k + (n == 4096 ? "__ptxopt_staged_pack" : "__ptxopt_staged");
      c.big = n == 4096;
      cs.push_back(c);
    }
  // An early exit never taken (no element is negative): the staged clone
  // with early exits (rowwalk-exits; CasesRowWalkExits.cpp has the exits taken).
  {
    Case c = makeCase("rowwalk guards: early exit, never taken", "rowwalkguards", "earlyexit_f32",
                      {in(Elem::F32, 1000 * 1004), out(Elem::F32, 1000), i32(1000), i32(1004)}, {4, 1, 1}, {256, 1, 1});
    c.passes = forced + ";rowwalk-exits";
    c.expect = "=earlyexit_f32__ptxopt_staged";
    cs.push_back(c);
  }
  // Refused: the original runs.
  cs.push_back(rows("row read under a guard (refused)", "guardedrow_f32", 1000, 1004, 256, Elem::F32, 0, forced,
                    "original"));
  addRowWalkIdxGuards(cs);
}

/// Rows read under a guard on indices (tests/lit/rowwalk/Inputs/idxguards.cu;
/// the twenty-first session): the staged clone with its allocation checks at
/// 4096 x 4096 (-O2) and at the edges (rows not a multiple of 32, a length
/// not a multiple of the tile, 96-thread blocks), the original for rows not
/// 16-byte aligned (no unaligned clone), a length of 0, the forms nvcc
/// strength-reduces (`j & 1`, `j % 16 == 0`) and a mask read in the loop;
/// a matrix one element short of its rows (the last element, which the
/// loop skips, outside the allocation: the last warp's check fails and it
/// runs the original loop).
void addRowWalkIdxGuards(std::vector<Case> &cs) {
  const std::string forced = "rowwalk;rowwalk-staged=1";
  // kernel (a, [x,] y, n, m)
  auto rows = [&](const std::string &kernel, Elem e, bool x, unsigned n, unsigned m, unsigned block,
                  const std::string &passes, const std::string &expect, size_t short_ = 0) {
    const size_t na = std::max<size_t>(1, size_t(n) * m - short_);
    std::vector<Arg> a{in(e, na)};
    if (x) a.push_back(in(e, std::max(1u, m)));
    a.push_back(out(e, n));
    a.push_back(i32(int32_t(n)));
    a.push_back(i32(int32_t(m)));
    Case c = makeCase("rowwalk idxguards: " + kernel + " " + std::to_string(n) + "x" + std::to_string(m) + " b" +
                          std::to_string(block) + (short_ ? " matrix one element short" : ""),
                      "rowwalkidxguards", kernel, std::move(a), {(n + block - 1) / block, 1, 1}, {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(n) * m >= (size_t(1) << 24);
    return c;
  };
  for (auto [k, e, x] : {std::tuple{"mod3_i32", Elem::I32, false}, std::tuple{"blockjacobi_f32", Elem::F32, true},
                         std::tuple{"mod3_f64", Elem::F64, false}}) {
    const std::string staged = "=" + std::string(k) + "__ptxopt_staged";
    cs.push_back(rows(k, e, x, 4096, 4096, 256, "", staged));
    cs.push_back(rows(k, e, x, 1000, 1004, 256, forced, staged));
    cs.push_back(rows(k, e, x, 1000, 1004, 96, forced, staged));
    cs.push_back(rows(k, e, x, 1000, 1003, 256, forced, "original"));  // rows not 16-byte aligned
    cs.push_back(rows(k, e, x, 256, 0, 256, forced, "original"));
  }
  cs.push_back(rows("mod3_i32", Elem::I32, false, 1000, 1000, 256, forced, "=mod3_i32__ptxopt_staged", 1));
  // Triangular, the diagonal implied (a, x, y, n): the per-lane form (by
  // default from 2048 threads, as every staged clone; forced at 1000 rows).
  for (auto [n, b, passes] : {std::tuple{4096u, 256u, ""}, std::tuple{8192u, 256u, ""},
                              std::tuple{1000u, 256u, "rowwalk;rowwalk-staged=1"},
                              std::tuple{2052u, 96u, "rowwalk;rowwalk-staged=1"}, std::tuple{2052u, 96u, ""}}) {
    Case c = makeCase("rowwalk idxguards: trmv_unit_f32 " + std::to_string(n) + " b" + std::to_string(b),
                      "rowwalkidxguards", "trmv_unit_f32",
                      {in(Elem::F32, size_t(n) * n), in(Elem::F32, n), out(Elem::F32, n), i32(int32_t(n))},
                      {(n + b - 1) / b, 1, 1}, {b, 1, 1});
    c.passes = passes;
    c.name += passes[0] ? " forced" : "";
    c.expect = "=trmv_unit_f32__ptxopt_staged";
    c.big = n >= 4096;
    cs.push_back(c);
  }
  // Unsigned indices, the address computed beside the guarded load (a, y, rows, cols).
  cs.push_back(rows("l1_skip3_u32", Elem::F32, false, 4096, 4096, 256, "", "=l1_skip3_u32__ptxopt_staged"));
  cs.push_back(rows("l1_skip3_u32", Elem::F32, false, 1000, 1004, 256, forced, "=l1_skip3_u32__ptxopt_staged"));
  // Bytes and shorts (a, y, n, m; rows a multiple of 16 bytes): each guarded element from the tile alone.
  for (auto [k, e] : {std::pair{"mod3_u8", Elem::I8}, std::pair{"mod3_s16", Elem::I16}, std::pair{"mod5_u8_f32", Elem::I8}}) {
    Case big = rows(k, e, false, 4096, 4096, 256, "", "=" + std::string(k) + "__ptxopt_staged");
    Case edge = rows(k, e, false, 1000, 1008, 256, forced, "=" + std::string(k) + "__ptxopt_staged");
    const Elem o = std::string(k) == "mod5_u8_f32" ? Elem::F32 : Elem::I32;
    big.args[1] = out(o, 4096);
    edge.args[1] = out(o, 1000);
    cs.push_back(big);
    cs.push_back(edge);
  }
  cs.push_back(rows("odd_f32", Elem::F32, true, 4096, 4096, 256, "", "original"));
  cs.push_back(rows("every16_f32", Elem::F32, false, 4096, 4096, 256, "", "original"));
  {
    Case c = makeCase("rowwalk idxguards: mask_f32 4096x4096 b256 (refused)", "rowwalkidxguards", "mask_f32",
                      {in(Elem::F32, size_t(4096) * 4096), in(Elem::I32, 4096), out(Elem::F32, 4096), i32(4096), i32(4096)},
                      {16, 1, 1}, {256, 1, 1});
    c.expect = "original";
    c.big = true;
    cs.push_back(c);
  }
}

}  // namespace gpudiff
