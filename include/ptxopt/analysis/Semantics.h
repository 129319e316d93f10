// What the analyses need to know about single instructions: which registers
// an instruction writes and reads, whether it accesses memory (state space,
// width, address operand), and how it transfers control. Everything not
// listed is handled conservatively: an unknown opcode writes its first
// register operand and reads all the others.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ptxopt/ir/IR.h"

namespace ptxopt::analysis {

/// A short list of register names, in place up to N (an instruction names
/// a few; the reaching definitions keep the lists of every instruction, and
/// two vectors each were 50000 allocations in a large kernel).
template <size_t N> class RegList {
public:
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const std::string_view *begin() const { return n_ > N ? heap_.data() : inline_; }
  const std::string_view *end() const { return begin() + n_; }
  std::string_view operator[](size_t i) const { return begin()[i]; }
  void push_back(std::string_view r) {
    if (n_ < N) {
      inline_[n_++] = r;
      return;
    }
    if (n_ == N) heap_.assign(inline_, inline_ + N);
    heap_.push_back(r);
    ++n_;
  }

private:
  std::string_view inline_[N];
  std::vector<std::string_view> heap_;  // all of them, once there are more than N
  size_t n_ = 0;
};

/// Hash of a register, label or opcode name for the analyses' hash tables:
/// FNV-1a over its few bytes, inline. std::hash<std::string_view> calls
/// the general-purpose _Hash_bytes, which was 3% of an `--analyze` run on
/// names that are 3 to 8 characters long. Only for tables that are looked
/// up, never iterated (iteration order would change with the hash).
struct NameHash {
  size_t operator()(std::string_view s) const {
    uint64_t h = 14695981039346656037ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

/// Registers written (defs) and read (uses) by an instruction, guard included.
struct DefUse {
  RegList<2> defs;
  RegList<4> uses;
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
