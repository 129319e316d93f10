// The reuse pass, step 3 (overview in Reuse.cpp): segments whose every run
// is pure, and those that move out of their loop; and the edits of the
// clone (applyClone).
//
// Every run is pure when the segment holds no impure instruction, or when
// its impure code lies behind one arm of the head's branch (cosf's slow
// path) and the value ranges (analysis/FloatRange.cpp) prove the branch
// never takes that arm (decideFolds): the arguments of the DCT's cosines
// are thread indices and loop counters times constants, below the fast
// path's 105615 for every thread a block can have. On the clone the branch
// becomes unconditional (or goes) and the dead arm is dropped. Such a
// segment may write its own live-ins in the dead arm (nvcc's last unrolled
// cosf reduces its argument in place), and is classed by the code it runs
// (liveCanon).
//
// A segment whose every run is pure and whose live-ins the loop never
// writes computes the same results in every iteration (planHoists); on
// the clone it runs once, before the loop, instead of behind a memo's
// guard in every iteration.
//
// Why this is exact: a pure run reads only registers (and read-only
// memory, not allowed here: see below) and writes only registers. Its
// live-ins hold the same values at the loop's entry as in every iteration
// (nothing in the loop writes them, and the loop is entered only from the
// slot), and every register it writes is written nowhere else, so each
// read of one in the loop sees the value the segment would have written
// there. A loop that runs no iteration, or an iteration that skips the
// segment, gets values it never reads.
// Refuses (the segment stays and may get a memo): a memory access outside
// the dead arm (a speculative load could fault where the loop would not
// have run it; ld.param is allowed), a register written inside that is
// also written outside, a loop whose header is entered from outside other
// than by falling through from the block laid out before it, a join
// outside the loop.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "CloneUtil.h"
#include "Reuse.h"
#include "ptxopt/analysis/FloatRange.h"

