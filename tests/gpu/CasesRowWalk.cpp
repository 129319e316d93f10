// gpu-diff's rowwalk cases (docs/PASSES.md, "rowwalk"): the textbook row
// walk's clones on tests/gpu/cases/rowwalk.cu. The other row-walk forms have
// files of their own (CasesRowWalk*.cpp, CasesCsr.cpp, CasesTri.cpp).
#include "Cases.h"

#include <cmath>
#include <tuple>

namespace gpudiff {

namespace {

/// A row walk of nx rows of ny elements (A, optionally x, y, nx, ny), a thread per row.
Case rows(const std::string &name, const std::string &kernel, unsigned nx, unsigned ny, unsigned block, Elem e,
          bool withX, const std::string &passes, const std::string &expect, bool big) {
  std::vector<Arg> args{in(e, size_t(nx) * ny)};
  if (withX) args.push_back(in(e, ny));
  args.push_back(out(e, nx));
  args.push_back(i32(int32_t(nx)));
  args.push_back(i32(int32_t(ny)));
  Case c = makeCase("rowwalk: " + name + " " + std::to_string(nx) + "x" + std::to_string(ny) + " b" +
                        std::to_string(block),
                    "rowwalk", kernel, args, {(nx + block - 1) / block, 1, 1}, {block, 1, 1});
  c.passes = passes;
  c.expect = expect;
  c.big = big;
  return c;
}

/// Step 1: accumulators in memory kept in registers (regacc), exact.
void addRegacc(std::vector<Case> &cs) {
  // Step 1: tmp[i] in memory, exact (the staged clone off: it comes first).
  cs.push_back(rows("tmp in memory", "rowsum_mem", 4096, 4096, 256, Elem::F32, true, "rowwalk;rowwalk-staged=0",
                    "=rowsum_mem__ptxopt_regacc", true));
  cs.push_back(rows("tmp in memory, then pack", "rowsum_mem", 4096, 4096, 256, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged=0", "=rowsum_mem__ptxopt_regacc_pack", true));
  cs.push_back(rows("tmp in memory, rows not x4/x32", "rowsum_mem", 1000, 1003, 256, Elem::F32, true,
                    "rowwalk;rowwalk-staged=0", "=rowsum_mem__ptxopt_regacc", false));
}

/// Step 3: the staged clone (rows through shared memory), its copies and its floor, exact.
void addStaged(std::vector<Case> &cs) {
  // Step 3, the staged clone (one warp per block, rows through shared
  // memory), exact: remainders (1004 = 31 tiles of 32 + 12), rows not a
  // multiple of 32 (the last warp's guard fails on some lanes: it runs the
  // original loop), blocks of 96, rows not 16-byte aligned (1003: the
  // aligned clone's row-length condition fails, the `_unaligned` clone runs
  // since 2026-11-29's second session: CasesRowWalkUnaligned.cpp), a
  // loop-carried value that is no reduction.
  cs.push_back(rows("tmp in memory, staged", "rowsum_mem", 4096, 4096, 256, Elem::F32, true, "rowwalk",
                    "=rowsum_mem__ptxopt_staged", true));
  cs.push_back(rows("tmp in memory, staged and packed", "rowsum_mem", 4096, 4096, 256, Elem::F32, true,
                    "rowwalk,pack", "=rowsum_mem__ptxopt_staged_pack", true));
  cs.push_back(rows("tmp in memory, staged, rows not x32", "rowsum_mem", 1000, 1004, 256, Elem::F32, true, "rowwalk;rowwalk-staged=1",
                    "=rowsum_mem__ptxopt_staged", false));
  cs.push_back(rows("tmp in memory, staged, 96-thread blocks", "rowsum_mem", 1000, 1004, 96, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged=1", "=rowsum_mem__ptxopt_staged_pack", false));
  cs.push_back(rows("tmp in memory, staged, rows not 16-byte aligned", "rowsum_mem", 1000, 1003, 256, Elem::F32, true,
                    "rowwalk;rowwalk-staged=1", "=rowsum_mem__ptxopt_staged_unaligned", false));
  cs.push_back(rows("__restrict__, staged", "rowsum_restrict", 2000, 2000, 128, Elem::F32, true, "rowwalk,pack;rowwalk-staged=1",
                    "=rowsum_restrict__ptxopt_staged_pack", false));
  cs.push_back(rows("Horner hash, staged", "rowhash", 1000, 1004, 256, Elem::I32, false, "rowwalk;rowwalk-staged=1",
                    "=rowhash__ptxopt_staged", false));
  // The staged clone with plain copies (ld.global.v4 into registers,
  // st.shared.v4: the default on every target; named here), exact: 1004
  // floats are 15 tiles of 256 bytes (odd: the loop unrolled by its 2 tiles
  // in flight leaves after its first step) + 11 iterations; 128-byte tiles
  // (4 in flight: 31 tiles leave after the third step); blocks of 96;
  // a loop-carried value that is no reduction.
  cs.push_back(rows("tmp in memory, staged, plain copies", "rowsum_mem", 4096, 4096, 256, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged-copy=plain", "=rowsum_mem__ptxopt_staged_pack", true));
  cs.push_back(rows("tmp in memory, staged, plain copies, rows not x32", "rowsum_mem", 1000, 1004, 256, Elem::F32, true,
                    "rowwalk;rowwalk-staged=1;rowwalk-staged-copy=plain", "=rowsum_mem__ptxopt_staged", false));
  cs.push_back(rows("tmp in memory, staged, plain copies, 128-byte tiles", "rowsum_mem", 1000, 1004, 96, Elem::F32,
                    true, "rowwalk,pack;rowwalk-staged=1;rowwalk-staged-copy=plain;rowwalk-tile=128",
                    "=rowsum_mem__ptxopt_staged_pack", false));
  cs.push_back(rows("Horner hash, staged, plain copies", "rowhash", 1000, 1004, 256, Elem::I32, false,
                    "rowwalk;rowwalk-staged=1;rowwalk-staged-copy=plain", "=rowhash__ptxopt_staged", false));
  // The cp.async copies (rowwalk-staged-copy=async; the default before the
  // plain copies measured faster), exact.
  cs.push_back(rows("tmp in memory, staged, cp.async copies", "rowsum_mem", 4096, 4096, 256, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged-copy=async", "=rowsum_mem__ptxopt_staged_pack", true));
  cs.push_back(rows("tmp in memory, staged, cp.async copies, rows not x32", "rowsum_mem", 1000, 1004, 256, Elem::F32,
                    true, "rowwalk;rowwalk-staged=1;rowwalk-staged-copy=async", "=rowsum_mem__ptxopt_staged", false));
  cs.push_back(rows("tmp in memory, staged, cp.async copies, 2048x2048", "rowsum_mem", 2048, 2048, 256, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged-copy=async", "=rowsum_mem__ptxopt_staged_pack", false));
  // By default the staged clone runs only where it was measured faster
  // (2048 threads, rows of 256): this launch keeps regacc + pack (2.27x;
  // the staged clone forced: 1.49x, H100).
  cs.push_back(rows("tmp in memory, under the staged floor", "rowsum_mem", 1000, 1004, 256, Elem::F32, true,
                    "rowwalk,pack", "=rowsum_mem__ptxopt_regacc_pack", false));
  // The same shape with the staged clone forced, to compare; 2048 x 2048
  // by default: staged (10.4x; regacc + pack 3.74x, H100).
  cs.push_back(rows("tmp in memory, staged and packed (forced)", "rowsum_mem", 1000, 1004, 256, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged=1", "=rowsum_mem__ptxopt_staged_pack", false));
  cs.push_back(rows("tmp in memory, staged and packed by default", "rowsum_mem", 2048, 2048, 256, Elem::F32, true,
                    "rowwalk,pack", "=rowsum_mem__ptxopt_staged_pack", false));
  cs.push_back(rows("tmp in memory, regacc and pack (staged off)", "rowsum_mem", 2048, 2048, 256, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged=0", "=rowsum_mem__ptxopt_regacc_pack", false));
  // Rows of 256 to 1024 elements in launches of many rows: the staged clone
  // by default (rows of 256 or more: 4.4-6.6x, H200), beside regacc + pack
  // (the staged clone off: 2.4-2.6x), which these shapes ran before the
  // floor came down from 2048.
  for (auto [nx, ny] : {std::pair<unsigned, unsigned>{65536, 1024}, {131072, 512}, {262144, 256}, {16384, 1024}}) {
    const bool big = size_t(nx) * ny >= (size_t(1) << 24);
    cs.push_back(rows("staged floor: default (staged)", "rowsum_mem", nx, ny, 256, Elem::F32, true, "rowwalk,pack",
                      "=rowsum_mem__ptxopt_staged_pack", big));
    cs.push_back(rows("staged floor: staged off", "rowsum_mem", nx, ny, 256, Elem::F32, true,
                      "rowwalk,pack;rowwalk-staged=0", "=rowsum_mem__ptxopt_regacc_pack", big));
  }
}

/// The regacc and pack clones where the staged clone does not run (16-thread
/// blocks, a column walk, gesummv under its floor) and overlapping pointers.
void addOtherShapes(std::vector<Case> &cs) {
  // 16-thread blocks: not a multiple of 32, the staged clone does not run.
  cs.push_back(rows("__restrict__, 16-thread blocks (pack)", "rowsum_restrict", 1000, 1004, 16, Elem::F32, true,
                    "rowwalk,pack", "=rowsum_restrict__ptxopt_pack", false));
  cs.push_back(rows("column walk, y in memory", "colwalk_mem", 4096, 4096, 256, Elem::F32, true, "rowwalk",
                    "=colwalk_mem__ptxopt_regacc", true));
  // x overlapping tmp (one row: deterministic in the original): the original runs.
  {
    Case c = makeCase("rowwalk: tmp in memory, x inside tmp (original)", "rowwalk", "rowsum_mem",
                      {in(Elem::F32, 64), aliasOf(2, Elem::F32), out(Elem::F32, 64), i32(1), i32(64)}, {1, 1, 1},
                      {32, 1, 1});
    c.passes = "rowwalk";
    c.expect = "original";
    cs.push_back(c);
  }
  // gesummv: two accumulators in memory, reloaded in every iteration by nvcc;
  // two rows at one `int` index: the staged clone (its accumulators in
  // registers) since 2026-11-29, the regacc clone under its 2048-thread floor.
  cs.push_back(makeCase("rowwalk: gesummv 2000", "rowwalk", "gesummv",
                        {i32(2000), f32(1.5f), f32(1.2f), in(Elem::F32, 2000 * 2000), in(Elem::F32, 2000 * 2000),
                         in(Elem::F32, 2000), out(Elem::F32, 2000), out(Elem::F32, 2000)},
                        {8, 1, 1}, {256, 1, 1}));
  cs.back().passes = "rowwalk";
  cs.back().expect = "=gesummv__ptxopt_staged";
  cs.push_back(makeCase("rowwalk: gesummv 2000, 125 blocks of 16", "rowwalk", "gesummv",
                        {i32(2000), f32(1.5f), f32(1.2f), in(Elem::F32, 2000 * 2000), in(Elem::F32, 2000 * 2000),
                         in(Elem::F32, 2000), out(Elem::F32, 2000), out(Elem::F32, 2000)},
                        {125, 1, 1}, {16, 1, 1}));
  cs.back().passes = "rowwalk";
  cs.back().expect = "=gesummv__ptxopt_regacc";
}

/// Step 2: integer reductions split over lanes, exact.
void addLanes(std::vector<Case> &cs) {
  // Step 2, exact: integer reductions.
  cs.push_back(rows("int row sum", "rowsum_int", 4096, 4096, 256, Elem::I32, false, "rowwalk",
                    "=rowsum_int__ptxopt_lanes", true));
  cs.push_back(rows("int row sum, rows not x32, guard", "rowsum_int", 1000, 1004, 256, Elem::I32, false, "rowwalk",
                    "=rowsum_int__ptxopt_lanes", false));
  // Rows of 4 ran 0.88x with the lanes clone (H100), rows of 8 and 16 0.07-0.76x
  // with 4-32 lanes (H200): rows under 32 run the original.
  cs.push_back(rows("int row sum, short rows (original)", "rowsum_int", 3000, 4, 128, Elem::I32, false, "rowwalk",
                    "original", false));
  cs.push_back(rows("int row sum, rows of 128 (8 lanes)", "rowsum_int", 3000, 128, 128, Elem::I32, false, "rowwalk",
                    "=rowsum_int__ptxopt_lanes8", false));
  cs.push_back(rows("int row sum, rows of 128, 32 lanes only", "rowsum_int", 3000, 128, 128, Elem::I32, false,
                    "rowwalk;rowwalk-lanes=32", "original", false));
  cs.push_back(rows("int row sum, 16-thread blocks", "rowsum_int", 1000, 256, 16, Elem::I32, false, "rowwalk",
                    "=rowsum_int__ptxopt_lanes_blk", false));
  // Fewer lanes for shorter rows (rowwalk-lanes; by default 32 lanes from
  // rows of 256, 8 from 128, 4 from 32): G lanes per logical thread, 32/G
  // logical threads per warp that may part at guards (the shuffles and warp
  // barriers name their own G lanes only).
  cs.push_back(rows("int row sum, rows of 48 (4 lanes)", "rowsum_int", 20001, 48, 256, Elem::I32, false, "rowwalk",
                    "=rowsum_int__ptxopt_lanes4", false));
  cs.push_back(rows("int row sum, rows of 160 (8 lanes)", "rowsum_int", 3001, 160, 128, Elem::I32, false, "rowwalk",
                    "=rowsum_int__ptxopt_lanes8", false));
  cs.push_back(rows("int row sum, rows of 162 (original: no scalar clone under 32 lanes)", "rowsum_int", 3001, 162,
                    256, Elem::I32, false, "rowwalk", "original", false));
  cs.push_back(rows("int row sum, rows of 160, 20-thread blocks (4 lanes: 20 is no multiple of 8)", "rowsum_int", 1001,
                    160, 20, Elem::I32, false, "rowwalk", "=rowsum_int__ptxopt_lanes4", false));
  cs.push_back(rows("int row sum, rows of 16 (original)", "rowsum_int", 3000, 16, 128, Elem::I32, false, "rowwalk",
                    "original", false));
  cs.push_back(rows("int row max, rows of 36 (4 lanes)", "rowmax_int", 5001, 36, 256, Elem::I32, false, "rowwalk",
                    "=rowmax_int__ptxopt_lanes4", false));
  cs.push_back(rows("u32 row xor, 16 lanes, rows of 132", "rowxor_u32", 2000, 132, 64, Elem::I32, false,
                    "rowwalk;rowwalk-lanes=16", "=rowxor_u32__ptxopt_lanes16", false));
  cs.push_back(rows("y read before and written after the loop, rows of 136 (8 lanes)", "rowacc_inout", 2001, 136, 256,
                    Elem::I32, false, "rowwalk", "=rowacc_inout__ptxopt_lanes8", false));
  // 64-bit elements and indices (long nx, ny): 16-byte loads of two elements.
  auto rows64 = [](const std::string &name, unsigned nx, unsigned ny, unsigned block, const std::string &expect) {
    Case c = makeCase("rowwalk: " + name + " " + std::to_string(nx) + "x" + std::to_string(ny) + " b" +
                          std::to_string(block),
                      "rowwalk", "rowsum_i64",
                      {in(Elem::I64, size_t(nx) * ny), out(Elem::I64, nx), i64(int32_t(nx)), i64(int32_t(ny))},
                      {(nx + block - 1) / block, 1, 1}, {block, 1, 1});
    c.passes = "rowwalk";
    c.expect = expect;
    return c;
  };
  cs.push_back(rows64("i64 row sum, 64-bit indices", 2001, 1000, 256, "=rowsum_i64__ptxopt_lanes"));
  cs.push_back(rows64("i64 row sum, 64-bit indices, rows of 999 (scalar loads)", 2001, 999, 256,
                      "=rowsum_i64__ptxopt_lanes_scalar"));
  cs.push_back(rows64("i64 row sum, 64-bit indices, rows of 160 (8 lanes)", 3001, 160, 128,
                      "=rowsum_i64__ptxopt_lanes8"));
  cs.push_back(rows64("i64 row sum, 64-bit indices, rows of 50 (4 lanes)", 8001, 50, 256,
                      "=rowsum_i64__ptxopt_lanes4"));
  cs.push_back(rows("Horner hash, rows of 64 (original: not a reduction)", "rowhash", 1000, 64, 256, Elem::I32, false,
                    "rowwalk;rowwalk-staged=0", "original", false));
  cs.push_back(rows("int row sum, row length not x4 (scalar loads)", "rowsum_int", 1000, 1003, 256, Elem::I32, false,
                    "rowwalk", "=rowsum_int__ptxopt_lanes_scalar", false));
  cs.push_back(rows("int row max", "rowmax_int", 2000, 1000, 256, Elem::I32, false, "rowwalk",
                    "=rowmax_int__ptxopt_lanes", false));
  cs.push_back(rows("u32 row xor", "rowxor_u32", 2000, 1000, 256, Elem::I32, false, "rowwalk",
                    "=rowxor_u32__ptxopt_lanes", false));
  cs.push_back(rows("y read before and written after the loop", "rowacc_inout", 2000, 1000, 256, Elem::I32, false,
                    "rowwalk", "=rowacc_inout__ptxopt_lanes", false));
  // No loop-carried value: B[i*ny+j] = 3*A[i*ny+j], split; B must not overlap A.
  cs.push_back(makeCase("rowwalk: row scale 2000x1000 b256", "rowwalk", "rowscale",
                        {in(Elem::I32, 2000 * 1000), out(Elem::I32, 2000 * 1000), i32(2000), i32(1000)}, {8, 1, 1},
                        {256, 1, 1}));
  cs.back().passes = "rowwalk";
  cs.back().expect = "=rowscale__ptxopt_lanes";
  cs.push_back(makeCase("rowwalk: row scale, B inside A (original)", "rowwalk", "rowscale",
                        {out(Elem::I32, 2 * 1000), aliasOf(0, Elem::I32, 4000), i32(1), i32(1000)}, {1, 1, 1},
                        {32, 1, 1}));
  cs.back().passes = "rowwalk";
  cs.back().expect = "original";
}

/// Step 2: float sums split over lanes with --reassociate, within a bound.
void addReassociated(std::vector<Case> &cs) {
  // Step 2, float sums reassociated: |y - ref| <= ny * 2^-23 * sum |A*x| (the
  // classic bound of a recursive sum, which the original meets too).
  auto approx = [](unsigned nx, unsigned ny) -> Approx {
    return [nx, ny](const std::vector<std::vector<unsigned char>> &inputs, const std::vector<unsigned char> &outputs) {
      const float *A = reinterpret_cast<const float *>(inputs[0].data());
      const float *x = reinterpret_cast<const float *>(inputs[1].data());
      const float *y = reinterpret_cast<const float *>(outputs.data());
      for (size_t i = 0; i < nx; ++i) {
        double ref = 0, mag = 0;
        for (size_t j = 0; j < ny; ++j) {
          ref += double(A[i * ny + j]) * double(x[j]);
          mag += std::fabs(double(A[i * ny + j]) * double(x[j]));
        }
        double bound = double(ny) * std::ldexp(1.0, -23) * mag;
        if (!(std::fabs(double(y[i]) - ref) <= bound))
          return "row " + std::to_string(i) + ": " + std::to_string(y[i]) + " vs " + std::to_string(ref) +
                 " (bound " + std::to_string(bound) + ")";
      }
      return std::string();
    };
  };
  for (auto [nx, ny, big] : {std::tuple<unsigned, unsigned, bool>{4096, 4096, true}, {1000, 1004, false}, {1000, 1003, false}}) {
    const std::string suffix = ny % 4 ? "_scalar" : "";
    cs.push_back(rows("tmp in memory, reassociated", "rowsum_mem", nx, ny, 256, Elem::F32, true,
                      "rowwalk;reassociate", "=rowsum_mem__ptxopt_lanes" + suffix, big));
    cs.back().approx = approx(nx, ny);
    cs.push_back(rows("__restrict__, reassociated", "rowsum_restrict", nx, ny, 256, Elem::F32, true,
                      "rowwalk;reassociate", "=rowsum_restrict__ptxopt_lanes" + suffix, big));
    cs.back().approx = approx(nx, ny);
  }
  cs.push_back(rows("__restrict__, reassociated, rows of 160 (8 lanes)", "rowsum_restrict", 3001, 160, 256, Elem::F32,
                    true, "rowwalk;reassociate", "=rowsum_restrict__ptxopt_lanes8", false));
  cs.back().approx = approx(3001, 160);
  cs.push_back(rows("__restrict__, reassociated, rows of 64 (4 lanes)", "rowsum_restrict", 8001, 64, 256, Elem::F32,
                    true, "rowwalk;reassociate", "=rowsum_restrict__ptxopt_lanes4", false));
  cs.back().approx = approx(8001, 64);
  cs.push_back(rows("tmp in memory, reassociated, 16 lanes", "rowsum_mem", 2001, 128, 96, Elem::F32, true,
                    "rowwalk;reassociate;rowwalk-lanes=16", "=rowsum_mem__ptxopt_lanes16", false));
  cs.back().approx = approx(2001, 128);
}

}  // namespace

/// rowwalk (docs/PASSES.md): row walks with the accumulator in memory
/// (regacc clone, bit for bit), integer reductions split over 32 lanes
/// (lanes clones, bit for bit), float sums reassociated (--reassociate:
/// within a bound of a float64 reference, which the original meets too),
/// overlapping pointers (the original), rows that are not a multiple of 4
/// or of 32, guards.
void addRowWalk(std::vector<Case> &cs) {
  addRegacc(cs);
  addStaged(cs);
  addOtherShapes(cs);
  addLanes(cs);
  addReassociated(cs);
}

}  // namespace gpudiff
