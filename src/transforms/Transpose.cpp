// transpose: stage a transpose through a shared-memory tile, on a clone.
//
// What: a kernel of 2-D blocks whose global load is unit-stride along one
// thread index and whose global store is unit-stride along the other (the
// naive transpose `out[x*H + y] = in[y*W + x]`, a 90-degree rotation, the
// same with per-element work: a scale, a type conversion, `A^T + B`) gets
// clones (per block shape, a tiled one, below, and this one-element one,
// with the same launch) in which each block runs its threads twice:
//   phase 1 - each thread runs the kernel as the logical thread for which
//             the load is coalesced (consecutive hardware %tid.x on
//             consecutive addresses), up to the load, and puts the loaded
//             element into a shared tile at [logical tid.y][logical tid.x]
//             (rows padded against bank conflicts, below);
//   bar.sync 0;
//   phase 2 - each thread runs the whole kernel as the logical thread for
//             which the store is coalesced, the load replaced by a read of
//             that logical thread's element from the tile.
// The two mappings are the identity and the exchange of %tid.x and %tid.y
// within the block: for a square block (ty, tx), for bx x by blocks from the
// linear index t = ty*bx + tx: (t / by, t % by), so that consecutive threads
// take consecutive logical tid.y. One clone per shape: 32 x 32, 16 x 16,
// 32 x 8 and 8 x 32 (launch conditions blockMin = blockMax = (bx, by, 1));
// the tile's row pitch is chosen among bx .. bx+32 elements for the fewest
// bank conflicts of both phases' warps (33 floats for 32 x 32, 18 for
// 16 x 16, 36 for 32 x 8). Every
// logical thread runs the original's code in both phases, its bounds tests
// included, so edges (sizes not multiples of the tile) are exact, and its
// per-element work runs in the same order as in the original: bit-identical.
// Why it pays: with one element per thread, the naive kernel's store (or
// load) touches 32 sectors per warp request; both sides are coalesced in
// the clone. Issue 30 measured the hand-written tiled kernel at 3.16x on an
// H200 (8192 x 8192 float); the clone ran 1.9-3.9x there (H200, 2026-11-28,
// scripts/bench/transpose.sh), and 0.96-1.26x at 256 x 256, so small
// transposes (under the floor, minLaunchThreads = 2^20) run the original.
// Algorithm (the analysis in TransposePlan.cpp, the clones here and in
// TransposeTiled.cpp): the affine analysis gives each global access's byte stride
// along %tid.x and %tid.y. The store's unit-stride index (+-w bytes) is
// phase 2's fastest; the tiled load must be unit-stride along the other one
// and strided (>= 2x the ideal sectors, or symbolic) along the store's
// (several such loads, each from an array of its own and in one basic
// block, `(A + B)^T`, get a tile each, one after the other in one shared
// array: each logical thread stages its own elements, nothing is shared);
// every other global load must be coalesced or uniform under phase 2's
// mapping. Phase 1 is a copy of the body with %tid.x/%tid.y renamed, the
// load followed by st.shared and a branch to the barrier, every return a
// branch to the barrier, the store removed, then dead code (global loads
// included) removed; phase 2 is a copy with the other renaming.
// Several stores (the CUDA samples' naive transpose: 32 x 8 threads, a
// loop over the rows y, y+8, y+16, y+24 that nvcc unrolls into four
// load-store pairs): taken when all go through one pointer, unit-stride
// along the same index, with one tiled load per store and array read;
// each load gets a tile of its own, phase 1 drops every store (the arrays
// are disjoint, so their order against the loads does not matter), phase
// 2 runs the thread's stores in order. One-element clones only (a thread
// handles several elements already), floor 2^16 threads (measured).
// Legal because: nothing communicates (no shared memory, barriers, atomics,
// warp operations, fences, calls); no loops; one plain global store that
// never runs before the tiled load (not necessarily after it on every
// path: a zero-padding transpose stores a constant where the load's guard
// fails, phase 2 reads the tile only where it reaches the load; with
// several stores, the tiles hold every load phase 2 reads), through a different pointer
// parameter (manifest condition disjointParams, one pair per tiled array:
// they lie in different allocations), so the early loads read what the
// original reads; no branch
// that may lead to the tiled load depends on memory, so a logical thread takes the
// same path in both phases up to it and the tile entry phase 2 reads is the
// one its phase-1 run wrote (a branch the load cannot follow may test the loaded
// value, `if (v != 0) out[..] = v`: phase 1 stops at the load, phase 2 tests
// the same value from the tile); every register is written before it is
// read, so phase 1's values never reach phase 2. Nested `{ }` scopes without
// declarations (cuda_fp16.h's inline asm: `{ cvt.rn.f16.f32 %rs1, %f1; }`)
// are flattened into the copies (cloneBody).
// Refuses (remark, no clone), for kernels with an uncoalesced global access:
// communication, calls, loops, nested scopes with declarations or labels,
// instructions other than arithmetic, loads, the one store and branches, a
// branch on memory not after the tiled load, accesses the analysis cannot
// express, no store or several that are not the unrolled pairs above, no
// load or two loads of one array to tile
// (threads that read their neighbours), another load not coalesced after
// the exchange,
// the tiled load or another load through the stored pointer (in place, or
// reading the element it writes: out += in^T), guarded accesses,
// elements other than 1, 2, 4, 8 or 16 bytes (a vector load, float4, is one
// 16-byte element). Kernels coalesce cloned get the tiled clones only, ahead
// of coalesce's in the manifest (they measured faster than the swap in all
// fused shapes and sizes timed, 8 x 32 blocks since the eighteenth
// session), without the one-element ones.
// Several elements per thread: before each shape's one-element clone (the
// option transpose-elements, default 4,1), a tiled clone runs each 32 x 32
// tile of logical threads with 32 x 8 threads, four each, as the
// hand-written tiled kernel does (TransposeTiled.cpp, its launch changed).
// Kernels reading another special register (%laneid, %clock...) are
// refused: a logical thread would see the hardware thread's value.
// A block index for the second axis: 1-D blocks whose grid walks the
// other axis (one block row per matrix row; NCHW -> NHWC with the channel
// in blockIdx.y or .z) have no thread index to exchange; when the store is
// unit-stride along %ctaid.y (.z) and strided along %tid.x and the tiled
// load the reverse (or the gather form), blockIndexExchange sets
// Plan::index2 and the tiled clones (TransposeTiled.cpp) take 32 values of
// that index a tile, one clone per block size of kBlockAxisSizes.
// 1-D launches that split the flat index with `/` and `%` by parameters (one,
// two or three splits: the flat form, TransposeFlat.cpp): checked and planned as the 2-D
// kernel they are (runFlat), the tiled clone's blocks looping over tiles.
// Kernels written as grid-stride loops (GridStride.cpp): the
// copy with each loop run once goes through the same (runKernel), every
// variant asking the launch to run each loop once (gridStrideOnce); a
// single flat loop whose iterations are independent also gets the loop
// clone (runFlat, `<k>__ptxopt_tiledloop`), for launches whose threads
// loop several times.
// Not done: block shapes outside kShapes and kTiledShapes (4 x 32, 256 x 2,
// 64 x 16: they run the original), wider words for
// 1- and 2-byte elements. (Permutes whose channels loop inside a thread,
// `for (c < C) out[c*HW + p] = in[p*C + c]`, are row walks with a store:
// rowwalk's staged clone, docs/PASSES.md "Loops that also store".)
// (NCHW <-> NHWC with one element per thread, the image in %ctaid.z, is the
// same pattern and is handled.)
#include <algorithm>
#include <set>

