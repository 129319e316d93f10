// transpose, the analysis: which load to tile and which store to make
// coalesced, and whether the kernel may run as two phases (Transpose.cpp's
// opening comment says why each check makes the clones legal; the clones
// are built there and in TransposeTiled.cpp).
//
// What: checkInstructions says whether the kernel's instructions may be
// copied twice (no communication, loops, calls, scopes with declarations,
// special registers other than the indices the clones rename; branches
// that depend on memory are listed, allowed only after the tiled load);
// planKernel finds the store (or the stores of an unrolled loop of
// load-store pairs) and the tiled loads: the store unit-stride along one
// thread index and strided along the other, the loads the reverse (or, for
// 1-D blocks, the other index a block index: blockIndexExchange), every
// other load coalesced or uniform along the store's index, the tiles within
// the static shared memory.
// Algorithm: the affine analysis's byte strides of each global access
// along %tid.x, %tid.y, %ctaid.y and %ctaid.z; dominance for the order of
// loads and stores; a backward slice through the reaching definitions for
// the branches.
// Refuses, with the reason as the remark (Transpose.cpp): see each check.
#include <algorithm>
#include <set>

#include "Pass.h"
#include "Transpose.h"

namespace ptxopt::transforms::transpose {

using analysis::AccessInfo;
using ir::Operand;
using namespace clone;

namespace {

/// Byte stride of `a` along `var` (0 when absent); nullopt when symbolic.
std::optional<int64_t> strideAlong(const AccessInfo &a, const std::string &var) {
  for (const auto &s : a.strides)
    if (s.var == var) return s.constant;
  return 0;
}

bool unitAlong(const AccessInfo &a, const std::string &var) {
  auto s = strideAlong(a, var);
  return s && (*s == a.mem.bytes() || *s == -int64_t(a.mem.bytes()));
}

/// A stride along `var` that makes a warp touch at least twice the sectors it needs.
bool stridedAlong(const AccessInfo &a, const std::string &var) {
  auto s = strideAlong(a, var);
  if (!s) return true;
  if (*s == 0) return false;
  unsigned w = a.mem.bytes();
  return analysis::warpSectors(*s < 0 ? -*s : *s, w) >= 2 * analysis::warpSectors(w, w);
}

bool isGlobal(const AccessInfo &a) { return a.mem.space == ".global" || a.mem.space.empty(); }

/// The parameter index of an access's base ("param(name)"), or -1.
int baseParam(const ir::Function &k, const AccessInfo &a) {
  if (!a.base.starts_with("param(") || a.base.back() != ')') return -1;
  return paramIndex(k, a.base.substr(6, a.base.size() - 7));
}

/// Whether a branch's condition may depend on memory (a load other than
/// ld.param, an atomic): then a logical thread might take another path in
/// phase 2 than in phase 1. Backward slice through the reaching definitions.
bool branchReadsMemory(analysis::FunctionAnalyses &fa, uint32_t br, std::string &why) {
  const auto &ins = fa.cfg().instructions();
  const auto &rd = fa.defs();
  std::vector<uint32_t> work{br}, defs;
  std::set<uint32_t> seen{br};
  bool first = true;
  while (!work.empty()) {
    uint32_t i = work.back();
    work.pop_back();
    const ir::Instruction &in = *ins[i];
    if (!first) {
      auto mem = analysis::memAccess(in);
      if (mem && mem->space != ".param") {
        why = std::string(in.opcode);
        return true;
      }
    }
    std::vector<std::string_view> regs;
    if (first && !in.guard.empty()) regs.push_back(in.guard);
    if (!first)
      for (auto u : analysis::defUse(in).uses) regs.push_back(u);
    first = false;
    for (auto r : regs) {
      rd.defsAt(i, r, defs);
      for (uint32_t d : defs)
        if (d != analysis::ReachingDefs::kEntry && seen.insert(d).second) work.push_back(d);
    }
  }
  return false;
}

/// The special registers the clones rename (or that stay the same in them).
const std::set<std::string_view> kIndexRegisters = {"%tid.x",   "%tid.y",    "%tid.z",    "%ntid.x",
                                                    "%ntid.y",  "%ntid.z",   "%ctaid.x",  "%ctaid.y",
                                                    "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z"};

/// Why a nested `{ }` scope cannot be flattened into the clones (cloneBody),
/// or nullopt: only instructions and directives (the inline asm of
/// cuda_fp16.h: `{ cvt.rn.f16.f32 %rs1, %f1; }`); the instructions are
/// checked with the others (pure arithmetic, checkInstructions).
std::optional<std::string> scopeWhy(const ir::Block &b) {
  for (const auto &st : b.body)
    if (st->kind != ir::Stmt::Kind::Instruction && st->kind != ir::Stmt::Kind::Directive)
      return std::string("it has a nested scope with ") +
             (st->kind == ir::Stmt::Kind::Decl ? "declarations" : st->kind == ir::Stmt::Kind::Label ? "labels" : "scopes") +
             " (only plain instructions, the inline asm of cuda_fp16.h, are copied)";
  return std::nullopt;
}

/// Static shared memory a block may declare.
constexpr uint64_t kMaxStaticShared = 48 * 1024;

/// The most shared memory any clone of `p` declares: its tiles, one per
/// tiled load, in the largest of the shapes' tiles (tilePitch).
uint64_t tilesBytes(const Plan &p) {
  uint64_t most = uint64_t(32) * tilePitch(Shape{32, 32}, p.bytes) * p.bytes;  // the tiled clones'
  for (const Shape &sh : kShapes) most = std::max<uint64_t>(most, uint64_t(sh.by) * tilePitch(sh, p.bytes) * p.bytes);
  return most * p.loads.size();
}

/// Among the tiled loads (several: `(A + B)^T`, a tile each), the index of
/// one that reads the same array as an earlier one (a neighbour, a mirror:
/// the lookalikes the pass refuses), or of a second one not through a
/// pointer parameter; nullopt when each reads an array of its own.
std::optional<size_t> sameArrayTwice(const ir::Function &k, analysis::FunctionAnalyses &fa,
                                     const std::vector<const AccessInfo *> &tiles) {
  std::set<int> params;
  for (size_t i = 0; i < tiles.size(); ++i) {
    int b = baseParam(k, *tiles[i]);
    if (i > 0 && (b < 0 || fa.cfg().blockOf(tiles[i]->instr) != fa.cfg().blockOf(tiles[0]->instr))) return i;
    if (!params.insert(b).second) return i;
  }
  return std::nullopt;
}

/// The checks on one tiled load `l` (its element like the first's, plain,
/// through a pointer other than the stored one, before the store `s` on
/// every path); false with `why` set when it fails.
bool checkTiledLoad(analysis::FunctionAnalyses &fa, const Plan &p, const AccessInfo &l, const AccessInfo &s,
                    std::string &why) {
  const auto &ins = fa.cfg().instructions();
  const ir::Instruction &ld = *ins[l.instr], &stI = *ins[s.instr];
  std::string type = typeModifier(ld);
  if (l.mem.vector != 1) type = ".v" + std::to_string(l.mem.vector) + type;
  const int param = baseParam(fa.function(), l);
  if (p.bytes != 1 && p.bytes != 2 && p.bytes != 4 && p.bytes != 8 && p.bytes != 16)
    why = "elements of " + std::to_string(p.bytes) + " bytes (1, 2, 4, 8 and 16 are handled)";
  else if (type != p.type) why = "tiled loads of different types (" + p.type + ", " + type + ")";
  else if (!ld.guard.empty() || !stI.guard.empty()) why = "a guarded load or store (not handled)";
  else if (!plainMemoryOp(ld) || !plainMemoryOp(stI)) why = "a volatile or ordered load or store";
  else if (param < 0 || p.storeParam < 0) why = "the load or the store is not through a pointer parameter";
  else if (param == p.storeParam) why = "it loads the array it stores (in place)";
  // The store need not follow the load on every path: a zero-padding
  // transpose stores a constant where its load's guard fails (`out[x*Hp + y]
  // = x < W && y < H ? in[y*W + x] : 0`). Phase 2 reads the tile only where
  // it reaches the load, and phase 1 took the same logical thread down the
  // same path to it (no branch that may lead to the load depends on memory:
  // checkedPlan). Several stores: the loads and stores interleave, phase 1
  // drops every store.
  else if (p.stores.size() == 1 && mayRunAfter(fa, s.instr, l.instr))
    why = "the store may run before the load";
  return why.empty();
}

/// Why the stores of a kernel with several (`onY`: the first is unit-stride
/// along %tid.y and strided along %tid.x) do not make one transpose with
/// the tiled loads `tiles`, or nullopt: each store through the first's pointer,
/// unit-stride along the same index and strided along the other (a loop of
/// load-store pairs nvcc unrolled: `for (j = 0; j < 32; j += 8) out[x*H +
/// y+j] = in[(y+j)*W + x]`), and one tiled load per store and array read.
std::optional<std::string> severalStoresWhy(const ir::Function &k, const std::vector<const AccessInfo *> &stores,
                                            const std::vector<const AccessInfo *> &tiles, bool onY) {
  const std::string f2 = onY ? "%tid.y" : "%tid.x", f1 = onY ? "%tid.x" : "%tid.y";
  const int param = baseParam(k, *stores[0]);
  if (!onY && !unitAlong(*stores[0], "%tid.x")) return std::string("the first is unit-stride along neither %tid.x nor %tid.y");
  for (const AccessInfo *t : stores) {
    if (!unitAlong(*t, f2) || (onY && !stridedAlong(*t, f1)))
      return "a store is not unit-stride along " + f2 + (onY ? " and strided along " + f1 : "");
    if (param < 0 || baseParam(k, *t) != param) return std::string("the stores are not through one pointer parameter");
  }
  // As many tiled loads per store as arrays they read (`(A + B)^T`: two);
  // two per store from one array would be threads reading their neighbours.
  std::set<int> arrays;
  for (const AccessInfo *l : tiles) arrays.insert(baseParam(k, *l));
  if (tiles.empty() || tiles.size() != stores.size() * arrays.size() || arrays.count(-1))
    return std::to_string(tiles.size()) + " loads unit-stride along " + f1 + " and strided along " + f2 + " from " +
           std::to_string(arrays.size()) + (arrays.size() == 1 ? " array for " : " arrays for ") + std::to_string(stores.size()) +
           " stores (one per store and array; more would be threads reading their neighbours' elements)";
  return std::nullopt;
}

/// 1-D blocks whose grid walks the other axis (NCHW -> NHWC with the
/// channel in blockIdx.y or blockIdx.z): with `storeSide`, the one store
/// unit-stride along %ctaid.y (or .z) and strided along %tid.x, the tiled
/// loads unit-stride along %tid.x and strided along that index; without,
/// the reverse (the gather form: the store along %tid.x). Neither may move
/// along %tid.y. The block index, with `tiles` set; nullopt when none fits.
std::optional<std::string> blockIndexExchange(const std::vector<const AccessInfo *> &stores,
                                              const std::vector<const AccessInfo *> &loads, bool storeSide,
                                              std::vector<const AccessInfo *> &tiles) {
  if (stores.size() != 1 || strideAlong(*stores[0], "%tid.y") != 0) return std::nullopt;
  const AccessInfo &s = *stores[0];
  for (const char *b : {"%ctaid.y", "%ctaid.z"}) {
    const std::string along = storeSide ? b : "%tid.x", across = storeSide ? "%tid.x" : b;
    if (!unitAlong(s, along) || (storeSide && !stridedAlong(s, across))) continue;
    tiles.clear();
    for (const auto *l : loads)
      if (unitAlong(*l, across) && stridedAlong(*l, along) && strideAlong(*l, "%tid.y") == 0) tiles.push_back(l);
    if (!tiles.empty()) return std::string(b);
  }
  tiles.clear();
  return std::nullopt;
}

}  // namespace

/// Instructions allowed besides memory accesses and branches: no side effects.
bool pureOpcode(std::string_view b) {
  static const std::set<std::string_view> kPure = {
      "mov",  "add",  "sub",  "mul",  "mad",  "mul24", "mad24", "cvt",  "cvta", "shl",  "shr",   "and",
      "or",   "xor",  "not",  "neg",  "setp", "selp",  "bfe",   "bfi",  "prmt", "min",  "max",   "abs",
      "fma",  "cnot", "popc", "clz",  "brev", "bfind", "sad",   "slct", "copysign", "div", "rem", "sqrt",
      "rsqrt", "rcp", "ex2",  "lg2",  "sin",  "cos",   "tanh",  "testp", "set", "madc", "addc", "subc"};
  return kPure.count(b) != 0;
}

/// The checks on the kernel's instructions: what the clone may copy twice.
/// Branches depending on memory go to `memBranches` (the first one's remark
/// also replaces any later failure's, as when it was refused here).
std::optional<std::string> checkInstructions(const ir::Function &k, analysis::FunctionAnalyses &fa,
                                             std::vector<MemoryBranch> &memBranches) {
  for (const auto &st : k.body->body)
    if (st->kind == ir::Stmt::Kind::Block)
      if (auto why = scopeWhy(static_cast<const ir::Block &>(*st))) return why;
  if (!fa.loops().loops().empty()) return "it has loops (not handled)";
  auto fail = [&](std::string why) -> std::optional<std::string> {
    return memBranches.empty() ? why : memBranches.front().why;
  };
  RegTypes types;
  ir::forEachStmt(*k.body, [&](const ir::Stmt &s) {
    if (s.kind == ir::Stmt::Kind::Decl) types.add(static_cast<const ir::Decl &>(s));
  });
  const auto &ins = fa.cfg().instructions();
  std::vector<uint32_t> defs;
  for (uint32_t i = 0; i < ins.size(); ++i) {
    const ir::Instruction &in = *ins[i];
    auto b = in.base();
    auto flow = analysis::flowOf(in);
    bool ok = pureOpcode(b) || flow == analysis::Flow::Branch || flow == analysis::Flow::Return || b == "ld" ||
              b == "ldu" || b == "st";
    if (!ok) return fail("it has " + std::string(in.opcode) + " (only arithmetic, loads, one store and branches are copied)");
    if (flow == analysis::Flow::Branch && !in.guard.empty()) {
      std::string what;
      if (branchReadsMemory(fa, i, what)) memBranches.push_back({i, "a branch depends on memory (" + what + ")"});
    }
    for (auto u : analysis::defUse(in).uses) {
      if (types.type(u).empty()) {  // a special register: the logical thread's indices are renamed, no other
        if (!kIndexRegisters.count(u))
          return fail("it reads " + std::string(u) + " (a special register the clones do not rename)");
        continue;
      }
      fa.defs().defsAt(i, u, defs);
      if (!defs.empty() && defs.back() == analysis::ReachingDefs::kEntry)
        return fail(std::string(u) + " may be read before it is written");
    }
  }
  return std::nullopt;
}

/// Whether instruction `b` may run after `a` on some path (the kernel has
/// no loops): later in `a`'s block, or in a block reachable from it.
bool mayRunAfter(analysis::FunctionAnalyses &fa, uint32_t a, uint32_t b) {
  const uint32_t ab = fa.cfg().blockOf(a), bb = fa.cfg().blockOf(b);
  return (ab == bb && a < b) || fa.defs().reachesAfter(ab, bb);
}

/// Finds the tiled load and the store, or says why not.
std::optional<Plan> planKernel(const ir::Function &k, analysis::FunctionAnalyses &fa, std::string &why,
                               uint32_t &at) {
  std::vector<const AccessInfo *> loads, stores;
  for (const auto &a : fa.accesses()) {
    if (a.mem.space == ".param" || a.mem.space == ".const") continue;
    at = a.instr;
    if (!isGlobal(a) || a.mem.kind == analysis::MemAccess::Kind::Prefetch) {
      why = "it accesses " + std::string(a.mem.space.empty() ? "generic" : a.mem.space) + " memory";
      return std::nullopt;
    }
    if (a.verdict == AccessInfo::Verdict::Unknown) {
      why = "cannot analyse " + std::string(fa.cfg().instructions()[a.instr]->opcode) + " (" + a.reason + ")";
      return std::nullopt;
    }
    (a.mem.kind == analysis::MemAccess::Kind::Store ? stores : loads).push_back(&a);
  }
  if (stores.empty()) {
    why = "0 global stores (one is handled)";
    return std::nullopt;
  }
  const AccessInfo &s = *stores[0];
  at = s.instr;
  Plan p;
  p.store = s.instr;
  const bool onY = unitAlong(s, "%tid.y") && stridedAlong(s, "%tid.x");
  std::string f2 = onY ? "%tid.y" : "%tid.x", f1 = onY ? "%tid.x" : "%tid.y";
  std::vector<const AccessInfo *> tiles;
  for (const auto *l : loads)
    if (unitAlong(*l, f1) && stridedAlong(*l, f2)) tiles.push_back(l);
  if (stores.size() > 1)
    if (auto bad = severalStoresWhy(k, stores, tiles, onY)) {
      why = std::to_string(stores.size()) + " global stores (one is handled, or several through one pointer along "
            "one index, a tiled load each per array read: " + *bad + ")";
      return std::nullopt;
    }
  p.storeOnY = onY;
  if (!onY && !unitAlong(s, "%tid.x")) {
    if (auto b = blockIndexExchange(stores, loads, true, tiles)) {
      p.index2 = *b;  // the store along a block index: NCHW -> NHWC with the channel in blockIdx.y
      p.storeOnY = true;
      f2 = *b, f1 = "%tid.x";
    } else {
      why = "the store is unit-stride along neither %tid.x nor %tid.y";
      return std::nullopt;
    }
  } else if (!onY && tiles.empty()) {
    if (auto b = blockIndexExchange(stores, loads, false, tiles)) {
      p.index2 = *b;  // the gather form: the load along a block index
      f1 = *b;
    }
  }
  for (const auto *t : stores) p.stores.push_back(t->instr);
  if (tiles.empty()) {
    why = p.storeOnY ? "no load is unit-stride along %tid.x and strided along %tid.y"
                     : "no load is unit-stride along %tid.y and strided along %tid.x";
    return std::nullopt;
  }
  // Several stores, a tiled load each: the loads of one thread may read one
  // array (the rows y, y+8, ... of the samples' kernel); each has a tile of
  // its own, so nothing is shared between them.
  if (auto i = p.stores.size() > 1 ? std::nullopt : sameArrayTwice(k, fa, tiles)) {
    at = tiles[*i]->instr;
    why = "two loads would need the tile (threads read their neighbours' elements or one element twice)";
    return std::nullopt;
  }
  const AccessInfo *tiled = tiles.front();
  for (const auto *l : loads) {
    if (std::find(tiles.begin(), tiles.end(), l) != tiles.end()) continue;
    at = l->instr;
    if (!unitAlong(*l, f2) && strideAlong(*l, f2) != 0)
      why = "a load is not coalesced along " + f2 + ", the index the store is unit-stride on";
    else if (baseParam(k, *l) >= 0 && baseParam(k, *l) == baseParam(k, s))
      why = "it reads the array it stores (the element it writes)";
    if (!why.empty()) return std::nullopt;
  }
  const auto &ins = fa.cfg().instructions();
  p.load = tiled->instr;
  p.bytes = tiled->mem.bytes();
  p.type = typeModifier(*ins[tiled->instr]);
  if (tiled->mem.vector != 1) p.type = ".v" + std::to_string(tiled->mem.vector) + p.type;  // float4: 16-byte elements
  p.loadParam = baseParam(k, *tiled);
  p.storeParam = baseParam(k, s);
  p.sectorsBefore = p.storeOnY ? s.sectors.value_or(32) : tiled->sectors.value_or(32);
  for (const auto *l : tiles) {
    at = l->instr;
    p.loads.push_back(l->instr);
    p.loadParams.push_back(baseParam(k, *l));
    if (!checkTiledLoad(fa, p, *l, s, why)) return std::nullopt;
  }
  std::vector<int> once;  // disjointPairs: each array once (several stores: one array may be read by all)
  for (int l : p.loadParams)
    if (std::find(once.begin(), once.end(), l) == once.end()) once.push_back(l);
  p.loadParams = std::move(once);
  if (uint64_t bytes = tilesBytes(p); bytes > kMaxStaticShared) {
    why = std::to_string(p.loads.size()) + " tiles of " + std::to_string(p.bytes) + "-byte elements need " +
          std::to_string(bytes) + " bytes of shared memory (" + std::to_string(kMaxStaticShared) + " at most)";
    return std::nullopt;
  }
  return p;
}

/// Whether the kernel has an uncoalesced global access (else no remark).
bool hasUncoalesced(analysis::FunctionAnalyses &fa) {
  for (const auto &a : fa.accesses())
    if (isGlobal(a) && a.verdict == AccessInfo::Verdict::Uncoalesced) return true;
  return false;
}

const AccessInfo *firstUnknownGlobal(analysis::FunctionAnalyses &fa) {
  for (const auto &a : fa.accesses())
    if (isGlobal(a) && a.verdict == AccessInfo::Verdict::Unknown) return &a;
  return nullptr;
}

}  // namespace ptxopt::transforms::transpose
