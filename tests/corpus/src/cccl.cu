// CCCL/CUB device-wide algorithms, instantiated for int and float. This
// produces large, template-heavy real-world PTX. Host wrappers force the
// device kernels to be instantiated.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

template <typename T>
cudaError_t radixSort(void *tmp, size_t &tmpBytes, const T *in, T *out, int n) {
  return cub::DeviceRadixSort::SortKeys(tmp, tmpBytes, in, out, n);
}

template <typename T>
cudaError_t inclusiveSum(void *tmp, size_t &tmpBytes, const T *in, T *out, int n) {
  return cub::DeviceScan::InclusiveSum(tmp, tmpBytes, in, out, n);
}

template <typename T>
cudaError_t reduceSum(void *tmp, size_t &tmpBytes, const T *in, T *out, int n) {
  return cub::DeviceReduce::Sum(tmp, tmpBytes, in, out, n);
}

template <typename T>
cudaError_t histogramEven(void *tmp, size_t &tmpBytes, const T *samples,
                          int *hist, int nLevels, T lower, T upper, int n) {
  return cub::DeviceHistogram::HistogramEven(tmp, tmpBytes, samples, hist,
                                             nLevels, lower, upper, n);
}

template cudaError_t radixSort<int>(void *, size_t &, const int *, int *, int);
template cudaError_t radixSort<float>(void *, size_t &, const float *, float *, int);
template cudaError_t inclusiveSum<int>(void *, size_t &, const int *, int *, int);
template cudaError_t inclusiveSum<float>(void *, size_t &, const float *, float *, int);
template cudaError_t reduceSum<int>(void *, size_t &, const int *, int *, int);
template cudaError_t reduceSum<float>(void *, size_t &, const float *, float *, int);
template cudaError_t histogramEven<int>(void *, size_t &, const int *, int *, int,
                                        int, int, int);
template cudaError_t histogramEven<float>(void *, size_t &, const float *, int *,
                                          int, float, float, int);
