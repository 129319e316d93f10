// rowwalk, step 3: the staged clone's tiles (RowWalkStaged.cpp emits the
// rest; the overview: its opening comment, and RowWalk.cpp's).
//
// Plain copies (the default; rowwalk-staged-copy=async gives the cp.async
// copies of RowWalkStaged.cpp's algorithm, sm_80+, asyncTiles; measured slower: docs/PASSES.md, "Plain copies"):
// each lane ld.global.v4's its 16-byte pieces of a tile into registers
// and st.shared.v4's them. The register file bounds the tiles in flight
// (64 registers per 256-byte tile and row: 2 by default, 4 with 128-byte
// tiles, 1 with two rows; rowwalk-stages=N, at most 192 registers' worth).
// The loop over tiles is unrolled K = tiles-in-flight times (a slot is K
// named registers), each step for tile t: st.shared.v4 slot (tile t) into
// stage t % 2, ld.global.v4 tile t+K into the slot, bar.warp.sync, the IPT
// body copies from stage t % 2. Two stages, one barrier per tile: stage
// t % 2 was last read by tile t-2, before tile t-1's bar.warp.sync, which
// orders memory among the lanes it names (PTX ISA, bar.warp.sync: it "also
// guarantee[s] memory ordering among threads participating in barrier").
// Stores in the loop: the tiles are read ahead, so each global store must
// be coalesced along %tid.x and reach another allocation than every row
// (disjointParams on the two pointer parameters; RowWalkLanes.cpp collects
// them, planStaged pairs them with the rows): kmeans' invert_mapping,
// permutes with the channels looped in the thread. Only unpredicated
// stores in single-block loops with a warp-uniform trip count (what the
// GPU ran); others refuse.
// Stores along a row (sp.stores; in place, or into a row of another
// array): a row of the tiles. The body copies' stores write the lane's row
// of the tile; after tile t's body, bar.warp.sync and each lane writes back
// (st.global.v4) the pieces it copied in, to the copy sources K + 1 tiles
// back (writeBack); one more bar.warp.sync after the last tile. Exact: the
// stores cover each iteration's S bytes, run every iteration, and every
// other access of the loop reaches another allocation (rowStoresApart;
// docs/PASSES.md, "Stores along a row"). Rows walked down (sp.down): tile
// 0 ends at the first iteration's piece, the copies go down, iteration
// `it` of a tile sits at (IPT - 1 - it) * S (StagedPlan::tilePos).
// Scans (sp.carried: `a[j] += a[j-1]`, `s[j] = s[j-1] + x[j]`): the load
// of the element the previous iteration stored reads it from the lane's row
// of the tile, iteration 0 of a tile from the previous tile's stage (the
// other of the two; it is rewritten only after this tile's write-back
// barrier), tile 0 from that stage too, seeded from global memory before
// the tiles (seedCarried). Their pieces start an element past the row's
// start: the unaligned clone only (RowWalkStagedPlan.cpp).
// Rows stored into that are not 16-byte aligned (the unaligned clone): the
// tile's piece 0 holds the row from its offset on and the 17th the bytes
// below that offset; the copy lanes write back pieces 1-15 with coalesced
// 16-byte stores, each lane its own row's piece 0 and 17th word by word
// (the words outside the tile's iterations belong to the tiles beside it
// or to another row, which another thread may be writing).

#include "RowWalkStagedEmit.h"

