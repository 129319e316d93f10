// Control-flow graph of one function, with dominators, post-dominators and
// natural loops.
//
// The function body is flattened (nested `{ }` scopes inline) into one
// instruction list; basic blocks are ranges of it. A block starts at a
// label, after a branch/return/trap, and at the first instruction; fall-through
// edges are explicit edges like any other.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ptxopt/ir/IR.h"

namespace ptxopt::analysis {

struct BasicBlock {
  uint32_t id = 0;
  std::vector<std::string_view> labels;  // labels that name this block
  uint32_t first = 0, last = 0;          // instruction indexes [first, last)
  std::vector<uint32_t> succs, preds;
  bool reachable = false;
};

class CFG {
public:
  explicit CFG(const ir::Function &f);

  const ir::Function &function() const { return *f_; }
  /// Instructions in program order (nested scopes flattened).
  const std::vector<const ir::Instruction *> &instructions() const { return instrs_; }
  /// The last `.loc` directive before each instruction (null when none).
  const ir::Directive *locOf(uint32_t instr) const { return locs_[instr]; }
  const std::vector<BasicBlock> &blocks() const { return blocks_; }
  uint32_t blockOf(uint32_t instr) const { return blockOf_[instr]; }
  /// Index of an instruction, or UINT32_MAX.
  uint32_t indexOf(const ir::Instruction *in) const;
  /// Blocks with no successor (return, exit, trap, or the end of the body).
  std::vector<uint32_t> exits() const;
  /// Reverse post-order of the reachable blocks from the entry (block 0).
  const std::vector<uint32_t> &rpo() const { return rpo_; }
  /// Graphviz text: one node per block (its instructions), edges labelled
  /// "T"/"F" for a conditional branch's taken and fall-through edges.
  std::string toDot() const;

private:
  const ir::Function *f_;
  std::vector<const ir::Instruction *> instrs_;
  std::vector<const ir::Directive *> locs_;
  std::vector<BasicBlock> blocks_;
  std::vector<uint32_t> blockOf_;
  std::vector<uint32_t> rpo_;
  mutable std::vector<std::pair<const ir::Instruction *, uint32_t>> index_;  // indexOf's, sorted on first use
};

/// Dominator tree (or post-dominator tree, over the reversed graph with a
/// virtual exit joining all exit blocks). Cooper, Harvey and Kennedy's
/// iterative algorithm.
class DominatorTree {
public:
  DominatorTree(const CFG &cfg, bool post);
  static constexpr uint32_t kNone = UINT32_MAX;
  /// Immediate (post-)dominator; kNone for the root, unreachable blocks, and
  /// (post) blocks whose immediate post-dominator is the virtual exit.
  uint32_t idom(uint32_t b) const { return idom_[b]; }
  bool dominates(uint32_t a, uint32_t b) const;
  bool isPost() const { return post_; }
  std::string print(const CFG &cfg) const;

private:
  bool post_;
  std::vector<uint32_t> idom_;  // kVirtual for the post-dominator tree's virtual exit
  std::vector<uint32_t> order_;  // position of each block in the iteration order
};

struct Loop {
  uint32_t id = 0;
  uint32_t header = 0;
  std::vector<uint32_t> blocks;   // sorted, header included
  std::vector<uint32_t> latches;  // blocks with a back edge to the header
  std::optional<uint32_t> parent;
  uint32_t depth = 1;
  bool contains(uint32_t b) const;
};

/// Natural loops: a back edge is an edge to a block that dominates its
/// source; loops with the same header are merged.
class LoopInfo {
public:
  LoopInfo(const CFG &cfg, const DominatorTree &dom);
  const std::vector<Loop> &loops() const { return loops_; }
  /// Innermost loop containing block b, if any.
  std::optional<uint32_t> loopOf(uint32_t b) const { return innermost_[b]; }
  std::string print(const CFG &cfg) const;

private:
  std::vector<Loop> loops_;
  std::vector<std::optional<uint32_t>> innermost_;
};

/// Whether every iteration of loop `L` runs block `b`: `b` dominates each of
/// L's latches (a path some iterations skip does not). pack merges a pair
/// of loads only there, the affine analysis takes a counter's update only
/// there, rowwalk's guards call the rest guarded.
bool runsEveryIteration(const Loop &L, uint32_t b, const DominatorTree &dom);

/// Name for a block in printed output: its first label, or "bb<N>".
std::string blockName(const CFG &cfg, uint32_t b);

}  // namespace ptxopt::analysis
