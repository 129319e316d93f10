// coalesce: thread-index swapping (van den Braak et al., SAMOS 2010, section
// IV-A) and its launch-invariant form, on clones of the kernels.
//
// What: when the global accesses of a kernel have a large stride along
// %tid.x but unit stride along another index v (%ctaid.x in the paper's
// matrix add `in[threadIdx.x * gridDim.x + blockIdx.x]`), make v the index
// that varies fastest across a warp.
// Why it pays: a warp's 32 lanes then touch 32 consecutive elements, one or
// a few 32-byte sectors per request instead of 32 (up to 8x fewer sectors
// for 4-byte data, 32x for bytes).
// Algorithm: for each kernel, the affine analysis gives every global
// access's byte stride along each index. Each candidate v in {%tid.y,
// %tid.z, %ctaid.x, %ctaid.y, %ctaid.z} that some address uses is scored by the sectors per warp
// request its accesses would need if v varied fastest, weighted by bytes
// moved and by the trip counts of enclosing loops (16 when unknown): the
// contiguity priority of MESI-CUDA's P'' and the weighted choice of
// R-Stream's coalescing tuples, with sectors as the common unit. The best v
// must cut the weighted sectors by at least a quarter. Two clones follow:
//   swap  - every read of %tid.x becomes v and vice versa, %ntid.x and v's
//           extent likewise; the runtime exchanges the launch dimensions
//           (block.x <-> v's dimension), checked against the device limits.
//   split - for v = %ctaid.x: the swap with the original grid.x cut into
//           blocks of S threads (grid.x/S of them) and the original block.x
//           moved to grid.y, so that it launches for grids too large to
//           become a block (the swap needs grid.x <= 1024). One multiply-add.
//           Three variants, in order: S = 256 for grids of 32768 blocks or
//           more, S = 1024, S = 256 (measured order, docs/BENCHMARKS.md);
//           the first and the last launch the same function.
//   remap - the launch stays; the clone linearizes the hardware indices
//           (tid.x fastest) and decodes them with v fastest, so logical
//           index v moves along the warp. For a 1-D block: one 32-bit
//           division (a shift and a mask when the grid is a power of two);
//           otherwise one division per index, all in 32 bits: a launch of
//           2^32 threads or more runs the original (manifest condition
//           maxLaunchThreads; a 64-bit path cost ptxas about 6 ms per clone
//           for launches that rare). Uniform branches pick the path. Needs
//           no host change: any loader works.
// Refuses (remark, no clone): any inter-thread communication fact (shared
// memory, barriers, warp ops, atomics, fences, unknown calls...), a call to a
// function that reads thread or block indices itself (the clones rename
// them in the kernel only), any global access whose address the analysis
// cannot express, kernels already coalesced, and kernels where no candidate
// helps.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <set>

#include "CloneUtil.h"
#include "Pass.h"
#include "ptxopt/printer/Printer.h"

