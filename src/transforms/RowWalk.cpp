// rowwalk: row walks (a thread looping over its own row,
// `y[i] = sum_j A[i*m + j] * x[j]`), on clones of the kernel.
//
// What, in two steps:
// 1. Accumulators in memory become registers ('regacc' clone, same launch).
//    A single-block loop that stores to the same loop-invariant address
//    (`tmp[i] += ...`: nvcc stores tmp[i] in every iteration when it may
//    alias A or x) keeps only one store, after the loop, of the value the
//    last store of the block stored. Column walks (`y[j] += A[i*n+j]*t[i]`)
//    gain as much: one store where there was one per iteration. When the
//    loop also reloads the address (gesummv's tmp[i] and y[i], each store
//    possibly changing the other), the value is loaded once before the loop
//    into a register that the stores and loads move to and from.
// 2. Lanes ('lanes' clone, launch grown 32 times). 32 lanes (one warp) run
//    one logical thread: lane l takes iterations l, l+32, l+64, ... of each
//    loop whose accesses are uncoalesced along %tid.x and unit-stride along
//    the loop counter (the row), so a warp reads 32 consecutive pieces of
//    one row; a run of four 4-byte (two 8-byte) loads of one iteration
//    becomes one 16-byte load where the alignment is provable (parameters
//    become launch conditions). Loop-carried accumulators start at the
//    operation's identity on lanes 1..31 and are combined after the loop
//    with a shfl.sync butterfly, so every lane holds the result; induction
//    variables are set to their exit values. Everything outside such loops
//    runs on all 32 lanes with the same values (loads are broadcasts), and
//    global stores outside them run on lane 0 only, between two
//    bar.warp.sync (memory ordering in the warp); the split loops have one at
//    entry and exit: lanes 1..31 see memory as the logical thread would.
// Why it pays on the GPU: with one thread per row, neighbouring threads are a
// row apart, so every load of a warp touches 32 sectors, and a 4096-row
// problem has only 128 warps (latency-bound). A warp per row reads whole
// sectors and has 32 times as many warps in flight. Stores per iteration to
// one address serialize the loop and stop load merging.
// Exactness: integer add/mul.lo/mad.lo (wrapping arithmetic is associative
// and commutative), integer min/max and and/or/xor accumulators, and loops
// without loop-carried values give bit-identical results. Floating-point
// add/mul/fma/min/max accumulators are reassociated (each lane sums its
// share, then the 32 partial sums are added pairwise): only with the pass
// option `reassociate` (ptx-opt --reassociate), said in the remark and in the
// clone's manifest kind (`lanes+reassoc`, printed by PTXOPT_LOG).
// Legality, per kernel: no inter-thread communication (the Communication
// analysis; the clone adds its own shuffles); the loop is one block, entered
// only by falling into its header, left only through its latch
// `@p bra header` with p = (iv != bound) (nvcc's counted loops; the trip
// count T is computed before the loop from the induction variable's start,
// its power-of-two step and the loop-invariant bound); every loop-carried
// register is an induction variable (`add iv, iv, step`) or an accumulator
// chain (each link read only by the next); no other value defined in the
// loop is read after it; the loop's stores, if any, have a different address
// in every iteration, and a split loop that stores loads only through other
// pointer parameters, in other allocations (manifest condition
// `disjointParams`, checked at launch from the arguments).
// The 32 lanes of a logical thread share every value outside the split
// loops, so its guards (`if (i < n)`) send all of them the same way and the
// warp is converged at the shuffles; the trip count is the same for all 32
// lanes by construction (they run one logical thread).
// Step 1 legality: no other access in the loop can touch the accumulator's
// address: accesses based on another pointer parameter give a
// `disjointParams` condition; two different module globals never overlap;
// anything else (same parameter, unknown address) refuses.
// Launch (manifest): the lanes clone for blocks whose x size is a multiple
// of 32 keeps the block and launches grid.x*32 blocks (logical block
// ctaid.x/32, logical thread (ctaid.x%32)*(ntid.x/32) + tid.x/32); for
// blocks of at most 32 threads a second clone launches block.x*32 threads
// (logical thread tid.x/32); a third (grid route) keeps scalar loads for
// launches that fail the 16-byte conditions. Lanes clones run only for rows
// of kMinRow elements or more (minParams on the integer parameters the trip
// count comes from: rows of 4 ints ran 0.88x on an H100).
// Pipeline: -O2 runs rowwalk before pack, which packs the regacc clone
// (2.58x on the H100 for tmp in memory, bit-identical; docs/BENCHMARKS.md).
// Refuses (remark): communication, nested blocks, no single-block loop,
// latch/exit shapes it does not know, loop-carried values other than the
// above, floating-point accumulators without `reassociate`, a split loop
// that loads through the parameter it stores through, unknown bases.
// Not done yet: the staged clone (tiles of 32 rows through shared memory,
// exact for floating point; needs a warp-uniform trip count check); fewer
// than 32 lanes for short rows; multi-block loops.
#include <algorithm>
#include <map>
#include <set>

#include "CloneUtil.h"
#include "Pass.h"

namespace ptxopt::transforms {

using analysis::AccessInfo;
using ir::Instruction;
using ir::Operand;
using ir::Stmt;
using namespace clone;

namespace {

constexpr unsigned kLanes = 32;
/// The lanes clones run for rows of at least this many elements (the
/// integer parameters the trip count is computed from): with nvcc's loops
/// unrolled by 4, every lane then gets an iteration.
constexpr int64_t kMinRow = 128;

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
std::string addrKey(const Operand &addr) {
  std::string key(addr.text);
  for (const auto &e : addr.elems) {
    key += " " + std::string(e.text);
    for (const auto &x : e.elems) key += " " + std::string(x.text);
  }
  return key;
}

bool isPow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }
unsigned log2u(uint64_t x) {
  unsigned n = 0;
  while (x > 1) x >>= 1, ++n;
  return n;
}

/// Parameter index of `param(name)` bases, or -1.
int paramIndex(const ir::Function &f, const std::string &base) {
  if (!base.starts_with("param(") || !f.params) return -1;
  std::string name = base.substr(6, base.size() - 7);
  for (size_t i = 0; i < f.params->size(); ++i)
    for (const auto &n : (*f.params)[i].names)
      if (n.name == name) return static_cast<int>(i);
  return -1;
}

/// The reduction an instruction performs on its accumulating operand
/// `acc`: combine opcode and identity; empty when it is not one.
bool reductionOf(const Instruction &in, std::string_view acc, Acc &out) {
  if (!in.guard.empty() || in.operands.size() < 3 || in.operands[0].kind != Operand::Kind::Register) return false;
  std::string base(in.base());
  auto mods = in.modifiers();
  std::string type = mods.empty() ? "" : std::string(mods.back());
  if (type.size() < 3) return false;
  const char t = type[1];
  const unsigned bits = static_cast<unsigned>(std::stoul(type.substr(2)));
  if (bits != 32 && bits != 64) return false;
  auto count = [&](size_t from, size_t to) {
    size_t n = 0;
    for (size_t i = from; i < to && i < in.operands.size(); ++i) n += in.operands[i].isReg() && in.operands[i].text == acc;
    return n;
  };
  std::string extra;  // rounding and ftz modifiers of floating point
  for (size_t i = 0; i + 1 < mods.size(); ++i) extra += std::string(mods[i]);
  out.bits = bits;
  out.floating = t == 'f';
  const std::string ib = bits == 32 ? "32" : "64";
  auto fimm = [&](uint64_t b32, uint64_t b64) {
    char buf[40];
    if (bits == 32) std::snprintf(buf, sizeof buf, "0f%08llX", static_cast<unsigned long long>(b32));
    else std::snprintf(buf, sizeof buf, "0d%016llX", static_cast<unsigned long long>(b64));
    return std::string(buf);
  };
  const std::string allOnes = bits == 32 ? "0xFFFFFFFF" : "0xFFFFFFFFFFFFFFFF";
  if ((base == "fma" || base == "mad") && in.operands.size() == 4) {
    if (count(1, 3) || count(3, 4) != 1) return false;
    if (base == "mad") {
      if (mods.size() != 2 || mods[0] != ".lo" || t == 'f') return false;
      out.combine = "add" + type;
    } else {
      if (t != 'f') return false;
      std::string rnd;
      for (size_t i = 0; i + 1 < mods.size(); ++i)
        if (mods[i] != ".sat") rnd += std::string(mods[i]);
        else return false;
      out.combine = "add" + rnd + type;
    }
    out.identity = t == 'f' ? fimm(0x80000000u, 0x8000000000000000ull) : "0";
    return true;
  }
  if (in.operands.size() != 3 || count(1, 3) != 1) return false;
  if (base == "add") {
    if (extra.find(".sat") != std::string::npos || extra.find(".cc") != std::string::npos) return false;
    out.combine = "add" + extra + type;
    out.identity = t == 'f' ? fimm(0x80000000u, 0x8000000000000000ull) : "0";
    return t == 'f' || t == 's' || t == 'u';
  }
  if (base == "mul") {
    if (t == 'f') {
      if (extra.find(".sat") != std::string::npos) return false;
      out.combine = "mul" + extra + type;
      out.identity = fimm(0x3F800000u, 0x3FF0000000000000ull);
      return true;
    }
    if (extra != ".lo" || (t != 's' && t != 'u')) return false;
    out.combine = "mul.lo" + type;
    out.identity = "1";
    return true;
  }
  if (base == "min" || base == "max") {
    if (t == 'f') {
      if (!extra.empty() && extra != ".ftz") return false;
      out.combine = base + extra + type;
      out.identity = base == "min" ? fimm(0x7F800000u, 0x7FF0000000000000ull) : fimm(0xFF800000u, 0xFFF0000000000000ull);
      return true;
    }
    if (!extra.empty() || (t != 's' && t != 'u')) return false;
    out.combine = base + type;
    if (base == "min") out.identity = t == 'u' ? allOnes : (bits == 32 ? "0x7FFFFFFF" : "0x7FFFFFFFFFFFFFFF");
    else out.identity = t == 'u' ? "0" : (bits == 32 ? "0x80000000" : "0x8000000000000000");
    return true;
  }
  if (base == "and" || base == "or" || base == "xor") {
    if (!extra.empty() || t != 'b') return false;
    out.combine = base + type;
    out.identity = base == "and" ? allOnes : "0";
    return true;
  }
  return false;
}

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
  RegTypes types_;
  std::vector<LoopBlock> loops_;
};

