// Clone images of ptx-nvcc (the default; --ptxopt-no-clone-images turns
// them off; docs/NVCC.md, "Clone images"): the clones of a translation unit
// in a device image of their own, so that the program's own image is nvcc's,
// byte for byte, and clone code is loaded only when a launch first can use a
// clone (never on a kernel's first launch: runtime/NvccShim.cpp).
//
// Why: the driver's cost of loading a module grows with its functions (about
// 2 us each when cudart loads the library, more in the first launch of a
// process: docs/BENCHMARKS.md, "Launch hook cost"), and cudart loads a
// translation unit's whole image on the first launch of any of its kernels.
// Clones in that image make every program pay for all of them on its first
// launch, whether or not one ever runs.
//
// The steps, all in the compile's state directory (tools/ptx-nvcc's private
// temporary directory, PTXOPT_NVCC_STATE):
//   1. cicc step (nvcc_cicc.cpp, optimizePtx): ptx-opt's output is split
//      (splitClones): one PTX module per kernel with clones (the header,
//      the module's functions and .shared declarations, the kernel's clones'
//      .entry directives) into clones-<hash of the .ptx>/<i>.ptx, and
//      `names` (module index, clone name); nvcc's own PTX stays as cicc
//      wrote it. A module
//      with module-scope data (.global, .const, textures, surfaces,
//      samplers) is not split (two images would hold two copies of it): its
//      clones stay in the one image, as with --ptxopt-no-clone-images.
//   2. ptxas step (this program as `ptxas`, ptxasMain): the real ptxas with
//      nvcc's arguments and, beside it (independent processes), the same
//      arguments on each clone module of the input (without -c: a clone
//      image is linked by nobody; up to 4 at a time), into
//      <i>.<arch>.cubin; the cubin's record (cubin-<hash>) names them.
//   3. fatbinary step (this program as `fatbinary`, fatbinaryMain): the
//      real fatbinary and, beside it, for the ELF and PTX images it embeds, one
//      fatbinary per clone module holding its cubins (every real
//      architecture of the build) and its PTX (every virtual architecture
//      nvcc embeds PTX for: the driver JITs it where no cubin fits, as it
//      does nvcc's), written as arrays into images-<hash of the fatbin.c
//      name>.h with a table naming each clone's array, which the
//      translation unit's hook block includes (__has_include: without it
//      the clones are simply not there and the originals run).
// The shim (runtime/NvccShim.cpp) registers an image, with all its clones
// (one kernel's), when a launch shape first can use one of them.
//
// Late images (PTXOPT_NVCC_LATE_IMAGES=1: tools/ptx-nvcc sets it where it
// can add an object to the build's output): steps 2 and 3 do not wait for
// the clones. Each starts them in a process of its own (a job, holding a lock
// on job-*.lock until it ends) and returns when nvcc's own tool has finished,
// so the clones compile while nvcc compiles the host code. The fatbinary
// job waits for the ptxas jobs of its cubins and writes the clone images as
// one block of bytes (NvccShim.h, version 3) into images-<hash>.o (`as`,
// .incbin), under the symbol the hook block names weakly. That object
// reaches the `-c` object through `ld -r` (tools/ptx-nvcc, after nvcc).
// Links that compile get the images in their host code (until 2026-11-28 a
// linker script in ptx-nvcc's temporary folder took them to the link, and
// CMake recorded that script among the compiler's link libraries: issue #32).
// Why: on a kernel-only object the wait for the clones' ptxas and fatbinary
// was most of ptx-nvcc's build time (docs/BENCHMARKS.md, "ptx-nvcc build
// overhead").
//
// Never fails a build nvcc would finish: the real tools' exit status is
// returned; a clone ptxas rejects is left out (its launches run the
// original), with one warning.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "nvcc_tools.h"

