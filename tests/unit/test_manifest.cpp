// The manifest's JSON form (src/support/Manifest.cpp, docs/MANIFEST.md):
// round trips, deterministic output, and each kind of bad input.
#include <catch2/catch.hpp>

#include "ptxopt/Manifest.h"

using namespace ptxopt;

namespace {

Variant remap() {
  Variant v;
  v.name = "k$remap";
  v.pass = "coalesce";
  v.kind = "remap";
  return v;
}

Variant swap() {
  Variant v = remap();
  v.name = "k$swap";
  v.kind = "swap";
  v.grid[0] = {DimSource::From::Block, 0};
  v.block[0] = {DimSource::From::Grid, 0};
  return v;
}

Variant group() {
  Variant v = remap();
  v.name = "k$group4";
  v.pass = "group";
  v.kind = "group";
  v.block[0] = {DimSource::From::Block, 0, 4};
  v.blockMultiple = {4, 1, 1};
  v.gridMultiple = {1, 2, 1};
  v.blockMin = {32, 1, 1};
  v.alignedParams = {{0, 16}, {2, 4}};
  v.allowDynamicShared = false;
  return v;
}

Manifest sample() {
  Manifest m;
  m.kernels.push_back({"k", {8, 8, 8, 4}, {remap(), swap(), group()}});
  m.kernels.push_back({"_Z10matadd_intPKiS0_Pi", {8, 8, 8}, {remap()}});
  return m;
}

const std::string kKernel =
    R"({"version":1,"kernel":"k","paramSizes":[8],"variants":[{"name":"k2","pass":"p","kind":"remap",)"
    R"("grid":["grid.x","grid.y","grid.z"],"block":["block.x","block.y","block.z"],"gridMultiple":[1,1,1],)"
    R"("blockMultiple":[1,1,1],"blockMin":[1,1,1],"gridMax":[0,0,0],"blockMax":[0,0,0],"alignedParams":[],)"
    R"("allowDynamicShared":true}]})";

/// kKernel with `from` replaced by `to`; parsing it must fail with a message
/// containing `expected`.
void expectKernelError(const std::string &from, const std::string &to, const std::string &expected) {
  std::string text = kKernel;
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  KernelManifest k;
  std::string error;
  INFO(text);
  CHECK_FALSE(fromJson(text, k, error));
  CHECK_THAT(error, Catch::Contains(expected));
}

}  // namespace

TEST_CASE("manifest: a whole manifest round-trips through JSON", "[manifest]") {
  Manifest m = sample(), back;
  std::string error;
  std::string text = toJson(m);
  REQUIRE(fromJson(text, back, error));
  CHECK(error.empty());
  CHECK(back == m);
  CHECK(toJson(back) == text);  // deterministic
}

TEST_CASE("manifest: one kernel's entry round-trips and carries the version", "[manifest]") {
  KernelManifest k = sample().kernels[0], back;
  std::string error;
  std::string text = toJson(k);
  CHECK(text.rfind(R"({"version":1,"kernel":"k",)", 0) == 0);
  REQUIRE(fromJson(text, back, error));
  CHECK(back == k);
}

TEST_CASE("manifest: fixed key order and the dimension spelling", "[manifest]") {
  std::string text = toJson(sample().kernels[0]);
  CHECK(text.find(R"("grid":["block.x","grid.y","grid.z"],"block":["grid.x","block.y","block.z"])") !=
        std::string::npos);
  CHECK(text.find(R"("block":["block.x/4","block.y","block.z"])") != std::string::npos);
  CHECK(text.find(R"("alignedParams":[{"index":0,"bytes":16},{"index":2,"bytes":4}],"allowDynamicShared":false)") !=
        std::string::npos);
  size_t name = text.find("\"name\""), pass = text.find("\"pass\""), kind = text.find("\"kind\"");
  CHECK((name < pass && pass < kind));
}

TEST_CASE("manifest: identity launch and find", "[manifest]") {
  CHECK(remap().identityLaunch());
  CHECK_FALSE(swap().identityLaunch());
  CHECK_FALSE(group().identityLaunch());
  Manifest m = sample();
  REQUIRE(m.find("k"));
  CHECK(m.find("k")->variants.size() == 3);
  CHECK(m.find("nope") == nullptr);
}

