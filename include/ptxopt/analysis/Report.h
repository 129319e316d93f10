// The analyses as text: the `--analyze` report (readable, or JSON with the
// schema in docs/ANALYSIS.md), Graphviz CFGs, and the per-analysis printers
// that lit tests use (`--print-analysis=NAME`).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ptxopt/analysis/AnalysisManager.h"

namespace ptxopt::analysis {

std::string reportText(const ir::Module &m, AnalysisManager &am);
std::string reportJson(const ir::Module &m, AnalysisManager &am);
/// Coverage counts (`--stats`, and every report form): the global accesses
/// (state space .global or generic, the ones the report lists) by verdict,
/// and the unknown ones by the class of their cause, so that a user sees
/// what the analysis misses and we can measure it.
struct Coverage {
  size_t accesses = 0;                        // global and generic
  std::map<AccessInfo::Verdict, size_t> verdicts;
  std::map<UnknownCause, size_t> unknownCauses;  // of the unknown ones
  size_t otherSpaces = 0;                     // shared, local, const...: not listed, not counted above
  size_t count(AccessInfo::Verdict v) const;
  void add(const AccessInfo &a);
  void add(const Coverage &c);
  /// "3 (1 coalesced, 0 uniform, 1 uncoalesced, 1 unknown)"
  std::string verdictText() const;
  /// "2 data-dependent, 1 call", "" when nothing is unknown.
  std::string causeText() const;
};
/// "the same for every thread", "the same within a block (depends on
/// %ctaid)", "may differ by thread": a loop's trip count in the reports.
std::string tripUniformText(UniformLevel l);
/// Length of the well-formed UTF-8 sequence at s[i] (1 for ASCII), 0 when
/// it is not one: the HTML and JSON reports write U+FFFD for such a byte.
size_t utf8Length(std::string_view s, size_t i);
/// Whether the report lists access `a` (global or generic space).
bool reportedAccess(const AccessInfo &a);
struct KernelCoverage {
  std::string kernel;
  Coverage coverage;
};
/// Per kernel (in module order), and the module total.
std::vector<KernelCoverage> moduleCoverage(const ir::Module &m, AnalysisManager &am, Coverage *total = nullptr);
/// {"accesses", "verdicts": {verdict: n} (all four), "unknown_causes": {cause: n}
/// (the non-zero ones), "other_spaces"}: the JSON report's "coverage" object.
nlohmann::json coverageJson(const Coverage &c);
/// The `--stats` lines: "coverage of kernel K: ..." per kernel, then "coverage of the module: ...".
std::string coverageStats(const ir::Module &m, AnalysisManager &am);

std::string cfgDot(const ir::Module &m, AnalysisManager &am);

/// Names accepted by printAnalysis.
inline constexpr const char *kAnalysisPrinters[] = {"cfg",      "domtree",  "postdomtree", "loops",
                                                    "defs",     "values",   "accesses",    "communication",
                                                    "divergence", "float-range"};
/// One analysis for every function with a body; empty string and false for an unknown name.
bool printAnalysis(const ir::Module &m, AnalysisManager &am, std::string_view name, std::string &out);

}  // namespace ptxopt::analysis
