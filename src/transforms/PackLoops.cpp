// pack, loops: the rolled loops unrolled by 4 so that their short-word
// loads merge (the overview is in Pack.cpp): which loops qualify (the latch
// forms, what the body may do) and the rewrite (the header's test, the four
// copies, the single path). Also the helpers runPack shares with it.
#include <algorithm>

#include "PackLoops.h"

namespace ptxopt::transforms::pack {

bool threadVarying(const analysis::Poly &poly, const analysis::AffineAnalysis &aff) {
  for (const auto &[mono, coeff] : poly.terms())
    for (uint16_t id : mono)
      if (aff.symbols()[id].kind == analysis::Symbol::Kind::Tid) return true;
  return false;
}

/// Emits `nwords` 32-bit words loaded as one vector by `like`'s opcode and
/// address (its type replaced by .b32: `ld.global.nc.u8` -> `ld.global.nc.v2.b32`).
std::vector<std::string> emitVectorLoad(ir::Module &m, Emitter &e, const Instruction &like, unsigned nwords) {
  std::string op(like.base());
  const std::string type = typeModifier(like);
  for (auto mod : like.modifiers())
    if (std::string(mod) != type) op += std::string(mod);
  if (nwords > 1) op += ".v" + std::to_string(nwords);
  op += ".b32";
  std::vector<std::string> words;
  Operand vec{Operand::Kind::Vector, "", {}};
  for (unsigned x = 0; x < nwords; ++x) {
    words.push_back(e.reg32());
    vec.elems.push_back(e.op(words.back()));
  }
  auto ld = std::make_unique<Instruction>();
  ld->opcode = m.intern(op);
  ld->operands = {nwords > 1 ? vec : vec.elems[0], like.operands[1]};
  ld->edited = true;
  e.out.push_back(std::move(ld));
  return words;
}

namespace {

/// An unguarded plain scalar load of `in` into a register, of .global memory
/// (or generic too): its width in bytes, else 0.
unsigned scalarLoadBytes(const Instruction &in, bool generic) {
  auto mem = analysis::memAccess(in);
  if (!mem || mem->kind != analysis::MemAccess::Kind::Load ||
      (mem->space != ".global" && !(generic && mem->space.empty())) || mem->vector != 1 || !in.guard.empty() ||
      !plainMemoryOp(in) || in.operands.size() != 2 || in.operands[0].kind != Operand::Kind::Register)
    return 0;
  return mem->bytes();
}

}  // namespace

bool runCandidate(const Instruction &in, const RegTypes &types, unsigned &w, std::string &reg, int64_t &off) {
  w = scalarLoadBytes(in, true);
  if (w != 1 && w != 2 && w != 4) return false;
  const unsigned dstBits = types.bits(in.operands[0].text);
  if (!(dstBits == 32 || dstBits == 64 || (dstBits == 16 && w < 4))) return false;
  if (!baseAndOffset(in.operands[1], reg, off)) return false;
  return in.operands[0].text != reg;  // it overwrites its own base: later loads see another value
}

bool loopCandidate(const Instruction &in, const RegTypes &types, unsigned &w) {
  w = scalarLoadBytes(in, false);
  const unsigned dstBits = w == 1 || w == 2 ? types.bits(in.operands[0].text) : 0;
  return dstBits == 16 || dstBits == 32 || dstBits == 64;
}

namespace {

bool hasNounroll(const Stmt &s) {
  if (s.kind != Stmt::Kind::Directive) return false;
  const auto &d = static_cast<const ir::Directive &>(s);
  return d.name == ".pragma" && std::any_of(d.tokens.begin(), d.tokens.end(),
                                            [](std::string_view t) { return t.find("nounroll") != std::string_view::npos; });
}

/// planLoops's steps, one method each: the header's short-word loads at
/// unit stride along the counter, the loop as one range of statements, the
/// latch's test and counter, what the body may not do; then the innermost
/// of nested candidates. Each check returns why it refuses ("" when not).
class LoopPlanner {
public:
  LoopPlanner(PassContext &ctx, ir::Function &k, analysis::FunctionAnalyses &fa, const RegTypes &types,
              const std::set<size_t> &busy)
      : ctx_(ctx), k_(k), fa_(fa), types_(types), busy_(busy), body_(k.body->body), cfg_(fa.cfg()),
        aff_(fa.affine()) {
    for (size_t i = 0; i < body_.size(); ++i) {
      if (body_[i]->kind == Stmt::Kind::Label) labelAt_[static_cast<const ir::Label &>(*body_[i]).name] = i;
      if (body_[i]->kind == Stmt::Kind::Instruction) stmtOf_[static_cast<const Instruction *>(body_[i].get())] = i;
    }
    for (const auto &a : fa_.accesses()) accessOf_[cfg_.instructions()[a.instr]] = &a;
  }

