// group: short-word grouping across threads (van den Braak et al., SAMOS
// 2010, section IV-B, extended to 16-byte vectors), on clones of kernels.
//
// What: k adjacent logical threads along %tid.x become one hardware thread,
// and their k unit-stride accesses to one array become one vector access of
// k*w bytes (w = 1, 2, 4 or 8 bytes per element; k*w = 4, 8 or 16):
// `ld.global.v4.b32` unpacked with `bfe`, stores packed with `prmt`.
// Why it pays: a kernel that moves 1 or 2 bytes per thread is limited by
// instructions and memory requests, not by DRAM; 16-byte accesses cut the
// requests by 16/w and the per-thread overhead (index arithmetic, address
// computation) by k. Measured on an H200: docs/BENCHMARKS.md.
// Algorithm:
//   1. Applicability: no inter-thread communication (atomics whose result
//      is unused are reductions, not communication), no calls (the kernel
//      is a set of independent logical threads); the body is straight-line
//      code, optionally cut by bounds guards (`@%p bra EXIT`, `@%p ret`,
//      EXIT holding only `ret`) and holding if-then regions (`@%p bra L;
//      <plain instructions>; L:`), if/else regions (nvcc's diamonds), a
//      late exit after a store followed by plain instructions (an if-then
//      region to the end), nested `{ }` blocks of plain arithmetic (the
//      inline asm of cuda_fp16.h and cuda_bf16.h, which may declare
//      registers of its own), per-thread .local arrays (one copy per
//      replica) and one grid-stride loop at the end; no global store before
//      the last guard; every global access is unit-stride along %tid.x
//      (stride = its width w), independent of it, or one the analysis
//      cannot express (a gather or scatter).
//   2. k = 16 / (largest w of a unit-stride access), halved while k times
//      the body's instructions exceed 1024 (few long threads leave small
//      launches latency-bound; measured on Sobel), or the `group-k` option.
//   3. Alignment: in each unit-stride access's address polynomial, %tid.x
//      and %ntid.x count k times; every term must be a multiple of V = k*w,
//      or hold one parameter (a runtime condition: the argument a multiple
//      of V / gcd(coefficient, V); pointers and pitches alike), or be the
//      constant term, whose remainder is a misalignment: such a load reads
//      the two aligned vectors around its elements; a store is refused.
//   4. The clone: replica m of the body reads %tid.x as k*%tid.x + m and
//      %ntid.x as k*%ntid.x, with its own registers. Fast path: the replicas
//      interleaved instruction by instruction (each keeps its own program
//      order), the k copies of a unit-stride access replaced by one vector
//      access, a nested block copied per replica like one instruction (each
//      copy its own scope: the names it declares stay), if-then regions
//      predicated per replica, gathers and scatters
//      per replica; after each guard, one branch to the slow path when any
//      replica's guard fails. Slow path: the k replicas one after another,
//      each with its own guards and branches: every n gives the original's
//      result.
//   5. Launch transform (manifest): the dimension that becomes block.x is
//      divided by k (and must be a multiple of k); the parameters of step 3
//      are checked at launch; the new block must keep 64 threads or more,
//      and 512 / k where the merged clone of step 6 comes next (original
//      blocks under 512 threads ran faster merged);
//      the launch must have 2^19 threads or more, 2^21 for a body with
//      misaligned loads or a long one (k halved in step 2): smaller
//      launches do not fill the GPU, and k times fewer threads doing k
//      times the work are latency-bound (measured: kGroupMinThreads below).
//      Kernels already cloned by coalesce are grouped too: the swap clone
//      (the transform composed), and the split clone rebuilt with S*k
//      logical blocks per hardware block of S threads.
//   6. Block-merged clone (originals, k >= 4): for launches whose block.x/k
//      falls under that (256-thread blocks of 8-, 16- and 32-bit kernels,
//      the common case), a second clone keeps the original's block of B
//      threads and runs k logical blocks of the group clone in it: thread t
//      is thread t % (B/k) of logical block ctaid.x*k + t/(B/k); the grid
//      is ceil(grid.x/k) blocks, the original grid.x comes as an extra .u32
//      parameter, and logical blocks at or past it return at once (no
//      barriers in a group clone, so an early return is safe). Manifest:
//      grid "ceil(grid.x/k)", extraArgs ["grid.x"], after the plain clone.
//      Launches must have 2^19 threads or more, 2^22 for a body with
//      misaligned loads or a long one: Sobel in 32 x 8 blocks ran 0.99-1.00x
//      at 1920x1080, 2.3x at 8192x8192.
//   7. k chosen by launch size: where the clones of steps 5-6 have k >= 8
//      and those higher floors, a block-merged k = 4 clone last, for
//      launches of 2^20 threads or more: its logical block found with k - 1
//      compares and a shift (no division), its border groups predicated per
//      replica instead of a slow path (Plan::partial, GroupEmit.cpp). Sobel
//      in 32 x 8 blocks at 1920x1080: 1.17-1.20x (the plain k = 4 clone
//      0.98x, the hand kernel 1.15x).
// Refuses (remark): communication, calls, shared memory, loops other than
// a grid-stride one or other control flow, grid-stride loops over 32-bit
// data only or with fewer than one unit-stride access per 8 instructions
// (unless group-k forces k: the clone holds the body 3k times), a nested block with a label, a branch, a memory access, a
// special register or a declaration that shadows one of the body's
// registers, a store before a guard, an access with another stride
// along %tid.x (k times less coalesced), a unit-stride access that cannot
// become a vector (already one, predicated, in a region: it would stay per
// replica, k times less coalesced), alignment it cannot prove, a
// misaligned store, registers of a width it cannot unpack into, and kernels
// without a unit-stride access of 1, 2, 4 or 8 bytes; without
// group-gathers, the clone merged along y of a kernel whose every gather
// goes through an index read from memory or chosen by a select beside words
// of 4 bytes or more (srad: 0.97x of the program; a hotspot step 0.87x).
// Not done yet: grouping of the remap clone (its decoded indices are opaque
// to the analysis), arrays of structures (intra-thread grouping with
// unrolling is the pack pass).
// Files: GroupPlan.cpp (steps 1-3: legality, k, alignment), GroupEmit.cpp
// (step 4: the clone's body), this file (steps 5-7: clones, launch
// transforms, the block-merged clones, the pass itself); GroupPlan.h holds
// the plan they share.
#include <algorithm>
#include <bit>
#include <numeric>

