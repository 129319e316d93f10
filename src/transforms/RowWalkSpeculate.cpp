// rowwalk, guarded parts run straight in the staged clone's tiles (issue 29,
// item 3). Overview: RowWalk.cpp; guards inside the loop: RowWalkGuards.cpp;
// the staged clone: RowWalkStaged.cpp.
//
// What: in a loop of several blocks such as skip-zero (`if (a[j] != 0) s +=
// a[j] * x[j]`), a max written as a branch (`if (v > m) { m = v; best =
// x[j]; }`) or a guard on x (`if (x[j] > t) s += v * w[j]`), nvcc keeps a
// `@p bra L` around each element's guarded part. In the tiles' body copies
// of the staged clone, such a part becomes straight code: the branch and
// its label are dropped, each instruction of the part runs under the
// branch's negated predicate (`@!p fma ...`), and its loads of memory other
// than the rows (x[j], w[j]) run unconditionally.
// Why it pays on the GPU: the staged clone of such loops has one warp per
// 32 rows (128 warps at 4096 rows, one per SM): it runs at the latency of
// its dependent steps. Behind a branch each load of x waits for its guard
// and runs alone; straight, ptxas issues a copy's loads together and pack
// makes a copy's four 4-byte loads of x one 16-byte load (the
// `_staged_pack` clone). Skip-zero 3.8x -> 8.2-8.5x on an H200 (docs/PASSES.md).
// Exact: the same instructions run for the same lanes on the same values, in
// the same order; a load run where the original skipped it only fills a
// register no instruction reads then (its value is read only inside the
// part, after it, or it is a new register).
// Algorithm: planSpeculation walks the loop's guarded branches (`@p bra L`
// forward to a label L inside the loop that only this branch targets); a
// part (the statements between them) is taken when it is all instructions,
// none already predicated, none writing p, none that branches, stores,
// synchronises or talks across lanes, and each load is speculableLoad's: 4
// or 8 bytes from global memory at a 64-bit induction variable stepping up
// plus a constant, or through a 32-bit index computed in every iteration
// (x[j] with `unsigned` j: a base plus 4 * (u64)j), its base a pointer
// parameter. A load whose register is read after the part too (a branchy
// max's `best = x[j]`) goes into a new register, moved into its own under
// the predicate. Each such load's bytes over the tiles' iterations form a
// range per induction variable (or index); the warp checks it against the
// parameter's allocation (its end a launch argument, as for early exits;
// through an index, also that the index does not wrap) before the tiles
// (StagedEmit::specChecks), else it runs the original loop.
// Refuses (remark, the branch kept): a part with a label, a nested block, a
// predicated instruction, a store, a branch or another instruction above, a
// row's load, a load of 1, 2 or 16 bytes, from another space, at another
// address or one that steps down; a part with no load (arithmetic only: it
// would run for every lane, and only parts that load were measured faster);
// loops with early exits (their peel runs the body before the checks).
#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

namespace {

/// Instructions that may not run predicated in place of a skipped branch:
/// control flow, synchronisation, warp-collective and texture/surface work.
bool unpredicable(std::string_view base) {
  static const std::set<std::string_view> kNo = {
      "bra",     "brx",     "call",   "ret",       "exit",   "trap",      "bar",    "barrier",
      "vote",    "shfl",    "activemask", "match", "redux",  "membar",    "fence",  "nanosleep",
      "cp",      "mbarrier", "elect", "griddepcontrol", "setmaxnreg", "pmevent", "brkpt", "tex",
      "tld4",    "suld",    "sust",   "sured",     "suq",    "txq",       "mma",    "wmma",
      "wgmma",   "ldmatrix", "stmatrix", "tcgen05", "clusterlaunchcontrol"};
  return kNo.count(base) != 0;
}

}  // namespace

