// gpu-diff's cases of the reuse pass (docs/PASSES.md, "reuse").
#include "Cases.h"

namespace gpudiff {

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

}  // namespace gpudiff
