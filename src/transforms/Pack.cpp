// pack: intra-thread grouping (van den Braak et al., SAMOS 2010, section
// IV-B, "grouping within a thread"), on a clone of the kernel.
//
// What: loads of one thread from adjacent addresses (`[%rd+0]`, `[%rd+1]`,
// `[%rd+2]`, `[%rd+3]` of 8-bit data, the row of pixels a DCT reads, a
// thread handling four bytes) become one 4-, 8- or 16-byte vector load,
// unpacked into the original destination registers.
// Why it pays: one memory instruction instead of up to 16, and one request
// per warp where there were as many as the loads; short-word loads are the
// costliest per byte.
// Algorithm: the body is scanned in windows of code between labels,
// branches, stores, atomics, barriers, fences and calls (no memory write may
// lie between loads that are merged, and merged loads run together). In a
// window, unguarded scalar global loads of width w in {1, 2, 4} with the
// same opcode and the same base register (not redefined in the window) are
// grouped by their constant offsets; runs of n consecutive elements with
// n*w in {16, 8, 4} (largest first) are merged when the first address is a
// multiple of n*w: every term of its polynomial (affine analysis) a multiple
// of n*w, except terms with one parameter, which become runtime conditions
// on that argument (a pointer's alignment, a row pitch). The vector load
// takes the place of the first load; the others move up to it, which needs
// their destination registers not to be read or written in between.
// Across blocks (with the option pack-across-blocks; off by default: on
// the H200 the naive DCT ran 0.97x merged, its pixels already L1 hits, the
// words live across the cosf code): loads left over that form such a run
// over several blocks merge too when the statements between the earliest and the latest only
// branch forward among themselves (inner loops allowed), are entered only
// through the earliest, and neither leave the kernel, write global or
// generic memory, synchronize, call nor redefine the base register: then
// whenever the earliest runs the latest runs, with memory unchanged. The
// vector load goes where the earliest was and each element is unpacked
// where its load was (nvcc's naive DCT: cosf's branches between the eight
// pixels of a row).
// The clone keeps the launch (identity), so the manifest holds only the
// parameter conditions; when they fail at launch the original runs.
// Loops (the paper's DCT): nvcc unrolls most loops itself, and its runs
// are merged as above; a loop it leaves rolled (a cosf in the body: several
// blocks and an inner loop) reads one short word per iteration. When the
// loop's header block loads 1- or 2-byte elements at unit stride along the
// loop counter (affine analysis), the clone unrolls it by 4: at the header,
// if the 32-bit counter satisfies iv + 3*step < n (computed in 64 bits) the
// body runs four times with its labels renamed and the latch test only in
// the last copy, the first copy loading the four elements as one 4- or
// 8-byte vector and every copy unpacking its own where its load was; else
// the original body runs once (so any trip count is exact). The fast path
// starts at counters 0, 4, 8, ..., so the address is aligned when its
// polynomial with the counter's term counted 4 times is (parameters become
// runtime conditions, as above). Loops are taken only when they are one
// range of statements whose latch is `setp.CMP p, iv, n; @p bra header`
// (32-bit) with iv updated once per iteration by a constant step, either
// `add iv, iv, s` before the test or `add t, iv, s` ... `mov iv, t` after it
// (nvcc's counters that count down), CMP lt/le/ne for s > 0 and gt/ge/ne
// for s < 0 (the header tests, in 64 bits, that the value the third copy's
// left-out latch would test still passes), nothing else writes iv or n, and
// the body writes no global or generic memory and has no barrier, fence,
// atomic, call, `brx` or declaration (a remark says which). A
// `.pragma "nounroll"` loop is unrolled on the clone only (the remark says
// so): the original keeps the programmer's choice.
// Clones made by earlier passes are packed too (the pack clone of a swap
// clone is preferred over it, with the same launch); an original that has
// clones is left to them.
// Nested { } scopes (cuda_fp16.h's inline asm) are flattened in a copy of
// an original that the pass plans and clones from (clone::flattenScopes).
// Refuses (remark, for every kernel left alone): nested scopes it cannot
// flatten (labels, scopes, calls), and kernels
// with no such run or loop (the first run that failed and why, else that
// there is none). Most kernels of a large module are settled from their
// text before any analysis (prescan: no two candidate loads share a base
// register, or none lie one element apart, and no load could be a loop's),
// with the remark the full scan would give. Four bytes whose address has no %tid term (every thread
// of the block reads the same word: one broadcast per warp load either way)
// are not merged into one 4-byte word unless pack-uniform-bytes is set:
// tile_sum measured 0.93x so. Nor are 16 bytes with no %tid term in a loop
// beside a scalar global load of the thread's own that does not merge
// (x[k..k+3] beside a column walk: 0.90x) unless pack-uniform-vectors is
// set. A term of an address with several parameters is aligned
// when one of them is (a runtime condition, reusing one already asked).
// Not done yet: stores.
// Files: PackLoops.cpp (the loops: which qualify, the unrolled rewrite, and
// the address and vector-load helpers), this file (runs of loads, across
// blocks, the clone and its variants, the pass); PackLoops.h holds what they
// share.
#include <algorithm>
#include <numeric>

