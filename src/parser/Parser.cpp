// PTX parser driver: ANTLR lexer and parser -> IR.
//
// Speed and memory: the generated parser is called once per top-level item
// (a function, a variable, a directive, a debug section). A small token
// stream (ItemTokenStream) pulls tokens from the lexer on demand and drops
// the tokens of each finished item, and the parse tree of each item is freed
// as soon as its IR is built, so memory stays proportional to the largest
// item, not to the file. Each item is parsed with SLL prediction and the
// bail-out error strategy first; only if that fails is it re-parsed with full
// LL prediction and error reporting (the standard two-stage ANTLR strategy).
//
// Characters are read through ByteCharStream, a view of the source bytes
// (ANTLR's own input stream would copy the file into UTF-32, 4x its size).
#include "ptxopt/parser/Parser.h"

#include <deque>
#include <unordered_set>

#include "PtxLexer.h"
#include "PtxParser.h"
#include "antlr4-runtime.h"

namespace ptxopt {
namespace {

using namespace antlr4;
using grammar::PtxLexer;
using grammar::PtxParser;
using ir::Operand;
using ir::Span;

constexpr int kMaxNesting = 256;

// ------------------------------------------------------------ input stream

class ByteCharStream final : public CharStream {
public:
  ByteCharStream(std::string_view text, std::string name) : text_(text), name_(std::move(name)) {}
  void consume() override {
    if (pos_ >= text_.size()) throw IllegalStateException("cannot consume EOF");
    ++pos_;
  }
  size_t LA(ssize_t i) override {
    if (i == 0) return 0;
    ssize_t p = static_cast<ssize_t>(pos_) + (i > 0 ? i - 1 : i);
    if (p < 0 || p >= static_cast<ssize_t>(text_.size())) return IntStream::EOF;
    return static_cast<unsigned char>(text_[static_cast<size_t>(p)]);
  }
  ssize_t mark() override { return -1; }
  void release(ssize_t) override {}
  size_t index() override { return pos_; }
  void seek(size_t i) override { pos_ = std::min(i, text_.size()); }
  size_t size() override { return text_.size(); }
  std::string getSourceName() const override { return name_; }
  std::string getText(const misc::Interval &iv) override {
    if (iv.a < 0 || iv.b < iv.a) return {};
    size_t a = static_cast<size_t>(iv.a);
    if (a >= text_.size()) return {};
    return std::string(text_.substr(a, static_cast<size_t>(iv.b) - a + 1));
  }
  std::string toString() const override { return std::string(text_); }

private:
  std::string_view text_;
  std::string name_;
  size_t pos_ = 0;
};

// ------------------------------------------------------------ token stream

struct NestingTooDeep {
  size_t offset;
};

class ItemTokenStream final : public TokenStream {
public:
  explicit ItemTokenStream(PtxLexer &lexer, std::string_view text) : lexer_(lexer), text_(text) {}

  Token *LT(ssize_t k) override {
    if (k == 0) return nullptr;
    if (k < 0) {
      if (static_cast<ssize_t>(p_) + k < static_cast<ssize_t>(base_)) return nullptr;
      return at(p_ + static_cast<size_t>(k));
    }
    size_t i = p_ + static_cast<size_t>(k) - 1;
    sync(i);
    if (i >= base_ + toks_.size()) return toks_.back().get();  // EOF
    return at(i);
  }
  Token *get(size_t i) const override { return toks_.at(i - base_).get(); }
  TokenSource *getTokenSource() const override { return &lexer_; }
  std::string getText(const misc::Interval &iv) override {
    if (iv.a < 0 || iv.b < iv.a) return {};
    return getText(get(static_cast<size_t>(iv.a)), get(static_cast<size_t>(iv.b)));
  }
  std::string getText() override { return {}; }
  std::string getText(RuleContext *ctx) override { return getText(ctx->getSourceInterval()); }
  std::string getText(Token *a, Token *b) override {
    if (!a || !b || a->getType() == Token::EOF) return {};
    size_t e = b->getType() == Token::EOF ? text_.size() : b->getStopIndex() + 1;
    return std::string(text_.substr(a->getStartIndex(), e - a->getStartIndex()));
  }
  void consume() override {
    if (LA(1) == Token::EOF) throw IllegalStateException("cannot consume EOF");
    ++p_;
    sync(p_);
  }
  size_t LA(ssize_t i) override {
    Token *t = LT(i);
    return t ? t->getType() : Token::INVALID_TYPE;
  }
  ssize_t mark() override { return 0; }
  void release(ssize_t) override {}
  size_t index() override { return p_; }
  void seek(size_t i) override {
    p_ = std::max(i, base_);
    sync(p_);
  }
  size_t size() override { return base_ + toks_.size(); }
  std::string getSourceName() const override { return lexer_.getSourceName(); }