TEST_CASE("manifest: an empty manifest", "[manifest]") {
  Manifest m, back;
  std::string error;
  CHECK(toJson(m) == R"({"version":1,"kernels":[]})");
  REQUIRE(fromJson(toJson(m), back, error));
  CHECK(back.kernels.empty());
}

TEST_CASE("manifest: invalid JSON", "[manifest]") {
  Manifest m;
  std::string error;
  CHECK_FALSE(fromJson("{\"version\":1,", m, error));
  CHECK_THAT(error, Catch::StartsWith("manifest: invalid JSON"));
  CHECK_FALSE(fromJson("", m, error));
  CHECK_FALSE(fromJson("[1,2]", m, error));
  CHECK_THAT(error, Catch::Contains("expected an object, got array"));
}

TEST_CASE("manifest: unknown or missing version", "[manifest]") {
  Manifest m;
  std::string error;
  CHECK_FALSE(fromJson(R"({"version":2,"kernels":[]})", m, error));
  CHECK_THAT(error, Catch::Contains("unknown manifest version 2"));
  CHECK_FALSE(fromJson(R"({"kernels":[]})", m, error));
  CHECK_THAT(error, Catch::Contains("missing field 'version'"));
  CHECK_FALSE(fromJson(R"({"version":"1","kernels":[]})", m, error));
  CHECK_THAT(error, Catch::Contains("manifest.version: expected an integer, got string"));
  expectKernelError(R"("version":1)", R"("version":0)", "unknown manifest version 0");
}

TEST_CASE("manifest: missing and unknown fields", "[manifest]") {
  Manifest m;
  std::string error;
  CHECK_FALSE(fromJson(R"({"version":1})", m, error));
  CHECK(error == "manifest: missing field 'kernels'");
  CHECK_FALSE(fromJson(R"({"version":1,"kernels":[],"extra":0})", m, error));
  CHECK(error == "manifest: unknown field 'extra'");
  expectKernelError(R"("paramSizes":[8],)", "", "manifest: missing field 'paramSizes'");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"x":1)",
                    "manifest.variants[0]: unknown field 'x'");
  expectKernelError(R"("blockMin":[1,1,1],)", "", "manifest.variants[0]: missing field 'blockMin'");
}

TEST_CASE("manifest: bad types name the field", "[manifest]") {
  expectKernelError(R"("kernel":"k")", R"("kernel":7)", "manifest.kernel: expected a string, got number");
  expectKernelError(R"("paramSizes":[8])", R"("paramSizes":[-8])",
                    "manifest.paramSizes[0]: expected an unsigned 32-bit integer, got -8");
  expectKernelError(R"("paramSizes":[8])", R"("paramSizes":8)", "manifest.paramSizes: expected an array, got number");
  expectKernelError(R"("blockMultiple":[1,1,1])", R"("blockMultiple":[1,1])",
                    "manifest.variants[0].blockMultiple: expected 3 elements");
  expectKernelError(R"("blockMultiple":[1,1,1])", R"("blockMultiple":[4.5,1,1])",
                    "manifest.variants[0].blockMultiple[0]: expected an unsigned integer, got number");
  expectKernelError(R"("gridMultiple":[1,1,1])", R"("gridMultiple":[0,1,1])",
                    "manifest.variants[0].gridMultiple[0]: must be at least 1");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":1)",
                    "manifest.variants[0].allowDynamicShared: expected true or false, got number");
  expectKernelError(R"("variants":[)", R"("variants":[3,)", "manifest.variants[0]: expected an object, got number");
  expectKernelError(R"("paramSizes":[8])", R"("paramSizes":[4294967296])", "expected an unsigned 32-bit integer");
}

TEST_CASE("manifest: bad dimension sources", "[manifest]") {
  expectKernelError(R"("grid.x","grid.y")", R"("grid.w","grid.y")",
                    "manifest.variants[0].grid[0]: expected \"grid.<x|y|z>\" or \"block.<x|y|z>\"");
  expectKernelError(R"("block.x","block.y")", R"("block.x/0","block.y")", "the divisor must be between 1 and");
  expectKernelError(R"("block.x","block.y")", R"("block.x/4a","block.y")", "manifest.variants[0].block[0]");
  expectKernelError(R"("block.x","block.y")", R"("thread.x","block.y")", "got \"thread.x\"");
  expectKernelError(R"("block.x","block.y")", R"(3,"block.y")", "manifest.variants[0].block[0]: expected a string");
}

