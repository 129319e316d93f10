// The analyses as text: the `--analyze` report (readable, or JSON with the
// schema in docs/ANALYSIS.md), Graphviz CFGs, and the per-analysis printers
// that lit tests use (`--print-analysis=NAME`).
#pragma once

#include <string>
#include <string_view>

#include "ptxopt/analysis/AnalysisManager.h"

namespace ptxopt::analysis {

std::string reportText(const ir::Module &m, AnalysisManager &am);
std::string reportJson(const ir::Module &m, AnalysisManager &am);
std::string cfgDot(const ir::Module &m, AnalysisManager &am);

/// Names accepted by printAnalysis.
inline constexpr const char *kAnalysisPrinters[] = {"cfg",      "domtree",  "postdomtree", "loops",
                                                    "defs",     "values",   "accesses",    "communication",
                                                    "divergence"};
/// One analysis for every function with a body; empty string and false for an unknown name.
bool printAnalysis(const ir::Module &m, AnalysisManager &am, std::string_view name, std::string &out);

}  // namespace ptxopt::analysis
