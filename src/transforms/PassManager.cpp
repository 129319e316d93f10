// The pipeline: runs the requested passes (the registry's, Registry.cpp),
// each of which adds verified clones to the module, then embeds the manifest
// that tells loaders how to launch the clones.
#include "ptxopt/transforms/PassManager.h"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <unordered_set>

#include "Registry.h"
#include "ptxopt/ir/Verifier.h"
#include "ptxopt/parser/Parser.h"
#include "ptxopt/printer/Printer.h"
#include "ptxopt/support/Diagnostics.h"

namespace ptxopt {

namespace {

std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ','))
    if (!x.empty()) out.push_back(x);
  return out;
}

/// Per-kernel `.weak .global .align 1 .b8 __ptxopt_manifest_<k>[N] = {...};`
/// (.weak: with -rdc, a template kernel that several translation units
/// instantiate is .weak itself, and two .visible copies of its manifest
/// global would stop nvlink with "Multiple definition").
void embedManifest(ir::Module &m, const Manifest &man) {
  if (man.kernels.empty()) return;
  for (const auto &k : man.kernels) {
    std::string json = toJson(k);
    auto d = std::make_unique<ir::Decl>();
    d->attrs = {".weak", ".global", ".align", "1", ".b8"};
    d->names.push_back({m.intern(manifestGlobalName(k.kernel)), std::nullopt, {json.size()}});
    for (size_t i = 0; i < json.size(); ++i) {
      if (i) d->init.push_back(",");
      d->init.push_back(m.intern(std::to_string(static_cast<unsigned char>(json[i]))));
    }
    d->init.insert(d->init.begin(), "{");
    d->init.push_back("}");
    m.appendDecl(std::move(d));
  }
  m.trailer = "// @ptxopt-manifest " + toJson(man) + "\n";
}

/// `f` is still the parser's text: no edited header or statement, every node
/// with its source span (an edit sets `edited`; a clone has no spans).
bool unmodified(const ir::Function &f) {
  if (f.edited || !f.span.valid()) return false;
  if (!f.body) return true;
  if (f.body->edited || !f.body->span.valid()) return false;
  bool clean = true;
  ir::forEachStmt(*f.body, [&](const ir::Stmt &st) { clean = clean && !st.edited && st.span.valid(); });
  return clean;
}

/// What the analyses of an unmodified function may read besides the
/// function: the module's other items (declarations, directives) and the
/// unmodified functions it calls.
struct ModuleShape {
  std::vector<const ir::Function *> functions;
  std::unordered_set<const ir::Function *> unmodifiedFunctions;
  size_t otherItems = 0;
  explicit ModuleShape(const ir::Module &m) {
    for (const auto &it : m.items) {
      if (it.kind != ir::Item::Kind::Function) {
        ++otherItems;
        continue;
      }
      functions.push_back(it.function.get());
      if (!it.edited && unmodified(*it.function)) unmodifiedFunctions.insert(it.function.get());
    }
  }
};

/// After a pass: forgets the analyses of every function the pass added,
/// changed or removed, keeps those of the functions it left as parsed (the
/// originals: passes add clones and never edit a kernel in place), so the
/// next pass does not recompute them. Everything goes if the module's other
/// items or the set of unmodified functions changed in any other way. The
/// module's shape now (the next pass's `before`: each shape walks every
/// statement of the module once).
ModuleShape invalidateChanged(analysis::AnalysisManager &am, const ModuleShape &before, const ir::Module &m) {
  ModuleShape after(m);
  if (after.otherItems != before.otherItems) {
    am.invalidateAll();
    return after;
  }
  // Every function unmodified now was unmodified before (an edit is never undone).
  for (const ir::Function *f : after.unmodifiedFunctions)
    if (!before.unmodifiedFunctions.count(f)) {
      am.invalidateAll();
      return after;
    }
  for (const ir::Function *f : before.functions)
    if (!after.unmodifiedFunctions.count(f)) am.invalidate(*f);  // changed or removed: the pointer is only a key
  for (const ir::Function *f : after.functions)
    if (!after.unmodifiedFunctions.count(f)) am.invalidate(*f);  // added by the pass
  return after;
}

}  // namespace