bool Planner::findLoops(std::string &why) {
  const auto &cfg = fa_.cfg();
  std::map<std::string_view, size_t> labelAt;
  std::map<std::string_view, size_t> branchesTo;
  for (size_t i = 0; i < body_.size(); ++i) {
    const Stmt &s = *body_[i];
    if (s.kind == Stmt::Kind::Label) labelAt[static_cast<const ir::Label &>(s).name] = i;
    if (s.kind == Stmt::Kind::Decl) types_.add(static_cast<const ir::Decl &>(s));
    if (const Instruction *in = instr(i)) {
      uint32_t ci = cfg.indexOf(in);
      stmtOf_[ci] = i;
      instrOf_[i] = ci;
      if (in->base() == "bra") ++branchesTo[analysis::branchTarget(*in)];
    }
  }
  for (const auto &a : fa_.accesses())
    if (stmtOf_.count(a.instr)) accessAt_[stmtOf_[a.instr]] = &a;
  for (const auto &L : fa_.loops().loops()) {
    if (L.blocks.size() != 1) {
      why = "a loop of several blocks (only single-block loops are handled)";
      return false;
    }
    const auto &b = cfg.blocks()[L.header];
    if (b.labels.size() != 1 || !labelAt.count(b.labels[0]) || b.last == b.first) {
      why = "a loop header without one label";
      return false;
    }
    LoopBlock lb;
    lb.id = L.id;
    lb.block = L.header;
    lb.header = std::string(b.labels[0]);
    lb.hs = labelAt[b.labels[0]];
    lb.ls = stmtOf_[b.last - 1];
    const Instruction *br = instr(lb.ls);
    if (!br || br->base() != "bra" || br->guard.empty() || analysis::branchTarget(*br) != lb.header ||
        branchesTo[b.labels[0]] != 1) {
      why = "a loop whose latch is not a conditional branch to its header, or whose header is entered by a branch";
      return false;
    }
    for (size_t i = lb.hs + 1; i < lb.ls; ++i)
      if (body_[i]->kind == Stmt::Kind::Label || body_[i]->kind == Stmt::Kind::Block ||
          (instr(i) && cfg.blockOf(instrOf_[i]) != L.header)) {
        why = "a loop that is not one range of statements";
        return false;
      }
    lb.where = locationOf(ctx_.module, fa_, body_[lb.hs + 1].get());
    for (size_t i = lb.hs + 1; i <= lb.ls && lb.where.empty(); ++i) lb.where = locationOf(ctx_.module, fa_, body_[i].get());
    loops_.push_back(lb);
  }
  if (loops_.empty()) {
    why = "no loop";
    return false;
  }
  return true;
}

int Planner::provenance(uint32_t at, std::string_view reg, int depth) {
  if (depth > 24) return -2;
  for (const auto &pos : kPos)
    if (reg == pos.index || reg == pos.extent) return -1;
  const auto &rd = fa_.defs();
  const auto &cfg = fa_.cfg();
  int result = -3;  // none yet
  for (uint32_t d : rd.defsAt(at, reg)) {
    if (d == analysis::ReachingDefs::kEntry) return -2;
    auto key = std::make_pair(d, std::string(reg));
    int p;
    if (auto it = prov_.find(key); it != prov_.end()) {
      p = it->second;
    } else {
      prov_[key] = -3;  // in progress: a cycle through an induction variable agrees with the other defs
      const Instruction &in = *cfg.instructions()[d];
      std::string b(in.base());
      p = -2;
      if (!in.guard.empty()) {
        p = -2;
      } else if (b == "ld" && in.hasModifier(".param") && in.operands.size() == 2 &&
                 in.operands[1].kind == Operand::Kind::Address && in.operands[1].elems.size() == 1 &&
                 in.operands[1].elems[0].isSym()) {
        std::string name(in.operands[1].elems[0].text);
        p = -2;
        if (k_.params)
          for (size_t i = 0; i < k_.params->size(); ++i)
            for (const auto &n : (*k_.params)[i].names)
              if (n.name == name) p = (*k_.params)[i].type().ends_with("64") ? int(i) : -1;
      } else if ((b == "mov" || b == "cvta") && in.operands.size() == 2 && in.operands[1].isReg()) {
        p = provenance(d, in.operands[1].text, depth + 1);
      } else if (b == "mov" && in.operands.size() == 2 && in.operands[1].intValue()) {
        p = -1;
      } else if ((b == "add" || b == "sub") && in.operands.size() == 3) {
        int x = in.operands[1].isReg() ? provenance(d, in.operands[1].text, depth + 1) : -1;
        int y = in.operands[2].isReg() ? provenance(d, in.operands[2].text, depth + 1) : -1;
        if (b == "sub" && y != -1 && y != -3) p = -2;
        else if (x == -1 || x == -3) p = y;
        else if (y == -1 || y == -3) p = x;
        else p = -2;
      } else if (b == "mul" || b == "shl" || b == "cvt" || b == "mad" || b == "and" || b == "or") {
        // integer arithmetic: an offset, not a pointer (when its inputs are not pointers)
        p = -1;
        for (size_t i = 1; i < in.operands.size(); ++i)
          if (in.operands[i].isReg()) {
            int q = provenance(d, in.operands[i].text, depth + 1);
            if (q == -2) p = -2;  // a parameter multiplied or shifted is an integer
          }
      }
      prov_[key] = p;
    }
    if (p == -3) continue;
    if (result == -3) result = p;
    else if (result != p) return -2;
  }
  return result == -3 ? -2 : result;
}

