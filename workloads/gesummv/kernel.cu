// workloads/gesummv: y = alpha * A x + beta * B x for n x n float matrices
// A and B (row-major), mirroring Polybench GESUMMV in the Polybench-GPU
// style: one kernel, one thread per row, both rows walked together.
// Consecutive threads read addresses n floats apart (uncoalesced), so the
// kernel is bandwidth- and cache-sensitive with two streams per thread.
// Launch with 1-D blocks of 256 threads covering n (partial last block).

extern "C" __global__ void gesummv(const float *__restrict__ A, const float *__restrict__ B,
                                   const float *__restrict__ x, float *__restrict__ y, float alpha,
                                   float beta, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float *arow = A + (size_t)i * n, *brow = B + (size_t)i * n;
    float ax = 0.0f, bx = 0.0f;
    for (int j = 0; j < n; j++) {
        ax += arow[j] * x[j];
        bx += brow[j] * x[j];
    }
    y[i] = fmaf(alpha, ax, beta * bx);
}
