// rowwalk, step 2's planning: which loops split over 32 lanes, their
// induction variables, accumulators (the reductions: exact for integers,
// floating point with `reassociate`), trip count and 16-byte load runs.
// Overview: RowWalk.cpp.
#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

/// The reduction an instruction performs on its accumulating operand
/// `acc`: combine opcode and identity; empty when it is not one.
bool reductionOf(const Instruction &in, std::string_view acc, Acc &out) {
  if (!in.guard.empty() || in.operands.size() < 3 || in.operands[0].kind != Operand::Kind::Register) return false;
  std::string base(in.base());
  auto mods = in.modifiers();
  std::string type = mods.empty() ? "" : std::string(mods.back());
  if (type.size() < 3) return false;
  const char t = type[1];
  const unsigned bits = static_cast<unsigned>(std::stoul(type.substr(2)));
  if (bits != 32 && bits != 64) return false;
  auto count = [&](size_t from, size_t to) {
    size_t n = 0;
    for (size_t i = from; i < to && i < in.operands.size(); ++i) n += in.operands[i].isReg() && in.operands[i].text == acc;
    return n;
  };
  std::string extra;  // rounding and ftz modifiers of floating point
  for (size_t i = 0; i + 1 < mods.size(); ++i) extra += std::string(mods[i]);
  out.bits = bits;
  out.floating = t == 'f';
  const std::string ib = bits == 32 ? "32" : "64";
  auto fimm = [&](uint64_t b32, uint64_t b64) {
    char buf[40];
    if (bits == 32) std::snprintf(buf, sizeof buf, "0f%08llX", static_cast<unsigned long long>(b32));
    else std::snprintf(buf, sizeof buf, "0d%016llX", static_cast<unsigned long long>(b64));
    return std::string(buf);
  };
  const std::string allOnes = bits == 32 ? "0xFFFFFFFF" : "0xFFFFFFFFFFFFFFFF";
  if ((base == "fma" || base == "mad") && in.operands.size() == 4) {
    if (count(1, 3) || count(3, 4) != 1) return false;
    if (base == "mad") {
      if (mods.size() != 2 || mods[0] != ".lo" || t == 'f') return false;
      out.combine = "add" + type;
    } else {
      if (t != 'f') return false;
      std::string rnd;
      for (size_t i = 0; i + 1 < mods.size(); ++i)
        if (mods[i] != ".sat") rnd += std::string(mods[i]);
        else return false;
      out.combine = "add" + rnd + type;
    }
    out.identity = t == 'f' ? fimm(0x80000000u, 0x8000000000000000ull) : "0";
    return true;
  }
  if (in.operands.size() != 3 || count(1, 3) != 1) return false;
  if (base == "add") {
    if (extra.find(".sat") != std::string::npos || extra.find(".cc") != std::string::npos) return false;
    out.combine = "add" + extra + type;
    out.identity = t == 'f' ? fimm(0x80000000u, 0x8000000000000000ull) : "0";
    return t == 'f' || t == 's' || t == 'u';
  }
  if (base == "sub") {
    // s = s - a: each lane subtracts its share from its own start (lane 0
    // the loop's, the others 0), and the lanes' values add up to the
    // loop's result (exact for integers, modulo 2^bits).
    if (extra.find(".sat") != std::string::npos || extra.find(".cc") != std::string::npos) return false;
    if (!in.operands[1].isReg() || in.operands[1].text != acc) return false;  // a - s is no reduction
    out.combine = "add" + extra + type;
    out.identity = t == 'f' ? fimm(0x80000000u, 0x8000000000000000ull) : "0";
    return t == 'f' || t == 's' || t == 'u';
  }
  if (base == "mul") {
    if (t == 'f') {
      if (extra.find(".sat") != std::string::npos) return false;
      out.combine = "mul" + extra + type;
      out.identity = fimm(0x3F800000u, 0x3FF0000000000000ull);
      return true;
    }
    if (extra != ".lo" || (t != 's' && t != 'u')) return false;
    out.combine = "mul.lo" + type;
    out.identity = "1";
    return true;
  }
  if (base == "min" || base == "max") {
    if (t == 'f') {
      if (!extra.empty() && extra != ".ftz") return false;
      out.combine = base + extra + type;
      out.identity = base == "min" ? fimm(0x7F800000u, 0x7FF0000000000000ull) : fimm(0xFF800000u, 0xFFF0000000000000ull);
      return true;
    }
    if (!extra.empty() || (t != 's' && t != 'u')) return false;
    out.combine = base + type;
    if (base == "min") out.identity = t == 'u' ? allOnes : (bits == 32 ? "0x7FFFFFFF" : "0x7FFFFFFFFFFFFFFF");
    else out.identity = t == 'u' ? "0" : (bits == 32 ? "0x80000000" : "0x8000000000000000");
    return true;
  }
  if (base == "and" || base == "or" || base == "xor") {
    if (!extra.empty() || t != 'b') return false;
    out.combine = base + type;
    out.identity = base == "and" ? allOnes : "0";
    return true;
  }
  return false;
}

