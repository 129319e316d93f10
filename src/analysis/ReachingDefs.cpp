// Reaching definitions (see ReachingDefs.h).
//
// Algorithm: the classic forward bit-vector problem. Every write of a
// register is a definition site; each register also has an entry site. For
// each block, GEN is the last write of each register in it and KILL every
// other site of the registers it writes; IN[b] = union of OUT[preds], solved
// by iterating in reverse post-order until nothing changes. A query for one
// read starts from IN of its block and scans the block up to the read.
// Registers written by a single instruction have no bits: dominance and
// reachability answer for them (see the constructor and defsAt).
#include "ptxopt/analysis/ReachingDefs.h"

#include <algorithm>

namespace ptxopt::analysis {

namespace {
inline void set(uint64_t *b, uint32_t i) { b[i >> 6] |= uint64_t{1} << (i & 63); }
inline bool test(const uint64_t *b, uint32_t i) { return (b[i >> 6] >> (i & 63)) & 1; }
}  // namespace

void ReachingDefs::NameTable::reserve(size_t n) {
  size_t cap = 16;
  while (cap < 2 * n) cap <<= 1;
  if (cap <= slots_.size()) return;
  std::vector<Slot> old;
  old.swap(slots_);
  slots_.assign(cap, Slot{});
  mask_ = cap - 1;
  for (const Slot &s : old)
    if (s.id != UINT32_MAX)
      for (size_t i = NameHash()(s.name) & mask_;; i = (i + 1) & mask_)
        if (slots_[i].id == UINT32_MAX) {
          slots_[i] = s;
          break;
        }
}

uint32_t ReachingDefs::NameTable::insert(std::string_view name) {
  if (2 * (size_ + 1) > slots_.size()) reserve(size_ + 1);
  for (size_t i = NameHash()(name) & mask_;; i = (i + 1) & mask_) {
    Slot &s = slots_[i];
    if (s.id == UINT32_MAX) {
      s = {name, static_cast<uint32_t>(size_++)};
      return s.id;
    }
    if (s.name == name) return s.id;
  }
}

// Storage is flat (one bit matrix per set, one array of sites): a kernel of
// 20000 instructions made 160000 small allocations with a vector per block
// and per instruction, more time than the solving itself.
ReachingDefs::ReachingDefs(const CFG &cfg) : ReachingDefs(cfg, DominatorTree(cfg, false)) {}

ReachingDefs::ReachingDefs(const CFG &cfg, const DominatorTree &dom) : cfg_(cfg) {
  const auto &instrs = cfg.instructions();
  du_.reserve(instrs.size());
  for (const auto *in : instrs) du_.push_back(analysis::defUse(*in));
  auto idOf = [&](std::string_view r) { return regId_.insert(r); };
  regId_.reserve(instrs.size());
  std::vector<uint32_t> defIds;  // the ids of every instruction's defs, in order
  size_t ndefs = 0, nuses = 0;
  for (const auto &du : du_) ndefs += du.defs.size(), nuses += du.uses.size();
  defIds.reserve(ndefs);  // (growing them freed a buffer at each doubling)
  useIds_.reserve(nuses);
  useBegin_.reserve(instrs.size() + 1);
  for (const auto &du : du_) {
    for (auto r : du.defs) defIds.push_back(idOf(r));
    useBegin_.push_back(static_cast<uint32_t>(useIds_.size()));
    for (auto r : du.uses) useIds_.push_back(idOf(r));
  }
  useBegin_.push_back(static_cast<uint32_t>(useIds_.size()));
  const uint32_t nregs = static_cast<uint32_t>(regId_.size());
  // Sites: one entry site per register (ids 0..nregs-1), then one per write
  // in instruction order; the sites of instruction i are siteBegin_[i] ..
  // siteBegin_[i+1]-1.
  sites_.reserve(nregs + instrs.size());
  for (uint32_t r = 0; r < nregs; ++r) sites_.push_back({kEntry, r});
  siteBegin_.resize(instrs.size() + 1);
  for (uint32_t i = 0, k = 0; i < instrs.size(); ++i) {
    siteBegin_[i] = static_cast<uint32_t>(sites_.size());
    for (size_t d = 0; d < du_[i].defs.size(); ++d) sites_.push_back({i, defIds[k++]});
  }
  siteBegin_[instrs.size()] = static_cast<uint32_t>(sites_.size());
  // The sites of each register, in increasing order (its entry site first),
  // as ranges of one array.
  regSitesBegin_.assign(nregs + 1, 0);
  for (const auto &st : sites_) ++regSitesBegin_[st.reg + 1];
  for (uint32_t r = 0; r < nregs; ++r) regSitesBegin_[r + 1] += regSitesBegin_[r];
  regSites_.resize(sites_.size());
  {
    std::vector<uint32_t> fill(regSitesBegin_.begin(), regSitesBegin_.end() - 1);
    for (uint32_t s = 0; s < sites_.size(); ++s) regSites_[fill[sites_[s].reg]++] = s;
  }
  // Registers written by at most one instruction (most of nvcc's, which
  // are nearly SSA) stay out of the bit vectors: which of their two sites
  // reaches a block follows from dominance and reachability (defsAt). Only
  // the sites of registers written in several places get a bit, which made
  // the vectors several times shorter.
  sparse_.assign(nregs, 1);
  bit_.assign(sites_.size(), UINT32_MAX);
  uint32_t nbits = 0;
  for (uint32_t r = 0; r < nregs; ++r) {
    const uint32_t b0 = regSitesBegin_[r], b1 = regSitesBegin_[r + 1];
    for (uint32_t k = b0 + 2; k < b1; ++k)
      if (sites_[regSites_[k]].instr != sites_[regSites_[b0 + 1]].instr) sparse_[r] = 0;
    if (!sparse_[r])
      for (uint32_t k = b0; k < b1; ++k) bit_[regSites_[k]] = nbits++;
  }
  const size_t words = (nbits + 63) / 64;
  words_ = words;
  const auto &blocks = cfg.blocks();
  {
    // Dominance of reachable blocks as intervals of a walk of the
    // dominator tree: B dominates A iff A's interval lies in B's.
    std::vector<std::vector<uint32_t>> kids(blocks.size());
    for (uint32_t b = 0; b < blocks.size(); ++b)
      if (dom.idom(b) != DominatorTree::kNone && blocks[b].reachable) kids[dom.idom(b)].push_back(b);
    domIn_.assign(blocks.size(), UINT32_MAX);
    domOut_.assign(blocks.size(), 0);
    if (!blocks.empty() && blocks[0].reachable) {
      uint32_t clock = 0;
      std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
      domIn_[0] = clock++;
      while (!stack.empty()) {
        auto &[b, i] = stack.back();
        if (i < kids[b].size()) {
          uint32_t c = kids[b][i++];
          domIn_[c] = clock++;
          stack.push_back({c, 0});
        } else {
          domOut_[b] = clock++;
          stack.pop_back();
        }
      }
    }
  }
  std::vector<uint64_t> gen(blocks.size() * words), kill(blocks.size() * words);
  // A guarded write (@%p mov %r1, 0) may not happen: it generates its site
  // but kills nothing, and earlier writes in the block still reach the end.
  // Backwards through the block: a site reaches the end unless an unguarded
  // write of its register comes after it (closed[reg] == the block).
  std::vector<uint32_t> closed(nregs, UINT32_MAX), killed(nregs, UINT32_MAX);
  for (const auto &b : blocks) {
    uint64_t *genB = gen.data() + b.id * words, *killB = kill.data() + b.id * words;
    for (uint32_t i = b.last; i-- > b.first;) {
      bool guarded = !cfg.instructions()[i]->guard.empty();
      for (uint32_t s = siteBegin_[i + 1]; s-- > siteBegin_[i];) {  // {%r1, %r1}: the last write wins
        uint32_t reg = sites_[s].reg;
        if (sparse_[reg]) continue;
        if (closed[reg] != b.id) set(genB, bit_[s]);
        if (guarded) continue;
        closed[reg] = b.id;
        if (killed[reg] != b.id) {
          killed[reg] = b.id;
          for (uint32_t k = regSitesBegin_[reg]; k < regSitesBegin_[reg + 1]; ++k) set(killB, bit_[regSites_[k]]);
        }
      }
    }
  }
  in_.assign(blocks.size() * words, 0);
  std::vector<uint64_t> out(blocks.size() * words), entry(words), in(words);
  for (uint32_t r = 0; r < nregs; ++r)
    if (!sparse_[r]) set(entry.data(), bit_[r]);  // entry sites (site r is register r's)
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

bool ReachingDefs::dominates(uint32_t b, uint32_t a) const {
  return domIn_[b] != UINT32_MAX && domIn_[a] != UINT32_MAX && domIn_[b] <= domIn_[a] && domOut_[a] <= domOut_[b];
}

bool ReachingDefs::reachesAfter(uint32_t b, uint32_t a) const {
  // A block that b dominates is reached from b (every path to it passes b).
  if (a != b && dominates(b, a)) return true;
  // Otherwise from the blocks reached from each block, all made at the
  // first such question: after(x) = the union over x's successors s of
  // {s} + after(s), iterated to the least fixed point, in post-order (a
  // walk per block asked for was 5% of a run).
  const auto &blocks = cfg_.blocks();
  const size_t n = blocks.size(), words = (n + 63) / 64;
  if (after_.empty()) {
    after_.assign(n * words, 0);
    const auto &rpo = cfg_.rpo();
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t k = rpo.size(); k-- > 0;) {
        const uint32_t x = rpo[k];
        uint64_t *row = after_.data() + size_t{x} * words;
        for (uint32_t s : blocks[x].succs) {
          const uint64_t *from = after_.data() + size_t{s} * words;
          for (size_t w = 0; w < words; ++w) {
            uint64_t v = row[w] | from[w] | (w == s / 64 ? uint64_t{1} << (s % 64) : 0);
            changed |= v != row[w];
            row[w] = v;
          }
        }
      }
    }
  }
  return test(after_.data() + size_t{b} * words, a);
}

