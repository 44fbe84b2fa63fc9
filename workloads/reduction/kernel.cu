// workloads/reduction: sum of a large array, for unsigned 32-bit integers
// (modulo 2^32, exact) and for floats, mirroring the CUDA SDK "reduction"
// sample's most optimised form: each thread first accumulates several
// elements (two per step, grid-stride, so any n and any grid work), the block
// then reduces its 256 per-thread sums in shared memory with sequential
// addressing (active threads contiguous, conflict-free) down to 64 values,
// and the first warp finishes with register shuffles. Each block writes one
// partial sum; the host launches the same kernel again with one block over
// the partial sums to get the total.
#define BLOCK 256 // threads per block (the launch must use exactly this)

template <typename T>
__device__ void reduce_block(const T *__restrict__ in, T *__restrict__ out, unsigned n)
{
    __shared__ T sdata[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned stride = 2 * BLOCK * gridDim.x;

    // Per-thread serial sum: elements i and i + BLOCK of each 2*BLOCK chunk.
    T sum = 0;
    for (unsigned i = blockIdx.x * 2 * BLOCK + tid; i < n; i += stride) {
        sum += in[i];
        if (i + BLOCK < n)
            sum += in[i + BLOCK];
    }
    sdata[tid] = sum;
    __syncthreads();

    // Tree in shared memory, sequential addressing: 256 -> 64 values.
    for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] = sum = sum + sdata[tid + s];
        __syncthreads();
    }

    // Last 64 -> 1 within warp 0, through registers.
    if (tid < 32) {
        sum += sdata[tid + 32];
        for (int offset = 16; offset > 0; offset >>= 1)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (tid == 0)
            out[blockIdx.x] = sum;
    }
}

extern "C" __global__ void reduce_u32(const unsigned *__restrict__ in, unsigned *__restrict__ out, unsigned n)
{
    reduce_block<unsigned>(in, out, n);
}

extern "C" __global__ void reduce_f32(const float *__restrict__ in, float *__restrict__ out, unsigned n)
{
    reduce_block<float>(in, out, n);
}
