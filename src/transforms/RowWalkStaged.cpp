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
// Plain copies, the default (each lane ld.global.v4's its pieces into
// registers and st.shared.v4's them; rowwalk-staged-copy=async gives the
// cp.async copies above), stores along a row (the write-back), scans (the
// element the previous iteration stored, read from the tile):
// RowWalkStagedTiles.cpp, which emits the tiles.
// Rows advancing by different steps (bytes beside 32-bit words): S is the
// widest row's; row r's tile is IPT * S_r bytes, copied by lanes split by
// its own pieces per tile (dst0[r]), read at it * S_r.
// Rows of 12- or 24-byte elements (S = 48 or 96, tripleStep): 192-byte
// tiles of 12 pieces; the warp's copies split 16 slots a row (copySlots),
// the lanes of slots 12-15 predicated off (`inTile`), rows padded to 208.
// One row through several registers (StagedPlan::siblings): each lane
// checks the registers' distances at the entry (rowStarts).
// Refuses (remark): what planning refuses, and why: RowWalkStagedPlan.cpp.
// Loops of several blocks (guards inside the loop; RowWalkGuards.cpp): the
// body copies keep their labels and branches, renamed per copy.
// Guards: a warp whose trip counts or alignments differ runs the original
// loop: the clone is never wrong, only not faster for that warp.
// The solo form (plain copies; also per-lane trip counts): a warp whose
// lanes are not all in the loop (rows not a multiple of 32, `if (i < n)`:
// the last warp of a launch; syrk's warps whose lanes leave the outer loop)
// cannot shuffle or copy for its missing lanes, so each of
// its lanes checks its own trip count and row and copies its own row's
// pieces into its own row of the tile, one tile in flight, no shuffles, no
// warp barriers (a lane reads only what it stored), then the same body
// copies (the original loop is latency bound in one warp: docs/PASSES.md).
// Rows not 16-byte aligned (sp.unaligned: the `_unaligned` clone; a row
// length no multiple of 16 bytes, `w[j*(n+1) + k]`, a base off 16): each
// row's tile is copied from the 16-byte boundary at or below its start,
// 16 + 1 pieces (the 17th into the row's 16 bytes of padding, by the lane
// whose row it is, only when its offset is not 0, so no copy reads a
// 16-byte block that holds no byte of the row); each lane reads its row at
// its offset (`off`: the start's low 4 bits) with the loads' own widths, no
// 16-byte runs (their alignment differs between lanes). Rows of 1- to
// 8-byte scalars, plain copies, uniform trip counts (unalignedRefusal).
// Loops whose trip count is not warp-uniform (triangular) take the per-lane
// form instead of the trip-count guard: RowWalkTri.cpp.
// Loops with early exits (rowwalk-exits; RowWalkGuards.cpp): the per-lane
// form after a peel (peel: each lane's first kPeelBytes the original's way,
// the tiles only for warps with half their active lanes still in the loop),
// the rows checked against their allocation's end (allocChecks), each exit
// of the tiles' body copies to a stub (which exit, no tiles left) and the
// warp's copies until no lane has a tile left; every fallback goes through
// the dispatch (each lane to its exit's target, the loop's end, or the
// original loop).
// Planning (which loops, rows, stores, conditions, tile sizes):
// RowWalkStagedPlan.cpp; the clone's emission: this file, the tiles in
// RowWalkStagedTiles.cpp (StagedEmit, their shared state: RowWalkStagedEmit.h).

#include "RowWalkStagedEmit.h"

