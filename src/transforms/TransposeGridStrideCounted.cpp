// transpose, grid-stride loops with a 64-bit counter, traced.
//
// What: PyTorch's CUDA_KERNEL_LOOP (`int64_t _i_n_d_e_x = blockIdx.x *
// blockDim.x + threadIdx.x; for (int i = _i_n_d_e_x; _i_n_d_e_x < n;
// _i_n_d_e_x += blockDim.x * gridDim.x, i = _i_n_d_e_x)`) and loops over
// an int64_t or size_t index. nvcc compiles these unlike the 32-bit loops
// GridStride.cpp reads: for a signed counter it computes the trip
// count, `(n - 1 - i) / S` with S = blockDim.x * gridDim.x (a 64-bit
// division, through its fast path), runs `(trip + 1) % 4` iterations in a
// remainder loop and the rest in a loop unrolled four times; for size_t
// the latch compares `i + S < n` in 64 bits. Launched with a thread per
// element each thread runs one iteration, and the kernel is the flat (or
// 2-D) naive transpose again.
// Why it pays: the same as the 32-bit grid-stride loops' (the tile).
// Algorithm (unloopCounted), on the copy with the division fast paths
// folded (TransposeWide.cpp): the code is traced from the entry as one
// thread runs it, every integer register's value followed as a polynomial
// over the special registers and the parameters (add, sub, mul, mad, not
// and narrowing are ring operations, exact modulo 2^32 or 2^64; a widening
// cvt keeps the value only where it is known to lie in [0, 2^30)). The
// first branch whose predicate is not known must be the guard, `setp.ge i,
// n` (or `setp.le n, i`) to a block that returns, i = %ctaid.x * %ntid.x +
// %tid.x and n a product of parameters; it is kept (a branch to the copy's
// return). After it, under the launch condition gridStrideOnce (the
// threads along x, S, at least n and fewer than 2^30; the 32-bit loops'
// condition) and the guard (0 <= i < n): a comparison of two values of the
// form a*i + b*S + c*n + k (small integers) is decided where its sign is
// the same for every i, n, S with 0 <= i < n <= S, and a division by S of
// such a value t with 0 <= t < S is 0 (the trip count). Each decided
// branch is followed; a branch to a block that returns is kept; a label
// reached twice, or any other branch, is a refusal. The trace keeps every
// instruction as it is (the division included: it computes its 0); what
// it leaves dead is removed, and `cvt.u32.u64` of a `cvt.u64.u32` of a
// register reads as that register (an int index of a 64-bit counter). The
// result, straight-line code of one iteration, is the kernel of one
// element per thread the pass takes as it takes any (the flat form or the
// 2-D clones), with gridStrideOnce on every variant.
// Refuses (nullopt, `why` set where the guard was found): a branch the
// trace cannot decide, a loop taken twice, a bound that is not a product
// of parameters; anything else is not this form (no remark).
#include <algorithm>
#include <map>
#include <set>

#include "Pass.h"
#include "Transpose.h"

namespace ptxopt::transforms::transpose {

using clone::paramIndex;
using ir::Operand;

namespace {


/// A polynomial over symbols (special registers, parameter names) with
/// integer coefficients: monomial (a sorted multiset of symbols) ->
/// coefficient.
using Poly = std::map<std::vector<std::string>, int64_t>;

Poly constant(int64_t c) { return c ? Poly{{{}, c}} : Poly{}; }
Poly symbol(const std::string &s) { return Poly{{{s}, 1}}; }
Poly add(const Poly &a, const Poly &b, int64_t sign = 1) {
  Poly r = a;
  for (const auto &[m, c] : b)
    if ((r[m] += sign * c) == 0) r.erase(m);
  return r;
}
Poly mul(const Poly &a, const Poly &b) {
  Poly r;
  for (const auto &[ma, ca] : a)
    for (const auto &[mb, cb] : b) {
      std::vector<std::string> m = ma;
      m.insert(m.end(), mb.begin(), mb.end());
      std::sort(m.begin(), m.end());
      if ((r[m] += ca * cb) == 0) r.erase(m);
    }
  return r;
}

/// The known shapes: the index i, the grid's stride S and (once the guard
/// is found) the bound n with its factors.
struct Shapes {
  Poly i0 = add(mul(symbol("%ctaid.x"), symbol("%ntid.x")), symbol("%tid.x"));
  Poly step = mul(symbol("%ntid.x"), symbol("%nctaid.x"));
  std::optional<Poly> n;
  std::vector<std::string> factors;
  // A compile-time bound N (the guard compares the index with an
  // immediate): the trace reads an immediate within 2 of N as the bound's
  // symbol kBound plus the difference (the same value: the symbol is N),
  // so that `N - 1 - i` is a value of the form a*i + b*S + c*n + k.
  std::optional<int64_t> constN;

