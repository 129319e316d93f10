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
//  3. Classes: segments with the same code (the registers written inside
//     renamed by order of appearance, labels likewise, live-ins by name,
//     `.loc` and `.pragma` ignored). A class pays when it has two members,
//     or one inside a loop that does not write its live-ins, and its
//     members' shortest pure path (what a reuse saves) has at least
//     kMinInstructions instructions.
//  4. The memo: per class a predicate `ok`, a path predicate and one
//     register per output. Each member becomes
//        @ok bra reuse;  path = 1;  <the segment, with path = 0 before
//        each impure instruction>;  J: saved = outputs;  ok = path;
//        bra cont;  reuse: outputs = saved;  cont: <J's code>
//     `ok` is false at the kernel's start and again after every write of a
//     live-in, except for live-ins whose value cannot change: registers
//     with one unguarded pure write from such registers (or from the
//     thread's indices and constants) that dominates every member.
// Why it is exact: while `ok` holds, the last run of a member took a path
// of pure instructions with the live-ins holding the values they hold
// now. Pure instructions compute the same results from the same registers
// and read-only memory, so a run now would take the same path, write the
// same outputs and nothing else; skipping it and copying the outputs gives
// the same registers and memory. A path through an impure instruction
// (the slow path's local array) leaves `ok` false, so the next member runs
// in full as in the original. Nothing is reassociated: the bits are the
// original's.
// Refuses (a remark says which): kernels with nested `{ }` scopes (call
// sequences: double-precision cos() calls its slow path) and kernels whose
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
#include "ptxopt/analysis/CFG.h"
#include "ptxopt/analysis/Semantics.h"

namespace ptxopt::transforms {

namespace {

using analysis::BasicBlock;
using ir::Instruction;
using ir::Operand;
using ir::Stmt;

/// Members whose shortest pure path is shorter than this (instructions) are
/// left alone: the memo's branch and moves would cost about what they save.
constexpr unsigned kMinInstructions = 16;

enum class Purity { Pure, Impure, Forbidden };

/// Special registers whose value is the same at every read by a thread.
bool stableSpecial(std::string_view r) {
  for (std::string_view p : {"%tid.", "%ntid.", "%ctaid.", "%nctaid.", "%laneid"})
    if (r.substr(0, p.size()) == p) return true;
  return false;
}

/// Special registers that may read differently each time (clocks, the SM a
/// warp runs on, timers, masks of the moment).
bool volatileSpecial(std::string_view r) {
  for (std::string_view p : {"%clock", "%globaltimer", "%smid", "%warpid", "%nsmid", "%nwarpid", "%pm", "%lanemask",
                             "%envreg", "%dynamic_smem", "%total_smem", "%aggr_smem", "%reserved_smem",
                             "%current_graph", "%cluster", "%is_explicit", "%gridid"})
    if (r.substr(0, p.size()) == p) return true;
  return false;
}

Purity classify(const Instruction &in) {
  const std::string_view b = in.base();
  if (b == "bra") return Purity::Pure;
  if (auto ma = analysis::memAccess(in)) {
    if (!clone::plainMemoryOp(in)) return Purity::Forbidden;
    if (ma->kind == analysis::MemAccess::Kind::Load) {
      if (ma->space == ".param" || ma->space == ".const") return Purity::Pure;
      if (ma->space == ".global" && (in.hasModifier(".nc") || b == "ldu")) return Purity::Pure;
      return Purity::Impure;
    }
    if (ma->kind == analysis::MemAccess::Kind::Store) return Purity::Impure;
    return Purity::Forbidden;  // atomics, reductions, prefetches
  }
  static const std::set<std::string_view> pure = {
      "add",  "sub",  "mul",   "mad",  "mul24", "mad24", "sad",  "div",  "rem",   "abs",   "neg",  "min",
      "max",  "popc", "clz",   "bfind", "fns",  "brev",  "bfe",  "bfi",  "dp4a",  "dp2a",  "and",  "or",
      "xor",  "not",  "cnot",  "lop3", "shf",   "shl",   "shr",  "prmt", "testp", "copysign", "rcp", "sqrt",
      "rsqrt", "sin", "cos",   "lg2",  "ex2",   "tanh",  "fma",  "cvt",  "cvta",  "set",   "setp", "selp",
      "slct", "mov",  "isspacep", "szext", "bmsk"};
  if (!pure.count(b)) return Purity::Forbidden;
  if (in.opcode.find(".cc") != std::string_view::npos) return Purity::Forbidden;  // carry flag
  return Purity::Pure;
}

/// A read of a special register that may change between reads (by mov or
/// cvt, the instructions that read special registers): forbidden in a
/// segment, and not a value that stays the same.
bool readsVolatileSpecial(const Instruction &in) {
  if (in.base() != "mov" && in.base() != "cvt") return false;
  bool special = false;
  for (const auto &o : in.operands) analysis::forEachRegister(o, [&](const Operand &r) { special |= volatileSpecial(r.text); });
  return special;
}

/// One segment (see the overview), in body statement indexes.
struct Segment {
  size_t start = 0, end = 0;  // [start, end): end is J's first statement (its label)
  size_t joinCode = 0;        // J's first statement after its labels
  uint32_t head = 0;          // block holding `start`
  std::string canon;
  std::vector<std::string_view> written;  // registers written inside, by first appearance
  std::vector<std::string_view> liveIns;
  std::vector<unsigned> outputs;  // indexes into `written`
  std::vector<size_t> impure;     // statements
  // How a run knows it took a pure path. When every impure instruction
  // lies behind one arm of the head's branch (an arm entered only from the
  // head: cosf's slow path), the branch's predicate says it: `pureGuard`
  // (negated when `pureNegated`) is true exactly on the other arm. Else
  // `marks`: statements where `path = 0` goes, the first of each block with
  // impure instructions that no other such block dominates.
  std::string_view pureGuard;
  bool pureNegated = false;
  std::vector<size_t> marks;
  unsigned instructions = 0;
  unsigned pureLength = 0;  // instructions on its shortest pure path
};

/// The kernel's body as the CFG sees it, with the statement of each
/// instruction and where each block's statements start.
struct BodyMap {
  std::vector<size_t> stmtOf;      // CFG instruction -> body statement
  std::vector<size_t> blockStart;  // block -> first statement (labels included)
  std::vector<uint32_t> blockOfStmt;
  std::vector<Purity> purity;  // per statement (Pure for labels and directives)
  const ir::Block *body = nullptr;

