// rowwalk, step 3's rows through 32-bit indices (issue 29). Overview:
// RowWalk.cpp; the staged clone: RowWalkStaged.cpp.
//
// What: with an unsigned row index (`a[r * N + i]`, r and N unsigned) nvcc
// cannot walk a 64-bit pointer (the 32-bit index may wrap, which is
// defined): each iteration recomputes the index and widens it
// (`mul.wide.u32 t, x, 4; add.s64 p, a, t`, or `cvt.u64.u32; add/sub.s64
// with a 64-bit offset; shl.b64; add.s64`); an `int` index over an unsigned
// counter is sign-extended (mul.wide.s32, cvt.s64.s32). wideAddress reads a
// load's address as base + scale * (ext(x) [+/- delta]), x = iv + c,
// iv + an invariant register, (iv + c) + an invariant or (iv + an
// invariant) + c (nvcc's `r*cols + j` from j = 1), iv a 32-bit induction variable of the loop
// read before its update; entryValue writes x's value at the loop's entry
// as a sum of registers (their entry values) and a constant modulo 2^32,
// following moves and additions outside the loop (nvcc's `%r29 = %r2 + 3`,
// `%r5 = %r2 + 1`), so loads through different induction variables and
// invariants land in one row with their byte offsets (scale * c).
// Why it pays: the row is then staged like a pointer walk (RowWalkStaged.cpp:
// coalesced 16-byte copies of 32 rows into shared memory).
// Exactness: the tiles read base + scale * ext(x0) + the loads' offsets +
// step bytes per iteration, which is what the thread reads only while no
// index wraps. emitWideStart adds to the warp's existing check (all lanes
// there, one trip count, aligned rows, a tile; vote.sync.all) that every
// index the loop forms, x0 + (cmax - cmin) + elemStep * (T - 1) in 64 bits,
// stays at most 2^32 - 1 (zero-extended) or 2^31 - 1 (sign-extended), with
// T <= 2^32 so that the product cannot overflow; a warp where some lane's
// index could wrap runs the original loop. The check is per thread and
// exact (the start may already have wrapped, `r * N mod 2^32`, as in the
// original), so no launch condition is needed.
// Rows read as 16-byte vectors (float4, double2 by `unsigned` index) scale
// by 16 (RowWalkStaged.cpp: a vector is a piece of the row of its own).
// One row through several registers (Planner::siblingRow; __ldg's inline
// asm keeps each unrolled element's pointer, or a base or offset register
// per element, in a register of its own): loads a constant apart in the
// analysis's addresses join one row, the registers' distance checked by
// each lane at the loop's entry (RowWalkStaged.cpp rowStarts).
// Refuses (falls back to the 64-bit message): any other address form, an
// index read after its induction variable's update, a base or offset
// written in the loop; a row advancing other than 16-128 bytes (4-128 for
// rows of bytes and shorts: RowWalkShort.cpp).
// Elements of 8 bytes (mul.wide by 8, shl by 3) were refused after the H200
// run of 2026-11-28 (gpu-diff rowwalk32: the double row sum's staged clone,
// 1000 x 1004, differed in 1315 bytes from output byte 64). The clone's PTX,
// read by hand, is right: row start %rd1 + 8 * zext(%r2) (x0 = %r28 - 3 at
// the entry, %r28 = %r2 + 3), no-wrap bound x0 + 3 + 4 * (T - 1) in
// elements (the index's own unit, as for floats), T = 251 iterations of 32
// bytes, 8 per 256-byte tile (NT = 31, 3 left to the original loop), the
// loads at +0 .. +24 as two ld.shared.v2.f64 at 16-byte-aligned offsets of
// the 272-byte-pitch rows, the adds in the original order. What differed is
// explained by the input: gpu-diff fills 8-byte inputs with random bit
// patterns (every byte odd), so about 1 element in 1024 is a NaN with a
// random payload and a quarter of the rows hold two or more; which NaN's
// payload an add.f64 of two NaNs returns is the hardware's choice of
// operand, and ptxas may order a commutative DADD's operands differently in
// two compilations. Only rows with NaNs can differ that way, and only about
// a fifth of the rows did (not the first 8, which a wrong address or order
// would hardly spare). So 8-byte elements are staged again; gpu-diff checks
// them bit for bit, on 8-byte integers (rowsum_u32_i64) and on doubles from
// finite random values (Elem::F64), the original against the clone.
#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

