// What the analyses need to know about single instructions: which registers
// an instruction writes and reads, whether it accesses memory (state space,
// width, address operand), and how it transfers control. Everything not
// listed is handled conservatively: an unknown opcode writes its first
// register operand and reads all the others.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "ptxopt/ir/IR.h"

namespace ptxopt::analysis {

/// Registers written (defs) and read (uses) by an instruction, guard included.
struct DefUse {
  std::vector<std::string_view> defs, uses;
};
DefUse defUse(const ir::Instruction &in);

/// Calls f(const Operand&) on every register inside `o` (vectors, addresses...).
template <typename F> void forEachRegister(const ir::Operand &o, F &&f) {
  if (o.kind == ir::Operand::Kind::Register) f(o);
  for (const auto &e : o.elems) forEachRegister(e, f);
}

struct MemAccess {
  enum class Kind { Load, Store, Atomic, Reduction, Prefetch };
  Kind kind;
  std::string_view space;  // ".global", ".shared", ".local", ".const", ".param", "" (generic)
  unsigned elemBytes = 0;  // 0: unknown
  unsigned vector = 1;     // .v2 -> 2 ...
  unsigned bytes() const { return elemBytes * vector; }
  const ir::Operand *address = nullptr;
};
/// Memory access of ld/ldu/st/atom/red/prefetch; nullopt for anything else.
std::optional<MemAccess> memAccess(const ir::Instruction &in);

/// Size in bytes of a PTX type modifier (".u8" -> 1, ".f16x2" -> 4, ".b128" -> 16), 0 if none.
unsigned typeBytes(std::string_view typeModifier);

enum class Flow { Next, Branch, Return, Trap, IndirectBranch };
/// How control leaves the instruction (a guarded branch or return also falls through).
Flow flowOf(const ir::Instruction &in);
/// The label an unconditional or conditional `bra` goes to (empty otherwise).
std::string_view branchTarget(const ir::Instruction &in);

}  // namespace ptxopt::analysis
