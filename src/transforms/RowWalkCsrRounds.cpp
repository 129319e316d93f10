// rowwalk, CSR by default: the rounds clone (`<kernel>__ptxopt_csr`) of a
// scalar CSR loop (RowWalkCsr.cpp finds it), which runs with the original's
// launch and lets each warp choose, from its own rows' lengths, between the
// original code and the "vector CSR" split.
// What: the clone is three pieces of code in one kernel.
//   1. The original's code, as it is, each lane its own row; every way out
//      of the code before the header of its main row loop (the split loop
//      of the largest step: nvcc's loop unrolled by 4) but the header
//      itself (past the guard, an empty row, a short row straight to the
//      remainder loop, `ret`) goes where it goes in the original: those
//      lanes never wait for anything.
//   2. The vote, where that code falls into the header (a branch from it
//      to the header would go there too; the planner takes no loop whose
//      header a branch enters, so only the fall-through does): the lane's
//      trip count T of that loop (the lanes plan's own count); the rounds
//      when the whole warp is here (activemask: a lane whose row took
//      another way, or that returned, is not) and every T is kCsrMinIters
//      or more (all 32 rows of 32 non-zeros or more); else on into the
//      header, the original's loop.
//      Measured on an H200 (docs/BENCHMARKS.md, "Scalar CSR SpMV"): the
//      first form (every way to a stub, one vote at a common point, a
//      dispatch back; also taking warps whose rows averaged 64) cost rows
//      of one non-zero 2-5% (0.95-0.98x; a held-out program of rows of 1-4,
//      0.95x), the stub-vote-dispatch path, not the vote; this one runs
//      them 1.00-1.01x (that program 0.96-0.98x). Forms without the vote
//      instruction (a short lane branching from here into the header, or
//      the activemask test first) cost the main loop ptxas's own unrolling
//      (SASS) and rows of 8-16 4-8%: not kept. Earlier: a count of 8 rows
//      of 32+ sent warps of rows of 0-40 to the rounds at 0.70x, a mean of
//      32 those of 0-64 and 16-48 at 0.68-0.85x (their remainder loops and
//      unequal rows make each round a longer path than the original's
//      walk, whose short neighbouring rows the L1 serves); every row at 32
//      or more ran 1.3-3.7x.
//   2b. The sample (emitSample), at the head of the rounds: 128 rows spread
//      over the launch, each lane running a copy of the code before the
//      loop for one of them; on into the rounds only when nearly all are
//      long, else a second copy of the original loop (copySecond), so that
//      the first copy's header keeps its one way in (a sample before the
//      vote's branch, sending warps back into that header, cost the loop
//      ptxas's unrolling: every case slower). Why: a warp's rounds take
//      longer than its rows walked side by side, so in a launch where few
//      warps' rows are all long those warps ended last: rows of 32-256 with
//      one in 8 empty ran 0.92-0.96x (H200, one wave); with the sample
//      1.00x, but rows all long lose 3-23% of their gain and gpu-diff's
//      float clone without pack ran 0.86x (1.33x without the sample), so
//      only with the option rowwalk-csr-sample=1 (docs/BENCHMARKS.md).
//   3. The rounds: the lanes clone's body (G lanes per row, a shuffle
//      reduction after each split loop, stores by the row's lane 0) runs G
//      times, round s giving lane l the logical thread
//      (tid & ~31) + s * 32/G + (tid & 31)/G: the warp's own 32 rows, 32/G
//      at a time, from the start (the code before the loop only loads, so
//      running it again changes nothing), `ret` and `exit` going to the
//      next round (an `exit` left alone ended the lane and its later rounds'
//      rows: the review's find, tests/lit/rowwalk/csr-exit.test).
// Why it pays on the GPU: one thread per row reads a different row per
// lane, 32 sectors per warp load for rows of 32 or more non-zeros; split
// over G lanes the loads of a row are consecutive. Where rows are short
// (1-8 non-zeros) neighbouring rows are adjacent in memory and the
// original's loads already nearly coalesced: split, each row costs a round
// (the rowwalk-csr clone of G times the threads ran 0.1-0.7x there), so
// those warps keep the original code. No launch condition can tell the
// lengths (they are in memory); the warp reads them itself.
// Exactness: as the lanes clone (integer sums exact, floating point only
// with --reassociate, which planLanes asks before a CSR loop gets here).
// Refuses (no clone, a remark): code before the loop that writes memory,
// loads other than plainly (volatile, acquire), calls, waits at a barrier or
// branches indirectly; a branch from after the
// loop's header back before it (an outer loop), a body that does not end
// in an unconditional `ret` or `bra`. (A kernel that reads %laneid, %warpid
// or a lane mask, whose round would sit on another lane, never gets here:
// the Communication analysis refuses it for every rowwalk clone.) RowWalkVariants.cpp adds the
// variant's conditions (block.x % 32 == 0, at least kCsrMinLaunch threads:
// small launches ran 0.54-1.0x) and refuses rows read through an unsigned
// index (the split loop's registers cost short rows 0.72-0.93x).
// Overview: RowWalk.cpp.
#include "RowWalk.h"
#include "ptxopt/analysis/Semantics.h"