  std::vector<LoopPlan> run() {
    std::vector<LoopPlan> plans;
    for (const auto &L : fa_.loops().loops()) {
      LoopPlan plan;
      if (planLoop(L, plan)) plans.push_back(std::move(plan));
    }
    return innermost(plans);
  }

private:
  /// Loop L's plan; false (with a remark when it has loads to merge) when it is not unrolled.
  bool planLoop(const analysis::Loop &L, LoopPlan &plan);
  /// Short-word loads of the header block, unit stride along the counter.
  void headerLoads(const analysis::Loop &L, LoopPlan &plan, std::string &uniformWhere);
  /// One contiguous range: the header's label ... the latch's branch.
  std::string rangeWhy(const analysis::Loop &L, LoopPlan &plan);
  std::string latchWhy(const analysis::Loop &L, LoopPlan &plan);
  std::string bodyWhy(LoopPlan &plan);
  /// Nested candidates: the innermost (shortest) range wins.
  static std::vector<LoopPlan> innermost(std::vector<LoopPlan> &plans);
  const Instruction *instrAt(size_t i) const {
    return body_[i]->kind == Stmt::Kind::Instruction ? static_cast<const Instruction *>(body_[i].get()) : nullptr;
  }

  PassContext &ctx_;
  ir::Function &k_;
  analysis::FunctionAnalyses &fa_;
  const RegTypes &types_;
  const std::set<size_t> &busy_;
  std::vector<std::unique_ptr<Stmt>> &body_;
  const analysis::CFG &cfg_;
  analysis::AffineAnalysis &aff_;
  std::map<std::string_view, size_t> labelAt_;
  std::map<const Instruction *, size_t> stmtOf_;
  std::map<const Instruction *, const AccessInfo *> accessOf_;
};

bool LoopPlanner::planLoop(const analysis::Loop &L, LoopPlan &plan) {
  std::string uniformWhere;  // a byte load left out by the uniform-bytes rule
  headerLoads(L, plan, uniformWhere);
  if (plan.loads.empty()) {
    if (!uniformWhere.empty()) {
      ctx_.remark(Remark::Kind::Missed, k_, uniformWhere,
                  "loop not unrolled: every thread of a block reads the same bytes (no %tid term): one 4-byte "
                  "word of bytes measured 0.93x (tile_sum); --pack-uniform-bytes merges them");
      ctx_.count("loops-refused");
    }
    return false;
  }
  std::string why = rangeWhy(L, plan);
  if (why.empty()) why = latchWhy(L, plan);
  if (why.empty()) why = bodyWhy(plan);
  if (!why.empty()) {
    ctx_.remark(Remark::Kind::Missed, k_, plan.where, "loop not unrolled: " + why);
    ctx_.count("loops-refused");
    return false;
  }
  return true;
}

void LoopPlanner::headerLoads(const analysis::Loop &L, LoopPlan &plan, std::string &uniformWhere) {
  analysis::Symbol cs{analysis::Symbol::Kind::LoopCounter};
  cs.loop = L.id;
  const uint16_t counter = aff_.symbolId(cs);
  // Short-word loads of the header block, unit stride along the counter.
  const auto &hb = cfg_.blocks()[L.header];
  for (uint32_t ii = hb.first; ii < hb.last; ++ii) {
    const Instruction &in = *cfg_.instructions()[ii];
    unsigned w;
    if (!loopCandidate(in, types_, w)) continue;
    auto it = accessOf_.find(&in);
    auto st = stmtOf_.find(&in);
    if (it == accessOf_.end() || st == stmtOf_.end() || busy_.count(st->second) || !it->second->address.known) continue;
    std::string reg;
    int64_t off;
    if (!baseAndOffset(in.operands[1], reg, off) || reg == in.operands[0].text) continue;
    bool unit = false;
    for (const auto &sd : it->second->strides) unit |= sd.symbol == counter && sd.constant && *sd.constant == w;
    if (!unit) continue;
    if (w == 1 && !ctx_.options.pack.uniformBytes && !threadVarying(it->second->address.poly, aff_)) {
      // Four bytes every thread of the block reads alike: see runPack's
      // rule (tile_sum measured 0.93x merged). Said below if no other
      // load of the header makes the loop worth unrolling.
      if (uniformWhere.empty()) uniformWhere = locationOf(ctx_.module, fa_, &in);
      continue;
    }
    std::vector<Variant::AlignedParam> conds;
    int64_t misalign = 0;
    // The unrolled body starts at counters 0, U, 2U, ...: the counter's
    // term counts U times.
    if (!vectorAlignment(it->second->address.poly, aff_, k_, int64_t(kUnroll * w),
                         [&](const analysis::Symbol &sy) { return sy == cs ? int64_t(kUnroll) : int64_t(1); }, conds,
                         misalign) ||
        misalign)
      continue;
    plan.loads.push_back({st->second, w});
    for (const auto &c : conds) requireAligned(plan.conditions, c);
    if (plan.where.empty()) plan.where = locationOf(ctx_.module, fa_, &in);
  }
}

std::string LoopPlanner::rangeWhy(const analysis::Loop &L, LoopPlan &plan) {
  const auto &hb = cfg_.blocks()[L.header];
  if (L.latches.size() != 1) return "it has several back edges";
  const auto &lb = cfg_.blocks()[L.latches[0]];
  const Instruction &br = *cfg_.instructions()[lb.last - 1];
  if (hb.labels.empty() || !labelAt_.count(hb.labels[0]) || !stmtOf_.count(&br)) return "its header has no label";
  plan.header = std::string(hb.labels[0]);
  plan.hs = labelAt_[hb.labels[0]];
  plan.ls = stmtOf_[&br];
  size_t inLoop = 0, total = 0;
  for (uint32_t b : L.blocks) total += cfg_.blocks()[b].last - cfg_.blocks()[b].first;
  bool contiguous = plan.ls > plan.hs + 3;
  for (size_t i = plan.hs + 1; i <= plan.ls && contiguous; ++i)
    if (body_[i]->kind == Stmt::Kind::Instruction) {
      contiguous &= L.contains(cfg_.blockOf(cfg_.indexOf(static_cast<const Instruction *>(body_[i].get()))));
      ++inLoop;
    }
  if (!contiguous || inLoop != total) return "its blocks are not one range of statements";
  return "";
}

std::string LoopPlanner::latchWhy(const analysis::Loop &L, LoopPlan &plan) {
  // The latch: `@p bra header` after `setp.CMP p, iv, n`, the loop's one
  // update of iv an `add iv, iv, s` before the test (the value tested is
  // the next iteration's) or, nvcc's form for a loop that counts down,
  // `add t, iv, s` ... `setp.CMP p, iv, n` ... `mov iv, t` (the value tested
  // is this iteration's). CMP lt, le or ne for s > 0; gt, ge or ne for s < 0.
  const Instruction &br = *cfg_.instructions()[cfg_.blocks()[L.latches[0]].last - 1];
  auto is32 = [](std::string_view t) { return t == ".s32" || t == ".u32" || t == ".b32"; };
  std::string why;
  // The setp: the last instruction before the branch that defines its guard.
  plan.setpAt = 0;
  for (size_t i = plan.ls; i-- > plan.hs + 1 && !plan.setpAt;) {
    const Instruction *x = instrAt(i);
    if (!x) continue;
    for (auto d : analysis::defUse(*x).defs)
      if (d == br.guard) plan.setpAt = i;
  }
  const Instruction *setp = plan.setpAt ? instrAt(plan.setpAt) : nullptr;
  if (br.base() != "bra" || br.guard.empty() || br.guardNegated || analysis::branchTarget(br) != plan.header)
    why = "its back edge is not '@p bra header'";
  else if (!setp || setp->base() != "setp" || setp->operands.size() != 3 || !setp->guard.empty() ||
           setp->modifiers().size() != 2 || !is32(setp->modifiers()[1]) ||
           setp->operands[1].kind != Operand::Kind::Register ||
           !(setp->operands[2].kind == Operand::Kind::Register || setp->operands[2].intValue()))
    why = "its test is not 'setp.CMP.s32/.u32 p, iv, n'";
  if (why.empty()) {
    plan.iv = std::string(setp->operands[1].text);
    plan.bound = std::string(setp->operands[2].text);
    plan.cmp = std::string(setp->modifiers()[0]);
    plan.isUnsigned = setp->modifiers()[1] != ".s32";
    if (auto imm = setp->operands[2].intValue())  // the bound's value as the test reads it
      plan.bound = std::to_string(plan.isUnsigned ? int64_t(uint32_t(*imm)) : int64_t(int32_t(*imm)));
    // The one definition of iv in the loop, and the step.
    std::vector<size_t> defs;
    for (size_t i = plan.hs + 1; i <= plan.ls; ++i)
      if (const Instruction *x = instrAt(i))
        for (auto d : analysis::defUse(*x).defs)
          if (d == plan.iv) defs.push_back(i);
    const Instruction *def = defs.size() == 1 ? instrAt(defs[0]) : nullptr;
    auto stepOf = [&](const Instruction *add, std::string_view from) -> std::optional<int64_t> {
      if (!add || add->base() != "add" || !add->guard.empty() || add->operands.size() != 3 ||
          add->modifiers().size() != 1 || !is32(add->modifiers()[0]) || add->operands[1].text != from ||
          !add->operands[2].intValue())
        return std::nullopt;
      int64_t st = *add->operands[2].intValue();
      if (st == 0 || st >= (1 << 20) || st <= -(1 << 20)) return std::nullopt;
      return st;
    };
    std::optional<int64_t> step;
    if (def && defs[0] < plan.setpAt) {  // add iv, iv, s; setp ...
      step = stepOf(def, plan.iv);
      plan.addAt = defs[0];
      plan.tested = 1;
    } else if (def && defs[0] > plan.setpAt && def->base() == "mov" && def->guard.empty() &&
               def->operands.size() == 2 && def->operands[1].kind == Operand::Kind::Register) {
      // mov iv, t after the test; t = iv + s the one definition of t.
      std::string_view t = def->operands[1].text;
      size_t tdef = 0, tdefs = 0;
      for (size_t i = plan.hs + 1; i <= plan.ls; ++i)
        if (const Instruction *x = instrAt(i))
          for (auto d : analysis::defUse(*x).defs)
            if (d == t) tdef = i, ++tdefs;
      if (tdefs == 1 && tdef < defs[0]) step = stepOf(instrAt(tdef), plan.iv);
      plan.addAt = defs[0];
      plan.tested = 0;
      plan.tempAddAt = tdef;
    }
    // The update runs once per iteration: in the latch's block.
    auto inLatch = [&](size_t i) {
      return cfg_.blockOf(cfg_.indexOf(static_cast<const Instruction *>(body_[i].get()))) == L.latches[0];
    };
    if (step && (!inLatch(plan.addAt) || !inLatch(plan.setpAt) || (plan.tested == 0 && !inLatch(plan.tempAddAt))))
      step.reset();
    if (!step) {
      why = "iv (" + plan.iv + ") is not updated once per iteration by a constant step ('add iv, iv, s', or 'add t, iv, s' and 'mov iv, t' after the test)";
    } else {
      plan.step = *step;
      const std::string &c = plan.cmp;
      bool dirOk = plan.step > 0 ? (c == ".lt" || c == ".le" || c == ".ne" || (c == ".lo" && plan.isUnsigned) ||
                                    (c == ".ls" && plan.isUnsigned))
                                 : (c == ".gt" || c == ".ge" || c == ".ne" || (c == ".hi" && plan.isUnsigned) ||
                                    (c == ".hs" && plan.isUnsigned));
      if (!dirOk)
        why = "its test 'setp" + c + "' does not bound a counter stepping by " + std::to_string(plan.step);
      // The predicate: read by the branch alone.
      for (size_t i = plan.hs + 1; i < plan.ls && why.empty(); ++i)
        if (const Instruction *x = instrAt(i); x && i != plan.setpAt) {
          for (auto u : analysis::defUse(*x).uses)
            if (u == br.guard) why = "its test's predicate is read elsewhere";
          for (auto d : analysis::defUse(*x).defs)
            if (d == br.guard) why = "its test's predicate is written elsewhere";
        }
    }
  }
  return why;
}

std::string LoopPlanner::bodyWhy(LoopPlan &plan) {
  // Nothing else in the loop writes iv or n, jumps to the header, writes
  // memory a load could see, or synchronizes; no label lists.
  std::string why;
  bool inHeader = true;  // before the loop's first instruction
  for (size_t i = plan.hs + 1; i <= plan.ls && why.empty(); ++i) {
    const Stmt &st = *body_[i];
    if (st.kind == Stmt::Kind::Instruction) inHeader = false;
    if (st.kind == Stmt::Kind::Decl || st.kind == Stmt::Kind::Block) why = "it declares something inside";
    if (st.kind == Stmt::Kind::Directive) {
      const auto &d = static_cast<const ir::Directive &>(st);
      if (hasNounroll(st) && inHeader) plan.nounroll = true;
      else if (d.name != ".loc" && d.name != ".pragma") why = "it holds a " + std::string(d.name) + " directive";
    }
    if (st.kind != Stmt::Kind::Instruction) continue;
    const auto &in = static_cast<const Instruction &>(st);
    std::string_view base = in.base();
    auto mem = analysis::memAccess(in);
    if (i < plan.ls && base == "bra" && analysis::branchTarget(in) == plan.header) why = "it jumps to its header";
    if (base == "brx" || base == "call" || base == "bar" || base == "barrier" || base == "membar" ||
        base == "fence" || base == "atom" || base == "red")
      why = "it contains " + std::string(base);
    if (mem && mem->kind != analysis::MemAccess::Kind::Load && mem->space != ".local" && mem->space != ".shared")
      why = "it writes memory a load could read (" + std::string(in.opcode) + ")";
    auto du = analysis::defUse(in);
    for (auto d : du.defs)
      if ((d == plan.iv && i != plan.addAt) || d == plan.bound) why = "it writes " + std::string(d) + " elsewhere";
  }
  return why;
}

std::vector<LoopPlan> LoopPlanner::innermost(std::vector<LoopPlan> &plans) {
  std::stable_sort(plans.begin(), plans.end(),
                   [](const LoopPlan &a, const LoopPlan &b) { return a.ls - a.hs < b.ls - b.hs; });
  std::vector<LoopPlan> chosen;
  for (auto &p : plans) {
    bool overlaps = false;
    for (const auto &q : chosen) overlaps |= !(p.ls < q.hs || q.ls < p.hs);
    if (!overlaps) chosen.push_back(std::move(p));
  }
  std::sort(chosen.begin(), chosen.end(), [](const LoopPlan &a, const LoopPlan &b) { return a.hs < b.hs; });
  return chosen;
}

}  // namespace


/// Loops of `k` that can be unrolled for `pack` (the checks of the
/// overview), with the loads that merge. `busy`: statements already in a
/// straight-line run. Remarks say why a loop with such loads is not unrolled.
std::vector<LoopPlan> planLoops(PassContext &ctx, ir::Function &k, analysis::FunctionAnalyses &fa, const RegTypes &types,
                                const std::set<size_t> &busy) {
  return LoopPlanner(ctx, k, fa, types, busy).run();
}

/// The loop of `p` (body indexes shifted by `at`: new index of each old
/// one) unrolled in `cb`:
///   header:  if fewer than U iterations remain (64-bit, so no wrap-around)
///            go to single;
///            U copies of the body (labels renamed), the first U-1 without
///            the latch test (they are known to run), the first copy's
///            load of each merged group the vector load, every copy's the
///            unpacking of its element; the last copy's latch goes back to
///            the header;  bra exit
///   single:  the original body (one iteration; its latch goes back too)
///   exit:
void unrollLoop(ir::Module &m, std::vector<std::unique_ptr<Stmt>> &cb, const LoopPlan &p,
                const std::map<size_t, size_t> &at, const RegTypes &types, Emitter &e) {
  const size_t hs = at.at(p.hs), ls = at.at(p.ls), setp = at.at(p.setpAt);
  std::map<size_t, const LoopLoad *> loadAt;
  for (const auto &l : p.loads) loadAt[at.at(l.stmt)] = &l;
  std::set<std::string_view> labels;
  for (size_t i = hs + 1; i <= ls; ++i)
    if (cb[i]->kind == Stmt::Kind::Label) labels.insert(static_cast<const ir::Label &>(*cb[i]).name);
  // The clone's labels carry its suffix: the header's name comes from cb.
  const std::string header(static_cast<const ir::Label &>(*cb[hs]).name);
  const std::string single = header + "_ptxopt_single", exit = header + "_ptxopt_exit";
  std::vector<std::unique_ptr<Stmt>> seq;
  auto flushE = [&] {
    for (auto &st : e.out) seq.push_back(std::move(st));
    e.out.clear();
  };
  seq.push_back(std::move(cb[hs]));
  // The latch tests of the first U-1 copies are left out: they all
  // continue when the value the last of them tests, iv + (U-2+tested)*step,
  // still passes the test (the values in between lie between iv and it, so
  // none equals n for .ne, and in 64 bits none wraps around). Computed in
  // 64 bits from iv and n extended by the test's signedness, compared signed.
  const char *ext = p.isUnsigned ? "cvt.s64.u32" : "cvt.s64.s32";
  const std::string cmp = p.step > 0 ? (p.cmp == ".le" || p.cmp == ".ls" ? "setp.le.s64" : "setp.lt.s64")
                                     : (p.cmp == ".ge" || p.cmp == ".hs" ? "setp.ge.s64" : "setp.gt.s64");
  std::string last = e.reg64(), bound = e.reg64(), q = e.regp();
  e.ins(ext, {last, p.iv});
  e.ins("add.s64", {last, last, std::to_string(int64_t(kUnroll - 2 + p.tested) * p.step)});
  if (!p.bound.empty() && p.bound[0] == '%') e.ins(ext, {bound, p.bound});
  else e.ins("mov.b64", {bound, p.bound});
  e.ins(cmp, {q, last, bound});
  e.ins("bra", {single}, "!" + q);
  flushE();
  std::map<const LoopLoad *, std::vector<std::string>> words;
  for (unsigned j = 0; j < kUnroll; ++j) {
    const std::string suffix = "_ptxopt_u" + std::to_string(j);
    for (size_t i = hs + 1; i <= ls; ++i) {
      if (j + 1 < kUnroll && (i == setp || i == ls)) continue;  // the latch test and branch
      if (auto it = loadAt.find(i); it != loadAt.end()) {
        const auto &in = static_cast<const Instruction &>(*cb[i]);
        const LoopLoad &l = *it->second;
        std::string type = typeModifier(in);
        if (j == 0) words[&l] = emitVectorLoad(m, e, in, kUnroll * l.w / 4);
        std::string dst(in.operands[0].text);
        emitUnpack(e, words[&l], j * l.w, l.w, type.size() > 1 && type[1] == 's', dst, types.bits(dst));
        flushE();
        continue;
      }
      auto st = cb[i]->clone();
      if (st->kind == Stmt::Kind::Label) {
        auto &lab = static_cast<ir::Label &>(*st);
        lab.name = m.intern(std::string(lab.name) + suffix);
        lab.edited = true;
      } else if (st->kind == Stmt::Kind::Instruction) {
        auto &in = static_cast<Instruction &>(*st);
        if (in.base() == "bra" && !in.operands.empty() && labels.count(in.operands[0].text)) {
          in.operands[0].text = m.intern(std::string(in.operands[0].text) + suffix);
          in.edited = true;
        }
      }
      seq.push_back(std::move(st));
    }
  }
  e.ins("bra.uni", {exit});
  e.label(single);
  flushE();
  for (size_t i = hs + 1; i <= ls; ++i) seq.push_back(std::move(cb[i]));
  e.label(exit);
  flushE();
  cb.erase(cb.begin() + static_cast<long>(hs), cb.begin() + static_cast<long>(ls) + 1);
  cb.insert(cb.begin() + static_cast<long>(hs), std::make_move_iterator(seq.begin()), std::make_move_iterator(seq.end()));
}

}  // namespace ptxopt::transforms::pack
