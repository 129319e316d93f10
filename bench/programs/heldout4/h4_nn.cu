// h4_nn: Rodinia nn (nearest neighbour), one thread per record computing the
// Euclidean distance of its latitude/longitude pair to a query point:
// (1) euclid, records as `struct latLong { float lat; float lng; }` read
// through a pointer to the record, `*dist = (float)sqrt((lat -
// latLong->lat) * (lat - latLong->lat) + (lng - latLong->lng) * (lng -
// latLong->lng))`, blocks of 256 in Rodinia's 2-D grid (`globalId =
// blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x`, at most
// 65535 blocks in x), `int` index; (2) euclid_f2, the same records viewed as
// `float2` (`loc[i].x`, `loc[i].y`), blocks of 128, a 1-D grid, `size_t`
// index. 9000000 records (72 MB) and one 36 MB distance array per launch.
// Each kernel launched 3 times, for 3 query points. Timed: the 6 launches.
// Checked exactly (the PTX: sqrt.rn of fma(dlat, dlat, dlng * dlng)) and
// the nearest record of each query compared.
#include "../common.h"

typedef struct latLong {
  float lat;
  float lng;
} LatLong;

__global__ void euclid(LatLong *d_locations, float *d_distances, int numRecords, float lat, float lng) {
  int globalId = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
  if (globalId < numRecords) {
    LatLong *latLong = d_locations + globalId;
    float *dist = d_distances + globalId;
    *dist = (float)sqrt((lat - latLong->lat) * (lat - latLong->lat) + (lng - latLong->lng) * (lng - latLong->lng));
  }
}

__global__ void euclid_f2(const float2 *loc, float *dist, size_t numRecords, float lat, float lng) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < numRecords) {
    float dx = lat - loc[i].x;
    float dy = lng - loc[i].y;
    dist[i] = sqrtf(dx * dx + dy * dy);
  }
}

int main(int argc, char **argv) {
  const int numRecords = argInt(argc, argv, 1, 9000000);
  const size_t nr = size_t(numRecords);
  std::vector<LatLong> rec(nr);
  for (size_t i = 0; i < nr; i++) {
    rec[i].lat = 7.0f + 0.5f + float(hashAt(5001, i) >> 8) * (80.0f / 16777216.0f);
    rec[i].lng = 8.0f + 0.5f + float(hashAt(5002, i) >> 8) * (170.0f / 16777216.0f);
  }
  const float qlat[3] = {30.0f, 61.25f, 12.5f}, qlng[3] = {90.0f, 17.75f, 170.5f};
  LatLong *drec = toDevice(rec);
  float *dd[6];
  for (int q = 0; q < 6; q++) CHECK(cudaMalloc(&dd[q], nr * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  // Rodinia's grid: as many blocks of 256 as needed, at most 65535 in x.
  const unsigned blocks = blocksFor(numRecords, 256);
  const unsigned gx = blocks < 65535 ? blocks : 65535;
  dim3 grid(gx, (blocks + gx - 1) / gx);
  GpuTimer t;
  t.start();
  for (int q = 0; q < 3; q++) {
    euclid<<<grid, 256>>>(drec, dd[q], numRecords, qlat[q], qlng[q]);
    CHECK_LAUNCH();
  }
  for (int q = 0; q < 3; q++) {
    euclid_f2<<<blocksFor(numRecords, 128), 128>>>(reinterpret_cast<const float2 *>(drec), dd[3 + q], nr, qlat[q], qlng[q]);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  bool ok = true;
  std::vector<float> want(nr);
  for (int q = 0; q < 6; q++) {
    std::vector<float> got = fromDevice(dd[q], nr);
    const float la = qlat[q % 3], ln = qlng[q % 3];
    for (size_t i = 0; i < nr; i++) {
      const float dx = la - rec[i].lat, dy = ln - rec[i].lng;
      want[i] = std::sqrt(std::fmaf(dx, dx, dy * dy));
    }
    ok = checkExact(q < 3 ? "nn euclid" : "nn euclid_f2", got.data(), want.data(), nr) && ok;
    size_t best = 0;
    for (size_t i = 1; i < nr; i++)
      if (got[i] < got[best]) best = i;
    size_t rbest = 0;
    for (size_t i = 1; i < nr; i++)
      if (want[i] < want[rbest]) rbest = i;
    if (best != rbest) {
      std::fprintf(stderr, "nn query %d: nearest record %zu, want %zu\n", q % 3, best, rbest);
      ok = false;
    }
  }
  CHECK(cudaFree(drec));
  for (int q = 0; q < 6; q++) CHECK(cudaFree(dd[q]));
  return finish(ms, ok);
}
