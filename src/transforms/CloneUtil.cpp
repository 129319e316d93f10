// Helpers shared by the passes that build clones (declared in CloneUtil.h):
// renaming, nested scopes flattened (flattenScopes), the statement emitter,
// the checks every clone needs, register types, parameters by name,
// addresses as base register and offset, alignment conditions, unpacking a
// vector's elements.
#include "CloneUtil.h"

#include <algorithm>
#include <functional>

#include <cctype>
#include <numeric>

namespace ptxopt::transforms::clone {

void renameOperand(Operand &o, const std::map<std::string, std::string> &names, ir::Module &m) {
  if (o.kind == Operand::Kind::Register) {
    auto it = names.find(std::string(o.text));
    if (it != names.end()) o.text = m.intern(it->second);
  }
  for (auto &e : o.elems) renameOperand(e, names, m);
}

void renameRegisters(ir::Block &b, const std::map<std::string, std::string> &names, ir::Module &m) {
  ir::forEachStmt(b, [&](ir::Stmt &s) {
    if (s.kind != ir::Stmt::Kind::Instruction) return;
    auto &in = static_cast<ir::Instruction &>(s);
    for (auto &o : in.operands) renameOperand(o, names, m);
    in.edited = true;
  });
}

bool hasScopes(const ir::Function &f) {
  return f.body && std::any_of(f.body->body.begin(), f.body->body.end(),
                               [](const auto &st) { return st->kind == ir::Stmt::Kind::Block; });
}

std::optional<std::string> flattenScopes(ir::Function &f, ir::Module &m) {
  if (!hasScopes(f)) return std::nullopt;
  for (const auto &st : f.body->body) {
    if (st->kind != ir::Stmt::Kind::Block) continue;
    for (const auto &in : static_cast<const ir::Block &>(*st).body) {
      switch (in->kind) {
        case ir::Stmt::Kind::Instruction:
          if (static_cast<const ir::Instruction &>(*in).base() == "call") return "a nested scope holds a call sequence";
          break;
        case ir::Stmt::Kind::Directive:
          break;
        case ir::Stmt::Kind::Decl: {
          const auto &d = static_cast<const ir::Decl &>(*in);
          if (d.space() == ".param") return std::string("a nested scope holds a call sequence");
          if (d.space() != ".reg") return "a nested scope declares " + std::string(d.space()) + " variables";
          for (const auto &n : d.names)
            if (n.range || !n.dims.empty()) return "a nested scope declares a register range or array";
          break;
        }
        case ir::Stmt::Kind::Label:
          return std::string("a nested scope holds a label");
        case ir::Stmt::Kind::Block:
          return std::string("a nested scope holds a scope");
      }
    }
  }
  unsigned fresh = 0;
  std::vector<std::unique_ptr<ir::Stmt>> flat, decls;  // the scopes' declarations go to the body's top
  for (auto &st : f.body->body) {
    if (st->kind != ir::Stmt::Kind::Block) {
      flat.push_back(std::move(st));
      continue;
    }
    auto &scope = static_cast<ir::Block &>(*st);
    std::map<std::string, std::string> names;
    for (auto &in : scope.body)
      if (in->kind == ir::Stmt::Kind::Decl)
        for (auto &n : static_cast<ir::Decl &>(*in).names) {
          const std::string to = "%ptxopt_s" + std::to_string(fresh++);
          names[std::string(n.name)] = to;
          n.name = m.intern(to);
        }
    for (auto &in : scope.body) {
      in->edited = true;
      if (in->kind == ir::Stmt::Kind::Instruction && !names.empty()) {
        auto &i = static_cast<ir::Instruction &>(*in);
        // registers, and a name the parser took for a symbol (a plain name declared with .reg)
        std::function<void(Operand &)> rename = [&](Operand &o) {
          if (o.kind == Operand::Kind::Register || o.kind == Operand::Kind::Symbol)
            if (auto it = names.find(std::string(o.text)); it != names.end()) o = Operand::reg(m.intern(it->second));
          for (auto &e : o.elems) rename(e);
        };
        for (auto &o : i.operands) rename(o);
        if (auto it = names.find(std::string(i.guard)); !i.guard.empty() && it != names.end())
          i.guard = m.intern(it->second);
      }
      (in->kind == ir::Stmt::Kind::Decl ? decls : flat).push_back(std::move(in));
    }
  }
  auto top = std::find_if(flat.begin(), flat.end(), [](const auto &st) { return st->kind != ir::Stmt::Kind::Decl; });
  flat.insert(top, std::make_move_iterator(decls.begin()), std::make_move_iterator(decls.end()));
  f.body->body = std::move(flat);
  f.body->edited = true;
  return std::nullopt;
}

FlatCopy::~FlatCopy() {
  if (f_) ctx_.analyses.invalidate(*f_);
}

void FlatCopy::copy(const ir::Function &k) {
  if (f_) ctx_.analyses.invalidate(*f_);
  f_ = ir::cloneFunction(k, k.name, "", ctx_.module);
}

std::optional<std::string> FlatCopy::make(const ir::Function &k) {
  copy(k);
  auto why = flattenScopes(*f_, ctx_.module);
  if (why) f_.reset();
  return why;
}

void FlatCopy::reset() {
  if (f_) ctx_.analyses.invalidate(*f_);
  f_.reset();
}

bool FlatCopy::makePeeled(const ir::Function &k) {
  copy(k);
  if ((hasScopes(*f_) && flattenScopes(*f_, ctx_.module)) ||
      peelRotatedLoops(*f_, ctx_.module) + foldJumpLatches(*f_, ctx_.module) == 0) {
    f_.reset();
    return false;
  }
  return true;
}

namespace {

using StmtList = std::vector<std::unique_ptr<ir::Stmt>>;

const ir::Instruction *asInstr(const StmtList &s, size_t i) {
  return s[i]->kind == ir::Stmt::Kind::Instruction ? static_cast<const ir::Instruction *>(s[i].get()) : nullptr;
}

/// The next statement at or after i that is not a directive (.loc).
size_t skipDirectives(const StmtList &s, size_t i) {
  while (i < s.size() && s[i]->kind == ir::Stmt::Kind::Directive) ++i;
  return i;
}

bool isLabel(const StmtList &s, size_t i, std::string_view name) {
  return i < s.size() && s[i]->kind == ir::Stmt::Kind::Label && static_cast<const ir::Label &>(*s[i]).name == name;
}

/// The end of the straight-line run of instructions and directives from i
/// (the first label, block or instruction that does not fall through).
size_t straightEnd(const StmtList &s, size_t i) {
  for (; i < s.size(); ++i) {
    if (s[i]->kind == ir::Stmt::Kind::Directive) continue;
    const ir::Instruction *in = asInstr(s, i);
    if (!in || analysis::flowOf(*in) != analysis::Flow::Next || in->base() == "call") break;
  }
  return i;
}

/// In <b> = s[b0, b1) of a rotated loop, an address `[t+k]` whose t <h> =
/// s[h0, h1) sets once, `add.s64 t, v, c` (c an immediate), becomes
/// `[v+(k+c)]` when v is not written after that add in <h> nor in <b> before
/// the load: <b> runs after <h> (of the peeled copy or of the previous
/// iteration), so t still holds v + c there (nvcc's `%rd5 = %rd15 - 8` of a
/// loop from j = 0). The address then names the row register itself.
void addressesThroughLink(StmtList &s, size_t b0, size_t b1, size_t h0, size_t h1, ir::Module &m) {
  auto writes = [&](size_t i, std::string_view r) {
    const ir::Instruction *in = asInstr(s, i);
    if (!in) return false;
    const auto du = analysis::defUse(*in);
    return std::find(du.defs.begin(), du.defs.end(), r) != du.defs.end();
  };
  for (size_t i = b0; i < b1; ++i) {
    if (!asInstr(s, i)) continue;
    auto *in = static_cast<ir::Instruction *>(s[i].get());
    if (in->base() != "ld" && in->base() != "st") continue;
    for (Operand &op : in->operands) {
      std::string t;
      int64_t k = 0;
      if (!baseAndOffset(op, t, k)) continue;
      size_t def = SIZE_MAX, defs = 0;
      for (size_t j = h0; j < h1; ++j)
        if (writes(j, t)) def = j, ++defs;
      bool before = false;  // t written in <b> before the load
      for (size_t j = b0; j < i; ++j) before |= writes(j, t);
      if (defs != 1 || before) continue;
      const ir::Instruction &ad = *asInstr(s, def);
      if (ad.opcode != "add.s64" || !ad.guard.empty() || ad.operands.size() != 3 || !ad.operands[1].isReg() ||
          !ad.operands[2].intValue())
        continue;
      const std::string_view v = ad.operands[1].text;
      bool moved = false;
      for (size_t j = def + 1; j < h1; ++j) moved |= writes(j, v);
      for (size_t j = b0; j < i; ++j) moved |= writes(j, v);
      if (moved) continue;
      op = addressOf(m, v, k + *ad.operands[2].intValue());
      in->edited = true;
    }
  }
}

/// One rotated loop at s[a] = `bra.uni H` (peelRotatedLoops), rewritten in
/// place; false when the statements there are not one.
bool peelAt(StmtList &s, size_t a, const std::map<std::string_view, unsigned> &refs, ir::Module &m) {
  const ir::Instruction *enter = asInstr(s, a);
  if (!enter || enter->base() != "bra" || !enter->guard.empty()) return false;
  const std::string_view H = analysis::branchTarget(*enter);
  const size_t b = skipDirectives(s, a + 1);
  if (b >= s.size() || s[b]->kind != ir::Stmt::Kind::Label) return false;
  const std::string_view B = static_cast<const ir::Label &>(*s[b]).name;
  const size_t h = straightEnd(s, b + 1);
  if (!isLabel(s, h, H) || h == b + 1) return false;
  const size_t x1 = straightEnd(s, h + 1);  // the exit branch
  const ir::Instruction *exit = x1 < s.size() ? asInstr(s, x1) : nullptr;
  if (!exit || exit->base() != "bra" || exit->guard.empty() || x1 == h + 1) return false;
  const std::string_view X = analysis::branchTarget(*exit);
  const size_t x2 = skipDirectives(s, x1 + 1);  // the back edge
  const ir::Instruction *back = x2 < s.size() ? asInstr(s, x2) : nullptr;
  if (!back || back->base() != "bra" || !back->guard.empty() || analysis::branchTarget(*back) != B) return false;
  if (!isLabel(s, skipDirectives(s, x2 + 1), X) || X == B || X == H) return false;
  if (!refs.count(B) || !refs.count(H) || refs.at(B) != 1 || refs.at(H) != 1) return false;
  // No contractable add in the loop or the straight code it joins reads a
  // register that a contractable mul there writes.
  size_t lo = a;
  while (lo > 0 && s[lo - 1]->kind != ir::Stmt::Kind::Label && straightEnd(s, lo - 1) != lo - 1) --lo;
  std::set<std::string_view> products;
  for (size_t i = lo; i < x2; ++i)
    if (const ir::Instruction *in = asInstr(s, i); in && contractableMul(*in))
      for (auto d : analysis::defUse(*in).defs) products.insert(d);
  for (size_t i = lo; i < x2 && !products.empty(); ++i)
    if (const ir::Instruction *in = asInstr(s, i); in && contractableAdd(*in))
      for (auto u : analysis::defUse(*in).uses)
        if (products.count(u)) return false;
  addressesThroughLink(s, b + 1, h, h + 1, x1, m);
  // <h> @p bra X;  B: <b> <h> @!p bra B;
  StmtList out;
  for (size_t i = h + 1; i < x1; ++i) {
    auto c = s[i]->clone();
    c->edited = true;
    out.push_back(std::move(c));
  }
  auto exitCopy = s[x1]->clone();
  exitCopy->edited = true;
  out.push_back(std::move(exitCopy));
  out.push_back(std::move(s[b]));
  for (size_t i = b + 1; i < h; ++i) out.push_back(std::move(s[i]));
  for (size_t i = h + 1; i < x1; ++i) out.push_back(std::move(s[i]));
  auto latch = std::make_unique<ir::Instruction>(*exit);
  latch->guardNegated = !exit->guardNegated;
  latch->operands.back() = Operand::sym(m.intern(std::string(B)));
  latch->span = {};
  latch->edited = true;
  out.push_back(std::move(latch));
  s.erase(s.begin() + static_cast<long>(a), s.begin() + static_cast<long>(x2 + 1));
  s.insert(s.begin() + static_cast<long>(a), std::make_move_iterator(out.begin()), std::make_move_iterator(out.end()));
  return true;
}

/// How many `bra` statements of `s` target each label; false where `s` has
/// an indirect branch (`brx`: its targets are not counted, so the loop
/// rewrites, which need each label's branches, leave such a body alone).
bool branchRefs(const StmtList &s, std::map<std::string_view, unsigned> &refs) {
  for (size_t i = 0; i < s.size(); ++i)
    if (const ir::Instruction *in = asInstr(s, i)) {
      if (in->base() == "brx") return false;
      if (in->base() == "bra") ++refs[analysis::branchTarget(*in)];
    }
  return true;
}

}  // namespace

size_t foldJumpLatches(ir::Function &f, ir::Module &m) {
  if (!f.body) return 0;
  auto &s = f.body->body;
  std::map<std::string_view, unsigned> refs;
  if (!branchRefs(s, refs)) return 0;
  std::map<std::string_view, size_t> labelAt;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i]->kind == ir::Stmt::Kind::Label) labelAt[static_cast<const ir::Label &>(*s[i]).name] = i;
  size_t n = 0;
  for (size_t x = 0; x < s.size(); ++x) {
    const ir::Instruction *exit = asInstr(s, x);  // `@p bra X`
    if (!exit || exit->base() != "bra" || exit->guard.empty()) continue;
    const size_t j = skipDirectives(s, x + 1);  // `bra.uni H`, H a label above
    const ir::Instruction *back = j < s.size() ? asInstr(s, j) : nullptr;
    if (!back || back->base() != "bra" || !back->guard.empty()) continue;
    const std::string_view H = analysis::branchTarget(*back), X = analysis::branchTarget(*exit);
    auto h = labelAt.find(H);
    if (h == labelAt.end() || h->second + 1 >= x || refs[H] != 1 || X == H) continue;
    auto latch = std::make_unique<ir::Instruction>(*exit);
    latch->opcode = m.intern("bra");
    latch->guardNegated = !exit->guardNegated;
    latch->operands = {Operand::sym(H)};
    latch->edited = true;
    auto out = std::make_unique<ir::Instruction>(*back);
    out->operands = {Operand::sym(X)};
    out->edited = true;
    s[x] = std::move(latch);
    s[j] = std::move(out);
    ++n;
  }
  if (n) f.body->edited = true;
  return n;
}

