// Our own example 2: an array-of-structs update, the particle step
// `p[i].pos += dt * p[i].vel` with 12-byte structs (float x, y, z), as in
// particle, n-body and mesh codes. Consecutive threads access words 12 bytes
// apart: each warp-wide load or store of one field touches three times the
// sectors it uses.
//
// naive       one thread per particle, the three fields one by one, guarded
//             by i < n.
// hand_paper  the same arrays seen as 3n floats (the update is the same for
//             every component): one float per thread, coalesced.
// hand_best   the same with 16-byte (float4) accesses, a scalar tail.
//
// Size: 16 Mi + 3 particles (192 MiB per array; n not a multiple of the block).
#include "common.h"

struct Vec3 {
  float x, y, z;
};

extern "C" __global__ void aos_naive(Vec3 *pos, const Vec3 *vel, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    pos[i].x += dt * vel[i].x;
    pos[i].y += dt * vel[i].y;
    pos[i].z += dt * vel[i].z;
  }
}

extern "C" __global__ void aos_hand_paper(float *__restrict__ pos, const float *__restrict__ vel, float dt, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) pos[i] += dt * vel[i];
}

extern "C" __global__ void aos_hand_best(float *__restrict__ pos, const float *__restrict__ vel, float dt, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int m4 = m / 4;
  if (i < m4) {
    float4 p = reinterpret_cast<float4 *>(pos)[i];
    float4 v = reinterpret_cast<const float4 *>(vel)[i];
    p.x += dt * v.x, p.y += dt * v.y, p.z += dt * v.z, p.w += dt * v.w;
    reinterpret_cast<float4 *>(pos)[i] = p;
  } else if (i < m4 + (m & 3)) {
    int j = 4 * m4 + (i - m4);
    pos[j] += dt * vel[j];
  }
}

int main(int argc, char **argv) {
  ex::Bench B(argc, argv, "aos", "aos_naive");
  const int n = (B.small() ? (1 << 16) : (1 << 24)) + 3, m = 3 * n;
  std::string size = std::to_string(n);
  if (!B.wantSize(size, 0, 1)) return 0;
  const float dt = 0.01f;
  std::vector<float> pos(m), vel(m), ref(m), got;
  ex::fillFloats(pos, 23);
  ex::fillFloats(vel, 29);
  // The GPU contracts pos + dt*vel into one fma; so does the reference.
  for (int i = 0; i < m; i++) ref[i] = std::fma(dt, vel[i], pos[i]);
  ex::DevBuf<float> dp(m), dv(m);
  dv.upload(vel);
  double bytes = 3.0 * m * sizeof(float);  // pos read and written, vel read
  auto reset = [&] { dp.upload(pos); };
  auto verify = [&] {
    dp.download(got);
    return ex::closeTo(got, ref, 0.0, 1e-6, "pos");
  };
  Vec3 *pp = reinterpret_cast<Vec3 *>(dp.p);
  const Vec3 *pv = reinterpret_cast<const Vec3 *>(dv.p);
  float fdt = dt;
  int nn = n, mm = m;
  void *args[] = {&pp, &pv, &fdt, &nn};
  dim3 blk(256), grid((n + 255) / 256);
  B.naive(size, bytes, [&] { aos_naive<<<grid, blk>>>(pp, pv, fdt, nn); }, grid, blk, args, reset, verify);
  B.hand(size, "hand_paper", bytes, [&] { aos_hand_paper<<<(m + 255) / 256, 256>>>(dp.p, dv.p, fdt, mm); }, reset, verify);
  B.hand(size, "hand_best", bytes, [&] { aos_hand_best<<<(m / 4 + 3 + 255) / 256, 256>>>(dp.p, dv.p, fdt, mm); }, reset,
         verify);
  return B.exitCode();
}
