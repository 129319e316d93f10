// gpu-diff cases ("rowwalk gathered: ") of rows whose start the kernel
// loads (issue 29; Planner::unknownRows, the unaligned staged clone only;
// tests/lit/rowwalk/Inputs/gathered.cu): an embedding's rows gathered by
// index dotted with a query, integer sums and maxima of gathered rows.
// Every clone compared bit for bit with the original on random non-zero
// inputs.
#include "Cases.h"

namespace gpudiff {

/// Rows whose start the kernel loads (tests/lit/rowwalk/Inputs/gathered.cu;
/// Planner::unknownRows): n rows picked at random (indices below `table`)
/// from a table of rows of d elements; the unaligned clone (nothing at
/// launch says where the rows lie). Rows of 257 floats: at every offset.
void addRowWalkGathered(std::vector<Case> &cs) {
  for (auto [n, table, d, block] : {std::tuple<unsigned, unsigned, unsigned, unsigned>{65536, 100000, 256, 256},
                                    {16384, 50000, 1024, 128}, {40000, 100000, 257, 256}}) {
    const std::string what = d == 257 ? "rows off 16-byte boundaries" : "";
    // (table, idx, [q,] out, n, d): embed_dot_f32 also reads a query row.
    for (auto [k, e, expect] : {std::tuple<std::string, Elem, std::string>{"embed_dot_f32", Elem::F32, "_pack"},
                                {"gather_sum_i32", Elem::I32, ""},
                                {"gather_max_u32", Elem::I32, ""}}) {
      std::vector<Arg> args = {in(e, size_t(table) * d), indices(n, table)};
      if (k == "embed_dot_f32") args.push_back(in(Elem::F32, d));
      for (Arg a : {out(e, n), i32(int32_t(n)), i32(int32_t(d))}) args.push_back(a);
      Case c = rowsCase("rowwalk gathered", "rowwalkgathered", k, args, n, d, block,
                        "=" + k + "__ptxopt_staged_unaligned" + expect, what);
      c.big = true;
      cs.push_back(c);
    }
  }
}

}  // namespace gpudiff
