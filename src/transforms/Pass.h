// What a pass sees: the module, the analyses, and where to put remarks,
// statistics and manifest entries, and its typed options. Every pass is a
// run function and an entry in the registry (Registry.cpp), with its options.
// Its code is in this folder: one file (coalesce, prune, transpose), or
// several that share a header private to the pass (group: Group*.cpp,
// GroupPlan.h and GroupPlanner.h; pack: Pack*.cpp and PackLoops.h; rowwalk:
// RowWalk*.cpp and RowWalk.h; reuse: Reuse*.cpp and Reuse.h). The larger ones
// plan and build in classes with one method per step of the pass's opening
// comment. The helpers every clone needs are in CloneUtil.h (declarations)
// and CloneUtil.cpp.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ptxopt/analysis/AnalysisManager.h"
#include "ptxopt/transforms/PassManager.h"

namespace ptxopt::transforms {

struct PassContext {
  ir::Module &module;
  analysis::AnalysisManager &analyses;
  std::vector<Remark> &remarks;
  Manifest &manifest;
  std::map<std::string, double> &stats;
  std::string pass;
  const PassOptions &options;  // the passes' typed options (PassOptions.h; PipelineOptions::options)

  void remark(Remark::Kind kind, const ir::Function &f, std::string location, std::string message) {
    remarks.push_back({kind, pass, std::string(f.name), std::move(location), std::move(message)});
  }
  void count(const std::string &what, double n = 1) { stats[pass + "." + what] += n; }
  /// The manifest entry of kernel `k`, created on first use.
  KernelManifest &entry(const ir::Function &k);
  /// Verifies `clone`; if it passes, inserts it after the item at `at`
  /// (advancing `at`), adds `v` to the manifest entry of `original` (at the
  /// end, or before variant `before`: a clone made from another clone is
  /// preferred over it) and counts it; otherwise drops it with a remark.
  /// A clone whose name the module already has is the same code made for
  /// another variant (the split clone for large grids and the one for the
  /// rest): when its text matches, only the variant is added and both refer
  /// to one function (ptxas compiles it once); a different text under that
  /// name is dropped with a remark. True when kept.
  bool addClone(const ir::Function &original, std::unique_ptr<ir::Function> clone, Variant v, int &at,
                std::optional<size_t> before = std::nullopt);

  /// What kernel `f` is to the manifest: an original (`isClone` false,
  /// identity variant, `variantCount` clones so far) or a clone an earlier
  /// pass made (its variant and position in its original's entry; `indices`
  /// lists every variant that launches it, ascending, `variant`/`index` the
  /// first). nullopt for a clone the manifest does not know.
  struct Base {
    ir::Function *original = nullptr;
    bool isClone = false;
    Variant variant;
    size_t index = 0;
    std::vector<size_t> indices;
    size_t variantCount = 0;
  };
  std::optional<Base> baseOf(const ir::Function &f);
};

/// "matadd.cu:13:3" from the .loc before `stmt`, else "file.ptx:LINE:COL", else "".
std::string locationOf(const ir::Module &m, analysis::FunctionAnalyses &fa, const ir::Stmt *stmt);

// The passes (each one's overview is the opening comment of its main file).
void runCoalesce(PassContext &ctx);
void runGroup(PassContext &ctx);
void runPack(PassContext &ctx);
void runRowWalk(PassContext &ctx);
void runReuse(PassContext &ctx);
void runTranspose(PassContext &ctx);
/// After the passes: drops the variants no launch can select (Prune.cpp).
void pruneClones(PassContext &ctx);

}  // namespace ptxopt::transforms