namespace ptxnvcc {

namespace fs = std::filesystem;

namespace {

std::string realTool(const char *name) {
  std::string bin = env("PTXOPT_NVCC_REAL_BIN");
  return bin.empty() ? std::string() : bin + "/" + name;
}

std::string clonesDir(const std::string &ptx) { return stateDir() + "/clones-" + shortHash(absPath(ptx)); }

std::string cubinRecord(const std::string &cubin) { return stateDir() + "/cubin-" + shortHash(absPath(cubin)); }

}  // namespace

/// Late images: the lock a job holds while it runs (kind: its step; key:
/// the file it makes).
std::string jobLock(const std::string &kind, const std::string &key) {
  return stateDir() + "/job-" + kind + "-" + shortHash(absPath(key)) + ".lock";
}

/// Runs `work` in a child process that outlives this one and holds an
/// exclusive lock on `lock` until it ends (waitJob); false when it could not
/// be started (the caller does the work itself). Called before this process
/// starts a thread.
bool startJob(const std::string &lock, const std::function<void()> &work) {
  int fd = ::open(lock.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  if (::flock(fd, LOCK_EX) != 0) {
    ::close(fd);
    return false;
  }
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fd);
    return false;
  }
  if (pid == 0) {  // the job: the lock goes with its descriptor when it exits
    // Its output to a log (tools/ptx-nvcc shows it after the build): nvcc
    // reads its tools' output through pipes until they close, and would
    // wait for the job.
    int log = ::open((lock + ".log").c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
    int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (log < 0 || null < 0 || ::dup2(null, 0) < 0 || ::dup2(log, 1) < 0 || ::dup2(log, 2) < 0) ::_exit(0);
    // The lowest priority: on a machine with few cores it would otherwise
    // take the CPU from nvcc's own steps, which the build waits for.
    [[maybe_unused]] int priority = ::nice(19);  // a failure leaves the parent's priority
    work();
    std::fflush(nullptr);
    ::_exit(0);
  }
  ::close(fd);  // the child's descriptor keeps the lock
  return true;
}

/// Returns when the job of `lock` has ended (at once when there is none).
void waitJob(const std::string &lock) {
  int fd = ::open(lock.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  while (::flock(fd, LOCK_SH) != 0 && errno == EINTR) {
  }
  ::close(fd);
}

namespace {

/// The first `name` in PATH that can be run, or "".
std::string inPath(const std::string &name) {
  std::istringstream dirs(env("PATH"));
  for (std::string d; std::getline(dirs, d, ':');) {
    std::string p = (d.empty() ? "." : d) + "/" + name;
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

bool startsWith(const std::string &s, const std::string &p) { return s.compare(0, p.size(), p) == 0; }

/// One top-level item of a PTX module.
struct Item {
  enum Kind { Header, Keep, Entry } kind;
  std::string text;
  std::string name;  // an entry's
};

/// The module's top-level items, or false when it has one a clone image
/// cannot have a copy of (module-scope data) or one not understood. Debug
/// sections (-lineinfo's .debug_str) are kept, in every module.
bool topLevel(const std::string &ptx, std::vector<Item> &items) {
  std::istringstream in(ptx);
  std::string stmt;
  int depth = 0;
  bool opened = false, blockComment = false;
  for (std::string line; std::getline(in, line);) {
    const std::string t = trim(line);
    if (stmt.empty() && depth == 0 && !blockComment) {
      if (t.empty() || startsWith(t, "//")) continue;
      if (startsWith(t, ".version") || startsWith(t, ".target") || startsWith(t, ".address_size") ||
          startsWith(t, ".file")) {
        items.push_back({Item::Header, line + "\n", ""});
        continue;
      }
    }
    stmt += line + "\n";
    // braces and the last significant character, outside comments
    char last = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      char c = line[i];
      if (blockComment) {
        if (c == '*' && i + 1 < line.size() && line[i + 1] == '/') blockComment = false, ++i;
        continue;
      }
      if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
      if (c == '/' && i + 1 < line.size() && line[i + 1] == '*') {
        blockComment = true, ++i;
        continue;
      }
      if (c == '"') {  // a string (.file, .pragma): skip to its end
        size_t e = line.find('"', i + 1);
        i = e == std::string::npos ? line.size() : e;
        last = '"';
        continue;
      }
      if (c == '{') ++depth, opened = true;
      if (c == '}') --depth;
      if (!std::isspace(static_cast<unsigned char>(c))) last = c;
    }
    if (depth < 0) return false;
    if (depth > 0 || blockComment) continue;
    if (!(opened || last == ';')) continue;  // a declaration or header not finished yet
    // classify the statement by its first words
    std::istringstream words(stmt);
    std::string w;
    std::vector<std::string> head;
    while (head.size() < 8 && words >> w) head.push_back(w);
    size_t k = 0;
    while (k < head.size() && (head[k] == ".visible" || head[k] == ".extern" || head[k] == ".weak" || head[k] == ".common"))
      ++k;
    const std::string what = k < head.size() ? head[k] : "";
    if (what == ".entry" && k + 1 < head.size()) {
      std::string name = head[k + 1];
      name = name.substr(0, name.find('('));
      items.push_back({Item::Entry, stmt, name});
    } else if (what == ".func" || what == ".shared" || what == ".alias" || what == ".pragma" ||
               (what == ".section" && k + 1 < head.size() && startsWith(head[k + 1], ".debug_"))) {
      // (-lineinfo's .section .debug_str: the strings the .loc of inlined
      // code name; a copy in each module is only line information)
      items.push_back({Item::Keep, stmt, ""});
    } else {
      return false;  // .global, .const, .tex, .surf, .sampler, ...: data two images would each have
    }
    stmt.clear();
    opened = false;
  }
  return stmt.empty() && depth == 0;
}

/// "-o X", "-o=X", "--output-file X", "--output-file=X": the index of the value.
size_t valueIndex(const std::vector<std::string> &args, std::initializer_list<const char *> names, std::string &value) {
  for (size_t i = 0; i < args.size(); ++i)
    for (const char *n : names) {
      const std::string name = n;
      if (args[i] == name && i + 1 < args.size()) {
        value = args[i + 1];
        return i + 1;
      }
      if (startsWith(args[i], name + "=")) {
        value = args[i].substr(name.size() + 1);
        return i;
      }
    }
  return std::string::npos;
}

}  // namespace

bool cloneImagesOn() { return env("PTXOPT_NVCC_CLONE_IMAGES") == "1" && !stateDir().empty(); }

bool splittable(const std::string &ptx) {
  std::vector<Item> items;
  return topLevel(ptx, items);
}

bool splitClones(const std::string &ptxPath, const std::string &optimized, const std::string &manifestJson) {
  std::vector<std::string> clones;  // the manifest's clone names, each once
  std::vector<size_t> moduleOf;     // per clone: its kernel's module (kernels with clones, in manifest order)
  try {
    auto m = nlohmann::json::parse(manifestJson);
    size_t modules = 0;
    for (const auto &k : m.at("kernels")) {
      bool any = false;
      for (const auto &v : k.at("variants")) {
        std::string n = v.at("name").get<std::string>();
        if (std::find(clones.begin(), clones.end(), n) != clones.end()) continue;
        clones.push_back(n);
        moduleOf.push_back(modules);
        any = true;
      }
      if (any) ++modules;
    }
  } catch (const std::exception &) {
    return false;
  }
  std::vector<Item> items;
  if (clones.empty() || !topLevel(optimized, items)) return false;
  std::string common;  // header, functions, .shared: in every clone module
  std::map<std::string, const Item *> entries;
  for (const Item &it : items) {
    if (it.kind == Item::Entry) entries[it.name] = &it;
    else common += it.text;
  }
  for (const auto &c : clones)
    if (!entries.count(c)) return false;
  const std::string dir = clonesDir(ptxPath);
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) return false;
  // One module per kernel with its clones: a kernel's second launch loads
  // its own clones only (the driver's cold load grows with the functions:
  // +38 us for one, +134 us for 7 on an H200), and the build runs one ptxas
  // per kernel, not one per clone (whose start-up was most of its time: +26%
  // wall on the matrix add's build against +10% for one module).
  std::map<size_t, std::string> modules;
  std::string names;
  for (size_t c = 0; c < clones.size(); ++c) {
    std::string &module = modules[moduleOf[c]];
    if (module.empty()) module = common;
    module += entries[clones[c]]->text;
    names += std::to_string(moduleOf[c]) + " " + clones[c] + "\n";
  }
  for (const auto &[i, module] : modules) writeFile(dir + "/" + std::to_string(i) + ".ptx", module);
  writeFile(dir + "/names", names);
  return true;
}

namespace {
/// The state directory's prefix of the translation unit's image files.
std::string imagesBase(const std::string &fatbinC) {
  return stateDir() + "/images-" + shortHash(fs::path(fatbinC).filename().string());
}
}  // namespace

std::string imagesHeader(const std::string &fatbinC) { return imagesBase(fatbinC) + ".h"; }

bool lateImagesOn() { return cloneImagesOn() && env("PTXOPT_NVCC_LATE_IMAGES") == "1"; }

std::string imagesSymbol(const std::string &fatbinC, const std::string &moduleIdFile) {
  // nvcc's module id differs between compiles of one source; the state
  // directory between ptx-nvcc runs: two objects never share the symbol.
  const std::string id = readFile(moduleIdFile).value_or(moduleIdFile), dir = stateDir();
  const std::string sym = kImagesSymbolPrefix + shortHash(id + "\n" + fatbinC + "\n" + dir) +
                          shortHash(dir + "\n" + id + "\n" + fatbinC);
  writeFile(imagesBase(fatbinC) + ".sym", sym);
  return sym;
}

namespace {
/// Calls job(0) ... job(n-1), up to 4 at a time (the clone modules' tool
/// runs: each a process of its own).
void forEachParallel(size_t n, const std::function<void(size_t)> &job) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t k; (k = next++) < n;) job(k);
  };
  std::vector<std::thread> pool;
  const size_t threads = std::min<size_t>({4, n, std::max(1u, std::thread::hardware_concurrency())});
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto &t : pool) t.join();
}

