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

#include <memory>
#include <new>
#include <stdexcept>
#include <unordered_set>

#include "Lexer.h"
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
  bool bangs;  // the limit was crossed by a '!' (each one is a level of operand recursion)
};

/// A token as the parser keeps it: type and byte range, no text, no line
/// (computed on demand, for ANTLR's error path only). Tokens live in the
/// stream's queue, so making one allocates nothing (ANTLR's CommonToken
/// cost a heap allocation and a constructor with a string per token).
class LiteToken final : public WritableToken {
public:
  LiteToken(size_t type, size_t start, size_t stop, size_t index, PtxScanner *src, CharStream *in)
      : type_(type), start_(start), stop_(stop), index_(index), src_(src), in_(in) {}
  std::string getText() const override {
    if (type_ == Token::EOF) return "<EOF>";
    return in_->getText(misc::Interval(start_, stop_));
  }
  size_t getType() const override { return type_; }
  size_t getLine() const override { return lineCol().first; }
  size_t getCharPositionInLine() const override { return lineCol().second; }
  size_t getChannel() const override { return Token::DEFAULT_CHANNEL; }
  size_t getTokenIndex() const override { return index_; }
  size_t getStartIndex() const override { return start_; }
  size_t getStopIndex() const override { return stop_; }
  TokenSource *getTokenSource() const override { return src_; }
  CharStream *getInputStream() const override { return in_; }
  std::string toString() const override {
    return "[@" + std::to_string(index_) + "," + std::to_string(start_) + ":" + std::to_string(stop_) + "='" +
           getText() + "',<" + std::to_string(type_) + ">]";
  }
  void setText(const std::string &) override {}
  void setType(size_t t) override { type_ = t; }
  void setLine(size_t) override {}
  void setCharPositionInLine(size_t) override {}
  void setChannel(size_t) override {}
  void setTokenIndex(size_t i) override { index_ = i; }

  size_t type() const { return type_; }
  size_t start() const { return start_; }
  size_t stop() const { return stop_; }

private:
  std::pair<size_t, size_t> lineCol() const { return src_->lineColumn(start_); }
  size_t type_, start_, stop_, index_;
  PtxScanner *src_;
  CharStream *in_;
};

/// The stream's tokens: a queue in chunks of 256, so a token never moves
/// (ANTLR keeps Token pointers while it parses an item), indexing is a
/// shift and a mask, and chunks whose tokens were all discarded are reused.
/// (std::deque's chunks hold 9 tokens of this size: a heap allocation per
/// 9 tokens, and a division per access, were 10% of a parse.)
class TokenQueue {
public:
  size_t size() const { return end_ - begin_; }
  bool empty() const { return end_ == begin_; }
  LiteToken &operator[](size_t i) {
    size_t k = begin_ + i;
    return (*chunks_[k >> kShift])[k & kMask];
  }
  const LiteToken &operator[](size_t i) const { return const_cast<TokenQueue &>(*this)[i]; }
  LiteToken &front() { return (*this)[0]; }
  LiteToken &back() { return (*this)[size() - 1]; }
  template <typename... A> void emplace_back(A &&...a) {
    if ((end_ >> kShift) == chunks_.size()) {
      if (!spare_.empty()) {
        chunks_.push_back(std::move(spare_.back()));
        spare_.pop_back();
      } else {
        chunks_.push_back(std::make_unique<Chunk>());
      }
    }
    LiteToken *slot = &(*chunks_[end_ >> kShift])[end_ & kMask];
    new (slot) LiteToken(std::forward<A>(a)...);
    ++end_;
  }
  void pop_front() {
    (*this)[0].~LiteToken();
    if (++begin_ == kChunk) {  // the first chunk is spent: to the spares
      spare_.push_back(std::move(chunks_.front()));
      chunks_.erase(chunks_.begin());
      begin_ = 0;
      end_ -= kChunk;
    }
  }
  ~TokenQueue() {
    while (!empty()) pop_front();
  }

private:
  static constexpr size_t kShift = 8, kChunk = size_t(1) << kShift, kMask = kChunk - 1;
  struct Chunk {
    alignas(LiteToken) unsigned char bytes[kChunk * sizeof(LiteToken)];
    LiteToken &operator[](size_t i) { return reinterpret_cast<LiteToken *>(bytes)[i]; }
  };
  std::vector<std::unique_ptr<Chunk>> chunks_, spare_;
  size_t begin_ = 0, end_ = 0;  // positions in the first chunk's numbering
};

