// workloads/scalarprod: many independent dot products out[v] = sum_k
// a[v][k] * b[v][k] over npairs float vector pairs of n elements each,
// mirroring the CUDA SDK "scalarProd" sample: one block per vector pair;
// each thread accumulates a strided slice of the pair (coalesced loads),
// then the block combines its 256 partial sums with a shared-memory tree.
#define BLOCK 256 // threads per block (the launch must use exactly this)

// Launch: grid (npairs), block (BLOCK). a and b hold the pairs back to back
// (pair v starts at element v * n).
extern "C" __global__ void scalarprod(const float *__restrict__ a, const float *__restrict__ b,
                                      float *__restrict__ out, int n)
{
    __shared__ float part[BLOCK];
    const float *va = a + (size_t)blockIdx.x * n, *vb = b + (size_t)blockIdx.x * n;
    unsigned tid = threadIdx.x;

    float sum = 0.0f;
    for (int k = tid; k < n; k += BLOCK)
        sum += va[k] * vb[k];
    part[tid] = sum;

    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (tid < s)
            part[tid] += part[tid + s];
    }
    if (tid == 0)
        out[blockIdx.x] = part[0];
}
