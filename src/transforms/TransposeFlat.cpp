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
// (b, 1, 1), grid.y = grid.z = 1, w >= 32 and 32 rows of w (threads >= 32 *
// w) or, two splits, w2 >= 32, fewer than 2^31 threads, the tiled and the
// stored array disjoint, 2^20 threads or more. (The loop clone of a
// grid-stride loop whose threads loop, runFlat: T is the loop's bound, read
// by the clone, the grid as many threads as the original's in blocks of
// 256, the conditions on the bound: makeFlatLoopVariant.)
// Two splits (a flat permute: i % HW, (i / HW) % C, i / (HW*C)): the 2-D
// form is batched, B = %ctaid.z, Q = B * w2 + M; the tiles per image.
// The digits form (findDigits, digitsAs2D): three radices (NCHW <-> NHWC
// with H and W apart, or a chain of quotients), or two where one is a
// product of parameters (the plane kept whole: i % (H*W)); i = ((d3*W2 +
// d2)*W1 + d1)*W0 + d0, every div / rem of i or of a quotient a copy of a
// quotient or of digits; d0 on R, the digit under the other side's unit
// stride on M (runFlat tries d2, then d1), with three radices the other
// two on %ctaid.z and %nctaid.z (renamed by the clone to the batch's
// digits), with two the top one on %ctaid.z; conditions W0, Wp >= 32 (a
// product's factors >= 6 or 4), W_lo >= 1. The clone runs the original's
// code on the flat indices where the radices' product is 2^31 or more (the
// original's 32-bit products wrap; two splits too).
// Fewer than 32 rows of logical threads (T / w; the runtime does not
// launch the clone there): the clone runs the original's code on 1024 flat
// indices a block (flatPlain).
// A remainder divided again ((i % (C*HW)) / HW), or written by hand and
// divided again (`rem = i - n*(C*HW)`, n = i / (C*HW), then `rem / HW`:
// layout code that splits the outer index first; withManualRems), is a
// value of known digits, (i / lo) % (hi / lo): dividing it by Q gives the
// digits from lo*Q to hi, its remainder the digits from lo to lo*Q.
// The 2-D kernel itself is written by flatAs2D (TransposeFlatAs2D.cpp).
// Refuses (remark "a 1-D launch indexing with / and %: ..."): four
// radices, a divisor that is not a parameter or a product of them (one
// radix a product: `i % (W*2)`, `i % (H*W)` alone), and
// whatever the 2-D kernel's checks refuse; the form itself not found is no
// remark (the kernel is not flat).
#include <algorithm>
#include <functional>
#include <iterator>
#include <set>
#include <tuple>

#include "Pass.h"
#include "Transpose.h"

