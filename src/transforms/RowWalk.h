// The rowwalk pass's parts (RowWalk.cpp: planning and the pass; RowWalkLanes.cpp:
// splitting a loop over 32 lanes, the reductions; RowWalkStaged.cpp: the
// staged clone, RowWalkStagedTiles.cpp its tiles, RowWalkStagedPlan.cpp its
// planning; RowWalkIndex.cpp: its rows through 32-bit indices;
// RowWalkGuards.cpp: loops with guards inside, for the staged clone;
// RowWalkShort.cpp: its rows of 8- and 16-bit elements;
// RowWalkClone.cpp: building the clones; RowWalkPlan.h: the constants and
// the plan's data). Private to the pass: the overview is RowWalk.cpp's
// opening comment.
#pragma once

#include "RowWalkPlan.h"

namespace ptxopt::transforms::rowwalk {

/// The text of an address operand, `[%rd3+4]` -> "%rd3 + 4".
inline std::string addrKey(const Operand &addr) {
  std::string key(addr.text);
  for (const auto &e : addr.elems) {
    key += " " + std::string(e.text);
    for (const auto &x : e.elems) key += " " + std::string(x.text);
  }
  return key;
}

inline bool isPow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }
inline unsigned log2u(uint64_t x) {
  unsigned n = 0;
  while (x > 1) x >>= 1, ++n;
  return n;
}

/// Parameter index of `param(name)` bases, or -1.
inline int paramOfBase(const ir::Function &f, const std::string &base) {
  if (!base.starts_with("param(")) return -1;
  return paramIndex(f, std::string_view(base).substr(6, base.size() - 7));
}

/// The reduction `in` performs on its accumulating operand `acc` (combine
/// opcode, identity, width); false when it is not one (RowWalkLanes.cpp).
bool reductionOf(const Instruction &in, std::string_view acc, Acc &out);

class Planner {
public:
  Planner(PassContext &ctx, ir::Function &k) : ctx_(ctx), k_(k), fa_(ctx.analyses.get(k)), body_(k.body->body) {}

