// reuse: a computation that a kernel repeats with the same inputs runs once;
// the later runs take its results from registers. On a clone of the kernel.
//
// What: nvcc inlines sinf/cosf/sincosf/tanf as a fast path of a few dozen
// instructions and a rarely taken slow path (the Payne-Hanek reduction,
// through a per-thread local array), and it neither removes a repeated call
// with the same argument nor moves one out of a loop: the slow path's
// local-array writes count as side effects. The paper's naive DCT
// evaluates 128 cosines per thread of which 16 differ (two per term of its
// 8 x 8 sum; one of them depends on the outer loop only, the other on the
// inner index only). Each such region of code ("segment") gets a memo on
// the clone: its results in registers and a predicate saying they are
// valid; a run of the segment while the memo is valid copies the results
// and skips the code.
// Why it pays: the naive DCT is compute-bound on today's GPUs (its pixel
// loads are L1 hits shared by the block); the cosines are most of its
// instructions.
// Algorithm:
//  1. Segments. A hammock is a block ending in a conditional branch, its
//     immediate post-dominator J and the blocks laid out between them,
//     entered only from the head and left only to J. A segment is a
//     hammock, extended forward while J heads another hammock whose branch
//     reads (through J's own instructions) a register the segment writes,
//     J having only pure instructions (the polynomial after the argument
//     reduction); and backward over the pure instructions just before the
//     head's branch whose results only the segment reads (the `setp` of the
//     branch, the moves into the join's values). It ends where the last J
//     starts.
//  2. Checks on a segment: no call, return, barrier, fence, atomic,
//     warp-level exchange, indirect branch, carry-flag arithmetic or
//     volatile access; its live-ins (registers read where no write inside
//     reaches on every path: a must-write data flow) are not written inside;
//     its outputs (registers written inside that code outside reads) are
//     written on every path. Loads other than .param, .const and .global.nc
//     and all stores are impure.
//  3. Out of the loop (ReuseHoist.cpp): a segment whose every run is pure
//     (no impure instruction, or cosf's slow path behind a branch that the
//     value ranges of analysis/FloatRange.cpp prove never taken: the
//     argument is thread indices and loop counters times constants) and
//     whose live-ins its
//     loop never writes moves before the loop (the outermost such loop
//     whose header is entered only by falling through), its dead arm
//     dropped. No memo: it runs once per entry of the loop. Then the
//     moved code must round as before: clone::keepContractions
//     (Contraction.cpp) gives `.rn` to a product and sum that the move
//     brought into one stretch of code, so ptxas does not fuse them into an
//     fma the original did not have (found by gpu-diff: 1-ulp differences).
//  4. Classes: segments with the same code (the registers written inside
//     renamed by order of appearance, labels likewise, live-ins by name,
//     `.loc` and `.pragma` ignored). A class pays when two members follow
//     one another with no write of a changing live-in between them, or one
//     lies inside a loop that does not write its live-ins, and its
//     members' shortest pure path (what a reuse saves) has at least
//     kMinInstructions instructions. (Only candidates inside a loop or
//     with the opcodes of another are checked at all: most of a large
//     module's hammocks are neither.)
//  5. The memo: per class a predicate `ok` and one register per output.
//     Each member becomes
//        @ok bra reuse;  <the segment>;  J: saved = outputs;
//        ok = <this run was pure>;  bra cont;  reuse: outputs = saved;
//        cont: <J's code>
//     "This run was pure" is the head branch's predicate when all impure
//     code lies behind one arm of it (cosf's slow path), else a path
//     predicate set at the start and cleared where impure code starts.
//     `ok` is false at the kernel's start and again after every write of a
//     live-in, except for live-ins whose value cannot change: registers
//     with one unguarded pure write from such registers (or from the
//     thread's indices and constants) that dominates every member, and
//     live-ins only a dead arm reads (a member whose slow path the value
//     ranges rule out loses it on the clone, as in step 3).
//     A member needs no code when the one before always leaves `ok` true
//     (its every run is pure, or it has no code itself), every path to it
//     passes that one's join (the blocks between are entered only from
//     before them in layout order, a hammock between counting as one
//     block) and nothing between writes a changing live-in: `ok` holds
//     there on every path, so it is `outputs = saved` alone.
// Why it is exact (the memo; ReuseHoist.cpp says why for step 3): while
// `ok` holds, the last run of a member took a path
// of pure instructions with the live-ins holding the values they hold
// now. Pure instructions compute the same results from the same registers
// and read-only memory, so a run now would take the same path, write the
// same outputs and nothing else; skipping it and copying the outputs gives
// the same registers and memory. A path through an impure instruction
// (the slow path's local array) leaves `ok` false, so the next member runs
// in full as in the original. Nothing is reassociated: the bits are the
// original's.
// Refuses (a remark says which): segments holding a nested `{ }` scope (a
// call sequence: double-precision cos() calls its slow path), kernels whose
// segments do not repeat (kernels without any say nothing).
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "CloneUtil.h"
#include "Pass.h"
#include "Reuse.h"

