// Elementwise kernels guarded by `if (i < n)`, one per word size: an 8-bit
// scale (image brightness), a 16-bit add, a float saxpy and a double daxpy
// (both in place); and two shapes from Rodinia: nearest neighbour's distance
// (a struct of two floats per element) and breadth-first search's frontier
// update (bool masks, a guard on the data). Blocks of 256 and 1024 threads;
// footprints of about 2 MB (L2-resident), 32 MB (n not a multiple of the
// block: the last block is partial) and 512 MB.
#include "family.h"

__global__ void scale_u8(const unsigned char *in, unsigned char *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 2 + 5;
}

__global__ void add_u16(const unsigned short *a, const unsigned short *b, unsigned short *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + 3 * b[i];
}

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void daxpy(int n, double a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

struct LatLong {
  float lat, lng;
};

__global__ void euclid(const LatLong *d_locations, float *d_distances, int numRecords, float lat, float lng) {
  int globalId = blockDim.x * blockIdx.x + threadIdx.x;
  if (globalId < numRecords) {
    const LatLong *latLong = d_locations + globalId;
    float *dist = d_distances + globalId;
    *dist = (float)sqrtf((lat - latLong->lat) * (lat - latLong->lat) + (lng - latLong->lng) * (lng - latLong->lng));
  }
}

__global__ void frontier_update(bool *g_graph_mask, bool *g_updating_graph_mask, bool *g_graph_visited, bool *g_over,
                                int no_of_nodes) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
    g_graph_mask[tid] = true;
    g_graph_visited[tid] = true;
    *g_over = true;
    g_updating_graph_mask[tid] = false;
  }
}

// 0 or 1 bytes, about a quarter of them 1 (grid-stride, run once per reset)
__global__ void make_mask(bool *m, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    m[i] = (mix32(i * 0x9e3779b97f4a7c15ull + seed) & 3) == 0;
}

// n elements of `width` bytes, `arrays` buffers, near `mb` megabytes; odd:
// 7 elements more (a partial last block)
static int elements(size_t mbytes, int width, int arrays, bool odd) {
  return int(mbytes * 1048576 / (size_t(width) * arrays)) + (odd ? 7 : 0);
}