#include "GroupPlan.h"

namespace ptxopt::transforms {

using analysis::AccessInfo;
using ir::Instruction;
using ir::Operand;
using ir::Stmt;
using namespace clone;
using namespace group;

namespace {

/// The launch transform of the grouped clone: `base`'s, with the dimension
/// that becomes block.x divided by k.
bool composeVariant(const Variant &base, const Plan &p, const std::string &name, Variant &v, std::string &why) {
  v = base;
  v.name = name;
  v.pass = "group";
  // Blocks of fewer than 64 threads cannot fill an SM (32 resident blocks):
  // the examples' Sobel, launched with 32 x 8 blocks, ran 0.75x grouped by
  // 16 into 2 x 8 blocks. Such launches take the next variant.
  v.minBlockThreads = std::max<uint32_t>(base.minBlockThreads, kMinBlockThreads);
  v.kind = base.kind == "identity" || base.kind.empty() ? "group" : base.kind + "+group";
  DimSource &bx = v.block[0];
  if (bx.from == DimSource::From::Const) {
    if (bx.value % p.k) {
      why = "block.x " + std::to_string(bx.value) + " is not a multiple of k=" + std::to_string(p.k);
      return false;
    }
    bx.value /= p.k;
  } else {
    bx.divide *= p.k;
    auto &mult = bx.from == DimSource::From::Block ? v.blockMultiple[bx.dim] : v.gridMultiple[bx.dim];
    mult = std::lcm(mult, bx.divide);
  }
  for (const auto &ap : p.aligned) requireAligned(v.alignedParams, ap);
  return true;
}

/// The block-merged form of group clone `g` (built for blocks of B/k
/// threads): hardware blocks keep the original's B threads and each runs k
/// logical blocks of the group clone, so launches whose B/k would fall under
/// kMinBlockThreads (the common 256-thread blocks of 8- and 16-bit kernels)
/// still get 16-byte accesses. In a hardware block of B threads, thread t
/// runs group-clone thread t % (B/k) of logical block ctaid.x*k + t / (B/k);
/// the grid is ceil(grid.x / k) blocks, and logical blocks at or past the
/// original grid.x, which the clone receives as an extra .u32 parameter,
/// return at once (group clones have no barriers). With `dim` 1 the k
/// logical blocks are stacked along y instead (logical block
/// (ctaid.x, ctaid.y*k + t / (B/k)), grid.y rounded up and passed): a
/// hardware block then covers a 2-D tile, as hand-written gathers do.
/// Refused (a reason, mergeRefusal) when `g` reads %tid/%ctaid/%ntid/%nctaid
/// as vectors or cluster registers, or has no parameter list.
std::optional<std::string> mergeRefusal(const ir::Function &g) {
  std::optional<std::string> refused;
  ir::forEachStmt(*g.body, [&](const Stmt &st) {
    if (st.kind != Stmt::Kind::Instruction) return;
    for (const auto &op : static_cast<const Instruction &>(st).operands)
      analysis::forEachRegister(op, [&](const Operand &r) {
        if (r.text == "%tid" || r.text == "%ntid" || r.text == "%ctaid" || r.text == "%nctaid" ||
            r.text.starts_with("%cluster") || r.text.starts_with("%ncluster") || r.text.starts_with("%is_explicit"))
          refused = "it reads " + std::string(r.text);
      });
  });
  if (!refused && !g.params) refused = "it has no parameter list";
  return refused;
}

/// With `noDivision`, t / (B/k) is found with k - 1 comparisons instead of
/// a division by a runtime value (see below).
std::optional<std::string> mergeBlocks(ir::Module &m, ir::Function &g, unsigned k, unsigned dim,
                                       bool noDivision = false) {
  const std::string axis = dim == 0 ? "x" : "y";
  if (auto refused = mergeRefusal(g)) return refused;
  // The original grid.x (or .y), after the original's parameters.
  const std::string gridParam = addExtraParam(m, g, "grid_" + axis);
  Emitter e{m, {}};
  e.prefix = "%ptxopt_m";
  std::string t = e.reg32(), n = e.reg32(), c = e.reg32(), ln = e.reg32(), q = e.reg32(), qn = e.reg32(),
              lt = e.reg32(), lc = e.reg32(), gx = e.reg32(), past = e.regp();
  e.ins("mov.u32", {t, "%tid.x"});
  e.ins("mov.u32", {n, "%ntid.x"});
  e.ins("mov.u32", {c, "%ctaid." + axis});
  if (noDivision) {
    // B/k as a shift (k is a power of two): ptxas compiles `div.u32 r, n, 4`
    // into a reciprocal sequence (I2F, MUFU.RCP, F2I: 14 instructions). Then
    // q = t / (B/k) = floor(k*t / B) = #{j in 1..k-1 : k*t >= j*B} (t < B,
    // B % k == 0): k - 1 compares, no division by a runtime value. The
    // block-merged k = 4 Sobel ran 1.20x with both, 1.17x with the shift
    // still a division and 1.09x with both divisions at 1920 x 1080 on an
    // H100 (scripts/bench/sobel-small.sh).
    e.ins("shr.u32", {ln, n, std::to_string(std::countr_zero(k))});  // launch condition: B % k == 0
    std::string kt = e.reg32();
    e.ins("mul.lo.u32", {kt, t, std::to_string(k)});
    e.ins("mov.u32", {q, "0"});
    for (unsigned j = 1; j < k; ++j) {
      std::string jb = n, ge = e.regp();
      if (j > 1) e.ins("mul.lo.u32", {jb = e.reg32(), n, std::to_string(j)});
      e.ins("setp.ge.u32", {ge, kt, jb});
      e.ins("add.u32", {q, q, "1"}, ge);
    }
  } else {
    e.ins("div.u32", {ln, n, std::to_string(k)});  // threads of a logical block (launch condition: B % k == 0)
    e.ins("div.u32", {q, t, ln});                  // which logical block of the k
  }
  e.ins("mul.lo.u32", {qn, q, ln});
  e.ins("sub.u32", {lt, t, qn});                   // thread in it
  e.ins("mad.lo.u32", {lc, c, std::to_string(k), q});
  e.ins("ld.param.u32", {gx, "[" + gridParam + "]"});
  e.ins("setp.ge.u32", {past, lc, gx});
  e.ins("ret", {}, past);
  replaceSpecialReads(*g.body, {{"%tid.x", lt}, {"%ctaid." + axis, lc}, {"%ntid.x", ln}, {"%nctaid." + axis, gx}}, m);
  insertPrologue(g, e, false);  // the .b32 temporaries and the code
  auto &body = g.body->body;
  body.insert(body.begin() + static_cast<long>(prologueAt(*g.body)), e.decl(".pred", e.prefix + "p", e.pred));
  return std::nullopt;
}

/// The launch of the block-merged clone: the group clone's `v` with the
/// original block and ceil(grid.x / k) blocks, the original grid.x as an
/// extra argument; blocks must still divide by k.
Variant mergedVariant(const Variant &v, const std::string &name, unsigned k, bool heavy) {
  Variant r = v;
  r.name = name;
  r.kind = "group-merged";
  r.block[0] = DimSource{DimSource::From::Block, 0};
  r.grid[0] = DimSource{DimSource::From::Grid, 0, k, 0, true};
  r.blockMultiple[0] = std::lcm(r.blockMultiple[0], k);
  r.extraArgs = {DimSource{DimSource::From::Grid, 0}};
  r.minLaunchThreads = std::max(v.minLaunchThreads, heavy ? kMergedHeavyMinThreads : kMergedMinThreads);
  return r;
}

/// The launch of the clone merged along y: the group clone's `v` with the
/// original block, ceil(grid.y / k) rows of blocks and the original grid.y
/// as an extra argument; grid.y must be at least k (else most logical blocks
/// of a hardware block would be past the grid).
Variant mergedVariantY(const Variant &v, const std::string &name, unsigned k, bool heavy) {
  Variant r = mergedVariant(v, name, k, heavy);
  r.kind = "group-merged-y";
  r.grid[0] = v.grid[0];
  r.grid[1] = DimSource{DimSource::From::Grid, 1, k, 0, true};
  r.extraArgs = {DimSource{DimSource::From::Grid, 1}};
  r.gridMin[1] = std::max<uint32_t>(r.gridMin[1], k);
  r.minLaunchThreads = std::max(r.minLaunchThreads, kMergedHeavyMinThreads);  // unmeasured: the higher floor
  return r;
}

/// The floor of the k = 4 clone for small launches: the block-merged k = 4
/// clone of the paper's Sobel (32 x 8 blocks, border groups predicated, no
/// division) ran 1.17x at 1024 x 1024 (2^20 threads), 1.17x at 1440 x 1080,
/// 1.21x at 1920 x 1080 and 1.33x at 2048 x 2048 on an H100
/// (scripts/bench/sobel-small.sh, docs/BENCHMARKS.md "Sobel at 1920 x
/// 1080"); smaller launches are not measured.
constexpr uint32_t kSmallLaunchMinThreads = 1u << 20;

/// ", param i % b == 0" for each alignment condition of the plan.
std::string conds0(const Plan &plan) {
  std::string conds;
  for (const auto &ap : plan.aligned)
    conds += ", param " + std::to_string(ap.index) + " % " + std::to_string(ap.bytes) + " == 0";
  return conds;
}

/// "at least 524288 threads in the launch (...)": the remark's text for minLaunchThreads.
std::string launchFloor(uint32_t threads, bool heavy) {
  return "at least " + std::to_string(threads) + " threads in the launch (smaller ones are latency-bound" +
         (heavy ? ", more so with misaligned loads, a long body, or forms not yet measured)" : ")");
}

/// "grid.x % 4096 == 0, block.x % 16 == 0": the divisibility conditions of `v`.
std::string multiples(const Variant &v) {
  std::string out;
  for (int d = 0; d < 3; ++d) {
    if (v.gridMultiple[d] > 1)
      out += std::string(out.empty() ? "" : ", ") + "grid." + "xyz"[d] + " % " + std::to_string(v.gridMultiple[d]) + " == 0";
    if (v.blockMultiple[d] > 1)
      out += std::string(out.empty() ? "" : ", ") + "block." + "xyz"[d] + " % " + std::to_string(v.blockMultiple[d]) + " == 0";
    if (v.gridMin[d] > 1)
      out += std::string(out.empty() ? "" : ", ") + "grid." + "xyz"[d] + " >= " + std::to_string(v.gridMin[d]);
  }
  return out.empty() ? "none on the shape" : out;
}

unsigned forcedK(PassContext &ctx) { return ctx.options.group.k; }

/// The clones of one kernel (steps 5 and 6 of the overview), one method
/// each: the plan (with the retry for the y-merged clone of gathers), then
/// for each variant that launches the kernel the clone's source and
/// variant, the clone built and its launch floor, the block-merged forms,
/// the clones added with their remarks, and the k = 4 clone for small
/// launches.
class Grouper {
public:
  Grouper(PassContext &ctx, ir::Function &f, unsigned fk)
      : ctx_(ctx), m_(ctx.module), f_(f), fk_(fk), name_(f.name),
        gathersOption_(ctx.options.group.gathers) {}

