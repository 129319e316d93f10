// rowwalk, guards inside the loop (issue 29, item 3): row walks whose loop
// is several blocks, taken by the staged clone. Overview: RowWalk.cpp; the
// staged clone: RowWalkStaged.cpp.
//
// What: loops like `if (a[j] != 0) s += a[j] * x[j]` (skip-zero), `if (v >
// m) { m = v; best = x[j]; }` (a branchy max) or `if (x[j] > 0) s += ...`:
// nvcc (-O3) unrolls them by 4 and keeps a branch around each guarded
// part, so the loop is a header, guarded blocks, joins and a latch. The
// staged clone takes such a loop as it takes a single-block one: its copies
// of the body keep their control flow (each copy with its own labels, the
// branches inside retargeted), only the row's loads read the lane's row of
// the tile instead of global memory, in the same order: bit-identical for
// floating point too. Short guarded parts that load (skip-zero's x[j]) run
// straight instead, predicated (RowWalkSpeculate.cpp, planSpeculation).
// Why it pays on the GPU: as for single-block row walks (RowWalkStaged.cpp):
// one thread per row makes every load of a warp touch 32 lines; the tiles
// read each line once, 4 lines per copy instruction. The guards diverge the
// warp inside a body copy (lanes skip different elements); it reconverges
// at each join, before the bar.warp.sync that ends a tile.
// Algorithm: findLoops (RowWalk.cpp) hands a loop of several blocks to
// guardedLoop, which accepts it when it is one range of statements from its
// header's label to its latch `@p bra header` (the only branch to the
// header), contains no other loop, and is left only by falling through its
// latch; it records the statements of blocks that do not dominate the latch
// (`guarded`: they may not run in an iteration). A kernel with such a loop
// is planned by runGuarded: no regacc or lanes clone (their accumulator
// chains and stores assume one block), the staged clone only, and only when
// it takes one of the loops of several blocks (else the kernel is left as
// it was); loops nvcc kept rolled get a second, small-step try
// (smallStepRetry: loops with early exits, and pointer walks `p < row + n`
// whose latch is `setp.lt.u64`). planLanes does not take a register updated under a guard for an
// induction variable; planStaged (rowLoadEveryIteration) takes a load along
// the row when it runs in every iteration, with its address computed
// in the loop only by statements that do: then the loop reads each
// iteration's whole piece of the row (the loads cover it exactly,
// RowWalkStaged.cpp), and the tiles read no element the loop does not.
// A load along the row under guards that read no memory loaded in the loop
// (`if (j % 3)`: loadsFeeding finds none) is taken too (StagedPlan::guardedLoads):
// the tiles read the elements it skips, so, as for early exits, the rows'
// allocations are checked per warp (planAllocParams); so is a guard on
// loaded data of the lane's own (a mask along its row: laneOwnData), which
// the original reads whole anyway; a guard on data every lane reads alike
// (`if (mask[j])`) may let the original skip whole columns, where the
// tiles read all of them: taken only with the pass option rowwalk-masked.
// Early exits (`break`, `return`: branches out of the loop before its
// latch), with the pass option rowwalk-exits only (planExits): the tiles
// read the row ahead of where a lane may leave it, so each row's base must
// be a pointer parameter whose allocation's end the clone takes as a launch
// argument (Variant::allocEnds) and checks per warp; the per-lane form with
// a peel of kPeelBytes first and a dispatch to each exit's target
// (RowWalkStaged.cpp). Off by default: where most rows end in their first
// elements the clone ran 0.49-0.73x (262144 x 256, H200), and no launch
// condition sees the data.
// Refuses (remark): an early exit without rowwalk-exits, or whose row base
// is not a pointer parameter; a `ret`/`exit` inside the loop; a loop nested
// in it, a loop that is not one range of statements or whose
// header is entered by a branch; a load along the row under a guard on data
// loaded in the loop, or an address computed under a guard; any store in the loop (the tiles are read
// ahead of it; planLanes), and whatever the staged clone refuses for
// single-block loops.
#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

namespace {
const char *const kSeveral = kSeveralBlocks;
}  // namespace

