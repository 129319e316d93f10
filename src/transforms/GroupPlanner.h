// The group pass's planner (planGroup's steps, one method each): its
// legality checks in GroupPlan.cpp (step 1), the accesses, k and alignment
// in GroupAccesses.cpp (steps 2 and 3). Internal to the pass.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "GroupPlan.h"

namespace ptxopt::transforms::group {

/// The atomics of `f` whose result is unused (GroupPlan.cpp).
std::set<const Stmt *> deadResultAtomics(const ir::Function &f);

/// planGroup's steps (Group.cpp's steps 1-3), one method each, in order:
/// each refuses by setting p.why (and p.whyAt) and returning false.
class Planner {
public:
  Planner(PassContext &ctx, ir::Function &f, Plan &p, unsigned forcedK, bool gathers)
      : ctx_(ctx), f_(f), fa_(ctx.analyses.get(f)), p_(p), body_(f.body->body), forcedK_(forcedK), gathers_(gathers) {}

  bool run() {
    if (!refuseCommunication() || !sortStatements() || !checkNestedBlocks() || !findExit()) return false;
    findRegions();
    if (!findGridStrideLoop() || !checkMainPart() || !classifyAccesses() || !chooseK() || !checkAlignment())
      return false;
  std::sort(p_.aligned.begin(), p_.aligned.end(),
            [](const Variant::AlignedParam &a, const Variant::AlignedParam &b) { return a.index < b.index; });
  return true;
  }

private:
  /// Step 1: threads that communicate (atomics with an unused result aside).
  bool refuseCommunication();
  /// Step 1: register types, and each statement of the body as a slot.
  bool sortStatements();
  /// Step 1: nested `{ }` blocks hold only plain arithmetic.
  bool checkNestedBlocks();
  /// Step 1: the exit (trailing labels and one unguarded `ret`) and `cut_`.
  bool findExit();
  /// Step 1: if-then and if/else regions.
  void findRegions();
  /// Step 1: a grid-stride loop at the end of the main part.
  bool findGridStrideLoop();
  /// Step 1: the main part: straight-line code, regions and guards.
  bool checkMainPart();
  /// Whether the guarded exit at slot i (after a store) can be a region to the end.
  bool lateExitRegion(size_t i, const Instruction &in);
  /// Step 1: every access unit-stride along %tid.x, independent of it, or a gather.
  bool classifyAccesses();
  bool classifyAccess(const AccessInfo &a);
  /// The instructions of its arm that compute the address of region load `in` at slot `at`.
  bool addressSlice(size_t at, const Instruction &in);
  /// Step 2: k.
  bool chooseK();
  /// Step 3: alignment of replica 0's addresses, and the registers the unpacking needs.
  bool checkAlignment();
  bool checkAlignment(size_t slotIndex, const AccessInfo *a);

  // Built when first needed: most kernels of a large module are refused by
  // a barrier or shared memory before an atomic is looked at.
  bool deadAtomic(const Stmt *st) {
    if (!deadAtomicsOnce_) deadAtomicsOnce_ = deadResultAtomics(f_);
    return deadAtomicsOnce_->count(st) > 0;
  }
  const Instruction &instrAt(const Slot &s) const { return static_cast<const Instruction &>(*body_[s.stmt]); }
  std::string_view labelName(size_t j) const {
    return j < cut_ && p_.slots[j].role == Slot::Role::Exit && body_[p_.slots[j].stmt]->kind == Stmt::Kind::Label
               ? static_cast<const ir::Label &>(*body_[p_.slots[j].stmt]).name
               : std::string_view();
  }
  size_t skipDirectives(size_t j) const {
    while (j < cut_ && p_.slots[j].role == Slot::Role::Directive) ++j;
    return j;
  }
  /// The end of a run of plain statements from j (the first slot that is not one).
  size_t plainArm(size_t j) const;
  /// An unguarded jump at slot j to a label only it targets: that label, else "".
  std::string_view jumpAt(size_t j);
  void markArm(size_t from, size_t to, size_t branch, bool taken) {
    for (size_t t = from; t < to; ++t) {
      p_.slots[t].region = static_cast<int>(branch);
      p_.slots[t].regionTaken = taken;
    }
  }

  PassContext &ctx_;
  ir::Function &f_;
  analysis::FunctionAnalyses &fa_;
  Plan &p_;
  std::vector<std::unique_ptr<Stmt>> &body_;
  const unsigned forcedK_;
  const bool gathers_;
  std::optional<std::set<const Stmt *>> deadAtomicsOnce_;
  unsigned scopedInstrs_ = 0;  // instructions inside nested blocks (for k)
  std::set<std::string_view> exitLabels_;
  size_t cut_ = 0;             // the first slot of the exit
  std::map<std::string_view, int> branchesTo_;
  std::map<const Stmt *, size_t> slotOf_;
  unsigned maxW_ = 0;          // the widest unit-stride access
  std::map<size_t, const AccessInfo *> accessOfSlot_;
};

}  // namespace ptxopt::transforms::group
