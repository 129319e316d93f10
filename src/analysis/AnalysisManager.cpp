// Lazy construction of the per-function analyses (see AnalysisManager.h).
#include "ptxopt/analysis/AnalysisManager.h"

namespace ptxopt::analysis {

const CFG &FunctionAnalyses::cfg() {
  if (!cfg_) cfg_ = std::make_unique<CFG>(f_);
  return *cfg_;
}
const DominatorTree &FunctionAnalyses::dom() {
  if (!dom_) dom_ = std::make_unique<DominatorTree>(cfg(), false);
  return *dom_;
}
const DominatorTree &FunctionAnalyses::postDom() {
  if (!pdom_) pdom_ = std::make_unique<DominatorTree>(cfg(), true);
  return *pdom_;
}
const LoopInfo &FunctionAnalyses::loops() {
  if (!loops_) loops_ = std::make_unique<LoopInfo>(cfg(), dom());
  return *loops_;
}
const ReachingDefs &FunctionAnalyses::defs() {
  if (!defs_) defs_ = std::make_unique<ReachingDefs>(cfg(), dom());
  return *defs_;
}
AffineAnalysis &FunctionAnalyses::affine() {
  if (!affine_) affine_ = std::make_unique<AffineAnalysis>(m_, cfg(), dom(), loops(), defs());
  return *affine_;
}
const std::vector<AccessInfo> &FunctionAnalyses::accesses() {
  if (!accesses_) accesses_ = std::make_unique<std::vector<AccessInfo>>(analyzeAccesses(m_, cfg(), affine()));
  return *accesses_;
}
const std::vector<CommFact> &FunctionAnalyses::communication() {
  if (!comm_) comm_ = std::make_unique<std::vector<CommFact>>(findCommunication(m_, f_));
  return *comm_;
}
const std::vector<DivergentBranch> &FunctionAnalyses::divergence() {
  if (!divergence_) divergence_ = std::make_unique<std::vector<DivergentBranch>>(findDivergentBranches(cfg(), defs()));
  return *divergence_;
}

FunctionAnalyses &AnalysisManager::get(const ir::Function &f) {
  auto &p = cache_[&f];
  if (!p) p = std::make_unique<FunctionAnalyses>(m_, f);
  return *p;
}

}  // namespace ptxopt::analysis
