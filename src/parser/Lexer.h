// Hand-written PTX scanner with exactly the token rules of
// grammar/PtxLexer.g4 (same token types, same boundaries, same modes), 8-9x
// faster than the ANTLR-generated C++ lexer, whose per-character locking
// dominated parse time (`lexer-equivalence --time`, docs/ARCHITECTURE.md). tests/unit/test_lexer.cpp and the `lexer-equivalence`
// test compare the two token by token.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "antlr4-runtime.h"

namespace ptxopt {

class PtxScanner final : public antlr4::TokenSource {
public:
  PtxScanner(std::string_view text, antlr4::CharStream *input, std::string sourceName);

  std::unique_ptr<antlr4::Token> nextToken() override;
  /// The next token without making a Token object: its type (EOF at the
  /// end), its first byte in `start`; it ends before position().
  size_t next(size_t &start);
  size_t position() const { return pos_; }
  /// 1-based line and 0-based column of byte `offset` (ANTLR's error path
  /// asks per token): the line starts are found once, then a binary search.
  std::pair<size_t, size_t> lineColumn(size_t offset);
  size_t getLine() const override { return line_; }
  size_t getCharPositionInLine() override { return counted_ - lineStart_; }
  antlr4::CharStream *getInputStream() override { return input_; }
  std::string getSourceName() override { return name_; }
  antlr4::TokenFactory<antlr4::CommonToken> *getTokenFactory() override {
    return antlr4::CommonTokenFactory::DEFAULT.get();
  }

private:
  enum class Mode { Default, SectionHead, SectionBody };
  /// Scans one token (or skipped trivia) starting at pos_; returns its type,
  /// or 0 for skipped text. Advances pos_.
  size_t scan();
  bool skipTrivia();
  size_t scanDefault();
  size_t scanSectionHead();
  size_t scanSectionBody();
  size_t scanNumber();
  void advanceTo(size_t end) { pos_ = end; }
  void countLinesTo(size_t end);
  char at(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  std::string_view text_;
  antlr4::CharStream *input_;
  std::string name_;
  size_t pos_ = 0, line_ = 1, lineStart_ = 0, counted_ = 0;
  Mode mode_ = Mode::Default;
  std::vector<size_t> lineStarts_;  // lineColumn's, built on first use
};

}  // namespace ptxopt
