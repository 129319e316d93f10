// Intervals of floating-point values, enough to decide a comparison that
// nvcc's inlined sinf/cosf branch on (|x| < 105615: the fast path). See
// src/analysis/FloatRange.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "ptxopt/analysis/AnalysisManager.h"

namespace ptxopt::analysis {

/// A closed interval of finite values (never NaN, never infinite).
struct Interval {
  double lo = 0, hi = 0;
};

class FloatRanges {
public:
  explicit FloatRanges(FunctionAnalyses &fa) : fa_(fa) {}
  /// The value predicate register `p` holds where instruction `at` reads
  /// it, when the one definition that reaches there is a floating-point
  /// `setp` whose operands' intervals decide it; nullopt otherwise.
  std::optional<bool> predicate(uint32_t at, std::string_view p);
  /// `--print-analysis=float-range`: for each reachable instruction with a
  /// floating-point result (not setp), "N: %f = [lo, hi]" or "N: %f =
  /// unknown"; for each guarded one whose predicate the intervals decide,
  /// "N: @%p = true" (or false).
  std::string print();

private:
  /// The interval of what instruction `d` writes to float register `r`.
  std::optional<Interval> def(uint32_t d, std::string_view r, unsigned depth);
  std::optional<Interval> floatOperand(uint32_t at, const ir::Operand &o, unsigned depth);
  std::optional<Interval> intOperand(uint32_t at, const ir::Operand &o, unsigned bits);
  /// The only definition of r that reaches instruction `at`, when it is an
  /// unguarded instruction (not the entry value); else UINT32_MAX.
  uint32_t reaching(uint32_t at, std::string_view r) const;

  FunctionAnalyses &fa_;
  std::unordered_map<uint32_t, std::optional<Interval>> memo_;  // per definition
};

}  // namespace ptxopt::analysis