size_t Planner::onlyDefInLoop(const LoopBlock &L, std::string_view reg) const {
  size_t at = SIZE_MAX;
  for (size_t i = L.hs + 1; i <= L.ls; ++i)
    if (const Instruction *in = instr(i))
      for (auto d : analysis::defUse(*in).defs)
        if (d == reg) {
          if (at != SIZE_MAX) return SIZE_MAX;
          at = i;
        }
  return at;
}

bool Planner::invariantIn(const LoopBlock &L, std::string_view reg) const {
  for (size_t i = L.hs + 1; i <= L.ls; ++i)
    if (const Instruction *in = instr(i))
      for (auto d : analysis::defUse(*in).defs)
        if (d == reg) return false;
  return true;
}

void Planner::entryValue(const LoopBlock &L, const std::string &reg, std::vector<std::string> &roots, int64_t &c,
                         int depth) {
  // The loop's first instruction: the definitions reaching it from outside.
  size_t first = L.hs + 1;
  while (first < L.ls && !instr(first)) ++first;
  const uint32_t head = instrOf_.at(first);
  auto outside = [&](std::string_view r) {
    std::vector<uint32_t> out;
    for (uint32_t d : fa_.defs().defsAt(head, r))
      if (d == analysis::ReachingDefs::kEntry || !stmtOf_.count(d) || stmtOf_.at(d) <= L.hs || stmtOf_.at(d) > L.ls)
        out.push_back(d);
    return out;
  };
  const auto ds = outside(reg);
  const Instruction *in =
      depth < 8 && ds.size() == 1 && ds[0] != analysis::ReachingDefs::kEntry ? fa_.cfg().instructions()[ds[0]] : nullptr;
  // A register read by the definition holds the same value at the entry
  // when the same definitions reach it there (and none is in the loop).
  // A register read by the definition holds the same value at the loop's
  // entry when it has one definition in the kernel, outside every loop (it
  // runs at most once), and that definition alone reaches both places.
  auto same = [&](const Operand &o) {
    if (!o.isReg()) return false;
    const auto at = fa_.defs().defsAt(ds[0], o.text);
    if (at.size() != 1 || at[0] == analysis::ReachingDefs::kEntry || fa_.defs().defsAt(head, o.text) != at)
      return false;
    unsigned n = 0;
    for (const auto &st : body_)
      if (st->kind == Stmt::Kind::Instruction)
        for (auto dd : analysis::defUse(static_cast<const Instruction &>(*st)).defs) n += dd == o.text;
    if (n != 1) return false;
    const uint32_t block = fa_.cfg().blockOf(at[0]);
    for (const auto &lp : fa_.loops().loops())
      if (std::binary_search(lp.blocks.begin(), lp.blocks.end(), block)) return false;
    return true;
  };
  // Or, written more than once, it is not written on the way from the
  // definition to the loop: straight code, blocks of one successor each
  // into the header, which has no other way in from outside (nvcc's
  // `r29 = r39 + r4` in the unrolled loop's preheader, r39 the counter its
  // peeled remainder loop left: the operand then stands for itself).
  auto unchangedOnEntry = [&](const Operand &o) {
    if (!o.isReg()) return false;
    const auto &cfg = fa_.cfg();
    const auto &blocks = cfg.blocks();
    const uint32_t hb = cfg.blockOf(head);
    auto writes = [&](uint32_t from, uint32_t to) {
      for (uint32_t k = from; k < to; ++k)
        for (auto dd : analysis::defUse(*cfg.instructions()[k]).defs)
          if (dd == o.text) return true;
      return false;
    };
    uint32_t b = cfg.blockOf(ds[0]);
    if (writes(ds[0] + 1, blocks[b].last)) return false;
    for (int steps = 0; steps < 4; ++steps) {
      if (blocks[b].succs.size() != 1) return false;
      const uint32_t nb = blocks[b].succs[0];
      if (nb == hb) {
        unsigned outsidePreds = 0;
        for (uint32_t pb : blocks[hb].preds) {
          bool inLoop = false;
          for (const auto &lp : fa_.loops().loops())
            if (lp.header == hb) inLoop |= std::binary_search(lp.blocks.begin(), lp.blocks.end(), pb);
          outsidePreds += !inLoop;
        }
        return outsidePreds == 1;
      }
      if (blocks[nb].preds.size() != 1 || writes(blocks[nb].first, blocks[nb].last)) return false;
      b = nb;
    }
    return false;
  };
  if (in && in->guard.empty() && in->operands.size() >= 2) {
    auto mods = in->modifiers();
    const bool w32 = mods.size() == 1 && (mods[0] == ".s32" || mods[0] == ".u32" || mods[0] == ".b32");
    const std::string b(in->base());
    if (w32 && b == "mov" && in->operands.size() == 2) {
      if (auto v = in->operands[1].intValue()) {
        c += *v;
        return;
      }
      if (same(in->operands[1])) return entryValue(L, std::string(in->operands[1].text), roots, c, depth + 1);
    }
    if (w32 && (b == "add" || b == "sub") && in->operands.size() == 3) {
      const Operand &x = in->operands[1], &y = in->operands[2];
      const bool xs = x.intValue() || same(x) || unchangedOnEntry(x),
                 ys = y.intValue() || same(y) || unchangedOnEntry(y);
      if (xs && ys && (b == "add" || y.intValue())) {
        for (const Operand *o : {&x, &y}) {
          const int64_t sign = (o == &y && b == "sub") ? -1 : 1;
          if (auto v = o->intValue()) c += sign * *v;
          else entryValue(L, std::string(o->text), roots, c, depth + 1);
        }
        return;
      }
    }
  }
  roots.push_back(reg);
}

