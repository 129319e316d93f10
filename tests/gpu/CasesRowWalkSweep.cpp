// gpu-diff cases of the shapes the rowwalk coverage sweep (issue 29;
// tests/lit/rowwalk/sweep.test, docs/PASSES.md "Coverage sweep") made the
// pass take: constant row lengths (`#define`, a template: 64 or 128 bytes
// per iteration, staged), a grid-stride loop over rows (the inner loop
// staged inside it), an int row walked downwards (the lanes clones), and
// the constant row of rowwalk32.cu (`rowsum_u32_c1024`); every clone
// compared bit for bit with the original on random non-zero inputs.
//
// Rotated loops (constant trip counts not a multiple of nvcc's unroll
// factor, `for (j = 1; j < 2048; j++)`): addRowWalkRotated.
//
// Also sweep shapes the pass took already (a while loop bumping pointers,
// a batched kernel, alpha/beta, mvt's accumulator in memory, a row norm,
// the strictly lower triangle).
// Edges: rows not a multiple of 32 (the last warp runs the original loop),
// 96-thread blocks, a grid-stride launch whose threads run different
// numbers of rows (warps partly out of the outer loop run the original
// inner loop), row lengths that are not a multiple of the tile or of 4
// (the remainder; the lanes clone without 16-byte loads), and the refused
// short constant row (the original runs).
#include "Cases.h"

#include <tuple>

