// h8_cfd_md_neighbors: neighbour-list kernels with the lists stored one
// element a row, on two created streams. Stream 1: (1) Rodinia cfd's
// compute_flux (euler3d: velocity, pressure, speed of sound, artificial
// viscosity, wing (-1) and far-field (-2) boundaries) with the arrays of
// structures a user would write first: `variables[i*NVAR + v]` (NVAR = 5),
// `elements_surrounding_elements[i*NNB + j]` (NNB = 4), `normals[(i*NNB +
// j)*NDIM + d]`, `int` indices, the far field passed as a struct argument;
// (2) Rodinia cfd's time_step in the same layout, `factor =
// step_factors[i] / float(RK + 1 - j)`, `variables[i*NVAR + v] =
// old_variables[i*NVAR + v] + factor * fluxes[i*NVAR + v]` (j = 0, RK = 3);
// nelr = 2000000 elements (normals 96 MB, variables and fluxes 40 MB each,
// neighbours 32 MB), blocks of 192. Stream 2: (3) SHOC md's Lennard-Jones
// force with the neighbour list row-major, `neighList[idx*neighCount + j]`,
// `unsigned` idx, a `while (j < neighCount)` loop, float4 positions
// gathered, the cutoff test inside the loop, float3 forces; 300000 atoms x
// 64 neighbours (77 MB), atoms on a jittered lattice (no two closer than
// 0.6), blocks of 128. Timed: the three launches (both streams synchronized
// before the stop event). Checked: (1) rtol 1e-3 with a floor of 1e-2 of the
// largest |flux| (the reference is the same inline code compiled for the
// host, without fma contraction); (2) exactly (fmaf), from the device's
// fluxes; (3) exactly (fmaf in the device's order: r2 = fma(delz, delz,
// fma(delx, delx, dely*dely)) in the PTX; lj1*r6inv - lj2 a mul + sub in
// the PTX that ptxas contracts to fma(lj1, r6inv, -lj2); rcp.rn).
#include "../common.h"

#define GAMMA 1.4f
#define NDIM 3
#define NNB 4
#define RK 3
#define NVAR 5
#define VAR_DENSITY 0
#define VAR_MOMENTUM 1
#define VAR_DENSITY_ENERGY 4
#define ff_mach 1.2f

struct FarField {
  float var[NVAR];
  float3 fc_mx, fc_my, fc_mz, fc_de;
};

__host__ __device__ inline void compute_velocity(float density, float3 momentum, float3 &velocity) {
  velocity.x = momentum.x / density;
  velocity.y = momentum.y / density;
  velocity.z = momentum.z / density;
}

__host__ __device__ inline float compute_speed_sqd(float3 v) { return v.x * v.x + v.y * v.y + v.z * v.z; }

__host__ __device__ inline float compute_pressure(float density, float density_energy, float speed_sqd) {
  return (GAMMA - 1.0f) * (density_energy - 0.5f * density * speed_sqd);
}

__host__ __device__ inline float compute_speed_of_sound(float density, float pressure) {
  return sqrtf(GAMMA * pressure / density);
}

__host__ __device__ inline void compute_flux_contribution(float density_energy, float pressure, float3 momentum,
                                                          float3 velocity, float3 &fc_mx, float3 &fc_my,
                                                          float3 &fc_mz, float3 &fc_de) {
  fc_mx.x = velocity.x * momentum.x + pressure;
  fc_mx.y = velocity.x * momentum.y;
  fc_mx.z = velocity.x * momentum.z;
  fc_my.x = fc_mx.y;
  fc_my.y = velocity.y * momentum.y + pressure;
  fc_my.z = velocity.y * momentum.z;
  fc_mz.x = fc_mx.z;
  fc_mz.y = fc_my.z;
  fc_mz.z = velocity.z * momentum.z + pressure;
  float de_p = density_energy + pressure;
  fc_de.x = velocity.x * de_p;
  fc_de.y = velocity.y * de_p;
  fc_de.z = velocity.z * de_p;
}