namespace ptxopt::transforms::rowwalk {

void StagedEmit::movVec(const std::string &dst, const std::vector<std::string> &from, bool unpack) {
  auto mv = std::make_unique<Instruction>();
  mv->opcode = m.intern("mov.b64");
  Operand vec{Operand::Kind::Vector, "", {}};
  for (const auto &s : from) vec.elems.push_back(e.op(s));
  mv->operands = unpack ? std::vector<Operand>{vec, e.op(dst)} : std::vector<Operand>{e.op(dst), vec};
  mv->edited = true;
  e.out.push_back(std::move(mv));
}

std::vector<std::string> StagedEmit::checks() {
  const std::string am = e.reg32(), pdiv = e.regp();
  e.ins("activemask.b32", {am});
  e.ins("setp.ne.u32", {pdiv, am, "0xFFFFFFFF"});
  e.ins("bra", {soloLabel.empty() ? header : soloLabel}, pdiv);
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
  if (!done.empty()) {  // a lane that left in the peel has no tiles
    e.ins("mov.u64", {NT, "0"}, done);
    e.ins("mov.u32", {nt32, "0"}, done);
  }
  // Per lane there is no lane 0's T to agree with: ok stays NT < 2^32 (a
  // setp.eq here read T0, never written on that path, and overwrote it).
  // An `iv < bound` latch: its no-wrap conditions besides (both forms).
  if (!sp.perLane) e.ins("setp.eq.u64", {ok, T0, T});
  if (lp.lessThan) emitLessNoWrap(e, lp, v0, T, ok);
  std::vector<std::string> rowStart = rowStarts(ok);
  std::string nt = NT;  // per lane: its tiles; else NT comes below, the tiles of lane 0's trip count
  if (!sp.perLane && (!sp.allocParams.empty() || !sp.spec.ranges.empty())) {
    nt = e.reg64();
    e.ins("shr.u64", {nt, T, std::to_string(log2u(ipt))});
  }
  allocChecks(rowStart, ok, nt);
  if (!sp.perLane) {
    e.ins("shr.u64", {NT, T, std::to_string(log2u(ipt))});
    e.ins("setp.ne.and.u64", {ok, NT, "0", ok});
  }
  if (!done.empty()) e.ins("or.pred", {ok, ok, done});
  e.ins("vote.sync.all.pred", {all, ok, "-1"});
  e.ins("bra", {header}, "!" + all);
  if (sp.perLane) NTmax = emitWarpMaxTiles(e, nt32, header);
  return rowStart;
}

std::vector<std::string> StagedEmit::rowStarts(const std::string &ok) {
  for (const auto &s : sp.siblings) {  // one row's other pointers: where the plan put them
    const std::string d = e.reg64();
    e.ins("sub.s64", {d, s.reg, s.from});
    e.ins("setp.eq.and.s64", {ok, d, std::to_string(s.diff), ok});
  }
  std::vector<std::string> rowStart;  // each row's piece of the iteration
  off.clear();
  has17.clear();
  below.clear();
  pieceStart.clear();
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
    pieceStart.push_back(rowStart.back());
    if (sp.down) {  // tile 0's lowest byte: its top is the first iteration's piece
      const std::string low = e.reg64();
      e.ins("add.s64", {low, rowStart.back(), std::to_string(sp.rowStep[r] - int64_t(sp.rowTile(r)))});
      rowStart.back() = low;
    }
    const std::string a = e.reg64();
    e.ins("and.b64", {a, rowStart.back(), "15"});
    if (sp.unaligned) {
      // Copied from the boundary below; the lane reads at its offset.
      const std::string down = e.reg64(), o = e.reg32(), more = e.regp();
      e.ins("and.b64", {down, rowStart.back(), "0xFFFFFFFFFFFFFFF0"});
      e.ins("cvt.u32.u64", {o, a});
      e.ins("setp.ne.u32", {more, o, "0"});
      rowStart.back() = down;
      off.push_back(o);
      has17.push_back(more);
      below.push_back({more});
      for (unsigned q = 1; q < 4 && sp.hasRowStores(); ++q) {
        below.back().push_back(e.regp());
        e.ins("setp.gt.u32", {below.back().back(), o, std::to_string(4 * q)});
      }
    } else {
      e.ins("setp.eq.and.u64", {ok, a, "0", ok});
    }
  }
  return rowStart;
}

