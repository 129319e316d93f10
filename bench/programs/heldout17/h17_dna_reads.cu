// h17_dna_reads: short-read statistics, a thread per read. The reads are
// READ_LEN (151, odd) bytes of 'A', 'C', 'G', 'T' and a few 'N', sampled
// from a random 4 Mbase genome with homopolymer runs (half of them
// reverse-complemented), 524288 reads (76 MB), read by all three kernels.
// (1) gc_content, the GC fraction `float(gc) / float(n - nN)` and the
// count of 'N': uint8 bases through a `switch`, `int` i and j, the read
// length at run time, 64-thread blocks, early `return`; (2)
// kmer_scan<K>, a rolling 2-bit k-mer code (K = 13, a template parameter,
// 26 bits): `code = ((code << 2) | b) & mask`, reset by an 'N', counting
// the occurrences of a query k-mer (taken from the genome) and the
// minimum code (the read's minimiser) over the valid k-mers: `unsigned` i
// and j, the read length at run time, an if / else-if chain for the base
// code, 192-thread blocks, `if (i < rows)`; (3) revcomp_homopolymer<L>,
// the reverse complement of each read into an output row (76 MB) and its
// longest homopolymer run: `long long` i and j, the walk counting down
// `for (long long j = L - 1; j >= 0; --j)`, L = READ_LEN a template
// parameter, a grid-stride loop over reads in 512-thread blocks (4 x the
// SM count blocks). Sizes: reads (argv; READ_LEN and K are compile-time).
// Timed: the 3 launches. Checked: all exactly (the fraction is one IEEE
// division on both sides).
#include "../common.h"
#include <algorithm>

#define READ_LEN 151
#define KMER 13

__global__ void gc_content(const uint8_t *reads, float *gc, int *nN, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  int g = 0, nn = 0;
  for (int j = 0; j < n; j++) {
    switch (reads[i * n + j]) {
    case 'G':
    case 'C':
      g++;
      break;
    case 'N':
      nn++;
      break;
    default:
      break;
    }
  }
  gc[i] = n > nn ? float(g) / float(n - nn) : 0.0f;
  nN[i] = nn;
}

template <int K>
__global__ void kmer_scan(const uint8_t *reads, unsigned query, int *hits, unsigned *minimizer, unsigned rows,
                          unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const unsigned mask = (1u << (2 * K)) - 1u;
    unsigned code = 0, best = 0xFFFFFFFFu;
    int valid = 0, h = 0;
    for (unsigned j = 0; j < n; j++) {
      uint8_t c = reads[i * n + j];
      unsigned b;
      if (c == 'A')
        b = 0;
      else if (c == 'C')
        b = 1;
      else if (c == 'G')
        b = 2;
      else if (c == 'T')
        b = 3;
      else {
        valid = 0;
        code = 0;
        continue;
      }
      code = ((code << 2) | b) & mask;
      if (++valid >= K) {
        if (code == query) h++;
        if (code < best) best = code;
      }
    }
    hits[i] = h;
    minimizer[i] = best;
  }
}

template <int L>
__global__ void revcomp_homopolymer(const uint8_t *reads, uint8_t *rc, int *longest, long long rows) {
  for (long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x; r < rows;
       r += (long long)blockDim.x * gridDim.x) {
    int best = 1, cur = 0;
    uint8_t prev = 0;
    for (long long j = L - 1; j >= 0; --j) {
      uint8_t c = reads[r * L + j];
      uint8_t m = c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : c == 'T' ? 'A' : 'N';
      rc[r * L + (L - 1 - j)] = m;
      if (c == prev) {
        if (++cur > best) best = cur;
      } else {
        cur = 1;
        prev = c;
      }
    }
    longest[r] = best;
  }
}

