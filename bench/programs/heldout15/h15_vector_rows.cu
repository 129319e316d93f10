// h15_vector_rows: rows whose elements are CUDA vector types or a struct
// of three floats, a thread per row. (1) rgba_row_sums, per-scanline
// statistics of an RGBA8 image (uchar4 pixels): `unsigned` i and j in a
// `while (j < w)` loop, `p = img[i*w + j]`, sums of R, G and B and an
// alpha-weighted integer luma `((77r + 150g + 29b) >> 8) * a`, written as
// one uint4 per row, 8192 x 2048 pixels (64 MB, bytes 1..255),
// 256-thread blocks, `if (i < rows)`; (2) cgemv_rows, a complex
// matrix-vector product (float2 rows, float2 x): `size_t` i and j, the row
// length at run time, `#pragma unroll 4`, `re += a.x*b.x - a.y*b.y; im +=
// a.x*b.y + a.y*b.x;` and the row power `a.x*a.x + a.y*a.y`, outputs a
// float2 and a float per row, 8192 x 1024 (64 MB), 128-thread blocks;
// (3) track_stats, GPS-like tracks (float3 points, 12 bytes): `int64_t` i
// and j, the walk counting down `for (j = n - 2; j >= 0; --j)` from the
// last point, path length `sqrtf(dx*dx + dy*dy + dz*dz)` between
// neighbours and the centroid (a float3 out), 8192 tracks of 1024 points
// (96 MB, random walks from 50..150 with steps +-0.25..1.25), 64-thread
// blocks, early `return`. Sizes: r1 w1 r2 n2 r3 n3 (argv). Timed: the 3
// launches. Checked: (1) exact; (2) rtol 1e-3 against double (re floor 1,
// it crosses zero); (3) rtol 1e-3 against double.
#include "../common.h"

__global__ void rgba_row_sums(const uchar4 *img, uint4 *sums, unsigned rows, unsigned w) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    unsigned r = 0, g = 0, b = 0, ya = 0;
    unsigned j = 0;
    while (j < w) {
      uchar4 p = img[i * w + j];
      r += p.x;
      g += p.y;
      b += p.z;
      ya += ((77u * p.x + 150u * p.y + 29u * p.z) >> 8) * p.w;
      ++j;
    }
    sums[i] = make_uint4(r, g, b, ya);
  }
}

__global__ void cgemv_rows(const float2 *A, const float2 *x, float2 *y, float *power, size_t rows, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < rows) {
    float re = 0.0f, im = 0.0f, pw = 0.0f;
#pragma unroll 4
    for (size_t j = 0; j < n; j++) {
      float2 a = A[i * n + j], b = x[j];
      re += a.x * b.x - a.y * b.y;
      im += a.x * b.y + a.y * b.x;
      pw += a.x * a.x + a.y * a.y;
    }
    y[i] = make_float2(re, im);
    power[i] = pw;
  }
}

__global__ void track_stats(const float3 *P, float *length, float3 *centroid, int64_t rows, int64_t n) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= rows) return;
  float3 prev = P[i * n + n - 1];
  float L = 0.0f, cx = prev.x, cy = prev.y, cz = prev.z;
  for (int64_t j = n - 2; j >= 0; --j) {
    float3 q = P[i * n + j];
    float dx = prev.x - q.x, dy = prev.y - q.y, dz = prev.z - q.z;
    L += sqrtf(dx * dx + dy * dy + dz * dz);
    cx += q.x;
    cy += q.y;
    cz += q.z;
    prev = q;
  }
  length[i] = L;
  centroid[i] = make_float3(cx / float(n), cy / float(n), cz / float(n));
}

static float unit(uint64_t seed, size_t k) { return 0.25f + float(hashAt(seed, k) >> 8) * (1.0f / 16777216.0f); }

