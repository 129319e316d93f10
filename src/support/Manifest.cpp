// The manifest's JSON form (docs/MANIFEST.md): deterministic writing, strict
// reading with messages that name the offending field, and the helpers that
// find a manifest embedded in PTX text.
#include "ptxopt/Manifest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace ptxopt {

using Json = nlohmann::ordered_json;

namespace {

constexpr const char *kDimNames = "xyz";
constexpr std::string_view kCommentPrefix = "// @ptxopt-manifest ";

// ------------------------------------------------------------------ writing

/// "grid.x", "block.y/4", "256".
std::string dimSourceText(const DimSource &s) {
  if (s.from == DimSource::From::Const) return std::to_string(s.value);
  std::string t = s.from == DimSource::From::Grid ? "grid." : "block.";
  t += s.dim < 3 ? kDimNames[s.dim] : '?';
  if (s.divide != 1) t += "/" + std::to_string(s.divide);
  if (s.multiply != 1) t += "*" + std::to_string(s.multiply);
  return s.roundUp ? "ceil(" + t + ")" : t;
}

Json dims(const std::array<DimSource, 3> &a) {
  return Json::array({dimSourceText(a[0]), dimSourceText(a[1]), dimSourceText(a[2])});
}

Json triple(const std::array<uint32_t, 3> &a) { return Json::array({a[0], a[1], a[2]}); }

/// `[{"index": i, "times": t}, ...]`: threadsPerParam and gridStrideOnce's perParam.
Json perParamsJson(const std::vector<Variant::ThreadsPerParam> &per) {
  Json out = Json::array();
  for (const auto &p : per) out.push_back(Json{{"index", p.index}, {"times", p.times}});
  return out;
}

Json variantJson(const Variant &v) {
  Json j;
  j["name"] = v.name;
  j["pass"] = v.pass;
  j["kind"] = v.kind;
  j["grid"] = dims(v.grid);
  j["block"] = dims(v.block);
  j["gridMultiple"] = triple(v.gridMultiple);
  j["blockMultiple"] = triple(v.blockMultiple);
  j["blockMin"] = triple(v.blockMin);
  j["gridMin"] = triple(v.gridMin);
  j["gridMax"] = triple(v.gridMax);
  j["blockMax"] = triple(v.blockMax);
  if (v.maxLaunchThreads) j["maxLaunchThreads"] = v.maxLaunchThreads;
  if (v.minLaunchThreads) j["minLaunchThreads"] = v.minLaunchThreads;
  if (v.minBlockThreads) j["minBlockThreads"] = v.minBlockThreads;
  Json aligned = Json::array();
  for (const auto &p : v.alignedParams) aligned.push_back(Json{{"index", p.index}, {"bytes", p.bytes}});
  j["alignedParams"] = std::move(aligned);
  j["allowDynamicShared"] = v.allowDynamicShared;
  if (!v.extraArgs.empty()) {
    Json extra = Json::array();
    for (const auto &a : v.extraArgs) extra.push_back(dimSourceText(a));
    j["extraArgs"] = std::move(extra);
  }
  if (!v.allocEnds.empty()) j["allocEnds"] = v.allocEnds;
  if (!v.disjointParams.empty()) {
    Json pairs = Json::array();
    for (const auto &p : v.disjointParams) pairs.push_back(Json::array({p.a, p.b}));
    j["disjointParams"] = std::move(pairs);
  }
  if (!v.minParams.empty()) {
    Json mins = Json::array();
    for (const auto &p : v.minParams) {
      Json m{{"index", p.index}, {"value", p.value}};
      if (p.bytes) m["offset"] = p.offset, m["bytes"] = p.bytes;
      mins.push_back(std::move(m));
    }
    j["minParams"] = std::move(mins);
  }
  if (!v.threadsPerParam.empty()) j["threadsPerParam"] = perParamsJson(v.threadsPerParam);
  if (!v.gridStrideOnce.empty()) {
    Json once = Json::array();
    for (const auto &g : v.gridStrideOnce) {
      Json e{{"dim", g.dim}, {"params", g.params}};
      if (g.times != 1) e["times"] = g.times;
      if (g.several) e["several"] = true, e["minBound"] = g.minBound;
      if (g.several && !g.perParam.empty()) e["perParam"] = perParamsJson(g.perParam);
      once.push_back(std::move(e));
    }
    j["gridStrideOnce"] = std::move(once);
  }
  return j;
}

/// A kernel entry; `withVersion` for the standalone form (per-kernel global).
Json kernelJson(const KernelManifest &k, bool withVersion) {
  Json j;
  if (withVersion) j["version"] = Manifest::kVersion;
  j["kernel"] = k.kernel;
  j["paramSizes"] = k.paramSizes;
  Json vs = Json::array();
  for (const auto &v : k.variants) vs.push_back(variantJson(v));
  j["variants"] = std::move(vs);
  return j;
}

// ------------------------------------------------------------------ reading
// Each reader throws ParseError with the JSON path of the bad value.

struct ParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string &path, const std::string &what) { throw ParseError(path + ": " + what); }

