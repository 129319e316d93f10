// ptx-nvcc-cicc: the cicc step of tools/ptx-nvcc (docs/NVCC.md).
//
// tools/ptx-nvcc runs nvcc with a private nvcc.profile whose CICC_PATH
// holds a `cicc` symlink to this program. It runs the real cicc with the
// same arguments; when that wrote a .ptx, it runs ptx-opt on it (the file is
// optimized in place, so ptxas and fatbinary see the same text) and installs
// the hook block in the translation unit's host stub (*.cudafe1.stub.c): the
// block sends the unit's launches through libptxopt_nvcc (runtime/NvccShim.cpp)
// with the manifest every target agrees on. With late images
// (nvcc_images.cpp) and a PTX that splits into clone images, ptx-opt runs in
// a job instead, beside nvcc's ptxas, and the fatbinary step installs the
// hook block (hookDeferred): nvcc's PTX is not changed then, so nothing
// nvcc does next has to wait for it.
//
// Why a compiled program: it runs once per translation unit and target, and
// a python3 start cost 10-20 ms of each compile (docs/BENCHMARKS.md, "ptx-nvcc
// build overhead"). ptx-opt stays a process of its own (--ptxopt-bin= may
// name another optimizer; a failing one only costs a warning).
//
// Environment (set by tools/ptx-nvcc): PTXOPT_NVCC_REAL_CICC, PTXOPT_NVCC_STATE
// (a directory shared by the compile's cicc calls), PTXOPT_NVCC_PTXOPT,
// PTXOPT_NVCC_PASSES, PTXOPT_NVCC_REMARKS ("-", a file, or empty),
// PTXOPT_NVCC_DEBUG_BUILDS, PTXOPT_NVCC_SOURCE; PTXOPT_NVCC_MANIFEST_GLOBALS=1
// keeps the __ptxopt_manifest_<kernel> globals in the PTX (withoutManifestGlobals);
// PTXOPT_NVCC_REPORT: a folder for the --analyze=html page of each PTX
// (--ptxopt-report=DIR; tools/ptx-nvcc writes its index.html).
//
// Never fails a build nvcc would finish: the real cicc's exit status is
// returned; anything going wrong afterwards is one warning per reason (a
// marker file in the state directory) and nvcc's files stay as they are.
#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "nvcc_tools.h"

extern char **environ;

namespace ptxnvcc {

namespace fs = std::filesystem;

std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

void warn(const std::string &msg) { std::cerr << "ptx-nvcc: warning: " << msg << "\n" << std::flush; }

/// FNV-1a, as hex: names of marker and record files.
std::string shortHash(const std::string &text) {
  uint32_t h = 2166136261u;
  for (unsigned char c : text) {
    h ^= c;
    h *= 16777619u;
  }
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08x", h);
  return buf;
}

std::string stateDir() { return env("PTXOPT_NVCC_STATE"); }

/// One warning per reason and compile (several targets, one cause).
void warnOnce(const std::string &key, const std::string &msg) {
  std::string marker = stateDir() + "/warned-" + shortHash(key);
  int fd = ::open(marker.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
  if (fd < 0 && errno == EEXIST) return;
  if (fd >= 0) ::close(fd);
  warn(msg);
}

/// Records that ptx-nvcc changed something (tools/ptx-nvcc retries with
/// plain nvcc when a build fails after a change).
void note(const std::string &what) {
  std::ofstream f(stateDir() + "/changed", std::ios::app);
  f << what << "\n";
}

std::optional<std::string> readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::nullopt;
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// Writes through a temporary file and a rename: readers never see half a file.
void writeFile(const std::string &path, const std::string &text) {
  std::string tmp = path + ".ptxopt." + std::to_string(::getpid()) + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!(f << text)) throw std::runtime_error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot replace " + path);
}

bool isFile(const std::string &p) {
  struct stat st;
  return !p.empty() && ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

/// Runs argv[0] (a path) with stdout and stderr to `log` (empty: inherited).
/// The exit status; 128 + signal; 127 when it cannot be started.
pid_t start(const std::vector<std::string> &argv, const std::string &log) {
  std::vector<char *> args;
  for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (!log.empty()) {
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
  }
  pid_t pid;
  int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    if (!log.empty()) std::ofstream(log) << argv[0] << ": " << std::strerror(rc) << "\n";
    return -1;
  }
  return pid;
}

int finish(pid_t pid) {
  if (pid < 0) return 127;
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return 127;
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
}

int spawn(const std::vector<std::string> &argv, const std::string &log) { return finish(start(argv, log)); }

std::optional<std::string> argValue(const std::vector<std::string> &args, const std::string &name) {
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == name) return args[i + 1];
  return std::nullopt;
}