int main(int argc, char **argv) {
  const int r1 = argInt(argc, argv, 1, 8192);
  const int w1 = argInt(argc, argv, 2, 2048);
  const int r2 = argInt(argc, argv, 3, 8192);
  const int n2 = argInt(argc, argv, 4, 1024);
  const int r3 = argInt(argc, argv, 5, 8192);
  const int n3 = argInt(argc, argv, 6, 1024);  // >= 1

  // (1) RGBA pixels, every byte 1..255.
  const size_t e1 = size_t(r1) * w1;
  std::vector<uchar4> img(e1);
  for (size_t k = 0; k < e1; k++) {
    uint32_t h = hashAt(15301, k);
    img[k] = make_uchar4((unsigned char)(1 + (h & 0xFF) % 255u), (unsigned char)(1 + ((h >> 8) & 0xFF) % 255u),
                         (unsigned char)(1 + ((h >> 16) & 0xFF) % 255u), (unsigned char)(1 + (h >> 24) % 255u));
  }

  // (2) complex matrix and vector, components in [0.25, 1.25).
  const size_t e2 = size_t(r2) * n2;
  std::vector<float2> A2(e2), x2(n2);
  for (size_t k = 0; k < e2; k++) A2[k] = make_float2(unit(15302, k), unit(15303, k));
  for (size_t k = 0; k < size_t(n2); k++) x2[k] = make_float2(unit(15304, k), unit(15305, k));

  // (3) tracks: random walks.
  const size_t e3 = size_t(r3) * n3;
  std::vector<float3> P(e3);
  for (size_t i = 0; i < size_t(r3); i++) {
    float px = 50.0f + 100.0f * (unit(15306, i) - 0.25f), py = 50.0f + 100.0f * (unit(15307, i) - 0.25f),
          pz = 50.0f + 100.0f * (unit(15308, i) - 0.25f);
    for (size_t j = 0; j < size_t(n3); j++) {
      size_t k = i * n3 + j;
      uint32_t s = hashAt(15309, k);
      px += (s & 1u) ? -unit(15310, k) : unit(15310, k);
      py += (s & 2u) ? -unit(15311, k) : unit(15311, k);
      pz += (s & 4u) ? -unit(15312, k) : unit(15312, k);
      P[k] = make_float3(px, py, pz);
    }
  }

  uchar4 *d_img = toDevice(img);
  uint4 *d_sums;
  CHECK(cudaMalloc(&d_sums, r1 * sizeof(uint4)));
  float2 *d_A2 = toDevice(A2), *d_x2 = toDevice(x2), *d_y2;
  float *d_pw;
  CHECK(cudaMalloc(&d_y2, r2 * sizeof(float2)));
  CHECK(cudaMalloc(&d_pw, r2 * sizeof(float)));
  float3 *d_P = toDevice(P), *d_cen;
  float *d_len;
  CHECK(cudaMalloc(&d_cen, r3 * sizeof(float3)));
  CHECK(cudaMalloc(&d_len, r3 * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  rgba_row_sums<<<blocksFor(r1, 256), 256>>>(d_img, d_sums, unsigned(r1), unsigned(w1));
  CHECK_LAUNCH();
  cgemv_rows<<<blocksFor(r2, 128), 128>>>(d_A2, d_x2, d_y2, d_pw, size_t(r2), size_t(n2));
  CHECK_LAUNCH();
  track_stats<<<blocksFor(r3, 64), 64>>>(d_P, d_len, d_cen, int64_t(r3), int64_t(n3));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<uint4> gsums = fromDevice(d_sums, r1);
  std::vector<float2> gy2 = fromDevice(d_y2, r2);
  std::vector<float> gpw = fromDevice(d_pw, r2);
  std::vector<float> glen = fromDevice(d_len, r3);
  std::vector<float3> gcen = fromDevice(d_cen, r3);

  // (1)
  std::vector<unsigned> got1(size_t(r1) * 4), want1(size_t(r1) * 4);
  for (size_t i = 0; i < size_t(r1); i++) {
    unsigned r = 0, g = 0, b = 0, ya = 0;
    for (size_t j = 0; j < size_t(w1); j++) {
      uchar4 p = img[i * w1 + j];
      r += p.x;
      g += p.y;
      b += p.z;
      ya += ((77u * p.x + 150u * p.y + 29u * p.z) >> 8) * p.w;
    }
    want1[4 * i + 0] = r, want1[4 * i + 1] = g, want1[4 * i + 2] = b, want1[4 * i + 3] = ya;
    got1[4 * i + 0] = gsums[i].x, got1[4 * i + 1] = gsums[i].y, got1[4 * i + 2] = gsums[i].z,
                 got1[4 * i + 3] = gsums[i].w;
  }
  bool ok = checkExact("rgba_row_sums", got1.data(), want1.data(), got1.size());

  // (2)
  std::vector<float> gre(r2), gim(r2), wre(r2), wim(r2), wpw(r2);
  for (size_t i = 0; i < size_t(r2); i++) {
    double re = 0, im = 0, pw = 0;
    for (size_t j = 0; j < size_t(n2); j++) {
      double ax = A2[i * n2 + j].x, ay = A2[i * n2 + j].y, bx = x2[j].x, by = x2[j].y;
      re += ax * bx - ay * by;
      im += ax * by + ay * bx;
      pw += ax * ax + ay * ay;
    }
    wre[i] = float(re), wim[i] = float(im), wpw[i] = float(pw);
    gre[i] = gy2[i].x, gim[i] = gy2[i].y;
  }
  ok = checkFloats("cgemv_rows re", gre.data(), wre.data(), r2, 1e-3, 1.0) && ok;
  ok = checkFloats("cgemv_rows im", gim.data(), wim.data(), r2, 1e-3) && ok;
  ok = checkFloats("cgemv_rows power", gpw.data(), wpw.data(), r2, 1e-3) && ok;

  // (3)
  std::vector<float> wlen(r3), gc(size_t(r3) * 3), wc(size_t(r3) * 3);
  for (size_t i = 0; i < size_t(r3); i++) {
    const float3 *row = &P[i * n3];
    double L = 0, cx = 0, cy = 0, cz = 0;
    for (size_t j = 0; j < size_t(n3); j++) {
      cx += row[j].x, cy += row[j].y, cz += row[j].z;
      if (j > 0) {
        double dx = double(row[j].x) - row[j - 1].x, dy = double(row[j].y) - row[j - 1].y,
               dz = double(row[j].z) - row[j - 1].z;
        L += std::sqrt(dx * dx + dy * dy + dz * dz);
      }
    }
    wlen[i] = float(L);
    wc[3 * i + 0] = float(cx / n3), wc[3 * i + 1] = float(cy / n3), wc[3 * i + 2] = float(cz / n3);
    gc[3 * i + 0] = gcen[i].x, gc[3 * i + 1] = gcen[i].y, gc[3 * i + 2] = gcen[i].z;
  }
  ok = checkFloats("track_stats length", glen.data(), wlen.data(), r3, 1e-3) && ok;
  ok = checkFloats("track_stats centroid", gc.data(), wc.data(), gc.size(), 1e-3, 1.0) && ok;

  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_sums));
  CHECK(cudaFree(d_A2));
  CHECK(cudaFree(d_x2));
  CHECK(cudaFree(d_y2));
  CHECK(cudaFree(d_pw));
  CHECK(cudaFree(d_P));
  CHECK(cudaFree(d_cen));
  CHECK(cudaFree(d_len));
  return finish(ms, ok);
}
