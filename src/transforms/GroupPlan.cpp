// group, step 1-3: legality, k and alignment (the overview is in Group.cpp):
// the body's statements sorted into roles (guards, if-then regions, nested
// blocks, vector accesses), or the reason the kernel cannot be grouped.
#include <algorithm>
#include <cctype>
#include <numeric>
#include <optional>
#include <set>

#include "GroupPlan.h"

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

namespace {

/// planGroup's steps (Group.cpp's steps 1-3), one method each, in order:
/// each refuses by setting p.why (and p.whyAt) and returning false.
class Planner {
public:
  Planner(PassContext &ctx, ir::Function &f, Plan &p, unsigned forcedK, bool gathers)
      : ctx_(ctx), f_(f), fa_(ctx.analyses.get(f)), p_(p), body_(f.body->body), forcedK_(forcedK), gathers_(gathers) {}

  bool run() {
    if (!refuseCommunication() || !sortStatements() || !checkNestedBlocks() || !findExit()) return false;
    findRegions();
    if (!findGridStrideLoop() || !checkMainPart() || !classifyAccesses() || !chooseK() || !checkAlignment())
      return false;
  std::sort(p_.aligned.begin(), p_.aligned.end(),
            [](const Variant::AlignedParam &a, const Variant::AlignedParam &b) { return a.index < b.index; });
  return true;
  }

private:
  /// Step 1: threads that communicate (atomics with an unused result aside).
  bool refuseCommunication();
  /// Step 1: register types, and each statement of the body as a slot.
  bool sortStatements();
  /// Step 1: nested `{ }` blocks hold only plain arithmetic.
  bool checkNestedBlocks();
  /// Step 1: the exit (trailing labels and one unguarded `ret`) and `cut_`.
  bool findExit();
  /// Step 1: if-then and if/else regions.
  void findRegions();
  /// Step 1: a grid-stride loop at the end of the main part.
  bool findGridStrideLoop();
  /// Step 1: the main part: straight-line code, regions and guards.
  bool checkMainPart();
  /// Whether the guarded exit at slot i (after a store) can be a region to the end.
  bool lateExitRegion(size_t i, const Instruction &in);
  /// Step 1: every access unit-stride along %tid.x, independent of it, or a gather.
  bool classifyAccesses();
  bool classifyAccess(const AccessInfo &a);
  /// The instructions of its arm that compute the address of region load `in` at slot `at`.
  bool addressSlice(size_t at, const Instruction &in);
  /// Step 2: k.
  bool chooseK();
  /// Step 3: alignment of replica 0's addresses, and the registers the unpacking needs.
  bool checkAlignment();
  bool checkAlignment(size_t slotIndex, const AccessInfo *a);

  // Built when first needed: most kernels of a large module are refused by
  // a barrier or shared memory before an atomic is looked at.
  bool deadAtomic(const Stmt *st) {
    if (!deadAtomicsOnce_) deadAtomicsOnce_ = deadResultAtomics(f_);
    return deadAtomicsOnce_->count(st) > 0;
  }
  const Instruction &instrAt(const Slot &s) const { return static_cast<const Instruction &>(*body_[s.stmt]); }
  std::string_view labelName(size_t j) const {
    return j < cut_ && p_.slots[j].role == Slot::Role::Exit && body_[p_.slots[j].stmt]->kind == Stmt::Kind::Label
               ? static_cast<const ir::Label &>(*body_[p_.slots[j].stmt]).name
               : std::string_view();
  }
  size_t skipDirectives(size_t j) const {
    while (j < cut_ && p_.slots[j].role == Slot::Role::Directive) ++j;
    return j;
  }
  /// The end of a run of plain statements from j (the first slot that is not one).
  size_t plainArm(size_t j) const;
  /// An unguarded jump at slot j to a label only it targets: that label, else "".
  std::string_view jumpAt(size_t j);
  void markArm(size_t from, size_t to, size_t branch, bool taken) {
    for (size_t t = from; t < to; ++t) {
      p_.slots[t].region = static_cast<int>(branch);
      p_.slots[t].regionTaken = taken;
    }
  }

