// transpose, four elements per thread: the tiled clone.
//
// What: for a kernel the transpose pass accepts (Transpose.cpp: one tiled
// load, one store, per-element work between them), launched with bx x by
// blocks (32 x 32, 16 x 16, 32 x 8, 8 x 32; the tiled-only shapes 32 x 4,
// 16 x 8, 8 x 8, 32 x 16, 16 x 4, 64 x 4, 64 x 8, 128 x 2, 128 x 4), a clone
// `<k>__ptxopt_tiled<shape>` whose block runs a 32 x 32 tile of the
// original's logical threads - the 32/bx x 32/by original blocks that
// cover it - with 32 x 8 hardware threads, each running four logical
// threads in each phase:
//   phase 1 - for j = 0..3, the logical thread at tile position (X, Y)
//             under the mapping that makes the load coalesced, runs the
//             kernel up to the load and puts the element into the tile at
//             [Y][X] (rows padded against bank conflicts: 33 floats);
//   bar.sync 0;
//   phase 2 - for j = 0..3, the logical thread at (X, Y) under the mapping
//             that makes the store coalesced runs the whole kernel, the load
//             replaced by a read of its tile element.
// The mappings of hardware thread (tx, ty), element j: the identity
// (X, Y) = (tx, ty + 8j) and the exchange (X, Y) = (ty + 8j, tx). Tile
// position (X, Y) is logical thread (X % bx, Y % by) of logical block
// (ctaid.x * 32/bx + X / bx, ctaid.y * 32/by + Y / by); %ntid.x/.y read
// bx and by, %nctaid.x/.y the original grid.
// Why it pays: this is the hand-written tiled transpose (32 x 33 tile,
// 32 x 8 threads, 4 elements each), which issue 30 measured at 3.16x over
// the naive 16 x 16 float kernel on an H200 and 1.7-2x faster than the
// one-element clone at 16 x 16: 128-byte rows of floats on both sides
// whatever the original block, four loads in flight per thread, a quarter
// of the blocks and barriers.
// Algorithm: the prologue reads %tid.x/.y and %ctaid.x/.y once; the
// logical indices split without per-copy masks and shifts (the tile
// coordinate along one axis is %tid.x, the same for the four copies, along
// the other %tid.y + 8j with %tid.y below 8: logicalThread), each value
// emitted once and shared by the copies that use it, so the copies' own
// index arithmetic differs by constants (issue 30: 1- and 2-byte elements
// ran 0.75-0.86 of the hand kernel with 16 x 16 and 32 x 8 blocks and
// matched it with 32 x 32, where no split is needed); then the copy of
// the body (labels renamed per copy) with the special registers renamed;
// phase 1 copies are phase1Copy's (TransposeCopies.cpp), except that each keeps
// its element in registers of its own and sets a flag, and the four tile
// stores follow the fourth copy (each under its flag), so the four loads
// are in flight together; phase 2 copies the whole body with every return
// a branch to the copy's end and the load an ld.shared. The kernel's values
// that every copy computes the same way (parameters, cvta, a permute's
// n * C * HW) come once, before the versions (TransposeHoist.cpp; the
// NCHW permute's clone 496 -> 336 SASS instructions, 2-17% faster, H200).
// Each logical thread runs exactly the original's instructions,
// bounds tests included, in both phases: bit-identical, as the one-element
// clone (Transpose.cpp says why it is legal). Where a tile packs several
// original blocks along an axis, a logical block past the original grid is
// skipped (a branch per copy); those branches are needed only in the last
// tile along that axis, so the clone holds two versions of its phases
// (edgeBlock): blocks at the edge run the copies with them, every other
// block, by one block-uniform branch, a version without them (since the
// twenty-sixth session: each check kept its copy in a branch region of its
// own, 168 SASS instructions for the 8-bit 16 x 16 clone against the hand
// kernel's 96, and 1- and 2-byte transposes ran 0.81-0.87 of the hand
// kernel; without them 1.03-1.05 at 8192 x 8192, H200).
// Launch (manifest, kind `transpose-tiled`): grid (ceil(grid.x / (32/bx)),
// ceil(grid.y / (32/by)), grid.z), block (32, 8, 1); where 32/bx > 1 (or
// 32/by > 1) the original grid.x (grid.y) comes as an extra .u32 parameter
// and logical blocks at or past it are skipped in both phases. Conditions:
// the one-element clone's (block (bx, by, 1), no dynamic shared memory,
// the tiled and the stored array disjoint, 2^20 threads or more).
// 64 x 4 blocks (bx over 32 in a 2-D block): along x each original block is
// two tiles, as 1-D blocks below (grid.x * 2; logical tid.x = ((ctaid.x &
// 1) << 5) + X, ctaid.x = ctaid.x >> 1), along y 8 blocks a tile as 32 x 4;
// 64 x 8, 128 x 2 and 128 x 4 the same way (bx/32 tiles a block along x,
// 32/by blocks a tile along y).
// A block index for the second axis (Plan::index2 %ctaid.y or %ctaid.z, 1-D
// blocks of bx = 128, 256 or 512 threads, by = 1): along x each original
// block is bx/32 tiles (grid.x * bx/32; logical tid.x = ((ctaid.x &
// (bx/32-1)) << 5) + X, ctaid.x = ctaid.x >> log2(bx/32)), along the other
// axis 32 original blocks a tile (the index's grid dimension divided by 32
// rounding up, its extent passed; %tid.y 0); at least 32 blocks along it.
// The flat form (TransposeFlat.cpp; `flat` given): the kernel is the 2-D
// form of a 1-D launch that splits its index with / and %, the shape 32 x
// 32; the clone's blocks loop over the tiles (flatPrologue: tile t at
// logical block (t % tilesX, t / tilesX), or with two splits (t % tilesX,
// (t / tilesX) % tilesY, batch (t / tilesX) / tilesY)), each logical thread
// skipped past w, w2 or the launch's threads (flatPast), a bar.sync between
// tiles; where the rows or columns are fewer than 32 the blocks run the
// original kernel's code on 1024 flat indices each instead (flatPlain).
// The loop clone of a grid-stride loop (FlatForm::bound; runFlat): T is the
// loop's bound, not the launch's threads, and the thin path loops too.
// Kernels that read another special register (%laneid, %warpid, %clock...:
// they would see the hardware thread, not the logical one) are refused
// before (Transpose.cpp), for both clones.
#include <bit>
#include <functional>

