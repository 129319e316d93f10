// Thread uniformity of registers.
//
// What: for every instruction, whether what it writes is the same for all
// threads of the grid (Grid), of a block (Block) or may differ (Thread);
// for every loop, whether its trip count is.
// Why: a value that differs by path but only through parameters and
// launch sizes (nvcc's remainder-loop start, n & -4) is the same for every
// thread, so an address with it stays affine in the thread indices with a
// uniform unknown offset (a Uniform symbol, Affine.cpp); and a transform
// that runs a loop in lockstep needs to know that its trip count is the
// same for every thread of a warp.
// Algorithm: a monotone fixed point over the instructions, starting from
// Grid. An instruction's level is the highest of its operands' (the guard
// included), or Thread when it reads memory, another lane, an atomic, a
// call's result or a special register that differs by thread. A register
// read with several reaching definitions also takes the level of the
// branches that decide which definition reaches: a conditional branch at
// block X decides when the blocks reachable from X before X's immediate
// post-dominator (its region) hold one of the definitions or the read
// itself, and both directions can reach the read; otherwise both meet
// again before anything changes, or one never gets there (an early return
// only decides whether a thread reaches the read, not with which value).
// A loop's trip count takes the level of the conditions of its exits, and
// so does a definition inside a loop read after it (the value of the
// iteration the thread left at).
// Refuses (Thread): loaded data of any kind (ld.global, ld.shared,
// ld.const, a call's return value, a device function's arguments), %tid,
// %laneid, %clock..., warp collectives (shfl, vote, mma...), carry chains,
// instructions it does not know.
#include "ptxopt/analysis/Uniformity.h"

#include <algorithm>
#include <array>
#include <unordered_set>

#include "ptxopt/analysis/Semantics.h"