class ItemTokenStream final : public TokenStream {
public:
  ItemTokenStream(PtxScanner &lexer, CharStream &chars, std::string_view text)
      : lexer_(lexer), chars_(chars), text_(text) {}

  Token *LT(ssize_t k) override {
    if (k == 0) return nullptr;
    if (k < 0) {
      if (static_cast<ssize_t>(p_) + k < static_cast<ssize_t>(base_)) return nullptr;
      return at(p_ + static_cast<size_t>(k));
    }
    size_t i = p_ + static_cast<size_t>(k) - 1;
    sync(i);
    if (i >= base_ + toks_.size()) return &toks_.back();  // EOF
    return at(i);
  }
  Token *get(size_t i) const override {
    if (i - base_ >= toks_.size()) throw std::out_of_range("ItemTokenStream::get");
    return const_cast<LiteToken *>(&toks_[i - base_]);
  }
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
      lastEnd_ = static_cast<uint32_t>(toks_.front().stop() + 1);
      toks_.pop_front();
      ++base_;
    }
  }
  /// Byte offset where the trivia before token `i` starts.
  uint32_t leadOf(size_t i) const {
    if (i > base_) return static_cast<uint32_t>(tok(i - 1).stop() + 1);
    return lastEnd_;
  }
  size_t fetched() const { return base_ + toks_.size(); }
  /// Type of token `i` (fetching it), EOF past the end.
  size_t typeAt(size_t i) {
    if (i - base_ < toks_.size()) return toks_[i - base_].type();  // fetched already: the common case
    sync(i);
    if (i >= base_ + toks_.size()) return Token::EOF;
    return tok(i).type();
  }
  /// Token `i`, already fetched.
  const LiteToken &tok(size_t i) const { return toks_[i - base_]; }

private:
  LiteToken *at(size_t i) { return &toks_[i - base_]; }
  void sync(size_t i) {
    while (i >= base_ + toks_.size() && !eof_) {
      size_t start;
      size_t type = lexer_.next(start);
      switch (type) {
      case PtxLexer::LBRACE: case PtxLexer::LPAREN: case PtxLexer::LBRACK:
        if (++depth_ + bangs_ > kMaxNesting) throw NestingTooDeep{start, false};
        break;
      case PtxLexer::RBRACE: case PtxLexer::RPAREN: case PtxLexer::RBRACK:
        if (depth_ > 0) --depth_;
        break;
      // `!!!...x` recurses once per '!' (notOperand), like a bracket; count
      // them until the statement ends.
      case PtxLexer::BANG:
        if (depth_ + ++bangs_ > kMaxNesting) throw NestingTooDeep{start, true};
        break;
      case PtxLexer::SEMI: bangs_ = 0; break;
      case Token::EOF: eof_ = true; break;
      }
      toks_.emplace_back(type, start, lexer_.position() - 1, base_ + toks_.size(), &lexer_, &chars_);
    }
  }

  PtxScanner &lexer_;
  CharStream &chars_;
  std::string_view text_;
  TokenQueue toks_;
  size_t base_ = 0, p_ = 0;
  uint32_t lastEnd_ = 0;
  int depth_ = 0, bangs_ = 0;
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
      return Operand::imm(m_.intern("-" + std::string(text(i_ - 1))));
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

// ------------------------------------------------------------ fast path

