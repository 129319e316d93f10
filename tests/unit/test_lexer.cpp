// The hand-written scanner must tokenize exactly like the ANTLR lexer
// generated from grammar/PtxLexer.g4.
#include <catch2/catch.hpp>

#include <random>

#include "../tools/LexCompare.h"

using ptxopt::testing::compareLexers;

TEST_CASE("scanner matches the ANTLR lexer on tricky inputs", "[lexer]") {
  const char *cases[] = {
      "", " ", "\t\r\n\f\v", "// c", "/* c */", "/* open", "/**/", "/*/", "/***/x",
      ".version 9.0", ".loc 1 2 3", ".loc", ".loc ", ".loc  ", ".loc\t1, function_name $L, inlined_at 1 2 3",
      ".location", ".loc::x", ".section .debug_str { $L:\n.b8 1,2 // c\n.b8   \n}", ".section",
      ".section x", ".section .a /", ".section .a { q }", ".section .a { l : .b32 .debug_abbrev+4 }",
      "%", "%r", "%r1.x", "%r1.", "%tid.x.y", "a.b::c", "a::b", "ld.global.L2::cache_hint.v4",
      ".shared::cluster", ".a::", "0", "0x", "0x1FU", "0b", "0b1012", "0f3F800000", "0f", "0d",
      "0dFFFF", "1.", "1.5e3", "1e", "1e+", "1e+5", "12U", "00", "017", "1.e5", "\"s\"", "\"unterminated",
      "\"a\\\"b\"", "\"a\nb\"", "\"\\", "@!%p bra L;", "{_}", "[a+-4]", "#", "\x01\xff", ".", "._", ".5",
      "$L__BB0_1:", "x = {1, 2}", "_", "a|b", "a*b",
  };
  for (const char *c : cases) {
    INFO("input: " << c);
    CHECK(compareLexers(c) == "");
  }
}

TEST_CASE("scanner matches the ANTLR lexer on random inputs", "[lexer]") {
  // Random strings over an alphabet rich in PTX's special characters.
  const std::string alphabet = "abfdxeEU019_$%.:;,{}[]()<>@!|+-=*/\" \t\n\\#";
  const std::vector<std::string> words = {".section", ".loc", ".b8", ".version", "0f3F", "0x1", "//", "/*", "*/", "::"};
  std::mt19937 rng(12345);
  for (int n = 0; n < 3000; ++n) {
    std::string s;
    int len = static_cast<int>(rng() % 40);
    for (int i = 0; i < len; ++i) {
      if (rng() % 6 == 0) s += words[rng() % words.size()];
      else s += alphabet[rng() % alphabet.size()];
    }
    INFO("input: " << s);
    REQUIRE(compareLexers(s) == "");
  }
}

TEST_CASE("scanner: line and column of every byte, as counting newlines from the start gives them", "[lexer]") {
  // ANTLR's error path asks a token's line and column; they come from a
  // table of line starts now, not from counting the text before the token.
  const std::string text = "\n.version 8.0\n\n  .target sm_90 // c\r\nx\n";
  antlr4::ANTLRInputStream in(text);
  ptxopt::PtxScanner scanner(text, &in, "t.ptx");
  for (size_t off = 0; off <= text.size(); ++off) {
    size_t line = 1, col = 0;
    for (size_t i = 0; i < off; ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 0;
      } else {
        ++col;
      }
    }
    INFO("offset " << off);
    CHECK(scanner.lineColumn(off) == std::make_pair(line, col));
  }
}
