/* workloads/nn/host.c: driver for nn (k nearest records to a target).
 *
 * Inputs: n records with latitude uniform in [-90, 90) and longitude in
 * [-180, 180) degrees, a target location drawn the same way, k = 10. The
 * data are made tie-free near the answer: while two of the k+1 nearest
 * records (by the CPU distance) are within a relative 1e-4 of each other,
 * the farther one is moved to a fresh random location.
 *
 * Runs nn_dist (256 threads per CTA) and nn_select (one CTA per chunk of
 * 2048 records, k candidates each); the host merges the candidates into the
 * k nearest, as Rodinia's host does with the distances.
 *
 * Checks:
 *   - distances against sqrtf(fmaf(dlat, dlat, dlng * dlng)) on the CPU:
 *     relative 1e-6, since a differently contracted sum of squares changes
 *     the radicand by at most 1 ulp and the square root halves that relative
 *     error;
 *   - each CTA's candidate list exactly against a CPU selection over the
 *     device's own distances (same input, ties broken by index);
 *   - the k selected record indices exactly against the CPU's k nearest
 *     (the data are tie-free far beyond the distance tolerance). */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

#define DIST_THREADS 256
#define SELECT_THREADS 256
#define SELECT_CHUNK (SELECT_THREADS * 8) /* records per nn_select CTA */
#define K 10

/* true when (d1, i1) orders before (d2, i2) */
static int before(float d1, int i1, float d2, int i2) { return d1 < d2 || (d1 == d2 && i1 < i2); }

/* Insert (d, i) into the ascending list top_d/top_i of length k when it
 * orders before the last entry. Empty slots hold (+inf, -1); distances are
 * finite, so they always order before an empty slot. */
static void insert_k(float *top_d, int *top_i, int k, float d, int i)
{
    if (!before(d, i, top_d[k - 1], top_i[k - 1]))
        return;
    int s = k - 1;
    while (s > 0 && before(d, i, top_d[s - 1], top_i[s - 1])) {
        top_d[s] = top_d[s - 1];
        top_i[s] = top_i[s - 1];
        s--;
    }
    top_d[s] = d;
    top_i[s] = i;
}

/* The k smallest (distance, index) pairs of dist[lo, hi) in ascending order
 * into out_d/out_i; slots beyond hi - lo stay (+inf, -1). */
static void select_k(const float *dist, int lo, int hi, int k, float *out_d, int *out_i)
{
    for (int s = 0; s < k; s++) {
        out_d[s] = INFINITY;
        out_i[s] = -1;
    }
    for (int i = lo; i < hi; i++)
        insert_k(out_d, out_i, k, dist[i], i);
}

static float cpu_dist(const float *rec, int i, float lat, float lng)
{
    float dlat = rec[2 * i] - lat, dlng = rec[2 * i + 1] - lng;
    return sqrtf(fmaf(dlat, dlat, dlng * dlng));
}

/* Move records until the K+1 nearest have pairwise relative gaps > 1e-4;
 * fills dist with the CPU distances. */
