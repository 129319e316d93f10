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
  // A launch the staged clone takes (rows of 4096, 16384 threads): one
  // 16-bit element an iteration from the tile (the small-step retry; the
  // pack clone before the thirty-fifth session).
  cs.push_back(makeCase("unroll: nounroll 16-bit, 16384 rows of 4096", "latch", "row_nounroll_u16",
                        {in(Elem::I16, size_t(16384) * 4096 + 8), out(Elem::F32, 16384), i32(4096), i32(4096),
                         f32(0.37f)},
                        {64, 1, 1}, {256, 1, 1}));
  cs.back().expect = "=row_nounroll_u16__ptxopt_staged";
  cs.back().big = true;
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


}  // namespace

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
  addGroupIfElse(cs);
  addGroupAtomics(cs);
  addGroupLocal(cs);
  addGroupGridStride(cs);
  addRowWalk(cs);
  addRowWalk32(cs);
  addTri(cs);
  addNested(cs);
  addMasked(cs);
  addRowWalkGridStride(cs);
  addRowWalkStruct(cs);
  addRowWalkGaps(cs);
  addRowWalkTriple(cs);
  addRowWalkGathered(cs);
  addRowWalkPtrGuards(cs);
  addRowWalkLocal(cs);
  addRowWalkRowDiv(cs);
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
