// rowwalk, step 3's planning of the rows' alignment: under which launch
// conditions the rows start 16-byte aligned (rowsCanAlign), rows whose
// starts differ in alignment between a warp's lanes (packed storage:
// sampledMisalignment, with RowWalkFloors.cpp's evaluator), why the unaligned clone cannot
// take a loop (unalignedRefusal), and rows read with gaps (gapsRefusal,
// gappedLoads, alignGappedPiece: the copies read the gaps, only where every
// 16-byte block holds a byte the loop reads). Overview: RowWalk.cpp; the
// rest of the planning: RowWalkStagedPlan.cpp.
#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

/// planStaged's second step for a row whose loads `at` read part of each
/// iteration's piece (`Z[2*j]`, the real parts of interleaved complex
/// data; a field of a struct element): the copies read the gaps too. Only
/// where they read no 16-byte block the loop does not touch
/// (gapsRefusal), so they read no sector the original does not and cannot
/// fault where it would not; and where the bytes the row's loads surely
/// read are known: none under a guard (`if (j % 16 == 0)` reads one block
/// in four), and no load of the loop the analysis cannot place that might
/// read the gaps (an index computed under a guard). The loads go to
/// `into`, the row is marked gapped; false with `why` otherwise.
bool Planner::gappedLoads(const LoopBlock &L, StagedPlan &sp, const std::map<std::string, std::map<int64_t, size_t>> &byRow,
                          const std::set<size_t> &removed, const std::map<int64_t, size_t> &at, int64_t first,
                          unsigned r, bool stored, std::vector<StagedPlan::RowLoad> &into, std::string &why) {
  into.clear();
  std::string refusal = gapsRefusal(at, first, sp.rowStep[r], stored);
  for (const auto &[off, i] : at)
    if (refusal.empty() && (L.guarded.count(i) || !instr(i)->guard.empty()))
      refusal = "a load of the row runs under a guard (the bytes it reads are not known)";
  for (size_t i = L.hs + 1; i < L.ls && refusal.empty(); ++i) {
    if (!accessAt_.count(i) || removed.count(i)) continue;
    const auto mem = analysis::memAccess(*instr(i));
    if (mem && mem->kind == analysis::MemAccess::Kind::Load && accessAt_.at(i)->verdict == AccessInfo::Verdict::Unknown &&
        std::none_of(byRow.begin(), byRow.end(), [&](const auto &kv) {
          return std::any_of(kv.second.begin(), kv.second.end(), [&](const auto &oi) { return oi.second == i; });
        }))
      refusal = "the loop has a load the analysis cannot place (" + std::string(instr(i)->opcode) +
                "), which may read the gaps";
  }
  if (!refusal.empty()) {
    why = "the loads of " + sp.rows[r] + " do not cover each iteration's " + std::to_string(sp.rowStep[r]) +
          " bytes exactly, and " + refusal;
    return false;
  }
  for (const auto &[off, i] : at) into.push_back({i, r, off - first});
  sp.gapped[r] = true;
  return true;
}

/// Why a row's loads `at` (by offset), which read part of each
/// iteration's S bytes from `first` on, cannot be staged with the copies
/// reading the gaps too, "" when they can: the row is only read (the
/// write-back would write the gaps: `stored`), its elements are 4 bytes or
/// wider (rows of bytes and shorts have their own reads, RowWalkShort.cpp),
/// the loads do not overlap and lie in the piece, and every 16-byte block
/// of the row's pieces from `first` holds a byte the loop reads (the
/// aligned clone's copies read 16-byte blocks from 16-byte boundaries: each
/// one then shares its sectors, and its page, with a load of the
/// original). Pieces of S under 16 bytes repeat every 16 bytes.
std::string Planner::gapsRefusal(const std::map<int64_t, size_t> &at, int64_t first, int64_t S, bool stored) const {
  if (stored) return "the loop also stores along the row (the tiles' write-back would write the gaps)";
  const int64_t period = std::max<int64_t>(S, 16);
  std::vector<bool> read(size_t(period), false);
  int64_t next = first;
  for (const auto &[off, i] : at) {
    const unsigned bytes = analysis::memAccess(*instr(i))->bytes();
    if (bytes < 4) return "its elements are under 4 bytes";
    if (off < next || off + int64_t(bytes) > first + S) return "its loads overlap or leave the piece";
    next = off + int64_t(bytes);
    for (int64_t rep = 0; rep < period; rep += S)
      for (int64_t b = off - first + rep; b < off - first + rep + int64_t(bytes); ++b) read[size_t(b)] = true;
  }
  for (int64_t q = 0; q < period; q += 16)
    if (std::none_of(read.begin() + q, read.begin() + q + 16, [](bool b) { return b; }))
      return "bytes " + std::to_string(q) + ".." + std::to_string(q + 15) +
             " of each piece hold nothing it reads (the copies would read sectors the loop does not)";
  return "";
}

