// gpu-diff cases ("rowwalk gaps: ") of row walks whose loads read part of
// each iteration's bytes (issue 29; Planner::gapsRefusal, alignGappedPiece;
// tests/lit/rowwalk/Inputs/gaps.cu): the real parts of interleaved complex
// rows, a field of a struct element, the imaginary parts of doubles (the
// piece moved down to the row's 16-byte boundary), two of every four
// floats, every fourth float through a 32-bit index. The staged clone's
// copies read the gaps too, inside the rows' allocation (each warp checks
// its tiles against the allocation's end, a launch argument). Every clone
// compared bit for bit with the original on random non-zero inputs.
//
// Edges: rows not a multiple of the block, row lengths not a multiple of
// the tile, rows not 16-byte aligned (the original: the aligned clone's
// condition fails, and the unaligned clone refuses gaps), rows under the
// floor, and the buffer ending right after the last element read (the last
// imaginary part missing: the last warp's check fails and it runs the
// original loop).
#include "Cases.h"

namespace gpudiff {

namespace {

/// re_sum_f32(Z rows x 2n, out rows, rows, n); `less` floats short of the
/// whole matrix at the end.
Case reSum(unsigned rows, unsigned n, unsigned block, const std::string &expect, size_t less = 0,
           const std::string &what = "") {
  return rowsCase("rowwalk gaps", "rowwalkgaps", "re_sum_f32",
                  {in(Elem::F32, size_t(rows) * 2 * n - less), out(Elem::F32, rows), i32(int32_t(rows)),
                   i32(int32_t(n))},
                  rows, n, block, expect, what);
}

/// `kernel`(Z rows x n elements of `per` values of type e, out rows, rows, n).
Case gapRows(const std::string &kernel, Elem e, unsigned per, unsigned rows, unsigned n, unsigned block,
          const std::string &expect) {
  return rowsCase("rowwalk gaps", "rowwalkgaps", kernel,
                  {in(e, size_t(rows) * per * n), out(e, rows), i32(int32_t(rows)), i32(int32_t(n))}, rows, n,
                  block, expect);
}

}  // namespace

void addRowWalkGaps(std::vector<Case> &cs) {
  cs.push_back(reSum(8192, 2048, 256, "=re_sum_f32__ptxopt_staged"));
  cs.push_back(reSum(4001, 1000, 128, "=re_sum_f32__ptxopt_staged", 0, "rows not a multiple of the block"));
  cs.push_back(reSum(8192, 2048, 256, "=re_sum_f32__ptxopt_staged", 1, "the last imaginary part not allocated"));
  cs.push_back(reSum(8192, 1025, 256, "original", 0, "rows not 16-byte aligned"));
  cs.push_back(reSum(65536, 100, 256, "original", 0, "rows under the floor"));
  cs.push_back(gapRows("re_field_f32", Elem::F32, 2, 8192, 2048, 256, "=re_field_f32__ptxopt_staged"));
  cs.push_back(gapRows("im_sum_f64", Elem::F64, 2, 8192, 1024, 256, "=im_sum_f64__ptxopt_staged"));
  cs.push_back(gapRows("xy_of4_f32", Elem::F32, 4, 8192, 1024, 128, "=xy_of4_f32__ptxopt_staged"));
  cs.push_back(gapRows("every4_f32", Elem::F32, 4, 8192, 1024, 256, "=every4_f32__ptxopt_staged"));
  cs.push_back(gapRows("every8_f32", Elem::F32, 8, 4096, 1024, 256, "original"));  // refused: 16 of 32 bytes unread
}

}  // namespace gpudiff