TEST_CASE("manifest: aligned parameters are checked", "[manifest]") {
  expectKernelError(R"("alignedParams":[])", R"("alignedParams":[{"index":1,"bytes":16}])",
                    "alignedParams[0].index: parameter 1 does not exist (the kernel has 1)");
  expectKernelError(R"("alignedParams":[])", R"("alignedParams":[{"index":0,"bytes":12}])",
                    "alignedParams[0].bytes: must be a power of two, got 12");
  expectKernelError(R"("alignedParams":[])", R"("alignedParams":[{"index":0}])",
                    "alignedParams[0]: missing field 'bytes'");
}

TEST_CASE("manifest: a kernel listed twice is refused", "[manifest]") {
  Manifest m = sample(), back;
  m.kernels.push_back(m.kernels[0]);
  std::string error;
  CHECK_FALSE(fromJson(toJson(m), back, error));
  CHECK_THAT(error, Catch::Contains("manifest.kernels[2].kernel: kernel 'k' is listed twice"));
}

TEST_CASE("manifest: a whole manifest is not a kernel entry, nor the reverse", "[manifest]") {
  KernelManifest k;
  Manifest m;
  std::string error;
  CHECK_FALSE(fromJson(toJson(sample()), k, error));
  CHECK(error == "manifest: missing field 'kernel'");
  CHECK_FALSE(fromJson(toJson(sample().kernels[0]), m, error));
  CHECK(error == "manifest: missing field 'kernels'");
}

TEST_CASE("manifest: the comment line in PTX text", "[manifest]") {
  std::string json = toJson(sample());
  std::string ptx = ".version 9.0\n.target sm_90\n// not @ptxopt-manifest x\n  // @ptxopt-manifest indented\n"
                    "// @ptxopt-manifest " + json + "\n";
  auto found = findManifestComment(ptx);
  REQUIRE(found);
  CHECK(*found == json);
  CHECK_FALSE(findManifestComment(".version 9.0\n"));
  CHECK_FALSE(findManifestComment("// @ptxopt-manifest"));  // no space, no payload
  CHECK(findManifestComment("// @ptxopt-manifest {}") == std::string("{}"));  // first line, no newline
  CHECK(findManifestComment("x\r\n// @ptxopt-manifest {}\r\n") == std::string("{}"));
  CHECK(findManifestComment("// @ptxopt-manifest old\n// @ptxopt-manifest new\n") == std::string("new"));
}

TEST_CASE("manifest: the per-kernel global's name", "[manifest]") {
  CHECK(manifestGlobalName("matadd") == "__ptxopt_manifest_matadd");
  CHECK(manifestGlobalName("_Z10matadd_intPKiS0_Pi") == "__ptxopt_manifest__Z10matadd_intPKiS0_Pi");
}

TEST_CASE("manifest: constant dimensions and upper bounds", "[manifest]") {
  Manifest m;
  KernelManifest k{"k", {8}, {}};
  Variant v;
  v.name = "k$split";
  v.pass = "coalesce";
  v.kind = "split";
  v.block[0] = DimSource::constant(256);
  v.grid[1] = DimSource{DimSource::From::Grid, 0, 256};
  v.gridMax = {0, 1, 0};
  k.variants.push_back(v);
  m.kernels.push_back(k);
  std::string text = toJson(m);
  CHECK(text.find(R"("block":["256","block.y","block.z"])") != std::string::npos);
  CHECK(text.find(R"("gridMax":[0,1,0],"blockMax":[0,0,0])") != std::string::npos);
  Manifest back;
  std::string error;
  REQUIRE(fromJson(text, back, error));
  CHECK(back == m);
  // Manifests written before gridMax/blockMax existed still read (no bounds).
  std::string old = text;
  old.erase(old.find(R"(,"gridMax":[0,1,0],"blockMax":[0,0,0])"), std::string(R"(,"gridMax":[0,1,0],"blockMax":[0,0,0])").size());
  REQUIRE(fromJson(old, back, error));
  CHECK(back.kernels[0].variants[0].gridMax == std::array<uint32_t, 3>{0, 0, 0});
  // A constant of 0 is not a dimension.
  std::string bad = text;
  bad.replace(bad.find("\"256\""), 5, "\"0\"");
  CHECK_FALSE(fromJson(bad, back, error));
  CHECK_THAT(error, Catch::Contains("a constant dimension must be between 1 and 4294967295"));
}

