// The rowwalk pass's constants and its planner's data (RowWalk.h's
// Planner fills it, the emitters read it): the loops it takes (LoopBlock),
// their induction variables and accumulators (IV, Acc, MemAcc), a loop's
// lanes plan (LanePlan), its staged plan (StagedPlan) and a kernel's whole
// plan (KernelPlan). Private to the pass; RowWalk.h includes it.
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
/// The planner's refusal of a kernel with nested { } scopes (runRowWalk then
/// plans a copy with them flattened).
inline constexpr const char *kNestedBlocks = "it has nested { } blocks";
inline constexpr const char *kSeveralBlocks = "a loop of several blocks (only single-block loops are handled)";
/// The rows each lane count G of the lanes clones runs for (the pass option
/// rowwalk-lanes, default 32,8,4: Registry.cpp; RowWalk.cpp's laneCounts): measured on an
/// H200 (bench/rowwalk/rowwalk.cu --short-rows, int and float row sums of 128 MB in
/// 256-thread blocks; docs/BENCHMARKS.md): rows of 8 and 16 ran slower with
/// every G (0.07-0.76x: the original's loads are nearly coalesced there);
/// rows of 32-64 fastest with 4 lanes (2.4-3.9x), 128 with 8 or 16 (3.6-3.9x;
/// 32 lanes 2.8-3.3x), 256 and more with 32 (4.0-4.2x). A launch takes the
/// first listed G whose minimum its rows reach.
inline constexpr std::pair<unsigned, int64_t> kLaneMinRow[] = {{32, 256}, {16, 128}, {8, 128}, {4, 32}};
/// The staged clone forced (rowwalk-staged=1) runs for rows of at least this
/// many elements (the integer parameters the trip count is computed from).
inline constexpr int64_t kMinRow = 128;
/// Whether -O2 / --passes=rowwalk emit the staged clone without the pass
/// option `rowwalk-staged` (RowWalkStaged.cpp; docs/BENCHMARKS.md).
inline constexpr bool kStagedByDefault = true;
/// The staged clone by default only for launches of at least this many
/// threads and rows of at least this many elements. Launches: on an H100 it
/// ran 8.0x at 4096 x 4096 and 10.4x at 2048 x 2048 (regacc + pack: 2.7x,
/// 3.7x), but 1.5x at 1000 x 1004 (regacc + pack 2.3x: 32 warps, the last
/// one partly outside the guard runs the original loop and is the critical
/// path). Rows: with the plain copies, 4.6x at 262144 x 256, 4.4x at
/// 131072 x 512, 4.5x at 65536 x 1024, 6.6x at 16384 x 1024 (regacc + pack
/// 2.4-2.6x; H200); not measured under 256. docs/BENCHMARKS.md.
/// `rowwalk-staged=1` lifts both (rows of kMinRow).
inline constexpr uint32_t kStagedMinLaunch = 2048;
/// Loops with early exits (RowWalkStaged.cpp, peel): each lane first walks
/// this many bytes of its row the original's way (32 floats), and its warp
/// stages the rest only when at least kExitMinLanes of its 32 lanes (in
/// proportion, of a warp not all active) are still
/// in the loop. Without the peel, rows that end in their first elements ran
/// 0.14-0.54x at 262144 x 256 on an H200 (the tiles read 512 bytes of rows
/// the original left after a few; docs/BENCHMARKS.md).
inline constexpr unsigned kPeelBytes = 128;
inline constexpr unsigned kExitMinLanes = 16;
inline constexpr int64_t kStagedMinRow = 256;
/// CSR's rounds clone (RowWalkCsrRounds.cpp): a warp takes the rounds when
/// all its 32 lanes reach the main loop (nvcc's, unrolled by 4) together,
/// each with a trip count of kCsrMinIters or more (every row of 32
/// non-zeros or more); else each lane runs the original code. Measured on
/// an H200: docs/BENCHMARKS.md, "Scalar CSR SpMV" (mixed rows of 0-64 and
/// 16-48 ran 0.68-0.85x when a mean of 32 sent warps to the rounds).
inline constexpr int64_t kCsrMinIters = 8;
/// The rounds clone's launches: at least this many threads (65536 rows of
/// 128 ran 2.5-2.8x; 1000-5000 rows 0.56-1.0x, latency-bound: a warp's 32
/// rows one round after another are a longer path than 32 rows at once).
inline constexpr uint32_t kCsrMinLaunch = 65536;

