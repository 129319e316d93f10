// CFG, reaching definitions, affine values, accesses and divergence on
// hand-written PTX whose answers are known.
#include <set>

#include "Helpers.h"

#include "ptxopt/analysis/AnalysisManager.h"

using namespace ptxopt;
using namespace ptxopt::analysis;

namespace {

struct Fixture {
  explicit Fixture(const std::string &body, const std::string &params = "(.param .u64 p, .param .u32 n)")
      : m(parseOk(std::string(kHeader) + ".visible .entry k" + params + "\n{\n" + body + "}\n")), am(*m) {}
  std::unique_ptr<ir::Module> m;
  AnalysisManager am;
  FunctionAnalyses &fa() { return am.get(*m->kernels()[0]); }
  const std::vector<AccessInfo> &acc() { return fa().accesses(); }
  std::string addr(size_t i) { return fa().affine().str(acc().at(i).address); }
};

const char *kRegs = ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<32>;\n";

}  // namespace

TEST_CASE("polynomials: arithmetic, coefficients and overflow", "[affine]") {
  Poly a = Poly::symbol(0), b = Poly::symbol(1), two = Poly::constant(2), r, s;
  REQUIRE(Poly::mul(a, b, r));  // x*y
  REQUIRE(Poly::add(r, a, s));  // x*y + x
  bool nonlinear;
  Poly cx = s.coefficientOf(0, nonlinear);  // y + 1
  CHECK_FALSE(nonlinear);
  CHECK(cx.constantTerm() == 1);
  CHECK(cx.contains(1));
  Poly sq;
  REQUIRE(Poly::mul(a, a, sq));
  sq.coefficientOf(0, nonlinear);
  CHECK(nonlinear);
  REQUIRE(Poly::mul(two, a, r));
  REQUIRE(Poly::add(r, Poly::constant(-2), r));
  CHECK_FALSE(r.isConstant());
  Poly big = Poly::constant(INT64_MAX), out;
  CHECK_FALSE(Poly::add(big, Poly::constant(1), out));
  CHECK_FALSE(Poly::scale(big, 2, out));
}

TEST_CASE("a guarded write does not hide the value before it", "[defs]") {
  Fixture f(std::string(kRegs) +
            "mov.u32 %r1, %tid.x;\n"
            "setp.eq.s32 %p1, %r1, 0;\n"
            "mov.u32 %r2, 1;\n"
            "@%p1 mov.u32 %r2, 2;\n"
            "add.s32 %r3, %r2, 0;\n"
            "ret;\n");
  auto defs = f.fa().defs().defsAt(4, "%r2");
  CHECK(defs == std::vector<uint32_t>{2, 3});
  // So the value is unknown, not 2.
  Value v = f.fa().affine().operandValue(4, ir::Operand::reg("%r2"));
  CHECK_FALSE(v.known);
}

