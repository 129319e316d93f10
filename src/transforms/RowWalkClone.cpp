// rowwalk: building the regacc and lanes clones from a KernelPlan (the
// statement edits of steps 1 and 2, the lanes prologue with the logical
// indices). Overview: RowWalk.cpp.
#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

std::string emitTripCount(Emitter &e, const LanePlan &lp, const std::vector<std::string> &v0) {
  // Trip count T (64-bit) from the tested induction variable.
  const IV &t = lp.ivs[lp.tested];
  const std::string w = t.bits == 64 ? "64" : "32";
  std::string b = lp.bound;
  if (!b.empty() && b[0] != '%') {
    std::string r = t.bits == 64 ? e.reg64() : e.reg32();
    e.ins("mov.b" + w, {r, b});
    b = r;
  }
  if (!lp.boundOffset.empty()) {  // iv + X != B  <=>  iv != B - X
    std::string r = t.bits == 64 ? e.reg64() : e.reg32();
    e.ins("sub.s" + w, {r, b, lp.boundOffset});
    b = r;
  }
  std::string d = t.bits == 64 ? e.reg64() : e.reg32();
  if (t.step > 0) e.ins("sub.s" + w, {d, b, v0[lp.tested]});
  else e.ins("sub.s" + w, {d, v0[lp.tested], b});
  const std::string T = e.reg64();
  if (t.bits == 64) e.ins("mov.b64", {T, d});
  else e.ins("cvt.u64.u32", {T, d});
  const unsigned sh = log2u(static_cast<uint64_t>(std::llabs(t.step)));
  if (sh) e.ins("shr.u64", {T, T, std::to_string(sh)});
  if (lp.after) {
    if (t.bits == 32) {  // iv == bound at the start: the 32-bit counter wraps around once
      std::string z = e.regp();
      e.ins("setp.eq.u64", {z, T, "0"});
      e.ins("mov.u64", {T, std::to_string(uint64_t(1) << (32 - sh))}, z);
    }
  } else {
    e.ins("add.u64", {T, T, "1"});
  }
  return T;
}