bool Planner::byteIndex(const LoopBlock &L, size_t td, StagedPlan::Wide &w, size_t &m) {
  // td defines t = cvt.u64.u32 / cvt.s64.s32 x, or t = e +/- delta with e that cvt
  // and delta loop-invariant (the shl path of wideAddress without the shift).
  size_t ud = td;
  const Instruction *u = instr(td);
  std::string delta;
  bool neg = false;
  auto um = u->modifiers();
  if (u->guard.empty() && (u->base() == "add" || u->base() == "sub") && u->operands.size() == 3 &&
      um.size() == 1 && (um[0] == ".s64" || um[0] == ".u64") && u->operands[1].isReg() && u->operands[2].isReg()) {
    const int dside =
        u->base() == "add" && onlyDefInLoop(L, u->operands[1].text) == SIZE_MAX ? 1 : 2;
    if (onlyDefInLoop(L, u->operands[dside].text) != SIZE_MAX) return false;
    delta = std::string(u->operands[dside].text);
    neg = u->base() == "sub";
    ud = onlyDefInLoop(L, u->operands[3 - dside].text);
    if (ud == SIZE_MAX || ud > td) return false;
    u = instr(ud);
  }
  if (!u->guard.empty() || (u->opcode != "cvt.u64.u32" && u->opcode != "cvt.s64.s32") || u->operands.size() != 2 ||
      !u->operands[1].isReg())
    return false;
  m = ud;
  w.sgn = u->opcode == "cvt.s64.s32";
  w.scale = 1;
  w.delta = delta;
  w.deltaNeg = neg;
  return true;
}

