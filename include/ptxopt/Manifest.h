// The manifest: what an optimized module tells its loader about each clone.
//
// For every kernel that has optimized clones, the manifest lists the clones
// ("variants"), how a launch of the original must be transformed to launch a
// clone, and the conditions under which that is allowed. The runtime
// (runtime/) launches a clone only when every condition holds, and the
// original otherwise. Format and rules: docs/MANIFEST.md.
//
// The optimizer embeds the manifest in the PTX it writes, twice:
//   - a comment line `// @ptxopt-manifest <json>` at the end of the module
//     (read by loaders that get PTX text), and
//   - one `.weak .global .align 1 .b8 __ptxopt_manifest_<kernel>[] = {...}`
//     per kernel holding the kernel's JSON entry (read with cuModuleGetGlobal
//     by loaders that get a cubin or fatbin).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxopt {

/// Where one dimension of the transformed launch comes from.
struct DimSource {
  enum class From : uint8_t { Grid, Block, Const };
  From from = From::Grid;
  uint8_t dim = 0;       // 0,1,2 = x,y,z of the original launch
  uint32_t divide = 1;   // the original value is divided by this (grouping)
  uint32_t value = 0;    // the dimension itself, for From::Const
  // Divide rounding up ("ceil(grid.x/16)"): the value need not be a
  // multiple of `divide`; the clone itself skips the logical blocks past
  // the original's (it receives the original value as an extra argument).
  bool roundUp = false;
  // The original value is multiplied by this ("grid.x*32": the rowwalk
  // pass's lanes clone runs 32 hardware threads per logical thread). A
  // source has a multiplier or a divisor, not both.
  uint32_t multiply = 1;
  bool operator==(const DimSource &) const = default;
  static DimSource constant(uint32_t v) { return DimSource{From::Const, 0, 1, v, false, 1}; }
};

