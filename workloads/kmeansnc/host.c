/* workloads/kmeansnc/host.c: driver for kmeansnc (k-means with the
 * uncoalesced, point-major assignment kernel; the coalesced, feature-major
 * version is workloads/kmeans).
 *
 * Input from --seed: n points with 34 features (the width of Rodinia's
 * kdd_cup input) drawn around 8 random centres (features in [0, 10), noise
 * uniform +-4 per feature), as in workloads/kmeans but from its own stream
 * of draws. The initial centroids are the first k = 5 points.
 *
 * Host loop: per iteration kmeansnc_assign (256 threads per CTA, last CTA
 * partial) on the point-major features, copy the memberships back, count
 * the points that changed cluster, recompute each centroid as the mean of
 * its members (summed in double; an empty cluster keeps its centroid) and
 * upload it; stop when no point changed or after the size's iteration cap.
 * NOTE: the cap (tiny 2, small 1, medium 3, large 10 iterations) keeps the
 * timing simulation of small near a minute: small has 23040 points, exactly
 * the 90 CTAs of 256 threads that fill every warp slot of a 15-SM Fermi
 * once (6 CTAs per SM at the kernel's 19 registers), and one iteration is
 * about 1.2 M warp instructions and, under LRR on fermi15-vws, 2.5 M cycles
 * (the feature rows, 3.1 MB, are read from DRAM k = 5 times: the per-SM
 * working set of 48 warps x 35 lines overflows the L1D and, over 15 SMs,
 * the L2). The cache behaviour is the same in every iteration.
 *
 * Check: the final memberships and the iteration count exactly; the final
 * centroids exactly as well (tolerance 0): the CPU reference runs the same
 * loop with the same fmaf distance sequence, so the distances, hence every
 * comparison (ties included) and every membership, are bit-identical, and
 * the centroids come from the same host function applied to identical
 * memberships. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl.h"

#define KN_FEAT 34
#define KN_K 5
#define KN_CENTRES 8 /* centres the points are generated around */
#define KN_BLOCK 256

/* Nearest centroid of one point, the kernel's arithmetic: fmaf in feature
 * order, first minimum wins. */
static int nearest_cpu(const float *pt, const float *centroids)
{
    int best = 0;
    float best_d = 0.0f;
    for (int c = 0; c < KN_K; c++) {
        float d = 0.0f;
        for (int f = 0; f < KN_FEAT; f++) {
            float diff = pt[f] - centroids[c * KN_FEAT + f];
            d = fmaf(diff, diff, d);
        }
        if (c == 0 || d < best_d) {
            best_d = d;
            best = c;
        }
    }
    return best;
}

/* Centroid update: the mean of each cluster's members, summed in double in
 * point order; an empty cluster keeps its old centroid. */
