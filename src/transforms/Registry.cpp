// The registry: every pass with its description and its options (name, type,
// default, allowed values, one line of help), and the -O pipelines. The
// command line's flags, ptx-nvcc's --ptxopt-<option>, libptxopt's option
// strings, --help, --list-passes, --print-options and docs/PASSES.md's option
// tables all come from here (include/ptxopt/transforms/PassOptions.h), and
// each option's setter is the one place that fills the passes' typed struct.
#include "Registry.h"

#include <cctype>
#include <sstream>

namespace ptxopt {

namespace transforms {

namespace {

using Type = OptionInfo::Type;

OptionDecl flag(std::string pass, std::string name, std::string help, void (*set)(PassOptions &, const OptionValue &)) {
  return {{std::move(name), std::move(pass), Type::Bool, "", "off", {}, 0, 0, std::move(help)}, std::nullopt, set};
}

std::vector<OptionDecl> groupOptions() {
  return {
      {{"group-k", "group", Type::Int, "K", "16 bytes / the widest unit-stride access", {"2", "4", "8", "16"}, 0, 0,
        "logical threads merged into one"},
       std::nullopt,
       [](PassOptions &o, const OptionValue &v) { o.group.k = unsigned(v.integer); }},
      flag("group", "group-gathers",
           "also group kernels with gathers or scatters the analysis cannot express (they stay per logical thread, "
           "and may become less coalesced)",
           [](PassOptions &o, const OptionValue &v) { o.group.gathers = v.flag; }),
      flag("group", "group-small-launches",
           "accepted for compatibility, changes nothing: the block-merged k=4 clone for launches below the floors of "
           "a k=8 or 16 clone is made by default",
           [](PassOptions &o, const OptionValue &v) { o.group.smallLaunches = v.flag; }),
      flag("group", "group-atomics",
           "also group kernels with atomics whose result is unused (they stay per logical thread; measured 0.15x on "
           "a counting kernel)",
           [](PassOptions &o, const OptionValue &v) { o.group.atomics = v.flag; }),
      flag("group", "group-local-arrays",
           "also group kernels with per-thread local arrays (one copy per logical thread; measured 0.32-0.68x)",
           [](PassOptions &o, const OptionValue &v) { o.group.localArrays = v.flag; }),
  };
}

std::vector<OptionDecl> packOptions() {
  return {
      flag("pack", "pack-across-blocks",
           "also merge loads that lie in different blocks when the code between them only branches forward and "
           "writes no memory they read (measured slower on the naive DCT)",
           [](PassOptions &o, const OptionValue &v) { o.pack.acrossBlocks = v.flag; }),
      flag("pack", "pack-uniform-bytes",
           "also merge four bytes that every thread of a block reads alike (no %tid term) into one 4-byte word "
           "(measured 0.93x on tile_sum)",
           [](PassOptions &o, const OptionValue &v) { o.pack.uniformBytes = v.flag; }),
      flag("pack", "pack-uniform-vectors",
           "also merge 16 bytes that every thread reads alike (x[k..k+3]) in a loop beside scalar loads of the "
           "thread's own that do not merge (measured 0.90x on a column walk)",
           [](PassOptions &o, const OptionValue &v) { o.pack.uniformVectors = v.flag; }),
  };
}

std::vector<OptionDecl> rowwalkOptions() {
  return {
      flag("rowwalk", "reassociate",
           "let the lanes clones split loops with floating-point add/mul/fma/min/max accumulators (the sum is "
           "reassociated: results may differ in the last bits; nvcc's --use_fast_math does not do this)",
           [](PassOptions &o, const OptionValue &v) { o.rowwalk.reassociate = v.flag; }),
      {{"rowwalk-staged", "rowwalk", Type::Enum, "0|1", "on, for large launches and long rows", {"0", "1"}, 0, 0,
        "the staged clone (rows copied through shared memory, exact): 1 emits it for every launch with rows of "
        "128 or more, 0 never"},
       std::nullopt,
       [](PassOptions &o, const OptionValue &v) { o.rowwalk.staged = v.text == "1"; }},
      {{"rowwalk-stages", "rowwalk", Type::Int, "N",
        "plain copies: as many as fit in 128 registers per lane; cp.async: as many as fit in 48 KB, at most 8", {}, 2,
        16,
        "tiles in flight per warp in the staged clone (plain copies: at most 192 registers' worth; cp.async: at "
        "most what fits in 48 KB)"},
       std::nullopt,
       [](PassOptions &o, const OptionValue &v) { o.rowwalk.stages = unsigned(v.integer); }},
      {{"rowwalk-tile", "rowwalk", Type::Int, "BYTES", "256", {"128", "256"}, 0, 0,
        "bytes of a row per tile in the staged clone (unset: 256, and 128 for a loop inside another loop)"},
       std::nullopt,
       [](PassOptions &o, const OptionValue &v) { o.rowwalk.tile = unsigned(v.integer); }},
      // The default lane counts: measured on an H200 (RowWalk.h, kLaneMinRow).
      {{"rowwalk-lanes", "rowwalk", Type::List, "G[,G...]", "32,8,4", {"0", "4", "8", "16", "32"}, 0, 0,
        "lanes per logical thread of the lanes clones, each for the row lengths it was measured fastest on "
        "(docs/PASSES.md); 0: no lanes clone"},
       "32,8,4",
       [](PassOptions &o, const OptionValue &v) { o.rowwalk.lanes = v.list; }},
      flag("rowwalk", "rowwalk-csr",
           "also give the lanes clone (one clone, rowwalk-csr-lanes lanes per row) to loops whose rows "
           "start and end at loaded values (scalar CSR sparse matrix-vector products: `for (j = rowptr[i]; j < "
           "rowptr[i+1]; j++)`); no launch condition can tell their row lengths, and short rows run slower",
           [](PassOptions &o, const OptionValue &v) { o.rowwalk.csr = v.flag; }),
      // Measured on an H200 (docs/BENCHMARKS.md, "Row walks with early exits"):
      // 1.9-7.7x where rows run past 2048 elements, 0.49-0.73x where most end
      // in their first 64 (262144 rows of 256).
      flag("rowwalk", "rowwalk-exits",
           "also give the staged clone to row walks that leave the loop early (`break`, `return`: a sum up to a "
           "sentinel, a search); where the rows run long it is several times faster, where most end in their first "
           "64 elements slower, and no launch condition can tell which",
           [](PassOptions &o, const OptionValue &v) { o.rowwalk.exits = v.flag; }),
      // Guards on the lane's own data (a mask along its row) are taken
      // without it: 4.7-15.4x on an H200 whatever share they let through
      // (docs/BENCHMARKS.md, "Masked rows").
      flag("rowwalk", "rowwalk-masked",
           "also give the staged clone to row walks whose loads along the row run under a guard on data every lane "
           "reads alike or at an address the analysis cannot place (`if (mask[j]) s += A[i*n + j]`: the original "
           "skips whole columns where the guard fails, the tiles read them all; guards on a mask along the lane's "
           "own row are taken without it)",
           [](PassOptions &o, const OptionValue &v) { o.rowwalk.masked = v.flag; }),
      // Measured on an H200 (docs/BENCHMARKS.md, "Scalar CSR SpMV"): 8 lanes
      // were fastest at 32 and 128 non-zeros a row, as fast as 32 at 256,
      // and lose least on short rows.
      {{"rowwalk-csr-lanes", "rowwalk", Type::Int, "G", "8", {"4", "8", "16", "32"}, 0, 0,
        "lanes per row of the CSR clones (rowwalk-csr-rounds, rowwalk-csr; none when rowwalk-lanes is 0)"},
       "8",
       [](PassOptions &o, const OptionValue &v) { o.rowwalk.csrLanes = unsigned(v.integer); }},
      // Measured on an H200 (docs/BENCHMARKS.md, "Scalar CSR SpMV").
      {{"rowwalk-csr-rounds", "rowwalk", Type::Enum, "0|1", "1", {"0", "1"}, 0, 0,
        "the clone of loops whose rows start and end at loaded values (scalar CSR) that keeps the launch: a "
        "warp whose 32 rows are all long (32 non-zeros or more) runs them rowwalk-csr-lanes lanes at a time, "
        "every other lane the original code (integer sums exact; floating point with --reassociate); 0: none"},
       "1",
       [](PassOptions &o, const OptionValue &v) { o.rowwalk.csrRounds = v.text == "1"; }},
      // Measured on an H200 (docs/BENCHMARKS.md, "Warps with an empty or
      // short row among long ones"): rows of 32-256 with one in 8 empty
      // 0.92-0.96x -> 1.00x, but rows all long lose 3-23% of their gain
      // and gpu-diff's float rounds clone without pack 1.33x -> 0.86x.
      {{"rowwalk-csr-sample", "rowwalk", Type::Enum, "0|1", "0", {"0", "1"}, 0, 0,
        "in the CSR rounds clone, a warp whose 32 rows are all long first samples 128 rows spread over the launch "
        "and runs the original loop unless nearly all of them are long too (a launch where few warps take the "
        "rounds ends with those warps: 0.92-0.96x without, 1.00x with; rows all long lose 3-23% of their gain)"},
       "0",
       [](PassOptions &o, const OptionValue &v) { o.rowwalk.csrSample = v.text == "1"; }},
      {{"rowwalk-staged-copy", "rowwalk", Type::Enum, "plain|async", "plain", {"plain", "async"}, 0, 0,
        "how the staged clone copies rows into shared memory: async (cp.async, sm_80+) or plain (ld.global.v4 "
        "into registers, st.shared.v4; any target; measured faster)"},
       "plain",
       [](PassOptions &o, const OptionValue &v) { o.rowwalk.asyncCopy = v.text == "async"; }},
      {{"rowwalk-staged-unaligned", "rowwalk", Type::Enum, "0|1", "1", {"0", "1"}, 0, 0,
        "also the staged clone for rows that do not start 16-byte aligned (a row length that is no multiple of "
        "16 bytes: each lane reads its row at its offset in the tile; plain copies, uniform trip counts, rows of "
        "4- and 8-byte elements); 0: those launches run the other clones or the original"},
       "1",
       [](PassOptions &o, const OptionValue &v) { o.rowwalk.unaligned = v.text == "1"; }},
      // Measured on an H200 (docs/BENCHMARKS.md, "Row walks with guards inside
      // the loop"): skip-zero 3.8x -> 8.2-8.5x.
      {{"rowwalk-straight", "rowwalk", Type::Enum, "0|1", "1", {"0", "1"}, 0, 0,
        "in the staged clone's tiles, run a loop's short guarded parts straight (`if (a[j] != 0) s += a[j] * "
        "x[j]`: each instruction predicated, x[j] read unconditionally once each warp has checked that the reads "
        "stay inside x's allocation; exact); 0: the parts keep their branches"},
       "1",
       [](PassOptions &o, const OptionValue &v) { o.rowwalk.straight = v.text == "1"; }},
      // Measured on an H200 (docs/BENCHMARKS.md, "Row walks inside a loop
      // with one trip count"): full syrk 3.5x (pack) -> 11.0x, batched GEMVs
      // 3.0-6.3x, gradient steps 3.8x.
      {{"rowwalk-nested", "rowwalk", Type::Enum, "any|varying", "any", {"any", "varying"}, 0, 0,
        "row walks inside an outer loop of several blocks get the staged clone of the inner loops: any, whatever "
        "the outer loop's trip count (a full syrk over every j, a batched GEMV, iterations inside the kernel, "
        "triangles); varying only when it differs by thread (triangles: `for (j = 0; j <= i; j++)`)"},
       "any",
       [](PassOptions &o, const OptionValue &v) { o.rowwalk.nestedAny = v.text == "any"; }},
      // Measured on an H200 (docs/BENCHMARKS.md, "Row walks in grid-stride
      // loops over rows"): CSR 1.3-2.5x where none was, GEMVs 5.4-8.5x.
      {{"rowwalk-gridstride", "rowwalk", Type::Enum, "0|1", "1", {"0", "1"}, 0, 0,
        "row walks inside a grid-stride loop over rows also get the clones of the kernel of one row per thread "
        "(`<k>__ptxopt_once_*`: lanes, staged, CSR rounds) for launches whose threads cover the loop's bound; 0: "
        "only the kernel's own clones (the staged clone of the inner loop)"},
       "1",
       [](PassOptions &o, const OptionValue &v) { o.rowwalk.gridStride = v.text == "1"; }},
  };
}

std::vector<OptionDecl> transposeOptions() {
  return {
      {{"transpose-elements", "transpose", Type::List, "E[,E...]", "4,1", {"1", "4"}, 0, 0,
        "the clones per block shape, in order of preference: 4, the tiled clone (a 32 x 32 tile, 32 x 8 threads, "
        "four logical threads each, launch changed); 1, one logical thread per thread (the same launch)"},
       "4,1",
       [](PassOptions &o, const OptionValue &v) { o.transpose.elements = v.list; }},
  };
}

}  // namespace

const std::vector<Registered> &registry() {
  static const std::vector<Registered> r = {
      {{"coalesce",
        "make uncoalesced global accesses unit-stride along %tid.x by exchanging %tid.x with the index they "
        "are unit-stride on: a 'swap' clone (launch dimensions exchanged), a 'split' clone (the swap for large "
        "grids, for %ctaid.x) and a 'remap' clone (same launch, indices recomputed)",
        {}},
       runCoalesce,
       {}},
      {{"group",
        "merge k adjacent threads along %tid.x into one so that their unit-stride 8/16/32/64-bit global "
        "accesses become one 4-, 8- or 16-byte vector access; a 'group' clone (block.x divided by k) of the "
        "kernel or of its coalesce clones, with a per-thread slow path behind bounds guards",
        {}},
       runGroup,
       groupOptions()},
      {{"pack",
        "intra-thread grouping: adjacent 8/16/32-bit global loads of one thread (a row of pixels, four bytes "
        "per thread) become one 4-, 8- or 16-byte vector load, and rolled loops reading short words at unit "
        "stride are unrolled by 4 for it; a 'pack' clone with the same launch, for kernels no earlier pass "
        "cloned",
        {}},
       runPack,
       packOptions()},
      {{"rowwalk",
        "row walks (a thread looping over its own row): accumulators kept in memory become registers "
        "('regacc' clone, same launch; pointer parameters in different allocations at launch), and 32 lanes "
        "(8 or 4 for rows under 256 elements) run one logical thread, lane l taking iterations l, l+32, ... "
        "with 16-byte loads and a shuffle reduction ('lanes' clones, launch grown 32 (8, 4) times; exact for "
        "integer add, sub, min, max and bitwise "
        "accumulators; floating-point ones, min and max too, only with --reassociate), and each warp copies its 32 rows through "
        "shared memory in 16-byte tiles, each lane reading its own row in order ('staged' clone, "
        "one warp per block, exact)",
        {}},
       runRowWalk,
       rowwalkOptions()},
      {{"reuse",
        "a branching computation the kernel repeats with the same inputs (an inlined sinf/cosf with its rarely "
        "taken slow path, in a loop or twice in a row) runs once: before its loop when every run is pure (the "
        "value ranges rule out the slow path) and the loop does not change its inputs, else later runs copy its "
        "results from registers while its inputs are unchanged and its last run took no impure path; a 'reuse' "
        "clone with the same launch (exact)",
        {}},
       runReuse,
       {}},
      {{"transpose",
        "a transpose (a load unit-stride along one thread index, the store along the other, per-element work "
        "between them) staged through a shared-memory tile: each block loads the tile coalesced, bar.sync, "
        "then stores it coalesced with %tid.x and %tid.y exchanged; per block shape (32 x 32, 16 x 16, 32 x 8, "
        "8 x 32) a 'transpose-tiled' clone (a 32 x 32 tile per block of 32 x 8 threads, four logical threads each) "
        "and a 'transpose' clone with the same launch, for 32 x 4, 16 x 8, 8 x 8, 32 x 16, 16 x 4, 64 x 4, 64 x 8, 128 x 2 and 128 x 4 blocks the tiled "
        "clone; 1-D blocks with the other axis a block index, and 1-D "
        "launches that split a flat index with / and % (i % W, i / W; flat NCHW <-> NHWC permutes), get the "
        "tiled clone; kernels written as grid-stride loops get the clones of the one-element kernel they are where "
        "each thread's loop runs once, and a flat one a clone whose blocks cover its bound where threads loop (exact)",
        {}},
       runTranspose,
       transposeOptions()},
  };
  return r;
}

const std::vector<PipelineInfo> &pipelines() {
  static const std::vector<PipelineInfo> p = {
      {"-O0", {}, "nothing (the default: the output is the input)"},
      {"-O1", {"coalesce"}, "coalesce"},
      {"-O2", {"coalesce", "transpose", "group", "rowwalk", "pack", "reuse"},
       "coalesce, transpose, then group (which also groups coalesce's clones), rowwalk, pack (which also packs "
       "the clones before it) and reuse"},
  };
  return p;
}

const OptionDecl *findOption(const std::string &name) {
  for (const auto &r : registry())
    for (const auto &o : r.options)
      if (o.info.name == name) return &o;
  return nullptr;
}

}  // namespace transforms

using transforms::OptionDecl;
using transforms::OptionValue;
using Type = OptionInfo::Type;

namespace {

/// A decimal integer (an optional sign, digits), nothing else.
bool parseInteger(const std::string &s, int64_t &out) {
  size_t i = s.size() > 1 && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size() || s.size() > 18) return false;
  for (size_t j = i; j < s.size(); ++j)
    if (!std::isdigit(static_cast<unsigned char>(s[j]))) return false;
  out = std::stoll(s);
  return true;
}

bool allowed(const OptionInfo &o, const std::string &v, int64_t n) {
  for (const auto &a : o.values)
    if (a == v || (o.type != Type::Enum && std::to_string(n) == a)) return true;
  return false;
}

/// Parses `value` as option `o` takes it; "" on success, else what is wrong.
std::string parseValue(const OptionInfo &o, const std::optional<std::string> &value, const std::string &shown,
                       OptionValue &v) {
  const std::string valid = optionValuesText(o);
  if (o.type == Type::Bool) {
    if (!value || *value == "1" || *value == "true") v.flag = true;
    else if (*value == "0" || *value == "false") v.flag = false;
    else return shown + ": '" + *value + "' is not a boolean (1, 0, true or false)";
    return "";
  }
  if (!value) return shown + " needs a value " + o.metavar + " (" + valid + ")";
  v.text = *value;
  if (o.type == Type::Enum) return allowed(o, *value, 0) ? "" : shown + ": '" + *value + "' is not one of " + valid;
  if (o.type == Type::Int) {
    if (!parseInteger(*value, v.integer)) return shown + ": '" + *value + "' is not an integer (" + valid + ")";
    if (o.values.empty() ? v.integer < o.min || v.integer > o.max : !allowed(o, *value, v.integer))
      return shown + ": '" + *value + "' is not " + (o.values.empty() ? "in " : "one of ") + valid;
    return "";
  }
  if (value->empty()) return shown + ": an empty list (each of " + valid + ")";
  for (size_t at = 0; at <= value->size();) {
    size_t end = value->find(',', at);
    if (end == std::string::npos) end = value->size();
    const std::string g = value->substr(at, end - at);
    int64_t n = 0;
    if (!parseInteger(g, n) || !allowed(o, g, n)) return shown + ": '" + g + "' is not one of " + valid;
    v.list.push_back(unsigned(n));
    at = end + 1;
  }
  return "";
}

}  // namespace