void StagedEmit::allocChecks(const std::vector<std::string> &rowStart, const std::string &ok, const std::string &nt) {
  specChecks(ok, nt);
  if (sp.allocParams.empty()) return;
  std::map<unsigned, std::string> bytesOf;  // by the rows' tile width
  for (size_t r = 0; r < sp.rows.size(); ++r) {
    std::string &bytes = bytesOf[sp.rowTile(r)];
    if (bytes.empty()) {
      bytes = e.reg64();
      emitMulConst64(e, bytes, nt, sp.rowTile(r));  // (192-byte tiles: a multiply)
    }
    const AllocEnd &a = ends.at(sp.allocParams[r]);
    const std::string base = e.reg64(), end = e.reg64(), last = e.reg64();
    e.ins("ld.param.u64", {base, "[" + a.param + "]"});
    e.ins("cvta.to.global.u64", {base, base});
    e.ins("ld.param.u64", {end, "[" + a.end + "]"});
    e.ins("cvta.to.global.u64", {end, end});
    e.ins("add.s64", {last, rowStart[r], bytes});
    e.ins("setp.ge.and.u64", {ok, rowStart[r], base, ok});
    e.ins("setp.le.and.u64", {ok, last, end, ok});
  }
}

void StagedEmit::specChecks(const std::string &ok, const std::string &nt) {
  // Loads the tiles' body copies run unconditionally (sp.spec): in iteration
  // k of the nt tiles' iterations each reads [iv0 + k*step + lo, ... + hi),
  // iv0 the induction variable's value here, at the loop's entry.
  for (const auto &r : sp.spec.ranges) {
    const AllocEnd &a = ends.at(r.param);
    const std::string base = e.reg64(), end = e.reg64(), first = e.reg64(), span = e.reg64(), last = e.reg64();
    e.ins("ld.param.u64", {base, "[" + a.param + "]"});
    e.ins("cvta.to.global.u64", {base, base});
    e.ins("ld.param.u64", {end, "[" + a.end + "]"});
    e.ins("cvta.to.global.u64", {end, end});
    // Through a 32-bit index: the lowest element's address at the entry,
    // with the check that the index does not wrap over the loop.
    const std::string iv = r.wide.base.empty() ? r.iv : emitWideStart(e, r.wide, 0, T, ok);
    e.ins("add.s64", {first, iv, std::to_string(r.lo)});
    e.ins("mul.lo.u64", {span, nt, std::to_string(int64_t(ipt) * r.step)});
    e.ins("add.s64", {last, iv, span});
    e.ins("add.s64", {last, last, std::to_string(r.hi - r.step)});
    e.ins("setp.ge.and.u64", {ok, first, base, ok});
    e.ins("setp.le.and.u64", {ok, last, end, ok});
  }
}

std::vector<std::string> StagedEmit::soloChecks() {
  e.label(soloLabel);
  if (!done.empty()) e.ins("bra", {header}, done);
  std::vector<std::string> v0;
  for (const IV &iv : lp.ivs) v0.push_back(iv.reg);
  T = lp.lessThan ? emitTripCountLess(e, lp, v0) : emitTripCount(e, lp, v0);
  const std::string ok = e.regp();
  NT = e.reg64();
  NTmax = NT;
  e.ins("shr.u64", {NT, T, std::to_string(log2u(ipt))});
  e.ins("setp.ne.u64", {ok, NT, "0"});
  if (lp.lessThan) emitLessNoWrap(e, lp, v0, T, ok);
  std::vector<std::string> rowStart = rowStarts(ok);
  allocChecks(rowStart, ok, NT);
  e.ins("bra", {header}, "!" + ok);
  return rowStart;
}

