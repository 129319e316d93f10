// rowwalk, step 3 for rows of their own length: the staged clone when the
// loop's trip count differs between the lanes of a warp (triangular loops,
// `for (k = 0; k <= i; k++)` over row i: trmv, syrk-like prefixes; issue 29
// item 6). Overview: RowWalk.cpp; the staged clone: RowWalkStaged.cpp.
//
// What: the staged clone of such a loop stages each row only as far as its
// own lane walks it. Each lane computes its own trip count T and full tiles
// NT = T / IPT; the warp runs tiles 0 .. max(NT) - 1 (the maximum by a
// shfl.sync.bfly butterfly); a lane copies a 16-byte piece of row r's tile t
// only when t < NT of row r (the owner's NT, shuffled from it), so no copy
// reads a byte the owning thread would not; a lane runs the IPT body copies
// of tile t only when t < its own NT (a branch around them; the warp meets
// again at the next bar.warp.sync); then each lane runs its own remaining
// T - NT * IPT iterations in the original loop, as the uniform clone does.
// The order of each lane's operations is the original's: exact.
// Why it pays on the GPU: the uniform clone sends every warp whose lanes'
// trip counts differ to the original loop, which for a triangular loop is
// every warp (1.1-1.7x with regacc + pack). In a triangle the 32 rows of a
// warp differ by at most 32 elements, under one 256-byte tile of 4-byte
// elements, so all lanes share all tiles but the last: the copies stay
// whole-line and coalesced, as in the uniform clone.
// When: the loop's trip count is not provably warp-uniform (the Uniformity
// analysis: Thread level); loops whose trip count is grid- or block-uniform
// keep the uniform clone unchanged.
// Refuses (remark): rowwalk-staged-copy=async (the per-lane form has the
// plain copies only).
// Guards: a warp runs the original loop when its lanes are not all in the
// loop, a row is not 16-byte aligned, or an NT does not fit in 32 bits (the
// butterfly is 32-bit); when no lane has a full tile it runs the original
// loop too.
#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

bool Planner::planPerLane(const LoopBlock &L, StagedPlan &sp, std::string &why) {
  sp.perLane = fa_.affine().tripCountUniformity(L.id) == analysis::UniformLevel::Thread;
  if (sp.perLane && ctx_.options.rowwalk.asyncCopy) {
    why = "the trip count differs between lanes (a triangular loop): only the plain copies stage such rows "
          "(rowwalk-staged-copy=async asked for cp.async)";
    return false;
  }
  return true;
}

std::string perLaneRemark(const KernelPlan &plan) {
  for (const auto &sp : plan.staged)
    if (sp.perLane) return ", per-lane trip counts (each lane stages and reads its row as far as it walks it)";
  return "";
}

std::string emitLaneTiles(Emitter &e, const std::string &T, const std::string &NT, unsigned ipt,
                          const std::string &ok) {
  // NT = T / IPT of this lane; ok = NT fits in 32 bits.
  const std::string nt32 = e.reg32();
  e.ins("shr.u64", {NT, T, std::to_string(log2u(ipt))});
  e.ins("setp.le.u64", {ok, NT, "4294967295"});
  e.ins("cvt.u32.u64", {nt32, NT});
  return nt32;
}

std::string emitWarpMaxTiles(Emitter &e, const std::string &nt32, const std::string &header) {
  // max over the warp of NT (every lane active: checked before), the
  // original loop when it is 0.
  const std::string mx = e.reg32(), other = e.reg32(), wide = e.reg64(), none = e.regp();
  e.ins("mov.u32", {mx, nt32});
  for (unsigned d = 16; d; d >>= 1) {
    e.ins("shfl.sync.bfly.b32", {other, mx, std::to_string(d), "31", "-1"});
    e.ins("max.u32", {mx, mx, other});
  }
  e.ins("setp.eq.u32", {none, mx, "0"});
  e.ins("bra", {header}, none);
  e.ins("cvt.u64.u32", {wide, mx});
  return wide;
}

std::vector<std::string> emitPieceTiles(Emitter &e, const std::string &nt32, const std::string &rsub,
                                        unsigned pieces, unsigned rowsPerCopy) {
  // The NT of the row each copy k of this lane reads (row rsub + k * rowsPerCopy).
  std::vector<std::string> out;
  for (unsigned k = 0; k < pieces; ++k) {
    const std::string from = e.reg32(), n = e.reg32(), w = e.reg64();
    e.ins("add.u32", {from, rsub, std::to_string(k * rowsPerCopy)});
    e.ins("shfl.sync.idx.b32", {n, nt32, from, "31", "-1"});
    e.ins("cvt.u64.u32", {w, n});
    out.push_back(w);
  }
  return out;
}

std::vector<std::string> emitPiecePreds(Emitter &e, const std::string &issued, const std::vector<std::string> &ntk) {
  std::vector<std::string> out;
  for (const auto &n : ntk) {
    out.push_back(e.regp());
    e.ins("setp.lt.u64", {out.back(), issued, n});
  }
  return out;
}

}  // namespace ptxopt::transforms::rowwalk
