// Helpers shared by the passes that build clones of kernels (coalesce,
// group): the hardware index positions, a small emitter of new statements,
// renaming of registers and special-register reads, and the checks every
// clone needs (callees that read indices, block-shape directives).
#pragma once

#include <cctype>
#include <functional>
#include <map>
#include <numeric>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "Pass.h"
#include "ptxopt/analysis/Affine.h"

namespace ptxopt::transforms::clone {

using ir::Operand;

// Hardware index positions, fastest first: the mixed-radix digits of a
// thread's place in the grid.
struct Position {
  const char *index, *extent;  // "%tid.x", "%ntid.x"
  DimSource::From from;
  uint8_t dim;
};
inline constexpr Position kPos[6] = {{"%tid.x", "%ntid.x", DimSource::From::Block, 0},
                              {"%tid.y", "%ntid.y", DimSource::From::Block, 1},
                              {"%tid.z", "%ntid.z", DimSource::From::Block, 2},
                              {"%ctaid.x", "%nctaid.x", DimSource::From::Grid, 0},
                              {"%ctaid.y", "%nctaid.y", DimSource::From::Grid, 1},
                              {"%ctaid.z", "%nctaid.z", DimSource::From::Grid, 2}};

inline void renameOperand(Operand &o, const std::map<std::string, std::string> &names, ir::Module &m) {
  if (o.kind == Operand::Kind::Register) {
    auto it = names.find(std::string(o.text));
    if (it != names.end()) o.text = m.intern(it->second);
  }
  for (auto &e : o.elems) renameOperand(e, names, m);
}

inline void renameRegisters(ir::Block &b, const std::map<std::string, std::string> &names, ir::Module &m) {
  ir::forEachStmt(b, [&](ir::Stmt &s) {
    if (s.kind != ir::Stmt::Kind::Instruction) return;
    auto &in = static_cast<ir::Instruction &>(s);
    for (auto &o : in.operands) renameOperand(o, names, m);
    in.edited = true;
  });
}

/// Small builder of new statements for a clone.
struct Emitter {
  ir::Module &m;
  std::vector<std::unique_ptr<ir::Stmt>> out;
  std::string prefix = "%ptxopt_";  // of the registers it declares: <prefix>r<N>, <prefix>rd<N>, <prefix>p<N>
  unsigned r32 = 0, r64 = 0, pred = 0;

