// h17_text_rows: log processing over fixed-width text records, a thread per
// record. The records are CSV log lines padded with spaces to REC_W (181,
// odd) bytes and ended by '\n': "<10-digit time>,<LEVEL>,<code>,<user>,
// <message with commas, digits, sometimes '#'>". (1) parse_fields, counts
// the fields and parses field 2 (the status code, an optional '-' and 1..7
// digits) digit by digit, `val = val*10 + (c - '0')`: uint8 bytes, `int` i
// and j, the record length at run time, 128-thread blocks, `if (i <
// rows)`; (2) find_char, the position of the first '#' (a comment marker)
// or -1: `unsigned` i, the length the `#define` REC_W, a pointer walk
// `while (p != end) { if (*p == key) { ...; break; } ++p; }`, 256-thread
// blocks, early `return`; (3) crc32_rows, the CRC-32 (reflected,
// 0xEDB88320) of each whole record, bit by bit: `size_t` grid-stride loop
// over records (256 blocks of 512 threads, 4 records a thread), the byte
// loop `#pragma unroll 1`, the 8-step bit loop unrolled. 524288 records
// (91 MB), read by all three kernels. Sizes: records (argv; REC_W is
// compile-time). Timed: the 3 launches. Checked: all exactly (the CRC
// against a table-driven CRC-32 on the host).
#include "../common.h"

#define REC_W 181
#define CODE_FIELD 2

__global__ void parse_fields(const uint8_t *rec, int *nfields, int *code, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int fields = 1, f = 0, val = 0;
    bool neg = false;
    for (int j = 0; j < n; j++) {
      uint8_t c = rec[i * n + j];
      if (c == ',') {
        fields++;
        f++;
      } else if (f == CODE_FIELD) {
        if (c == '-')
          neg = true;
        else if (c >= '0' && c <= '9')
          val = val * 10 + (c - '0');
      }
    }
    nfields[i] = fields;
    code[i] = neg ? -val : val;
  }
}

__global__ void find_char(const uint8_t *rec, int *first, unsigned rows, uint8_t key) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const uint8_t *start = rec + (size_t)i * REC_W;
  const uint8_t *p = start, *end = start + REC_W;
  int pos = -1;
  while (p != end) {
    if (*p == key) {
      pos = int(p - start);
      break;
    }
    ++p;
  }
  first[i] = pos;
}