bool Planner::speculableLoad(const LoopBlock &L, const LanePlan &lp, std::vector<StagedPlan::Speculated::Range> &ranges,
                             size_t i, size_t end, bool &rename, std::string &why) {
  const Instruction &in = *instr(i);
  const auto mem = analysis::memAccess(in);
  if (mem->kind != analysis::MemAccess::Kind::Load || mem->space != ".global" || in.hasModifier(".volatile") ||
      mem->vector != 1 || (mem->bytes() != 4 && mem->bytes() != 8) || in.operands.size() != 2 ||
      !in.operands[0].isReg()) {
    why = "a load other than a 4- or 8-byte scalar global one";
    return false;
  }
  std::string reg;
  int64_t off = 0;
  if (!mem->address || !baseAndOffset(*mem->address, reg, off)) {
    why = "a load whose address is not a register plus a constant";
    return false;
  }
  const IV *iv = nullptr;
  for (const IV &v : lp.ivs)
    if (v.reg == reg && v.bits == 64 && v.immStep && v.step > 0 && v.link.empty() && !L.guarded.count(v.update))
      iv = &v;
  // Else through a 32-bit index computed in every iteration (nvcc computes
  // `x + 4 * (u64)j` before the guard: skip-zero with `unsigned` indices).
  StagedPlan::Wide w;
  int64_t c = 0;
  std::string key;
  std::set<std::string> seen;
  const bool wide = !iv && unguardedAddress(L, reg, seen, 0) && wideAddress(L, lp, i, reg, w, c, key) &&
                    w.iv64.empty() && w.elemStep > 0;
  if (!iv && !wide) {
    why = "a load whose address is not a 64-bit induction variable stepping up plus a constant, or a 32-bit index "
          "stepping up computed in every iteration";
    return false;
  }
  int p = accessAt_.count(i) ? paramOfBase(k_, baseOf(*accessAt_.at(i))) : -1;
  if (p < 0) p = provenance(instrOf_.at(i), reg, 0);
  if (p < 0) {
    why = "a load whose base is not a pointer parameter (its allocation cannot be asked at launch)";
    return false;
  }
  // Its value read only after it inside the part: where the part is skipped
  // nothing reads what the unconditional load left in the register. Else
  // the load goes into a new register, moved into its own under the guard.
  const std::string_view dst = in.operands[0].text;
  rename = false;
  for (size_t j = 0; j < body_.size() && !rename; ++j) {
    if (body_[j]->kind == Stmt::Kind::Block) {
      rename = true;
      break;
    }
    const Instruction *u = instr(j);
    if (!u || (j > i && j < end)) continue;
    const auto du = analysis::defUse(*u);
    rename = std::find(du.uses.begin(), du.uses.end(), dst) != du.uses.end();
  }
  if (wide) {
    // Bytes from base + scale * j0 (j0 the index at the entry): the load
    // reads base + scale * ext(j + c) + off.
    const int64_t lo = c * int64_t(w.scale) + off, hi = lo + int64_t(mem->bytes());
    for (auto &r : ranges)
      if (r.key == key && r.param == uint32_t(p)) {
        r.wide.cmin = std::min(r.wide.cmin, c);
        r.wide.cmax = std::max(r.wide.cmax, c);
        r.lo = std::min(r.lo, lo);
        r.hi = std::max(r.hi, hi);
        return true;
      }
    w.cmin = w.cmax = c;
    StagedPlan::Speculated::Range r;
    r.step = w.elemStep * int64_t(w.scale);
    r.lo = lo, r.hi = hi;
    r.param = uint32_t(p);
    r.wide = w;
    r.key = key;
    ranges.push_back(r);
    return true;
  }
  // Iteration k reads [iv0 + k*step + off, + bytes); after the update, one step on.
  if (iv->update < i) off += iv->step;
  const int64_t lo = off, hi = off + int64_t(mem->bytes());
  for (auto &r : ranges)
    if (r.wide.base.empty() && r.iv == iv->reg && r.param == uint32_t(p)) {
      r.lo = std::min(r.lo, lo);
      r.hi = std::max(r.hi, hi);
      return true;
    }
  StagedPlan::Speculated::Range r;
  r.iv = iv->reg, r.step = iv->step, r.lo = lo, r.hi = hi, r.param = uint32_t(p);
  ranges.push_back(r);
  return true;
}