namespace ptxopt::transforms::rowwalk {

namespace {

using Body = std::vector<std::unique_ptr<Stmt>>;

/// An instruction the code before the loop may run twice (once in the
/// original's way, once in a round): no memory write, no call, barrier,
/// indirect branch or exit.
bool repeatable(const Instruction &in) {
  static const std::set<std::string, std::less<>> refused{"call", "brx",  "bar",   "barrier", "exit",
                                                          "cp",   "mbarrier", "fence", "membar", "setmaxnreg"};
  if (refused.count(in.base())) return false;
  auto mem = analysis::memAccess(in);
  // Plain loads only: a volatile or acquiring load read twice could differ.
  return !mem || ((mem->kind == analysis::MemAccess::Kind::Load || mem->kind == analysis::MemAccess::Kind::Prefetch) &&
                  clone::plainMemoryOp(in));
}

bool isBranch(const Instruction &in) { return in.base() == "bra" && !in.operands.empty() && in.operands[0].isSym(); }

/// The split loop whose trip count the vote reads: the largest step of the
/// tested induction variable (nvcc's unrolled loop, not its remainder).
const LanePlan *measuredLoop(const KernelPlan &plan) {
  const LanePlan *best = nullptr;
  for (const auto &lp : plan.lanes) {
    const IV &t = lp.ivs[lp.tested];
    if (!t.immStep) continue;
    if (!best || std::llabs(t.step) > std::llabs(best->ivs[best->tested].step)) best = &lp;
  }
  return best;
}

/// The code before the measured loop's header.
struct Region {
  const LanePlan *lp = nullptr;
  size_t start = 0, header = 0;
  std::string headerLabel;
  std::map<std::string, size_t, std::less<>> labelAt;
};

/// Reads the region of `k` (the plan's kernel); why it cannot be the
/// rounds clone's first piece, "" when it can.
std::string readRegion(const ir::Function &k, const KernelPlan &plan, Region &r) {
  r.lp = measuredLoop(plan);
  if (!r.lp || !k.body) return "no split loop with an immediate step";
  const Body &fb = k.body->body;
  r.start = prologueAt(*k.body);
  r.header = r.lp->loop.hs;
  if (r.header <= r.start || r.header >= fb.size() || fb[r.header]->kind != Stmt::Kind::Label)
    return "the row loop's header is not a label after the declarations";
  for (size_t i = r.start; i < fb.size(); ++i)
    if (fb[i]->kind == Stmt::Kind::Label) r.labelAt[std::string(static_cast<const ir::Label &>(*fb[i]).name)] = i;
  r.headerLabel = std::string(static_cast<const ir::Label &>(*fb[r.header]).name);
  const Instruction *last = nullptr;
  for (size_t i = r.start; i < fb.size(); ++i) {
    if (fb[i]->kind == Stmt::Kind::Block) return "it has a nested { } scope";
    if (fb[i]->kind != Stmt::Kind::Instruction) continue;
    const auto &in = static_cast<const Instruction &>(*fb[i]);
    last = &in;
    if (in.base() == "bra" && !isBranch(in)) return "an indirect branch";
    if (i < r.header) {
      if (!repeatable(in))
        return "the code before the row loop " +
               std::string(analysis::memAccess(in) ? "writes memory or loads other than plainly"
                                                   : "calls, waits at a barrier or exits") +
               " (" + std::string(in.opcode) + "): each warp runs it, then again in its rounds";
      if (isBranch(in) && !r.labelAt.count(in.operands[0].text)) return "a branch to a label outside the body";
    } else if (isBranch(in)) {
      auto t = r.labelAt.find(in.operands[0].text);
      if (t == r.labelAt.end() || t->second < r.header)
        return "a branch back into the code before the row loop (an outer loop)";
    }
  }
  if (!last || !last->guard.empty() || (last->base() != "ret" && last->base() != "bra"))
    return "the body does not end in ret or bra";
  return "";
}

}  // namespace

std::string csrRoundsRefusal(const ir::Function &k, const KernelPlan &plan) {
  Region r;
  return readRegion(k, plan, r);
}

namespace {

// The clone's own labels.
constexpr const char *kTag = "__ptxopt_o";  // the original's labels, renamed
const std::string kVote = "$L__ptxopt_csr_vote", kRounds = "$L__ptxopt_csr_rounds", kRound = "$L__ptxopt_csr_round",
                  kNext = "$L__ptxopt_csr_next";

std::string_view renamed(ir::Module &m, std::string_view label) { return m.intern(std::string(label) + kTag); }

/// 2. The vote, at the loop's header (`e`'s statements): the lane's
/// iterations T of the measured loop; the rounds when the whole warp is
/// here (activemask: a lane whose row took another way, or that returned,
/// is not) and every T is kCsrMinIters or more; else on into the header.
void emitVote(Emitter &e, const Region &r) {
  e.label(kVote);
  std::vector<std::string> v0;
  for (const IV &iv : r.lp->ivs) v0.push_back(iv.reg);
  const std::string T = r.lp->lessThan ? emitTripCountLess(e, *r.lp, v0) : emitTripCount(e, *r.lp, v0);
  const std::string here = e.reg32(), whole = e.regp(), longRow = e.regp(), allLong = e.regp(), go = e.regp();
  e.ins("activemask.b32", {here});
  e.ins("setp.eq.u32", {whole, here, "-1"});
  e.ins("setp.ge.u64", {longRow, T, std::to_string(csrMinIters(*r.lp))});
  e.ins("vote.sync.all.pred", {allLong, longRow, here});
  e.ins("and.pred", {go, allLong, whole});  // the same in every lane of `here`
  e.ins("bra.uni", {kRounds}, go);
}

/// 1. The original's code, its labels renamed; the vote (2) just before
/// the header, where the code before it falls in and where its branches to
/// the header go; every other way out of that code as in the original.
/// Statements [from, to) of `k`'s body, copied: labels renamed by `label`,
/// each branch's target by `target`.
template <typename Label, typename Target>
Body copyStatements(const ir::Function &k, size_t from, size_t to, Label label, Target target) {
  const Body &fb = k.body->body;
  Body out;
  for (size_t i = from; i < to; ++i) {
    auto st = fb[i]->clone();
    st->edited = true;
    if (st->kind == Stmt::Kind::Label) {
      auto &l = static_cast<ir::Label &>(*st);
      l.name = label(l.name);
    } else if (st->kind == Stmt::Kind::Instruction) {
      auto &in = static_cast<Instruction &>(*st);
      if (isBranch(in)) in.operands[0] = Operand::sym(target(in.operands[0].text));
    }
    out.push_back(std::move(st));
  }
  return out;
}

Body copyOriginal(ir::Module &m, Emitter &e, const ir::Function &k, const Region &r) {
  auto label = [&](std::string_view l) { return renamed(m, l); };
  Body out = copyStatements(k, r.start, r.header, label, [&](std::string_view t) {
    return t == r.headerLabel ? m.intern(kVote) : renamed(m, t);
  });
  emitVote(e, r);
  for (auto &st : e.out) out.push_back(std::move(st));
  e.out.clear();
  for (auto &st : copyStatements(k, r.header, k.body->body.size(), label,
                                 [&](std::string_view t) { return renamed(m, t); }))
    out.push_back(std::move(st));
  return out;
}

// The sample (2b): passes of 32 rows each, the copy's registers; the second
// copy of the original loop for the warps it turns back.
constexpr unsigned kSamplePasses = 4;
constexpr const char *kSampleTag = "__ptxopt_s";
constexpr const char *kSecondTag = "__ptxopt_o2";
const std::string kSamplePrefix = "%ptxsm_";
const std::string kSample = "$L__ptxopt_csr_sample", kHit = "$L__ptxopt_csr_hit", kMiss = "$L__ptxopt_csr_miss",
                  kJoin = "$L__ptxopt_csr_join";

/// `k`'s own registers (its `.reg` declarations).
RegTypes declaredRegs(const ir::Function &k) {
  RegTypes regs;
  const Body &fb = k.body->body;
  for (size_t i = 0; i < prologueAt(*k.body); ++i)
    if (fb[i]->kind == Stmt::Kind::Decl) regs.add(static_cast<const ir::Decl &>(*fb[i]));
  return regs;
}

std::string sampleName(std::string_view reg) { return kSamplePrefix + std::string(reg.substr(1)); }

/// The declarations of the sample copy's registers: `k`'s own, renamed.
Body sampleDecls(ir::Module &m, const ir::Function &k) {
  Body out;
  const Body &fb = k.body->body;
  for (size_t i = 0; i < prologueAt(*k.body); ++i) {
    if (fb[i]->kind != Stmt::Kind::Decl) continue;
    const auto &d = static_cast<const ir::Decl &>(*fb[i]);
    if (d.space() != ".reg") continue;
    auto c = std::make_unique<ir::Decl>(d);
    for (auto &n : c->names) n.name = m.intern(sampleName(n.name));
    c->edited = true;
    out.push_back(std::move(c));
  }
  return out;
}

/// Keeps in the sample's copy only what its branches and the loop's trip
/// count read (a flow-insensitive backward slice over the copy's
/// registers, to a fixpoint): the rest, such as nvcc's remainder loop's
/// gathers in front of the unrolled loop (each sampled row's col and x
/// loads, one after the other: the clone of a float CSR loop ran 0.85x with
/// them), is left out. The sample only chooses between the rounds and the
/// original loop, both exact; the warp's own vote stays the rounds' check.
void sliceSample(ir::Block &copy, const LanePlan &lp) {
  std::set<std::string, std::less<>> needed{lp.bound, lp.boundOffset};
  for (const IV &iv : lp.ivs) needed.insert(iv.reg);
  std::vector<bool> keep(copy.body.size(), false);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = copy.body.size(); i-- > 0;) {
      if (keep[i] || copy.body[i]->kind != Stmt::Kind::Instruction) continue;
      const auto &in = static_cast<const Instruction &>(*copy.body[i]);
      const analysis::DefUse du = analysis::defUse(in);
      bool live = isBranch(in) || in.base() == "ret" || in.base() == "exit";
      for (std::string_view d : du.defs) live |= needed.count(d) > 0;
      if (!live) continue;  // (the code before the loop writes no memory: csrRoundsRefusal)
      keep[i] = true;
      grew = true;
      for (std::string_view u : du.uses) needed.insert(std::string(u));
    }
  }
  Body kept;
  for (size_t i = 0; i < copy.body.size(); ++i)
    if (keep[i] || copy.body[i]->kind != Stmt::Kind::Instruction) kept.push_back(std::move(copy.body[i]));
  copy.body = std::move(kept);
}

