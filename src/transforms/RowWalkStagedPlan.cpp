// rowwalk, step 3's planning: which loops get the staged clone, their rows,
// the rows' loads and runs, the stores they must be kept apart from and the
// tiles' size; the alignment conditions and rows read with gaps:
// RowWalkStagedAlign.cpp. The clone itself and its algorithm:
// RowWalkStaged.cpp; overview: RowWalk.cpp.
//
// Refuses (remark), with its reason: rowwalk-staged-copy=async on a target
// below sm_80; a loop that writes memory other than coalesced stores into
// other allocations and stores along its rows (its tiles are read ahead): a
// store along a row under a guard whose loads are guarded too, one that
// reads back an element stored two or more iterations before (its loads do
// not cover the piece exactly; one stored by the previous iteration, a scan,
// is a carried load: rowPieces), a scan walking down, under a guard, with
// an early exit, over 8- or 16-bit elements or with cp.async, one whose
// row the loop also reads
// elsewhere (floyd-warshall's `p[i*n + k]`: the same parameter); a row
// walked by a register that is not a 64-bit induction variable with a step
// of 16, 32, 64 or 128 bytes (48 or 96: rows of 12- or 24-byte elements,
// tripleStep, in 192-byte tiles; not stored into, walked down, beside
// other steps, per lane or with cp.async), nor base + scale * a widened 32-bit index
// advancing as much (RowWalkIndex.cpp: then each warp also checks that no
// index of the loop wraps; rows of 8- and 16-bit elements step 4-128 bytes:
// RowWalkShort.cpp), nor an offset plus a 64-bit induction variable (two
// rows at one index, `A[i*n + j] * B[i*n + j]`: offsetAddress); rows whose
// alignment no launch condition can check (rowsCanAlign: the unaligned
// clone only; the others' conditions go on the variant: the base pointer,
// the row length a multiple of 16 bytes; pieces a constant off a 16-byte
// boundary wherever the conditions align the rows, `for (j = 1; ...)`:
// the unaligned clone only where it takes the loop, unalignedOnly); row loads that are not global,
// plain, 1, 2, 4 or 8 bytes or a vector of 8 or 16 bytes of 4- or 8-byte
// elements (float4, float2, double2 rows a program vectorized itself: each
// a piece of its own, read from the tile as the same vector), before the
// register's update, and exactly cover each iteration's piece, or read it
// with gaps no copy of a 16-byte block can tell from the original's reads
// (gapsRefusal: unguarded, only read, the only row of its pointer, its
// allocation checked per warp; the aligned clone only); more than
// three rows, or two read, per thread (the tiles' shared memory); a
// constant trip count (`#define N`, nvcc's loop unrolled by 16) whose row
// is under kStagedMinRow elements (kMinRow when forced): constant rows get
// no row-length launch condition. Rows advancing by different steps (bytes
// beside 32-bit words) with cp.async, per-lane trip counts, rows walked
// down, in the unaligned clone, and where a row's tile would not be whole
// 16-byte pieces (sizeTiles).
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
std::string stepRefusal(int64_t step, unsigned bytes, bool wide, const std::string &reg, bool smallSteps,
                        bool smallWide) {
  // (Loops nvcc did not unroll by 4, on the small-step retry: one or two 8-
  // or 16-bit elements an iteration, 64-256 copies of the body a tile.)
  if (bytes < 4)
    return shortRowStep(step) || (smallSteps && (!wide || smallWide) &&
                                  (step == int64_t(bytes) || step == 2 * int64_t(bytes)))
               ? ""
                              : "a row of " + std::to_string(bytes * 8) + "-bit elements through " + reg +
                                    " advancing " + std::to_string(step) +
                                    " bytes per iteration (not 4, 8, 16, 32, 64 or 128)";
  if (step > 0 && step % 16 == 0 && step <= 128 && isPow2(step)) return "";
  // Rows of 12- or 24-byte elements (float3, int3, double3, a struct of
  // three floats), four a nvcc-unrolled iteration: 192-byte tiles
  // (tripleStep, sizeTiles).
  if (tripleStep(step)) return "";
  // Loops nvcc did not unroll (`#pragma unroll 1`), on the small-step retry
  // (planStagedLoops): one or two elements an iteration, 32-64 copies of the
  // body per tile.
  if (smallSteps && (!wide || smallWide) && (step == int64_t(bytes) || step == 2 * int64_t(bytes)) && step >= 4 &&
      step <= 8)
    return "";
  return wide ? "the 32-bit index of " + reg + " advances " + std::to_string(step) +
                    " bytes per iteration (not 16, 32, 64 or 128)"
              : "the row register " + reg +
                    " is not a 64-bit induction variable stepping 16, 32, 48, 64, 96 or 128 bytes";
}
}  // namespace