namespace ptxopt::analysis {

using ir::Instruction;
using ir::Operand;

const char *uniformLevelName(UniformLevel l) {
  switch (l) {
  case UniformLevel::Grid: return "grid";
  case UniformLevel::Block: return "block";
  case UniformLevel::Thread: return "thread";
  }
  return "thread";
}

namespace {

constexpr uint8_t kThread = 2;

/// Marks in `bits` the blocks reached from `from` along `next` (a block's
/// predecessors or successors), never entering `avoid`; `work` is scratch.
template <class Next>
void flood(std::vector<uint64_t> &bits, const std::vector<uint32_t> &from, uint32_t avoid, Next next,
           std::vector<uint32_t> &work) {
  work.assign(from.begin(), from.end());
  while (!work.empty()) {
    const uint32_t x = work.back();
    work.pop_back();
    if (x == avoid || (bits[x / 64] >> (x % 64)) & 1) continue;
    bits[x / 64] |= uint64_t{1} << (x % 64);
    for (uint32_t n : next(x)) work.push_back(n);
  }
}

/// Level of a special register; -1 for an ordinary register. Specials not
/// listed (%tid, %laneid, %clock, %smid...) are per thread.
int specialLevel(std::string_view r) {
  static const std::string_view grid[] = {"%ntid.",        "%nctaid.",          "%nclusterid.",      "%cluster_nctaid.",
                                          "%cluster_nctarank", "%gridid",       "%nwarpid",          "%nsmid",
                                          "%total_smem_size", "%dynamic_smem_size", "%aggr_smem_size", "%is_explicit_cluster",
                                          "%envreg",        "%reserved_smem"};
  static const std::string_view block[] = {"%ctaid.", "%clusterid.", "%cluster_ctaid.", "%cluster_ctarank"};
  static const std::string_view thread[] = {"%tid.",   "%laneid", "%warpid",      "%smid", "%lanemask",
                                            "%clock",  "%pm",     "%globaltimer", "%current_graph_exec"};
  // Called for every register read: the prefixes are grouped by the letter
  // after '%' (in the order above: grid, block, thread), so that %r12 or
  // %fd3 meets one or none of them.
  struct Prefix {
    std::string_view p;
    int level;
  };
  static const auto byLetter = [] {
    std::array<std::vector<Prefix>, 256> t;
    for (auto p : grid) t[static_cast<unsigned char>(p[1])].push_back({p, 0});
    for (auto p : block) t[static_cast<unsigned char>(p[1])].push_back({p, 1});
    for (auto p : thread) t[static_cast<unsigned char>(p[1])].push_back({p, kThread});
    return t;
  }();
  if (r.size() < 2) return -1;
  for (const auto &[p, level] : byLetter[static_cast<unsigned char>(r[1])])
    if (r.size() >= p.size() && r.substr(0, p.size()) == p) return level;
  return -1;
}

/// Instructions whose result is a function of their register operands only
/// (no memory, no other lane, no hidden state).
bool pure(std::string_view b) {
  static const std::unordered_set<std::string_view, NameHash> ops = {
      "mov",  "add",   "sub",  "mul",  "mad",   "mul24", "mad24", "sad",   "div",  "rem",  "abs",   "neg",
      "min",  "max",   "popc", "clz",  "bfind", "brev",  "bfe",   "bfi",   "and",  "or",   "xor",   "not",
      "cnot", "shl",   "shr",  "shf",  "lop3",  "prmt",  "selp",  "slct",  "setp", "set",  "cvt",   "cvta",
      "fma",  "rcp",   "sqrt", "rsqrt", "sin",  "cos",   "lg2",   "ex2",   "tanh", "copysign", "testp", "dp4a",
      "dp2a", "isspacep", "bra", "ret", "exit", "fns", "szext", "bmsk"};
  return ops.count(b) != 0;
}

}  // namespace

Uniformity::Uniformity(const CFG &cfg, const DominatorTree &dom, const LoopInfo &loops, const ReachingDefs &rd)
    : cfg_(cfg), dom_(dom), loops_(loops), rd_(rd), pdom_(cfg, true) {}

const std::vector<uint64_t> &Uniformity::between(uint32_t d, uint32_t b) {
  // Blocks on a path from d to b that does not pass through d again.
  // Memoized: the reads of one register in one block ask for the same pair.
  auto [memo, fresh] = betweenMemo_.try_emplace(uint64_t{d} << 32 | b);
  if (!fresh) return memo->second;
  // Backwards from b, never through d: the blocks that reach b without
  // passing d. Of those, the ones d reaches (d is among the blocks that
  // reach them, in reaching()'s matrix: a path from d's last pass to them
  // avoids d), and d itself.
  const auto &blocks = cfg_.blocks();
  const size_t words = (blocks.size() + 63) / 64;
  std::vector<uint64_t> bwd(words, 0);
  flood(bwd, blocks[b].preds, d, [&](uint32_t x) -> const std::vector<uint32_t> & { return blocks[x].preds; }, work_);
  bwd[b / 64] |= uint64_t{1} << (b % 64);
  for (size_t w = 0; w < words; ++w)
    for (uint64_t m = bwd[w]; m; m &= m - 1) {
      const uint32_t x = static_cast<uint32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(m)));
      const uint64_t *to = reaching(x);
      if (x == d || !((to[d / 64] >> (d % 64)) & 1)) bwd[w] &= ~(uint64_t{1} << (x % 64));
    }
  bwd[d / 64] |= uint64_t{1} << (d % 64);
  memo->second = std::move(bwd);
  return memo->second;
}

const std::vector<uint64_t> &Uniformity::region(uint32_t x) {
  if (regionDone_[x]) return regions_[x];
  regionDone_[x] = true;
  const auto &blocks = cfg_.blocks();
  std::vector<uint64_t> bits((blocks.size() + 63) / 64, 0);
  const uint32_t stop = pdom_.idom(x);  // kNone: the virtual exit, never reached
  flood(bits, blocks[x].succs, stop, [&](uint32_t b) -> const std::vector<uint32_t> & { return blocks[b].succs; },
        work_);
  regions_[x] = std::move(bits);
  return regions_[x];
}