  void run() {
    ctx_.count("kernels");
    known_ = ctx_.baseOf(f_);
    if (!known_) {
      ctx_.remark(Remark::Kind::Missed, f_, "", "not grouped: a __ptxopt_ clone the manifest does not list");
      return;
    }
    original_ = known_->original;
    isClone_ = known_->isClone;
    if (!planClone()) return;
    // One group clone per variant that launches `f` (a shared split clone
    // has two, which share the group clone too); each variant inserted
    // moves the later ones down by one.
    std::vector<size_t> indices = isClone_ ? known_->indices : std::vector<size_t>{0};
    for (size_t n = 0; n < indices.size(); ++n) cloneVariant(indices[n] + inserted_);
  }

private:
  /// One variant's clones: the variant it is made for, the clone's source,
  /// the merged forms, and what the launch floor depends on.
  struct Clones {
    size_t baseIndex = 0;
    Variant base, v, mv, mvy;
    std::unique_ptr<ir::Function> source, merged, mergedY;
    std::string cloneName;
    unsigned vectors = 0, misaligned = 0, regionLoads = 0;
    bool heavy = false, mergeable = false;
    int at = 0;
  };

  /// The plan, or the remark saying why not.
  bool planClone();
  /// The clones for the variant at `baseIndex` of the original's entry.
  void cloneVariant(size_t baseIndex);
  /// The clone's source (`f`, or a new split clone) and its variant.
  bool makeSource(Clones &c);
  /// The grouped body; the launch floor.
  void build(Clones &c);
  /// The block-merged forms (along x, and along y for gathers).
  void mergedForms(Clones &c);
  /// Gathers without --group-gathers: the y-merged clone alone.
  void addYOnly(Clones &c);
  /// The plain clone and the merged ones, with their remarks.
  bool addClones(Clones &c);
  /// The block-merged k = 4 clone for small launches.
  void addSmallLaunch(Clones &c);

