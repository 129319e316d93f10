// transpose, a 64-bit flat index: nvcc's fast path of a 64-bit division.
//
// What: `size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x` (or
// int64_t) split with `/` and `%` by 64-bit values (size_t or int64_t
// parameters, or int ones widened) is the flat form of TransposeFlat.cpp in
// 64 bits. nvcc divides 64-bit values through a fast path: where both
// operands fit in 32 bits (`(a | b) & 0xffffffff00000000 == 0`) a 32-bit
// div.u32 / rem.u32 on their low halves, widened back, else the 64-bit
// div / rem; each quotient and remainder is then a register written on
// two paths, which the affine analysis cannot follow ("differs by path").
// Why it pays: the same as the flat form's tiles (the layout code of
// libraries that index with int64_t is the same naive permute).
// Algorithm: foldDivFastPaths copies the kernel (not emitted) with each
// such diamond folded into its 64-bit path: the conditional branch, the
// fast block and the test's or / and / setp removed, and the slow block's
// remainder `a - (a / b) * b` written `rem a, b` (the same value; the flat
// form then reads it as a remainder of the index: a copy of R). The fast block's
// results equal the slow one's wherever it runs (both operands below 2^32,
// unsigned or non-negative: the 32-bit quotient, remainder and a - (a/b)*b
// are exact), so the copy computes what the kernel computes for every
// input but a zero divisor (unspecified in both; the clones' conditions
// ask every radix to be 32 or more). Each diamond is checked before it is
// folded: the test's operands are the division's, the fast block only
// narrows them, divides, multiplies, subtracts and widens, the slow block
// only divides, multiplies and subtracts them, each result the fast block
// leaves is one of a / b, a % b and a - (a / b) * b, written by the slow
// block as the same, and no other register either block writes is read
// outside it. The flat form is then found on the copy (findFlatForm, its
// 64-bit index `mul.wide.u32` + `cvt.u64.u32` + `add.s64`), the 2-D kernel
// built from it and the clone's work per element copied from that; the
// clone's other path (thin tiles) runs the kernel itself.
// Refuses: nothing here; a diamond that does not check out is left, and
// its registers stay "differs by path".
#include <algorithm>
#include <map>
#include <set>

#include "Pass.h"
#include "Transpose.h"

namespace ptxopt::transforms::transpose {

using ir::Operand;

const ir::Instruction *asInstruction(const ir::Stmt &s) {
  return s.kind == ir::Stmt::Kind::Instruction ? static_cast<const ir::Instruction *>(&s) : nullptr;
}

std::string regAt(const ir::Instruction &in, size_t k) {
  return in.operands.size() > k && in.operands[k].isReg() ? std::string(in.operands[k].text) : "";
}

namespace {

bool regOp(const ir::Instruction &in, size_t k) { return in.operands.size() > k && in.operands[k].isReg(); }

/// One diamond: statement indices of the test's three instructions, the
/// branch, the two blocks' instructions [from, to) and the slow block's
/// closing `bra.uni` (npos when the slow block falls through to the join).
struct Diamond {
  size_t orAt, andAt, setpAt, braAt;
  size_t fastFrom, fastTo, slowFrom, slowTo, slowBra;
  // The slow block's `sub r, a, (a / b) * b` (nvcc's remainder): written
  // as `rem r, a, b` (the division's signedness) in the copy.
  std::vector<size_t> remAt;
  std::string a, b, rem;
};

/// Values of the blocks as expressions over the operands "a" and "b":
/// "a/b", "a%b", "a-(a/b)*b"; "" for anything else.
struct Values {
  std::string a, b;
  // A register written once by `cvt.u32.u64` of one written once, outside
  // the blocks (nvcc hoists a loop-invariant divisor's narrowing out of a
  // loop): the register it narrows.
  const std::map<std::string, std::string> *hoisted = nullptr;
  std::map<std::string, std::string> expr;  // register -> expression
  std::set<std::string> written;

