// Inter-thread communication facts: the statements of a kernel that make
// regrouping its threads (swapping threadIdx/blockIdx roles, merging
// adjacent threads) unsafe. See src/analysis/Communication.cpp.
#pragma once

#include <string>
#include <vector>

#include "ptxopt/ir/IR.h"

namespace ptxopt::analysis {

struct CommFact {
  enum class Kind {
    SharedMemory,       // .shared declarations, variables and accesses
    Barrier,            // bar, barrier, mbarrier
    WarpLevel,          // shfl, vote, match, redux, mma, wgmma, ...
    LaneIdentity,       // %laneid, %warpid, %lanemask_*
    ClusterRegister,    // %clusterid, %cluster_ctarank, mapa, .shared::cluster
    AsyncCopy,          // cp.async*, cp.reduce.async*, st.async, red.async, griddepcontrol
    AtomicOrReduction,  // atom, red, multimem
    Fence,              // membar, fence; ld/st .volatile/.relaxed/.acquire/.release
    UnknownCall,        // call to a declared-only function, indirect call
    IndirectBranch,     // brx.idx
    TextureSurface,     // tex, tld4, txq, suld, sust, sured, suq, istypep
    Timer,              // %clock*, %globaltimer*, nanosleep
  };
  Kind kind;
  const ir::Function *function;  // where the statement is (a callee for facts found through calls)
  const ir::Stmt *stmt;          // the instruction or declaration (never null)
  std::string what;              // "bar.sync", ".shared .align 4 .b8 buf[1024]", "%laneid", ...
  /// An instruction's index in `function`'s CFG (CFG::instructions(), the
  /// same walk order), UINT32_MAX for a declaration or parameter.
  uint32_t instr = UINT32_MAX;
};

/// "shared-memory", "barrier", "warp-level", "lane-identity", "cluster-register",
/// "async-copy", "atomic", "fence", "unknown-call", "indirect-branch",
/// "texture-surface", "timer".
const char *kindName(CommFact::Kind k);

/// Facts for kernel/function `f`, including those inside the functions it
/// calls (transitively, when defined in `m`; each callee is reported once,
/// so recursion is safe). Facts come in statement order; a callee's facts
/// follow the first call to it. A statement has at most one fact per kind.
std::vector<CommFact> findCommunication(const ir::Module &m, const ir::Function &f);

}  // namespace ptxopt::analysis
