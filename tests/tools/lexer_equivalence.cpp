// lexer-equivalence [--time] FILE...: checks that the hand-written scanner
// and the ANTLR lexer generated from grammar/PtxLexer.g4 produce the same
// tokens. Prints 'N passed, N failed' and exits 1 on any difference. With
// --time it also prints, per file, how long each lexer took (best of 3), the
// measurement behind the speed claim in docs/ARCHITECTURE.md.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "LexCompare.h"

namespace {
template <class F> double bestOfThreeMs(F &&lex) {
  double best = 1e300;
  for (int i = 0; i < 3; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    lex();
    std::chrono::duration<double, std::milli> d = std::chrono::steady_clock::now() - t0;
    best = std::min(best, d.count());
  }
  return best;
}
} // namespace

int main(int argc, char **argv) {
  int pass = 0, fail = 0;
  bool time = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--time") {
      time = true;
      continue;
    }
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::string diff = ptxopt::testing::compareLexers(text);
    if (diff.empty()) {
      ++pass;
    } else {
      ++fail;
      std::cout << "FAIL: " << argv[i] << ": " << diff << "\n";
    }
    if (time) {
      double antlr = bestOfThreeMs([&] { ptxopt::testing::lexWithAntlr(text); });
      double scanner = bestOfThreeMs([&] { ptxopt::testing::lexWithScanner(text); });
      std::printf("%s: %zu bytes, ANTLR lexer %.1f ms, scanner %.1f ms, %.1fx\n", argv[i],
                  text.size(), antlr, scanner, antlr / scanner);
    }
  }
  std::cout << pass << " passed, " << fail << " failed\n";
  return fail ? 1 : 0;
}