  /// The statements that write register r, ascending (indexed on first
  /// use: only kernels with segments need it).
  const std::vector<size_t> &defs(std::string_view r) const { return find(defs_, r); }

private:
  using Index = std::unordered_map<std::string_view, std::vector<size_t>, analysis::NameHash>;
  const std::vector<size_t> &find(const Index &m, std::string_view r) const {
    static const std::vector<size_t> none;
    if (!indexed_) {
      indexed_ = true;
      for (size_t s : stmtOf) {
        auto du = analysis::defUse(static_cast<const Instruction &>(*body->body[s]));
        for (auto x : du.defs) defs_[x].push_back(s);
      }
    }
    auto it = m.find(r);
    return it == m.end() ? none : it->second;
  }
  mutable bool indexed_ = false;
  mutable Index defs_;
};

std::optional<BodyMap> mapBody(const ir::Block &body, const analysis::CFG &cfg) {
  BodyMap bm;
  bm.body = &body;
  bm.purity.assign(body.body.size(), Purity::Pure);
  for (size_t s = 0; s < body.body.size(); ++s) {
    const Stmt &st = *body.body[s];
    if (st.kind == Stmt::Kind::Block) return std::nullopt;
    if (st.kind != Stmt::Kind::Instruction) continue;
    const auto &in = static_cast<const Instruction &>(st);
    if (bm.stmtOf.size() >= cfg.instructions().size() || cfg.instructions()[bm.stmtOf.size()] != &in) return std::nullopt;
    bm.stmtOf.push_back(s);
    bm.purity[s] = classify(in);
  }
  if (bm.stmtOf.size() != cfg.instructions().size()) return std::nullopt;
  const auto &B = cfg.blocks();
  bm.blockStart.resize(B.size());
  bm.blockOfStmt.assign(body.body.size(), UINT32_MAX);
  for (uint32_t b = 0; b < B.size(); ++b) {
    if (b > 0 && B[b].first != B[b - 1].last) return std::nullopt;
    bm.blockStart[b] = b == 0 ? 0 : bm.stmtOf[B[b - 1].last - 1] + 1;
  }
  for (uint32_t b = 0; b < B.size(); ++b) {
    size_t e = b + 1 < B.size() ? bm.blockStart[b + 1] : body.body.size();
    for (size_t s = bm.blockStart[b]; s < e; ++s) bm.blockOfStmt[s] = b;
  }
  return bm;
}

class SegmentFinder {
public:
  SegmentFinder(const ir::Block &body, analysis::FunctionAnalyses &fa, const BodyMap &bm)
      : body_(body), cfg_(fa.cfg()), pdom_(fa.postDom()), dom_(fa.dom()), loops_(fa.loops()), bm_(bm) {}

