// rowwalk, step 3: the staged clone ('staged', exact). Overview: RowWalk.cpp.
//
// What: the same thread-to-row mapping and the same per-thread order of
// operations as the kernel (bit-identical for floating point), but each
// warp copies tiles of its 32 rows into shared memory with coalesced 16-byte
// copies (by default plain loads into registers and shared stores, any
// target; with rowwalk-staged-copy=async cp.async, sm_80+: both below),
// several tiles in flight, and each lane then reads its own row from the tile.
// The tile of one row is 256 bytes (two lines;
// 128 with the option rowwalk-tile=128): lanes 16c..16c+15 copy row r's 16
// pieces, so one copy instruction of the warp moves 4 whole lines; rows are
// padded by 16 bytes (272), so the 16-byte reads of 8 lanes (one
// shared-memory wavefront) hit 8 different bank quadruples. 5 tiles in
// flight fill the 48 KB of static shared memory (43520 bytes).
// Why it pays: with one thread per row, each load of a warp touches 32
// lines (32 sectors for 4 bytes): the original reads every line 8 times over
// (from L1 if it survives) with one request per 4 bytes. The copies read each
// line once, with 4 lines per request, and keep `stages` tiles in flight per
// warp. A launch of 4096 rows in 256-thread blocks has 16 blocks: 16 SMs.
// The clone runs one warp per block (launch: grid (block.x/32, grid.x,
// grid.z), block 32; logical indices recomputed), so 128 SMs work, each warp
// with its own tiles in static shared memory.
// Algorithm, per split loop (T iterations, S bytes of each row per
// iteration, IPT = 256 / S iterations per tile, NT = T / IPT full tiles):
//   activemask == all 32 lanes, T the same on every lane (shuffled from lane
//   0), every row register 16-byte aligned, NT > 0 (vote.sync.all), else the
//   original loop runs; each lane's copy sources (row 2k + lane/16, piece
//   lane%16) are shuffled from the row registers; tiles 0..stages-2 are
//   issued; for each tile t: issue tile t+stages-1 (while < NT), commit,
//   wait until tile t has landed (cp.async.wait_group stages-1),
//   bar.warp.sync, then IPT copies of the loop body whose row loads read
//   the lane's row of the tile (a 16-byte run as one ld.shared.v4),
//   bar.warp.sync (the stage may be rewritten); then the remaining
//   T - NT*IPT iterations run in the original loop (its registers are where
//   the body copies left them), or none.
// Plain copies (the default on every target; rowwalk-staged-copy=async
// gives the cp.async copies above on sm_80 and later: on an H200 at 4096 x
// 4096 the plain copies with 2 tiles in flight ran 9.9x over the original,
// cp.async with 5 tiles 8.4x and a hand-written kernel with sm_90 bulk
// copies (cp.async.bulk, an mbarrier per stage) 6.7x; docs/BENCHMARKS.md):
// the same tiles, padding, per-lane
// reads and guards, but each lane ld.global.v4's its 16-byte pieces of a
// tile into registers and st.shared.v4's them. The loads in flight live in
// registers, so the register file bounds them: a 256-byte tile takes 64
// registers per lane and row (16 pieces of 4), so 2 tiles in flight by
// default (128 registers for the tiles; ptxas gave 197-250 registers in all,
// no spills, on the lit inputs), 4 with 128-byte tiles, 1 with two rows;
// rowwalk-stages=N asks for N, at most 192 registers' worth. One warp per
// SM (the launch above): the registers cost no occupancy. The loop over
// tiles is unrolled K = tiles-in-flight times (a slot is K named registers,
// not indexable), each step for tile t: st.shared.v4 slot (tile t) into
// stage t % 2, ld.global.v4 tile t+K into the slot (so K tiles are in
// flight while the body runs), bar.warp.sync, the IPT body copies from
// stage t % 2. Two stages of shared memory, one barrier per tile: stage
// t % 2 was last read by tile t-2, whose reads every lane finished before
// tile t-1's bar.warp.sync. bar.warp.sync orders memory among the lanes it
// names (PTX ISA, bar.warp.sync: it "also guarantee[s] memory ordering
// among threads participating in barrier": a lane's st.shared before it is
// seen by every other lane's ld.shared after it). Why the plain copies win
// here (not profiled): the loads of a tile go straight to registers with
// their 16 pieces per lane in flight, while cp.async stages through L1
// (.cg bypasses it only for the data) with an async-group wait per tile.
// Stores in the loop: the tiles are read ahead, so each global store must
// be coalesced along %tid.x and reach another allocation than every row
// (disjointParams on the two pointer parameters; RowWalkLanes.cpp collects
// them, planStaged pairs them with the rows): kmeans' invert_mapping,
// permutes with the channels looped in the thread.
// Refuses (remark): rowwalk-staged-copy=async on a target below sm_80; a
// loop that writes
// memory other than such stores (its tiles are read ahead); a row walked by a register that is not
// a 64-bit induction variable with a step of 16, 32, 64 or 128 bytes, nor
// base + scale * a widened 32-bit index advancing as much (RowWalkIndex.cpp:
// then each warp also checks that no index of the loop wraps; rows of
// 8- and 16-bit elements step 4-128 bytes: RowWalkShort.cpp), nor an
// offset plus a 64-bit induction variable (two rows at one index,
// `A[i*n + j] * B[i*n + j]`: offsetAddress); rows whose alignment no
// launch condition can check (rowsCanAlign; the others' conditions go on
// the variant: the base pointer, the row length a multiple of 16 bytes); row
// loads that are not global, plain, 1, 2, 4 or 8 bytes or a vector of 8 or
// 16 bytes of 4- or 8-byte elements (float4, float2, double2 rows a program
// vectorized itself: each is a piece of its own, read from the tile as the
// same vector), before the
// register's update, and exactly cover each iteration's piece; more than two rows per
// thread (the shared memory of the tiles); a constant trip count (`#define N`,
// nvcc's loop unrolled by 16) whose row is under kStagedMinRow elements
// (kMinRow when forced): constant rows get no row-length launch condition.
// Loops of several blocks (guards inside the loop; RowWalkGuards.cpp): the
// body copies keep their labels and branches, renamed per copy.
// Guards: a warp whose lanes are not all in the loop (rows not a multiple of
// 32, `if (i < n)`), or whose trip counts or alignments differ, runs the
// original loop: the clone is never wrong, only not faster for that warp.
// Loops whose trip count is not warp-uniform (triangular) take the per-lane
// form instead of the trip-count guard: RowWalkTri.cpp.
#include <cctype>

