// Intervals of floating-point values, and the comparisons they decide.
//
// What: the interval a float register holds, computed from its only
// definition: conversions of integers whose bounds the affine analysis
// proves (thread indices from the launch limits, constants, sums and
// products of them), immediates, and add/sub/mul/fma/div/min/max/abs/neg of
// such values; and the value of a `setp` on two such intervals when they
// do not overlap in the way the comparison asks.
// Why: nvcc's inlined sinf/cosf branch on |x| < 105615 to choose a fast
// path of pure arithmetic over the Payne-Hanek reduction through a local
// array. When the argument is a thread index times constants (the DCT's
// cos((2x+1) u pi/16)), the comparison is true for every thread the
// hardware can launch; the reuse pass then treats the slow path as dead
// and moves the cosine out of its loop.
// Integers: the affine analysis's bound, with the counters of loops around
// the conversion bounded by their constant trip counts (the DCT's cos(y):
// (2y + 1) v with y < 8).
// Algorithm: recursion over the definition that reaches each read
// (analysis/ReachingDefs.cpp: exactly one, an unguarded instruction, not the
// entry value; memoized per definition; depth-limited). Bounds are computed in double and widened
// after every operation by 2^-20 of their magnitude plus 2^-100: more than
// the rounding of any f32/f64 operation (2^-24 relative, or 2 ulp for the
// .approx forms) and than a denormal flushed to zero (.ftz), so the true
// result always lies inside. An interval that is not finite (or exceeds
// the f32 range for f32 operations) is no interval: NaN and infinities
// never enter, which is why the unordered comparisons (ltu, geu) decide
// like the ordered ones.
// Refuses (nullopt): reads that several definitions, a guarded one or the
// entry value may reach, integer
// values without a proven non-negative bound below 2^(w-1) of their width
// (or a constant), .sat forms, packed types, divisors whose interval holds
// zero, anything else.
#include "ptxopt/analysis/FloatRange.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>

#include "ptxopt/analysis/Affine.h"
#include "ptxopt/analysis/Semantics.h"