namespace ptxopt::transforms {

namespace {

using namespace reuse;

/// Registers whose value, once written, never changes: one unguarded pure
/// write from such registers, immediates or symbols (see the overview).
class Stability {
public:
  Stability(const ir::Block &body, const BodyMap &bm) : body_(body), bm_(bm) {}
  bool stable(std::string_view r) {
    if (stableSpecial(r)) return true;
    auto [it, fresh] = state_.emplace(r, 0);
    if (!fresh) return it->second == 2;  // 1 (in progress: a cycle) counts as not stable
    it->second = 1;
    bool ok = false;
    const auto &d = bm_.defs(r);
    if (d.size() == 1 && bm_.purity[d[0]] == Purity::Pure) {  // not a nested scope's (a call's result)
      const auto &in = static_cast<const Instruction &>(*body_.body[d[0]]);
      ok = in.guard.empty() && in.base() != "bra" && !readsVolatileSpecial(in);
      if (ok)
        for (auto u : analysis::defUse(in).uses) ok = ok && stable(u);
    }
    state_[r] = ok ? 2 : 3;
    return ok;
  }

private:
  const ir::Block &body_;
  const BodyMap &bm_;
  std::unordered_map<std::string_view, int, analysis::NameHash> state_;
};

struct Insert {
  size_t at;
  int order;  // at one place: 0 resets, 1 a member's end, 2 a member's start, 3 before an impure instruction
  std::vector<std::unique_ptr<Stmt>> stmts;
};

/// planReuse's steps (the overview's 1-4), one method each: the body's map,
/// the segments, the folds the value ranges decide and the hoists; the
/// segments with the same code, the classes that pay a memo, the longest of
/// nested ones, and the members that need no code.
class Planner {
public:
  Planner(const ir::Function &k, analysis::FunctionAnalyses &fa, KernelPlan &plan)
      : k_(k), fa_(fa), bm_(plan.bm), segs_(plan.segs), hoists_(plan.hoists), plans_(plan.classes),
        gone_(plan.gone), types_(plan.types) {}

  bool run() {
    bm_ = mapBody(*k_.body, fa_.cfg());
    if (!bm_) return false;
    segs_ = findSegments(*k_.body, fa_, *bm_);
    decideFolds(*k_.body, fa_, *bm_, segs_);
    hoists_ = planHoists(*k_.body, fa_, *bm_, segs_);
    Stability stab(*k_.body, *bm_);
    for (const auto &st : k_.body->body)
      if (st->kind == Stmt::Kind::Decl) types_.add(static_cast<const ir::Decl &>(*st));
    for (auto &members : sameCode())
      if (auto p = memoClass(members, stab)) plans_.push_back(std::move(*p));
    keepDisjoint();
    findGone();
    return true;
  }

private:
  /// Classes by canonical text, in order of their first member; the
  /// segments that leave their loop have no memo.
  std::vector<std::vector<size_t>> sameCode() const;
  /// The memo of the class `members`, when it pays.
  std::optional<MemoClass> memoClass(const std::vector<size_t> &members, Stability &stab);
  /// Segments may nest (a whole loop body behind a guard, the polynomial
  /// inside a cosine): the classes with the longest members first, each
  /// taken when none of its members overlaps one taken before.
  void keepDisjoint();
  /// Members that never run: the one before always leaves `ok` true (its
  /// every run is pure, or it never runs itself), every path to them
  /// passes its join (the blocks between are entered only from before
  /// them, in layout order), and nothing between writes a changing input.
  void findGone();

