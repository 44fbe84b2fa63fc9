// workloads/mrig: gridding of non-Cartesian MRI k-space samples onto a
// regular 3-D grid, mirroring Parboil "mri-gridding". Every sample j has a
// position s_j (grid units), a complex value v_j and a density-compensation
// weight d_j; grid point p gets
//   G(p) = sum_{|p - s_j| < C} w_j(p) v_j,   D(p) = sum_{|p - s_j| < C} w_j(p)
//   w_j(p) = d_j * I0(beta * sqrt(1 - |p - s_j|^2 / C^2))
// a radial Kaiser-Bessel window of width W = 2C (C = 2 grid cells).
//
// Gather (output-driven) form: the host sorts the samples by the grid cell
// that holds them (cell (floor x, floor y, floor z)) and passes the start of
// each cell's run in the sorted arrays (cell_start, one entry per cell plus
// one). One thread owns one grid point. A sample within the cutoff of point
// x lies in a cell x - C .. x + C - 1 on each axis, and the cells of one x
// row are consecutive in the sorted order, so a thread walks (2C)^2 = 16
// contiguous runs of samples. No atomics: the result does not depend on the
// schedule.
//
// The window: with u = 1 - r^2 / C^2, I0(beta sqrt u) = sum_k a_k u^k with
// a_k = (beta^2 / 4)^k / (k!)^2; the host rounds the KB_TERMS coefficients
// to float and puts them in __constant__ c_kb (the role Parboil's lookup
// table plays), the kernel evaluates the polynomial by Horner's rule. All
// arithmetic is written as explicitly rounded IEEE operations, so the host
// reference can repeat it bit for bit.
#define CUTOFF 2      // C: window half-width in grid cells (W = 4)
#define KB_TERMS 15   // polynomial terms (degree 14 in u)
#define BLOCK_X 16
#define BLOCK_Y 8
#define BLOCK_Z 2

__constant__ float c_kb[KB_TERMS];

// pos[j] = (x, y, z, d), val[j] = (re, im), both in cell order;
// cell_start: nx * ny * nz + 1 run starts (x fastest); outputs gre, gim,
// gden: nx * ny * nz floats (x fastest). Launch: blocks (BLOCK_X, BLOCK_Y,
// BLOCK_Z) over the grid points.
//
// NOTE(regs): without a minimum-blocks bound ptxas keeps the 15 window
// coefficients in registers and uses 42 (2 CTAs per SM at 32768 registers);
// asking for 6 resident CTAs (1536 threads on sm_75) gives 36 with no
// spills, hence 3 CTAs per SM at 32768 registers and 6 at 65536: the TLP
// that seed 002 (Table 1 and its text) reports for Parboil's mri-gridding
// (256 threads, 40 registers) on its 128 KB and 256 KB register files.
extern "C" __global__ void __launch_bounds__(BLOCK_X * BLOCK_Y * BLOCK_Z, 6)
    mrig_gather(const float4 *__restrict__ pos, const float2 *__restrict__ val, const int *__restrict__ cell_start,
                int nx, int ny, int nz, float *__restrict__ gre, float *__restrict__ gim, float *__restrict__ gden)
{
    const int x = blockIdx.x * BLOCK_X + threadIdx.x;
    const int y = blockIdx.y * BLOCK_Y + threadIdx.y;
    const int z = blockIdx.z * BLOCK_Z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    const float px = (float)x, py = (float)y, pz = (float)z;
    const float cutoff2 = (float)(CUTOFF * CUTOFF), inv_cutoff2 = 1.0f / (float)(CUTOFF * CUTOFF);
    const int x0 = max(x - CUTOFF, 0), x1 = min(x + CUTOFF - 1, nx - 1);
    const int y0 = max(y - CUTOFF, 0), y1 = min(y + CUTOFF - 1, ny - 1);
    const int z0 = max(z - CUTOFF, 0), z1 = min(z + CUTOFF - 1, nz - 1);
    float re = 0.0f, im = 0.0f, den = 0.0f;
    for (int cz = z0; cz <= z1; cz++)
        for (int cy = y0; cy <= y1; cy++) {
            const int row = (cz * ny + cy) * nx;
            const int end = cell_start[row + x1 + 1];
            for (int j = cell_start[row + x0]; j < end; j++) {
                const float4 s = pos[j];
                const float dx = __fsub_rn(s.x, px), dy = __fsub_rn(s.y, py), dz = __fsub_rn(s.z, pz);
                const float r2 = __fmaf_rn(dz, dz, __fmaf_rn(dy, dy, __fmul_rn(dx, dx)));
                if (r2 < cutoff2) {
                    const float u = __fmaf_rn(-r2, inv_cutoff2, 1.0f);
                    float p = c_kb[KB_TERMS - 1];
#pragma unroll
                    for (int k = KB_TERMS - 2; k >= 0; k--)
                        p = __fmaf_rn(p, u, c_kb[k]);
                    const float wgt = __fmul_rn(p, s.w);
                    const float2 v = val[j];
                    re = __fmaf_rn(wgt, v.x, re);
                    im = __fmaf_rn(wgt, v.y, im);
                    den = __fadd_rn(den, wgt);
                }
            }
        }
    const size_t g = ((size_t)z * ny + y) * nx + x;
    gre[g] = re;
    gim[g] = im;
    gden[g] = den;
}
