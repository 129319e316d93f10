// gpu-diff cases of rowwalk's staged clone on loops that also store
// (tests/lit/rowwalk/Inputs/stores.cu; issue 29, and issue 30's permutes
// whose channels loop inside a thread): Rodinia kmeans' invert_mapping, an
// NHWC -> NCHW permute with the channels looped in the thread, row prefix
// sums written column-major, and rowwalk.cu's rowsum_self (tmp[i] stored
// every iteration). Every clone compared bit for bit with the original.
//
// Edges: kmeans' own 34 features (rows not 16-byte aligned, under the
// floor: the original), the output inside the input's allocation (the
// disjointness condition fails: the original), rows not a multiple of 32 and
// a row length not a multiple of the tile (forced with rowwalk-staged=1).
// Then "rowwalk rowstores": stores along the walked rows themselves.
#include "Cases.h"

namespace gpudiff {

void addRowWalkStores(std::vector<Case> &cs) {
  const std::string forced = "rowwalk;rowwalk-staged=1";
  // invert_mapping(input, output, npoints, nfeatures)
  auto invert = [&](unsigned np, unsigned nf, bool alias, const std::string &passes, const std::string &expect) {
    const size_t n = size_t(np) * nf;
    Case c = makeCase("rowwalk stores: invert_mapping " + std::to_string(np) + " points of " + std::to_string(nf) +
                          (alias ? ", output inside the input" : "") + (passes.empty() ? "" : " (staged forced)"),
                      "rowwalkstores", "invert_mapping",
                      {in(Elem::F32, alias ? 2 * n : n), alias ? aliasOf(0, Elem::F32, uint32_t(n * 4)) : out(Elem::F32, n),
                       i32(int32_t(np)), i32(int32_t(nf))},
                      {(np + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = n >= (size_t(1) << 24);
    return c;
  };
  cs.push_back(invert(65536, 256, false, "", "=invert_mapping__ptxopt_staged"));
  cs.push_back(invert(32768, 512, false, "", "=invert_mapping__ptxopt_staged"));
  cs.push_back(invert(65536, 34, false, "", "original"));  // kmeans' kdd features: rows 136 bytes
  cs.push_back(invert(65536, 256, true, "", "original"));  // one allocation
  cs.push_back(invert(1000, 1004, false, forced, "=invert_mapping__ptxopt_staged"));
  // nhwc_to_nchw_loop(in, out, HW, C): N = 16 images of 56 x 56 as one HW.
  auto nhwc = [&](unsigned hw, unsigned C) {
    const size_t n = size_t(hw) * C;
    Case c = makeCase("rowwalk stores: nhwc_to_nchw_loop " + std::to_string(hw) + " pixels of " + std::to_string(C),
                      "rowwalkstores", "nhwc_to_nchw_loop",
                      {in(Elem::F32, n), out(Elem::F32, n), i32(int32_t(hw)), i32(int32_t(C))},
                      {(hw + 255) / 256, 1, 1}, {256, 1, 1});
    c.expect = "=nhwc_to_nchw_loop__ptxopt_staged";
    c.big = n >= (size_t(1) << 24);
    return c;
  };
  cs.push_back(nhwc(16 * 56 * 56, 256));
  cs.push_back(nhwc(56 * 56, 512));
  // prefix_rows(A, P, n, m)
  cs.push_back(makeCase("rowwalk stores: prefix_rows 16384 rows of 1024", "rowwalkstores", "prefix_rows",
                        {in(Elem::F32, size_t(16384) * 1024), out(Elem::F32, size_t(16384) * 1024), i32(16384),
                         i32(1024)},
                        {64, 1, 1}, {256, 1, 1}));
  cs.back().expect = "=prefix_rows__ptxopt_staged";
  cs.back().big = true;
  // rowwalk.cu's rowsum_self(A, tmp, nx, ny): tmp[i] stored every iteration,
  // tmp[nx + j] read (never written: the poison, the same in both runs).
  cs.push_back(makeCase("rowwalk stores: rowsum_self 4096x4096", "rowwalk", "rowsum_self",
                        {in(Elem::F32, size_t(4096) * 4096), out(Elem::F32, 4096 + 4096), i32(4096), i32(4096)},
                        {16, 1, 1}, {256, 1, 1}));
  cs.back().expect = "=rowsum_self__ptxopt_staged";
  cs.back().big = true;
  addRowWalkRowStores(cs);
}

/// Stores along the walked rows (tests/lit/rowwalk/Inputs/rowstores.cu): in
/// place (the matrix compared after the run), into a row of another array,
/// deriche's causal pass, softmax's three loops; rows not a multiple of 32
/// (the solo form), rows not 16-byte aligned and an aliasing argument (the
/// original), the refused lookalikes. The matrices are 64-128 MB (past the
/// 50 MB L2), except the edges.
void addRowWalkRowStores(std::vector<Case> &cs) {
  const std::string noLanes = "-O2;rowwalk-lanes=0";  // the staged clone where lanes clones come first
  auto add = [&](const std::string &kernel, std::vector<Arg> args, unsigned rows, unsigned m, unsigned block,
                 const std::string &expect, const std::string &what = "", const std::string &passes = "") {
    cs.push_back(rowsCase("rowwalk rowstores", "rowwalkrowstores", kernel, std::move(args), rows, m, block, expect,
                          what, passes));
  };
  auto n = [](unsigned r, unsigned m) { return size_t(r) * m; };
  // scale_f32(a, rows, n, s): by -1, so repeated timing launches stay finite.
  for (auto [r, m, b] : {std::array<unsigned, 3>{4096, 4096, 256}, {8192, 2048, 128}, {3000, 2000, 256}})
    add("scale_f32", {inout(Elem::F32, n(r, m)), i32(int(r)), i32(int(m)), f32(-1.0f)}, r, m, b,
        "=scale_f32__ptxopt_staged", r % 32 ? "in place, a warp of 24 lanes" : "in place");
  add("scale_f32", {inout(Elem::F32, n(4096, 4099)), i32(4096), i32(4099), f32(-1.0f)}, 4096, 4099, 256,
      "=scale_f32__ptxopt_staged_unaligned", "rows not 16-byte aligned");
  add("scale_f32", {inout(Elem::F32, n(1000, 1000)), i32(1000), i32(1000), f32(-1.0f)}, 1000, 1000, 256, "original",
      "under the launch floor");
  // affine_u32(x, y, rows, n, s, t)
  add("affine_u32", {in(Elem::F32, n(4096, 4096)), out(Elem::F32, n(4096, 4096)), i32(4096), i32(4096), f32(1.5f),
                     f32(0.25f)},
      4096, 4096, 256, "", "into another array");
  add("affine_u32", {in(Elem::F32, n(4096, 4096)), out(Elem::F32, n(4096, 4096)), i32(4096), i32(4096), f32(1.5f),
                     f32(0.25f)},
      4096, 4096, 256, "=affine_u32__ptxopt_staged", "into another array", noLanes);
  // add_i32(a, b, rows, n): a = 3a + b in place.
  add("add_i32", {inout(Elem::I32, n(4096, 4096)), in(Elem::I32, n(4096, 4096)), i32(4096), i32(4096)}, 4096, 4096,
      256, "=add_i32__ptxopt_staged", "in place beside another row");
  add("add_i32", {inout(Elem::I32, n(4096, 4096) * 2), aliasOf(0, Elem::I32, 64), i32(4096), i32(4096)}, 4096, 4096,
      256, "original", "b inside a");
  // causal_f32(in, y, rows, n, a1, a2, b1, b2)
  add("causal_f32", {in(Elem::F32, n(4096, 4096)), out(Elem::F32, n(4096, 4096)), i32(4096), i32(4096), f32(0.5f),
                     f32(0.25f), f32(0.125f), f32(-0.0625f)},
      4096, 4096, 256, "=causal_f32__ptxopt_staged", "deriche's causal pass");
  add("causal_f32", {in(Elem::F32, n(2080, 3000)), out(Elem::F32, n(2080, 3000)), i32(2080), i32(3000), f32(0.5f),
                     f32(0.25f), f32(0.125f), f32(-0.0625f)},
      2080, 3000, 64, "=causal_f32__ptxopt_staged", "deriche's causal pass");
  // sum2_f32(y1, y2, out, rows, n, c): three rows, 128-byte tiles.
  add("sum2_f32", {in(Elem::F32, n(4096, 4096)), in(Elem::F32, n(4096, 4096)), out(Elem::F32, n(4096, 4096)),
                   i32(4096), i32(4096), f32(0.75f)},
      4096, 4096, 256, "=sum2_f32__ptxopt_staged", "two rows read, one written", noLanes);
  // softmax_f32(x, y, rows, n); normalize_f64(a, rows, n); clamp_s16(a, rows, n, lo, hi)
  for (auto [r, m] : {std::array<unsigned, 2>{4096, 4096}, {16384, 1024}})
    add("softmax_f32", {in(Elem::F32, n(r, m)), out(Elem::F32, n(r, m)), i32(int(r)), i32(int(m))}, r, m, 256,
        "=softmax_f32__ptxopt_staged_unaligned", "a thread per row (its maximum from j = 1: the unaligned clone)");
  add("softmax_f32", {in(Elem::F32, n(4096, 4095)), out(Elem::F32, n(4096, 4095)), i32(4096), i32(4095)}, 4096, 4095,
      256, "=softmax_f32__ptxopt_staged_unaligned", "rows not aligned: the unaligned clone, the write loop too");
  add("normalize_f64", {inout(Elem::F64, n(4096, 4096)), i32(4096), i32(4096)}, 4096, 4096, 256,
      "=normalize_f64__ptxopt_staged", "in place");
  add("clamp_s16", {inout(Elem::I16, n(4096, 4096)), i32(4096), i32(4096), i32(-1000), i32(2000)}, 4096, 4096, 256,
      "=clamp_s16__ptxopt_staged", "16-bit, in place");
  // Walked down, RN = 512 elements a row (a compile-time length): the
  // tiles go down the row. 65536 rows of 512: 128 MB.
  add("anticausal_f32", {in(Elem::F32, n(65536, 512)), out(Elem::F32, n(65536, 512)), i32(65536), f32(0.5f),
                         f32(0.25f), f32(0.125f), f32(-0.0625f)},
      65536, 512, 256, "=anticausal_f32__ptxopt_staged", "deriche's anti-causal pass, walked down");
  add("anticausal_f32", {in(Elem::F32, n(3000, 512)), out(Elem::F32, n(3000, 512)), i32(3000), f32(0.5f),
                         f32(0.25f), f32(0.125f), f32(-0.0625f)},
      3000, 512, 64, "=anticausal_f32__ptxopt_staged", "walked down, a warp of 24 lanes");
  add("revsum_f32", {in(Elem::F32, n(65536, 512)), out(Elem::F32, 65536), i32(65536)}, 65536, 512, 256,
      "=revsum_f32__ptxopt_staged", "walked down, read only");
  add("revsum_rt_f32", {in(Elem::F32, n(65536, 512)), out(Elem::F32, 65536), i32(65536), i32(512)}, 65536, 512, 256,
      "!staged", "walked down, a runtime length (refused)");
  add("reverse_f32", {in(Elem::F32, n(4096, 4096)), out(Elem::F32, n(4096, 4096)), i32(4096), i32(4096)}, 4096, 4096,
      256, "=reverse_f32__ptxopt_staged", "a row written up, read down", noLanes);
  // Stores under a guard on the data, every element read: relu in place, a branchy clamp.
  add("relu_rows", {inout(Elem::F32, n(4096, 4096)), i32(4096), i32(4096)}, 4096, 4096, 256,
      "=relu_rows__ptxopt_staged", "a guarded store, in place");
  add("clampbr_rows", {inout(Elem::F32, n(4096, 4096)), i32(4096), i32(4096), f32(0.25f)}, 4096, 4096, 256,
      "=clampbr_rows__ptxopt_staged", "a guarded store, int index");
  // Refused: each runs the original (and must give its results).
  // Rows not 16-byte aligned, stored into: the unaligned clone (piece 0 and the 17th written back by word).
  add("add_i32", {inout(Elem::I32, n(4096, 4097)), in(Elem::I32, n(4096, 4097)), i32(4096), i32(4097)}, 4096, 4097,
      256, "=add_i32__ptxopt_staged_unaligned", "rows not aligned");
  add("causal_f32", {in(Elem::F32, n(4096, 4098)), out(Elem::F32, n(4096, 4098)), i32(4096), i32(4098), f32(0.5f),
                     f32(0.25f), f32(0.125f), f32(-0.0625f)},
      4096, 4098, 256, "=causal_f32__ptxopt_staged_unaligned", "rows not aligned");
  add("normalize_f64", {inout(Elem::F64, n(4096, 4095)), i32(4096), i32(4095)}, 4096, 4095, 256,
      "=normalize_f64__ptxopt_staged_unaligned", "rows not aligned");
  add("relu_rows", {inout(Elem::F32, n(3000, 4099)), i32(3000), i32(4099)}, 3000, 4099, 64,
      "=relu_rows__ptxopt_staged_unaligned", "rows not aligned, a warp of 24 lanes");
  // to_nhwc_half(in, out, C, HW): halves stored along a row; rows off a
  // 16-byte boundary (C = 3) run the original (no unaligned clone).
  add("to_nhwc_half", {in(Elem::F16, n(1u << 18, 256)), out(Elem::F16, n(1u << 18, 256)), i32(256), i32(1 << 18)},
      1u << 18, 256, 256, "=to_nhwc_half__ptxopt_staged", "halves stored along a row");
  add("to_nhwc_half", {in(Elem::F16, n(1u << 22, 3)), out(Elem::F16, n(1u << 22, 3)), i32(3), i32(1 << 22)}, 1u << 22,
      3, 256, "!staged", "halves, rows not aligned (no unaligned clone)");
  // A scan (tests/gpu/CasesRowWalkScans.cpp has the family).
  add("scan_i32", {inout(Elem::I32, n(4096, 4096)), i32(4096), i32(4096)}, 4096, 4096, 256,
      "=scan_i32__ptxopt_staged_unaligned", "reads back what it stored");
  add("skip3_f32", {inout(Elem::F32, n(4096, 4096)), i32(4096), i32(4096), f32(-1.0f)}, 4096, 4096, 256, "original",
      "a guarded store (refused)");
  add("fw_rows", {inout(Elem::I32, n(4096, 4096)), i32(4096), i32(4096), i32(17)}, 4096, 4096, 256, "original",
      "floyd-warshall's row step (refused)");
}

}  // namespace gpudiff
