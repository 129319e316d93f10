// Runs the ANTLR-generated lexer (grammar/PtxLexer.g4) and the hand-written
// PtxScanner on the same text and reports the first token where they differ.
#pragma once

#include <string>
#include <vector>

#include "PtxLexer.h"
#include "antlr4-runtime.h"
#include "parser/Lexer.h"

namespace ptxopt::testing {

struct Tok {
  size_t type, start, stop;
  bool operator==(const Tok &o) const { return type == o.type && start == o.start && stop == o.stop; }
};

/// Bytes as code points 0..255, as ptx-opt's own char stream gives them.
struct ByteInputStream : antlr4::ANTLRInputStream {
  explicit ByteInputStream(const std::string &text) {
    _data.reserve(text.size());
    for (unsigned char c : text) _data.push_back(c);
    p = 0;
  }
};

inline std::vector<Tok> lexWithAntlr(const std::string &text) {
  ByteInputStream in(text);
  grammar::PtxLexer lexer(&in);
  lexer.removeErrorListeners();
  std::vector<Tok> out;
  for (;;) {
    auto t = lexer.nextToken();
    out.push_back({t->getType(), t->getStartIndex(), t->getStopIndex()});
    if (t->getType() == antlr4::Token::EOF) break;
  }
  return out;
}

inline std::vector<Tok> lexWithScanner(const std::string &text) {
  PtxScanner s(text, nullptr, "x");
  std::vector<Tok> out;
  for (;;) {
    auto t = s.nextToken();
    out.push_back({t->getType(), t->getStartIndex(), t->getStopIndex()});
    if (t->getType() == antlr4::Token::EOF) break;
  }
  return out;
}

/// Empty when both lexers agree; otherwise a description of the first difference.
inline std::string compareLexers(const std::string &text) {
  auto a = lexWithAntlr(text), b = lexWithScanner(text);
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i] == b[i]) continue;
    auto show = [&](const Tok &t) {
      std::string s = "type " + std::to_string(t.type) + " [" + std::to_string(t.start) + "," +
                      std::to_string(t.stop) + "]";
      if (t.type != antlr4::Token::EOF && t.stop >= t.start && t.stop < text.size())
        s += " '" + text.substr(t.start, std::min<size_t>(40, t.stop - t.start + 1)) + "'";
      return s;
    };
    return "token " + std::to_string(i) + ": ANTLR " + show(a[i]) + ", scanner " + show(b[i]);
  }
  if (a.size() != b.size()) return "token counts differ: " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
  return {};
}

}  // namespace ptxopt::testing