  bool run(KernelPlan &plan, std::string &why, const Stmt *&whyAt);

private:
  const Instruction *instr(size_t i) const {
    return body_[i]->kind == Stmt::Kind::Instruction ? static_cast<const Instruction *>(body_[i].get()) : nullptr;
  }
  bool findLoops(std::string &why);
  bool planMemAccs(const LoopBlock &L, KernelPlan &plan, std::string &why);
  /// Step 2's plan of loop L; `staged`: only what the staged clone needs
  /// (induction variables, trip count; any other loop-carried value, no
  /// stores).
  bool planLanes(const LoopBlock &L, const KernelPlan &plan, LanePlan &lp, std::string &why, bool staged = false);
  /// planLanes's steps (RowWalkLanes.cpp).
  struct BlockDefUse {
    std::map<std::string, std::vector<size_t>> defs, uses;  // in the loop's order
    std::set<std::string> readFirst;                        // read before written in the loop
  };
  bool lanesAccessesOk(const LoopBlock &L, const std::set<size_t> &removed, uint16_t counter, LanePlan &lp,
                       std::string &why, bool staged);
  bool inductionVariable(const LoopBlock &L, const std::string &r, BlockDefUse &du, LanePlan &lp);
  bool chainInductionVariable(const LoopBlock &L, const std::string &r, BlockDefUse &du, LanePlan &lp);
  void rowsCanAlign(const LoopBlock &L, StagedPlan &sp);
  std::string unalignedRefusal(const StagedPlan &sp) const;
  void planStagedLoops(KernelPlan &plan);
  /// planStagedLoops' second try of the staged clone: loops nvcc did not
  /// unroll (stepRefusal, lessThanLatch, planPerLane).
  bool smallSteps_ = false;
  /// runGuarded's small-step try of loops with early exits: rows through a
  /// 32-bit index stepping 4 or 8 bytes too (nvcc keeps `int j` loops with a
  /// `break` rolled).
  bool smallWide_ = false;
  /// A planned loop with early exits (RowWalkGuards.cpp): the per-lane form,
  /// each row's base a pointer parameter (its allocation's end a launch
  /// argument); false with the reason otherwise.
  bool planExits(StagedPlan &sp, std::string &why);
  /// allocParams for a planned loop whose tiles may read elements the loop
  /// does not (early exits, guarded loads; `what` words the refusal): each
  /// row's base one pointer parameter; false with the reason otherwise.
  bool planAllocParams(StagedPlan &sp, const std::string &what, std::string &why);
  /// The loads in loop L (body indexes) whose values reach register `reg`
  /// (a backward slice through its definitions in the loop); SIZE_MAX for a
  /// chain too deep to follow (RowWalkGuards.cpp).
  void loadsFeeding(const LoopBlock &L, std::string_view reg, std::set<std::string> &seen, int depth,
                    std::vector<size_t> &loads) const;
  /// Whether every load of `loads` reads data that differs by lane (the
  /// access analysis calls it coalesced or uncoalesced, not uniform or unknown).
  bool laneOwnData(const std::vector<size_t> &loads) const;
  bool accumulatorChain(const LoopBlock &L, const std::string &r, BlockDefUse &du, Acc &acc,
                        std::set<std::string> &links);
  bool planCarried(const LoopBlock &L, BlockDefUse &du, LanePlan &lp, std::string &why, bool staged);
  bool liveOutsOk(const LoopBlock &L, const KernelPlan &plan, const std::set<size_t> &removed, BlockDefUse &du,
                  const LanePlan &lp, std::string &why, bool staged);
  bool planLatch(const LoopBlock &L, BlockDefUse &du, LanePlan &lp, std::string &why, bool staged);
  void planTripParams(const LoopBlock &L, LanePlan &lp);
  /// The CFG index of the loop body's first instruction (UINT32_MAX: none):
  /// where values at the loop's entry are read.
  uint32_t loopEntry(const LoopBlock &L) const;
  // RowWalkFloors.cpp: floors on a parameter the loop's bound divides.
  /// What evalReg reads at its leaves: a parameter's value, a special
  /// register's; `divides` set where a shr, div or mul.hi was evaluated.
  struct EvalEnv {
    std::function<std::optional<int64_t>(int)> param;
    std::function<std::optional<int64_t>(std::string_view)> special;
    bool divides = false;
  };
  std::optional<int64_t> evalReg(uint32_t at, std::string_view reg, EvalEnv &env, int depth,
                                 const LoopBlock *outside);