/// The index of the .ptx that ptxas `args` compiles, or npos.
size_t ptxasInput(const std::vector<std::string> &args) {
  size_t in = std::string::npos;
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].size() > 4 && args[i].compare(args[i].size() - 4, 4, ".ptx") == 0 && args[i][0] != '-') in = i;
  return in;
}

/// The clone modules of the PTX that ptxas `args` compiles, one ptxas each
/// (up to 4 at a time), into the clones directory; records which compiled.
/// Never throws: a failure leaves the clones out with a warning.
void compileCloneModules(const std::vector<std::string> &args, const std::string &real) {
  try {
    const size_t in = ptxasInput(args);
    std::string out, arch;
    size_t outAt = valueIndex(args, {"-o", "--output-file"}, out);
    valueIndex(args, {"-arch", "--gpu-name"}, arch);
    if (in == std::string::npos || outAt == std::string::npos || arch.empty()) return;
    const std::string dir = clonesDir(args[in]);
    auto names = readFile(dir + "/names");
    if (!names) return;
    std::vector<std::pair<std::string, std::string>> clones;  // (module index, name)
    std::vector<std::string> modules;                         // the module indices, each once
    std::istringstream ns(*names);
    for (std::string i, name; ns >> i >> name;) {
      clones.emplace_back(i, name);
      if (std::find(modules.begin(), modules.end(), i) == modules.end()) modules.push_back(i);
    }
    // One ptxas per clone module, up to 4 at a time.
    std::vector<char> ok(modules.size(), 0);
    forEachParallel(modules.size(), [&](size_t k) {
        const std::string &i = modules[k];
        std::vector<std::string> c{real};
        const std::string cubin = dir + "/" + i + "." + arch + ".cubin";
        for (size_t j = 0; j < args.size(); ++j) {
          if (args[j] == "-c" || args[j] == "--compile-only") continue;  // a clone image is linked by nobody
          if (j == in) c.push_back(dir + "/" + i + ".ptx");
          else if (j == outAt) c.push_back(args[j][0] == '-' ? args[j].substr(0, args[j].find('=') + 1) + cubin : cubin);
          else c.push_back(args[j]);
        }
        ok[k] = spawn(c, dir + "/" + i + "." + arch + ".log") == 0;
        if (!ok[k]) ::unlink(cubin.c_str());
    });
    std::string compiled;
    for (size_t k = 0; k < modules.size(); ++k) {
      const std::string &i = modules[k];
      if (ok[k]) {
        compiled += i + "\n";
        continue;
      }
      std::string which;
      for (const auto &[j, name] : clones)
        if (j == i) which += (which.empty() ? "" : ", ") + name;
      warnOnce("clone-ptxas" + dir + i + arch, "ptxas failed on the clones " + which + " (" + arch + ", log " + dir +
                                                   "/" + i + "." + arch + ".log); their launches run the original");
    }
    writeFile(cubinRecord(out), dir + "\n" + arch + "\n" + compiled);
  } catch (const std::exception &e) {
    warnOnce(std::string("ptxas") + e.what(), std::string("clone images: ") + e.what() + "; the clones are left out");
  } catch (...) {
    warnOnce("ptxas-unknown", "clone images: an unexpected error; the clones are left out");
  }
}
}  // namespace