#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

namespace {
/// Registers per lane for the plain copies' tiles in flight: by default, and
/// at most (with rowwalk-stages).
constexpr unsigned kPlainRegs = 128, kPlainMaxRegs = 192;
/// `[reg+off]`.
/// Why a row of `bytes`-byte elements through `reg` advancing `step` bytes
/// per iteration is not staged, "" when it may be: 16-128 bytes, a power of
/// two (4-128 for 8- and 16-bit elements: RowWalkShort.cpp).
std::string stepRefusal(int64_t step, unsigned bytes, bool wide, const std::string &reg, bool smallSteps) {
  if (bytes < 4)
    return shortRowStep(step) ? ""
                              : "a row of " + std::to_string(bytes * 8) + "-bit elements through " + reg +
                                    " advancing " + std::to_string(step) +
                                    " bytes per iteration (not 4, 8, 16, 32, 64 or 128)";
  if (step > 0 && step % 16 == 0 && step <= 128 && isPow2(step)) return "";
  // Loops nvcc did not unroll (`#pragma unroll 1`), on the small-step retry
  // (planStagedLoops): one or two elements an iteration, 32-64 copies of the
  // body per tile.
  if (smallSteps && !wide && (step == int64_t(bytes) || step == 2 * int64_t(bytes)) && step >= 4 && step <= 8)
    return "";
  return wide ? "the 32-bit index of " + reg + " advances " + std::to_string(step) +
                    " bytes per iteration (not 16, 32, 64 or 128)"
              : "the row register " + reg + " is not a 64-bit induction variable stepping 16, 32, 64 or 128 bytes";
}
}  // namespace

bool hasCpAsync(const ir::Module &m) {
  for (auto t : m.target())
    if (t.starts_with("sm_")) {
      int v = 0;
      for (char c : t.substr(3))
        if (std::isdigit(static_cast<unsigned char>(c))) v = v * 10 + (c - '0');
        else break;
      return v >= 80;
    }
  return false;
}

/// A loop with a constant trip count (a `#define`d or template row length,
/// which nvcc unrolls by 16: 64 bytes per iteration) gets no row-length
/// launch condition, so its row length is checked here: at least
/// kStagedMinRow elements (kMinRow when the staged clone is forced), where
/// the clone was measured faster.
bool Planner::constantRowLongEnough(const LoopBlock &L, const StagedPlan &sp, std::string &why) {
  std::optional<int64_t> trip;
  for (const auto &iv : fa_.affine().inductionVars())
    if (iv.loop == L.id && iv.tripConstant) trip = iv.tripConstant;
  if (!trip || sp.loads.empty()) return true;
  const unsigned bytes = analysis::memAccess(*instr(sp.loads.front().stmt))->bytes();
  const int64_t elems = *trip * sp.step / int64_t(bytes);
  const int64_t least = ctx_.options.rowwalk.staged.value_or(false) ? kMinRow : kStagedMinRow;
  if (elems >= least) return true;
  why = "the row is a constant " + std::to_string(elems) + " elements, under the " + std::to_string(least) +
        " the staged clone was measured faster on";
  return false;
}

