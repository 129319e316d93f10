// bfs (Rodinia bfs): breadth-first search from node 0 over a random graph
// of 2^20 nodes (2 to 10 random out-edges each, about 6M edges); per level
// two kernels (expand the frontier, then mark the next one and set the
// `over` flag), the flag copied to the device and back each level, 512
// threads a block, blocks indexed as Rodinia does. Timed: the whole level
// loop, kernels and the flag copies (as Rodinia times it). Checked exactly
// against a CPU BFS (the levels do not depend on the order of the writes).
#include <queue>

#include "common.h"

#define MAX_THREADS_PER_BLOCK 512

struct Node {
  int starting;
  int no_of_edges;
};

__global__ void Kernel(const Node *g_graph_nodes, const int *g_graph_edges, bool *g_graph_mask,
                       bool *g_updating_graph_mask, const bool *g_graph_visited, int *g_cost, int no_of_nodes) {
  int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
  if (tid < no_of_nodes && g_graph_mask[tid]) {
    g_graph_mask[tid] = false;
    for (int i = g_graph_nodes[tid].starting; i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting);
         i++) {
      int id = g_graph_edges[i];
      if (!g_graph_visited[id]) {
        g_cost[id] = g_cost[tid] + 1;
        g_updating_graph_mask[id] = true;
      }
    }
  }
}

__global__ void Kernel2(bool *g_graph_mask, bool *g_updating_graph_mask, bool *g_graph_visited, bool *g_over,
                        int no_of_nodes) {
  int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
  if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
    g_graph_mask[tid] = true;
    g_graph_visited[tid] = true;
    *g_over = true;
    g_updating_graph_mask[tid] = false;
  }
}

int main(int argc, char **argv) {
  const int no_of_nodes = argInt(argc, argv, 1, 1 << 20);
  Rng r(161);
  std::vector<Node> nodes(no_of_nodes);
  std::vector<int> edges;
  edges.reserve(size_t(no_of_nodes) * 6);
  for (int i = 0; i < no_of_nodes; i++) {
    nodes[i].starting = int(edges.size());
    nodes[i].no_of_edges = 2 + r.below(9);
    for (int e = 0; e < nodes[i].no_of_edges; e++) edges.push_back(r.below(no_of_nodes));
  }
  std::vector<char> mask(no_of_nodes, 0), visited(no_of_nodes, 0);
  std::vector<int> cost(no_of_nodes, -1);
  const int source = 0;
  mask[source] = 1;
  visited[source] = 1;
  cost[source] = 0;

  Node *d_nodes = toDevice(nodes);
  int *d_edges = toDevice(edges), *d_cost = toDevice(cost);
  bool *d_mask, *d_updating, *d_visited, *d_over;
  CHECK(cudaMalloc(&d_mask, no_of_nodes));
  CHECK(cudaMalloc(&d_updating, no_of_nodes));
  CHECK(cudaMalloc(&d_visited, no_of_nodes));
  CHECK(cudaMalloc(&d_over, sizeof(bool)));
  CHECK(cudaMemcpy(d_mask, mask.data(), no_of_nodes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_visited, visited.data(), no_of_nodes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_updating, 0, no_of_nodes));

  const int num_of_blocks = (no_of_nodes + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK;
  dim3 grid(num_of_blocks), threads(MAX_THREADS_PER_BLOCK);
  int levels = 0;
  bool stop;
  GpuTimer t;
  t.start();
  do {
    stop = false;
    CHECK(cudaMemcpy(d_over, &stop, sizeof(bool), cudaMemcpyHostToDevice));
    Kernel<<<grid, threads>>>(d_nodes, d_edges, d_mask, d_updating, d_visited, d_cost, no_of_nodes);
    CHECK_LAUNCH();
    Kernel2<<<grid, threads>>>(d_mask, d_updating, d_visited, d_over, no_of_nodes);
    CHECK_LAUNCH();
    copyBack(&stop, d_over, sizeof(bool));
    levels++;
  } while (stop && levels <= no_of_nodes);
  float ms = t.stop();
  std::vector<int> got = fromDevice(d_cost, no_of_nodes);

  std::vector<int> ref(no_of_nodes, -1);
  std::queue<int> q;
  ref[source] = 0;
  q.push(source);
  while (!q.empty()) {
    int u = q.front();
    q.pop();
    for (int i = nodes[u].starting; i < nodes[u].starting + nodes[u].no_of_edges; i++)
      if (ref[edges[i]] < 0) {
        ref[edges[i]] = ref[u] + 1;
        q.push(edges[i]);
      }
  }
  std::fprintf(stderr, "bfs: %d levels\n", levels);
  return finish(ms, checkExact("cost", got.data(), ref.data(), no_of_nodes));
}