namespace {
/// nvcc's own `tool` with `args`, and beside it (independent processes: the
/// build waits for the longer, not for their sum) `clones`, the clone
/// images' part of the step (never throws); nvcc's exit status.
int runBeside(const char *tool, const std::vector<std::string> &args,
              void (*clones)(const std::vector<std::string> &, const std::string &)) {
  const std::string real = realTool(tool);
  if (real.empty()) {
    std::fprintf(stderr, "ptx-nvcc: error: PTXOPT_NVCC_REAL_BIN is not set (this runs as %s inside tools/ptx-nvcc)\n",
                 tool);
    return 1;
  }
  std::vector<std::string> cmd{real};
  cmd.insert(cmd.end(), args.begin(), args.end());
  if (!cloneImagesOn()) return spawn(cmd);
  int rc = 0;
  std::thread own([&] { rc = spawn(cmd); });
  clones(args, real);
  own.join();
  return rc;
}
}  // namespace

int ptxasMain(const std::vector<std::string> &args) {
  const std::string real = realTool("ptxas");
  if (!lateImagesOn() || real.empty()) return runBeside("ptxas", args, compileCloneModules);
  // Late images: nvcc's ptxas first (the build waits for it alone), then the
  // clones in a job of their own, if the clone modules are there or ptx-opt
  // is still writing them (a job of the cicc step, which the clones' wait for)
  std::vector<std::string> cmd{real};
  cmd.insert(cmd.end(), args.begin(), args.end());
  const pid_t own = start(cmd);
  const size_t in = ptxasInput(args);
  std::string out;
  valueIndex(args, {"-o", "--output-file"}, out);
  const std::string ptxopt = in == std::string::npos ? "" : jobLock("ptxopt", args[in]);
  auto clones = [&] {
    waitJob(ptxopt);
    compileCloneModules(args, real);
  };
  if (in != std::string::npos && !out.empty() && (isFile(clonesDir(args[in]) + "/names") || isFile(ptxopt)) &&
      !startJob(jobLock("ptxas", out), clones))
    clones();
  return finish(own);
}