bool Planner::planStaged(const LoopBlock &L, const KernelPlan &plan, StagedPlan &sp, std::string &why) {
  if (!planLanes(L, plan, sp.lp, why, true)) return false;
  std::set<size_t> removed;
  for (const auto &[hs, acc] : plan.accList)
    if (hs == L.hs) removed.insert(acc.stores.begin(), acc.stores.end());
  analysis::Symbol cs{analysis::Symbol::Kind::LoopCounter};
  cs.loop = L.id;
  const uint16_t counter = fa_.affine().symbolId(cs);
  std::map<std::string, std::map<int64_t, size_t>> byRow;  // row register -> offset -> load
  const bool unknown = unknownRows(L, removed);  // RowWalkTri.cpp
  for (size_t i = L.hs + 1; i < L.ls; ++i) {
    if (removed.count(i) || !accessAt_.count(i)) continue;
    const AccessInfo &a = *accessAt_.at(i);
    bool walks = false;
    for (const auto &s : a.strides) walks |= s.symbol == counter && s.constant && *s.constant > 0;
    if (unknown && a.verdict == AccessInfo::Verdict::Unknown) walks = true;
    else if (a.verdict != AccessInfo::Verdict::Uncoalesced || !walks) continue;
    const Instruction &in = *instr(i);
    std::string reg;
    int64_t off = 0;
    auto mem = analysis::memAccess(in);
    // A vector of 4- or 8-byte elements, 8 or 16 bytes (float4 rows a
    // program vectorized itself: `reinterpret_cast<const float4 *>(A + i*m)[j]`),
    // is one piece of the row, read from the tile as the same vector.
    const bool vec = mem && mem->vector > 1 && mem->elemBytes >= 4 && (mem->bytes() == 8 || mem->bytes() == 16) &&
                     in.operands.size() == 2 && in.operands[0].kind == Operand::Kind::Vector;
    if (!mem || mem->kind != analysis::MemAccess::Kind::Load || mem->space != ".global" || (mem->vector != 1 && !vec) ||
        (mem->bytes() != 1 && mem->bytes() != 2 && mem->bytes() != 4 && mem->bytes() != 8 && mem->bytes() != 16) ||
        !in.guard.empty() || !plainMemoryOp(in) || in.operands.size() != 2 || (!vec && !in.operands[0].isReg()) ||
        !baseAndOffset(in.operands[1], reg, off)) {
      why = "a load along the row (" + std::string(in.opcode) +
            ") is not a plain global load of [reg+offset]: 1, 2, 4 or 8 bytes, or a vector of 8 or 16";
      return false;
    }
    if (L.multi && !rowLoadEveryIteration(L, i, reg, why)) return false;
    ivPlusConstant(L, sp.lp, i, reg, off);  // `add.s64 r, iv, c` (__ldg's inline asm; constant-length loops)
    const IV *iv = nullptr;
    for (const auto &v : sp.lp.ivs)
      if (v.reg == reg) iv = &v;
    StagedPlan::Wide w;
    int64_t step = iv ? iv->step : 0, c = 0;
    std::string key = reg;
    // base + a 64-bit index: nvcc's form for rows of bytes and shorts, and
    // for two rows at one index (`A[i*n + j] * B[i*n + j]`, gesummv with
    // `int` indices: the induction variable runs over the matrix's base,
    // the row's offset `4*i*n` is added in the loop).
    const bool wide = !iv && (wideAddress(L, sp.lp, i, reg, w, c, key) || offsetAddress(L, sp.lp, i, reg, w, key));
    if (wide) {
      // A 32-bit index: base + scale * ext(x), x advancing elemStep.
      step = w.elemStep * w.scale;
      off += c * w.scale;
    } else if (!iv || iv->bits != 64 || !iv->immStep) {
      step = 0;
    }
    why = stepRefusal(step, mem->bytes(), wide, reg, smallSteps_);
    if (!why.empty()) return false;
    // After its update the register is one step on: nvcc's rotated loops
    // (clone::peelRotatedLoops) read the first elements of an iteration
    // before the update and the rest after it.
    if (iv && iv->update < i) off += iv->step;
    if (sp.rows.empty()) sp.step = step;
    if (step != sp.step) {
      why = "rows advancing by different steps";
      return false;
    }
    if (auto at = std::find(sp.rows.begin(), sp.rows.end(), key); at == sp.rows.end()) {
      sp.rows.push_back(key);
      w.cmin = w.cmax = c;
      sp.wide.push_back(w);
    } else {
      auto &known = sp.wide[size_t(at - sp.rows.begin())];
      known.cmin = std::min(known.cmin, c);
      known.cmax = std::max(known.cmax, c);
    }
    if (!byRow[key].emplace(off, i).second) {
      why = "two loads of one row at the same offset";
      return false;
    }
  }
  if (sp.rows.empty()) {
    why = "no load walks a row through an induction variable";
    return false;
  }
  if (sp.rows.size() > 2) {
    why = "more than two rows per thread (the tiles' shared memory)";
    return false;
  }
  for (unsigned r = 0; r < sp.rows.size(); ++r) {
    // The loads of an iteration cover its S bytes of the row exactly: the
    // copies then read no byte the thread would not.
    // (nvcc's 64-bit loops address, [R-8], [R], [R+8]: the piece starts at the lowest offset.)
    const int64_t first = byRow[sp.rows[r]].begin()->first;
    sp.rowOff.push_back(first);
    int64_t next = first;
    for (const auto &[off, i] : byRow[sp.rows[r]]) {
      if (off != next) {
        why = "the loads of " + sp.rows[r] + " do not cover each iteration's " + std::to_string(sp.step) +
              " bytes exactly";
        return false;
      }
      next += analysis::memAccess(*instr(i))->bytes();
      sp.loads.push_back({i, r, off - first});
    }
    if (next != first + sp.step) {
      why = "the loads of " + sp.rows[r] + " do not cover each iteration's " + std::to_string(sp.step) +
            " bytes exactly";
      return false;
    }
    std::string shortWhy;
    if (!shortRuns(byRow[sp.rows[r]], removed, sp, r, shortWhy)) {
      why = shortWhy;
      return false;
    }
    // 16-byte runs of one type: one shared load each (rows of 4- and 8-byte elements).
    for (int64_t q = first; q < first + sp.step && !sp.shortRow[r]; q += 16) {
      std::vector<size_t> run;
      std::string type;
      bool same = true;
      for (const auto &[off, i] : byRow[sp.rows[r]])
        if (off >= q && off < q + 16) {
          run.push_back(i);
          std::string t = typeModifier(*instr(i));
          same &= type.empty() || t == type;
          same &= analysis::memAccess(*instr(i))->vector == 1;  // a vector load is a piece of its own
          type = t;
        }
      if (same && run.size() > 1 && movableRun(run, removed, sp.rows[r])) sp.runs.push_back(run);
    }
  }
  // The loop's stores go through other allocations than its rows (which
  // the copies read tiles ahead): a launch condition per pair of pointer
  // parameters; a store the analysis cannot keep apart refuses.
  for (size_t st : sp.lp.stores)
    for (const auto &l : sp.loads)
      if (!disjointBases(k_, *accessAt_.at(st), *accessAt_.at(l.stmt), sp.disjoint)) {
        why = "the loop writes memory (" + std::string(instr(st)->opcode) +
              ") through a pointer that may reach its rows (the same parameter, or a base the analysis cannot "
              "trace): the tiles are read ahead of it";
        return false;
      }
  if (!constantRowLongEnough(L, sp, why) || !rowsCanAlign(sp, why)) return false;
  return sizeTiles(sp, why);
}