  std::map<int64_t, int64_t> divisionFloors(const LoopBlock &L, const LanePlan &lp, uint32_t entry);
  void planVectorLoads(const LoopBlock &L, const std::set<size_t> &removed, LanePlan &lp);
  /// What planStaged's scan of a loop's accesses knows before it starts.
  struct RowAccessScan {
    uint16_t counter;                   // the loop counter's symbol
    bool up, unknown;                   // rows walked up; rows the analysis cannot place (RowWalkTri.cpp)
    const std::set<size_t> &rowStores;  // stores along a row
  };
  /// Each row's accesses by offset (register or key -> offset -> statement).
  struct RowMaps {
    std::map<std::string, std::map<int64_t, size_t>> byRow;                  // loads
    std::map<std::string, std::map<int64_t, size_t>> storedAt;               // stores
    std::map<std::string, std::vector<std::pair<int64_t, size_t>>> again;  // loads of an offset read before
  };
  bool stagedRowAccess(const LoopBlock &L, StagedPlan &sp, size_t i, const RowAccessScan &scan, RowMaps &m,
                       std::string &why);
  bool rowAccessForm(const Instruction &in, bool store, std::string &reg, int64_t &off, bool &vec,
                     std::string &why) const;
  std::optional<StagedPlan::Sibling> siblingRow(const StagedPlan &sp, size_t i, const RowMaps &m, int64_t step,
                                                const StagedPlan::Wide *w, std::string &key, int64_t &off) const;
  bool stagedFormsAllowed(const LoopBlock &L, const StagedPlan &sp, std::string &why) const;
  bool planStaged(const LoopBlock &L, const KernelPlan &plan, StagedPlan &sp, std::string &why);
  /// planStaged's second step: each row's loads cover its piece of an
  /// iteration exactly; the loads, short-element rows and 16-byte runs.
  bool alignGappedPiece(StagedPlan &sp, unsigned r, int64_t mis) const;
  // RowWalkStagedAlign.cpp: rows read with gaps, the rows' alignment.
  std::string gapsRefusal(const std::map<int64_t, size_t> &at, int64_t first, int64_t S, bool stored) const;
  std::string sampledMisalignment(const LoopBlock &L, const StagedPlan &sp, unsigned r);
  bool gappedLoads(const LoopBlock &L, StagedPlan &sp, const std::map<std::string, std::map<int64_t, size_t>> &byRow,
                   const std::set<size_t> &removed, const std::map<int64_t, size_t> &at, int64_t first, unsigned r,
                   bool stored, std::vector<StagedPlan::RowLoad> &into, std::string &why);
  bool rowPieces(const LoopBlock &L, StagedPlan &sp, std::map<std::string, std::map<int64_t, size_t>> &byRow,
                 std::map<std::string, std::map<int64_t, size_t>> &storedAt, const std::set<size_t> &removed,
                 std::string &why);
  /// The loop's stores apart from the rows the tiles read ahead, and a row's
  /// stores (written back a tile late) from everything else the loop reads
  /// or stores: launch conditions in sp.disjoint (RowWalkStagedPlan.cpp).
  bool rowStoresApart(const LoopBlock &L, StagedPlan &sp, std::string &why);
  /// planStaged's last step: the tile size and the tiles in flight (false: they do not fit).
  bool sizeTiles(StagedPlan &sp, std::string &why) const;
  bool singleBlockLoopShape(const analysis::Loop &L, const std::map<std::string_view, size_t> &labelAt,
                           const std::map<std::string_view, size_t> &branchesTo);
  bool constantRowLongEnough(const LoopBlock &L, const StagedPlan &sp, std::string &why);
  /// Sets sp.perLane when L's trip count is not warp-uniform (RowWalkTri.cpp).
  bool planPerLane(const LoopBlock &L, StagedPlan &sp, std::string &why);
  /// A loop with a thread-varying trip count whose rows the access analysis
  /// cannot see: stage its unknown loads through induction variables (RowWalkTri.cpp).
  bool unknownRows(const LoopBlock &L, const LanePlan &lp, const std::set<size_t> &removed);
  /// `reg` is base + mul.wide(x, imm), both computed in loop L (unknownRows' look before the IVs are known).
  bool wideShaped(const LoopBlock &L, const std::string &reg);
  /// A loop whose trip count varies per thread and whose rows start at a
  /// loaded value (scalar CSR: `for (j = rowptr[i]; j < rowptr[i+1]; j++)`):
  /// the lanes clone's rows (RowWalkCsr.cpp).
  bool dataRows(const LoopBlock &L, const std::set<size_t> &removed);
  /// Drops lanes plans of CSR loops unless the option rowwalk-csr is on,
  /// saying why (RowWalkCsr.cpp); true when the kept plans are CSR loops.
  bool keepDataRows(KernelPlan &plan);
  /// The staged clone's `@p bra` latch with p = (iv < bound), in a loop whose
  /// trip count is thread-varying (RowWalkTri.cpp).
  bool lessThanLatch(const LoopBlock &L, const Instruction &setp, bool negated);
  /// An `iv < bound` latch on a 64-bit induction variable (a pointer) whose
  /// bound - start is the same for every lane of a warp (planPerLane: the
  /// uniform form).
  bool lessTripWarpUniform(const LoopBlock &L, const LanePlan &lp);
  /// A loop of several blocks with a thread-varying trip count around
  /// single-block loops (syrk-like): left as it is, only the staged clone
  /// of the inner loops (RowWalkTri.cpp).
  bool skipOuterLoop(const analysis::Loop &L);
  void dropAllButStaged(KernelPlan &plan);
  /// A loop of several blocks that the staged clone may take (guards
  /// inside, no exit but the latch; RowWalkGuards.cpp): fills `lb`.
  bool guardedLoop(const analysis::Loop &L, const std::map<std::string_view, size_t> &labelAt,
                   const std::map<std::string_view, size_t> &branchesTo, LoopBlock &lb, std::string &why);
  /// Planning for kernels with such loops: the staged clone only, which
  /// must take one of them (RowWalkGuards.cpp).
  bool runGuarded(KernelPlan &plan, std::string &why);
  /// runGuarded's second, small-step try takes this loop: early exits, or
  /// a pointer walk nvcc kept rolled (`p < end`, setp.lt.u64).
  bool smallStepRetry(const LoopBlock &L) const;
  /// The guarded parts of planned loop `sp` that the tiles' body copies run
  /// straight (sp.spec; RowWalkSpeculate.cpp); remarks the ones left.
  void planSpeculation(const LoopBlock &L, StagedPlan &sp);
  /// Whether the load at body index `i` of loop L (inside the guarded part
  /// ending at `end`) may run unconditionally under a launch check: a
  /// 4- or 8-byte global load at an induction variable (stepping up) plus a
  /// constant, its base a pointer parameter; adds its range to `ranges`,
  /// and sets `rename` when its register is read outside the part.
  bool speculableLoad(const LoopBlock &L, const LanePlan &lp, std::vector<StagedPlan::Speculated::Range> &ranges,
                      size_t i, size_t end, bool &rename, std::string &why);
  /// In a loop of several blocks: the computation of the row load's address
  /// (body index `load`, address register `reg`) runs in every iteration,
  /// and the load too, or under guards that read no memory loaded in the
  /// loop (`guarded` set: the tiles read elements the loop skips, checked
  /// against the rows' allocation) (RowWalkGuards.cpp).
  bool rowLoadEveryIteration(const LoopBlock &L, size_t load, const std::string &reg, bool &guarded,
                             std::string &why) const;
  /// Whether `reg`'s definitions in L run in every iteration (or, `load` a
  /// guarded load's body index, in its block before it), unpredicated.
  bool unguardedAddress(const LoopBlock &L, std::string_view reg, std::set<std::string> &seen, int depth,
                        size_t load = SIZE_MAX) const;
  /// A row register `reg` defined once in the loop before the load at body
  /// index `load` as `add.s64 reg, iv, c` (iv a 64-bit induction variable
  /// updated after the load): `reg` becomes iv and c is added to `off`.
  void ivPlusConstant(const LoopBlock &L, const LanePlan &lp, size_t load, std::string &reg, int64_t &off) const;
  /// wideAddress's index x (read by body index `m`): a 32-bit induction
  /// variable, or iv [+ imm] [+ invariant] (`(iv + imm) + inv` too), with c
  /// and the invariants' entry values (roots) and the statement that reads
  /// iv (`reader`); nullptr when it is not.
  const IV *wideIndexIv(const LoopBlock &L, const LanePlan &lp, const std::string &x, size_t m, int64_t &c,
                        std::vector<std::string> &roots, size_t &reader);
  /// A load address `reg` of loop L (the load at body index `load`) formed
  /// from a 32-bit index: base + scale * ext(iv + roots + c) (StagedPlan::Wide;
  /// RowWalkStaged.cpp). `key` names the row (base, roots, extension, step).
  bool wideAddress(const LoopBlock &L, const LanePlan &lp, size_t load, const std::string &reg,
                   StagedPlan::Wide &w, int64_t &c, std::string &key);
  /// wideAddress's form for bytes: `td` defines cvt(x) [+/- delta]; sets
  /// w's extension, scale 1 and delta, `m` the cvt's body index.
  bool byteIndex(const LoopBlock &L, size_t td, StagedPlan::Wide &w, size_t &m);
  /// A load address `reg` of loop L (the load at body index `load`) formed
  /// as base + iv, iv a 64-bit induction variable (StagedPlan::Wide::iv64).
  bool offsetAddress(const LoopBlock &L, const LanePlan &lp, size_t load, const std::string &reg,
                     StagedPlan::Wide &w, std::string &key);
  /// The body index of the one definition of `reg` in loop L, SIZE_MAX if
  /// none or several.
  size_t onlyDefInLoop(const LoopBlock &L, std::string_view reg) const;
  /// No instruction of the loop writes `reg` (onlyDefInLoop is SIZE_MAX for two writes too).
  bool invariantIn(const LoopBlock &L, std::string_view reg) const;
  /// The value of 32-bit `reg` at loop L's entry as a sum of registers
  /// (their values at the entry) and a constant, modulo 2^32.
  void entryValue(const LoopBlock &L, const std::string &reg, std::vector<std::string> &roots, int64_t &c, int depth);
  /// The loads `run` (body indexes) can all move up to the earliest: its
  /// block dominates theirs, no store between, their destinations neither
  /// read nor written in between, `base` not redefined.
  bool movableRun(const std::vector<size_t> &run, const std::set<size_t> &removed, std::string_view base) const;
  /// Row `r` of `sp` (its loads by offset, from the row's start): whether
  /// it is a row of 8- or 16-bit elements (sp.shortRow), and its runs of 2
  /// or 4 elements read as one shared load; false (with `why`) for rows
  /// mixing short and other elements (RowWalkShort.cpp).
  bool shortRuns(const std::map<int64_t, size_t> &loads, const std::set<size_t> &removed, StagedPlan &sp,
                 unsigned r, std::string &why) const;
  bool addDisjoint(const ir::Function &f, const AccessInfo &a, const AccessInfo &b, KernelPlan &plan,
                   std::set<std::pair<uint32_t, uint32_t>> *into = nullptr);
  /// Whether `a` and `b` reach different allocations: two module globals,
  /// or two pointer parameters (their pair added to `into`, a launch
  /// condition); false for one parameter or a base it cannot trace.
  bool disjointBases(const ir::Function &f, const AccessInfo &a, const AccessInfo &b,
                     std::set<std::pair<uint32_t, uint32_t>> &into);
  /// The base of access `a`: its affine base, else the pointer parameter
  /// its address register is derived from by additions and moves (a
  /// pointer's provenance: C's arithmetic stays inside the allocation).
  std::string baseOf(const AccessInfo &a);
  /// -1: not a pointer (an integer), -2: unknown, else a parameter index.
  int provenance(uint32_t at, std::string_view reg, int depth);
  std::map<std::pair<uint32_t, std::string>, int> prov_;
  /// The parameters whose values flow into `reg` as read at `at` (through
  /// any arithmetic, not through a value loaded from memory), ignoring
  /// definitions inside loop L.
  void paramsFeeding(uint32_t at, std::string_view reg, const LoopBlock &L, std::set<int> &out,
                     std::set<TripField> &fields, int depth);
  TripField structField(const Instruction &in, std::string_view reg) const;
  // Accesses whose address holds a thread-uniform symbol, taken as unknown
  // (their AccessInfo in asUnknown_ says why, for planStagedLoops' remark).
  std::set<size_t> uniformRows_;

