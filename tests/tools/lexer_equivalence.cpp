// lexer-equivalence FILE...: checks that the hand-written scanner and the
// ANTLR lexer generated from grammar/PtxLexer.g4 produce the same tokens.
// Prints 'N passed, N failed' and exits 1 on any difference.
#include <fstream>
#include <iostream>
#include <sstream>

#include "LexCompare.h"

int main(int argc, char **argv) {
  int pass = 0, fail = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string diff = ptxopt::testing::compareLexers(ss.str());
    if (diff.empty()) {
      ++pass;
    } else {
      ++fail;
      std::cout << "FAIL: " << argv[i] << ": " << diff << "\n";
    }
  }
  std::cout << pass << " passed, " << fail << " failed\n";
  return fail ? 1 : 0;
}