__host__ __device__ inline void flux_element(int i, const int *esn, const float *normals, const float *variables,
                                             float *fluxes, const FarField &ff) {
  const float smoothing_coefficient = 0.2f;
  float density_i = variables[i * NVAR + VAR_DENSITY];
  float3 momentum_i = make_float3(variables[i * NVAR + VAR_MOMENTUM + 0], variables[i * NVAR + VAR_MOMENTUM + 1],
                                  variables[i * NVAR + VAR_MOMENTUM + 2]);
  float density_energy_i = variables[i * NVAR + VAR_DENSITY_ENERGY];
  float3 velocity_i;
  compute_velocity(density_i, momentum_i, velocity_i);
  float speed_sqd_i = compute_speed_sqd(velocity_i);
  float speed_i = sqrtf(speed_sqd_i);
  float pressure_i = compute_pressure(density_i, density_energy_i, speed_sqd_i);
  float speed_of_sound_i = compute_speed_of_sound(density_i, pressure_i);
  float3 fci_mx, fci_my, fci_mz, fci_de;
  compute_flux_contribution(density_energy_i, pressure_i, momentum_i, velocity_i, fci_mx, fci_my, fci_mz, fci_de);

  float flux_i_density = 0.0f, flux_i_density_energy = 0.0f;
  float3 flux_i_momentum = make_float3(0.0f, 0.0f, 0.0f);
  for (int j = 0; j < NNB; j++) {
    int nb = esn[i * NNB + j];
    float3 normal = make_float3(normals[(i * NNB + j) * NDIM + 0], normals[(i * NNB + j) * NDIM + 1],
                                normals[(i * NNB + j) * NDIM + 2]);
    float normal_len = sqrtf(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);
    if (nb >= 0) {
      float density_nb = variables[nb * NVAR + VAR_DENSITY];
      float3 momentum_nb = make_float3(variables[nb * NVAR + VAR_MOMENTUM + 0], variables[nb * NVAR + VAR_MOMENTUM + 1],
                                       variables[nb * NVAR + VAR_MOMENTUM + 2]);
      float density_energy_nb = variables[nb * NVAR + VAR_DENSITY_ENERGY];
      float3 velocity_nb;
      compute_velocity(density_nb, momentum_nb, velocity_nb);
      float speed_sqd_nb = compute_speed_sqd(velocity_nb);
      float pressure_nb = compute_pressure(density_nb, density_energy_nb, speed_sqd_nb);
      float speed_of_sound_nb = compute_speed_of_sound(density_nb, pressure_nb);
      float3 fcn_mx, fcn_my, fcn_mz, fcn_de;
      compute_flux_contribution(density_energy_nb, pressure_nb, momentum_nb, velocity_nb, fcn_mx, fcn_my, fcn_mz,
                                fcn_de);
      // artificial viscosity
      float factor = -normal_len * smoothing_coefficient * 0.5f *
                     (speed_i + sqrtf(speed_sqd_nb) + speed_of_sound_i + speed_of_sound_nb);
      flux_i_density += factor * (density_i - density_nb);
      flux_i_density_energy += factor * (density_energy_i - density_energy_nb);
      flux_i_momentum.x += factor * (momentum_i.x - momentum_nb.x);
      flux_i_momentum.y += factor * (momentum_i.y - momentum_nb.y);
      flux_i_momentum.z += factor * (momentum_i.z - momentum_nb.z);
      // accumulate cell-centered fluxes
      factor = 0.5f * normal.x;
      flux_i_density += factor * (momentum_nb.x + momentum_i.x);
      flux_i_density_energy += factor * (fcn_de.x + fci_de.x);
      flux_i_momentum.x += factor * (fcn_mx.x + fci_mx.x);
      flux_i_momentum.y += factor * (fcn_my.x + fci_my.x);
      flux_i_momentum.z += factor * (fcn_mz.x + fci_mz.x);
      factor = 0.5f * normal.y;
      flux_i_density += factor * (momentum_nb.y + momentum_i.y);
      flux_i_density_energy += factor * (fcn_de.y + fci_de.y);
      flux_i_momentum.x += factor * (fcn_mx.y + fci_mx.y);
      flux_i_momentum.y += factor * (fcn_my.y + fci_my.y);
      flux_i_momentum.z += factor * (fcn_mz.y + fci_mz.y);
      factor = 0.5f * normal.z;
      flux_i_density += factor * (momentum_nb.z + momentum_i.z);
      flux_i_density_energy += factor * (fcn_de.z + fci_de.z);
      flux_i_momentum.x += factor * (fcn_mx.z + fci_mx.z);
      flux_i_momentum.y += factor * (fcn_my.z + fci_my.z);
      flux_i_momentum.z += factor * (fcn_mz.z + fci_mz.z);
    } else if (nb == -1) {  // a wing boundary
      flux_i_momentum.x += normal.x * pressure_i;
      flux_i_momentum.y += normal.y * pressure_i;
      flux_i_momentum.z += normal.z * pressure_i;
    } else if (nb == -2) {  // a far field boundary
      float factor = 0.5f * normal.x;
      flux_i_density += factor * (ff.var[VAR_MOMENTUM + 0] + momentum_i.x);
      flux_i_density_energy += factor * (ff.fc_de.x + fci_de.x);
      flux_i_momentum.x += factor * (ff.fc_mx.x + fci_mx.x);
      flux_i_momentum.y += factor * (ff.fc_my.x + fci_my.x);
      flux_i_momentum.z += factor * (ff.fc_mz.x + fci_mz.x);
      factor = 0.5f * normal.y;
      flux_i_density += factor * (ff.var[VAR_MOMENTUM + 1] + momentum_i.y);
      flux_i_density_energy += factor * (ff.fc_de.y + fci_de.y);
      flux_i_momentum.x += factor * (ff.fc_mx.y + fci_mx.y);
      flux_i_momentum.y += factor * (ff.fc_my.y + fci_my.y);
      flux_i_momentum.z += factor * (ff.fc_mz.y + fci_mz.y);
      factor = 0.5f * normal.z;
      flux_i_density += factor * (ff.var[VAR_MOMENTUM + 2] + momentum_i.z);
      flux_i_density_energy += factor * (ff.fc_de.z + fci_de.z);
      flux_i_momentum.x += factor * (ff.fc_mx.z + fci_mx.z);
      flux_i_momentum.y += factor * (ff.fc_my.z + fci_my.z);
      flux_i_momentum.z += factor * (ff.fc_mz.z + fci_mz.z);
    }
  }
  fluxes[i * NVAR + VAR_DENSITY] = flux_i_density;
  fluxes[i * NVAR + VAR_MOMENTUM + 0] = flux_i_momentum.x;
  fluxes[i * NVAR + VAR_MOMENTUM + 1] = flux_i_momentum.y;
  fluxes[i * NVAR + VAR_MOMENTUM + 2] = flux_i_momentum.z;
  fluxes[i * NVAR + VAR_DENSITY_ENERGY] = flux_i_density_energy;
}

