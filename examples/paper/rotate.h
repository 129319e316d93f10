// Shared by rotate1.cu and rotate2.cu: rotation of an 8-bit image about its
// centre by 30 degrees, in 16.16 fixed point so that the GPU and the CPU
// compute the same coordinates bit for bit.
#pragma once
#include <cmath>

struct Rot {
  int cs, sn, cx, cy;  // cos and sin in 16.16; the centre
};

inline Rot makeRot(int w, int h, double degrees = 30.0) {
  double a = degrees * M_PI / 180.0;
  return Rot{int(std::lround(std::cos(a) * 65536)), int(std::lround(std::sin(a) * 65536)), w / 2, h / 2};
}

// Forward map of an input pixel (rotation 1) and inverse map of an output
// pixel (rotation 2); both round to the nearest pixel.
__host__ __device__ __forceinline__ void rotFwd(int x, int y, int cs, int sn, int cx, int cy, int &xo, int &yo) {
  int dx = x - cx, dy = y - cy;
  xo = ((dx * cs - dy * sn + 32768) >> 16) + cx;
  yo = ((dx * sn + dy * cs + 32768) >> 16) + cy;
}
__host__ __device__ __forceinline__ void rotInv(int x, int y, int cs, int sn, int cx, int cy, int &xs, int &ys) {
  int dx = x - cx, dy = y - cy;
  xs = ((dx * cs + dy * sn + 32768) >> 16) + cx;
  ys = ((dy * cs - dx * sn + 32768) >> 16) + cy;
}