#include "Transpose.h"

namespace ptxopt::transforms::transpose {

using namespace clone;
using ir::Operand;

namespace {

constexpr unsigned kTile = 32, kRows = 8, kElems = kTile / kRows;  // a 32 x 32 tile, 32 x 8 threads, 4 each

/// Original blocks per 32 x 32 tile along x and y: 32 / bx and 32 / by,
/// 1 along x for 1-D blocks of more than 32 threads (bx / 32 tiles a block).
std::pair<unsigned, unsigned> blocksPerTile(const Shape &sh) {
  return {sh.bx > kTile ? 1 : kTile / sh.bx, kTile / sh.by};
}

/// The builder's state: the hardware indices, the extents, the tile.
struct Tiled {
  Emitter &e;
  const Shape &sh;
  unsigned sx, sy;              // original blocks per tile along x and y (sx 1 when bx > 32: bx/32 tiles a block)
  std::string dim2;             // "y", or the block index's dimension (Plan::index2: "y" or "z")
  std::string tx, ty, cx, cy;   // hardware %tid.x/.y, %ctaid.x/.y
  std::string ntx, nty, gx, gy;  // bx, by, the original grid.x/.y (when passed)
  std::string base;
  unsigned pitch, w;
  std::map<std::string, std::string> memo;  // once(): an instruction's text -> its register
};

/// One logical thread: the renaming of the special registers, its tile
/// element's address, and the predicate "its block is past the original
/// grid" ("" when it cannot be).
struct Logical {
  std::map<std::string, std::string> names;
  std::string addr, past;
};

/// `op ops` into a register of its own, once per clone (`pred`: a
/// predicate): the per-thread values that several logical threads share are
/// emitted at their first use, on the straight-line spine of the clone
/// (every copy ends at a label that falls through to the next copy's
/// indices), so the first use dominates the later ones.
std::string once(Tiled &c, const std::string &op, const std::vector<std::string> &ops, bool pred = false) {
  std::string key = op;
  for (const auto &o : ops) key += " " + o;
  std::string &r = c.memo[key];
  if (r.empty()) {
    std::vector<std::string> all{r = pred ? c.e.regp() : c.e.reg32()};
    all.insert(all.end(), ops.begin(), ops.end());
    c.e.ins(op, all);
  }
  return r;
}

/// `a + imm` (a itself when imm is 0), once per clone.
std::string plus(Tiled &c, const std::string &a, unsigned imm) {
  return imm ? once(c, "add.u32", {a, std::to_string(imm)}) : a;
}

/// Emits the indices of element j under the identity or the exchange. The
/// tile coordinate along one axis is the hardware %tid.x (below 32: the
/// same for the four elements), along the other %tid.y + 8j (%tid.y below
/// 8), so the logical indices split without per-element masks and shifts:
/// along %tid.x, (tid, block) = (tx & (b-1), cta * s + (tx >> log2 b)),
/// computed once; along %tid.y + 8j with b = 8 or 16, (ty + 8 (j mod b/8),
/// cta * s + j div b/8), a register and a constant offset shared by the
/// copies (ptxas folds the copies' index arithmetic into one base and
/// constant offsets); with b = 4 (32 x 4 blocks), the plain split of
/// ty + 8j. The values are those of the plain split. Without checkPast
/// (the inner version: no tile of it is at the edge) no `past` predicate.
Logical logicalThread(Tiled &c, unsigned j, bool exchanged, bool checkPast = true) {
  Logical l;
  l.names = {{"%ntid.x", c.ntx}, {"%ntid.y", c.nty}};
  // Along hardware index `hw` plus `off` (0 along %tid.x, 8j along %tid.y).
  auto axis = [&](const std::string &hw, unsigned off, unsigned b, unsigned s, const std::string &cta,
                  const std::string &grid, const std::string &dim, const std::string &ctaDim) {
    std::string t, lc = cta;
    if (b > kTile) {  // 1-D blocks of b threads: b/32 tiles a block, %nctaid.x b/32 times the original's
      const unsigned q = b / kTile;
      const std::string within = once(c, "shl.b32", {once(c, "and.b32", {cta, std::to_string(q - 1)}), "5"});
      t = once(c, "add.u32", {within, plus(c, hw, off)});
      lc = once(c, "shr.u32", {cta, std::to_string(std::countr_zero(q))});
      l.names["%nctaid.x"] = once(c, "shr.u32", {once(c, "mov.u32", {"%nctaid.x"}), std::to_string(std::countr_zero(q))});
    } else if (s == 1) {
      t = plus(c, hw, off);
    } else {
      const std::string lg = std::to_string(std::countr_zero(b)), mask = std::to_string(b - 1);
      if (off == 0 && hw == c.tx) {
        t = once(c, "and.b32", {hw, mask});
        lc = once(c, "mad.lo.u32", {cta, std::to_string(s), once(c, "shr.u32", {hw, lg})});
      } else if (b >= kRows) {  // hw is %tid.y, below 8
        t = plus(c, hw, off % b);
        lc = plus(c, once(c, "mul.lo.u32", {cta, std::to_string(s)}), off / b);
      } else {  // b below 8 (32 x 4 blocks): the plain split of ty + 8j
        const std::string row = plus(c, hw, off);
        t = once(c, "and.b32", {row, mask});
        lc = once(c, "mad.lo.u32", {cta, std::to_string(s), once(c, "shr.u32", {row, lg})});
      }
      if (checkPast) {
        const std::string p = once(c, "setp.ge.u32", {lc, grid}, true);
        l.past = l.past.empty() ? p : once(c, "or.pred", {l.past, p}, true);
      }
      l.names["%nctaid." + ctaDim] = grid;
    }
    l.names["%tid." + dim] = t;
    l.names["%ctaid." + ctaDim] = lc;
  };
  const unsigned off = kRows * j;
  axis(exchanged ? c.ty : c.tx, exchanged ? off : 0, c.sh.bx, c.sx, c.cx, c.gx, "x", "x");
  axis(exchanged ? c.tx : c.ty, exchanged ? 0 : off, c.sh.by, c.sy, c.cy, c.gy, "y", c.dim2);
  // The tile element [Y][X]: one base per mapping, plus 8j rows or columns.
  const std::string X = exchanged ? c.ty : c.tx, Y = exchanged ? c.tx : c.ty;
  const std::string a0 = once(c, "mad.lo.u32", {once(c, "mad.lo.u32", {Y, std::to_string(c.pitch), X}),
                                                std::to_string(c.w), c.base});
  l.addr = plus(c, a0, off * (exchanged ? 1 : c.pitch) * c.w);
  return l;
}

/// The body of `k` after its declarations, copied (labels suffixed with
/// `labelSuffix`), the special registers renamed by `names`, `edit` applied
/// to the copy, every return a branch to `end`.
std::vector<std::unique_ptr<ir::Stmt>> renamedBody(ir::Module &m, const ir::Function &k,
                                                   const std::map<std::string, std::string> &names,
                                                   const std::string &end, const std::string &labelSuffix,
                                                   const std::function<void(ir::Function &)> &edit = {}) {
  auto f = cloneBody(k, std::string(k.name) + "_copy", labelSuffix, m);
  replaceSpecialReads(*f->body, names, m);
  if (edit) edit(*f);
  auto &b = f->body->body;
  std::vector<std::unique_ptr<ir::Stmt>> out;
  for (size_t i = prologueAt(*f->body); i < b.size(); ++i) {
    auto &s = b[i];
    if (s->kind == ir::Stmt::Kind::Instruction) {
      auto &in = static_cast<ir::Instruction &>(*s);
      if (analysis::flowOf(in) == analysis::Flow::Return)
        s = makeInstr(m, "bra", {Operand::sym(m.intern(end))}, in.guard, in.guardNegated);
    }
    out.push_back(std::move(s));
  }
  return out;
}

/// Phase 2 of one logical thread: the whole body renamed, the load from
/// the tile, every return a branch to `end`.
std::vector<std::unique_ptr<ir::Stmt>> phase2Copy(ir::Module &m, const ir::Function &k, const Plan &p,
                                                  const Logical &l, const std::string &end,
                                                  const std::string &labelSuffix, uint64_t tileBytes) {
  return renamedBody(m, k, l.names, end, labelSuffix,
                     [&](ir::Function &f) { loadsFromTiles(m, f, p, l.addr, tileBytes); });
}

/// Phase 1's copies keep their loaded elements in registers of their own
/// and store them to the tile after the last copy, so that the four loads
/// of a thread are in flight together (with the store right after its
/// load, each copy would wait for its load). `ok` is 1 when the copy loaded.
struct Deferred {
  std::string ok;
  Operand addr;
  std::string type;
  Operand value;
};

/// Renames the destinations of phase-1 copy `body`'s tiled loads to fresh
/// registers (declared in `decls`) and replaces their st.shared by `ok = 1`
/// (the last) or nothing (the others: one basic block holds them all).
std::vector<Deferred> deferTileStores(ir::Module &m, std::vector<std::unique_ptr<ir::Stmt>> &body,
                                      const RegTypes &types, const Plan &p, const std::string &ok,
                                      const std::string &addr, const std::string &tag, uint64_t tileBytes,
                                      std::vector<std::unique_ptr<ir::Stmt>> &decls) {
  std::vector<Deferred> out;
  unsigned n = 0;
  for (size_t i = 1; i < body.size(); ++i) {
    if (body[i]->kind != ir::Stmt::Kind::Instruction) continue;
    auto &st = static_cast<ir::Instruction &>(*body[i]);
    if (!std::string_view(st.opcode).starts_with("st.shared")) continue;
    Deferred d{ok, tileAddress(m, addr, out.size(), tileBytes), p.type, Operand{}};
    auto &ld = static_cast<ir::Instruction &>(*body[i - 1]);  // phase1Copy puts each store right after its load
    std::map<std::string, std::string> fresh;
    analysis::forEachRegister(ld.operands[0], [&](const Operand &r) {
      std::string name = "%ptxopt_ttv" + tag + "_" + std::to_string(n++);
      fresh[std::string(r.text)] = name;
      auto decl = std::make_unique<ir::Decl>();
      decl->attrs = {m.intern(".reg"), m.intern(types.type(r.text))};
      decl->names.push_back({m.intern(name), {}, {}});
      decl->edited = true;
      decls.push_back(std::move(decl));
    });
    renameOperand(ld.operands[0], fresh, m);
    ld.edited = true;
    d.value = ld.operands[0];
    out.push_back(d);
    if (out.size() == p.loads.size()) {
      body[i] = makeInstr(m, "mov.u32", {Operand::reg(m.intern(ok)), Operand::imm(m.intern("1"))});
      return out;
    }
    body.erase(body.begin() + static_cast<long>(i--));
  }
  return out;
}

/// The flat form's tile loop (TransposeFlat.cpp): w, the original launch's
/// thread count T, the tiles, and the loop's registers.
struct FlatLoop {
  std::string w, t, t64, tilesX, tiles, tile, step;
  std::string w2, tilesY, cz;  // two splits: w2, its tiles, the batch
  std::string wLo, lo, hi;      // three splits: the batch's lower radix, its digits
  std::string wide;             // two or three splits: the plane's size is 2^31 or more
  std::string plain = "$L__ptxopt_ttflat_plain";
  std::string loop = "$L__ptxopt_ttflat_loop", exit = "$L__ptxopt_ttflat_exit";
};

/// A radix of the flat form into a register of its own: its parameter,
/// or the 32-bit product of its factors (as the original computes it).
/// A 64-bit index (FlatForm::wide): the factors and their product in 64
/// bits, as the original computes them, each value past 2^31 - 1 a
/// predicate in `over` (the clone then runs the original's code: its
/// tiles count in 32 bits), the radix its low half.
std::string loadRadix(Emitter &e, const Radix &r, bool wide, std::vector<std::string> &over) {
  const std::string v = e.reg32();
  if (r.constant) {  // a compile-time radix (under 2^31: findFlatForm)
    e.ins("mov.u32", {v, r.names[0]});
    return v;
  }
  if (!wide) {
    e.ins("ld.param.u32", {v, "[" + r.names[0] + "]"});
    for (size_t h = 1; h < r.names.size(); ++h) {
      const std::string t = e.reg32();
      e.ins("ld.param.u32", {t, "[" + r.names[h] + "]"});
      e.ins("mul.lo.u32", {v, v, t});
    }
    return v;
  }
  auto tooBig = [&](const std::string &x) {
    e.ins("setp.gt.u64", {over.emplace_back(e.regp()), x, "2147483647"});
  };
  std::string product;
  for (size_t h = 0; h < r.names.size(); ++h) {
    const std::string x = e.reg64();
    if (r.bytes[h] == 8) {
      e.ins("ld.param.u64", {x, "[" + r.names[h] + "]"});
    } else {
      const std::string t = e.reg32();
      e.ins("ld.param.u32", {t, "[" + r.names[h] + "]"});
      e.ins(r.ext[h].empty() ? "cvt.s64.s32" : r.ext[h], {x, t});
    }
    tooBig(x);
    if (h == 0) {
      product = x;
      continue;
    }
    e.ins("mul.lo.u64", {product, product, x});  // both under 2^31 where it matters: no wrap
    tooBig(product);
  }
  e.ins("cvt.u32.u64", {v, product});
  return v;
}

/// The prologue of the flat clone: w (its parameter), T = grid.x * block.x
/// of the original launch (extra parameters; the loop clone of a grid-stride
/// loop, flat.bound: the loop's bound), tilesX = ceil(w / 32), the
/// rows of logical threads ceil(T / w) and the tiles; then the loop's head:
/// tile t from %ctaid.x by %nctaid.x, logical block (t % tilesX, t / tilesX)
/// in c.cx, c.cy.
FlatLoop flatPrologue(Tiled &c, ir::Module &m, ir::Function &clone, const FlatForm &flat) {
  Emitter &e = c.e;
  FlatLoop l;
  std::string rows;  // one split: ceil(T / w) - 1
  std::vector<std::string> over;  // a 64-bit radix past 2^31 - 1
  l.w = loadRadix(e, flat.w, flat.wide, over);
  if (flat.bound) {  // a grid-stride loop's bound (64-bit products, each past 2^31 - 1 a thin path: never, the condition)
    l.t = loadRadix(e, *flat.bound, true, over);
  } else {  // T = grid.x * block.x, passed (registers only here: the loop clone declares none it does not use)
    const std::string gx = e.reg32(), bx = e.reg32(), t = e.reg32();
    e.ins("ld.param.u32", {gx, "[" + addExtraParam(m, clone, "grid_x") + "]"});
    e.ins("ld.param.u32", {bx, "[" + addExtraParam(m, clone, "block_x") + "]"});
    e.ins("mul.lo.u32", {l.t = t, gx, bx});
  }
  e.ins("cvt.u64.u32", {l.t64 = e.reg64(), l.t});
  const std::string wUp = e.reg32();
  e.ins("add.u32", {wUp, l.w, std::to_string(kTile - 1)});
  e.ins("shr.u32", {l.tilesX = e.reg32(), wUp, "5"});
  if (!flat.twoSplits()) {  // rows = ceil(T / w) of logical threads, 32 a tile
    const std::string tm1 = e.reg32(), rowsUp = e.reg32();
    rows = e.reg32();
    e.ins("sub.u32", {tm1, l.t, "1"});
    e.ins("div.u32", {rows, tm1, l.w});
    e.ins("add.u32", {rowsUp, rows, std::to_string(kTile)});  // (rows + 1) + 31
    e.ins("shr.u32", {l.tilesY = e.reg32(), rowsUp, "5"});
    e.ins("mul.lo.u32", {l.tiles = e.reg32(), l.tilesX, l.tilesY});
  } else {  // ceil(w2 / 32) tiles a batch, ceil(T / (w * w2)) batches
    const std::string w2Up = e.reg32(), plane = e.reg64(), tm164 = e.reg64(), b64 = e.reg64(), batches = e.reg32(),
                      perBatch = e.reg32();
    l.w2 = loadRadix(e, flat.w2, flat.wide, over);
    e.ins("add.u32", {w2Up, l.w2, std::to_string(kTile - 1)});
    e.ins("shr.u32", {l.tilesY = e.reg32(), w2Up, "5"});
    e.ins("mul.wide.u32", {plane, l.w, l.w2});
    if (flat.threeSplits()) {
      const std::string lo64 = e.reg64();
      l.wLo = loadRadix(e, flat.wLo, flat.wide, over);
      e.ins("cvt.u64.u32", {lo64, l.wLo});
      e.ins("mul.lo.u64", {plane, plane, lo64});
    }
    // The original's 32-bit products of the radices wrap (or turn
    // negative) from 2^31: its quotients are then not the digits the tiles
    // walk, and the clone runs its code on the flat indices (flatPlain).
    e.ins("setp.gt.u64", {l.wide = e.regp(), plane, "2147483647"});
    e.ins("sub.u64", {tm164, l.t64, "1"});
    e.ins("div.u64", {b64, tm164, plane});
    e.ins("cvt.u32.u64", {batches, b64});
    e.ins("add.u32", {batches, batches, "1"});
    if (flat.threeSplits()) e.ins("mul.lo.u32", {batches, batches, l.wLo});
    e.ins("mul.lo.u32", {perBatch, l.tilesX, l.tilesY});
    e.ins("mul.lo.u32", {l.tiles = e.reg32(), perBatch, batches});
  }
  // Tiles with fewer than 32 rows or columns of logical threads (w, the
  // rows, or w2 under 32) would leave most of their lanes idle: then the
  // clone runs the original's code on its flat indices instead (flatPlain).
  const std::string thin = e.regp(), thin2 = e.regp();
  e.ins("setp.lt.u32", {thin, l.w, std::to_string(kTile)});
  e.ins("setp.lt.u32", {thin2, flat.twoSplits() ? l.w2 : rows, flat.twoSplits() ? std::to_string(kTile) : std::to_string(kTile - 1)});
  e.ins("or.pred", {thin, thin, thin2});
  if (!l.wide.empty()) e.ins("or.pred", {thin, thin, l.wide});
  for (const std::string &p : over) e.ins("or.pred", {thin, thin, p});
  e.ins("bra", {l.plain}, thin);
  e.ins("mov.u32", {l.step = e.reg32(), "%nctaid.x"});
  e.ins("mov.u32", {l.tile = e.reg32(), "%ctaid.x"});
  e.label(l.loop);
  const std::string done = e.regp();
  e.ins("setp.ge.u32", {done, l.tile, l.tiles});
  e.ins("bra", {l.exit}, done);
  e.ins("rem.u32", {c.cx, l.tile, l.tilesX});
  if (!flat.twoSplits()) {
    e.ins("div.u32", {c.cy, l.tile, l.tilesX});
  } else {
    const std::string rest = e.reg32();
    e.ins("div.u32", {rest, l.tile, l.tilesX});
    e.ins("rem.u32", {c.cy, rest, l.tilesY});
    e.ins("div.u32", {l.cz = e.reg32(), rest, l.tilesY});
    if (flat.threeSplits()) {
      e.ins("rem.u32", {l.lo = e.reg32(), l.cz, l.wLo});
      e.ins("div.u32", {l.hi = e.reg32(), l.cz, l.wLo});
    }
  }
  return l;
}

/// A 64-bit flat index: in the tiles' code (the prologue has checked every
/// radix under 2^31), each 8-byte radix parameter the kernel's code loads
/// is masked to its low 31 bits and each 4-byte one is widened unsigned
/// (its cvt.s64.s32, or its ld.param.s32 into a 64-bit register):
/// the same values there, which ptxas then knows fit 32 bits (its 64-bit
/// products of them become 32-bit ones). The prologue (the clone's own
/// registers: its checks) and the thin tiles' path, which runs the kernel
/// itself for any radices, are not touched.
void narrowRadices(ir::Module &m, const FlatForm &flat, std::vector<std::unique_ptr<ir::Stmt>> &code) {
  std::set<std::string_view> eight, four;
  for (const Radix *r : {&flat.w, &flat.w2, &flat.wLo})
    for (size_t h = 0; h < r->names.size(); ++h)
      if (!r->constant) (r->bytes[h] == 8 ? eight : four).insert(r->names[h]);
  std::set<std::string_view> loaded4;  // registers loaded from a 4-byte radix parameter
  for (size_t j = 0; j < code.size(); ++j) {
    if (code[j]->kind != ir::Stmt::Kind::Instruction) continue;
    auto &in = static_cast<ir::Instruction &>(*code[j]);
    const auto defs = analysis::defUse(in).defs;
    // The kernel's own code only (the prologue's loads of the radices, in
    // registers of the clone's, are what checks them).
    if (!in.guard.empty() || in.operands.size() != 2 || !in.operands[0].isReg() ||
        in.operands[0].text.starts_with("%ptxopt_")) {
      for (auto d : defs) loaded4.erase(d);
      continue;
    }
    const Operand &a = in.operands[1];
    const bool param = in.opcode.starts_with("ld.param.") && a.kind == Operand::Kind::Address && a.elems.size() == 1 &&
                       a.elems[0].isSym();
    if (param && eight.count(a.elems[0].text) && in.opcode.ends_with("64")) {
      code.insert(code.begin() + long(j) + 1, makeInstr(m, "and.b64", {in.operands[0], in.operands[0], Operand::imm(m.intern("2147483647"))}));
      ++j;
    } else if (param && four.count(a.elems[0].text)) {
      loaded4.insert(in.operands[0].text);
      if (in.opcode == "ld.param.s32") {  // nvcc's load straight into a 64-bit register, sign-extending
        in.opcode = m.intern("ld.param.u32");
        in.edited = true;
      }
    } else {
      if (in.opcode == "cvt.s64.s32" && a.isReg() && loaded4.count(a.text)) {
        in.opcode = m.intern("cvt.u64.u32");
        in.edited = true;
      }
      for (auto d : defs) loaded4.erase(d);
    }
  }
}

/// The flat clone's other path (thin tiles): each block runs the original's
/// code on 1024 consecutive flat indices, i = %ctaid.x * 1024 + 256 j +
/// (%tid.y * 32 + %tid.x), j = 0..3, those under T (the launch's grid
/// covers T: ceil(grid.x * b / 1024) blocks), %ctaid.x and %ntid.x renamed
/// to 0 and %tid.x to i, so the original's mad gives i. A grid-stride
/// loop's clone (flat.bound) loops: chunk %ctaid.x, then on by %nctaid.x
/// while the chunk starts under T.
void flatPlain(Tiled &c, ir::Module &m, const FlatLoop &fl, const FlatForm &flat,
               std::vector<std::unique_ptr<ir::Stmt>> &code) {
  Emitter &e = c.e;
  e.label(fl.plain);
  const std::string zero = e.reg32(), lin = e.reg32(), base = e.reg32(), cta = e.reg32();
  e.ins("mov.u32", {zero, "0"});
  e.ins("mad.lo.u32", {lin, c.ty, std::to_string(kTile), c.tx});
  e.ins("mov.u32", {cta, "%ctaid.x"});
  // A grid-stride loop's clone (flat.bound): the blocks loop over the
  // chunks of 1024 (its launch need not cover T).
  const std::string chunks = "$L__ptxopt_ttplain_chunk", count = flat.bound ? e.reg32() : "";
  if (flat.bound) {  // ceil(T / 1024) chunks (T under 2^30)
    const std::string up = e.reg32();
    e.ins("add.u32", {up, fl.t, "1023"});
    e.ins("shr.u32", {count, up, "10"});
    e.label(chunks);
  }
  e.ins("mad.lo.u32", {base, cta, "1024", lin});
  for (unsigned j = 0; j < kElems; ++j) {
    const std::string i = e.reg32(), past = e.regp(), end = "$L__ptxopt_ttplain" + std::to_string(j) + "_end";
    e.ins("add.u32", {i, base, std::to_string(256 * j)});
    e.ins("setp.ge.u32", {past, i, fl.t});
    e.ins("bra", {end}, past);
    for (auto &st : e.out) code.push_back(std::move(st));
    e.out.clear();
    for (auto &st : renamedBody(m, *flat.original, {{"%ctaid.x", zero}, {"%ntid.x", zero}, {"%tid.x", i}}, end,
                                "_ttplain" + std::to_string(j)))
      code.push_back(std::move(st));
    e.label(end);
  }
  if (flat.bound) {  // on while cta < the chunks (cta under 2^20 + the grid: no wrap)
    const std::string step = e.reg32(), more = e.regp();
    e.ins("mov.u32", {step, "%nctaid.x"});
    e.ins("add.u32", {cta, cta, step});
    e.ins("setp.lt.u32", {more, cta, count});
    e.ins("bra", {chunks}, more);
  }
  e.ins("ret", {});
}

/// Whether logical thread `l` of the flat clone is past the original
/// launch: R = cx*32 + X >= w, or Q*w + R >= T (Q = cy*32 + Y; with two
/// splits M = cy*32 + Y >= w2, or Q = cz*w2 + M; with three, partner 2, Q
/// = (hi*w2 + M)*wLo + lo, partner 1 as two splits, cz = hi*wLo + lo): its
/// predicate.
std::string flatPast(Tiled &c, const FlatLoop &fl, const Logical &l, int partner) {
  Emitter &e = c.e;
  const std::string r = once(c, "mad.lo.u32", {c.cx, std::to_string(kTile), l.names.at("%tid.x")});
  std::string q = once(c, "mad.lo.u32", {c.cy, std::to_string(kTile), l.names.at("%tid.y")});
  std::string outside = once(c, "setp.ge.u32", {r, fl.w}, true);
  if (!fl.w2.empty()) {
    outside = once(c, "or.pred", {outside, once(c, "setp.ge.u32", {q, fl.w2}, true)}, true);
    if (partner == 2) q = once(c, "mad.lo.u32", {once(c, "mad.lo.u32", {fl.hi, fl.w2, q}), fl.wLo, fl.lo});
    else q = once(c, "mad.lo.u32", {fl.cz, fl.w2, q});
  }
  const std::string wide = e.reg64(), r64 = e.reg64(), i = e.reg64(), pi = e.regp(), past = e.regp();
  e.ins("mul.wide.u32", {wide, q, fl.w});
  e.ins("cvt.u64.u32", {r64, r});
  e.ins("add.u64", {i, wide, r64});
  e.ins("setp.ge.u64", {pi, i, fl.t64});
  e.ins("or.pred", {past, pi, outside});
  return past;
}

/// "This block's tile holds a logical block past the original grid": along
/// each axis that packs s > 1 original blocks into a tile, ctaid * s + s - 1
/// at or past the original grid's extent (passed). "" when no axis does.
std::string edgeBlock(Tiled &c) {
  std::string edge;
  auto axis = [&](unsigned s, const std::string &cta, const std::string &grid) {
    if (s <= 1) return;
    const std::string last = c.e.reg32(), p = c.e.regp();
    c.e.ins("mad.lo.u32", {last, cta, std::to_string(s), std::to_string(s - 1)});
    c.e.ins("setp.ge.u32", {p, last, grid});
    if (edge.empty()) {
      edge = p;
    } else {
      const std::string q = c.e.regp();
      c.e.ins("or.pred", {q, edge, p});
      edge = q;
    }
  };
  axis(c.sx, c.cx, c.gx);
  axis(c.sy, c.cy, c.gy);
  return edge;
}

}  // namespace

std::unique_ptr<ir::Function> buildTiledClone(ir::Module &m, const ir::Function &k, const Plan &p, const Shape &sh,
                                              const std::string &name, const FlatForm *flat) {
  auto clone = ir::cloneFunction(k, name, "_tt", m);
  dropBlockShapeDirectives(*clone);
  Emitter e{m, {}};
  e.prefix = "%ptxopt_tt";
  const std::string dim2 = p.index2 == "%ctaid.z" ? "z" : "y";
  const auto [sx, sy] = blocksPerTile(sh);
  Tiled c{e, sh, sx, sy, dim2, e.reg32(), e.reg32(), e.reg32(), e.reg32(),
          e.reg32(), e.reg32(), "", "", e.reg32(), tilePitch(Shape{kTile, kTile}, p.bytes), p.bytes, {}};
  const uint64_t tileBytes = uint64_t(kTile) * c.pitch * p.bytes;
  const std::string tile = "__ptxopt_tile_" + name;
  e.ins("mov.u32", {c.tx, "%tid.x"});
  e.ins("mov.u32", {c.ty, "%tid.y"});
  if (!flat) {
    e.ins("mov.u32", {c.cx, "%ctaid.x"});
    e.ins("mov.u32", {c.cy, "%ctaid." + dim2});
  }
  e.ins("mov.u32", {c.ntx, std::to_string(sh.bx)});
  e.ins("mov.u32", {c.nty, std::to_string(sh.by)});
  if (c.sx > 1) e.ins("ld.param.u32", {c.gx = e.reg32(), "[" + addExtraParam(m, *clone, "grid_x") + "]"});
  if (c.sy > 1) e.ins("ld.param.u32", {c.gy = e.reg32(), "[" + addExtraParam(m, *clone, "grid_" + dim2) + "]"});
  e.ins("mov.u32", {c.base, tile});
  // The values every copy shares, once (TransposeHoist.cpp; not in the flat
  // form, whose wide radices the copies mask: narrowRadices).
  const auto shared = flat ? std::vector<const ir::Instruction *>{}
                           : findSharedValues(k, {"%ctaid.x", "%nctaid.x", "%ctaid." + dim2, "%nctaid." + dim2});
  for (const ir::Instruction *in : shared) {
    e.out.push_back(in->clone());
    e.out.back()->span = {};  // printed from the IR, as the clone's own statements (no source trivia)
  }
  const FlatLoop fl = flat ? flatPrologue(c, m, *clone, *flat) : FlatLoop{};
  std::vector<std::unique_ptr<ir::Stmt>> code, valueDecls;
  RegTypes types;
  ir::forEachStmt(*k.body, [&](const ir::Stmt &st) {
    if (st.kind == ir::Stmt::Kind::Decl) types.add(static_cast<const ir::Decl &>(st));
  });
  auto flush = [&] {
    for (auto &st : e.out) code.push_back(std::move(st));
    e.out.clear();
  };
  // Phase 1 runs the mapping under which the load is coalesced (the
  // identity when the store is unit-stride along %tid.y), phase 2 the other.
  // `ver` names this version's labels and registers; `checkPast`: skip the
  // logical blocks past the original grid.
  auto phases = [&](const std::string &ver, bool checkPast) {
    std::vector<Deferred> deferred;
    for (int phase = 1; phase <= 2; ++phase) {
      const bool exchanged = (phase == 1) != p.storeOnY;
      for (unsigned j = 0; j < kElems; ++j) {
        const std::string tag = ver + std::to_string(phase) + "_" + std::to_string(j);
        const std::string end = "$L__ptxopt_tt" + tag + "_end";
        Logical l = logicalThread(c, j, exchanged, checkPast);
        if (flat) {
          l.past = flatPast(c, fl, l, flat->partner);
          if (flat->threeSplits()) {
            l.names["%ctaid.z"] = fl.lo;
            l.names["%nctaid.z"] = fl.hi;
          } else if (flat->twoSplits()) {
            l.names["%ctaid.z"] = fl.cz;
          }
        }
        std::string ok;
        if (phase == 1) e.ins("mov.u32", {ok = e.reg32(), "0"});
        if (!l.past.empty()) e.ins("bra", {end}, l.past);
        flush();
        auto body = phase == 1 ? phase1Copy(m, k, p, l.names, l.addr, end, "_tt" + tag, tileBytes)
                               : phase2Copy(m, k, p, l, end, "_tt" + tag, tileBytes);
        dropSharedValues(body, shared);
        if (phase == 1)
          for (auto &d : deferTileStores(m, body, types, p, ok, l.addr, tag, tileBytes, valueDecls))
            deferred.push_back(d);
        for (auto &st : body) code.push_back(std::move(st));
        e.label(end);
      }
      if (phase == 1) {
        for (const Deferred &d : deferred) {
          std::string q = e.regp();
          e.ins("setp.ne.u32", {q, d.ok, "0"});
          e.out.push_back(makeInstr(m, "st.shared" + d.type, {d.addr, d.value}, e.m.intern(q)));
        }
        e.ins("bar.sync", {"0"});
      }
    }
  };
  // Two versions where a tile packs several blocks (the opening comment:
  // edge tiles keep the per-copy checks, the others run without them);
  // whether a block is at the edge is the same for all its threads.
  const std::string edge = flat ? "" : edgeBlock(c);
  if (edge.empty()) {
    phases("", true);
  } else {
    const auto memo = c.memo;  // values of the first version do not dominate the second
    e.ins("bra", {"$L__ptxopt_tt_inner"}, "!" + edge);
    phases("", true);
    e.ins("ret", {});
    e.label("$L__ptxopt_tt_inner");
    c.memo = memo;
    phases("i", false);
  }
  if (flat) {  // the next tile, once every thread is done with this one
    e.ins("bar.sync", {"0"});
    e.ins("add.u32", {fl.tile, fl.tile, fl.step});
    e.ins("bra.uni", {fl.loop});
    e.label(fl.exit);
  }
  e.ins("ret", {});
  if (flat) {
    flush();
    if (flat->wide) narrowRadices(m, *flat, code);
    flatPlain(c, m, fl, *flat, code);
  }
  flush();
  auto &b = clone->body->body;
  b.erase(b.begin() + static_cast<long>(prologueAt(*clone->body)), b.end());
  b.push_back(e.decl(".b32", e.prefix + "r", e.r32));
  if (e.r64) b.push_back(e.decl(".b64", e.prefix + "rd", e.r64));
  b.push_back(e.decl(".pred", e.prefix + "p", e.pred));
  for (auto &st : valueDecls) b.push_back(std::move(st));
  for (auto &st : code) b.push_back(std::move(st));
  declareTile(m, *clone, tile, tileBytes * p.loads.size());
  return clone;
}

Variant makeTiledVariant(const std::string &name, const Plan &p, const Shape &sh) {
  Variant v;
  v.name = name;
  v.pass = "transpose";
  v.kind = "transpose-tiled";
  const auto [sx, sy] = blocksPerTile(sh);
  const uint8_t d2 = p.index2 == "%ctaid.z" ? 2 : 1;  // the grid dimension of the tile's second axis
  if (sh.bx > kTile) v.grid[0] = DimSource{DimSource::From::Grid, 0, 1, 0, false, sh.bx / kTile};
  if (sx > 1) {
    v.grid[0] = DimSource{DimSource::From::Grid, 0, sx, 0, true};
    v.extraArgs.push_back(DimSource{DimSource::From::Grid, 0});
  }
  if (sy > 1) {
    v.grid[d2] = DimSource{DimSource::From::Grid, d2, sy, 0, true};
    v.extraArgs.push_back(DimSource{DimSource::From::Grid, d2});
  }
  if (p.index2 != "%tid.y") {
    // 1-D blocks; the tile's second axis only pays with 32 of its values
    // (a launch over fewer would leave most of each tile's lanes idle).
    v.gridMin[d2] = kTile;
  }
  v.block = {DimSource::constant(kTile), DimSource::constant(kRows), DimSource::constant(1)};
  v.blockMin = {sh.bx, sh.by, 1};
  v.blockMax = {sh.bx, sh.by, 1};
  v.allowDynamicShared = false;
  v.minLaunchThreads = kMinLaunchThreads;
  v.disjointParams = disjointPairs(p);
  return v;
}

}  // namespace ptxopt::transforms::transpose
