// rowwalk, step 3: the staged clone's emission state. StagedEmit holds
// emitStaged's steps and the registers they share; the checks, the copy
// sources, the body copies and emitStaged itself are in RowWalkStaged.cpp
// (the algorithm: its opening comment), the tiles (plain and asynchronous
// copies, the write-back of rows stored into, a scan's seed) in
// RowWalkStagedTiles.cpp. Private to the pass.
#pragma once

#include <bit>
#include <functional>

#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

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
  unsigned ipt, stageBytes, ring;
  std::string T, NT, NTmax, nt32;             // trip count, tiles (per lane: each lane's, the warp's)
  std::string rsub, own;                      // the copies' row (row 0's width), the lane's own row
  std::vector<std::string> dst0;              // per row: where its copies land (rows of one width: the same)
  std::vector<std::vector<std::string>> src;  // copy sources, per row and piece
  std::vector<std::string> ntk;               // per lane: the tiles of each copy's row
  // Unaligned rows (sp.unaligned), per row: the lane's own row's offset from
  // the 16-byte boundary below its start (32-bit), the source of its extra
  // piece (the boundary + the tile), whether it has one (offset != 0).
  std::vector<std::string> off, src17, has17;
  // ... and, with stores along a row, which of the 4 words of a piece lie
  // below the offset (`below[r][q]`: off > 4q; q = 0 is has17), and
  // whether the lane's copies are of a piece other than the row's first
  // (`notFirst`): the write-back writes piece 0 and the 17th by word.
  std::vector<std::vector<std::string>> below;
  std::string notFirst;
  // Rows of 12 pieces a tile (tripleStep): the warp's copies split 16 slots
  // a row; the lanes whose slot is a piece (slot < 12) copy (`inTile`; ""
  // where every slot is a piece).
  std::string inTile;
  // Scans in place (sp.carried): each row's start of the first iteration's
  // piece (the carried element lies just below it), and the previous
  // tile's stage (own + the other stage), where iteration 0 reads it.
  std::vector<std::string> pieceStart;
  std::string prevStage;
  std::map<size_t, const StagedPlan::RowLoad *> carriedAt;
  std::map<size_t, const StagedPlan::RowLoad *> rowLoad, rowStore;
  std::map<size_t, const std::vector<size_t> *> runAt;
  std::set<size_t> inRun;
  std::set<std::string> labels;
  unsigned copies = 0;
  std::string issued, t;
  // The solo form (soloChecks, soloSources): a warp whose lanes are not all
  // here (rows not a multiple of 32) copies each lane's own row alone.
  bool solo = false;
  std::string soloLabel;  // where a partial warp goes ("": to the original loop)
  // Early exits (L.exits; RowWalkGuards.cpp): each row's allocation (its
  // base parameter's name and the extra parameter holding its end), which
  // exit a lane of the warp form took (`sel`, 0xFFFFFFFF: none), where the
  // body's exits go ("": their own targets, the solo form) and those targets.
  const std::map<uint32_t, AllocEnd> &ends;
  std::string sel, quitPrefix;
  std::vector<std::string> exitTargets;
  // ... and whether the lane left in the peel (`done`), the dispatch every
  // fallback goes through (`header` is it: to the lane's exit, to the
  // loop's end, or into the original loop).
  std::string done;

  StagedEmit(ir::Module &m, std::vector<std::unique_ptr<Stmt>> &cb, Emitter &e, const StagedPlan &sp,
             StmtMap &before, StmtMap &after, const std::set<size_t> &drop, const std::map<uint32_t, AllocEnd> &ends)
      : m(m), cb(cb), e(e), sp(sp), before(before), after(after), drop(drop), lp(sp.lp), L(lp.loop), ends(ends) {
    for (size_t x : L.exits)
      exitTargets.push_back(std::string(analysis::branchTarget(static_cast<const Instruction &>(*cb[x]))));
    tag = std::to_string(L.hs);
    header = std::string(static_cast<const ir::Label &>(*cb[L.hs]).name);
    if (!L.exits.empty()) header = "$L__ptxopt_st_disp" + tag;
    ipt = sp.ipt();
    stageBytes = sp.stageSize();
    ring = stageBytes * sp.stages;
  }

  /// Row r's 16-byte pieces per tile, and the rows one copy instruction of the warp moves.
  unsigned pieces(size_t r) const { return sp.rowPieces(r); }
  /// The warp's copies of row r per tile: a slot a piece, 16 slots for 12
  /// pieces (rows of 12- or 24-byte elements; `inTile` says which copy).
  unsigned copySlots(size_t r) const { return std::bit_ceil(pieces(r)); }
  unsigned rowsPerCopy(size_t r) const { return kLanes / copySlots(r); }
  /// How far row r's copy sources move per tile: up the row, or down it (sp.down).
  std::string tileStep(size_t r) const { return std::to_string((sp.down ? -1 : 1) * int64_t(sp.rowTile(r))); }

  void movVec(const std::string &dst, const std::vector<std::string> &from, bool unpack);


  /// The checks: the whole warp here, one trip count, aligned rows, a tile.
  /// Returns each row's piece of the iteration.
  std::vector<std::string> checks();

  /// Each row's start of the iteration's piece (the 32-bit index forms add
  /// their no-wrap checks to `ok`); aligned rows: `ok` also asks that each
  /// is 16-byte aligned; unaligned rows: the boundary below it, its offset
  /// in `off` and whether it has an extra piece in `has17`.
  std::vector<std::string> rowStarts(const std::string &ok);

  /// A loop with early exits or guarded row loads: each row's tiles, `nt` of them from its start,
  /// lie in its base parameter's allocation (from the pointer's value to
  /// the allocation's end, a launch argument: 0 when the runtime found
  /// none), ANDed into `ok`. The tiles read the row past where the loop may
  /// leave it; past the allocation they could fault.
  /// Loads the body copies run unconditionally (sp.spec): each inside its
  /// base parameter's allocation over the `nt` tiles, ANDed into `ok`.
  void specChecks(const std::string &ok, const std::string &nt);
  void allocChecks(const std::vector<std::string> &rowStart, const std::string &ok, const std::string &nt);

  /// The solo form's checks, per lane (no other lane is asked): its trip
  /// count, its rows (aligned, or where they start), a tile; else the
  /// original loop. Returns each row's piece of the iteration.
  std::vector<std::string> soloChecks();

  /// The solo form's copy sources: lane l copies the pieces of its own rows
  /// into its own row of the tile (each load touches other lanes' rows'
  /// lines no more than the original: no shuffles, no warp barriers).
  void soloSources(const std::vector<std::string> &rowStart, const std::string &buffer);

  /// Copy sources: lane l copies piece l % P of rows k*(32/P) + l / P, P =
  /// the row's pieces per tile (rows of different steps: each its own P).
  void copySources(const std::vector<std::string> &rowStart, const std::string &buffer);

  /// Unaligned rows: the source of the lane's own row's 17th piece (the
  /// boundary below the row's start + the tile), appended to src17.
  void extraPieceSource(const std::string &down);

  /// What body() needs: the row loads, the runs, a multi-block loop's labels.
  void indexBody();

  void copyOf(const Stmt &s);

  /// A row load of copy `it` of the body, from the lane's row of the stage
  /// at `rp` (a vector load for a run's first load; nothing for the rest).
  /// False: none, the rest of statement i's copy is skipped.
  bool rowLoadCopy(size_t i, const Instruction &in, const StagedPlan::RowLoad &rl, unsigned it,
                   const std::vector<std::string> &rp);

  /// IPT copies of the body whose row loads read the lane's row of the
  /// stage at `stage` (unaligned rows: each at its offset).
  void body(const std::string &stage, unsigned count = 0, bool peel = false);

  /// Loops with early exits, before the tiles: kPeelBytes of each row in
  /// the original's way (copies of the body reading global memory, the
  /// latch's test after each), so rows that end early cost what they cost
  /// in the original. A lane that leaves (an exit: `sel` = its index; the
  /// loop's end: `sel` = the number of exits) waits for the others at the
  /// end. The warp stages the rest only when at least kExitMinLanes of 32
  /// (of its active lanes: as many in proportion) are still in the loop;
  /// else every lane goes to the dispatch (those still in it into the
  /// original loop).
  void peel();

  /// The dispatch of a loop with early exits (`header`), where every
  /// fallback goes: a lane that left through exit k to its target, one that
  /// reached the loop's end to `exitLabel`, the others into the original loop.
  void dispatch(const std::string &exitLabel);

  /// Scans in place (sp.carried): tile 0's iteration 0 reads the element
  /// below the row's first piece from the "previous" stage (stage 1, which
  /// tile 1's copies fill only after tile 0's body): the lane's own row,
  /// where the last iteration of a tile before it would have stored it.
  void seedCarried();

  /// Plain copies: K = regTiles register slots, each a tile's pieces
  /// (4 registers per 16-byte piece). The loop over tiles is unrolled K
  /// times (slots are registers: no indexing), each step j for tile t:
  /// store slot j (tile t) into stage t % 2, load tile t+K into slot j,
  /// bar.warp.sync, the body from stage t % 2. Stage t % 2 was last read
  /// by tile t-2, before tile t-1's bar.warp.sync: no second barrier.
  void plainTiles(const std::string &tileLabel);

  /// Rows stored into (sp.stores): after the body copies of tile t, each
  /// lane writes back the pieces it copied in (stage at `d`, the same
  /// places `pieceAt`), to where they were read: the copy sources, now K + 1
  /// tiles on. Solo, a lane writes back its own row; else the warp's body
  /// copies are first seen by every lane (bar.warp.sync), and the next
  /// copies into this stage come after this lane's own write-back (the same
  /// places) and after the next tile's barrier for the others' body copies.
  void writeBack(const std::vector<std::string> &d, const std::string &ownStage, unsigned K,
                 const std::function<unsigned(size_t, unsigned)> &pieceAt);

  /// Asynchronous copies (cp.async) into a ring of sp.stages stages.
  void asyncTiles(const std::string &tileLabel);
};

}  // namespace ptxopt::transforms::rowwalk
