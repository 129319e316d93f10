// The `--analyze=html` report (HtmlReport.h): what the analyses and the
// passes say about each kernel, beside the source line it concerns, in one
// HTML file a user opens in a browser, as LLVM's opt-viewer shows remarks.
//
// Layout: a title with the module's coverage counts and a table of kernels;
// per kernel its counts, the remarks that have no line, a table of its global
// accesses, and its code in "views": one per source file its .loc lines name
// that can be read (the lines the kernel's .loc directives cover, in chunks
// with two lines of context), and the PTX lines for what has no readable
// source (the whole kernel when nothing of it has). Under each line: its
// accesses (verdict, width, sectors per warp request, strides, address, why)
// and its remarks, coloured by verdict and remark kind.
//
// Source files: a `.file` path is read as written (relative: to the current
// folder), then relative to the PTX file's folder, then by its base name in
// that folder (the PTX and its .cu side by side, as when a build moved). Nothing is fetched: no script runs, no external resource.
// Deterministic: no time stamps, everything in module and line order.
#include "ptxopt/analysis/HtmlReport.h"

#include <cxxabi.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "ptxopt/analysis/Report.h"
#include "ptxopt/support/Diagnostics.h"

namespace ptxopt::analysis {

using ir::Function;
using ir::Module;

std::string htmlEscape(std::string_view s) {
  static const char kReplacement[] = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  const auto *p = reinterpret_cast<const unsigned char *>(s.data());
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    unsigned char c = p[i];
    if (c < 0x80) {
      switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\t':
      case '\n': out += static_cast<char>(c); break;
      default:
        if (c < 0x20 || c == 0x7f) out += kReplacement;
        else out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // A well-formed UTF-8 sequence is copied; anything else is U+FFFD.
    size_t len = utf8Length(s, i);
    if (!len) {
      out += kReplacement;
      ++i;
      continue;
    }
    out.append(s.substr(i, len));
    i += len;
  }
  return out;
}

namespace {

const char *kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 2em 3em;color:#1f2328;background:#fff}
h1{font-size:1.45em;margin:.8em 0 .3em}
h2{font-size:1.2em;margin:2.2em 0 .4em;padding-bottom:.2em;border-bottom:2px solid #d0d7de}
h3{font-size:1em;margin:1.2em 0 .3em}
code,.code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
a{color:#0969da;text-decoration:none}a:hover{text-decoration:underline}
.meta{color:#57606a;margin:.2em 0}
.demangled{color:#57606a;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;margin:0 0 .5em}
table.counts,table.accesses{border-collapse:collapse;margin:.5em 0}
.counts th,.counts td,.accesses th,.accesses td{border:1px solid #d0d7de;padding:2px 8px;vertical-align:top}
.counts th,.accesses th{background:#f6f8fa;text-align:left}
.counts td.num{text-align:right}
.counts tr.total td{font-weight:600;background:#f6f8fa}
.accesses td{font-size:13px}
.badge{display:inline-block;padding:0 7px;border-radius:9px;font-size:12px;font-weight:600;white-space:nowrap}
.v-coalesced{background:#dafbe1;color:#116329}.v-uniform{background:#ddf4ff;color:#0a3069}
.v-uncoalesced{background:#ffd8d3;color:#82071e}.v-unknown{background:#fff1c2;color:#6f4400}
.legend span{margin-right:.6em}
.view{border:1px solid #d0d7de;border-radius:6px;margin:.8em 0 1.2em;overflow:hidden}
.viewhead{background:#f6f8fa;border-bottom:1px solid #d0d7de;padding:4px 10px;font-weight:600}
.viewhead .path{font-weight:400;color:#57606a}
table.code{border-collapse:collapse;width:100%}
.code td{padding:0 8px;vertical-align:top}
.code td.n{color:#8c959f;text-align:right;width:4.5em;user-select:none;border-right:1px solid #eaeef2}
.code td.c{white-space:pre-wrap;word-break:break-all;tab-size:4}
tr.l-uncoalesced td.c{background:#ffebe9}tr.l-unknown td.c{background:#fff8c5}
tr.l-coalesced td.c{background:#f0fff4}tr.l-uniform td.c{background:#f1f8ff}
tr.l-remark td.c{background:#f6f8fa}
tr.gap td{color:#8c959f;background:#f6f8fa;font-size:11px;padding:1px 8px}
tr.ann td.c{white-space:normal;word-break:normal;padding:2px 8px 6px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:13px}
.acc,.rem{border-left:4px solid #8c959f;margin:3px 0;padding:3px 9px;font-size:13px;border-radius:0 4px 4px 0}
.acc.v-coalesced{border-color:#1a7f37}.acc.v-uniform{border-color:#0969da}
.acc.v-uncoalesced{border-color:#cf222e}.acc.v-unknown{border-color:#bf8700}
.acc .why{color:#3d444d}
.acc details{color:#3d444d;font-size:12.5px}.acc summary{cursor:pointer;color:#57606a}
.rem.applied{border-color:#1a7f37;background:#f0fff4}.rem.missed{border-color:#bc4c00;background:#fff8f2}
.rem.note{border-color:#8c959f;background:#f6f8fa}
.rem .pass{font-weight:600}
.muted{color:#57606a}
ul.facts{margin:.2em 0 .6em;padding-left:1.4em;color:#57606a;font-size:13px}
)";

std::string esc(std::string_view s) { return htmlEscape(s); }

std::string demangle(std::string_view name) {
  if (name.substr(0, 2) != "_Z") return "";
  int status = 0;
  std::string n(name);
  char *d = abi::__cxa_demangle(n.c_str(), nullptr, nullptr, &status);
  std::string out = status == 0 && d ? d : "";
  std::free(d);
  return out;
}

std::string baseName(const std::string &p) {
  auto s = p.find_last_of('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

std::string dirName(const std::string &p) {
  auto s = p.find_last_of('/');
  return s == std::string::npos ? "." : s == 0 ? "/" : p.substr(0, s);
}

/// Lines of a regular file of at most 32 MiB, or nullopt.
std::optional<std::vector<std::string>> readLines(const std::string &path) {
  struct stat st {};
  if (path.empty() || stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (32 << 20))
    return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(std::move(l));
  }
  return lines;
}

/// A `.file` entry and its text when it can be read.
struct SourceFile {
  std::string path;      // as the PTX names it
  std::string resolved;  // where it was read, "" when not
  std::optional<std::vector<std::string>> lines;
};

std::map<uint32_t, SourceFile> sourceFiles(const Module &m) {
  const std::vector<std::string> dirs{dirName(m.fileName())};
  std::map<uint32_t, SourceFile> files;
  for (const auto &[number, path] : m.files()) {  // the module's one .file table
    SourceFile f;
    f.path = std::string(path);
    std::vector<std::string> candidates{f.path};
    for (const auto &d : dirs)
      if (!f.path.empty() && f.path[0] != '/') candidates.push_back(d + "/" + f.path);
    for (const auto &d : dirs) candidates.push_back(d + "/" + baseName(f.path));
    for (const auto &c : candidates)
      if ((f.lines = readLines(c))) {
        f.resolved = c;
        break;
      }
    files.emplace(number, std::move(f));
  }
  return files;
}

/// Worst first: the line's colour is its worst access's.
int severity(AccessInfo::Verdict v) {
  switch (v) {
  case AccessInfo::Verdict::Uncoalesced: return 3;
  case AccessInfo::Verdict::Unknown: return 2;
  case AccessInfo::Verdict::Coalesced: return 1;
  case AccessInfo::Verdict::Uniform: return 0;
  }
  return 0;
}

std::string verdictClass(AccessInfo::Verdict v) { return std::string("v-") + verdictName(v); }

struct Annotation {
  std::vector<const AccessInfo *> accesses;
  std::vector<const ReportRemark *> remarks;
};

constexpr uint32_t kPtxView = UINT32_MAX;

struct View {
  uint32_t file = kPtxView;     // .file number, or kPtxView
  std::set<uint32_t> lines;     // lines to show (before context is added)
  std::map<uint32_t, Annotation> notes;  // by line
};

/// Everything one kernel's section needs, placed.
struct KernelPage {
  std::vector<View> views;  // source files in order of first use, then the PTX
  std::vector<const ReportRemark *> unplaced;
  View &view(uint32_t file) {
    for (auto &v : views)
      if (v.file == file) return v;
    views.push_back(View{file, {}, {}});
    return views.back();
  }
};

class Writer {
public:
  Writer(const Module &m, AnalysisManager &am, const HtmlReportOptions &opts)
      : m_(m), am_(am), opts_(opts), ptxLines_(m.lines()), files_(sourceFiles(m)) {}

  std::string run();

private:
  bool readable(uint32_t file) const {
    auto it = files_.find(file);
    return it != files_.end() && it->second.lines;
  }
  uint32_t ptxLine(const ir::Stmt *s) const { return s && s->span.valid() ? ptxLines_.pos(s->span.begin).line : 0; }
  bool isKernelRemark(const ReportRemark &r, const Function &k) const {
    std::string_view f = r.function, n = k.name;
    return f == n || (f.size() > n.size() + 9 && f.substr(0, n.size()) == n && f.substr(n.size(), 9) == "__ptxopt_");
  }
  KernelPage place(FunctionAnalyses &fa, const std::vector<const ReportRemark *> &remarks);
  void writeKernel(size_t index, const Function &k, const Coverage &cov, const std::vector<const ReportRemark *> &remarks);
  void writeAccess(size_t kernel, const AccessInfo &a, FunctionAnalyses &fa);
  void writeRemark(const ReportRemark &r, const Function &k, bool withLocation);
  void writeView(size_t kernel, View &v, FunctionAnalyses &fa, const Function &k, bool wholeKernel);
  std::string where(const AccessInfo &a, FunctionAnalyses &fa) const {
    std::string loc = a.loc.str();
    uint32_t pl = ptxLine(fa.cfg().instructions()[a.instr]);
    std::string p = pl ? "PTX line " + std::to_string(pl) : "synthesized";
    return loc.empty() ? p : loc + " (" + p + ")";
  }

  const Module &m_;
  AnalysisManager &am_;
  const HtmlReportOptions &opts_;
  const LineTable &ptxLines_;  // the module's
  std::map<uint32_t, SourceFile> files_;
  std::string out_;
};

KernelPage Writer::place(FunctionAnalyses &fa, const std::vector<const ReportRemark *> &remarks) {
  KernelPage page;
  const CFG &cfg = fa.cfg();
  // Every .loc line of the kernel in a readable file: the source it shows.
  for (uint32_t i = 0; i < cfg.instructions().size(); ++i) {
    const ir::Directive *d = cfg.locOf(i);
    if (!d || d->tokens.size() < 3) continue;
    uint32_t file = directiveNumber(d->tokens[0]), line = directiveNumber(d->tokens[1]);
    if (line && readable(file)) page.view(file).lines.insert(line);
  }
  auto sourceAnchor = [&](uint32_t file, uint32_t line) -> View * {
    if (!line || !readable(file) || line > files_.at(file).lines->size()) return nullptr;
    View &v = page.view(file);
    v.lines.insert(line);
    return &v;
  };
  for (const auto &a : fa.accesses()) {
    if (!reportedAccess(a)) continue;
    const ir::Directive *d = cfg.locOf(a.instr);
    if (d && d->tokens.size() >= 3) {
      uint32_t line = directiveNumber(d->tokens[1]);
      if (View *v = sourceAnchor(directiveNumber(d->tokens[0]), line)) {
        v->notes[line].accesses.push_back(&a);
        continue;
      }
    }
    View &v = page.view(kPtxView);
    uint32_t line = ptxLine(cfg.instructions()[a.instr]);
    v.lines.insert(line);
    v.notes[line].accesses.push_back(&a);
  }
  // A remark's location: "file:line:col" of the PTX or of a source file
  // (the .loc's file by base name, as SourceLoc names it).
  const std::string ptxName = m_.fileName(), ptxBase = baseName(ptxName);
  for (const ReportRemark *r : remarks) {
    const std::string &loc = r->location;
    size_t c2 = loc.rfind(':'), c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : loc.rfind(':', c2 - 1);
    uint32_t line = c1 == std::string::npos ? 0 : directiveNumber(std::string_view(loc).substr(c1 + 1, c2 - c1 - 1));
    std::string file = c1 == std::string::npos ? "" : loc.substr(0, c1);
    bool placed = false;
    if (line && (file == ptxName || file == ptxBase) && !ptxLines_.lineText(line).empty()) {
      View &v = page.view(kPtxView);
      v.lines.insert(line);
      v.notes[line].remarks.push_back(r);
      placed = true;
    } else if (line) {
      // The kernel's own files first, then any .file of that name.
      std::vector<uint32_t> order;
      for (const auto &v : page.views)
        if (v.file != kPtxView) order.push_back(v.file);
      for (const auto &[id, f] : files_) order.push_back(id);
      for (uint32_t id : order)
        if (readable(id) && baseName(files_.at(id).path) == file) {
          if (View *v = sourceAnchor(id, line)) {
            v->notes[line].remarks.push_back(r);
            placed = true;
          }
          break;
        }
    }
    if (!placed && line) {
      // A source file that cannot be read: the PTX line of the first
      // instruction of the kernel with that .loc.
      const std::string col = loc.substr(c2 + 1);
      for (uint32_t i = 0; i < cfg.instructions().size() && !placed; ++i) {
        const ir::Directive *d = cfg.locOf(i);
        if (!d || d->tokens.size() < 3 || directiveNumber(d->tokens[1]) != line || d->tokens[2] != col) continue;
        auto f = files_.find(directiveNumber(d->tokens[0]));
        if (f == files_.end() || baseName(f->second.path) != file) continue;
        if (uint32_t pl = ptxLine(cfg.instructions()[i])) {
          View &v = page.view(kPtxView);
          v.lines.insert(pl);
          v.notes[pl].remarks.push_back(r);
          placed = true;
        }
      }
    }
    if (!placed) page.unplaced.push_back(r);
  }
  // The PTX view last.
  std::stable_partition(page.views.begin(), page.views.end(), [](const View &v) { return v.file != kPtxView; });
  return page;
}

void Writer::writeRemark(const ReportRemark &r, const Function &k, bool withLocation) {
  std::string kind = r.kind == "applied" || r.kind == "missed" ? r.kind : "note";
  out_ += "<div class=\"rem " + kind + "\"><span class=\"pass\">[" + esc(r.pass) + "]</span> " + esc(kind) + ": " +
          esc(r.message);
  if (r.function != k.name) out_ += " <span class=\"muted\">(on " + esc(r.function) + ")</span>";
  if (withLocation && !r.location.empty()) out_ += " <span class=\"muted\">at " + esc(r.location) + "</span>";
  out_ += "</div>\n";
}

void Writer::writeAccess(size_t kernel, const AccessInfo &a, FunctionAnalyses &fa) {
  const auto &cfg = fa.cfg();
  const std::string id = "k" + std::to_string(kernel) + "-i" + std::to_string(a.instr);
  out_ += "<div class=\"acc " + verdictClass(a.verdict) + "\" id=\"" + id + "\"><span class=\"badge " +
          verdictClass(a.verdict) + "\">" + verdictName(a.verdict) + "</span> <code>" +
          esc(cfg.instructions()[a.instr]->opcode) + "</code> " + std::to_string(a.mem.bytes()) + " B";
  if (a.sectors)
    out_ += " &middot; " + std::to_string(*a.sectors) + " sector" + (*a.sectors == 1 ? "" : "s") +
            " per warp request (ideal " + std::to_string(a.idealSectors) + ")";
  if (!a.strides.empty()) {
    out_ += " &middot; strides";
    for (size_t i = 0; i < a.strides.size(); ++i)
      out_ += std::string(i ? ", " : " ") + "<code>" + esc(a.strides[i].var) + "</code>: <code>" +
              esc(a.strides[i].bytes) + "</code> B";
  }
  if (a.unroll && a.elementStride)
    out_ += " &middot; loop unrolled " + std::to_string(a.unroll) + " times: <code>" + esc(a.elementStride->bytes) +
            "</code> B per element on <code>" + esc(a.elementStride->var) + "</code>";
  if (!a.unitStrideOn.empty()) out_ += " &middot; would be unit-stride on <code>" + esc(a.unitStrideOn) + "</code>";
  out_ += " &middot; <span class=\"muted\">" + esc(where(a, fa)) + "</span>";
  out_ += "<div class=\"why\">";
  if (a.verdict == AccessInfo::Verdict::Unknown)
    out_ += "cause: <b>" + esc(causeName(a.cause)) + "</b> &mdash; ";
  out_ += esc(a.reason) + "</div>";
  // The address and the assumptions behind the numbers, folded.
  if (a.address.known || !a.notes.empty()) {
    out_ += "<details><summary>address";
    if (!a.notes.empty()) out_ += " and " + std::to_string(a.notes.size()) + " assumption" + (a.notes.size() == 1 ? "" : "s");
    out_ += "</summary>";
    if (a.address.known) out_ += "<div>address <code>" + esc(fa.affine().str(a.address)) + "</code></div>";
    if (a.address.known && !a.baseAlign.empty())
      out_ += "<div>alignment: base " + esc(a.baseAlign) + "; offset multiple of " +
              (a.offsetAlign ? std::to_string(a.offsetAlign) : std::string("any")) + "</div>";
    for (const auto &n : a.notes) out_ += "<div>" + esc(n) + "</div>";
    out_ += "</details>";
  }
  out_ += "</div>\n";
}

void Writer::writeView(size_t kernel, View &v, FunctionAnalyses &fa, const Function &k, bool wholeKernel) {
  // The lines to show: chunks around the wanted ones, merged when close.
  constexpr uint32_t kContext = 2, kMergeGap = 4;
  uint32_t last = 0;
  std::function<std::string_view(uint32_t)> text;
  if (v.file == kPtxView) {
    last = k.span.valid() && k.span.end != ir::Span::kNone ? ptxLines_.pos(k.span.end ? k.span.end - 1 : 0).line
                                                           : 0;
    uint32_t first = k.span.valid() ? ptxLines_.pos(k.span.begin).line : 0;
    for (uint32_t l : v.lines) last = std::max(last, l);
    text = [this](uint32_t l) { return ptxLines_.lineText(l); };
    out_ += "<div class=\"view\"><div class=\"viewhead\">PTX <span class=\"path\">" + esc(m_.fileName()) +
            "</span></div>\n";
    if (wholeKernel && first)  // no readable source: the whole kernel
      for (uint32_t l = first; l <= last; ++l) v.lines.insert(l);
  } else {
    const SourceFile &f = files_.at(v.file);
    last = static_cast<uint32_t>(f.lines->size());
    text = [&f](uint32_t l) { return std::string_view((*f.lines)[l - 1]); };
    out_ += "<div class=\"view\"><div class=\"viewhead\">" + esc(baseName(f.path)) + " <span class=\"path\">" +
            esc(f.resolved) + "</span></div>\n";
  }
  std::vector<std::pair<uint32_t, uint32_t>> chunks;
  for (uint32_t l : v.lines) {
    if (!l || l > last) continue;
    uint32_t b = l > kContext ? l - kContext : 1, e = std::min(last, l + kContext);
    if (!chunks.empty() && b <= chunks.back().second + kMergeGap) chunks.back().second = std::max(chunks.back().second, e);
    else chunks.push_back({b, e});
  }
  out_ += "<table class=\"code\">\n";
  uint32_t shown = 0;
  const std::string prefix = "k" + std::to_string(kernel) + "-" + (v.file == kPtxView ? "ptx" : "f" + std::to_string(v.file)) + "-";
  for (const auto &[b, e] : chunks) {
    if (b > shown + 1) out_ += "<tr class=\"gap\"><td class=\"n\">&#8942;</td><td class=\"c\"></td></tr>\n";
    for (uint32_t l = b; l <= e; ++l) {
      auto it = v.notes.find(l);
      std::string cls;
      if (it != v.notes.end()) {
        const AccessInfo *worst = nullptr;
        for (const auto *a : it->second.accesses)
          if (!worst || severity(a->verdict) > severity(worst->verdict)) worst = a;
        cls = worst ? std::string(" class=\"l-") + verdictName(worst->verdict) + "\"" : " class=\"l-remark\"";
      }
      out_ += "<tr" + cls + " id=\"" + prefix + std::to_string(l) + "\"><td class=\"n\">" + std::to_string(l) +
              "</td><td class=\"c\">" + esc(text(l)) + "</td></tr>\n";
      if (it == v.notes.end()) continue;
      out_ += "<tr class=\"ann\"><td class=\"n\"></td><td class=\"c\">\n";
      for (const auto *a : it->second.accesses) writeAccess(kernel, *a, fa);
      for (const auto *r : it->second.remarks) writeRemark(*r, k, false);
      out_ += "</td></tr>\n";
    }
    shown = e;
  }
  out_ += "</table></div>\n";
}

std::string countCells(const Coverage &c) {
  using V = AccessInfo::Verdict;
  std::string s = "<td class=\"num\">" + std::to_string(c.accesses) + "</td>";
  for (auto v : {V::Coalesced, V::Uniform, V::Uncoalesced, V::Unknown}) {
    size_t n = c.count(v);
    s += "<td class=\"num\">" + (n ? "<span class=\"badge " + verdictClass(v) + "\">" + std::to_string(n) + "</span>"
                                   : std::string("0")) +
         "</td>";
  }
  std::string causes = c.causeText();
  return s + "<td>" + (causes.empty() ? std::string() : esc(causes)) + "</td>";
}

void Writer::writeKernel(size_t index, const Function &k, const Coverage &cov,
                         const std::vector<const ReportRemark *> &remarks) {
  FunctionAnalyses &fa = am_.get(k);
  KernelPage page = place(fa, remarks);
  out_ += "\n<section id=\"k" + std::to_string(index) + "\">\n<h2>kernel <code>" + esc(k.name) + "</code></h2>\n";
  if (auto d = demangle(k.name); !d.empty()) out_ += "<p class=\"demangled\">" + esc(d) + "</p>\n";
  out_ += "<p>global accesses: " + esc(cov.verdictText());
  if (auto causes = cov.causeText(); !causes.empty()) out_ += "; unknown by cause: " + esc(causes);
  if (cov.otherSpaces) out_ += "; " + std::to_string(cov.otherSpaces) + " shared/local/const accesses not listed";
  out_ += "</p>\n";
  const auto &comm = fa.communication();
  if (comm.empty()) {
    out_ += "<p class=\"muted\">threads communicate: no (threads may be regrouped)</p>\n";
  } else {
    std::map<std::string, size_t> kinds;
    for (const auto &c : comm) ++kinds[kindName(c.kind)];
    out_ += "<p class=\"muted\">threads communicate (blocks regrouping them):";
    bool first = true;
    for (const auto &[kind, n] : kinds) {
      out_ += std::string(first ? " " : ", ") + esc(kind) + (n > 1 ? " &times;" + std::to_string(n) : "");
      first = false;
    }
    out_ += "</p>\n";
  }
  // Loops: where, and whether every thread runs them the same number of times.
  const CFG &cfg = fa.cfg();
  if (const auto &loops = fa.loops().loops(); !loops.empty()) {
    out_ += "<ul class=\"facts\">\n";
    for (const auto &l : loops) {
      std::string trips;
      for (const auto &iv : fa.affine().inductionVars())
        if (iv.loop == l.id && !iv.tripCount.empty()) {
          trips = iv.tripCount;
          break;
        }
      out_ += "<li>loop <code>k" + std::to_string(l.id) + "</code> at " + esc(blockName(cfg, l.header));
      if (uint32_t first = cfg.blocks()[l.header].first; first < cfg.instructions().size()) {
        std::string where = sourceLocation(m_, cfg, first).str();
        uint32_t pl = ptxLine(cfg.instructions()[first]);
        if (where.empty() && pl) where = "PTX line " + std::to_string(pl);
        if (!where.empty()) out_ += " (" + esc(where) + ")";
      }
      out_ += ", depth " + std::to_string(l.depth) + ": trip count " +
              esc(tripUniformText(fa.affine().tripCountUniformity(l.id)));
      if (!trips.empty()) out_ += ", " + esc(trips) + " iterations";
      out_ += "</li>\n";
    }
    out_ += "</ul>\n";
  }
  for (const ReportRemark *r : page.unplaced) writeRemark(*r, k, true);
  // The accesses, each linked to its place in the code below.
  if (cov.accesses) {
    out_ += "<table class=\"accesses\"><tr><th>where</th><th>instruction</th><th>bytes</th><th>verdict</th>"
            "<th>sectors / ideal</th><th>strides</th><th>why</th></tr>\n";
    for (const auto &a : fa.accesses()) {
      if (!reportedAccess(a)) continue;
      out_ += "<tr><td><a href=\"#k" + std::to_string(index) + "-i" + std::to_string(a.instr) + "\">" +
              esc(where(a, fa)) + "</a></td><td><code>" + esc(fa.cfg().instructions()[a.instr]->opcode) +
              "</code></td><td>" + std::to_string(a.mem.bytes()) + "</td><td><span class=\"badge " +
              verdictClass(a.verdict) + "\">" + verdictName(a.verdict) + "</span></td><td>" +
              (a.sectors ? std::to_string(*a.sectors) + " / " + std::to_string(a.idealSectors) : std::string()) +
              "</td><td class=\"mono\">";
      for (size_t i = 0; i < a.strides.size(); ++i)
        out_ += (i ? ", " : "") + esc(a.strides[i].var) + ": " + esc(a.strides[i].bytes);
      if (a.unroll && a.elementStride)
        out_ += "; unrolled " + std::to_string(a.unroll) + "x: " + esc(a.elementStride->var) + ": " +
                esc(a.elementStride->bytes) + " per element";
      out_ += "</td><td>";
      if (a.verdict == AccessInfo::Verdict::Unknown) out_ += esc(causeName(a.cause)) + ": ";
      out_ += esc(a.reason) + "</td></tr>\n";
    }
    out_ += "</table>\n";
  }
  bool anySource = false;
  for (const auto &v : page.views) anySource |= v.file != kPtxView;
  if (!anySource && page.views.empty()) page.view(kPtxView);
  for (auto &v : page.views) writeView(index, v, fa, k, v.file == kPtxView && !anySource);
  out_ += "</section>\n";
}

std::string Writer::run() {
  std::vector<const Function *> kernels;
  for (const auto &it : m_.items)
    if (it.kind == ir::Item::Kind::Function && it.function->body && it.function->isEntry)
      kernels.push_back(it.function.get());
  Coverage total;
  auto perKernel = moduleCoverage(m_, am_, &total);
  std::vector<std::vector<const ReportRemark *>> remarks(kernels.size());
  std::vector<std::pair<size_t, size_t>> remarkCounts(kernels.size());  // applied, missed
  for (const auto &r : opts_.remarks)
    for (size_t i = 0; i < kernels.size(); ++i)
      if (isKernelRemark(r, *kernels[i])) {
        remarks[i].push_back(&r);
        remarkCounts[i].first += r.kind == "applied";
        remarkCounts[i].second += r.kind == "missed";
        break;
      }
  const std::string title = opts_.source.empty() ? m_.fileName() : opts_.source;

  // The counts as data, for ptx-nvcc's index page (and anyone's scripts).
  nlohmann::json data;
  data["schema"] = "ptx-opt-coverage/1";
  data["file"] = m_.fileName();
  data["source"] = opts_.source;
  data["pipeline"] = opts_.pipeline;
  data["coverage"] = coverageJson(total);
  nlohmann::json jk = nlohmann::json::array();
  for (size_t i = 0; i < perKernel.size(); ++i)
    jk.push_back({{"name", perKernel[i].kernel},
                  {"demangled", demangle(perKernel[i].kernel)},
                  {"coverage", coverageJson(perKernel[i].coverage)},
                  {"remarks", {{"applied", remarkCounts[i].first}, {"missed", remarkCounts[i].second}}}});
  data["kernels"] = jk;
  std::string json = data.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace), safe;
  for (char c : json) {  // nothing in a script element may read as markup
    if (c == '<') safe += "\\u003c";
    else if (c == '>') safe += "\\u003e";
    else if (c == '&') safe += "\\u0026";
    else safe += c;
  }

  out_ += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"ptx-opt --analyze=html\">\n<title>ptx-opt report: " +
          esc(baseName(title)) + "</title>\n<style>" + kStyle + "</style>\n" +
          "<script type=\"application/json\" id=\"ptx-opt-coverage\">" + safe + "</script>\n</head>\n<body>\n";
  out_ += "<h1>ptx-opt report: " + esc(baseName(title)) + "</h1>\n";
  if (!opts_.source.empty()) out_ += "<p class=\"meta\">source: " + esc(opts_.source) + "</p>\n";
  out_ += "<p class=\"meta\">PTX: " + esc(m_.fileName());
  if (auto t = m_.target(); !t.empty()) {
    out_ += " &middot; target";
    for (auto w : t) out_ += " " + esc(w);
  }
  out_ += "</p>\n<p class=\"meta\">";
  out_ += opts_.pipeline.empty() ? std::string("no remarks (no pass ran)")
                                 : "remarks: what <code>ptx-opt " + esc(opts_.pipeline) +
                                       "</code> does with this input (the code shown is the input, unchanged)";
  out_ += "</p>\n<p class=\"legend\"><span class=\"badge v-coalesced\">coalesced</span><span class=\"badge "
          "v-uniform\">uniform</span><span class=\"badge v-uncoalesced\">uncoalesced</span><span class=\"badge "
          "v-unknown\">unknown</span> <span class=\"muted\">global accesses by verdict: sectors per warp request "
          "of 32 consecutive <code>%tid.x</code> against the ideal (docs/ANALYSIS.md)</span></p>\n";
  out_ += "<table class=\"counts\"><tr><th>kernel</th><th>global accesses</th><th>coalesced</th><th>uniform</th>"
          "<th>uncoalesced</th><th>unknown</th><th>unknown by cause</th><th>remarks applied / missed</th></tr>\n";
  size_t applied = 0, missed = 0;
  for (size_t i = 0; i < kernels.size(); ++i) {
    out_ += "<tr><td><a href=\"#k" + std::to_string(i) + "\"><code>" + esc(kernels[i]->name) + "</code></a></td>" +
            countCells(perKernel[i].coverage) + "<td class=\"num\">" + std::to_string(remarkCounts[i].first) + " / " +
            std::to_string(remarkCounts[i].second) + "</td></tr>\n";
    applied += remarkCounts[i].first;
    missed += remarkCounts[i].second;
  }
  out_ += "<tr class=\"total\"><td>all " + std::to_string(kernels.size()) + " kernel" +
          (kernels.size() == 1 ? "" : "s") + "</td>" + countCells(total) + "<td class=\"num\">" +
          std::to_string(applied) + " / " + std::to_string(missed) + "</td></tr>\n</table>\n";
  for (size_t i = 0; i < kernels.size(); ++i) writeKernel(i, *kernels[i], perKernel[i].coverage, remarks[i]);
  out_ += "</body>\n</html>\n";
  return std::move(out_);
}

}  // namespace

std::string reportHtml(const Module &m, AnalysisManager &am, const HtmlReportOptions &opts) {
  return Writer(m, am, opts).run();
}

}  // namespace ptxopt::analysis
