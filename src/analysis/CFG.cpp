// Control-flow graph, dominators, post-dominators and natural loops.
//
// What: basic blocks and edges of one function; dominator trees; loops.
// Why: the address analysis needs loops (induction variables turn a loop's
// accesses into strides), reaching definitions need the edges, and the
// divergence and legality checks need dominance.
// Algorithm: leaders at labels and after control transfers; dominators by
// Cooper-Harvey-Kennedy ("A Simple, Fast Dominance Algorithm") over reverse
// post-order; post-dominators the same on the reversed graph with a virtual
// exit; natural loops from back edges (target dominates source).
// Limits: an indirect branch (brx.idx) gets edges to every label of its
// .branchtargets table when the table is found, otherwise to every label of
// the function (conservative).
#include "ptxopt/analysis/CFG.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "ptxopt/analysis/Semantics.h"
#include "ptxopt/printer/Printer.h"

namespace ptxopt::analysis {

using namespace ir;

namespace {

struct Flat {
  std::vector<const Instruction *> instrs;
  std::vector<const Directive *> locs;
  // label -> index of the next instruction
  std::unordered_map<std::string_view, uint32_t> labelAt;
  std::vector<std::vector<std::string_view>> labelsBefore;  // per instruction
  std::unordered_map<std::string_view, std::vector<std::string_view>> tables;  // .branchtargets
  std::vector<std::string_view> pendingLabels;
  const Directive *loc = nullptr;