/// Step 3 of Planner::run: the staged clone's plan of each loop that walks
/// rows; when none is planned, a second try with small steps (loops nvcc
/// did not unroll). Remarks what it leaves out.
void Planner::planStagedLoops(KernelPlan &plan) {
  std::string stagedWhy;  // the first refusal of a loop that walks a row
  auto planAll = [&] {
    for (const auto &L : loops_) {
      StagedPlan sp;
      std::string w;
      if (planStaged(L, plan, sp, w) && planPerLane(L, sp, w)) plan.staged.push_back(std::move(sp));
      else if (!w.starts_with("no access of the loop is uncoalesced") && stagedWhy.empty())
        stagedWhy = "loop at " + (L.where.empty() ? L.header : L.where) + ": " + w;
    }
  };
  planAll();
  // No loop staged: again, taking loops nvcc did not unroll (one or two
  // 4- or 8-byte elements an iteration, an `iv < bound` latch with a
  // uniform trip count: `#pragma unroll 1`). Only here, so a kernel's
  // unrolled loop keeps its clone without its small remainder loops.
  if (plan.staged.empty() && !stagedWhy.empty()) {
    smallSteps_ = true;
    planAll();
    smallSteps_ = false;
    if (!plan.staged.empty()) stagedWhy.clear();
  }
  if (!plan.staged.empty() && !hasCpAsync(ctx_.module) && ctx_.options.rowwalk.asyncCopy) {
    plan.staged.clear();
    stagedWhy = "the target is below sm_80 (no cp.async; rowwalk-staged-copy=async)";
  }
  if (!stagedWhy.empty())
    ctx_.remark(Remark::Kind::Missed, k_, "", std::string(plan.staged.empty() ? "no staged clone: " : "staged clone without ") + stagedWhy);
}

/// A warp copies its rows' tiles only when all 32 start 16-byte aligned
/// (else it runs the original loop, in one-warp blocks with the tiles'
/// shared memory: slower than the original kernel, 0.60-0.91x on an H200
/// with rows of 4099 floats). Rows a constant number of bytes apart along
/// %tid.x that is not a multiple of 16 (a constant row length of 2047
/// floats) never all are: refused. Otherwise the first load of each row,
/// at the loop's first iteration (its counter 0), says under which launch
/// conditions its start is a multiple of 16 for every thread
/// (vectorAlignment), kept in `sp.aligned`: a runtime row length a
/// multiple of 16 bytes (the terms that differ between threads: without
/// it no warp's rows all align) and, where the address's constant part is
/// a multiple of 16, the base pointer 16-byte aligned. (Where it is not,
/// the loop's first iteration may still start aligned: nvcc's rotated loops
/// peel the first elements, and the clone checks the row registers
/// themselves; no base condition then.) Rows whose distance apart no
/// launch condition can check (`w[j*(n+1) + k]`: aligned only when n % 4 ==
/// 3) are refused: when in doubt, the original runs.
bool Planner::rowsCanAlign(StagedPlan &sp, std::string &why) {
  analysis::Symbol tx{analysis::Symbol::Kind::Tid};
  tx.dim = 0;
  const uint16_t tid = fa_.affine().symbolId(tx);
  for (const auto &l : sp.loads) {
    if (!accessAt_.count(l.stmt)) continue;
    for (const auto &st : accessAt_.at(l.stmt)->strides)
      if (st.symbol == tid && st.constant && *st.constant % 16 != 0) {
        why = "rows " + std::to_string(*st.constant) +
              " bytes apart (a constant, not a multiple of 16): no warp's 32 rows all start 16-byte aligned, so "
              "every warp would run the original loop";
        return false;
      }
  }
  sp.aligned.clear();
  for (const auto &l : sp.loads) {
    if (l.off != 0 || !accessAt_.count(l.stmt)) continue;  // each row's first load: the start of its piece
    const AccessInfo &a = *accessAt_.at(l.stmt);
    if (!a.address.known) continue;
    // The loop's first iteration: its counters' terms are 0.
    auto first = [](const analysis::Symbol &s) -> int64_t { return s.kind == analysis::Symbol::Kind::LoopCounter ? 0 : 1; };
    // The terms that differ between threads: the rows' distance apart.
    analysis::Poly varying;
    for (const auto &[mono, coeff] : a.address.poly.terms()) {
      bool index = false;
      for (uint16_t id : mono) {
        auto kind = fa_.affine().symbols()[id].kind;
        index |= kind == analysis::Symbol::Kind::Tid || kind == analysis::Symbol::Kind::Ctaid;
      }
      if (!index) continue;
      analysis::Poly t = analysis::Poly::constant(coeff);
      for (uint16_t id : mono) analysis::Poly::mul(t, analysis::Poly::symbol(id), t);
      analysis::Poly::add(varying, t, varying);
    }
    std::vector<Variant::AlignedParam> conds;
    int64_t mis = 0;
    std::string term;
    if (!vectorAlignment(varying, fa_.affine(), k_, 16, first, conds, mis, &term)) {
      // `w[j*(n+1) + k]`: rows 4*(n+1) bytes apart align only when n % 4
      // == 3, which no launch condition says: when in doubt, the original.
      why = "the rows' alignment cannot be checked at launch (" + term +
            "): where they do not align, every warp would run the original loop, slower than the original";
      return false;
    }
    std::vector<Variant::AlignedParam> full;
    if (vectorAlignment(a.address.poly, fa_.affine(), k_, 16, first, full, mis) && mis == 0) conds = full;
    for (const auto &c : conds) requireAligned(sp.aligned, c);
  }
  return true;
}

