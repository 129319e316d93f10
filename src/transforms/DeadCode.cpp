// Dead-code removal on clones (clone::removeDeadCode), shared by the passes
// that build them.
//
// What: instructions without side effects (arithmetic, moves, conversions,
// comparisons, parameter loads) whose every destination register is read by
// no instruction of the function are removed, until none is left.
// Why: a group clone copies the whole body once per logical thread, and the
// copies of the address arithmetic that fed the accesses now merged into one
// vector access are read by nothing (replica 0's address serves them all).
// ptxas removes them too, but it parses, analyses and allocates them first:
// its time grows with the clone's text, and it is most of ptx-nvcc's build
// overhead (docs/BENCHMARKS.md, "ptx-nvcc build overhead"). The Fig. 6-a
// 8-bit matrix add's group16 clones shrank from 571 to about 170 lines.
// Algorithm: flow-insensitive, so safe under any control flow: count the
// reads of every register over the whole body (guards, nested blocks and
// addresses included); remove a candidate whose destinations are all read
// zero times, lower the counts of the registers it read, repeat. A register
// read anywhere keeps all its definitions.
// Refuses (keeps): memory accesses other than ld.param, control flow,
// atomics, barriers, calls, anything with a vector or sink destination, and
// instructions that read their own destination.
#include <map>
#include <string_view>

#include "CloneUtil.h"

namespace ptxopt::transforms::clone {

namespace {

/// Opcodes whose only effect is their destination register(s).
bool pure(const ir::Instruction &in) {
  static const std::set<std::string_view> kPure = {
      "mov", "add", "sub", "mul", "mad", "mul24", "mad24", "cvt", "cvta", "shl", "shr", "and", "or", "xor",
      "not", "neg", "setp", "selp", "bfe", "bfi", "prmt", "min", "max", "abs", "fma", "cnot", "popc", "clz",
      "brev", "bfind", "sad", "slct", "copysign"};
  std::string_view b = in.base();
  if (b == "ld") return in.opcode.starts_with("ld.param.");
  return kPure.count(b) != 0;
}

}  // namespace

size_t removeDeadCode(ir::Function &f) {
  if (!f.body) return 0;
  auto &body = f.body->body;
  std::map<std::string_view, size_t> reads;
  ir::forEachStmt(*f.body, [&](const ir::Stmt &s) {
    if (s.kind != ir::Stmt::Kind::Instruction) return;
    for (auto u : analysis::defUse(static_cast<const ir::Instruction &>(s)).uses) ++reads[u];
  });
  std::vector<bool> gone(body.size(), false);
  size_t removed = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = body.size(); i-- > 0;) {
      if (gone[i] || body[i]->kind != ir::Stmt::Kind::Instruction) continue;
      const auto &in = static_cast<const ir::Instruction &>(*body[i]);
      if (!pure(in) || in.operands.empty() || in.operands[0].kind != ir::Operand::Kind::Register) continue;
      auto du = analysis::defUse(in);
      if (du.defs.size() != 1 || reads[du.defs[0]] != 0) continue;
      bool selfRead = false;
      for (auto u : du.uses) selfRead |= u == du.defs[0];
      if (selfRead) continue;
      for (auto u : du.uses) --reads[u];
      gone[i] = true;
      ++removed;
      changed = true;
    }
  }
  if (!removed) return 0;
  std::vector<std::unique_ptr<ir::Stmt>> kept;
  kept.reserve(body.size() - removed);
  for (size_t i = 0; i < body.size(); ++i)
    if (!gone[i]) kept.push_back(std::move(body[i]));
  body = std::move(kept);
  f.body->edited = true;
  f.edited = true;
  return removed;
}

}  // namespace ptxopt::transforms::clone