bool Planner::movableRun(const std::vector<size_t> &run, const std::set<size_t> &removed, std::string_view base) const {
  const size_t lo = *std::min_element(run.begin(), run.end()), hi = *std::max_element(run.begin(), run.end());
  std::set<std::string> dsts;
  for (size_t at : run) dsts.insert(std::string(instr(at)->operands[0].text));
  if (dsts.size() != run.size()) return false;
  // The run's one load sits at the earliest, which must run wherever any of
  // the others does (its block dominates theirs): not so for a guard around
  // each element (`if (j % 3)`: the sixth offline probe's stale lanes).
  const auto &cfg = fa_.cfg();
  const uint32_t first = cfg.blockOf(instrOf_.at(lo));
  for (size_t at : run)
    if (!fa_.dom().dominates(first, cfg.blockOf(instrOf_.at(at)))) return false;
  for (size_t s = lo + 1; s < hi; ++s) {
    const Instruction *in = instr(s);
    if (!in || removed.count(s) || std::find(run.begin(), run.end(), s) != run.end()) continue;
    auto mem = analysis::memAccess(*in);
    if (mem && mem->kind != analysis::MemAccess::Kind::Load) return false;
    auto du = analysis::defUse(*in);
    for (auto d : du.defs)
      if (dsts.count(std::string(d)) || d == base) return false;
    for (auto u : du.uses)
      for (size_t at : run)
        if (at > s && instr(at)->operands[0].text == u) return false;
  }
  return true;
}

