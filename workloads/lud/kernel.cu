// workloads/lud: blocked LU decomposition without pivoting, A = L U in place
// (unit lower L below the diagonal, U on and above it), row-major n x n
// with n a multiple of BS = 16, mirroring Rodinia lud, written for gpusim.
//
// For every diagonal offset d = 0, 16, ... the host launches
//   lud_diagonal  (1 CTA, 16 threads): factorise the 16 x 16 diagonal block
//                 in shared memory (right-looking: at step k thread i > k
//                 forms l_ik and updates the rest of its row);
//   lud_perimeter (one CTA of 32 threads per remaining block position b):
//                 threads 0-15 solve L_dd U_db = A_db for the block right of
//                 the diagonal block (one column each, forward substitution
//                 with the unit lower factor), threads 16-31 solve
//                 L_bd U_dd = A_bd for the block below it (one row each);
//   lud_internal  (rem x rem CTAs of 16 x 16 threads): A_ij -= L_id U_dj for
//                 every trailing block, both 16 x 16 factors staged in
//                 shared memory, one element per thread.
#define BS 16

extern "C" __global__ void __launch_bounds__(BS) lud_diagonal(float *a, int n, int d)
{
    __shared__ float s[BS][BS];
    const int t = threadIdx.x;
    float *blk = a + (size_t)d * n + d;
    for (int i = 0; i < BS; i++)
        s[i][t] = blk[(size_t)i * n + t];
    __syncthreads();
    for (int k = 0; k < BS - 1; k++) {
        if (t > k) { // row t: l_tk, then eliminate it from the rest of the row
            float l = s[t][k] / s[k][k];
            s[t][k] = l;
            for (int j = k + 1; j < BS; j++)
                s[t][j] -= l * s[k][j];
        }
        __syncthreads();
    }
    for (int i = 0; i < BS; i++)
        blk[(size_t)i * n + t] = s[i][t];
}

extern "C" __global__ void __launch_bounds__(2 * BS) lud_perimeter(float *a, int n, int d)
{
    __shared__ float dg[BS][BS];  // factored diagonal block (L and U)
    __shared__ float row[BS][BS]; // block right of the diagonal: becomes U_db
    __shared__ float col[BS][BS]; // block below the diagonal: becomes L_bd
    const int t = threadIdx.x;
    const int off = d + (blockIdx.x + 1) * BS; // first row/column of this block position
    // 32 threads stage the three blocks: thread t reads column t % 16 of
    // rows t / 16, t / 16 + 2, ... (half-warps read 64-byte row segments).
    for (int i = t / BS; i < BS; i += 2) {
        dg[i][t % BS] = a[(size_t)(d + i) * n + d + t % BS];
        row[i][t % BS] = a[(size_t)(d + i) * n + off + t % BS];
        col[i][t % BS] = a[(size_t)(off + i) * n + d + t % BS];
    }
    __syncthreads();
    if (t < BS) {
        // column c of U_db: forward substitution with the unit lower L_dd
        const int c = t;
        for (int p = 0; p < BS - 1; p++)
            for (int i = p + 1; i < BS; i++)
                row[i][c] -= dg[i][p] * row[p][c];
    } else {
        // row r of L_bd: x U_dd = a, column by column
        const int r = t - BS;
        for (int p = 0; p < BS; p++) {
            float l = col[r][p] / dg[p][p];
            col[r][p] = l;
            for (int q = p + 1; q < BS; q++)
                col[r][q] -= l * dg[p][q];
        }
    }
    __syncthreads();
    for (int i = t / BS; i < BS; i += 2) {
        a[(size_t)(d + i) * n + off + t % BS] = row[i][t % BS];
        a[(size_t)(off + i) * n + d + t % BS] = col[i][t % BS];
    }
}

extern "C" __global__ void __launch_bounds__(BS * BS) lud_internal(float *a, int n, int d)
{
    __shared__ float l[BS][BS]; // L_id
    __shared__ float u[BS][BS]; // U_dj
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r = d + (blockIdx.y + 1) * BS + ty; // global row of this thread's element
    const int c = d + (blockIdx.x + 1) * BS + tx; // global column
    l[ty][tx] = a[(size_t)r * n + d + tx];
    u[ty][tx] = a[(size_t)(d + ty) * n + c];
    __syncthreads();
    float sum = 0.0f;
#pragma unroll
    for (int p = 0; p < BS; p++)
        sum += l[ty][p] * u[p][tx];
    a[(size_t)r * n + c] -= sum;
}
