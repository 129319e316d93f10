// Symbolic values of registers: polynomials with integer coefficients over
// thread and block indices, launch dimensions, kernel parameters, addresses
// of globals and normalized loop counters.
//
// An address like `in1 + 4*(%tid.x*%nctaid.x + %ctaid.x)` is the polynomial
// param(in1) + 4*tid.x*nctaid.x + 4*ctaid.x; its stride along %tid.x is the
// coefficient 4*nctaid.x bytes. A value that depends on memory, on a path, or
// on an operation the form cannot express (division, shifts right, bit
// masks, selects, float conversions) is unknown, with the reason.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <deque>
#include <map>
#include <memory>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ptxopt/analysis/CFG.h"
#include "ptxopt/analysis/ReachingDefs.h"
#include "ptxopt/analysis/Uniformity.h"

namespace ptxopt::analysis {

struct Symbol {
  // Uniform: a value the analysis cannot write as a polynomial but that is
  // the same for every thread of the grid (it depends only on parameters,
  // constants, %ntid, %nctaid and trip counts of loops whose trip count is
  // itself uniform): nvcc's remainder-loop start, n & -4, n / 3, a select
  // on a uniform condition. An opaque integer; named after its register.
  enum class Kind : uint8_t { Tid, Ctaid, Ntid, Nctaid, Param, Global, LoopCounter, Uniform };
  explicit Symbol(Kind k) : kind(k) {}
  Kind kind;
  uint8_t dim = 0;        // 0,1,2 = x,y,z for the special registers
  std::string_view name;  // parameter or global name; register of a Uniform
  uint32_t loop = 0;      // loop id for LoopCounter
  uint32_t site = 0;      // Uniform: the defining instruction, or (merges) 0x80000000 | the reading one
  // Facts about a Uniform symbol (not part of its identity).
  std::vector<uint32_t> loops;  // loops in which its value may change from one iteration to the next
  uint8_t tz = 0;               // a multiple of 2^tz
  std::optional<uint64_t> umax;  // 0 <= value <= umax, when known
  bool operator==(const Symbol &o) const {
    return kind == o.kind && dim == o.dim && name == o.name && loop == o.loop && site == o.site;
  }
  /// Thread and block indices and loop counters: what a stride is taken along.
  bool isIndex() const { return kind == Kind::Tid || kind == Kind::Ctaid || kind == Kind::LoopCounter; }
};

/// A product of at most 8 symbols (sorted ids, with repeats): stored in
/// place, as the analyses make and drop many of them.
class Mono {
public:
  static constexpr size_t kMax = 8;
  Mono() = default;
  Mono(std::initializer_list<uint16_t> ids) {
    for (auto id : ids) push_back(id);
  }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  uint16_t operator[](size_t i) const { return ids_[i]; }
  const uint16_t *begin() const { return ids_; }
  const uint16_t *end() const { return ids_ + n_; }
  uint16_t *begin() { return ids_; }
  uint16_t *end() { return ids_ + n_; }
  /// The caller keeps size() <= kMax.
  void push_back(uint16_t id) { ids_[n_++] = id; }
  /// Sorts the ids (an insertion sort: at most kMax of them).
  void sort() {
    for (size_t i = 1; i < n_ && i < kMax; ++i) {
      uint16_t x = ids_[i];
      size_t j = i;
      for (; j > 0 && ids_[j - 1] > x; --j) ids_[j] = ids_[j - 1];
      ids_[j] = x;
    }
  }
  /// Ordered as std::vector<uint16_t> compares (lexicographic, shorter first on a tie).
  bool operator<(const Mono &o) const { return std::lexicographical_compare(begin(), end(), o.begin(), o.end()); }
  bool operator==(const Mono &o) const { return n_ == o.n_ && std::equal(begin(), end(), o.begin()); }

private:
  uint8_t n_ = 0;
  uint16_t ids_[kMax] = {};
};

/// A polynomial: monomial -> non-zero coefficient, as a vector sorted by
/// monomial (one allocation per polynomial; a map made one per term).
class Poly {
public:
  using Mono = analysis::Mono;
  using Terms = std::vector<std::pair<Mono, int64_t>>;
  Poly() = default;
  static Poly constant(int64_t c);
  static Poly symbol(uint16_t id);
  const Terms &terms() const { return terms_; }
  bool isConstant() const { return terms_.empty() || (terms_.size() == 1 && terms_.begin()->first.empty()); }
  std::optional<int64_t> constantValue() const;
  int64_t constantTerm() const;
  /// False when a coefficient overflowed; the result is then meaningless.
  static bool add(const Poly &a, const Poly &b, Poly &out);
  static bool mul(const Poly &a, const Poly &b, Poly &out);
  static bool scale(const Poly &a, int64_t k, Poly &out);
  /// a / d when d divides every coefficient (false otherwise).
  static bool divExact(const Poly &a, int64_t d, Poly &out);
  /// The coefficient of `sym` among terms linear in it (sym removed), and
  /// whether any term holds `sym` more than once (not linear).
  Poly coefficientOf(uint16_t sym, bool &nonlinear) const;
  bool contains(uint16_t sym) const;
  /// Terms without `sym`.
  Poly without(uint16_t sym) const;
  bool operator==(const Poly &o) const { return terms_ == o.terms_; }

private:
  Terms terms_;  // sorted by monomial, no zero coefficient
};

/// Why a value is unknown, in classes a user can act on (the coverage counts
/// of `--stats` and the report group unknown accesses by it). `why` keeps the
/// precise text; this is its class.
enum class UnknownCause : uint8_t {
  Other,          // not classified yet
  DataDependent,  // loaded from memory (ld, ldu), a gather/scatter index
  Atomic,         // an atomic's result
  Call,           // a call's return value, or a value a call may change
  PathDependent,  // differs by path and is not the same for every thread
  Unsupported,    // an instruction or operand form the analysis does not follow
  FloatingPoint,  // computed in floating point
  Overflow,       // coefficients overflowed, expression too deep
};
const char *causeName(UnknownCause c);

struct Value {
  bool known = false;
  Poly poly;
  std::string why;  // reason when unknown
  UnknownCause cause = UnknownCause::Other;  // class of `why`
  // Notes on 32-bit arithmetic widened to 64 bits (see the wrap rules in Affine.cpp).
  bool signedWiden = false;    // via .s32 -> 64: exact unless signed overflow (undefined in C/C++)
  bool unsignedWiden = false;  // via .u32 -> 64: exact unless the 32-bit value wrapped
  // Known bits of an unknown value (a known one's come from its polynomial):
  // a multiple of 2^tz; 0 <= value <= umax when umax is set.
  uint8_t tz = 0;
  std::optional<uint64_t> umax;
  static Value unknown(std::string why, UnknownCause cause = UnknownCause::Other) {
    Value v;
    v.why = std::move(why);
    v.cause = cause;
    return v;
  }
  static Value of(Poly p) {
    Value v;
    v.known = true;
    v.poly = std::move(p);
    return v;
  }
};

/// Sum/product of two values (unknown if either is, without its facts, or
/// on overflow) and negation.
Value combine(const Value &a, const Value &b, bool (*op)(const Poly &, const Poly &, Poly &));
Value negate(const Value &a);

struct InductionVar {
  uint32_t loop;
  std::string_view reg;
  uint32_t initDef, updateDef;  // instruction indexes
  Poly init, step;              // value at iteration k: init + step*k
  std::string tripCount;        // "" when not computed
  std::optional<int64_t> tripConstant;
};

class AffineAnalysis {
public:
  AffineAnalysis(const ir::Module &m, const CFG &cfg, const DominatorTree &dom, const LoopInfo &loops,
                 const ReachingDefs &rd);

