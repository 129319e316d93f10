// Lazily built, cached analyses per function. A pass that changes a
// function calls invalidate() for it; everything is rebuilt on next use.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "ptxopt/analysis/Access.h"
#include "ptxopt/analysis/Affine.h"
#include "ptxopt/analysis/CFG.h"
#include "ptxopt/analysis/Communication.h"
#include "ptxopt/analysis/ReachingDefs.h"

namespace ptxopt::analysis {

class FunctionAnalyses {
public:
  FunctionAnalyses(const ir::Module &m, const ir::Function &f) : m_(m), f_(f) {}
  const ir::Function &function() const { return f_; }
  const CFG &cfg();
  const DominatorTree &dom();
  const DominatorTree &postDom();
  const LoopInfo &loops();
  const ReachingDefs &defs();
  AffineAnalysis &affine();
  const std::vector<AccessInfo> &accesses();
  const std::vector<CommFact> &communication();
  const std::vector<DivergentBranch> &divergence();

private:
  const ir::Module &m_;
  const ir::Function &f_;
  std::unique_ptr<CFG> cfg_;
  std::unique_ptr<DominatorTree> dom_, pdom_;
  std::unique_ptr<LoopInfo> loops_;
  std::unique_ptr<ReachingDefs> defs_;
  std::unique_ptr<AffineAnalysis> affine_;
  std::unique_ptr<std::vector<AccessInfo>> accesses_;
  std::unique_ptr<std::vector<CommFact>> comm_;
  std::unique_ptr<std::vector<DivergentBranch>> divergence_;
};

class AnalysisManager {
public:
  explicit AnalysisManager(const ir::Module &m) : m_(m) {}
  FunctionAnalyses &get(const ir::Function &f);
  void invalidate(const ir::Function &f) { cache_.erase(&f); }
  void invalidateAll() { cache_.clear(); }

private:
  const ir::Module &m_;
  std::unordered_map<const ir::Function *, std::unique_ptr<FunctionAnalyses>> cache_;
};

}  // namespace ptxopt::analysis