namespace ptxopt::transforms::transpose {

using ir::Operand;
using namespace clone;

uint32_t factorFloor(const Radix &r, uint32_t most) {
  if (most == 1 || r.params.size() == 1) return most;
  return r.params.size() == 2 ? 6 : 4;  // 6 * 6 and 4 * 4 * 4: at least 32
}

std::string Radix::text() const {
  std::string t;
  for (const auto &n : names) t += (t.empty() ? "" : "*") + n;
  return t;
}

namespace {

bool isDivRem(const ir::Instruction &in) {
  auto b = in.base();
  return (b == "div" || b == "rem") && (in.opcode.ends_with(".s32") || in.opcode.ends_with(".u32") ||
                                        in.opcode.ends_with(".s64") || in.opcode.ends_with(".u64"));
}

/// The flat index: %ctaid.x, %ntid.x and %tid.x each read once (a mov),
/// into the one `mad.lo i` of the three, and no other special register
/// read; sets f.mad and f.index and counts each register's writes in
/// `defs`. False when the kernel does not have that form.
bool flatIndex(const ir::Function &k, analysis::FunctionAnalyses &fa, FlatForm &f,
               std::map<std::string_view, int> &defs, std::string *why = nullptr) {
  RegTypes types;
  ir::forEachStmt(*k.body, [&](const ir::Stmt &s) {
    if (s.kind == ir::Stmt::Kind::Decl) types.add(static_cast<const ir::Decl &>(s));
  });
  const auto &ins = fa.cfg().instructions();
  std::map<std::string_view, std::string_view> regOf;  // special register -> the register its mov writes
  std::map<std::string_view, int> uses;
  for (uint32_t i = 0; i < ins.size(); ++i) {
    const ir::Instruction &in = *ins[i];
    auto du = analysis::defUse(in);
    for (auto d : du.defs) ++defs[d];
    for (auto u : du.uses) {
      if (!types.type(u).empty()) {
        ++uses[u];
        continue;
      }
      if (u != "%tid.x" && u != "%ntid.x" && u != "%ctaid.x") return false;  // another index: not flat
      auto mv = specialMov(in);
      if (!mv || regOf.count(u)) return false;
      regOf[u] = mv->first;
    }
  }
  if (regOf.size() != 3) return false;
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
  if (!mad) {  // 64-bit: mul.wide.u32 A, %ctaid.x, %ntid.x; cvt.u64.u32 B, %tid.x; add.s64 i, A, B
    std::map<std::string_view, uint32_t> defAt;
    for (uint32_t i = 0; i < ins.size(); ++i)
      for (auto d : analysis::defUse(*ins[i]).defs) defAt[d] = i;
    auto defOf = [&](const Operand &o) -> const ir::Instruction * {
      auto it = o.isReg() ? defAt.find(o.text) : defAt.end();
      return it == defAt.end() || defs[o.text] != 1 || uses[o.text] != 1 ? nullptr : ins[it->second];
    };
    auto isWideMul = [&](const ir::Instruction *in) {
      if (!in || in->opcode != "mul.wide.u32" || !in->guard.empty() || in->operands.size() != 3) return false;
      const auto &o = in->operands;
      auto is = [&](const Operand &op, const char *sreg) { return op.isReg() && op.text == regOf[sreg]; };
      return (is(o[1], "%ctaid.x") && is(o[2], "%ntid.x")) || (is(o[1], "%ntid.x") && is(o[2], "%ctaid.x"));
    };
    auto isTid = [&](const ir::Instruction *in) {
      return in && in->opcode == "cvt.u64.u32" && in->guard.empty() && in->operands.size() == 2 &&
             in->operands[1].isReg() && in->operands[1].text == regOf["%tid.x"];
    };
    for (uint32_t i = 0; i < ins.size() && !mad; ++i) {
      const ir::Instruction &in = *ins[i];
      if ((in.opcode != "add.s64" && in.opcode != "add.u64") || !in.guard.empty() || in.operands.size() != 3 ||
          !in.operands[0].isReg())
        continue;
      const ir::Instruction *x = defOf(in.operands[1]), *y = defOf(in.operands[2]);
      if ((isWideMul(x) && isTid(y)) || (isWideMul(y) && isTid(x))) {
        mad = &in;
        f.mad = i;
        f.wide = true;
        f.index = std::string(in.operands[0].text);
        f.sreg[0] = std::string(regOf["%ctaid.x"]), f.sreg[1] = std::string(regOf["%ntid.x"]);
        f.sreg[2] = std::string(regOf["%tid.x"]);
      }
    }
  }
  if (!mad) return false;
  // The three index registers feed the mad (wide: the mul.wide and the cvt)
  // alone; i is written once. Where i is divided (the form), a refusal
  // says why (an index register read elsewhere: the tiled clone's threads
  // take other elements than the kernel's).
  for (const char *s : {"%tid.x", "%ntid.x", "%ctaid.x"})
    if (defs[regOf[s]] != 1 || uses[regOf[s]] != 1) {
      for (const ir::Instruction *in : ins)
        if (why && isDivRem(*in) && in->operands.size() == 3 && in->operands[1].isReg() &&
            in->operands[1].text == f.index) {
          *why = std::string(s) + " is read outside the flat index " + f.index +
                 " = %ctaid.x * %ntid.x + %tid.x (the tiled clone's threads take other elements than the kernel's)";
          break;
        }
      return false;
    }
  if (defs[f.index] != 1) return false;
  // A 32-bit index read once, by a widening cvt (`int64_t i = blockIdx.x *
  // blockDim.x + threadIdx.x`, the product unsigned 32-bit): the cvt's
  // register is the index, 64 bits wide.
  if (!f.wide && uses[f.index] == 1)
    for (uint32_t i = f.mad + 1; i < ins.size(); ++i) {
      const ir::Instruction &in = *ins[i];
      if ((in.opcode == "cvt.u64.u32" || in.opcode == "cvt.s64.s32") && in.guard.empty() && in.operands.size() == 2 &&
          in.operands[1].isReg() && in.operands[1].text == f.index && in.operands[0].isReg() &&
          defs[in.operands[0].text] == 1) {
        f.mad = i;
        f.index = std::string(in.operands[0].text);
        f.wide = true;
        break;
      }
    }
  return true;
}

/// An unguarded `div` or `rem` of registers (by CFG index).
struct DivRem {
  uint32_t at;
  bool div;
  std::string dst, src, by;
  bool manual = false;  // a remainder written by hand: `sub r, x, t` with t = P * (x / P)
};

/// `all` with each remainder written by hand that is divided again added in
/// program order: `sub r, x, t` (r written once, the dividend of a division
/// of `all`) with t = `mul.lo` of P and q, q = x / P a division of `all`
/// (rem = i - n * (C*HW), n = i / (C*HW), then rem / HW: layout code that
/// splits the outer index first), as a remainder of x by P. (One not
/// divided again stays as it is: the affine analysis reads it.)
std::vector<DivRem> withManualRems(const std::vector<const ir::Instruction *> &ins, const std::vector<DivRem> &all,
                                   const std::function<bool(const std::string &)> &once) {
  std::map<std::string, const DivRem *> divs;  // quotient register -> its division
  std::set<std::string> dividends;
  for (const DivRem &d : all) {
    if (d.div && once(d.dst)) divs[d.dst] = &d;
    dividends.insert(d.src);
  }
  std::map<std::string, uint32_t> mulAt;  // a register written once by mul.lo -> its instruction
  std::vector<DivRem> out;
  for (uint32_t i = 0; i < ins.size(); ++i) {
    const ir::Instruction &in = *ins[i];
    if (!in.guard.empty() || in.operands.size() != 3 || !in.operands[0].isReg()) continue;
    const std::string dst(in.operands[0].text);
    if (in.base() == "mul" && in.opcode.find(".lo") != std::string_view::npos && once(dst)) mulAt[dst] = i;
    if (in.base() != "sub" || !once(dst) || !dividends.count(dst) || !in.operands[1].isReg() || !in.operands[2].isReg())
      continue;
    auto t = mulAt.find(std::string(in.operands[2].text));
    if (t == mulAt.end()) continue;
    const ir::Instruction &mul = *ins[t->second];
    if (!mul.operands[1].isReg() || !mul.operands[2].isReg()) continue;
    for (int side = 1; side <= 2; ++side) {
      auto q = divs.find(std::string(mul.operands[size_t(side)].text));
      if (q == divs.end() || q->second->src != in.operands[1].text) continue;
      const DivRem &d = *q->second;
      const std::string p(mul.operands[size_t(3 - side)].text);
      if (p != d.by) continue;  // P itself (a register: the product's, or the parameter's)
      out.push_back({i, false, dst, d.src, d.by, true});
      break;
    }
  }
  out.insert(out.end(), all.begin(), all.end());
  std::sort(out.begin(), out.end(), [](const DivRem &a, const DivRem &b) { return a.at < b.at; });
  return out;
}

using ParamOf = std::function<int(const std::string &, std::string &)>;

/// A divisor's key: a register, or "#<value>" for an immediate (a
/// compile-time size, TransposeConstDiv.cpp): that value, else 0.
uint64_t constantOf(const std::string &key) { return key.starts_with('#') ? std::stoull(key.substr(1)) : 0; }
using Radices = std::vector<std::string>;  // a product of radix registers, sorted (a multiset)

/// A 64-bit index's radices (FlatForm::wide): a 4-byte parameter's
/// register widened by a cvt (`cvt.s64.s32 %rd2, %r2`) or by the mul.wide
/// of a product (`mul.wide.s32 %rd14, %r2, %r1`) stands for its parameter
/// as the 32-bit register (canon), the widening kept (widen).
struct Wide {
  bool on = false;
  std::map<std::string, std::string> canonOf;  // the cvt's register -> the 4-byte one
  std::map<std::string, std::string> widen;    // the 4-byte register -> the cvt widening it
  std::string canon(const std::string &reg) const {
    auto it = canonOf.find(reg);
    return it == canonOf.end() ? reg : it->second;
  }
};

/// The radices whose product register `reg` is (a parameter loaded before
/// the index, or mul.lo of two such products; wide: mul.lo.s64 of them or
/// mul.wide of two 4-byte parameters), into `out`; false if not.
bool productOf(const std::vector<const ir::Instruction *> &ins, const std::map<std::string_view, int> &defs,
               const ParamOf &paramOf, Wide &wide, const std::string &reg, Radices &out, int depth = 0) {
  if (depth == 0 && reg.starts_with('#')) {  // a constant divisor (TransposeConstDiv.cpp)
    out.push_back(reg);
    return true;
  }
  auto d = defs.find(reg);
  if (depth > 3 || d == defs.end() || d->second != 1) return false;
  std::string name;
  if (const std::string c = wide.canon(reg); paramOf(c, name) >= 0) {
    out.push_back(c);
    return true;
  }
  for (const ir::Instruction *in : ins) {
    if (in->operands.size() != 3 || !in->operands[0].isReg() || in->operands[0].text != reg) continue;
    if (!in->guard.empty() || !in->operands[1].isReg() || !in->operands[2].isReg()) return false;
    const std::string x(in->operands[1].text), y(in->operands[2].text);
    if (wide.on && (in->opcode == "mul.wide.s32" || in->opcode == "mul.wide.u32")) {
      if (paramOf(x, name) < 0 || paramOf(y, name) < 0) return false;
      const std::string cvt = in->opcode == "mul.wide.s32" ? "cvt.s64.s32" : "cvt.u64.u32";
      wide.widen.emplace(x, cvt);
      wide.widen.emplace(y, cvt);
      out.push_back(x);
      out.push_back(y);
      return true;
    }
    const bool mul = wide.on ? in->opcode == "mul.lo.s64" || in->opcode == "mul.lo.u64"
                             : in->opcode == "mul.lo.s32" || in->opcode == "mul.lo.u32";
    return mul && productOf(ins, defs, paramOf, wide, x, out, depth + 1) &&
           productOf(ins, defs, paramOf, wide, y, out, depth + 1);
  }
  return false;
}

/// A product of radices: parameters' registers (sorted, a multiset) times
/// a constant (the compile-time radices, TransposeConstDiv.cpp), ordered
/// so that a prefix comes before every product that includes it.
struct Prefix {
  Radices regs;
  uint64_t c = 1;  // 0: past 2^63 (no radix the clone takes)
  bool empty() const { return regs.empty() && c == 1; }
  Prefix times(const Radices &by) const {
    Prefix p = *this;
    for (const std::string &r : by) {
      const uint64_t v = constantOf(r);
      if (!v) {
        p.regs.push_back(r);
        continue;
      }
      p.c = v && p.c <= (uint64_t(1) << 62) / v ? p.c * v : 0;
    }
    std::sort(p.regs.begin(), p.regs.end());
    return p;
  }
  bool operator<(const Prefix &o) const {
    const size_t n = regs.size(), on = o.regs.size();
    return std::tie(n, c, regs) < std::tie(on, o.c, o.regs);
  }
};

/// The digits form (FlatForm::digitOf): every division or remainder of i,
/// or of a quotient of it (i / P, a register written once), by a product of
/// parameters; the products divided out before and after each must be the
/// prefixes W0, W0*W1, ... of one order of radices, each radix a parameter
/// or a product of them. 1: found (f's radices and digitOf set; partner 2
/// with three radices, 1 with two); 0: not this form (at most two radices,
/// each one parameter: the one- and two-split code decides; one radix; no
/// such order); -1: refused, `why` set.
int findDigits(const std::vector<const ir::Instruction *> &ins, const std::vector<DivRem> &all,
               const std::map<std::string_view, int> &defs, const ParamOf &paramOf, Wide &wide,
               const std::function<Radix(const Radices &)> &radixOf, FlatForm &f, std::string &why) {
  std::map<std::string, Prefix> quot{{f.index, {}}};  // register -> the radices i was divided by
  // register -> its digits: (i / lo) % (hi / lo), a remainder of i or of a
  // quotient (`rem = i % (C*HW)`, or written by hand: `i - n*(C*HW)`)
  std::map<std::string, std::pair<Prefix, Prefix>> rems;
  struct Step {
    uint32_t at;
    bool div;
    Prefix before, after;
  };
  std::vector<Step> steps;
  bool extended = false;  // a remainder divided again or written by hand: not the two-split code's form
  auto once = [&](const std::string &r) {
    auto w = defs.find(r);
    return w != defs.end() && w->second == 1;
  };
  for (const DivRem &d : withManualRems(ins, all, once)) {
    Radices by;
    if (auto r = rems.find(d.src); r != rems.end()) {
      // (i / lo) % (hi / lo), divided by Q: the digits from lo*Q to hi; its
      // remainder by Q: the digits from lo to lo*Q (a remainder step each).
      if (!productOf(ins, defs, paramOf, wide, d.by, by)) return 0;
      const auto [lo, hi] = r->second;
      const Prefix mid = lo.times(by);
      if (!mid.c) return 0;
      const Prefix from = d.div ? mid : lo, to = d.div ? hi : mid;
      steps.push_back({d.at, false, from, to});
      if (once(d.dst)) rems[d.dst] = {from, to};
      extended = true;
      continue;
    }
    auto q = quot.find(d.src);
    if (q == quot.end()) continue;
    if (!productOf(ins, defs, paramOf, wide, d.by, by)) return 0;
    const Prefix after = q->second.times(by);
    if (!after.c) return 0;
    steps.push_back({d.at, d.div, q->second, after});
    extended |= d.manual && by.size() > 1;  // nvcc writes `i % w` so too: the split code takes that
    if (d.div && once(d.dst)) quot[d.dst] = after;
    if (!d.div && once(d.dst)) rems[d.dst] = {q->second, after};
  }
  // The prefixes, least first, each one including the one before.
  std::set<Prefix> prefix;
  for (const Step &s : steps)
    for (const Prefix *r : {&s.before, &s.after})
      if (!r->empty()) prefix.insert(*r);
  std::vector<Radix> radices;
  std::map<Prefix, int> level{{Prefix{}, 0}};  // prefix -> the number of radices under it
  Prefix lo;
  for (const Prefix &hi : prefix) {
    if (!std::includes(hi.regs.begin(), hi.regs.end(), lo.regs.begin(), lo.regs.end()) || hi.c % lo.c != 0) return 0;
    Radices rest;
    std::set_difference(hi.regs.begin(), hi.regs.end(), lo.regs.begin(), lo.regs.end(), std::back_inserter(rest));
    if (hi.c != lo.c && !rest.empty()) {
      why = "a radix multiplies parameters by the constant " + std::to_string(hi.c / lo.c) + " (not handled)";
      return -1;
    }
    if (hi.c != lo.c) rest = {"#" + std::to_string(hi.c / lo.c)};
    radices.push_back(radixOf(rest));
    level[hi] = int(radices.size());
    lo = hi;
  }
  const bool product = std::any_of(radices.begin(), radices.end(), [](const Radix &r) { return r.regs.size() > 1; });
  if (radices.size() > 3) {
    why = "the flat index is split by " + std::to_string(radices.size()) + " radices (up to three are handled)";
    return -1;
  }
  if (radices.size() < 2 || (radices.size() == 2 && !product && !extended)) return 0;
  for (const Step &s : steps)  // a remainder's digits run upwards ((i % 6) / 4: not digits)
    if (!s.div && level.at(s.before) >= level.at(s.after)) return 0;
  for (size_t n = 0; n < radices.size(); ++n) f.radix[n] = radices[n];
  f.radices = int(radices.size());
  for (const Step &s : steps) {
    const int before = level.at(s.before), after = level.at(s.after);
    f.digitOf[s.at] = s.div ? std::make_pair(after, -1) : std::make_pair(before, after);
  }
  f.w = f.radix[0];
  f.setPartner(f.radices == 3 ? 2 : 1);
  return 1;
}

}  // namespace

std::string flatIndexOf(const ir::Function &k, analysis::FunctionAnalyses &fa) {
  FlatForm f;
  std::map<std::string_view, int> defs;
  return k.params && k.body && flatIndex(k, fa, f, defs) ? f.index : "";
}

namespace {

/// findFlatForm's state and steps: the kernel's flat index (f), its
/// parameters' registers (widened ones recorded in `wide`), the divisions.
struct FlatScan {
  const ir::Function &k;
  analysis::FunctionAnalyses &fa;
  FlatForm &f;
  std::map<std::string_view, int> &defs;
  const std::vector<const ir::Instruction *> &ins;
  Wide wide;
  std::map<std::string, unsigned> bytesOf;  // a parameter's register -> the parameter's bytes

