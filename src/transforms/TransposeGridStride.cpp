// transpose, kernels written as grid-stride loops.
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
// both inside and outside the loop (no other value carried), and B loop
// invariant: a parameter, or a product of two. The copy without each
// latch's add, setp and bra (and without S and its %nctaid.d mov) runs
// exactly one iteration of each loop: what the loops compute where the
// start plus S is at least B (each loop runs once) and does not wrap, which
// the variant's manifest condition gridStrideOnce asks of the launch (its
// threads along d at least B, fewer than 2^30). The pass's checks run on
// the copy, and its clones are made from it.
// Refuses: loops of any other shape (the pass's "it has loops", with why
// the loop is not a grid-stride one where it reads %nctaid); a bound that
// is not a parameter or a product of two ("... is not a parameter or a
// product of two": a launch condition needs the argument). Launches whose
// loops would run more than once (a grid of a few blocks per SM) run the
// original: the clones of one element per thread cover only their launch.
#include <algorithm>
#include <set>

#include "Pass.h"
#include "Transpose.h"

namespace ptxopt::transforms::transpose {

using ir::Operand;

namespace {

/// What unloopGridStride reads from the kernel once.
struct KernelFacts {
  const analysis::CFG &cfg;
  std::map<std::string_view, std::vector<uint32_t>> defs;  // register -> defining instructions
  std::map<std::string_view, std::string_view> special;    // register -> the special register its mov reads
  std::map<std::string_view, int> uses;                    // register -> reads
};

KernelFacts readFacts(analysis::FunctionAnalyses &fa) {
  KernelFacts f{fa.cfg(), {}, {}, {}};
  const auto &ins = f.cfg.instructions();
  for (uint32_t i = 0; i < ins.size(); ++i) {
    const ir::Instruction &in = *ins[i];
    auto du = analysis::defUse(in);
    for (auto d : du.defs) f.defs[d].push_back(i);
    for (auto u : du.uses) ++f.uses[u];
    if (in.base() == "mov" && in.guard.empty() && in.operands.size() == 2 && in.operands[0].isReg() &&
        in.operands[1].isReg() && in.operands[1].text.starts_with("%") &&
        (in.operands[1].text.starts_with("%ctaid.") || in.operands[1].text.starts_with("%ntid.") ||
         in.operands[1].text.starts_with("%tid.") || in.operands[1].text.starts_with("%nctaid.")))
      f.special[in.operands[0].text] = in.operands[1].text;
  }
  return f;
}

bool isReg(const Operand &o, std::string_view r) { return o.isReg() && o.text == r; }
bool is32(const ir::Instruction &in, std::string_view base) {
  return in.base() == base && (in.opcode.ends_with(".s32") || in.opcode.ends_with(".u32"));
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

/// The parameters a loop bound is read from: B loaded from a parameter, or
/// the product of two (mul.lo of two loaded registers); empty when neither.
std::vector<uint32_t> boundParams(const ir::Function &k, const KernelFacts &f, std::string_view b) {
  auto param = [&](std::string_view r) -> int {
    const ir::Instruction *d = onlyDef(f, r);
    if (!d || !d->guard.empty() || !(d->opcode == "ld.param.u32" || d->opcode == "ld.param.s32") ||
        d->operands.size() != 2 || d->operands[1].kind != Operand::Kind::Address || d->operands[1].elems.size() != 1 ||
        !d->operands[1].elems[0].isSym())
      return -1;
    return clone::paramIndex(k, d->operands[1].elems[0].text);
  };
  if (int p = param(b); p >= 0) return {uint32_t(p)};
  const ir::Instruction *d = onlyDef(f, b);
  if (!d || !d->guard.empty() || !(d->opcode == "mul.lo.s32" || d->opcode == "mul.lo.u32") || d->operands.size() != 3 ||
      !d->operands[1].isReg() || !d->operands[2].isReg())
    return {};
  int p1 = param(d->operands[1].text), p2 = param(d->operands[2].text);
  if (p1 < 0 || p2 < 0) return {};
  return {uint32_t(p1), uint32_t(p2)};
}

/// One loop checked as a grid-stride loop: the instructions to drop and
/// its launch condition, or `why` set.
struct Unlooped {
  std::vector<uint32_t> drop;
  Variant::GridStrideOnce cond;
};

/// `recognized` is set once the loop's latch, step and index are a
/// grid-stride loop's (a failure after that is a grid-stride loop the pass
/// does not take; one before, a loop of another kind).
std::optional<Unlooped> gridStrideLoop(const ir::Function &k, const KernelFacts &f, const analysis::Loop &L,
                                       const analysis::DominatorTree &dom, std::string &why, bool &recognized) {
  const auto &ins = f.cfg.instructions();
  const auto &blocks = f.cfg.blocks();
  if (L.latches.size() != 1) {
    why = "a loop with " + std::to_string(L.latches.size()) + " back edges";
    return std::nullopt;
  }
  const analysis::BasicBlock &latch = blocks[L.latches[0]];
  if (latch.last < latch.first + 3) {
    why = "a loop whose latch is not `add i, i, stride; setp.lt i, n; bra`";
    return std::nullopt;
  }
  const uint32_t at = latch.last - 3;
  const ir::Instruction &add = *ins[at], &cmp = *ins[at + 1], &br = *ins[at + 2];
  const bool shapeOk = is32(add, "add") && add.guard.empty() && add.operands.size() == 3 && add.operands[0].isReg() &&
                       is32(cmp, "setp") && cmp.guard.empty() && cmp.operands.size() == 3 && br.base() == "bra" &&
                       !br.guardNegated && cmp.operands[0].isReg() && br.guard == cmp.operands[0].text &&
                       (cmp.opcode.starts_with("setp.lt.") || cmp.opcode.starts_with("setp.gt."));
  const auto &headLabels = blocks[L.header].labels;
  if (!shapeOk || br.operands.size() != 1 || !br.operands[0].isSym() ||
      std::find(headLabels.begin(), headLabels.end(), br.operands[0].text) == headLabels.end()) {
    why = "a loop whose latch is not `add i, i, stride; setp.lt i, n; bra`";
    return std::nullopt;
  }
  const std::string_view v = add.operands[0].text;
  const bool lt = cmp.opcode.starts_with("setp.lt.");
  const Operand &cv = cmp.operands[lt ? 1 : 2], &cb = cmp.operands[lt ? 2 : 1];
  const Operand &stride = isReg(add.operands[1], v) ? add.operands[2] : add.operands[1];
  if (!isReg(cv, v) || !(isReg(add.operands[1], v) || isReg(add.operands[2], v)) || !stride.isReg() || !cb.isReg()) {
    why = "a loop whose latch is not `add i, i, stride; setp.lt i, n; bra`";
    return std::nullopt;
  }
  const std::string type(cmp.opcode.substr(cmp.opcode.size() - 4));  // ".s32" / ".u32"
  // The stride: %ntid.d * %nctaid.d.
  const ir::Instruction *s = onlyDef(f, stride.text);
  std::string dim;
  if (s && s->guard.empty() && (s->opcode == "mul.lo.s32" || s->opcode == "mul.lo.u32") && s->operands.size() == 3 &&
      s->operands[1].isReg() && s->operands[2].isReg())
    for (const char *d : {"x", "y", "z"})
      for (int o = 1; o <= 2; ++o)
        if (movOf(f, s->operands[o].text, std::string("%nctaid.") + d) &&
            f.special.count(s->operands[3 - o].text) && f.special.at(s->operands[3 - o].text) == std::string("%ntid.") + d)
          dim = d;
  if (dim.empty()) {
    why = "a loop whose step " + std::string(stride.text) + " is not blockDim * gridDim";
    return std::nullopt;
  }
  // v: the index (mad of %ctaid.d, %ntid.d, %tid.d) and the latch's add,
  // or a mov of the index (an inner loop starting again) and the add.
  auto dv = f.defs.find(v);
  if (dv == f.defs.end() || dv->second.size() != 2 || std::count(dv->second.begin(), dv->second.end(), at) != 1) {
    why = "a loop whose index " + std::string(v) + " is written elsewhere";
    return std::nullopt;
  }
  const uint32_t startAt = dv->second[0] == at ? dv->second[1] : dv->second[0];
  const ir::Instruction *start = ins[startAt];
  std::string_view index = v;  // the register holding the index: v, or what the mov copies
  if (start->base() == "mov" && start->guard.empty() && start->operands.size() == 2 && start->operands[1].isReg()) {
    index = start->operands[1].text;
    start = onlyDef(f, index);
  }
  auto isIndex = [&](const ir::Instruction *m) {
    if (!m || !m->guard.empty() || !(m->opcode == "mad.lo.s32" || m->opcode == "mad.lo.u32") || m->operands.size() != 4)
      return false;
    const auto &o = m->operands;
    auto sp = [&](const Operand &op, const std::string &name) {
      return op.isReg() && f.special.count(op.text) && f.special.at(op.text) == name;
    };
    const std::string c = "%ctaid." + dim, n = "%ntid." + dim, t = "%tid." + dim;
    return ((sp(o[1], c) && sp(o[2], n)) || (sp(o[1], n) && sp(o[2], c))) && sp(o[3], t);
  };
  if (!isIndex(start) || L.contains(f.cfg.blockOf(startAt))) {
    why = "a loop whose index " + std::string(v) + " does not start at blockIdx." + dim + " * blockDim." + dim +
          " + threadIdx." + dim;
    return std::nullopt;
  }
  // A grid-stride loop: from here on, why it is not taken is news.
  recognized = true;
  // No other value carried around the loop; B not written in it.
  for (const auto &[r, ds] : f.defs) {
    bool in = false, out = false;
    for (uint32_t d : ds) (L.contains(f.cfg.blockOf(d)) ? in : out) = true;
    if (r == cb.text && in) {
      why = "a loop whose bound " + std::string(r) + " changes in it";
      return std::nullopt;
    }
    if (in && out && r != v) {
      why = "a loop that carries " + std::string(r) + " from one iteration to the next";
      return std::nullopt;
    }
  }
  // The guard before the loop: setp.ge start, B (or setp.le B, start) and
  // a branch past the latch.
  uint32_t exitBlock = UINT32_MAX;
  for (uint32_t sb : latch.succs)
    if (sb != L.header) exitBlock = sb;
  bool guarded = false, guardReadsV = false;
  for (uint32_t i = 0; i < ins.size() && !guarded && exitBlock != UINT32_MAX; ++i) {
    const ir::Instruction &g = *ins[i];
    if (g.base() != "bra" || g.guard.empty() || g.guardNegated || g.operands.size() != 1 || !g.operands[0].isSym() ||
        L.contains(f.cfg.blockOf(i)) || !dom.dominates(f.cfg.blockOf(i), L.header))
      continue;
    const auto &labels = blocks[exitBlock].labels;
    if (std::find(labels.begin(), labels.end(), g.operands[0].text) == labels.end() || i == 0) continue;
    const ir::Instruction &c = *ins[i - 1];
    if (c.guard.empty() && c.operands.size() == 3 && isReg(c.operands[0], g.guard)) {
      const bool ge = c.opcode == "setp.ge" + type, le = c.opcode == "setp.le" + type;
      const Operand &a = c.operands[ge ? 1 : 2], &b = c.operands[ge ? 2 : 1];
      guarded = (ge || le) && (isReg(a, v) || isReg(a, index)) && isReg(b, cb.text);
      guardReadsV = guarded && isReg(a, v);
    }
  }
  if (!guarded) {
    why = "a loop not guarded by " + std::string(v) + " < " + std::string(cb.text) + " before its first iteration";
    return std::nullopt;
  }
  Unlooped u;
  u.cond.dim = uint32_t(dim[0] - 'x');
  u.cond.params = boundParams(k, f, cb.text);
  if (u.cond.params.empty()) {
    why = "a loop whose bound " + std::string(cb.text) + " is not a parameter or a product of two";
    return std::nullopt;
  }
  // What the loop leaves behind must not be read after it: i past the
  // last iteration, the latch's predicate (false there).
  int outside = 0;
  for (uint32_t i = 0; i < ins.size(); ++i)
    if (!L.contains(f.cfg.blockOf(i)))
      for (auto r : analysis::defUse(*ins[i]).uses) outside += r == v;
  if (outside > (guardReadsV ? 1 : 0) || f.uses.at(cmp.operands[0].text) != 1) {
    why = "a loop whose index or condition is read after it";
    return std::nullopt;
  }
  u.drop = {at, at + 1, at + 2};
  // The step and its %nctaid.d mov, where the latch was their only reader.
  if (f.uses.at(stride.text) == 1) {
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
                                           std::string &why) {
  why.clear();
  const auto &loops = fa.loops().loops();
  if (loops.empty() || !k.body) return std::nullopt;
  const KernelFacts f = readFacts(fa);
  // Only kernels reading %nctaid (a grid stride) are asked about.
  if (std::none_of(f.special.begin(), f.special.end(), [](const auto &s) { return s.second.starts_with("%nctaid."); }))
    return std::nullopt;
  GridStride g;
  std::vector<uint32_t> drop;
  for (const auto &L : loops) {
    bool recognized = false;
    auto u = gridStrideLoop(k, f, L, fa.dom(), why, recognized);
    if (!u) {
      if (!recognized) why.clear();  // a loop of another kind: not a grid-stride kernel
      return std::nullopt;
    }
    if (std::any_of(g.conds.begin(), g.conds.end(), [&](const auto &c) { return c.dim == u->cond.dim; })) {
      why = "two grid-stride loops along one grid dimension";
      return std::nullopt;
    }
    g.conds.push_back(u->cond);
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
  return g;
}

}  // namespace ptxopt::transforms::transpose
