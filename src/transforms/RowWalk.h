// The rowwalk pass's parts (RowWalk.cpp: planning and the pass; RowWalkLanes.cpp:
// splitting a loop over 32 lanes, the reductions; RowWalkClone.cpp: building
// the clones). Private to the pass: the overview is RowWalk.cpp's opening
// comment.
#pragma once

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "CloneUtil.h"
#include "Pass.h"

namespace ptxopt::transforms::rowwalk {

using analysis::AccessInfo;
using ir::Instruction;
using ir::Operand;
using ir::Stmt;
using namespace clone;

inline constexpr unsigned kLanes = 32;
/// The lanes clones run for rows of at least this many elements (the
/// integer parameters the trip count is computed from): with nvcc's loops
/// unrolled by 4, every lane then gets an iteration.
inline constexpr int64_t kMinRow = 128;

/// A single-block loop: `header:` at body[hs], its latch branch at body[ls].
struct LoopBlock {
  uint32_t id = 0;
  uint32_t block = 0;
  size_t hs = 0, ls = 0;
  std::string header;
  std::string where;
};

/// An accumulator kept in memory (step 1).
struct MemAcc {
  std::vector<size_t> stores;  // body indexes, in order
  size_t last = 0;             // the last store of the block
  // Loads of the address in the loop (nvcc reloads tmp[i] when another
  // store of the loop may have changed it): the clone then keeps the value
  // in a register loaded once before the loop.
  std::vector<size_t> loads;
  unsigned bits = 32;
};

struct IV {
  std::string reg;
  size_t update = 0;  // body index of its add
  unsigned bits = 32;
  bool immStep = true;
  int64_t step = 0;         // immediate step (negated for sub)
  std::string stepReg;      // register step
  bool negated = false;     // sub with a register step
};

struct Acc {
  std::string reg;        // the loop-carried register
  unsigned bits = 32;
  std::string combine;    // "add.s32", "add.rn.f32", "min.u32", ...
  std::string identity;   // immediate
  bool floating = false;
};

struct LanePlan {
  LoopBlock loop;
  std::vector<IV> ivs;
  std::vector<Acc> accs;
  size_t tested = 0;      // index into ivs of the tested induction variable
  std::string bound;      // register or immediate
  std::string boundOffset;  // the test compares iv + boundOffset with bound (empty: iv itself)
  bool after = true;      // the test reads the iv after its update
  size_t setpAt = 0;
  std::set<int> tripParams;  // integer parameters the trip count is computed from
  // Load runs merged into one 16-byte load: first load's body index -> loads.
  std::vector<std::vector<size_t>> runs;
};

struct KernelPlan {
  std::map<size_t, MemAcc> memAccs;  // by loop header index (one loop may have several)
  std::vector<std::pair<size_t, MemAcc>> accList;
  std::vector<LanePlan> lanes;
  std::set<std::pair<uint32_t, uint32_t>> disjoint;       // step 1's conditions
  std::set<std::pair<uint32_t, uint32_t>> lanesDisjoint;  // the split loops' own
  std::vector<Variant::AlignedParam> aligned;
  bool reassoc = false;
};

/// The text of an address operand, `[%rd3+4]` -> "%rd3 + 4".
inline std::string addrKey(const Operand &addr) {
  std::string key(addr.text);
  for (const auto &e : addr.elems) {
    key += " " + std::string(e.text);
    for (const auto &x : e.elems) key += " " + std::string(x.text);
  }
  return key;
}

inline bool isPow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }
inline unsigned log2u(uint64_t x) {
  unsigned n = 0;
  while (x > 1) x >>= 1, ++n;
  return n;
}

/// Parameter index of `param(name)` bases, or -1.
inline int paramIndex(const ir::Function &f, const std::string &base) {
  if (!base.starts_with("param(") || !f.params) return -1;
  std::string name = base.substr(6, base.size() - 7);
  for (size_t i = 0; i < f.params->size(); ++i)
    for (const auto &n : (*f.params)[i].names)
      if (n.name == name) return static_cast<int>(i);
  return -1;
}

/// The reduction `in` performs on its accumulating operand `acc` (combine
/// opcode, identity, width); false when it is not one (RowWalkLanes.cpp).
bool reductionOf(const Instruction &in, std::string_view acc, Acc &out);

class Planner {
public:
  Planner(PassContext &ctx, ir::Function &k) : ctx_(ctx), k_(k), fa_(ctx.analyses.get(k)), body_(k.body->body) {}

  bool run(KernelPlan &plan, std::string &why, const Stmt *&whyAt);

private:
  const Instruction *instr(size_t i) const {
    return body_[i]->kind == Stmt::Kind::Instruction ? static_cast<const Instruction *>(body_[i].get()) : nullptr;
  }
  bool findLoops(std::string &why);
  bool planMemAccs(const LoopBlock &L, KernelPlan &plan, std::string &why);
  bool planLanes(const LoopBlock &L, const KernelPlan &plan, LanePlan &lp, std::string &why);
  bool addDisjoint(const ir::Function &f, const AccessInfo &a, const AccessInfo &b, KernelPlan &plan,
                   std::set<std::pair<uint32_t, uint32_t>> *into = nullptr);
  /// The base of access `a`: its affine base, else the pointer parameter
  /// its address register is derived from by additions and moves (a
  /// pointer's provenance: C's arithmetic stays inside the allocation).
  std::string baseOf(const AccessInfo &a);
  /// -1: not a pointer (an integer), -2: unknown, else a parameter index.
  int provenance(uint32_t at, std::string_view reg, int depth);
  std::map<std::pair<uint32_t, std::string>, int> prov_;
  /// The parameters whose values flow into `reg` as read at `at` (through
  /// any arithmetic), ignoring definitions inside loop L.
  void paramsFeeding(uint32_t at, std::string_view reg, const LoopBlock &L, std::set<int> &out, int depth);

  PassContext &ctx_;
  ir::Function &k_;
  analysis::FunctionAnalyses &fa_;
  std::vector<std::unique_ptr<Stmt>> &body_;
  std::map<uint32_t, size_t> stmtOf_;              // cfg instruction -> body index
  std::map<size_t, uint32_t> instrOf_;             // body index -> cfg instruction
  std::map<size_t, const AccessInfo *> accessAt_;  // body index -> access
  std::deque<AccessInfo> asUnknown_;               // accesses with Uniform symbols, taken as unknown
  RegTypes types_;
  std::vector<LoopBlock> loops_;
};

/// Builds a clone of `k` named `name`: step 1 always; the lanes clone when
/// `lanes` (launch route: grid.x*32 when `gridRoute`, else block.x*32)
/// (RowWalkClone.cpp).
std::unique_ptr<ir::Function> buildClone(ir::Module &m, const ir::Function &k, const KernelPlan &plan,
                                         const std::string &name, bool lanes, bool gridRoute);

}  // namespace ptxopt::transforms::rowwalk