const char *typeName(const Json &j) { return j.type_name(); }

/// Checks that `j` is an object with exactly the keys `keys` (all required).
void expectKeys(const Json &j, const std::string &path, std::initializer_list<const char *> keys,
                std::initializer_list<const char *> optional = {}) {
  if (!j.is_object()) fail(path, std::string("expected an object, got ") + typeName(j));
  for (const char *k : keys)
    if (!j.contains(k)) fail(path, std::string("missing field '") + k + "'");
  for (const auto &[key, value] : j.items()) {
    bool known = false;
    for (const char *k : keys) known = known || key == k;
    for (const char *k : optional) known = known || key == k;
    if (!known) fail(path, "unknown field '" + key + "'");
  }
}

std::string getString(const Json &j, const std::string &path) {
  if (!j.is_string()) fail(path, std::string("expected a string, got ") + typeName(j));
  return j.get<std::string>();
}

uint32_t getU32(const Json &j, const std::string &path) {
  if (!j.is_number_integer()) fail(path, std::string("expected an unsigned integer, got ") + typeName(j));
  if (j.is_number_unsigned()) {
    uint64_t v = j.get<uint64_t>();
    if (v <= UINT32_MAX) return static_cast<uint32_t>(v);
  }
  fail(path, "expected an unsigned 32-bit integer, got " + j.dump());
}

uint32_t getPositive(const Json &j, const std::string &path) {
  uint32_t v = getU32(j, path);
  if (v == 0) fail(path, "must be at least 1");
  return v;
}

const Json &getArray(const Json &j, const std::string &path) {
  if (!j.is_array()) fail(path, std::string("expected an array, got ") + typeName(j));
  return j;
}

const Json &getArray3(const Json &j, const std::string &path) {
  getArray(j, path);
  if (j.size() != 3) fail(path, "expected 3 elements (x, y, z), got " + std::to_string(j.size()));
  return j;
}

std::array<uint32_t, 3> getTriple(const Json &j, const std::string &path) {
  getArray3(j, path);
  std::array<uint32_t, 3> r{};
  for (size_t i = 0; i < 3; ++i) r[i] = getPositive(j[i], path + "[" + std::to_string(i) + "]");
  return r;
}

/// Upper bounds: 0 means none.
std::array<uint32_t, 3> getBounds(const Json &j, const std::string &path) {
  getArray3(j, path);
  std::array<uint32_t, 3> r{};
  for (size_t i = 0; i < 3; ++i) r[i] = getU32(j[i], path + "[" + std::to_string(i) + "]");
  return r;
}

