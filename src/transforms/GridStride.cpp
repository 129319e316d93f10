// Kernels written as grid-stride loops (transpose, rowwalk).
//
// What: a kernel whose work is a grid-stride loop,
// `for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x *
// gridDim.x) out[(i % W) * H + i / W] = in[i]` (Caffe's and PyTorch's
// CUDA_KERNEL_LOOP, the way much library code writes elementwise kernels,
// transposes and layout conversions among them), or two nested ones over a
// matrix (y along %ctaid.y..., x along %ctaid.x... inside), gets the clones
// of the kernel of one element per thread it is when every thread's loop
// runs at most once: the flat form's (TransposeFlat.cpp) or the 2-D ones.
// Why it pays: the loop hides the transpose from the pass ("it has loops");
// launched with a thread per element (Caffe's GET_BLOCKS(n), the usual
// launch), each thread runs one iteration and the kernel is the naive
// transpose: the same strided side, the same gain from the tile.
// Algorithm (unloopGridStride): every loop of the kernel must be a
// grid-stride loop along one grid dimension d: one latch ending `add v, v,
// S; setp.lt v, B; @p bra header`, S = %ntid.d * %nctaid.d (movs read once),
// v's other definition the index `mad.lo %ctaid.d, %ntid.d, %tid.d` or a mov
// of it (the inner loop's restart), a guard `setp.ge start, B; @q bra exit`
// before the loop to the block after the latch, no register but v written
// both inside and outside the loop (no other value carried), neither v
// after the loop nor the latch's predicate read, and B loop invariant: a
// parameter, or a product of two. The copy without each latch's add, setp
// and bra (and without S and its %nctaid.d mov where only the latch read
// them) runs
// exactly one iteration of each loop: what the loops compute where the
// start plus S is at least B (each loop runs once) and does not wrap, which
// the variant's manifest condition gridStrideOnce asks of the launch (its
// threads along d at least B, fewer than 2^30). The pass's checks run on
// the copy, and its clones are made from it.
// Refuses: a loop whose latch, step or start is not a grid-stride loop's
// is a loop of another kind (the pass's usual "it has loops"); a
// grid-stride loop that carries another value, is not guarded, leaves its
// index or condition read after it, or whose bound is not a parameter or a
// product of two (a launch condition needs the argument), with a remark
// saying which (runTranspose: only in kernels that divide or have an
// uncoalesced access). Launches whose
// loops would run more than once (a grid of a few blocks per SM) run the
// loop clone of a single flat loop (runFlat: `<k>__ptxopt_tiledloop`, T the
// loop's bound) whose iterations are independent (GridStride::independent:
// nothing carried, and the latch its only way out: a `break` or `return`
// in the body ends a thread's later iterations, which the loop clone would
// run), else the original: the clones of one element per thread cover only
// their launch.
// rowwalk (GridStrideLoops::Outer; RowWalk.cpp, addGridStrideClones): only
// the outermost loops must be grid-stride loops, the row walks inside them
// stay. nvcc's form of a grid-stride loop around an inner loop is taken
// too: the loop unswitched on the inner trip count (a second grid-stride
// loop, `y[i] = 0` for rows of length 0) whose latches both advance v (v's
// definitions: the start and the siblings' latches; equal conditions
// merged; the block after one latch may only jump on to the guard's
// target), and v widened in the body (the latch adds S to `cvt.u32.u64` of
// `cvt.s64.s32 v`: roundTripOf). v read after a loop counts only where the
// loop's exit reaches (a sibling is on another path).
#include <algorithm>
#include <set>

#include "GridStride.h"

#include "CloneUtil.h"