std::string absPath(const std::string &p) {
  std::error_code ec;
  auto a = fs::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

}  // namespace ptxnvcc

using namespace ptxnvcc;

namespace {

namespace fs = std::filesystem;

const char *const kHookBegin = "/* ptx-opt hook begin (scripts/ptx-nvcc, docs/NVCC.md) */";
const char *const kHookEnd = "/* ptx-opt hook end */";
/// The lines of include/ptxopt/runtime/NvccShim.h between @hook-block-begin
/// and @hook-block-end, generated at build time (cmake/HookDecls.cmake).
const char *const kHookDecls =
#include "NvccHookDecls.inc"
    ;
const char *const kManifestTag = "// @ptxopt-manifest ";

/// The manifest line of optimized PTX (its JSON), if any.
std::optional<std::string> manifestOf(const std::string &ptx) {
  const std::string tag = kManifestTag;
  size_t i = ptx.rfind("\n" + tag);
  if (i == std::string::npos) {
    if (ptx.compare(0, tag.size(), tag) != 0) return std::nullopt;
    i = 0;
  } else {
    ++i;
  }
  size_t e = ptx.find('\n', i);
  std::string line = ptx.substr(i + tag.size(), e == std::string::npos ? std::string::npos : e - i - tag.size());
  while (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

std::vector<std::string> splitWords(const std::string &s) {
  std::istringstream ss(s);
  std::vector<std::string> out;
  for (std::string w; ss >> w;) out.push_back(w);
  return out;
}

/// `ptx` without ptx-opt's `__ptxopt_manifest_<kernel>` globals (one line
/// each): they are there for images that libptxopt loads (docs/MANIFEST.md);
/// a ptx-nvcc program carries the manifest in its host stub, and initialized
/// device data is work for the driver when it loads the module: about 77 us
/// of the first launch of an H100 program (docs/BENCHMARKS.md, "Launch hook
/// cost"). The `// @ptxopt-manifest` comment stays.
std::string withoutManifestGlobals(const std::string &ptx) {
  static const std::string kDecl = ".weak .global .align 1 .b8 __ptxopt_manifest_";
  std::string out;
  out.reserve(ptx.size());
  for (size_t b = 0; b < ptx.size();) {
    size_t e = ptx.find('\n', b);
    e = e == std::string::npos ? ptx.size() : e + 1;
    if (ptx.compare(b, kDecl.size(), kDecl) != 0) out.append(ptx, b, e - b);
    b = e;
  }
  return out;
}

/// ptx-opt on `ptx` in place (`text`: its text, read once by the caller;
/// nullopt if it could not be). The manifest JSON, or nullopt (no clones, a
/// -G build, or ptx-opt failed: then nvcc's PTX stays as it was). `deferred`
/// (a job beside nvcc's ptxas): the PTX is never rewritten.
/// `page`: where the --ptxopt-report page goes ("" for none), written by the
/// same ptx-opt run (--report-html); `reported` says whether that run was made.
std::optional<std::string> optimizePtx(const std::string &ptx, const std::optional<std::string> &text,
                                       const std::string &arch, bool debug, const std::string &page,
                                       const std::string &pageSource, bool &reported, bool deferred = false) {
  reported = false;
  if (debug && env("PTXOPT_NVCC_DEBUG_BUILDS") != "1") return std::nullopt;  // -G: the code stays as nvcc made it
  const std::string source = env("PTXOPT_NVCC_SOURCE");
  if (!text) {
    warnOnce("read" + ptx, "cannot read " + ptx + "; ptx-opt not run");
    return std::nullopt;
  }
  if (text->find(kManifestTag) != std::string::npos) return manifestOf(*text);  // already optimized
  const std::string ptxopt = env("PTXOPT_NVCC_PTXOPT");
  if (ptxopt.empty()) return std::nullopt;  // the driver said why, once
  const std::string tmp = ptx + ".ptxopt.tmp", log = ptx + ".ptxopt.log", remarks = env("PTXOPT_NVCC_REMARKS");
  std::vector<std::string> cmd{ptxopt};
  std::string passes = env("PTXOPT_NVCC_PASSES");
  for (auto &w : splitWords(passes.empty() ? "-O2" : passes)) cmd.push_back(w);
  std::string rfile;
  if (remarks == "-") {
    cmd.push_back("--remarks");
  } else if (!remarks.empty()) {
    rfile = ptx + ".remarks.tmp";
    cmd.push_back("--remarks-file=" + rfile);
  }
  if (!page.empty()) cmd.insert(cmd.end(), {"--report-html=" + page, "--report-source=" + pageSource});
  cmd.insert(cmd.end(), {ptx, "-o", tmp});
  reported = !page.empty();
  int rc;
  std::string out;
  if (remarks == "-") {
    // Remarks on stderr, as they come; stdout (nothing) to the log.
    rc = spawn(cmd, "");
  } else {
    rc = spawn(cmd, log);
    out = readFile(log).value_or("");
    ::unlink(log.c_str());
  }
  if (!rfile.empty()) {
    if (auto r = readFile(rfile)) {
      std::ofstream o(remarks, std::ios::app);
      o << "# " << (source.empty() ? ptx : source) << " (" << arch << ")\n" << *r;
    }
    ::unlink(rfile.c_str());
  }
  if (rc != 0) {
    size_t b = out.find_first_not_of(" \t\r\n");
    std::string first = b == std::string::npos ? "" : out.substr(b, out.find('\n', b) - b);
    if (first.empty()) first = "exit status " + std::to_string(rc);
    ::unlink(tmp.c_str());
    warnOnce("ptxopt" + first, "ptx-opt failed on the PTX of " + (source.empty() ? "the input" : source) + " (" +
                                   arch + "): " + first + "; using the original PTX");
    if (!page.empty()) warnOnce("report" + first, "no report for " + pageSource + " (" + arch + "): " + first);
    return std::nullopt;
  }
  if (!page.empty() && !isFile(page)) warnOnce("report-missing", "no report for " + pageSource + " (" + arch + ")");
  auto newText = readFile(tmp);
  if (!newText) {
    warnOnce("readtmp", "cannot read ptx-opt's output " + tmp + "; using the original PTX");
    return std::nullopt;
  }
  auto manifest = manifestOf(*newText);
  if (!manifest) {  // no clones: keep nvcc's bytes exactly
    ::unlink(tmp.c_str());
    return std::nullopt;
  }
  if (env("PTXOPT_NVCC_MANIFEST_GLOBALS") != "1") {
    std::string stripped = withoutManifestGlobals(*newText);
    // Clone images (the default; --ptxopt-no-clone-images turns them off):
    // the clones into a module of their own (for the ptxas and fatbinary
    // steps, nvcc_images.cpp); nvcc's PTX stays as it is, so the program's
    // own image is nvcc's.
    bool split = false;
    try {
      split = cloneImagesOn() && splitClones(ptx, stripped, *manifest);
    } catch (const std::exception &e) {
      warnOnce(std::string("split") + e.what(), std::string("clone images: ") + e.what() + "; clones kept in the image");
    }
    if (split) {
      ::unlink(tmp.c_str());
      note("clones " + ptx);
      return manifest;
    }
    if (deferred) {  // nvcc's ptxas may be reading the PTX: it stays, without clones
      ::unlink(tmp.c_str());
      warnOnce("deferred-split" + ptx, "the clones of " + (source.empty() ? ptx : source) + " (" + arch +
                                           ") could not be put in an image of their own; none is used");
      return std::nullopt;
    }
    if (stripped.size() != newText->size()) {
      try {
        writeFile(tmp, stripped);
      } catch (const std::exception &e) {
        ::unlink(tmp.c_str());
        warnOnce("writetmp", std::string(e.what()) + "; using the original PTX");
        return std::nullopt;
      }
    }
  }
  if (std::rename(tmp.c_str(), ptx.c_str()) != 0) {
    ::unlink(tmp.c_str());
    warnOnce("rename", "cannot replace " + ptx + "; using the original PTX");
    return std::nullopt;
  }
  note("ptx " + ptx);
  return manifest;
}

/// --ptxopt-report=DIR: where the `ptx-opt --analyze=html` page of nvcc's
/// PTX (the input of ptx-opt, with the remarks of the same pipeline) goes:
/// DIR/<source base name>-<hash of its path>.<arch>.html; "" without a
/// report. The ptx-opt run that optimizes the PTX writes it (--report-html).
std::string reportPage(const std::string &ptx, const std::vector<std::string> &args, const std::string &arch,
                       std::string &source) {
  const std::string dir = env("PTXOPT_NVCC_REPORT"), ptxopt = env("PTXOPT_NVCC_PTXOPT");
  if (dir.empty() || ptxopt.empty()) return "";
  source = argValue(args, "--orig_src_path_name").value_or("");
  if (source.empty()) source = argValue(args, "--orig_src_file_name").value_or(env("PTXOPT_NVCC_SOURCE"));
  if (source.empty()) source = ptx;
  std::string base;
  for (char c : fs::path(source).filename().string())
    base += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '+' ? c : '_';
  std::string archName;
  for (char c : arch) archName += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return dir + "/" + base + "-" + shortHash(absPath(source)) + "." + archName + ".html";
}

/// The page alone, when no ptx-opt run optimizes this PTX (a -G build):
/// `ptx-opt PASSES --analyze=html`. A failure costs a warning, never the build.
void writeReport(const std::string &ptx, const std::string &page, const std::string &source, const std::string &arch) {
  std::vector<std::string> cmd{env("PTXOPT_NVCC_PTXOPT")};
  std::string passes = env("PTXOPT_NVCC_PASSES");
  for (auto &w : splitWords(passes.empty() ? "-O2" : passes)) cmd.push_back(w);
  cmd.insert(cmd.end(), {"--analyze=html", "--report-source=" + source, ptx, "-o", page});
  const std::string log = ptx + ".report.log";
  int rc = spawn(cmd, log);
  std::string out = readFile(log).value_or("");
  ::unlink(log.c_str());
  if (rc != 0) {
    size_t b = out.find_first_not_of(" \t\r\n");
    std::string first = b == std::string::npos ? "exit status " + std::to_string(rc) : out.substr(b, out.find('\n', b) - b);
    warnOnce("report" + first, "no report for " + source + " (" + arch + "): ptx-opt --analyze=html failed: " + first);
  }
}

/// The kernels whose entries every target agrees on (nullopt for a target
/// without clones): registering a clone some cubin lacks must never happen.
std::optional<std::string> mergeManifests(const std::vector<std::optional<std::string>> &texts) {
  if (texts.empty()) return std::nullopt;
  for (const auto &t : texts)
    if (!t) return std::nullopt;
  if (std::all_of(texts.begin(), texts.end(), [&](const auto &t) { return *t == *texts[0]; })) return texts[0];
  std::vector<nlohmann::json> docs;
  try {
    for (const auto &t : texts) docs.push_back(nlohmann::json::parse(*t));
  } catch (const std::exception &) {
    return std::nullopt;
  }
  auto kernelsOf = [](const nlohmann::json &d) {
    return d.contains("kernels") && d["kernels"].is_array() ? d["kernels"] : nlohmann::json::array();
  };
  nlohmann::json kept = nlohmann::json::array();
  for (const auto &k : kernelsOf(docs[0])) {
    bool everywhere = true;
    for (size_t i = 1; i < docs.size() && everywhere; ++i) {
      bool found = false;
      for (const auto &o : kernelsOf(docs[i])) found |= o == k;
      everywhere = found;
    }
    if (everywhere) kept.push_back(k);
  }
  if (kept.empty()) return std::nullopt;
  nlohmann::json m;
  m["version"] = docs[0].value("version", 1);
  m["kernels"] = kept;
  return m.dump();
}

/// A C string literal of `s` in lines of about 200 characters (octal escapes
/// for anything but printable ASCII; '?' too, against trigraphs).
std::string cString(const std::string &s) {
  std::vector<std::string> pieces;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      pieces.push_back(std::string("\\") + static_cast<char>(c));
    } else if (c >= 32 && c < 127 && c != '?') {
      pieces.push_back(std::string(1, static_cast<char>(c)));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      pieces.push_back(buf);
    }
  }
  std::string out = "\"", cur;
  for (const auto &p : pieces) {
    cur += p;
    if (cur.size() >= 200) {
      out += cur + "\"\n  \"";
      cur.clear();
    }
  }
  return out + cur + "\"";
}

/// Whether the unit's __cudaLaunchKernel_helper calls the _ptsz entry point
/// (-default-stream per-thread, or CUDA_API_PER_THREAD_DEFAULT_STREAM): the
/// preprocessed input of cicc holds the helper as cuda_runtime_api.h chose it.
bool usesPtsz(const std::string &ii) {
  auto t = readFile(ii);
  return t && t->find("return __cudaLaunchKernel_ptsz(kernel") != std::string::npos;
}

/// The hook block; its declarations (the table ptxopt_nvcc_cudart, the
/// clone images, the hooks) are NvccShim.h's, as text (kHookDecls). `images`: the header of
/// the unit's clone images (clone images, the default), or the symbol of
/// their block of bytes linked in late (late images: starts with
/// "__ptxopt_nvcc_imgs_"), or "".
std::string hookBlock(const std::string &manifest, bool ptsz, const std::string &images) {
  std::string b = std::string(kHookBegin) + "\n";
  b += "#if !defined(__NV_LEGACY_LAUNCH) && !defined(__CUDACC_RTC__)\n"
       "#define PTXOPT_NVCC_WEAK __attribute__((weak))\nextern \"C\" {\n";
  b += kHookDecls;
  b += "}\n";
  if (images.empty()) {
    b += "#define __PTXOPT_NVCC_IMAGES 0\n#define __PTXOPT_NVCC_IMAGE_COUNT 0\n";
  } else if (images.rfind(kImagesSymbolPrefix, 0) == 0) {
    // late images: linked in after this unit is compiled (nvcc_images.cpp);
    // weak, so null when they were not
    b += "extern \"C\" const unsigned char " + images + "[] __attribute__((weak));\n"
         "#define __PTXOPT_NVCC_IMAGES 0\n#define __PTXOPT_NVCC_IMAGE_COUNT 0\n#define __PTXOPT_NVCC_IMAGE_BLOB " +
         images + "\n";
  } else {  // clone images: written by the fatbinary step (nvcc_images.cpp)
    b += "#if __has_include(\"" + images + "\")\n#include \"" + images +
         "\"\n#define __PTXOPT_NVCC_IMAGES __ptxopt_nvcc_images\n#else\n#define __PTXOPT_NVCC_IMAGES 0\n"
         "#define __PTXOPT_NVCC_IMAGE_COUNT 0\n#endif\n";
  }
  b += R"(#ifndef __PTXOPT_NVCC_IMAGE_BLOB
#define __PTXOPT_NVCC_IMAGE_BLOB 0
#endif
static const ptxopt_nvcc_cudart __ptxopt_nvcc_rt = {PTXOPT_NVCC_CUDART_VERSION, __cudaRegisterFunction, __cudaGetKernel, __cudaLaunchKernel,
    __cudaLaunchKernel_ptsz, cudaGetDevice, cudaDeviceGetAttribute, cudaFuncGetAttributes, cudaPeekAtLastError,
    cudaGetLastError, cudaGetErrorName, __cudaRegisterFatBinary, __cudaRegisterFatBinaryEnd, __PTXOPT_NVCC_IMAGES,
    __PTXOPT_NVCC_IMAGE_COUNT, __PTXOPT_NVCC_IMAGE_BLOB};
static const char __ptxopt_nvcc_manifest[] =
  )";
  b += cString(manifest) + ";\n";
  b += R"(static inline void __ptxopt_nvcc_register_function(void **__h, const char *__hf, char *__df, const char *__dn,
    int __tl, uint3 *__tid, uint3 *__bid, dim3 *__bd, dim3 *__gd, int *__ws) {
  __cudaRegisterFunction(__h, __hf, __df, __dn, __tl, __tid, __bid, __bd, __gd, __ws);
  if (__ptxopt_nvcc_register) __ptxopt_nvcc_register(&__ptxopt_nvcc_rt, __ptxopt_nvcc_manifest, __h, __hf, __dn);
}
static inline cudaError_t __ptxopt_nvcc_get_kernel_hook(cudaKernel_t *__k, const void *__f) {
  return __ptxopt_nvcc_get_kernel ? __ptxopt_nvcc_get_kernel(&__ptxopt_nvcc_rt, __k, __f) : __cudaGetKernel(__k, __f);
}
static inline cudaError_t __ptxopt_nvcc_launch_hook(cudaKernel_t __k, dim3 __g, dim3 __b, void **__a,
    size_t __s, cudaStream_t __st) {
  /* )";
  b += ptsz ? "per-thread default stream: __cudaLaunchKernel_ptsz, as this translation unit's helper"
            : "legacy default stream: __cudaLaunchKernel, as this translation unit's helper";
  b += " */\n  if (__ptxopt_nvcc_launch) return __ptxopt_nvcc_launch(&__ptxopt_nvcc_rt, __k, __g, __b, __a, __s, __st, ";
  b += ptsz ? "1" : "0";
  b += R"();
  return __cudaLaunchKernel_helper(__k, __g, __b, __a, __s, __st);
}
#define __cudaRegisterFunction __ptxopt_nvcc_register_function
#define __cudaGetKernel __ptxopt_nvcc_get_kernel_hook
#define __cudaLaunchKernel_helper __ptxopt_nvcc_launch_hook
#endif
)";
  return b + kHookEnd + "\n";
}