namespace gpudiff {

namespace {
/// A kernel (A, x, y, m) over a constant row length: y[i] from row i.
Case constRows(const std::string &name, const std::string &kernel, unsigned m, unsigned n, unsigned block, Elem e,
               bool withX, const std::string &passes, const std::string &expect) {
  std::vector<Arg> args{in(e, size_t(m) * n)};
  if (withX) args.push_back(in(e, n));
  args.push_back(out(e, m));
  args.push_back(i32(int32_t(m)));
  Case c = makeCase("rowwalk sweep: " + name + " " + std::to_string(m) + "x" + std::to_string(n) + " b" +
                        std::to_string(block),
                    "rowwalksweep", kernel, args, {(m + block - 1) / block, 1, 1}, {block, 1, 1});
  c.passes = passes;
  c.expect = expect;
  c.big = size_t(m) * n >= (size_t(1) << 24);
  return c;
}
/// Rotated loops (tests/lit/rowwalk/Inputs/rotated.cu): the staged clone of
/// a copy with the loop's first part peeled; every kernel's row length is a
/// constant, the rows are `m`.
void addRowWalkRotated(std::vector<Case> &cs) {
  const std::string forced = "rowwalk;rowwalk-staged=1";
  auto rows = [&](const std::string &name, const std::string &kernel, std::vector<Arg> args, unsigned m,
                  unsigned block, const std::string &passes, const std::string &expect) {
    const bool big = args[0].count >= (size_t(1) << 24);
    Case c = makeCase("rowwalk rotated: " + name + " " + std::to_string(m) + " rows b" + std::to_string(block),
                      "rowwalkrotated", kernel, std::move(args), {(m + block - 1) / block, 1, 1}, {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = big;
    return c;
  };
  // s = row[0]; j = 1 .. 2047: -O2, rows not x32, 96-thread blocks, A not
  // 16-byte aligned (the staged clone's alignment condition fails: the original).
  for (auto [m, block, offset, passes] :
       {std::tuple<unsigned, unsigned, uint32_t, std::string>{4096, 256, 0, ""}, {1000, 256, 0, forced},
        {1000, 96, 0, forced}, {1000, 256, 4, forced}}) {
    cs.push_back(rows(std::string("row sum from 1, 2048 floats") + (offset ? ", A + 4 bytes" : ""),
                      "rowsum_from1_c2048",
                      {in(Elem::F32, size_t(m) * 2048, offset), out(Elem::F32, m), i32(int32_t(m))}, m, block, passes,
                      offset ? "original" : "=rowsum_from1_c2048__ptxopt_staged"));
  }
  // Max and argmax: ints (the counter updated through a second register), floats.
  for (auto [m, passes] : {std::pair<unsigned, std::string>{4096, ""}, {1000, forced}}) {
    cs.push_back(rows("int max and argmax, 2048", "rowmax_c2048",
                      {in(Elem::I32, size_t(m) * 2048), out(Elem::I32, m), out(Elem::I32, m), i32(int32_t(m))}, m,
                      256, passes, "=rowmax_c2048__ptxopt_staged"));
    cs.push_back(rows("float max and argmax, 4096", "rowmaxf_c4096",
                      {in(Elem::F32, size_t(m) * 4096), out(Elem::F32, m), out(Elem::I32, m), i32(int32_t(m))}, m,
                      256, passes, "=rowmaxf_c4096__ptxopt_staged"));
    cs.push_back(rows("matrix-vector from 1, 2048", "mv_from1_c2048",
                      {in(Elem::F32, size_t(m) * 2048), in(Elem::F32, 2048), out(Elem::F32, m), i32(int32_t(m))}, m,
                      256, passes.empty() ? "" : "rowwalk,pack;rowwalk-staged=1", "=mv_from1_c2048__ptxopt_staged_pack"));
  }
  // Integers: the lanes clones of the peeled loop (chosen first), and the staged one alone.
  cs.push_back(rows("int row sum from 1, 1024", "rowsum_from1_int_c1024",
                    {in(Elem::I32, size_t(4096) * 1024), out(Elem::I32, 4096), i32(4096)}, 4096, 256, "",
                    "=rowsum_from1_int_c1024__ptxopt_lanes"));
  cs.push_back(rows("int row sum from 1, 1024, lanes off", "rowsum_from1_int_c1024",
                    {in(Elem::I32, size_t(1000) * 1024), out(Elem::I32, 1000), i32(1000)}, 1000, 256,
                    "rowwalk;rowwalk-staged=1;rowwalk-lanes=0", "=rowsum_from1_int_c1024__ptxopt_staged"));
  // 2047 of each row of 2048 from j = 0 (a load through a register <h> sets;
  // nvcc's rotated loop starts 12 bytes past a boundary: the unaligned clone).
  for (auto [m, passes] : {std::pair<unsigned, std::string>{4096, ""}, {1000, forced}})
    cs.push_back(rows("2047 of each row of 2048", "rowsum_2047_of_2048",
                      {in(Elem::F32, size_t(m) * 2048), out(Elem::F32, m), i32(int32_t(m))}, m, 256, passes,
                      "=rowsum_2047_of_2048__ptxopt_staged_unaligned"));
  // Two rows of 1001 of each 1024 (links `row - 4`; 4 bytes past a boundary: the unaligned clone).
  for (auto [m, passes] : {std::pair<unsigned, std::string>{4096, ""}, {1000, forced}})
    cs.push_back(rows("two rows of 1001 of 1024", "dot_rows_c1001",
                      {in(Elem::F32, size_t(m) * 1024), in(Elem::F32, size_t(m) * 1024), out(Elem::F32, m),
                       i32(int32_t(m))},
                      m, 256, passes, "=dot_rows_c1001__ptxopt_staged_unaligned"));
  // Rows of 2047 floats (8188 bytes apart: no warp's rows align): the
  // unaligned clone only (refused with a remark before it).
  cs.push_back(rows("row sum of 2047", "rowsum_c2047",
                    {in(Elem::F32, size_t(4096) * 2047), out(Elem::F32, 4096), i32(4096)}, 4096, 256, "",
                    "=rowsum_c2047__ptxopt_staged_unaligned"));
}

/// Row walks through __ldg (tests/lit/rowwalk/Inputs/ldg.cu): each load's
/// address a register `row + 4k` set in the loop.
void addRowWalkLdg(std::vector<Case> &cs) {
  for (auto [m, n, passes] : {std::tuple<unsigned, unsigned, std::string>{4096, 4096, ""},
                              {1000, 1004, "rowwalk;rowwalk-staged=1"}}) {
    Case c = makeCase("rowwalk ldg: gemv, size_t indices " + std::to_string(m) + "x" + std::to_string(n), "rowwalkldg",
                      "gemv_ldg",
                      {in(Elem::F32, size_t(m) * n), in(Elem::F32, n), out(Elem::F32, m), i64(int32_t(m)),
                       i64(int32_t(n))},
                      {(m + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = "=gemv_ldg__ptxopt_staged";
    cs.push_back(c);
    c = makeCase("rowwalk ldg: int row sum " + std::to_string(m) + "x" + std::to_string(n), "rowwalkldg",
                 "rowsum_ldg_int", {in(Elem::I32, size_t(m) * n), out(Elem::I32, m), i32(int32_t(m)), i32(int32_t(n))},
                 {(m + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = passes.empty() ? "rowwalk;rowwalk-lanes=0" : passes + ";rowwalk-lanes=0";
    c.expect = "=rowsum_ldg_int__ptxopt_staged";
    cs.push_back(c);
  }
  // `int` and `unsigned` indices (tests/lit/rowwalk/Inputs/ldg-int.cu): a
  // pointer per unrolled element, taken as one row (Planner::siblingRow),
  // each lane checking the pointers' differences. Rows of 1001 floats: no
  // warp's rows align, the unaligned clone.
  for (auto [m, n, expect] : {std::tuple<unsigned, unsigned, std::string>{16384, 2048, "staged"},
                              {4001, 1001, "staged_unaligned"}}) {
    cs.push_back(rowsCase("rowwalk ldg int", "rowwalkldgint", "ldg_row_stats",
                          {in(Elem::F32, size_t(m) * n), out(Elem::F32, m), out(Elem::F32, m), out(Elem::F32, m),
                           i32(int32_t(m)), i32(int32_t(n))},
                          m, n, 128, "=ldg_row_stats__ptxopt_" + expect));
    cs.push_back(rowsCase("rowwalk ldg int", "rowwalkldgint", "ldg_row_hash",
                          {in(Elem::I32, size_t(m) * n), out(Elem::I32, m), i32(int32_t(m)), i32(int32_t(n))}, m, n,
                          256, "=ldg_row_hash__ptxopt_" + expect));
    cs.push_back(rowsCase("rowwalk ldg int", "rowwalkldgint", "ldg_gemv_u32",
                          {in(Elem::F32, size_t(m) * n), in(Elem::F32, n), out(Elem::F32, m), i32(int32_t(m)),
                           i32(int32_t(n))},
                          m, n, 256, "=ldg_gemv_u32__ptxopt_" + expect));
    // Two matrices: an offset register per element (`int`), a base
    // register per element (`long`, doubles).
    // (Integers: the lanes clone first at -O2; the staged one without it.)
    cs.push_back(rowsCase("rowwalk ldg int", "rowwalkldgint", "ldg_dot2_i32",
                          {in(Elem::I32, size_t(m) * n), in(Elem::I32, size_t(m) * n), out(Elem::I32, m),
                           i32(int32_t(m)), i32(int32_t(n))},
                          m, n, 256, "=ldg_dot2_i32__ptxopt_" + expect, "", "rowwalk;rowwalk-lanes=0"));
    cs.push_back(rowsCase("rowwalk ldg int", "rowwalkldgint", "ldg_dot_f64",
                          {in(Elem::F64, size_t(m) * n), in(Elem::F64, size_t(m) * n), out(Elem::F64, m), i64(m),
                           i64(n)},
                          m, n, 256, "=ldg_dot_f64__ptxopt_" + expect));
  }
}

/// Row walks nvcc does not unroll (tests/lit/rowwalk/Inputs/nounroll.cu):
/// (A, y, rows, cols); the staged clone of the second try (per lane for
/// rowsum_nounroll's counter; the uniform form for the pointers, whose end -
/// start is the same for every lane: Planner::lessTripWarpUniform).
void addRowWalkNoUnroll(std::vector<Case> &cs) {
  for (const char *k : {"rowsum_nounroll", "rownorm_while", "rowsum_ne_ptr"})
    for (auto [m, n, passes] : {std::tuple<unsigned, unsigned, std::string>{4096, 4096, ""},
                                {1000, 1004, "rowwalk;rowwalk-staged=1"},
                                {1000, 1000, "rowwalk;rowwalk-staged=1"},
                                {256, 0, "rowwalk;rowwalk-staged=1"}}) {
      Case c = makeCase("rowwalk nounroll: " + std::string(k) + " " + std::to_string(m) + "x" + std::to_string(n),
                        "rowwalknounroll", k,
                        {in(Elem::F32, std::max<size_t>(1, size_t(m) * n)), out(Elem::F32, m), i32(int32_t(m)),
                         i32(int32_t(n))},
                        {(m + 255) / 256, 1, 1}, {256, 1, 1});
      c.passes = passes;
      c.expect = n == 0 ? "original" : "=" + std::string(k) + "__ptxopt_staged";
      cs.push_back(c);
    }
}

/// Probes of rotated and remainder-shaped rows (cases/rowwalkprobe.cu):
/// every element type, starts 0-3, counts not a multiple of 4; -O2, 4096
/// rows (a clone where the rows can align), bit for bit.
void addRowWalkProbe(std::vector<Case> &cs) {
  struct T {
    const char *tn;
    Elem in, out;
  };
  for (const T &t : {T{"f32", Elem::F32, Elem::F32}, T{"f64", Elem::F64, Elem::F64}, T{"i32", Elem::I32, Elem::I32},
                     T{"i16", Elem::I16, Elem::I32}, T{"u8", Elem::I8, Elem::I32}})
    for (auto [shape, pitch] : {std::pair<const char *, unsigned>{"from1_2048", 2048}, {"2047_of_2048", 2048},
                                {"from3_1023", 1024}, {"from2_1022", 1024}}) {
      const std::string k = std::string("probe_") + t.tn + "_" + shape;
      Case c = makeCase("rowwalk probe: " + k, "rowwalkprobe", k,
                        {in(t.in, size_t(4096) * pitch), out(t.out, 4096), i32(4096)}, {16, 1, 1}, {256, 1, 1});
      c.expect = "clone";
      cs.push_back(c);
      if (t.in == Elem::F32 || t.in == Elem::F64) continue;
      // Integers run their lanes clones first: their staged clones alone too.
      c.name += ", staged";
      c.passes = "rowwalk;rowwalk-lanes=0";
      // Pieces off a 16-byte boundary wherever the rows align (the rotated
      // and later starts; every shape for 8- and 16-bit elements, which
      // nvcc's peel leaves unaligned): the unaligned clone's tiles (8- and
      // 16-bit rows since the thirty-fifth session; before, the aligned
      // clone, whose warps all ran the original loop).
      const bool off = t.in == Elem::I8 || t.in == Elem::I16 || (t.in == Elem::I32 && std::string(shape) != "from1_2048");
      c.expect = "=" + k + (off ? "__ptxopt_staged_unaligned" : "__ptxopt_staged");
      cs.push_back(c);
    }
  for (auto [k, e, n] : {std::tuple<const char *, Elem, unsigned>{"probe_f32_1023_of_1023", Elem::F32, 1023},
                         {"probe_i32_2047_of_2047", Elem::I32, 2047}}) {
    Case c = makeCase(std::string("rowwalk probe: ") + k, "rowwalkprobe", k,
                      {in(e, size_t(4096) * n), out(e, 4096), i32(4096)}, {16, 1, 1}, {256, 1, 1});
    c.expect = "";  // no staged clone (rows never all aligned); ints: the lanes clones
    cs.push_back(c);
  }
  // int rows into a long long: the lanes clone (-O2) and the staged one.
  for (const char *passes : {"", "rowwalk;rowwalk-lanes=0"}) {
    Case c = makeCase(std::string("rowwalk probe: probe_i32ll_2048") + (*passes ? ", staged" : ""), "rowwalkprobe",
                      "probe_i32ll_2048", {in(Elem::I32, size_t(4096) * 2048), out(Elem::I64, 4096), i32(4096)},
                      {16, 1, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = *passes ? "=probe_i32ll_2048__ptxopt_staged" : "clone";
    cs.push_back(c);
  }
  // Bumped pointers (`*p++`) and pairs loaded [p+4] first (rowwalkprobe.cu's
  // last kernels): rows aligned (the staged clone) and at any offset (the
  // unaligned one), -O2's choice; ints' lanes clones first, then staged alone.
  auto rows = [&](const std::string &name, const char *k, std::vector<Arg> args, unsigned m,
                  const std::string &passes, const std::string &expect) {
    Case c = makeCase("rowwalk probe: " + name, "rowwalkprobe", k, std::move(args), {(m + 255) / 256, 1, 1},
                      {256, 1, 1});
    c.passes = passes;
    c.expect = expect;
    cs.push_back(c);
  };
  const std::string forced = "rowwalk;rowwalk-staged=1";
  rows("rowsum_pp 4096x2048", "rowsum_pp", {in(Elem::F32, size_t(4096) * 2048), out(Elem::F32, 4096), i32(4096), i32(2048)},
       4096, "", "=rowsum_pp__ptxopt_staged");
  rows("rowsum_pp 1000x1001", "rowsum_pp", {in(Elem::F32, size_t(1000) * 1001), out(Elem::F32, 1000), i32(1000), i32(1001)},
       1000, forced, "=rowsum_pp__ptxopt_staged_unaligned");
  rows("mv_pp 4096x4096", "mv_pp",
       {in(Elem::F32, size_t(4096) * 4096), in(Elem::F32, 4096), out(Elem::F32, 4096), i32(4096), i32(4096)}, 4096, "",
       "clone");
  // The int sum: the lanes clones (the pointer's copy set to its exit
  // value after the split loop; 1002: the remainder loop reads it), and the
  // staged ones alone.
  rows("isum_while 4096x2048", "isum_while",
       {in(Elem::I32, size_t(4096) * 2048), out(Elem::I32, 4096), i32(4096), i32(2048)}, 4096, "",
       "=isum_while__ptxopt_lanes");
  rows("isum_while 1000x1002", "isum_while",
       {in(Elem::I32, size_t(1000) * 1002), out(Elem::I32, 1000), i32(1000), i32(1002)}, 1000, "",
       "=isum_while__ptxopt_lanes_scalar");
  rows("isum_while 4096x2048, staged", "isum_while",
       {in(Elem::I32, size_t(4096) * 2048), out(Elem::I32, 4096), i32(4096), i32(2048)}, 4096,
       "rowwalk;rowwalk-lanes=0", "=isum_while__ptxopt_staged");
  rows("isum_while 1000x1002, staged", "isum_while",
       {in(Elem::I32, size_t(1000) * 1002), out(Elem::I32, 1000), i32(1000), i32(1002)}, 1000,
       forced + ";rowwalk-lanes=0", "=isum_while__ptxopt_staged_unaligned");
  rows("dsum_pitch 4096x2000 lda 2002", "dsum_pitch",
       {in(Elem::F64, size_t(4096) * 2002), out(Elem::F64, 4096), i32(4096), i32(2000), i32(2002)}, 4096, "",
       "=dsum_pitch__ptxopt_staged");
  rows("dsum_pitch 1000x2000 lda 2001", "dsum_pitch",
       {in(Elem::F64, size_t(1000) * 2001), out(Elem::F64, 1000), i32(1000), i32(2000), i32(2001)}, 1000, forced,
       "=dsum_pitch__ptxopt_staged_unaligned");
  rows("pairs_pp 4096x1024", "pairs_pp",
       {in(Elem::F32, size_t(4096) * 2048), out(Elem::F32, 4096), i32(4096), i32(1024)}, 4096, "",
       "=pairs_pp__ptxopt_staged");
  rows("pairs_i 4096x1024", "pairs_i", {in(Elem::I32, size_t(4096) * 2048), out(Elem::I32, 4096), i32(4096), i32(1024)},
       4096, "", "clone");
  // Integer accumulators that subtract: the lanes clones (rows of 2048; of
  // 1003, the 32-lane one without 16-byte loads; of 160, 8 lanes).
  for (const char *k : {"rowsum_sub", "rowsum_rsub"})
    for (auto [m, n, expect] : {std::tuple<unsigned, unsigned, const char *>{4096, 2048, "__ptxopt_lanes"},
                                {1000, 1003, "__ptxopt_lanes_scalar"},
                                {3001, 160, "__ptxopt_lanes8"}})
      rows(std::string(k) + " " + std::to_string(m) + "x" + std::to_string(n), k,
           {in(Elem::I32, size_t(m) * n), out(Elem::I32, m), i32(int32_t(m)), i32(int32_t(n))}, m, "",
           "=" + std::string(k) + expect);
  rows("rowsum_char4 4096x1024", "rowsum_char4",
       {in(Elem::I8, size_t(4096) * 1024 * 4), out(Elem::I32, 4096), i32(4096), i32(1024)}, 4096, "",
       "=rowsum_char4__ptxopt_lanes");
  rows("rowsum_char4 4096x1024, staged", "rowsum_char4",
       {in(Elem::I8, size_t(4096) * 1024 * 4), out(Elem::I32, 4096), i32(4096), i32(1024)}, 4096,
       "rowwalk;rowwalk-lanes=0", "=rowsum_char4__ptxopt_staged");
  // Prefix sums: the staged clones (the lanes ones refused); two
  // independent sums in one loop: the lanes clones.
  for (const char *k : {"pf_addadd", "pf_subsub", "pf_max", "pf_idx", "two_sums"})
    rows(std::string(k) + " 4096x2048", k,
         {in(Elem::I32, size_t(4096) * 2048), out(Elem::I32, 4096), out(Elem::I32, 4096), i32(4096), i32(2048)},
         4096, "", "=" + std::string(k) + (std::string(k) == "two_sums" ? "__ptxopt_lanes" : "__ptxopt_staged"));
  rows("pairs_i 4096x1024, staged", "pairs_i",
       {in(Elem::I32, size_t(4096) * 2048), out(Elem::I32, 4096), i32(4096), i32(1024)}, 4096,
       "rowwalk;rowwalk-lanes=0", "=pairs_i__ptxopt_staged");
}

/// Two rows walked at one index (tests/lit/rowwalk/Inputs/tworows.cu:
/// nvcc's induction variable runs over each matrix's base, the row's offset
/// added in the loop): gesummv with `int` indices and with PolyBench's
/// accumulators in memory, two rows' dot product (float, int, double with
/// `unsigned` indices), one row through a separate offset; -O2's choice,
/// rows not a multiple of 32, row lengths not a multiple of the tile, a
/// matrix not 16-byte aligned (every warp runs the original loop).
void addRowWalkTwoRows(std::vector<Case> &cs) {
  auto mk = [&](const std::string &name, const std::string &kernel, std::vector<Arg> args, unsigned m, unsigned block,
                const std::string &expect) {
    const bool big = args[0].count >= (size_t(1) << 24);
    Case c = makeCase("rowwalk tworows: " + name + " " + std::to_string(m) + " rows b" + std::to_string(block),
                      "rowwalktworows", kernel, std::move(args), {(m + block - 1) / block, 1, 1}, {block, 1, 1});
    c.expect = expect;
    c.big = big;
    return c;
  };
  for (auto [n, block] : {std::pair{4096u, 256u}, std::pair{2000u, 128u}, std::pair{4099u, 256u}}) {
    const size_t nn = size_t(n) * n;
    // gesummv: the -O2 clones in the order the runtime tries them: staged+pack needs x 16-byte aligned and n % 4 == 0.
    const std::string sg = "=tr_gesummv__ptxopt_staged_pack";  // (pack's condition: x 16-byte aligned)
    // n = 4099: rows not 16-byte aligned, the row-length condition fails: the unaligned clone.
    const bool odd = n % 4 != 0;
    cs.push_back(mk("gesummv n" + std::to_string(n), "tr_gesummv",
                    {in(Elem::F32, nn), in(Elem::F32, nn), in(Elem::F32, n), out(Elem::F32, n), f32(1.5f), f32(1.2f),
                     i32(int32_t(n))},
                    n, block, odd ? "=tr_gesummv__ptxopt_staged_unaligned_pack" : sg));
    const std::string sd = "=tr_dot_rows__ptxopt_staged";  // (no vector to pack)
    cs.push_back(mk("dot rows n" + std::to_string(n), "tr_dot_rows",
                    {in(Elem::F32, nn), in(Elem::F32, nn), out(Elem::F32, n), i32(int32_t(n)), i32(int32_t(n))}, n,
                    block, odd ? "=tr_dot_rows__ptxopt_staged_unaligned" : sd));
    cs.push_back(mk("int diff rows n" + std::to_string(n), "tr_diff_int",
                    {in(Elem::I32, nn), in(Elem::I32, nn), out(Elem::I32, n), i32(int32_t(n)), i32(int32_t(n))}, n,
                    block, "clone"));
    cs.push_back(mk("double dot rows n" + std::to_string(n), "tr_dot_f64",
                    {in(Elem::F64, nn), in(Elem::F64, nn), out(Elem::F64, n), i32(int32_t(n)), i32(int32_t(n))}, n,
                    block, odd ? "=tr_dot_f64__ptxopt_staged_unaligned" : "clone"));
    cs.push_back(mk("one row by offset n" + std::to_string(n), "tr_one_row",
                    {in(Elem::F32, nn), in(Elem::F32, n), out(Elem::F32, n), i32(int32_t(n)), i32(int32_t(n))}, n,
                    block, odd ? "=tr_one_row__ptxopt_staged_unaligned_pack" : "clone"));
  }
  // PolyBench's gesummv (N = 4096, accumulators in memory; tmp and y read and written).
  cs.push_back(mk("gesummv PolyBench N4096", "tr_gesummv_pb",
                  {in(Elem::F32, size_t(4096) * 4096), in(Elem::F32, size_t(4096) * 4096), in(Elem::F32, 4096),
                   in(Elem::F32, 4096), in(Elem::F32, 4096)},
                  4096, 256, "clone"));
  // A matrix not 16-byte aligned: the clone's alignment condition fails, the original runs.
  cs.push_back(mk("dot rows, A + 4 bytes", "tr_dot_rows",
                  {in(Elem::F32, size_t(1024) * 1024, 4), in(Elem::F32, size_t(1024) * 1024), out(Elem::F32, 1024),
                   i32(1024), i32(1024)},
                  1024, 256, "original"));
  // Three and four rows (128-byte tiles): -O2's choice at 6144 x 4096 (the
  // held-out h11_bicg_gesummv_unsigned's size); forced under the staged
  // floor: rows not a multiple of 32 in 96-thread blocks, rows not 16-byte
  // aligned (the unaligned clone).
  for (auto [m, n, block] : {std::tuple{6144u, 4096u, 256u}, std::tuple{1001u, 1000u, 96u}, std::tuple{1000u, 1001u, 128u}}) {
    const size_t nn = size_t(m) * n;
    const bool odd = n % 4 != 0;
    cs.push_back(mk("three rows u32 " + std::to_string(m) + "x" + std::to_string(n), "tr_three_u32",
                    {in(Elem::F32, nn), in(Elem::F32, nn), in(Elem::F32, nn), in(Elem::F32, n), in(Elem::F32, n),
                     in(Elem::F32, n), out(Elem::F32, m), i32(int32_t(m)), i32(int32_t(n))},
                    m, block, odd ? "=tr_three_u32__ptxopt_staged_unaligned_pack" : "=tr_three_u32__ptxopt_staged_pack"));
    if (m < 2048) cs.back().passes = "rowwalk,pack;rowwalk-staged=1";  // under the staged clone's floor
    cs.push_back(mk("four rows int " + std::to_string(m) + "x" + std::to_string(n), "tr_four_int",
                    {in(Elem::F32, nn), in(Elem::F32, nn), in(Elem::F32, nn), in(Elem::F32, nn), out(Elem::F32, m),
                     i32(int32_t(n)), i32(int32_t(m))},
                    m, block, odd ? "=tr_four_int__ptxopt_staged_unaligned" : "=tr_four_int__ptxopt_staged"));
    if (m < 2048) cs.back().passes = "rowwalk,pack;rowwalk-staged=1";
  }
  // Rows not a multiple of 32 (the last warp runs the original loop), 96-thread blocks.
  cs.push_back(mk("dot rows 4001x1024", "tr_dot_rows",
                  {in(Elem::F32, size_t(4001) * 1024), in(Elem::F32, size_t(4001) * 1024), out(Elem::F32, 4001),
                   i32(1024), i32(4001)},
                  4001, 96, "=tr_dot_rows__ptxopt_staged"));
}

}  // namespace

void addRowWalkSweep(std::vector<Case> &cs) {
  addRowWalkTwoRows(cs);
  addRowWalkProbe(cs);
  addRowWalkRotated(cs);
  addRowWalkLdg(cs);
  addRowWalkNoUnroll(cs);
  const std::string forced = "rowwalk;rowwalk-staged=1";
  // #define N 2048 (floats: 16 per iteration, 64 bytes), -O2 then the edges.
  cs.push_back(constRows("#define row", "mv_define", 4096, 2048, 256, Elem::F32, true, "",
                         "=mv_define__ptxopt_staged_pack"));
  cs.push_back(constRows("#define row", "mv_define", 4096, 2048, 256, Elem::F32, true, "rowwalk",
                         "=mv_define__ptxopt_staged"));
  cs.push_back(constRows("#define row, rows not x32", "mv_define", 1000, 2048, 256, Elem::F32, true, forced,
                         "=mv_define__ptxopt_staged"));
  cs.push_back(constRows("#define row, 96-thread blocks", "mv_define", 1000, 2048, 96, Elem::F32, true, forced,
                         "=mv_define__ptxopt_staged"));
  // A template constant of 1024, and ints (32 per iteration: 128 bytes).
  cs.push_back(constRows("template row", "mv_tmpl1024", 8192, 1024, 256, Elem::F32, true, "",
                         "=mv_tmpl1024__ptxopt_staged_pack"));
  cs.push_back(constRows("template row, rows not x32", "mv_tmpl1024", 1000, 1024, 256, Elem::F32, true, forced,
                         "=mv_tmpl1024__ptxopt_staged"));
  cs.push_back(constRows("#define int row", "rowsum_define_int", 4096, 2048, 256, Elem::I32, false, "",
                         "=rowsum_define_int__ptxopt_staged"));
  cs.push_back(constRows("#define int row, rows not x32", "rowsum_define_int", 1000, 2048, 96, Elem::I32, false,
                         forced, "=rowsum_define_int__ptxopt_staged"));
  // Refused: a constant row of 192 floats (under the 256 measured).
  cs.push_back(constRows("short #define row (refused)", "mv_define_short", 4096, 192, 256, Elem::F32, true, "rowwalk",
                         "original"));
  // rowwalk32.cu's constant row through an unsigned index (a 64-bit pointer walk after it).
  {
    Case c = makeCase("rowwalk sweep: u32 constant row 4096x1024", "rowwalk32", "rowsum_u32_c1024",
                      {in(Elem::F32, size_t(4096) * 1024), out(Elem::F32, 4096), i32(4096)}, {16, 1, 1}, {256, 1, 1});
    c.expect = "=rowsum_u32_c1024__ptxopt_staged";
    c.big = true;
    cs.push_back(c);
    c = makeCase("rowwalk sweep: u32 constant row 1000x1024", "rowwalk32", "rowsum_u32_c1024",
                 {in(Elem::F32, size_t(1000) * 1024), out(Elem::F32, 1000), i32(1000)}, {4, 1, 1}, {256, 1, 1});
    c.passes = forced;
    c.expect = "=rowsum_u32_c1024__ptxopt_staged";
    cs.push_back(c);
  }
  // Grid-stride over rows (A, x, y, m, n): 64 blocks of 256 threads over
  // 20000 rows (each thread 1 or 2 rows: warps partly out of the outer loop),
  // then a remainder (1004) and a grid with more threads than rows.
  auto grid = [&](unsigned m, unsigned n, unsigned blocks, const std::string &passes, const std::string &expect) {
    Case c = makeCase("rowwalk sweep: grid-stride rows " + std::to_string(m) + "x" + std::to_string(n) + " g" +
                          std::to_string(blocks),
                      "rowwalksweep", "mv_gridstride",
                      {in(Elem::F32, size_t(m) * n), in(Elem::F32, n), out(Elem::F32, m), i32(int32_t(m)),
                       i32(int32_t(n))},
                      {blocks, 1, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(m) * n >= (size_t(1) << 24);
    return c;
  };
  cs.push_back(grid(20000, 1024, 64, "", "=mv_gridstride__ptxopt_staged_pack"));
  cs.push_back(grid(20000, 1024, 64, "rowwalk", "=mv_gridstride__ptxopt_staged"));
  cs.push_back(grid(3000, 1004, 8, forced, "=mv_gridstride__ptxopt_staged"));
  // More threads than rows: each thread's loop runs once, the clone of the
  // kernel of one row per thread (CasesRowWalkGridStride.cpp).
  cs.push_back(grid(1000, 1004, 16, forced, "=mv_gridstride__ptxopt_once_staged"));
  // An int row walked downwards (A, y, m, n): the lanes clones, exact.
  auto down = [&](unsigned m, unsigned n, const std::string &expect) {
    Case c = makeCase("rowwalk sweep: int row walked downwards " + std::to_string(m) + "x" + std::to_string(n),
                      "rowwalksweep", "rowsum_down_int",
                      {in(Elem::I32, size_t(m) * n), out(Elem::I32, m), i32(int32_t(m)), i32(int32_t(n))},
                      {(m + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = "rowwalk";
    c.expect = expect;
    c.big = size_t(m) * n >= (size_t(1) << 24);
    return c;
  };
  cs.push_back(down(4096, 4096, "=rowsum_down_int__ptxopt_lanes"));
  cs.push_back(down(1000, 1003, "=rowsum_down_int__ptxopt_lanes_scalar"));
  cs.push_back(down(1000, 100, "=rowsum_down_int__ptxopt_lanes4"));
  cs.push_back(down(1000, 128, "=rowsum_down_int__ptxopt_lanes8"));
  // Sweep shapes the pass took before the sweep, checked on the GPU here:
  // (A, x, y, m, n) kernels at -O2 and rows not a multiple of 32 (forced).
  auto mv = [&](const std::string &name, const std::string &kernel, unsigned m, unsigned n, const std::string &passes,
                const std::string &expect) {
    Case c = makeCase("rowwalk sweep: " + name + " " + std::to_string(m) + "x" + std::to_string(n), "rowwalksweep",
                      kernel,
                      {in(Elem::F32, size_t(m) * n), in(Elem::F32, n), out(Elem::F32, m), i32(int32_t(m)),
                       i32(int32_t(n))},
                      {(m + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(m) * n >= (size_t(1) << 24);
    return c;
  };
  // A while loop bumping two pointers: both staged as rows, per-lane trip counts.
  cs.push_back(mv("while, pointers bumped", "mv_while", 4096, 4096, "", "=mv_while__ptxopt_staged"));
  cs.push_back(mv("while, pointers bumped", "mv_while", 1000, 1004, forced, "=mv_while__ptxopt_staged"));
  // `continue` on a zero element (one in three): the guarded product runs
  // straight in the tiles, x[j] read unconditionally after the warp's check
  // of x's allocation (RowWalkSpeculate.cpp); -O2's pack clone, rowwalk's own
  // clone, rows not x32 and not 16-byte aligned (the unaligned clone).
  for (auto [m, n, passes, expect] :
       {std::tuple<unsigned, unsigned, std::string, std::string>{4096, 4096, "", "=mv_skipzero__ptxopt_staged_pack"},
        {4096, 4096, "rowwalk", "=mv_skipzero__ptxopt_staged"},
        {1000, 1004, forced, "=mv_skipzero__ptxopt_staged"},
        {1000, 1003, forced, "=mv_skipzero__ptxopt_staged_unaligned"}}) {
    Case c = mv("skip-zero continue", "mv_skipzero", m, n, passes, expect);
    c.args[0] = inZeros(Elem::F32, size_t(m) * n, 3);
    if (!passes.empty()) c.name += ", " + passes;
    cs.push_back(c);
  }
  // `#pragma unroll 1` (fifth session): the per-lane staged clone of a loop
  // of one float an iteration (64 copies a tile); rows not x32, not aligned.
  cs.push_back(mv("unroll 1", "mv_unroll1", 4096, 4096, "", "=mv_unroll1__ptxopt_staged"));
  cs.push_back(mv("unroll 1", "mv_unroll1", 1000, 1004, forced, "=mv_unroll1__ptxopt_staged"));
  cs.push_back(mv("unroll 1", "mv_unroll1", 1000, 1000, forced, "=mv_unroll1__ptxopt_staged"));
  // blockIdx.y picks the matrix (one matrix: the clone's grid.z == 1 too).
  cs.push_back(mv("batched, one matrix", "mv_batched", 4096, 4096, "", "=mv_batched__ptxopt_staged_pack"));
  // Launches with grid.y > 1: the staged clone runs the logical block's y
  // as its hardware block's z (stagedMapsYToZ). Batched: 8 matrices of
  // 1024 x 1024 (grid 4 x 8), and 5 of 1000 x 1004 (rows not x32, rows not
  // 16-byte aligned: every warp runs the original loop).
  for (auto [m, n, b, passes] : {std::tuple<unsigned, unsigned, unsigned, std::string>{1024, 1024, 8, ""},
                                 {1000, 1004, 5, forced}}) {
    Case c = makeCase("rowwalk sweep: batched, " + std::to_string(b) + " matrices " + std::to_string(m) + "x" +
                          std::to_string(n),
                      "rowwalksweep", "mv_batched",
                      {in(Elem::F32, size_t(b) * m * n), in(Elem::F32, size_t(b) * n), out(Elem::F32, size_t(b) * m),
                       i32(int32_t(m)), i32(int32_t(n))},
                      {(m + 255) / 256, b, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = passes.empty() ? "=mv_batched__ptxopt_staged_pack" : "=mv_batched__ptxopt_staged";
    cs.push_back(c);
  }
  // The row from blockIdx.y (a grid of 1 x m/256 blocks).
  for (auto [m, n, passes] : {std::tuple<unsigned, unsigned, std::string>{4096, 4096, ""}, {1000, 1008, forced}}) {
    Case c = makeCase("rowwalk sweep: row from blockIdx.y " + std::to_string(m) + "x" + std::to_string(n),
                      "rowwalksweep", "mv_grid2d_blocky",
                      {in(Elem::F32, size_t(m) * n), in(Elem::F32, n), out(Elem::F32, m), i32(int32_t(m)),
                       i32(int32_t(n))},
                      {1, (m + 255) / 256, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = passes.empty() ? "=mv_grid2d_blocky__ptxopt_staged_pack" : "=mv_grid2d_blocky__ptxopt_staged";
    c.big = size_t(m) * n >= (size_t(1) << 24);
    cs.push_back(c);
  }
  // alpha * A x + beta * y (y read: it starts at gpu-diff's poison, finite).
  {
    Case c = makeCase("rowwalk sweep: gemv alpha/beta 4096x4096", "rowwalksweep", "gemv_ab",
                      {in(Elem::F32, size_t(4096) * 4096), in(Elem::F32, 4096), out(Elem::F32, 4096), f32(1.5f),
                       f32(-0.5f), i32(4096), i32(4096)},
                      {16, 1, 1}, {256, 1, 1});
    c.expect = "=gemv_ab__ptxopt_staged_pack";
    c.big = true;
    cs.push_back(c);
  }
  // mvt's x1[i] += A[i][j] * y1[j] in memory (A, x1, y1, n).
  for (unsigned n : {4096u, 1000u}) {
    Case c = makeCase("rowwalk sweep: mvt x1 in memory " + std::to_string(n), "rowwalksweep", "mvt_x1",
                      {in(Elem::F32, size_t(n) * n), out(Elem::F32, n), in(Elem::F32, n), i32(int32_t(n))},
                      {(n + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = n == 4096 ? "" : "rowwalk,pack;rowwalk-staged=1";
    c.expect = "=mvt_x1__ptxopt_staged_pack";
    c.big = n == 4096;
    cs.push_back(c);
  }
  // A row norm (sqrtf after the loop; A, y, m, n) and the strictly lower
  // triangle with a division by the diagonal (L, x, y, n).
  {
    Case c = makeCase("rowwalk sweep: row norm 4096x4096", "rowwalksweep", "rownorm",
                      {in(Elem::F32, size_t(4096) * 4096), out(Elem::F32, 4096), i32(4096), i32(4096)}, {16, 1, 1},
                      {256, 1, 1});
    c.expect = "=rownorm__ptxopt_staged";
    c.big = true;
    cs.push_back(c);
    c = makeCase("rowwalk sweep: strictly lower triangle 2048", "rowwalksweep", "trmv_lt",
                 {in(Elem::F32, size_t(2048) * 2048), in(Elem::F32, 2048), out(Elem::F32, 2048), i32(2048)}, {8, 1, 1},
                 {256, 1, 1});
    c.expect = "=trmv_lt__ptxopt_staged_pack";
    cs.push_back(c);
  }
}

}  // namespace gpudiff