void StagedEmit::soloSources(const std::vector<std::string> &rowStart, const std::string &buffer) {
  const std::string lane = e.reg32(), buf = e.reg32();
  own = e.reg32();
  e.ins("mov.u32", {lane, "%laneid"});
  e.ins("mov.u32", {buf, buffer});
  e.ins("mad.lo.u32", {own, lane, std::to_string(sp.rowPitch()), buf});
  dst0.assign(sp.rows.size(), own);
  src.assign(sp.rows.size(), {});
  src17.clear();
  for (size_t r = 0; r < sp.rows.size(); ++r) {
    for (unsigned k = 0; k < pieces(r); ++k) {
      src[r].push_back(e.reg64());
      e.ins("add.s64", {src[r].back(), rowStart[r], std::to_string(16 * k)});
    }
    if (sp.unaligned) extraPieceSource(rowStart[r]);
  }
}

void StagedEmit::copySources(const std::vector<std::string> &rowStart, const std::string &buffer) {
  const std::string lane = e.reg32();
  rsub = e.reg32();
  const std::string c16 = e.reg32(), c16w = e.reg64(), buf = e.reg32();
  dst0.assign(sp.rows.size(), e.reg32());
  own = e.reg32();
  e.ins("bar.warp.sync", {"-1"});  // the lanes' stores before the loop are seen by the copies
  e.ins("mov.u32", {lane, "%laneid"});
  // The copy's row and piece of lane l for rows of P pieces a tile.
  auto split = [&](unsigned P, const std::string &sub, const std::string &piece, const std::string &wide,
                   const std::string &dst) {
    e.ins("shr.u32", {sub, lane, std::to_string(log2u(P))});
    e.ins("and.b32", {piece, lane, std::to_string(P - 1)});
    e.ins("shl.b32", {piece, piece, "4"});
    e.ins("cvt.u64.u32", {wide, piece});
    if (dst == dst0[0]) e.ins("mov.u32", {buf, buffer});
    e.ins("mad.lo.u32", {dst, sub, std::to_string(sp.rowPitch()), buf});
    e.ins("add.u32", {dst, dst, piece});
  };
  split(copySlots(0), rsub, c16, c16w, dst0[0]);
  inTile.clear();
  if (copySlots(0) != pieces(0)) {  // (rows of one step: stagedFormsAllowed)
    inTile = e.regp();
    e.ins("setp.lt.u32", {inTile, c16, std::to_string(16 * pieces(0))});
  }
  if (sp.unaligned && sp.hasRowStores()) {  // (rows of one width: unalignedRefusal)
    notFirst = e.regp();
    e.ins("setp.ne.u32", {notFirst, c16, "0"});
  }
  e.ins("mad.lo.u32", {own, lane, std::to_string(sp.rowPitch()), buf});
  // Rows of another width: their own split, by pieces per tile.
  std::map<unsigned, std::pair<std::string, std::string>> other;  // P -> (the copy's row, piece offset)
  other[copySlots(0)] = {rsub, c16w};
  src.assign(sp.rows.size(), {});
  for (size_t r = 0; r < sp.rows.size(); ++r) {
    if (!other.count(copySlots(r))) {
      const std::string sub = e.reg32(), piece = e.reg32(), wide = e.reg64(), dst = e.reg32();
      split(copySlots(r), sub, piece, wide, dst);
      other[copySlots(r)] = {sub, wide};
      for (size_t q = r; q < sp.rows.size(); ++q)
        if (copySlots(q) == copySlots(r)) dst0[q] = dst;
    }
    const auto &[sub, wide] = other.at(copySlots(r));
    const std::string lo = e.reg32(), hi = e.reg32();
    movVec(rowStart[r], {lo, hi}, true);
    for (unsigned k = 0; k < copySlots(r); ++k) {
      const std::string from = e.reg32(), slo = e.reg32(), shi = e.reg32(), s = e.reg64();
      e.ins("add.u32", {from, sub, std::to_string(k * rowsPerCopy(r))});
      e.ins("shfl.sync.idx.b32", {slo, lo, from, "31", "-1"});
      e.ins("shfl.sync.idx.b32", {shi, hi, from, "31", "-1"});
      movVec(s, {slo, shi}, false);
      e.ins("add.s64", {s, s, wide});
      src[r].push_back(s);
    }
  }
  if (sp.perLane) ntk = emitPieceTiles(e, nt32, rsub, pieces(0), rowsPerCopy(0));  // (one width: planPerLane)
  // Unaligned rows: each lane copies its own row's extra piece.
  for (size_t r = 0; sp.unaligned && r < sp.rows.size(); ++r) extraPieceSource(rowStart[r]);
}