/// Inserts (or replaces, or with no manifest removes) the hook block after
/// the host file's #include "crt/host_runtime.h".
void installHook(const std::string &host, const std::optional<std::string> &manifest, bool ptsz,
                 const std::string &images) {
  auto read = readFile(host);
  if (!read) throw std::runtime_error("cannot read " + host);
  std::string text = *read;
  if (size_t b = text.find(kHookBegin); b != std::string::npos) {
    size_t e = text.find(kHookEnd, b);
    if (e == std::string::npos) throw std::runtime_error("a broken hook block in " + host);
    e = text.find('\n', e);
    e = e == std::string::npos ? text.size() : e + 1;
    if (text.compare(e, 6, "#line ") == 0) {  // the #line the block was inserted with
      size_t l = text.find('\n', e);
      e = l == std::string::npos ? text.size() : l + 1;
    }
    text.erase(b, e - b);
  }
  if (manifest) {
    const std::string inc = "#include \"crt/host_runtime.h\"";
    size_t i = text.compare(0, inc.size(), inc) == 0 ? 0 : text.find("\n" + inc);
    if (i == std::string::npos) throw std::runtime_error("no #include \"crt/host_runtime.h\" in " + host);
    if (i > 0 || text[0] == '\n') ++i;
    size_t end = text.find('\n', i);
    end = end == std::string::npos ? text.size() : end + 1;
    size_t line = static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(end), '\n')) + 1;
    text.insert(end, hookBlock(*manifest, ptsz, images) + "#line " + std::to_string(line) + " \"" + host + "\"\n");
  }
  writeFile(host, text);
  if (manifest) note("hook " + host);
}