void Planner::paramsFeeding(uint32_t at, std::string_view reg, const LoopBlock &L, std::set<int> &out, int depth) {
  if (depth > 16) return;
  const auto &cfg = fa_.cfg();
  for (uint32_t d : fa_.defs().defsAt(at, reg)) {
    if (d == analysis::ReachingDefs::kEntry) continue;
    if (auto it = stmtOf_.find(d); it != stmtOf_.end() && it->second > L.hs && it->second <= L.ls) continue;
    const Instruction &in = *cfg.instructions()[d];
    if (in.base() == "ld" && in.hasModifier(".param") && in.operands.size() == 2 &&
        in.operands[1].kind == Operand::Kind::Address && in.operands[1].elems.size() == 1 && k_.params) {
      for (size_t i = 0; i < k_.params->size(); ++i)
        for (const auto &n : (*k_.params)[i].names)
          if (n.name == in.operands[1].elems[0].text) out.insert(int(i));
      continue;
    }
    for (size_t o = 1; o < in.operands.size(); ++o)
      analysis::forEachRegister(in.operands[o], [&](const Operand &r) { paramsFeeding(d, r.text, L, out, depth + 1); });
  }
}

std::string Planner::baseOf(const AccessInfo &a) {
  if (!a.base.empty()) return a.base;
  const Instruction &in = *fa_.cfg().instructions()[a.instr];
  auto mem = analysis::memAccess(in);
  if (!mem || !mem->address || mem->address->elems.size() != 1) return "";
  const Operand &e = mem->address->elems[0];
  const Operand *r = e.isReg() ? &e : (e.kind == Operand::Kind::Sum && e.elems[0].isReg() ? &e.elems[0] : nullptr);
  if (!r) return "";
  int p = provenance(a.instr, r->text, 0);
  if (p < 0 || !k_.params) return "";
  return "param(" + std::string((*k_.params)[size_t(p)].names[0].name) + ")";
}

bool Planner::addDisjoint(const ir::Function &f, const AccessInfo &a0, const AccessInfo &b0, KernelPlan &plan,
                          std::set<std::pair<uint32_t, uint32_t>> *into) {
  std::string ab = baseOf(a0), bb = baseOf(b0);
  if (ab.starts_with("&") && bb.starts_with("&")) return ab != bb;  // two module globals
  int pa = paramIndex(f, ab), pb = paramIndex(f, bb);
  if (pa < 0 || pb < 0 || pa == pb) return false;
  (into ? *into : plan.disjoint)
      .insert({static_cast<uint32_t>(std::min(pa, pb)), static_cast<uint32_t>(std::max(pa, pb))});
  return true;
}

/// Step 1 for loop L: stores to one loop-invariant address.
bool Planner::planMemAccs(const LoopBlock &L, KernelPlan &plan, std::string &why) {
  std::set<std::string> writtenInLoop;
  for (size_t i = L.hs + 1; i <= L.ls; ++i)
    if (const Instruction *in = instr(i))
      for (auto d : analysis::defUse(*in).defs) writtenInLoop.insert(std::string(d));
  std::map<std::string, MemAcc> byAddr;
  for (size_t i = L.hs + 1; i < L.ls; ++i) {
    const Instruction *in = instr(i);
    if (!in) continue;
    auto mem = analysis::memAccess(*in);
    if (!mem || mem->kind != analysis::MemAccess::Kind::Store) continue;
    const Operand &addr = in->operands[0];
    bool invariant = true;
    analysis::forEachRegister(addr, [&](const Operand &r) { invariant &= !writtenInLoop.count(std::string(r.text)); });
    if (!invariant) continue;
    if (!in->guard.empty() || mem->vector != 1 || !plainMemoryOp(*in) ||
        (mem->space != ".global" && !mem->space.empty())) {
      why = "a store to a loop-invariant address that is guarded, a vector, qualified or not global";
      return false;
    }
    if (mem->bytes() != 4 && mem->bytes() != 8) {
      why = "a store to a loop-invariant address of " + std::to_string(mem->bytes()) + " bytes";
      return false;
    }
    auto &acc = byAddr[addrKey(addr)];
    if (!acc.stores.empty() && acc.bits != mem->bytes() * 8) {
      why = "stores of different widths to one loop-invariant address";
      return false;
    }
    acc.bits = mem->bytes() * 8;
    acc.stores.push_back(i);
  }
  // Loads of an accumulator's address: reloads.
  for (size_t i = L.hs + 1; i < L.ls; ++i) {
    const Instruction *in = instr(i);
    if (!in) continue;
    auto mem = analysis::memAccess(*in);
    if (!mem || mem->kind != analysis::MemAccess::Kind::Load || in->operands.size() != 2) continue;
    auto it = byAddr.find(addrKey(in->operands[1]));
    if (it == byAddr.end()) continue;
    if (!in->guard.empty() || mem->vector != 1 || !plainMemoryOp(*in) || mem->bytes() * 8 != it->second.bits ||
        !in->operands[0].isReg() || (mem->space != ".global" && !mem->space.empty())) {
      why = "a load of the accumulator's address that is guarded, a vector, qualified or of another width";
      return false;
    }
    it->second.loads.push_back(i);
  }
  for (auto &[key, acc] : byAddr) {
    acc.last = acc.stores.back();
    const AccessInfo *a = accessAt_.count(acc.last) ? accessAt_[acc.last] : nullptr;
    if (!a || baseOf(*a).empty()) {
      why = "the base of a store in the loop is unknown";
      return false;
    }
    // The value stored last must still hold at the loop's exit.
    const Instruction &last = *instr(acc.last);
    const Operand &val = last.operands[1];
    if (val.isReg() && acc.loads.empty())
      for (size_t i = acc.last + 1; i <= L.ls; ++i)
        if (const Instruction *in = instr(i))
          for (auto d : analysis::defUse(*in).defs)
            if (d == val.text) {
              why = "the value stored to the accumulator's address is changed after the store";
              return false;
            }
    // No other access of the loop may touch the address.
    std::set<size_t> mine(acc.stores.begin(), acc.stores.end());
    mine.insert(acc.loads.begin(), acc.loads.end());
    for (size_t i = L.hs + 1; i < L.ls; ++i) {
      const Instruction *in = instr(i);
      if (!in || mine.count(i) || !analysis::memAccess(*in)) continue;
      auto mem = analysis::memAccess(*in);
      if (mem->space == ".local" || mem->space == ".param" || mem->space == ".const") continue;
      const AccessInfo *b = accessAt_.count(i) ? accessAt_[i] : nullptr;
      if (!b || !addDisjoint(k_, *a, *b, plan)) {
        std::string bb = b ? baseOf(*b) : "";
        why = "the loop accesses memory that may be the accumulator's (" + std::string(in->opcode) + " through " +
              (bb.empty() ? std::string("an unknown base") : bb) + ", the accumulator through " + baseOf(*a) + ")";
        return false;
      }
    }
    plan.accList.push_back({L.hs, acc});
  }
  return true;
}

