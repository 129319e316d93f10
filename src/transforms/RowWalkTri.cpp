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
// Latches `iv < bound` (signed 32-bit counter stepping up, tested after its
// update: the upper triangle's unrolled loop, whose count nvcc cannot
// compute for `!=`): T = max(1, ceil((bound - iv0) / step)) in 64 bits, and
// each lane checks that iv0 + T * step stays at most 2^31 - 1 (else the
// 32-bit counter wraps, the original loop goes on: the warp runs it).
// Unsigned counters (`setp.lt.u32`) and `iv <= bound` (`setp.le.u32`,
// `setp.le.s32`: `for (unsigned k = 0; k <= i; k++)`, a loop nvcc neither
// unrolls nor counts, since it never ends for i = 2^32 - 1) the same way,
// zero-extended, with bound + 1, and the wrap at 2^32 - 1 for unsigned ones.
// Rows the analysis cannot see: in such a loop where no access is a row
// (uncoalesced along %tid.x, unit-stride along the loop) but every access
// of unknown address is a global load through a 64-bit register stepping
// 16-128 bytes, or through a 32-bit index advancing as much (the `unsigned`
// form) (nvcc's upper-triangular `for (k = i; k < n; k++)`: the
// (n-i) % 4 remainder is peeled in front of the unrolled loop, whose start
// then differs by path), those loads are staged as rows. Staging is exact
// for any plain load of a loop that does not write memory (each lane reads
// what it would, in its order); what it costs is speed when such a "row" is
// in fact shared by the lanes (x[k] of trmv): its tiles are copied too.
// Nested in a triangular loop (syrk-like: thread i, for j <= i, a row walk
// over k; a grid-stride loop over rows): a loop of several blocks whose trip
// count is thread-varying and that holds single-block loops is left as it
// is instead of refusing the kernel, and so is any single-block loop of a
// shape the planner does not take (the grid-stride kernel's `y[i] = 0`
// loop for rows of length 0, entered by a branch: RowWalk.cpp, findLoops),
// and only the staged clone of the inner loops is made (no lanes,
// no accumulators in registers: those reason about the whole kernel's
// loops). Each time the inner loop starts, the staged clone's checks run:
// warps whose lanes all run it (j <= the warp's smallest i) stage it, the
// others run the original loop.
// Refuses (remark): rowwalk-staged-copy=async (the per-lane form has the
// plain copies only).
// Guards: a warp runs the original loop when its lanes are not all in the
// loop, a row is not 16-byte aligned, or an NT does not fit in 32 bits (the
// butterfly is 32-bit); when no lane has a full tile it runs the original
// loop too. There is no check that T equals lane 0's (RowWalkStaged.cpp
// leaves the uniform form's comparison out: its T0 is not shuffled here).
#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

bool Planner::planPerLane(const LoopBlock &L, StagedPlan &sp, std::string &why) {
  // An `iv < bound` latch (emitTripCountLess) takes the per-lane form unless
  // bound - start is the same for the warp's lanes: a pointer walked to
  // `row + n` (`for (p = row; p < row + n; ++p)`), whose test the
  // uniformity analysis sees as thread-varying (both sides are). The
  // uniform form then checks at run time that each lane's T is lane 0's.
  // (nvcc turns `p != end` into a counter: not a case here.)
  const bool lessUniform = sp.lp.lessThan && lessTripWarpUniform(L, sp.lp);
  sp.perLane = !lessUniform && (fa_.affine().tripCountUniformity(L.id) == analysis::UniformLevel::Thread ||
                                (smallSteps_ && sp.lp.lessThan));
  if (sp.perLane && ctx_.options.rowwalk.asyncCopy) {
    why = "the trip count differs between lanes (a triangular loop): only the plain copies stage such rows "
          "(rowwalk-staged-copy=async asked for cp.async)";
    return false;
  }
  return true;
}