/// The tiles of a planned row walk: bytes of a row per tile, and how many
/// are in flight (registers for plain copies, shared memory for cp.async).
bool Planner::sizeTiles(StagedPlan &sp, std::string &why) const {
  if (unsigned tile = ctx_.options.rowwalk.tile) sp.tileBytes = tile == 128 ? 128 : 256;
  sp.tileBytes = std::max<unsigned>(sp.tileBytes, unsigned(sp.step));
  if (!ctx_.options.rowwalk.asyncCopy) {
    // Plain copies: the loads in flight live in registers, 4 per 16-byte
    // piece: a tile takes rows x tileBytes / 4 of them per lane (64 for
    // one 256-byte row). 128 of them by default (2 tiles of 256 bytes, 4
    // of 128), at most 192 with rowwalk-stages (ptxas allows 255 per
    // thread; the body needs its own), at least one tile.
    const unsigned perTile = unsigned(sp.rows.size()) * sp.tileBytes / 4;
    sp.regTiles = std::max(1u, kPlainRegs / perTile);
    if (unsigned stages = ctx_.options.rowwalk.stages)
      sp.regTiles = std::max(1u, std::min<unsigned>(stages, kPlainMaxRegs / perTile));
    sp.stages = 2;  // the shared ring: one stage written while the other is read
    return true;
  }
  // Static shared memory: at most 48 KB per block.
  sp.stages = 48 * 1024 / sp.stageSize();
  if (unsigned stages = ctx_.options.rowwalk.stages)
    sp.stages = std::min<unsigned>(sp.stages, std::max(2u, stages));
  else
    sp.stages = std::min(sp.stages, 8u);
  if (sp.stages < 2) {
    why = "two tiles in flight do not fit in 48 KB of shared memory";
    return false;
  }
  return true;
}

namespace {

/// emitStaged's steps and the registers they share.
struct StagedEmit {
  ir::Module &m;
  std::vector<std::unique_ptr<Stmt>> &cb;
  Emitter &e;
  const StagedPlan &sp;
  StmtMap &before, &after;
  const std::set<size_t> &drop;
  const LanePlan &lp;
  const LoopBlock &L;
  std::string tag, header;
  unsigned ipt, pieces, rowsPerCopy, stageBytes, ring;
  std::string T, NT, NTmax, nt32;             // trip count, tiles (per lane: each lane's, the warp's)
  std::string rsub, dst0, own;                // the copies' row, destination, the lane's own row
  std::vector<std::vector<std::string>> src;  // copy sources, per row and piece
  std::vector<std::string> ntk;               // per lane: the tiles of each copy's row
  std::map<size_t, const StagedPlan::RowLoad *> rowLoad;
  std::map<size_t, const std::vector<size_t> *> runAt;
  std::set<size_t> inRun;
  std::set<std::string> labels;
  unsigned copies = 0;
  std::string issued, t;

  StagedEmit(ir::Module &m, std::vector<std::unique_ptr<Stmt>> &cb, Emitter &e, const StagedPlan &sp,
             StmtMap &before, StmtMap &after, const std::set<size_t> &drop)
      : m(m), cb(cb), e(e), sp(sp), before(before), after(after), drop(drop), lp(sp.lp), L(lp.loop) {
    tag = std::to_string(L.hs);
    header = std::string(static_cast<const ir::Label &>(*cb[L.hs]).name);
    ipt = sp.tileBytes / unsigned(sp.step);
    pieces = sp.tileBytes / 16;
    rowsPerCopy = kLanes / pieces;
    stageBytes = sp.stageSize();
    ring = stageBytes * sp.stages;
  }

  void movVec(const std::string &dst, const std::vector<std::string> &from, bool unpack) {
    auto mv = std::make_unique<Instruction>();
    mv->opcode = m.intern("mov.b64");
    Operand vec{Operand::Kind::Vector, "", {}};
    for (const auto &s : from) vec.elems.push_back(e.op(s));
    mv->operands = unpack ? std::vector<Operand>{vec, e.op(dst)} : std::vector<Operand>{e.op(dst), vec};
    mv->edited = true;
    e.out.push_back(std::move(mv));
  }

  /// The checks: the whole warp here, one trip count, aligned rows, a tile.
  /// Returns each row's piece of the iteration.
  std::vector<std::string> checks() {
    const std::string am = e.reg32(), pdiv = e.regp();
    e.ins("activemask.b32", {am});
    e.ins("setp.ne.u32", {pdiv, am, "0xFFFFFFFF"});
    e.ins("bra", {header}, pdiv);
    std::vector<std::string> v0;
    for (const IV &iv : lp.ivs) v0.push_back(iv.reg);  // the values at entry: the registers themselves
    T = lp.lessThan ? emitTripCountLess(e, lp, v0) : emitTripCount(e, lp, v0);
    const std::string tlo = e.reg32(), thi = e.reg32(), t0lo = e.reg32(), t0hi = e.reg32(), T0 = e.reg64();
    if (!sp.perLane) {
      movVec(T, {tlo, thi}, true);
      e.ins("shfl.sync.idx.b32", {t0lo, tlo, "0", "31", "-1"});
      e.ins("shfl.sync.idx.b32", {t0hi, thi, "0", "31", "-1"});
      movVec(T0, {t0lo, t0hi}, false);
    }
    const std::string ok = e.regp(), all = e.regp();
    NT = e.reg64();
    NTmax = NT;
    if (sp.perLane) nt32 = emitLaneTiles(e, T, NT, ipt, ok);
    // Per lane there is no lane 0's T to agree with: ok stays NT < 2^32 (a
    // setp.eq here read T0, never written on that path, and overwrote it).
    if (lp.lessThan) emitLessNoWrap(e, lp, v0, T, ok);
    else if (!sp.perLane) e.ins("setp.eq.u64", {ok, T0, T});
    std::vector<std::string> rowStart;  // each row's piece of the iteration
    for (size_t r = 0; r < sp.rows.size(); ++r) {
      if (!sp.wide[r].base.empty()) {
        rowStart.push_back(emitWideStart(e, sp.wide[r], sp.rowOff[r], T, ok));
      } else {
        rowStart.push_back(sp.rows[r]);
      }
      if (sp.wide[r].base.empty() && sp.rowOff[r]) {
        rowStart.back() = e.reg64();
        e.ins("add.s64", {rowStart.back(), sp.rows[r], std::to_string(sp.rowOff[r])});
      }
      const std::string a = e.reg64();
      e.ins("and.b64", {a, rowStart.back(), "15"});
      e.ins("setp.eq.and.u64", {ok, a, "0", ok});
    }
    if (!sp.perLane) {
      e.ins("shr.u64", {NT, T, std::to_string(log2u(ipt))});
      e.ins("setp.ne.and.u64", {ok, NT, "0", ok});
    }
    e.ins("vote.sync.all.pred", {all, ok, "-1"});
    e.ins("bra", {header}, "!" + all);
    if (sp.perLane) NTmax = emitWarpMaxTiles(e, nt32, header);
    return rowStart;
  }