/// The loop's accesses allow the split: one is uncoalesced along %tid.x and
/// unit-stride along the loop (or the rows are CSR or staged unknown ones),
/// stores advance with the loop, nothing is local.
bool Planner::lanesAccessesOk(const LoopBlock &L, const std::set<size_t> &removed, uint16_t counter, LanePlan &lp,
                              std::string &why, bool staged) {
  bool uncoalesced = false, downwards = false;
  for (size_t i = L.hs + 1; i < L.ls; ++i) {
    if (removed.count(i) || !accessAt_.count(i)) continue;
    const AccessInfo &a = *accessAt_.at(i);
    bool unit = false;
    // Unit stride along the loop: one iteration's piece of the row follows the last one's
    // (nvcc unrolls by 4: 16 or 32 bytes per iteration; by 16 for a constant row length,
    // `#define N 2048`: 64 bytes, which only the staged clone takes, up to 128). The lanes
    // clone also takes rows walked downwards (`for (j = n - 1; j >= 0; j--)`): lane l
    // takes iterations l, l+32, ... whichever way they go; its reductions are exact ones.
    // The staged clone's tiles go down such rows too (StagedPlan::down).
    const int64_t most = staged ? 128 : 32, least = -most;
    for (const auto &s : a.strides) {
      unit |= s.symbol == counter && s.constant && *s.constant != 0 && *s.constant >= least && *s.constant <= most;
      downwards |= s.symbol == counter && s.constant && *s.constant < 0 && *s.constant >= -most;
    }
    if (a.verdict == AccessInfo::Verdict::Uncoalesced && unit) uncoalesced = true;
  }
  // Rows that start at loaded values (CSR), which the access analysis calls unknown: RowWalkCsr.cpp.
  lp.dataRows = !uncoalesced && !staged && dataRows(L, removed);
  if (!uncoalesced && !lp.dataRows && !(staged && unknownRows(L, lp, removed))) {  // RowWalkTri.cpp
    why = staged && downwards ? "the row is walked downwards (the staged clone's tiles go up the row only)"
                              : "no access of the loop is uncoalesced along %tid.x and unit-stride along the loop";
    return false;
  }
  for (size_t i = L.hs + 1; i < L.ls; ++i) {
    if (removed.count(i) || !accessAt_.count(i)) continue;
    const AccessInfo &a = *accessAt_.at(i);
    const Instruction &in = *instr(i);
    // A thread's own local memory (an array indexed by data: `h[v >> 5]++`,
    // a histogram): no row of the tiles can be in it, and the staged clone's
    // body copies keep its loads and stores as they are. The lanes clones
    // split the loop over lanes, each with a local array of its own: not
    // for them.
    if (staged && a.mem.space == ".local") continue;
    if (a.mem.kind != analysis::MemAccess::Kind::Load && staged) {
      // The staged copies read rows up to `stages` tiles ahead: a global
      // store must reach another allocation than every row's (planStaged
      // asks it of its parameters; Rodinia kmeans' invert_mapping,
      // `out[p + np*i] = in[p*nf + i]`); anything else refuses.
      if (a.mem.kind != analysis::MemAccess::Kind::Store || (a.mem.space != ".global" && !a.mem.space.empty())) {
        why = "the loop writes memory (" + std::string(in.opcode) + "): the tiles are read ahead of it";
        return false;
      }
      if (a.verdict == AccessInfo::Verdict::Unknown) {
        why = "the loop writes memory (" + std::string(in.opcode) + ") at an address the analysis cannot express (" +
              a.reason + "): the tiles are read ahead of it";
        return false;
      }
      if (a.verdict != AccessInfo::Verdict::Coalesced) {
        // A store along a row of the thread's own (in place, or into a row
        // of another array), advancing with the loop: a row of the tiles,
        // written back a tile at a time (planStaged), in a loop that leaves
        // only at its latch.
        // Each thread its own row: a stride along %tid.x that is not 0
        // (`hits[j] = i` stores one element for the whole warp).
        bool along = false, own = false;
        for (const auto &s : a.strides) {
          along |= s.symbol == counter && s.constant && *s.constant != 0 && std::llabs(*s.constant) <= 128;
          own |= s.var == "%tid.x" && (!s.constant || *s.constant != 0);
        }
        // (Under a guard or a predicate: planStaged takes it where the loop
        // reads every element of the row unconditionally.)
        const char *refusal = !along || !own ? "not coalesced along %tid.x and not along a row of the thread's own"
                              : !L.exits.empty() ? "along a row in a loop with early exits"
                                                 : nullptr;
        if (refusal) {
          why = "the loop writes memory (" + std::string(in.opcode) + ") " + refusal;
          return false;
        }
        lp.rowStores.push_back(i);
        continue;
      }
      if (L.multi || !in.guard.empty()) {
        // Measured and run on the GPU: unpredicated stores in single-block
        // loops (gpu-diff "rowwalk stores"); the rest waits for that.
        why = "the loop writes memory (" + std::string(in.opcode) + ") " +
              (L.multi ? "in a loop of several blocks" : "under a predicate") +
              " (stores were measured in single-block loops, unpredicated, only)";
        return false;
      }
      lp.stores.push_back(i);
      continue;
    }
    if (a.mem.kind == analysis::MemAccess::Kind::Store) {
      bool moves = false;
      for (const auto &s : a.strides) moves |= s.symbol == counter && s.constant && std::llabs(*s.constant) >= a.mem.bytes();
      if (!moves) {
        why = "a store in the loop whose address does not advance with the loop (" + std::string(in.opcode) + ")";
        return false;
      }
    }
    if (a.mem.space == ".local") {
      why = "local memory in the loop";
      return false;
    }
  }
  return true;
}