const IV *Planner::wideIndexIv(const LoopBlock &L, const LanePlan &lp, const std::string &x, size_t m, int64_t &c,
                               std::vector<std::string> &roots, size_t &reader) {
  auto ivOf = [&](std::string_view r) -> const IV * {
    for (const auto &v : lp.ivs)
      if (v.reg == r && v.bits == 32 && v.immStep && v.step > 0) return &v;
    return nullptr;
  };
  const IV *iv = ivOf(x);
  if (!iv) {
    const size_t xd = onlyDefInLoop(L, x);
    if (xd == SIZE_MAX || xd > m) return nullptr;
    const Instruction &xa = *instr(xd);
    auto xm = xa.modifiers();
    if ((xa.base() != "add" && xa.base() != "sub") || !xa.guard.empty() || xa.operands.size() != 3 ||
        xm.size() != 1 || (xm[0] != ".s32" && xm[0] != ".u32"))
      return nullptr;
    // `r = add.s32/u32 a, b`, unguarded, r's one write in the loop and before x's.
    auto addBefore = [&](std::string_view r) -> std::pair<const Instruction *, size_t> {
      const size_t rd = onlyDefInLoop(L, r);
      if (rd == SIZE_MAX || rd > xd) return {nullptr, rd};
      const Instruction &ra = *instr(rd);
      auto rm = ra.modifiers();
      if (ra.base() != "add" || !ra.guard.empty() || ra.operands.size() != 3 || rm.size() != 1 ||
          (rm[0] != ".s32" && rm[0] != ".u32") || !ra.operands[1].isReg())
        return {nullptr, rd};
      return {&ra, rd};
    };
    // (iv + imm) + invariant: the unrolled copies of a 32-bit index loop
    // that compute each element's index beside its guarded load (`j + 1`,
    // then `+ i*cols`).
    auto ivPlusImm = [&](std::string_view r, int64_t &imm) -> const IV * {
      const auto [ra, rd] = addBefore(r);
      if (!ra || !ra->operands[2].intValue()) return nullptr;
      const IV *v = ivOf(ra->operands[1].text);
      if (!v || rd > v->update) return nullptr;
      imm = *ra->operands[2].intValue();
      return v;
    };
    // (iv + invariant) +/- imm: nvcc's unrolled `a[r*N + j - 1]` over an
    // unsigned index (a scan's element below, `j - 1`, formed from
    // `r*N + j`): the invariant's entry value goes into roots and c.
    auto ivPlusInv = [&](std::string_view r) -> const IV * {
      const auto [ra, rd] = addBefore(r);
      if (!ra || !ra->operands[2].isReg()) return nullptr;
      for (int s = 1; s <= 2; ++s) {
        const IV *v = ivOf(ra->operands[s].text);
        const Operand &inv = ra->operands[3 - s];
        if (!v || rd > v->update || !invariantIn(L, inv.text)) continue;
        entryValue(L, std::string(inv.text), roots, c, 0);
        return v;
      }
      return nullptr;
    };
    for (int side = 1; side <= 2 && !iv; ++side) {
      const Operand &v = xa.operands[side], &o = xa.operands[3 - side];
      int64_t imm = 0;
      if (!v.isReg()) continue;
      if (const auto k = o.intValue(); k && !ivOf(v.text)) {
        if (xa.base() == "sub" && side == 2) return nullptr;
        if (!(iv = ivPlusInv(v.text))) continue;
        c += xa.base() == "sub" ? -*k : *k;
        break;
      }
      if (!(iv = ivOf(v.text)) && (xa.base() != "add" || o.intValue() || !(iv = ivPlusImm(v.text, imm)))) continue;
      if (xa.base() == "sub" && side == 2) return nullptr;
      c = imm;
      if (auto k = o.intValue()) c = xa.base() == "sub" ? -*k : *k;
      else if (xa.base() == "add" && o.isReg() && invariantIn(L, o.text))
        entryValue(L, std::string(o.text), roots, c, 0);
      else iv = nullptr;
      if (!iv) return nullptr;
    }
    if (!iv) return nullptr;
    reader = xd;
  }
  return iv;
}

