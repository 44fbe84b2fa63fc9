/* workloads/kmeans/host.c: driver for kmeans (Rodinia kmeans: Lloyd's
 * k-means with the assignment step on the device).
 *
 * Input from --seed: n points with 34 features (the width of Rodinia's
 * kdd_cup input) drawn around 8 random centres (features in [0, 10), noise
 * uniform +-4 per feature) so that the k = 5 clusters have to merge and
 * split them over several iterations. The initial centroids are the first k
 * points.
 *
 * Host loop (as Rodinia's): kmeans_transpose once, then per iteration
 * kmeans_assign (256 threads per CTA, last CTA partial), copy the
 * memberships back, count the points that changed cluster, recompute each
 * centroid as the mean of its members (an empty cluster keeps its
 * centroid) and upload it; stop when no point changed or after
 * KM_MAX_ITERS iterations.
 *
 * Check: the transposed features, the final memberships and the iteration
 * count exactly; the final centroids exactly as well (tolerance 0): the CPU
 * reference runs the same algorithm with the same fmaf distance sequence,
 * so the distances, hence every comparison (ties included) and every
 * membership, are bit-identical, and the centroids come from the same host
 * function applied to identical memberships. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl.h"

#define KM_FEAT 34
#define KM_K 5
#define KM_CENTRES 8    /* centres the points are generated around */
#define KM_MAX_ITERS 30 /* iteration cap (Rodinia: 500, with a change threshold) */
#define KM_BLOCK 256

/* Nearest centroid of point p (point-major features), the kernel's
 * arithmetic: fmaf in feature order, first minimum wins. */
static int nearest_cpu(const float *pt, const float *centroids)
{
    int best = 0;
    float best_d = 0.0f;
    for (int c = 0; c < KM_K; c++) {
        float d = 0.0f;
        for (int f = 0; f < KM_FEAT; f++) {
            float diff = pt[f] - centroids[c * KM_FEAT + f];
            d = fmaf(diff, diff, d);
        }
        if (c == 0 || d < best_d) {
            best_d = d;
            best = c;
        }
    }
    return best;
}

/* Centroid update: the mean of each cluster's members, summed in double;
 * an empty cluster keeps its old centroid. */
