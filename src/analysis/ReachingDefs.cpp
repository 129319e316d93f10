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
inline void set(uint64_t *b, uint32_t i) { b[i >> 6] |= uint64_t{1} << (i & 63); }
inline bool test(const uint64_t *b, uint32_t i) { return (b[i >> 6] >> (i & 63)) & 1; }
}  // namespace

// Storage is flat (one bit matrix per set, one array of sites): a kernel of
// 20000 instructions made 160000 small allocations with a vector per block
// and per instruction, more time than the solving itself.
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
  // The sites of instruction i are siteBegin_[i] .. siteBegin_[i+1]-1, one per register it writes.
  siteBegin_.resize(instrs.size() + 1);
  for (uint32_t i = 0; i < instrs.size(); ++i) {
    siteBegin_[i] = static_cast<uint32_t>(sites_.size());
    for (auto r : du_[i].defs) {
      uint32_t id = regId_[r];
      sitesOfReg_[id].push_back(static_cast<uint32_t>(sites_.size()));
      sites_.push_back({i, id});
    }
  }
  siteBegin_[instrs.size()] = static_cast<uint32_t>(sites_.size());
  const size_t words = (sites_.size() + 63) / 64;
  words_ = words;
  const auto &blocks = cfg.blocks();
  std::vector<uint64_t> gen(blocks.size() * words), kill(blocks.size() * words);
  // A guarded write (@%p mov %r1, 0) may not happen: it generates its site
  // but kills nothing, and earlier writes in the block still reach the end.
  // live[reg]: the sites of reg reaching the end of the block so far, valid
  // where stamp[reg] is the block.
  std::vector<uint32_t> stamp(nregs, UINT32_MAX), touched;
  std::vector<std::vector<uint32_t>> live(nregs);
  for (const auto &b : blocks) {
    touched.clear();
    uint64_t *killB = &kill[b.id * words];
    for (uint32_t i = b.first; i < b.last; ++i) {
      bool guarded = !cfg.instructions()[i]->guard.empty();
      for (uint32_t s = siteBegin_[i]; s < siteBegin_[i + 1]; ++s) {
        uint32_t reg = sites_[s].reg;
        auto &l = live[reg];
        if (stamp[reg] != b.id) {
          stamp[reg] = b.id;
          l.clear();
          touched.push_back(reg);
        }
        if (!guarded) {
          l.clear();
          for (uint32_t k : sitesOfReg_[reg]) set(killB, k);
        }
        l.push_back(s);
      }
    }
    for (uint32_t reg : touched)
      for (uint32_t s : live[reg]) set(&gen[b.id * words], s);
  }
  in_.assign(blocks.size() * words, 0);
  std::vector<uint64_t> out(blocks.size() * words), entry(words), in(words);
  for (uint32_t r = 0; r < nregs; ++r) set(entry.data(), sitesOfReg_[r][0]);
  bool changed = true;
  while (changed) {
    changed = false;
    for (uint32_t b : cfg.rpo()) {
      if (b == 0) in = entry;
      else std::fill(in.begin(), in.end(), 0);
      for (uint32_t p : blocks[b].preds)
        for (size_t w = 0; w < words; ++w) in[w] |= out[p * words + w];
      std::copy(in.begin(), in.end(), in_.begin() + static_cast<ptrdiff_t>(b * words));
      for (size_t w = 0; w < words; ++w) {
        uint64_t o = gen[b * words + w] | (in[w] & ~kill[b * words + w]);
        if (o != out[b * words + w]) {
          out[b * words + w] = o;
          changed = true;
        }
      }
    }
  }
}

std::vector<uint32_t> ReachingDefs::defsAt(uint32_t at, std::string_view reg) const {
  auto it = regId_.find(reg);
  if (it == regId_.end()) return {kEntry};
  const uint32_t id = it->second;
  uint32_t b = cfg_.blockOf(at);
  const auto &blk = cfg_.blocks()[b];
  std::vector<uint32_t> out;
  for (uint32_t i = at; i-- > blk.first;) {
    bool writes = false;
    for (uint32_t s = siteBegin_[i]; s < siteBegin_[i + 1] && !writes; ++s) writes = sites_[s].reg == id;
    if (!writes) continue;
    out.push_back(i);
    if (cfg_.instructions()[i]->guard.empty()) {  // an unguarded write hides all before it
      std::sort(out.begin(), out.end());
      return out;
    }
  }
  bool entry = false;
  const uint64_t *inB = &in_[b * words_];
  for (uint32_t s : sitesOfReg_[id]) {
    if (!test(inB, s)) continue;
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