size_t peelRotatedLoops(ir::Function &f, ir::Module &m) {
  if (!f.body) return 0;
  auto &s = f.body->body;
  std::map<std::string_view, unsigned> refs;
  if (!branchRefs(s, refs)) return 0;
  size_t n = 0;
  for (size_t a = 0; a < s.size(); ++a)
    if (peelAt(s, a, refs, m)) ++n;
  if (n) f.body->edited = true;
  return n;
}

Operand Emitter::op(const std::string &t) {
  if (t.size() > 2 && t.front() == '[' && t.back() == ']')
    return Operand{Operand::Kind::Address, "", {op(t.substr(1, t.size() - 2))}};
  std::string_view v = m.intern(t);
  if (!t.empty() && t[0] == '%') return Operand::reg(v);
  if (!t.empty() && (std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '-')) return Operand::imm(v);
  return Operand::sym(v);
}

void Emitter::ins(const std::string &opcode, std::vector<std::string> ops, const std::string &guard) {
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

void Emitter::label(const std::string &name) {
  auto l = std::make_unique<ir::Label>();
  l->name = m.intern(name);
  l->edited = true;
  out.push_back(std::move(l));
}

std::unique_ptr<ir::Decl> Emitter::decl(const char *type, const std::string &prefix, unsigned n) {
  auto d = std::make_unique<ir::Decl>();
  d->attrs = {".reg", type};
  d->names.push_back({m.intern(prefix), n, {}});
  d->edited = true;
  return d;
}

void replaceSpecialReads(ir::Block &b, const std::map<std::string, std::string> &names, ir::Module &m) {
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

size_t prologueAt(const ir::Block &b) {
  size_t i = 0;
  while (i < b.body.size() && b.body[i]->kind == ir::Stmt::Kind::Decl) ++i;
  return i;
}

const ir::Function *calleeReadingIndices(ir::Module &m, const ir::Function &f, std::set<const ir::Function *> &seen) {
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

void dropBlockShapeDirectives(ir::Function &f) {
  std::erase_if(f.perf, [](const ir::Directive &d) {
    return d.name == ".maxntid" || d.name == ".reqntid" || d.name == ".reqnctapercluster" ||
           d.name == ".explicitcluster" || d.name == ".maxclusterrank";
  });
}

void insertPrologue(ir::Function &clone, Emitter &e, bool wide) {
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

bool plainMemoryOp(const ir::Instruction &in) {
  for (auto mod : in.modifiers())
    if (mod == ".volatile" || mod == ".relaxed" || mod == ".acquire" || mod == ".release" || mod == ".mmio" ||
        mod == ".cv" || mod == ".sys" || mod == ".gpu" || mod == ".cta" || mod == ".cluster")
      return false;
  return true;
}

std::string typeModifier(const ir::Instruction &in) {
  for (auto mod : in.modifiers()) {
    std::string s(mod);
    if (s.size() >= 3 && (s[1] == 'u' || s[1] == 's' || s[1] == 'b' || s[1] == 'f') &&
        std::isdigit(static_cast<unsigned char>(s[2])))
      return s;
  }
  return "";
}

void RegTypes::add(const ir::Decl &d) {
  for (const auto &n : d.names) (n.range ? range : plain)[std::string(n.name)] = std::string(d.type());
}

std::string RegTypes::type(std::string_view r) const {
  if (auto it = plain.find(std::string(r)); it != plain.end()) return it->second;
  size_t e = r.size();
  while (e > 0 && std::isdigit(static_cast<unsigned char>(r[e - 1]))) --e;
  if (e == r.size()) return "";
  auto it = range.find(std::string(r.substr(0, e)));
  return it == range.end() ? "" : it->second;
}

unsigned RegTypes::bits(std::string_view r) const {
  std::string t = type(r);
  return t == ".pred" ? 1 : analysis::typeBytes(t) * 8;
}

std::vector<ir::Function *> originalKernels(ir::Module &m) {
  std::vector<ir::Function *> kernels;
  for (auto *k : m.kernels())
    if (k->name.find("__ptxopt_") == std::string_view::npos) kernels.push_back(k);
  return kernels;
}

std::string addExtraParam(ir::Module &m, ir::Function &f, const std::string &what, const char *type) {
  std::string name = std::string(f.name) + "_param_ptxopt_" + what;
  ir::Decl d;
  d.attrs = {m.intern(".param"), m.intern(type)};
  d.names.push_back({m.intern(name), {}, {}});
  d.semicolon = false;
  d.edited = true;
  f.params->push_back(std::move(d));
  f.edited = true;
  return name;
}

int paramIndex(const ir::Function &f, std::string_view name) {
  if (!f.params) return -1;
  for (size_t i = 0; i < f.params->size(); ++i)
    for (const auto &n : (*f.params)[i].names)
      if (n.name == name) return static_cast<int>(i);
  return -1;
}

Operand addressOf(ir::Module &m, std::string_view reg, int64_t off) {
  Operand r = Operand::reg(m.intern(std::string(reg)));
  if (!off) return Operand{Operand::Kind::Address, "", {r}};
  return Operand{Operand::Kind::Address, "", {Operand{Operand::Kind::Sum, "+", {r, Operand::imm(m.intern(std::to_string(off)))}}}};
}

bool baseAndOffset(const Operand &addr, std::string &reg, int64_t &off) {
  if (addr.kind != Operand::Kind::Address || addr.elems.size() != 1) return false;
  const Operand &e = addr.elems[0];
  if (e.kind == Operand::Kind::Register) {
    reg = std::string(e.text);
    off = 0;
    return true;
  }
  if (e.kind == Operand::Kind::Sum && e.elems[0].kind == Operand::Kind::Register && e.elems[1].intValue()) {
    reg = std::string(e.elems[0].text);
    off = *e.elems[1].intValue() * (e.text == "-" ? -1 : 1);
    return true;
  }
  return false;
}

void requireAligned(std::vector<Variant::AlignedParam> &conds, const Variant::AlignedParam &c) {
  for (auto &x : conds)
    if (x.index == c.index) {
      x.bytes = std::max(x.bytes, c.bytes);
      return;
    }
  conds.push_back(c);
}


bool vectorAlignment(const analysis::Poly &poly, const analysis::AffineAnalysis &aff, const ir::Function &f,
                     int64_t V, const std::function<int64_t(const analysis::Symbol &)> &scale,
                     std::vector<Variant::AlignedParam> &conds, int64_t &misalign, std::string *why) {
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

void emitUnpack(Emitter &e, const std::vector<std::string> &words, unsigned byte, unsigned w, bool sign,
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

}  // namespace ptxopt::transforms::clone
