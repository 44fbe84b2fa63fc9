/* workloads/ss/host.c: driver for ss (similarity score of every document
 * pair, after Mars SimilarityScore).
 *
 * Input from --seed: n documents with d term-frequency features each; a
 * feature is 0 with probability 3/4, else a count in [1, 5] (stored as
 * float), so the vectors are sparse-ish like bag-of-words counts and an
 * occasional document may be all zeros (its similarities are 0).
 * Launches: ss_norm over the documents, then ss_sim on a (ceil(n/256), n)
 * grid of 256-thread blocks (the last block in x is partial when 256 does
 * not divide n).
 *
 * Check: the norms and the whole n x n similarity matrix. The features are
 * small integers, so every dot product and squared norm is an exact integer
 * in fp32 whatever the summation order; sqrtf and the division are
 * correctly rounded (sqrt.rn / div.rn) on both sides, so the results agree
 * bit for bit. The tolerance (rel 1e-6, abs 1e-7) only leaves room for an
 * ulp-level difference.
 *
 * NOTE (size choice): small has gridDim.x = 2, so with the interleaved CTA
 * dispatch over 15 SMs the CTAs of one SM alternate between the two halves
 * of the rows j, and the kernel is dominated by intra-warp reuse (GTO well
 * ahead of LRR on fermi15-vws). With n <= 256 (gridDim.x = 1) every CTA
 * reads the same rows j and lock-step warps of different CTAs share lines:
 * measured at n = 256, d = 96 on fermi15-vws, LRR hit 70 % of loads and
 * was 1.41x faster than GTO (l1d.perfect 1.92x over LRR). */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

#define SS_BLOCK 256

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 80, 320, 1024, 2048);
    int d = (int)wl_pick(w, 64, 64, 128, 256);
    size_t nd = (size_t)n * d, nn = (size_t)n * n;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *v = wl_host_alloc(w, nd * sizeof(float));
    float *norm = wl_host_alloc(w, (size_t)n * sizeof(float));
    float *sim = wl_host_alloc(w, nn * sizeof(float));
    float *got = wl_host_alloc(w, nn * sizeof(float));
    for (size_t k = 0; k < nd && v; k++)
        v[k] = wl_rng_below(&r, 4) == 0 ? (float)(1 + wl_rng_below(&r, 5)) : 0.0f;

    /* Reference: the kernels' arithmetic. */
    for (int i = 0; i < n && sim; i++) {
        float acc = 0.0f;
        for (int f = 0; f < d; f++)
            acc = fmaf(v[(size_t)i * d + f], v[(size_t)i * d + f], acc);
        norm[i] = sqrtf(acc);
    }
    for (int i = 0; i < n && sim; i++)
        for (int j = 0; j < n; j++) {
            float dot = 0.0f;
            for (int f = 0; f < d; f++)
                dot = fmaf(v[(size_t)i * d + f], v[(size_t)j * d + f], dot);
            float den = norm[i] * norm[j];
            sim[(size_t)i * n + j] = den > 0.0f ? dot / den : 0.0f;
        }

    uint64_t dv = wl_alloc_copy(w, v, nd * sizeof(float));
    uint64_t dnorm = wl_alloc(w, (size_t)n * sizeof(float));
    uint64_t dsim = wl_alloc(w, nn * sizeof(float));
    gs_function *kn = wl_kernel(w, "ss_norm");
    gs_function *ks = wl_kernel(w, "ss_sim");
    unsigned gx = (unsigned)(n + SS_BLOCK - 1) / SS_BLOCK;
    void *pn[] = {&dv, &dnorm, &n, &d};
    wl_launch(w, kn, gx, 1, 1, SS_BLOCK, 1, 1, 0, pn);
    void *ps[] = {&dv, &dnorm, &dsim, &n, &d};
    wl_launch(w, ks, gx, (unsigned)n, 1, SS_BLOCK, 1, 1, 0, ps);

    wl_dtoh(w, got, dnorm, (size_t)n * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "norm", got, norm, (size_t)n, 1e-6, 1e-7);
    wl_dtoh(w, got, dsim, nn * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "sim", got, sim, nn, 1e-6, 1e-7);
    free(v);
    free(norm);
    free(sim);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(ss) = {
    .name = "ss",
    .summary = "cosine similarity of every pair of documents' term-frequency vectors",
    .mirrors = "Mars SimilarityScore (MapReduce), as in seed 000 ch. 4 C1",
    .stresses = "uncoalesced per-thread row walks with intra-warp line reuse (cache-sensitive), "
                "row broadcast, rows shared across CTAs",
    /* Class (the bench/experiments/baseline rules, small, seed 1): 149 L1D
     * accesses per 1000 thread instructions under LRR (4716 per 1000 warp
     * instructions), so cache-sensitive; perfect DRAM changes IPC by < 1 %.
     * fermi15-vws, small: IPC 31.0 (lrr), 60.2 (gto), 90.8 (l1d.perfect). */
    .flags = WL_CACHE_SENS,
    .sizes = {"80 docs x 64 features", "320 docs x 64 features", "1024 docs x 128 features",
              "2048 docs x 256 features"},
    .run = run,
};
