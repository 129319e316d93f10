// parser-equivalence [--mutations N] FILE...: checks that the parser's fast
// path (FastItem in src/parser/Parser.cpp, which recognizes items without
// ANTLR) gives exactly what the ANTLR parser gives: the same error message
// or the same items (kind and span) and the same lossless and canonical
// print. Runs each file as is, and N mutated copies of each file under
// 100 KB: a random token deleted, duplicated, or replaced by another token
// of the file, so that both accepted and rejected inputs are compared.
// Prints 'N passed, N failed' and exits 1 on any difference.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "LexCompare.h"
#include "ptxopt/parser/Parser.h"
#include "ptxopt/printer/Printer.h"
#include "ptxopt/support/Diagnostics.h"

namespace {

std::string describe(const ptxopt::ParseResult &r) {
  if (r.error) return "error " + ptxopt::formatDiagnostic(*r.error);
  std::string s;
  for (const auto &it : r.module->items)
    s += std::to_string(static_cast<int>(it.kind)) + "@" + std::to_string(it.span.lead) + "," +
         std::to_string(it.span.begin) + "," + std::to_string(it.span.end) + " ";
  return s;
}

/// Empty when the fast path and ANTLR agree on `text`, else what differs.
std::string compare(const std::string &text, size_t &fastItems) {
  auto fast = ptxopt::parsePtx(text, "f.ptx", true);
  auto slow = ptxopt::parsePtx(text, "f.ptx", false);
  fastItems += fast.stats.fastItems;
  if (slow.stats.fastItems) return "ANTLR-only parse used the fast path";
  std::string a = describe(fast), b = describe(slow);
  if (a != b) return "fast path: " + a.substr(0, 300) + "\nANTLR:     " + b.substr(0, 300);
  if (fast.error) return "";
  for (auto mode : {ptxopt::PrintMode::Lossless, ptxopt::PrintMode::Canonical})
    if (ptxopt::printModule(*fast.module, mode) != ptxopt::printModule(*slow.module, mode))
      return std::string("different ") + (mode == ptxopt::PrintMode::Lossless ? "lossless" : "canonical") + " print";
  return "";
}

}  // namespace

int main(int argc, char **argv) {
  int pass = 0, fail = 0, mutations = 0;
  size_t fastItems = 0, accepted = 0, rejected = 0;
  std::mt19937 rng(12345);
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--mutations" && i + 1 < argc) {
      mutations = std::stoi(argv[++i]);
      continue;
    }
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::string diff = compare(text, fastItems);
    if (diff.empty()) ++pass;
    else {
      ++fail;
      std::cout << "FAIL: " << argv[i] << ": " << diff << "\n";
    }
    if (text.size() > 100000 || !mutations) continue;
    auto toks = ptxopt::testing::lexWithScanner(text);
    if (toks.size() < 3) continue;
    for (int m = 0; m < mutations; ++m) {
      const auto &t = toks[rng() % (toks.size() - 1)];
      const auto &o = toks[rng() % (toks.size() - 1)];
      std::string tt = text.substr(t.start, t.stop + 1 - t.start), ot = text.substr(o.start, o.stop + 1 - o.start);
      std::string mut = text;
      switch (rng() % 3) {
      case 0: mut.replace(t.start, tt.size(), " "); break;         // delete
      case 1: mut.insert(t.start, tt + " "); break;                // duplicate
      default: mut.replace(t.start, tt.size(), " " + ot + " "); break;  // replace
      }
      size_t before = fastItems;
      std::string d = compare(mut, fastItems);
      (void)before;
      auto r = ptxopt::parsePtx(mut, "f.ptx", true);
      (r.error ? rejected : accepted)++;
      if (d.empty()) ++pass;
      else {
        ++fail;
        std::cout << "FAIL: " << argv[i] << " mutated (token at " << t.start << " '" << tt << "' / '" << ot
                  << "'): " << d << "\n";
      }
    }
  }
  std::cout << pass << " passed, " << fail << " failed (" << fastItems << " items without ANTLR; mutated inputs: "
            << accepted << " accepted, " << rejected << " rejected)\n";
  return fail ? 1 : 0;
}
