// workloads/histo: saturating histogram of a large array of bin indices
// (values in [0, nbins)), mirroring Parboil "histo": every thread block
// builds a private histogram in shared memory with shared-memory atomics
// over a grid-stride slice of the input, then merges its non-zero bins into
// one global 32-bit histogram with global atomics; a final kernel saturates
// the counts to 8 bits (255) as Parboil's output histogram does.
// Dynamic shared memory: nbins 32-bit counters.

extern "C" __global__ void histo_private(const unsigned *__restrict__ in, int n, unsigned *counts, int nbins)
{
    extern __shared__ unsigned local_bins[];
    for (int b = threadIdx.x; b < nbins; b += blockDim.x)
        local_bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local_bins[in[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
        unsigned c = local_bins[b];
        if (c != 0)
            atomicAdd(&counts[b], c);
    }
}

extern "C" __global__ void histo_saturate(const unsigned *__restrict__ counts, unsigned char *__restrict__ histo,
                                          int nbins)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nbins)
        histo[b] = (unsigned char)min(counts[b], 255u);
}
