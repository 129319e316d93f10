// pack: intra-thread grouping (van den Braak et al., SAMOS 2010, section
// IV-B, "grouping within a thread"), on a clone of the kernel.
//
// What: loads of one thread from adjacent addresses (`[%rd+0]`, `[%rd+1]`,
// `[%rd+2]`, `[%rd+3]` of 8-bit data, the row of pixels a DCT reads, a
// thread handling four bytes) become one 4-, 8- or 16-byte vector load,
// unpacked into the original destination registers.
// Why it pays: one memory instruction instead of up to 16, and one request
// per warp where there were as many as the loads; short-word loads are the
// costliest per byte.
// Algorithm: the body is scanned in windows of code between labels,
// branches, stores, atomics, barriers, fences and calls (no memory write may
// lie between loads that are merged, and merged loads run together). In a
// window, unguarded scalar global loads of width w in {1, 2, 4} with the
// same opcode and the same base register (not redefined in the window) are
// grouped by their constant offsets; runs of n consecutive elements with
// n*w in {16, 8, 4} (largest first) are merged when the first address is a
// multiple of n*w: every term of its polynomial (affine analysis) a multiple
// of n*w, except terms with one parameter, which become runtime conditions
// on that argument (a pointer's alignment, a row pitch). The vector load
// takes the place of the first load; the others move up to it, which needs
// their destination registers not to be read or written in between.
// The clone keeps the launch (identity), so the manifest holds only the
// parameter conditions; when they fail at launch the original runs.
// Clones made by earlier passes are packed too (the pack clone of a swap
// clone is preferred over it, with the same launch); an original that has
// clones is left to them.
// Refuses (remark): nested blocks, and kernels with no such run.
// Not done yet: unrolling loops to create runs (the paper unrolled the
// DCT's inner loop; nvcc unrolls loops with a constant trip count itself),
// stores.
#include <algorithm>
#include <numeric>

#include "CloneUtil.h"
#include "Pass.h"