bool Planner::guardedLoop(const analysis::Loop &L, const std::map<std::string_view, size_t> &labelAt,
                          const std::map<std::string_view, size_t> &branchesTo, LoopBlock &lb, std::string &why) {
  const auto &cfg = fa_.cfg();
  why = kSeveral;
  for (const auto &o : fa_.loops().loops())
    if (o.id != L.id && L.contains(o.header)) return false;  // a loop nest
  const auto &h = cfg.blocks()[L.header];
  if (h.labels.size() != 1 || !labelAt.count(h.labels[0]) || h.last == h.first || L.latches.size() != 1)
    return false;
  const auto &latch = cfg.blocks()[L.latches[0]];
  if (latch.last == latch.first) return false;
  lb.id = L.id;
  lb.block = L.header;
  lb.header = std::string(h.labels[0]);
  lb.hs = labelAt.at(h.labels[0]);
  lb.ls = stmtOf_.at(latch.last - 1);
  lb.multi = true;
  const Instruction *br = instr(lb.ls);
  if (lb.ls <= lb.hs || !br || br->base() != "bra" || br->guard.empty() || analysis::branchTarget(*br) != lb.header ||
      !branchesTo.count(h.labels[0]) || branchesTo.at(h.labels[0]) != 1)
    return false;
  // One range of statements holding every block of the loop.
  std::set<uint32_t> seen;
  for (size_t i = lb.hs + 1; i <= lb.ls; ++i) {
    if (body_[i]->kind == Stmt::Kind::Block) return false;
    const Instruction *in = instr(i);
    if (!in) continue;
    const uint32_t b = cfg.blockOf(instrOf_.at(i));
    if (!L.contains(b) || in->base() == "brx") return false;
    seen.insert(b);
  }
  if (seen.size() != L.blocks.size()) return false;
  // Left through the latch, or by branches out of it (early exits).
  for (uint32_t b : L.blocks) {
    const auto &blk = cfg.blocks()[b];
    bool leaves = false;
    for (uint32_t s : blk.succs) leaves |= !L.contains(s) && b != L.latches[0];
    if (!leaves) {
      if (blk.succs.empty()) {  // ret, exit, trap inside the loop
        why = "a loop of several blocks that ends the thread inside it (ret or exit before its latch)";
        return false;
      }
      continue;
    }
    const size_t at = stmtOf_.at(blk.last - 1);
    const Instruction *x = instr(at);
    const auto to = x && x->base() == "bra" ? labelAt.find(analysis::branchTarget(*x)) : labelAt.end();
    if (to == labelAt.end() || (to->second > lb.hs && to->second <= lb.ls)) {
      why = "a loop of several blocks left before its latch other than by a branch out of it";
      return false;
    }
    lb.exits.push_back(at);
  }
  std::sort(lb.exits.begin(), lb.exits.end());
  const auto &dom = fa_.dom();
  for (size_t i = lb.hs + 1; i < lb.ls; ++i)
    if (instr(i) && !analysis::runsEveryIteration(L, cfg.blockOf(instrOf_.at(i)), dom)) lb.guarded.insert(i);
  lb.where = locationOf(ctx_.module, fa_, body_[lb.hs + 1].get());
  for (size_t i = lb.hs + 1; i <= lb.ls && lb.where.empty(); ++i) lb.where = locationOf(ctx_.module, fa_, body_[i].get());
  why.clear();
  return true;
}

void Planner::loadsFeeding(const LoopBlock &L, std::string_view reg, std::set<std::string> &seen, int depth,
                           std::vector<size_t> &loads) const {
  if (depth > 24) {
    loads.push_back(SIZE_MAX);  // too deep to follow: taken for a load the analysis cannot place
    return;
  }
  if (!seen.insert(std::string(reg)).second) return;
  for (size_t i = L.hs + 1; i <= L.ls; ++i) {
    const Instruction *in = instr(i);
    if (!in) continue;
    auto du = analysis::defUse(*in);
    if (std::find(du.defs.begin(), du.defs.end(), reg) == du.defs.end()) continue;
    if (auto mem = analysis::memAccess(*in); mem && mem->space != ".param" && mem->space != ".const") {
      loads.push_back(i);
      continue;
    }
    for (auto u : du.uses) loadsFeeding(L, u, seen, depth + 1, loads);
  }
}

