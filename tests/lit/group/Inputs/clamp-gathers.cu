// A 5-point stencil whose neighbours are clamped at the border by selects
// (`r == 0 ? idx : idx - cols`), the held-out hotspot step of
// bench/programs/heldout6/h6_hotspot_transpose.cu in 16 x 16 blocks: its
// gathers are path-dependent (a select between two addresses) beside
// coalesced 4-byte words, and group's clone merged along y ran that program
// 0.87x (H200), so it is refused (tests/lit/group/index-gathers.test).
// nvcc -arch=sm_90 -O3 -ptx clamp-gathers.cu -o clamp-gathers.ptx (nvcc 13.0)
#define BLOCK_SIZE 16
extern "C" __global__ void hotspot_step(const float *power, const float *temp_src, float *temp_dst, int rows,
                                        int cols, float step_div_cap, float Rx_1, float Ry_1, float Rz_1,
                                        float amb_temp) {
  int c = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  int r = blockIdx.y * BLOCK_SIZE + threadIdx.y;
  if (r >= rows || c >= cols) return;
  int idx = r * cols + c;
  int N = (r == 0) ? idx : idx - cols;
  int S = (r == rows - 1) ? idx : idx + cols;
  int W = (c == 0) ? idx : idx - 1;
  int E = (c == cols - 1) ? idx : idx + 1;
  float t = temp_src[idx];
  temp_dst[idx] = t + step_div_cap * (power[idx] + (temp_src[S] + temp_src[N] - 2.0f * t) * Ry_1 +
                                      (temp_src[E] + temp_src[W] - 2.0f * t) * Rx_1 + (amb_temp - t) * Rz_1);
}
