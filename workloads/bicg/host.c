/* workloads/bicg/host.c: driver for bicg (s = A^T r, q = A p).
 *
 * Inputs: A (n x n), r and p uniform in [-1, 1) from --seed. Two launches
 * of 256-thread blocks over n (partial last block at the tiny size).
 * Check: the host reference accumulates each dot product in the same order
 * (ascending index from 0.0f) with one fused multiply-add per term, which is
 * what nvcc emits for `acc += a * b` (fma.rn.f32), so the results agree to
 * the last bit; the tolerance (rel 1e-6, a few ulps, plus abs 1e-6 for
 * results near zero) only leaves room for an ulp-level difference. */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 300, 2048, 6144, 12288);
    size_t nn = (size_t)n * n;
    struct wl_rng rng;
    wl_rng_init(&rng, w->seed, 0);
    float *A = wl_host_alloc(w, nn * sizeof(float));
    float *r = wl_host_alloc(w, n * sizeof(float));
    float *p = wl_host_alloc(w, n * sizeof(float));
    float *s = wl_host_alloc(w, n * sizeof(float));
    float *q = wl_host_alloc(w, n * sizeof(float));
    float *got = wl_host_alloc(w, n * sizeof(float));
    for (size_t k = 0; k < nn; k++)
        A[k] = wl_rng_float(&rng, -1.0f, 1.0f);
    for (int i = 0; i < n; i++) {
        r[i] = wl_rng_float(&rng, -1.0f, 1.0f);
        p[i] = wl_rng_float(&rng, -1.0f, 1.0f);
    }

    /* Reference: s (zero-initialised) accumulates row i of A scaled by r[i]
     * for i ascending; q[i] is row i dotted with p, j ascending. */
    for (int j = 0; j < n; j++)
        s[j] = 0.0f;
    for (int i = 0; i < n; i++) {
        float acc = 0.0f;
        for (int j = 0; j < n; j++) {
            s[j] = fmaf(r[i], A[(size_t)i * n + j], s[j]);
            acc = fmaf(A[(size_t)i * n + j], p[j], acc);
        }
        q[i] = acc;
    }

    uint64_t dA = wl_alloc_copy(w, A, nn * sizeof(float));
    uint64_t dr = wl_alloc_copy(w, r, n * sizeof(float));
    uint64_t dp = wl_alloc_copy(w, p, n * sizeof(float));
    uint64_t ds = wl_alloc(w, n * sizeof(float));
    uint64_t dq = wl_alloc(w, n * sizeof(float));
    gs_function *katr = wl_kernel(w, "bicg_atr");
    gs_function *kap = wl_kernel(w, "bicg_ap");
    unsigned block = 256, grid = (unsigned)(n + block - 1) / block;
    void *patr[] = {&dA, &dr, &ds, &n};
    wl_launch(w, katr, grid, 1, 1, block, 1, 1, 0, patr);
    void *pap[] = {&dA, &dp, &dq, &n};
    wl_launch(w, kap, grid, 1, 1, block, 1, 1, 0, pap);

    wl_dtoh(w, got, ds, n * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "s", got, s, (size_t)n, 1e-6, 1e-6);
    wl_dtoh(w, got, dq, n * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "q", got, q, (size_t)n, 1e-6, 1e-6);
    free(A);
    free(r);
    free(p);
    free(s);
    free(q);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(bicg) = {
    .name = "bicg",
    .summary = "BiCG sub-kernel: s = A^T r and q = A p",
    .mirrors = "Polybench BICG (Polybench-GPU style)",
    .stresses = "memory-bound; coalesced column reads then uncoalesced row-per-thread reads (cache-sensitive)",
    .flags = WL_REG_HEAVY | WL_CACHE_SENS,
    .sizes = {"300 x 300", "2048 x 2048", "6144 x 6144", "12288 x 12288"},
    .run = run,
};
