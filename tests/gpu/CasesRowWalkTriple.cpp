// gpu-diff cases ("rowwalk triple: ") of rows of 12- and 24-byte elements
// (issue 29; tripleStep, the staged clone's 192-byte tiles of 12 pieces;
// tests/lit/rowwalk/Inputs/triple.cu): float3 squared norms, a struct of
// three floats' centroid, double3 rows dotted with a vector every thread
// reads alike, int3 checksums. Every clone compared bit for bit with the
// original on random non-zero inputs.
//
// Edges: rows not a multiple of the block (the last warp's solo form), row
// lengths not a multiple of the tile, rows not 16-byte aligned (a float3
// row length not a multiple of 4: the original, no unaligned clone), rows
// under the floor (pack's clone), a float3 row through an `unsigned` index,
// rows read with gaps (the buffer ending at the last point's y).
#include "Cases.h"

namespace gpudiff {

namespace {

/// `kernel`(P rows x m elements of `per` values of type e, out rows x outs, rows, m).
Case tripleRows(const std::string &kernel, Elem e, unsigned per, unsigned outs, unsigned rows, unsigned m,
                unsigned block, const std::string &expect, const std::string &what = "") {
  return rowsCase("rowwalk triple", "rowwalktriple", kernel,
                  {in(e, size_t(rows) * per * m), out(e, size_t(rows) * outs), i32(int32_t(rows)), i32(int32_t(m))},
                  rows, m, block, expect, what);
}

}  // namespace

void addRowWalkTriple(std::vector<Case> &cs) {
  cs.push_back(tripleRows("f3_norm", Elem::F32, 3, 1, 8192, 2048, 256, "=f3_norm__ptxopt_staged"));
  cs.push_back(tripleRows("f3_norm", Elem::F32, 3, 1, 4001, 1000, 128, "=f3_norm__ptxopt_staged",
                          "rows not a multiple of the block"));
  cs.push_back(tripleRows("f3_norm", Elem::F32, 3, 1, 8192, 1026, 256, "original", "rows not 16-byte aligned"));
  cs.push_back(tripleRows("f3_norm", Elem::F32, 3, 1, 65536, 100, 256, "=f3_norm__ptxopt_pack", "rows under the floor: pack"));
  cs.push_back(tripleRows("pt_centroid", Elem::F32, 3, 3, 8192, 2048, 128, "=pt_centroid__ptxopt_staged"));
  cs.push_back(tripleRows("i3_sum", Elem::I32, 3, 1, 8192, 2048, 256, "=i3_sum__ptxopt_staged"));
  cs.push_back(tripleRows("f3_u32", Elem::F32, 3, 1, 8192, 2048, 256, "=f3_u32__ptxopt_staged",
                          "an unsigned index, x and z"));
  cs.push_back(tripleRows("f3_xy", Elem::F32, 3, 1, 8192, 2048, 256, "=f3_xy__ptxopt_staged", "x and y"));
  {  // the last z (a gap the copies would read) not allocated: the last warp runs the original loop
    Case c = rowsCase("rowwalk triple", "rowwalktriple", "f3_xy",
                      {in(Elem::F32, size_t(8192) * 3 * 2048 - 1), out(Elem::F32, 8192), i32(8192), i32(2048)}, 8192,
                      2048, 256, "=f3_xy__ptxopt_staged", "x and y, the last z not allocated");
    cs.push_back(c);
  }
  for (unsigned m : {1024u, 1022u}) {
    const unsigned rows = 8192;
    cs.push_back(rowsCase("rowwalk triple", "rowwalktriple", "d3_dot",
                          {in(Elem::F64, size_t(rows) * 3 * m), in(Elem::F64, size_t(3) * m), out(Elem::F64, rows),
                           i32(int32_t(rows)), i32(int32_t(m))},
                          rows, m, 256, "=d3_dot__ptxopt_staged"));
  }
}

}  // namespace gpudiff