bool tripleStep(int64_t step) { return step == 48 || step == 96; }

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
  if (!trip || (sp.loads.empty() && sp.stores.empty())) return true;
  const auto &front = (sp.loads.empty() ? sp.stores : sp.loads).front();
  const unsigned bytes = analysis::memAccess(*instr(front.stmt))->bytes();
  const int64_t elems = *trip * sp.rowStep[front.row] / int64_t(bytes);
  const int64_t least = ctx_.options.rowwalk.staged.value_or(false) ? kMinRow : kStagedMinRow;
  if (elems >= least) return true;
  why = "the row is a constant " + std::to_string(elems) + " elements, under the " + std::to_string(least) +
        " the staged clone was measured faster on";
  return false;
}

/// planStaged's second step: each row's loads cover each iteration's S
/// bytes exactly (the copies then read no byte the thread would not), in
/// sp.loads by offset from the piece's start (sp.rowOff); so do its stores,
/// if any (the write-back writes every byte of the tile), in sp.stores;
/// rows of 8- and 16-bit elements (shortRuns); 16-byte runs of one type,
/// one shared load each (sp.runs).
bool Planner::rowPieces(const LoopBlock &L, StagedPlan &sp, std::map<std::string, std::map<int64_t, size_t>> &byRow,
                        std::map<std::string, std::map<int64_t, size_t>> &storedAt, const std::set<size_t> &removed,
                        std::string &why) {
  // The accesses of `at` cover [first, first + S) exactly, each recorded in `into`.
  auto covers = [&](const std::string &row, const std::map<int64_t, size_t> &at, int64_t first, unsigned r,
                    std::vector<StagedPlan::RowLoad> &into, const char *what) {
    int64_t next = first;
    for (const auto &[off, i] : at) {
      if (off != next) break;
      next += analysis::memAccess(*instr(i))->bytes();
      into.push_back({i, r, off - first});
    }
    if (next == first + sp.rowStep[r] && into.size() >= at.size()) return true;
    why = std::string("the ") + what + " of " + row + " do not cover each iteration's " + std::to_string(sp.rowStep[r]) +
          " bytes exactly";
    return false;
  };
  for (unsigned r = 0; r < sp.rows.size(); ++r) {
    auto loads = byRow[sp.rows[r]];
    const auto &stores = storedAt[sp.rows[r]];
    // A scan (`a[j] += a[j-1]` in place, `s[j] = s[j-1] + x[j]` into
    // another row): the lowest load reads the element the previous
    // iteration stored last (a store of its width S_r above it), just below
    // where the iteration's other accesses of the row start: a carried load.
    int64_t carriedEnd = INT64_MIN;  // where the carried element ends: the piece's start
    if (!loads.empty() && !L.multi) {
      const auto [lo, li] = *loads.begin();
      const unsigned w = analysis::memAccess(*instr(li))->bytes();
      const auto st = stores.find(lo + sp.rowStep[r]);
      const int64_t next = std::min(loads.size() > 1 ? std::next(loads.begin())->first : INT64_MAX,
                                    stores.empty() ? INT64_MAX : stores.begin()->first);
      if (st != stores.end() && analysis::memAccess(*instr(st->second))->bytes() == w && next == lo + int64_t(w) &&
          instr(li)->guard.empty() && instr(st->second)->guard.empty() &&
          analysis::memAccess(*instr(li))->vector == 1) {
        sp.carried.push_back({li, r, -int64_t(w)});
        carriedEnd = lo + int64_t(w);
        loads.erase(loads.begin());
      }
    }
    sp.loaded.push_back(!loads.empty());
    sp.gapped.push_back(false);
    // (nvcc's 64-bit loops address, [R-8], [R], [R+8]: the piece starts at the lowest offset.)
    const int64_t first = loads.empty() ? stores.begin()->first : loads.begin()->first;
    sp.rowOff.push_back(first);
    if (carriedEnd != INT64_MIN && first != carriedEnd) {
      why = "each iteration reads the element the previous one stored, but the row's other accesses start " +
            std::to_string(first - carriedEnd) + " bytes past it";
      return false;
    }
    std::vector<StagedPlan::RowLoad> got;
    if (!loads.empty() && !covers(sp.rows[r], loads, first, r, got, "loads") &&
        (carriedEnd != INT64_MIN || !gappedLoads(L, sp, byRow, removed, loads, first, r, !stores.empty(), got, why)))
      return false;
    sp.loads.insert(sp.loads.end(), got.begin(), got.end());
    got.clear();
    // A row the loop reads whole, unconditionally (its loads cover the
    // piece, none under a guard): the tile holds every byte, so its stores
    // may be any of them, under guards too (`if (v < 0) a[j] = 0`): the
    // write-back writes each element read back unchanged or as stored, and
    // another thread writing an element this thread reads would race in
    // the original already. Otherwise they cover the piece, unguarded.
    bool readWhole = !loads.empty();
    for (const auto &[off, i] : loads) readWhole &= !L.guarded.count(i) && instr(i)->guard.empty();
    bool guardedStore = false;
    for (const auto &[off, i] : stores) guardedStore |= L.guarded.count(i) || !instr(i)->guard.empty();
    if (readWhole) {
      for (const auto &[off, i] : stores) {
        if (off < first || off + int64_t(analysis::memAccess(*instr(i))->bytes()) > first + sp.rowStep[r]) {
          why = "a store into " + sp.rows[r] + " outside each iteration's " + std::to_string(sp.rowStep[r]) + " bytes";
          return false;
        }
        got.push_back({i, r, off - first});
      }
    } else if (guardedStore) {
      why = "the loop writes memory (" + std::string(instr(stores.begin()->second)->opcode) +
            ") along a row under a guard and does not read every element of the row unconditionally (the "
            "tiles' write-back writes every element, which another thread could be writing)";
      return false;
    } else if (!stores.empty() && !covers(sp.rows[r], stores, first, r, got, "stores")) {
      return false;
    }
    sp.stores.insert(sp.stores.end(), got.begin(), got.end());
    std::string shortWhy;
    if (!shortRuns(loads, removed, sp, r, shortWhy)) {
      why = shortWhy;
      return false;
    }
    // 16-byte runs of one type: one shared load each (rows of 4- and 8-byte elements).
    for (int64_t q = first; q < first + sp.rowStep[r] && !sp.shortRow[r]; q += 16) {
      std::vector<size_t> run;
      std::string type;
      bool same = true;
      for (const auto &[off, i] : loads)
        if (off >= q && off < q + 16) {
          run.push_back(i);
          std::string t = typeModifier(*instr(i));
          same &= type.empty() || t == type;
          same &= analysis::memAccess(*instr(i))->vector == 1;  // a vector load is a piece of its own
          type = t;
        }
      // A row read with gaps: only runs with no gap, from the 16-byte
      // boundary on, of 8 or 16 bytes (one ld.shared.v2 or .v4).
      int64_t end = q;
      for (const auto &[off, i] : loads)
        if (off >= q && off < q + 16) same &= off == end, end = off + analysis::memAccess(*instr(i))->bytes();
      if (sp.gapped[r]) same &= end - q == 16 || end - q == 8;
      if (same && run.size() > 1 && movableRun(run, removed, sp.rows[r])) sp.runs.push_back(run);
    }
  }
  return true;
}