namespace ptxopt::transforms::clone {

using ir::Operand;

namespace {

/// What unloopGridStride reads from the kernel once.
struct KernelFacts {
  const analysis::CFG &cfg;
  std::map<std::string_view, std::vector<uint32_t>> defs;  // register -> defining instructions
  std::map<std::string_view, std::string_view> special;    // register -> the special register its mov reads
  std::map<std::string_view, int> uses;                    // register -> reads
  // GridStrideLoops::Outer: the latches' adds of the outermost loops (nvcc
  // unswitches a grid-stride loop around an inner loop into two, one for
  // an inner trip count of 0, whose latches both advance the index).
  std::set<uint32_t> siblingLatches = {};
  bool outer = false;
};

KernelFacts readFacts(analysis::FunctionAnalyses &fa) {
  KernelFacts f{fa.cfg(), {}, {}, {}};
  const auto &ins = f.cfg.instructions();
  for (uint32_t i = 0; i < ins.size(); ++i) {
    const ir::Instruction &in = *ins[i];
    auto du = analysis::defUse(in);
    for (auto d : du.defs) f.defs[d].push_back(i);
    for (auto u : du.uses) ++f.uses[u];
    if (auto mv = specialMov(in))
      for (std::string_view sreg : {"%ctaid.", "%ntid.", "%tid.", "%nctaid."})
        if (mv->second.starts_with(sreg)) f.special[mv->first] = mv->second;
  }
  return f;
}

bool isReg(const Operand &o, std::string_view r) { return o.isReg() && o.text == r; }
bool is32(const ir::Instruction &in, std::string_view base) {
  return in.base() == base && (in.opcode.ends_with(".s32") || in.opcode.ends_with(".u32"));
}
bool is64(const ir::Instruction &in, std::string_view base) {
  return in.base() == base && (in.opcode.ends_with(".s64") || in.opcode.ends_with(".u64"));
}

/// The register's one definition, or null.
const ir::Instruction *onlyDef(const KernelFacts &f, std::string_view r) {
  auto it = f.defs.find(r);
  return it != f.defs.end() && it->second.size() == 1 ? f.cfg.instructions()[it->second[0]] : nullptr;
}

/// Whether `r` is written once, by a mov of special register `sreg`.
bool movOf(const KernelFacts &f, std::string_view r, const std::string &sreg) {
  auto it = f.special.find(r);
  return it != f.special.end() && it->second == sreg && onlyDef(f, r);
}

/// Whether `r` is written once, by `cvt.u64.u32 r, x` of a mov of special
/// register `sreg` (a 64-bit index's widened %ntid / %nctaid / %tid).
bool widenedMovOf(const KernelFacts &f, std::string_view r, const std::string &sreg) {
  const ir::Instruction *c = onlyDef(f, r);
  return c && c->guard.empty() && c->opcode == "cvt.u64.u32" && c->operands.size() == 2 && c->operands[1].isReg() &&
         movOf(f, c->operands[1].text, sreg);
}

/// The parameters a loop bound is read from, into `c`: B loaded from a
/// parameter, or the product of two (mul.lo of two loaded registers); or a
/// compile-time bound (an immediate: c.times); false when none of these.
bool boundParams(const ir::Function &k, const KernelFacts &f, const Operand &bound, Variant::GridStrideOnce &c) {
  if (auto v = bound.intValue()) {
    if (*v < 2 || *v >= (int64_t(1) << 30)) return false;  // the condition's threads are under 2^30
    c.times = uint64_t(*v);
    return true;
  }
  if (!bound.isReg()) return false;
  const std::string_view b = bound.text;
  auto param = [&](std::string_view r) -> int {
    const ir::Instruction *d = onlyDef(f, r);
    if (!d || !d->guard.empty() ||
        !(d->opcode == "ld.param.u32" || d->opcode == "ld.param.s32" || d->opcode == "ld.param.u64" ||
          d->opcode == "ld.param.s64") ||
        d->operands.size() != 2 || d->operands[1].kind != Operand::Kind::Address || d->operands[1].elems.size() != 1 ||
        !d->operands[1].elems[0].isSym())
      return -1;
    return clone::paramIndex(k, d->operands[1].elems[0].text);
  };
  if (int p = param(b); p >= 0) {
    c.params = {uint32_t(p)};
    return true;
  }
  const ir::Instruction *d = onlyDef(f, b);
  if (!d || !d->guard.empty() || !(d->opcode == "mul.lo.s32" || d->opcode == "mul.lo.u32") || d->operands.size() != 3 ||
      !d->operands[1].isReg() || !d->operands[2].isReg())
    return false;
  int p1 = param(d->operands[1].text), p2 = param(d->operands[2].text);
  if (p1 < 0 || p2 < 0) return false;
  c.params = {uint32_t(p1), uint32_t(p2)};
  return true;
}

/// A loop's latch read as `add v, v, stride; setp.lt pred, v, bound; @pred
/// bra header` (or `setp.gt pred, bound, v`): `at` the add's index.
struct Latch {
  uint32_t at = 0;
  std::string_view v, stride, pred;
  Operand bound;     // a register, or an immediate (a compile-time size)
  std::string type;  // the comparison's ".s32" / ".u32"
  uint32_t exit = UINT32_MAX;  // the block after the latch
};

/// Whether `o` is v truncated back from its widening in loop `L`: `cvt.u32.u64 o, X` (or
/// .s32.s64) of `cvt.s64.s32 X, v` (or .u64.u32), each the register's one
/// definition and inside `L` (v's other definition is the latch's add,
/// after both: X holds the iteration's v).
bool roundTripOf(const KernelFacts &f, const analysis::Loop &L, const Operand &o, std::string_view v) {
  if (!o.isReg()) return false;
  const ir::Instruction *t = onlyDef(f, o.text);
  if (!t || !t->guard.empty() || !(t->opcode == "cvt.u32.u64" || t->opcode == "cvt.s32.s64") ||
      t->operands.size() != 2 || !t->operands[1].isReg() || !L.contains(f.cfg.blockOf(f.cfg.indexOf(t))))
    return false;
  const ir::Instruction *w = onlyDef(f, t->operands[1].text);
  return w && w->guard.empty() && (w->opcode == "cvt.s64.s32" || w->opcode == "cvt.u64.u32") &&
         w->operands.size() == 2 && isReg(w->operands[1], v) && L.contains(f.cfg.blockOf(f.cfg.indexOf(w)));
}

std::optional<Latch> readLatch(const KernelFacts &f, const analysis::Loop &L) {
  const auto &ins = f.cfg.instructions();
  const auto &blocks = f.cfg.blocks();
  if (L.latches.size() != 1) return std::nullopt;
  const analysis::BasicBlock &latch = blocks[L.latches[0]];
  if (latch.last < latch.first + 3) return std::nullopt;
  Latch l;
  l.at = latch.last - 3;
  const ir::Instruction &add = *ins[l.at], &cmp = *ins[l.at + 1], &br = *ins[l.at + 2];
  const auto &headLabels = blocks[L.header].labels;
  // (Outer: a 64-bit index too, `size_t i` or PyTorch's int64_t
  // CUDA_KERNEL_LOOP: add.s64, setp.lt.u64 / .s64.)
  auto width = [&](const ir::Instruction &in, std::string_view base) {
    return is32(in, base) || (f.outer && is64(in, base));
  };
  if (!width(add, "add") || !add.guard.empty() || add.operands.size() != 3 || !add.operands[0].isReg() ||
      !width(cmp, "setp") || !cmp.guard.empty() || cmp.operands.size() != 3 || !cmp.operands[0].isReg() ||
      !(cmp.opcode.starts_with("setp.lt.") || cmp.opcode.starts_with("setp.gt.")) || br.base() != "bra" ||
      br.guardNegated || br.guard != cmp.operands[0].text || br.operands.size() != 1 || !br.operands[0].isSym() ||
      std::find(headLabels.begin(), headLabels.end(), br.operands[0].text) == headLabels.end())
    return std::nullopt;
  l.v = add.operands[0].text;
  const bool lt = cmp.opcode.starts_with("setp.lt.");
  const Operand &cv = cmp.operands[lt ? 1 : 2], &cb = cmp.operands[lt ? 2 : 1];
  // `add v, w, S` with w = v: v itself, or (Outer: a loop whose body widens v,
  // nvcc's grid-stride loops around an inner loop) `cvt.u32.u64 w, X` of
  // `cvt.s64.s32 X, v` (or .u64.u32), both once, in the loop.
  auto isV = [&](const Operand &o) { return isReg(o, l.v) || (f.outer && roundTripOf(f, L, o, l.v)); };
  const bool first = isV(add.operands[1]);
  const Operand &stride = first ? add.operands[2] : add.operands[1];
  if (!isReg(cv, l.v) || !(first || isV(add.operands[2])) || !stride.isReg() || !(cb.isReg() || cb.intValue()))
    return std::nullopt;
  l.stride = stride.text;
  l.bound = cb;
  l.pred = cmp.operands[0].text;
  l.type = std::string(cmp.opcode.substr(cmp.opcode.size() - 4));
  for (uint32_t sb : latch.succs)
    if (sb != L.header) l.exit = sb;
  return l;
}

/// The grid dimension ("x", "y", "z") whose blockDim * gridDim the step
/// is (`mul.lo` of the two movs), or "".
std::string strideDim(const KernelFacts &f, std::string_view stride) {
  const ir::Instruction *s = onlyDef(f, stride);
  if (s && f.outer && s->guard.empty() && s->operands.size() == 3 && s->operands[1].isReg() && s->operands[2].isReg()) {
    // A 64-bit index: `mul.lo.s64 S, cvt(%ntid), cvt(%nctaid)` or `mul.wide.u32 S, %ntid, %nctaid`.
    const bool lo64 = s->opcode == "mul.lo.s64" || s->opcode == "mul.lo.u64", wide = s->opcode == "mul.wide.u32";
    for (const char *d : {"x", "y", "z"})
      for (int o = 1; o <= 2 && (lo64 || wide); ++o) {
        const std::string n = std::string("%ntid.") + d, c = std::string("%nctaid.") + d;
        const auto &a = s->operands[o].text, &b = s->operands[3 - o].text;
        if (lo64 ? widenedMovOf(f, a, c) && widenedMovOf(f, b, n) : movOf(f, a, c) && movOf(f, b, n)) return d;
      }
  }
  if (!s || !s->guard.empty() || !(s->opcode == "mul.lo.s32" || s->opcode == "mul.lo.u32") || s->operands.size() != 3 ||
      !s->operands[1].isReg() || !s->operands[2].isReg())
    return "";
  for (const char *d : {"x", "y", "z"})
    for (int o = 1; o <= 2; ++o)
      if (movOf(f, s->operands[o].text, std::string("%nctaid.") + d) && f.special.count(s->operands[3 - o].text) &&
          f.special.at(s->operands[3 - o].text) == std::string("%ntid.") + d)
        return d;
  return "";
}

/// The register the loop's index starts from: v's definition outside the
/// loop is `mad.lo %ctaid.d, %ntid.d, %tid.d` (v itself) or a mov of such
/// a register (an inner loop starting again); nullopt otherwise.
std::optional<std::string_view> indexStart(const KernelFacts &f, const analysis::Loop &L, const Latch &l,
                                           const std::string &dim) {
  const auto &ins = f.cfg.instructions();
  auto dv = f.defs.find(l.v);
  if (dv == f.defs.end() || std::count(dv->second.begin(), dv->second.end(), l.at) != 1) return std::nullopt;
  // v's definitions: the start, this latch's add and (Outer) the latches'
  // adds of its unswitched siblings.
  std::vector<uint32_t> starts;
  for (uint32_t d : dv->second)
    if (d != l.at && !f.siblingLatches.count(d)) starts.push_back(d);
  if (starts.size() != 1) return std::nullopt;
  const uint32_t startAt = starts[0];
  if (L.contains(f.cfg.blockOf(startAt))) return std::nullopt;
  const ir::Instruction *start = ins[startAt];
  std::string_view index = l.v;
  if (start->base() == "mov" && start->guard.empty() && start->operands.size() == 2 && start->operands[1].isReg()) {
    index = start->operands[1].text;
    start = onlyDef(f, index);
  }
  auto sp = [&](const Operand &op, const std::string &name) {
    return op.isReg() && f.special.count(op.text) && f.special.at(op.text) == name;
  };
  const std::string c = "%ctaid." + dim, n = "%ntid." + dim, t = "%tid." + dim;
  // A 64-bit index (Outer): `add.s64 v, P, T`, P = `mul.wide.u32 %ctaid,
  // %ntid` (either order), T = `cvt.u64.u32` of %tid (either order).
  if (start && f.outer && start->guard.empty() && start->opcode == "add.s64" && start->operands.size() == 3 &&
      start->operands[1].isReg() && start->operands[2].isReg())
    for (int side = 1; side <= 2; ++side) {
      const ir::Instruction *p = onlyDef(f, start->operands[side].text);
      if (!p || !p->guard.empty() || p->opcode != "mul.wide.u32" || p->operands.size() != 3 ||
          !widenedMovOf(f, start->operands[3 - side].text, t))
        continue;
      const auto &q = p->operands;
      if ((sp(q[1], c) && sp(q[2], n)) || (sp(q[1], n) && sp(q[2], c))) return index;
    }
  if (!start || !start->guard.empty() || !(start->opcode == "mad.lo.s32" || start->opcode == "mad.lo.u32") ||
      start->operands.size() != 4)
    return std::nullopt;
  const auto &o = start->operands;
  if (((sp(o[1], c) && sp(o[2], n)) || (sp(o[1], n) && sp(o[2], c))) && sp(o[3], t)) return index;
  return std::nullopt;
}

/// Why a register other than v is carried around the loop (written inside
/// and outside it), or the bound is written in it; "" when neither.
std::string carriedWhy(const KernelFacts &f, const analysis::Loop &L, const Latch &l) {
  for (const auto &[r, ds] : f.defs) {
    bool in = false, out = false;
    for (uint32_t d : ds) (L.contains(f.cfg.blockOf(d)) ? in : out) = true;
    if (r == l.bound.text && in) return "a loop whose bound " + std::string(r) + " changes in it";
    if (in && out && r != l.v)
      return "a loop that carries " + std::string(r) + " from one iteration to the next";
  }
  return "";
}

/// The guard before the loop: `setp.ge q, start, bound` (or `setp.le q,
/// bound, start`; start v or the index it copies) and `@q bra` to the block
/// after the latch, in a block outside the loop dominating its header.
/// -1: none; 1: it reads v; 0: it reads the index.
int guardBefore(const KernelFacts &f, const analysis::Loop &L, const analysis::DominatorTree &dom, const Latch &l,
                std::string_view index) {
  const auto &ins = f.cfg.instructions();
  if (l.exit == UINT32_MAX) return -1;
  std::vector<std::string> labels(f.cfg.blocks()[l.exit].labels.begin(), f.cfg.blocks()[l.exit].labels.end());
  // Outer: a block after the latch that only jumps on (`bra.uni T`, nvcc's
  // unswitched loop) stands for T.
  if (const auto &eb = f.cfg.blocks()[l.exit]; f.outer && eb.last == eb.first + 1) {
    const ir::Instruction &j = *ins[eb.first];
    if (j.base() == "bra" && j.guard.empty() && j.operands.size() == 1 && j.operands[0].isSym())
      labels.push_back(std::string(j.operands[0].text));
  }
  for (uint32_t i = 1; i < ins.size(); ++i) {
    const ir::Instruction &g = *ins[i], &c = *ins[i - 1];
    if (g.base() != "bra" || g.guard.empty() || g.guardNegated || g.operands.size() != 1 || !g.operands[0].isSym() ||
        L.contains(f.cfg.blockOf(i)) || !dom.dominates(f.cfg.blockOf(i), L.header) ||
        std::find(labels.begin(), labels.end(), g.operands[0].text) == labels.end())
      continue;
    if (!c.guard.empty() || c.operands.size() != 3 || !isReg(c.operands[0], g.guard)) continue;
    const bool ge = c.opcode == "setp.ge" + l.type, le = c.opcode == "setp.le" + l.type;
    const Operand &a = c.operands[ge ? 1 : 2], &b = c.operands[ge ? 2 : 1];
    if ((ge || le) && (isReg(a, l.v) || isReg(a, index)) && isReg(b, l.bound.text)) return isReg(a, l.v) ? 1 : 0;
    // A compile-time bound N: nvcc tests `v > N - 1` (or `N - 1 < v`).
    if (auto n = l.bound.intValue(); n && *n > 0) {
      const bool gt = c.opcode == "setp.gt" + l.type, lt = c.opcode == "setp.lt" + l.type;
      const Operand &x = c.operands[gt ? 1 : 2], &y = c.operands[gt ? 2 : 1];
      if ((gt || lt) && (isReg(x, l.v) || isReg(x, index)) && y.intValue() == *n - 1) return isReg(x, l.v) ? 1 : 0;
    }
  }
  return -1;
}

/// One loop checked as a grid-stride loop: the instructions to drop and
/// its launch condition, or `why` set.
struct Unlooped {
  std::vector<uint32_t> drop;
  Variant::GridStrideOnce cond;
  bool singleExit = false;  // the latch is the loop's only way out (no break, return or exit inside)
};

/// Whether the latch's block is the only one of `L` with a successor
/// outside it and no block of `L` returns, exits or traps: a thread then
/// runs every iteration up to the bound (a `break` or `return` in the body
/// would end its later ones).
bool onlyLatchLeaves(const KernelFacts &f, const analysis::Loop &L, const Latch &l) {
  const uint32_t latch = f.cfg.blockOf(l.at);
  const auto &ins = f.cfg.instructions();
  for (uint32_t b : L.blocks) {
    const auto &bb = f.cfg.blocks()[b];
    for (uint32_t s : bb.succs)
      if (!L.contains(s) && b != latch) return false;
    for (uint32_t i = bb.first; i < bb.last; ++i)
      if (const auto base = ins[i]->base(); base == "ret" || base == "exit" || base == "trap") return false;
  }
  return true;
}

/// `recognized` is set once the loop's latch, step and index are a
/// grid-stride loop's (a failure after that is a grid-stride loop the pass
/// does not take; one before, a loop of another kind).
std::optional<Unlooped> gridStrideLoop(const ir::Function &k, const KernelFacts &f, const analysis::Loop &L,
                                       const analysis::DominatorTree &dom, std::string &why, bool &recognized) {
  auto l = readLatch(f, L);
  const std::string dim = l ? strideDim(f, l->stride) : "";
  const auto index = l && !dim.empty() ? indexStart(f, L, *l, dim) : std::nullopt;
  if (!index) {
    why = "not a grid-stride loop";
    return std::nullopt;
  }
  recognized = true;  // from here on, why the pass does not take it is news
  if (why = carriedWhy(f, L, *l); !why.empty()) return std::nullopt;
  const int guard = guardBefore(f, L, dom, *l, *index);
  if (guard < 0) {
    why = "a loop not guarded by " + std::string(l->v) + " < " + std::string(l->bound.text) + " before its first iteration";
    return std::nullopt;
  }
  Unlooped u;
  u.cond.dim = uint32_t(dim[0] - 'x');
  if (!boundParams(k, f, l->bound, u.cond)) {
    why = "a loop whose bound " + std::string(l->bound.text) + " is not a parameter or a product of two";
    return std::nullopt;
  }
  // What the loop leaves behind must not be read after it: i past the
  // last iteration, the latch's predicate (false there).
  const auto &ins = f.cfg.instructions();
  int outside = 0;
  if (f.outer) {
    // Outer: reads in code the loop's exit reaches (an unswitched sibling
    // loop is on another path; the guard before the loop is not after it).
    std::vector<bool> seen(f.cfg.blocks().size());
    std::vector<uint32_t> work{l->exit};
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      if (b == UINT32_MAX || seen[b]) continue;
      seen[b] = true;
      const auto &bb = f.cfg.blocks()[b];
      for (uint32_t i = bb.first; i < bb.last; ++i)
        for (auto r : analysis::defUse(*ins[i]).uses) outside += r == l->v;
      work.insert(work.end(), bb.succs.begin(), bb.succs.end());
    }
  } else {
    for (uint32_t i = 0; i < ins.size(); ++i)
      if (!L.contains(f.cfg.blockOf(i)))
        for (auto r : analysis::defUse(*ins[i]).uses) outside += r == l->v;
    outside -= guard;
  }
  if (outside > 0 || f.uses.at(l->pred) != 1) {
    why = "a loop whose index or condition is read after it";
    return std::nullopt;
  }
  u.drop = {l->at, l->at + 1, l->at + 2};
  u.singleExit = onlyLatchLeaves(f, L, *l);
  // The step and its %nctaid.d mov, where the latch was their only reader.
  if (f.uses.at(l->stride) == 1) {
    const ir::Instruction *s = onlyDef(f, l->stride);
    u.drop.push_back(f.cfg.indexOf(s));
    for (int o = 1; o <= 2; ++o)
      if (auto sp = f.special.find(s->operands[o].text);
          sp != f.special.end() && sp->second.starts_with("%nctaid.") && f.uses.at(sp->first) == 1)
        u.drop.push_back(f.defs.at(sp->first)[0]);
  }
  return u;
}

}  // namespace