/// The translation unit's record in the state directory (`tu`: its module
/// id file), with its lock held while `work` runs: nvcc --threads runs the
/// targets' cicc in parallel, and the last one must see every target's
/// record.
void withRecord(const std::string &tu, const std::function<void(const std::string &)> &work) {
  const std::string rec = stateDir() + "/tu-" + shortHash(absPath(tu));
  fs::create_directories(rec + "/archs");
  int lock = ::open((rec + "/lock").c_str(), O_CREAT | O_WRONLY, 0644);
  if (lock < 0 || ::flock(lock, LOCK_EX) != 0) throw std::runtime_error("cannot lock " + rec);
  struct Unlock {
    int fd;
    ~Unlock() { ::close(fd); }
  } unlock{lock};
  work(rec);
}

/// Late images: where the cicc step leaves, for the fatbinary step of the
/// unit whose host code includes `fatbinC`, what hookDeferred needs.
std::string hookRecord(const std::string &fatbinC) {
  return stateDir() + "/hookfor-" + shortHash(fs::path(fatbinC).filename().string());
}

std::string archFile(const std::string &arch) {
  std::string name;
  for (char c : arch) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

/// Every target's stub (the host file includes one of them) gets what all
/// targets recorded so far agree on (under the record's lock).
void hookStubs(const std::string &rec, const std::string &tu, bool ptsz, const std::string &images) {
  std::vector<std::string> names;
  for (const auto &e : fs::directory_iterator(rec + "/archs")) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::vector<std::optional<std::string>> texts;
  for (const auto &n : names) {
    std::string t = readFile(rec + "/archs/" + n).value_or("");
    texts.push_back(t.empty() ? std::nullopt : std::optional<std::string>(t));
  }
  std::optional<std::string> merged = mergeManifests(texts);
  if (!merged && texts.size() > 1 && std::any_of(texts.begin(), texts.end(), [](const auto &t) { return t; })) {
    std::string source = env("PTXOPT_NVCC_SOURCE");
    warnOnce("archs" + tu, "the targets of " + (source.empty() ? tu : source) + " got different clones; none is used");
  }
  std::set<std::string> stubs;
  {
    std::istringstream ss(readFile(rec + "/stubs").value_or(""));
    for (std::string l; std::getline(ss, l);)
      if (!l.empty()) stubs.insert(l);
  }
  for (const auto &st : stubs)
    if (isFile(st)) installHook(st, merged, ptsz, images);
}

/// After the real cicc: optimize the PTX, merge the targets' manifests, hook
/// the host stubs. Throws on an unexpected failure (the caller warns).
void afterCicc(const std::vector<std::string> &args) {
  auto ptx = argValue(args, "-o");
  if (!ptx || ptx->size() < 4 || ptx->compare(ptx->size() - 4, 4, ".ptx") != 0 || !isFile(*ptx)) return;
  const std::string arch = argValue(args, "-arch").value_or("?");
  const bool debug = std::find(args.begin(), args.end(), "-g") != args.end();
  const std::optional<std::string> text = readFile(*ptx);  // nvcc's PTX, or one ptx-opt wrote already
  const bool optimized = text && text->find(kManifestTag) != std::string::npos;
  std::string page, pageSource;
  if (!env("PTXOPT_NVCC_REPORT").empty() && text && !optimized) page = reportPage(*ptx, args, arch, pageSource);
  auto stub = argValue(args, "--stub_file_name");
  const auto fatbinC = argValue(args, "--include_file_name");
  const std::string tu = argValue(args, "--module_id_file_name").value_or(stub.value_or(""));
  std::string ii;
  for (const auto &a : args)
    if (a.size() > 3 && a.compare(a.size() - 3, 3, ".ii") == 0) ii = a;
  const bool ptsz = !ii.empty() && usesPtsz(ii);
  std::string images;
  if (cloneImagesOn() && fatbinC && stub)
    images = lateImagesOn() ? imagesSymbol(*fatbinC, tu) : imagesHeader(*fatbinC);

  // Late images of a module that splits: ptx-opt runs in a job beside
  // nvcc's ptxas (which compiles nvcc's PTX: the clones go to images of
  // their own), and the fatbinary step hooks the stubs (hookDeferred).
  if (lateImagesOn() && stub && isFile(*stub) && fatbinC && !(debug && env("PTXOPT_NVCC_DEBUG_BUILDS") != "1")) {
    if (text && !optimized && splittable(*text)) {
      std::string rec;
      withRecord(tu, [&](const std::string &r) {
        rec = r;
        { std::ofstream(rec + "/stubs", std::ios::app) << absPath(*stub) << "\n"; }
        { std::ofstream(rec + "/jobs", std::ios::app) << jobLock("ptxopt", *ptx) << "\n"; }
        writeFile(rec + "/archs/" + archFile(arch), "");  // no clones, until the job says otherwise
        writeFile(hookRecord(*fatbinC),
                  rec + "\n" + tu + "\n" + (ptsz ? "1" : "0") + "\n" + images + "\n");
      });
      if (startJob(jobLock("ptxopt", *ptx), [&] {
            try {
              bool reported = false;
              auto manifest = optimizePtx(*ptx, text, arch, debug, page, pageSource, reported, true);
              writeFile(rec + "/archs/" + archFile(arch), manifest.value_or(""));
            } catch (const std::exception &e) {
              warnOnce(std::string("cicc") + e.what(), std::string("ptx-nvcc step failed (") + e.what() + "); continuing");
            }
          }))
        return;
      // no job: as below, now (the fatbinary step hooks the stubs again, the same way)
    }
  }

  bool reported = false;
  std::optional<std::string> manifest = optimizePtx(*ptx, text, arch, debug, page, pageSource, reported);
  if (!page.empty() && !reported) writeReport(*ptx, page, pageSource, arch);  // no optimizing run
  if (!stub || !isFile(*stub)) return;  // -ptx and friends: no host code
  // One record per target; every target's stub carries what all targets
  // agree on. The module id file names the translation unit in each of its
  // cicc calls.
  withRecord(tu, [&](const std::string &rec) {
    { std::ofstream(rec + "/archs/" + archFile(arch), std::ios::trunc) << manifest.value_or(""); }
    { std::ofstream(rec + "/stubs", std::ios::app) << absPath(*stub) << "\n"; }
    hookStubs(rec, tu, ptsz, images);
  });
}

}  // namespace