  std::vector<Segment> find() {
    std::vector<Segment> out, candidates;
    std::map<size_t, unsigned> shapes;  // opcode signature -> candidates
    std::vector<size_t> shapeOf;
    const auto &B = cfg_.blocks();
    for (uint32_t h = 0; h < B.size(); ++h) {
      auto j = join(h);
      if (!j) continue;
      const size_t br = bm_.stmtOf[B[h].last - 1];
      if (forbiddenIn(br, bm_.blockStart[*j])) continue;  // more hammocks would not help
      // Forward: through joins that continue the computation (what the
      // hammock's blocks write, not the head's: its earlier instructions
      // are mostly other work).
      while (auto j2 = join(*j)) {
        if (!continues(*j, bm_.blockStart[h + 1])) break;
        j = j2;
      }
      // Cheap checks first (most candidates fail them): nothing forbidden
      // from the head's branch on, and a pure path long enough even with
      // every instruction of the head absorbed.
      if (forbiddenIn(br, bm_.blockStart[*j])) continue;
      auto bound = shortestPure(h, br, *j);
      if (!bound || *bound + (B[h].last - 1 - B[h].first) < kMinInstructions) continue;
      Segment s;
      s.head = h;
      s.end = bm_.blockStart[*j];
      s.start = br;
      // Its opcodes from the branch on: a segment outside loops pays only
      // when another one has the same code.
      size_t sig = 0;
      for (size_t st = br; st < s.end; ++st)
        if (body_.body[st]->kind == Stmt::Kind::Instruction)
          sig = sig * 1000003u + analysis::NameHash{}(instr(st).opcode);
      ++shapes[sig];
      shapeOf.push_back(sig);
      candidates.push_back(std::move(s));
    }
    for (size_t i = 0; i < candidates.size(); ++i) {
      Segment &s = candidates[i];
      if (shapes[shapeOf[i]] < 2 && !loops_.loopOf(s.head)) continue;
      s.joinCode = s.end;
      while (s.joinCode < body_.body.size() && body_.body[s.joinCode]->kind == Stmt::Kind::Label) ++s.joinCode;
      s.start = absorbBackward(s.head, s.end);
      if (analyse(s)) out.push_back(std::move(s));
    }
    return out;
  }

private:
  const Instruction &instr(size_t s) const { return static_cast<const Instruction &>(*body_.body[s]); }

  /// J when block h heads a hammock (see the overview).
  std::optional<uint32_t> join(uint32_t h) const {
    const auto &B = cfg_.blocks();
    if (!B[h].reachable || B[h].last == B[h].first) return std::nullopt;
    const Instruction &br = *cfg_.instructions()[B[h].last - 1];
    if (br.base() != "bra" || br.guard.empty()) return std::nullopt;
    uint32_t j = pdom_.idom(h);
    if (j == analysis::DominatorTree::kNone || j <= h) return std::nullopt;
    for (uint32_t b = h; b < j; ++b) {
      if (!B[b].reachable) return std::nullopt;
      for (uint32_t s : B[b].succs)
        if (s <= h || s > j) return std::nullopt;
      if (b > h)
        for (uint32_t p : B[b].preds)
          if (p < h || p >= j) return std::nullopt;
    }
    for (uint32_t p : B[j].preds)
      if (p < h || p >= j) return std::nullopt;
    return j;
  }

  bool forbiddenIn(size_t from, size_t to) const {
    for (size_t st = from; st < to; ++st)
      if (bm_.purity[st] == Purity::Forbidden || body_.body[st]->kind == Stmt::Kind::Decl) return true;
    return false;
  }

  /// Whether an instruction outside [lo, hi) reads `r` (a scan: the index
  /// of every register is built only for kernels with segments).
  bool readOutside(std::string_view r, size_t lo, size_t hi) const {
    for (size_t s : bm_.stmtOf) {
      if (s >= lo && s < hi) continue;
      for (auto u : analysis::defUse(instr(s)).uses)
        if (u == r) return true;
    }
    return false;
  }

