// The transpose pass's 64-bit steps on nvcc 13's PTX: the division fast
// paths folded (TransposeWide.cpp: nvcc's diamond folded, hand-edited ones
// that must not be: tests/lit/transpose/Inputs/fold.ptx) and grid-stride
// loops with a 64-bit counter traced (TransposeGridStrideCounted.cpp:
// Inputs/counted.ptx; a constant range: Inputs/constdiv.ptx).
#include <fstream>
#include <sstream>

#include "Helpers.h"

#include "transforms/Transpose.h"

using namespace ptxopt;
using namespace ptxopt::transforms;

namespace {

std::unique_ptr<ir::Module> loadInput(const char *name) {
  std::ifstream in(std::string(PTXOPT_SOURCE_DIR) + "/tests/lit/transpose/Inputs/" + name);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return parseOk(text.str());
}

ir::Function &kernelNamed(ir::Module &m, const std::string &name) {
  for (ir::Function *k : m.kernels())
    if (k->name == name) return *k;
  FAIL("no kernel " << name);
  throw;
}

std::string text(ir::Module &m, const ir::Function &f) {
  std::string out;
  ir::forEachStmt(*f.body, [&](const ir::Stmt &s) {
    if (s.kind == ir::Stmt::Kind::Instruction) out += std::string(static_cast<const ir::Instruction &>(s).opcode) + "\n";
  });
  (void)m;
  return out;
}

/// One iteration, no loop: every branch of the traced copy is forward, to
/// its return.
void checkOneIteration(const ir::Function &f) {
  ir::forEachStmt(*f.body, [&](const ir::Stmt &s) {
    if (s.kind != ir::Stmt::Kind::Instruction) return;
    const auto &in = static_cast<const ir::Instruction &>(s);
    if (in.base() == "bra") CHECK(in.operands[0].text == "$L__ptxopt_gsexit");
  });
}

}  // namespace

TEST_CASE("nvcc's 64-bit division fast path is folded into its 64-bit path", "[transpose][wide]") {
  auto m = loadInput("fold.ptx");
  auto folded = transpose::foldDivFastPaths(*m, kernelNamed(*m, "fold_ok"));
  REQUIRE(folded);
  const std::string ops = text(*m, *folded);
  CHECK(ops.find("div.u32") == std::string::npos);  // the fast block gone
  CHECK(ops.find("or.b64") == std::string::npos);   // and its test
  CHECK(ops.find("div.u64") != std::string::npos);  // the slow block kept
  CHECK(ops.find("rem.u64") != std::string::npos);  // a - (a / b) * b written as rem
}

TEST_CASE("fast paths that are not nvcc's are left", "[transpose][wide]") {
  auto m = loadInput("fold.ptx");
  // A remainder that differs, a test of the wrong bits, a register escaping
  // the fast block, another branch landing on it, the operands exchanged.
  for (const char *name : {"fold_bad_fast", "fold_bad_mask", "fold_bad_escape", "fold_bad_landing", "fold_bad_operands"}) {
    INFO(name);
    CHECK_FALSE(transpose::foldDivFastPaths(*m, kernelNamed(*m, name)));
  }
}

TEST_CASE("a grid-stride loop with a 64-bit counter is traced to one iteration", "[transpose][counted]") {
  auto m = loadInput("counted.ptx");
  std::string why;
  auto gs = transpose::unloopCounted(*m, kernelNamed(*m, "ct_transpose"), why);
  REQUIRE(gs);
  CHECK(why.empty());
  checkOneIteration(*gs->kernel);
  const std::string ops = text(*m, *gs->kernel);
  CHECK(ops.find("div.u64") == std::string::npos);  // the trip count: dead
  CHECK(ops.find("div.s32") != std::string::npos);  // the body's own i / W
  REQUIRE(gs->conds.size() == 1);
  CHECK(gs->conds[0].dim == 0);
  CHECK(gs->conds[0].params == std::vector<uint32_t>{2, 3});  // n = H * W
}

TEST_CASE("a size_t loop's latch is decided; a stride of two grids is not", "[transpose][counted]") {
  auto m = loadInput("counted.ptx");
  std::string why;
  auto gs = transpose::unloopCounted(*m, kernelNamed(*m, "ct_loop_u8"), why);
  REQUIRE(gs);
  REQUIRE(gs->conds.size() == 1);
  CHECK(gs->conds[0].params == std::vector<uint32_t>{4});  // its own bound n
  CHECK_FALSE(transpose::unloopCounted(*m, kernelNamed(*m, "ct_step2"), why));
  CHECK(why == "a grid-stride loop with a 64-bit counter: a branch the trace cannot decide");
}

TEST_CASE("the trace decides integer compares only, as the machine reads them", "[transpose][counted]") {
  // ct_transpose with a branch after the guard on two float constants (2.0
  // > 1.0, taken at run time) and one on an unsigned compare of -1 (0xff..ff
  // < 5, not taken): neither may be decided from integer values (a float
  // literal is no integer; -1 unsigned is 2^64 - 1), so the trace refuses.
  std::ifstream in(std::string(PTXOPT_SOURCE_DIR) + "/tests/lit/transpose/Inputs/counted.ptx");
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  const size_t from = text.find(".visible .entry ct_transpose(");
  REQUIRE(from != std::string::npos);
  const std::string kernel = text.substr(from, text.find("\n}\n", from) + 3 - from);
  auto edited = [&](const std::string &branch) {
    std::string k = kernel;
    const std::string guard = "@%p1 bra \t$L__BB0_9;";
    REQUIRE(k.find(guard) != std::string::npos);
    k.replace(k.find(guard), guard.size(), guard + "\n" + branch + "\n\t@%ptest bra \t$L__BB0_8;");
    k.replace(k.find(".reg .pred \t%p<7>;"), 18, ".reg .pred \t%p<7>;\n\t.reg .pred %ptest;\n\t.reg .f32 %ftest;\n\t.reg .b64 %rdtest;");
    return std::string(kHeader) + k;
  };
  for (const std::string &branch :
       {std::string("\tmov.f32 %ftest, 0f40000000;\n\tsetp.gt.f32 %ptest, %ftest, 0f3F800000;"),
        std::string("\tmov.u64 %rdtest, -1;\n\tsetp.lt.u64 %ptest, %rdtest, 5;")}) {
    INFO(branch);
    auto m = parseOk(edited(branch));
    std::string why;
    CHECK_FALSE(transpose::unloopCounted(*m, kernelNamed(*m, "ct_transpose"), why));
    CHECK(why == "a grid-stride loop with a 64-bit counter: a branch the trace cannot decide");
  }
}

TEST_CASE("a 64-bit grid-stride loop over a compile-time range is traced, its bound a constant", "[transpose][counted]") {
  auto m = loadInput("constdiv.ptx");
  std::string why;
  auto gs = transpose::unloopCounted(*m, kernelNamed(*m, "cd_gridstride64"), why);
  REQUIRE(gs);
  CHECK(why.empty());
  checkOneIteration(*gs->kernel);
  REQUIRE(gs->conds.size() == 1);
  CHECK(gs->conds[0].params.empty());
  CHECK(gs->conds[0].times == 37 * 40);  // i < 1480: nvcc's guard i > 1479
}
