#include "Helpers.h"

#include <cstring>

using namespace ptxopt;
using namespace ptxopt::ir;

static const std::string kKernel = std::string(kHeader) +
                                   "// a comment\n"
                                   ".visible .entry k(\n\t.param .u64 k_p0\n)\n{\n"
                                   "\t.reg .b32 \t%r<5>;   // trailing\n"
                                   "\t.reg .b64 %rd<3>;\n\n"
                                   "\tld.param.u64 \t%rd1, [k_p0];\n"
                                   "\tmov.u32 \t%r1,%tid.x;\n"
                                   "$L__BB0_1:\n"
                                   "\t{ // callseq\n\t.reg .b32 t;\n\t}\n"
                                   "\tret;\n}\n\n";

TEST_CASE("lossless printing reproduces the input byte for byte", "[printer]") {
  auto m = parseOk(kKernel);
  CHECK(printModule(*m) == kKernel);
}

TEST_CASE("canonical form ignores whitespace and comments", "[printer]") {
  std::string variant = kKernel;
  // Tabs to spaces, blank lines and comments added, spacing after commas removed.
  for (auto &c : variant)
    if (c == '\t') c = ' ';
  variant.insert(variant.find(".visible"), "\n\n/* block */\n");
  auto a = parseOk(kKernel), b = parseOk(variant);
  std::string ca = printModule(*a, PrintMode::Canonical);
  CHECK(ca == printModule(*b, PrintMode::Canonical));
  CHECK(ca.find("comment") == std::string::npos);
  CHECK(ca.find("\tmov.u32 %r1, %tid.x;\n") != std::string::npos);
  CHECK(ca.find("\t.reg .b32 %r<5>;\n") != std::string::npos);
  // A fixed point.
  auto c = parseOk(ca);
  CHECK(printModule(*c, PrintMode::Canonical) == ca);
}

TEST_CASE("an edited instruction prints from the IR, the rest from the source", "[printer]") {
  auto m = parseOk(kKernel);
  auto &k = *m->kernels()[0];
  auto &mov = const_cast<Instruction &>(nthInstr(k, 1));
  mov.operands[1].text = "%tid.y";
  mov.edited = true;
  std::string out = printModule(*m);
  std::string expect = kKernel;
  expect.replace(expect.find("mov.u32 \t%r1,%tid.x;"), strlen("mov.u32 \t%r1,%tid.x;"), "mov.u32 %r1, %tid.y;");
  CHECK(out == expect);
}

TEST_CASE("inserted statements print on their own line", "[printer]") {
  auto m = parseOk(kKernel);
  auto &k = *m->kernels()[0];
  auto in = std::make_unique<Instruction>();
  in->opcode = "add.s32";
  in->operands = {Operand::reg("%r2"), Operand::reg("%r1"), Operand::imm("1")};
  // After the mov (index 4: reg, reg, ld, mov).
  k.body->body.insert(k.body->body.begin() + 4, std::move(in));
  std::string out = printModule(*m);
  CHECK(out.find("\tmov.u32 \t%r1,%tid.x;\n\tadd.s32 %r2, %r1, 1;\n$L__BB0_1:") != std::string::npos);
}