TEST_CASE("registers written by one instruction: dominance and paths decide", "[defs]") {
  // These registers have no bits in the reaching definitions' vectors
  // (ReachingDefs.cpp): each answer comes from dominance and reachability.
  Fixture f(std::string(kRegs) +
            "mov.u32 %r1, %tid.x;\n"       // 0
            "setp.eq.s32 %p1, %r1, 0;\n"   // 1
            "@%p1 bra $L_skip;\n"          // 2
            "mov.u32 %r2, 7;\n"            // 3: on one path only
            "$L_skip:\n"
            "add.s32 %r3, %r2, %r1;\n"     // 4
            "@%p1 mov.u32 %r4, 1;\n"       // 5: guarded
            "add.s32 %r5, %r4, %r3;\n"     // 6
            "mov.u32 %r6, 0;\n"            // 7
            "$L_loop:\n"
            "add.s32 %r7, %r8, %r6;\n"     // 8: %r8 is written later in the loop
            "add.s32 %r6, %r6, 1;\n"       // 9
            "mov.u32 %r8, %r6;\n"          // 10
            "setp.lt.s32 %p2, %r6, 10;\n"  // 11
            "@%p2 bra $L_loop;\n"          // 12
            "add.s32 %r9, %r3, %r9;\n"     // 13: reads its own destination first
            "add.s32 %r11, %r10, 0;\n"     // 14: %r10 is never written
            "ret;\n");
  const ReachingDefs &rd = f.fa().defs();
  const uint32_t E = ReachingDefs::kEntry;
  CHECK(rd.defsAt(4, "%r1") == std::vector<uint32_t>{0});     // a dominating write
  CHECK(rd.defsAt(4, "%r2") == std::vector<uint32_t>{3, E});  // the path around it keeps the entry value
  CHECK(rd.defsAt(6, "%r4") == std::vector<uint32_t>{5, E});  // a guarded write hides nothing
  CHECK(rd.defsAt(8, "%r8") == std::vector<uint32_t>{10, E}); // through the back edge, and from before the loop
  CHECK(rd.defsAt(9, "%r6") == std::vector<uint32_t>{7, 9});  // written twice: the bit vectors
  CHECK(rd.defsAt(13, "%r3") == std::vector<uint32_t>{4});
  CHECK(rd.defsAt(13, "%r9") == std::vector<uint32_t>{E});    // its write comes after the read, outside any loop
  CHECK(rd.defsAt(14, "%r10") == std::vector<uint32_t>{E});
  CHECK(rd.writtenOnce(rd.registerId("%r2")));
  CHECK_FALSE(rd.writtenOnce(rd.registerId("%r6")));
}

TEST_CASE("values that differ by path are unknown; equal ones are not", "[affine]") {
  const std::string diamond = std::string(kRegs) +
                              "mov.u32 %r1, %tid.x;\n"
                              "setp.eq.s32 %p1, %r1, 0;\n"
                              "@%p1 bra A;\n"
                              "mul.lo.s32 %r2, %r1, 2;\n"
                              "bra.uni J;\n"
                              "A:\n"
                              "mul.lo.s32 %r2, %r1, %EXPR%;\n"
                              "J:\n"
                              "ld.param.u64 %rd1, [p];\n"
                              "mul.wide.s32 %rd2, %r2, 4;\n"
                              "add.s64 %rd3, %rd1, %rd2;\n"
                              "ld.global.u32 %r3, [%rd3];\n"
                              "ret;\n";
  auto with = [&](const std::string &e) {
    std::string s = diamond;
    s.replace(s.find("%EXPR%"), 6, e);
    return s;
  };
  Fixture differ(with("3"));
  REQUIRE(differ.acc().size() == 1);
  CHECK(differ.acc()[0].verdict == AccessInfo::Verdict::Unknown);
  CHECK_THAT(differ.addr(0), Catch::Contains("differs by path"));
  Fixture same(with("2"));
  REQUIRE(same.acc().size() == 1);
  CHECK(same.addr(0) == "param(p) + 8*%tid.x");
  CHECK(same.acc()[0].sectors == 8u);  // stride 8, width 4: 256 bytes
  CHECK(same.acc()[0].verdict == AccessInfo::Verdict::Uncoalesced);
}

