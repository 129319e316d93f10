// gpu-diff cases of masked row walks: loads along the row under a guard on
// data loaded in the loop (issue 29; RowWalkGuards.cpp, laneOwnData;
// tests/lit/rowwalk/Inputs/masked.cu): guards on data of the lane's own by
// default, guards on data every lane reads alike with the pass option
// rowwalk-masked. Every clone
// compared bit for bit with the original on random inputs; the timings say
// where the tiles, which read every element the guard may skip, pay.
//
// Shapes: a byte mask over a float row letting nearly all (t = 0), half
// (t = 128), one in 10 (t = 230) and one in 85 (t = 252) through; int rows
// with one element in 3 or in 50 zero; two ways on loaded floats. Edges:
// blocks of 96 with rows not a multiple of 32, rows not 16-byte aligned
// (no unaligned form for guarded loads: the original). Then guards on data
// every lane reads alike, with the option (added after the GPU run of the
// thirty-first session: not yet measured).
#include "Cases.h"

#include <tuple>

namespace gpudiff {

namespace {

const std::string kMasked = "-O2;rowwalk-masked";  // guards on data every lane reads alike
const std::string kForced = "-O2;rowwalk-staged=1";

/// masked_gemv_u8(mask rows x n, A rows x n, x n, y rows, rows, n, t).
Case gemv(unsigned rows, unsigned n, int t, unsigned block, const std::string &passes, const std::string &expect) {
  return rowsCase("rowwalk masked", "masked", "masked_gemv_u8",
                  {in(Elem::I8, size_t(rows) * n), in(Elem::F32, size_t(rows) * n), in(Elem::F32, n),
                   out(Elem::F32, rows), i32(int32_t(rows)), i32(int32_t(n)), i32(t)},
                  rows, n, block, expect, "mask > " + std::to_string(t), passes);
}

}  // namespace

void addMasked(std::vector<Case> &cs) {
  for (int t : {0, 128, 230, 252}) cs.push_back(gemv(4096, 4096, t, 256, "", "=masked_gemv_u8__ptxopt_staged"));
  cs.push_back(gemv(1000, 1024, 128, 96, kForced, "=masked_gemv_u8__ptxopt_staged"));
  cs.push_back(gemv(1000, 1004, 128, 96, kForced, "original"));  // rows not 16-byte aligned
  // sparse_pair_dot(P rows x cols, Q rows x cols, cnt rows, dot rows, rows, cols as size_t).
  for (unsigned zeros : {3u, 50u}) {
    const unsigned rows = 4096, cols = 4096;
    cs.push_back(rowsCase("rowwalk masked", "masked", "sparse_pair_dot",
                          {inZeros(Elem::I32, size_t(rows) * cols, zeros), in(Elem::I32, size_t(rows) * cols),
                           out(Elem::I32, rows), out(Elem::I64, rows), i64(rows), i64(cols)},
                          rows, cols, 256, "=sparse_pair_dot__ptxopt_staged",
                          "one in " + std::to_string(zeros) + " zero"));
  }
  // three_way_branch(A, B, C rows x cols, x cols, out rows, rows, cols).
  for (auto [rows, cols, block, passes] :
       {std::tuple<unsigned, unsigned, unsigned, std::string>{4096, 4096, 256, ""}, {1000, 1028, 96, kForced}}) {
    const size_t n = size_t(rows) * cols;
    cs.push_back(rowsCase("rowwalk masked", "masked", "three_way_branch",
                          {in(Elem::F32, n), in(Elem::F32, n), in(Elem::F32, n), in(Elem::F32, cols),
                           out(Elem::F32, rows), i32(int32_t(rows)), i32(int32_t(cols))},
                          rows, cols, block, "=three_way_branch__ptxopt_staged", "", passes));
  }
  // Guards on data every lane reads alike (x[j] > 50, mask[j]; the
  // refused cases of CasesRowWalkGuards.cpp with the option): the original
  // skips whole columns where the guard fails, the tiles read them all.
  auto uniform = [&](const std::string &file, const std::string &kernel, const std::string &what, Arg guard) {
    const unsigned n = 4096, m = 4096;
    cs.push_back(rowsCase("rowwalk masked", file, kernel,
                          {in(Elem::F32, size_t(n) * m), guard, out(Elem::F32, n), i32(int32_t(n)), i32(int32_t(m))}, n,
                          m, 256, "=" + kernel + "__ptxopt_staged", what, kMasked));
  };
  uniform("rowwalkguards", "guardedrow_f32", "x[j] > 50", in(Elem::F32, 4096));
  uniform("rowwalkidxguards", "mask_f32", "mask[j]", in(Elem::I32, 4096));
}

}  // namespace gpudiff