  /// Whether hammock head j continues the segment whose blocks start at
  /// statement `from`: j's instructions are pure and its branch reads,
  /// through them, a register the segment's blocks write.
  bool continues(uint32_t j, size_t from) const {
    const auto &B = cfg_.blocks();
    // What j's branch reads, through j's own instructions, from before j.
    std::vector<std::string_view> sources;
    for (uint32_t i = B[j].last; i-- > B[j].first;) {
      const size_t st = bm_.stmtOf[i];
      if (bm_.purity[st] != Purity::Pure) return false;
      auto du = analysis::defUse(instr(st));
      bool feeds = i + 1 == B[j].last;
      for (auto d : du.defs) {
        auto it = std::find(sources.begin(), sources.end(), d);
        if (it != sources.end()) {
          feeds = true;
          sources.erase(it);
        }
      }
      if (feeds)
        for (auto u : du.uses) sources.push_back(u);
    }
    for (size_t s = from; s < bm_.blockStart[j]; ++s)
      if (body_.body[s]->kind == Stmt::Kind::Instruction)
        for (auto d : analysis::defUse(instr(s)).defs)
          if (std::find(sources.begin(), sources.end(), d) != sources.end()) return true;
    return false;
  }

  /// The first statement of the segment: the pure instructions just before
  /// block h's branch whose results only [that instruction, end) reads.
  size_t absorbBackward(uint32_t h, size_t end) const {
    const auto &B = cfg_.blocks();
    size_t start = bm_.stmtOf[B[h].last - 1];
    const size_t lo = bm_.stmtOf[B[h].first];
    for (size_t s = start; s-- > lo;) {
      const Stmt &st = *body_.body[s];
      if (st.kind == Stmt::Kind::Directive) continue;
      if (st.kind != Stmt::Kind::Instruction || bm_.purity[s] != Purity::Pure) break;
      bool inside = true;
      for (auto r : analysis::defUse(instr(s)).defs) {
        inside = inside && !readOutside(r, s + 1, end);
      }
      if (!inside) break;
      start = s;
    }
    return start;
  }

