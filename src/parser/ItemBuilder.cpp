// The parser's IR builder: the tokens of one item, which the grammar (or
// the fast path, FastItem.cpp) has accepted, read in one forward pass into
// the item's IR (ir::Item: directives, variables, functions and their
// statements, with the byte spans the printer needs for a lossless round
// trip). The driver is Parser.cpp.
#include <string>
#include <string_view>
#include <unordered_set>

#include "ItemTokenStream.h"

namespace ptxopt::parse {
namespace {

using ir::Operand;
using ir::Span;

// ------------------------------------------------------------ IR builder

// The parser runs without building a parse tree (that halves parse time):
// the grammar validates each item, and the Builder then reads the item's
// tokens, which are known to be well-formed, in one forward pass. Item kinds
// come from the labeled alternative the parser chose; everything below the
// item level is recognized by the same first tokens the grammar uses.
class Builder {
public:
  Builder(ir::Module &m, ItemTokenStream &ts) : m_(m), ts_(ts), src_(m.source()) {}

  /// Builds the item of kind `kind` from tokens [first, end).
  void item(ir::Item::Kind kind, size_t first, size_t end) {
    i_ = first;
    end_ = end;
    ir::Item it;
    it.span = spanOf(i_, end_ - 1);
    if (kind == ir::Item::Kind::Function) {
      it.kind = ir::Item::Kind::Function;
      it.function = function();
    } else if (kind == ir::Item::Kind::Decl) {
      it.kind = ir::Item::Kind::Decl;
      it.decl = decl();
      it.decl->span = it.span;
    } else if (kind == ir::Item::Kind::Section) {
      it.kind = ir::Item::Kind::Section;
      it.section = section();
      it.section->span = it.span;
    } else {
      it.kind = ir::Item::Kind::Directive;
      it.directive = directiveToSemi();
      it.directive->span = it.span;
    }
    m_.items.push_back(std::move(it));
  }

private:
  // ---- token access
  const LiteToken &tok(size_t i) const { return ts_.tok(i); }
  size_t type(size_t i) const { return i < end_ ? tok(i).type() : Token::EOF; }
  size_t la() const { return type(i_); }
  std::string_view text(size_t i) const {
    const LiteToken &t = tok(i);
    return std::string_view(src_).substr(t.start(), t.stop() + 1 - t.start());
  }
  std::string_view next() { return text(i_++); }
  Span spanOf(size_t first, size_t last) const {
    return {ts_.leadOf(first), static_cast<uint32_t>(tok(first).start()), static_cast<uint32_t>(tok(last).stop() + 1)};
  }

  // ---- directives kept as token lists

  /// Keyword plus the tokens up to (and dropping) the closing ';'. Item-level
  /// directives without ';' (.version, .target, .file) run to the item end.
  std::unique_ptr<ir::Directive> directiveToSemi() {
    auto d = std::make_unique<ir::Directive>();
    size_t first = i_;
    d->name = next();
    while (i_ < end_ && la() != PtxLexer::SEMI) d->tokens.push_back(next());
    if (la() == PtxLexer::SEMI) {
      d->semicolon = true;
      ++i_;
    }
    d->span = spanOf(first, i_ - 1);
    return d;
  }

  /// `.loc 1 3 14, function_name $L__info_string0` is one LOC token; split it
  /// into the words and commas of the directive.
  std::unique_ptr<ir::Directive> loc() {
    auto d = std::make_unique<ir::Directive>();
    d->span = spanOf(i_, i_);
    std::string_view t = next();
    d->name = t.substr(0, 4);
    size_t i = 4;
    while (i < t.size()) {
      char c = t[i];
      if (c == ' ' || c == '\t') { ++i; continue; }
      if (c == ',') { d->tokens.push_back(t.substr(i, 1)); ++i; continue; }
      size_t e = i;
      while (e < t.size() && t[e] != ' ' && t[e] != '\t' && t[e] != ',') ++e;
      d->tokens.push_back(t.substr(i, e - i));
      i = e;
    }
    return d;
  }

  std::unique_ptr<ir::Section> section() {
    auto s = std::make_unique<ir::Section>();
    ++i_;  // .section
    s->name = next();
    ++i_;  // {
    while (la() == PtxLexer::SECTION_LABEL || la() == PtxLexer::SECTION_DATA) {
      ir::Section::Entry en;
      bool isLabel = la() == PtxLexer::SECTION_LABEL;
      std::string_view t = next();
      if (isLabel) {
        t.remove_suffix(1);  // ':'
        while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
        en.label = t;
      } else {
        size_t sp = t.find_first_of(" \t");
        en.directive = t.substr(0, sp);
        if (sp != std::string_view::npos) {
          std::string_view v = t.substr(sp);
          while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
          while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
          en.valueText = v;
        }
      }
      s->entries.push_back(en);
    }
    ++i_;  // }
    return s;
  }

  // ---- declarations