/// The loop's stores are kept apart from what the tiles read ahead and
/// write back late: a coalesced store (sp.lp.stores) from every row; a
/// row's store (sp.stores) from every global load of the loop but its own
/// row's and from the other rows' stores. Each pair through two pointer
/// parameters is a launch condition (sp.disjoint); anything else refuses.
bool Planner::rowStoresApart(const LoopBlock &L, StagedPlan &sp, std::string &why) {
  auto apart = [&](size_t st, size_t other) {
    if (disjointBases(k_, *accessAt_.at(st), *accessAt_.at(other), sp.disjoint)) return true;
    const bool rowStore = std::any_of(sp.stores.begin(), sp.stores.end(), [&](const auto &r) { return r.stmt == st; });
    why = "the loop writes memory (" + std::string(instr(st)->opcode) + ") through a pointer that may reach " +
          (!rowStore ? "its rows"
           : analysis::memAccess(*instr(other))->kind == analysis::MemAccess::Kind::Store
               ? "another row it stores"
               : "memory it reads") +
          " (the same parameter, or a base the analysis cannot trace): " +
          (rowStore ? "its row's tiles are written back after it" : "the tiles are read ahead of it");
    return false;
  };
  for (size_t st : sp.lp.stores)
    for (const auto &l : sp.loads)
      if (!apart(st, l.stmt)) return false;
  for (const auto &st : sp.stores) {
    for (size_t st2 : sp.lp.stores)
      if (!apart(st.stmt, st2)) return false;
    for (const auto &o : sp.stores)
      if (o.row != st.row && !apart(st.stmt, o.stmt)) return false;
    std::set<size_t> ownLoads;
    for (const auto &l : sp.loads)
      if (l.row == st.row) ownLoads.insert(l.stmt);
    for (const auto &l : sp.carried)
      if (l.row == st.row) ownLoads.insert(l.stmt);
    for (size_t i = L.hs + 1; i < L.ls; ++i) {
      if (!accessAt_.count(i) || ownLoads.count(i)) continue;
      const auto mem = analysis::memAccess(*instr(i));
      if (mem && mem->kind == analysis::MemAccess::Kind::Load && (mem->space == ".global" || mem->space.empty()) &&
          !apart(st.stmt, i))
        return false;
    }
  }
  return true;
}

