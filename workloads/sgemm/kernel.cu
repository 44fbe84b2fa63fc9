// workloads/sgemm: single-precision general matrix multiply
// C = alpha * A * B + beta * C (column-major, A is M x K, B is K x N), in
// the register-tiled style of Parboil sgemm, written for gpusim.
//
// One CTA of TILE_M = 64 threads computes a 64 x 16 tile of C. Each thread
// owns one row of the tile and keeps its 16 partial sums in registers. Per
// step of TILE_K = 16 along k, the CTA stages a 16 x 16 tile of B in shared
// memory (every thread loads 4 elements); each thread then streams its row
// of A from global memory (coalesced: consecutive threads read consecutive
// rows of a column) and does 16 x 16 FMAs against the shared tile, whose
// elements every thread of a warp reads at the same address (broadcast).
// M must be a multiple of 64, N and K multiples of 16.
#define TILE_M 64
#define TILE_N 16
#define TILE_K 16

extern "C" __global__ void __launch_bounds__(TILE_M)
sgemm(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int n, int k,
      float alpha, float beta)
{
    __shared__ float bs[TILE_K][TILE_N];
    const int t = threadIdx.x;
    const int row = blockIdx.x * TILE_M + t;
    const int col0 = blockIdx.y * TILE_N;
    float acc[TILE_N];
#pragma unroll
    for (int j = 0; j < TILE_N; j++)
        acc[j] = 0.0f;

    for (int k0 = 0; k0 < k; k0 += TILE_K) {
        // Stage B(k0 .. k0+15, col0 .. col0+15): element e = t + 64 r is
        // B(k0 + e % 16, col0 + e / 16), so a warp reads two 16-float runs.
#pragma unroll
        for (int r = 0; r < TILE_K * TILE_N / TILE_M; r++) {
            int e = t + r * TILE_M;
            bs[e % TILE_K][e / TILE_K] = b[(size_t)(col0 + e / TILE_K) * k + k0 + e % TILE_K];
        }
        __syncthreads();
        const float *ap = a + (size_t)k0 * m + row;
#pragma unroll
        for (int kk = 0; kk < TILE_K; kk++) {
            float av = ap[(size_t)kk * m];
#pragma unroll
            for (int j = 0; j < TILE_N; j++)
                acc[j] += av * bs[kk][j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int j = 0; j < TILE_N; j++) {
        float *cp = c + (size_t)(col0 + j) * m + row;
        *cp = alpha * acc[j] + beta * *cp;
    }
}