TEST_CASE("nested loops: strides along each counter, constant trip counts", "[affine][loops]") {
  // for (i = 0; i < 4; i++) for (j = 0; j < 8; j++) p[(i*64 + j*32 + tid.x)] (ints)
  Fixture f(std::string(kRegs) +
            "ld.param.u64 %rd1, [p];\n"
            "mov.u32 %r1, %tid.x;\n"
            "mov.u32 %r2, 0;\n"
            "OUTER:\n"
            "mov.u32 %r3, 0;\n"
            "INNER:\n"
            "mad.lo.s32 %r4, %r2, 64, %r1;\n"
            "mad.lo.s32 %r5, %r3, 32, %r4;\n"
            "mul.wide.u32 %rd2, %r5, 4;\n"
            "add.s64 %rd3, %rd1, %rd2;\n"
            "st.global.u32 [%rd3], %r5;\n"
            "add.s32 %r3, %r3, 1;\n"
            "setp.lt.u32 %p1, %r3, 8;\n"
            "@%p1 bra INNER;\n"
            "add.s32 %r2, %r2, 1;\n"
            "setp.lt.u32 %p2, %r2, 4;\n"
            "@%p2 bra OUTER;\n"
            "ret;\n");
  REQUIRE(f.fa().loops().loops().size() == 2);
  REQUIRE(f.acc().size() == 1);
  const auto &a = f.acc()[0];
  CHECK(a.verdict == AccessInfo::Verdict::Coalesced);
  std::map<std::string, std::string> strides;
  for (const auto &s : a.strides) strides[s.var] = s.bytes;
  CHECK(strides["%tid.x"] == "4");
  CHECK(strides.size() == 3);
  // Loop 0 is the outer loop (more blocks), loop 1 the inner one.
  CHECK(strides["k0"] == "256");
  CHECK(strides["k1"] == "128");
  bool sawInner = false, sawOuter = false;
  for (const auto &iv : f.fa().affine().inductionVars()) {
    if (iv.reg == "%r3") {
      sawInner = true;
      CHECK(iv.tripConstant == 8);
    }
    if (iv.reg == "%r2") {
      sawOuter = true;
      CHECK(iv.tripConstant == 4);
    }
  }
  CHECK(sawInner);
  CHECK(sawOuter);
  // Unsigned 32-bit index math widened: noted.
  CHECK(std::any_of(a.notes.begin(), a.notes.end(),
                    [](const std::string &n) { return n.find("did not wrap") != std::string::npos; }));
}

TEST_CASE("a counter updated only on some iterations is not an induction variable", "[affine][loops]") {
  Fixture f(std::string(kRegs) +
            "ld.param.u64 %rd1, [p];\n"
            "mov.u32 %r1, 0;\n"
            "mov.u32 %r9, 0;\n"
            "L:\n"
            "setp.eq.s32 %p1, %r9, 3;\n"
            "@%p1 bra SKIP;\n"
            "add.s32 %r1, %r1, 1;\n"
            "SKIP:\n"
            "mul.wide.s32 %rd2, %r1, 4;\n"
            "add.s64 %rd3, %rd1, %rd2;\n"
            "st.global.u32 [%rd3], %r1;\n"
            "add.s32 %r9, %r9, 1;\n"
            "setp.lt.s32 %p2, %r9, 10;\n"
            "@%p2 bra L;\n"
            "ret;\n");
  REQUIRE(f.acc().size() == 1);
  // The count is the same for every thread (a Uniform symbol set in the
  // loop): the same address for the whole warp, but no stride along k0.
  CHECK(f.acc()[0].verdict == AccessInfo::Verdict::Uniform);
  CHECK_THAT(f.addr(0), Catch::Contains("u(%r1@SKIP)"));
  REQUIRE(f.acc()[0].strides.size() == 1);
  CHECK(f.acc()[0].strides[0].var == "k0");
  CHECK(f.acc()[0].strides[0].bytes == "unknown");
  CHECK_FALSE(f.acc()[0].strides[0].constant);
  // Skipped on a thread-dependent condition: it differs by thread.
  Fixture g(std::string(kRegs) +
            "ld.param.u64 %rd1, [p];\n"
            "mov.u32 %r1, 0;\n"
            "mov.u32 %r9, 0;\n"
            "mov.u32 %r8, %tid.x;\n"
            "L:\n"
            "setp.eq.s32 %p1, %r9, %r8;\n"
            "@%p1 bra SKIP;\n"
            "add.s32 %r1, %r1, 1;\n"
            "SKIP:\n"
            "mul.wide.s32 %rd2, %r1, 4;\n"
            "add.s64 %rd3, %rd1, %rd2;\n"
            "st.global.u32 [%rd3], %r1;\n"
            "add.s32 %r9, %r9, 1;\n"
            "setp.lt.s32 %p2, %r9, 10;\n"
            "@%p2 bra L;\n"
            "ret;\n");
  REQUIRE(g.acc().size() == 1);
  CHECK(g.acc()[0].verdict == AccessInfo::Verdict::Unknown);
  CHECK(g.acc()[0].cause == UnknownCause::PathDependent);
}