  /// p = a*i + b*S + c*n + k: {a, b, c, k}, or nullopt.
  std::optional<std::array<int64_t, 4>> split(const Poly &p) const {
    if (!n) return std::nullopt;
    Poly rest = p;
    auto coef = [&](const Poly &unit) -> std::optional<int64_t> {
      const int64_t c = rest.count(unit.begin()->first) ? rest.at(unit.begin()->first) : 0;
      for (const auto &[m, v] : unit)
        if ((rest.count(m) ? rest.at(m) : 0) != c * v) return std::nullopt;
      if (c) rest = add(rest, unit, -c);
      return c;
    };
    auto a = coef(i0), b = coef(step), c = coef(*n);
    const int64_t k = rest.count({}) ? rest.at({}) : 0;
    rest.erase(std::vector<std::string>{});
    if (!a || !b || !c || !rest.empty()) return std::nullopt;
    for (int64_t v : {*a, *b, *c})
      if (v < -8 || v > 8) return std::nullopt;
    if (k < -(int64_t(1) << 20) || k > (int64_t(1) << 20)) return std::nullopt;
    return std::array<int64_t, 4>{*a, *b, *c, k};
  }
  /// Whether p >= 0 for every 0 <= i < n <= S (n >= 1).
  bool nonNegative(const Poly &p) const {
    auto s = split(p);
    if (!s) return false;
    auto [a, b, c, k] = *s;
    if (b < 0) return false;  // S unbounded above
    // S = n + e, e >= 0: a*i + (b + c)*n + b*e + k, least at e = 0 and at
    // i = 0 (a >= 0) or i = n - 1 (a < 0): a linear function of n >= 1.
    const int64_t slope = a >= 0 ? b + c : a + b + c, at1 = a >= 0 ? b + c + k : a + b + c - a + k;
    return slope >= 0 && at1 >= 0;
  }
  /// Whether the value fits `bits` (signed or not) for every such i, n, S
  /// (each under 2^30).
  bool fits(const Poly &p, unsigned bits, bool isSigned) const {
    if (p.empty() || (p.size() == 1 && p.begin()->first.empty())) {
      const int64_t k = p.empty() ? 0 : p.begin()->second;
      if (!isSigned && k < 0) return false;  // an unsigned compare reads it as 2^bits + k
      return bits == 64 || (isSigned ? k >= INT32_MIN && k <= INT32_MAX : k <= int64_t(UINT32_MAX));
    }
    auto s = split(p);
    if (!s) return false;
    auto [a, b, c, k] = *s;
    const int64_t reach = (std::abs(a) + std::abs(b) + std::abs(c)) * ((int64_t(1) << 30) - 1) + std::abs(k);
    if (!isSigned && !nonNegative(p)) return false;
    if (bits == 64) return true;
    return reach <= (isSigned ? int64_t(INT32_MAX) : int64_t(UINT32_MAX));
  }
  /// Whether a widening keeps `p` (a 32-bit value known to lie in [0, 2^30)).
  bool widens(const Poly &p) const {
    if (p == i0 || p == step) return true;
    if (p.empty()) return true;
    if (p.size() != 1) return fits(p, 32, true) && nonNegative(p);
    const auto &[m, c] = *p.begin();
    if (m.empty()) return c >= 0 && c < (int64_t(1) << 30);
    if (c != 1) return false;
    if (m.size() == 1 && m[0].starts_with("%")) return true;  // a special register
    // A parameter or a product of them: the bound's (non-negative: the
    // condition); before the guard, checked there.
    if (!n) return true;
    return std::includes(factors.begin(), factors.end(), m.begin(), m.end());
  }
};

/// The symbol of a compile-time bound (Shapes::constN): no register or
/// parameter is named so.
const char *const kBound = "#N";

/// An integer immediate's value (a float literal, 0f3F800000, is none), or
/// nullopt; within 2 of a compile-time bound N, kBound + (v - N).
std::optional<Poly> immediate(const Operand &x, std::optional<int64_t> constN) {
  auto v = x.intValue();
  if (!v) return std::nullopt;
  if (constN && *v >= *constN - 2 && *v <= *constN + 2) return add(symbol(kBound), constant(*v - *constN));
  return constant(*v);
}

/// Whether the opcode's type (its last modifier) is an integer or bit type:
/// only those values are followed (float arithmetic and compares are not
/// ring operations).
bool integerType(std::string_view op) {
  const auto dot = op.rfind('.');
  return dot != std::string_view::npos && dot + 2 < op.size() &&
         (op[dot + 1] == 's' || op[dot + 1] == 'u' || op[dot + 1] == 'b');
}

/// An operand's value given the values known (`val`), or nullopt.
std::optional<Poly> valueOf(const Operand &x, const std::map<std::string, Poly> &val,
                            std::optional<int64_t> constN = std::nullopt) {
  if (x.kind == Operand::Kind::Immediate) return immediate(x, constN);
  if (auto it = x.isReg() ? val.find(std::string(x.text)) : val.end(); it != val.end()) return it->second;
  return std::nullopt;
}

/// The value of instruction `in`'s destination given the values known
/// (`val`), or nullopt.
std::optional<Poly> evaluate(const ir::Instruction &in, const std::map<std::string, Poly> &val, const Shapes &sh,
                             std::vector<Poly> &assumed) {
  const std::string op(in.opcode);
  const auto &o = in.operands;
  if (!integerType(op)) return std::nullopt;
  auto operand = [&](const Operand &x) { return valueOf(x, val, sh.constN); };
  auto widened = [&](const std::optional<Poly> &x) -> std::optional<Poly> {
    if (!x || !sh.widens(*x)) return std::nullopt;
    if (!sh.n && x->size() == 1 && !x->begin()->first.empty() && !x->begin()->first[0].starts_with("%"))
      assumed.push_back(*x);  // parameters: checked at the guard
    return x;
  };
  if (in.base() == "mov" && o.size() == 2 && o[1].isReg() && o[1].text.starts_with("%") &&
      o[1].text.find('.') != std::string_view::npos && !val.count(std::string(o[1].text)))
    for (const char *s : {"%tid.", "%ntid.", "%ctaid.", "%nctaid."})
      if (o[1].text.starts_with(s)) return symbol(std::string(o[1].text));
  if (op.starts_with("ld.param.") && o.size() == 2 && o[1].kind == Operand::Kind::Address && o[1].elems.size() == 1 &&
      o[1].elems[0].isSym())
    return symbol(std::string(o[1].elems[0].text));
  if ((op == "cvt.u64.u32" || op == "cvt.s64.s32") && o.size() == 2) return widened(operand(o[1]));
  if (op == "cvt.u32.u64" && o.size() == 2) return operand(o[1]);  // narrowing: a ring homomorphism
  if (op.starts_with("mov.") && o.size() == 2) return operand(o[1]);
  if ((op == "not.b64" || op == "not.b32") && o.size() == 2) {
    auto x = operand(o[1]);
    return x ? std::optional<Poly>(add(constant(-1), *x, -1)) : std::nullopt;
  }
  const bool wide = op.starts_with("mul.wide.") || op.starts_with("mad.wide.");  // products of widened values
  if (o.size() == 3 && (in.base() == "add" || in.base() == "sub" || op.starts_with("mul.lo.") || wide)) {
    auto x = operand(o[1]), y = operand(o[2]);
    if (wide) x = widened(x), y = widened(y);
    if (!x || !y) return std::nullopt;
    return in.base() == "add" ? add(*x, *y) : in.base() == "sub" ? add(*x, *y, -1) : mul(*x, *y);
  }
  if (o.size() == 4 && (op.starts_with("mad.lo.") || wide)) {
    auto x = operand(o[1]), y = operand(o[2]), z = operand(o[3]);
    if (wide) x = widened(x), y = widened(y);
    if (!x || !y || !z) return std::nullopt;
    return add(mul(*x, *y), *z);
  }
  if (in.base() == "div" && o.size() == 3) {  // the trip count: t / S with 0 <= t < S
    auto x = operand(o[1]), y = operand(o[2]);
    const unsigned bits = op.ends_with("64") ? 64 : 32;
    if (x && y && *y == sh.step && sh.fits(*x, bits, op.find(".s") != std::string::npos) && sh.nonNegative(*x) &&
        sh.nonNegative(add(add(sh.step, constant(-1)), *x, -1)))
      return constant(0);
    return std::nullopt;
  }
  if (in.base() == "and" && o.size() == 3) {  // constants only
    auto x = operand(o[1]), y = operand(o[2]);
    auto k = [](const std::optional<Poly> &p) -> std::optional<int64_t> {
      if (!p) return std::nullopt;
      if (p->empty()) return 0;
      if (p->size() == 1 && p->begin()->first.empty()) return p->begin()->second;
      return std::nullopt;
    };
    if (k(x) && k(y)) return constant(*k(x) & *k(y));
  }
  return std::nullopt;
}

/// The truth of a setp given the values known, or nullopt.
std::optional<bool> decide(const ir::Instruction &in, const std::map<std::string, Poly> &val, const Shapes &sh) {
  const std::string op(in.opcode);
  if (in.base() != "setp" || in.operands.size() != 3 || !in.guard.empty() || !integerType(op)) return std::nullopt;
  auto x = valueOf(in.operands[1], val, sh.constN), y = valueOf(in.operands[2], val, sh.constN);
  if (!x || !y) return std::nullopt;
  const unsigned bits = op.ends_with("64") ? 64 : op.ends_with("32") ? 32 : 0;
  const bool isSigned = op.find(".s") != std::string::npos;
  // Each value as the machine compares it: within the type's range (a
  // constant too: a ring value past it would compare otherwise).
  if (!bits || !sh.fits(*x, bits, isSigned) || !sh.fits(*y, bits, isSigned)) return std::nullopt;
  const Poly d = add(*x, *y, -1);  // x - y
  const bool ge = sh.nonNegative(d) || (d.empty() || (d.size() == 1 && d.begin()->first.empty() && d.begin()->second >= 0));
  const bool lt = sh.nonNegative(add(add(*y, *x, -1), constant(-1))) ||
                  (d.size() == 1 && d.begin()->first.empty() && d.begin()->second < 0);
  const bool eq = d.empty(), ne = d.size() == 1 && d.begin()->first.empty();  // a non-zero constant
  if (op.starts_with("setp.lt.") && (ge || lt)) return lt;
  if (op.starts_with("setp.ge.") && (ge || lt)) return ge;
  if (op.starts_with("setp.le.")) {
    const bool le = sh.nonNegative(add(*y, *x, -1)) || (d.size() == 1 && d.begin()->first.empty() && d.begin()->second <= 0) || eq;
    const bool gt = sh.nonNegative(add(d, constant(-1))) || (ne && d.begin()->second > 0);
    if (le || gt) return le;
  }
  if (op.starts_with("setp.gt.")) {
    const bool gt = sh.nonNegative(add(d, constant(-1))) || (ne && d.begin()->second > 0);
    const bool le = sh.nonNegative(add(*y, *x, -1)) || eq || (ne && d.begin()->second < 0);
    if (gt || le) return gt;
  }
  if (op.starts_with("setp.eq.") && (eq || ne)) return eq;
  if (op.starts_with("setp.ne.") && (eq || ne)) return ne;
  return std::nullopt;
}

/// The block at `label` only returns (labels before its `ret`).
bool returns(const std::vector<std::unique_ptr<ir::Stmt>> &b, const std::map<std::string, size_t> &labels,
             const std::string &label) {
  auto it = labels.find(label);
  if (it == labels.end()) return false;
  for (size_t j = it->second; j < b.size(); ++j) {
    if (b[j]->kind == ir::Stmt::Kind::Label) continue;
    const ir::Instruction *in = asInstruction(*b[j]);
    return in && in->base() == "ret" && in->guard.empty();
  }
  return false;
}

/// Removes what the straight-line `trace` computes and nothing reads (pure
/// arithmetic and plain loads; anything else stays).
void sweep(std::vector<std::unique_ptr<ir::Stmt>> &trace) {
  std::set<std::string> live;
  std::vector<bool> keep(trace.size(), true);
  for (size_t j = trace.size(); j-- > 0;) {
    const auto &in = static_cast<const ir::Instruction &>(*trace[j]);
    const auto du = analysis::defUse(in);
    // Removable: pure arithmetic (not the carry chain's) and plain loads.
    const std::string_view base = in.base(), op = in.opcode;
    const bool plainLoad = base == "ld" && op.find(".volatile") == std::string_view::npos &&
                           op.find(".acquire") == std::string_view::npos && op.find(".relaxed") == std::string_view::npos &&
                           op.find(".mmio") == std::string_view::npos;
    const bool pure = (pureOpcode(base) && op.find(".cc") == std::string_view::npos && base != "addc" &&
                       base != "subc" && base != "madc") ||
                      plainLoad;
    if (pure && !du.defs.empty() &&
        std::none_of(du.defs.begin(), du.defs.end(), [&](auto d) { return live.count(std::string(d)) > 0; })) {
      keep[j] = false;
      continue;
    }
    if (in.guard.empty())
      for (auto d : du.defs) live.erase(std::string(d));
    for (auto u : du.uses) live.insert(std::string(u));
  }
  std::vector<std::unique_ptr<ir::Stmt>> kept;
  for (size_t j = 0; j < trace.size(); ++j)
    if (keep[j]) kept.push_back(std::move(trace[j]));
  trace = std::move(kept);
}

/// `x = cvt.u32.u64 y` with `y = cvt.u64.u32 z` (each written once): x read as z.
void readThroughCvts(ir::Module &m, std::vector<std::unique_ptr<ir::Stmt>> &trace) {
  std::map<std::string, int> writes;
  std::map<std::string, const ir::Instruction *> def;
  for (const auto &st : trace) {
    const auto &in = static_cast<const ir::Instruction &>(*st);
    for (auto d : analysis::defUse(in).defs) ++writes[std::string(d)], def[std::string(d)] = &in;
  }
  std::map<std::string, std::string> same;
  for (const auto &[r, in] : def) {
    if (writes[r] != 1 || in->opcode != "cvt.u32.u64" || !in->guard.empty()) continue;
    const std::string y = regAt(*in, 1);
    if (y.empty() || writes[y] != 1 || def[y]->opcode != "cvt.u64.u32" || !def[y]->guard.empty()) continue;
    const std::string z = regAt(*def[y], 1);
    if (!z.empty() && writes[z] == 1) same[r] = z;
  }
  for (auto &st : trace) {
    auto &in = static_cast<ir::Instruction &>(*st);
    const auto du = analysis::defUse(in);
    for (size_t o = du.defs.empty() ? 0 : 1; o < in.operands.size(); ++o)
      if (in.operands[o].isReg())
        if (auto s = same.find(std::string(in.operands[o].text)); s != same.end()) {
          in.operands[o] = Operand::reg(m.intern(s->second));
          in.edited = true;
        }
  }
}

/// A setp as the trace ran it: the values it compared and its truth where
/// decided then.
struct Pred {
  const ir::Instruction *setp;
  std::optional<Poly> x, y;
  std::optional<bool> truth;
};

/// A compile-time bound N: the first conditional branch to a block that
/// returns is `@p bra` after `setp.gt.{u,s}64 p, r, N - 1` (nvcc's `i >=
/// N` of a constant range), N from 2 to 2^30 - 1 (the condition's threads
/// are under 2^30); else nullopt. Only a hint: the guard is still the
/// trace's to check (takeGuard), and reading an immediate as the bound's
/// symbol changes no value.
std::optional<int64_t> constantBound(const std::vector<std::unique_ptr<ir::Stmt>> &b,
                                     const std::map<std::string, size_t> &labels) {
  for (size_t j = 1; j < b.size(); ++j) {
    const ir::Instruction *br = asInstruction(*b[j]), *setp = asInstruction(*b[j - 1]);
    if (!br || br->base() != "bra" || br->guard.empty()) continue;
    if (br->guardNegated || br->operands.size() != 1 || !returns(b, labels, std::string(br->operands[0].text)) ||
        !setp || !setp->guard.empty() || setp->operands.size() != 3 ||
        !(setp->opcode == "setp.gt.u64" || setp->opcode == "setp.gt.s64") || regAt(*setp, 0) != br->guard)
      return std::nullopt;
    auto k = setp->operands[2].intValue();
    if (!k || *k < 1 || *k >= (int64_t(1) << 30) - 2) return std::nullopt;
    return *k + 1;
  }
  return std::nullopt;
}

/// The guard, the first branch the trace cannot decide: `setp.ge i, n` (or
/// `setp.le n, i`) with i the thread's index and n a product of the
/// kernel's parameters; sets sh.n and its factors. False, with `why` where
/// the bound is the reason, otherwise.
bool takeGuard(const ir::Function &k, const Pred &p, bool negated, const std::vector<Poly> &assumed, Shapes &sh,
               std::string &why) {
  const bool ge = p.setp->opcode.starts_with("setp.ge."), le = p.setp->opcode.starts_with("setp.le.");
  // A compile-time bound: nvcc tests `i > N - 1` (kBound - 1 to the trace;
  // only that: `i > y` is `i >= y + 1` where y + 1 does not wrap).
  const bool gt = sh.constN && p.setp->opcode.starts_with("setp.gt.") && p.y &&
                  *p.y == add(symbol(kBound), constant(-1));
  if (negated || (!ge && !le && !gt)) return false;
  const std::optional<Poly> &x = ge || gt ? p.x : p.y;
  std::optional<Poly> n = ge ? p.y : le ? p.x : p.y ? std::optional<Poly>(add(*p.y, constant(1))) : std::nullopt;
  if (!x || *x != sh.i0) return false;
  const char *notProduct = "a grid-stride loop with a 64-bit counter whose bound is not a product of parameters";
  if (!n || n->size() != 1 || n->begin()->second != 1 || n->begin()->first.empty()) {
    why = notProduct;
    return false;
  }
  for (const auto &f : n->begin()->first)
    if (paramIndex(k, f) < 0 && f != kBound) {
      why = notProduct;
      return false;
    }
  sh.n = *n;
  sh.factors = n->begin()->first;
  for (const Poly &q : assumed)  // products of parameters widened before it: part of the bound
    if (!std::includes(sh.factors.begin(), sh.factors.end(), q.begin()->first.begin(), q.begin()->first.end())) {
      why = "a grid-stride loop with a 64-bit counter: a product of parameters widened that is not part of the bound";
      return false;
    }
  return true;
}

}  // namespace

std::optional<GridStride> unloopCounted(ir::Module &m, const ir::Function &k, std::string &why) {
  why.clear();
  std::unique_ptr<ir::Function> g = foldDivFastPaths(m, k);
  if (!g) g = cloneBody(k, std::string(k.name) + "__ptxopt_fold", "_fd", m);
  auto &b = g->body->body;
  std::map<std::string, size_t> labels;
  for (size_t j = 0; j < b.size(); ++j)
    if (b[j]->kind == ir::Stmt::Kind::Label) labels[std::string(static_cast<const ir::Label &>(*b[j]).name)] = j;
  Shapes sh;
  sh.constN = constantBound(b, labels);
  std::vector<Poly> assumed;              // widened products of parameters before the guard
  std::map<std::string, Poly> val;        // register -> its value
  std::map<std::string, Pred> preds;  // predicate -> its setp as the trace ran it
  std::vector<std::unique_ptr<ir::Stmt>> trace;
  const std::string exitLabel = "$L__ptxopt_gsexit";
  std::set<size_t> seen;
  size_t pc = 0, steps = 0;
  auto refuse = [&](const char *text) {
    if (sh.n) why = std::string("a grid-stride loop with a 64-bit counter: ") + text;
    return std::nullopt;
  };
  for (;;) {
    if (pc >= b.size() || ++steps > 4 * b.size() + 64) return refuse("the trace does not end");
    const ir::Stmt &st = *b[pc];
    if (st.kind == ir::Stmt::Kind::Label) {
      if (!seen.insert(pc).second) return refuse("a loop runs twice in the trace");
      ++pc;
      continue;
    }
    const ir::Instruction *in = asInstruction(st);
    if (!in) {
      ++pc;
      continue;
    }
    std::optional<bool> guard;  // the instruction's guard's truth, where known
    if (!in->guard.empty())
      if (auto p = preds.find(std::string(in->guard)); p != preds.end() && p->second.truth)
        guard = *p->second.truth != in->guardNegated;
    if (in->base() == "bra" || in->base() == "ret") {
      if (!in->guard.empty() && !guard) {
        const bool exits = in->base() == "ret" || (in->operands.size() == 1 && returns(b, labels, std::string(in->operands[0].text)));
        if (!exits) return refuse("a branch the trace cannot decide");
        if (!sh.n) {  // the guard
          auto p = preds.find(std::string(in->guard));
          if (p == preds.end() || !takeGuard(k, p->second, in->guardNegated, assumed, sh, why)) return std::nullopt;
        }
        auto copy = std::unique_ptr<ir::Instruction>(static_cast<ir::Instruction *>(in->clone().release()));
        copy->opcode = m.intern("bra");
        copy->operands = {Operand::sym(m.intern(exitLabel))};
        copy->edited = true;
        trace.push_back(std::move(copy));
        ++pc;
        continue;
      }
      if (!in->guard.empty() && !*guard) {
        ++pc;
        continue;
      }
      if (in->base() == "ret") break;
      if (!sh.n) return std::nullopt;  // a loop before the guard: not this form
      auto l = in->operands.size() == 1 ? labels.find(std::string(in->operands[0].text)) : labels.end();
      if (l == labels.end()) return refuse("a branch to no label");
      pc = l->second;
      continue;
    }
    if (guard && !*guard) {  // never runs here
      ++pc;
      continue;
    }
    auto copy = std::unique_ptr<ir::Instruction>(static_cast<ir::Instruction *>(in->clone().release()));
    if (guard) copy->guard = {}, copy->guardNegated = false, copy->edited = true;
    const auto du = analysis::defUse(*copy);
    std::optional<Poly> v = copy->guard.empty() && du.defs.size() == 1 ? evaluate(*copy, val, sh, assumed) : std::nullopt;
    std::optional<Pred> pr;
    if (copy->base() == "setp" && copy->guard.empty() && du.defs.size() == 1 && copy->operands.size() == 3) {
      pr = Pred{in, valueOf(copy->operands[1], val, sh.constN), valueOf(copy->operands[2], val, sh.constN),
                decide(*copy, val, sh)};
    }
    for (auto d : du.defs) {
      val.erase(std::string(d));
      preds.erase(std::string(d));
    }
    if (v) val[std::string(du.defs[0])] = *v;
    if (pr) preds[std::string(du.defs[0])] = *pr;
    trace.push_back(std::move(copy));
    ++pc;
  }
  if (!sh.n) return std::nullopt;
  sweep(trace);
  readThroughCvts(m, trace);
  sweep(trace);
  GridStride out;
  out.kernel = cloneBody(k, std::string(k.name) + "__ptxopt_once", "", m);
  auto &ob = out.kernel->body->body;
  std::vector<std::unique_ptr<ir::Stmt>> body;
  for (const auto &st : b)
    if (st->kind == ir::Stmt::Kind::Decl) body.push_back(st->clone());
  for (auto &st : trace) body.push_back(std::move(st));
  auto label = std::make_unique<ir::Label>();
  label->name = m.intern(exitLabel);
  label->edited = true;
  body.push_back(std::move(label));
  body.push_back(makeInstr(m, "ret", {}));
  ob = std::move(body);
  out.kernel->edited = true;
  out.kernel->body->edited = true;
  Variant::GridStrideOnce cond;
  cond.dim = 0;
  for (const auto &s : sh.factors) {
    if (s != kBound) {
      cond.params.push_back(uint32_t(paramIndex(k, s)));
      continue;
    }
    // N for each time the bound's symbol is a factor (N * N from two
    // immediates, hand-written): past 2^30 no launch meets the condition.
    if (cond.times > ((uint64_t(1) << 30) / uint64_t(*sh.constN))) return std::nullopt;
    cond.times *= uint64_t(*sh.constN);
  }
  out.conds.push_back(cond);
  return out;
}

}  // namespace ptxopt::transforms::transpose
