// rowwalk's clones as variants: the staged clones (`_staged`, then
// `_unaligned` for launches whose rows do not start 16-byte aligned) and the
// lanes clones, each with its launch conditions and its remark. What the
// clones are: RowWalk.cpp (overview), RowWalkStaged.cpp, RowWalkLanes.cpp.
#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

namespace {
/// The lanes clones to build: (lanes per logical thread, rows of at least
/// this many elements), larger G first, so that a launch takes the first
/// whose rows are long enough. The option rowwalk-lanes lists the lane
/// counts (4, 8, 16, 32; its default is the registry's, Registry.cpp); the
/// row minimum of each comes from kLaneMinRow (measured, docs/BENCHMARKS.md).
std::vector<std::pair<unsigned, int64_t>> laneCounts(const PassContext &ctx) {
  const std::set<unsigned, std::greater<>> gs(ctx.options.rowwalk.lanes.begin(), ctx.options.rowwalk.lanes.end());
  std::vector<std::pair<unsigned, int64_t>> out;
  for (unsigned g : gs)
    for (const auto &[lg, rows] : kLaneMinRow)
      if (lg == g) out.push_back({g, rows});
  return out;
}

/// The 32- and 64-bit integer parameters the loops' trip counts are
/// computed from (traced by planLanes), each once, in increasing order: the
/// row-length launch conditions go on them.
std::vector<uint32_t> integerTripParams(const ir::Function &k, const std::vector<const LanePlan *> &lps) {
  std::set<int> trip;
  for (const LanePlan *lp : lps) trip.insert(lp->tripParams.begin(), lp->tripParams.end());
  std::vector<uint32_t> out;
  for (int p : trip)
    if (auto t = (*k.params)[size_t(p)].type(); t.size() > 2 && (t.substr(2) == "32" || t.substr(2) == "64"))
      out.push_back(uint32_t(p));
  return out;
}

/// The floors on the row length, `minRow` each: on the integer parameters
/// the loops' trip counts are computed from (integerTripParams) and on the
/// integer fields of struct parameters they are (LanePlan::tripFields).
std::vector<Variant::MinParam> rowFloors(const ir::Function &k, const std::vector<const LanePlan *> &lps,
                                         int64_t minRow) {
  std::vector<Variant::MinParam> out;
  for (uint32_t p : integerTripParams(k, lps)) {
    // A parameter a loop's bound divides (`cols / 4`): the least value
    // whose bound reaches minRow (RowWalkFloors.cpp), the largest over the loops.
    int64_t floor = minRow;
    for (const LanePlan *lp : lps)
      if (lp->tripParams.count(int(p)) && lp->divFloors.count(minRow))
        floor = std::max(floor, lp->divFloors.at(minRow));
    out.push_back({p, floor});
  }
  std::set<TripField> fields;
  for (const LanePlan *lp : lps) fields.insert(lp->tripFields.begin(), lp->tripFields.end());
  for (const auto &f : fields) out.push_back({uint32_t(f.param), minRow, f.offset, f.bytes});
  return out;
}

/// "param 3 >= 256", or a struct's field "param 0 bytes 28..31 >= 256".
std::string floorText(const Variant::MinParam &c) {
  return "param " + std::to_string(c.index) +
         (c.bytes ? " bytes " + std::to_string(c.offset) + ".." + std::to_string(c.offset + c.bytes - 1) : "") +
         " >= " + std::to_string(c.value);
}

/// Sorts `v`'s alignment conditions by parameter; their remark text,
/// "param 0 % 16 == 0, param 3 % 4 == 0" ("" when none).
std::string sortAligned(Variant &v) {
  std::sort(v.alignedParams.begin(), v.alignedParams.end(),
            [](const Variant::AlignedParam &a, const Variant::AlignedParam &b) { return a.index < b.index; });
  std::string t;
  for (const auto &c : v.alignedParams)
    t += std::string(t.empty() ? "" : ", ") + "param " + std::to_string(c.index) + " % " + std::to_string(c.bytes) +
         " == 0";
  return t;
}

std::string minText(const Variant &v) {
  std::string t;
  for (const auto &c : v.minParams) t += ", " + floorText(c);
  return t;
}

/// One staged clone (RowWalkStaged.cpp builds it), its variant and its
/// remark; `conds` says the base variant's conditions.
void addStagedVariant(PassContext &ctx, ir::Function *k, const ir::Function &from, const KernelPlan &plan,
                      const Variant &base, const std::string &conds, bool unaligned, const std::string &stem, int &at) {
  ir::Module &m = ctx.module;
  const bool yToZ = stagedMapsYToZ(from);
  Variant s = stagedVariant(base, stem + (unaligned ? "staged_unaligned" : "staged"), yToZ);
  // Rows of at least kStagedMinRow elements (kMinRow when forced).
  std::vector<const LanePlan *> lps;
  for (const auto &sp : plan.staged) lps.push_back(&sp.lp);
  const bool forced = ctx.options.rowwalk.staged.value_or(false);
  for (const auto &c : rowFloors(*k, lps, forced ? kMinRow : kStagedMinRow)) s.minParams.push_back(c);
  if (!forced) s.minLaunchThreads = kStagedMinLaunch;
  // Rows that can start 16-byte aligned (rowsCanAlign): else every warp
  // would run the original loop, slower than the original kernel.
  for (const auto &sp : plan.staged)
    for (const auto &c : sp.aligned) requireAligned(s.alignedParams, c);
  std::string alignText = sortAligned(s);
  if (!alignText.empty()) alignText = ", " + alignText;
  // The loops' stores reach none of the rows read ahead (planStaged).
  std::string storeText;
  for (const auto &sp : plan.staged)
    for (const auto &[a, b] : sp.disjoint)
      if (std::find(s.disjointParams.begin(), s.disjointParams.end(), Variant::DisjointParams{a, b}) ==
          s.disjointParams.end()) {
        s.disjointParams.push_back({a, b});
        storeText += ", params " + std::to_string(a) + " and " + std::to_string(b) +
                     " in different allocations (the loop's stores, its rows)";
      }
  // Loops with early exits: each warp checks its rows against their
  // allocations' ends, launch arguments (RowWalkGuards.cpp).
  s.allocEnds = stagedAllocEnds(plan);
  std::string endText;
  for (uint32_t p : s.allocEnds) endText += ", param " + std::to_string(p) + " in a known allocation";
  // "256", or rows advancing by different steps: "256, 64 (the same 16 iterations)".
  auto rowTilesText = [](const StagedPlan &sp) {
    if (!sp.mixedSteps()) return std::to_string(sp.tileBytes);
    std::string text;
    for (size_t r = 0; r < sp.rows.size(); ++r) text += (r ? ", " : "") + std::to_string(sp.rowTile(r));
    return text + " (rows advancing by different steps: the same " + std::to_string(sp.ipt()) + " iterations)";
  };
  if (ctx.addClone(*k, buildClone(m, from, plan, s.name, false, false, true), s, at)) {
    unsigned bytes = 0;
    for (const auto &sp : plan.staged) bytes = std::max(bytes, sp.stageSize() * sp.stages);
    const StagedPlan &sp = plan.staged.front();
    unsigned wide = 0;
    for (const auto &st : plan.staged)
      for (const auto &w : st.wide) wide += !w.base.empty() && w.iv64.empty();
    ctx.remark(Remark::Kind::Applied, *k, "",
               s.name + ": rows staged through shared memory over " + std::to_string(plan.staged.size()) +
                   " loop(s), " + std::to_string(sp.rows.size()) + " row(s) of " + rowTilesText(sp) +
                   " bytes per tile" +
                   (wide ? ", " + std::to_string(wide) +
                               " by 32-bit index (each warp checks that no index of the loop wraps, else runs "
                               "the original loop)"
                         : std::string()) +
                   (unaligned ? ", rows at any offset from a 16-byte boundary (copied from the boundary below "
                                "their start, one 16-byte piece more; each lane reads its row at its offset, no "
                                "16-byte reads)"
                              : "") +
                   ", " + std::to_string(sp.regTiles ? sp.regTiles : sp.stages) + " tiles in flight (" +
                   (sp.regTiles ? "plain copies: ld.global.v4 into registers, st.shared.v4"
                                : "cp.async") +
                   ", " + std::to_string(bytes) + " bytes of shared memory)" + perLaneRemark(plan) +
                   (sp.regTiles && !sp.perLane ? ", a warp not all in the loop copies each lane's own row" : "") +
                   storedRowsRemark(plan) + straightRemark(plan) + "; exact; " +
                   std::to_string(plan.accList.size()) +
                   " accumulator(s) in memory kept in a register; launch one warp per block (grid block.x/32, "
                   "grid.x, " + (yToZ ? "grid.y" : "grid.z") + "; block 32); conditions: block.x % 32 == 0, "
                   "block.y == block.z == " + (yToZ ? "grid.z" : "grid.y") + " == 1" +
                   (conds.empty() ? "" : ", " + conds) + storeText + endText + alignText + minText(s) +
                   (s.minLaunchThreads ? ", at least " + std::to_string(s.minLaunchThreads) + " threads" : ""));
    ctx.count(unaligned ? "staged-unaligned-loops" : "staged-loops", double(plan.staged.size()));
  }
}

}  // namespace