TEST_CASE("manifest: rounded-up dimensions and extra arguments", "[manifest]") {
  Variant v = group();
  v.name = "k$group4_merged";
  v.kind = "group-merged";
  v.block[0] = {DimSource::From::Block, 0};
  v.grid[0] = {DimSource::From::Grid, 0, 16, 0, true};
  v.extraArgs = {{DimSource::From::Grid, 0}, {DimSource::From::Block, 1}};
  KernelManifest k{"k", {8, 8, 8, 4}, {v}};
  std::string json = toJson(k);
  CHECK(json.find(R"j("grid":["ceil(grid.x/16)","grid.y","grid.z"])j") != std::string::npos);
  CHECK(json.find(R"("extraArgs":["grid.x","block.y"])") != std::string::npos);
  KernelManifest back;
  std::string error;
  REQUIRE(fromJson(json, back, error));
  CHECK(back == k);
  // Absent when there are none.
  CHECK(toJson(KernelManifest{"k", {8}, {remap()}}).find("extraArgs") == std::string::npos);
}

TEST_CASE("manifest: bad ceil() and extra arguments", "[manifest]") {
  expectKernelError(R"("grid.x","grid.y")", R"j("ceil(grid.x)","grid.y")j", "ceil() needs");
  expectKernelError(R"("grid.x","grid.y")", R"j("ceil(16)","grid.y")j", "ceil() needs");
  expectKernelError(R"("grid.x","grid.y")", R"j("ceil(ceil(grid.x/2))","grid.y")j", "manifest.variants[0].grid[0]");
  expectKernelError(R"("grid.x","grid.y")", R"j("ceil(grid.x/2","grid.y")j", "manifest.variants[0].grid[0]");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"extraArgs":["grid.x/2"])",
                    "manifest.variants[0].extraArgs[0]: an extra argument names one value of the launch");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"extraArgs":["7"])",
                    "manifest.variants[0].extraArgs[0]");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"extraArgs":"grid.x")",
                    "manifest.variants[0].extraArgs: expected an array");
}

TEST_CASE("manifest: allocation ends", "[manifest]") {
  Variant v = remap();
  v.allocEnds = {1};
  KernelManifest k{"k", {4, 8}, {v}};
  std::string json = toJson(k);
  CHECK(json.find(R"("allocEnds":[1])") != std::string::npos);
  KernelManifest back;
  std::string error;
  REQUIRE(fromJson(json, back, error));
  CHECK(back == k);
  CHECK(toJson(KernelManifest{"k", {8}, {remap()}}).find("allocEnds") == std::string::npos);
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"allocEnds":[9])",
                    "manifest.variants[0].allocEnds[0]");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"allocEnds":[0,0])",
                    "manifest.variants[0].allocEnds[1]: parameter 0 is named twice");
}

TEST_CASE("manifest: multiplied dimensions and disjoint parameters", "[manifest]") {
  Variant v = remap();
  v.name = "k__ptxopt_lanes";
  v.pass = "rowwalk";
  v.kind = "lanes";
  v.grid[0].multiply = 32;
  v.blockMultiple = {32, 1, 1};
  v.disjointParams = {{0, 2}, {1, 2}};
  KernelManifest k{"k", {8, 8, 8}, {v}};
  std::string json = toJson(k);
  CHECK(json.find(R"("grid":["grid.x*32","grid.y","grid.z"])") != std::string::npos);
  CHECK(json.find(R"("disjointParams":[[0,2],[1,2]])") != std::string::npos);
  KernelManifest back;
  std::string error;
  REQUIRE(fromJson(json, back, error));
  CHECK(back == k);
  CHECK(back.variants[0].grid[0].multiply == 32);
  // Absent when there are none.
  CHECK(toJson(KernelManifest{"k", {8}, {remap()}}).find("disjointParams") == std::string::npos);
}

