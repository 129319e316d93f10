// gpu-diff cases of rowwalk's staged clone on rows a program vectorized
// itself (issue 29; tests/lit/rowwalk/Inputs/vec.cu): float4, float2 and
// double2 pieces of each thread's row (float4 also by an `unsigned` index),
// uchar4 and short4 pixels (4- and 8-byte vectors of bytes and shorts),
// every clone compared bit for bit with the original.
//
// Edges: rows not a multiple of 32 and a row length not a multiple of the
// tile (forced with rowwalk-staged=1: launches under the staged clone's 2048
// threads), a row length under the floor (the original runs), float2 rows
// of an odd number of pieces and a float2 base 8 bytes off 16 (rows not
// 16-byte aligned: the original). float4 rows are 16-byte aligned or the
// original itself faults (a misaligned vector load), so their alignment
// conditions are FileChecked only (tests/lit/rowwalk/vec.test).
#include "Cases.h"

namespace gpudiff {

void addRowWalkVec(std::vector<Case> &cs) {
  const std::string forced = "rowwalk;rowwalk-staged=1";
  // kernel(A, y, n, m): n rows of m pieces of `per` elements of `e`.
  auto rows = [&](const std::string &kernel, Elem e, unsigned per, unsigned n, unsigned m, uint32_t offset,
                  const std::string &passes, const std::string &expect) {
    Case c = makeCase("rowwalk vec: " + kernel + " " + std::to_string(n) + " rows of " + std::to_string(m) + " x" +
                          std::to_string(per) + (offset ? " base +" + std::to_string(offset) : "") +
                          (passes.empty() ? "" : " (staged forced)"),
                      "rowwalkvec", kernel,
                      {in(e, size_t(n) * m * per, offset), out(e, n), i32(int32_t(n)), i32(int32_t(m))},
                      {(n + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(n) * m * per >= (size_t(1) << 24);
    return c;
  };
  cs.push_back(rows("rowsum_f4", Elem::F32, 4, 4096, 1024, 0, "", "=rowsum_f4__ptxopt_staged"));
  cs.push_back(rows("rowsum_f4", Elem::F32, 4, 8192, 512, 0, "", "=rowsum_f4__ptxopt_staged"));
  cs.push_back(rows("rowsum_f4", Elem::F32, 4, 1000, 1001, 0, forced, "=rowsum_f4__ptxopt_staged"));
  cs.push_back(rows("rowsum_f4", Elem::F32, 4, 4096, 100, 0, "", "original"));  // under the floor
  cs.push_back(rows("rowsum_f2", Elem::F32, 2, 4096, 2048, 0, "", "=rowsum_f2__ptxopt_staged"));
  cs.push_back(rows("rowsum_f2", Elem::F32, 2, 1000, 1002, 0, forced, "=rowsum_f2__ptxopt_staged"));
  cs.push_back(rows("rowsum_f2", Elem::F32, 2, 1000, 1001, 0, forced, "original"));  // rows 8 bytes off 16
  cs.push_back(rows("rowsum_f2", Elem::F32, 2, 4096, 2048, 8, "", "original"));      // base 8 bytes off 16
  cs.push_back(rows("rowsum_f4_u32", Elem::F32, 4, 4096, 1024, 0, "", "=rowsum_f4_u32__ptxopt_staged"));
  cs.push_back(rows("rowsum_f4_u32", Elem::F32, 4, 1000, 1001, 0, forced, "=rowsum_f4_u32__ptxopt_staged"));
  cs.push_back(rows("rowmax_f4", Elem::F32, 4, 4096, 1024, 0, "", "=rowmax_f4__ptxopt_staged"));
  cs.push_back(rows("rowmax_f4", Elem::F32, 4, 1000, 1001, 0, forced, "=rowmax_f4__ptxopt_staged"));
  cs.push_back(rows("rowsum_d2", Elem::F64, 2, 4096, 1024, 0, "", "=rowsum_d2__ptxopt_staged"));
  cs.push_back(rows("rowsum_d2", Elem::F64, 2, 1000, 1001, 0, forced, "=rowsum_d2__ptxopt_staged"));
  // gemv_f4(A, x, y, n, m): m floats a row, x of m floats.
  auto gemv = [&](unsigned n, unsigned m, const std::string &passes, const std::string &expect) {
    Case c = makeCase("rowwalk vec: gemv_f4 " + std::to_string(n) + "x" + std::to_string(m) +
                          (passes.empty() ? "" : " (staged forced)"),
                      "rowwalkvec", "gemv_f4",
                      {in(Elem::F32, size_t(n) * m), in(Elem::F32, m), out(Elem::F32, n), i32(int32_t(n)),
                       i32(int32_t(m))},
                      {(n + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(n) * m >= (size_t(1) << 24);
    return c;
  };
  cs.push_back(gemv(4096, 4096, "", "=gemv_f4__ptxopt_staged"));
  cs.push_back(gemv(1000, 4100, forced, "=gemv_f4__ptxopt_staged"));
  // Pixels: kernel(A, y, n, m), n rows of m uchar4 (short4) pixels, y of
  // floats or ints. rowsum_c4 has lanes clones ahead of the staged one:
  // `staged` (rowwalk-lanes=0) measures the staged clone alone.
  const std::string staged = "rowwalk;rowwalk-lanes=0", stagedForced = "rowwalk;rowwalk-lanes=0;rowwalk-staged=1";
  auto pixels = [&](const std::string &kernel, Elem e, Elem result, unsigned n, unsigned m, uint32_t offset,
                    const std::string &passes, const std::string &expect) {
    Case c = makeCase("rowwalk vec: " + kernel + " " + std::to_string(n) + " rows of " + std::to_string(m) +
                          " pixels" + (offset ? " base +" + std::to_string(offset) : "") +
                          (passes.empty() ? "" : " (" + passes + ")"),
                      "rowwalkvec", kernel,
                      {in(e, size_t(n) * m * 4, offset), out(result, n), i32(int32_t(n)), i32(int32_t(m))},
                      {(n + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(n) * m * 4 * elemSize(e) >= (size_t(1) << 26);
    return c;
  };
  cs.push_back(pixels("rowgray_c4", Elem::I8, Elem::F32, 4096, 4096, 0, "", "=rowgray_c4__ptxopt_staged"));
  cs.push_back(pixels("rowgray_c4", Elem::I8, Elem::F32, 8192, 1024, 0, "", "=rowgray_c4__ptxopt_staged"));
  cs.push_back(pixels("rowgray_c4", Elem::I8, Elem::F32, 1000, 1004, 0, forced, "=rowgray_c4__ptxopt_staged"));
  cs.push_back(pixels("rowgray_c4", Elem::I8, Elem::F32, 4096, 4098, 0, "", "original"));  // rows 8 bytes off 16
  cs.push_back(pixels("rowgray_c4", Elem::I8, Elem::F32, 4096, 4096, 4, "", "original"));  // base 4 bytes off 16
  cs.push_back(pixels("rowgray_c4", Elem::I8, Elem::F32, 4096, 100, 0, "", "original"));   // under the floor
  cs.push_back(pixels("rowsum_c4", Elem::I8, Elem::I32, 4096, 4096, 0, "", "=rowsum_c4__ptxopt_lanes"));
  cs.push_back(pixels("rowsum_c4", Elem::I8, Elem::I32, 4096, 4096, 0, staged, "=rowsum_c4__ptxopt_staged"));
  cs.push_back(pixels("rowsum_c4", Elem::I8, Elem::I32, 1000, 1004, 0, stagedForced, "=rowsum_c4__ptxopt_staged"));
  // p.x - p.y + p.z - p.w: a chain of sub and add, the lanes clones' since
  // the twentieth session (8-byte loads, at any row alignment); the staged
  // clone with lanes off.
  cs.push_back(pixels("rowsum_s4", Elem::I16, Elem::I32, 4096, 2048, 0, "", "=rowsum_s4__ptxopt_lanes"));
  cs.push_back(pixels("rowsum_s4", Elem::I16, Elem::I32, 4096, 2048, 0, staged, "=rowsum_s4__ptxopt_staged"));
  cs.push_back(pixels("rowsum_s4", Elem::I16, Elem::I32, 1000, 1002, 0, stagedForced, "=rowsum_s4__ptxopt_staged"));
  cs.push_back(pixels("rowsum_s4", Elem::I16, Elem::I32, 4096, 2049, 0, "", "=rowsum_s4__ptxopt_lanes"));  // rows 8 bytes off 16
}

}  // namespace gpudiff