/// "threads along x at least param 3 (each thread's grid-stride loop runs
/// once)" for a variant of the copy of a grid-stride kernel, else "".
std::string gridStrideOnceText(const Variant &v) {
  std::string t;
  for (const auto &g : v.gridStrideOnce) {
    std::string bound = g.times != 1 ? std::to_string(g.times) : "";
    for (uint32_t p : g.params) bound += (bound.empty() ? "param " : " * param ") + std::to_string(p);
    t += std::string(t.empty() ? "" : ", ") + "threads along " + char('x' + g.dim) + " at least " + bound;
  }
  return t.empty() ? t : t + " (each thread's grid-stride loop runs once)";
}

/// ", N guarded part(s) run straight ..." when a staged loop of `plan` runs
/// guarded parts straight in its tiles (RowWalkSpeculate.cpp), else "".
std::string straightRemark(const KernelPlan &plan) {
  unsigned parts = 0, loads = 0;
  for (const auto &sp : plan.staged) parts += sp.spec.regions(), loads += sp.spec.loads;
  if (!parts) return "";
  return ", " + std::to_string(parts) + " guarded part(s) of the loop body run straight in the tiles (predicated" +
         (loads ? ", " + std::to_string(loads) +
                      " load(s) read unconditionally once the warp has checked they stay inside their allocation"
                : std::string()) +
         ")";
}