bool Planner::laneOwnData(const std::vector<size_t> &loads) const {
  for (size_t l : loads) {
    const auto a = accessAt_.find(l);
    if (a == accessAt_.end() || (a->second->verdict != AccessInfo::Verdict::Uncoalesced &&
                                 a->second->verdict != AccessInfo::Verdict::Coalesced))
      return false;
  }
  return true;
}

bool Planner::unguardedAddress(const LoopBlock &L, std::string_view reg, std::set<std::string> &seen, int depth,
                               size_t load) const {
  if (depth > 24) return false;
  if (!seen.insert(std::string(reg)).second) return true;
  const auto &cfg = fa_.cfg();
  for (size_t i = L.hs + 1; i <= L.ls; ++i) {
    const Instruction *in = instr(i);
    if (!in) continue;
    auto du = analysis::defUse(*in);
    if (std::find(du.defs.begin(), du.defs.end(), reg) == du.defs.end()) continue;
    // Under a guard only before a guarded load in its own block (the 32-bit
    // index forms compute the address beside the load: `if (j % 3) s +=
    // M[i*cols + j]` with unsigned indices), never from memory.
    const bool beside = load != SIZE_MAX && i < load && cfg.blockOf(instrOf_.at(i)) == cfg.blockOf(instrOf_.at(load)) &&
                        !analysis::memAccess(*in);
    if ((L.guarded.count(i) && !beside) || !in->guard.empty()) return false;
    for (auto u : du.uses)
      if (!unguardedAddress(L, u, seen, depth + 1, load)) return false;
  }
  return true;
}

bool Planner::rowLoadEveryIteration(const LoopBlock &L, size_t load, const std::string &reg, bool &guarded,
                                    std::string &why) const {
  if (L.guarded.count(load) && !guarded) {  // the loop's guards, checked at its first guarded row load
    // The tiles read every element of the row's pieces, the loop only those
    // its guards let through. Guards on indices (`j != i`, `j % 3`) skip
    // few. A guard on data of the lane's own (a mask along its row: `if
    // (mask[i*n + j])`, loads that differ by lane) is taken: the original
    // reads that data whole anyway, an element at a time, and the tiles ran
    // 4.7x there even where the guard let 1 in 85 through (H200). A guard on
    // data every lane reads alike (`if (mask[j])`, `if (x[j] > 50)`) lets
    // the original skip whole columns, and no launch condition sees the
    // data: only with rowwalk-masked, as are loads the analysis cannot place.
    for (size_t i = L.hs + 1; i < L.ls && !ctx_.options.rowwalk.masked; ++i) {
      const Instruction *br = instr(i);
      if (!br || br->base() != "bra" || br->guard.empty()) continue;
      std::set<std::string> seen;
      std::vector<size_t> loads;
      loadsFeeding(L, br->guard, seen, 0, loads);
      if (!loads.empty() && !laneOwnData(loads)) {
        why = "a load along the row runs under a guard on data loaded in the loop that every lane reads alike or "
              "whose address is unknown (" +
              std::string(br->guard) + "; the tiles would read every element, the loop maybe few of them): only "
              "with rowwalk-masked";
        return false;
      }
    }
    guarded = true;
  }
  std::set<std::string> seen;
  if (!unguardedAddress(L, reg, seen, 0, guarded && L.guarded.count(load) ? load : SIZE_MAX)) {
    why = "the address of a load along the row is computed under a guard in the loop";
    return false;
  }
  return true;
}

void Planner::ivPlusConstant(const LoopBlock &L, const LanePlan &lp, size_t load, std::string &reg,
                             int64_t &off) const {
  const size_t d = onlyDefInLoop(L, reg);
  if (d == SIZE_MAX || d > load || L.guarded.count(d)) return;
  const Instruction &in = *instr(d);
  if ((in.opcode != "add.s64" && in.opcode != "add.u64") || !in.guard.empty() || in.operands.size() != 3) return;
  for (int side = 1; side <= 2; ++side) {
    const Operand &v = in.operands[size_t(side)], &c = in.operands[size_t(3 - side)];
    if (!v.isReg() || !c.intValue()) continue;
    for (const IV &iv : lp.ivs)
      if (iv.reg == v.text && iv.bits == 64 && iv.immStep && iv.update > load) {
        reg = iv.reg;
        off += *c.intValue();
        return;
      }
  }
}