namespace {
/// A clone image: its fatbinary and the clones it holds.
struct CloneImage {
  std::vector<std::string> names;
  std::string fatbin;
};

/// The images as arrays, for the hook block to include.
void writeImagesHeader(const std::string &header, const std::vector<CloneImage> &made) {
  std::string arrays, table;
  size_t entries = 0;
  for (size_t n = 0; n < made.size(); ++n) {
    std::string bytes = made[n].fatbin;
    bytes.resize((bytes.size() + 7) / 8 * 8, '\0');
    std::string id = "__ptxopt_nvcc_img_" + std::to_string(n);
    arrays += "static const unsigned long long " + id + "[] __attribute__((aligned(16))) = {";
    for (size_t i = 0; i < bytes.size(); i += 8) {
      unsigned long long w = 0;
      for (int b = 7; b >= 0; --b) w = w << 8 | static_cast<unsigned char>(bytes[i + size_t(b)]);
      char buf[40];
      std::snprintf(buf, sizeof buf, "%s0x%llxull", i == 0 ? "\n  " : i % 64 ? "," : ",\n  ", w);
      arrays += buf;
    }
    arrays += "};\n";
    for (const auto &name : made[n].names) {  // every clone of the image names the same array
      table += "  {\"" + name + "\", " + id + "},\n";
      ++entries;
    }
  }
  writeFile(header, "/* ptx-nvcc clone images (docs/NVCC.md, \"Clone images\"): one fatbinary per clone module */\n" +
                        arrays + "static const ptxopt_nvcc_image __ptxopt_nvcc_images[] = {\n" + table +
                        "};\n#define __PTXOPT_NVCC_IMAGE_COUNT " + std::to_string(entries) + "\n");
  note("images " + header);
}

/// Late images: the images as one block of bytes (NvccShim.h, version 3)
/// under the unit's symbol, assembled into base.o (`as`, .incbin) for the
/// link or `ld -r` to take in.
void writeImagesObject(const std::string &base, const std::vector<CloneImage> &made) {
  const std::string sym = readFile(base + ".sym").value_or("");
  if (sym.empty()) throw std::runtime_error("no symbol recorded for " + base);
  auto put = [](std::string &b, size_t at, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) b[at + size_t(i)] = static_cast<char>(v >> (8 * i) & 0xff);
  };
  size_t entries = 0;
  for (const auto &m : made) entries += m.names.size();
  std::string blob(16 + 16 * entries, '\0');
  blob.replace(0, 8, "PTXONVI1");
  put(blob, 8, entries, 4);
  std::vector<size_t> nameAt;
  for (const auto &m : made)
    for (const auto &name : m.names) {
      nameAt.push_back(blob.size());
      blob += name;
      blob += '\0';
    }
  size_t e = 0;
  for (const auto &m : made) {
    blob.resize((blob.size() + 15) / 16 * 16, '\0');
    for (size_t k = 0; k < m.names.size(); ++k, ++e) {
      put(blob, 16 + 16 * e, nameAt[e], 4);
      put(blob, 16 + 16 * e + 8, blob.size(), 8);
    }
    blob += m.fatbin;
  }
  writeFile(base + ".blob", blob);
  std::string path;  // for .incbin: a string of the assembler
  for (char c : base + ".blob") path += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  writeFile(base + ".s", "\t.section .rodata.ptxopt_nvcc_images,\"a\",%progbits\n\t.balign 16\n\t.globl " + sym +
                             "\n\t.hidden " + sym + "\n\t.type " + sym + ", %object\n\t.size " + sym + ", " +
                             std::to_string(blob.size()) + "\n" + sym + ":\n\t.incbin \"" + path +
                             "\"\n\t.section .note.GNU-stack,\"\",%progbits\n");
  const std::string as = inPath("as");
  if (as.empty()) throw std::runtime_error("no `as` in PATH for the clone images");
  if (spawn({as, "-o", base + ".o.tmp", base + ".s"}, base + ".as.log") != 0)
    throw std::runtime_error("`as` failed on the clone images (log " + base + ".as.log)");
  if (std::rename((base + ".o.tmp").c_str(), (base + ".o").c_str()) != 0)
    throw std::runtime_error("cannot write " + base + ".o");
  note("images " + base + ".o");
}