#include "PackLoops.h"

namespace ptxopt::transforms {

using analysis::AccessInfo;
using ir::Instruction;
using ir::Operand;
using ir::Stmt;
using namespace clone;
using namespace pack;

namespace {

const char *const kNothingToPack =
    "not packed: no two unguarded scalar global loads of 1, 2 or 4 bytes from one base register in one stretch of "
    "code, and no loop reading short words at unit stride along its counter";

const char *const kNoRunToPack =
    "not packed: its loads from one base register are not adjacent runs of 4, 8 or 16 bytes, or a store lies "
    "between them";

struct Load {
  size_t stmt;          // index in the body
  const AccessInfo *a;  // its address
  std::string reg;      // base register
  int64_t off;          // constant offset in the address
  unsigned w;
  std::string key;      // opcode: loads merge only with the same one
};

struct Run {
  std::vector<size_t> loads;  // indexes into the window, by offset
  unsigned bytes;
  std::vector<Variant::AlignedParam> conditions;
  // Across blocks: the vector load where the earliest load was, each load's
  // unpacking where that load was (else all of it at the earliest).
  bool inPlace = false;
};

/// What the scan below would conclude about `k`, when its text alone
/// decides it: kNothing, no two loads that could merge (the window and
/// across-block candidates: reachable unguarded plain scalar global or
/// generic loads of 1, 2 or 4 bytes at [reg] or [reg+imm]) share an opcode
/// and a base register; kNoRun, some do but no two of them lie w bytes
/// apart (a run's first two elements); and in both no load is a loop
/// candidate (planLoops: .global, 1 or 2 bytes). Then the scan finds no run
/// and no loop and says so in the remark chosen here, so most kernels of a
/// large module (CUB's) cost no address analysis in this pass. kMaybe
/// otherwise.
enum class Prescan { kNothing, kNoRun, kMaybe };
Prescan prescan(const ir::Function &k, const analysis::CFG &cfg, const RegTypes &types) {
  std::map<std::pair<std::string_view, std::string>, std::set<int64_t>> groups;  // (opcode, base) -> offsets
  bool pairs = false;
  for (const auto &s : k.body->body) {
    if (s->kind != Stmt::Kind::Instruction) continue;
    const auto &in = static_cast<const Instruction &>(*s);
    unsigned w;
    std::string reg;
    int64_t off;
    if (loopCandidate(in, types, w)) return Prescan::kMaybe;  // if it is in a loop's header
    if (!runCandidate(in, types, w, reg, off)) continue;
    const uint32_t at = cfg.indexOf(&in);
    if (at >= cfg.instructions().size() || !cfg.blocks()[cfg.blockOf(at)].reachable) continue;
    auto [it, fresh] = groups.try_emplace({in.opcode, std::move(reg)});
    pairs |= !fresh;
    // Widths differ only with opcodes (the type is part of it).
    if (it->second.count(off - int64_t(w)) || it->second.count(off + int64_t(w))) return Prescan::kMaybe;
    it->second.insert(off);
  }
  return pairs ? Prescan::kNoRun : Prescan::kNothing;
}

/// The scan and the clone of one kernel (the steps of the opening comment),
/// one method each: the runs in windows, the runs across blocks, the loops
/// (or why nothing merges), the clone's body, its manifest variants.
class Packer {
public:
  Packer(PassContext &ctx, ir::Function &k, const PassContext::Base &known, const RegTypes &types,
         analysis::FunctionAnalyses &fa)
      : ctx_(ctx), m_(ctx.module), k_(k), kname_(k.name), known_(known), original_(known.original),
        isClone_(known.isClone), body_(k.body->body), types_(types), fa_(fa), aff_(fa.affine()) {
  for (const auto &a : fa_.accesses()) accessOf_[fa_.cfg().instructions()[a.instr]] = &a;
  }