/// Induction variable: one `add r, r, X` / `sub r, r, X`, X invariant
/// (in a loop of several blocks, in a block that runs every iteration), or
/// a chain, `add t, r, c2` ... `add r, t, c1` (or `mov r, t`), c1 and c2
/// immediates, t set once in the loop (chainInductionVariable). Appends it
/// to lp.ivs when r is one.
bool Planner::inductionVariable(const LoopBlock &L, const std::string &r, BlockDefUse &du, LanePlan &lp) {
  auto &defs = du.defs;
  const auto &ds = defs[r];
  if (ds.size() != 1 || L.guarded.count(ds[0])) return false;
  const Instruction &in = *instr(ds[0]);
  std::string b(in.base());
  auto mods = in.modifiers();
  if (b == "mov" && in.guard.empty() && in.operands.size() == 2 && in.operands[1].isReg())
    return chainInductionVariable(L, r, du, lp);  // `*p++`: add t, r, c; mov r, t
  if (!((b == "add" || b == "sub") && in.guard.empty() && in.operands.size() == 3 && mods.size() == 1 &&
        (mods[0] == ".s32" || mods[0] == ".u32" || mods[0] == ".s64" || mods[0] == ".u64")))
    return false;
  const Operand *other = nullptr;
  if (in.operands[1].text == r && in.operands[1].isReg()) other = &in.operands[2];
  else if (b == "add" && in.operands[2].isReg() && in.operands[2].text == r) other = &in.operands[1];
  if (!other && b == "add") return chainInductionVariable(L, r, du, lp);
  if (!other || (other->isReg() && defs.count(std::string(other->text)))) return false;
  IV iv;
  iv.reg = r;
  iv.update = ds[0];
  iv.bits = mods[0].ends_with("64") ? 64 : 32;
  if (other->intValue()) {
    iv.step = *other->intValue() * (b == "sub" ? -1 : 1);
  } else if (other->isReg()) {
    iv.immStep = false;
    iv.stepReg = std::string(other->text);
    iv.negated = b == "sub";
  } else {
    return false;
  }
  lp.ivs.push_back(iv);
  return true;
}

/// inductionVariable's chain: r's add `add r, t, c1` reads t, set once in
/// the loop before it by `add t, r, c2` of the same type, both unguarded;
/// or r's copy `mov r, t` (c1 = 0: nvcc's `*p++`, `add t, r, 16` then
/// `mov r, t` at the latch, t read after the loop as the pointer's exit value).
bool Planner::chainInductionVariable(const LoopBlock &L, const std::string &r, BlockDefUse &du, LanePlan &lp) {
  auto &defs = du.defs;
  const size_t at = defs[r][0];
  const Instruction &in = *instr(at);
  const bool copy = in.base() == "mov";
  auto mods = in.modifiers();
  if (copy && (mods.size() != 1 || !(mods[0] == ".u64" || mods[0] == ".b64" || mods[0] == ".s64" ||
                                     mods[0] == ".u32" || mods[0] == ".b32" || mods[0] == ".s32")))
    return false;
  const bool wide = in.opcode.ends_with("64");
  auto addOf = [&](const Instruction &a, const std::string &from, int64_t &c) {
    if (a.base() != "add" || !a.guard.empty() || a.operands.size() != 3) return false;
    if (copy ? (a.modifiers().size() != 1 || a.opcode.ends_with("64") != wide) : a.opcode != in.opcode) return false;
    for (int o = 1; o <= 2; ++o)
      if (a.operands[size_t(o)].isReg() && a.operands[size_t(o)].text == from && a.operands[size_t(3 - o)].intValue()) {
        c = *a.operands[size_t(3 - o)].intValue();
        return true;
      }
    return false;
  };
  for (int o = 1; o <= (copy ? 1 : 2); ++o) {
    const Operand &t = in.operands[size_t(o)];
    if (!t.isReg() || (!copy && !in.operands[size_t(3 - o)].intValue())) continue;
    const std::string link(t.text);
    const auto &td = defs[link];
    int64_t c1 = copy ? 0 : *in.operands[size_t(3 - o)].intValue(), c2 = 0;
    if (td.size() != 1 || td[0] >= at || L.guarded.count(td[0]) || !addOf(*instr(td[0]), r, c2)) return false;
    IV iv;
    iv.reg = r;
    iv.update = at;
    iv.bits = wide ? 64 : 32;
    iv.step = c1 + c2;
    iv.link = link;
    iv.linkBack = c1;
    lp.ivs.push_back(iv);
    return true;
  }
  return false;
}

