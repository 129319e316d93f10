// gpu-diff cases ("rowwalk local: ") of row walks that update an array of
// the thread's own indexed by data, kept in local memory (issue 29;
// tests/lit/rowwalk/Inputs/localrows.cu; heldout16's hist8_rows): a byte
// histogram, float bins, the last position of each key. The staged clone
// (planLanes skips local accesses for it). Every clone compared bit for
// bit with the original on random non-zero inputs.
//
// Edges: rows not 16-byte aligned (the unaligned clone), rows not a
// multiple of the block (the solo form), rows under the floor (the
// original).
#include "Cases.h"

namespace gpudiff {

void addRowWalkLocal(std::vector<Case> &cs) {
  const std::string p = "rowwalk local", f = "rowwalklocal";
  // hist8_u8(img, hist, rows, n): 8 counts a row.
  for (auto [rows, n, block, expect, what] :
       {std::tuple<unsigned, unsigned, unsigned, std::string, std::string>{16384, 8192, 1024, "staged",
                                                                           "heldout16's shape"},
        {16384, 8191, 256, "staged_unaligned", "rows off 16-byte boundaries"},
        {4001, 1024, 128, "staged", "rows not a multiple of the block"},
        {65536, 200, 256, "", "rows under the floor"}})
    cs.push_back(rowsCase(p, f, "hist8_u8",
                          {in(Elem::I8, size_t(rows) * n), out(Elem::I32, size_t(rows) * 8), i32(int32_t(rows)),
                           i32(int32_t(n))},
                          rows, n, block, expect.empty() ? "original" : "=hist8_u8__ptxopt_" + expect, what));
  // bins_f32 / lastpos_i32 (a, out, rows, n).
  for (auto [k, e] : {std::pair<std::string, Elem>{"bins_f32", Elem::F32}, {"lastpos_i32", Elem::I32}})
    for (auto [rows, n, expect] : {std::tuple<unsigned, unsigned, std::string>{8192, 4096, "staged"},
                                   {8192, 4095, "staged_unaligned"}})
      cs.push_back(rowsCase(p, f, k, {in(e, size_t(rows) * n), out(e, rows), i32(int32_t(rows)), i32(int32_t(n))},
                            rows, n, 256, "=" + k + "__ptxopt_" + expect, n % 4 ? "rows off 16-byte boundaries" : ""));
}

}  // namespace gpudiff
