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
//    the loop counter (the row; 1 to 32 bytes per iteration, either way:
//    rows walked downwards split as well), so a warp reads 32 consecutive
//    pieces of one row; a run of four 4-byte (two 8-byte) loads of one iteration
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
// Exactness: integer add/sub/mul.lo/mad.lo (wrapping arithmetic is associative
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
// launches that fail the 16-byte conditions. The 32-lane clones run only
// for rows of 256 elements or more (minParams on the integer parameters the
// trip count comes from); for shorter rows, clones of G = 8 and 4 lanes per
// logical thread (option rowwalk-lanes; grid route, grid.x*G): a warp then
// holds 32/G logical threads, so shuffles and warp barriers name only the G
// lanes of their own (kLaneMinRow: measured, rows under 32 run the original).
// A row length read from a field of a struct argument (`p.m`) gets its
// floor on the field (minParams with offset and bytes; Planner::structField).
// Pipeline: -O2 runs rowwalk before pack, which packs the regacc clone
// (2.58x on the H100 for tmp in memory, bit-identical; docs/BENCHMARKS.md).
// Nested { } scopes (cuda_fp16.h's inline asm) are flattened in a copy of
// the kernel that the pass plans and clones from (clone::flattenScopes);
// the original keeps them. So are rotated loops (a constant trip count not
// a multiple of nvcc's unroll factor: entered in the middle, left before
// the back edge): the copy peels the loop's first part and makes it one
// block (clone::peelRotatedLoops) when the kernel was refused for a loop of
// several blocks, and loops left by a jump latch (`@p bra exit; bra.uni
// head`: a size_t lower triangle's remainder) become one block
// (clone::foldJumpLatches); the staged planner reads row loads after the register's
// update as one step on, and counters updated through one link register.
// When no loop of a kernel gets the staged clone, a second try takes loops
// nvcc did not unroll (`#pragma unroll 1`, `while (p < end)`: one or two
// 4- or 8-byte elements an iteration, an `iv < bound` latch; per-lane form).
// Rows a constant number of bytes apart that is not a multiple of 16 (no
// warp's 32 rows all aligned) get the unaligned staged clone only.
// Refuses (remark): communication, nested scopes with labels, scopes or
// calls, no single-block loop,
// latch/exit shapes it does not know, loop-carried values other than the
// above, floating-point accumulators without `reassociate`, a split loop
// that loads through the parameter it stores through, unknown bases.
// 3. Staged ('staged' clone, one warp per block, exact): each warp copies
//    tiles of its 32 rows into shared memory with 16-byte copies (plain loads
//    and shared stores; cp.async with rowwalk-staged-copy=async), several
//    in flight, and each lane reads its own row in order; a warp whose
//    lanes are not all in the loop (rows not a multiple of 32) copies each
//    lane's own row alone (the solo form); warps whose lanes differ in trip
//    count, or whose rows are unaligned, run the original loop. A second
//    clone, `_unaligned`, takes launches whose rows do not start 16-byte
//    aligned (a row length that is no multiple of 16 bytes): the tiles are
//    copied from the boundary below each row, one piece more, and each lane
//    reads its row at its offset. Rows of 8- and 16-bit elements
//    (nvcc's 4 or 8 bytes per iteration) read 4 elements of the tile at a
//    time (RowWalkShort.cpp). A loop whose trip count is not warp-uniform
//    (triangular: `k <= i`) gets the per-lane form instead: each row staged
//    as far as its lane walks it, also through an `iv < bound` latch and
//    rows the access analysis calls unknown (the upper triangle after nvcc's
//    peeled remainder), and inside triangular loops of several blocks
//    (syrk-like, and grid-stride loops over rows; only the staged clone
//    there: RowWalkTri.cpp). A grid-stride loop over rows is also read as
//    the kernel of one row per thread (addGridStrideClones,
//    clone::unloopGridStride with GridStrideLoops::Outer): its lanes,
//    staged and CSR clones, `<k>__ptxopt_once_*`, run where the launch's
//    threads cover the rows (manifest gridStrideOnce), before the staged
//    clone of the inner loop, which takes launches whose threads loop. Rows may step 16-128 bytes per iteration
//    (nvcc unrolls a constant row length by 16: 64 bytes of floats); a
//    constant row under kStagedMinRow elements is refused (no launch
//    condition can keep it out).
//    Details: RowWalkStaged.cpp. By
//    default where it was measured faster (9.9x packed at 4096 x 4096 on
//    the H100 and H200; launches of 2048 threads, rows of 256:
//    kStagedMinLaunch, kStagedMinRow).
// 4. Guards inside the loop (skip-zero, a max as a branch, a guard on x):
//    a loop of several blocks left only through its latch, its row loaded
//    in every iteration, gets the staged clone with its control flow kept
//    (each body copy its own labels), exact; such kernels get no regacc or
//    lanes clone. Early exits (`break`, `return`) only with the pass option
//    rowwalk-exits: each lane walks its row's first 128 bytes the
//    original's way, the warp stages the rest when half its lanes are still
//    in the loop, each checking its rows against their allocation's end (a
//    launch argument, manifest allocEnds); off by default (rows that end
//    early ran 0.49-0.73x in large launches). Stores, row loads under a
//    guard and loop nests refuse (but for triangular outer loops:
//    RowWalkTri.cpp). Details: RowWalkGuards.cpp. In the tiles, a short
//    guarded part with a load (skip-zero's `x[j]`) runs straight: each
//    instruction predicated, the load unconditional once the warp has
//    checked it stays inside its allocation (rowwalk-straight;
//    RowWalkSpeculate.cpp).
// 5. Rows with loaded bounds (scalar CSR SpMV, `for (j = rowptr[i]; j <
//    rowptr[i+1]; j++)`): by default the rounds clone (`_csr`, the
//    original's launch): each lane runs the original's code; a warp whose
//    32 lanes all reach the row loop together with rows of 32 non-zeros or
//    more runs its 32 rows G lanes at a time in rounds (the "vector CSR"
//    split; rowwalk-csr-lanes G; launches of 65536 threads or more; not for
//    rows read through an unsigned index: RowWalkCsrRounds.cpp). With the
//    option rowwalk-csr also the lanes clone of G times the threads (short
//    rows run slower there). Details: RowWalkCsr.cpp.
// Not done yet: early exits by default; lanes clones of loops of several blocks.
//
// Files: RowWalk.cpp (loops, accumulators in memory, legality, the pass),
// RowWalkGuards.cpp (step 4: loops of several blocks), RowWalkSpeculate.cpp
// (step 4's guarded parts run straight in the tiles), RowWalkCsr.cpp and
// RowWalkCsrRounds.cpp (step 5: CSR rows),
// RowWalkLanes.cpp (step 2's planning and the reductions), RowWalkStaged.cpp
// (step 3's emission: the aligned and unaligned forms, the solo form),
// RowWalkStagedPlan.cpp (step 3's planning), RowWalkStagedLaunch.cpp (step 3's
// launch: one warp per block),
// RowWalkIndex.cpp (step 3's rows through 32-bit indices),
// RowWalkTri.cpp (step 3's per-lane trip counts),
// RowWalkShort.cpp (step 3's rows of 8- and 16-bit elements),
// RowWalkCsr.cpp (step 5: rows with loaded bounds),
// RowWalkClone.cpp (building the clones), RowWalkVariants.cpp (the clones
// as variants: launch conditions, remarks), RowWalk.h (their shared
// structures).
#include "GridStride.h"
#include "RowWalk.h"

