// rowwalk: row-length floors on a parameter the kernel divides (`for (k =
// 0; k < cols / 4; k++)`, a float4 row of cols / 4 pieces; `n = cols / 3`).
// Overview: RowWalk.cpp.
//
// What: the row-length launch conditions (minParams) ask each integer
// parameter the trip count is computed from to be at least the clone's
// floor (256 elements for the staged clone, kLaneMinRow for the lanes
// clones): right where the parameter is the row length. Where the loop's
// bound is the parameter divided (nvcc's `shr.s32 x, 31; shr.u32; add;
// shr.s32` for a signed division by 4, `mul.hi` by a magic number for 3),
// `cols >= 256` lets rows of 64 float4 pieces or 85 floats run the clone,
// under the floor it was measured faster on (rule 1).
// Algorithm: the loop's bound register is evaluated as a function of the
// one parameter it is computed from (its definitions before the loop, each
// a single reaching definition: mov, add, sub, mul, mul.hi, mul.wide, shl,
// shr, and, or, xor, not, neg, cvt, div, rem, min, max of that parameter
// and immediates), and the floor is the least value v of the parameter
// whose bound reaches the row length, found by bisection over [0, 2^31)
// where the bound is non-decreasing (checked at 64 points from v up). Only
// where the bound's definitions hold a division (shr, div, mul.hi): other
// bounds keep the parameter's own floor, as measured.
// Refuses: nothing; a bound it cannot evaluate, or not monotone, keeps
// the parameter's floor as before (divisionFloors returns nothing).
// evalReg, the evaluator, also serves the rows' sampled alignment
// (RowWalkStagedAlign.cpp, sampledMisalignment).
#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

namespace {
/// Bits of an integer type modifier (.s32, .u64, .b16, ...), 0 otherwise.
unsigned typeBits(std::string_view t) {
  if (t.size() < 3 || (t[1] != 's' && t[1] != 'u' && t[1] != 'b')) return 0;
  if (t.substr(2) == "64") return 64;
  if (t.substr(2) == "32") return 32;
  if (t.substr(2) == "16") return 16;
  return 0;
}

/// `v` as a signed value of `bits` bits.
int64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64) return int64_t(v);
  const uint64_t m = uint64_t(1) << (bits - 1);
  v &= (m << 1) - 1;
  return int64_t((v ^ m) - m);
}
uint64_t zext(uint64_t v, unsigned bits) { return bits >= 64 ? v : v & ((uint64_t(1) << bits) - 1); }
}  // namespace