std::optional<GridStride> unloopGridStride(ir::Module &m, const ir::Function &k, analysis::FunctionAnalyses &fa,
                                           std::string &why, GridStrideLoops which) {
  why.clear();
  const auto &loops = fa.loops().loops();
  if (loops.empty() || !k.body) return std::nullopt;
  KernelFacts f = readFacts(fa);
  if (which == GridStrideLoops::Outer) {
    f.outer = true;
    for (const auto &L : loops)
      if (auto l = L.parent ? std::nullopt : readLatch(f, L)) f.siblingLatches.insert(l->at);
  }
  // Only kernels reading %nctaid (a grid stride) are asked about.
  if (std::none_of(f.special.begin(), f.special.end(), [](const auto &s) { return s.second.starts_with("%nctaid."); }))
    return std::nullopt;
  GridStride g;
  std::vector<uint32_t> drop;
  bool singleExits = true;
  for (const auto &L : loops) {
    // Outer: a loop inside another (the row walk inside the loop over
    // rows) stays as it is.
    if (which == GridStrideLoops::Outer && L.parent) continue;
    bool recognized = false;
    auto u = gridStrideLoop(k, f, L, fa.dom(), why, recognized);
    if (!u) {
      if (!recognized) why.clear();  // a loop of another kind: not a grid-stride kernel
      return std::nullopt;
    }
    if (std::any_of(g.conds.begin(), g.conds.end(), [&](const auto &c) { return c.dim == u->cond.dim; })) {
      // Outer: nvcc's unswitched copies of one loop share its condition.
      if (!f.outer || std::find(g.conds.begin(), g.conds.end(), u->cond) == g.conds.end()) {
        why = "two grid-stride loops along one grid dimension";
        return std::nullopt;
      }
    } else {
      g.conds.push_back(u->cond);
    }
    singleExits &= u->singleExit;
    drop.insert(drop.end(), u->drop.begin(), u->drop.end());
  }
  std::sort(drop.begin(), drop.end());
  drop.erase(std::unique(drop.begin(), drop.end()), drop.end());
  g.kernel = cloneBody(k, std::string(k.name) + "__ptxopt_once", "", m);
  auto &b = g.kernel->body->body;
  for (auto it = drop.rbegin(); it != drop.rend(); ++it) b.erase(b.begin() + long(stmtOfInstr(*g.kernel->body, *it)));
  g.kernel->edited = true;
  g.kernel->body->edited = true;
  std::sort(g.conds.begin(), g.conds.end(), [](const auto &a, const auto &c) { return a.dim < c.dim; });
  // Iterations independent: carriedWhy refused registers written both inside
  // and outside a loop, the pass's checks on the copy refuse one read before
  // it is written (TransposePlan.cpp: "may be read before it is written"),
  // and here no iteration ends the thread's later ones (a break or return).
  g.independent = singleExits;
  return g;
}

