/* workloads/cutcp/host.c: driver for cutcp (Parboil cutcp).
 *
 * Input from --seed: atoms with charges q uniform in [-1, 1) placed
 * uniformly in the box covered by the bin grid (ceil(n / 8) bins of 4 A per
 * axis over an nx x ny x nz lattice of spacing 0.5 A), about 6 atoms per
 * 64 A^3 bin (the density of water); a position whose bin is already full
 * (BIN_DEPTH atoms) is drawn again, so no atom overflows. Cutoff 12 A.
 * The host builds the bins and the list of bin offsets whose bin can hold
 * an atom within the cutoff of some point of a region, copies the list into
 * the kernel's __constant__ buffer c_nbrs (address from wl_global) and
 * launches cutcp_lattice once over all regions.
 *
 * Check: the host repeats the kernel's float operations in the same order
 * (neighbour-list order, slot order, z distances by repeated subtraction
 * of h, explicit fused multiply-adds), with 1/sqrt computed correctly
 * rounded, which is what gpusim's rsqrt.approx returns; hardware is within
 * 2 ulp. A relative error of 2 ulp (2^-22) in each term moves V(p) by at most
 * 2^-22 * sum_j |term_j|; the roundings after such a difference are smaller
 * still. Tolerance: abs 2^-21 * max_p sum_j |term_pj| (the worst point's
 * bound with a factor 2 margin), rel 0. */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

#define BIN_DEPTH 8 /* as in kernel.cu */
#define REGION 8
#define ZPOINTS 4
#define MAX_NBRS 343
#define EMPTY 1.0e18f

struct int3 {
    int x, y, z;
};

/* Bin offsets (|d| <= 3 per axis) whose bin comes closer than the cutoff
 * to the region at offset 0; returns their number. */
static int neighbour_list(struct int3 *nbrs, float bin_len, float cutoff)
{
    int n = 0;
    for (int dz = -3; dz <= 3; dz++)
        for (int dy = -3; dy <= 3; dy++)
            for (int dx = -3; dx <= 3; dx++) {
                /* Gap between the two cubes along each axis, in bins. */
                int gx = abs(dx) > 1 ? abs(dx) - 1 : 0;
                int gy = abs(dy) > 1 ? abs(dy) - 1 : 0;
                int gz = abs(dz) > 1 ? abs(dz) - 1 : 0;
                float d2 = (float)(gx * gx + gy * gy + gz * gz) * bin_len * bin_len;
                if (d2 < cutoff * cutoff)
                    nbrs[n++] = (struct int3){dx, dy, dz};
            }
    return n;
}