const std::vector<OptionInfo> &passOptionInfos() {
  static const std::vector<OptionInfo> infos = [] {
    std::vector<OptionInfo> v;
    for (const auto &r : transforms::registry())
      for (const auto &o : r.options) v.push_back(o.info);
    return v;
  }();
  return infos;
}

const OptionInfo *findPassOption(const std::string &name) {
  const OptionDecl *d = transforms::findOption(name);
  return d ? &d->info : nullptr;
}

const char *optionTypeName(Type t) {
  switch (t) {
  case Type::Bool: return "bool";
  case Type::Int: return "int";
  case Type::Enum: return "enum";
  case Type::List: return "list";
  }
  return "";
}

std::string optionValuesText(const OptionInfo &o) {
  if (o.type == Type::Bool) return "";
  if (o.type == Type::Int && o.values.empty()) return std::to_string(o.min) + ".." + std::to_string(o.max);
  std::string s;
  for (const auto &v : o.values) s += (s.empty() ? "" : ", ") + v;
  return s;
}

std::string passOptionList(const std::string &prefix) {
  std::string s;
  for (const auto &o : passOptionInfos()) s += (s.empty() ? "" : ", ") + prefix + o.name;
  return s;
}

bool setPassOption(PassOptions &opts, const std::string &name, const std::optional<std::string> &value,
                   std::string &error, const std::string &prefix) {
  const OptionDecl *d = transforms::findOption(name);
  if (!d) {
    error = "unknown option '" + prefix + name + "' (pass options: " + passOptionList(prefix) + ")";
    return false;
  }
  OptionValue v;
  error = parseValue(d->info, value, prefix + name, v);
  if (!error.empty()) return false;
  d->set(opts, v);
  return true;
}

