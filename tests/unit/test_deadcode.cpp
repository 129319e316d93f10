// Dead-code removal on clones (src/transforms/DeadCode.cpp): what goes (pure
// instructions nothing reads, in chains) and what stays (anything read,
// including through a guard, an address, a later block or itself; stores,
// loads other than ld.param, branches).
#include "Helpers.h"

#include "transforms/CloneUtil.h"

using namespace ptxopt;

namespace {

std::string run(const std::string &body, size_t *removed = nullptr) {
  auto m = parseOk(std::string(kHeader) +
                   ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
                   "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n" +
                   body + "}\n");
  size_t n = transforms::clone::removeDeadCode(*m->kernels()[0]);
  if (removed) *removed = n;
  return printModule(*m);
}

}  // namespace

TEST_CASE("dead code: unread pure chains go, what is read stays", "[deadcode]") {
  size_t removed = 0;
  std::string out = run("\tld.param.u64 %rd1, [p];\n"
                        "\tld.param.u32 %r1, [n];\n"
                        "\tmov.u32 %r2, %tid.x;\n"
                        "\tmad.lo.u32 %r3, %r2, 16, 1;\n"   // dead
                        "\tshl.b32 %r4, %r3, 2;\n"          // dead: reads only r3
                        "\tsetp.ge.u32 %p1, %r2, %r1;\n"    // read by the guard below
                        "\tcvta.to.global.u64 %rd2, %rd1;\n"
                        "\tmul.wide.u32 %rd3, %r2, 4;\n"
                        "\tadd.s64 %rd4, %rd2, %rd3;\n"     // read by the address
                        "\tadd.s32 %r5, %r5, 1;\n"          // reads itself: kept
                        "\tld.global.u32 %r6, [%rd4];\n"    // a global load: kept though unread
                        "\t@%p1 bra $L1;\n"
                        "\tst.global.u32 [%rd4], %r2;\n"
                        "$L1:\n"
                        "\tadd.s32 %r7, %r2, 3;\n"          // dead
                        "\tret;\n",
                        &removed);
  CHECK(removed == 3);
  CHECK(out.find("mad.lo.u32 %r3") == std::string::npos);
  CHECK(out.find("shl.b32 %r4") == std::string::npos);
  CHECK(out.find("add.s32 %r7") == std::string::npos);
  for (const char *kept : {"ld.param.u32 %r1", "setp.ge.u32 %p1", "add.s64 %rd4", "add.s32 %r5, %r5, 1",
                           "ld.global.u32 %r6", "st.global.u32", "@%p1 bra"})
    CHECK(out.find(kept) != std::string::npos);
}

TEST_CASE("dead code: a register read anywhere keeps all its definitions", "[deadcode]") {
  size_t removed = 0;
  // r2 is defined twice and read once, after a label (flow-insensitive:
  // both definitions stay); nothing goes.
  std::string out = run("\tmov.u32 %r2, 1;\n"
                        "\tld.param.u32 %r1, [n];\n"
                        "\tsetp.eq.u32 %p1, %r1, 0;\n"
                        "\t@%p1 bra $L1;\n"
                        "\tmov.u32 %r2, 2;\n"
                        "$L1:\n"
                        "\tld.param.u64 %rd1, [p];\n"
                        "\tst.global.u32 [%rd1], %r2;\n"
                        "\tret;\n",
                        &removed);
  CHECK(removed == 0);
  CHECK(out.find("mov.u32 %r2, 1;") != std::string::npos);
  CHECK(out.find("mov.u32 %r2, 2;") != std::string::npos);
}