  /// Forgets every token before the current position.
  void discardConsumed() {
    while (base_ < p_ && !toks_.empty()) {
      lastEnd_ = static_cast<uint32_t>(toks_.front()->getStopIndex() + 1);
      toks_.pop_front();
      ++base_;
    }
  }
  /// Byte offset where the trivia before token `i` starts.
  uint32_t leadOf(size_t i) const {
    if (i > base_) return static_cast<uint32_t>(get(i - 1)->getStopIndex() + 1);
    return lastEnd_;
  }
  size_t fetched() const { return base_ + toks_.size(); }

private:
  Token *at(size_t i) const { return toks_[i - base_].get(); }
  void sync(size_t i) {
    while (i >= base_ + toks_.size() && !eof_) {
      auto t = lexer_.nextToken();
      static_cast<WritableToken *>(t.get())->setTokenIndex(base_ + toks_.size());
      switch (t->getType()) {
      case PtxLexer::LBRACE: case PtxLexer::LPAREN: case PtxLexer::LBRACK:
        if (++depth_ > kMaxNesting) throw NestingTooDeep{t->getStartIndex()};
        break;
      case PtxLexer::RBRACE: case PtxLexer::RPAREN: case PtxLexer::RBRACK:
        if (depth_ > 0) --depth_;
        break;
      case Token::EOF: eof_ = true; break;
      }
      toks_.push_back(std::move(t));
    }
  }

  PtxLexer &lexer_;
  std::string_view text_;
  std::deque<std::unique_ptr<Token>> toks_;
  size_t base_ = 0, p_ = 0;
  uint32_t lastEnd_ = 0;
  int depth_ = 0;
  bool eof_ = false;
};

// ------------------------------------------------------------ errors

struct SyntaxError {
  size_t offset;
  std::string message;
};

class ThrowingErrorListener final : public BaseErrorListener {
public:
  explicit ThrowingErrorListener(std::string_view text) : text_(text) {}
  void syntaxError(Recognizer *, Token *tok, size_t, size_t, const std::string &msg,
                   std::exception_ptr) override {
    if (!tok) throw SyntaxError{0, msg};
    throw SyntaxError{tok->getType() == Token::EOF ? text_.size() : tok->getStartIndex(),
                      friendly(tok, msg)};
  }

private:
  std::string friendly(Token *tok, const std::string &msg) const {
    auto expected = [&]() -> std::string {
      auto p = msg.find("expecting ");
      if (p == std::string::npos) return {};
      std::string e = msg.substr(p + 10);
      if (e.size() > 90) return {};
      return "; expected " + e;
    };
    switch (tok->getType()) {
    case Token::EOF: return "unexpected end of file" + expected();
    case PtxLexer::OPEN_COMMENT: return "unterminated /* comment";
    case PtxLexer::ERRCHAR: {
      unsigned char c = static_cast<unsigned char>(text_[tok->getStartIndex()]);
      char buf[64];
      if (c >= 0x20 && c < 0x7f) snprintf(buf, sizeof buf, "unexpected character '%c'", c);
      else snprintf(buf, sizeof buf, "unexpected byte 0x%02x (not PTX text)", c);
      return buf;
    }
    default: break;
    }
    std::string t(text_.substr(tok->getStartIndex(),
                               std::min<size_t>(40, tok->getStopIndex() + 1 - tok->getStartIndex())));
    if (tok->getType() == PtxLexer::STRING && t.size() >= 40) t += "...";
    return "unexpected '" + t + "'" + expected();
  }
  std::string_view text_;
};

// ------------------------------------------------------------ IR builder

class Builder {
public:
  Builder(ir::Module &m, ItemTokenStream &ts) : m_(m), ts_(ts), src_(m.source()) {}

