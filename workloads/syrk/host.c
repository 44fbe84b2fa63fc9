/* workloads/syrk/host.c: driver for syrk (C = alpha*A*A^T + beta*C,
 * Polybench SYRK).
 *
 * Inputs: A (n x m) and C (n x n) uniform in [-1, 1) from --seed, alpha 1.5,
 * beta 1.2. One launch of 32x8 CTAs covers C (partial CTAs at the edges
 * when n is not a multiple of the block). Check: exact, because the
 * reference evaluates the same correctly rounded fp32 chain as the kernel
 * (beta*c, then one alpha*a[i][k] product and one fused multiply-add per k,
 * in k order). */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

static void syrk_ref(const float *a, float *c, float alpha, float beta, int n, int m)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const float *ai = a + (size_t)i * m, *aj = a + (size_t)j * m;
            float acc = beta * c[(size_t)i * n + j];
            for (int k = 0; k < m; k++)
                acc = fmaf(alpha * ai[k], aj[k], acc);
            c[(size_t)i * n + j] = acc;
        }
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 45, 384, 768, 1536); /* C is n x n */
    int m = (int)wl_pick(w, 23, 384, 768, 1536); /* A is n x m */
    float alpha = 1.5f, beta = 1.2f;
    size_t a_bytes = (size_t)n * m * sizeof(float), c_bytes = (size_t)n * n * sizeof(float);
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *a = wl_host_alloc(w, a_bytes);
    float *c = wl_host_alloc(w, c_bytes);
    float *ref = wl_host_alloc(w, c_bytes);
    for (size_t k = 0; k < (size_t)n * m; k++)
        a[k] = wl_rng_float(&r, -1.0f, 1.0f);
    for (size_t k = 0; k < (size_t)n * n; k++)
        ref[k] = c[k] = wl_rng_float(&r, -1.0f, 1.0f);
    syrk_ref(a, ref, alpha, beta, n, m);

    uint64_t da = wl_alloc_copy(w, a, a_bytes);
    uint64_t dc = wl_alloc_copy(w, c, c_bytes);
    gs_function *k = wl_kernel(w, "syrk");
    unsigned bx = 32, by = 8;
    void *params[] = {&da, &dc, &alpha, &beta, &n, &m};
    wl_launch(w, k, (unsigned)(n + bx - 1) / bx, (unsigned)(n + by - 1) / by, 1, bx, by, 1, 0, params);
    wl_dtoh(w, c, dc, c_bytes);
    if (wl_ok(w))
        wl_check_f32(w, "c", c, ref, (size_t)n * n, 0.0, 0.0);
    free(a);
    free(c);
    free(ref);
    return wl_finish(w);
}

WL_REGISTER(syrk) = {
    .name = "syrk",
    .summary = "symmetric rank-k update C = alpha*A*A^T + beta*C (fp32)",
    .mirrors = "Polybench/GPU SYRK",
    .stresses = "compute-bound inner product loop, strided uncoalesced loads with heavy reuse",
    .flags = WL_REG_HEAVY | WL_CACHE_SENS,
    .sizes = {"n=45, m=23", "n=m=384", "n=m=768", "n=m=1536"},
    .run = run,
};
