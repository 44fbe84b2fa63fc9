// workloads/cutcp: cutoff Coulombic potential on a 3-D lattice, mirroring
// Parboil "cutcp". The potential at lattice point p from the atoms j within
// the cutoff distance c, with a switching function that takes it smoothly to
// zero at c:
//   V(p) = sum_{r_j < c} q_j / r_j * (1 - r_j^2 / c^2)^2,   r_j = |p - a_j|
// The host sorts the atoms into cubic bins of BIN_LEN (4 A = 8 lattice
// spacings), BIN_DEPTH slots each (unused slots hold an "empty" atom far
// away). One thread block computes one 8x8x8-point region of the lattice
// (the region of one bin); it walks the list of neighbouring bin offsets
// that can hold atoms within the cutoff (in __constant__ memory, as in the
// original), staging NBATCH bins of atoms at a time in shared memory. Each
// thread computes ZPOINTS points of one z column.
#define BIN_DEPTH 8    // atoms per bin
#define NBATCH 4       // bins staged in shared memory at a time
#define REGION 8       // lattice points per region edge
#define ZPOINTS 4      // points per thread (consecutive in z)
#define MAX_NBRS 343   // (2 * 3 + 1)^3 bin offsets at most
#define EMPTY 1.0e18f  // coordinate of an empty bin slot

__constant__ int3 c_nbrs[MAX_NBRS];

// bins: nbx x nby x nbz bins of BIN_DEPTH float4 (x, y, z, q), the bin
// grid matching the region grid; lattice: nx x ny x nz floats (x fastest),
// spacing h, point (i, j, k) at (i h, j h, k h). Launch: blocks
// (REGION, REGION, REGION / ZPOINTS), grid (nbx, nby, nbz).
extern "C" __global__ void __launch_bounds__(REGION * REGION * (REGION / ZPOINTS))
    cutcp_lattice(const float4 *__restrict__ bins, int nbx, int nby, int nbz, int nnbrs, float *__restrict__ lattice,
                  int nx, int ny, int nz, float h, float cutoff2)
{
    __shared__ float4 atoms[NBATCH * BIN_DEPTH];
    const int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    const int x = blockIdx.x * REGION + threadIdx.x;
    const int y = blockIdx.y * REGION + threadIdx.y;
    const int z0 = blockIdx.z * REGION + threadIdx.z * ZPOINTS;
    const float px = h * (float)x, py = h * (float)y, pz0 = h * (float)z0;
    const float inv_cutoff2 = 1.0f / cutoff2;
    float e[ZPOINTS];
#pragma unroll
    for (int m = 0; m < ZPOINTS; m++)
        e[m] = 0.0f;

    for (int n0 = 0; n0 < nnbrs; n0 += NBATCH) {
        // Stage the atoms of neighbours n0 .. n0 + NBATCH - 1 (empty atoms
        // for offsets past the list or bins outside the grid).
        if (tid < NBATCH * BIN_DEPTH) {
            const int n = n0 + tid / BIN_DEPTH;
            float4 a = make_float4(EMPTY, EMPTY, EMPTY, 0.0f);
            if (n < nnbrs) {
                const int3 d = c_nbrs[n];
                const int bx = blockIdx.x + d.x, by = blockIdx.y + d.y, bz = blockIdx.z + d.z;
                if (bx >= 0 && bx < nbx && by >= 0 && by < nby && bz >= 0 && bz < nbz)
                    a = bins[((size_t)(bz * nby + by) * nbx + bx) * BIN_DEPTH + tid % BIN_DEPTH];
            }
            atoms[tid] = a;
        }
        __syncthreads();
        for (int j = 0; j < NBATCH * BIN_DEPTH; j++) {
            const float4 a = atoms[j];
            const float dx = a.x - px, dy = a.y - py;
            const float dxy2 = __fmaf_rn(dx, dx, dy * dy);
            float dz = a.z - pz0;
#pragma unroll
            for (int m = 0; m < ZPOINTS; m++) {
                const float r2 = __fmaf_rn(dz, dz, dxy2);
                if (r2 < cutoff2) {
                    const float s = __fmaf_rn(-r2, inv_cutoff2, 1.0f);
                    const float qs = a.w * rsqrtf(r2) * s;
                    e[m] = __fmaf_rn(qs, s, e[m]);
                }
                dz -= h;
            }
        }
        __syncthreads();
    }
    if (x < nx && y < ny) {
#pragma unroll
        for (int m = 0; m < ZPOINTS; m++)
            if (z0 + m < nz)
                lattice[((size_t)(z0 + m) * ny + y) * nx + x] = e[m];
    }
}
