// gpu-diff cases of the rowwalk pass's row walks through 32-bit indices
// (issue 29; docs/PASSES.md, rowwalk, "Rows by 32-bit index"): the kernels
// of tests/lit/rowwalk/Inputs/rowwalk32.cu, every clone compared bit for
// bit with the original.
//
// Edges: rows not a multiple of 32 (the last warp runs the original loop),
// row lengths not a multiple of the tile (the remaining iterations in the
// original loop), rows not 16-byte aligned (every warp runs the original
// loop), a row length of 0 and of 1 (the original runs: the row-length
// condition), the largest index right at 2^32 - 1 (unsigned) and 2^31 - 1
// (int) with the staged clone running (a window of a larger array: a small
// buffer), and indices that wrapped before the loop (r * N mod 2^32, as the
// original reads them). The other side, an index that wraps inside the loop,
// reads two places 16 GB apart, so it is not a GPU case: the clone's check
// is FileChecked in tests/lit/rowwalk/index32.test.
#include "Cases.h"

#include <cmath>
#include <cstring>
#include <tuple>

namespace gpudiff {

void addRowWalk32(std::vector<Case> &cs) {
  // A kernel (a, y, n, N) on n x N elements of `e`.
  auto rows = [](const std::string &name, const std::string &kernel, unsigned n, unsigned N, unsigned block, Elem e,
                 const std::string &passes, const std::string &expect) {
    Case c = makeCase("rowwalk32: " + name + " " + std::to_string(n) + "x" + std::to_string(N) + " b" +
                          std::to_string(block),
                      "rowwalk32", kernel,
                      {in(e, std::max<size_t>(1, size_t(n) * N)), out(e, n), i32(int32_t(n)), i32(int32_t(N))},
                      {(n + block - 1) / block, 1, 1}, {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(n) * N >= (size_t(1) << 24);
    return c;
  };
  const std::string forced = "rowwalk;rowwalk-staged=1";
  // The form (unsigned row, float sum): the staged clone by default (-O2).
  cs.push_back(rows("u32 float row sum", "rowsum_u32_f32", 4096, 4096, 256, Elem::F32, "", "=rowsum_u32_f32__ptxopt_staged"));
  cs.push_back(rows("u32 float row sum", "rowsum_u32_f32", 2048, 2048, 256, Elem::F32, "rowwalk", "=rowsum_u32_f32__ptxopt_staged"));
  cs.push_back(rows("u32 float row sum, rows not x32, remainder", "rowsum_u32_f32", 1000, 1004, 256, Elem::F32, forced,
                    "=rowsum_u32_f32__ptxopt_staged"));
  cs.push_back(rows("u32 float row sum, 96-thread blocks", "rowsum_u32_f32", 1000, 1004, 96, Elem::F32, forced,
                    "=rowsum_u32_f32__ptxopt_staged"));
  // (rows not 16-byte aligned: the aligned clone's row-length condition fails, the unaligned clone runs)
  cs.push_back(rows("u32 float row sum, rows not 16-byte aligned", "rowsum_u32_f32", 1000, 1003, 256, Elem::F32, forced,
                    "=rowsum_u32_f32__ptxopt_staged_unaligned"));
  cs.push_back(rows("u32 float row sum, row length 0", "rowsum_u32_f32", 256, 0, 256, Elem::F32, forced, "original"));
  cs.push_back(rows("u32 float row sum, row length 1", "rowsum_u32_f32", 256, 1, 256, Elem::F32, forced, "original"));
  // int index over an unsigned counter (mul.wide.s32, loads at +4, +8, +12).
  cs.push_back(rows("s32 float row sum", "rowsum_s32_f32", 4096, 4096, 256, Elem::F32, "", "=rowsum_s32_f32__ptxopt_staged"));
  cs.push_back(rows("s32 float row sum, rows not x32, remainder", "rowsum_s32_f32", 1000, 1004, 256, Elem::F32, forced,
                    "=rowsum_s32_f32__ptxopt_staged"));
  // Integers: the lanes clone first (exact); the staged clone with the lanes off.
  cs.push_back(rows("u32 int row sum", "rowsum_u32_i32", 4096, 4096, 256, Elem::I32, "", "=rowsum_u32_i32__ptxopt_lanes"));
  // Unrolled by 2 (`#pragma unroll 2`, 8 bytes an iteration): staged on the
  // small-step retry since the twenty-ninth session.
  cs.push_back(rows("u32 float row sum, unrolled by 2", "rowsum_u32_nounroll", 4096, 4096, 256, Elem::F32, "",
                    "=rowsum_u32_nounroll__ptxopt_staged"));
  cs.push_back(rows("u32 float row sum, unrolled by 2, remainder", "rowsum_u32_nounroll", 1000, 1012, 96, Elem::F32,
                    forced, "=rowsum_u32_nounroll__ptxopt_staged"));
  cs.push_back(rows("u32 int row sum, staged", "rowsum_u32_i32", 1000, 1004, 256, Elem::I32,
                    "rowwalk;rowwalk-staged=1;rowwalk-lanes=0", "=rowsum_u32_i32__ptxopt_staged"));
  // 8-byte elements (RowWalkIndex.cpp's opening comment), bit for bit:
  // integers, and doubles from finite random values (Elem::F64; the H200
  // run of 2026-11-28 filled them with random 64-bit patterns, about 1 NaN
  // in 1024, and differed: which payload an add of two NaNs keeps follows
  // the operand order ptxas picks).
  cs.push_back(rows("u32 i64 row sum, staged, rows not x32, remainder", "rowsum_u32_i64", 1000, 1004, 256, Elem::I64,
                    "rowwalk;rowwalk-staged=1;rowwalk-lanes=0", "=rowsum_u32_i64__ptxopt_staged"));
  cs.push_back(rows("u32 i64 row sum, staged", "rowsum_u32_i64", 4096, 4096, 256, Elem::I64,
                    "rowwalk;rowwalk-staged=1;rowwalk-lanes=0", "=rowsum_u32_i64__ptxopt_staged"));
  cs.push_back(rows("u32 i64 row sum, row length 0", "rowsum_u32_i64", 256, 0, 256, Elem::I64, forced, "original"));
  cs.push_back(rows("u32 double row sum, rows not x32, remainder", "rowsum_u32_f64", 1000, 1004, 256, Elem::F64,
                    "rowwalk;rowwalk-staged=1", "=rowsum_u32_f64__ptxopt_staged"));
  cs.push_back(rows("u32 double row sum", "rowsum_u32_f64", 4096, 4096, 256, Elem::F64, "",
                    "=rowsum_u32_f64__ptxopt_staged"));
  // Matrix-vector product: the row through two 32-bit induction variables.
  auto matvec = [](unsigned n, unsigned N, const std::string &passes, const std::string &expect) {
    Case c = makeCase("rowwalk32: u32 matrix-vector " + std::to_string(n) + "x" + std::to_string(N), "rowwalk32",
                      "matvec_u32",
                      {in(Elem::F32, size_t(n) * N), in(Elem::F32, N), out(Elem::F32, n), i32(int32_t(n)), i32(int32_t(N))},
                      {(n + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(n) * N >= (size_t(1) << 24);
    return c;
  };
  cs.push_back(matvec(4096, 4096, "", "=matvec_u32__ptxopt_staged_pack"));
  cs.push_back(matvec(1000, 1004, "rowwalk;rowwalk-staged=1", "=matvec_u32__ptxopt_staged"));
  // Two matrices in one loop (gesummv): two rows staged, one tile of each in flight.
  for (unsigned n : {2048u, 1000u}) {
    Case c = makeCase("rowwalk32: u32 gesummv " + std::to_string(n), "rowwalk32", "gesummv_u32",
                      {in(Elem::F32, size_t(n) * n), in(Elem::F32, size_t(n) * n), in(Elem::F32, n), out(Elem::F32, n),
                       f32(1.5f), f32(1.25f), i32(int32_t(n))},
                      {(n + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = n == 2048 ? "" : "rowwalk;rowwalk-staged=1";
    c.expect = n == 2048 ? "=gesummv_u32__ptxopt_staged_pack" : "=gesummv_u32__ptxopt_staged";
    cs.push_back(c);
  }
  // The largest index right at the limit: rows r0 .. r0+63 of 4096 floats in
  // a window whose element 0 is element `skip` of the whole array.
  auto window = [](const std::string &name, const std::string &kernel, uint32_t skip, uint32_t r0, const std::string &expect) {
    Case c = makeCase("rowwalk32: " + name, "rowwalk32", kernel,
                      {in(Elem::F32, 64 * 4096), out(Elem::F32, 64), i32(int32_t(skip)), i32(int32_t(r0)), i32(64),
                       i32(4096)},
                      {2, 1, 1}, {32, 1, 1});
    c.passes = "rowwalk;rowwalk-staged=1";
    c.expect = expect;
    return c;
  };
  // (2^20 - 64) * 4096 + 63 * 4096 + 4095 = 2^32 - 1.
  cs.push_back(window("u32 largest index 2^32-1", "rowsum_u32_window", 4294705152u, 1048512u,
                      "=rowsum_u32_window__ptxopt_staged"));
  // (2^19 - 64) * 4096 + 63 * 4096 + 4095 = 2^31 - 1.
  cs.push_back(window("s32 largest index 2^31-1", "rowsum_s32_window", 2147221504u, 524224u,
                      "=rowsum_s32_window__ptxopt_staged"));
  // r * N wraps before the loop (r0 = 2^20: r0 * 4096 = 2^32 = 0 mod 2^32):
  // the threads read rows 0..63 of the buffer, the clone as the original.
  {
    Case c = makeCase("rowwalk32: u32 index wrapped before the loop", "rowwalk32", "rowsum_u32_from",
                      {in(Elem::F32, 64 * 4096), out(Elem::F32, 64), i32(int32_t(1u << 20)), i32(64), i32(4096)},
                      {2, 1, 1}, {32, 1, 1});
    c.passes = "rowwalk;rowwalk-staged=1";
    c.expect = "=rowsum_u32_from__ptxopt_staged";
    cs.push_back(c);
  }
  // The 64-bit pointer form and the int form (a pointer walk), for comparison.
  cs.push_back(rows("64-bit pointer row sum", "rowsum_ptr_f32", 4096, 4096, 256, Elem::F32, "", "=rowsum_ptr_f32__ptxopt_staged"));
  cs.push_back(rows("64-bit pointer int row sum", "rowsum_ptr_i32", 4096, 4096, 256, Elem::I32, "", "=rowsum_ptr_i32__ptxopt_lanes"));
  cs.push_back(rows("int row sum (pointer walk)", "rowsum_int_f32", 4096, 4096, 256, Elem::F32, "", "=rowsum_int_f32__ptxopt_staged"));
}

}  // namespace gpudiff
