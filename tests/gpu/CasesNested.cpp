// gpu-diff cases of row walks inside an outer loop whose trip count is one
// for all threads (issue 29; the pass option rowwalk-nested=any,
// RowWalkTri.cpp, skipOuterLoop; docs/PASSES.md, "A loop inside another
// loop"): a full syrk over every j, batched GEMVs, gradient steps inside the
// kernel (tests/lit/rowwalk/Inputs/nested.cu). Every clone compared bit for
// bit with the original on random non-zero inputs; the timings compare the
// staged clones with nvcc's code.
//
// Edges: rows not a multiple of 32 (the last warp: lanes that never enter
// the outer loop), blocks of 96, rows not 16-byte aligned (the unaligned
// form), rows under the staged clone's floor (m = 64, m = 0: the outer loop
// runs, the inner never; pack's clone), no outer iteration (batches or
// steps 0: the staged clone's code before and after the loops), one row.
// The same kernels with rowwalk-nested=varying (the control) keep the
// original or pack's clone.
#include "Cases.h"

namespace gpudiff {

namespace {

const std::string kVarying = "-O2;rowwalk-nested=varying";  // the control: no staged clone
const std::string kForced = "-O2;rowwalk-staged=1";

/// rowsCase with `big` set by the work (the outer loop multiplies it).
Case nested(const std::string &kernel, std::vector<Arg> args, unsigned rows, unsigned m, unsigned block,
            const std::string &passes, const std::string &expect, const std::string &what, bool big) {
  Case c = rowsCase("nested", "nested", kernel, std::move(args), rows, m, block, expect, what, passes);
  c.big = big;
  return c;
}

/// syrk_full_f32(A n x m, Cin n x n, C n x n, n, m, alpha, beta).
Case syrkF32(unsigned n, unsigned m, unsigned block, const std::string &passes, const std::string &expect) {
  return nested("syrk_full_f32",
                {in(Elem::F32, size_t(n) * m + 1), in(Elem::F32, size_t(n) * n), out(Elem::F32, size_t(n) * n),
                 i32(int32_t(n)), i32(int32_t(m)), f32(1.5f), f32(0.5f)},
                n, m, block, passes, expect, "", size_t(n) * n * m >= (size_t(1) << 28));
}

/// syrk_full_u32(A n x m, C n x n, n, m).
Case syrkU32(unsigned n, unsigned m, unsigned block, const std::string &passes, const std::string &expect) {
  return nested("syrk_full_u32",
                {in(Elem::I32, size_t(n) * m + 1), out(Elem::I32, size_t(n) * n), i32(int32_t(n)), i32(int32_t(m))},
                n, m, block, passes, expect, "", size_t(n) * n * m >= (size_t(1) << 28));
}

/// gemv_batched_f32 / _f64(A b x rows x cols, x b x cols, y b x rows, b, rows, cols).
Case gemv(bool f64, unsigned b, unsigned rows, unsigned cols, unsigned block, const std::string &passes,
          const std::string &expect) {
  const Elem e = f64 ? Elem::F64 : Elem::F32;
  std::vector<Arg> args{in(e, size_t(b) * rows * cols + 1), in(e, size_t(b) * cols + 1), out(e, size_t(b) * rows + 1)};
  for (unsigned v : {b, rows, cols}) args.push_back(f64 ? i64(int64_t(v)) : i32(int32_t(v)));
  return nested(f64 ? "gemv_batched_f64" : "gemv_batched_f32", std::move(args), rows, cols, block, passes, expect,
                std::to_string(b) + " batches", size_t(b) * rows * cols >= (size_t(1) << 24));
}

/// row_fit_gd(A rows x cols, v cols, coef rows, rows, cols, lr, steps).
Case fit(unsigned rows, unsigned cols, int steps, unsigned block, const std::string &passes,
         const std::string &expect) {
  return nested("row_fit_gd",
                {in(Elem::F32, size_t(rows) * cols), in(Elem::F32, cols), out(Elem::F32, rows), i32(int32_t(rows)),
                 i32(int32_t(cols)), f32(1.0f / float(cols)), i32(steps)},
                rows, cols, block, passes, expect, std::to_string(steps) + " steps",
                size_t(rows) * cols * unsigned(steps > 0 ? steps : 1) >= (size_t(1) << 26));
}

}  // namespace

void addNested(std::vector<Case> &cs) {
  // The full syrk: every thread walks its row against all n rows.
  cs.push_back(syrkF32(2048, 256, 256, "", "=syrk_full_f32__ptxopt_staged_pack"));
  // h12_nested_rows' shape: rows of 64 (256 bytes) are under the staged
  // clone's floor of 128 elements: pack's clone.
  cs.push_back(syrkF32(4096, 64, 128, "", "=syrk_full_f32__ptxopt_pack"));
  cs.push_back(syrkF32(2048, 256, 256, kVarying, "=syrk_full_f32__ptxopt_pack"));
  cs.push_back(syrkF32(1000, 260, 96, kForced, "=syrk_full_f32__ptxopt_staged_pack"));
  cs.push_back(syrkF32(300, 258, 256, kForced, "=syrk_full_f32__ptxopt_staged_unaligned"));
  cs.push_back(syrkF32(300, 0, 256, kForced, "=syrk_full_f32__ptxopt_pack"));  // rows under the floor
  cs.push_back(syrkF32(1, 256, 32, kForced, "=syrk_full_f32__ptxopt_pack"));
  cs.push_back(syrkU32(2048, 256, 256, "", "=syrk_full_u32__ptxopt_staged"));
  cs.push_back(syrkU32(2048, 256, 256, kVarying, "original"));
  cs.push_back(syrkU32(1000, 256, 96, kForced, "=syrk_full_u32__ptxopt_staged"));
  // Batched GEMVs: 8 x 4096 x 1024 in blocks of 96 (h12_nested_rows' shape).
  cs.push_back(gemv(false, 8, 4096, 1024, 96, "", "=gemv_batched_f32__ptxopt_staged"));
  cs.push_back(gemv(false, 8, 4096, 1024, 96, kVarying, "original"));
  cs.push_back(gemv(false, 16, 8192, 512, 256, "", "=gemv_batched_f32__ptxopt_staged"));
  cs.push_back(gemv(false, 3, 1000, 1028, 96, kForced, "=gemv_batched_f32__ptxopt_staged"));
  cs.push_back(gemv(false, 3, 300, 258, 256, kForced, "=gemv_batched_f32__ptxopt_staged_unaligned"));
  cs.push_back(gemv(false, 0, 1000, 1024, 256, kForced, "=gemv_batched_f32__ptxopt_staged"));
  cs.push_back(gemv(true, 8, 4096, 1024, 128, "", "=gemv_batched_f64__ptxopt_staged"));
  cs.push_back(gemv(true, 3, 1000, 1001, 256, kForced, "=gemv_batched_f64__ptxopt_staged_unaligned"));
  // Gradient steps inside the kernel (h12_row_iterate's row_fit_gd).
  cs.push_back(fit(8192, 4096, 8, 64, "", "=row_fit_gd__ptxopt_staged_pack"));
  cs.push_back(fit(8192, 4096, 8, 64, kVarying, "original"));
  cs.push_back(fit(1000, 1030, 3, 96, kForced, "=row_fit_gd__ptxopt_staged_unaligned_pack"));
  cs.push_back(fit(1000, 1024, 0, 256, kForced, "=row_fit_gd__ptxopt_staged_pack"));
}

}  // namespace gpudiff
