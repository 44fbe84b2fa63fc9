// workloads/bicg: the two matrix-vector products of the BiCG solver's inner
// step, s = A^T r and q = A p, for an n x n float matrix A (row-major),
// mirroring Polybench BICG in the Polybench-GPU style: two kernels, one
// thread per output element.
//   bicg_atr: s[j] = sum_i r[i] * A[i][j] (thread per column: coalesced)
//   bicg_ap:  q[i] = sum_j A[i][j] * p[j] (thread per row: consecutive
//             threads read addresses n floats apart, uncoalesced and
//             cache-sensitive)
// Launch both with 1-D blocks of 256 threads covering n (partial last block).

extern "C" __global__ void bicg_atr(const float *__restrict__ A, const float *__restrict__ r,
                                    float *__restrict__ s, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    float acc = 0.0f;
    for (int i = 0; i < n; i++)
        acc += r[i] * A[(size_t)i * n + j];
    s[j] = acc;
}

extern "C" __global__ void bicg_ap(const float *__restrict__ A, const float *__restrict__ p,
                                   float *__restrict__ q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float *row = A + (size_t)i * n;
    float acc = 0.0f;
    for (int j = 0; j < n; j++)
        acc += row[j] * p[j];
    q[i] = acc;
}
