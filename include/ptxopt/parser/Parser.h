// PTX text -> IR. The grammar is grammar/PtxLexer.g4 and grammar/PtxParser.g4
// (ANTLR4, generated at build time). Parsing stops at the first error.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "ptxopt/ir/IR.h"
#include "ptxopt/support/Diagnostics.h"

namespace ptxopt {

struct ParseStats {
  size_t items = 0, tokens = 0, llFallbacks = 0;
  size_t fastItems = 0;  // items recognized without ANTLR (see Parser.cpp, FastItem)
};

struct ParseResult {
  std::unique_ptr<ir::Module> module;  // null on error
  std::optional<Diagnostic> error;
  ParseStats stats;
};

/// Parses a whole PTX module. `fileName` is used in diagnostics.
/// `fastPath` false parses every item with ANTLR (for the equivalence test;
/// the result is the same either way).
ParseResult parsePtx(std::string source, std::string fileName, bool fastPath = true);

}  // namespace ptxopt