  /// Checks of the overview's step 2; fills the live-ins, outputs, impure
  /// statements and the canonical text.
  bool analyse(Segment &seg) {
    const auto &B = cfg_.blocks();
    const uint32_t jb = bm_.blockOfStmt[seg.end];
    for (size_t s = seg.start; s < seg.end; ++s) {
      const Stmt &st = *body_.body[s];
      if (st.kind == Stmt::Kind::Decl || bm_.purity[s] == Purity::Forbidden) return false;
      if (st.kind == Stmt::Kind::Instruction && readsVolatileSpecial(instr(s))) return false;
      if (bm_.purity[s] == Purity::Impure) seg.impure.push_back(s);
      seg.instructions += st.kind == Stmt::Kind::Instruction;
    }
    auto pure = shortestPure(seg.head, seg.start, jb);
    if (!pure || *pure < kMinInstructions) return false;
    seg.pureLength = *pure;
    std::set<std::string_view> labels, written;
    for (size_t s = seg.start; s < seg.end; ++s) {
      const Stmt &st = *body_.body[s];
      if (st.kind == Stmt::Kind::Label) labels.insert(static_cast<const ir::Label &>(st).name);
      else if (st.kind == Stmt::Kind::Instruction)
        for (auto r : analysis::defUse(instr(s)).defs) written.insert(r);
    }
    // Must-write data flow over the segment's blocks (preds inside by
    // construction); nullopt: not reached yet (everything written).
    std::map<uint32_t, std::optional<std::set<std::string_view>>> outSet;
    std::set<std::string_view> liveIns;
    auto walk = [&](uint32_t b, bool record) {
      std::optional<std::set<std::string_view>> in;
      if (b == seg.head) in.emplace();
      else
        for (uint32_t p : B[b].preds) {
          auto it = outSet.find(p);
          if (it == outSet.end() || !it->second) continue;
          if (!in) in = it->second;
          else
            for (auto x = in->begin(); x != in->end();) x = it->second->count(*x) ? std::next(x) : in->erase(x);
        }
      if (!in) return false;
      const size_t from = b == seg.head ? seg.start : bm_.blockStart[b];
      const size_t to = b + 1 < B.size() ? bm_.blockStart[b + 1] : body_.body.size();
      for (size_t s = from; s < to; ++s) {
        if (body_.body[s]->kind != Stmt::Kind::Instruction) continue;
        const Instruction &in2 = instr(s);
        auto du = analysis::defUse(in2);
        if (record)
          for (auto r : du.uses)
            if (!in->count(r)) liveIns.insert(r);
        if (in2.guard.empty())
          for (auto r : du.defs) in->insert(r);
      }
      bool changed = !outSet[b] || *outSet[b] != *in;
      outSet[b] = std::move(in);
      return changed;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t b = seg.head; b < jb; ++b) changed |= walk(b, false);
    }
    for (uint32_t b = seg.head; b < jb; ++b) walk(b, true);
    for (auto r : liveIns)
      if (written.count(r)) return false;  // read before it is written on some path, and written inside
    pathFlag(seg, jb);
    // Canonical text; registers written inside by order of appearance.
    std::map<std::string_view, unsigned> regIds, labelIds;
    for (auto l : B[jb].labels) labelIds[l] = UINT32_MAX;
    auto reg = [&](std::string_view r) -> std::string {
      if (!written.count(r)) return std::string(r);
      auto [it, fresh] = regIds.emplace(r, static_cast<unsigned>(regIds.size()));
      if (fresh) seg.written.push_back(r);
      return "%D" + std::to_string(it->second);
    };
    auto label = [&](std::string_view l) -> std::string {
      auto it = labelIds.find(l);
      if (it != labelIds.end() && it->second == UINT32_MAX) return "END";
      if (!labels.count(l)) return "";
      it = labelIds.emplace(l, static_cast<unsigned>(labelIds.size())).first;
      return "L" + std::to_string(it->second);
    };
    std::function<void(const Operand &, std::string &)> op = [&](const Operand &o, std::string &t) {
      if (o.kind == Operand::Kind::Register) t += reg(o.text);
      else if (o.kind == Operand::Kind::Symbol) {
        std::string l = label(o.text);
        t += l.empty() ? std::string(o.text) : l;
      } else t += std::string(o.text);
      t += '(';
      for (const auto &e : o.elems) op(e, t);
      t += ')';
    };
    for (size_t s = seg.start; s < seg.end; ++s) {
      const Stmt &st = *body_.body[s];
      if (st.kind == Stmt::Kind::Label) {
        seg.canon += label(static_cast<const ir::Label &>(st).name) + ":\n";
      } else if (st.kind == Stmt::Kind::Instruction) {
        const Instruction &in = instr(s);
        if (!in.guard.empty()) seg.canon += std::string("@") + (in.guardNegated ? "!" : "") + reg(in.guard) + " ";
        seg.canon += std::string(in.opcode);
        for (const auto &o : in.operands) {
          seg.canon += ' ';
          op(o, seg.canon);
        }
        seg.canon += '\n';
        if (in.base() == "bra") {  // stays inside or goes to J
          std::string_view t = analysis::branchTarget(in);
          if (t.empty() || (!labels.count(t) && labelIds.find(t) == labelIds.end())) return false;
        }
      }
    }
    // No branch from outside into the segment.
    for (size_t s = 0; s < body_.body.size(); ++s) {
      if (s == seg.start) s = seg.end;
      if (s >= body_.body.size()) break;
      if (body_.body[s]->kind == Stmt::Kind::Instruction && labels.count(analysis::branchTarget(instr(s)))) return false;
    }
    // Outputs: written inside, read outside; written on every path.
    std::optional<std::set<std::string_view>> atJoin;
    for (uint32_t p : B[jb].preds) {
      auto &o = outSet[p];
      if (!o) continue;
      if (!atJoin) atJoin = *o;
      else
        for (auto x = atJoin->begin(); x != atJoin->end();) x = o->count(*x) ? std::next(x) : atJoin->erase(x);
    }
    if (!atJoin) return false;
    std::set<std::string_view> readAfter;  // written inside, read outside
    for (size_t s = 0; s < body_.body.size(); ++s) {
      if (s == seg.start) s = seg.end;
      if (s >= body_.body.size()) break;
      if (body_.body[s]->kind == Stmt::Kind::Instruction)
        for (auto r : analysis::defUse(instr(s)).uses)
          if (written.count(r)) readAfter.insert(r);
    }
    for (unsigned i = 0; i < seg.written.size(); ++i) {
      if (!readAfter.count(seg.written[i])) continue;
      if (!atJoin->count(seg.written[i])) return false;
      seg.outputs.push_back(i);
    }
    seg.liveIns.assign(liveIns.begin(), liveIns.end());
    return true;
  }