#include "Pass.h"
#include "Transpose.h"

namespace ptxopt::transforms {

using analysis::AccessInfo;
using ir::Operand;
using namespace transpose;
using namespace clone;

namespace {

/// The clone for bx x by blocks.
std::unique_ptr<ir::Function> buildClone(ir::Module &m, const ir::Function &k, const Plan &p, const Shape &sh,
                                         const std::string &name) {
  Emitter e{m, {}};
  e.prefix = "%ptxopt_tp";
  const std::string tx = e.reg32(), ty = e.reg32(), base = e.reg32(), a1 = e.reg32(), a2 = e.reg32();
  const std::string tile = "__ptxopt_tile_" + name, end = "$L__ptxopt_tp_phase1_end";
  // The exchanged mapping: (ty, tx) for a square block, else from the
  // linear index t = ty*bx + tx: (t / by, t % by) (by a power of two).
  std::string ex = ty, ey = tx;
  e.ins("mov.u32", {tx, "%tid.x"});
  e.ins("mov.u32", {ty, "%tid.y"});
  if (sh.bx != sh.by) {
    const std::string t = e.reg32();
    ex = e.reg32();
    ey = e.reg32();
    unsigned log2by = 0;
    while ((1u << log2by) < sh.by) ++log2by;
    e.ins("mad.lo.u32", {t, ty, std::to_string(sh.bx), tx});
    e.ins("shr.u32", {ex, t, std::to_string(log2by)});
    e.ins("and.b32", {ey, t, std::to_string(sh.by - 1)});
  }
  // Phase 1 runs the mapping under which the load is coalesced, phase 2
  // the one under which the store is.
  const std::string l1x = p.storeOnY ? tx : ex, l1y = p.storeOnY ? ty : ey;
  const std::string l2x = p.storeOnY ? ex : tx, l2y = p.storeOnY ? ey : ty;
  const unsigned pitchElems = tilePitch(sh, p.bytes);
  const std::string pitch = std::to_string(pitchElems), w = std::to_string(p.bytes);

  const uint64_t tileBytes = uint64_t(sh.by) * pitchElems * p.bytes;

  // ---- phase 1
  auto phase1 = phase1Copy(m, k, p, {{"%tid.x", l1x}, {"%tid.y", l1y}}, a1, end, "_tp1", tileBytes);

  // ---- phase 2: the kernel, the loads from the tiles
  auto clone = cloneBody(k, name, "_tp", m);
  replaceSpecialReads(*clone->body, {{"%tid.x", l2x}, {"%tid.y", l2y}}, m);
  auto &b2 = clone->body->body;
  loadsFromTiles(m, *clone, p, a2, tileBytes);

  // ---- prologue: the tile addresses of both mappings
  e.ins("mov.u32", {base, tile});
  e.ins("mad.lo.u32", {a1, l1y, pitch, l1x});
  e.ins("mad.lo.u32", {a1, a1, w, base});
  e.ins("mad.lo.u32", {a2, l2y, pitch, l2x});
  e.ins("mad.lo.u32", {a2, a2, w, base});
  std::vector<std::unique_ptr<ir::Stmt>> pre;
  pre.push_back(e.decl(".b32", e.prefix + "r", e.r32));
  for (auto &st : e.out) pre.push_back(std::move(st));
  for (auto &st : phase1) pre.push_back(std::move(st));
  e.out.clear();
  e.label(end);
  e.ins("bar.sync", {"0"});
  for (auto &st : e.out) pre.push_back(std::move(st));
  b2.insert(b2.begin() + static_cast<long>(prologueAt(*clone->body)), std::make_move_iterator(pre.begin()),
            std::make_move_iterator(pre.end()));
  declareTile(m, *clone, tile, tileBytes * p.loads.size());
  return clone;
}

Variant makeVariant(const std::string &name, const Plan &p, const Shape &sh) {
  Variant v;
  v.name = name;
  v.pass = "transpose";
  v.kind = "transpose";
  v.blockMin = {sh.bx, sh.by, 1};
  v.blockMax = {sh.bx, sh.by, 1};
  v.allowDynamicShared = false;
  v.minLaunchThreads = p.stores.size() > 1 ? kMinLaunchThreadsSeveral : kMinLaunchThreads;
  v.disjointParams = disjointPairs(p);
  return v;
}

}  // namespace

namespace {

/// Why a kernel is not staged: the remark's text, the statement it points
/// at (or null) and the statistic it counts.
struct Refusal {
  std::string why;
  const ir::Stmt *at = nullptr;
  const char *stat = "";
};

/// The pass's checks on kernel `k` (an original, or the flat form's 2-D
/// kernel) and its plan: no communication, instructions the clones may copy
/// twice, the tiled loads and the store, no branch on memory before the
/// tiled loads. The plan (r.at: the statement its remark points at), or
/// nullopt with `r` set.
std::optional<Plan> checkedPlan(const ir::Function &k, analysis::FunctionAnalyses &fa, Refusal &r) {
  if (const auto &comm = fa.communication(); !comm.empty()) {
    const auto &c = comm.front();
    r = {"threads communicate (" + std::string(analysis::kindName(c.kind)) + ": " + c.what + ")",
         c.function == &k ? c.stmt : nullptr, "refused-communication"};
    return std::nullopt;
  }
  std::vector<MemoryBranch> memBranches;
  if (auto why = checkInstructions(k, fa, memBranches)) {
    r = {*why, nullptr, "refused-instructions"};
    return std::nullopt;
  }
  std::string why;
  uint32_t at = 0;
  auto plan = planKernel(k, fa, why, at);
  // A branch on memory that may lead to a tiled load (or no plan): a
  // logical thread might take another path to it in phase 2 than in phase
  // 1. One the loads cannot follow (`if (v != 0) out[..] = v`, after the
  // load or beside it) does not steer phase 1, which stops at the load.
  auto early = std::find_if(memBranches.begin(), memBranches.end(), [&](const MemoryBranch &b) {
    return !plan || std::any_of(plan->loads.begin(), plan->loads.end(),
                                [&](uint32_t l) { return mayRunAfter(fa, b.instr, l); });
  });
  if (early != memBranches.end()) {
    r = {early->why, nullptr, "refused-instructions"};
    return std::nullopt;
  }
  // The statement planKernel stopped at: its refusal's, or (a plan) the one the applied remark points at.
  r = {plan ? "" : why, at < fa.cfg().instructions().size() ? fa.cfg().instructions()[at] : nullptr, "refused-pattern"};
  return plan;
}

/// Whether an earlier pass (coalesce) made clones of kernel `k`.
bool clonedBefore(PassContext &ctx, const ir::Function &k) {
  auto b = ctx.baseOf(k);
  return b && b->variantCount > 0;
}

/// `v` with the grid-stride conditions `once`.
Variant withOnce(Variant v, const std::vector<Variant::GridStrideOnce> &once) {
  v.gridStrideOnce = once;
  return v;
}

/// The remark's words for grid-stride launch conditions (none: "").
std::string onceText(const std::vector<Variant::GridStrideOnce> &once) {
  if (once.empty()) return "";
  std::string axes;
  for (const auto &c : once) axes += (axes.empty() ? "" : " and ") + std::string(1, char('x' + c.dim));
  return "; a grid-stride loop: run once per thread, where the launch has a thread per element along " + axes +
         " (fewer than 2^30)";
}

/// The remark's words for the flat clone's conditions on its radices.
std::string limits(const FlatForm &flat) {
  auto atLeast = [](const Radix &r, uint32_t most) {
    std::string t;
    for (const auto &n : r.names) t += (t.empty() ? "" : ", ") + n;
    return t + " >= " + std::to_string(factorFloor(r, most));
  };
  std::string t = atLeast(flat.w, 32);
  t += flat.twoSplits() ? ", " + atLeast(flat.w2, 32) : ", 32 rows of it or more";
  if (flat.threeSplits()) t += ", " + atLeast(flat.wLo, 1);
  return t;
}

/// A kernel in the flat form (TransposeFlat.cpp): the checks and the plan
/// on its 2-D form, then the tiled clone with a variant per block size.
/// `k` is the kernel the clones are named after and remarked on; `code`,
/// analysed by `fa`, the one they are made from: `k`, or `k` without its
/// grid-stride loops (GridStride.cpp), whose launch conditions
/// `once` every variant takes, or either with its 64-bit divisions' fast
/// paths folded (TransposeWide.cpp); `original` the code the clone's thin
/// tiles run (`code` but for the folding); `independent`: the loops'
/// iterations are (GridStride::independent), and a grid-stride loop along x
/// gets the loop clone too.
void runFlat(PassContext &ctx, const ir::Function &k, const ir::Function &code, analysis::FunctionAnalyses &fa,
             FlatForm flat, const std::vector<Variant::GridStrideOnce> &once, const ir::Function &original,
             bool independent) {
  flat.original = &original;
  ir::Module &m = ctx.module;
  const ir::Stmt *at = fa.cfg().instructions()[flat.mad];
  const std::string what = "a 1-D launch indexing with / and % (" + flat.index + " by " + flat.w.text() + ")";
  auto refuse = [&](const std::string &why) {
    ctx.remark(Remark::Kind::Missed, k, locationOf(m, fa, at), "not transformed: " + what + ": " + why);
    ctx.count("refused-flat");
  };
  // The 2-D form's refusals name %tid.x and %tid.y, which the user's 1-D
  // kernel does not have: said in the flat index's own terms instead.
  auto inFlatTerms = [&](std::string why) {
    const std::string q = flat.twoSplits() ? "M" : "Q";
    bool named = false;
    for (const auto &[from, to] : {std::pair<std::string, std::string>{"%tid.x", "R"}, {"%tid.y", q}})
      for (size_t p; (p = why.find(from)) != std::string::npos; named = true) why.replace(p, from.size(), to);
    if (!named) return why;
    const std::string w = flat.w.text(), w2 = flat.w2.text();
    return why + " (R: " + flat.index + " % " + w + "; " +
           (flat.threeSplits() ? "M: digit D" + std::to_string(flat.partner)
            : flat.twoSplits() ? "M: (" + flat.index + " / " + w + ") % " + w2 + ", the batch its quotient by " + w2 +
                                     ": a store along the batch, or along any digit but R and M, is not tiled"
                               : "Q: " + flat.index + " / " + w) +
           ")";
  };
  if (clonedBefore(ctx, k)) return;  // an earlier pass cloned it
  // Three splits: the tile's second axis on digit 2 (NCHW -> NHWC read in
  // order: w, h, c, the load along w, the store along c), else digit 1
  // (NHWC written in order: c, w, h, the store along c, the load along w).
  std::unique_ptr<ir::Function> g;
  std::optional<Plan> plan;
  Refusal r;
  bool uncoalesced = false;
  std::string unknown;  // an access of the 2-D form the analysis cannot express
  for (int partner : flat.threeSplits() ? std::vector<int>{2, 1} : std::vector<int>{0}) {
    if (partner) flat.setPartner(partner);
    g = flatAs2D(m, code, flat);
    analysis::FunctionAnalyses ga(m, *g);
    if (!hasUncoalesced(ga)) {  // coalesced as it is (a broadcast `b[i % w]`, a stencil): no remark
      if (const AccessInfo *a = firstUnknownGlobal(ga); a && unknown.empty())
        unknown = std::string(a->mem.kind == analysis::MemAccess::Kind::Store ? "a store" : "a load") +
                  " of its 2-D form (" + flat.index + " = Q*" + flat.w.text() + " + R) is not affine in R and Q: " +
                  a->reason;
      continue;
    }
    uncoalesced = true;
    Refusal why;
    if ((plan = checkedPlan(*g, ga, why))) {
      // A compile-time radix is checked here, as the conditions check a parameter.
      for (auto [x, most] : {std::pair{&flat.w, 32u}, {&flat.w2, 32u}, {&flat.wLo, 1u}})
        if (x->constant && *x->constant < most && why.why.empty())
          why.why = "the radix " + x->names[0] + " is under " + std::to_string(most) +
                    " (a tile of fewer columns or channels leaves most of its lanes idle)";
      if (why.why.empty()) break;
      plan.reset();
    }
    if (r.why.empty()) r = why;
  }
  if (!uncoalesced) {
    if (!unknown.empty()) refuse(unknown);  // else nothing to stage
    return;
  }
  if (!plan) {  // the remark points at the original's index (the 2-D kernel's statements are not the user's)
    refuse(inFlatTerms(r.why));
    return;
  }
  if (plan->stores.size() != 1) {
    refuse(std::to_string(plan->stores.size()) + " stores (the flat form's clone takes one)");
    return;
  }
  const auto &elements = ctx.options.transpose.elements;
  if (std::count(elements.begin(), elements.end(), 4u) == 0) {
    refuse("its clone is the tiled one (transpose-elements has no 4)");
    return;
  }
  const std::string name = std::string(k.name) + "__ptxopt_tiledflat";
  int pos = m.itemIndex(&k);
  std::string kept;
  for (unsigned b : kFlatBlocks) {
    Variant v = makeFlatVariant(name, *plan, flat, b);
    v.gridStrideOnce = once;
    if (ctx.addClone(k, buildTiledClone(m, *g, *plan, Shape{32, 32}, name, &flat), v, pos))
      kept += (kept.empty() ? "" : ", ") + std::to_string(b);
  }
  if (kept.empty()) return;
  // A grid-stride loop along x (one, the flat index's): a second clone for
  // launches whose threads loop several times (a grid of a few blocks per
  // SM), T the loop's bound (makeFlatLoopVariant).
  std::string loopText;
  if (independent && once.size() == 1 && once[0].dim == 0) {
    FlatForm lf = flat;
    lf.bound = boundRadix(k, once[0]);
    const std::string loopName = std::string(k.name) + "__ptxopt_tiledloop";
    for (unsigned b : kFlatBlocks)
      if (ctx.addClone(k, buildTiledClone(m, *g, *plan, Shape{32, 32}, loopName, &lf),
                       makeFlatLoopVariant(loopName, *plan, lf, b, once[0]), pos))
        loopText = "; where the threads loop several times, a clone whose blocks loop over the bound's tiles "
                   "(under 2^30 elements)";
  }
  const std::string mid = flat.twoSplits() ? "M" : "Q";
  auto rx = [](const Radix &r) { return r.params.size() > 1 ? "(" + r.text() + ")" : r.text(); };
  ctx.remark(Remark::Kind::Applied, k, locationOf(m, fa, at),
             what +
                 (flat.threeSplits()
                      ? ", written as a batched 2-D transpose (" + flat.index + " = ((D3*" + rx(flat.radix[2]) + " + D2)*" +
                            rx(flat.radix[1]) + " + D1)*" + rx(flat.radix[0]) + " + R; M = D" +
                            std::to_string(flat.partner) + ", the batch D" + std::to_string(3 - flat.partner) + " and D3)"
                  : flat.twoSplits()
                      ? ", written as a batched 2-D transpose (" + flat.index + " = (B*" + rx(flat.w2) + " + M)*" +
                            rx(flat.w) + " + R; R its remainder by " + rx(flat.w) + ", M the quotient's by " + rx(flat.w2) +
                            ", B the batch)"
                      : ", written as a 2-D transpose (" + flat.index + " = Q*" + rx(flat.w) +
                            " + R; its division Q, its remainder R)") +
                 ": the load is unit-stride along " + (plan->storeOnY ? "R" : mid) + ", the store along " +
                 (plan->storeOnY ? mid : "R") +
                 "; staged through a shared-memory tile, 32 x 32 tiles, 32 x 8 threads, four elements each, the "
                 "blocks looping over the tiles; clone for blocks of " + kept + " threads, " + limits(flat) +
                 ", launches of " + (flat.twoSplits() && !plan->storeOnY ? "2^22" : "2^20") +  // makeFlatVariant's floor
                 " threads or more and under 2^31" + onceText(once) + loopText);
  ctx.count("kernels-transformed");
  ctx.count("kernels-flat");
}

/// Whether `fa`'s kernel may be a grid-stride loop with a 64-bit counter
/// (unloopCounted): loops, a %nctaid read and a 64-bit division.
bool countedCandidate(analysis::FunctionAnalyses &fa) {
  if (fa.loops().loops().empty()) return false;
  bool nctaid = false, div64 = false;
  for (const ir::Instruction *in : fa.cfg().instructions()) {
    if (auto mv = specialMov(*in); mv && mv->second.starts_with("%nctaid.")) nctaid = true;
    if (in->base() == "div" && in->opcode.ends_with("64")) div64 = true;
  }
  return nctaid && div64;
}

/// One kernel: `k` the original (clones named after it, remarks on it),
/// `code` what the clones are made from (`k`, or `k` without its grid-stride
/// loops, whose conditions `once` each variant takes; `independent` as
/// runFlat's), `fa` its analyses.
void runKernel(PassContext &ctx, const ir::Function &k, const ir::Function &code, analysis::FunctionAnalyses &fa,
               const std::vector<Variant::GridStrideOnce> &once, bool independent = false) {
  ir::Module &m = ctx.module;
  std::string flatWhy;
  auto flat = findFlatForm(code, fa, flatWhy);
  if (flat && !flat->wide) {
    runFlat(ctx, k, code, fa, *flat, once, code, independent);
    return;
  }
  // The form looked for again on a copy of `code` with nvcc's divisions
  // folded (null: nothing folded): true where it was found there and run,
  // else flat and flatWhy are the copy's.
  auto onCopy = [&](std::unique_ptr<ir::Function> folded) {
    if (!folded) return false;
    analysis::FunctionAnalyses ffa(m, *folded);
    if (!(flat = findFlatForm(*folded, ffa, flatWhy))) return false;
    runFlat(ctx, k, *folded, ffa, *flat, once, code, independent);
    return true;
  };
  // A 64-bit index (or a refusal): where nvcc divided through its fast
  // paths, the form is looked for again on the copy with them folded.
  if ((flat || !flatWhy.empty()) && onCopy(foldDivFastPaths(m, code))) return;
  // Compile-time radices: nvcc's shifts, masks and multiplications by
  // constants written as the divisions they are, on a copy (a kernel
  // without loops: a loop's unrolled remainder `n & 3` is no radix, and the
  // flat form's checks refuse loops anyway).
  if (!flat && flatWhy.empty() && fa.loops().loops().empty() &&
      onCopy(foldConstDivisions(m, code, flatIndexOf(code, fa))))
    return;
  if (flat) {
    runFlat(ctx, k, code, fa, *flat, once, code, independent);
    return;
  }
  if (!flatWhy.empty()) {
    ctx.remark(Remark::Kind::Missed, k, "", "not transformed: a 1-D launch indexing with / and %: " + flatWhy);
    ctx.count("refused-flat");
    return;
  }
  if (!hasUncoalesced(fa)) return;
  // Coalesce cloned it (a fused transpose whose other accesses follow the
  // store, `out = A^T + B`, u8 -> float: the swap helps most of them):
  // only the tiled clones are added, preferred over coalesce's (measured
  // faster in every one of 24 shapes and sizes, 1.15-3.07x, in 16 x 16,
  // 32 x 32 and 32 x 8 blocks, in 32 of 32 in 32 x 4, 16 x 8, 8 x 8 and
  // 32 x 16, 1.13-4.82x, in 8 of 8 in 8 x 32, 1.10-2.35x, and in 8 of 8 in
  // 16 x 4, 2.17-4.85x: docs/PASSES.md), so a launch they do not fit still
  // runs the swap.
  const bool afterCoalesce = clonedBefore(ctx, k);
  // (Where coalesce cloned the kernel, a refusal is no news: counted only.)
  auto refuse = [&](const std::string &why, const ir::Stmt *at, const char *stat) {
    if (!afterCoalesce) ctx.remark(Remark::Kind::Missed, k, locationOf(m, fa, at), "not transformed: " + why);
    ctx.count(afterCoalesce ? "skipped-cloned" : stat);
  };
  Refusal r;
  auto plan = checkedPlan(code, fa, r);
  if (!plan) {
    refuse(r.why, r.at, r.stat);
    return;
  }
  const ir::Stmt *atStmt = r.at;
  int pos = m.itemIndex(&k);
  std::string kept, tiledWhy = k.params ? "" : "it has no parameter list";
  // Several stores (an unrolled loop of load-store pairs): each thread
  // handles several elements already, as the tiled clone's do; the
  // one-element clones are the whole transform (not a miss).
  const bool tiledOk = tiledWhy.empty() && plan->stores.size() == 1;
  const auto &elements = ctx.options.transpose.elements;
  const bool wantTiled = std::count(elements.begin(), elements.end(), 4u) > 0;
  if (afterCoalesce && (!wantTiled || !tiledOk)) {  // only tiled clones would be added
    ctx.count("skipped-cloned");
    return;
  }
  bool tiled = false;
  size_t before = 0;  // after coalesce: the tiled variants go first, in shape order
  // The block shapes: 2-D ones, or with a block index for the second
  // axis 1-D blocks (tiled clones only: the one-element clone exchanges
  // thread indices within a block).
  std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
  shapes.insert(shapes.end(), std::begin(kTiledShapes), std::end(kTiledShapes));
  const bool blockAxis = plan->index2 != "%tid.y";
  if (blockAxis) {
    shapes.clear();
    for (unsigned bx : kBlockAxisSizes) shapes.push_back(Shape{bx, 1});
  }
  for (const Shape &sh : shapes) {
    // After coalesce too: the tiled clone measured faster than the swap in
    // every shape (H200, docs/BENCHMARKS.md: 16 x 16, 32 x 32, 32 x 8
    // 1.15-3.07x; the tiled-only shapes 1.13-4.82x; 8 x 32 1.10-2.35x).
    bool any = false;
    for (unsigned elems : elements) {
      if (elems == 4 && tiledOk) {
        std::string name = std::string(k.name) + "__ptxopt_tiled" + sh.suffix();
        bool added = ctx.addClone(k, buildTiledClone(m, code, *plan, sh, name),
                                  withOnce(makeTiledVariant(name, *plan, sh), once), pos,
                                  afterCoalesce ? std::optional<size_t>(before) : std::nullopt);
        before += added;
        any |= added;
        tiled |= added;
      } else if (elems == 1 && !sh.tiledOnly && !afterCoalesce && !blockAxis && !(any && sh.bx == 32 && sh.by == 32)) {  // after tiled32 (same conditions): never runs
        std::string name = std::string(k.name) + "__ptxopt_transpose" + sh.suffix();
        any |= ctx.addClone(k, buildClone(m, code, *plan, sh, name), withOnce(makeVariant(name, *plan, sh), once), pos);
      }
    }
    if (any) kept += (kept.empty() ? "" : ", ") + std::to_string(sh.bx) + " x " + std::to_string(sh.by);
  }
  if (!tiledWhy.empty() && wantTiled)
    ctx.remark(Remark::Kind::Missed, k, locationOf(m, fa, atStmt), "no tiled clone (four elements per thread): " + tiledWhy);
  if (kept.empty()) return;
  ctx.remark(Remark::Kind::Applied, k, locationOf(m, fa, atStmt),
             (plan->loads.size() == 1 ? std::string("staged through a shared-memory tile: the load is unit-stride along ")
                                       : "staged through shared-memory tiles: the " + std::to_string(plan->loads.size()) +
                                             " loads (a tile each) are unit-stride along ") +
                 std::string(plan->storeOnY ? "%tid.x" : plan->index2) +
                 (plan->stores.size() == 1 ? ", the store along " : ", the " + std::to_string(plan->stores.size()) + " stores along ") +
                 (plan->storeOnY ? plan->index2 : "%tid.x") + " (" + std::to_string(plan->sectorsBefore) +
                 " sectors per warp request on the strided side before); clones for blocks of " + kept +
                 (tiled ? " (tiled: 32 x 32 tiles, 32 x 8 threads, four elements each)" : "") +
                 (blockAxis ? " and at least 32 blocks along " + plan->index2 : "") +
                 (plan->stores.size() > 1 ? ", launches of 2^16 threads or more" : ", launches of 2^20 threads or more") +
                 (afterCoalesce ? "; preferred over coalesce's clones, which run where these do not fit" : "") +
                 onceText(once));
  ctx.count("kernels-transformed");
}

}  // namespace

void runTranspose(PassContext &ctx) {
  ir::Module &m = ctx.module;
  for (ir::Function *k : clone::originalKernels(m)) {
    ctx.count("kernels");
    auto &fa = ctx.analyses.get(*k);
    if (!k->body) continue;
    std::string loopWhy;
    auto gs = unloopGridStride(m, *k, fa, loopWhy);
    if (!gs && countedCandidate(fa)) {  // a 64-bit counter: a counted loop
      std::string countedWhy;
      if ((gs = unloopCounted(m, *k, countedWhy))) loopWhy.clear();
      else if (!countedWhy.empty()) loopWhy = countedWhy;
    }
    if (gs) {
      analysis::FunctionAnalyses ga(m, *gs->kernel);
      runKernel(ctx, *k, *gs->kernel, ga, gs->conds, gs->independent);
      ctx.count("kernels-gridstride");
      continue;
    }
    if (!loopWhy.empty()) {  // a grid-stride kernel the pass does not take (the loops would refuse it anyway)
      // A remark where the pass would have had something to take: an
      // uncoalesced access, or a division (the flat form's index).
      const auto &ins = fa.cfg().instructions();
      const bool divides = std::any_of(ins.begin(), ins.end(), [](const ir::Instruction *in) {
        return in->base() == "div" || in->base() == "rem";
      });
      if (!divides && !hasUncoalesced(fa)) continue;
      if (!clonedBefore(ctx, *k)) ctx.remark(Remark::Kind::Missed, *k, "", "not transformed: it has loops (a grid-stride loop is taken; here " + loopWhy + ")");
      ctx.count("refused-gridstride");
      continue;
    }
    runKernel(ctx, *k, *k, fa, {});
  }
}

}  // namespace ptxopt::transforms