namespace ptxopt::transforms {

using analysis::AccessInfo;
using analysis::Symbol;
using ir::Operand;

namespace {

using namespace clone;

bool isGlobal(const AccessInfo &a) { return a.mem.space == ".global" || a.mem.space.empty(); }

/// Sectors per warp request if index `var` varied fastest across the warp.
unsigned sectorsIf(const AccessInfo &a, const std::string &var) {
  unsigned w = a.mem.bytes();
  for (const auto &s : a.strides) {
    if (s.var != var) continue;
    if (s.constant) return analysis::warpSectors(*s.constant, w);
    return 32 * ((w + 31) / 32);  // symbolic stride: at least a sector per lane
  }
  return (w + 31) / 32;  // does not depend on it: one request for the warp
}

/// Weight of an access: bytes times the trip counts of its enclosing loops.
double weightOf(const AccessInfo &a, analysis::FunctionAnalyses &fa) {
  const auto &cfg = fa.cfg();
  const auto &loops = fa.loops();
  double w = a.mem.bytes();
  for (auto l = loops.loopOf(cfg.blockOf(a.instr)); l; l = loops.loops()[*l].parent) {
    double trips = 16;
    for (const auto &iv : fa.affine().inductionVars())
      if (iv.loop == *l && iv.tripConstant) trips = static_cast<double>(*iv.tripConstant);
    w *= std::max(1.0, trips);
  }
  return w;
}

/// The remap prologue: decodes the hardware digits 0..pv so that digit pv
/// is fastest; returns, per position, the register holding its logical value.
///
/// Paths (uniform branches, so warps never diverge here):
///   fast    - the radices between 0 and pv are all 1 (a 1-D block for
///             %ctaid.x) and R_pv is a power of two:
///             H = h_pv*R_0 + h_0, then a shift and a mask. Reads only the
///             two hardware indices it needs; one uniform branch.
///   slow    - the same conditions but R_pv not a power of two: one division.
///   general - 32-bit mixed-radix decode, one division per digit.
/// All in 32 bits: when pv is a grid index (pv >= 3) the clone's variant
/// asks for launches of fewer than 2^32 threads (addRemapClone).
std::vector<std::string> emitRemap(Emitter &e, int pv) {
  std::vector<std::string> h(pv + 1), r(pv + 1), out(pv + 1);
  for (int i = 0; i <= pv; ++i) {
    h[i] = e.reg32();
    r[i] = e.reg32();
    out[i] = e.reg32();
    e.ins("mov.u32", {r[i], kPos[i].extent});
  }
  auto readIndices = [&](int from, int to) {
    for (int i = from; i <= to; ++i) e.ins("mov.u32", {h[i], kPos[i].index});
  };
  // Logical order, fastest first: pv, 1, ..., pv-1, 0.
  std::vector<int> order{pv};
  for (int i = 1; i < pv; ++i) order.push_back(i);
  order.push_back(0);

  // Conditions of the fast path, combined into one uniform branch: every
  // radix between 0 and pv is 1 and R_pv is a power of two. (The launch has
  // fewer than 2^32 threads, a manifest condition, so H fits 32 bits.)
  std::string middleOne, pow2 = e.regp(), fast = e.regp(), rm1 = e.reg32(), t = e.reg32();
  if (pv > 1) {
    middleOne = e.regp();
    if (pv <= 3) {  // block extents only: their product is at most 1024
      std::string middle = e.reg32();
      e.ins("mov.u32", {middle, r[1]});
      for (int i = 2; i < pv; ++i) e.ins("mul.lo.u32", {middle, middle, r[i]});
      e.ins("setp.eq.u32", {middleOne, middle, "1"});
    } else {
      std::string middle = e.reg64(), x = e.reg64();
      e.ins("cvt.u64.u32", {middle, r[1]});
      for (int i = 2; i < pv; ++i) {
        e.ins("cvt.u64.u32", {x, r[i]});
        e.ins("mul.lo.u64", {middle, middle, x});
      }
      e.ins("setp.eq.u64", {middleOne, middle, "1"});
    }
  }
  e.ins("add.u32", {rm1, r[pv], "-1"});
  e.ins("and.b32", {t, r[pv], rm1});
  e.ins("setp.eq.u32", {pow2, t, "0"});
  std::string acc = pow2;
  if (!middleOne.empty()) {
    e.ins("and.pred", {fast, acc, middleOne});
    acc = fast;
  }
  e.ins("bra", {"$ptxopt_remap_slow"}, "!" + acc);
  // ---- fast path: H = h_pv*R_0 + h_0, then a shift and a mask.
  std::string H = e.reg32(), k = e.reg32();
  readIndices(0, 0);
  readIndices(pv, pv);
  e.ins("mad.lo.u32", {H, h[pv], r[0], h[0]});
  e.ins("bfind.u32", {k, r[pv]});
  e.ins("shr.u32", {out[0], H, k});
  e.ins("and.b32", {out[pv], H, rm1});
  for (int i = 1; i < pv; ++i) e.ins("mov.u32", {out[i], "0"});
  e.ins("bra.uni", {"$ptxopt_remap_done"});
  // ---- the same with a division, for a radix that is not a power of two
  e.label("$ptxopt_remap_slow");
  if (pv > 1) e.ins("bra", {"$ptxopt_remap_general"}, "!" + middleOne);
  readIndices(0, 0);
  readIndices(pv, pv);
  e.ins("mad.lo.u32", {H, h[pv], r[0], h[0]});
  e.ins("div.u32", {out[0], H, r[pv]});
  e.ins("mul.lo.u32", {t, out[0], r[pv]});
  e.ins("sub.u32", {out[pv], H, t});
  for (int i = 1; i < pv; ++i) e.ins("mov.u32", {out[i], "0"});
  e.ins("bra.uni", {"$ptxopt_remap_done"});
  // ---- general path
  if (pv > 1) {
    e.label("$ptxopt_remap_general");
    readIndices(0, pv);
    std::string H = e.reg32(), q = e.reg32(), t = e.reg32();
    e.ins("mov.u32", {H, h[pv]});
    for (int i = pv - 1; i >= 0; --i) e.ins("mad.lo.u32", {H, H, r[i], h[i]});
    for (size_t k = 0; k + 1 < order.size(); ++k) {
      int p = order[k];
      e.ins("div.u32", {q, H, r[p]});
      e.ins("mul.lo.u32", {t, q, r[p]});
      e.ins("sub.u32", {out[p], H, t});
      e.ins("mov.u32", {H, q});
    }
    e.ins("mov.u32", {out[order.back()], H});
    e.ins("bra.uni", {"$ptxopt_remap_done"});
  }
  e.label("$ptxopt_remap_done");
  return out;
}

Variant variant(const std::string &name, const char *kind) {
  Variant v;
  v.name = name;
  v.pass = "coalesce";
  v.kind = kind;
  return v;
}

/// The index that becomes fastest must take more than one value in the
/// launch: with extent 1 (a 256 x 1 block for an access whose unit stride is
/// on %tid.y) a swap or remap changes no warp's addresses (the swap measured
/// 0.98-1.00x there in the benchmark family, docs/BENCHMARKS.md), so the
/// original runs.
///
/// And where that index is the block's own (%tid.y, %tid.z), the clone only
/// reorders the threads of each block: a warp never spans two blocks, so
/// with blocks of at most 32 threads every warp holds one whole block and
/// requests the same addresses either way (the whole-program suite's LU
/// program, Fan2 in 4 x 4 blocks, ran 0.84-0.97x with its swap clone in 5
/// runs): the block must have more threads than a warp.
void requireExtent(Variant &v, int pv) {
  const Position &p = kPos[pv];
  auto &bound = p.from == DimSource::From::Block ? v.blockMin[p.dim] : v.gridMin[p.dim];
  bound = std::max<uint32_t>(bound, 2);
  if (p.from == DimSource::From::Block) v.minBlockThreads = std::max<uint32_t>(v.minBlockThreads, 33);  // more than a warp
}

/// swap: the special registers of positions 0 and pv trade places, and so do
/// the launch dimensions (block.x with pv's dimension).
bool addSwapClone(PassContext &ctx, const ir::Function &k, int pv, int &at) {
  ir::Module &m = ctx.module;
  std::string name = std::string(k.name) + "__ptxopt_swap";
  auto clone = ir::cloneFunction(k, name, "_ps", m);
  renameRegisters(*clone->body,
                  {{kPos[0].index, kPos[pv].index},
                   {kPos[pv].index, kPos[0].index},
                   {kPos[0].extent, kPos[pv].extent},
                   {kPos[pv].extent, kPos[0].extent}},
                  m);
  dropBlockShapeDirectives(*clone);
  Variant var = variant(name, "swap");
  const Position &p = kPos[pv];
  auto &pvSlot = p.from == DimSource::From::Block ? var.block[p.dim] : var.grid[p.dim];
  var.block[0] = DimSource{p.from, p.dim};
  pvSlot = DimSource{DimSource::From::Block, 0};
  requireExtent(var, pv);
  return ctx.addClone(k, std::move(clone), var, at);
}

/// split (pv = %ctaid.x): see makeSplitClone.
bool addSplitClone(PassContext &ctx, const ir::Function &k, uint32_t split, uint32_t minGrid, int &at) {
  auto [clone, var] = makeSplitClone(ctx.module, k, split, minGrid);
  return ctx.addClone(k, std::move(clone), var, at);
}

/// remap: the same launch; the indices of positions 0..pv decoded with pv fastest.
bool addRemapClone(PassContext &ctx, const ir::Function &k, int pv, int &at) {
  ir::Module &m = ctx.module;
  std::string name = std::string(k.name) + "__ptxopt_remap";
  auto clone = ir::cloneFunction(k, name, "_pr", m);
  Emitter e{m, {}};
  auto logical = emitRemap(e, pv);
  std::map<std::string, std::string> names;
  for (int i = 0; i <= pv; ++i) names[kPos[i].index] = logical[i];
  replaceSpecialReads(*clone->body, names, m);
  insertPrologue(*clone, e, true);
  Variant v = variant(name, "remap");
  if (pv >= 3) v.maxLaunchThreads = UINT32_MAX;  // the linear thread index fits 32 bits
  requireExtent(v, pv);
  return ctx.addClone(k, std::move(clone), v, at);
}

// Split factors, in order of preference: blocks of 256 threads for large
// grids (at least 32768 blocks; measured faster than 1024-thread blocks
// there), blocks of 1024 (the usual hand-written shape, fewer blocks) for
// the rest, blocks of 256 where only 256 divides grid.x. docs/BENCHMARKS.md
// has the measurements behind this order.
constexpr std::pair<uint32_t, uint32_t> kSplits[] = {{256, 32768}, {1024, 0}, {256, 0}};

struct Plan {
  int pv = 0;           // position of the index that becomes fastest
  double before = 0, after = 0;
  size_t improved = 0, total = 0;
  unsigned sectorsBefore = 0, sectorsAfter = 0;  // of the heaviest improved access
};

}  // namespace

/// split (pv = %ctaid.x): like the swap, but the original grid.x is cut into
/// `split`-thread blocks along x (grid.x/split of them) and the original
/// block.x goes to grid.y, so it launches for any grid.x that `split`
/// divides: logical ctaid.x = %ctaid.x*split + %tid.x, logical tid.x =
/// %ctaid.y; one multiply-add. Consecutive hardware blocks cover consecutive
/// logical blocks, as in a coalesced kernel. `minGrid` > 0 restricts it to
/// grids of at least that many blocks.
std::pair<std::unique_ptr<ir::Function>, Variant> clone::makeSplitClone(ir::Module &m, const ir::Function &k, uint32_t split,
                                                                 uint32_t minGrid) {
  // One name for every minGrid: the code does not depend on it, and
  // PassContext::addClone lets the variants share the function.
  const std::string name = std::string(k.name) + "__ptxopt_split" + std::to_string(split);
  auto clone = ir::cloneFunction(k, name, "_pt" + std::to_string(split), m);
  Emitter e{m, {}};
  std::string cx = e.reg32(), tx = e.reg32(), lcta = e.reg32(), ltid = e.reg32(), lntid = e.reg32(),
              nx = e.reg32(), lnctaid = e.reg32(), lcy = e.reg32(), lncy = e.reg32();
  e.ins("mov.u32", {cx, "%ctaid.x"});
  e.ins("mov.u32", {tx, "%tid.x"});
  e.ins("mad.lo.u32", {lcta, cx, std::to_string(split), tx});
  e.ins("mov.u32", {ltid, "%ctaid.y"});
  e.ins("mov.u32", {lntid, "%nctaid.y"});
  e.ins("mov.u32", {nx, "%nctaid.x"});
  e.ins("mul.lo.u32", {lnctaid, nx, std::to_string(split)});
  e.ins("mov.u32", {lcy, "0"});
  e.ins("mov.u32", {lncy, "1"});
  replaceSpecialReads(*clone->body,
                      {{"%tid.x", ltid}, {"%ctaid.x", lcta}, {"%ntid.x", lntid}, {"%nctaid.x", lnctaid},
                       {"%ctaid.y", lcy}, {"%nctaid.y", lncy}},
                      m);
  dropBlockShapeDirectives(*clone);
  insertPrologue(*clone, e, false);
  Variant var = variant(name, "split");
  var.grid = {DimSource{DimSource::From::Grid, 0, split}, DimSource{DimSource::From::Block, 0},
              DimSource{DimSource::From::Grid, 2}};
  var.block[0] = DimSource::constant(split);
  var.gridMultiple[0] = split;
  var.gridMax[1] = 1;  // grid.y carries the original block.x
  var.gridMin[0] = minGrid;
  return {std::move(clone), std::move(var)};
}


void runCoalesce(PassContext &ctx) {
  ir::Module &m = ctx.module;
  for (ir::Function *k : clone::originalKernels(m)) {
    ctx.count("kernels");
    auto &fa = ctx.analyses.get(*k);
    const auto &comm = fa.communication();
    if (!comm.empty()) {
      const auto &c = comm.front();
      ctx.remark(Remark::Kind::Missed, *k, locationOf(m, ctx.analyses.get(*c.function), c.stmt),
                 "not transformed: threads communicate (" + std::string(analysis::kindName(c.kind)) + ": " + c.what +
                     (comm.size() > 1 ? "; " + std::to_string(comm.size() - 1) + " more" : std::string()) + ")");
      ctx.count("refused-communication");
      continue;
    }
    // `mov.v4.u32 {..}, %tid` reads the indices as a vector: not renamed.
    bool vectorRead = false;
    ir::forEachStmt(*k->body, [&](const ir::Stmt &st) {
      if (st.kind != ir::Stmt::Kind::Instruction) return;
      for (const auto &op : static_cast<const ir::Instruction &>(st).operands)
        analysis::forEachRegister(op, [&](const Operand &r) {
          vectorRead |= r.text == "%tid" || r.text == "%ntid" || r.text == "%ctaid" || r.text == "%nctaid";
        });
    });
    if (vectorRead) {
      ctx.remark(Remark::Kind::Missed, *k, "", "not transformed: it reads %tid/%ctaid/%ntid/%nctaid as vectors");
      continue;
    }
    std::set<const ir::Function *> seen;
    if (const ir::Function *callee = calleeReadingIndices(m, *k, seen)) {
      ctx.remark(Remark::Kind::Missed, *k, "",
                 "not transformed: it calls " + std::string(callee->name) +
                     ", which reads thread or block indices itself (a clone can rename them only in the kernel)");
      ctx.count("refused-callee-reads-indices");
      continue;
    }
    std::vector<const AccessInfo *> acc;
    const AccessInfo *unknown = nullptr;
    for (const auto &a : fa.accesses())
      if (isGlobal(a)) {
        acc.push_back(&a);
        if (a.verdict == AccessInfo::Verdict::Unknown && !unknown) unknown = &a;
      }
    if (acc.empty()) {
      ctx.remark(Remark::Kind::Note, *k, "", "no global memory accesses");
      continue;
    }
    if (unknown) {
      const auto *in = fa.cfg().instructions()[unknown->instr];
      ctx.remark(Remark::Kind::Missed, *k, locationOf(m, fa, in),
                 "not transformed: cannot analyse " + std::string(in->opcode) + " (" + unknown->reason + ")");
      ctx.count("refused-unknown-access");
      continue;
    }

    // Score every candidate fastest index.
    Plan best;
    std::vector<double> weights;
    for (const auto *a : acc) weights.push_back(weightOf(*a, fa));
    auto cost = [&](int pos) {
      double c = 0;
      for (size_t i = 0; i < acc.size(); ++i) c += weights[i] * sectorsIf(*acc[i], kPos[pos].index);
      return c;
    };
    double identity = cost(0);
    best.before = best.after = identity;
    for (int pos = 1; pos < 6; ++pos) {
      // Only an index the addresses use is a real dimension of the data: an
      // absent one may have extent 1 (a 1-D launch has %tid.y = 0).
      bool used = false;
      for (const auto *a : acc)
        for (const auto &st : a->strides) used |= st.var == kPos[pos].index;
      if (!used) continue;
      double c = cost(pos);
      if (c < best.after) {
        best.after = c;
        best.pv = pos;
      }
    }
    bool allCoalesced = std::all_of(acc.begin(), acc.end(), [](const AccessInfo *a) {
      return a->verdict == AccessInfo::Verdict::Coalesced || a->verdict == AccessInfo::Verdict::Uniform;
    });
    if (best.pv == 0 || best.after > 0.75 * identity) {
      if (allCoalesced) {
        ctx.remark(Remark::Kind::Note, *k, "", "already coalesced");
        ctx.count("already-coalesced");
      } else {
        ctx.remark(Remark::Kind::Missed, *k, locationOf(m, fa, fa.cfg().instructions()[acc[0]->instr]),
                   "not transformed: no exchange of %tid.x with another index reduces the memory sectors "
                   "enough (best: " + std::to_string(static_cast<long long>(best.after)) + " vs " +
                       std::to_string(static_cast<long long>(identity)) + " weighted sectors)");
        ctx.count("refused-no-gain");
      }
      continue;
    }
    const std::string v = kPos[best.pv].index;
    for (const auto *a : acc) {
      unsigned b0 = sectorsIf(*a, "%tid.x"), b1 = sectorsIf(*a, v);
      if (b1 < b0) {
        ++best.improved;
        if (b0 - b1 > best.sectorsBefore - best.sectorsAfter || !best.sectorsBefore) {
          best.sectorsBefore = b0;
          best.sectorsAfter = b1;
        }
      }
    }
    best.total = acc.size();

    int at = m.itemIndex(k);
    bool kept = addSwapClone(ctx, *k, best.pv, at);
    if (best.pv == 3)  // %ctaid.x
      for (auto [split, minGrid] : kSplits) kept |= addSplitClone(ctx, *k, split, minGrid, at);
    kept |= addRemapClone(ctx, *k, best.pv, at);
    if (!kept) continue;
    char buf[64];
    snprintf(buf, sizeof buf, "%.1fx", best.before / std::max(best.after, 1.0));
    ctx.remark(Remark::Kind::Applied, *k, locationOf(m, fa, fa.cfg().instructions()[acc[0]->instr]),
               "exchanged %tid.x with " + v + ": " + std::to_string(best.improved) + " of " +
                   std::to_string(best.total) + " global accesses improve (sectors per warp request " +
                   std::to_string(best.sectorsBefore) + " -> " + std::to_string(best.sectorsAfter) +
                   "; weighted sectors " + buf + " fewer); clones: swap" + (best.pv == 3 ? ", split (256 large, 1024, 256)" : "") +
                   ", remap" +
                   (kPos[best.pv].from == DimSource::From::Block
                        ? "; launch condition: blocks of more than 32 threads (with fewer, each warp holds a "
                          "whole block: the same addresses either way)"
                        : ""));
    ctx.count("kernels-transformed");
  }
}

}  // namespace ptxopt::transforms
