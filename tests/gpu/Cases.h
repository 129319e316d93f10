// The differential test cases of gpu-diff (tests/gpu/gpu_diff.cpp): which
// kernel, its arguments in parameter order, the launch, and what the
// optimized module's launch must have chosen.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpudiff {

enum class Elem { I8, I16, I32, F32, I64, F64, F16 };  // F64, F16: finite values (randomData)
size_t elemSize(Elem e);

struct Arg {
  enum class Kind { In, Out, I32, F32, I64, Pack };
  Kind kind = Kind::I32;
  Elem elem = Elem::I32;
  size_t count = 0;     // elements (buffers)
  uint32_t offset = 0;  // bytes added to the device pointer: misalignment on purpose
  int64_t i = 0;  // I32, I64 (an I32 argument's value fits 32 bits)
  float f = 0;
  int alias = -1;  // a buffer that is argument `alias`'s (plus offset): overlapping pointers
  unsigned zeroOneIn = 0;  // In: each element 0 with probability 1/zeroOneIn (skip-zero loops); 0: none
  // In, 32-bit elements (row pointers also 64-bit), CSR (RowWalkCsr.cpp): csrMax > 0: row pointers
  // (count = rows + 1) from 0, each row csrMin..csrMax elements (0 about one
  // row in zeroOneIn); csrMod > 0: random values below csrMod (column indices).
  unsigned csrMin = 0, csrMax = 0, csrMod = 0;
  // In, 32-bit elements: element e holds min(e + 1, count - 1) (srad's
  // neighbour indices iS[i], jE[j]).
  bool nextIndex = false;
  // In: the last element 0 (a sentinel a loop with an early exit stops at
  // before the buffer's end).
  bool lastZero = false;
  // In: also compared after the run, like an output (in-place kernels).
  bool compared = false;
  // Pack: a struct passed by value, the values of arguments `fields` (in
  // order, each at its natural alignment: pointers and 64-bit integers 8
  // bytes, 32-bit ones and floats 4); those arguments are set up and
  // compared as any other but passed only inside the struct (inPack).
  std::vector<int> fields = {};
  bool inPack = false;
};

inline Arg in(Elem e, size_t n, uint32_t offset = 0) { return {Arg::Kind::In, e, n, offset, 0, 0}; }
/// An input with zeros among its random elements (about one in `oneIn`).
inline Arg inZeros(Elem e, size_t n, unsigned oneIn) {
  Arg a = in(e, n);
  a.zeroOneIn = oneIn;
  return a;
}
/// An input the kernel updates in place: initialized like an input, compared like an output.
inline Arg inout(Elem e, size_t n) {
  Arg a = in(e, n);
  a.compared = true;
  return a;
}
inline Arg out(Elem e, size_t n) { return {Arg::Kind::Out, e, n, 0, 0, 0}; }
inline Arg i32(int32_t v) { return {Arg::Kind::I32, Elem::I32, 0, 0, v, 0}; }
inline Arg f32(float v) { return {Arg::Kind::F32, Elem::F32, 0, 0, 0, v}; }
/// A 64-bit integer parameter (`long`, `size_t`, `int64_t`).
inline Arg i64(int64_t v) { return {Arg::Kind::I64, Elem::I64, 0, 0, v, 0}; }
/// A struct argument holding arguments `fields`' values (see Arg::fields).
inline Arg pack(std::vector<int> fields) {
  Arg a{Arg::Kind::Pack, Elem::I8, 0, 0, 0, 0};
  a.fields = std::move(fields);
  return a;
}
/// `a`, passed only inside a pack.
inline Arg inPack(Arg a) {
  a.inPack = true;
  return a;
}
/// CSR row pointers of `rows` rows of lo..hi elements (a row of 0 about one in `zeroOneIn`; 0: none).
/// `wide`: 64-bit row pointers (`size_t`).
inline Arg rowPtrs(size_t rows, unsigned lo, unsigned hi, unsigned zeroOneIn = 0, bool wide = false) {
  Arg a = in(wide ? Elem::I64 : Elem::I32, rows + 1);
  a.csrMin = lo, a.csrMax = hi, a.zeroOneIn = zeroOneIn;
  return a;
}
/// Random 32-bit indices below `mod` (CSR column indices).
inline Arg indices(size_t n, unsigned mod) {
  Arg a = in(Elem::I32, n);
  a.csrMod = mod;
  return a;
}
/// Indices of the next element, clamped: e -> min(e + 1, n - 1).
inline Arg nextIndices(size_t n) {
  Arg a = in(Elem::I32, n);
  a.nextIndex = true;
  return a;
}
/// An input whose pointer is argument `of`'s plus `offset` bytes (no buffer of its own).
inline Arg aliasOf(int of, Elem e, uint32_t offset = 0) { return {Arg::Kind::In, e, 0, offset, 0, 0, of}; }