namespace {

using Body = std::vector<std::unique_ptr<Stmt>>;

Instruction &insAt(Body &cb, size_t i) { return static_cast<Instruction &>(*cb[i]); }

/// Moves what `e` emitted to where[at].
void emittedAt(Emitter &e, StmtMap &where, size_t at) {
  for (auto &st : e.out) where[at].push_back(std::move(st));
  e.out.clear();
}

/// Step 1: stores of an accumulator go; one after the loop.
void moveAccumulatorStores(ir::Module &m, Body &cb, Emitter &e, const KernelPlan &plan, StmtMap &before,
                           StmtMap &after, std::set<size_t> &drop) {
  auto ins = [&](size_t i) -> Instruction & { return insAt(cb, i); };
  auto emitted = [&](StmtMap &where, size_t at) { emittedAt(e, where, at); };
  std::set<size_t> removedStores;
  for (const auto &[hs, acc] : plan.accList) {
    for (size_t s : acc.stores) drop.insert(s), removedStores.insert(s);
    auto st = std::make_unique<Instruction>(ins(acc.last));
    st->edited = true;
    st->span = {};
    if (!acc.loads.empty()) {
      // Reloads: the value lives in a register, loaded once before the loop
      // (the loop's first iteration accesses the address anyway).
      const std::string mv = acc.bits == 64 ? "mov.b64" : "mov.b32";
      const std::string r = acc.bits == 64 ? e.reg64() : e.reg32();
      const Instruction &first = ins(acc.stores.front());
      std::string ldop = "ld";
      for (auto mod : first.modifiers())
        if (mod == ".global") ldop += ".global";
      ldop += acc.bits == 64 ? ".b64" : ".b32";
      auto ld = std::make_unique<Instruction>();
      ld->opcode = m.intern(ldop);
      ld->operands = {e.op(r), first.operands[0]};
      ld->edited = true;
      e.out.push_back(std::move(ld));
      emitted(before, hs);
      for (size_t s : acc.stores) {
        auto mov = std::make_unique<Instruction>();
        mov->opcode = m.intern(mv);
        mov->operands = {e.op(r), ins(s).operands[1]};
        mov->edited = true;
        e.out.push_back(std::move(mov));
        emitted(before, s);
      }
      for (size_t l : acc.loads) {
        drop.insert(l);
        e.ins(mv, {std::string(ins(l).operands[0].text), r});
        emitted(before, l);
      }
      st->operands[1] = e.op(r);
    }
    // After the loop: past the lanes code of the loop, if any (see below).
    size_t ls = 0;
    for (size_t i = hs + 1; i < cb.size(); ++i)
      if (cb[i]->kind == Stmt::Kind::Instruction && ins(i).base() == "bra" && ins(i).guard.size() &&
          analysis::branchTarget(ins(i)) == static_cast<const ir::Label &>(*cb[hs]).name) {
        ls = i;
        break;
      }
    e.out.push_back(std::move(st));
    emitted(after, ls);  // lanes code for this loop is placed before it in after[ls]
  }
}

/// The registers of the lanes clone's prologue (see buildClone).
struct LaneRegs {
  std::string lane, lane64, lane0;
  std::string mask = "-1";  // the lanes of one logical thread (G < 32: a register)
};

/// bar.warp.sync around each store lane 0 makes alone: the other lanes
/// read memory as the one logical thread does (before: their loads are
/// done; after: they see the store). This emits the barrier before and
/// guards `in` with lane 0.
void guardLane0(ir::Module &m, Emitter &e, const LaneRegs &lr, Instruction &in) {
  e.ins("bar.warp.sync", {lr.mask});
  if (in.guard.empty()) {
    in.guard = m.intern(lr.lane0);
    in.guardNegated = false;
  } else {
    std::string q = e.regp();
    if (in.guardNegated) {
      std::string t = e.regp();
      e.ins("not.pred", {t, std::string(in.guard)});
      e.ins("and.pred", {q, t, lr.lane0});
    } else {
      e.ins("and.pred", {q, std::string(in.guard), lr.lane0});
    }
    in.guard = m.intern(q);
    in.guardNegated = false;
  }
  in.edited = true;
}

/// Global stores outside the split loops, and those step 1 put after a
/// loop, run on lane 0 only, between barriers.
void guardStoresToLane0(ir::Module &m, Body &cb, Emitter &e, const KernelPlan &plan, const LaneRegs &lr,
                        StmtMap &before, StmtMap &after, const std::set<size_t> &drop) {
  std::set<size_t> inSplit;
  for (const auto &lp : plan.lanes)
    for (size_t i = lp.loop.hs; i <= lp.loop.ls; ++i) inSplit.insert(i);
  for (size_t i = 0; i < cb.size(); ++i) {
    if (inSplit.count(i) || cb[i]->kind != Stmt::Kind::Instruction || drop.count(i)) continue;
    auto mem = analysis::memAccess(insAt(cb, i));
    if (!mem || mem->kind == analysis::MemAccess::Kind::Load || mem->kind == analysis::MemAccess::Kind::Prefetch ||
        mem->space == ".local" || mem->space == ".param")
      continue;
    guardLane0(m, e, lr, insAt(cb, i));
    emittedAt(e, before, i);
    e.ins("bar.warp.sync", {lr.mask});
    emittedAt(e, after, i);
  }
  // The stores step 1 put after a loop: lane 0 too, between barriers.
  for (auto &[at, stmts] : after) {
    std::vector<std::unique_ptr<Stmt>> redone;
    for (auto &st : stmts) {
      auto mem =
          st->kind == Stmt::Kind::Instruction ? analysis::memAccess(static_cast<Instruction &>(*st)) : std::nullopt;
      if (mem && mem->kind == analysis::MemAccess::Kind::Store && !static_cast<Instruction &>(*st).guard.size()) {
        guardLane0(m, e, lr, static_cast<Instruction &>(*st));
        for (auto &x : e.out) redone.push_back(std::move(x));
        e.out.clear();
        redone.push_back(std::move(st));
        e.ins("bar.warp.sync", {lr.mask});
        for (auto &x : e.out) redone.push_back(std::move(x));
        e.out.clear();
      } else {
        redone.push_back(std::move(st));
      }
    }
    stmts = std::move(redone);
  }
}

/// What a split loop's preheader computed, used again after the loop.
struct LoopEntry {
  std::vector<std::string> v0;  // the induction variables' values on entry
  std::string T;                // the trip count (64-bit)
};

/// Preheader of a split loop (before its header label) and its latch: lane
/// l starts at iteration l, the counter steps by G.
LoopEntry emitLanesPreheaderAndLatch(ir::Module &m, Body &cb, Emitter &e, const LanePlan &lp, const LaneRegs &lr,
                                     unsigned G, const std::string &exit, StmtMap &before) {
  const auto &L = lp.loop;
  e.ins("bar.warp.sync", {lr.mask});  // loads and stores before the loop are done on every lane
  std::vector<std::string> v0(lp.ivs.size()), stepG1(lp.ivs.size());
  for (size_t j = 0; j < lp.ivs.size(); ++j) {
    const IV &iv = lp.ivs[j];
    v0[j] = iv.bits == 64 ? e.reg64() : e.reg32();
    e.ins(iv.bits == 64 ? "mov.b64" : "mov.b32", {v0[j], iv.reg});
  }
  const std::string T = lp.lessThan ? emitTripCountCsr(e, lp, v0) : emitTripCount(e, lp, v0);
  // Lanes 1..G-1 start accumulators at the identity.
  std::string notLane0 = e.regp();
  e.ins("setp.ne.u32", {notLane0, lr.lane, "0"});
  for (const auto &a : lp.accs) {
    std::string mv = a.bits == 64 ? "mov.b64" : "mov.b32";
    if (a.floating) mv = a.bits == 64 ? "mov.f64" : "mov.f32";
    else mv = a.bits == 64 ? "mov.b64" : "mov.b32";
    e.ins(mv, {a.reg, a.identity}, notLane0);
  }
  // Lane l starts at iteration l.
  for (size_t j = 0; j < lp.ivs.size(); ++j) {
    const IV &iv = lp.ivs[j];
    const std::string ty = iv.bits == 64 ? ".s64" : ".s32";
    const std::string l = iv.bits == 64 ? lr.lane64 : lr.lane;
    if (iv.immStep) {
      e.ins("mad.lo" + ty, {iv.reg, l, std::to_string(iv.step), v0[j]});
      stepG1[j] = std::to_string(iv.step * int64_t(G - 1));
    } else {
      std::string s = iv.stepReg;
      if (iv.negated) {
        s = iv.bits == 64 ? e.reg64() : e.reg32();
        e.ins("neg" + ty, {s, iv.stepReg});
      }
      e.ins("mad.lo" + ty, {iv.reg, l, s, v0[j]});
      stepG1[j] = iv.bits == 64 ? e.reg64() : e.reg32();
      e.ins("mul.lo" + ty, {stepG1[j], s, std::to_string(G - 1)});
    }
  }
  const std::string c = e.reg64();
  e.ins("mov.u64", {c, lr.lane64});
  std::string skip = e.regp();
  e.ins("setp.ge.u64", {skip, lr.lane64, T});
  e.ins("bra", {exit}, skip);
  emittedAt(e, before, L.hs);
  // Latch: the counter steps by G, the induction variables by G-1 more steps.
  for (size_t j = 0; j < lp.ivs.size(); ++j) {
    const IV &iv = lp.ivs[j];
    e.ins(iv.bits == 64 ? "add.s64" : "add.s32", {iv.reg, iv.reg, stepG1[j]});
  }
  std::string q = e.regp();
  e.ins("add.u64", {c, c, std::to_string(G)});
  e.ins("setp.lt.u64", {q, c, T});
  emittedAt(e, before, L.ls);
  insAt(cb, L.ls).guard = m.intern(q);
  insAt(cb, L.ls).guardNegated = false;
  insAt(cb, L.ls).edited = true;
  return {std::move(v0), T};
}

/// The vector loads that replace each run of a split loop's scalar loads.
void emitVectorLoads(ir::Module &m, Body &cb, Emitter &e, const LanePlan &lp, StmtMap &before,
                     std::set<size_t> &drop) {
  for (const auto &run : lp.runs) {
    std::vector<size_t> byOff = run;  // already in offset order
    const size_t lo = *std::min_element(run.begin(), run.end());
    const Instruction &lead = insAt(cb, byOff[0]);
    std::string op(lead.base());
    for (auto mod : lead.modifiers()) {
      std::string s(mod);
      if (s == typeModifier(lead)) op += ".v" + std::to_string(run.size());
      op += s;
    }
    Operand vec{Operand::Kind::Vector, "", {}};
    for (size_t at : byOff) vec.elems.push_back(insAt(cb, at).operands[0]);
    auto ld = std::make_unique<Instruction>();
    ld->opcode = m.intern(op);
    ld->operands = {vec, lead.operands[1]};
    ld->edited = true;
    e.out.push_back(std::move(ld));
    emittedAt(e, before, lo);
    for (size_t at : run) drop.insert(at);
  }
}

/// After a split loop: combine the lanes, set the induction variables;
/// placed before the stores step 1 placed after this loop.
void emitLanesExit(ir::Module &m, Emitter &e, const LanePlan &lp, const LaneRegs &lr, unsigned G,
                   const std::string &exit, const LoopEntry &entry, StmtMap &after) {
  const auto &L = lp.loop;
  const std::string &T = entry.T;
  const std::string &mask = lr.mask;
  e.label(exit);
  e.ins("bar.warp.sync", {mask});  // the loop's stores are seen by every lane after it
  for (const auto &a : lp.accs) {
    for (unsigned off = G / 2; off >= 1; off /= 2) {
      if (a.bits == 32) {
        std::string tmp = e.reg32();
        e.ins("shfl.sync.bfly.b32", {tmp, a.reg, std::to_string(off), "31", mask});
        e.ins(a.combine, {a.reg, a.reg, tmp});
      } else {
        std::string lo = e.reg32(), hi = e.reg32(), lo2 = e.reg32(), hi2 = e.reg32(), tmp = e.reg64();
        auto mv = std::make_unique<Instruction>();
        mv->opcode = m.intern("mov.b64");
        mv->operands = {Operand{Operand::Kind::Vector, "", {e.op(lo), e.op(hi)}}, e.op(a.reg)};
        mv->edited = true;
        e.out.push_back(std::move(mv));
        e.ins("shfl.sync.bfly.b32", {lo2, lo, std::to_string(off), "31", mask});
        e.ins("shfl.sync.bfly.b32", {hi2, hi, std::to_string(off), "31", mask});
        auto back = std::make_unique<Instruction>();
        back->opcode = m.intern("mov.b64");
        back->operands = {e.op(tmp), Operand{Operand::Kind::Vector, "", {e.op(lo2), e.op(hi2)}}};
        back->edited = true;
        e.out.push_back(std::move(back));
        e.ins(a.combine, {a.reg, a.reg, tmp});
      }
    }
  }
  std::string T32 = e.reg32();
  e.ins("cvt.u32.u64", {T32, T});
  for (size_t j = 0; j < lp.ivs.size(); ++j) {
    const IV &iv = lp.ivs[j];
    const std::string ty = iv.bits == 64 ? ".s64" : ".s32";
    std::string s = iv.immStep ? std::to_string(iv.step) : iv.stepReg;
    if (!iv.immStep && iv.negated) {
      s = iv.bits == 64 ? e.reg64() : e.reg32();
      e.ins("neg" + ty, {s, iv.stepReg});
    }
    e.ins("mad.lo" + ty, {iv.reg, iv.bits == 64 ? T : T32, s, entry.v0[j]});
    if (!iv.link.empty())  // the chain's link, read after the loop: r's exit value minus c1
      e.ins("add" + ty, {iv.link, iv.reg, std::to_string(-iv.linkBack)});
  }
  // Before the stores step 1 placed after this loop.
  auto &list = after[L.ls];
  std::vector<std::unique_ptr<Stmt>> mine;
  for (auto &st : e.out) mine.push_back(std::move(st));
  e.out.clear();
  list.insert(list.begin(), std::make_move_iterator(mine.begin()), std::make_move_iterator(mine.end()));
}

/// Rebuilds the body: before[i], statement i unless dropped, after[i].
void spliceEdits(Body &cb, StmtMap &before, StmtMap &after, const std::set<size_t> &drop) {
  std::vector<std::unique_ptr<Stmt>> out;
  for (size_t i = 0; i < cb.size(); ++i) {
    if (auto it = before.find(i); it != before.end())
      for (auto &st : it->second) out.push_back(std::move(st));
    if (!drop.count(i)) out.push_back(std::move(cb[i]));
    if (auto it = after.find(i); it != after.end())
      for (auto &st : it->second) out.push_back(std::move(st));
  }
  if (auto it = before.find(cb.size()); it != before.end())
    for (auto &st : it->second) out.push_back(std::move(st));
  cb = std::move(out);
}

/// The lane registers: `hw` (%tid.x), the lane number in the logical
/// thread, lane 0's predicate and (G < 32) the logical thread's lane mask.
void emitLaneRegs(Emitter &e, const LaneRegs &lr, const std::string &hw, unsigned G) {
  e.ins("mov.u32", {hw, "%tid.x"});
  e.ins("and.b32", {lr.lane, hw, std::to_string(G - 1)});
  e.ins("cvt.u64.u32", {lr.lane64, lr.lane});
  e.ins("setp.eq.u32", {lr.lane0, lr.lane, "0"});
  if (G < kLanes) {
    // The G lanes of this logical thread: ((1 << G) - 1) << (%laneid & (32 - G)).
    const std::string hl = e.reg32();
    e.ins("mov.u32", {hl, "%laneid"});
    e.ins("and.b32", {hl, hl, std::to_string(kLanes - G)});
    e.ins("mov.b32", {lr.mask, std::to_string((uint64_t(1) << G) - 1)});
    e.ins("shl.b32", {lr.mask, lr.mask, hl});
  }
}

/// The lanes prologue: logical indices from the hardware ones, the lane
/// number, lane 0's predicate and (G < 32) the logical thread's lane mask.
void emitLanesPrologue(ir::Module &m, ir::Function &clone, Emitter &e, const LaneRegs &lr, bool gridRoute,
                       unsigned G) {
  const std::string lt = e.reg32(), hw = e.reg32();
  std::map<std::string, std::string> names{{"%tid.x", lt}};
  std::string lc, ln, lnc;
  if (gridRoute) {
    lc = e.reg32();
    lnc = e.reg32();
    names["%ctaid.x"] = lc;
    names["%nctaid.x"] = lnc;
  } else {
    ln = e.reg32();
    names["%ntid.x"] = ln;
  }
  replaceSpecialReads(*clone.body, names, m);
  const std::string sh = std::to_string(log2u(G));
  emitLaneRegs(e, lr, hw, G);
  if (gridRoute) {
    const std::string cta = e.reg32(), nt = e.reg32(), t1 = e.reg32(), t2 = e.reg32(), nc = e.reg32();
    e.ins("mov.u32", {cta, "%ctaid.x"});
    e.ins("mov.u32", {nt, "%ntid.x"});
    e.ins("mov.u32", {nc, "%nctaid.x"});
    e.ins("shr.u32", {lc, cta, sh});
    e.ins("shr.u32", {lnc, nc, sh});
    e.ins("and.b32", {t1, cta, std::to_string(G - 1)});
    e.ins("shr.u32", {t2, nt, sh});
    e.ins("shr.u32", {lt, hw, sh});
    e.ins("mad.lo.s32", {lt, t1, t2, lt});
  } else {
    const std::string nt = e.reg32();
    e.ins("mov.u32", {nt, "%ntid.x"});
    e.ins("shr.u32", {lt, hw, sh});
    e.ins("shr.u32", {ln, nt, sh});
  }
}

}  // namespace