  void walk(const Block &b) {
    std::string_view pendingTable;
    for (const auto &s : b.body) {
      switch (s->kind) {
      case Stmt::Kind::Label: {
        auto name = static_cast<const Label &>(*s).name;
        pendingLabels.push_back(name);
        pendingTable = name;
        continue;
      }
      case Stmt::Kind::Directive: {
        const auto &d = static_cast<const Directive &>(*s);
        if (d.name == ".loc") loc = &d;
        if (d.name == ".branchtargets" && !pendingTable.empty()) {
          auto &t = tables[pendingTable];
          for (auto tok : d.tokens)
            if (tok != ",") t.push_back(tok);
        }
        break;
      }
      case Stmt::Kind::Instruction: {
        uint32_t idx = static_cast<uint32_t>(instrs.size());
        for (auto l : pendingLabels) labelAt[l] = idx;
        labelsBefore.push_back(std::move(pendingLabels));
        pendingLabels.clear();
        instrs.push_back(static_cast<const Instruction *>(s.get()));
        locs.push_back(loc);
        break;
      }
      case Stmt::Kind::Block: walk(static_cast<const Block &>(*s)); break;
      case Stmt::Kind::Decl: break;
      }
      pendingTable = {};
    }
  }
};

}  // namespace

CFG::CFG(const Function &f) : f_(&f) {
  Flat flat;
  if (f.body) flat.walk(*f.body);
  instrs_ = std::move(flat.instrs);
  locs_ = std::move(flat.locs);
  const uint32_t n = static_cast<uint32_t>(instrs_.size());
  // Labels at the very end of the body name an empty final block.
  bool trailingLabels = !flat.pendingLabels.empty();

  std::vector<bool> leader(n + 1, false);
  if (n) leader[0] = true;
  for (uint32_t i = 0; i < n; ++i) {
    if (!flat.labelsBefore[i].empty()) leader[i] = true;
    if (flowOf(*instrs_[i]) != Flow::Next && i + 1 <= n) leader[i + 1] = true;
  }
  blockOf_.assign(n, 0);
  blocks_.reserve(static_cast<size_t>(std::count(leader.begin(), leader.end(), true)) + 1);
  for (uint32_t i = 0; i < n; ++i) {
    if (leader[i]) {
      BasicBlock b;
      b.id = static_cast<uint32_t>(blocks_.size());
      b.first = i;
      b.labels = std::move(flat.labelsBefore[i]);  // (not read after this loop)
      blocks_.push_back(std::move(b));
    }
    blockOf_[i] = static_cast<uint32_t>(blocks_.size() - 1);
    blocks_.back().last = i + 1;
  }
  std::unordered_map<std::string_view, uint32_t> labelBlock;
  for (auto &[label, idx] : flat.labelAt) labelBlock[label] = blockOf_[idx];
  if (trailingLabels || blocks_.empty()) {
    BasicBlock b;
    b.id = static_cast<uint32_t>(blocks_.size());
    b.first = b.last = n;
    b.labels = flat.pendingLabels;
    for (auto l : b.labels) labelBlock[l] = b.id;
    blocks_.push_back(b);
  }

  auto edge = [&](uint32_t a, uint32_t b) {
    auto &s = blocks_[a].succs, &p = blocks_[b].preds;
    if (std::find(s.begin(), s.end(), b) == s.end()) {
      // Room for two at the first (most blocks have one or two of each:
      // a vector's growth from one to two was an allocation more).
      if (s.empty()) s.reserve(2);
      if (p.empty()) p.reserve(2);
      s.push_back(b);
      p.push_back(a);
    }
  };
  for (auto &b : blocks_) {
    bool fallsThrough = true;
    if (b.last > b.first) {
      const Instruction &in = *instrs_[b.last - 1];
      bool guarded = !in.guard.empty();
      switch (flowOf(in)) {
      case Flow::Branch: {
        auto it = labelBlock.find(branchTarget(in));
        if (it != labelBlock.end()) edge(b.id, it->second);
        fallsThrough = guarded;
        break;
      }
      case Flow::IndirectBranch: {
        std::string_view table = in.operands.size() > 1 ? in.operands[1].text : std::string_view{};
        auto t = flat.tables.find(table);
        if (t != flat.tables.end()) {
          for (auto l : t->second)
            if (labelBlock.count(l)) edge(b.id, labelBlock[l]);
        } else {
          for (auto &[l, blk] : labelBlock) edge(b.id, blk);
        }
        fallsThrough = guarded;
        break;
      }
      case Flow::Return:
      case Flow::Trap: fallsThrough = guarded; break;
      case Flow::Next: break;
      }
    }
    if (fallsThrough && b.id + 1 < blocks_.size()) edge(b.id, b.id + 1);
  }
  for (auto &b : blocks_) std::sort(b.preds.begin(), b.preds.end());

  // Reverse post-order from the entry.
  std::vector<uint32_t> post;
  std::vector<uint8_t> state(blocks_.size(), 0);
  std::vector<std::pair<uint32_t, size_t>> stack;
  if (!blocks_.empty()) {
    stack.push_back({0, 0});
    state[0] = 1;
  }
  while (!stack.empty()) {
    auto &[b, i] = stack.back();
    if (i < blocks_[b].succs.size()) {
      uint32_t s = blocks_[b].succs[i++];
      if (!state[s]) {
        state[s] = 1;
        stack.push_back({s, 0});
      }
    } else {
      post.push_back(b);
      stack.pop_back();
    }
  }
  rpo_.assign(post.rbegin(), post.rend());
  for (uint32_t b : rpo_) blocks_[b].reachable = true;
}

uint32_t CFG::indexOf(const Instruction *in) const {
  // Sorted on the first question: the report and the passes ask once per
  // fact or statement, and a scan per question was quadratic in a kernel.
  if (index_.size() != instrs_.size()) {
    index_.clear();
    index_.reserve(instrs_.size());
    for (uint32_t i = 0; i < instrs_.size(); ++i) index_.push_back({instrs_[i], i});
    std::sort(index_.begin(), index_.end());
  }
  auto it = std::lower_bound(index_.begin(), index_.end(), std::make_pair(in, uint32_t{0}));
  return it != index_.end() && it->first == in ? it->second : UINT32_MAX;
}

std::vector<uint32_t> CFG::exits() const {
  std::vector<uint32_t> out;
  for (const auto &b : blocks_)
    if (b.reachable && b.succs.empty()) out.push_back(b.id);
  return out;
}

std::string blockName(const CFG &cfg, uint32_t b) {
  const auto &bb = cfg.blocks()[b];
  if (!bb.labels.empty()) return std::string(bb.labels.front());
  return "bb" + std::to_string(b);
}

std::string CFG::toDot() const {
  auto esc = [](const std::string &s) {
    std::string o;
    for (char c : s) {
      if (c == '"' || c == '\\' || c == '{' || c == '}' || c == '<' || c == '>' || c == '|') o += '\\';
      o += c;
    }
    return o;
  };
  std::string out = "digraph \"" + std::string(f_->name) + "\" {\n  node [shape=record, fontname=monospace];\n";
  for (const auto &b : blocks_) {
    out += "  b" + std::to_string(b.id) + " [label=\"{" + esc(blockName(*this, b.id)) + ":";
    for (uint32_t i = b.first; i < b.last; ++i) out += "\\l" + esc(printStmt(*instrs_[i]));
    out += "\\l}\"";
    if (!b.reachable) out += ", style=dashed";
    out += "];\n";
  }
  for (const auto &b : blocks_) {
    const Instruction *last = b.last > b.first ? instrs_[b.last - 1] : nullptr;
    bool cond = last && flowOf(*last) == Flow::Branch && !last->guard.empty();
    for (uint32_t s : b.succs) {
      out += "  b" + std::to_string(b.id) + " -> b" + std::to_string(s);
      if (cond) out += (s == b.id + 1 && b.succs.size() > 1 && s != b.succs.front()) ? " [label=\"F\"]" : " [label=\"T\"]";
      out += ";\n";
    }
  }
  out += "}\n";
  return out;
}

// ---------------------------------------------------------------- dominators

DominatorTree::DominatorTree(const CFG &cfg, bool post) : post_(post) {
  const auto &blocks = cfg.blocks();
  const uint32_t n = static_cast<uint32_t>(blocks.size());
  const uint32_t virt = n;  // the virtual exit (post-dominators only)
  idom_.assign(n, kNone);
  if (!n) return;

  // Iteration order: RPO of the (reversed) graph. The edge lists are the
  // blocks' own, by reference (a copy per call was 18000 allocations on a
  // large module); only the virtual exit's edges are made here.
  std::vector<uint32_t> order;
  const std::vector<uint32_t> none, toVirt{virt}, exits = post ? cfg.exits() : std::vector<uint32_t>{};
  auto succs = [&](uint32_t b) -> const std::vector<uint32_t> & {
    if (!post) return b == virt ? none : blocks[b].succs;
    if (b == virt) return exits;
    return blocks[b].preds;
  };
  auto preds = [&](uint32_t b) -> const std::vector<uint32_t> & {
    if (!post) return blocks[b].preds;
    if (blocks[b].succs.empty() && blocks[b].reachable) return toVirt;
    return blocks[b].succs;
  };
  uint32_t root = post ? virt : 0;
  {
    std::vector<uint32_t> postorder;
    std::vector<uint8_t> seen(n + 1, 0);
    std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
    seen[root] = 1;
    while (!stack.empty()) {
      auto &[b, i] = stack.back();
      if (i < succs(b).size()) {
        uint32_t s = succs(b)[i++];
        if (!seen[s] && (s == virt || blocks[s].reachable)) {
          seen[s] = 1;
          stack.push_back({s, 0});
        }
      } else {
        postorder.push_back(b);
        stack.pop_back();
      }
    }
    order.assign(postorder.rbegin(), postorder.rend());
  }
  order_.assign(n + 1, kNone);
  for (uint32_t i = 0; i < order.size(); ++i) order_[order[i]] = i;

  std::vector<uint32_t> idom(n + 1, kNone);
  idom[root] = root;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (order_[a] > order_[b]) a = idom[a];
      while (order_[b] > order_[a]) b = idom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (uint32_t b : order) {
      if (b == root) continue;
      uint32_t nd = kNone;
      for (uint32_t p : preds(b)) {
        if (p != virt && !blocks[p].reachable) continue;
        if (order_[p] == kNone || idom[p] == kNone) continue;
        nd = nd == kNone ? p : intersect(p, nd);
      }
      if (nd != kNone && idom[b] != nd) {
        idom[b] = nd;
        changed = true;
      }
    }
  }
  for (uint32_t b = 0; b < n; ++b) idom_[b] = (idom[b] == virt || b == root) ? kNone : idom[b];
  if (!post) idom_[0] = kNone;
  // Blocks the walk never reached (unreachable, or no path to an exit).
  for (uint32_t b = 0; b < n; ++b)
    if (order_[b] == kNone) idom_[b] = kNone;
}