__global__ void cuda_compute_flux(int nelr, const int *elements_surrounding_elements, const float *normals,
                                  const float *variables, float *fluxes, FarField ff) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < nelr) flux_element(i, elements_surrounding_elements, normals, variables, fluxes, ff);
}

__global__ void cuda_time_step(int j, int nelr, const float *old_variables, float *variables,
                               const float *step_factors, const float *fluxes) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < nelr) {
    float factor = step_factors[i] / float(RK + 1 - j);
    for (int v = 0; v < NVAR; v++)
      variables[i * NVAR + v] = old_variables[i * NVAR + v] + factor * fluxes[i * NVAR + v];
  }
}

__global__ void lj_force_rows(float3 *force, const float4 *position, int neighCount, const int *neighList,
                              float cutsq, float lj1, float lj2, int inum) {
  unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < unsigned(inum)) {
    float4 ipos = position[idx];
    float3 f = make_float3(0.0f, 0.0f, 0.0f);
    int j = 0;
    while (j < neighCount) {
      int jidx = neighList[idx * neighCount + j];
      float4 jpos = position[jidx];
      float delx = ipos.x - jpos.x;
      float dely = ipos.y - jpos.y;
      float delz = ipos.z - jpos.z;
      float r2inv = delx * delx + dely * dely + delz * delz;
      if (r2inv < cutsq) {
        r2inv = 1.0f / r2inv;
        float r6inv = r2inv * r2inv * r2inv;
        float forceC = r2inv * r6inv * (lj1 * r6inv - lj2);
        f.x += delx * forceC;
        f.y += dely * forceC;
        f.z += delz * forceC;
      }
      j++;
    }
    force[idx] = f;
  }
}