const uint64_t *Uniformity::reaching(uint32_t b) {
  // Every block's set at once, as a bit matrix: reach(b) = {b} + the union
  // of its predecessors' sets, iterated to the least fixed point (a few
  // passes of word-wide ORs; a walk back from each block asked for was
  // a quadratic number of pushes and pops).
  const auto &blocks = cfg_.blocks();
  const size_t n = blocks.size(), words = (n + 63) / 64;
  if (reachTo_.empty() && n) {
    reachTo_.assign(n * words, 0);
    for (size_t x = 0; x < n; ++x) reachTo_[x * words + x / 64] |= uint64_t{1} << (x % 64);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t x = 0; x < n; ++x) {
        uint64_t *row = reachTo_.data() + x * words;
        for (uint32_t p : blocks[x].preds) {
          const uint64_t *from = reachTo_.data() + size_t{p} * words;
          for (size_t w = 0; w < words; ++w) {
            uint64_t v = row[w] | from[w];
            changed |= v != row[w];
            row[w] = v;
          }
        }
      }
    }
  }
  return reachTo_.data() + size_t{b} * words;
}

std::vector<uint32_t> Uniformity::deciders(uint32_t b, const std::vector<uint32_t> &defs) {
  std::vector<uint32_t> key = defs;
  key.push_back(b);
  if (auto it = decidersMemo_.find(key); it != decidersMemo_.end()) return it->second;
  auto &cand = candidates_[b];
  if (!cand.first) {
    // A branch with one direction that never reaches b only decides whether
    // a thread gets there (an early return), not with which definition.
    // Such a branch reaches b itself: only the branch blocks among those
    // that reach b are tried, in increasing order.
    cand.first = true;
    const uint64_t *to = reaching(b);
    for (size_t w = 0; w < branchBlocks_.size(); ++w)
      for (uint64_t m = to[w] & branchBlocks_[w]; m; m &= m - 1) {
        const uint32_t x = static_cast<uint32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(m)));
        unsigned toB = 0;
        for (uint32_t s : cfg_.blocks()[x].succs) toB += (to[s / 64] >> (s % 64)) & 1;  // distinct (CFG's edges are)
        if (toB >= 2) cand.second.push_back(x);
      }
  }
  // When the definitions' nearest common dominator D writes the register
  // unconditionally (an induction variable's start in the preheader), the
  // value at b depends only on the path from the last pass through D to b:
  // branches elsewhere (one that skips the whole loop nest) cannot decide.
  uint32_t D = b;
  for (uint32_t d : defs)
    if (d != ReachingDefs::kEntry)
      while (!dom_.dominates(D, cfg_.blockOf(d)) && dom_.idom(D) != DominatorTree::kNone) D = dom_.idom(D);
  bool kills = false;
  for (uint32_t d : defs)
    kills = kills || (d != ReachingDefs::kEntry && cfg_.blockOf(d) == D && cfg_.instructions()[d]->guard.empty());
  // The path condition is asked last, and the blocks between D and b
  // found only when some candidate decides (often none does).
  const std::vector<uint64_t> *onPath = nullptr;
  // The blocks a candidate's region must hold one of: b and the
  // definitions' blocks, each once (a few bit tests per candidate).
  std::vector<uint32_t> wanted{b};
  for (uint32_t d : defs)
    if (d != ReachingDefs::kEntry)
      if (uint32_t db = cfg_.blockOf(d); std::find(wanted.begin(), wanted.end(), db) == wanted.end()) wanted.push_back(db);
  std::vector<uint32_t> out;
  for (uint32_t x : cand.second) {
    const auto &r = regionDone_[x] ? regions_[x] : region(x);
    bool decides = false;
    for (uint32_t t : wanted)
      if ((r[t / 64] >> (t % 64)) & 1) {
        decides = true;
        break;
      }
    if (!decides) continue;
    if (kills && D != b) {
      if (!onPath) onPath = &between(D, b);
      if (!(((*onPath)[x / 64] >> (x % 64)) & 1)) continue;
    }
    out.push_back(cfg_.blocks()[x].last - 1);
  }
  decidersMemo_.emplace(std::move(key), out);
  return out;
}

