// h3_kmeans: the two kernels of a Rodinia-kmeans-style assignment step,
// 1-D blocks of 256, one thread per point. (1) `invert_mapping`: the
// npoints x nfeatures row-major feature matrix to feature-major,
// `for (i = 0; i < nfeatures; i++) output[point_id + npoints*i] =
// input[point_id*nfeatures + i]` (the feature loop inside the thread: strided
// reads, coalesced writes); (2) `kmeansPoint`: nearest of nclusters centres
// in __constant__ memory, reading the inverted features column-major
// (`features[point_id + j*npoints]`), `ans += diff*diff`, strict `<` so the
// first minimum wins, membership written out. npoints = 1M, nfeatures = 34
// (142 MB each way), nclusters = 5. One launch each. Timed: both kernels.
// Checked exactly (the inversion, and the membership against a CPU loop with
// fmaf in the device's order).
#include <cfloat>

#include "../common.h"

#define MAX_CLUSTERS 16
#define MAX_FEATURES 64
__constant__ float c_clusters[MAX_CLUSTERS * MAX_FEATURES];

__global__ void invert_mapping(float *input, float *output, int npoints, int nfeatures) {
  int point_id = threadIdx.x + blockDim.x * blockIdx.x;
  int i;

  if (point_id < npoints) {
    for (i = 0; i < nfeatures; i++) output[point_id + npoints * i] = input[point_id * nfeatures + i];
  }
}

__global__ void kmeansPoint(float *features, int nfeatures, int npoints, int nclusters, int *membership) {
  const unsigned int point_id = blockIdx.x * blockDim.x + threadIdx.x;
  int index = -1;

  if (point_id < npoints) {
    float min_dist = FLT_MAX;
    for (int i = 0; i < nclusters; i++) {
      int cluster_base_index = i * nfeatures;
      float ans = 0.0f;
      for (int j = 0; j < nfeatures; j++) {
        int addr = point_id + j * npoints;
        float diff = features[addr] - c_clusters[cluster_base_index + j];
        ans += diff * diff;
      }
      if (ans < min_dist) {
        min_dist = ans;
        index = i;
      }
    }
    membership[point_id] = index;
  }
}

int main(int argc, char **argv) {
  const int npoints = argInt(argc, argv, 1, 1 << 20), nfeatures = argInt(argc, argv, 2, 34);
  const int nclusters = argInt(argc, argv, 3, 5);
  if (nfeatures > MAX_FEATURES || nclusters > MAX_CLUSTERS) return std::fprintf(stderr, "too many\n"), 1;
  const size_t n = size_t(npoints) * nfeatures;
  std::vector<float> feat(n), clusters(size_t(nclusters) * nfeatures);
  fillFloats(feat, 3301);
  // Centres: copies of spread-out points, so memberships are mixed.
  for (int c = 0; c < nclusters; c++)
    for (int f = 0; f < nfeatures; f++)
      clusters[size_t(c) * nfeatures + f] = feat[size_t(c) * (npoints / nclusters) * nfeatures + f];
  CHECK(cudaMemcpyToSymbol(c_clusters, clusters.data(), clusters.size() * sizeof(float)));
  float *dfeat = toDevice(feat), *dflip;
  int *dmember;
  CHECK(cudaMalloc(&dflip, n * sizeof(float)));
  CHECK(cudaMalloc(&dmember, size_t(npoints) * sizeof(int)));
  CHECK(cudaDeviceSynchronize());
  const int threads = 256;
  GpuTimer t;
  t.start();
  invert_mapping<<<blocksFor(npoints, threads), threads>>>(dfeat, dflip, npoints, nfeatures);
  CHECK_LAUNCH();
  kmeansPoint<<<blocksFor(npoints, threads), threads>>>(dflip, nfeatures, npoints, nclusters, dmember);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> flip = fromDevice(dflip, n);
  std::vector<int> member = fromDevice(dmember, npoints);

  size_t bad = 0;
  for (size_t p = 0; p < size_t(npoints); p++)
    for (size_t f = 0; f < size_t(nfeatures); f++) bad += !(flip[p + size_t(npoints) * f] == feat[p * nfeatures + f]);
  if (bad) std::fprintf(stderr, "invert_mapping: %zu of %zu differ\n", bad, n);
  std::vector<int> want(npoints);
  for (size_t p = 0; p < size_t(npoints); p++) {
    float min_dist = FLT_MAX;
    int index = -1;
    for (int c = 0; c < nclusters; c++) {
      float ans = 0.0f;
      for (int f = 0; f < nfeatures; f++) {
        float diff = feat[p * nfeatures + f] - clusters[size_t(c) * nfeatures + f];
        ans = std::fmaf(diff, diff, ans);
      }
      if (ans < min_dist) min_dist = ans, index = c;
    }
    want[p] = index;
  }
  bool ok = checkExact("kmeansPoint membership", member.data(), want.data(), npoints) && bad == 0;
  CHECK(cudaFree(dfeat));
  CHECK(cudaFree(dflip));
  CHECK(cudaFree(dmember));
  return finish(ms, ok);
}
