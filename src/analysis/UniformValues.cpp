// Uniform values: Uniform symbols for what is the same for every thread
// of the grid but not a polynomial, and the merges of definitions that
// differ only in such terms (see AffineAnalysis::uniformMerge).
//
// What: an opaque symbol u(reg@where) for a grid-uniform value the
// polynomial cannot write; a merge T + u when definitions agree in their
// thread-dependent terms T and a grid-uniform choice picks between them.
// Why: nvcc's remainder loop starts at 0 or at the unrolled loop's exit
// value; n & -4 and n / 3 offset whole arrays: the strides along the
// thread indices and loop counters stay known (issue 15, item 1).
// Algorithm: the levels come from Uniformity.cpp; a Uniform symbol records
// the loops in which it may change between iterations (variesIn), so that
// strides along those loops' counters, induction steps and loop bounds do
// not take it for a constant; a value read after a loop whose trip count may
// differ by thread is unknown when it changes with the loop (leaveLoops).
// Refuses: block-uniform values (a stride along %ctaid must stay exact), a
// device function's arguments, more than 60000 symbols.
#include <algorithm>

#include "ptxopt/analysis/Affine.h"

namespace ptxopt::analysis {

Uniformity &AffineAnalysis::uniformity() {
  if (!uni_) uni_ = std::make_unique<Uniformity>(cfg_, dom_, loops_, rd_);
  return *uni_;
}

std::optional<uint16_t> AffineAnalysis::uniformSymbol(std::string_view reg, uint32_t site, std::vector<uint32_t> loops,
                                                      unsigned tz, std::optional<uint64_t> umax) {
  std::string key = std::to_string(site) + ":" + std::string(reg);
  if (auto it = uniformIds_.find(key); it != uniformIds_.end()) return it->second;
  if (syms_.size() >= 60000) return std::nullopt;  // ids are 16 bits
  Symbol s{Symbol::Kind::Uniform};
  names_.emplace_back(reg);
  s.name = names_.back();
  s.site = site;
  s.loops = std::move(loops);
  s.tz = static_cast<uint8_t>(std::min(tz, 64u));
  s.umax = umax;
  syms_.push_back(s);
  uint16_t id = static_cast<uint16_t>(syms_.size() - 1);
  uniformIds_[key] = id;
  return id;
}

bool AffineAnalysis::variesIn(const Poly &p, uint32_t loop) const {
  const Loop &L = loops_.loops()[loop];
  for (const auto &[m, c] : p.terms())
    for (auto id : m) {
      const Symbol &s = syms_[id];
      if (s.kind == Symbol::Kind::LoopCounter && (s.loop == loop || L.contains(loops_.loops()[s.loop].header)))
        return true;
      if (s.kind == Symbol::Kind::Uniform && std::find(s.loops.begin(), s.loops.end(), loop) != s.loops.end())
        return true;
    }
  return false;
}

Value AffineAnalysis::leaveLoops(uint32_t def, uint32_t at, Value v) {
  if (!v.known) return v;
  uint32_t b = cfg_.blockOf(at);
  for (auto l = loops_.loopOf(cfg_.blockOf(def)); l; l = loops_.loops()[*l].parent) {
    if (loops_.loops()[*l].contains(b)) break;
    // Read after loop l: the value of the last iteration, which differs by
    // thread when the number of iterations does.
    if (variesIn(v.poly, *l) && uniformity().tripCount(*l) != UniformLevel::Grid)
      return Value::unknown("value of the last iteration of loop " + std::to_string(*l) +
                                ", whose trip count may differ by thread",
                            UnknownCause::PathDependent);
  }
  return v;
}

uint8_t AffineAnalysis::symbolLevel(uint16_t id, uint32_t b) {
  const Symbol &s = syms_[id];
  switch (s.kind) {
  case Symbol::Kind::Tid: return 2;
  case Symbol::Kind::Ctaid: return 1;
  case Symbol::Kind::LoopCounter: {
    // Inside its loop the counter is the iteration every thread there is
    // at; after it, the count of iterations, uniform if the exits are.
    if (loops_.loops()[s.loop].contains(b)) return 0;
    return static_cast<uint8_t>(uniformity().tripCount(s.loop));
  }
  case Symbol::Kind::Param: return argsAsSymbols_ ? 2 : 0;  // a device function's arguments may differ
  default: return 0;  // %ntid, %nctaid, globals' addresses, Uniform symbols
  }
}

std::optional<Value> AffineAnalysis::uniformMerge(uint32_t at, std::string_view reg, const std::vector<uint32_t> &defs,
                                                  const std::vector<Value> &vals) {
  if (argsAsSymbols_) return std::nullopt;
  uint32_t b = cfg_.blockOf(at);
  if (uniformity().choice(at, defs) != UniformLevel::Grid) return std::nullopt;
  // Split each value into the terms that may differ by thread (they must
  // agree) and the uniform rest (that may not).
  Poly common;
  std::vector<Poly> rest;
  for (size_t i = 0; i < vals.size(); ++i) {
    Poly t, u;
    for (const auto &[m, c] : vals[i].poly.terms()) {
      uint8_t lv = 0;
      for (auto id : m) lv = std::max(lv, symbolLevel(id, b));
      Poly mono = Poly::constant(c);
      for (auto id : m)
        if (!Poly::mul(mono, Poly::symbol(id), mono)) return std::nullopt;
      if (!Poly::add(lv ? t : u, mono, lv ? t : u)) return std::nullopt;
    }
    if (i == 0) common = t;
    else if (!(t == common)) return std::nullopt;
    rest.push_back(std::move(u));
  }
  unsigned tz = 64;
  std::optional<uint64_t> umax = 0;
  Value out = Value::of(common);
  for (size_t i = 0; i < vals.size(); ++i) {
    tz = std::min(tz, trailingZeros(Value::of(rest[i])));
    auto ub = upperBound(Value::of(rest[i]));
    umax = ub && umax ? std::optional<uint64_t>(std::max(*umax, *ub)) : std::nullopt;
    out.signedWiden |= vals[i].signedWiden;
    out.unsignedWiden |= vals[i].unsignedWiden;
  }
  // One symbol per (register, block, definitions): every read there sees the same value.
  std::vector<uint32_t> key = defs;
  key.push_back(b);
  auto [it, fresh] = mergeSites_.try_emplace({std::string(reg), key}, static_cast<uint32_t>(mergeSites_.size()));
  (void)fresh;
  uint32_t site = 0x80000000u | it->second;
  // Set where the definitions meet: it may change with the loops around that block.
  std::vector<uint32_t> ls;
  for (auto l = loops_.loopOf(b); l; l = loops_.loops()[*l].parent) ls.push_back(*l);
  auto id = uniformSymbol(reg, site, std::move(ls), tz, umax);
  if (!id) return std::nullopt;
  syms_[*id].loop = b;  // for its name: the block where the definitions meet
  Value u = Value::of(Poly::symbol(*id));
  Value r = combine(out, u, Poly::add);
  r.signedWiden = out.signedWiden;
  r.unsignedWiden = out.unsignedWiden;
  return r.known ? std::optional<Value>(r) : std::nullopt;
}

}  // namespace ptxopt::analysis