void Uniformity::compute() {
  if (computed_) return;
  computed_ = true;
  const auto &instrs = cfg_.instructions();
  const auto &blocks = cfg_.blocks();
  const ir::Function &f = cfg_.function();
  size_t n = instrs.size();
  lvl_.assign(n, 0);
  intrinsic_.assign(n, 0);
  regions_.assign(blocks.size(), {});
  regionDone_.assign(blocks.size(), 0);
  reachTo_.clear();
  candidates_.assign(blocks.size(), {});
  exits_.assign(loops_.loops().size(), {});
  branchBlocks_.assign((blocks.size() + 63) / 64, 0);
  for (const auto &b : blocks)
    if (b.reachable && b.last != b.first && b.succs.size() >= 2) branchBlocks_[b.id / 64] |= uint64_t{1} << (b.id % 64);
  readsBegin_.assign(n + 1, 0);
  reads_.clear();
  readDefs_.clear();
  size_t nreads = 0;
  for (uint32_t i = 0; i < n; ++i) nreads += rd_.defUse(i).uses.size();
  reads_.reserve(nreads);  // at most one per use (growing it freed a buffer at each doubling)
  std::vector<uint32_t> defs;
  for (uint32_t i = 0; i < n; ++i) {
    readsBegin_[i] = static_cast<uint32_t>(reads_.size());
    if (!blocks[cfg_.blockOf(i)].reachable) continue;
    const Instruction &in = *instrs[i];
    std::string_view b = in.base();
    if (b == "ld" && in.hasModifier(".param")) {
      // A kernel's own parameter is uniform; anything else read from .param
      // (a call's return value, a device function's argument) is not known to be.
      const Operand *a = in.operands.size() == 2 ? &in.operands[1] : nullptr;
      std::string_view name;
      if (a && a->kind == Operand::Kind::Address && a->elems.size() == 1) {
        const Operand &e = a->elems[0];
        if (e.kind == Operand::Kind::Symbol) name = e.text;
        else if (e.kind == Operand::Kind::Sum && e.elems[0].kind == Operand::Kind::Symbol) name = e.elems[0].text;
      }
      if (!(f.isEntry && f.hasParam(name))) intrinsic_[i] = kThread;
    } else if (!pure(b) || b == "addc" || b == "subc" || b == "madc" ||
               ((b == "add" || b == "sub" || b == "mad") && in.hasModifier(".cc"))) {  // (.cc exists on those only)
      intrinsic_[i] = kThread;
    }
    lvl_[i] = intrinsic_[i];
    if (intrinsic_[i] == kThread) continue;
    const auto &uses = rd_.defUse(i).uses;
    for (size_t k = 0; k < uses.size(); ++k) {
      Read r{static_cast<int8_t>(specialLevel(uses[k])), static_cast<uint32_t>(readDefs_.size()), 0, {}};
      if (r.special < 0) {
        rd_.defsOfId(i, rd_.useId(i, k), defs);
        readDefs_.insert(readDefs_.end(), defs.begin(), defs.end());
      }
      r.defsEnd = static_cast<uint32_t>(readDefs_.size());
      reads_.push_back(std::move(r));
    }
  }
  readsBegin_[n] = static_cast<uint32_t>(reads_.size());
  // Two rounds of a monotone fixed point (levels only rise). The first
  // ignores which branches decide: a cheap lower bound that already makes
  // most values Thread (computed from loaded data). The second adds the
  // deciding branches and loop exits of the reads of what is still uniform.
  iterate();
  for (uint32_t i = 0; i < n; ++i) {
    if (lvl_[i] == kThread) continue;
    for (uint32_t k = readsBegin_[i]; k < readsBegin_[i + 1]; ++k) {
      Read &r = reads_[k];
      if (r.special < 0) {
        defs.assign(readDefs_.begin() + r.defsBegin, readDefs_.begin() + r.defsEnd);
        if (defs.size() > 1) r.deciders = deciders(cfg_.blockOf(i), defs);
        exitsLeft(cfg_.blockOf(i), defs, r.deciders);
      }
    }
  }
  iterate();
}

