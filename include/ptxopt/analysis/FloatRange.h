// Intervals of floating-point values, enough to decide a comparison that
// nvcc's inlined sinf/cosf branch on (|x| < 105615: the fast path). See
// src/analysis/FloatRange.cpp.
#pragma once

#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ptxopt/analysis/AnalysisManager.h"
#include "ptxopt/analysis/Semantics.h"

namespace ptxopt::analysis {

/// A closed interval of finite values (never NaN, never infinite).
struct Interval {
  double lo = 0, hi = 0;
};

class FloatRanges {
public:
  explicit FloatRanges(FunctionAnalyses &fa);
  /// The value predicate register `p` holds at every read that follows its
  /// definition, when its only definition is a floating-point `setp` whose
  /// operands' intervals decide it; nullopt otherwise.
  std::optional<bool> predicate(std::string_view p);
  /// The interval of floating-point register `r` (its only definition's
  /// value), or nullopt.
  std::optional<Interval> value(std::string_view r) { return reg(r, 0); }

private:
  std::optional<Interval> reg(std::string_view r, unsigned depth);
  std::optional<Interval> floatOperand(const ir::Operand &o, unsigned depth);
  std::optional<Interval> intOperand(uint32_t at, const ir::Operand &o, unsigned bits);
  /// The only unguarded definition of r, or UINT32_MAX.
  uint32_t onlyDef(std::string_view r) const;

  FunctionAnalyses &fa_;
  std::unordered_map<std::string_view, std::vector<uint32_t>, NameHash> defs_;
  std::unordered_map<std::string_view, std::optional<Interval>, NameHash> memo_;
};

}  // namespace ptxopt::analysis