namespace transforms {

KernelManifest &PassContext::entry(const ir::Function &k) {
  for (auto &e : manifest.kernels)
    if (e.kernel == k.name) return e;
  KernelManifest e;
  e.kernel = std::string(k.name);
  if (k.params)
    for (const auto &p : *k.params) {
      uint32_t elem = 0;
      auto t = p.type();
      if (t.size() > 2) {
        std::string bits(t.substr(2));
        if (bits == "8" || bits == "16" || bits == "32" || bits == "64" || bits == "128")
          elem = static_cast<uint32_t>(std::stoul(bits) / 8);
      }
      uint64_t n = 1;
      for (const auto &nm : p.names)
        for (auto dim : nm.dims) n *= dim.value_or(0);
      e.paramSizes.push_back(static_cast<uint32_t>(elem * n));
    }
  manifest.kernels.push_back(std::move(e));
  return manifest.kernels.back();
}

bool PassContext::addClone(const ir::Function &original, std::unique_ptr<ir::Function> clone, Variant v, int &at,
                           std::optional<size_t> before) {
  // "swap+group" counts and reports as a group clone.
  const std::string kind = v.kind.substr(v.kind.rfind('+') + 1);
  auto errs = verifyFunction(module, *clone);
  if (!errs.empty()) {
    remark(Remark::Kind::Missed, original, "", kind + " clone dropped: it fails verification (" + errs.front().message + ")");
    count("dropped-clones");
    return false;
  }
  KernelManifest &e = entry(original);
  if (const ir::Function *same = module.findFunction(clone->name)) {
    if (printFunctionHeader(*same) + printStmt(*same->body) != printFunctionHeader(*clone) + printStmt(*clone->body)) {
      remark(Remark::Kind::Missed, original, "", kind + " clone dropped: the module has a different " + std::string(clone->name));
      count("dropped-clones");
      return false;
    }
    count("shared-clones");
  } else {
    module.insertFunctionAfter(at++, std::move(clone));
    count(kind + "-clones");
  }
  auto pos = before && *before <= e.variants.size() ? e.variants.begin() + static_cast<long>(*before) : e.variants.end();
  e.variants.insert(pos, std::move(v));
  return true;
}

std::optional<PassContext::Base> PassContext::baseOf(const ir::Function &f) {
  const std::string name(f.name);
  const size_t pos = name.find("__ptxopt_");
  Base b;
  b.original = module.findFunction(pos == std::string::npos ? name : name.substr(0, pos));
  if (!b.original) return std::nullopt;
  b.variant.kind = "identity";
  for (const auto &e : manifest.kernels) {
    if (e.kernel != b.original->name) continue;
    b.variantCount = e.variants.size();
    for (size_t i = 0; i < e.variants.size() && pos != std::string::npos; ++i)
      if (e.variants[i].name == name) {
        if (!b.isClone) {
          b.variant = e.variants[i];
          b.index = i;
        }
        b.isClone = true;
        b.indices.push_back(i);
      }
  }
  if (pos != std::string::npos && !b.isClone) return std::nullopt;
  return b;
}

std::string locationOf(const ir::Module &m, analysis::FunctionAnalyses &fa, const ir::Stmt *stmt) {
  if (stmt && stmt->kind == ir::Stmt::Kind::Instruction) {
    const auto &cfg = fa.cfg();
    uint32_t i = cfg.indexOf(static_cast<const ir::Instruction *>(stmt));
    if (i != UINT32_MAX) {
      auto loc = analysis::sourceLocation(m, cfg, i).str();
      if (!loc.empty()) return loc;
    }
  }
  if (stmt && stmt->span.valid()) {
    auto p = m.lines().pos(stmt->span.begin);
    return m.fileName() + ":" + std::to_string(p.line) + ":" + std::to_string(p.col);
  }
  return "";
}

}  // namespace transforms