/// One fatbinary per clone module of the compile that fatbinary `args`
/// makes (its cubins and PTX), written as arrays into the images header
/// that the hook block includes, or with late images into an object (after
/// the ptxas jobs of its cubins). Never throws: a failure leaves the clones
/// out with a warning.
void makeCloneImages(const std::vector<std::string> &args, const std::string &real) {
  try {
    std::string embedded;
    for (const auto &a : args) {
      if (a == "-link" || a == "--link") return;  // nvcc's device link: no clones there
      if (startsWith(a, "--embedded-fatbin=")) embedded = a.substr(18);
    }
    if (embedded.empty()) return;
    // clone module (its index: the same for every architecture's PTX, so
    // that one fatbinary holds them all, as nvcc's does) -> its cubins and
    // PTX, as --image3 arguments, and the clones it holds
    std::map<std::string, std::vector<std::string>> images, held;
    std::vector<std::string> order;
    auto add = [&](const std::string &module, const std::string &name, const std::string &arg) {
      if (!images.count(module)) order.push_back(module);
      auto &a = images[module];
      if (std::find(a.begin(), a.end(), arg) == a.end()) a.push_back(arg);
      auto &h = held[module];
      if (std::find(h.begin(), h.end(), name) == h.end()) h.push_back(name);
    };
    for (const auto &a : args) {
      if (!startsWith(a, "--image3=")) continue;
      std::map<std::string, std::string> kv;
      std::istringstream fields(a.substr(9));
      for (std::string f; std::getline(fields, f, ',');) {
        size_t eq = f.find('=');
        if (eq != std::string::npos) kv[f.substr(0, eq)] = f.substr(eq + 1);
      }
      if (kv["file"].empty()) continue;
      if (kv["kind"] == "ptx") {  // PTX nvcc embeds (a virtual architecture): each clone's module too, for the JIT
        const std::string dir = clonesDir(kv["file"]);
        std::istringstream ns(readFile(dir + "/names").value_or(""));
        for (std::string i, name; ns >> i >> name;)
          add(i, name, "--image3=kind=ptx,sm=" + kv["sm"] + ",file=" + dir + "/" + i + ".ptx");
        continue;
      }
      if (kv["kind"] != "elf") continue;
      if (lateImagesOn()) waitJob(jobLock("ptxas", kv["file"]));
      auto record = readFile(cubinRecord(kv["file"]));
      if (!record) continue;
      std::istringstream rs(*record);
      std::string dir, arch;
      std::getline(rs, dir);
      std::getline(rs, arch);
      std::set<std::string> compiled;
      for (std::string i; std::getline(rs, i);) compiled.insert(i);
      std::istringstream ns(readFile(dir + "/names").value_or(""));
      for (std::string i, name; ns >> i >> name;) {
        if (!compiled.count(i)) continue;
        add(i, name, "--image3=kind=elf,sm=" + kv["sm"] + ",file=" + dir + "/" + i + "." + arch + ".cubin");
      }
    }
    if (order.empty()) return;
    const std::string header = imagesHeader(embedded);
    // One fatbinary per clone module, up to 4 at a time, in order.
    std::vector<std::optional<std::string>> bytes(order.size());
    forEachParallel(order.size(), [&](size_t k) {
      const std::string fatbin = header + "." + std::to_string(k) + ".fatbin";
      std::vector<std::string> c{real, "--create=" + fatbin, "-64"};
      c.insert(c.end(), images[order[k]].begin(), images[order[k]].end());
      bytes[k] = spawn(c, fatbin + ".log") == 0 ? readFile(fatbin) : std::nullopt;
    });
    std::vector<CloneImage> made;
    for (size_t k = 0; k < order.size(); ++k) {
      if (!bytes[k] || bytes[k]->empty()) {
        warnOnce("clone-fatbinary" + order[k],
                 "fatbinary failed on the clone image " + order[k] + "; its clones' launches run the original");
        continue;
      }
      made.push_back({held[order[k]], std::move(*bytes[k])});
    }
    if (made.empty()) return;
    if (lateImagesOn()) writeImagesObject(imagesBase(embedded), made);
    else writeImagesHeader(header, made);
  } catch (const std::exception &e) {
    warnOnce(std::string("fatbinary") + e.what(), std::string("clone images: ") + e.what() + "; the clones are left out");
  } catch (...) {
    warnOnce("fatbinary-unknown", "clone images: an unexpected error; the clones are left out");
  }
}
}  // namespace