bool DominatorTree::dominates(uint32_t a, uint32_t b) const {
  if (a >= idom_.size() || b >= idom_.size() || order_[a] == kNone || order_[b] == kNone) return false;
  while (true) {
    if (a == b) return true;
    uint32_t up = idom_[b];
    if (up == kNone) return false;
    b = up;
  }
}

std::string DominatorTree::print(const CFG &cfg) const {
  std::string out;
  for (uint32_t b = 0; b < idom_.size(); ++b) {
    if (order_[b] == kNone) continue;
    out += (post_ ? "ipdom(" : "idom(") + blockName(cfg, b) + ") = ";
    out += idom_[b] == kNone ? (post_ ? std::string("<exit>") : std::string("<entry>")) : blockName(cfg, idom_[b]);
    out += "\n";
  }
  return out;
}

// ---------------------------------------------------------------- loops

bool Loop::contains(uint32_t b) const { return std::binary_search(blocks.begin(), blocks.end(), b); }

bool runsEveryIteration(const Loop &L, uint32_t b, const DominatorTree &dom) {
  return std::all_of(L.latches.begin(), L.latches.end(), [&](uint32_t t) { return dom.dominates(b, t); });
}

LoopInfo::LoopInfo(const CFG &cfg, const DominatorTree &dom) {
  const auto &blocks = cfg.blocks();
  innermost_.assign(blocks.size(), std::nullopt);
  std::vector<Loop> byHeader;
  std::unordered_map<uint32_t, size_t> headerIndex;
  for (uint32_t b : cfg.rpo()) {
    for (uint32_t s : blocks[b].succs) {
      if (!dom.dominates(s, b)) continue;  // not a back edge
      auto [it, fresh] = headerIndex.try_emplace(s, byHeader.size());
      if (fresh) {
        Loop l;
        l.header = s;
        l.blocks.push_back(s);
        byHeader.push_back(l);
      }
      Loop &l = byHeader[it->second];
      l.latches.push_back(b);
      // Body: blocks that reach the latch without passing the header.
      std::vector<uint32_t> work{b};
      while (!work.empty()) {
        uint32_t x = work.back();
        work.pop_back();
        if (std::find(l.blocks.begin(), l.blocks.end(), x) != l.blocks.end()) continue;
        l.blocks.push_back(x);
        for (uint32_t p : blocks[x].preds)
          if (blocks[p].reachable) work.push_back(p);
      }
    }
  }
  for (auto &l : byHeader) {
    std::sort(l.blocks.begin(), l.blocks.end());
    std::sort(l.latches.begin(), l.latches.end());
  }
  // Outer loops first (more blocks), ties by header position.
  std::sort(byHeader.begin(), byHeader.end(), [](const Loop &a, const Loop &b) {
    return a.blocks.size() != b.blocks.size() ? a.blocks.size() > b.blocks.size() : a.header < b.header;
  });
  for (uint32_t i = 0; i < byHeader.size(); ++i) {
    byHeader[i].id = i;
    for (uint32_t j = i; j-- > 0;) {
      if (byHeader[j].contains(byHeader[i].header)) {
        byHeader[i].parent = j;
        byHeader[i].depth = byHeader[j].depth + 1;
        break;
      }
    }
  }
  loops_ = std::move(byHeader);
  for (const auto &l : loops_)
    for (uint32_t b : l.blocks)
      if (!innermost_[b] || loops_[*innermost_[b]].depth < l.depth) innermost_[b] = l.id;
}

std::string LoopInfo::print(const CFG &cfg) const {
  std::string out;
  for (const auto &l : loops_) {
    out += "loop " + std::to_string(l.id) + ": header " + blockName(cfg, l.header) + ", depth " +
           std::to_string(l.depth);
    if (l.parent) out += ", parent loop " + std::to_string(*l.parent);
    out += ", blocks";
    for (uint32_t b : l.blocks) out += " " + blockName(cfg, b);
    out += ", latches";
    for (uint32_t b : l.latches) out += " " + blockName(cfg, b);
    out += "\n";
  }
  return out;
}

}  // namespace ptxopt::analysis