  /// A register loaded once from a parameter before the mad, in its block
  /// (4 bytes; wide: 4 or 8): the parameter's index and name, or -1.
  int paramOf(const std::string &reg, std::string &name) {
    auto d = defs.find(reg);
    if (d == defs.end() || d->second != 1) return -1;
    for (uint32_t i = 0; i < f.mad; ++i) {
      const ir::Instruction &in = *ins[i];
      auto mem = analysis::memAccess(in);
      if (!mem || mem->space != ".param" || mem->kind != analysis::MemAccess::Kind::Load || in.operands.size() != 2 ||
          !in.operands[0].isReg() || in.operands[0].text != reg || !in.guard.empty() ||
          (mem->bytes() != 4 && !(f.wide && mem->bytes() == 8)))
        continue;
      const Operand &a = in.operands[1];
      if (a.kind != Operand::Kind::Address || a.elems.size() != 1 || !a.elems[0].isSym()) return -1;
      if (fa.cfg().blockOf(i) != fa.cfg().blockOf(f.mad)) return -1;
      name = std::string(a.elems[0].text);
      bytesOf[reg] = mem->bytes();
      return paramIndex(k, a.elems[0].text);
    }
    return -1;
  }
  ParamOf paramFn() {
    return [this](const std::string &reg, std::string &name) { return paramOf(reg, name); };
  }