bool Planner::planLanes(const LoopBlock &L, const KernelPlan &plan, LanePlan &lp, std::string &why) {
  auto &aff = fa_.affine();
  analysis::Symbol cs{analysis::Symbol::Kind::LoopCounter};
  cs.loop = L.id;
  const uint16_t counter = aff.symbolId(cs);
  std::set<size_t> removed;  // stores step 1 removes
  for (const auto &[hs, acc] : plan.accList)
    if (hs == L.hs) {
      if (!acc.loads.empty()) {
        why = "the loop reloads an accumulator kept in memory (the regacc clone keeps it in a register)";
        return false;
      }
      removed.insert(acc.stores.begin(), acc.stores.end());
    }
  // Order of defs and uses in the block.
  std::map<std::string, std::vector<size_t>> defs, uses;
  std::set<std::string> readFirst;  // read before written in the block
  for (size_t i = L.hs + 1; i <= L.ls; ++i) {
    const Instruction *in = instr(i);
    if (!in || removed.count(i)) continue;
    auto du = analysis::defUse(*in);
    for (auto u : du.uses) {
      uses[std::string(u)].push_back(i);
      if (!defs.count(std::string(u))) readFirst.insert(std::string(u));
    }
    for (auto d : du.defs) defs[std::string(d)].push_back(i);
  }
  bool uncoalesced = false;
  for (size_t i = L.hs + 1; i < L.ls; ++i) {
    if (removed.count(i) || !accessAt_.count(i)) continue;
    const AccessInfo &a = *accessAt_.at(i);
    const Instruction &in = *instr(i);
    bool unit = false;
    // Unit stride along the loop: one iteration's piece of the row follows the last one's
    // (nvcc unrolls by 4: 16 or 32 bytes per iteration).
    for (const auto &s : a.strides) unit |= s.symbol == counter && s.constant && *s.constant > 0 && *s.constant <= 32;
    if (a.verdict == AccessInfo::Verdict::Uncoalesced && unit) uncoalesced = true;
  }
  if (!uncoalesced) {
    why = "no access of the loop is uncoalesced along %tid.x and unit-stride along the loop";
    return false;
  }
  for (size_t i = L.hs + 1; i < L.ls; ++i) {
    if (removed.count(i) || !accessAt_.count(i)) continue;
    const AccessInfo &a = *accessAt_.at(i);
    const Instruction &in = *instr(i);
    if (a.mem.kind == analysis::MemAccess::Kind::Store) {
      bool moves = false;
      for (const auto &s : a.strides) moves |= s.symbol == counter && s.constant && std::llabs(*s.constant) >= a.mem.bytes();
      if (!moves) {
        why = "a store in the loop whose address does not advance with the loop (" + std::string(in.opcode) + ")";
        return false;
      }
    }
    if (a.mem.space == ".local") {
      why = "local memory in the loop";
      return false;
    }
  }
  lp.loop = L;
  const auto &rd = fa_.defs();
  auto inLoop = [&](uint32_t ci) {
    auto it = stmtOf_.find(ci);
    return it != stmtOf_.end() && it->second > L.hs && it->second <= L.ls;
  };
  std::set<std::string> carriedOk;
  for (const std::string &r : readFirst) {
    if (!defs.count(r)) continue;  // invariant
    const auto &ds = defs[r];
    // Induction variable: one `add r, r, X` / `sub r, r, X`, X invariant.
    if (ds.size() == 1) {
      const Instruction &in = *instr(ds[0]);
      std::string b(in.base());
      auto mods = in.modifiers();
      if ((b == "add" || b == "sub") && in.guard.empty() && in.operands.size() == 3 && mods.size() == 1 &&
          (mods[0] == ".s32" || mods[0] == ".u32" || mods[0] == ".s64" || mods[0] == ".u64")) {
        const Operand *other = nullptr;
        if (in.operands[1].text == r && in.operands[1].isReg()) other = &in.operands[2];
        else if (b == "add" && in.operands[2].isReg() && in.operands[2].text == r) other = &in.operands[1];
        if (other && !(other->isReg() && defs.count(std::string(other->text)))) {
          IV iv;
          iv.reg = r;
          iv.update = ds[0];
          iv.bits = mods[0].ends_with("64") ? 64 : 32;
          if (other->intValue()) {
            iv.step = *other->intValue() * (b == "sub" ? -1 : 1);
          } else if (other->isReg()) {
            iv.immStep = false;
            iv.stepReg = std::string(other->text);
            iv.negated = b == "sub";
          } else {
            other = nullptr;
          }
          if (other) {
            lp.ivs.push_back(iv);
            carriedOk.insert(r);
            continue;
          }
        }
      }
    }
    // Accumulator chain: r -> d1 -> ... -> r, each link read once, by the next.
    Acc acc;
    acc.reg = r;
    std::string cur = r;
    size_t pos = L.hs;
    bool ok = true, closed = false;
    std::string combine;
    std::set<std::string> links;
    while (ok && !closed) {
      std::vector<size_t> readers;
      for (size_t u : uses[cur])
        if (u > pos) readers.push_back(u);
      // The value a link holds must be read only by the next link (before it is redefined).
      size_t nextDef = SIZE_MAX;
      for (size_t d : defs[cur])
        if (d > pos) nextDef = std::min(nextDef, d);
      std::vector<size_t> live;
      for (size_t u : readers)
        if (u <= nextDef) live.push_back(u);
      if (live.size() != 1) {
        ok = false;
        break;
      }
      const Instruction &in = *instr(live[0]);
      Acc step;
      if (!reductionOf(in, cur, step) || (!combine.empty() && step.combine != combine)) {
        ok = false;
        break;
      }
      combine = step.combine;
      acc.bits = step.bits;
      acc.identity = step.identity;
      acc.floating = step.floating;
      pos = live[0];
      cur = std::string(in.operands[0].text);
      if (cur == r) {
        closed = true;
        if (defs[r].size() != 1 || defs[r][0] != pos) ok = false;
      } else {
        if (!links.insert(cur).second || defs[cur].size() != 1) ok = false;
        // The link is read nowhere outside the loop.
        for (uint32_t u : rd.usesOf(instrOf_[pos], cur))
          if (!inLoop(u)) ok = false;
      }
    }
    if (!ok || !closed) {
      why = "loop-carried register " + r + " is neither an induction variable nor an accumulator";
      return false;
    }
    acc.combine = combine;
    if (acc.floating && !ctx_.options.count("reassociate")) {
      why = "floating-point accumulator " + r + " (" + combine +
            "): splitting the loop reassociates it (allowed with --reassociate)";
      return false;
    }
    lp.accs.push_back(acc);
    for (const auto &x : links) carriedOk.insert(x);
    carriedOk.insert(r);
  }
  // No other value defined in the loop is read after it.
  for (size_t i = L.hs + 1; i <= L.ls; ++i) {
    const Instruction *in = instr(i);
    if (!in || removed.count(i)) continue;
    for (auto d : analysis::defUse(*in).defs) {
      bool carried = false;
      for (const auto &iv : lp.ivs) carried |= iv.reg == d;
      for (const auto &a : lp.accs) carried |= a.reg == d;
      if (carried) continue;
      for (uint32_t u : rd.usesOf(instrOf_[i], d)) {
        // A use after the loop of a store step 1 moves out reads the accumulator.
        if (inLoop(u) && !removed.count(stmtOf_[u])) continue;
        if (inLoop(u)) continue;
        why = "register " + std::string(d) + " defined in the loop is read after it";
        return false;
      }
    }
  }
  // A store step 1 moves after the loop must store a value the same on all
  // lanes there: an accumulator, or one not computed in the loop.
  for (const auto &[hs, acc] : plan.accList) {
    if (hs != L.hs) continue;
    const Operand &v = instr(acc.last)->operands[1];
    bool same = !v.isReg() || !defs.count(std::string(v.text));
    for (const auto &a : lp.accs) same |= v.isReg() && a.reg == v.text;
    if (!same) {
      why = "the accumulator in memory is given a value that is not a reduction (" + std::string(v.text) + ")";
      return false;
    }
  }
  // The latch: @p bra header, p = (iv != bound).
  const Instruction &br = *instr(L.ls);
  std::string p(br.guard);
  if (!defs.count(p) || defs[p].size() != 1) {
    why = "the latch's predicate is not set once in the loop";
    return false;
  }
  lp.setpAt = defs[p][0];
  const Instruction &sp = *instr(lp.setpAt);
  auto smods = sp.modifiers();
  bool ne = smods.size() == 2 && ((smods[0] == ".ne" && !br.guardNegated) || (smods[0] == ".eq" && br.guardNegated));
  if (sp.base() != "setp" || !sp.guard.empty() || sp.operands.size() != 3 || !ne) {
    why = "the loop's exit test is not 'iv != bound' (" + std::string(sp.opcode) + ")";
    return false;
  }
  bool found = false;
  for (int side = 1; side <= 2 && !found; ++side) {
    const Operand &v = sp.operands[side], &b = sp.operands[3 - side];
    if (!v.isReg() || !(b.intValue() || (b.isReg() && !defs.count(std::string(b.text))))) continue;
    // The value tested is the induction variable itself, or `add t, iv, X`
    // with X invariant (nvcc's 64-bit counters: iv + (start - n) != 0).
    std::string ivReg(v.text), offset;
    size_t readAt = lp.setpAt;
    if (defs.count(ivReg) && defs[ivReg].size() == 1) {
      const Instruction &ad = *instr(defs[ivReg][0]);
      bool isIv = false;
      for (const auto &iv : lp.ivs) isIv |= iv.reg == ivReg;
      if (!isIv && ad.base() == "add" && ad.guard.empty() && ad.operands.size() == 3) {
        for (int o = 1; o <= 2; ++o) {
          const Operand &x = ad.operands[3 - o];
          if (ad.operands[o].isReg() && (x.intValue() || (x.isReg() && !defs.count(std::string(x.text))))) {
            for (const auto &iv : lp.ivs)
              if (iv.reg == ad.operands[o].text) {
                offset = std::string(x.text);
                readAt = defs[ivReg][0];
                ivReg = iv.reg;
              }
          }
          if (!offset.empty()) break;
        }
      }
    }
    for (size_t j = 0; j < lp.ivs.size(); ++j)
      if (lp.ivs[j].reg == ivReg && lp.ivs[j].immStep && (isPow2(lp.ivs[j].step) || isPow2(-lp.ivs[j].step))) {
        lp.tested = j;
        lp.bound = std::string(b.text);
        lp.boundOffset = offset;
        lp.after = lp.ivs[j].update < readAt;
        found = true;
      }
  }
  if (!found) {
    why = "the loop's exit test does not compare an induction variable with a power-of-two step against a "
          "loop-invariant bound";
    return false;
  }
  {
    // Where the trip count comes from (the lanes clone asks for long rows).
    const uint32_t first = instrOf_.at(lp.ivs[lp.tested].update);
    uint32_t entry = first;
    for (size_t i = L.hs + 1; i <= L.ls; ++i)
      if (instr(i)) {
        entry = instrOf_.at(i);
        break;
      }
    paramsFeeding(entry, lp.ivs[lp.tested].reg, L, lp.tripParams, 0);
    for (const std::string &r : {lp.bound, lp.boundOffset})
      if (!r.empty() && r[0] == '%') paramsFeeding(lp.setpAt ? instrOf_.at(lp.setpAt) : entry, r, L, lp.tripParams, 0);
  }
  // Runs of 16 bytes loaded by one iteration: one vector load.
  std::map<std::pair<std::string, std::string>, std::map<int64_t, size_t>> groups;
  for (size_t i = L.hs + 1; i < L.ls; ++i) {
    const Instruction *in = instr(i);
    if (!in || !accessAt_.count(i)) continue;
    auto mem = analysis::memAccess(*in);
    if (mem->kind != analysis::MemAccess::Kind::Load || mem->vector != 1 || (mem->bytes() != 4 && mem->bytes() != 8) ||
        !in->guard.empty() || !plainMemoryOp(*in) || in->operands.size() != 2 || !in->operands[0].isReg() ||
        (mem->space != ".global" && !mem->space.empty()))
      continue;
    const Operand &addr = in->operands[1];
    if (addr.elems.size() != 1) continue;
    const Operand &e = addr.elems[0];
    std::string reg;
    int64_t off = 0;
    if (e.isReg()) reg = std::string(e.text);
    else if (e.kind == Operand::Kind::Sum && e.elems[0].isReg() && e.elems[1].intValue())
      reg = std::string(e.elems[0].text), off = *e.elems[1].intValue() * (e.text == "-" ? -1 : 1);
    else continue;
    if (reg == in->operands[0].text) continue;
    groups[{std::string(in->opcode), reg}].emplace(off, i);
  }
  for (auto &[key, byOff] : groups) {
    for (auto it = byOff.begin(); it != byOff.end(); ++it) {
      const size_t first = it->second;
      const AccessInfo &a = *accessAt_.at(first);
      const unsigned w = a.mem.bytes(), n = 16 / w;
      std::vector<size_t> run;
      for (unsigned j = 0; j < n; ++j) {
        auto f = byOff.find(it->first + int64_t(j * w));
        if (f == byOff.end()) break;
        run.push_back(f->second);
      }
      if (run.size() != n) continue;
      std::vector<Variant::AlignedParam> conds;
      int64_t mis = 0;
      if (!a.address.known ||
          !vectorAlignment(a.address.poly, aff, k_, 16, [](const analysis::Symbol &) { return 1; }, conds, mis) || mis)
        continue;
      // The loads move up to the earliest: no store between, their
      // destinations neither read nor written in between, the base not redefined.
      const size_t lo = *std::min_element(run.begin(), run.end()), hi = *std::max_element(run.begin(), run.end());
      std::set<std::string> dsts;
      for (size_t at : run) dsts.insert(std::string(instr(at)->operands[0].text));
      bool movable = dsts.size() == run.size();
      for (size_t s = lo + 1; s < hi && movable; ++s) {
        const Instruction *in = instr(s);
        if (!in || removed.count(s) || std::find(run.begin(), run.end(), s) != run.end()) continue;
        auto mem = analysis::memAccess(*in);
        if (mem && mem->kind != analysis::MemAccess::Kind::Load) movable = false;
        auto du = analysis::defUse(*in);
        for (auto d : du.defs)
          if (dsts.count(std::string(d)) || d == key.second) movable = false;
        for (auto u : du.uses)
          for (size_t at : run)
            if (at > s && instr(at)->operands[0].text == u) movable = false;
      }
      if (!movable) continue;
      // Order the run by offset (element order of the vector).
      lp.runs.push_back(run);
      for (const auto &c : conds) {
        bool merged = false;
        for (auto &x : const_cast<KernelPlan &>(plan).aligned)
          if (x.index == c.index) x.bytes = std::max(x.bytes, c.bytes), merged = true;
        if (!merged) const_cast<KernelPlan &>(plan).aligned.push_back(c);
      }
      std::advance(it, n - 1);
      if (it == byOff.end()) break;
    }
  }
  return true;
}