namespace ptxopt::transforms::rowwalk {

void StagedEmit::seedCarried() {
  for (const auto &c : sp.carried) {
    const unsigned bits = 8 * analysis::memAccess(static_cast<const Instruction &>(*cb[c.stmt]))->bytes();
    const std::string v = bits == 64 ? e.reg64() : e.reg32(), at = e.reg32();
    const std::string type = ".b" + std::to_string(bits);
    e.ins("ld.global" + type, {});
    static_cast<Instruction &>(*e.out.back()).operands = {e.op(v), addressOf(e.m, pieceStart[c.row], c.off)};
    e.ins("add.u32", {at, own, std::to_string(stageBytes)});
    if (sp.unaligned) e.ins("add.u32", {at, at, off[c.row]});
    e.ins("st.shared" + type, {});
    static_cast<Instruction &>(*e.out.back()).operands = {
        addressOf(e.m, at, int64_t(c.row) * sp.tileSize() + sp.tilePos(c.row, ipt, c.off)), e.op(v)};
  }
}

void StagedEmit::plainTiles(const std::string &tileLabel) {
  const unsigned K = solo ? 1 : sp.regTiles;  // solo: one tile in flight (a warp's tail)
  // Per-lane trip counts: the warp's copies serve each lane's rows as far
  // as they go; solo, each lane's own loop runs its own tiles only.
  const bool perLane = sp.perLane && !solo;
  const std::string sofs = e.reg32(), doneLabel = "$L__ptxopt_st_done" + tag + (solo ? "_solo" : "");
  // Where piece k of row r's copy lands from dst0[r] (solo: the lane's own row).
  auto pieceAt = [&](size_t r, unsigned k) { return solo ? 16 * k : k * rowsPerCopy(r) * sp.rowPitch(); };
  // Copies of row r per tile: the lane's own row's pieces (solo), else the warp's slots.
  auto copies = [&](size_t r) { return solo ? pieces(r) : copySlots(r); };
  e.ins("mov.u64", {t, "0"});
  e.ins("mov.u32", {sofs, "0"});
  seedCarried();
  // slot, row, piece: 4 registers
  std::vector<std::vector<std::vector<std::vector<std::string>>>> slot(K, std::vector<std::vector<std::vector<std::string>>>(sp.rows.size()));
  for (auto &sl : slot)
    for (size_t r = 0; r < sp.rows.size(); ++r)
      for (unsigned k = 0; k < copies(r); ++k) sl[r].push_back({e.reg32(), e.reg32(), e.reg32(), e.reg32()});
  // Unaligned rows: each row's extra piece, per slot (0 where it has none).
  std::vector<std::vector<std::vector<std::string>>> slot17(K);
  for (auto &sl : slot17)
    for (size_t r = 0; sp.unaligned && r < sp.rows.size(); ++r) {
      sl.push_back({e.reg32(), e.reg32(), e.reg32(), e.reg32()});
      for (const auto &x : sl.back()) e.ins("mov.b32", {x, "0"});
    }
  auto vecOf = [&](const std::vector<std::string> &r) {
    Operand vec{Operand::Kind::Vector, "", {}};
    for (const auto &x : r) vec.elems.push_back(e.op(x));
    return vec;
  };
  auto load = [&](unsigned j) {
    const std::string p = e.regp();
    e.ins("setp.lt.u64", {p, issued, NT});
    std::string pl = p;  // the lane's copies load: a tile left, and its slot a piece
    if (!solo && !inTile.empty()) e.ins("and.pred", {pl = e.regp(), p, inTile});
    std::vector<std::string> pk;
    if (perLane) pk = emitPiecePreds(e, issued, ntk);
    for (size_t r = 0; r < sp.rows.size(); ++r)
      for (unsigned k = 0; k < copies(r); ++k) {
        if (sp.loaded[r]) {  // a row only stored into is not copied in
          e.ins("ld.global.v4.b32", {"[" + src[r][k] + "]"}, perLane ? pk[k] : pl);
          auto &ld = static_cast<Instruction &>(*e.out.back());
          ld.operands.insert(ld.operands.begin(), vecOf(slot[j][r][k]));
        }
        e.ins("add.s64", {src[r][k], src[r][k], tileStep(r)});
      }
    for (size_t r = 0; sp.unaligned && r < sp.rows.size(); ++r) {
      if (sp.loaded[r]) {  // (a row only stored into: its source still moves, for the write-back)
        const std::string q = e.regp();
        e.ins("and.pred", {q, p, has17[r]});
        e.ins("ld.global.v4.b32", {"[" + src17[r] + "]"}, q);
        auto &ld = static_cast<Instruction &>(*e.out.back());
        ld.operands.insert(ld.operands.begin(), vecOf(slot17[j][r]));
      }
      e.ins("add.s64", {src17[r], src17[r], std::to_string(sp.tileBytes)});
    }
    e.ins("add.u64", {issued, issued, "1"});
  };
  for (unsigned j = 0; j < K; ++j) load(j);
  e.label(tileLabel);
  for (unsigned j = 0; j < K; ++j) {
    std::vector<std::string> d(sp.rows.size(), e.reg32());  // per row: stage t % 2 at dst0[r]
    const std::string rp = e.reg32();
    e.ins("add.u32", {d[0], dst0[0], sofs});
    for (size_t r = 1; r < sp.rows.size(); ++r)
      if (dst0[r] != dst0[0]) {
        d[r] = e.reg32();
        e.ins("add.u32", {d[r], dst0[r], sofs});
      }
    for (size_t r = 0; r < sp.rows.size(); ++r)
      for (unsigned k = 0; k < copies(r) && sp.loaded[r]; ++k) {
        const unsigned at = unsigned(r) * sp.tileSize() + pieceAt(r, k);
        e.ins("st.shared.v4.b32", {}, solo ? "" : inTile);
        auto &st = static_cast<Instruction &>(*e.out.back());
        st.operands = {addressOf(e.m, d[r], at), vecOf(slot[j][r][k])};
      }
    if (sp.unaligned) e.ins("add.u32", {rp, own, sofs});
    for (size_t r = 0; sp.unaligned && r < sp.rows.size(); ++r) {  // the lane's row's extra piece
      e.ins("st.shared.v4.b32", {});
      auto &st = static_cast<Instruction &>(*e.out.back());
      st.operands = {addressOf(e.m, rp, unsigned(r) * sp.tileSize() + sp.tileBytes), vecOf(slot17[j][r])};
    }
    load(j);
    // Every lane's stores of tile t are seen by all; tile t-1 is read (solo:
    // each lane reads only what it stored).
    if (!solo) e.ins("bar.warp.sync", {"-1"});
    if (!sp.unaligned) e.ins("add.u32", {rp, own, sofs});
    if (!sp.carried.empty()) {  // the other stage holds tile t - 1
      const std::string other = e.reg32();
      e.ins("xor.b32", {other, sofs, std::to_string(stageBytes)});
      e.ins("add.u32", {prevStage = e.reg32(), own, other});
    }
    const std::string mine = "$L__ptxopt_st_own" + tag + "_" + std::to_string(j);
    if (perLane) {
      const std::string past = e.regp();  // this lane's row has no tile t
      e.ins("setp.ge.u64", {past, t, NT});
      e.ins("bra", {mine}, past);
    }
    const bool quits = perLane && !L.exits.empty();  // the warp form of a loop with early exits
    if (quits) quitPrefix = "$L__ptxopt_st_quit" + tag + "_" + std::to_string(j) + "_";
    body(rp);
    if (quits) {
      // A lane that leaves the loop: which exit, no more tiles of its own;
      // it goes on copying for the others until the warp is done.
      e.ins("bra", {mine});
      for (size_t x = 0; x < L.exits.size(); ++x) {
        e.label(quitPrefix + std::to_string(x));
        e.ins("mov.u32", {sel, std::to_string(x)});
        e.ins("mov.u64", {NT, "0"});
        e.ins("bra", {mine});
      }
      quitPrefix.clear();
    }
    if (perLane) e.label(mine);
    if (sp.hasRowStores()) writeBack(d, rp, K, pieceAt);
    e.ins("xor.b32", {sofs, sofs, std::to_string(stageBytes)});
    const std::string more = e.regp();
    e.ins("add.u64", {t, t, "1"});
    if (quits) {
      // Until no lane has a tile left (the lanes that left have none).
      const std::string own = e.regp();
      e.ins("setp.lt.u64", {own, t, NT});
      e.ins("vote.sync.any.pred", {more, own, "-1"});
    } else {
      e.ins("setp.lt.u64", {more, t, NTmax});
    }
    if (j + 1 < K) e.ins("bra", {doneLabel}, "!" + more);
    else e.ins("bra", {tileLabel}, more);
  }
  if (K > 1) e.label(doneLabel);
  // Every lane's write-backs are seen by all after the loop (the
  // remaining iterations, and code after the loop that reads the rows).
  if (sp.hasRowStores() && !solo) e.ins("bar.warp.sync", {"-1"});
}

void StagedEmit::writeBack(const std::vector<std::string> &d, const std::string &ownStage, unsigned K,
               const std::function<unsigned(size_t, unsigned)> &pieceAt) {
  if (!solo) e.ins("bar.warp.sync", {"-1"});
  auto piece = [&](const std::string &from, int64_t at) {
    const std::vector<std::string> v = {e.reg32(), e.reg32(), e.reg32(), e.reg32()};
    Operand vec{Operand::Kind::Vector, "", {}};
    for (const auto &x : v) vec.elems.push_back(e.op(x));
    e.ins("ld.shared.v4.b32", {});
    static_cast<Instruction &>(*e.out.back()).operands = {vec, addressOf(e.m, from, at)};
    return std::make_pair(vec, v);
  };
  for (unsigned row : sp.storedRows()) {
    const int64_t back = (sp.down ? 1 : -1) * int64_t(K + 1) * sp.rowTile(row);
    for (unsigned k = 0; k < pieces(row); ++k) {
      if (sp.unaligned && solo && k == 0) continue;  // by word, below
      const auto vec = piece(d[row], int64_t(row) * sp.tileSize() + pieceAt(row, k)).first;
      e.ins("st.global.v4.b32", {}, sp.unaligned && !solo ? notFirst : "");
      static_cast<Instruction &>(*e.out.back()).operands = {addressOf(e.m, src[row][k], back), vec};
    }
    if (!sp.unaligned) continue;
    // Unaligned rows: piece 0 holds the row from the offset on, the 17th
    // below it; each lane writes its own row's, word by word (the words
    // outside the tile's iterations are another tile's, or another row's).
    for (const bool extra : {false, true}) {
      const auto words = piece(ownStage, int64_t(row) * sp.tileSize() + (extra ? sp.tileBytes : 0)).second;
      const std::string to = e.reg64();
      e.ins("add.s64", {to, src17[row], std::to_string(-int64_t(extra ? K + 1 : K + 2) * sp.tileBytes)});
      for (unsigned q = 0; q < 4; ++q) {
        e.ins("st.global.b32", {}, (extra ? "" : "!") + below[row][q]);
        static_cast<Instruction &>(*e.out.back()).operands = {addressOf(e.m, to, 4 * q), e.op(words[q])};
      }
    }
  }
}

void StagedEmit::asyncTiles(const std::string &tileLabel) {
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
  auto issue = [&]() {  // (rows of one width: planStaged)
    const std::string p = e.regp(), d = e.reg32();
    e.ins("setp.lt.u64", {p, issued, NT});
    e.ins("add.u32", {d, dst0[0], wofs});
    for (size_t r = 0; r < sp.rows.size(); ++r)
      for (unsigned k = 0; k < pieces(r); ++k) {
        const unsigned at = unsigned(r) * sp.tileSize() + k * rowsPerCopy(r) * sp.rowPitch();
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

}  // namespace ptxopt::transforms::rowwalk