/// stagedRowAccess's check of an access's form: a store along a row is
/// `st.global [reg+off], value` of a 1-, 2-, 4- or 8-byte scalar; a load,
/// a plain unguarded global load of [reg+off] of 1, 2, 4, 8 or 16 bytes, or
/// a vector of 4, 8 or 16 (`vec`: float4 rows a program vectorized itself,
/// `reinterpret_cast<const float4 *>(A + i*m)[j]`, uchar4 and short4
/// pixels: one piece of the row, read from the tile as the same vector).
bool Planner::rowAccessForm(const Instruction &in, bool store, std::string &reg, int64_t &off, bool &vec,
                            std::string &why) const {
  const auto mem = analysis::memAccess(in);
  if (store) {
    if (!mem || mem->space != ".global" || mem->vector != 1 || mem->bytes() > 8 || !plainMemoryOp(in) ||
        in.operands.size() != 2 || !baseAndOffset(in.operands[0], reg, off)) {
      why = "a store along the row (" + std::string(in.opcode) +
            ") is not a plain global store of a 1-, 2-, 4- or 8-byte scalar to [reg+offset]";
      return false;
    }
    return true;
  }
  vec = mem && mem->vector > 1 && (mem->bytes() == 4 || mem->bytes() == 8 || mem->bytes() == 16) &&
        in.operands.size() == 2 && in.operands[0].kind == Operand::Kind::Vector;
  if (!mem || mem->kind != analysis::MemAccess::Kind::Load || mem->space != ".global" || (mem->vector != 1 && !vec) ||
      (mem->bytes() != 1 && mem->bytes() != 2 && mem->bytes() != 4 && mem->bytes() != 8 && mem->bytes() != 16) ||
      !in.guard.empty() || !plainMemoryOp(in) || in.operands.size() != 2 || (!vec && !in.operands[0].isReg()) ||
      !baseAndOffset(in.operands[1], reg, off)) {
    why = "a load along the row (" + std::string(in.opcode) +
          ") is not a plain global load of [reg+offset]: 1, 2, 4 or 8 bytes, or a vector of 4, 8 or 16";
    return false;
  }
  return true;
}

/// planStaged's first step, for the access at statement i of L: a load
/// or store walking a row (up, or down when `up` is false) joins sp.rows
/// and the maps of `m`; any other access is left alone (true); false with
/// `why` when the row cannot be staged.
bool Planner::stagedRowAccess(const LoopBlock &L, StagedPlan &sp, size_t i, const RowAccessScan &scan, RowMaps &m,
                              std::string &why) {
  const uint16_t counter = scan.counter;
  const bool up = scan.up, unknown = scan.unknown;
  const std::set<size_t> &rowStores = scan.rowStores;
  const AccessInfo &a = *accessAt_.at(i);
  bool walks = false;
  for (const auto &s : a.strides) walks |= s.symbol == counter && s.constant && (up ? *s.constant > 0 : *s.constant < 0);
  const bool store = rowStores.count(i) != 0;
  if (unknown && a.verdict == AccessInfo::Verdict::Unknown && !store) walks = true;
  else if (!store && (a.verdict != AccessInfo::Verdict::Uncoalesced || !walks)) return true;
  const Instruction &in = *instr(i);
  std::string reg;
  int64_t off = 0;
  const auto mem = analysis::memAccess(in);
  bool vec = false;
  if (!rowAccessForm(in, store, reg, off, vec, why)) return false;
  if (L.multi && !store && !rowLoadEveryIteration(L, i, reg, sp.guardedLoads, why)) return false;
  if (L.multi && store) {  // its address computed every iteration, or in its block before it
    std::set<std::string> seen;
    if (!unguardedAddress(L, reg, seen, 0, L.guarded.count(i) ? i : SIZE_MAX)) {
      why = "the address of a store along the row is computed under a guard in the loop";
      return false;
    }
  }
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
  const bool wideIndex = !iv && wideAddress(L, sp.lp, i, reg, w, c, key);
  const bool wide = wideIndex || (!iv && offsetAddress(L, sp.lp, i, reg, w, key));
  if (vec && (L.multi || (wide && !wideIndex))) {
    // Vector rows were run on the GPU through a 64-bit induction variable
    // or a 32-bit index, in single-block loops (gpu-diff "rowwalk vec").
    why = "a row read as vectors (" + std::string(in.opcode) + ") " +
          (L.multi ? "in a loop of several blocks" : "through a base plus a 64-bit offset") +
          " (vector rows were measured in single-block loops, by pointer or 32-bit index, only)";
    return false;
  }
  if (wide) {
    // A 32-bit index: base + scale * ext(x), x advancing elemStep.
    step = w.elemStep * w.scale;
    off += c * w.scale;
  } else if (!iv || iv->bits != 64 || !iv->immStep) {
    step = 0;
  }
  const bool down = step < 0;
  if (down && (wideIndex || mem->bytes() < 4 || vec)) {
    why = "a row walked downwards through " +
          std::string(wideIndex ? "a 32-bit index" : mem->bytes() < 4 ? "8- or 16-bit elements" : "vectors") +
          " (the staged clone's tiles go down rows of 4- and 8-byte scalars through a 64-bit pointer only)";
    return false;
  }
  if (down && (smallSteps_ || -step < 16)) {
    // nvcc puts a downward loop's remainder (n % 4 elements, one an
    // iteration) before the unrolled loop, whose start the access analysis
    // then cannot place: staging the remainder alone would send every
    // warp to the original loop in one-warp blocks, slower.
    why = "a row walked downwards one element an iteration (nvcc's remainder loop, which it puts before the "
          "unrolled loop, whose start the access analysis then cannot place)";
    return false;
  }
  why = stepRefusal(down ? -step : step, mem->bytes(), wide, reg, smallSteps_, smallWide_);
  if (!why.empty()) return false;
  if (down) step = -step;
  // After its update the register is one step on: nvcc's rotated loops
  // (clone::peelRotatedLoops) read the first elements of an iteration
  // before the update and the rest after it.
  if (iv && iv->update < i) off += iv->step;
  std::optional<StagedPlan::Sibling> sibling;  // of a row found before: its registers' distance at the entry
  if (!store && (iv ? !wide : wide && !wideIndex))
    sibling = siblingRow(sp, i, m, down ? -step : step, iv ? nullptr : &w, key, off);
  if (sp.rows.empty()) sp.step = step, sp.down = down;
  // Rows of different element sizes (bytes summed into a row of 32-bit
  // integers, a `__half` row times a float row) advance by different
  // steps: each row's tile holds the same iterations (sizeTiles), walked
  // up only.
  const auto known = std::find(sp.rows.begin(), sp.rows.end(), key);
  const bool same = known != sp.rows.end() ? step == sp.rowStep[size_t(known - sp.rows.begin())] : step == sp.step;
  if (down != sp.down || (!same && (down || known != sp.rows.end()))) {
    why = known != sp.rows.end() ? "one row advancing by different steps"
                                 : "rows advancing by different steps (one walked down)";
    return false;
  }
  sp.step = std::max(sp.step, step);
  if (auto at = known; at == sp.rows.end()) {
    sp.rows.push_back(key);
    sp.rowStep.push_back(step);
    w.cmin = w.cmax = c;
    sp.wide.push_back(w);
  } else {
    auto &seen = sp.wide[size_t(at - sp.rows.begin())];
    seen.cmin = std::min(seen.cmin, c);
    seen.cmax = std::max(seen.cmax, c);
  }
  if (store) {
    if (!m.storedAt[key].emplace(off, i).second) {
      why = "two stores into one row at the same offset";
      return false;
    }
  } else if (m.byRow[key].emplace(off, i).second) {
    if (sibling &&
        std::none_of(sp.siblings.begin(), sp.siblings.end(), [&](const auto &x) { return x.reg == sibling->reg; }))
      sp.siblings.push_back(*sibling);
  } else {
    // Read again (deriche's `xm1 = in[j]` reloaded after a store the
    // compiler could not keep apart): the same element of the tile, when
    // it is the same width.
    const Instruction &first = *instr(m.byRow[key][off]);
    if (typeModifier(first) != typeModifier(in) || mem->vector != 1 ||
        analysis::memAccess(first)->bytes() != mem->bytes()) {
      why = "two loads of one row at the same offset";
      return false;
    }
    m.again[key].push_back({off, i});
  }
  return true;
}

