/* workloads/scalarprod/host.c: driver for scalarprod (batched dot products).
 *
 * Inputs: npairs pairs of n-element float vectors, uniform in [0, 1) from
 * --seed (the CUDA SDK sample's range; n is not a multiple of the 256-thread
 * block at the tiny size, so some threads get one element fewer). One block
 * per pair.
 * Check against dot products accumulated in double. The products are
 * non-negative; each reaches the result through one rounding in the
 * thread's fused multiply-add plus at most m - 1 further serial additions
 * (m = ceil(n / 256) terms per thread) and 8 tree levels, so the standard
 * bound gives a relative error of at most about D * 2^-24 with D = m + 8;
 * the tolerance is 1.01 * (D + 1) * 2^-24 relative (the + 1 for rounding
 * the double reference to float; 1.5e-6 at the small size). */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

#define BLOCK 256

static int run(struct wl *w)
{
    int npairs = (int)wl_pick(w, 40, 1024, 8192, 32768);
    int n = (int)wl_pick(w, 1000, 4096, 8192, 8192);
    size_t total = (size_t)npairs * n;
    unsigned m = (unsigned)(n + BLOCK - 1) / BLOCK;
    double tol = 1.01 * (m + 9) * ldexp(1.0, -24);
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *a = wl_host_alloc(w, total * sizeof(float));
    float *b = wl_host_alloc(w, total * sizeof(float));
    float *ref = wl_host_alloc(w, npairs * sizeof(float));
    float *got = wl_host_alloc(w, npairs * sizeof(float));
    for (size_t k = 0; k < total; k++)
        a[k] = wl_rng_float(&r, 0.0f, 1.0f);
    for (size_t k = 0; k < total; k++)
        b[k] = wl_rng_float(&r, 0.0f, 1.0f);
    for (int v = 0; v < npairs; v++) {
        double s = 0.0;
        for (int k = 0; k < n; k++)
            s += (double)a[(size_t)v * n + k] * b[(size_t)v * n + k];
        ref[v] = (float)s;
    }

    uint64_t da = wl_alloc_copy(w, a, total * sizeof(float));
    uint64_t db = wl_alloc_copy(w, b, total * sizeof(float));
    uint64_t dout = wl_alloc(w, npairs * sizeof(float));
    gs_function *k = wl_kernel(w, "scalarprod");
    void *params[] = {&da, &db, &dout, &n};
    wl_launch(w, k, (unsigned)npairs, 1, 1, BLOCK, 1, 1, 0, params);
    wl_dtoh(w, got, dout, npairs * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "dot", got, ref, (size_t)npairs, tol, 0.0);
    free(a);
    free(b);
    free(ref);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(scalarprod) = {
    .name = "scalarprod",
    .summary = "batched float dot products, one block per vector pair",
    .mirrors = "CUDA SDK scalarProd",
    .stresses = "memory-bound streaming reads; shared-memory tree reduction with barriers",
    .flags = WL_REG_HEAVY,
    .sizes = {"40 pairs x 1000", "1024 pairs x 4096", "8192 pairs x 8192", "32768 pairs x 8192"},
    .run = run,
};