  /// Wide indices: 4-byte parameters widened by a cvt (the widening recorded).
  void widenParams() {
    wide.on = f.wide;
    if (!f.wide) return;
    for (const ir::Instruction *in : ins) {
      const std::string op(in->opcode);
      if ((op == "cvt.s64.s32" || op == "cvt.u64.u32") && in->guard.empty() && in->operands.size() == 2 &&
          in->operands[0].isReg() && in->operands[1].isReg() && defs[in->operands[0].text] == 1) {
        std::string name, src(in->operands[1].text);
        if (paramOf(src, name) < 0 || bytesOf[src] != 4) continue;
        wide.canonOf[std::string(in->operands[0].text)] = src;
        wide.widen.emplace(src, op);
      }
    }
  }

  /// A radix of the given factors' registers (each a parameter's, canonical).
  Radix radixOf(const Radices &regs) {
    Radix r;
    if (regs.size() == 1 && constantOf(regs[0])) {  // a constant (one factor: findDigits folds them)
      r.constant = constantOf(regs[0]);
      r.regs = regs;
      r.names = {regs[0].substr(1)};
      r.params = {-1};
      r.bytes = {f.wide ? 8u : 4u};
      r.ext = {""};
      return r;
    }
    for (const std::string &reg : regs) {
      r.regs.push_back(reg);
      r.names.emplace_back();
      r.params.push_back(paramOf(reg, r.names.back()));
      r.bytes.push_back(bytesOf[reg]);
      auto w = wide.widen.find(reg);
      r.ext.push_back(!f.wide || bytesOf[reg] == 8 ? "" : w != wide.widen.end() ? w->second : "cvt.s64.s32");
    }
    return r;
  }