  std::string_view text(Token *t) const {
    return std::string_view(src_).substr(t->getStartIndex(), t->getStopIndex() + 1 - t->getStartIndex());
  }
  std::string_view text(tree::TerminalNode *n) const { return text(n->getSymbol()); }
  Span span(ParserRuleContext *c) const {
    Span s;
    s.lead = ts_.leadOf(c->start->getTokenIndex());
    s.begin = static_cast<uint32_t>(c->start->getStartIndex());
    s.end = static_cast<uint32_t>(c->stop->getStopIndex() + 1);
    return s;
  }
  Span span(Token *t) const {
    return {ts_.leadOf(t->getTokenIndex()), static_cast<uint32_t>(t->getStartIndex()),
            static_cast<uint32_t>(t->getStopIndex() + 1)};
  }
  /// Texts of the tokens [from, to] (token indexes).
  std::vector<std::string_view> tokens(size_t from, size_t to) const {
    std::vector<std::string_view> out;
    if (to + 1 < from + 1) return out;
    out.reserve(to - from + 1);
    for (size_t i = from; i <= to; ++i) out.push_back(text(ts_.get(i)));
    return out;
  }
  std::vector<std::string_view> tokensAfter(Token *first, ParserRuleContext *c, bool dropSemi) {
    size_t a = first->getTokenIndex() + 1, b = c->stop->getTokenIndex();
    if (dropSemi && c->stop->getType() == PtxLexer::SEMI) --b;
    if (b + 1 <= a) return {};
    return tokens(a, b);
  }

  void item(PtxParser::ItemContext *c) {
    ir::Item it;
    it.span = span(c);
    if (auto *f = dynamic_cast<PtxParser::FunctionItemContext *>(c)) {
      it.kind = ir::Item::Kind::Function;
      it.function = function(f->function());
    } else if (auto *d = dynamic_cast<PtxParser::DeclItemContext *>(c)) {
      it.kind = ir::Item::Kind::Decl;
      it.decl = decl(d->decl(), true);
      it.decl->span = it.span;
    } else if (auto *s = dynamic_cast<PtxParser::SectionItemContext *>(c)) {
      it.kind = ir::Item::Kind::Section;
      it.section = section(s);
      it.section->span = it.span;
    } else {
      it.kind = ir::Item::Kind::Directive;
      auto d = std::make_unique<ir::Directive>();
      d->span = it.span;
      d->name = text(c->start);
      d->semicolon = c->stop->getType() == PtxLexer::SEMI;
      d->tokens = tokensAfter(c->start, c, true);
      it.directive = std::move(d);
    }
    m_.items.push_back(std::move(it));
  }

private:
  std::unique_ptr<ir::Section> section(PtxParser::SectionItemContext *c) {
    auto s = std::make_unique<ir::Section>();
    s->name = text(c->sectionName()->start);
    for (auto *e : c->sectionEntry()) {
      ir::Section::Entry en;
      if (auto *l = dynamic_cast<PtxParser::SectionLabelContext *>(e)) {
        en.label = text(l->IDENT());
      } else {
        en.directive = text(e->start);
        en.tokens = tokensAfter(e->start, e, false);
      }
      s->entries.push_back(std::move(en));
    }
    return s;
  }