bool Planner::lessTripWarpUniform(const LoopBlock &L, const LanePlan &lp) {
  // bound - iv0 from the analysis: the tested induction variable's start and
  // the bound read by the setp, both known, their difference free of
  // %tid, loop counters, and values loaded or otherwise unknown.
  const IV &t = lp.ivs[lp.tested];
  if (t.bits != 64 || lp.bound.empty() || lp.bound[0] != '%' || !lp.setpAt) return false;
  auto &aff = fa_.affine();
  const analysis::InductionVar *iv = nullptr;
  for (const auto &v : aff.inductionVars())
    if (v.loop == L.id && v.reg == t.reg) iv = &v;
  if (!iv) return false;
  const Instruction &sp = *instr(lp.setpAt);
  const analysis::Value b = aff.operandValue(instrOf_.at(lp.setpAt), sp.operands[2]);  // (iv < bound: planLatch)
  analysis::Poly neg, diff;
  if (!b.known || !analysis::Poly::scale(iv->init, -1, neg) || !analysis::Poly::add(b.poly, neg, diff)) return false;
  using K = analysis::Symbol::Kind;
  for (const auto &[mono, c] : diff.terms())
    for (uint16_t id : mono) {
      const K k = aff.symbols()[id].kind;
      if (k == K::Tid || k == K::LoopCounter) return false;
    }
  return true;
}

bool Planner::wideShaped(const LoopBlock &L, const std::string &reg) {
  // reg = add.s64 base, t (either order) in the loop, t = mul.wide.u32/s32 x, imm in the loop, x = add/sub in the loop.
  const size_t d = onlyDefInLoop(L, reg);
  if (d == SIZE_MAX) return false;
  const Instruction &add = *instr(d);
  if (add.base() != "add" || add.operands.size() != 3) return false;
  for (int side = 1; side <= 2; ++side) {
    const Operand &t = add.operands[side];
    if (!t.isReg()) continue;
    const size_t md = onlyDefInLoop(L, t.text);
    if (md == SIZE_MAX) continue;
    const Instruction &mul = *instr(md);
    if ((mul.opcode != "mul.wide.u32" && mul.opcode != "mul.wide.s32") || mul.operands.size() != 3 ||
        !mul.operands[1].isReg() || !mul.operands[2].intValue())
      continue;
    // x computed by 32-bit additions in the loop (an index), not loaded
    // (a gather such as CSR's x[col[j]]).
    const size_t xd = onlyDefInLoop(L, mul.operands[1].text);
    if (xd != SIZE_MAX && (instr(xd)->base() == "add" || instr(xd)->base() == "sub")) return true;
  }
  return false;
}

bool Planner::unknownRows(const LoopBlock &L, const LanePlan &lp, const std::set<size_t> &removed) {
  // Trip counts that differ between lanes (triangles, CSR-like windows),
  // or rows whose start the kernel loads (`E[idx[i]*d + j]`: an embedding's
  // rows gathered by index), not a loop after another one over the same
  // row (the remainder of an unrolled loop: a few iterations, never a tile).
  const bool perLane = fa_.affine().tripCountUniformity(L.id) == analysis::UniformLevel::Thread;
  analysis::Symbol cs{analysis::Symbol::Kind::LoopCounter};
  cs.loop = L.id;
  const uint16_t counter = fa_.affine().symbolId(cs);
  unsigned unknown = 0;
  for (size_t i = L.hs + 1; i < L.ls; ++i) {
    if (removed.count(i) || !accessAt_.count(i)) continue;
    const AccessInfo &a = *accessAt_.at(i);
    for (const auto &st : a.strides)
      if (a.verdict == AccessInfo::Verdict::Uncoalesced && st.symbol == counter && st.constant && *st.constant > 0)
        return false;  // rows the analysis sees: the usual plan
    if (a.verdict != AccessInfo::Verdict::Unknown) continue;
    if (!perLane && a.cause != analysis::UnknownCause::DataDependent) return false;
    // Every unknown access a global load through a register stepping 16-128
    // bytes (`add.s64 r, r, step` in the loop; planLanes checks the rest of
    // the induction variable, planStaged the loads).
    const Instruction &in = *instr(i);
    auto mem = analysis::memAccess(in);
    std::string reg;
    int64_t off = 0;
    if (!mem || mem->kind != analysis::MemAccess::Kind::Load || mem->space != ".global" || in.operands.size() != 2 ||
        !baseAndOffset(in.operands[1], reg, off))
      return false;
    int64_t step = 0;
    for (size_t j = L.hs + 1; j < L.ls; ++j)
      if (const Instruction *u = instr(j); u && u->opcode == "add.s64" && u->operands.size() == 3 &&
                                            u->operands[0].isReg() && u->operands[0].text == reg &&
                                            u->operands[1].isReg() && u->operands[1].text == reg &&
                                            u->operands[2].isImm())
        step = std::strtoll(std::string(u->operands[2].text).c_str(), nullptr, 0);
    // Or through a 32-bit index, base + scale * ext(x) with x advancing per
    // iteration (`for (unsigned k = i; k < n; k++)`: nvcc cannot widen the
    // index into a pointer). planLanes looks before it knows the induction
    // variables (the form only); planStaged looks again with them.
    if (step == 0) {
      StagedPlan::Wide w;
      int64_t c = 0;
      std::string key;
      if (lp.ivs.empty() && wideShaped(L, reg)) step = 16;
      else if (wideAddress(L, lp, i, reg, w, c, key)) step = w.elemStep * int64_t(w.scale);
    }
    if (step < 16 || step > 128 || step % 16) return false;
    ++unknown;
  }
  return unknown > 0;
}