  /// Value of operand `o` (register, immediate, symbol) as read by instruction `at`.
  Value operandValue(uint32_t at, const ir::Operand &o);
  /// Value that instruction `def` writes to `reg`.
  Value definitionValue(uint32_t def, std::string_view reg) { return defValue(def, reg); }
  /// Value of an address operand `[a+b]` of instruction `at`.
  Value addressValue(uint32_t at, const ir::Operand &addr);
  /// Induction variables found so far (filled while values are computed;
  /// `findInductionVars` computes them for every loop).
  const std::vector<InductionVar> &inductionVars();

  /// Whether `reg` read at `at` is the same for every thread of the grid,
  /// of a block, or may differ (Uniformity.cpp).
  UniformLevel uniformLevel(uint32_t at, std::string_view reg) { return uniformity().read(at, reg); }
  /// Whether every thread that runs loop `loop` runs it the same number of times.
  UniformLevel tripCountUniformity(uint32_t loop) { return uniformity().tripCount(loop); }
  Uniformity &uniformity();
  /// Whether polynomial `p` may change from one iteration of loop `loop` to
  /// the next other than through its counter: a Uniform symbol set inside
  /// it, or the counter of a loop nested in it.
  bool variesIn(const Poly &p, uint32_t loop) const;

  /// 0 <= value <= upperBound when that is set (KnownBits.cpp: from the
  /// launch limits and .reqntid/.maxntid for thread and block indices).
  std::optional<uint64_t> upperBound(const Value &v) const;
  /// The same for a value read at instruction `at`, with the counters of
  /// the loops around `at` bounded by their constant trip counts.
  std::optional<uint64_t> upperBoundAt(const Value &v, uint32_t at);