  /// The instructions on the shortest path of pure instructions from
  /// statement `from` (in block `head`) to block `jb` (Dijkstra over the
  /// blocks between, a block's weight its instructions): what a reuse saves
  /// at least. None: no run could be reused (a kernel's whole body behind
  /// its bounds guard, a loop that stores).
  std::optional<unsigned> shortestPure(uint32_t head, size_t from, uint32_t jb) const {
    const auto &B = cfg_.blocks();
    auto weight = [&](uint32_t b) -> std::optional<unsigned> {
      unsigned n = 0;
      for (size_t s = b == head ? from : bm_.blockStart[b]; s < bm_.blockStart[b + 1]; ++s) {
        if (bm_.purity[s] != Purity::Pure) return std::nullopt;
        n += body_.body[s]->kind == Stmt::Kind::Instruction;
      }
      return n;
    };
    std::map<uint32_t, unsigned> dist;
    std::set<std::pair<unsigned, uint32_t>> work;
    if (auto w = weight(head)) work.insert({*w, head});
    std::optional<unsigned> best;
    while (!work.empty()) {
      auto [d, b] = *work.begin();
      work.erase(work.begin());
      if (dist.count(b)) continue;
      dist[b] = d;
      for (uint32_t x : B[b].succs) {
        if (x == jb) best = best ? std::min(*best, d) : d;
        else if (x > head && x < jb && !dist.count(x))
          if (auto w = weight(x)) work.insert({d + *w, x});
      }
    }
    return best;
  }

  /// Fills the segment's pureGuard or marks (see Segment).
  void pathFlag(Segment &seg, uint32_t jb) const {
    if (seg.impure.empty()) return;
    const auto &B = cfg_.blocks();
    std::set<uint32_t> blocks;
    for (size_t s : seg.impure) blocks.insert(bm_.blockOfStmt[s]);
    const size_t brStmt = bm_.stmtOf[B[seg.head].last - 1];
    const Instruction &br = instr(brStmt);
    const uint32_t fall = seg.head + 1, taken = [&] {
      for (uint32_t x : B[seg.head].succs)
        if (x != fall) return x;
      return fall;
    }();
    bool rewritten = false;  // the guard written again after the branch, inside
    for (size_t s = brStmt + 1; s < seg.end; ++s)
      if (body_.body[s]->kind == Stmt::Kind::Instruction)
        for (auto r : analysis::defUse(instr(s)).defs) rewritten |= r == br.guard;
    for (uint32_t arm : {fall, taken}) {
      if (rewritten || arm == jb || (arm == fall && taken == fall) || B[arm].preds.size() != 1) continue;
      bool behind = true;
      for (uint32_t b : blocks) behind = behind && dom_.dominates(arm, b);
      if (!behind) continue;
      seg.pureGuard = br.guard;
      // The other arm is pure: the taken one when the arm is the fall-through.
      seg.pureNegated = (arm == fall) == br.guardNegated;
      return;
    }
    for (uint32_t b : blocks) {
      bool covered = false;
      for (uint32_t o : blocks) covered = covered || (o != b && dom_.dominates(o, b));
      if (!covered) seg.marks.push_back(bm_.stmtOf[B[b].first]);
    }
  }