namespace ptxopt::transforms {
namespace rowwalk {

namespace {
/// Which kinds of symbol a term of an address holds.
struct TermKinds {
  bool tidX = false, index = false, uniform = false, counter = false;  // index: any %tid or %ctaid
};
TermKinds termKinds(const analysis::Mono &mono, const analysis::AffineAnalysis &aff) {
  TermKinds t;
  for (auto id : mono) {
    const auto &sym = aff.symbols()[id];
    t.tidX |= sym.kind == analysis::Symbol::Kind::Tid && sym.dim == 0;
    t.index |= sym.kind == analysis::Symbol::Kind::Tid || sym.kind == analysis::Symbol::Kind::Ctaid;
    t.uniform |= sym.kind == analysis::Symbol::Kind::Uniform;
    t.counter |= sym.kind == analysis::Symbol::Kind::LoopCounter;
  }
  return t;
}

/// Whether every term of `poly` that holds a thread-uniform symbol also
/// holds %tid or %ctaid and no loop counter (the rows' distance apart,
/// `i * (cols / 4)`), and some term holds one.
bool uniformOnlyInRowStride(const analysis::Poly &poly, const analysis::AffineAnalysis &aff) {
  bool any = false;
  for (const auto &[mono, c] : poly.terms()) {
    const TermKinds t = termKinds(mono, aff);
    if (t.uniform && (!t.index || t.counter)) return false;
    any |= t.uniform;
  }
  return any;
}
}  // namespace

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
  for (const auto &a : fa_.accesses()) {
    if (!stmtOf_.count(a.instr)) continue;
    // An address with a thread-uniform symbol (issue 15: nvcc's remainder
    // loop after an unrolled one) is taken as unknown, as it was before such
    // symbols existed: the plans here do not reason about them.
    bool uniformSym = false;
    if (a.address.known)
      for (const auto &[mono, c] : a.address.poly.terms()) uniformSym |= termKinds(mono, fa_.affine()).uniform;
    // Except where every term holding one also holds %tid or %ctaid and no
    // loop counter: a uniform row length (`A4[i*(cols/4) + k]`, a float4
    // row of cols/4 pieces), which only sets how far apart the rows are.
    // The plans read the strides along the loop (constants here) and the
    // rows' alignment (vectorAlignment: such a term with no parameter is
    // not alignable unless a multiple of 16), never the distance itself.
    if (uniformSym) uniformSym = !uniformOnlyInRowStride(a.address.poly, fa_.affine());
    if (uniformSym) {
      AccessInfo u;
      u.instr = a.instr;
      u.mem = a.mem;
      u.loc = a.loc;
      u.address = analysis::Value::unknown("thread-uniform symbol (taken as unknown by rowwalk)");
      u.verdict = AccessInfo::Verdict::Unknown;
      // The address as the analysis wrote it: the remark of a loop refused
      // for want of a row names it (planStagedLoops).
      u.reason = "its address " + fa_.affine().str(a.address) +
                 " holds a value the analysis names but cannot write from the parameters (u(...): `n / 4`, `n & "
                 "-4`, a remainder loop's start), which the row walks do not reason about";
      // A row candidate: %tid.x times a uniform value (`A4[i*(cols/4) + k]`),
      // not a column walk's remainder loop starting at one.
      bool rowStride = false;
      for (const auto &[mono, c] : a.address.poly.terms()) {
        const TermKinds t = termKinds(mono, fa_.affine());
        rowStride |= t.tidX && t.uniform;
      }
      if (rowStride) uniformRows_.insert(stmtOf_[a.instr]);
      asUnknown_.push_back(std::move(u));
      accessAt_[stmtOf_[a.instr]] = &asUnknown_.back();
      continue;
    }
    accessAt_[stmtOf_[a.instr]] = &a;
  }
  // First, whether a loop of several blocks with a thread-varying trip count
  // holds single-block loops (RowWalkTri.cpp: only the staged clone then).
  for (const auto &L : fa_.loops().loops())
    if (L.blocks.size() != 1) skipOuterLoop(L);
  for (const auto &L : fa_.loops().loops()) {
    if (L.blocks.size() != 1 && skipOuterLoop(L)) continue;  // RowWalkTri.cpp
    if (L.blocks.size() != 1) {
      LoopBlock lb;  // guards inside the loop: the staged clone only (RowWalkGuards.cpp)
      if (!guardedLoop(L, labelAt, branchesTo, lb, why)) return false;
      loops_.push_back(lb);
      continue;
    }
    const auto &b = cfg.blocks()[L.header];
    // Only the staged clone inside such an outer loop (a grid-stride loop over
    // rows, a triangle): it changes only the loops it stages, so one of
    // another shape stays as it is (nvcc's `y[i] = 0` loop for rows of length
    // 0 in a grid-stride kernel is entered by a branch).
    if (outerSkipped_ && !singleBlockLoopShape(L, labelAt, branchesTo)) continue;
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

bool Planner::singleBlockLoopShape(const analysis::Loop &L, const std::map<std::string_view, size_t> &labelAt,
                                   const std::map<std::string_view, size_t> &branchesTo) {
  const auto &cfg = fa_.cfg();
  const auto &b = cfg.blocks()[L.header];
  if (b.labels.size() != 1 || !labelAt.count(b.labels[0]) || b.last == b.first) return false;
  const size_t hs = labelAt.at(b.labels[0]), ls = stmtOf_[b.last - 1];
  const Instruction *br = instr(ls);
  const auto to = branchesTo.find(b.labels[0]);
  if (!br || br->base() != "bra" || br->guard.empty() || analysis::branchTarget(*br) != b.labels[0] ||
      to == branchesTo.end() || to->second != 1)
    return false;
  for (size_t i = hs + 1; i < ls; ++i)
    if (body_[i]->kind == Stmt::Kind::Label || body_[i]->kind == Stmt::Kind::Block ||
        (instr(i) && cfg.blockOf(instrOf_[i]) != L.header))
      return false;
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
        const int i = paramIndex(k_, in.operands[1].elems[0].text);
        p = i < 0 ? -2 : (*k_.params)[size_t(i)].type().ends_with("64") ? i : -1;
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

/// The struct field `ld.param` `in` loads into `reg`: `[param+off]` of a
/// parameter declared as bytes (`.b8 p[32]`, a struct passed by value),
/// `reg` the loaded register or the k-th of its vector (`{%a, %b}`: off +
/// k * size); a 4- or 8-byte integer. param -1 when it is none of these.
TripField Planner::structField(const Instruction &in, std::string_view reg) const {
  TripField f;
  const Operand &a = in.operands[1].elems[0];
  std::string_view sym;
  int64_t off = 0;
  if (a.isSym()) sym = a.text;
  else if (a.kind == Operand::Kind::Sum && a.text == "+" && a.elems[0].isSym() && a.elems[1].intValue())
    sym = a.elems[0].text, off = *a.elems[1].intValue();
  const int i = sym.empty() ? -1 : paramIndex(k_, sym);
  if (i < 0 || (*k_.params)[size_t(i)].type() != ".b8" || off < 0) return f;
  const std::string_view op = in.opcode;
  const uint32_t bytes = op.ends_with("32") ? 4 : op.ends_with("64") ? 8 : 0;
  if (!bytes || !(op.ends_with(".u32") || op.ends_with(".s32") || op.ends_with(".u64") || op.ends_with(".s64") ||
                  op.ends_with(".b32") || op.ends_with(".b64")))
    return f;
  const Operand &dst = in.operands[0];
  int k = -1;
  if (dst.isReg() && dst.text == reg) k = 0;
  else if (dst.kind == Operand::Kind::Vector)
    for (size_t e = 0; e < dst.elems.size(); ++e)
      if (dst.elems[e].isReg() && dst.elems[e].text == reg) k = int(e);
  if (k < 0) return f;
  f.param = i;
  f.offset = uint32_t(off) + uint32_t(k) * bytes;
  f.bytes = bytes;
  return f;
}

void Planner::paramsFeeding(uint32_t at, std::string_view reg, const LoopBlock &L, std::set<int> &out,
                            std::set<TripField> &fields, int depth) {
  if (depth > 16) return;
  const auto &cfg = fa_.cfg();
  for (uint32_t d : fa_.defs().defsAt(at, reg)) {
    if (d == analysis::ReachingDefs::kEntry) continue;
    if (auto it = stmtOf_.find(d); it != stmtOf_.end() && it->second > L.hs && it->second <= L.ls) continue;
    const Instruction &in = *cfg.instructions()[d];
    if (in.base() == "ld" && in.hasModifier(".param") && in.operands.size() == 2 &&
        in.operands[1].kind == Operand::Kind::Address && in.operands[1].elems.size() == 1) {
      if (int i = paramIndex(k_, in.operands[1].elems[0].text); i >= 0) out.insert(i);
      else if (auto f = structField(in, reg); f.param >= 0) fields.insert(f);
      continue;
    }
    // A value loaded from memory (`len = lens[i]`): the parameters of its
    // address are no bound (a floor on the `lens` pointer held for every
    // launch, found by an offline probe); such a trip count has no launch
    // condition, the per-warp checks run the original loop where no lane
    // has a full tile.
    if (in.base() == "ld" || in.base() == "ldu" || in.base() == "atom") continue;
    // A pointer (nvcc converts every global one with cvta.to.global): no
    // row length. A loop to an end pointer (`while (p < e)`, e = row + n)
    // reaches the matrix through it, and a floor on its address is one
    // every launch passes.
    if (in.base() == "cvta") continue;
    for (size_t o = 1; o < in.operands.size(); ++o)
      analysis::forEachRegister(in.operands[o],
                                [&](const Operand &r) { paramsFeeding(d, r.text, L, out, fields, depth + 1); });
  }
}

std::string Planner::baseOf(const AccessInfo &a) {
  if (!a.base.empty()) return a.base;  // none where two terms could be the pointer (findBase)
  const Instruction &in = *fa_.cfg().instructions()[a.instr];
  auto mem = analysis::memAccess(in);
  std::string reg;
  int64_t off = 0;
  if (!mem || !mem->address || !baseAndOffset(*mem->address, reg, off)) return "";
  int p = provenance(a.instr, reg, 0);
  if (p < 0 || !k_.params) return "";
  return "param(" + std::string((*k_.params)[size_t(p)].names[0].name) + ")";
}

bool Planner::disjointBases(const ir::Function &f, const AccessInfo &a0, const AccessInfo &b0,
                            std::set<std::pair<uint32_t, uint32_t>> &into) {
  std::string ab = baseOf(a0), bb = baseOf(b0);
  if (ab.starts_with("&") && bb.starts_with("&")) return ab != bb;  // two module globals
  int pa = paramOfBase(f, ab), pb = paramOfBase(f, bb);
  if (pa < 0 || pb < 0 || pa == pb) return false;
  into.insert({static_cast<uint32_t>(std::min(pa, pb)), static_cast<uint32_t>(std::max(pa, pb))});
  return true;
}

bool Planner::addDisjoint(const ir::Function &f, const AccessInfo &a0, const AccessInfo &b0, KernelPlan &plan,
                          std::set<std::pair<uint32_t, uint32_t>> *into) {
  return disjointBases(f, a0, b0, into ? *into : plan.disjoint);
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
  for (const auto &s : body_) {
    if (s->kind == Stmt::Kind::Block) {
      why = kNestedBlocks;
      return false;
    }
    // A callee's loads and stores are not in this kernel's accesses: it
    // could read the accumulator the clone keeps in a register, or repeat
    // a side effect on lanes 1-31 (as group refuses calls).
    if (s->kind == Stmt::Kind::Instruction && static_cast<const Instruction &>(*s).base() == "call") {
      why = "it calls a function";
      whyAt = s.get();
      return false;
    }
  }
  if (!findLoops(why)) return false;
  if (std::any_of(loops_.begin(), loops_.end(), [](const LoopBlock &L) { return L.multi; }))
    return runGuarded(plan, why);
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
      for (const auto &c : lp.aligned) requireAligned(plan.aligned, c);
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
  plan.csr = keepDataRows(plan);  // RowWalkCsr.cpp
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
  dropAllButStaged(plan);  // RowWalkTri.cpp: inside a triangular outer loop
  // Step 3: the staged clone, for the loops that walk rows (RowWalkStaged.cpp).
  if (ctx_.options.rowwalk.staged.value_or(kStagedByDefault)) planStagedLoops(plan);
  if (plan.lanes.empty() && plan.accList.empty() && plan.staged.empty()) {
    why = "";  // the remarks above said why
    return false;
  }
  return true;
}

}  // namespace rowwalk

using namespace rowwalk;

namespace rowwalk {
namespace {

/// The clones of `plan` (planned from `from`, `k` or its copy): lanes (and
/// CSR's rounds), staged, regacc; their names begin with `stem`, and each
/// variant asks the launch conditions `once` (a grid-stride kernel's copy).
void addPlannedClones(PassContext &ctx, ir::Function *k, const ir::Function &from, const KernelPlan &plan,
                      const std::string &stem, const std::vector<Variant::GridStrideOnce> &once) {
  ir::Module &m = ctx.module;
  Variant base;
  base.pass = "rowwalk";
  base.gridStrideOnce = once;
  for (const auto &[a, b] : plan.disjoint) base.disjointParams.push_back({a, b});
  std::string conds;
  for (const auto &[a, b] : plan.disjoint)
    conds += std::string(conds.empty() ? "" : ", ") + "params " + std::to_string(a) + " and " + std::to_string(b) +
             " in different allocations";
  if (const std::string o = gridStrideOnceText(base); !o.empty()) conds += (conds.empty() ? "" : ", ") + o;
  int at = m.itemIndex(k);
  if (!plan.lanes.empty()) addLanesClones(ctx, k, from, plan, base, stem, at);
  if (!plan.staged.empty()) addStagedClone(ctx, k, from, plan, base, conds, stem, at);
  if (!plan.accList.empty()) {
    Variant r = base;
    r.kind = "regacc";
    r.name = stem + "regacc";
    KernelPlan onlyMem;
    onlyMem.accList = plan.accList;
    if (ctx.addClone(*k, buildClone(m, from, onlyMem, r.name, false, false), r, at)) {
      ctx.remark(Remark::Kind::Applied, *k, "",
                 r.name + ": " + std::to_string(plan.accList.size()) +
                     " accumulator(s) in memory kept in a register through the loop, stored once after it; "
                     "conditions: " + (conds.empty() ? "none" : conds));
      ctx.count("accumulators", double(plan.accList.size()));
    }
  }
}

/// A kernel written as a grid-stride loop over rows (`for (i = tid; i < n;
/// i += blockDim.x * gridDim.x)` around the row walk, CSR's among them): the
/// clones of the kernel of one row per thread it is (clone::unloopGridStride,
/// the outer loop only), named `<k>__ptxopt_once_*`, for launches whose
/// threads cover the loop's bound (each thread's loop runs once). They come
/// before the clones of the kernel itself (row walks inside a loop: the
/// staged clone of the inner loops alone), which take the other launches.
void addGridStrideClones(PassContext &ctx, ir::Function *k) {
  if (!ctx.options.rowwalk.gridStride) return;
  std::string why;
  auto gs = clone::unloopGridStride(ctx.module, *k, ctx.analyses.get(*k), why, clone::GridStrideLoops::Outer);
  if (!gs) {
    // A grid-stride loop around another loop that is not taken: say why
    // (a loop of another kind, or no loop over rows: no remark).
    const auto &loops = ctx.analyses.get(*k).loops().loops();
    if (!why.empty() && std::any_of(loops.begin(), loops.end(), [](const analysis::Loop &L) { return L.parent; }))
      ctx.remark(Remark::Kind::Missed, *k, "",
                 "no clone of the kernel of one row per thread (for launches whose threads cover the grid-stride "
                 "loop's bound): " + why);
    return;
  }
  ir::Function &once = *gs->kernel;
  if (!ctx.analyses.get(once).loops().loops().empty()) {  // a row walk inside the loop over rows
    KernelPlan plan;
    const Stmt *whyAt = nullptr;
    Planner planner(ctx, once);
    if (planner.run(plan, why, whyAt))
      addPlannedClones(ctx, k, once, plan, std::string(k->name) + "__ptxopt_once_", gs->conds);
  }
  ctx.analyses.invalidate(once);
}

}  // namespace
}  // namespace rowwalk

void runRowWalk(PassContext &ctx) {
  ir::Module &m = ctx.module;
  for (ir::Function *k : clone::originalKernels(m)) {
    if (!k->body) continue;
    addGridStrideClones(ctx, k);
    KernelPlan plan;
    std::string why;
    const Stmt *whyAt = nullptr;
    auto planFrom = [&](ir::Function &f) {
      plan = KernelPlan{};
      why.clear();
      whyAt = nullptr;
      Planner planner(ctx, f);
      return planner.run(plan, why, whyAt);
    };
    bool planned = planFrom(*k);
    // A kernel refused only for its nested scopes (the inline asm of
    // cuda_fp16.h) is planned again, and cloned, from a copy with its scopes
    // flattened (the original stays as it is).
    clone::FlatCopy flat(ctx);
    if (!planned && why == kNestedBlocks) {
      if (auto scopeWhy = flat.make(*k)) why = *scopeWhy;
      else planned = planFrom(*flat.get());
    }
    // A kernel refused for a loop of several blocks is planned again from a
    // copy with its rotated loops peeled (a constant trip count that is not
    // a multiple of nvcc's unroll factor: clone::peelRotatedLoops) and its
    // jump latches folded (clone::foldJumpLatches), when it has one; the
    // reasons of the first plan stand when that fails too.
    if (!planned && why == kSeveralBlocks) {
      const std::string first = why;
      const Stmt *firstAt = whyAt;
      if (flat.makePeeled(*k) && !(planned = planFrom(*flat.get()))) {
        why = first, whyAt = firstAt;
        flat.reset();
      }
    }
    ir::Function &from = flat.get() ? *flat.get() : *k;
    if (!planned) {
      if (!why.empty() && why != "no loop")
        ctx.remark(Remark::Kind::Missed, *k, whyAt ? locationOf(m, ctx.analyses.get(from), whyAt) : "",
                   "not transformed: " + why);
      continue;
    }
    addPlannedClones(ctx, k, from, plan, std::string(k->name) + "__ptxopt_", {});
  }
}

}  // namespace ptxopt::transforms