bool Planner::wideAddress(const LoopBlock &L, const LanePlan &lp, size_t load, const std::string &reg,
                          StagedPlan::Wide &w, int64_t &c, std::string &key) {
  // reg = add.s64 base, t; t = mul.wide.u32/s32 x, scale; x = iv [+ invariant] [+ imm].
  const size_t d = onlyDefInLoop(L, reg);
  if (d == SIZE_MAX || d > load) return false;
  const Instruction &add = *instr(d);
  auto amods = add.modifiers();
  if (add.base() != "add" || !add.guard.empty() || add.operands.size() != 3 || amods.size() != 1 ||
      (amods[0] != ".s64" && amods[0] != ".u64"))
    return false;
  size_t m = SIZE_MAX;
  std::string base;
  for (int side = 1; side <= 2 && m == SIZE_MAX; ++side) {
    const Operand &t = add.operands[side], &b = add.operands[3 - side];
    if (!t.isReg() || !b.isReg() || onlyDefInLoop(L, b.text) != SIZE_MAX) continue;
    for (size_t i = L.hs + 1; i <= L.ls; ++i)
      if (const Instruction *in = instr(i))
        for (auto dd : analysis::defUse(*in).defs)
          if (dd == b.text) return false;  // the base is written in the loop
    const size_t md = onlyDefInLoop(L, t.text);
    if (md == SIZE_MAX || md > d) continue;
    const Instruction &mul = *instr(md);
    if (analysis::memAccess(*instr(load))->bytes() < 4 && byteIndex(L, md, w, m)) {
      // t = cvt x [+/- delta]: bytes (scale 1; nvcc's `a[r * N + i]` over
      // unsigned char; rows of bytes and shorts only: wider rows keep their
      // measured forms).
      base = std::string(b.text);
      continue;
    }
    if (!mul.guard.empty() || mul.operands.size() != 3 || !mul.operands[1].isReg() || !mul.operands[2].intValue())
      continue;
    const int64_t k = *mul.operands[2].intValue();
    // Elements of 1-8 bytes (8: see the opening comment on the H200 run of
    // 2026-11-28), and 16 for rows read as 16-byte vectors (float4, double2).
    const int64_t widest = analysis::memAccess(*instr(load))->bytes() == 16 ? 16 : 8;
    // 12 and 24: float3 / double3 elements (tripleStep's rows; their
    // fields' loads at +4 and +8 or +8 and +16 of each element).
    const bool triple = (k == 12 || k == 24) && analysis::memAccess(*instr(load))->vector == 1 &&
                        analysis::memAccess(*instr(load))->bytes() >= 4;
    if ((mul.opcode == "mul.wide.u32" || mul.opcode == "mul.wide.s32") && ((isPow2(k) && k <= widest) || triple)) {
      // t = mul.wide x, scale
      m = md;
      w.sgn = mul.opcode == "mul.wide.s32";
      w.scale = unsigned(k);
    } else if (mul.opcode == "shl.b64" && k >= 0 && (int64_t(1) << std::min<int64_t>(k, 5)) <= widest) {
      // t = shl.b64 u, k; u = cvt.u64.u32 / cvt.s64.s32 x, or u = e +/- delta with e that cvt.
      size_t ud = onlyDefInLoop(L, mul.operands[1].text);
      if (ud == SIZE_MAX || ud > md) continue;
      const Instruction *u = instr(ud);
      auto um = u->modifiers();
      // The invariant operand (delta) second, or first in an add (nvcc's `row * N + i`).
      const int dside = u->operands.size() == 3 && u->base() == "add" && u->operands[1].isReg() &&
                                onlyDefInLoop(L, u->operands[1].text) == SIZE_MAX
                            ? 1
                            : 2;
      if (u->guard.empty() && (u->base() == "add" || u->base() == "sub") && u->operands.size() == 3 &&
          um.size() == 1 && (um[0] == ".s64" || um[0] == ".u64") && u->operands[1].isReg() &&
          u->operands[2].isReg() && onlyDefInLoop(L, u->operands[dside].text) == SIZE_MAX) {
        w.delta = std::string(u->operands[dside].text);
        w.deltaNeg = u->base() == "sub";
        const size_t ed = onlyDefInLoop(L, u->operands[3 - dside].text);
        if (ed == SIZE_MAX || ed > ud) continue;
        u = instr(ed);
        ud = ed;
      }
      if (!u->guard.empty() || (u->opcode != "cvt.u64.u32" && u->opcode != "cvt.s64.s32") ||
          u->operands.size() != 2 || !u->operands[1].isReg())
        continue;
      m = ud;
      w.sgn = u->opcode == "cvt.s64.s32";
      w.scale = 1u << k;
    }
    if (m != SIZE_MAX) base = std::string(b.text);
  }
  if (m == SIZE_MAX) return false;
  if (!w.delta.empty())
    for (size_t i = L.hs + 1; i <= L.ls; ++i)
      if (const Instruction *in = instr(i))
        for (auto dd : analysis::defUse(*in).defs)
          if (dd == w.delta) return false;
  const Instruction &mul = *instr(m);
  w.base = base;
  const std::string x(mul.operands[1].text);
  size_t reader = m;
  std::vector<std::string> roots;
  c = 0;
  const IV *iv = wideIndexIv(L, lp, x, m, c, roots, reader);
  if (!iv) return false;
  if (reader > iv->update) return false;  // the index reads the iteration's value of iv
  // The counter's value where the staged code starts: its definition
  // before the loop, or, in a loop with early exits, the register itself
  // (the peel has walked it on: RowWalkStaged.cpp).
  if (L.exits.empty()) entryValue(L, iv->reg, roots, c, 0);
  else roots.push_back(iv->reg);
  std::sort(roots.begin(), roots.end());
  w.roots = roots;
  w.elemStep = iv->step;
  key = "wide(" + w.base + (w.delta.empty() ? "" : (w.deltaNeg ? " - " : " + ") + w.delta) +
        (w.sgn ? ", s32" : ", u32") + " * " + std::to_string(w.scale) + ", step " +
        std::to_string(w.elemStep);
  for (const auto &r : roots) key += ", " + r;
  key += ")";
  return true;
}

