// gpu-diff cases of group's clone merged along y on kernels with gathers
// beside coalesced 4-byte accesses (tests/lit/group/Inputs/gathers.cu):
// Rodinia srad's second kernel (the held-out h4_srad ran 0.98x of nvcc's
// program with this clone, 0.99x with group off) and the paper's rotation 2
// on floats. Every output bit for bit; the tables time the clone against the
// original at the held-out program's size and above. On the H200
// (2026-11-29, v34) srad2's clone merged along y ran 1.10x at 4096^2 and
// 1.03x at 8192^2 alone, but the held-out program ran 0.97-0.98x with it, so
// -O2 refuses it now (gathers through indices read from memory beside 4-byte
// words: Group.cpp, indexGathersOnly) and these cases check that the
// original runs; rotate2_f32's clone ran 1.47-1.54x and stays. The hotspot
// step of tests/lit/group/Inputs/clamp-gathers.cu (neighbours chosen by
// border-clamping selects; the sixth held-out batch's program ran 0.87x
// with the clone, v101) is refused the same way since the sixteenth session:
// its cases check the original runs, at the program's 4000 x 4100 and at
// 8192^2.
#include "Cases.h"

namespace gpudiff {

void addGroupGathers(std::vector<Case> &cs) {
  for (unsigned n : {4096u, 8192u}) {
    const size_t t = size_t(n) * n;
    // srad2(J, Jout, dN, dS, dW, dE, C, iS, jE, rows, cols, lambda), blocks of 16 x 16 (h4_srad's).
    cs.push_back(makeCase("group gathers: srad2 " + std::to_string(n) + "x" + std::to_string(n) + " b16x16", "gathers",
                          "srad2",
                          {in(Elem::F32, t), out(Elem::F32, t), in(Elem::F32, t), in(Elem::F32, t), in(Elem::F32, t),
                           in(Elem::F32, t), in(Elem::F32, t), nextIndices(n), nextIndices(n), i32(int32_t(n)), i32(int32_t(n)),
                           f32(0.5f)},
                          {n / 16, n / 16, 1}, {16, 16, 1}));
    cs.back().expect = "original";
    cs.back().big = true;
    cs.push_back(makeCase("group gathers: rotate2_f32 " + std::to_string(n) + "x" + std::to_string(n) + " b256x4",
                          "gathers", "rotate2_f32",
                          {in(Elem::F32, t), out(Elem::F32, t), i32(int32_t(n)), i32(int32_t(n)), f32(0.8f), f32(0.6f)},
                          {n / 256, n / 4, 1}, {256, 4, 1}));
    cs.back().expect = "=rotate2_f32__ptxopt_group4_merged_y";
    cs.back().big = true;
  }
  for (auto [rows, cols] : {std::pair<unsigned, unsigned>{4000, 4100}, {8192, 8192}}) {
    const size_t t = size_t(rows) * cols;
    // hotspot_step(power, temp_src, temp_dst, rows, cols, step_div_cap, Rx_1, Ry_1, Rz_1, amb_temp), 16 x 16 blocks.
    cs.push_back(makeCase("group gathers: clamped stencil hotspot_step " + std::to_string(rows) + "x" +
                              std::to_string(cols) + " b16x16",
                          "gathers", "hotspot_step",
                          {in(Elem::F32, t), in(Elem::F32, t), out(Elem::F32, t), i32(int32_t(rows)), i32(int32_t(cols)),
                           f32(0.5f), f32(0.1f), f32(0.1f), f32(0.01f), f32(80.0f)},
                          {(cols + 15) / 16, (rows + 15) / 16, 1}, {16, 16, 1}));
    cs.back().expect = "original";
    cs.back().big = true;
  }
}

}  // namespace gpudiff