  const ir::Function &k_;
  analysis::FunctionAnalyses &fa_;
  std::optional<BodyMap> &bm_;
  std::vector<Segment> &segs_;
  std::vector<Hoist> &hoists_;
  std::vector<MemoClass> &plans_;
  std::vector<bool> &gone_;
  clone::RegTypes &types_;
};

std::vector<std::vector<size_t>> Planner::sameCode() const {
  std::vector<bool> hoisted(segs_.size(), false);  // or overlapping one that is
  for (const Hoist &h : hoists_)
    for (size_t i = 0; i < segs_.size(); ++i)
      hoisted[i] = hoisted[i] || !(segs_[i].end <= segs_[h.seg].start || segs_[h.seg].end <= segs_[i].start);
  std::map<std::string, std::vector<size_t>> byCanon;
  std::vector<std::vector<size_t>> classes;
  for (size_t i = 0; i < segs_.size(); ++i) {
    if (hoisted[i]) continue;
    auto [it, fresh] = byCanon.emplace(segs_[i].canon, std::vector<size_t>{});
    it->second.push_back(i);
  }
  for (size_t i = 0; i < segs_.size(); ++i) {
    if (hoisted[i]) continue;
    auto &members = byCanon[segs_[i].canon];
    if (members.front() == i) classes.push_back(members);
  }
  return classes;
}

std::optional<MemoClass> Planner::memoClass(const std::vector<size_t> &members, Stability &stab) {
  const auto &dom = fa_.dom();
  const auto &loops = fa_.loops();
  const Segment &s0 = segs_[members.front()];
  if (s0.pureLength < kMinInstructions) return std::nullopt;
  bool typed = true;  // a saved copy needs the output's declared type
  for (unsigned o : s0.outputs) typed = typed && !types_.type(s0.written[o]).empty();
  if (!typed) return std::nullopt;
  MemoClass p{members, {}};
  // Inputs only a dead arm reads do not count (every member's slow
  // path ruled out).
  std::set<std::string_view> read;
  for (size_t mi : members) {
    if (segs_[mi].fold == SIZE_MAX) {
      read.insert(s0.liveIns.begin(), s0.liveIns.end());
      break;
    }
    auto r = liveReads(*k_.body, *bm_, segs_[mi]);
    read.insert(r.begin(), r.end());
  }
  for (auto r : s0.liveIns) {
    if (!read.count(r)) continue;
    bool fixed = stab.stable(r);
    const auto &d = bm_->defs(r);
    if (fixed && !d.empty())
      for (size_t mi : members) {
        const size_t ds = d[0];
        const uint32_t db = bm_->blockOfStmt[ds], hb = segs_[mi].head;
        fixed = fixed && (db == hb ? ds < segs_[mi].start : dom.dominates(db, hb));
      }
    if (!fixed) p.resetOn.insert(r);
  }
  // Two members pay when one can follow the other with no write of a
  // changing input between them (laid out one after the other).
  bool pays = false;
  for (size_t i = 1; i < members.size() && !pays; ++i) {
    const size_t from = segs_[members[i - 1]].end, to = segs_[members[i]].start;
    bool cleared = false;
    for (auto r : p.resetOn)
      for (size_t ds : bm_->defs(r)) cleared = cleared || (ds >= from && ds < to);
    pays = !cleared;
  }
  if (!pays) {
    if (auto l = loops.loopOf(s0.head)) {
      const auto &loop = loops.loops()[*l];
      pays = true;
      for (auto r : p.resetOn) {
        for (size_t ds : bm_->defs(r)) pays = pays && !loop.contains(bm_->blockOfStmt[ds]);
      }
    }
  }
  if (!pays) return std::nullopt;
  return p;
}

void Planner::keepDisjoint() {
  std::stable_sort(plans_.begin(), plans_.end(), [&](const MemoClass &a, const MemoClass &b) {
    return segs_[a.members.front()].pureLength > segs_[b.members.front()].pureLength;
  });
  std::vector<std::pair<size_t, size_t>> taken;
  std::vector<MemoClass> kept;
  for (auto &p : plans_) {
    bool free = true;
    for (size_t mi : p.members)
      for (auto [a, b] : taken) free = free && (segs_[mi].end <= a || segs_[mi].start >= b);
    if (!free) continue;
    for (size_t mi : p.members) taken.push_back({segs_[mi].start, segs_[mi].end});
    kept.push_back(std::move(p));
  }
  plans_ = std::move(kept);
  std::sort(plans_.begin(), plans_.end(), [](const MemoClass &a, const MemoClass &b) { return a.members.front() < b.members.front(); });
}

void Planner::findGone() {
  gone_.assign(segs_.size(), false);
  const auto &B = fa_.cfg().blocks();
  for (auto &p : plans_)
    for (size_t i = 1; i < p.members.size(); ++i) {
      const Segment &a = segs_[p.members[i - 1]], &b = segs_[p.members[i]];
      if (!a.alwaysPure() && !gone_[p.members[i - 1]]) continue;
      const uint32_t ja = bm_->blockOfStmt[a.end];
      bool only = ja <= b.head;
      // The blocks inside a hammock between them are entered from its
      // head only (their own loops included): skipped.
      std::vector<bool> inner(b.head + 1, false);
      for (const Segment &t : segs_) {
        const uint32_t jt = bm_->blockOfStmt[t.end];
        if (t.head >= ja && jt <= b.head)
          for (uint32_t x = t.head + 1; x < jt; ++x) inner[x] = true;
      }
      for (uint32_t x = ja + 1; x <= b.head && only; ++x)
        if (!inner[x])
          for (uint32_t q : B[x].preds) only = only && q >= ja && q < x;
      for (auto r : p.resetOn)
        for (size_t ds : bm_->defs(r)) only = only && !(ds >= a.end && ds < b.start);
      gone_[p.members[i]] = only;
    }
}

/// The clone (the overview's step 5, and the hoists and folds of step 3),
/// one method per part: each class's memo and members, the resets after
/// the writes of changing live-ins, the edits applied to the clone's body,
/// its manifest variant and the remark.
class Cloner {
public:
  Cloner(PassContext &ctx, ir::Function &k, const KernelPlan &plan)
      : ctx_(ctx), m_(ctx.module), k_(k), bm_(*plan.bm), segs_(plan.segs), hoists_(plan.hoists),
        plans_(plan.classes), gone_(plan.gone), types_(plan.types), e_{ctx.module, {}} {}