bool Planner::offsetAddress(const LoopBlock &L, const LanePlan &lp, size_t load, const std::string &reg,
                            StagedPlan::Wide &w, std::string &key) {
  // reg = add.s64 base, iv (either order), iv a 64-bit induction variable
  // stepping an immediate, read before its update; base not written
  // in the loop.
  const size_t d = onlyDefInLoop(L, reg);
  if (d == SIZE_MAX || d > load) return false;
  const Instruction &add = *instr(d);
  auto amods = add.modifiers();
  if (add.base() != "add" || !add.guard.empty() || add.operands.size() != 3 || amods.size() != 1 ||
      (amods[0] != ".s64" && amods[0] != ".u64") || !add.operands[1].isReg() || !add.operands[2].isReg())
    return false;
  auto writtenInLoop = [&](std::string_view r) {
    for (size_t i = L.hs + 1; i <= L.ls; ++i)
      if (const Instruction *in = instr(i))
        for (auto dd : analysis::defUse(*in).defs)
          if (dd == r) return true;
    return false;
  };
  auto iv64 = [&](std::string_view r) -> const IV * {
    for (const auto &x : lp.ivs)
      if (x.reg == r && x.bits == 64 && x.immStep && x.step != 0) return &x;  // down: StagedPlan::down
    return nullptr;
  };
  for (int side = 1; side <= 2; ++side) {
    const Operand &v = add.operands[side], &b = add.operands[3 - side];
    const IV *iv = iv64(v.text);
    // Or a scaled 64-bit index (`X[r * cols + c]` with size_t r, c: nvcc's
    // `shl.b64 t, u, 2` of `u = add.s64 c, r * cols`, c the counter and
    // r * cols invariant, or of c itself), base + ((iv + delta) << k).
    std::string delta;
    unsigned scale = 1;
    size_t reader = d;
    if (!iv) {
      const size_t sd = onlyDefInLoop(L, v.text);
      if (sd == SIZE_MAX || sd > d) continue;
      const Instruction &sh = *instr(sd);
      int64_t k = 0;  // the shift, 1..3 (2- to 8-byte elements)
      if (sh.operands.size() == 3)
        if (auto kv = sh.operands[2].intValue()) k = *kv;
      if (sh.opcode != "shl.b64" || !sh.guard.empty() || !sh.operands[1].isReg() || k < 1 || k > 3) continue;
      scale = 1u << k;
      reader = sd;
      iv = iv64(sh.operands[1].text);
      if (!iv) {
        const size_t ud = onlyDefInLoop(L, sh.operands[1].text);
        if (ud == SIZE_MAX || ud > sd) continue;
        const Instruction &u = *instr(ud);
        if (u.opcode != "add.s64" || !u.guard.empty() || u.operands.size() != 3 || !u.operands[1].isReg() ||
            !u.operands[2].isReg())
          continue;
        for (int us = 1; us <= 2 && !iv; ++us)
          if ((iv = iv64(u.operands[us].text)) && !writtenInLoop(u.operands[3 - us].text))
            delta = std::string(u.operands[3 - us].text);
          else
            iv = nullptr;
        reader = ud;
      }
    }
    if (!iv || iv->update < reader || writtenInLoop(b.text)) continue;
    w = StagedPlan::Wide{};  // whatever a failed wideAddress left
    w.base = std::string(b.text);
    w.iv64 = iv->reg;
    w.scale = scale;
    w.delta = delta;
    w.elemStep = iv->step;
    key = "offset(" + w.base + " + " + (scale == 1 ? w.iv64 : "((" + w.iv64 + (delta.empty() ? "" : " + " + delta) +
                                                                ") << " + std::to_string(log2u(scale)) + ")") + ")";
    return true;
  }
  return false;
}