std::optional<int64_t> Planner::evalReg(uint32_t at, std::string_view reg, EvalEnv &env, int depth,
                                        const LoopBlock *outside) {
  if (depth > 24) return std::nullopt;
  auto defs = fa_.defs().defsAt(at, reg);
  if (outside)  // the value at the loop's entry: not its update in the loop
    std::erase_if(defs, [&](uint32_t d) {
      const auto it = stmtOf_.find(d);
      return it != stmtOf_.end() && it->second > outside->hs && it->second <= outside->ls;
    });
  if (defs.size() != 1 || defs[0] == analysis::ReachingDefs::kEntry) return std::nullopt;
  const uint32_t d = defs[0];
  const Instruction &in = *fa_.cfg().instructions()[d];
  if (!in.guard.empty() || in.operands.empty()) return std::nullopt;
  const std::string_view base = in.base();
  if (base == "ld") {
    if (!in.hasModifier(".param") || in.operands.size() != 2 || in.operands[1].kind != Operand::Kind::Address ||
        in.operands[1].elems.size() != 1)
      return std::nullopt;
    return env.param(paramIndex(k_, in.operands[1].elems[0].text));
  }
  if (base == "mov" && in.operands.size() == 2 && in.operands[1].isReg() && env.special) {
    const std::string_view src = in.operands[1].text;
    for (std::string_view sreg : {"%tid.", "%ctaid.", "%ntid.", "%nctaid."})
      if (src.starts_with(sreg)) return env.special(src);
  }
  const auto mods = in.modifiers();
  if (mods.empty()) return std::nullopt;
  const unsigned bits = typeBits(mods.back());
  if (!bits) return std::nullopt;
  std::vector<int64_t> v;  // the sources' values
  for (size_t o = 1; o < in.operands.size(); ++o) {
    const Operand &op = in.operands[o];
    if (auto imm = op.intValue()) v.push_back(*imm);
    else if (op.isReg()) {
      auto x = evalReg(d, op.text, env, depth + 1, nullptr);
      if (!x) return std::nullopt;
      v.push_back(*x);
    } else {
      return std::nullopt;
    }
  }
  auto s = [&](size_t i) { return sext(uint64_t(v[i]), bits); };
  auto u = [&](size_t i) { return zext(uint64_t(v[i]), bits); };
  const bool sgn = mods.back()[1] == 's';
  if (base == "cvt" && mods.size() >= 2 && v.size() == 1) {
    const unsigned from = typeBits(mods[mods.size() - 1]), to = typeBits(mods[mods.size() - 2]);
    if (!from || !to) return std::nullopt;
    const uint64_t x = mods.back()[1] == 's' ? uint64_t(sext(uint64_t(v[0]), from)) : zext(uint64_t(v[0]), from);
    return sext(x, to);
  }
  if ((base == "mov" || base == "cvta") && v.size() == 1) return s(0);
  if (base == "not" && v.size() == 1) return sext(~uint64_t(v[0]), bits);
  if (base == "neg" && v.size() == 1) return sext(0 - uint64_t(v[0]), bits);
  const bool wide = in.hasModifier(".wide"), hi = in.hasModifier(".hi");
  if (base == "mad" && v.size() == 3 && !hi) {  // mad.lo, mad.wide (of 32-bit sources)
    if (wide && bits > 32) return std::nullopt;
    const int64_t p = wide ? (sgn ? s(0) * s(1) : int64_t(u(0) * u(1))) : sext(uint64_t(v[0]) * uint64_t(v[1]), bits);
    return wide ? p + v[2] : sext(uint64_t(p) + uint64_t(v[2]), bits);
  }
  if (v.size() != 2) return std::nullopt;
  if (base == "add") return sext(uint64_t(v[0]) + uint64_t(v[1]), bits);
  if (base == "sub") return sext(uint64_t(v[0]) - uint64_t(v[1]), bits);
  if (base == "and") return sext(uint64_t(v[0]) & uint64_t(v[1]), bits);
  if (base == "or") return sext(uint64_t(v[0]) | uint64_t(v[1]), bits);
  if (base == "xor") return sext(uint64_t(v[0]) ^ uint64_t(v[1]), bits);
  if (base == "min") return sgn ? std::min(s(0), s(1)) : int64_t(std::min(u(0), u(1)));
  if (base == "max") return sgn ? std::max(s(0), s(1)) : int64_t(std::max(u(0), u(1)));
  if (base == "shl") return v[1] < 0 || v[1] >= int64_t(bits) ? 0 : sext(uint64_t(v[0]) << v[1], bits);
  if (base == "shr") {
    env.divides = true;
    const int64_t n = std::min<int64_t>(v[1], bits - 1);
    if (v[1] < 0) return std::nullopt;
    if (sgn) return s(0) >> n;
    return v[1] >= int64_t(bits) ? 0 : int64_t(u(0) >> n);
  }
  if (base == "mul" && bits <= 32 && (wide || hi)) {
    const int64_t p = sgn ? s(0) * s(1) : int64_t(u(0) * u(1));
    if (wide) return p;
    env.divides = true;
    return sext(uint64_t(p) >> bits, bits);
  }
  if (base == "mul") return sext(uint64_t(v[0]) * uint64_t(v[1]), bits);
  if ((base == "div" || base == "rem") && v[1] != 0) {
    env.divides = true;
    if (sgn) return base == "div" ? s(0) / s(1) : s(0) % s(1);
    return int64_t(base == "div" ? u(0) / u(1) : u(0) % u(1));
  }
  return std::nullopt;
}

std::map<int64_t, int64_t> Planner::divisionFloors(const LoopBlock &L, const LanePlan &lp, uint32_t entry) {
  std::map<int64_t, int64_t> out;
  if (lp.tripParams.size() != 1 || !lp.tripFields.empty() || lp.bound.empty() || !lp.boundOffset.empty() ||
      !lp.setpAt || lp.ivs[lp.tested].bits != 32)
    return out;
  const int p = *lp.tripParams.begin();
  const uint32_t at = instrOf_.at(lp.setpAt);
  EvalEnv env;
  int64_t v = 0;
  env.param = [&](int q) -> std::optional<int64_t> {
    if (q == p) return v;
    return std::nullopt;
  };
  // The counter's distance from its start to the bound (`for (k = 0; k <
  // cols / 4; k++)` counts up to the bound; nvcc's unrolled loop counts a
  // copy of it down to 0).
  auto bound = [&](int64_t value) -> std::optional<int64_t> {
    v = value;
    const auto start = evalReg(entry, lp.ivs[lp.tested].reg, env, 0, &L);
    std::optional<int64_t> end;
    if (auto imm = Operand{Operand::Kind::Immediate, lp.bound, {}}.intValue(); lp.bound[0] != '%') end = imm;
    else end = evalReg(at, lp.bound, env, 0, nullptr);
    if (!start || !end) return std::nullopt;
    return *end > *start ? *end - *start : *start - *end;
  };
  if (!bound(1 << 20) || !env.divides) return out;
  for (int64_t minRow : {int64_t(32), kMinRow, kStagedMinRow}) {
    int64_t lo = 0, hi = int64_t(1) << 31;  // bound(hi) >= minRow must hold
    const auto top = bound(hi - 1);
    if (!top || *top < minRow) return {};
    while (lo + 1 < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      const auto b = bound(mid);
      if (!b) return {};
      (*b >= minRow ? hi : lo) = mid;
    }
    // Non-decreasing from the floor up (sampled): else the floor says nothing.
    std::optional<int64_t> prev = bound(hi);
    for (int64_t x = hi, step = 1; x < (int64_t(1) << 31); x += step, step *= 2) {
      const auto b = bound(x);
      if (!b || *b < *prev) return {};
      prev = b;
    }
    out[minRow] = hi;
  }
  return out;
}

}  // namespace ptxopt::transforms::rowwalk
