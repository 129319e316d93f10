// Pass pipeline: runs optimization passes over a module, each on clones of
// the kernels it improves, verifies every clone, and produces the manifest.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ptxopt/Manifest.h"
#include "ptxopt/ir/IR.h"
#include "ptxopt/transforms/PassOptions.h"

namespace ptxopt {

struct Remark {
  enum class Kind { Applied, Missed, Note };
  Kind kind = Kind::Note;
  std::string pass;      // "coalesce"
  std::string function;  // kernel name
  std::string location;  // "matadd.cu:13:3" or "file.ptx:40:2", may be empty
  std::string message;
};

struct PipelineOptions {
  /// Comma-separated pass names, or "-O0" / "-O1" / "-O2".
  std::string passes = "-O2";
  /// Pass names to skip even when the pipeline lists them.
  std::vector<std::string> skip;
  /// The passes' options, typed; set by name with setPassOption (docs/PASSES.md).
  PassOptions options = defaultPassOptions();
  /// Called after each pass with its name and the module (--print-after-all).
  void (*afterPass)(const std::string &pass, const ir::Module &m, void *ctx) = nullptr;
  void *afterPassCtx = nullptr;
};

struct OptimizeResult {
  bool ok = true;
  std::string error;  // when !ok (unknown pass name, ...)
  std::vector<Remark> remarks;
  Manifest manifest;
  std::map<std::string, double> stats;      // counters per "pass.name"
  std::map<std::string, double> passTimes;  // milliseconds per pass
};

/// Names, one-line descriptions and options of the registered passes.
struct PassInfo {
  std::string name, description;
  std::vector<OptionInfo> options;
};
const std::vector<PassInfo> &registeredPasses();

/// Reads "PIPELINE[;option[=value]...]" (libptxopt's ptxopt_options::passes,
/// `ptx-opt --check-options`): the pipeline into `po.passes` (when not
/// empty), each option by setPassOption. False with `error` for an unknown
/// option or an ill-typed value; the pass names are checked when it runs.
/// `prefix` goes before the option names in `error` (ptx-nvcc's "--ptxopt-").
bool parsePipelineSpec(const std::string &spec, PipelineOptions &po, std::string &error,
                       const std::string &prefix = "");

/// Runs the pipeline on `m` (clones are added to it) and embeds the manifest.
OptimizeResult optimizeModule(ir::Module &m, const PipelineOptions &opts);

/// PTX text in, optimized PTX text out (lossless for untouched parts).
/// On a parse error returns false with `error` = the formatted diagnostic.
bool optimizePtx(const std::string &ptx, const std::string &name, const PipelineOptions &opts, std::string &out,
                 OptimizeResult &result);

}  // namespace ptxopt