/// stagedRowAccess's merge of one row walked by several pointers: the
/// load at i at `off` from `key` (an induction variable advancing `step`
/// bytes an iteration, or with `w` the form base + a 64-bit induction
/// variable, Planner::offsetAddress) reads a row already found through
/// another register of the same form (another induction variable of the
/// same step; another base with the same induction variable) from one
/// parameter, when the analysis's addresses of the two loads differ by a
/// constant D (base + 4*(x + 1) against base + 4*x): `key` becomes that
/// row, `off` D past the other load's offset; returns the two registers
/// whose difference at the loop's entry the lanes check (the analysis
/// assumed `x + 1` did not wrap: rowStarts), nullopt where the load is no
/// such sibling.
std::optional<StagedPlan::Sibling> Planner::siblingRow(const StagedPlan &sp, size_t i, const RowMaps &m, int64_t step,
                                                       const StagedPlan::Wide *w, std::string &key,
                                                       int64_t &off) const {
  const analysis::Value &a = accessAt_.at(i)->address;
  if (!a.known || std::find(sp.rows.begin(), sp.rows.end(), key) != sp.rows.end()) return std::nullopt;
  if (w && (w->iv64.empty() || w->scale != 1 || !w->delta.empty())) return std::nullopt;
  for (size_t r = 0; r < sp.rows.size(); ++r) {
    const auto rowLoads = m.byRow.find(sp.rows[r]);
    if (sp.rowStep[r] != std::abs(step) || rowLoads == m.byRow.end() || rowLoads->second.empty()) continue;
    const StagedPlan::Wide &o = sp.wide[r];
    std::string from;  // the register the sibling's is `diff` past
    if (w) {
      if (o.iv64 == w->iv64 && o.scale == 1 && o.delta.empty() && !o.base.empty()) from = o.base;
    } else if (o.base.empty()) {
      for (const auto &v : sp.lp.ivs)
        if (v.reg == sp.rows[r] && v.bits == 64 && v.immStep && v.step == step) from = v.reg;
    }
    const auto [offJ, j] = *rowLoads->second.begin();
    const analysis::Value &b = accessAt_.at(j)->address;
    if (from.empty() || !b.known || accessAt_.at(j)->base != accessAt_.at(i)->base) continue;
    analysis::Poly minusB, d;
    if (!analysis::Poly::scale(b.poly, -1, minusB) || !analysis::Poly::add(a.poly, minusB, d)) continue;
    const auto D = d.constantValue();
    if (!D) continue;
    StagedPlan::Sibling s{w ? w->base : key, from, *D + offJ - off};
    off = *D + offJ;
    key = sp.rows[r];
    return s;
  }
  return std::nullopt;
}

