// workloads/atax: y = A^T (A x) for an n x n float matrix A (row-major),
// mirroring Polybench ATAX in the Polybench-GPU style: two kernels, one
// thread per output element.
//   atax_ax:  tmp[i] = sum_j A[i][j] * x[j]   (thread per row: consecutive
//             threads read addresses n floats apart, uncoalesced, so the
//             kernel lives on cache reuse of the rows' lines)
//   atax_aty: y[j]   = sum_i A[i][j] * tmp[i] (thread per column: coalesced)
// Launch both with 1-D blocks of 256 threads covering n (partial last block).

extern "C" __global__ void atax_ax(const float *__restrict__ A, const float *__restrict__ x,
                                   float *__restrict__ tmp, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float *row = A + (size_t)i * n;
    float acc = 0.0f;
    for (int j = 0; j < n; j++)
        acc += row[j] * x[j];
    tmp[i] = acc;
}

extern "C" __global__ void atax_aty(const float *__restrict__ A, const float *__restrict__ tmp,
                                    float *__restrict__ y, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    float acc = 0.0f;
    for (int i = 0; i < n; i++)
        acc += A[(size_t)i * n + j] * tmp[i];
    y[j] = acc;
}