namespace ptxnvcc {

void hookDeferred(const std::string &fatbinC) {
  auto record = readFile(hookRecord(fatbinC));
  if (!record) return;
  try {
    std::istringstream rs(*record);
    std::string rec, tu, ptsz, images;
    std::getline(rs, rec);
    std::getline(rs, tu);
    std::getline(rs, ptsz);
    std::getline(rs, images);
    std::istringstream js(readFile(rec + "/jobs").value_or(""));
    for (std::string l; std::getline(js, l);)
      if (!l.empty()) waitJob(l);
    withRecord(tu, [&](const std::string &r) { hookStubs(r, tu, ptsz == "1", images); });
  } catch (const std::exception &e) {
    warnOnce(std::string("hook") + e.what(), std::string("ptx-nvcc step failed (") + e.what() + "); continuing");
  }
}

}  // namespace ptxnvcc

int main(int argc, char **argv) {
  // clone images: the same program is nvcc's ptxas and fatbinary
  const std::string self = fs::path(argv[0]).filename().string();
  if (self == "ptxas") return ptxasMain(std::vector<std::string>(argv + 1, argv + argc));
  if (self == "fatbinary") return fatbinaryMain(std::vector<std::string>(argv + 1, argv + argc));
  const std::string real = env("PTXOPT_NVCC_REAL_CICC");
  if (real.empty() || stateDir().empty()) {
    std::cerr << "ptx-nvcc: error: PTXOPT_NVCC_REAL_CICC or PTXOPT_NVCC_STATE is not set (ptx-nvcc-cicc runs as "
                 "cicc inside tools/ptx-nvcc)\n";
    return 1;
  }
  std::vector<std::string> args(argv + 1, argv + argc);
  std::vector<std::string> cmd{real};
  cmd.insert(cmd.end(), args.begin(), args.end());
  if (int rc = spawn(cmd); rc != 0) return rc;
  try {
    afterCicc(args);
  } catch (const std::exception &e) {  // never fail the build: nvcc's files stay usable
    warnOnce(std::string("cicc") + e.what(), std::string("ptx-nvcc step failed (") + e.what() + "); continuing");
  }
  return 0;
}