__global__ void crc32_rows(const uint8_t *rec, unsigned *crc, size_t rows, size_t n) {
  for (size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; r < rows; r += (size_t)blockDim.x * gridDim.x) {
    const uint8_t *row = rec + r * n;
    unsigned c = 0xFFFFFFFFu;
#pragma unroll 1
    for (size_t j = 0; j < n; ++j) {
      c ^= row[j];
      for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    crc[r] = ~c;
  }
}

static const char *kLevels[4] = {"INFO", "WARN", "ERROR", "DEBUG"};
static const char kAlpha[] = "abcdefghijklmnopqrstuvwxyzeeeaaoo   ==::,,,0123456789";

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 524288);
  const size_t bytes = size_t(rows) * REC_W;

  std::vector<uint8_t> rec(bytes);
  std::vector<int> wcode(rows);
  for (size_t i = 0; i < size_t(rows); i++) {
    uint8_t *r = &rec[i * REC_W];
    int pos = 0;
    auto put = [&](char ch) {
      if (pos < REC_W - 1) r[pos++] = uint8_t(ch);
    };
    auto putNum = [&](uint32_t v) {
      char d[12];
      int k = 0;
      do d[k++] = char('0' + v % 10), v /= 10;
      while (v);
      while (k) put(d[--k]);
    };
    uint32_t h0 = hashAt(17101, i), h1 = hashAt(17102, i);
    putNum(1600000000u + h0 % 100000000u);
    put(',');
    for (const char *s = kLevels[h1 & 3u]; *s; ++s) put(*s);
    put(',');
    // the code: 1..7 digits, negative one record in 8
    uint32_t digits = 1 + (h1 >> 2) % 7u, v = 0;
    for (uint32_t k = 0; k < digits; k++) v = v * 10 + (k == 0 ? 1 + hashAt(17103, i * 8 + k) % 9u : hashAt(17103, i * 8 + k) % 10u);
    if (((h1 >> 5) & 7u) == 0) put('-');
    putNum(v);
    wcode[i] = (((h1 >> 5) & 7u) == 0) ? -int(v) : int(v);
    put(',');
    put('u');
    putNum((h1 >> 8) % 100000u);
    put(',');
    // the message: random text, about 1 comma in 20 characters; a '#' at a
    // random place in about 2 records of 5
    const int msgLen = 40 + int(hashAt(17104, i) % 120u);
    const int hashPos = (hashAt(17105, i) % 5u) < 2 ? int(hashAt(17106, i) % 200u) : -1;
    for (int k = 0; k < msgLen; k++) {
      if (k == hashPos) {
        put('#');
        continue;
      }
      put(kAlpha[hashAt(17107, i * 256 + k) % (sizeof(kAlpha) - 1)]);
    }
    while (pos < REC_W - 1) r[pos++] = ' ';
    r[REC_W - 1] = '\n';
  }

  uint8_t *d_rec = toDevice(rec);
  int *d_nfields, *d_code, *d_first;
  unsigned *d_crc;
  CHECK(cudaMalloc(&d_nfields, size_t(rows) * sizeof(int)));
  CHECK(cudaMalloc(&d_code, size_t(rows) * sizeof(int)));
  CHECK(cudaMalloc(&d_first, size_t(rows) * sizeof(int)));
  CHECK(cudaMalloc(&d_crc, size_t(rows) * sizeof(unsigned)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  parse_fields<<<blocksFor(rows, 128), 128>>>(d_rec, d_nfields, d_code, rows, REC_W);
  CHECK_LAUNCH();
  find_char<<<blocksFor(rows, 256), 256>>>(d_rec, d_first, unsigned(rows), uint8_t('#'));
  CHECK_LAUNCH();
  crc32_rows<<<256, 512>>>(d_rec, d_crc, size_t(rows), size_t(REC_W));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> gnfields = fromDevice(d_nfields, size_t(rows));
  std::vector<int> gcode = fromDevice(d_code, size_t(rows));
  std::vector<int> gfirst = fromDevice(d_first, size_t(rows));
  std::vector<unsigned> gcrc = fromDevice(d_crc, size_t(rows));

  // (1) the field count by counting commas; the code as generated.
  std::vector<int> wnfields(rows), wfirst(rows);
  std::vector<unsigned> wcrc(rows);
  unsigned table[256];
  for (unsigned b = 0; b < 256; b++) {
    unsigned c = b;
    for (int k = 0; k < 8; k++) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    table[b] = c;
  }
  for (size_t i = 0; i < size_t(rows); i++) {
    const uint8_t *r = &rec[i * REC_W];
    int commas = 0, first = -1;
    unsigned c = 0xFFFFFFFFu;
    for (int j = 0; j < REC_W; j++) {
      commas += r[j] == ',';
      if (first < 0 && r[j] == '#') first = j;
      c = table[(c ^ r[j]) & 0xFFu] ^ (c >> 8);
    }
    wnfields[i] = commas + 1;
    wfirst[i] = first;
    wcrc[i] = ~c;
  }
  bool ok = checkExact("parse_fields nfields", gnfields.data(), wnfields.data(), size_t(rows));
  ok = checkExact("parse_fields code", gcode.data(), wcode.data(), size_t(rows)) && ok;
  ok = checkExact("find_char", gfirst.data(), wfirst.data(), size_t(rows)) && ok;
  ok = checkExact("crc32_rows", gcrc.data(), wcrc.data(), size_t(rows)) && ok;

  CHECK(cudaFree(d_rec));
  CHECK(cudaFree(d_nfields));
  CHECK(cudaFree(d_code));
  CHECK(cudaFree(d_first));
  CHECK(cudaFree(d_crc));
  return finish(ms, ok);
}