TEST_CASE("special registers other than the indices are unknown", "[affine]") {
  Fixture f(std::string(kRegs) +
            "ld.param.u64 %rd1, [p];\n"
            "mov.u32 %r1, %laneid;\n"
            "mul.wide.u32 %rd2, %r1, 4;\n"
            "add.s64 %rd3, %rd1, %rd2;\n"
            "st.global.u32 [%rd3], %r1;\n"
            "ret;\n");
  REQUIRE(f.acc().size() == 1);
  CHECK_THAT(f.addr(0), Catch::Contains("special register %laneid"));
}

TEST_CASE("divergence: thread index, loaded value, parameter", "[divergence]") {
  Fixture f(std::string(kRegs) +
            "ld.param.u64 %rd1, [p];\n"
            "ld.param.u32 %r1, [n];\n"
            "mov.u32 %r2, %tid.x;\n"
            "setp.lt.u32 %p1, %r2, %r1;\n"
            "@%p1 bra A;\n"
            "A:\n"
            "ld.global.u32 %r3, [%rd1];\n"
            "setp.eq.s32 %p2, %r3, 0;\n"
            "@%p2 bra B;\n"
            "B:\n"
            "setp.eq.s32 %p3, %r1, 0;\n"
            "@%p3 bra C;\n"
            "C:\n"
            "ret;\n");
  const auto &d = f.fa().divergence();
  REQUIRE(d.size() == 2);
  CHECK(d[0].instr == 4);
  CHECK(d[0].certain);
  CHECK(d[0].why == "%tid.x");
  CHECK(d[1].instr == 7);
  CHECK_FALSE(d[1].certain);
}

TEST_CASE("CFG edges: fall-through, branches, returns, unreachable code", "[cfg]") {
  Fixture f(std::string(kRegs) +
            "mov.u32 %r1, 1;\n"
            "bra.uni L2;\n"
            "mov.u32 %r1, 2;\n"  // unreachable
            "L2:\n"
            "ret;\n");
  const CFG &cfg = f.fa().cfg();
  REQUIRE(cfg.blocks().size() == 3);
  CHECK(cfg.blocks()[0].succs == std::vector<uint32_t>{2});
  CHECK_FALSE(cfg.blocks()[1].reachable);
  CHECK(cfg.exits() == std::vector<uint32_t>{2});
  CHECK(f.fa().dom().dominates(0, 2));
  CHECK_FALSE(f.fa().dom().dominates(1, 2));
}

TEST_CASE("and/or on disjoint bit fields are additions (Triton's index arithmetic)", "[affine]") {
  // 4*tid.x & 508 | ctaid.x << 10 | 512, with .reqntid 128: tid.x < 128.
  const std::string body = std::string(kRegs) +
                           "ld.param.u64 %rd1, [p];\n"
                           "mov.u32 %r1, %ctaid.x;\n"
                           "shl.b32 %r2, %r1, 10;\n"
                           "mov.u32 %r3, %tid.x;\n"
                           "shl.b32 %r4, %r3, 2;\n"
                           "and.b32 %r5, %r4, 508;\n"
                           "or.b32 %r6, %r5, %r2;\n"
                           "or.b32 %r7, %r6, 512;\n"
                           "mul.wide.s32 %rd2, %r7, 4;\n"
                           "add.s64 %rd3, %rd1, %rd2;\n"
                           "ld.global.v4.b32 {%r8, %r9, %r10, %r11}, [%rd3];\n"
                           "ret;\n";
  Fixture bounded(body, "(.param .u64 p, .param .u32 n)\n.reqntid 128");
  REQUIRE(bounded.acc().size() == 1);
  CHECK(bounded.addr(0) == "param(p) + 16*%tid.x + 4096*%ctaid.x + 2048");
  CHECK(bounded.acc()[0].verdict == AccessInfo::Verdict::Coalesced);
  // Without the block-size bound, 4*tid.x may reach bit 11 and overlap the mask.
  Fixture unbounded(body);
  REQUIRE(unbounded.acc().size() == 1);
  CHECK_THAT(unbounded.addr(0), Catch::Contains("and.b32"));
}