void Uniformity::iterate() {
  size_t n = lvl_.size();
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < n; ++i) {
      if (lvl_[i] == kThread) continue;
      uint8_t v = lvl_[i];
      for (uint32_t k = readsBegin_[i]; k < readsBegin_[i + 1]; ++k) {
        const Read &r = reads_[k];
        if (v == kThread) break;
        if (r.special >= 0) {
          v = std::max<uint8_t>(v, static_cast<uint8_t>(r.special));
          continue;
        }
        for (uint32_t j = r.defsBegin; j < r.defsEnd; ++j)
          v = std::max<uint8_t>(v, readDefs_[j] == ReachingDefs::kEntry ? kThread : lvl_[readDefs_[j]]);
        for (uint32_t x : r.deciders) v = std::max(v, lvl_[x]);
      }
      if (v != lvl_[i]) {
        lvl_[i] = v;
        changed = true;
      }
    }
  }
}

uint8_t Uniformity::readLevel(uint32_t at, std::string_view reg) {
  compute();
  int s = specialLevel(reg);
  if (s >= 0) return static_cast<uint8_t>(s);
  auto defs = rd_.defsAt(at, reg);
  uint8_t v = 0;
  for (uint32_t d : defs) v = std::max<uint8_t>(v, d == ReachingDefs::kEntry ? kThread : lvl_[d]);
  std::vector<uint32_t> xs;
  if (defs.size() > 1) xs = deciders(cfg_.blockOf(at), defs);
  exitsLeft(cfg_.blockOf(at), defs, xs);
  for (uint32_t x : xs) v = std::max(v, lvl_[x]);
  return v;
}

void Uniformity::exitsLeft(uint32_t b, const std::vector<uint32_t> &defs, std::vector<uint32_t> &out) {
  // A definition inside a loop read after it: the value of the iteration
  // the thread left at, decided by the loop's exits.
  for (uint32_t d : defs) {
    if (d == ReachingDefs::kEntry) continue;
    for (auto l = loops_.loopOf(cfg_.blockOf(d)); l; l = loops_.loops()[*l].parent) {
      if (loops_.loops()[*l].contains(b)) break;
      for (uint32_t x : loopExits(*l))
        if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
    }
  }
}

const std::vector<uint32_t> &Uniformity::loopExits(uint32_t loop) {
  auto &e = exits_[loop];
  if (e.first) return e.second;
  e.first = true;
  const Loop &L = loops_.loops()[loop];
  for (uint32_t b : L.blocks) {
    const auto &blk = cfg_.blocks()[b];
    bool exits = false;
    for (uint32_t s : blk.succs) exits |= !L.contains(s);
    // Only a block's last instruction can transfer control (the CFG ends a
    // block after each one that does).
    if (blk.last == blk.first) continue;
    const uint32_t i = blk.last - 1;
    const Instruction &in = *cfg_.instructions()[i];
    Flow fl = flowOf(in);
    // A guarded return or trap inside the loop also ends it for some threads.
    bool leaves = fl == Flow::Return || fl == Flow::Trap || ((fl == Flow::Branch || fl == Flow::IndirectBranch) && exits);
    if (leaves && (!in.guard.empty() || fl == Flow::IndirectBranch)) e.second.push_back(i);
  }
  return e.second;
}

UniformLevel Uniformity::read(uint32_t at, std::string_view reg) {
  return static_cast<UniformLevel>(readLevel(at, reg));
}

UniformLevel Uniformity::choice(uint32_t at, const std::vector<uint32_t> &defs) {
  compute();
  uint8_t v = 0;
  for (uint32_t x : deciders(cfg_.blockOf(at), defs)) v = std::max(v, lvl_[x]);
  return static_cast<UniformLevel>(v);
}

UniformLevel Uniformity::tripCount(uint32_t loop) {
  compute();
  uint8_t v = 0;
  for (uint32_t i : loopExits(loop)) v = std::max(v, lvl_[i]);
  return static_cast<UniformLevel>(v);
}

}  // namespace ptxopt::analysis
