// Access facts and divergence (see Access.h).
//
// Sectors: a warp is 32 consecutive %tid.x (assuming blockDim.x >= 32, noted
// on every access that depends on %tid.x); lane l accesses bytes
// [base + l*s, base + l*s + w) for stride s and width w. With a 32-byte
// aligned base the number of distinct 32-byte sectors is counted exactly;
// a symbolic stride (a multiple of %nctaid.x, a parameter) is taken as at
// least 32 bytes, one or more sectors per lane. The ideal is the sectors of
// 32*w contiguous bytes.
#include "ptxopt/analysis/Access.h"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>
#include <numeric>
#include <set>
#include <unordered_map>

namespace ptxopt::analysis {

using ir::Instruction;
using ir::Operand;

std::string SourceLoc::str() const {
  if (!line) return "";
  std::string out(file.empty() ? std::string_view("<unknown>") : file);  // one string, appended to
  out += ':';
  out += std::to_string(line);
  out += ':';
  out += std::to_string(col);
  return out;
}

const char *verdictName(AccessInfo::Verdict v) {
  switch (v) {
  case AccessInfo::Verdict::Coalesced: return "coalesced";
  case AccessInfo::Verdict::Uncoalesced: return "uncoalesced";
  case AccessInfo::Verdict::Uniform: return "uniform";
  case AccessInfo::Verdict::Unknown: return "unknown";
  }
  return "unknown";
}

uint32_t directiveNumber(std::string_view t) {
  // `.loc 1 40 7`: plain decimal numbers of up to 9 digits (no leading 0,
  // which would be octal) directly; anything else as an immediate. The
  // report asks three per access and fact.
  if (!t.empty() && t.size() <= 9 && (t.size() == 1 || t[0] != '0')) {
    uint32_t v = 0;
    bool digits = true;
    for (char c : t) {
      digits = digits && c >= '0' && c <= '9';
      v = v * 10 + static_cast<uint32_t>(c - '0');
    }
    if (digits) return v;
  }
  auto v = Operand::imm(t).intValue();
  return v && *v >= 0 && *v <= UINT32_MAX ? static_cast<uint32_t>(*v) : 0;
}

SourceLoc sourceLocation(const ir::Module &m, const CFG &cfg, uint32_t i) {
  SourceLoc loc;
  const ir::Directive *d = cfg.locOf(i);
  if (!d || d->tokens.size() < 3) return loc;
  uint32_t file = directiveNumber(d->tokens[0]);
  loc.line = directiveNumber(d->tokens[1]);
  loc.col = directiveNumber(d->tokens[2]);
  const auto &files = m.files();
  if (auto f = files.find(file); f != files.end()) {
    std::string_view path = f->second;
    auto slash = path.find_last_of('/');
    loc.file = slash == std::string_view::npos ? path : path.substr(slash + 1);
  }
  return loc;
}

void findUnrolledStrides(const CFG &cfg, AffineAnalysis &aff, std::vector<AccessInfo> &accs);

unsigned warpSectors(int64_t stride, unsigned width) {
  // A negative stride (a reversal, n-1-i) touches the mirror image of the
  // positive one: counted with the lowest lane's address aligned.
  if (stride < 0) stride = stride == INT64_MIN ? INT64_MAX : -stride;
  // Lane l covers the sectors of bytes [l*s, l*s + w): a run of consecutive
  // sector numbers; the runs rise with l, so distinct sectors are counted
  // in one sweep (no set of every byte's sector).
  auto sector = [](int64_t addr) { return addr >= 0 ? addr / 32 : (addr - 31) / 32; };
  unsigned count = 0;
  int64_t last = INT64_MIN;  // highest sector counted so far
  for (int64_t lane = 0; lane < 32 && width; ++lane) {
    int64_t lo, hi;
    if (__builtin_mul_overflow(lane, stride, &lo) || __builtin_add_overflow(lo, int64_t{width} - 1, &hi)) {
      count += 32 - static_cast<unsigned>(lane);  // far apart: one sector each at least (never reached for real strides)
      break;
    }
    int64_t a = sector(lo), b = sector(hi);
    if (a <= last) a = last + 1;
    if (b >= a) count += static_cast<unsigned>(b - a + 1);
    last = std::max(last, b);
  }
  return count;
}

namespace {

int64_t gcdOfCoefficients(const Poly &p, bool skipBase, const std::vector<Symbol> &syms) {
  int64_t g = 0;
  for (const auto &[m, c] : p.terms()) {
    if (skipBase && m.size() == 1 &&
        (syms[m[0]].kind == Symbol::Kind::Param || syms[m[0]].kind == Symbol::Kind::Global))
      continue;
    g = std::gcd(g, c < 0 ? -c : c);
  }
  return g;
}

using DeclAligns = std::unordered_map<std::string_view, uint32_t>;
using PointerSized = std::unordered_map<std::string_view, bool>;

/// The .align of each global and shared declaration the function sees (the
/// module's and its own), by name.
DeclAligns declaredAlignments(const ir::Module &m, const CFG &cfg) {
  DeclAligns declAlign;
  for (const auto &it : m.items)
    if (it.kind == ir::Item::Kind::Decl)
      for (const auto &n : it.decl->names) declAlign[n.name] = it.decl->align();
  if (cfg.function().body)
    ir::forEachStmt(*cfg.function().body, [&](const ir::Stmt &s) {
      if (s.kind == ir::Stmt::Kind::Decl)
        for (const auto &n : static_cast<const ir::Decl &>(s).names)
          declAlign[n.name] = static_cast<const ir::Decl &>(s).align();
    });
  return declAlign;
}

/// Parameters of pointer size (64 bits): base candidates before 32-bit ones
/// (an int pitch times a constant row offset is a lone parameter term too).
PointerSized pointerSizedParams(const CFG &cfg) {
  PointerSized pointerSized;
  if (cfg.function().params)
    for (const auto &p : *cfg.function().params)
      for (const auto &n : p.names) pointerSized[n.name] = typeBytes(p.type()) == 8;
  return pointerSized;
}

/// The base of a known address (a.base, a.baseAlign): a parameter pointer or
/// global address with coefficient 1 (a 64-bit parameter first: `in +
/// (y+1)*w` has the lone term `w` too). Two such terms that could each be
/// the pointer (64-bit parameters or globals: `(char *)out + delta` with a
/// 64-bit `delta`) give no base: the passes pair bases for their
/// disjointness conditions, and the wrong one would pair the integer.
void findBase(AccessInfo &a, AffineAnalysis &aff, const PointerSized &pointerSized, const DeclAligns &declAlign) {
  const Poly &p = a.address.poly;
  const auto &syms = aff.symbols();
  // The first such term of the lowest rank: 0 a parameter not known to be
  // 32-bit, 1 a global, 2 a 32-bit parameter.
  uint16_t baseSym = 0;
  int baseRank = 3, pointerLike = 0;
  for (const auto &[mono, c] : p.terms()) {
    if (mono.size() != 1 || c != 1) continue;
    const Symbol &s = syms[mono[0]];
    if (s.kind != Symbol::Kind::Param && s.kind != Symbol::Kind::Global) continue;
    int rank = 1;
    if (s.kind == Symbol::Kind::Param) {
      auto it = pointerSized.find(s.name);
      rank = it != pointerSized.end() && !it->second ? 2 : 0;
    }
    pointerLike += rank < 2;
    if (rank < baseRank) baseSym = mono[0], baseRank = rank;
  }
  if (pointerLike > 1) {
    a.baseAlign = "unknown (two terms that could be the pointer)";
    return;
  }
  if (baseRank < 3) {
    a.base = aff.symbolName(baseSym);
    const Symbol &s = syms[baseSym];
    if (s.kind == Symbol::Kind::Param)
      a.baseAlign = "unknown at compile time (pointer parameter " + std::string(s.name) + "; checkable at launch)";
    else if (auto al = declAlign.find(s.name); al != declAlign.end() && al->second)
      a.baseAlign = std::to_string(al->second) + " (.align of " + std::string(s.name) + ")";
    else
      a.baseAlign = "unknown";
  }
}

/// The strides of a known address along every index symbol (a.strides,
/// a.unitStrideOn); returns the one along %tid.x, if any, and whether the
/// address is nonlinear in %tid.x.
std::optional<Stride> findStrides(AccessInfo &a, const CFG &cfg, AffineAnalysis &aff, bool &nonlinearTidX) {
  const Poly &p = a.address.poly;
  const auto &syms = aff.symbols();
  const LoopInfo &loops = aff.loops();
  const unsigned w = a.mem.bytes();
  const uint32_t i = a.instr;
  std::vector<uint16_t> idx;
  for (const auto &[mono, c] : p.terms())
    for (auto s : mono)
      if (syms[s].isIndex() && std::find(idx.begin(), idx.end(), s) == idx.end()) idx.push_back(s);
  std::sort(idx.begin(), idx.end(), [&](uint16_t x, uint16_t y) {
    auto rank = [&](uint16_t s) { return int(syms[s].kind) * 4 + syms[s].dim; };
    return rank(x) != rank(y) ? rank(x) < rank(y) : syms[x].loop < syms[y].loop;
  });
  // A Uniform symbol set inside a loop around the access may change
  // between its iterations: the stride along that loop's counter is then
  // unknown, present or not.
  std::vector<uint32_t> varying;
  for (const auto &[mono, c] : p.terms())
    for (auto s : mono)
      if (syms[s].kind == Symbol::Kind::Uniform)
        for (uint32_t l : syms[s].loops)
          if (loops.loops()[l].contains(cfg.blockOf(i)) &&
              std::find(varying.begin(), varying.end(), l) == varying.end())
            varying.push_back(l);
  for (uint32_t l : varying) {
    Symbol k{Symbol::Kind::LoopCounter};
    k.loop = l;
    uint16_t id = aff.symbolId(k);
    if (std::find(idx.begin(), idx.end(), id) == idx.end()) idx.push_back(id);
  }
  std::sort(idx.begin(), idx.end(), [&](uint16_t x, uint16_t y) {
    auto rank = [&](uint16_t s) { return int(syms[s].kind) * 4 + syms[s].dim; };
    return rank(x) != rank(y) ? rank(x) < rank(y) : syms[x].loop < syms[y].loop;
  });
  std::optional<Stride> tidx;
  for (auto s : idx) {
    bool nonlinear;
    Poly coef = p.coefficientOf(s, nonlinear);
    bool varies = syms[s].kind == Symbol::Kind::LoopCounter &&
                  std::find(varying.begin(), varying.end(), syms[s].loop) != varying.end();
    Stride st{s, aff.symbolName(s), nonlinear ? "nonlinear" : varies ? "unknown" : aff.str(coef), std::nullopt};
    if (!nonlinear && !varies) st.constant = coef.constantValue();
    if (syms[s].kind == Symbol::Kind::Tid && syms[s].dim == 0) {
      nonlinearTidX = nonlinear;
      tidx = st;
    }
    if (!nonlinear && st.constant && w && *st.constant == static_cast<int64_t>(w) && a.unitStrideOn.empty())
      a.unitStrideOn = st.var;
    a.strides.push_back(std::move(st));
  }
  return tidx;
}

/// The verdict on a known address from its stride along %tid.x: coalesced,
/// uncoalesced, uniform (no %tid.x), or unknown.
void classify(AccessInfo &a, bool nonlinearTidX, const std::optional<Stride> &tidx) {
  const unsigned w = a.mem.bytes();
  if (!w) {
    a.verdict = AccessInfo::Verdict::Unknown;
    a.reason = "access width unknown";
    a.cause = UnknownCause::Unsupported;
  } else if (nonlinearTidX) {
    a.verdict = AccessInfo::Verdict::Unknown;
    a.reason = "address is not linear in %tid.x";
    a.cause = UnknownCause::Unsupported;
  } else if (!tidx) {
    a.verdict = AccessInfo::Verdict::Uniform;
    a.sectors = (w + 31) / 32;
    a.reason = "same address for every lane of a warp";
  } else {
    a.notes.push_back("warps assumed to span 32 consecutive %tid.x (blockDim.x >= 32)");
    if (tidx->constant) {
      a.sectors = warpSectors(*tidx->constant, w);
      if (a.base.empty() || a.offsetAlign % 32) a.notes.push_back("sector count assumes a 32-byte aligned start");
    } else {
      a.sectors = 32 * ((w + 31) / 32);  // symbolic stride: at least one sector per lane
    }
    if (*a.sectors <= a.idealSectors) {
      a.verdict = AccessInfo::Verdict::Coalesced;
      a.reason = "stride " + tidx->bytes + " bytes on %tid.x";
    } else {
      a.verdict = AccessInfo::Verdict::Uncoalesced;
      a.reason = "stride " + tidx->bytes + " bytes on %tid.x";
    }
  }
}

}  // namespace

std::vector<AccessInfo> analyzeAccesses(const ir::Module &m, const CFG &cfg, AffineAnalysis &aff) {
  std::vector<AccessInfo> out;
  const auto &instrs = cfg.instructions();
  const DeclAligns declAlign = declaredAlignments(m, cfg);
  const PointerSized pointerSized = pointerSizedParams(cfg);
  for (uint32_t i = 0; i < instrs.size(); ++i) {
    if (!cfg.blocks()[cfg.blockOf(i)].reachable) continue;
    auto mem = memAccess(*instrs[i]);
    if (!mem || mem->space == ".param") continue;
    AccessInfo a;
    a.instr = i;
    a.mem = *mem;
    a.loc = sourceLocation(m, cfg, i);
    a.address = aff.addressValue(i, *mem->address);
    const unsigned w = mem->bytes();
    a.idealSectors = w ? std::max(1u, (32 * w + 31) / 32) : 0;
    if (!a.address.known) {
      a.verdict = AccessInfo::Verdict::Unknown;
      a.reason = "address " + aff.str(a.address);
      a.cause = a.address.cause;
      out.push_back(std::move(a));
      continue;
    }
    findBase(a, aff, pointerSized, declAlign);
    if (a.base.empty() && a.baseAlign.empty()) a.baseAlign = "unknown (no base symbol)";
    a.offsetAlign = gcdOfCoefficients(a.address.poly, true, aff.symbols());
    if (a.address.signedWiden) a.notes.push_back("32-bit signed index widened to 64 bits: assumes no signed overflow");
    if (a.address.unsignedWiden)
      a.notes.push_back("32-bit unsigned arithmetic widened to 64 bits: exact only if it did not wrap");
    bool nonlinearTidX = false;
    const std::optional<Stride> tidx = findStrides(a, cfg, aff, nonlinearTidX);
    classify(a, nonlinearTidX, tidx);
    if (a.unitStrideOn == "%tid.x") a.unitStrideOn.clear();  // already unit-stride where it matters
    out.push_back(std::move(a));
  }
  findUnrolledStrides(cfg, aff, out);
  return out;
}

// ---------------------------------------------------------------- unrolled loops

void findUnrolledStrides(const CFG &cfg, AffineAnalysis &aff, std::vector<AccessInfo> &accs) {
  const LoopInfo &loops = aff.loops();
  // Group the accesses by innermost loop, kind, width and stride along its counter.
  std::map<std::tuple<uint32_t, int, unsigned, std::string>, std::vector<size_t>> groups;
  for (size_t i = 0; i < accs.size(); ++i) {
    const AccessInfo &a = accs[i];
    auto l = loops.loopOf(cfg.blockOf(a.instr));
    if (!l || !a.address.known || !a.mem.bytes()) continue;
    for (const auto &st : a.strides)
      if (aff.symbols()[st.symbol].kind == Symbol::Kind::LoopCounter && aff.symbols()[st.symbol].loop == *l &&
          st.bytes != "nonlinear" && st.bytes != "unknown")
        groups[{*l, int(a.mem.kind), a.mem.bytes(), st.bytes}].push_back(i);
  }
  for (auto &[key, members] : groups) {
    if (members.size() < 2 || members.size() > 64) continue;
    uint32_t loop = std::get<0>(key);
    Symbol k{Symbol::Kind::LoopCounter};
    k.loop = loop;
    uint16_t kid = aff.symbolId(k);
    bool nonlinear;
    Poly S = accs[members[0]].address.poly.coefficientOf(kid, nonlinear);
    // Distinct addresses (a load and a store of one element count once).
    std::vector<Poly> addrs;
    for (size_t m : members) {
      const Poly &p = accs[m].address.poly;
      if (std::find(addrs.begin(), addrs.end(), p) == addrs.end()) addrs.push_back(p);
    }
    int64_t U = static_cast<int64_t>(addrs.size());
    Poly s;
    if (U < 2 || !Poly::divExact(S, U, s)) continue;
    bool indexFree = true;  // s must not depend on the thread
    for (const auto &[mono, c] : s.terms())
      for (auto id : mono) indexFree &= !aff.symbols()[id].isIndex();
    if (!indexFree) continue;
    // Some address a0 with the others at a0 + j*s, j = 1..U-1, each once.
    bool found = false;
    for (const Poly &a0 : addrs) {
      std::vector<bool> seen(static_cast<size_t>(U), false);
      bool ok = true;
      Poly neg;
      if (!Poly::scale(a0, -1, neg)) break;
      for (const Poly &a : addrs) {
        Poly d, js;
        if (!Poly::add(a, neg, d)) {
          ok = false;
          break;
        }
        bool hit = false;
        for (int64_t j = 0; j < U && !hit; ++j)
          if (Poly::scale(s, j, js) && js == d && !seen[static_cast<size_t>(j)]) hit = seen[static_cast<size_t>(j)] = true;
        if (!hit) {
          ok = false;
          break;
        }
      }
      if (ok) {
        found = true;
        break;
      }
    }
    if (!found) continue;
    Stride es{kid, aff.symbolName(kid), aff.str(s), s.constantValue()};
    for (size_t m : members) {
      AccessInfo &a = accs[m];
      a.unroll = static_cast<unsigned>(U);
      a.elementStride = es;
      if (es.constant && *es.constant == static_cast<int64_t>(a.mem.bytes()) && a.unitStrideOn.empty() &&
          a.verdict != AccessInfo::Verdict::Coalesced)
        a.unitStrideOn = es.var;
    }
  }
}

// ---------------------------------------------------------------- divergence

namespace {

/// Taint: does the value of a register depend on the thread? Memoized per
/// (definition, register); 2 = yes, 1 = unknown, 0 = uniform. The reason
/// is kept as where it comes from and made text only for the branches
/// reported (a string per memo entry and per step was a third of the cost).
class Taint {
public:
  /// Where a level comes from: a special register, an instruction whose
  /// result it is, or the depth limit; none for level 0.
  struct Why {
    std::string_view reg;
    uint32_t instr = UINT32_MAX;
    bool deep = false;
  };
  Taint(const CFG &cfg, const ReachingDefs &rd) : cfg_(cfg), rd_(rd), memo_(rd.siteCount()) {}