bool Planner::runGuarded(KernelPlan &plan, std::string &why) {
  ctx_.remark(Remark::Kind::Missed, k_, "",
              "no lanes clone: a loop of several blocks (guards inside a loop: the staged clone only)");
  if (!ctx_.options.rowwalk.staged.value_or(kStagedByDefault)) {
    why = std::string(kSeveral) + "; guards inside the loop: the staged clone only (rowwalk-staged=0)";
    return false;
  }
  std::string stagedWhy, multiWhy;
  bool multiStaged = false, multiWalks = false;  // multiWhy is about a loop that walks a row
  auto planAll = [&](bool retry) {
    for (const auto &L : loops_) {
      if (retry && !smallStepRetry(L)) continue;
      StagedPlan sp;
      std::string w;
      // Per lane when the trip count differs between lanes (a triangular
      // loop with guards: a unit-diagonal trmv): the uniform form's warps
      // would all run the original loop.
      // Guarded row loads: the rows' allocations checked (early exits have them already).
      auto guardedAllocs = [&] {
        if (!sp.guardedLoads || !sp.allocParams.empty()) return true;
        if (!planAllocParams(sp, "a load along the row under a guard (the tiles read the elements it skips)", w))
          return false;
        if (sp.unalignedWhy.empty())
          sp.unalignedWhy = "a load along the row under a guard (the allocation checks assume aligned tiles)";
        return true;
      };
      // What the unaligned clone's copies do not take (per-lane trip counts,
      // short or vector rows, gaps, rows walked down): its launches run the
      // original, as on the single-block path (planStagedLoops).
      auto unalignedRefused = [&] {
        if (sp.unalignedWhy.empty()) sp.unalignedWhy = unalignedRefusal(sp);
        return true;
      };
      if (planStaged(L, plan, sp, w) && (L.exits.empty() ? planPerLane(L, sp, w) : planExits(sp, w)) &&
          guardedAllocs() && unalignedRefused()) {
        if (ctx_.options.rowwalk.straight) planSpeculation(L, sp);
        multiStaged |= L.multi;
        plan.staged.push_back(std::move(sp));
        continue;
      }
      const std::string text = "loop at " + (L.where.empty() ? L.header : L.where) + ": " + w;
      const bool walks = !w.starts_with("no access of the loop is uncoalesced");
      if (L.multi && (multiWhy.empty() || (walks && !multiWalks) || retry)) multiWhy = text, multiWalks = walks;
      else if (!L.multi && stagedWhy.empty() && walks) stagedWhy = text;
    }
  };
  planAll(false);
  // Loops with early exits nvcc kept rolled (one element an iteration,
  // `j < n`, often through a 32-bit index), and pointer walks (`for (p =
  // row; p < row + n; ++p)`, setp.lt.u64, which nvcc keeps rolled): a
  // second try with small steps, for them only (the other guarded loops
  // were measured unrolled).
  if (!multiStaged && std::any_of(loops_.begin(), loops_.end(), [&](const LoopBlock &L) { return smallStepRetry(L); })) {
    plan.staged.clear();
    smallSteps_ = smallWide_ = true;
    planAll(true);
    smallSteps_ = smallWide_ = false;
    if (multiStaged) stagedWhy.clear(), multiWalks = false;
  }
  if (multiStaged && !hasCpAsync(ctx_.module) && ctx_.options.rowwalk.asyncCopy) {
    multiStaged = false;
    multiWhy = "the target is below sm_80 (no cp.async; rowwalk-staged-copy=async)";
  }
  if (!multiStaged) {
    plan.staged.clear();
    why = "a loop of several blocks (guards inside the loop), no staged clone: " + multiWhy;
    return false;
  }
  if (multiWalks || !stagedWhy.empty())
    ctx_.remark(Remark::Kind::Missed, k_, "", "staged clone without " + (multiWalks ? multiWhy : stagedWhy));
  return true;
}

