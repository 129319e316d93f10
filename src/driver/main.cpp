// ptx-opt command line driver.
//
//   ptx-opt [options] <in.ptx|-> [-o <out.ptx|->]
//
// Reads PTX, parses it into the IR, runs the requested passes, verifies, and
// prints it back. Output goes to a temporary file beside the target that is
// renamed into place only on success, so a failed run never creates or
// changes the output file (a device or FIFO, /dev/null, is written in
// place). The pass options' flags come from the registry
// (src/transforms/Registry.cpp); the steps of a run are the functions below
// main.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptxopt/Version.h"
#include "ptxopt/analysis/HtmlReport.h"
#include "ptxopt/analysis/Report.h"
#include "ptxopt/ir/Verifier.h"
#include "ptxopt/parser/Parser.h"
#include "ptxopt/printer/Printer.h"
#include "ptxopt/transforms/PassManager.h"

// The analyses of an analysis output and the module, not freed at exit (see
// outputText and main).
ptxopt::analysis::AnalysisManager *gKeptAtExit = nullptr;
ptxopt::ir::Module *gModuleKeptAtExit = nullptr;

namespace {

using Clock = std::chrono::steady_clock;

double ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

bool readInput(const std::string &path, std::string &out, std::string &err) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    out = ss.str();
    return true;
  }
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    err = path + ": error: cannot open input file: " + std::strerror(errno);
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    err = path + ": error: cannot read input file: it is a directory";
    return false;
  }
  std::ifstream in(path, std::ios::binary | (S_ISREG(st.st_mode) ? std::ios::ate : std::ios::openmode{}));
  if (!in) {
    err = path + ": error: cannot open input file: " + std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {  // a pipe or a device: read until its end
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
  }
  // One allocation of the right size (a stringstream would hold two more copies).
  std::streamoff size = in.tellg();
  out.resize(static_cast<size_t>(size));
  in.seekg(0);
  in.read(out.data(), size);
  if (in.gcount() != size) {
    err = path + ": error: cannot read input file";
    return false;
  }
  return true;
}

/// Writes `text` to `out`; "" on success, else the error in the words of a
/// failed write of `path`.
std::string writeStream(std::ofstream &out, const std::string &path, const std::string &text) {
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  return out ? "" : path + ": error: cannot write output file: " + std::strerror(errno);
}

