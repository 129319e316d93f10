// Text and Graphviz output of the analyses (see Report.h), the coverage
// counts, and the pieces the JSON report (ReportJson.cpp) shares
// (ReportParts.h).
#include "ptxopt/analysis/Report.h"

#include "ReportParts.h"

#include <array>
#include <charconv>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "ptxopt/analysis/FloatRange.h"
#include "ptxopt/printer/Printer.h"
#include "ptxopt/support/Diagnostics.h"

namespace ptxopt::analysis {

using ir::Function;
using ir::Module;

namespace report {

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

/// "file.cu:12:3 (PTX line 40)", or "PTX line 40" without a .loc: appended
/// to `out` (the report asks once per access, fact and branch).
void appendWhere(std::string &out, const Module &m, const Lines &lines, const CFG &cfg, uint32_t instr) {
  SourceLoc loc = sourceLocation(m, cfg, instr);
  if (loc.line) {
    out += loc.file.empty() ? std::string_view("<unknown>") : loc.file;
    out += ':';
    Lines::appendNumber(out, loc.line);
    out += ':';
    Lines::appendNumber(out, loc.col);
    out += " (PTX ";
  } else {
    out += "PTX ";
  }
  lines.of(out, cfg.instructions()[instr]);
  if (loc.line) out += ')';
}

/// Where a communication fact's statement is.
void appendLocOfFact(std::string &out, const Module &m, const Lines &lines, AnalysisManager &am, const CommFact &c) {
  if (c.stmt->kind == ir::Stmt::Kind::Instruction) {
    const CFG &cfg = am.get(*c.function).cfg();
    // The finder numbered it as the CFG does (a search for it sorted every instruction of the function).
    uint32_t i = c.instr < cfg.instructions().size() && cfg.instructions()[c.instr] == c.stmt
                     ? c.instr
                     : cfg.indexOf(static_cast<const ir::Instruction *>(c.stmt));
    if (i != UINT32_MAX) return appendWhere(out, m, lines, cfg, i);
  }
  out += "PTX ";
  lines.of(out, c.stmt);
}

}  // namespace report

using namespace report;

size_t utf8Length(std::string_view s, size_t i) {
  const auto *p = reinterpret_cast<const unsigned char *>(s.data());
  const size_t n = s.size();
  unsigned char c = p[i];
  if (c < 0x80) return 1;
  size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  bool ok = len && i + len <= n;
  for (size_t k = 1; ok && k < len; ++k) ok = (p[i + k] & 0xC0) == 0x80;
  if (ok && len == 3) ok = !(c == 0xE0 && p[i + 1] < 0xA0) && !(c == 0xED && p[i + 1] >= 0xA0);  // overlong, surrogates
  if (ok && len == 4) ok = !(c == 0xF0 && p[i + 1] < 0x90) && !(c == 0xF4 && p[i + 1] >= 0x90);  // overlong, > U+10FFFF
  return ok ? len : 0;
}

std::string tripUniformText(UniformLevel l) {
  switch (l) {
  case UniformLevel::Grid: return "the same for every thread";
  case UniformLevel::Block: return "the same within a block (depends on %ctaid)";
  case UniformLevel::Thread: break;
  }
  return "may differ by thread";
}

bool reportedAccess(const AccessInfo &a) { return a.mem.space == ".global" || a.mem.space.empty(); }

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
  if (a.verdict == AccessInfo::Verdict::Unknown) ++unknownCauses[a.cause];
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

namespace {

/// An access's lines of the text report: opcode and place, verdict, cause,
/// address, strides, sectors, alignment, notes.
void appendAccessText(std::string &out, const Module &m, const Lines &lines, FunctionAnalyses &fa,
                      const AccessInfo &a) {
  const CFG &cfg = fa.cfg();
  auto number = [&](auto v) { Lines::appendNumber(out, v); };
  const auto &in = *cfg.instructions()[a.instr];
  out += "  ";
  out += in.opcode;
  out += "  ";
  appendWhere(out, m, lines, cfg, a.instr);
  out += "  ";
  number(a.mem.bytes());
  out += " B\n    verdict  ";
  out += verdictName(a.verdict);
  if (!a.reason.empty()) {
    out += ": ";
    out += a.reason;
  }
  if (!a.unitStrideOn.empty()) {
    out += "; would be unit-stride on ";
    out += a.unitStrideOn;
  }
  out += "\n";
  if (a.verdict == AccessInfo::Verdict::Unknown) {
    out += "    cause    ";
    out += causeName(a.cause);
    out += "\n";
  }
  out += "    address  ";
  out += fa.affine().str(a.address);
  out += "\n";
  if (!a.strides.empty()) {
    out += "    strides ";
    for (size_t i = 0; i < a.strides.size(); ++i) {
      out += i ? ", " : " ";
      out += a.strides[i].var;
      out += ": ";
      out += a.strides[i].bytes;
      out += " B";
    }
    if (a.unroll) {
      out += "; loop unrolled ";
      number(a.unroll);
      out += " times: ";
      out += a.elementStride->bytes;
      out += " B per element on ";
      out += a.elementStride->var;
    }
    out += "\n";
  }
  if (a.sectors) {
    out += "    sectors  ";
    number(*a.sectors);
    out += " per warp request (ideal ";
    number(a.idealSectors);
    out += ")\n";
  }
  if (a.address.known) {
    out += "    align    base ";
    out += a.baseAlign;
    out += "; offset multiple of ";
    if (a.offsetAlign) number(a.offsetAlign);
    else out += "any";
    out += "\n";
  }
  for (const auto &note : a.notes) {
    out += "    note     ";
    out += note;
    out += "\n";
  }
}

/// A kernel's facts after its accesses in the text report: its loops with
/// their induction variables, the communication that blocks regrouping
/// threads, the divergent branches.
void appendKernelFactsText(std::string &out, const Module &m, const Lines &lines, AnalysisManager &am,
                           const Function *k) {
  FunctionAnalyses &fa = am.get(*k);
  const CFG &cfg = fa.cfg();
  auto number = [&](auto v) { Lines::appendNumber(out, v); };
  const auto &loops = fa.loops().loops();
  const auto &ivs = fa.affine().inductionVars();
  for (const auto &l : loops) {
    out += "  loop ";
    number(l.id);
    out += " at ";
    out += blockName(cfg, l.header);
    out += " (depth ";
    number(l.depth);
    out += ")";
    bool any = false;
    for (const auto &iv : ivs) {
      if (iv.loop != l.id) continue;
      out += any ? ", " : ": ";
      out += iv.reg;
      out += " = ";
      out += ivText(fa.affine(), iv);
      if (!iv.tripCount.empty()) {
        out += ", ";
        out += iv.tripCount;
        out += " iterations";
      }
      any = true;
    }
    out += any ? "; trip count " : ": trip count ";
    out += tripUniformText(fa.affine().tripCountUniformity(l.id));
    out += "\n";
  }
  const auto &comm = fa.communication();
  if (comm.empty()) {
    out += "  communication: none found (threads may be regrouped)\n";
  } else {
    out += "  communication (blocks regrouping threads):\n";
    for (const auto &c : comm) {
      out += "    ";
      out += kindName(c.kind);
      out += ": ";
      out += c.what;
      out += " at ";
      appendLocOfFact(out, m, lines, am, c);
      if (c.function != k) {
        out += " in ";
        out += c.function->name;
      }
      out += "\n";
    }
  }
  for (const auto &d : fa.divergence()) {
    out += "  divergent branch: ";
    out += printStmt(*cfg.instructions()[d.instr]);
    out += " at ";
    appendWhere(out, m, lines, cfg, d.instr);
    out += d.certain ? " depends on " : " may depend on the thread: ";
    out += d.why;
    out += "\n";
  }
}

}  // namespace

std::string reportText(const Module &m, AnalysisManager &am) {
  std::string out;
  // The report is shorter than the PTX it describes (a line per access and
  // fact against a line per instruction): one buffer of that size, not a
  // copy of the whole text at every doubling.
  out.reserve(m.source().size());
  Lines lines(m);
  auto kernels = bodies(m, true);
  // The kernels' sections first, each kernel's analyses freed once its
  // section is written (the next kernel's reuse their memory: a report of
  // the 2.6 MB CCCL module peaked at 44 MB with all kept, against 25 MB for
  // parse + print, and the page faults of that memory cost more than the
  // frees); the module's header, which sums them, goes in front at the end.
  Coverage total;
  for (size_t ki = 0; ki < kernels.size(); ++ki) {
    const Function *k = kernels[ki];
    FunctionAnalyses &fa = am.get(*k);
    const auto &acc = fa.accesses();
    Coverage cov;
    for (const auto &a : acc) cov.add(a);
    total.add(cov);
    // Appended piece by piece (a temporary string per piece was a few
    // allocations per access).
    auto number = [&](auto v) { Lines::appendNumber(out, v); };
    out += "\nkernel ";
    out += k->name;
    out += "\n  global accesses: ";
    out += cov.verdictText();
    if (cov.otherSpaces) {
      out += "; ";
      number(cov.otherSpaces);
      out += " shared/local/const not listed";
    }
    out += "\n";
    if (auto causes = cov.causeText(); !causes.empty()) {
      out += "  unknown by cause: ";
      out += causes;
      out += "\n";
    }
    for (const auto &a : acc)
      if (reportedAccess(a)) appendAccessText(out, m, lines, fa, a);
    appendKernelFactsText(out, m, lines, am, k);
    am.invalidate(*k);
  }
  std::string head = "ptx-opt analysis of " + m.fileName() + ": " + std::to_string(kernels.size()) + " kernel" +
                     (kernels.size() == 1 ? "" : "s") + "\n";
  head += "global accesses in all kernels: " + total.verdictText() + "\n";
  if (auto causes = total.causeText(); !causes.empty()) head += "unknown by cause: " + causes + "\n";
  out.insert(0, head);
  return out;
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
        for (uint32_t s : b.succs) {
          out += ' ';  // (not " " + blockName(...): GCC 12 warns -Wrestrict falsely there)
          out += blockName(cfg, s);
        }
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
    } else if (name == "float-range") {
      out += FloatRanges(fa).print();
    }
  }
  return true;
}

}  // namespace ptxopt::analysis
