// Histogram: shared-memory atomics, global atomics, bytes, __syncthreads.
#define NBINS 64
extern "C" __global__ void histogram(const unsigned char *data, unsigned int *bins, int n)
{
    __shared__ unsigned int local[NBINS];
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x)
        local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i] % NBINS], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x)
        atomicAdd(&bins[i], local[i]);
}