  const LoopInfo &loops() const { return loops_; }
  const std::vector<Symbol> &symbols() const { return syms_; }
  uint16_t symbolId(const Symbol &s);
  std::string symbolName(uint16_t id) const;
  std::string str(const Poly &p) const;
  std::string str(const Value &v) const { return v.known ? str(v.poly) : "unknown (" + v.why + ")"; }

private:
  Value regValue(uint32_t at, std::string_view reg);
  Value defValue(uint32_t def, std::string_view reg);
  Value evalInstr(uint32_t def, std::string_view reg);
  std::optional<Value> inductionValue(uint32_t at, std::string_view reg, const std::vector<uint32_t> &defs);
  /// The bits a non-negative value may have set, when it is a sum of terms
  /// whose bit ranges do not overlap (so the sum has no carries): the fact
  /// that turns Triton-style `and`/`or` index arithmetic into additions.
  std::optional<uint64_t> possibleBits(const Poly &p);
  /// Largest value of a symbol, from launch limits and .reqntid/.maxntid
  /// (a Uniform symbol's from its facts); none when unbounded or possibly negative.
  std::optional<uint64_t> symbolMax(const Symbol &s) const;
  /// upperBound with each symbol's maximum from `symMax`.
  std::optional<uint64_t> boundWith(const Value &v,
                                    const std::function<std::optional<uint64_t>(uint16_t)> &symMax) const;
  /// Known bits (KnownBits.cpp): the value is a multiple of 2^trailingZeros.
  unsigned trailingZeros(const Value &v) const;
  /// and/or/xor/shr/selp/min/max/rem/bfe: the value when the known bits make
  /// it affine, else unknown with the bits that are known; nullopt for
  /// other instructions.
  std::optional<Value> evalBitOp(uint32_t def, const ir::Instruction &in);
  /// evalBitOp's and/or/xor (name: the opcode, w: its width in bits).
  Value evalAndOrXor(std::string_view base, const std::string &name, unsigned w, const Value &a, const Value &b);
  void computeTripCount(InductionVar &iv);
  /// A Uniform symbol for `reg` at `site` with the given facts.
  std::optional<uint16_t> uniformSymbol(std::string_view reg, uint32_t site, std::vector<uint32_t> loops, unsigned tz,
                                        std::optional<uint64_t> umax);
  /// Definitions of `reg` that disagree, merged at `at`: the common
  /// thread-dependent part plus a Uniform symbol when the choice between
  /// them and the parts that differ are the same for every thread.
  std::optional<Value> uniformMerge(uint32_t at, std::string_view reg, const std::vector<uint32_t> &defs,
                                    const std::vector<Value> &vals);
  /// `v`, written by `def`, as read at `at`: unknown when `at` is after a
  /// loop around `def` whose trip count may differ by thread and `v`
  /// changes with its iterations.
  Value leaveLoops(uint32_t def, uint32_t at, Value v);
  /// 0: the same for every thread of the grid wherever read in block `b`; 1: of a block; 2: per thread.
  uint8_t symbolLevel(uint16_t id, uint32_t b);
  /// `ld.param` at `def` of `name+off`: a kernel parameter, a device
  /// function's argument, or a call's return value (Affine.cpp, calls).
  Value paramLoad(uint32_t def, std::string_view name, int64_t off, std::string pname);
  /// The value a call before `ld` returns in its parameter `ret` at `off`,
  /// when the callee is a .func of the module whose return value is affine
  /// in its arguments; unknown (Call) otherwise.
  Value callResult(uint32_t ld, std::string_view ret, int64_t off);
  /// Maps a polynomial of a callee's analysis into this one, arguments
  /// replaced by their values at the call.
  Value mapFromCallee(AffineAnalysis &callee, const Value &v, const std::vector<std::string_view> &params,
                      const std::vector<Value> &args);

