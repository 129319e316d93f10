// Kernels written as grid-stride loops, read as the kernel of one element
// per thread they are where the launch runs each thread's loop at most once
// (GridStride.cpp). Shared by transpose (kernels whose every loop is a
// grid-stride loop) and rowwalk (row walks inside a grid-stride loop over
// rows: the loops inside stay).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "Pass.h"

namespace ptxopt::transforms::clone {

/// A grid-stride kernel as the kernel of one element per thread it is
/// where each thread's loop runs at most once (not emitted), and the
/// launch conditions saying so, one per loop.
struct GridStride {
  std::unique_ptr<ir::Function> kernel;
  std::vector<Variant::GridStrideOnce> conds;
  // Its iterations are independent (no value carried from one to the next,
  // and only the latch leaves the loop: unloopGridStride's loops without a
  // break or return in the body; a traced counted loop may carry one), so a
  // thread may run any of them (transpose's runFlat loop clone).
  bool independent = false;
};

/// Which loops must be grid-stride loops: every loop (transpose: a kernel
/// with any other loop is not taken), or the outermost ones, loops nested
/// in them kept as they are (rowwalk: a row walk inside the loop over rows).
enum class GridStrideLoops { All, Outer };

/// `k` without its grid-stride loops, or nullopt: with `why` empty when
/// `k` has no loop or reads no %nctaid (not a grid-stride kernel), else why
/// its loops are not grid-stride loops the pass takes.
std::optional<GridStride> unloopGridStride(ir::Module &m, const ir::Function &k, analysis::FunctionAnalyses &fa,
                                           std::string &why, GridStrideLoops which = GridStrideLoops::All);

/// A copy of `k` named `name` (labels renamed with `labelSuffix`) whose
/// nested `{ }` scopes (declaration-free: the inline asm of cuda_fp16.h,
/// which the passes accept) are flattened into the body, so that its n-th
/// top-level instruction is the n-th of the CFG.
std::unique_ptr<ir::Function> cloneBody(const ir::Function &k, const std::string &name,
                                        const std::string &labelSuffix, ir::Module &m);
/// Index in `b.body` of the n-th instruction (no nested scopes).
size_t stmtOfInstr(const ir::Block &b, uint32_t n);
/// (dst, src) of an unguarded `mov dst, src` of registers (src a special
/// register such as %tid.x where the callers look for one), or nullopt.
std::optional<std::pair<std::string_view, std::string_view>> specialMov(const ir::Instruction &in);

}  // namespace ptxopt::transforms::clone