  void run() {
    scanWindows();
    scanAcrossBlocks();
    if (!planLoopsOrSayWhy()) return;
    addVariants(buildClone());
  }

private:
  /// Runs among the loads of `window`: grouped by (opcode, register),
  /// sorted by offset, largest vectors first; `ok` checks the statements
  /// between a run's loads.
  template <typename Ok>
  void findRuns(std::vector<Load> &window, bool inPlace, Ok &&ok);
  /// In one window, the run's loads move up to its earliest one: their
  /// destination registers must not be read or written in between.
  bool movable(const std::vector<size_t> &stmts) const;
  /// A global load that can be merged: unguarded, scalar, plain, 1, 2 or 4
  /// bytes into a register wide enough, at [reg] or [reg+imm].
  bool eligible(size_t i, const Instruction &in, Load &l) const;
  /// The runs in each window of code between labels, branches and writes.
  void scanWindows();
  /// The runs across blocks (pack-across-blocks).
  void scanAcrossBlocks();
  /// Across blocks: whether the statements between the earliest and the
  /// latest of a run's loads `stmts` only branch forward among themselves,
  /// are entered only at the earliest, and neither leave the kernel, write
  /// memory a load could see, synchronize nor redefine the base register.
  bool forwardRegion(const std::vector<size_t> &stmts);
  /// Drops the runs found since `from` that merge 16 bytes every thread
  /// reads alike (`l1[k..k+3]`: no %tid term) inside a loop whose block
  /// also holds a scalar global load of the thread's own (a %tid term: its
  /// row or column; or an address the analysis cannot write, a packed
  /// triangle's row i at i * (i + 1) / 2: 0.87x, gpu-diff "tri 64:
  /// tpmv_lower_f32") that no run merges. The loop waits on those loads,
  /// and the merge saves only load instructions of words one request
  /// serves the warp already; the clone ran 0.90-0.91x at 32 to 256
  /// blocks, 1.03x at 1024 (H200, gpu-diff "pack column"; the held-out
  /// backprop's layerforward_col, 0.95x of nvcc's program). Where the
  /// block's other loads merge too (gemv's pack clone) or read shared
  /// memory or vectors (the staged clones' x[k..k+3] beside their tile
  /// loads), the run stays.
  void dropUniformBesideLoads(size_t from) {
    if (ctx_.options.pack.uniformVectors) return;
    std::set<uint32_t> merged;
    for (const Run &r : runs_)
      for (size_t l : r.loads) merged.insert(all_[l].a->instr);
    for (size_t i = runs_.size(); i-- > from;) {
      const Load &lead = all_[runs_[i].loads.front()];
      if (runs_[i].bytes != 16 || !lead.a->address.known || threadVarying(lead.a->address.poly, aff_)) continue;
      const uint32_t b = fa_.cfg().blockOf(lead.a->instr);
      if (!fa_.loops().loopOf(b)) continue;
      bool others = false;  // a scalar global load of the thread's own that stays
      for (const auto &a : fa_.accesses())
        others |= a.mem.kind == analysis::MemAccess::Kind::Load && a.mem.vector == 1 &&
                  (a.mem.space == ".global" || a.mem.space.empty()) && fa_.cfg().blockOf(a.instr) == b &&
                  !merged.count(a.instr) && (!a.address.known || threadVarying(a.address.poly, aff_));
      if (!others) continue;
      if (firstWhy_.empty()) {
        const Instruction &in = static_cast<const Instruction &>(*body_[lead.stmt]);
        firstWhy_ = std::to_string(runs_[i].loads.size()) + " loads from " + lead.reg + " (" + std::string(in.opcode) +
                    ") would merge into 16 bytes every thread reads alike, in a loop beside a thread's own "
                    "scalar loads that do not merge: measured 0.90x (a column walk beside x[k..k+3], gpu-diff "
                    "\"pack column\"); --pack-uniform-vectors merges them";
        firstWhyAt_ = locationOf(ctx_.module, fa_, &in);
      }
      runs_.erase(runs_.begin() + static_cast<long>(i));
    }
  }
  /// Whether block `b` runs in every iteration of its innermost loop (it
  /// dominates each latch); false outside loops.
  bool everyIteration(uint32_t b) {
    const auto l = fa_.loops().loopOf(b);
    return l && analysis::runsEveryIteration(fa_.loops().loops()[*l], b, fa_.dom());
  }
  /// The loops to unroll; false (with a remark) when nothing is packed.
  bool planLoopsOrSayWhy();
  /// The clone: the runs merged, the loops unrolled.
  std::unique_ptr<ir::Function> buildClone();
  /// The clone's manifest variants (one per variant that launches the kernel) and the remark.
  void addVariants(std::unique_ptr<ir::Function> clone);