void StagedEmit::extraPieceSource(const std::string &down) {
  src17.push_back(e.reg64());
  e.ins("add.s64", {src17.back(), down, std::to_string(sp.tileBytes)});
}

void StagedEmit::indexBody() {
  for (const auto &l : sp.loads) rowLoad[l.stmt] = &l;
  for (const auto &st : sp.stores) rowStore[st.stmt] = &st;
  for (const auto &c : sp.carried) carriedAt[c.stmt] = &c;
  for (const auto &run : sp.runs) {
    runAt[*std::min_element(run.begin(), run.end())] = &run;
    inRun.insert(run.begin(), run.end());
  }
  // A loop of several blocks: each copy of the body has its own labels.
  labels = L.multi ? innerLabels(cb, L) : std::set<std::string>{};
}

void StagedEmit::copyOf(const Stmt &s) {
  auto c = s.clone();
  c->span = {};
  c->edited = true;
  e.out.push_back(std::move(c));
}

bool StagedEmit::rowLoadCopy(size_t i, const Instruction &in, const StagedPlan::RowLoad &rl, unsigned it,
                             const std::vector<std::string> &rp) {
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
  // A run is read from its lowest offset (run's first element), wherever
  // its first load in program order reads (nvcc loads a pair's [p+4]
  // before its [p]).
  const StagedPlan::RowLoad &from = run ? *rowLoad.at(run->front()) : rl;
  const int64_t at = int64_t(from.row) * sp.tileSize() + sp.tilePos(from.row, it, from.off);
  ld->operands.push_back(addressOf(e.m, rp[rl.row], at));
  ld->edited = true;
  e.out.push_back(std::move(ld));
  return true;
}