/// For clones allowed to change results (reassociated floating-point sums):
/// checks one run's outputs against a float64 reference computed from the
/// inputs (`inputs[i]`: argument i's initial bytes; `outputs`: the output
/// buffers as gpu-diff reads them); "" when within the case's bound, else why.
using Approx = std::function<std::string(const std::vector<std::vector<unsigned char>> &inputs,
                                         const std::vector<unsigned char> &outputs)>;

/// A "clone" that is a renamed copy of the kernel's own PTX, with a
/// hand-written manifest entry. It tests the runtime's selection on the GPU
/// independently of the optimizer: a copy computes what the original does
/// under an identity launch, and Fig. 6-a's matrix add also under a swapped
/// one (the swap maps the threads one to one onto the same elements).
struct SynthVariant {
  std::string suffix;  // clone name = kernel + suffix
  std::string kind;    // "remap", "swap", "group"
  std::array<std::string, 3> grid{"grid.x", "grid.y", "grid.z"};
  std::array<std::string, 3> block{"block.x", "block.y", "block.z"};
  uint32_t blockMultipleX = 1;
  int alignedParam = -1;  // index of a parameter that must be aligned, or -1
  uint32_t alignBytes = 0;
  bool allowDynamicShared = true;
};

struct Case {
  std::string name;    // label in the output
  std::string file;    // the PTX is <cases dir>/<file>.ptx
  std::string kernel;  // .entry name
  std::vector<Arg> args;
  std::array<unsigned, 3> grid{1, 1, 1}, block{1, 1, 1};
  unsigned shared = 0;
  /// What the optimized module's launch must run: "" anything, "original",
  /// "clone" (any clone), "!<kind>" (anything but that kind), "=<name>".
  std::string expect;
  std::vector<SynthVariant> synth;  // non-empty: the optimized module is the PTX plus these copies
  bool autotune = false;            // load the optimized module with PTXOPT_AUTOTUNE=1
  bool big = false;                 // left out by --quick
  std::string passes;               // the optimizer's pipeline and options ("" = -O2)
  /// Set: the outputs of both runs are checked against this reference
  /// (the original must meet the bound too) instead of bit for bit.
  Approx approx;
};

/// A case with the given kernel, arguments and launch; the rest defaulted.
Case makeCase(std::string name, std::string file, std::string kernel, std::vector<Arg> args,
              std::array<unsigned, 3> grid, std::array<unsigned, 3> block);

/// A row walk's case: named "<prefix>: <kernel> <rows>x<m> b<block>[, what][ (passes)]",
/// one thread per row in 1-D blocks, `big` from 2^22 elements (left out by --quick).
Case rowsCase(const std::string &prefix, const std::string &file, const std::string &kernel, std::vector<Arg> args,
              unsigned rows, unsigned m, unsigned block, const std::string &expect, const std::string &what = "",
              const std::string &passes = "");

std::vector<Case> allCases();

