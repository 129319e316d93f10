// gpu-diff cases ("rowwalk pointer guards: ") of pointer walks whose body
// branches (issue 29; `for (p = row; p < row + n; ++p) if (...)`, which nvcc
// keeps rolled: the staged clone's per-lane form on runGuarded's small-step
// retry; tests/lit/rowwalk/Inputs/ptrguards.cu): top-2 and top-4 of int
// rows (heldout16's topk_rows), a guarded division over floats, a running
// maximum over doubles (`long` sizes), a count and hash of matching
// `unsigned` elements, a triangle walked by pointer (per lane), a plain
// sum (one block), runs of equal bytes (one byte an iteration). Every clone compared bit for bit with the original on
// random non-zero inputs.
//
// Edges: rows not a multiple of the block (the last warp's solo form), row
// lengths not a multiple of the tile, rows not 16-byte aligned (the
// unaligned clone), rows under the floor (the original).
#include "Cases.h"

namespace gpudiff {

void addRowWalkPtrGuards(std::vector<Case> &cs) {
  const std::string p = "rowwalk pointer guards", f = "rowwalkptrguards";
  // (S, topv, topi, rows, n): the K largest of each row of ints.
  auto top = [&](unsigned K, unsigned rows, unsigned n, unsigned block, const std::string &expect,
                 const std::string &what = "") {
    const std::string k = "ptr_top" + std::to_string(K) + "_i32";
    return rowsCase(p, f, k,
                    {in(Elem::I32, size_t(rows) * n), out(Elem::I32, size_t(rows) * K),
                     out(Elem::I32, size_t(rows) * K), i32(int32_t(rows)), i32(int32_t(n))},
                    rows, n, block, expect.empty() ? "original" : "=" + k + "__ptxopt_" + expect, what);
  };
  cs.push_back(top(4, 65536, 512, 1024, "staged", "heldout16's shape"));
  cs.push_back(top(2, 4096, 4096, 256, "staged"));
  cs.push_back(top(4, 4001, 1004, 128, "staged", "rows not a multiple of the block"));
  cs.push_back(top(4, 16384, 1001, 256, "staged_unaligned", "rows off 16-byte boundaries"));
  cs.push_back(top(4, 65536, 200, 256, "", "rows under the floor"));
  // (a, out, rows, n, d)
  for (auto [rows, n, expect] : {std::tuple<unsigned, unsigned, std::string>{4096, 4096, "staged"},
                                 {8192, 2049, "staged_unaligned"}})
    cs.push_back(rowsCase(p, f, "ptr_skipdiv_f32",
                          {in(Elem::F32, size_t(rows) * n), out(Elem::F32, rows), i32(int32_t(rows)),
                           i32(int32_t(n)), f32(3.0f)},
                          rows, n, 256, "=ptr_skipdiv_f32__ptxopt_" + expect, n % 4 ? "rows off 16-byte boundaries" : ""));
  // (a, out, rows, n), `long` sizes.
  for (auto [rows, n, expect] : {std::tuple<unsigned, unsigned, std::string>{8192, 2048, "staged"},
                                 {4000, 1999, "staged_unaligned"}})
    cs.push_back(rowsCase(p, f, "ptr_while_f64",
                          {in(Elem::F64, size_t(rows) * n), out(Elem::F64, rows), i64(rows), i64(n)}, rows, n, 256,
                          "=ptr_while_f64__ptxopt_" + expect, n % 2 ? "rows off 16-byte boundaries" : ""));
  // A triangle by pointer (row i's first i + 1 elements): the per-lane form.
  cs.push_back(rowsCase(p, f, "ptr_tri_f32",
                        {in(Elem::F32, size_t(8192) * 8192), out(Elem::F32, 8192), i32(8192), i32(8192)}, 8192,
                        8192, 256, "=ptr_tri_f32__ptxopt_staged", "a triangle, per lane"));
  // No branch (one block): the uniform form, aligned and not.
  for (auto [n, expect] : {std::pair<unsigned, std::string>{4096, "staged"}, {4095, "staged_unaligned"}})
    cs.push_back(rowsCase(p, f, "ptr_sum_f32",
                          {in(Elem::F32, size_t(8192) * n), out(Elem::F32, 8192), i32(8192), i32(int32_t(n))}, 8192, n,
                          256, "=ptr_sum_f32__ptxopt_" + expect, n % 4 ? "one block, rows off 16-byte boundaries"
                                                                      : "one block"));
  // Runs of equal bytes from each row's second byte (heldout16's run_stats:
  // 16384 x 8192 labels, 1024-thread blocks): the unaligned clone only (its
  // pieces start 1 byte past a boundary wherever the rows align); rows of
  // 8191 bytes.
  for (unsigned n : {8192u, 8191u})
    cs.push_back(rowsCase(p, f, "ptr_runs_u8",
                          {in(Elem::I8, size_t(16384) * n), out(Elem::I32, 16384), out(Elem::I32, 16384), i64(16384),
                           i64(n)},
                          16384, n, 1024, "=ptr_runs_u8__ptxopt_staged_unaligned",
                          n == 8192 ? "heldout16's run_stats" : "rows of 8191 bytes"));
  // A rolled `long` counter from j = 2 (the uniform form with a signed
  // counter's range checks; its pieces start 8 bytes past a boundary: the
  // unaligned clone only). Added after the session's GPU runs: first run
  // in the thirty-sixth session.
  for (unsigned n : {4096u, 4095u})
    cs.push_back(rowsCase(p, f, "long_from2_i32",
                          {in(Elem::I32, size_t(8192) * n), out(Elem::I32, 8192), i64(8192), i64(n)}, 8192, n, 256,
                          "=long_from2_i32__ptxopt_staged_unaligned", "a rolled long counter from 2"));
  // (a, out, rows, n, key), `unsigned` sizes; odd random values, key 5.
  cs.push_back(rowsCase(p, f, "ptr_match_u32",
                        {in(Elem::I32, size_t(32768) * 1024), out(Elem::I32, size_t(2) * 32768), i32(32768), i32(1024),
                         i32(5)},
                        32768, 1024, 128, "=ptr_match_u32__ptxopt_staged"));
}

}  // namespace gpudiff