  void attrTokens(PtxParser::AttrContext *a, std::vector<std::string_view> &out) {
    for (size_t i = a->start->getTokenIndex(); i <= a->stop->getTokenIndex(); ++i)
      out.push_back(text(ts_.get(i)));
  }

  ir::Declarator declarator(PtxParser::DeclaratorContext *c) {
    ir::Declarator d;
    d.name = text(c->start);
    Operand o;
    if (c->LANGLE()) {
      o = Operand::imm(text(c->INT(0)));
      d.range = static_cast<uint32_t>(o.intValue().value_or(0));
    }
    // Dimensions: every '[' INT? ']' after the optional range.
    for (size_t i = c->start->getTokenIndex() + 1; i <= c->stop->getTokenIndex(); ++i) {
      Token *t = ts_.get(i);
      if (t->getType() != PtxLexer::LBRACK) continue;
      Token *n = ts_.get(i + 1);
      if (n->getType() == PtxLexer::INT) {
        o = Operand::imm(text(n));
        d.dims.push_back(static_cast<uint64_t>(o.intValue().value_or(0)));
      } else {
        d.dims.push_back(std::nullopt);
      }
    }
    return d;
  }

  std::unique_ptr<ir::Decl> decl(PtxParser::DeclContext *c, bool semicolonFollows) {
    auto d = std::make_unique<ir::Decl>();
    d->span = span(c);
    d->semicolon = semicolonFollows;
    // Everything before the first declarator is attributes.
    auto decls = c->declarator();
    for (size_t i = c->start->getTokenIndex(); i < decls.front()->start->getTokenIndex(); ++i)
      d->attrs.push_back(text(ts_.get(i)));
    for (auto *x : decls) d->names.push_back(declarator(x));
    if (auto *in = c->init()) d->init = tokens(in->start->getTokenIndex(), in->stop->getTokenIndex());
    return d;
  }

  ir::Decl paramDecl(PtxParser::ParamDeclContext *c) {
    ir::Decl d;
    d.span = span(c);
    d.semicolon = false;
    for (size_t i = c->start->getTokenIndex(); i < c->declarator()->start->getTokenIndex(); ++i)
      d.attrs.push_back(text(ts_.get(i)));
    d.names.push_back(declarator(c->declarator()));
    return d;
  }

  std::unique_ptr<ir::Function> function(PtxParser::FunctionContext *c) {
    auto f = std::make_unique<ir::Function>();
    f->span = span(c);
    for (auto *a : c->attr()) attrTokens(a, f->attrs);
    f->isEntry = c->ENTRY() != nullptr;
    f->name = text(c->IDENT());
    if (auto *r = c->returnParams()) {
      f->returns.emplace();
      for (auto *p : r->paramDecl()) f->returns->push_back(paramDecl(p));
    }
    if (auto *pl = c->paramList()) {
      f->params.emplace();
      for (auto *p : pl->paramDecl()) f->params->push_back(paramDecl(p));
    }
    for (auto *p : c->perfDirective()) {
      ir::Directive d;
      d.span = span(p);
      d.name = text(p->start);
      d.semicolon = p->stop->getType() == PtxLexer::SEMI;
      d.tokens = tokensAfter(p->start, p, true);
      f->perf.push_back(std::move(d));
    }
    if (auto *b = c->block()) {
      plainRegs_.clear();
      f->body = block(b);
      if (!plainRegs_.empty()) markPlainRegisters(*f->body);
    }
    return f;
  }

  std::unique_ptr<ir::Block> block(PtxParser::BlockContext *c) {
    auto b = std::make_unique<ir::Block>();
    b->span = span(c);
    b->open = span(c->LBRACE()->getSymbol());
    b->close = span(c->RBRACE()->getSymbol());
    auto stmts = c->stmt();
    b->body.reserve(stmts.size());
    for (auto *s : stmts) b->body.push_back(stmt(s));
    return b;
  }