/// Recognizes one item of PtxParser.g4 without ANTLR: a recursive-descent
/// transliteration of the grammar, rule for rule. Every decision in the
/// grammar is LL(1), except three that this code decides as ANTLR's
/// prediction does: `stmt` on IDENT (a label when COLON follows), `init` on
/// IDENT (LPAREN, EQUAL or neither follows), and `item` on DIRECTIVE (after
/// the attributes, ENTRY or FUNC makes it a function, else a declaration).
/// Each optional part and loop below is entered exactly when the next token
/// is in its FIRST set; the grammar's FOLLOW sets never overlap those FIRST
/// sets, so that is the choice ANTLR makes too. So when this accepts an item,
/// the grammar accepts the same tokens as the same item kind; when it does
/// not (any unexpected token), the item is parsed again by ANTLR, which
/// accepts it or reports the error. It looks no further ahead than ANTLR
/// does (two tokens at most). `parser-equivalence` checks it against ANTLR
/// on every corpus file and on mutated ones.
class FastItem {
public:
  explicit FastItem(ItemTokenStream &ts) : ts_(ts) {}

  /// True when the item at token `start` is recognized; sets its kind and
  /// the index one past its last token.
  bool run(size_t start, ir::Item::Kind &kind, size_t &end) {
    p_ = start;
    cachedAt_ = SIZE_MAX;
    bool ok = false;
    switch (la()) {
    case PtxLexer::VERSION: ++p_; ok = eat(PtxLexer::FLOAT) || eat(PtxLexer::INT); kind = ir::Item::Kind::Directive; break;
    case PtxLexer::TARGET:
      ++p_;
      ok = eat(PtxLexer::IDENT);
      while (ok && eat(PtxLexer::COMMA)) ok = eat(PtxLexer::IDENT);
      kind = ir::Item::Kind::Directive;
      break;
    case PtxLexer::ADDRESS_SIZE: ++p_; ok = eat(PtxLexer::INT); kind = ir::Item::Kind::Directive; break;
    case PtxLexer::FILE:
      ++p_;
      ok = eat(PtxLexer::INT) && eat(PtxLexer::STRING);
      if (ok && eat(PtxLexer::COMMA)) {
        ok = eat(PtxLexer::INT);
        if (ok && eat(PtxLexer::COMMA)) ok = eat(PtxLexer::INT);
      }
      kind = ir::Item::Kind::Directive;
      break;
    case PtxLexer::SECTION:
      ++p_;
      ok = eat(PtxLexer::SECTION_NAME) && eat(PtxLexer::LBRACE);
      while (ok && (la() == PtxLexer::SECTION_LABEL || la() == PtxLexer::SECTION_DATA)) ++p_;
      ok = ok && eat(PtxLexer::RBRACE);
      kind = ir::Item::Kind::Section;
      break;
    case PtxLexer::ALIAS:
      ++p_;
      ok = eat(PtxLexer::IDENT) && eat(PtxLexer::COMMA) && eat(PtxLexer::IDENT) && eat(PtxLexer::SEMI);
      kind = ir::Item::Kind::Directive;
      break;
    case PtxLexer::PRAGMA: ok = pragma(); kind = ir::Item::Kind::Directive; break;
    case PtxLexer::ENTRY: case PtxLexer::FUNC: ok = function(); kind = ir::Item::Kind::Function; break;
    case PtxLexer::REG: case PtxLexer::PARAM: ok = decl() && eat(PtxLexer::SEMI); kind = ir::Item::Kind::Decl; break;
    case PtxLexer::DIRECTIVE: {
      // function: attr* (ENTRY | FUNC) ...   decl: attr attr* declarator ...
      ok = attrs();
      if (!ok) break;
      if (la() == PtxLexer::ENTRY || la() == PtxLexer::FUNC) {
        ok = function();
        kind = ir::Item::Kind::Function;
      } else {
        ok = declRest() && eat(PtxLexer::SEMI);
        kind = ir::Item::Kind::Decl;
      }
      break;
    }
    default: break;
    }
    end = p_;
    return ok;
  }

private:
  size_t la() {
    if (cachedAt_ != p_) {
      cachedAt_ = p_;
      cached_ = ts_.typeAt(p_);
    }
    return cached_;
  }
  size_t la2() { return ts_.typeAt(p_ + 1); }
  bool eat(size_t t) {
    if (la() != t) return false;
    ++p_;
    return true;
  }