  /// The divisions and remainders of i, and of its quotient (the divisor a
  /// widened parameter's register: that parameter's, wide.canon; an
  /// immediate, a compile-time size as foldConstDivisions writes nvcc's
  /// shifts and multiplications, "#<value>"). False: i is divided under a
  /// guard or by something else (`why`).
  bool divRems(std::vector<DivRem> &all, std::string &why) {
    auto divisor = [&](const Operand &o) -> std::string {
      if (o.isReg()) return wide.canon(std::string(o.text));
      auto v = o.intValue();
      return v && *v >= 2 && *v <= 0x7fffffff ? "#" + std::to_string(*v) : "";  // the clone's radices are under 2^31
    };
    for (uint32_t i = 0; i < ins.size(); ++i) {
      const ir::Instruction &in = *ins[i];
      if (!isDivRem(in) || in.operands.size() != 3 || !in.operands[1].isReg()) continue;
      const std::string by = divisor(in.operands[2]);
      if (in.operands[1].text == f.index && (!in.guard.empty() || !in.operands[0].isReg() || by.empty())) {
        why = "the flat index is divided under a guard or by " + std::string(in.operands[2].text) + " (" +
              std::string(in.opcode) + ")";
        return false;
      }
      if (in.guard.empty() && in.operands[0].isReg() && !by.empty())
        all.push_back({i, in.base() == "div", std::string(in.operands[0].text), std::string(in.operands[1].text), by});
    }
    return true;
  }

