// The passes' options, typed. The registry (src/transforms/Registry.cpp)
// declares each option with its pass, type, default, allowed values and one
// line of help; ptx-opt's flags (--group-k=K, ...), ptx-nvcc's
// --ptxopt-<option>[=V], libptxopt's "PIPELINE;option[=value]" strings,
// `ptx-opt --help`, `--print-options` and docs/PASSES.md's tables all come
// from it, and each pass reads its own struct below.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxopt {

struct GroupOptions {
  unsigned k = 0;              // group-k: logical threads per hardware thread; 0: by the widest access
  bool gathers = false;        // group-gathers
  bool smallLaunches = false;  // group-small-launches (accepted, no effect: the default now)
  bool atomics = false;        // group-atomics
  bool localArrays = false;    // group-local-arrays
};

struct PackOptions {
  bool acrossBlocks = false;  // pack-across-blocks
  bool uniformBytes = false;  // pack-uniform-bytes
  bool uniformVectors = false;  // pack-uniform-vectors
};

struct RowWalkOptions {
  bool reassociate = false;     // reassociate
  std::optional<bool> staged;   // rowwalk-staged: unset: the measured default; true also lifts its floors
  unsigned stages = 0;          // rowwalk-stages: 0: as many as fit
  unsigned tile = 0;            // rowwalk-tile: bytes of a row per tile; 0: the pass's default
  std::vector<unsigned> lanes;  // rowwalk-lanes: lane counts of the lanes clones
  bool asyncCopy = false;       // rowwalk-staged-copy=async
  bool csr = false;             // rowwalk-csr: lanes clones of loops over rows with loaded bounds
  bool csrRounds = true;        // rowwalk-csr-rounds: their clone of the same launch, chosen per warp
  bool csrSample = false;       // rowwalk-csr-sample: that clone samples the launch's rows before its rounds
  bool exits = false;           // rowwalk-exits: staged clones of loops with early exits
  bool masked = false;          // rowwalk-masked: ... and of row loads under guards on data all lanes read alike
  unsigned csrLanes = 8;        // rowwalk-csr-lanes: lanes per row of that clone
  bool unaligned = true;        // rowwalk-staged-unaligned: the staged clone for rows not 16-byte aligned
  bool straight = true;         // rowwalk-straight: guarded parts run straight in the staged clone's tiles
  bool nestedAny = true;        // rowwalk-nested=any: staged clones inside uniform outer loops too
  bool gridStride = true;       // rowwalk-gridstride=1: clones of a grid-stride kernel's one-row copy
};

struct TransposeOptions {
  std::vector<unsigned> elements;  // transpose-elements: logical threads per hardware thread of its clones, in order
};

/// What the passes read (PassContext::options). A default-constructed one
/// holds no defaults: defaultPassOptions() does (the registry's).
struct PassOptions {
  GroupOptions group;
  PackOptions pack;
  RowWalkOptions rowwalk;
  TransposeOptions transpose;
};

/// One pass option as the registry declares it.
struct OptionInfo {
  enum class Type { Bool, Int, Enum, List };
  std::string name;         // "group-k": the flag --group-k, the libptxopt key group-k
  std::string pass;         // "group"
  Type type = Type::Bool;
  std::string metavar;      // "K" (not for Bool)
  std::string defaultText;  // the default as a value ("plain", "32,8,4"), or in words ("off", "by the widths")
  std::vector<std::string> values;  // Int, Enum, List: the allowed values (List: of each element)
  int64_t min = 0, max = 0;         // Int without `values`: the range
  std::string help;                 // one line
};

/// Every pass option, in the registry's order (by pass).
const std::vector<OptionInfo> &passOptionInfos();
/// The option of that name, or null.
const OptionInfo *findPassOption(const std::string &name);
/// "bool", "int", "enum" or "list".
const char *optionTypeName(OptionInfo::Type t);
/// The allowed values in words: "2, 4, 8, 16", "2..16", "plain, async", "" for a bool.
std::string optionValuesText(const OptionInfo &o);

/// Every option's name with `prefix` before it: "--group-k, --group-gathers, ...".
std::string passOptionList(const std::string &prefix);

/// Sets option `name` in `opts` from `value` (nullopt: given bare, which a
/// bool takes as true). False, with `error` saying what is wrong and what is
/// valid, for an unknown option or an ill-typed value; `error` names the
/// option with `prefix` before it ("--" for the command line).
bool setPassOption(PassOptions &opts, const std::string &name, const std::optional<std::string> &value,
                   std::string &error, const std::string &prefix = "");

/// The options with every default the registry declares.
PassOptions defaultPassOptions();

/// The pipelines -O0, -O1, -O2: name and passes, as the registry declares them.
struct PipelineInfo {
  std::string name;
  std::vector<std::string> passes;
  std::string help;
};
const std::vector<PipelineInfo> &registeredPipelines();

/// Markdown tables of the options of each pass and the pipelines: what
/// `ptx-opt --print-options` prints and docs/PASSES.md holds.
std::string passOptionsMarkdown();

}  // namespace ptxopt
