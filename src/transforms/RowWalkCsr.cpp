// rowwalk, step 2 for rows with loaded bounds: the scalar CSR sparse
// matrix-vector product (`for (j = rowptr[i]; j < rowptr[i+1]; j++)
// sum += val[j] * x[col[j]];`, one thread per row) becomes the "vector CSR"
// kernel: G lanes run one row, lane l taking iterations l, l+G, ..., with
// the shuffle reduction of RowWalkLanes.cpp after the loop.
// What: nvcc's loop is unrolled by 4 (val and col through 64-bit registers
// stepping 16 bytes, a down-counter to 0) with a prologue that computes the
// trip count from rowptr[i] and rowptr[i+1], and a remainder loop of up to
// 3 iterations; all three fit the lanes plan as they are: the trip count is
// computed before each loop from values that every lane of the logical
// thread shares (the loads of rowptr run on all G lanes alike), both loops
// split, and the induction variables leave them at their exit values.
// Why it pays on the GPU: one thread per row reads a different row per lane
// (rows of 32+ non-zeros: one 32-byte sector per lane per load, and only
// n/32 warps); G lanes per row read G consecutive pieces of one row.
// Algorithm: the access analysis calls the row loads unknown (their start is
// loaded from memory); a loop qualifies (dataRows) when its trip count is
// thread-varying and a global load in it, whose start is data-dependent,
// goes through an address that advances 4-32 bytes per iteration with one
// induction variable (a 64-bit pointer `add.s64 r, r, 16`, or base +
// mul.wide.u32(j + c, 4) for 32-bit unsigned indices: rowStep); the rest
// of planLanes (accumulators, exit test, values live after the loop, no
// stores) is unchanged. Exactness as for the other
// lanes clones: integer accumulators bit-identical, floating point only
// with --reassociate.
// A loop left through `iv < bound` (nvcc's float loops: the remainder
// peeled first, then the loop unrolled by 4 tested with setp.lt.s32) gets
// its trip count as the staged clone's per-lane form (emitTripCountLess),
// and the clone traps where the original's 32-bit counter would wrap
// (iv0 + T * step past 2^31 - 1; the source's `int j` overflowing): the one
// launch it cannot run as the original does.
// By default the lanes body goes into the rounds clone (RowWalkCsrRounds.cpp:
// the original's launch, each warp choosing from its rows' lengths). The
// clone of G times the threads only with the pass option rowwalk-csr
// (keepDataRows): no launch condition can tell the row lengths (they are in
// memory), and with rows of 1-8 non-zeros one row per G lanes does G times
// the work of the original (neighbouring rows are contiguous there, so the
// original's loads are already coalesced): 0.1-0.7x, rule 1; with the
// option, one clone, G = rowwalk-csr-lanes (default 8, the fastest at
// 32-128 non-zeros a row on an H200; no condition could choose among
// several), before the rounds clone. Loops that store, or whose rows the analysis
// sees (the usual plan) are not taken here.
// Overview: RowWalk.cpp.
#include "RowWalk.h"

#include <functional>