  /// The one- and two-split forms: i / w and i % w (w a parameter or a
  /// constant), with i / (w * w2) or (i / w) / w2 and (i / w) % w2 (the
  /// batch and the middle index of a permute). False: not this form, `why`
  /// set where it is refused.
  bool splits(const std::vector<DivRem> &all, std::string &why) {
    std::set<std::string> byI;
    for (const auto &d : all)
      if (d.src == f.index) byI.insert(d.by);
    if (byI.empty()) return false;  // no division of the flat index: not the flat form
    std::string width, widthName, width2, width2Name;  // w and w2: their registers and parameters
    int widthParam = -1, width2Param = -1;
    // w: a parameter; with a second divisor of i, that one is w * w2 (the
    // batch of a permute, `i / (HW * C)`), w2 a parameter too.
    std::string prod;
    for (const auto &w : byI)
      if (width.empty() && (widthParam = paramOf(w, widthName)) >= 0) width = w;
    if (width.empty())  // constants: the least (i / w, i / (w * w2))
      for (const auto &w : byI)
        if (constantOf(w) && (width.empty() || constantOf(w) < constantOf(width))) width = w;
    if (width.empty()) {
      why = "the divisor " + *byI.begin() + " is not a kernel parameter loaded before the index (a product of parameters, H*W, is not handled)";
      return false;
    }
    if (byI.size() > 2) {
      why = "the flat index is divided by " + std::to_string(byI.size()) + " values (i / w, i % w and i / (w * w2) are handled)";
      return false;
    }
    if (byI.size() == 2) {
      prod = *byI.begin() == width ? *std::next(byI.begin()) : *byI.begin();
      // prod = w * w2 (mul.lo, either order; wide: mul.lo.s64 or mul.wide), written once.
      Radices factors;
      if (constantOf(width) && constantOf(prod)) {
        if (constantOf(prod) % constantOf(width) == 0 && constantOf(prod) / constantOf(width) >= 2)
          width2 = "#" + std::to_string(constantOf(prod) / constantOf(width));
      } else if (productOf(ins, defs, paramFn(), wide, prod, factors) && factors.size() == 2) {
        if (factors[0] == width) width2 = factors[1];
        else if (factors[1] == width) width2 = factors[0];
      }
      if (width2.empty() || (!constantOf(width2) && (width2Param = paramOf(width2, width2Name)) < 0)) {
        why = "the flat index is divided by " + width + " and by " + prod +
              ", which is not " + width + " times another parameter";
        return false;
      }
    }
    std::set<std::string> quotients;  // i / w
    for (const auto &d : all)  // written once: a register also written elsewhere is not i / w there
      if (d.src == f.index && d.by == width && d.div && defs.count(d.dst) && defs.at(d.dst) == 1) quotients.insert(d.dst);
    for (const auto &d : all) {
      if (d.src == f.index) {
        if (d.by == width) (d.div ? f.divs : f.rems).push_back(d.at);
        else if (d.div) f.toBatch.push_back(d.at);
        else {
          why = "the flat index's remainder by " + prod + " (not handled)";
          return false;
        }
      } else if (quotients.count(d.src)) {
        // (i / w) / w2 and (i / w) % w2: the batch and the middle index.
        if (width2.empty() && (constantOf(d.by) || (width2Param = paramOf(d.by, width2Name)) >= 0)) width2 = d.by;
        if (d.by != width2) {
          why = "the quotient " + d.src + " is divided by " + d.by + " (a parameter w2 is handled)";
          return false;
        }
        (d.div ? f.toBatch : f.toMiddle).push_back(d.at);
      }
    }
    if (widthParam < 0 && !constantOf(width)) return false;
    f.w = radixOf({width});
    if (!width2.empty()) f.w2 = radixOf({width2});
    return true;
  }
};

}  // namespace

std::optional<FlatForm> findFlatForm(const ir::Function &k, analysis::FunctionAnalyses &fa, std::string &why) {
  why.clear();
  if (!k.params || !k.body) return std::nullopt;
  FlatForm f;
  std::map<std::string_view, int> defs;
  if (!flatIndex(k, fa, f, defs, &why)) return std::nullopt;
  FlatScan scan{k, fa, f, defs, fa.cfg().instructions(), {}, {}};
  scan.widenParams();
  std::vector<DivRem> all;
  if (!scan.divRems(all, why)) return std::nullopt;
  // Three radices, or two with a product: the digits; else one or two splits.
  auto radixOf = [&](const Radices &regs) { return scan.radixOf(regs); };
  if (int digits = findDigits(scan.ins, all, defs, scan.paramFn(), scan.wide, radixOf, f, why); digits != 0)
    return digits > 0 ? std::optional<FlatForm>(std::move(f)) : std::nullopt;
  if (!scan.splits(all, why)) return std::nullopt;
  return f;
}

}  // namespace ptxopt::transforms::transpose
