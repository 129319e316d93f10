// rowwalk, CSR by default: the rounds clone (`<kernel>__ptxopt_csr`) of a
// scalar CSR loop (RowWalkCsr.cpp finds it), which runs with the original's
// launch and lets each warp choose, from its own rows' lengths, between the
// original code and the "vector CSR" split.
// What: the clone is three pieces of code in one kernel.
//   1. The original's code up to the header of its main row loop (the
//      split loop of the largest step: nvcc's loop unrolled by 4), as it
//      is, each lane its own row. Every way out of that code (a branch past
//      the header, `ret`, falling into the header) goes instead to a stub
//      that records which way it was; the stub of the header takes the
//      lane's trip count T of that loop (the lanes plan's own count; 0 for
//      the other ways).
//   2. The vote (the launch condition block.x % 32 == 0 makes every warp
//      whole): the rounds when every lane's T is kCsrMinIters or more (all
//      32 rows of 32 non-zeros or more) or their sum (a shfl butterfly)
//      reaches 32 * kCsrMeanIters (a mean row of 64: a few very long rows
//      among short ones, as in power-law matrices, gain the most from
//      splitting); a warp none of whose rows is long goes back at once
//      (one vote). Else each lane goes back the way it recorded (its
//      registers are where the original left them): the original runs, at
//      the cost of the stub, the votes and the dispatch. Measured on an
//      H200: a count of 8 rows of 32+ sent warps of rows of 0-40 to the
//      rounds at 0.70x, a mean of 32 those of 0-64 and 16-48 at 0.68-0.85x
//      (their remainder loops and unequal rows make each round a longer
//      path than the original's walk, whose short neighbouring rows the L1
//      serves); every row at 32 or more ran 1.3-3.7x.
//   3. Else the rounds: the lanes clone's body (G lanes per row, a shuffle
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

/// The code before the measured loop's header and its ways out.
struct Region {
  const LanePlan *lp = nullptr;
  size_t start = 0, header = 0;
  std::map<std::string, size_t, std::less<>> labelAt;
  // The ways out of the code before the header: 0 the header, then each
  // label at or after it, in order of first use; "" is `ret`.
  std::vector<std::string> ways;
  size_t wayOf(const std::string &target) {
    auto it = std::find(ways.begin(), ways.end(), target);
    if (it != ways.end()) return size_t(it - ways.begin());
    ways.push_back(target);
    return ways.size() - 1;
  }
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
  r.ways = {std::string(static_cast<const ir::Label &>(*fb[r.header]).name)};
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
      if (isBranch(in)) {
        auto t = r.labelAt.find(in.operands[0].text);
        if (t == r.labelAt.end()) return "a branch to a label outside the body";
        if (t->second >= r.header) r.wayOf(t->first);
      } else if (in.base() == "ret") {
        r.wayOf("");
      }
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
const std::string kStub = "$L__ptxopt_csr_way", kDecide = "$L__ptxopt_csr_decide",
                  kDispatch = "$L__ptxopt_csr_dispatch", kRounds = "$L__ptxopt_csr_rounds",
                  kRound = "$L__ptxopt_csr_round", kNext = "$L__ptxopt_csr_next";

std::string stubOf(size_t way) { return kStub + std::to_string(way); }

std::string_view renamed(ir::Module &m, std::string_view label) { return m.intern(std::string(label) + kTag); }

/// 1. The original's code, its labels renamed; the ways out of the code
/// before the header go to their stubs.
Body copyOriginal(ir::Module &m, Emitter &e, const ir::Function &k, Region &r) {
  const Body &fb = k.body->body;
  Body out;
  for (size_t i = r.start; i < fb.size(); ++i) {
    if (i == r.header) {  // falling into the header
      e.ins("bra.uni", {stubOf(0)});
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
        const bool leaves = i < r.header && r.labelAt.at(target) >= r.header;
        in.operands[0] = Operand::sym(leaves ? m.intern(stubOf(r.wayOf(target))) : renamed(m, target));
      } else if (i < r.header && in.base() == "ret") {
        in.opcode = m.intern("bra");
        in.operands = {Operand::sym(m.intern(stubOf(r.wayOf(""))))};
      }
    }
    out.push_back(std::move(st));
  }
  return out;
}