TEST_CASE("manifest: bad multipliers and disjoint parameters", "[manifest]") {
  expectKernelError(R"("grid.x","grid.y")", R"("grid.x*0","grid.y")", "the multiplier must be between 1 and 1024");
  expectKernelError(R"("grid.x","grid.y")", R"("grid.x*2048","grid.y")", "the multiplier must be between 1 and 1024");
  expectKernelError(R"("grid.x","grid.y")", R"("grid.x*","grid.y")", "manifest.variants[0].grid[0]");
  expectKernelError(R"("grid.x","grid.y")", R"j("ceil(grid.x*2)","grid.y")j", "ceil() needs");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"disjointParams":[[0,5]])",
                    "parameter 5 does not exist");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"disjointParams":[[0,0]])",
                    "a parameter cannot be disjoint from itself");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"disjointParams":[[0]])",
                    "manifest.variants[0].disjointParams[0]: expected two parameter indexes");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"extraArgs":["grid.x*2"])",
                    "an extra argument names one value of the launch");
}

TEST_CASE("manifest: minimum parameter values", "[manifest]") {
  Variant v = remap();
  v.minParams = {{1, 128}, {2, -5}};
  KernelManifest k{"k", {8, 4, 8}, {v}};
  std::string json = toJson(k);
  CHECK(json.find(R"("minParams":[{"index":1,"value":128},{"index":2,"value":-5}])") != std::string::npos);
  KernelManifest back;
  std::string error;
  REQUIRE(fromJson(json, back, error));
  CHECK(back == k);
  CHECK(toJson(KernelManifest{"k", {8}, {remap()}}).find("minParams") == std::string::npos);
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"minParams":[{"index":3,"value":1}])",
                    "manifest.variants[0].minParams[0].index: parameter 3 does not exist");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"minParams":[{"index":0,"value":"x"}])",
                    "manifest.variants[0].minParams[0].value: expected an integer");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"minParams":[{"index":0}])",
                    "manifest.variants[0].minParams[0]: missing field 'value'");
  // A struct argument's field: offset and bytes, written only for fields.
  v.minParams = {{1, 128}, {0, 256, 28, 4}};
  KernelManifest f{"k", {40, 4}, {v}};
  json = toJson(f);
  CHECK(json.find(R"("minParams":[{"index":1,"value":128},{"index":0,"value":256,"offset":28,"bytes":4}])") !=
        std::string::npos);
  REQUIRE(fromJson(json, back, error));
  CHECK(back == f);
  expectKernelError(R"("allowDynamicShared":true)",
                    R"("allowDynamicShared":true,"minParams":[{"index":0,"value":1,"offset":4}])",
                    "manifest.variants[0].minParams[0]: \"offset\" and \"bytes\" go together");
  expectKernelError(R"("allowDynamicShared":true)",
                    R"("allowDynamicShared":true,"minParams":[{"index":0,"value":1,"offset":4,"bytes":2}])",
                    "manifest.variants[0].minParams[0].bytes: expected 4 or 8, got 2");
}

TEST_CASE("manifest: threads per parameter value", "[manifest]") {
  Variant v = remap();
  v.threadsPerParam = {{2, 32}};
  KernelManifest k{"k", {8, 4, 4}, {v}};
  std::string json = toJson(k);
  CHECK(json.find(R"("threadsPerParam":[{"index":2,"times":32}])") != std::string::npos);
  KernelManifest back;
  std::string error;
  REQUIRE(fromJson(json, back, error));
  CHECK(back == k);
  CHECK(toJson(KernelManifest{"k", {8}, {remap()}}).find("threadsPerParam") == std::string::npos);
  expectKernelError(R"("allowDynamicShared":true)",
                    R"("allowDynamicShared":true,"threadsPerParam":[{"index":3,"times":32}])",
                    "manifest.variants[0].threadsPerParam[0].index: parameter 3 does not exist");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"threadsPerParam":[{"index":0}])",
                    "manifest.variants[0].threadsPerParam[0]: missing field 'times'");
}