namespace ptxopt::transforms::rowwalk {

namespace {
/// The bytes the address register `reg` advances per iteration of the loop
/// [from, to] of `body` when it follows one induction variable (`add r, r,
/// imm` in the loop) through adds of loop-invariant values, cvt and
/// multiplies or shifts by immediates (mul.wide.u32 of a 32-bit index): 0
/// when it does not.
int64_t rowStep(const std::function<const Instruction *(size_t)> &instr, size_t from, size_t to, std::string reg,
                int64_t scale, int depth) {
  if (depth > 6 || scale <= 0 || scale > 64) return 0;
  std::vector<const Instruction *> ds;
  for (size_t j = from; j <= to; ++j)
    if (const Instruction *u = instr(j); u && !u->operands.empty() && u->operands[0].isReg() && u->operands[0].text == reg)
      ds.push_back(u);
  if (ds.size() != 1 || !ds[0]->guard.empty()) return 0;
  const Instruction &d = *ds[0];
  const std::string b(d.base());
  auto variant = [&](const Operand &o) {
    if (!o.isReg()) return false;
    for (size_t j = from; j <= to; ++j)
      if (const Instruction *u = instr(j); u && !u->operands.empty() && u->operands[0].isReg() && u->operands[0].text == o.text)
        return true;
    return false;
  };
  if (b == "add" && d.operands.size() == 3) {
    // The induction variable itself.
    if (d.operands[1].isReg() && d.operands[1].text == reg && d.operands[2].isImm())
      return scale * std::strtoll(std::string(d.operands[2].text).c_str(), nullptr, 0);
    const bool v1 = variant(d.operands[1]), v2 = variant(d.operands[2]);
    if (v1 == v2) return 0;
    return rowStep(instr, from, to, std::string(d.operands[v1 ? 1 : 2].text), scale, depth + 1);
  }
  if (b == "cvt" && d.operands.size() == 2 && d.operands[1].isReg())
    return rowStep(instr, from, to, std::string(d.operands[1].text), scale, depth + 1);
  if ((b == "mul" || b == "shl") && d.operands.size() == 3 && d.operands[1].isReg() && d.operands[2].isImm()) {
    const int64_t k = std::strtoll(std::string(d.operands[2].text).c_str(), nullptr, 0);
    if (k <= 0 || k > 8) return 0;
    return rowStep(instr, from, to, std::string(d.operands[1].text), b == "shl" ? scale << k : scale * k, depth + 1);
  }
  return 0;
}
}  // namespace

bool Planner::dataRows(const LoopBlock &L, const std::set<size_t> &removed) {
  if (fa_.affine().tripCountUniformity(L.id) != analysis::UniformLevel::Thread) return false;
  const std::function<const Instruction *(size_t)> at = [this](size_t i) { return instr(i); };
  unsigned rows = 0;
  for (size_t i = L.hs + 1; i < L.ls; ++i) {
    if (removed.count(i) || !accessAt_.count(i)) continue;
    const AccessInfo &a = *accessAt_.at(i);
    if (a.mem.space == ".param" || a.mem.space == ".const") continue;
    if (a.mem.kind != analysis::MemAccess::Kind::Load) return false;  // loads only
    if (a.verdict != AccessInfo::Verdict::Unknown || a.cause != analysis::UnknownCause::DataDependent) continue;
    const Instruction &in = *instr(i);
    std::string reg;
    int64_t off = 0;
    if (a.mem.space != ".global" || in.operands.size() != 2 || !baseAndOffset(in.operands[1], reg, off)) continue;
    // One element or more per iteration, at most 32 bytes (nvcc's unroll by 4 of 4- and 8-byte elements).
    const int64_t step = rowStep(at, L.hs + 1, L.ls, reg, 1, 0);
    if (step >= int64_t(a.mem.bytes()) && step <= 32) ++rows;
  }
  return rows > 0;
}

bool Planner::keepDataRows(KernelPlan &plan) {
  const LanePlan *csr = nullptr;
  for (const auto &lp : plan.lanes)
    if (lp.dataRows && !csr) csr = &lp;
  if (!csr) return false;
  if (ctx_.options.rowwalk.csr || ctx_.options.rowwalk.csrRounds) return true;
  ctx_.remark(Remark::Kind::Missed, k_, csr->loop.where,
              "no lanes clone: loop at " + (csr->loop.where.empty() ? csr->loop.header : csr->loop.where) +
                  " walks rows that start and end at loaded values (CSR); rowwalk-csr-rounds=0 and no "
                  "rowwalk-csr");
  plan.lanes.clear();
  plan.reassoc = false;
  return false;
}

std::string emitTripCountCsr(Emitter &e, const LanePlan &lp, const std::vector<std::string> &v0) {
  // nvcc's float loop (remainder first, then the loop unrolled by 4 with
  // `iv < bound`): T = max(1, ceil((bound - iv0) / step)). Where the
  // original's counter would pass 2^31 - 1 and wrap (its loop would then go
  // on for about 2^30 more iterations; `int j` overflowing in the source),
  // the clone traps instead of computing another answer.
  const std::string T = emitTripCountLess(e, lp, v0), ok = e.regp();
  e.ins("setp.eq.u32", {ok, "0", "0"});
  emitLessNoWrap(e, lp, v0, T, ok);
  e.ins("trap", {}, "!" + ok);
  return T;
}

}  // namespace ptxopt::transforms::rowwalk
