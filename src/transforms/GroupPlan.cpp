// group, step 1: legality (the overview is in Group.cpp; steps 2 and 3 in
// GroupAccesses.cpp, the planner's class in GroupPlanner.h):
// the body's statements sorted into roles (guards, if-then regions, nested
// blocks, vector accesses), or the reason the kernel cannot be grouped.
#include <algorithm>
#include <cctype>
#include <numeric>
#include <optional>
#include <set>

#include "GroupPlanner.h"

namespace ptxopt::transforms::group {

bool isSpecial(std::string_view r) {
  return r.starts_with("%tid") || r.starts_with("%ntid") || r.starts_with("%ctaid") || r.starts_with("%nctaid") ||
         r.starts_with("%laneid") || r.starts_with("%warpid") || r.starts_with("%smid") || r.starts_with("%clock") ||
         r.starts_with("%globaltimer") || r.starts_with("%envreg") || r.starts_with("%lanemask") ||
         r.starts_with("%nwarpid") || r.starts_with("%nsmid") || r.starts_with("%gridid") ||
         r.starts_with("%dynamic_smem") || r.starts_with("%total_smem") || r.starts_with("%pm") ||
         r.starts_with("%cluster") || r.starts_with("%ncluster") || r.starts_with("%is_explicit") ||
         r.starts_with("%aggr_smem") || r.starts_with("%reserved");
}

namespace {

/// Why nested block `b` cannot be repeated per replica like one instruction
/// ("" when it can): it may hold only .reg declarations of names the body
/// does not declare (each replica's copy is its own scope), directives,
/// nested blocks of the same kind, and instructions that fall through,
/// access no memory and read no special register. Adds its instructions to
/// `instrs`.
std::string scopedBlockWhy(const ir::Block &b, const RegTypes &outer, unsigned &instrs) {
  for (const auto &st : b.body) {
    switch (st->kind) {
    case Stmt::Kind::Label: return "a label";
    case Stmt::Kind::Directive: break;
    case Stmt::Kind::Block:
      if (auto why = scopedBlockWhy(static_cast<const ir::Block &>(*st), outer, instrs); !why.empty()) return why;
      break;
    case Stmt::Kind::Decl: {
      const auto &d = static_cast<const ir::Decl &>(*st);
      if (d.space() != ".reg") return "a " + std::string(d.space()) + " declaration";
      for (const auto &n : d.names) {
        std::string nm(n.name);
        if (!n.dims.empty()) return "a register array";
        if (n.range ? outer.range.count(nm) != 0 : outer.plain.count(nm) != 0 || !outer.type(nm).empty())
          return "a declaration of " + nm + ", which the body declares too";
      }
      break;
    }
    case Stmt::Kind::Instruction: {
      const auto &in = static_cast<const Instruction &>(*st);
      std::string_view base = in.base();
      if (analysis::flowOf(in) != analysis::Flow::Next || base == "bra" || base == "call" || base == "ret" ||
          base == "exit")
        return "control flow (" + std::string(in.opcode) + ")";
      if (analysis::memAccess(in)) return "a memory access (" + std::string(in.opcode) + ")";
      bool special = false;
      for (const auto &o : in.operands)
        analysis::forEachRegister(o, [&](const Operand &r) { special |= isSpecial(r.text); });
      if (special) return "a special register";
      ++instrs;
      break;
    }
    }
  }
  return "";
}

}  // namespace

std::string replicaName(const Plan &p, std::string_view r, unsigned m) {
  std::string s(r);
  if (m == 0 || isSpecial(r)) return s;
  if (p.localNames.count(s)) return s + "_g" + std::to_string(m);
  if (p.regs.plain.count(s)) return s + "_g" + std::to_string(m);
  size_t e = s.size();
  while (e > 0 && std::isdigit(static_cast<unsigned char>(s[e - 1]))) --e;
  if (e < s.size() && p.regs.range.count(s.substr(0, e)))
    return s.substr(0, e) + "_g" + std::to_string(m) + "_" + s.substr(e);
  return s;  // not declared in the body (cannot happen after verification)
}

/// The atomics of `f` that are not communication: `red`, or `atom` whose
/// destination no instruction reads (its result is dead: nvcc 13 writes
/// `atom` with an unused destination for an atomicAdd whose value is
/// ignored), on .global memory, of an operation whose final value does not
/// depend on the order (add, min, max, and, or, xor), without .acquire or
/// .release semantics. No thread observes another's update within the
/// launch, so they are reductions into memory, and running them per logical
/// thread in any interleaving is one of the original's schedules.
std::set<const Stmt *> deadResultAtomics(const ir::Function &f) {
  std::vector<const Instruction *> atomics;
  ir::forEachStmt(*f.body, [&](const Stmt &st) {
    if (st.kind != Stmt::Kind::Instruction) return;
    const auto &in = static_cast<const Instruction &>(st);
    if (in.base() == "atom" || in.base() == "red") atomics.push_back(&in);
  });
  std::set<const Stmt *> out;
  if (atomics.empty()) return out;  // most kernels: no need for the registers read
  // Which of the atomics' destinations some instruction reads.
  std::set<std::string_view> read, dests;
  for (const Instruction *in : atomics)
    if (!in->operands.empty() && in->operands[0].kind == Operand::Kind::Register) dests.insert(in->operands[0].text);
  ir::forEachStmt(*f.body, [&](const Stmt &st) {
    if (st.kind != Stmt::Kind::Instruction || read.size() == dests.size()) return;
    for (auto u : analysis::defUse(static_cast<const Instruction &>(st)).uses)
      if (dests.count(u)) read.insert(u);
  });
  for (const Instruction *in : atomics) {
    auto mem = analysis::memAccess(*in);
    if (!mem || mem->space != ".global") continue;
    bool op = false, ordered = false;
    for (auto mod : in->modifiers()) {
      op |= mod == ".add" || mod == ".min" || mod == ".max" || mod == ".and" || mod == ".or" || mod == ".xor";
      ordered |= mod == ".acquire" || mod == ".release" || mod == ".acq_rel" || mod == ".sc" || mod == ".mmio";
    }
    if (!op || ordered) continue;
    if (in->base() == "atom" &&
        (in->operands.empty() || in->operands[0].kind != Operand::Kind::Register || read.count(in->operands[0].text)))
      continue;
    out.insert(in);
  }
  return out;
}

/// Analyses kernel `f` (the source of the clone); fills `p` or sets p.why.
/// Why predicate `pred`, as read by instruction `at`, is not a bounds
/// condition: the operand of a `setp` behind it (through and/or/xor/not of
/// predicates) that the affine analysis cannot express (loaded, or computed
/// from loaded data), or "" when every such operand is affine. A predicate
/// defined any other way, or on several paths, counts as data.
std::string dataPredWhy(analysis::FunctionAnalyses &fa, uint32_t at, std::string_view pred, int depth = 0) {
  const auto &cfg = fa.cfg();
  auto defs = fa.defs().defsAt(at, pred);
  if (depth > 16 || defs.size() != 1 || defs[0] >= cfg.instructions().size())
    return "predicate " + std::string(pred);
  const Instruction &def = *cfg.instructions()[defs[0]];
  std::string_view base = def.base();
  if (def.guard.empty() && (base == "or" || base == "and" || base == "xor" || base == "not") &&
      def.hasModifier(".pred")) {
    for (size_t i = 1; i < def.operands.size(); ++i) {
      const auto &o = def.operands[i];
      if (o.kind != ir::Operand::Kind::Register) return std::string(def.opcode) + " " + std::string(pred);
      if (std::string why = dataPredWhy(fa, defs[0], o.text, depth + 1); !why.empty()) return why;
    }
    return "";
  }
  if (base != "setp" || !def.guard.empty() || def.operands.size() != 3)
    return std::string(def.opcode) + " " + std::string(pred);
  for (size_t i = 1; i < 3; ++i) {
    analysis::Value v = fa.affine().operandValue(defs[0], def.operands[i]);
    if (!v.known) return std::string(def.operands[i].text) + ": " + v.why;
  }
  return "";
}

std::string dataGuardWhy(analysis::FunctionAnalyses &fa, const Instruction &br) {
  return dataPredWhy(fa, fa.cfg().indexOf(&br), br.guard);
}

bool Planner::refuseCommunication() {
  for (const auto &c : fa_.communication()) {
    if (c.kind == analysis::CommFact::Kind::AtomicOrReduction && deadAtomic(c.stmt)) continue;
    p_.why = "threads communicate (" + std::string(analysis::kindName(c.kind)) + ": " + c.what + ")";
    if (c.kind == analysis::CommFact::Kind::AtomicOrReduction)
      p_.why += "; only atomics whose result is unused (add, min, max, and, or, xor on .global) are not";
    p_.whyAt = c.stmt;
    return false;
  }
  return true;
}

namespace {
/// A slot of `role` for statement `stmt`, the rest as Slot's defaults.
Slot slotOf(Slot::Role role, size_t stmt) {
  Slot s;
  s.role = role;
  s.stmt = stmt;
  return s;
}
}  // namespace

bool Planner::sortStatements() {
  // Register types, and the shape of the body.
  for (size_t i = 0; i < body_.size(); ++i) {
    const Stmt &s = *body_[i];
    switch (s.kind) {
    case Stmt::Kind::Block:
      p_.slots.push_back(slotOf(Slot::Role::Scoped, i));  // checked below, once every declaration is known
      break;
    case Stmt::Kind::Decl: {
      const auto &d = static_cast<const ir::Decl &>(s);
      if (d.space() == ".local") {
        // A per-thread array (a .local depot): private to the logical
        // thread, so each replica gets its own copy (`<name>_g<m>`). Off by
        // default: k copies per hardware thread ran 0.32-0.68x on an H100
        // (gpu-diff `local array` cases, docs/BENCHMARKS.md).
        if (!ctx_.options.group.localArrays) {
          p_.why = "it has a per-thread local array: a copy per logical thread measured 0.32-0.68x "
                   "(--group-local-arrays allows it)";
          return false;
        }
        for (const auto &n : d.names) {
          if (n.range) {
            p_.why = "it declares a parameterized .local variable";
            return false;
          }
          p_.localNames.insert(std::string(n.name));
        }
        p_.slots.push_back(slotOf(Slot::Role::Decl, i));
        break;
      }
      if (d.space() != ".reg") {
        p_.why = "it declares a local variable (" + std::string(d.space()) + ")";
        return false;
      }
      for (const auto &n : d.names) {
        if (!n.dims.empty()) {
          p_.why = "it declares a register array";
          return false;
        }
        (n.range ? p_.regs.range[std::string(n.name)] : p_.regs.plain[std::string(n.name)]) = std::string(d.type());
      }
      p_.slots.push_back(slotOf(Slot::Role::Decl, i));
      break;
    }
    case Stmt::Kind::Directive:
      p_.slots.push_back(slotOf(Slot::Role::Directive, i));
      break;
    case Stmt::Kind::Label:
      p_.slots.push_back(slotOf(Slot::Role::Exit, i));  // checked below: only before the final ret
      break;
    case Stmt::Kind::Instruction:
      p_.slots.push_back(slotOf(Slot::Role::Instr, i));
      break;
    }
  }
  return true;
}

bool Planner::checkNestedBlocks() {
  for (const auto &sl : p_.slots)
    if (sl.role == Slot::Role::Scoped) {
      std::string why = scopedBlockWhy(static_cast<const ir::Block &>(*body_[sl.stmt]), p_.regs, scopedInstrs_);
      if (!why.empty()) {
        p_.why = "it has a nested { } block with " + why;
        p_.whyAt = body_[sl.stmt].get();
        return false;
      }
    }
  return true;
}

bool Planner::findExit() {
  // The exit: trailing labels and one unguarded `ret` (directives between).
  size_t end = p_.slots.size();
  int lastInstr = -1;
  for (size_t i = 0; i < p_.slots.size(); ++i)
    if (p_.slots[i].role == Slot::Role::Instr) lastInstr = static_cast<int>(i);
  if (lastInstr < 0 || instrAt(p_.slots[lastInstr]).opcode != "ret" || !instrAt(p_.slots[lastInstr]).guard.empty()) {
    p_.why = "the body does not end with `ret`";
    return false;
  }
  cut_ = static_cast<size_t>(lastInstr);
  p_.slots[cut_].role = Slot::Role::Exit;
  for (size_t i = cut_; i-- > 0;) {
    if (p_.slots[i].role == Slot::Role::Exit) {
      exitLabels_.insert(static_cast<const ir::Label &>(*body_[p_.slots[i].stmt]).name);
      cut_ = i;
    } else if (p_.slots[i].role == Slot::Role::Directive) {
      continue;
    } else {
      break;
    }
  }
  for (size_t i = cut_; i < end; ++i)
    if (p_.slots[i].role != Slot::Role::Directive) p_.slots[i].role = Slot::Role::Exit;
  return true;
}

size_t Planner::plainArm(size_t j) const {
  for (; j < cut_; ++j) {
    const Slot &t = p_.slots[j];
    if (t.role == Slot::Role::Directive) continue;
    if (t.role == Slot::Role::Scoped) {  // predicated instruction by instruction: none may have a guard
      bool guarded = false;
      ir::forEachStmt(static_cast<const ir::Block &>(*body_[t.stmt]), [&](const Stmt &st) {
        guarded |= st.kind == Stmt::Kind::Instruction && !static_cast<const Instruction &>(st).guard.empty();
      });
      if (guarded) return j;
      continue;
    }
    if (t.role != Slot::Role::Instr) return j;
    const Instruction &x = instrAt(t);
    if (!x.guard.empty() || analysis::flowOf(x) != analysis::Flow::Next || x.base() == "bra" ||
        x.base() == "call" || x.base() == "ret" || x.base() == "exit")
      return j;
  }
  return j;
}

std::string_view Planner::jumpAt(size_t j) {
  if (j >= cut_ || p_.slots[j].role != Slot::Role::Instr) return {};
  const Instruction &x = instrAt(p_.slots[j]);
  if (x.base() != "bra" || !x.guard.empty()) return {};
  std::string_view t = analysis::branchTarget(x);
  return exitLabels_.count(t) || branchesTo_[t] != 1 ? std::string_view() : t;
}

void Planner::findRegions() {
  // If-then and if/else regions, each label the target of one branch alone:
  //   if-then:  `@%p bra L; <plain>; L:` (the arm runs when %p is false)
  //   if/else:  `@%p bra T; <plain>; bra.uni J; T: <plain>; J:`, or nvcc's
  //             `@%p bra T; bra.uni F; T: <plain>; bra.uni J; F: <plain>; J:`
  //             (a value chosen on two paths: border handling)
  //   and `@%p bra L; bra.uni F; F: <plain>; L:` (an if-then behind a jump
  //   to the next label).
  // The fast path predicates each arm's instructions with the branch's
  // guard, negated for the arm that runs when it is not taken (if-conversion:
  // an instruction that does not run leaves its registers as the branch
  // would have, so the other arm reads what it read in the original).
  for (size_t i = 0; i < cut_; ++i)
    if (p_.slots[i].role == Slot::Role::Instr && instrAt(p_.slots[i]).base() == "bra")
      ++branchesTo_[analysis::branchTarget(instrAt(p_.slots[i]))];
  for (size_t i = 0; i < cut_; ++i) {
    if (p_.slots[i].role != Slot::Role::Instr) continue;
    const Instruction &br = instrAt(p_.slots[i]);
    if (br.base() != "bra" || br.guard.empty()) continue;
    std::string_view target = analysis::branchTarget(br);
    if (exitLabels_.count(target) || branchesTo_[target] != 1) continue;
    const size_t bi = i;
    size_t a = skipDirectives(i + 1);
    std::vector<size_t> jumps, labels;  // structure: left out of the fast path, renamed in the slow path
    // `bra.uni F; F:` right after the branch: only a jump to the next label.
    if (std::string_view f = jumpAt(a); !f.empty() && f != target && labelName(skipDirectives(a + 1)) == f) {
      jumps.push_back(a);
      labels.push_back(skipDirectives(a + 1));
      a = skipDirectives(a + 1) + 1;
    }
    bool matched = false, ifElse = false;
    if (std::string_view f = jumpAt(a); jumps.empty() && !f.empty() && f != target &&
                                        labelName(skipDirectives(a + 1)) == target) {
      // `bra.uni F; T: <taken arm>; bra.uni J; F: <other arm>; J:`
      size_t t0 = skipDirectives(a + 1), t1 = plainArm(t0 + 1);
      std::string_view join = jumpAt(t1);
      size_t f0 = skipDirectives(t1 + 1);
      if (!join.empty() && join != f && labelName(f0) == f) {
        size_t f1 = plainArm(f0 + 1);
        if (labelName(f1) == join) {
          jumps.insert(jumps.end(), {a, t1});
          labels.insert(labels.end(), {t0, f0, f1});
          markArm(t0 + 1, t1, bi, true);
          markArm(f0 + 1, f1, bi, false);
          matched = ifElse = true;
          i = f1;
        }
      }
    } else {
      size_t e = plainArm(a);
      if (labelName(e) == target) {  // if-then
        labels.push_back(e);
        markArm(a, e, bi, false);
        matched = true;
        i = e;
      } else if (std::string_view join = jumpAt(e); !join.empty() && join != target &&
                                                    labelName(skipDirectives(e + 1)) == target) {
        // `<arm when not taken>; bra.uni J; T: <taken arm>; J:`
        size_t t0 = skipDirectives(e + 1), t1 = plainArm(t0 + 1);
        if (labelName(t1) == join) {
          jumps.push_back(e);
          labels.insert(labels.end(), {t0, t1});
          markArm(a, e, bi, false);
          markArm(t0 + 1, t1, bi, true);
          matched = ifElse = true;
          i = t1;
        }
      }
    }
    if (!matched) continue;
    // The arms read the branch's predicate as the branch did: none may write it.
    bool writesGuard = false;
    for (size_t t = bi + 1; t <= i; ++t)
      if (p_.slots[t].region == static_cast<int>(bi)) {
        auto check = [&](const Instruction &x) {
          for (auto d : analysis::defUse(x).defs) writesGuard |= d == br.guard;
        };
        if (p_.slots[t].role == Slot::Role::Instr) check(instrAt(p_.slots[t]));
        else if (p_.slots[t].role == Slot::Role::Scoped)
          ir::forEachStmt(static_cast<const ir::Block &>(*body_[p_.slots[t].stmt]), [&](const Stmt &st) {
            if (st.kind == Stmt::Kind::Instruction) check(static_cast<const Instruction &>(st));
          });
      }
    if (writesGuard) {
      for (size_t t = bi + 1; t <= i; ++t) p_.slots[t].region = -1;
      i = bi;
      continue;
    }
    p_.slots[bi].role = Slot::Role::RegionBranch;
    for (size_t j : jumps) p_.slots[j].role = Slot::Role::RegionJump;
    for (size_t j : labels) p_.slots[j].role = Slot::Role::RegionLabel;
    ++(ifElse ? p_.ifElseRegions : p_.regions);
  }
}

bool Planner::findGridStrideLoop() {
  // A grid-stride loop at the end of the main part: `L: <plain>; add i, i,
  // S; setp.lt p, i, n; @p bra L` with nothing after it but the exit, L
  // the target of that branch alone, i written in the loop by the add alone,
  // S and n not at all. Replica m's counter starts at its own logical index
  // and steps by the same S (the step stays in logical-thread units: the
  // clone's %ntid.x is k times the hardware one), so at each iteration the k
  // replicas' elements are adjacent: the fast path runs the iterations all k
  // replicas run together (vector accesses), then each replica its own
  // remaining ones. The alignment proof covers every iteration (the counter
  // is a symbol of the address polynomial).
  size_t latch = cut_;
  while (latch > 0 && p_.slots[latch - 1].role == Slot::Role::Directive) --latch;
  if (latch > 0 && p_.slots[latch - 1].role == Slot::Role::Instr) {
    const size_t li = latch - 1;
    const Instruction &br = instrAt(p_.slots[li]);
    std::string_view target = br.base() == "bra" ? analysis::branchTarget(br) : std::string_view();
    size_t ls = 0;
    bool found = false;
    if (!br.guard.empty() && !target.empty() && !exitLabels_.count(target) && branchesTo_[target] == 1)
      for (size_t j = 0; j < li; ++j)
        if (labelName(j) == target) {
          ls = j;
          found = true;
        }
    if (found) {
      // The body: plain statements only (no regions, guards or labels).
      bool plainBody = plainArm(ls + 1) == li;
      for (size_t j = ls + 1; j < li && plainBody; ++j) plainBody = p_.slots[j].region < 0;
      // The latch: the guard's setp and the counter's add.
      const Instruction *setp = nullptr, *add = nullptr;
      for (size_t j = li; j-- > ls + 1 && plainBody;) {
        if (p_.slots[j].role != Slot::Role::Instr) continue;
        const Instruction &x = instrAt(p_.slots[j]);
        for (auto d : analysis::defUse(x).defs)
          if (!setp && d == br.guard) setp = &x;
      }
      std::string why;
      if (!plainBody) why = "its body is not straight-line code";
      else if (!setp || setp->base() != "setp" || setp->operands.size() != 3 ||
               setp->operands[1].kind != Operand::Kind::Register)
        why = "its latch is not 'setp p, i, n; @p bra'";
      std::string_view iv = why.empty() ? setp->operands[1].text : std::string_view();
      std::string_view bound = why.empty() ? setp->operands[2].text : std::string_view();
      unsigned ivDefs = 0, boundDefs = 0;
      for (size_t j = ls + 1; j < li && why.empty(); ++j) {
        if (p_.slots[j].role != Slot::Role::Instr) continue;
        const Instruction &x = instrAt(p_.slots[j]);
        for (auto d : analysis::defUse(x).defs) {
          if (d == iv) ++ivDefs, add = &x;
          if (d == bound) ++boundDefs;
          if (d == br.guard && &x != setp) why = "its predicate is written twice";
        }
      }
      if (why.empty() && (ivDefs != 1 || boundDefs != 0 || !add || add->base() != "add" || add->operands.size() != 3 ||
                          add->operands[1].text != iv || add->operands[2].kind != Operand::Kind::Register))
        why = "its counter is not updated once by 'add i, i, S' with a loop-invariant S and n";
      std::string_view stepReg = why.empty() ? add->operands[2].text : std::string_view();
      for (size_t j = ls + 1; j < li && why.empty(); ++j)
        if (p_.slots[j].role == Slot::Role::Instr)
          for (auto d : analysis::defUse(instrAt(p_.slots[j])).defs)
            if (d == stepReg) why = "its step is written in the loop";
      if (!why.empty()) {
        p_.why = "it has a loop that is not a grid-stride loop (" + why + ")";
        p_.whyAt = &br;
        return false;
      }
      p_.slots[ls].role = Slot::Role::LoopLabel;
      p_.slots[li].role = Slot::Role::LoopLatch;
      p_.loopLabel = ls;
      p_.loopLatch = li;
    }
  }
  return true;
}

bool Planner::checkMainPart() {
  // The main part: straight-line code, if-then regions and guards to the exit.
  unsigned segment = 0;
  bool storeSeen = false;
  for (size_t i = 0; i < cut_; ++i) {
    Slot &s = p_.slots[i];
    slotOf_[body_[s.stmt].get()] = i;
    if (s.role == Slot::Role::Exit) {
      p_.why = "it has control flow other than bounds guards (label " +
               std::string(static_cast<const ir::Label &>(*body_[s.stmt]).name) + ")";
      p_.whyAt = body_[s.stmt].get();
      return false;
    }
    if (s.role == Slot::Role::RegionBranch || s.role == Slot::Role::RegionLabel || s.role == Slot::Role::RegionJump ||
        s.role == Slot::Role::LoopLabel || s.role == Slot::Role::LoopLatch || s.role == Slot::Role::Scoped)
      s.segment = segment;
    if (s.role != Slot::Role::Instr) continue;
    const Instruction &in = instrAt(s);
    s.segment = segment;
    auto flow = analysis::flowOf(in);
    std::string_view base = in.base();
    if (base == "call") {
      p_.why = "it calls a function";
      p_.whyAt = &in;
      return false;
    }
    bool toExit = (base == "bra" && exitLabels_.count(analysis::branchTarget(in))) || base == "ret" || base == "exit";
    if (flow != analysis::Flow::Next || base == "bra" || base == "ret" || base == "exit") {
      if (!toExit || (in.guard.empty() && base == "bra" && i + 1 != cut_)) {
        p_.why = "it has control flow other than bounds guards (" + std::string(in.opcode) + ")";
        p_.whyAt = &in;
        return false;
      }
      if (in.guard.empty()) {  // `bra EXIT` / `ret` at the end of the main part
        if (i + 1 != cut_) {
          p_.why = "it returns before the end of the body";
          p_.whyAt = &in;
          return false;
        }
        s.role = Slot::Role::Exit;
        continue;
      }
      if (storeSeen) {
        // A late exit (`if (!(c > t)) return;` after a store): when only
        // plain instructions follow it, it is an if-then region whose arm
        // runs to the end (predicated in the fast path; in the slow path the
        // replica skips to the next one). Else the slow path would repeat
        // the store.
        if (!lateExitRegion(i, in)) {
          p_.why = "a store comes before a bounds guard";
          p_.whyAt = &in;
          return false;
        }
        s.role = Slot::Role::RegionBranch;
        s.toExit = true;
        for (size_t j = i + 1; j < cut_; ++j) p_.slots[j].region = static_cast<int>(i);
        ++p_.regions;
        continue;
      }
      // A guard on data (`if (i < n && mask[i])`, a threshold on a loaded
      // value) is no bounds guard: the fast path needs all k logical threads
      // to pass it, which sparse or random data rarely gives, and the slow
      // path runs the k threads one after another. Breadth-first search's
      // frontier update (a bool mask) ran 0.33-0.47x grouped on an H100
      // (docs/results/2026-11-25/family-h100-2026-11-25-before.md). Only guards whose
      // operands the affine analysis can express are bounds guards (a
      // computed scatter target, rotation 1's, is refused too: grouped
      // rotations measured 0.57-0.93x).
      if (std::string why = dataGuardWhy(fa_, in); !why.empty()) {
        p_.why = "a guard is no bounds check on affine indices (" + why +
                 "): the fast path needs all k logical threads to pass it, which nothing proves likely, and the "
                 "per-thread slow path is slower than the original";
        p_.whyAt = &in;
        return false;
      }
      s.role = Slot::Role::Guard;
      ++segment;
      ++p_.guards;
      continue;
    }
    // Special registers the clone cannot give per logical thread.
    for (const auto &o : in.operands) {
      bool bad = false;
      analysis::forEachRegister(o, [&](const Operand &r) {
        bad |= r.text == "%tid" || r.text == "%ntid" || r.text.starts_with("%laneid") || r.text.starts_with("%warpid") ||
               r.text.starts_with("%lanemask");
      });
      if (bad) {
        p_.why = "it reads the thread's vector index, lane or warp id";
        p_.whyAt = &in;
        return false;
      }
    }
    if (deadAtomic(&in)) {  // a reduction into memory: like a store, after the last guard
      storeSeen = true;
      ++p_.atomics;
      continue;
    }
    if (auto mem = analysis::memAccess(in); mem && !plainMemoryOp(in)) {
      p_.why = std::string(in.opcode) + " has an ordering or volatile qualifier (the slow path may repeat it)";
      p_.whyAt = &in;
      return false;
    }
    if (auto mem = analysis::memAccess(in);
        mem && mem->kind == analysis::MemAccess::Kind::Store && !(mem->space == ".local" && !p_.localNames.empty()))
      storeSeen = true;
  }
  return true;
}

bool Planner::lateExitRegion(size_t i, const Instruction &in) {
  bool plainTail = true;
  for (size_t j = i + 1; j < cut_ && plainTail; ++j) {
    const Slot &t = p_.slots[j];
    if (t.role == Slot::Role::Directive) continue;
    if (t.region >= 0 || (t.role != Slot::Role::Instr && t.role != Slot::Role::Scoped)) {
      plainTail = false;
      break;
    }
    if (t.role == Slot::Role::Scoped) {
      ir::forEachStmt(static_cast<const ir::Block &>(*body_[t.stmt]), [&](const Stmt &st) {
        plainTail &= st.kind != Stmt::Kind::Instruction || static_cast<const Instruction &>(st).guard.empty();
      });
      continue;
    }
    const Instruction &x = instrAt(t);
    plainTail = x.guard.empty() && analysis::flowOf(x) == analysis::Flow::Next && x.base() != "bra" &&
                x.base() != "call" && x.base() != "ret" && x.base() != "exit";
  }
  bool writesGuard = false;
  for (size_t j = i + 1; j < cut_ && plainTail; ++j)
    if (p_.slots[j].role == Slot::Role::Instr)
      for (auto d : analysis::defUse(instrAt(p_.slots[j])).defs) writesGuard |= d == in.guard;
  return plainTail && !writesGuard;
}

bool planGroup(PassContext &ctx, ir::Function &f, Plan &p, unsigned forcedK, bool gathers) {
  return Planner(ctx, f, p, forcedK, gathers).run();
}

}  // namespace ptxopt::transforms::group