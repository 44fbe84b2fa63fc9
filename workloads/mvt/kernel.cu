// workloads/mvt: x1 += A y1 and x2 += A^T y2 for an n x n float matrix A
// (row-major), mirroring Polybench MVT in the Polybench-GPU style: two
// kernels, one thread per output element, each accumulating onto the
// element's initial value.
//   mvt_ay:  x1[i] += sum_j A[i][j] * y1[j] (thread per row: consecutive
//            threads read addresses n floats apart, uncoalesced and
//            cache-sensitive)
//   mvt_aty: x2[i] += sum_j A[j][i] * y2[j] (thread per column: coalesced)
// Launch both with 1-D blocks of 256 threads covering n (partial last block).

extern "C" __global__ void mvt_ay(const float *__restrict__ A, const float *__restrict__ y1,
                                  float *__restrict__ x1, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float *row = A + (size_t)i * n;
    float acc = x1[i];
    for (int j = 0; j < n; j++)
        acc += row[j] * y1[j];
    x1[i] = acc;
}

extern "C" __global__ void mvt_aty(const float *__restrict__ A, const float *__restrict__ y2,
                                   float *__restrict__ x2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = x2[i];
    for (int j = 0; j < n; j++)
        acc += A[(size_t)j * n + i] * y2[j];
    x2[i] = acc;
}