  std::string reg32() { return prefix + "r" + std::to_string(r32++); }
  std::string reg64() { return prefix + "rd" + std::to_string(r64++); }
  std::string regp() { return prefix + "p" + std::to_string(pred++); }
  /// "%r1" a register, "16" or "-1" an immediate, "[name]" the address of
  /// `name`, anything else a symbol.
  Operand op(const std::string &t) {
    if (t.size() > 2 && t.front() == '[' && t.back() == ']')
      return Operand{Operand::Kind::Address, "", {op(t.substr(1, t.size() - 2))}};
    std::string_view v = m.intern(t);
    if (!t.empty() && t[0] == '%') return Operand::reg(v);
    if (!t.empty() && (std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '-')) return Operand::imm(v);
    return Operand::sym(v);
  }
  void ins(const std::string &opcode, std::vector<std::string> ops, const std::string &guard = "") {
    auto in = std::make_unique<ir::Instruction>();
    in->opcode = m.intern(opcode);
    if (!guard.empty()) {
      in->guardNegated = guard[0] == '!';
      in->guard = m.intern(in->guardNegated ? guard.substr(1) : guard);
    }
    for (auto &o : ops) in->operands.push_back(op(o));
    in->edited = true;
    out.push_back(std::move(in));
  }
  void label(const std::string &name) {
    auto l = std::make_unique<ir::Label>();
    l->name = m.intern(name);
    l->edited = true;
    out.push_back(std::move(l));
  }
  std::unique_ptr<ir::Decl> decl(const char *type, const std::string &prefix, unsigned n) {
    auto d = std::make_unique<ir::Decl>();
    d->attrs = {".reg", type};
    d->names.push_back({m.intern(prefix), n, {}});
    d->edited = true;
    return d;
  }
};

/// Replaces reads of the special registers in `names` by ordinary registers.
/// `mov.u16 %rs, %tid.x` (allowed only for special registers) becomes a cvt.
inline void replaceSpecialReads(ir::Block &b, const std::map<std::string, std::string> &names, ir::Module &m) {
  ir::forEachStmt(b, [&](ir::Stmt &s) {
    if (s.kind != ir::Stmt::Kind::Instruction) return;
    auto &in = static_cast<ir::Instruction &>(s);
    bool changed = false;
    for (auto &o : in.operands) {
      std::function<void(Operand &)> walk = [&](Operand &x) {
        if (x.kind == Operand::Kind::Register) {
          auto it = names.find(std::string(x.text));
          if (it != names.end()) {
            x.text = m.intern(it->second);
            changed = true;
          }
        }
        for (auto &e : x.elems) walk(e);
      };
      walk(o);
    }
    if (!changed) return;
    in.edited = true;
    if (in.base() == "mov" && (in.hasModifier(".u16") || in.hasModifier(".b16") || in.hasModifier(".s16")))
      in.opcode = m.intern("cvt.u16.u32");
  });
}

/// Index of the first statement after the leading declarations of the body.
inline size_t prologueAt(const ir::Block &b) {
  size_t i = 0;
  while (i < b.body.size() && b.body[i]->kind == ir::Stmt::Kind::Decl) ++i;
  return i;
}

/// A function called (transitively) by `f` that reads a thread or block
/// index or extent itself: the clones rename those reads in the kernel only,
/// so such a callee would see the hardware indices. Null when there is none.
inline const ir::Function *calleeReadingIndices(ir::Module &m, const ir::Function &f, std::set<const ir::Function *> &seen) {
  if (!f.body || !seen.insert(&f).second) return nullptr;
  const ir::Function *found = nullptr;
  ir::forEachStmt(*f.body, [&](const ir::Stmt &s) {
    if (found || s.kind != ir::Stmt::Kind::Instruction) return;
    const auto &in = static_cast<const ir::Instruction &>(s);
    if (in.base() != "call") return;
    for (const auto &o : in.operands) {
      if (o.kind != Operand::Kind::Symbol) continue;
      const ir::Function *callee = m.findFunction(o.text);
      if (!callee || !callee->body) continue;
      bool reads = false;
      ir::forEachStmt(*callee->body, [&](const ir::Stmt &cs) {
        if (cs.kind != ir::Stmt::Kind::Instruction) return;
        for (const auto &op : static_cast<const ir::Instruction &>(cs).operands)
          analysis::forEachRegister(op, [&](const Operand &r) {
            for (const auto &p : kPos) reads |= r.text == p.index || r.text == p.extent;
          });
      });
      if (reads) found = callee;
      else if (auto *deeper = calleeReadingIndices(m, *callee, seen)) found = deeper;
      if (found) return;
    }
  });
  return found;
}

/// Removes the directives that describe the original launch's block shape
/// (a clone launched with other dimensions must not carry them).
inline void dropBlockShapeDirectives(ir::Function &f) {
  std::erase_if(f.perf, [](const ir::Directive &d) {
    return d.name == ".maxntid" || d.name == ".reqntid" || d.name == ".reqnctapercluster" ||
           d.name == ".explicitcluster" || d.name == ".maxclusterrank";
  });
}

/// Puts the emitter's register declarations and statements at the start of
/// the clone's body (after its own declarations).
inline void insertPrologue(ir::Function &clone, Emitter &e, bool wide) {
  std::vector<std::unique_ptr<ir::Stmt>> pre;
  pre.push_back(e.decl(".b32", e.prefix + "r", e.r32));
  if (wide) {
    pre.push_back(e.decl(".b64", e.prefix + "rd", e.r64));
    pre.push_back(e.decl(".pred", e.prefix + "p", e.pred));
  }
  for (auto &st : e.out) pre.push_back(std::move(st));
  auto &body = clone.body->body;
  body.insert(body.begin() + static_cast<long>(prologueAt(*clone.body)), std::make_move_iterator(pre.begin()),
              std::make_move_iterator(pre.end()));
}

/// A memory instruction without ordering or volatility qualifiers
/// (`.volatile`, `.relaxed`, `.acquire`, `.release`, `.mmio`, `.cv`, or a
/// scope): the grouping passes may repeat, reorder across threads or merge
/// only such accesses.
inline bool plainMemoryOp(const ir::Instruction &in) {
  for (auto mod : in.modifiers())
    if (mod == ".volatile" || mod == ".relaxed" || mod == ".acquire" || mod == ".release" || mod == ".mmio" ||
        mod == ".cv" || mod == ".sys" || mod == ".gpu" || mod == ".cta" || mod == ".cluster")
      return false;
  return true;
}

/// The type modifier of a memory instruction (".u8", ".f32"), or "".
inline std::string typeModifier(const ir::Instruction &in) {
  for (auto mod : in.modifiers()) {
    std::string s(mod);
    if (s.size() >= 3 && (s[1] == 'u' || s[1] == 's' || s[1] == 'b' || s[1] == 'f') &&
        std::isdigit(static_cast<unsigned char>(s[2])))
      return s;
  }
  return "";
}

/// The register types a function body declares: plain names and `%r<N>`
/// range prefixes.
struct RegTypes {
  std::map<std::string, std::string> plain, range;
  void add(const ir::Decl &d) {
    for (const auto &n : d.names) (n.range ? range : plain)[std::string(n.name)] = std::string(d.type());
  }
  /// Declared type of register `r` (".b16"), or "" when not declared here.
  std::string type(std::string_view r) const {
    if (auto it = plain.find(std::string(r)); it != plain.end()) return it->second;
    size_t e = r.size();
    while (e > 0 && std::isdigit(static_cast<unsigned char>(r[e - 1]))) --e;
    if (e == r.size()) return "";
    auto it = range.find(std::string(r.substr(0, e)));
    return it == range.end() ? "" : it->second;
  }
  /// Width in bits (1 for .pred, 0 when unknown).
  unsigned bits(std::string_view r) const {
    std::string t = type(r);
    return t == ".pred" ? 1 : analysis::typeBytes(t) * 8;
  }
};

/// The module's kernels that are not clones (no `__ptxopt_` in the name),
/// in module order: what the passes that start from originals take
/// (CloneUtil.cpp).
std::vector<ir::Function *> originalKernels(ir::Module &m);

/// Index of the parameter of `f` named `name`, or -1 (CloneUtil.cpp).
int paramIndex(const ir::Function &f, std::string_view name);

/// Base register and offset of `[reg]` / `[reg+imm]` / `[reg-imm]`
/// (CloneUtil.cpp).
bool baseAndOffset(const Operand &addr, std::string &reg, int64_t &off);

/// Asks `c` of `conds`: a parameter already there keeps the larger
/// alignment (CloneUtil.cpp).
void requireAligned(std::vector<Variant::AlignedParam> &conds, const Variant::AlignedParam &c);

/// Whether address polynomial `poly` is a multiple of V for every launch
/// that passes runtime conditions: each term's coefficient, times
/// `scale(term)`, must be a multiple of V, or the term must hold a
/// parameter of `f`, which becomes a condition appended to `conds` (its
/// value a multiple of V / gcd(coefficient, V): a pointer's alignment, a
/// pitch). A term with several parameters (`B * w * %ctaid.y`, a tile edge
/// times a pitch) is a multiple of the coefficient times any one of them:
/// a condition already asked of one of them is used when it suffices, else
/// one is asked of the first. The constant term's remainder goes to
/// `misalign` (0..V-1). False when a term can be neither (a global's
/// address, an index with an odd coefficient); then `why` (when given) names
/// the term.
template <typename Scale>
bool vectorAlignment(const analysis::Poly &poly, const analysis::AffineAnalysis &aff, const ir::Function &f,
                     int64_t V, Scale scale, std::vector<Variant::AlignedParam> &conds, int64_t &misalign,
                     std::string *why = nullptr) {
  misalign = 0;
  auto require = [&](int index, uint32_t need) { requireAligned(conds, {static_cast<uint32_t>(index), need}); };
  // Terms with several parameters after those with one, so that their
  // conditions are known first.
  std::vector<std::pair<std::vector<int>, int64_t>> several;
  for (const auto &[mono, coeff] : poly.terms()) {
    __int128 c = coeff;
    for (uint16_t id : mono) c *= scale(aff.symbols()[id]);
    int64_t rem = static_cast<int64_t>(((c % V) + V) % V);
    if (rem == 0) continue;
    if (mono.empty()) {
      misalign = rem;
      continue;
    }
    std::vector<int> params;
    bool unknownParam = false;
    for (uint16_t id : mono)
      if (aff.symbols()[id].kind == analysis::Symbol::Kind::Param) {
        int index = paramIndex(f, aff.symbols()[id].name);
        if (index < 0) unknownParam = true;
        else params.push_back(index);
      }
    if (params.empty() || unknownParam) {
      if (why) {
        analysis::Poly t = analysis::Poly::constant(coeff);
        for (uint16_t id : mono) analysis::Poly::mul(t, analysis::Poly::symbol(id), t);
        *why = "its term " + aff.str(t) + " is not a multiple of " + std::to_string(V) +
               " and holds no parameter that could be checked at launch";
      }
      return false;
    }
    if (params.size() == 1) require(params[0], static_cast<uint32_t>(V / std::gcd(rem, V)));
    else several.push_back({params, rem});
  }
  for (const auto &[params, rem] : several) {
    bool done = false;
    for (int index : params)
      for (const auto &x : conds)
        done |= x.index == static_cast<uint32_t>(index) && (static_cast<__int128>(rem) * x.bytes) % V == 0;
    if (!done) require(params[0], static_cast<uint32_t>(V / std::gcd(rem, V)));
  }
  return true;
}

/// Moves the w-byte element at byte `byte` of the 32-bit `words` into `dst`
/// (16, 32 or 64 bits), sign- or zero-extended as the load's type says:
/// `bfe` for 1- and 2-byte elements, then `cvt` or `mov` to the width.
inline void emitUnpack(Emitter &e, const std::vector<std::string> &words, unsigned byte, unsigned w, bool sign,
                       const std::string &dst, unsigned dstBits) {
  std::string v32;  // the element, extended to 32 bits
  if (w == 4) {
    v32 = words[byte / 4];
  } else {
    v32 = dstBits == 32 ? dst : e.reg32();
    e.ins(sign ? "bfe.s32" : "bfe.u32", {v32, words[byte / 4], std::to_string((byte % 4) * 8), std::to_string(w * 8)});
  }
  if (dstBits == 16) e.ins("cvt.u16.u32", {dst, v32});
  else if (dstBits == 64) e.ins(sign ? "cvt.s64.s32" : "cvt.u64.u32", {dst, v32});
  else if (v32 != dst) e.ins("mov.b32", {dst, v32});
}

/// The coalesce pass's split clone of `k` (defined in Coalesce.cpp): the
/// function, named `<k>__ptxopt_split<S>[_large]`, and its manifest variant.
/// The group pass builds its own split clones with larger S.
std::pair<std::unique_ptr<ir::Function>, Variant> makeSplitClone(ir::Module &m, const ir::Function &k, uint32_t split,
                                                                 uint32_t minGrid);

/// Removes the instructions of `f` without side effects whose destination no
/// instruction of `f` reads (repeatedly); returns how many (DeadCode.cpp).
size_t removeDeadCode(ir::Function &f);

/// After edits that moved statements of `clone`, a copy of `orig` whose
/// statements `origIndex` maps to their index in orig (new statements
/// absent): gives `.rn` to the add (or mul) of each product and sum ptxas
/// could now fuse into an fma and could not in the original, so the clone
/// rounds as the original does (Contraction.cpp). Returns why not, when a
/// pair is parted or cannot be kept apart.
std::optional<std::string> keepContractions(ir::Module &m, const ir::Block &orig, ir::Block &clone,
                                            const std::unordered_map<const ir::Stmt *, size_t> &origIndex);

}  // namespace ptxopt::transforms::clone