std::vector<uint32_t> ReachingDefs::defsAt(uint32_t at, std::string_view reg) const {
  std::vector<uint32_t> out;
  defsAt(at, reg, out);
  return out;
}

void ReachingDefs::defsAt(uint32_t at, std::string_view reg, std::vector<uint32_t> &out) const {
  defsOfId(at, regId_.find(reg), out);
}

void ReachingDefs::defsOfId(uint32_t at, uint32_t id, std::vector<uint32_t> &out) const {
  out.clear();
  if (id == UINT32_MAX) {
    out.push_back(kEntry);
    return;
  }
  uint32_t b = cfg_.blockOf(at);
  const auto &blk = cfg_.blocks()[b];
  // The register's writes in the block before `at`, latest first: its sites
  // are in instruction order, so a binary search finds the last one before
  // `at` (a scan back through the block was most of the cost in long blocks).
  const uint32_t *first = regSites_.data() + regSitesBegin_[id] + 1;  // its entry site skipped
  const uint32_t *last = regSites_.data() + regSitesBegin_[id + 1];
  const uint32_t *p = std::lower_bound(first, last, at, [&](uint32_t s, uint32_t i) { return sites_[s].instr < i; });
  uint32_t prev = UINT32_MAX;
  while (p != first && sites_[p[-1]].instr >= blk.first) {
    uint32_t i = sites_[*--p].instr;
    if (i == prev) continue;  // {%r1, %r1}: one instruction
    prev = i;
    out.push_back(i);
    if (cfg_.instructions()[i]->guard.empty()) {  // an unguarded write hides all before it
      if (out.size() > 1) std::sort(out.begin(), out.end());
      return;
    }
  }
  bool entry = false;
  if (sparse_[id]) {
    // Written by one instruction d in block B (or never): d reaches the
    // start of b when a path leads from B's end to b; the entry value
    // when a path from the entry reaches b without passing through an
    // unguarded d, i.e. unless B strictly dominates b. Nothing reaches an
    // unreachable block.
    if (blk.reachable) {
      const uint32_t k0 = regSitesBegin_[id] + 1;
      if (k0 == regSitesBegin_[id + 1]) {
        entry = true;
      } else {
        const uint32_t d = sites_[regSites_[k0]].instr, B = cfg_.blockOf(d);
        const bool live = cfg_.blocks()[B].reachable;
        // (out holds d already when a guarded d precedes `at` in b.)
        if (out.empty() && live && reachesAfter(B, b)) out.push_back(d);
        entry = !cfg_.instructions()[d]->guard.empty() || !live || B == b || !dominates(B, b);
      }
    }
    // out is empty or {d}: sorted and unique.
    if (entry) out.push_back(kEntry);
    return;
  }
  const uint64_t *inB = in_.data() + b * words_;
  for (uint32_t k = regSitesBegin_[id]; k < regSitesBegin_[id + 1]; ++k) {
    uint32_t s = regSites_[k];
    if (!test(inB, bit_[s])) continue;
    if (sites_[s].instr == kEntry) entry = true;
    else out.push_back(sites_[s].instr);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (entry) out.push_back(kEntry);
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
