// The pack pass's shared parts (src/transforms/Pack*.cpp; overview in
// Pack.cpp): addresses as base register and offset, vector loads, and the
// loops unrolled for grouping (planned and rewritten in PackLoops.cpp, used
// by runPack in Pack.cpp). Internal to the pass.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "CloneUtil.h"
#include "Pass.h"

namespace ptxopt::transforms::pack {

using analysis::AccessInfo;
using ir::Instruction;
using ir::Operand;
using ir::Stmt;
using namespace clone;

/// Whether `poly` (an address) holds a %tid term: threads of a block read
/// different words. Without one every thread of the block reads the same
/// word in the same iteration (a broadcast per warp).
bool threadVarying(const analysis::Poly &poly, const analysis::AffineAnalysis &aff);

/// A load runPack's runs may merge, from its text: an unguarded plain scalar
/// load of .global or generic memory of w = 1, 2 or 4 bytes into a register
/// wide enough, at [reg] or [reg+imm] with reg not its own destination.
/// Fills w, reg and off.
bool runCandidate(const Instruction &in, const RegTypes &types, unsigned &w, std::string &reg, int64_t &off);
/// A load planLoops may take from a loop's header, from its text: an
/// unguarded plain scalar .global load of w = 1 or 2 bytes into a 16-, 32-
/// or 64-bit register. Fills w.
bool loopCandidate(const Instruction &in, const RegTypes &types, unsigned &w);

/// A loop whose body reads short words at unit stride along its counter:
/// unrolled by kUnroll in the clone so that the kUnroll reads of one pass
/// become one vector load (see the overview).
constexpr unsigned kUnroll = 4;

struct LoopLoad {
  size_t stmt;  // index in the body
  unsigned w;
};

struct LoopPlan {
  size_t hs = 0, ls = 0;  // header label and latch branch (body indexes)
  size_t addAt = 0, setpAt = 0;  // the latch's update and test (.loc lines may lie between)
  std::string header;     // the header's label
  std::string iv, bound;  // induction register and loop-invariant bound (register or immediate)
  int64_t step = 0;
  bool isUnsigned = false;
  std::string cmp;         // the test: .lt, .le, .ne (step > 0), .gt, .ge, .ne (step < 0)
  int tested = 1;          // the test reads iv after the update (1) or before it (0)
  size_t tempAddAt = 0;    // tested == 0: the `add t, iv, s` (body index)
  bool nounroll = false;   // `.pragma "nounroll"`: unrolled on the clone anyway (see the overview)
  std::vector<LoopLoad> loads;
  std::vector<Variant::AlignedParam> conditions;
  std::string where;
};

/// Emits `nwords` 32-bit words loaded as one vector by `like`'s opcode and
/// address (its type replaced by .b32: `ld.global.nc.u8` -> `ld.global.nc.v2.b32`).
std::vector<std::string> emitVectorLoad(ir::Module &m, Emitter &e, const Instruction &like, unsigned nwords);

/// Loops of `k` that can be unrolled for `pack` (the checks of the
/// overview), with the loads that merge. `busy`: statements already in a
/// straight-line run. Remarks say why a loop with such loads is not unrolled.
std::vector<LoopPlan> planLoops(PassContext &ctx, ir::Function &k, analysis::FunctionAnalyses &fa, const RegTypes &types,
                                const std::set<size_t> &busy);

/// The loop of `p` (body indexes shifted by `at`: new index of each old
/// one) unrolled in `cb`:
///   header:  if fewer than U iterations remain (64-bit, so no wrap-around)
///            go to single;
///            U copies of the body (labels renamed), the first U-1 without
///            the latch test (they are known to run), the first copy's
///            load of each merged group the vector load, every copy's the
///            unpacking of its element; the last copy's latch goes back to
///            the header;  bra exit
///   single:  the original body (one iteration; its latch goes back too)
///   exit:
void unrollLoop(ir::Module &m, std::vector<std::unique_ptr<Stmt>> &cb, const LoopPlan &p,
                const std::map<size_t, size_t> &at, const RegTypes &types, Emitter &e);

}  // namespace ptxopt::transforms::pack