static float signedFill(uint64_t seed, size_t k, float lo, float hi) {
  float v = lo + float(hashAt(seed, k) >> 8) * ((hi - lo) / 16777216.0f);
  return (hashAt(seed + 1000, k) & 1u) ? -v : v;
}

int main(int argc, char **argv) {
  const int nelr = argInt(argc, argv, 1, 2000000);
  const int inum = argInt(argc, argv, 2, 300000), neighCount = argInt(argc, argv, 3, 64);
  const float cutsq = 4.0f, lj1 = 1.5f, lj2 = 2.0f;
  const size_t nv = size_t(nelr) * NVAR, nnb = size_t(nelr) * NNB, nnorm = nnb * NDIM;
  const size_t nlist = size_t(inum) * neighCount;

  // Far field as Rodinia computes it (angle of attack 0).
  FarField ff;
  ff.var[VAR_DENSITY] = 1.4f;
  const float ff_pressure = 1.0f;
  const float ff_speed_of_sound = std::sqrt(GAMMA * ff_pressure / ff.var[VAR_DENSITY]);
  const float ff_speed = ff_mach * ff_speed_of_sound;
  const float3 ff_velocity = make_float3(ff_speed, 0.0f, 0.0f);
  ff.var[VAR_MOMENTUM + 0] = ff.var[VAR_DENSITY] * ff_velocity.x;
  ff.var[VAR_MOMENTUM + 1] = ff.var[VAR_DENSITY] * ff_velocity.y;
  ff.var[VAR_MOMENTUM + 2] = ff.var[VAR_DENSITY] * ff_velocity.z;
  ff.var[VAR_DENSITY_ENERGY] = ff.var[VAR_DENSITY] * (0.5f * (ff_speed * ff_speed)) + (ff_pressure / (GAMMA - 1.0f));
  compute_flux_contribution(ff.var[VAR_DENSITY_ENERGY], ff_pressure,
                            make_float3(ff.var[1], ff.var[2], ff.var[3]), ff_velocity, ff.fc_mx, ff.fc_my, ff.fc_mz,
                            ff.fc_de);

  std::vector<float> vars(nv), normals(nnorm), step(nelr);
  for (size_t i = 0; i < size_t(nelr); i++) {
    vars[i * NVAR + VAR_DENSITY] = 1.0f + float(hashAt(8301, i) >> 8) * (1.0f / 16777216.0f);
    for (int d = 0; d < NDIM; d++) vars[i * NVAR + VAR_MOMENTUM + d] = signedFill(8302 + d, i, 0.25f, 1.25f);
    vars[i * NVAR + VAR_DENSITY_ENERGY] = 6.0f + float(hashAt(8305, i) >> 8) * (3.0f / 16777216.0f);
  }
  for (size_t k = 0; k < nnorm; k++) normals[k] = signedFill(8306, k, 0.25f, 1.25f);
  fillFloats(step, 8307, 0.001f, 0.01f);
  std::vector<int> esn(nnb);
  for (size_t k = 0; k < nnb; k++) {
    uint32_t h = hashAt(8308, k) % 100u;
    esn[k] = h < 3u ? -1 : h < 5u ? -2 : int(hashAt(8309, k) % uint32_t(nelr));
  }
  // Atoms on a 64 x 64 x ... lattice of spacing 1, jittered by at most 0.2;
  // neighbours at lattice offsets within 2 in each direction (wrapped).
  std::vector<float4> pos(inum);
  for (int a = 0; a < inum; a++) {
    pos[a].x = float(a % 64) + signedFill(8310, a, 0.01f, 0.2f);
    pos[a].y = float((a / 64) % 64) + signedFill(8311, a, 0.01f, 0.2f);
    pos[a].z = float(a / 4096) + signedFill(8312, a, 0.01f, 0.2f);
    pos[a].w = 1.0f;
  }
  std::vector<int> neigh(nlist);
  for (size_t k = 0; k < nlist; k++) {
    int a = int(k / neighCount);
    uint32_t h = hashAt(8313, k) % 124u;  // 125 offsets less the centre (62)
    if (h >= 62u) h++;
    int dx = int(h % 5u) - 2, dy = int((h / 5u) % 5u) - 2, dz = int(h / 25u) - 2;
    int b = int(((long long)a + dx + 64 * dy + 4096 * dz + inum) % inum);
    neigh[k] = b == a ? (a + 1) % inum : b;
  }

  float *d_vars = toDevice(vars), *d_old = toDevice(vars), *d_norm = toDevice(normals), *d_step = toDevice(step);
  float *d_flux;
  int *d_esn = toDevice(esn), *d_neigh = toDevice(neigh);
  float4 *d_pos = toDevice(pos);
  float3 *d_force;
  CHECK(cudaMalloc(&d_flux, nv * sizeof(float)));
  CHECK(cudaMalloc(&d_force, size_t(inum) * sizeof(float3)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  cuda_compute_flux<<<blocksFor(nelr, 192), 192, 0, s1>>>(nelr, d_esn, d_norm, d_vars, d_flux, ff);
  CHECK_LAUNCH();
  cuda_time_step<<<blocksFor(nelr, 192), 192, 0, s1>>>(0, nelr, d_old, d_vars, d_step, d_flux);
  CHECK_LAUNCH();
  lj_force_rows<<<blocksFor(inum, 128), 128, 0, s2>>>(d_force, d_pos, neighCount, d_neigh, cutsq, lj1, lj2, inum);
  CHECK_LAUNCH();
  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaStreamSynchronize(s2));
  float ms = t.stop();
  std::vector<float> flux = fromDevice(d_flux, nv), nvars = fromDevice(d_vars, nv);
  std::vector<float3> force = fromDevice(d_force, size_t(inum));

  std::vector<float> fref(nv), vref(nv);
  for (int i = 0; i < nelr; i++) flux_element(i, esn.data(), normals.data(), vars.data(), fref.data(), ff);
  for (size_t i = 0; i < size_t(nelr); i++) {
    float factor = step[i] / float(RK + 1 - 0);
    for (size_t v = 0; v < NVAR; v++) vref[i * NVAR + v] = std::fmaf(factor, flux[i * NVAR + v], vars[i * NVAR + v]);
  }
  std::vector<float> gf(size_t(inum) * 3), rf(size_t(inum) * 3);
  for (size_t a = 0; a < size_t(inum); a++) {
    float fx = 0.0f, fy = 0.0f, fz = 0.0f;
    for (size_t j = 0; j < size_t(neighCount); j++) {
      const float4 q = pos[neigh[a * neighCount + j]];
      float delx = pos[a].x - q.x, dely = pos[a].y - q.y, delz = pos[a].z - q.z;
      // The PTX: fma(delz, delz, fma(delx, delx, dely*dely)); lj1*r6inv - lj2
      // as a multiply and a subtract, which ptxas contracts into one fma.
      float r2 = std::fmaf(delz, delz, std::fmaf(delx, delx, dely * dely));
      if (r2 < cutsq) {
        float r2inv = 1.0f / r2;
        float r6inv = r2inv * r2inv * r2inv;
        float forceC = r2inv * r6inv * std::fmaf(lj1, r6inv, -lj2);
        fx = std::fmaf(delx, forceC, fx);
        fy = std::fmaf(dely, forceC, fy);
        fz = std::fmaf(delz, forceC, fz);
      }
    }
    rf[a * 3 + 0] = fx, rf[a * 3 + 1] = fy, rf[a * 3 + 2] = fz;
    gf[a * 3 + 0] = force[a].x, gf[a * 3 + 1] = force[a].y, gf[a * 3 + 2] = force[a].z;
  }
  bool ok = checkFloats("cfd fluxes", flux.data(), fref.data(), nv, 1e-3, 1e-2 * double(maxAbs(fref.data(), nv)));
  ok = checkExact("cfd time step", nvars.data(), vref.data(), nv) && ok;
  ok = checkExact("md forces", gf.data(), rf.data(), gf.size()) && ok;
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(d_vars));
  CHECK(cudaFree(d_old));
  CHECK(cudaFree(d_norm));
  CHECK(cudaFree(d_step));
  CHECK(cudaFree(d_flux));
  CHECK(cudaFree(d_esn));
  CHECK(cudaFree(d_neigh));
  CHECK(cudaFree(d_pos));
  CHECK(cudaFree(d_force));
  return finish(ms, ok);
}