/// ", N row(s) stored into ..." when a staged loop of `plan` stores along
/// its rows (RowWalkStaged.cpp, writeBack), else "".
std::string storedRowsRemark(const KernelPlan &plan) {
  unsigned n = 0, scans = 0;
  bool unaligned = false;
  for (const auto &sp : plan.staged) {
    n += unsigned(sp.storedRows().size());
    scans += unsigned(sp.carried.size());
    unaligned |= sp.unaligned && sp.hasRowStores();
  }
  if (!n) return "";
  return ", " + std::to_string(n) +
         " row(s) stored into through the tiles (each lane writes its row of the tile; after each tile's body the "
         "warp writes the tile back with coalesced 16-byte stores" +
         (unaligned ? ", each lane its own row's first and 17th pieces word by word" : "") + ")" +
         (scans ? ", " + std::to_string(scans) +
                      " scan(s): each iteration reads the element the previous one stored from the tile (iteration "
                      "0 from the previous tile's stage)"
                : "");
}

/// The staged clone of a planned kernel (RowWalkStaged.cpp builds it), its
/// variant and its remark; `conds` says the base variant's conditions.
/// Two clones: `_staged` for rows that start 16-byte aligned (under its
/// alignment conditions), then `_staged_unaligned` for the other launches
/// (rowwalk-staged-unaligned; rows no condition aligns get it alone).
void addStagedClone(PassContext &ctx, ir::Function *k, const ir::Function &from, const KernelPlan &plan,
                    const Variant &base, const std::string &conds, const std::string &stem, int &at) {
  // The unaligned clone where a row length's alignment is a condition or
  // none can align the rows; not beside lanes clones (their scalar form
  // takes the launches whose rows do not align, and comes first).
  // (rowwalk-lanes=0: planned lanes make no clone, so the unaligned one is made.)
  const bool lanes = !plan.lanes.empty() && !laneCounts(ctx).empty();
  // A loop that walks its rows down (alignable: planStagedLoops keeps no
  // other) is left out of the unaligned clone, which runs it the original's
  // way: its copies go up.
  auto leftOut = [](const StagedPlan &sp) { return sp.down && sp.alignable; };
  bool alignable = true, needUnaligned = false, unalignedOk = ctx.options.rowwalk.unaligned && !lanes,
       anyUnaligned = false;
  for (const auto &sp : plan.staged) {
    alignable &= sp.alignable;
    needUnaligned |= !sp.alignable || sp.lengthCond;
    if (leftOut(sp)) continue;
    unalignedOk &= sp.unalignedWhy.empty();
    anyUnaligned = true;
  }
  unalignedOk &= anyUnaligned;
  if (alignable)
    addStagedVariant(ctx, k, from, plan, base, conds, false, stem, at);
  else
    ctx.remark(Remark::Kind::Missed, *k, "",
               std::string(unalignedOk ? "no aligned staged clone: " : "no staged clone: ") +
                   std::find_if(plan.staged.begin(), plan.staged.end(), [](const StagedPlan &sp) {
                     return !sp.alignable;
                   })->alignWhy +
                   (unalignedOk ? "; the unaligned clone takes them" : "; the lanes clones take the rows at any alignment"));
  if (needUnaligned && !unalignedOk && !lanes && ctx.options.rowwalk.unaligned)
    for (const auto &sp : plan.staged)
      if (!sp.unalignedWhy.empty() && (!leftOut(sp) || !anyUnaligned)) {
        ctx.remark(Remark::Kind::Missed, *k, "",
                   "no unaligned staged clone (launches whose rows do not start 16-byte aligned run the "
                   "original): " + sp.unalignedWhy);
        break;
      }
  if (needUnaligned && unalignedOk) {
    KernelPlan u = plan;
    std::erase_if(u.staged, leftOut);
    for (auto &sp : u.staged) {
      sp.unaligned = true;
      sp.runs.clear();
      sp.aligned.clear();
    }
    addStagedVariant(ctx, k, from, u, base, conds, true, stem, at);
  }
}