  PassContext &ctx_;
  ir::Module &m_;
  ir::Function &f_;
  const unsigned fk_;
  const std::string name_;
  const bool gathersOption_;
  std::optional<PassContext::Base> known_;
  ir::Function *original_ = nullptr;
  bool isClone_ = false;
  Plan plan_;
  bool yOnly_ = false;
  /// The first gather when every gather or scatter of `p`'s kernel goes
  /// through an index read from memory or chosen by a select (a border
  /// clamp, `c == 0 ? idx : idx - 1`) and its words are 4 bytes or wider
  /// (p.k <= 4); else null.
  const ir::Instruction *indexGathersOnly(const Plan &p);
  std::string gatherWhy_;
  const ir::Stmt *gatherWhyAt_ = nullptr;
  size_t inserted_ = 0;
};

const ir::Instruction *Grouper::indexGathersOnly(const Plan &p) {
  if (p.k > 4) return nullptr;  // 1- or 2-byte words: widening them pays (rotation 2 of bytes, 3.16x)
  auto &fa = ctx_.analyses.get(f_);
  const ir::Instruction *first = nullptr;
  for (const auto &a : fa.accesses()) {
    if (a.verdict != analysis::AccessInfo::Verdict::Unknown) continue;
    if (a.cause != analysis::UnknownCause::DataDependent && a.cause != analysis::UnknownCause::PathDependent)
      return nullptr;
    if (!first) first = fa.cfg().instructions()[a.instr];
  }
  return first;
}

bool Grouper::planClone() {
  bool ok = planGroup(ctx_, f_, plan_, fk_, gathersOption_);
  // Without --group-gathers, a kernel refused only for its gathers or
  // scatters still gets the clone merged along y (below), and only that
  // one: a 2-D tile per hardware block, 16-byte stores, the gathers per
  // logical thread. The paper's rotation 2 ran 3.16x with it at 8192 x
  // 8192 on an H100 (0.3192 -> 0.1011 ms, this session's
  // bench-paper-opt), where the plain and x-merged forms of gathers
  // measured 0.57-0.96x. It asks for grid.y >= k and 2^22 threads, so 1-D
  // launches and small images run the original.
  if (!ok && plan_.refusedForGathers && !isClone_ && !fk_) {
    gatherWhy_ = plan_.why;
    gatherWhyAt_ = plan_.whyAt;
    Plan retry;
    if (planGroup(ctx_, f_, retry, fk_, true)) {
      plan_ = std::move(retry);
      ok = yOnly_ = true;
    }
  }
  if (!ok) {
    ctx_.count("refused");
    if (!isClone_ && known_->variantCount) {
      // an earlier pass made clones (coalesce: the original is not unit-stride along
      // %tid.x by construction); the clones are tried next.
      ctx_.remark(Remark::Kind::Note, *original_, "", "the original is not grouped (" + plan_.why + "); its clones are tried");
      return false;
    }
    ctx_.remark(Remark::Kind::Missed, *original_,
                plan_.whyAt ? locationOf(m_, ctx_.analyses.get(f_), plan_.whyAt) : std::string(),
                (isClone_ ? "clone " + name_ + ": " : "") + "not grouped: " + plan_.why);
    return false;
  }
  return true;
}

void Grouper::cloneVariant(size_t baseIndex) {
  Clones c;
  c.baseIndex = baseIndex;
  c.base = isClone_ ? ctx_.entry(*original_).variants[c.baseIndex] : known_->variant;  // identity for an original
  if (!makeSource(c)) return;
  build(c);
  mergedForms(c);
  c.at = m_.itemIndex(&f_);
  if (yOnly_) {
    addYOnly(c);
    return;
  }
  if (addClones(c)) addSmallLaunch(c);
}

bool Grouper::makeSource(Clones &c) {
  // Source of the clone: `f`, or for a split clone a new one with S*k
  // logical blocks per hardware block (so hardware blocks keep S threads).
  if (c.base.kind == "split") {
    uint32_t S = c.base.block[0].value;
    auto [fresh, var] = makeSplitClone(m_, *original_, S * plan_.k, c.base.gridMin[0]);
    c.source = std::move(fresh);
    c.base = var;
    c.cloneName = std::string(c.source->name) + "_group" + std::to_string(plan_.k);
    c.source->name = m_.intern(c.cloneName);
  } else {
    c.cloneName = name_ + (isClone_ ? "_group" : "__ptxopt_group") + std::to_string(plan_.k);
    c.source = ir::cloneFunction(f_, c.cloneName, "_pg", m_);
  }
  std::string why;
  if (!composeVariant(c.base, plan_, c.cloneName, c.v, why)) {
    ctx_.remark(Remark::Kind::Missed, *original_, "", "not grouped (" + name_ + "): " + why);
    return false;
  }
  return true;
}

void Grouper::build(Clones &c) {
  buildGrouped(m_, *c.source, plan_);
  // The replicas' copies of the arithmetic that only fed the merged
  // accesses' addresses: ptxas time, nothing else (DeadCode.cpp).
  removeDeadCode(*c.source);
  c.vectors = c.misaligned = 0;
  for (const auto &sl : plan_.slots) {
    c.vectors += sl.vector;
    c.misaligned += sl.misalign != 0;
  }
  // If/else regions (both arms issued for every replica), vector loads
  // inside regions, local arrays (k copies per hardware thread) and
  // grid-stride loops (k times fewer threads, each looping), not yet
  // measured on a GPU, take the higher floors too, to be safe.
  c.regionLoads = 0;
  for (const auto &sl : plan_.slots) c.regionLoads += sl.vector && sl.region >= 0;
  c.heavy = plan_.longBody || c.misaligned != 0 || plan_.ifElseRegions != 0 || !plan_.localNames.empty() ||
            plan_.loopLatch != 0 || c.regionLoads != 0;
  c.v.minLaunchThreads = std::max(c.base.minLaunchThreads, c.heavy ? kGroupHeavyMinThreads : kGroupMinThreads);
  if (c.misaligned > kManyMisaligned) c.v.minLaunchThreads = std::max(c.v.minLaunchThreads, kManyMisalignedMinThreads);
}

void Grouper::mergedForms(Clones &c) {
  // For an original: also the block-merged form, for launches whose
  // blocks are too small to divide by k (after the plain one, which
  // needs no index arithmetic).
  // Without --group-gathers (yOnly) the x-merged clone is not emitted,
  // but its conditions still gate the y-merged one, which also takes the
  // block floor the plain clone takes where a merged clone follows.
  if (!isClone_ && plan_.k >= 4 && c.v.block[0].from == DimSource::From::Block && c.v.block[0].dim == 0 &&
      c.v.grid[0].from == DimSource::From::Grid && c.v.grid[0].dim == 0 && c.v.grid[0].divide == 1) {
    const std::string mergedName = c.cloneName + "_merged";
    if (auto why = mergeRefusal(*c.source)) {
      ctx_.remark(Remark::Kind::Note, *original_, "", "no block-merged group clone: " + *why);
    } else {
      c.mergeable = true;
      if (!yOnly_) {
        c.merged = ir::cloneFunction(*c.source, mergedName, "_pm", m_);
        mergeBlocks(m_, *c.merged, plan_.k, 0);  // cannot refuse: mergeRefusal passed
        c.mv = mergedVariant(c.v, mergedName, plan_.k, c.heavy);  // keeps the 64-thread minimum
      }
      c.v.minBlockThreads = std::max(c.v.minBlockThreads, kPlainMinOriginalBlock / plan_.k);
    }
  }
  // With gathers or scatters per replica (--group-gathers), a form
  // merged along y too, tried before the x one: its hardware block
  // covers a 2-D tile (B/k threads of k elements across, k rows), as
  // the hand-written rotation 2 does, where the x-merged block covers k
  // times B elements of one row and its gathers one long diagonal of
  // the source (the rotations ran 0.84-0.96x x-merged, 1.2-1.4x plain
  // in 256 x 4 blocks). Not yet measured.
  bool readsCtaidY = false;
  ir::forEachStmt(*c.source->body, [&](const Stmt &st) {
    if (st.kind == Stmt::Kind::Instruction)
      for (const auto &op : static_cast<const Instruction &>(st).operands)
        analysis::forEachRegister(op, [&](const Operand &r) { readsCtaidY |= r.text == "%ctaid.y"; });
  });
  if (c.mergeable && plan_.perReplica && readsCtaidY) {
    const std::string mergedName = c.cloneName + "_merged_y";
    c.mergedY = ir::cloneFunction(*c.source, mergedName, "_py", m_);
    if (auto why = mergeBlocks(m_, *c.mergedY, plan_.k, 1)) {
      ctx_.remark(Remark::Kind::Note, *original_, "", "no group clone merged along y: " + *why);
      c.mergedY.reset();
    } else {
      c.mvy = mergedVariantY(c.v, mergedName, plan_.k, c.heavy);
    }
  }
}

void Grouper::addYOnly(Clones &c) {
  // Gathers without --group-gathers: the y-merged clone alone.
  if (c.mergedY) {
    if (const ir::Instruction *at = indexGathersOnly(plan_)) {
      // Words of 4 bytes or more, and every gather through an index read
      // from memory (Rodinia srad's C[iS[i]*cols + j], C[i*cols + jE[j]]):
      // the tile gives such gathers no locality they lacked (srad's
      // indices are each row's and column's neighbour), and widening
      // coalesced 4-byte accesses pays little. The held-out srad ran
      // 0.97-0.98x of nvcc's program with the clone (H200, two runs; its
      // band 0.99-1.01), though gpu-diff's repeated launches of the kernel
      // alone ran it 1.03-1.10x ("group gathers"): the program decides.
      // The same for gathers whose index a select chooses (a stencil's
      // neighbours clamped at the border, `r == 0 ? idx : idx - cols`): the
      // sixth held-out batch's hotspot step ran 0.87x of nvcc's program with
      // the clone, the fourth batch's Rodinia-style hotspot 1.03-1.06x
      // (H200): in doubt, the original. Computed gathers (the rotations,
      // 1.47-1.54x on floats) keep it.
      ctx_.remark(Remark::Kind::Missed, *original_, locationOf(m_, ctx_.analyses.get(f_), at),
                  "not grouped: " + gatherWhy_ + "; merged along y, gathers through indices read from memory or "
                  "chosen by a select (a border clamp) beside words of 4 bytes or more measured 0.97x (the held-out "
                  "srad's program) and 0.87x (a held-out hotspot step's; another hotspot 1.03-1.06x)");
      return;
    }
  }
  if (c.mergedY && ctx_.addClone(*original_, std::move(c.mergedY), c.mvy, c.at)) {
    ++inserted_;
    ctx_.remark(Remark::Kind::Applied, *original_, "",
                c.mvy.name + ": " + std::to_string(plan_.k) + " logical threads per thread, " +
                    std::to_string(plan_.perReplica) +
                    " gather/scatter access(es) per thread, blocks of the original size each running " +
                    std::to_string(plan_.k) + " logical blocks stacked along y (a 2-D tile, for the gathers' "
                    "locality; the only gather form on by default: rotation 2 ran 3.16x); launch conditions: " +
                    multiples(c.mvy) + conds0(plan_) + ", " + launchFloor(c.mvy.minLaunchThreads, c.heavy));
  } else {
    ctx_.remark(Remark::Kind::Missed, *original_,
                gatherWhyAt_ ? locationOf(m_, ctx_.analyses.get(f_), gatherWhyAt_) : std::string(),
                "not grouped: " + gatherWhy_ + " (and no clone merged along y: it needs a 2-D grid read through "
                "%ctaid.y and block.x / grid.x of the original form)");
  }
}

bool Grouper::addClones(Clones &c) {
  // Preferred over the clone it was made from.
  if (!ctx_.addClone(*original_, std::move(c.source), c.v, c.at,
                    isClone_ ? std::optional<size_t>(c.baseIndex) : std::nullopt))
    return false;
  ++inserted_;
  const std::string conds = conds0(plan_);
  ctx_.remark(Remark::Kind::Applied, *original_, "",
              c.cloneName + ": " + std::to_string(plan_.k) + " logical threads per thread, " + std::to_string(c.vectors) +
                  " vector access(es)" + (c.misaligned ? " (" + std::to_string(c.misaligned) + " misaligned: two aligned loads)" : "") +
                  (plan_.perReplica ? ", " + std::to_string(plan_.perReplica) + " gather/scatter access(es) per thread" : "") +
                  (plan_.guards ? ", " + std::to_string(plan_.guards) + " bounds guard(s) with a per-thread slow path" : "") +
                  (plan_.regions ? ", " + std::to_string(plan_.regions) + " if-then region(s) predicated" : "") +
                  (c.regionLoads ? ", " + std::to_string(c.regionLoads) + " vector load(s) inside a region (run when any replica's arm runs)" : "") +
                  (plan_.loopLatch ? ", a grid-stride loop (the iterations all replicas run together vectorized)" : "") +
                  (plan_.localNames.empty() ? "" : ", " + std::to_string(plan_.localNames.size()) + " per-thread local array(s) copied per logical thread") +
                  (plan_.atomics ? ", " + std::to_string(plan_.atomics) + " atomic(s) with an unused result per logical thread" : "") +
                  (plan_.ifElseRegions ? ", " + std::to_string(plan_.ifElseRegions) + " if/else region(s) predicated (both arms)" : "") +
                  "; launch conditions: " + multiples(c.v) + conds + ", " + launchFloor(c.v.minLaunchThreads, c.heavy));
  if (c.mergedY && ctx_.addClone(*original_, std::move(c.mergedY), c.mvy, c.at)) {
    ++inserted_;
    ctx_.remark(Remark::Kind::Applied, *original_, "",
                c.mvy.name + ": the same with blocks of the original size, each running " + std::to_string(plan_.k) +
                    " logical blocks stacked along y (a 2-D tile, for the gathers' locality; grid.y >= " +
                    std::to_string(plan_.k) + "); launch conditions: " + multiples(c.mvy) + conds + ", " +
                    launchFloor(c.mvy.minLaunchThreads, c.heavy));
  }
  if (c.merged && ctx_.addClone(*original_, std::move(c.merged), c.mv, c.at)) {
    ++inserted_;
    ctx_.remark(Remark::Kind::Applied, *original_, "",
                c.mv.name + ": the same with blocks of the original size, each running " + std::to_string(plan_.k) +
                    " logical blocks (for launches whose block.x / " + std::to_string(plan_.k) +
                    " is under " + std::to_string(c.v.minBlockThreads) + " threads); launch conditions: " +
                    multiples(c.mv) + conds + ", " + launchFloor(c.mv.minLaunchThreads, c.heavy));
  }
  return true;
}

void Grouper::addSmallLaunch(Clones &c) {
  // k chosen by launch size: for an original whose clones above have
  // k >= 8 and the higher floors (misaligned loads or a long body), a
  // block-merged k = 4 clone last, for launches of 2^20 threads or more
  // that those do not take (Sobel at 1920 x 1080 in the program's 32 x 8
  // blocks: 2.07M threads, under the 2^21 and 2^22 floors, and 32 / 8 =
  // 4 threads across for the plain clone). It keeps the original block
  // (a warp covers 128 adjacent bytes, as the hand-written kernel's),
  // finds its logical block without a division, and predicates border
  // groups instead of a slow path: 1.21x at 1920 x 1080 on an H100,
  // where the plain k = 4 clone (8 x 8 blocks) ran 0.98x and the merged
  // one with the division and the slow path 1.10x
  // (scripts/bench/sobel-small.sh). Only bodies of that form (one bounds
  // guard, straight-line code after it) and at most kManyMisaligned
  // misaligned loads.
  if (!isClone_ && !fk_ && plan_.k >= 8 && c.heavy && c.misaligned <= kManyMisaligned && c.v.block[0].from == DimSource::From::Block &&
      c.v.block[0].dim == 0 && c.v.grid[0].from == DimSource::From::Grid && c.v.grid[0].dim == 0 &&
      c.v.grid[0].divide == 1) {
    Plan small;
    if (!planGroup(ctx_, f_, small, 4, gathersOption_)) {
      ctx_.remark(Remark::Kind::Note, *original_, "", "no k=4 clone for small launches: " + small.why);
      return;
    }
    if (std::string why = partialWhy(f_, small); !why.empty()) {
      ctx_.remark(Remark::Kind::Note, *original_, "",
                  "no k=4 clone for small launches: its border groups cannot be predicated (" + why + ")");
      return;
    }
    small.partial = true;
    const std::string smallName = name_ + "__ptxopt_group4_merged";
    auto src4 = ir::cloneFunction(f_, smallName, "_p4", m_);
    Variant v4;
    std::string why4;
    if (!composeVariant(c.base, small, smallName, v4, why4)) {
      ctx_.remark(Remark::Kind::Note, *original_, "", "no k=4 clone for small launches: " + why4);
      return;
    }
    buildGrouped(m_, *src4, small);
    removeDeadCode(*src4);
    if (auto why = mergeBlocks(m_, *src4, 4, 0, true)) {
      ctx_.remark(Remark::Kind::Note, *original_, "", "no k=4 clone for small launches: " + *why);
      return;
    }
    Variant mv4 = mergedVariant(v4, smallName, 4, false);
    mv4.minLaunchThreads = std::max(c.base.minLaunchThreads, kSmallLaunchMinThreads);
    if (ctx_.addClone(*original_, std::move(src4), mv4, c.at)) {
      ++inserted_;
      ctx_.remark(Remark::Kind::Applied, *original_, "",
                  smallName + ": 4 logical threads per thread in blocks of the original size (4 logical blocks "
                              "each, found without a division), border groups predicated per logical thread (no "
                              "slow path), for launches the clones above do not take; launch conditions: " +
                      multiples(mv4) + conds0(small) + ", " + launchFloor(mv4.minLaunchThreads, false));
    }
  }
}

}  // namespace

void runGroup(PassContext &ctx) {
  ir::Module &m = ctx.module;
  unsigned fk = forcedK(ctx);
  // Kernels, and clones made by earlier passes that keep hardware %tid.x as
  // the unit-stride index (swap, split); not remap clones or group clones.
  std::vector<ir::Function *> work;
  for (auto *f : m.kernels()) {
    std::string_view n = f->name;
    auto pos = n.find("__ptxopt_");
    if (pos == std::string_view::npos) work.push_back(f);
    else if ((n.substr(pos).starts_with("__ptxopt_swap") || n.substr(pos).starts_with("__ptxopt_split")) &&
             n.find("_group") == std::string_view::npos)
      work.push_back(f);
  }
  for (ir::Function *f : work) Grouper(ctx, *f, fk).run();
}

}  // namespace ptxopt::transforms