  std::string of(const Operand &o, bool narrow = false) const {
    if (!o.isReg()) return "";
    const std::string r(o.text);
    if (auto it = expr.find(r); it != expr.end()) return it->second;
    if (r == a) return "a";
    if (r == b) return "b";
    if (auto h = narrow && hoisted ? hoisted->find(r) : std::map<std::string, std::string>::const_iterator{};
        narrow && hoisted && h != hoisted->end())
      return h->second == a ? "a" : h->second == b ? "b" : "";
    return "";
  }
  /// Interprets one instruction of the fast (`narrow`) or the slow block;
  /// false for an instruction the fold does not allow there.
  bool step(const ir::Instruction &in, bool narrow) {
    if (!in.guard.empty() || !regOp(in, 0)) return false;
    const std::string dst = regAt(in, 0), op(in.opcode);
    written.insert(dst);
    auto set = [&](std::string e) {
      expr[dst] = std::move(e);
      return true;
    };
    if (narrow && op == "cvt.u32.u64") {  // the low half of a or b (both below 2^32 here)
      const std::string v = of(in.operands[1]);
      return (v == "a" || v == "b") && set(v);
    }
    if (narrow && op == "cvt.u64.u32") return set(of(in.operands[1]));
    if (in.operands.size() != 3) return false;
    const std::string x = of(in.operands[1], narrow), y = of(in.operands[2], narrow);
    const bool div = narrow ? op == "div.u32" : op == "div.u64" || op == "div.s64";
    const bool rem = narrow ? op == "rem.u32" : op == "rem.u64" || op == "rem.s64";
    const bool mul = narrow ? op == "mul.lo.s32" || op == "mul.lo.u32" : op == "mul.lo.s64" || op == "mul.lo.u64";
    const bool sub = narrow ? op == "sub.s32" || op == "sub.u32" : op == "sub.s64" || op == "sub.u64";
    if ((div || rem) && x == "a" && y == "b") return set(div ? "a/b" : "a%b");
    if (mul && ((x == "a/b" && y == "b") || (x == "b" && y == "a/b"))) return set("(a/b)*b");
    if (sub && x == "a" && y == "(a/b)*b") return set("a-(a/b)*b");
    return false;
  }
};

/// The diamond whose branch is statement `at`, checked (file comment), or
/// nullopt.
std::optional<Diamond> diamondAt(const std::vector<std::unique_ptr<ir::Stmt>> &b, size_t at,
                                 const std::map<std::string, int> &uses,
                                 const std::map<std::string, std::string> &hoisted,
                                 const std::set<std::string> &zext) {
  const ir::Instruction *bra = asInstruction(*b[at]);
  if (!bra || bra->base() != "bra" || bra->guard.empty() || bra->operands.size() != 1) return std::nullopt;
  // The test: or.b64 t, a, b; and.b64 u, t, -4294967296; setp.{eq,ne}.s64 p, u, 0
  // (the three right before the branch), or without the or where one of
  // the two is known to fit 32 bits (a cvt.u64.u32: the test is the other's).
  if (at < 2) return std::nullopt;
  const ir::Instruction *setp = asInstruction(*b[at - 1]), *andI = asInstruction(*b[at - 2]);
  if (!setp || !andI || !setp->guard.empty() || !andI->guard.empty()) return std::nullopt;
  const bool eq = setp->opcode == "setp.eq.s64" || setp->opcode == "setp.eq.u64" || setp->opcode == "setp.eq.b64";
  const bool ne = setp->opcode == "setp.ne.s64" || setp->opcode == "setp.ne.u64" || setp->opcode == "setp.ne.b64";
  if ((!eq && !ne) || setp->operands.size() != 3 || regAt(*setp, 0) != bra->guard ||
      setp->operands[2].intValue() != 0 || andI->opcode != "and.b64" || andI->operands.size() != 3 ||
      regAt(*andI, 0) != regAt(*setp, 1) || !regOp(*andI, 1) ||
      andI->operands[2].intValue() != int64_t(0xffffffff00000000ull))  // the high half
    return std::nullopt;
  const ir::Instruction *orI = at >= 3 ? asInstruction(*b[at - 3]) : nullptr;
  const bool withOr = orI && orI->guard.empty() && orI->opcode == "or.b64" && orI->operands.size() == 3 &&
                      regAt(*orI, 0) == regAt(*andI, 1) && regOp(*orI, 1) && regOp(*orI, 2);
  // The test's temporaries are read by the test alone.
  auto usedOnce = [&](const std::string &r) {
    auto it = uses.find(r);
    return it != uses.end() && it->second == 1;
  };
  if ((withOr && !usedOnce(regAt(*orI, 0))) || !usedOnce(regAt(*andI, 0)) || !usedOnce(regAt(*setp, 0)))
    return std::nullopt;
  const bool takenFast = eq != bra->guardNegated;
  // [bra L] A... bra.uni J [L:] B... [J:]
  const std::string target(bra->operands[0].text);
  size_t i = at + 1;
  const size_t aFrom = i;
  while (i < b.size() && asInstruction(*b[i]) && asInstruction(*b[i])->base() != "bra") ++i;
  if (i >= b.size()) return std::nullopt;
  const ir::Instruction *close = asInstruction(*b[i]);
  if (!close || !close->guard.empty() || close->operands.size() != 1 || !close->operands[0].isSym()) return std::nullopt;
  const size_t aTo = i, aBra = i;
  const std::string join(close->operands[0].text);
  ++i;
  if (i >= b.size() || b[i]->kind != ir::Stmt::Kind::Label || static_cast<const ir::Label &>(*b[i]).name != target)
    return std::nullopt;
  const size_t bFrom = ++i;
  while (i < b.size() && asInstruction(*b[i]) && asInstruction(*b[i])->base() != "bra") ++i;
  if (i >= b.size() || b[i]->kind != ir::Stmt::Kind::Label || static_cast<const ir::Label &>(*b[i]).name != join)
    return std::nullopt;
  // The fast block, taken by the branch: no other branch lands on it (its
  // label stays, and would lead straight to the join once it is gone).
  if (takenFast) {
    int landings = 0;
    for (const auto &st : b)
      if (const ir::Instruction *x = asInstruction(*st); x && x->base() == "bra" && x->operands.size() == 1 &&
                                                 x->operands[0].text == target)
        ++landings;
    if (landings != 1) return std::nullopt;
  }
  Diamond d{withOr ? at - 3 : std::string::npos, at - 2, at - 1, at, 0, 0, 0, 0, std::string::npos, {}, {}, {}, {}};
  if (takenFast) d.fastFrom = bFrom, d.fastTo = i, d.slowFrom = aFrom, d.slowTo = aTo, d.slowBra = aBra;
  else d.fastFrom = aFrom, d.fastTo = aTo, d.slowFrom = bFrom, d.slowTo = i;
  // The blocks' values, a the dividend: the test's first operand, or its
  // second (or is commutative).
  Values fast, slow;
  auto evaluate = [&](const std::string &a, const std::string &bb) {
    fast = Values{a, bb, &hoisted, {}, {}};
    slow = fast;
    for (size_t j = d.fastFrom; j < d.fastTo; ++j)
      if (!fast.step(*asInstruction(*b[j]), true)) return false;
    for (size_t j = d.slowFrom; j < d.slowTo; ++j)
      if (!slow.step(*asInstruction(*b[j]), false)) return false;
    return true;
  };
  if (withOr) {
    if (!evaluate(regAt(*orI, 1), regAt(*orI, 2)) && !evaluate(regAt(*orI, 2), regAt(*orI, 1)))
      return std::nullopt;
  } else {  // the test's one operand is the dividend or the divisor, the other zero-extended from 32 bits
    const std::string tested = regAt(*andI, 1);
    std::string x, y;
    for (size_t j = d.slowFrom; j < d.slowTo && x.empty(); ++j) {
      const ir::Instruction &in = *asInstruction(*b[j]);
      if (in.base() == "div" || in.base() == "rem") x = regAt(in, 1), y = regAt(in, 2);
    }
    if (x.empty() || y.empty() || (x == tested ? !zext.count(y) : y != tested || !zext.count(x)) || !evaluate(x, y))
      return std::nullopt;
  }
  // Uses of each register inside [from, to).
  auto usesIn = [&](const std::string &r, size_t from, size_t to) {
    int n = 0;
    for (size_t j = from; j < to; ++j)
      for (auto u : analysis::defUse(*asInstruction(*b[j])).uses) n += u == r;
    return n;
  };
  auto total = [&](const std::string &r) {
    auto it = uses.find(r);
    return it == uses.end() ? 0 : it->second;
  };
  // What the fast block leaves (read after it) is written by the slow block
  // as the same value; every other register is the block's own.
  for (const auto &r : fast.written) {
    if (total(r) == usesIn(r, d.fastFrom, d.fastTo)) continue;  // a temporary
    auto s = slow.expr.find(r);
    const std::string &e = fast.expr[r];
    if (s == slow.expr.end() || s->second != e || (e != "a/b" && e != "a%b" && e != "a-(a/b)*b")) return std::nullopt;
  }
  for (const auto &r : slow.written)
    if (!fast.written.count(r) && total(r) != usesIn(r, d.slowFrom, d.slowTo)) return std::nullopt;
  d.a = slow.a, d.b = slow.b;
  for (size_t j = d.slowFrom; j < d.slowTo; ++j) {
    const ir::Instruction &in = *asInstruction(*b[j]);
    if (in.base() == "div") d.rem = in.opcode.ends_with(".s64") ? "rem.s64" : "rem.u64";
    if (in.base() == "sub" && slow.expr[regAt(in, 0)] == "a-(a/b)*b") d.remAt.push_back(j);
  }
  if (d.rem.empty()) d.remAt.clear();
  return d;
}

}  // namespace

void keepUndropped(ir::Function &g, const std::vector<bool> &drop) {
  auto &b = g.body->body;
  std::vector<std::unique_ptr<ir::Stmt>> kept;
  for (size_t j = 0; j < b.size(); ++j)
    if (!drop[j]) kept.push_back(std::move(b[j]));
  b = std::move(kept);
  g.edited = true;
  g.body->edited = true;
}

std::unique_ptr<ir::Function> foldDivFastPaths(ir::Module &m, const ir::Function &k) {
  if (!k.body) return nullptr;
  auto g = cloneBody(k, std::string(k.name) + "__ptxopt_fold", "_fd", m);
  auto &b = g->body->body;
  std::map<std::string, int> uses, defs;
  for (const auto &s : b)
    if (const ir::Instruction *in = asInstruction(*s)) {
      const auto du = analysis::defUse(*in);
      for (auto u : du.uses) ++uses[std::string(u)];
      for (auto d : du.defs) ++defs[std::string(d)];
    }
  std::map<std::string, std::string> hoisted;
  std::set<std::string> zext;  // written once, by cvt.u64.u32: under 2^32
  for (const auto &s : b)
    if (const ir::Instruction *in = asInstruction(*s))
      if (in->opcode == "cvt.u64.u32" && in->guard.empty() && regOp(*in, 0) && defs[regAt(*in, 0)] == 1)
        zext.insert(regAt(*in, 0));
  for (const auto &s : b)
    if (const ir::Instruction *in = asInstruction(*s))
      if (in->opcode == "cvt.u32.u64" && in->guard.empty() && regOp(*in, 0) && regOp(*in, 1) &&
          defs[regAt(*in, 0)] == 1 && defs[regAt(*in, 1)] == 1)
        hoisted[regAt(*in, 0)] = regAt(*in, 1);
  std::vector<Diamond> found;
  for (size_t at = 0; at < b.size(); ++at)
    if (auto d = diamondAt(b, at, uses, hoisted, zext)) found.push_back(*d);
  if (found.empty()) return nullptr;
  std::vector<bool> drop(b.size(), false);
  for (const Diamond &d : found) {
    for (size_t j : {d.orAt, d.andAt, d.setpAt, d.braAt})
      if (j != std::string::npos) drop[j] = true;
    for (size_t j = d.fastFrom; j < d.fastTo; ++j) drop[j] = true;
    if (d.slowBra != std::string::npos) drop[d.slowBra] = true;
    else if (d.fastTo < b.size() && asInstruction(*b[d.fastTo])) drop[d.fastTo] = true;  // the fast block's bra.uni
    for (size_t j : d.remAt) {
      const Operand dst = asInstruction(*b[j])->operands[0];
      b[j] = makeInstr(m, d.rem, {dst, Operand::reg(m.intern(d.a)), Operand::reg(m.intern(d.b))});
    }
  }
  keepUndropped(*g, drop);
  return g;
}

}  // namespace ptxopt::transforms::transpose
