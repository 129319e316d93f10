// h17_signal_rows: per-channel filters and detectors over rows of samples,
// a thread per channel, the filter state carried from sample to sample.
// (1) biquad_rows, a second-order IIR section (transposed direct form II)
// per channel, the coefficients a struct `Biquad {b0, b1, b2, a1, a2}` per
// channel (RBJ low-pass designs, cut-off 0.02..0.2 of the rate), `y = b0*x
// + z1; z1 = b1*x - a1*y + z2; z2 = b2*x - a2*y;`, the output row written:
// float, `int` i and j, the row length at run time (2001, odd), 8192
// channels (63 MB in, 63 MB out), 256-thread blocks, `if (i < rows)`; (2)
// dcblock_energy, a DC-blocking IIR `y = x - xprev + R*yprev` in double,
// the loop from j = 1, the energy `e += y*y` and the last output per
// channel: `size_t` grid-stride loop over channels (512-thread blocks, 2
// channels a thread), the length the `#define` DC_N (2048), 4096 channels
// (64 MB); (3) zc_peaks, zero crossings and peaks with hysteresis of 16-bit
// ADC samples (a triangle wave per channel plus noise): a pointer walk
// `for (const short *p = row + 1; p < row + n; ++p)`, a sign-change count,
// and an armed / disarmed detector (`v > hi` counts a peak and arms, `v <
// lo` disarms) with the first peak's position, written as a 12-byte struct
// `ChanStats {zc, peaks, first_peak}`: `unsigned` i, the row length at run
// time (4093, odd), 16384 channels (128 MB), 128-thread blocks, `if (i <
// rows)`. Sizes: c1 n1 c2 c3 n3 (argv; DC_N is compile-time). Timed: the 3
// launches. Checked: (1) against the same float recurrence on the host,
// rtol 1e-4 (floor 0.1); (2) the same double recurrence, rtol 1e-9 (floor
// 1); (3) exactly.
#include "../common.h"

#define DC_N 2048

struct Biquad {
  float b0, b1, b2, a1, a2;
};

struct ChanStats {
  int zc, peaks, first_peak;
};

__global__ void biquad_rows(const float *x, float *y, const Biquad *coef, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    Biquad q = coef[i];
    float z1 = 0.0f, z2 = 0.0f;
    for (int j = 0; j < n; j++) {
      float xv = x[i * n + j];
      float yv = q.b0 * xv + z1;
      z1 = q.b1 * xv - q.a1 * yv + z2;
      z2 = q.b2 * xv - q.a2 * yv;
      y[i * n + j] = yv;
    }
  }
}

__global__ void dcblock_energy(const double *x, double *energy, double *last, size_t rows, double R) {
  for (size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; r < rows; r += (size_t)blockDim.x * gridDim.x) {
    double xp = x[r * DC_N], yp = 0.0, e = 0.0;
    for (size_t j = 1; j < DC_N; ++j) {
      double xv = x[r * DC_N + j];
      double yv = xv - xp + R * yp;
      e += yv * yv;
      xp = xv;
      yp = yv;
    }
    energy[r] = e;
    last[r] = yp;
  }
}

__global__ void zc_peaks(const short *s, ChanStats *out, unsigned rows, unsigned n, short hi, short lo) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const short *row = s + (size_t)i * n;
    short prev = row[0];
    int zc = 0, peaks = 0, first = -1;
    bool armed = prev > hi;
    for (const short *p = row + 1; p < row + n; ++p) {
      short v = *p;
      if ((v < 0) != (prev < 0)) zc++;
      if (!armed) {
        if (v > hi) {
          armed = true;
          peaks++;
          if (first < 0) first = int(p - row);
        }
      } else if (v < lo) {
        armed = false;
      }
      prev = v;
    }
    ChanStats st;
    st.zc = zc;
    st.peaks = peaks;
    st.first_peak = first;
    out[i] = st;
  }
}

