// gpu-diff cases of the rowwalk pass's rows of 8- and 16-bit elements summed
// into 32-bit integers (issue 29, item 4; RowWalkShort.cpp): the kernels of
// tests/lit/rowwalk/Inputs/rowwalk-short.cu, every clone compared bit for
// bit with the original (random non-zero bytes: every byte odd).
//
// Edges: rows not a multiple of 32 (the last warp runs the original loop),
// row lengths not a multiple of the tile (the rest in the original loop),
// rows not 16-byte aligned (chars: lengths not a multiple of 16; shorts: of
// 8; the unaligned clone, each element read alone), a row length of 0 (the
// original runs: the row-length condition), the largest byte index right at
// 2^32 - 1 with the staged clone running (a window of a larger array). An
// index that wraps inside the loop would read 4 GB away: the check that
// sends such a warp to the original loop is FileChecked in
// tests/lit/rowwalk/short.test and index32.test.
#include "Cases.h"

namespace gpudiff {

void addRowWalkShort(std::vector<Case> &cs) {
  // A kernel (a, y, n, N) on n x N elements of `e`, summed into n ints.
  auto rows = [](const std::string &name, const std::string &kernel, unsigned n, unsigned N, Elem e,
                 const std::string &passes, const std::string &expect) {
    Case c = makeCase("rowwalkshort: " + name + " " + kernel + " " + std::to_string(n) + "x" + std::to_string(N),
                      "rowwalkshort", kernel,
                      {in(e, std::max<size_t>(1, size_t(n) * N)), out(Elem::I32, n), i32(int32_t(n)), i32(int32_t(N))},
                      {(n + 255) / 256, 1, 1}, {256, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = size_t(n) * N * elemSize(e) >= (size_t(1) << 24);
    return c;
  };
  const std::string staged = "rowwalk;rowwalk-staged=1;rowwalk-lanes=0";
  const std::pair<const char *, Elem> kernels[] = {
      {"rowsum_ptr_u8", Elem::I8},   {"rowsum_ptr_s8", Elem::I8},   {"rowsum_ptr_u16", Elem::I16},
      {"rowsum_ptr_s16", Elem::I16}, {"rowsum_u32_u8", Elem::I8},   {"rowsum_u32_s8", Elem::I8},
      {"rowsum_u32_u16", Elem::I16}, {"rowsum_u32_s16", Elem::I16}, {"rowsum_s32_u8", Elem::I8}};
  for (const auto &[k, e] : kernels) {
    const std::string K = k;
    // -O2 at 4096 x 4096: the 32-lane clone (integer sums: the lanes clones come first).
    cs.push_back(rows("-O2", K, 4096, 4096, e, "", "=" + K + "__ptxopt_lanes"));
    // The staged clone alone (lanes off): 4096 x 4096; rows not x32 and
    // 252 iterations (not a multiple of the 64 or 32 of a tile).
    cs.push_back(rows("staged", K, 4096, 4096, e, staged, "=" + K + "__ptxopt_staged"));
    cs.push_back(rows("staged, rows not x32, remainder", K, 1000, 1008, e, staged, "=" + K + "__ptxopt_staged"));
    // Rows not 16-byte aligned: the staged clone's row-length condition
    // fails (before 2026-11-29 the clone ran, every warp taking the original
    // loop); the unaligned clone runs (since the thirty-fifth session; the
    // original before).
    cs.push_back(rows("staged, rows not 16-byte aligned", K, 1000, e == Elem::I8 ? 1000 : 1004, e, staged,
                      "=" + K + "__ptxopt_staged_unaligned"));
    cs.push_back(rows("staged, row length 0", K, 256, 0, e, staged, "original"));
  }
  // Constant rows: 1024 chars (aligned), 1000 (rows 1000 bytes apart: no
  // warp's rows all 16-byte aligned: the unaligned clone).
  for (auto [k, n] : {std::pair<const char *, unsigned>{"rowsum_c1024_u8", 4096}, {"rowsum_c1000_s8", 4096}}) {
    for (const std::string &passes : {std::string(""), staged}) {
      const bool aligned = std::string(k) != "rowsum_c1000_s8";
      Case c = makeCase(std::string("rowwalkshort: ") + (passes.empty() ? "-O2 " : "staged ") + k + " " +
                            std::to_string(n),
                        "rowwalkshort", k, {in(Elem::I8, size_t(n) * 1024), out(Elem::I32, n), i32(int32_t(n))},
                        {n / 256, 1, 1}, {256, 1, 1});
      c.passes = passes;
      c.expect = passes.empty() ? std::string("=") + k + "__ptxopt_lanes"
                 : aligned        ? std::string("=") + k + "__ptxopt_staged"
                                  : std::string("=") + k + "__ptxopt_staged_unaligned";
      cs.push_back(c);
    }
  }
  // Bytes summed into a float: no lanes clone (not exact), so -O2 runs the staged clone.
  cs.push_back(rows("-O2 float sum", "rowsum_u32_u8_f32", 4096, 4096, Elem::I8, "", "=rowsum_u32_u8_f32__ptxopt_staged"));
  cs.push_back(rows("float sum, rows not x32, remainder", "rowsum_u32_u8_f32", 1000, 1008, Elem::I8,
                    "rowwalk;rowwalk-staged=1", "=rowsum_u32_u8_f32__ptxopt_staged"));
  // Loops nvcc did not unroll by 4 (`#pragma unroll 1` and `2`; refused
  // before the thirty-fifth session): the small-step retry, one byte read
  // alone or two as a v2 from the tile; rows at any offset: the unaligned
  // clone. (Integer sums: unroll2's lanes clones come first at -O2.)
  cs.push_back(rows("-O2 one byte an iteration", "rowsum_u8_nounroll", 4096, 4096, Elem::I8, "",
                    "=rowsum_u8_nounroll__ptxopt_staged"));
  cs.push_back(rows("-O2 one byte an iteration, rows off 16-byte boundaries", "rowsum_u8_nounroll", 4096, 4097,
                    Elem::I8, "", "=rowsum_u8_nounroll__ptxopt_staged_unaligned"));
  cs.push_back(rows("staged two bytes an iteration", "rowsum_u8_unroll2", 4096, 4096, Elem::I8, staged,
                    "=rowsum_u8_unroll2__ptxopt_staged"));
  cs.push_back(rows("-O2 two bytes an iteration", "rowsum_u8_unroll2", 4096, 4096, Elem::I8, "",
                    "=rowsum_u8_unroll2__ptxopt_lanes"));
  // (2^20 - 64) * 4096 + 63 * 4096 + 4095 = 2^32 - 1: rows r0 .. r0+63 of
  // 4096 bytes in a window whose element 0 is element `skip` of the whole array.
  Case w = makeCase("rowwalkshort: u8 largest index 2^32-1", "rowwalkshort", "rowsum_u32_u8_window",
                    {in(Elem::I8, 64 * 4096), out(Elem::I32, 64), i32(int32_t(4294705152u)), i32(int32_t(1048512u)),
                     i32(64), i32(4096)},
                    {2, 1, 1}, {32, 1, 1});
  w.passes = staged;
  w.expect = "=rowsum_u32_u8_window__ptxopt_staged";
  cs.push_back(w);
}

/// Rows of __half and __nv_bfloat16 (tests/lit/rowwalk/Inputs/scopes.cu):
/// cuda_fp16.h's conversions, adds and comparisons are nested { } scopes,
/// flattened in the clones (clone::flattenScopes). Inputs: finite halves in
/// [0.5, 2) (Elem::F16; as bf16 bits, finite numbers too). Edges as for the
/// short integer rows: rows not a multiple of 32 with a remainder, rows not
/// 16-byte aligned (1004 halves: the unaligned clone), a row length of 0
/// (the original).
void addRowWalkScopes(std::vector<Case> &cs) {
  const std::string staged = "rowwalk;rowwalk-staged=1;rowwalk-lanes=0";
  struct K {
    const char *name;
    Elem outElem;
    bool vector;    // gemv: a vector of N halves after the matrix
    bool threshold;  // a __half threshold after n, N (1.25: 0x3D00)
    const char *o2;  // the clone -O2 runs at 4096 x 4096
  };
  const K kernels[] = {{"rowsum_half_f32", Elem::F32, false, false, "staged"},
                       {"rowsum_half_h", Elem::I16, false, false, "staged"},
                       {"rowcount_half_gt", Elem::I32, false, true, "lanes"},
                       {"gemv_half", Elem::F32, true, false, "staged_pack"},
                       {"rowsum_bf16_f32", Elem::F32, false, false, "staged"}};
  for (const K &k : kernels) {
    auto make = [&](const std::string &what, unsigned n, unsigned N, const std::string &passes,
                    const std::string &expect) {
      std::vector<Arg> args = {in(Elem::F16, std::max<size_t>(1, size_t(n) * N))};
      if (k.vector) args.push_back(in(Elem::F16, std::max<size_t>(1, N)));
      args.push_back(out(k.outElem, n));
      args.push_back(i32(int32_t(n)));
      args.push_back(i32(int32_t(N)));
      if (k.threshold) args.push_back(i32(0x3D00));
      Case c = makeCase("scopes: " + what + " " + k.name + " " + std::to_string(n) + "x" + std::to_string(N), "scopes",
                        k.name, args, {(n + 255) / 256, 1, 1}, {256, 1, 1});
      c.passes = passes;
      c.expect = expect;
      c.big = size_t(n) * N * 2 >= (size_t(1) << 24);
      cs.push_back(c);
    };
    const std::string K = k.name;
    make("-O2", 4096, 4096, "", "=" + K + "__ptxopt_" + k.o2);
    make("staged", 4096, 4096, staged, "=" + K + "__ptxopt_staged");
    make("staged, rows not x32, remainder", 1000, 1008, staged, "=" + K + "__ptxopt_staged");
    make("staged, rows not 16-byte aligned", 1000, 1004, staged, "=" + K + "__ptxopt_staged_unaligned");
    make("staged, row length 0", 256, 0, staged, "original");
  }
}

}  // namespace gpudiff
