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
  e.ins("setp.ge.u64", {longRow, T, std::to_string(kCsrMinIters)});
  e.ins("vote.sync.all.pred", {allLong, longRow, here});
  e.ins("and.pred", {go, allLong, whole});  // the same in every lane of `here`
  e.ins("bra.uni", {kRounds}, go);
}

/// 1. The original's code, its labels renamed; the vote (2) just before
/// the header, where the code before it falls in and where its branches to
/// the header go; every other way out of that code as in the original.
Body copyOriginal(ir::Module &m, Emitter &e, const ir::Function &k, const Region &r) {
  const Body &fb = k.body->body;
  Body out;
  for (size_t i = r.start; i < fb.size(); ++i) {
    if (i == r.header) {
      emitVote(e, r);
      for (auto &st : e.out) out.push_back(std::move(st));
      e.out.clear();
    }
    auto st = fb[i]->clone();
    st->edited = true;
    if (st->kind == Stmt::Kind::Label) {
      auto &l = static_cast<ir::Label &>(*st);
      l.name = renamed(m, l.name);
    } else if (st->kind == Stmt::Kind::Instruction) {
      auto &in = static_cast<Instruction &>(*st);
      if (isBranch(in)) {
        const std::string target(in.operands[0].text);
        const bool toHeader = i < r.header && target == r.headerLabel;
        in.operands[0] = Operand::sym(toHeader ? m.intern(kVote) : renamed(m, target));
      }
    }
    out.push_back(std::move(st));
  }
  return out;
}

/// 3. The rounds: the lanes body (`clone`'s statements after its
/// declarations) once per round, round s taking the warp's rows s * 32/G ..
/// s * 32/G + 32/G - 1 as the logical threads `lt`, `ret` and `exit` going
/// to the next.
Body emitRounds(ir::Module &m, Emitter &e, ir::Function &clone, Body laneSetup, unsigned G, const std::string &lt,
                const std::string &hw) {
  e.label(kRounds);
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
  Body rounds = emitRounds(m, e, clone, std::move(laneSetup), G, lt, hw);  // moves the body's statements
  Body &cb = clone.body->body;
  cb.resize(decls);
  for (Body *part : {&original, &rounds})
    for (auto &st : *part) cb.push_back(std::move(st));
  return true;
}

}  // namespace ptxopt::transforms::rowwalk