static bool checkDoubles(const char *what, const double *got, const double *want, size_t n, double rtol,
                         double floor) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (!closeEnough(got[i], want[i], rtol, floor)) {
      if (!bad) first = i;
      ++bad;
    }
  if (bad)
    std::fprintf(stderr, "%s: %zu of %zu differ; first at %zu: got %.17g want %.17g\n", what, bad, n, first,
                 got[first], want[first]);
  return bad == 0;
}

int main(int argc, char **argv) {
  const int c1 = argInt(argc, argv, 1, 8192);
  const int n1 = argInt(argc, argv, 2, 2001);
  const int c2 = argInt(argc, argv, 3, 4096);
  const int c3 = argInt(argc, argv, 4, 16384);
  const int n3 = argInt(argc, argv, 5, 4093);
  const double R = 0.995;
  const short hi = 6000, lo = -2000;

  // (1) white noise in [-1, 1) and an RBJ low-pass per channel.
  const size_t e1 = size_t(c1) * n1;
  std::vector<float> x1(e1);
  fillFloats(x1, 17301, -1.0f, 1.0f);
  std::vector<Biquad> bq(c1);
  for (int i = 0; i < c1; i++) {
    double fc = 0.02 + 0.18 * (hashAt(17302, i) >> 8) * (1.0 / 16777216.0);
    double w = 2.0 * 3.14159265358979323846 * fc, cw = std::cos(w), al = std::sin(w) / (2.0 * 0.7071);
    double a0 = 1.0 + al;
    bq[i].b0 = float((1.0 - cw) / 2.0 / a0);
    bq[i].b1 = float((1.0 - cw) / a0);
    bq[i].b2 = bq[i].b0;
    bq[i].a1 = float(-2.0 * cw / a0);
    bq[i].a2 = float((1.0 - al) / a0);
  }

  // (2) a DC offset 0.5..5 per channel plus noise +-0.25.
  const size_t e2 = size_t(c2) * DC_N;
  std::vector<double> x2(e2);
  for (size_t r = 0; r < size_t(c2); r++) {
    double dc = 0.5 + 4.5 * (hashAt(17303, r) >> 8) * (1.0 / 16777216.0);
    for (size_t j = 0; j < DC_N; j++)
      x2[r * DC_N + j] = dc + 0.5 * ((hashAt(17304, r * DC_N + j) >> 8) * (1.0 / 16777216.0) - 0.5);
  }

  // (3) a triangle wave of period 40..400 and amplitude 3000..20000 per
  // channel, a DC offset of -500..500, noise +-amplitude/8.
  const size_t e3 = size_t(c3) * n3;
  std::vector<short> x3(e3);
  for (size_t r = 0; r < size_t(c3); r++) {
    uint32_t h = hashAt(17305, r);
    int period = 40 + int(h % 361u), amp = 3000 + int((h >> 9) % 17001u), dc = int((h >> 3) % 1001u) - 500;
    int phase = int(hashAt(17306, r) % uint32_t(period));
    for (size_t j = 0; j < size_t(n3); j++) {
      int t = int((j + phase) % period);
      int tri = t < period / 2 ? -amp + 4 * amp * t / period : 3 * amp - 4 * amp * t / period;
      int noise = int(hashAt(17307, r * n3 + j) % uint32_t(amp / 4 + 1)) - amp / 8;
      int v = dc + tri + noise;
      x3[r * n3 + j] = short(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
    }
  }

  float *d_x1 = toDevice(x1), *d_y1;
  CHECK(cudaMalloc(&d_y1, e1 * sizeof(float)));
  Biquad *d_bq = toDevice(bq);
  double *d_x2 = toDevice(x2), *d_energy, *d_last;
  CHECK(cudaMalloc(&d_energy, size_t(c2) * sizeof(double)));
  CHECK(cudaMalloc(&d_last, size_t(c2) * sizeof(double)));
  short *d_x3 = toDevice(x3);
  ChanStats *d_st;
  CHECK(cudaMalloc(&d_st, size_t(c3) * sizeof(ChanStats)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  biquad_rows<<<blocksFor(c1, 256), 256>>>(d_x1, d_y1, d_bq, c1, n1);
  CHECK_LAUNCH();
  dcblock_energy<<<blocksFor(c2, 1024), 512>>>(d_x2, d_energy, d_last, size_t(c2), R);
  CHECK_LAUNCH();
  zc_peaks<<<blocksFor(c3, 128), 128>>>(d_x3, d_st, unsigned(c3), unsigned(n3), hi, lo);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gy1 = fromDevice(d_y1, e1);
  std::vector<double> genergy = fromDevice(d_energy, size_t(c2));
  std::vector<double> glast = fromDevice(d_last, size_t(c2));
  std::vector<ChanStats> gst = fromDevice(d_st, size_t(c3));

  // (1): the same recurrence in float (no contraction on the host).
  std::vector<float> wy1(e1);
  for (size_t i = 0; i < size_t(c1); i++) {
    const Biquad q = bq[i];
    float z1 = 0.0f, z2 = 0.0f;
    for (size_t j = 0; j < size_t(n1); j++) {
      float xv = x1[i * n1 + j];
      float yv = q.b0 * xv + z1;
      z1 = q.b1 * xv - q.a1 * yv + z2;
      z2 = q.b2 * xv - q.a2 * yv;
      wy1[i * n1 + j] = yv;
    }
  }
  bool ok = checkFloats("biquad_rows", gy1.data(), wy1.data(), e1, 1e-4, 0.1);

  // (2)
  std::vector<double> wenergy(c2), wlast(c2);
  for (size_t r = 0; r < size_t(c2); r++) {
    const double *xr = &x2[r * DC_N];
    double yp = 0.0, e = 0.0;
    for (size_t j = 1; j < DC_N; j++) {
      yp = (xr[j] - xr[j - 1]) + R * yp;
      e += yp * yp;
    }
    wenergy[r] = e;
    wlast[r] = yp;
  }
  ok = checkDoubles("dcblock_energy energy", genergy.data(), wenergy.data(), size_t(c2), 1e-9, 1.0) && ok;
  ok = checkDoubles("dcblock_energy last", glast.data(), wlast.data(), size_t(c2), 1e-9, 1.0) && ok;

  // (3): crossings as sign changes of neighbours; the detector as a
  // two-state machine over indices.
  std::vector<int> gzc(c3), gpk(c3), gfp(c3), wzc(c3), wpk(c3), wfp(c3);
  for (size_t r = 0; r < size_t(c3); r++) {
    const short *row = &x3[r * n3];
    int zc = 0, pk = 0, fp = -1, state = row[0] > hi ? 1 : 0;
    for (int j = 1; j < n3; j++) {
      zc += (row[j] < 0) ^ (row[j - 1] < 0);
      if (state == 0 && row[j] > hi) {
        state = 1;
        if (pk++ == 0) fp = j;
      } else if (state == 1 && row[j] < lo) {
        state = 0;
      }
    }
    wzc[r] = zc;
    wpk[r] = pk;
    wfp[r] = fp;
    gzc[r] = gst[r].zc;
    gpk[r] = gst[r].peaks;
    gfp[r] = gst[r].first_peak;
  }
  ok = checkExact("zc_peaks zc", gzc.data(), wzc.data(), size_t(c3)) && ok;
  ok = checkExact("zc_peaks peaks", gpk.data(), wpk.data(), size_t(c3)) && ok;
  ok = checkExact("zc_peaks first_peak", gfp.data(), wfp.data(), size_t(c3)) && ok;

  CHECK(cudaFree(d_x1));
  CHECK(cudaFree(d_y1));
  CHECK(cudaFree(d_bq));
  CHECK(cudaFree(d_x2));
  CHECK(cudaFree(d_energy));
  CHECK(cudaFree(d_last));
  CHECK(cudaFree(d_x3));
  CHECK(cudaFree(d_st));
  return finish(ms, ok);
}