/// planStaged's checks of what the tiles can do with the rows found: a
/// scan (an element read the iteration after its store), rows walked down,
/// rows of different steps and stores along a row, each against the
/// options and the loop's guards and exits.
bool Planner::stagedFormsAllowed(const LoopBlock &L, const StagedPlan &sp, std::string &why) const {
  if (!sp.carried.empty() && (sp.down || ctx_.options.rowwalk.asyncCopy || sp.guardedLoads || !L.exits.empty() ||
                              sp.shortRow[sp.carried.front().row])) {
    why = "each iteration reads the element the previous one stored (a scan) " +
          std::string(sp.down ? "walking down"
                      : ctx_.options.rowwalk.asyncCopy ? "(only the plain copies keep the previous tile; "
                                                         "rowwalk-staged-copy=async asked for cp.async)"
                      : sp.shortRow[sp.carried.front().row] ? "along a row of 8- or 16-bit elements (the unaligned "
                                                             "clone, which takes scans, reads 4- and 8-byte ones)"
                                                           : "under a guard or with an early exit");
    return false;
  }
  if (sp.down && (ctx_.options.rowwalk.asyncCopy || sp.guardedLoads || sp.gaps())) {
    why = std::string("the row is walked downwards ") +
          (sp.guardedLoads || sp.gaps()
               ? std::string(sp.gaps() ? "and read with gaps" : "and read under a guard") +
                     " (the allocation checks assume tiles going up)"
                           : "(only the plain copies' tiles go down; rowwalk-staged-copy=async asked for cp.async)");
    return false;
  }
  if (sp.mixedSteps() && ctx_.options.rowwalk.asyncCopy) {
    why = "rows advancing by different steps: only the plain copies take them (rowwalk-staged-copy=async asked for "
          "cp.async)";
    return false;
  }
  if (tripleStep(sp.step)) {
    // 192-byte tiles, 12 pieces a row: the warp's copies split 16 slots
    // (RowWalkStaged.cpp copySources); the forms that move or index pieces
    // otherwise (per-lane tiles, the write-back, tiles going down, rows of
    // other steps, cp.async's fixed ring) are not taken.
    const char *form = sp.mixedSteps()                     ? "beside rows of other steps"
                       : sp.down                           ? "walked downwards"
                       : sp.hasRowStores()                 ? "stored into"
                       : !sp.carried.empty()               ? "in a scan"
                       : ctx_.options.rowwalk.asyncCopy    ? "with cp.async (rowwalk-staged-copy=async)"
                       : nullptr;
    if (form) {
      why = "rows of 12- or 24-byte elements (" + std::to_string(sp.step) + " bytes an iteration) " + form +
            ": the staged clone reads them through plain copies, up the row, only";
      return false;
    }
  }
  if (sp.hasRowStores() && ctx_.options.rowwalk.asyncCopy) {
    why = "it stores along a row: only the plain copies write tiles back (rowwalk-staged-copy=async asked for "
          "cp.async)";
    return false;
  }
  return true;
}