  // PRAGMA STRING (COMMA STRING)* SEMI
  bool pragma() {
    ++p_;
    if (!eat(PtxLexer::STRING)) return false;
    while (eat(PtxLexer::COMMA))
      if (!eat(PtxLexer::STRING)) return false;
    return eat(PtxLexer::SEMI);
  }

  // attr : DIRECTIVE (INT | LPAREN DIRECTIVE (COMMA DIRECTIVE)* RPAREN)?
  bool attr() {
    ++p_;  // DIRECTIVE
    if (eat(PtxLexer::INT)) return true;
    if (!eat(PtxLexer::LPAREN)) return true;
    if (!eat(PtxLexer::DIRECTIVE)) return false;
    while (eat(PtxLexer::COMMA))
      if (!eat(PtxLexer::DIRECTIVE)) return false;
    return eat(PtxLexer::RPAREN);
  }
  bool attrs() {
    while (la() == PtxLexer::DIRECTIVE)
      if (!attr()) return false;
    return true;
  }

  // declarator : (IDENT | REGISTER) (LANGLE INT RANGLE)? (LBRACK INT? RBRACK)*
  bool declarator() {
    if (!eat(PtxLexer::IDENT) && !eat(PtxLexer::REGISTER)) return false;
    if (eat(PtxLexer::LANGLE) && !(eat(PtxLexer::INT) && eat(PtxLexer::RANGLE))) return false;
    while (eat(PtxLexer::LBRACK)) {
      eat(PtxLexer::INT);
      if (!eat(PtxLexer::RBRACK)) return false;
    }
    return true;
  }

  // decl : (REG | PARAM | attr) attr* declarator (COMMA declarator)* (EQUAL init)?
  bool decl() {
    if (la() == PtxLexer::REG || la() == PtxLexer::PARAM) ++p_;
    else if (la() != PtxLexer::DIRECTIVE || !attr()) return false;
    return attrs() && declRest();
  }
  /// decl after its attributes: declarator (COMMA declarator)* (EQUAL init)?
  bool declRest() {
    if (!declarator()) return false;
    while (eat(PtxLexer::COMMA))
      if (!declarator()) return false;
    if (eat(PtxLexer::EQUAL)) return init();
    return true;
  }

  // init : LBRACE init (COMMA init)* RBRACE | IDENT LPAREN init RPAREN ((PLUS | MINUS) INT)?
  //      | IDENT EQUAL IDENT | dataValue
  bool init() {
    if (eat(PtxLexer::LBRACE)) {
      if (!init()) return false;
      while (eat(PtxLexer::COMMA))
        if (!init()) return false;
      return eat(PtxLexer::RBRACE);
    }
    if (la() == PtxLexer::IDENT && la2() == PtxLexer::LPAREN) {
      p_ += 2;
      if (!init() || !eat(PtxLexer::RPAREN)) return false;
      if (eat(PtxLexer::PLUS) || eat(PtxLexer::MINUS)) return eat(PtxLexer::INT);
      return true;
    }
    if (la() == PtxLexer::IDENT && la2() == PtxLexer::EQUAL) {
      p_ += 2;
      return eat(PtxLexer::IDENT);
    }
    // dataValue : MINUS? dataTerm ((PLUS | MINUS) dataTerm)*
    eat(PtxLexer::MINUS);
    if (!dataTerm()) return false;
    while (eat(PtxLexer::PLUS) || eat(PtxLexer::MINUS))
      if (!dataTerm()) return false;
    return true;
  }
  // dataTerm : INT | IDENT | DIRECTIVE | HEXFLOAT | FLOAT
  bool dataTerm() {
    switch (la()) {
    case PtxLexer::INT: case PtxLexer::IDENT: case PtxLexer::DIRECTIVE: case PtxLexer::HEXFLOAT:
    case PtxLexer::FLOAT: ++p_; return true;
    default: return false;
    }
  }