namespace {
/// The value the last write of `reg` in `body` gives it, as text.
std::string lastValue(Fixture &f, std::string_view reg) {
  const auto &cfg = f.fa().cfg();
  for (uint32_t i = static_cast<uint32_t>(cfg.instructions().size()); i-- > 0;)
    for (auto r : f.fa().defs().defUse(i).defs)
      if (r == reg) return f.fa().affine().str(f.fa().affine().definitionValue(i, reg));
  return "not written";
}
}  // namespace

TEST_CASE("known bits: trailing zeros and bounds make bit operations affine", "[affine][bits]") {
  auto value = [](const std::string &code, std::string_view reg, const std::string &params = "(.param .u64 p, .param .u32 n)") {
    Fixture f(std::string(kRegs) + "ld.param.u32 %r1, [n];\nmov.u32 %r2, %tid.x;\n" + code + "ret;\n", params);
    return lastValue(f, reg);
  };
  // or/xor with a value below 2^tz: an addition, whatever the sign of n.
  CHECK(value("shl.b32 %r3, %r1, 10;\nor.b32 %r4, %r3, 1;\n", "%r4") == "1024*param(n) + 1");
  CHECK(value("shl.b32 %r3, %r1, 4;\nxor.b32 %r4, %r3, 15;\n", "%r4") == "16*param(n) + 15");
  CHECK_THAT(value("shl.b32 %r3, %r2, 4;\nor.b32 %r4, %r3, 16;\n", "%r4"), Catch::Contains("may overlap"));
  // xor with all ones is not: -x-1; so is not.
  CHECK(value("xor.b32 %r4, %r2, -1;\n", "%r4") == "-%tid.x - 1");
  CHECK(value("xor.b32 %r4, %r2, 0xFFFFFFFF;\n", "%r4") == "-%tid.x - 1");
  CHECK(value("not.b32 %r4, %r2;\n", "%r4") == "-%tid.x - 1");
  // and with a mask that only clears known-zero low bits.
  CHECK(value("shl.b32 %r3, %r1, 2;\nand.b32 %r4, %r3, -4;\n", "%r4") == "4*param(n)");
  CHECK(value("shl.b32 %r3, %r1, 2;\nand.b32 %r4, %r3, 0xFFFFFFFC;\n", "%r4") == "4*param(n)");
  CHECK_THAT(value("shl.b32 %r3, %r2, 1;\nand.b32 %r4, %r3, -4;\n", "%r4"), Catch::Contains("unknown"));
  // A parameter's bits are not known, but the result is the same for every thread.
  CHECK(value("shl.b32 %r3, %r1, 1;\nand.b32 %r4, %r3, -4;\n", "%r4") == "u(%r4@3)");
  // Exact right shifts: arithmetic on any multiple, logical only on a non-negative one.
  CHECK(value("shl.b32 %r3, %r1, 3;\nshr.s32 %r4, %r3, 2;\n", "%r4") == "2*param(n)");
  CHECK_THAT(value("ld.global.u32 %r5, [%rd9];\nshl.b32 %r3, %r5, 3;\nshr.u32 %r4, %r3, 2;\n", "%r4"),
             Catch::Contains("unknown"));
  CHECK(value("shl.b32 %r3, %r2, 3;\nshr.u32 %r4, %r3, 2;\n", "%r4") == "2*%tid.x");
  CHECK_THAT(value("shr.u32 %r4, %r2, 5;\n", "%r4"), Catch::Contains("unknown"));
  // A remainder smaller than the divisor is the value; bfe/bfi fields.
  CHECK(value("rem.u32 %r4, %r2, 1024;\n", "%r4") == "%tid.x");
  CHECK_THAT(value("rem.u32 %r4, %r2, 32;\n", "%r4"), Catch::Contains("unknown"));
  CHECK(value("bfe.u32 %r4, %r2, 0, 10;\n", "%r4") == "%tid.x");
  CHECK(value("and.b32 %r3, %r2, 31;\nbfi.b32 %r4, %r1, %r3, 5, 27;\n", "%r4", "(.param .u64 p, .param .u32 n)\n.maxntid 32") ==
        "32*param(n) + %tid.x");
  CHECK_THAT(value("bfi.b32 %r4, %r1, %r2, 5, 27;\n", "%r4"), Catch::Contains("unknown"));
  // Selects and min/max of equal values.
  CHECK(value("setp.lt.s32 %p1, %r2, 4;\nselp.b32 %r4, %r1, %r1, %p1;\n", "%r4") == "param(n)");
  CHECK(value("min.s32 %r4, %r2, %r2;\n", "%r4") == "%tid.x");
}

