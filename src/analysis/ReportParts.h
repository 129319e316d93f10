// The report's shared pieces (src/analysis): where a statement is, in PTX
// lines and source locations, and small names; used by the text report
// (Report.cpp) and the JSON report (ReportJson.cpp).
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

#include "ptxopt/analysis/Report.h"
#include "ptxopt/support/Diagnostics.h"

namespace ptxopt::analysis::report {

using ir::Function;
using ir::Module;

const char *accessKind(MemAccess::Kind k);
/// The functions with bodies (the kernels only with `kernelsOnly`), in module order.
std::vector<const Function *> bodies(const Module &m, bool kernelsOnly);

// PTX line numbers for the report; built once per report.
struct Lines {
  explicit Lines(const Module &m) : table(m.lines()) {}
  const LineTable &table;  // the module's
  /// "line N" of a statement, "(synthesized)" without a place in the input.
  void of(std::string &out, const ir::Stmt *s) const {
    if (!s || !s->span.valid()) {
      out += "(synthesized)";
      return;
    }
    out += "line ";
    appendNumber(out, table.pos(s->span.begin).line);
  }
  template <typename Int> static void appendNumber(std::string &out, Int v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  }
};

/// "file.cu:12:3 (PTX line 40)", or "PTX line 40" without a .loc: appended
/// to `out` (the report asks once per access, fact and branch).
void appendWhere(std::string &out, const Module &m, const Lines &lines, const CFG &cfg, uint32_t instr);
/// Where a communication fact's statement is.
void appendLocOfFact(std::string &out, const Module &m, const Lines &lines, AnalysisManager &am, const CommFact &c);

}  // namespace ptxopt::analysis::report
