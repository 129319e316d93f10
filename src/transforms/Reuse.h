// The reuse pass's shared parts (src/transforms/Reuse*.cpp; overview in
// Reuse.cpp): what an instruction is to a segment (pure, impure,
// forbidden), the kernel body as blocks of statements, the segments found
// in it (ReuseSegments.cpp, steps 1 and 2 of the overview), and the plan of
// a kernel (planReuse, Reuse.cpp: steps 1-4). Internal to the pass (and its
// unit tests).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "CloneUtil.h"
#include "ptxopt/analysis/AnalysisManager.h"
#include "ptxopt/analysis/CFG.h"
#include "ptxopt/analysis/Semantics.h"
#include "ptxopt/ir/IR.h"

namespace ptxopt::transforms::reuse {

using ir::Instruction;
using ir::Operand;
using ir::Stmt;

/// Members whose shortest pure path is shorter than this (instructions) are
/// left alone: the memo's branch and moves would cost about what they save.
constexpr unsigned kMinInstructions = 16;

enum class Purity { Pure, Impure, Forbidden };

/// Special registers whose value is the same at every read by a thread.
bool stableSpecial(std::string_view r);
/// Pure (ALU, branches, loads of .param/.const/.global.nc), impure (other
/// loads, stores) or forbidden in a segment (calls, barriers, fences,
/// atomics, warp exchanges, carry flag, volatile accesses, anything else).
Purity classify(const Instruction &in);
/// A read of a special register that may change between reads (clocks,
/// the SM, timers) by mov or cvt: forbidden in a segment, and never a value
/// that stays the same.
bool readsVolatileSpecial(const Instruction &in);

/// One segment (see the overview), in body statement indexes.
struct Segment {
  size_t start = 0, end = 0;  // [start, end): end is J's first statement (its label)
  size_t joinCode = 0;        // J's first statement after its labels
  uint32_t head = 0;          // block holding `start`
  std::string canon;
  std::vector<std::string_view> written;  // registers written inside, by first appearance
  std::vector<std::string_view> liveIns;
  std::vector<unsigned> outputs;  // indexes into `written`
  std::vector<size_t> impure;     // statements
  // How a run knows it took a pure path. When every impure instruction
  // lies behind one arm of the head's branch (an arm entered only from the
  // head: cosf's slow path), the branch's predicate says it: `pureGuard`
  // (negated when `pureNegated`) is true exactly on the other arm. Else
  // `marks`: statements where `path = 0` goes, the first of each block with
  // impure instructions that no other such block dominates.
  std::string_view pureGuard;
  bool pureNegated = false;
  std::vector<size_t> marks;
  unsigned pureLength = 0;  // instructions on its shortest pure path
  // Set by decideFolds when the value ranges prove the head's branch never
  // takes the impure arm: the branch (always taken, or never) and the
  // blocks of that arm, sorted.
  size_t fold = SIZE_MAX;
  bool foldTaken = false;
  std::vector<uint32_t> dead;
  // Live-ins it also writes: allowed only where every such write lies in
  // the dead arm (decideFolds drops the segment otherwise).
  std::vector<std::string_view> selfWritten;
  /// Every run takes a pure path.
  bool alwaysPure() const { return impure.empty() || fold != SIZE_MAX; }
};

/// The kernel's body as the CFG sees it, with the statement of each
/// instruction and where each block's statements start. A nested `{ }`
/// scope (a call sequence) is one statement, forbidden in a segment; the
/// CFG's instructions inside it map to it.
struct BodyMap {
  std::vector<const Instruction *> instrs;  // the CFG's instructions, in order
  std::vector<size_t> stmtOf;      // CFG instruction -> body statement
  std::vector<size_t> blockStart;  // block -> first statement (labels included)
  std::vector<uint32_t> blockOfStmt;
  std::vector<Purity> purity;  // per statement (Pure for labels and directives)
  const ir::Block *body = nullptr;

