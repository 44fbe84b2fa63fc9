/* workloads/cp/host.c: driver for cp (ISPASS-2009 CP, coulombic potential).
 *
 * Input from --seed: natoms point charges q uniform in [-1, 1) placed
 * uniformly in a box of nx*h x ny*h x 16 A above the slice's x-y extent;
 * the slice is the plane z = 8.25 A (lattice spacing h = 0.5 A). The host
 * builds the (x, y, dz^2, q) records, copies each chunk of MAXATOMS into the
 * kernel's __constant__ buffer c_atoms (its address from wl_global) and
 * launches cp_cenergy per chunk on a zeroed energy grid.
 *
 * Check: the host repeats the kernel's float operations in the same order
 * (per chunk: the thread's sum from zero over the chunk's atoms in order,
 * x distances by repeated addition of 16 h, explicit fused multiply-adds,
 * then one add into the grid), with 1/sqrt computed correctly rounded, which
 * is what gpusim's rsqrt.approx returns; hardware rsqrt.approx is within 2 ulp.
 * A relative error of 2 ulp (2^-22) in each term moves V(p) by at most
 * 2^-22 * sum_j |q_j| / r_j; the roundings of the sums after such a
 * difference are smaller still. Tolerance: abs 2^-21 * max_p sum_j |q_j|/r_pj
 * (that bound for the worst point, with a factor 2 margin), rel 0. */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

#define MAXATOMS 4000 /* as in kernel.cu */
#define BLOCKX 16
#define BLOCKY 8
#define UNROLLX 8

static int run(struct wl *w)
{
    int nx = (int)wl_pick(w, 40, 128, 256, 512);
    int ny = (int)wl_pick(w, 10, 64, 256, 512);
    int natoms = (int)wl_pick(w, 4100, 6000, 8000, 16000);
    const float h = 0.5f, slice_z = 8.25f, depth = 16.0f;
    size_t npts = (size_t)nx * ny;

    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *atoms = wl_host_alloc(w, (size_t)natoms * 4 * sizeof(float)); /* x, y, dz^2, q */
    float *energy = wl_host_alloc(w, npts * sizeof(float));
    float *ref = wl_host_alloc(w, npts * sizeof(float));
    if (!wl_ok(w))
        goto out;
    for (int a = 0; a < natoms; a++) {
        float *at = atoms + 4 * a;
        at[0] = wl_rng_float(&r, 0.0f, (float)nx * h);
        at[1] = wl_rng_float(&r, 0.0f, (float)ny * h);
        float dz = slice_z - wl_rng_float(&r, 0.0f, depth);
        at[2] = dz * dz;
        at[3] = wl_rng_float(&r, -1.0f, 1.0f);
    }

    uint64_t d_energy = wl_alloc(w, npts * sizeof(float)); /* zero-filled */
    gs_function *k = wl_kernel(w, "cp_cenergy");
    /* The __constant__ atom buffer; every chunk (at most MAXATOMS records)
     * is copied into it. */
    size_t c_bytes = 0;
    uint64_t c_atoms = wl_global(w, "c_atoms", &c_bytes);
    if (wl_ok(w) && c_bytes < (size_t)MAXATOMS * 4 * sizeof(float))
        wl_fail(w, WL_INPUT_ERROR, "c_atoms holds %zu bytes, a chunk needs %zu", c_bytes,
                (size_t)MAXATOMS * 4 * sizeof(float));
    unsigned gx = (unsigned)(nx + BLOCKX * UNROLLX - 1) / (BLOCKX * UNROLLX);
    unsigned gy = (unsigned)(ny + BLOCKY - 1) / BLOCKY;
    float hh = h;
    for (int a0 = 0; a0 < natoms && wl_ok(w); a0 += MAXATOMS) {
        int chunk = natoms - a0 < MAXATOMS ? natoms - a0 : MAXATOMS;
        wl_htod(w, c_atoms, atoms + 4 * a0, (size_t)chunk * 4 * sizeof(float));
        void *params[] = {&chunk, &hh, &d_energy, &nx, &ny};
        wl_launch(w, k, gx, gy, 1, BLOCKX, BLOCKY, 1, 0, params);
    }
    wl_dtoh(w, energy, d_energy, npts * sizeof(float));
    if (!wl_ok(w))
        goto out;

    /* Reference, in the kernel's operation order; also the largest
     * sum_j |q_j| / r_j over the points, for the tolerance. */
    double max_abs = 0.0;
    const float step = h * (float)BLOCKX;
    for (int y = 0; y < ny; y++)
        for (int xt = 0; xt < nx; xt++) {
            /* Point xt is point u of the thread whose first point is x0. */
            int x0 = xt % (BLOCKX * UNROLLX) % BLOCKX + xt / (BLOCKX * UNROLLX) * (BLOCKX * UNROLLX);
            int u = (xt - x0) / BLOCKX;
            float py = h * (float)y, px = h * (float)x0, v = 0.0f;
            double abs_sum = 0.0;
            for (int a0 = 0; a0 < natoms; a0 += MAXATOMS) {
                int end = natoms - a0 < MAXATOMS ? natoms : a0 + MAXATOMS;
                float e = 0.0f;
                for (int a = a0; a < end; a++) {
                    const float *at = atoms + 4 * a;
                    float dy = py - at[1];
                    float dyz2 = fmaf(dy, dy, at[2]);
                    float dx = px - at[0];
                    for (int i = 0; i < u; i++)
                        dx += step;
                    float r2 = fmaf(dx, dx, dyz2);
                    float rinv = (float)(1.0 / sqrt((double)r2));
                    e = fmaf(at[3], rinv, e);
                    abs_sum += fabs((double)at[3]) * rinv;
                }
                v += e;
            }
            ref[(size_t)y * nx + xt] = v;
            if (abs_sum > max_abs)
                max_abs = abs_sum;
        }
    wl_check_f32(w, "energy", energy, ref, npts, 0.0, ldexp(max_abs, -21));
out:
    free(atoms);
    free(energy);
    free(ref);
    return wl_finish(w);
}

WL_REGISTER(cp) = {
    .name = "cp",
    .summary = "direct Coulomb summation of the potential on a 2-D lattice slice",
    .mirrors = "ISPASS-2009 CP (coulombic potential)",
    .stresses = "compute-bound, SFU (rsqrt), constant-memory broadcast, ILP from x-unrolling",
    .flags = WL_REG_HEAVY,
    .sizes = {"40x10 slice, 4100 atoms", "128x64 slice, 6000 atoms", "256x256 slice, 8000 atoms",
              "512x512 slice, 16000 atoms"},
    .run = run,
};
