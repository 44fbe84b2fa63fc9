/* workloads/gesummv/host.c: driver for gesummv (y = alpha A x + beta B x).
 *
 * Inputs: A, B (n x n) and x uniform in [-1, 1) from --seed; alpha = 1.5,
 * beta = 1.2 (the Polybench constants). One launch of 256-thread blocks over
 * n (partial last block at the tiny size).
 * Check: the host reference accumulates both dot products in the same order
 * (ascending j from 0.0f) with one fused multiply-add per term, which is what
 * nvcc emits for `acc += a * b` (fma.rn.f32), and combines them with the
 * kernel's explicit fmaf(alpha, ax, beta * bx), so the results agree to the
 * last bit; the tolerance (rel 1e-6, a few ulps, plus abs 1e-6 for results
 * near zero) only leaves room for an ulp-level difference. */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 300, 2048, 6144, 12288);
    float alpha = 1.5f, beta = 1.2f;
    size_t nn = (size_t)n * n;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *A = wl_host_alloc(w, nn * sizeof(float));
    float *B = wl_host_alloc(w, nn * sizeof(float));
    float *x = wl_host_alloc(w, n * sizeof(float));
    float *y = wl_host_alloc(w, n * sizeof(float));
    float *got = wl_host_alloc(w, n * sizeof(float));
    for (size_t k = 0; k < nn; k++) {
        A[k] = wl_rng_float(&r, -1.0f, 1.0f);
        B[k] = wl_rng_float(&r, -1.0f, 1.0f);
    }
    for (int j = 0; j < n; j++)
        x[j] = wl_rng_float(&r, -1.0f, 1.0f);

    /* Reference. */
    for (int i = 0; i < n; i++) {
        float ax = 0.0f, bx = 0.0f;
        for (int j = 0; j < n; j++) {
            ax = fmaf(A[(size_t)i * n + j], x[j], ax);
            bx = fmaf(B[(size_t)i * n + j], x[j], bx);
        }
        y[i] = fmaf(alpha, ax, beta * bx);
    }

    uint64_t dA = wl_alloc_copy(w, A, nn * sizeof(float));
    uint64_t dB = wl_alloc_copy(w, B, nn * sizeof(float));
    uint64_t dx = wl_alloc_copy(w, x, n * sizeof(float));
    uint64_t dy = wl_alloc(w, n * sizeof(float));
    gs_function *k = wl_kernel(w, "gesummv");
    unsigned block = 256, grid = (unsigned)(n + block - 1) / block;
    void *params[] = {&dA, &dB, &dx, &dy, &alpha, &beta, &n};
    wl_launch(w, k, grid, 1, 1, block, 1, 1, 0, params);

    wl_dtoh(w, got, dy, n * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "y", got, y, (size_t)n, 1e-6, 1e-6);
    free(A);
    free(B);
    free(x);
    free(y);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(gesummv) = {
    .name = "gesummv",
    .summary = "scaled sum of two matrix-vector products, y = alpha A x + beta B x",
    .mirrors = "Polybench GESUMMV (Polybench-GPU style)",
    .stresses = "memory-bound; two uncoalesced row-per-thread streams (cache-sensitive)",
    .flags = WL_REG_HEAVY | WL_CACHE_SENS,
    .sizes = {"300 x 300", "2048 x 2048", "6144 x 6144", "12288 x 12288"},
    .run = run,
};