static int run(struct wl *w)
{
    int nx = (int)wl_pick(w, 12, 32, 64, 128);
    int ny = (int)wl_pick(w, 6, 32, 64, 128);
    int nz = (int)wl_pick(w, 6, 16, 40, 64);
    const float h = 0.5f, bin_len = h * REGION, cutoff = 12.0f, cutoff2 = cutoff * cutoff;
    int nbx = (nx + REGION - 1) / REGION, nby = (ny + REGION - 1) / REGION, nbz = (nz + REGION - 1) / REGION;
    int nbins = nbx * nby * nbz;
    int natoms = nbins * 6;
    size_t npts = (size_t)nx * ny * nz;

    struct int3 nbrs[MAX_NBRS];
    int nnbrs = neighbour_list(nbrs, bin_len, cutoff);

    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *bins = wl_host_alloc(w, (size_t)nbins * BIN_DEPTH * 4 * sizeof(float)); /* x, y, z, q */
    int *fill = wl_host_alloc(w, (size_t)nbins * sizeof(int));
    float *lattice = wl_host_alloc(w, npts * sizeof(float));
    float *ref = wl_host_alloc(w, npts * sizeof(float));
    if (!wl_ok(w))
        goto out;
    for (size_t s = 0; s < (size_t)nbins * BIN_DEPTH; s++) {
        float *a = bins + 4 * s;
        a[0] = a[1] = a[2] = EMPTY;
        a[3] = 0.0f;
    }
    for (int i = 0; i < natoms; i++) {
        float ax, ay, az;
        int b;
        do {
            ax = wl_rng_float(&r, 0.0f, (float)nbx * bin_len);
            ay = wl_rng_float(&r, 0.0f, (float)nby * bin_len);
            az = wl_rng_float(&r, 0.0f, (float)nbz * bin_len);
            int bx = (int)(ax / bin_len), by = (int)(ay / bin_len), bz = (int)(az / bin_len);
            b = (bz * nby + by) * nbx + bx;
        } while (fill[b] == BIN_DEPTH);
        float *a = bins + 4 * ((size_t)b * BIN_DEPTH + (size_t)fill[b]++);
        a[0] = ax;
        a[1] = ay;
        a[2] = az;
        a[3] = wl_rng_float(&r, -1.0f, 1.0f);
    }

    uint64_t d_bins = wl_alloc_copy(w, bins, (size_t)nbins * BIN_DEPTH * 4 * sizeof(float));
    uint64_t d_lattice = wl_alloc(w, npts * sizeof(float));
    gs_function *k = wl_kernel(w, "cutcp_lattice");
    size_t c_bytes = 0;
    uint64_t c_nbrs = wl_global(w, "c_nbrs", &c_bytes);
    if (wl_ok(w) && c_bytes < (size_t)nnbrs * sizeof(struct int3))
        wl_fail(w, WL_INPUT_ERROR, "c_nbrs holds %zu bytes, the neighbour list needs %zu", c_bytes,
                (size_t)nnbrs * sizeof(struct int3));
    wl_htod(w, c_nbrs, nbrs, (size_t)nnbrs * sizeof(struct int3));
    float hh = h, c2 = cutoff2;
    void *params[] = {&d_bins, &nbx, &nby, &nbz, &nnbrs, &d_lattice, &nx, &ny, &nz, &hh, &c2};
    wl_launch(w, k, (unsigned)nbx, (unsigned)nby, (unsigned)nbz, REGION, REGION, REGION / ZPOINTS, 0, params);
    wl_dtoh(w, lattice, d_lattice, npts * sizeof(float));
    if (!wl_ok(w))
        goto out;

    /* Reference, in the kernel's operation order; also the largest
     * sum_j |term_j| over the points, for the tolerance. */
    const float inv_cutoff2 = 1.0f / cutoff2;
    double max_abs = 0.0;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                int z0 = z / ZPOINTS * ZPOINTS; /* the thread's first point */
                float px = h * (float)x, py = h * (float)y, pz0 = h * (float)z0;
                float e = 0.0f;
                double abs_sum = 0.0;
                for (int n = 0; n < nnbrs; n++) {
                    int bx = x / REGION + nbrs[n].x, by = y / REGION + nbrs[n].y, bz = z / REGION + nbrs[n].z;
                    if (bx < 0 || bx >= nbx || by < 0 || by >= nby || bz < 0 || bz >= nbz)
                        continue;
                    const float *a = bins + 4 * ((size_t)(bz * nby + by) * nbx + bx) * BIN_DEPTH;
                    for (int s = 0; s < BIN_DEPTH; s++, a += 4) {
                        float dx = a[0] - px, dy = a[1] - py;
                        float dxy2 = fmaf(dx, dx, dy * dy);
                        float dz = a[2] - pz0;
                        for (int m = z0; m < z; m++)
                            dz -= h;
                        float r2 = fmaf(dz, dz, dxy2);
                        if (r2 < cutoff2) {
                            float s1 = fmaf(-r2, inv_cutoff2, 1.0f);
                            float qs = a[3] * (float)(1.0 / sqrt((double)r2)) * s1;
                            e = fmaf(qs, s1, e);
                            abs_sum += fabs((double)qs * s1);
                        }
                    }
                }
                ref[((size_t)z * ny + y) * nx + x] = e;
                if (abs_sum > max_abs)
                    max_abs = abs_sum;
            }
    wl_check_f32(w, "lattice", lattice, ref, npts, 0.0, ldexp(max_abs, -21));
out:
    free(bins);
    free(fill);
    free(lattice);
    free(ref);
    return wl_finish(w);
}

WL_REGISTER(cutcp) = {
    .name = "cutcp",
    .summary = "cutoff Coulombic potential on a 3-D lattice from spatially binned atoms",
    .mirrors = "Parboil cutcp",
    .stresses = "compute-bound, shared-memory staging, divergent cutoff test, SFU (rsqrt), constant memory",
    .flags = WL_REG_HEAVY,
    .sizes = {"12x6x6 lattice, 2 regions", "32x32x16 lattice, 32 regions", "64x64x40 lattice, 320 regions",
              "128x128x64 lattice, 2048 regions"},
    .run = run,
};