  PassContext &ctx_;
  ir::Function &k_;
  analysis::FunctionAnalyses &fa_;
  std::vector<std::unique_ptr<Stmt>> &body_;
  std::map<uint32_t, size_t> stmtOf_;              // cfg instruction -> body index
  std::map<size_t, uint32_t> instrOf_;             // body index -> cfg instruction
  std::map<size_t, const AccessInfo *> accessAt_;  // body index -> access
  std::deque<AccessInfo> asUnknown_;               // accesses with Uniform symbols, taken as unknown
  RegTypes types_;
  std::vector<LoopBlock> loops_;
  bool outerSkipped_ = false;  // an outer loop of several blocks around the loops (RowWalkTri.cpp)
};

/// Builds a clone of `k` named `name`: step 1 always; the lanes clone when
/// `lanes` (launch route: grid.x*32 when `gridRoute`, else block.x*32); the
/// staged clone when `staged` (RowWalkClone.cpp). `rounds` (with `lanes`):
/// CSR's clone of the original launch, G lanes per row in rounds after a
/// warp's vote on its rows' lengths (RowWalkCsrRounds.cpp); null when the
/// kernel's code before the loop does not allow it.
std::unique_ptr<ir::Function> buildClone(ir::Module &m, const ir::Function &k, const KernelPlan &plan,
                                         const std::string &name, bool lanes, bool gridRoute, bool staged = false,
                                         unsigned G = kLanes, bool rounds = false);
