// Inputs of dataguard.test (Inputs/dataguard.ptx is nvcc 13.0's output:
// nvcc -arch=sm_90 -O3 -ptx dataguard.cu -o dataguard.ptx, in this folder).
// Guards on data are no bounds guards: group refuses them (its slow path
// would run most groups); two 4-byte loads are not packed.

// Rodinia BFS's frontier update: a guard on a bool mask (0.33-0.47x grouped).
extern "C" __global__ void frontier(bool *mask, bool *updating, bool *visited, bool *over, int n) {
  int tid = blockIdx.x * 512 + threadIdx.x;
  if (tid < n && updating[tid]) {
    mask[tid] = true;
    visited[tid] = true;
    *over = true;
    updating[tid] = false;
  }
}

// A threshold on a loaded float.
extern "C" __global__ void positive(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > 0.f) y[i] = 2.f * x[i];
}

// A threshold on a loaded byte, combined with the bound by `||` (or.pred).
extern "C" __global__ void clamp_mark(unsigned char *out, const unsigned char *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || in[i] < 128) return;
  out[i] = in[i];
}

// Bounds only, combined by `||` (or.pred): still grouped.
extern "C" __global__ void copy2d(unsigned char *out, const unsigned char *in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  out[y * w + x] = in[y * w + x];
}

// Rodinia nearest neighbour: a struct of two floats per thread; the two
// loads as one 8-byte vector measured no faster (0.99-1.07x), so pack
// leaves it.
struct LatLong { float lat, lng; };
extern "C" __global__ void euclid(LatLong *loc, float *dist, int n, float lat, float lng) {
  int i = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
  if (i < n) {
    LatLong *p = loc + i;
    dist[i] = sqrtf((lat - p->lat) * (lat - p->lat) + (lng - p->lng) * (lng - p->lng));
  }
}