namespace {
/// CSR's rounds clone (RowWalkCsrRounds.cpp), its variant and remark:
/// the original's launch, whole warps.
/// `conds`: the lanes variant's conditions as addLanesClones words them.
void addCsrRoundsClone(PassContext &ctx, ir::Function *k, const ir::Function &from, const KernelPlan &plan,
                       const Variant &v, const std::string &conds, const std::string &stem, int &at) {
  const unsigned G = ctx.options.rowwalk.csrLanes;
  // Rows through a 64-bit pointer (an `int` index): with an `unsigned`
  // index nvcc recomputes each address from the 32-bit index, the split
  // loop takes 10-12 more registers than the original (42 against 30 on
  // sm_90), and fewer warps fit an SM where every warp runs the original's
  // code: rows of 1 ran 0.72x, of 8 0.90x (H200).
  bool pointerRows = false;
  for (const auto &lp : plan.lanes)
    for (const IV &iv : lp.ivs) pointerRows |= iv.bits == 64;
  if (!pointerRows) {
    ctx.remark(Remark::Kind::Missed, *k, "",
               "no CSR clone: the rows are read through a 32-bit index (an unsigned one: each address recomputed "
               "from it), and the split loop's registers leave fewer warps for the warps that run the original "
               "code (short rows measured 0.72-0.93x); rowwalk-csr's clone takes them");
    return;
  }
  if (const std::string why = csrRoundsRefusal(from, plan); !why.empty()) {
    ctx.remark(Remark::Kind::Missed, *k, "", "no CSR clone: " + why);
    return;
  }
  Variant r = v;
  r.kind = plan.reassoc ? "csr-lanes+reassoc" : "csr-lanes";
  r.name = stem + "csr";
  r.blockMultiple[0] = kLanes;
  r.minLaunchThreads = kCsrMinLaunch;
  KernelPlan sampled = plan;
  sampled.csrSample = ctx.options.rowwalk.csrSample;
  auto clone = buildClone(ctx.module, from, sampled, r.name, true, false, false, G, true);
  if (!clone) return;  // csrRoundsRefusal said why
  if (!ctx.addClone(*k, std::move(clone), r, at)) return;
  const int64_t minIters = csrMinIters(plan.lanes.front());
  ctx.remark(Remark::Kind::Applied, *k, "",
             r.name + ": rows with loaded bounds (CSR), the original's launch; a warp whose 32 lanes all reach the "
                 "loop together, each with " + std::to_string(minIters) + " iterations or more (" +
                 (minIters == kCsrMinIters ? "rows of " + std::to_string(4 * kCsrMinIters) + " at nvcc's unroll of 4"
                  : plan.lanes.front().lessSigned64
                      ? std::string("a rolled loop over a `long` index: an element an iteration")
                      : std::string("a row walked by pointer: an element an iteration")) +
                 "), runs its 32 rows " + std::to_string(G) +
                 " lanes at a time, " + std::to_string(kLanes / G) +
                 " rows a round; every other lane runs the original code, a row that takes another way than the "
                 "loop without a vote" +
                 (sampled.csrSample ? "; a warp whose vote says yes first samples 128 rows spread over the launch "
                                      "and runs the original loop unless nearly all are long"
                                    : "") +
                 (plan.reassoc ? "; floating-point accumulators REASSOCIATED (--reassociate): results may differ "
                                 "in the last bits"
                               : "; exact") +
                 "; conditions: block.x % 32 == 0, at least " + std::to_string(kCsrMinLaunch) + " threads" +
                 (conds.empty() ? "" : ", " + conds));
  ctx.count("csr-loops", double(plan.lanes.size()));
}
}  // namespace