LessTest lessTest(const Instruction &setp) {
  LessTest t;
  const auto mods = setp.modifiers();
  if (setp.base() != "setp" || mods.size() != 2 || (mods[0] != ".lt" && mods[0] != ".le") ||
      (mods[1] != ".s32" && mods[1] != ".u32"))
    return t;
  t.less32 = true;
  t.isUnsigned = mods[1] == ".u32";
  t.inclusive = mods[0] == ".le";
  return t;
}

bool Planner::lessThanLatch(const LoopBlock &L, const Instruction &setp, bool negated) {
  // A 32-bit counter with a thread-varying trip count (triangular loops);
  // on the small-step second try (planStagedLoops: loops nvcc did not
  // unroll) any such counter, and a pointer (`while (p < end)`, setp.lt.u64),
  // in the per-lane form (planPerLane).
  if (negated) return false;
  // A 32-bit counter stepping down, `iv > bound` (a row walked down,
  // `for (j = n - 1; j >= 0; j--)`: planLatch asks for the negative step;
  // the staged clone only).
  if (setp.opcode == "setp.gt.s32") return true;
  // `iv <= bound` and unsigned counters (`for (unsigned k = 0; k <= i; k++)`,
  // which nvcc leaves as it is: it may never end) have the same trip count
  // with bound + 1 and zero extension (emitTripCountLess).
  // A 64-bit signed counter (`for (long k = i; k < n; k++)`, setp.lt.s64)
  // as a 32-bit one: its trip count in 64 bits (emitLessNoWrap keeps the
  // values where the difference cannot overflow).
  const bool less32 = lessTest(setp).less32, less64 = setp.opcode == "setp.lt.s64";
  if (smallSteps_) return less32 || less64 || setp.opcode == "setp.lt.u64";
  return (less32 || less64) && fa_.affine().tripCountUniformity(L.id) == analysis::UniformLevel::Thread;
}

std::string emitTripCountLess(Emitter &e, const LanePlan &lp, const std::vector<std::string> &v0) {
  // Do-while, the test after the update: T = max(1, ceil((bound - iv0) / step)),
  // in 64 bits from the sign-extended values (zero-extended for an unsigned
  // test; `iv <= bound` is `iv < bound + 1`, which 64 bits hold; `iv >
  // bound` stepping down: ceil((iv0 - bound) / -step)).
  const IV &t = lp.ivs[lp.tested];
  const int64_t mag = t.step < 0 ? -t.step : t.step;
  std::string b = lp.bound;
  if (!b.empty() && b[0] != '%') {
    const std::string r = t.bits == 64 ? e.reg64() : e.reg32();
    e.ins(t.bits == 64 ? "mov.b64" : "mov.b32", {r, b});
    b = r;
  }
  const std::string a = e.reg64(), bw = e.reg64(), d = e.reg64(), T = e.reg64();
  if (t.bits == 64) {
    // A pointer against the end pointer (`while (p < end)`): addresses,
    // below 2^63, so their signed difference is the unsigned one.
    e.ins("mov.b64", {a, v0[lp.tested]});
    e.ins("mov.b64", {bw, b});
  } else {
    const char *ext = lp.lessUnsigned ? "cvt.u64.u32" : "cvt.s64.s32";
    e.ins(ext, {a, v0[lp.tested]});
    e.ins(ext, {bw, b});
    if (lp.lessInclusive) e.ins("add.s64", {bw, bw, "1"});
  }
  if (t.step < 0) e.ins("sub.s64", {d, a, bw});
  else e.ins("sub.s64", {d, bw, a});
  e.ins("add.s64", {d, d, std::to_string(mag - 1)});
  e.ins("shr.s64", {d, d, std::to_string(log2u(uint64_t(mag)))});
  e.ins("max.s64", {T, d, "1"});
  return T;
}