/// A single-block loop: `header:` at body[hs], its latch branch at body[ls].
struct LoopBlock {
  uint32_t id = 0;
  uint32_t block = 0;
  size_t hs = 0, ls = 0;
  std::string header;
  std::string where;
  /// A loop of several blocks with guards inside (RowWalkGuards.cpp): only
  /// the staged clone. `guarded`: body indexes of the statements in blocks
  /// that do not run in every iteration (they do not dominate the latch).
  bool multi = false;
  std::set<size_t> guarded;
  /// Early exits (RowWalkGuards.cpp): the body indexes of the branches that
  /// leave the loop before its latch (`break`, `return`), in order; only the
  /// staged clone's per-lane form takes them, each warp first checking that
  /// its rows' tiles stay inside the rows' allocation (Variant::allocEnds).
  std::vector<size_t> exits;
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
  // A counter updated through one link register, `add t, r, c2` then `add
  // r, t, c1` (or `mov r, t`: nvcc's `*p++`), is an IV of step c1 + c2,
  // `update` its add (Planner::chainInductionVariable). The lanes clones
  // set the link to its exit value too (r's minus c1): nvcc reads it
  // after the loop as the remainder loop's start.
  std::string link;
  int64_t linkBack = 0;  // c1
};

struct Acc {
  std::string reg;        // the loop-carried register
  unsigned bits = 32;
  std::string combine;    // "add.s32", "add.rn.f32", "min.u32", ...
  std::string identity;   // immediate
  bool floating = false;
  bool prefix = false;    // refused: its updated value is read again in the loop (accumulatorChain)
};

/// A 4- or 8-byte integer field of a struct parameter (`ld.param.u32 %r,
/// [k_param_0+28]`, or an element of `ld.param.v2.u32 {%a, %b}, [..+24]`).
struct TripField {
  int param = -1;
  uint32_t offset = 0, bytes = 0;
  auto operator<=>(const TripField &) const = default;
};

struct LanePlan {
  LoopBlock loop;
  std::vector<IV> ivs;
  std::vector<Acc> accs;
  size_t tested = 0;      // index into ivs of the tested induction variable
  std::string bound;      // register or immediate
  std::string boundOffset;  // the test compares iv + boundOffset with bound (empty: iv itself)
  bool after = true;      // the test reads the iv after its update
  bool lessThan = false;  // the test is `iv < bound` (signed, 32-bit; staged per-lane: RowWalkTri.cpp; CSR lanes: RowWalkCsr.cpp), or `iv > bound` stepping down (staged)
  // lessThan, the staged clone only (RowWalkTri.cpp): the 32-bit counter is
  // compared unsigned (`setp.lt.u32`, `setp.le.u32`), and `iv <= bound`
  // (`setp.le.u32`, `setp.le.s32`: `for (unsigned k = 0; k <= i; k++)`).
  bool lessUnsigned = false;
  bool lessInclusive = false;
  bool lessSigned64 = false;  // a 64-bit signed counter (`long k`, setp.lt.s64; emitLessNoWrap)
  size_t setpAt = 0;
  std::set<int> tripParams;  // integer parameters the trip count is computed from
  // Integer fields of struct parameters it is computed from (`p.m` of a
  // `struct P p` argument): their floors are launch conditions too.
  std::set<TripField> tripFields;
  /// Where the loop's bound is the one trip parameter divided (`cols / 4`):
  /// the least value of that parameter whose bound reaches each row floor
  /// (32, kMinRow, kStagedMinRow), the floors asked of it instead of the
  /// floor itself (RowWalkFloors.cpp). Empty: the parameter's own floor.
  std::map<int64_t, int64_t> divFloors;
  bool dataRows = false;     // rows that start and end at loaded values (CSR; RowWalkCsr.cpp)
  // Load runs merged into one 16-byte load: first load's body index -> loads.
  std::vector<std::vector<size_t>> runs;
  std::vector<Variant::AlignedParam> aligned;  // the runs' launch conditions
  // The staged clone only: the loop's global stores (body indexes), which
  // must not reach its rows (they are read tiles ahead): planStaged asks
  // that each goes through another allocation than every row's.
  std::vector<size_t> stores;
  // The staged clone only: the loop's global stores along a row of the
  // thread's own (uncoalesced along %tid.x, advancing with the loop; body
  // indexes): planStaged makes them rows of the tiles (StagedPlan::stores).
  std::vector<size_t> rowStores;
};