void StagedEmit::body(const std::string &stage, unsigned count, bool peel) {
  ++copies;
  std::vector<std::string> rp(sp.rows.size(), stage), prv(sp.rows.size(), prevStage);
  for (size_t r = 0; sp.unaligned && r < sp.rows.size(); ++r) {
    rp[r] = e.reg32();
    e.ins("add.u32", {rp[r], stage, off[r]});
  }
  for (const auto &c : sp.carried)
    if (sp.unaligned && prv[c.row] == prevStage) {
      prv[c.row] = e.reg32();
      e.ins("add.u32", {prv[c.row], prevStage, off[c.row]});
    }
  for (unsigned it = 0; it < (count ? count : ipt); ++it)
    for (size_t i = L.hs + 1; i < L.ls; ++i) {
      const std::string suffix = "_g" + std::to_string(copies) + "_" + std::to_string(it);
      if (auto b = before.find(i); b != before.end())
        for (const auto &st : b->second) copyOf(*st);
      if (sp.spec.dropped.count(i) && !peel) {  // a guarded part run straight: its branch and label
        if (auto a = after.find(i); a != after.end()) {
          for (const auto &st : a->second) copyOf(*st);
        }
        continue;
      }
      if (L.multi && cb[i]->kind == Stmt::Kind::Label) {
        copyOf(*cb[i]);
        renameCopy(m, *e.out.back(), labels, suffix);
      }
      if (!drop.count(i) && cb[i]->kind == Stmt::Kind::Instruction) {
        const Instruction &in = static_cast<const Instruction &>(*cb[i]);
        if (auto rl = rowLoad.find(i); rl != rowLoad.end() && !peel) {
          if (!rowLoadCopy(i, in, *rl->second, it, rp)) continue;
        } else if (auto c = carriedAt.find(i); c != carriedAt.end()) {
          // The element the previous iteration stored: this tile's row,
          // or (iteration 0) the previous tile's, past its last iteration.
          const StagedPlan::RowLoad &cl = *c->second;
          e.ins("ld.shared" + typeModifier(in), {});
          static_cast<Instruction &>(*e.out.back()).operands = {
              in.operands[0], addressOf(e.m, it ? rp[cl.row] : prv[cl.row],
                                        int64_t(cl.row) * sp.tileSize() + sp.tilePos(cl.row, it ? it : ipt, cl.off))};
        } else if (auto rs = rowStore.find(i); rs != rowStore.end()) {
          // Into the lane's row of the tile, written back after the body copies.
          const StagedPlan::RowLoad &w = *rs->second;
          auto st = std::make_unique<Instruction>();
          st->opcode = m.intern("st.shared" + typeModifier(in));
          st->operands = {addressOf(e.m, rp[w.row], int64_t(w.row) * sp.tileSize() + sp.tilePos(w.row, it, w.off)),
                          in.operands[1]};
          st->guard = in.guard;  // a predicated store stays predicated
          st->guardNegated = in.guardNegated;
          st->edited = true;
          e.out.push_back(std::move(st));
        } else {
          copyOf(in);
          if (L.multi) renameCopy(m, *e.out.back(), labels, suffix);
          if (auto g = sp.spec.guard.find(i); g != sp.spec.guard.end() && !peel) {
            auto &c = static_cast<Instruction &>(*e.out.back());
            if (auto rn = sp.spec.renamed.find(i); rn != sp.spec.renamed.end()) {
              // Loaded unconditionally into a new register, moved under the guard.
              const std::string fresh = rn->second == 8 ? e.reg64() : e.reg32();
              const Operand dst = c.operands[0];
              c.operands[0] = e.op(fresh);
              c.edited = true;
              e.ins(rn->second == 8 ? "mov.b64" : "mov.b32", {});
              auto &mv = static_cast<Instruction &>(*e.out.back());
              mv.operands = {dst, e.op(fresh)};
              mv.guard = m.intern(g->second.first);
              mv.guardNegated = g->second.second;
            } else {
              c.guard = m.intern(g->second.first);
              c.guardNegated = g->second.second;
              c.edited = true;
            }
          }
          if (auto x = std::find(L.exits.begin(), L.exits.end(), i); x != L.exits.end() && !quitPrefix.empty())
            static_cast<Instruction &>(*e.out.back()).operands.back().text =
                m.intern(quitPrefix + std::to_string(x - L.exits.begin()));
        }
      }
      if (auto a = after.find(i); a != after.end() && i != L.ls)
        for (const auto &st : a->second) copyOf(*st);
    }
}

void StagedEmit::peel() {
  const unsigned count = std::max(1u, kPeelBytes / unsigned(sp.step));
  const std::string quit = "$L__ptxopt_st_pq" + tag + "_", normal = "$L__ptxopt_st_pn" + tag,
                    end = "$L__ptxopt_st_pe" + tag;
  const Instruction &latch = static_cast<const Instruction &>(*cb[L.ls]);
  const std::string again = std::string(latch.guard);
  const std::string leave = again.starts_with("!") ? again.substr(1) : "!" + again;
  for (unsigned c = 0; c < count; ++c) {
    quitPrefix = quit;
    body(std::string(), 1, true);
    quitPrefix.clear();
    e.ins("bra", {normal}, leave);
  }
  e.ins("bra", {end});
  for (size_t x = 0; x < L.exits.size(); ++x) {
    e.label(quit + std::to_string(x));
    e.ins("mov.u32", {sel, std::to_string(x)});
    e.ins("bra", {end});
  }
  e.label(normal);
  e.ins("mov.u32", {sel, std::to_string(L.exits.size())});
  e.label(end);
  done = e.regp();
  // At least half of the warp's active lanes (a warp not all in the loop,
  // the last one of a launch, goes on to the solo form by the same rule).
  const std::string live = e.regp(), am = e.reg32(), in = e.reg32(), n = e.reg32(), a = e.reg32(),
                    few = e.regp();
  e.ins("setp.ne.u32", {done, sel, "0xFFFFFFFF"});
  e.ins("setp.eq.u32", {live, sel, "0xFFFFFFFF"});
  e.ins("activemask.b32", {am});
  e.ins("vote.sync.ballot.b32", {in, live, am});
  e.ins("popc.b32", {n, in});
  e.ins("popc.b32", {a, am});
  e.ins("mul.lo.u32", {n, n, std::to_string(kLanes / kExitMinLanes)});
  e.ins("setp.lt.u32", {few, n, a});
  e.ins("bra", {header}, few);
}

