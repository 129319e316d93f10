// Reaching definitions and def-use chains over PTX registers.
//
// PTX registers are not SSA: a register may be written in several places
// (loop counters, values merged at a join). For a register read at an
// instruction, the definitions that may have produced its value are the
// writes of that register from which some path reaches the read without
// another write. `kEntry` stands for "the value it had on entry" (a register
// parameter of a .func, or a register read before any write).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ptxopt/analysis/CFG.h"
#include "ptxopt/analysis/Semantics.h"

namespace ptxopt::analysis {

class ReachingDefs {
public:
  explicit ReachingDefs(const CFG &cfg);
  /// With the function's dominator tree, when it is at hand (not made again).
  ReachingDefs(const CFG &cfg, const DominatorTree &dom);
  static constexpr uint32_t kEntry = UINT32_MAX;

  /// Instructions whose write of `reg` may reach the read at `at` (before
  /// `at` executes), in increasing order; kEntry last if the entry value may.
  std::vector<uint32_t> defsAt(uint32_t at, std::string_view reg) const;
  /// The same into `out` (cleared first): a caller that asks in a loop reuses one vector.
  void defsAt(uint32_t at, std::string_view reg, std::vector<uint32_t> &out) const;
  /// The same for a register by its number (registerId), without a look-up of its name.
  void defsOfId(uint32_t at, uint32_t id, std::vector<uint32_t> &out) const;
  /// Definition sites: an entry site per register, then each instruction's
  /// write of each of its registers, numbered 0 .. siteCount()-1.
  size_t siteCount() const { return sites_.size(); }
  /// The site of instruction `instr`'s write of register number `id`; UINT32_MAX when it writes no such register.
  uint32_t siteOf(uint32_t instr, uint32_t id) const {
    for (uint32_t s = siteBegin_[instr]; s < siteBegin_[instr + 1]; ++s)
      if (sites_[s].reg == id) return s;
    return UINT32_MAX;
  }
  /// registerId of the k-th register that defUse(instr).uses names (kept from the numbering).
  uint32_t useId(uint32_t instr, size_t k) const { return useIds_[useBegin_[instr] + k]; }
  /// Instructions that may read the value `def` wrote to `reg`.
  std::vector<uint32_t> usesOf(uint32_t def, std::string_view reg) const;
  const DefUse &defUse(uint32_t instr) const { return du_[instr]; }
  /// Dense number of a register named in the function (0 .. registerCount()-1), UINT32_MAX for another name.
  uint32_t registerId(std::string_view reg) const { return regId_.find(reg); }
  size_t registerCount() const { return regId_.size(); }
  /// Whether register `id` is written by at most one instruction (then no
  /// read has two definitions that are both instructions).
  bool writtenOnce(uint32_t id) const { return sparse_[id] != 0; }
  /// "%r5 @12: defs 3, 9" per use, for tests.
  std::string print() const;
  /// A path of one edge or more leads from block b to block a (the blocks
  /// reached from each, made at the first question).
  bool reachesAfter(uint32_t b, uint32_t a) const;

private:
  /// Register name -> dense id, by open addressing (linear probing over a
  /// power-of-two array, at most half full). An unordered_map made a node
  /// per register, 20000 allocations on a large module, and every def and
  /// use of every instruction looks its register up.
  class NameTable {
  public:
    void reserve(size_t n);
    /// The id of `name`; a new name gets id size().
    uint32_t insert(std::string_view name);
    /// UINT32_MAX when absent.
    uint32_t find(std::string_view name) const {
      if (slots_.empty()) return UINT32_MAX;
      for (size_t i = NameHash()(name) & mask_;; i = (i + 1) & mask_) {
        const Slot &s = slots_[i];
        if (s.id == UINT32_MAX) return UINT32_MAX;
        if (s.name == name) return s.id;
      }
    }
    size_t size() const { return size_; }

  private:
    struct Slot {
      std::string_view name;
      uint32_t id = UINT32_MAX;  // UINT32_MAX: empty
    };
    std::vector<Slot> slots_;
    size_t mask_ = 0, size_ = 0;
  };

  const CFG &cfg_;
  std::vector<DefUse> du_;
  NameTable regId_;
  std::vector<uint32_t> useIds_, useBegin_;  // per instruction: the ids of its uses, useIds_[useBegin_[i] ..]
  std::vector<uint32_t> regSites_, regSitesBegin_;  // reg r's def-site ids: regSites_[regSitesBegin_[r] ..]
  struct Site {
    uint32_t instr, reg;
  };
  std::vector<Site> sites_;  // entry pseudo-sites first (one per register)
  std::vector<uint32_t> siteBegin_;  // per instruction (and one past the last): its first site
  std::vector<uint8_t> sparse_;      // per register: written by at most one instruction (no bits)
  std::vector<uint32_t> bit_;        // per site: its bit, UINT32_MAX for a sparse register's
  size_t words_ = 0;                 // 64-bit words of one bitset over the sites with a bit
  std::vector<uint64_t> in_;         // per block, words_ each: bitset over sites reaching its start
  std::vector<uint32_t> domIn_, domOut_;  // per block: interval in a walk of the dominator tree
  /// Block b dominates block a (both reachable; b == a included).
  bool dominates(uint32_t b, uint32_t a) const;
  mutable std::vector<uint64_t> after_;  // reachesAfter's: per reachable block, the blocks a path leads to
};

}  // namespace ptxopt::analysis
