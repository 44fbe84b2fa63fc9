// workloads/mrmm: MapReduce-style matrix multiply, after the Mars MatrixMul
// benchmark (written for gpusim). In Mars the map task for one key (an
// output element (i, j)) computes the dot product of row i of A and column
// j of B on its own, straight from global memory: no shared-memory tiling,
// no cooperation between threads. We keep exactly that shape:
//   mrmm_map: one thread per output element, linear index t = i * n + j
//       (consecutive threads: same row i, consecutive columns j). The
//       thread walks row i of A (m x k, row-major) and column j of B,
//       which Mars stores as a row of B^T (n x k, row-major), 4 bytes per
//       step. Within a warp the A reads are one broadcast line and the B^T
//       reads are 32 different lines (uncoalesced, stride k * 4 bytes); each
//       line is reused by the same thread for 32 consecutive steps
//       (intra-warp locality). Between CTAs (256 threads): the CTAs that
//       cover one row of C read the same A row, and CTAs n / 256 apart
//       read the same B^T rows when n is a multiple of 256; the whole B^T
//       is read by every row of C (inter-CTA locality).
// Integer arithmetic modulo 2^32 (unsigned wrap-around), so the result is
// exact and independent of the summation order.

extern "C" __global__ void mrmm_map(const unsigned *__restrict__ a, const unsigned *__restrict__ bt,
                                    unsigned *__restrict__ c, int m, int n, int k)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= m * n)
        return;
    int i = t / n, j = t - i * n;
    const unsigned *ra = a + (size_t)i * k;
    const unsigned *rb = bt + (size_t)j * k;
    unsigned s = 0;
    // NOTE: unrolled by 2 only: nvcc's default unrolling takes 48 registers
    // (2 CTAs of 256 threads per SM on a 32K-register Fermi); at 21 the SM
    // holds 6 CTAs = 48 warps, the full warp count whose combined working
    // set the schedulers under study have to manage.
#pragma unroll 2
    for (int x = 0; x < k; x++)
        s += ra[x] * rb[x];
    c[t] = s;
}