static uint8_t complement(uint8_t c) {
  switch (c) {
  case 'A': return 'T';
  case 'C': return 'G';
  case 'G': return 'C';
  case 'T': return 'A';
  default: return 'N';
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 524288);
  const size_t G = size_t(1) << 22;
  static const char kBase[4] = {'A', 'C', 'G', 'T'};

  // The genome: runs of one base, mostly of length 1, sometimes up to 12.
  std::vector<uint8_t> genome(G);
  for (size_t j = 0, run = 0; j < G; run++) {
    uint32_t h = hashAt(17201, run);
    size_t len = (h & 15u) == 0 ? 2 + (h >> 4) % 11u : 1;
    uint8_t b = uint8_t(kBase[(h >> 8) & 3u]);
    for (size_t k = 0; k < len && j < G; k++) genome[j++] = b;
  }
  // The query: the k-mer at a fixed place of the genome.
  unsigned query = 0;
  for (int k = 0; k < KMER; k++) query = (query << 2) | unsigned(std::find(kBase, kBase + 4, char(genome[123457 + k])) - kBase);

  // The reads: a substring at a random place, half reverse-complemented, and
  // 0..2 'N' in about one read of 4.
  const size_t bytes = size_t(rows) * READ_LEN;
  std::vector<uint8_t> reads(bytes);
  for (size_t i = 0; i < size_t(rows); i++) {
    uint32_t h = hashAt(17202, i);
    size_t at = h % uint32_t(G - READ_LEN);
    uint8_t *r = &reads[i * READ_LEN];
    if (hashAt(17203, i) & 1u)
      for (int j = 0; j < READ_LEN; j++) r[j] = complement(genome[at + READ_LEN - 1 - j]);
    else
      for (int j = 0; j < READ_LEN; j++) r[j] = genome[at + j];
    uint32_t hn = hashAt(17204, i);
    if ((hn & 3u) == 0) {
      int nn = int((hn >> 2) % 3u);
      for (int k = 0; k < nn; k++) r[hashAt(17205, i * 4 + k) % READ_LEN] = 'N';
    }
  }

  uint8_t *d_reads = toDevice(reads), *d_rc;
  CHECK(cudaMalloc(&d_rc, bytes));
  float *d_gc;
  int *d_nN, *d_hits, *d_longest;
  unsigned *d_min;
  CHECK(cudaMalloc(&d_gc, size_t(rows) * sizeof(float)));
  CHECK(cudaMalloc(&d_nN, size_t(rows) * sizeof(int)));
  CHECK(cudaMalloc(&d_hits, size_t(rows) * sizeof(int)));
  CHECK(cudaMalloc(&d_min, size_t(rows) * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_longest, size_t(rows) * sizeof(int)));
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  gc_content<<<blocksFor(rows, 64), 64>>>(d_reads, d_gc, d_nN, rows, READ_LEN);
  CHECK_LAUNCH();
  kmer_scan<KMER><<<blocksFor(rows, 192), 192>>>(d_reads, query, d_hits, d_min, unsigned(rows), READ_LEN);
  CHECK_LAUNCH();
  revcomp_homopolymer<READ_LEN><<<4 * sms, 512>>>(d_reads, d_rc, d_longest, (long long)rows);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> ggc = fromDevice(d_gc, size_t(rows));
  std::vector<int> gnN = fromDevice(d_nN, size_t(rows));
  std::vector<int> ghits = fromDevice(d_hits, size_t(rows));
  std::vector<unsigned> gmin = fromDevice(d_min, size_t(rows));
  std::vector<uint8_t> grc = fromDevice(d_rc, bytes);
  std::vector<int> glongest = fromDevice(d_longest, size_t(rows));

  std::vector<float> wgc(rows);
  std::vector<int> wnN(rows), whits(rows), wlongest(rows);
  std::vector<unsigned> wmin(rows);
  std::vector<uint8_t> wrc(bytes);
  int baseCode[256];
  for (int c = 0; c < 256; c++) baseCode[c] = -1;
  for (int k = 0; k < 4; k++) baseCode[uint8_t(kBase[k])] = k;
  for (size_t i = 0; i < size_t(rows); i++) {
    const uint8_t *r = &reads[i * READ_LEN];
    // (1)
    int g = 0, nn = 0;
    for (int j = 0; j < READ_LEN; j++) {
      g += r[j] == 'G' || r[j] == 'C';
      nn += r[j] == 'N';
    }
    wgc[i] = READ_LEN > nn ? float(g) / float(READ_LEN - nn) : 0.0f;
    wnN[i] = nn;
    // (2): window s is valid when the last 'N' lies before it; its code by a
    // table, the top bits shifted out.
    int h = 0, lastN = -1;
    unsigned best = 0xFFFFFFFFu, code = 0;
    for (int j = 0; j < READ_LEN; j++) {
      int b = baseCode[r[j]];
      if (b < 0) lastN = j;
      code = (code << 2 | unsigned(b & 3)) & ((1u << (2 * KMER)) - 1u);
      int s = j - KMER + 1;
      if (s >= 0 && lastN < s) {
        h += code == query;
        best = std::min(best, code);
      }
    }
    whits[i] = h;
    wmin[i] = best;
    // (3): the complement, reversed; runs by their ends.
    int longest = 0;
    for (int j = 0, start = 0; j < READ_LEN; j++) {
      wrc[i * READ_LEN + j] = complement(r[READ_LEN - 1 - j]);
      if (j + 1 == READ_LEN || r[j + 1] != r[j]) {
        longest = std::max(longest, j + 1 - start);
        start = j + 1;
      }
    }
    wlongest[i] = longest;
  }
  bool ok = checkExact("gc_content gc", ggc.data(), wgc.data(), size_t(rows));
  ok = checkExact("gc_content nN", gnN.data(), wnN.data(), size_t(rows)) && ok;
  ok = checkExact("kmer_scan hits", ghits.data(), whits.data(), size_t(rows)) && ok;
  ok = checkExact("kmer_scan minimizer", gmin.data(), wmin.data(), size_t(rows)) && ok;
  ok = checkExact("revcomp_homopolymer rc", grc.data(), wrc.data(), bytes) && ok;
  ok = checkExact("revcomp_homopolymer longest", glongest.data(), wlongest.data(), size_t(rows)) && ok;

  CHECK(cudaFree(d_reads));
  CHECK(cudaFree(d_rc));
  CHECK(cudaFree(d_gc));
  CHECK(cudaFree(d_nN));
  CHECK(cudaFree(d_hits));
  CHECK(cudaFree(d_min));
  CHECK(cudaFree(d_longest));
  return finish(ms, ok);
}
