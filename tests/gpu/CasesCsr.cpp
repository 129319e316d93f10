// gpu-diff cases of the rowwalk pass's lanes clone of scalar CSR sparse
// matrix-vector products (issue 29, item 5; RowWalkCsr.cpp): the kernels of
// tests/lit/rowwalk/Inputs/csr.cu (rowptr, col, val, x, y, n), every clone
// compared bit for bit with the original (integers), floats reassociated
// against a float64 reference with the recursive-sum bound.
//
// Edges: random sparsity (row lengths drawn from lo..hi), rows of 0
// non-zeros (about one in 8 rows), rows of 1-8 (the remainder loop alone or
// with one unrolled iteration), 32-256, n not a multiple of 32 or of the
// block; x of 4096 elements (columns random below 4096). -O2 runs the
// rounds clone (RowWalkCsrRounds.cpp: the original's launch, each warp
// choosing between the original code and its rows split), rowwalk-csr the
// clone of G times the threads.
#include "Cases.h"

#include <cmath>

namespace gpudiff {

/// |y - ref| <= (len + 1) * eps * sum |val*x| per row, eps 2^-23 for float
/// and 2^-52 for double (the original meets it too); ref in long double.
template <typename T>
Approx csrApprox(unsigned n) {
  return [n](const std::vector<std::vector<unsigned char>> &inputs, const std::vector<unsigned char> &outputs) {
    using L = long double;
    const uint32_t *rp = reinterpret_cast<const uint32_t *>(inputs[0].data());
    const uint32_t *col = reinterpret_cast<const uint32_t *>(inputs[1].data());
    const T *val = reinterpret_cast<const T *>(inputs[2].data());
    const T *x = reinterpret_cast<const T *>(inputs[3].data());
    const T *y = reinterpret_cast<const T *>(outputs.data());
    const L eps = std::ldexp(L(1), sizeof(T) == 4 ? -23 : -52);
    for (size_t i = 0; i < n; ++i) {
      L ref = 0, mag = 0;
      for (uint32_t j = rp[i]; j < rp[i + 1]; ++j) {
        ref += L(val[j]) * L(x[col[j]]);
        mag += std::fabs(L(val[j]) * L(x[col[j]]));
      }
      const L bound = L(rp[i + 1] - rp[i] + 1) * eps * mag;
      if (!(std::fabs(L(y[i]) - ref) <= bound))
        return "row " + std::to_string(i) + ": " + std::to_string(double(y[i])) + " vs " +
               std::to_string(double(ref)) + " (bound " + std::to_string(double(bound)) + ")";
    }
    return std::string();
  };
}

template Approx csrApprox<float>(unsigned);
template Approx csrApprox<double>(unsigned);

void addCsr(std::vector<Case> &cs) {
  constexpr unsigned kCols = 4096;
  auto csr = [&](const std::string &what, const std::string &kernel, unsigned n, unsigned lo, unsigned hi,
                 unsigned zeros, bool floating, const std::string &passes, const std::string &expect,
                 unsigned block = 256, const std::string &file = "csr") {
    const Elem e = floating ? Elem::F32 : Elem::I32;
    const size_t nnz = std::max<size_t>(1, size_t(n) * hi);
    const unsigned blocks = kernel == "csr_i32_noguard" ? n / block : (n + block - 1) / block;
    Case c = makeCase("csr: " + what + " " + kernel + " " + std::to_string(n) + " rows of " + std::to_string(lo) +
                          "-" + std::to_string(hi) + (zeros && lo ? ", one in " + std::to_string(zeros) + " empty" : "") +
                          (block == 256 ? "" : ", blocks of " + std::to_string(block)),
                      file, kernel,
                      {rowPtrs(n, lo, hi, zeros), indices(nnz, kCols), in(e, nnz), in(e, kCols), out(e, n),
                       i32(int32_t(n))},
                      {blocks, 1, 1}, {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = nnz >= (size_t(1) << 22);
    if (floating) c.approx = csrApprox<float>(n);
    return c;
  };
  const std::string on = "rowwalk;rowwalk-csr", onF = "rowwalk;rowwalk-csr;reassociate";
  for (const char *k : {"csr_i32", "csr_u32"}) {
    const std::string K = k;
    // -O2: the rounds clone (RowWalkCsrRounds.cpp), the original's launch,
    // launches of 65536 threads or more; each warp chooses: rows of 32-256
    // without empty rows and of 128 split (every row of 32 or more), 32-256
    // with one row in 8 empty, 0-300, 1-8, 0-3, 0-40 and 16-48 the original
    // code (a lane whose row is empty or short never reaches the vote) in
    // nearly every warp. The few warps of 32-256 with one in 8 empty whose
    // rows are all long (1.4%) take the rounds and end last: 0.90-0.94x, a
    // rule-1 miss left open (docs/BENCHMARKS.md, "Warps with an empty or
    // short row among long ones").
    // Unsigned indices (csr_u32): no rounds clone (registers), the original.
    const bool rounds = K == "csr_i32";
    const std::string R = rounds ? "=" + K + "__ptxopt_csr" : "original";
    // The cases' names say which: the unsigned kernel's expect the original.
    const std::string O2 = rounds ? "-O2 rounds" : "-O2, unsigned index (no rounds)";
    const std::string with = rounds ? "rounds, " : "unsigned index (no rounds), ";
    for (auto [n, lo, hi, zeros] : {std::tuple<unsigned, unsigned, unsigned, unsigned>{70001, 32, 256, 8},
                                    {70001, 32, 256, 0}, {65536, 128, 128, 0}, {100000, 1, 8, 8}, {70000, 0, 3, 0},
                                    {80000, 0, 40, 4}, {70000, 16, 48, 0}})
      cs.push_back(csr(O2, K, n, lo, hi, zeros, false, "", R));
    // Rows of 0-300: not every row long (a mean past 64: the first form's
    // second way into the rounds; now the original code).
    cs.push_back(csr(O2, K, 70001, 0, 300, 8, false, "", R));
    // Under the launch floor: the original.
    cs.push_back(csr("-O2, under 65536 threads", K, 4001, 32, 256, 8, false, "", "original"));
    // Blocks of 96 (3 warps): the clone; of 48 (a warp of 16): the original.
    cs.push_back(csr(O2, K, 70001, 0, 64, 8, false, "", R, 96));
    cs.push_back(csr("-O2, not whole warps", K, 70001, 0, 64, 8, false, "", "original", 48));
    // 4 and 32 lanes a row in the rounds (rowwalk-csr-lanes).
    cs.push_back(csr(with + "4 lanes", K, 70001, 32, 256, 0, false, "rowwalk;rowwalk-csr-lanes=4", R));
    cs.push_back(csr(with + "32 lanes", K, 70001, 32, 256, 0, false, "rowwalk;rowwalk-csr-lanes=32", R));
    cs.push_back(csr("no rounds (rowwalk-csr-rounds=0)", K, 70001, 32, 256, 0, false, "rowwalk;rowwalk-csr-rounds=0", "original"));
    for (auto [n, lo, hi, zeros] : {std::tuple<unsigned, unsigned, unsigned, unsigned>{4001, 32, 256, 8},
                                    {65536, 128, 128, 0}, {1000, 1, 8, 8}, {777, 0, 3, 0}, {5000, 0, 40, 4}})
      cs.push_back(csr("lanes", K, n, lo, hi, zeros, false, on, "=" + K + "__ptxopt_lanes8"));
    // 32 lanes (rowwalk-csr-lanes=32), rows of 32-256 and of 1-8.
    for (auto [n, lo, hi, zeros] : {std::tuple<unsigned, unsigned, unsigned, unsigned>{4001, 32, 256, 8},
                                    {1000, 1, 8, 8}})
      cs.push_back(csr("32 lanes", K, n, lo, hi, zeros, false, on + ";rowwalk-csr-lanes=32", "=" + K + "__ptxopt_lanes"));
  }
  // No guard: n a multiple of the block.
  cs.push_back(csr("lanes", "csr_i32_noguard", 4096, 1, 64, 8, false, on, "=csr_i32_noguard__ptxopt_lanes8"));
  // 4 lanes (rowwalk-csr-lanes=4), rows of 1-8.
  cs.push_back(csr("4 lanes", "csr_i32", 1000, 1, 8, 8, false, on + ";rowwalk-csr-lanes=4", "=csr_i32__ptxopt_lanes4"));
  cs.push_back(csr("-O2 rounds", "csr_i32_noguard", 65536, 0, 64, 8, false, "", "=csr_i32_noguard__ptxopt_csr"));
  // Floats, --reassociate: the rounds clone; without it the original.
  for (auto [n, lo, hi, zeros] : {std::tuple<unsigned, unsigned, unsigned, unsigned>{70001, 32, 256, 0},
                                  {100000, 1, 8, 8}, {80000, 0, 40, 4}})
    cs.push_back(csr("rounds, reassociated", "csr_f32", n, lo, hi, zeros, true, "rowwalk;reassociate", "=csr_f32__ptxopt_csr"));
  cs.push_back(csr("-O2 (no reassociate)", "csr_f32", 70001, 32, 256, 0, true, "", "original"));
  // Floats without reassociate: no lanes clone even with rowwalk-csr.
  cs.push_back(csr("no reassociate", "csr_f32", 4001, 32, 256, 0, true, on, "original"));
  for (auto [n, lo, hi, zeros] : {std::tuple<unsigned, unsigned, unsigned, unsigned>{4001, 32, 256, 8},
                                  {1000, 1, 8, 8}, {5000, 0, 40, 4}})
    cs.push_back(csr("lanes, reassociated", "csr_f32", n, lo, hi, zeros, true, onF, "=csr_f32__ptxopt_lanes8"));
  cs.push_back(csr("32 lanes, reassociated", "csr_f32", 4001, 32, 256, 8, true, onF + ";rowwalk-csr-lanes=32",
                   "=csr_f32__ptxopt_lanes"));
  // Doubles (--reassociate), a size_t row pointer, a row maximum: the
  // rounds clone's 64-bit shuffles, 64-bit row pointers, another reduction.
  {
    const unsigned n = 70001;
    const size_t nnz = size_t(n) * 96;
    Case d = makeCase("csr: rounds, reassociated csr_f64 70001 rows of 32-96", "csr", "csr_f64",
                      {rowPtrs(n, 32, 96, 0), indices(nnz, kCols), in(Elem::F64, nnz), in(Elem::F64, kCols),
                       out(Elem::F64, n), i32(int32_t(n))},
                      {(n + 255) / 256, 1, 1}, {256, 1, 1});
    d.passes = "rowwalk;reassociate";
    d.expect = "=csr_f64__ptxopt_csr";
    d.approx = csrApprox<double>(n);
    cs.push_back(d);
    Case z = makeCase("csr: -O2 rounds csr_sizet 70001 rows of 32-96", "csr", "csr_sizet",
                      {rowPtrs(n, 32, 96, 0, true), indices(nnz, kCols), in(Elem::I32, nnz), in(Elem::I32, kCols),
                       out(Elem::I32, n), i64(n)},
                      {(n + 255) / 256, 1, 1}, {256, 1, 1});
    z.expect = "=csr_sizet__ptxopt_csr";
    cs.push_back(z);
    cs.push_back(csr("-O2 rounds", "csr_max", n, 32, 96, 0, false, "", "=csr_max__ptxopt_csr"));
  }
  // Unsigned indices in a float sum: nvcc's `iv < bound` latch is unsigned (refused), the original runs.
  cs.push_back(csr("refused (setp.lt.u32)", "csr_f32_u32", 4001, 32, 256, 8, true, onF, "original"));
  // Rows walked by pointer (`while (v < end) s += *v++ * x[*c++]`, nvcc's
  // rolled loop): the rounds clone, the vote asking 32 iterations (32
  // non-zeros); floats with --reassociate.
  for (auto [n, lo, hi, zeros] : {std::tuple<unsigned, unsigned, unsigned, unsigned>{70001, 32, 256, 0},
                                  {65536, 128, 128, 0}, {70001, 32, 256, 8}, {100000, 1, 8, 8}, {80000, 0, 40, 4},
                                  {70000, 16, 48, 0}})
    cs.push_back(csr("pointer walk, -O2 rounds", "csr_ptrwalk_i32", n, lo, hi, zeros, false, "",
                     "=csr_ptrwalk_i32__ptxopt_csr", 256, "csrptrwalk"));
  cs.push_back(csr("pointer walk, rounds, reassociated", "csr_ptrwalk_f32", 70001, 32, 256, 0, true,
                   "rowwalk;reassociate", "=csr_ptrwalk_f32__ptxopt_csr", 256, "csrptrwalk"));
  cs.push_back(csr("pointer walk, -O2 (exact: no clone)", "csr_ptrwalk_f32", 70001, 32, 256, 0, true, "", "original",
                   256, "csrptrwalk"));
  // A rolled `long` index (setp.lt.s64; the thirty-third session): the
  // rounds clone with a 64-bit trip count, each lane checking its start and
  // bound within 2^62 of 0; 64-bit row pointers.
  for (auto [n, lo, hi, zeros] : {std::tuple<unsigned, unsigned, unsigned, unsigned>{70001, 32, 256, 0},
                                  {65536, 128, 128, 0}, {70001, 32, 256, 8}, {100000, 1, 8, 8}, {80000, 0, 40, 4}}) {
    const size_t nnz = std::max<size_t>(1, size_t(n) * hi);
    Case c = makeCase("csr: long index, -O2 rounds csr_long_lt " + std::to_string(n) + " rows of " +
                          std::to_string(lo) + "-" + std::to_string(hi) +
                          (zeros && lo ? ", one in " + std::to_string(zeros) + " empty" : ""),
                      "csrlong", "csr_long_lt",
                      {rowPtrs(n, lo, hi, zeros, true), indices(nnz, kCols), in(Elem::I32, nnz), in(Elem::I32, kCols),
                       out(Elem::I32, n), i32(int32_t(n))},
                      {(n + 255) / 256, 1, 1}, {256, 1, 1});
    c.expect = "=csr_long_lt__ptxopt_csr";
    c.big = nnz >= (size_t(1) << 22);
    cs.push_back(c);
  }
}

}  // namespace gpudiff