void emitLessNoWrap(Emitter &e, const LanePlan &lp, const std::vector<std::string> &v0, const std::string &T,
                    const std::string &ok) {
  // The original's counter after its last update, iv0 + T * step, is at most
  // 2^31 - 1 (an unsigned test: 2^32 - 1; stepping down: at least -2^31):
  // past it the 32-bit counter would wrap and the loop go on (`k <= i` with
  // i = 2^32 - 1 never ends: the warp runs the original loop).
  if (lp.ivs[lp.tested].bits == 64) {
    // A pointer: no wrap. A 64-bit signed counter (setp.lt.s64): the start
    // and the bound within 2^62 of 0, where bound - start, and the counter's
    // last value, fit (else the warp runs the original loop).
    if (!lp.lessSigned64) return;
    std::string b = lp.bound;
    if (!b.empty() && b[0] != '%') {
      b = e.reg64();
      e.ins("mov.b64", {b, lp.bound});
    }
    for (const std::string &x : {v0[lp.tested], b}) {
      e.ins("setp.ge.and.s64", {ok, x, "-4611686018427387904", ok});
      e.ins("setp.le.and.s64", {ok, x, "4611686018427387904", ok});
    }
    return;
  }
  const std::string a = e.reg64(), last = e.reg64();
  e.ins(lp.lessUnsigned ? "cvt.u64.u32" : "cvt.s64.s32", {a, v0[lp.tested]});
  e.ins("mad.lo.s64", {last, T, std::to_string(lp.ivs[lp.tested].step), a});
  if (lp.ivs[lp.tested].step < 0) e.ins("setp.ge.and.s64", {ok, last, "-2147483648", ok});
  else e.ins("setp.le.and.s64", {ok, last, lp.lessUnsigned ? "4294967295" : "2147483647", ok});
}

bool Planner::skipOuterLoop(const analysis::Loop &L) {
  // Any loop of several blocks with a thread-varying trip count (nvcc's
  // other paths, m <= 0, have some too), once one of them holds a
  // single-block loop: the staged clone leaves them as they are. With
  // rowwalk-nested=any (the default) also loops with one trip count for all
  // (a full syrk over every j, a batched GEMV, iterations inside the kernel:
  // 3-11x, H200); varying leaves those kernels to the other passes.
  const bool any = ctx_.options.rowwalk.nestedAny;
  auto outer = [&](const analysis::Loop &O) {
    return O.blocks.size() != 1 &&
           (any || fa_.affine().tripCountUniformity(O.id) == analysis::UniformLevel::Thread);
  };
  if (!outer(L)) return false;
  bool nest = false;
  for (const auto &O : fa_.loops().loops())
    if (outer(O))
      for (const auto &M : fa_.loops().loops()) nest |= M.blocks.size() == 1 && O.contains(M.header);
  outerSkipped_ |= nest;
  return nest;
}

void Planner::dropAllButStaged(KernelPlan &plan) {
  if (!outerSkipped_) return;
  if (!plan.lanes.empty())
    ctx_.remark(Remark::Kind::Missed, k_, "",
                "no lanes clone: the loops are inside a loop of several blocks (only the staged clone of the "
                "inner loops is made there)");
  if (!plan.accList.empty())
    ctx_.remark(Remark::Kind::Missed, k_, "",
                "accumulators in memory not kept in registers: the loops are inside a loop of several blocks");
  plan.lanes.clear();
  plan.accList.clear();
  plan.memAccs.clear();
  plan.lanesDisjoint.clear();
  plan.disjoint.clear();
  plan.aligned.clear();
  plan.reassoc = false;
}

std::string perLaneRemark(const KernelPlan &plan) {
  for (const auto &sp : plan.staged)
    if (!sp.lp.loop.exits.empty())
      return ", early exits (each lane stages and reads its row until it leaves the loop; the warp copies until "
             "every lane has left or finished; a warp whose rows' tiles do not lie in their allocation runs the "
             "original loop)";
    else if (sp.perLane)
      return ", per-lane trip counts (each lane stages and reads its row as far as it walks it)";
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
