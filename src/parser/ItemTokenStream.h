// The parser's token streams (src/parser): the source bytes as ANTLR's
// CharStream (ByteCharStream: a view, where ANTLR's own stream would copy the
// file into UTF-32), tokens without text (LiteToken) in a chunked queue
// (TokenQueue), and ItemTokenStream, which pulls tokens from the scanner on
// demand and drops each finished item's tokens. Shared by the driver
// (Parser.cpp), the IR builder (ItemBuilder.cpp) and the fast path
// (FastItem.cpp), which are the steps of a parse:
//
//   ItemTokenStream -> FastItem (or ANTLR) recognizes an item -> ItemBuilder
//   makes its IR -> the item's tokens are dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "Lexer.h"
#include "PtxLexer.h"
#include "antlr4-runtime.h"
#include "ptxopt/ir/IR.h"

namespace ptxopt::parse {

using namespace antlr4;
using grammar::PtxLexer;

/// Brackets (and '!' operators) nested deeper than this are an error, not a
/// stack overflow in ANTLR's recursion.
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

// ------------------------------------------------------------ the steps

/// Builds each item's IR from its tokens, which the grammar (or the fast
/// path) has accepted (ItemBuilder.cpp).
class ItemBuilder {
public:
  ItemBuilder(ir::Module &m, ItemTokenStream &ts);
  ~ItemBuilder();
  /// Builds the item of kind `kind` from tokens [first, end) into the module.
  void item(ir::Item::Kind kind, size_t first, size_t end);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The fast path (FastItem.cpp): true when the item at token `start` is one
/// that PtxParser.g4 accepts, recognized without ANTLR; sets its kind and
/// the index one past its last token. False: ANTLR parses it (and reports
/// the error, if any).
bool recognizeItem(ItemTokenStream &ts, size_t start, ir::Item::Kind &kind, size_t &end);

}  // namespace ptxopt::parse
