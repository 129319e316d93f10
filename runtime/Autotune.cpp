// Autotuning bookkeeping for one launch shape (include/ptxopt/runtime/Autotune.h).
#include "ptxopt/runtime/Autotune.h"

#include <algorithm>
#include <cstdio>

namespace ptxopt::rt {

Autotuner::Step Autotuner::next() {
  std::lock_guard lock(mu_);
  if (decision_ != Decision::Undecided) return {decision_ == Decision::Clone, false};
  if (issued_ >= 2 * samples_) return {true, false};  // all slots out, results pending
  uint32_t slot = issued_++;
  return {slot % 2 == 1, true};
}

bool Autotuner::record(bool clone, float ms) {
  std::lock_guard lock(mu_);
  if (decision_ != Decision::Undecided) return false;
  (clone ? clone_ : original_).push_back(ms);
  if (original_.size() < samples_ || clone_.size() < samples_) return false;
  decision_ = median(clone_) < median(original_) ? Decision::Clone : Decision::Original;
  return true;
}

void Autotuner::abandon() {
  std::lock_guard lock(mu_);
  if (decision_ == Decision::Undecided) decision_ = Decision::Clone;
}

Autotuner::Decision Autotuner::decision() const {
  std::lock_guard lock(mu_);
  return decision_;
}

std::string Autotuner::summary() const {
  std::lock_guard lock(mu_);
  char buf[160];
  std::snprintf(buf, sizeof buf, "clone %.4f ms vs original %.4f ms (median of %zu and %zu launches)",
                median(clone_), median(original_), clone_.size(), original_.size());
  return buf;
}

float Autotuner::median(std::vector<float> v) {
  if (v.empty()) return 0.0f;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0f;
}

}  // namespace ptxopt::rt