  /// Level of register `r` (number `id`) as read at `at`.
  int reg(uint32_t at, std::string_view r, uint32_t id, Why &why, int depth) {
    if (int s = special(r); s >= 0) {
      if (s == 2) why = {r};
      return s;
    }
    if (depth > 200) {
      why = {{}, UINT32_MAX, true};
      return 1;
    }
    int worst = 0;
    // This depth's reaching definitions (the recursion below uses deeper ones).
    if (static_cast<size_t>(depth) >= defs_.size()) defs_.resize(static_cast<size_t>(depth) + 1);
    rd_.defsOfId(at, id, defs_[static_cast<size_t>(depth)]);
    for (size_t k = 0; k < defs_[static_cast<size_t>(depth)].size(); ++k) {
      const uint32_t d = defs_[static_cast<size_t>(depth)][k];
      if (d == ReachingDefs::kEntry) continue;  // parameters and undefined values: uniform
      // Cycles (loop counters) find the entry made here, at level 0: they add nothing new.
      Entry &e = memo_[rd_.siteOf(d, id)];
      int v;
      Why vwhy;
      if (e.seen) {
        v = e.level;
        vwhy = e.why;
      } else {
        e.seen = true;
        const Instruction &in = *cfg_.instructions()[d];
        std::string_view b = in.base();
        v = 0;
        if (b == "ld" || b == "ldu" || b == "atom" || b == "shfl" || b == "vote" || b == "match" ||
            b == "redux" || b == "activemask" || b == "tex" || b == "suld" || b == "call") {
          bool uniformLoad = (b == "ld" || b == "ldu") && (in.hasModifier(".param") || in.hasModifier(".const"));
          if (!uniformLoad) {
            v = 1;
            vwhy = {{}, d};
          }
        }
        const auto &uses = rd_.defUse(d).uses;
        for (size_t u = 0; u < uses.size(); ++u) {
          if (v == 2) break;
          Why w;
          int x = reg(d, uses[u], rd_.useId(d, u), w, depth + 1);
          if (x > v) {
            v = x;
            vwhy = w;
          }
        }
        e.level = v;
        e.why = vwhy;
      }
      if (v > worst) {
        worst = v;
        why = vwhy;
      }
      if (worst == 2) break;
    }
    return worst;
  }