/// The stubs: which way (`way`) and the lane's iterations of the measured
/// loop (`iters`; 0 on the other ways).
void emitWayStubs(Emitter &e, const Region &r, const std::string &way, const std::string &iters) {
  for (size_t w = 0; w < r.ways.size(); ++w) {
    e.label(stubOf(w));
    e.ins("mov.u32", {way, std::to_string(w)});
    if (w == 0) {
      std::vector<std::string> v0;
      for (const IV &iv : r.lp->ivs) v0.push_back(iv.reg);
      const std::string T = r.lp->lessThan ? emitTripCountLess(e, *r.lp, v0) : emitTripCount(e, *r.lp, v0);
      e.ins("min.u64", {T, T, "65535"});  // so that 32 of them add up in 32 bits
      e.ins("cvt.u32.u64", {iters, T});
    } else {
      e.ins("mov.u32", {iters, "0"});
    }
    e.ins("bra.uni", {kDecide});
  }
}

/// 2. The votes, and each lane back its way when the warp's rows are short.
void emitVote(ir::Module &m, Emitter &e, const Region &r, const std::string &way, const std::string &iters) {
  e.label(kDecide);
  // A warp none of whose rows is long (both ways below need one) goes back
  // at once: the short rows' path is one setp, one vote and the dispatch.
  const std::string longRow = e.regp(), any = e.regp();
  e.ins("setp.ge.u32", {longRow, iters, std::to_string(kCsrMinIters)});
  e.ins("vote.sync.any.pred", {any, longRow, "-1"});
  e.ins("bra.uni", {kDispatch}, "!" + any);
  // The warp's iterations summed over its 32 lanes (a butterfly: every lane
  // holds the sum, so every lane decides alike).
  const std::string sum = e.reg32();
  e.ins("mov.u32", {sum, iters});
  for (unsigned off = kLanes / 2; off >= 1; off /= 2) {
    const std::string t = e.reg32();
    e.ins("shfl.sync.bfly.b32", {t, sum, std::to_string(off), "31", "-1"});
    e.ins("add.u32", {sum, sum, t});
  }
  // Every row long, or a mean row of kCsrMeanIters.
  const std::string allLong = e.regp(), meanLong = e.regp(), use = e.regp();
  e.ins("vote.sync.all.pred", {allLong, longRow, "-1"});
  e.ins("setp.ge.u32", {meanLong, sum, std::to_string(kLanes * kCsrMeanIters)});
  e.ins("or.pred", {use, allLong, meanLong});
  e.ins("bra.uni", {kRounds}, use);
  e.label(kDispatch);
  for (size_t w = 0; w < r.ways.size(); ++w) {
    const std::string q = e.regp();
    const bool lastWay = w + 1 == r.ways.size();
    if (!lastWay) e.ins("setp.eq.u32", {q, way, std::to_string(w)});
    if (r.ways[w].empty()) e.ins("ret", {}, lastWay ? "" : q);
    else e.ins("bra", {std::string(renamed(m, r.ways[w]))}, lastWay ? "" : q);
  }
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
  const std::string way = e.reg32(), iters = e.reg32();
  emitWayStubs(e, r, way, iters);
  emitVote(m, e, r, way, iters);
  Body decide = std::move(e.out);
  e.out.clear();
  const size_t decls = prologueAt(*clone.body);
  Body rounds = emitRounds(m, e, clone, std::move(laneSetup), G, lt, hw);  // moves the body's statements
  Body &cb = clone.body->body;
  cb.resize(decls);
  for (Body *part : {&original, &decide, &rounds})
    for (auto &st : *part) cb.push_back(std::move(st));
  return true;
}

}  // namespace ptxopt::transforms::rowwalk
