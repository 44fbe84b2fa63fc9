/* workloads/mvt/host.c: driver for mvt (x1 += A y1, x2 += A^T y2).
 *
 * Inputs: A (n x n), x1, x2, y1 and y2 uniform in [-1, 1) from --seed. Two
 * launches of 256-thread blocks over n (partial last block at the tiny
 * size), updating x1 and x2 in place.
 * Check: the host reference accumulates each dot product onto the initial
 * x value in the same order (ascending j) with one fused multiply-add per
 * term, which is what nvcc emits for `acc += a * b` (fma.rn.f32), so the
 * results agree to the last bit; the tolerance (rel 1e-6, a few ulps, plus
 * abs 1e-6 for results near zero) only leaves room for an ulp-level
 * difference. */
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
    float *x1 = wl_host_alloc(w, n * sizeof(float));
    float *x2 = wl_host_alloc(w, n * sizeof(float));
    float *y1 = wl_host_alloc(w, n * sizeof(float));
    float *y2 = wl_host_alloc(w, n * sizeof(float));
    float *ref1 = wl_host_alloc(w, n * sizeof(float));
    float *ref2 = wl_host_alloc(w, n * sizeof(float));
    float *got = wl_host_alloc(w, n * sizeof(float));
    for (size_t k = 0; k < nn; k++)
        A[k] = wl_rng_float(&r, -1.0f, 1.0f);
    for (int i = 0; i < n; i++) {
        x1[i] = wl_rng_float(&r, -1.0f, 1.0f);
        x2[i] = wl_rng_float(&r, -1.0f, 1.0f);
        y1[i] = wl_rng_float(&r, -1.0f, 1.0f);
        y2[i] = wl_rng_float(&r, -1.0f, 1.0f);
    }

    /* Reference. */
    for (int i = 0; i < n; i++) {
        float acc1 = x1[i], acc2 = x2[i];
        for (int j = 0; j < n; j++) {
            acc1 = fmaf(A[(size_t)i * n + j], y1[j], acc1);
            acc2 = fmaf(A[(size_t)j * n + i], y2[j], acc2);
        }
        ref1[i] = acc1;
        ref2[i] = acc2;
    }

    uint64_t dA = wl_alloc_copy(w, A, nn * sizeof(float));
    uint64_t dx1 = wl_alloc_copy(w, x1, n * sizeof(float));
    uint64_t dx2 = wl_alloc_copy(w, x2, n * sizeof(float));
    uint64_t dy1 = wl_alloc_copy(w, y1, n * sizeof(float));
    uint64_t dy2 = wl_alloc_copy(w, y2, n * sizeof(float));
    gs_function *kay = wl_kernel(w, "mvt_ay");
    gs_function *katy = wl_kernel(w, "mvt_aty");
    unsigned block = 256, grid = (unsigned)(n + block - 1) / block;
    void *pay[] = {&dA, &dy1, &dx1, &n};
    wl_launch(w, kay, grid, 1, 1, block, 1, 1, 0, pay);
    void *paty[] = {&dA, &dy2, &dx2, &n};
    wl_launch(w, katy, grid, 1, 1, block, 1, 1, 0, paty);

    wl_dtoh(w, got, dx1, n * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "x1", got, ref1, (size_t)n, 1e-6, 1e-6);
    wl_dtoh(w, got, dx2, n * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "x2", got, ref2, (size_t)n, 1e-6, 1e-6);
    free(A);
    free(x1);
    free(x2);
    free(y1);
    free(y2);
    free(ref1);
    free(ref2);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(mvt) = {
    .name = "mvt",
    .summary = "two matrix-vector products, x1 += A y1 and x2 += A^T y2",
    .mirrors = "Polybench MVT (Polybench-GPU style)",
    .stresses = "memory-bound; uncoalesced row-per-thread reads (cache-sensitive) then coalesced column reads",
    .flags = WL_REG_HEAVY | WL_CACHE_SENS,
    .sizes = {"300 x 300", "2048 x 2048", "6144 x 6144", "12288 x 12288"},
    .run = run,
};