PassOptions defaultPassOptions() {
  PassOptions o;
  for (const auto &r : transforms::registry())
    for (const auto &d : r.options)
      if (d.defaultValue) {
        OptionValue v;
        parseValue(d.info, d.defaultValue, d.info.name, v);
        d.set(o, v);
      }
  return o;
}

const std::vector<PipelineInfo> &registeredPipelines() { return transforms::pipelines(); }

std::string passOptionsMarkdown() {
  std::ostringstream out;
  out << "| pipeline | passes |\n| --- | --- |\n";
  for (const auto &p : transforms::pipelines()) {
    std::string passes;
    for (const auto &n : p.passes) passes += (passes.empty() ? "`" : ", `") + n + "`";
    out << "| `" << p.name << "` | " << (passes.empty() ? "none" : passes) << " |\n";
  }
  for (const auto &r : transforms::registry()) {
    if (r.options.empty()) continue;
    out << "\nOptions of `" << r.info.name << "`:\n\n"
        << "| option | type | default | values | what it does |\n| --- | --- | --- | --- | --- |\n";
    auto cell = [](std::string s) {  // a '|' inside a cell is escaped
      for (size_t at = s.find('|'); at != std::string::npos; at = s.find('|', at + 2)) s.insert(at, 1, '\\');
      return s;
    };
    for (const auto &d : r.options) {
      const OptionInfo &o = d.info;
      out << "| `--" << o.name;
      if (o.type != Type::Bool) out << '=' << cell(o.metavar);
      out << "` | " << optionTypeName(o.type) << " | " << o.defaultText << " | " << optionValuesText(o) << " | " << o.help
          << " |\n";
    }
  }
  return out.str();
}

}  // namespace ptxopt
