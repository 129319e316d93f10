// Texture and surface objects (bindless).

__global__ void texSample2D(cudaTextureObject_t tex, float *out, int w, int h,
                            float theta) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = x / (float)w - 0.5f, v = y / (float)h - 0.5f;
  float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
  float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;
  out[y * w + x] = tex2D<float>(tex, tu, tv);
}

__global__ void texFetch1D(cudaTextureObject_t tex, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 a = tex1Dfetch<float4>(tex, i);
    float4 b = tex1D<float4>(tex, i + 0.5f);
    out[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

__global__ void texLayeredAndLod(cudaTextureObject_t t3, cudaTextureObject_t tl,
                                 int *out) {
  float f = threadIdx.x * 0.1f;
  float a = tex3D<float>(t3, f, f, f);
  int b = tex2DLayered<int>(tl, f, f, blockIdx.x);
  float c = tex2DLod<float>(t3, f, f, 1.0f);
  out[threadIdx.x] = (int)a + b + (int)c;
}

__global__ void texGather(cudaTextureObject_t tex, float4 *out) {
  float u = threadIdx.x + 0.5f, v = blockIdx.x + 0.5f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = tex2Dgather<float4>(tex, u, v, 1);
}

__global__ void surfCopy(cudaSurfaceObject_t dst, cudaSurfaceObject_t src,
                         int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    uchar4 p = surf2Dread<uchar4>(src, x * sizeof(uchar4), y);
    p.x = 255 - p.x;
    surf2Dwrite(p, dst, x * sizeof(uchar4), y);
  }
}

__global__ void surfWriteFloat(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    surf2Dwrite(x * 0.5f + y, s, x * (int)sizeof(float), y,
                cudaBoundaryModeZero);
    float v;
    surf1Dread(&v, s, x * (int)sizeof(float), cudaBoundaryModeClamp);
    surf1Dwrite(v + 1.f, s, x * (int)sizeof(float));
  }
}