  struct Callee;  // a .func with its own CFG and analyses (Affine.cpp)
  std::map<std::string_view, std::shared_ptr<Callee>> callees_;
  // Functions whose return value is being computed, shared with callees' analyses (recursion).
  std::shared_ptr<std::set<std::string_view>> active_ = std::make_shared<std::set<std::string_view>>();
  // A device function's arguments as Param symbols (only for a callee's
  // summary: elsewhere they may differ by thread and are unknown).
  bool argsAsSymbols_ = false;
  std::unique_ptr<Uniformity> uni_;
  // An induction variable updated through a chain of adds: its update
  // evaluated with the register at the top of the iteration as placeholder.
  // A definition's value is cached per (instruction, register): `reg` is a
  // view of the module's text (or of names_), compared by content.
  struct DefKey {
    uint32_t def;
    std::string_view reg;
    bool operator==(const DefKey &o) const { return def == o.def && reg == o.reg; }
  };
  struct DefKeyHash {
    size_t operator()(const DefKey &k) const { return NameHash()(k.reg) * 31 + k.def; }
  };
  struct Trial {
    std::string_view reg;
    uint32_t init, upd;
    uint16_t placeholder;
    std::vector<DefKey> keys;  // cache entries to forget afterwards
  };
  Trial *trial_ = nullptr;
  std::optional<Value> chainStep(uint32_t loop, std::string_view reg, uint32_t init, uint32_t upd);
  // "site:register" -> symbol: an instruction writing several registers
  // (`mov.b64 {%r1, %r2}, %rd`) gives each its own symbol.
  std::unordered_map<std::string, uint16_t> uniformIds_;
  std::map<std::pair<std::string, std::vector<uint32_t>>, uint32_t> mergeSites_;  // (reg@block, defs) -> site

  const ir::Module &m_;
  const CFG &cfg_;
  const DominatorTree &dom_;
  const LoopInfo &loops_;
  const ReachingDefs &rd_;
  std::vector<Symbol> syms_;
  std::deque<std::string> names_;  // storage for composed parameter names ("p+8")
  // One table for a definition's value and whether it is being computed
  // (two tables were five lookups per evaluation): an entry is made by the
  // first lookup and completed in place. chainStep erases entries, so an
  // evaluation holding one looks it up again when `erased_` has moved.
  struct DefEntry {
    Value v;
    bool done = false;        // v is the value
    bool inProgress = false;  // being evaluated (a cycle reads it unknown)
  };
  std::unordered_map<DefKey, DefEntry, DefKeyHash> defs_;
  std::vector<DefKey> inProgress_;  // the keys being evaluated, outermost first
  uint64_t erased_ = 0;
  // regValue's reaching definitions, one vector per recursion depth (a
  // deque: making a deeper one leaves the shallower ones in place).
  std::deque<std::vector<uint32_t>> defsScratch_;
  size_t regDepth_ = 0;
  std::vector<InductionVar> ivs_;
  bool ivsComplete_ = false;
  int depth_ = 0;
};

}  // namespace ptxopt::analysis