  /// Copy sources: lane l copies piece l % pieces of rows k*rowsPerCopy + l / pieces.
  void copySources(const std::vector<std::string> &rowStart, const std::string &buffer) {
    const std::string lane = e.reg32();
    rsub = e.reg32();
    const std::string c16 = e.reg32(), c16w = e.reg64(), buf = e.reg32();
    dst0 = e.reg32();
    own = e.reg32();
    e.ins("bar.warp.sync", {"-1"});  // the lanes' stores before the loop are seen by the copies
    e.ins("mov.u32", {lane, "%laneid"});
    e.ins("shr.u32", {rsub, lane, std::to_string(log2u(pieces))});
    e.ins("and.b32", {c16, lane, std::to_string(pieces - 1)});
    e.ins("shl.b32", {c16, c16, "4"});
    e.ins("cvt.u64.u32", {c16w, c16});
    e.ins("mov.u32", {buf, buffer});
    e.ins("mad.lo.u32", {dst0, rsub, std::to_string(sp.rowPitch()), buf});
    e.ins("add.u32", {dst0, dst0, c16});
    e.ins("mad.lo.u32", {own, lane, std::to_string(sp.rowPitch()), buf});
    src.assign(sp.rows.size(), {});
    for (size_t r = 0; r < sp.rows.size(); ++r) {
      const std::string lo = e.reg32(), hi = e.reg32();
      movVec(rowStart[r], {lo, hi}, true);
      for (unsigned k = 0; k < pieces; ++k) {
        const std::string from = e.reg32(), slo = e.reg32(), shi = e.reg32(), s = e.reg64();
        e.ins("add.u32", {from, rsub, std::to_string(k * rowsPerCopy)});
        e.ins("shfl.sync.idx.b32", {slo, lo, from, "31", "-1"});
        e.ins("shfl.sync.idx.b32", {shi, hi, from, "31", "-1"});
        movVec(s, {slo, shi}, false);
        e.ins("add.s64", {s, s, c16w});
        src[r].push_back(s);
      }
    }
    if (sp.perLane) ntk = emitPieceTiles(e, nt32, rsub, pieces, rowsPerCopy);
  }

  /// What body() needs: the row loads, the runs, a multi-block loop's labels.
  void indexBody() {
    for (const auto &l : sp.loads) rowLoad[l.stmt] = &l;
    for (const auto &run : sp.runs) {
      runAt[*std::min_element(run.begin(), run.end())] = &run;
      inRun.insert(run.begin(), run.end());
    }
    // A loop of several blocks: each copy of the body has its own labels.
    labels = L.multi ? innerLabels(cb, L) : std::set<std::string>{};
  }

  void copyOf(const Stmt &s) {
    auto c = s.clone();
    c->span = {};
    c->edited = true;
    e.out.push_back(std::move(c));
  }

  /// A row load of copy `it` of the body, from the lane's row of the stage
  /// at `rp` (a vector load for a run's first load; nothing for the rest).
  /// False: none, the rest of statement i's copy is skipped.
  bool rowLoadCopy(size_t i, const Instruction &in, const StagedPlan::RowLoad &rl, unsigned it,
                   const std::string &rp) {
    if (inRun.count(i) && !runAt.count(i)) return false;  // loaded with its run
    const auto *run = runAt.count(i) ? runAt[i] : nullptr;
    const std::string type = typeModifier(in);
    auto ld = std::make_unique<Instruction>();
    const unsigned vector = analysis::memAccess(in)->vector;  // a vector row load: the same vector from the tile
    ld->opcode = m.intern("ld.shared" +
                          (run ? ".v" + std::to_string(run->size()) : vector > 1 ? ".v" + std::to_string(vector) : "") +
                          type);
    if (run) {
      Operand vec{Operand::Kind::Vector, "", {}};
      for (size_t at : *run) vec.elems.push_back(static_cast<const Instruction &>(*cb[at]).operands[0]);
      ld->operands.push_back(vec);
    } else {
      ld->operands.push_back(in.operands[0]);
    }
    const int64_t at = int64_t(rl.row) * sp.tileSize() + int64_t(it) * sp.step + rl.off;
    ld->operands.push_back(addressOf(e.m, rp, at));
    ld->edited = true;
    e.out.push_back(std::move(ld));
    return true;
  }

  /// IPT copies of the body whose row loads read the lane's row of the
  /// stage at `rp`.
  void body(const std::string &rp) {
    ++copies;
    for (unsigned it = 0; it < ipt; ++it)
      for (size_t i = L.hs + 1; i < L.ls; ++i) {
        const std::string suffix = "_g" + std::to_string(copies) + "_" + std::to_string(it);
        if (auto b = before.find(i); b != before.end())
          for (const auto &st : b->second) copyOf(*st);
        if (L.multi && cb[i]->kind == Stmt::Kind::Label) {
          copyOf(*cb[i]);
          renameCopy(m, *e.out.back(), labels, suffix);
        }
        if (!drop.count(i) && cb[i]->kind == Stmt::Kind::Instruction) {
          const Instruction &in = static_cast<const Instruction &>(*cb[i]);
          if (auto rl = rowLoad.find(i); rl != rowLoad.end()) {
            if (!rowLoadCopy(i, in, *rl->second, it, rp)) continue;
          } else {
            copyOf(in);
            if (L.multi) renameCopy(m, *e.out.back(), labels, suffix);
          }
        }
        if (auto a = after.find(i); a != after.end() && i != L.ls)
          for (const auto &st : a->second) copyOf(*st);
      }
  }

