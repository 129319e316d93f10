// Clone pruning (src/transforms/Prune.cpp): which variants go, and that the
// ones that stay keep their order.
#include "Helpers.h"

#include "transforms/Pass.h"

using namespace ptxopt;

namespace {

const std::string kKernel = std::string(kHeader) + ".visible .entry k(.param .u64 p)\n{\n\tret;\n}\n";

Variant named(const std::string &name) {
  Variant v;
  v.name = name;
  v.pass = "test";
  v.kind = "remap";
  return v;
}

/// Runs the pruning on a manifest for kernel k with `vs`; the names kept.
std::vector<std::string> prune(std::vector<Variant> vs, std::vector<Remark> *remarksOut = nullptr,
                               const std::string &text = kKernel) {
  auto m = parseOk(text);
  analysis::AnalysisManager am(*m);
  std::vector<Remark> remarks;
  Manifest man;
  KernelManifest k;
  k.kernel = "k";
  k.paramSizes = {8};
  k.variants = std::move(vs);
  man.kernels.push_back(k);
  std::map<std::string, double> stats;
  PassOptions options;
  transforms::PassContext ctx{*m, am, remarks, man, stats, "prune", options};
  transforms::pruneClones(ctx);
  if (remarksOut) *remarksOut = remarks;
  std::vector<std::string> out;
  for (const auto &km : man.kernels)
    for (const auto &v : km.variants) out.push_back(v.name);
  return out;
}

}  // namespace

TEST_CASE("prune keeps variants some launch can select, in order", "[prune]") {
  Variant a = named("a"), b = named("b"), c = named("c");
  a.minLaunchThreads = 1u << 22;
  b.blockMultiple = {32, 1, 1};
  c.gridMultiple = {4096, 1, 1};
  c.gridMin = {32768, 0, 0};
  CHECK(prune({a, b, c}) == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("prune drops a repeated variant and one shadowed by weaker conditions", "[prune]") {
  Variant strict = named("s"), loose = named("s"), other = named("o");
  strict.gridMultiple = {1024, 1, 1};
  strict.gridMin = {32768, 0, 0};
  strict.alignedParams = {{0, 16}};
  loose.gridMultiple = {256, 1, 1};
  // strict first: loose still takes grids under 32768 -> both stay.
  CHECK(prune({strict, loose}) == std::vector<std::string>{"s", "s"});
  // loose first: every launch strict accepts, loose accepted before it.
  std::vector<Remark> r;
  CHECK(prune({loose, strict, other, loose}, &r) == std::vector<std::string>{"s", "o"});
  REQUIRE(r.size() == 2);
  CHECK(r[0].message.find("variant 0 launches the same clone under weaker conditions") != std::string::npos);
  CHECK(r[1].message.find("it repeats variant 0") != std::string::npos);
  // An earlier variant that checks a parameter the later one does not check
  // (even at alignment 1: a launch without an argument array fails it) does
  // not shadow it.
  Variant checks = named("s"), free = named("s");
  checks.alignedParams = {{0, 1}};
  CHECK(prune({checks, free}) == std::vector<std::string>{"s", "s"});
  CHECK(prune({free, checks}) == std::vector<std::string>{"s"});
  // Likewise rowwalk's argument conditions: pointers in two allocations, a
  // minimum argument. A launch failing them must still reach the later one.
  Variant disjoint = named("s"), rows = named("s"), rowsHigher = named("s");
  disjoint.disjointParams = {{0, 1}};
  CHECK(prune({disjoint, free}) == std::vector<std::string>{"s", "s"});
  CHECK(prune({free, disjoint}) == std::vector<std::string>{"s"});
  rows.minParams = {{2, 128}};
  rowsHigher.minParams = {{2, 256}};
  CHECK(prune({rows, free}) == std::vector<std::string>{"s", "s"});
  CHECK(prune({rowsHigher, rows}) == std::vector<std::string>{"s", "s"});
  CHECK(prune({rows, rowsHigher}) == std::vector<std::string>{"s"});
  // A grid-stride loop run once: a launch failing it must reach the later
  // variant; the same condition again is a shadow.
  Variant once = named("s");
  once.gridStrideOnce = {{0, {2}}};
  CHECK(prune({once, free}) == std::vector<std::string>{"s", "s"});
  CHECK(prune({once, once}) == std::vector<std::string>{"s"});
  CHECK(prune({free, once}) == std::vector<std::string>{"s"});
  // A different clone is never taken for a shadow (its own limits may differ).
  Variant x = named("x");
  x.gridMultiple = {1024, 1, 1};
  CHECK(prune({loose, x}) == std::vector<std::string>{"s", "x"});
}

TEST_CASE("prune drops variants whose grid conditions cannot hold", "[prune]") {
  Variant a = named("a"), b = named("b"), c = named("c");
  a.gridMax = {100, 0, 0};
  a.gridMin = {200, 0, 0};  // 200 <= grid.x <= 100
  b.gridMultiple = {1, 4, 1};
  b.gridMax = {0, 3, 0};  // no multiple of 4 in [1, 3]
  // Swap-like: grid.x becomes block.x (at most 1024), grid.y and grid.z at
  // most 1 and 1 thread per block: at most 1024 threads, under its floor.
  c.block[0] = DimSource{DimSource::From::Grid, 0};
  c.grid[0] = DimSource{DimSource::From::Block, 0};
  c.gridMax = {0, 1, 1};
  c.minLaunchThreads = 1u << 21;
  std::vector<Remark> r;
  CHECK(prune({a, b, c}, &r).empty());
  REQUIRE(r.size() == 3);
  CHECK(r[0].message.find("no grid.x is a multiple of 1 between 200 and 100") != std::string::npos);
  CHECK(r[1].message.find("no grid.y is a multiple of 4 between 1 and 3") != std::string::npos);
  CHECK(r[2].message.find("fewer than its minimum 2097152") != std::string::npos);
  // With grid.y free the same floor is reachable.
  c.gridMax = {0, 0, 1};
  CHECK(prune({c}) == std::vector<std::string>{"c"});
}

TEST_CASE("prune checks block conditions against .reqntid and .maxntid", "[prune]") {
  const std::string req = std::string(kHeader) + ".visible .entry k(.param .u64 p)\n.reqntid 16, 16\n{\n\tret;\n}\n";
  const std::string max = std::string(kHeader) + ".visible .entry k(.param .u64 p)\n.maxntid 128, 1, 1\n{\n\tret;\n}\n";
  Variant g = named("g"), h = named("h");
  g.block[0] = DimSource{DimSource::From::Block, 0, 4};  // block.x / 4
  g.blockMultiple = {4, 1, 1};
  g.minBlockThreads = 128;  // 16 / 4 * 16 = 64 threads: too few
  h.blockMultiple = {32, 1, 1};
  CHECK(prune({g, h}, nullptr, req) == std::vector<std::string>{});
  CHECK(prune({g, h}, nullptr, max) == std::vector<std::string>{"h"});  // 128 / 4 = 32 threads < 128
  g.minBlockThreads = 32;
  CHECK(prune({g, h}, nullptr, max) == std::vector<std::string>{"g", "h"});
  CHECK(prune({g, h}, nullptr, kKernel) == std::vector<std::string>{"g", "h"});
}