TEST_CASE("manifest: grid-stride loops that may run several times", "[manifest]") {
  Variant v = remap();
  Variant::GridStrideOnce g{0, {2}, 1};
  g.several = true;
  g.minBound = 1048576;
  g.perParam = {{1, 32}};
  v.gridStrideOnce = {g};
  KernelManifest k{"k", {8, 4, 4}, {v}};
  const std::string json = toJson(k);
  CHECK(json.find(R"("gridStrideOnce":[{"dim":0,"params":[2],"several":true,"minBound":1048576,"perParam":[{"index":1,"times":32}]}])") !=
        std::string::npos);
  KernelManifest back;
  std::string error;
  REQUIRE(fromJson(json, back, error));
  CHECK(back == k);
  expectKernelError(R"("allowDynamicShared":true)",
                    R"("allowDynamicShared":true,"gridStrideOnce":[{"dim":0,"params":[2],"minBound":4}])",
                    "manifest.variants[0].gridStrideOnce[0].minBound: only with \"several\": true");
  expectKernelError(R"("allowDynamicShared":true)",
                    R"("allowDynamicShared":true,"gridStrideOnce":[{"dim":0,"params":[2],"several":1}])",
                    "manifest.variants[0].gridStrideOnce[0].several: expected true or false, got number");
  expectKernelError(R"("allowDynamicShared":true)",
                    R"("allowDynamicShared":true,"gridStrideOnce":[{"dim":0,"params":[0],"perParam":[{"index":0,"times":32}]}])",
                    "manifest.variants[0].gridStrideOnce[0].perParam: only with \"several\": true");
  expectKernelError(R"("allowDynamicShared":true)",
                    R"("allowDynamicShared":true,"gridStrideOnce":[{"dim":0,"params":[0],"several":true,"perParam":[{"index":4,"times":32}]}])",
                    "manifest.variants[0].gridStrideOnce[0].perParam[0].index: parameter 4 does not exist");
}

TEST_CASE("manifest: grid-stride loops run once", "[manifest]") {
  Variant v = remap();
  v.gridStrideOnce = {{0, {2}}, {1, {1, 2}}};
  KernelManifest k{"k", {8, 4, 4}, {v}};
  std::string json = toJson(k);
  CHECK(json.find(R"("gridStrideOnce":[{"dim":0,"params":[2]},{"dim":1,"params":[1,2]}])") != std::string::npos);
  KernelManifest back;
  std::string error;
  REQUIRE(fromJson(json, back, error));
  CHECK(back == k);
  CHECK(toJson(KernelManifest{"k", {8}, {remap()}}).find("gridStrideOnce") == std::string::npos);
  expectKernelError(R"("allowDynamicShared":true)",
                    R"("allowDynamicShared":true,"gridStrideOnce":[{"dim":0,"params":[3]}])",
                    "manifest.variants[0].gridStrideOnce[0].params[0]: parameter 3 does not exist");
  expectKernelError(R"("allowDynamicShared":true)",
                    R"("allowDynamicShared":true,"gridStrideOnce":[{"dim":3,"params":[0]}])",
                    "manifest.variants[0].gridStrideOnce[0].dim: must be 0, 1 or 2");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"gridStrideOnce":[{"dim":0,"params":[]}])",
                    "manifest.variants[0].gridStrideOnce[0].params: must name at least one parameter");
  expectKernelError(R"("allowDynamicShared":true)", R"("allowDynamicShared":true,"gridStrideOnce":[{"params":[0]}])",
                    "manifest.variants[0].gridStrideOnce[0]: missing field 'dim'");
  // A compile-time bound: `times`, written only where it is not 1.
  v.gridStrideOnce = {{0, {}, 8388608}, {1, {2}, 4}};
  KernelManifest kc{"k", {8, 4, 4}, {v}};
  json = toJson(kc);
  CHECK(json.find(R"("gridStrideOnce":[{"dim":0,"params":[],"times":8388608},{"dim":1,"params":[2],"times":4}])") !=
        std::string::npos);
  REQUIRE(fromJson(json, back, error));
  CHECK(back == kc);
  expectKernelError(R"("allowDynamicShared":true)",
                    R"("allowDynamicShared":true,"gridStrideOnce":[{"dim":0,"params":[],"times":1}])",
                    "manifest.variants[0].gridStrideOnce[0].times: must be 2 or more (absent means 1)");
}
