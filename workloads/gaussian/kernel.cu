// workloads/gaussian: forward elimination of Gaussian elimination (no
// pivoting) on a dense n x n system A x = b, mirroring Rodinia gaussian,
// written for gpusim. The host launches, for every pivot column t:
//
// gauss_fan1: one thread per row i > t computes the multiplier
//   m[i][t] = a[i][t] / a[t][t].
// gauss_fan2: a 2D grid over rows i > t and columns j >= t updates
//   a[i][j] -= m[i][t] * a[t][j] (threadIdx.x along j: coalesced), and the
//   threads of column t also update b[i] -= m[i][t] * b[t].
//
// Row t and column t of m are only read within a launch, so no thread reads
// what another writes. Back substitution runs on the host. Row-major
// storage; the grids cover only the shrinking trailing submatrix.
extern "C" __global__ void gauss_fan1(const float *__restrict__ a, float *__restrict__ m, int n, int t)
{
    int i = t + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        m[(size_t)i * n + t] = a[(size_t)i * n + t] / a[(size_t)t * n + t];
}

extern "C" __global__ void gauss_fan2(float *__restrict__ a, float *__restrict__ b, const float *__restrict__ m,
                                      int n, int t)
{
    int i = t + 1 + blockIdx.y * blockDim.y + threadIdx.y;
    int j = t + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && j < n) {
        float mul = m[(size_t)i * n + t];
        a[(size_t)i * n + j] -= mul * a[(size_t)t * n + j];
        if (j == t)
            b[i] -= mul * b[t];
    }
}