TEST_CASE("known bits: facts of unknown values", "[affine][bits]") {
  // From a load: not the same for every thread, so unknown with facts.
  Fixture f(std::string(kRegs) +
            "ld.global.u32 %r1, [%rd9];\n"        // 0
            "and.b32 %r3, %r1, 255;\n"            // 1: [0, 255]
            "shl.b32 %r4, %r3, 4;\n"              // 2: [0, 4080], multiple of 16
            "shr.u32 %r5, %r1, 20;\n"             // 3: [0, 4095]
            "min.u32 %r6, %r1, 100;\n"            // 4: [0, 100]
            "min.s32 %r7, %r1, 100;\n"            // 5: may be negative
            "rem.u32 %r8, %r1, 12;\n"             // 6: [0, 11]
            "ret;\n");
  auto &aff = f.fa().affine();
  auto v = [&](uint32_t i, const char *r) { return aff.definitionValue(i, r); };
  CHECK(v(1, "%r3").umax == 255u);
  CHECK(v(2, "%r4").umax == 4080u);
  CHECK(v(2, "%r4").tz == 4);
  CHECK(v(3, "%r5").umax == 4095u);
  CHECK(v(4, "%r6").umax == 100u);
  CHECK_FALSE(v(5, "%r7").umax);
  CHECK(v(6, "%r8").umax == 11u);
}

TEST_CASE("sectors of a negative stride: the mirror image of the positive one", "[access]") {
  CHECK(warpSectors(-4, 4) == 4);
  CHECK(warpSectors(4, 4) == 4);
  CHECK(warpSectors(-8, 8) == 8);
  CHECK(warpSectors(-128, 4) == 32);
}

TEST_CASE("sectors counted in one sweep equal the sectors of every byte a warp touches", "[access]") {
  // The definition: lane l touches bytes [l*s, l*s + w); count their distinct 32-byte sectors.
  auto bySet = [](int64_t s, unsigned w) {
    if (s < 0) s = -s;
    std::set<int64_t> sectors;
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t b = 0; b < w; ++b) sectors.insert((lane * s + b) / 32);
    return static_cast<unsigned>(sectors.size());
  };
  for (unsigned w : {1u, 2u, 4u, 8u, 12u, 16u, 32u, 64u})
    for (int64_t s = -300; s <= 300; ++s) {
      INFO("stride " << s << ", width " << w);
      CHECK(warpSectors(s, w) == bySet(s, w));
    }
  CHECK(warpSectors(int64_t{1} << 40, 4) == 32);
  CHECK(warpSectors(INT64_MIN, 4) == 32);
}