namespace ptxopt::transforms::reuse {

namespace {

/// The statement before which code runs once on entering `loop` (the
/// header's first statement), or nullopt.
std::optional<size_t> slotOf(const analysis::Loop &loop, const analysis::CFG &cfg, const BodyMap &bm) {
  const auto &B = cfg.blocks();
  const uint32_t hb = loop.header;
  if (hb == 0) return std::nullopt;
  for (uint32_t p : B[hb].preds)
    if (!loop.contains(p) && p != hb - 1) return std::nullopt;
  if (loop.contains(hb - 1) || B[hb - 1].last == B[hb - 1].first) return std::nullopt;
  const ir::Instruction &t = *bm.instrs[B[hb - 1].last - 1];
  if (t.base() == "bra") {
    std::string_view target = analysis::branchTarget(t);
    if (t.guard.empty()) return std::nullopt;  // does not fall through
    for (auto l : B[hb].labels)
      if (l == target) return std::nullopt;
  }
  return bm.blockStart[hb];
}

}  // namespace

std::set<std::string_view> liveReads(const ir::Block &body, const BodyMap &bm, const Segment &s) {
  std::set<std::string_view> reads;
  for (size_t st = s.start; st < s.end; ++st)
    if (body.body[st]->kind == ir::Stmt::Kind::Instruction &&
        !std::binary_search(s.dead.begin(), s.dead.end(), bm.blockOfStmt[st]))
      for (auto r : analysis::defUse(static_cast<const ir::Instruction &>(*body.body[st])).uses) reads.insert(r);
  return reads;
}

/// The canonical text of what a segment whose dead arm is known runs:
/// its live statements without the decided branch, labels only where a
/// live branch goes, and a `mov` into a register written nowhere else in
/// it (and not an output) from one it does not write read as that source
/// (nvcc's last unrolled cosf reads its argument registers where the others
/// copy them first: the same computation). Its written registers and
/// outputs follow that text.
void liveCanon(const ir::Block &body, const BodyMap &bm, const analysis::CFG &cfg, Segment &s) {
  auto isDead = [&](size_t st) { return std::binary_search(s.dead.begin(), s.dead.end(), bm.blockOfStmt[st]); };
  auto instr = [&](size_t st) -> const ir::Instruction & { return static_cast<const ir::Instruction &>(*body.body[st]); };
  std::vector<size_t> live;
  for (size_t st = s.start; st < s.end; ++st)
    if (!isDead(st) && st != s.fold) live.push_back(st);
  std::map<std::string_view, unsigned> writes;
  std::set<std::string_view> targets;
  for (size_t st : live)
    if (body.body[st]->kind == ir::Stmt::Kind::Instruction) {
      for (auto d : analysis::defUse(instr(st)).defs) ++writes[d];
      if (instr(st).base() == "bra") targets.insert(analysis::branchTarget(instr(st)));
    }
  std::set<std::string_view> outputs;
  for (unsigned o : s.outputs) outputs.insert(s.written[o]);
  std::map<std::string_view, std::string_view> alias;
  std::set<size_t> aliasMovs;
  for (size_t st : live) {
    if (body.body[st]->kind != ir::Stmt::Kind::Instruction) continue;
    const auto &in = instr(st);
    if (in.base() != "mov" || !in.guard.empty() || in.operands.size() != 2 || !in.operands[0].isReg() ||
        !in.operands[1].isReg())
      continue;
    std::string_view d = in.operands[0].text, src = in.operands[1].text;
    if (writes[d] != 1 || outputs.count(d) || writes.count(src)) continue;
    alias[d] = src;
    aliasMovs.insert(st);
  }
  const auto &jl = cfg.blocks()[bm.blockOfStmt[s.end]].labels;
  std::set<std::string_view> written;
  for (const auto &[r, n] : writes) written.insert(r);
  Canon canon(std::move(written), targets, std::set<std::string_view>(jl.begin(), jl.end()), std::move(alias));
  canon.text = "live:\n";
  for (size_t st : live) {
    const ir::Stmt &x = *body.body[st];
    if (x.kind == ir::Stmt::Kind::Label) canon.label(static_cast<const ir::Label &>(x).name);
    else if (x.kind == ir::Stmt::Kind::Instruction && !aliasMovs.count(st)) canon.instruction(instr(st));
  }
  s.canon = std::move(canon.text);
  s.written = std::move(canon.order);
  s.outputs.clear();
  for (unsigned i = 0; i < s.written.size(); ++i)
    if (outputs.count(s.written[i])) s.outputs.push_back(i);
}

void decideFolds(const ir::Block &body, analysis::FunctionAnalyses &fa, const BodyMap &bm, std::vector<Segment> &segs) {
  if (segs.empty()) return;
  const auto &B = fa.cfg().blocks();
  const auto &dom = fa.dom();
  analysis::FloatRanges ranges(fa);
  for (Segment &s : segs) {
    if (s.impure.empty() || s.pureGuard.empty()) continue;
    auto v = ranges.predicate(B[s.head].last - 1, s.pureGuard);  // read by the head's branch
    if (!v || *v != !s.pureNegated) continue;
    const uint32_t jb = bm.blockOfStmt[s.end];
    const size_t br = bm.stmtOf[B[s.head].last - 1];
    const bool taken = *v != static_cast<const ir::Instruction &>(*body.body[br]).guardNegated;
    uint32_t arm = s.head + 1;  // the dead arm: the fall-through when the branch is always taken
    if (!taken)
      for (uint32_t x : B[s.head].succs)
        if (x != s.head + 1) arm = x;
    if (B[arm].preds.size() != 1 || arm == jb) continue;  // entered from the head only
    std::set<uint32_t> dead;
    for (uint32_t b = s.head + 1; b < jb; ++b)
      if (dom.dominates(arm, b)) dead.insert(b);
    bool all = true;
    for (size_t st : s.impure) all = all && dead.count(bm.blockOfStmt[st]);
    if (!all) continue;
    s.fold = br;
    s.foldTaken = taken;
    s.dead.assign(dead.begin(), dead.end());
  }
  // Live-ins written inside: only in the dead arm, or no segment.
  std::vector<Segment> kept;
  for (Segment &s : segs) {
    bool ok = true;
    for (auto r : s.selfWritten)
      for (size_t ds : bm.defs(r))
        ok = ok && (ds < s.start || ds >= s.end || std::binary_search(s.dead.begin(), s.dead.end(), bm.blockOfStmt[ds]));
    ok = ok && (s.selfWritten.empty() || s.fold != SIZE_MAX);
    if (!ok) continue;
    if (s.fold != SIZE_MAX) liveCanon(body, bm, fa.cfg(), s);
    kept.push_back(std::move(s));
  }
  segs = std::move(kept);
}

std::vector<Hoist> planHoists(const ir::Block &body, analysis::FunctionAnalyses &fa, const BodyMap &bm,
                              const std::vector<Segment> &segs) {
  const auto &cfg = fa.cfg();
  const auto &loops = fa.loops();
  std::vector<size_t> order(segs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  // The longest first (segments may nest), each taken when it overlaps none taken.
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return segs[a].end - segs[a].start > segs[b].end - segs[b].start; });
  std::vector<Hoist> out;
  for (size_t i : order) {
    const Segment &s = segs[i];
    const uint32_t jb = bm.blockOfStmt[s.end];
    auto inner = loops.loopOf(s.head);
    if (!inner || !loops.loops()[*inner].contains(jb)) continue;
    bool overlaps = false;
    for (const Hoist &h : out) overlaps = overlaps || !(segs[h.seg].end <= s.start || s.end <= segs[h.seg].start);
    if (overlaps) continue;
    Hoist h;
    h.seg = i;
    // 1. Every run pure.
    if (!s.alwaysPure()) continue;
    std::set<uint32_t> dead(s.dead.begin(), s.dead.end());
    // 2. No memory access where it runs (ld.param aside).
    bool ok = true;
    for (size_t st = s.start; st < s.end && ok; ++st) {
      if (body.body[st]->kind != ir::Stmt::Kind::Instruction || dead.count(bm.blockOfStmt[st])) continue;
      const auto &in = static_cast<const ir::Instruction &>(*body.body[st]);
      if (auto ma = analysis::memAccess(in)) ok = ma->space == ".param" && ma->kind == analysis::MemAccess::Kind::Load;
    }
    // 3. What it writes (outside its dead arm), only it writes.
    for (size_t st = s.start; st < s.end && ok; ++st) {
      if (body.body[st]->kind != ir::Stmt::Kind::Instruction || dead.count(bm.blockOfStmt[st])) continue;
      for (auto r : analysis::defUse(static_cast<const ir::Instruction &>(*body.body[st])).defs)
        for (size_t ds : bm.defs(r)) ok = ok && ds >= s.start && ds < s.end;
    }
    if (!ok) continue;
    // 4. The outermost loop that writes none of its live-ins (those the
    // code outside the dead arm reads) and has a slot.
    const std::set<std::string_view> reads = liveReads(body, bm, s);
    for (auto l = inner; l; l = loops.loops()[*l].parent) {
      const auto &loop = loops.loops()[*l];
      bool invariant = true;
      for (auto r : s.liveIns)
        if (reads.count(r))
          for (size_t ds : bm.defs(r)) invariant = invariant && !loop.contains(bm.blockOfStmt[ds]);
      if (!invariant) break;
      if (auto slot = slotOf(loop, cfg, bm)) {
        h.slot = *slot;
      }
    }
    if (h.slot == SIZE_MAX) continue;
    out.push_back(std::move(h));
  }
  std::sort(out.begin(), out.end(), [&](const Hoist &a, const Hoist &b) { return segs[a.seg].start < segs[b.seg].start; });
  return out;
}

