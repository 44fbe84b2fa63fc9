/* workloads/reduction/host.c: driver for reduction (array sums).
 *
 * Inputs from --seed: n unsigned integers uniform in [0, 256) and n floats
 * uniform in [0, 1) (the CUDA SDK sample's ranges). For each array, pass 1
 * runs min(ceil(n / 512), 64) blocks of 256 threads (so every thread sums
 * several elements at the larger sizes) and writes one partial sum per
 * block; pass 2 reduces those partials with one block.
 *
 * Checks: the block partial sums and the total. Element i belongs to block
 * (i mod (512 * grid)) / 512 in pass 1, which the reference uses to form the
 * same partial sums.
 *  - integers: sums modulo 2^32 are order-independent, so exact;
 *  - floats: the reference sums in double. Every input reaches its block's
 *    partial through at most m - 1 + 8 float additions (m elements summed
 *    serially per thread, then 8 tree/shuffle levels over 256 threads) and
 *    the total through 8 more (pass 2 has one partial per thread), so the
 *    standard bound for non-negative summands gives a relative error of at
 *    most D * 2^-24 / (1 - D * 2^-24) with D = m + 16; the tolerance is
 *    1.01 * (D + 1) * 2^-24 relative (the + 1 for rounding the double
 *    reference to float; about 3.2e-5 at the small size). */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

#define BLOCK 256
#define MAX_GRID 64

static int run(struct wl *w)
{
    unsigned n = (unsigned)wl_pick(w, 10000, 1u << 23, 1u << 26, 1u << 28);
    unsigned grid = (n + 2 * BLOCK - 1) / (2 * BLOCK);
    if (grid > MAX_GRID)
        grid = MAX_GRID;
    unsigned stride = 2 * BLOCK * grid;
    unsigned m = (n + BLOCK * grid - 1) / (BLOCK * grid); /* max elements per thread */
    double tol = 1.01 * (m + 17) * ldexp(1.0, -24);

    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    uint32_t *ui = wl_host_alloc(w, (size_t)n * sizeof(uint32_t));
    float *fi = wl_host_alloc(w, (size_t)n * sizeof(float));
    uint32_t *upart_ref = wl_host_alloc(w, grid * sizeof(uint32_t));
    uint32_t *upart = wl_host_alloc(w, grid * sizeof(uint32_t));
    double *dpart = wl_host_alloc(w, grid * sizeof(double));
    float *fpart_ref = wl_host_alloc(w, grid * sizeof(float));
    float *fpart = wl_host_alloc(w, grid * sizeof(float));
    for (unsigned i = 0; i < n; i++)
        ui[i] = wl_rng_below(&r, 256);
    for (unsigned i = 0; i < n; i++)
        fi[i] = wl_rng_float(&r, 0.0f, 1.0f);

    /* Reference partial sums per pass-1 block, and totals. */
    uint32_t utotal = 0;
    double dtotal = 0.0;
    for (unsigned i = 0; i < n; i++) {
        unsigned b = (i % stride) / (2 * BLOCK);
        upart_ref[b] += ui[i];
        dpart[b] += fi[i];
    }
    for (unsigned b = 0; b < grid; b++) {
        utotal += upart_ref[b];
        dtotal += dpart[b];
        fpart_ref[b] = (float)dpart[b];
    }
    float ftotal = (float)dtotal;

    gs_function *ku = wl_kernel(w, "reduce_u32");
    gs_function *kf = wl_kernel(w, "reduce_f32");
    uint64_t dui = wl_alloc_copy(w, ui, (size_t)n * sizeof(uint32_t));
    uint64_t dupart = wl_alloc(w, grid * sizeof(uint32_t));
    uint64_t dutotal = wl_alloc(w, sizeof(uint32_t));
    void *pu1[] = {&dui, &dupart, &n};
    wl_launch(w, ku, grid, 1, 1, BLOCK, 1, 1, 0, pu1);
    void *pu2[] = {&dupart, &dutotal, &grid};
    wl_launch(w, ku, 1, 1, 1, BLOCK, 1, 1, 0, pu2);

    uint64_t dfi = wl_alloc_copy(w, fi, (size_t)n * sizeof(float));
    uint64_t dfpart = wl_alloc(w, grid * sizeof(float));
    uint64_t dftotal = wl_alloc(w, sizeof(float));
    void *pf1[] = {&dfi, &dfpart, &n};
    wl_launch(w, kf, grid, 1, 1, BLOCK, 1, 1, 0, pf1);
    void *pf2[] = {&dfpart, &dftotal, &grid};
    wl_launch(w, kf, 1, 1, 1, BLOCK, 1, 1, 0, pf2);

    uint32_t ugot = 0;
    float fgot = 0.0f;
    wl_dtoh(w, upart, dupart, grid * sizeof(uint32_t));
    wl_dtoh(w, &ugot, dutotal, sizeof(uint32_t));
    wl_dtoh(w, fpart, dfpart, grid * sizeof(float));
    wl_dtoh(w, &fgot, dftotal, sizeof(float));
    if (wl_ok(w)) {
        wl_check_u32(w, "u32 partial", upart, upart_ref, grid);
        wl_check_u32(w, "u32 total", &ugot, &utotal, 1);
        wl_check_f32(w, "f32 partial", fpart, fpart_ref, grid, tol, 0.0);
        wl_check_f32(w, "f32 total", &fgot, &ftotal, 1, tol, 0.0);
    }
    free(ui);
    free(fi);
    free(upart_ref);
    free(upart);
    free(dpart);
    free(fpart_ref);
    free(fpart);
    return wl_finish(w);
}

WL_REGISTER(reduction) = {
    .name = "reduction",
    .summary = "sum of a uint32 array (exact) and of a float array, two-pass tree reduction",
    .mirrors = "CUDA SDK reduction (reduce6-style: multiple elements per thread, warp-shuffle tail)",
    .stresses = "memory-bound streaming reads; shared-memory tree with barriers; warp shuffles",
    .sizes = {"10000 elements", "8M elements", "64M elements", "256M elements"},
    .run = run,
};