namespace {
/// Whether fatbinary `args` embed an image with clones (late images).
bool hasClones(const std::vector<std::string> &args) {
  for (const auto &a : args) {
    if (!startsWith(a, "--image3=")) continue;
    size_t f = a.find(",file=");
    if (f == std::string::npos) continue;
    const std::string file = a.substr(f + 6);
    if (a.find("kind=ptx") != std::string::npos ? isFile(clonesDir(file) + "/names")
                                                 : isFile(jobLock("ptxas", file)))
      return true;
  }
  return false;
}
}  // namespace

int fatbinaryMain(const std::vector<std::string> &args) {
  const std::string real = realTool("fatbinary");
  if (!lateImagesOn() || real.empty()) return runBeside("fatbinary", args, makeCloneImages);
  // Late images: nvcc's fatbinary first; meanwhile, the hook goes into the
  // host stub (ptx-opt ran in jobs of the cicc step) before nvcc compiles
  // it, and the clone images are made in a job
  std::vector<std::string> cmd{real};
  cmd.insert(cmd.end(), args.begin(), args.end());
  const pid_t own = start(cmd);
  std::string embedded;
  for (const auto &a : args)
    if (startsWith(a, "--embedded-fatbin=")) embedded = a.substr(18);
  if (!embedded.empty()) {
    hookDeferred(embedded);
    if (hasClones(args) && !startJob(jobLock("fatbinary", embedded), [&] { makeCloneImages(args, real); }))
      makeCloneImages(args, real);
  }
  return finish(own);
}

}  // namespace ptxnvcc
