// Affine (polynomial) address analysis.
//
// What: the value of each register read, as a polynomial over %tid/%ctaid/
// %ntid/%nctaid, kernel parameters, global addresses and loop counters.
// Why: an access's address polynomial gives its stride along each thread
// index, hence how many memory sectors a warp touches and which index would
// make the access unit-stride: the facts the coalescing and grouping passes
// decide from.
// Algorithm: demand-driven evaluation over reaching definitions, memoized
// per (definition, register). mov/add/sub/mul.lo/mul.wide/mad.lo/mad.wide/
// shl-by-constant/neg/not/integer cvt/cvta/ld.param (scalar or vector) are followed; a register
// with one reaching definition takes its value; with several it is either a
// loop induction variable (one definition before the loop, one `add r, r,
// step` that runs on every iteration, step loop-invariant), valued
// init + step*k with k the loop's normalized counter, or the definitions
// must all agree, else "differs by path".
// Wrap rules: 32-bit results widened by cvt/mul.wide.s32 are exact unless the
// 32-bit signed computation overflowed, which is undefined behaviour in the
// CUDA C++ source, so it is assumed not to (noted as signedWiden); through
// .u32 a wrap is defined behaviour and possible, so the value is exact only
// if none happened (noted as unsignedWiden, reported with the access).
// Bit operations (and/or/xor/shr/selp/min/max/rem/bfe) are affine when
// their known bits say so (KnownBits.cpp); calls in Calls.cpp; what is
// the same for every thread but not a polynomial becomes a Uniform symbol,
// and definitions that differ only in such terms merge (UniformValues.cpp).
// Refuses (unknown, with a reason): loads from memory, division, right
// shifts and masks that are not exact, selects between different values,
// float arithmetic, other special registers, calls.
#include "ptxopt/analysis/Affine.h"

#include <algorithm>
#include <array>

#include "ptxopt/analysis/Semantics.h"