void StagedEmit::dispatch(const std::string &exitLabel) {
  e.label(header);
  for (size_t x = 0; x <= L.exits.size(); ++x) {
    const std::string q = e.regp();
    e.ins("setp.eq.u32", {q, sel, std::to_string(x)});
    e.ins("bra", {x < L.exits.size() ? exitTargets[x] : exitLabel}, q);
  }
}


void emitStaged(ir::Module &m, std::vector<std::unique_ptr<Stmt>> &cb, Emitter &e, const StagedPlan &sp,
                const std::string &buffer, StmtMap &before, StmtMap &after, const std::set<size_t> &drop,
                const std::map<uint32_t, AllocEnd> &ends) {
  StagedEmit se(m, cb, e, sp, before, after, drop, ends);
  const LoopBlock &L = se.L;
  const std::string tileLabel = "$L__ptxopt_st_tile" + se.tag, exitLabel = "$L__ptxopt_st_exit" + se.tag;
  // A warp whose lanes are not all here takes the solo form (plain copies);
  // else the original loop.
  const bool soloForm = sp.regTiles != 0;
  if (soloForm) se.soloLabel = "$L__ptxopt_st_solo" + se.tag;
  // The remaining iterations in the original loop, if any.
  auto remainder = [&] {
    // Lanes that left the loop (an exit in the warp form's tiles): to the dispatch.
    if (!se.solo && !L.exits.empty()) {
      const std::string q = e.regp();
      e.ins("setp.ne.u32", {q, se.sel, "0xFFFFFFFF"});
      e.ins("bra", {se.header}, q);
    }
    const std::string done = e.reg64(), rest = e.regp();
    e.ins("shl.b64", {done, se.NT, std::to_string(log2u(se.ipt))});
    e.ins("setp.eq.u64", {rest, done, se.T});
    e.ins("bra", {exitLabel}, rest);
  };
  auto tiles = [&](const std::string &label) {
    se.indexBody();
    se.issued = e.reg64();
    se.t = e.reg64();
    e.ins("mov.u64", {se.issued, "0"});
    if (sp.regTiles) se.plainTiles(label);
    else se.asyncTiles(label);
    remainder();
  };
  if (!L.exits.empty()) {  // no exit taken yet; the peel
    e.ins("mov.u32", {se.sel = e.reg32(), "0xFFFFFFFF"});
    se.peel();
  }
  se.copySources(se.checks(), buffer);
  tiles(tileLabel);
  if (soloForm) {
    e.ins("bra", {se.header});
    se.solo = true;
    se.soloSources(se.soloChecks(), buffer);
    tiles(tileLabel + "_solo");
  }
  if (!L.exits.empty()) se.dispatch(exitLabel);
  for (auto &st : e.out) before[L.hs].push_back(std::move(st));
  e.out.clear();
  e.label(exitLabel);
  auto &list = after[L.ls];
  list.insert(list.begin(), std::move(e.out.front()));
  e.out.clear();
}

}  // namespace ptxopt::transforms::rowwalk
