// Known bits of values: trailing zeros (a known multiple of 2^k) and an
// upper bound for values known to be non-negative.
//
// What: for every value, the largest k such that it is a multiple of 2^k,
// and 0 <= value <= bound where that can be shown; for the bit operations
// nvcc and Triton write (and, or, xor, shr, selp, min, max, rem, bfe, bfi) the
// exact value when these facts make it affine.
// Why: `(row << 10) | 1`, `p | 8` on a multiple of 16384, `x & -4` on a
// multiple of 4, `(4*i) >> 2` are additions or no-ops; without the facts
// they were unknown and the access with them (issue 15, item 2).
// Algorithm: facts of a known value come from its polynomial: the trailing
// zeros of a term c*s1*...*sn are ctz(c) plus the symbols' (a Uniform
// symbol carries its own), the bound is the sum of c*max(s) over terms
// with positive coefficients and bounded symbols (thread and block indices
// and sizes from the launch limits and .reqntid/.maxntid, a Uniform
// symbol's umax). An unknown value carries facts in Value::tz/umax, set by
// the operations here (a mask bounds, a shift adds zeros).
// Refuses: anything not proven: a bound only for values below 2^(w-1) at
// the operation's width w (the same value signed or unsigned), a right
// shift only when every coefficient divides exactly and, for shr.u, the
// value is non-negative.
#include <algorithm>
#include <functional>
#include <map>

#include "ptxopt/analysis/Affine.h"
#include "ptxopt/analysis/Semantics.h"

