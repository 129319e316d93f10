// h17_finance_rows: per-instrument statistics over rows of prices and
// trades, a thread per instrument. (1) returns_drawdown, ten years of daily
// closes (2521 prices a row, odd; a geometric random walk from 10..500):
// the log returns `r = logf(v / prev)` from j = 1 with their sum and sum of
// squares (mean and variance), the running peak and the maximum drawdown
// `(peak - v) / peak`, and an exponential moving average `ema = fmaf(alpha,
// v - ema, ema)`, written as a 16-byte struct `RowStats {mean, var, mdd,
// ema}`: float, `long long` i and j, the row length at run time, 8192
// instruments (79 MB), 96-thread blocks, early `return`; (2) vwap_rows, the
// volume-weighted average price of a day of trades, rows of the 8-byte
// struct `Trade {float price; int volume;}`, `pv += double(price) *
// volume` with an integer volume sum and the index of the largest trade:
// `size_t` grid-stride loop over rows launched with a thread per row
// (1024-thread blocks), the row length the `#define` VW_N (1500), 8192
// rows (94 MB); (3) quantile_hist, the 5% quantile bin (a historical VaR)
// of a row of `__half` daily returns: a 32-bin histogram in a per-thread
// `int h[32]` (dynamically indexed), then a cumulative walk over the bins
// with an early `break`: `int` i and j, the row length at run time (2048),
// 16384 rows (64 MB), 192-thread blocks, `if (i < rows)`. Sizes: r1 n1 r2
// r3 n3 (argv; VW_N is compile-time). Timed: the 3 launches. Checked: (1)
// the drawdown and the EMA exactly (one IEEE subtraction and division; an
// explicit fma on both sides), mean and variance rtol 1e-3 (floor 1e-4)
// against float on the host (`logf` differs in the last bits); (2) and (3)
// exactly (the double products of float x int are exact, the sums in the
// same order).
#include "../common.h"
#include <cuda_fp16.h>

#define VW_N 1500
#define QBINS 32

struct RowStats {
  float mean, var, mdd, ema;
};

struct Trade {
  float price;
  int volume;
};

__global__ void returns_drawdown(const float *px, RowStats *out, long long rows, long long n, float alpha) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float *p = px + i * n;
  float prev = p[0], peak = p[0], mdd = 0.0f, sr = 0.0f, sr2 = 0.0f, ema = p[0];
  for (long long j = 1; j < n; ++j) {
    float v = p[j];
    float r = logf(v / prev);
    sr += r;
    sr2 += r * r;
    if (v > peak) peak = v;
    float dd = (peak - v) / peak;
    if (dd > mdd) mdd = dd;
    ema = fmaf(alpha, v - ema, ema);
    prev = v;
  }
  RowStats s;
  s.mean = sr / float(n - 1);
  s.var = sr2 / float(n - 1) - s.mean * s.mean;
  s.mdd = mdd;
  s.ema = ema;
  out[i] = s;
}

__global__ void vwap_rows(const Trade *trades, double *vwap, long long *volume, int *biggest, size_t rows) {
  for (size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; r < rows; r += (size_t)blockDim.x * gridDim.x) {
    double pv = 0.0;
    long long vol = 0;
    int big = -1, bigv = -1;
    for (size_t j = 0; j < VW_N; ++j) {
      Trade t = trades[r * VW_N + j];
      pv += double(t.price) * t.volume;
      vol += t.volume;
      if (t.volume > bigv) {
        bigv = t.volume;
        big = int(j);
      }
    }
    vwap[r] = vol ? pv / double(vol) : 0.0;
    volume[r] = vol;
    biggest[r] = big;
  }
}

__global__ void quantile_hist(const __half *ret, int *qbin, int *tail, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int h[QBINS];
    for (int b = 0; b < QBINS; b++) h[b] = 0;
    for (int j = 0; j < n; j++) {
      float r = __half2float(ret[i * n + j]);
      int b = int((r + 0.08f) * 200.0f);
      b = b < 0 ? 0 : (b >= QBINS ? QBINS - 1 : b);
      h[b]++;
    }
    int target = (n * 5 + 99) / 100, cum = 0, q = QBINS - 1;
    for (int b = 0; b < QBINS; b++) {
      cum += h[b];
      if (cum >= target) {
        q = b;
        break;
      }
    }
    qbin[i] = q;
    tail[i] = cum;
  }
}