bool Planner::planStaged(const LoopBlock &L, const KernelPlan &plan, StagedPlan &sp, std::string &why) {
  if (!planLanes(L, plan, sp.lp, why, true)) return false;
  std::set<size_t> removed;
  for (const auto &[hs, acc] : plan.accList)
    if (hs == L.hs) removed.insert(acc.stores.begin(), acc.stores.end());
  analysis::Symbol cs{analysis::Symbol::Kind::LoopCounter};
  cs.loop = L.id;
  const uint16_t counter = fa_.affine().symbolId(cs);
  const bool unknown = unknownRows(L, sp.lp, removed);  // RowWalkTri.cpp
  const std::set<size_t> rowStores(sp.lp.rowStores.begin(), sp.lp.rowStores.end());
  // Rows walked down (`for (j = n - 1; j >= 0; j--)`, deriche's anti-causal
  // pass) only in a loop that walks no row up: beside rows walked up, a
  // load walking down is read from global memory as before.
  // And (seen) whether any access walks a row at all: planLanes took the
  // loop on a first look at loads through 32-bit indices (unknownRows
  // before the induction variables were known); where neither that look,
  // now with them, nor any access the analysis sees walks a row, say what
  // planLanes would have said.
  bool up = false, seen = !rowStores.empty();
  for (size_t i = L.hs + 1; i < L.ls; ++i)
    if (!removed.count(i) && accessAt_.count(i)) {
      const bool unc = accessAt_.at(i)->verdict == AccessInfo::Verdict::Uncoalesced;
      for (const auto &s : accessAt_.at(i)->strides) {
        const bool along = s.symbol == counter && s.constant;
        up |= along && *s.constant > 0 && (unc || rowStores.count(i));
        seen |= along && *s.constant != 0 && unc;
      }
    }
  if (!seen && !unknown) {
    why = "no access of the loop is uncoalesced along %tid.x and unit-stride along the loop";
    return false;
  }
  const RowAccessScan scan{counter, up, unknown, rowStores};
  RowMaps m;
  for (size_t i = L.hs + 1; i < L.ls; ++i)
    if (!removed.count(i) && accessAt_.count(i) && !stagedRowAccess(L, sp, i, scan, m, why)) return false;
  if (sp.rows.empty()) {  // (a row only stored into is staged too: `out[i*n + j] = x[j] * s[i]`)
    why = "no load walks a row through an induction variable";
    return false;
  }
  // Up to four rows (gesummv's two, bicg-like three matrices walked in one
  // loop): the tiles' shared memory and the copies' registers, which
  // sizeTiles fits (128-byte tiles past two rows of 256 bytes). Loops that
  // also store along a row keep the limit they were measured with (three
  // rows, two of them read).
  if (sp.rows.size() > 4 || m.byRow.size() > 4) {
    why = "more than four rows per thread (the tiles' shared memory)";
    return false;
  }
  if (!rowStores.empty() && (sp.rows.size() > 3 || m.byRow.size() > 2)) {
    why = "more than two rows read beside a row stored into (stores along rows were measured with two)";
    return false;
  }
  if (!rowPieces(L, sp, m.byRow, m.storedAt, removed, why)) return false;
  for (auto &[key, list] : m.again) {
    const unsigned r = unsigned(std::find(sp.rows.begin(), sp.rows.end(), key) - sp.rows.begin());
    for (const auto &[off, i] : list) sp.loads.push_back({i, r, off - sp.rowOff[r]});
  }
  // The loop's stores go through other allocations than its rows (which
  // the copies read tiles ahead): a launch condition per pair of pointer
  // parameters; a store the analysis cannot keep apart refuses.
  if (!rowStoresApart(L, sp, why)) return false;
  if (!stagedFormsAllowed(L, sp, why)) return false;
  // Rows read with gaps: the copies read the elements the loop skips, and
  // past the last one it reads, so each warp checks its rows' tiles against
  // their allocations, as for loads under a guard (never a byte outside).
  if (sp.gaps() && !planAllocParams(sp, "a row read with gaps (the copies read the elements it skips)", why))
    return false;
  // A gapped row over the same pointer as another row (the unrolled copies'
  // indices falling on two row registers): the copies would read its bytes
  // once a row, more than the original.
  for (size_t r = 0; r < sp.rows.size() && sp.gaps(); ++r)
    for (size_t o = 0; o < sp.rows.size(); ++o)
      if (o != r && sp.gapped[r] && sp.allocParams[r] == sp.allocParams[o]) {
        why = "rows " + sp.rows[r] + " and " + sp.rows[o] + " read with gaps from one pointer parameter (the copies "
              "of each would read the other's bytes too)";
        sp.allocParams.clear();
        return false;
      }
  if (!constantRowLongEnough(L, sp, why)) return false;
  rowsCanAlign(L, sp);
  return sizeTiles(sp, why);
}