static void update_centroids(const float *feat, const int *membership, int n, float *centroids)
{
    double sum[KN_K][KN_FEAT];
    int count[KN_K];
    memset(sum, 0, sizeof sum);
    memset(count, 0, sizeof count);
    for (int p = 0; p < n; p++) {
        int c = membership[p];
        count[c]++;
        for (int f = 0; f < KN_FEAT; f++)
            sum[c][f] += feat[(size_t)p * KN_FEAT + f];
    }
    for (int c = 0; c < KN_K; c++)
        if (count[c])
            for (int f = 0; f < KN_FEAT; f++)
                centroids[c * KN_FEAT + f] = (float)(sum[c][f] / count[c]);
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 1000, 23040, 1 << 17, 494020), n_feat = KN_FEAT, k = KN_K;
    int max_iters = (int)wl_pick(w, 2, 1, 3, 10);
    size_t nf = (size_t)n * KN_FEAT;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);

    float centre[KN_CENTRES][KN_FEAT];
    for (int c = 0; c < KN_CENTRES; c++)
        for (int f = 0; f < KN_FEAT; f++)
            centre[c][f] = wl_rng_float(&r, 0.0f, 10.0f);
    float *feat = wl_host_alloc(w, nf * sizeof(float));
    for (int p = 0; p < n; p++) {
        int c = (int)wl_rng_below(&r, KN_CENTRES);
        for (int f = 0; f < KN_FEAT; f++)
            feat[(size_t)p * KN_FEAT + f] = centre[c][f] + wl_rng_float(&r, -4.0f, 4.0f);
    }
    float init[KN_K * KN_FEAT], centroids[KN_K * KN_FEAT];
    memcpy(init, feat, sizeof init);
    memcpy(centroids, init, sizeof centroids);

    uint64_t d_feat = wl_alloc_copy(w, feat, nf * sizeof(float));
    uint64_t d_centroids = wl_alloc_copy(w, centroids, sizeof centroids);
    uint64_t d_member = wl_alloc(w, (size_t)n * sizeof(int));
    gs_function *k_assign = wl_kernel(w, "kmeansnc_assign");
    unsigned grid = (unsigned)((n + KN_BLOCK - 1) / KN_BLOCK);

    int *member = wl_host_alloc(w, (size_t)n * sizeof(int));
    int *prev = wl_host_alloc(w, (size_t)n * sizeof(int));
    for (int p = 0; p < n; p++)
        prev[p] = -1;
    void *p_assign[] = {&d_feat, &d_centroids, &d_member, &n, &n_feat, &k};
    int iters = 0, changed;
    do {
        wl_launch(w, k_assign, grid, 1, 1, KN_BLOCK, 1, 1, 0, p_assign);
        wl_dtoh(w, member, d_member, (size_t)n * sizeof(int));
        if (!wl_ok(w))
            break;
        changed = 0;
        for (int p = 0; p < n; p++) {
            if ((unsigned)member[p] >= KN_K) {
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
    } while (changed && iters < max_iters && wl_ok(w));

    if (wl_ok(w)) {
        /* CPU reference: the same loop with nearest_cpu. */
        int *m_want = wl_host_alloc(w, (size_t)n * sizeof(int));
        float c_want[KN_K * KN_FEAT];
        memcpy(c_want, init, sizeof c_want);
        int it_want = 0, ch;
        do {
            ch = 0;
            for (int p = 0; p < n; p++) {
                int m = nearest_cpu(&feat[(size_t)p * KN_FEAT], c_want);
                ch += it_want == 0 || m != m_want[p];
                m_want[p] = m;
            }
            update_centroids(feat, m_want, n, c_want);
            it_want++;
        } while (ch && it_want < max_iters);
        int size[KN_K] = {0};
        for (int p = 0; p < n; p++)
            size[m_want[p]]++;
        wl_note(w, "%d points x %d features, k = %d: %d iterations (cap %d); cluster sizes %d %d %d %d %d",
                n, KN_FEAT, KN_K, it_want, max_iters, size[0], size[1], size[2], size[3], size[4]);
        wl_check(w, iters == it_want, "device run took %d iterations, the CPU reference %d", iters, it_want);
        wl_check_i32(w, "membership", member, m_want, (size_t)n);
        wl_check_f32(w, "centroids", centroids, c_want, KN_K * KN_FEAT, 0.0, 0.0);
        free(m_want);
    }
    wl_free(w, d_feat);
    wl_free(w, d_centroids);
    wl_free(w, d_member);
    free(feat);
    free(member);
    free(prev);
    return wl_finish(w);
}

WL_REGISTER(kmeansnc) = {
    .name = "kmeansnc",
    .summary = "k-means clustering (k = 5, 34 features), point-major assignment kernel (one thread walks its point's row), host centroid update",
    .mirrors = "Rodinia kmeans with the untransposed (uncoalesced) layout, as CCWS's KMN (seed 000 ch. 4 C1)",
    .stresses = "uncoalesced per-thread feature-row walks (32 lines per warp load), intra-warp reuse across the k centroid passes, broadcast centroid loads",
    .flags = WL_CACHE_SENS,
    .sizes = {"1000 points, 2 iterations", "23040 points, 1 iteration", "128K points, 3 iterations", "494020 points (kdd_cup), 10 iterations"},
    .run = run,
};