  /// Plain copies: K = regTiles register slots, each a tile's pieces
  /// (4 registers per 16-byte piece). The loop over tiles is unrolled K
  /// times (slots are registers: no indexing), each step j for tile t:
  /// store slot j (tile t) into stage t % 2, load tile t+K into slot j,
  /// bar.warp.sync, the body from stage t % 2. Stage t % 2 was last read
  /// by tile t-2, before tile t-1's bar.warp.sync: no second barrier.
  void plainTiles(const std::string &tileLabel) {
    const unsigned K = sp.regTiles;
    const std::string sofs = e.reg32(), doneLabel = "$L__ptxopt_st_done" + tag;
    e.ins("mov.u64", {t, "0"});
    e.ins("mov.u32", {sofs, "0"});
    std::vector<std::vector<std::vector<std::string>>> slot(K);  // slot, row * pieces + piece, 4 registers
    for (auto &sl : slot)
      for (size_t n = 0; n < sp.rows.size() * pieces; ++n) sl.push_back({e.reg32(), e.reg32(), e.reg32(), e.reg32()});
    auto vecOf = [&](const std::vector<std::string> &r) {
      Operand vec{Operand::Kind::Vector, "", {}};
      for (const auto &x : r) vec.elems.push_back(e.op(x));
      return vec;
    };
    auto load = [&](unsigned j) {
      const std::string p = e.regp();
      e.ins("setp.lt.u64", {p, issued, NT});
      std::vector<std::string> pk;
      if (sp.perLane) pk = emitPiecePreds(e, issued, ntk);
      for (size_t r = 0; r < sp.rows.size(); ++r)
        for (unsigned k = 0; k < pieces; ++k) {
          e.ins("ld.global.v4.b32", {"[" + src[r][k] + "]"}, sp.perLane ? pk[k] : p);
          auto &ld = static_cast<Instruction &>(*e.out.back());
          ld.operands.insert(ld.operands.begin(), vecOf(slot[j][r * pieces + k]));
          e.ins("add.s64", {src[r][k], src[r][k], std::to_string(sp.tileBytes)});
        }
      e.ins("add.u64", {issued, issued, "1"});
    };
    for (unsigned j = 0; j < K; ++j) load(j);
    e.label(tileLabel);
    for (unsigned j = 0; j < K; ++j) {
      const std::string d = e.reg32(), rp = e.reg32();
      e.ins("add.u32", {d, dst0, sofs});
      for (size_t r = 0; r < sp.rows.size(); ++r)
        for (unsigned k = 0; k < pieces; ++k) {
          const unsigned at = unsigned(r) * sp.tileSize() + k * rowsPerCopy * sp.rowPitch();
          e.ins("st.shared.v4.b32", {});
          auto &st = static_cast<Instruction &>(*e.out.back());
          st.operands = {addressOf(e.m, d, at), vecOf(slot[j][r * pieces + k])};
        }
      load(j);
      e.ins("bar.warp.sync", {"-1"});  // every lane's stores of tile t are seen by all; tile t-1 is read
      e.ins("add.u32", {rp, own, sofs});
      const std::string mine = "$L__ptxopt_st_own" + tag + "_" + std::to_string(j);
      if (sp.perLane) {
        const std::string past = e.regp();  // this lane's row has no tile t
        e.ins("setp.ge.u64", {past, t, NT});
        e.ins("bra", {mine}, past);
      }
      body(rp);
      if (sp.perLane) e.label(mine);
      e.ins("xor.b32", {sofs, sofs, std::to_string(stageBytes)});
      const std::string more = e.regp();
      e.ins("add.u64", {t, t, "1"});
      e.ins("setp.lt.u64", {more, t, NTmax});
      if (j + 1 < K) e.ins("bra", {doneLabel}, "!" + more);
      else e.ins("bra", {tileLabel}, more);
    }
    if (K > 1) e.label(doneLabel);
  }

  /// Asynchronous copies (cp.async) into a ring of sp.stages stages.
  void asyncTiles(const std::string &tileLabel) {
    const std::string wofs = e.reg32(), rofs = e.reg32();
    e.ins("mov.u32", {wofs, "0"});
    e.ins("mov.u32", {rofs, "0"});
    e.ins("mov.u64", {t, "0"});
    auto wrap = [&](const std::string &ofs) {
      const std::string p = e.regp();
      e.ins("add.u32", {ofs, ofs, std::to_string(stageBytes)});
      e.ins("setp.ge.u32", {p, ofs, std::to_string(ring)});
      e.ins("mov.u32", {ofs, "0"}, p);
    };
    auto issue = [&]() {
      const std::string p = e.regp(), d = e.reg32();
      e.ins("setp.lt.u64", {p, issued, NT});
      e.ins("add.u32", {d, dst0, wofs});
      for (size_t r = 0; r < sp.rows.size(); ++r)
        for (unsigned k = 0; k < pieces; ++k) {
          const unsigned at = unsigned(r) * sp.tileSize() + k * rowsPerCopy * sp.rowPitch();
          e.ins("cp.async.cg.shared.global", {"[" + src[r][k] + "]", "16"}, p);
          auto &cp = static_cast<Instruction &>(*e.out.back());
          cp.operands.insert(cp.operands.begin(), addressOf(e.m, d, at));
          e.ins("add.s64", {src[r][k], src[r][k], std::to_string(sp.tileBytes)});
        }
      e.ins("cp.async.commit_group", {});
      e.ins("add.u64", {issued, issued, "1"});
      wrap(wofs);
    };
    for (unsigned s = 0; s + 1 < sp.stages; ++s) issue();
    e.label(tileLabel);
    issue();
    e.ins("cp.async.wait_group", {std::to_string(sp.stages - 1)});
    e.ins("bar.warp.sync", {"-1"});  // every lane's copies of tile t are seen by all
    const std::string rp = e.reg32();
    e.ins("add.u32", {rp, own, rofs});
    body(rp);
    e.ins("bar.warp.sync", {"-1"});  // every lane has read the stage before its next copy
    wrap(rofs);
    const std::string more = e.regp();
    e.ins("add.u64", {t, t, "1"});
    e.ins("setp.lt.u64", {more, t, NT});
    e.ins("bra", {tileLabel}, more);
    e.ins("cp.async.wait_all", {});
  }
};

}  // namespace