namespace ptxopt::analysis {

const char *causeName(UnknownCause c) {
  switch (c) {
  case UnknownCause::Other: return "other";
  case UnknownCause::DataDependent: return "data-dependent";
  case UnknownCause::Atomic: return "atomic result";
  case UnknownCause::Call: return "call";
  case UnknownCause::PathDependent: return "path-dependent non-uniform value";
  case UnknownCause::Unsupported: return "unsupported instruction";
  case UnknownCause::FloatingPoint: return "floating point";
  case UnknownCause::Overflow: return "overflow";
  }
  return "other";
}


using ir::Instruction;
using ir::Operand;

// ---------------------------------------------------------------- Poly

Poly Poly::constant(int64_t c) {
  Poly p;
  if (c) p.terms_.push_back({Mono{}, c});
  return p;
}

Poly Poly::symbol(uint16_t id) {
  Poly p;
  p.terms_.push_back({Mono{id}, 1});
  return p;
}

std::optional<int64_t> Poly::constantValue() const {
  if (terms_.empty()) return 0;
  if (terms_.size() == 1 && terms_.begin()->first.empty()) return terms_.begin()->second;
  return std::nullopt;
}

int64_t Poly::constantTerm() const {
  // The empty monomial sorts first.
  return !terms_.empty() && terms_[0].first.empty() ? terms_[0].second : 0;
}

bool Poly::add(const Poly &a, const Poly &b, Poly &out) {
  // A merge of the two sorted term lists.
  Terms r;
  r.reserve(a.terms_.size() + b.terms_.size());
  auto x = a.terms_.begin(), y = b.terms_.begin();
  while (x != a.terms_.end() || y != b.terms_.end()) {
    if (y == b.terms_.end() || (x != a.terms_.end() && x->first < y->first)) r.push_back(*x++);
    else if (x == a.terms_.end() || y->first < x->first) r.push_back(*y++);
    else {
      int64_t c;
      if (__builtin_add_overflow(x->second, y->second, &c)) return false;
      if (c) r.push_back({x->first, c});
      ++x, ++y;
    }
  }
  out.terms_ = std::move(r);
  return true;
}

bool Poly::scale(const Poly &a, int64_t k, Poly &out) {
  Terms r;
  if (k) {
    r.reserve(a.terms_.size());
    for (const auto &[m, c] : a.terms_) {
      int64_t x;
      if (__builtin_mul_overflow(c, k, &x)) return false;
      r.push_back({m, x});
    }
  }
  out.terms_ = std::move(r);
  return true;
}

bool Poly::divExact(const Poly &a, int64_t d, Poly &out) {
  if (d == 0) return false;
  Terms r;
  r.reserve(a.terms_.size());
  for (const auto &[m, c] : a.terms_) {
    if (c % d) return false;
    r.push_back({m, c / d});
  }
  out.terms_ = std::move(r);
  return true;
}

bool Poly::mul(const Poly &a, const Poly &b, Poly &out) {
  // The products in the order a map accumulated them before (so that an
  // intermediate overflow is found the same way), grouped by monomial.
  Terms prods;
  prods.reserve(a.terms_.size() * b.terms_.size());
  for (const auto &[ma, ca] : a.terms_)
    for (const auto &[mb, cb] : b.terms_) {
      if (ma.size() + mb.size() > Mono::kMax) return false;
      Mono m = ma;
      for (auto id : mb) m.push_back(id);
      m.sort();
      int64_t c;
      if (__builtin_mul_overflow(ca, cb, &c)) return false;
      prods.push_back({m, c});
    }
  // (std::stable_sort allocates a buffer even for one element: most products are of one term by one.)
  if (prods.size() > 1)
    std::stable_sort(prods.begin(), prods.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
  Terms r;
  for (size_t i = 0; i < prods.size();) {
    int64_t x = 0;
    size_t j = i;
    for (; j < prods.size() && prods[j].first == prods[i].first; ++j)
      if (__builtin_add_overflow(x, prods[j].second, &x)) return false;
    if (x) r.push_back({prods[i].first, x});
    i = j;
  }
  out.terms_ = std::move(r);
  return true;
}

Poly Poly::coefficientOf(uint16_t sym, bool &nonlinear) const {
  Poly r;
  nonlinear = false;
  for (const auto &[m, c] : terms_) {
    auto n = std::count(m.begin(), m.end(), sym);
    if (n == 0) continue;
    if (n > 1) {
      nonlinear = true;
      continue;
    }
    Mono rest;
    for (auto s : m)
      if (s != sym) rest.push_back(s);
    r.terms_.push_back({rest, c});  // distinct: each is its term's monomial without the one `sym`
  }
  std::sort(r.terms_.begin(), r.terms_.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
  return r;
}

bool Poly::contains(uint16_t sym) const {
  for (const auto &[m, c] : terms_)
    if (std::find(m.begin(), m.end(), sym) != m.end()) return true;
  return false;
}

Poly Poly::without(uint16_t sym) const {
  Poly r;
  for (const auto &[m, c] : terms_)
    if (std::find(m.begin(), m.end(), sym) == m.end()) r.terms_.push_back({m, c});
  return r;
}

// ---------------------------------------------------------------- helpers

namespace {

std::optional<Symbol> specialSymbol(std::string_view r) {
  static const std::pair<std::string_view, Symbol::Kind> names[] = {
      {"%tid.", Symbol::Kind::Tid}, {"%ctaid.", Symbol::Kind::Ctaid},
      {"%ntid.", Symbol::Kind::Ntid}, {"%nctaid.", Symbol::Kind::Nctaid}};
  for (auto [prefix, kind] : names) {
    if (r.size() == prefix.size() + 1 && r.substr(0, prefix.size()) == prefix) {
      char d = r.back();
      if (d < 'x' || d > 'z') return std::nullopt;
      Symbol s{kind};
      s.dim = static_cast<uint8_t>(d - 'x');
      return s;
    }
  }
  return std::nullopt;
}

bool isFloatType(std::string_view m) { return m.size() > 1 && m[1] == 'f' && m != ".full"; }

}  // namespace

Value combine(const Value &a, const Value &b, bool (*op)(const Poly &, const Poly &, Poly &)) {
  // An unknown operand's facts (known bits) do not hold for the result.
  if (!a.known) return Value::unknown(a.why, a.cause);
  if (!b.known) return Value::unknown(b.why, b.cause);
  Value r;
  if (!op(a.poly, b.poly, r.poly)) return Value::unknown("coefficient overflow", UnknownCause::Overflow);
  r.known = true;
  r.signedWiden = a.signedWiden || b.signedWiden;
  r.unsignedWiden = a.unsignedWiden || b.unsignedWiden;
  return r;
}

Value negate(const Value &a) {
  if (!a.known) return Value::unknown(a.why, a.cause);
  Value r = a;
  if (!Poly::scale(a.poly, -1, r.poly)) return Value::unknown("coefficient overflow", UnknownCause::Overflow);
  return r;
}

// ---------------------------------------------------------------- analysis

AffineAnalysis::AffineAnalysis(const ir::Module &m, const CFG &cfg, const DominatorTree &dom,
                               const LoopInfo &loops, const ReachingDefs &rd)
    : m_(m), cfg_(cfg), dom_(dom), loops_(loops), rd_(rd) {}

uint16_t AffineAnalysis::symbolId(const Symbol &s) {
  for (size_t i = 0; i < syms_.size(); ++i)
    if (syms_[i] == s) return static_cast<uint16_t>(i);
  syms_.push_back(s);
  return static_cast<uint16_t>(syms_.size() - 1);
}

std::string AffineAnalysis::symbolName(uint16_t id) const {
  const Symbol &s = syms_[id];
  static const char *dims[] = {"x", "y", "z"};
  switch (s.kind) {
  case Symbol::Kind::Tid: return std::string("%tid.") + dims[s.dim];
  case Symbol::Kind::Ctaid: return std::string("%ctaid.") + dims[s.dim];
  case Symbol::Kind::Ntid: return std::string("%ntid.") + dims[s.dim];
  case Symbol::Kind::Nctaid: return std::string("%nctaid.") + dims[s.dim];
  case Symbol::Kind::Param: return "param(" + std::string(s.name) + ")";
  case Symbol::Kind::Global: return "&" + std::string(s.name);
  case Symbol::Kind::LoopCounter: return "k" + std::to_string(s.loop);
  case Symbol::Kind::Uniform:
    return "u(" + std::string(s.name) + "@" +
           ((s.site & 0x80000000u) ? blockName(cfg_, s.loop) : std::to_string(s.site)) + ")";
  }
  return "?";
}

std::string AffineAnalysis::str(const Poly &p) const {
  if (p.terms().empty()) return "0";
  std::string out;
  // Constant last; otherwise in map order (deterministic).
  std::vector<std::pair<Poly::Mono, int64_t>> ts(p.terms().begin(), p.terms().end());
  // Base symbols (parameters, globals) first, then the rest, the constant last.
  auto isBase = [&](const Poly::Mono &m) {
    return m.size() == 1 && (syms_[m[0]].kind == Symbol::Kind::Param || syms_[m[0]].kind == Symbol::Kind::Global);
  };
  if (ts.size() > 1) {  // (each partition allocates a buffer, whatever the size)
    std::stable_partition(ts.begin(), ts.end(), [&](const auto &t) { return isBase(t.first); });
    std::stable_partition(ts.begin(), ts.end(), [](const auto &t) { return !t.first.empty(); });
  }
  bool first = true;
  for (const auto &[m, c] : ts) {
    int64_t k = c;
    if (!first) out += k < 0 ? " - " : " + ";
    else if (k < 0) out += "-";
    if (!first || k < 0) k = k < 0 ? -k : k;
    first = false;
    std::string mono;
    for (auto s : m) mono += (mono.empty() ? "" : "*") + symbolName(s);
    if (mono.empty()) out += std::to_string(k);
    else if (k == 1) out += mono;
    else out += std::to_string(k) + "*" + mono;
  }
  return out;
}

namespace {
bool isSpecialRegisterName(std::string_view r) {
  // Everything else that starts with % and is predefined (%laneid, %clock ...).
  static constexpr std::string_view pre[] = {"%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid", "%clock",
                                             "%lanemask", "%globaltimer", "%envreg", "%pm", "%cluster", "%nclusterid",
                                             "%is_explicit", "%total_smem", "%aggr_smem", "%dynamic_smem",
                                             "%reserved_smem", "%current_graph"};
  // Asked for every register read: the prefixes grouped by the letter
  // after '%', so that %r12 or %fd3 meets one or none of them.
  static const auto byLetter = [] {
    std::array<std::vector<std::string_view>, 256> t;
    for (auto p : pre) t[static_cast<unsigned char>(p[1])].push_back(p);
    return t;
  }();
  if (r.size() < 2) return false;
  for (std::string_view p : byLetter[static_cast<unsigned char>(r[1])])
    if (r.starts_with(p)) return true;
  return false;
}

/// The parameter word an `ld.param` address (`[p]`, `[p+8]`) reads, `extra`
/// bytes past it (a vector load's element j: j times its size): the
/// parameter's name, the offset, and the symbol's name (`p+12`, as a scalar
/// load at that offset names it). Nullopt for any other address.
struct ParamWord {
  std::string_view base;
  int64_t off = 0;
  std::string name;
};
std::optional<ParamWord> paramWord(const Operand &addr, int64_t extra) {
  if (addr.kind != Operand::Kind::Address || addr.elems.size() != 1) return std::nullopt;
  const Operand &a = addr.elems[0];
  ParamWord w;
  if (a.kind == Operand::Kind::Symbol) {
    w.base = a.text;
  } else if (a.kind == Operand::Kind::Sum && a.elems[0].kind == Operand::Kind::Symbol && a.elems[1].intValue()) {
    w.base = a.elems[0].text;
    w.off = *a.elems[1].intValue() * (a.text == "-" ? -1 : 1);
  } else {
    return std::nullopt;
  }
  w.off += extra;
  w.name = std::string(w.base);
  if (w.off) w.name += (w.off < 0 ? "-" : "+") + std::to_string(w.off < 0 ? -w.off : w.off);
  return w;
}
}  // namespace

Value AffineAnalysis::operandValue(uint32_t at, const Operand &o) {
  switch (o.kind) {
  case Operand::Kind::Register: {
    if (auto s = specialSymbol(o.text)) return Value::of(Poly::symbol(symbolId(*s)));
    if (!o.text.empty() && o.text[0] == '%' && isSpecialRegisterName(o.text))
      return Value::unknown("special register " + std::string(o.text), UnknownCause::Unsupported);
    return regValue(at, o.text);
  }
  case Operand::Kind::Immediate:
    if (auto v = o.intValue()) return Value::of(Poly::constant(*v));
    return Value::unknown("non-integer immediate " + std::string(o.text), UnknownCause::FloatingPoint);
  case Operand::Kind::Symbol: {
    Symbol s{Symbol::Kind::Global};
    s.name = o.text;
    return Value::of(Poly::symbol(symbolId(s)));
  }
  default: return Value::unknown("operand " + std::string(o.text), UnknownCause::Unsupported);
  }
}

Value AffineAnalysis::addressValue(uint32_t at, const Operand &addr) {
  if (addr.kind != Operand::Kind::Address || addr.elems.size() != 1) return Value::unknown("address form", UnknownCause::Unsupported);
  const Operand &e = addr.elems[0];
  if (e.kind == Operand::Kind::Sum) {
    Value a = operandValue(at, e.elems[0]), b = operandValue(at, e.elems[1]);
    if (e.text == "-") b = negate(b);
    return combine(a, b, Poly::add);
  }
  return operandValue(at, e);
}


Value AffineAnalysis::regValue(uint32_t at, std::string_view reg) {
  // The reaching definitions go into this recursion depth's vector (one
  // allocation per read was the most of any in the analysis).
  struct Depth {
    size_t &d;
    explicit Depth(size_t &x) : d(x) { ++d; }
    ~Depth() { --d; }
  } depth(regDepth_);
  if (regDepth_ > defsScratch_.size()) defsScratch_.emplace_back();
  std::vector<uint32_t> &defs = defsScratch_[regDepth_ - 1];
  rd_.defsAt(at, reg, defs);
  if (defs.size() == 1) {
    if (defs[0] == ReachingDefs::kEntry) return Value::unknown(std::string(reg) + " has no definition here", UnknownCause::Other);
    return leaveLoops(defs[0], at, defValue(defs[0], reg));
  }
  if (trial_ && trial_->reg == reg && defs.size() == 2 && defs[0] == std::min(trial_->init, trial_->upd) &&
      defs[1] == std::max(trial_->init, trial_->upd))
    return Value::of(Poly::symbol(trial_->placeholder));
  if (auto iv = inductionValue(at, reg, defs)) return *iv;
  std::vector<Value> vals;
  std::optional<UnknownCause> unknownCause;
  bool agree = true;
  for (size_t i = 0; i < defs.size(); ++i) {
    if (defs[i] == ReachingDefs::kEntry)
      return Value::unknown(std::string(reg) + " differs by path", UnknownCause::PathDependent);
    Value v = leaveLoops(defs[i], at, defValue(defs[i], reg));
    // The class of the unknown definition is the root cause (a load on one path
    // is data-dependent); only disagreeing known definitions are path-dependent.
    if (!v.known && !unknownCause) unknownCause = v.cause;
    agree = agree && v.known && (vals.empty() || v.poly == vals[0].poly);
    vals.push_back(std::move(v));
  }
  if (agree) {
    Value common = vals[0];
    for (const auto &v : vals) {
      common.signedWiden |= v.signedWiden;
      common.unsignedWiden |= v.unsignedWiden;
    }
    return common;
  }
  if (!unknownCause)
    if (auto v = uniformMerge(at, reg, defs, vals)) return *v;
  return Value::unknown(std::string(reg) + " differs by path", unknownCause.value_or(UnknownCause::PathDependent));
}

Value AffineAnalysis::defValue(uint32_t def, std::string_view reg) {
  const DefKey key{def, reg};
  DefEntry *e = &defs_[key];
  if (e->done) return e->v;
  if (e->inProgress) return Value::unknown(std::string(reg) + " depends on itself", UnknownCause::PathDependent);
  if (depth_ > 400) return Value::unknown("expression too deep", UnknownCause::Overflow);
  e->inProgress = true;
  inProgress_.push_back(key);
  const uint64_t erased = erased_;
  ++depth_;
  Value v = evalInstr(def, reg);
  --depth_;
  inProgress_.pop_back();
  if (erased != erased_) e = &defs_[key];  // a trial erased entries meanwhile
  e->inProgress = false;
  if (trial_) trial_->keys.push_back(key);
  // What the polynomial cannot express but is the same for every thread of
  // the grid becomes a Uniform symbol: an opaque integer, set here.
  // (Loaded data, atomics and call results are never uniform: no need to ask.)
  if (!v.known && v.cause != UnknownCause::Overflow && v.cause != UnknownCause::DataDependent &&
      v.cause != UnknownCause::Atomic && v.cause != UnknownCause::Call && cfg_.instructions()[def]->base() != "setp" &&
      uniformity().ofInstr(def) == UniformLevel::Grid) {
    std::vector<uint32_t> ls;
    for (auto l = loops_.loopOf(cfg_.blockOf(def)); l; l = loops_.loops()[*l].parent) ls.push_back(*l);
    if (auto id = uniformSymbol(reg, def, std::move(ls), v.tz, v.umax)) v = Value::of(Poly::symbol(*id));
  }
  e->v = v;
  e->done = true;
  return v;
}

Value AffineAnalysis::evalInstr(uint32_t def, std::string_view reg) {
  const Instruction &in = *cfg_.instructions()[def];
  std::string_view base = in.base();
  auto name = [&] { return std::string(in.opcode); };
  // The class of an instruction's result the analysis does not follow.
  auto opCause = [&](UnknownCause dflt) {
    if (base == "ld" || base == "ldu" || base == "tex" || base == "tld4" || base == "suld" || base == "shfl" ||
        base == "prmt" || base == "vote" || base == "match" || base == "redux")
      return UnknownCause::DataDependent;
    if (base == "atom" || base == "red") return UnknownCause::Atomic;
    if (base == "call") return UnknownCause::Call;
    return dflt;
  };
  // A vector load of parameter words (`ld.param.v2.u32 {%r6, %r7}, [p+8]`:
  // nvcc reads two adjacent int fields of a struct argument so) is read below.
  const bool paramVector = base == "ld" && in.hasModifier(".param") && in.operands.size() == 2 &&
                           in.operands[0].kind == Operand::Kind::Vector;
  if (in.operands.empty() ||
      (!paramVector && (in.operands[0].kind != Operand::Kind::Register || in.operands[0].text != reg)))
    return Value::unknown("written by " + name(), opCause(UnknownCause::Unsupported));
  if (!in.guard.empty()) return Value::unknown("written under a predicate by " + name(), UnknownCause::PathDependent);
  if (in.anyModifier(isFloatType)) return Value::unknown("floating-point " + name(), opCause(UnknownCause::FloatingPoint));
  auto op = [&](size_t i) {
    return i < in.operands.size() ? operandValue(def, in.operands[i])
                                  : Value::unknown("missing operand", UnknownCause::Unsupported);
  };
  auto widen = [&](Value v) {
    // mul.wide / mad.wide: the product of two 32-bit (16-bit) values in 64 (32) bits.
    in.anyModifier([&](std::string_view m) {
      if (m == ".s32" || m == ".s16") v.signedWiden = true;
      if (m == ".u32" || m == ".u16") v.unsignedWiden = true;
      return false;
    });
    return v;
  };

  if (base == "mov") {
    if (in.operands.size() != 2) return Value::unknown(name(), UnknownCause::Unsupported);
    // mov.u16 %rs, %ntid.x keeps the low 16 bits: exact for values that fit.
    Value v = op(1);
    if (in.hasModifier(".u16") || in.hasModifier(".b16")) v.unsignedWiden = v.known ? true : v.unsignedWiden;
    return v;
  }
  if (base == "add" || base == "sub") {
    if (in.hasModifier(".cc") || in.hasModifier(".sat")) return Value::unknown(name(), UnknownCause::Unsupported);
    Value b = op(2);
    return combine(op(1), base == "sub" ? negate(b) : b, Poly::add);
  }
  if (base == "neg") return negate(op(1));
  if (base == "not" && !in.hasModifier(".pred")) {
    // ~x = -x - 1 in two's complement, at any width (nvcc writes n-1-i as
    // not.b32 + add).
    return combine(negate(op(1)), Value::of(Poly::constant(-1)), Poly::add);
  }
  if (base == "mul") {
    if (in.hasModifier(".hi")) return Value::unknown(name(), UnknownCause::Unsupported);
    Value v = combine(op(1), op(2), Poly::mul);
    return in.hasModifier(".wide") ? widen(v) : v;
  }
  if (base == "mad") {
    if (in.hasModifier(".hi") || in.hasModifier(".cc")) return Value::unknown(name(), UnknownCause::Unsupported);
    Value v = combine(combine(op(1), op(2), Poly::mul), op(3), Poly::add);
    return in.hasModifier(".wide") ? widen(v) : v;
  }
  if (base == "shl") {
    auto k = in.operands.size() > 2 ? in.operands[2].intValue() : std::nullopt;
    if (!k || *k < 0 || *k > 62) return Value::unknown(name() + " by a non-constant amount", UnknownCause::Unsupported);
    Value x = op(1);
    if (!x.known) {  // still a multiple of 2^k
      Value r = Value::unknown(x.why, x.cause);
      r.tz = static_cast<uint8_t>(std::min<int64_t>(x.tz + *k, 64));
      unsigned w = 0;
      in.anyModifier([&](std::string_view m) {
        w = std::max(w, typeBytes(m) * 8);
        return false;
      });
      if (x.umax && w && *k < w && *x.umax < (uint64_t{1} << (w - 1 - *k))) r.umax = *x.umax << *k;
      return r;
    }
    return combine(x, Value::of(Poly::constant(int64_t{1} << *k)), Poly::mul);
  }
  if (base == "cvta") return op(1);
  if (base == "cvt") {
    // cvt.dst.src: integer to integer only (a rounding modifier means float).
    const auto mods = in.modifiers();
    std::vector<std::string_view> types;
    for (auto m : mods)
      if (typeBytes(m) && !isFloatType(m)) types.push_back(m);
    if (types.size() != 2) return Value::unknown(name(), UnknownCause::Unsupported);
    for (auto m : mods)
      if (m == ".rn" || m == ".rz" || m == ".rm" || m == ".rp" || m == ".rni" || m == ".rzi")
        return Value::unknown(name(), UnknownCause::FloatingPoint);
      else if (m == ".sat")
        return Value::unknown(name(), UnknownCause::Unsupported);
    Value v = op(1);
    unsigned dst = typeBytes(types[0]), src = typeBytes(types[1]);
    if (dst > src) {
      if (types[1][1] == 's') v.signedWiden = true;
      else v.unsignedWiden = true;
    } else if (dst < src) {
      v.unsignedWiden = true;  // truncation: exact only if the value fits
      if (!v.known && v.umax && *v.umax >= (uint64_t{1} << (dst * 8 - 1))) v.umax.reset();
      if (!v.known) v.tz = static_cast<uint8_t>(std::min<unsigned>(v.tz, dst * 8));
    }
    return v;
  }
  if (base == "ld" && in.hasModifier(".param") && in.operands.size() == 2) {
    // A scalar: the word at the address. A vector's element j: the word j
    // sizes past it, of the kernel's own parameter only (a call's vector
    // return value stays unknown: callResult matches scalar stores).
    std::optional<int64_t> extra = 0;
    if (paramVector) {
      unsigned bytes = 0;
      in.anyModifier([&](std::string_view m) { return (bytes = isFloatType(m) ? 0 : typeBytes(m)) != 0; });
      const auto &els = in.operands[0].elems;
      extra.reset();
      for (size_t j = 0; bytes && j < els.size(); ++j)
        if (els[j].kind == Operand::Kind::Register && els[j].text == reg) extra = int64_t(j * bytes);
    }
    if (auto w = extra ? paramWord(in.operands[1], *extra) : std::nullopt;
        w && (!paramVector || cfg_.function().hasParam(w->base)))
      return paramLoad(def, w->base, w->off, w->name);
  }
  if (base == "ld" || base == "ldu" || base == "atom")
    return Value::unknown("loaded from memory by " + name(), opCause(UnknownCause::DataDependent));
  if (auto v = evalBitOp(def, in)) return *v;
  return Value::unknown(name(), opCause(UnknownCause::Unsupported));
}

std::optional<Value> AffineAnalysis::inductionValue(uint32_t at, std::string_view reg,
                                                   const std::vector<uint32_t> &defs) {
  if (defs.size() != 2 || defs[1] == ReachingDefs::kEntry) return std::nullopt;
  auto loopOfAt = loops_.loopOf(cfg_.blockOf(at));
  for (auto li = loopOfAt; li; li = loops_.loops()[*li].parent) {
    const Loop &L = loops_.loops()[*li];
    bool in0 = L.contains(cfg_.blockOf(defs[0])), in1 = L.contains(cfg_.blockOf(defs[1]));
    if (in0 == in1) continue;
    uint32_t init = in0 ? defs[1] : defs[0], upd = in0 ? defs[0] : defs[1];
    const Instruction &u = *cfg_.instructions()[upd];
    if (!u.guard.empty()) return std::nullopt;
    if (!runsEveryIteration(L, cfg_.blockOf(upd), dom_)) return std::nullopt;
    Symbol cs{Symbol::Kind::LoopCounter};
    cs.loop = L.id;
    uint16_t counter = symbolId(cs);
    std::vector<uint32_t> expect{std::min(init, upd), std::max(init, upd)};
    int self = -1;
    if ((u.base() == "add" || u.base() == "sub") && u.operands.size() == 3)
      for (int i = 1; i <= 2; ++i)
        if (u.operands[i].kind == Operand::Kind::Register && u.operands[i].text == reg) self = i;
    auto selfDefs = self > 0 ? rd_.defsAt(upd, reg) : std::vector<uint32_t>{};
    std::sort(selfDefs.begin(), selfDefs.end());
    Value step;
    if (self > 0 && !(u.base() == "sub" && self != 1) && selfDefs == expect) {
      // add r, r, step
      step = operandValue(upd, u.operands[self == 1 ? 2 : 1]);
      if (u.base() == "sub") step = negate(step);
    } else {
      // A chain (nvcc's unrolled pointer walk: a = r + s; b = a + s; r = b + s):
      // the update's value with r at the top of the iteration as a placeholder
      // x must be x + step.
      auto st = chainStep(L.id, reg, init, upd);
      if (!st) return std::nullopt;
      step = *st;
    }
    if (!step.known) return Value::unknown("induction variable " + std::string(reg) + " with unknown step", step.cause);
    if (variesIn(step.poly, L.id)) return std::nullopt;
    Value start = defValue(init, reg);
    if (!start.known) return Value::unknown("induction variable " + std::string(reg) + " with unknown start", start.cause);
    Value k = Value::of(Poly::symbol(counter));
    Value v = combine(start, combine(step, k, Poly::mul), Poly::add);
    bool recorded = false;
    for (const auto &iv : ivs_) recorded |= iv.loop == L.id && iv.reg == reg;
    if (!recorded) {
      // Record first: the trip count evaluates the loop condition, which may
      // ask for this induction variable again.
      ivs_.push_back(InductionVar{L.id, reg, init, upd, start.poly, step.poly, "", std::nullopt});
      InductionVar iv = ivs_.back();
      computeTripCount(iv);
      for (auto &x : ivs_)
        if (x.loop == L.id && x.reg == reg) x = iv;
    }
    return v;
  }
  return std::nullopt;
}

std::optional<Value> AffineAnalysis::chainStep(uint32_t loop, std::string_view reg, uint32_t init, uint32_t upd) {
  if (trial_) return std::nullopt;  // one at a time
  Symbol ph{Symbol::Kind::Uniform};
  names_.emplace_back(std::string(reg) + "@top");
  ph.name = names_.back();
  ph.site = 0x40000000u | upd;
  uint16_t x;
  const std::string key = std::to_string(ph.site) + ":" + std::string(ph.name);
  if (auto it = uniformIds_.find(key); it != uniformIds_.end()) x = it->second;
  else if (syms_.size() >= 60000) return std::nullopt;
  else {
    syms_.push_back(ph);
    x = static_cast<uint16_t>(syms_.size() - 1);
    uniformIds_[key] = x;
  }
  Trial t{reg, init, upd, x, {}};
  size_t ivCount = ivs_.size();
  trial_ = &t;
  // Registers being evaluated outside (the read that asked for this
  // induction variable) are evaluated afresh inside, with the placeholder.
  std::vector<DefKey> outer;
  outer.swap(inProgress_);
  for (const auto &k : outer) defs_[k].inProgress = false;
  Value v = evalInstr(upd, reg);
  trial_ = nullptr;
  // Values computed under the placeholder are not values of the program.
  for (const auto &k : t.keys) defs_.erase(k);
  ++erased_;
  for (const auto &k : outer) defs_[k].inProgress = true;
  outer.swap(inProgress_);
  ivs_.resize(std::min(ivs_.size(), ivCount));
  if (!v.known) return std::nullopt;
  bool nonlinear;
  Poly coef = v.poly.coefficientOf(x, nonlinear);
  if (nonlinear || !(coef == Poly::constant(1))) return std::nullopt;
  Value step = v;
  step.poly = v.poly.without(x);
  (void)loop;
  return step;
}

// Trip count of a loop whose latch ends in `@p bra header` (or `@!p`), p set
// by comparing the induction variable (before or after its update) with a
// loop-invariant bound. Assumes the loop body runs at least once (nvcc's
// rotated loops test before entering). Sets tripCount for steps of +-1 or
// all-constant operands.
void AffineAnalysis::computeTripCount(InductionVar &iv) {
  const Loop &L = loops_.loops()[iv.loop];
  if (L.latches.size() != 1) return;
  const auto &blk = cfg_.blocks()[L.latches[0]];
  if (blk.last == blk.first) return;
  uint32_t bi = blk.last - 1;
  const Instruction &br = *cfg_.instructions()[bi];
  if (br.base() != "bra" || br.guard.empty()) return;
  bool toHeader = false;
  for (auto l : cfg_.blocks()[L.header].labels) toHeader |= branchTarget(br) == l;
  auto pdefs = rd_.defsAt(bi, br.guard);
  if (pdefs.size() != 1 || pdefs[0] == ReachingDefs::kEntry) return;
  const Instruction &setp = *cfg_.instructions()[pdefs[0]];
  if (setp.base() != "setp" || setp.operands.size() < 3 || setp.operands[0].kind != Operand::Kind::Register) return;
  auto mods = setp.modifiers();
  if (mods.empty()) return;
  std::string cmp(mods[0].substr(1));
  // Continue condition: p (branch to header) or !p (branch out).
  bool negate = br.guardNegated != !toHeader;
  if (negate) {
    static const std::pair<const char *, const char *> inv[] = {{"lt", "ge"}, {"le", "gt"}, {"gt", "le"},
                                                                {"ge", "lt"}, {"ne", "eq"}, {"eq", "ne"}};
    std::string c2;
    for (auto [a, b] : inv)
      if (cmp == a) c2 = b;
    cmp = c2;
  }
  Symbol cs{Symbol::Kind::LoopCounter};
  cs.loop = iv.loop;
  uint16_t counter = symbolId(cs);
  Value a = operandValue(pdefs[0], setp.operands[1]), b = operandValue(pdefs[0], setp.operands[2]);
  if (!a.known || !b.known) return;
  if (b.poly.contains(counter)) {  // bound < iv: swap
    std::swap(a, b);
    static const std::pair<const char *, const char *> sw[] = {{"lt", "gt"}, {"le", "ge"}, {"gt", "lt"},
                                                               {"ge", "le"}, {"ne", "ne"}, {"eq", "eq"}};
    for (auto [x, y] : sw)
      if (cmp == x) {
        cmp = y;
        break;
      }
  }
  bool nonlinear;
  Poly coef = a.poly.coefficientOf(counter, nonlinear);
  if (nonlinear || b.poly.contains(counter) || !(coef == iv.step)) return;
  if (variesIn(b.poly, iv.loop) || variesIn(a.poly.without(counter), iv.loop)) return;  // not a fixed bound
  // Continue while x + step*k (cmp) bound, k = 0, 1, ...; the loop runs
  // T = ceil(d / step) times for lt and ne, floor(d / step) + 1 for le,
  // with d = bound - x + step (= bound - start when x is the updated value).
  Poly x = a.poly.without(counter), d, negx;
  if (!Poly::scale(x, -1, negx) || !Poly::add(b.poly, negx, d) || !Poly::add(d, iv.step, d)) return;
  auto step = iv.step.constantValue();
  bool up = step ? *step > 0 : true;  // a symbolic step (%ntid.x*%nctaid.x) is positive
  bool le;
  if ((cmp == "lt" && up) || (cmp == "gt" && !up) || cmp == "ne") le = false;
  else if ((cmp == "le" && up) || (cmp == "ge" && !up)) le = true;
  else return;
  if (step && *step == 0) return;
  if (auto dc = d.constantValue(); dc && step) {
    int64_t s = *step, q = *dc;
    if (s < 0) s = -s, q = -q;
    int64_t t = le ? (q >= 0 ? q / s : -((-q + s - 1) / s)) + 1 : (q >= 0 ? (q + s - 1) / s : -(-q / s));
    iv.tripConstant = t < 0 ? 0 : t;
    iv.tripCount = std::to_string(*iv.tripConstant);
    return;
  }
  if (step && (*step == 1 || *step == -1)) {
    Poly t;
    if (!Poly::scale(d, *step, t) || (le && !Poly::add(t, Poly::constant(1), t))) return;
    iv.tripCount = str(t);
    return;
  }
  iv.tripCount = std::string(le ? "floor" : "ceil") + "((" + str(d) + ") / (" + str(iv.step) + "))" + (le ? " + 1" : "");
}

const std::vector<InductionVar> &AffineAnalysis::inductionVars() {
  if (ivsComplete_) return ivs_;
  ivsComplete_ = true;
  std::vector<bool> seen;
  std::vector<uint32_t> defs;
  for (const auto &L : loops_.loops()) {
    const auto &h = cfg_.blocks()[L.header];
    if (h.last == h.first) continue;
    // The registers written in the loop, in order of first write (the order
    // of evaluation names the symbols), each once.
    std::vector<std::string_view> regs;
    seen.assign(rd_.registerCount(), false);
    for (uint32_t b : L.blocks)
      for (uint32_t i = cfg_.blocks()[b].first; i < cfg_.blocks()[b].last; ++i)
        for (auto r : rd_.defUse(i).defs)
          if (uint32_t id = rd_.registerId(r); !seen[id]) {
            seen[id] = true;
            // Written once: at most {def, entry} reach, which inductionValue refuses.
            if (!rd_.writtenOnce(id)) regs.push_back(r);
          }
    for (auto r : regs) {
      rd_.defsAt(h.first, r, defs);
      if (defs.size() == 2) inductionValue(h.first, r, defs);  // (it refuses any other count)
    }
  }
  // Induction variables first met while their own update was being
  // evaluated could not evaluate their loop's condition then.
  for (size_t i = 0; i < ivs_.size(); ++i)
    if (ivs_[i].tripCount.empty()) {
      InductionVar iv = ivs_[i];
      computeTripCount(iv);
      ivs_[i].tripCount = iv.tripCount;
      ivs_[i].tripConstant = iv.tripConstant;
    }
  std::sort(ivs_.begin(), ivs_.end(), [](const InductionVar &a, const InductionVar &b) {
    return a.loop != b.loop ? a.loop < b.loop : a.updateDef < b.updateDef;
  });
  return ivs_;
}

}  // namespace ptxopt::analysis
