// Per-access facts: for every ld/st/atom/red/prefetch, its address as a
// polynomial, the byte stride along each thread/block index and loop
// counter, the number of 32-byte sectors one warp request touches, a
// verdict (coalesced or not, and which index would make it unit-stride),
// alignment facts and the source location.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ptxopt/analysis/Affine.h"
#include "ptxopt/analysis/Semantics.h"

namespace ptxopt::analysis {

struct SourceLoc {
  std::string_view file;  // base name from .file (in the module's text), or "" when the PTX has no .loc
  uint32_t line = 0, col = 0;
  std::string str() const;
};

struct Stride {
  uint16_t symbol;
  std::string var;                // "%tid.x", "k0" (loop counter)
  std::string bytes;              // coefficient in bytes, as text ("4", "4*%nctaid.x")
  std::optional<int64_t> constant;
};

struct AccessInfo {
  uint32_t instr = 0;
  MemAccess mem;
  SourceLoc loc;
  Value address;
  std::string base;            // "param(in1)", "&table", or "" when none
  std::vector<Stride> strides;  // along each index symbol present, in symbol order
  // Sectors per warp request along %tid.x (32 lanes), when computable.
  std::optional<unsigned> sectors;
  unsigned idealSectors = 0;
  enum class Verdict { Coalesced, Uncoalesced, Uniform, Unknown } verdict = Verdict::Unknown;
  std::string reason;        // "stride 4*%nctaid.x bytes on %tid.x"
  UnknownCause cause = UnknownCause::Other;  // class of `reason` when the verdict is Unknown
  std::string unitStrideOn;  // the index along which the stride equals the width
  std::vector<std::string> notes;  // assumptions (wrap, blockDim.x >= 32, base alignment)
  // Alignment: of the base (parameter pointers are unknown at compile time;
  // the runtime can check them) and of the offset (gcd of its coefficients).
  std::string baseAlign;
  int64_t offsetAlign = 0;  // 0: unknown
  // Unrolled loops: when the innermost loop around the access holds U
  // accesses like it at base + j*s (j = 0..U-1) and its counter moves them
  // by U*s, the loop was unrolled U times (by nvcc) and s is the stride per
  // element of the source loop. unroll = 0 when not recognised.
  unsigned unroll = 0;
  std::optional<Stride> elementStride;  // s, along the loop's counter
};

/// Facts for every memory access of the function, in program order.
std::vector<AccessInfo> analyzeAccesses(const ir::Module &m, const CFG &cfg, AffineAnalysis &aff);

const char *verdictName(AccessInfo::Verdict v);
/// Distinct 32-byte sectors touched by 32 lanes accessing `width` bytes each
/// at `stride`-byte steps, the lowest address 32-byte aligned (lane 0's for a
/// positive stride, lane 31's for a negative one).
unsigned warpSectors(int64_t stride, unsigned width);
/// A number token of a `.loc` or `.file` directive; 0 when it is not a
/// number from 0 to 2^32-1.
uint32_t directiveNumber(std::string_view t);
/// Source location of instruction `i` from the last `.loc` before it (the
/// file by the base name of its `.file` path, Module::files()).
SourceLoc sourceLocation(const ir::Module &m, const CFG &cfg, uint32_t i);

/// Branches whose condition depends on the thread (thread index, lane id,
/// or something the analysis cannot see through, reported as "may").
struct DivergentBranch {
  uint32_t instr;
  bool certain;  // true: depends on %tid/%laneid; false: unknown value
  std::string why;
};
std::vector<DivergentBranch> findDivergentBranches(const CFG &cfg, const ReachingDefs &rd);

}  // namespace ptxopt::analysis