void applyClone(ir::Module &m, ir::Block &clone, const BodyMap &bm, const std::vector<Segment> &segs,
                const std::vector<Hoist> &hoists, const std::vector<size_t> &folded, const std::vector<size_t> &gone,
                const std::function<void()> &edits) {
  // The clone's statements by their index in the original, before `edits`
  // inserts anything.
  auto &cb = clone.body;
  std::set<const ir::Stmt *> drop;                           // dead arms, the members gone
  std::map<const ir::Stmt *, bool> folds;                    // decided branch -> always taken
  for (size_t i : folded) {
    const Segment &s = segs[i];
    folds[cb[s.fold].get()] = s.foldTaken;
    for (size_t st = s.start; st < s.end; ++st)
      if (std::binary_search(s.dead.begin(), s.dead.end(), bm.blockOfStmt[st])) drop.insert(cb[st].get());
  }
  for (size_t i : gone)
    for (size_t st = segs[i].start; st < segs[i].end; ++st) drop.insert(cb[st].get());
  struct Move {
    const ir::Stmt *start, *end, *slot;
  };
  std::vector<Move> moves;
  for (const Hoist &h : hoists) moves.push_back({cb[segs[h.seg].start].get(), cb[segs[h.seg].end].get(), cb[h.slot].get()});
  edits();
  // Decided branches and dropped code (a dropped range's first statement
  // may begin a hoisted one: nothing is dropped from a hoisted segment's
  // start, which is never in a dead arm).
  std::vector<std::unique_ptr<ir::Stmt>> kept;
  for (auto &st : cb) {
    if (drop.count(st.get())) continue;
    if (auto it = folds.find(st.get()); it != folds.end()) {
      if (!it->second) continue;  // never taken: gone
      auto &in = static_cast<ir::Instruction &>(*st);
      in.guard = {};
      in.guardNegated = false;
      in.opcode = m.intern("bra.uni");
      in.edited = true;
    }
    kept.push_back(std::move(st));
  }
  cb = std::move(kept);
  auto indexOf = [&](const ir::Stmt *p) {
    for (size_t i = 0; i < cb.size(); ++i)
      if (cb[i].get() == p) return i;
    return cb.size();
  };
  for (size_t k = 0; k < moves.size(); ++k) {
    const Move &p = moves[k];
    const std::string endLabel = "$ptxopt_hoist_end" + std::to_string(k);
    std::set<std::string_view> joinLabels;
    for (size_t i = indexOf(p.end); i < cb.size() && cb[i]->kind == ir::Stmt::Kind::Label; ++i)
      joinLabels.insert(static_cast<const ir::Label &>(*cb[i]).name);
    const size_t i0 = indexOf(p.start), i1 = indexOf(p.end);
    std::vector<std::unique_ptr<ir::Stmt>> moved;
    for (size_t i = i0; i < i1; ++i) {
      if (cb[i]->kind == ir::Stmt::Kind::Instruction) {
        auto &in = static_cast<ir::Instruction &>(*cb[i]);
        if (in.base() == "bra" && !in.operands.empty() && joinLabels.count(in.operands[0].text)) {
          in.operands[0].text = m.intern(endLabel);
          in.edited = true;
        }
      }
      moved.push_back(std::move(cb[i]));
    }
    clone::Emitter e{m, {}};
    e.label(endLabel);
    moved.push_back(std::move(e.out.front()));
    cb.erase(cb.begin() + static_cast<long>(i0), cb.begin() + static_cast<long>(i1));
    const size_t at = indexOf(p.slot);
    cb.insert(cb.begin() + static_cast<long>(at), std::make_move_iterator(moved.begin()),
              std::make_move_iterator(moved.end()));
  }
}

}  // namespace ptxopt::transforms::reuse