/// Moves row r's piece (read with gaps) `mis` bytes down, to the 16-byte
/// boundary below its lowest load, where its loads still lie in the piece
/// and every 16-byte block of it holds a byte they read (gapsRefusal);
/// false, and nothing changed, otherwise. The row's 16-byte runs are
/// dropped (they no longer start on a 16-byte boundary of the tile).
bool Planner::alignGappedPiece(StagedPlan &sp, unsigned r, int64_t mis) const {
  std::map<int64_t, size_t> at;
  for (const auto &l : sp.loads)
    if (l.row == r) at.emplace(sp.rowOff[r] + l.off, l.stmt);
  if (at.empty() || !gapsRefusal(at, sp.rowOff[r] - mis, sp.rowStep[r], false).empty()) return false;
  sp.rowOff[r] -= mis;
  std::set<size_t> rowLoads;
  for (auto &l : sp.loads)
    if (l.row == r) l.off += mis, rowLoads.insert(l.stmt);
  std::erase_if(sp.runs, [&](const std::vector<size_t> &run) { return rowLoads.count(run.front()) != 0; });
  return true;
}

/// A warp of the staged clone copies its rows' tiles only when all 32
/// start 16-byte aligned (else it runs the original loop, in one-warp
/// blocks with the tiles' shared memory: slower than the original kernel,
/// 0.60-0.91x on an H200 with rows of 4099 floats); the unaligned clone
/// takes the other launches. Rows a constant number of bytes apart along
/// %tid.x that is not a multiple of 16 (a constant row length of 2047
/// floats) never all are: not alignable (the unaligned clone only).
/// Otherwise the first load of each row,
/// at the loop's first iteration (its counter 0), says under which launch
/// conditions its start is a multiple of 16 for every thread
/// (vectorAlignment), kept in `sp.aligned`: a runtime row length a
/// multiple of 16 bytes (the terms that differ between threads: without
/// it no warp's rows all align) and, where the address's constant part is
/// a multiple of 16, the base pointer 16-byte aligned. (Where it is not,
/// the loop's first iteration may still start aligned: nvcc's rotated loops
/// peel the first elements, and the clone checks the row registers
/// themselves; no base condition then.) Rows whose distance apart no
/// launch condition can check (`w[j*(n+1) + k]`: aligned only when n % 4 ==
/// 3) are not alignable either: when in doubt, not the aligned clone.
void Planner::rowsCanAlign(const LoopBlock &L, StagedPlan &sp) {
  sp.aligned.clear();
  auto notAlignable = [&](std::string w) {
    sp.alignable = false;
    sp.alignWhy = std::move(w);
    sp.aligned.clear();
  };
  if (!sp.carried.empty())
    return notAlignable("each iteration reads the element the previous one stored (a scan): its pieces start an "
                        "element past the row's start, which the aligned clone's tiles cannot");
  analysis::Symbol tx{analysis::Symbol::Kind::Tid};
  tx.dim = 0;
  const uint16_t tid = fa_.affine().symbolId(tx);
  std::vector<StagedPlan::RowLoad> all = sp.loads;  // and the rows only stored into
  for (const auto &st : sp.stores)
    if (!sp.loaded[st.row]) all.push_back(st);
  for (const auto &l : all) {
    if (!accessAt_.count(l.stmt)) continue;
    for (const auto &st : accessAt_.at(l.stmt)->strides)
      if (st.symbol == tid && st.constant && *st.constant % 16 != 0)
        return notAlignable("rows " + std::to_string(*st.constant) +
                            " bytes apart (a constant, not a multiple of 16): no warp's 32 rows all start 16-byte "
                            "aligned, so every warp would run the original loop");
  }
  for (const auto &l : all) {
    if (l.off != 0 || !accessAt_.count(l.stmt)) continue;  // each row's first access: the start of its piece
    const AccessInfo &a = *accessAt_.at(l.stmt);
    if (!a.address.known && a.cause == analysis::UnknownCause::DataDependent)
      // A row whose start the kernel loads (an embedding's rows gathered by
      // index, an array of row pointers, a window's loaded start): nothing
      // at launch says where it lies; misaligned ones sent every warp to
      // the original loop in one-warp blocks (0.57-0.66x, H200).
      return notAlignable("the rows' start is loaded (rows gathered by index or pointer): no launch condition "
                          "checks its alignment, and where the rows do not align every warp would run the "
                          "original loop, slower than the original");
    if (!a.address.known) {
      // A row whose start the analysis cannot write (packed triangular
      // storage, row i at i * (i + 1) / 2; a start after nvcc's peeled
      // remainder): its alignment is checked per warp at run time. Where
      // the start, evaluated for a sampled launch, misaligns some lanes of
      // every warp whatever n, every warp would run the original loop.
      if (std::string mis = sampledMisalignment(L, sp, l.row); !mis.empty()) return notAlignable(mis);
      continue;
    }
    // The loop's first iteration: its counters' terms are 0.
    auto first = [](const analysis::Symbol &s) -> int64_t { return s.kind == analysis::Symbol::Kind::LoopCounter ? 0 : 1; };
    // The terms that differ between threads: the rows' distance apart.
    analysis::Poly varying;
    for (const auto &[mono, coeff] : a.address.poly.terms()) {
      bool index = false;
      for (uint16_t id : mono) {
        auto kind = fa_.affine().symbols()[id].kind;
        index |= kind == analysis::Symbol::Kind::Tid || kind == analysis::Symbol::Kind::Ctaid;
      }
      if (!index) continue;
      analysis::Poly t = analysis::Poly::constant(coeff);
      for (uint16_t id : mono) analysis::Poly::mul(t, analysis::Poly::symbol(id), t);
      analysis::Poly::add(varying, t, varying);
    }
    std::vector<Variant::AlignedParam> conds;
    int64_t mis = 0;
    std::string term;
    if (!vectorAlignment(varying, fa_.affine(), k_, 16, first, conds, mis, &term)) {
      // `w[j*(n+1) + k]`: rows 4*(n+1) bytes apart align only when n % 4
      // == 3, which no launch condition says: when in doubt, the original.
      return notAlignable("the rows' alignment cannot be checked at launch (" + term +
                          "): where they do not align, every warp would run the original loop, slower than the "
                          "original");
    }
    sp.lengthCond |= !conds.empty();  // a row length's condition: the unaligned clone for the others
    std::vector<Variant::AlignedParam> full;
    if (vectorAlignment(a.address.poly, fa_.affine(), k_, 16, first, full, mis)) {
      // A constant off a 16-byte boundary (`for (j = 1; ...)`: the first
      // element past the row's start) misaligns every row that the
      // conditions align: every warp runs the original loop (in one-warp
      // blocks, which still spread a small launch over more SMs: 2.5-2.9x
      // on the probe family; unalignedOnly prefers the unaligned clone).
      // A row read with gaps whose piece can start at the boundary below
      // its lowest load (`Z[2*j + 1]`): the piece moves down (its loads
      // `mis` bytes into it), aligned where the address less mis is.
      std::vector<Variant::AlignedParam> shifted;
      analysis::Poly below;
      analysis::Poly::add(a.address.poly, analysis::Poly::constant(-mis), below);
      int64_t mis2 = 0;
      if (mis != 0 && sp.gapped[l.row] && vectorAlignment(below, fa_.affine(), k_, 16, first, shifted, mis2) &&
          mis2 == 0 && alignGappedPiece(sp, l.row, mis))
        conds = shifted;
      else if (mis != 0) sp.misaligned = unsigned(mis);
      else conds = full;
    }
    for (const auto &c : conds) requireAligned(sp.aligned, c);
  }
}

