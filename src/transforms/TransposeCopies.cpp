// transpose: the pieces both clones build from (the one-element clone in
// Transpose.cpp, the tiled clone in TransposeTiled.cpp): the tile (its row
// pitch, the fewest bank conflicts over both phases' warps; its addresses;
// its declaration), the copy of the kernel's body that runs phase 1 (up to
// the tiled loads, their values stored to the tile, dead code dropped),
// the loads that phase 2 reads from the tile, and small helpers (statement
// of the n-th instruction, a new instruction, the disjointness pairs of
// the launch conditions). Split from Transpose.cpp, whose opening comment
// says why the two phases give the original's results.
#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include "Pass.h"
#include "Transpose.h"

namespace ptxopt::transforms {

using ir::Operand;
using namespace transpose;

namespace {

using namespace clone;

/// Logical (lx, ly) of the thread with linear index t = ty*bx + tx in a
/// bx x by block: the identity, or the exchange, in which consecutive t
/// take consecutive ly (for a square block, (ty, tx)).
std::pair<unsigned, unsigned> logicalOf(const Shape &s, unsigned t, bool exchanged) {
  return exchanged ? std::pair{t / s.by, t % s.by} : std::pair{t % s.bx, t / s.bx};
}

/// The worst bank conflict (distinct 4-byte words on one bank) of a warp's
/// tile accesses (half a warp for 8-byte elements) under one mapping, with
/// rows of `pitch` elements of `w` bytes.
unsigned bankConflicts(const Shape &s, unsigned pitch, unsigned w, bool exchanged) {
  const unsigned n = s.bx * s.by, per = w == 16 ? 8 : w == 8 ? 16 : 32;
  unsigned worst = 0;
  for (unsigned t0 = 0; t0 < n; t0 += per) {
    std::map<unsigned, std::set<unsigned>> banks;
    for (unsigned t = t0; t < t0 + per && t < n; ++t) {
      auto [lx, ly] = logicalOf(s, t, exchanged);
      unsigned byte = (ly * pitch + lx) * w;
      for (unsigned word = byte / 4; word <= (byte + w - 1) / 4; ++word) banks[word % 32].insert(word);
    }
    for (const auto &b : banks) worst = std::max<unsigned>(worst, static_cast<unsigned>(b.second.size()));
  }
  return worst;
}

}  // namespace

namespace transpose {

using namespace clone;

namespace {

/// Dead code of phase 1: like removeDeadCode, but plain loads go too (the
/// tile's load stays: its value is stored to the tile).
void removeDeadPhase1(ir::Block &b) {
  auto &body = b.body;
  std::map<std::string_view, size_t> reads;
  for (const auto &s : body)
    if (s->kind == ir::Stmt::Kind::Instruction)
      for (auto u : analysis::defUse(static_cast<const ir::Instruction &>(*s)).uses) ++reads[u];
  std::vector<bool> gone(body.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = body.size(); i-- > 0;) {
      if (gone[i] || body[i]->kind != ir::Stmt::Kind::Instruction) continue;
      const auto &in = static_cast<const ir::Instruction &>(*body[i]);
      bool load = (in.base() == "ld" || in.base() == "ldu") && plainMemoryOp(in);
      if (!(pureOpcode(in.base()) || load) || in.operands.empty() || in.operands[0].kind != Operand::Kind::Register)
        continue;
      auto du = analysis::defUse(in);
      if (du.defs.size() != 1 || reads[du.defs[0]] != 0) continue;
      if (std::find(du.uses.begin(), du.uses.end(), du.defs[0]) != du.uses.end()) continue;
      for (auto u : du.uses) --reads[u];
      gone[i] = true;
      changed = true;
    }
  }
  std::vector<std::unique_ptr<ir::Stmt>> kept;
  for (size_t i = 0; i < body.size(); ++i)
    if (!gone[i]) kept.push_back(std::move(body[i]));
  body = std::move(kept);
}

}  // namespace

std::vector<Variant::DisjointParams> disjointPairs(const Plan &p) {
  std::vector<Variant::DisjointParams> pairs;
  for (int l : p.loadParams)
    pairs.push_back({static_cast<uint32_t>(std::min(l, p.storeParam)), static_cast<uint32_t>(std::max(l, p.storeParam))});
  return pairs;
}

Operand tileAddress(ir::Module &m, const std::string &addr, size_t k, uint64_t tileBytes) {
  Emitter e{m, {}};
  if (k == 0) return e.op("[" + addr + "]");
  return Operand{Operand::Kind::Address, "", {Operand{Operand::Kind::Sum, "+", {e.op(addr), e.op(std::to_string(k * tileBytes))}}}};
}

void loadsFromTiles(ir::Module &m, ir::Function &f, const Plan &p, const std::string &addr, uint64_t tileBytes) {
  for (size_t j = 0; j < p.loads.size(); ++j) {
    auto &s = f.body->body[stmtOfInstr(*f.body, p.loads[j])];
    const Operand value = static_cast<ir::Instruction &>(*s).operands[0];
    s = makeInstr(m, "ld.shared" + p.type, {value, tileAddress(m, addr, j, tileBytes)});
  }
}

void declareTile(ir::Module &m, ir::Function &clone, const std::string &name, uint64_t bytes) {
  auto d = std::make_unique<ir::Decl>();
  d->attrs = {m.intern(".shared"), m.intern(".align"), m.intern("16"), m.intern(".b8")};
  d->names.push_back({m.intern(name), std::nullopt, {bytes}});
  d->edited = true;
  clone.body->body.insert(clone.body->body.begin(), std::move(d));
  clone.body->edited = true;
}

std::unique_ptr<ir::Instruction> makeInstr(ir::Module &m, const std::string &opcode, std::vector<Operand> ops,
                                           std::string_view guard, bool negated) {
  auto in = std::make_unique<ir::Instruction>();
  in->opcode = m.intern(opcode);
  in->operands = std::move(ops);
  in->guard = guard;
  in->guardNegated = negated;
  in->edited = true;
  return in;
}

/// The row pitch of the tile, in elements: the one of bx .. bx+32 with the
/// fewest bank conflicts over both phases (the smallest on a tie): 33 for
/// 32 x 32, 18 for 16 x 16, 36 for 32 x 8 with 4-byte elements.
/// Pure in (bx, by, w) and asked for every clone of every kernel (the
/// search took half of `-O2`'s time on tests/lit/transpose/Inputs/sweep.ptx):
/// each answer is kept, under a lock (libptxopt may optimize modules on
/// several threads at once).
unsigned tilePitch(const Shape &s, unsigned w) {
  static std::mutex mu;
  static std::map<std::tuple<unsigned, unsigned, unsigned>, unsigned> known;
  const auto key = std::make_tuple(s.bx, s.by, w);
  {
    std::lock_guard lock(mu);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  unsigned best = s.bx, bestCost = UINT32_MAX;
  for (unsigned pitch = s.bx; pitch <= s.bx + 32; ++pitch) {
    unsigned cost = bankConflicts(s, pitch, w, false) + bankConflicts(s, pitch, w, true);
    if (cost < bestCost) best = pitch, bestCost = cost;
  }
  std::lock_guard lock(mu);
  known.emplace(key, best);
  return best;
}

std::vector<std::unique_ptr<ir::Stmt>> phase1Copy(ir::Module &m, const ir::Function &k, const Plan &p,
                                                  const std::map<std::string, std::string> &names,
                                                  const std::string &addr, const std::string &end,
                                                  const std::string &labelSuffix, uint64_t tileBytes) {
  auto p1 = cloneBody(k, std::string(k.name) + "_phase1", labelSuffix, m);
  replaceSpecialReads(*p1->body, names, m);
  auto &b1 = p1->body->body;
  std::set<const ir::Stmt *> stores;  // removed below, after the insertions by index
  for (uint32_t st : p.stores) stores.insert(b1[stmtOfInstr(*p1->body, st)].get());
  std::vector<size_t> ldAt;
  for (uint32_t l : p.loads) ldAt.push_back(stmtOfInstr(*p1->body, l));
  for (auto &s : b1) {
    if (s->kind != ir::Stmt::Kind::Instruction) continue;
    auto &in = static_cast<ir::Instruction &>(*s);
    if (analysis::flowOf(in) == analysis::Flow::Return)
      s = makeInstr(m, "bra", {Operand::sym(m.intern(end))}, in.guard, in.guardNegated);
  }
  Emitter e{m, {}};
  b1.insert(b1.begin() + static_cast<long>(ldAt.back()) + 1, makeInstr(m, "bra.uni", {Operand::sym(m.intern(end))}));
  for (size_t j = ldAt.size(); j-- > 0;) {  // the last first: the earlier indices stay
    const Operand value = static_cast<ir::Instruction &>(*b1[ldAt[j]]).operands[0];
    b1.insert(b1.begin() + static_cast<long>(ldAt[j]) + 1,
              makeInstr(m, "st.shared" + p.type, {tileAddress(m, addr, j, tileBytes), value}));
  }
  std::erase_if(b1, [&](const std::unique_ptr<ir::Stmt> &st) { return stores.count(st.get()) != 0; });
  removeDeadPhase1(*p1->body);
  std::vector<std::unique_ptr<ir::Stmt>> out;
  for (size_t i = prologueAt(*p1->body); i < b1.size(); ++i) out.push_back(std::move(b1[i]));
  return out;
}

}  // namespace transpose

}  // namespace ptxopt::transforms
