// h8_streamcluster_pf_histo: three Rodinia/Parboil-style kernels, each
// launched by cudaLaunchKernelEx on a created stream with two attributes, a
// cluster dimension of 2 (grids rounded up to even) and
// cudaLaunchAttributePriority. (1) Rodinia streamcluster's pgain cost kernel
// with the coordinates row-major (one point a row, `template <int DIM>`, DIM
// = 32): `tmp = coord[tid*DIM + i] - coord[x*DIM + i]; dist += tmp*tmp`,
// `x_cost = dist * p[tid].weight` from an array of 16-byte Point structs,
// then a branch: `switch_membership[tid] = 1; lower[K] += x_cost - cost`
// or `lower[center_table[assign]] += cost - x_cost`, lower = work_mem +
// tid*(K+1) (work_mem and the flags cudaMemset to 0 first); 600000 points
// (77 MB of coordinates), K = 16, blocks of 256, `int` indices. (2) Rodinia
// particlefilter's likelihood, thread per particle walking its row of the
// index array, `size_t` indices: `idx = ind[i*countOnes + y]; if (idx >=
// max_size) idx = 0;` (about 3% out of range), a gathered 8-bit pixel v,
// `s += (float)((v-100)*(v-100) - (v-228)*(v-228)) / 50.0f`, then
// `likelihood[i] = s / countOnes`; 400000 particles x 48 (77 MB of
// indices), blocks of 128. (3) Parboil-histo-like 256-bin histogram of the
// same 8192 x 8192 8-bit frame (67 MB), thread per row, `unsigned char`
// row pointer, shared-memory bins with atomicAdd, merged into global bins
// by atomicAdd (cudaMemset to 0 first), the row's sum into int on the way;
// blocks of 128. Timed: the three memsets and the three launches (the
// stream synchronized before the stop event). Checked: exactly ((1) fmaf in
// order; (2) IEEE divisions, plain adds; (3) integer counts and sums).
#include "../common.h"

struct Point {
  float weight;
  int assign;
  float cost;
  int pad;
};

template <int DIM>
__global__ void pgain_cost(int num, int x, const float *coord, const Point *p, int K, int stride, float *work_mem,
                           const int *center_table, unsigned char *switch_membership) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num) {
    float *lower = &work_mem[tid * stride];
    float dist = 0.0f;
    for (int i = 0; i < DIM; i++) {
      float tmp = coord[tid * DIM + i] - coord[x * DIM + i];
      dist += tmp * tmp;
    }
    float x_cost = dist * p[tid].weight;
    float current_cost = p[tid].cost;
    if (x_cost < current_cost) {
      switch_membership[tid] = 1;
      lower[K] += x_cost - current_cost;
    } else {
      int assign = p[tid].assign;
      lower[center_table[assign]] += current_cost - x_cost;
    }
  }
}

__global__ void likelihood_kernel(const int *ind, const unsigned char *I, float *likelihood, size_t nparticles,
                                  size_t countOnes, int max_size) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < nparticles) {
    float s = 0.0f;
    for (size_t y = 0; y < countOnes; y++) {
      int idx = ind[i * countOnes + y];
      if (idx >= max_size) idx = 0;
      int v = I[idx];
      s += (float)((v - 100) * (v - 100) - (v - 228) * (v - 228)) / 50.0f;
    }
    likelihood[i] = s / (float)countOnes;
  }
}

