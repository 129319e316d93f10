// Text, JSON and Graphviz output of the analyses (see Report.h).
#include "ptxopt/analysis/Report.h"

#include <nlohmann/json.hpp>

#include "ptxopt/printer/Printer.h"
#include "ptxopt/support/Diagnostics.h"

namespace ptxopt::analysis {

using ir::Function;
using ir::Module;

namespace {

const char *accessKind(MemAccess::Kind k) {
  switch (k) {
  case MemAccess::Kind::Load: return "load";
  case MemAccess::Kind::Store: return "store";
  case MemAccess::Kind::Atomic: return "atomic";
  case MemAccess::Kind::Reduction: return "reduction";
  case MemAccess::Kind::Prefetch: return "prefetch";
  }
  return "?";
}

std::vector<const Function *> bodies(const Module &m, bool kernelsOnly) {
  std::vector<const Function *> out;
  for (const auto &it : m.items)
    if (it.kind == ir::Item::Kind::Function && it.function->body && (!kernelsOnly || it.function->isEntry))
      out.push_back(it.function.get());
  return out;
}

/// "start + step*k<loop>" as one polynomial.
std::string ivText(AffineAnalysis &aff, const InductionVar &iv) {
  Symbol k{Symbol::Kind::LoopCounter};
  k.loop = iv.loop;
  Poly t, v;
  if (!Poly::mul(iv.step, Poly::symbol(aff.symbolId(k)), t) || !Poly::add(iv.init, t, v)) return "?";
  return aff.str(v);
}

bool reported(const AccessInfo &a) { return reportedAccess(a); }

// PTX line numbers for the report; built once per report.
struct Lines {
  explicit Lines(const Module &m) : table(m.source()) {}
  LineTable table;
  std::string of(const ir::Stmt *s) const {
    if (!s || !s->span.valid()) return "(synthesized)";
    return "line " + std::to_string(table.pos(s->span.begin).line);
  }
};

std::string where(const Module &m, const Lines &lines, const CFG &cfg, uint32_t instr) {
  auto loc = sourceLocation(m, cfg, instr).str();
  std::string pl = lines.of(cfg.instructions()[instr]);
  if (loc.empty()) return "PTX " + pl;
  return loc + " (PTX " + pl + ")";
}

std::string locOfStmt(const Module &m, const Lines &lines, AnalysisManager &am, const Function &f,
                      const ir::Stmt *s) {
  if (s->kind == ir::Stmt::Kind::Instruction) {
    const CFG &cfg = am.get(f).cfg();
    uint32_t i = cfg.indexOf(static_cast<const ir::Instruction *>(s));
    if (i != UINT32_MAX) return where(m, lines, cfg, i);
  }
  return "PTX " + lines.of(s);
}

}  // namespace

std::string tripUniformText(UniformLevel l) {
  switch (l) {
  case UniformLevel::Grid: return "the same for every thread";
  case UniformLevel::Block: return "the same within a block (depends on %ctaid)";
  case UniformLevel::Thread: break;
  }
  return "may differ by thread";
}

bool reportedAccess(const AccessInfo &a) { return a.mem.space == ".global" || a.mem.space.empty(); }

UnknownCause unknownCause(const AccessInfo &a) { return a.cause; }

size_t Coverage::count(AccessInfo::Verdict v) const {
  auto it = verdicts.find(v);
  return it == verdicts.end() ? 0 : it->second;
}

void Coverage::add(const AccessInfo &a) {
  if (!reportedAccess(a)) {
    ++otherSpaces;
    return;
  }
  ++accesses;
  ++verdicts[a.verdict];
  if (a.verdict == AccessInfo::Verdict::Unknown) ++unknownCauses[unknownCause(a)];
}

void Coverage::add(const Coverage &c) {
  accesses += c.accesses;
  otherSpaces += c.otherSpaces;
  for (const auto &[v, n] : c.verdicts) verdicts[v] += n;
  for (const auto &[k, n] : c.unknownCauses) unknownCauses[k] += n;
}

std::string Coverage::verdictText() const {
  using V = AccessInfo::Verdict;
  return std::to_string(accesses) + " (" + std::to_string(count(V::Coalesced)) + " coalesced, " +
         std::to_string(count(V::Uniform)) + " uniform, " + std::to_string(count(V::Uncoalesced)) + " uncoalesced, " +
         std::to_string(count(V::Unknown)) + " unknown)";
}

std::string Coverage::causeText() const {
  std::string out;
  for (const auto &[cause, n] : unknownCauses)
    if (n) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + causeName(cause);
  return out;
}

nlohmann::json coverageJson(const Coverage &c) {
  using nlohmann::json;
  json verdicts = json::object();
  for (auto v : {AccessInfo::Verdict::Coalesced, AccessInfo::Verdict::Uniform, AccessInfo::Verdict::Uncoalesced,
                 AccessInfo::Verdict::Unknown})
    verdicts[verdictName(v)] = c.count(v);
  json causes = json::object();
  for (const auto &[cause, n] : c.unknownCauses) causes[causeName(cause)] = n;
  return {{"accesses", c.accesses}, {"verdicts", verdicts}, {"unknown_causes", causes}, {"other_spaces", c.otherSpaces}};
}

std::vector<KernelCoverage> moduleCoverage(const Module &m, AnalysisManager &am, Coverage *total) {
  std::vector<KernelCoverage> out;
  for (const Function *k : bodies(m, true)) {
    KernelCoverage kc{std::string(k->name), {}};
    for (const auto &a : am.get(*k).accesses()) kc.coverage.add(a);
    if (total) total->add(kc.coverage);
    out.push_back(std::move(kc));
  }
  return out;
}

std::string coverageStats(const Module &m, AnalysisManager &am) {
  Coverage total;
  auto kernels = moduleCoverage(m, am, &total);
  std::string out;
  auto lines = [&](const std::string &what, const Coverage &c) {
    out += "coverage of " + what + ": global accesses: " + c.verdictText() + "\n";
    if (auto causes = c.causeText(); !causes.empty())
      out += "coverage of " + what + ": unknown by cause: " + causes + "\n";
  };
  for (const auto &k : kernels) lines("kernel " + k.kernel, k.coverage);
  lines("the module (" + std::to_string(kernels.size()) + " kernel" + (kernels.size() == 1 ? "" : "s") + ")", total);
  return out;
}

std::string reportText(const Module &m, AnalysisManager &am) {
  std::string out;
  Lines lines(m);
  auto kernels = bodies(m, true);
  out += "ptx-opt analysis of " + m.fileName() + ": " + std::to_string(kernels.size()) + " kernel" +
         (kernels.size() == 1 ? "" : "s") + "\n";
  {
    Coverage total;
    moduleCoverage(m, am, &total);
    out += "global accesses in all kernels: " + total.verdictText() + "\n";
    if (auto causes = total.causeText(); !causes.empty()) out += "unknown by cause: " + causes + "\n";
  }
  for (const Function *k : kernels) {
    FunctionAnalyses &fa = am.get(*k);
    const CFG &cfg = fa.cfg();
    const auto &acc = fa.accesses();
    Coverage cov;
    for (const auto &a : acc) cov.add(a);
    out += "\nkernel " + std::string(k->name) + "\n";
    out += "  global accesses: " + cov.verdictText();
    if (cov.otherSpaces) out += "; " + std::to_string(cov.otherSpaces) + " shared/local/const not listed";
    out += "\n";
    if (auto causes = cov.causeText(); !causes.empty()) out += "  unknown by cause: " + causes + "\n";
    for (const auto &a : acc) {
      if (!reported(a)) continue;
      const auto &in = *cfg.instructions()[a.instr];
      out += "  " + std::string(in.opcode) + "  " + where(m, lines, cfg, a.instr) + "  " + std::to_string(a.mem.bytes()) +
             " B\n";
      out += "    verdict  " + std::string(verdictName(a.verdict));
      if (!a.reason.empty()) out += ": " + a.reason;
      if (!a.unitStrideOn.empty()) out += "; would be unit-stride on " + a.unitStrideOn;
      out += "\n";
      if (a.verdict == AccessInfo::Verdict::Unknown)
        out += "    cause    " + std::string(causeName(unknownCause(a))) + "\n";
      out += "    address  " + fa.affine().str(a.address) + "\n";
      if (!a.strides.empty()) {
        out += "    strides ";
        for (size_t i = 0; i < a.strides.size(); ++i)
          out += (i ? ", " : " ") + a.strides[i].var + ": " + a.strides[i].bytes + " B";
        if (a.unroll)
          out += "; loop unrolled " + std::to_string(a.unroll) + " times: " + a.elementStride->bytes + " B per element on " +
                 a.elementStride->var;
        out += "\n";
      }
      if (a.sectors)
        out += "    sectors  " + std::to_string(*a.sectors) + " per warp request (ideal " +
               std::to_string(a.idealSectors) + ")\n";
      if (a.address.known)
        out += "    align    base " + a.baseAlign + "; offset multiple of " +
               (a.offsetAlign ? std::to_string(a.offsetAlign) : std::string("any")) + "\n";
      for (const auto &note : a.notes) out += "    note     " + note + "\n";
    }
    const auto &loops = fa.loops().loops();
    const auto &ivs = fa.affine().inductionVars();
    for (const auto &l : loops) {
      out += "  loop " + std::to_string(l.id) + " at " + blockName(cfg, l.header) + " (depth " +
             std::to_string(l.depth) + ")";
      bool any = false;
      for (const auto &iv : ivs) {
        if (iv.loop != l.id) continue;
        out += std::string(any ? "," : ":") + " " + std::string(iv.reg) + " = " + ivText(fa.affine(), iv);
        if (!iv.tripCount.empty()) out += ", " + iv.tripCount + " iterations";
        any = true;
      }
      out += std::string(any ? ";" : ":") + " trip count " + tripUniformText(fa.affine().tripCountUniformity(l.id));
      out += "\n";
    }
    const auto &comm = fa.communication();
    if (comm.empty()) {
      out += "  communication: none found (threads may be regrouped)\n";
    } else {
      out += "  communication (blocks regrouping threads):\n";
      for (const auto &c : comm) {
        out += "    " + std::string(kindName(c.kind)) + ": " + c.what + " at " + locOfStmt(m, lines, am, *c.function, c.stmt);
        if (c.function != k) out += " in " + std::string(c.function->name);
        out += "\n";
      }
    }
    for (const auto &d : fa.divergence())
      out += "  divergent branch: " + printStmt(*cfg.instructions()[d.instr]) + " at " + where(m, lines, cfg, d.instr) +
             (d.certain ? " depends on " : " may depend on the thread: ") + d.why + "\n";
  }
  return out;
}

std::string reportJson(const Module &m, AnalysisManager &am) {
  using nlohmann::json;
  Lines lines(m);
  json doc;
  doc["schema"] = "ptx-opt-analysis/1";
  doc["file"] = m.fileName();
  json kernels = json::array();
  Coverage total;
  for (const Function *k : bodies(m, true)) {
    FunctionAnalyses &fa = am.get(*k);
    const CFG &cfg = fa.cfg();
    auto &aff = fa.affine();
    json jk;
    jk["name"] = std::string(k->name);
    json accs = json::array();
    for (const auto &a : fa.accesses()) {
      json ja;
      ja["instruction"] = a.instr;
      ja["opcode"] = std::string(cfg.instructions()[a.instr]->opcode);
      ja["kind"] = accessKind(a.mem.kind);
      ja["space"] = a.mem.space.empty() ? "generic" : std::string(a.mem.space.substr(1));
      ja["bytes"] = a.mem.bytes();
      ja["location"] = a.loc.str();
      const auto *ins = cfg.instructions()[a.instr];
      ja["ptx_line"] = ins->span.valid() ? json(lines.table.pos(ins->span.begin).line) : json(nullptr);
      ja["address_known"] = a.address.known;
      ja["address"] = aff.str(a.address);
      ja["base"] = a.base;
      json strides = json::array();
      for (const auto &s : a.strides) {
        json js{{"index", s.var}, {"bytes", s.bytes}};
        js["constant"] = s.constant ? json(*s.constant) : json(nullptr);
        strides.push_back(js);
      }
      ja["strides"] = strides;
      ja["sectors"] = a.sectors ? json(*a.sectors) : json(nullptr);
      ja["ideal_sectors"] = a.idealSectors;
      ja["verdict"] = verdictName(a.verdict);
      ja["reason"] = a.reason;
      ja["unknown_cause"] =
          a.verdict == AccessInfo::Verdict::Unknown ? json(causeName(unknownCause(a))) : json(nullptr);
      ja["unit_stride_on"] = a.unitStrideOn.empty() ? json(nullptr) : json(a.unitStrideOn);
      // The stride per element of a loop nvcc unrolled `unroll` times.
      if (a.elementStride) {
        json es{{"index", a.elementStride->var}, {"bytes", a.elementStride->bytes}, {"unroll", a.unroll}};
        es["constant"] = a.elementStride->constant ? json(*a.elementStride->constant) : json(nullptr);
        ja["element_stride"] = es;
      } else {
        ja["element_stride"] = nullptr;
      }
      ja["base_alignment"] = a.baseAlign;
      ja["offset_alignment"] = a.offsetAlign;
      ja["notes"] = a.notes;
      accs.push_back(ja);
    }
    jk["accesses"] = accs;
    Coverage cov;
    for (const auto &a : fa.accesses()) cov.add(a);
    jk["coverage"] = coverageJson(cov);
    total.add(cov);
    json loops = json::array();
    const auto &ivs = aff.inductionVars();
    for (const auto &l : fa.loops().loops()) {
      json jl{{"id", l.id}, {"header", blockName(cfg, l.header)}, {"depth", l.depth}};
      jl["parent"] = l.parent ? json(*l.parent) : json(nullptr);
      json jivs = json::array();
      for (const auto &iv : ivs)
        if (iv.loop == l.id) {
          json ji{{"register", std::string(iv.reg)}, {"start", aff.str(iv.init)}, {"step", aff.str(iv.step)}};
          ji["trip_count"] = iv.tripCount.empty() ? json(nullptr) : json(iv.tripCount);
          jivs.push_back(ji);
        }
      jl["induction_variables"] = jivs;
      jl["trip_count_uniform"] = uniformLevelName(aff.tripCountUniformity(l.id));
      loops.push_back(jl);
    }
    jk["loops"] = loops;
    json comm = json::array();
    for (const auto &c : fa.communication())
      comm.push_back({{"kind", kindName(c.kind)},
                      {"what", c.what},
                      {"function", std::string(c.function->name)},
                      {"location", locOfStmt(m, lines, am, *c.function, c.stmt)}});
    jk["communication"] = comm;
    json div = json::array();
    for (const auto &d : fa.divergence())
      div.push_back({{"instruction", d.instr},
                     {"branch", printStmt(*cfg.instructions()[d.instr])},
                     {"location", where(m, lines, cfg, d.instr)},
                     {"certain", d.certain},
                     {"depends_on", d.why}});
    jk["divergent_branches"] = div;
    kernels.push_back(jk);
  }
  doc["kernels"] = kernels;
  doc["coverage"] = coverageJson(total);
  return doc.dump(2) + "\n";
}

std::string cfgDot(const Module &m, AnalysisManager &am) {
  std::string out;
  for (const Function *f : bodies(m, false)) out += am.get(*f).cfg().toDot();
  return out;
}

bool printAnalysis(const Module &m, AnalysisManager &am, std::string_view name, std::string &out) {
  bool known = false;
  for (auto n : kAnalysisPrinters) known |= name == n;
  if (!known) return false;
  for (const Function *f : bodies(m, false)) {
    FunctionAnalyses &fa = am.get(*f);
    const CFG &cfg = fa.cfg();
    out += "function " + std::string(f->name) + " (" + std::string(name) + ")\n";
    if (name == "cfg") {
      for (const auto &b : cfg.blocks()) {
        out += blockName(cfg, b.id) + " [" + std::to_string(b.first) + "," + std::to_string(b.last) + ")";
        if (!b.reachable) out += " unreachable";
        out += " ->";
        for (uint32_t s : b.succs) out += " " + blockName(cfg, s);
        out += "\n";
      }
    } else if (name == "domtree") {
      out += fa.dom().print(cfg);
    } else if (name == "postdomtree") {
      out += fa.postDom().print(cfg);
    } else if (name == "loops") {
      out += fa.loops().print(cfg);
      for (const auto &iv : fa.affine().inductionVars())
        out += "loop " + std::to_string(iv.loop) + ": " + std::string(iv.reg) + " = " + ivText(fa.affine(), iv) +
               ", trip count " +
               (iv.tripCount.empty() ? std::string("unknown") : iv.tripCount) + "\n";
      for (const auto &l : fa.loops().loops())
        out += "loop " + std::to_string(l.id) + ": trip count " +
               tripUniformText(fa.affine().tripCountUniformity(l.id)) + "\n";
    } else if (name == "defs") {
      out += fa.defs().print();
    } else if (name == "values") {
      // The value every instruction writes to each of its registers.
      for (uint32_t i = 0; i < cfg.instructions().size(); ++i) {
        if (!cfg.blocks()[cfg.blockOf(i)].reachable) continue;
        for (auto reg : fa.defs().defUse(i).defs)
          out += std::to_string(i) + ": " + std::string(reg) + " = " +
                 fa.affine().str(fa.affine().definitionValue(i, reg)) + "\n";
      }
    } else if (name == "accesses") {
      for (const auto &a : fa.accesses()) {
        out += std::to_string(a.instr) + ": " + std::string(cfg.instructions()[a.instr]->opcode) + " " +
               std::to_string(a.mem.bytes()) + "B " + verdictName(a.verdict) + " [" + fa.affine().str(a.address) +
               "]";
        for (const auto &s : a.strides) out += " " + s.var + "=" + s.bytes;
        if (a.sectors) out += " sectors=" + std::to_string(*a.sectors) + "/" + std::to_string(a.idealSectors);
        if (a.unroll)
          out += " unroll=" + std::to_string(a.unroll) + " element-" + a.elementStride->var + "=" + a.elementStride->bytes;
        if (!a.unitStrideOn.empty()) out += " unit-stride-on=" + a.unitStrideOn;
        if (a.verdict == AccessInfo::Verdict::Unknown) out += " cause=" + std::string(causeName(a.cause));
        out += "\n";
      }
    } else if (name == "communication") {
      for (const auto &c : fa.communication())
        out += std::string(kindName(c.kind)) + ": " + c.what + " (" + std::string(c.function->name) + ")\n";
    } else if (name == "divergence") {
      for (const auto &d : fa.divergence())
        out += std::to_string(d.instr) + ": " + printStmt(*cfg.instructions()[d.instr]) +
               (d.certain ? " divergent: " : " maybe divergent: ") + d.why + "\n";
    }
  }
  return true;
}

}  // namespace ptxopt::analysis