/// Accumulator chain: r -> d1 -> ... -> r, each link read once, by the next;
/// fills acc and the links (d1, ...) when r is one.
bool Planner::accumulatorChain(const LoopBlock &L, const std::string &r, BlockDefUse &du, Acc &acc,
                               std::set<std::string> &links) {
  auto &defs = du.defs;
  const auto &rd = fa_.defs();
  auto inLoop = [&](uint32_t ci) {
    auto it = stmtOf_.find(ci);
    return it != stmtOf_.end() && it->second > L.hs && it->second <= L.ls;
  };
  acc.reg = r;
  std::string cur = r;
  size_t pos = L.hs;
  bool ok = true, closed = false;
  std::string combine;
  while (ok && !closed) {
    std::vector<size_t> readers;
    for (size_t u : du.uses[cur])
      if (u > pos) readers.push_back(u);
    // The value a link holds must be read only by the next link (before it is redefined).
    size_t nextDef = SIZE_MAX;
    for (size_t d : defs[cur])
      if (d > pos) nextDef = std::min(nextDef, d);
    std::vector<size_t> live;
    for (size_t u : readers)
      if (u <= nextDef) live.push_back(u);
    if (live.size() != 1) {
      ok = false;
      break;
    }
    const Instruction &in = *instr(live[0]);
    Acc step;
    if (!reductionOf(in, cur, step) || (!combine.empty() && step.combine != combine)) {
      ok = false;
      break;
    }
    combine = step.combine;
    acc.bits = step.bits;
    acc.identity = step.identity;
    acc.floating = step.floating;
    pos = live[0];
    cur = std::string(in.operands[0].text);
    if (cur == r) {
      closed = true;
      if (defs[r].size() != 1 || defs[r][0] != pos) ok = false;
    } else {
      if (!links.insert(cur).second || defs[cur].size() != 1) ok = false;
      // The link is read nowhere outside the loop.
      for (uint32_t u : rd.usesOf(instrOf_[pos], cur))
        if (!inLoop(u)) ok = false;
    }
  }
  // The loop-carried value the chain closes with is read by nothing after
  // it in the loop: a prefix sum (`t += a; s += t`) adds t's running value,
  // which a lane's partial t is not (each lane's s would add its own).
  if (ok && closed)
    for (size_t u : du.uses[r])
      if (u > pos && u <= L.ls) {
        ok = false;
        acc.prefix = true;
      }
  acc.combine = combine;
  return ok && closed;
}

/// Every register read before written in the loop: invariant, an
/// induction variable or (not staged) an accumulator.
bool Planner::planCarried(const LoopBlock &L, BlockDefUse &du, LanePlan &lp, std::string &why, bool staged) {
  std::set<std::string> carriedOk;
  for (const std::string &r : du.readFirst) {
    if (!du.defs.count(r)) continue;  // invariant
    if (inductionVariable(L, r, du, lp)) {
      carriedOk.insert(r);
      continue;
    }
    if (staged) continue;  // the staged clone runs the body as it is
    Acc acc;
    std::set<std::string> links;
    if (!accumulatorChain(L, r, du, acc, links)) {
      why = "loop-carried register " + r + " is neither an induction variable nor an accumulator" +
            (acc.prefix ? " (its updated value is read again in the loop, as a prefix sum's: a lane's partial "
                          "value is not the running one)"
                        : "");
      return false;
    }
    if (acc.floating && !ctx_.options.rowwalk.reassociate) {
      why = "floating-point accumulator " + r + " (" + acc.combine +
            "): splitting the loop reassociates it (allowed with --reassociate)";
      return false;
    }
    lp.accs.push_back(acc);
    for (const auto &x : links) carriedOk.insert(x);
    carriedOk.insert(r);
  }
  return true;
}