/// Step 3 of Planner::run: the staged clone's plan of each loop that walks
/// rows; when none is planned, a second try with small steps (loops nvcc
/// did not unroll). Remarks what it leaves out.
void Planner::planStagedLoops(KernelPlan &plan) {
  std::string stagedWhy;  // the first refusal of a loop that walks a row
  // A loop whose only row candidates the analysis wrote through a uniform
  // value (`cols / 4`): said only where no loop is staged and nothing else
  // refused (nvcc's remainder loops after a staged one have such starts).
  std::string uniformWhy;
  auto planAll = [&] {
    for (const auto &L : loops_) {
      StagedPlan sp;
      std::string w;
      // Stores beside per-lane trip counts (triangular loops) were not run
      // on the GPU: refused until they are (stores: planStaged).
      // So were vector rows (rowwalk vec: uniform trip counts only).
      auto perLaneUnmeasured = [&] {
        if (!sp.perLane) return false;
        if (sp.down) {
          w = "the row is walked downwards and its trip count differs between lanes (the per-lane form's tiles go "
              "up only)";
          return true;
        }
        if (sp.mixedSteps()) {
          w = "rows advancing by different steps and a trip count that differs between lanes (the per-lane form's "
              "copies take rows of one width)";
          return true;
        }
        if (tripleStep(sp.step)) {  // (the per-lane copies index 16 pieces a row: 12 here)
          w = "rows of 12- or 24-byte elements and a trip count that differs between lanes (the per-lane form's "
              "copies take tiles of 16 pieces)";
          return true;
        }
        if (!sp.lp.stores.empty() || sp.hasRowStores()) {
          const size_t st = sp.lp.stores.empty() ? sp.stores.front().stmt : sp.lp.stores.front();
          w = "the loop writes memory (" + std::string(instr(st)->opcode) +
              ") and its trip count differs between lanes (stores were measured with uniform trip counts only)";
          return true;
        }
        for (const auto &l : sp.loads)
          if (analysis::memAccess(*instr(l.stmt))->vector > 1) {
            w = "a row read as vectors (" + std::string(instr(l.stmt)->opcode) +
                ") and a trip count that differs between lanes (vector rows were measured with uniform trip "
                "counts only)";
            return true;
          }
        return false;
      };
      // Rows no launch condition aligns: the unaligned clone only, or none.
      auto unalignedOnly = [&] {
        sp.unalignedWhy = unalignedRefusal(sp);
        // Pieces that start off a 16-byte boundary wherever the rows are
        // aligned (rowsCanAlign): the unaligned clone's tiles, where it
        // takes the loop; else the aligned clone as it is.
        if (sp.alignable && sp.misaligned && ctx_.options.rowwalk.unaligned && sp.unalignedWhy.empty()) {
          sp.alignable = false;
          sp.aligned.clear();
          sp.alignWhy = "the rows' pieces start " + std::to_string(sp.misaligned) +
                        " bytes past a 16-byte boundary wherever the rows themselves are aligned (the loop starts "
                        "past the row's first element)";
        }
        if (sp.alignable || (ctx_.options.rowwalk.unaligned && sp.unalignedWhy.empty())) return true;
        w = sp.alignWhy + (ctx_.options.rowwalk.unaligned ? "; the unaligned clone refuses: " + sp.unalignedWhy
                                                          : std::string(" (rowwalk-staged-unaligned=0)"));
        return false;
      };
      if (planStaged(L, plan, sp, w) && planPerLane(L, sp, w) && !perLaneUnmeasured() && unalignedOnly())
        plan.staged.push_back(std::move(sp));
      else if (!w.starts_with("no access of the loop is uncoalesced") && stagedWhy.empty())
        stagedWhy = "loop at " + (L.where.empty() ? L.header : L.where) + ": " + w;
      else if (uniformWhy.empty())  // no row seen: one the analysis names through a uniform value?
        for (size_t i = L.hs + 1; i < L.ls; ++i)
          if (uniformRows_.count(i) && uniformWhy.empty() && instr(i)->hasModifier(".global"))
            uniformWhy = "loop at " + (L.where.empty() ? L.header : L.where) + ": no row found: the load " +
                         std::string(instr(i)->opcode) + " is taken as unknown: " + accessAt_.at(i)->reason;
    }
  };
  planAll();
  // No loop staged: again, taking loops nvcc did not unroll (one or two
  // 4- or 8-byte elements an iteration, an `iv < bound` latch with a
  // uniform trip count: `#pragma unroll 1`). Only here, so a kernel's
  // unrolled loop keeps its clone without its small remainder loops.
  if (plan.staged.empty() && !stagedWhy.empty()) {
    smallSteps_ = smallWide_ = true;
    planAll();
    smallSteps_ = smallWide_ = false;
    if (!plan.staged.empty()) stagedWhy.clear();
  }
  if (!plan.staged.empty() && !hasCpAsync(ctx_.module) && ctx_.options.rowwalk.asyncCopy) {
    plan.staged.clear();
    stagedWhy = "the target is below sm_80 (no cp.async; rowwalk-staged-copy=async)";
  }
  if (plan.staged.empty() && stagedWhy.empty()) stagedWhy = uniformWhy;
  if (!stagedWhy.empty())
    ctx_.remark(Remark::Kind::Missed, k_, "", std::string(plan.staged.empty() ? "no staged clone: " : "staged clone without ") + stagedWhy);
}