TEST_CASE("uniform merges: a uniform choice between uniform parts is a Uniform symbol", "[affine][uniform]") {
  // if (COND) r2 = A else r2 = B; address p + 4*r2.
  auto merged = [](const std::string &cond, const std::string &a, const std::string &b) {
    Fixture f(std::string(kRegs) +
              "ld.param.u32 %r1, [n];\n"
              "mov.u32 %r5, %tid.x;\n"
              "mov.u32 %r6, %ctaid.x;\n"
              "setp.eq.s32 %p1, " + cond + ", 0;\n"
              "@%p1 bra A;\n"
              "add.s32 %r2, %r5, " + a + ";\n"
              "bra.uni J;\n"
              "A:\n"
              "add.s32 %r2, %r5, " + b + ";\n"
              "J:\n"
              "ld.param.u64 %rd1, [p];\n"
              "mul.wide.s32 %rd2, %r2, 4;\n"
              "add.s64 %rd3, %rd1, %rd2;\n"
              "ld.global.u32 %r3, [%rd3];\n"
              "ret;\n");
    return std::make_pair(f.addr(0), f.acc()[0].verdict);
  };
  // Uniform condition, parts differing by a parameter: tid + u.
  auto [a1, v1] = merged("%r1", "%r1", "0");
  CHECK(a1 == "param(p) + 4*%tid.x + 4*u(%r2@J)");
  CHECK(v1 == AccessInfo::Verdict::Coalesced);
  // Thread-dependent condition: unknown.
  CHECK_THAT(merged("%r5", "%r1", "0").first, Catch::Contains("differs by path"));
  // Block-dependent condition: not the same for the grid, unknown.
  CHECK_THAT(merged("%r6", "%r1", "0").first, Catch::Contains("differs by path"));
  // Uniform condition but the parts differ in %tid.x: unknown.
  CHECK_THAT(merged("%r1", "%r5", "0").first, Catch::Contains("differs by path"));
}

TEST_CASE("uniformity levels and trip counts", "[uniform]") {
  Fixture f(std::string(kRegs) +
            "ld.param.u32 %r1, [n];\n"       // 0 grid
            "ld.param.u64 %rd1, [p];\n"      // 1 grid
            "ld.global.u32 %r2, [%rd1];\n"   // 2 thread: loaded
            "mov.u32 %r3, %ctaid.x;\n"       // 3 block
            "add.s32 %r4, %r3, %r1;\n"       // 4 block
            "mov.u32 %r5, %ntid.x;\n"        // 5 grid
            "div.s32 %r6, %r1, %r5;\n"       // 6 grid
            "mov.u32 %r7, 0;\n"              // 7
            "L:\n"
            "add.s32 %r7, %r7, 1;\n"         // 8
            "setp.lt.s32 %p1, %r7, %r6;\n"   // 9 grid
            "@%p1 bra L;\n"                  // 10
            "mov.u32 %r8, 0;\n"              // 11
            "M:\n"
            "add.s32 %r8, %r8, 1;\n"         // 12
            "setp.lt.s32 %p2, %r8, %r4;\n"   // 13 block
            "@%p2 bra M;\n"                  // 14
            "mov.u32 %r9, 0;\n"              // 15
            "N:\n"
            "add.s32 %r9, %r9, 1;\n"         // 16
            "setp.lt.s32 %p3, %r9, %r2;\n"   // 17 thread
            "@%p3 bra N;\n"                  // 18
            "ret;\n");
  auto &u = f.fa().affine().uniformity();
  CHECK(u.ofInstr(0) == UniformLevel::Grid);
  CHECK(u.ofInstr(2) == UniformLevel::Thread);
  CHECK(u.ofInstr(4) == UniformLevel::Block);
  CHECK(u.ofInstr(6) == UniformLevel::Grid);
  CHECK(u.ofInstr(9) == UniformLevel::Grid);
  CHECK(u.ofInstr(17) == UniformLevel::Thread);
  REQUIRE(f.fa().loops().loops().size() == 3);
  CHECK(f.fa().affine().tripCountUniformity(0) == UniformLevel::Grid);
  CHECK(f.fa().affine().tripCountUniformity(1) == UniformLevel::Block);
  CHECK(f.fa().affine().tripCountUniformity(2) == UniformLevel::Thread);
  // After a loop whose trip count differs by thread, its counter's exit value does too.
  CHECK(f.fa().affine().uniformLevel(18, "%r9") == UniformLevel::Grid);  // inside: the iteration it is at
  CHECK(f.fa().affine().uniformLevel(19, "%r9") == UniformLevel::Thread);
  CHECK(f.fa().affine().uniformLevel(15, "%r7") == UniformLevel::Grid);
}

