// transpose, 1-D launches that index with `/` and `%` (the flat form).
//
// What: a kernel of 1-D blocks whose thread computes one flat index
// `i = blockIdx.x * blockDim.x + threadIdx.x` and splits it by a parameter
// W into `y = i / W` and `x = i % W` (`out[x*H + y] = in[i]`: the naive
// transpose as written by code that launches one thread per element over
// a flat range, and its rotations, gathers and fused forms) gets the tiled
// clone of the 2-D transpose (TransposeTiled.cpp), `<k>__ptxopt_tiledflat`.
// Why it pays: as for the 2-D naive transpose (the store, or the load,
// touches 32 sectors per warp request; the tile makes both sides 128-byte
// rows); nothing else in the pipeline takes these kernels (the division
// makes every address `unknown` to the affine analysis, so coalesce has no
// stride to exchange).
// Algorithm: findFlatForm recognises the form: %ctaid.x, %ntid.x and
// %tid.x each read once (by a mov) and used only by the one `mad.lo i,
// %ctaid.x, %ntid.x, %tid.x`, no other special register read, and every
// `div` / `rem` of i by the same register w, w loaded once from a
// parameter (ld.param) before the mad in the entry block. flatAs2D writes
// the kernel as a 2-D one (not emitted): R = %ctaid.x * %ntid.x + %tid.x,
// Q = %ctaid.y * %ntid.y + %tid.y, i = Q * w + R, each `div i, w` a copy of
// Q and each `rem i, w` a copy of R. For a logical thread with R < w the
// 2-D kernel computes exactly what the original computes for flat index
// i = Q*w + R (the division's quotient and remainder are Q and R when
// 0 <= R < w and i >= 0: conditions w >= 1 and fewer than 2^31 threads);
// the affine analysis follows it (`i - (i / w) * w`, nvcc's remainder,
// becomes R), so the transpose pass's checks and planKernel run on it
// unchanged. The tiled clone is built from the 2-D kernel with 32 x 32
// logical blocks; its blocks walk the tiles (ceil(w/32) x ceil(Q rows/32)
// of them) in a loop, tile t at logical block (t % tilesX, t / tilesX), and
// skip each logical thread with R >= w or Q*w + R >= the original launch's
// thread count T (grid.x * block.x, passed as two extra arguments): every
// flat index of the original launch runs once, as the original's code.
// Launch: block (32, 8, 1), grid ceil(grid.x * b / 1024) for blocks of b
// threads (one variant per b in kFlatBlocks, one clone); conditions: block
// (b, 1, 1), grid.y = grid.z = 1, w >= 1, fewer than 2^31 threads, the
// tiled and the stored array disjoint, 2^20 threads or more.
// Refuses (remark "a 1-D launch indexing with / and %: ..."): whatever the
// 2-D kernel's checks refuse (a second division, of the quotient by C in a
// flat NCHW -> NHWC permute, leaves an address the analysis cannot
// follow); the form itself not found is no remark (the kernel is not flat).
#include <algorithm>

#include "Pass.h"
#include "Transpose.h"