/// 2b. The sample, at the head of the rounds (where the warp's own vote
/// said yes): whether most warps of the launch would say yes too.
/// kSamplePasses passes, each lane running the code before the loop (a
/// copy: its own registers and labels, every way out of it but into the
/// header counted as a miss) for row `lane` of warp (pass * 32 + lane) * W
/// / (32 * kSamplePasses) of the launch's W warps (%tid.x and %ctaid.x that
/// row's: 128 rows spread over the launch, the same for every warp); a pass
/// with more than one of its 32 rows short (a trip count under
/// kCsrMinIters) or missed sends the warp to `back`, a second copy of the
/// original loop (its own registers untouched). All passes: on into the
/// rounds. Why: a warp's rounds take longer than its rows walked side by
/// side, so in a launch where few warps' rows are all long (rows of 32-256
/// with one in 8 empty: 1.4% of the warps) those warps ended after every
/// other (0.90-0.95x, H200, one wave; docs/BENCHMARKS.md). Not before the
/// vote's branch: branches into the original loop's header cost it ptxas's
/// unrolling (a first form: every case slower).
Body emitSample(ir::Module &m, Emitter &e, const ir::Function &k, const Region &r, const std::string &back) {
  const std::string nt = e.reg32(), nc = e.reg32(), tx = e.reg32(), lane = e.reg32(), pass = e.reg32(),
                    idx = e.reg32(), tidS = e.reg32(), ctaS = e.reg32(), bal = e.reg32(), cnt = e.reg32();
  const std::string W = e.reg64(), lane64 = e.reg64(), idx64 = e.reg64(), w = e.reg64(), g = e.reg64(),
                    nt64 = e.reg64(), cta64 = e.reg64(), t64 = e.reg64();
  const std::string q = e.regp(), few = e.regp(), more = e.regp();
  e.ins("mov.u32", {nt, "%ntid.x"});
  e.ins("mov.u32", {nc, "%nctaid.x"});
  e.ins("mul.wide.u32", {W, nc, nt});
  e.ins("shr.u64", {W, W, "5"});
  e.ins("mov.u32", {tx, "%tid.x"});
  e.ins("and.b32", {lane, tx, "31"});
  e.ins("cvt.u64.u32", {lane64, lane});
  e.ins("cvt.u64.u32", {nt64, nt});
  e.ins("mov.u32", {pass, "0"});
  e.label(kSample);
  e.ins("mad.lo.u32", {idx, pass, "32", lane});
  e.ins("cvt.u64.u32", {idx64, idx});
  e.ins("mul.lo.u64", {w, idx64, W});
  e.ins("shr.u64", {w, w, std::to_string(log2u(kLanes * kSamplePasses))});
  e.ins("shl.b64", {g, w, "5"});
  e.ins("add.u64", {g, g, lane64});
  e.ins("div.u64", {cta64, g, nt64});
  e.ins("mul.lo.u64", {t64, cta64, nt64});
  e.ins("sub.u64", {t64, g, t64});
  e.ins("cvt.u32.u64", {ctaS, cta64});
  e.ins("cvt.u32.u64", {tidS, t64});
  ir::Block copy;
  copy.body = copyStatements(
      k, r.start, r.header, [&](std::string_view l) { return m.intern(std::string(l) + kSampleTag); },
      [&](std::string_view t) {
        const auto at = r.labelAt.find(std::string(t));
        return m.intern(t == r.headerLabel                                    ? kHit
                        : at != r.labelAt.end() && at->second < r.header ? std::string(t) + kSampleTag
                                                                         : kMiss);
      });
  for (auto &st : copy.body)
    if (st->kind == Stmt::Kind::Instruction && static_cast<Instruction &>(*st).base() == "ret") {
      auto &in = static_cast<Instruction &>(*st);
      in.opcode = m.intern("bra");
      in.operands = {Operand::sym(m.intern(kMiss))};
    }
  sliceSample(copy, *r.lp);
  for (auto &st : copy.body)
    if (st->kind == Stmt::Kind::Instruction) {
      auto &in = static_cast<Instruction &>(*st);
      if (!in.guard.empty()) in.guard = m.intern(sampleName(in.guard));
    }
  const RegTypes own = declaredRegs(k);
  auto declared = [&](std::string_view reg) { return !own.type(reg).empty(); };
  std::map<std::string, std::string> names;
  ir::forEachStmt(copy, [&](Stmt &st) {
    if (st.kind != Stmt::Kind::Instruction) return;
    for (const auto &o : static_cast<Instruction &>(st).operands)
      analysis::forEachRegister(o, [&](const Operand &x) {
        if (declared(x.text)) names[std::string(x.text)] = sampleName(x.text);
      });
  });
  renameRegisters(copy, names, m);
  replaceSpecialReads(copy, {{"%tid.x", tidS}, {"%ctaid.x", ctaS}}, m);
  for (auto &st : copy.body) e.out.push_back(std::move(st));
  e.label(kHit);
  LanePlan lp = *r.lp;
  auto rename = [&](std::string &reg) {
    if (!reg.empty() && reg[0] == '%' && declared(reg)) reg = sampleName(reg);
  };
  rename(lp.bound);
  rename(lp.boundOffset);
  std::vector<std::string> v0;
  for (const IV &iv : lp.ivs) v0.push_back(declared(iv.reg) ? sampleName(iv.reg) : iv.reg);
  const std::string T = lp.lessThan ? emitTripCountLess(e, lp, v0) : emitTripCount(e, lp, v0);
  e.ins("setp.ge.u64", {q, T, std::to_string(csrMinIters(lp))});
  e.ins("bra", {kJoin});
  e.label(kMiss);
  e.ins("setp.eq.u32", {q, lane, "32"});  // false
  e.label(kJoin);
  e.ins("bar.warp.sync", {"-1"});  // the whole warp is here (its vote said so); every lane comes
  e.ins("vote.sync.ballot.b32", {bal, q, "-1"});
  e.ins("popc.b32", {cnt, bal});
  e.ins("setp.lt.u32", {few, cnt, std::to_string(kLanes - 1)});
  e.ins("bra.uni", {back}, few);
  e.ins("add.u32", {pass, pass, "1"});
  e.ins("setp.lt.u32", {more, pass, std::to_string(kSamplePasses)});
  e.ins("bra.uni", {kSample}, more);
  Body out = std::move(e.out);
  e.out.clear();
  return out;
}