namespace ptxopt::analysis {

using ir::Instruction;
using ir::Operand;

namespace {

constexpr unsigned kMaxDepth = 48;

/// .f32 -> 32, .f64 -> 64, 0 when the instruction's first type is another.
unsigned floatBits(const Instruction &in) {
  unsigned bits = 0;
  in.anyModifier([&](std::string_view m) {
    if (m == ".f32") bits = 32;
    else if (m == ".f64") bits = 64;
    else if (typeBytes(m) == 0) return false;  // not a type: keep looking
    return true;  // the first type decides
  });
  return bits;
}

std::optional<Interval> finite(Interval x, unsigned bits) {
  const double e = 0x1p-20, tiny = 0x1p-100;
  x.lo -= std::fabs(x.lo) * e + tiny;
  x.hi += std::fabs(x.hi) * e + tiny;
  const double lim = bits == 32 ? 3.0e38 : 1.0e307;
  if (!(x.lo >= -lim && x.hi <= lim && x.lo <= x.hi)) return std::nullopt;  // NaN fails too
  return x;
}

Interval mul(Interval a, Interval b) {
  double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

std::optional<double> floatImmediate(std::string_view t) {
  if (t.size() == 10 && (t.substr(0, 2) == "0f" || t.substr(0, 2) == "0F")) {
    uint32_t bits = static_cast<uint32_t>(std::strtoul(std::string(t.substr(2)).c_str(), nullptr, 16));
    float f = std::bit_cast<float>(bits);
    if (!std::isfinite(f)) return std::nullopt;
    return f;
  }
  if (t.size() == 18 && (t.substr(0, 2) == "0d" || t.substr(0, 2) == "0D")) {
    uint64_t bits = std::strtoull(std::string(t.substr(2)).c_str(), nullptr, 16);
    double d = std::bit_cast<double>(bits);
    if (!std::isfinite(d)) return std::nullopt;
    return d;
  }
  if (auto v = Operand::imm(t).intValue()) return static_cast<double>(*v);
  std::string s(t);
  char *end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(d)) return std::nullopt;
  return d;
}

}  // namespace

uint32_t FloatRanges::reaching(uint32_t at, std::string_view r) const {
  const auto d = fa_.defs().defsAt(at, r);
  if (d.size() != 1 || d[0] == ReachingDefs::kEntry) return UINT32_MAX;
  return fa_.cfg().instructions()[d[0]]->guard.empty() ? d[0] : UINT32_MAX;
}

std::optional<Interval> FloatRanges::floatOperand(uint32_t at, const Operand &o, unsigned depth) {
  if (o.kind == Operand::Kind::Register) {
    const uint32_t d = reaching(at, o.text);
    return d == UINT32_MAX ? std::nullopt : def(d, o.text, depth + 1);
  }
  if (o.kind == Operand::Kind::Immediate)
    if (auto v = floatImmediate(o.text)) return Interval{*v, *v};
  return std::nullopt;
}

std::optional<Interval> FloatRanges::intOperand(uint32_t at, const Operand &o, unsigned bits) {
  if (o.kind == Operand::Kind::Immediate) {
    if (auto v = o.intValue()) return Interval{static_cast<double>(*v), static_cast<double>(*v)};
    return std::nullopt;
  }
  if (o.kind != Operand::Kind::Register) return std::nullopt;
  AffineAnalysis &af = fa_.affine();
  Value v = af.operandValue(at, o);
  if (v.known)
    if (auto c = v.poly.constantValue()) return Interval{static_cast<double>(*c), static_cast<double>(*c)};
  auto ub = af.upperBoundAt(v, at);
  // 0 <= value <= ub, the same value read signed or unsigned at this width.
  if (!ub || bits == 0 || (bits < 64 && *ub >= (uint64_t{1} << (bits - 1)))) return std::nullopt;
  return Interval{0.0, static_cast<double>(*ub)};
}

std::optional<Interval> FloatRanges::def(uint32_t d, std::string_view r, unsigned depth) {
  if (depth > kMaxDepth) return std::nullopt;
  if (auto it = memo_.find(d); it != memo_.end()) return it->second;
  memo_[d] = std::nullopt;  // a cycle reads as unknown
  std::optional<Interval> out;
  {
    const Instruction &in = *fa_.cfg().instructions()[d];
    const std::string_view b = in.base();
    const unsigned bits = floatBits(in);
    const auto &ops = in.operands;
    const bool sat = in.hasModifier(".sat");
    auto arg = [&](size_t i) { return i < ops.size() ? floatOperand(d, ops[i], depth) : std::nullopt; };
    std::optional<Interval> res;
    if (bits && !sat && ops.size() >= 2 && ops[0].kind == Operand::Kind::Register && ops[0].text == r) {
      if (b == "mov" && ops.size() == 2) res = arg(1);
      else if (b == "abs" && ops.size() == 2) {
        if (auto a = arg(1))
          res = a->lo >= 0 ? *a : a->hi <= 0 ? Interval{-a->hi, -a->lo} : Interval{0.0, std::max(-a->lo, a->hi)};
      } else if (b == "neg" && ops.size() == 2) {
        if (auto a = arg(1)) res = Interval{-a->hi, -a->lo};
      } else if ((b == "add" || b == "sub" || b == "mul" || b == "div" || b == "min" || b == "max") && ops.size() == 3) {
        auto x = arg(1), y = arg(2);
        if (x && y) {
          if (b == "add") res = Interval{x->lo + y->lo, x->hi + y->hi};
          else if (b == "sub") res = Interval{x->lo - y->hi, x->hi - y->lo};
          else if (b == "mul") res = mul(*x, *y);
          else if (b == "min") res = Interval{std::min(x->lo, y->lo), std::min(x->hi, y->hi)};
          else if (b == "max") res = Interval{std::max(x->lo, y->lo), std::max(x->hi, y->hi)};
          else if (y->lo > 0 || y->hi < 0) res = mul(*x, Interval{1.0 / y->hi, 1.0 / y->lo});
          if (res && (b == "mul" || b == "div")) res = finite(*res, bits);  // before a sum can hide its size
        }
      } else if ((b == "fma" || b == "mad") && ops.size() == 4) {
        auto x = arg(1), y = arg(2), z = arg(3);
        if (x && y && z)
          if (auto p = finite(mul(*x, *y), bits)) res = Interval{p->lo + z->lo, p->hi + z->hi};
      } else if (b == "cvt" && ops.size() == 2) {
        // cvt.<rnd>.<dst>.<src>: the source type is the last type modifier.
        std::string_view src;
        bool integral = false;
        for (auto m : in.modifiers()) {
          if (typeBytes(m)) src = m;
          integral = integral || m == ".rni" || m == ".rzi" || m == ".rmi" || m == ".rpi";
        }
        if (src.size() > 1 && (src[1] == 's' || src[1] == 'u')) res = intOperand(d, ops[1], typeBytes(src) * 8);
        else if (src == ".f32" || src == ".f64")
          if (auto a = arg(1)) res = integral ? Interval{std::floor(a->lo), std::ceil(a->hi)} : *a;
      }
    }
    if (res) out = finite(*res, bits);
  }
  memo_[d] = out;
  return out;
}

std::optional<bool> FloatRanges::predicate(uint32_t at, std::string_view p) {
  const uint32_t d = reaching(at, p);
  if (d == UINT32_MAX) return std::nullopt;
  const Instruction &in = *fa_.cfg().instructions()[d];
  if (in.base() != "setp" || !floatBits(in) || in.operands.size() != 3) return std::nullopt;
  if (in.operands[0].kind != Operand::Kind::Register || in.operands[0].text != p) return std::nullopt;  // not p|q
  auto a = floatOperand(d, in.operands[1], 0), b = floatOperand(d, in.operands[2], 0);
  if (!a || !b) return std::nullopt;
  auto mods = in.modifiers();
  if (mods.empty()) return std::nullopt;
  std::string_view cmp = mods[0];
  if (cmp.size() == 4 && cmp.back() == 'u' && cmp != ".neu" && cmp != ".equ") cmp = cmp.substr(0, 3);  // ltu -> lt: no NaN
  if (cmp == ".equ") cmp = ".eq";
  if (cmp == ".neu") cmp = ".ne";
  if (cmp == ".lt") {
    if (a->hi < b->lo) return true;
    if (a->lo >= b->hi) return false;
  } else if (cmp == ".le") {
    if (a->hi <= b->lo) return true;
    if (a->lo > b->hi) return false;
  } else if (cmp == ".gt") {
    if (a->lo > b->hi) return true;
    if (a->hi <= b->lo) return false;
  } else if (cmp == ".ge") {
    if (a->lo >= b->hi) return true;
    if (a->hi < b->lo) return false;
  } else if (cmp == ".eq" || cmp == ".ne") {
    if (a->hi < b->lo || b->hi < a->lo) return cmp == ".ne";
  } else if (cmp == ".num") return true;
  else if (cmp == ".nan") return false;
  return std::nullopt;
}

std::string FloatRanges::print() {
  auto num = [](double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.7g", x);
    return std::string(buf);
  };
  std::string out;
  const auto &cfg = fa_.cfg();
  for (uint32_t i = 0; i < cfg.instructions().size(); ++i) {
    if (!cfg.blocks()[cfg.blockOf(i)].reachable) continue;
    const Instruction &in = *cfg.instructions()[i];
    if (floatBits(in) && in.base() != "setp" && !in.operands.empty() &&
        in.operands[0].kind == Operand::Kind::Register) {
      auto v = def(i, in.operands[0].text, 0);
      out += std::to_string(i);
      out += ": ";
      out += in.operands[0].text;
      out += " = ";
      if (v) {
        out += '[';
        out += num(v->lo);
        out += ", ";
        out += num(v->hi);
        out += ']';
      } else {
        out += "unknown";
      }
      out += '\n';
    }
    if (!in.guard.empty())
      if (auto p = predicate(i, in.guard))
        out += std::to_string(i) + ": @" + std::string(in.guard) + " = " + (*p ? "true" : "false") + "\n";
  }
  return out;
}

}  // namespace ptxopt::analysis