/// Why `k`'s code before its CSR loop cannot be the rounds clone's first
/// piece ("" when it can; RowWalkCsrRounds.cpp).
std::string csrRoundsRefusal(const ir::Function &k, const KernelPlan &plan);
/// Assembles CSR's rounds clone (RowWalkCsrRounds.cpp) around the lanes body
/// already in `clone` (its %tid.x read as `lt`): the original's code with the
/// vote just before the row loop's header, then the rounds. `laneSetup`
/// computes the lane registers from `hw` (%tid.x). False where
/// csrRoundsRefusal gives a reason.
bool assembleCsrRounds(ir::Module &m, ir::Function &clone, Emitter &e, const ir::Function &k,
                       const KernelPlan &plan, unsigned G, const std::string &lt, const std::string &hw,
                       std::vector<std::unique_ptr<Stmt>> laneSetup);

using StmtMap = std::map<size_t, std::vector<std::unique_ptr<Stmt>>>;

/// Emits the trip count of `lp`'s loop (64-bit register) from the values
/// `v0` of its induction variables at entry (RowWalkClone.cpp).
std::string emitTripCount(Emitter &e, const LanePlan &lp, const std::vector<std::string> &v0);

/// The staged clone's edits of `cb` (the clone's body, indexes of the
/// original) for loop `sp`, after step 1's: code before its header and the
/// exit label after its latch (RowWalkStaged.cpp).
/// A pointer parameter whose allocation's end the staged clone of a loop
/// with early exits takes (Variant::allocEnds): the parameter's name and
/// the extra .u64 parameter holding the end.
/// The pointer parameters whose allocation's end the staged clone of
/// `plan` takes, in order (its loops with early exits' rows).
inline std::vector<uint32_t> stagedAllocEnds(const KernelPlan &plan) {
  std::set<uint32_t> ps;
  for (const auto &sp : plan.staged) ps.insert(sp.allocParams.begin(), sp.allocParams.end());
  for (const auto &sp : plan.staged)
    for (const auto &r : sp.spec.ranges) ps.insert(r.param);
  return {ps.begin(), ps.end()};
}
struct AllocEnd {
  std::string param, end;
};
void emitStaged(ir::Module &m, std::vector<std::unique_ptr<Stmt>> &cb, Emitter &e, const StagedPlan &sp,
                const std::string &buffer, StmtMap &before, StmtMap &after, const std::set<size_t> &drop,
                const std::map<uint32_t, AllocEnd> &ends);
