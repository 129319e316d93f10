// ptx-opt command line driver.
//
//   ptx-opt [options] <in.ptx|-> [-o <out.ptx|->]
//
// Reads PTX, parses it into the IR, (later: runs the requested passes),
// verifies, and prints it back. Output goes to a temporary file beside the
// target that is renamed into place only on success, so a failed run never
// creates or changes the output file (a device or FIFO, /dev/null, is
// written in place).
#include <CLI/CLI.hpp>

#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
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
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      err = path + ": error: cannot write output file: " + std::strerror(errno);
      return false;
    }
    return true;
  }
  std::string tmp = path + ".ptxopt-tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      err = path + ": error: cannot write output file: " + std::strerror(errno);
      return false;
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
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

}  // namespace

// The analyses of an analysis output and the module, not freed at exit (see
// main).
ptxopt::analysis::AnalysisManager *gKeptAtExit = nullptr;
ptxopt::ir::Module *gModuleKeptAtExit = nullptr;

int main(int argc, char **argv) {
  CLI::App app{"ptx-opt: a PTX-to-PTX optimizer for NVIDIA GPUs.\n"
               "Reads PTX (from nvcc, clang, Triton, NVRTC), optimizes global-memory\n"
               "accesses on clones of the kernels, and prints PTX.",
               "ptx-opt"};
  std::string input, output = "-";
  bool canonicalize = false, verify = false, stats = false, timePasses = false;
  auto *inputOpt = app.add_option("input", input, "Input PTX file, or - for standard input");
  app.add_option("-o,--output", output, "Output file, or - for standard output (default: -)");
  app.add_flag("--canonicalize", canonicalize,
               "Print every statement from the IR in canonical layout (no comments; "
               "ptxas builds the identical cubin)");
  app.add_flag("--verify", verify,
               "Check the IR (declared registers, defined labels, branch targets); errors exit 1");
  app.add_flag("--stats", stats,
               "Print statistics (items, tokens, functions, instructions; the passes' counters; coverage: the "
               "input's global accesses by verdict and the unknown ones by cause, per kernel and in all) to stderr");
  app.add_flag("--time-passes", timePasses, "Print the time spent in each phase to stderr");
  std::string passes, remarksFile;
  std::vector<std::string> skipPasses;
  int optLevel = 0;
  bool coalesce = false, remarks = false, printAfterAll = false;
  std::string passList;
  for (const auto &p : ptxopt::registeredPasses()) passList += "\n    " + p.name + ": " + p.description;
  app.add_option("--passes", passes, "Comma-separated passes to run, in order. Passes:" + passList)
      ->type_name("LIST");
  app.add_option("-O", optLevel,
                 "Optimization level: -O0 nothing (the default: output = input), -O1 coalesce, -O2 coalesce, transpose, group, rowwalk, pack and reuse")
      ->check(CLI::Range(0, 2))
      ->type_name("LEVEL");
  app.add_flag("--coalesce", coalesce, "Same as --passes=coalesce");
  unsigned groupK = 0;
  app.add_option("--group-k", groupK,
                 "group: logical threads merged into one (2, 4, 8 or 16; default: 16 bytes / the widest "
                 "unit-stride access)")
      ->check(CLI::IsMember({2u, 4u, 8u, 16u}))
      ->type_name("K");
  bool groupGathers = false;
  app.add_flag("--group-gathers", groupGathers,
               "group: also group kernels with gathers or scatters the analysis cannot express (they stay per "
               "logical thread, and may become less coalesced)");
  bool groupSmallLaunches = false;
  app.add_flag("--group-small-launches", groupSmallLaunches,
               "group: accepted for compatibility; now the default: a block-merged k=4 clone with predicated "
               "border groups for launches below the floors of a k=8 or 16 clone with a heavy body (Sobel at "
               "1920x1080: 1.21x)");
  bool groupAtomics = false;
  app.add_flag("--group-atomics", groupAtomics,
               "group: also group kernels with atomics whose result is unused (they stay per logical thread; "
               "measured 0.15x on a counting kernel)");
  bool groupLocalArrays = false;
  app.add_flag("--group-local-arrays", groupLocalArrays,
               "group: also group kernels with per-thread local arrays (one copy per logical thread; measured "
               "0.32-0.68x)");
  bool packAcrossBlocks = false;
  app.add_flag("--pack-across-blocks", packAcrossBlocks,
               "pack: also merge loads that lie in different blocks when the code between them only branches "
               "forward and writes no memory they read (measured slower on the naive DCT)");
  bool packUniformBytes = false;
  app.add_flag("--pack-uniform-bytes", packUniformBytes,
               "pack: also merge four bytes that every thread of a block reads alike (no %tid term) into one "
               "4-byte word (measured 0.93x on tile_sum)");
  bool reassociate = false;
  app.add_flag("--reassociate", reassociate,
               "rowwalk: let the lanes clone split loops with floating-point add/mul/fma/min/max accumulators "
               "(the sum is reassociated: results may differ in the last bits; nvcc's --use_fast_math does not "
               "do this)");
  std::string rowwalkStaged;
  app.add_option("--rowwalk-staged", rowwalkStaged,
                 "rowwalk: the staged clone (rows copied through shared memory, exact): 1 emits it, 0 does not "
                 "(default: see docs/PASSES.md)")
      ->check(CLI::IsMember({"0", "1"}))
      ->type_name("0|1");
  unsigned rowwalkStages = 0, rowwalkTile = 0;
  app.add_option("--rowwalk-stages", rowwalkStages, "rowwalk: tiles in flight per warp in the staged clone (default: "
                                                    "plain copies: as many as fit in 128 registers per lane, 2 of "
                                                    "256 bytes; at most 192 registers' worth; cp.async: as many as "
                                                    "fit in 48 KB, at most 8)")
      ->check(CLI::Range(2u, 16u))
      ->type_name("N");
  app.add_option("--rowwalk-tile", rowwalkTile, "rowwalk: bytes of a row per tile in the staged clone (128 or 256)")
      ->check(CLI::IsMember({128u, 256u}))
      ->type_name("BYTES");
  std::string rowwalkLanes;
  app.add_option("--rowwalk-lanes", rowwalkLanes,
                 "rowwalk: lanes per logical thread of the lanes clones, a comma-separated list of 4, 8, 16, 32 "
                 "(each for the row lengths it was measured fastest on; default 32,8,4: see docs/PASSES.md)")
      ->check([](const std::string &v) -> std::string {
        if (v.empty()) return "an empty list";
        for (size_t at = 0; at <= v.size();) {
          size_t end = v.find(',', at);
          if (end == std::string::npos) end = v.size();
          const std::string g = v.substr(at, end - at);
          unsigned n = 0;
          for (char c : g) n = c >= '0' && c <= '9' && n < 1000 ? n * 10 + unsigned(c - '0') : 1000;
          if (n != 4 && n != 8 && n != 16 && n != 32) return "'" + g + "' is not one of 4, 8, 16, 32";
          at = end + 1;
        }
        return "";
      })
      ->type_name("G[,G...]");
  std::string rowwalkStagedCopy;
  app.add_option("--rowwalk-staged-copy", rowwalkStagedCopy,
                 "rowwalk: how the staged clone copies rows into shared memory: async (cp.async, sm_80+) or plain "
                 "(ld.global.v4 into registers, st.shared.v4; any target) (default: plain, measured faster; see "
                 "docs/PASSES.md)")
      ->check(CLI::IsMember({"plain", "async"}))
      ->type_name("plain|async");
  bool listPasses = false;
  app.add_flag("--list-passes", listPasses, "Print the registered passes (name: description) and exit");
  app.add_option("--skip-pass", skipPasses, "Do not run this pass even if the pipeline names it (repeatable); `prune` keeps the variants no launch can select")
      ->type_name("NAME")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_flag("--remarks", remarks, "Print what each pass did or refused, and why, to stderr");
  app.add_option("--remarks-file", remarksFile, "Write the remarks as JSON lines to FILE")->type_name("FILE");
  app.add_flag("--print-after-all", printAfterAll, "Print the module (valid PTX) to stderr after each pass");
  std::string analyze, emitCfg;
  std::vector<std::string> printAnalyses;
  app.add_flag("--analyze{text}", analyze,
                 "Instead of PTX, write the memory-access report: per kernel, the global accesses counted by "
                 "verdict and the unknown ones by cause, each global access with its source location, width, "
                 "strides, sectors per warp request and verdict, loops, and what blocks regrouping threads. "
                 "FORMAT: text (default), json, or html (one self-contained page: the source lines with the "
                 "accesses and the passes' remarks beside them; remarks of the passes given, else of -O2, run "
                 "on a copy: the report shows the input) (docs/ANALYSIS.md)")
      ->check(CLI::IsMember({"text", "json", "html"}))
      ->type_name("FORMAT");
  std::string reportHtml;
  app.add_option("--report-html", reportHtml,
                 "Also write the --analyze=html page of the input, with the remarks of this run's passes, to FILE "
                 "(the PTX output is unchanged; one run where ptx-nvcc --ptxopt-report made two)")
      ->type_name("FILE");
  std::string reportSource;
  app.add_option("--report-source", reportSource,
                 "--analyze=html, --report-html: the source file the PTX came from, named in the page's title (ptx-nvcc sets it)")
      ->type_name("NAME");
  app.add_option("--emit-cfg", emitCfg, "Instead of PTX, write each function's control-flow graph (FORMAT: dot)")
      ->check(CLI::IsMember({"dot"}))
      ->type_name("FORMAT");
  std::string printerNames;
  for (auto n : ptxopt::analysis::kAnalysisPrinters) printerNames += std::string(printerNames.empty() ? "" : ", ") + n;
  app.add_option("--print-analysis", printAnalyses,
                 "Instead of PTX, print one analysis for every function (for tests); NAME: " + printerNames)
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(ptxopt::analysis::kAnalysisPrinters),
                                                     std::end(ptxopt::analysis::kAnalysisPrinters))))
      ->type_name("NAME")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.set_version_flag("--version", std::string("ptx-opt ") + PTXOPT_VERSION);
  app.footer("Exit status: 0 on success, 1 on an input error, 2 on a usage error.\n"
             "On error no output file is created or changed.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    app.exit(e);
    return 2;
  }

  if (listPasses) {
    for (const auto &p : ptxopt::registeredPasses()) std::cout << p.name << ": " << p.description << "\n";
    return 0;
  }
  if (input.empty()) {
    std::cerr << "ptx-opt: error: input is required (a PTX file, or - for standard input)\nRun with --help for more information.\n";
    return 2;
  }
  (void)inputOpt;
  auto t0 = Clock::now();
  std::string text, err;
  if (!readInput(input, text, err)) {
    std::cerr << "ptx-opt: " << err << "\n";
    return 1;
  }
  std::string name = input == "-" ? "<stdin>" : input;
  size_t inputBytes = text.size();
  // --analyze=html reports the input as read and the remarks of a pipeline
  // run on a second copy of it.
  const bool html = app.count("--analyze") && analyze == "html";
  // --report-html: the page shows the input, and the passes change `mod`.
  std::string pipelineCopy = html || !reportHtml.empty() ? text : std::string();
  auto t1 = Clock::now();
  auto parsed = ptxopt::parsePtx(std::move(text), name);
  auto t2 = Clock::now();
  if (parsed.error) {
    std::cerr << ptxopt::formatDiagnostic(*parsed.error);
    return 1;
  }
  auto &mod = *parsed.module;

  if (verify) {
    auto diags = ptxopt::verifyModule(mod);
    for (auto &d : diags) std::cerr << ptxopt::formatDiagnostic(d);
    if (!diags.empty()) return 1;
  }
  auto t3 = Clock::now();

  // ---- passes
  ptxopt::PipelineOptions popts;
  popts.passes = "-O0";
  if (optLevel) popts.passes = "-O" + std::to_string(optLevel);
  if (coalesce) popts.passes = "coalesce";
  if (!passes.empty()) popts.passes = passes;
  popts.skip = skipPasses;
  if (groupK) popts.options["group-k"] = std::to_string(groupK);
  if (groupGathers) popts.options["group-gathers"] = "1";
  if (groupSmallLaunches) popts.options["group-small-launches"] = "1";
  if (groupAtomics) popts.options["group-atomics"] = "1";
  if (groupLocalArrays) popts.options["group-local-arrays"] = "1";
  if (packAcrossBlocks) popts.options["pack-across-blocks"] = "1";
  if (packUniformBytes) popts.options["pack-uniform-bytes"] = "1";
  if (reassociate) popts.options["reassociate"] = "1";
  if (!rowwalkStaged.empty()) popts.options["rowwalk-staged"] = rowwalkStaged;
  if (rowwalkStages) popts.options["rowwalk-stages"] = std::to_string(rowwalkStages);
  if (rowwalkTile) popts.options["rowwalk-tile"] = std::to_string(rowwalkTile);
  if (!rowwalkLanes.empty()) popts.options["rowwalk-lanes"] = rowwalkLanes;
  if (!rowwalkStagedCopy.empty()) popts.options["rowwalk-staged-copy"] = rowwalkStagedCopy;
  if (printAfterAll)
    popts.afterPass = [](const std::string &pass, const ptxopt::ir::Module &m, void *) {
      std::cerr << "// ---- after " << pass << " ----\n" << ptxopt::printModule(m);
    };
  // Coverage for --stats: of the input, before any pass adds clones.
  std::unique_ptr<ptxopt::analysis::AnalysisManager> am;
  std::string coverage;
  double coverageMs = 0;
  if (stats) {
    auto c0 = Clock::now();
    am = std::make_unique<ptxopt::analysis::AnalysisManager>(mod);
    coverage = ptxopt::analysis::coverageStats(mod, *am);
    coverageMs = ms(c0, Clock::now());
  }
  auto tp0 = Clock::now();
  ptxopt::OptimizeResult opt;
  std::string htmlPipeline;
  if (html) {
    // The remarks of the passes asked for, else of -O2, on a copy; `mod` stays the input.
    ptxopt::PipelineOptions hopts = popts;
    if (hopts.passes == "-O0") hopts.passes = "-O2";
    htmlPipeline = hopts.passes;
    for (const auto &s : hopts.skip) htmlPipeline += " --skip-pass=" + s;
    auto copy = ptxopt::parsePtx(std::move(pipelineCopy), name);  // parsed once already: it parses
    if (copy.error) {
      std::cerr << ptxopt::formatDiagnostic(*copy.error);
      return 1;
    }
    opt = ptxopt::optimizeModule(*copy.module, hopts);
    if (!opt.ok) {
      std::cerr << "ptx-opt: error: " << opt.error << "\n";
      return 2;
    }
  } else if (popts.passes != "-O0") {
    am.reset();  // the passes change the module
    opt = ptxopt::optimizeModule(mod, popts);
    if (!opt.ok) {
      std::cerr << "ptx-opt: error: " << opt.error << "\n";
      return 2;
    }
  }
  auto tp1 = Clock::now();
  if (remarks)
    for (const auto &r : opt.remarks) {
      const char *kind = remarkKind(r.kind);
      std::cerr << (r.location.empty() ? name : r.location) << ": remark: [" << r.pass << "] " << r.function
                << ": " << kind << ": " << r.message << "\n";
    }
  if (!remarksFile.empty()) {
    std::string lines;
    for (const auto &r : opt.remarks) {
      auto esc = [](const std::string &s) {
        std::string o;
        for (char c : s) {
          if (c == '"' || c == '\\') o += '\\';
          if (static_cast<unsigned char>(c) < 0x20) continue;
          o += c;
        }
        return o;
      };
      const char *kind = remarkKind(r.kind);
      lines += "{\"pass\": \"" + esc(r.pass) + "\", \"function\": \"" + esc(r.function) + "\", \"kind\": \"" +
               kind + "\", \"location\": \"" + esc(r.location) + "\", \"message\": \"" + esc(r.message) + "\"}\n";
    }
    if (!writeOutput(remarksFile, lines, err)) {
      std::cerr << "ptx-opt: " << err << "\n";
      return 1;
    }
  }
  if (!reportHtml.empty() && !html) {
    // The page of the input (a second parse of it) with this run's remarks.
    auto input = ptxopt::parsePtx(std::move(pipelineCopy), name);
    if (input.error) {
      std::cerr << ptxopt::formatDiagnostic(*input.error);
      return 1;
    }
    ptxopt::analysis::AnalysisManager ram(*input.module);
    ptxopt::analysis::HtmlReportOptions hopts;
    if (popts.passes != "-O0") {
      hopts.pipeline = popts.passes;
      for (const auto &s : popts.skip) hopts.pipeline += " --skip-pass=" + s;
    }
    hopts.source = reportSource;
    for (const auto &r : opt.remarks)
      hopts.remarks.push_back({remarkKind(r.kind), r.pass, r.function, r.location, r.message});
    if (!writeOutput(reportHtml, ptxopt::analysis::reportHtml(*input.module, ram, hopts), err))
      std::cerr << "ptx-opt: warning: no report: " << err << "\n";  // the PTX is still written
  }
  std::string outText;
  bool analysisOutput = app.count("--analyze") || !emitCfg.empty() || !printAnalyses.empty();
  auto t3a = Clock::now();
  if (analysisOutput) {
    if (!am) am = std::make_unique<ptxopt::analysis::AnalysisManager>(mod);
    // A report is the first text: moved in (appending copied its megabytes).
    if (html) {
      ptxopt::analysis::HtmlReportOptions hopts;
      hopts.pipeline = htmlPipeline;
      hopts.source = reportSource;
      for (const auto &r : opt.remarks)
        hopts.remarks.push_back({remarkKind(r.kind), r.pass, r.function, r.location, r.message});
      outText = ptxopt::analysis::reportHtml(mod, *am, hopts);
    } else if (app.count("--analyze")) {
      outText = analyze == "json" ? ptxopt::analysis::reportJson(mod, *am) : ptxopt::analysis::reportText(mod, *am);
    }
    if (!emitCfg.empty()) outText += ptxopt::analysis::cfgDot(mod, *am);
    for (const auto &n : printAnalyses) ptxopt::analysis::printAnalysis(mod, *am, n, outText);
  }
  // The analyses are not freed at exit: the process ends, and freeing their
  // many small objects cost 6% of an --analyze run on a large module (as
  // compilers skip it, clang's -disable-free). Kept reachable, so leak
  // checkers do not count it.
  if (am && analysisOutput) gKeptAtExit = am.release();
  auto t3b = Clock::now();
  if (!analysisOutput)
    outText = ptxopt::printModule(mod, canonicalize ? ptxopt::PrintMode::Canonical : ptxopt::PrintMode::Lossless);
  auto t4 = Clock::now();
  if (!writeOutput(output, outText, err)) {
    std::cerr << "ptx-opt: " << err << "\n";
    return 1;
  }
  auto t5 = Clock::now();

  if (stats) {
    size_t funcs = 0, kernels = 0, instrs = 0;
    for (auto *f : mod.functions()) {
      ++funcs;
      if (f->isEntry && f->body) ++kernels;
      if (f->body)
        ptxopt::ir::forEachStmt(*f->body, [&](const ptxopt::ir::Stmt &s) {
          if (s.kind == ptxopt::ir::Stmt::Kind::Instruction) ++instrs;
        });
    }
    for (const auto &[k, v] : opt.stats) std::cerr << "ptx-opt: stats: " << k << " = " << v << "\n";
    std::istringstream cov(coverage);
    for (std::string line; std::getline(cov, line);) std::cerr << "ptx-opt: stats: " << line << "\n";
    std::cerr << "ptx-opt: stats: " << inputBytes << " bytes, " << parsed.stats.tokens << " tokens, "
              << parsed.stats.items << " top-level items (" << parsed.stats.fastItems
              << " without ANTLR), " << funcs << " functions (" << kernels
              << " kernels), " << instrs << " instructions, " << parsed.stats.llFallbacks
              << " LL fallbacks, peak RSS " << peakRssKiB() << " KiB\n";
  }
  if (timePasses) {
    std::fprintf(stderr,
                 "ptx-opt: time: read %.2f ms, parse %.2f ms, verify %.2f ms, analyze %.2f ms, print %.2f ms, "
                 "write %.2f ms, total %.2f ms\n",
                 ms(t0, t1), ms(t1, t2), ms(t2, t3), ms(t3a, t3b) + coverageMs, ms(t3b, t4), ms(t4, t5), ms(t0, t5));
    for (const auto &[p, t] : opt.passTimes) std::fprintf(stderr, "ptx-opt: time: pass %s %.2f ms\n", p.c_str(), t);
    (void)tp0;
    (void)tp1;
  }
  // Nor is the module: freeing its nodes one by one was 4% of an -O2 run on
  // the CUB file (callgrind), the process ends anyway. Reachable, as above.
  gModuleKeptAtExit = parsed.module.release();
  return 0;
}
