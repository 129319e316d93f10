// gpu-diff cases of the rowwalk pass's row walks with early exits (issue 29,
// item 3; docs/PASSES.md, rowwalk, "Early exits"): the kernels of
// tests/lit/rowwalk/Inputs/exits.cu, every clone compared bit for bit with
// the original.
//
// Inputs: random non-zero elements (floats in [0.5, 100)) with zeros about
// one in `zeros` (the sentinel the loops stop at), so lanes of a warp leave
// at different iterations, some in their first tile, some never. Edges:
// rows not a multiple of 32 (the last warp's lanes copy their own rows: the
// solo form, its exits straight to their targets), row lengths not a
// multiple of the tile (the remaining iterations in the original loop),
// rows not 16-byte aligned (no clone takes them: the original), a row
// buffer shorter than the rows (its last rows end past the allocation; the
// loops stop at a zero before its end: the warps whose tiles would leave
// the allocation run the original loop), and the refused kernels.
#include "Cases.h"

namespace gpudiff {

void addRowWalkExits(std::vector<Case> &cs) {
  // A kernel (a, y, n, m[, extra]): y[i] from row i of a (n x m).
  auto rows = [](const std::string &name, const std::string &kernel, unsigned n, unsigned m, unsigned block, Elem e,
                 unsigned zeros, const std::string &passes, const std::string &expect, std::vector<Arg> extra = {},
                 size_t shortBy = 0) {
    const size_t na = std::max<size_t>(1, size_t(n) * m - shortBy);
    std::vector<Arg> args = {zeros ? inZeros(e, na, zeros) : in(e, na), out(e, n), i32(int32_t(n)), i32(int32_t(m))};
    args.insert(args.end(), extra.begin(), extra.end());
    Case c = makeCase("rowwalk exits: " + name + " " + std::to_string(n) + "x" + std::to_string(m) + " b" +
                          std::to_string(block),
                      "rowwalkexits", kernel, args, {(n + block - 1) / block, 1, 1}, {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(n) * m >= (size_t(1) << 24);
    return c;
  };
  // The clone is behind the pass option rowwalk-exits (off by default:
  // rows that end early run slower); -O2 with it, or forced.
  const std::string forced = "rowwalk;rowwalk-staged=1;rowwalk-exits", o2 = "-O2;rowwalk-exits";
  // Sum to a zero, float: -O2 at 4096 x 4096 (the staged clone by default),
  // zeros rare (most rows walk far), common (most leave in their first
  // tile), none (no lane leaves), then the edges.
  cs.push_back(rows("zero-terminated float", "exit_zero_f32", 4096, 4096, 256, Elem::F32, 3000, o2,
                    "=exit_zero_f32__ptxopt_staged"));
  cs.push_back(rows("zero-terminated float, many zeros", "exit_zero_f32", 4096, 4096, 256, Elem::F32, 16, o2,
                    "=exit_zero_f32__ptxopt_staged"));
  cs.push_back(rows("zero-terminated float, no zeros", "exit_zero_f32", 2048, 2048, 256, Elem::F32, 0, o2,
                    "=exit_zero_f32__ptxopt_staged"));
  cs.push_back(rows("zero-terminated float, rows not x32, remainder", "exit_zero_f32", 1000, 1004, 256, Elem::F32,
                    700, forced, "=exit_zero_f32__ptxopt_staged"));
  cs.push_back(rows("zero-terminated float, 96-thread blocks", "exit_zero_f32", 1000, 1004, 96, Elem::F32, 700,
                    forced, "=exit_zero_f32__ptxopt_staged"));
  cs.push_back(rows("zero-terminated float, rows not 16-byte aligned", "exit_zero_f32", 1000, 1003, 256, Elem::F32,
                    700, forced, "original"));
  cs.push_back(rows("zero-terminated float, row length 1", "exit_zero_f32", 256, 1, 256, Elem::F32, 3, forced,
                    "original"));
  // The rows' buffer short of n x m, its last element 0 (the last row
  // stops there; the rows before run long, zeros one in 3000): the last
  // warp's tiles would pass the allocation's end, so it runs the original
  // loop; the others stage.
  auto shortBuffer = [&](unsigned n, unsigned m, size_t by, const std::string &passes) {
    Case c = rows("zero-terminated float, buffer short of the last row", "exit_zero_f32", n, m, 256, Elem::F32, 3000,
                  passes, "=exit_zero_f32__ptxopt_staged", {}, by);
    c.args[0].lastZero = true;
    return c;
  };
  cs.push_back(shortBuffer(4096, 4096, 2048, o2));
  cs.push_back(shortBuffer(1000, 1024, 600, forced));
  // 32-bit int index arithmetic.
  cs.push_back(rows("zero-terminated int", "exit_zero_i32", 4096, 4096, 256, Elem::I32, 2000, o2,
                    "=exit_zero_i32__ptxopt_staged"));
  cs.push_back(rows("zero-terminated int, rows not x32, remainder", "exit_zero_i32", 1000, 1004, 256, Elem::I32, 300,
                    forced, "=exit_zero_i32__ptxopt_staged"));
  // A search (another exit target than the loop's end).
  cs.push_back(rows("find first", "find_first_i32", 4096, 4096, 256, Elem::I32, 4000, o2,
                    "=find_first_i32__ptxopt_staged", {i32(0)}));
  cs.push_back(rows("find first, rows not x32, remainder", "find_first_i32", 1000, 1004, 256, Elem::I32, 500, forced,
                    "=find_first_i32__ptxopt_staged", {i32(0)}));
  // Two exits, one a return with a store of its own (values over 99.9:
  // about one in a thousand).
  cs.push_back(rows("two exits", "exit_two_f32", 4096, 4096, 256, Elem::F32, 5000, o2, "=exit_two_f32__ptxopt_staged",
                    {f32(99.9f)}));
  cs.push_back(rows("two exits, rows not x32, remainder", "exit_two_f32", 1000, 1004, 256, Elem::F32, 500, forced,
                    "=exit_two_f32__ptxopt_staged", {f32(99.9f)}));
  // Without the option: the original runs.
  cs.push_back(rows("zero-terminated float, -O2 (no rowwalk-exits)", "exit_zero_f32", 4096, 4096, 256, Elem::F32, 3000,
                    "", "original"));
  // A size_t counter (the scaled 64-bit offset form, since the thirty-third session).
  {
    Case c = makeCase("rowwalk exits: size_t counter", "rowwalkexits", "exit_sizet_f32",
                      {inZeros(Elem::F32, 1000 * 1004, 700), out(Elem::F32, 1000), i32(1000), i64(1004)}, {4, 1, 1},
                      {256, 1, 1});
    c.passes = forced;
    c.expect = "=exit_sizet_f32__ptxopt_staged";
    cs.push_back(c);
  }
}

}  // namespace gpudiff