static void update_centroids(const float *feat, const int *membership, int n, float *centroids)
{
    double sum[KM_K][KM_FEAT];
    int count[KM_K];
    memset(sum, 0, sizeof sum);
    memset(count, 0, sizeof count);
    for (int p = 0; p < n; p++) {
        int c = membership[p];
        count[c]++;
        for (int f = 0; f < KM_FEAT; f++)
            sum[c][f] += feat[p * KM_FEAT + f];
    }
    for (int c = 0; c < KM_K; c++)
        if (count[c])
            for (int f = 0; f < KM_FEAT; f++)
                centroids[c * KM_FEAT + f] = (float)(sum[c][f] / count[c]);
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 1000, 1 << 14, 1 << 17, 494020), n_feat = KM_FEAT, k = KM_K;
    size_t nf = (size_t)n * KM_FEAT;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);

    float centre[KM_CENTRES][KM_FEAT];
    for (int c = 0; c < KM_CENTRES; c++)
        for (int f = 0; f < KM_FEAT; f++)
            centre[c][f] = wl_rng_float(&r, 0.0f, 10.0f);
    float *feat = wl_host_alloc(w, nf * sizeof(float));
    for (int p = 0; p < n; p++) {
        int c = (int)wl_rng_below(&r, KM_CENTRES);
        for (int f = 0; f < KM_FEAT; f++)
            feat[p * KM_FEAT + f] = centre[c][f] + wl_rng_float(&r, -4.0f, 4.0f);
    }
    float init[KM_K * KM_FEAT], centroids[KM_K * KM_FEAT];
    memcpy(init, feat, sizeof init);
    memcpy(centroids, init, sizeof centroids);

    uint64_t d_feat = wl_alloc_copy(w, feat, nf * sizeof(float));
    uint64_t d_feat_t = wl_alloc(w, nf * sizeof(float));
    uint64_t d_centroids = wl_alloc_copy(w, centroids, sizeof centroids);
    uint64_t d_member = wl_alloc(w, (size_t)n * sizeof(int));
    gs_function *k_transpose = wl_kernel(w, "kmeans_transpose");
    gs_function *k_assign = wl_kernel(w, "kmeans_assign");
    unsigned grid = (unsigned)((n + KM_BLOCK - 1) / KM_BLOCK);

    void *p_transpose[] = {&d_feat, &d_feat_t, &n, &n_feat};
    wl_launch(w, k_transpose, grid, 1, 1, KM_BLOCK, 1, 1, 0, p_transpose);
    int *member = wl_host_alloc(w, (size_t)n * sizeof(int));
    int *prev = wl_host_alloc(w, (size_t)n * sizeof(int));
    for (int p = 0; p < n; p++)
        prev[p] = -1;
    void *p_assign[] = {&d_feat_t, &d_centroids, &d_member, &n, &n_feat, &k};
    int iters = 0, changed;
    do {
        wl_launch(w, k_assign, grid, 1, 1, KM_BLOCK, 1, 1, 0, p_assign);
        wl_dtoh(w, member, d_member, (size_t)n * sizeof(int));
        if (!wl_ok(w))
            break;
        changed = 0;
        for (int p = 0; p < n; p++) {
            if ((unsigned)member[p] >= KM_K) {
                wl_fail(w, WL_MISMATCH, "membership[%d] = %d is not a cluster", p, member[p]);
                break;
            }
            changed += member[p] != prev[p];
        }
        if (!wl_ok(w))
            break;
        update_centroids(feat, member, n, centroids);
        wl_htod(w, d_centroids, centroids, sizeof centroids);
        memcpy(prev, member, (size_t)n * sizeof(int));
        iters++;
    } while (changed && iters < KM_MAX_ITERS && wl_ok(w));
    float *feat_t = wl_host_alloc(w, nf * sizeof(float));
    wl_dtoh(w, feat_t, d_feat_t, nf * sizeof(float));

    if (wl_ok(w)) {
        /* CPU reference: the same loop with nearest_cpu. */
        float *t_want = wl_host_alloc(w, nf * sizeof(float));
        for (int p = 0; p < n; p++)
            for (int f = 0; f < KM_FEAT; f++)
                t_want[(size_t)f * n + p] = feat[p * KM_FEAT + f];
        int *m_want = wl_host_alloc(w, (size_t)n * sizeof(int));
        float c_want[KM_K * KM_FEAT];
        memcpy(c_want, init, sizeof c_want);
        int it_want = 0, ch;
        do {
            ch = 0;
            for (int p = 0; p < n; p++) {
                int m = nearest_cpu(&feat[p * KM_FEAT], c_want);
                ch += it_want == 0 || m != m_want[p];
                m_want[p] = m;
            }
            update_centroids(feat, m_want, n, c_want);
            it_want++;
        } while (ch && it_want < KM_MAX_ITERS);
        int size[KM_K] = {0};
        for (int p = 0; p < n; p++)
            size[m_want[p]]++;
        wl_note(w, "%d points x %d features, k = %d: %d iterations; cluster sizes %d %d %d %d %d", n, KM_FEAT, KM_K,
                it_want, size[0], size[1], size[2], size[3], size[4]);
        wl_check_f32(w, "feat_t", feat_t, t_want, nf, 0.0, 0.0);
        wl_check(w, iters == it_want, "device run took %d iterations, the CPU reference %d", iters, it_want);
        wl_check_i32(w, "membership", member, m_want, (size_t)n);
        wl_check_f32(w, "centroids", centroids, c_want, KM_K * KM_FEAT, 0.0, 0.0);
        free(t_want);
        free(m_want);
    }
    wl_free(w, d_feat);
    wl_free(w, d_feat_t);
    wl_free(w, d_centroids);
    wl_free(w, d_member);
    free(feat);
    free(member);
    free(prev);
    free(feat_t);
    return wl_finish(w);
}

WL_REGISTER(kmeans) = {
    .name = "kmeans",
    .summary = "k-means clustering (k = 5, 34 features): device assignment, host centroid update",
    .mirrors = "Rodinia kmeans",
    .stresses = "compute-bound distance loops, coalesced feature-major loads, shared-memory broadcast",
    .flags = WL_REG_HEAVY,
    .sizes = {"1000 points", "16K points", "128K points", "494020 points (kdd_cup)"},
    .run = run,
};
