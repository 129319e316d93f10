// The group pass's shared parts (src/transforms/Group*.cpp; overview in
// Group.cpp): the plan of a grouped clone (which statement plays which role,
// k, the runtime conditions), made by planGroup (GroupPlan.cpp: legality;
// GroupAccesses.cpp: accesses, k, alignment; the Planner in GroupPlanner.h)
// and read by buildGrouped (GroupEmit.cpp: the clone's body) and runGroup
// (Group.cpp: clones and manifest variants). Internal to the pass.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "CloneUtil.h"
#include "Pass.h"

namespace ptxopt::transforms::group {

using analysis::AccessInfo;
using ir::Instruction;
using ir::Operand;
using ir::Stmt;
using namespace clone;

// One statement of the flattened body and its role.
struct Slot {
  // RegionBranch/RegionLabel: `@%p bra L` ... `L:` around an if-then region;
  // RegionJump: the unguarded `bra.uni` of an if/else region (its labels are
  // RegionLabels too). LoopLabel/LoopLatch: `L:` ... `@%p bra L` of a
  // grid-stride loop.
  // Scoped: a nested `{ }` block of plain arithmetic (the inline asm of
  // cuda_fp16.h and cuda_bf16.h), repeated per replica like an instruction.
  enum class Role { Decl, Directive, Instr, Scoped, Guard, Exit, RegionBranch, RegionLabel, RegionJump, LoopLabel, LoopLatch } role;
  size_t stmt;          // index in the body
  unsigned segment = 0; // for Instr, Scoped and Guard
  // Unit-stride access of w bytes, vectorized in the fast path.
  bool vector = false;
  bool load = false;
  unsigned w = 0;
  unsigned misalign = 0;  // replica 0's address mod k*w (loads only: two aligned vectors)
  int region = -1;        // slot of the branch around the if-then or if/else region holding this instruction
  bool regionTaken = false;  // in the arm that runs when that branch is taken (else when it is not)
  bool toExit = false;       // RegionBranch: a late exit (`@%p bra EXIT` / `@%p ret` after a store)
  // A vector load inside a region: the slots of its arm that compute its
  // address (replica 0's), re-run unpredicated into temporaries so that the
  // vector's address is right whichever replicas' arms run.
  std::vector<size_t> addrSlice;
};

struct Plan {
  std::vector<Slot> slots;
  unsigned guards = 0;
  unsigned k = 0;
  unsigned perReplica = 0;  // gathers and scatters left to each replica
  bool refusedForGathers = false;  // planGroup failed on a gather or scatter only because gathers were off
  unsigned regions = 0;     // if-then regions, predicated in the fast path
  unsigned ifElseRegions = 0;  // if/else regions, both arms predicated
  unsigned atomics = 0;        // atomics whose result is unused, per replica
  std::set<std::string> localNames;  // .local variables (depots): one copy per replica
  size_t loopLabel = 0, loopLatch = 0;  // slots of a grid-stride loop (loopLatch 0: none)
  bool longBody = false;    // 16-byte vectors would exceed kMaxFastPath (k halved)
  // Border groups predicated (set by the caller where partialWhy allows it):
  // no slow path; after the one bounds guard the group returns when every
  // replica fails it, else each vector load runs when a replica whose bytes
  // it holds passes, other memory accesses per replica when it passes, and
  // the vector store when all pass (one byte store per passing replica when
  // some fail). See buildGrouped.
  bool partial = false;
  std::vector<Variant::AlignedParam> aligned;
  RegTypes regs;     // declared register types
  std::string why;   // refusal
  const Stmt *whyAt = nullptr;
};

bool isSpecial(std::string_view r);
/// Name of register `r` in replica m (m = 0 keeps the name).
std::string replicaName(const Plan &p, std::string_view r, unsigned m);

/// Instructions per hardware thread in the fast path (the body times k)
/// above which k is halved (see planGroup).
constexpr unsigned kMaxFastPath = 1024;
/// Threads a group clone's block must keep (the manifest's minBlockThreads).
constexpr uint32_t kMinBlockThreads = 64;
/// Where a block-merged clone comes next, the plain clone takes only
/// original blocks of this many threads or more (its block: this / k): on an
/// H100 (scripts/bench/launch-floor.sh) the 32-bit guarded kernel (k = 4)
/// in 256-thread blocks ran 0.97-1.02x from 2^19 to 2^21 threads as the
/// plain clone (blocks of 64) and 1.05-1.23x as the merged one; in
/// 1024-thread blocks the plain clones of the 8-, 16- and 32-bit kernels ran
/// 1.03-1.09x at 2^19, the merged ones 0.97-1.01x.
constexpr uint32_t kPlainMinOriginalBlock = 512;
/// Threads a launch must have for a group clone (the manifest's
/// minLaunchThreads): with k times fewer threads, each doing k times the
/// work, a launch too small to fill the GPU is latency-bound and runs slower
/// than the original. Measured on an H100 (scripts/bench/launch-floor.sh,
/// docs/BENCHMARKS.md "Launch floor of the group clones"): the smallest
/// power of two from which on every run measured 1.03x or more. Light bodies
/// (8-bit k = 16, 16-bit k = 8, 32-bit k = 4): plain clone 0.94-1.06x below
/// 2^18 threads, 0.98-1.03x at 2^18, 1.03-1.09x at 2^19; merged clone
/// 0.91-1.06x below 2^18, 0.99-1.07x at 2^18, 1.06-1.17x at 2^19. Bodies
/// with misaligned loads or long ones (the Sobel filter, k = 8): plain
/// 0.84-0.99x up to 2^20, 1.01-1.13x between 2^20 and 2^21, 1.09-1.17x at
/// 2.1-2.5M; merged 0.77-1.01x up to 2.1M, 1.09-1.14x at 2^22.
/// Light bodies ask for 2^21 since 2026-11-28: those numbers are for inputs
/// larger than L2, and real programs step over L2-resident arrays: in the
/// whole-program suite (bench/programs, H200) Jacobi 1-D's copy kernel ran
/// its merged clone at 2^20 threads (4 MB) 0.86-0.87x of nvcc's program, and
/// issue #27 saw group-merged float and 8-bit elementwise clones at about 1M
/// elements run 0.87-0.92x; at 2^21 and more (8 MB and up) the family's
/// stencils ran them 1.2-1.7x.
constexpr uint32_t kGroupMinThreads = 1u << 21;
constexpr uint32_t kGroupHeavyMinThreads = 1u << 21;
constexpr uint32_t kMergedMinThreads = 1u << 21;
constexpr uint32_t kMergedHeavyMinThreads = 1u << 22;
/// Bodies with more than kManyMisaligned misaligned loads (each two aligned
/// vector loads): the 27-point 3-D stencil (18 misaligned) ran 0.67x at
/// 160^3 (4.1M threads, its 16 MB inside the H100's L2) and 1.26-1.27x at
/// 512^3 (134M threads); the 7-point one (2 misaligned) 1.23x at 160^3, the
/// Sobel filter (6) from 2^21 (docs/results/2026-11-25/family-h100-2026-11-25-suite1.md).
/// Such clones asked for 2^24 threads until a held-out 27-point 3-D
/// convolution (bench/programs/heldout4/h4_conv3d.cu, 256^3: 2^24 threads,
/// 18 misaligned) ran its merged clone at 0.89x of nvcc's program (H200,
/// 2026-11-29, docs/BENCHMARKS.md "Held-out programs, fourth batch"); now
/// 2^27, the size measured faster (512^3).
constexpr unsigned kManyMisaligned = 8;
constexpr uint32_t kManyMisalignedMinThreads = 1u << 27;

/// A grid-stride loop is grouped only when its body has a unit-stride access
/// for every kGridStrideInstrsPerAccess instructions or fewer (see planGroup:
/// measured faster at one per 3.7 and 4.5; the family's hash loops, one per
/// 24, got clones 30 times their size that never ran).
constexpr unsigned kGridStrideInstrsPerAccess = 8;

/// Analyses kernel `f` (the source of the clone); fills `p` or sets p.why.
bool planGroup(PassContext &ctx, ir::Function &f, Plan &p, unsigned forcedK, bool gathers);
/// Builds the grouped body of `clone` (a copy of the planned function).
void buildGrouped(ir::Module &m, ir::Function &clone, const Plan &p);
/// Why plan `p` of kernel `f` cannot have its border groups predicated
/// (Plan::partial); empty when it can: one bounds guard, and after it
/// straight-line code whose memory accesses are vector accesses or
/// unpredicated loads and stores (no regions, loops, local arrays, atomics,
/// gathers, textures, barriers or other instructions with effects).
std::string partialWhy(const ir::Function &f, const Plan &p);

}  // namespace ptxopt::transforms::group