static float unitAt(uint64_t seed, size_t i) { return float(hashAt(seed, i) >> 8) * (1.0f / 16777216.0f); }

int main(int argc, char **argv) {
  const int r1 = argInt(argc, argv, 1, 8192);
  const int n1 = argInt(argc, argv, 2, 2521);
  const int r2 = argInt(argc, argv, 3, 8192);
  const int r3 = argInt(argc, argv, 4, 16384);
  const int n3 = argInt(argc, argv, 5, 2048);
  const float alpha = 2.0f / 21.0f;

  // (1) prices: p[j] = p[j-1] * (1 + 0.02*(u - 0.5 + drift)), from 10..500.
  const size_t e1 = size_t(r1) * n1;
  std::vector<float> px(e1);
  for (size_t i = 0; i < size_t(r1); i++) {
    float p = 10.0f + 490.0f * unitAt(17401, i);
    float drift = 0.02f * (unitAt(17402, i) - 0.5f);
    for (size_t j = 0; j < size_t(n1); j++) {
      px[i * n1 + j] = p;
      p = p * (1.0f + 0.02f * (unitAt(17403, i * n1 + j) - 0.5f + drift));
    }
  }

  // (2) trades: prices around a per-row level (+-1%), volumes 1..10000 with
  // a few blocks of up to 100000.
  const size_t e2 = size_t(r2) * VW_N;
  std::vector<Trade> tr(e2);
  for (size_t r = 0; r < size_t(r2); r++) {
    float level = 5.0f + 995.0f * unitAt(17404, r);
    for (size_t j = 0; j < VW_N; j++) {
      uint32_t h = hashAt(17405, r * VW_N + j);
      tr[r * VW_N + j].price = level * (0.99f + 0.02f * unitAt(17406, r * VW_N + j));
      tr[r * VW_N + j].volume = (h & 255u) == 0 ? 1 + int((h >> 8) % 100000u) : 1 + int((h >> 8) % 10000u);
    }
  }

  // (3) returns: a per-row volatility 0.004..0.03 times a sum of three
  // uniforms (about normal), as __half.
  const size_t e3 = size_t(r3) * n3;
  std::vector<__half> ret(e3);
  for (size_t i = 0; i < size_t(r3); i++) {
    float sigma = 0.004f + 0.026f * unitAt(17407, i);
    for (size_t j = 0; j < size_t(n3); j++) {
      size_t k = i * n3 + j;
      float z = 2.0f * (unitAt(17408, k) + unitAt(17409, k) + unitAt(17410, k) - 1.5f);
      ret[k] = __float2half_rn(sigma * z);
    }
  }

  float *d_px = toDevice(px);
  RowStats *d_stats;
  CHECK(cudaMalloc(&d_stats, size_t(r1) * sizeof(RowStats)));
  Trade *d_tr = toDevice(tr);
  double *d_vwap;
  long long *d_vol;
  int *d_big;
  CHECK(cudaMalloc(&d_vwap, size_t(r2) * sizeof(double)));
  CHECK(cudaMalloc(&d_vol, size_t(r2) * sizeof(long long)));
  CHECK(cudaMalloc(&d_big, size_t(r2) * sizeof(int)));
  __half *d_ret = toDevice(ret);
  int *d_qbin, *d_tail;
  CHECK(cudaMalloc(&d_qbin, size_t(r3) * sizeof(int)));
  CHECK(cudaMalloc(&d_tail, size_t(r3) * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  returns_drawdown<<<blocksFor(r1, 96), 96>>>(d_px, d_stats, (long long)r1, (long long)n1, alpha);
  CHECK_LAUNCH();
  vwap_rows<<<blocksFor(r2, 1024), 1024>>>(d_tr, d_vwap, d_vol, d_big, size_t(r2));
  CHECK_LAUNCH();
  quantile_hist<<<blocksFor(r3, 192), 192>>>(d_ret, d_qbin, d_tail, r3, n3);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<RowStats> gstats = fromDevice(d_stats, size_t(r1));
  std::vector<double> gvwap = fromDevice(d_vwap, size_t(r2));
  std::vector<long long> gvol = fromDevice(d_vol, size_t(r2));
  std::vector<int> gbig = fromDevice(d_big, size_t(r2));
  std::vector<int> gqbin = fromDevice(d_qbin, size_t(r3));
  std::vector<int> gtail = fromDevice(d_tail, size_t(r3));

  // (1): peaks as the running maximum of the prefix; float on the host.
  std::vector<float> gmean(r1), gvar(r1), gmdd(r1), gema(r1), wmean(r1), wvar(r1), wmdd(r1), wema(r1);
  for (size_t i = 0; i < size_t(r1); i++) {
    const float *p = &px[i * n1];
    float sr = 0.0f, sr2 = 0.0f, mdd = 0.0f, peak = p[0], ema = p[0];
    for (int j = 1; j < n1; j++) {
      float r = std::log(p[j] / p[j - 1]);
      sr += r;
      sr2 += r * r;
      peak = std::max(peak, p[j]);
      mdd = std::max(mdd, (peak - p[j]) / peak);
      ema = std::fma(alpha, p[j] - ema, ema);
    }
    wmean[i] = sr / float(n1 - 1);
    wvar[i] = sr2 / float(n1 - 1) - wmean[i] * wmean[i];
    wmdd[i] = mdd;
    wema[i] = ema;
    gmean[i] = gstats[i].mean;
    gvar[i] = gstats[i].var;
    gmdd[i] = gstats[i].mdd;
    gema[i] = gstats[i].ema;
  }
  bool ok = checkFloats("returns_drawdown mean", gmean.data(), wmean.data(), size_t(r1), 1e-3, 1e-4);
  ok = checkFloats("returns_drawdown var", gvar.data(), wvar.data(), size_t(r1), 1e-3, 1e-4) && ok;
  ok = checkExact("returns_drawdown mdd", gmdd.data(), wmdd.data(), size_t(r1)) && ok;
  ok = checkExact("returns_drawdown ema", gema.data(), wema.data(), size_t(r1)) && ok;

  // (2)
  std::vector<double> wvwap(r2);
  std::vector<long long> wvol(r2);
  std::vector<int> wbig(r2);
  for (size_t r = 0; r < size_t(r2); r++) {
    const Trade *row = &tr[r * VW_N];
    double pv = 0.0;
    long long vol = 0;
    int big = 0;
    for (int j = 0; j < VW_N; j++) {
      pv += double(row[j].price) * double(row[j].volume);
      vol += row[j].volume;
      if (row[j].volume > row[big].volume) big = j;
    }
    wvwap[r] = vol ? pv / double(vol) : 0.0;
    wvol[r] = vol;
    wbig[r] = big;
  }
  ok = checkExact("vwap_rows vwap", gvwap.data(), wvwap.data(), size_t(r2)) && ok;
  ok = checkExact("vwap_rows volume", gvol.data(), wvol.data(), size_t(r2)) && ok;
  ok = checkExact("vwap_rows biggest", gbig.data(), wbig.data(), size_t(r2)) && ok;

  // (3): the bin of the ceil(5% of n)-th smallest return, by counting the
  // returns in the bins up to each bin.
  std::vector<int> wqbin(r3), wtail(r3), bins(n3);
  for (size_t i = 0; i < size_t(r3); i++) {
    for (int j = 0; j < n3; j++) {
      float r = __half2float(ret[i * n3 + j]);
      int b = int((r + 0.08f) * 200.0f);
      bins[j] = std::min(std::max(b, 0), QBINS - 1);
    }
    const int target = (n3 * 5 + 99) / 100;
    int q = QBINS - 1, cum = n3;
    for (int b = 0; b < QBINS; b++) {
      int c = 0;
      for (int j = 0; j < n3; j++) c += bins[j] <= b;
      if (c >= target) {
        q = b;
        cum = c;
        break;
      }
    }
    wqbin[i] = q;
    wtail[i] = cum;
  }
  ok = checkExact("quantile_hist bin", gqbin.data(), wqbin.data(), size_t(r3)) && ok;
  ok = checkExact("quantile_hist tail", gtail.data(), wtail.data(), size_t(r3)) && ok;

  CHECK(cudaFree(d_px));
  CHECK(cudaFree(d_stats));
  CHECK(cudaFree(d_tr));
  CHECK(cudaFree(d_vwap));
  CHECK(cudaFree(d_vol));
  CHECK(cudaFree(d_big));
  CHECK(cudaFree(d_ret));
  CHECK(cudaFree(d_qbin));
  CHECK(cudaFree(d_tail));
  return finish(ms, ok);
}
