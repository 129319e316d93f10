// PTX scanner (see Lexer.h). Each branch below names the lexer rule of
// grammar/PtxLexer.g4 it implements; ANTLR picks the longest match and, on a
// tie, the rule listed first, and so does this code.
#include "Lexer.h"

#include <algorithm>
#include <unordered_map>

#include "PtxLexer.h"

namespace ptxopt {
namespace {

using L = grammar::PtxLexer;

inline bool isIdStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isIdChar(char c) { return isIdStart(c) || isDigit(c); }
inline bool isHex(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
inline bool isWs(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
// DATA_CHAR and LOC_CHAR: [a-zA-Z0-9_$.,+\- \t]
inline bool isDataChar(char c) {
  return isIdChar(c) || c == '.' || c == ',' || c == '+' || c == '-' || c == ' ' || c == '\t';
}

const std::unordered_map<std::string_view, size_t> &keywords() {
  static const std::unordered_map<std::string_view, size_t> k = {
      {".version", L::VERSION}, {".target", L::TARGET}, {".address_size", L::ADDRESS_SIZE},
      {".file", L::FILE}, {".section", L::SECTION}, {".entry", L::ENTRY}, {".func", L::FUNC},
      {".param", L::PARAM}, {".reg", L::REG}, {".pragma", L::PRAGMA}, {".alias", L::ALIAS},
      {".callprototype", L::CALLPROTOTYPE}, {".branchtargets", L::BRANCHTARGETS},
      {".calltargets", L::CALLTARGETS}};
  return k;
}

}  // namespace

PtxScanner::PtxScanner(std::string_view text, antlr4::CharStream *input, std::string sourceName)
    : text_(text), input_(input), name_(std::move(sourceName)) {}

// Line numbers are counted only for tokens made by nextToken() (ANTLR's
// interface); the parser's own path (next()) needs offsets only.
void PtxScanner::countLinesTo(size_t end) {
  for (size_t i = counted_; i < end; ++i)
    if (text_[i] == '\n') {
      ++line_;
      lineStart_ = i + 1;
    }
  counted_ = std::max(counted_, end);
}

std::pair<size_t, size_t> PtxScanner::lineColumn(size_t offset) {
  if (lineStarts_.empty()) {
    lineStarts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i)
      if (text_[i] == '\n') lineStarts_.push_back(i + 1);
  }
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  size_t line = static_cast<size_t>(it - lineStarts_.begin());
  return {line, offset - lineStarts_[line - 1]};
}

size_t PtxScanner::next(size_t &start) {
  while (pos_ < text_.size()) {
    start = pos_;
    size_t type = scan();
    if (type != 0) return type;  // else skipped trivia
  }
  start = pos_;
  return antlr4::Token::EOF;
}

std::unique_ptr<antlr4::Token> PtxScanner::nextToken() {
  size_t start;
  size_t type = next(start);
  countLinesTo(start);
  size_t line = line_, col = start - lineStart_;
  auto t = std::make_unique<antlr4::CommonToken>(std::make_pair(this, input_), type,
                                                 antlr4::Token::DEFAULT_CHANNEL, start, pos_ - 1);
  t->setLine(line);
  t->setCharPositionInLine(col);
  return t;
}

// WS, SH_WS, SB_WS and LINE_COMMENT, SH_COMMENT, SB_COMMENT: the same rules
// in all three modes. True when trivia at pos_ was skipped.
bool PtxScanner::skipTrivia() {
  const size_t p = pos_;
  if (isWs(text_[p])) {
    size_t e = p + 1;
    while (e < text_.size() && isWs(text_[e])) ++e;
    advanceTo(e);
    return true;
  }
  if (text_[p] == '/' && at(p + 1) == '/') {
    size_t e = text_.find_first_of("\r\n", p);
    advanceTo(e == std::string_view::npos ? text_.size() : e);
    return true;
  }
  return false;
}

size_t PtxScanner::scan() {
  if (skipTrivia()) return 0;
  switch (mode_) {
  case Mode::Default: return scanDefault();
  case Mode::SectionHead: return scanSectionHead();
  case Mode::SectionBody: return scanSectionBody();
  }
  return 0;
}

size_t PtxScanner::scanDefault() {
  const size_t p = pos_;
  const char c = text_[p];
  if (c == '/' && at(p + 1) == '*') {  // BLOCK_COMMENT, or OPEN_COMMENT to EOF
    size_t e = text_.find("*/", p + 2);
    if (e == std::string_view::npos) {
      advanceTo(text_.size());
      return L::OPEN_COMMENT;
    }
    advanceTo(e + 2);
    return 0;
  }
  if (c == '.' && isIdStart(at(p + 1))) {  // keywords, LOC, DIRECTIVE
    size_t e = p + 2;
    while (isIdChar(at(e))) ++e;
    while (at(e) == ':' && at(e + 1) == ':' && isIdChar(at(e + 2))) {
      e += 3;
      while (isIdChar(at(e))) ++e;
    }
    std::string_view word = text_.substr(p, e - p);
    if (word == ".loc") {
      // LOC: '.loc' ( [ \t]+ LOC_CHAR+ )?  -- the run needs a blank and one more char.
      size_t r = e;
      if (at(r) == ' ' || at(r) == '\t') {
        while (r < text_.size() && isDataChar(text_[r])) ++r;
        if (r - e >= 2) e = r;
      }
      advanceTo(e);
      return L::LOC;
    }
    advanceTo(e);
    auto it = keywords().find(word);
    if (it == keywords().end()) return L::DIRECTIVE;
    if (it->second == L::SECTION) mode_ = Mode::SectionHead;
    return it->second;
  }
  if (c == '%') {  // REGISTER: '%' ID_CHAR+ ( '.' ID_CHAR+ )?
    size_t e = p + 1;
    while (isIdChar(at(e))) ++e;
    if (e == p + 1) {
      advanceTo(p + 1);
      return L::ERRCHAR;
    }
    if (at(e) == '.' && isIdChar(at(e + 1))) {
      e += 2;
      while (isIdChar(at(e))) ++e;
    }
    advanceTo(e);
    return L::REGISTER;
  }
  if (isIdStart(c)) {  // IDENT: ID_START ID_CHAR* ( '.' ID_CHAR+ ( '::' ID_CHAR+ )* )*
    size_t e = p + 1;
    while (isIdChar(at(e))) ++e;
    while (at(e) == '.' && isIdChar(at(e + 1))) {
      e += 2;
      while (isIdChar(at(e))) ++e;
      while (at(e) == ':' && at(e + 1) == ':' && isIdChar(at(e + 2))) {
        e += 3;
        while (isIdChar(at(e))) ++e;
      }
    }
    advanceTo(e);
    return L::IDENT;
  }
  if (isDigit(c)) return scanNumber();
  if (c == '"') {  // STRING: '"' ( ~["\\\r\n] | '\\' . )* '"'
    size_t e = p + 1;
    while (e < text_.size()) {
      char d = text_[e];
      if (d == '"') {
        advanceTo(e + 1);
        return L::STRING;
      }
      if (d == '\r' || d == '\n') break;
      if (d == '\\') {
        if (e + 1 >= text_.size()) break;
        e += 2;
        continue;
      }
      ++e;
    }
    advanceTo(p + 1);  // no STRING: the quote alone is an ERRCHAR
    return L::ERRCHAR;
  }
  size_t type;
  switch (c) {
  case '{': type = L::LBRACE; break;
  case '}': type = L::RBRACE; break;
  case '(': type = L::LPAREN; break;
  case ')': type = L::RPAREN; break;
  case '[': type = L::LBRACK; break;
  case ']': type = L::RBRACK; break;
  case '<': type = L::LANGLE; break;
  case '>': type = L::RANGLE; break;
  case ',': type = L::COMMA; break;
  case ';': type = L::SEMI; break;
  case ':': type = L::COLON; break;
  case '@': type = L::AT; break;
  case '!': type = L::BANG; break;
  case '|': type = L::PIPE; break;
  case '+': type = L::PLUS; break;
  case '-': type = L::MINUS; break;
  case '=': type = L::EQUAL; break;
  case '*': type = L::STAR; break;
  default: type = L::ERRCHAR; break;
  }
  advanceTo(p + 1);
  return type;
}

// HEXFLOAT, FLOAT and INT: the longest of the three wins; on a tie the
// earlier rule (HEXFLOAT, then FLOAT, then INT).
size_t PtxScanner::scanNumber() {
  const size_t p = pos_;
  auto digits = [&](size_t i) {
    size_t e = i;
    while (isDigit(at(e))) ++e;
    return e - i;
  };
  auto exponent = [&](size_t i) -> size_t {  // EXPONENT: [eE] [+-]? DIGIT+
    if (at(i) != 'e' && at(i) != 'E') return 0;
    size_t j = i + 1;
    if (at(j) == '+' || at(j) == '-') ++j;
    size_t d = digits(j);
    return d ? j + d - i : 0;
  };
  size_t hexFloat = 0;
  if (text_[p] == '0' && (at(p + 1) == 'f' || at(p + 1) == 'F' || at(p + 1) == 'd' || at(p + 1) == 'D') &&
      isHex(at(p + 2))) {
    size_t e = p + 2;
    while (isHex(at(e))) ++e;
    hexFloat = e - p;
  }
  size_t d = digits(p), flt = 0;
  if (at(p + d) == '.') {
    size_t f = p + d + 1;
    f += digits(f);
    f += exponent(f);
    flt = f - p;
  } else if (size_t x = exponent(p + d)) {
    flt = d + x;
  }
  size_t integer = d + (at(p + d) == 'U' ? 1 : 0);
  if (text_[p] == '0' && (at(p + 1) == 'x' || at(p + 1) == 'X') && isHex(at(p + 2))) {
    size_t e = p + 2;
    while (isHex(at(e))) ++e;
    if (at(e) == 'U') ++e;
    integer = std::max(integer, e - p);
  }
  if (text_[p] == '0' && (at(p + 1) == 'b' || at(p + 1) == 'B') && (at(p + 2) == '0' || at(p + 2) == '1')) {
    size_t e = p + 2;
    while (at(e) == '0' || at(e) == '1') ++e;
    if (at(e) == 'U') ++e;
    integer = std::max(integer, e - p);
  }
  size_t best = hexFloat, type = L::HEXFLOAT;
  if (flt > best) best = flt, type = L::FLOAT;
  if (integer > best) best = integer, type = L::INT;
  advanceTo(p + best);
  return type;
}

size_t PtxScanner::scanSectionHead() {
  const size_t p = pos_;
  const char c = text_[p];
  if (c == '.' || isIdStart(c)) {  // SECTION_NAME: [.a-zA-Z_$] [a-zA-Z0-9_$.]*
    size_t e = p + 1;
    while (isIdChar(at(e)) || at(e) == '.') ++e;
    advanceTo(e);
    return L::SECTION_NAME;
  }
  advanceTo(p + 1);
  if (c == '{') {  // SH_LBRACE
    mode_ = Mode::SectionBody;
    return L::LBRACE;
  }
  mode_ = Mode::Default;  // SH_ERR: popMode
  return L::ERRCHAR;
}

size_t PtxScanner::scanSectionBody() {
  const size_t p = pos_;
  const char c = text_[p];
  if (c == '/' && at(p + 1) == '*') {  // SB_BCOMMENT (no match without '*/')
    size_t e = text_.find("*/", p + 2);
    if (e != std::string_view::npos) {
      advanceTo(e + 2);
      return 0;
    }
  }
  if (isIdStart(c)) {  // SECTION_LABEL: ID_START ID_CHAR* [ \t]* ':'
    size_t e = p + 1;
    while (isIdChar(at(e))) ++e;
    while (at(e) == ' ' || at(e) == '\t') ++e;
    if (at(e) == ':') {
      advanceTo(e + 1);
      return L::SECTION_LABEL;
    }
  }
  if (c == '.' && isIdStart(at(p + 1))) {  // SECTION_DATA: '.' ID_START ID_CHAR* ( [ \t]+ DATA_CHAR+ )?
    size_t e = p + 2;
    while (isIdChar(at(e))) ++e;
    if (at(e) == ' ' || at(e) == '\t') {
      size_t r = e;
      while (r < text_.size() && isDataChar(text_[r])) ++r;
      if (r - e >= 2) e = r;
    }
    advanceTo(e);
    return L::SECTION_DATA;
  }
  advanceTo(p + 1);
  if (c == '}') {  // SB_RBRACE: popMode
    mode_ = Mode::Default;
    return L::RBRACE;
  }
  return L::ERRCHAR;  // SB_ERR
}

}  // namespace ptxopt