  /// The statements that write register r, ascending (indexed on first
  /// use: only kernels with segments need it).
  const std::vector<size_t> &defs(std::string_view r) const { return find(defs_, r); }

private:
  using Index = std::unordered_map<std::string_view, std::vector<size_t>, analysis::NameHash>;
  const std::vector<size_t> &find(const Index &m, std::string_view r) const {
    static const std::vector<size_t> none;
    if (!indexed_) {
      indexed_ = true;
      for (size_t i = 0; i < instrs.size(); ++i)
        for (auto x : analysis::defUse(*instrs[i]).defs) defs_[x].push_back(stmtOf[i]);
    }
    auto it = m.find(r);
    return it == m.end() ? none : it->second;
  }
  mutable bool indexed_ = false;
  mutable Index defs_;
};

/// Canonical text of a run of code (step 4 of the overview): registers in
/// `written` (after `alias`) renamed %D<n> by first appearance, `labels`
/// renamed L<n> (a label statement not among them is left out), the join's
/// labels END, everything else by name.
class Canon {
public:
  Canon(std::set<std::string_view> written, std::set<std::string_view> labels, std::set<std::string_view> join,
        std::map<std::string_view, std::string_view> alias = {})
      : written_(std::move(written)), labels_(std::move(labels)), join_(std::move(join)), alias_(std::move(alias)) {}
  void label(std::string_view l);
  void instruction(const Instruction &in);
  std::string text;
  std::vector<std::string_view> order;  // the written registers by first appearance

private:
  std::string reg(std::string_view r);
  std::string name(std::string_view l);
  void operand(const Operand &o);
  std::set<std::string_view> written_, labels_, join_;
  std::map<std::string_view, std::string_view> alias_;
  std::map<std::string_view, unsigned> regIds_, labelIds_;
};

/// The body's map, or nullopt when a block of the CFG starts inside a
/// nested scope.
std::optional<BodyMap> mapBody(const ir::Block &body, const analysis::CFG &cfg);

/// The segments of the body that may pay: in a loop, or with code another
/// candidate shares; each checked (step 2 of the overview).
std::vector<Segment> findSegments(const ir::Block &body, analysis::FunctionAnalyses &fa, const BodyMap &bm);

/// Proves, with the value ranges, which segments' impure arm never runs
/// (ReuseHoist.cpp; fills Segment::fold, foldTaken, dead), gives those the
/// canonical text of what they run (see there), and removes the segments
/// that write a live-in outside a dead arm.
void decideFolds(const ir::Block &body, analysis::FunctionAnalyses &fa, const BodyMap &bm, std::vector<Segment> &segs);

/// The registers the segment reads outside its dead arm.
std::set<std::string_view> liveReads(const ir::Block &body, const BodyMap &bm, const Segment &s);

/// A segment that moves out of its loop (ReuseHoist.cpp, step 3 of the
/// overview), in the body's statement indexes.
struct Hoist {
  size_t seg = 0;          // into the segments
  size_t slot = SIZE_MAX;  // it goes before this statement (the loop header's first)
};

/// The segments whose every run is pure and whose loop never writes their
/// live-ins, one per region (the longest of nested ones), by position.
std::vector<Hoist> planHoists(const ir::Block &body, analysis::FunctionAnalyses &fa, const BodyMap &bm,
                              const std::vector<Segment> &segs);

/// Runs `edits` (insertions into the clone at the original's statement
/// indexes), then: the decided branches of the `folded` segments made
/// unconditional (or removed) and their dead arms dropped; the `gone`
/// segments' statements dropped; each hoisted segment moved before its loop,
/// its branches to the join sent to a new label at its end.
void applyClone(ir::Module &m, ir::Block &clone, const BodyMap &bm, const std::vector<Segment> &segs,
                const std::vector<Hoist> &hoists, const std::vector<size_t> &folded, const std::vector<size_t> &gone,
                const std::function<void()> &edits);

/// A class of segments with the same code that gets a memo (step 4 of the
/// overview): its members (indexes into the segments, by position) and the
/// live-ins whose writes clear its `ok`.
struct MemoClass {
  std::vector<size_t> members;
  std::set<std::string_view> resetOn;
};

/// What the pass does to one kernel: steps 1-4 of the overview.
struct KernelPlan {
  std::optional<BodyMap> bm;
  std::vector<Segment> segs;
  std::vector<Hoist> hoists;       // segments that move out of their loop
  std::vector<MemoClass> classes;  // the memos, by their first member's position
  std::vector<bool> gone;          // per segment: a member that needs no code (the saved values alone)
  clone::RegTypes types;           // the body's declared registers
};

/// Plans kernel `k` (steps 1-4 of the overview, Reuse.cpp); false when its
/// body cannot be mapped (a block of its control flow starts inside a nested
/// `{ }` scope). The clone is worth making when `classes` or `hoists` is not
/// empty.
bool planReuse(const ir::Function &k, analysis::FunctionAnalyses &fa, KernelPlan &plan);

}  // namespace ptxopt::transforms::reuse