void Planner::planSpeculation(const LoopBlock &L, StagedPlan &sp) {
  if (!L.exits.empty()) return;
  std::set<size_t> rowAccess;
  for (const auto *list : {&sp.loads, &sp.stores, &sp.carried})
    for (const auto &l : *list) rowAccess.insert(l.stmt);
  std::map<std::string_view, size_t> labelAt, branchesTo;
  for (size_t i = 0; i < body_.size(); ++i) {
    if (body_[i]->kind == Stmt::Kind::Label) labelAt[static_cast<const ir::Label &>(*body_[i]).name] = i;
    if (const Instruction *in = instr(i); in && in->base() == "bra") ++branchesTo[analysis::branchTarget(*in)];
  }
  std::string left;
  for (size_t b = L.hs + 1; b < L.ls; ++b) {
    const Instruction *br = instr(b);
    if (!br || br->base() != "bra" || br->guard.empty()) continue;
    const std::string_view target = analysis::branchTarget(*br);
    const auto at = labelAt.find(target);
    if (at == labelAt.end() || at->second <= b + 1 || at->second >= L.ls || branchesTo[target] != 1) continue;
    const size_t end = at->second;
    StagedPlan::Speculated part;  // this part's edits, merged when it is taken
    part.ranges = sp.spec.ranges;
    std::string why;
    unsigned loads = 0;
    for (size_t i = b + 1; i < end && why.empty(); ++i) {
      const Instruction *in = instr(i);
      if (!in) {
        why = "a label, directive or nested block inside it";
        break;
      }
      const auto mem = analysis::memAccess(*in);
      if (!in->guard.empty()) {
        why = "an instruction already predicated inside it";
      } else if (rowAccess.count(i)) {
        why = "a row's load or store inside it (the tiles' reads)";
      } else if (unpredicable(in->base())) {
        why = "an instruction that branches, synchronises or works across lanes inside it (" +
              std::string(in->opcode) + ")";
      } else if (mem && mem->kind != analysis::MemAccess::Kind::Load) {
        why = "a store or atomic inside it";
      } else if (mem) {
        bool rename = false;
        if (speculableLoad(L, sp.lp, part.ranges, i, end, rename, why)) {
          ++loads;
          if (rename) {
            part.renamed[i] = mem->bytes();
            part.guard[i] = {std::string(br->guard), !br->guardNegated};
          }
        }
      } else {
        const auto du = analysis::defUse(*in);
        if (std::find(du.defs.begin(), du.defs.end(), br->guard) != du.defs.end())
          why = "an instruction inside it writes its guard " + std::string(br->guard);
      }
      if (why.empty() && !mem) part.guard[i] = {std::string(br->guard), !br->guardNegated};
    }
    // Only parts with a load to read ahead: those measured faster (skip-zero,
    // a branchy max, a guard on x); a part of arithmetic only (a cutoff's
    // force term, rcp and all) would run for every lane, unmeasured.
    if (why.empty() && !loads) why = "no load of memory inside it (only parts that load were measured faster straight)";
    if (!why.empty()) {
      if (left.empty()) left = "the guarded part after " + std::string(br->guard) + " (to " + std::string(target) +
                               ") stays a branch: " + why;
      continue;
    }
    sp.spec.ranges = std::move(part.ranges);
    sp.spec.guard.insert(part.guard.begin(), part.guard.end());
    sp.spec.renamed.insert(part.renamed.begin(), part.renamed.end());
    sp.spec.dropped.insert({b, end});
    sp.spec.loads += loads;
  }
  if (!left.empty())
    ctx_.remark(Remark::Kind::Missed, k_, L.where, "staged clone: " + left);
}

}  // namespace ptxopt::transforms::rowwalk