  const ir::Block &body_;
  const analysis::CFG &cfg_;
  const analysis::DominatorTree &pdom_, &dom_;
  const analysis::LoopInfo &loops_;
  const BodyMap &bm_;
};

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
    if (d.size() == 1) {
      const auto &in = static_cast<const Instruction &>(*body_.body[d[0]]);
      ok = in.guard.empty() && bm_.purity[d[0]] == Purity::Pure && in.base() != "bra" && !readsVolatileSpecial(in);
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

}  // namespace

void runReuse(PassContext &ctx) {
  ir::Module &m = ctx.module;
  std::vector<ir::Function *> kernels;
  for (auto *k : m.kernels())
    if (k->name.find("__ptxopt_") == std::string_view::npos) kernels.push_back(k);
  for (ir::Function *k : kernels) {
    ctx.count("kernels");
    if (!k->body) continue;
    auto &fa = ctx.analyses.get(*k);
    auto bm = mapBody(*k->body, fa.cfg());
    if (!bm) {
      ctx.remark(Remark::Kind::Missed, *k, "", "no reuse: the body has nested { } scopes");
      continue;
    }
    std::vector<Segment> segs = SegmentFinder(*k->body, fa, *bm).find();
    // Classes by canonical text, in order of their first member.
    std::map<std::string, std::vector<size_t>> byCanon;
    std::vector<std::vector<size_t>> classes;
    for (size_t i = 0; i < segs.size(); ++i) {
      auto [it, fresh] = byCanon.emplace(segs[i].canon, std::vector<size_t>{});
      it->second.push_back(i);
    }
    for (size_t i = 0; i < segs.size(); ++i) {
      auto &members = byCanon[segs[i].canon];
      if (members.front() == i) classes.push_back(members);
    }
    Stability stab(*k->body, *bm);
    const auto &dom = fa.dom();
    const auto &loops = fa.loops();
    struct Plan {
      std::vector<size_t> members;
      std::set<std::string_view> resetOn;  // live-ins whose writes clear `ok`
    };
    std::vector<Plan> plans;
    clone::RegTypes types;
    for (const auto &st : k->body->body)
      if (st->kind == Stmt::Kind::Decl) types.add(static_cast<const ir::Decl &>(*st));
    for (auto &members : classes) {
      const Segment &s0 = segs[members.front()];
      if (s0.pureLength < kMinInstructions) continue;
      bool typed = true;  // a saved copy needs the output's declared type
      for (unsigned o : s0.outputs) typed = typed && !types.type(s0.written[o]).empty();
      if (!typed) continue;
      Plan p{members, {}};
      for (auto r : s0.liveIns) {
        bool fixed = stab.stable(r);
        const auto &d = bm->defs(r);
        if (fixed && !d.empty())
          for (size_t mi : members) {
            const size_t ds = d[0];
            const uint32_t db = bm->blockOfStmt[ds], hb = segs[mi].head;
            fixed = fixed && (db == hb ? ds < segs[mi].start : dom.dominates(db, hb));
          }
        if (!fixed) p.resetOn.insert(r);
      }
      bool pays = members.size() >= 2;
      if (!pays) {
        if (auto l = loops.loopOf(s0.head)) {
          const auto &loop = loops.loops()[*l];
          pays = true;
          for (auto r : p.resetOn) {
            for (size_t ds : bm->defs(r)) pays = pays && !loop.contains(bm->blockOfStmt[ds]);
          }
        }
      }
      if (pays) plans.push_back(std::move(p));
    }
    // Segments may nest (a whole loop body behind a guard, the polynomial
    // inside a cosine): the classes with the longest members first, each
    // taken when none of its members overlaps one taken before.
    std::stable_sort(plans.begin(), plans.end(), [&](const Plan &a, const Plan &b) {
      return segs[a.members.front()].pureLength > segs[b.members.front()].pureLength;
    });
    {
      std::vector<std::pair<size_t, size_t>> taken;
      std::vector<Plan> kept;
      for (auto &p : plans) {
        bool free = true;
        for (size_t mi : p.members)
          for (auto [a, b] : taken) free = free && (segs[mi].end <= a || segs[mi].start >= b);
        if (!free) continue;
        for (size_t mi : p.members) taken.push_back({segs[mi].start, segs[mi].end});
        kept.push_back(std::move(p));
      }
      plans = std::move(kept);
      std::sort(plans.begin(), plans.end(), [](const Plan &a, const Plan &b) { return a.members.front() < b.members.front(); });
    }
    if (plans.empty()) {
      // A kernel without branching regions has nothing to say no to.
      if (!segs.empty())
        ctx.remark(Remark::Kind::Missed, *k, "",
                   "no reuse: no region with a pure path of " + std::to_string(kMinInstructions) +
                       " or more instructions runs again with the same inputs");
      continue;
    }
    // The clone.
    auto c = std::make_unique<ir::Function>(*k);
    const std::string name = std::string(k->name) + "__ptxopt_reuse";
    c->name = m.intern(name);
    c->edited = true;
    clone::Emitter e{m, {}};
    std::vector<Insert> inserts;
    std::vector<std::unique_ptr<ir::Decl>> decls;
    auto declare = [&](const std::string &type, const std::string &reg) {
      auto d = std::make_unique<ir::Decl>();
      d->attrs = {".reg", m.intern(type)};
      d->names.push_back({m.intern(reg), std::nullopt, {}});
      d->edited = true;
      decls.push_back(std::move(d));
    };
    auto take = [&](clone::Emitter &x) {
      std::vector<std::unique_ptr<Stmt>> v = std::move(x.out);
      x.out.clear();
      return v;
    };
    // Resets after each write of `r` (the original's writes and the moves
    // that restore another class's outputs).
    auto resetsFor = [&](std::string_view r, clone::Emitter &x) {
      for (size_t ci = 0; ci < plans.size(); ++ci)
        if (plans[ci].resetOn.count(r)) x.ins("mov.pred", {"%ptxopt_memo_ok" + std::to_string(ci), "0"});
    };
    unsigned reused = 0, members = 0;
    std::set<size_t> resetAt;
    for (size_t ci = 0; ci < plans.size(); ++ci) {
      const std::string ok = "%ptxopt_memo_ok" + std::to_string(ci), path = "%ptxopt_memo_path" + std::to_string(ci);
      declare(".pred", ok);
      if (segs[plans[ci].members.front()].pureGuard.empty()) declare(".pred", path);
      const Segment &s0 = segs[plans[ci].members.front()];
      std::vector<std::string> saved;
      for (unsigned oi = 0; oi < s0.outputs.size(); ++oi) {
        saved.push_back("%ptxopt_memo_s" + std::to_string(ci) + "_" + std::to_string(oi));
        declare(types.type(s0.written[s0.outputs[oi]]), saved.back());
      }
      for (auto r : plans[ci].resetOn) {
        for (size_t ds : bm->defs(r)) resetAt.insert(ds);
      }
      for (size_t mi : plans[ci].members) {
        const Segment &s = segs[mi];
        const std::string tag = std::to_string(ci) + "_" + std::to_string(mi);
        ++members;
        e.ins("bra", {"$ptxopt_memo_reuse" + tag}, ok);
        if (s.pureGuard.empty()) e.ins("mov.pred", {path, "1"});
        inserts.push_back({s.start, 2, take(e)});
        for (size_t im : s.marks) {
          e.ins("mov.pred", {path, "0"});
          inserts.push_back({im, 3, take(e)});
        }
        for (unsigned oi = 0; oi < s.outputs.size(); ++oi) {
          std::string_view r = s.written[s.outputs[oi]];
          std::string t = types.type(r);
          e.ins("mov" + t, {saved[oi], std::string(r)});
        }
        if (!s.pureGuard.empty()) e.ins(s.pureNegated ? "not.pred" : "mov.pred", {ok, std::string(s.pureGuard)});
        else if (s.impure.empty()) e.ins("mov.pred", {ok, "1"});
        else e.ins("mov.pred", {ok, path});
        e.ins("bra.uni", {"$ptxopt_memo_cont" + tag});
        e.label("$ptxopt_memo_reuse" + tag);
        for (unsigned oi = 0; oi < s.outputs.size(); ++oi) {
          std::string_view r = s.written[s.outputs[oi]];
          std::string t = types.type(r);
          e.ins("mov" + t, {std::string(r), saved[oi]});
          resetsFor(r, e);
        }
        e.label("$ptxopt_memo_cont" + tag);
        inserts.push_back({s.joinCode, 1, take(e)});
      }
      reused += static_cast<unsigned>(plans[ci].members.size());
    }
    for (size_t ds : resetAt) {
      const auto &in = static_cast<const Instruction &>(*k->body->body[ds]);
      for (auto r : analysis::defUse(in).defs) resetsFor(r, e);
      inserts.push_back({ds + 1, 0, take(e)});
    }
    std::sort(inserts.begin(), inserts.end(), [](const Insert &a, const Insert &b) {
      return a.at != b.at ? a.at > b.at : a.order > b.order;
    });
    auto &cb = c->body->body;
    for (auto &ins : inserts)
      cb.insert(cb.begin() + static_cast<long>(ins.at), std::make_move_iterator(ins.stmts.begin()),
                std::make_move_iterator(ins.stmts.end()));
    // Declarations, and every memo invalid at the start.
    size_t at = clone::prologueAt(*c->body);
    for (size_t ci = 0; ci < plans.size(); ++ci) e.ins("mov.pred", {"%ptxopt_memo_ok" + std::to_string(ci), "0"});
    auto init = take(e);
    cb.insert(cb.begin() + static_cast<long>(at), std::make_move_iterator(init.begin()), std::make_move_iterator(init.end()));
    cb.insert(cb.begin() + static_cast<long>(at), std::make_move_iterator(decls.begin()), std::make_move_iterator(decls.end()));
    Variant v;
    v.name = name;
    v.pass = "reuse";
    v.kind = "reuse";
    int pos = m.itemIndex(k);
    if (!ctx.addClone(*k, std::move(c), v, pos)) continue;
    ctx.count("classes", static_cast<double>(plans.size()));
    ctx.count("segments", members);
    ctx.remark(Remark::Kind::Applied, *k, "",
               name + ": " + std::to_string(plans.size()) + " computation(s) in " + std::to_string(reused) +
                   " place(s) run once while their inputs are unchanged (" +
                   std::to_string(segs[plans.front().members.front()].pureLength) +
                   " instructions on the first one's shortest pure path); launch conditions: none");
  }
}

}  // namespace ptxopt::transforms