/// No other value defined in the loop is read after it, and a store step 1
/// moves after the loop stores a value the same on all lanes there.
bool Planner::liveOutsOk(const LoopBlock &L, const KernelPlan &plan, const std::set<size_t> &removed,
                         BlockDefUse &du, const LanePlan &lp, std::string &why, bool staged) {
  const auto &rd = fa_.defs();
  auto inLoop = [&](uint32_t ci) {
    auto it = stmtOf_.find(ci);
    return it != stmtOf_.end() && it->second > L.hs && it->second <= L.ls;
  };
  // No other value defined in the loop is read after it.
  for (size_t i = L.hs + 1; i <= L.ls && !staged; ++i) {
    const Instruction *in = instr(i);
    if (!in || removed.count(i)) continue;
    for (auto d : analysis::defUse(*in).defs) {
      bool carried = false;
      for (const auto &iv : lp.ivs) carried |= iv.reg == d || iv.link == d;  // emitLanesExit sets both
      for (const auto &a : lp.accs) carried |= a.reg == d;
      if (carried) continue;
      for (uint32_t u : rd.usesOf(instrOf_[i], d)) {
        // A use after the loop of a store step 1 moves out reads the accumulator.
        if (inLoop(u) && !removed.count(stmtOf_[u])) continue;
        if (inLoop(u)) continue;
        why = "register " + std::string(d) + " defined in the loop is read after it";
        return false;
      }
    }
  }
  // A store step 1 moves after the loop must store a value the same on all
  // lanes there: an accumulator, or one not computed in the loop.
  for (const auto &[hs, acc] : plan.accList) {
    if (hs != L.hs || staged) continue;
    const Operand &v = instr(acc.last)->operands[1];
    bool same = !v.isReg() || !du.defs.count(std::string(v.text));
    for (const auto &a : lp.accs) same |= v.isReg() && a.reg == v.text;
    if (!same) {
      why = "the accumulator in memory is given a value that is not a reduction (" + std::string(v.text) + ")";
      return false;
    }
  }
  return true;
}

