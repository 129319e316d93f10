// gpu-diff's cases of group's clones on bodies beyond straight-line code
// (docs/PASSES.md, "group"): if/else regions, atomics whose result is
// unused, per-thread local arrays, grid-stride loops.
#include "Cases.h"

namespace gpudiff {

namespace {

std::string shapeName(unsigned g, unsigned b) { return std::to_string(g) + "x" + std::to_string(b); }

}  // namespace

/// If/else regions (cases/ifelse.cu; new, not yet run on a GPU): both arms
/// predicated per logical thread in the group clones. Plain clone for
/// 1024-thread blocks, block-merged for 256; such bodies take the higher
/// launch floors (2^21 threads plain, 2^22 merged), below them the original.
void addGroupIfElse(std::vector<Case> &cs) {
  for (unsigned b : {1024u, 256u}) {
    const unsigned g = (1u << 22) / b;
    const size_t n = size_t(g) * b;
    cs.push_back(makeCase("group: if/else clamp_div 16-bit " + shapeName(g, b), "ifelse", "clamp_div",
                          {in(Elem::I16, n), out(Elem::I16, n), i32(7)}, {g, 1, 1}, {b, 1, 1}));
    cs.back().expect = b == 1024 ? "=clamp_div__ptxopt_group8" : "=clamp_div__ptxopt_group8_merged";
  }
  // Border handling: the load inside the if-then region as one vector load
  // predicated on any replica's arm (2^21 threads or more).
  for (auto [w, h] : {std::pair<int, int>{2048, 2048}, {2048, 512}}) {
    const size_t n = size_t(w) * h;
    cs.push_back(makeCase("group: border_div (load inside the region) " + std::to_string(w) + "x" + std::to_string(h),
                          "ifelse", "border_div", {in(Elem::I8, n), out(Elem::I8, n), i32(w), i32(h), i32(5)},
                          {unsigned(w / 1024), unsigned(h), 1}, {1024, 1, 1}));
    cs.back().expect = n >= (size_t(1) << 21) ? "=border_div__ptxopt_group16" : "original";
  }
  for (int n : {4000037, 1000003}) {
    const unsigned b = 1024, g = unsigned((n + b - 1) / b);
    cs.push_back(makeCase("group: two if/else regions after a guard, n=" + std::to_string(n), "ifelse", "two_diamonds",
                          {in(Elem::I8, size_t(g) * b), out(Elem::I8, size_t(g) * b), i32(n), i32(3), i32(5)},
                          {g, 1, 1}, {b, 1, 1}));
    cs.back().expect = n > 2000000 ? "=two_diamonds__ptxopt_group16" : "original";
  }
}

/// Atomics whose result is unused (cases/atomics.cu; new, not yet run on a
/// GPU): they stay per logical thread in the group clone; integer
/// reductions, so the counters compare bit for bit. Above the launch floor
/// the clone, below it the original.
void addGroupAtomics(std::vector<Case> &cs) {
  for (int n : {4000037, 100000}) {
    const unsigned b = 1024, g = unsigned((n + b - 1) / b);
    cs.push_back(makeCase("group: count_above (atomicAdd, result unused), n=" + std::to_string(n), "atomics",
                          "count_above",
                          {in(Elem::I8, size_t(g) * b), out(Elem::I8, size_t(g) * b), out(Elem::I32, 1), i32(n),
                           i32(200)},
                          {g, 1, 1}, {b, 1, 1}));
    cs.back().passes = "-O2;group-atomics";  // 0.15x grouped on an H100: off by default
    cs.back().expect = n > 1000000 ? "=count_above__ptxopt_group16" : "original";
  }
  {
    const unsigned b = 256, g = 8192;  // 2^21 threads, 256-thread blocks: the block-merged clone
    const size_t n = size_t(g) * b;
    cs.push_back(makeCase("group: max_or (atomicMax, atomicOr at one address) " + shapeName(g, b), "atomics", "max_or",
                          {in(Elem::I16, n), out(Elem::I16, n), out(Elem::I32, 1), out(Elem::I32, 1)}, {g, 1, 1},
                          {b, 1, 1}));
    cs.back().passes = "-O2;group-atomics";
    cs.back().expect = "=max_or__ptxopt_group8_merged";
  }
  {
    const unsigned b = 1024, g = 2048;
    const size_t n = size_t(g) * b;
    cs.push_back(makeCase("group: histogram with --group-gathers " + shapeName(g, b), "atomics", "hist",
                          {in(Elem::I8, n), out(Elem::I8, n), out(Elem::I32, 256), i32(int(n))}, {g, 1, 1}, {b, 1, 1}));
    cs.back().passes = "-O2;group-gathers;group-atomics";
    cs.back().expect = "=hist__ptxopt_group16";
    cs.push_back(makeCase("group: histogram (original by default) " + shapeName(g, b), "atomics", "hist",
                          {in(Elem::I8, n), out(Elem::I8, n), out(Elem::I32, 256), i32(int(n))}, {g, 1, 1}, {b, 1, 1}));
    cs.back().expect = "original";
  }
}

/// Per-thread local arrays (cases/local.cu; new, not yet run on a GPU): one
/// depot per replica in the group clone; such bodies take the higher launch
/// floors (2^21 threads plain, 2^22 merged).
void addGroupLocal(std::vector<Case> &cs) {
  {
    const unsigned b = 1024, g = 4096;
    const size_t n = size_t(g) * b;
    cs.push_back(makeCase("group: local array lut_local " + shapeName(g, b), "local", "lut_local",
                          {in(Elem::I8, n), out(Elem::I8, n), i32(37)}, {g, 1, 1}, {b, 1, 1}));
    cs.back().passes = "-O2;group-local-arrays";  // 0.68x grouped on an H100: off by default
    cs.back().expect = "=lut_local__ptxopt_group16";
  }
  for (int n : {4194307, 1000003}) {
    const unsigned b = 256, g = unsigned((n + b - 1) / b);
    cs.push_back(makeCase("group: local array, guarded 16-bit, n=" + std::to_string(n), "local", "lut_local_guarded",
                          {in(Elem::I16, size_t(g) * b), out(Elem::I16, size_t(g) * b), i32(1001), i32(n)}, {g, 1, 1},
                          {b, 1, 1}));
    cs.back().passes = "-O2;group-local-arrays";
    cs.back().expect = n > 4194304 ? "=lut_local_guarded__ptxopt_group8_merged" : "original";
  }
}

/// Grid-stride loops (cases/gridstride.cu; the 32-bit ones new, not yet run on a GPU): the
/// iterations every replica runs vectorized, the rest per replica. Such
/// bodies take the higher launch floors (2^21 threads plain, 2^22 merged):
/// a grid sized to the device (here 128 x 1024) runs the original.
void addGroupGridStride(std::vector<Case> &cs) {
  const int n = (1 << 24) + 5;
  for (unsigned g : {2048u, 128u}) {
    const unsigned b = 1024;
    cs.push_back(makeCase("group: grid-stride 8-bit add, n=2^24+5, " + shapeName(g, b), "gridstride", "gs_add_u8",
                          {in(Elem::I8, size_t(n)), in(Elem::I8, size_t(n)), out(Elem::I8, size_t(n)), i32(n)}, {g, 1, 1},
                          {b, 1, 1}));
    cs.back().expect = g == 2048 ? "=gs_add_u8__ptxopt_group16" : "original";
  }
  {
    const int m = 5000003;
    const unsigned b = 256, g = 16384;
    cs.push_back(makeCase("group: grid-stride 16-bit clamp, n=5000003, " + shapeName(g, b), "gridstride",
                          "gs_clamp_u16", {in(Elem::I16, size_t(m)), out(Elem::I16, size_t(m)), i32(m), i32(40000)},
                          {g, 1, 1}, {b, 1, 1}));
    cs.back().expect = "=gs_clamp_u16__ptxopt_group8_merged";
  }
  // 32-bit data: refused by default (grid-stride loops are grouped over 8-
  // and 16-bit data); --group-k=4 measures the clone it would be, at 2^21
  // threads (its floor) and at the family harness's 1024 x 256 (under the
  // floor: the original), over 2^24 floats (64 MB, above L2).
  for (unsigned g : {2048u, 1024u}) {
    const int m = 1 << 24;
    const unsigned b = g == 2048 ? 1024 : 256;
    for (bool forced : {false, true}) {
      if (!forced && g != 2048) continue;
      cs.push_back(makeCase("group: grid-stride f32 " + shapeName(g, b) + (forced ? " k=4" : ""), "gridstride",
                            "gs_scale_f32", {in(Elem::F32, size_t(m)), out(Elem::F32, size_t(m)), i32(m), f32(0.37f)},
                            {g, 1, 1}, {b, 1, 1}));
      if (forced) cs.back().passes = "-O2;group-k=4";
      cs.back().expect = forced && g == 2048 ? "=gs_scale_f32__ptxopt_group4" : "original";
    }
  }
  // Mostly arithmetic (a hash and one byte store in 25 instructions, the
  // family's fillRandom<char>): refused by default, --group-k=16 measures the
  // clone it would be at 2^21 threads (plain) and 2^22 in 256-thread blocks
  // (merged), over 2^26 bytes.
  for (unsigned g : {2048u, 16384u}) {
    const int m = 1 << 26;
    const unsigned b = g == 2048 ? 1024 : 256;
    for (bool forced : {false, true}) {
      cs.push_back(makeCase("group: grid-stride hash u8 " + shapeName(g, b) + (forced ? " k=16" : ""), "gridstride",
                            "gs_hash_u8", {out(Elem::I8, size_t(m)), i32(m), i32(7)}, {g, 1, 1}, {b, 1, 1}));
      if (forced) cs.back().passes = "-O2;group-k=16";
      cs.back().expect = !forced ? "original"
                         : g == 2048 ? "=gs_hash_u8__ptxopt_group16"
                                     : "=gs_hash_u8__ptxopt_group16_merged";
    }
  }
}

}  // namespace gpudiff