  /// Attribute tokens (".align", "4", ".attribute", "(", ".managed", ")")
  /// up to the first declared name.
  void attrs(std::vector<std::string_view> &out) {
    int depth = 0;
    while (i_ < end_) {
      size_t t = la();
      if (depth == 0 && (t == PtxLexer::IDENT || t == PtxLexer::REGISTER)) break;
      if (t == PtxLexer::LPAREN) ++depth;
      if (t == PtxLexer::RPAREN) --depth;
      out.push_back(next());
    }
  }

  ir::Declarator declarator() {
    ir::Declarator d;
    d.name = next();
    if (la() == PtxLexer::LANGLE) {
      ++i_;
      d.range = static_cast<uint32_t>(Operand::imm(next()).intValue().value_or(0));
      ++i_;  // >
    }
    while (la() == PtxLexer::LBRACK) {
      ++i_;
      if (la() == PtxLexer::INT) d.dims.push_back(static_cast<uint64_t>(Operand::imm(next()).intValue().value_or(0)));
      else d.dims.push_back(std::nullopt);
      ++i_;  // ]
    }
    return d;
  }

  /// decl (';' is consumed when present).
  std::unique_ptr<ir::Decl> decl() {
    auto d = std::make_unique<ir::Decl>();
    size_t first = i_;
    attrs(d->attrs);
    d->names.push_back(declarator());
    while (la() == PtxLexer::COMMA) {
      ++i_;
      d->names.push_back(declarator());
    }
    if (la() == PtxLexer::EQUAL) {
      ++i_;
      while (i_ < end_ && la() != PtxLexer::SEMI) d->init.push_back(next());
    }
    d->semicolon = la() == PtxLexer::SEMI;
    if (d->semicolon) ++i_;
    d->span = spanOf(first, i_ - 1);
    return d;
  }

  ir::Decl paramDecl() {
    ir::Decl d;
    size_t first = i_;
    d.semicolon = false;
    attrs(d.attrs);
    d.names.push_back(declarator());
    d.span = spanOf(first, i_ - 1);
    return d;
  }

  std::vector<ir::Decl> paramList() {
    std::vector<ir::Decl> out;
    ++i_;  // (
    while (la() != PtxLexer::RPAREN) {
      out.push_back(paramDecl());
      if (la() == PtxLexer::COMMA) ++i_;
    }
    ++i_;  // )
    return out;
  }

  // ---- functions and bodies

  std::unique_ptr<ir::Function> function() {
    auto f = std::make_unique<ir::Function>();
    f->span = spanOf(i_, end_ - 1);
    while (la() != PtxLexer::ENTRY && la() != PtxLexer::FUNC) f->attrs.push_back(next());
    f->isEntry = la() == PtxLexer::ENTRY;
    ++i_;
    if (la() == PtxLexer::LPAREN) f->returns = paramList();
    f->name = next();
    if (la() == PtxLexer::LPAREN) f->params = paramList();
    while (la() != PtxLexer::LBRACE && la() != PtxLexer::SEMI) {
      ir::Directive d;
      size_t first = i_;
      d.name = next();
      if (d.name == ".pragma") {
        while (la() != PtxLexer::SEMI) d.tokens.push_back(next());
        ++i_;
        d.semicolon = true;
      } else {
        while (la() == PtxLexer::INT || la() == PtxLexer::COMMA) d.tokens.push_back(next());
      }
      d.span = spanOf(first, i_ - 1);
      f->perf.push_back(std::move(d));
    }
    if (la() == PtxLexer::LBRACE) {
      plainRegs_.clear();
      f->body = block();
      if (!plainRegs_.empty()) markPlainRegisters(*f->body);
    }
    return f;
  }

  std::unique_ptr<ir::Block> block() {
    auto b = std::make_unique<ir::Block>();
    size_t first = i_;
    b->open = spanOf(i_, i_);
    ++i_;
    while (la() != PtxLexer::RBRACE) b->body.push_back(stmt());
    b->close = spanOf(i_, i_);
    ++i_;
    b->span = spanOf(first, i_ - 1);
    return b;
  }

  std::unique_ptr<ir::Stmt> stmt() {
    switch (la()) {
    case PtxLexer::LBRACE: return block();
    case PtxLexer::LOC: return loc();
    case PtxLexer::PRAGMA:
    case PtxLexer::CALLPROTOTYPE:
    case PtxLexer::BRANCHTARGETS:
    case PtxLexer::CALLTARGETS: return directiveToSemi();
    case PtxLexer::REG:
    case PtxLexer::PARAM:
    case PtxLexer::DIRECTIVE: {
      auto d = decl();
      if (d->space() == ".reg")
        for (auto &n : d->names)
          if (!n.name.empty() && n.name[0] != '%') plainRegs_.insert(n.name);
      return d;
    }
    case PtxLexer::IDENT:
      if (type(i_ + 1) == PtxLexer::COLON) {
        auto l = std::make_unique<ir::Label>();
        l->span = spanOf(i_, i_ + 1);
        l->name = next();
        ++i_;
        return l;
      }
      [[fallthrough]];
    default: return instruction();
    }
  }