  std::string text(const Why &w) const {
    if (w.deep) return "too deep";
    if (w.instr != UINT32_MAX) return std::string(cfg_.instructions()[w.instr]->opcode) + " result";
    return std::string(w.reg);
  }

private:
  static int special(std::string_view r) {
    if (r.substr(0, 5) == "%tid." || r == "%laneid" || r.substr(0, 9) == "%lanemask") return 2;
    if (r.substr(0, 6) == "%ntid." || r.substr(0, 7) == "%ctaid." || r.substr(0, 8) == "%nctaid.") return 0;
    if (r.substr(0, 6) == "%clock" || r.substr(0, 12) == "%globaltimer" || r == "%warpid" || r == "%smid") return 2;
    return -1;
  }

  const CFG &cfg_;
  const ReachingDefs &rd_;
  // Per definition site (an instruction's write of a register): every
  // register read here is one the reaching definitions numbered.
  struct Entry {
    bool seen = false;
    int level = 0;
    Why why;
  };
  std::vector<Entry> memo_;
  std::deque<std::vector<uint32_t>> defs_;  // per recursion depth (a deque: growing it moves none)
};

}  // namespace

std::vector<DivergentBranch> findDivergentBranches(const CFG &cfg, const ReachingDefs &rd) {
  Taint taint(cfg, rd);
  const auto &instrs = cfg.instructions();
  std::vector<DivergentBranch> out;
  for (uint32_t i = 0; i < instrs.size(); ++i) {
    const Instruction &in = *instrs[i];
    if (in.guard.empty() || !cfg.blocks()[cfg.blockOf(i)].reachable) continue;
    if (flowOf(in) == Flow::Next) continue;
    Taint::Why why;
    int v = taint.reg(i, in.guard, rd.registerId(in.guard), why, 0);
    if (v) out.push_back({i, v == 2, taint.text(why)});
  }
  return out;
}

}  // namespace ptxopt::analysis
