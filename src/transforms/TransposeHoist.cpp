// transpose: the kernel's values that every copy of the tiled clone shares,
// computed once.
//
// What: the tiled clone (TransposeTiled.cpp) runs eight copies of the
// kernel's body per version (four logical threads in each phase), each
// recomputing what does not depend on the logical thread: the parameter
// loads, the batch offset `n * C * HW` of a permute (%ctaid.z times two
// parameters, in 64 bits), the cvta of each pointer. findSharedValues finds
// those instructions of the kernel; the clone emits them once in its
// prologue and drops them from the copies (dropSharedValues).
// Why it pays: each copy keeps the kernel's guard as a branch around its
// part, so ptxas cannot share a value computed in one copy with the next
// (no copy dominates another): NCHW -> NHWC with C = 64 at 56 x 56 in
// 16 x 16 blocks, where the kernel is short and the permute moves little,
// ran at 0.70 of the hand-written tiled kernel (docs/BENCHMARKS.md).
// Algorithm: in program order, an instruction of the kernel's top-level
// body is shared when it is unguarded, pure (pureOpcode's arithmetic, mov,
// cvt, cvta, setp, selp, ld.param: no other memory, no division, no carry
// chain), its destination is a single register the kernel defines nowhere
// else and reads nowhere before it, it is in no loop (no later branch goes back to a
// label at or before it), and each source is an immediate, a symbol, a
// register defined by a shared instruction, or a special register the
// clone does not rename (%ctaid.z and %nctaid.z where the tile's axes are x
// and y; every copy reads the hardware's, the same in all of them). Such a
// value is the same in every copy and wherever it is computed, so each
// logical thread still sees the original's values: bit-identical.
// Refuses (returns nothing) for a kernel with nested scopes.
#include <algorithm>
#include <set>

#include "Transpose.h"

namespace ptxopt::transforms::transpose {

namespace {

/// An instruction whose value depends on its operands alone: pureOpcode's
/// (TransposePlan.cpp), ld only as ld.param; not a division (the kernel may
/// divide only where its guard holds: kept there), nor a step of a carry
/// chain (`add.cc` ... `addc`: the carry flag passes between instructions
/// outside their operands).
bool sharedOpcode(const ir::Instruction &in) {
  if (in.opcode.starts_with("ld.param.")) return true;
  const std::string_view b = in.base();
  return pureOpcode(b) && b != "div" && b != "rem" && b != "addc" && b != "subc" && b != "madc" &&
         !in.hasModifier(".cc");
}

/// A special register the copies read from the hardware, the same value in
/// all of them and in the prologue: a block index or grid extent of an axis
/// the clone does not rename.
bool sharedSpecial(std::string_view r, const std::set<std::string> &renamed) {
  const bool grid = r.starts_with("%ctaid.") || r.starts_with("%nctaid.");
  return grid && renamed.count(std::string(r)) == 0;
}

}  // namespace

std::vector<const ir::Instruction *> findSharedValues(const ir::Function &k, const std::set<std::string> &renamed) {
  const auto &b = k.body->body;
  std::map<std::string_view, unsigned> defs;
  std::map<std::string_view, size_t> firstUse, labelAt;
  std::vector<size_t> backTargets;  // top-level indices of labels some later branch goes back to
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i]->kind == ir::Stmt::Kind::Block) return {};
    if (b[i]->kind == ir::Stmt::Kind::Label) labelAt[static_cast<const ir::Label &>(*b[i]).name] = i;
    if (b[i]->kind != ir::Stmt::Kind::Instruction) continue;
    const auto &in = static_cast<const ir::Instruction &>(*b[i]);
    const auto du = analysis::defUse(in);
    for (auto d : du.defs) ++defs[d];
    for (auto u : du.uses) firstUse.emplace(u, i);
    const auto target = analysis::branchTarget(in);
    if (!target.empty()) {
      auto l = labelAt.find(target);
      if (l != labelAt.end()) backTargets.push_back(l->second);
    }
  }
  const size_t loopFrom = backTargets.empty() ? b.size() : *std::min_element(backTargets.begin(), backTargets.end());
  std::set<std::string_view> shared;
  std::vector<const ir::Instruction *> out;
  for (size_t i = 0; i < loopFrom; ++i) {  // from the first label a loop goes back to on, a loop may hold it
    if (b[i]->kind != ir::Stmt::Kind::Instruction) continue;
    const auto &in = static_cast<const ir::Instruction &>(*b[i]);
    if (!in.guard.empty() || !sharedOpcode(in) || in.operands.empty() || !in.operands[0].isReg()) continue;
    const auto du = analysis::defUse(in);
    if (du.defs.size() != 1 || du.defs[0] != in.operands[0].text || defs[du.defs[0]] != 1) continue;
    auto use = firstUse.find(du.defs[0]);
    if (use != firstUse.end() && use->second <= i) continue;
    bool ok = true;
    for (size_t o = 1; o < in.operands.size() && ok; ++o)
      analysis::forEachRegister(in.operands[o], [&](const ir::Operand &r) {
        ok = ok && (shared.count(r.text) != 0 || sharedSpecial(r.text, renamed));
      });
    if (!ok) continue;
    shared.insert(du.defs[0]);
    out.push_back(&in);
  }
  return out;
}

size_t dropSharedValues(std::vector<std::unique_ptr<ir::Stmt>> &code, const std::vector<const ir::Instruction *> &shared) {
  std::set<std::string_view> regs;
  for (const ir::Instruction *in : shared) regs.insert(in->operands[0].text);
  return std::erase_if(code, [&](const std::unique_ptr<ir::Stmt> &st) {
    if (st->kind != ir::Stmt::Kind::Instruction) return false;
    const auto &in = static_cast<const ir::Instruction &>(*st);
    return in.guard.empty() && !in.operands.empty() && in.operands[0].isReg() && regs.count(in.operands[0].text) &&
           sharedOpcode(in);
  });
}

}  // namespace ptxopt::transforms::transpose