/// Builds the clone: step 1 always; lanes when `lanes` (route: grid or block),
/// G lanes per logical thread (a power of two, 2 to 32). With G < 32 a warp
/// holds 32/G logical threads that may take different paths, so the
/// shuffles and warp barriers name only the G lanes of their own logical
/// thread (a mask computed in the prologue from %laneid); with G = 32 the
/// whole warp (-1).
std::unique_ptr<ir::Function> buildClone(ir::Module &m, const ir::Function &k, const KernelPlan &plan,
                                         const std::string &name, bool lanes, bool gridRoute, bool staged,
                                         unsigned G, bool rounds) {
  auto clone = ir::cloneFunction(k, name, staged ? "_rws" : gridRoute ? "_rwg" : lanes ? "_rwb" : "_rwr", m);
  auto &cb = clone->body->body;
  Emitter e{m, {}};
  e.prefix = "%ptxopt_w";
  StmtMap before, after;
  std::set<size_t> drop;
  moveAccumulatorStores(m, cb, e, plan, before, after, drop);
  const std::string buffer = "__ptxopt_stage_" + name;
  // Loops with early exits: the end of each row's allocation, an extra
  // parameter per base parameter, in its index order (stagedAllocEnds).
  std::map<uint32_t, AllocEnd> ends;
  if (staged)
    for (uint32_t p : stagedAllocEnds(plan))
      ends[p] = {std::string((*clone->params)[p].names[0].name),
                 addExtraParam(m, *clone, "allocend_" + std::to_string(p), ".u64")};
  if (staged)
    for (const auto &sp : plan.staged) emitStaged(m, cb, e, sp, buffer, before, after, drop, ends);
  LaneRegs lr;
  if (lanes) {
    if (G < kLanes) lr.mask = e.reg32();
    lr.lane = e.reg32();
    lr.lane64 = e.reg64();
    lr.lane0 = e.regp();
    guardStoresToLane0(m, cb, e, plan, lr, before, after, drop);
    for (const auto &lp : plan.lanes) {
      const std::string exit = "$L__ptxopt_rw_exit" + std::to_string(lp.loop.hs);
      const LoopEntry entry = emitLanesPreheaderAndLatch(m, cb, e, lp, lr, G, exit, before);
      emitVectorLoads(m, cb, e, lp, before, drop);
      emitLanesExit(m, e, lp, lr, G, exit, entry, after);
    }
  }
  spliceEdits(cb, before, after, drop);
  if (staged) {
    unsigned bytes = 0;
    for (const auto &sp : plan.staged) bytes = std::max(bytes, sp.stageSize() * sp.stages);
    finishStaged(m, *clone, e, buffer, bytes, stagedMapsYToZ(k));
    return clone;
  }
  if (!lanes) {
    size_t decls = prologueAt(*clone->body);
    if (e.r32) cb.insert(cb.begin() + long(decls), e.decl(".b32", e.prefix + "r", e.r32));
    if (e.r64) cb.insert(cb.begin() + long(decls), e.decl(".b64", e.prefix + "rd", e.r64));
    if (e.pred) cb.insert(cb.begin() + long(decls), e.decl(".pred", e.prefix + "p", e.pred));
    return clone;
  }
  if (rounds) {
    // CSR's same-launch clone (RowWalkCsrRounds.cpp): the lanes body runs
    // once per round, %tid.x the round's logical thread.
    const std::string lt = e.reg32(), hw = e.reg32();
    replaceSpecialReads(*clone->body, {{"%tid.x", lt}}, m);
    emitLaneRegs(e, lr, hw, G);
    std::vector<std::unique_ptr<Stmt>> laneSetup = std::move(e.out);
    e.out.clear();
    if (!assembleCsrRounds(m, *clone, e, k, plan, G, lt, hw, std::move(laneSetup))) return nullptr;
    insertPrologue(*clone, e, true);
    return clone;
  }
  emitLanesPrologue(m, *clone, e, lr, gridRoute, G);
  insertPrologue(*clone, e, true);
  dropBlockShapeDirectives(*clone);
  return clone;
}

}  // namespace ptxopt::transforms::rowwalk