/// rowwalk's textbook row walk: regacc, staged, lanes clones (CasesRowWalk.cpp).
void addRowWalk(std::vector<Case> &cs);
/// group on if/else regions, atomics, local arrays, grid-stride loops (CasesGroup.cpp).
void addGroupIfElse(std::vector<Case> &cs);
void addGroupAtomics(std::vector<Case> &cs);
void addGroupLocal(std::vector<Case> &cs);
void addGroupGridStride(std::vector<Case> &cs);
/// The reuse pass (CasesReuse.cpp).
void addReuse(std::vector<Case> &cs);
/// rowwalk through 32-bit indices (CasesRowWalk32.cpp).
void addRowWalk32(std::vector<Case> &cs);
/// rowwalk's triangular loops (CasesTri.cpp).
void addTri(std::vector<Case> &cs);
/// rowwalk's row walks inside uniform outer loops, rowwalk-nested=any (CasesNested.cpp).
void addNested(std::vector<Case> &cs);
/// rowwalk's masked row walks, rowwalk-masked (CasesMasked.cpp).
void addMasked(std::vector<Case> &cs);
/// The check of a CSR SpMV's y summed in another order (rowptr, col, val, x
/// the first four inputs; T float or double; CasesCsr.cpp): |y - ref| <=
/// (len + 1) * eps * sum |val*x| per row, ref in long double.
template <typename T>
Approx csrApprox(unsigned n);
/// Row walks inside a grid-stride loop over rows (CasesRowWalkGridStride.cpp).
void addRowWalkGridStride(std::vector<Case> &cs);
/// Row walks sized by struct fields (CasesRowWalkStruct.cpp).
void addRowWalkStruct(std::vector<Case> &cs);
/// Rows read with gaps (CasesRowWalkGaps.cpp).
void addRowWalkGaps(std::vector<Case> &cs);
void addRowWalkTriple(std::vector<Case> &cs);
void addRowWalkGathered(std::vector<Case> &cs);
void addRowWalkPtrGuards(std::vector<Case> &cs);
void addRowWalkLocal(std::vector<Case> &cs);
/// Rows whose distance apart the kernel divides out of a parameter (CasesRowWalkRowDiv.cpp).
void addRowWalkRowDiv(std::vector<Case> &cs);
/// rowwalk's loops with guards inside (CasesRowWalkGuards.cpp).
void addRowWalkGuards(std::vector<Case> &cs);
/// Rows read under a guard on indices (CasesRowWalkGuards.cpp; addRowWalkGuards calls it).
void addRowWalkIdxGuards(std::vector<Case> &cs);
void addRowWalkExits(std::vector<Case> &cs);
/// rowwalk on rows of 8- and 16-bit elements (CasesRowWalkShort.cpp).
void addRowWalkShort(std::vector<Case> &cs);
void addRowWalkScopes(std::vector<Case> &cs);
/// rowwalk on the shapes of its coverage sweep (CasesRowWalkSweep.cpp).
void addRowWalkSweep(std::vector<Case> &cs);
/// rowwalk on rows read as float4, float2, double2 (CasesRowWalkVec.cpp).
void addRowWalkVec(std::vector<Case> &cs);
/// rowwalk on rows that do not start 16-byte aligned (CasesRowWalkUnaligned.cpp).
void addRowWalkUnaligned(std::vector<Case> &cs);
/// rowwalk on loops that also store (CasesRowWalkStores.cpp).
void addRowWalkStores(std::vector<Case> &cs);
/// Stores along the walked rows (CasesRowWalkStores.cpp; addRowWalkStores calls it).
void addRowWalkRowStores(std::vector<Case> &cs);
/// Rows advancing by different steps (CasesRowWalkMixed.cpp).
void addRowWalkMixed(std::vector<Case> &cs);
void addRowWalkScans(std::vector<Case> &cs);
void addRowWalkFrom1(std::vector<Case> &cs);
/// rowwalk on scalar CSR sparse matrix-vector products (CasesCsr.cpp).
void addCsr(std::vector<Case> &cs);
/// group's clone merged along y on kernels with gathers (CasesGroupGathers.cpp).
void addGroupGathers(std::vector<Case> &cs);
/// pack on column walks beside a vector every thread reads alike (CasesPackColumn.cpp).
void addPackColumn(std::vector<Case> &cs);
/// transpose: transposes, rotations, permutes (CasesTranspose.cpp).
void addTranspose(std::vector<Case> &cs);
/// What a 2-D transpose launch of bx x by blocks runs: the tiled clone (or,
/// `elements1`, the one-element one) for the clones' shapes at 2^20
/// threads or more, else "original" (CasesTranspose.cpp).
std::string transposeExpected(const std::string &kernel, unsigned bx, unsigned by, uint64_t threads, bool elements1);
/// transpose's 64-bit flat indices, compile-time sizes, 64-bit grid-stride
/// loops and zero-padding transposes (CasesTransposeForms.cpp).
void addTransposeForms(std::vector<Case> &cs);

}  // namespace gpudiff