static void make_tie_free(struct wl_rng *r, float *rec, float *dist, int n, float lat, float lng)
{
    float bd[K + 1];
    int bi[K + 1];
    for (int i = 0; i < n; i++)
        dist[i] = cpu_dist(rec, i, lat, lng);
    for (;;) {
        select_k(dist, 0, n, K + 1, bd, bi);
        int moved = 0;
        for (int s = 1; s <= K && bi[s] >= 0; s++) {
            if (bd[s] - bd[s - 1] <= 1e-4f * bd[s]) {
                int i = bi[s];
                rec[2 * i] = wl_rng_float(r, -90.0f, 90.0f);
                rec[2 * i + 1] = wl_rng_float(r, -180.0f, 180.0f);
                dist[i] = cpu_dist(rec, i, lat, lng);
                moved = 1;
            }
        }
        if (!moved)
            return;
    }
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 5000, 1 << 20, 10000000, 50000000);
    int k = K;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *rec = wl_host_alloc(w, (size_t)n * 2 * sizeof(float));
    float *ref_dist = wl_host_alloc(w, (size_t)n * sizeof(float));
    float *dist = wl_host_alloc(w, (size_t)n * sizeof(float));
    float lat = wl_rng_float(&r, -90.0f, 90.0f), lng = wl_rng_float(&r, -180.0f, 180.0f);
    for (int i = 0; i < n; i++) {
        rec[2 * i] = wl_rng_float(&r, -90.0f, 90.0f);
        rec[2 * i + 1] = wl_rng_float(&r, -180.0f, 180.0f);
    }
    make_tie_free(&r, rec, ref_dist, n, lat, lng);

    unsigned nchunks = (unsigned)((n + SELECT_CHUNK - 1) / SELECT_CHUNK);
    size_t ncand = (size_t)nchunks * K;
    float *cand_d = wl_host_alloc(w, ncand * sizeof(float));
    int *cand_i = wl_host_alloc(w, ncand * sizeof(int));
    float *want_d = wl_host_alloc(w, ncand * sizeof(float));
    int *want_i = wl_host_alloc(w, ncand * sizeof(int));

    uint64_t drec = wl_alloc_copy(w, rec, (size_t)n * 2 * sizeof(float));
    uint64_t ddist = wl_alloc(w, (size_t)n * sizeof(float));
    uint64_t dcd = wl_alloc(w, ncand * sizeof(float));
    uint64_t dci = wl_alloc(w, ncand * sizeof(int));
    gs_function *fdist = wl_kernel(w, "nn_dist");
    gs_function *fsel = wl_kernel(w, "nn_select");
    void *pdist[] = {&drec, &ddist, &n, &lat, &lng};
    wl_launch(w, fdist, (unsigned)((n + DIST_THREADS - 1) / DIST_THREADS), 1, 1, DIST_THREADS, 1, 1, 0, pdist);
    void *psel[] = {&ddist, &n, &k, &dcd, &dci};
    wl_launch(w, fsel, nchunks, 1, 1, SELECT_THREADS, 1, 1, 0, psel);
    wl_dtoh(w, dist, ddist, (size_t)n * sizeof(float));
    wl_dtoh(w, cand_d, dcd, ncand * sizeof(float));
    wl_dtoh(w, cand_i, dci, ncand * sizeof(int));

    if (wl_ok(w)) {
        wl_check_f32(w, "dist", dist, ref_dist, (size_t)n, 1e-6, 0.0);
        for (unsigned c = 0; c < nchunks; c++) {
            int hi = (int)(c + 1) * SELECT_CHUNK < n ? (int)(c + 1) * SELECT_CHUNK : n;
            select_k(dist, (int)c * SELECT_CHUNK, hi, K, want_d + (size_t)c * K, want_i + (size_t)c * K);
        }
        wl_check_i32(w, "candidate index", cand_i, want_i, ncand);
        wl_check_f32(w, "candidate distance", cand_d, want_d, ncand, 0.0, 0.0);

        /* Host merge of the device candidates (the answer), and the CPU's
         * own k nearest over its own distances. */
        float top_d[K], ref_d[K];
        int top_i[K], ref_i[K];
        for (int s = 0; s < K; s++) {
            top_d[s] = INFINITY;
            top_i[s] = -1;
        }
        for (size_t c = 0; c < ncand; c++)
            if (cand_i[c] >= 0)
                insert_k(top_d, top_i, K, cand_d[c], cand_i[c]);
        select_k(ref_dist, 0, n, K, ref_d, ref_i);
        wl_check_i32(w, "nearest record", top_i, ref_i, K);
        wl_check_f32(w, "nearest distance", top_d, ref_d, K, 1e-6, 0.0);
        wl_note(w, "nearest record %d at %.4f degrees", top_i[0], (double)top_d[0]);
    }
    free(rec);
    free(ref_dist);
    free(dist);
    free(cand_d);
    free(cand_i);
    free(want_d);
    free(want_i);
    return wl_finish(w);
}

WL_REGISTER(nn) = {
    .name = "nn",
    .summary = "k = 10 nearest (lat, lng) records to a target: distance kernel + per-CTA top-k selection",
    .mirrors = "Rodinia nn",
    .stresses = "memory-bound streaming distance pass; shuffle reductions in the selection",
    .sizes = {"5000 records", "1M records", "10M records", "50M records"},
    .run = run,
    .flags = WL_MEM_SENS,
};