  PassContext &ctx_;
  ir::Function &f_;
  analysis::FunctionAnalyses &fa_;
  Plan &p_;
  std::vector<std::unique_ptr<Stmt>> &body_;
  const unsigned forcedK_;
  const bool gathers_;
  std::optional<std::set<const Stmt *>> deadAtomicsOnce_;
  unsigned scopedInstrs_ = 0;  // instructions inside nested blocks (for k)
  std::set<std::string_view> exitLabels_;
  size_t cut_ = 0;             // the first slot of the exit
  std::map<std::string_view, int> branchesTo_;
  std::map<const Stmt *, size_t> slotOf_;
  unsigned maxW_ = 0;          // the widest unit-stride access
  std::map<size_t, const AccessInfo *> accessOfSlot_;
};

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

bool Planner::sortStatements() {
  // Register types, and the shape of the body.
  for (size_t i = 0; i < body_.size(); ++i) {
    const Stmt &s = *body_[i];
    switch (s.kind) {
    case Stmt::Kind::Block:
      p_.slots.push_back({Slot::Role::Scoped, i});  // checked below, once every declaration is known
      break;
    case Stmt::Kind::Decl: {
      const auto &d = static_cast<const ir::Decl &>(s);
      if (d.space() == ".local") {
        // A per-thread array (a .local depot): private to the logical
        // thread, so each replica gets its own copy (`<name>_g<m>`). Off by
        // default: k copies per hardware thread ran 0.32-0.68x on an H100
        // (gpu-diff `local array` cases, docs/BENCHMARKS.md).
        if (!ctx_.options.count("group-local-arrays")) {
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
        p_.slots.push_back({Slot::Role::Decl, i});
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
      p_.slots.push_back({Slot::Role::Decl, i});
      break;
    }
    case Stmt::Kind::Directive:
      p_.slots.push_back({Slot::Role::Directive, i});
      break;
    case Stmt::Kind::Label:
      p_.slots.push_back({Slot::Role::Exit, i});  // checked below: only before the final ret
      break;
    case Stmt::Kind::Instruction:
      p_.slots.push_back({Slot::Role::Instr, i});
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
      // (docs/results/family-h100-2026-11-25-before.md). Only guards whose
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

bool Planner::classifyAccesses() {
  // Accesses: unit stride along %tid.x, or independent of it.
  for (const auto &a : fa_.accesses())
    if (!classifyAccess(a)) return false;
  if (!maxW_) {
    p_.why = "no unit-stride global access of 1, 2, 4 or 8 bytes along %tid.x";
    return false;
  }
  return true;
}

bool Planner::classifyAccess(const AccessInfo &a) {
  const Instruction *in = fa_.cfg().instructions()[a.instr];
  auto it = slotOf_.find(in);
  if (it == slotOf_.end()) return true;  // in the exit part (none: only ret)
  if (a.mem.space == ".param" || a.mem.space == ".const") return true;
  if (a.mem.space == ".local" && !p_.localNames.empty()) {
    // Each replica's addresses come from its own copy of the depot (its
    // own %SPL): private, per replica. Stores to it may come before a
    // guard: the slow path replays the replica from the start, writing
    // the same values again into memory no other thread reads.
    return true;
  }
  if (a.mem.space != ".global" && !a.mem.space.empty()) {
    p_.why = "it accesses " + std::string(a.mem.space) + " memory";
    p_.whyAt = in;
    return false;
  }
  if (deadAtomic(in) && !ctx_.options.count("group-atomics")) {
    // Not communication, but each replica's atomic is its own request:
    // k of them per hardware thread, one after another, ran a counting
    // kernel at 0.15x on an H100 (gpu-diff `count_above`).
    p_.why = std::string(in->opcode) + ": an atomic with an unused result stays per logical thread, which "
             "measured 0.15x (--group-atomics allows it)";
    p_.whyAt = in;
    return false;
  }
  if (deadAtomic(in)) {
    // Stays per replica. A data-dependent address (a histogram) follows
    // the gathers' rule; a unit stride along %tid.x would spread the
    // lanes of a warp k elements apart.
    if (a.verdict == AccessInfo::Verdict::Unknown && !gathers_) {
      p_.why = "cannot analyse " + std::string(in->opcode) + " (" + a.reason +
               "): grouping could make it k times less coalesced (--group-gathers allows it)";
      p_.whyAt = in;
      return false;
    }
    for (const auto &st : a.strides)
      if (st.var == "%tid.x" && !(st.constant && *st.constant == 0)) {
        p_.why = std::string(in->opcode) + " depends on %tid.x: an atomic stays per logical thread, and grouping "
                 "would make it k times less coalesced";
        p_.whyAt = in;
        return false;
      }
    return true;
  }
  if (a.mem.kind != analysis::MemAccess::Kind::Load && a.mem.kind != analysis::MemAccess::Kind::Store) {
    p_.why = std::string(in->opcode) + " is not a plain load or store";
    p_.whyAt = in;
    return false;
  }
  if (a.verdict == AccessInfo::Verdict::Unknown) {
    // A gather or scatter (an address computed from data, a division...).
    // Each replica could keep its own access, as each logical thread had,
    // but neighbouring logical threads often touch neighbouring addresses
    // (a rotated image): after grouping, the lanes of a warp are k
    // elements apart and the access is up to k times less coalesced. The
    // rotations measured 0.57-0.93x on an H200 (docs/BENCHMARKS.md), so
    // this is opt-in (`--group-gathers`).
    if (!gathers_) {
      p_.why = "cannot analyse " + std::string(in->opcode) + " (" + a.reason +
               "): grouping could make it k times less coalesced (--group-gathers allows it)";
      p_.whyAt = in;
      p_.refusedForGathers = true;
      return false;
    }
    ++p_.perReplica;
    return true;
  }
  std::optional<int64_t> stride;
  bool symbolic = false;
  for (const auto &st : a.strides)
    if (st.var == "%tid.x") {
      stride = st.constant;
      symbolic = !st.constant;
    }
  if (symbolic || (stride && *stride != 0 && *stride != static_cast<int64_t>(a.mem.bytes()))) {
    p_.why = std::string(in->opcode) + " has stride " + (symbolic ? std::string("(symbolic)") : std::to_string(*stride)) +
             " bytes along %tid.x; grouping needs unit stride";
    p_.whyAt = in;
    return false;
  }
  if (!stride || *stride == 0) return true;  // the same address for every replica: stays per replica
  unsigned w = a.mem.bytes();
  // A load inside an if-then or if/else arm becomes one vector load
  // predicated on any replica's arm (aligned only: checked below).
  const bool regionLoad = p_.slots[it->second].region >= 0 && a.mem.kind == analysis::MemAccess::Kind::Load &&
                          w <= 4 && !p_.slots[p_.slots[it->second].region].toExit;
  if (a.mem.vector != 1 || (w != 1 && w != 2 && w != 4 && w != 8) || !in->guard.empty() ||
      (p_.slots[it->second].region >= 0 && !regionLoad)) {
    // It would stay per replica, and the lanes of a warp would then be k
    // elements apart: k times less coalesced than in the original.
    p_.why = std::string(in->opcode) + " is unit-stride but cannot become a vector access (" +
             (a.mem.vector != 1 ? "already a vector" : !in->guard.empty() ? "predicated"
                                  : p_.slots[it->second].region >= 0
                                      ? (p_.slots[p_.slots[it->second].region].toExit
                                             ? "after a bounds guard that follows a store: predicated"
                                             : "inside an if-then region")
                                      : "its width") +
             "): grouping would make it k times less coalesced";
    p_.whyAt = in;
    return false;
  }
  if (regionLoad && !addressSlice(it->second, *in)) return false;
  Slot &s = p_.slots[it->second];
  s.vector = true;
  s.load = a.mem.kind == analysis::MemAccess::Kind::Load;
  s.w = w;
  accessOfSlot_[it->second] = &a;
  maxW_ = std::max(maxW_, w);
  return true;
}

bool Planner::addressSlice(size_t at, const Instruction &in) {
  // The address of replica 0's element, computed in the arm: the
  // instructions of the arm it depends on, re-run unpredicated (plain
  // arithmetic on 32- or 64-bit registers, each defining its first
  // operand alone).
  const Slot &ls = p_.slots[at];
  std::set<std::string> needed;
  analysis::forEachRegister(in.operands[1], [&](const Operand &r) { needed.insert(std::string(r.text)); });
  std::vector<size_t> slice;
  std::string sliceWhy;
  for (size_t t = at; t-- > static_cast<size_t>(ls.region) + 1 && sliceWhy.empty();) {
    const Slot &q = p_.slots[t];
    if (q.region != ls.region || q.regionTaken != ls.regionTaken) continue;
    if (q.role == Slot::Role::Scoped) {
      ir::forEachStmt(static_cast<const ir::Block &>(*body_[q.stmt]), [&](const Stmt &st) {
        if (st.kind == Stmt::Kind::Instruction)
          for (auto d : analysis::defUse(static_cast<const Instruction &>(st)).defs)
            if (needed.count(std::string(d))) sliceWhy = "a nested block";
      });
      continue;
    }
    if (q.role != Slot::Role::Instr) continue;
    const Instruction &x = instrAt(q);
    auto du = analysis::defUse(x);
    bool defines = false;
    for (auto d : du.defs) defines |= needed.count(std::string(d)) != 0;
    if (!defines) continue;
    unsigned bits = x.operands.empty() ? 0 : p_.regs.bits(x.operands[0].text);
    if (du.defs.size() != 1 || x.operands.empty() || x.operands[0].kind != Operand::Kind::Register ||
        du.defs[0] != x.operands[0].text || analysis::memAccess(x) || (bits != 32 && bits != 64))
      sliceWhy = std::string(x.opcode);
    for (auto u : du.uses) needed.insert(std::string(u));
    slice.push_back(t);
  }
  if (!sliceWhy.empty()) {
    p_.why = std::string(in.opcode) + " is unit-stride inside a region, but its address is computed there by " +
             sliceWhy + ", which cannot run for every replica";
    p_.whyAt = &in;
    return false;
  }
  std::reverse(slice.begin(), slice.end());
  p_.slots[at].addrSlice = slice;
  return true;
}

bool Planner::chooseK() {
  // k: 16-byte vectors for the widest access, halved while the fast path
  // would run more than kMaxFastPath instructions per hardware thread (the
  // body times k), as long as every vector stays at least 4 bytes. Few, long
  // threads leave a small launch latency-bound: Sobel (69 instructions) at
  // 1920x1080 ran 0.91x with k=16 and 1.12x with k=8 on an H200, and 3.08x
  // and 2.96x at 8192x8192; the matrix add (19 instructions) is fastest at 16.
  unsigned minW = 16, instrs = scopedInstrs_;
  for (const auto &sl : p_.slots) {
    if (sl.vector) minW = std::min(minW, sl.w);
    instrs += sl.role == Slot::Role::Instr || sl.role == Slot::Role::Guard;
  }
  // 64-bit elements: k = 2 (two per 16-byte vector) measured no faster
  // (daxpy 0.99-1.02x at 2M-33M elements on an H100,
  // docs/results/family-h100-2026-11-25-before.md); a clone that does not
  // pay still costs the program its load and the launch hook.
  if (maxW_ >= 8 && !forcedK_) {
    p_.why = "its widest unit-stride access is 8 bytes: two logical threads per 16-byte vector measured no faster "
             "(--group-k=2 forces it)";
    return false;
  }
  // Grid-stride loops over 32-bit data (every unit-stride access 4 bytes
  // wide): the form was built for 8- and 16-bit data (#18), whose clones
  // measured 1.73-2.05x; at 32 bits k = 4 saves the least, nothing measured
  // it, and its clones cost ptxas time in every program that has such a
  // kernel, though they rarely run: grid-stride kernels are mostly launched
  // with grids sized to the device (the family harness's fillRandom: 1024 x
  // 256 = 2^18 threads, under the 2^21 floor below), and the family's
  // fillRandom<float> and <int> clones never ran (docs/BENCHMARKS.md).
  if (p_.loopLatch && minW >= 4 && !forcedK_) {
    p_.why = "a grid-stride loop whose unit-stride accesses are all 4 bytes or wider: grouped only over 8- or 16-bit "
             "data (--group-k=4 forces it)";
    p_.whyAt = &instrAt(p_.slots[p_.loopLatch]);
    return false;
  }
  // Grid-stride loops whose body is mostly arithmetic: grouping saves
  // memory instructions and requests, not arithmetic (each element's stays),
  // while the clone holds the body 3k times (the vectorized loop, each
  // replica's remaining iterations, the slow path). The loops measured
  // faster grouped have one unit-stride access per 3.7 and 4.5 instructions
  // of the body (gs_add_u8 2.05x, gs_clamp_u16 1.73x, H100); the family
  // harness's fillRandom<char> and make_mask, a 64-bit hash and one store in
  // 24 instructions, got 1900-line clones (ptxas 82 -> 822 ms on
  // bench/family/elementwise.cu with the 32-bit ones above) that never ran.
  if (p_.loopLatch && !forcedK_) {
    unsigned loopInstrs = 0, loopVectors = 0;
    for (size_t j = p_.loopLabel + 1; j <= p_.loopLatch; ++j) {
      loopInstrs += p_.slots[j].role == Slot::Role::Instr || p_.slots[j].role == Slot::Role::LoopLatch;
      loopVectors += p_.slots[j].vector;
    }
    if (loopVectors * kGridStrideInstrsPerAccess < loopInstrs) {
      p_.why = "a grid-stride loop of " + std::to_string(loopInstrs) + " instructions with " +
               std::to_string(loopVectors) + " unit-stride access(es): grouped only with one access per " +
               std::to_string(kGridStrideInstrsPerAccess) +
               " instructions or more (grouping saves memory instructions, the clone holds the body 3k times; "
               "--group-k forces it)";
      p_.whyAt = &instrAt(p_.slots[p_.loopLatch]);
      return false;
    }
  }
  p_.k = 16 / maxW_;
  p_.longBody = p_.k * instrs > kMaxFastPath;
  while (!forcedK_ && p_.k / 2 >= 2 && (p_.k / 2) * minW >= 4 && p_.k * instrs > kMaxFastPath) p_.k /= 2;
  if (forcedK_) p_.k = forcedK_;
  return true;
}

bool Planner::checkAlignment() {
  // Alignment of replica 0's address, and the registers the unpacking needs.
  for (auto &[slotIndex, a] : accessOfSlot_)
    if (!checkAlignment(slotIndex, a)) return false;
  return true;
}

bool Planner::checkAlignment(size_t slotIndex, const AccessInfo *a) {
  auto &aff = fa_.affine();
  Slot &s = p_.slots[slotIndex];
  const Instruction &in = instrAt(s);
  const int64_t V = static_cast<int64_t>(p_.k) * s.w;
  if (V != 4 && V != 8 && V != 16) {
    p_.why = "k=" + std::to_string(p_.k) + " gives " + std::to_string(V) + "-byte accesses for " + std::string(in.opcode) +
             " (4, 8 or 16 needed)";
    p_.whyAt = &in;
    return false;
  }
  if (!a->address.known) {
    p_.why = "cannot express the address of " + std::string(in.opcode);
    p_.whyAt = &in;
    return false;
  }
  // Each term a multiple of V (with %tid.x and %ntid.x counting k times),
  // or one parameter the runtime checks; the constant term's remainder is
  // a misalignment (below).
  int64_t misalign = 0;
  auto scaleByK = [&](const analysis::Symbol &sym) -> int64_t {
    return (sym.kind == analysis::Symbol::Kind::Tid || sym.kind == analysis::Symbol::Kind::Ntid) && sym.dim == 0
               ? p_.k
               : 1;
  };
  if (!vectorAlignment(a->address.poly, aff, f_, V, scaleByK, p_.aligned, misalign)) {
    p_.why = "cannot prove that " + std::string(in.opcode) + " at " + aff.str(a->address.poly) + " is " +
             std::to_string(V) + "-byte aligned for k=" + std::to_string(p_.k);
    p_.whyAt = &in;
    return false;
  }
  if (misalign && s.region >= 0) {
    // The second aligned vector may hold no byte a running replica reads
    // (the right border of the last row): it could lie past the buffer.
    p_.why = std::string(in.opcode) + " at " + aff.str(a->address.poly) + " is " + std::to_string(misalign) +
             " bytes off a " + std::to_string(V) + "-byte boundary inside a region (its second vector may lie " +
             "past what the running replicas read)";
    p_.whyAt = &in;
    return false;
  }
  if (misalign) {
    if (!s.load || s.w > 4 || misalign % s.w != 0) {
      p_.why = std::string(in.opcode) + " at " + aff.str(a->address.poly) + " is " + std::to_string(misalign) +
               " bytes off a " + std::to_string(V) + "-byte boundary (" +
               (s.load ? "not a whole number of elements" : "a store cannot be split without touching its neighbours") + ")";
      p_.whyAt = &in;
      return false;
    }
    const Operand &addr = in.operands[1];
    bool simple = addr.kind == Operand::Kind::Address && addr.elems.size() == 1 &&
                  (addr.elems[0].kind == Operand::Kind::Register ||
                   (addr.elems[0].kind == Operand::Kind::Sum && addr.elems[0].elems[0].kind == Operand::Kind::Register &&
                    addr.elems[0].elems[1].intValue()));
    if (!simple) {
      p_.why = std::string(in.opcode) + " is misaligned and its address is not [register] or [register+offset]";
      p_.whyAt = &in;
      return false;
    }
    s.misalign = static_cast<unsigned>(misalign);
  }
  // The register the value goes to or comes from.
  const Operand &data = s.load ? in.operands[0] : in.operands[1];
  if (!s.load && data.kind == Operand::Kind::Immediate && data.intValue()) return true;  // a constant stored
  if (data.kind != Operand::Kind::Register) {
    p_.why = std::string(in.opcode) + " has a non-register data operand";
    p_.whyAt = &in;
    return false;
  }
  unsigned bits = p_.regs.bits(data.text);
  bool ok = s.w == 8   ? bits == 64
            : s.load   ? (bits == 16 && s.w < 4) || bits == 32 || bits == 64
            : s.w == 4 ? bits == 32
                       : bits == 16 || bits == 32;
  if (!ok) {
    p_.why = std::string(in.opcode) + " uses register " + std::string(data.text) + " of " + std::to_string(bits) +
             " bits";
    p_.whyAt = &in;
    return false;
  }
  return true;
}

}  // namespace

bool planGroup(PassContext &ctx, ir::Function &f, Plan &p, unsigned forcedK, bool gathers) {
  return Planner(ctx, f, p, forcedK, gathers).run();
}

}  // namespace ptxopt::transforms::group
