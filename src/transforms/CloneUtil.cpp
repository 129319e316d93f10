// Helpers shared by the passes that build clones (declared in CloneUtil.h):
// parameters by name, addresses as base register and offset, alignment
// conditions merged.
#include "CloneUtil.h"

namespace ptxopt::transforms::clone {

std::vector<ir::Function *> originalKernels(ir::Module &m) {
  std::vector<ir::Function *> kernels;
  for (auto *k : m.kernels())
    if (k->name.find("__ptxopt_") == std::string_view::npos) kernels.push_back(k);
  return kernels;
}

int paramIndex(const ir::Function &f, std::string_view name) {
  if (!f.params) return -1;
  for (size_t i = 0; i < f.params->size(); ++i)
    for (const auto &n : (*f.params)[i].names)
      if (n.name == name) return static_cast<int>(i);
  return -1;
}

bool baseAndOffset(const Operand &addr, std::string &reg, int64_t &off) {
  if (addr.kind != Operand::Kind::Address || addr.elems.size() != 1) return false;
  const Operand &e = addr.elems[0];
  if (e.kind == Operand::Kind::Register) {
    reg = std::string(e.text);
    off = 0;
    return true;
  }
  if (e.kind == Operand::Kind::Sum && e.elems[0].kind == Operand::Kind::Register && e.elems[1].intValue()) {
    reg = std::string(e.elems[0].text);
    off = *e.elems[1].intValue() * (e.text == "-" ? -1 : 1);
    return true;
  }
  return false;
}

void requireAligned(std::vector<Variant::AlignedParam> &conds, const Variant::AlignedParam &c) {
  for (auto &x : conds)
    if (x.index == c.index) {
      x.bytes = std::max(x.bytes, c.bytes);
      return;
    }
  conds.push_back(c);
}

}  // namespace ptxopt::transforms::clone
