// Keeping ptxas's fma contractions on a clone whose code moved
// (clone::keepContractions), shared by the passes that move code.
//
// What: a `mul` and an `add`/`sub` of floating-point values without a
// rounding modifier may be fused into one fma by ptxas ("mul/add sequences
// with no rounding modifiers may be optimized to use fused-multiply-add",
// PTX ISA, add/mul), which rounds once instead of twice. ptxas fuses such
// a pair when both lie in one straight-line stretch of code; nvcc relies on
// that (it writes `.rn` where fusing is not allowed). A clone whose code
// moved can bring a product and its sum into one stretch that were apart
// (the reuse pass moving a cosine out from between them) or part a pair
// that was together: ptxas would then round differently than for the
// original, and the clone's bits would differ.
// Algorithm: stretches are runs of top-level statements without a branch
// (other than to the label that follows it), return, exit, trap, call
// sequence or a label that some other branch targets. Pairs are a
// contractable mul and a contractable add/sub in one stretch reading its
// result (the latest write before it). For a pair that the moves joined,
// the add (or else the mul) gets `.rn`, which keeps it unfused with the
// rounding it had; allowed only when that instruction had no other pair in
// the original's stretch (else the original may have fused that one).
// Refuses (says why): a pair the moves parted, a joined pair neither of
// whose instructions may get `.rn`.
#include <map>
#include <set>
#include <unordered_map>

#include "CloneUtil.h"

namespace ptxopt::transforms::clone {

namespace {

using ir::Instruction;
using ir::Stmt;

bool hasRounding(const Instruction &in) {
  return in.anyModifier([](std::string_view m) { return m == ".rn" || m == ".rz" || m == ".rm" || m == ".rp"; });
}

bool floatType(const Instruction &in) {
  return in.anyModifier([](std::string_view m) {
    return m == ".f32" || m == ".f64" || m == ".f16" || m == ".f16x2" || m == ".bf16" || m == ".bf16x2";
  });
}


/// Stretch number of each top-level statement of `b` (see the overview).
std::vector<int> stretches(const ir::Block &b) {
  const auto &s = b.body;
  auto instr = [&](size_t i) -> const Instruction * {
    return s[i]->kind == Stmt::Kind::Instruction ? static_cast<const Instruction *>(s[i].get()) : nullptr;
  };
  // A branch to the label right after it (labels and directives between)
  // falls through; the labels that other branches go to cut (all of them
  // when an indirect branch may go to any).
  std::vector<bool> trivial(s.size(), false);
  std::set<std::string_view> cutting;
  bool indirect = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const Instruction *in = instr(i);
    if (!in) continue;
    indirect = indirect || in->base() == "brx";
    if (in->base() != "bra") continue;
    std::string_view t = analysis::branchTarget(*in);
    for (size_t j = i + 1; j < s.size() && in->guard.empty() && !trivial[i]; ++j) {
      if (s[j]->kind == Stmt::Kind::Label) trivial[i] = static_cast<const ir::Label &>(*s[j]).name == t;
      else if (s[j]->kind != Stmt::Kind::Directive) break;
    }
    if (!trivial[i]) cutting.insert(t);
  }
  std::vector<int> out(s.size());
  int cur = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const bool label = s[i]->kind == Stmt::Kind::Label;
    if (s[i]->kind == Stmt::Kind::Block || (label && (indirect || cutting.count(static_cast<const ir::Label &>(*s[i]).name))))
      ++cur;  // a call sequence, or a label something jumps to
    out[i] = cur;
    const Instruction *in = instr(i);
    if (s[i]->kind == Stmt::Kind::Block || (in && ((analysis::flowOf(*in) != analysis::Flow::Next && !trivial[i]) ||
                                                   in->base() == "call")))
      ++cur;
  }
  return out;
}

/// Contractable (mul, add) pairs by statement index within each stretch.
std::vector<std::pair<size_t, size_t>> pairs(const ir::Block &b, const std::vector<int> &st) {
  std::vector<std::pair<size_t, size_t>> out;
  std::unordered_map<std::string_view, size_t, analysis::NameHash> lastDef;
  int cur = -1;
  for (size_t i = 0; i < b.body.size(); ++i) {
    if (st[i] != cur) {
      cur = st[i];
      lastDef.clear();
    }
    if (b.body[i]->kind != Stmt::Kind::Instruction) continue;
    const auto &in = static_cast<const Instruction &>(*b.body[i]);
    auto du = analysis::defUse(in);
    if (contractableAdd(in))
      for (size_t k = 1; k < in.operands.size(); ++k)
        if (in.operands[k].kind == ir::Operand::Kind::Register) {
          auto it = lastDef.find(in.operands[k].text);
          if (it != lastDef.end() && contractableMul(static_cast<const Instruction &>(*b.body[it->second])))
            out.push_back({it->second, i});
        }
    for (auto d : du.defs) lastDef[d] = i;
  }
  return out;
}

}  // namespace

bool contractableMul(const Instruction &in) { return in.base() == "mul" && floatType(in) && !hasRounding(in); }
bool contractableAdd(const Instruction &in) {
  return (in.base() == "add" || in.base() == "sub") && floatType(in) && !hasRounding(in);
}

std::optional<std::string> keepContractions(ir::Module &m, const ir::Block &orig, ir::Block &clone,
                                            const std::unordered_map<const ir::Stmt *, size_t> &origIndex) {
  const auto so = stretches(orig), sc = stretches(clone);
  const auto po = pairs(orig, so), pc = pairs(clone, sc);
  std::set<size_t> pairedO;  // original statements in some pair
  for (auto [a, b] : po) pairedO.insert(a), pairedO.insert(b);
  // Where each original statement is in the clone.
  std::vector<size_t> cloneOf(orig.body.size(), SIZE_MAX);
  for (size_t i = 0; i < clone.body.size(); ++i)
    if (auto it = origIndex.find(clone.body[i].get()); it != origIndex.end()) cloneOf[it->second] = i;
  for (auto [a, b] : po) {
    if (cloneOf[a] == SIZE_MAX || cloneOf[b] == SIZE_MAX) continue;  // removed: code the clone never runs
    if (sc[cloneOf[a]] != sc[cloneOf[b]]) return "a product and the sum ptxas may fuse with it are no longer in one stretch";
  }
  for (auto [a, b] : pc) {
    auto ia = origIndex.find(clone.body[a].get()), ib = origIndex.find(clone.body[b].get());
    if (ia == origIndex.end() || ib == origIndex.end()) continue;  // new code: not a contractable pair of the original
    if (so[ia->second] == so[ib->second]) continue;  // together in the original too
    auto round = [&](size_t ci) {
      auto &in = static_cast<Instruction &>(*clone.body[ci]);
      std::string op(in.opcode);
      op.insert(op.find('.') == std::string::npos ? op.size() : op.find('.'), ".rn");
      in.opcode = m.intern(op);
      in.edited = true;
    };
    if (!pairedO.count(ib->second)) round(b);
    else if (!pairedO.count(ia->second)) round(a);
    else return "a product and a sum the moves bring together each have another pair in the original";
  }
  return std::nullopt;
}

}  // namespace ptxopt::transforms::clone
