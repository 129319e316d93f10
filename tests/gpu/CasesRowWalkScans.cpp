// gpu-diff cases of the rowwalk pass's staged clone on scans along a row
// (issue 29; tests/lit/rowwalk/Inputs/scans.cu): each iteration reads the
// element the previous one stored (heldout9's scan_rows, `a[j] += a[j-1]`
// with int, size_t indices, 4- and 8-byte integers and floats, a running
// maximum, a decaying scan, a scan into another array). Only the unaligned
// clone takes them (the pieces start one element past the row). Every clone
// compared bit for bit with the original on random inputs, the rows stored
// into compared after the run.
//
// Edges: rows not a multiple of 32 (a warp of 24 lanes: the solo form),
// row lengths not a multiple of the tile (the rest in the original loop)
// and not of 4 elements (each row at another offset), under the launch
// floor (the original), a scan into an array inside its input (the
// original), and the refused lookalikes. The matrices are 64-128 MB (past
// the 50 MB L2), except the edges.
#include "Cases.h"

#include <tuple>

namespace gpudiff {

void addRowWalkScans(std::vector<Case> &cs) {
  auto add = [&](const std::string &kernel, std::vector<Arg> args, unsigned rows, unsigned m, unsigned block,
                 const std::string &expect, const std::string &what = "") {
    cs.push_back(rowsCase("rowwalk scans", "rowwalkscans", kernel, std::move(args), rows, m, block, expect, what));
  };
  auto n = [](unsigned r, unsigned m) { return size_t(r) * m; };
  // scan_i32(a, rows, n): heldout9's scan_rows.
  for (auto [r, m, b] : {std::array<unsigned, 3>{4096, 4096, 128}, {8192, 2048, 256}, {3000, 4001, 64}})
    add("scan_i32", {inout(Elem::I32, n(r, m)), i32(int(r)), i32(int(m))}, r, m, b,
        "=scan_i32__ptxopt_staged_unaligned",
        r % 32 ? "in place, a warp of 24 lanes, rows at every offset" : "in place");
  add("scan_i32", {inout(Elem::I32, n(1000, 1000)), i32(1000), i32(1000)}, 1000, 1000, 256, "!staged",
      "under the launch floor (pack's clone)");
  // scan_f32(a, rows, n): size_t indices.
  add("scan_f32", {inout(Elem::F32, n(4096, 4096)), i64(4096), i64(4096)}, 4096, 4096, 256,
      "=scan_f32__ptxopt_staged_unaligned", "size_t index");
  add("scan_f32", {inout(Elem::F32, n(4096, 4099)), i64(4096), i64(4099)}, 4096, 4099, 256,
      "=scan_f32__ptxopt_staged_unaligned", "size_t index, rows at every offset");
  // scan_i64, scan_f64(a, rows, n)
  add("scan_i64", {inout(Elem::I64, n(4096, 2048)), i32(4096), i32(2048)}, 4096, 2048, 256,
      "=scan_i64__ptxopt_staged_unaligned", "8-byte integers");
  add("scan_f64", {inout(Elem::F64, n(4096, 2051)), i32(4096), i32(2051)}, 4096, 2051, 256,
      "=scan_f64__ptxopt_staged_unaligned", "doubles, rows at both offsets");
  // runmax_i32(a, rows, n); ema_f32(a, rows, n, k)
  add("runmax_i32", {inout(Elem::I32, n(4096, 4096)), i32(4096), i32(4096)}, 4096, 4096, 256,
      "=runmax_i32__ptxopt_staged_unaligned", "a running maximum");
  add("ema_f32", {inout(Elem::F32, n(4096, 4096)), i32(4096), i32(4096), f32(0.375f)}, 4096, 4096, 256,
      "=ema_f32__ptxopt_staged_unaligned", "a decaying scan");
  // scanto_f32(x, s, rows, n): s read only where stored.
  add("scanto_f32", {in(Elem::F32, n(4096, 4096)), inout(Elem::F32, n(4096, 4096)), i32(4096), i32(4096)}, 4096,
      4096, 256, "=scanto_f32__ptxopt_staged_unaligned", "into another array");
  add("scanto_f32", {inout(Elem::F32, n(4096, 4096) * 2), aliasOf(0, Elem::F32, 64), i32(4096), i32(4096)}, 4096,
      4096, 256, "original", "s inside x");
  // Refused: each runs the original (and must give its results).
  add("scan_u32", {inout(Elem::I32, n(4096, 4096)), i32(4096), i32(4096)}, 4096, 4096, 256,
      "=scan_u32__ptxopt_staged_unaligned", "unsigned index");
  add("scan_u32", {inout(Elem::I32, n(3000, 4001)), i32(3000), i32(4001)}, 3000, 4001, 64,
      "=scan_u32__ptxopt_staged_unaligned", "unsigned index, a warp of 24 lanes");
  add("scan2_i32", {inout(Elem::I32, n(4096, 4096)), i32(4096), i32(4096)}, 4096, 4096, 256, "!staged",
      "two back (refused)");
  add("smooth_i32", {inout(Elem::I32, n(4096, 4096)), i32(4096), i32(4096)}, 4096, 4096, 256, "!staged",
      "a stencil in place (refused)");
}

/// Rows walked through a 32-bit index from past their first element
/// (tests/lit/rowwalk/Inputs/index32from1.cu: heldout8's row_max, a row sum
/// seeded with its first element, a matrix-vector product past a leading
/// column, doubles from the third): nvcc's (j + r*cols) + k addresses,
/// refused until the twenty-fourth session. The pieces start 4 bytes past a
/// 16-byte boundary wherever the rows align: the unaligned clone.
void addRowWalkFrom1(std::vector<Case> &cs) {
  auto add = [&](const std::string &kernel, std::vector<Arg> args, unsigned rows, unsigned m, unsigned block,
                 const std::string &expect, const std::string &what, const std::string &passes = "") {
    cs.push_back(
        rowsCase("rowwalk from1", "rowwalkfrom1", kernel, std::move(args), rows, m, block, expect, what, passes));
  };
  auto n = [](unsigned r, unsigned m) { return size_t(r) * m; };
  const std::string noLanes = "-O2;rowwalk-lanes=0";
  // row_max(score, out, rows, cols): integers, so lanes clones come first.
  add("row_max", {in(Elem::I32, n(4096, 4096)), out(Elem::I32, 4096), i32(4096), i32(4096)}, 4096, 4096, 64,
      "clone", "heldout8's row_max");
  add("row_max", {in(Elem::I32, n(4096, 4096)), out(Elem::I32, 4096), i32(4096), i32(4096)}, 4096, 4096, 64,
      "=row_max__ptxopt_staged_unaligned", "heldout8's row_max", noLanes);
  add("row_max", {in(Elem::I32, n(3000, 4001)), out(Elem::I32, 3000), i32(3000), i32(4001)}, 3000, 4001, 64,
      "=row_max__ptxopt_staged_unaligned", "a warp of 24 lanes", noLanes);
  // rowsum_from1(a, out, rows, cols)
  add("rowsum_from1", {in(Elem::F32, n(4096, 4096)), out(Elem::F32, 4096), i32(4096), i32(4096)}, 4096, 4096, 256,
      "=rowsum_from1__ptxopt_staged_unaligned", "float row sum from j = 1");
  add("rowsum_from1", {in(Elem::F32, n(4096, 4099)), out(Elem::F32, 4096), i32(4096), i32(4099)}, 4096, 4099, 256,
      "=rowsum_from1__ptxopt_staged_unaligned", "rows at every offset");
  add("rowsum_from1", {in(Elem::F32, n(1000, 1000)), out(Elem::F32, 1000), i32(1000), i32(1000)}, 1000, 1000, 256,
      "original", "under the launch floor");
  // mv_from1(A, x, y, rows, n)
  add("mv_from1", {in(Elem::F32, n(4096, 4096)), in(Elem::F32, 4096), out(Elem::F32, 4096), i32(4096), i32(4096)},
      4096, 4096, 256, "=mv_from1__ptxopt_staged_unaligned_pack", "past a leading column (x[j] packed)");
  // rowsum_from2_f64(a, out, rows, cols): from 16 bytes in, aligned.
  add("rowsum_from2_f64", {in(Elem::F64, n(4096, 2048)), out(Elem::F64, 4096), i32(4096), i32(2048)}, 4096, 2048,
      256, "clone", "doubles from j = 2");
  // neigh_force(force, pos, cnt, neigh, cutsq, inum): heldout8's neighbour
  // list by an unsigned atom index, a guard on the distance in the loop.
  for (auto [atoms, cnt, what] : {std::tuple<unsigned, unsigned, const char *>{65536, 256, "a neighbour list"},
                                  {65536, 257, "a neighbour list, rows at every offset"}}) {
    add("neigh_force",
        {out(Elem::F32, atoms), in(Elem::F32, size_t(atoms) * 4), i32(int(cnt)), indices(size_t(atoms) * cnt, atoms),
         f32(0.5f), i32(int(atoms))},
        atoms, cnt, 128, cnt % 4 ? "=neigh_force__ptxopt_staged_unaligned" : "=neigh_force__ptxopt_staged", what);
  }
}

}  // namespace gpudiff
