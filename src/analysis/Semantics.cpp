// Instruction semantics for the analyses (see Semantics.h).
//
// Def/use rule: most PTX instructions write their first operand (a register,
// a vector of registers `{a, b}` or a predicate pair `p|q`) and read the
// rest. The exceptions are the instructions with no destination (stores,
// reductions, branches, barriers, fences, prefetches, async copies) and the
// few that also read their destination (wgmma accumulators). Registers inside
// an address operand are always reads.
#include "ptxopt/analysis/Semantics.h"

#include <unordered_set>

namespace ptxopt::analysis {

using ir::Instruction;
using ir::Operand;

namespace {

bool noDestination(std::string_view base, const Instruction &in) {
  static const std::unordered_set<std::string_view, NameHash> none = {
      "st",       "red",      "bar",       "barrier",       "bra",       "brx",
      "ret",      "exit",     "trap",      "membar",        "fence",     "prefetch",
      "prefetchu", "cp",      "stmatrix",  "sust",          "sured",     "nanosleep",
      "pmevent",  "griddepcontrol", "setmaxnreg", "applypriority", "discard", "tensormap"};
  if (none.count(base)) return true;
  if (base == "wmma" && in.hasModifier(".store")) return true;
  if (base == "mbarrier") {
    // mbarrier.init/inval/expect_tx/complete_tx have no destination;
    // arrive/test_wait/try_wait write a state or predicate.
    return in.hasModifier(".init") || in.hasModifier(".inval") || in.hasModifier(".expect_tx") ||
           in.hasModifier(".complete_tx");
  }
  if (base == "wgmma") return !in.hasModifier(".mma_async");  // fence, commit_group, wait_group
  if (base == "call") return true;  // results come back through .param
  return false;
}

bool isDestinationOperand(const Operand &o) {
  return o.kind == Operand::Kind::Register || o.kind == Operand::Kind::Vector ||
         o.kind == Operand::Kind::Pipe;
}

}  // namespace

DefUse defUse(const Instruction &in) {
  DefUse du;
  if (!in.guard.empty()) du.uses.push_back(in.guard);
  std::string_view base = in.base();
  size_t first = 0;
  if (!in.operands.empty() && !noDestination(base, in) && isDestinationOperand(in.operands[0])) {
    forEachRegister(in.operands[0], [&](const Operand &r) { du.defs.push_back(r.text); });
    first = 1;
    // wgmma.mma_async d, a-desc, b-desc, scale-d...: d is read and written.
    if (base == "wgmma") forEachRegister(in.operands[0], [&](const Operand &r) { du.uses.push_back(r.text); });
  }
  for (size_t i = first; i < in.operands.size(); ++i)
    forEachRegister(in.operands[i], [&](const Operand &r) { du.uses.push_back(r.text); });
  return du;
}

unsigned typeBytes(std::string_view t) {
  if (t.size() < 3 || t[0] != '.') return 0;
  if (t == ".pred") return 0;
  if (t == ".f16x2" || t == ".bf16x2" || t == ".s16x2" || t == ".u16x2") return 4;
  if (t == ".bf16" || t == ".e4m3" || t == ".e5m2") return t == ".bf16" ? 2 : 1;
  if (t == ".e4m3x2" || t == ".e5m2x2") return 2;
  if (t == ".tf32") return 4;
  char k = t[1];
  if (k != 'b' && k != 'u' && k != 's' && k != 'f') return 0;
  std::string_view bits = t.substr(2);
  if (bits == "8") return 1;
  if (bits == "16") return 2;
  if (bits == "32") return 4;
  if (bits == "64") return 8;
  if (bits == "128") return 16;
  return 0;
}

std::optional<MemAccess> memAccess(const Instruction &in) {
  std::string_view base = in.base();
  MemAccess a;
  size_t addr;
  if (base == "ld" || base == "ldu") { a.kind = MemAccess::Kind::Load; addr = 1; }
  else if (base == "st") { a.kind = MemAccess::Kind::Store; addr = 0; }
  else if (base == "atom") { a.kind = MemAccess::Kind::Atomic; addr = 1; }
  else if (base == "red") { a.kind = MemAccess::Kind::Reduction; addr = 0; }
  else if (base == "prefetch" || base == "prefetchu") { a.kind = MemAccess::Kind::Prefetch; addr = 0; }
  else return std::nullopt;
  // st.async / red.async are cluster-shared operations with other operands.
  if (in.hasModifier(".async")) return std::nullopt;
  if (addr >= in.operands.size() || in.operands[addr].kind != Operand::Kind::Address) return std::nullopt;
  a.address = &in.operands[addr];
  in.anyModifier([&](std::string_view m) {
    if (m == ".global" || m == ".shared" || m == ".local" || m == ".const" || m == ".param" ||
        m.substr(0, 8) == ".shared:" || m.substr(0, 7) == ".param:")
      a.space = m;
    else if (m == ".v2") a.vector = 2;
    else if (m == ".v4") a.vector = 4;
    else if (m == ".v8") a.vector = 8;
    else if (unsigned b = typeBytes(m)) a.elemBytes = b;  // the last type wins (cvt-like forms)
    return false;
  });
  return a;
}

Flow flowOf(const Instruction &in) {
  std::string_view base = in.base();
  if (base == "bra") return Flow::Branch;
  if (base == "brx") return Flow::IndirectBranch;
  if (base == "ret" || base == "exit") return Flow::Return;
  if (base == "trap") return Flow::Trap;
  return Flow::Next;
}

std::string_view branchTarget(const Instruction &in) {
  if (in.base() != "bra" || in.operands.empty()) return {};
  const Operand &t = in.operands.back();
  return t.kind == Operand::Kind::Symbol ? t.text : std::string_view{};
}

}  // namespace ptxopt::analysis
