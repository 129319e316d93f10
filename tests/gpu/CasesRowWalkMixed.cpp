// gpu-diff cases of the rowwalk pass's staged clone on rows that advance by
// different steps (issue 29; tests/lit/rowwalk/Inputs/mixedsteps.cu): rows of
// different element sizes at one index, each row's tile the same iterations
// (an integral image's row pass from bytes into 32-bit words, shorts into
// words, halves times floats, a byte mask times floats, floats summed into
// doubles, floats into halves, bytes into floats through a recurrence).
// Every clone compared bit for bit with the original on random inputs
// (halves finite); the rows stored into compared after the run.
//
// Edges: rows not a multiple of 32 (a warp of 24 lanes: the solo form), a
// row length not a multiple of the tile (the rest in the original loop),
// rows not 16-byte aligned (every such warp runs the original loop; no
// unaligned clone for mixed steps), under the launch floor (the original),
// and the triangular lookalike (refused). The matrices are 64-192 MB (past
// the 50 MB L2), except the edges.
#include "Cases.h"

namespace gpudiff {

void addRowWalkMixed(std::vector<Case> &cs) {
  auto add = [&](const std::string &kernel, std::vector<Arg> args, unsigned rows, unsigned m, unsigned block,
                 const std::string &expect, const std::string &what = "") {
    cs.push_back(rowsCase("rowwalk mixedsteps", "rowwalkmixed", kernel, std::move(args), rows, m, block, expect, what));
  };
  auto n = [](unsigned r, unsigned m) { return size_t(r) * m; };
  // integral_u8(in, out, w, h)
  auto integral = [&](unsigned h, unsigned w, unsigned b, const std::string &expect, const std::string &what) {
    add("integral_u8", {in(Elem::I8, n(h, w)), out(Elem::I32, n(h, w)), i32(int(w)), i32(int(h))}, h, w, b, expect,
        what);
  };
  integral(8192, 4096, 256, "=integral_u8__ptxopt_staged", "bytes into words");
  integral(3000, 4000, 64, "=integral_u8__ptxopt_staged", "a warp of 24 lanes, rows not a multiple of the tile");
  integral(4096, 4100, 256, "!staged", "rows not 16-byte aligned: the original loop");
  integral(1000, 1024, 256, "original", "under the launch floor");
  // cumsum_u16(in, out, n, rows): size_t indices.
  add("cumsum_u16", {in(Elem::I16, n(8192, 4096)), out(Elem::I32, n(8192, 4096)), i64(4096), i64(8192)}, 8192, 4096,
      256, "=cumsum_u16__ptxopt_staged", "shorts into words");
  // dot_h_f32(a, b, y, n, m)
  add("dot_h_f32", {in(Elem::F16, n(4096, 4096)), in(Elem::F32, n(4096, 4096)), out(Elem::F32, 4096), i32(4096),
                    i32(4096)},
      4096, 4096, 256, "=dot_h_f32__ptxopt_staged", "halves times floats");
  add("dot_h_f32", {in(Elem::F16, n(2000, 3000)), in(Elem::F32, n(2000, 3000)), out(Elem::F32, 2000), i32(3000),
                    i32(2000)},
      2000, 3000, 128, "=dot_h_f32__ptxopt_staged", "a warp of 16 lanes");
  // masked_u8_f32(a, mask, y, n, m)
  add("masked_u8_f32", {in(Elem::F32, n(4096, 4096)), in(Elem::I8, n(4096, 4096)), out(Elem::F32, 4096), i32(4096),
                        i32(4096)},
      4096, 4096, 256, "=masked_u8_f32__ptxopt_staged", "a byte mask times floats");
  // cumsum_f32_f64(in, out, n, m)
  add("cumsum_f32_f64", {in(Elem::F32, n(4096, 4096)), out(Elem::F64, n(4096, 4096)), i32(4096), i32(4096)}, 4096,
      4096, 256, "=cumsum_f32_f64__ptxopt_staged", "floats summed into doubles");
  // to_half_max(in, out, mx, n, m, sc)
  add("to_half_max", {in(Elem::F32, n(4096, 4096)), out(Elem::F16, n(4096, 4096)), out(Elem::F32, 4096), i32(4096),
                      i32(4096), f32(0.75f)},
      4096, 4096, 256, "=to_half_max__ptxopt_staged", "floats into halves");
  // ema_u8_f32(in, out, n, m, alpha)
  add("ema_u8_f32", {in(Elem::I8, n(4096, 4096)), out(Elem::F32, n(4096, 4096)), i32(4096), i32(4096), f32(0.125f)},
      4096, 4096, 256, "=ema_u8_f32__ptxopt_staged", "bytes into floats, a recurrence");
  // tri_h_f32(a, b, y, n): refused (a trip count per lane).
  add("tri_h_f32", {in(Elem::F16, n(4096, 4096)), in(Elem::F32, n(4096, 4096)), out(Elem::F32, 4096), i32(4096)},
      4096, 4096, 256, "!staged", "triangular (refused)");
}

}  // namespace gpudiff
