// 2-D stencils as image and PDE codes write them: one thread per point,
// (x, y) from a 2-D grid, the border left alone. 5 points (a Laplacian
// smoother) and 9 points (a 3x3 weighted box), float and double; blocks
// 32x8, 16x16, 32x4 and 256x1; from 512x512 (L2-resident) to 8192x8192
// (512 MB float, 1 GB double, input and output). One launch per run.
#include "family.h"

template <class T> __global__ void stencil5(const T *in, T *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && x < w - 1 && y > 0 && y < h - 1) {
    int i = y * w + x;
    out[i] = T(0.2) * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
  }
}

template <class T> __global__ void stencil9(const T *in, T *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
  const T *n = in + (y - 1) * w + x, *c = in + y * w + x, *s = in + (y + 1) * w + x;
  T edge = n[0] + s[0] + c[-1] + c[1];
  T corner = n[-1] + n[1] + s[-1] + s[1];
  out[y * w + x] = T(0.5) * c[0] + T(0.0875) * edge + T(0.0375) * corner;
}

template <class T> static void runType(const Options &o, const char *type, Hasher &hash) {
  const int sizes[] = {512, 2048, 8192};
  const dim3 blocks[] = {{32, 8}, {16, 16}, {32, 4}, {256, 1}};
  for (int n : sizes) {
    size_t count = size_t(n) * n, bytes = 2 * count * sizeof(T);
    if (bytes / 1048576.0 > o.maxMB) continue;
    T *in = alloc<T>(count), *out = alloc<T>(count);
    fill(in, count, 1);
    for (int points : {5, 9})
      for (dim3 b : blocks) {
        dim3 g(cdiv(n, b.x), cdiv(n, b.y));
        Case c{fmt("stencil%d<%s>", points, type), fmt("block=%ux%u,grid=%ux%u", b.x, b.y, g.x, g.y),
               fmt("%dx%d", n, n), bytes, 1};
        bench(
            o, c, [&] { CHECK(cudaMemsetAsync(out, 0, count * sizeof(T))); },
            [&] {
              if (points == 5) stencil5<T><<<g, b>>>(in, out, n, n);
              else stencil9<T><<<g, b>>>(in, out, n, n);
            },
            [&] { return hash(out, count, 0); });
      }
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
  }
}

int main(int argc, char **argv) {
  Options o = parseOptions(argc, argv, "stencil2d");
  Hasher hash;
  runType<float>(o, "float", hash);
  runType<double>(o, "double", hash);
  return 0;
}