  PassContext &ctx_;
  ir::Module &m_;
  ir::Function &k_;
  const std::string kname_;
  const PassContext::Base &known_;
  ir::Function *original_;
  const bool isClone_;
  std::vector<std::unique_ptr<Stmt>> &body_;
  const RegTypes &types_;
  analysis::FunctionAnalyses &fa_;
  const analysis::AffineAnalysis &aff_;
  std::map<const Instruction *, const AccessInfo *> accessOf_;
  // Windows and runs.
  std::vector<Run> runs_;
  std::vector<Load> all_;  // every candidate, by window
  bool sawNeighbours_ = false;  // loads from one base register in one window (worth a remark)
  std::string firstWhy_, firstWhyAt_;  // the first run of adjacent loads that could not merge, and why
  bool acrossNoted_ = false;  // runs across blocks left out, with a remark
  std::map<std::string_view, size_t> labelAt_;
  std::map<std::string_view, std::vector<size_t>> branchesTo_;
  std::vector<LoopPlan> loops_;
  std::string name_;  // the clone's
  std::vector<Variant::AlignedParam> aligned_;  // the runs' runtime conditions
  unsigned merged_ = 0;
};

template <typename Ok>
void Packer::findRuns(std::vector<Load> &window, bool inPlace, Ok &&ok) {
    std::map<std::pair<std::string, std::string>, std::vector<size_t>> groups;
    for (size_t i = 0; i < window.size(); ++i) groups[{window[i].key, window[i].reg}].push_back(i);
    for (auto &[key, idx] : groups) {
      sawNeighbours_ |= idx.size() > 1;
      std::sort(idx.begin(), idx.end(), [&](size_t x, size_t y) { return window[x].off < window[y].off; });
      std::map<int64_t, size_t> byOff;
      for (size_t i : idx) byOff.emplace(window[i].off, i);  // a repeated offset: the first load
      std::set<size_t> taken;
      const unsigned w = window[idx[0]].w;
      for (unsigned V : {16u, 8u, 4u}) {
        if (V <= w) continue;
        const unsigned n = V / w;
        for (size_t start : idx) {
          if (taken.count(start) || byOff[window[start].off] != start) continue;
          std::vector<size_t> run;
          for (unsigned j = 0; j < n; ++j) {
            auto it = byOff.find(window[start].off + static_cast<int64_t>(j * w));
            if (it == byOff.end() || taken.count(it->second)) break;
            run.push_back(it->second);
          }
          if (run.size() != n) continue;
          std::vector<Variant::AlignedParam> conds;
          int64_t misalign = 0;
          const AccessInfo &lead = *window[start].a;
          std::string alignWhy;
          const Instruction &leadIn = static_cast<const Instruction &>(*body_[window[start].stmt]);
          auto fail = [&](const std::string &why) {
            if (firstWhy_.empty()) {
              firstWhy_ = std::to_string(n) + " loads of " + std::to_string(w) + " bytes from " + window[start].reg +
                         " (" + std::string(leadIn.opcode) + ") would merge, but " + why;
              firstWhyAt_ = locationOf(ctx_.module, fa_, &leadIn);
            }
          };
          if (n == 2 && w >= 4 && !everyIteration(fa_.cfg().blockOf(window[start].a->instr))) {
            // Two 32- or 64-bit loads as one vector outside a loop: the
            // thread's request covers the same sectors either way, so
            // nothing is saved. Rodinia nearest neighbour's struct of two
            // floats measured 0.99-1.07x
            // (docs/results/2026-11-25/family-h100-2026-11-25-before.md), and the
            // clone costs the program its load and the hook. In a loop the
            // instruction saved each iteration pays: the column walk's
            // t[i], t[i+1] ran 1.18x faster as one 8-byte load (H100,
            // docs/BENCHMARKS.md "Row walks"); on a path of the loop that
            // not every iteration takes it did not: the graph traversal of
            // bench/programs (bfs.cu: a node's two fields read again after
            // a store, only for unvisited neighbours) ran 0.81-1.00x in 13
            // whole-program runs (docs/results/2026-11-2*/programs-*.md).
            fail("two loads of 4 or 8 bytes as one vector, outside a loop or on a path not every iteration of it "
                 "takes, measured no faster");
            continue;
          }
          if (!lead.address.known) {
            fail("their address is unknown (" + lead.address.why + ")");
            continue;
          }
          if (V == 4 && w == 1 && !ctx_.options.pack.uniformBytes &&
              !threadVarying(lead.address.poly, aff_)) {
            // Four bytes every thread of the block reads alike (no %tid
            // term): each warp's byte load is already one broadcast
            // request, so the merge saves three load instructions and adds
            // four extractions. Measured 0.93-0.94x (tile_sum, 2048x2048,
            // three H100 runs), where the block-uniform 8-byte merges paid
            // (the __cosf DCT's row, 1.05-1.06x; the column walk's pair,
            // 1.18x) and thread-varying words did not lose (quad,
            // 1.00-1.11x). Opt-in: --pack-uniform-bytes.
            fail("every thread of a block reads the same 4 bytes (no %tid term): one 4-byte word of bytes "
                 "measured 0.93x (tile_sum); --pack-uniform-bytes merges them");
            continue;
          }
          if (!vectorAlignment(lead.address.poly, aff_, k_, V, [](const analysis::Symbol &) { return 1; }, conds,
                               misalign, &alignWhy)) {
            fail("the first is not provably " + std::to_string(V) + "-byte aligned: " + alignWhy);
            continue;
          }
          if (misalign) {
            fail("the first is " + std::to_string(misalign) + " bytes off a " + std::to_string(V) + "-byte boundary");
            continue;
          }
          std::vector<size_t> stmts;
          for (size_t i : run) stmts.push_back(window[i].stmt);
          if (!ok(stmts)) {
            fail(inPlace ? "the code between them may leave, be entered, write memory or redefine the base"
                         : "a load's register is used between them");
            continue;
          }
          Run r;
          r.inPlace = inPlace;
          for (size_t i : run) {
            taken.insert(i);
            r.loads.push_back(all_.size());
            all_.push_back(window[i]);
          }
          r.bytes = V;
          r.conditions = conds;
          runs_.push_back(std::move(r));
        }
      }
    }
}

bool Packer::movable(const std::vector<size_t> &stmts) const {
    const size_t first = *std::min_element(stmts.begin(), stmts.end());
    std::set<std::string_view> dsts;
    for (size_t at : stmts) {
      std::string_view dst = static_cast<const Instruction &>(*body_[at]).operands[0].text;
      if (!dsts.insert(dst).second) return false;
      for (size_t s = first + 1; s < at; ++s) {
        if (body_[s]->kind != Stmt::Kind::Instruction) continue;
        auto du = analysis::defUse(static_cast<const Instruction &>(*body_[s]));
        for (auto r : du.defs)
          if (r == dst) return false;
        for (auto r : du.uses)
          if (r == dst) return false;
      }
    }
    return true;
}

bool Packer::eligible(size_t i, const Instruction &in, Load &l) const {
    if (!runCandidate(in, types_, l.w, l.reg, l.off)) return false;
    auto it = accessOf_.find(&in);
    if (it == accessOf_.end()) return false;
    l.stmt = i;
    l.a = it->second;
    l.key = std::string(in.opcode);
    return true;
}

void Packer::scanWindows() {
  std::vector<Load> window;
  auto flush = [&] {
    const size_t before = runs_.size();
    findRuns(window, false, [&](const std::vector<size_t> &stmts) { return movable(stmts); });
    dropUniformBesideLoads(before);
    window.clear();
  };
  for (size_t i = 0; i < body_.size(); ++i) {
    const Stmt &s = *body_[i];
    if (s.kind == Stmt::Kind::Label) {
      flush();
      continue;
    }
    if (s.kind != Stmt::Kind::Instruction) continue;
    const auto &in = static_cast<const Instruction &>(s);
    std::string_view base = in.base();
    auto mem = analysis::memAccess(in);
    // (A load with an ordering qualifier, `ld.acquire` or `ld.volatile`,
    // ends the window too: merging the plain loads on either side of it
    // would move one of them across it.)
    bool barrier = analysis::flowOf(in) != analysis::Flow::Next || base == "bra" || base == "ret" ||
                   base == "exit" || base == "call" || base == "bar" || base == "barrier" || base == "membar" ||
                   base == "fence" || (mem && mem->kind != analysis::MemAccess::Kind::Load) ||
                   (mem && !plainMemoryOp(in));
    if (barrier) {
      flush();
      continue;
    }
    // A redefined base register ends the loads that used it.
    auto du = analysis::defUse(in);
    for (auto d : du.defs)
      if (std::any_of(window.begin(), window.end(), [&](const Load &l) { return l.reg == d; })) {
        flush();
        break;
      }
    Load l;
    if (eligible(i, in, l)) window.push_back(l);
  }
  flush();
}

bool Packer::forwardRegion(const std::vector<size_t> &stmts) {
  const size_t a = *std::min_element(stmts.begin(), stmts.end()),
               b = *std::max_element(stmts.begin(), stmts.end());
  std::string reg;
  int64_t off;
  baseAndOffset(static_cast<const Instruction &>(*body_[a]).operands[1], reg, off);
  for (size_t s = a + 1; s < b; ++s) {
    if (body_[s]->kind == Stmt::Kind::Label) {
      for (size_t from : branchesTo_[static_cast<const ir::Label &>(*body_[s]).name])
        if (from <= a || from >= b) return false;
      continue;
    }
    if (body_[s]->kind != Stmt::Kind::Instruction) continue;
    const auto &in = static_cast<const Instruction &>(*body_[s]);
    std::string_view base = in.base();
    if (base == "bra") {
      auto t = labelAt_.find(analysis::branchTarget(in));
      if (t == labelAt_.end() || t->second <= a || t->second >= b) return false;
    } else if (analysis::flowOf(in) != analysis::Flow::Next || base == "call" || base == "bar" ||
               base == "barrier" || base == "membar" || base == "fence" || base == "atom" || base == "red" ||
               base == "brx") {
      return false;
    }
    auto mem = analysis::memAccess(in);
    if (mem && mem->kind != analysis::MemAccess::Kind::Load && mem->space != ".local" && mem->space != ".shared")
      return false;
    if (mem && !plainMemoryOp(in)) return false;  // an ordered load between them (ld.acquire, ld.volatile)
    for (auto d : analysis::defUse(in).defs)
      if (d == reg) return false;
  }
  return true;
}

void Packer::scanAcrossBlocks() {
  // Across blocks: loads left over whose statements in between only branch
  // forward among themselves (inner loops included), are entered only at
  // the earliest load, and neither leave the kernel, write memory a load
  // could see, synchronize nor redefine the base register. Then whenever
  // the earliest load runs, the latest runs too (nvcc's DCT: cosf's
  // branches between the eight pixels of a row).
  std::set<size_t> taken;
  for (const Load &l : all_) taken.insert(l.stmt);
  for (size_t i = 0; i < body_.size(); ++i) {
    if (body_[i]->kind == Stmt::Kind::Label) labelAt_[static_cast<const ir::Label &>(*body_[i]).name] = i;
    if (body_[i]->kind == Stmt::Kind::Instruction) {
      const auto &in = static_cast<const Instruction &>(*body_[i]);
      if (in.base() == "bra") branchesTo_[analysis::branchTarget(in)].push_back(i);
    }
  }
  std::vector<Load> rest;
  for (size_t i = 0; i < body_.size(); ++i) {
    if (body_[i]->kind != Stmt::Kind::Instruction || taken.count(i)) continue;
    Load l;
    if (eligible(i, static_cast<const Instruction &>(*body_[i]), l)) rest.push_back(l);
  }
  const size_t runsBefore = runs_.size(), allBefore = all_.size();
  findRuns(rest, true, [&](const std::vector<size_t> &stmts) { return forwardRegion(stmts); });
  if (!ctx_.options.pack.acrossBlocks && runs_.size() > runsBefore) {
    // Opt-in: the naive DCT measured 0.97x merged (docs/BENCHMARKS.md).
    size_t loads = all_.size() - allBefore;
    ctx_.remark(Remark::Kind::Note, k_, "",
                std::to_string(loads) + " loads in different blocks would merge into " +
                    std::to_string(runs_.size() - runsBefore) +
                    " vector load(s) with --pack-across-blocks (off by default: slower on the naive DCT)");
    runs_.resize(runsBefore);
    all_.resize(allBefore);
    acrossNoted_ = true;
  }
}

bool Packer::planLoopsOrSayWhy() {
  std::set<size_t> busy;
  for (const Load &l : all_) busy.insert(l.stmt);
  const size_t remarksBefore = ctx_.remarks.size();
  loops_ = planLoops(ctx_, k_, fa_, types_, busy);
  const bool loopRemarked = ctx_.remarks.size() != remarksBefore;  // a loop's remark said why already
  if (runs_.empty() && loops_.empty()) {
    // Every refusal says why: the first run that failed, else what is missing.
    if (acrossNoted_ || loopRemarked) return false;
    const std::string who = isClone_ ? "clone " + kname_ + ": " : "";
    if (!firstWhy_.empty())
      ctx_.remark(Remark::Kind::Missed, *original_, firstWhyAt_, who + "not packed: " + firstWhy_);
    else if (sawNeighbours_)
      ctx_.remark(Remark::Kind::Missed, *original_, "", who + kNoRunToPack);
    else if (!isClone_)
      ctx_.remark(Remark::Kind::Missed, *original_, "", kNothingToPack);
    return false;
  }
  return true;
}

std::unique_ptr<ir::Function> Packer::buildClone() {
  // The clone: same statements; each run's first load becomes the vector
  // load and the unpacking, the run's other loads go.
  name_ = kname_ + (isClone_ ? "_pack" : "__ptxopt_pack");
  auto clone = ir::cloneFunction(k_, name_, "_pk", m_);
  auto &cb = clone->body->body;
  Emitter e{m_, {}};
  e.prefix = "%ptxopt_k";
  std::map<size_t, std::vector<std::unique_ptr<Stmt>>> replace;  // stmt index -> new statements
  std::set<size_t> drop;
  for (const Run &r : runs_) {
    const Load &lead = all_[r.loads[0]];
    size_t first = lead.stmt;
    for (size_t i : r.loads) first = std::min(first, all_[i].stmt);
    const auto &leadIn = static_cast<const Instruction &>(*cb[lead.stmt]);
    const std::string type = typeModifier(leadIn);
    const std::vector<std::string> words = emitVectorLoad(m_, e, leadIn, r.bytes / 4);
    bool sign = type.size() > 1 && type[1] == 's';
    auto emitted = [&](size_t at) {
      for (auto &st : e.out) replace[at].push_back(std::move(st));
      e.out.clear();
    };
    if (r.inPlace) emitted(first);  // the vector load; each unpacking where its load was
    for (size_t j = 0; j < r.loads.size(); ++j) {
      const Load &l = all_[r.loads[j]];
      const auto &in = static_cast<const Instruction &>(*cb[l.stmt]);
      std::string dst(in.operands[0].text);
      unsigned bits = types_.bits(dst);
      unsigned byte = static_cast<unsigned>(j) * l.w;
      emitUnpack(e, words, byte, l.w, sign, dst, bits);
      if (r.inPlace) emitted(l.stmt);
      drop.insert(l.stmt);
    }
    // In one window the vector load and all the unpacking go where the
    // run's first load was (that load too is replaced).
    if (!r.inPlace) emitted(first);
    aligned_.insert(aligned_.end(), r.conditions.begin(), r.conditions.end());
    merged_ += static_cast<unsigned>(r.loads.size());
  }
  std::vector<std::unique_ptr<Stmt>> out;
  std::map<size_t, size_t> newIndex;
  for (size_t i = 0; i < cb.size(); ++i) {
    if (auto it = replace.find(i); it != replace.end())
      for (auto &st : it->second) out.push_back(std::move(st));
    if (!drop.count(i)) {
      newIndex[i] = out.size();
      out.push_back(std::move(cb[i]));
    }
  }
  cb = std::move(out);
  // Loops last to first, so that the earlier ones' indexes hold.
  unsigned loadsInLoops = 0;
  for (auto it = loops_.rbegin(); it != loops_.rend(); ++it) {
    unrollLoop(m_, cb, *it, newIndex, types_, e);
    aligned_.insert(aligned_.end(), it->conditions.begin(), it->conditions.end());
    loadsInLoops += static_cast<unsigned>(it->loads.size());
    ctx_.count("loops-unrolled");
  }
  size_t decls = 0;
  while (decls < cb.size() && cb[decls]->kind == Stmt::Kind::Decl) ++decls;
  cb.insert(cb.begin() + static_cast<long>(decls), e.decl(".b32", e.prefix + "r", e.r32));
  if (e.r64) cb.insert(cb.begin() + static_cast<long>(decls), e.decl(".b64", e.prefix + "rd", e.r64));
  if (e.pred) cb.insert(cb.begin() + static_cast<long>(decls), e.decl(".pred", e.prefix + "p", e.pred));
  return clone;
}

void Packer::addVariants(std::unique_ptr<ir::Function> clone) {
  // The launch of the kernel it was made from, plus the runs' conditions.
  auto packed = [&](Variant v) {
    v.name = name_;
    v.pass = "pack";
    v.kind = v.kind == "identity" ? "pack" : v.kind + "+pack";
    for (const auto &c : aligned_) requireAligned(v.alignedParams, c);
    std::sort(v.alignedParams.begin(), v.alignedParams.end(),
              [](const Variant::AlignedParam &a, const Variant::AlignedParam &b) { return a.index < b.index; });
    return v;
  };
  // One variant per variant that launches `k` (a shared clone has
  // several; they share the pack clone); each one inserted moves the
  // later ones down by one.
  Variant v;
  size_t inserted = 0;
  for (size_t idx : isClone_ ? known_.indices : std::vector<size_t>{0}) {
    const size_t at0 = idx + inserted;
    v = packed(isClone_ ? ctx_.entry(*original_).variants[at0] : known_.variant);
    int at = m_.itemIndex(isClone_ ? &k_ : original_);  // k_ may be a flattened copy of the original
    inserted += ctx_.addClone(*original_, std::make_unique<ir::Function>(*clone), v, at,
                             isClone_ ? std::optional<size_t>(at0) : std::nullopt);
  }
  if (!inserted) return;
  std::string conds;
  for (const auto &c : v.alignedParams)
    conds += std::string(conds.empty() ? "" : ", ") + "param " + std::to_string(c.index) + " % " +
             std::to_string(c.bytes) + " == 0";
  std::string what;
  if (!runs_.empty()) what = std::to_string(merged_) + " loads merged into " + std::to_string(runs_.size()) + " vector load(s)";
  for (const auto &lp : loops_)
    what += std::string(what.empty() ? "" : "; ") + "loop at " + (lp.where.empty() ? lp.header : lp.where) +
            " unrolled by " + std::to_string(kUnroll) + ", its " + std::to_string(lp.loads.size()) +
            " short-word load(s) one " + std::to_string(kUnroll * lp.loads[0].w) + "-byte load each per " +
            std::to_string(kUnroll) + " iterations" +
            (lp.nounroll ? " (it carries .pragma \"nounroll\": unrolled on this clone only, to group its loads)" : "");
  ctx_.remark(Remark::Kind::Applied, *original_, "", name_ + ": " + what + "; launch conditions: " + (conds.empty() ? "none" : conds));
  ctx_.count("loads-merged", merged_);
}

/// Whether kernel `k` is worth the scan (a clone the manifest knows, an
/// original without clones that run instead, no nested block, the prescan's
/// verdict), then the scan and the clone (Packer).
void packKernel(PassContext &ctx, ir::Function *k) {
  ctx.count("kernels");
  const std::string kname(k->name);
  auto known = ctx.baseOf(*k);
  if (!known) {
    ctx.remark(Remark::Kind::Missed, *k, "", "not packed: a __ptxopt_ clone the manifest does not list");
    return;
  }
  ir::Function *original = known->original;
  const bool isClone = known->isClone;
  // An original that has clones runs one of them: a pack clone of it
  // would come after them in the manifest and seldom run. Except when
  // every variant has conditions on the arguments (rowwalk's: pointers in
  // different allocations, rows long enough): a launch that fails them
  // would otherwise lose the pack clone that -O2 without rowwalk gave it.
  bool onlyArgumentClones = false;
  if (!isClone && known->variantCount) {
    onlyArgumentClones = true;
    for (const auto &e : ctx.manifest.kernels)
      if (e.kernel == original->name)
        for (const auto &v : e.variants)
          onlyArgumentClones &= !v.disjointParams.empty() || !v.minParams.empty();
  }
  if (!isClone && known->variantCount && !onlyArgumentClones) {
    ctx.count("originals-left-to-clones");
    ctx.remark(Remark::Kind::Note, *k, "", "the original is not packed: its clones run instead (pack tries them)");
    return;
  }
  // An original with nested scopes (cuda_fp16.h's inline asm) is packed
  // from a copy with its scopes flattened (the original stays); a clone of
  // an earlier pass is flat already when that pass flattened it.
  FlatCopy flat(ctx);
  if (hasScopes(*k)) {
    if (isClone) {
      ctx.remark(Remark::Kind::Missed, *k, "", "not packed: it has a nested { } block");
      return;
    }
    if (auto why = flat.make(*k)) {
      ctx.remark(Remark::Kind::Missed, *k, "", "not packed: " + *why);
      return;
    }
    k = flat.get();
  }
  auto &body = k->body->body;
  RegTypes types;
  for (const auto &s : body)
    if (s->kind == Stmt::Kind::Decl && static_cast<const ir::Decl &>(*s).space() == ".reg")
      types.add(static_cast<const ir::Decl &>(*s));
  auto &fa = ctx.analyses.get(*k);
  if (Prescan p = prescan(*k, fa.cfg(), types); p != Prescan::kMaybe) {  // the scan's verdict, without its analyses
    if (p == Prescan::kNoRun)
      ctx.remark(Remark::Kind::Missed, *original, "", (isClone ? "clone " + kname + ": " : "") + kNoRunToPack);
    else if (!isClone)
      ctx.remark(Remark::Kind::Missed, *original, "", kNothingToPack);
    return;
  }
  Packer(ctx, *k, *known, types, fa).run();
}

}  // namespace

void runPack(PassContext &ctx) {
  ir::Module &m = ctx.module;
  // Kernels, and the clones earlier passes made (a pack clone of a clone is
  // that clone plus the loads merged, preferred over it).
  std::vector<ir::Function *> kernels;
  for (auto *k : m.kernels())
    if (k->name.find("_pack") == std::string_view::npos) kernels.push_back(k);
  for (ir::Function *k : kernels) packKernel(ctx, k);
}

}  // namespace ptxopt::transforms
