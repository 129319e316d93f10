// The table of differential test cases (see Cases.h). Kernel sources are in
// tests/gpu/cases/*.cu, compiled to PTX by nvcc at build time.
#include "Cases.h"

#include <cmath>
#include <tuple>

#include <optional>

namespace gpudiff {

size_t elemSize(Elem e) {
  switch (e) {
    case Elem::I8: return 1;
    case Elem::I16: return 2;
    case Elem::I32: return 4;
    case Elem::F32: return 4;
    case Elem::I64: return 8;
    case Elem::F64: return 8;
    case Elem::F16: return 2;
  }
  return 1;
}

Case makeCase(std::string name, std::string file, std::string kernel, std::vector<Arg> args,
              std::array<unsigned, 3> grid, std::array<unsigned, 3> block) {
  Case c;
  c.name = std::move(name);
  c.file = std::move(file);
  c.kernel = std::move(kernel);
  c.args = std::move(args);
  c.grid = grid;
  c.block = block;
  return c;
}

Case rowsCase(const std::string &prefix, const std::string &file, const std::string &kernel, std::vector<Arg> args,
              unsigned rows, unsigned m, unsigned block, const std::string &expect, const std::string &what,
              const std::string &passes) {
  Case c = makeCase(prefix + ": " + kernel + " " + std::to_string(rows) + "x" + std::to_string(m) + " b" +
                        std::to_string(block) + (what.empty() ? "" : ", " + what) +
                        (passes.empty() ? "" : " (" + passes + ")"),
                    file, kernel, std::move(args), {(rows + block - 1) / block, 1, 1}, {block, 1, 1});
  c.expect = expect;
  c.passes = passes;
  c.big = size_t(rows) * m >= (size_t(1) << 22);
  return c;
}

namespace {

std::string shapeName(unsigned g, unsigned b) { return std::to_string(g) + "x" + std::to_string(b); }

/// Fig. 6-a (and 6-b) matrix add of `g` blocks of `b` threads.
Case matadd(const std::string &kernel, Elem e, unsigned g, unsigned b) {
  size_t n = size_t(g) * b;
  Case c = makeCase(kernel + " " + shapeName(g, b), "matadd", kernel, {in(e, n), in(e, n), out(e, n)}, {g, 1, 1},
                    {b, 1, 1});
  c.big = n > (size_t(1) << 24);
  // -O2: the group clone of the swap when grid.x / k fits a block, else the
  // swap when grid.x fits; the split clones (each grouped one first, with S*k
  // logical blocks per hardware block of S threads) when S divides grid.x;
  // the remap clone for any other launch. k = 16 bytes / element size.
  // Grouped clones only for launches of 2^19 threads or more (Group.cpp).
  const unsigned k = 16 / static_cast<unsigned>(elemSize(e));
  const bool big = n >= (size_t(1) << 19);
  const std::string K = std::to_string(k);
  // The variant for grids of 32768+ blocks launches the same function as
  // the last one (one name).
  auto splitName = [&](unsigned S, bool grouped) {
    return "__ptxopt_split" + std::to_string(grouped ? S * k : S) + (grouped ? "_group" + K : "");
  };
  std::string v;
  if (big && g % k == 0 && g / k <= 1024 && g / k >= 64) v = "__ptxopt_swap_group" + K;  // blocks of 64+ threads
  else if (g <= 1024) v = "__ptxopt_swap";
  else if (big && g >= 32768 && g % (256 * k) == 0) v = splitName(256, true);
  else if (g >= 32768 && g % 256 == 0) v = splitName(256, false);
  else if (big && g % (1024 * k) == 0) v = splitName(1024, true);
  else if (g % 1024 == 0) v = splitName(1024, false);
  else if (big && g % (256 * k) == 0) v = splitName(256, true);
  else if (g % 256 == 0) v = splitName(256, false);
  else v = "__ptxopt_remap";
  c.expect = "=" + kernel + v;
  return c;
}

/// The 8-bit matrix add with k = 4 and 8 (group-k), against the default 16.
void addMataddK(std::vector<Case> &cs) {
  for (auto [g, b] : {std::pair<unsigned, unsigned>{4096, 1024}, {65536, 1024}})
    for (unsigned k : {4u, 8u}) {
      Case c = matadd("matadd_char", Elem::I8, g, b);
      c.name += " k=" + std::to_string(k);
      c.passes = "-O2;group-k=" + std::to_string(k);
      c.expect = "clone";
      cs.push_back(c);
    }
}

void addMatadd(std::vector<Case> &cs) {
  const std::pair<const char *, Elem> types[] = {
      {"matadd_int", Elem::I32}, {"matadd_float", Elem::F32}, {"matadd_char", Elem::I8}, {"matadd_short", Elem::I16}};
  const std::pair<unsigned, unsigned> shapes[] = {{512, 512}, {4096, 1024}, {65536, 1024}};
  for (auto [kernel, e] : types)
    for (auto [g, b] : shapes) {
      cs.push_back(matadd(kernel, e, g, b));
      // Fig. 6-b, the hand-written coalesced kernel, at the same size: the
      // reference of the benchmark. The optimizer must leave it alone.
      cs.push_back(matadd(std::string(kernel) + "_coalesced", e, g, b));
      cs.back().name = "fig6b " + cs.back().name;
      // Already coalesced: coalesce leaves it alone, group merges k threads
      // (when the block keeps 64 threads; 512 / 16 does not: then the
      // block-merged clone, 16 logical blocks of 32 threads per block); both
      // ask for 2^19 threads: 512 x 512 runs the original.
      const size_t kk = 16 / elemSize(e);
      const std::string gc = "=" + std::string(kernel) + "_coalesced__ptxopt_group" + std::to_string(kk);
      cs.back().expect = size_t(g) * b < (size_t(1) << 19) ? "original" : b / kk >= 64 && b >= 512 ? gc : gc + "_merged";
      // The hand-written 16-byte grouping of Fig. 6-b (the group pass's
      // benchmark reference): n / (16 / size) threads in blocks of 256.
      const size_t n = size_t(g) * b, threads = n / (16 / elemSize(e));
      Case h = makeCase(std::string("hand16 ") + kernel + " " + shapeName(g, b), "matadd",
                        std::string(kernel) + "_vec16", {in(e, n), in(e, n), out(e, n)},
                        {unsigned(threads / 256), 1, 1}, {256, 1, 1});
      h.expect = "original";
      h.big = cs.back().big;
      cs.push_back(h);
      if (e == Elem::I8) {  // the paper's 4-byte grouping
        Case h4 = makeCase(std::string("hand4 ") + kernel + " " + shapeName(g, b), "matadd", "matadd_char_vec4",
                           {in(e, n), in(e, n), out(e, n)}, {unsigned(n / 4 / 256), 1, 1}, {256, 1, 1});
        h4.expect = "original";
        h4.big = cs.back().big;
        cs.push_back(h4);
      }
    }
}

void addShapes(std::vector<Case> &cs) {
  // Grid not a power of two (nor a multiple of 4, so no group clone): the
  // remap clone divides (no shift shortcut).
  cs.push_back(matadd("matadd_int", Elem::I32, 3001, 1000));
  // Indices used as data, 64-bit indexing, an index from an inlined helper:
  // 1024 blocks of 256, where the swap clone fits (block.x = 1024).
  {
    const unsigned g = 1024, b = 256;
    const size_t n = size_t(g) * b;
    cs.push_back(makeCase("indices as data", "shapes", "index_as_data", {in(Elem::I32, n), out(Elem::I32, n)},
                          {g, 1, 1}, {b, 1, 1}));
    cs.back().expect = "clone";
    cs.push_back(makeCase("64-bit index", "shapes", "matadd64",
                          {in(Elem::F32, n), in(Elem::F32, n), out(Elem::F32, n)}, {g, 1, 1}, {b, 1, 1}));
    cs.back().expect = "clone";
    cs.push_back(makeCase("index from an inlined helper", "shapes", "helper_index",
                          {in(Elem::I16, n), out(Elem::I16, n)}, {g, 1, 1}, {b, 1, 1}));
    cs.back().expect = "clone";
  }
  // 2-D block (32 x 4), 2000 blocks (neither swap nor split can launch it):
  // the remap clone's general path.
  {
    const unsigned g = 2000;
    const size_t n = size_t(g) * 32 * 4;
    cs.push_back(makeCase("2-D block 32x4, 2000 blocks", "shapes", "matadd_blocky",
                          {in(Elem::I32, n), in(Elem::I32, n), out(Elem::I32, n)}, {g, 1, 1}, {32, 4, 1}));
    cs.back().expect = "=matadd_blocky__ptxopt_remap";
  }
  const int ny = 64 * 16;
  const size_t n2d = size_t(64 * 16) * ny;
  cs.push_back(makeCase("2-D column-major 64x64 blocks of 16x16", "shapes", "add2d_colmajor",
                {in(Elem::F32, n2d), in(Elem::F32, n2d), out(Elem::F32, n2d), i32(ny)}, {64, 64, 1}, {16, 16, 1}));
  const int n = 2100003;  // not a multiple of 256; over the group clones' 2^21-thread floor
  const unsigned g = (n + 255) / 256;
  cs.push_back(makeCase("guarded saxpy n=2100003", "shapes", "saxpy_guarded",
                {in(Elem::F32, n), in(Elem::F32, n), out(Elem::F32, n), f32(2.5f), i32(n)}, {g, 1, 1}, {256, 1, 1}));
  // n % 4 != 0: the slow path at the end; blocks of 256 (under 512): the merged clone
  cs.back().expect = "=saxpy_guarded__ptxopt_group4_merged";
  cs.push_back(makeCase("guarded matadd n=2100003", "shapes", "matadd_guarded",
                {in(Elem::I32, n), in(Elem::I32, n), out(Elem::I32, n), i32(n)}, {g, 1, 1}, {256, 1, 1}));
  cs.back().expect = "=matadd_guarded__ptxopt_remap";  // grid.x = 8204: no swap, split or group fits
  // Short-word grouping behind a bounds guard: n not a multiple of k, so the
  // last hardware thread takes the per-thread slow path.
  {
    const unsigned gb = (n + 1023) / 1024;
    cs.push_back(makeCase("group: guarded char n=2100003", "shapes", "scale_char_guarded",
                          {in(Elem::I8, n), out(Elem::I8, n), i32(n)}, {gb, 1, 1}, {1024, 1, 1}));
    cs.back().expect = "=scale_char_guarded__ptxopt_group16";
    cs.push_back(makeCase("group: guarded short, early return, n=2100003", "shapes", "clamp_short_guarded",
                          {in(Elem::I16, n), in(Elem::I16, n), out(Elem::I16, n), i32(n)}, {gb, 1, 1}, {1024, 1, 1}));
    cs.back().expect = "=clamp_short_guarded__ptxopt_group8";
    // n smaller than one group: every thread on the slow path (2048 blocks:
    // the group clone asks for 2^21 threads or more).
    cs.push_back(makeCase("group: guarded char n=5", "shapes", "scale_char_guarded",
                          {in(Elem::I8, 5), out(Elem::I8, 5), i32(5)}, {2048, 1, 1}, {1024, 1, 1}));
    cs.back().expect = "=scale_char_guarded__ptxopt_group16";
    // The same in one block: fewer threads than the group clone's minimum.
    cs.push_back(makeCase("group: guarded char n=5, one block", "shapes", "scale_char_guarded",
                          {in(Elem::I8, 5), out(Elem::I8, 5), i32(5)}, {1, 1, 1}, {1024, 1, 1}));
    cs.back().expect = "original";
    // A block of 256 threads grouped by 16 keeps 16: below the group
    // clone's minimum of 64, so the block-merged clone runs: blocks of 256,
    // ceil(8204 / 16) = 513 of them, the logical blocks past 8204 return.
    cs.push_back(makeCase("group: block 256 / 16 < 64 threads (merged)", "shapes", "scale_char_guarded",
                          {in(Elem::I8, n), out(Elem::I8, n), i32(n)}, {(n + 255) / 256, 1, 1}, {256, 1, 1}));
    cs.back().expect = "=scale_char_guarded__ptxopt_group16_merged";
    cs.push_back(makeCase("group: short, block 256 / 8 < 64 threads (merged)", "shapes", "clamp_short_guarded",
                          {in(Elem::I16, n), in(Elem::I16, n), out(Elem::I16, n), i32(n)}, {(n + 255) / 256, 1, 1},
                          {256, 1, 1}));
    cs.back().expect = "=clamp_short_guarded__ptxopt_group8_merged";
    // One block: fewer than the merged clone's 2^21 threads, the original.
    cs.push_back(makeCase("group: merged, one block, n=5", "shapes", "scale_char_guarded",
                          {in(Elem::I8, 5), out(Elem::I8, 5), i32(5)}, {1, 1, 1}, {256, 1, 1}));
    cs.back().expect = "original";
    // 8193 blocks of 256 (2097408 threads, n = 2097398): the merged clone,
    // where the last hardware block runs logical blocks 8192-8207, 15 of
    // them past the grid, and the last logical block's guard fails for 10
    // threads.
    cs.push_back(makeCase("group: merged, n=2097398, grid 8193 (not a multiple of 16)", "shapes",
                          "scale_char_guarded", {in(Elem::I8, 2097398), out(Elem::I8, 2097398), i32(2097398)},
                          {8193, 1, 1}, {256, 1, 1}));
    cs.back().expect = "=scale_char_guarded__ptxopt_group16_merged";
    // 1024 blocks of 256 (2^18 threads): under the merged clone's minimum.
    cs.push_back(makeCase("group: merged, 2^18 threads (under its minimum)", "shapes", "scale_char_guarded",
                          {in(Elem::I8, 1 << 18), out(Elem::I8, 1 << 18), i32(1 << 18)}, {1024, 1, 1}, {256, 1, 1}));
    cs.back().expect = "original";
    // The merged clone's conditions fail: misaligned input, block not a
    // multiple of 16.
    Case mm = makeCase("group: merged, char input 1 byte off 16", "shapes", "scale_char_guarded",
                       {in(Elem::I8, n, 1), out(Elem::I8, n), i32(n)}, {(n + 255) / 256, 1, 1}, {256, 1, 1});
    mm.expect = "original";
    cs.push_back(mm);
    cs.push_back(makeCase("group: merged, block.x=250", "shapes", "scale_char_guarded",
                          {in(Elem::I8, n), out(Elem::I8, n), i32(n)}, {(n + 249) / 250, 1, 1}, {250, 1, 1}));
    cs.back().expect = "original";
    const size_t nw = size_t(4096) * 256;
    cs.push_back(makeCase("group: char in, int out (k=4)", "shapes", "widen_char",
                          {in(Elem::I8, 2 * nw), out(Elem::I32, 2 * nw)}, {8192, 1, 1}, {256, 1, 1}));
    cs.back().expect = "=widen_char__ptxopt_group4_merged";  // blocks of 256 (under 512): merged
    // Misaligned base pointers: the runtime must fall back to the original.
    Case mis = makeCase("group: char input 1 byte off 16", "matadd", "matadd_char_coalesced",
                        {in(Elem::I8, nw, 1), in(Elem::I8, nw), out(Elem::I8, nw)}, {1024, 1, 1}, {1024, 1, 1});
    mis.expect = "original";
    cs.push_back(mis);
    Case mis4 = makeCase("group: int input 4 bytes off 16", "matadd", "matadd_int_coalesced",
                         {in(Elem::I32, nw), in(Elem::I32, nw, 4), out(Elem::I32, nw)}, {1024, 1, 1}, {1024, 1, 1});
    mis4.expect = "original";
    cs.push_back(mis4);
    // Block not a multiple of k=16: the original.
    cs.push_back(makeCase("group: block.x=1000 not a multiple of 16", "matadd", "matadd_char_coalesced",
                          {in(Elem::I8, 1000 * 1000), in(Elem::I8, 1000 * 1000), out(Elem::I8, 1000 * 1000)},
                          {1000, 1, 1}, {1000, 1, 1}));
    cs.back().expect = "original";
  }
  const int ns = 10000019;
  cs.push_back(makeCase("grid-stride n=10000019", "shapes", "add_gridstride",
                {in(Elem::F32, ns), in(Elem::F32, ns), out(Elem::F32, ns), i32(ns)}, {264, 1, 1}, {256, 1, 1}));
}

/// The paper's image kernels (cases/image.cu) on an 8-bit 1920x1080 image,
/// blocks of 256 x 4 threads, and at 8192 x 8192 (larger than the L2).
void addImage(std::vector<Case> &cs) {
  for (auto [w, h] : {std::pair<int, int>{1920, 1080}, {8192, 8192}}) {
    const size_t n = size_t(w) * h;
    const unsigned gx = (w + 255) / 256, gy = (h + 3) / 4;
    const std::string size = std::to_string(w) + "x" + std::to_string(h);
    const bool big = n > (size_t(1) << 24);
    cs.push_back(makeCase("image: sobel " + size, "image", "sobel", {in(Elem::I8, n), out(Elem::I8, n), i32(w), i32(h)},
                          {gx, gy, 1}, {256, 4, 1}));
    cs.back().expect = "=sobel__ptxopt_group8";  // 69 instructions: k halved from 16 (Group.cpp)
    cs.back().big = big;
    // The rotations scatter or gather: -O2 leaves them alone (grouping
    // could make those accesses less coalesced); with the group-gathers
    // option the clone must still compute the same bytes. 90 degrees for
    // rotation 1: a one-to-one mapping, so its writes do not race.
    for (bool gathers : {false, true}) {
      const std::string opt = gathers ? " (group-gathers)" : "";
      cs.push_back(makeCase("image: rotate1 (read once) " + size + opt, "image", "rotate1",
                            {in(Elem::I8, n), out(Elem::I8, n), i32(w), i32(h), f32(0.f), f32(1.f)}, {gx, gy, 1},
                            {256, 4, 1}));
      cs.back().expect = "original";  // its guard is computed (a scatter target): refused
      cs.back().passes = gathers ? "-O2;group-gathers" : "";
      cs.back().big = big;
      cs.push_back(makeCase("image: rotate2 (written once) " + size + opt, "image", "rotate2",
                            {in(Elem::I8, n), out(Elem::I8, n), i32(w), i32(h), f32(0.8f), f32(0.6f)}, {gx, gy, 1},
                            {256, 4, 1}));
      // Without --group-gathers only the y-merged clone exists: launches of
      // 2^22 threads or more with grid.y >= 16 take it.
      cs.back().expect = gathers ? "=rotate2__ptxopt_group16" : big ? "=rotate2__ptxopt_group16_merged_y" : "original";
      cs.back().passes = gathers ? "-O2;group-gathers" : "";
      cs.back().big = big;
    }
  }
  // The examples' launch of rotation 2 (blocks of 128 x 1, one row of blocks
  // per image row) with group-gathers: block.x / 16 = 8 threads, so a merged
  // clone; from 2^22 threads the one merged along y (new, not yet run on a
  // GPU: 16 rows of 128 pixels per block, the hand kernel's tile), below it
  // the x-merged one (from 2^21 threads: 1920 x 1080 is under that floor
  // since 2026-11-28, so 2560 x 1440).
  for (auto [w, h] : {std::pair<int, int>{2048, 2048}, {2560, 1440}}) {
    const size_t n = size_t(w) * h;
    cs.push_back(makeCase("image: rotate2 " + std::to_string(w) + "x" + std::to_string(h) +
                              " blocks 128x1 (group-gathers)",
                          "image", "rotate2", {in(Elem::I8, n), out(Elem::I8, n), i32(w), i32(h), f32(0.8f), f32(0.6f)},
                          {unsigned(w / 128), unsigned(h), 1}, {128, 1, 1}));
    cs.back().passes = "-O2;group-gathers";
    cs.back().expect = n >= (size_t(1) << 22) ? "=rotate2__ptxopt_group16_merged_y" : "=rotate2__ptxopt_group16_merged";
  }
  // k chosen by launch size (on by default; the option is accepted and
  // changes nothing): Sobel at 1920x1080 in the examples' 32 x 8 blocks
  // takes neither the k = 8 clone (4 threads across) nor the merged one
  // (under 2^22 threads), but the block-merged k = 4 clone with predicated
  // border groups (2^20 threads or more; 1.21x in scripts/bench/sobel-small.sh
  // on an H100). 1028 x 1027 in 33 x 129 blocks: grid.x not a multiple of 4
  // (the last logical blocks return), groups across the right border (three
  // of four logical threads pass: byte stores) and rows past the image.
  for (bool small : {true, false}) {
    const int w = 1920, h = 1080;
    const size_t n = size_t(w) * h;
    cs.push_back(makeCase(std::string("image: sobel 1920x1080 blocks 32x8") + (small ? " (group-small-launches)" : ""),
                          "image", "sobel", {in(Elem::I8, n), out(Elem::I8, n), i32(w), i32(h)},
                          {unsigned(w / 32), unsigned(h / 8), 1}, {32, 8, 1}));
    cs.back().passes = small ? "-O2;group-small-launches" : "";
    cs.back().expect = "=sobel__ptxopt_group4_merged";
  }
  {
    const int w = 1028, h = 1027;
    const size_t n = size_t(w) * h;
    cs.push_back(makeCase("image: sobel 1028x1027 blocks 32x8 (border groups, grid.x 33)", "image", "sobel",
                          {in(Elem::I8, n), out(Elem::I8, n), i32(w), i32(h)},
                          {unsigned(w + 31) / 32, unsigned(h + 7) / 8, 1}, {32, 8, 1}));
    cs.back().expect = "=sobel__ptxopt_group4_merged";
  }
  // k chosen by hand (group-k): a measurement of the choice of k, and the
  // smaller vectors' code paths on the GPU.
  for (auto [w, h] : {std::pair<int, int>{1920, 1080}, {8192, 8192}})
    for (unsigned k : {4u, 16u}) {
      const size_t n = size_t(w) * h;
      cs.push_back(makeCase("image: sobel " + std::to_string(w) + "x" + std::to_string(h) + " k=" + std::to_string(k),
                            "image", "sobel", {in(Elem::I8, n), out(Elem::I8, n), i32(w), i32(h)},
                            {unsigned(w + 255) / 256, unsigned(h + 3) / 4, 1}, {256, 4, 1}));
      cs.back().expect = "=sobel__ptxopt_group" + std::to_string(k);
      cs.back().passes = "-O2;group-k=" + std::to_string(k);
      cs.back().big = n > (size_t(1) << 24);
    }
  // Blocks of 64 x 4: 64 / 8 x 4 = 32 threads, too few for the group clone.
  // (Blocks of 256 x 4 above: the group clone asks for 2^21 threads, the
  // 1920 x 1080 launch has 2048 x 1080.)
  // Sobel's body is long (k halved) and has misaligned loads: its
  // block-merged clone, 8 logical blocks of 8 x 4 in each 64 x 4 block,
  // asks for 2^22 threads or more, so
  // the k = 4 merged clone (above) runs at 1920x1080 and the k = 8 one at 4096x4096 (2-D
  // grid; 64 blocks along x at 4096, 30 at 1920: not a multiple of 8).
  for (int w : {1920, 4096}) {
    const int h = w == 1920 ? 1080 : 4096;
    const size_t n = size_t(w) * h;
    cs.push_back(makeCase("image: sobel " + std::to_string(w) + "x" + std::to_string(h) + " blocks 64x4",
                          "image", "sobel", {in(Elem::I8, n), out(Elem::I8, n), i32(w), i32(h)},
                          {unsigned(w / 64), unsigned(h / 4), 1}, {64, 4, 1}));
    cs.back().expect = w == 1920 ? "=sobel__ptxopt_group4_merged" : "=sobel__ptxopt_group8_merged";
  }
  // A width that is not a multiple of 8 (k) or 16: the row pitch fails the clone's
  // condition, the original runs.
  {
    const int w = 1922, h = 1080;
    const size_t n = size_t(w) * h;
    cs.push_back(makeCase("image: sobel 1922x1080 (pitch % 8 != 0)", "image", "sobel",
                          {in(Elem::I8, n), out(Elem::I8, n), i32(w), i32(h)}, {(w + 255) / 256, (h + 3) / 4, 1},
                          {256, 4, 1}));
    cs.back().expect = "original";
  }
  // The naive DCT: not grouped (loops, cosf's local memory); by default not
  // packed either. With pack-across-blocks pack reads the eight pixels of a
  // row (nvcc unrolled the row loop; cosf's branches lie between them) as one
  // 8-byte load; a pitch not a multiple of 8 (and the input 4 bytes off 8)
  // run the original.
  {
    const int w = 2048;
    const size_t n = size_t(w) * w;
    cs.push_back(makeCase("image: dct8x8 2048x2048", "image", "dct8x8", {in(Elem::I8, n), out(Elem::F32, n), i32(w)},
                          {w / 8, w / 8, 1}, {8, 8, 1}));
    cs.back().expect = "=dct8x8__ptxopt_reuse";  // the cosines computed once (Reuse.cpp)
  }
  // The reuse clone (its cosines gone, the pixels' load latency is what is
  // left) packed across blocks: one 8-byte load per row.
  {
    const int w = 2048;
    const size_t n = size_t(w) * w;
    cs.push_back(makeCase("image: dct8x8 2048x2048 reuse, then packed across blocks", "image", "dct8x8",
                          {in(Elem::I8, n), out(Elem::F32, n), i32(w)}, {w / 8, w / 8, 1}, {8, 8, 1}));
    cs.back().passes = "coalesce,group,rowwalk,reuse,pack;pack-across-blocks";
    cs.back().expect = "=dct8x8__ptxopt_reuse_pack";
  }
  for (int w : {2048, 2052}) {
    const int h = 2048;
    const size_t n = size_t(w) * h;
    cs.push_back(makeCase("image: dct8x8 2048x2048 across blocks, pitch " + std::to_string(w), "image", "dct8x8",
                          {in(Elem::I8, n), out(Elem::F32, n), i32(w)}, {2048 / 8, h / 8, 1}, {8, 8, 1}));
    cs.back().passes = "-O2;pack-across-blocks";
    cs.back().expect = w % 8 == 0 ? "=dct8x8__ptxopt_pack" : "=dct8x8__ptxopt_reuse";
  }
  {
    const int w = 2048;
    const size_t n = size_t(w) * w;
    cs.push_back(makeCase("image: dct8x8 2048x2048 across blocks, input 4 bytes off", "image", "dct8x8",
                          {in(Elem::I8, n + 4, 4), out(Elem::F32, n), i32(w)}, {w / 8, w / 8, 1}, {8, 8, 1}));
    cs.back().passes = "-O2;pack-across-blocks";
    cs.back().expect = "=dct8x8__ptxopt_reuse";  // the pack clone's condition fails
  }
}

/// The pack pass (cases/pack.cu): a thread's adjacent loads merged.
void addPack(std::vector<Case> &cs) {
  const unsigned g = 4096, b = 256;
  const size_t n = size_t(g) * b;
  cs.push_back(makeCase("pack: four bytes per thread", "pack", "quad", {in(Elem::I8, 4 * n), out(Elem::I32, n)},
                        {g, 1, 1}, {b, 1, 1}));
  cs.back().expect = "=quad__ptxopt_pack";
  cs.push_back(makeCase("pack: input 2 bytes off 4 (original)", "pack", "quad",
                        {in(Elem::I8, 4 * n, 2), out(Elem::I32, n)}, {g, 1, 1}, {b, 1, 1}));
  cs.back().expect = "original";
  cs.push_back(makeCase("pack: shorts at an odd offset", "pack", "odd", {in(Elem::I16, 4 * n + 1), out(Elem::I32, n)},
                        {g, 1, 1}, {b, 1, 1}));
  cs.back().expect = "=odd__ptxopt_pack";
  // Fig. 6-a indexing, four bytes per thread: the swap clone, packed.
  cs.push_back(makeCase("pack: the swap clone of a Fig. 6-a kernel", "pack", "quad_6a",
                        {in(Elem::I8, 4 * size_t(512) * 256), out(Elem::I32, size_t(512) * 256)}, {512, 1, 1},
                        {256, 1, 1}));
  cs.back().expect = "=quad_6a__ptxopt_swap_pack";
  // The same above L2 (2^24 threads: 64 MB read), to measure what merging a
  // thread's 4 or 8 bytes outside a loop saves (docs/PASSES.md, pack): the
  // pack clones against the originals, and coalesce's clone (at 65536 blocks
  // the split clone) with and without pack.
  {
    const unsigned G = 65536;
    const size_t N = size_t(G) * b;
    cs.push_back(makeCase("pack: four bytes per thread, 2^24 threads", "pack", "quad",
                          {in(Elem::I8, 4 * N), out(Elem::I32, N)}, {G, 1, 1}, {b, 1, 1}));
    cs.back().expect = "=quad__ptxopt_pack";
    cs.back().big = true;
    cs.push_back(makeCase("pack: shorts at an odd offset, 2^24 threads", "pack", "odd",
                          {in(Elem::I16, 4 * N + 1), out(Elem::I32, N)}, {G, 1, 1}, {b, 1, 1}));
    cs.back().expect = "=odd__ptxopt_pack";
    cs.back().big = true;
    for (const char *passes : {"", "coalesce"}) {
      cs.push_back(makeCase(std::string("pack: Fig. 6-a, four bytes per thread, 2^24 threads, ") +
                                (*passes ? "the split clone alone" : "the split clone packed"),
                            "pack", "quad_6a", {in(Elem::I8, 4 * N), out(Elem::I32, N)}, {G, 1, 1}, {b, 1, 1}));
      cs.back().passes = passes;
      cs.back().expect = *passes ? "=quad_6a__ptxopt_split256" : "=quad_6a__ptxopt_split256_pack";
      cs.back().big = true;
    }
  }
  // The DCT with __cosf: the eight pixels of a row as one 8-byte load; a
  // pitch that is not a multiple of 8 runs the original.
  for (int w : {2048, 2052}) {
    const size_t sz = size_t(w) * 2048;
    cs.push_back(makeCase("pack: dct (__cosf) 2048x2048, pitch " + std::to_string(w), "pack", "dct_fast",
                          {in(Elem::I8, sz), out(Elem::F32, sz), i32(w)}, {256, 256, 1}, {8, 8, 1}));
    cs.back().expect = w % 8 == 0 ? "=dct_fast__ptxopt_pack" : "original";
  }
}

/// Sizes from parameters (cases/runtime.cu): a tile edge B and a pitch w
/// multiply in the address; B % 4 == 0 covers the term B*w*%ctaid.y. B = 6
/// (and so a pitch of 2046) runs the original. Every thread of a block reads
/// the same four bytes: merged (--pack-uniform-bytes) they ran 0.93-0.94x at
/// 2048x2048 (H100), so by default the original runs; the opt-in cases
/// measure the clone at 2048x2048 (4 MB, in L2) and 8192x8192 (a 64 MB
/// image, above L2), with B = 8 and 16 (two and four passes of nvcc's
/// unrolled row loop).
void addParamSizes(std::vector<Case> &cs) {
  auto tile = [&](int B, int w, bool optIn) {
    const int h = w;
    const size_t n = size_t(w) * h;
    cs.push_back(makeCase("pack: tile_sum B=" + std::to_string(B) + " " + std::to_string(w) + "x" + std::to_string(h) +
                              (optIn ? " uniform-bytes" : ""),
                          "runtime", "tile_sum", {in(Elem::I8, n), out(Elem::F32, n), i32(w), i32(B)},
                          {unsigned(w / B), unsigned(h / B), 1}, {unsigned(B), unsigned(B), 1}));
    if (optIn) cs.back().passes = "-O2;pack-uniform-bytes";
    cs.back().expect = optIn && B % 4 == 0 ? "=tile_sum__ptxopt_pack" : "original";
    cs.back().big = w > 4096;
  };
  tile(8, 2048, false);
  tile(8, 2048, true);
  tile(6, 2046, false);
  tile(8, 8192, false);
  tile(8, 8192, true);
  tile(16, 8192, true);
}

/// The pack pass's loop unrolling (cases/unroll.cu): one row of n short
/// words per thread, a cosf per element; n not a multiple of 4 (the last
/// iterations one by one), fewer than 4 iterations, misaligned pitches and
/// starts that must run the original, and the refused loops.
void addUnroll(std::vector<Case> &cs) {
  const unsigned g = 64, b = 256, rows = g * b;
  auto rowCase = [&](const std::string &name, const std::string &kernel, Elem e, int n, int pitch,
                     std::optional<int> lo, const std::string &expect) {
    std::vector<Arg> args{in(e, size_t(rows) * pitch + 8), out(Elem::F32, rows)};
    if (lo) args.push_back(i32(*lo));
    args.push_back(i32(n));
    args.push_back(i32(pitch));
    args.push_back(f32(0.37f));
    cs.push_back(makeCase("unroll: " + name, "unroll", kernel, args, {g, 1, 1}, {b, 1, 1}));
    cs.back().expect = expect;
  };
  rowCase("8-bit rows, n 1001, pitch 1004", "row_u8", Elem::I8, 1001, 1004, std::nullopt, "=row_u8__ptxopt_pack");
  rowCase("8-bit rows, n 3 (no group of 4)", "row_u8", Elem::I8, 3, 4, std::nullopt, "=row_u8__ptxopt_pack");
  rowCase("8-bit rows, n 0", "row_u8", Elem::I8, 0, 4, std::nullopt, "=row_u8__ptxopt_pack");
  rowCase("8-bit rows, pitch 1002 (original)", "row_u8", Elem::I8, 1000, 1002, std::nullopt, "original");
  rowCase("16-bit rows, n 1003, pitch 1004", "row_u16", Elem::I16, 1003, 1004, std::nullopt, "=row_u16__ptxopt_pack");
  rowCase("16-bit rows, pitch 1006 (original)", "row_u16", Elem::I16, 1003, 1006, std::nullopt, "original");
  rowCase("8-bit rows from 8 to 1001", "row_from", Elem::I8, 1001, 1004, 8, "=row_from__ptxopt_pack");
  rowCase("8-bit rows from 3 (original)", "row_from", Elem::I8, 1001, 1004, 3, "original");
  // #pragma unroll 1: unrolled on the clone (new, not yet run on a GPU).
  rowCase("nounroll loop, n 1001", "row_nounroll", Elem::I8, 1001, 1004, std::nullopt, "=row_nounroll__ptxopt_pack");
  rowCase("stride-2 loop (original)", "row_even", Elem::I8, 500, 1004, std::nullopt, "original");
  // Latch forms (cases/latch.cu; new, not yet run on a GPU): `x != n`, a
  // counter tested before it counts down, and `#pragma unroll 1` on 16-bit
  // data; n not a multiple of 4, fewer than 4, and 0.
  auto latchCase = [&](const std::string &name, const std::string &kernel, Elem e, int n, int pitch,
                       const std::string &expect) {
    cs.push_back(makeCase("unroll: " + name, "latch", kernel,
                          {in(e, size_t(rows) * pitch + 8), out(Elem::F32, rows), i32(n), i32(pitch), f32(0.37f)},
                          {g, 1, 1}, {b, 1, 1}));
    cs.back().expect = expect;
  };
  latchCase("x != n, n 1001", "row_ne", Elem::I8, 1001, 1004, "=row_ne__ptxopt_pack");
  latchCase("x != n, n 2", "row_ne", Elem::I8, 2, 4, "=row_ne__ptxopt_pack");
  latchCase("counting down, n 1001", "row_down", Elem::I8, 1001, 1004, "=row_down__ptxopt_pack");
  latchCase("counting down, n 3", "row_down", Elem::I8, 3, 4, "=row_down__ptxopt_pack");
  latchCase("counting down, n 0", "row_down", Elem::I8, 0, 4, "=row_down__ptxopt_pack");
  latchCase("nounroll 16-bit, n 1003", "row_nounroll_u16", Elem::I16, 1003, 1004, "=row_nounroll_u16__ptxopt_pack");
  latchCase("nounroll 16-bit, pitch 1002 (original)", "row_nounroll_u16", Elem::I16, 1003, 1002, "original");
}

SynthVariant swapVariant() {
  SynthVariant v{"__test_swap", "swap"};
  v.grid[0] = "block.x";
  v.block[0] = "grid.x";
  return v;
}

SynthVariant remapVariant(const std::string &suffix = "__test_remap") { return {suffix, "remap"}; }

/// A group-like variant whose clone (a plain copy) would compute the wrong
/// result: every case that has it must fall back to the original.
SynthVariant groupVariant() {
  SynthVariant v{"__test_group4", "group"};
  v.block[0] = "block.x/4";
  v.blockMultipleX = 4;
  v.alignedParam = 0;
  v.alignBytes = 16;
  v.allowDynamicShared = false;
  return v;
}

Case synthMatadd(const std::string &name, const std::string &kernel, Elem e, unsigned g, unsigned b,
                 std::vector<SynthVariant> vs, const std::string &expect) {
  size_t n = size_t(g) * b;
  Case c = makeCase(name, "matadd", kernel, {in(e, n), in(e, n), out(e, n)}, {g, 1, 1}, {b, 1, 1});
  c.synth = std::move(vs);
  c.expect = expect;
  return c;
}

/// The runtime's conditions on the GPU, with hand-written manifests.
void addRuntimeCases(std::vector<Case> &cs) {
  cs.push_back(synthMatadd("rt: swap chosen 512x256", "matadd_int", Elem::I32, 512, 256, {swapVariant()}, "clone"));
  cs.push_back(synthMatadd("rt: swap block.x=4096 > limit", "matadd_int", Elem::I32, 4096, 256, {swapVariant()},
                           "original"));
  Case mis = synthMatadd("rt: group, param 0 misaligned", "matadd_char", Elem::I8, 1024, 256, {groupVariant()},
                         "original");
  mis.args[0].offset = 1;
  cs.push_back(mis);
  cs.push_back(synthMatadd("rt: group, block.x=250 not a multiple of 4", "matadd_char", Elem::I8, 1024, 250,
                           {groupVariant()}, "original"));
  Case dyn = synthMatadd("rt: dynamic shared not allowed", "matadd_char", Elem::I8, 1024, 256, {groupVariant()},
                         "original");
  dyn.shared = 1024;
  cs.push_back(dyn);
  cs.push_back(synthMatadd("rt: first variant fails, second chosen", "matadd_char", Elem::I8, 1024, 250,
                           {groupVariant(), remapVariant()}, "=matadd_char__test_remap"));
  Case tune = synthMatadd("rt: autotune swap 1024x1024", "matadd_int", Elem::I32, 1024, 1024, {swapVariant()}, "");
  tune.autotune = true;
  cs.push_back(tune);
}

/// 16-bit floating point (cases/half.cu = tests/lit/group/Inputs/half.cu):
/// cuda_fp16.h and cuda_bf16.h arithmetic, nested { } blocks in the PTX,
/// repeated per logical thread; random bits as input (NaNs and infinities
/// included: the clone runs the same instructions, so even those compare
/// equal bit for bit).
void addHalf(std::vector<Case> &cs) {
  const int n = 2100003;  // not a multiple of k: the last thread takes the slow path; over the 2^21 floor
  const unsigned g1024 = (n + 1023) / 1024, g256 = (n + 255) / 256;
  for (auto [kernel, inputs] : {std::pair<const char *, int>{"half_axpy", 2}, {"half_fma_max", 2},
                                {"half_leaky_relu", 1}}) {
    for (unsigned b : {1024u, 256u}) {
      std::vector<Arg> args;
      for (int i = 0; i < inputs; ++i) args.push_back(in(Elem::I16, n));
      args.push_back(out(Elem::I16, n));
      args.push_back(i32(n));
      cs.push_back(makeCase(std::string("half: ") + kernel + " n=2100003 block " + std::to_string(b), "half", kernel,
                            args, {b == 1024 ? g1024 : g256, 1, 1}, {b, 1, 1}));
      // 1024 / 8 = 128 threads: the group clone; 256 / 8 = 32: the merged one.
      cs.back().expect = std::string("=") + kernel + "__ptxopt_group8" + (b == 1024 ? "" : "_merged");
    }
  }
  cs.push_back(makeCase("half: bf16_scale n=2100003", "half", "bf16_scale",
                        {in(Elem::I16, n), out(Elem::I16, n), f32(1.75f), i32(n)}, {g1024, 1, 1}, {1024, 1, 1}));
  cs.back().expect = "=bf16_scale__ptxopt_group8";
  cs.push_back(makeCase("half: half2_to_float n=2100003", "half", "half2_to_float",
                        {in(Elem::I32, n), out(Elem::F32, n), i32(n)}, {g256, 1, 1}, {256, 1, 1}));
  cs.back().expect = "=half2_to_float__ptxopt_group4_merged";
  // Larger than the L2 (2^24 + 3 elements): the bandwidth-bound sizes.
  const int nb = (1 << 24) + 3;
  const unsigned gb256 = (nb + 255) / 256;
  cs.push_back(makeCase("half: half_axpy n=2^24+3 block 256", "half", "half_axpy",
                        {in(Elem::I16, nb), in(Elem::I16, nb), out(Elem::I16, nb), i32(nb)}, {gb256, 1, 1},
                        {256, 1, 1}));
  cs.back().expect = "=half_axpy__ptxopt_group8_merged";
  cs.back().big = true;
  cs.push_back(makeCase("half: half2_to_float n=2^24+3", "half", "half2_to_float",
                        {in(Elem::I32, nb), out(Elem::F32, nb), i32(nb)}, {gb256, 1, 1}, {256, 1, 1}));
  cs.back().expect = "=half2_to_float__ptxopt_group4_merged";
  cs.back().big = true;
  // Fig. 6-a with __half (4096 blocks of 1024, and 512 x 512): the swap
  // clone grouped by 8, and below the group clone's minimum launch the swap
  // clone alone.
  for (auto [g, b] : {std::pair<unsigned, unsigned>{4096, 1024}, {512, 512}}) {
    const size_t nc = size_t(g) * b;
    cs.push_back(makeCase("half: half_col_add (Fig. 6-a) " + std::to_string(g) + "x" + std::to_string(b), "half",
                          "half_col_add", {in(Elem::I16, nc), in(Elem::I16, nc), out(Elem::I16, nc)}, {g, 1, 1},
                          {b, 1, 1}));
    cs.back().expect = g == 4096 ? "=half_col_add__ptxopt_swap_group8" : "=half_col_add__ptxopt_swap";
  }
  // n smaller than k: every thread on the slow path, where each logical
  // thread runs its own copies of the blocks.
  cs.push_back(makeCase("half: half_leaky_relu n=5 (slow path)", "half", "half_leaky_relu",
                        {in(Elem::I16, 5), out(Elem::I16, 5), i32(5)}, {2048, 1, 1}, {1024, 1, 1}));
  cs.back().expect = "=half_leaky_relu__ptxopt_group8";
  // pack on kernels with scopes (cases/packhalf.cu = tests/lit/pack/Inputs/half.cu),
  // packed from a flattened copy; finite halves. A naive __half matrix
  // product (A's four halves of an iteration as one 8-byte load: A 8-byte
  // aligned, n % 4 == 0) and adjacent pairs (one 4-byte load).
  for (unsigned n : {1024u, 1022u}) {
    cs.push_back(makeCase("packhalf: hmatmul n=" + std::to_string(n), "packhalf", "hmatmul",
                          {in(Elem::F16, size_t(n) * n), in(Elem::F16, size_t(n) * n), out(Elem::F32, size_t(n) * n),
                           i32(int32_t(n))},
                          {(n + 15) / 16, (n + 15) / 16, 1}, {16, 16, 1}));
    cs.back().passes = "pack";
    cs.back().expect = n % 4 == 0 ? "=hmatmul__ptxopt_pack" : "original";
  }
  cs.push_back(makeCase("packhalf: hmatmul n=1024, A 2 bytes off alignment", "packhalf", "hmatmul",
                        {in(Elem::F16, 1024 * 1024, 2), in(Elem::F16, 1024 * 1024), out(Elem::F32, 1024 * 1024), i32(1024)},
                        {64, 64, 1}, {16, 16, 1}));
  cs.back().passes = "pack";
  cs.back().expect = "original";
  const int pairs = 1 << 22;
  cs.push_back(makeCase("packhalf: hpair n=2^25", "packhalf", "hpair",
                        {in(Elem::F16, size_t(2) << 25), out(Elem::F32, size_t(1) << 25), i32(1 << 25)},
                        {(1u << 25) / 256, 1, 1}, {256, 1, 1}));
  cs.back().passes = "pack";
  cs.back().expect = "=hpair__ptxopt_pack";
  cs.back().big = true;
  for (uint32_t off : {0u, 2u}) {
    cs.push_back(makeCase("packhalf: hpair n=2^22" + std::string(off ? ", 2 bytes off alignment" : ""), "packhalf",
                          "hpair", {in(Elem::F16, size_t(2) * pairs, off), out(Elem::F32, pairs), i32(pairs)},
                          {pairs / 256, 1, 1}, {256, 1, 1}));
    cs.back().passes = "pack";
    cs.back().expect = off ? "original" : "=hpair__ptxopt_pack";
  }
}


/// rowwalk (docs/PASSES.md): row walks with the accumulator in memory
/// (regacc clone, bit for bit), integer reductions split over 32 lanes
/// (lanes clones, bit for bit), float sums reassociated (--reassociate:
/// within a bound of a float64 reference, which the original meets too),
/// overlapping pointers (the original), rows that are not a multiple of 4
/// or of 32, guards.
void addRowWalk(std::vector<Case> &cs) {
  auto rows = [](const std::string &name, const std::string &kernel, unsigned nx, unsigned ny, unsigned block,
                 Elem e, bool withX, const std::string &passes, const std::string &expect, bool big) {
    std::vector<Arg> args{in(e, size_t(nx) * ny)};
    if (withX) args.push_back(in(e, ny));
    args.push_back(out(e, nx));
    args.push_back(i32(int32_t(nx)));
    args.push_back(i32(int32_t(ny)));
    Case c = makeCase("rowwalk: " + name + " " + std::to_string(nx) + "x" + std::to_string(ny) + " b" +
                          std::to_string(block),
                      "rowwalk", kernel, args, {(nx + block - 1) / block, 1, 1}, {block, 1, 1});
    c.passes = passes;
    c.expect = expect;
    c.big = big;
    return c;
  };
  // Step 1: tmp[i] in memory, exact (the staged clone off: it comes first).
  cs.push_back(rows("tmp in memory", "rowsum_mem", 4096, 4096, 256, Elem::F32, true, "rowwalk;rowwalk-staged=0",
                    "=rowsum_mem__ptxopt_regacc", true));
  cs.push_back(rows("tmp in memory, then pack", "rowsum_mem", 4096, 4096, 256, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged=0", "=rowsum_mem__ptxopt_regacc_pack", true));
  cs.push_back(rows("tmp in memory, rows not x4/x32", "rowsum_mem", 1000, 1003, 256, Elem::F32, true,
                    "rowwalk;rowwalk-staged=0", "=rowsum_mem__ptxopt_regacc", false));
  // Step 3, the staged clone (one warp per block, rows through shared
  // memory), exact: remainders (1004 = 31 tiles of 32 + 12), rows not a
  // multiple of 32 (the last warp's guard fails on some lanes: it runs the
  // original loop), blocks of 96, rows not 16-byte aligned (1003: the
  // aligned clone's row-length condition fails, the `_unaligned` clone runs
  // since 2026-11-29's second session: CasesRowWalkUnaligned.cpp), a
  // loop-carried value that is no reduction.
  cs.push_back(rows("tmp in memory, staged", "rowsum_mem", 4096, 4096, 256, Elem::F32, true, "rowwalk",
                    "=rowsum_mem__ptxopt_staged", true));
  cs.push_back(rows("tmp in memory, staged and packed", "rowsum_mem", 4096, 4096, 256, Elem::F32, true,
                    "rowwalk,pack", "=rowsum_mem__ptxopt_staged_pack", true));
  cs.push_back(rows("tmp in memory, staged, rows not x32", "rowsum_mem", 1000, 1004, 256, Elem::F32, true, "rowwalk;rowwalk-staged=1",
                    "=rowsum_mem__ptxopt_staged", false));
  cs.push_back(rows("tmp in memory, staged, 96-thread blocks", "rowsum_mem", 1000, 1004, 96, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged=1", "=rowsum_mem__ptxopt_staged_pack", false));
  cs.push_back(rows("tmp in memory, staged, rows not 16-byte aligned", "rowsum_mem", 1000, 1003, 256, Elem::F32, true,
                    "rowwalk;rowwalk-staged=1", "=rowsum_mem__ptxopt_staged_unaligned", false));
  cs.push_back(rows("__restrict__, staged", "rowsum_restrict", 2000, 2000, 128, Elem::F32, true, "rowwalk,pack;rowwalk-staged=1",
                    "=rowsum_restrict__ptxopt_staged_pack", false));
  cs.push_back(rows("Horner hash, staged", "rowhash", 1000, 1004, 256, Elem::I32, false, "rowwalk;rowwalk-staged=1",
                    "=rowhash__ptxopt_staged", false));
  // The staged clone with plain copies (ld.global.v4 into registers,
  // st.shared.v4: the default on every target; named here), exact: 1004
  // floats are 15 tiles of 256 bytes (odd: the loop unrolled by its 2 tiles
  // in flight leaves after its first step) + 11 iterations; 128-byte tiles
  // (4 in flight: 31 tiles leave after the third step); blocks of 96;
  // a loop-carried value that is no reduction.
  cs.push_back(rows("tmp in memory, staged, plain copies", "rowsum_mem", 4096, 4096, 256, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged-copy=plain", "=rowsum_mem__ptxopt_staged_pack", true));
  cs.push_back(rows("tmp in memory, staged, plain copies, rows not x32", "rowsum_mem", 1000, 1004, 256, Elem::F32, true,
                    "rowwalk;rowwalk-staged=1;rowwalk-staged-copy=plain", "=rowsum_mem__ptxopt_staged", false));
  cs.push_back(rows("tmp in memory, staged, plain copies, 128-byte tiles", "rowsum_mem", 1000, 1004, 96, Elem::F32,
                    true, "rowwalk,pack;rowwalk-staged=1;rowwalk-staged-copy=plain;rowwalk-tile=128",
                    "=rowsum_mem__ptxopt_staged_pack", false));
  cs.push_back(rows("Horner hash, staged, plain copies", "rowhash", 1000, 1004, 256, Elem::I32, false,
                    "rowwalk;rowwalk-staged=1;rowwalk-staged-copy=plain", "=rowhash__ptxopt_staged", false));
  // The cp.async copies (rowwalk-staged-copy=async; the default before the
  // plain copies measured faster), exact.
  cs.push_back(rows("tmp in memory, staged, cp.async copies", "rowsum_mem", 4096, 4096, 256, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged-copy=async", "=rowsum_mem__ptxopt_staged_pack", true));
  cs.push_back(rows("tmp in memory, staged, cp.async copies, rows not x32", "rowsum_mem", 1000, 1004, 256, Elem::F32,
                    true, "rowwalk;rowwalk-staged=1;rowwalk-staged-copy=async", "=rowsum_mem__ptxopt_staged", false));
  cs.push_back(rows("tmp in memory, staged, cp.async copies, 2048x2048", "rowsum_mem", 2048, 2048, 256, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged-copy=async", "=rowsum_mem__ptxopt_staged_pack", false));
  // By default the staged clone runs only where it was measured faster
  // (2048 threads, rows of 256): this launch keeps regacc + pack (2.27x;
  // the staged clone forced: 1.49x, H100).
  cs.push_back(rows("tmp in memory, under the staged floor", "rowsum_mem", 1000, 1004, 256, Elem::F32, true,
                    "rowwalk,pack", "=rowsum_mem__ptxopt_regacc_pack", false));
  // The same shape with the staged clone forced, to compare; 2048 x 2048
  // by default: staged (10.4x; regacc + pack 3.74x, H100).
  cs.push_back(rows("tmp in memory, staged and packed (forced)", "rowsum_mem", 1000, 1004, 256, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged=1", "=rowsum_mem__ptxopt_staged_pack", false));
  cs.push_back(rows("tmp in memory, staged and packed by default", "rowsum_mem", 2048, 2048, 256, Elem::F32, true,
                    "rowwalk,pack", "=rowsum_mem__ptxopt_staged_pack", false));
  cs.push_back(rows("tmp in memory, regacc and pack (staged off)", "rowsum_mem", 2048, 2048, 256, Elem::F32, true,
                    "rowwalk,pack;rowwalk-staged=0", "=rowsum_mem__ptxopt_regacc_pack", false));
  // Rows of 256 to 1024 elements in launches of many rows: the staged clone
  // by default (rows of 256 or more: 4.4-6.6x, H200), beside regacc + pack
  // (the staged clone off: 2.4-2.6x), which these shapes ran before the
  // floor came down from 2048.
  for (auto [nx, ny] : {std::pair<unsigned, unsigned>{65536, 1024}, {131072, 512}, {262144, 256}, {16384, 1024}}) {
    const bool big = size_t(nx) * ny >= (size_t(1) << 24);
    cs.push_back(rows("staged floor: default (staged)", "rowsum_mem", nx, ny, 256, Elem::F32, true, "rowwalk,pack",
                      "=rowsum_mem__ptxopt_staged_pack", big));
    cs.push_back(rows("staged floor: staged off", "rowsum_mem", nx, ny, 256, Elem::F32, true,
                      "rowwalk,pack;rowwalk-staged=0", "=rowsum_mem__ptxopt_regacc_pack", big));
  }
  // 16-thread blocks: not a multiple of 32, the staged clone does not run.
  cs.push_back(rows("__restrict__, 16-thread blocks (pack)", "rowsum_restrict", 1000, 1004, 16, Elem::F32, true,
                    "rowwalk,pack", "=rowsum_restrict__ptxopt_pack", false));
  cs.push_back(rows("column walk, y in memory", "colwalk_mem", 4096, 4096, 256, Elem::F32, true, "rowwalk",
                    "=colwalk_mem__ptxopt_regacc", true));
  // x overlapping tmp (one row: deterministic in the original): the original runs.
  {
    Case c = makeCase("rowwalk: tmp in memory, x inside tmp (original)", "rowwalk", "rowsum_mem",
                      {in(Elem::F32, 64), aliasOf(2, Elem::F32), out(Elem::F32, 64), i32(1), i32(64)}, {1, 1, 1},
                      {32, 1, 1});
    c.passes = "rowwalk";
    c.expect = "original";
    cs.push_back(c);
  }
  // gesummv: two accumulators in memory, reloaded in every iteration by nvcc;
  // two rows at one `int` index: the staged clone (its accumulators in
  // registers) since 2026-11-29, the regacc clone under its 2048-thread floor.
  cs.push_back(makeCase("rowwalk: gesummv 2000", "rowwalk", "gesummv",
                        {i32(2000), f32(1.5f), f32(1.2f), in(Elem::F32, 2000 * 2000), in(Elem::F32, 2000 * 2000),
                         in(Elem::F32, 2000), out(Elem::F32, 2000), out(Elem::F32, 2000)},
                        {8, 1, 1}, {256, 1, 1}));
  cs.back().passes = "rowwalk";
  cs.back().expect = "=gesummv__ptxopt_staged";
  cs.push_back(makeCase("rowwalk: gesummv 2000, 125 blocks of 16", "rowwalk", "gesummv",
                        {i32(2000), f32(1.5f), f32(1.2f), in(Elem::F32, 2000 * 2000), in(Elem::F32, 2000 * 2000),
                         in(Elem::F32, 2000), out(Elem::F32, 2000), out(Elem::F32, 2000)},
                        {125, 1, 1}, {16, 1, 1}));
  cs.back().passes = "rowwalk";
  cs.back().expect = "=gesummv__ptxopt_regacc";
  // Step 2, exact: integer reductions.
  cs.push_back(rows("int row sum", "rowsum_int", 4096, 4096, 256, Elem::I32, false, "rowwalk",
                    "=rowsum_int__ptxopt_lanes", true));
  cs.push_back(rows("int row sum, rows not x32, guard", "rowsum_int", 1000, 1004, 256, Elem::I32, false, "rowwalk",
                    "=rowsum_int__ptxopt_lanes", false));
  // Rows of 4 ran 0.88x with the lanes clone (H100), rows of 8 and 16 0.07-0.76x
  // with 4-32 lanes (H200): rows under 32 run the original.
  cs.push_back(rows("int row sum, short rows (original)", "rowsum_int", 3000, 4, 128, Elem::I32, false, "rowwalk",
                    "original", false));
  cs.push_back(rows("int row sum, rows of 128 (8 lanes)", "rowsum_int", 3000, 128, 128, Elem::I32, false, "rowwalk",
                    "=rowsum_int__ptxopt_lanes8", false));
  cs.push_back(rows("int row sum, rows of 128, 32 lanes only", "rowsum_int", 3000, 128, 128, Elem::I32, false,
                    "rowwalk;rowwalk-lanes=32", "original", false));
  cs.push_back(rows("int row sum, 16-thread blocks", "rowsum_int", 1000, 256, 16, Elem::I32, false, "rowwalk",
                    "=rowsum_int__ptxopt_lanes_blk", false));
  // Fewer lanes for shorter rows (rowwalk-lanes; by default 32 lanes from
  // rows of 256, 8 from 128, 4 from 32): G lanes per logical thread, 32/G
  // logical threads per warp that may part at guards (the shuffles and warp
  // barriers name their own G lanes only).
  cs.push_back(rows("int row sum, rows of 48 (4 lanes)", "rowsum_int", 20001, 48, 256, Elem::I32, false, "rowwalk",
                    "=rowsum_int__ptxopt_lanes4", false));
  cs.push_back(rows("int row sum, rows of 160 (8 lanes)", "rowsum_int", 3001, 160, 128, Elem::I32, false, "rowwalk",
                    "=rowsum_int__ptxopt_lanes8", false));
  cs.push_back(rows("int row sum, rows of 162 (original: no scalar clone under 32 lanes)", "rowsum_int", 3001, 162,
                    256, Elem::I32, false, "rowwalk", "original", false));
  cs.push_back(rows("int row sum, rows of 160, 20-thread blocks (4 lanes: 20 is no multiple of 8)", "rowsum_int", 1001,
                    160, 20, Elem::I32, false, "rowwalk", "=rowsum_int__ptxopt_lanes4", false));
  cs.push_back(rows("int row sum, rows of 16 (original)", "rowsum_int", 3000, 16, 128, Elem::I32, false, "rowwalk",
                    "original", false));
  cs.push_back(rows("int row max, rows of 36 (4 lanes)", "rowmax_int", 5001, 36, 256, Elem::I32, false, "rowwalk",
                    "=rowmax_int__ptxopt_lanes4", false));
  cs.push_back(rows("u32 row xor, 16 lanes, rows of 132", "rowxor_u32", 2000, 132, 64, Elem::I32, false,
                    "rowwalk;rowwalk-lanes=16", "=rowxor_u32__ptxopt_lanes16", false));
  cs.push_back(rows("y read before and written after the loop, rows of 136 (8 lanes)", "rowacc_inout", 2001, 136, 256,
                    Elem::I32, false, "rowwalk", "=rowacc_inout__ptxopt_lanes8", false));
  // 64-bit elements and indices (long nx, ny): 16-byte loads of two elements.
  auto rows64 = [](const std::string &name, unsigned nx, unsigned ny, unsigned block, const std::string &expect) {
    Case c = makeCase("rowwalk: " + name + " " + std::to_string(nx) + "x" + std::to_string(ny) + " b" +
                          std::to_string(block),
                      "rowwalk", "rowsum_i64",
                      {in(Elem::I64, size_t(nx) * ny), out(Elem::I64, nx), i64(int32_t(nx)), i64(int32_t(ny))},
                      {(nx + block - 1) / block, 1, 1}, {block, 1, 1});
    c.passes = "rowwalk";
    c.expect = expect;
    return c;
  };
  cs.push_back(rows64("i64 row sum, 64-bit indices", 2001, 1000, 256, "=rowsum_i64__ptxopt_lanes"));
  cs.push_back(rows64("i64 row sum, 64-bit indices, rows of 999 (scalar loads)", 2001, 999, 256,
                      "=rowsum_i64__ptxopt_lanes_scalar"));
  cs.push_back(rows64("i64 row sum, 64-bit indices, rows of 160 (8 lanes)", 3001, 160, 128,
                      "=rowsum_i64__ptxopt_lanes8"));
  cs.push_back(rows64("i64 row sum, 64-bit indices, rows of 50 (4 lanes)", 8001, 50, 256,
                      "=rowsum_i64__ptxopt_lanes4"));
  cs.push_back(rows("Horner hash, rows of 64 (original: not a reduction)", "rowhash", 1000, 64, 256, Elem::I32, false,
                    "rowwalk;rowwalk-staged=0", "original", false));
  cs.push_back(rows("int row sum, row length not x4 (scalar loads)", "rowsum_int", 1000, 1003, 256, Elem::I32, false,
                    "rowwalk", "=rowsum_int__ptxopt_lanes_scalar", false));
  cs.push_back(rows("int row max", "rowmax_int", 2000, 1000, 256, Elem::I32, false, "rowwalk",
                    "=rowmax_int__ptxopt_lanes", false));
  cs.push_back(rows("u32 row xor", "rowxor_u32", 2000, 1000, 256, Elem::I32, false, "rowwalk",
                    "=rowxor_u32__ptxopt_lanes", false));
  cs.push_back(rows("y read before and written after the loop", "rowacc_inout", 2000, 1000, 256, Elem::I32, false,
                    "rowwalk", "=rowacc_inout__ptxopt_lanes", false));
  // No loop-carried value: B[i*ny+j] = 3*A[i*ny+j], split; B must not overlap A.
  cs.push_back(makeCase("rowwalk: row scale 2000x1000 b256", "rowwalk", "rowscale",
                        {in(Elem::I32, 2000 * 1000), out(Elem::I32, 2000 * 1000), i32(2000), i32(1000)}, {8, 1, 1},
                        {256, 1, 1}));
  cs.back().passes = "rowwalk";
  cs.back().expect = "=rowscale__ptxopt_lanes";
  cs.push_back(makeCase("rowwalk: row scale, B inside A (original)", "rowwalk", "rowscale",
                        {out(Elem::I32, 2 * 1000), aliasOf(0, Elem::I32, 4000), i32(1), i32(1000)}, {1, 1, 1},
                        {32, 1, 1}));
  cs.back().passes = "rowwalk";
  cs.back().expect = "original";
  // Step 2, float sums reassociated: |y - ref| <= ny * 2^-23 * sum |A*x| (the
  // classic bound of a recursive sum, which the original meets too).
  auto approx = [](unsigned nx, unsigned ny) -> Approx {
    return [nx, ny](const std::vector<std::vector<unsigned char>> &inputs, const std::vector<unsigned char> &outputs) {
      const float *A = reinterpret_cast<const float *>(inputs[0].data());
      const float *x = reinterpret_cast<const float *>(inputs[1].data());
      const float *y = reinterpret_cast<const float *>(outputs.data());
      for (size_t i = 0; i < nx; ++i) {
        double ref = 0, mag = 0;
        for (size_t j = 0; j < ny; ++j) {
          ref += double(A[i * ny + j]) * double(x[j]);
          mag += std::fabs(double(A[i * ny + j]) * double(x[j]));
        }
        double bound = double(ny) * std::ldexp(1.0, -23) * mag;
        if (!(std::fabs(double(y[i]) - ref) <= bound))
          return "row " + std::to_string(i) + ": " + std::to_string(y[i]) + " vs " + std::to_string(ref) +
                 " (bound " + std::to_string(bound) + ")";
      }
      return std::string();
    };
  };
  for (auto [nx, ny, big] : {std::tuple<unsigned, unsigned, bool>{4096, 4096, true}, {1000, 1004, false}, {1000, 1003, false}}) {
    const std::string suffix = ny % 4 ? "_scalar" : "";
    cs.push_back(rows("tmp in memory, reassociated", "rowsum_mem", nx, ny, 256, Elem::F32, true,
                      "rowwalk;reassociate", "=rowsum_mem__ptxopt_lanes" + suffix, big));
    cs.back().approx = approx(nx, ny);
    cs.push_back(rows("__restrict__, reassociated", "rowsum_restrict", nx, ny, 256, Elem::F32, true,
                      "rowwalk;reassociate", "=rowsum_restrict__ptxopt_lanes" + suffix, big));
    cs.back().approx = approx(nx, ny);
  }
  cs.push_back(rows("__restrict__, reassociated, rows of 160 (8 lanes)", "rowsum_restrict", 3001, 160, 256, Elem::F32,
                    true, "rowwalk;reassociate", "=rowsum_restrict__ptxopt_lanes8", false));
  cs.back().approx = approx(3001, 160);
  cs.push_back(rows("__restrict__, reassociated, rows of 64 (4 lanes)", "rowsum_restrict", 8001, 64, 256, Elem::F32,
                    true, "rowwalk;reassociate", "=rowsum_restrict__ptxopt_lanes4", false));
  cs.back().approx = approx(8001, 64);
  cs.push_back(rows("tmp in memory, reassociated, 16 lanes", "rowsum_mem", 2001, 128, 96, Elem::F32, true,
                    "rowwalk;reassociate;rowwalk-lanes=16", "=rowsum_mem__ptxopt_lanes16", false));
  cs.back().approx = approx(2001, 128);
}

}  // namespace

/// If/else regions (cases/ifelse.cu; new, not yet run on a GPU): both arms
/// predicated per logical thread in the group clones. Plain clone for
/// 1024-thread blocks, block-merged for 256; such bodies take the higher
/// launch floors (2^21 threads plain, 2^22 merged), below them the original.
void addIfElse(std::vector<Case> &cs) {
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
void addAtomics(std::vector<Case> &cs) {
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
void addLocal(std::vector<Case> &cs) {
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
void addGridStride(std::vector<Case> &cs) {
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

/// The reuse pass (cases/reuse.cu): inlined sinf/cosf repeated with the same
/// argument. Inputs are floats in [0.5, 100): a scale of 5000 sends most
/// threads' arguments through cosf's slow path (its local array), mixed with
/// fast-path threads in every warp; 1e37 overflows to infinity (the NaN path).
void addReuse(std::vector<Case> &cs) {
  for (int n : {8, 4, 16}) {
    const int w = 2048;
    const size_t sz = size_t(w) * w;
    cs.push_back(makeCase("reuse: dct, tile " + std::to_string(n) + " at run time", "reuse", "dct_runtime",
                          {in(Elem::I8, sz), out(Elem::F32, sz), i32(w), i32(n)}, {unsigned(w / n), unsigned(w / n), 1},
                          {unsigned(n), unsigned(n), 1}));
    cs.back().expect = "=dct_runtime__ptxopt_reuse";
  }
  const int len = 1 << 18;
  for (float scale : {0.5f, 5000.0f, 1e37f})
    for (int n : {1, 7, 64}) {
      cs.push_back(makeCase("reuse: cosf invariant in a loop, scale " + std::to_string(scale) + ", n=" + std::to_string(n),
                            "reuse", "cos_invariant",
                            {in(Elem::F32, len), in(Elem::F32, size_t(len) * n), out(Elem::F32, len), f32(scale), i32(n),
                             i32(len - 3)},
                            {len / 256, 1, 1}, {256, 1, 1}));
      cs.back().expect = "=cos_invariant__ptxopt_reuse";
    }
  for (float step : {0.01f, 3000.0f}) {
    cs.push_back(makeCase("reuse: sinf and cosf twice per iteration, step " + std::to_string(step), "reuse", "rotate_sum",
                          {in(Elem::F32, len), out(Elem::F32, len), f32(step), i32(len)}, {len / 128, 1, 1},
                          {128, 1, 1}));
    cs.back().expect = "=rotate_sum__ptxopt_reuse";
  }
  for (float step : {0.01f, 5000.0f}) {
    cs.push_back(makeCase("reuse: calls before and after the loop, step " + std::to_string(step), "reuse", "cos_call",
                          {in(Elem::F32, len), in(Elem::F32, size_t(len) * 9), out(Elem::F32, len), f32(step), i32(9),
                           i32(len)},
                          {len / 256, 1, 1}, {256, 1, 1}));
    cs.back().expect = "=cos_call__ptxopt_reuse";
  }
  // Moved out of the loop (the value ranges rule the slow path out): loops
  // of no, one and nine iterations, blocks of 256 and 1024 threads (the
  // largest thread index a block can have).
  for (unsigned b : {256u, 1024u})
    for (int n : {0, 1, 9}) {
      cs.push_back(makeCase("reuse: cosf/sinf of a thread index, hoisted, block " + std::to_string(b) +
                                ", n=" + std::to_string(n),
                            "reuse", "cos_tid",
                            {in(Elem::F32, size_t(len) * 9), out(Elem::F32, len), i32(n), i32(len - 5)},
                            {len / b, 1, 1}, {b, 1, 1}));
      cs.back().expect = "=cos_tid__ptxopt_reuse";
    }
  cs.push_back(makeCase("reuse: cosf of a thread index past the fast path (memo)", "reuse", "cos_tid_far",
                        {in(Elem::F32, size_t(len) * 9), out(Elem::F32, len), i32(9), i32(len)}, {len / 1024, 1, 1},
                        {1024, 1, 1}));
  cs.back().expect = "=cos_tid_far__ptxopt_reuse";
  cs.push_back(makeCase("reuse: double cos (a call: original)", "reuse", "cos_double",
                        {in(Elem::I64, len), out(Elem::I64, len), f32(0.25f), i32(5), i32(len)}, {len / 256, 1, 1},
                        {256, 1, 1}));
  cs.back().expect = "original";
  cs.push_back(makeCase("reuse: nothing repeated (original)", "reuse", "cos_once",
                        {in(Elem::F32, len), out(Elem::F32, len), i32(len)}, {len / 256, 1, 1}, {256, 1, 1}));
  cs.back().expect = "original";
}

std::vector<Case> allCases() {
  std::vector<Case> cs;
  addMatadd(cs);
  addMataddK(cs);
  addShapes(cs);
  addImage(cs);
  addHalf(cs);
  addPack(cs);
  addPackColumn(cs);
  addGroupGathers(cs);
  addParamSizes(cs);
  addUnroll(cs);
  addIfElse(cs);
  addAtomics(cs);
  addLocal(cs);
  addGridStride(cs);
  addRowWalk(cs);
  addRowWalk32(cs);
  addTri(cs);
  addRowWalkGuards(cs);
  addRowWalkExits(cs);
  addRowWalkShort(cs);
  addRowWalkScopes(cs);
  addRowWalkSweep(cs);
  addRowWalkVec(cs);
  addRowWalkUnaligned(cs);
  addRowWalkStores(cs);
  addRowWalkMixed(cs);
  addRowWalkScans(cs);
  addRowWalkFrom1(cs);
  addCsr(cs);
  addTranspose(cs);
  addReuse(cs);
  addRuntimeCases(cs);
  return cs;
}

}  // namespace gpudiff