namespace ptxopt::analysis {

using ir::Instruction;
using ir::Operand;

namespace {

unsigned widthOf(const Instruction &in) {
  unsigned w = 0;
  in.anyModifier([&](std::string_view m) { return (w = typeBytes(m) * 8) != 0; });  // the first type's
  return w;
}

uint64_t maskOf(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

unsigned ctz64(uint64_t x) { return x ? static_cast<unsigned>(__builtin_ctzll(x)) : 64; }

/// All ones from bit 0 up to the highest set bit of x.
uint64_t fill(uint64_t x) { return x ? (~uint64_t{0} >> __builtin_clzll(x)) : 0; }

/// v's value in w bits (mask M) when it is a constant.
std::optional<uint64_t> constantBits(const Value &v, uint64_t M) {
  if (v.known)
    if (auto c = v.poly.constantValue()) return static_cast<uint64_t>(*c) & M;
  return std::nullopt;
}

bool samePoly(const Value &a, const Value &b) { return a.known && b.known && a.poly == b.poly; }

std::optional<uint64_t> minOpt(std::optional<uint64_t> a, std::optional<uint64_t> b) {
  if (a && b) return std::min(*a, *b);
  return a ? a : b;
}

std::optional<uint64_t> maxBoth(std::optional<uint64_t> a, std::optional<uint64_t> b) {
  if (a && b) return std::max(*a, *b);
  return std::nullopt;
}

/// The unknown results of a w-bit bit operation, with the facts that still
/// hold for them: trailing zeros and an upper bound.
struct BitResult {
  unsigned w;
  /// An unknown result with the facts that hold for it.
  Value with(std::string why, UnknownCause cause, unsigned tz, std::optional<uint64_t> ub) const {
    Value r = Value::unknown(std::move(why), cause);
    r.tz = static_cast<uint8_t>(std::min(tz, w));
    if (ub && *ub < (uint64_t{1} << (w - 1))) r.umax = ub;
    return r;
  }
  /// The first unknown operand's reason (the root cause), else this operation's.
  Value because(std::initializer_list<const Value *> vs, std::string why, UnknownCause cause, unsigned tz,
                std::optional<uint64_t> ub) const {
    for (const Value *v : vs)
      if (!v->known) return with(v->why, v->cause, tz, ub);
    return with(std::move(why), cause, tz, ub);
  }
};

}  // namespace

std::optional<uint64_t> AffineAnalysis::symbolMax(const Symbol &s) const {
  switch (s.kind) {
  case Symbol::Kind::Uniform: return s.umax;
  case Symbol::Kind::Param:
  case Symbol::Kind::Global:
  case Symbol::Kind::LoopCounter: return std::nullopt;  // unbounded
  default: break;
  }
  static const uint64_t blockMax[3] = {1024, 1024, 64}, gridMax[3] = {2147483647, 65535, 65535};
  uint64_t bound = blockMax[s.dim];
  const ir::Function &f = cfg_.function();
  for (const char *dir : {".reqntid", ".maxntid"}) {
    if (const ir::Directive *d = f.perfDirective(dir)) {
      std::vector<uint64_t> v;
      for (auto t : d->tokens)
        if (auto x = ir::Operand::imm(t).intValue()) v.push_back(static_cast<uint64_t>(*x));
      if (s.dim < v.size()) bound = std::min(bound, v[s.dim]);
      else if (!v.empty()) bound = 1;  // unnamed dimensions are 1
    }
  }
  switch (s.kind) {
  case Symbol::Kind::Tid: return bound - 1;
  case Symbol::Kind::Ntid: return bound;
  case Symbol::Kind::Ctaid: return gridMax[s.dim] - 1;
  case Symbol::Kind::Nctaid: return gridMax[s.dim];
  default: return std::nullopt;
  }
}

std::optional<uint64_t> AffineAnalysis::possibleBits(const Poly &p) {
  uint64_t all = 0;
  for (const auto &[m, c] : p.terms()) {
    if (c <= 0) return std::nullopt;
    uint64_t field;
    if (m.empty()) {
      field = static_cast<uint64_t>(c);
    } else {
      unsigned lo = static_cast<unsigned>(__builtin_ctzll(static_cast<uint64_t>(c)));
      for (auto id : m) lo += syms_[id].kind == Symbol::Kind::Uniform ? syms_[id].tz : 0;
      lo = std::min(lo, 63u);
      unsigned hi = 63;
      unsigned __int128 mx = static_cast<uint64_t>(c);
      bool bounded = true;
      for (auto id : m) {
        auto b = symbolMax(syms_[id]);
        if (!b) {
          bounded = false;
          break;
        }
        mx *= *b;
        if (mx >> 64) {
          bounded = false;
          break;
        }
      }
      if (bounded) {
        if (mx == 0) continue;
        hi = 63 - static_cast<unsigned>(__builtin_clzll(static_cast<uint64_t>(mx)));
      }
      if (hi < lo) continue;
      field = (hi >= 63 ? ~uint64_t{0} : ((uint64_t{1} << (hi + 1)) - 1)) & ~((uint64_t{1} << lo) - 1);
    }
    if (all & field) return std::nullopt;  // overlapping fields could carry
    all |= field;
  }
  return all;
}

unsigned AffineAnalysis::trailingZeros(const Value &v) const {
  if (!v.known) return v.tz;
  unsigned best = 64;
  for (const auto &[m, c] : v.poly.terms()) {
    unsigned t = ctz64(static_cast<uint64_t>(c));
    for (auto id : m) t += syms_[id].kind == Symbol::Kind::Uniform ? syms_[id].tz : 0;
    best = std::min(best, t);
  }
  return best;
}

std::optional<uint64_t> AffineAnalysis::upperBound(const Value &v) const {
  return boundWith(v, [&](uint16_t id) { return symbolMax(syms_[id]); });
}

std::optional<uint64_t> AffineAnalysis::upperBoundAt(const Value &v, uint32_t at) {
  if (!v.known) return v.umax;
  // The counters of loops around `at` whose trip count is a constant T >= 1
  // from an induction variable of step +-1 (the count of a `ne` test is
  // exact only then, and only when the start lies before the bound: T = 0
  // may be a `ne` loop that wraps around): k <= T - 1. Fewer iterations
  // (an early exit) only lower it.
  std::map<uint16_t, uint64_t> counters;
  bool any = false;
  for (const auto &[m, c] : v.poly.terms())
    for (auto id : m) any = any || syms_[id].kind == Symbol::Kind::LoopCounter;
  // (Computing the induction variables may add symbols: no reference into
  // syms_ may live across it.)
  const std::vector<InductionVar> &ivs = any ? inductionVars() : ivs_;
  for (const auto &[m, c] : v.poly.terms())
    for (auto id : m) {
      const Symbol::Kind kind = syms_[id].kind;
      const uint32_t loop = syms_[id].loop;
      if (kind != Symbol::Kind::LoopCounter || counters.count(id)) continue;
      if (!loops_.loops()[loop].contains(cfg_.blockOf(at))) continue;
      for (const auto &iv : ivs) {
        auto st = iv.step.constantValue();
        if (iv.loop == loop && iv.tripConstant && *iv.tripConstant >= 1 && st && (*st == 1 || *st == -1)) {
          counters[id] = *iv.tripConstant - 1;
          break;
        }
      }
    }
  return boundWith(v, [&](uint16_t id) -> std::optional<uint64_t> {
    if (auto it = counters.find(id); it != counters.end()) return it->second;
    return symbolMax(syms_[id]);
  });
}

std::optional<uint64_t> AffineAnalysis::boundWith(
    const Value &v, const std::function<std::optional<uint64_t>(uint16_t)> &symMax) const {
  if (!v.known) return v.umax;
  unsigned __int128 sum = 0;
  for (const auto &[m, c] : v.poly.terms()) {
    if (c < 0) return std::nullopt;
    unsigned __int128 t = static_cast<uint64_t>(c);
    for (auto id : m) {
      auto b = symMax(id);
      if (!b) return std::nullopt;
      t *= *b;
      if (t >> 64) return std::nullopt;
    }
    sum += t;
    if (sum >> 63) return std::nullopt;
  }
  return static_cast<uint64_t>(sum);
}

/// and, or, xor: the value when the operands' known bits make it one of
/// them or a sum (bits that cannot both be set), else unknown with the
/// trailing zeros and the bound that hold.
Value AffineAnalysis::evalAndOrXor(std::string_view base, const std::string &name, unsigned w, const Value &a,
                                   const Value &b) {
  const uint64_t M = maskOf(w);
  auto cst = [&](const Value &v) { return constantBits(v, M); };
  const BitResult R{w};
  unsigned ta = trailingZeros(a), tb = trailingZeros(b);
  auto ua = upperBound(a), ub = upperBound(b);
  if (base == "and") {
    for (int s = 0; s < 2; ++s) {
      const Value &x = s ? b : a, &m = s ? a : b;
      auto mc = cst(m);
      if (!mc || !x.known) continue;
      // x has no bit outside the mask...
      if (auto bits = possibleBits(x.poly); bits && (*bits & ~*mc & M) == 0 && (*bits & ~M) == 0) return x;
      // ...or the mask clears the low j bits of a multiple of 2^j.
      unsigned j = ctz64(*mc);
      if (*mc && *mc == (M & ~((uint64_t{1} << j) - 1)) && trailingZeros(x) >= j) return x;
      if (auto ux = upperBound(x); ux && (*ux & ~*mc) == 0 && *ux == fill(*ux)) return x;
    }
    return R.because({&a, &b}, name + " on bits that may overlap", UnknownCause::Unsupported, std::max(ta, tb),
                     minOpt(ua, ub));
  }
  if (a.known && b.known) {
    if (base == "xor" && (cst(a) == M || cst(b) == M))  // ~x = -x - 1
      return combine(negate(cst(a) == M ? b : a), Value::of(Poly::constant(-1)), Poly::add);
    // Bits that cannot both be set: x | y = x ^ y = x + y.
    auto ba = possibleBits(a.poly), bb = possibleBits(b.poly);
    if (ba && bb && !(*ba & *bb)) return combine(a, b, Poly::add);
    if ((ub && ta < 64 && (*ub >> ta) == 0) || (ua && tb < 64 && (*ua >> tb) == 0) || ta == 64 || tb == 64)
      return combine(a, b, Poly::add);
  }
  std::optional<uint64_t> u;
  if (ua && ub) u = fill(*ua | *ub);
  return R.because({&a, &b}, name + " on bits that may overlap", UnknownCause::Unsupported, std::min(ta, tb), u);
}

std::optional<Value> AffineAnalysis::evalBitOp(uint32_t def, const Instruction &in) {
  std::string_view base = in.base();
  static const std::string_view handled[] = {"and", "or", "xor", "shr", "selp", "min", "max", "rem", "bfe", "bfi"};
  if (std::find(std::begin(handled), std::end(handled), base) == std::end(handled)) return std::nullopt;
  const std::string name(in.opcode);
  const unsigned w = widthOf(in);
  size_t need = base == "selp" || base == "bfe" ? 4 : base == "bfi" ? 5 : 3;
  if (!w || w > 64 || in.operands.size() != need) return Value::unknown(name, UnknownCause::Unsupported);
  const uint64_t M = maskOf(w);
  auto op = [&](size_t i) { return operandValue(def, in.operands[i]); };
  auto cst = [&](const Value &v) { return constantBits(v, M); };
  const BitResult R{w};
  auto nonNegative = [&](const Value &x) {
    if (!x.known) return x.umax.has_value();
    if (upperBound(x)) return true;
    for (const auto &[m, c] : x.poly.terms()) {
      if (c < 0) return false;
      for (auto id : m) {
        const Symbol &s = syms_[id];
        if (s.kind == Symbol::Kind::Param || (s.kind == Symbol::Kind::Uniform && !s.umax)) return false;
      }
    }
    return true;
  };
  if (base == "and" || base == "or" || base == "xor") {
    Value a = op(1), b = op(2);
    return evalAndOrXor(base, name, w, a, b);
  }
  if (base == "shr") {
    Value x = op(1);
    auto k = cst(op(2));
    bool arith = in.hasModifier(".s16") || in.hasModifier(".s32") || in.hasModifier(".s64");
    if (!k || *k >= w) return R.with(name + " by a non-constant amount", UnknownCause::Unsupported, 0, std::nullopt);
    unsigned tx = trailingZeros(x);
    int64_t d = int64_t{1} << *k;
    if (x.known && (arith || nonNegative(x))) {
      // Exact when every coefficient is a multiple of 2^k (divExact checks).
      Poly q;
      if (Poly::divExact(x.poly, d, q)) {
        Value r = x;
        r.poly = q;
        return r;
      }
    }
    std::optional<uint64_t> u;
    if (auto ux = upperBound(x)) u = *ux >> *k;
    else if (!arith && *k > 0) u = M >> *k;
    return R.because({&x}, name + " is not exact", UnknownCause::Unsupported,
                     tx > *k ? tx - static_cast<unsigned>(*k) : 0, u);
  }
  if (base == "selp") {
    Value a = op(1), b = op(2);
    if (samePoly(a, b)) return a;
    return R.because({&a, &b}, name + " between different values", UnknownCause::PathDependent,
                     std::min(trailingZeros(a), trailingZeros(b)), maxBoth(upperBound(a), upperBound(b)));
  }
  if (base == "min" || base == "max") {
    Value a = op(1), b = op(2);
    if (samePoly(a, b)) return a;
    bool isUnsigned = in.hasModifier(".u16") || in.hasModifier(".u32") || in.hasModifier(".u64");
    auto ua = upperBound(a), ub = upperBound(b);
    std::optional<uint64_t> u;
    if (base == "min") u = isUnsigned ? minOpt(ua, ub) : (ua && ub ? std::min(*ua, *ub) : std::optional<uint64_t>());
    else u = maxBoth(ua, ub);
    return R.because({&a, &b}, name, UnknownCause::Unsupported, std::min(trailingZeros(a), trailingZeros(b)), u);
  }
  if (base == "rem") {
    Value x = op(1);
    auto c = cst(op(2));
    bool isUnsigned = !(in.hasModifier(".s16") || in.hasModifier(".s32") || in.hasModifier(".s64"));
    auto ux = upperBound(x);
    if (c && *c > 0 && ux && *ux < *c) return x;  // x % c = x for 0 <= x < c
    std::optional<uint64_t> u;
    if (c && *c > 0 && (isUnsigned || ux)) u = *c - 1;
    return R.because({&x}, name, UnknownCause::Unsupported, 0, u);
  }
  if (base == "bfi") {
    // bfi d, a, b, pos, len: b with bits [pos, pos+len) replaced by the low
    // len bits of a. When b has no bit from pos up and a fits in len bits
    // (or the field reaches the top, where the bits of a above it fall off
    // as they would in shl), it is a*2^pos + b.
    Value a = op(1), b = op(2);
    auto pos = cst(op(3)), len = cst(op(4));
    if (a.known && b.known && pos && len && *pos < w && *len > 0 && *pos + *len <= w) {
      auto ub = upperBound(b), ua = upperBound(a);
      bool bLow = ub && (*ub >> *pos) == 0;
      bool aFits = *pos + *len == w || (ua && *len < 64 && (*ua >> *len) == 0);
      if (bLow && aFits) return combine(combine(a, Value::of(Poly::constant(int64_t{1} << *pos)), Poly::mul), b, Poly::add);
    }
    return R.with(name, UnknownCause::Unsupported, 0, std::nullopt);
  }
  // bfe.u d, a, pos, len: (a >> pos) & (2^len - 1).
  Value a = op(1);
  auto pos = cst(op(2)), len = cst(op(3));
  bool isUnsigned = in.hasModifier(".u32") || in.hasModifier(".u64");
  if (isUnsigned && pos && len && *len < w) {
    auto ua = upperBound(a);
    if (*pos == 0 && ua && (*ua >> *len) == 0) return a;
    return R.with(name, UnknownCause::Unsupported, 0, (uint64_t{1} << *len) - 1);
  }
  return R.with(name, UnknownCause::Unsupported, 0, std::nullopt);
}

}  // namespace ptxopt::analysis
