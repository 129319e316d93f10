// Reaching definitions (see ReachingDefs.h).
//
// Algorithm: the classic forward bit-vector problem. Every write of a
// register is a definition site; each register also has an entry site. For
// each block, GEN is the last write of each register in it and KILL every
// other site of the registers it writes; IN[b] = union of OUT[preds], solved
// by iterating in reverse post-order until nothing changes. A query for one
// read starts from IN of its block and scans the block up to the read.
#include "ptxopt/analysis/ReachingDefs.h"

#include <algorithm>

namespace ptxopt::analysis {

namespace {
using Bits = std::vector<uint64_t>;
inline void set(Bits &b, uint32_t i) { b[i >> 6] |= uint64_t{1} << (i & 63); }
inline bool test(const Bits &b, uint32_t i) { return (b[i >> 6] >> (i & 63)) & 1; }
}  // namespace

ReachingDefs::ReachingDefs(const CFG &cfg) : cfg_(cfg) {
  const auto &instrs = cfg.instructions();
  du_.reserve(instrs.size());
  for (const auto *in : instrs) du_.push_back(analysis::defUse(*in));
  auto idOf = [&](std::string_view r) {
    auto [it, fresh] = regId_.try_emplace(r, static_cast<uint32_t>(regId_.size()));
    return it->second;
  };
  for (const auto &du : du_) {
    for (auto r : du.defs) idOf(r);
    for (auto r : du.uses) idOf(r);
  }
  const uint32_t nregs = static_cast<uint32_t>(regId_.size());
  sitesOfReg_.assign(nregs, {});
  for (uint32_t r = 0; r < nregs; ++r) {
    sitesOfReg_[r].push_back(static_cast<uint32_t>(sites_.size()));
    sites_.push_back({kEntry, r});
  }
  std::vector<std::vector<uint32_t>> sitesOfInstr(instrs.size());
  for (uint32_t i = 0; i < instrs.size(); ++i)
    for (auto r : du_[i].defs) {
      uint32_t id = regId_[r];
      uint32_t s = static_cast<uint32_t>(sites_.size());
      sites_.push_back({i, id});
      sitesOfReg_[id].push_back(s);
      sitesOfInstr[i].push_back(s);
    }
  const size_t words = (sites_.size() + 63) / 64;
  const auto &blocks = cfg.blocks();
  std::vector<Bits> gen(blocks.size(), Bits(words)), kill(blocks.size(), Bits(words));
  // A guarded write (@%p mov %r1, 0) may not happen: it generates its site
  // but kills nothing, and earlier writes in the block still reach the end.
  for (const auto &b : blocks) {
    std::unordered_map<uint32_t, std::vector<uint32_t>> live;  // reg -> sites reaching the block end
    for (uint32_t i = b.first; i < b.last; ++i) {
      bool guarded = !cfg.instructions()[i]->guard.empty();
      for (uint32_t s : sitesOfInstr[i]) {
        auto &l = live[sites_[s].reg];
        if (!guarded) {
          l.clear();
          for (uint32_t k : sitesOfReg_[sites_[s].reg]) set(kill[b.id], k);
        }
        l.push_back(s);
      }
    }
    for (auto &[reg, ss] : live)
      for (uint32_t s : ss) set(gen[b.id], s);
  }
  in_.assign(blocks.size(), Bits(words));
  std::vector<Bits> out(blocks.size(), Bits(words));
  if (!blocks.empty())
    for (uint32_t r = 0; r < nregs; ++r) set(in_[0], sitesOfReg_[r][0]);
  bool changed = true;
  while (changed) {
    changed = false;
    for (uint32_t b : cfg.rpo()) {
      Bits in = b == 0 ? in_[0] : Bits(words);
      for (uint32_t p : blocks[b].preds)
        for (size_t w = 0; w < words; ++w) in[w] |= out[p][w];
      Bits o(words);
      for (size_t w = 0; w < words; ++w) o[w] = gen[b][w] | (in[w] & ~kill[b][w]);
      in_[b] = std::move(in);
      if (o != out[b]) {
        out[b] = std::move(o);
        changed = true;
      }
    }
  }
}

std::vector<uint32_t> ReachingDefs::defsAt(uint32_t at, std::string_view reg) const {
  auto it = regId_.find(reg);
  if (it == regId_.end()) return {kEntry};
  uint32_t b = cfg_.blockOf(at);
  const auto &blk = cfg_.blocks()[b];
  std::vector<uint32_t> out;
  for (uint32_t i = at; i-- > blk.first;) {
    if (std::find(du_[i].defs.begin(), du_[i].defs.end(), reg) == du_[i].defs.end()) continue;
    out.push_back(i);
    if (cfg_.instructions()[i]->guard.empty()) {  // an unguarded write hides all before it
      std::sort(out.begin(), out.end());
      return out;
    }
  }
  bool entry = false;
  for (uint32_t s : sitesOfReg_[it->second]) {
    if (!test(in_[b], s)) continue;
    if (sites_[s].instr == kEntry) entry = true;
    else out.push_back(sites_[s].instr);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (entry) out.push_back(kEntry);
  return out;
}

std::vector<uint32_t> ReachingDefs::usesOf(uint32_t def, std::string_view reg) const {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < du_.size(); ++i) {
    if (!cfg_.blocks()[cfg_.blockOf(i)].reachable) continue;
    bool reads = std::find(du_[i].uses.begin(), du_[i].uses.end(), reg) != du_[i].uses.end();
    if (!reads) continue;
    auto d = defsAt(i, reg);
    if (std::find(d.begin(), d.end(), def) != d.end()) out.push_back(i);
  }
  return out;
}

std::string ReachingDefs::print() const {
  std::string out;
  for (uint32_t i = 0; i < du_.size(); ++i) {
    if (!cfg_.blocks()[cfg_.blockOf(i)].reachable) continue;
    std::vector<std::string_view> seen;
    for (auto r : du_[i].uses) {
      if (std::find(seen.begin(), seen.end(), r) != seen.end()) continue;
      seen.push_back(r);
      out += std::string(r) + " @" + std::to_string(i) + ": defs";
      for (uint32_t d : defsAt(i, r)) out += d == kEntry ? " entry" : " " + std::to_string(d);
      out += "\n";
    }
  }
  return out;
}

}  // namespace ptxopt::analysis