bool Planner::smallStepRetry(const LoopBlock &L) const {
  if (!L.exits.empty()) return true;
  // The latch's predicate set by `setp.lt.u64` in the loop: a pointer
  // compared with the row's end.
  const Instruction &br = *instr(L.ls);
  if (br.guard.empty() || br.guardNegated) return false;
  for (size_t i = L.ls; i-- > L.hs + 1;)
    if (const Instruction *in = instr(i); in && !in->operands.empty() && in->operands[0].isReg() &&
                                          in->operands[0].text == br.guard)
      return in->opcode == "setp.lt.u64";
  return false;
}

bool Planner::planExits(StagedPlan &sp, std::string &why) {
  // The tiles read each row ahead of the loop, past where it may leave it:
  // only where each warp can check at run time that they stay inside the
  // row's allocation (the end of its base parameter's, a launch argument).
  if (!ctx_.options.rowwalk.exits) {
    why = "an early exit: where rows end in their first elements the staged clone runs slower than the original "
          "(0.49-0.73x at 262144 x 256), where they run long 1.9-7.7x faster, and no launch condition can tell "
          "which: only with rowwalk-exits (ptx-opt --rowwalk-exits)";
    return false;
  }
  if (ctx_.options.rowwalk.asyncCopy) {
    why = "an early exit: only the plain copies stage such loops (rowwalk-staged-copy=async asked for cp.async)";
    return false;
  }
  sp.perLane = true;  // each lane leaves at its own iteration
  if (!planAllocParams(sp, "an early exit", why)) return false;
  sp.unalignedWhy = "an early exit (the unaligned clone has one trip count a warp)";
  return true;
}

bool Planner::planAllocParams(StagedPlan &sp, const std::string &what, std::string &why) {
  sp.allocParams.assign(sp.rows.size(), UINT32_MAX);
  std::vector<StagedPlan::RowLoad> all = sp.loads;  // a row only stored into: its stores' base
  all.insert(all.end(), sp.stores.begin(), sp.stores.end());
  for (const auto &l : all) {
    const int p = accessAt_.count(l.stmt) ? paramOfBase(k_, baseOf(*accessAt_.at(l.stmt))) : -1;
    if (p < 0 || (sp.allocParams[l.row] != UINT32_MAX && sp.allocParams[l.row] != uint32_t(p))) {
      why = what + ", and a row whose base is not one pointer parameter (the tiles read elements the loop may not; "
                   "the end of its allocation cannot be asked at launch)";
      sp.allocParams.clear();
      return false;
    }
    sp.allocParams[l.row] = uint32_t(p);
  }
  for (uint32_t p : sp.allocParams)
    if (p == UINT32_MAX) {
      why = what + ", and a row with no load the analysis places";
      sp.allocParams.clear();
      return false;
    }
  return true;
}

std::set<std::string> innerLabels(const std::vector<std::unique_ptr<Stmt>> &cb, const LoopBlock &L) {
  std::set<std::string> out;
  for (size_t i = L.hs + 1; i < L.ls; ++i)
    if (cb[i]->kind == Stmt::Kind::Label) out.insert(std::string(static_cast<const ir::Label &>(*cb[i]).name));
  return out;
}

void renameCopy(ir::Module &m, Stmt &s, const std::set<std::string> &labels, const std::string &suffix) {
  if (s.kind == Stmt::Kind::Label) {
    auto &l = static_cast<ir::Label &>(s);
    if (labels.count(std::string(l.name))) l.name = m.intern(std::string(l.name) + suffix);
    return;
  }
  if (s.kind != Stmt::Kind::Instruction) return;
  auto &in = static_cast<Instruction &>(s);
  if (in.base() != "bra" || in.operands.empty()) return;
  Operand &t = in.operands.back();
  if (t.kind == Operand::Kind::Symbol && labels.count(std::string(t.text)))
    t.text = m.intern(std::string(t.text) + suffix);
}

}  // namespace ptxopt::transforms::rowwalk