__global__ void histo_rows(const unsigned char *img, unsigned *hist, int *rowsum, int height, int width) {
  __shared__ unsigned bins[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < height) {
    const unsigned char *row = img + (size_t)r * width;
    int sum = 0;
    for (int c = 0; c < width; c++) {
      unsigned char v = row[c];
      atomicAdd(&bins[v], 1u);
      sum += v;
    }
    rowsum[r] = sum;
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (bins[b]) atomicAdd(&hist[b], bins[b]);
}

constexpr int DIM = 32;

static unsigned evenBlocks(long n, unsigned threads) {
  unsigned b = blocksFor(n, threads);
  return b + (b & 1u);
}

int main(int argc, char **argv) {
  const int num = argInt(argc, argv, 1, 600000);
  const size_t np = size_t(argInt(argc, argv, 2, 400000)), countOnes = size_t(argInt(argc, argv, 3, 48));
  const int fh = argInt(argc, argv, 4, 8192), fw = argInt(argc, argv, 5, 8192);
  const int K = 16, stride = K + 1, x = 12345 % num;
  const size_t ncoord = size_t(num) * DIM, nind = np * countOnes, nimg = size_t(fh) * fw;
  const int max_size = fh * fw;

  std::vector<float> coord(ncoord);
  fillFloats(coord, 8201);
  std::vector<Point> pts(num);
  for (int i = 0; i < num; i++) {
    pts[i].weight = 0.25f + float(hashAt(8202, i) >> 8) * (1.0f / 16777216.0f);
    pts[i].assign = int(hashAt(8203, i) % 1000u);
    pts[i].cost = 1.0f + float(hashAt(8204, i) >> 8) * (7.0f / 16777216.0f);
    pts[i].pad = 1;
  }
  std::vector<int> center_table(1000);
  for (int a = 0; a < 1000; a++) center_table[a] = int(hashAt(8205, a) % uint32_t(K));
  std::vector<unsigned char> img(nimg);
  for (size_t k = 0; k < nimg; k++) img[k] = (unsigned char)(1 + hashAt(8206, k) % 255u);
  std::vector<int> ind(nind);
  const uint32_t range = uint32_t(max_size) + uint32_t(max_size) / 32u;
  for (size_t k = 0; k < nind; k++) ind[k] = int(hashAt(8207, k) % range);

  float *d_coord = toDevice(coord), *d_work, *d_lk;
  Point *d_pts = toDevice(pts);
  int *d_ct = toDevice(center_table), *d_ind = toDevice(ind);
  unsigned char *d_img = toDevice(img), *d_sw;
  unsigned *d_hist;
  int *d_rowsum;
  CHECK(cudaMalloc(&d_work, size_t(num) * stride * sizeof(float)));
  CHECK(cudaMalloc(&d_sw, size_t(num)));
  CHECK(cudaMalloc(&d_lk, np * sizeof(float)));
  CHECK(cudaMalloc(&d_hist, 256 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_rowsum, size_t(fh) * sizeof(int)));
  int leastPrio = 0, greatestPrio = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&leastPrio, &greatestPrio));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithPriority(&s, cudaStreamDefault, greatestPrio));
  CHECK(cudaDeviceSynchronize());

  cudaLaunchAttribute attrs[2];
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[0].val.clusterDim.x = 2;
  attrs[0].val.clusterDim.y = 1;
  attrs[0].val.clusterDim.z = 1;
  attrs[1].id = cudaLaunchAttributePriority;
  attrs[1].val.priority = greatestPrio;
  cudaLaunchConfig_t c1 = {};
  c1.gridDim = dim3(evenBlocks(num, 256));
  c1.blockDim = dim3(256);
  c1.dynamicSmemBytes = 0;
  c1.stream = s;
  c1.attrs = attrs;
  c1.numAttrs = 2;
  cudaLaunchConfig_t c2 = c1, c3 = c1;
  c2.gridDim = dim3(evenBlocks(long(np), 128));
  c2.blockDim = dim3(128);
  c3.gridDim = dim3(evenBlocks(fh, 128));
  c3.blockDim = dim3(128);

  GpuTimer t;
  t.start();
  CHECK(cudaMemsetAsync(d_work, 0, size_t(num) * stride * sizeof(float), s));
  CHECK(cudaMemsetAsync(d_sw, 0, size_t(num), s));
  CHECK(cudaMemsetAsync(d_hist, 0, 256 * sizeof(unsigned), s));
  CHECK(cudaLaunchKernelEx(&c1, pgain_cost<DIM>, num, x, (const float *)d_coord, (const Point *)d_pts, K, stride,
                           d_work, (const int *)d_ct, d_sw));
  CHECK(cudaLaunchKernelEx(&c2, likelihood_kernel, (const int *)d_ind, (const unsigned char *)d_img, d_lk, np,
                           countOnes, max_size));
  CHECK(cudaLaunchKernelEx(&c3, histo_rows, (const unsigned char *)d_img, d_hist, d_rowsum, fh, fw));
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<float> work = fromDevice(d_work, size_t(num) * stride), lk = fromDevice(d_lk, np);
  std::vector<unsigned char> sw = fromDevice(d_sw, size_t(num));
  std::vector<unsigned> hist = fromDevice(d_hist, 256);
  std::vector<int> rowsum = fromDevice(d_rowsum, size_t(fh));

  std::vector<float> wref(size_t(num) * stride, 0.0f);
  std::vector<unsigned char> swref(num, 0);
  for (size_t tid = 0; tid < size_t(num); tid++) {
    float dist = 0.0f;
    for (size_t i = 0; i < size_t(DIM); i++) {
      float tmp = coord[tid * DIM + i] - coord[size_t(x) * DIM + i];
      dist = std::fmaf(tmp, tmp, dist);
    }
    float x_cost = dist * pts[tid].weight, cur = pts[tid].cost;
    if (x_cost < cur) {
      swref[tid] = 1;
      wref[tid * stride + K] += x_cost - cur;
    } else {
      wref[tid * stride + center_table[pts[tid].assign]] += cur - x_cost;
    }
  }
  std::vector<float> lref(np);
  for (size_t i = 0; i < np; i++) {
    float sum = 0.0f;
    for (size_t y = 0; y < countOnes; y++) {
      int idx = ind[i * countOnes + y];
      if (idx >= max_size) idx = 0;
      int v = img[idx];
      sum += (float)((v - 100) * (v - 100) - (v - 228) * (v - 228)) / 50.0f;
    }
    lref[i] = sum / (float)countOnes;
  }
  std::vector<unsigned> href(256, 0u);
  std::vector<int> rsref(fh, 0);
  for (size_t k = 0; k < nimg; k++) {
    href[img[k]]++;
    rsref[k / fw] += img[k];
  }
  bool ok = checkExact("pgain work_mem", work.data(), wref.data(), size_t(num) * stride);
  ok = checkExact("pgain switch", sw.data(), swref.data(), size_t(num)) && ok;
  ok = checkExact("likelihood", lk.data(), lref.data(), np) && ok;
  ok = checkExact("histogram", hist.data(), href.data(), 256) && ok;
  ok = checkExact("row sums", rowsum.data(), rsref.data(), size_t(fh)) && ok;
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_coord));
  CHECK(cudaFree(d_work));
  CHECK(cudaFree(d_lk));
  CHECK(cudaFree(d_pts));
  CHECK(cudaFree(d_ct));
  CHECK(cudaFree(d_ind));
  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_sw));
  CHECK(cudaFree(d_hist));
  CHECK(cudaFree(d_rowsum));
  return finish(ms, ok);
}