namespace ptxopt::transforms::transpose {

using ir::Operand;
using namespace clone;

namespace {

/// The register a `mov.u32 r, <special>` writes, when `in` is one.
std::optional<std::pair<std::string_view, std::string_view>> specialMov(const ir::Instruction &in) {
  if (in.base() != "mov" || in.operands.size() != 2 || !in.guard.empty() || !in.operands[0].isReg() ||
      !in.operands[1].isReg())
    return std::nullopt;
  return std::make_pair(in.operands[0].text, in.operands[1].text);
}

bool isDivRem(const ir::Instruction &in) {
  auto b = in.base();
  return (b == "div" || b == "rem") && (in.opcode.ends_with(".s32") || in.opcode.ends_with(".u32"));
}

}  // namespace

std::optional<FlatForm> findFlatForm(const ir::Function &k, analysis::FunctionAnalyses &fa, std::string &why) {
  why.clear();
  if (!k.params || !k.body) return std::nullopt;
  RegTypes types;
  ir::forEachStmt(*k.body, [&](const ir::Stmt &s) {
    if (s.kind == ir::Stmt::Kind::Decl) types.add(static_cast<const ir::Decl &>(s));
  });
  const auto &ins = fa.cfg().instructions();
  std::map<std::string_view, std::string_view> regOf;  // special register -> the register its mov writes
  std::map<std::string_view, int> defs, uses;
  for (uint32_t i = 0; i < ins.size(); ++i) {
    const ir::Instruction &in = *ins[i];
    auto du = analysis::defUse(in);
    for (auto d : du.defs) ++defs[d];
    for (auto u : du.uses) {
      if (!types.type(u).empty()) {
        ++uses[u];
        continue;
      }
      if (u != "%tid.x" && u != "%ntid.x" && u != "%ctaid.x") return std::nullopt;  // another index: not flat
      auto mv = specialMov(in);
      if (!mv || regOf.count(u)) return std::nullopt;
      regOf[u] = mv->first;
    }
  }
  if (regOf.size() != 3) return std::nullopt;
  FlatForm f;
  const ir::Instruction *mad = nullptr;
  for (uint32_t i = 0; i < ins.size() && !mad; ++i) {
    const ir::Instruction &in = *ins[i];
    if (in.base() != "mad" || in.operands.size() != 4 || !in.guard.empty() ||
        (in.opcode != "mad.lo.s32" && in.opcode != "mad.lo.u32"))
      continue;
    const auto &o = in.operands;
    auto is = [&](const Operand &op, const char *sreg) { return op.isReg() && op.text == regOf[sreg]; };
    if (((is(o[1], "%ctaid.x") && is(o[2], "%ntid.x")) || (is(o[1], "%ntid.x") && is(o[2], "%ctaid.x"))) &&
        is(o[3], "%tid.x") && o[0].isReg()) {
      mad = &in;
      f.mad = i;
      f.index = std::string(o[0].text);
    }
  }
  if (!mad) return std::nullopt;
  // The three index registers feed the mad alone; i is written once.
  for (const char *s : {"%tid.x", "%ntid.x", "%ctaid.x"})
    if (defs[regOf[s]] != 1 || uses[regOf[s]] != 1) return std::nullopt;
  if (defs[f.index] != 1) return std::nullopt;
  for (uint32_t i = 0; i < ins.size(); ++i) {
    const ir::Instruction &in = *ins[i];
    if (!isDivRem(in) || in.operands.size() != 3 || !in.operands[1].isReg() || in.operands[1].text != f.index) continue;
    if (!in.guard.empty() || !in.operands[0].isReg() || !in.operands[2].isReg()) {
      why = "the flat index is divided by a constant or under a guard (" + std::string(in.opcode) + ")";
      return std::nullopt;
    }
    if (f.width.empty()) f.width = std::string(in.operands[2].text);
    if (in.operands[2].text != f.width) {
      why = "the flat index is divided by two values (" + f.width + ", " + std::string(in.operands[2].text) +
            "; one split, i / w and i % w, is handled: a flat NCHW -> NHWC permute splits it twice)";
      return std::nullopt;
    }
    (in.base() == "div" ? f.divs : f.rems).push_back(i);
  }
  if (f.width.empty()) return std::nullopt;  // no division of the flat index: not the flat form
  if (defs[f.width] != 1) {
    why = "the divisor " + f.width + " is written more than once";
    return std::nullopt;
  }
  // w: loaded once from a parameter, before the mad, in the same block.
  for (uint32_t i = 0; i < f.mad; ++i) {
    const ir::Instruction &in = *ins[i];
    auto mem = analysis::memAccess(in);
    if (!mem || mem->space != ".param" || mem->kind != analysis::MemAccess::Kind::Load || in.operands.size() != 2 ||
        !in.operands[0].isReg() || in.operands[0].text != f.width || mem->bytes() != 4 || !in.guard.empty())
      continue;
    const Operand &a = in.operands[1];
    if (a.kind != Operand::Kind::Address || a.elems.size() != 1 || !a.elems[0].isSym()) return std::nullopt;
    if (fa.cfg().blockOf(i) != fa.cfg().blockOf(f.mad)) return std::nullopt;
    f.widthParam = paramIndex(k, a.elems[0].text);
    f.widthParamName = std::string(a.elems[0].text);
  }
  if (f.widthParam < 0) {
    why = "the divisor " + f.width + " is not a kernel parameter loaded before the index (a product of parameters, H*W, is not handled)";
    return std::nullopt;
  }
  return f;
}

std::unique_ptr<ir::Function> flatAs2D(ir::Module &m, const ir::Function &k, const FlatForm &f) {
  auto g = cloneBody(k, std::string(k.name) + "__ptxopt_flat2d", "_f2", m);
  auto &b = g->body->body;
  const std::string q = "%ptxopt_f2r3", r = "%ptxopt_f2r4";
  // Back to front, so that the earlier instructions' statement indices hold.
  std::vector<uint32_t> edits = f.divs;
  edits.insert(edits.end(), f.rems.begin(), f.rems.end());
  edits.push_back(f.mad);
  std::sort(edits.rbegin(), edits.rend());
  for (uint32_t n : edits) {
    const size_t at = stmtOfInstr(*g->body, n);
    auto &in = static_cast<ir::Instruction &>(*b[at]);
    if (n != f.mad) {
      const bool div = in.base() == "div";
      b[at] = makeInstr(m, "mov.b32", {in.operands[0], Operand::reg(m.intern(div ? q : r))});
      continue;
    }
    const std::string op(in.opcode);
    std::vector<std::unique_ptr<ir::Stmt>> seq;
    seq.push_back(makeInstr(m, "mov.u32", {Operand::reg(m.intern("%ptxopt_f2r0")), Operand::reg(m.intern("%ctaid.y"))}));
    seq.push_back(makeInstr(m, "mov.u32", {Operand::reg(m.intern("%ptxopt_f2r1")), Operand::reg(m.intern("%ntid.y"))}));
    seq.push_back(makeInstr(m, "mov.u32", {Operand::reg(m.intern("%ptxopt_f2r2")), Operand::reg(m.intern("%tid.y"))}));
    seq.push_back(makeInstr(m, op,
                            {Operand::reg(m.intern(q)), Operand::reg(m.intern("%ptxopt_f2r0")),
                             Operand::reg(m.intern("%ptxopt_f2r1")), Operand::reg(m.intern("%ptxopt_f2r2"))}));
    seq.push_back(makeInstr(m, op, {Operand::reg(m.intern(r)), in.operands[1], in.operands[2], in.operands[3]}));
    seq.push_back(makeInstr(m, op,
                            {in.operands[0], Operand::reg(m.intern(q)), Operand::reg(m.intern(f.width)),
                             Operand::reg(m.intern(r))}));
    b.erase(b.begin() + static_cast<long>(at));
    b.insert(b.begin() + static_cast<long>(at), std::make_move_iterator(seq.begin()), std::make_move_iterator(seq.end()));
  }
  Emitter e{m, {}};
  b.insert(b.begin() + static_cast<long>(prologueAt(*g->body)), e.decl(".b32", "%ptxopt_f2r", 5));
  g->edited = true;
  g->body->edited = true;
  return g;
}

Variant makeFlatVariant(const std::string &name, const Plan &p, const FlatForm &f, unsigned block) {
  Variant v;
  v.name = name;
  v.pass = "transpose";
  v.kind = "transpose-tiled";
  // A tile (1024 logical threads) per block: ceil(grid.x * block / 1024)
  // blocks; the clone loops over the tiles past them (rows of w not a
  // multiple of 32 make more tiles than that).
  if (block < 1024) v.grid[0] = DimSource{DimSource::From::Grid, 0, 1024 / block, 0, true};
  v.extraArgs = {DimSource{DimSource::From::Grid, 0}, DimSource{DimSource::From::Block, 0}};
  v.block = {DimSource::constant(32), DimSource::constant(8), DimSource::constant(1)};
  v.blockMin = {block, 1, 1};
  v.blockMax = {block, 1, 1};
  v.gridMax = {0, 1, 1};
  v.minParams = {{uint32_t(f.widthParam), 1}};
  v.maxLaunchThreads = 0x7fffffffu;  // the flat index is a non-negative int
  v.minLaunchThreads = kMinLaunchThreads;
  v.allowDynamicShared = false;
  v.disjointParams = disjointPairs(p);
  return v;
}

}  // namespace ptxopt::transforms::transpose