/// "grid.x", "block.z/4", "ceil(grid.x/16)", or a constant "256".
DimSource parseDimSource(const std::string &text, const std::string &path) {
  DimSource s;
  std::string_view t = text;
  if (t.starts_with("ceil(") && t.ends_with(")")) {
    s = parseDimSource(std::string(t.substr(5, t.size() - 6)), path);
    if (s.from == DimSource::From::Const || s.roundUp || s.divide == 1 || s.multiply != 1)
      fail(path, "ceil() needs \"grid.<x|y|z>/<n>\" or \"block.<x|y|z>/<n>\" inside, got \"" + text + "\"");
    s.roundUp = true;
    return s;
  }
  if (!t.empty() && t.size() <= 10 && t.find_first_not_of("0123456789") == std::string_view::npos) {
    uint64_t n = std::stoull(text);
    if (n == 0 || n > UINT32_MAX) fail(path, "a constant dimension must be between 1 and 4294967295");
    return DimSource::constant(static_cast<uint32_t>(n));
  }
  auto bad = [&]() {
    fail(path, "expected \"grid.<x|y|z>\" or \"block.<x|y|z>\" with an optional \"/<n>\" or \"*<n>\", or a number, got \"" +
                   text + "\"");
  };
  if (t.starts_with("grid.")) {
    s.from = DimSource::From::Grid;
    t.remove_prefix(5);
  } else if (t.starts_with("block.")) {
    s.from = DimSource::From::Block;
    t.remove_prefix(6);
  } else {
    bad();
  }
  if (t.empty() || (t[0] != 'x' && t[0] != 'y' && t[0] != 'z')) bad();
  s.dim = static_cast<uint8_t>(t[0] - 'x');
  t.remove_prefix(1);
  if (t.empty()) return s;
  if (t[0] == '*') {
    if (t.size() < 2 || t.size() > 11) bad();
    uint64_t n = 0;
    for (char c : t.substr(1)) {
      if (c < '0' || c > '9') bad();
      n = n * 10 + static_cast<uint64_t>(c - '0');
    }
    if (n == 0 || n > 1024) fail(path, "the multiplier must be between 1 and 1024");
    s.multiply = static_cast<uint32_t>(n);
    return s;
  }
  if (t[0] != '/' || t.size() < 2 || t.size() > 11) bad();
  uint64_t n = 0;
  for (char c : t.substr(1)) {
    if (c < '0' || c > '9') bad();
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  if (n == 0 || n > UINT32_MAX) fail(path, "the divisor must be between 1 and 4294967295");
  s.divide = static_cast<uint32_t>(n);
  return s;
}

std::array<DimSource, 3> getDims(const Json &j, const std::string &path) {
  getArray3(j, path);
  std::array<DimSource, 3> r{};
  for (size_t i = 0; i < 3; ++i) {
    std::string p = path + "[" + std::to_string(i) + "]";
    r[i] = parseDimSource(getString(j[i], p), p);
  }
  return r;
}

bool getBool(const Json &j, const std::string &path) {
  if (!j.is_boolean()) fail(path, std::string("expected true or false, got ") + typeName(j));
  return j.get<bool>();
}

/// A parameter index at `path`: the value there, failing unless it names
/// one of the kernel's `numParams` parameters.
uint32_t getParamIndex(const Json &j, const std::string &path, size_t numParams) {
  uint32_t index = getU32(j, path);
  if (index >= numParams)
    fail(path, "parameter " + std::to_string(index) + " does not exist (the kernel has " + std::to_string(numParams) +
                   ")");
  return index;
}

Variant::AlignedParam parseAligned(const Json &j, const std::string &path, size_t numParams) {
  expectKeys(j, path, {"index", "bytes"});
  Variant::AlignedParam p{getParamIndex(j["index"], path + ".index", numParams), getU32(j["bytes"], path + ".bytes")};
  if (p.bytes == 0 || (p.bytes & (p.bytes - 1)) != 0)
    fail(path + ".bytes", "must be a power of two, got " + std::to_string(p.bytes));
  return p;
}

/// perParamsJson's form read back, at `path`.
std::vector<Variant::ThreadsPerParam> parsePerParams(const Json &j, const std::string &path, size_t numParams) {
  std::vector<Variant::ThreadsPerParam> out;
  const Json &per = getArray(j, path);
  for (size_t i = 0; i < per.size(); ++i) {
    std::string p = path + "[" + std::to_string(i) + "]";
    expectKeys(per[i], p, {"index", "times"});
    out.push_back({getParamIndex(per[i]["index"], p + ".index", numParams), getU32(per[i]["times"], p + ".times")});
  }
  return out;
}

Variant parseVariant(const Json &j, const std::string &path, size_t numParams) {
  // gridMin, gridMax, blockMax, maxLaunchThreads and minBlockThreads came
  // later: absent means no bound.
  expectKeys(j, path, {"name", "pass", "kind", "grid", "block", "gridMultiple", "blockMultiple", "blockMin",
                       "alignedParams", "allowDynamicShared"},
             {"gridMin", "gridMax", "blockMax", "maxLaunchThreads", "minLaunchThreads", "minBlockThreads", "extraArgs",
              "disjointParams", "minParams", "threadsPerParam", "gridStrideOnce", "allocEnds"});
  Variant v;
  v.name = getString(j["name"], path + ".name");
  if (v.name.empty()) fail(path + ".name", "must not be empty");
  v.pass = getString(j["pass"], path + ".pass");
  v.kind = getString(j["kind"], path + ".kind");
  v.grid = getDims(j["grid"], path + ".grid");
  v.block = getDims(j["block"], path + ".block");
  v.gridMultiple = getTriple(j["gridMultiple"], path + ".gridMultiple");
  v.blockMultiple = getTriple(j["blockMultiple"], path + ".blockMultiple");
  v.blockMin = getTriple(j["blockMin"], path + ".blockMin");
  if (j.contains("gridMin")) v.gridMin = getBounds(j["gridMin"], path + ".gridMin");
  if (j.contains("gridMax")) v.gridMax = getBounds(j["gridMax"], path + ".gridMax");
  if (j.contains("blockMax")) v.blockMax = getBounds(j["blockMax"], path + ".blockMax");
  if (j.contains("maxLaunchThreads")) v.maxLaunchThreads = getU32(j["maxLaunchThreads"], path + ".maxLaunchThreads");
  if (j.contains("minLaunchThreads")) v.minLaunchThreads = getU32(j["minLaunchThreads"], path + ".minLaunchThreads");
  if (j.contains("minBlockThreads")) v.minBlockThreads = getU32(j["minBlockThreads"], path + ".minBlockThreads");
  const Json &aligned = getArray(j["alignedParams"], path + ".alignedParams");
  for (size_t i = 0; i < aligned.size(); ++i)
    v.alignedParams.push_back(parseAligned(aligned[i], path + ".alignedParams[" + std::to_string(i) + "]", numParams));
  v.allowDynamicShared = getBool(j["allowDynamicShared"], path + ".allowDynamicShared");
  if (j.contains("extraArgs")) {
    const Json &extra = getArray(j["extraArgs"], path + ".extraArgs");
    for (size_t i = 0; i < extra.size(); ++i) {
      std::string p = path + ".extraArgs[" + std::to_string(i) + "]";
      DimSource a = parseDimSource(getString(extra[i], p), p);
      if (a.from == DimSource::From::Const || a.divide != 1 || a.roundUp || a.multiply != 1)
        fail(p, "an extra argument names one value of the launch, \"grid.<x|y|z>\" or \"block.<x|y|z>\"");
      v.extraArgs.push_back(a);
    }
  }
  if (j.contains("allocEnds")) {
    const Json &ends = getArray(j["allocEnds"], path + ".allocEnds");
    for (size_t i = 0; i < ends.size(); ++i) {
      const std::string p = path + ".allocEnds[" + std::to_string(i) + "]";
      const uint32_t x = getParamIndex(ends[i], p, numParams);
      if (std::find(v.allocEnds.begin(), v.allocEnds.end(), x) != v.allocEnds.end())
        fail(p, "parameter " + std::to_string(x) + " is named twice");
      v.allocEnds.push_back(x);
    }
  }
  if (j.contains("disjointParams")) {
    const Json &pairs = getArray(j["disjointParams"], path + ".disjointParams");
    for (size_t i = 0; i < pairs.size(); ++i) {
      std::string p = path + ".disjointParams[" + std::to_string(i) + "]";
      const Json &pair = getArray(pairs[i], p);
      if (pair.size() != 2) fail(p, "expected two parameter indexes, got " + std::to_string(pair.size()));
      Variant::DisjointParams d{getU32(pair[0], p + "[0]"), getU32(pair[1], p + "[1]")};
      for (uint32_t x : {d.a, d.b})
        if (x >= numParams)
          fail(p, "parameter " + std::to_string(x) + " does not exist (the kernel has " + std::to_string(numParams) + ")");
      if (d.a == d.b) fail(p, "a parameter cannot be disjoint from itself");
      v.disjointParams.push_back(d);
    }
  }
  if (j.contains("minParams")) {
    const Json &mins = getArray(j["minParams"], path + ".minParams");
    for (size_t i = 0; i < mins.size(); ++i) {
      std::string p = path + ".minParams[" + std::to_string(i) + "]";
      expectKeys(mins[i], p, {"index", "value"}, {"offset", "bytes"});
      Variant::MinParam m{getParamIndex(mins[i]["index"], p + ".index", numParams), 0};
      if (!mins[i]["value"].is_number_integer()) fail(p + ".value", std::string("expected an integer, got ") + typeName(mins[i]["value"]));
      m.value = mins[i]["value"].get<int64_t>();
      if (mins[i].contains("bytes") != mins[i].contains("offset")) fail(p, "\"offset\" and \"bytes\" go together");
      if (mins[i].contains("bytes")) {
        for (const char *key : {"offset", "bytes"})
          if (!mins[i][key].is_number_unsigned()) fail(p + "." + key, std::string("expected an unsigned integer, got ") + typeName(mins[i][key]));
        m.offset = mins[i]["offset"].get<uint32_t>();
        m.bytes = mins[i]["bytes"].get<uint32_t>();
        if (m.bytes != 4 && m.bytes != 8) fail(p + ".bytes", "expected 4 or 8, got " + std::to_string(m.bytes));
      }
      v.minParams.push_back(m);
    }
  }
  if (j.contains("threadsPerParam")) v.threadsPerParam = parsePerParams(j["threadsPerParam"], path + ".threadsPerParam", numParams);
  if (j.contains("gridStrideOnce")) {
    const Json &once = getArray(j["gridStrideOnce"], path + ".gridStrideOnce");
    for (size_t i = 0; i < once.size(); ++i) {
      std::string p = path + ".gridStrideOnce[" + std::to_string(i) + "]";
      expectKeys(once[i], p, {"dim", "params"}, {"times", "several", "minBound", "perParam"});
      Variant::GridStrideOnce g{getU32(once[i]["dim"], p + ".dim"), {}};
      if (g.dim > 2) fail(p + ".dim", "must be 0, 1 or 2 (x, y, z)");
      if (once[i].contains("times")) {
        g.times = getU32(once[i]["times"], p + ".times");
        if (g.times < 2) fail(p + ".times", "must be 2 or more (absent means 1)");
      }
      if (once[i].contains("several")) g.several = getBool(once[i]["several"], p + ".several");
      if (once[i].contains("minBound")) {
        if (!g.several) fail(p + ".minBound", "only with \"several\": true");
        g.minBound = getU32(once[i]["minBound"], p + ".minBound");
      }
      if (once[i].contains("perParam")) {
        if (!g.several) fail(p + ".perParam", "only with \"several\": true");
        g.perParam = parsePerParams(once[i]["perParam"], p + ".perParam", numParams);
      }
      const Json &ps = getArray(once[i]["params"], p + ".params");
      if (ps.empty() && g.times == 1) fail(p + ".params", "must name at least one parameter (or times a constant)");
      for (size_t n = 0; n < ps.size(); ++n)
        g.params.push_back(getParamIndex(ps[n], p + ".params[" + std::to_string(n) + "]", numParams));
      v.gridStrideOnce.push_back(std::move(g));
    }
  }
  return v;
}

void checkVersion(const Json &j, const std::string &path) {
  if (!j.is_object()) fail(path, std::string("expected an object, got ") + typeName(j));
  if (!j.contains("version")) fail(path, "missing field 'version'");
  const Json &v = j["version"];
  if (!v.is_number_integer()) fail(path + ".version", std::string("expected an integer, got ") + typeName(v));
  if (v.get<int64_t>() != Manifest::kVersion)
    fail(path + ".version", "unknown manifest version " + v.dump() + " (this build reads version " +
                                std::to_string(Manifest::kVersion) + ")");
}

KernelManifest parseKernel(const Json &j, const std::string &path, bool withVersion) {
  if (withVersion) {
    checkVersion(j, path);
    expectKeys(j, path, {"version", "kernel", "paramSizes", "variants"});
  } else {
    expectKeys(j, path, {"kernel", "paramSizes", "variants"});
  }
  KernelManifest k;
  k.kernel = getString(j["kernel"], path + ".kernel");
  if (k.kernel.empty()) fail(path + ".kernel", "must not be empty");
  const Json &sizes = getArray(j["paramSizes"], path + ".paramSizes");
  for (size_t i = 0; i < sizes.size(); ++i)
    k.paramSizes.push_back(getU32(sizes[i], path + ".paramSizes[" + std::to_string(i) + "]"));
  const Json &vs = getArray(j["variants"], path + ".variants");
  for (size_t i = 0; i < vs.size(); ++i)
    k.variants.push_back(parseVariant(vs[i], path + ".variants[" + std::to_string(i) + "]", k.paramSizes.size()));
  return k;
}

Manifest parseManifest(const Json &j) {
  checkVersion(j, "manifest");
  expectKeys(j, "manifest", {"version", "kernels"});
  Manifest m;
  const Json &ks = getArray(j["kernels"], "manifest.kernels");
  for (size_t i = 0; i < ks.size(); ++i) {
    std::string path = "manifest.kernels[" + std::to_string(i) + "]";
    m.kernels.push_back(parseKernel(ks[i], path, false));
    for (size_t e = 0; e + 1 < m.kernels.size(); ++e)
      if (m.kernels[e].kernel == m.kernels.back().kernel)
        fail(path + ".kernel", "kernel '" + m.kernels.back().kernel + "' is listed twice");
  }
  return m;
}

/// Runs `parse` on `text`; false with `error` on bad JSON or a bad value.
template <class T, class F>
bool parseText(const std::string &text, T &out, std::string &error, F parse) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error &e) {
    error = std::string("manifest: invalid JSON: ") + e.what();
    return false;
  }
  try {
    out = parse(j);
  } catch (const ParseError &e) {
    error = e.what();
    return false;
  }
  error.clear();
  return true;
}

}  // namespace