namespace ptxopt::transforms {

using analysis::AccessInfo;
using ir::Instruction;
using ir::Operand;
using ir::Stmt;
using namespace clone;

namespace {

struct Load {
  size_t stmt;          // index in the body
  const AccessInfo *a;  // its address
  std::string reg;      // base register
  int64_t off;          // constant offset in the address
  unsigned w;
  std::string key;      // opcode: loads merge only with the same one
};

struct Run {
  std::vector<size_t> loads;  // indexes into the window, by offset
  unsigned bytes;
  std::vector<Variant::AlignedParam> conditions;
};

/// Base register and offset of `[reg]` / `[reg+imm]` / `[reg-imm]`.
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

}  // namespace

void runPack(PassContext &ctx) {
  ir::Module &m = ctx.module;
  // Kernels, and the clones earlier passes made (a pack clone of a clone is
  // that clone plus the loads merged, preferred over it).
  std::vector<ir::Function *> kernels;
  for (auto *k : m.kernels())
    if (k->name.find("_pack") == std::string_view::npos) kernels.push_back(k);
  for (ir::Function *k : kernels) {
    ctx.count("kernels");
    const std::string kname(k->name);
    auto known = ctx.baseOf(*k);
    if (!known) continue;
    ir::Function *original = known->original;
    const bool isClone = known->isClone;
    // An original that has clones runs one of them: a pack clone of it
    // would come after them in the manifest and never run.
    if (!isClone && known->variantCount) {
      ctx.count("originals-left-to-clones");
      continue;
    }
    auto &body = k->body->body;
    if (std::any_of(body.begin(), body.end(), [](const auto &s) { return s->kind == Stmt::Kind::Block; })) {
      ctx.remark(Remark::Kind::Missed, *k, "", "not packed: it has a nested { } block");
      continue;
    }
    auto &fa = ctx.analyses.get(*k);
    auto &aff = fa.affine();
    std::map<const Instruction *, const AccessInfo *> accessOf;
    for (const auto &a : fa.accesses()) accessOf[fa.cfg().instructions()[a.instr]] = &a;
    RegTypes types;
    for (const auto &s : body)
      if (s->kind == Stmt::Kind::Decl && static_cast<const ir::Decl &>(*s).space() == ".reg")
        types.add(static_cast<const ir::Decl &>(*s));

    // Windows and runs.
    std::vector<Run> runs;
    std::vector<Load> window;
    std::vector<Load> all;  // every candidate, by window
    bool sawNeighbours = false;  // loads from one base register in one window (worth a remark)
    auto flush = [&] {
      // Group by (opcode, register); sort by offset; take runs, largest first.
      std::map<std::pair<std::string, std::string>, std::vector<size_t>> groups;
      for (size_t i = 0; i < window.size(); ++i) groups[{window[i].key, window[i].reg}].push_back(i);
      for (auto &[key, idx] : groups) {
        sawNeighbours |= idx.size() > 1;
        std::sort(idx.begin(), idx.end(), [&](size_t x, size_t y) { return window[x].off < window[y].off; });
        std::map<int64_t, size_t> byOff;
        for (size_t i : idx) byOff.emplace(window[i].off, i);  // a repeated offset: the first load
        std::set<size_t> taken;
        const unsigned w = window[idx[0]].w;
        for (unsigned V : {16u, 8u, 4u}) {
          if (V <= w) continue;
          const unsigned n = V / w;
          for (size_t start : idx) {
            if (taken.count(start) || byOff[window[start].off] != start) continue;
            std::vector<size_t> run;
            for (unsigned j = 0; j < n; ++j) {
              auto it = byOff.find(window[start].off + static_cast<int64_t>(j * w));
              if (it == byOff.end() || taken.count(it->second)) break;
              run.push_back(it->second);
            }
            if (run.size() != n) continue;
            std::vector<Variant::AlignedParam> conds;
            int64_t misalign = 0;
            const AccessInfo &lead = *window[start].a;
            if (!lead.address.known ||
                !vectorAlignment(lead.address.poly, aff, *k, V, [](const analysis::Symbol &) { return 1; }, conds,
                                 misalign) ||
                misalign)
              continue;
            // The run's loads move up to its earliest one: their destination
            // registers must not be read or written in between.
            size_t first = window[run[0]].stmt;
            for (size_t i : run) first = std::min(first, window[i].stmt);
            bool movable = true;
            std::set<std::string_view> dsts;
            for (size_t i : run) {
              const auto &ld = static_cast<const Instruction &>(*body[window[i].stmt]);
              std::string_view dst = ld.operands[0].text;
              if (!dsts.insert(dst).second) movable = false;
              for (size_t s = first; s < window[i].stmt && movable; ++s) {
                if (body[s]->kind != Stmt::Kind::Instruction || s == first) continue;
                auto du = analysis::defUse(static_cast<const Instruction &>(*body[s]));
                for (auto r : du.defs) movable &= r != dst;
                for (auto r : du.uses) movable &= r != dst;
              }
            }
            if (!movable) continue;
            Run r;
            for (size_t i : run) {
              taken.insert(i);
              r.loads.push_back(all.size());
              all.push_back(window[i]);
            }
            r.bytes = V;
            r.conditions = conds;
            runs.push_back(std::move(r));
          }
        }
      }
      window.clear();
    };
    for (size_t i = 0; i < body.size(); ++i) {
      const Stmt &s = *body[i];
      if (s.kind == Stmt::Kind::Label) {
        flush();
        continue;
      }
      if (s.kind != Stmt::Kind::Instruction) continue;
      const auto &in = static_cast<const Instruction &>(s);
      std::string_view base = in.base();
      auto mem = analysis::memAccess(in);
      bool barrier = analysis::flowOf(in) != analysis::Flow::Next || base == "bra" || base == "ret" ||
                     base == "exit" || base == "call" || base == "bar" || base == "barrier" || base == "membar" ||
                     base == "fence" || (mem && mem->kind != analysis::MemAccess::Kind::Load);
      if (barrier) {
        flush();
        continue;
      }
      // A redefined base register ends the loads that used it.
      auto du = analysis::defUse(in);
      for (auto d : du.defs)
        if (std::any_of(window.begin(), window.end(), [&](const Load &l) { return l.reg == d; })) {
          flush();
          break;
        }
      if (!mem || (mem->space != ".global" && !mem->space.empty()) || mem->vector != 1 || !in.guard.empty() ||
          !plainMemoryOp(in) || in.operands.size() != 2 || in.operands[0].kind != Operand::Kind::Register)
        continue;
      unsigned w = mem->bytes();
      if (w != 1 && w != 2 && w != 4) continue;
      unsigned dstBits = types.bits(in.operands[0].text);
      if (!(dstBits == 32 || dstBits == 64 || (dstBits == 16 && w < 4))) continue;
      auto it = accessOf.find(&in);
      if (it == accessOf.end()) continue;
      Load l;
      l.stmt = i;
      l.a = it->second;
      l.w = w;
      l.key = std::string(in.opcode);
      if (!baseAndOffset(in.operands[1], l.reg, l.off)) continue;
      if (in.operands[0].text == l.reg) continue;  // it overwrites its own base: later loads see another value
      window.push_back(l);
    }
    flush();
    if (runs.empty()) {
      if (!isClone && sawNeighbours)
        ctx.remark(Remark::Kind::Missed, *k, "",
                   "not packed: its loads from one base register are not adjacent runs of 4, 8 or 16 bytes with a "
                   "provable alignment, or a store lies between them");
      continue;
    }

    // The clone: same statements; each run's first load becomes the vector
    // load and the unpacking, the run's other loads go.
    const std::string name = kname + (isClone ? "_pack" : "__ptxopt_pack");
    auto clone = ir::cloneFunction(*k, name, "_pk", m);
    auto &cb = clone->body->body;
    Emitter e{m, {}};
    e.prefix = "%ptxopt_k";
    std::map<size_t, std::vector<std::unique_ptr<Stmt>>> replace;  // stmt index -> new statements
    std::set<size_t> drop;
    std::vector<Variant::AlignedParam> aligned;  // the runs' runtime conditions
    unsigned merged = 0;
    for (const Run &r : runs) {
      const Load &lead = all[r.loads[0]];
      size_t first = lead.stmt;
      for (size_t i : r.loads) first = std::min(first, all[i].stmt);
      const auto &leadIn = static_cast<const Instruction &>(*cb[lead.stmt]);
      const unsigned nwords = r.bytes / 4;
      std::string op(leadIn.base());
      std::string type = typeModifier(leadIn);
      for (auto mod : leadIn.modifiers())
        if (std::string(mod) != type) op += std::string(mod);
      if (nwords > 1) op += ".v" + std::to_string(nwords);
      op += ".b32";
      std::vector<std::string> words;
      Operand vec{Operand::Kind::Vector, "", {}};
      for (unsigned j = 0; j < nwords; ++j) {
        words.push_back(e.reg32());
        vec.elems.push_back(e.op(words.back()));
      }
      auto ld = std::make_unique<Instruction>();
      ld->opcode = m.intern(op);
      ld->operands = {nwords > 1 ? vec : vec.elems[0], leadIn.operands[1]};
      ld->edited = true;
      e.out.push_back(std::move(ld));
      bool sign = type.size() > 1 && type[1] == 's';
      for (size_t j = 0; j < r.loads.size(); ++j) {
        const Load &l = all[r.loads[j]];
        const auto &in = static_cast<const Instruction &>(*cb[l.stmt]);
        std::string dst(in.operands[0].text);
        unsigned bits = types.bits(dst);
        unsigned byte = static_cast<unsigned>(j) * l.w;
        emitUnpack(e, words, byte, l.w, sign, dst, bits);
        if (l.stmt != first) drop.insert(l.stmt);
      }
      // The vector load goes where the run's first load was (that load too is replaced).
      drop.insert(first);
      for (auto &st : e.out) replace[first].push_back(std::move(st));
      e.out.clear();
      aligned.insert(aligned.end(), r.conditions.begin(), r.conditions.end());
      merged += static_cast<unsigned>(r.loads.size());
    }
    std::vector<std::unique_ptr<Stmt>> out;
    for (size_t i = 0; i < cb.size(); ++i) {
      if (auto it = replace.find(i); it != replace.end())
        for (auto &st : it->second) out.push_back(std::move(st));
      if (!drop.count(i)) out.push_back(std::move(cb[i]));
    }
    cb = std::move(out);
    size_t decls = 0;
    while (decls < cb.size() && cb[decls]->kind == Stmt::Kind::Decl) ++decls;
    cb.insert(cb.begin() + static_cast<long>(decls), e.decl(".b32", e.prefix + "r", e.r32));
    // The launch of the kernel it was made from, plus the runs' conditions.
    auto packed = [&](Variant v) {
      v.name = name;
      v.pass = "pack";
      v.kind = v.kind == "identity" ? "pack" : v.kind + "+pack";
      for (const auto &c : aligned) {
        bool found = false;
        for (auto &x : v.alignedParams)
          if (x.index == c.index) {
            x.bytes = std::max(x.bytes, c.bytes);
            found = true;
          }
        if (!found) v.alignedParams.push_back(c);
      }
      std::sort(v.alignedParams.begin(), v.alignedParams.end(),
                [](const Variant::AlignedParam &a, const Variant::AlignedParam &b) { return a.index < b.index; });
      return v;
    };
    // One variant per variant that launches `k` (a shared clone has
    // several; they share the pack clone); each one inserted moves the
    // later ones down by one.
    Variant v;
    size_t inserted = 0;
    for (size_t idx : isClone ? known->indices : std::vector<size_t>{0}) {
      const size_t at0 = idx + inserted;
      v = packed(isClone ? ctx.entry(*original).variants[at0] : known->variant);
      int at = m.itemIndex(k);
      inserted += ctx.addClone(*original, std::make_unique<ir::Function>(*clone), v, at,
                               isClone ? std::optional<size_t>(at0) : std::nullopt);
    }
    if (!inserted) continue;
    std::string conds;
    for (const auto &c : v.alignedParams)
      conds += std::string(conds.empty() ? "" : ", ") + "param " + std::to_string(c.index) + " % " +
               std::to_string(c.bytes) + " == 0";
    ctx.remark(Remark::Kind::Applied, *original, "",
               name + ": " + std::to_string(merged) + " loads merged into " + std::to_string(runs.size()) +
                   " vector load(s); launch conditions: " + (conds.empty() ? "none" : conds));
    ctx.count("loads-merged", merged);
  }
}

}  // namespace ptxopt::transforms
