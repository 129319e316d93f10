// The reuse pass, steps 1 and 2 (overview in Reuse.cpp): which
// instructions a segment may hold, the body as blocks of statements, the
// hammocks, their extension into segments, and each segment's checks
// (live-ins, outputs, its shortest pure path, how a run knows it was pure).
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_set>

#include "Reuse.h"
#include "CloneUtil.h"

namespace ptxopt::transforms::reuse {


/// Special registers whose value is the same at every read by a thread.
bool stableSpecial(std::string_view r) {
  for (std::string_view p : {"%tid.", "%ntid.", "%ctaid.", "%nctaid.", "%laneid"})
    if (r.substr(0, p.size()) == p) return true;
  return false;
}

namespace {

/// Special registers that may read differently each time (clocks, the SM a
/// warp runs on, timers, masks of the moment).
bool volatileSpecial(std::string_view r) {
  for (std::string_view p : {"%clock", "%globaltimer", "%smid", "%warpid", "%nsmid", "%nwarpid", "%pm", "%lanemask",
                             "%envreg", "%dynamic_smem", "%total_smem", "%aggr_smem", "%reserved_smem",
                             "%current_graph", "%cluster", "%is_explicit", "%gridid"})
    if (r.substr(0, p.size()) == p) return true;
  return false;
}

}  // namespace

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
  static const std::unordered_set<std::string_view, analysis::NameHash> pure = {
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


std::string Canon::reg(std::string_view r) {
  if (auto a = alias_.find(r); a != alias_.end()) r = a->second;
  if (!written_.count(r)) return std::string(r);
  auto [it, fresh] = regIds_.emplace(r, static_cast<unsigned>(regIds_.size()));
  if (fresh) order.push_back(r);
  return "%D" + std::to_string(it->second);
}

std::string Canon::name(std::string_view l) {
  if (join_.count(l)) return "END";
  auto it = labelIds_.emplace(l, static_cast<unsigned>(labelIds_.size())).first;
  return "L" + std::to_string(it->second);
}

void Canon::operand(const Operand &o) {
  if (o.kind == Operand::Kind::Register) text += reg(o.text);
  else if (o.kind == Operand::Kind::Symbol && (labels_.count(o.text) || join_.count(o.text))) text += name(o.text);
  else text += std::string(o.text);
  text += '(';
  for (const auto &e : o.elems) operand(e);
  text += ')';
}

void Canon::label(std::string_view l) {
  if (labels_.count(l)) text += name(l) + ":\n";
}

void Canon::instruction(const Instruction &in) {
  if (!in.guard.empty()) text += std::string("@") + (in.guardNegated ? "!" : "") + reg(in.guard) + " ";
  text += std::string(in.opcode);
  for (const auto &o : in.operands) {
    text += ' ';
    operand(o);
  }
  text += '\n';
}

std::optional<BodyMap> mapBody(const ir::Block &body, const analysis::CFG &cfg) {
  BodyMap bm;
  bm.body = &body;
  bm.purity.assign(body.body.size(), Purity::Pure);
  bm.instrs = cfg.instructions();
  bool inOrder = true;
  auto add = [&](const Instruction &in, size_t s) {
    inOrder = inOrder && bm.stmtOf.size() < bm.instrs.size() && bm.instrs[bm.stmtOf.size()] == &in;
    bm.stmtOf.push_back(s);
  };
  for (size_t s = 0; s < body.body.size(); ++s) {
    const Stmt &st = *body.body[s];
    if (st.kind == Stmt::Kind::Instruction) {
      add(static_cast<const Instruction &>(st), s);
      bm.purity[s] = classify(static_cast<const Instruction &>(st));
    } else if (st.kind == Stmt::Kind::Block) {
      ir::forEachStmt(static_cast<const ir::Block &>(st), [&](const Stmt &x) {
        if (x.kind == Stmt::Kind::Instruction) add(static_cast<const Instruction &>(x), s);
      });
      bm.purity[s] = Purity::Forbidden;
    }
  }
  if (!inOrder || bm.stmtOf.size() != bm.instrs.size()) return std::nullopt;
  const auto &B = cfg.blocks();
  bm.blockStart.resize(B.size());
  bm.blockOfStmt.assign(body.body.size(), UINT32_MAX);
  for (uint32_t b = 0; b < B.size(); ++b) {
    if (b > 0 && B[b].first != B[b - 1].last) return std::nullopt;
    if (b > 0 && B[b].first < bm.stmtOf.size() && bm.stmtOf[B[b].first] == bm.stmtOf[B[b - 1].last - 1])
      return std::nullopt;  // a block starts inside a nested scope
    bm.blockStart[b] = b == 0 ? 0 : bm.stmtOf[B[b - 1].last - 1] + 1;
  }
  for (uint32_t b = 0; b < B.size(); ++b) {
    size_t e = b + 1 < B.size() ? bm.blockStart[b + 1] : body.body.size();
    for (size_t s = bm.blockStart[b]; s < e; ++s) bm.blockOfStmt[s] = b;
  }
  return bm;
}


namespace {

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

  /// Whether an instruction outside [lo, hi) reads `r`: a scan of every
  /// instruction's uses, listed once per kernel on the first call (kernels
  /// without candidate segments never list them; a large one asks dozens
  /// of times).
  bool readOutside(std::string_view r, size_t lo, size_t hi) {
    if (useBegin_.empty()) {
      useBegin_.reserve(bm_.instrs.size() + 1);
      for (const Instruction *in : bm_.instrs) {
        useBegin_.push_back(uses_.size());
        for (auto u : analysis::defUse(*in).uses) uses_.push_back(u);
      }
      useBegin_.push_back(uses_.size());
    }
    for (size_t i = 0; i < bm_.instrs.size(); ++i) {
      if (bm_.stmtOf[i] >= lo && bm_.stmtOf[i] < hi) continue;
      for (size_t u = useBegin_[i]; u < useBegin_[i + 1]; ++u)
        if (uses_[u] == r) return true;
    }
    return false;
  }
  std::vector<std::string_view> uses_;  // readOutside's list: every instruction's uses, in order
  std::vector<size_t> useBegin_;        // instruction i's: uses_[useBegin_[i] .. useBegin_[i + 1])

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
  size_t absorbBackward(uint32_t h, size_t end) {
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
    pathFlag(seg, jb);
    // A live-in written inside (read before it is written on some path):
    // kept only for decideFolds to check, when the writes may all lie in
    // an impure arm the value ranges rule out (nvcc's last unrolled cosf
    // reduces its argument in place).
    for (auto r : liveIns)
      if (written.count(r)) {
        if (seg.pureGuard.empty()) return false;
        seg.selfWritten.push_back(r);
      }
    // Canonical text; registers written inside by order of appearance.
    std::set<std::string_view> join(B[jb].labels.begin(), B[jb].labels.end());
    Canon canon(written, labels, join);
    for (size_t s = seg.start; s < seg.end; ++s) {
      const Stmt &st = *body_.body[s];
      if (st.kind == Stmt::Kind::Label) {
        canon.label(static_cast<const ir::Label &>(st).name);
      } else if (st.kind == Stmt::Kind::Instruction) {
        const Instruction &in = instr(s);
        canon.instruction(in);
        if (in.base() == "bra") {  // stays inside or goes to J
          std::string_view t = analysis::branchTarget(in);
          if (t.empty() || (!labels.count(t) && !join.count(t))) return false;
        }
      }
    }
    seg.canon = std::move(canon.text);
    seg.written = std::move(canon.order);
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
    for (size_t i = 0; i < bm_.instrs.size(); ++i) {  // the instructions of nested scopes too
      if (bm_.stmtOf[i] >= seg.start && bm_.stmtOf[i] < seg.end) continue;
      for (auto r : analysis::defUse(*bm_.instrs[i]).uses)
        if (written.count(r)) readAfter.insert(r);
    }
    for (unsigned i = 0; i < seg.written.size(); ++i) {
      if (!readAfter.count(seg.written[i])) continue;
      if (!atJoin->count(seg.written[i])) {
        // A live-in written on some paths only: an output only if those
        // paths run (decideFolds keeps the segment only if they never do).
        if (std::find(seg.selfWritten.begin(), seg.selfWritten.end(), seg.written[i]) != seg.selfWritten.end()) continue;
        return false;
      }
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

}  // namespace

std::vector<Segment> findSegments(const ir::Block &body, analysis::FunctionAnalyses &fa, const BodyMap &bm) {
  return SegmentFinder(body, fa, bm).find();
}

}  // namespace ptxopt::transforms::reuse