/// The original's code from the loop's header on, a second time (labels
/// tagged kSecondTag): where the sample sends a warp back, so that the
/// first copy's header keeps its one way in.
Body copySecond(ir::Module &m, const ir::Function &k, const Region &r) {
  auto tagged = [&](std::string_view l) { return m.intern(std::string(l) + kSecondTag); };
  return copyStatements(k, r.header, k.body->body.size(), tagged, [&](std::string_view t) { return tagged(t); });
}

/// 3. The rounds: the lanes body (`clone`'s statements after its
/// declarations) once per round, round s taking the warp's rows s * 32/G ..
/// s * 32/G + 32/G - 1 as the logical threads `lt`, `ret` and `exit` going
/// to the next.
Body emitRounds(ir::Module &m, Emitter &e, ir::Function &clone, Body sample, Body laneSetup, unsigned G,
                const std::string &lt, const std::string &hw) {
  e.label(kRounds);
  for (auto &st : sample) e.out.push_back(std::move(st));
  for (auto &st : laneSetup) e.out.push_back(std::move(st));
  const std::string s = e.reg32(), base = e.reg32(), sub = e.reg32();
  e.ins("mov.u32", {s, "0"});
  e.label(kRound);
  e.ins("and.b32", {base, hw, "0xFFFFFFE0"});
  e.ins("and.b32", {sub, hw, "31"});
  e.ins("shr.u32", {sub, sub, std::to_string(log2u(G))});
  e.ins("mad.lo.u32", {lt, s, std::to_string(kLanes / G), base});
  e.ins("add.u32", {lt, lt, sub});
  Body out = std::move(e.out);
  e.out.clear();
  Body &cb = clone.body->body;
  for (size_t i = prologueAt(*clone.body); i < cb.size(); ++i) {
    if (cb[i]->kind == Stmt::Kind::Instruction) {
      auto &in = static_cast<Instruction &>(*cb[i]);
      // `exit` too: it would end the hardware lane, whose later rounds'
      // rows would then never run (the review's find).
      if (in.base() == "ret" || in.base() == "exit") {
        in.opcode = m.intern("bra");
        in.operands = {Operand::sym(m.intern(kNext))};
        in.edited = true;
      }
    }
    out.push_back(std::move(cb[i]));
  }
  e.label(kNext);
  const std::string more = e.regp();
  e.ins("add.u32", {s, s, "1"});
  e.ins("setp.lt.u32", {more, s, std::to_string(G)});
  e.ins("bra.uni", {kRound}, more);
  e.ins("ret", {});
  for (auto &st : e.out) out.push_back(std::move(st));
  e.out.clear();
  return out;
}

}  // namespace

bool assembleCsrRounds(ir::Module &m, ir::Function &clone, Emitter &e, const ir::Function &k,
                       const KernelPlan &plan, unsigned G, const std::string &lt, const std::string &hw,
                       Body laneSetup) {
  Region r;
  if (!readRegion(k, plan, r).empty()) return false;
  Body original = copyOriginal(m, e, k, r);
  const size_t decls = prologueAt(*clone.body);
  Body sample, second;
  if (plan.csrSample) sample = emitSample(m, e, k, r, r.headerLabel + kSecondTag);
  Body rounds = emitRounds(m, e, clone, std::move(sample), std::move(laneSetup), G, lt, hw);  // moves the body's statements
  if (plan.csrSample) second = copySecond(m, k, r);
  Body &cb = clone.body->body;
  cb.resize(decls);
  if (plan.csrSample)
    for (auto &d : sampleDecls(m, k)) cb.push_back(std::move(d));
  for (Body *part : {&original, &rounds, &second})
    for (auto &st : *part) cb.push_back(std::move(st));
  return true;
}

}  // namespace ptxopt::transforms::rowwalk
