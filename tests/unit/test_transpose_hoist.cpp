// The values the tiled clone's copies share (TransposeHoist.cpp): which of
// a kernel's instructions findSharedValues takes, and which it must leave
// in the copies (per logical thread, defined twice, in a loop, read before
// written, guarded, memory other than the parameters, division, a carry
// chain).
#include <set>

#include "Helpers.h"

#include "transforms/Transpose.h"

using namespace ptxopt;
using namespace ptxopt::transforms;

namespace {

std::set<std::string> sharedDefs(const std::string &body, const std::set<std::string> &renamed) {
  const std::string text = std::string(kHeader) +
                           ".visible .entry k(.param .u64 k_p0, .param .u32 k_p1, .param .u32 k_p2)\n{\n"
                           ".reg .pred %p<4>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n" +
                           body + "}\n";
  auto m = parseOk(text);
  std::set<std::string> out;
  for (const ir::Instruction *in : transpose::findSharedValues(*m->kernels()[0], renamed))
    out.insert(std::string(in->operands[0].text));
  return out;
}

const std::set<std::string> kRenamed = {"%ctaid.x", "%nctaid.x", "%ctaid.y", "%nctaid.y"};

}  // namespace

TEST_CASE("parameters, the batch index and what is computed from them only are shared", "[transpose][hoist]") {
  const auto s = sharedDefs(R"(
ld.param.u64 %rd1, [k_p0];
ld.param.u32 %r1, [k_p1];
mov.u32 %r2, %ctaid.z;
mov.u32 %r3, %tid.x;
mov.u32 %r4, %ctaid.x;
mul.lo.s32 %r5, %r2, %r1;
add.s32 %r6, %r5, %r3;
mad.lo.s32 %r7, %r4, %r1, %r2;
setp.ge.s32 %p1, %r5, %r1;
@%p1 bra $L1;
cvta.to.global.u64 %rd2, %rd1;
mul.wide.s32 %rd3, %r6, 4;
add.s64 %rd4, %rd2, %rd3;
ld.global.u32 %r8, [%rd4];
$L1:
ret;
)",
                            kRenamed);
  // Shared: the parameters, %ctaid.z (not renamed), and values of those
  // alone, in a branch or not.
  CHECK(s == std::set<std::string>{"%rd1", "%r1", "%r2", "%r5", "%p1", "%rd2"});
}

TEST_CASE("values of renamed indices, memory, division, guards, loops and redefinitions stay in the copies",
          "[transpose][hoist]") {
  const auto s = sharedDefs(R"(
ld.param.u32 %r1, [k_p1];
ld.param.u32 %r2, [k_p2];
mov.u32 %r3, %ctaid.y;
mov.u32 %r4, %nctaid.x;
div.u32 %r5, %r1, %r2;
add.s32 %r6, %r1, 1;
add.s32 %r6, %r6, 1;
@%p1 add.s32 %r7, %r1, 2;
add.s32 %r8, %r9, 0;
add.s32 %r9, %r1, 3;
ld.param.u64 %rd1, [k_p0];
ld.global.u32 %r10, [%rd1];
$L2:
add.s32 %r11, %r1, %r2;
setp.lt.s32 %p2, %r11, %r2;
@%p2 bra $L2;
ret;
)",
                            kRenamed);
  // Only the two parameter loads and the pointer: %ctaid.y and %nctaid.x
  // are renamed, %r5 divides, %r6 is written twice, %r7 guarded, %r9 read
  // before it is written, %r10 loaded from global memory, %r11 and %p2 in a
  // loop.
  CHECK(s == std::set<std::string>{"%r1", "%r2", "%rd1"});
}

TEST_CASE("a carry chain stays in the copies, both its steps", "[transpose][hoist]") {
  // The carry flag passes from add.cc to addc outside their operands:
  // computing the first once, before the copies, would leave each copy's
  // addc another carry.
  const auto s = sharedDefs(R"(
ld.param.u32 %r1, [k_p1];
ld.param.u32 %r2, [k_p2];
add.cc.u32 %r3, %r1, %r2;
addc.u32 %r4, %r1, %r2;
mad.lo.cc.u32 %r5, %r1, %r2, %r1;
madc.hi.u32 %r6, %r1, %r2, %r2;
ret;
)",
                            kRenamed);
  CHECK(s == std::set<std::string>{"%r1", "%r2"});
}

TEST_CASE("a kernel with nested scopes shares nothing", "[transpose][hoist]") {
  const auto s = sharedDefs("ld.param.u32 %r1, [k_p1];\n{\n.reg .b32 t;\nmov.u32 t, %r1;\n}\nret;\n", kRenamed);
  CHECK(s.empty());
}
