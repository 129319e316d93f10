// gpu-diff cases of rowwalk's staged clone on rows that do not start
// 16-byte aligned (tests/lit/rowwalk/Inputs/unaligned.cu; issue 29): the
// `_unaligned` form copies each row's tile from the 16-byte boundary below
// its start, one piece more, and each lane reads its row at its offset.
// Every clone compared bit for bit with the original; beside each unaligned
// shape its aligned twin (one element more or less a row), whose clone is
// the aligned `_staged`, for the timing table.
//
// Edges: rows not a multiple of 32 and 96-thread blocks (forced with
// rowwalk-staged=1), a base pointer 4 bytes off 16 with an aligned row
// length, a row length under the floor and of 0 (the original), rows whose
// alignment no condition can check (Rodinia's `w[j*(n+1) + k]`, aligned
// or not), a constant row of 1001 floats, kmeans' invert_mapping (with its
// stores) at 257 features, and the refused rows of bytes (the original).
#include "Cases.h"

namespace gpudiff {

void addRowWalkUnaligned(std::vector<Case> &cs) {
  const std::string forced = "rowwalk;rowwalk-staged=1";
  // kernel(A, y, m, n): m rows of n elements of `e`, y of `ye`.
  auto rows = [&](const std::string &kernel, Elem e, Elem ye, unsigned m, unsigned n, unsigned block,
                  uint32_t offset, const std::string &passes, const std::string &expect) {
    Case c = makeCase("rowwalk unaligned: " + kernel + " " + std::to_string(m) + "x" + std::to_string(n) + " b" +
                          std::to_string(block) + (offset ? " base +" + std::to_string(offset) : "") +
                          (passes.empty() ? "" : " (staged forced)"),
                      "rowwalkunaligned", kernel,
                      {in(e, size_t(m) * n, offset), out(ye, m), i32(int32_t(m)), i32(int32_t(n))},
                      {(m + block - 1) / block, 1, 1}, {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(m) * n >= (size_t(1) << 24);
    return c;
  };
  const std::string su = "=rowsum_int_idx__ptxopt_staged_unaligned";
  cs.push_back(rows("rowsum_int_idx", Elem::F32, Elem::F32, 4096, 4096, 256, 0, "", "=rowsum_int_idx__ptxopt_staged"));
  cs.push_back(rows("rowsum_int_idx", Elem::F32, Elem::F32, 4096, 4097, 256, 0, "", su));
  cs.push_back(rows("rowsum_int_idx", Elem::F32, Elem::F32, 4096, 4099, 256, 0, "", su));
  cs.push_back(rows("rowsum_int_idx", Elem::F32, Elem::F32, 8192, 2050, 256, 0, "", su));
  cs.push_back(rows("rowsum_int_idx", Elem::F32, Elem::F32, 4096, 4096, 256, 4, "", su));  // base off 16
  cs.push_back(rows("rowsum_int_idx", Elem::F32, Elem::F32, 1000, 1003, 256, 0, forced, su));
  cs.push_back(rows("rowsum_int_idx", Elem::F32, Elem::F32, 1000, 1003, 96, 0, forced, su));
  cs.push_back(rows("rowsum_int_idx", Elem::F32, Elem::F32, 4096, 255, 256, 0, "", "original"));  // under the floor
  cs.push_back(rows("rowsum_int_idx", Elem::F32, Elem::F32, 1000, 0, 256, 0, forced, "original"));
  // Bytes at any offset: the unaligned clone (since the thirty-fifth
  // session; its loads read each byte alone, no 4-byte windows).
  cs.push_back(rows("rowsum_u8", Elem::I8, Elem::F32, 4096, 4097, 256, 0, "", "=rowsum_u8__ptxopt_staged_unaligned"));
  cs.push_back(rows("rowsum_u8", Elem::I8, Elem::F32, 4096, 4096, 256, 0, "", "=rowsum_u8__ptxopt_staged"));
  // gemv_f64(A, x, y, m, n), 64-bit m and n.
  auto gemv = [&](unsigned m, unsigned n, const std::string &expect) {
    Case c = makeCase("rowwalk unaligned: gemv_f64 " + std::to_string(m) + "x" + std::to_string(n), "rowwalkunaligned",
                      "gemv_f64",
                      {in(Elem::F64, size_t(m) * n), in(Elem::F64, n), out(Elem::F64, m), i64(int32_t(m)),
                       i64(int32_t(n))},
                      {(m + 255) / 256, 1, 1}, {256, 1, 1});
    c.expect = expect;
    c.big = size_t(m) * n >= (size_t(1) << 23);
    return c;
  };
  cs.push_back(gemv(4096, 2048, "=gemv_f64__ptxopt_staged"));
  cs.push_back(gemv(4096, 2049, "=gemv_f64__ptxopt_staged_unaligned"));
  // rowmax_c1001(A, mx, at, m): rows of 1001 floats.
  for (auto [m, passes] : {std::pair<unsigned, std::string>{8192, ""}, {1000, forced}}) {
    Case c = makeCase("rowwalk unaligned: rowmax_c1001 " + std::to_string(m) + " rows" +
                          (passes.empty() ? "" : " (staged forced)"),
                      "rowwalkunaligned", "rowmax_c1001",
                      {in(Elem::F32, size_t(m) * 1001), out(Elem::F32, m), out(Elem::I32, m), i32(int32_t(m))},
                      {(m + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = "=rowmax_c1001__ptxopt_staged_unaligned";
    c.big = m >= 8192;
    cs.push_back(c);
  }
  // bias_rows(w, x, y, m, n): rows of n + 1 floats.
  for (unsigned n : {1000u, 1003u, 4095u}) {
    Case c = makeCase("rowwalk unaligned: bias_rows 4096 rows of " + std::to_string(n) + " + 1", "rowwalkunaligned",
                      "bias_rows",
                      {in(Elem::F32, size_t(4096) * (n + 1)), in(Elem::F32, n), out(Elem::F32, 4096), i32(4096),
                       i32(int32_t(n))},
                      {16, 1, 1}, {256, 1, 1});
    c.expect = "=bias_rows__ptxopt_staged_unaligned_pack";  // pack merges x[k..k+3]
    c.big = n > 4000;
    cs.push_back(c);
  }
  // dot_rows(A, B, y, m, n): two matrices at one index.
  for (auto [n, expect] : {std::pair<unsigned, std::string>{2048, "=dot_rows__ptxopt_staged"},
                           {2047, "=dot_rows__ptxopt_staged_unaligned"}}) {
    Case c = makeCase("rowwalk unaligned: dot_rows 4096x" + std::to_string(n), "rowwalkunaligned", "dot_rows",
                      {in(Elem::F32, size_t(4096) * n), in(Elem::F32, size_t(4096) * n), out(Elem::F32, 4096),
                       i32(4096), i32(int32_t(n))},
                      {16, 1, 1}, {256, 1, 1});
    c.expect = expect;
    c.big = true;
    cs.push_back(c);
  }
  // Rows not a multiple of 32 at scale: the last warp's lanes are not all
  // in the loop and take the solo form (each lane copies its own row; the
  // original loop, 4096 iterations of one warp, took longer than the whole
  // original kernel: 0.94x and 0.64x on the H200 before it). The aligned
  // clone's too (tworows.cu's dot rows, rows of 4100).
  cs.push_back(rows("rowsum_int_idx", Elem::F32, Elem::F32, 4099, 4099, 256, 0, "", su));
  {
    Case c = makeCase("rowwalk unaligned: dot_rows 4099x4099", "rowwalkunaligned", "dot_rows",
                      {in(Elem::F32, size_t(4099) * 4099), in(Elem::F32, size_t(4099) * 4099), out(Elem::F32, 4099),
                       i32(4099), i32(4099)},
                      {17, 1, 1}, {256, 1, 1});
    c.expect = "=dot_rows__ptxopt_staged_unaligned";
    c.big = true;
    cs.push_back(c);
    const size_t nn = size_t(4100) * 4100;
    Case d = makeCase("rowwalk unaligned: tr_dot_rows n4100, 4100 rows (aligned, solo tail)", "rowwalktworows",
                      "tr_dot_rows",
                      {in(Elem::F32, nn), in(Elem::F32, nn), out(Elem::F32, 4100), i32(4100), i32(4100)}, {17, 1, 1},
                      {256, 1, 1});
    d.expect = "=tr_dot_rows__ptxopt_staged";
    d.big = true;
    cs.push_back(d);
  }
  // kmeans' invert_mapping (tests/lit/rowwalk/Inputs/stores.cu) at 257
  // features: rows of 1028 bytes, with the loop's stores.
  {
    const size_t n = size_t(65536) * 257;
    Case c = makeCase("rowwalk unaligned: invert_mapping 65536 points of 257", "rowwalkstores", "invert_mapping",
                      {in(Elem::F32, n), out(Elem::F32, n), i32(65536), i32(257)}, {256, 1, 1}, {256, 1, 1});
    c.expect = "=invert_mapping__ptxopt_staged_unaligned";
    c.big = true;
    cs.push_back(c);
  }
}

}  // namespace gpudiff