size_t stmtOfInstr(const ir::Block &b, uint32_t n) {
  for (size_t i = 0; i < b.body.size(); ++i)
    if (b.body[i]->kind == ir::Stmt::Kind::Instruction && n-- == 0) return i;
  return b.body.size();
}

std::unique_ptr<ir::Function> cloneBody(const ir::Function &k, const std::string &name,
                                        const std::string &labelSuffix, ir::Module &m) {
  auto f = ir::cloneFunction(k, name, labelSuffix, m);
  auto &body = f->body->body;
  std::vector<std::unique_ptr<ir::Stmt>> flat;
  for (auto &s : body) {
    if (s->kind != ir::Stmt::Kind::Block) {
      flat.push_back(std::move(s));
      continue;
    }
    for (auto &inner : static_cast<ir::Block &>(*s).body) {  // instructions and directives (scopeWhy)
      inner->edited = true;
      flat.push_back(std::move(inner));
    }
    f->body->edited = true;
  }
  body = std::move(flat);
  return f;
}


std::optional<std::pair<std::string_view, std::string_view>> specialMov(const ir::Instruction &in) {
  if (in.base() != "mov" || in.operands.size() != 2 || !in.guard.empty() || !in.operands[0].isReg() ||
      !in.operands[1].isReg())
    return std::nullopt;
  return std::make_pair(in.operands[0].text, in.operands[1].text);
}

}  // namespace ptxopt::transforms::clone