bool writeOutput(const std::string &path, const std::string &text, std::string &err) {
  if (path == "-") {
    std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
    std::cout.flush();
    return static_cast<bool>(std::cout);
  }
  // A path that exists and is no regular file (/dev/null, a FIFO, a
  // terminal) is written in place: renaming a temporary file over it would
  // replace the device (as root, /dev/null became a regular file).
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    std::ofstream out(path, std::ios::binary);
    err = writeStream(out, path, text);
    return err.empty();
  }
  std::string tmp = path + ".ptxopt-tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      err = path + ": error: cannot write output file: " + std::strerror(errno);
      return false;
    }
    if (!writeStream(out, path, text).empty()) {
      std::remove(tmp.c_str());
      err = path + ": error: cannot write output file";
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    err = path + ": error: cannot write output file: " + std::strerror(errno);
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

// Peak resident memory of this program. VmHWM belongs to the address space
// made by exec; getrusage's ru_maxrss would also count a large parent's
// memory inherited through fork.
long peakRssKiB() {
  std::ifstream st("/proc/self/status");
  std::string line;
  while (std::getline(st, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

const char *remarkKind(ptxopt::Remark::Kind k) {
  return k == ptxopt::Remark::Kind::Applied ? "applied" : k == ptxopt::Remark::Kind::Missed ? "missed" : "note";
}

/// What the command line asked for.
struct Args {
  std::string input, output = "-";
  bool canonicalize = false, verify = false, stats = false, timePasses = false;
  std::string passes, remarksFile;
  std::vector<std::string> skipPasses;
  int optLevel = 0;
  bool coalesce = false, remarks = false, printAfterAll = false, listPasses = false, printOptions = false;
  std::string checkOptions, checkOptionsPrefix;
  // The pass options' flags (the registry's): values of the options with one,
  // and of the flags given.
  std::map<std::string, std::string> optionValues;
  std::map<std::string, bool> optionFlags;
  std::string analyze, emitCfg, reportHtml, reportSource;
  std::vector<std::string> printAnalyses;
  bool analyzeGiven = false;
};

/// --help's text of a pass option: its help, values and default.
std::string optionHelp(const ptxopt::OptionInfo &o) {
  std::string values = ptxopt::optionValuesText(o);
  return o.pass + ": " + o.help + " (" + (values.empty() ? "" : values + "; ") + "default: " + o.defaultText + ")";
}

/// The flags of the pass options, one per registry entry.
void addPassOptionFlags(CLI::App &app, Args &a) {
  for (const auto &o : ptxopt::passOptionInfos()) {
    if (o.type == ptxopt::OptionInfo::Type::Bool)
      app.add_flag("--" + o.name, a.optionFlags[o.name], optionHelp(o));
    else
      app.add_option("--" + o.name, a.optionValues[o.name], optionHelp(o))->type_name(o.metavar);
  }
}

/// The pipeline flags: -O, --passes, --skip-pass, the pass options, and what lists them.
void addPipelineFlags(CLI::App &app, Args &a) {
  std::string passList, levels;
  for (const auto &p : ptxopt::registeredPasses()) passList += "\n    " + p.name + ": " + p.description;
  app.add_option("--passes", a.passes, "Comma-separated passes to run, in order. Passes:" + passList)
      ->type_name("LIST");
  for (const auto &p : ptxopt::registeredPipelines()) levels += std::string(levels.empty() ? "" : ", ") + p.name + " " + p.help;
  app.add_option("-O", a.optLevel, "Optimization level: " + levels)->check(CLI::Range(0, 2))->type_name("LEVEL");
  app.add_flag("--coalesce", a.coalesce, "Same as --passes=coalesce");
  addPassOptionFlags(app, a);
  app.add_flag("--list-passes", a.listPasses, "Print the registered passes (name: description) and exit");
  app.add_flag("--print-options", a.printOptions,
               "Print the pipelines and every pass option (type, default, values, help) as the markdown tables "
               "of docs/PASSES.md, and exit");
  app.add_option("--check-options", a.checkOptions,
                 "Check SPEC as libptxopt reads it (PIPELINE[;option[=value]...], e.g. \"-O2;group-k=4\"; what "
                 "ptx-nvcc checks its --ptxopt-<option> flags with) and exit: 0 when valid, else the error")
      ->type_name("SPEC");
  app.add_option("--check-options-prefix", a.checkOptionsPrefix, "What --check-options writes before option names")
      ->group("");  // hidden: ptx-nvcc's "--ptxopt-"
  app.add_option("--skip-pass", a.skipPasses, "Do not run this pass even if the pipeline names it (repeatable); `prune` keeps the variants no launch can select")
      ->type_name("NAME")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_flag("--remarks", a.remarks, "Print what each pass did or refused, and why, to stderr");
  app.add_option("--remarks-file", a.remarksFile, "Write the remarks as JSON lines to FILE")->type_name("FILE");
  app.add_flag("--print-after-all", a.printAfterAll, "Print the module (valid PTX) to stderr after each pass");
}

/// The analysis outputs: --analyze, --report-html, --emit-cfg, --print-analysis.
void addAnalysisFlags(CLI::App &app, Args &a) {
  app.add_flag("--analyze{text}", a.analyze,
                 "Instead of PTX, write the memory-access report: per kernel, the global accesses counted by "
                 "verdict and the unknown ones by cause, each global access with its source location, width, "
                 "strides, sectors per warp request and verdict, loops, and what blocks regrouping threads. "
                 "FORMAT: text (default), json, or html (one self-contained page: the source lines with the "
                 "accesses and the passes' remarks beside them; remarks of the passes given, else of -O2, run "
                 "on a copy: the report shows the input) (docs/ANALYSIS.md)")
      ->check(CLI::IsMember({"text", "json", "html"}))
      ->type_name("FORMAT");
  app.add_option("--report-html", a.reportHtml,
                 "Also write the --analyze=html page of the input, with the remarks of this run's passes, to FILE "
                 "(the PTX output is unchanged; one run where ptx-nvcc --ptxopt-report made two)")
      ->type_name("FILE");
  app.add_option("--report-source", a.reportSource,
                 "--analyze=html, --report-html: the source file the PTX came from, named in the page's title (ptx-nvcc sets it)")
      ->type_name("NAME");
  app.add_option("--emit-cfg", a.emitCfg, "Instead of PTX, write each function's control-flow graph (FORMAT: dot)")
      ->check(CLI::IsMember({"dot"}))
      ->type_name("FORMAT");
  std::string printerNames;
  for (auto n : ptxopt::analysis::kAnalysisPrinters) printerNames += std::string(printerNames.empty() ? "" : ", ") + n;
  app.add_option("--print-analysis", a.printAnalyses,
                 "Instead of PTX, print one analysis for every function (for tests); NAME: " + printerNames)
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(ptxopt::analysis::kAnalysisPrinters),
                                                     std::end(ptxopt::analysis::kAnalysisPrinters))))
      ->type_name("NAME")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void addFlags(CLI::App &app, Args &a) {
  app.add_option("input", a.input, "Input PTX file, or - for standard input");
  app.add_option("-o,--output", a.output, "Output file, or - for standard output (default: -)");
  app.add_flag("--canonicalize", a.canonicalize,
               "Print every statement from the IR in canonical layout (no comments; "
               "ptxas builds the identical cubin)");
  app.add_flag("--verify", a.verify,
               "Check the IR (declared registers, defined labels, branch targets); errors exit 1");
  app.add_flag("--stats", a.stats,
               "Print statistics (items, tokens, functions, instructions; the passes' counters; coverage: the "
               "input's global accesses by verdict and the unknown ones by cause, per kernel and in all) to stderr");
  app.add_flag("--time-passes", a.timePasses, "Print the time spent in each phase to stderr");
  addPipelineFlags(app, a);
  addAnalysisFlags(app, a);
  app.set_version_flag("--version", std::string("ptx-opt ") + PTXOPT_VERSION);
  app.footer("Exit status: 0 on success, 1 on an input error, 2 on a usage error.\n"
             "On error no output file is created or changed.");
}

/// An argument CLI11 did not expect: an unknown option is a usage error
/// that lists the pass options (the likeliest misspelling), else CLI11's.
int unexpected(CLI::App &app, const CLI::ExtrasError &e) {
  for (const auto &x : app.remaining()) {
    if (x.rfind("--", 0) != 0) continue;
    std::cerr << "ptx-opt: error: unknown option '" << x.substr(0, x.find('=')) << "' (pass options: "
              << ptxopt::passOptionList("--") << "; the others: --help)\n";
    return 2;
  }
  app.exit(e);
  return 2;
}

/// A value CLI11 could not convert ("Could not convert: --NAME = VALUE"):
/// for a pass option's flag, the registry's error, which lists what is valid.
int badFlagValue(CLI::App &app, const CLI::ConversionError &e) {
  const std::string what = e.what(), head = "Could not convert: --";
  const size_t eq = what.find(" = ");
  if (what.rfind(head, 0) == 0 && eq != std::string::npos) {
    ptxopt::PassOptions scratch;
    std::string err;
    const std::string name = what.substr(head.size(), eq - head.size());
    if (ptxopt::findPassOption(name) && !ptxopt::setPassOption(scratch, name, what.substr(eq + 3), err, "--")) {
      std::cerr << "ptx-opt: error: " << err << "\n";
      return 2;
    }
  }
  app.exit(e);
  return 2;
}

/// The pipeline the flags ask for; false with `err` for an ill-typed pass option.
bool pipelineOptions(const CLI::App &app, const Args &a, ptxopt::PipelineOptions &popts, std::string &err) {
  popts.passes = "-O0";
  if (a.optLevel) popts.passes = "-O" + std::to_string(a.optLevel);
  if (a.coalesce) popts.passes = "coalesce";
  if (!a.passes.empty()) popts.passes = a.passes;
  popts.skip = a.skipPasses;
  for (const auto &o : ptxopt::passOptionInfos()) {
    if (!app.count("--" + o.name)) continue;
    std::optional<std::string> value;
    if (o.type != ptxopt::OptionInfo::Type::Bool) value = a.optionValues.at(o.name);
    else if (!a.optionFlags.at(o.name)) value = "0";
    if (!ptxopt::setPassOption(popts.options, o.name, value, err, "--")) return false;
  }
  if (a.printAfterAll)
    popts.afterPass = [](const std::string &pass, const ptxopt::ir::Module &m, void *) {
      std::cerr << "// ---- after " << pass << " ----\n" << ptxopt::printModule(m);
    };
  return true;
}

/// The commands that print and exit (--list-passes, --print-options,
/// --check-options); nullopt when none was given.
std::optional<int> listingCommand(const Args &a) {
  if (a.listPasses) {
    for (const auto &p : ptxopt::registeredPasses()) std::cout << p.name << ": " << p.description << "\n";
    return 0;
  }
  if (a.printOptions) {
    std::cout << ptxopt::passOptionsMarkdown();
    return 0;
  }
  if (!a.checkOptions.empty()) {
    ptxopt::PipelineOptions po;
    std::string err;
    if (ptxopt::parsePipelineSpec(a.checkOptions, po, err, a.checkOptionsPrefix)) return 0;
    std::cerr << "ptx-opt: error: " << err << "\n";
    return 2;
  }
  return std::nullopt;
}

/// "<pipeline> --skip-pass=<p>..." for the report's page.
std::string pipelineText(const ptxopt::PipelineOptions &p) {
  std::string s = p.passes;
  for (const auto &x : p.skip) s += " --skip-pass=" + x;
  return s;
}

std::vector<ptxopt::analysis::ReportRemark> htmlRemarks(const ptxopt::OptimizeResult &opt) {
  std::vector<ptxopt::analysis::ReportRemark> out;
  for (const auto &r : opt.remarks) out.push_back({remarkKind(r.kind), r.pass, r.function, r.location, r.message});
  return out;
}

/// The input as parsed, its analyses for --stats (coverage) and the output,
/// the result of the passes, and the times of the steps.
struct Run {
  std::string name;
  size_t inputBytes = 0;
  std::string pipelineCopy;  // the input again, for --analyze=html and --report-html
  ptxopt::ParseResult parsed;
  std::unique_ptr<ptxopt::analysis::AnalysisManager> am;
  std::string coverage;
  ptxopt::OptimizeResult opt;
  std::string htmlPipeline;  // --analyze=html: the pipeline its remarks come from
  Clock::time_point t0, t1, t2, t3, t3a, t3b, t4, t5;
  double coverageMs = 0;
};

/// Reads and parses the input (and verifies it with --verify); an exit status on failure.
std::optional<int> readAndParse(const Args &a, bool html, Run &r) {
  r.t0 = Clock::now();
  std::string text, err;
  if (!readInput(a.input, text, err)) {
    std::cerr << "ptx-opt: " << err << "\n";
    return 1;
  }
  r.name = a.input == "-" ? "<stdin>" : a.input;
  r.inputBytes = text.size();
  // --analyze=html reports the input as read and the remarks of a pipeline
  // run on a second copy of it; --report-html: the page shows the input, and
  // the passes change the module.
  if (html || !a.reportHtml.empty()) r.pipelineCopy = text;
  r.t1 = Clock::now();
  r.parsed = ptxopt::parsePtx(std::move(text), r.name);
  r.t2 = Clock::now();
  if (r.parsed.error) {
    std::cerr << ptxopt::formatDiagnostic(*r.parsed.error);
    return 1;
  }
  if (a.verify) {
    auto diags = ptxopt::verifyModule(*r.parsed.module);
    for (auto &d : diags) std::cerr << ptxopt::formatDiagnostic(d);
    if (!diags.empty()) return 1;
  }
  r.t3 = Clock::now();
  return std::nullopt;
}

/// Runs the passes: on the module, or with --analyze=html on a copy (the
/// remarks of the passes asked for, else of -O2; the module stays the input).
std::optional<int> runPipeline(const Args &a, const ptxopt::PipelineOptions &popts, bool html, Run &r) {
  auto &mod = *r.parsed.module;
  // Coverage for --stats: of the input, before any pass adds clones.
  if (a.stats) {
    auto c0 = Clock::now();
    r.am = std::make_unique<ptxopt::analysis::AnalysisManager>(mod);
    r.coverage = ptxopt::analysis::coverageStats(mod, *r.am);
    r.coverageMs = ms(c0, Clock::now());
  }
  if (html) {
    ptxopt::PipelineOptions hopts = popts;
    if (hopts.passes == "-O0") hopts.passes = "-O2";
    r.htmlPipeline = pipelineText(hopts);
    auto copy = ptxopt::parsePtx(std::move(r.pipelineCopy), r.name);  // parsed once already: it parses
    if (copy.error) {
      std::cerr << ptxopt::formatDiagnostic(*copy.error);
      return 1;
    }
    r.opt = ptxopt::optimizeModule(*copy.module, hopts);
  } else if (popts.passes != "-O0") {
    r.am.reset();  // the passes change the module
    r.opt = ptxopt::optimizeModule(mod, popts);
  }
  if (!r.opt.ok) {
    std::cerr << "ptx-opt: error: " << r.opt.error << "\n";
    return 2;
  }
  return std::nullopt;
}

/// --remarks on stderr, --remarks-file as JSON lines.
bool writeRemarks(const Args &a, const Run &r) {
  if (a.remarks)
    for (const auto &x : r.opt.remarks)
      std::cerr << (x.location.empty() ? r.name : x.location) << ": remark: [" << x.pass << "] " << x.function
                << ": " << remarkKind(x.kind) << ": " << x.message << "\n";
  if (a.remarksFile.empty()) return true;
  auto esc = [](const std::string &s) {
    std::string o;
    for (char c : s) {
      if (c == '"' || c == '\\') o += '\\';
      if (static_cast<unsigned char>(c) < 0x20) continue;
      o += c;
    }
    return o;
  };
  std::string lines, err;
  for (const auto &x : r.opt.remarks)
    lines += "{\"pass\": \"" + esc(x.pass) + "\", \"function\": \"" + esc(x.function) + "\", \"kind\": \"" +
             remarkKind(x.kind) + "\", \"location\": \"" + esc(x.location) + "\", \"message\": \"" +
             esc(x.message) + "\"}\n";
  if (writeOutput(a.remarksFile, lines, err)) return true;
  std::cerr << "ptx-opt: " << err << "\n";
  return false;
}

/// --report-html: the page of the input (a second parse of it) with this
/// run's remarks. A failure to write it is a warning: the PTX is still written.
std::optional<int> writeReportPage(const Args &a, const ptxopt::PipelineOptions &popts, Run &r) {
  auto input = ptxopt::parsePtx(std::move(r.pipelineCopy), r.name);
  if (input.error) {
    std::cerr << ptxopt::formatDiagnostic(*input.error);
    return 1;
  }
  ptxopt::analysis::AnalysisManager ram(*input.module);
  ptxopt::analysis::HtmlReportOptions hopts;
  if (popts.passes != "-O0") hopts.pipeline = pipelineText(popts);
  hopts.source = a.reportSource;
  hopts.remarks = htmlRemarks(r.opt);
  std::string err;
  if (!writeOutput(a.reportHtml, ptxopt::analysis::reportHtml(*input.module, ram, hopts), err))
    std::cerr << "ptx-opt: warning: no report: " << err << "\n";
  return std::nullopt;
}

/// The output text: an analysis (--analyze, --emit-cfg, --print-analysis) or the module.
std::string outputText(const Args &a, bool html, Run &r) {
  auto &mod = *r.parsed.module;
  std::string outText;
  bool analysisOutput = a.analyzeGiven || !a.emitCfg.empty() || !a.printAnalyses.empty();
  r.t3a = Clock::now();
  if (analysisOutput) {
    if (!r.am) r.am = std::make_unique<ptxopt::analysis::AnalysisManager>(mod);
    // A report is the first text: moved in (appending copied its megabytes).
    if (html) {
      ptxopt::analysis::HtmlReportOptions hopts;
      hopts.pipeline = r.htmlPipeline;
      hopts.source = a.reportSource;
      hopts.remarks = htmlRemarks(r.opt);
      outText = ptxopt::analysis::reportHtml(mod, *r.am, hopts);
    } else if (a.analyzeGiven) {
      outText = a.analyze == "json" ? ptxopt::analysis::reportJson(mod, *r.am) : ptxopt::analysis::reportText(mod, *r.am);
    }
    if (!a.emitCfg.empty()) outText += ptxopt::analysis::cfgDot(mod, *r.am);
    for (const auto &n : a.printAnalyses) ptxopt::analysis::printAnalysis(mod, *r.am, n, outText);
  }
  // The analyses are not freed at exit: the process ends, and freeing their
  // many small objects cost 6% of an --analyze run on a large module (as
  // compilers skip it, clang's -disable-free). Kept reachable, so leak
  // checkers do not count it.
  if (r.am && analysisOutput) gKeptAtExit = r.am.release();
  r.t3b = Clock::now();
  if (!analysisOutput)
    outText = ptxopt::printModule(mod, a.canonicalize ? ptxopt::PrintMode::Canonical : ptxopt::PrintMode::Lossless);
  r.t4 = Clock::now();
  return outText;
}

/// --stats and --time-passes on stderr.
void printStatsAndTimes(const Args &a, const Run &r) {
  if (a.stats) {
    size_t funcs = 0, kernels = 0, instrs = 0;
    for (auto *f : r.parsed.module->functions()) {
      ++funcs;
      if (f->isEntry && f->body) ++kernels;
      if (f->body)
        ptxopt::ir::forEachStmt(*f->body, [&](const ptxopt::ir::Stmt &s) {
          if (s.kind == ptxopt::ir::Stmt::Kind::Instruction) ++instrs;
        });
    }
    for (const auto &[k, v] : r.opt.stats) std::cerr << "ptx-opt: stats: " << k << " = " << v << "\n";
    std::istringstream cov(r.coverage);
    for (std::string line; std::getline(cov, line);) std::cerr << "ptx-opt: stats: " << line << "\n";
    const auto &ps = r.parsed.stats;
    std::cerr << "ptx-opt: stats: " << r.inputBytes << " bytes, " << ps.tokens << " tokens, " << ps.items
              << " top-level items (" << ps.fastItems << " without ANTLR), " << funcs << " functions (" << kernels
              << " kernels), " << instrs << " instructions, " << ps.llFallbacks << " LL fallbacks, peak RSS "
              << peakRssKiB() << " KiB\n";
  }
  if (a.timePasses) {
    std::fprintf(stderr,
                 "ptx-opt: time: read %.2f ms, parse %.2f ms, verify %.2f ms, analyze %.2f ms, print %.2f ms, "
                 "write %.2f ms, total %.2f ms\n",
                 ms(r.t0, r.t1), ms(r.t1, r.t2), ms(r.t2, r.t3), ms(r.t3a, r.t3b) + r.coverageMs, ms(r.t3b, r.t4),
                 ms(r.t4, r.t5), ms(r.t0, r.t5));
    for (const auto &[p, t] : r.opt.passTimes) std::fprintf(stderr, "ptx-opt: time: pass %s %.2f ms\n", p.c_str(), t);
  }
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{"ptx-opt: a PTX-to-PTX optimizer for NVIDIA GPUs.\n"
               "Reads PTX (from nvcc, clang, Triton, NVRTC), optimizes global-memory\n"
               "accesses on clones of the kernels, and prints PTX.",
               "ptx-opt"};
  Args a;
  addFlags(app, a);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success &e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError &e) {
    return unexpected(app, e);
  } catch (const CLI::ConversionError &e) {
    return badFlagValue(app, e);
  } catch (const CLI::ParseError &e) {
    app.exit(e);
    return 2;
  }
  a.analyzeGiven = app.count("--analyze") != 0;
  if (auto rc = listingCommand(a)) return *rc;
  if (a.input.empty()) {
    std::cerr << "ptx-opt: error: input is required (a PTX file, or - for standard input)\nRun with --help for more information.\n";
    return 2;
  }
  ptxopt::PipelineOptions popts;
  std::string err;
  if (!pipelineOptions(app, a, popts, err)) {
    std::cerr << "ptx-opt: error: " << err << "\n";
    return 2;
  }
  const bool html = a.analyzeGiven && a.analyze == "html";
  Run r;
  if (auto rc = readAndParse(a, html, r)) return *rc;
  if (auto rc = runPipeline(a, popts, html, r)) return *rc;
  if (!writeRemarks(a, r)) return 1;
  if (!a.reportHtml.empty() && !html)
    if (auto rc = writeReportPage(a, popts, r)) return *rc;
  std::string outText = outputText(a, html, r);
  if (!writeOutput(a.output, outText, err)) {
    std::cerr << "ptx-opt: " << err << "\n";
    return 1;
  }
  r.t5 = Clock::now();
  printStatsAndTimes(a, r);
  // Nor is the module: freeing its nodes one by one was 4% of an -O2 run on
  // the CUB file (callgrind), the process ends anyway. Reachable, as above.
  gModuleKeptAtExit = r.parsed.module.release();
  return 0;
}