/// The vote's least trip count for `lp`'s loop: kCsrMinIters of nvcc's
/// loop unrolled by 4, 4 * kCsrMinIters (32 non-zeros, or more if nvcc
/// ever unrolled it) for a row walked by pointer (`while (v < end)`, which
/// nvcc keeps rolled: an iteration an element).
inline int64_t csrMinIters(const LanePlan &lp) {
  return lp.lessThan && lp.ivs[lp.tested].bits == 64 ? 4 * kCsrMinIters : kCsrMinIters;
}

/// The staged clone's plan for one loop (RowWalkStaged.cpp): the rows the
/// loop walks (registers advancing S bytes per iteration), their loads, and
/// the tile geometry.
struct StagedPlan {
  LanePlan lp;                   // the loop, its induction variables and trip count (no accumulators)
  std::vector<std::string> rows; // row registers (64-bit induction variables), one tile region each
  /// A row addressed through a 32-bit index (issue 29: `a[r*N + i]` with
  /// unsigned r, N): each load's address is base + scale * ext(x), x = the
  /// sum of `roots` (their values at the loop's entry) + c + elemStep * k
  /// in iteration k, modulo 2^32, ext zero- or sign-extending (mul.wide.u32
  /// / .s32). Parallel to rows; an empty base: the 64-bit form (the row
  /// register). Each warp checks before its tiles that no index of the loop
  /// wraps (RowWalkStaged.cpp).
  struct Wide {
    std::string base;
    std::vector<std::string> roots;
    bool sgn = false;
    unsigned scale = 0;
    int64_t elemStep = 0;
    int64_t cmin = 0, cmax = 0;  // the loads' constants c
    // nvcc's form with a 64-bit offset: base + ((ext(x) + delta) << log2(scale)), delta
    // a loop-invariant register, subtracted when deltaNeg ("": none).
    std::string delta;
    bool deltaNeg = false;
    /// (Also a 64-bit index scaled, base + ((iv64 + delta) << log2(scale)):
    /// `X[r * cols + c]` with size_t r, c; Planner::offsetAddress.)
    /// A row of bytes through a 64-bit index: base + iv64, iv64 a 64-bit
    /// induction variable read before its update (nvcc's `row[i]` with
    /// size_t i over unsigned char; RowWalkIndex.cpp, offsetAddress): no
    /// wrap to check. Empty: the 32-bit form above.
    std::string iv64;
  };
  std::vector<Wide> wide;
  std::vector<int64_t> rowOff;   // where each row's piece of an iteration starts, from its register
  /// Parallel to rows: a row of 8- or 16-bit elements (RowWalkShort.cpp):
  /// its loads are read from the tile 2 or 4 at a time (ld.shared.v4.u8 ...).
  std::vector<bool> shortRow;
  struct RowLoad {
    size_t stmt;   // body index
    unsigned row;  // index into rows
    int64_t off;   // byte offset in the iteration's piece of the row (from rowOff)
  };
  std::vector<RowLoad> loads;
  /// Stores along a row (in place, `a[i*n + j] = f(a[i*n + j])`, or into a
  /// row of another array, `out[i*n + j] = f(in[i*n + j])`): each writes
  /// the lane's row of the tile, and after each tile's body copies the warp
  /// writes the tile's stored rows back with coalesced 16-byte stores
  /// (RowWalkStaged.cpp). They cover each iteration's S bytes exactly.
  std::vector<RowLoad> stores;
  /// Loads of the element the previous iteration stored (a scan in place,
  /// `a[j] += a[j-1]`: nvcc reloads a[j-1] each iteration): `off` is -w, the
  /// element just below the piece, which iteration it > 0 reads from the
  /// lane's row of the tile and iteration 0 from the previous tile's stage
  /// (tile 0: seeded from global memory before the tiles). Only the
  /// unaligned clone takes them (the pieces start one element past the row).
  std::vector<RowLoad> carried;
  /// A row's loads read part of each iteration's piece (`Z[2*j]`): the
  /// copies read the gaps, every 16-byte block of which holds a byte the
  /// loop reads (Planner::gapsRefusal); the aligned clone only. Such a
  /// row's piece may start below its lowest load, at the 16-byte boundary
  /// (`Z[2*j + 1]`: Planner::alignGappedPiece).
  std::vector<bool> gapped;  // parallel to rows
  bool gaps() const { return std::find(gapped.begin(), gapped.end(), true) != gapped.end(); }
  /// Parallel to rows: whether the row is read (its tiles are copied in);
  /// a row only stored into is not.
  std::vector<bool> loaded;
  bool hasRowStores() const { return !stores.empty(); }
  /// The rows stored into (indexes into rows, each once).
  std::set<unsigned> storedRows() const {
    std::set<unsigned> out;
    for (const auto &st : stores) out.insert(st.row);
    return out;
  }
  unsigned loadedRows() const { return unsigned(std::count(loaded.begin(), loaded.end(), true)); }
  // Launch conditions under which the rows can start 16-byte aligned (a
  // pointer's alignment, a row length that is a multiple of 16 bytes):
  // without them every warp would fall back to the original loop, slower
  // than the original kernel (rowsCanAlign).
  std::vector<Variant::AlignedParam> aligned;
  // Pairs of pointer parameters (a store's, a row's) whose arguments must
  // lie in different allocations: the loop's stores reach no row
  // (manifest disjointParams).
  std::set<std::pair<uint32_t, uint32_t>> disjoint;
  // Runs of row loads read as one 16-byte shared load (body indexes, by offset).
  std::vector<std::vector<size_t>> runs;
  int64_t step = 16;      // S: bytes of a row per iteration (rows advancing by different steps: the largest)
  /// Parallel to rows: each row's bytes per iteration (S_r). Rows of
  /// different element sizes advance by different steps (`out[j] = s +=
  /// in[j]` from bytes into 32-bit integers, a `__half` row times a float
  /// row): each row's tile holds the same IPT iterations, IPT * S_r bytes.
  std::vector<int64_t> rowStep;
  /// One row walked by several pointers (nvcc keeps each unrolled
  /// element's address in a register of its own where __ldg's inline asm
  /// takes it: base + 4*(x + k), k = 0..3, each stepping the same bytes; or
  /// one pointer plus an offset register per element): their loads are one
  /// row's, `reg` being `from` + `diff` at the loop's entry (the pointers,
  /// or the offsets), which each lane checks (StagedEmit::rowStarts).
  struct Sibling {
    std::string reg, from;
    int64_t diff = 0;
  };
  std::vector<Sibling> siblings;
  unsigned tileBytes = 256;  // bytes of the widest row per tile (IPT = tileBytes / S iterations): 8.1x vs 5.4x with 128 (H100)
  unsigned stages = 8;    // tiles of the shared ring (cp.async: the tiles in flight; plain copies: 2)
  unsigned regTiles = 0;  // plain copies (no cp.async): tiles whose loads are in flight in registers; 0: cp.async
  bool perLane = false;   // the trip count may differ between lanes (triangular loops): RowWalkTri.cpp
  /// The rows are walked down (each iteration's piece `step` bytes below
  /// the last one's): tile t holds iterations t*IPT .. t*IPT + IPT - 1 from
  /// its top down, the copies go down the row (RowWalkStaged.cpp).
  bool down = false;
  /// Iterations per tile.
  unsigned ipt() const { return tileBytes / unsigned(step); }
  /// Bytes of row r per tile (tileBytes for the widest rows).
  unsigned rowTile(size_t r) const { return ipt() * unsigned(rowStep[r]); }
  /// 16-byte pieces of row r per tile.
  unsigned rowPieces(size_t r) const { return rowTile(r) / 16; }
  bool mixedSteps() const {
    return std::any_of(rowStep.begin(), rowStep.end(), [&](int64_t s) { return s != step; });
  }
  /// Where iteration `it` of a tile reads or writes byte `off` of row r's piece, from the row's tile.
  int64_t tilePos(size_t r, unsigned it, int64_t off) const {
    return int64_t(down ? ipt() - 1 - it : it) * rowStep[r] + off;
  }
  /// A loop with early exits (lp.loop.exits) or with row loads under a
  /// guard on indices (guardedLoads; RowWalkGuards.cpp): parallel to
  /// rows, the pointer parameter each row's base comes from; each warp
  /// checks that its rows' tiles end at or before the end of that
  /// parameter's allocation (Variant::allocEnds), else it runs the original
  /// loop.
  std::vector<uint32_t> allocParams;
  /// A load along a row runs under a guard that reads no memory loaded in
  /// the loop (`if (j != i)`, `if (j % 3)`): the tiles read elements the
  /// loop skips, inside the rows' allocation (allocParams).
  bool guardedLoads = false;
  /// Guarded parts made straight (RowWalkSpeculate.cpp): in the tiles'
  /// body copies, a `@p bra L` that skips a few instructions is dropped with
  /// its label, each skipped instruction runs under the branch's negated
  /// predicate, and its loads of memory other than the rows run
  /// unconditionally (a lane reads x[j] even where its guard skips it). Each
  /// warp checks at its tiles' start that every such load of every tile
  /// iteration lies in its base parameter's allocation (Variant::allocEnds),
  /// else it runs the original loop.
  struct Speculated {
    /// Body indexes of the branches and labels dropped.
    std::set<size_t> dropped;
    /// Body index -> the predicate the skipped instruction runs under (negated?).
    std::map<size_t, std::pair<std::string, bool>> guard;
    /// The loads read unconditionally, by induction variable: in tile
    /// iteration k they read [iv0 + k*step + lo, iv0 + k*step + hi).
    struct Range {
      std::string iv;
      int64_t step = 0, lo = 0, hi = 0;
      uint32_t param = 0;
      /// Through a 32-bit index (x[j] with `unsigned`/`int` j: base + scale *
      /// ext(j + c) + off): `wide.base` set, iv empty; lo and hi count from
      /// base + scale * j0 (emitWideStart with no row offset, its no-wrap
      /// check over the constants c, wide.cmin..cmax).
      Wide wide;
      std::string key;
    };
    std::vector<Range> ranges;
    /// Loads whose register is read after the part too (a branchy max's
    /// `best = x[j]`): each loads into a new register, moved into its own
    /// under the part's predicate. Body index -> the load's bytes.
    std::map<size_t, unsigned> renamed;
    unsigned loads = 0;
    /// Guarded parts run straight: each dropped a branch and its label.
    unsigned regions() const { return unsigned(dropped.size() / 2); }
  } spec;
  /// Rows that need not start 16-byte aligned (the `_unaligned` clone,
  /// RowWalkStaged.cpp): each row's tile is copied from the 16-byte
  /// boundary at or below its start, one piece more, and each lane reads
  /// its row at its start's offset in the tile (no 16-byte runs).
  bool unaligned = false;
  /// False: no launch condition can make the rows start 16-byte aligned
  /// (rowsCanAlign, its reason in alignWhy): only the unaligned clone.
  bool alignable = true;
  std::string alignWhy;
  bool lengthCond = false;  // a row length's alignment is a launch condition (`aligned`)
  /// Where the conditions align the rows, how far past a 16-byte boundary
  /// the pieces still start (a constant: `for (j = 1; ...)`), 0 if aligned.
  unsigned misaligned = 0;
  /// Why the unaligned clone cannot take this loop ("" when it can;
  /// Planner::unalignedRefusal).
  std::string unalignedWhy;
  unsigned rowPitch() const { return tileBytes + 16; }  // padded: 16-byte reads of 8 lanes hit different banks
  unsigned tileSize() const { return kLanes * rowPitch(); }
  unsigned stageSize() const { return tileSize() * unsigned(rows.size()); }
};

struct KernelPlan {
  std::map<size_t, MemAcc> memAccs;  // by loop header index (one loop may have several)
  std::vector<std::pair<size_t, MemAcc>> accList;
  std::vector<LanePlan> lanes;
  std::set<std::pair<uint32_t, uint32_t>> disjoint;       // step 1's conditions
  std::set<std::pair<uint32_t, uint32_t>> lanesDisjoint;  // the split loops' own
  std::vector<Variant::AlignedParam> aligned;
  bool reassoc = false;
  bool csr = false;  // the split loops' rows have loaded bounds (RowWalkCsr.cpp): one lanes clone, no row condition
  bool csrSample = false;  // CSR's rounds clone samples the launch's rows first (rowwalk-csr-sample; RowWalkCsrRounds.cpp)
  std::vector<StagedPlan> staged;  // the staged clone's loops (empty: none)
};

}  // namespace ptxopt::transforms::rowwalk
