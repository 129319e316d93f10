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
}

}  // namespace gpudiff