// ------------------------------------------------------------------ API

bool Variant::identityLaunch() const {
  const Variant identity;
  return grid == identity.grid && block == identity.block;
}

const KernelManifest *Manifest::find(const std::string &kernel) const {
  for (const auto &k : kernels)
    if (k.kernel == kernel) return &k;
  return nullptr;
}

std::string toJson(const Manifest &m) {
  Json j;
  j["version"] = Manifest::kVersion;
  Json ks = Json::array();
  for (const auto &k : m.kernels) ks.push_back(kernelJson(k, false));
  j["kernels"] = std::move(ks);
  return j.dump();
}

std::string toJson(const KernelManifest &k) { return kernelJson(k, true).dump(); }

bool fromJson(const std::string &text, Manifest &out, std::string &error) {
  return parseText(text, out, error, [](const Json &j) { return parseManifest(j); });
}

bool fromJson(const std::string &text, KernelManifest &out, std::string &error) {
  return parseText(text, out, error, [](const Json &j) { return parseKernel(j, "manifest", true); });
}

std::optional<std::string> findManifestComment(const std::string &ptx) {
  std::optional<std::string> found;
  size_t pos = 0;
  while (pos < ptx.size()) {
    size_t end = ptx.find('\n', pos);
    if (end == std::string::npos) end = ptx.size();
    std::string_view line(ptx.data() + pos, end - pos);
    if (line.starts_with(kCommentPrefix)) {
      line.remove_prefix(kCommentPrefix.size());
      if (line.ends_with('\r')) line.remove_suffix(1);
      found = std::string(line);  // the last such line wins (docs/MANIFEST.md)
    }
    pos = end + 1;
  }
  return found;
}

std::string manifestGlobalName(const std::string &kernel) { return "__ptxopt_manifest_" + kernel; }

}  // namespace ptxopt