/// A 32-bit-index row's start at the loop's entry, and the check that no
/// index of the loop wraps ANDed into `ok` (T: the trip count;
/// RowWalkIndex.cpp).
std::string emitWideStart(Emitter &e, const StagedPlan::Wide &w, int64_t rowOff, const std::string &T,
                          const std::string &ok);
/// The labels of loop L's body in `cb` (between its header and its latch).
std::set<std::string> innerLabels(const std::vector<std::unique_ptr<Stmt>> &cb, const LoopBlock &L);
/// A copy of a statement of a guarded loop's body for copy `suffix` of the
/// body: its labels and the branches to them renamed (RowWalkGuards.cpp).
void renameCopy(ir::Module &m, Stmt &s, const std::set<std::string> &labels, const std::string &suffix);
/// Whether the staged clone of `k` runs its logical block's y index as the
/// hardware block's z (k reads %ctaid.y or %nctaid.y and neither z index):
/// then launches with grid.y > 1 run it too, with grid.z == 1.
bool stagedMapsYToZ(const ir::Function &k);
/// The staged clone's launch: one warp per block; logical indices from the
/// hardware ones, the shared buffer's declaration (RowWalkStaged.cpp).
void finishStaged(ir::Module &m, ir::Function &clone, Emitter &e, const std::string &buffer, unsigned bytes,
                  bool yToZ);
/// The staged clone's manifest variant (launch and conditions): grid
/// (block.x/32, grid.x, grid.z) with grid.y == 1, or with `yToZ`
/// (stagedMapsYToZ) (block.x/32, grid.x, grid.y) with grid.z == 1.
Variant stagedVariant(const Variant &base, const std::string &name, bool yToZ);
/// A row of 8- or 16-bit elements may advance `step` bytes per iteration
/// (nvcc unrolls by 4: 4 bytes of chars, 8 of shorts): 4 to 128, a power of
/// two (RowWalkShort.cpp).
bool shortRowStep(int64_t step);
/// A row of 12- or 24-byte elements (float3, double3, a struct of three
/// floats) four or two of them a nvcc-unrolled iteration: 48 or 96 bytes,
/// staged in 192-byte tiles of 12 pieces (RowWalkStagedPlan.cpp sizeTiles).
bool tripleStep(int64_t step);
/// dst = src * k in 64 bits: a shift where k is a power of two, else a
/// multiply (192-byte tiles, float3 rows' scale 12; RowWalkIndex.cpp).
void emitMulConst64(Emitter &e, const std::string &dst, const std::string &src, uint64_t k);
/// The module's target is sm_80 or later (cp.async).
bool hasCpAsync(const ir::Module &m);