int main(int argc, char **argv) {
  Options o = parseOptions(argc, argv, "elementwise");
  Hasher hash;
  struct Size { size_t mb; bool odd; } sizes[] = {{2, false}, {32, true}, {512, false}};
  const unsigned blocks[] = {256, 1024};
  for (Size s : sizes) {
    {  // 8-bit
      int n = elements(s.mb, 1, 2, s.odd);
      size_t bytes = 2 * size_t(n);
      if (bytes / 1048576.0 <= o.maxMB) {
        unsigned char *in = alloc<unsigned char>(n), *out = alloc<unsigned char>(n);
        fill(in, n, 12);
        for (unsigned b : blocks) {
          unsigned g = cdiv(n, b);
          bench(o, {"scale_u8", fmt("block=%u,grid=%u", b, g), fmt("n=%d", n), bytes, 1},
                [&] { CHECK(cudaMemsetAsync(out, 0, n)); }, [&] { scale_u8<<<g, b>>>(in, out, n); },
                [&] { return hash(out, n, 0); });
        }
        CHECK(cudaFree(in));
        CHECK(cudaFree(out));
      }
    }
    {  // 16-bit
      int n = elements(s.mb, 2, 3, s.odd);
      size_t bytes = 3 * size_t(n) * 2;
      if (bytes / 1048576.0 <= o.maxMB) {
        unsigned short *a = alloc<unsigned short>(n), *b2 = alloc<unsigned short>(n), *c = alloc<unsigned short>(n);
        fill(a, n, 13);
        fill(b2, n, 14);
        for (unsigned b : blocks) {
          unsigned g = cdiv(n, b);
          bench(o, {"add_u16", fmt("block=%u,grid=%u", b, g), fmt("n=%d", n), bytes, 1},
                [&] { CHECK(cudaMemsetAsync(c, 0, size_t(n) * 2)); }, [&] { add_u16<<<g, b>>>(a, b2, c, n); },
                [&] { return hash(c, n, 0); });
        }
        CHECK(cudaFree(a));
        CHECK(cudaFree(b2));
        CHECK(cudaFree(c));
      }
    }
    {  // 32-bit, in place
      int n = elements(s.mb, 4, 2, s.odd);
      size_t bytes = 2 * size_t(n) * 4;
      if (bytes / 1048576.0 <= o.maxMB) {
        float *x = alloc<float>(n), *y = alloc<float>(n);
        fill(x, n, 15);
        for (unsigned b : blocks) {
          unsigned g = cdiv(n, b);
          bench(o, {"saxpy", fmt("block=%u,grid=%u", b, g), fmt("n=%d", n), bytes, 1}, [&] { fill(y, n, 16); },
                [&] { saxpy<<<g, b>>>(n, 2.5f, x, y); }, [&] { return hash(y, n, 0); });
        }
        CHECK(cudaFree(x));
        CHECK(cudaFree(y));
      }
    }
    {  // 64-bit, in place
      int n = elements(s.mb, 8, 2, s.odd);
      size_t bytes = 2 * size_t(n) * 8;
      if (bytes / 1048576.0 <= o.maxMB) {
        double *x = alloc<double>(n), *y = alloc<double>(n);
        fill(x, n, 17);
        for (unsigned b : blocks) {
          unsigned g = cdiv(n, b);
          bench(o, {"daxpy", fmt("block=%u,grid=%u", b, g), fmt("n=%d", n), bytes, 1}, [&] { fill(y, n, 18); },
                [&] { daxpy<<<g, b>>>(n, 2.5, x, y); }, [&] { return hash(y, n, 0); });
        }
        CHECK(cudaFree(x));
        CHECK(cudaFree(y));
      }
    }
    {  // nearest neighbour: 8-byte structs in, floats out
      int n = elements(s.mb, 12, 1, s.odd);
      size_t bytes = size_t(n) * 12;
      if (bytes / 1048576.0 <= o.maxMB) {
        LatLong *loc = reinterpret_cast<LatLong *>(alloc<float>(2 * size_t(n)));
        float *dist = alloc<float>(n);
        fill(reinterpret_cast<float *>(loc), 2 * size_t(n), 25);
        for (unsigned b : blocks) {
          unsigned g = cdiv(n, b);
          bench(o, {"euclid", fmt("block=%u,grid=%u", b, g), fmt("n=%d", n), bytes, 1},
                [&] { CHECK(cudaMemsetAsync(dist, 0, size_t(n) * 4)); },
                [&] { euclid<<<g, b>>>(loc, dist, n, 0.75f, 1.25f); }, [&] { return hash(dist, n, 0); });
        }
        CHECK(cudaFree(loc));
        CHECK(cudaFree(dist));
      }
    }
    {  // breadth-first search: three bool arrays, updated in place
      int n = elements(s.mb, 1, 3, s.odd);
      size_t bytes = 3 * size_t(n);
      if (bytes / 1048576.0 <= o.maxMB) {
        bool *mask = alloc<bool>(n), *updating = alloc<bool>(n), *visited = alloc<bool>(n), *over = alloc<bool>(1);
        for (unsigned b : blocks) {
          unsigned g = cdiv(n, b);
          bench(o, {"frontier_update", fmt("block=%u,grid=%u", b, g), fmt("n=%d", n), bytes, 1},
                [&] {
                  make_mask<<<1024, 256>>>(mask, n, 26);
                  make_mask<<<1024, 256>>>(updating, n, 27);
                  make_mask<<<1024, 256>>>(visited, n, 28);
                  CHECK(cudaMemsetAsync(over, 0, 1));
                },
                [&] { frontier_update<<<g, b>>>(mask, updating, visited, over, n); },
                [&] { return hash(over, 1, hash(visited, n, hash(updating, n, hash(mask, n, 0)))); });
        }
        CHECK(cudaFree(mask));
        CHECK(cudaFree(updating));
        CHECK(cudaFree(visited));
        CHECK(cudaFree(over));
      }
    }
  }
  return 0;
}