  std::unique_ptr<ir::Instruction> instruction() {
    auto in = std::make_unique<ir::Instruction>();
    size_t first = i_;
    if (la() == PtxLexer::AT) {
      ++i_;
      if (la() == PtxLexer::BANG) {
        in->guardNegated = true;
        ++i_;
      }
      in->guard = next();
    }
    in->opcode = next();
    in->operands.reserve(operandCount());  // one allocation (push_back grew 1, 2, 4: three)
    while (la() != PtxLexer::SEMI) {
      in->operands.push_back(operand());
      if (la() == PtxLexer::COMMA) ++i_;
    }
    ++i_;  // ;
    in->span = spanOf(first, i_ - 1);
    return in;
  }

  /// The instruction's operands from the current token: its commas outside
  /// brackets, plus one (0 when the `;` comes first).
  size_t operandCount() const {
    size_t n = 0, depth = 0;
    for (size_t j = i_;; ++j) {
      switch (type(j)) {
      case PtxLexer::SEMI: case Token::EOF: return j == i_ ? 0 : n + 1;
      case PtxLexer::LBRACE: case PtxLexer::LPAREN: case PtxLexer::LBRACK: ++depth; break;
      case PtxLexer::RBRACE: case PtxLexer::RPAREN: case PtxLexer::RBRACK: depth -= depth > 0; break;
      case PtxLexer::COMMA: n += depth == 0; break;
      default: break;
      }
    }
  }

  Operand operand() {
    if (la() == PtxLexer::BANG) {
      ++i_;
      return Operand{Operand::Kind::Not, "!", {operand()}};
    }
    Operand p = primary();
    if (la() != PtxLexer::PIPE) return p;
    Operand o{Operand::Kind::Pipe, "|", {std::move(p)}};
    while (la() == PtxLexer::PIPE) {
      ++i_;
      o.elems.push_back(primary());
    }
    return o;
  }

  Operand list(Operand::Kind kind, size_t close) {
    Operand o{kind, "", {}};
    ++i_;  // opening bracket
    while (la() != close) {
      o.elems.push_back(operand());
      if (la() == PtxLexer::COMMA) ++i_;
    }
    ++i_;
    return o;
  }

  Operand primary() {
    switch (la()) {
    case PtxLexer::REGISTER: return Operand::reg(next());
    case PtxLexer::IDENT: {
      auto t = next();
      if (t == "_") return Operand{Operand::Kind::Sink, t, {}};
      return Operand::sym(t);
    }
    case PtxLexer::MINUS: {
      const LiteToken &minus = tok(i_), &num = tok(i_ + 1);
      i_ += 2;
      if (num.start() == minus.stop() + 1)
        return Operand::imm(std::string_view(src_).substr(minus.start(), num.stop() + 1 - minus.start()));
      std::string negated(1, '-');  // (not "-" + std::string: GCC 12 warns -Wrestrict falsely there)
      negated += text(i_ - 1);
      return Operand::imm(m_.intern(negated));
    }
    case PtxLexer::LBRACE: return list(Operand::Kind::Vector, PtxLexer::RBRACE);
    case PtxLexer::LPAREN: return list(Operand::Kind::List, PtxLexer::RPAREN);
    case PtxLexer::LBRACK: {
      Operand o{Operand::Kind::Address, "", {}};
      ++i_;
      while (la() != PtxLexer::RBRACK) {
        Operand a = operand();
        if (la() == PtxLexer::PLUS || la() == PtxLexer::MINUS) {
          std::string_view op = next();
          o.elems.push_back(Operand{Operand::Kind::Sum, op, {std::move(a), operand()}});
        } else {
          o.elems.push_back(std::move(a));
        }
        if (la() == PtxLexer::COMMA) ++i_;
      }
      ++i_;
      return o;
    }
    default: return Operand::imm(next());  // INT, FLOAT, HEXFLOAT
    }
  }

  // Inline asm declares registers without '%' (".reg .pred p;"); operands
  // naming them are registers, not symbols.
  void markPlainRegisters(ir::Block &b) {
    std::function<void(Operand &)> fix = [&](Operand &o) {
      if (o.kind == Operand::Kind::Symbol && plainRegs_.count(o.text)) o.kind = Operand::Kind::Register;
      for (auto &e : o.elems) fix(e);
    };
    ir::forEachStmt(b, [&](ir::Stmt &s) {
      if (s.kind == ir::Stmt::Kind::Instruction)
        for (auto &o : static_cast<ir::Instruction &>(s).operands) fix(o);
    });
  }

  ir::Module &m_;
  ItemTokenStream &ts_;
  const std::string &src_;
  size_t i_ = 0, end_ = 0;  // current token, end of the item's tokens
  std::unordered_set<std::string_view> plainRegs_;
};

}  // namespace

struct ItemBuilder::Impl : Builder {
  using Builder::Builder;
};

ItemBuilder::ItemBuilder(ir::Module &m, ItemTokenStream &ts) : impl_(std::make_unique<Impl>(m, ts)) {}
ItemBuilder::~ItemBuilder() = default;
void ItemBuilder::item(ir::Item::Kind kind, size_t first, size_t end) { impl_->item(kind, first, end); }

}  // namespace ptxopt::parse