struct Variant {
  std::string name;    // the clone's kernel name
  std::string pass;    // "coalesce", "group", ...
  std::string kind;    // "remap", "swap", "group", ...
  // Launch transform: new grid and block dimensions from the original ones.
  // Identity for a clone that keeps the launch configuration (remap).
  std::array<DimSource, 3> grid{DimSource{DimSource::From::Grid, 0}, DimSource{DimSource::From::Grid, 1},
                                DimSource{DimSource::From::Grid, 2}};
  std::array<DimSource, 3> block{DimSource{DimSource::From::Block, 0}, DimSource{DimSource::From::Block, 1},
                                 DimSource{DimSource::From::Block, 2}};
  // Conditions, all on the ORIGINAL launch and arguments:
  std::array<uint32_t, 3> gridMultiple{1, 1, 1};   // grid.d % m == 0
  std::array<uint32_t, 3> blockMultiple{1, 1, 1};  // block.d % m == 0
  std::array<uint32_t, 3> blockMin{1, 1, 1};       // block.d >= m
  std::array<uint32_t, 3> gridMin{0, 0, 0};        // grid.d >= m (0: no bound)
  std::array<uint32_t, 3> gridMax{0, 0, 0};        // grid.d <= m (0: no bound)
  std::array<uint32_t, 3> blockMax{0, 0, 0};       // block.d <= m (0: no bound)
  // The launch has at most this many threads, grid times block over all
  // dimensions (0: no bound). Remap clones ask for 2^32 - 1: their index
  // arithmetic is 32-bit.
  uint32_t maxLaunchThreads = 0;
  // The launch has at least this many threads (0: no bound). Block-merged
  // group clones ask for 2^16, or 2^22 with misaligned loads or a long body:
  // smaller launches ran slower with them (Group.cpp).
  uint32_t minLaunchThreads = 0;
  // On the TRANSFORMED launch: its block has at least this many threads
  // (0: no bound). Group clones ask for 64: smaller blocks cap occupancy
  // (32 resident blocks per SM).
  uint32_t minBlockThreads = 0;
  struct AlignedParam {
    uint32_t index;  // parameter position
    uint32_t bytes;  // required alignment of the pointer value
    bool operator==(const AlignedParam &) const = default;
  };
  std::vector<AlignedParam> alignedParams;
  bool allowDynamicShared = true;
  // The arguments of each pair of pointer parameters lie in different
  // allocations (the runtime asks the driver for the allocation holding
  // each value; a value it cannot place fails the condition). Accesses stay
  // within the allocation their pointer points into (anything else is
  // undefined behaviour in CUDA), so the bytes the two parameters reach do
  // not overlap. The rowwalk pass asks for it when it keeps an accumulator
  // that lives in memory in a register.
  struct DisjointParams {
    uint32_t a, b;
    bool operator==(const DisjointParams &) const = default;
  };
  std::vector<DisjointParams> disjointParams;
  // The value of argument `index` (a signed integer of paramSizes[index]
  // bytes) is at least `value`. The rowwalk pass's lanes clones ask for rows
  // of 128 elements or more (the integer parameters the trip count is
  // computed from): shorter rows leave most of the 32 lanes idle.
  struct MinParam {
    uint32_t index;
    int64_t value;
    // A field of a struct argument (`bytes` 4 or 8): the signed integer of
    // `bytes` bytes at byte `offset` of argument `index` (`struct P { ...;
    // int m; } p`, `p.m`); bytes 0: the whole argument.
    uint32_t offset = 0;
    uint32_t bytes = 0;
    bool operator==(const MinParam &) const = default;
  };
  std::vector<MinParam> minParams;
  // The launch has at least `times` threads per unit of argument `index`
  // (launch threads >= times * value; a value of 0 or less holds). The
  // transpose pass's flat clone asks for 32 rows of w (threads >= 32 * w):
  // thinner launches leave most of each tile idle.
  struct ThreadsPerParam {
    uint32_t index;
    uint32_t times;
    bool operator==(const ThreadsPerParam &) const = default;
  };
  std::vector<ThreadsPerParam> threadsPerParam;
  // Each thread's grid-stride loop along grid dimension `dim` runs at most
  // once: the launch's threads along it (grid.dim * block.dim) number at
  // least the product of the arguments `params` (each a non-negative
  // integer; a negative one fails) and fewer than 2^30, so that a thread's
  // index plus the loop's stride neither wraps in 32 bits nor stays under
  // the bound. The transpose pass runs a kernel written as a grid-stride
  // loop (`for (i = ...; i < n; i += blockDim.x * gridDim.x)`) as the
  // kernel of one element per thread it then is.
  // With `several`, the loop may run several times (a grid of a few
  // blocks per SM): the clone covers the whole bound itself, and the
  // condition is threads along `dim` under 2^30 and the bound (the product)
  // at least `minBound`, at least each `perParam` multiple of its argument,
  // and under 2^30 (the transpose pass's flat clone of such a loop: its
  // blocks loop over the bound's tiles).
  struct GridStrideOnce {
    uint32_t dim;
    std::vector<uint32_t> params;
    uint64_t times = 1;  // a constant factor of the bound (a compile-time size; 1: none)
    bool several = false;
    uint32_t minBound = 0;  // several: the least bound the clone pays at
    // several: the bound is at least `times` times argument `index` (a
    // value of 0 or less holds): the flat loop clone's 32 rows of its width.
    std::vector<ThreadsPerParam> perParam = {};
    bool operator==(const GridStrideOnce &) const = default;
  };
  std::vector<GridStrideOnce> gridStrideOnce;
  // Values of the ORIGINAL launch the clone takes as extra .u32 parameters,
  // after the original's own, in this order (e.g. grid.x for a clone that
  // merges blocks and must know the original grid). Empty for most clones.
  std::vector<DimSource> extraArgs;
  // Pointer arguments whose allocation's end the clone takes: after the
  // extraArgs, one .u64 parameter per entry, the end (base + size, from the
  // driver's cuMemGetAddressRange) of the allocation holding argument
  // `index`'s value. Condition: each such value lies in an allocation the
  // driver knows. The rowwalk pass's staged clone of loops with early exits
  // asks for its rows' base pointer: the tiles read a row ahead of where the
  // loop may leave it, so each warp first checks that its rows end inside
  // that allocation (else it runs the original loop).
  std::vector<uint32_t> allocEnds;
  bool operator==(const Variant &) const = default;
  bool identityLaunch() const;
};

struct KernelManifest {
  std::string kernel;                // the original's name
  std::vector<uint32_t> paramSizes;  // bytes of each parameter (for reading argument values)
  std::vector<Variant> variants;     // in order of preference
  bool operator==(const KernelManifest &) const = default;
};

struct Manifest {
  static constexpr int kVersion = 1;
  std::vector<KernelManifest> kernels;
  const KernelManifest *find(const std::string &kernel) const;
  bool operator==(const Manifest &) const = default;
};

/// JSON text of a manifest / of one kernel's entry (deterministic: fixed key order).
std::string toJson(const Manifest &m);
std::string toJson(const KernelManifest &k);
/// Parses a manifest or a single kernel entry; false with `error` set on bad input.
bool fromJson(const std::string &text, Manifest &out, std::string &error);
bool fromJson(const std::string &text, KernelManifest &out, std::string &error);

/// The `// @ptxopt-manifest ` line of PTX text, if any (without the prefix).
std::optional<std::string> findManifestComment(const std::string &ptx);
/// Name of the per-kernel manifest global.
std::string manifestGlobalName(const std::string &kernel);

}  // namespace ptxopt
