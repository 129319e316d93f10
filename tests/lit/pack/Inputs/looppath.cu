// pack's 8-byte pairs (Pack.cpp, findRuns): two 4-byte loads as one vector
// pay in a loop only when every iteration reads them. bfs_step is the graph
// traversal of the whole-program suite (bench/programs/bfs.cu, Rodinia's
// form): a node's two fields are read again after the stores, only for
// unvisited neighbours (refused); pair_walk reads t[i], t[i+1] every
// iteration of a loop kept rolled (packed: one 8-byte load). Compiled with
//   nvcc -arch=sm_90 -O3 -ptx looppath.cu -o looppath.ptx   (nvcc 13.0)
struct Node {
  int starting;
  int no_of_edges;
};

__global__ void bfs_step(const Node *nodes, const int *edges, bool *mask, bool *updating, const bool *visited,
                         int *cost, int n) {
  int tid = blockIdx.x * 512 + threadIdx.x;
  if (tid < n && mask[tid]) {
    mask[tid] = false;
    for (int i = nodes[tid].starting; i < nodes[tid].no_of_edges + nodes[tid].starting; i++) {
      int id = edges[i];
      if (!visited[id]) {
        cost[id] = cost[tid] + 1;
        updating[id] = true;
      }
    }
  }
}

__global__ void pair_walk(const float *t, float *out, int n, int len) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float s = 0.0f;
#pragma unroll 1
  for (int i = 0; i < len; i += 2) s += t[(long)r * len + i] * t[(long)r * len + i + 1];
  out[r] = s;
}