const std::vector<PassInfo> &registeredPasses() {
  static const std::vector<PassInfo> infos = [] {
    std::vector<PassInfo> v;
    for (const auto &r : transforms::registry()) {
      v.push_back(r.info);
      for (const auto &o : r.options) v.back().options.push_back(o.info);
    }
    return v;
  }();
  return infos;
}

bool parsePipelineSpec(const std::string &spec, PipelineOptions &po, std::string &error, const std::string &prefix) {
  size_t semi = spec.find(';');
  if (semi) po.passes = spec.substr(0, semi);
  while (semi != std::string::npos) {
    size_t next = spec.find(';', semi + 1);
    std::string opt = spec.substr(semi + 1, next == std::string::npos ? std::string::npos : next - semi - 1);
    semi = next;
    if (opt.empty()) continue;
    size_t eq = opt.find('=');
    std::optional<std::string> value;
    if (eq != std::string::npos) value = opt.substr(eq + 1);
    if (!setPassOption(po.options, opt.substr(0, eq), value, error, prefix)) return false;
  }
  return true;
}

OptimizeResult optimizeModule(ir::Module &m, const PipelineOptions &opts) {
  OptimizeResult res;
  std::vector<std::string> names;
  bool level = opts.passes.empty();  // empty: -O0
  for (const auto &p : transforms::pipelines())
    if (opts.passes == p.name) {
      names = p.passes;
      level = true;
    }
  if (!level) names = split(opts.passes);
  const auto &registry = transforms::registry();
  std::vector<const transforms::Registered *> pipeline;
  for (const auto &n : names) {
    const transforms::Registered *found = nullptr;
    for (const auto &r : registry)
      if (r.info.name == n) found = &r;
    if (!found) {
      res.ok = false;
      res.error = "unknown pass '" + n + "' (known: ";
      for (size_t i = 0; i < registry.size(); ++i) res.error += (i ? ", " : "") + registry[i].info.name;
      res.error += ")";
      return res;
    }
    bool skipped = false;
    for (const auto &s : opts.skip) skipped |= s == n;
    if (!skipped) pipeline.push_back(found);
  }
  analysis::AnalysisManager am(m);
  ModuleShape before(m);  // after one pass, the shape before the next
  for (const transforms::Registered *p : pipeline) {
    auto t0 = std::chrono::steady_clock::now();
    transforms::PassContext ctx{m, am, res.remarks, res.manifest, res.stats, p->info.name, opts.options};
    p->run(ctx);
    before = invalidateChanged(am, before, m);
    res.passTimes[p->info.name] += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (opts.afterPass) opts.afterPass(p->info.name, m, opts.afterPassCtx);
  }
  // Variants no launch can select, and their clones, go (Prune.cpp); on by
  // default, `--skip=prune` keeps them.
  bool prune = !pipeline.empty();
  for (const auto &s : opts.skip) prune &= s != "prune";
  if (prune) {
    auto t0 = std::chrono::steady_clock::now();
    transforms::PassContext ctx{m, am, res.remarks, res.manifest, res.stats, "prune", opts.options};
    transforms::pruneClones(ctx);
    res.passTimes["prune"] += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  embedManifest(m, res.manifest);
  return res;
}

bool optimizePtx(const std::string &ptx, const std::string &name, const PipelineOptions &opts, std::string &out,
                 OptimizeResult &result) {
  auto parsed = parsePtx(ptx, name);
  if (parsed.error) {
    result.ok = false;
    result.error = formatDiagnostic(*parsed.error);
    return false;
  }
  result = optimizeModule(*parsed.module, opts);
  if (!result.ok) return false;
  out = printModule(*parsed.module);
  return true;
}

}  // namespace ptxopt