  std::unique_ptr<ir::Stmt> stmt(PtxParser::StmtContext *c) {
    if (auto *i = dynamic_cast<PtxParser::InstrStmtContext *>(c)) return instruction(i->instruction());
    if (auto *l = dynamic_cast<PtxParser::LabelStmtContext *>(c)) {
      auto lab = std::make_unique<ir::Label>();
      lab->span = span(c);
      lab->name = text(l->IDENT());
      return lab;
    }
    if (auto *d = dynamic_cast<PtxParser::DeclStmtContext *>(c)) {
      auto decl_ = decl(d->decl(), true);
      decl_->span = span(c);
      if (decl_->space() == ".reg")
        for (auto &n : decl_->names)
          if (!n.name.empty() && n.name[0] != '%') plainRegs_.insert(n.name);
      return decl_;
    }
    if (auto *b = dynamic_cast<PtxParser::BlockStmtContext *>(c)) return block(b->block());
    auto d = std::make_unique<ir::Directive>();
    d->span = span(c);
    d->name = text(c->start);
    d->semicolon = c->stop->getType() == PtxLexer::SEMI;
    d->tokens = tokensAfter(c->start, c, true);
    return d;
  }

  std::unique_ptr<ir::Instruction> instruction(PtxParser::InstructionContext *c) {
    auto in = std::make_unique<ir::Instruction>();
    in->span = span(c);
    if (auto *g = c->guard()) {
      in->guardNegated = g->BANG() != nullptr;
      in->guard = text(g->stop);
    }
    in->opcode = text(c->IDENT());
    auto ops = c->operand();
    in->operands.reserve(ops.size());
    for (auto *o : ops) in->operands.push_back(operand(o));
    return in;
  }

  Operand operand(PtxParser::OperandContext *c) {
    if (auto *n = dynamic_cast<PtxParser::NotOperandContext *>(c))
      return Operand{Operand::Kind::Not, "!", {operand(n->operand())}};
    auto *p = static_cast<PtxParser::PrimaryOperandContext *>(c);
    auto prims = p->primary();
    if (prims.size() == 1) return primary(prims[0]);
    Operand o{Operand::Kind::Pipe, "|", {}};
    for (auto *x : prims) o.elems.push_back(primary(x));
    return o;
  }

