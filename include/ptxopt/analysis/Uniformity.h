// Thread uniformity: whether a register holds the same value for every
// thread of the grid, of a block, or may differ by thread (Uniformity.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ptxopt/analysis/CFG.h"
#include "ptxopt/analysis/ReachingDefs.h"

namespace ptxopt::analysis {

enum class UniformLevel : uint8_t {
  Grid = 0,    // the same for every thread of the launch (parameters, %ntid, %nctaid, constants)
  Block = 1,   // the same within a block (it depends on %ctaid)
  Thread = 2,  // may differ between threads of a warp (or not known)
};
const char *uniformLevelName(UniformLevel l);

class Uniformity {
public:
  Uniformity(const CFG &cfg, const DominatorTree &dom, const LoopInfo &loops, const ReachingDefs &rd);
  /// Level of what instruction `i` writes (for a branch: of its condition).
  UniformLevel ofInstr(uint32_t i) {
    compute();
    return static_cast<UniformLevel>(lvl_[i]);
  }
  /// Level of `reg` as read at `at`, the choice between several reaching
  /// definitions included.
  UniformLevel read(uint32_t at, std::string_view reg);
  /// Level of the choice between definitions `defs` of a register read at
  /// `at`: the conditions of the branches that decide which one reaches.
  UniformLevel choice(uint32_t at, const std::vector<uint32_t> &defs);
  /// Whether every thread that runs loop `loop` runs it the same number of
  /// times: the level of the conditions that leave it.
  UniformLevel tripCount(uint32_t loop);

private:
  void compute();
  void iterate();
  uint8_t readLevel(uint32_t at, std::string_view reg);
  /// Conditional branches whose direction decides which of `defs` reaches block `b`.
  std::vector<uint32_t> deciders(uint32_t b, const std::vector<uint32_t> &defs);
  const std::vector<uint64_t> &region(uint32_t block);
  /// Blocks on a path from `d` to `b` that does not pass through `d` again (d included).
  const std::vector<uint64_t> &between(uint32_t d, uint32_t b);
  /// Blocks from which block `b` can be reached (b included): a bit set of blocks.
  const uint64_t *reaching(uint32_t b);

  const CFG &cfg_;
  const DominatorTree &dom_;
  const LoopInfo &loops_;
  const ReachingDefs &rd_;
  DominatorTree pdom_;
  bool computed_ = false;
  std::vector<uint8_t> lvl_, intrinsic_;
  std::vector<uint64_t> branchBlocks_;  // bit set of the blocks ending in a two-way (or indirect) branch
  std::vector<std::vector<uint64_t>> regions_;     // per block: blocks reachable before its post-dominator
  std::vector<uint8_t> regionDone_;
  std::unordered_map<uint64_t, std::vector<uint64_t>> betweenMemo_;  // (d << 32 | b) -> between(d, b)
  std::vector<uint32_t> work_;  // between()'s and region()'s walks
  std::vector<uint64_t> reachTo_;  // reaching(): one row of bits per block, all made at the first call
  std::vector<std::pair<bool, std::vector<uint32_t>>> candidates_;  // per block: branches with both ways reaching it
  std::map<std::vector<uint32_t>, std::vector<uint32_t>> decidersMemo_;  // (defs..., block) -> deciders
  std::vector<std::pair<bool, std::vector<uint32_t>>> exits_;  // per loop: computed, instructions leaving it
  /// Branches and returns that leave loop `loop` for some threads.
  const std::vector<uint32_t> &loopExits(uint32_t loop);
  /// Appends the exits of the loops around `defs` that do not hold block `b`.
  void exitsLeft(uint32_t b, const std::vector<uint32_t> &defs, std::vector<uint32_t> &out);
  struct Read {
    int8_t special;                // -1: a register with definitions
    uint32_t defsBegin, defsEnd;   // its reaching definitions: readDefs_[defsBegin .. defsEnd)
    std::vector<uint32_t> deciders;
  };
  // The reads of instruction i: reads_[readsBegin_[i] .. readsBegin_[i+1]),
  // flat (one vector per read was 30000 allocations in a large kernel).
  std::vector<Read> reads_;
  std::vector<uint32_t> readsBegin_, readDefs_;
};

}  // namespace ptxopt::analysis
