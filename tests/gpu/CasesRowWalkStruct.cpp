// gpu-diff cases ("rowwalk struct: ") of row walks whose sizes are fields
// of a struct passed by value (tests/lit/rowwalk/Inputs/structparam.cu;
// Planner::structField, manifest minParams with offset and bytes): the
// clones run where the field's row length passes the floor, the original
// (or pack's clone) under it. Every clone compared bit for bit with the
// original on random inputs. Struct arguments are Arg::Kind::Pack (their
// fields' buffers set up and compared as any other).
#include "Cases.h"

namespace gpudiff {

namespace {

/// gemv_struct_f32({A, x, y, n, m}).
Case gemv(unsigned rows, unsigned m, unsigned block, const std::string &expect) {
  return rowsCase("rowwalk struct", "rowwalkstruct", "gemv_struct_f32",
                  {inPack(in(Elem::F32, size_t(rows) * m + 1)), inPack(in(Elem::F32, m + 1)),
                   inPack(out(Elem::F32, rows)), inPack(i32(int32_t(rows))), inPack(i32(int32_t(m))),
                   pack({0, 1, 2, 3, 4})},
                  rows, m, block, expect, "p.m a field");
}

/// rowsum_struct_i32(A, y, {n, (long long)m}).
Case rowsum(unsigned rows, unsigned m, unsigned block, const std::string &expect) {
  return rowsCase("rowwalk struct", "rowwalkstruct", "rowsum_struct_i32",
                  {in(Elem::I32, size_t(rows) * m + 1), out(Elem::I32, rows), inPack(i32(int32_t(rows))),
                   inPack(i64(int64_t(m))), pack({2, 3})},
                  rows, m, block, expect, "r.m a 64-bit field");
}

}  // namespace

void addRowWalkStruct(std::vector<Case> &cs) {
  cs.push_back(gemv(4096, 4096, 256, "=gemv_struct_f32__ptxopt_staged_unaligned"));
  cs.push_back(gemv(8192, 64, 256, "original"));  // rows under the floor: the field's condition fails
  cs.push_back(rowsum(4096, 4096, 256, "=rowsum_struct_i32__ptxopt_lanes"));
  cs.push_back(rowsum(65536, 100, 256, "=rowsum_struct_i32__ptxopt_lanes4"));
  cs.push_back(rowsum(65536, 16, 256, "original"));  // under every lanes clone's floor
}

}  // namespace gpudiff