  // paramDecl : (PARAM | REG) attr* declarator
  bool paramDecl() {
    if (!eat(PtxLexer::PARAM) && !eat(PtxLexer::REG)) return false;
    return attrs() && declarator();
  }
  /// LPAREN (paramDecl (COMMA paramDecl)*)? RPAREN, the empty list allowed
  /// or not (returnParams).
  bool params(bool allowEmpty) {
    ++p_;  // LPAREN
    if (allowEmpty && eat(PtxLexer::RPAREN)) return true;
    if (!paramDecl()) return false;
    while (eat(PtxLexer::COMMA))
      if (!paramDecl()) return false;
    return eat(PtxLexer::RPAREN);
  }

  // function : attr* (ENTRY | FUNC) returnParams? IDENT paramList? perfDirective* (block | SEMI)
  // (the attributes were read by the caller)
  bool function() {
    ++p_;  // ENTRY | FUNC
    if (la() == PtxLexer::LPAREN && !params(false)) return false;
    if (!eat(PtxLexer::IDENT)) return false;
    if (la() == PtxLexer::LPAREN && !params(true)) return false;
    // perfDirective : DIRECTIVE (INT (COMMA INT)*)? | PRAGMA STRING (COMMA STRING)* SEMI
    while (true) {
      if (eat(PtxLexer::DIRECTIVE)) {
        if (eat(PtxLexer::INT))
          while (eat(PtxLexer::COMMA))
            if (!eat(PtxLexer::INT)) return false;
      } else if (la() == PtxLexer::PRAGMA) {
        if (!pragma()) return false;
      } else {
        break;
      }
    }
    if (eat(PtxLexer::SEMI)) return true;
    return la() == PtxLexer::LBRACE && block();
  }

  // block : LBRACE stmt* RBRACE
  bool block() {
    ++p_;  // LBRACE
    while (!eat(PtxLexer::RBRACE))
      if (!stmt()) return false;
    return true;
  }

  bool stmt() {
    switch (la()) {
    case PtxLexer::LBRACE: return block();
    case PtxLexer::LOC: ++p_; return true;
    case PtxLexer::PRAGMA: return pragma();
    case PtxLexer::CALLPROTOTYPE:  // CALLPROTOTYPE protoParams? IDENT protoParams? SEMI
      ++p_;
      if (la() == PtxLexer::LPAREN && !params(true)) return false;
      if (!eat(PtxLexer::IDENT)) return false;
      if (la() == PtxLexer::LPAREN && !params(true)) return false;
      return eat(PtxLexer::SEMI);
    case PtxLexer::BRANCHTARGETS:
    case PtxLexer::CALLTARGETS:  // (BRANCHTARGETS | CALLTARGETS) IDENT (COMMA IDENT)* SEMI
      ++p_;
      if (!eat(PtxLexer::IDENT)) return false;
      while (eat(PtxLexer::COMMA))
        if (!eat(PtxLexer::IDENT)) return false;
      return eat(PtxLexer::SEMI);
    case PtxLexer::REG: case PtxLexer::PARAM: case PtxLexer::DIRECTIVE: return decl() && eat(PtxLexer::SEMI);
    case PtxLexer::IDENT:
      if (la2() == PtxLexer::COLON) {
        p_ += 2;
        return true;
      }
      return instruction();
    case PtxLexer::AT: return instruction();
    default: return false;
    }
  }

  // instruction : guard? IDENT (operand (COMMA operand)*)? SEMI
  // guard       : AT BANG? (REGISTER | IDENT)
  bool instruction() {
    if (eat(PtxLexer::AT)) {
      eat(PtxLexer::BANG);
      if (!eat(PtxLexer::REGISTER) && !eat(PtxLexer::IDENT)) return false;
    }
    if (!eat(PtxLexer::IDENT)) return false;
    if (eat(PtxLexer::SEMI)) return true;
    if (!operand()) return false;
    while (eat(PtxLexer::COMMA))
      if (!operand()) return false;
    return eat(PtxLexer::SEMI);
  }

