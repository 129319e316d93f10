// gpu-diff cases ("rowwalk rowdiv: ") of rows whose distance apart the
// kernel divides out of a parameter (issue 29; `A4[i*(cols/4) + k]`, the
// thirteenth held-out batch's rowdot_f4; tests/lit/rowwalk/Inputs/rowdiv.cu):
// float4 rows of cols / 4 pieces (the staged clone), float rows of cols / 3
// (the unaligned clone), `unsigned` rows of cols / 2 (the lanes clones), each
// with its floor on cols scaled by the division (RowWalkFloors.cpp: cols >=
// 1024, 768, 512 / 256 / 64). Every clone compared bit for bit with the
// original on random non-zero inputs.
//
// Edges: cols right at the floor and under it (the original), rows not
// 16-byte aligned (cols / 3 odd), and the refused shapes (float2 rows u * 8
// bytes apart; a row starting at cols / 8).
#include "Cases.h"

namespace gpudiff {

namespace {

/// `kernel`(A rows x perRow 4-byte elements, [w cols], out rows, rows, cols).
Case divRows(const std::string &kernel, Elem e, unsigned rows, unsigned cols, unsigned perRow, bool weights,
             unsigned block, const std::string &expect, const std::string &what = "") {
  std::vector<Arg> args{in(e, size_t(rows) * perRow + 4)};
  if (weights) args.push_back(in(Elem::F32, cols + 4));
  args.push_back(out(e, rows));
  args.push_back(i32(int32_t(rows)));
  args.push_back(i32(int32_t(cols)));
  return rowsCase("rowwalk rowdiv", "rowwalkrowdiv", kernel, std::move(args), rows, cols, block, expect, what);
}

}  // namespace

void addRowWalkRowDiv(std::vector<Case> &cs) {
  // rowdot_f4: A holds rows x cols floats (cols / 4 float4 pieces a row).
  auto f4 = [](unsigned rows, unsigned cols, unsigned block, const std::string &expect, const std::string &what = "") {
    return divRows("rowdot_f4", Elem::F32, rows, cols, cols / 4 * 4, true, block, expect, what);
  };
  cs.push_back(f4(16384, 2048, 128, "=rowdot_f4__ptxopt_staged_pack"));
  cs.push_back(f4(32768, 1024, 256, "=rowdot_f4__ptxopt_staged_pack", "cols at the floor"));
  cs.push_back(f4(65536, 1020, 256, "=rowdot_f4__ptxopt_pack", "cols under the floor"));  // pack: w merged
  cs.push_back(f4(4001, 4096, 64, "=rowdot_f4__ptxopt_staged_pack", "rows not a multiple of the block"));
  cs.push_back(divRows("third_f32", Elem::F32, 12000, 3072, 1024, false, 256, "=third_f32__ptxopt_staged_unaligned"));
  cs.push_back(divRows("third_f32", Elem::F32, 12000, 3069, 1023, false, 256, "=third_f32__ptxopt_staged_unaligned",
                       "rows of 1023 floats"));
  cs.push_back(divRows("third_f32", Elem::F32, 65536, 600, 200, false, 256, "original", "rows under the floor"));
  cs.push_back(divRows("half_u32", Elem::I32, 8192, 8192, 4096, false, 256, "=half_u32__ptxopt_lanes"));
  cs.push_back(divRows("half_u32", Elem::I32, 65536, 300, 150, false, 256, "=half_u32__ptxopt_lanes8"));
  cs.push_back(divRows("half_u32", Elem::I32, 65536, 100, 50, false, 256, "=half_u32__ptxopt_lanes4"));
  cs.push_back(divRows("half_u32", Elem::I32, 65536, 60, 30, false, 256, "original", "rows under every floor"));
  cs.push_back(divRows("cabs2_f2", Elem::F32, 8192, 4096, 4096, false, 256, "original"));  // refused: not alignable
  cs.push_back(divRows("tail_f4", Elem::F32, 8192, 4096, 4096, false, 256, "original"));   // refused: u in the start
}

}  // namespace gpudiff
