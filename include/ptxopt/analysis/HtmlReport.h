// The `--analyze=html` report: one self-contained HTML page (inline CSS, no
// script to run, no external resource) modelled on LLVM's opt-viewer. Per
// kernel: the coverage counts, a table of the global accesses, and the source
// lines (from .file/.loc when the source file can be read, else the PTX
// lines) with every access and every pass remark beside the line it
// concerns. docs/ANALYSIS.md, "The HTML report".
#pragma once

#include <string>
#include <vector>

#include "ptxopt/analysis/AnalysisManager.h"

namespace ptxopt::analysis {

/// A pass remark as the report shows it (the pipeline's Remark, without a
/// dependency of the analyses on the transforms).
struct ReportRemark {
  std::string kind;      // "applied", "missed", "note"
  std::string pass;      // "coalesce"
  std::string function;  // the kernel (or a clone of it: "k__ptxopt_swap")
  std::string location;  // "matadd.cu:13:3", "file.ptx:40:2" or ""
  std::string message;
};

struct HtmlReportOptions {
  /// The remarks of `pipeline` run on the same input.
  std::vector<ReportRemark> remarks;
  std::string pipeline;  // "-O2", "coalesce,group"; "" when no pass ran
  /// Optional: the translation unit the PTX came from (ptx-nvcc), shown and
  /// recorded in the coverage data block.
  std::string source;
};

/// The page for every kernel of `m`. Deterministic: the same input gives the
/// same bytes. Carries the coverage counts as JSON in
/// `<script type="application/json" id="ptx-opt-coverage">` (read by
/// ptx-nvcc's index page).
std::string reportHtml(const ir::Module &m, AnalysisManager &am, const HtmlReportOptions &opts);

/// Text for HTML element content and attribute values: & < > " ' escaped,
/// invalid UTF-8 and control characters (except tab and newline) replaced
/// by U+FFFD.
std::string htmlEscape(std::string_view s);

}  // namespace ptxopt::analysis