/// Why the unaligned clone (rows at any offset from a 16-byte boundary,
/// RowWalkStaged.cpp) cannot take a planned loop, "" when it can: it has
/// plain copies only, one trip count a warp, rows of 4- and 8-byte
/// scalars (the forms the GPU ran).
std::string Planner::unalignedRefusal(const StagedPlan &sp) const {
  if (ctx_.options.rowwalk.asyncCopy) return "it has plain copies only (rowwalk-staged-copy=async)";
  if (sp.perLane) return "its trip count differs between lanes";
  if (sp.down) return "its rows are walked downwards";
  if (sp.mixedSteps()) return "its rows advance by different steps";
  if (tripleStep(sp.step)) return "rows of 12- or 24-byte elements";
  // (Its copies start at the 16-byte boundary below a row's start: the
  // block holding the last piece's end may hold only bytes of a gap.)
  if (sp.gaps()) return "its loads read part of each iteration's piece (gaps the copies would read)";
  for (const auto &l : sp.loads)
    if (analysis::memAccess(*instr(l.stmt))->vector > 1)
      return "a row read as vectors (" + std::string(instr(l.stmt)->opcode) + ")";
  // Stored rows: the write-back writes piece 0 and the 17th by 32-bit word
  // (an element of 1 or 2 bytes may share a word with the row below it),
  // and the body's stores into the tile keep their width (a vector would be
  // misaligned at the lane's offset).
  for (const auto &st : sp.stores) {
    const auto mem = analysis::memAccess(*instr(st.stmt));
    if (mem->vector > 1 || mem->bytes() < 4)
      return "a row stored as " + std::string(mem->vector > 1 ? "vectors" : "8- or 16-bit elements") + " (" +
             std::string(instr(st.stmt)->opcode) + ")";
  }
  return "";
}