  Operand primary(PtxParser::PrimaryContext *c) {
    switch (c->start->getType()) {
    case PtxLexer::REGISTER: return Operand::reg(text(c->start));
    case PtxLexer::IDENT: {
      auto t = text(c->start);
      if (t == "_") return Operand{Operand::Kind::Sink, t, {}};
      return Operand::sym(t);
    }
    case PtxLexer::MINUS: {
      Token *num = c->stop;
      if (num->getStartIndex() == c->start->getStopIndex() + 1)
        return Operand::imm(std::string_view(src_).substr(c->start->getStartIndex(),
                                                          num->getStopIndex() + 1 - c->start->getStartIndex()));
      return Operand::imm(m_.intern("-" + std::string(text(num))));
    }
    case PtxLexer::INT: case PtxLexer::FLOAT: case PtxLexer::HEXFLOAT:
      return Operand::imm(text(c->start));
    default: break;
    }
    if (auto *v = dynamic_cast<PtxParser::VecOperandContext *>(c)) {
      Operand o{Operand::Kind::Vector, "", {}};
      for (auto *x : v->operand()) o.elems.push_back(operand(x));
      return o;
    }
    if (auto *l = dynamic_cast<PtxParser::ListOperandContext *>(c)) {
      Operand o{Operand::Kind::List, "", {}};
      for (auto *x : l->operand()) o.elems.push_back(operand(x));
      return o;
    }
    auto *a = static_cast<PtxParser::AddrOperandContext *>(c);
    Operand o{Operand::Kind::Address, "", {}};
    for (auto *item : a->addrItem()) {
      auto parts = item->operand();
      if (parts.size() == 1) {
        o.elems.push_back(operand(parts[0]));
      } else {
        std::string_view op = item->PLUS() ? "+" : "-";
        o.elems.push_back(Operand{Operand::Kind::Sum, op, {operand(parts[0]), operand(parts[1])}});
      }
    }
    return o;
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
  std::unordered_set<std::string_view> plainRegs_;
};

/// A top-level item starts with a keyword token or with one of these
/// directives; anything else is reported as an unknown directive (the grammar
/// alone would take it for a variable attribute and complain later).
void checkItemStart(Token *t, std::string_view src) {
  if (t->getType() != PtxLexer::DIRECTIVE) return;
  static const std::unordered_set<std::string_view> starters = {
      ".visible", ".extern", ".weak", ".common", ".global", ".const", ".shared", ".local",
      ".tex", ".attribute"};
  std::string_view d = src.substr(t->getStartIndex(), t->getStopIndex() + 1 - t->getStartIndex());
  if (starters.count(d) || d.substr(0, 8) == ".shared:") return;
  throw SyntaxError{t->getStartIndex(), "unknown directive '" + std::string(d) + "' at module level"};
}

}  // namespace

ParseResult parsePtx(std::string source, std::string fileName) {
  ParseResult r;
  auto mod = std::make_unique<ir::Module>(std::move(source), fileName);
  const std::string &src = mod->source();

  ByteCharStream chars(src, fileName);
  PtxLexer lexer(&chars);
  lexer.removeErrorListeners();
  ItemTokenStream tokens(lexer, src);
  PtxParser parser(&tokens);
  parser.removeErrorListeners();
  ThrowingErrorListener listener(src);
  auto bail = std::make_shared<BailErrorStrategy>();
  auto full = std::make_shared<DefaultErrorStrategy>();
  Builder builder(*mod, tokens);

  try {
    while (true) {
      size_t start = tokens.index();
      if (tokens.LA(1) == Token::EOF) break;
      checkItemStart(tokens.LT(1), src);
      PtxParser::ItemContext *item = nullptr;
      parser.setErrorHandler(bail);
      parser.getInterpreter<atn::ParserATNSimulator>()->setPredictionMode(atn::PredictionMode::SLL);
      try {
        item = parser.item();
      } catch (ParseCancellationException &) {
        ++r.stats.llFallbacks;
        tokens.seek(start);
        parser.getTreeTracker().reset();
        parser.setErrorHandler(full);
        parser.addErrorListener(&listener);
        parser.getInterpreter<atn::ParserATNSimulator>()->setPredictionMode(atn::PredictionMode::LL);
        item = parser.item();
        parser.removeErrorListeners();
      }
      builder.item(item);
      ++r.stats.items;
      parser.getTreeTracker().reset();
      tokens.discardConsumed();
    }
  } catch (SyntaxError &e) {
    r.error = makeDiagnostic(Severity::Error, fileName, src, static_cast<uint32_t>(e.offset), e.message);
    return r;
  } catch (NestingTooDeep &e) {
    r.error = makeDiagnostic(Severity::Error, fileName, src, static_cast<uint32_t>(e.offset),
                             "braces, brackets or parentheses nested deeper than " +
                                 std::to_string(kMaxNesting) + " levels");
    return r;
  } catch (RecognitionException &e) {
    Token *t = e.getOffendingToken();
    r.error = makeDiagnostic(Severity::Error, fileName, src, t ? static_cast<uint32_t>(t->getStartIndex()) : 0,
                             "syntax error");
    return r;
  }
  // PTX requires .version as the first directive of a module.
  if (mod->items.empty() || mod->items[0].kind != ir::Item::Kind::Directive ||
      mod->items[0].directive->name != ".version") {
    uint32_t at = mod->items.empty() ? 0 : mod->items[0].span.begin;
    r.error = makeDiagnostic(Severity::Error, fileName, src, at,
                             mod->items.empty() ? "empty module: PTX starts with a .version directive"
                                                : "a PTX module must start with a .version directive");
    return r;
  }
  mod->trailingLead = tokens.leadOf(tokens.index());
  r.stats.tokens = tokens.fetched();
  r.module = std::move(mod);
  return r;
}

}  // namespace ptxopt