/// The tiles of a planned row walk: bytes of a row per tile, and how many
/// are in flight (registers for plain copies, shared memory for cp.async).
bool Planner::sizeTiles(StagedPlan &sp, std::string &why) const {
  // Rows of 12- or 24-byte elements (tripleStep): 192 bytes a row per tile
  // (4 or 2 iterations, 12 pieces), 96 inside another loop or with
  // rowwalk-tile=128; plain copies only (stagedFormsAllowed), none of the
  // 128-byte fallbacks below (128 is no multiple of their step).
  const bool triple = tripleStep(sp.step);
  if (triple)
    sp.tileBytes = ctx_.options.rowwalk.tile == 128 || fa_.loops().loops()[sp.lp.loop.id].parent ? 96 : 192;
  else if (unsigned tile = ctx_.options.rowwalk.tile)
    sp.tileBytes = tile == 128 ? 128 : 256;
  sp.tileBytes = std::max<unsigned>(sp.tileBytes, unsigned(sp.step));
  if (!ctx_.options.rowwalk.asyncCopy) {
    // Plain copies: the loads in flight live in registers, 4 per 16-byte
    // piece: a tile takes rows x tileBytes / 4 of them per lane (64 for
    // one 256-byte row). 128 of them by default (2 tiles of 256 bytes, 4
    // of 128), at most 192 with rowwalk-stages (ptxas allows 255 per
    // thread; the body needs its own), at least one tile.
    // (A row only stored into takes shared memory but no registers: its
    // tiles are not copied in. Three rows of 256 bytes, two stages, would
    // pass the 48 KB of static shared memory: 128-byte tiles then.)
    if (!triple && sp.stageSize() * 2 > 48 * 1024 && sp.step <= 128 && !ctx_.options.rowwalk.tile) sp.tileBytes = 128;
    // A loop inside another (syrk's triangle, a grid-stride loop over rows):
    // the outer loop's registers stay live around the tiles, and with
    // 256-byte tiles ptxas ran out of the 255 and spilled inside them
    // (syrk_lower_f32's staged+pack clone: 276 bytes; 17.4 ms at 1024 x
    // 1024 against 10.7 ms with 128-byte tiles, H200; a lone loop, the lower
    // trmv, ran slower with 128: 9.9x against 7.6x).
    if (!triple && !ctx_.options.rowwalk.tile && sp.step <= 128 && fa_.loops().loops()[sp.lp.loop.id].parent)  // ids index loops()
      sp.tileBytes = 128;
    if (sp.stageSize() * 2 > 48 * 1024) {
      why = "two stages of its rows' tiles do not fit in 48 KB of shared memory (rowwalk-tile=128)";
      return false;
    }
    // Each row's tile of mixed steps (bytes beside 32-bit integers) is IPT x
    // its step: at least one 16-byte piece.
    for (size_t r = 0; r < sp.rows.size(); ++r)
      if (sp.rowTile(r) < 16 || sp.rowTile(r) % 16) {
        why = "rows advancing by different steps (" + std::to_string(sp.rowStep[r]) + " and " +
              std::to_string(sp.step) + " bytes): a tile of " + std::to_string(sp.ipt()) + " iterations holds " +
              std::to_string(sp.rowTile(r)) + " bytes of " + sp.rows[r] + ", not whole 16-byte pieces";
        return false;
      }
    unsigned perTile = 0;  // (rows only stored into: any)
    for (size_t r = 0; r < sp.rows.size(); ++r)
      if (sp.loaded[r]) perTile += sp.rowTile(r) / 4;
    if (!perTile) perTile = sp.tileBytes / 4;
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

}  // namespace ptxopt::transforms::rowwalk