/// The latch: @p bra header, p = (iv != bound) (or iv < bound: staged and
/// CSR rows); sets lp's tested induction variable and bound.
bool Planner::planLatch(const LoopBlock &L, BlockDefUse &du, LanePlan &lp, std::string &why, bool staged) {
  auto &defs = du.defs;
  const Instruction &br = *instr(L.ls);
  std::string p(br.guard);
  if (!defs.count(p) || defs[p].size() != 1) {
    why = "the latch's predicate is not set once in the loop";
    return false;
  }
  lp.setpAt = defs[p][0];
  const Instruction &sp = *instr(lp.setpAt);
  auto smods = sp.modifiers();
  bool ne = smods.size() == 2 && ((smods[0] == ".ne" && !br.guardNegated) || (smods[0] == ".eq" && br.guardNegated));
  const bool gt = sp.opcode == "setp.gt.s32";  // a counter stepping down: the staged clone only
  // Unsigned and `<=` tests: the staged clone only (CSR rows ask for `iv < bound`, signed).
  const LessTest less = lessTest(sp);
  // CSR rows walked by pointer (`while (v < end) s += *v++ * x[*c++]`):
  // nvcc keeps the loop rolled, `setp.lt.u64 v, end` after the update.
  const bool csrPointer = lp.dataRows && !staged && !br.guardNegated && sp.opcode == "setp.lt.u64";
  const bool lt = !ne && (((staged || (lp.dataRows && !gt && !less.other())) &&
                           lessThanLatch(L, sp, br.guardNegated)) ||
                          csrPointer);  // RowWalkTri.cpp, RowWalkCsr.cpp
  if (sp.base() != "setp" || !sp.guard.empty() || sp.operands.size() != 3 || !(ne || lt)) {
    why = "the loop's exit test is not 'iv != bound' (" + std::string(sp.opcode) + ")";
    return false;
  }
  bool found = false;
  for (int side = 1; side <= (lt ? 1 : 2) && !found; ++side) {
    const Operand &v = sp.operands[side], &b = sp.operands[3 - side];
    if (!v.isReg() || !(b.intValue() || (b.isReg() && !defs.count(std::string(b.text))))) continue;
    // The value tested is the induction variable itself, or `add t, iv, X`
    // with X invariant (nvcc's 64-bit counters: iv + (start - n) != 0).
    std::string ivReg(v.text), offset;
    size_t readAt = lp.setpAt;
    if (defs.count(ivReg) && defs[ivReg].size() == 1) {
      const Instruction &ad = *instr(defs[ivReg][0]);
      bool isIv = false;
      for (const auto &iv : lp.ivs) isIv |= iv.reg == ivReg;
      if (!isIv && ad.base() == "add" && ad.guard.empty() && ad.operands.size() == 3) {
        for (int o = 1; o <= 2; ++o) {
          const Operand &x = ad.operands[3 - o];
          if (ad.operands[o].isReg() && (x.intValue() || (x.isReg() && !defs.count(std::string(x.text))))) {
            for (const auto &iv : lp.ivs)
              if (iv.reg == ad.operands[o].text) {
                offset = std::string(x.text);
                readAt = defs[ivReg][0];
                ivReg = iv.reg;
              }
          }
          if (!offset.empty()) break;
        }
      }
    }
    for (size_t j = 0; j < lp.ivs.size(); ++j)
      if (lp.ivs[j].reg == ivReg && lp.ivs[j].immStep && (isPow2(lp.ivs[j].step) || isPow2(-lp.ivs[j].step))) {
        lp.tested = j;
        lp.bound = std::string(b.text);
        lp.boundOffset = offset;
        lp.after = lp.ivs[j].update < readAt;
        found = true;
      }
  }
  if (!found) {
    why = "the loop's exit test does not compare an induction variable with a power-of-two step against a "
          "loop-invariant bound";
    return false;
  }
  if (lt) {
    const IV &t = lp.ivs[lp.tested];
    // lessThanLatch's pointer loops and 64-bit signed counters.
    const bool pointer = t.bits == 64 && (sp.opcode == "setp.lt.u64" || sp.opcode == "setp.lt.s64");
    if ((t.bits != 32 && !pointer) || (gt ? t.step >= 0 : t.step <= 0) || !lp.after || !lp.boundOffset.empty()) {
      why = gt ? "the loop's exit test 'iv > bound' is not on a 32-bit counter stepping down, read after its update"
               : "the loop's exit test 'iv < bound' is not on a 32-bit counter stepping up, read after its update";
      return false;
    }
    lp.lessThan = true;
    lp.lessSigned64 = sp.opcode == "setp.lt.s64";
    lp.lessUnsigned = less.isUnsigned;
    lp.lessInclusive = less.inclusive;
  }
  return true;
}

uint32_t Planner::loopEntry(const LoopBlock &L) const {
  for (size_t i = L.hs + 1; i <= L.ls; ++i)
    if (instr(i)) return instrOf_.at(i);
  return UINT32_MAX;
}

/// Where the trip count comes from (the lanes clone asks for long rows).
void Planner::planTripParams(const LoopBlock &L, LanePlan &lp) {
  uint32_t entry = loopEntry(L);
  if (entry == UINT32_MAX) entry = instrOf_.at(lp.ivs[lp.tested].update);
  paramsFeeding(entry, lp.ivs[lp.tested].reg, L, lp.tripParams, lp.tripFields, 0);
  for (const std::string &r : {lp.bound, lp.boundOffset})
    if (!r.empty() && r[0] == '%') paramsFeeding(lp.setpAt ? instrOf_.at(lp.setpAt) : entry, r, L, lp.tripParams, lp.tripFields, 0);
  lp.divFloors = divisionFloors(L, lp, entry);
}