void emitMulConst64(Emitter &e, const std::string &dst, const std::string &src, uint64_t k) {
  if (isPow2(int64_t(k))) e.ins("shl.b64", {dst, src, std::to_string(log2u(k))});
  else e.ins("mul.lo.s64", {dst, src, std::to_string(k)});
}

/// The start of a 32-bit-index row's piece of the loop's first iteration
/// (base + scale * ext(x0) + the first load's offset from it, x0 the
/// lowest index the iteration forms), and the no-wrap check, ANDed into
/// `ok`: every index the loop forms, x0 + (cmax - cmin) + elemStep * (T - 1)
/// computed in 64 bits, stays at most 2^32 - 1 (zero-extended) or 2^31 - 1
/// (sign-extended), and T <= 2^32 (so the product cannot overflow). Then
/// each index the 32-bit arithmetic forms is the exact integer, its address
/// is the start plus its offset in the row, and the tiles read exactly what
/// the thread would; a warp where some lane's index could wrap runs the
/// original loop (vote.sync.all below).
std::string emitWideStart(Emitter &e, const StagedPlan::Wide &w, int64_t rowOff, const std::string &T,
                          const std::string &ok) {
  if (!w.iv64.empty()) {  // base + a 64-bit index [(iv + delta) << k]: nothing can wrap
    const std::string start = e.reg64();
    if (w.scale == 1) {
      e.ins("add.s64", {start, w.base, w.iv64});
    } else {
      if (w.delta.empty()) e.ins("shl.b64", {start, w.iv64, std::to_string(log2u(w.scale))});
      else {
        e.ins("add.s64", {start, w.iv64, w.delta});
        e.ins("shl.b64", {start, start, std::to_string(log2u(w.scale))});
      }
      e.ins("add.s64", {start, w.base, start});
    }
    if (rowOff) e.ins("add.s64", {start, start, std::to_string(rowOff)});
    return start;
  }
  const std::string x = e.reg32(), v = e.reg64(), start = e.reg64(), tm1 = e.reg64(), last = e.reg64();
  if (w.roots.empty()) {
    e.ins("mov.u32", {x, std::to_string(w.cmin)});
  } else {
    e.ins("add.u32", {x, w.roots[0], std::to_string(w.cmin)});
    for (size_t i = 1; i < w.roots.size(); ++i) e.ins("add.u32", {x, x, w.roots[i]});
  }
  e.ins(w.sgn ? "cvt.s64.s32" : "cvt.u64.u32", {v, x});
  if (w.delta.empty()) {
    emitMulConst64(e, start, v, w.scale);  // (scales 12 and 24, float3 / double3 rows, multiply)
  } else {
    e.ins(w.deltaNeg ? "sub.s64" : "add.s64", {start, v, w.delta});
    emitMulConst64(e, start, start, w.scale);
  }
  e.ins("add.s64", {start, w.base, start});
  if (const int64_t extra = rowOff - w.cmin * int64_t(w.scale)) e.ins("add.s64", {start, start, std::to_string(extra)});
  e.ins("setp.le.and.u64", {ok, T, "4294967296", ok});
  e.ins("add.s64", {tm1, T, "-1"});
  e.ins("mad.lo.s64", {last, tm1, std::to_string(w.elemStep), v});
  if (w.cmax > w.cmin) e.ins("add.s64", {last, last, std::to_string(w.cmax - w.cmin)});
  e.ins("setp.le.and.s64", {ok, last, w.sgn ? "2147483647" : "4294967295", ok});
  return start;
}

}  // namespace ptxopt::transforms::rowwalk
