// row_search: a table of 4096 records of up to 4096 int tokens, each
// record ended by a 0 token (a sentinel; about one token in 1500 is 0, so
// records run a few hundred to all 4096 tokens), one thread per record:
// its length and token checksum up to the sentinel, then the first
// position of a key token in it. Rows walked until an early exit (issue 29,
// item 3). Two launches.
// Timed: the kernels (cudaEvents). Check: exact (integers).
#include "common.h"

__global__ void record_length(const int *tok, int *len, unsigned *sum, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int k = 0;
    unsigned s = 0;
    for (; k < m; k++) {
      int t = tok[i * m + k];
      if (t == 0) break;
      s = s * 31u + unsigned(t);
    }
    len[i] = k;
    sum[i] = s;
  }
}

__global__ void find_key(const int *tok, int *pos, int n, int m, int key) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int p = -1;
  for (int k = 0; k < m; k++) {
    int t = tok[i * m + k];
    if (t == 0) break;
    if (t == key) {
      p = k;
      break;
    }
  }
  pos[i] = p;
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 4096), m = argInt(argc, argv, 2, 4096);
  const int key = 7;
  std::vector<int> tok(size_t(n) * m);
  for (size_t j = 0; j < tok.size(); ++j) {
    const uint32_t h = hashAt(11, j);
    tok[j] = h % 1500 == 0 ? 0 : int(1 + (h >> 11) % 5000);  // tokens 1..5000; the key one in 5000
  }
  int *dtok = toDevice(tok), *dlen, *dpos;
  unsigned *dsum;
  CHECK(cudaMalloc(&dlen, n * sizeof(int)));
  CHECK(cudaMalloc(&dpos, n * sizeof(int)));
  CHECK(cudaMalloc(&dsum, n * sizeof(unsigned)));
  GpuTimer t;
  t.start();
  record_length<<<blocksFor(n, 256), 256>>>(dtok, dlen, dsum, n, m);
  CHECK_LAUNCH();
  find_key<<<blocksFor(n, 256), 256>>>(dtok, dpos, n, m, key);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> len = fromDevice(dlen, n), pos = fromDevice(dpos, n);
  std::vector<unsigned> sum = fromDevice(dsum, n);

  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    int k = 0, p = -1;
    unsigned s = 0;
    for (; k < m; k++) {
      const int v = tok[size_t(i) * m + k];
      if (v == 0) break;
      s = s * 31u + unsigned(v);
      if (v == key && p < 0) p = k;
    }
    ok = len[i] == k && sum[i] == s && pos[i] == p;
    if (!ok) std::fprintf(stderr, "row %d: len %d/%d sum %u/%u pos %d/%d\n", i, len[i], k, sum[i], s, pos[i], p);
  }
  return finish(ms, ok);
}