/// The lanes clones of a planned kernel (RowWalkLanes.cpp builds them):
/// one per lane count of laneCounts (CSR: one of rowwalk-csr-lanes), with
/// the block route and the scalar-load form for 32 lanes; their variants
/// and remark.
void addLanesClones(PassContext &ctx, ir::Function *k, const ir::Function &from, const KernelPlan &plan,
                    const Variant &base, const std::string &stem, int &at) {
  ir::Module &m = ctx.module;
  unsigned loopsSplit = static_cast<unsigned>(plan.lanes.size()), vec = 0;
  for (const auto &lp : plan.lanes) vec += static_cast<unsigned>(lp.runs.size());
  Variant v = base;
  v.kind = plan.reassoc ? "lanes+reassoc" : "lanes";
  v.alignedParams = plan.aligned;
  {
    std::set<std::pair<uint32_t, uint32_t>> all = plan.disjoint;
    all.insert(plan.lanesDisjoint.begin(), plan.lanesDisjoint.end());
    v.disjointParams.clear();
    for (const auto &[a, b] : all) v.disjointParams.push_back({a, b});
  }
  // The row length each lane count needs (kLaneMinRow) goes on the
  // integer parameters the trip counts are computed from, per G below.
  std::vector<const LanePlan *> lps;
  for (const auto &lp : plan.lanes) lps.push_back(&lp);
  // CSR rows (RowWalkCsr.cpp): their lengths are in memory, no condition.
  const bool rowFloor = !plan.csr;
  auto counts = laneCounts(ctx);
  // CSR: with rowwalk-csr one clone (no condition could choose among
  // several) of rowwalk-csr-lanes lanes; the rounds clone below.
  const bool csrRounds = plan.csr && !counts.empty() && ctx.options.rowwalk.csrRounds;
  if (plan.csr && !counts.empty())
    counts = ctx.options.rowwalk.csr ? decltype(counts){{ctx.options.rowwalk.csrLanes, 0}} : decltype(counts){};
  const std::string alignText = sortAligned(v);
  std::string aconds;
  for (const auto &d : v.disjointParams)
    aconds += std::string(aconds.empty() ? "" : ", ") + "params " + std::to_string(d.a) + " and " +
              std::to_string(d.b) + " in different allocations";
  if (!alignText.empty()) aconds += std::string(aconds.empty() ? "" : ", ") + alignText;
  if (const std::string once = gridStrideOnceText(v); !once.empty())
    aconds += std::string(aconds.empty() ? "" : ", ") + once;
  for (const auto &[G, minRow] : counts) {
    const std::string suffix = G == kLanes ? "" : std::to_string(G), n = std::to_string(G);
    Variant g = v;
    if (rowFloor)
      for (const auto &c : rowFloors(*k, lps, minRow)) g.minParams.push_back(c);
    g.name = stem + "lanes" + suffix;
    g.grid[0].multiply = G;
    g.blockMultiple[0] = G;
    Variant b = g;
    b.name = stem + "lanes" + suffix + "_blk";
    b.grid[0].multiply = 1;
    b.blockMultiple[0] = 1;
    b.block[0].multiply = G;
    b.blockMax[0] = kLanes;
    // Fewer than 32 lanes: the grid route with the 16-byte loads only
    // (with 8 lanes, rows of 64 in 20-thread blocks ran 0.97x by the
    // block route and rows of 42 with scalar loads 0.89x; H200, gpu-diff).
    const bool full = G == kLanes;
    bool kept = ctx.addClone(*k, buildClone(m, from, plan, g.name, true, true, false, G), g, at);
    if (full) kept |= ctx.addClone(*k, buildClone(m, from, plan, b.name, true, false, false, G), b, at);
    if (full && !v.alignedParams.empty()) {
      // For launches whose pointers or row lengths fail the 16-byte
      // conditions: the same clone with scalar loads.
      KernelPlan scalar = plan;
      for (auto &lp : scalar.lanes) lp.runs.clear();
      Variant sc = g;
      sc.name = stem + "lanes" + suffix + "_scalar";
      sc.alignedParams.clear();
      kept |= ctx.addClone(*k, buildClone(m, from, scalar, sc.name, true, true, false, G), sc, at);
    }
    std::string conds = aconds;
    for (const auto &c : g.minParams) conds += std::string(conds.empty() ? "" : ", ") + floorText(c);
    if (kept) {
      ctx.remark(Remark::Kind::Applied, *k, "",
                 g.name + (full ? ", " + b.name : std::string()) + ": " + n + " lanes per logical thread over " +
                     std::to_string(loopsSplit) + " loop(s), " + std::to_string(vec) + " 16-byte load(s)" +
                     (plan.reassoc ? "; floating-point accumulators REASSOCIATED (--reassociate): results may "
                                     "differ in the last bits"
                                   : "; exact") +
                     "; launch grid.x*" + n + " (block.x % " + n + " == 0)" +
                     (full ? " or block.x*32 (block.x <= 32)" : "") +
                     "; conditions: " + (conds.empty() ? "none" : conds) +
                     (!full || v.alignedParams.empty()
                          ? ""
                          : "; " + stem + "lanes" + suffix +
                                "_scalar without the 16-byte loads for the other launches"));
      ctx.count("lanes-loops", loopsSplit);
      if (plan.reassoc) ctx.count("reassociated");
    }
  }
  // After rowwalk-csr's clone (asked for: every launch it can take).
  if (csrRounds) addCsrRoundsClone(ctx, k, from, plan, v, aconds, stem, at);
}

}  // namespace ptxopt::transforms::rowwalk