bool Planner::run(KernelPlan &plan, std::string &why, const Stmt *&whyAt) {
  if (fa_.loops().loops().empty()) {  // nothing to say about kernels without loops
    why = "no loop";
    return false;
  }
  const auto &comm = fa_.communication();
  if (!comm.empty()) {
    why = "threads communicate (" + std::string(analysis::kindName(comm.front().kind)) + ": " + comm.front().what + ")";
    whyAt = comm.front().stmt;
    return false;
  }
  for (const auto &s : body_)
    if (s->kind == Stmt::Kind::Block) {
      why = "it has nested { } blocks";
      return false;
    }
  if (!findLoops(why)) return false;
  for (const auto &L : loops_) {
    std::string w;
    size_t before = plan.accList.size();
    if (!planMemAccs(L, plan, w)) {
      ctx_.remark(Remark::Kind::Missed, k_, L.where, "accumulator in memory not kept in a register: " + w);
      plan.accList.resize(before);
    }
  }
  // Lanes: every loop that walks a row uncoalesced must split.
  std::string lanesWhy;
  for (const auto &L : loops_) {
    LanePlan lp;
    std::string w;
    if (planLanes(L, plan, lp, w)) {
      plan.reassoc |= std::any_of(lp.accs.begin(), lp.accs.end(), [](const Acc &a) { return a.floating; });
      plan.lanes.push_back(std::move(lp));
    } else if (!w.starts_with("no access of the loop is uncoalesced")) {
      lanesWhy = "loop at " + (L.where.empty() ? L.header : L.where) + ": " + w;
      break;
    }
  }
  if (!lanesWhy.empty() || plan.lanes.empty()) {
    if (plan.lanes.empty() && lanesWhy.empty()) lanesWhy = "no loop walks a row (uncoalesced along %tid.x, unit stride along the loop)";
    plan.lanes.clear();
    ctx_.remark(Remark::Kind::Missed, k_, "", "no lanes clone: " + lanesWhy);
  }
  if (!plan.lanes.empty()) {
    // Memory: outside the split loops, all 32 lanes see memory as the one
    // logical thread would: the clone puts bar.warp.sync (memory ordering
    // among the warp) at each split loop's entry and exit and around each
    // store that lane 0 makes alone. Inside a split loop the iterations run
    // in another order: a loop that stores must load only from other
    // allocations than it stores to.
    std::set<size_t> removed;
    for (const auto &[hs, acc] : plan.accList) removed.insert(acc.stores.begin(), acc.stores.end());
    std::string w;
    for (const auto &lp : plan.lanes) {
      std::vector<const AccessInfo *> loads, stores;
      for (size_t i = lp.loop.hs + 1; i < lp.loop.ls; ++i) {
        if (removed.count(i) || !accessAt_.count(i)) continue;
        const AccessInfo *a = accessAt_.at(i);
        if (a->mem.space == ".param" || a->mem.space == ".const") continue;
        (a->mem.kind == analysis::MemAccess::Kind::Load ? loads : stores).push_back(a);
      }
      for (const AccessInfo *st : stores)
        for (const AccessInfo *l : loads)
          if (w.empty() && !addDisjoint(k_, *st, *l, plan, &plan.lanesDisjoint)) {
            std::string lb = baseOf(*l), sb = baseOf(*st);
            w = "loop at " + (lp.loop.where.empty() ? lp.loop.header : lp.loop.where) + " loads through " +
                (lb.empty() ? std::string("an unknown base") : lb) + " and stores through " +
                (sb.empty() ? std::string("an unknown base") : sb) +
                " (its iterations would run in another order)";
          }
    }
    if (!w.empty()) {
      ctx_.remark(Remark::Kind::Missed, k_, "", "no lanes clone: " + w);
      plan.lanes.clear();
    }
  }
  if (plan.lanes.empty() && plan.accList.empty()) {
    why = "";  // the remarks above said why
    return false;
  }
  return true;
}

