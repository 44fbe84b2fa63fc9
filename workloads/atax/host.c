/* workloads/atax/host.c: driver for atax (y = A^T (A x)).
 *
 * Inputs: A (n x n) and x uniform in [-1, 1) from --seed. Two launches of
 * 256-thread blocks over n (n is not a multiple of 256 at the tiny size, so
 * the last block is partial); the second kernel reads the first's tmp.
 * Check: the host reference accumulates each dot product in the same order
 * (j, resp. i, ascending from 0.0f) with one fused multiply-add per term,
 * which is what nvcc emits for `acc += a * b` (fma.rn.f32), so the results
 * agree to the last bit; the tolerance (rel 1e-6, a few ulps, plus abs 1e-6
 * for results near zero) only leaves room for an ulp-level difference. */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 300, 2048, 6144, 12288);
    size_t nn = (size_t)n * n;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *A = wl_host_alloc(w, nn * sizeof(float));
    float *x = wl_host_alloc(w, n * sizeof(float));
    float *tmp = wl_host_alloc(w, n * sizeof(float));
    float *y = wl_host_alloc(w, n * sizeof(float));
    float *got = wl_host_alloc(w, n * sizeof(float));
    for (size_t k = 0; k < nn; k++)
        A[k] = wl_rng_float(&r, -1.0f, 1.0f);
    for (int j = 0; j < n; j++)
        x[j] = wl_rng_float(&r, -1.0f, 1.0f);

    /* Reference: tmp = A x, then y = A^T tmp (y zero-initialised). */
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int j = 0; j < n; j++)
            acc = fmaf(A[(size_t)i * n + j], x[j], acc);
        tmp[i] = acc;
    }
    for (int j = 0; j < n; j++)
        y[j] = 0.0f;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            y[j] = fmaf(A[(size_t)i * n + j], tmp[i], y[j]);

    uint64_t dA = wl_alloc_copy(w, A, nn * sizeof(float));
    uint64_t dx = wl_alloc_copy(w, x, n * sizeof(float));
    uint64_t dtmp = wl_alloc(w, n * sizeof(float));
    uint64_t dy = wl_alloc(w, n * sizeof(float));
    gs_function *kax = wl_kernel(w, "atax_ax");
    gs_function *katy = wl_kernel(w, "atax_aty");
    unsigned block = 256, grid = (unsigned)(n + block - 1) / block;
    void *pax[] = {&dA, &dx, &dtmp, &n};
    wl_launch(w, kax, grid, 1, 1, block, 1, 1, 0, pax);
    void *paty[] = {&dA, &dtmp, &dy, &n};
    wl_launch(w, katy, grid, 1, 1, block, 1, 1, 0, paty);

    wl_dtoh(w, got, dtmp, n * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "tmp", got, tmp, (size_t)n, 1e-6, 1e-6);
    wl_dtoh(w, got, dy, n * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "y", got, y, (size_t)n, 1e-6, 1e-6);
    free(A);
    free(x);
    free(tmp);
    free(y);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(atax) = {
    .name = "atax",
    .summary = "matrix transpose times matrix-vector product, y = A^T (A x)",
    .mirrors = "Polybench ATAX (Polybench-GPU style)",
    .stresses = "memory-bound; uncoalesced row-per-thread reads (cache-sensitive) then coalesced column reads",
    .flags = WL_REG_HEAVY | WL_CACHE_SENS,
    .sizes = {"300 x 300", "2048 x 2048", "6144 x 6144", "12288 x 12288"},
    .run = run,
};