/// Why a row whose start the analysis cannot write (rowsCanAlign) is not
/// alignable, "" when it may be: its start at the loop's entry, evaluated
/// (evalReg, RowWalkFloors.cpp) for a sampled launch (every parameter n =
/// 4096, 8192 or 6144; block 1 of 128 threads, its first warp's lanes),
/// misaligns some lane in every sample (packed triangular storage, row i
/// at i * (i + 1) / 2). A start it cannot evaluate (nvcc's peeled remainder
/// before an upper triangle's loop) gives "": the run-time check as before.
std::string Planner::sampledMisalignment(const LoopBlock &L, const StagedPlan &sp, unsigned r) {
  if (!sp.wide[r].base.empty()) return "";  // a 32-bit index row: its own checks
  const uint32_t entry = loopEntry(L);
  if (entry == UINT32_MAX) return "";
  // A launch of 128-thread blocks, block 1, the lanes of its first warp.
  for (int64_t n : {int64_t(4096), int64_t(8192), int64_t(6144)}) {
    EvalEnv env;
    int64_t lane = 0;
    // Every parameter n: pointers then 16-byte aligned, rows of n elements a
    // multiple of 16 bytes apart (n a multiple of 16).
    env.param = [&](int q) -> std::optional<int64_t> {
      if (q < 0) return std::nullopt;
      return n;
    };
    env.special = [&](std::string_view sreg) -> std::optional<int64_t> {
      if (sreg == "%tid.x") return lane;
      if (sreg == "%ctaid.x") return 1;
      if (sreg == "%ntid.x") return 128;
      if (sreg == "%nctaid.x") return 64;
      if (sreg == "%tid.y" || sreg == "%tid.z" || sreg == "%ctaid.y" || sreg == "%ctaid.z") return 0;
      if (sreg == "%ntid.y" || sreg == "%ntid.z" || sreg == "%nctaid.y" || sreg == "%nctaid.z") return 1;
      return std::nullopt;
    };
    bool aligned = true;
    for (lane = 0; lane < 32 && aligned; ++lane) {
      const auto start = evalReg(entry, sp.rows[r], env, 0, &L);
      if (!start) return "";
      aligned = ((*start + sp.rowOff[r]) & 15) == 0;
    }
    if (aligned) return "";
  }
  return "the rows' starts differ in alignment between the lanes of a warp (" + sp.rows[r] +
         " at the loop's entry, evaluated for n = 4096, 8192 and 6144: packed storage, row i at i * (i + 1) / 2), "
         "so every warp would run the original loop";
}

}  // namespace ptxopt::transforms::rowwalk