// The staged clone's per-lane trip counts (RowWalkTri.cpp).
/// NT = T >> log2(ipt) into `NT`, ok = NT < 2^32; returns NT as 32 bits.
std::string emitLaneTiles(Emitter &e, const std::string &T, const std::string &NT, unsigned ipt,
                          const std::string &ok);
/// The forms of a 32-bit `iv < bound` latch test the per-lane trip count
/// takes (RowWalkTri.cpp): `setp.lt.s32`, and the staged clone's
/// `setp.lt.u32`, `setp.le.u32`, `setp.le.s32` (LanePlan::lessUnsigned,
/// lessInclusive).
struct LessTest {
  bool less32 = false;     // one of the four
  bool isUnsigned = false;  // .u32
  bool inclusive = false;  // .le
  bool other() const { return isUnsigned || inclusive; }  // not `setp.lt.s32`
};
LessTest lessTest(const Instruction &setp);
/// T of an `iv < bound` (or `iv <= bound`) latch (LanePlan::lessThan).
std::string emitTripCountLess(Emitter &e, const LanePlan &lp, const std::vector<std::string> &v0);
/// The lanes clone's T of an `iv < bound` latch (CSR loops, RowWalkCsr.cpp):
/// emitTripCountLess, and a trap where the original's 32-bit counter would wrap.
std::string emitTripCountCsr(Emitter &e, const LanePlan &lp, const std::vector<std::string> &v0);
/// ok &= the original's 32-bit counter does not wrap in the T iterations of an `iv < bound` latch.
void emitLessNoWrap(Emitter &e, const LanePlan &lp, const std::vector<std::string> &v0, const std::string &T,
                    const std::string &ok);
/// The warp's largest NT (64 bits); branches to `header` when it is 0.
std::string emitWarpMaxTiles(Emitter &e, const std::string &nt32, const std::string &header);
/// For each copy k of the lane, the NT of the row it copies (64 bits).
std::vector<std::string> emitPieceTiles(Emitter &e, const std::string &nt32, const std::string &rsub,
                                        unsigned pieces, unsigned rowsPerCopy);
/// ", N row(s) stored into ..." when a staged loop of `plan` stores along
/// its rows (RowWalkVariants.cpp), else "".
std::string storedRowsRemark(const KernelPlan &plan);
std::string straightRemark(const KernelPlan &plan);
/// ", per-lane trip counts (...)" when a staged loop of `plan` has them, else "".
std::string perLaneRemark(const KernelPlan &plan);
/// issued < NT of each copy's row.
std::vector<std::string> emitPiecePreds(Emitter &e, const std::string &issued, const std::vector<std::string> &ntk);

// The clones as variants, with their conditions and remarks (RowWalkVariants.cpp).
/// The staged clones of a planned kernel: `_staged` (rows that start 16-byte
/// aligned) and `_staged_unaligned`; `conds` says the base variant's conditions.
/// `stem` begins the clones' names: `<k>__ptxopt_`, or `<k>__ptxopt_once_`
/// for the copy of a kernel written as a grid-stride loop over rows.
void addStagedClone(PassContext &ctx, ir::Function *k, const ir::Function &from, const KernelPlan &plan,
                    const Variant &base, const std::string &conds, const std::string &stem, int &at);
/// The lanes clones of a planned kernel (one per lane count, the block
/// route and the scalar-load form for 32 lanes), then CSR's rounds clone.
void addLanesClones(PassContext &ctx, ir::Function *k, const ir::Function &from, const KernelPlan &plan,
                    const Variant &base, const std::string &stem, int &at);
/// "threads along x at least param 3 (each thread's grid-stride loop runs
/// once)": the launch conditions of a clone of a grid-stride kernel's copy
/// (`v.gridStrideOnce`), or "".
std::string gridStrideOnceText(const Variant &v);

}  // namespace ptxopt::transforms::rowwalk
