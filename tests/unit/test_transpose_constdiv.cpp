// The transpose pass's compile-time radices (TransposeConstDiv.cpp): the
// divisor behind a magic multiplier is proved, not trusted (a property test
// against exact arithmetic at every edge of the width), and nvcc's idioms
// in tests/lit/transpose/Inputs/constdiv.ptx fold into divisions while
// hand-edited ones (a multiplier off by one, a mask of the wrong width) do
// not.
#include <fstream>
#include <random>
#include <sstream>

#include "Helpers.h"

#include "transforms/Transpose.h"

using namespace ptxopt;
using namespace ptxopt::transforms;
using u128 = unsigned __int128;
using i128 = __int128;

namespace {

std::string inputText() {
  std::ifstream in(std::string(PTXOPT_SOURCE_DIR) + "/tests/lit/transpose/Inputs/constdiv.ptx");
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

ir::Function &kernelNamed(ir::Module &m, const std::string &name) {
  for (ir::Function *k : m.kernels())
    if (k->name == name) return *k;
  FAIL("no kernel " << name);
  throw;
}

std::string opcodes(const ir::Function &f) {
  std::string out;
  ir::forEachStmt(*f.body, [&](const ir::Stmt &s) {
    if (s.kind == ir::Stmt::Kind::Instruction) {
      const auto &in = static_cast<const ir::Instruction &>(s);
      out += std::string(in.opcode);
      for (const auto &o : in.operands) out += " " + std::string(o.text);
      out += "\n";
    }
  });
  return out;
}

/// The x worth checking for a divisor d: the width's ends, 0, and the
/// multiples of d around the top, and around 2^k for each k.
std::vector<i128> edges(uint64_t d, unsigned bits, bool isSigned) {
  std::vector<i128> xs;
  const i128 lo = isSigned ? -(i128(1) << (bits - 1)) : 0, hi = isSigned ? (i128(1) << (bits - 1)) - 1 : (i128(1) << bits) - 1;
  auto add = [&](i128 x) {
    if (x >= lo && x <= hi) xs.push_back(x);
  };
  for (i128 x : {lo, lo + 1, i128(-1), i128(0), i128(1), hi - 1, hi}) add(x);
  for (unsigned k = 0; k < bits; ++k)
    for (i128 base : {i128(1) << k, -(i128(1) << k)}) {
      const i128 q = base / i128(d);
      for (i128 j = -1; j <= 1; ++j)
        for (i128 off = -1; off <= 1; ++off) add((q + j) * i128(d) + off);
      add(base);
    }
  for (i128 j = 0; j < 3; ++j) {
    add(hi - hi % i128(d) - j);
    add(hi - hi % i128(d) + j);
    add(lo - lo % i128(d) + j);
  }
  return xs;
}

/// floor(x * m / 2^s) for x < 2^64, m < 2^65, s < 128.
u128 mulShift(u128 x, u128 m, unsigned s) {
  const u128 lo = x * (m & ~uint64_t(0)), hi = x * (m >> 64);  // x*m = hi*2^64 + lo; hi < 2^65
  // (hi*2^64 + lo) >> s, in pieces: lo's high half joins hi.
  const u128 top = hi + (lo >> 64), bottom = lo & ~uint64_t(0);
  return s >= 64 ? top >> (s - 64) : (top << (64 - s)) | (bottom >> s);
}

i128 floorDiv(i128 a, i128 b) {
  i128 q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

}  // namespace

TEST_CASE("a magic multiplier's divisor holds for every x of the width", "[transpose][constdiv]") {
  // nvcc's multipliers (from constdiv.ptx and probes) give their divisors.
  CHECK(transpose::unsignedDivisor(274877907u, 38, 32) == 1000);
  CHECK(transpose::unsignedDivisor(3435973837u, 37, 32) == 40);   // -858993459
  CHECK(transpose::unsignedDivisor(2290649225u, 42, 32) == 1920); // -2004318071
  CHECK(transpose::unsignedDivisor(524353u + (u128(1) << 32), 32 + 1 + 12, 32) == 8191);  // the add form
  CHECK(transpose::signedDivisor(91625969u, 32 + 6, 32) == 3000);
  CHECK(transpose::signedDivisor(1402438301u, 32 + 10, 32) == 3136);
  CHECK(transpose::signedDivisor(1402438301u, 32 + 16, 32) == 200704);
  CHECK(transpose::signedDivisor(2971653049u, 32 + 10, 32) == 1480);  // -1323314247 + 2^32: nvcc adds x back
  CHECK(transpose::signedDivisor(1717986919u, 32 + 4, 32, true) == 40);  // -1717986919: x / -40
  // Off by one: not a divisor for every x.
  CHECK(transpose::unsignedDivisor(274877906u, 38, 32) == 0);
  CHECK(transpose::signedDivisor(91625968u, 32 + 6, 32) == 0);
  // Property: wherever a divisor is given, the identity holds at every edge.
  std::mt19937_64 rng(7);
  int given = 0;
  for (int t = 0; t < 20000; ++t) {
    const unsigned bits = t % 2 ? 64 : 32;
    const bool isSigned = t % 3 != 0, negative = isSigned && t % 5 == 0;
    uint64_t d = 2 + rng() % (t % 7 == 0 ? 1000000007ull : 5000);
    const unsigned s = bits + unsigned(rng() % 20);
    // Near the ideal multiplier ceil(2^s / d), off by -2..2 at times.
    const u128 ideal = ((u128(1) << s) + d - 1) / d;
    const u128 m = ideal + u128(int64_t(rng() % 5) - 2) * (t % 4 == 0);
    if (m == 0 || m >> (bits + (isSigned ? 0 : 1))) continue;
    const uint64_t got = isSigned ? transpose::signedDivisor(m, s, bits, negative)
                                  : transpose::unsignedDivisor(m, s, bits);
    if (!got) continue;
    ++given;
    INFO("bits " << bits << " signed " << isSigned << " negative " << negative << " d " << got << " s " << s);
    for (i128 x : edges(got, bits, isSigned)) {
      // Unsigned: x < 2^64, m < 2^65: the product in 192 bits (two halves);
      // signed: |x| <= 2^63, m < 2^64.
      const i128 lhs = !isSigned ? i128(mulShift(u128(x), m, s))
                                 : floorDiv(x * i128(m) * (negative ? -1 : 1), i128(1) << s) +
                                       ((negative ? x > 0 : x < 0) ? 1 : 0);
      const i128 want = x / (negative ? -i128(got) : i128(got));  // C's division: toward zero
      if (lhs != want) FAIL("x " << int64_t(x) << " gives " << int64_t(lhs) << ", not " << int64_t(want));
    }
  }
  CHECK(given > 1000);
}

TEST_CASE("nvcc's divisions by constants fold into div and rem", "[transpose][constdiv]") {
  auto m = parseOk(inputText());
  for (const char *name : {"cd_int_pow2", "cd_uint_pow2", "cd_sizet_pow2", "cd_int64_pow2", "cd_int_magic", "cd_uint_bound",
                           "cd_rot90", "cd_nchw", "cd_nchw3", "cd_nhwc", "cd_uint37", "cd_rot_sub", "cd_sizet_narrow", "cd_nchw_sizet"}) {
    INFO(name);
    ir::Function &k = kernelNamed(*m, name);
    analysis::FunctionAnalyses fa(*m, k);
    const std::string index = transpose::flatIndexOf(k, fa);
    REQUIRE(!index.empty());
    auto folded = transpose::foldConstDivisions(*m, k, index);
    REQUIRE(folded);
    const std::string ops = opcodes(*folded);
    CHECK(ops.find("mul.hi") == std::string::npos);
    CHECK(ops.find("shr.s32") == std::string::npos);
    CHECK((ops.find("div.") != std::string::npos || ops.find("rem.") != std::string::npos));
  }
  ir::Function &k = kernelNamed(*m, "cd_int_magic");
  analysis::FunctionAnalyses fa(*m, k);
  const std::string ops = opcodes(*transpose::foldConstDivisions(*m, k, transpose::flatIndexOf(k, fa)));
  CHECK(ops.find("div.s32 %r8 %r1 40") != std::string::npos);
}

TEST_CASE("idioms that are not exact are left", "[transpose][constdiv]") {
  std::string text = inputText();
  // cd_uint_bound's multiplier off by one; cd_int_pow2's shift by one more
  // than its bias (the rounding of a different power); cd_int64_pow2's mask
  // not 2^k - 1.
  auto edit = [&](const std::string &kernel, const std::string &from, const std::string &to) {
    const size_t at = text.find(".entry " + kernel + "(");
    REQUIRE(at != std::string::npos);
    const size_t p = text.find(from, at);
    REQUIRE(p != std::string::npos);
    text.replace(p, from.size(), to);
  };
  edit("cd_uint_bound", "-858993459", "-858993458");
  edit("cd_int_pow2", "shr.s32 \t%r10, %r7, 6", "shr.s32 \t%r10, %r7, 7");
  edit("cd_int64_pow2", "and.b64  \t%rd9, %rd1, 63", "and.b64  \t%rd9, %rd1, 62");
  auto m = parseOk(text);
  {
    ir::Function &k = kernelNamed(*m, "cd_uint_bound");
    analysis::FunctionAnalyses fa(*m, k);
    CHECK_FALSE(transpose::foldConstDivisions(*m, k, transpose::flatIndexOf(k, fa)));
  }
  {
    ir::Function &k = kernelNamed(*m, "cd_int_pow2");
    analysis::FunctionAnalyses fa(*m, k);
    auto folded = transpose::foldConstDivisions(*m, k, transpose::flatIndexOf(k, fa));
    // The biased sum is read by a shift that is not its power's: nothing of
    // it folds (every reader must be the division's or the remainder's).
    CHECK((!folded || opcodes(*folded).find("div.s32") == std::string::npos));
  }
  {
    ir::Function &k = kernelNamed(*m, "cd_int64_pow2");
    analysis::FunctionAnalyses fa(*m, k);
    auto folded = transpose::foldConstDivisions(*m, k, transpose::flatIndexOf(k, fa));
    REQUIRE(folded);  // its shr.u64 still is i / 8192
    CHECK(opcodes(*folded).find("rem.u64") == std::string::npos);
  }
}