/// Builds the clone: step 1 always; lanes when `lanes` (route: grid or block).
std::unique_ptr<ir::Function> buildClone(ir::Module &m, const ir::Function &k, const KernelPlan &plan,
                                         const std::string &name, bool lanes, bool gridRoute) {
  auto clone = ir::cloneFunction(k, name, gridRoute ? "_rwg" : lanes ? "_rwb" : "_rwr", m);
  auto &cb = clone->body->body;
  Emitter e{m, {}};
  e.prefix = "%ptxopt_w";
  std::map<size_t, std::vector<std::unique_ptr<Stmt>>> before, after;
  std::set<size_t> drop;
  auto emitted = [&](std::map<size_t, std::vector<std::unique_ptr<Stmt>>> &where, size_t at) {
    for (auto &st : e.out) where[at].push_back(std::move(st));
    e.out.clear();
  };
  auto ins = [&](size_t i) -> Instruction & { return static_cast<Instruction &>(*cb[i]); };
  // Step 1: stores of an accumulator go; one after the loop.
  std::map<size_t, size_t> loopEnd;  // header -> latch
  for (const auto &lp : plan.lanes) loopEnd[lp.loop.hs] = lp.loop.ls;
  std::set<size_t> removedStores;
  for (const auto &[hs, acc] : plan.accList) {
    for (size_t s : acc.stores) drop.insert(s), removedStores.insert(s);
    auto st = std::make_unique<Instruction>(ins(acc.last));
    st->edited = true;
    st->span = {};
    if (!acc.loads.empty()) {
      // Reloads: the value lives in a register, loaded once before the loop
      // (the loop's first iteration accesses the address anyway).
      const std::string mv = acc.bits == 64 ? "mov.b64" : "mov.b32";
      const std::string r = acc.bits == 64 ? e.reg64() : e.reg32();
      const Instruction &first = ins(acc.stores.front());
      std::string ldop = "ld";
      for (auto mod : first.modifiers())
        if (mod == ".global") ldop += ".global";
      ldop += acc.bits == 64 ? ".b64" : ".b32";
      auto ld = std::make_unique<Instruction>();
      ld->opcode = m.intern(ldop);
      ld->operands = {e.op(r), first.operands[0]};
      ld->edited = true;
      e.out.push_back(std::move(ld));
      emitted(before, hs);
      for (size_t s : acc.stores) {
        auto mov = std::make_unique<Instruction>();
        mov->opcode = m.intern(mv);
        mov->operands = {e.op(r), ins(s).operands[1]};
        mov->edited = true;
        e.out.push_back(std::move(mov));
        emitted(before, s);
      }
      for (size_t l : acc.loads) {
        drop.insert(l);
        e.ins(mv, {std::string(ins(l).operands[0].text), r});
        emitted(before, l);
      }
      st->operands[1] = e.op(r);
    }
    // After the loop: past the lanes code of the loop, if any (see below).
    size_t ls = 0;
    for (size_t i = hs + 1; i < cb.size(); ++i)
      if (cb[i]->kind == Stmt::Kind::Instruction && ins(i).base() == "bra" && ins(i).guard.size() &&
          analysis::branchTarget(ins(i)) == static_cast<const ir::Label &>(*cb[hs]).name) {
        ls = i;
        break;
      }
    e.out.push_back(std::move(st));
    emitted(after, ls);  // lanes code for this loop is placed before it in after[ls]
  }
  std::string lane, lane64, lane0;
  if (lanes) {
    lane = e.reg32();
    lane64 = e.reg64();
    lane0 = e.regp();
    // Global stores outside the split loops run on lane 0 only.
    std::set<size_t> inSplit;
    for (const auto &lp : plan.lanes)
      for (size_t i = lp.loop.hs; i <= lp.loop.ls; ++i) inSplit.insert(i);
    // bar.warp.sync around each store lane 0 makes alone: the other lanes
    // read memory as the one logical thread does (before: their loads are
    // done; after: they see the store).
    auto guardLane0 = [&](Instruction &in) {
      e.ins("bar.warp.sync", {"-1"});
      if (in.guard.empty()) {
        in.guard = m.intern(lane0);
        in.guardNegated = false;
      } else {
        std::string q = e.regp();
        if (in.guardNegated) {
          std::string t = e.regp();
          e.ins("not.pred", {t, std::string(in.guard)});
          e.ins("and.pred", {q, t, lane0});
        } else {
          e.ins("and.pred", {q, std::string(in.guard), lane0});
        }
        in.guard = m.intern(q);
        in.guardNegated = false;
      }
      in.edited = true;
    };
    for (size_t i = 0; i < cb.size(); ++i) {
      if (inSplit.count(i) || cb[i]->kind != Stmt::Kind::Instruction || drop.count(i)) continue;
      auto mem = analysis::memAccess(ins(i));
      if (!mem || mem->kind == analysis::MemAccess::Kind::Load || mem->kind == analysis::MemAccess::Kind::Prefetch ||
          mem->space == ".local" || mem->space == ".param")
        continue;
      guardLane0(ins(i));
      emitted(before, i);
      e.ins("bar.warp.sync", {"-1"});
      emitted(after, i);
    }
    // The stores step 1 put after a loop: lane 0 too, between barriers.
    for (auto &[at, stmts] : after) {
      std::vector<std::unique_ptr<Stmt>> redone;
      for (auto &st : stmts) {
        auto mem = st->kind == Stmt::Kind::Instruction ? analysis::memAccess(static_cast<Instruction &>(*st))
                                                       : std::nullopt;
        if (mem && mem->kind == analysis::MemAccess::Kind::Store && !static_cast<Instruction &>(*st).guard.size()) {
          guardLane0(static_cast<Instruction &>(*st));
          for (auto &x : e.out) redone.push_back(std::move(x));
          e.out.clear();
          redone.push_back(std::move(st));
          e.ins("bar.warp.sync", {"-1"});
          for (auto &x : e.out) redone.push_back(std::move(x));
          e.out.clear();
        } else {
          redone.push_back(std::move(st));
        }
      }
      stmts = std::move(redone);
    }
    for (const auto &lp : plan.lanes) {
      const auto &L = lp.loop;
      const std::string exit = "$L__ptxopt_rw_exit" + std::to_string(L.hs);
      // Preheader (before the header label).
      e.ins("bar.warp.sync", {"-1"});  // loads and stores before the loop are done on every lane
      std::vector<std::string> v0(lp.ivs.size()), stepG1(lp.ivs.size());
      for (size_t j = 0; j < lp.ivs.size(); ++j) {
        const IV &iv = lp.ivs[j];
        v0[j] = iv.bits == 64 ? e.reg64() : e.reg32();
        e.ins(iv.bits == 64 ? "mov.b64" : "mov.b32", {v0[j], iv.reg});
      }
      // Trip count T (64-bit) from the tested induction variable.
      const IV &t = lp.ivs[lp.tested];
      const std::string w = t.bits == 64 ? "64" : "32";
      std::string b = lp.bound;
      if (!b.empty() && b[0] != '%') {
        std::string r = t.bits == 64 ? e.reg64() : e.reg32();
        e.ins("mov.b" + w, {r, b});
        b = r;
      }
      if (!lp.boundOffset.empty()) {  // iv + X != B  <=>  iv != B - X
        std::string r = t.bits == 64 ? e.reg64() : e.reg32();
        e.ins("sub.s" + w, {r, b, lp.boundOffset});
        b = r;
      }
      std::string d = t.bits == 64 ? e.reg64() : e.reg32();
      if (t.step > 0) e.ins("sub.s" + w, {d, b, v0[lp.tested]});
      else e.ins("sub.s" + w, {d, v0[lp.tested], b});
      const std::string T = e.reg64();
      if (t.bits == 64) e.ins("mov.b64", {T, d});
      else e.ins("cvt.u64.u32", {T, d});
      const unsigned sh = log2u(static_cast<uint64_t>(std::llabs(t.step)));
      if (sh) e.ins("shr.u64", {T, T, std::to_string(sh)});
      if (lp.after) {
        if (t.bits == 32) {  // iv == bound at the start: the 32-bit counter wraps around once
          std::string z = e.regp();
          e.ins("setp.eq.u64", {z, T, "0"});
          e.ins("mov.u64", {T, std::to_string(uint64_t(1) << (32 - sh))}, z);
        }
      } else {
        e.ins("add.u64", {T, T, "1"});
      }
      // Lanes 1..31 start accumulators at the identity.
      std::string notLane0 = e.regp();
      e.ins("setp.ne.u32", {notLane0, lane, "0"});
      for (const auto &a : lp.accs) {
        std::string mv = a.bits == 64 ? "mov.b64" : "mov.b32";
        if (a.floating) mv = a.bits == 64 ? "mov.f64" : "mov.f32";
        else mv = a.bits == 64 ? "mov.b64" : "mov.b32";
        e.ins(mv, {a.reg, a.identity}, notLane0);
      }
      // Lane l starts at iteration l.
      for (size_t j = 0; j < lp.ivs.size(); ++j) {
        const IV &iv = lp.ivs[j];
        const std::string ty = iv.bits == 64 ? ".s64" : ".s32";
        const std::string l = iv.bits == 64 ? lane64 : lane;
        if (iv.immStep) {
          e.ins("mad.lo" + ty, {iv.reg, l, std::to_string(iv.step), v0[j]});
          stepG1[j] = std::to_string(iv.step * int64_t(kLanes - 1));
        } else {
          std::string s = iv.stepReg;
          if (iv.negated) {
            s = iv.bits == 64 ? e.reg64() : e.reg32();
            e.ins("neg" + ty, {s, iv.stepReg});
          }
          e.ins("mad.lo" + ty, {iv.reg, l, s, v0[j]});
          stepG1[j] = iv.bits == 64 ? e.reg64() : e.reg32();
          e.ins("mul.lo" + ty, {stepG1[j], s, std::to_string(kLanes - 1)});
        }
      }
      const std::string c = e.reg64();
      e.ins("mov.u64", {c, lane64});
      std::string skip = e.regp();
      e.ins("setp.ge.u64", {skip, lane64, T});
      e.ins("bra", {exit}, skip);
      emitted(before, L.hs);
      // Latch: the counter steps by 32, the induction variables by 31 more steps.
      for (size_t j = 0; j < lp.ivs.size(); ++j) {
        const IV &iv = lp.ivs[j];
        e.ins(iv.bits == 64 ? "add.s64" : "add.s32", {iv.reg, iv.reg, stepG1[j]});
      }
      std::string q = e.regp();
      e.ins("add.u64", {c, c, std::to_string(kLanes)});
      e.ins("setp.lt.u64", {q, c, T});
      emitted(before, L.ls);
      ins(L.ls).guard = m.intern(q);
      ins(L.ls).guardNegated = false;
      ins(L.ls).edited = true;
      // Vector loads.
      for (const auto &run : lp.runs) {
        std::vector<size_t> byOff = run;  // already in offset order
        const size_t lo = *std::min_element(run.begin(), run.end());
        const Instruction &lead = ins(byOff[0]);
        std::string op(lead.base());
        for (auto mod : lead.modifiers()) {
          std::string s(mod);
          if (s == typeModifier(lead)) op += ".v" + std::to_string(run.size());
          op += s;
        }
        Operand vec{Operand::Kind::Vector, "", {}};
        for (size_t at : byOff) vec.elems.push_back(ins(at).operands[0]);
        auto ld = std::make_unique<Instruction>();
        ld->opcode = m.intern(op);
        ld->operands = {vec, lead.operands[1]};
        ld->edited = true;
        e.out.push_back(std::move(ld));
        emitted(before, lo);
        for (size_t at : run) drop.insert(at);
      }
      // After the loop: combine the lanes, set the induction variables.
      e.label(exit);
      e.ins("bar.warp.sync", {"-1"});  // the loop's stores are seen by every lane after it
      for (const auto &a : lp.accs) {
        for (unsigned off = kLanes / 2; off >= 1; off /= 2) {
          if (a.bits == 32) {
            std::string tmp = e.reg32();
            e.ins("shfl.sync.bfly.b32", {tmp, a.reg, std::to_string(off), "31", "-1"});
            e.ins(a.combine, {a.reg, a.reg, tmp});
          } else {
            std::string lo = e.reg32(), hi = e.reg32(), lo2 = e.reg32(), hi2 = e.reg32(), tmp = e.reg64();
            auto mv = std::make_unique<Instruction>();
            mv->opcode = m.intern("mov.b64");
            mv->operands = {Operand{Operand::Kind::Vector, "", {e.op(lo), e.op(hi)}}, e.op(a.reg)};
            mv->edited = true;
            e.out.push_back(std::move(mv));
            e.ins("shfl.sync.bfly.b32", {lo2, lo, std::to_string(off), "31", "-1"});
            e.ins("shfl.sync.bfly.b32", {hi2, hi, std::to_string(off), "31", "-1"});
            auto back = std::make_unique<Instruction>();
            back->opcode = m.intern("mov.b64");
            back->operands = {e.op(tmp), Operand{Operand::Kind::Vector, "", {e.op(lo2), e.op(hi2)}}};
            back->edited = true;
            e.out.push_back(std::move(back));
            e.ins(a.combine, {a.reg, a.reg, tmp});
          }
        }
      }
      std::string T32 = e.reg32();
      e.ins("cvt.u32.u64", {T32, T});
      for (size_t j = 0; j < lp.ivs.size(); ++j) {
        const IV &iv = lp.ivs[j];
        const std::string ty = iv.bits == 64 ? ".s64" : ".s32";
        std::string s = iv.immStep ? std::to_string(iv.step) : iv.stepReg;
        if (!iv.immStep && iv.negated) {
          s = iv.bits == 64 ? e.reg64() : e.reg32();
          e.ins("neg" + ty, {s, iv.stepReg});
        }
        e.ins("mad.lo" + ty, {iv.reg, iv.bits == 64 ? T : T32, s, v0[j]});
      }
      // Before the stores step 1 placed after this loop.
      auto &list = after[L.ls];
      std::vector<std::unique_ptr<Stmt>> mine;
      for (auto &st : e.out) mine.push_back(std::move(st));
      e.out.clear();
      list.insert(list.begin(), std::make_move_iterator(mine.begin()), std::make_move_iterator(mine.end()));
    }
  }
  std::vector<std::unique_ptr<Stmt>> out;
  for (size_t i = 0; i < cb.size(); ++i) {
    if (auto it = before.find(i); it != before.end())
      for (auto &st : it->second) out.push_back(std::move(st));
    if (!drop.count(i)) out.push_back(std::move(cb[i]));
    if (auto it = after.find(i); it != after.end())
      for (auto &st : it->second) out.push_back(std::move(st));
  }
  if (auto it = before.find(cb.size()); it != before.end())
    for (auto &st : it->second) out.push_back(std::move(st));
  cb = std::move(out);
  if (!lanes) {
    size_t decls = prologueAt(*clone->body);
    if (e.r32) cb.insert(cb.begin() + long(decls), e.decl(".b32", e.prefix + "r", e.r32));
    if (e.r64) cb.insert(cb.begin() + long(decls), e.decl(".b64", e.prefix + "rd", e.r64));
    if (e.pred) cb.insert(cb.begin() + long(decls), e.decl(".pred", e.prefix + "p", e.pred));
    return clone;
  }
  // Logical indices from the hardware ones.
  const std::string lt = e.reg32(), hw = e.reg32();
  std::map<std::string, std::string> names{{"%tid.x", lt}};
  std::string lc, ln, lnc;
  if (gridRoute) {
    lc = e.reg32();
    lnc = e.reg32();
    names["%ctaid.x"] = lc;
    names["%nctaid.x"] = lnc;
  } else {
    ln = e.reg32();
    names["%ntid.x"] = ln;
  }
  replaceSpecialReads(*clone->body, names, m);
  e.ins("mov.u32", {hw, "%tid.x"});
  e.ins("and.b32", {lane, hw, std::to_string(kLanes - 1)});
  e.ins("cvt.u64.u32", {lane64, lane});
  e.ins("setp.eq.u32", {lane0, lane, "0"});
  if (gridRoute) {
    const std::string cta = e.reg32(), nt = e.reg32(), t1 = e.reg32(), t2 = e.reg32(), nc = e.reg32();
    e.ins("mov.u32", {cta, "%ctaid.x"});
    e.ins("mov.u32", {nt, "%ntid.x"});
    e.ins("mov.u32", {nc, "%nctaid.x"});
    e.ins("shr.u32", {lc, cta, "5"});
    e.ins("shr.u32", {lnc, nc, "5"});
    e.ins("and.b32", {t1, cta, "31"});
    e.ins("shr.u32", {t2, nt, "5"});
    e.ins("shr.u32", {lt, hw, "5"});
    e.ins("mad.lo.s32", {lt, t1, t2, lt});
  } else {
    const std::string nt = e.reg32();
    e.ins("mov.u32", {nt, "%ntid.x"});
    e.ins("shr.u32", {lt, hw, "5"});
    e.ins("shr.u32", {ln, nt, "5"});
  }
  insertPrologue(*clone, e, true);
  dropBlockShapeDirectives(*clone);
  return clone;
}

}  // namespace