  void run() {
    c_ = std::make_unique<ir::Function>(k_);
    name_ = std::string(k_.name) + "__ptxopt_reuse";
    c_->name = m_.intern(name_);
    c_->edited = true;
    for (size_t ci = 0; ci < plans_.size(); ++ci) memoClass(ci);
    resets();
    if (!edit()) return;
    addVariant();
  }

private:
  /// Class ci's memo: its predicate and saved registers, and the code around each member.
  void memoClass(size_t ci);
  /// `ok` cleared after each write of a changing live-in.
  void resets();
  /// The inserts, folds, drops and hoists applied to the clone's body; false
  /// (with a remark) when the clone would round differently.
  bool edit();
  void addVariant();

  void declare(const std::string &type, const std::string &reg);
  static std::vector<std::unique_ptr<Stmt>> take(clone::Emitter &x);
  /// Resets after each write of `r` (the original's writes and the moves
  /// that restore another class's outputs).
  void resetsFor(std::string_view r, clone::Emitter &x);
  /// Statements the clone drops: dead arms, members without code.
  bool isDropped(size_t st) const;

  PassContext &ctx_;
  ir::Module &m_;
  ir::Function &k_;
  const BodyMap &bm_;
  const std::vector<Segment> &segs_;
  const std::vector<Hoist> &hoists_;
  const std::vector<MemoClass> &plans_;
  const std::vector<bool> &gone_;
  const clone::RegTypes &types_;
  clone::Emitter e_;
  std::unique_ptr<ir::Function> c_;
  std::string name_;
  std::vector<Insert> inserts_;
  std::vector<std::unique_ptr<ir::Decl>> decls_;
  unsigned members_ = 0, skipped_ = 0;
  std::set<size_t> resetAt_;
  std::vector<size_t> folded_;
};

void Cloner::declare(const std::string &type, const std::string &reg) {
  auto d = std::make_unique<ir::Decl>();
  d->attrs = {".reg", m_.intern(type)};
  d->names.push_back({m_.intern(reg), std::nullopt, {}});
  d->edited = true;
  decls_.push_back(std::move(d));
}

std::vector<std::unique_ptr<Stmt>> Cloner::take(clone::Emitter &x) {
  std::vector<std::unique_ptr<Stmt>> v = std::move(x.out);
  x.out.clear();
  return v;
}

void Cloner::resetsFor(std::string_view r, clone::Emitter &x) {
  for (size_t ci = 0; ci < plans_.size(); ++ci)
    if (plans_[ci].resetOn.count(r)) x.ins("mov.pred", {"%ptxopt_memo_ok" + std::to_string(ci), "0"});
}

bool Cloner::isDropped(size_t st) const {
  for (size_t i = 0; i < segs_.size(); ++i) {
    const Segment &t = segs_[i];
    if (st < t.start || st >= t.end) continue;
    if (gone_[i] || std::binary_search(t.dead.begin(), t.dead.end(), bm_.blockOfStmt[st])) return true;
  }
  return false;
}

void Cloner::memoClass(size_t ci) {
  const std::string ok = "%ptxopt_memo_ok" + std::to_string(ci), path = "%ptxopt_memo_path" + std::to_string(ci);
  declare(".pred", ok);
  if (segs_[plans_[ci].members.front()].pureGuard.empty()) declare(".pred", path);
  const Segment &s0 = segs_[plans_[ci].members.front()];
  std::vector<std::string> saved;
  for (unsigned oi = 0; oi < s0.outputs.size(); ++oi) {
    saved.push_back("%ptxopt_memo_s" + std::to_string(ci) + "_" + std::to_string(oi));
    declare(types_.type(s0.written[s0.outputs[oi]]), saved.back());
  }
  for (auto r : plans_[ci].resetOn) {
    for (size_t ds : bm_.defs(r))
      if (!isDropped(ds)) resetAt_.insert(ds);  // (a write the clone drops needs none)
  }
  for (size_t mi : plans_[ci].members) {
    const Segment &s = segs_[mi];
    const std::string tag = std::to_string(ci) + "_" + std::to_string(mi);
    ++members_;
    if (gone_[mi]) {  // `ok` holds here: the saved values, and no code
      ++skipped_;
      for (unsigned oi = 0; oi < s.outputs.size(); ++oi) {
        std::string_view r = s.written[s.outputs[oi]];
        e_.ins("mov" + types_.type(r), {std::string(r), saved[oi]});
        resetsFor(r, e_);
      }
      inserts_.push_back({s.start, 2, take(e_)});
      continue;
    }
    e_.ins("bra", {"$ptxopt_memo_reuse" + tag}, ok);
    if (s.pureGuard.empty()) e_.ins("mov.pred", {path, "1"});
    inserts_.push_back({s.start, 2, take(e_)});
    for (size_t im : s.marks) {
      e_.ins("mov.pred", {path, "0"});
      inserts_.push_back({im, 3, take(e_)});
    }
    for (unsigned oi = 0; oi < s.outputs.size(); ++oi) {
      std::string_view r = s.written[s.outputs[oi]];
      std::string t = types_.type(r);
      e_.ins("mov" + t, {saved[oi], std::string(r)});
    }
    if (!s.pureGuard.empty()) e_.ins(s.pureNegated ? "not.pred" : "mov.pred", {ok, std::string(s.pureGuard)});
    else if (s.impure.empty()) e_.ins("mov.pred", {ok, "1"});
    else e_.ins("mov.pred", {ok, path});
    e_.ins("bra.uni", {"$ptxopt_memo_cont" + tag});
    e_.label("$ptxopt_memo_reuse" + tag);
    for (unsigned oi = 0; oi < s.outputs.size(); ++oi) {
      std::string_view r = s.written[s.outputs[oi]];
      std::string t = types_.type(r);
      e_.ins("mov" + t, {std::string(r), saved[oi]});
      resetsFor(r, e_);
    }
    e_.label("$ptxopt_memo_cont" + tag);
    inserts_.push_back({s.joinCode, 1, take(e_)});
  }
}

void Cloner::resets() {
  for (size_t ds : resetAt_) {
    auto resetAfter = [&](const Stmt &x) {
      if (x.kind == Stmt::Kind::Instruction)
        for (auto r : analysis::defUse(static_cast<const Instruction &>(x)).defs) resetsFor(r, e_);
    };
    const Stmt &st = *k_.body->body[ds];
    if (st.kind == Stmt::Kind::Block) ir::forEachStmt(static_cast<const ir::Block &>(st), resetAfter);  // a call sequence
    else resetAfter(st);
    inserts_.push_back({ds + 1, 0, take(e_)});
  }
}

bool Cloner::edit() {
  std::sort(inserts_.begin(), inserts_.end(), [](const Insert &a, const Insert &b) {
    return a.at != b.at ? a.at > b.at : a.order > b.order;
  });
  auto &cb = c_->body->body;
  std::unordered_map<const Stmt *, size_t> origIndex;
  for (size_t i = 0; i < cb.size(); ++i) origIndex[cb[i].get()] = i;
  std::vector<size_t> dropped;
  for (const Hoist &h : hoists_)
    if (segs_[h.seg].fold != SIZE_MAX) folded_.push_back(h.seg);
  for (const auto &p : plans_)
    for (size_t mi : p.members) {
      if (gone_[mi]) dropped.push_back(mi);
      else if (segs_[mi].fold != SIZE_MAX) folded_.push_back(mi);
    }
  applyClone(m_, *c_->body, bm_, segs_, hoists_, folded_, dropped, [&] {
    for (auto &ins : inserts_)
      cb.insert(cb.begin() + static_cast<long>(ins.at), std::make_move_iterator(ins.stmts.begin()),
                std::make_move_iterator(ins.stmts.end()));
  });
  // Declarations, and every memo invalid at the start.
  size_t at = clone::prologueAt(*c_->body);
  for (size_t ci = 0; ci < plans_.size(); ++ci) e_.ins("mov.pred", {"%ptxopt_memo_ok" + std::to_string(ci), "0"});
  auto init = take(e_);
  cb.insert(cb.begin() + static_cast<long>(at), std::make_move_iterator(init.begin()), std::make_move_iterator(init.end()));
  cb.insert(cb.begin() + static_cast<long>(at), std::make_move_iterator(decls_.begin()), std::make_move_iterator(decls_.end()));
  if (auto why = clone::keepContractions(m_, *k_.body, *c_->body, origIndex)) {
    ctx_.remark(Remark::Kind::Missed, k_, "", "no reuse: the clone would round differently: " + *why);
    return false;
  }
  return true;
}

void Cloner::addVariant() {
  Variant v;
  v.name = name_;
  v.pass = "reuse";
  v.kind = "reuse";
  int pos = m_.itemIndex(&k_);
  if (!ctx_.addClone(k_, std::move(c_), v, pos)) return;
  ctx_.count("classes", static_cast<double>(plans_.size()));
  ctx_.count("segments", members_);
  ctx_.count("hoisted", static_cast<double>(hoists_.size()));
  ctx_.count("branches-decided", static_cast<double>(folded_.size()));
  ctx_.count("members-without-code", skipped_);
  unsigned hoistFolds = 0;
  for (const Hoist &h : hoists_) hoistFolds += segs_[h.seg].fold != SIZE_MAX;
  std::string what;
  if (!hoists_.empty())
    what = std::to_string(hoists_.size()) + " computation(s) run once before their loop instead of in every iteration (" +
           std::to_string(hoistFolds) + " with a slow path that the value ranges rule out)";
  if (!plans_.empty()) {
    what += (what.empty() ? "" : "; ") + std::to_string(plans_.size()) + " computation(s) in " +
            std::to_string(members_) + " place(s) run once while their inputs are unchanged (" +
            std::to_string(segs_[plans_.front().members.front()].pureLength) +
            " instructions on the first one's shortest pure path)";
    if (folded_.size() > hoistFolds)
      what += ", " + std::to_string(folded_.size() - hoistFolds) + " without their slow path (value ranges)";
    if (skipped_) what += ", " + std::to_string(skipped_) + " of the places reduced to copies of the saved results";
  }
  ctx_.remark(Remark::Kind::Applied, k_, "", name_ + ": " + what + "; launch conditions: none");
}

}  // namespace

bool reuse::planReuse(const ir::Function &k, analysis::FunctionAnalyses &fa, KernelPlan &plan) {
  return Planner(k, fa, plan).run();
}

void runReuse(PassContext &ctx) {
  ir::Module &m = ctx.module;
  for (ir::Function *k : clone::originalKernels(m)) {
    ctx.count("kernels");
    if (!k->body) continue;
    auto &fa = ctx.analyses.get(*k);
    KernelPlan plan;
    if (!planReuse(*k, fa, plan)) {
      ctx.remark(Remark::Kind::Missed, *k, "", "no reuse: a block of its control flow starts inside a nested { } scope");
      continue;
    }
    if (plan.classes.empty() && plan.hoists.empty()) {
      // A kernel without branching regions has nothing to say no to.
      if (!plan.segs.empty())
        ctx.remark(Remark::Kind::Missed, *k, "",
                   "no reuse: no region with a pure path of " + std::to_string(kMinInstructions) +
                       " or more instructions runs again with the same inputs");
      continue;
    }
    Cloner(ctx, *k, plan).run();
  }
}

}  // namespace ptxopt::transforms