/// Runs of 16 bytes loaded by one iteration: one vector load.
void Planner::planVectorLoads(const LoopBlock &L, const std::set<size_t> &removed, LanePlan &lp) {
  auto &aff = fa_.affine();
  std::map<std::pair<std::string, std::string>, std::map<int64_t, size_t>> groups;
  for (size_t i = L.hs + 1; i < L.ls; ++i) {
    const Instruction *in = instr(i);
    if (!in || !accessAt_.count(i)) continue;
    auto mem = analysis::memAccess(*in);
    if (mem->kind != analysis::MemAccess::Kind::Load || mem->vector != 1 || (mem->bytes() != 4 && mem->bytes() != 8) ||
        !in->guard.empty() || !plainMemoryOp(*in) || in->operands.size() != 2 || !in->operands[0].isReg() ||
        (mem->space != ".global" && !mem->space.empty()))
      continue;
    std::string reg;
    int64_t off = 0;
    if (!baseAndOffset(in->operands[1], reg, off) || reg == in->operands[0].text) continue;
    groups[{std::string(in->opcode), reg}].emplace(off, i);
  }
  for (auto &[key, byOff] : groups) {
    for (auto it = byOff.begin(); it != byOff.end(); ++it) {
      const size_t first = it->second;
      const AccessInfo &a = *accessAt_.at(first);
      const unsigned w = a.mem.bytes(), n = 16 / w;
      std::vector<size_t> run;
      for (unsigned j = 0; j < n; ++j) {
        auto f = byOff.find(it->first + int64_t(j * w));
        if (f == byOff.end()) break;
        run.push_back(f->second);
      }
      if (run.size() != n) continue;
      std::vector<Variant::AlignedParam> conds;
      int64_t mis = 0;
      if (!a.address.known ||
          !vectorAlignment(a.address.poly, aff, k_, 16, [](const analysis::Symbol &) { return 1; }, conds, mis) || mis)
        continue;
      if (!movableRun(run, removed, key.second)) continue;
      // Order the run by offset (element order of the vector).
      lp.runs.push_back(run);
      for (const auto &c : conds) requireAligned(lp.aligned, c);
      std::advance(it, n - 1);
      if (it == byOff.end()) break;
    }
  }
}

bool Planner::planLanes(const LoopBlock &L, const KernelPlan &plan, LanePlan &lp, std::string &why, bool staged) {
  auto &aff = fa_.affine();
  analysis::Symbol cs{analysis::Symbol::Kind::LoopCounter};
  cs.loop = L.id;
  const uint16_t counter = aff.symbolId(cs);
  std::set<size_t> removed;  // stores step 1 removes
  for (const auto &[hs, acc] : plan.accList)
    if (hs == L.hs) {
      if (!acc.loads.empty() && !staged) {
        why = "the loop reloads an accumulator kept in memory (the regacc clone keeps it in a register)";
        return false;
      }
      removed.insert(acc.stores.begin(), acc.stores.end());
    }
  // Order of defs and uses in the block.
  BlockDefUse du;
  for (size_t i = L.hs + 1; i <= L.ls; ++i) {
    const Instruction *in = instr(i);
    if (!in || removed.count(i)) continue;
    auto inDu = analysis::defUse(*in);
    for (auto u : inDu.uses) {
      du.uses[std::string(u)].push_back(i);
      if (!du.defs.count(std::string(u))) du.readFirst.insert(std::string(u));
    }
    for (auto d : inDu.defs) du.defs[std::string(d)].push_back(i);
  }
  if (!lanesAccessesOk(L, removed, counter, lp, why, staged)) return false;
  lp.loop = L;
  if (!planCarried(L, du, lp, why, staged)) return false;
  if (!liveOutsOk(L, plan, removed, du, lp, why, staged)) return false;
  if (!planLatch(L, du, lp, why, staged)) return false;
  planTripParams(L, lp);
  if (staged) return true;
  planVectorLoads(L, removed, lp);
  return true;
}

}  // namespace ptxopt::transforms::rowwalk