void runRowWalk(PassContext &ctx) {
  ir::Module &m = ctx.module;
  std::vector<ir::Function *> kernels;
  for (ir::Function *k : m.kernels())
    if (k->body && std::string_view(k->name).find("__ptxopt_") == std::string_view::npos) kernels.push_back(k);
  for (ir::Function *k : kernels) {
    KernelPlan plan;
    std::string why;
    const Stmt *whyAt = nullptr;
    Planner planner(ctx, *k);
    if (!planner.run(plan, why, whyAt)) {
      if (!why.empty() && why != "no loop")
        ctx.remark(Remark::Kind::Missed, *k, whyAt ? locationOf(m, ctx.analyses.get(*k), whyAt) : "", "not transformed: " + why);
      continue;
    }
    std::set<const ir::Function *> seen;
    if (const ir::Function *callee = calleeReadingIndices(m, *k, seen); callee && !plan.lanes.empty()) {
      ctx.remark(Remark::Kind::Missed, *k, "", "no lanes clone: it calls " + std::string(callee->name) + ", which reads thread indices");
      plan.lanes.clear();
      if (plan.accList.empty()) continue;
    }
    const std::string kname(k->name);
    Variant base;
    base.pass = "rowwalk";
    for (const auto &[a, b] : plan.disjoint) base.disjointParams.push_back({a, b});
    std::string conds;
    for (const auto &[a, b] : plan.disjoint)
      conds += std::string(conds.empty() ? "" : ", ") + "params " + std::to_string(a) + " and " + std::to_string(b) +
               " in different allocations";
    int at = m.itemIndex(k);
    unsigned loopsSplit = static_cast<unsigned>(plan.lanes.size()), vec = 0;
    for (const auto &lp : plan.lanes) vec += static_cast<unsigned>(lp.runs.size());
    if (!plan.lanes.empty()) {
      Variant v = base;
      v.kind = plan.reassoc ? "lanes+reassoc" : "lanes";
      v.alignedParams = plan.aligned;
      {
        std::set<std::pair<uint32_t, uint32_t>> all = plan.disjoint;
        all.insert(plan.lanesDisjoint.begin(), plan.lanesDisjoint.end());
        v.disjointParams.clear();
        for (const auto &[a, b] : all) v.disjointParams.push_back({a, b});
      }
      // Rows of at least kMinRow elements: measured 0.88x with rows of 4 ints
      // (one iteration, 31 of 32 lanes idle), 1.6-20x from 256 on.
      std::set<int> trip;
      for (const auto &lp : plan.lanes) trip.insert(lp.tripParams.begin(), lp.tripParams.end());
      for (int p : trip) {
        uint32_t bytes = 0;
        auto t = (*k->params)[size_t(p)].type();
        if (t.size() > 2 && (t.substr(2) == "32" || t.substr(2) == "64")) bytes = t.substr(2) == "32" ? 4 : 8;
        if (bytes) v.minParams.push_back({uint32_t(p), kMinRow});
      }
      std::sort(v.alignedParams.begin(), v.alignedParams.end(),
                [](const Variant::AlignedParam &a, const Variant::AlignedParam &b) { return a.index < b.index; });
      std::string aconds;
      for (const auto &d : v.disjointParams)
        aconds += std::string(aconds.empty() ? "" : ", ") + "params " + std::to_string(d.a) + " and " +
                  std::to_string(d.b) + " in different allocations";
      for (const auto &c : v.alignedParams)
        aconds += std::string(aconds.empty() ? "" : ", ") + "param " + std::to_string(c.index) + " % " +
                  std::to_string(c.bytes) + " == 0";
      for (const auto &c : v.minParams)
        aconds += std::string(aconds.empty() ? "" : ", ") + "param " + std::to_string(c.index) + " >= " +
                  std::to_string(c.value);
      Variant g = v;
      g.name = kname + "__ptxopt_lanes";
      g.grid[0].multiply = kLanes;
      g.blockMultiple[0] = kLanes;
      Variant b = v;
      b.name = kname + "__ptxopt_lanes_blk";
      b.block[0].multiply = kLanes;
      b.blockMax[0] = kLanes;
      bool kept = ctx.addClone(*k, buildClone(m, *k, plan, g.name, true, true), g, at);
      kept |= ctx.addClone(*k, buildClone(m, *k, plan, b.name, true, false), b, at);
      if (!v.alignedParams.empty()) {
        // For launches whose pointers or row lengths fail the 16-byte
        // conditions: the same clone with scalar loads.
        KernelPlan scalar = plan;
        for (auto &lp : scalar.lanes) lp.runs.clear();
        Variant n = g;
        n.name = kname + "__ptxopt_lanes_scalar";
        n.alignedParams.clear();
        kept |= ctx.addClone(*k, buildClone(m, *k, scalar, n.name, true, true), n, at);
      }
      if (kept) {
        ctx.remark(Remark::Kind::Applied, *k, "",
                   g.name + ", " + b.name + ": 32 lanes per logical thread over " + std::to_string(loopsSplit) +
                       " loop(s), " + std::to_string(vec) + " 16-byte load(s)" +
                       (plan.reassoc ? "; floating-point accumulators REASSOCIATED (--reassociate): results may "
                                       "differ in the last bits"
                                     : "; exact") +
                       "; launch grid.x*32 (block.x % 32 == 0) or block.x*32 (block.x <= 32); conditions: " +
                       (aconds.empty() ? "none" : aconds) +
                       (v.alignedParams.empty() ? "" : "; " + kname + "__ptxopt_lanes_scalar without the 16-byte loads for the other launches"));
        ctx.count("lanes-loops", loopsSplit);
        if (plan.reassoc) ctx.count("reassociated");
      }
    }
    if (!plan.accList.empty()) {
      Variant r = base;
      r.kind = "regacc";
      r.name = kname + "__ptxopt_regacc";
      KernelPlan onlyMem;
      onlyMem.accList = plan.accList;
      if (ctx.addClone(*k, buildClone(m, *k, onlyMem, r.name, false, false), r, at)) {
        ctx.remark(Remark::Kind::Applied, *k, "",
                   r.name + ": " + std::to_string(plan.accList.size()) +
                       " accumulator(s) in memory kept in a register through the loop, stored once after it; "
                       "conditions: " + (conds.empty() ? "none" : conds));
        ctx.count("accumulators", double(plan.accList.size()));
      }
    }
  }
}

}  // namespace ptxopt::transforms