void emitStaged(ir::Module &m, std::vector<std::unique_ptr<Stmt>> &cb, Emitter &e, const StagedPlan &sp,
                const std::string &buffer, StmtMap &before, StmtMap &after, const std::set<size_t> &drop) {
  StagedEmit se(m, cb, e, sp, before, after, drop);
  const LoopBlock &L = se.L;
  const std::string tileLabel = "$L__ptxopt_st_tile" + se.tag, exitLabel = "$L__ptxopt_st_exit" + se.tag;
  const std::vector<std::string> rowStart = se.checks();
  se.copySources(rowStart, buffer);
  se.indexBody();
  se.issued = e.reg64();
  se.t = e.reg64();
  e.ins("mov.u64", {se.issued, "0"});
  if (sp.regTiles) se.plainTiles(tileLabel);
  else se.asyncTiles(tileLabel);
  // The remaining iterations in the original loop, if any.
  const std::string done = e.reg64(), rest = e.regp();
  e.ins("shl.b64", {done, se.NT, std::to_string(log2u(se.ipt))});
  e.ins("setp.eq.u64", {rest, done, se.T});
  e.ins("bra", {exitLabel}, rest);
  for (auto &st : e.out) before[L.hs].push_back(std::move(st));
  e.out.clear();
  e.label(exitLabel);
  auto &list = after[L.ls];
  list.insert(list.begin(), std::move(e.out.front()));
  e.out.clear();
}

bool stagedMapsYToZ(const ir::Function &k) {
  bool y = false, z = false;
  ir::forEachStmt(*k.body, [&](const ir::Stmt &s) {
    if (s.kind != ir::Stmt::Kind::Instruction) return;
    for (const auto &op : static_cast<const ir::Instruction &>(s).operands)
      analysis::forEachRegister(op, [&](const ir::Operand &o) {
        y |= o.text == "%ctaid.y" || o.text == "%nctaid.y";
        z |= o.text == "%ctaid.z" || o.text == "%nctaid.z";
      });
  });
  return y && !z;
}

void finishStaged(ir::Module &m, ir::Function &clone, Emitter &e, const std::string &buffer, unsigned bytes,
                  bool yToZ) {
  // One warp per block: hardware block (b, B, z) of 32 threads runs
  // logical threads 32b..32b+31 of logical block B. A kernel that reads
  // the block's y index and not its z index (`yToZ`, stagedMapsYToZ of the
  // kernel): its logical block y is the hardware block's z (the launch's
  // grid.z is 1).
  const std::string lt = e.reg32(), ln = e.reg32(), lc = e.reg32(), lnc = e.reg32(), zero = e.reg32(),
                    one = e.reg32();
  const std::string ly = yToZ ? e.reg32() : zero, lny = yToZ ? e.reg32() : one;
  std::map<std::string, std::string> names = {{"%tid.x", lt},    {"%ntid.x", ln},    {"%ctaid.x", lc},
                                              {"%nctaid.x", lnc}, {"%ctaid.y", ly}, {"%nctaid.y", lny}};
  if (yToZ) names.insert({{"%ctaid.z", zero}, {"%nctaid.z", one}});
  replaceSpecialReads(*clone.body, names, m);
  const std::string cta = e.reg32(), ncta = e.reg32(), tid = e.reg32();
  e.ins("mov.u32", {cta, "%ctaid.x"});
  e.ins("mov.u32", {ncta, "%nctaid.x"});
  e.ins("mov.u32", {tid, "%tid.x"});
  e.ins("mov.u32", {lc, "%ctaid.y"});
  e.ins("mov.u32", {lnc, "%nctaid.y"});
  if (yToZ) {
    e.ins("mov.u32", {ly, "%ctaid.z"});
    e.ins("mov.u32", {lny, "%nctaid.z"});
  }
  e.ins("mad.lo.s32", {lt, cta, std::to_string(kLanes), tid});
  e.ins("shl.b32", {ln, ncta, "5"});
  e.ins("mov.u32", {zero, "0"});
  e.ins("mov.u32", {one, "1"});
  insertPrologue(clone, e, true);
  auto d = std::make_unique<ir::Decl>();
  d->attrs = {m.intern(".shared"), m.intern(".align"), m.intern("16"), m.intern(".b8")};
  d->names.push_back({m.intern(buffer), std::nullopt, {uint64_t(bytes)}});
  d->edited = true;
  auto &body = clone.body->body;
  body.insert(body.begin(), std::move(d));
  dropBlockShapeDirectives(clone);
}

Variant stagedVariant(const Variant &base, const std::string &name, bool yToZ) {
  Variant v = base;
  v.kind = "staged";
  v.name = name;
  v.grid = {DimSource{DimSource::From::Block, 0, kLanes}, DimSource{DimSource::From::Grid, 0},
            DimSource{DimSource::From::Grid, uint8_t(yToZ ? 1 : 2)}};
  v.block = {DimSource::constant(kLanes), DimSource::constant(1), DimSource::constant(1)};
  v.blockMultiple[0] = kLanes;
  v.blockMax[1] = v.blockMax[2] = 1;
  v.gridMax[yToZ ? 2 : 1] = 1;
  v.allowDynamicShared = false;  // the tiles take the static shared memory
  return v;
}

}  // namespace ptxopt::transforms::rowwalk