  // operand : BANG operand | primary (PIPE primary)*
  bool operand() {
    if (eat(PtxLexer::BANG)) return operand();
    if (!primary()) return false;
    while (eat(PtxLexer::PIPE))
      if (!primary()) return false;
    return true;
  }
  /// (operand (COMMA operand)*)? close
  bool operandList(size_t close) {
    if (eat(close)) return true;
    if (!operand()) return false;
    while (eat(PtxLexer::COMMA))
      if (!operand()) return false;
    return eat(close);
  }
  // addrItem : operand ((PLUS | MINUS) operand)?
  bool addrItem() {
    if (!operand()) return false;
    if (eat(PtxLexer::PLUS) || eat(PtxLexer::MINUS)) return operand();
    return true;
  }
  bool primary() {
    switch (la()) {
    case PtxLexer::REGISTER: case PtxLexer::IDENT: case PtxLexer::INT: case PtxLexer::FLOAT:
    case PtxLexer::HEXFLOAT: ++p_; return true;
    case PtxLexer::MINUS:
      ++p_;
      return eat(PtxLexer::INT) || eat(PtxLexer::FLOAT) || eat(PtxLexer::HEXFLOAT);
    case PtxLexer::LBRACE: ++p_; return operandList(PtxLexer::RBRACE);
    case PtxLexer::LPAREN: ++p_; return operandList(PtxLexer::RPAREN);
    case PtxLexer::LBRACK:  // LBRACK addrItem (COMMA addrItem)* RBRACK
      ++p_;
      if (!addrItem()) return false;
      while (eat(PtxLexer::COMMA))
        if (!addrItem()) return false;
      return eat(PtxLexer::RBRACK);
    default: return false;
    }
  }

  ItemTokenStream &ts_;
  size_t p_ = 0;
  size_t cachedAt_ = SIZE_MAX, cached_ = 0;  // la() at token cachedAt_
};

ir::Item::Kind itemKind(PtxParser::ItemContext *c) {
  if (dynamic_cast<PtxParser::FunctionItemContext *>(c)) return ir::Item::Kind::Function;
  if (dynamic_cast<PtxParser::DeclItemContext *>(c)) return ir::Item::Kind::Decl;
  if (dynamic_cast<PtxParser::SectionItemContext *>(c)) return ir::Item::Kind::Section;
  return ir::Item::Kind::Directive;
}

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

ParseResult parsePtx(std::string source, std::string fileName, bool fastPath) {
  ParseResult r;
  auto mod = std::make_unique<ir::Module>(std::move(source), fileName);
  const std::string &src = mod->source();

  ByteCharStream chars(src, fileName);
  PtxScanner lexer(src, &chars, fileName);
  ItemTokenStream tokens(lexer, chars, src);
  PtxParser parser(&tokens);
  parser.removeErrorListeners();
  parser.setBuildParseTree(false);
  ThrowingErrorListener listener(src);
  auto bail = std::make_shared<BailErrorStrategy>();
  auto full = std::make_shared<DefaultErrorStrategy>();
  Builder builder(*mod, tokens);
  FastItem fast(tokens);

  try {
    while (true) {
      size_t start = tokens.index();
      if (tokens.LA(1) == Token::EOF) break;
      checkItemStart(tokens.LT(1), src);
      ir::Item::Kind kind;
      size_t end;
      if (fastPath && fast.run(start, kind, end)) {
        tokens.seek(end);
        builder.item(kind, start, end);
        ++r.stats.items;
        ++r.stats.fastItems;
        tokens.discardConsumed();
        continue;
      }
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
      builder.item(itemKind(item), item->start->getTokenIndex(), item->stop->getTokenIndex() + 1);
      ++r.stats.items;
      parser.getTreeTracker().reset();
      tokens.discardConsumed();
    }
  } catch (SyntaxError &e) {
    r.error = makeDiagnostic(Severity::Error, fileName, src, static_cast<uint32_t>(e.offset), e.message);
    return r;
  } catch (NestingTooDeep &e) {
    r.error = makeDiagnostic(Severity::Error, fileName, src, static_cast<uint32_t>(e.offset),
                             std::string(e.bangs ? "'!' operators" : "braces, brackets or parentheses") +
                                 " nested deeper than " + std::to_string(kMaxNesting) + " levels");
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