TEST_CASE("a counter read after a loop whose trip count differs by thread is unknown", "[affine][uniform]") {
  // for (k = 1; k < tid; ++k); p[k]: k is tid (or 1) per thread, not 4*k0 + 4
  // for the whole warp (reported `uniform` before issue 15).
  const std::string body = std::string(kRegs) +
                           "ld.param.u64 %rd1, [p];\n"
                           "ld.param.u32 %r7, [n];\n"
                           "mov.u32 %r8, BOUND;\n"
                           "mov.u32 %r9, 0;\n"
                           "N:\n"
                           "add.s32 %r9, %r9, 1;\n"
                           "setp.lt.s32 %p3, %r9, %r8;\n"
                           "@%p3 bra N;\n"
                           "mul.wide.s32 %rd2, %r9, 4;\n"
                           "add.s64 %rd3, %rd1, %rd2;\n"
                           "st.global.u32 [%rd3], %r9;\n"
                           "ret;\n";
  auto with = [&](const std::string &bound) {
    std::string s = body;
    s.replace(s.find("BOUND"), 5, bound);
    return s;
  };
  Fixture thread(with("%tid.x"));
  REQUIRE(thread.acc().size() == 1);
  CHECK(thread.acc()[0].verdict == AccessInfo::Verdict::Unknown);
  CHECK(thread.acc()[0].cause == UnknownCause::PathDependent);
  // With a uniform bound every thread leaves at the same iteration.
  Fixture grid(with("%r7"));
  REQUIRE(grid.acc().size() == 1);
  CHECK(grid.acc()[0].verdict == AccessInfo::Verdict::Uniform);
}

TEST_CASE("a thread-dependent branch around a loop does not decide its counter", "[uniform]") {
  // for (o = 0; o < 8; ++o) { if (tid & 1) continue; for (j = 0; j < 6; ++j) p[j] = 0; }
  Fixture f(std::string(kRegs) +
            "ld.param.u64 %rd1, [p];\n"
            "mov.u32 %r1, %tid.x;\n"
            "and.b32 %r2, %r1, 1;\n"
            "mov.u32 %r3, 0;\n"
            "O:\n"
            "setp.ne.s32 %p1, %r2, 0;\n"
            "@%p1 bra NEXT;\n"
            "mov.u32 %r4, 0;\n"
            "I:\n"
            "mul.wide.s32 %rd2, %r4, 4;\n"
            "add.s64 %rd3, %rd1, %rd2;\n"
            "st.global.u32 [%rd3], %r4;\n"
            "add.s32 %r4, %r4, 1;\n"
            "setp.lt.s32 %p2, %r4, 6;\n"
            "@%p2 bra I;\n"
            "NEXT:\n"
            "add.s32 %r3, %r3, 1;\n"
            "setp.lt.s32 %p3, %r3, 8;\n"
            "@%p3 bra O;\n"
            "ret;\n");
  const auto &loops = f.fa().loops().loops();
  REQUIRE(loops.size() == 2);
  for (const auto &l : loops) CHECK(f.fa().affine().tripCountUniformity(l.id) == UniformLevel::Grid);
  REQUIRE(f.acc().size() == 1);
  CHECK(f.acc()[0].verdict == AccessInfo::Verdict::Uniform);
}

TEST_CASE("an instruction writing two registers gives each its own uniform symbol", "[affine][uniform]") {
  // mov.b64 {%r1, %r2}, %rd5 splits a parameter into its halves: both are
  // grid-uniform and opaque, but not equal, so p + 4*(r1 - r2) is not p.
  Fixture f(std::string(kRegs) +
            "ld.param.u64 %rd5, [n];\n"
            "mov.b64 {%r1, %r2}, %rd5;\n"
            "sub.s32 %r3, %r1, %r2;\n"
            "mov.u32 %r4, %tid.x;\n"
            "add.s32 %r6, %r3, %r4;\n"
            "ld.param.u64 %rd1, [p];\n"
            "mul.wide.s32 %rd2, %r6, 4;\n"
            "add.s64 %rd3, %rd1, %rd2;\n"
            "ld.global.u32 %r7, [%rd3];\n"
            "ret;\n");
  std::string a = f.addr(0);
  INFO(a);
  CHECK(a != "param(p) + 4*%tid.x");
  CHECK_THAT(a, Catch::Contains("%r1") && Catch::Contains("%r2"));
}
