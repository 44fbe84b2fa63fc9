// workloads/syrk: symmetric rank-k update C = alpha * A * A^T + beta * C for
// an n x n fp32 matrix C and an n x m matrix A (row-major), one thread per
// element of C on 2-D blocks, computing the full matrix (mirrors
// Polybench/GPU SYRK). Each thread walks row i and row j of A along k, so
// the threads of a warp (consecutive j) read addresses m floats apart:
// uncoalesced, cache-friendly reuse of A.
//
// The accumulation is an explicit fp32 chain: acc = beta * c, then per k
// acc = fmaf(alpha * a[i][k], a[j][k], acc), which the host reference
// evaluates identically.
extern "C" __global__ void syrk(const float *__restrict__ a, float *__restrict__ c, float alpha, float beta,
                                int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x; // column of C
    int i = blockIdx.y * blockDim.y + threadIdx.y; // row of C
    if (i >= n || j >= n)
        return;
    const float *ai = a + (size_t)i * m;
    const float *aj = a + (size_t)j * m;
    float acc = beta * c[(size_t)i * n + j];
    for (int k = 0; k < m; k++)
        acc = fmaf(alpha * ai[k], aj[k], acc);
    c[(size_t)i * n + j] = acc;
}
