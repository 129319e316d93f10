// rowwalk, step 3's rows of 8- and 16-bit elements (issue 29, item 4).
// Overview: RowWalk.cpp; the staged clone: RowWalkStaged.cpp.
//
// What: a row of `unsigned char`, `signed char`, `short`, `unsigned short`
// or `__half` elements (ld.global.u8/s8/u16/s16/b16) walked by a thread,
// summed into 32-bit integers or floats, is staged like a row of floats:
// the warp copies tiles of its 32 rows into shared memory with 16-byte
// copies and each lane reads its own row in order. nvcc unrolls the loop by
// 4, so an iteration reads 4 bytes of chars or 8 of shorts (S = 4 or 8, not
// the 16-128 of 4- and 8-byte rows); a tile of 256 bytes is then 64 or 32
// iterations. Each iteration's 4 (or, when the iteration reads 2 bytes of a
// window, 2) elements are read from the tile as one vector load of their
// own type (`ld.shared.v4.u8 {%r28, %r30, %r32, %r34}`, zero- or
// sign-extended into the same registers as the global loads were).
// Why it pays: the original reads one byte per thread per load, each load
// of a warp touching 32 lines; the copies read whole lines with 16 bytes per
// lane, and the row's bytes then come from shared memory 4 at a time.
// Exactness: the same loads in the same order into the same registers (the
// loop body is copied), so integer and floating-point results are
// bit-identical.
// Conditions: as for every staged row (RowWalkStaged.cpp): each lane's row
// start 16-byte aligned (rows of chars a multiple of 16 elements, of shorts
// of 8, and an aligned base), one trip count, the whole warp in the loop,
// and for 32-bit indices (RowWalkIndex.cpp: `cvt.u64.u32` without a
// multiply for bytes) no index wraps; a warp failing any runs the original
// loop. Rows at any other offset take the unaligned clone (each element
// read alone at the lane's offset: runs are dropped there).
// Loops nvcc did not unroll by 4 (`#pragma unroll 1`, byte pointer walks:
// one or two elements an iteration) are taken on the small-step retry
// (stepRefusal in RowWalkStagedPlan.cpp): 64-256 copies of the body a tile.
// Refuses (remark): a row whose loads mix 8- or 16-bit elements with wider
// ones; other steps than 4-128 bytes (a power of two), or one or two
// elements on the retry.
#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

bool shortRowStep(int64_t step) { return step >= 4 && step <= 128 && isPow2(step); }

bool Planner::shortRuns(const std::map<int64_t, size_t> &loads, const std::set<size_t> &removed, StagedPlan &sp,
                        unsigned r, std::string &why) const {
  unsigned shortBytes = 0;
  bool wider = false;
  for (const auto &[off, i] : loads) {
    const unsigned b = analysis::memAccess(*instr(i))->bytes();
    if (b < 4) shortBytes = shortBytes && shortBytes != b ? 3 : b;
    else wider = true;
  }
  sp.shortRow.push_back(shortBytes != 0);
  if (!shortBytes) return true;
  if (wider || shortBytes == 3) {
    why = "the loads of " + sp.rows[r] + " mix elements of different sizes (8- or 16-bit with others)";
    return false;
  }
  // Windows of 4 elements (or of the iteration's bytes, when fewer): one
  // vector load of 2 or 4 elements each. Offsets are from the row's start
  // (loads.begin()), so a window is aligned to its size in the tile.
  const int64_t first = loads.begin()->first;
  const int64_t window = std::min<int64_t>(4 * shortBytes, sp.rowStep[r]);
  for (int64_t q = first; q < first + sp.rowStep[r]; q += window) {
    std::vector<size_t> run;
    std::string type;
    bool ok = true;
    for (const auto &[off, i] : loads)
      if (off >= q && off < q + window) {
        const Instruction &in = *instr(i);
        const std::string t = typeModifier(in);
        ok &= (type.empty() || t == type) && types_.bits(in.operands[0].text) >= shortBytes * 8 &&
              types_.bits(in.operands[0].text) <= 32;
        type = t;
        run.push_back(i);
      }
    // (movableRun keeps a window across a guard apart: its loads read the
    // tile one by one; the sixth offline probe's `if (j % 3)` over bytes.)
    if (ok && (run.size() == 2 || run.size() == 4) && movableRun(run, removed, sp.rows[r])) sp.runs.push_back(run);
  }
  return true;
}

}  // namespace ptxopt::transforms::rowwalk
